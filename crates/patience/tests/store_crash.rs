//! The store survives SIGKILL: the hidden `patience store-torture` command records finished games in a loop,
//! printing each id once its transaction has committed; this test kills it at random moments, many times, and
//! after each kill checks that the store opens, is sound, and holds every game whose id was printed. Two
//! processes writing at once lose nothing either.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

/// A fresh, empty folder for one test's store.
fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("store-crash-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts `patience store-torture` on the store in `dir`, recording `games` games; returns the child and a thread
/// that gives back every id the child printed on a whole line (a line cut short by the kill does not count).
fn torture(dir: &Path, games: u32) -> (Child, JoinHandle<Vec<i64>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(["store-torture", "--games", &games.to_string(), "--data-dir"])
        .arg(dir)
        .env_remove("PATIENCE_DATA")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        let text = String::from_utf8_lossy(&bytes);
        let whole = match text.rfind('\n') {
            Some(end) => &text[..end],
            None => "",
        };
        whole
            .lines()
            .map(|line| line.parse().expect("an id a line"))
            .collect()
    });
    (child, reader)
}

/// The ids of the games in the store, read through `patience history --json`, which must open it cleanly.
fn stored_ids(dir: &Path) -> Vec<i64> {
    let out = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(["history", "--json", "--data-dir"])
        .arg(dir)
        .env_remove("PATIENCE_DATA")
        .output()
        .expect("the binary runs");
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the store does not open: {errors}");
    assert!(
        !errors.contains("not a sound store"),
        "the store was found corrupt: {errors}"
    );
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    value["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|game| game["id"].as_i64().expect("an id"))
        .collect()
}

/// SQLite's own full check of the store's file.
fn integrity(dir: &Path) -> String {
    let conn = rusqlite::Connection::open(dir.join("patience.sqlite3")).expect("open");
    conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("integrity check")
}

/// Checks that every id in `printed` is stored, and that the store's ids rise with no repeats.
fn all_there(dir: &Path, printed: &BTreeSet<i64>) -> Vec<i64> {
    if !dir.join("patience.sqlite3").exists() {
        // Killed before it made the store: then it cannot have printed an id.
        assert!(printed.is_empty(), "ids printed, but no store");
        return Vec::new();
    }
    let stored = stored_ids(dir);
    assert!(
        stored.windows(2).all(|w| w[0] < w[1]),
        "ids rise, none repeated"
    );
    let set: BTreeSet<i64> = stored.iter().copied().collect();
    let missing: Vec<&i64> = printed.difference(&set).collect();
    assert!(
        missing.is_empty(),
        "games reported committed but lost: {missing:?}"
    );
    assert_eq!(integrity(dir), "ok");
    stored
}

/// A small xorshift generator, seeded from the clock; the seed is printed so that a failure can be replayed.
struct Random(u64);

impl Random {
    fn new() -> Random {
        let seed = std::env::var("PATIENCE_CRASH_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
                    | 1
            });
        eprintln!("PATIENCE_CRASH_SEED={seed}");
        Random(seed)
    }

    /// A number from `low` to `high`, both included.
    fn between(&mut self, low: u64, high: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        low + self.0 % (high - low + 1)
    }
}

#[test]
fn sigkill_at_random_moments_loses_no_committed_game() {
    let dir = folder("kill");
    let mut random = Random::new();
    let mut printed = BTreeSet::new();
    let mut killed_while_writing = 0;
    for round in 0..20 {
        let (mut child, reader) = torture(&dir, 1_000_000);
        // The first rounds die early, some while the store is being made; later ones after many games.
        let wait = if round < 3 {
            random.between(0, 30)
        } else {
            random.between(20, 400)
        };
        std::thread::sleep(Duration::from_millis(wait));
        child.kill().expect("SIGKILL");
        let status = child.wait().expect("the child ends");
        assert!(!status.success(), "round {round}: killed before the end");
        let ids = reader.join().expect("reader");
        if !ids.is_empty() {
            killed_while_writing += 1;
        }
        printed.extend(ids);
        let stored = all_there(&dir, &printed);
        eprintln!(
            "round {round}: killed after {wait} ms; {} ids printed in all, {} games stored",
            printed.len(),
            stored.len()
        );
    }
    assert!(
        killed_while_writing >= 10,
        "most rounds were killed in the middle of writing ({killed_while_writing} of 20)"
    );
}

#[test]
fn two_processes_writing_at_once_lose_nothing() {
    let dir = folder("two");
    let (mut first, first_ids) = torture(&dir, 150);
    let (mut second, second_ids) = torture(&dir, 150);
    for child in [&mut first, &mut second] {
        let status = child.wait().expect("the child ends");
        let mut errors = String::new();
        if let Some(mut stderr) = child.stderr.take() {
            let _ = stderr.read_to_string(&mut errors);
        }
        assert!(status.success(), "a writer failed: {errors}");
    }
    let first_ids = first_ids.join().expect("reader");
    let second_ids = second_ids.join().expect("reader");
    assert_eq!((first_ids.len(), second_ids.len()), (150, 150));
    let printed: BTreeSet<i64> = first_ids.iter().chain(&second_ids).copied().collect();
    assert_eq!(printed.len(), 300, "no id given twice");
    let stored = all_there(&dir, &printed);
    assert_eq!(stored.len(), 300);
}

#[test]
fn two_processes_at_once_one_killed_lose_nothing() {
    let dir = folder("two-one-killed");
    let mut random = Random::new();
    let (mut survivor, survivor_ids) = torture(&dir, 120);
    let (mut victim, victim_ids) = torture(&dir, 1_000_000);
    std::thread::sleep(Duration::from_millis(random.between(50, 300)));
    victim.kill().expect("SIGKILL");
    let _ = victim.wait();
    assert!(survivor.wait().expect("the child ends").success());
    let survivor_ids = survivor_ids.join().expect("reader");
    assert_eq!(survivor_ids.len(), 120);
    let printed: BTreeSet<i64> = survivor_ids
        .into_iter()
        .chain(victim_ids.join().expect("reader"))
        .collect();
    all_there(&dir, &printed);
}
