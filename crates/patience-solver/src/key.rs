//! Canonical keys: positions that differ only in the order of interchangeable tableau piles share one key.

use patience_core::{Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128;

/// Separates piles in the key bytes; no card has this value.
const SEPARATOR: u8 = 0xFF;

/// How a rule set lets keys be made.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyShape {
    /// Whether the tableau piles may be put in sorted order: true when no pile differs from another by rule
    /// (no pile of its own capacity). Forced refills take the first space by index, but any space gives the
    /// same set of piles, so sorting stays sound for them.
    sort_tableau: bool,
}

impl KeyShape {
    pub(crate) fn new(rules: &RuleSet) -> KeyShape {
        KeyShape {
            sort_tableau: rules.tableau.capacity.is_empty(),
        }
    }

    /// Keys of exact positions, with no pile order taken as equivalent.
    pub(crate) fn exact() -> KeyShape {
        KeyShape {
            sort_tableau: false,
        }
    }

    /// The key of a position: a 128-bit hash of its canonical bytes (foundations, base rank, redeals left,
    /// stock, waste, reserve piles in order, tableau piles sorted when they are interchangeable, choice row).
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
        put(position.pile(Pile::Stock));
        put(position.pile(Pile::Waste));
        for i in 0..position.reserve_piles() as u8 {
            put(position.pile(Pile::Reserve(i)));
        }
        for i in 0..position.choice_piles() as u8 {
            put(position.pile(Pile::Choice(i)));
        }
        let mut tableau: [&[u8]; patience_core::rules::MAX_TABLEAU] =
            [&[]; patience_core::rules::MAX_TABLEAU];
        let piles = position.tableau_piles();
        for (i, slot) in tableau.iter_mut().enumerate().take(piles) {
            *slot = position.pile(Pile::Tableau(i as u8));
        }
        if self.sort_tableau {
            tableau[..piles].sort_unstable();
        }
        for pile in &tableau[..piles] {
            put(pile);
        }
        xxh3_128(&bytes[..len])
    }
}
