//! The player's record, kept in the store: the unfinished game saved after every move and resumed on the next
//! start, each game recorded when it ends (won, lost, or abandoned for another deal), and the results per game.
//! The store is optional: without one (it could not be opened, or tests), the player plays on and says so.
//!
//! Writes go to a thread of their own, so that a move never waits for the disk (a synced SQLite transaction can
//! take tens of milliseconds); saves queued one behind another are written once, the last. Dropping the record
//! waits for every write.

use std::path::Path;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use patience_core::Game;

use super::play::{clock_text, Play, State};
use crate::store::{FinishedGame, GameSummary, Outcome, SavedGame, Store};

/// The name the terminal player's unfinished game is kept under.
pub const FRONTEND: &str = "terminal";

/// The store, if there is one, and its writer thread.
#[derive(Debug, Default)]
pub struct Record {
    writer: Option<Writer>,
}

/// The store shared with the thread that writes to it.
#[derive(Debug)]
struct Writer {
    store: Arc<Mutex<Store>>,
    jobs: Option<Sender<Job>>,
    thread: Option<JoinHandle<()>>,
    problems: Arc<Mutex<Vec<String>>>,
}

/// A write for the writer thread.
#[derive(Debug)]
enum Job {
    Save(Box<SavedGame>),
    Finish(Box<FinishedGame>),
    Clear,
    Flush(Sender<()>),
}

/// A game resumed from the store.
#[derive(Debug, Clone)]
pub struct Resumed {
    /// The game, its history and its redo stack as they were left.
    pub game: Game,
    /// The time played before.
    pub elapsed: Duration,
    /// The rule file's text, for a game read from one.
    pub rules_toml: Option<String>,
    /// Whether hints were used before.
    pub hints_used: bool,
    /// Whether moves were taken back before.
    pub undo_used: bool,
}

impl Record {
    /// No store: nothing is saved or recorded.
    pub fn none() -> Record {
        Record { writer: None }
    }

    /// Opens the store in the data folder (`--data-dir`, else `PATIENCE_DATA`, else the user's data folder); the
    /// notes say what happened besides (a new store, a damaged file moved aside, or why there is no store).
    pub fn open(data_dir: Option<&Path>) -> (Record, Vec<String>) {
        let opened = Store::data_dir(data_dir).and_then(|dir| Store::open(&dir));
        match opened {
            Ok((store, notes)) => (
                Record {
                    writer: Some(Writer::start(store)),
                },
                notes,
            ),
            Err(e) => (
                Record::none(),
                vec![format!("your games are not being recorded: {e}")],
            ),
        }
    }

    /// What went wrong with the writes since the last call (the player is told, and plays on).
    pub fn problems(&self) -> Vec<String> {
        match &self.writer {
            Some(writer) => std::mem::take(&mut *lock(&writer.problems)),
            None => Vec::new(),
        }
    }

    /// Waits until every write asked for is done.
    pub fn flush(&self) {
        if let Some(writer) = &self.writer {
            let (done, wait) = channel();
            if writer.write(Job::Flush(done)).is_ok() {
                let _ = wait.recv();
            }
        }
    }

