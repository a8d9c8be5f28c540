//! The API in-process, through tower's `oneshot`: games played through it, and bad requests answered with a 4xx
//! and a JSON error, never a 500.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::{router, AppState, Pool, Record};

/// A server with its store in a temporary folder (kept as long as the server).
struct Server {
    app: Router,
    _dir: tempfile::TempDir,
}

impl Server {
    fn new() -> Server {
        Server::with_limits(super::MAX_SESSIONS, super::REQUEST_TIMEOUT)
    }

    fn with_limits(sessions: usize, timeout: Duration) -> Server {
        let dir = tempfile::Builder::new()
            .prefix("patience-web-")
            .tempdir()
            .expect("a temporary folder");
        let record = Record::open(Some(dir.path()));
        assert!(record.problem().is_none(), "{:?}", record.problem());
        let state = AppState::with_limits(Pool::new(2), record, sessions, timeout);
        Server {
            app: router(state),
            _dir: dir,
        }
    }

    /// Sends a request; returns the status and the body as JSON (`null` for an empty body).
    async fn send(&self, method: Method, path: &str, body: Option<&str>) -> (StatusCode, Value) {
        let request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .expect("a request");
        self.request(request).await
    }

    async fn request(&self, request: Request<Body>) -> (StatusCode, Value) {
        let response = self.app.clone().oneshot(request).await.expect("a response");
        let status = response.status();
        let is_json = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
            .await
            .expect("the body");
        let value = if bytes.is_empty() {
            Value::Null
        } else {
            assert!(
                is_json,
                "{status}: not JSON: {}",
                String::from_utf8_lossy(&bytes)
            );
            serde_json::from_slice(&bytes).expect("JSON")
        };
        (status, value)
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send(Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: &str) -> (StatusCode, Value) {
        self.send(Method::POST, path, Some(body)).await
    }

    /// Starts a game; returns its state.
    async fn start(&self, body: Value) -> Value {
        let (status, state) = self.post("/api/sessions", &body.to_string()).await;
        assert_eq!(status, StatusCode::CREATED, "{state}");
        state
    }

    /// Asks the server to refuse a request: a 4xx with `{"error": "..."}`; returns the message.
    async fn refused(
        &self,
        method: Method,
        path: &str,
        body: Option<&str>,
        want: StatusCode,
    ) -> String {
        let (status, value) = self.send(method, path, body).await;
        assert_eq!(status, want, "{path} {body:?}: {value}");
        error_text(&value)
    }
}

fn error_text(value: &Value) -> String {
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message: {value}"))
        .to_string()
}

fn id(state: &Value) -> String {
    state["id"].as_str().expect("an id").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_started_played_undone_and_redone() {
    let server = Server::new();
    let state = server.start(json!({"game": "canfield", "deal": 1})).await;
    let game = id(&state);
    assert_eq!(state["game"], "canfield");
    assert_eq!(state["deal"], 1);
    assert_eq!(
        state["position"]["tableau"],
        json!([["KS"], ["2S"], ["3H"], ["KH"]])
    );
    assert_eq!(state["layout"]["tableau"], "row");
    assert_eq!(state["layout"]["reserve"], json!([13]));
    assert_eq!(state["score"]["cards"], 1);
    assert_eq!(state["move_count"], 0);
    let legal: Vec<&str> = state["legal_moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["notation"].as_str())
        .collect();
    assert_eq!(legal, ["draw", "w-f1", "r0-t3", "t1-t2"]);

    let (status, state) = server
        .post(
            &format!("/api/sessions/{game}/moves"),
            r#"{"move": {"from": "reserve:0", "to": "tableau:3", "count": 1}}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["position"]["tableau"][3], json!(["KH", "QC"]));
    assert_eq!(state["last"], json!(["r0-t3"]));
    let (status, state) = server
        .post(
            &format!("/api/sessions/{game}/moves"),
            r#"{"move": "w-f1"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["move_count"], 2);
    assert_eq!(state["score"]["cards"], 2);

    let (status, state) = server.post(&format!("/api/sessions/{game}/undo"), "").await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(
        (state["move_count"].clone(), state["can_redo"].clone()),
        (json!(1), json!(true))
    );
    let (_, state) = server.post(&format!("/api/sessions/{game}/redo"), "").await;
    assert_eq!(state["move_count"], 2);
    assert_eq!(state["last"], json!(["w-f1"]));
    let (_, again) = server.get(&format!("/api/sessions/{game}")).await;
    assert_eq!(again["position"], state["position"]);
    let (_, state) = server
        .post(&format!("/api/sessions/{game}/restart"), "")
        .await;
    assert_eq!(state["move_count"], 0);
    assert_eq!(state["position"]["tableau"][3], json!(["KH"]));
    let message = server
        .refused(
            Method::POST,
            &format!("/api/sessions/{game}/undo"),
            None,
            StatusCode::CONFLICT,
        )
        .await;
    assert!(message.contains("no move"), "{message}");

    let (status, rules) = server.get(&format!("/api/sessions/{game}/rules")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rules["name"], "Canfield");
    assert!(
        rules["sections"].as_array().is_some_and(|s| s.len() >= 5),
        "{rules}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_win_canfield_deal_1_and_the_win_is_recorded() {
    let server = Server::new();
    let game = id(&server.start(json!({"game": "canfield", "deal": "1"})).await);
    let mut won = false;
    for _ in 0..400 {
        let (status, hint) = server.post(&format!("/api/sessions/{game}/hint"), "").await;
        assert_eq!(status, StatusCode::OK, "{hint}");
        if hint["status"] == "won" {
            won = true;
            break;
        }
        assert_eq!(hint["status"], "yes", "{hint}");
        let mv = hint["move"].to_string();
        let (status, state) = server
            .post(
                &format!("/api/sessions/{game}/moves"),
                &format!(r#"{{"move": {mv}}}"#),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    assert!(won, "the hints did not win the game");
    let (_, state) = server.get(&format!("/api/sessions/{game}")).await;
    assert_eq!(
        (state["won"].clone(), state["recorded"].clone()),
        (json!(true), json!(true))
    );
    assert_eq!(state["score"]["cards"], 52);
    let message = server
        .refused(
            Method::POST,
            &format!("/api/sessions/{game}/moves"),
            Some(r#"{"move": "draw"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(message.contains("won"), "{message}");

    let (status, stats) = server.get("/api/stats").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stats["available"], true);
    let summary = &stats["summaries"][0];
    assert_eq!(summary["game"], "canfield");
    assert_eq!(
        (summary["played"].clone(), summary["won"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(summary["bankroll"], 5 * 52 - 52);
    assert_eq!(stats["games"][0]["hints_used"], true);
    let (_, only) = server.get("/api/stats?game=gate").await;
    assert_eq!(only["summaries"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_winnable_status_is_worked_out_in_the_background() {
    let server = Server::new();
    let game = id(&server.start(json!({"game": "canfield", "deal": 3})).await);
    // Deal 3 is proved lost in well under a second.
    let mut status = Value::Null;
    for _ in 0..100 {
        let (code, answer) = server.get(&format!("/api/sessions/{game}/winnable")).await;
        assert_eq!(code, StatusCode::OK);
        status = answer["status"].clone();
        if status != "checking" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, "no");
    let (_, hint) = server
        .post(&format!("/api/sessions/{game}/hint"), "{}")
        .await;
    assert_eq!(hint["status"], "no");
    assert!(
        hint["text"]
            .as_str()
            .is_some_and(|t| t.contains("cannot be won")),
        "{hint}"
    );

    let mut report = Value::Null;
    for _ in 0..200 {
        let (code, answer) = server
            .get(&format!("/api/sessions/{game}/postmortem"))
            .await;
        assert_eq!(code, StatusCode::OK, "{answer}");
        report = answer;
        if report["done"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(report["deal"], "lost", "{report}");
    assert_eq!(report["fatal"]["kind"], "not-applicable", "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_post_mortem_finds_the_losing_move() {
    let server = Server::new();
    let game = id(&server.start(json!({"game": "canfield", "deal": 1})).await);
    // Deal 1 is winnable; sending the reserve's queen onto the king and then cycling the stock without ever
    // playing a card may or may not lose it: whatever the post-mortem says must be consistent.
    for mv in ["r0-t3", "draw", "draw", "draw"] {
        let (status, state) = server
            .post(
                &format!("/api/sessions/{game}/moves"),
                &json!({"move": mv}).to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    let mut report = Value::Null;
    for _ in 0..400 {
        let (_, answer) = server
            .get(&format!("/api/sessions/{game}/postmortem"))
            .await;
        report = answer;
        if report["done"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(report["done"], true, "{report}");
    assert_eq!(report["deal"], "winnable", "{report}");
    assert_eq!(report["moves"], 4);
    match report["now"].as_str() {
        Some("winnable") => assert_eq!(report["fatal"]["kind"], "not-applicable"),
        Some("lost") => assert_eq!(report["fatal"]["kind"], "found"),
        _ => assert_eq!(report["fatal"]["kind"], "between"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_post_mortem_says_which_choices_of_base_card_could_have_won() {
    let server = Server::new();
    let state = server
        .start(json!({"game": "selective-canfield", "deal": 4}))
        .await;
    let game = id(&state);
    let offered: Vec<String> = state["legal_moves"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m["notation"].as_str().expect("notation").to_string())
        .collect();
    assert_eq!(offered.len(), 5, "{state}");
    let chosen = &offered[2];
    let (status, state) = server
        .post(
            &format!("/api/sessions/{game}/moves"),
            &json!({"move": chosen}).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    let mut report = Value::Null;
    for _ in 0..1200 {
        let (code, answer) = server
            .get(&format!("/api/sessions/{game}/postmortem"))
            .await;
        assert_eq!(code, StatusCode::OK, "{answer}");
        report = answer;
        if report["done"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(report["done"], true, "{report}");
    let choices = report["choices"].as_array().expect("choices");
    assert_eq!(choices.len(), 5, "{report}");
    for (choice, notation) in choices.iter().zip(&offered) {
        assert_eq!(choice["notation"], notation.as_str(), "{report}");
        assert_eq!(
            choice["move"]["from"]
                .as_str()
                .map(|f| f.starts_with("choice:")),
            Some(true),
            "{report}"
        );
        assert!(
            choice["card"].as_str().is_some_and(|c| c.len() == 2),
            "{report}"
        );
        assert!(
            matches!(
                choice["outcome"].as_str(),
                Some("winnable" | "lost" | "unknown")
            ),
            "{report}"
        );
        assert_eq!(choice["yours"], notation == chosen, "{report}");
    }
    // The player's choice led to the position the game ended in.
    assert_eq!(choices[2]["outcome"], report["now"], "{report}");
    // A game without a choice row has none.
    let other = id(&server.start(json!({"game": "canfield", "deal": 3})).await);
    let (_, report) = server
        .get(&format!("/api/sessions/{other}/postmortem"))
        .await;
    assert_eq!(report["choices"], json!([]), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_winnable_deal_is_proved_and_its_hints_are_ready() {
    let server = Server::new();
    let state = server
        .start(json!({"game": "fortunes-favor", "winnable": true}))
        .await;
    assert_eq!(state["proved_winnable"], true, "{state}");
    assert!(state["deal"].as_u64().is_some_and(|d| d >= 1));
    assert_eq!(state["winnable"], "yes");
    let (_, hint) = server
        .post(
            &format!("/api/sessions/{}/hint", id(&state)),
            r#"{"wait": 0}"#,
        )
        .await;
    assert_eq!(hint["status"], "yes", "{hint}");
    assert!(hint["notation"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_from_rule_file_text_and_a_random_deal() {
    let server = Server::new();
    let text = include_str!("../../../../games/gate.toml");
    let state = server.start(json!({"rules": text, "deal": 7})).await;
    assert_eq!(state["game"], "gate");
    assert_eq!(state["layout"]["tableau"], "rails");
    assert_eq!(state["layout"]["reserve_face_up"], true);
    let state = server.start(json!({"game": "four-seasons"})).await;
    assert_eq!(state["layout"]["tableau"], "cross");
    assert!(state["deal"].as_u64().is_some_and(|d| d >= 1), "{state}");
    let (status, games) = server.get("/api/games").await;
    assert_eq!(status, StatusCode::OK);
    assert!(games.as_array().is_some_and(|g| g.len() >= 11));
    let (status, rules) = server.get("/api/games/gate/rules").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(rules["id"], "gate");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_play_sends_safe_cards_home_and_undo_takes_them_back_with_the_move() {
    let server = Server::new();
    let state = server
        .start(json!({"game": "gate", "deal": 1, "autoplay": true}))
        .await;
    let game = id(&state);
    assert_eq!(state["autoplay"], true);
    let (_, off) = server
        .send(
            Method::PUT,
            &format!("/api/sessions/{game}/autoplay"),
            Some(r#"{"on": false}"#),
        )
        .await;
    assert_eq!(off["autoplay"], false);
    let (_, on) = server
        .send(
            Method::PUT,
            &format!("/api/sessions/{game}/autoplay"),
            Some(r#"{"on": true}"#),
        )
        .await;
    assert_eq!(on["autoplay"], true);
    // Follow the hints until a move brings safe moves with it, then undo it whole.
    let mut state = on;
    for _ in 0..100 {
        let (_, hint) = server.post(&format!("/api/sessions/{game}/hint"), "").await;
        let mv = hint["move"].clone();
        assert!(mv.is_object(), "{hint}");
        let before = state["move_count"].as_u64().expect("count");
        let (status, after) = server
            .post(
                &format!("/api/sessions/{game}/moves"),
                &json!({"move": mv}).to_string(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let made = after["move_count"].as_u64().expect("count") - before;
        assert_eq!(made as usize, after["last"].as_array().map_or(0, Vec::len));
        if made > 1 {
            let (_, undone) = server.post(&format!("/api/sessions/{game}/undo"), "").await;
            assert_eq!(undone["move_count"].as_u64(), Some(before), "{undone}");
            return;
        }
        state = after;
    }
    panic!("no move of the winning line brought a safe move with it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_with_json_errors() {
    let server = Server::new();
    let game = id(&server.start(json!({"game": "canfield", "deal": 1})).await);
    let moves = format!("/api/sessions/{game}/moves");
    let bad = StatusCode::BAD_REQUEST;
    let cases: Vec<(Method, String, Option<&str>, StatusCode, &str)> = vec![
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "klondike"}"#),
            bad,
            "not a built-in game",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "canfield""#),
            bad,
            "not the JSON expected",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(""),
            bad,
            "needs a JSON body",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some("[1, 2]"),
            bad,
            "not the JSON expected",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "canfield", "colour": 1}"#),
            bad,
            "unknown field",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "canfield", "deal": 0}"#),
            bad,
            "deal 0",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "canfield", "deal": "x9"}"#),
            bad,
            "x9",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"game": "canfield", "deal": -4}"#),
            bad,
            "not the JSON expected",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some(r#"{"rules": "id = 3"}"#),
            bad,
            "rule file",
        ),
        (
            Method::POST,
            "/api/sessions".into(),
            Some("{}"),
            bad,
            "name a game",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": "t0-t3"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "KS does not go on KH",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": "t9-t3"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no tableau:9",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": "q1-t0"}"#),
            bad,
            "not a pile",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": {"from": "tableau:0"}}"#),
            bad,
            "missing field",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": {"from": "tableau:0", "to": "tableau:1", "count": 900}}"#),
            bad,
            "not a move",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move": 7}"#),
            bad,
            "notation",
        ),
        (
            Method::POST,
            moves.clone(),
            Some("not json"),
            bad,
            "not the JSON expected",
        ),
        (
            Method::POST,
            format!("/api/sessions/{game}/hint"),
            Some(r#"{"wait": -1}"#),
            bad,
            "seconds",
        ),
        (
            Method::PUT,
            format!("/api/sessions/{game}/autoplay"),
            Some(r#"{"on": "yes"}"#),
            bad,
            "not the JSON expected",
        ),
        (
            Method::GET,
            "/api/sessions/0123456789abcdef".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::POST,
            "/api/sessions/nope/moves".into(),
            Some(r#"{"move": "draw"}"#),
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::POST,
            "/api/sessions/nope/undo".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::POST,
            "/api/sessions/nope/hint".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::GET,
            "/api/sessions/nope/winnable".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::GET,
            "/api/sessions/nope/postmortem".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::POST,
            "/api/sessions/nope/finish".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::DELETE,
            "/api/sessions/nope".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        (
            Method::GET,
            "/api/games/klondike/rules".into(),
            None,
            StatusCode::NOT_FOUND,
            "klondike",
        ),
        (
            Method::GET,
            "/api/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
            "no such",
        ),
        (
            Method::GET,
            "/favicon.ico".into(),
            None,
            StatusCode::NOT_FOUND,
            "no such",
        ),
        (
            Method::DELETE,
            "/api/games".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "method",
        ),
        (
            Method::GET,
            "/api/stats?game=a&game=b".into(),
            None,
            bad,
            "game",
        ),
    ];
    for (method, path, body, status, words) in cases {
        let message = server.refused(method, &path, body, status).await;
        assert!(
            message.contains(words),
            "{path} {body:?}: `{message}` lacks `{words}`"
        );
    }
    let (_, illegal) = server.post(&moves, r#"{"move": "t0-t3"}"#).await;
    assert_eq!(illegal["move"], "t0-t3");
    // None of these changed the game.
    let (_, state) = server.get(&format!("/api/sessions/{game}")).await;
    assert_eq!(state["move_count"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_is_refused_whole() {
    let server = Server::new();
    let huge = format!(
        r#"{{"game": "canfield", "rules": "{}"}}"#,
        "x".repeat(100_000)
    );
    let message = server
        .refused(
            Method::POST,
            "/api/sessions",
            Some(&huge),
            StatusCode::PAYLOAD_TOO_LARGE,
        )
        .await;
    assert!(message.contains("too large"), "{message}");
    // Without a Content-Length, as a stream: cut off as it is read.
    let chunks = (0..100).map(|_| Ok::<_, std::io::Error>(vec![b' '; 1024]));
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/sessions")
        .body(Body::from_stream(futures_util::stream::iter(chunks)))
        .expect("a request");
    let (status, value) = server.request(request).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{value}");
    assert!(error_text(&value).contains("too large"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_request_is_cut_off() {
    let server = Server::with_limits(4, Duration::from_millis(300));
    let first = futures_util::stream::iter([Ok::<_, std::io::Error>(b"{\"game\":".to_vec())]);
    let never = futures_util::stream::pending();
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/sessions")
        .body(Body::from_stream(futures_util::StreamExt::chain(
            first, never,
        )))
        .expect("a request");
    let (status, value) = server.request(request).await;
    assert_eq!(status, StatusCode::REQUEST_TIMEOUT, "{value}");
    assert!(error_text(&value).contains("too long"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_independent_and_the_oldest_is_forgotten_past_the_bound() {
    let server = Server::with_limits(3, super::REQUEST_TIMEOUT);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(id(&server
            .start(json!({"game": "canfield", "deal": 1}))
            .await));
    }
    let (status, _) = server
        .post(
            &format!("/api/sessions/{}/moves", ids[1]),
            r#"{"move": "r0-t3"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, other) = server.get(&format!("/api/sessions/{}", ids[2])).await;
    assert_eq!(other["move_count"], 0, "games are independent");
    // Touch the first so that the second is the one left alone longest... after the third.
    server.get(&format!("/api/sessions/{}", ids[0])).await;
    server.get(&format!("/api/sessions/{}", ids[2])).await;
    let fourth = id(&server.start(json!({"game": "gate", "deal": 2})).await);
    let (status, _) = server.get(&format!("/api/sessions/{}", ids[1])).await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "the game left alone longest is forgotten"
    );
    for kept in [&ids[0], &ids[2], &fourth] {
        let (status, _) = server.get(&format!("/api/sessions/{kept}")).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_given_up_is_recorded_and_the_saved_game_resumes() {
    let server = Server::new();
    let game = id(&server.start(json!({"game": "canfield", "deal": 1})).await);
    let (status, _) = server
        .post(
            &format!("/api/sessions/{game}/moves"),
            r#"{"move": "r0-t3"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let resumed = server.start(json!({"resume": true})).await;
    assert_eq!(resumed["deal"], 1);
    assert_eq!(resumed["move_count"], 1);
    assert_ne!(id(&resumed), game);
    let (_, finished) = server
        .post(&format!("/api/sessions/{game}/finish"), "")
        .await;
    assert_eq!(finished["recorded"], true, "{finished}");
    assert_eq!(finished["outcome"], "abandoned");
    let (_, again) = server
        .post(&format!("/api/sessions/{game}/finish"), "")
        .await;
    assert_eq!(again["recorded"], true);
    let (_, stats) = server.get("/api/stats").await;
    assert_eq!(stats["summaries"][0]["played"], 1, "recorded once: {stats}");
    let message = server
        .refused(
            Method::POST,
            "/api/sessions",
            Some(r#"{"resume": true}"#),
            StatusCode::NOT_FOUND,
        )
        .await;
    assert!(message.contains("no unfinished game"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_files_are_served() {
    let server = Server::new();
    for (path, kind) in [
        ("/", "text/html"),
        ("/style.css", "text/css"),
        ("/app.js", "text/javascript"),
    ] {
        let response = server
            .app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).expect("request"))
            .await
            .expect("response");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(content_type.starts_with(kind), "{path}: {content_type}");
    }
}

/// The state handlers share must be usable from several threads at once.
#[test]
fn the_state_is_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Arc<AppState>>();
}
