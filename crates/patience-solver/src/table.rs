//! The transposition table: the keys of positions already searched, within a memory budget.

use crate::key::{Cut, OffCycle};

/// The keys are spread over up to this many shards, by their top bits. A shard grows by rebuilding itself
/// larger, holding its old slots and its new ones at once; with one shard half the budget would lie idle for
/// that, with many it is a sliver. Tiny budgets get fewer shards, so that each can hold a few keys.
const SHARDS: usize = 64;

/// The most a shard is filled, as a fraction: linear probing stays short below it.
const MAX_LOAD: (usize, usize) = (4, 5);

/// The slots a shard starts with.
const FIRST_SLOTS: usize = 8;

/// Keys of searched positions, never grown past its budget.
///
/// A slot holds the low 64 bits of a 128-bit key (61 of them in a [`StateSlot`]), its fingerprint, which also picks
/// the slot where the key's probe starts; the key's top bits pick the shard. A new key is taken for a stored one
/// when both have the same shard and fingerprint: with `n` keys stored, a lookup errs with probability about
/// `n / 2^70` (64 shards; `n / 2^67` in a table of states), so a search of `L` lookups with probability below
/// `L * n / 2^70` (`L * n / 2^67`). Half the bytes of whole keys hold twice the positions in a budget, and a search goes some 12 %
/// faster for the smaller table.
///
/// A table of [`StateSlot`]s keys states, positions with their stock's cut left out (see [`Cut`]), and keeps
/// with each the cuts it was met at.
pub(crate) struct Table<S = u64> {
    shards: Vec<Shard<S>>,
    /// How many top bits of a key pick its shard.
    shard_bits: u32,
    /// The slots a shard may grow to: its even share of the budget, less room for one shard to be rebuilt.
    most_slots: usize,
}

/// One shard: open addressing with linear probing.
struct Shard<S> {
    slots: Vec<S>,
    len: usize,
}

impl<S> Default for Shard<S> {
    fn default() -> Shard<S> {
        Shard {
            slots: Vec::new(),
            len: 0,
        }
    }
}

/// What a slot of a table holds: a key's fingerprint (0 in an empty slot), and what the table keeps with it.
pub(crate) trait Slot: Copy + Default {
    /// How many bits of a key's low 64 the slot keeps as its fingerprint: the top ones of them.
    const FINGERPRINT_BITS: u32;

    /// The slot of a key of this fingerprint, met at `cut`.
    fn new(fingerprint: u64, cut: Cut) -> Self;

    fn fingerprint(&self) -> u64;

    /// Whether meeting the slot's key at `cut` brings nothing new.
    fn covers(&self, cut: Cut) -> bool;

    /// Notes that the slot's key was met at `cut`, which it did not cover.
    fn note(&mut self, cut: Cut);

    /// The cut of a position met that covers the key's position at `cut`, which the slot covers.
    fn covering(&self, cut: Cut) -> Cut;

    /// The cuts the slot's key was met at (see [`MetCuts`]).
    fn met(&self) -> MetCuts;
}

/// The cuts a state was met at, as a [`StateSlot`] keeps them: for each remainder of the waste's length divided
/// by the draw, the least waste met off the cycle (0 for none), and at remainder 0, 1 once met on the cycle. All
/// 0 for a key not met before, and for a position, which is met once.
pub(crate) type MetCuts = [u8; MOST_DRAW];

/// No cut met: a key not met before.
pub(crate) const NOT_MET: MetCuts = [0; MOST_DRAW];

/// Each cut of `met`.
pub(crate) fn cuts_met(met: MetCuts) -> impl Iterator<Item = Cut> {
    met.into_iter()
        .enumerate()
        .filter(|&(_, waste)| waste != 0)
        .map(|(remainder, waste)| {
            (remainder != 0).then_some(OffCycle {
                remainder: remainder as u8,
                waste,
            })
        })
}

/// The least waste off the cycle met at `remainder` (not 0) in `met`, 0 for none.
pub(crate) fn least_waste_met(met: MetCuts, remainder: usize) -> usize {
    usize::from(met[remainder])
}

/// A position's slot: its key's fingerprint alone. Meeting the key again is nothing new, whatever the cut.
impl Slot for u64 {
    const FINGERPRINT_BITS: u32 = 64;

