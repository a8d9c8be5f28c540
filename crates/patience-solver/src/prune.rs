//! Pruning rules, each used only on the rule sets for which it is proved safe.
//!
//! # Safe moves to the foundations
//! A card `c` goes to its foundation at once, as the only move searched from that position, when:
//! 1. foundation cards never come back (`cards_go_back = false`);
//! 2. the sources that fill spaces by force, taken together, never gain a card once they are all empty: each is
//!    the reserve, or the list holds both the waste and the stock (cards only leave the pair; a redeal moves them
//!    within it). A list with the waste but not the stock fails (a draw refills the waste), and so does one with
//!    the stock but not the waste (a redeal refills the stock);
//! 3. `c` is the top card of a tableau pile or of a reserve pile, or of the waste where the stock turns one card at
//!    a time and no space is filled by force from the waste or the stock (with a draw of three, taking a waste
//!    card changes which cards later draws turn up: the stock is not a free reserve); and when any space is
//!    filled by force, `c` lies on a tableau pile of two cards or more, or in the waste (a reserve card could go
//!    to a space by force in one line and not in the other);
//! 4. every card that could be built on `c` in the tableau is *never needed under another card*: it is on the
//!    foundations, or it is next on its foundation and every card that could be built on it is, in turn, never
//!    needed (at most four links: each card of such a chain is next on a foundation of its own).
//!
//! Call N the cards (4) names that are not on the foundations. Each is next on its foundation at P, a foundation
//! of its own, and stays next until it goes up itself: a foundation takes only its next card, and by (1) never
//! gives one back. Whatever can be built on a card of N is on the foundations or in N.
//!
//! Proof. Take any winning line L from position P, and let P' be P with `c` on its foundation. Play L from P',
//! leaving out the moves that move `c` alone (it must reach its foundation in L, since L wins), and changing the
//! moves that put cards of N onto `c` or onto a card of N that L' has already sent up: L' sends those cards to
//! their foundations instead, from the same source, top card first (each is next on its foundation, so each
//! may go), and leaves out their later moves. Call these cards, and `c`, the missing cards. By (1) and (4), the
//! only cards L ever puts on a missing card are cards of N, which then go missing too; so in L the missing cards
//! always form the top of the pile holding `c`, with `c` at its bottom, and L' has that pile without them. A move
//! of L that moves a run with missing cards on top moves the same run less those cards from L', which the same
//! rule allows: it is still a run, a whole pile is still a whole pile, and its bottom card is the same; both lines
//! leave the same source behind, so the same refills follow; a run of missing cards only is left out. The piles
//! of the two lines then differ only by the missing cards on top of one pile, which hide nothing L uses, and the
//! foundations of L' hold more cards, which no move of L takes back, so every other move of L is legal from P' at
//! its turn — unless the difference is a pile that L holds as missing cards only and P' holds empty, because a
//! forced fill could then put a card into that space in P' and not in L. That happens only in two ways. Either
//! `c` lay alone in a pile at P, which (3) allows only when no space is filled by force; or L moved `c` alone into
//! a space, which L could do only while every forced source was empty (or the space would have been filled), and
//! by (2) they stay empty, so no forced fill happens in either line. A `c` moved alone from a pile of two or more
//! leaves a card behind in both lines, and cards under `c` never move without it. So L' wins from P'.
//!
//! From the waste (session 40), L' also differs from L in the stock and the waste until L takes `c` out of the
//! waste: L's waste is that of L' with `c` in it, and, once a redeal has turned `c` back into the stock, so is
//! L's stock until `c` comes up again. A move from the waste while `c` is not its top takes the same card in both
//! lines, the cards over `c` being the same; a move of `c` from the waste is left out, or, onto the tableau, is
//! where `c` becomes a tableau card of the proof above. A draw turns the same card in both lines, one card at a
//! time, but for the draw that turns `c` up again after a redeal, which L' leaves out; the two stocks then hold the
//! same cards again, and empty together. A redeal turns the two wastes over in the same order, less `c` in L'.
//! No space is filled by force from the waste or the stock, so no fill takes `c` in one line and another card in
//! the other. With a draw of three, leaving `c` out would change which cards each later draw turns up together:
//! the reduced-pack sweeps fail on any-run Canfield when the waste's safe moves are let in there.
//!
//! Measured on Canfield (any run), one thread: deal 7 is proved lost in 17.5 million nodes (21.9 million when
//! (4) asked for every card built on `c` to be on the foundations already), deal 101 in 50.5 million (67.8).
//!
//! # A safe card in the stock
//! Where the stock turns up, `j` turns from a position `P`, a card `c` whose move from the waste to its foundation
//! is safe there (the conditions above, the waste's top card being a source they allow), the search takes that
//! step, and no step that turns the stock more than `j` times, nor any other step after `j` turns.
//!
//! Proof. Call `P_j` the position `P` turned `j` times: draws and redeals alone lead there, and every step left out
//! is a step from `P_j` (turn the stock on, then move), since the turns from `P` come in one order. The proof above
//! shows that a winning line `L` from `P_j` gives a winning line `L'` from `P_j` with `c` on its foundation, which
//! is where the step taken leads: `L'` is `L` less the moves of `c` and of the cards set aside with it, and the
//! others changed only in what they move, so `L'` is shorter than `L` by `c`'s move at least (`L` wins, so it moves
//! `c`). So where a step left out leads to a position that wins, the step taken leads to one that wins in fewer
//! moves than `P` does, turns counted as moves: the search finds a win wherever it did, and every position that
//! wins keeps a step to one that wins sooner, which is what `crate::lost` needs of a pass that marks positions
//! lost, as the safe moves above do. It is the safe move of `P_j` made a step of `P`, where the stock macro-moves
//! skip `P_j` itself.
//!
//! Storehouse, which builds in suit, so that every card its foundations may take from the waste is safe, proves
//! its lost deals in a sixteenth of the nodes (deals 1..10000 at 500,000 nodes a deal: every deal decided in 3.7
//! million nodes in all, against 59.1 million and 18 deals undecided); in the games built on regardless of suit
//! few cards are safe before the end, and their searches change by a few nodes.
//!
//! # Dead ends
//! A position whose waste holds a card the foundations need under more cards than the tableau can hold is lost,
//! and searched no further: the rule and its proof are in [`crate::dead_end`].
//!
//! # No order of play
//! Where foundation cards never come back, a position whose tableau and reserve allow no order of play to the
//! foundations is lost, and searched no further: the rule and its proof are in [`crate::play_order`].
//!
//! # One-way moves tried before
//! Call a move *one-way* when it moves one card to a foundation, or from the reserve or the waste: where foundation
//! cards never come back, no line of moves leads back from where it leads, since no move takes a card from a
//! foundation or puts one into the reserve, the stock or the waste. A one-way move `u` tried from a position `P`
//! before another step `m` need not be tried from `P` after `m`, when `m` left the piles `u` touches as they were
//! (the same length and the same top card): `u`'s source, a tableau or reserve pile of two cards or more, or the
//! waste, the stock turned first or not, with the stock; and `u`'s target, a foundation, or a tableau pile that
//! is not empty.
//!
//! Proof. `u` touches only those piles, and forces no fill and fills no space: a tableau or reserve pile keeps a
//! card, taking a card from the waste makes no space, and the card goes onto another. `m` touched none of them,
//! nor any fill from them, so `m` is legal after `u` too, and `P` after `m` then `u` is `P` after `u` then `m`: a
//! position reachable from `P` after `u`. That position was searched to the end, with no win, before `m` was tried
//! (or the search would have ended), and it is lost: a search that ends a position with no win proves it lost
//! unless a step it skipped led to a position still being searched below it on the path (see `crate::lost`),
//! and no such position is reachable from it, since each has fewer cards on the foundations, or more in the
//! reserve, or more in the stock and the waste. So `u` from `P` after `m` leads to a lost position, and leaving it
//! out loses no win; in a pass that marks lost positions it is a step to a settled one, which changes nothing
//! there either. Not used in the streamlined passes, whose searches prove nothing lost, and, since it did not pay
//! there, not in the full search either (see `search::run`). This is a sleep set, in the terms of
//! partial-order reduction, kept to the moves after which nothing on the search's path can be reached.
//!
//! # Stock macro-moves
//! Instead of one draw at a time, the search takes as one step "turn the stock until card X is on the waste, then
//! play X", for every X the stock can bring up (through every redeal left; with unlimited redeals, through one
//! whole pass after the first redeal, since the passes then repeat), beside the moves that do not touch the stock
//! or the waste. The positions between the draws are never stored. Used when no space is filled by force from the
//! waste or the stock.
//!
//! Proof. A draw or redeal touches only the stock and the waste, and whether it is allowed depends only on them.
//! A move that touches neither (tableau, reserve or foundation to tableau or foundation, with the refills it
//! forces, none of which comes from the waste or the stock by the condition) neither depends on them nor changes
//! them. So a draw followed by such a move gives the same position as that move followed by the draw, and both
//! orders are legal. Moving such moves before the draws, one swap at a time, turns any winning line into one in
//! which every run of stock moves is followed by a move from the waste (a line never ends with a draw, since a
//! draw wins nothing). Every step of that line is a step the search generates, so the search finds a win if there
//! is one. The positions it stores are exact, so the transposition table stays sound.
//!
//! In Canfield, Chameleon, Storehouse and Fortune's Favor, then, of the tableau and the reserve only cards on
//! piles of two or more are played at once (a reserve card could go to a space by force, where P' would send the
//! next one); Chameleon, Storehouse, Gate and the Four Seasons family, which turn one card at a time, play the
//! waste's top card too, and Fortune's Favor, whose spaces take the waste by force, does not; PySolFC's Gate,
//! whose spaces take the waste by force but not the stock, gets none; rule (1) keeps them off Solo Canfield.

