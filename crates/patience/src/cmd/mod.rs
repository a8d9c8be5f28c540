//! One module a command.

pub mod apply;
pub mod bench_limits;
pub mod deal;
pub mod export;
pub mod history;
pub mod list;
pub mod load_test;
pub mod moves;
pub mod rules;
pub mod solve;
pub mod stats;
pub mod store_torture;
