//! Positions proved lost because no order of play to the foundations fits both the tableau and the suits.
//!
//! # The rule
//! Take rules under which foundation cards never come back and only whole tableau piles move (with, at most, the
//! top card alone from a pile of exactly `k` cards, Foster's rule), and a position whose base rank is known. Say a
//! card of a tableau pile is *held* when it lies at index `k` or more from the pile's bottom (index 1 or more when
//! no top card moves alone). The position is lost if no order of the cards off the foundations puts
//!
//! - each suit's cards in the order its foundation takes them, and
//! - every held tableau card before every card under it in its pile.
//!
//! Proof. Take a card `y` held over a card `x` in a pile. A tableau card leaves its pile only as its top card to
//! a foundation, or in a move of the whole pile, which keeps the order of the cards in it, or alone from a pile
//! of exactly `k` cards. Cards are only ever added on top of a pile or under a whole pile moved onto another, so
//! the cards under `y` never grow fewer while it stays in a tableau pile: `y` stays at index `k` or more, can
//! never be the top card of a pile of exactly `k`, and never moves alone but to its foundation. So `x` stays under
//! `y` until `y` goes to its foundation, and cannot go to its own before. A winning line sends every card to its
//! foundation, each suit's in the foundation's order, and so gives an order of both kinds; when there is none, no
//! line wins.
//!
//! Whether such an order exists is found by sending the cards up one after another, any card whose predecessors
//! are up: each constraint only waits for cards to go, so going up never keeps another card from going, and
//! every card goes up if and only if the constraints have no cycle.
//!
//! In whole-pile Canfield, where the rank order wraps, a pile may run past the base rank: a card over a card of
//! its suit that its foundation takes earlier is such a cycle, and so are longer ones across piles and suits. The
//! full search of Canfield deal 7 goes through millions of such positions, built into long piles that wrap round
//! the ranks two or three times: 98 % of those it entered in 20 s were lost by this rule.

use patience_core::rules::{Base, Build, Moves, RankOrder, MAX_TABLEAU};
use patience_core::{Card, Pile, Position, Rank, RuleSet};

/// The rule for one rule set.
#[derive(Debug, Clone, Copy)]
pub struct PlayOrder {
    /// The least index from the bottom of a pile at which a card is held: it never moves alone but to its
    /// foundation.
    held_from: usize,
}

impl PlayOrder {
    /// The rule, if these rules allow it and it can ever find a position lost: foundation cards never come back,
    /// only whole tableau piles move, or the top card alone from a pile of a given size, and a card may be built
    /// on one its foundation does not take next after it. Building in suit, each card one below the other in the
    /// foundations' own order (from the base rank, no wrap: Storehouse), only ever puts a card over the one its
    /// foundation takes next, so every order that fits the suits fits the piles as well, and the rule would be
    /// worked out at every position for nothing (Storehouse deal 121 took 8 % longer with it).
    pub fn for_rules(rules: &RuleSet) -> Option<PlayOrder> {
        let in_foundation_order = rules.tableau.build == Build::SameSuit
            && (rules.tableau.order == RankOrder::FromBase
                || (rules.tableau.order == RankOrder::Natural
                    && rules.foundations.base == Base::Rank(Rank::ACE)));
        (!rules.foundations.cards_go_back
            && rules.tableau.moves == Moves::WholePile
            && !in_foundation_order)
            .then(|| PlayOrder {
                held_from: rules
                    .tableau
                    .top_card_from_piles_of
                    .map_or(1, |k| usize::from(k).max(1)),
            })
    }

    /// Whether `position` is lost by the rule in the module documentation.
    pub fn lost(&self, position: &Position) -> bool {
        let Some(base) = position.base_rank().filter(|_| !position.choice_pending()) else {
            return false;
        };
        let ranks = usize::from(position.ranks());
        let base = usize::from(base.index());
        // Each suit's tableau cards by their place in the foundation's order: the pile, counted from 1 (0 for a
        // card in no tableau pile), and the index from the pile's bottom.
        let mut at = [[(0u8, 0u8); 13]; 4];
        // Of each pile, the held cards below this index are still to go up; those at it and above are up.
        let mut held_left = [0usize; MAX_TABLEAU];
        let mut any_held = false;
        for (p, left) in held_left
            .iter_mut()
            .enumerate()
            .take(position.tableau_piles())
        {
            let cards = position.pile(Pile::Tableau(p as u8));
            for (i, card) in cards
                .iter()
                .filter_map(|&c| Card::from_index(c))
                .enumerate()
            {
                let place = (usize::from(card.rank().index()) + ranks - base) % ranks;
                at[card.suit() as usize][place] = (p as u8 + 1, i as u8);
            }
            *left = cards.len().max(self.held_from);
            any_held |= cards.len() > self.held_from;
        }
        if !any_held {
            return false;
        }
        let mut next = [0, 1, 2, 3].map(|s| position.foundation_len(s));
        loop {
            let mut went_up = false;
            for (places, next) in at.iter().zip(next.iter_mut()) {
                while *next < ranks {
                    let (pile, i) = places[*next];
                    if pile != 0 {
                        let (p, i) = (usize::from(pile - 1), usize::from(i));
                        // Every held card over it must be up: those at `max(i + 1, held_from)` and above.
                        if held_left[p] > (i + 1).max(self.held_from) {
                            break;
                        }
                        if i >= self.held_from {
                            held_left[p] = i;
                        }
                    }
                    *next += 1;
                    went_up = true;
                }
            }
            if !went_up {
                return next.iter().any(|&n| n < ranks);
            }
        }
    }
}
