//! `patience stats GAME... --deals A..B`: solves every deal of the range (or of one shard of it) in parallel,
//! appends one JSON line a finished deal to a results file that a later run resumes from, and reports each
//! game's win rate with its conservative 95 % interval, time and nodes per deal. `patience stats merge FILES...`
//! combines results files, such as the shards of one run.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use patience_core::RuleSet;
use patience_solver::stats::{
    batch, fair_sample, results, DealRange, DealResult, Outcome, Sample, Shard, Stopped, Summary,
    WinRate,
};
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
    /// The undecided deals solved again with `--resolve`, and the win rate estimated with them.
    #[serde(skip_serializing_if = "Option::is_none")]
    resolved: Option<&'a Resolved>,
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

    let resolve = resolve_plan(args, &limits)?;

    let paths: Vec<PathBuf> = games
        .iter()
        .map(|g| out_path(args.out.as_deref(), &g.id, DEFAULT_OUT))
        .collect();
    let resolve_paths: Vec<PathBuf> = match &resolve {
        Some(plan) => games
            .iter()
            .map(|g| out_path(plan.out.as_deref(), &g.id, DEFAULT_RESOLVE_OUT))
            .collect(),
        None => Vec::new(),
    };
    if let Some(both) = paths.iter().find(|p| resolve_paths.contains(p)) {
        bail!(
            "--resolve-out {}: that is a results file of the run itself; the deals solved again go to a file of their own",
            both.display()
        );
    }
    let in_run: Vec<u64> = range.deals(shard).collect();
    let deals = vec![in_run; games.len()];
    let run = solve_deals(&games, &paths, &deals, &limits, threads)?;
    let summaries: Vec<Summary> = games
        .iter()
        .map(|g| Summary::of(&g.id, run.records.values()))
        .collect();
    // Stopped by Ctrl-C: the deals solved and those there were to solve.
    let mut stopped = run.stopped.then_some((run.solved, run.to_solve));
    // The first deals by number of each game's undecided ones, solved again: chosen so, they are a sample of
    // them that does not hang on how they come out.
    let resolved: Option<Vec<Resolved>> = match &resolve {
        Some(plan) if !run.stopped => {
            let picks: Vec<Vec<u64>> = games
                .iter()
                .map(|g| {
                    run.records
                        .values()
                        .filter(|r| r.game == g.id && r.verdict == Outcome::Unknown)
                        .map(|r| r.deal)
                        .take(plan.count)
                        .collect()
                })
                .collect();
            let again = solve_deals(&games, &resolve_paths, &picks, &plan.limits, threads)?;
            if again.stopped {
                // The estimate would stand on the deals quickest to decide, so there is none.
                stopped = Some((again.solved, again.to_solve));
                None
            } else {
                Some(
                    games
                        .iter()
                        .zip(&summaries)
                        .zip(&resolve_paths)
                        .map(|((g, summary), path)| {
                            let records: Vec<&DealResult> =
                                again.records.values().filter(|r| r.game == g.id).collect();
                            Resolved::of(summary, &records, Some(path.display().to_string()))
                        })
                        .collect(),
                )
            }
        }
        _ => None,
    };

    let names: Vec<String> = games
        .iter()
        .map(|g| format!("{} ({})", g.name, g.id))
        .collect();
    let files: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    if let Some(svg) = &args.plot {
        write_plot(
            svg,
            &summaries,
            resolved.as_deref(),
            &format!("Win rates, deals {range}"),
        )?;
    }
    let printed = if json {
        output::print_json(&StatsJson {
            deals: Some(range.to_string()),
            shard: args.shard.as_ref().map(|_| shard.to_string()),
            games: summaries
                .iter()
                .zip(&files)
                .enumerate()
                .map(|(g, (summary, file))| GameJson {
                    summary,
                    file: Some(file.clone()),
                    resolved: resolved.as_ref().map(|samples| &samples[g]),
                })
                .collect(),
            thoughtful: true,
        })
    } else if args.markdown {
        let limit =
            search_limit(&limits).map_or(NO_LIMIT.to_string(), |limit| format!("{limit} a deal"));
        let how = resolve.as_ref().map(|plan| {
            format!(
                "the first {} undecided deals of each game solved again, {} a deal",
                plan.count,
                search_limit(&plan.limits).unwrap_or_else(|| NO_LIMIT.to_string())
            )
        });
        output::print(&summary_table(
            &summaries,
            &names,
            &format!("Deals {range}, {limit}"),
            how.as_deref().zip(resolved.as_deref()),
        ))
    } else {
        let shard_words = if shard == Shard::WHOLE {
            String::new()
        } else {
            format!(", shard {shard}")
        };
        text_answer(
            &summaries,
            &names,
            &files,
            &format!(
                "deals {range}{shard_words}; {}",
                limits_words(&limits, threads)
            ),
            resolve.as_ref().zip(resolved.as_deref()),
        )
    };
    printed?;
    if let Some((solved, to_solve)) = stopped {
        eprintln!(
            "stopped by Ctrl-C: {solved} of the {to_solve} deals to solve were solved, and are in the results files; \
             the same command goes on from there"
        );
        return Err(ctrl_c::Stopped.into());
    }
    Ok(())
}

