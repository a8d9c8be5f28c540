//! Positions proved lost because no order of play can send every card to the foundations: the tableau holds some
//! cards over others, the reserve gives its cards up one at a time, and a card goes into the tableau only onto a
//! card that takes it or into a space.
//!
//! Take rules under which foundation cards never come back (for those under which they do, see "Cards that come
//! back" below), and a position whose base rank is known.
//!
//! # Held cards
//! Where only whole tableau piles move (with, at most, the top card alone from a pile of exactly `k` cards,
//! Foster's rule), say a card of a tableau pile is *held* when it lies at index `k` or more from the pile's bottom
//! (index 1 or more when no top card moves alone). A held card `y` over a card `x` goes to its foundation before
//! `x` leaves the pile.
//!
//! Proof. A tableau card leaves its pile only as its top card to a foundation, or in a move of the whole pile,
//! which keeps the order of the cards in it, or alone from a pile of exactly `k` cards. Cards are only ever added
//! on top of a pile or under a whole pile moved onto another, so the cards under `y` never grow fewer while it
//! stays in a tableau pile: `y` stays at index `k` or more, can never be the top card of a pile of exactly `k`,
//! and never moves alone but to its foundation. So `x` stays under `y` until `y` goes to its foundation.
//!
//! # Cards that leave only onto a card that takes them
//! A tableau card `c` lying on a card `b` leaves it only to its foundation (from the top of its pile), or in a
//! move of cards from its pile: the top card alone, a run (where runs move) or the whole pile. A move taking cards
//! from under `b` takes `c` with `b`, and one taking cards from over `c` leaves it on `b`; one that takes `c` from
//! `b` puts it on the top card of another pile, which takes it, or into a space, where the tableau fills spaces.
//! Where only the top card moves alone (or the whole pile, which takes `b` too), `c` must be the top card of its
//! pile first. And no card comes between `b` and `c`: cards are added only on top of a pile, or under a pile moved
//! whole.
//!
//! # What a card never lies on
//! Where a card laid on another is held there (only whole piles move, and no top card moves alone or the card it
//! is laid on is held) and foundation cards never come back, take the cards that must go up after a card `x` in
//! every line that wins: the card after `x` in its suit, the card under `x` where `x` is held in the position,
//! and, again, the cards after each of those. No line that wins lays one of them, `y`, on `x`: `y` would be held
//! on `x` and go up before it, and `x` goes up before `y`. So the facts below take `x` to take only the cards
//! that may be built on it and need not go up after it.
//!
//! Proof. A foundation takes its suit in order, and a card held over another goes up before it (above); both hold
//! in every line from the position, so the order of the cards after `x` is one every line that wins keeps. A card
//! laid on `x` lies at index 1 or more; where cards are held from index 1 it is held, and where they are held from
//! a larger index and `x` is held, it lies above `x`'s index, which never falls. Held, `y` stays on `x` until `y`
//! goes up, and `x` goes up only from the top of its pile, so after `y`.
//!
//! Where a top card moves alone from a pile of `k > 1` cards (Foster's), a card `y` laid on a card `x` that is not
//! held may move on, alone, onto another card that takes it; and only so where no space is filled from the
//! tableau (in Foster's only the reserve and the waste fill them). So a card once laid on a card stays on cards
//! that take it, moving from one to another, until it goes up, from a card it need not go up before. Where `y`
//! must go up after every card it may be built on, no line that wins lays it on any card, and the facts take no
//! card to take it. Taken to hold for a card laid on one that is not held, the first rule loses a won deal (the
//! reduced Foster's deal 2616): the facts follow the reserve a card at a time, and a reserve card laid on such a
//! card may move on later.
//!
//! In whole-pile Canfield nearly all of a proof is the ways of laying the stock's cards on the tableau: the card
//! of the base rank laid on the tableau (K♣ on a red ace, with base rank K) may take no red queen once a club
//! lies held over a card of that queen's suit, and so on down the chains of cards held over others. Canfield deal 290, lost, took
//! 25.1 million nodes and 8.8 s without this, 6.2 million and 2.5 s with it; deal 95, 279 million nodes and about
//! 110 s, 23.7 million and 11.4 s.
//!
//! # The rule
//! Work out, from the position, facts of these kinds, each of which only ever becomes true, adding them until none
//! is added:
//! - *at the top*: a tableau card may have been the top card of its pile: it is, or the card that lies on it may
//!   have left it: gone up, or, unless it is held, been moved onto a card that takes it, that is a card that may
//!   have been at the top of a pile or put in the tableau, or into a space where the tableau fills spaces and a
//!   space may have appeared; from the top of its pile, unless runs move.
//! - *up*: a card may have gone to its foundation. The next card of a suit goes up when its suit's cards before it
//!   are up and it is free: a tableau card that may have been at the top of its pile; a reserve card with every
//!   card over it gone from the reserve (up, or put in the tableau); a card of the stock or the waste; or a card put
//!   in the tableau (below).
//! - *put in the tableau*: a card of the stock or the waste, or a reserve card with every card over it gone, may
//!   have been put in the tableau, when a space may have appeared or a card it may be built on may have been at
//!   the top of a pile or put in the tableau (a card never laid on it, as the section above says, excepted).
//! - *a space*: a pile may have been empty: it is empty, or its bottom card may have gone up, or may have moved
//!   with the cards over it onto a card that may have been at the top of a pile or put in the tableau (from the
//!   top of its pile, where only the top card moves).
//!
//! The position is lost if some card never goes up.
//!
//! Proof. Take a line from the position that wins, and follow it move by move: every card that goes up in it goes
//! up among the facts, every card it puts in the tableau from the stock, the waste or the reserve is put there
//! among the facts, every card at the top of a pile in it is a tableau card at the top among the facts or a card
//! put there, and every space in it is a space among the facts. A card goes up from the top of a pile, from the
//! top of the reserve (every card over it has gone: up, or into the tableau), or from the waste; its suit's earlier
//! cards are up before it. A card goes into the tableau onto the top card of a pile, which takes it, or into a
//! space. A tableau card of the position comes to the top of its pile only once the card that lay on it has left
//! it, as the two sections above allow (a held card only to its foundation), and cards put on top later are cards
//! put in the tableau. A pile empties when its last card goes up (its bottom card, or a card put in the tableau
//! after the pile was empty before) or moves away with the cards over it, onto a card at the top of another pile
//! or into a space that was there already; Foster's single card leaving a pile of two leaves the bottom card
//! behind. So the line never does what the facts do not allow, and since it sends every card up, the facts do
//! too. The facts leave out what the line forbids (a card both up and put in the tableau, a card covered by the
//! cards put on it, a card moved onto one that has gone up), so they may send up cards that no line can: the rule
//! then says nothing.
//!
//! # Cards that come back
//! Where foundation cards may come back to the tableau (Solo Canfield: a foundation's top card, onto a card that
//! takes it), a card on its foundation, or that may have gone up, may also be put in the tableau: such cards are
//! added to those of the stock, the waste and the reserve that may be. The proof above holds with them. A card
//! comes back only after it went up, which the facts hold from then on, and into the tableau as a card put there
//! does: onto a card at the top of a pile that takes it, or into a space. The facts keep it, and the cards of its
//! suit after it, up, where the line has taken them back: that lets the facts allow more, never less, since a
//! card goes up in the line only once the cards before it went up at some time. A line that wins sends it up
//! again, so every card goes up among the facts still. No card but the reserve's goes into a space while the
//! reserve fills them, and a card that comes back into a space takes one before it can make one, so the count of
//! spaces below holds as it stands.
//!
//! # Counting spaces
//! Where only the reserve, of one pile, fills spaces while it has cards, each space is taken by the reserve's top
//! card as it comes, and no other card goes into one until the reserve is empty. So the facts are worked out with
//! no card put into a space, the reserve followed a card at a time: each card, when it comes to the top (the
//! facts added until none is), goes up if it may, or onto a card that takes it if one may be at the top of a pile,
//! or else *needs a space*; the position is lost when the cards that needed one outnumber the spaces that may have
//! appeared: the position's empty piles, and those of its bottom cards and of the cards that needed a space that
//! may have gone up or may be taken by a card at the top of a pile. Once the reserve is empty, a space may appear
//! only where those spaces outnumber the cards that needed one. In a relaxed game spaces are counted by places,
//! as the facts are read there (below).
//!
//! Proof. Follow a line that wins. Until the reserve is empty only its cards go into spaces, each as it comes to
//! the top, once the cards over it have left; what happens until then is allowed by the facts worked out with no
//! card put into a space, so a card that needed a space went into one. Every space was empty in the position or
//! was made by a card leaving the bottom of a pile: gone up, moved with the cards over it onto a card that takes
//! it, or, where the tableau fills spaces, into a space. A card's stays at the bottom of piles follow one another:
//! each but the first begins by taking a space, and each but the last ends by making one (into the space that
//! begins the next). So a card takes as many spaces as it makes, but one more where its first stay begins in a
//! space, and one less where its last stay does not end, gone up or onto a card that takes it. Count the cards
//! that needed a space as if their first stay began in the position: each of them, and each bottom card of the
//! position, makes one space more than it takes at most, and only if it may go up or be taken by a card at the
//! top of a pile; every other card makes no more than it takes. So the spaces there at any time are at most the
//! empty piles and those cards, less the cards that needed a space.
//!
//! A card of the reserve that goes up may first have been taken into a space: one is filled from the reserve at
//! once, so a line puts the reserve's top card there whenever a space comes while it lies on top. So where a
//! space may have appeared by the time such a card left (the facts, worked out until none is added with it on
//! top, hold every space that may have come by then), it is put in the tableau too, and cards may be built on
//! it. The count is unchanged: it counts only the cards that needed a space.
//!
//! # Following the stock
//! Where a card leaves the stock and the waste only from the top of the waste (no space is filled from the
//! stock) and a draw turns `d > 1` cards, or no redeal is left, not every card of the stock and the waste may
//! come to the top of the waste. Number them in the order they come up, the waste from the bottom and then the
//! stock from the top: the card at place `i` of `n`, with `w` cards on the waste. A card leaves this order only
//! from the top of the waste, so a draw of the pass under way turns the next `d` cards of the stock whatever left
//! the waste before it, and ends at place `w + d - 1`, `w + 2d - 1`, ..., or at the last card; a later pass turns
//! the cards left, from the first, and a draw ends on a card when the cards left before it number `d - 1` modulo
//! `d`, or on the last card left. So the card at place `i` comes to the top of the waste only
//! - as its top now (`i == w - 1`), or at the end of a draw of this pass (`i >= w` and `(i - w) % d == d - 1`,
//!   or `i == n - 1`);
//! - at the end of a draw of a later pass, where a redeal is left, once `k` cards before it have left with
//!   `(i - k) % d == d - 1`, so at least `(i + 1) % d` of them;
//! - or when the card over it on the waste leaves: the next card after it among those left, so that the card at
//!   place `i + 1` has left by then (it is that card, or it left before it).
//!
//! The facts take a card of the stock or the waste as free to go up or into the tableau only once one of these
//! holds, a card having left when it may have gone up or been put in the tableau; the proof above holds as it
//! stands, since a line takes each such card from the top of the waste. On the stock's cycle (`w` a multiple of
//! `d`, or the stock empty) the first condition adds nothing to the second, so the rule finds the same at every
//! cut there; a cut off the cycle frees more cards, and a position found lost there is lost at its cut, and at
//! the cuts its draws take it to. Where every card of the stock and the waste is free before the facts decide
//! anything of the reserve or of the foundations (a card that may not have come up at that point would have
//! taken part), the facts are those of the rule with the stock free, and the position is lost at every cut.
//!
//! With a draw of one and a redeal left, a later pass's draws end on every card, so every card is free; with
//! none left, the waste is a pile that gives its cards from the top, as a reserve pile does, and a card of it is
//! free only once every card over it may have left (the third condition, card by card), while every card of the
//! stock comes up as it is drawn. That is where the facts follow the stock in Chameleon, Four Seasons, Gate and
//! Simplicity, and in Florentine and Storehouse once their redeals are spent. With no redeal left a search keys
//! every position with its cut, so that a position found lost is taken as lost at its cut alone.
//!
//! # In a relaxed game
//! In a relaxed game (see [`crate::relax`]) the cards of a class may change places in the tableau: positions that
//! differ only in that are one state, and a card next on its foundation goes up from the top of any pile a card
//! of its class tops. Take each tableau card of the position as a *place*, of its card's class, and read the facts
//! about tableau cards as facts about places, with two changed:
//! - a tableau card goes up when its suit's cards before it are up and some place of its class may have been at
//!   the top of its pile, or some card of its class may have been put in the tableau;
//! - a place leaves the card under it, gone up, when it may have been at the top of its pile and some card of its
//!   class that lies in the tableau or may have been put there may have gone up (the same goes for a place at the
//!   bottom of its pile, and spaces).
//!
//! And what may be put in the tableau, and spaces, are worked out to the end, since a card put there lets a card
//! of its class go up from under others. The position is lost in the relaxed game if some card never goes up.
//! Where spaces are counted, a bottom card's place leaves the bottom of its pile, gone up, when some card of its
//! class that lies in the tableau or may have been put there may have gone up. Where foundation cards come back,
//! a card that comes back is put in the tableau as in the game itself, and going up again from there it leaves a
//! place of its class, as a card put in the tableau does: so the cards on the foundations count among those that
//! may have gone up from the first.
//!
//! Proof. Follow a line of the relaxed game that wins, as above. Cards of a class changing places leave every
//! place with a card of its class, and cards come and go from places only as in the game itself. A card goes up
//! from the top of a pile, from a place of its class or from a card of its class put in the tableau; the place it
//! leaves is one of its class, and the card lay in the tableau, from the position on or put there. A card moved
//! onto another or into a space takes the cards over it along, and the cards that may be built on a card are those
//! that may be built on any card of its class. So every step of the line is allowed by the facts as read here.
//! These facts allow all that the facts by card allow, so they prove lost no position that those do not. The count
//! of spaces holds as its proof above says, read by places: a place comes to the bottom of a pile only into a
//! space, and leaves it as a card does, its card gone up or moved; the reserve's cards change no places.
//!
//! Where only whole piles move and the reserve is left out, the rule is about held cards alone, and whether every
//! card can go up is found by sending the cards up one after another, any card whose predecessors are up: a cycle
//! of cards each waiting for the next (held over it, or before it in its suit) is what stops it. In whole-pile
//! Canfield, where the rank order wraps, a pile may run past the base rank and put a card over one of its suit
//! that the foundation takes earlier: the full search of Canfield deal 7 went through millions of such positions,
//! piles built round the ranks two or three times, and 98 % of those it entered in 20 s are lost by the held cards
//! alone. The reserve adds positions whose reserve top can go nowhere (every card it may be built on up, and no
//! pile able to empty) while the cards under it are needed: on Canfield deals 290 and 18, lost, it cut the nodes
//! from 117 and 115 million to 65 and 68 million. Where cards move alone or in runs, what stops the foundations
//! is a card that can go nowhere but up while the card under it is needed first: in Chameleon, once three cards
//! of the base rank are up, a card of the rank below on the fourth stays there until its own suit is done.

