//! Winnable deals only: random deals are tried in a background thread until the solver proves one winnable, so
//! that the next new deal of the game is one that can be won. It runs while the menu shows and while a game is
//! played, one deal kept ready per game.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use patience_core::{Position, RuleSet};
use patience_solver::{solve_with_cancel, Limits, Verdict};

use super::analysis::MEMORY;
use super::event::Event;

/// The time the solver gets for each deal tried.
pub const PER_DEAL: Duration = Duration::from_secs(1);
/// Random deal numbers are drawn from 1 up to this.
pub const HIGHEST_RANDOM_DEAL: u64 = 99_999_999;

/// What the finder reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// Deal `number` of game `game` is proved winnable.
    Winnable {
        /// The game's id.
        game: String,
        /// The deal number.
        number: u64,
    },
    /// One more deal of `game` was tried and not proved winnable.
    Tried {
        /// The game's id.
        game: String,
    },
}

/// The background search for winnable deals.
pub struct Finder {
    tx: Sender<Event>,
    /// A proved deal ready for each game that has one.
    ready: HashMap<String, u64>,
    /// Deals tried since the search for each game began.
    tried: HashMap<String, u64>,
    /// The game searched for, and the flag that stops the search.
    running: Option<(String, Arc<AtomicBool>)>,
    /// When the search for the current game began.
    since: Option<Instant>,
}

impl Finder {
    /// A finder that reports to `tx`.
    pub fn new(tx: Sender<Event>) -> Finder {
        Finder {
            tx,
            ready: HashMap::new(),
            tried: HashMap::new(),
            running: None,
            since: None,
        }
    }

    /// Makes sure a winnable deal of `rules` is ready or being searched for (stopping a search for another game).
    pub fn want(&mut self, rules: &Arc<RuleSet>) {
        if self.ready.contains_key(&rules.id) {
            return;
        }
        if self.running.as_ref().is_some_and(|(id, _)| *id == rules.id) {
            return;
        }
        self.stop();
        let cancel = Arc::new(AtomicBool::new(false));
        self.running = Some((rules.id.clone(), Arc::clone(&cancel)));
        self.since = Some(Instant::now());
        let rules = Arc::clone(rules);
        let tx = self.tx.clone();
        let spawned = std::thread::Builder::new()
            .name("patience-finder".into())
            .spawn(move || {
                super::background::give_way();
                search(&rules, &cancel, &tx);
            });
        if spawned.is_err() {
            self.running = None;
        }
    }

    /// Stops the search under way.
    pub fn stop(&mut self) {
        if let Some((_, cancel)) = self.running.take() {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes a report from the thread.
    pub fn take(&mut self, found: Found) {
        match found {
            Found::Winnable { game, number } => {
                if self.running.as_ref().is_some_and(|(id, _)| *id == game) {
                    self.running = None;
                }
                self.ready.insert(game, number);
            }
            Found::Tried { game } => *self.tried.entry(game).or_default() += 1,
        }
    }

    /// Takes the winnable deal ready for a game, if there is one.
    pub fn take_ready(&mut self, game: &str) -> Option<u64> {
        let number = self.ready.remove(game)?;
        self.tried.remove(game);
        Some(number)
    }

    /// Whether a winnable deal of the game is ready.
    pub fn is_ready(&self, game: &str) -> bool {
        self.ready.contains_key(game)
    }

    /// Deals of a game tried so far without proof.
    pub fn tried(&self, game: &str) -> u64 {
        self.tried.get(game).copied().unwrap_or(0)
    }

    /// The game being searched for, if any.
    pub fn searching(&self) -> Option<&str> {
        self.running.as_ref().map(|(id, _)| id.as_str())
    }

    /// How long the search has been going.
    pub fn elapsed(&self) -> Duration {
        self.since.map_or(Duration::ZERO, |s| s.elapsed())
    }
}

impl Drop for Finder {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Tries random deals until one is proved winnable or the search is stopped.
fn search(rules: &RuleSet, cancel: &AtomicBool, tx: &Sender<Event>) {
    let limits = Limits {
        time: Some(PER_DEAL),
        memory_bytes: MEMORY,
        nodes: None,
    };
    while !cancel.load(Ordering::Relaxed) {
        let number = random_deal();
        let Ok(position) = Position::deal(rules, number) else {
            continue;
        };
        let report = solve_with_cancel(rules, &position, &limits, cancel);
        let found = if matches!(report.verdict, Verdict::Won(_)) {
            Found::Winnable {
                game: rules.id.clone(),
                number,
            }
        } else {
            Found::Tried {
                game: rules.id.clone(),
            }
        };
        let winnable = matches!(found, Found::Winnable { .. });
        if cancel.load(Ordering::Relaxed) || tx.send(Event::Finder(found)).is_err() || winnable {
            return;
        }
    }
}

/// A random deal number from 1 to [`HIGHEST_RANDOM_DEAL`], from the standard library's random hash keys and the
/// clock.
pub fn random_deal() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    hasher.write_u64(nanos);
    hasher.finish() % HIGHEST_RANDOM_DEAL + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;
    use std::sync::mpsc::channel;

    #[test]
    fn random_deals_are_in_range_and_vary() {
        let deals: Vec<u64> = (0..20).map(|_| random_deal()).collect();
        assert!(deals
            .iter()
            .all(|&d| (1..=HIGHEST_RANDOM_DEAL).contains(&d)));
        assert!(deals.iter().any(|&d| d != deals[0]));
    }

    #[test]
    fn the_finder_finds_a_deal_the_solver_wins() {
        let rules = Arc::new(builtin::rules("fortunes-favor").expect("game"));
        let (tx, rx) = channel();
        let mut finder = Finder::new(tx);
        finder.want(&rules);
        assert_eq!(finder.searching(), Some("fortunes-favor"));
        while !finder.is_ready("fortunes-favor") {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(Event::Finder(found)) => finder.take(found),
                other => panic!("unexpected {other:?}"),
            }
        }
        let number = finder.take_ready("fortunes-favor").expect("ready");
        let position = Position::deal(&rules, number).expect("deal");
        let report = patience_solver::solve(&rules, &position, &Limits::default());
        assert!(matches!(report.verdict, Verdict::Won(_)));
    }
}
