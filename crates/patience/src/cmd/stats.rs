//! `patience stats GAME... --deals A..B`: solves every deal of the range (or of one shard of it) in parallel,
//! appends one JSON line a finished deal to a results file that a later run resumes from, and reports each
//! game's win rate with its conservative 95 % interval, time and nodes per deal. `patience stats merge FILES...`
//! combines results files, such as the shards of one run.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use patience_core::RuleSet;
use patience_solver::stats::{batch, results, DealRange, DealResult, Shard, Stopped, Summary};
use patience_solver::Limits;
use serde::Serialize;

use crate::{ctrl_c, input, output, plot, MergeArgs, StatsArgs, StatsCommand};

/// One game's summary as `--json` writes it, with the file its records are in.
#[derive(Debug, Serialize)]
struct GameJson<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    /// The results file.
    file: Option<String>,
}

/// The whole report as `--json` writes it.
#[derive(Debug, Serialize)]
struct StatsJson<'a> {
    /// The deal range, `FIRST..LAST` (absent for a merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    deals: Option<String>,
    /// The shard, `I/N` (absent for a merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<String>,
    games: Vec<GameJson<'a>>,
    /// Always true: the solver knows the order of the stock and of the face-down reserve cards.
    thoughtful: bool,
}

/// Runs the command.
pub fn run(args: &StatsArgs, json: bool) -> anyhow::Result<()> {
    if let Some(StatsCommand::Merge(merge_args)) = &args.command {
        return merge(merge_args, json);
    }
    let games = games(args)?;
    let Some(deals) = &args.deals else {
        bail!("give the deals to solve with --deals FIRST..LAST, such as --deals 1..1000 (both included)");
    };
    let range: DealRange = deals.parse().map_err(|e| anyhow!("--deals {e}"))?;
    let shard: Shard = match &args.shard {
        Some(text) => text.parse().map_err(|e| anyhow!("--shard {e}"))?,
        None => Shard::WHOLE,
    };
    let threads = match args.threads {
        Some(0) => bail!("--threads 0: give 1 thread or more (all cores without --threads)"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let memory = input::memory_bytes(args.memory)?;
    let limits = Limits {
        time: input::time_limit(args.time_limit)?,
        memory_bytes: (memory / threads).max(1 << 20),
        nodes: input::node_limit(args.node_limit)?,
    };

    // Each game's results file, each file read once: what is done already is skipped.
    let paths: Vec<PathBuf> = games
        .iter()
        .map(|g| out_path(args.out.as_deref(), &g.id))
        .collect();
    let mut files: BTreeMap<PathBuf, results::ResultsFile> = BTreeMap::new();
    for path in &paths {
        if !files.contains_key(path) {
            let file = results::read(path)?;
            for warning in &file.warnings {
                eprintln!("warning: {warning}");
            }
            files.insert(path.clone(), file);
        }
    }
    let in_run: Vec<u64> = range.deals(shard).collect();
    let wanted: HashSet<u64> = in_run.iter().copied().collect();
    let mut earlier: Vec<DealResult> = Vec::new();
    let mut jobs = Vec::new();
    for (rules, path) in games.iter().zip(&paths) {
        let recorded = files[path]
            .records
            .iter()
            .filter(|r| r.game == rules.id && wanted.contains(&r.deal))
            .cloned();
        // A deal left unknown by a lower time or node limit than this run's is solved again; its new record,
        // appended, is the one kept (see `results::merge`).
        let best = results::merge(recorded).with_context(|| format!("in {}", path.display()))?;
        let done: HashSet<u64> = best
            .values()
            .filter(|r| !r.worth_solving_again(limits.time, limits.nodes))
            .map(|r| r.deal)
            .collect();
        let again = best.len() - done.len();
        if !best.is_empty() {
            let again_words = if again > 0 {
                format!("; {again} left unknown by a lower time or node limit are solved again")
            } else {
                String::new()
            };
            eprintln!(
                "resuming: {} of {} deals of {} are already in {}{again_words}",
                best.len(),
                in_run.len(),
                rules.id,
                path.display()
            );
        }
        earlier.extend(best.into_values());
        jobs.extend(
            in_run
                .iter()
                .filter(|deal| !done.contains(deal))
                .map(|&deal| batch::Job { rules, deal }),
        );
    }

    let mut writers: BTreeMap<PathBuf, Mutex<results::ResultsWriter>> = BTreeMap::new();
    for (path, file) in &files {
        writers.insert(
            path.clone(),
            Mutex::new(results::ResultsWriter::open(path, file.good_bytes)?),
        );
    }
    let writer_of: BTreeMap<&str, &Mutex<results::ResultsWriter>> = games
        .iter()
        .zip(&paths)
        .filter_map(|(g, p)| writers.get(p).map(|w| (g.id.as_str(), w)))
        .collect();

    let bar = progress_bar(jobs.len() as u64);
    // Ctrl-C, or a results file that cannot be written, stops the searches under way and starts no more.
    ctrl_c::catch();
    let cancel = &ctrl_c::PRESSED;
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let fresh = batch::run(&jobs, threads, &limits, cancel, |record| {
        bar.inc(1);
        if record.limit == Some(Stopped::Cancelled) {
            return;
        }
        let written = match writer_of.get(record.game.as_str()) {
            Some(writer) => match writer.lock() {
                Ok(mut writer) => writer.write(record).map_err(anyhow::Error::from),
                Err(_) => Err(anyhow!("a thread failed while writing results")),
            },
            None => Err(anyhow!("no results file for game {}", record.game)),
        };
        if let Err(e) = written {
            cancel.store(true, Ordering::Relaxed);
            if let Ok(mut failure) = failure.lock() {
                failure.get_or_insert(e);
            }
        }
    })
    .context("cannot start the solving threads")?;
    bar.finish_and_clear();
    if let Some(error) = failure.into_inner().ok().flatten() {
        return Err(error);
    }
    // Stopped by Ctrl-C: the deals solved are summed up as a run's are, the ones cut off are left for the next.
    let stopped = cancel.load(Ordering::Relaxed);
    let fresh: Vec<DealResult> = fresh
        .into_iter()
        .filter(|record| record.limit != Some(Stopped::Cancelled))
        .collect();
    let solved = fresh.len();

    let all = results::merge(earlier.into_iter().chain(fresh))?;
    let summaries: Vec<Summary> = games
        .iter()
        .map(|g| Summary::of(&g.id, all.values()))
        .collect();
    let names: Vec<String> = games
        .iter()
        .map(|g| format!("{} ({})", g.name, g.id))
        .collect();
    let files: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    if let Some(svg) = &args.plot {
        write_plot(svg, &summaries, &format!("Win rates, deals {range}"))?;
    }
    let printed = if json {
        output::print_json(&StatsJson {
            deals: Some(range.to_string()),
            shard: args.shard.as_ref().map(|_| shard.to_string()),
            games: summaries
                .iter()
                .zip(&files)
                .map(|(summary, file)| GameJson {
                    summary,
                    file: Some(file.clone()),
                })
                .collect(),
            thoughtful: true,
        })
    } else if args.markdown {
        output::print(&summary_table(
            &summaries,
            &names,
            &range.to_string(),
            &limits,
        ))
    } else {
        text_answer(&summaries, &names, &files, &range, shard, &limits, threads)
    };
    printed?;
    if stopped {
        eprintln!(
            "stopped by Ctrl-C: {solved} of the {} deals to solve were solved, and are in the results files; \
             the same command goes on from there",
            jobs.len()
        );
        return Err(ctrl_c::Stopped.into());
    }
    Ok(())
}

/// The run's answer in text: what was run, and each game's summary.
fn text_answer(
    summaries: &[Summary],
    names: &[String],
    files: &[String],
    range: &DealRange,
    shard: Shard,
    limits: &Limits,
    threads: usize,
) -> anyhow::Result<()> {
    let shard_words = if shard == Shard::WHOLE {
        String::new()
    } else {
        format!(", shard {shard}")
    };
    let mut text = format!(
        "deals {range}{shard_words}; {}\n{}\n",
        limits_words(limits, threads),
        crate::cmd::solve::THOUGHTFUL
    );
    for ((summary, name), file) in summaries.iter().zip(names).zip(files) {
        text.push('\n');
        text.push_str(&summary_text(summary, name, Some(file)));
    }
    output::print(&text)
}

/// `patience stats merge FILES...`.
fn merge(args: &MergeArgs, json: bool) -> anyhow::Result<()> {
    let mut records = Vec::new();
    for path in &args.files {
        if !path.exists() {
            bail!("{}: no such results file", path.display());
        }
        let file = results::read(path)?;
        for warning in &file.warnings {
            eprintln!("warning: {warning}");
        }
        records.extend(file.records);
    }
    let merged = results::merge(records)?;
    let mut games: Vec<&str> = merged.keys().map(|(game, _)| game.as_str()).collect();
    games.dedup();
    let summaries: Vec<Summary> = games
        .iter()
        .map(|g| Summary::of(g, merged.values()))
        .collect();
    if let Some(out) = &args.out {
        if args.files.iter().any(|f| f == out) {
            bail!(
                "--out {}: that is one of the files being merged; write to a new file",
                out.display()
            );
        }
        let mut writer = results::ResultsWriter::open(out, 0)?;
        for record in merged.values() {
            writer.write(record)?;
        }
    }
    if let Some(svg) = &args.plot {
        write_plot(svg, &summaries, "Win rates")?;
    }
    if json {
        return output::print_json(&StatsJson {
            deals: None,
            shard: None,
            games: summaries
                .iter()
                .map(|summary| GameJson {
                    summary,
                    file: None,
                })
                .collect(),
            thoughtful: true,
        });
    }
    let mut text = format!(
        "{} records from {} {}\n",
        merged.len(),
        args.files.len(),
        if args.files.len() == 1 {
            "file"
        } else {
            "files"
        }
    );
    for summary in &summaries {
        let name = match patience_core::builtin::rules(&summary.game) {
            Some(rules) => format!("{} ({})", rules.name, rules.id),
            None => summary.game.clone(),
        };
        text.push('\n');
        text.push_str(&summary_text(summary, &name, None));
    }
    output::print(&text)
}

/// The games named, built-in and from rule files, each once.
fn games(args: &StatsArgs) -> anyhow::Result<Vec<RuleSet>> {
    let mut games = Vec::new();
    for id in &args.games {
        games.push(input::builtin_rules(id)?);
    }
    for file in &args.rules {
        games.push(input::rules_file(file)?);
    }
    let mut seen = HashSet::new();
    for game in &games {
        if !seen.insert(game.id.clone()) {
            bail!("the game {} is named twice", game.id);
        }
    }
    if games.is_empty() {
        bail!("name a game, or give its rule file with --rules FILE.toml");
    }
    Ok(games)
}

/// The results file of a game: `--out` with `{game}` replaced by its id, or `stats-GAME.jsonl`.
fn out_path(out: Option<&str>, game: &str) -> PathBuf {
    match out {
        Some(pattern) => PathBuf::from(pattern.replace("{game}", game)),
        None => PathBuf::from(format!("stats-{game}.jsonl")),
    }
}

/// A progress bar on standard error with the rate and the time left, hidden when standard error is not a
/// terminal.
fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), output::progress_target());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40.cyan/blue} {pos}/{len} deals  {per_sec}  {elapsed} elapsed, {eta} left",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The limits each deal is solved with, in words.
fn limits_words(limits: &Limits, threads: usize) -> String {
    format!(
        "{threads} {}, {} and {} MiB a deal",
        if threads == 1 { "thread" } else { "threads" },
        search_limit(limits).unwrap_or_else(|| NO_LIMIT.to_string()),
        limits.memory_bytes >> 20
    )
}

