//! The player's record: finished games, the unfinished game of each player front-end, and what they add up to,
//! in one SQLite file (`patience.sqlite3`) in the data folder. Described in `docs/store.md`.
//!
//! Every write is one transaction. The store runs in WAL mode with full syncs and waits up to
//! [`BUSY_TIMEOUT`] for another program's lock, so a terminal player and a web server can share it, and a
//! process killed at any moment leaves every committed game in place. A file at the store's path that is not a
//! sound store is moved aside and a fresh store started; a store of a newer schema is refused untouched.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = Store::data_dir(None)?;
//! let (store, notes) = Store::open(&dir)?;
//! for note in notes {
//!     eprintln!("note: {note}");
//! }
//! for summary in store.summaries(Some("canfield"))? {
//!     println!("{} won {} of {}", summary.rules_name, summary.won, summary.played);
//! }
//! # Ok(()) }
//! ```

mod clock;
mod corrupt;
mod error;
mod finished;
mod saved;
mod schema;
mod summary;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, Transaction, TransactionBehavior};

pub use clock::for_people;
pub use error::StoreError;
pub use finished::{FinishedGame, Outcome};
pub use saved::SavedGame;
pub use schema::SCHEMA_VERSION;
pub use summary::{summarize, GameSummary};
#[allow(
    unused_imports,
    reason = "the store's API for the players (terminal and web); used by tests until they call it"
)]
pub use {clock::now, error::Failure, finished::rules_hash};

/// The store's file name in the data folder.
pub const FILE_NAME: &str = "patience.sqlite3";

/// The environment variable that names the data folder when `--data-dir` is not given.
pub const DATA_ENV: &str = "PATIENCE_DATA";

/// How long a write waits for another program holding the store before it gives up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The player's store, open. One connection: share it between threads behind a lock.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, in the file [`FILE_NAME`]: upgrades an older schema, refuses
    /// a newer one. A corrupt or non-SQLite file is moved aside as `patience.sqlite3.corrupt-<timestamp>` and a
    /// fresh store started. The notes say what was done besides opening (a new store, an upgrade, a file moved
    /// aside), for the player to see.
    pub fn open(dir: &Path) -> Result<(Store, Vec<String>), StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Folder {
            path: dir.to_path_buf(),
            reason: e.to_string(),
        })?;
        let path = Store::file(dir);
        let mut notes = Vec::new();
        let conn = match connect(&path)? {
            Ok(conn) => conn,
            Err(why) => {
                let to = corrupt::aside_path(&path);
                corrupt::move_aside(&path, &to).map_err(|e| StoreError::MoveAside {
                    path: path.clone(),
                    to: to.clone(),
                    why: why.clone(),
                    reason: e.to_string(),
                })?;
                notes.push(format!(
                    "{} was not a sound store ({why}); it was moved aside to {}, and a new store was started",
                    path.display(),
                    to.display()
                ));
                connect(&path)?.map_err(|why| StoreError::Damaged {
                    path: path.clone(),
                    what: format!("the new store is not sound either: {why}"),
                })?
            }
        };
        notes.extend(schema::migrate(&conn, &path)?);
        Ok((Store { conn, path }, notes))
    }

    /// The data folder: `flag` (`--data-dir`) if given, else `PATIENCE_DATA` if set, else the user's data folder
    /// for patience (`~/.local/share/patience` on Linux).
    pub fn data_dir(flag: Option<&Path>) -> Result<PathBuf, StoreError> {
        data_dir_from(flag, std::env::var_os(DATA_ENV))
    }

    /// The store's file in a data folder.
    pub fn file(dir: &Path) -> PathBuf {
        dir.join(FILE_NAME)
    }

    /// The store's file.
    #[allow(
        dead_code,
        reason = "the store's API for the players (terminal and web); used by tests until they call it"
    )]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `work` in one transaction that takes the write lock at once (waiting up to [`BUSY_TIMEOUT`]), and
    /// commits it; on any error nothing is written. `action` says what is being done, for the error.
    fn write<T>(
        &self,
        action: &str,
        work: impl FnOnce(&Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let fail = |e: rusqlite::Error| StoreError::database(&self.path, action, &e);
        let tx =
            Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate).map_err(fail)?;
        let value = work(&tx).map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(value)
    }
}