use std::cell::OnceCell;

use patience_core::rules::{Base, Build, Moves, RankOrder, Source, MAX_RESERVE};
use patience_core::{Move, Pile, Position, Rank, RuleSet};

/// The rule for one rule set.
#[derive(Debug, Clone, Copy)]
pub struct PlayOrder {
    /// Where only whole piles move, the least index from the bottom of a pile at which a card is held: it never
    /// moves alone but to its foundation. `None` where a card may move alone or with the cards over it.
    held_from: Option<usize>,
    /// How a card leaves the card under it, other than to its foundation or with it.
    moves: Moves,
    /// Whether a space may be filled from the tableau.
    spaces_from_tableau: bool,
    /// Whether, while the reserve (of one pile) has cards, only the reserve fills spaces.
    reserve_fills_spaces: bool,
    /// How many cards a draw turns, where a card leaves the stock and the waste only from the top of the waste
    /// (no space is filled from the stock); else 1, which lets every card of the stock and the waste go while a
    /// redeal is left.
    draw: u8,
    /// Whether a card leaves the stock and the waste only from the top of the waste, so that with no redeal left
    /// the stock is followed through its last pass, whatever the draw (see "Following the stock").
    last_pass: bool,
    /// Whether foundation cards may come back to the tableau.
    cards_come_back: bool,
    /// Whether the facts leave out a card laid on one it must go up after (see "What a card never lies on").
    lays_apart: bool,
}

