//! The `patience` binary.
fn main() {}
