//! `patience history`, run for real on stores the tests fill: the text table with the summary, `--json`, `--csv`,
//! a game filter, `--data-dir` and `PATIENCE_DATA`, and what happens with an empty, newer or corrupt store.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs the binary with these arguments and `PATIENCE_DATA` set to `data` (or unset).
fn patience(args: &[&str], data: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_patience"));
    command.args(args).env_remove("PATIENCE_DATA");
    if let Some(data) = data {
        command.env("PATIENCE_DATA", data);
    }
    command.output().expect("the binary runs")
}

/// Runs the binary and expects success; returns standard output and standard error.
fn ok(args: &[&str]) -> (String, String) {
    let out = patience(args, None);
    assert!(
        out.status.success(),
        "patience {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// A fresh, empty folder for one test's store.
fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("history-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A finished game as the tests write it: game, rules_name, rules_hash, deal, outcome, moves, seconds, cards,
/// casino_dollars, hints_used, undo_used.
type Row = (
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    &'static str,
    u32,
    f64,
    u32,
    i64,
    bool,
    bool,
);

/// A store in `dir` made by the binary, then filled by hand through its documented schema (docs/store.md) with
/// a known sequence of games.
fn filled(name: &str) -> PathBuf {
    let dir = folder(name);
    let dir_arg = dir.to_str().expect("UTF-8 path");
    ok(&["store-torture", "--data-dir", dir_arg, "--games", "0"]);
    let conn = rusqlite::Connection::open(dir.join("patience.sqlite3")).expect("open the store");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .expect("version");
    assert_eq!(version, 1, "the schema docs/store.md describes");
    let games: &[Row] = &[
        (
            "canfield",
            "Canfield",
            None,
            Some("1"),
            "won",
            120,
            300.0,
            52,
            208,
            false,
            false,
        ),
        (
            "canfield",
            "Canfield",
            None,
            Some("2"),
            "lost",
            60,
            125.0,
            17,
            33,
            true,
            false,
        ),
        (
            "canfield",
            "Canfield",
            None,
            Some("3"),
            "won",
            99,
            250.0,
            52,
            208,
            false,
            true,
        ),
        (
            "canfield",
            "Canfield",
            None,
            Some("4"),
            "won",
            140,
            3725.0,
            52,
            208,
            true,
            true,
        ),
        (
            "four-seasons",
            "Four Seasons",
            None,
            None,
            "abandoned",
            3,
            5.0,
            1,
            -47,
            false,
            false,
        ),
        (
            "canfield",
            "Canfield, mine",
            Some("0123456789abcdef"),
            Some("18446744073709551615"),
            "won",
            80,
            60.0,
            52,
            208,
            false,
            false,
        ),
    ];
    for (i, g) in games.iter().enumerate() {
        conn.execute(
            "INSERT INTO finished_game (game, rules_name, rules_hash, deal, outcome, moves, seconds, cards,
                                        casino_dollars, finished_at, hints_used, undo_used)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            rusqlite::params![
                g.0,
                g.1,
                g.2,
                g.3,
                g.4,
                g.5,
                g.6,
                g.7,
                g.8,
                format!("2025-03-0{}T18:04:05Z", i + 1),
                g.9,
                g.10
            ],
        )
        .expect("insert");
    }
    dir
}

#[test]
fn the_text_table_lists_the_games_and_ends_with_the_summary() {
    let dir = filled("text");
    let (text, errors) = ok(&["history", "--data-dir", dir.to_str().expect("UTF-8")]);
    assert!(errors.is_empty(), "{errors}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Finished games (") && lines[0].contains("patience.sqlite3"));
    assert!(lines[1].contains("finished (UTC)") && lines[1].contains("dollars"));
    let game = |n: usize| lines[1 + n];
    for (n, words) in [
        (
            1,
            &[
                "1",
                "2025-03-01 18:04",
                "canfield",
                "won",
                "120",
                "5:00",
                "52",
                "+$208",
            ][..],
        ),
        (2, &["2", "lost", "2:05", "17", "+$33", "hints"]),
        (3, &["3", "won", "99", "4:10", "undo"]),
        (4, &["4", "1:02:05", "hints, undo"]),
        (5, &["5", "four-seasons", "-", "abandoned", "0:05", "-$47"]),
        (6, &["6", "canfield@01234567", "18446744073709551615"]),
    ] {
        for word in words {
            assert!(
                game(n).contains(word),
                "game {n} lacks `{word}`: {}",
                game(n)
            );
        }
    }
    let by_game = lines
        .iter()
        .position(|l| *l == "By game:")
        .expect("the summary comes after the games");
    assert_eq!(by_game, 9, "{text}");
    let head = lines[by_game + 1];
    for column in [
        "played",
        "won",
        "win rate",
        "streak",
        "best streak",
        "best time",
        "fewest moves",
        "bankroll",
    ] {
        assert!(head.contains(column), "{head}");
    }
    let canfield: Vec<&str> = lines[by_game + 2].split_whitespace().collect();
    assert_eq!(
        canfield,
        ["canfield", "4", "3", "75.0", "%", "2", "2", "4:10", "99", "+$657"],
        "{text}"
    );
    let custom: Vec<&str> = lines[by_game + 3].split_whitespace().collect();
    assert_eq!(custom[..3], ["canfield@01234567", "1", "1"]);
    let seasons: Vec<&str> = lines[by_game + 4].split_whitespace().collect();
    assert_eq!(
        seasons,
        [
            "four-seasons",
            "1",
            "0",
            "0.0",
            "%",
            "0",
            "0",
            "-",
            "-",
            "-$47"
        ]
    );
    // The columns line up: each result starts under its heading.
    let result_at = lines[1].find("result").expect("result column");
    for (n, outcome) in [(1, "won"), (2, "lost"), (5, "abandoned"), (6, "won")] {
        assert!(game(n)[result_at..].starts_with(outcome), "{}", game(n));
    }
}

#[test]
fn json_has_every_field_and_the_summaries() {
    let dir = filled("json");
    let (text, _) = ok(&[
        "history",
        "--json",
        "--data-dir",
        dir.to_str().expect("UTF-8"),
    ]);
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert!(value["store"]
        .as_str()
        .expect("store")
        .ends_with("patience.sqlite3"));
    let games = value["games"].as_array().expect("games");
    assert_eq!(games.len(), 6);
    assert_eq!(
        games[1],
        serde_json::json!({
            "id": 2, "game": "canfield", "rules_name": "Canfield", "rules_hash": null, "deal": 2,
            "outcome": "lost", "moves": 60, "seconds": 125.0, "cards": 17, "casino_dollars": 33,
            "finished_at": "2025-03-02T18:04:05Z", "hints_used": true, "undo_used": false
        })
    );
    assert_eq!(games[4]["deal"], Value::Null);
    assert_eq!(games[5]["deal"].as_u64(), Some(u64::MAX));
    let summaries = value["summaries"].as_array().expect("summaries");
    assert_eq!(summaries.len(), 3);
    assert_eq!(
        summaries[0],
        serde_json::json!({
            "game": "canfield", "rules_name": "Canfield", "rules_hash": null, "played": 4, "won": 3, "lost": 1,
            "abandoned": 0, "win_rate": 0.75, "current_streak": 2, "best_streak": 2, "best_seconds": 250.0,
            "fewest_moves": 99, "bankroll": 657
        })
    );
    assert_eq!(summaries[1]["rules_hash"], "0123456789abcdef");
    assert_eq!(summaries[2]["best_seconds"], Value::Null);
}

#[test]
fn csv_has_a_header_and_a_row_a_game_quoted_where_needed() {
    let dir = filled("csv");
    let (text, _) = ok(&[
        "history",
        "--csv",
        "--data-dir",
        dir.to_str().expect("UTF-8"),
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "id,finished_at,game,rules_name,rules_hash,deal,outcome,moves,seconds,cards,casino_dollars,hints_used,undo_used"
    );
    assert_eq!(lines.len(), 7);
    assert_eq!(
        lines[1],
        "1,2025-03-01T18:04:05Z,canfield,Canfield,,1,won,120,300,52,208,false,false"
    );
    assert_eq!(
        lines[5],
        "5,2025-03-05T18:04:05Z,four-seasons,Four Seasons,,,abandoned,3,5,1,-47,false,false"
    );
    assert_eq!(
        lines[6],
        "6,2025-03-06T18:04:05Z,canfield,\"Canfield, mine\",0123456789abcdef,18446744073709551615,won,80,60,52,208,false,false"
    );
}

#[test]
fn a_game_filters_the_games_and_the_summaries() {
    let dir = filled("filter");
    let dir_arg = dir.to_str().expect("UTF-8");
    let (text, _) = ok(&["history", "four-seasons", "--json", "--data-dir", dir_arg]);
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(value["games"].as_array().expect("games").len(), 1);
    assert_eq!(value["summaries"].as_array().expect("summaries").len(), 1);
    let (text, _) = ok(&["history", "klondike", "--data-dir", dir_arg]);
    assert!(
        text.starts_with("No finished games of `klondike` yet"),
        "{text}"
    );
}

#[test]
fn patience_data_selects_the_store_and_data_dir_wins_over_it() {
    let dir = filled("env");
    let out = patience(&["history", "--csv"], Some(&dir));
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 7);
    let empty = folder("env-empty");
    let out = patience(
        &[
            "history",
            "--csv",
            "--data-dir",
            empty.to_str().expect("UTF-8"),
        ],
        Some(&dir),
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        1,
        "the header alone"
    );
}

#[test]
fn an_empty_folder_has_no_games_and_is_left_alone() {
    let dir = folder("empty");
    let dir_arg = dir.to_str().expect("UTF-8");
    let (text, _) = ok(&["history", "--data-dir", dir_arg]);
    assert!(
        text.starts_with("No finished games yet (the store is "),
        "{text}"
    );
    assert!(!dir.exists(), "looking at the history makes no store");
    let (text, _) = ok(&["history", "--json", "--data-dir", dir_arg]);
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(value["games"], serde_json::json!([]));
    assert_eq!(value["summaries"], serde_json::json!([]));
}

#[test]
fn json_and_csv_together_are_refused() {
    let out = patience(&["history", "--json", "--csv"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--csv"));
}

#[test]
fn a_newer_store_is_refused_with_its_version() {
    let dir = filled("newer");
    let conn = rusqlite::Connection::open(dir.join("patience.sqlite3")).expect("open");
    conn.pragma_update(None, "user_version", 9)
        .expect("version");
    drop(conn);
    let out = patience(
        &["history", "--data-dir", dir.to_str().expect("UTF-8")],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(
        errors.contains("schema version 9") && errors.contains("versions up to 1"),
        "{errors}"
    );
}

#[test]
fn a_corrupt_store_is_moved_aside_with_a_note() {
    let dir = folder("corrupt");
    std::fs::create_dir_all(&dir).expect("folder");
    std::fs::write(dir.join("patience.sqlite3"), "not a database\n").expect("write");
    let (text, errors) = ok(&["history", "--data-dir", dir.to_str().expect("UTF-8")]);
    assert!(text.starts_with("No finished games yet"), "{text}");
    assert!(
        errors.starts_with("note: ")
            && errors.contains("moved aside to")
            && errors.contains(".corrupt-"),
        "{errors}"
    );
    let aside = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
        .count();
    assert_eq!(aside, 1);
}
