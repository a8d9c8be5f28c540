//! The post-mortem of a lost game: was the deal winnable at all, and after which move it no longer was; in a game
//! with a choice row (Selective Canfield), which of the choices could have won.
//!
//! The move that lost the game is found by the solver's [`FatalSearch`] (a binary search over the history), driven
//! here in a background thread: each position it asks for is solved there within a time limit, unless the
//! analysis knew it already; the solves are sent to the analysis too, which keeps what they prove.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use patience_core::{Card, Move, Position, RuleSet};
use patience_solver::analysis::{self, Fatal, FatalSearch, Outcome};
use patience_solver::{solve_with_cancel, Limits};

use super::analysis::MEMORY;
use super::event::Event;

/// The time the solver gets for each position the post-mortem asks about, unless the settings say otherwise.
pub const PROBE: Duration = Duration::from_secs(4);

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Nothing but cycling the stock was left.
    Stuck,
    /// The player gave up.
    GaveUp,
}

/// One choice of the base card, and whether it could have won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The move that makes the choice.
    pub mv: Move,
    /// The card chosen.
    pub card: Card,
    /// Whether the game could be won after it, once known.
    pub outcome: Option<Outcome>,
}

/// What the background thread reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// How far the search for the losing move has got.
    Search {
        /// Whether the position the game ended in could still be won.
        now: Option<Outcome>,
        /// Whether the deal could be won.
        deal: Option<Outcome>,
        /// Where the game was lost.
        fatal: Option<Fatal>,
    },
    /// Whether choice `index` could have won.
    Choice(usize, Outcome),
    /// Nothing more to come.
    Done,
}

/// A post-mortem, as far as it has got.
#[derive(Debug)]
pub struct PostMortem {
    /// Which post-mortem this is.
    pub id: u64,
    /// How the game ended.
    pub ending: Ending,
    /// Moves made when the game ended.
    pub moves: usize,
    /// Whether the position the game ended in could still be won.
    pub now: Option<Outcome>,
    /// Whether the deal could be won.
    pub deal: Option<Outcome>,
    /// Where the game was lost, once found.
    pub fatal: Option<Fatal>,
    /// The choices of the base card, for a game with a choice row.
    pub choices: Vec<Choice>,
    /// Whether the thread has finished.
    pub done: bool,
    cancel: Arc<AtomicBool>,
}

impl PostMortem {
    /// Starts the post-mortem of a game that went through `positions` (the deal first, the end last) by `moves`,
    /// in a background thread. `known` gives what is already known of each position; `generation` is the
    /// analysis generation its solves report under, so the analysis keeps them; `probe` is the time the solver
    /// gets for each position.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        id: u64,
        ending: Ending,
        rules: Arc<RuleSet>,
        positions: Vec<Position>,
        moves: Vec<Move>,
        known: Vec<Option<Outcome>>,
        generation: u64,
        probe: Duration,
        tx: Sender<Event>,
    ) -> PostMortem {
        let cancel = Arc::new(AtomicBool::new(false));
        let openings = positions
            .first()
            .map(|start| analysis::choices(&rules, start))
            .unwrap_or_default();
        let choices = openings
            .iter()
            .map(|c| Choice {
                mv: c.mv,
                card: c.card,
                outcome: None,
            })
            .collect();
        let mut worker = Worker {
            id,
            rules,
            positions,
            search: FatalSearch::new(moves),
            known,
            generation,
            probe,
            tx,
            cancel: Arc::clone(&cancel),
            choices: openings,
        };
        let count = worker.search.moves().len();
        let spawned = std::thread::Builder::new()
            .name("patience-post-mortem".into())
            .spawn(move || {
                super::background::give_way();
                worker.run();
            });
        PostMortem {
            id,
            ending,
            moves: count,
            now: None,
            deal: None,
            fatal: None,
            choices,
            done: spawned.is_err(),
            cancel,
        }
    }

    /// Takes an update from the thread.
    pub fn take(&mut self, update: Update) {
        match update {
            Update::Search { now, deal, fatal } => {
                self.now = now;
                self.deal = deal;
                self.fatal = fatal;
            }
            Update::Choice(i, outcome) => {
                if let Some(choice) = self.choices.get_mut(i) {
                    choice.outcome = Some(outcome);
                }
                self.deal =
                    analysis::refine_deal(self.deal, self.choices.iter().map(|c| c.outcome));
            }
            Update::Done => self.done = true,
        }
    }

    /// The number of moves to go back to, when the move that lost the game is known.
    pub fn back_to(&self) -> Option<usize> {
        match self.fatal {
            Some(Fatal::Found { before, .. }) => Some(before),
            _ => None,
        }
    }
}

impl Drop for PostMortem {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The thread's side.
struct Worker {
    id: u64,
    rules: Arc<RuleSet>,
    positions: Vec<Position>,
    search: FatalSearch,
    known: Vec<Option<Outcome>>,
    generation: u64,
    probe: Duration,
    tx: Sender<Event>,
    cancel: Arc<AtomicBool>,
    choices: Vec<analysis::Choice>,
}

impl Worker {
    fn run(&mut self) {
        while let Some(i) = self.search.probe() {
            let Some(outcome) = self.probe(i) else {
                return;
            };
            self.search.record(outcome);
            self.send(Update::Search {
                now: self.search.now(),
                deal: self.search.deal(),
                fatal: self.search.fatal(),
            });
        }
        for i in 0..self.choices.len() {
            let Some(outcome) = self.choice(i) else {
                return;
            };
            self.send(Update::Choice(i, outcome));
        }
        self.send(Update::Done);
    }

    fn choice(&mut self, i: usize) -> Option<Outcome> {
        let choice = self.choices[i];
        if self.search.moves().first() == Some(&choice.mv) {
            return self.probe(1);
        }
        self.solve(choice.position)
    }

    /// What position `i` is, solving it if it is not known; `None` when cancelled.
    fn probe(&mut self, i: usize) -> Option<Outcome> {
        if let Some(outcome) = self.known.get(i).copied().flatten() {
            return Some(outcome);
        }
        let outcome = self.solve(self.positions[i])?;
        self.known[i] = Some(outcome);
        Some(outcome)
    }

    fn solve(&mut self, position: Position) -> Option<Outcome> {
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let limits = Limits {
            time: Some(self.probe),
            memory_bytes: MEMORY,
            nodes: None,
        };
        let report = solve_with_cancel(&self.rules, &position, &limits, &self.cancel);
        let outcome = Outcome::of(&report.verdict)?;
        let _ = self.tx.send(Event::Solved {
            generation: self.generation,
            position,
            verdict: report.verdict,
            limit: self.probe,
        });
        Some(outcome)
    }

    fn send(&self, update: Update) {
        let _ = self.tx.send(Event::PostMortem {
            id: self.id,
            update,
        });
    }
}
