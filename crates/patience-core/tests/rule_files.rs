//! Rule files: a bad one is refused with an error that names the file, the field and what was expected; a
//! good custom one loads and plays.

use std::path::Path;

use patience_core::rules::{Base, RuleError};
use patience_core::{builtin, Position, RuleSet};

const CANFIELD: &str = include_str!("../../../games/canfield.toml");
const GATE: &str = include_str!("../../../games/gate.toml");
const SELECTIVE: &str = include_str!("../../../games/selective-canfield.toml");

/// Canfield's rule file with one line replaced (the line must be there).
fn canfield_with(old: &str, new: &str) -> String {
    assert!(CANFIELD.contains(old), "canfield.toml has no `{old}`");
    CANFIELD.replacen(old, new, 1)
}

/// The error a rule text is refused with, as the user sees it.
#[track_caller]
fn refused(text: &str) -> String {
    match RuleSet::from_toml("custom.toml", text) {
        Ok(rules) => panic!("accepted: {rules:?}"),
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("custom.toml: "), "{message}");
            message
        }
    }
}

/// Asserts the error names every one of `words`.
#[track_caller]
fn assert_names(message: &str, words: &[&str]) {
    for word in words {
        assert!(message.contains(word), "`{word}` missing from: {message}");
    }
}

#[test]
fn every_built_in_file_loads_from_disk() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    for (dir, list) in [("", builtin::games()), ("extra/", builtin::extras())] {
        for rules in list {
            let path = root.join(format!("{dir}{}.toml", rules.id));
            let loaded = RuleSet::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&loaded, rules);
        }
    }
}

#[test]
fn a_missing_file_is_named() {
    let err = RuleSet::from_file(Path::new("no/such/game.toml")).unwrap_err();
    assert!(matches!(err, RuleError::Read { .. }));
    assert_names(&err.to_string(), &["no/such/game.toml", "cannot read"]);
}

#[test]
fn an_unknown_key_is_refused() {
    let message = refused(&format!("colour = \"red\"\n{CANFIELD}"));
    assert_names(&message, &["unknown field", "colour", "expected"]);
    let message = refused(&canfield_with("draw = 3", "draw = 3\nturns = 3"));
    assert_names(&message, &["unknown field", "turns", "draw"]);
    let message = refused(&canfield_with("[reserve]", "[reserve]\nfaceup = true"));
    assert_names(&message, &["faceup", "face_up"]);
}

#[test]
fn a_missing_field_is_refused() {
    let message = refused(&canfield_with("draw = 3\n", ""));
    assert_names(&message, &["missing field", "draw"]);
    let message = refused(&canfield_with("id = \"canfield\"\n", ""));
    assert_names(&message, &["missing field", "id"]);
}

#[test]
fn a_value_of_the_wrong_type_is_refused() {
    let message = refused(&canfield_with("piles = 4", "piles = \"four\""));
    assert_names(&message, &["piles", "invalid type", "string", "expected"]);
    let message = refused(&canfield_with("draw = 3", "draw = 3.5"));
    assert_names(&message, &["draw", "invalid type", "float"]);
    let message = refused(&canfield_with("piles = [13]", "piles = 13"));
    assert_names(&message, &["piles", "invalid type", "sequence"]);
}

#[test]
fn an_unknown_word_is_refused_with_the_words_expected() {
    let message = refused(&canfield_with(
        "build = \"alternate-colours\"",
        "build = \"rainbow\"",
    ));
    assert_names(
        &message,
        &[
            "build",
            "rainbow",
            "any-suit",
            "alternate-colours",
            "same-suit",
        ],
    );
    let message = refused(&canfield_with("moves = \"whole-pile\"", "moves = \"all\""));
    assert_names(&message, &["moves", "all", "top-or-whole", "any-run"]);
    let message = refused(&canfield_with("order = \"circular\"", "order = \"wrap\""));
    assert_names(
        &message,
        &["order", "wrap", "natural", "circular", "from-base"],
    );
    let message = refused(&canfield_with(
        "forced = [\"reserve\"]",
        "forced = [\"hand\"]",
    ));
    assert_names(&message, &["forced", "hand", "reserve", "waste", "stock"]);
}