    fn new(fingerprint: u64, _: Cut) -> u64 {
        fingerprint
    }

    fn fingerprint(&self) -> u64 {
        *self
    }

    fn met(&self) -> MetCuts {
        NOT_MET
    }

    fn covers(&self, _: Cut) -> bool {
        true
    }

    fn note(&mut self, _: Cut) {}

    fn covering(&self, cut: Cut) -> Cut {
        cut
    }
}

/// A state's slot: its key's fingerprint, and for each remainder of the waste's length divided by the draw (but
/// 0, which is on the stock's cycle), the shortest waste off the cycle the state was met at, 0 for none (a waste
/// off the cycle is never empty); at remainder 0, 1 once the state was met on the cycle. A position off the cycle
/// can turn its stock to every cut a draw or more further on, of the same remainder, and onto the cycle, so that a
/// state met at a cut covers the cuts further on with its remainder, and any state met at all covers its
/// positions on the cycle (see [`Cut`]).
///
/// A slot takes 10 bytes, read as one little-endian number: the fingerprint in its low 61 bits, then 1 bit for
/// the cycle, then 6 bits for the least waste at each remainder from 1 on (a waste holds 52 cards at most). Whole
/// 64-bit fingerprints beside a byte for each remainder took 12 bytes: a budget holds a fifth more states this
/// way, for a lookup that errs 8 times as often, still about `L * n / 2^67` (see [`Table`]).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct StateSlot {
    bytes: [u8; 10],
}

/// The largest draw a [`StateSlot`] keeps the cuts of.
pub(crate) const MOST_DRAW: usize = 4;

/// The bits a [`StateSlot`] gives the least waste at each remainder.
const WASTE_BITS: u32 = 6;

impl StateSlot {
    /// The slot's bytes as one number.
    fn word(&self) -> u128 {
        let mut bytes = [0; 16];
        bytes[..10].copy_from_slice(&self.bytes);
        u128::from_le_bytes(bytes)
    }

    fn from_word(word: u128) -> StateSlot {
        let mut slot = StateSlot::default();
        slot.bytes.copy_from_slice(&word.to_le_bytes()[..10]);
        slot
    }

    /// Where, among the bits after the fingerprint, the least waste at `remainder` (from 1 on) lies.
    fn waste_shift(remainder: usize) -> u32 {
        1 + (remainder as u32 - 1) * WASTE_BITS
    }

    /// The least waste met at each remainder, as in [`MetCuts`].
    fn least_waste(&self) -> MetCuts {
        let cuts = self.word() >> Self::FINGERPRINT_BITS;
        let mut least = [0; MOST_DRAW];
        least[0] = (cuts & 1) as u8;
        for (remainder, waste) in least.iter_mut().enumerate().skip(1) {
            *waste = (cuts >> Self::waste_shift(remainder) & ((1 << WASTE_BITS) - 1)) as u8;
        }
        least
    }

    fn set_least_waste(&mut self, least: MetCuts) {
        let mut cuts = u128::from(least[0] & 1);
        for (remainder, &waste) in least.iter().enumerate().skip(1) {
            debug_assert!(
                u32::from(waste) < 1 << WASTE_BITS,
                "a waste of {waste} cards"
            );
            cuts |= u128::from(waste) << Self::waste_shift(remainder);
        }
        let fingerprint = u128::from(self.fingerprint());
        *self = StateSlot::from_word(fingerprint | cuts << Self::FINGERPRINT_BITS);
    }
}

impl Slot for StateSlot {
    const FINGERPRINT_BITS: u32 = 61;

    fn new(fingerprint: u64, cut: Cut) -> StateSlot {
        let mut slot = StateSlot::from_word(u128::from(fingerprint));
        slot.note(cut);
        slot
    }

    fn fingerprint(&self) -> u64 {
        let mut low = [0; 8];
        low.copy_from_slice(&self.bytes[..8]);
        u64::from_le_bytes(low) & ((1 << Self::FINGERPRINT_BITS) - 1)
    }

    fn covers(&self, cut: Cut) -> bool {
        cut.is_none_or(|off| {
            let least = self.least_waste()[usize::from(off.remainder)];
            least != 0 && least <= off.waste
        })
    }

