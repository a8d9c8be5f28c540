//! One module a command.

pub mod apply;
pub mod deal;
pub mod list;
pub mod moves;
pub mod rules;
