//! `patience bench-limits`, hidden: measures how well the solver keeps to its limits, for the figures in
//! `docs/reliability.md`.
//!
//! - **Memory**: a hard deal is solved with each `--memory` budget and a time limit long enough for the table to
//!   fill, each in a process of its own, which reports its peak resident memory (`VmHWM` of
//!   `/proc/self/status`) after the search, and its resident memory before it (what the program takes without a
//!   table).
//! - **Time**: hard deals are solved with each `--time-limit`, several runs each, and the elapsed time (the
//!   search's own, and the whole process's as the parent sees it) is compared with the limit; medians and the
//!   worst run are printed.
//!
//! Each solve runs in a child process (this program again, with hidden arguments), as `patience solve` would
//! run, so that one solve's memory does not count in another's peak.

use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use patience_solver::{solve, Limits, Verdict};
use serde::{Deserialize, Serialize};

use crate::cmd::solve::{limit_word, verdict_word};
use crate::{input, output, BenchLimitsArgs};

/// Runs the command: the child's one solve with `--one-deal`, else the whole benchmark.
pub fn run(args: &BenchLimitsArgs, json: bool) -> anyhow::Result<()> {
    if let Some(deal) = &args.one_deal {
        return one(args, deal);
    }
    if args.runs == 0 {
        bail!("--runs 0: at least one run of each time limit is needed");
    }
    let mut report = Report {
        game: args.game.clone(),
        memory: Vec::new(),
        time: Vec::new(),
    };
    for &mib in &args.memory {
        let run = child(&args.game, &args.memory_deal, args.memory_time_limit, mib)?;
        let budget_kib = mib * 1024;
        report.memory.push(MemoryRun {
            deal: args.memory_deal.clone(),
            budget_mib: mib,
            peak_rss_mib: run.solve.peak_rss_kib.map(|k| k as f64 / 1024.0),
            rss_before_mib: run.solve.rss_before_kib.map(|k| k as f64 / 1024.0),
            peak_rss_within_budget: run.solve.peak_rss_kib.map(|k| k <= budget_kib),
            table_mib: run.solve.table_bytes as f64 / f64::from(1 << 20),
            stored: run.solve.stored,
            verdict: run.solve.verdict.clone(),
            limit: run.solve.limit.clone(),
            seconds: run.solve.seconds,
        });
        if !json {
            eprintln!("memory {mib} MiB: done");
        }
    }
    for &seconds in &args.time_limit {
        for deal in &args.time_deals {
            let mut solver = Vec::new();
            let mut process = Vec::new();
            let mut verdicts = Vec::new();
            let mut worst: Option<f64> = None;
            for _ in 0..args.runs {
                let run = child(&args.game, deal, seconds, args.time_memory)?;
                solver.push(run.solve.seconds);
                process.push(run.wall_seconds);
                verdicts.push(match &run.solve.limit {
                    Some(limit) => format!("{} ({limit})", run.solve.verdict),
                    None => run.solve.verdict.clone(),
                });
                // Only a search the time limit stopped says how well it is kept.
                if run.solve.limit.as_deref() == Some("time") {
                    let over = (run.wall_seconds / seconds - 1.0) * 100.0;
                    worst = Some(worst.map_or(over, |w| w.max(over)));
                }
            }
            verdicts.sort();
            verdicts.dedup();
            report.time.push(TimeRun {
                deal: deal.clone(),
                limit_seconds: seconds,
                runs: args.runs,
                verdicts,
                solver_median: median(&mut solver),
                solver_max: solver.iter().copied().fold(0.0, f64::max),
                process_median: median(&mut process),
                process_max: process.iter().copied().fold(0.0, f64::max),
                worst_over_percent: worst,
            });
            if !json {
                eprintln!("time limit {seconds} s, deal {deal}: done");
            }
        }
    }
    if json {
        output::print_json(&report)
    } else {
        output::print(&report.text())
    }
}

/// What the benchmark found.
#[derive(Debug, Serialize)]
struct Report {
    game: String,
    memory: Vec<MemoryRun>,
    time: Vec<TimeRun>,
}

/// One memory budget's run.
#[derive(Debug, Serialize)]
struct MemoryRun {
    deal: String,
    budget_mib: u64,
    /// The process's peak resident memory (`VmHWM`), `null` where `/proc` cannot say.
    peak_rss_mib: Option<f64>,
    /// Its resident memory before the search: the program without a table.
    rss_before_mib: Option<f64>,
    peak_rss_within_budget: Option<bool>,
    /// The table's slots at its largest.
    table_mib: f64,
    stored: usize,
    verdict: String,
    limit: Option<String>,
    seconds: f64,
}

