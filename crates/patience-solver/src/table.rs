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
    /// A table that never takes more than `budget_bytes` for its slots.
    pub(crate) fn new(budget_bytes: usize) -> Table {
        // The set grows by doubling a power-of-two number of slots (4 at least), filled to 7/8 from 8 slots on
        // and to all but one below: keep the largest such size that fits the budget.
        let slots = budget_bytes / BYTES_PER_SLOT;
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
