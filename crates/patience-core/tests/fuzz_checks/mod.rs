//! The checks the fuzz targets (`fuzz/fuzz_targets/`) run on arbitrary bytes, shared with the corpus test
//! (`tests/fuzz_corpus.rs`) so that CI replays every saved input on the stable toolchain. Each must return
//! without a panic, an abort or a hang, whatever the bytes: bad input gets an error, never a crash.

use patience_core::json::PositionJson;
use patience_core::{builtin, Move, Pile, Position, RuleSet};

/// A rule file: read and checked; one that loads deals and plays a few moves.
pub fn rule_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(rules) = RuleSet::from_toml("fuzz.toml", text) {
        if let Ok(position) = Position::deal(&rules, 1) {
            play_each(&rules, position);
        }
    }
}

/// A position's JSON, read for the game its first byte picks.
pub fn position_json(data: &[u8]) {
    let Some((rules, text)) = split(data) else {
        return;
    };
    if let Ok(json) = PositionJson::parse(text) {
        let _ = Position::from_json(rules, &json);
    }
}

/// A move in the notation or as JSON.
pub fn move_notation(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(mv) = Move::parse(text) {
            // What was read prints and reads back as itself.
            assert_eq!(Move::parse(&mv.to_string()).map(|m| m.from), Ok(mv.from));
        }
    }
}

/// Parse a position, generate its moves, apply each, undo each, compare: the position must come back exact.
pub fn play_sequence(data: &[u8]) {
    let Some((rules, text)) = split(data) else {
        return;
    };
    let Ok(json) = PositionJson::parse(text) else {
        return;
    };
    if let Ok(position) = Position::from_json(rules, &json) {
        play_each(rules, position);
    }
}

/// Every legal move applied and undone, the position coming back each time, and the pack whole after each.
fn play_each(rules: &RuleSet, mut position: Position) {
    let start = position;
    let pack = count(&position);
    for mv in position.legal_moves(rules) {
        let undo = position.apply(rules, mv);
        assert_eq!(count(&position), pack, "{mv} lost or made a card");
        position.undo(undo);
        assert_eq!(position, start, "undo of {mv}");
        let mut checked = position;
        assert!(checked.play(rules, mv).is_ok(), "generated {mv} refused");
    }
    let _ = position.is_stuck(rules);
}

fn count(position: &Position) -> usize {
    position.piles().map(|p| position.len(p)).sum::<usize>()
        + (0..4)
            .map(|s| position.len(Pile::Foundation(s)))
            .sum::<usize>()
}

/// The game picked by the first byte (among the built-in games and variants) and the rest as text.
fn split(data: &[u8]) -> Option<(&'static RuleSet, &str)> {
    let (&pick, rest) = data.split_first()?;
    let games: Vec<&'static RuleSet> = builtin::games().iter().chain(builtin::extras()).collect();
    let rules = games[pick as usize % games.len()];
    Some((rules, std::str::from_utf8(rest).ok()?))
}