/// A deal's limits in words where it has neither a time nor a node limit.
const NO_LIMIT: &str = "no time or node limit";

/// The time and node limits of a deal in words (`0.5 s`, `2000000 nodes`, or both), if it has either.
fn search_limit(limits: &Limits) -> Option<String> {
    let time = limits.time.map(|t| format!("{} s", t.as_secs_f64()));
    let nodes = limits.nodes.map(|n| format!("{n} nodes"));
    match (time, nodes) {
        (Some(time), Some(nodes)) => Some(format!("{time} or {nodes}")),
        (time, nodes) => time.or(nodes),
    }
}

/// One game's summary as text.
fn summary_text(summary: &Summary, name: &str, file: Option<&str>) -> String {
    let rate = &summary.win_rate;
    let mut text = format!(
        "{name}: {} deals\n  won {}, lost {}, unknown {}\n  win rate {:.1} % (unknown deals counted as lost), conservative 95 % interval {:.1} % to {:.1} %\n",
        summary.deals,
        summary.won,
        summary.lost,
        summary.unknown,
        rate.point * 100.0,
        rate.interval.low * 100.0,
        rate.interval.high * 100.0,
    );
    let s = &summary.seconds;
    text.push_str(&format!(
        "  time per deal:  mean {:.3} s, median {:.3} s, max {:.3} s\n",
        s.mean, s.median, s.max
    ));
    let n = &summary.nodes;
    text.push_str(&format!(
        "  nodes per deal: mean {:.0}, median {:.0}, max {:.0}\n",
        n.mean, n.median, n.max
    ));
    if let Some(file) = file {
        text.push_str(&format!("  results in {file}\n"));
    }
    text
}

