//! `patience load-test`, hidden: plays many games at once against a running `patience serve`, as players would,
//! and checks every answer. It exists for the web server's load test (`tests/web_load.rs`) and the figures in
//! `docs/reliability.md`.
//!
//! Each of `--games N` players keeps a connection of its own (HTTP/1.1, kept alive) and plays one game after
//! another: it starts a game of the server's list on a random deal, then makes legal moves chosen from the
//! state's `legal_moves`, takes one back now and then, reads the state or the winnable status, asks for a hint
//! rarely, and when the game is won, stuck or long enough, finishes it (and sometimes forgets the session). Every
//! answer is checked: its status, that it is JSON, the keys and types of its shape, and that it agrees with what
//! the player did (the move count, the moves made, a hint's move among the legal ones). The players stop when
//! `--requests` requests have been sent in all, or at `--time-limit`.
//!
//! It prints requests per second, latency percentiles (all requests and by kind) and the errors; it exits with
//! an error if any answer was wrong. Only servers on this machine (a loopback address) are loaded.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::{output, LoadTestArgs};

/// The longest the load generator waits for one answer before counting it as an error.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// The seconds a hint may wait for the solver (the server's default is 10).
const HINT_WAIT: f64 = 0.2;
/// The most errors the report lists in words.
const ERRORS_LISTED: usize = 20;
/// The largest answer read.
const MAX_ANSWER: usize = 16 << 20;

/// Runs the command.
pub fn run(args: &LoadTestArgs, json: bool) -> anyhow::Result<()> {
    if args.games == 0 {
        bail!("--games 0: at least one player is needed");
    }
    let limit = crate::input::time_limit(Some(args.time_limit))?
        .context("--time-limit: expected a number of seconds")?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the load generator's runtime")?;
    let report = runtime.block_on(async {
        let target = Target::resolve(&args.url).await?;
        anyhow::Ok(load(target, args, limit).await)
    })?;
    if json {
        output::print_json(&report)?;
    } else {
        output::print(&report.text())?;
    }
    if report.errors > 0 {
        bail!(
            "{} of {} answers were wrong (the first: {})",
            report.errors,
            report.requests,
            report.first_errors.first().map_or("?", String::as_str)
        );
    }
    Ok(())
}

/// What a load test found.
#[derive(Debug, Serialize)]
pub struct Report {
    /// The server's address.
    pub url: String,
    /// Players at once.
    pub games: usize,
    /// Requests sent.
    pub requests: u64,
    /// Answers checked and found right.
    pub checked: u64,
    /// Answers wrong or missing (a failed check, a connection error, no answer in time).
    pub errors: u64,
    /// The first errors, in words.
    pub first_errors: Vec<String>,
    /// Wall-clock seconds from the first request to the last answer.
    pub seconds: f64,
    /// Requests answered per second.
    pub requests_per_second: f64,
    /// Latency of every request.
    pub latency: Latency,
    /// Latency by kind of request (`create`, `state`, `move`, `undo`, `hint`, ...).
    pub by_kind: BTreeMap<&'static str, Latency>,
    /// Games started.
    pub games_started: u64,
    /// Games won (by random legal moves, rarely).
    pub games_won: u64,
    /// What stopped the players: `requests` (all sent) or `time`.
    pub stopped_by: &'static str,
}

/// Latency figures of a set of requests, in milliseconds.
#[derive(Debug, Serialize)]
pub struct Latency {
    /// Requests.
    pub requests: u64,
    /// The median.
    pub p50_ms: f64,
    /// The 90th percentile.
    pub p90_ms: f64,
    /// The 99th percentile.
    pub p99_ms: f64,
    /// The slowest.
    pub max_ms: f64,
}

impl Latency {
    /// The figures of latencies in microseconds.
    fn of(mut micros: Vec<u64>) -> Latency {
        micros.sort_unstable();
        let at = |q: f64| {
            if micros.is_empty() {
                return 0.0;
            }
            let i = ((micros.len() - 1) as f64 * q).round() as usize;
            micros[i.min(micros.len() - 1)] as f64 / 1000.0
        };
        Latency {
            requests: micros.len() as u64,
            p50_ms: at(0.5),
            p90_ms: at(0.9),
            p99_ms: at(0.99),
            max_ms: at(1.0),
        }
    }
}

