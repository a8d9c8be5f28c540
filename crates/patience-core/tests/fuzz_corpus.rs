//! Replays every saved fuzz input (`fuzz/corpus/TARGET/*`) through the fuzz targets' checks, on the stable
//! toolchain, so each CI run covers what the fuzzers found worth keeping.

mod fuzz_checks;

use std::path::PathBuf;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut inputs = 0;
    for entry in entries {
        let path = entry.expect("a corpus entry").path();
        check(&std::fs::read(&path).expect("a corpus file"));
        inputs += 1;
    }
    assert!(inputs > 0, "{target}: an empty corpus");
}

#[test]
fn rule_file_corpus() {
    replay("rule_file", fuzz_checks::rule_file);
}

#[test]
fn position_json_corpus() {
    replay("position_json", fuzz_checks::position_json);
}

#[test]
fn move_notation_corpus() {
    replay("move_notation", fuzz_checks::move_notation);
}

#[test]
fn play_sequence_corpus() {
    replay("play_sequence", fuzz_checks::play_sequence);
}