impl PlayOrder {
    /// The rule, if it may find anything under these rules. Building in suit, each card one below the other in
    /// the foundations' own order (Storehouse, Fortune's Favor), only ever puts a card over the one its foundation
    /// takes next, so held cards never stop the foundations; there the rule is used only where there is a
    /// reserve, which may. Counting spaces (session 23) made that pay: Storehouse deals 1..2000 at 500,000 nodes a
    /// deal left 12 deals undecided with the rule against 36 without, and proved the losses both decide in 13.2
    /// million nodes against 39.6 million (session 31; session 12, before spaces were counted, had found it not
    /// worth its cost).
    pub fn for_rules(rules: &RuleSet) -> Option<PlayOrder> {
        let in_foundation_order = rules.tableau.build == Build::SameSuit
            && (rules.tableau.order == RankOrder::FromBase
                || (rules.tableau.order == RankOrder::Natural
                    && rules.foundations.base == Base::Rank(Rank::ACE)));
        let spaces = &rules.tableau.spaces;
        let spaces_from_tableau = spaces
            .at_will
            .iter()
            .chain(spaces.at_will_once_reserve_empty.iter().flatten())
            .any(|&source| source == Source::Tableau);
        let reserve_fills_spaces = rules.reserve.piles.len() == 1
            && match spaces.forced.first() {
                Some(&source) => source == Source::Reserve,
                None => spaces
                    .at_will
                    .iter()
                    .all(|&source| source == Source::Reserve),
            };
        let moves = rules.tableau.moves;
        let from_stock = spaces
            .forced
            .iter()
            .chain(spaces.at_will.iter())
            .chain(spaces.at_will_once_reserve_empty.iter().flatten())
            .any(|&source| source == Source::Stock);
        let draw = if from_stock {
            1
        } else {
            rules.stock.draw.max(1)
        };
        let something_may_stop_the_foundations =
            !in_foundation_order || !rules.reserve.piles.is_empty();
        something_may_stop_the_foundations.then(|| PlayOrder {
            held_from: (moves == Moves::WholePile).then(|| {
                rules
                    .tableau
                    .top_card_from_piles_of
                    .map_or(1, |k| usize::from(k).max(1))
            }),
            moves,
            spaces_from_tableau,
            reserve_fills_spaces,
            draw,
            last_pass: !from_stock,
            cards_come_back: rules.foundations.cards_go_back,
            lays_apart: true,
        })
    }

