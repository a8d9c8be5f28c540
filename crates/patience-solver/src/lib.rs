//! # patience-solver
//!
//! Exact search for the games `patience-core` reads: is a position winnable, and if so by which line of moves.
//! It knows no game by name: every pruning rule is chosen from the rule set's properties, and used only on rule
//! sets for which it is proved safe (see [`prune`]).
//!
//! The solver is *thoughtful*: it knows the order of the stock and of the face-down reserve cards.
//!
//! What a player's front-end makes of it while a game is played (what is known of each position, the post-mortem's
//! search for the losing move) is in [`analysis`].
//!
//! ```
//! use patience_core::{builtin, Position};
//! use patience_solver::{solve, Limits, Verdict};
//!
//! let rules = builtin::rules("florentine").unwrap();
//! let position = Position::deal(&rules, 1).unwrap();
//! let report = solve(&rules, &position, &Limits::default());
//! if let Verdict::Won(line) = &report.verdict {
//!     // Every line replays through the rules engine.
//!     let mut replay = position;
//!     for &mv in line {
//!         replay.play(&rules, mv).unwrap();
//!     }
//!     assert!(replay.is_won());
//! }
//! ```
#![forbid(missing_docs)]

pub mod analysis;
mod beam;
mod cache;
mod classes;
pub mod dead_end;
mod endgame;
pub mod export;
mod key;
mod layouts;
mod lost;
pub mod passes;
pub mod play_order;
pub mod progress;
pub mod prune;
pub mod relax;
mod rounds;
mod search;
mod shorten;
pub mod stats;
mod table;
#[cfg(test)]
mod test_random;

pub use passes::{PassEnd, PassKind, PassReport};
pub use progress::Progress;
pub use search::{
    solve, solve_unpruned, solve_watched, solve_with_cancel, Limit, Limits, Report, Verdict,
};