impl Report {
    /// The report in words.
    fn text(&self) -> String {
        let mut text = format!(
            "{} players against {}: {} requests in {:.1} s, {:.0} requests/s\n\
             latency: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.1} ms\n",
            self.games,
            self.url,
            self.requests,
            self.seconds,
            self.requests_per_second,
            self.latency.p50_ms,
            self.latency.p90_ms,
            self.latency.p99_ms,
            self.latency.max_ms,
        );
        for (kind, l) in &self.by_kind {
            text.push_str(&format!(
                "  {kind:<9} {:>6} requests: p50 {:.2} ms, p99 {:.2} ms, max {:.1} ms\n",
                l.requests, l.p50_ms, l.p99_ms, l.max_ms
            ));
        }
        text.push_str(&format!(
            "games started {}, won {}; stopped by {}\nanswers checked {}, errors {}\n",
            self.games_started, self.games_won, self.stopped_by, self.checked, self.errors
        ));
        for error in &self.first_errors {
            text.push_str(&format!("  error: {error}\n"));
        }
        text
    }
}

/// The server: its address, and the `Host` header to send.
#[derive(Debug, Clone)]
struct Target {
    url: String,
    addr: SocketAddr,
    host: String,
}

impl Target {
    /// Reads `http://HOST:PORT` (a path after it is ignored) and resolves it to a loopback address.
    async fn resolve(url: &str) -> anyhow::Result<Target> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| anyhow!("--url {url}: expected http://HOST:PORT"))?;
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            bail!("--url {url}: expected http://HOST:PORT");
        }
        let with_port = if host.contains(':') && !host.ends_with(']') {
            host.to_string()
        } else {
            format!("{host}:80")
        };
        let addr = tokio::net::lookup_host(&with_port)
            .await
            .with_context(|| format!("--url {url}: cannot resolve {host}"))?
            .next()
            .ok_or_else(|| anyhow!("--url {url}: {host} has no address"))?;
        if !addr.ip().is_loopback() {
            bail!("--url {url}: only a server on this machine (a loopback address) is load-tested");
        }
        Ok(Target {
            url: url.to_string(),
            addr,
            host: host.to_string(),
        })
    }
}

/// The requests left to send, and the time to stop by.
#[derive(Debug)]
struct Budget {
    left: AtomicU64,
    deadline: Instant,
}

/// The players stop: no request is left, or the time is up.
#[derive(Debug)]
struct Stop;

impl Budget {
    /// Takes one request from the budget.
    fn take(&self) -> Result<(), Stop> {
        if Instant::now() >= self.deadline {
            return Err(Stop);
        }
        self.left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .map(drop)
            .map_err(|_| Stop)
    }
}

/// Plays `args.games` players at once until the budget is spent; reports what they saw.
async fn load(target: Target, args: &LoadTestArgs, limit: Duration) -> Report {
    let started = Instant::now();
    let budget = Arc::new(Budget {
        left: AtomicU64::new(args.requests),
        deadline: started + limit,
    });
    // The list of games comes from the server, through a first player's connection.
    let mut first = Player::new(target.clone(), Arc::clone(&budget), Vec::new(), args.seed);
    let games: Vec<String> = first.games().await.unwrap_or_default();
    first.games = games.clone();
    let mut players = vec![first];
    for i in 1..args.games {
        players.push(Player::new(
            target.clone(),
            Arc::clone(&budget),
            games.clone(),
            args.seed.wrapping_add(i as u64),
        ));
    }
    let handles: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, player)| tokio::spawn(player.play(i)))
        .collect();
    let mut tally = Tally::default();
    for handle in handles {
        match handle.await {
            Ok(player) => tally.add(player),
            Err(e) => tally.error(format!("a player failed: {e}")),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let stopped_by = if budget.left.load(Ordering::Relaxed) == 0 {
        "requests"
    } else {
        "time"
    };
    let requests = tally.latencies.len() as u64;
    let mut by_kind: BTreeMap<&'static str, Vec<u64>> = BTreeMap::new();
    for &(kind, micros) in &tally.latencies {
        by_kind.entry(kind.name()).or_default().push(micros);
    }
    Report {
        url: target.url,
        games: args.games,
        requests,
        checked: tally.checked,
        errors: tally.errors,
        first_errors: tally.first_errors,
        seconds,
        requests_per_second: requests as f64 / seconds.max(1e-9),
        latency: Latency::of(tally.latencies.iter().map(|&(_, m)| m).collect()),
        by_kind: by_kind
            .into_iter()
            .map(|(kind, micros)| (kind, Latency::of(micros)))
            .collect(),
        games_started: tally.games_started,
        games_won: tally.games_won,
        stopped_by,
    }
}

/// The kinds of request a player sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Games,
    Create,
    State,
    Move,
    Undo,
    Hint,
    Winnable,
    Finish,
    Forget,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Games => "games",
            Kind::Create => "create",
            Kind::State => "state",
            Kind::Move => "move",
            Kind::Undo => "undo",
            Kind::Hint => "hint",
            Kind::Winnable => "winnable",
            Kind::Finish => "finish",
            Kind::Forget => "forget",
        }
    }
}

