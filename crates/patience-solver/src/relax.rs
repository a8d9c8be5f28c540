//! A relaxed game, searched to prove losses: tableau cards that building cannot tell apart may change places.
//!
//! # The relaxed game
//! Put the cards in classes: two cards are in one class when the same cards may be built on them and they may be
//! built on the same cards. Two positions are the same state of the relaxed game when they differ only by which
//! cards of a class lie where in the tableau: the same stock, waste, reserve and foundations, and the same piles
//! card for card up to class. Its moves are the real moves, and one more kind: a card next on its foundation that
//! lies anywhere in the tableau goes up from the top of any pile whose top card is of its class, as if the two had
//! changed places first.
//!
//! # Why a loss there is a loss
//! Every real move is a move of the relaxed game from the state of the position it starts from, and leads to the
//! state of the position it leads to; so a real winning line is a relaxed winning line too, and a deal the relaxed
//! game loses, the real game loses.
//!
//! That needs every move's legality and result, up to class, to be the same from every position of a state, and
//! so to be the relaxed game's own. Moves within and into the tableau hang on which cards may be built on which,
//! and on the piles' lengths and spaces, none of which a change within a class alters; a pile's top cards form a
//! run or not alike. A move out of the stock, waste or reserve moves the same card from every position of the
//! state. A move to a foundation from the tableau takes a card next on its foundation off the top of a pile: from
//! any position of the state, that is a relaxed move, since the card lies in the tableau (the tableau holds the
//! cards that lie nowhere else, the same in every position of the state) and the pile's top is of its class.
//!
//! The search of the relaxed game keys a position by its state, and keeps two of the pruning rules, whose proofs
//! hold for it word for word: stock macro-moves (the relaxed moves to the foundations touch neither the stock nor
//! the waste, so they commute with draws as the real ones do) and dead ends (the relaxed game's foundations still
//! take their cards in order, its waste is still a stack, and its piles are still runs, since a change within a
//! class keeps a run a run). Safe moves to the foundations are left out: their proof is for the real game.
//!
//! # What it gains
//! A state stands for every way the tableau can share out the cards of each class, so the relaxed game has far
//! fewer states where building is regardless of suit (up to 24 ways to lay out four cards of one rank); with
//! alternate colours a class is a pair of cards, and with building in suit every class is one card, and nothing is
//! gained. Its wins prove nothing, and often come where the real game is lost: a relaxed win whose line uses only
//! real moves is a real win, but one that moves a card up from under others is not.

use patience_core::{Card, Move, Pile, Position, RuleSet, Suit};

use crate::classes::Classes;

/// The classes of a relaxed game, decided at the root of a search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Relaxation {
    /// The class of each card, by card index.
    class: [u8; 64],
}

impl Relaxation {
    /// The relaxed game of a search from `root`, if it can gain anything: the base rank (on which the classes
    /// may hang) is known and no choice is pending, and some class has more than one card.
    pub(crate) fn for_root(rules: &RuleSet, root: &Position) -> Option<Relaxation> {
        if root.choice_pending() || root.base_rank().is_none() {
            return None;
        }
        let classes = Classes::new(rules, root);
        classes
            .members
            .iter()
            .any(|cards| cards.count_ones() > 1)
            .then_some(Relaxation { class: classes.of })
    }

    /// The class of the card with this index.
    pub(crate) fn class(&self, card: u8) -> u8 {
        self.class[card as usize]
    }

    /// The relaxed game's own moves to the foundations from `position`: for each of them, the position with the
    /// card next on its foundation and the top card of a pile of its class changed places, and the real move to
    /// make from it.
    pub(crate) fn foundation_moves(
        &self,
        position: &Position,
        mut emit: impl FnMut(Position, Move),
    ) {
        let piles = position.tableau_piles() as u8;
        let in_tableau = |card: Card| {
            (0..piles).any(|t| position.pile(Pile::Tableau(t)).contains(&card.index()))
        };
        for t in 0..piles {
            let Some(top) = position.top(Pile::Tableau(t)) else {
                continue;
            };
            for suit in Suit::ALL {
                let Some(next) = position.foundation_next(suit) else {
                    continue;
                };
                if next != top
                    && self.class(next.index()) == self.class(top.index())
                    && in_tableau(next)
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
}
