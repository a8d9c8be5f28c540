//! The JSON API under `/api`, as `docs/web-api.md` describes it: games and their rules, sessions (start, state,
//! moves, undo, redo, restart), the solver's answers (hint, winnable, post-mortem), auto-play, finishing a game
//! and the player's statistics.
//!
//! Request bodies are read here rather than by axum's `Json`, so that every refusal is a 4xx with a JSON body
//! that says what is wrong.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, MutexGuard};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use patience_core::{builtin, describe, shuffle, Game, Move, Position, RuleSet};
use patience_solver::Verdict;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::analysis::Status;
use super::error::ApiError;
use super::postmortem::{PostMortem, Report};
use super::session::{LayoutHints, Session, Sessions};
use super::AppState;
use crate::render::describe_move;
use crate::store::{FinishedGame, GameSummary};

/// Random deal numbers are drawn from 1 up to this.
pub const HIGHEST_RANDOM_DEAL: u64 = 99_999_999;
/// The time the solver gets for each deal tried when a winnable deal is asked for.
pub const PER_DEAL: Duration = Duration::from_secs(1);
/// The longest the search for a winnable deal goes on before it settles for a deal not proved.
pub const FIND_BUDGET: Duration = Duration::from_secs(15);
/// The longest a hint waits for its search.
pub const HINT_WAIT: Duration = Duration::from_secs(10);

type Shared = State<Arc<AppState>>;

/// The API's routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/games", get(games))
        .route("/games/{game}/rules", get(game_rules))
        .route("/sessions", post(create))
        .route("/sessions/{id}", get(state).delete(forget))
        .route("/sessions/{id}/moves", post(play))
        .route("/sessions/{id}/undo", post(undo))
        .route("/sessions/{id}/redo", post(redo))
        .route("/sessions/{id}/restart", post(restart))
        .route("/sessions/{id}/hint", post(hint))
        .route("/sessions/{id}/winnable", get(winnable))
        .route("/sessions/{id}/postmortem", get(postmortem))
        .route("/sessions/{id}/autoplay", put(autoplay))
        .route("/sessions/{id}/rules", get(session_rules))
        .route("/sessions/{id}/finish", post(finish))
        .route("/stats", get(stats))
}

/// A game of the list.
#[derive(Debug, Serialize)]
struct GameEntry {
    id: String,
    name: String,
    description: String,
    /// Whether the game is in the default list (else it is another program's variant).
    main: bool,
    layout: LayoutHints,
}

async fn games() -> Json<Vec<GameEntry>> {
    let entry = |rules: &RuleSet, main: bool| GameEntry {
        id: rules.id.clone(),
        name: rules.name.clone(),
        description: rules.description.clone(),
        main,
        layout: LayoutHints::of(rules),
    };
    Json(
        builtin::games()
            .iter()
            .map(|r| entry(r, true))
            .chain(builtin::extras().iter().map(|r| entry(r, false)))
            .collect(),
    )
}

/// The rules in words, as `patience rules --json` writes them.
#[derive(Debug, Serialize)]
struct RulesText {
    id: String,
    name: String,
    description: String,
    sections: Vec<Section>,
}

#[derive(Debug, Serialize)]
struct Section {
    heading: &'static str,
    text: String,
}

impl RulesText {
    fn of(rules: &RuleSet) -> RulesText {
        RulesText {
            id: rules.id.clone(),
            name: rules.name.clone(),
            description: rules.description.clone(),
            sections: describe::describe(rules)
                .into_iter()
                .map(|(heading, text)| Section { heading, text })
                .collect(),
        }
    }
}

async fn game_rules(Path(game): Path<String>) -> Result<Json<RulesText>, ApiError> {
    let rules = builtin_rules(&game).map_err(|e| ApiError::not_found(e.message))?;
    Ok(Json(RulesText::of(&rules)))
}

/// A deal number as JSON: a number, or text (`"123"`, `"ms123"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum DealNumber {
    Number(u64),
    Text(String),
}