    /// Whether the rule finds the position after the legal move `mv` from `parent` what it finds of `parent` (the
    /// rule's tables for `parent`'s base rank already made), where `mv` moves a run between two tableau piles and
    /// leaves a card under it (the search's `moves_within_the_layouts`): so where no card is held and the run's
    /// bottom card `b` may be built on that card, `c`. The facts of the two positions differ only in what `b` lies
    /// on: `c` in `parent`, the target's top card `t` after the move. In `parent`, `t` is at the top of its pile
    /// and takes `b`, so `b` may leave `c`, and `c` may be at the top; after the move `c` is at the top and takes
    /// `b`, so `b` may leave `t`, and `t` may be at the top. Either way `b` may leave and `c` and `t` may both be
    /// at the top, and every other fact is drawn from the same cards lying on the same cards, the same bottom cards
    /// and spaces: the facts added until none is are the same, and so is what they decide. Where cards are held
    /// (a top card moving alone from a pile of `k` cards where only whole piles move otherwise), the facts also
    /// read which cards lie on held ones (see "What a card never lies on"), which such a move changes: there it
    /// is not said.
    pub(crate) fn finds_alike_after(&self, parent: &Position, mv: Move, by_base: &ByBase) -> bool {
        let from = parent.pile(mv.from);
        let at = from.len() - usize::from(mv.count);
        self.held_from.is_none()
            && parent.base_rank().is_some_and(|base| {
                by_base.tables[usize::from(base.index())]
                    .get()
                    .is_some_and(|tables| {
                        tables.built_on[usize::from(from[at - 1])] >> from[at] & 1 == 1
                    })
            })
    }

    /// Whether only whole piles move, so that every card but those at the bottom of a pile is held wherever the
    /// foundations stand.
    pub fn whole_piles(&self) -> bool {
        self.held_from.is_some()
    }

    /// The rule with spaces never counted, as it was before they were: for the tests to tell what counting adds.
    #[cfg(test)]
    pub(crate) fn without_counting(self) -> PlayOrder {
        PlayOrder {
            reserve_fills_spaces: false,
            ..self
        }
    }

    /// The rule taking every card that may be built on a card to be laid on it, as it did before session 35:
    /// for the tests to tell what leaving some out adds.
    #[cfg(test)]
    pub(crate) fn laying_any(self) -> PlayOrder {
        PlayOrder {
            lays_apart: false,
            ..self
        }
    }

    /// The rule with every card of the stock and the waste free to go, whatever the cut.
    pub fn cut_free(self) -> PlayOrder {
        PlayOrder {
            draw: 1,
            last_pass: false,
            ..self
        }
    }

    /// Whether the rule follows which cards of the stock and the waste may come to the top of the waste, wherever
    /// redeals are left.
    pub fn follows_the_stock(&self) -> bool {
        self.draw > 1
    }

    /// Whether the rule follows which cards of the stock and the waste may come to the top of the waste where no
    /// redeal is left, whatever the draw.
    pub fn follows_the_last_pass(&self) -> bool {
        self.last_pass
    }

    /// Whether the rule follows which cards of the stock and the waste may come to the top of the waste in
    /// `position`: as [`PlayOrder::follows_the_stock`] says, or in the stock's last pass.
    fn follows_the_stock_of(&self, position: &Position) -> bool {
        self.follows_the_stock() || self.follows_the_last_pass() && in_last_pass(position)
    }

    /// Whether the rule counts spaces (see the module documentation).
    pub(crate) fn counts_spaces(&self) -> bool {
        self.reserve_fills_spaces
    }

    /// Whether `position` is lost by the rule in the module documentation.
    pub fn lost(&self, rules: &RuleSet, position: &Position) -> bool {
        self.lost_by_class(rules, position, None, &ByBase::default())
    }

    /// Whether `position` is lost by the rule, in a relaxed game (see [`crate::relax`]) where `mates` holds, for
    /// each card, the cards of its class: the facts are then read by class, as in the module documentation.
    /// `by_base` keeps its tables from one call to the next.
    pub(crate) fn lost_by_class(
        &self,
        rules: &RuleSet,
        position: &Position,
        mates: Option<&[u64; 64]>,
        by_base: &ByBase,
    ) -> bool {
        self.facts(rules, position, mates, by_base)
            .is_some_and(|mut fixpoint| fixpoint.lost())
    }

    /// What the rule finds of `position`, read by class where `mates` is given (see
    /// [`PlayOrder::lost_by_class`]): where it follows the stock, whether the position is lost at its cut alone,
    /// or at every cut, as it is where it is lost with every card of the stock and the waste free.
    pub(crate) fn judge(
        &self,
        rules: &RuleSet,
        position: &Position,
        mates: Option<&[u64; 64]>,
        by_base: &ByBase,
    ) -> Finding {
        let Some(mut fixpoint) = self.facts(rules, position, mates, by_base) else {
            return Finding::Open;
        };
        let reserve_len = fixpoint.reserve_left[0];
        fixpoint.settle();
        // Where every card of the stock and the waste is free once the facts first settle, before they decide
        // anything of the reserve, the facts are those with the stock free. With no redeal left, the search keys
        // every position with its cut, and what is lost at its cut is all it needs.
        let stock_hidden = fixpoint.hidden != 0;
        let settled = (stock_hidden && fixpoint.later_passes()).then(|| fixpoint.clone());
        if !fixpoint.reserve_lost(reserve_len) {
            return Finding::Open;
        }
        let at_every_cut = !stock_hidden
            || settled.is_some_and(|settled| settled.with_the_stock_free().lost_from(reserve_len));
        if at_every_cut {
            Finding::LostAtEveryCut
        } else {
            Finding::LostAtItsCut
        }
    }

