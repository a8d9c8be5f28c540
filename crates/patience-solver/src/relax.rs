//! Two relaxed games, searched to prove losses: tableau cards that building cannot tell apart may change places.
//!
//! # The relaxed games
//! Put the cards in classes: two cards are in one class when the same cards may be built on them and they may be
//! built on the same cards. Two positions are the same state of a relaxed game when they differ only by which
//! cards of a class lie where in the tableau: the same stock, waste, reserve and foundations, and the same piles
//! card for card up to class. The two games differ in what a card next on its foundation is (`NextCard`):
//!
//! - **Any card of its class.** The moves are the real moves and one more kind: a card next on its foundation
//!   that lies anywhere in the tableau goes up from the top of any pile whose top card is of its class, as if the
//!   two had changed places first.
//! - **Itself, placed as it comes next.** A card next on its foundation is kept apart from its class: positions of
//!   one state have it in the same place. The moves are the real moves, with a choice after a move to a
//!   foundation: the card that move makes next on that foundation, if it lies in the tableau, may first change
//!   places with any other card of its class there that is not next on a foundation itself. Its lines are lines of
//!   the first game too (a card placed and then dug out can be raised from where it was placed), so it loses every
//!   deal the first game loses, and more: the first lets a card come up from under others whenever a card of its
//!   class tops a pile, the second only from where it was placed.
//!
//! # Why a loss there is a loss
//! Every real line is a line of each relaxed game, so a deal a relaxed game loses, the real game loses. For that,
//! every real move from a position `Q` of a state must lead to the state of some step searched from `P`, the
//! position of that state the search holds.
//!
//! - A move not to a foundation: its legality and its result, up to the state, are the same from `P` as from `Q`.
//!   Moves within and into the tableau hang on which cards may be built on which, and on the piles' lengths and
//!   spaces, none of which a change within a class alters; a pile's top cards form a run or not alike. A move out
//!   of the stock, waste or reserve moves the same card from both. Where cards next on their foundations are kept
//!   apart, they lie in the same places in both, and stay next, since no foundation moves.
//! - A move to a foundation from the stock, waste or reserve: the same card, from both.
//! - A move to a foundation from the tableau, where any card of its class is next: it takes a card next on its
//!   foundation off the top of a pile. From `P` that is a relaxed move, since the card lies in the tableau (the
//!   tableau holds the cards that lie nowhere else, the same in every position of the state) and the pile's top is
//!   of its class.
//! - A move to a foundation where the card next is placed: the card lies in the same place in `P` as in `Q`, so
//!   the move is a move from `P` too. It makes a new card `n` next on that foundation. If `n` lies in the tableau,
//!   `P` has a card of its class where `Q` has `n`, and that card is not next on a foundation after the move,
//!   since those lie where they do in `Q`. Changing the two places in `P` and then making the move is one of the
//!   steps searched, and leads to the state of `Q`'s move: each card next on its foundation lies where it does in
//!   `Q`, and the other cards still differ only within their classes.
//!
//! The search of a relaxed game keys a position by its state, and keeps two of the pruning rules, whose proofs
//! hold for it word for word: stock macro-moves (a change of places touches neither the stock nor the waste, so
//! the moves to the foundations still commute with draws) and dead ends (a relaxed game's foundations still take
//! their cards in order, its waste is still a stack, no card changes places with one in the waste, and its piles
//! are still runs, since a change within a class keeps a run a run).
//!
//! # Safe moves in the first game
//! The search of the first game makes safe moves to the foundations (see [`crate::prune`]) of a card `c` only when
//! `c` and every card of N (the cards the rule's condition (4) names that are not on the foundations) are alone in
//! their classes: every other card of each one's class is on the foundations, where it stays. Then no move of the
//! game's own involves a missing card of the proof (`c`, or a card of N put on a missing card): a raise moves a
//! card `k` next on its foundation and the top card `t` of a pile, both of one class and both off the foundations,
//! so neither can be a card alone in its class. The proof of [`crate::prune`] then carries over to a winning line
//! `L` of the first game, its raises kept as they are in `L'`:
//!
//! - `t` is not missing, so its pile is not the one whose top cards are missing, and it tops the same pile in `L'`
//!   (the piles of the two lines differ only by missing cards on top of one pile); `k` lies where it does in `L`.
//! - `k` is next on its foundation in `L'` too: the foundations of `L'` differ from `L`'s only by missing cards, each
//!   the next card of its own suit in `L` until `L` plays it, so a foundation of `k`'s suit with a missing card up
//!   in `L'` and not in `L` would have that card, not `k`, next in `L`.
//! - The raise leaves the same piles behind in both lines (`t` where `k` was), so the same refills follow.
//! - A card that a raise puts on a missing card would be of the class of a card built on it, and so in N by (4),
//!   and in a class with another card off the foundations: there is none.
//! - A raise touches neither the stock nor the waste, so where `c` is the waste's top card, the two lines' stocks
//!   and wastes differ only as that proof's part on the waste says.
//!
//! In the second game a card becomes next, and bound where it lies, when its foundation takes the card before it,
//! and a safe move does that earlier than the line it stands for: its successor could still move about as one of
//! its class in that line. That is not proved, so the second game makes no safe moves.
//!
//! # What they gain
//! A state stands for every way the tableau can share out the cards of each class, so a relaxed game has far
//! fewer states where building is regardless of suit (up to 24 ways to lay out four cards of one rank); with
//! alternate colours a class is a pair of cards, and with building in suit every class is one card, and nothing is
//! gained. Where the next cards are kept apart, there are more states, and proofs take more nodes, but fewer lost
//! deals are won. The wins of either game prove nothing: a relaxed win whose line has none of the relaxed game's
//! own moves is a real win, but one that has is not.

