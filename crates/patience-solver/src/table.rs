//! The transposition table: the keys of positions already searched, within a memory budget.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Keys are already uniform hashes, so the table's hasher passes them through.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// Bytes one stored key takes in the hash set: the key and its control byte.
const BYTES_PER_SLOT: usize = std::mem::size_of::<u128>() + 1;

/// Keys of searched positions, never grown past its budget.
pub(crate) struct Table {
    keys: HashSet<u128, BuildHasherDefault<PassThrough>>,
    max_keys: usize,
}

/// The table is full: its budget does not allow the next key.
#[derive(Debug)]
pub(crate) struct Full;

impl Table {
    /// A table that never takes more than `budget_bytes` for its slots, even while it grows.
    pub(crate) fn new(budget_bytes: usize) -> Table {
        // The set grows by doubling a power-of-two number of slots (4 at least), filled to 7/8 from 8 slots on
        // and to all but one below. While it doubles to n slots, its n/2 old slots are still held until their
        // keys are moved: keep the largest size whose last doubling, old and new slots together, fits the budget.
        let slots = budget_bytes / BYTES_PER_SLOT / 3 * 2;
        let slots = if slots.is_power_of_two() {
            slots
        } else {
            slots.next_power_of_two() / 2
        };
        let max_keys = match slots {
            0..=3 => 0,
            4..=7 => slots - 1,
            _ => slots / 8 * 7,
        };
        Table {
            keys: HashSet::default(),
            max_keys,
        }
    }

    /// Adds a key; `Ok(true)` if it was new, `Ok(false)` if already there.
    pub(crate) fn insert(&mut self, key: u128) -> Result<bool, Full> {
        if self.keys.contains(&key) {
            return Ok(false);
        }
        if self.keys.len() >= self.max_keys {
            return Err(Full);
        }
        Ok(self.keys.insert(key))
    }

    /// Keys stored.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Bytes the table's slots take now.
    pub(crate) fn bytes(&self) -> usize {
        (self.keys.capacity() * 8 / 7).next_power_of_two() * BYTES_PER_SLOT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct, well spread keys, as the solver's hashes are.
    fn key(i: u128) -> u128 {
        i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)
    }

    #[test]
    fn the_table_keeps_to_its_budget_while_it_grows_and_when_full() {
        let mut budgets = vec![0, 64, 1 << 10, 4 << 10, 100_000, 1 << 20, 3 << 20];
        // Just below, at and above the sizes where a power of two of slots fits exactly.
        for shift in 8..=16 {
            let exact = BYTES_PER_SLOT << shift;
            budgets.extend([
                exact - 1,
                exact,
                exact + 1,
                exact * 3 / 2,
                exact * 3 / 2 + 17,
            ]);
        }
        for budget in budgets {
            let mut table = Table::new(budget);
            let mut i = 0;
            loop {
                let before = table.keys.capacity();
                let held = if before == 0 { 0 } else { table.bytes() };
                i += 1;
                match table.insert(key(i)) {
                    Ok(true) => {}
                    Ok(false) => panic!("budget {budget}: key {i} was there already"),
                    Err(Full) => break,
                }
                if table.keys.capacity() != before {
                    // Growing holds the old slots and the new ones at once.
                    assert!(
                        held + table.bytes() <= budget,
                        "budget {budget}: {held} + {} bytes while growing to {} keys",
                        table.bytes(),
                        table.len()
                    );
                }
            }
            assert_eq!(table.len(), table.max_keys, "budget {budget}");
            assert!(table.len() * BYTES_PER_SLOT <= budget, "budget {budget}");
            assert!(
                table.bytes() <= budget || table.len() == 0,
                "budget {budget}"
            );
            // Full, it is not needlessly small: its last doubling would have broken the budget.
            if budget >= 1 << 10 {
                assert!(
                    (table.bytes() * 2 + table.bytes()) > budget,
                    "budget {budget}: {} bytes in all when full",
                    table.bytes()
                );
            }
            // A full table still answers for the keys it holds.
            if table.len() > 0 {
                assert!(matches!(table.insert(key(1)), Ok(false)), "budget {budget}");
            }
        }
    }
}
