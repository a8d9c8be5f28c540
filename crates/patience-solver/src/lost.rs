//! States a relaxed pass proved lost, kept for the passes after it, and the bookkeeping that proves them.
//!
//! # Why a searched state can be known lost before the search ends
//! A depth-first search that skips states already searched cannot call a state lost when its own search ends
//! without a win: a step it skipped may lead to a state still being searched below it on the path, whose verdict
//! is still open. Tarjan's algorithm for strongly connected components settles it. Number the states in the order
//! the search enters them, and give each the least number it reaches through the states it entered and the steps
//! it skipped to states not yet settled (its `low`). A state whose search ends with `low` equal to its own number
//! heads a component: every state entered since, and not settled, reaches it and is reached by it, and every step
//! out of them leads into the component or to a settled state. When the search has found no win, no state of the
//! component wins: a winning line from one would leave the component by a step searched, to a settled state, and
//! settled states are lost, by induction on the order they were settled. So the component's states are settled
//! as lost.
//!
//! This holds for a search whose steps from a state are all the steps that may matter, which the relaxed passes'
//! are (their pruning rules drop only steps that a line of the kept ones can stand in for, from any state), and
//! not for the streamlined passes'. A step to a state an earlier pass proved lost, skipped, counts as a step to a
//! settled state. A state of a relaxed game lost is lost for every real position of that state (see
//! [`crate::relax`]), so a later pass, over real positions, may skip a position whose state is in the table. The
//! table keeps 70 bits of a key, as a search's table of positions does, and a lookup errs as rarely (see
//! [`crate::table`]).

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use patience_core::Position;

use crate::key::KeyShape;
use crate::table::Table;

/// States proved lost, and the key shape that names them.
pub(crate) struct LostStates {
    /// How a position's state is keyed.
    pub(crate) shape: KeyShape,
    /// The keys of the states proved lost.
    pub(crate) table: Table,
    /// How the search that consults the states now has fared with them.
    trial: Trial,
}

/// A search's lookups in a set of lost states so far.
#[derive(Default)]
struct Trial {
    /// Lookups, and those that found the state, since the last [`TRIAL_LOOKUPS`].
    lookups: u32,
    found: u32,
    /// Whether the search has stopped looking.
    dropped: bool,
    /// Whether the set is keyed as the search keys positions (see [`KeyShape::of_positions`]), so that a
    /// position's key from the search serves here.
    keyed_alike: bool,
}

/// A search judges a set of lost states every this many lookups, and stops looking when fewer than one in
/// [`FEWEST_FOUND`] found its state: each lookup makes a key of the set's shape, and where the relaxed passes ended
/// early the set holds little (the built-in Canfield's full search, deal 96: 28,000 states found in 21.6 million
/// lookups, which made its proof 40 % slower, against 9.6 % found on any-run Canfield deal 848).
const TRIAL_LOOKUPS: u32 = 1 << 16;
const FEWEST_FOUND: u32 = 128;

impl LostStates {
    /// An empty set of states keyed by `shape`, never taking more than `budget_bytes`.
    pub(crate) fn new(shape: KeyShape, budget_bytes: usize) -> LostStates {
        LostStates {
            shape,
            table: Table::new(budget_bytes),
            trial: Trial::default(),
        }
    }

    /// The set, for a new search whose keys are of `shape` to look in afresh.
    pub(crate) fn for_a_new_search(self, shape: &KeyShape) -> LostStates {
        LostStates {
            trial: Trial {
                keyed_alike: self.shape == shape.of_positions(),
                ..Trial::default()
            },
            ..self
        }
    }

    /// Whether a search still looks in the set.
    pub(crate) fn consulted(&self) -> bool {
        !self.trial.dropped
    }

    /// Whether `position`'s state is known lost, `key` being the key the search that looks gives the position itself
    /// (see [`KeyShape::of_positions`]). `false` once the search has stopped looking.
    pub(crate) fn holds(&mut self, position: &Position, key: u128) -> bool {
        let trial = &mut self.trial;
        if trial.dropped {
            return false;
        }
        let state = if trial.keyed_alike {
            key
        } else {
            self.shape.key(position)
        };
        let found = self.table.contains(state);
        trial.lookups += 1;
        trial.found += u32::from(found);
        if trial.lookups == TRIAL_LOOKUPS {
            trial.dropped = trial.found * FEWEST_FOUND < trial.lookups;
            (trial.lookups, trial.found) = (0, 0);
        }
        found
    }
}

