//! Hostile input: every parser gets random and mutated text, and must answer with a value or an error, never a
//! panic; a position that parses is played on (generate, apply, undo) without a panic and comes back exact.

use patience_core::json::PositionJson;
use patience_core::{builtin, Move, Position, RuleSet};
use proptest::prelude::*;

/// A valid text with a few random edits: bytes replaced, inserted or deleted.
fn mutated(text: String, edits: Vec<(usize, u8, u8)>) -> String {
    let mut bytes = text.into_bytes();
    for (at, kind, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..8)
}

fn any_rules() -> impl Strategy<Value = &'static RuleSet> {
    let all: Vec<&'static RuleSet> = builtin::games().iter().chain(builtin::extras()).collect();
    prop::sample::select(all)
}

/// Plays on a position read from JSON: every move applied and undone, and the position must come back.
fn play_on(rules: &RuleSet, mut position: Position) {
    let start = position;
    for mv in position.legal_moves(rules) {
        let undo = position.apply(rules, mv);
        position.undo(undo);
        assert_eq!(position, start);
    }
    let _ = position.is_stuck(rules);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn rule_files_never_panic(text in ".{0,400}") {
        let _ = RuleSet::from_toml("fuzz.toml", &text);
    }

    #[test]
    fn mutated_rule_files_never_panic(rules in any_rules(), edits in edits()) {
        let text = std::fs::read_to_string(format!(
            "{}/../../games/{}{}.toml",
            env!("CARGO_MANIFEST_DIR"),
            if builtin::games().iter().any(|g| g.id == rules.id) { "" } else { "extra/" },
            rules.id
        ))
        .expect("the rule file");
        if let Ok(read) = RuleSet::from_toml("fuzz.toml", &mutated(text, edits)) {
            // A mutated file that still loads still deals and plays.
            if let Ok(position) = Position::deal(&read, 7) {
                play_on(&read, position);
            }
        }
    }

    #[test]
    fn moves_never_panic(text in ".{0,40}") {
        let _ = Move::parse(&text);
    }

    #[test]
    fn position_json_never_panics(text in ".{0,300}") {
        let _ = PositionJson::parse(&text);
    }

    #[test]
    fn mutated_positions_are_refused_or_played(rules in any_rules(), number in 1u64..100_000, edits in edits()) {
        let position = Position::deal(rules, number).expect("deal");
        let text = serde_json::to_string(&position.to_json(rules)).expect("JSON");
        if let Ok(json) = PositionJson::parse(&mutated(text, edits)) {
            if let Ok(read) = Position::from_json(rules, &json) {
                play_on(rules, read);
            }
        }
    }

    #[test]
    fn positions_with_cards_swapped_are_refused_or_played(
        rules in any_rules(),
        number in 1u64..100_000,
        swaps in prop::collection::vec((any::<usize>(), any::<usize>()), 1..4),
    ) {
        let position = Position::deal(rules, number).expect("deal");
        let mut json = position.to_json(rules);
        for (a, b) in swaps {
            let mut cards: Vec<&mut patience_core::Card> = json
                .tableau
                .iter_mut()
                .chain(json.reserve.iter_mut())
                .flatten()
                .chain(json.stock.iter_mut())
                .chain(json.waste.iter_mut())
                .collect();
            let n = cards.len();
            let (a, b) = (a % n, b % n);
            if a != b {
                let card_a = *cards[a];
                let card_b = *cards[b];
                *cards[a] = card_b;
                *cards[b] = card_a;
            }
        }
        // Same cards, other places: a legal layout shape, so it must be read and played on.
        let read = Position::from_json(rules, &json).expect("a shuffled layout is still a position");
        play_on(rules, read);
    }
}