#[test]
fn a_bad_base_is_refused() {
    let message = refused(&canfield_with("base = \"dealt\"", "base = \"X\""));
    assert_names(
        &message,
        &["base", "`X`", "expected", "dealt", "chosen", "rank"],
    );
    let message = refused(&canfield_with("base = \"dealt\"", "base = 2"));
    assert_names(&message, &["base", "invalid type", "integer"]);
}

#[test]
fn a_bad_number_of_redeals_is_refused() {
    let message = refused(&canfield_with("redeals = \"unlimited\"", "redeals = -1"));
    assert_names(
        &message,
        &["redeals", "-1", "expected 0 to 254", "unlimited"],
    );
    let message = refused(&canfield_with("redeals = \"unlimited\"", "redeals = 255"));
    assert_names(&message, &["redeals", "255"]);
    let message = refused(&canfield_with(
        "redeals = \"unlimited\"",
        "redeals = \"forever\"",
    ));
    assert_names(&message, &["redeals", "forever", "unlimited"]);
}

#[test]
fn sizes_out_of_range_are_refused() {
    let message = refused(&canfield_with("piles = 4", "piles = 0"));
    assert_names(&message, &["tableau.piles", "0 piles", "expected 1 to 16"]);
    let message = refused(&canfield_with("piles = 4", "piles = 17"));
    assert_names(&message, &["tableau.piles", "17"]);
    let message = refused(&canfield_with("draw = 3", "draw = 0"));
    assert_names(&message, &["stock.draw", "expected at least 1"]);
    let message = refused(&canfield_with("piles = [13]", "piles = [3, 3, 3, 2, 2]"));
    assert_names(&message, &["reserve.piles", "5 piles", "at most 4"]);
    let message = refused(&format!("{CANFIELD}\n[pack]\nranks = 14\n"));
    assert_names(&message, &["pack.ranks", "14", "expected 1 to 13"]);
    let message = refused(&canfield_with("piles = 4", "piles = 300"));
    assert_names(&message, &["piles", "300"]);
}

#[test]
fn more_cards_than_the_pack_holds_are_refused() {
    let message = refused(&canfield_with("piles = [13]", "piles = [50]"));
    assert_names(&message, &["deal.steps", "55 cards", "the pack holds 52"]);
    // A reduced pack of 8 cards cannot deal 13 to the reserve.
    let message = refused(&format!("{CANFIELD}\n[pack]\nranks = 2\n"));
    assert_names(&message, &["deal.steps", "the pack holds 8"]);
}

#[test]
fn a_capacity_pile_out_of_range_is_refused() {
    let message = refused(&canfield_with(
        "spaces =",
        "capacity = [{ pile = 4, cards = 1 }]\nspaces =",
    ));
    assert_names(
        &message,
        &[
            "tableau.capacity.pile",
            "pile 4",
            "expected a tableau pile from 0 to 3",
        ],
    );
    let message = refused(&canfield_with(
        "spaces =",
        "capacity = [{ pile = 1, cards = 0 }]\nspaces =",
    ));
    assert_names(&message, &["tableau.capacity.cards", "expected at least 1"]);
}

#[test]
fn bad_space_rules_are_refused() {
    let message = refused(&canfield_with(
        "forced = [\"reserve\"]",
        "forced = [\"tableau\"]",
    ));
    assert_names(
        &message,
        &[
            "tableau.spaces.forced",
            "\"tableau\"",
            "reserve",
            "waste",
            "stock",
        ],
    );
    let message = refused(&canfield_with(
        "at_will_once_reserve_empty = [\"waste\"]",
        "at_will_once_reserve_empty = [\"stock\"]",
    ));
    assert_names(
        &message,
        &[
            "tableau.spaces.at_will_once_reserve_empty",
            "\"stock\"",
            "expected",
        ],
    );
    let message = refused(&canfield_with(
        "spaces = { ",
        "spaces = { at_will = [\"stock\"], ",
    ));
    assert_names(&message, &["`tableau.spaces.at_will`", "\"stock\""]);
    // A space filled from a reserve the game does not have.
    let gate = GATE.replace("piles = [5, 5]", "piles = []");
    let message = refused(&gate);
    assert_names(&message, &["tableau.spaces", "no reserve"]);
    let message = refused(&canfield_with(
        "spaces =",
        "top_card_from_piles_of = 1\nspaces =",
    ));
    assert_names(
        &message,
        &["tableau.top_card_from_piles_of", "expected 2 or more"],
    );
}

