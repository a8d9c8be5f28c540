//! What can go wrong with the store, said so that the player knows what failed and where.

use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

/// The store could not do what was asked. Every message names the file or folder; none of these is a reason to
/// stop playing (a player keeps going and says that the game was not recorded).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No data folder was given and the system names none.
    #[error(
        "no data folder: this system names no home folder for patience; give one with --data-dir DIR or PATIENCE_DATA"
    )]
    NoDataFolder,
    /// The data folder could not be made.
    #[error("{path}: cannot make the data folder: {reason}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// The store was written by a newer patience, with a schema this one does not know. Nothing was changed.
    #[error(
        "{path}: the store has schema version {found}, but this patience knows versions up to {known}; \
         use a newer patience (the store was left as it is)"
    )]
    Newer {
        /// The store's file.
        path: PathBuf,
        /// The store's schema version.
        found: i64,
        /// The newest schema version this program knows.
        known: i64,
    },
    /// Reading or writing the store failed.
    #[error("{path}: cannot {action}: {reason}")]
    Database {
        /// The store's file.
        path: PathBuf,
        /// What was being done ("record the finished game").
        action: String,
        /// The kind of failure.
        failure: Failure,
        /// What went wrong, in words, with SQLite's own message.
        reason: String,
    },
    /// The file at the store's path is not a sound store, and it could not be moved aside.
    #[error("{path} is not a sound store ({why}), and it cannot be moved aside to {to}: {reason}")]
    MoveAside {
        /// The store's file.
        path: PathBuf,
        /// Where it was to go.
        to: PathBuf,
        /// Why it is not sound.
        why: String,
        /// What the system said.
        reason: String,
    },
    /// A row in the store is not one that patience writes.
    #[error("{path}: {what}")]
    Damaged {
        /// The store's file.
        path: PathBuf,
        /// What is wrong with the row.
        what: String,
    },
    /// A game to record makes no sense (a time that is not a number of seconds, say).
    #[error("cannot record the game: {0}")]
    Invalid(String),
    /// A saved game cannot be played again: its rules, its start or one of its moves does not fit.
    #[error("the saved game cannot be resumed: {0}")]
    Resume(String),
}

/// The kind of a database failure, so a player can say what to do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The file, its folder or the disk may not be written, or the file cannot be opened at all.
    ReadOnly,
    /// The disk (or the store's size limit) is full.
    Full,
    /// Another program held the store locked for longer than the busy timeout.
    Busy,
    /// Anything else.
    Other,
}

impl StoreError {
    /// The kind of database failure, when the error is one.
    #[allow(
        dead_code,
        reason = "the store's API for the players (terminal and web); used by tests until they call it"
    )]
    pub fn failure(&self) -> Option<Failure> {
        match self {
            StoreError::Database { failure, .. } => Some(*failure),
            _ => None,
        }
    }

    /// A database error while doing `action` on the store at `path`, said plainly.
    pub(super) fn database(path: &Path, action: &str, error: &rusqlite::Error) -> StoreError {
        let (failure, hint) = match error.sqlite_error_code() {
            Some(ErrorCode::ReadOnly) => (
                Failure::ReadOnly,
                "the store may not be written (is the file or its folder read-only, or the disk mounted read-only?)",
            ),
            Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => (
                Failure::ReadOnly,
                "the file cannot be opened (may its folder be read and written?)",
            ),
            Some(ErrorCode::DiskFull) => (Failure::Full, "the disk is full"),
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => (
                Failure::Busy,
                "another program kept the store locked for more than 5 seconds",
            ),
            _ => (Failure::Other, ""),
        };
        let reason = if hint.is_empty() {
            error.to_string()
        } else {
            format!("{hint} (SQLite: {error})")
        };
        StoreError::Database {
            path: path.to_path_buf(),
            action: action.to_string(),
            failure,
            reason,
        }
    }
}