/// Records by game and deal, one each (see `results::merge`).
type Records = BTreeMap<(String, u64), DealResult>;

/// What a batch of deals came to: the best record of each deal (those recorded before and those solved now), and
/// whether Ctrl-C stopped it.
struct Solved {
    records: Records,
    stopped: bool,
    /// The deals there were to solve, and those solved.
    to_solve: usize,
    solved: usize,
}

/// Solves the deals `deals[g]` of each game `games[g]` with `limits`, resuming from its results file `paths[g]` (a
/// deal recorded there is solved again only where a lower time or node limit left it unknown) and appending to it.
fn solve_deals(
    games: &[RuleSet],
    paths: &[PathBuf],
    deals: &[Vec<u64>],
    limits: &Limits,
    threads: usize,
) -> anyhow::Result<Solved> {
    // Each results file read once: several games may share one.
    let mut files: BTreeMap<PathBuf, results::ResultsFile> = BTreeMap::new();
    for path in paths {
        if !files.contains_key(path) {
            let file = results::read(path)?;
            for warning in &file.warnings {
                eprintln!("warning: {warning}");
            }
            files.insert(path.clone(), file);
        }
    }
    let mut earlier: Vec<DealResult> = Vec::new();
    let mut jobs = Vec::new();
    for ((rules, path), deals) in games.iter().zip(paths).zip(deals) {
        let wanted: HashSet<u64> = deals.iter().copied().collect();
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
                deals.len(),
                rules.id,
                path.display()
            );
        }
        earlier.extend(best.into_values());
        jobs.extend(
            deals
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
        .zip(paths)
        .filter_map(|(g, p)| writers.get(p).map(|w| (g.id.as_str(), w)))
        .collect();

    let bar = progress_bar(jobs.len() as u64);
    // Ctrl-C, or a results file that cannot be written, stops the searches under way and starts no more.
    ctrl_c::catch();
    let cancel = &ctrl_c::PRESSED;
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let fresh = batch::run(&jobs, threads, limits, cancel, |record| {
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
    Ok(Solved {
        to_solve: jobs.len(),
        solved: fresh.len(),
        records: results::merge(earlier.into_iter().chain(fresh))?,
        stopped,
    })
}

/// How the deals of `--resolve` are solved again.
struct ResolvePlan {
    /// How many of each game's undecided deals.
    count: usize,
    /// Their limits, higher than the run's.
    limits: Limits,
    /// `--resolve-out`.
    out: Option<String>,
}

/// The plan of `--resolve`, if given, checked against the run's `limits`.
fn resolve_plan(args: &StatsArgs, limits: &Limits) -> anyhow::Result<Option<ResolvePlan>> {
    let Some(count) = args.resolve else {
        return Ok(None);
    };
    if count == 0 {
        bail!("--resolve 0: give 1 deal or more to solve again");
    }
    let time = input::time_limit_of("--resolve-time-limit", args.resolve_time_limit)?;
    let nodes = input::node_limit_of("--resolve-node-limit", args.resolve_node_limit)?;
    if time.is_none() && nodes.is_none() {
        bail!("--resolve {count}: give the higher limits to solve the undecided deals again with, --resolve-time-limit SECONDS or --resolve-node-limit NODES");
    }
    if limits.time.is_none() && limits.nodes.is_none() {
        bail!("--resolve {count}: the run has no time or node limit, so it leaves no deal undecided to solve again; give --time-limit or --node-limit");
    }
    if let (Some(again), Some(run)) = (time, limits.time) {
        if again <= run {
            bail!(
                "--resolve-time-limit {}: must be more than --time-limit {}",
                again.as_secs_f64(),
                run.as_secs_f64()
            );
        }
    }
    if let (Some(again), Some(run)) = (nodes, limits.nodes) {
        if again <= run {
            bail!("--resolve-node-limit {again}: must be more than --node-limit {run}");
        }
    }
    Ok(Some(ResolvePlan {
        count: usize::try_from(count).unwrap_or(usize::MAX),
        limits: Limits {
            time,
            nodes,
            ..*limits
        },
        out: args.resolve_out.clone(),
    }))
}

/// What solving again a game's first undecided deals found, and the win rate estimated with them.
#[derive(Debug, Serialize)]
struct Resolved {
    /// The game's undecided deals in the run.
    undecided: u64,
    /// The deals solved again, by number.
    deals: Vec<u64>,
    /// How they came out.
    sample: Sample,
    /// The win rate estimated with them (see `WinRate::with_sample`).
    win_rate: WinRate,
    /// Their results file (absent for a merge, which names its files on its command line).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

impl Resolved {
    /// The sample `records` (the game's deals solved again), its run summed up in `summary`.
    fn of(summary: &Summary, records: &[&DealResult], file: Option<String>) -> Resolved {
        let solved = Summary::of(&summary.game, records.iter().copied());
        let sample = Sample {
            won: solved.won,
            lost: solved.lost,
            unknown: solved.unknown,
        };
        Resolved {
            undecided: summary.unknown,
            deals: records.iter().map(|r| r.deal).collect(),
            sample,
            win_rate: WinRate::with_sample(summary.won, summary.lost, summary.unknown, sample),
            file,
        }
    }
}

/// A game's results file by default.
const DEFAULT_OUT: &str = "stats-{game}.jsonl";

/// The results file of a game's deals solved again by default.
const DEFAULT_RESOLVE_OUT: &str = "stats-{game}-resolve.jsonl";

/// The run's answer in text: what was run, and each game's summary.
fn text_answer(
    summaries: &[Summary],
    names: &[String],
    files: &[String],
    run: &str,
    resolved: Option<(&ResolvePlan, &[Resolved])>,
) -> anyhow::Result<()> {
    let mut text = format!("{run}\n{}\n", crate::cmd::solve::THOUGHTFUL);
    for (g, ((summary, name), file)) in summaries.iter().zip(names).zip(files).enumerate() {
        text.push('\n');
        text.push_str(&summary_text(summary, name, Some(file)));
        if let Some((plan, samples)) = resolved {
            let sample = &samples[g];
            let which = format!(
                "the first {} of its {} undecided deals, at {} a deal",
                sample.sample.len(),
                sample.undecided,
                search_limit(&plan.limits).unwrap_or_else(|| NO_LIMIT.to_string()),
            );
            text.push_str(&resolved_text(sample, &which));
        }
    }
    output::print(&text)
}

/// What solving again `which` of a game's undecided deals found, as text.
fn resolved_text(resolved: &Resolved, which: &str) -> String {
    let sample = &resolved.sample;
    if resolved.undecided == 0 {
        return "  solved again: none, no deal is undecided\n".to_string();
    }
    if sample.is_empty() {
        return format!(
            "  solved again: none of its {} undecided deals, so no estimate\n",
            resolved.undecided
        );
    }
    let (point, low, high) = percents(&resolved.win_rate);
    let mut text = format!(
        "  solved again: {which}: won {}, lost {}, unknown {}\n  \
         estimated win rate {point:.1} %, 95 % interval {low:.1} % to {high:.1} % (still undecided deals counted as lost, and as won)\n",
        sample.won, sample.lost, sample.unknown,
    );
    if let Some(file) = &resolved.file {
        text.push_str(&format!("  results in {file}\n"));
    }
    text
}

/// `patience stats merge FILES... [--resolved FILES...]`.
fn merge(args: &MergeArgs, json: bool) -> anyhow::Result<()> {
    if let Some(both) = args.resolved.iter().find(|f| args.files.contains(f)) {
        bail!(
            "--resolved {}: that file is also one of the results files; the deals solved again go after --resolved alone",
            both.display()
        );
    }
    let mut records = Vec::new();
    for path in &args.files {
        records.extend(read_results(path)?.records);
    }
    let merged = results::merge(records)?;
    let mut games: Vec<&str> = merged.keys().map(|(game, _)| game.as_str()).collect();
    games.dedup();
    let summaries: Vec<Summary> = games
        .iter()
        .map(|g| Summary::of(g, merged.values()))
        .collect();
    let resolved = if args.resolved.is_empty() {
        None
    } else {
        Some(merged_samples(&args.resolved, &merged, &summaries)?)
    };
    if let Some(out) = &args.out {
        if args.files.iter().chain(&args.resolved).any(|f| f == out) {
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
        write_plot(svg, &summaries, resolved.as_deref(), "Win rates")?;
    }
    if json {
        return output::print_json(&StatsJson {
            deals: None,
            shard: None,
            games: summaries
                .iter()
                .enumerate()
                .map(|(g, summary)| GameJson {
                    summary,
                    file: None,
                    resolved: resolved.as_ref().map(|samples| &samples[g]),
                })
                .collect(),
            thoughtful: true,
        });
    }
    let count = |n: usize| if n == 1 { "file" } else { "files" };
    let names: Vec<String> = summaries
        .iter()
        .map(
            |summary| match patience_core::builtin::rules(&summary.game) {
                Some(rules) => format!("{} ({})", rules.name, rules.id),
                None => summary.game.clone(),
            },
        )
        .collect();
    let sources = format!(
        "{} records from {} {}",
        merged.len(),
        args.files.len(),
        count(args.files.len())
    );
    if args.markdown {
        let how = format!(
            "each game's undecided deals solved again in the {} {} after --resolved, up to any gap",
            args.resolved.len(),
            count(args.resolved.len())
        );
        return output::print(&summary_table(
            &summaries,
            &names,
            &format!("Merged: {sources}"),
            resolved.as_deref().map(|samples| (how.as_str(), samples)),
        ));
    }
    let mut text = sources;
    if !args.resolved.is_empty() {
        text.push_str(&format!(
            ", and deals solved again from {} {}",
            args.resolved.len(),
            count(args.resolved.len())
        ));
    }
    text.push('\n');
    for (g, (summary, name)) in summaries.iter().zip(&names).enumerate() {
        text.push('\n');
        text.push_str(&summary_text(summary, name, None));
        if let Some(samples) = &resolved {
            let sample = &samples[g];
            let which = format!(
                "{} of its {} undecided deals",
                sample.sample.len(),
                sample.undecided
            );
            text.push_str(&resolved_text(sample, &which));
        }
    }
    output::print(&text)
}

/// A results file that must exist, read, its warnings printed.
fn read_results(path: &Path) -> anyhow::Result<results::ResultsFile> {
    if !path.exists() {
        bail!("{}: no such results file", path.display());
    }
    let file = results::read(path)?;
    for warning in &file.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(file)
}

/// Each game's sample of its undecided deals in the merged records `merged` (summed up in `summaries`), from the
/// files of deals solved again `paths`: in each file, the deals undecided in `merged` up to the first that the
/// file should hold and does not (see `patience_solver::stats::fair_sample`). What is left out is said on
/// standard error.
fn merged_samples(
    paths: &[PathBuf],
    merged: &Records,
    summaries: &[Summary],
) -> anyhow::Result<Vec<Resolved>> {
    let files: Vec<(&PathBuf, Records)> = paths
        .iter()
        .map(|path| {
            let records = results::merge(read_results(path)?.records)
                .with_context(|| format!("in {}", path.display()))?;
            Ok((path, records))
        })
        .collect::<anyhow::Result<_>>()?;
    // Of a deal solved again in several files, the record that says most; one won and one lost is an error.
    let again = results::merge(
        files
            .iter()
            .flat_map(|(_, records)| records.values().cloned()),
    )?;
    let elsewhere: BTreeSet<&str> = again
        .keys()
        .map(|(game, _)| game.as_str())
        .filter(|game| summaries.iter().all(|s| s.game != *game))
        .collect();
    for game in elsewhere {
        eprintln!("warning: the files of deals solved again hold deals of {game}, which the results files do not; they are left out");
    }
    let mut samples = Vec::new();
    for summary in summaries {
        let game = summary.game.as_str();
        let undecided: BTreeSet<u64> = merged
            .values()
            .filter(|r| r.game == game && r.verdict == Outcome::Unknown)
            .map(|r| r.deal)
            .collect();
        let mut kept: BTreeSet<u64> = BTreeSet::new();
        let mut not_undecided: BTreeSet<u64> = BTreeSet::new();
        for (path, records) in &files {
            let deals: BTreeSet<u64> = records
                .keys()
                .filter(|(g, _)| g == game)
                .map(|&(_, deal)| deal)
                .collect();
            not_undecided.extend(deals.difference(&undecided));
            let sample = fair_sample(&undecided, &deals);
            if let Some(gap) = sample.gap {
                eprintln!(
                    "warning: {}: deal {} of {game}, undecided in the results files, was not solved again, though \
                     deals after it were (was the run stopped while solving them? The same command finishes it); \
                     the {} after it are left out of the estimate, which they would bend towards the quicker deals",
                    path.display(),
                    gap.missing,
                    gap.left_out
                );
            }
            kept.extend(sample.deals);
        }
        if !not_undecided.is_empty() {
            eprintln!(
                "warning: deals of {game} solved again but not undecided in the results files (decided there, or \
                 not there at all): {}; they are left out of the estimate",
                not_undecided.len()
            );
        }
        let records: Vec<&DealResult> = kept
            .iter()
            .filter_map(|&deal| again.get(&(game.to_string(), deal)))
            .collect();
        samples.push(Resolved::of(summary, &records, None));
    }
    Ok(samples)
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

/// The results file of a game: the pattern `out` given, else `default`, with `{game}` replaced by its id.
fn out_path(out: Option<&str>, game: &str, default: &str) -> PathBuf {
    PathBuf::from(out.unwrap_or(default).replace("{game}", game))
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

/// A win rate's point and interval, in per cent.
fn percents(rate: &WinRate) -> (f64, f64, f64) {
    (
        rate.point * 100.0,
        rate.interval.low * 100.0,
        rate.interval.high * 100.0,
    )
}

/// One game's summary as text.
fn summary_text(summary: &Summary, name: &str, file: Option<&str>) -> String {
    let (point, low, high) = percents(&summary.win_rate);
    let mut text = format!(
        "{name}: {} deals\n  won {}, lost {}, unknown {}\n  win rate {point:.1} % (unknown deals counted as lost), conservative 95 % interval {low:.1} % to {high:.1} %\n",
        summary.deals,
        summary.won,
        summary.lost,
        summary.unknown,
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
    let by = &summary.seconds_by_verdict;
    text.push_str(&format!(
        "  time in all:    {:.1} s (the deals won {:.1} s, lost {:.1} s, unknown {:.1} s)\n",
        by.won + by.lost + by.unknown,
        by.won,
        by.lost,
        by.unknown
    ));
    if let Some(file) = file {
        text.push_str(&format!("  results in {file}\n"));
    }
    text
}

/// The summaries as a Markdown table, after `run`, a sentence saying what was run; with `resolved`, a sentence
/// saying how the deals were solved again and each game's sample in three more columns.
fn summary_table(
    summaries: &[Summary],
    names: &[String],
    run: &str,
    resolved: Option<(&str, &[Resolved])>,
) -> String {
    let mut text = format!(
        "{run}; the win rate counts unknown deals as lost, and the interval is the conservative 95 % interval."
    );
    let mut head = "| game | won | lost | unknown | win rate | 95 % interval | mean time | median time | max time |"
        .to_string();
    let mut rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |".to_string();
    if let Some((how, _)) = resolved {
        text.push_str(&format!(
            " The estimate takes {how}: won / lost / unknown among them, the win rate estimated with them and its 95 % interval."
        ));
        head.push_str(" solved again | estimate | its 95 % interval |");
        rule.push_str(" ---: | ---: | ---: |");
    }
    text.push_str(&format!("\n\n{head}\n{rule}\n"));
    for (g, (summary, name)) in summaries.iter().zip(names).enumerate() {
        let (point, low, high) = percents(&summary.win_rate);
        text.push_str(&format!(
            "| {name} | {} | {} | {} | {point:.1} % | {low:.1} – {high:.1} % | {:.3} s | {:.3} s | {:.3} s |",
            summary.won,
            summary.lost,
            summary.unknown,
            summary.seconds.mean,
            summary.seconds.median,
            summary.seconds.max,
        ));
        if let Some((_, samples)) = resolved {
            let sample = &samples[g].sample;
            let (point, low, high) = percents(&samples[g].win_rate);
            text.push_str(&format!(
                " {} / {} / {} | {point:.1} % | {low:.1} – {high:.1} % |",
                sample.won, sample.lost, sample.unknown,
            ));
        }
        text.push('\n');
    }
    text
}

/// Writes the chart of the summaries to `path`, with the estimates of `resolved` (one a summary) where their
/// samples hold deals.
fn write_plot(
    path: &Path,
    summaries: &[Summary],
    resolved: Option<&[Resolved]>,
    title: &str,
) -> anyhow::Result<()> {
    let estimates: Vec<Option<&WinRate>> = (0..summaries.len())
        .map(|g| {
            resolved
                .and_then(|samples| samples.get(g))
                .filter(|r| !r.sample.is_empty())
                .map(|r| &r.win_rate)
        })
        .collect();
    std::fs::write(path, plot::win_rates(summaries, &estimates, title))
        .with_context(|| format!("cannot write the chart {}", path.display()))
}
