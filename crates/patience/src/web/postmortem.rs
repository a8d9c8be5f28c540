//! The post-mortem of a game: could the deal be won at all, can the position still be won, and after which move
//! it no longer could; in a game with a choice row (Selective Canfield), which of the choices could have won.
//!
//! As in the terminal player, the losing move is found by the solver's [`FatalSearch`] (a binary search over the
//! history), driven here by a background task: each position it asks for is searched in the pool within a time
//! limit, unless the game's analysis knows it already. Then the position after each choice of base card the deal
//! opened with ([`patience_solver::analysis::choices()`]) is looked at the same way. The API reads how far it has
//! got.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use patience_core::{Card, Move, Position};
use patience_solver::analysis::{self as solver, Fatal, FatalSearch, Outcome};
use serde::Serialize;

use super::analysis::AnalysisHandle;

/// The time the solver gets for each position the post-mortem asks about.
pub const PROBE: Duration = Duration::from_secs(4);

/// A post-mortem as far as it has got, as the API writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Moves made in the game looked at.
    pub moves: usize,
    /// Whether the deal could be won (`null` while unknown).
    pub deal: Option<Outcome>,
    /// Whether the position reached can still be won.
    pub now: Option<Outcome>,
    /// Where the game was lost.
    pub fatal: Option<Fatal>,
    /// The choices of the base card the deal opened with (none in a game without a choice row).
    pub choices: Vec<Choice>,
    /// Whether the post-mortem has finished.
    pub done: bool,
}

/// One choice of the base card, and whether it could have won.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The card chosen.
    pub card: Card,
    /// The move that makes the choice, in the notation.
    pub notation: String,
    /// The move.
    #[serde(rename = "move")]
    pub mv: Move,
    /// Whether the game could be won after it (`null` while unknown).
    pub outcome: Option<Outcome>,
    /// Whether it is the choice the player made.
    pub yours: bool,
}

/// A post-mortem under way or finished. Dropping it stops the search.
#[derive(Debug)]
pub struct PostMortem {
    /// The last position of the game looked at.
    pub end: Position,
    /// The number of moves of the game looked at.
    pub moves: usize,
    report: Arc<Mutex<Report>>,
    cancel: Arc<AtomicBool>,
}

impl PostMortem {
    /// Starts the post-mortem of a game that began at `start` and went on by `moves`.
    pub fn start(analysis: AnalysisHandle, start: Position, moves: Vec<Move>) -> PostMortem {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut along = start;
        positions.push(along);
        for &mv in &moves {
            along.apply(analysis.rules(), mv);
            positions.push(along);
        }
        let count = moves.len();
        let choices = solver::choices(analysis.rules(), &start);
        let report = Arc::new(Mutex::new(Report {
            moves: count,
            deal: None,
            now: None,
            fatal: None,
            choices: choices
                .iter()
                .map(|c| Choice {
                    card: c.card,
                    notation: c.mv.to_string(),
                    mv: c.mv,
                    outcome: None,
                    yours: moves.first() == Some(&c.mv),
                })
                .collect(),
            done: false,
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let worker = Worker {
            analysis,
            positions,
            search: FatalSearch::new(moves),
            choices,
            report: Arc::clone(&report),
            cancel: Arc::clone(&cancel),
        };
        tokio::spawn(worker.run());
        PostMortem {
            end: along,
            moves: count,
            report,
            cancel,
        }
    }

    /// How far it has got.
    pub fn report(&self) -> Report {
        self.report
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for PostMortem {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The task's side.
struct Worker {
    analysis: AnalysisHandle,
    positions: Vec<Position>,
    search: FatalSearch,
    choices: Vec<solver::Choice>,
    report: Arc<Mutex<Report>>,
    cancel: Arc<AtomicBool>,
}

impl Worker {
    async fn run(mut self) {
        while let Some(i) = self.search.probe() {
            let Some(outcome) = self.probe(self.positions[i]).await else {
                return;
            };
            self.search.record(outcome);
            let search = &self.search;
            self.update(|r| {
                r.now = search.now();
                r.deal = search.deal();
                r.fatal = search.fatal();
            });
        }
        for (i, choice) in self.choices.iter().enumerate() {
            let Some(outcome) = self.probe(choice.position).await else {
                return;
            };
            self.update(|r| {
                r.choices[i].outcome = Some(outcome);
                r.deal = solver::refine_deal(r.deal, r.choices.iter().map(|c| c.outcome));
            });
        }
        self.update(|r| r.done = true);
    }

    /// What `position` is, from what the analysis knows or by a search; `None` when cancelled.
    async fn probe(&self, position: Position) -> Option<Outcome> {
        if let Some(outcome) = self.analysis.outcome(&position, PROBE) {
            return Some(outcome);
        }
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let verdict = self
            .analysis
            .solve(position, PROBE, Arc::clone(&self.cancel))
            .await;
        Outcome::of(&verdict)
    }

    fn update(&self, change: impl FnOnce(&mut Report)) {
        change(&mut self.report.lock().unwrap_or_else(|e| e.into_inner()));
    }
}