/// What players saw, added up.
#[derive(Debug, Default)]
struct Tally {
    latencies: Vec<(Kind, u64)>,
    checked: u64,
    errors: u64,
    first_errors: Vec<String>,
    games_started: u64,
    games_won: u64,
}

impl Tally {
    fn error(&mut self, error: String) {
        self.errors += 1;
        if self.first_errors.len() < ERRORS_LISTED {
            self.first_errors.push(error);
        }
    }

    fn add(&mut self, other: Tally) {
        self.latencies.extend(other.latencies);
        self.checked += other.checked;
        self.errors += other.errors;
        for error in other.first_errors {
            if self.first_errors.len() < ERRORS_LISTED {
                self.first_errors.push(error);
            }
        }
        self.games_started += other.games_started;
        self.games_won += other.games_won;
    }
}

/// A small, fast random number generator (SplitMix64): each player's own, from the seed.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// True with probability `percent` / 100.
    fn percent(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// One player: a connection, a game at a time, and what it saw.
struct Player {
    client: Client,
    budget: Arc<Budget>,
    games: Vec<String>,
    rng: Rng,
    tally: Tally,
}

/// A game as the player last saw it.
#[derive(Debug)]
struct Seen {
    id: String,
    move_count: u64,
    /// The legal moves: notation and move JSON.
    legal: Vec<(String, Value)>,
    won: bool,
    stuck: bool,
}

impl Player {
    fn new(target: Target, budget: Arc<Budget>, games: Vec<String>, seed: u64) -> Player {
        Player {
            client: Client::new(target),
            budget,
            games,
            rng: Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed),
            tally: Tally::default(),
        }
    }

    /// Plays games until the budget is spent; returns what the player saw.
    async fn play(mut self, index: usize) -> Tally {
        if self.games.is_empty() {
            return self.tally;
        }
        let game = self.games[index % self.games.len()].clone();
        while self.one_game(&game).await.is_ok() {}
        self.tally
    }

    /// Plays one game of `game` from the start to its end (or to a wrong answer, after which a new game starts).
    async fn one_game(&mut self, game: &str) -> Result<(), Stop> {
        let autoplay = self.rng.percent(25);
        let deal = 1 + self.rng.below(1_000_000);
        let body = json!({"game": game, "deal": deal, "autoplay": autoplay});
        let reply = self
            .send(Kind::Create, "POST", "/api/sessions", Some(&body))
            .await?;
        let Some(mut seen) = self.check(Kind::Create, reply, |r| {
            let v = r.json(201)?;
            let seen = check_state(&v, None)?;
            expect(v["game"] == game, || {
                format!("game {} for {game}", v["game"])
            })?;
            expect(v["deal"] == deal, || {
                format!("deal {} for {deal}", v["deal"])
            })?;
            expect(v["autoplay"] == autoplay, || "autoplay".to_string())?;
            expect(autoplay || seen.move_count == 0, || {
                format!("{} moves in a new game", seen.move_count)
            })?;
            Ok(seen)
        }) else {
            return Ok(());
        };
        self.tally.games_started += 1;
        let length = 30 + self.rng.below(150);
        for _ in 0..length {
            if seen.won || seen.stuck || seen.legal.is_empty() {
                break;
            }
            let roll = self.rng.below(100);
            let next = if roll < 12 && seen.move_count > 0 {
                self.undo(&seen).await?
            } else if roll < 13 {
                self.hint(&seen).await?.map(|()| seen)
            } else if roll < 25 {
                self.state(&seen).await?
            } else if roll < 30 {
                self.winnable(&seen).await?.map(|()| seen)
            } else {
                self.make_move(&seen).await?
            };
            match next {
                Some(next) => seen = next,
                None => return Ok(()),
            }
        }
        if seen.won {
            self.tally.games_won += 1;
        }
        self.finish(&seen).await?;
        if self.rng.percent(50) {
            let path = format!("/api/sessions/{}", seen.id);
            let reply = self.send(Kind::Forget, "DELETE", &path, None).await?;
            self.check(Kind::Forget, reply, |r| {
                expect(r.status == 204, || format!("status {}", r.status))?;
                expect(r.body.is_empty(), || "a body with 204".to_string())
            });
        }
        Ok(())
    }

    /// Makes a legal move, chosen at random, sent as notation or as move JSON.
    async fn make_move(&mut self, seen: &Seen) -> Result<Option<Seen>, Stop> {
        let i = self.rng.below(seen.legal.len() as u64) as usize;
        let (notation, object) = seen.legal[i].clone();
        let mv = if self.rng.percent(50) {
            Value::String(notation.clone())
        } else {
            object
        };
        let path = format!("/api/sessions/{}/moves", seen.id);
        let reply = self
            .send(Kind::Move, "POST", &path, Some(&json!({"move": mv})))
            .await?;
        Ok(self.check(Kind::Move, reply, |r| {
            let v = r.json(200)?;
            let next = check_state(&v, Some(&seen.id))?;
            let last = string_list(&v["last"])?;
            expect(last.first() == Some(&notation), || {
                format!("played {notation}, the answer's last moves are {last:?}")
            })?;
            expect(
                next.move_count == seen.move_count + last.len() as u64,
                || {
                    format!(
                        "{} moves after {} and {} more",
                        next.move_count,
                        seen.move_count,
                        last.len()
                    )
                },
            )?;
            Ok(next)
        }))
    }

    /// Takes back the last action.
    async fn undo(&mut self, seen: &Seen) -> Result<Option<Seen>, Stop> {
        let path = format!("/api/sessions/{}/undo", seen.id);
        let reply = self.send(Kind::Undo, "POST", &path, None).await?;
        Ok(self.check(Kind::Undo, reply, |r| {
            let v = r.json(200)?;
            let next = check_state(&v, Some(&seen.id))?;
            let last = string_list(&v["last"])?;
            expect(
                !last.is_empty() && next.move_count + last.len() as u64 == seen.move_count,
                || {
                    format!(
                        "{} moves after undoing {last:?} from {}",
                        next.move_count, seen.move_count
                    )
                },
            )?;
            Ok(next)
        }))
    }

    /// Reads the state, which must be the one last seen.
    async fn state(&mut self, seen: &Seen) -> Result<Option<Seen>, Stop> {
        let path = format!("/api/sessions/{}", seen.id);
        let reply = self.send(Kind::State, "GET", &path, None).await?;
        Ok(self.check(Kind::State, reply, |r| {
            let v = r.json(200)?;
            let next = check_state(&v, Some(&seen.id))?;
            expect(next.move_count == seen.move_count, || {
                format!("{} moves, {} made", next.move_count, seen.move_count)
            })?;
            expect(next.legal.len() == seen.legal.len(), || {
                "the legal moves changed".to_string()
            })?;
            Ok(next)
        }))
    }

    /// Asks for a hint, waiting a little; a move it gives must be legal.
    async fn hint(&mut self, seen: &Seen) -> Result<Option<()>, Stop> {
        let path = format!("/api/sessions/{}/hint", seen.id);
        let body = json!({ "wait": HINT_WAIT });
        let reply = self.send(Kind::Hint, "POST", &path, Some(&body)).await?;
        Ok(self.check(Kind::Hint, reply, |r| {
            let v = r.json(200)?;
            check_answer(&v, seen)?;
            if let Some(notation) = v["notation"].as_str() {
                expect(seen.legal.iter().any(|(n, _)| n == notation), || {
                    format!("the hint {notation} is not a legal move")
                })?;
            }
            Ok(())
        }))
    }

    /// Asks whether the game is still winnable.
    async fn winnable(&mut self, seen: &Seen) -> Result<Option<()>, Stop> {
        let path = format!("/api/sessions/{}/winnable", seen.id);
        let reply = self.send(Kind::Winnable, "GET", &path, None).await?;
        Ok(self.check(Kind::Winnable, reply, |r| {
            let v = r.json(200)?;
            check_answer(&v, seen)?;
            expect(v["move"].is_null(), || "a move without a hint".to_string())
        }))
    }

    /// Finishes the game: it is recorded (won, lost or abandoned) unless no move was made.
    async fn finish(&mut self, seen: &Seen) -> Result<(), Stop> {
        let path = format!("/api/sessions/{}/finish", seen.id);
        let reply = self.send(Kind::Finish, "POST", &path, None).await?;
        self.check(Kind::Finish, reply, |r| {
            let v = r.json(200)?;
            let recorded = v["recorded"]
                .as_bool()
                .ok_or_else(|| format!("no `recorded`: {v}"))?;
            expect(v["error"].is_null(), || format!("the store failed: {v}"))?;
            match v["outcome"].as_str() {
                Some("won" | "lost" | "abandoned") => {
                    expect(recorded, || format!("not recorded: {v}"))
                }
                None if seen.move_count == 0 && !recorded => Ok(()),
                _ => Err(format!("outcome and record do not agree: {v}")),
            }
        });
        Ok(())
    }

    /// The ids of the server's main games.
    async fn games(&mut self) -> Result<Vec<String>, Stop> {
        let reply = self.send(Kind::Games, "GET", "/api/games", None).await?;
        Ok(self
            .check(Kind::Games, reply, |r| {
                let v = r.json(200)?;
                let list = v.as_array().ok_or("not a list")?;
                let mut ids = Vec::new();
                for game in list {
                    let id = game["id"].as_str().ok_or("a game without an id")?;
                    expect(
                        game["name"].is_string() && game["layout"].is_object(),
                        || format!("game {id}: no name or layout"),
                    )?;
                    if game["main"] == true {
                        ids.push(id.to_string());
                    }
                }
                expect(!ids.is_empty(), || "no game".to_string())?;
                Ok(ids)
            })
            .unwrap_or_default())
    }

    /// Sends a request within the budget, timing it; `Ok(None)` when no answer came (the error is counted).
    async fn send(
        &mut self,
        kind: Kind,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Option<Reply>, Stop> {
        self.budget.take()?;
        let start = Instant::now();
        let result = self.client.send(method, path, body).await;
        let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.tally.latencies.push((kind, micros));
        match result {
            Ok(reply) => Ok(Some(reply)),
            Err(e) => {
                self.tally
                    .error(format!("{} {method} {path}: {e}", kind.name()));
                Ok(None)
            }
        }
    }

    /// Checks an answer; counts it as checked or as an error.
    fn check<T>(
        &mut self,
        kind: Kind,
        reply: Option<Reply>,
        check: impl FnOnce(&Reply) -> Result<T, String>,
    ) -> Option<T> {
        let reply = reply?;
        match check(&reply) {
            Ok(value) => {
                self.tally.checked += 1;
                Some(value)
            }
            Err(e) => {
                let body = String::from_utf8_lossy(&reply.body);
                let body: String = body.chars().take(300).collect();
                self.tally.error(format!(
                    "{}: {e} (status {}: {body})",
                    kind.name(),
                    reply.status
                ));
                None
            }
        }
    }
}

/// Fails with `message` unless `ok`.
fn expect(ok: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(message())
    }
}