use patience_core::rules::Source;
use patience_core::{Card, Move, Pile, Position, RuleSet};

use crate::play_order::PlayOrder;

/// The pruning a rule set allows, decided once before a search.
#[derive(Debug, Clone, Copy)]
pub struct Pruning {
    /// Whether safe moves to the foundations are proved for this rule set (see the module documentation).
    pub safe_foundation_moves: bool,
    /// Whether some space is filled by force, so that a safe move must come from a tableau pile of two or more.
    pub forced_fills: bool,
    /// Whether a safe move may come from the waste too: the stock turns one card at a time and no space is filled
    /// by force from the waste or the stock (see the module documentation).
    pub safe_from_the_waste: bool,
    /// Whether the stock is searched by macro-moves (see the module documentation).
    pub stock_macros: bool,
    /// Whether every move to the foundations is made at once, alone (see [`Pruning::streamlined`]).
    pub every_foundation_move_first: bool,
    /// Whether a one-way move tried from a position's parent before the step to it is left out (see the module
    /// documentation).
    pub one_way_tried: bool,
    /// Whether positions the dead-end rule proves lost are searched no further (see [`crate::dead_end`], which
    /// decides from the rules and the root whether the rule applies).
    pub dead_ends: bool,
    /// The rule by which a position is lost when no order of play fits its tableau, if it applies (see
    /// [`crate::play_order`]).
    pub play_order: Option<PlayOrder>,
}

