//! A file at the store's path that is not a sound SQLite store (random bytes, a text file, damaged pages) is
//! moved aside, with its journal files, as `patience.sqlite3.corrupt-<UTC timestamp>`, so that a fresh store can
//! start and nothing in the bad file is destroyed.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode};

use super::clock;

/// Whether an error reading the file means it is not a sound SQLite store (as opposed to a file that cannot be
/// read at all, or is locked, which is left alone).
pub(super) fn is_unsound(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

/// What SQLite's quick check finds wrong with the store, or `None` when it is sound.
pub(super) fn quick_check(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let mut statement = conn.prepare("PRAGMA quick_check(5)")?;
    let findings: Vec<String> = statement
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(match findings.as_slice() {
        [ok] if ok == "ok" => None,
        _ => Some(findings.join("; ")),
    })
}

/// Where the bad file at `path` goes: `<name>.corrupt-<timestamp>`, with `-2`, `-3`… added when that is taken.
pub(super) fn aside_path(path: &Path) -> PathBuf {
    let stamp = clock::now_for_file_name();
    let mut name = path.file_name().map(OsString::from).unwrap_or_default();
    name.push(format!(".corrupt-{stamp}"));
    let first = path.with_file_name(&name);
    let mut candidate = first.clone();
    let mut n = 2;
    while candidate.exists() || companion(&candidate, "-wal").exists() {
        let mut numbered = name.clone();
        numbered.push(format!("-{n}"));
        candidate = path.with_file_name(numbered);
        n += 1;
    }
    candidate
}

/// Moves the file at `path` to `to`, its write-ahead log and shared-memory files beside it (first, so that a
/// fresh store never meets an old log). A file another program has already moved is not an error.
pub(super) fn move_aside(path: &Path, to: &Path) -> std::io::Result<()> {
    for suffix in ["-wal", "-shm"] {
        rename_if_there(&companion(path, suffix), &companion(to, suffix))?;
    }
    rename_if_there(path, to)
}

/// The journal file beside a store: `patience.sqlite3-wal`.
fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

fn rename_if_there(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::rename(from, to) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use crate::store::tests::{finished, scratch};
    use crate::store::{Store, FILE_NAME};

    /// Opens the store in `dir` over a bad file holding `bytes`, and checks the bad file was moved aside whole, a
    /// note says so, and the fresh store works.
    fn moved_aside(bytes: &[u8]) {
        let dir = scratch();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, bytes).expect("write the bad file");
        let (store, notes) = Store::open(dir.path()).expect("a fresh store");
        let aside: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("patience.sqlite3.corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1, "{aside:?}");
        assert_eq!(
            std::fs::read(dir.path().join(&aside[0])).expect("read"),
            bytes,
            "the bad file is kept as it was"
        );
        assert!(
            notes.iter().any(|n| n.contains("not a sound store")
                && n.contains(&aside[0])
                && n.contains("new store")),
            "{notes:?}"
        );
        let id = store
            .record_finished(&finished(1))
            .expect("the new store works");
        assert_eq!(store.history(None).expect("history")[0].id, Some(id));
        drop(store);
        let (_, notes) = Store::open(dir.path()).expect("opens again");
        assert!(notes.is_empty(), "the fresh store is sound: {notes:?}");
    }

    #[test]
    fn random_bytes_are_moved_aside() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let bytes: Vec<u8> = (0..20_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        moved_aside(&bytes);
    }

    #[test]
    fn a_text_file_is_moved_aside() {
        moved_aside(
            b"These are my notes, not a database.\n"
                .repeat(200)
                .as_slice(),
        );
    }

    #[test]
    fn a_store_with_damaged_pages_is_moved_aside() {
        let dir = scratch();
        {
            let (store, _) = Store::open(dir.path()).expect("open");
            for n in 0..200 {
                store.record_finished(&finished(n)).expect("record");
            }
        }
        let path = dir.path().join(FILE_NAME);
        let mut bytes = std::fs::read(&path).expect("read");
        assert!(bytes.len() > 8192, "several pages");
        // Keep the header, scribble over the pages after the first.
        for (i, byte) in bytes.iter_mut().enumerate().skip(4096) {
            *byte = (i * 7 % 251) as u8;
        }
        std::fs::write(&path, &bytes).expect("damage");
        let dir_path = dir.path().to_path_buf();
        let (store, notes) = Store::open(&dir_path).expect("a fresh store");
        assert!(
            notes.iter().any(|n| n.contains("not a sound store")),
            "{notes:?}"
        );
        assert!(store.history(None).expect("history").is_empty());
    }

    #[test]
    fn an_empty_file_is_a_new_store_not_a_corrupt_one() {
        let dir = scratch();
        std::fs::write(dir.path().join(FILE_NAME), b"").expect("touch");
        let (_, notes) = Store::open(dir.path()).expect("opens");
        assert!(
            notes.iter().all(|n| !n.contains("not a sound")),
            "{notes:?}"
        );
    }
}
