//! `patience store-torture`, hidden: it exists only for the store's crash test (`tests/store_crash.rs`), which
//! kills it with SIGKILL while it writes and then checks that every game it reported is in the store.
//!
//! It plays Canfield deal 1 a move at a time (undoing now and then, so the saved game has a redo list) and, for
//! each of `--games N` rounds, saves the unfinished game of the front-end `torture` and records a finished game
//! (every other round with `finish`, which also forgets the unfinished game), printing the finished game's id on
//! a line of its own once the transaction has committed. At the end it checks that a saved game resumes as it
//! was, and forgets it.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use patience_core::{builtin, Game};

use crate::store::{FinishedGame, Outcome, SavedGame, Store};
use crate::StoreTortureArgs;

/// The front-end name the torture saves its unfinished game under.
const FRONTEND: &str = "torture";

/// Runs the command.
pub fn run(args: &StoreTortureArgs, data_dir: Option<&Path>) -> anyhow::Result<()> {
    let dir = Store::data_dir(data_dir)?;
    let (store, notes) = Store::open(&dir)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    let rules = Arc::new(builtin::rules("canfield").context("canfield is built in")?);
    let mut game = Game::new(Arc::clone(&rules), 1)?;
    let mut stdout = std::io::stdout().lock();
    for round in 0..args.games {
        step(&mut game, round);
        let seconds = f64::from(round) / 2.0;
        let saved = SavedGame::from_game(&game, None, seconds, false, round % 5 == 4);
        store.save_unfinished(FRONTEND, &saved)?;
        let outcome = [Outcome::Won, Outcome::Lost, Outcome::Abandoned][round as usize % 3];
        let record = FinishedGame::from_game(&game, None, outcome, seconds, round % 2 == 1, false);
        // Both ways of recording a game, so that kills land in both kinds of transaction.
        let id = if round % 2 == 0 {
            store.record_finished(&record)?
        } else {
            store.finish(FRONTEND, &record)?
        };
        writeln!(stdout, "{id}")
            .and_then(|()| stdout.flush())
            .context("cannot write to standard output")?;
    }
    if let Some(saved) = store.load_unfinished(FRONTEND)? {
        let resumed = saved.to_game(Arc::new(saved.rules()?))?;
        anyhow::ensure!(
            resumed.position() == game.position() && resumed.redo_stack() == game.redo_stack(),
            "the saved game did not resume as it was"
        );
    }
    store.clear_unfinished(FRONTEND)?;
    Ok(())
}

/// One step of play: an undo every fifth round, else the first legal move, else a new start.
fn step(game: &mut Game, round: u32) {
    if round % 5 == 4 && game.undo().is_some() {
        return;
    }
    match game.legal_moves().first() {
        Some(&mv) if game.move_count() < 200 => {
            // A legal move is always played; the result is the move as completed.
            let _ = game.play(mv);
        }
        _ => game.restart(),
    }
}