/// What `POST /api/sessions` takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A built-in game's id.
    #[serde(default)]
    game: Option<String>,
    /// A rule file's TOML text, instead of a built-in game.
    #[serde(default)]
    rules: Option<String>,
    /// The deal; a random one without it.
    #[serde(default)]
    deal: Option<DealNumber>,
    /// Without a deal: pick a random deal the solver proves winnable.
    #[serde(default)]
    winnable: bool,
    /// Whether safe cards go to the foundations by themselves.
    #[serde(default)]
    autoplay: bool,
    /// Resume the game saved by the web player instead (the other keys are ignored).
    #[serde(default)]
    resume: bool,
}

async fn create(State(app): Shared, body: Bytes) -> Result<Response, ApiError> {
    let request: NewGame = read_json(&body)?;
    if request.resume {
        return resume(&app);
    }
    let rules = match (&request.rules, &request.game) {
        (Some(text), game) => {
            let rules = RuleSet::from_toml("the rule file", text)
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            if let Some(game) = game.as_ref().filter(|g| **g != rules.id) {
                return Err(ApiError::bad_request(format!(
                    "`game` is `{game}`, but the rule file's id is `{}`",
                    rules.id
                )));
            }
            rules
        }
        (None, Some(game)) => builtin_rules(game)?,
        (None, None) => {
            return Err(ApiError::bad_request(
                "name a game (`game`) or give a rule file's text (`rules`)",
            ))
        }
    };
    let rules = Arc::new(rules);
    let (number, line) = match &request.deal {
        Some(deal) => (deal_number(deal)?, None),
        None if request.winnable => find_winnable(&app, &rules).await,
        None => (random_deal(), None),
    };
    let game =
        Game::new(Arc::clone(&rules), number).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let start = *game.start();
    let mut session = Session::new(game, request.rules.clone(), app.pool.clone());
    if let Some(line) = line {
        session.proved_winnable = true;
        session.analysis.learn(start, Verdict::Won(line), PER_DEAL);
    }
    session.set_autoplay(request.autoplay);
    let saved = session.saved();
    let mut sessions = lock(&app);
    let id = sessions.insert(session);
    let state = sessions.get(&id).map(|s| s.state(&id));
    drop(sessions);
    // A failure to save is not the player's problem: the game goes on, and it shows in the server's log.
    if let Err(e) = app.record.save(&saved) {
        note_store_failure(&app, &e);
    }
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

/// Starts a session from the game the web player saved.
fn resume(app: &AppState) -> Result<Response, ApiError> {
    let saved = app
        .record
        .load()
        .map_err(ApiError::not_found)?
        .ok_or_else(|| ApiError::not_found("no unfinished game is saved"))?;
    let rules = saved
        .rules()
        .map_err(|e| ApiError::not_found(format!("the saved game cannot be resumed: {e}")))?;
    let game = saved
        .to_game(Arc::new(rules))
        .map_err(|e| ApiError::not_found(format!("the saved game cannot be resumed: {e}")))?;
    let session = Session::resume(game, &saved, app.pool.clone());
    let mut sessions = lock(app);
    let id = sessions.insert(session);
    let state = sessions.get(&id).map(|s| s.state(&id));
    Ok((StatusCode::CREATED, Json(state)).into_response())
}

async fn state(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_session(&app, &id, |_| Ok(()))
}

async fn forget(State(app): Shared, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    if lock(&app).remove(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(unknown_session(&id))
    }
}

/// What `POST /api/sessions/{id}/moves` takes: `{"move": {"from": ..., "to": ..., "count": ...}}` or
/// `{"move": "w-f2"}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    #[serde(rename = "move")]
    mv: serde_json::Value,
}