/// The words a status (`winnable`, a hint's `status`) may be.
const STATUSES: [&str; 5] = ["yes", "no", "unknown", "checking", "won"];

/// Checks a game's state against the shape `docs/web-api.md` gives it; `id`, when given, must be its id.
fn check_state(v: &Value, id: Option<&str>) -> Result<Seen, String> {
    let object = v.as_object().ok_or("the state is not an object")?;
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    let flag = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_bool)
            .ok_or_else(|| format!("`{key}` is not true or false"))
    };
    let number = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("`{key}` is not a count"))
    };
    let state_id = text("id").ok_or("no `id`")?;
    expect(
        state_id.len() == 32 && state_id.bytes().all(|b| b.is_ascii_hexdigit()),
        || format!("the id `{state_id}` is not 32 hex digits"),
    )?;
    if let Some(id) = id {
        expect(state_id == id, || {
            format!("the state of {state_id}, not {id}")
        })?;
    }
    expect(text("game").is_some() && text("name").is_some(), || {
        "no `game` or `name`".to_string()
    })?;
    expect(v["deal"].is_u64() || v["deal"].is_null(), || {
        "`deal` is not a number".to_string()
    })?;
    expect(v["position"].is_object() && v["layout"].is_object(), || {
        "no `position` or `layout`".to_string()
    })?;
    let move_count = number("move_count")?;
    let can_undo = flag("can_undo")?;
    flag("can_redo")?;
    expect(can_undo == (move_count > 0), || {
        format!("can_undo {can_undo} after {move_count} moves")
    })?;
    let won = flag("won")?;
    let stuck = flag("stuck")?;
    flag("proved_winnable")?;
    flag("autoplay")?;
    flag("recorded")?;
    let winnable = text("winnable").unwrap_or_default();
    expect(STATUSES.contains(&winnable), || {
        format!("`winnable` is `{winnable}`")
    })?;
    expect((winnable == "won") == won, || {
        format!("winnable `{winnable}` and won {won}")
    })?;
    let score = &v["score"];
    expect(
        score["cards"].is_u64()
            && score["casino_dollars"].is_i64()
            && score["pack_size"].is_u64()
            && matches!(score["kind"].as_str(), Some("cards" | "casino")),
        || format!("the score is {score}"),
    )?;
    expect(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), || {
        "`seconds` is not a time".to_string()
    })?;
    string_list(&v["last"])?;
    let moves = v["legal_moves"]
        .as_array()
        .ok_or("`legal_moves` is not a list")?;
    let mut legal = Vec::with_capacity(moves.len());
    for mv in moves {
        let notation = mv["notation"].as_str().ok_or("a move without notation")?;
        expect(
            mv["from"].is_string() && mv["to"].is_string() && mv["count"].is_u64(),
            || format!("the move {mv} has no from, to and count"),
        )?;
        let object = json!({"from": mv["from"], "to": mv["to"], "count": mv["count"]});
        legal.push((notation.to_string(), object));
    }
    Ok(Seen {
        id: state_id.to_string(),
        move_count,
        legal,
        won,
        stuck,
    })
}