    /// The facts of `position` before any is added, where the rule applies to it: its base rank is known and no
    /// choice is pending.
    fn facts<'a>(
        &self,
        rules: &RuleSet,
        position: &'a Position,
        mates: Option<&'a [u64; 64]>,
        by_base: &'a ByBase,
    ) -> Option<Fixpoint<'a>> {
        let base = position.base_rank()?;
        if position.choice_pending() {
            return None;
        }
        let tables =
            by_base.tables[usize::from(base.index())].get_or_init(|| Tables::new(rules, position));
        Some(Fixpoint::new(*self, position, mates, tables))
    }
}

/// Whether `position`'s stock is in its last pass: no redeal is left.
fn in_last_pass(position: &Position) -> bool {
    position.redeals_left() == Some(0)
}

/// What the rule finds of a position (and, in the search, what the rules that prove positions lost without a
/// search find).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finding {
    /// Not lost: the facts send every card up.
    Open,
    /// Lost where the stock is cut as in the position (and wherever draws alone take it), but not by the facts
    /// with every card of the stock and the waste free.
    LostAtItsCut,
    /// Lost wherever the stock is cut.
    LostAtEveryCut,
}

/// The rule's tables, worked out once for each base rank a search meets: the facts put every card of the stock
/// and the waste that they can in the tableau, and working out what each one takes anew took nearly a third of
/// the rule's instructions (Canfield deal 612).
#[derive(Debug, Default)]
pub(crate) struct ByBase {
    tables: [OnceCell<Tables>; 13],
}

/// What depends on the base rank alone: what each card takes, and each foundation's cards in order.
#[derive(Debug)]
struct Tables {
    /// The cards that may be built on each card, and those on which each card may be built.
    built_on: [u64; 64],
    takers: [u64; 64],
    /// The cards of each suit's foundation, by their place in it.
    foundation: [[u8; 13]; 4],
    /// The card that follows each card on its foundation, as a set: none after the last.
    after: [u64; 64],
    /// For each remainder `r` of a division by the draw, the places `i` of the stock's order with
    /// `(i + 1) % draw == r`: those on which a draw ends after a redeal, for `r == 0`.
    every_draw: Vec<u64>,
}

impl Tables {
    /// The tables of `position`'s base rank, which it must have.
    fn new(rules: &RuleSet, position: &Position) -> Tables {
        let mut tables = Tables {
            built_on: position.cards_built_on_each(rules),
            foundation: [0, 1, 2, 3].map(|s| {
                let mut cards = [NO_CARD; 13];
                for (i, slot) in cards.iter_mut().enumerate() {
                    *slot = position
                        .foundation_card(s, i)
                        .map_or(NO_CARD, |c| c.index());
                }
                cards
            }),
            takers: [0; 64],
            after: [0; 64],
            every_draw: {
                let draw = usize::from(rules.stock.draw.max(1));
                let mut every_draw = vec![0; draw];
                for i in 0..52 {
                    every_draw[(i + 1) % draw] |= 1 << i;
                }
                every_draw
            },
        };
        let ranks = usize::from(position.ranks());
        for cards in tables.foundation {
            for pair in cards[..ranks].windows(2) {
                tables.after[usize::from(pair[0])] = 1 << pair[1];
            }
        }
        for taker in 0..64 {
            for card in Bits(tables.built_on[taker]) {
                tables.takers[card] |= 1 << taker;
            }
        }
        tables
    }

    /// The next card of `suit`'s foundation once it holds `placed` cards, as a set: none once it is whole.
    fn next_of(&self, suit: usize, placed: usize, ranks: usize) -> u64 {
        if placed < ranks {
            1 << self.foundation[suit][placed]
        } else {
            0
        }
    }
}

/// The places of the bits set in a set, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let i = self.0.trailing_zeros() as usize;
        (self.0 != 0).then(|| {
            self.0 &= self.0 - 1;
            i
        })
    }
}

/// No card: under a pile's bottom card.
const NO_CARD: u8 = 64;

/// What may happen from a position, worked out as in the module documentation: every fact only ever becomes
/// true, so the facts are added until none is.
#[derive(Clone)]
struct Fixpoint<'a> {
    position: &'a Position,
    tables: &'a Tables,
    rule: PlayOrder,
    /// The card under each tableau card ([`NO_CARD`] under a pile's bottom card, and for cards elsewhere).
    under: [u8; 64],
    /// The tableau cards, those at the bottom of their piles, and those held on the card under them.
    tableau: u64,
    bottoms: u64,
    held: u64,
    /// Tableau cards that may have been at the top of their piles, and those that may have left the card under
    /// them.
    reached: u64,
    gone: u64,
    /// The cards of each reserve pile, bottom to top, and the reserve's cards.
    reserve: [&'a [u8]; MAX_RESERVE],
    in_reserve: u64,
    /// Of each reserve pile, the cards below this index may still be there.
    reserve_left: [usize; MAX_RESERVE],
    /// Cards that may have gone to their foundations: where foundation cards come back, those there already too.
    up: u64,
    /// The foundations' next cards, as a set.
    next_cards: u64,
    /// Cards out of the tableau that are free to go up: those of the stock and the waste, those put in the
    /// tableau, and each reserve pile's top card (with the tops it had before, which are gone from it).
    free_out: u64,
    /// The cards of the classes of which a tableau card may have been at the top of its pile or a card may have
    /// been put in the tableau: a tableau card of one of them is free to go up.
    free_classes: u64,
    /// In a relaxed game, the cards of each card's class; `None` in the game itself.
    mates: Option<&'a [u64; 64]>,
    /// The cards of the classes of which a card may have gone up (in the game itself, classes of one card): a
    /// tableau card of one of them that may have been at the top of its pile may have left it, gone up.
    up_classes: u64,
    /// Cards of the stock and the waste, cards that may have left the reserve, and, where foundation cards come
    /// back, cards that are or may have gone up: any of them may go to the tableau where it may be placed.
    loose: u64,
    /// Cards from the reserve, the stock, the waste or the foundations that may have been put in the tableau.
    placed: u64,
    /// Cards that some card that may be at the top of a tableau pile takes.
    takes: u64,
    /// The cards on which a card laid is held there until it goes up: none in a relaxed game, or where
    /// foundation cards come back.
    lays_held: u64,
    /// Whether, on the other cards, a card is left out that every card it may be built on must go up before
    /// (where a top card also moves alone, and no space is filled from the tableau: see "What a card never lies
    /// on").
    lays_nowhere: bool,
    /// For each card whose set is worked out (in `ordered`), the cards that must go up after it in every line
    /// that wins.
    after: [u64; 64],
    ordered: u64,
    /// Whether a tableau pile may be empty.
    space: bool,
    /// The tableau piles that are empty.
    empty_piles: u32,
    /// Where spaces are counted, the reserve cards that needed one.
    filled: u64,
    /// The cards of the stock and the waste in the order they come up (the waste from the bottom, then the stock
    /// from the top), and each one's place in that order.
    order: [u8; 52],
    place: [u8; 64],
    /// The places of the cards of the stock and the waste that may not yet have been on top of the waste.
    hidden: u64,
    /// The cards of the stock and the waste, those of them that may have left it (gone up or into the tableau),
    /// and their places.
    stock_cards: u64,
    left: u64,
    left_places: u64,
}