fn data_dir_from(flag: Option<&Path>, env: Option<OsString>) -> Result<PathBuf, StoreError> {
    if let Some(dir) = flag {
        return Ok(dir.to_path_buf());
    }
    if let Some(dir) = env.filter(|dir| !dir.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "patience")
        .map(|dirs| dirs.data_dir().to_path_buf())
        .ok_or(StoreError::NoDataFolder)
}

/// Opens the file and sets the store up: busy timeout, a soundness check, WAL and full syncs. The outer error is
/// a failure to leave the file alone for (it cannot be read, it is newer); the inner one says why the file is
/// not a sound store.
fn connect(path: &Path) -> Result<Result<Connection, String>, StoreError> {
    let fail = |e: rusqlite::Error| StoreError::database(path, "open the store", &e);
    let conn = Connection::open(path).map_err(fail)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
    match corrupt::quick_check(&conn) {
        Ok(None) => {}
        Ok(Some(findings)) => return Ok(Err(findings)),
        Err(e) if corrupt::is_unsound(&e) => return Ok(Err(e.to_string())),
        Err(e) => return Err(fail(e)),
    }
    let found = schema::version(&conn).map_err(fail)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            path: path.to_path_buf(),
            found,
            known: SCHEMA_VERSION,
        });
    }
    let mode = into_wal(&conn).map_err(fail)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::database(
            path,
            "open the store",
            &rusqlite::Error::InvalidParameterName(format!(
                "the store could not be put in WAL mode (it is in {mode} mode)"
            )),
        ));
    }
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(fail)?;
    Ok(Ok(conn))
}