    fn note(&mut self, cut: Cut) {
        let mut least = self.least_waste();
        match cut {
            Some(off) => least[usize::from(off.remainder)] = off.waste,
            None => least[0] = 1,
        }
        self.set_least_waste(least);
    }

    fn covering(&self, cut: Cut) -> Cut {
        let least = self.least_waste();
        let met = |remainder: usize| {
            Some(OffCycle {
                remainder: remainder as u8,
                waste: least[remainder],
            })
        };
        match cut {
            Some(off) => met(usize::from(off.remainder)),
            None if least[0] != 0 => None,
            None => (1..MOST_DRAW)
                .find(|&remainder| least[remainder] != 0)
                .and_then(met),
        }
    }

    fn met(&self) -> MetCuts {
        self.least_waste()
    }
}

impl Table<StateSlot> {
    /// Notes that `key`, which the table holds, is lost whatever its cut, so that meeting it again at any cut
    /// brings nothing new. A waste off the cycle is never empty, so a least waste of 1 covers every cut of its
    /// remainder. The cuts [`Slot::covering`] names then may be of no position met: the search looks them up only
    /// for the marking of lost positions, which finds none open there, as the position met is lost.
    pub(crate) fn cover_every_cut(&mut self, key: u128) {
        let shard = &mut self.shards[shard_of(key, self.shard_bits)];
        if let Some(Ok(found)) = shard.find(fingerprint::<StateSlot>(key)) {
            shard.slots[found].set_least_waste([1; MOST_DRAW]);
        }
    }
}

/// The table is full: its budget does not allow the next key.
#[derive(Debug)]
pub(crate) struct Full;

impl<S: Slot> Table<S> {
    /// A table that never takes more than `budget_bytes` for its slots, even while it grows.
    pub(crate) fn new(budget_bytes: usize) -> Table<S> {
        // Every shard at `most_slots` takes one share each; rebuilding the last one holds one more.
        let most_slots = |shards: usize| budget_bytes / (shards + 1) / size_of::<S>();
        let mut shards = SHARDS;
        while shards > 1 && most_slots(shards) < FIRST_SLOTS {
            shards /= 2;
        }
        Table {
            shards: (0..shards).map(|_| Shard::default()).collect(),
            shard_bits: shards.trailing_zeros(),
            most_slots: most_slots(shards),
        }
    }

    /// Adds a key; `Ok(true)` if it was new, `Ok(false)` if already there.
    pub(crate) fn insert(&mut self, key: u128) -> Result<bool, Full> {
        self.visit(key, None).map(|met| met.is_some())
    }

    /// Meets a key at `cut`: if that is new, notes it and gives the cuts the key was met at before (`Some`);
    /// `None` if the table covers it.
    pub(crate) fn visit(&mut self, key: u128, cut: Cut) -> Result<Option<MetCuts>, Full> {
        let shard = &mut self.shards[shard_of(key, self.shard_bits)];
        let fingerprint = fingerprint::<S>(key);
        let mut slot = match shard.find(fingerprint) {
            Some(Ok(found)) => {
                let slot = &mut shard.slots[found];
                if slot.covers(cut) {
                    return Ok(None);
                }
                let met = slot.met();
                slot.note(cut);
                return Ok(Some(met));
            }
            Some(Err(empty)) => empty,
            None => 0,
        };
        if (shard.len + 1) * MAX_LOAD.1 > shard.slots.len() * MAX_LOAD.0 {
            let slots = shard.slots.len();
            let grown = if slots == 0 {
                FIRST_SLOTS
            } else {
                (slots * 2).min(self.most_slots)
            };
            if grown <= slots || grown > self.most_slots {
                return Err(Full);
            }
            shard.rebuild(grown);
            slot = match shard.find(fingerprint) {
                Some(Err(empty)) => empty,
                _ => unreachable!("a rebuilt shard has room and lacks the key"),
            };
        }
        shard.slots[slot] = S::new(fingerprint, cut);
        shard.len += 1;
        Ok(Some(NOT_MET))
    }

