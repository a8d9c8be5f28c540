//! `patience play`: the full-screen terminal player (ratatui over crossterm).
//!
//! One idea a file: [`app`] the player's state and what each action does to it, [`background`] the background
//! threads' low priority, [`mod@play`] one deal in play,
//! [`keys`] the keys and what they mean, [`board`] where each pile goes for each layout hint, [`draw`] the
//! drawing, [`menu`] the game menu, [`help`] the overlays, [`analysis`] the background solver behind the
//! indicator and the hints, [`postmortem`] the analysis of a lost game, [`finder`] the search for winnable deals,
//! [`record`] the player's record in the store (the unfinished game, finished games, results), [`mod@bench`] the
//! input-latency benchmark.

pub mod analysis;
pub mod app;
pub mod background;
pub mod bench;
pub mod board;
pub mod draw;
pub mod event;
pub mod finder;
pub mod help;
pub mod keys;
pub mod menu;
pub mod play;
pub mod postmortem;
pub mod record;
#[cfg(test)]
mod tests;

use std::io::{IsTerminal, Stdout};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self as term_event, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;

use crate::{input, PlayArgs};
use app::{App, Settings, Start};
use record::Record;

/// How long the loop waits for input before it redraws (the clock, the solver's findings).
const FRAME: Duration = Duration::from_millis(200);

/// Runs the player until the player quits, with the store in `data_dir` (`--data-dir`).
pub fn run(args: &PlayArgs, data_dir: Option<&Path>) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("patience play needs a terminal: run it in one, not through a pipe");
    }
    let (record, notes) = Record::open(data_dir);
    let app = new_app(args, record, notes)?;
    play(app)
}

/// The player as the command line asks: a game and deal, a rule file's game, or else the game left unfinished
/// last time, or the menu. `notes` (from opening the store) show on the first screen.
pub fn new_app(args: &PlayArgs, record: Record, mut notes: Vec<String>) -> anyhow::Result<App> {
    let custom = args
        .rules
        .as_deref()
        .map(|file| {
            let rules = input::rules_file(file)?;
            let text = std::fs::read_to_string(file).ok();
            Ok::<_, anyhow::Error>((Arc::new(rules), text))
        })
        .transpose()?;
    let deal = args.deal.as_deref().map(input::deal_number).transpose()?;
    let resumed = match record.resume() {
        Ok(resumed) => resumed,
        Err(note) => {
            notes.push(note);
            None
        }
    };
    let start = match (&custom, &args.game, resumed) {
        (None, None, Some(resumed)) if deal.is_none() => Start::Resume(Box::new(resumed)),
        (custom, game, resumed) => {
            // A game asked for on the command line replaces the one left unfinished: that one is recorded.
            if let Some(resumed) = resumed {
                let mut left = play::Play::new(resumed.game, resumed.elapsed);
                left.hints_used = resumed.hints_used;
                left.undo_used = resumed.undo_used;
                if let Err(e) = record.leave(&mut left, resumed.rules_toml.as_deref()) {
                    notes.push(format!("not recorded: {e}"));
                }
            }
            match (custom, game) {
                (Some((rules, _)), _) => Start::Deal {
                    rules: Arc::clone(rules),
                    deal,
                },
                (None, Some(id)) => Start::Deal {
                    rules: Arc::new(input::builtin_rules(id)?),
                    deal,
                },
                (None, None) => Start::Menu { deal },
            }
        }
    };
    let settings = Settings {
        colour: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        winnable_only: args.winnable,
        ..Settings::default()
    };
    let mut app = App::new(settings, start, custom, record);
    if !notes.is_empty() {
        let text = notes.join("; ");
        match app.play.as_mut() {
            Some(play) => play.say(text, play::Tone::Refused),
            None => app.note = Some(text),
        }
    }
    Ok(app)
}

/// Takes over the terminal, runs the loop, and gives the terminal back however the loop ends.
fn play(mut app: App) -> anyhow::Result<()> {
    let mut screen = FullScreen::enter()?;
    let result = event_loop(&mut screen.terminal, &mut app);
    drop(screen);
    result
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
) -> anyhow::Result<()> {
    loop {
        app.tick();
        terminal
            .draw(|frame| draw::draw(frame, app))
            .context("cannot draw on the terminal")?;
        if app.quit {
            return Ok(());
        }
        if term_event::poll(FRAME).context("cannot read the terminal")? {
            // Take every event waiting before the next drawing.
            loop {
                match term_event::read().context("cannot read the terminal")? {
                    term_event::Event::Key(key) => app.key(key),
                    term_event::Event::Mouse(mouse) => app.mouse(mouse),
                    _ => {}
                }
                if app.quit || !term_event::poll(Duration::ZERO).unwrap_or(false) {
                    break;
                }
            }
        }
    }
}

/// The terminal in raw mode on the alternate screen with mouse capture, given back when dropped (and on a
/// panic, by the hook [`FullScreen::enter`] installs).
struct FullScreen {
    terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl FullScreen {
    fn enter() -> anyhow::Result<FullScreen> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        enable_raw_mode().context("cannot put the terminal in raw mode")?;
        let mut stdout = std::io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
            restore();
            return Err(e).context("cannot set up the terminal");
        }
        let terminal = match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(terminal) => terminal,
            Err(e) => {
                restore();
                return Err(e).context("cannot set up the terminal");
            }
        };
        Ok(FullScreen { terminal })
    }
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        restore();
        let _ = self.terminal.show_cursor();
    }
}

/// Gives the terminal back: mouse capture off, the main screen, cooked mode.
fn restore() {
    let _ = execute!(std::io::stdout(), DisableMouseCapture, LeaveAlternateScreen);
    let _ = disable_raw_mode();
}
