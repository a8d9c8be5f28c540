//! The `solve`, `export` and `stats` commands, run for real: lines that replay, limits, Solvitaire's format,
//! results files that resume, shards that merge, refusals.

use std::path::PathBuf;
use std::process::{Command, Output};

use patience_core::{builtin, Move, Position};
use serde_json::Value;

fn patience(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> Output {
    let out = patience(args);
    assert!(
        out.status.success(),
        "patience {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn ok_json(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).expect("JSON output")
}

/// Runs the binary, expects exit status 1 and returns standard error.
fn fails(args: &[&str]) -> String {
    let out = patience(args);
    assert_eq!(out.status.code(), Some(1), "patience {args:?}");
    assert!(out.stdout.is_empty(), "an error prints nothing on stdout");
    String::from_utf8(out.stderr).expect("UTF-8 errors")
}

/// A fresh path under the test's temporary folder (any old file removed).
fn temp(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path.display().to_string()
}

fn lines(path: &str) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("a results file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

fn names(value: &Value) -> String {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| c.as_str().expect("a card"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn solve_prints_a_winning_line_that_replays() {
    let answer = ok_json(&["solve", "florentine", "1", "--json"]);
    assert_eq!(answer["verdict"], "won");
    assert_eq!(answer["thoughtful"], true);
    assert!(answer["stats"]["nodes"].as_u64().is_some_and(|n| n > 0));
    let line: Vec<&str> = answer["line"]
        .as_array()
        .expect("a line")
        .iter()
        .map(|m| m.as_str().expect("notation"))
        .collect();
    assert!(!line.is_empty());

    // The notation, through `patience apply`.
    let start = temp("florentine-1.json");
    std::fs::write(&start, ok(&["deal", "florentine", "1", "--json"]).stdout).expect("write");
    let mut args = vec!["apply", "--position", start.as_str(), "--json"];
    args.extend(&line);
    let end = ok_json(&args);
    for foundation in end["foundations"].as_array().expect("foundations") {
        assert_eq!(foundation.as_array().map(Vec::len), Some(13));
    }

    // The move objects, through the rules engine.
    let rules = builtin::rules("florentine").expect("a game");
    let mut position = Position::deal(&rules, 1).expect("a deal");
    for mv in answer["moves"].as_array().expect("moves") {
        let mv: Move = serde_json::from_value(mv.clone()).expect("a move object");
        position.play(&rules, mv).expect("a legal move");
    }
    assert!(position.is_won());
}

#[test]
fn solve_in_text_numbers_the_moves_with_their_cards() {
    let text = String::from_utf8(ok(&["solve", "fortunes-favor", "1"]).stdout).expect("UTF-8");
    assert!(
        text.starts_with("Fortune's Favor (fortunes-favor), deal 1: won, in "),
        "{text}"
    );
    assert!(text.contains("thoughtful"), "{text}");
    assert!(text.contains("\n 1. ") || text.contains("\n1. "), "{text}");
    assert!(text.contains("nodes searched"), "{text}");
    assert!(text.contains("peak table memory"), "{text}");
}

/// The passes of a `solve --json` answer: each one's name and how it ended, after checking that their nodes add
/// up to the search's.
fn passes(answer: &Value) -> Vec<(String, String)> {
    let passes = answer["passes"].as_array().expect("passes");
    let nodes: u64 = passes.iter().filter_map(|p| p["nodes"].as_u64()).sum();
    assert_eq!(Some(nodes), answer["stats"]["nodes"].as_u64(), "{answer}");
    for pass in passes {
        assert!(
            pass["beam_nodes"].as_u64() <= pass["nodes"].as_u64(),
            "{pass}"
        );
        assert!(pass["runs"].as_u64().is_some_and(|n| n >= 1), "{pass}");
        assert_eq!(
            pass["ended"] == "stopped",
            pass.get("limit").is_some(),
            "{pass}"
        );
    }
    passes
        .iter()
        .map(|p| {
            let name = p["pass"].as_str().expect("a name").to_string();
            (name, p["ended"].as_str().expect("an end").to_string())
        })
        .collect()
}

#[test]
fn solve_says_what_each_pass_did() {
    let pair = |name: &str, ended: &str| (name.to_string(), ended.to_string());
    // Whole-pile Canfield has no relaxed pass; its full search proves deal 27 lost.
    let lost = ok_json(&["solve", "canfield", "27", "--json"]);
    assert_eq!(
        passes(&lost),
        [
            pair("streamlined-over-positions", "exhausted"),
            pair("full-search", "lost")
        ]
    );
    // Chameleon deal 6 is lost by the laxer relaxed game's pass.
    let lost = ok_json(&[
        "solve",
        "chameleon",
        "6",
        "--node-limit",
        "1000000",
        "--json",
    ]);
    assert_eq!(passes(&lost), [pair("laxer-relaxed-game", "lost")]);
    // A win ends with the pass that found it; both relaxed games are won first.
    let won = ok_json(&["solve", "four-seasons", "2", "--json"]);
    let won = passes(&won);
    assert_eq!(
        won[..2],
        [
            pair("laxer-relaxed-game", "relaxed-win"),
            pair("placing-relaxed-game", "relaxed-win")
        ]
    );
    assert_eq!(won.last().map(|(_, ended)| ended.as_str()), Some("won"));
    // A limit: the pass it stopped says so, and the text has a line a pass.
    let (answer, text) = four_seasons_1_with(["--node-limit", "20000"]);
    let stopped = &answer["passes"]
        .as_array()
        .expect("passes")
        .last()
        .expect("a pass")
        .clone();
    assert_eq!(
        (&stopped["ended"], &stopped["limit"]),
        (&"stopped".into(), &"nodes".into())
    );
    passes(&answer);
    assert!(text.contains("\n  laxer relaxed game "), "{text}");
    assert!(
        text.contains("stopped: out of the nodes it was given\n"),
        "{text}"
    );
}

/// Four Seasons deal 1 solved with `limit` (a flag and its value), as JSON and as text.
fn four_seasons_1_with(limit: [&str; 2]) -> (Value, String) {
    let args = ["solve", "four-seasons", "1", limit[0], limit[1]];
    let answer = ok_json(&[&args[..], &["--json"]].concat());
    let text = String::from_utf8(ok(&args).stdout).expect("UTF-8");
    (answer, text)
}

#[test]
fn solve_stops_at_the_time_limit() {
    let (answer, text) = four_seasons_1_with(["--time-limit", "0.001"]);
    assert_eq!(answer["verdict"], "unknown");
    assert_eq!(answer["limit"], "time");
    assert_eq!(answer["line"], serde_json::json!([]));
    assert!(text.contains("unknown: the time limit"), "{text}");
}

/// Runs the binary for a second and a half, then sends it Ctrl-C (SIGINT), and gives what it printed.
fn interrupted(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(args)
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pid = rustix::process::Pid::from_child(&child);
    rustix::process::kill_process(pid, rustix::process::Signal::INT).expect("SIGINT");
    child.wait_with_output().expect("the binary ends")
}

/// Ctrl-C (SIGINT) stops a search that would run for minutes: the answer is printed, unknown, with what the
/// search did, and the program exits as one interrupted does. No progress line goes to a standard error that is
/// not a terminal.
#[test]
fn ctrl_c_stops_a_long_solve_with_its_answer() {
    for json in [true, false] {
        let mut args = vec!["solve", "canfield", "95"];
        if json {
            args.push("--json");
        }
        let out = interrupted(&args);
        assert_eq!(out.status.code(), Some(130), "{args:?}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        if json {
            let answer: Value = serde_json::from_str(&stdout).expect("JSON output");
            assert_eq!(answer["verdict"], "unknown");
            assert_eq!(answer["limit"], "cancelled");
            assert!(answer["stats"]["nodes"].as_u64() > Some(0), "{answer}");
        } else {
            assert!(
                stdout.contains("deal 95: unknown: stopped by Ctrl-C before the search decided"),
                "{stdout}"
            );
            assert!(stdout.contains("nodes searched"), "{stdout}");
        }
    }
}

/// Ctrl-C stops a stats run: the deals solved are summed up and in the results file, whole records only, and the
/// program exits as one interrupted; a run over them goes on from the file.
#[test]
fn ctrl_c_stops_a_stats_run_and_a_later_run_goes_on_from_its_file() {
    let file = temp("ctrl-c.jsonl");
    let out = interrupted(&[
        "stats",
        "four-seasons",
        "--deals",
        "1..5000",
        "--node-limit",
        "20000",
        "--threads",
        "1",
        "--out",
        &file,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let records = lines(&file);
    let solved = records.len();
    assert!((1..5000).contains(&solved), "{solved} records");
    assert!(
        stderr.contains(&format!(
            "stopped by Ctrl-C: {solved} of the 5000 deals to solve were solved"
        )),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        stdout.contains(&format!("Four Seasons (four-seasons): {solved} deals")),
        "{stdout}"
    );
    let last = records
        .iter()
        .map(|r| r["deal"].as_u64().expect("a deal"))
        .max()
        .expect("a record");
    let deals = format!("1..{}", last + 2);
    let again = ok(&[
        "stats",
        "four-seasons",
        "--deals",
        &deals,
        "--node-limit",
        "20000",
        "--out",
        &file,
    ]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("resuming: "), "{stderr}");
    assert_eq!(lines(&file).len() as u64, last + 2, "{stderr}");
}

#[test]
fn solve_stops_at_the_node_limit() {
    let (answer, text) = four_seasons_1_with(["--node-limit", "1000"]);
    assert_eq!(answer["verdict"], "unknown");
    assert_eq!(answer["limit"], "nodes");
    let nodes = answer["stats"]["nodes"].as_u64().expect("nodes");
    assert!((1000..20_000).contains(&nodes), "{nodes} nodes");
    assert!(
        text.contains("unknown: the node limit (1000) was reached"),
        "{text}"
    );
}

#[test]
fn solve_reads_a_position_and_refuses_bad_limits() {
    let start = temp("fortunes-favor-2.json");
    std::fs::write(
        &start,
        ok(&["deal", "fortunes-favor", "2", "--json"]).stdout,
    )
    .expect("write");
    let answer = ok_json(&["solve", "--position", &start, "--json"]);
    assert_eq!(answer["deal"], Value::Null);
    assert!(answer["verdict"].is_string());
    let error = fails(&["solve", "florentine", "1", "--time-limit=-1"]);
    assert!(error.contains("--time-limit"), "{error}");
    let error = fails(&["solve", "florentine", "1", "--memory", "0"]);
    assert!(error.contains("--memory"), "{error}");
    let error = fails(&["solve", "florentine", "1", "--node-limit", "0"]);
    assert!(error.contains("--node-limit 0"), "{error}");
    let error = fails(&["stats", "florentine", "--deals", "1", "--node-limit", "0"]);
    assert!(error.contains("--node-limit 0"), "{error}");
    for bad in ["-5", "many", "2.5"] {
        let out = patience(&["solve", "florentine", "1", &format!("--node-limit={bad}")]);
        assert!(!out.status.success(), "--node-limit {bad}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains("--node-limit"), "{error}");
    }
}

#[test]
fn a_node_limit_gives_the_same_records_on_every_run_and_a_higher_one_solves_the_unknown_again() {
    let run = |out: &str, nodes: &str| {
        ok(&[
            "stats",
            "four-seasons",
            "--deals",
            "1..4",
            "--threads",
            "2",
            "--node-limit",
            nodes,
            "--memory",
            "64",
            "--out",
            out,
        ])
    };
    let fields = |path: &str| -> Vec<(u64, String, u64, Value)> {
        let mut records: Vec<_> = lines(path)
            .into_iter()
            .map(|r| {
                let deal = r["deal"].as_u64().expect("a deal");
                let verdict = r["verdict"].as_str().expect("a verdict").to_string();
                (
                    deal,
                    verdict,
                    r["nodes"].as_u64().expect("nodes"),
                    r["limit"].clone(),
                )
            })
            .collect();
        records.sort_by_key(|r| r.0);
        records
    };
    let (first, second) = (temp("fs-nodes-1.jsonl"), temp("fs-nodes-2.jsonl"));
    run(&first, "20000");
    run(&second, "20000");
    let records = fields(&first);
    assert_eq!(
        records,
        fields(&second),
        "the same verdicts and nodes, deal by deal"
    );
    // Deal 1 needs far more nodes; deals 2 to 4 are won in fewer.
    assert_eq!(records[0].1, "unknown");
    assert_eq!(records[0].3, "nodes");
    assert!(records[1..].iter().all(|r| r.1 == "won"), "{records:?}");
    let again = run(&first, "40000");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains("1 left unknown by a lower time or node limit are solved again"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(
        stdout.contains("2 threads, 40000 nodes and 32 MiB a deal"),
        "{stdout}"
    );
    let same = run(&first, "40000");
    let stderr = String::from_utf8_lossy(&same.stderr);
    assert!(!stderr.contains("solved again"), "{stderr}");
}

#[test]
fn export_canfield_1_is_the_layout_of_deals_md() {
    let deal = ok_json(&["export", "canfield", "1", "--format", "solvitaire"]);
    assert_eq!(names(&deal["foundations"]), "JD");
    assert_eq!(
        names(&deal["reserve"]),
        "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC"
    );
    let tableau: Vec<String> = deal["tableau piles"]
        .as_array()
        .expect("piles")
        .iter()
        .map(names)
        .collect();
    assert_eq!(tableau, ["KS", "2S", "3H", "KH"]);
    assert_eq!(names(&deal["waste"]), "9D QD JS");
    assert_eq!(
        names(&deal["stock"]),
        "6H 2H 9C 6S 10C 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H 10H 4S 10D 3S 7S 4D AC 4H QH 10S 5C 4C 3C AH AS"
    );
    let mut keys: Vec<&str> = deal
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["foundations", "reserve", "stock", "tableau piles", "waste"]
    );
}

#[test]
fn export_refuses_what_solvitaire_cannot_express() {
    let error = fails(&["export", "gate", "1", "--format", "solvitaire"]);
    assert!(error.contains("2 reserve piles"), "{error}");
    let error = fails(&[
        "export",
        "selective-canfield",
        "1",
        "--format",
        "solvitaire",
    ]);
    assert!(error.contains("choice row"), "{error}");
}

#[test]
fn stats_writes_results_resumes_and_shards_merge_to_the_whole() {
    let whole = temp("ff-whole.jsonl");
    let args = |out: &str| {
        vec![
            "stats".to_string(),
            "fortunes-favor".into(),
            "--deals".into(),
            "1..20".into(),
            "--threads".into(),
            "2".into(),
            "--time-limit".into(),
            "2".into(),
            "--memory".into(),
            "64".into(),
            "--out".into(),
            out.to_string(),
            "--json".into(),
        ]
    };
    let run = |extra: &[&str], out: &str| {
        let mut all = args(out);
        all.extend(extra.iter().map(|s| s.to_string()));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        ok(&all)
    };
    let first = run(&[], &whole);
    let summary: Value = serde_json::from_slice(&first.stdout).expect("JSON");
    let game = &summary["games"][0];
    assert_eq!(game["game"], "fortunes-favor");
    assert_eq!(game["deals"], 20);
    let records = lines(&whole);
    assert_eq!(records.len(), 20);
    let mut deals: Vec<u64> = records.iter().filter_map(|r| r["deal"].as_u64()).collect();
    deals.sort_unstable();
    assert_eq!(deals, (1..=20).collect::<Vec<_>>());

    // Again: every deal is done already.
    let second = run(&[], &whole);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("resuming: 20 of 20"), "{stderr}");
    assert_eq!(lines(&whole).len(), 20);
    let again: Value = serde_json::from_slice(&second.stdout).expect("JSON");
    assert_eq!(again["games"][0]["won"], game["won"]);

    // A record cut short at the end is dropped with a warning and solved again.
    let text = std::fs::read_to_string(&whole).expect("read");
    let kept: Vec<&str> = text.lines().take(15).collect();
    std::fs::write(
        &whole,
        format!("{}\n{{\"game\":\"fortunes-fa", kept.join("\n")),
    )
    .expect("write");
    let third = run(&[], &whole);
    let stderr = String::from_utf8_lossy(&third.stderr);
    assert!(stderr.contains("warning:"), "{stderr}");
    assert!(stderr.contains("resuming: 15 of 20"), "{stderr}");
    assert_eq!(lines(&whole).len(), 20);

    // Two shards, merged, are the whole run.
    let one = temp("ff-shard-1.jsonl");
    let two = temp("ff-shard-2.jsonl");
    run(&["--shard", "1/2"], &one);
    run(&["--shard", "2/2"], &two);
    let odd: Vec<u64> = lines(&one)
        .iter()
        .filter_map(|r| r["deal"].as_u64())
        .collect();
    assert!(odd.iter().all(|d| d % 2 == 1), "{odd:?}");
    assert_eq!(odd.len(), 10);
    let merged = ok_json(&["stats", "merge", &one, &two, "--json"]);
    let merged = &merged["games"][0];
    for key in ["deals", "won", "lost", "unknown"] {
        assert_eq!(merged[key], game[key], "{key}");
    }
    assert_eq!(merged["win_rate"], game["win_rate"]);
}

#[test]
fn deals_left_unknown_by_a_shorter_time_limit_are_solved_again() {
    let out = temp("ff-deeper.jsonl");
    let run = |limit: &str| {
        ok(&[
            "stats",
            "fortunes-favor",
            "--deals",
            "1..3",
            "--threads",
            "1",
            "--time-limit",
            limit,
            "--memory",
            "64",
            "--out",
            &out,
            "--json",
        ])
    };
    let summary = |output: &Output| -> Value {
        let all: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        all["games"][0].clone()
    };
    // A microsecond stops every search before it starts.
    let first = run("0.000001");
    assert_eq!(summary(&first)["unknown"], 3);
    let shallow = temp("ff-shallow.jsonl");
    std::fs::copy(&out, &shallow).expect("copy");
    let deeper = run("2");
    let stderr = String::from_utf8_lossy(&deeper.stderr);
    assert!(
        stderr.contains("3 left unknown by a lower time or node limit are solved again"),
        "{stderr}"
    );
    assert_eq!(summary(&deeper)["won"], 3);
    assert_eq!(summary(&deeper)["unknown"], 0);
    // The unknown records stay in the file; the verdicts after them are the ones that count, here and in a merge.
    assert_eq!(lines(&out).len(), 6);
    let again = run("2");
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("resuming: 3 of 3"), "{stderr}");
    assert!(!stderr.contains("solved again"), "{stderr}");
    assert_eq!(lines(&out).len(), 6);
    let merged = ok_json(&["stats", "merge", &out, "--json"]);
    assert_eq!(merged["games"][0]["won"], 3);
    // A limit no longer than the unknown deals had solves nothing again.
    let rerun = ok(&[
        "stats",
        "fortunes-favor",
        "--deals",
        "1..3",
        "--time-limit",
        "0.000001",
        "--out",
        &shallow,
    ]);
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(!stderr.contains("solved again"), "{stderr}");
    assert_eq!(lines(&shallow).len(), 3);
}

#[test]
fn merge_refuses_records_that_disagree() {
    let a = temp("disagree-a.jsonl");
    let b = temp("disagree-b.jsonl");
    let record = |verdict: &str| {
        format!(
            r#"{{"game":"canfield","deal":7,"verdict":"{verdict}","limit":null,"moves":null,"nodes":5,"seconds":0.1}}"#
        ) + "\n"
    };
    std::fs::write(&a, record("won")).expect("write");
    std::fs::write(&b, record("lost")).expect("write");
    let error = fails(&["stats", "merge", &a, &b]);
    assert!(error.contains("deal 7 of canfield"), "{error}");
}

#[test]
fn stats_refuses_bad_deals_and_shards() {
    for (flag, value, words) in [
        ("--deals", "10..1", "the first deal is after the last"),
        ("--deals", "0..5", "0 is not a deal"),
        ("--deals", "many", "expected deal numbers"),
        ("--shard", "3/2", "1 ≤ I ≤ N"),
        ("--shard", "half", "expected a shard I/N"),
    ] {
        let mut args = vec![
            "stats",
            "fortunes-favor",
            "--deals",
            "1..3",
            "--out",
            "never.jsonl",
        ];
        if flag == "--deals" {
            args[3] = value;
        } else {
            args.extend([flag, value]);
        }
        let error = fails(&args);
        assert!(error.contains(flag), "{error}");
        assert!(error.contains(words), "{error}");
    }
}

#[test]
fn stats_plots_an_svg_chart() {
    let svg = temp("rates.svg");
    let out = temp("plot-{game}.jsonl");
    ok(&[
        "stats",
        "fortunes-favor",
        "--deals",
        "1..4",
        "--time-limit",
        "1",
        "--memory",
        "64",
        "--out",
        &out,
        "--plot",
        &svg,
    ]);
    let text = std::fs::read_to_string(&svg).expect("an SVG file");
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.contains("fortunes-favor"), "{text}");
    assert!(text.contains("Win rate (%)"), "{text}");
    assert!(text.trim_end().ends_with("</svg>"));
    // Well-formed, with nothing but elements under the root: a raw string closed too early once left source code
    // between two elements, which a browser hides and an XML reader keeps.
    let document = roxmltree::Document::parse(&text).expect("well-formed XML");
    let stray: Vec<&str> = document
        .root_element()
        .children()
        .filter(|node| node.is_text())
        .filter_map(|node| node.text())
        .filter(|text| !text.trim().is_empty())
        .collect();
    assert!(
        stray.is_empty(),
        "text outside the chart's elements: {stray:?}"
    );
    assert!(PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("plot-fortunes-favor.jsonl")
        .exists());
}

#[test]
fn stats_prints_a_markdown_table_a_row_a_game() {
    let out = temp("table-{game}.jsonl");
    let printed = ok(&[
        "stats",
        "fortunes-favor",
        "florentine",
        "--deals",
        "1..3",
        "--time-limit",
        "1",
        "--memory",
        "64",
        "--out",
        &out,
        "--markdown",
    ]);
    let text = String::from_utf8(printed.stdout).expect("UTF-8");
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| ---"))
        .collect();
    assert_eq!(rows.len(), 3, "a header and a row a game:\n{text}");
    assert!(rows[0].contains("95 % interval"), "{text}");
    assert!(
        rows[1].starts_with("| Fortune's Favor (fortunes-favor) | 3 | 0 | 0 |"),
        "{text}"
    );
    assert!(rows[2].contains("(florentine)"), "{text}");
    assert!(text.starts_with("Deals 1..3, 1 s a deal"), "{text}");
}

#[test]
fn resolve_solves_the_first_undecided_deals_again_and_estimates_the_rate_from_them() {
    let out = temp("cham-run.jsonl");
    let again = temp("cham-again.jsonl");
    let args = [
        "--json",
        "stats",
        "chameleon",
        "--deals",
        "1..40",
        "--threads",
        "2",
        "--node-limit",
        "20000",
        "--memory",
        "256",
        "--out",
        &out,
        "--resolve",
        "6",
        "--resolve-node-limit",
        "3000000",
        "--resolve-out",
        &again,
    ];
    let report = ok_json(&args);
    let game = &report["games"][0];
    let resolved = &game["resolved"];
    let undecided = game["unknown"].as_u64().expect("a count");
    assert!(
        undecided >= 6,
        "{undecided} undecided deals at 20,000 nodes"
    );
    assert_eq!(resolved["undecided"], undecided);
    // The first six undecided deals by number, solved again into their own file.
    let mut first: Vec<u64> = lines(&out)
        .iter()
        .filter(|r| r["verdict"] == "unknown")
        .filter_map(|r| r["deal"].as_u64())
        .collect();
    first.sort_unstable();
    first.truncate(6);
    let picked: Vec<u64> = resolved["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(picked, first);
    let records = lines(&again);
    assert_eq!(records.len(), 6);
    let sample = &resolved["sample"];
    let count = |verdict: &str| records.iter().filter(|r| r["verdict"] == verdict).count() as u64;
    assert_eq!(sample["won"], count("won"));
    assert_eq!(sample["lost"], count("lost"));
    assert_eq!(sample["unknown"], count("unknown"));
    assert!(count("won") + count("lost") > 0, "{records:?}");
    // The estimate lies within the conservative interval, and is narrower.
    let (low, high) = (
        resolved["win_rate"]["interval"]["low"]
            .as_f64()
            .expect("low"),
        resolved["win_rate"]["interval"]["high"]
            .as_f64()
            .expect("high"),
    );
    let (wide_low, wide_high) = (
        game["win_rate"]["interval"]["low"].as_f64().expect("low"),
        game["win_rate"]["interval"]["high"].as_f64().expect("high"),
    );
    assert!(wide_low <= low && high <= wide_high && high - low < wide_high - wide_low);

    // Run again: nothing to solve, the same estimate.
    let rerun = patience(&args);
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert!(
        stderr.contains("resuming: 6 of 6 deals of chameleon"),
        "{stderr}"
    );
    let rerun: Value = serde_json::from_slice(&rerun.stdout).expect("JSON");
    assert_eq!(rerun["games"][0]["resolved"], *resolved);
    assert_eq!(lines(&again).len(), 6);

    // In text.
    let text = String::from_utf8(ok(&args[1..]).stdout).expect("UTF-8");
    assert!(text.contains("solved again: the first 6 of its"), "{text}");
    assert!(text.contains("estimated win rate"), "{text}");

    // A merge of the two files gives the same estimate.
    let merged = ok_json(&["stats", "merge", &out, "--resolved", &again, "--json"]);
    let merged = &merged["games"][0]["resolved"];
    assert_eq!(merged["win_rate"], resolved["win_rate"]);
    assert_eq!(merged["deals"], resolved["deals"]);
    assert!(merged.get("file").is_none());
}

/// A results file of `game` written by hand, one record a `(deal, verdict)`.
fn write_records(path: &str, game: &str, records: &[(u64, &str)]) {
    let text: String = records
        .iter()
        .map(|(deal, verdict)| {
            let limit = if *verdict == "unknown" { r#""nodes""# } else { "null" };
            format!(
                r#"{{"game":"{game}","deal":{deal},"verdict":"{verdict}","limit":{limit},"moves":null,"nodes":5,"seconds":0.1}}"#
            ) + "\n"
        })
        .collect();
    std::fs::write(path, text).expect("write");
}

#[test]
fn the_summary_says_how_long_the_deals_of_each_verdict_took() {
    let path = temp("verdict-times.jsonl");
    write_records(&path, "canfield", &[(1, "won"), (2, "won"), (3, "unknown")]);
    let text = String::from_utf8(ok(&["stats", "merge", &path]).stdout).expect("UTF-8");
    assert!(
        text.contains("  time in all:    0.3 s (the deals won 0.2 s, lost 0.0 s, unknown 0.1 s)\n"),
        "{text}"
    );
    let json = ok_json(&["stats", "merge", &path, "--json"]);
    let by = &json["games"][0]["seconds_by_verdict"];
    for (verdict, seconds) in [("won", 0.2), ("lost", 0.0), ("unknown", 0.1)] {
        let got = by[verdict].as_f64().expect("seconds");
        assert!((got - seconds).abs() < 1e-9, "{verdict}: {got}");
    }
}

#[test]
fn merge_estimates_from_the_shards_deals_solved_again_and_leaves_out_what_follows_a_gap() {
    // Deals 1..12 in two shards (odd and even deals); each shard solved its first three undecided deals again.
    let odd = temp("gap-odd.jsonl");
    let even = temp("gap-even.jsonl");
    let odd_again = temp("gap-odd-again.jsonl");
    let even_again = temp("gap-even-again.jsonl");
    write_records(
        &odd,
        "chameleon",
        &[
            (1, "unknown"),
            (3, "won"),
            (5, "unknown"),
            (7, "unknown"),
            (9, "lost"),
            (11, "unknown"),
        ],
    );
    write_records(
        &even,
        "chameleon",
        &[
            (2, "unknown"),
            (4, "unknown"),
            (6, "lost"),
            (8, "unknown"),
            (10, "won"),
            (12, "unknown"),
        ],
    );
    write_records(
        &odd_again,
        "chameleon",
        &[(1, "won"), (5, "lost"), (7, "won"), (11, "lost")],
    );
    write_records(
        &even_again,
        "chameleon",
        &[(2, "lost"), (4, "won"), (8, "unknown")],
    );
    // The two shards merged with `flags` and the files of deals solved again `files`.
    let merge_with = |flags: &[&str], files: &[&str]| {
        let mut args = vec!["stats", "merge", &odd, &even];
        args.extend_from_slice(flags);
        args.push("--resolved");
        args.extend_from_slice(files);
        patience(&args)
    };
    let merge = |files: &[&str]| merge_with(&["--json"], files);
    let answer = merge(&[&odd_again, &even_again]);
    assert!(answer.status.success());
    assert!(
        answer.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&answer.stderr)
    );
    let report: Value = serde_json::from_slice(&answer.stdout).expect("JSON");
    let game = &report["games"][0];
    assert_eq!(
        (game["won"].as_u64(), game["unknown"].as_u64()),
        (Some(2), Some(8))
    );
    let resolved = &game["resolved"];
    assert_eq!(resolved["undecided"], 8);
    assert_eq!(resolved["deals"], serde_json::json!([1, 2, 4, 5, 7, 8, 11]));
    assert_eq!(
        resolved["sample"],
        serde_json::json!({"won": 3, "lost": 3, "unknown": 1})
    );
    let expected = patience_solver::stats::WinRate::with_sample(
        2,
        2,
        8,
        patience_solver::stats::Sample {
            won: 3,
            lost: 3,
            unknown: 1,
        },
    );
    assert_eq!(resolved["win_rate"]["point"].as_f64(), Some(expected.point));

    // The odd shard was stopped while solving deal 7 again, after deal 11 was done: deal 11 is left out, and said
    // so.
    write_records(
        &odd_again,
        "chameleon",
        &[(1, "won"), (5, "lost"), (11, "lost")],
    );
    let answer = merge(&[&odd_again, &even_again]);
    let stderr = String::from_utf8_lossy(&answer.stderr);
    assert!(stderr.contains("deal 7 of chameleon"), "{stderr}");
    assert!(stderr.contains("the 1 after it are left out"), "{stderr}");
    let report: Value = serde_json::from_slice(&answer.stdout).expect("JSON");
    assert_eq!(
        report["games"][0]["resolved"]["deals"],
        serde_json::json!([1, 2, 4, 5, 8])
    );

    // Deals decided in the results files, or not in them, are no part of the sample.
    write_records(
        &odd_again,
        "chameleon",
        &[
            (1, "won"),
            (3, "won"),
            (5, "lost"),
            (7, "won"),
            (11, "lost"),
            (40, "won"),
        ],
    );
    let answer = merge(&[&odd_again, &even_again]);
    let stderr = String::from_utf8_lossy(&answer.stderr);
    assert!(
        stderr.contains(
            "not undecided in the results files (decided there, or not there at all): 2;"
        ),
        "{stderr}"
    );

    // In text, and on the chart.
    let svg = temp("gap.svg");
    let plotted = merge_with(&["--plot", &svg], &[&odd_again, &even_again]);
    assert!(plotted.status.success());
    let text = String::from_utf8(plotted.stdout).expect("UTF-8");
    assert!(
        text.contains("solved again: 7 of its 8 undecided deals: won 3, lost 3, unknown 1"),
        "{text}"
    );
    assert!(std::fs::read_to_string(&svg)
        .expect("a chart")
        .contains("Diamonds"));

    // As a Markdown table.
    let tabled = merge_with(&["--markdown"], &[&odd_again, &even_again]);
    assert!(tabled.status.success());
    let table = String::from_utf8(tabled.stdout).expect("UTF-8");
    assert!(
        table.starts_with("Merged: 12 records from 2 files"),
        "{table}"
    );
    assert!(
        table.contains("| Chameleon (chameleon) | 2 | 2 | 8 | 16.7 % |"),
        "{table}"
    );
    assert!(table.contains(" 3 / 3 / 1 | "), "{table}");

    // A game with none of its deals solved again has no estimate.
    let none = temp("gap-none-again.jsonl");
    write_records(&none, "gate", &[(1, "won")]);
    let answer = merge_with(&[], &[&none]);
    let text = String::from_utf8_lossy(&answer.stdout);
    assert!(
        text.contains("solved again: none of its 8 undecided deals, so no estimate"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&answer.stderr).contains("deals of gate"));

    // A file both merged and taken as solved again is refused.
    let error = fails(&["stats", "merge", &odd, &even, "--resolved", &odd]);
    assert!(error.contains("also one of the results files"), "{error}");
}

#[test]
fn resolve_refuses_what_cannot_give_an_estimate() {
    let base = [
        "stats",
        "chameleon",
        "--deals",
        "1..3",
        "--node-limit",
        "1000",
    ];
    let with = |extra: &[&str]| {
        let mut all = base.to_vec();
        all.extend_from_slice(extra);
        fails(&all)
    };
    assert!(with(&["--resolve", "0", "--resolve-node-limit", "5000"]).contains("--resolve 0"));
    assert!(with(&["--resolve", "2"]).contains("--resolve-node-limit NODES"));
    assert!(with(&["--resolve", "2", "--resolve-node-limit", "1000"])
        .contains("must be more than --node-limit 1000"));
    assert!(
        with(&["--resolve", "2", "--resolve-node-limit", "0"]).contains("--resolve-node-limit 0")
    );
    let same = temp("cham-same.jsonl");
    let error = with(&[
        "--out",
        &same,
        "--resolve",
        "2",
        "--resolve-node-limit",
        "5000",
        "--resolve-out",
        &same,
    ]);
    assert!(error.contains("a file of their own"), "{error}");
    assert!(
        !PathBuf::from(&same).exists(),
        "nothing solved before the refusal"
    );
    let unlimited = fails(&[
        "stats",
        "chameleon",
        "--deals",
        "1..3",
        "--resolve",
        "2",
        "--resolve-node-limit",
        "5000",
    ]);
    assert!(unlimited.contains("no time or node limit"), "{unlimited}");
    // The --resolve-* options need --resolve.
    let out = patience(&[
        "stats",
        "chameleon",
        "--deals",
        "1..3",
        "--node-limit",
        "1000",
        "--resolve-node-limit",
        "5000",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn resolve_with_no_deal_undecided_says_so() {
    let out = temp("ff-resolve-none.jsonl");
    let again = temp("ff-resolve-none-again.jsonl");
    let text = String::from_utf8(
        ok(&[
            "stats",
            "fortunes-favor",
            "--deals",
            "1..3",
            "--threads",
            "1",
            "--node-limit",
            "100000",
            "--out",
            &out,
            "--resolve",
            "2",
            "--resolve-node-limit",
            "200000",
            "--resolve-out",
            &again,
        ])
        .stdout,
    )
    .expect("UTF-8");
    assert!(text.contains("won 3, lost 0, unknown 0"), "{text}");
    assert!(
        text.contains("solved again: none, no deal is undecided"),
        "{text}"
    );
}