async fn play(
    State(app): Shared,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: PlayRequest = read_json(&body)?;
    let mv = match request.mv {
        serde_json::Value::String(text) => Move::parse(&text),
        json @ serde_json::Value::Object(_) => Move::parse(&json.to_string()),
        other => {
            return Err(ApiError::bad_request(format!(
                "`move` is a move's notation (\"w-f2\") or its JSON object, not {other}"
            )))
        }
    }
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    with_session(&app, &id, |session| {
        if session.game.is_won() {
            return Err(ApiError::illegal(
                mv.to_string(),
                "the game is won: every card is on the foundations",
            ));
        }
        session
            .play(mv)
            .map_err(|e| ApiError::illegal(e.mv.to_string(), e.reason))
    })
}

async fn undo(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_session(&app, &id, |session| {
        if session.recorded {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the game is over and recorded: start a new one",
            ));
        }
        if session.undo() {
            Ok(())
        } else {
            Err(ApiError::new(StatusCode::CONFLICT, "no move to take back"))
        }
    })
}

async fn redo(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_session(&app, &id, |session| {
        if session.redo() {
            Ok(())
        } else {
            Err(ApiError::new(
                StatusCode::CONFLICT,
                "no undone move to make again",
            ))
        }
    })
}

async fn restart(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    with_session(&app, &id, |session| {
        if session.recorded {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the game is over and recorded: start a new one",
            ));
        }
        session.restart();
        Ok(())
    })
}

/// What `PUT /api/sessions/{id}/autoplay` takes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AutoplayRequest {
    on: bool,
}

async fn autoplay(
    State(app): Shared,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: AutoplayRequest = read_json(&body)?;
    with_session(&app, &id, |session| {
        session.set_autoplay(request.on);
        Ok(())
    })
}

/// The solver's answer about the position: can it still be won, and the next move of a winning line.
#[derive(Debug, Serialize)]
struct Answer {
    /// `yes`, `no`, `unknown`, `checking` or `won`.
    status: Status,
    /// The next move of a winning line (hint), or `null`.
    #[serde(rename = "move")]
    mv: Option<Move>,
    /// That move in the notation.
    notation: Option<String>,
    /// What to tell the player.
    text: String,
    /// The number of moves made in the position answered about.
    move_count: usize,
}

impl Answer {
    fn new(
        status: Status,
        mv: Option<Move>,
        position: &Position,
        move_count: usize,
        hint: bool,
    ) -> Answer {
        let text = match (status, mv) {
            (Status::Won, _) => "The game is won.".to_string(),
            (Status::Yes, Some(mv)) if hint => {
                format!("{mv}: {}", describe_move(position, mv))
            }
            (Status::Yes, _) => "Still winnable.".to_string(),
            (Status::No, _) => "This game cannot be won from here.".to_string(),
            (Status::Unknown, _) => "Unknown: the solver could not decide in time.".to_string(),
            (Status::Checking, _) => "The solver is still at work.".to_string(),
        };
        Answer {
            status,
            mv: if hint { mv } else { None },
            notation: if hint {
                mv.map(|m| m.to_string())
            } else {
                None
            },
            text,
            move_count,
        }
    }
}

/// What `POST /api/sessions/{id}/hint` takes: how long to wait for the solver, in seconds (at most 10).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default)]
    wait: Option<f64>,
}