    /// Adds a key as [`Table::insert`] does, but when the budget allows no more, in place of the key in the slot
    /// where its probe starts, which is lost (or not at all, if that slot is empty: the shard must keep empty
    /// slots for its probes to end). For a table of what is known, where the newest knowledge is worth more than
    /// the oldest. Overwriting a filled slot leaves every probe that passed it as long as it was, so the other
    /// keys are still found.
    pub(crate) fn insert_evicting(&mut self, key: u128) {
        if let Err(Full) = self.insert(key) {
            let shard = &mut self.shards[shard_of(key, self.shard_bits)];
            if let Some(home) = shard.home(fingerprint::<S>(key)) {
                if shard.slots[home].fingerprint() != 0 {
                    shard.slots[home] = S::new(fingerprint::<S>(key), None);
                }
            }
        }
    }

    /// Whether the table holds `key`.
    pub(crate) fn contains(&self, key: u128) -> bool {
        self.covers(key, None)
    }

    /// Whether meeting `key` at `cut` would bring nothing new.
    pub(crate) fn covers(&self, key: u128, cut: Cut) -> bool {
        self.slot(key).is_some_and(|slot| slot.covers(cut))
    }

    /// The cut of a position met that covers `key`'s position at `cut`, if the table covers it.
    pub(crate) fn covering(&self, key: u128, cut: Cut) -> Option<Cut> {
        self.slot(key)
            .filter(|slot| slot.covers(cut))
            .map(|slot| slot.covering(cut))
    }

    /// The slot of `key`, if the table holds it.
    fn slot(&self, key: u128) -> Option<&S> {
        let shard = &self.shards[shard_of(key, self.shard_bits)];
        match shard.find(fingerprint::<S>(key)) {
            Some(Ok(found)) => Some(&shard.slots[found]),
            _ => None,
        }
    }

    /// Asks the processor to fetch the slot where a lookup of `key` starts, so that the lookups of a position's
    /// children, each a cache miss in a large table, wait for memory together rather than one after another.
    pub(crate) fn prefetch(&self, key: u128) {
        let shard = &self.shards[shard_of(key, self.shard_bits)];
        if let Some(slot) = shard.home(fingerprint::<S>(key)) {
            prefetch(&shard.slots[slot]);
        }
    }

    /// Keys stored.
    pub(crate) fn len(&self) -> usize {
        self.shards.iter().map(|shard| shard.len).sum()
    }

    /// Bytes the table's slots take now (never less than before: the table only grows).
    pub(crate) fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| shard.slots.len())
            .sum::<usize>()
            * size_of::<S>()
    }
}

/// A search's table: of positions, or of states where its keys leave the stock's cut out (see
/// [`crate::key::KeyShape::with_cuts_apart`]).
pub(crate) enum Searched {
    Positions(Table),
    States(Table<StateSlot>),
}

impl Searched {
    /// A table of states if `states`, else of positions, never taking more than `budget_bytes`.
    pub(crate) fn new(budget_bytes: usize, states: bool) -> Searched {
        if states {
            Searched::States(Table::new(budget_bytes))
        } else {
            Searched::Positions(Table::new(budget_bytes))
        }
    }

    /// See [`Table::visit`].
    pub(crate) fn visit(&mut self, key: u128, cut: Cut) -> Result<Option<MetCuts>, Full> {
        match self {
            Searched::Positions(table) => table.visit(key, cut),
            Searched::States(table) => table.visit(key, cut),
        }
    }

    /// See [`Table::cover_every_cut`]; a table of positions meets each once, whatever the cut.
    pub(crate) fn cover_every_cut(&mut self, key: u128) {
        if let Searched::States(table) = self {
            table.cover_every_cut(key);
        }
    }

    /// See [`Table::covers`].
    pub(crate) fn covers(&self, key: u128, cut: Cut) -> bool {
        match self {
            Searched::Positions(table) => table.covers(key, cut),
            Searched::States(table) => table.covers(key, cut),
        }
    }

    /// See [`Table::covering`].
    pub(crate) fn covering(&self, key: u128, cut: Cut) -> Option<Cut> {
        match self {
            Searched::Positions(table) => table.covering(key, cut),
            Searched::States(table) => table.covering(key, cut),
        }
    }

