//! The `patience` binary: lists the games, says their rules, lays out deals, lists and makes moves, solves deals,
//! exports them to other solvers and gathers win-rate statistics over many deals.
//!
//! Every command prints text for people by default and JSON with `--json`. Errors go to standard error, and the
//! exit status says what went wrong (see [`EXIT_REFUSED`]).

mod allocator;
mod cmd;
mod ctrl_c;
mod input;
mod output;
mod plot;
mod render;
mod store;
mod tui;
mod web;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// The exit status of a move that cannot be read or is illegal, as for a command line clap refuses.
/// Every other error (a file that cannot be read or makes no sense, an unknown game, a bad deal number) exits 1.
pub const EXIT_REFUSED: u8 = 2;

/// The exit status of a search stopped by Ctrl-C, as for a program the shell interrupts (128 + SIGINT).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Play, solve and study the Canfield and Four Seasons families of patience.
#[derive(Debug, Parser)]
#[command(name = "patience", version)]
pub struct Cli {
    /// Print JSON for programs instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,
    /// The folder of the player's store (statistics and saved games); else PATIENCE_DATA, else the user's data
    /// folder.
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the built-in games: id, name, source and a line about each.
    List(ListArgs),
    /// Say the rules of a game in plain words.
    Rules(RulesArgs),
    /// Lay out a deal of a game.
    Deal(DealArgs),
    /// List the legal moves in a position.
    Moves(MovesArgs),
    /// Make moves in a position and show the position after them.
    Apply(ApplyArgs),
    /// Decide whether a deal or position can be won, and show the winning line.
    Solve(SolveArgs),
    /// Write a deal or position in another solver's format.
    Export(ExportArgs),
    /// Solve many deals in parallel and report win rates with 95 % intervals; `stats merge` combines results.
    Stats(StatsArgs),
    /// Play in the terminal: a game menu, or GAME at once; undo, hints, "still winnable?" and a post-mortem.
    Play(PlayArgs),
    /// Times a move drawn by the terminal player while the solver runs (the input-latency benchmark); with
    /// --data-dir, each move is saved to the store as in play.
    #[command(hide = true)]
    BenchTui(BenchTuiArgs),
    /// Serve the web player on this machine: a page for every game, and its JSON API (docs/web-api.md).
    Serve(ServeArgs),
    /// The player's finished games, and per game: played, won, streaks, best time, fewest moves, bankroll.
    History(HistoryArgs),
    /// Records finished games in a loop for the store's crash test (tests/store_crash.rs); not for players.
    #[command(hide = true)]
    StoreTorture(StoreTortureArgs),
    /// Plays many games at once against a running `patience serve` and checks every answer (the web server's
    /// load test, tests/web_load.rs); not for players.
    #[command(hide = true)]
    LoadTest(LoadTestArgs),
    /// Measures the solver's peak memory per --memory budget and its elapsed time per --time-limit (the figures
    /// of docs/reliability.md); not for players.
    #[command(hide = true)]
    BenchLimits(BenchLimitsArgs),
}

/// Arguments of `patience list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Also list other programs' variants (the rule files under games/extra).
    #[arg(long)]
    pub all: bool,
}

/// A game: a built-in id, or a rule file.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game's id, as `patience list --all` shows it.
    #[arg(value_name = "GAME", required_unless_present = "rules")]
    pub game: Option<String>,
    /// Read the game from a rule file instead of naming a built-in game.
    #[arg(long, value_name = "FILE.toml", conflicts_with = "game")]
    pub rules: Option<PathBuf>,
}

/// Arguments of `patience rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// The game.
    #[command(flatten)]
    pub game: GameArgs,
}

/// Arguments of `patience deal`.
#[derive(Debug, Args)]
#[command(allow_missing_positional = true)]
pub struct DealArgs {
    /// The game.
    #[command(flatten)]
    pub game: GameArgs,
    /// The deal number: 1 to 18446744073709551615, or ms1 to ms31999 (PySolFC's game numbers).
    #[arg(value_name = "NUMBER")]
    pub number: String,
}

