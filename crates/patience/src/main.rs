//! The `patience` binary: lists the games, says their rules, lays out deals, lists and makes moves.
//!
//! Every command prints text for people by default and JSON with `--json`. Errors go to standard error, and the
//! exit status says what went wrong (see [`EXIT_REFUSED`]).

mod cmd;
mod input;
mod output;
mod render;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// The exit status of a move that cannot be read or is illegal, as for a command line clap refuses.
/// Every other error (a file that cannot be read or makes no sense, an unknown game, a bad deal number) exits 1.
pub const EXIT_REFUSED: u8 = 2;

/// Play, solve and study the Canfield and Four Seasons families of patience.
#[derive(Debug, Parser)]
#[command(name = "patience", version)]
pub struct Cli {
    /// Print JSON for programs instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::List(args) => cmd::list::run(args, cli.json),
        Command::Rules(args) => cmd::rules::run(args, cli.json),
        Command::Deal(args) => cmd::deal::run(args, cli.json),
        Command::Moves(args) => cmd::moves::run(args, cli.json),
        Command::Apply(args) => cmd::apply::run(args, cli.json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
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
