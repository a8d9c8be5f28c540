//! The post-mortem of a game: could the deal be won at all, can the position still be won, and after which move
//! it no longer could.
//!
//! As in the terminal player, positions along a game are winnable up to some move and lost after it (a position
//! reached from a lost one is lost), so the losing move is found by a binary search over the history, each probe
//! a search in the pool within a time limit. A probe the solver cannot decide is stepped around; if every
//! position left between the last winnable and the first lost one is undecided, the post-mortem says between
//! which moves the game was lost. It runs as a background task; the API reads how far it has got.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use patience_core::{Move, Position};
use patience_solver::{Limit, Verdict};
use serde::Serialize;

use super::analysis::{AnalysisHandle, Known};

/// The time the solver gets for each position the post-mortem asks about.
pub const PROBE: Duration = Duration::from_secs(4);

/// What the solver says of one position, in short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Some line wins.
    Winnable,
    /// No line wins.
    Lost,
    /// Undecided within the time limit.
    Unknown,
}

/// Where the game was lost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fatal {
    /// After `before` moves the position was winnable; move number `before + 1` lost it.
    Found {
        /// Moves made before the losing one.
        before: usize,
        /// The losing move, in the notation.
        notation: String,
        /// The losing move.
        #[serde(rename = "move")]
        mv: Move,
    },
    /// The game was lost after move `after` and by move `by`; the solver could not say where between.
    Between {
        /// The last position known winnable, by its number of moves (`null`: not even the deal is known).
        after: Option<usize>,
        /// The first position known lost, by its number of moves (`null`: not even the last one is known).
        by: Option<usize>,
    },
    /// Nothing to find: the deal was never winnable, or the position is still winnable.
    NotApplicable,
}

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
    /// Whether the post-mortem has finished.
    pub done: bool,
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
        let report = Arc::new(Mutex::new(Report {
            moves: moves.len(),
            deal: None,
            now: None,
            fatal: None,
            done: false,
        }));
        let cancel = Arc::new(AtomicBool::new(false));
        let worker = Worker {
            analysis,
            known: vec![None; positions.len()],
            positions,
            moves: moves.clone(),
            report: Arc::clone(&report),
            cancel: Arc::clone(&cancel),
        };
        tokio::spawn(worker.run());
        PostMortem {
            end: along,
            moves: moves.len(),
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
    moves: Vec<Move>,
    known: Vec<Option<Outcome>>,
    report: Arc<Mutex<Report>>,
    cancel: Arc<AtomicBool>,
}

impl Worker {
    async fn run(mut self) {
        if self.search().await.is_some() {
            self.update(|r| r.done = true);
        }
    }

    /// Fills the report in; `None` when cancelled.
    async fn search(&mut self) -> Option<()> {
        let last = self.positions.len().checked_sub(1)?;
        let now = self.probe(last).await?;
        self.update(|r| r.now = Some(now));
        if now == Outcome::Winnable {
            self.update(|r| {
                r.deal = Some(Outcome::Winnable);
                r.fatal = Some(Fatal::NotApplicable);
            });
            return Some(());
        }
        let deal = self.probe(0).await?;
        self.update(|r| r.deal = Some(deal));
        if deal == Outcome::Lost {
            self.update(|r| r.fatal = Some(Fatal::NotApplicable));
            return Some(());
        }
        let fatal = self.bisect(deal, now).await?;
        self.update(|r| r.fatal = Some(fatal));
        Some(())
    }

    /// The binary search for the losing move; `None` when cancelled.
    async fn bisect(&mut self, deal: Outcome, now: Outcome) -> Option<Fatal> {
        let last = self.positions.len() - 1;
        // Positions `..=lo` are winnable, `hi..` lost; -1 and last + 1 stand for "none known".
        let mut lo: i64 = if deal == Outcome::Winnable { 0 } else { -1 };
        let mut hi: i64 = if now == Outcome::Lost {
            last as i64
        } else {
            last as i64 + 1
        };
        let mut undecided = vec![false; last + 1];
        loop {
            let middle = (lo + hi) / 2;
            let Some(probe) = (lo + 1..hi)
                .filter(|&i| !undecided[i as usize])
                .min_by_key(|&i| ((i - middle).abs(), i))
            else {
                break;
            };
            match self.probe(probe as usize).await? {
                Outcome::Winnable => lo = probe,
                Outcome::Lost => hi = probe,
                Outcome::Unknown => undecided[probe as usize] = true,
            }
        }
        let known = |i: i64| (0..=last as i64).contains(&i).then_some(i as usize);
        Some(match (known(lo), known(hi)) {
            (Some(before), Some(lost)) if lost == before + 1 => Fatal::Found {
                before,
                notation: self.moves[before].to_string(),
                mv: self.moves[before],
            },
            (after, by) => Fatal::Between { after, by },
        })
    }

    /// What position `i` is, from what the analysis knows or by a search; `None` when cancelled.
    async fn probe(&mut self, i: usize) -> Option<Outcome> {
        if let Some(outcome) = self.known[i] {
            return Some(outcome);
        }
        let position = self.positions[i];
        if position.is_won() {
            return Some(Outcome::Winnable);
        }
        let outcome = match self.analysis.known(&position) {
            Some(Known::Winnable { .. }) => Outcome::Winnable,
            Some(Known::Lost) => Outcome::Lost,
            Some(Known::Unknown(t)) if t >= PROBE => Outcome::Unknown,
            _ => {
                if self.cancel.load(Ordering::Relaxed) {
                    return None;
                }
                match self
                    .analysis
                    .solve(position, PROBE, Arc::clone(&self.cancel))
                    .await
                {
                    Verdict::Won(_) => Outcome::Winnable,
                    Verdict::Lost => Outcome::Lost,
                    Verdict::Unknown(Limit::Cancelled) => return None,
                    Verdict::Unknown(_) => Outcome::Unknown,
                }
            }
        };
        self.known[i] = Some(outcome);
        Some(outcome)
    }

    fn update(&self, change: impl FnOnce(&mut Report)) {
        change(&mut self.report.lock().unwrap_or_else(|e| e.into_inner()));
    }
}
