//! Canonical keys: positions that differ only in the order of interchangeable tableau piles share one key.

use patience_core::rules::MAX_TABLEAU;
use patience_core::{Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128;

use crate::relax::Relaxation;

/// Separates piles in the key bytes; no card has this value.
const SEPARATOR: u8 = 0xFF;

/// How a rule set lets keys be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyShape {
    /// Whether the tableau piles may be put in sorted order: true when no pile differs from another by rule
    /// (no pile of its own capacity). Forced refills take the first space by index, but any space gives the
    /// same set of piles, so sorting stays sound for them.
    sort_tableau: bool,
    /// How many cards a draw turns, when the stock and waste may be keyed by their cycle (see [`KeyShape::key`]).
    stock_cycle: Option<u8>,
    /// The relaxed game whose states are keyed, if any: its tableau cards are keyed by class.
    relaxation: Option<Relaxation>,
}

impl KeyShape {
    pub(crate) fn new(rules: &RuleSet) -> KeyShape {
        KeyShape {
            sort_tableau: rules.tableau.capacity.is_empty(),
            stock_cycle: Some(rules.stock.draw),
            relaxation: None,
        }
    }

    /// Keys of the states of a relaxed game (see [`crate::relax`]): as [`KeyShape::new`], with each tableau card
    /// keyed by its class, but for the cards the game keeps apart, keyed by themselves.
    pub(crate) fn relaxed(rules: &RuleSet, relaxation: Relaxation) -> KeyShape {
        KeyShape {
            relaxation: Some(relaxation),
            ..KeyShape::new(rules)
        }
    }

    /// Keys of exact positions, with no pile order taken as equivalent.
    pub(crate) fn exact() -> KeyShape {
        KeyShape {
            sort_tableau: false,
            stock_cycle: None,
            relaxation: None,
        }
    }

    /// The key of a position: a 128-bit hash of its canonical bytes (foundations, base rank, redeals left,
    /// stock, waste, reserve piles in order, tableau piles sorted when they are interchangeable, choice row).
    ///
    /// With unlimited redeals the stock and the waste are keyed by the order the cards come up in (the waste from
    /// the bottom, then the stock from the top) and by where the position stands in it, and every position on
    /// the stock's cycle shares one key. On the cycle are the positions reached by turning from a full stock:
    /// a waste of a whole number of draws, or an empty stock. Each such position turns to every other one, so
    /// they all have the same stock steps and the same other moves, and lead to the same positions up to this
    /// same key. A position off the cycle (just after a play from the waste) turns onto it but cannot be reached
    /// back, so it keeps its own key.
    pub(crate) fn key(&self, position: &Position) -> u128 {
        let mut bytes = [0u8; 160];
        let mut len = 0;
        let mut put = |slice: &[u8]| {
            bytes[len..len + slice.len()].copy_from_slice(slice);
            len += slice.len();
            bytes[len] = SEPARATOR;
            len += 1;
        };
        let foundations = [
            position.foundation_len(0) as u8,
            position.foundation_len(1) as u8,
            position.foundation_len(2) as u8,
            position.foundation_len(3) as u8,
            position.base_rank().map_or(SEPARATOR, |r| r.index()),
            position.redeals_left().unwrap_or(SEPARATOR),
        ];
        put(&foundations);
        match self.stock_cycle {
            Some(draw) if position.redeals_left().is_none() => {
                let (order, cards) = position.stock_order();
                let waste = position.len(Pile::Waste);
                let on_cycle = waste == cards || waste % draw as usize == 0;
                put(&order[..cards]);
                put(&[if on_cycle { SEPARATOR } else { waste as u8 }]);
            }
            _ => {
                put(position.pile(Pile::Stock));
                put(position.pile(Pile::Waste));
            }
        }
        for i in 0..position.reserve_piles() as u8 {
            put(position.pile(Pile::Reserve(i)));
        }
        for i in 0..position.choice_piles() as u8 {
            put(position.pile(Pile::Choice(i)));
        }
        let mut tableau: [&[u8]; MAX_TABLEAU] = [&[]; MAX_TABLEAU];
        let piles = position.tableau_piles();
        for (i, slot) in tableau.iter_mut().enumerate().take(piles) {
            *slot = position.pile(Pile::Tableau(i as u8));
        }
        if let Some(relaxation) = &self.relaxation {
            let kept_apart = relaxation.kept_apart(position);
            let class = |card: &u8| relaxation.key_byte(*card, kept_apart);
            // Piles of classes may be alike, so only whole piles order them.
            if self.sort_tableau {
                tableau[..piles]
                    .sort_unstable_by(|a, b| a.iter().map(class).cmp(b.iter().map(class)));
            }
            for pile in &tableau[..piles] {
                let mut classes = [0u8; 52];
                for (slot, card) in classes.iter_mut().zip(pile.iter()) {
                    *slot = class(card);
                }
                put(&classes[..pile.len()]);
            }
            return xxh3_128(&bytes[..len]);
        }
        if self.sort_tableau {
            // Every card is in one place, so piles differ in their bottom cards unless they are empty: ordering by
            // the bottom card alone is as canonical as ordering by all the cards, and far cheaper.
            tableau[..piles]
                .sort_unstable_by_key(|pile| pile.first().copied().unwrap_or(SEPARATOR));
        }
        for pile in &tableau[..piles] {
            put(pile);
        }
        xxh3_128(&bytes[..len])
    }
}
