//! Fuzz target `move_notation`: see `crates/patience-core/tests/fuzz_checks/mod.rs` for what it checks.
#![no_main]

// Each target calls one of the shared checks; the others are unused here.
#[allow(dead_code)]
#[path = "../../crates/patience-core/tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_checks::move_notation(data));