/// Checks the solver's answer (hint or winnable) about the game last seen.
fn check_answer(v: &Value, seen: &Seen) -> Result<(), String> {
    let status = v["status"].as_str().unwrap_or_default();
    expect(STATUSES.contains(&status), || {
        format!("`status` is `{status}`")
    })?;
    expect(v["text"].is_string(), || "no `text`".to_string())?;
    expect(v["move_count"].as_u64() == Some(seen.move_count), || {
        format!(
            "an answer about move {}, not {}",
            v["move_count"], seen.move_count
        )
    })?;
    expect(v["move"].is_null() || v["move"].is_object(), || {
        "`move` is neither null nor a move".to_string()
    })?;
    expect(v["move"].is_null() == v["notation"].is_null(), || {
        "`move` and `notation` do not agree".to_string()
    })
}

/// A list of strings.
fn string_list(v: &Value) -> Result<Vec<String>, String> {
    v.as_array()
        .and_then(|list| {
            list.iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .ok_or_else(|| format!("{v} is not a list of text"))
}

/// An answer: its status and body.
#[derive(Debug)]
struct Reply {
    status: u16,
    json: bool,
    body: Vec<u8>,
}

impl Reply {
    /// The body as JSON, if the status is `status`.
    fn json(&self, status: u16) -> Result<Value, String> {
        expect(self.status == status, || {
            format!("status {}, not {status}", self.status)
        })?;
        expect(self.json, || "not application/json".to_string())?;
        serde_json::from_slice(&self.body).map_err(|e| format!("not JSON: {e}"))
    }
}

/// A plain HTTP/1.1 client on one kept-alive connection, opened again when the server closes it.
struct Client {
    target: Target,
    connection: Option<BufReader<TcpStream>>,
}

impl Client {
    fn new(target: Target) -> Client {
        Client {
            target,
            connection: None,
        }
    }

    /// Sends a request and reads its answer, within [`ANSWER_TIMEOUT`].
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Reply, String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n",
            self.target.host,
            body.len()
        );
        if !body.is_empty() {
            request.push_str("Content-Type: application/json\r\n");
        }
        request.push_str("\r\n");
        request.push_str(&body);
        let exchange = async {
            let connection = match &mut self.connection {
                Some(connection) => connection,
                None => {
                    let stream = TcpStream::connect(self.target.addr)
                        .await
                        .map_err(|e| format!("cannot connect: {e}"))?;
                    stream.set_nodelay(true).map_err(|e| e.to_string())?;
                    self.connection.insert(BufReader::new(stream))
                }
            };
            exchange(connection, request.as_bytes()).await
        };
        let result = match tokio::time::timeout(ANSWER_TIMEOUT, exchange).await {
            Ok(result) => result,
            Err(_) => Err(format!("no answer in {} s", ANSWER_TIMEOUT.as_secs())),
        };
        match result {
            Ok((reply, keep_alive)) => {
                if !keep_alive {
                    self.connection = None;
                }
                Ok(reply)
            }
            Err(e) => {
                self.connection = None;
                Err(e)
            }
        }
    }
}

