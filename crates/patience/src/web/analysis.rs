//! The solver in the background: a pool that runs a few searches at a time on blocking threads, and each game's
//! analysis — is the position still winnable, what is the next move of a winning line.
//!
//! A search never holds up a request: the winnable status is started after each move and read when it is ready;
//! a hint waits for its search, within a time limit, without blocking the server's threads. What a search finds
//! is kept by position in the solver's [`Knowledge`], as in the terminal player: a winning line marks every
//! position along it as winnable (so following hints needs no new search), and a position reached from a lost
//! one is lost.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use patience_core::{Move, Position, RuleSet};
use patience_solver::analysis::{Knowledge, Known, Outcome};
use patience_solver::{solve_with_cancel, Limit, Limits, Verdict};
use serde::Serialize;
use tokio::sync::{watch, Semaphore};

/// The time the solver gets for the winnable status after a move.
pub const QUICK: Duration = Duration::from_secs(2);
/// The time it gets for a hint.
pub const HARD: Duration = Duration::from_secs(8);
/// The most memory one background search may take for its table.
pub const MEMORY: usize = 128 << 20;

/// Runs searches on blocking threads, at most a fixed number at once (the rest wait their turn).
#[derive(Debug, Clone)]
pub struct Pool {
    permits: Arc<Semaphore>,
}

impl Pool {
    /// A pool that runs at most `size` searches at once (at least one).
    pub fn new(size: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(size.max(1))),
        }
    }

    /// One search per core.
    pub fn default_size() -> usize {
        std::thread::available_parallelism().map_or(1, usize::from)
    }

    /// Solves `position` within `limit`, waiting for a turn first; `cancel` stops it, waiting or running.
    pub async fn solve(
        &self,
        rules: Arc<RuleSet>,
        position: Position,
        limit: Duration,
        cancel: Arc<AtomicBool>,
    ) -> Verdict {
        let Ok(_permit) = Arc::clone(&self.permits).acquire_owned().await else {
            return Verdict::Unknown(Limit::Cancelled);
        };
        if cancel.load(Ordering::Relaxed) {
            return Verdict::Unknown(Limit::Cancelled);
        }
        let limits = Limits {
            time: Some(limit),
            memory_bytes: MEMORY,
            nodes: None,
        };
        tokio::task::spawn_blocking(move || {
            solve_with_cancel(&rules, &position, &limits, &cancel).verdict
        })
        .await
        .unwrap_or(Verdict::Unknown(Limit::Cancelled))
    }
}

/// What the API says of a position: can it still be won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A winning line exists.
    Yes,
    /// No line wins any more.
    No,
    /// The solver could not decide in time.
    Unknown,
    /// The solver is at work.
    Checking,
    /// Every card is on the foundations.
    Won,
}

/// One game's background analysis. Dropping it stops its search; its methods are its handle's
/// ([`AnalysisHandle`]), which a request or the post-mortem takes to work without holding the session.
#[derive(Debug)]
pub struct Analysis {
    handle: AnalysisHandle,
}

/// What the analysis and its searches share.
#[derive(Debug)]
struct Shared {
    rules: Arc<RuleSet>,
    pool: Pool,
    state: Mutex<State>,
    /// Counts the searches finished, so that a waiting hint wakes when one ends.
    finished: watch::Sender<u64>,
}

#[derive(Debug)]
struct State {
    knowledge: Knowledge,
    running: Option<Running>,
}

/// A search under way.
#[derive(Debug)]
struct Running {
    position: Position,
    limit: Duration,
    cancel: Arc<AtomicBool>,
}

impl Analysis {
    /// The analysis of a game under `rules`, searching in `pool`.
    pub fn new(rules: Arc<RuleSet>, pool: Pool) -> Analysis {
        Analysis {
            handle: AnalysisHandle {
                shared: Arc::new(Shared {
                    state: Mutex::new(State {
                        knowledge: Knowledge::new(Arc::clone(&rules)),
                        running: None,
                    }),
                    rules,
                    pool,
                    finished: watch::Sender::new(0),
                }),
            },
        }
    }

    /// A handle to the same analysis.
    pub fn handle(&self) -> AnalysisHandle {
        self.handle.clone()
    }
}

