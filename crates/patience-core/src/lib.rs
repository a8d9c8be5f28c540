//! # patience-core
//!
//! The rules engine of `patience`: cards, rule sets read from TOML, PySolFC-compatible deals, compact positions,
//! legal moves with apply and undo, and games with history. It does no I/O beyond reading a rule file it is
//! pointed at, and starts no threads.
//!
//! ```
//! use patience_core::{builtin, Position};
//!
//! let rules = builtin::rules("canfield").expect("a built-in game");
//! let mut position = Position::deal(&rules, 1).expect("deal 1 exists");
//! let moves = position.legal_moves(&rules);
//! let undo = position.apply(&rules, moves[0]);
//! position.undo(undo);
//! assert_eq!(position, Position::deal(&rules, 1).unwrap());
//! ```
#![forbid(missing_docs)]

mod apply;
pub mod builtin;
pub mod card;
mod deal;
pub mod describe;
pub mod game;
mod illegal;
pub mod json;
mod movegen;
pub mod moves;
pub mod position;
pub mod rules;
pub mod shuffle;
mod stock_turns;

pub use apply::Undo;
pub use card::{Card, Rank, Suit};
pub use deal::NoDealZero;
pub use game::Game;
pub use illegal::IllegalMove;
pub use movegen::Targets;
pub use moves::Move;
pub use position::{Pile, Position};
pub use rules::RuleSet;
pub use stock_turns::StockTurns;