impl Pruning {
    /// The pruning proved safe for these rules.
    pub fn for_rules(rules: &RuleSet) -> Pruning {
        let forced = &rules.tableau.spaces.forced;
        let forced_never_refill =
            forced.contains(&Source::Waste) == forced.contains(&Source::Stock);
        let forced_from_the_waste_or_stock = forced
            .iter()
            .any(|s| matches!(s, Source::Waste | Source::Stock));
        Pruning {
            safe_foundation_moves: !rules.foundations.cards_go_back && forced_never_refill,
            forced_fills: !forced.is_empty(),
            safe_from_the_waste: rules.stock.draw == 1 && !forced_from_the_waste_or_stock,
            stock_macros: !forced_from_the_waste_or_stock,
            every_foundation_move_first: false,
            one_way_tried: !rules.foundations.cards_go_back,
            dead_ends: true,
            play_order: PlayOrder::for_rules(rules),
        }
    }

    /// No pruning.
    pub fn none() -> Pruning {
        Pruning {
            safe_foundation_moves: false,
            forced_fills: false,
            safe_from_the_waste: false,
            stock_macros: false,
            every_foundation_move_first: false,
            one_way_tried: false,
            dead_ends: false,
            play_order: None,
        }
    }

    /// These rules with a streamliner added: a move to the foundations, from any pile, is made at once and alone.
    /// It is no proof: a card played up early may have been needed in the tableau, so a search with it can miss
    /// every win. It serves a first, narrower pass: a line it finds is a real line of legal moves, which the
    /// caller keeps, and when it finds none nothing follows from that.
    pub fn streamlined(self) -> Pruning {
        Pruning {
            every_foundation_move_first: true,
            one_way_tried: false,
            ..self
        }
    }

