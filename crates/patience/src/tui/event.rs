//! What the background threads tell the player's screen, through one channel.

use std::time::Duration;

use patience_core::Position;
use patience_solver::Verdict;

use super::finder::Found;
use super::postmortem::Update;

/// A message from a background thread.
#[derive(Debug, Clone)]
pub enum Event {
    /// A position was solved (for the indicator, a hint, or a post-mortem).
    Solved {
        /// The analysis generation it was asked under (see [`super::analysis::Analysis::generation`]).
        generation: u64,
        /// The position.
        position: Position,
        /// What the solver found.
        verdict: Verdict,
        /// The time limit it had.
        limit: Duration,
    },
    /// A post-mortem learned something.
    PostMortem {
        /// Which post-mortem (a newer one replaces an older one).
        id: u64,
        /// What it learned.
        update: Update,
    },
    /// The search for winnable deals found one, or tried one more.
    Finder(Found),
}
