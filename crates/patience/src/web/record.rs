//! The player's record for the web player: finished games go to the store, the game in play is saved as the
//! `web` front-end's unfinished game, and the statistics page reads the history and the summaries.
//!
//! A store that cannot be opened does not stop the server: the games are played all the same, and the API says
//! why nothing is recorded.

use std::path::Path;
use std::sync::Mutex;

use crate::store::{self, FinishedGame, GameSummary, SavedGame, Store};

/// The name the web player's unfinished game is saved under.
pub const FRONTEND: &str = "web";

/// The store, if it could be opened.
#[derive(Debug)]
pub struct Record {
    store: Option<Mutex<Store>>,
    problem: Option<String>,
    notes: Vec<String>,
}

impl Record {
    /// Opens the store in the data folder (`--data-dir`, else `PATIENCE_DATA`, else the user's data folder).
    pub fn open(data_dir: Option<&Path>) -> Record {
        let opened = Store::data_dir(data_dir).and_then(|dir| Store::open(&dir));
        match opened {
            Ok((store, notes)) => Record {
                store: Some(Mutex::new(store)),
                problem: None,
                notes,
            },
            Err(error) => Record::none(error.to_string()),
        }
    }

    /// No store: nothing is recorded, for `reason`.
    pub fn none(reason: impl Into<String>) -> Record {
        Record {
            store: None,
            problem: Some(reason.into()),
            notes: Vec::new(),
        }
    }

    /// What opening the store did besides opening it (a new store, an upgrade, a file moved aside).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Why nothing is recorded, when the store could not be opened.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Records a finished game; `saved` says whether it is the one saved as the unfinished game, which is then
    /// forgotten in the same transaction. Returns the record's id.
    pub fn finish(&self, game: &FinishedGame, saved: bool) -> Result<i64, String> {
        self.with(|store| {
            if saved {
                store.finish(FRONTEND, game)
            } else {
                store.record_finished(game)
            }
        })
    }

    /// Saves the game in play, to be resumed later.
    pub fn save(&self, game: &SavedGame) -> Result<(), String> {
        self.with(|store| store.save_unfinished(FRONTEND, game))
    }

    /// The game saved to be resumed, if there is one.
    pub fn load(&self) -> Result<Option<SavedGame>, String> {
        self.with(|store| store.load_unfinished(FRONTEND))
    }

    /// The finished games (oldest first) and what they add up to, of every game or of one.
    pub fn stats(
        &self,
        game: Option<&str>,
    ) -> Result<(Vec<FinishedGame>, Vec<GameSummary>), String> {
        self.with(|store| {
            let games = store.history(game)?;
            let summaries = store::summarize(&games);
            Ok((games, summaries))
        })
    }

    fn with<T>(
        &self,
        work: impl FnOnce(&Store) -> Result<T, store::StoreError>,
    ) -> Result<T, String> {
        let Some(store) = &self.store else {
            return Err(self
                .problem
                .clone()
                .unwrap_or_else(|| "no store".to_string()));
        };
        let store = store.lock().unwrap_or_else(|e| e.into_inner());
        work(&store).map_err(|e| e.to_string())
    }
}