    /// A move to the foundations that is safe to make at once, if there is one.
    pub fn safe_move(&self, rules: &RuleSet, position: &Position) -> Option<Move> {
        self.safe_move_of_cards_alone(rules, position, |_| true)
    }

    /// A move to the foundations that is safe to make at once, of a card for which `alone` holds, as it must for
    /// every card the move's proof sets aside with it (see [`crate::relax`] for where it matters).
    pub(crate) fn safe_move_of_cards_alone(
        &self,
        rules: &RuleSet,
        position: &Position,
        alone: impl Fn(Card) -> bool,
    ) -> Option<Move> {
        let tableau = (0..position.tableau_piles() as u8).map(Pile::Tableau);
        let reserve = (0..position.reserve_piles() as u8).map(Pile::Reserve);
        tableau
            .chain(reserve)
            .chain([Pile::Waste])
            .find_map(|from| self.safe_move_from(rules, position, from, &alone))
    }

    /// Whether a card on top of the waste may ever be safe to move to its foundation at once under these rules:
    /// not with a draw of more than one card, cards that come back, or spaces filled by force from the waste or
    /// the stock.
    pub(crate) fn waste_may_be_safe(&self) -> bool {
        self.safe_foundation_moves && self.safe_from_the_waste
    }

    /// The move of `from`'s top card to its foundation, if it is safe to make at once and `alone` holds for the
    /// card (see [`Pruning::safe_move_of_cards_alone`]).
    pub(crate) fn safe_move_from(
        &self,
        rules: &RuleSet,
        position: &Position,
        from: Pile,
        alone: &impl Fn(Card) -> bool,
    ) -> Option<Move> {
        if !self.safe_foundation_moves || position.choice_pending() {
            return None;
        }
        let source_allowed = match from {
            Pile::Tableau(_) => position.len(from) >= if self.forced_fills { 2 } else { 1 },
            Pile::Reserve(_) => !self.forced_fills,
            Pile::Waste => self.safe_from_the_waste,
            _ => false,
        };
        let card = position.top(from).filter(|_| source_allowed)?;
        (position.foundation_next(card.suit()) == Some(card)
            && alone(card)
            && never_needed_under(rules, position, card, MOST_LINKS, alone))
        .then(|| Move::new(from, Pile::Foundation(card.suit() as u8), 1))
    }
}