/// A position read from a file, and optionally its rules.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// The position's JSON file (`-` for standard input), as `patience deal --json` writes it.
    #[arg(long, value_name = "FILE")]
    pub position: PathBuf,
    /// The rule file of the position's game; without it, the position's `game` key names a built-in game.
    #[arg(long, value_name = "FILE.toml")]
    pub rules: Option<PathBuf>,
}

/// Arguments of `patience moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Arguments of `patience apply`.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
    /// The moves, in order: in the text notation (`w-f3`, `t0-t3x2`, `draw`) or as JSON objects.
    #[arg(value_name = "MOVE", required = true)]
    pub moves: Vec<String>,
}

/// A deal (`GAME NUMBER`, or `--rules FILE.toml NUMBER`) or a position (`--position FILE`).
#[derive(Debug, Args)]
#[command(allow_missing_positional = true)]
pub struct DealOrPosition {
    /// The game's id, as `patience list --all` shows it.
    #[arg(value_name = "GAME", conflicts_with_all = ["rules", "position"])]
    pub game: Option<String>,
    /// The deal number: 1 to 18446744073709551615, or ms1 to ms31999 (PySolFC's game numbers).
    #[arg(
        value_name = "NUMBER",
        required_unless_present = "position",
        conflicts_with = "position"
    )]
    pub number: Option<String>,
    /// A position's JSON file (`-` for standard input), as `patience deal --json` writes it, instead of a deal.
    #[arg(long, value_name = "FILE")]
    pub position: Option<PathBuf>,
    /// The game's rule file, instead of naming a built-in game (with --position: the position's rule file).
    #[arg(long, value_name = "FILE.toml")]
    pub rules: Option<PathBuf>,
}

/// Arguments of `patience solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The deal or position.
    #[command(flatten)]
    pub what: DealOrPosition,
    /// Give up after this many seconds (a decimal number); no limit without it.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Give up after this many nodes (positions made, every pass of the search counted); unlike a time limit, it
    /// stops the search at the same place on any machine. No limit without it.
    #[arg(long, value_name = "NODES")]
    pub node_limit: Option<u64>,
    /// The most memory the solver's table of positions may take, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory: u64,
}

/// Formats `patience export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Solvitaire's deal JSON (Blake & Gent's solver).
    Solvitaire,
}

/// Arguments of `patience export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The deal or position.
    #[command(flatten)]
    pub what: DealOrPosition,
    /// The format to write.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
}

/// Arguments of `patience stats`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct StatsArgs {
    /// `merge`: combine results files.
    #[command(subcommand)]
    pub command: Option<StatsCommand>,
    /// The games' ids, as `patience list --all` shows them.
    #[arg(value_name = "GAME")]
    pub games: Vec<String>,
    /// A game's rule file, instead of or as well as naming built-in games (may be repeated).
    #[arg(long, value_name = "FILE.toml")]
    pub rules: Vec<PathBuf>,
    /// The deals: FIRST..LAST, both included (1..10000), or one deal number.
    #[arg(long, value_name = "FIRST..LAST")]
    pub deals: Option<String>,
    /// Threads solving deals at once; all cores by default.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Give up on a deal after this many seconds (a decimal number); no limit without it.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Give up on a deal after this many nodes (positions made, every pass of the search counted): the same
    /// verdicts on any machine, for the same `--memory` and `--threads`. No limit without it.
    #[arg(long, value_name = "NODES")]
    pub node_limit: Option<u64>,
    /// Memory for the solvers' tables, in MiB, shared between the threads.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory: u64,
    /// The results file (JSON lines), resumed if it exists (deals it holds as unknown because a lower time or node
    /// limit stopped them are solved again); `{game}` in the name is replaced by each game's id.
    /// By default `stats-{game}.jsonl`, one file a game.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Solve only shard I of N (from 1): the deals whose place in the range, from 0, is I-1 modulo N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Draw the win rates with their intervals as an SVG chart into this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print the summary as a Markdown table, one row a game (for the README's figures).
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Then solve again the first N of each game's undecided deals (by number) with the higher limits
    /// `--resolve-time-limit` and `--resolve-node-limit`, and estimate the win rate from them as well.
    #[arg(long, value_name = "N")]
    pub resolve: Option<u64>,
    /// The time limit of the deals solved again, in seconds: more than `--time-limit`.
    #[arg(long, value_name = "SECONDS", requires = "resolve")]
    pub resolve_time_limit: Option<f64>,
    /// The node limit of the deals solved again: more than `--node-limit`.
    #[arg(long, value_name = "NODES", requires = "resolve")]
    pub resolve_node_limit: Option<u64>,
    /// The results file of the deals solved again, resumed as `--out` is; `{game}` is replaced by each game's id.
    /// By default `stats-{game}-resolve.jsonl`.
    #[arg(long, value_name = "FILE", requires = "resolve")]
    pub resolve_out: Option<String>,
}