/// Writes a request and reads the answer; also says whether the connection may be used again.
async fn exchange(
    connection: &mut BufReader<TcpStream>,
    request: &[u8],
) -> Result<(Reply, bool), String> {
    let io = |e: std::io::Error| e.to_string();
    connection.get_mut().write_all(request).await.map_err(io)?;
    let status_line = read_line(connection).await?;
    let mut words = status_line.split_whitespace();
    let status = match (words.next(), words.next()) {
        (Some("HTTP/1.1" | "HTTP/1.0"), Some(code)) => code.parse::<u16>().ok(),
        _ => None,
    }
    .ok_or_else(|| format!("not an HTTP answer: {status_line:?}"))?;
    let mut length = None;
    let mut chunked = false;
    let mut json = false;
    let mut keep_alive = status_line.starts_with("HTTP/1.1");
    loop {
        let line = read_line(connection).await?;
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| format!("a header without a colon: {line:?}"))?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                length = Some(
                    value
                        .parse::<usize>()
                        .map_err(|_| format!("Content-Length {value:?}"))?,
                );
            }
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-type" => json = value.starts_with("application/json"),
            "connection" => keep_alive = !value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let size_line = read_line(connection).await?;
            let size = usize::from_str_radix(size_line.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| format!("a chunk size {size_line:?}"))?;
            if size == 0 {
                while !read_line(connection).await?.is_empty() {}
                break;
            }
            if body.len() + size > MAX_ANSWER {
                return Err("an answer too large".to_string());
            }
            let start = body.len();
            body.resize(start + size, 0);
            connection
                .read_exact(&mut body[start..])
                .await
                .map_err(io)?;
            read_line(connection).await?;
        }
        body
    } else if let Some(length) = length {
        if length > MAX_ANSWER {
            return Err("an answer too large".to_string());
        }
        let mut body = vec![0; length];
        connection.read_exact(&mut body).await.map_err(io)?;
        body
    } else if status == 204 || status == 304 {
        Vec::new()
    } else {
        keep_alive = false;
        let mut body = Vec::new();
        connection
            .take(MAX_ANSWER as u64)
            .read_to_end(&mut body)
            .await
            .map_err(io)?;
        body
    };
    Ok((Reply { status, json, body }, keep_alive))
}

/// Reads a line of an answer's head, without its line end; the connection closing first is an error.
async fn read_line(connection: &mut BufReader<TcpStream>) -> Result<String, String> {
    let mut line = Vec::new();
    let read = (&mut *connection)
        .take(8192)
        .read_until(b'\n', &mut line)
        .await
        .map_err(|e| e.to_string())?;
    if read == 0 {
        return Err("the server closed the connection".to_string());
    }
    if line.last() != Some(&b'\n') {
        return Err("a line of the answer's head is too long or cut off".to_string());
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| "an answer's head that is not text".to_string())
}