/// Whether the step that turns the stock `draws` times and makes `mv`, taken from `parent` before the step that led
/// to `child`, need not be taken from `child` (see the module documentation): `mv` moves one card one way, to a
/// foundation or from the reserve or the waste, and the step left the piles it touches as they were. It moves
/// that card from a tableau or reserve pile of two cards or more (the stock not turned), or from the waste (the
/// stock and the waste left as they were); to a foundation, or, from the reserve or the waste, onto a tableau
/// card.
pub(crate) fn tried_before(parent: &Position, draws: u16, mv: Move, child: &Position) -> bool {
    let kept =
        |pile: Pile| child.len(pile) == parent.len(pile) && child.top(pile) == parent.top(pile);
    let to_kept = match mv.to {
        Pile::Foundation(suit) => {
            child.foundation_len(usize::from(suit)) == parent.foundation_len(usize::from(suit))
        }
        Pile::Tableau(_) if matches!(mv.from, Pile::Reserve(_) | Pile::Waste) => {
            parent.len(mv.to) >= 1 && kept(mv.to)
        }
        _ => return false,
    };
    let from_kept = match mv.from {
        Pile::Waste => kept(Pile::Stock) && kept(Pile::Waste),
        Pile::Tableau(_) | Pile::Reserve(_) => {
            draws == 0 && parent.len(mv.from) >= 2 && kept(mv.from)
        }
        _ => false,
    };
    mv.count == 1 && to_kept && from_kept
}

/// The most links a chain of never-needed cards (condition 4 above) may have: each is next on a foundation of
/// its own.
const MOST_LINKS: usize = 4;

/// Whether no card will ever need `card` under it in the tableau: every card that could be built on it is on
/// the foundations, or is next on its foundation and, in turn, never needed under anything. Each card of such a
/// chain is next on a foundation of its own, so a chain of more than four would come back round (in a
/// circular rank order) and proves nothing: `links` counts what is left.
fn never_needed_under(
    rules: &RuleSet,
    position: &Position,
    card: Card,
    links: usize,
    alone: &impl Fn(Card) -> bool,
) -> bool {
    let builders = position.cards_built_on(rules, card);
    Card::pack()
        .filter(|c| builders >> c.index() & 1 == 1)
        .all(|c| {
            position.on_foundation(c)
                || (links > 0
                    && position.foundation_next(c.suit()) == Some(c)
                    && alone(c)
                    && never_needed_under(rules, position, c, links - 1, alone))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    /// The first position, drawing one card at a time from `rules`' deal `number`, whose waste's top card may go
    /// to its foundation and no tableau or reserve card may safely, if any.
    fn waste_card_up(rules: &RuleSet, number: u64) -> Option<Position> {
        let tableau_and_reserve = Pruning {
            safe_from_the_waste: false,
            ..Pruning::for_rules(rules)
        };
        let mut position = Position::deal(rules, number).expect("a deal");
        loop {
            let top = position.top(Pile::Waste);
            if top.is_some_and(|card| position.foundation_next(card.suit()) == top)
                && tableau_and_reserve.safe_move(rules, &position).is_none()
            {
                return Some(position);
            }
            let draw = position
                .legal_moves(rules)
                .into_iter()
                .find(Move::is_draw)?;
            position.play(rules, draw).expect("a legal draw");
        }
    }

    #[test]
    fn a_safe_move_comes_from_the_waste_only_where_the_stock_turns_one_card_and_fills_no_space() {
        for (game, from_the_waste) in [
            ("storehouse", true),
            ("four-seasons", true),
            ("gate", true),
            ("canfield", false),
            ("fortunes-favor", false),
        ] {
            let rules = builtin::rules(game).expect("a built-in game");
            assert_eq!(
                Pruning::for_rules(&rules).safe_from_the_waste,
                from_the_waste,
                "{game}"
            );
        }
        // Storehouse builds in suit, so every card next on its foundation is safe to play up, from the waste too.
        let rules = builtin::rules("storehouse").expect("a built-in game");
        let position = (1..50)
            .find_map(|number| waste_card_up(&rules, number))
            .expect("a Storehouse deal turns up a card its foundation takes");
        let card = position.top(Pile::Waste).expect("a waste card");
        assert_eq!(
            Pruning::for_rules(&rules).safe_move(&rules, &position),
            Some(Move::new(
                Pile::Waste,
                Pile::Foundation(card.suit() as u8),
                1
            ))
        );
    }
}