impl std::ops::Deref for Analysis {
    type Target = AnalysisHandle;

    fn deref(&self) -> &AnalysisHandle {
        &self.handle
    }
}

impl AnalysisHandle {
    /// Makes sure `position` is known or being solved within `limit`, cancelling a search of any other position.
    pub fn look_at(&self, position: &Position, limit: Duration) {
        let shared = &self.shared;
        let mut state = shared.lock();
        if !state.knowledge.needs_search(position, limit) {
            return;
        }
        if state
            .running
            .as_ref()
            .is_some_and(|r| r.position == *position && r.limit >= limit)
        {
            return;
        }
        if let Some(old) = state.running.take() {
            old.cancel.store(true, Ordering::Relaxed);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        state.running = Some(Running {
            position: *position,
            limit,
            cancel: Arc::clone(&cancel),
        });
        drop(state);
        let shared = Arc::clone(shared);
        let position = *position;
        tokio::spawn(async move {
            let verdict = shared
                .pool
                .solve(
                    Arc::clone(&shared.rules),
                    position,
                    limit,
                    Arc::clone(&cancel),
                )
                .await;
            {
                let mut state = shared.lock();
                if state
                    .running
                    .as_ref()
                    .is_some_and(|r| Arc::ptr_eq(&r.cancel, &cancel))
                {
                    state.running = None;
                }
                state.knowledge.learn(position, &verdict, limit);
            }
            shared.finished.send_modify(|n| *n += 1);
        });
    }

    /// Records what follows from a move: a position reached from a lost one is lost.
    pub fn moved(&self, from: &Position, to: &Position) {
        self.shared.lock().knowledge.moved(from, to);
    }

    /// Keeps what a verdict proves about `position` (a winning line found when the deal was chosen, say).
    pub fn learn(&self, position: Position, verdict: Verdict, limit: Duration) {
        self.shared
            .lock()
            .knowledge
            .learn(position, &verdict, limit);
    }

    /// Whether `position` can still be won, as far as is known now, and the next move of a winning line.
    pub fn status(&self, position: &Position) -> (Status, Option<Move>) {
        if position.is_won() {
            return (Status::Won, None);
        }
        let state = self.shared.lock();
        match state.knowledge.get(position) {
            Some(known @ Known::Winnable { .. }) => (Status::Yes, known.next_move()),
            Some(Known::Lost) => (Status::No, None),
            Some(Known::Unknown(_))
                if !state
                    .running
                    .as_ref()
                    .is_some_and(|r| r.position == *position) =>
            {
                (Status::Unknown, None)
            }
            _ => (Status::Checking, None),
        }
    }

    /// The hint: solves `position` with the longer time limit unless it is decided, and waits for the answer up
    /// to `wait` (a search still going then answers [`Status::Checking`]).
    pub async fn hint(&self, position: &Position, wait: Duration) -> (Status, Option<Move>) {
        let deadline = Instant::now() + wait;
        let mut finished = self.shared.finished.subscribe();
        self.shared
            .lock()
            .knowledge
            .forget_undecided(position, HARD);
        self.look_at(position, HARD);
        loop {
            let answer = self.status(position);
            if answer.0 != Status::Checking {
                return answer;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, finished.changed()).await {
                Ok(Ok(())) => continue,
                _ => return self.status(position),
            }
        }
    }
}

impl Drop for Analysis {
    fn drop(&mut self) {
        if let Some(running) = self.handle.shared.lock().running.take() {
            running.cancel.store(true, Ordering::Relaxed);
        }
    }
}

/// A game's analysis, shared: what a request or the post-mortem works with, without holding the session.
#[derive(Debug, Clone)]
pub struct AnalysisHandle {
    shared: Arc<Shared>,
}

impl AnalysisHandle {
    /// What a search of `position` within `limit` would say, if that is known without one.
    pub fn outcome(&self, position: &Position, limit: Duration) -> Option<Outcome> {
        self.shared.lock().knowledge.outcome(position, limit)
    }

    /// The rules.
    pub fn rules(&self) -> &Arc<RuleSet> {
        &self.shared.rules
    }