/// Subcommands of `patience stats`.
#[derive(Debug, Subcommand)]
pub enum StatsCommand {
    /// Combine results files (shards of one run) and print the summary.
    Merge(MergeArgs),
}

/// Arguments of `patience stats merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The results files (JSON lines) to combine.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,
    /// Also write the combined records, one per deal in game and deal order, to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Draw the win rates with their intervals as an SVG chart into this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print the summary as a Markdown table, one row a game.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// The files of the deals solved again (`--resolve-out` of the shards' runs), after the results files: estimate
    /// each game's win rate with those of its undecided deals, as one run's `--resolve` does.
    #[arg(long, value_name = "FILES", num_args = 1..)]
    pub resolved: Vec<PathBuf>,
}

/// Arguments of `patience play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game's id, as `patience list --all` shows it; without it, the game left unfinished last time, or the
    /// game menu.
    #[arg(value_name = "GAME", conflicts_with = "rules")]
    pub game: Option<String>,
    /// The deal number: 1 to 18446744073709551615, or ms1 to ms31999; a random deal without it.
    #[arg(long, value_name = "NUMBER")]
    pub deal: Option<String>,
    /// Play the game of a rule file instead of a built-in game.
    #[arg(long, value_name = "FILE.toml")]
    pub rules: Option<PathBuf>,
    /// New random deals are ones the solver has proved winnable.
    #[arg(long)]
    pub winnable: bool,
}

/// Arguments of the hidden `patience bench-tui`.
#[derive(Debug, Args)]
pub struct BenchTuiArgs {
    /// The game.
    #[arg(long, default_value = "four-seasons")]
    pub game: String,
    /// The deal: one the solver does not decide quickly, so that it runs all along.
    #[arg(long, default_value = "1")]
    pub deal: String,
    /// Moves and undos to time.
    #[arg(long, default_value_t = 600)]
    pub moves: usize,
    /// The terminal's width.
    #[arg(long, default_value_t = 100)]
    pub width: u16,
    /// The terminal's height.
    #[arg(long, default_value_t = 32)]
    pub height: u16,
}

/// Arguments of `patience history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Only this game's results (its id, as `patience list --all` shows it, or a rule file's id).
    #[arg(value_name = "GAME")]
    pub game: Option<String>,
    /// Print the finished games as CSV, one row a game, with a header row.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// Arguments of `patience serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on; 0 picks a free one (the address is printed on standard output).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; 127.0.0.1 keeps the player to this machine.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
    pub bind: std::net::IpAddr,
}

/// Arguments of the hidden `patience store-torture`, which exists only for the store's crash test.
#[derive(Debug, Args)]
pub struct StoreTortureArgs {
    /// How many finished games to record.
    #[arg(long, value_name = "N")]
    pub games: u32,
}

