//! The store's schema, its version (`PRAGMA user_version`) and the migrations that bring an older store up to
//! date. Migration `i` of [`MIGRATIONS`] takes a store of version `i` to version `i + 1`; a new version adds a
//! migration at the end and never changes an old one. Every upgrade is one transaction, so a store is at one
//! version or the next, never between.

use std::path::Path;

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::StoreError;

/// The schema version this program writes: the number of migrations.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The migrations, oldest first. Version 0 is an empty file (or one that holds no table of ours).
const MIGRATIONS: &[&str] = &[
    // 0 → 1: finished games, and the unfinished game of each front-end.
    "CREATE TABLE finished_game (
         id             INTEGER PRIMARY KEY AUTOINCREMENT,
         game           TEXT    NOT NULL,
         rules_name     TEXT    NOT NULL,
         rules_hash     TEXT,
         deal           TEXT,
         outcome        TEXT    NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
         moves          INTEGER NOT NULL CHECK (moves >= 0),
         seconds        REAL    NOT NULL CHECK (seconds >= 0),
         cards          INTEGER NOT NULL CHECK (cards >= 0),
         casino_dollars INTEGER NOT NULL,
         finished_at    TEXT    NOT NULL,
         hints_used     INTEGER NOT NULL CHECK (hints_used IN (0, 1)),
         undo_used      INTEGER NOT NULL CHECK (undo_used IN (0, 1))
     );
     CREATE INDEX finished_game_by_game ON finished_game (game, id);
     CREATE TABLE unfinished_game (
         frontend   TEXT PRIMARY KEY,
         game       TEXT NOT NULL,
         rules_toml TEXT,
         deal       TEXT,
         start      TEXT,
         moves      TEXT NOT NULL,
         redo       TEXT NOT NULL,
         seconds    REAL NOT NULL CHECK (seconds >= 0),
         hints_used INTEGER NOT NULL CHECK (hints_used IN (0, 1)),
         undo_used  INTEGER NOT NULL CHECK (undo_used IN (0, 1)),
         saved_at   TEXT NOT NULL
     );",
];

/// The store's schema version, read without taking a lock.
pub(super) fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// Brings the store up to [`SCHEMA_VERSION`]; refuses a newer one. Returns a note when it changed anything.
pub(super) fn migrate(conn: &Connection, path: &Path) -> Result<Option<String>, StoreError> {
    migrate_with(conn, path, MIGRATIONS)
}

