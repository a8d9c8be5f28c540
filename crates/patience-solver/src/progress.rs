//! How far a search under way has gone, for another thread to show while it runs (see [`crate::solve_watched`]).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a search has done so far, noted every few thousand nodes: a long search (minutes, where there is no
/// limit) can then show that it is at work and what it costs, and the caller can decide to cancel it.
#[derive(Debug, Default)]
pub struct Progress {
    /// The nodes of the searches before the one under way (see [`Progress::count_from`]).
    before: AtomicU64,
    nodes: AtomicU64,
    stored: AtomicU64,
    table_bytes: AtomicU64,
}

impl Progress {
    /// Moves tried so far, by every pass, and where the search goes in rounds (a choice's, or one with no limit:
    /// see `crate::rounds`), by every round.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Positions (or states) stored by the pass under way; 0 while the beams search alone, once the full search's
    /// table is full and dropped.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// Bytes the table of the pass under way takes.
    pub fn table_bytes(&self) -> u64 {
        self.table_bytes.load(Ordering::Relaxed)
    }

    /// Notes where the search stands, its own nodes counted after those of the searches before it.
    pub(crate) fn note(&self, nodes: u64, stored: usize, table_bytes: usize) {
        self.nodes.store(
            self.before.load(Ordering::Relaxed) + nodes,
            Ordering::Relaxed,
        );
        self.stored.store(stored as u64, Ordering::Relaxed);
        self.table_bytes
            .store(table_bytes as u64, Ordering::Relaxed);
    }

    /// Counts the nodes of the next search after the `before` nodes of the searches made before it.
    pub(crate) fn count_from(&self, before: u64) {
        self.before.store(before, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use patience_core::{builtin, Position};

    use super::*;
    use crate::{solve_watched, Limit, Limits, Verdict};

    /// Another thread sees a long search's nodes, stored positions and table grow while it runs, cancels it, and
    /// gets a report of at least as much as it saw.
    #[test]
    fn another_thread_sees_a_search_go_on_and_can_stop_it() {
        let rules = builtin::rules("canfield").expect("a built-in game");
        // Lost with no limit, after 279 million nodes: it runs until it is cancelled.
        let position = Position::deal(&rules, 95).expect("a deal");
        let (progress, cancel) = (Progress::default(), AtomicBool::new(false));
        std::thread::scope(|scope| {
            let search = scope
                .spawn(|| solve_watched(&rules, &position, &Limits::default(), &cancel, &progress));
            let start = Instant::now();
            while progress.nodes() < 100_000 && start.elapsed() < Duration::from_secs(60) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let seen = (progress.nodes(), progress.stored(), progress.table_bytes());
            cancel.store(true, Ordering::Relaxed);
            let report = search.join().expect("the search ends");
            assert_eq!(report.verdict, Verdict::Unknown(Limit::Cancelled));
            assert!(seen.0 >= 100_000, "{seen:?} after {:?}", start.elapsed());
            assert!(seen.1 > 0 && seen.2 > 0, "{seen:?}");
            assert!(
                report.nodes >= seen.0,
                "{} nodes reported, {seen:?} seen",
                report.nodes
            );
        });
    }
}