/// Arguments of the hidden `patience load-test`.
#[derive(Debug, Args)]
pub struct LoadTestArgs {
    /// The server, as `patience serve` prints it: http://127.0.0.1:PORT (only this machine's addresses).
    #[arg(long)]
    pub url: String,
    /// Players at once, each with a connection and a game of its own.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Requests to send in all.
    #[arg(long, default_value_t = 10_000)]
    pub requests: u64,
    /// Stop after this many seconds even if requests are left.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub time_limit: f64,
    /// The seed of the players' random choices (deals, moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of the hidden `patience bench-limits`.
#[derive(Debug, Args)]
pub struct BenchLimitsArgs {
    /// The game.
    #[arg(long, default_value = "canfield")]
    pub game: String,
    /// The deal of the memory runs: by default the hardest of Canfield deals 1..1000 (the most nodes in 1 s).
    #[arg(long, default_value = "137")]
    pub memory_deal: String,
    /// The --memory budgets to measure, in MiB.
    #[arg(long, value_delimiter = ',', default_values_t = [64, 100, 256, 1024])]
    pub memory: Vec<u64>,
    /// The time limit of the memory runs: long enough for the table to fill.
    #[arg(long, value_name = "SECONDS", default_value_t = 900.0)]
    pub memory_time_limit: f64,
    /// The --time-limit values to measure, in seconds.
    #[arg(long, value_delimiter = ',', default_values_t = [0.5, 1.0, 2.0, 5.0])]
    pub time_limit: Vec<f64>,
    /// The deals of the time runs: hard ones, undecided at every limit measured.
    #[arg(long, value_delimiter = ',', default_values_t = ["137".to_string(), "157".to_string(), "204".to_string()])]
    pub time_deals: Vec<String>,
    /// The --memory of the time runs, in MiB.
    #[arg(long, default_value_t = 1024)]
    pub time_memory: u64,
    /// Runs of each time limit on each deal.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// For the child process: solve this one deal and print its cost and peak memory as JSON.
    #[arg(long, hide = true)]
    pub one_deal: Option<String>,
    /// For the child process: its time limit.
    #[arg(long, hide = true, default_value_t = 1.0)]
    pub one_time_limit: f64,
    /// For the child process: its memory budget.
    #[arg(long, hide = true, default_value_t = 1024)]
    pub one_memory: u64,
}

fn main() -> ExitCode {
    allocator::unmap_large_blocks_when_freed();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::List(args) => cmd::list::run(args, cli.json),
        Command::Rules(args) => cmd::rules::run(args, cli.json),
        Command::Deal(args) => cmd::deal::run(args, cli.json),
        Command::Moves(args) => cmd::moves::run(args, cli.json),
        Command::Apply(args) => cmd::apply::run(args, cli.json),
        Command::Solve(args) => cmd::solve::run(args, cli.json),
        Command::Export(args) => cmd::export::run(args),
        Command::Stats(args) => cmd::stats::run(args, cli.json),
        Command::Play(args) => tui::run(args, cli.data_dir.as_deref()),
        Command::BenchTui(args) => tui::bench::run(args, cli.data_dir.as_deref()),
        Command::Serve(args) => web::run(args, cli.data_dir.as_deref()),
        Command::History(args) => cmd::history::run(args, cli.json, cli.data_dir.as_deref()),
        Command::StoreTorture(args) => cmd::store_torture::run(args, cli.data_dir.as_deref()),
        Command::LoadTest(args) => cmd::load_test::run(args, cli.json),
        Command::BenchLimits(args) => cmd::bench_limits::run(args, cli.json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The answer is printed already: the status alone says the program was interrupted.
        Err(error) if error.is::<ctrl_c::Stopped>() => ExitCode::from(EXIT_INTERRUPTED),
        Err(error) => {
            eprintln!("error: {error:#}");
            if error.is::<cmd::apply::MoveRefused>() {
                ExitCode::from(EXIT_REFUSED)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