/// The summaries as a Markdown table, with a line saying what was run.
fn summary_table(summaries: &[Summary], names: &[String], range: &str, limits: &Limits) -> String {
    let limit =
        search_limit(limits).map_or(NO_LIMIT.to_string(), |limit| format!("{limit} a deal"));
    let mut text = format!(
        "Deals {range}, {limit}; the win rate counts unknown deals as lost, and the interval is the conservative 95 % interval.\n\n\
         | game | won | lost | unknown | win rate | 95 % interval | mean time | median time | max time |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n"
    );
    for (summary, name) in summaries.iter().zip(names) {
        let rate = &summary.win_rate;
        text.push_str(&format!(
            "| {name} | {} | {} | {} | {:.1} % | {:.1} – {:.1} % | {:.3} s | {:.3} s | {:.3} s |\n",
            summary.won,
            summary.lost,
            summary.unknown,
            rate.point * 100.0,
            rate.interval.low * 100.0,
            rate.interval.high * 100.0,
            summary.seconds.mean,
            summary.seconds.median,
            summary.seconds.max,
        ));
    }
    text
}

/// Writes the chart of the summaries to `path`.
fn write_plot(path: &Path, summaries: &[Summary], title: &str) -> anyhow::Result<()> {
    std::fs::write(path, plot::win_rates(summaries, title))
        .with_context(|| format!("cannot write the chart {}", path.display()))
}
