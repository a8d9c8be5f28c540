//! A direct-mapped cache that starts small and grows as it fills, for what a search works out again and again.

use crate::table::prefetch;

/// What a cache holds: an entry filed under a hash.
pub(crate) trait Entry: Copy + Default {
    /// The hash the entry is filed under; 0 in an empty entry.
    fn hash(&self) -> u64;
}

/// The entries a cache starts with.
const FIRST: usize = 1 << 10;

/// A direct-mapped cache: an entry put in takes the place of the one its hash maps to. It starts with [`FIRST`]
/// entries, and doubles, keeping what it holds, whenever it has taken half as many entries as it has, up to its
/// full size: most searches end within a few hundred positions, and clearing a cache of full size cost them more
/// than their search. The dead-end rule's two caches, 2.5 MiB cleared at each pass: Florentine and Gate deals
/// 1..2000 at 500,000 nodes a deal, one thread, took 18.6 s so, 15.9 s with caches grown at once to their full
/// size, and 12.8 s doubling.
pub(crate) struct Cache<T> {
    entries: Box<[T]>,
    full: usize,
    taken: usize,
}

impl<T: Entry> Cache<T> {
    /// An empty cache that may grow to `full` entries, a power of two.
    pub(crate) fn new(full: usize) -> Cache<T> {
        Cache {
            entries: vec![T::default(); FIRST.min(full)].into_boxed_slice(),
            full,
            taken: 0,
        }
    }

    /// The entry `hash` maps to: the one filed under it, another, or an empty one.
    pub(crate) fn get(&self, hash: u64) -> T {
        self.entries[self.slot(hash)]
    }

    /// Brings the entry `hash` maps to into the processor's cache, for a [`Cache::get`] soon after.
    pub(crate) fn prefetch(&self, hash: u64) {
        prefetch(&self.entries[self.slot(hash)]);
    }

    /// Where `hash` maps to.
    fn slot(&self, hash: u64) -> usize {
        hash as usize % self.entries.len()
    }

    /// Files `entry` under its hash, in place of the entry there.
    pub(crate) fn put(&mut self, entry: T) {
        self.taken += 1;
        let len = self.entries.len();
        if self.taken >= len / 2 && len < self.full {
            let mut grown = vec![T::default(); len * 2].into_boxed_slice();
            for &kept in self.entries.iter().filter(|e| e.hash() != 0) {
                grown[kept.hash() as usize % (len * 2)] = kept;
            }
            self.entries = grown;
        }
        let slot = self.slot(entry.hash());
        self.entries[slot] = entry;
    }
}

impl Entry for u64 {
    fn hash(&self) -> u64 {
        *self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_starts_small_keeps_what_it_holds_as_it_grows_and_grows_no_further_than_full() {
        let mut cache = Cache::<u64>::new(1 << 12);
        // Small at first: two hashes FIRST apart take one entry.
        cache.put(5);
        cache.put(5 + FIRST as u64);
        assert_ne!(cache.get(5), 5);
        // Hashes that never share an entry in a cache of more entries than them: none is lost as it grows.
        for hash in 1..=1500 {
            cache.put(hash);
        }
        assert!((1..=1500).all(|hash| cache.get(hash) == hash));
        // Full: hashes `full` apart take one entry.
        for hash in 1500..=10_000 {
            cache.put(hash);
        }
        assert_eq!(cache.get(10_000), 10_000);
        assert_ne!(cache.get(10_000 - (1 << 12)), 10_000 - (1 << 12));
    }
}