/// Tarjan's bookkeeping over a search's states: their numbers, the states entered whose component is still open,
/// and where settled components go.
pub(crate) struct Marking {
    lost: LostStates,
    /// The number the next state entered gets.
    next_number: u64,
    /// The keys and numbers of the states entered and not settled, in the order they were entered.
    open: Vec<(u128, u64)>,
    /// The number of each state in `open`, by the low 64 bits of its key. Two open states that share them pass
    /// for the first: a step to the second then makes `low` lower than it should be, which only delays marking.
    number_of: FxHashMap<u64, u64>,
    /// The most states `open` may hold: the map's memory is part of the budget.
    most_open: usize,
    /// States settled and not yet in the table: each waits for [`PENDING`] more, so that its slot, fetched when it
    /// was settled, is in the cache when it goes in.
    pending: VecDeque<u128>,
    /// The fewest states a component's search must have entered for its states to be kept.
    smallest_kept: u64,
    /// Whether marking stopped, `open` having grown past its bound: the states settled before stay lost, and no
    /// more are settled.
    stopped: bool,
}

/// Bytes a state in `open` may take, with its entry in the map, both at their most slack: 32 in `open` and 17 in
/// the map, each doubled while a full vector or map grows.
const BYTES_PER_OPEN: usize = 128;

/// How many settled states wait to go into the table. Each goes to a slot anywhere in a table of up to hundreds of
/// megabytes, a cache miss: written at once, they took a tenth of the time of any-run Canfield deal 101's proof.
const PENDING: usize = 8;

/// The fewest states a component's search should have entered for its states to be kept: a later pass searches a
/// smaller one again at little cost, and most components are that small. Keeping every one cost any-run Canfield
/// deal 101's proof 6 to 10 % of its time; keeping these, none measurable.
pub(crate) const SMALLEST_KEPT: u64 = 8;

impl Marking {
    /// Marking into `lost`, with at most `budget_bytes` for the states still open, keeping the states of a
    /// component only when its search entered `smallest_kept` states or more. The states `lost` holds already (an
    /// earlier search of the same game proved them lost, see [`Marking::holds`]) the search skips.
    pub(crate) fn new(lost: LostStates, budget_bytes: usize, smallest_kept: u64) -> Marking {
        // The search that marks keys positions as the set does; an empty set it need not look in.
        let shape = lost.shape;
        let mut lost = lost.for_a_new_search(&shape);
        lost.trial.dropped = lost.table.len() == 0;
        Marking {
            lost,
            next_number: 0,
            open: Vec::new(),
            number_of: FxHashMap::default(),
            pending: VecDeque::with_capacity(PENDING + 1),
            most_open: budget_bytes / BYTES_PER_OPEN,
            smallest_kept,
            stopped: false,
        }
    }

    /// The states proved lost so far (some of the last few are still to go in).
    pub(crate) fn lost(&self) -> &LostStates {
        &self.lost
    }

    /// Whether an earlier search put `position`'s state in the table, `key` being its key in the search that
    /// marks (the table's own shape). The states this search settles it finds in its own table first.
    pub(crate) fn holds(&mut self, position: &Position, key: u128) -> bool {
        self.lost.holds(position, key)
    }

    /// Whether the search looks in the table (see [`Marking::holds`]).
    pub(crate) fn consulted(&self) -> bool {
        self.lost.consulted()
    }

    /// The key shape of the states marked.
    pub(crate) fn shape(&self) -> &KeyShape {
        &self.lost.shape
    }

    /// Numbers a state the search enters; its `low` starts at that number.
    pub(crate) fn enter(&mut self, key: u128) -> u64 {
        let number = self.next_number;
        self.next_number += 1;
        if !self.stopped {
            if self.open.len() == self.most_open {
                self.stop();
            } else {
                self.open.push((key, number));
                self.number_of.entry(key as u64).or_insert(number);
            }
        }
        number
    }

    /// The number of a state searched already, if its component is still open; `None` once it is settled (and
    /// then lost), or when marking has stopped (and then nothing is settled any more, whatever `low` becomes).
    pub(crate) fn reached(&self, key: u128) -> Option<u64> {
        self.number_of.get(&(key as u64)).copied()
    }

    /// The search of the state numbered `number` ended with no win and `low` equal to its number: it and every
    /// state entered since and still open are lost.
    pub(crate) fn settle(&mut self, number: u64) {
        if self.stopped {
            return;
        }
        let kept = self.next_number - number >= self.smallest_kept;
        while let Some((key, entered)) = self.open.pop() {
            if self.number_of.get(&(key as u64)) == Some(&entered) {
                self.number_of.remove(&(key as u64));
            }
            if kept {
                self.keep(key);
            }
            if entered == number {
                return;
            }
        }
    }

    /// Puts a state proved lost in the table, [`PENDING`] states later.
    fn keep(&mut self, key: u128) {
        self.lost.table.prefetch(key);
        self.pending.push_back(key);
        if self.pending.len() > PENDING {
            if let Some(settled) = self.pending.pop_front() {
                self.lost.table.insert_evicting(settled);
            }
        }
    }

    fn stop(&mut self) {
        self.stopped = true;
        self.open = Vec::new();
        self.number_of = FxHashMap::default();
    }

    /// The states proved lost.
    pub(crate) fn into_lost(mut self) -> LostStates {
        for settled in self.pending {
            self.lost.table.insert_evicting(settled);
        }
        self.lost
    }
}