impl<'a> Fixpoint<'a> {
    fn new(
        rule: PlayOrder,
        position: &'a Position,
        mates: Option<&'a [u64; 64]>,
        tables: &'a Tables,
    ) -> Fixpoint<'a> {
        let mut fixpoint = Fixpoint {
            position,
            tables,
            rule,
            under: [NO_CARD; 64],
            tableau: 0,
            bottoms: 0,
            held: 0,
            reached: 0,
            gone: 0,
            reserve: [&[]; MAX_RESERVE],
            in_reserve: 0,
            reserve_left: [0; MAX_RESERVE],
            up: 0,
            next_cards: 0,
            free_out: 0,
            free_classes: 0,
            mates,
            up_classes: 0,
            loose: 0,
            placed: 0,
            takes: 0,
            lays_held: 0,
            lays_nowhere: false,
            after: [0; 64],
            ordered: 0,
            space: false,
            empty_piles: 0,
            filled: 0,
            order: [0; 52],
            place: [0; 64],
            hidden: 0,
            stock_cards: 0,
            left: 0,
            left_places: 0,
        };
        if rule.follows_the_stock_of(position) {
            fixpoint.follow_the_stock();
        } else {
            for pile in [Pile::Stock, Pile::Waste] {
                for &card in position.pile(pile) {
                    fixpoint.loose |= 1 << card;
                }
            }
        }
        fixpoint.free_out = fixpoint.loose;
        let ranks = usize::from(position.ranks());
        for suit in 0..4 {
            let placed = position.foundation_len(suit);
            fixpoint.next_cards |= tables.next_of(suit, placed, ranks);
            if rule.cards_come_back {
                for &card in &tables.foundation[suit][..placed] {
                    fixpoint.up |= 1 << card;
                }
            }
        }
        fixpoint.loose |= fixpoint.up;
        let mut tops = 0u64;
        for p in 0..position.tableau_piles() {
            let cards = position.pile(Pile::Tableau(p as u8));
            let Some((&top, _)) = cards.split_last() else {
                fixpoint.space = !rule.counts_spaces();
                fixpoint.empty_piles += 1;
                continue;
            };
            fixpoint.bottoms |= 1 << cards[0];
            for (i, &card) in cards.iter().enumerate() {
                fixpoint.tableau |= 1 << card;
                if i > 0 {
                    fixpoint.under[usize::from(card)] = cards[i - 1];
                    if rule.held_from.is_some_and(|from| i >= from) {
                        fixpoint.held |= 1 << card;
                    }
                }
            }
            tops |= 1 << top;
        }
        // A card laid on another lies at index 1 at least, and is held there where cards are held from index 1;
        // else where the card under it is held, since a held card's index never falls.
        if rule.lays_apart && mates.is_none() && !rule.cards_come_back {
            fixpoint.lays_held = match rule.held_from {
                Some(1) => !0,
                Some(_) => fixpoint.held,
                None => 0,
            };
            fixpoint.lays_nowhere =
                rule.held_from.is_some_and(|k| k > 1) && !rule.spaces_from_tableau;
        }
        // Once every pile is read: what a top card takes depends on the cards held in every pile.
        for top in Bits(tops) {
            fixpoint.reach(top as u8);
        }
        for r in 0..position.reserve_piles() {
            let cards = position.pile(Pile::Reserve(r as u8));
            fixpoint.reserve[r] = cards;
            for &c in cards {
                fixpoint.in_reserve |= 1 << c;
            }
            fixpoint.reserve_left[r] = cards.len();
            if let Some(&top) = cards.last() {
                fixpoint.free_out |= 1 << top;
            }
        }
        fixpoint
    }

    /// Whether some card can never go up, or, where spaces are counted, the reserve's cards need more spaces than
    /// can appear (see the module documentation).
    fn lost(&mut self) -> bool {
        let reserve_len = self.reserve_left[0];
        self.lost_from(reserve_len)
    }

    /// [`Fixpoint::lost`] for facts some of which may have been added already, of a position whose reserve
    /// (where spaces are counted) held `reserve_len` cards.
    fn lost_from(&mut self, reserve_len: usize) -> bool {
        // The facts first, so that the cards of the stock that may come up have come up before any card of the
        // reserve is decided on: where all of them may, the decisions are those of the facts with the stock free.
        self.settle();
        self.reserve_lost(reserve_len)
    }

    /// [`Fixpoint::lost`] for settled facts, of a position whose reserve held `reserve_len` cards: the reserve
    /// followed a card at a time where spaces are counted.
    fn reserve_lost(&mut self, reserve_len: usize) -> bool {
        if self.rule.counts_spaces() {
            self.spaces_may_take(reserve_len);
            while let Some(i) = self.reserve_left[0].checked_sub(1) {
                let card = self.reserve[0][i];
                if self.takes >> card & 1 == 0 {
                    self.settle();
                    if self.reserve_left[0] != i + 1 {
                        self.spaces_may_take(i + 1);
                        continue;
                    }
                    if self.takes >> card & 1 == 0 {
                        if self.filled.count_ones() + 1 > self.spaces_made() {
                            return true;
                        }
                        self.filled |= 1 << card;
                    }
                }
                self.leave_reserve(0, i);
                self.loose |= 1 << card;
                self.place_card(card);
            }
        }
        self.settle();
        self.next_cards != 0
    }

    /// Where spaces are counted, puts in the tableau the cards that went up from the reserve, below index `to`,
    /// where a space may have come while they lay on top of it: a space is filled from the reserve at once, so
    /// a line may have put them there first (and cards on them). The facts, worked out until none is added with
    /// them on top, hold every space that may have come by the time they left.
    fn spaces_may_take(&mut self, to: usize) {
        if self.filled.count_ones() < self.spaces_made() {
            for &card in &self.reserve[0][self.reserve_left[0]..to] {
                if self.placed >> card & 1 == 0 {
                    self.place_card(card);
                }
            }
        }
    }

    /// Where spaces are counted, how many may have appeared at most: the empty piles, and the cards that may have
    /// left the bottom of a pile, of the position's bottoms and the cards that needed a space.
    fn spaces_made(&self) -> u32 {
        self.empty_piles
            + ((self.bottoms | self.filled) & (self.up_classes | self.takes)).count_ones()
    }

    /// Adds facts until none is added.
    fn settle(&mut self) {
        loop {
            let mut changed = self.uncover();
            changed |= self.raise();
            // Every card up: no fact added now decides anything.
            if self.next_cards == 0 {
                return;
            }
            changed |= self.reveal();
            // Once no reserve card waits and every tableau card not held has left the card under it, what may be
            // put in the tableau, and spaces, decide nothing more: cards of the stock and the waste may go up
            // whenever their turn comes. Not so in a relaxed game, where a card put in the tableau lets a card
            // of its class go up from under others.
            let reserve_piles = self.position.reserve_piles();
            let waiting = self.mates.is_some()
                || self.hidden != 0
                || self.reserve_left[..reserve_piles].iter().any(|&n| n > 0)
                || self.tableau & !self.bottoms & !self.held & !self.gone != 0;
            // Where spaces are counted, the reserve's cards are put in the tableau as they come (see `lost`).
            if waiting && !self.rule.counts_spaces() {
                for r in 0..reserve_piles {
                    while let Some(i) = self.reserve_left[r].checked_sub(1) {
                        let card = self.reserve[r][i];
                        if !self.may_be_placed(card) {
                            break;
                        }
                        self.loose |= 1 << card;
                        self.leave_reserve(r, i);
                        changed = true;
                    }
                }
            }
            if waiting {
                // A card gone up may have been put in the tableau first, and the other way round: neither rules the
                // other out here.
                let mut placeable =
                    self.loose & !self.placed & if self.space { !0 } else { self.takes };
                while placeable != 0 {
                    self.place_card(placeable.trailing_zeros() as u8);
                    placeable &= placeable - 1;
                    changed = true;
                }
                if !self.space {
                    // A pile empties when its bottom card goes up, or moves with the cards over it onto another
                    // (from the top, where only the top card moves).
                    let moving = if self.rule.moves == Moves::Top {
                        self.reached
                    } else {
                        !0
                    };
                    self.space = if self.rule.counts_spaces() {
                        self.reserve_left[0] == 0 && self.filled.count_ones() < self.spaces_made()
                    } else {
                        self.bottoms & (self.reached & self.up_classes | self.takes & moving) != 0
                    };
                    changed |= self.space;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Adds the tableau cards that may have left the card under them, and so the cards under them that may have
    /// been at the top: whether any was added. A held card leaves only to its foundation; another one, onto a
    /// card that takes it or, where the tableau fills spaces, into a space, with the cards over it where runs
    /// move, else from the top of its pile.
    fn uncover(&mut self) -> bool {
        let mut changed = false;
        loop {
            let onto = if self.space && self.rule.spaces_from_tableau {
                !0
            } else {
                self.takes
            };
            let moving = if self.rule.moves == Moves::AnyRun {
                !0
            } else {
                self.reached
            };
            let mut leaving = (self.reached & self.up_classes | (onto & moving & !self.held))
                & self.tableau
                & !self.gone;
            if leaving == 0 {
                return changed;
            }
            self.gone |= leaving;
            while leaving != 0 {
                let card = leaving.trailing_zeros() as usize;
                leaving &= leaving - 1;
                let below = self.under[card];
                if below != NO_CARD {
                    changed |= self.reach(below);
                }
            }
        }
    }

    /// Leaves loose only the cards of the stock and the waste that may come to the top of the waste in the pass
    /// under way, or in the next one, where a redeal is left, if no card leaves before them.
    fn follow_the_stock(&mut self) {
        let n;
        (self.order, n) = self.position.stock_order();
        if n == 0 {
            return;
        }
        let waste = self.position.len(Pile::Waste);
        let all = (1u64 << n) - 1;
        let draw = usize::from(self.rule.draw);
        let every_draw = &self.tables.every_draw;
        // In the pass under way, the draws end at the places `waste + draw - 1`, `waste + 2 * draw - 1`, ...;
        // in the next, with no card gone, at `draw - 1`, `2 * draw - 1`, ...; in each, the last card ends one.
        let this_pass = every_draw[waste % draw] & !((1u64 << waste) - 1) & all;
        let next_pass = if self.later_passes() {
            every_draw[0] & all
        } else {
            0
        };
        let top = waste.checked_sub(1).map_or(0, |top| 1u64 << top);
        let shown = this_pass | next_pass | top | 1u64 << (n - 1);
        self.hidden = all & !shown;
        for (i, &card) in self.order[..n].iter().enumerate() {
            self.place[usize::from(card)] = i as u8;
            self.stock_cards |= 1 << card;
            self.loose |= (shown >> i & 1) << card;
        }
    }

    /// Whether the stock may be turned again after the pass under way.
    fn later_passes(&self) -> bool {
        !in_last_pass(self.position)
    }

    /// These facts with every card of the stock and the waste free to go besides. Settled from the facts before
    /// any is added, they are those of the rule with the stock free. Settled from facts settled once with the
    /// stock followed, before anything of the reserve was decided, they decide as those do: facts only ever grow,
    /// and every fact added with the stock followed is one with the stock free, so settling again adds the rest.
    fn with_the_stock_free(mut self) -> Fixpoint<'a> {
        self.rule = self.rule.cut_free();
        self.hidden = 0;
        self.loose |= self.stock_cards;
        self.free_out |= self.stock_cards;
        self
    }

    /// Frees the cards of the stock and the waste that may have come to the top of the waste since cards left it:
    /// whether any did. A card comes there when a draw ends on it, or when the card over it in the waste leaves;
    /// a draw ends on the card at place `i` in a later pass once `k` cards before it have left, with
    /// `(i - k) % draw == draw - 1`.
    fn reveal(&mut self) -> bool {
        let left = self.stock_cards & (self.up | self.placed);
        if self.hidden == 0 || left == self.left {
            return false;
        }
        for card in Bits(left & !self.left) {
            self.left_places |= 1 << self.place[card];
        }
        self.left = left;
        let every_draw = if self.later_passes() {
            &self.tables.every_draw[1..]
        } else {
            &[]
        };
        let mut shown = self.left_places >> 1;
        let mut before = self.left_places;
        for &ends in every_draw {
            if before == 0 {
                break;
            }
            // The draw ends that need one card more gone before them: the places after the next place left.
            let first = before & before.wrapping_neg();
            shown |= ends & !((first << 1) - 1);
            before &= before - 1;
        }
        let shown = shown & self.hidden;
        if shown == 0 {
            return false;
        }
        self.hidden &= !shown;
        for i in Bits(shown) {
            let bit = 1 << self.order[i];
            self.loose |= bit;
            self.free_out |= bit;
        }
        true
    }

    /// Notes that tableau card `card` may have been at the top of its pile: whether that is new.
    fn reach(&mut self, card: u8) -> bool {
        if self.reached >> card & 1 == 1 {
            return false;
        }
        self.reached |= 1 << card;
        self.takes |= self.built_on(card);
        self.free_classes |= self.class_of(card);
        true
    }

    /// Sends up every card that may go, until none may: whether any went. A foundation's next card goes when it
    /// is free: put in the tableau, of the stock or the waste, at the top of its reserve pile, or a tableau card
    /// of whose class some card may have been at the top of its pile or put in the tableau (in the game itself,
    /// the card itself at the top).
    fn raise(&mut self) -> bool {
        let mut changed = false;
        loop {
            let mut going = self.next_cards & (self.free_out | self.tableau & self.free_classes);
            if going == 0 {
                return changed;
            }
            changed = true;
            while going != 0 {
                let card = going.trailing_zeros() as u8;
                going &= going - 1;
                self.send_up(card);
            }
        }
    }

    /// Sends `card`, the next card of its foundation and free, up.
    fn send_up(&mut self, card: u8) {
        let c = usize::from(card);
        let bit = 1u64 << c;
        if (self.placed | self.tableau | !self.in_reserve) & bit == 0 {
            // A reserve card goes up from the top of its pile, unless it left the pile before.
            let piles = self.position.reserve_piles();
            if let Some(r) =
                (0..piles).find(|&r| self.reserve[r][..self.reserve_left[r]].last() == Some(&card))
            {
                self.leave_reserve(r, self.reserve_left[r] - 1);
                self.loose |= bit;
            }
        }
        self.up |= bit;
        if self.rule.cards_come_back {
            self.loose |= bit;
        }
        // A place is left, gone up, only by a card that lay in the tableau: one gone up from the waste or the
        // reserve, never put in the tableau, leaves no place of its class.
        if (self.tableau | self.placed) & bit != 0 {
            self.up_classes |= self.class_of(card);
        }
        self.next_cards = self.next_cards & !bit | self.tables.after[c];
    }

    /// Notes that reserve pile `r` has given its cards from index `i` up: the card under them is its top.
    fn leave_reserve(&mut self, r: usize, i: usize) {
        self.reserve_left[r] = i;
        if let Some(top) = i.checked_sub(1) {
            self.free_out |= 1 << self.reserve[r][top];
        }
    }

    /// Whether `card` may be put in the tableau: into a space, or on a card that may be at the top of a pile.
    fn may_be_placed(&self, card: u8) -> bool {
        self.space || self.takes >> card & 1 == 1
    }

    /// Puts `card` in the tableau, where cards may be built on it.
    fn place_card(&mut self, card: u8) {
        self.placed |= 1 << card;
        self.free_out |= 1 << card;
        self.free_classes |= self.class_of(card);
        self.takes |= self.built_on(card);
        if self.up >> card & 1 == 1 {
            self.up_classes |= self.class_of(card);
        }
    }

    /// The cards of `card`'s class: in the game itself, the card alone.
    fn class_of(&self, card: u8) -> u64 {
        self.mates
            .map_or(1 << card, |mates| mates[usize::from(card)])
    }

    /// The cards that may be built on `card` and that no card takes yet, but those that must go up after it where
    /// a card laid on it is held there, and elsewhere those that must go up after every card they may be built on
    /// (see "What a card never lies on" in the module documentation). The cards taken already are left out, since
    /// what this finds goes to `takes`: most often none is left, and `after_all` is not worked out.
    fn built_on(&mut self, card: u8) -> u64 {
        let built_on = self.tables.built_on[usize::from(card)] & !self.takes;
        if built_on == 0 {
            0
        } else if self.lays_held >> card & 1 == 1 {
            built_on & !self.after_all(card)
        } else if self.lays_nowhere {
            let mut nowhere = 0;
            for laid in Bits(built_on & self.after_all(card)) {
                if Bits(self.tables.takers[laid]).all(|t| self.after_all(t as u8) >> laid & 1 == 1)
                {
                    nowhere |= 1 << laid;
                }
            }
            built_on & !nowhere
        } else {
            built_on
        }
    }

    /// The cards that must go up after `card` in every line that wins: the card after it in its suit and, where
    /// it is held, the card under it, and those after each of these.
    fn after_all(&mut self, card: u8) -> u64 {
        let c = usize::from(card);
        if self.ordered >> c & 1 == 1 {
            return self.after[c];
        }
        // Marked first, so that a cycle (a lost position, which the facts find) ends.
        self.ordered |= 1 << c;
        let mut after = self.tables.after[c];
        if self.held >> c & 1 == 1 {
            after |= 1 << self.under[c];
        }
        let mut all = after;
        for next in Bits(after) {
            all |= self.after_all(next as u8);
        }
        self.after[c] = all;
        all
    }
}