    fn store(&self) -> Option<MutexGuard<'_, Store>> {
        self.writer.as_ref().map(|w| lock(&w.store))
    }

    /// The unfinished game left last time, if any; a saved game that cannot be resumed any more is forgotten and
    /// said why.
    pub fn resume(&self) -> Result<Option<Resumed>, String> {
        let Some(store) = self.store() else {
            return Ok(None);
        };
        let Some(saved) = store.load_unfinished(FRONTEND).map_err(|e| e.to_string())? else {
            return Ok(None);
        };
        let resumed = saved
            .rules()
            .and_then(|rules| saved.to_game(Arc::new(rules)))
            .map(|game| Resumed {
                game,
                elapsed: Duration::try_from_secs_f64(saved.seconds).unwrap_or_default(),
                rules_toml: saved.rules_toml.clone(),
                hints_used: saved.hints_used,
                undo_used: saved.undo_used,
            });
        match resumed {
            Ok(resumed) => Ok(Some(resumed)),
            Err(e) => {
                let _ = store.clear_unfinished(FRONTEND);
                Err(format!(
                    "the game left unfinished last time cannot be resumed ({e}); it was set aside"
                ))
            }
        }
    }

    /// Saves the game in play as the unfinished game, in one transaction (in the writer thread); a game already
    /// recorded as finished is not saved again.
    pub fn save(&self, play: &Play, rules_toml: Option<&str>) -> Result<(), String> {
        let Some(writer) = &self.writer else {
            return Ok(());
        };
        if play.recorded {
            return Ok(());
        }
        let saved = SavedGame::from_game(
            &play.game,
            rules_toml,
            play.clock.elapsed().as_secs_f64(),
            play.hints_used,
            play.undo_used,
        );
        writer.write(Job::Save(Box::new(saved)))
    }

    /// Records the game in play as finished with `outcome` and forgets the unfinished game, in one transaction.
    pub fn finish(
        &self,
        play: &mut Play,
        outcome: Outcome,
        rules_toml: Option<&str>,
    ) -> Result<(), String> {
        if play.recorded {
            return Ok(());
        }
        play.recorded = true;
        let Some(writer) = &self.writer else {
            return Ok(());
        };
        let finished = FinishedGame::from_game(
            &play.game,
            rules_toml,
            outcome,
            play.clock.elapsed().as_secs_f64(),
            play.hints_used,
            play.undo_used,
        );
        writer.write(Job::Finish(Box::new(finished)))
    }

    /// Records a game that is left for another (a new deal, another game): lost if it is stuck or was given up,
    /// abandoned if moves were left; a deal left untouched is not recorded.
    pub fn leave(&self, play: &mut Play, rules_toml: Option<&str>) -> Result<(), String> {
        if play.recorded {
            return Ok(());
        }
        let outcome = match play.state {
            State::Won => Outcome::Won,
            State::Stuck => Outcome::Lost,
            State::Playing if play.gave_up => Outcome::Lost,
            State::Playing if play.game.move_count() == 0 => {
                play.recorded = true;
                return match &self.writer {
                    Some(writer) => writer.write(Job::Clear),
                    None => Ok(()),
                };
            }
            State::Playing => Outcome::Abandoned,
        };
        self.finish(play, outcome, rules_toml)
    }

    /// Records the game in play when the player quits: a game over (stuck, given up) as lost; any other is saved
    /// to be resumed.
    pub fn quit(&self, play: &mut Play, rules_toml: Option<&str>) -> Result<(), String> {
        match play.state {
            State::Stuck => self.finish(play, Outcome::Lost, rules_toml),
            State::Playing if play.gave_up => self.finish(play, Outcome::Lost, rules_toml),
            _ => self.save(play, rules_toml),
        }
    }

    /// The results per game as lines for the summary overlay, the game `first` (the one in play) first.
    pub fn summary(&self, first: Option<&str>) -> Vec<String> {
        self.flush();
        let Some(store) = self.store() else {
            return vec![
                "No store is open, so no results are kept (see the note on the menu).".to_string(),
            ];
        };
        let mut summaries = match store.summaries(None) {
            Ok(summaries) => summaries,
            Err(e) => return vec![format!("The results cannot be read: {e}")],
        };
        if summaries.is_empty() {
            return vec!["No finished games recorded yet.".to_string()];
        }
        summaries.sort_by_key(|s| Some(s.game.as_str()) != first);
        let mut lines = vec![format!("Store: {}", store.path().display()), String::new()];
        for summary in &summaries {
            lines.extend(summary_lines(summary));
            lines.push(String::new());
        }
        lines
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        if let Some(writer) = &mut self.writer {
            // Closing the queue ends the thread once every write is done.
            writer.jobs = None;
            if let Some(thread) = writer.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

impl Writer {
    fn start(store: Store) -> Writer {
        let store = Arc::new(Mutex::new(store));
        let problems = Arc::new(Mutex::new(Vec::new()));
        let (jobs, queue) = channel::<Job>();
        let thread = {
            let store = Arc::clone(&store);
            let problems = Arc::clone(&problems);
            std::thread::Builder::new()
                .name("patience-record".into())
                .spawn(move || {
                    while let Ok(first) = queue.recv() {
                        // Of saves waiting one behind another, only the last matters.
                        let mut batch = vec![first];
                        batch.extend(queue.try_iter());
                        let mut jobs = batch.into_iter().peekable();
                        while let Some(job) = jobs.next() {
                            if matches!(job, Job::Save(_))
                                && matches!(jobs.peek(), Some(Job::Save(_)))
                            {
                                continue;
                            }
                            if let Err(e) = run(&lock(&store), job) {
                                lock(&problems).push(e.to_string());
                            }
                        }
                    }
                })
        };
        match thread {
            Ok(thread) => Writer {
                store,
                jobs: Some(jobs),
                thread: Some(thread),
                problems,
            },
            // Without a thread the writes are made at once, as they come.
            Err(_) => Writer {
                store,
                jobs: None,
                thread: None,
                problems,
            },
        }
    }

    /// Queues a write, or makes it at once when there is no writer thread.
    fn write(&self, job: Job) -> Result<(), String> {
        match &self.jobs {
            Some(jobs) => jobs
                .send(job)
                .map_err(|_| "the store's writer has stopped".to_string()),
            None => run(&lock(&self.store), job).map_err(|e| e.to_string()),
        }
    }
}

/// Makes one write.
fn run(store: &Store, job: Job) -> Result<(), crate::store::StoreError> {
    match job {
        Job::Save(saved) => store.save_unfinished(FRONTEND, &saved),
        Job::Finish(finished) => store.finish(FRONTEND, &finished).map(|_| ()),
        Job::Clear => store.clear_unfinished(FRONTEND),
        Job::Flush(done) => {
            let _ = done.send(());
            Ok(())
        }
    }
}

/// Locks a mutex, taking it back from a thread that panicked while holding it (the store keeps its own
/// consistency through transactions).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One game's results in words.
fn summary_lines(s: &GameSummary) -> Vec<String> {
    let custom = if s.rules_hash.is_some() {
        " (rule file)"
    } else {
        ""
    };
    let mut lines = vec![format!("{} ({}){custom}", s.rules_name, s.game)];
    lines.push(format!(
        "  played {}, won {} ({:.0} %), lost {}, abandoned {}",
        s.played,
        s.won,
        s.win_rate * 100.0,
        s.lost,
        s.abandoned
    ));
    let mut best = vec![format!(
        "streak {} (best {})",
        s.current_streak, s.best_streak
    )];
    if let Some(seconds) = s.best_seconds {
        best.push(format!(
            "best time {}",
            clock_text(Duration::try_from_secs_f64(seconds).unwrap_or_default())
        ));
    }
    if let Some(moves) = s.fewest_moves {
        best.push(format!("fewest moves {moves}"));
    }
    best.push(format!(
        "bankroll {}",
        if s.bankroll < 0 {
            format!("-${}", -s.bankroll)
        } else {
            format!("${}", s.bankroll)
        }
    ));
    lines.push(format!("  {}", best.join(", ")));
    lines
}