async fn hint(
    State(app): Shared,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Answer>, ApiError> {
    let request: HintRequest = if body.iter().all(u8::is_ascii_whitespace) {
        HintRequest::default()
    } else {
        read_json(&body)?
    };
    let wait = match request.wait {
        Some(s) => Duration::try_from_secs_f64(s)
            .map_err(|_| ApiError::bad_request("`wait` is a number of seconds, 0 or more"))?
            .min(HINT_WAIT),
        None => HINT_WAIT,
    };
    let (analysis, position, move_count) = {
        let mut sessions = lock(&app);
        let session = sessions.get(&id).ok_or_else(|| unknown_session(&id))?;
        session.hints_used = true;
        (
            session.analysis.handle(),
            *session.game.position(),
            session.game.move_count(),
        )
    };
    let (status, mv) = analysis.hint(&position, wait).await;
    Ok(Json(Answer::new(status, mv, &position, move_count, true)))
}

async fn winnable(State(app): Shared, Path(id): Path<String>) -> Result<Json<Answer>, ApiError> {
    let mut sessions = lock(&app);
    let session = sessions.get(&id).ok_or_else(|| unknown_session(&id))?;
    let position = *session.game.position();
    let (status, mv) = session.analysis.status(&position);
    Ok(Json(Answer::new(
        status,
        mv,
        &position,
        session.game.move_count(),
        false,
    )))
}

async fn postmortem(State(app): Shared, Path(id): Path<String>) -> Result<Json<Report>, ApiError> {
    let mut sessions = lock(&app);
    let session = sessions.get(&id).ok_or_else(|| unknown_session(&id))?;
    let game = &session.game;
    let current = session
        .postmortem
        .as_ref()
        .is_some_and(|p| p.end == *game.position() && p.moves == game.move_count());
    if !current {
        session.postmortem = Some(PostMortem::start(
            session.analysis.handle(),
            *game.start(),
            game.history().collect(),
        ));
    }
    let report = session
        .postmortem
        .as_ref()
        .map(PostMortem::report)
        .ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "the post-mortem could not start"))?;
    Ok(Json(report))
}

async fn session_rules(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<RulesText>, ApiError> {
    let mut sessions = lock(&app);
    let session = sessions.get(&id).ok_or_else(|| unknown_session(&id))?;
    Ok(Json(RulesText::of(session.game.rules())))
}

/// What `POST /api/sessions/{id}/finish` answers.
#[derive(Debug, Serialize)]
struct Finished {
    /// Whether the game is now in the player's record (it was recorded by this request or before).
    recorded: bool,
    /// How it ended: `won`, `lost` or `abandoned`; `null` for a game with no move made, which is not recorded.
    outcome: Option<String>,
    /// Why it was not recorded, when the store failed.
    error: Option<String>,
}

async fn finish(State(app): Shared, Path(id): Path<String>) -> Result<Json<Finished>, ApiError> {
    let record = {
        let mut sessions = lock(&app);
        let session = sessions.get(&id).ok_or_else(|| unknown_session(&id))?;
        if session.recorded {
            let outcome = session.finished().outcome.to_string();
            return Ok(Json(Finished {
                recorded: true,
                outcome: Some(outcome),
                error: None,
            }));
        }
        if session.game.move_count() == 0 {
            return Ok(Json(Finished {
                recorded: false,
                outcome: None,
                error: None,
            }));
        }
        session.recorded = true;
        session.finished()
    };
    let outcome = Some(record.outcome.to_string());
    Ok(Json(match app.record.finish(&record, true) {
        Ok(_) => Finished {
            recorded: true,
            outcome,
            error: None,
        },
        Err(e) => {
            note_store_failure(&app, &e);
            if let Some(session) = lock(&app).get(&id) {
                session.recorded = false;
            }
            Finished {
                recorded: false,
                outcome,
                error: Some(e),
            }
        }
    }))
}

/// What `GET /api/stats` takes: `?game=ID` for one game.
#[derive(Debug, Deserialize)]
struct StatsQuery {
    game: Option<String>,
}

/// What `GET /api/stats` answers.
#[derive(Debug, Serialize)]
struct Stats {
    /// Whether the store could be read.
    available: bool,
    /// Why not, when it could not.
    error: Option<String>,
    /// What the finished games add up to, game by game.
    summaries: Vec<GameSummary>,
    /// The finished games, oldest first.
    games: Vec<FinishedGame>,
}

async fn stats(
    State(app): Shared,
    query: Result<Query<StatsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Stats>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    Ok(Json(match app.record.stats(query.game.as_deref()) {
        Ok((games, summaries)) => Stats {
            available: true,
            error: None,
            summaries,
            games,
        },
        Err(e) => Stats {
            available: false,
            error: Some(e),
            summaries: Vec::new(),
            games: Vec::new(),
        },
    }))
}

/// Runs `change` on a session; then, if the game changed, looks after the record (a won game is recorded, a game
/// in play saved) and answers with the state.
fn with_session(
    app: &AppState,
    id: &str,
    change: impl FnOnce(&mut Session) -> Result<(), ApiError>,
) -> Result<Response, ApiError> {
    let (state, won, saved) = {
        let mut sessions = lock(app);
        let session = sessions.get(id).ok_or_else(|| unknown_session(id))?;
        let moves_before = (session.game.move_count(), session.game.redo_stack().len());
        change(session)?;
        let changed = moves_before != (session.game.move_count(), session.game.redo_stack().len())
            || !session.last.is_empty();
        let won = if session.game.is_won() && !session.recorded {
            session.recorded = true;
            Some(session.finished())
        } else {
            None
        };
        let saved = (changed && won.is_none() && !session.recorded).then(|| session.saved());
        (session.state(id), won, saved)
    };
    if let Some(record) = won {
        if let Err(e) = app.record.finish(&record, true) {
            note_store_failure(app, &e);
            if let Some(session) = lock(app).get(id) {
                session.recorded = false;
            }
        }
    }
    if let Some(saved) = saved {
        if let Err(e) = app.record.save(&saved) {
            note_store_failure(app, &e);
        }
    }
    let mut state = state;
    if let Some(session) = lock(app).get(id) {
        state.recorded = session.recorded;
    }
    Ok(Json(state).into_response())
}

/// Tries random deals until the solver proves one winnable, within [`FIND_BUDGET`]; returns the deal and its
/// winning line, or the last deal tried and no line.
async fn find_winnable(app: &AppState, rules: &Arc<RuleSet>) -> (u64, Option<Vec<Move>>) {
    let started = Instant::now();
    let mut number = random_deal();
    while started.elapsed() < FIND_BUDGET {
        number = random_deal();
        let Ok(position) = Position::deal(rules, number) else {
            continue;
        };
        let verdict = app
            .pool
            .solve(
                Arc::clone(rules),
                position,
                PER_DEAL,
                Arc::new(AtomicBool::new(false)),
            )
            .await;
        if let Verdict::Won(line) = verdict {
            return (number, Some(line));
        }
    }
    (number, None)
}

/// A random deal number from 1 to [`HIGHEST_RANDOM_DEAL`].
fn random_deal() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish() % HIGHEST_RANDOM_DEAL + 1
}

