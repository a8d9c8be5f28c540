//! `patience solve GAME NUMBER` (or `--position FILE`): won with the whole winning line, proved lost, or unknown
//! with the limit that stopped the search; and what the search cost. While it searches, a line on standard error
//! (when it is a terminal) shows how far it has gone, and Ctrl-C stops it with that answer.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use anyhow::bail;
use indicatif::{ProgressBar, ProgressStyle};
use patience_core::{Move, Position, RuleSet};
use patience_solver::{
    solve_watched, Limit, Limits, PassKind, PassReport, Progress, Report, Verdict,
};
use serde::Serialize;

use crate::render::describe_move;
use crate::{ctrl_c, input, output, SolveArgs};

/// What every answer says about the solver, since it sees cards a player cannot.
pub const THOUGHTFUL: &str =
    "The solver is thoughtful: it knows the order of the stock and of the face-down reserve cards.";

/// The answer as `patience solve --json` writes it.
#[derive(Debug, Serialize)]
struct SolveJson<'a> {
    game: &'a str,
    /// The deal number, `null` for a position read from a file.
    deal: Option<u64>,
    /// `won`, `lost` or `unknown`.
    verdict: &'static str,
    /// For `unknown`: `time`, `memory`, `nodes` or `cancelled`.
    limit: Option<Limit>,
    /// The winning line in the notation (empty unless won).
    line: Vec<String>,
    /// The winning line as move objects.
    moves: &'a [Move],
    stats: Stats,
    /// What each pass of the search did: `pass`, `runs`, `nodes`, `beam_nodes`, `ended` (and `limit` where a
    /// limit stopped it).
    passes: &'a [PassReport],
    /// Always true: the solver knows the order of the stock and of the face-down reserve cards.
    thoughtful: bool,
}

/// What the search cost.
#[derive(Debug, Serialize)]
struct Stats {
    nodes: u64,
    stored: usize,
    seconds: f64,
    table_bytes: usize,
}

/// Runs the command.
pub fn run(args: &SolveArgs, json: bool) -> anyhow::Result<()> {
    let (rules, position, number) = input::deal_or_position(&args.what)?;
    let limits = Limits {
        time: input::time_limit(args.time_limit)?,
        memory_bytes: input::memory_bytes(args.memory)?,
        nodes: input::node_limit(args.node_limit)?,
    };
    let report = solve_showing_progress(&rules, &position, &limits);
    let line: &[Move] = match &report.verdict {
        Verdict::Won(line) => line,
        _ => &[],
    };
    let described = replay(&rules, &position, line)?;
    let printed = if json {
        output::print_json(&SolveJson {
            game: &rules.id,
            deal: number,
            verdict: verdict_word(&report.verdict),
            limit: match report.verdict {
                Verdict::Unknown(limit) => Some(limit),
                _ => None,
            },
            line: line.iter().map(ToString::to_string).collect(),
            moves: line,
            stats: Stats {
                nodes: report.nodes,
                stored: report.stored,
                seconds: report.elapsed.as_secs_f64(),
                table_bytes: report.table_bytes,
            },
            passes: &report.passes,
            thoughtful: true,
        })
    } else {
        output::print(&answer_text(&rules, number, &report, &limits, &described))
    };
    printed?;
    if report.verdict == Verdict::Unknown(Limit::Cancelled) {
        // The answer is printed: the status says the program was interrupted, so that a script running it stops.
        return Err(ctrl_c::Stopped.into());
    }
    Ok(())
}

/// The answer in text: the verdict, the winning line numbered with each move's cards, and what the search cost.
fn answer_text(
    rules: &RuleSet,
    number: Option<u64>,
    report: &Report,
    limits: &Limits,
    described: &[(String, String)],
) -> String {
    let what = match number {
        Some(n) => format!("{} ({}), deal {n}", rules.name, rules.id),
        None => format!("{} ({}), the position given", rules.name, rules.id),
    };
    let mut text = format!("{what}: {}\n{THOUGHTFUL}\n", headline(report, limits));
    if !described.is_empty() {
        text.push('\n');
        let width = described.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        let digits = described.len().to_string().len();
        for (i, (notation, words)) in described.iter().enumerate() {
            text.push_str(&format!(
                "{:>digits$}. {notation:width$}  ({words})\n",
                i + 1
            ));
        }
    }
    text.push('\n');
    text.push_str(&cost(report));
    text.push_str(&passes_text(&report.passes));
    text
}

/// What each pass did, a line each: its nodes, the beams' among them, and how it ended.
fn passes_text(passes: &[PassReport]) -> String {
    let width = passes
        .iter()
        .map(|p| p.pass.name().len())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for pass in passes {
        let runs = if pass.runs > 1 {
            format!(" in {} runs", pass.runs)
        } else {
            String::new()
        };
        let beams = if pass.beam_nodes > 0 && pass.pass != PassKind::BeamsAlone {
            format!(" (the beams' {})", pass.beam_nodes)
        } else {
            String::new()
        };
        text.push_str(&format!(
            "  {:width$}  {} nodes{runs}{beams}: {}\n",
            pass.pass.name(),
            pass.nodes,
            pass.ended.words()
        ));
    }
    text
}