/// One time limit's runs on one deal.
#[derive(Debug, Serialize)]
struct TimeRun {
    deal: String,
    limit_seconds: f64,
    runs: usize,
    /// The verdicts seen (`unknown (time)` when the limit stopped the search).
    verdicts: Vec<String>,
    /// The search's own elapsed time.
    solver_median: f64,
    solver_max: f64,
    /// The whole process's, from its start to its exit.
    process_median: f64,
    process_max: f64,
    /// How far the slowest process the time limit stopped went past the limit, in percent of it (`null` when
    /// every run was decided first).
    worst_over_percent: Option<f64>,
}

impl Report {
    fn text(&self) -> String {
        let mut text = format!("{}: memory\n", self.game);
        text.push_str(
            "  deal  budget MiB  verdict          stored keys  table MiB  RSS before MiB  peak RSS MiB  seconds\n",
        );
        for m in &self.memory {
            let verdict = match &m.limit {
                Some(limit) => format!("{} ({limit})", m.verdict),
                None => m.verdict.clone(),
            };
            let mib = |v: Option<f64>| v.map_or("?".to_string(), |v| format!("{v:.1}"));
            text.push_str(&format!(
                "  {:>4}  {:>10}  {verdict:<15}  {:>11}  {:>9.1}  {:>14}  {:>12}  {:>7.1}\n",
                m.deal,
                m.budget_mib,
                m.stored,
                m.table_mib,
                mib(m.rss_before_mib),
                mib(m.peak_rss_mib),
                m.seconds
            ));
        }
        text.push_str(&format!("{}: time limits\n", self.game));
        text.push_str(
            "  limit s  deal  runs  solver median  solver max  process median  process max  worst over\n",
        );
        for t in &self.time {
            text.push_str(&format!(
                "  {:>7}  {:>4}  {:>4}  {:>13.3}  {:>10.3}  {:>14.3}  {:>11.3}  {:>10}   {}\n",
                t.limit_seconds,
                t.deal,
                t.runs,
                t.solver_median,
                t.solver_max,
                t.process_median,
                t.process_max,
                t.worst_over_percent
                    .map_or("-".to_string(), |w| format!("{w:.1} %")),
                t.verdicts.join(", ")
            ));
        }
        text
    }
}

/// What the child reports of its one solve.
#[derive(Debug, Serialize, Deserialize)]
struct OneSolve {
    verdict: String,
    limit: Option<String>,
    nodes: u64,
    stored: usize,
    table_bytes: usize,
    seconds: f64,
    rss_before_kib: Option<u64>,
    peak_rss_kib: Option<u64>,
}

/// A child's solve, and the process's wall-clock time.
struct ChildRun {
    solve: OneSolve,
    wall_seconds: f64,
}

/// Solves `deal` in a child process with these limits.
fn child(game: &str, deal: &str, seconds: f64, mib: u64) -> anyhow::Result<ChildRun> {
    let exe = std::env::current_exe().context("cannot find this program to run it again")?;
    let start = Instant::now();
    let out = Command::new(exe)
        .args(["bench-limits", "--game", game, "--one-deal", deal])
        .args(["--one-time-limit", &seconds.to_string()])
        .args(["--one-memory", &mib.to_string()])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .context("cannot run the solve")?;
    let wall_seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        bail!("the solve of {game} {deal} failed ({})", out.status);
    }
    let solve = serde_json::from_slice(&out.stdout)
        .map_err(|e| anyhow!("the solve of {game} {deal} answered no report: {e}"))?;
    Ok(ChildRun {
        solve,
        wall_seconds,
    })
}

/// The child: one solve, as `patience solve` makes it, and its cost as JSON.
fn one(args: &BenchLimitsArgs, deal: &str) -> anyhow::Result<()> {
    let rules = input::builtin_rules(&args.game)?;
    let number = input::deal_number(deal)?;
    let position = patience_core::Position::deal(&rules, number)?;
    let limits = Limits {
        time: input::time_limit(Some(args.one_time_limit))?,
        memory_bytes: input::memory_bytes(args.one_memory)?,
        nodes: None,
    };
    let rss_before_kib = proc_status_kib("VmRSS");
    let report = solve(&rules, &position, &limits);
    output::print_json(&OneSolve {
        verdict: verdict_word(&report.verdict).to_string(),
        limit: match report.verdict {
            Verdict::Unknown(limit) => Some(limit_word(limit).to_string()),
            _ => None,
        },
        nodes: report.nodes,
        stored: report.stored,
        table_bytes: report.table_bytes,
        seconds: report.elapsed.as_secs_f64(),
        rss_before_kib,
        peak_rss_kib: proc_status_kib("VmHWM"),
    })
}

/// A `kB` line of `/proc/self/status` (`VmHWM`, `VmRSS`), where there is one.
fn proc_status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(key)?.strip_prefix(':')?;
        rest.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

/// The median (sorts the values).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}