/// Brings the store up to the version of `migrations`, in one transaction that holds the write lock from the
/// start, so that two programs opening an old store at once upgrade it once.
fn migrate_with(
    conn: &Connection,
    path: &Path,
    migrations: &[&str],
) -> Result<Option<String>, StoreError> {
    let known = migrations.len() as i64;
    let fail = |e: rusqlite::Error| StoreError::database(path, "upgrade the store", &e);
    let newer = |found| StoreError::Newer {
        path: path.to_path_buf(),
        found,
        known,
    };
    match version(conn).map_err(fail)? {
        found if found == known => return Ok(None),
        found if found > known => return Err(newer(found)),
        _ => {}
    }
    let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate).map_err(fail)?;
    let found = version(&tx).map_err(fail)?;
    if found > known {
        return Err(newer(found));
    }
    let Ok(from) = usize::try_from(found) else {
        return Err(StoreError::Damaged {
            path: path.to_path_buf(),
            what: format!("the schema version is {found}, below 0"),
        });
    };
    for migration in &migrations[from..] {
        tx.execute_batch(migration).map_err(fail)?;
    }
    tx.pragma_update(None, "user_version", known)
        .map_err(fail)?;
    tx.commit().map_err(fail)?;
    Ok(Some(if found == 0 {
        format!(
            "started a new store at {} (schema version {known})",
            path.display()
        )
    } else {
        format!(
            "upgraded the store at {} from schema version {found} to {known}",
            path.display()
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::scratch;
    use crate::store::{FinishedGame, Store, FILE_NAME};

    /// A version-1 store made by hand, as patience 0.1 wrote it, with one finished game in it.
    fn version_1_by_hand(dir: &Path) {
        let conn = Connection::open(dir.join(FILE_NAME)).expect("create");
        conn.execute_batch(MIGRATIONS[0]).expect("version 1 tables");
        conn.execute(
            "INSERT INTO finished_game (game, rules_name, deal, outcome, moves, seconds, cards, casino_dollars,
                                        finished_at, hints_used, undo_used)
             VALUES ('canfield', 'Canfield', '7', 'won', 120, 300.5, 52, 208, '2024-05-01T10:00:00Z', 0, 1)",
            [],
        )
        .expect("insert");
        conn.pragma_update(None, "user_version", 1)
            .expect("version");
    }

    #[test]
    fn a_version_0_file_is_upgraded_and_keeps_what_it_held() {
        let dir = scratch();
        {
            let conn = Connection::open(dir.path().join(FILE_NAME)).expect("create");
            conn.execute_batch(
                "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');",
            )
            .expect("a table of someone else's");
            assert_eq!(version(&conn).expect("version"), 0);
        }
        let (store, notes) = Store::open(dir.path()).expect("opens");
        assert_eq!(version(&store.conn).expect("version"), SCHEMA_VERSION);
        assert!(notes[0].contains("started a new store"), "{notes:?}");
        let kept: String = store
            .conn
            .query_row("SELECT text FROM notes", [], |row| row.get(0))
            .expect("the other table is still there");
        assert_eq!(kept, "mine");
        assert!(store.history(None).expect("history").is_empty());
    }

    #[test]
    fn an_older_version_is_upgraded_step_by_step_and_loses_nothing() {
        let dir = scratch();
        version_1_by_hand(dir.path());
        let conn = Connection::open(dir.path().join(FILE_NAME)).expect("open");
        let version_2 = "ALTER TABLE finished_game ADD COLUMN note TEXT NOT NULL DEFAULT '';";
        let note = migrate_with(&conn, dir.path(), &[MIGRATIONS[0], version_2])
            .expect("upgrade")
            .expect("a note");
        assert!(note.contains("from schema version 1 to 2"), "{note}");
        assert_eq!(version(&conn).expect("version"), 2);
        let (moves, note): (u32, String) = conn
            .query_row("SELECT moves, note FROM finished_game", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .expect("the game is still there");
        assert_eq!((moves, note.as_str()), (120, ""));
        assert_eq!(
            migrate_with(&conn, dir.path(), &[MIGRATIONS[0], version_2]).expect("again"),
            None,
            "an up-to-date store is left alone"
        );
    }

    #[test]
    fn a_current_store_opens_without_a_note_and_reads_games_written_by_hand() {
        let dir = scratch();
        version_1_by_hand(dir.path());
        let (store, notes) = Store::open(dir.path()).expect("opens");
        assert!(notes.is_empty(), "{notes:?}");
        let games: Vec<FinishedGame> = store.history(None).expect("history");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].deal, Some(7));
        assert_eq!(games[0].seconds, 300.5);
        assert!(games[0].undo_used && !games[0].hints_used);
    }

    #[test]
    fn a_newer_store_is_refused_with_both_versions_and_left_as_it_is() {
        let dir = scratch();
        version_1_by_hand(dir.path());
        let newer = SCHEMA_VERSION + 3;
        {
            let conn = Connection::open(dir.path().join(FILE_NAME)).expect("open");
            conn.pragma_update(None, "user_version", newer)
                .expect("version");
        }
        let before = std::fs::read(dir.path().join(FILE_NAME)).expect("read");
        let error = Store::open(dir.path()).expect_err("refused");
        let message = error.to_string();
        assert!(
            matches!(error, StoreError::Newer { found, known, .. } if found == newer && known == SCHEMA_VERSION),
            "{message}"
        );
        assert!(
            message.contains(&format!("schema version {newer}"))
                && message.contains(&format!("versions up to {SCHEMA_VERSION}"))
                && message.contains(FILE_NAME),
            "{message}"
        );
        let after = std::fs::read(dir.path().join(FILE_NAME)).expect("read");
        assert!(before == after, "a newer store is not touched");
        let entries = std::fs::read_dir(dir.path()).expect("list").count();
        assert_eq!(entries, 1, "nothing was moved aside or added");
    }
}