    /// See [`Table::prefetch`].
    pub(crate) fn prefetch(&self, key: u128) {
        match self {
            Searched::Positions(table) => table.prefetch(key),
            Searched::States(table) => table.prefetch(key),
        }
    }

    /// Keys stored.
    pub(crate) fn len(&self) -> usize {
        match self {
            Searched::Positions(table) => table.len(),
            Searched::States(table) => table.len(),
        }
    }

    /// See [`Table::bytes`].
    pub(crate) fn bytes(&self) -> usize {
        match self {
            Searched::Positions(table) => table.bytes(),
            Searched::States(table) => table.bytes(),
        }
    }
}

/// The shard of a key: its top `bits` bits.
fn shard_of(key: u128, bits: u32) -> usize {
    key.checked_shr(128 - bits).unwrap_or(0) as usize
}

/// What a slot of type `S` keeps of a key: the top [`Slot::FINGERPRINT_BITS`] of its low 64 bits (its top bits
/// picked the shard). 0 marks an empty slot, and the fingerprint 1 stands in for it.
fn fingerprint<S: Slot>(key: u128) -> u64 {
    ((key as u64) >> (64 - S::FINGERPRINT_BITS)).max(1)
}

impl<S: Slot> Shard<S> {
    /// `Ok(slot)` holding `fingerprint`, or `Err(slot)`, the empty slot where it would go; `None` with no slots.
    fn find(&self, fingerprint: u64) -> Option<Result<usize, usize>> {
        let n = self.slots.len();
        let mut i = self.home(fingerprint)?;
        loop {
            match self.slots[i].fingerprint() {
                0 => return Some(Err(i)),
                f if f == fingerprint => return Some(Ok(i)),
                _ => i = if i + 1 == n { 0 } else { i + 1 },
            }
        }
    }

    /// The slot where a probe starts, or `None` with no slots: the fingerprint, read as a fraction, scaled to the
    /// slots.
    fn home(&self, fingerprint: u64) -> Option<usize> {
        let n = self.slots.len();
        let fraction = fingerprint << (64 - S::FINGERPRINT_BITS);
        (n > 0).then(|| ((u128::from(fraction) * n as u128) >> 64) as usize)
    }

    /// Moves the slots into `slots` new ones.
    fn rebuild(&mut self, slots: usize) {
        let old = std::mem::replace(&mut self.slots, vec![S::default(); slots]);
        for slot in old.into_iter().filter(|slot| slot.fingerprint() != 0) {
            if let Some(Err(empty)) = self.find(slot.fingerprint()) {
                self.slots[empty] = slot;
            }
        }
    }
}

