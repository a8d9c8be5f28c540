//! The rules' verdicts on states, worked out by the streamlined pass over positions and kept for the full search.
//!
//! The rules that prove a position lost without a search (the dead ends and the order of play) give a state one
//! verdict, and a search works them out where it meets a state first (see `Search::lost_by_rules`). The
//! streamlined pass over positions keys states as the full search after it does, so a verdict it worked out is the
//! full search's for the same key: where the full search meets a state first, it looks the verdict up before it
//! works the rules out. Whole-pile Canfield spends a third of a proof's instructions on the order of play, and its
//! streamlined pass has met a sixth to a half of the states the full search works it out at (deals 290 and 160).
//! A lookup that takes one key for another, as rarely as one in the search's own table does (both keep 70 bits of
//! a key), is the only way a verdict looked up can be wrong.

use crate::table::Table;

/// The verdicts noted, and how the search that looks them up has fared.
pub(crate) struct Verdicts {
    /// The keys of the states noted, each with its lowest bit flipped where the rules proved the state lost.
    table: Table,
    /// Lookups, and those that found the state, since the search last judged the table.
    lookups: u32,
    found: u32,
    /// Whether the search has stopped looking.
    dropped: bool,
}

/// A search judges the table every this many lookups, and stops looking when fewer than one in [`FEWEST_FOUND`]
/// found its state: where the streamlined pass ended early, the table holds little.
const TRIAL_LOOKUPS: u32 = 1 << 16;
const FEWEST_FOUND: u32 = 64;

/// The bit of a key flipped where the state is lost: the table keeps the key's low bits, so that the two keys of
/// a state lie side by side and a lookup of both is one cache miss.
const LOST: u128 = 1;

impl Verdicts {
    /// No verdict yet, in a table that never takes more than `budget_bytes`.
    pub(crate) fn new(budget_bytes: usize) -> Verdicts {
        Verdicts {
            table: Table::new(budget_bytes),
            lookups: 0,
            found: 0,
            dropped: false,
        }
    }

    /// Notes the rules' verdict on the state of this key: whether they prove it lost. Where the table is full, the
    /// newest verdicts take the place of older ones.
    pub(crate) fn note(&mut self, key: u128, lost: bool) {
        self.table
            .insert_evicting(if lost { key ^ LOST } else { key });
    }

    /// The verdict noted on the state of this key, if any, and if the search still looks.
    pub(crate) fn get(&mut self, key: u128) -> Option<bool> {
        if self.dropped {
            return None;
        }
        let verdict = if self.table.contains(key) {
            Some(false)
        } else if self.table.contains(key ^ LOST) {
            Some(true)
        } else {
            None
        };
        self.lookups += 1;
        self.found += u32::from(verdict.is_some());
        if self.lookups == TRIAL_LOOKUPS {
            self.dropped = self.found * FEWEST_FOUND < self.lookups;
            (self.lookups, self.found) = (0, 0);
        }
        verdict
    }

    /// The lookups that found their state since the search last judged the table (every [`TRIAL_LOOKUPS`]).
    #[cfg(test)]
    pub(crate) fn found(&self) -> u32 {
        self.found
    }

    /// Bytes the table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verdict noted is the verdict got back, lost or not, and a state never noted has none.
    #[test]
    fn a_verdict_noted_is_the_verdict_got() {
        let mut verdicts = Verdicts::new(1 << 20);
        let keys: Vec<u128> = (1..=1000u128)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            verdicts.note(key, i % 3 == 0);
        }
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(verdicts.get(key), Some(i % 3 == 0), "key {i}");
        }
        assert_eq!(
            verdicts.get(0x1234_5678_9ABC_DEF0_0FED_CBA9_8765_4321),
            None
        );
    }
}
