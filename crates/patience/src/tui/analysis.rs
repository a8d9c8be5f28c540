//! The solver in the background: is the position on the screen still winnable, and what is the next move of a
//! winning line (the hint).
//!
//! Each position is solved in a thread of its own, within a time limit; a new position cancels the solve of the
//! one before through its flag, so input never waits for the solver. What the solver finds is kept by position in
//! the solver's [`Knowledge`]: a winning line marks every position along it as winnable (so following a hint
//! needs no new search), and any position reached from a lost one is lost too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use patience_core::{Move, Position, RuleSet};
use patience_solver::analysis::{Knowledge, Known};
use patience_solver::{solve_with_cancel, Limits, Verdict};

use super::event::Event;

/// The time the solver gets for the indicator and a first hint.
pub const QUICK: Duration = Duration::from_secs(2);
/// The time it gets when the player asks for a hint again after an undecided search.
pub const HARD: Duration = Duration::from_secs(10);
/// The most memory one background search may take for its table.
pub const MEMORY: usize = 256 << 20;

/// What the indicator says about the position on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winnable {
    /// A winning line exists; its next move, if any is left.
    Yes(Option<Move>),
    /// No line wins any more.
    No,
    /// The solver could not decide in time.
    Unknown,
    /// The solver is at work.
    Checking,
    /// The background solver is turned off.
    Off,
}

/// The background solver of one game's positions.
pub struct Analysis {
    knowledge: Knowledge,
    /// Tells results of an earlier game's rules from this one's.
    generation: u64,
    running: Option<Running>,
    tx: Sender<Event>,
    enabled: bool,
}

/// A search under way.
struct Running {
    position: Position,
    limit: Duration,
    cancel: Arc<AtomicBool>,
}

impl Analysis {
    /// A background solver that reports to `tx`; `enabled` false starts no search at all.
    pub fn new(rules: Arc<RuleSet>, tx: Sender<Event>, enabled: bool) -> Analysis {
        Analysis {
            knowledge: Knowledge::new(rules),
            generation: 0,
            running: None,
            tx,
            enabled,
        }
    }

    /// The rules positions are solved under; a change forgets everything known and cancels the search.
    pub fn set_rules(&mut self, rules: Arc<RuleSet>) {
        if self.knowledge.set_rules(rules) {
            self.cancel();
            self.generation += 1;
        }
    }

    /// The generation results must carry to be taken.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Makes sure `position` is known or being solved, cancelling a search for any other position.
    pub fn look_at(&mut self, position: &Position) {
        self.solve(position, QUICK);
    }

    /// Solves `position` again with the longer time limit, unless it is already decided.
    pub fn think_harder(&mut self, position: &Position) {
        self.knowledge.forget_undecided(position, HARD);
        self.solve(position, HARD);
    }

    /// Records what follows from a move: a position reached from a lost one is lost.
    pub fn moved(&mut self, from: &Position, to: &Position) {
        self.knowledge.moved(from, to);
    }

    /// Stops the search under way.
    pub fn cancel(&mut self) {
        if let Some(running) = self.running.take() {
            running.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// What is known of positions.
    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// What the indicator shows for a position.
    pub fn winnable(&self, position: &Position) -> Winnable {
        if !self.enabled {
            return Winnable::Off;
        }
        if position.is_won() {
            return Winnable::Yes(None);
        }
        match self.knowledge.get(position) {
            Some(known @ Known::Winnable { .. }) => Winnable::Yes(known.next_move()),
            Some(Known::Lost) => Winnable::No,
            Some(Known::Unknown(_)) if !self.is_running(position) => Winnable::Unknown,
            _ => Winnable::Checking,
        }
    }

    /// Whether a search of this position is under way.
    pub fn is_running(&self, position: &Position) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.position == *position)
    }