/// A hint to bring `slot` into the cache; it changes nothing a program can observe.
#[inline]
#[allow(unsafe_code)]
pub(crate) fn prefetch<S>(slot: &S) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing into the program; SSE, which it needs, is part of every
    // x86-64 processor.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
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
        keeps_to_its_budget::<u64>();
        keeps_to_its_budget::<StateSlot>();
    }

    fn keeps_to_its_budget<S: Slot>() {
        let bytes_per_slot = size_of::<S>();
        let mut budgets = vec![0, 64, 1 << 10, 4 << 10, 100_000, 1 << 20, 3 << 20];
        // Just below, at and above the sizes where every shard's slots fit exactly.
        for shift in 2..=10 {
            let exact = (bytes_per_slot * (SHARDS + 1)) << shift;
            budgets.extend([exact - 1, exact, exact + 1, exact * 3 / 2]);
        }
        for budget in budgets {
            let mut table = Table::<S>::new(budget);
            let mut i = 0;
            loop {
                let before = table.bytes();
                i += 1;
                let shard = shard_of(key(i), table.shard_bits);
                let shard_before = table.shards[shard].slots.len() * bytes_per_slot;
                match table.insert(key(i)) {
                    Ok(true) => {}
                    Ok(false) => panic!("budget {budget}: key {i} was there already"),
                    Err(Full) => break,
                }
                let shard_after = table.shards[shard].slots.len() * bytes_per_slot;
                // Growing holds the shard's old slots and its new ones at once.
                assert!(
                    shard_after == shard_before || before + shard_after <= budget,
                    "budget {budget}: {before} + {shard_after} bytes while growing to {} keys",
                    table.len()
                );
            }
            assert_eq!(table.len(), i as usize - 1, "budget {budget}");
            assert!(table.bytes() <= budget, "budget {budget}");
            // Full, it is not needlessly small: it holds at least half the keys its budget has slots for.
            if budget >= 1 << 20 {
                assert!(
                    table.len() * bytes_per_slot * 2 >= budget,
                    "budget {budget}: {} keys when full",
                    table.len()
                );
            }
            // A full table still answers for the keys it holds.
            if table.len() > 0 {
                assert!(matches!(table.insert(key(1)), Ok(false)), "budget {budget}");
            }
        }
    }

    #[test]
    fn a_state_met_off_the_cycle_covers_its_cuts_further_on_and_the_cycle() {
        let off = |remainder: u8, waste: u8| Some(crate::key::OffCycle { remainder, waste });
        let mut table = Table::<StateSlot>::new(1 << 20);
        assert_eq!(
            table.visit(key(1), off(1, 7)).ok(),
            Some(Some([0; MOST_DRAW]))
        );
        for (cut, covered) in [
            (off(1, 7), true),
            (off(1, 10), true),
            (None, true),
            (off(1, 4), false),
            (off(2, 8), false),
        ] {
            assert_eq!(table.covers(key(1), cut), covered, "{cut:?}");
        }
        assert!(!table.covers(key(2), None));
        // Met nearer the start of the stock, or at another remainder, the state is met anew, and the visit tells
        // where it was met before.
        assert_eq!(
            table.visit(key(1), off(1, 4)).ok(),
            Some(Some([0, 7, 0, 0]))
        );
        assert!(table.covers(key(1), off(1, 4)));
        assert_eq!(
            table.visit(key(1), off(2, 8)).ok(),
            Some(Some([0, 4, 0, 0]))
        );
        assert!(matches!(table.visit(key(1), off(2, 11)), Ok(None)));
        // Met on the cycle only, a state covers no cut off it.
        assert_eq!(table.visit(key(2), None).ok(), Some(Some([0; MOST_DRAW])));
        assert!(!table.covers(key(2), off(1, 1)));
        assert_eq!(table.visit(key(2), None).ok(), Some(None));
        assert_eq!(
            table.visit(key(2), off(2, 5)).ok(),
            Some(Some([1, 0, 0, 0]))
        );
        assert_eq!(table.len(), 2);
    }

    /// A state's slot takes 10 bytes, and keeps its fingerprint, all 61 bits of it, whatever cuts are noted, and each
    /// cut as noted, up to a waste of 52 cards.
    #[test]
    fn a_state_slot_keeps_its_fingerprint_and_its_cuts() {
        assert_eq!(size_of::<StateSlot>(), 10);
        for fingerprint in [1, 0x0123_4567_89ab_cdef, (1 << 61) - 1] {
            let mut slot = StateSlot::new(fingerprint, None);
            for (remainder, waste) in [(1, 52), (2, 1), (3, 37), (1, 4), (2, 63)] {
                slot.note(Some(crate::key::OffCycle { remainder, waste }));
                assert_eq!(slot.fingerprint(), fingerprint);
                assert_eq!(slot.met()[usize::from(remainder)], waste);
            }
            assert_eq!(slot.met(), [1, 4, 63, 37]);
        }
    }

    /// A state the rules prove lost whatever its cut, met once, covers every cut from then on; a state met at no
    /// cut is not noted.
    #[test]
    fn a_state_lost_whatever_its_cut_covers_every_cut() {
        let mut table = Table::<StateSlot>::new(1 << 20);
        let cut = Some(crate::key::OffCycle {
            remainder: 2,
            waste: 20,
        });
        assert!(table.visit(key(1), cut).is_ok());
        table.cover_every_cut(key(1));
        table.cover_every_cut(key(2));
        let off_the_cycle = (1..MOST_DRAW as u8).flat_map(|remainder| {
            (1..=52).map(move |waste| Some(crate::key::OffCycle { remainder, waste }))
        });
        for cut in off_the_cycle.chain([None]) {
            assert!(matches!(table.visit(key(1), cut), Ok(None)), "{cut:?}");
            assert!(!table.covers(key(2), cut), "{cut:?}");
        }
        assert_eq!(table.len(), 1);
    }
}