use patience_core::rules::{Moves, Source};
use patience_core::{Card, Move, Pile, Position, RuleSet, Suit};

use crate::classes::Classes;

/// The classes of a relaxed game, decided at the root of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Relaxation {
    /// The class of each card, by card index.
    class: [u8; 64],
    /// Which of the two relaxed games it is.
    next: NextCard,
    /// Whether a tableau pile's classes follow from its bottom card's class and its length: the cards that may be
    /// built on a card are one class. Every pile is a run (the deal lays one card on each, cards join a pile only by
    /// being built on its top card or by filling a space, and a relaxed game's own moves trade cards of a class).
    piles_by_bottom: bool,
    /// Whether the tableau may be laid out afresh at any time (see [`crate::layouts`]), its piles keyed by their
    /// bottom cards' classes alone.
    laid_out_afresh: bool,
}

/// What a card next on its foundation is, in a relaxed game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextCard {
    /// Any card of its class in the tableau: it goes up from the top of any pile that a card of its class tops.
    AnyOfItsClass,
    /// Itself, placed as it comes next and kept apart from its class from then on.
    PlacedWhenNext,
}

impl Relaxation {
    /// The relaxed game of a search from `root` in which a card next on its foundation is any card of its class,
    /// if it can gain anything: the base rank (on which the classes may hang) is known and no choice is pending,
    /// and some class has more than one card.
    pub(crate) fn for_root(rules: &RuleSet, root: &Position) -> Option<Relaxation> {
        if root.choice_pending() || root.base_rank().is_none() {
            return None;
        }
        let classes = Classes::new(rules, root);
        let builders_of_one_class = classes.builders.iter().all(|&builders| {
            builders == 0
                || builders
                    == classes.members[usize::from(classes.of[builders.trailing_zeros() as usize])]
        });
        classes
            .members
            .iter()
            .any(|cards| cards.count_ones() > 1)
            .then_some(Relaxation {
                class: classes.of,
                next: NextCard::AnyOfItsClass,
                piles_by_bottom: builders_of_one_class,
                laid_out_afresh: false,
            })
    }

    /// The relaxed game with the same classes in which a card next on its foundation is `next`.
    pub(crate) fn with_next(self, next: NextCard) -> Relaxation {
        Relaxation { next, ..self }
    }

    /// The game with the tableau laid out afresh at will (see [`crate::layouts`]).
    pub(crate) fn laid_out_afresh(self) -> Relaxation {
        Relaxation {
            laid_out_afresh: true,
            ..self
        }
    }

    /// Whether the tableau may be laid out afresh at any time, its piles keyed by their bottom cards' classes
    /// alone (see [`crate::layouts`]).
    pub(crate) fn lays_out_afresh(&self) -> bool {
        self.laid_out_afresh
    }

    /// The class of each card, by card index, and the class of the cards that may be built on a card of each
    /// class (by its name), `u8::MAX` for none, under `root`'s base rank.
    pub(crate) fn classes_built_on(
        &self,
        rules: &RuleSet,
        root: &Position,
    ) -> ([u8; 64], [u8; 64]) {
        let classes = Classes::new(rules, root);
        let mut class = [u8::MAX; 64];
        let mut on = [u8::MAX; 64];
        for card in 0..52 {
            class[card] = self.class(card as u8);
            let builders = classes.builders[card];
            if builders != 0 {
                on[usize::from(class[card])] = self.class(builders.trailing_zeros() as u8);
            }
        }
        (class, on)
    }

    /// The class of the card with this index.
    pub(crate) fn class(&self, card: u8) -> u8 {
        self.class[card as usize]
    }

    /// For each card of a pack of `ranks` ranks a suit, the cards of its class, as a set of card indices.
    pub(crate) fn class_mates(&self, ranks: u8) -> [u64; 64] {
        let in_pack: Vec<usize> = Card::pack()
            .filter(|card| card.rank().index() < ranks)
            .map(|card| usize::from(card.index()))
            .collect();
        let mut mates = [0u64; 64];
        for &card in &in_pack {
            mates[card] = in_pack
                .iter()
                .filter(|&&mate| self.class[mate] == self.class[card])
                .fold(0, |set, &mate| set | 1 << mate);
        }
        mates
    }

    /// Which relaxed game it is.
    pub(crate) fn next(&self) -> NextCard {
        self.next
    }