    /// Takes a search's result: keeps what it proved and ends the search if it was the one under way.
    pub fn take(&mut self, generation: u64, position: Position, verdict: Verdict, limit: Duration) {
        if generation != self.generation {
            return;
        }
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.position == position && r.limit == limit)
        {
            self.running = None;
        }
        self.knowledge.learn(position, &verdict, limit);
    }

    fn solve(&mut self, position: &Position, limit: Duration) {
        if !self.enabled || !self.knowledge.needs_search(position, limit) {
            return;
        }
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.position == *position && r.limit >= limit)
        {
            return;
        }
        self.cancel();
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some(Running {
            position: *position,
            limit,
            cancel: Arc::clone(&cancel),
        });
        let rules = Arc::clone(self.knowledge.rules());
        let tx = self.tx.clone();
        let generation = self.generation;
        let position = *position;
        let spawned = std::thread::Builder::new()
            .name("patience-analysis".into())
            .spawn(move || {
                super::background::give_way();
                let limits = Limits {
                    time: Some(limit),
                    memory_bytes: MEMORY,
                    nodes: None,
                };
                let report = solve_with_cancel(&rules, &position, &limits, &cancel);
                // The receiver is gone only when the player has left: nothing to tell then.
                let _ = tx.send(Event::Solved {
                    generation,
                    position,
                    verdict: report.verdict,
                    limit,
                });
            });
        if spawned.is_err() {
            self.running = None;
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;
    use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
    use std::time::Instant;

    /// How soon a cancelled search must stop and its thread end: well before the search's own 10 s (the thread
    /// runs at idle priority, and the search looks at its flag every few thousand positions).
    const STOPS_WITHIN: Duration = Duration::from_secs(8);

    #[test]
    fn a_winning_line_marks_every_position_along_it() {
        let rules = Arc::new(builtin::rules("fortunes-favor").expect("game"));
        let (tx, rx) = channel();
        let mut analysis = Analysis::new(Arc::clone(&rules), tx, true);
        let start = Position::deal(&rules, 1).expect("deal");
        analysis.look_at(&start);
        assert_eq!(analysis.winnable(&start), Winnable::Checking);
        let Ok(Event::Solved {
            generation,
            position,
            verdict,
            limit,
        }) = rx.recv_timeout(Duration::from_secs(30))
        else {
            panic!("no verdict");
        };
        let Verdict::Won(line) = verdict.clone() else {
            panic!("deal 1 is won: {verdict:?}");
        };
        analysis.take(generation, position, verdict, limit);
        assert_eq!(analysis.winnable(&start), Winnable::Yes(Some(line[0])));
        let mut next = start;
        next.apply(&rules, line[0]);
        assert_eq!(
            analysis.winnable(&next),
            Winnable::Yes(line.get(1).copied())
        );
    }

    /// Waits for the search of `position` to report; returns its verdict.
    fn verdict_of(rx: &Receiver<Event>, position: &Position) -> Verdict {
        let deadline = Instant::now() + STOPS_WITHIN;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(Event::Solved {
                    position: solved,
                    verdict,
                    ..
                }) if solved == *position => return verdict,
                Ok(_) => {}
                Err(e) => panic!("no verdict within {STOPS_WITHIN:?}: {e:?}"),
            }
        }
    }

    /// Waits until every sender is gone: the search threads' included, which hold one until they end.
    fn threads_ended(rx: &Receiver<Event>) {
        let deadline = Instant::now() + STOPS_WITHIN;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("a search thread still runs {STOPS_WITHIN:?} after it was cancelled")
                }
            }
        }
    }

    #[test]
    fn a_cancelled_search_stops_and_its_thread_ends() {
        // Four Seasons deal 1 stays undecided far longer than the 10 s of a second hint.
        let rules = Arc::new(builtin::rules("four-seasons").expect("game"));
        let start = Position::deal(&rules, 1).expect("deal");
        let mut next = start;
        next.apply(&rules, next.legal_moves(&rules)[0]);
        for how in ["cancel", "a new position", "the player leaves"] {
            let (tx, rx) = channel();
            let mut analysis = Analysis::new(Arc::clone(&rules), tx, true);
            analysis.think_harder(&start);
            assert_eq!(analysis.winnable(&start), Winnable::Checking);
            std::thread::sleep(Duration::from_millis(200));
            let cancelled = Instant::now();
            let analysis = match how {
                "cancel" => {
                    analysis.cancel();
                    Some(analysis)
                }
                "a new position" => {
                    analysis.look_at(&next);
                    Some(analysis)
                }
                _ => {
                    drop(analysis);
                    None
                }
            };
            // The search stops for the flag, not for its time limit.
            assert_eq!(
                verdict_of(&rx, &start),
                Verdict::Unknown(patience_solver::Limit::Cancelled),
                "{how}"
            );
            let stopped = cancelled.elapsed();
            // Then the player leaves, which stops the search of the new position too.
            drop(analysis);
            if how == "a new position" {
                verdict_of(&rx, &next);
            }
            threads_ended(&rx);
            eprintln!("{how}: the search stopped {stopped:?} after it was cancelled");
        }
    }
}