fn deal_number(deal: &DealNumber) -> Result<u64, ApiError> {
    match deal {
        DealNumber::Number(0) => Err(ApiError::bad_request(
            "deal 0 does not exist: deals are numbered from 1",
        )),
        DealNumber::Number(n) => Ok(*n),
        DealNumber::Text(text) => {
            shuffle::parse_deal_number(text).map_err(|e| ApiError::bad_request(e.to_string()))
        }
    }
}

fn builtin_rules(id: &str) -> Result<RuleSet, ApiError> {
    builtin::rules(id).ok_or_else(|| {
        let ids: Vec<&str> = builtin::ids().collect();
        ApiError::bad_request(format!(
            "`{id}` is not a built-in game: expected one of {}",
            ids.join(", ")
        ))
    })
}

/// Reads a JSON body; anything else is a 400 that says what is wrong.
fn read_json<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::bad_request(if body.is_empty() {
            "the request needs a JSON body".to_string()
        } else {
            format!("the request body is not the JSON expected: {e}")
        })
    })
}

fn unknown_session(id: &str) -> ApiError {
    ApiError::not_found(format!(
        "no game `{id}` on the server (it may have been forgotten: start a new one)"
    ))
}

fn lock(app: &AppState) -> MutexGuard<'_, Sessions> {
    app.sessions.lock().unwrap_or_else(|e| e.into_inner())
}

fn note_store_failure(app: &AppState, error: &str) {
    if app.record.problem().is_none() {
        eprintln!("note: the player's store: {error}");
    }
}
