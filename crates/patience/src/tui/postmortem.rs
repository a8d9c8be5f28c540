//! The post-mortem of a lost game: was the deal winnable at all, and after which move it no longer was; in a game
//! with a choice row (Selective Canfield), which of the choices could have won.
//!
//! Positions along a game are winnable up to some move and lost after it (a position reached from a lost one is
//! lost), so the move that lost the game is found by a binary search over the history, each probe a solve in a
//! background thread within a time limit. A probe the solver cannot decide is stepped around; if every position
//! left between the last winnable and the first lost one is undecided, the post-mortem says between which moves
//! the game was lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use patience_core::{Card, Move, Position, RuleSet};
use patience_solver::{solve_with_cancel, Limit, Limits, Verdict};

use super::analysis::{Known, MEMORY};
use super::event::Event;

/// The time the solver gets for each position the post-mortem asks about, unless the settings say otherwise.
pub const PROBE: Duration = Duration::from_secs(4);

/// What the solver says of one position, in short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Some line wins.
    Winnable,
    /// No line wins.
    Lost,
    /// Undecided within the time limit.
    Unknown,
}

/// How the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Nothing but cycling the stock was left.
    Stuck,
    /// The player gave up.
    GaveUp,
}

/// The move after which the game could no longer be won.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fatal {
    /// Still looking.
    Searching,
    /// After `before` moves the position was winnable; move number `before + 1`, `mv`, lost it.
    Found {
        /// Moves made before the losing one.
        before: usize,
        /// The losing move.
        mv: Move,
    },
    /// The game was lost somewhere after move `after` and by move `by`; the solver could not say where.
    Between {
        /// The last position known winnable, by its number of moves (`None`: not even the deal is known).
        after: Option<usize>,
        /// The first position known lost, by its number of moves (`None`: not even the last one is known).
        by: Option<usize>,
    },
    /// Nothing to find: the deal was never winnable, or the position is still winnable.
    NotApplicable,
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
    /// Whether the position the game ended in could still be won.
    Now(Outcome),
    /// Whether the deal could be won.
    Deal(Outcome),
    /// Where the game was lost.
    Fatal(Fatal),
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
    /// Where the game was lost.
    pub fatal: Fatal,
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
        let choices: Vec<Choice> = positions
            .first()
            .filter(|p| p.choice_pending())
            .map(|p| {
                p.legal_moves(&rules)
                    .into_iter()
                    .filter_map(|mv| {
                        Some(Choice {
                            mv,
                            card: p.top(mv.from)?,
                            outcome: None,
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut worker = Worker {
            id,
            rules,
            positions,
            moves,
            known,
            generation,
            probe,
            tx,
            cancel: Arc::clone(&cancel),
            choices: choices.iter().map(|c: &Choice| c.mv).collect(),
        };
        let count = worker.moves.len();
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
            fatal: Fatal::Searching,
            choices,
            done: spawned.is_err(),
            cancel,
        }
    }

    /// Takes an update from the thread.
    pub fn take(&mut self, update: Update) {
        match update {
            Update::Now(outcome) => self.now = Some(outcome),
            Update::Deal(outcome) => self.deal = Some(outcome),
            Update::Fatal(fatal) => self.fatal = fatal,
            Update::Choice(i, outcome) => {
                if let Some(choice) = self.choices.get_mut(i) {
                    choice.outcome = Some(outcome);
                }
            }
            Update::Done => self.done = true,
        }
    }

    /// The number of moves to go back to, when the move that lost the game is known.
    pub fn back_to(&self) -> Option<usize> {
        match self.fatal {
            Fatal::Found { before, .. } => Some(before),
            _ => None,
        }
    }
}

impl Drop for PostMortem {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// What [`Known`] says in short, for a post-mortem's starting knowledge.
pub fn outcome_of(known: Option<&Known>) -> Option<Outcome> {
    match known? {
        Known::Winnable { .. } => Some(Outcome::Winnable),
        Known::Lost => Some(Outcome::Lost),
        Known::Unknown(_) => None,
    }
}

/// The thread's side.
struct Worker {
    id: u64,
    rules: Arc<RuleSet>,
    positions: Vec<Position>,
    moves: Vec<Move>,
    known: Vec<Option<Outcome>>,
    generation: u64,
    probe: Duration,
    tx: Sender<Event>,
    cancel: Arc<AtomicBool>,
    choices: Vec<Move>,
}

impl Worker {
    fn run(&mut self) {
        let last = self.positions.len().saturating_sub(1);
        let Some(now) = self.probe(last) else { return };
        self.send(Update::Now(now));
        if now == Outcome::Winnable {
            self.send(Update::Deal(Outcome::Winnable));
            self.send(Update::Fatal(Fatal::NotApplicable));
        } else {
            let Some(deal) = self.probe(0) else { return };
            self.send(Update::Deal(deal));
            if deal == Outcome::Lost {
                self.send(Update::Fatal(Fatal::NotApplicable));
            } else {
                let Some(fatal) = self.search(deal, now) else {
                    return;
                };
                self.send(Update::Fatal(fatal));
            }
        }
        for i in 0..self.choices.len() {
            let Some(outcome) = self.choice(i) else {
                return;
            };
            self.send(Update::Choice(i, outcome));
        }
        self.send(Update::Done);
    }

    /// The binary search for the losing move; `None` when cancelled.
    fn search(&mut self, deal: Outcome, now: Outcome) -> Option<Fatal> {
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
            match self.probe(probe as usize)? {
                Outcome::Winnable => lo = probe,
                Outcome::Lost => hi = probe,
                Outcome::Unknown => undecided[probe as usize] = true,
            }
        }
        let known = |i: i64| (0..=last as i64).contains(&i).then_some(i as usize);
        Some(match (known(lo), known(hi)) {
            (Some(before), Some(lost)) if lost == before + 1 => Fatal::Found {
                before,
                mv: self.moves[before],
            },
            (after, by) => Fatal::Between { after, by },
        })
    }

    fn choice(&mut self, i: usize) -> Option<Outcome> {
        let mv = self.choices[i];
        if self.moves.first() == Some(&mv) {
            if let Some(outcome) = self.known.get(1).copied().flatten() {
                return Some(outcome);
            }
            return self.probe(1);
        }
        let mut child = *self.positions.first()?;
        child.apply(&self.rules, mv);
        self.solve(child)
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
        let outcome = match &report.verdict {
            Verdict::Won(_) => Outcome::Winnable,
            Verdict::Lost => Outcome::Lost,
            Verdict::Unknown(Limit::Cancelled) => return None,
            Verdict::Unknown(_) => Outcome::Unknown,
        };
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