    /// Whether a tableau pile's classes follow from its bottom card's class and its length, in every position
    /// of the search.
    pub(crate) fn piles_by_bottom(&self) -> bool {
        self.piles_by_bottom
    }

    /// Whether every other card of `card`'s class is on the foundations in `position`.
    pub(crate) fn alone_in_class(&self, position: &Position, card: Card) -> bool {
        let class = self.class[card.index() as usize];
        Card::pack().all(|other| {
            other == card
                || self.class[other.index() as usize] != class
                || position.on_foundation(other)
        })
    }

    /// The cards a state's key names by themselves, as a set of card indices: those next on their foundations
    /// where they are kept apart, else none.
    pub(crate) fn kept_apart(&self, position: &Position) -> u64 {
        match self.next {
            NextCard::AnyOfItsClass => 0,
            NextCard::PlacedWhenNext => next_cards(position),
        }
    }

    /// The relaxed game's own moves, where a card next on its foundation is any card of its class: for each card
    /// next on its foundation that lies in the tableau and each pile topped by another card of its class, the
    /// position with the two changed places, and the real move to make from it.
    pub(crate) fn raised_from_class(
        &self,
        position: &Position,
        mut emit: impl FnMut(Position, Move),
    ) {
        for t in 0..position.tableau_piles() as u8 {
            let Some(top) = position.top(Pile::Tableau(t)) else {
                continue;
            };
            for suit in Suit::ALL {
                let Some(next) = position.foundation_next(suit) else {
                    continue;
                };
                if next != top
                    && self.class(next.index()) == self.class(top.index())
                    && tableau_cards(position).any(|card| card == next.index())
                {
                    let mut changed = *position;
                    changed.exchange(next, top);
                    emit(
                        changed,
                        Move::new(Pile::Tableau(t), Pile::Foundation(suit as u8), 1),
                    );
                }
            }
        }
    }

    /// What stands for `card` in a state's key: the card itself if it is kept apart (in `kept_apart`, from
    /// [`Relaxation::kept_apart`]), else its class.
    pub(crate) fn key_byte(&self, card: u8, kept_apart: u64) -> u8 {
        if kept_apart >> card & 1 == 1 {
            KEPT_APART | card
        } else {
            self.class(card)
        }
    }

    /// The relaxed game's own moves, where a card next on its foundation is placed as it comes next: for a move
    /// `mv` to a foundation from `from`, the positions it may be made from instead, in which the card it makes
    /// next on that foundation, lying in the tableau, has changed places with another card of its class there
    /// that is not next on a foundation.
    pub(crate) fn places_of_next(
        &self,
        rules: &RuleSet,
        from: &Position,
        mv: Move,
        mut emit: impl FnMut(Position),
    ) {
        let (Pile::Foundation(suit), Some(moved)) = (mv.to, from.top(mv.from)) else {
            return;
        };
        let mut after = *from;
        after.apply(rules, mv);
        let Some(next) = after.foundation_next(Suit::from_index(suit as usize)) else {
            return;
        };
        if !tableau_cards(from).any(|card| card == next.index()) {
            return;
        }
        let kept_apart = next_cards(&after) | 1 << moved.index();
        let class = self.class(next.index());
        for other in tableau_cards(from)
            .filter(|&card| kept_apart >> card & 1 == 0 && self.class(card) == class)
        {
            if let Some(other) = Card::from_index(other) {
                let mut changed = *from;
                changed.exchange(next, other);
                emit(changed);
            }
        }
    }
}

/// Set apart from the class names (card indices) in a key: a card that stands for itself.
const KEPT_APART: u8 = 0x40;

/// The indices of the cards in `position`'s tableau.
fn tableau_cards(position: &Position) -> impl Iterator<Item = u8> + '_ {
    (0..position.tableau_piles() as u8)
        .flat_map(|t| position.pile(Pile::Tableau(t)).iter().copied())
}

/// Whether every move between tableau piles under `rules` can be undone: the deal has no reserve, no space is
/// filled by force, a tableau card may fill a space, and cards move alone or in runs, so that a card or run goes
/// back onto the card it left, or into the space it left. There the relaxed games' states within a layer join
/// into few components, their proofs go through every layout of the tableau, and they seldom have a loss to
/// prove (Four Seasons: 1 deal of 1..1000 lost at 60 s a deal, by a proof of 250,000 nodes; Florentine and
/// Simplicity: none of 1..10000).
pub(crate) fn tableau_moves_undo(rules: &RuleSet) -> bool {
    let spaces = &rules.tableau.spaces;
    rules.reserve.piles.is_empty()
        && spaces.forced.is_empty()
        && rules.at_will_sources(true).contains(&Source::Tableau)
        && matches!(rules.tableau.moves, Moves::Top | Moves::AnyRun)
}

/// The cards next on their foundations in `position`, as a set of card indices.
pub(crate) fn next_cards(position: &Position) -> u64 {
    Suit::ALL
        .iter()
        .filter_map(|&suit| position.foundation_next(suit))
        .fold(0, |set, card| set | 1 << card.index())
}