/// Solves on a thread of its own while this one shows how far the search has gone, on standard error when it is
/// a terminal; Ctrl-C stops the search, which then reports what it did.
fn solve_showing_progress(rules: &RuleSet, position: &Position, limits: &Limits) -> Report {
    ctrl_c::catch();
    let progress = Progress::default();
    let shown = progress_line();
    let start = Instant::now();
    let report = std::thread::scope(|scope| {
        // The search's end (or its panic) drops `done`, which wakes this thread at once: a quick search is answered
        // then, not at the next redraw.
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let watched = &progress;
        let search = scope.spawn(move || {
            let _done = done;
            solve_watched(rules, position, limits, &ctrl_c::PRESSED, watched)
        });
        while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(Duration::from_millis(100))
        {
            shown.set_message(progress_words(&progress, start.elapsed()));
        }
        search
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    shown.finish_and_clear();
    report
}

/// A spinning line on standard error, hidden when it is not a terminal.
fn progress_line() -> ProgressBar {
    let line = ProgressBar::with_draw_target(None, output::progress_target());
    // Cut to the terminal's width: a line that wraps is drawn again below itself.
    if let Ok(style) = ProgressStyle::with_template("{spinner} {wide_msg}") {
        line.set_style(style);
    }
    line.enable_steady_tick(Duration::from_millis(100));
    line
}

/// How far the search has gone, in words: time, nodes and their rate, what its table holds.
fn progress_words(progress: &Progress, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let nodes = progress.nodes();
    format!(
        "searching: {seconds:.0} s, {} nodes ({}/s), {} stored, table {}; Ctrl-C stops it",
        count(nodes as f64),
        count(nodes as f64 / seconds.max(1e-3)),
        count(progress.stored() as f64),
        bytes(progress.table_bytes() as usize)
    )
}

/// A count for people: `950`, `12.5 k`, `3.4 M`, `1.2 G`.
fn count(n: f64) -> String {
    if n < 1e3 {
        format!("{n:.0}")
    } else if n < 1e6 {
        format!("{:.1} k", n / 1e3)
    } else if n < 1e9 {
        format!("{:.1} M", n / 1e6)
    } else {
        format!("{:.1} G", n / 1e9)
    }
}

/// `won`, `lost` or `unknown`.
pub fn verdict_word(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Won(_) => "won",
        Verdict::Lost => "lost",
        Verdict::Unknown(_) => "unknown",
    }
}

/// The limit's name, as the JSON and the results files write it.
pub fn limit_word(limit: Limit) -> &'static str {
    match limit {
        Limit::Time => "time",
        Limit::Memory => "memory",
        Limit::Nodes => "nodes",
        Limit::Cancelled => "cancelled",
    }
}

/// The verdict in words.
fn headline(report: &Report, limits: &Limits) -> String {
    match &report.verdict {
        Verdict::Won(line) => format!(
            "won, in {} {}",
            line.len(),
            if line.len() == 1 { "move" } else { "moves" }
        ),
        Verdict::Lost => "lost: proved, no line of moves wins".to_string(),
        Verdict::Unknown(Limit::Time) => format!(
            "unknown: the time limit ({} s) was reached before the search decided",
            limits.time.map_or(0.0, |t| t.as_secs_f64())
        ),
        Verdict::Unknown(Limit::Nodes) => format!(
            "unknown: the node limit ({}) was reached before the search decided",
            limits.nodes.unwrap_or(0)
        ),
        Verdict::Unknown(Limit::Memory) => format!(
            "unknown: the memory limit ({} MiB) was reached before the search decided",
            limits.memory_bytes >> 20
        ),
        Verdict::Unknown(Limit::Cancelled) => {
            "unknown: stopped by Ctrl-C before the search decided".to_string()
        }
    }
}

/// Nodes, positions stored, time and table memory, on one line.
fn cost(report: &Report) -> String {
    format!(
        "nodes searched {}, positions stored {}, time {:.3} s, peak table memory {}\n",
        report.nodes,
        report.stored,
        report.elapsed.as_secs_f64(),
        bytes(report.table_bytes)
    )
}

/// A number of bytes for people: `512 B`, `12.5 KiB`, `1.2 MiB`, `3.0 GiB`.
fn bytes(n: usize) -> String {
    let n = n as f64;
    if n < 1024.0 {
        format!("{n} B")
    } else if n < 1024.0 * 1024.0 {
        format!("{:.1} KiB", n / 1024.0)
    } else if n < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", n / (1024.0 * 1024.0))
    } else {
        format!("{:.1} GiB", n / (1024.0 * 1024.0 * 1024.0))
    }
}

/// Plays the line through the rules engine, giving each move's notation and the cards it moves. A move the
/// engine refuses is a bug in the solver, reported as an error.
fn replay(
    rules: &RuleSet,
    start: &Position,
    line: &[Move],
) -> anyhow::Result<Vec<(String, String)>> {
    let mut position = *start;
    let mut described = Vec::with_capacity(line.len());
    for (i, &mv) in line.iter().enumerate() {
        let words = describe_move(&position, mv);
        if let Err(e) = position.play(rules, mv) {
            bail!(
                "the solver's line does not replay: move {} `{mv}` is illegal: {}",
                i + 1,
                e.reason
            );
        }
        described.push((mv.to_string(), words));
    }
    if !line.is_empty() && !position.is_won() {
        bail!("the solver's line does not win: after it the game is not won");
    }
    Ok(described)
}