#[test]
fn bad_deal_steps_are_refused() {
    let message = refused(&canfield_with(
        "order = [3, 2, 1, 0]",
        "order = [3, 2, 1, 1]",
    ));
    assert_names(&message, &["deal.steps.order", "pile 1", "once"]);
    let message = refused(&canfield_with(
        "order = [3, 2, 1, 0]",
        "order = [4, 2, 1, 0]",
    ));
    assert_names(&message, &["deal.steps.order", "pile 4"]);
    let message = refused(&canfield_with("{ to = \"reserve\" },\n", ""));
    assert_names(&message, &["deal.steps", "no step deals to it"]);
    let message = refused(&canfield_with("{ to = \"foundation\" },\n", ""));
    assert_names(&message, &["foundations.base", "\"dealt\" needs"]);
    let message = refused(&canfield_with(
        "to = \"foundation\"",
        "to = \"foundation\", cards = 2",
    ));
    assert_names(
        &message,
        &["deal.steps.cards", "one card goes to the foundations"],
    );
    let message = refused(&canfield_with("to = \"reserve\"", "to = \"hand\""));
    assert_names(
        &message,
        &[
            "unknown variant",
            "hand",
            "foundation",
            "reserve",
            "tableau",
            "choice",
        ],
    );
    // A choice row needs a chosen base, and one card more than the tableau piles.
    let message = refused(&SELECTIVE.replace("cards = 5", "cards = 4"));
    assert_names(
        &message,
        &["deal.steps.cards", "choice row of 4", "one more card"],
    );
    let message = refused(&SELECTIVE.replace("base = \"chosen\"", "base = \"dealt\""));
    assert_names(&message, &["deal.steps.to", "\"choice\"", "chosen"]);
    // The base cards go first only when the base is a rank.
    let message = refused(&canfield_with("[deal]", "[deal]\nbase_cards_first = true"));
    assert_names(&message, &["deal.base_cards_first", "foundations.base"]);
}

#[test]
fn a_bad_id_is_refused() {
    let message = refused(&canfield_with("id = \"canfield\"", "id = \"My Canfield\""));
    assert_names(&message, &["`id`", "My Canfield", "lower-case"]);
}

#[test]
fn a_good_custom_file_loads_and_plays() {
    let text = r#"
id = "tiny-canfield"
name = "Tiny Canfield"
description = "Canfield with a 16-card pack, for tests."

[pack]
ranks = 4

[deal]
steps = [
  { to = "foundation" },
  { to = "reserve" },
  { to = "tableau", order = [2, 1, 0] },
]

[foundations]
base = "dealt"

[tableau]
piles = 3
build = "alternate-colours"
order = "circular"
moves = "top-or-whole"
capacity = [{ pile = 1, cards = 2 }]
spaces = { forced = ["reserve"], at_will_once_reserve_empty = ["tableau", "waste"] }

[reserve]
piles = [4]

[stock]
draw = 2
redeals = 3

[score]
default = "casino"
pack_price = 16
per_card = 2
"#;
    let rules = RuleSet::from_toml("tiny.toml", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rules.pack_size(), 16);
    assert_eq!(rules.foundations.base, Base::Dealt);
    assert_eq!(rules.capacity(1), 2);
    assert!(rules.casino_scored());
    for number in 1..50 {
        let p = Position::deal(&rules, number).expect("deal");
        assert_eq!(p.foundation_cards(), 1);
        assert_eq!(p.len(patience_core::Pile::Reserve(0)), 4);
        assert_eq!(p.redeals_left(), Some(3));
        // 16 cards: 1 + 4 + 3 dealt, 8 in hand, two of them turned.
        assert_eq!(p.len(patience_core::Pile::Waste), 2);
        assert_eq!(p.len(patience_core::Pile::Stock), 6);
        let json = p.to_json(&rules);
        assert_eq!(Position::from_json(&rules, &json), Ok(p));
    }
}
