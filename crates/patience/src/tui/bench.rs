//! `patience bench-tui` (hidden): the input-latency benchmark. It plays moves through the player's key handling
//! and draws each one to an in-memory terminal of a usual size, while a solve runs in another thread at the
//! priority of the player's background solves (and the player's own background solver works on every new
//! position), and prints the median, the 95th and 99th percentiles
//! and the worst time from key press to finished drawing. A frame is 16 ms at 60 Hz. With `--data-dir`, each move
//! is also saved to the store, as `patience play` does.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use patience_core::Position;
use patience_solver::{solve_with_cancel, Limits};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use super::app::{App, Settings, Start};
use super::draw;
use super::record::Record;
use crate::{input, BenchTuiArgs};

/// Runs the benchmark and prints its figures; with a data folder, every move is saved to the store there, as in
/// play.
pub fn run(args: &BenchTuiArgs, data_dir: Option<&Path>) -> anyhow::Result<()> {
    let record = match data_dir {
        Some(dir) => {
            let (record, notes) = Record::open(Some(dir));
            for note in notes {
                eprintln!("note: {note}");
            }
            record
        }
        None => Record::none(),
    };
    let saving = data_dir.is_some();
    let rules = Arc::new(input::builtin_rules(&args.game)?);
    let deal = input::deal_number(&args.deal)?;
    let busy = Arc::new(AtomicBool::new(false));
    let solver = {
        let rules = Arc::clone(&rules);
        let busy = Arc::clone(&busy);
        let position = Position::deal(&rules, deal)?;
        std::thread::spawn(move || {
            // As the player's own background solves do.
            super::background::give_way();
            let limits = Limits {
                time: None,
                memory_bytes: 512 << 20,
                nodes: None,
            };
            solve_with_cancel(&rules, &position, &limits, &busy)
        })
    };
    let settings = Settings {
        colour: true,
        auto_play: false,
        winnable_only: false,
        solver: true,
        ..Settings::default()
    };
    let mut app = App::new(
        settings,
        Start::Deal {
            rules: Arc::clone(&rules),
            deal: Some(deal),
        },
        None,
        record,
    );
    let mut terminal =
        Terminal::new(TestBackend::new(args.width, args.height)).context("a test terminal")?;
    terminal
        .draw(|frame| draw::draw(frame, &mut app))
        .context("drawing")?;
    let mut times = Vec::with_capacity(args.moves);
    let mut made = 0usize;
    for round in 0..args.moves {
        let presses = next_presses(&app, round, made);
        let start = Instant::now();
        for key in presses {
            app.key(key);
        }
        app.tick();
        terminal
            .draw(|frame| draw::draw(frame, &mut app))
            .context("drawing")?;
        times.push(start.elapsed());
        made = app.play.as_ref().map_or(0, |p| p.game.move_count());
    }
    let still_solving = !solver.is_finished();
    busy.store(true, Ordering::Relaxed);
    let _ = solver.join();
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "bench-tui: {} ({}), deal {deal}, {}x{} terminal, {} moves and undos, each from key press to finished drawing",
        rules.name, rules.id, args.width, args.height, times.len()
    );
    println!(
        "while a solve ran in another thread{} and the player's own solver worked on each new position{}",
        if still_solving {
            " all along"
        } else {
            " (it finished before the end)"
        },
        if saving {
            "; each move saved to the store"
        } else {
            ""
        }
    );
    println!(
        "median {}, 95th percentile {}, 99th percentile {}, worst {} (a frame at 60 Hz is 16 ms)",
        ms(at(0.5)),
        ms(at(0.95)),
        ms(at(0.99)),
        ms(at(1.0))
    );
    Ok(())
}

/// The keys of the next round: a move forward while there is one (the first legal move that is not a draw, or
/// a draw), and every few rounds an undo, so that the game neither ends nor stands still.
fn next_presses(app: &App, round: usize, made: usize) -> Vec<KeyEvent> {
    let key = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    let Some(play) = app.play.as_ref() else {
        return vec![key('u')];
    };
    if round % 3 == 2 && made > 0 {
        return vec![key('u')];
    }
    let moves = play.game.legal_moves();
    let chosen = moves
        .iter()
        .find(|mv| !mv.is_stock_move())
        .or_else(|| moves.first());
    match chosen.and_then(|&mv| play.keys_for(mv)) {
        Some(keys) => keys.into_iter().map(key).collect(),
        None => vec![key('u')],
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}
