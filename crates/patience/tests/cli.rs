//! The `patience` binary, run for real: output, JSON, exit statuses and error messages.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

/// Runs the binary with these arguments, giving it `stdin` when there is some.
fn patience(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).expect("write stdin");
    }
    drop(input);
    child.wait_with_output().expect("the binary runs")
}

/// Runs the binary and expects success; returns standard output.
fn ok(args: &[&str]) -> String {
    let out = patience(args, None);
    assert!(
        out.status.success(),
        "patience {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs the binary and expects JSON on standard output.
fn ok_json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("JSON output")
}

/// Runs the binary and expects failure with this exit status; returns standard error.
fn fails(args: &[&str], status: i32) -> String {
    let out = patience(args, None);
    assert_eq!(
        out.status.code(),
        Some(status),
        "patience {args:?}: stdout {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty(), "an error prints nothing on stdout");
    String::from_utf8(out.stderr).expect("UTF-8 errors")
}

/// Writes a file under the test's temporary folder and returns its path.
fn write(name: &str, text: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("write a temporary file");
    path.display().to_string()
}

/// The position of Canfield deal 1, written to a file.
fn canfield_1(name: &str) -> String {
    write(name, &ok(&["deal", "canfield", "1", "--json"]))
}

fn cards(value: &Value) -> String {
    value
        .as_array()
        .expect("a pile")
        .iter()
        .map(|c| c.as_str().expect("a card"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn list_shows_the_eleven_games() {
    let text = ok(&["list"]);
    assert!(text.starts_with("11 games:"), "{text}");
    for id in ["four-seasons", "canfield", "selective-canfield", "gate"] {
        assert!(text.contains(id), "{id} missing from\n{text}");
    }
    assert!(!text.contains("rainbow"));
    let games = ok_json(&["list", "--json"]);
    assert_eq!(games.as_array().map(Vec::len), Some(11));
    assert_eq!(games[4]["id"], "canfield");
    assert_eq!(games[4]["name"], "Canfield");
    assert_eq!(games[4]["source"], "000");
    let all = ok_json(&["list", "--all", "--json"]);
    assert_eq!(all.as_array().map(Vec::len), Some(20));
    assert_eq!(all[19]["extra"], true);
    assert!(ok(&["list", "--all"]).contains("rainbow"));
}

#[test]
fn rules_say_that_canfield_moves_whole_piles() {
    let text = ok(&["rules", "canfield"]);
    assert!(text.starts_with("Canfield (canfield)"), "{text}");
    assert!(text.contains("whole pile"), "{text}");
    let json = ok_json(&["rules", "canfield", "--json"]);
    assert_eq!(json["id"], "canfield");
    assert!(json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .any(|s| s["heading"] == "Tableau"
            && s["text"].as_str().is_some_and(|t| t.contains("whole pile"))));
}

#[test]
fn deal_json_is_the_layout_of_deals_md() {
    let p = ok_json(&["deal", "canfield", "1", "--json"]);
    assert_eq!(p["game"], "canfield");
    assert_eq!(p["foundations"], json!([[], [], [], ["JD"]]));
    assert_eq!(
        cards(&p["reserve"][0]),
        "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC"
    );
    assert_eq!(p["tableau"], json!([["KS"], ["2S"], ["3H"], ["KH"]]));
    assert_eq!(cards(&p["waste"]), "9D QD JS");
    assert_eq!(
        cards(&p["stock"]),
        "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS 5C 4C 3C AH AS"
    );
    assert_eq!(p["base_rank"], "J");
    assert_eq!(p["redeals_left"], Value::Null);
}

#[test]
fn deal_text_draws_the_cards() {
    let text = ok(&["deal", "canfield", "1"]);
    assert!(text.starts_with("Canfield (canfield), deal 1\n"), "{text}");
    for shown in [
        "base rank J",
        "f3 ♦",
        "JD",
        "QC",
        "13 cards",
        "KS",
        "2S",
        "3H",
        "KH",
        "9D QD JS",
        "31 cards",
    ] {
        assert!(text.contains(shown), "{shown} missing from\n{text}");
    }
    // The reserve is face down: only its top card shows.
    assert!(!text.contains("2D"), "{text}");
    // Not a terminal: no colour.
    assert!(!text.contains('\x1b'), "{text}");

    let cross = ok(&["deal", "four-seasons", "1"]);
    let lines: Vec<&str> = cross.lines().collect();
    let row = |a: &str, b: &str| lines.iter().any(|l| l.contains(a) && l.contains(b));
    assert!(
        row("f0 ♣", "t0") && row("t1", "t3") && row("f2 ♥", "f3 ♦"),
        "{cross}"
    );
    for card in ["2D", "9H", "JC", "5D", "7H", "7C"] {
        assert!(cross.contains(card), "{card} missing from\n{cross}");
    }

    let gate = ok(&["deal", "gate", "1"]);
    assert!(
        gate.lines()
            .any(|l| l.starts_with("r0") && l.trim_end().ends_with("r1")),
        "{gate}"
    );
    for card in ["JD", "9H", "5D", "7C", "KD", "2D", "JC", "7H", "5H", "KC"] {
        assert!(gate.contains(card), "post card {card} missing from\n{gate}");
    }
}

#[test]
fn deal_numbers_accept_ms_and_refuse_zero() {
    assert_eq!(
        ok_json(&["deal", "canfield", "ms1", "--json"]),
        ok_json(&["deal", "canfield", "1", "--json"])
    );
    let error = fails(&["deal", "canfield", "0"], 1);
    assert!(error.contains("deal numbers start at 1"), "{error}");
    let error = fails(&["deal", "canfield", "ms32000"], 1);
    assert!(error.contains("ms31999"), "{error}");
    let error = fails(&["deal", "klondike", "1"], 1);
    assert!(
        error.contains("`klondike` is not a built-in game"),
        "{error}"
    );
}

#[test]
fn moves_of_a_position_file() {
    let file = canfield_1("moves-canfield-1.json");
    let text = ok(&["moves", "--position", &file]);
    for line in [
        "draw",
        "w-f1   (JS to start the ♠ foundation)",
        "r0-t3  (QC onto KH)",
        "t1-t2  (2S onto 3H)",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(line)),
            "{line} missing from\n{text}"
        );
    }
    let moves = ok_json(&["moves", "--position", &file, "--json"]);
    assert_eq!(moves.as_array().map(Vec::len), Some(4));
    assert!(moves
        .as_array()
        .expect("moves")
        .contains(&json!({"from": "reserve:0", "to": "tableau:3", "count": 1})));

    let stdin = std::fs::read_to_string(&file).expect("read back");
    let out = patience(&["moves", "--position", "-"], Some(&stdin));
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[test]
fn apply_a_legal_sequence() {
    let file = canfield_1("apply-canfield-1.json");
    // QC onto KH; 2S onto 3H leaves a space that the reserve's next card (AD) fills at once; JS to its
    // foundation, given as a JSON move.
    let p = ok_json(&[
        "apply",
        "--position",
        &file,
        "--json",
        "r0-t3",
        "t1-t2",
        r#"{"from": "waste", "to": "foundation:1", "count": 1}"#,
    ]);
    assert_eq!(
        p["tableau"],
        json!([["KS"], ["AD"], ["3H", "2S"], ["KH", "QC"]])
    );
    assert_eq!(p["foundations"], json!([[], ["JS"], [], ["JD"]]));
    assert_eq!(cards(&p["reserve"][0]), "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S");
    assert_eq!(cards(&p["waste"]), "9D QD");

    let text = ok(&["apply", "--position", &file, "draw", "draw"]);
    assert!(
        text.starts_with("Canfield (canfield), after 2 moves: draw draw\n"),
        "{text}"
    );
    assert!(text.contains("25 cards"), "{text}");
}

#[test]
fn an_illegal_move_exits_2_naming_it() {
    let file = canfield_1("illegal-canfield-1.json");
    let error = fails(&["apply", "--position", &file, "draw", "t0-t3"], 2);
    assert!(error.contains("move 2 of 2, `t0-t3`"), "{error}");
    assert!(error.contains("KS does not go on KH"), "{error}");
    let error = fails(&["apply", "--position", &file, "t9-t0"], 2);
    assert!(
        error.contains("move 1 of 1, `t9-t0`: illegal: this game has no tableau:9"),
        "{error}"
    );
    let error = fails(&["apply", "--position", &file, "draw", "q1-t0"], 2);
    assert!(
        error.contains("move 2 of 2, `q1-t0`: not a move"),
        "{error}"
    );
}

#[test]
fn rule_files_stand_in_for_games() {
    let canfield = include_str!("../../../games/canfield.toml");
    let custom = canfield
        .replace("id = \"canfield\"", "id = \"canfield-draw-one\"")
        .replace("name = \"Canfield\"", "name = \"Canfield, draw one\"")
        .replace("draw = 3", "draw = 1");
    let file = write("canfield-draw-one.toml", &custom);
    let text = ok(&["rules", "--rules", &file]);
    assert!(
        text.starts_with("Canfield, draw one (canfield-draw-one)"),
        "{text}"
    );
    assert!(text.contains("Turn one card at a time"), "{text}");
    let p = ok_json(&["deal", "--rules", &file, "1", "--json"]);
    assert_eq!(p["game"], "canfield-draw-one");
    assert_eq!(cards(&p["waste"]), "9D");
    let position = write("canfield-draw-one-1.json", &p.to_string());
    let moves = ok(&["moves", "--position", &position, "--rules", &file]);
    assert!(moves.contains("r0-t3"), "{moves}");
    // Without --rules the position's game is looked for among the built-in games.
    let error = fails(&["moves", "--position", &position], 1);
    assert!(
        error.contains("canfield-draw-one") && error.contains("--rules"),
        "{error}"
    );

    let bad = write("bad-draw.toml", &canfield.replace("draw = 3", "draw = 0"));
    let error = fails(&["deal", "--rules", &bad, "1"], 1);
    assert!(
        error.contains("bad-draw.toml") && error.contains("stock.draw"),
        "{error}"
    );
    let bad = write(
        "bad-build.toml",
        &canfield.replace("\"alternate-colours\"", "\"rainbow\""),
    );
    let error = fails(&["rules", "--rules", &bad], 1);
    assert!(
        error.contains("bad-build.toml") && error.contains("rainbow"),
        "{error}"
    );
}

#[test]
fn bad_positions_are_refused_naming_the_file() {
    let file = write("not-json.json", "{ this is not json");
    let error = fails(&["moves", "--position", &file], 1);
    assert!(error.contains("not-json.json"), "{error}");

    let mut p = ok_json(&["deal", "canfield", "1", "--json"]);
    p["tableau"][0] = json!(["KS", "KS"]);
    let file = write("twice.json", &p.to_string());
    let error = fails(&["apply", "--position", &file, "draw"], 1);
    assert!(
        error.contains("twice.json: bad position: KS appears twice"),
        "{error}"
    );

    let error = fails(&["moves", "--position", "/no/such/position.json"], 1);
    assert!(error.contains("/no/such/position.json"), "{error}");
}

#[test]
fn selective_canfield_shows_its_choice_row_until_the_choice() {
    let text = ok(&["deal", "selective-canfield", "1"]);
    assert!(text.contains("base rank not chosen yet"), "{text}");
    assert!(text.contains("choose the base card"), "{text}");
    let file = write(
        "selective-1.json",
        &ok(&["deal", "selective-canfield", "1", "--json"]),
    );
    let moves = ok(&["moves", "--position", &file]);
    assert!(
        moves
            .lines()
            .any(|l| l == "c1-f2  (choose KH as the base card)"),
        "{moves}"
    );
    let error = fails(&["apply", "--position", &file, "draw"], 2);
    assert!(
        error.contains("the base card must be chosen first"),
        "{error}"
    );
    let p = ok_json(&["apply", "--position", &file, "c1-f2", "--json"]);
    assert_eq!(p["base_rank"], "K");
    assert_eq!(p["tableau"], json!([["QC"], ["3H"], ["2S"], ["KS"]]));
    assert!(p.get("choice").is_none());
}