    /// Solves `position` in the pool within `limit` and keeps what the search proves.
    pub async fn solve(
        &self,
        position: Position,
        limit: Duration,
        cancel: Arc<AtomicBool>,
    ) -> Verdict {
        let verdict = self
            .shared
            .pool
            .solve(Arc::clone(&self.shared.rules), position, limit, cancel)
            .await;
        self.shared
            .lock()
            .knowledge
            .learn(position, &verdict, limit);
        verdict
    }
}

impl Shared {
    /// The state, even if a thread panicked while holding it (what it holds is a cache, always usable).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::session::{Session, Sessions};
    use patience_core::{builtin, Game};

    /// How soon a cancelled search must end its blocking task.
    const ENDS_WITHIN: Duration = Duration::from_secs(5);

    /// Four Seasons: deal 1 stays undecided far longer than a hint's 8 s.
    fn four_seasons() -> Arc<RuleSet> {
        Arc::new(builtin::rules("four-seasons").expect("built in"))
    }

    /// Waits until `n` searches of the analysis have ended: their blocking tasks have returned and given back
    /// their place in the pool. Returns how long that took.
    async fn searches_ended(handle: &AnalysisHandle, n: u64) -> Duration {
        let start = Instant::now();
        let mut finished = handle.shared.finished.subscribe();
        let ended = tokio::time::timeout(ENDS_WITHIN, finished.wait_for(|&done| done >= n)).await;
        assert!(
            matches!(ended, Ok(Ok(_))),
            "search {n} still runs {ENDS_WITHIN:?} after it was cancelled"
        );
        start.elapsed()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hint_cancelled_by_a_move_ends_its_blocking_search() {
        let rules = four_seasons();
        let start = Position::deal(&rules, 1).expect("deal 1");
        let mut next = start;
        next.apply(&rules, start.legal_moves(&rules)[0]);
        let pool = Pool::new(1);
        let analysis = Analysis::new(Arc::clone(&rules), pool.clone());
        // The hint's search is still under way when its wait runs out; it holds the pool's one place.
        let (status, _) = analysis.hint(&start, Duration::from_millis(300)).await;
        assert_eq!(status, Status::Checking);
        assert_eq!(pool.permits.available_permits(), 0);
        // A move: the session looks at the new position, which cancels the hint's search.
        analysis.moved(&start, &next);
        analysis.look_at(&next, QUICK);
        let took = searches_ended(&analysis, 1).await;
        assert_eq!(
            analysis.status(&start).0,
            Status::Checking,
            "nothing learnt"
        );
        // The session forgotten: the search of the new position ends too, and the pool is free.
        let handle = analysis.handle();
        drop(analysis);
        let then = searches_ended(&handle, 2).await;
        assert_eq!(pool.permits.available_permits(), 1);
        eprintln!("searches ended {took:?} after a move, {then:?} after the session went");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_hint_of_an_evicted_session_ends_its_blocking_search() {
        let rules = four_seasons();
        let pool = Pool::new(1);
        let mut sessions = Sessions::new(1);
        let game = Game::new(Arc::clone(&rules), 1).expect("deal 1");
        let session = Session::new(game, None, pool.clone());
        let handle = session.analysis.handle();
        let start = *session.game.position();
        sessions.insert(session);
        // A hint request in flight holds the analysis's handle, not the session. Its search replaces the quick
        // one the new session started.
        let hint = tokio::spawn({
            let handle = handle.clone();
            async move { handle.hint(&start, Duration::from_millis(1500)).await }
        });
        searches_ended(&handle, 1).await;
        while pool.permits.available_permits() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // A new game past the bound forgets the session, which cancels the hint's search.
        let other =
            Game::new(Arc::new(builtin::rules("canfield").expect("built in")), 1).expect("deal 1");
        sessions.insert(Session::new(other, None, pool.clone()));
        let took = searches_ended(&handle, 2).await;
        // The hint answers by the end of its wait, undecided.
        let answer = tokio::time::timeout(ENDS_WITHIN, hint).await;
        assert!(
            matches!(answer, Ok(Ok((Status::Checking, None)))),
            "{answer:?}"
        );
        eprintln!("the evicted session's search ended {took:?} after the eviction");
    }
}