/// Puts the store in WAL mode and returns the mode it is in then. The switch takes an exclusive lock, and SQLite
/// answers "busy" at once, without its busy handler, when another program has the file open: two programs
/// starting a new store together meet that. So the switch is tried again until [`BUSY_TIMEOUT`]; once either
/// program has made the switch, it is kept in the file and the other's is a no-op.
fn into_wal(conn: &Connection) -> rusqlite::Result<String> {
    let started = std::time::Instant::now();
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0)) {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && started.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            answer => return answer,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A temporary folder for one test's store, removed at the end.
    pub fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("patience-store-")
            .tempdir()
            .expect("a temporary folder")
    }

    /// A finished game of Canfield, won, numbered `n` in its deal and time.
    pub fn finished(n: u64) -> FinishedGame {
        FinishedGame {
            id: None,
            game: "canfield".to_string(),
            rules_name: "Canfield".to_string(),
            rules_hash: None,
            deal: Some(n + 1),
            outcome: Outcome::Won,
            moves: 100 + n as u32,
            seconds: 200.0 + n as f64 / 4.0,
            cards: 52,
            casino_dollars: 208,
            finished_at: "2025-03-01T18:04:05Z".to_string(),
            hints_used: n % 2 == 1,
            undo_used: n % 3 == 1,
        }
    }

    #[test]
    fn the_data_folder_is_the_flag_then_the_variable_then_the_users() {
        let flag = Path::new("/tmp/flag");
        assert_eq!(
            data_dir_from(Some(flag), Some("/tmp/env".into())).expect("dir"),
            flag
        );
        assert_eq!(
            data_dir_from(None, Some("/tmp/env".into())).expect("dir"),
            Path::new("/tmp/env")
        );
        if let Ok(dir) = data_dir_from(None, Some("".into())) {
            assert!(dir.ends_with("patience"), "{}", dir.display());
        }
    }

    #[test]
    fn the_store_is_in_wal_mode_with_a_busy_timeout() {
        let dir = scratch();
        let (store, notes) = Store::open(&dir.path().join("made/on/the/way")).expect("open");
        assert_eq!(notes.len(), 1, "a new store: {notes:?}");
        let mode: String = store
            .conn
            .pragma_query_value(None, "journal_mode", |row| row.get(0))
            .expect("mode");
        assert_eq!(mode, "wal");
        let timeout: i64 = store
            .conn
            .pragma_query_value(None, "busy_timeout", |row| row.get(0))
            .expect("timeout");
        assert_eq!(timeout, 5000);
        assert!(store.path().ends_with(FILE_NAME));
    }

    #[test]
    fn two_connections_write_at_once_and_lose_nothing() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        drop(store);
        let writers: Vec<_> = (0..4)
            .map(|writer| {
                let dir = dir.path().to_path_buf();
                std::thread::spawn(move || {
                    let (store, _) = Store::open(&dir).expect("open");
                    (0..50)
                        .map(|n| {
                            store
                                .record_finished(&finished(writer * 1000 + n))
                                .expect("record")
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut ids: Vec<i64> = writers
            .into_iter()
            .flat_map(|w| w.join().expect("writer"))
            .collect();
        ids.sort_unstable();
        let (store, _) = Store::open(dir.path()).expect("open");
        let stored: Vec<i64> = store
            .history(None)
            .expect("history")
            .iter()
            .filter_map(|g| g.id)
            .collect();
        assert_eq!(stored, ids);
        assert_eq!(ids.len(), 200);
    }

    #[test]
    fn a_full_store_gives_a_clear_error_and_keeps_what_it_had() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        store.record_finished(&finished(0)).expect("record");
        let pages: i64 = store
            .conn
            .pragma_query_value(None, "page_count", |row| row.get(0))
            .expect("pages");
        // The disk is "full" as soon as the store needs one page more than it has.
        store
            .conn
            .pragma_update(None, "max_page_count", pages)
            .expect("limit");
        let mut game = finished(1);
        game.rules_name = "x".repeat(20_000);
        let error = store.record_finished(&game).expect_err("no room");
        assert_eq!(error.failure(), Some(Failure::Full));
        let message = error.to_string();
        assert!(
            message.contains("the disk is full")
                && message.contains("record the finished game")
                && message.contains(&store.path().display().to_string()),
            "{message}"
        );
        assert_eq!(store.history(None).expect("still readable").len(), 1);
        store
            .conn
            .pragma_update(None, "max_page_count", 1_000_000)
            .expect("room again");
        store.record_finished(&game).expect("room again");
        assert_eq!(store.history(None).expect("history").len(), 2);
    }

    /// Runs `test` in a folder the current user may not write. When permissions do not bind (the tests run as
    /// root, as in CI), the test runs again in a child process that is nobody in a user namespace (`unshare
    /// --user`), where they do; that child sees `PATIENCE_TEST_UNPRIVILEGED`.
    #[cfg(unix)]
    fn in_a_read_only_folder(name: &str, test: impl FnOnce(&Path)) {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let folder = dir.path().join("read-only");
        {
            let (store, _) = Store::open(&folder).expect("open");
            store.record_finished(&finished(0)).expect("record");
        }
        let file = Store::file(&folder);
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        let probe = folder.join("probe");
        if std::fs::write(&probe, b"").is_ok() {
            std::fs::remove_file(&probe).expect("remove the probe");
            assert!(
                std::env::var_os("PATIENCE_TEST_UNPRIVILEGED").is_none(),
                "permissions should bind in the unprivileged child"
            );
            let exe = std::env::current_exe().expect("the test binary");
            let child = std::process::Command::new("unshare")
                .arg("--user")
                .arg(exe)
                .args([name, "--exact", "--nocapture", "--test-threads=1"])
                .env("PATIENCE_TEST_UNPRIVILEGED", "1")
                .output();
            let _ = std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755));
            match child {
                Ok(out) if !out.status.success() && out.stderr.starts_with(b"unshare:") => {
                    eprintln!(
                        "skipped: permissions do not bind and `unshare --user` fails: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
                Ok(out) => {
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    assert!(
                        out.status.success() && stdout.contains("1 passed"),
                        "the unprivileged run failed: {stdout}{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
                Err(e) => {
                    eprintln!("skipped: permissions do not bind and `unshare` cannot run: {e}")
                }
            }
            return;
        }
        test(&folder);
        let _ = std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755));
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_folder_gives_a_clear_error() {
        in_a_read_only_folder(
            "store::tests::a_read_only_folder_gives_a_clear_error",
            |folder| {
                let message = match Store::open(folder) {
                    Err(error) => {
                        assert_eq!(error.failure(), Some(Failure::ReadOnly), "{error}");
                        error.to_string()
                    }
                    Ok((store, _)) => {
                        let error = store
                            .record_finished(&finished(1))
                            .expect_err("a read-only store refuses writes");
                        assert_eq!(error.failure(), Some(Failure::ReadOnly), "{error}");
                        error.to_string()
                    }
                };
                eprintln!("the error: {message}");
                assert!(
                    message.contains(&Store::file(folder).display().to_string())
                        && (message.contains("may not be written")
                            || message.contains("cannot be opened")),
                    "{message}"
                );
                let error = Store::open(&folder.join("sub")).expect_err("cannot make a folder");
                assert!(
                    error.to_string().contains("cannot make the data folder"),
                    "{error}"
                );
            },
        );
    }
}
