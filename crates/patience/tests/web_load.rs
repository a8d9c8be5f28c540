//! The web server under load and against hostile clients, through the real binary: `patience serve` on
//! 127.0.0.1 with its store in a temporary folder, and as clients the load generator (`patience load-test`, a
//! second process) or raw sockets.
//!
//! - 200 games at once, 10,000 requests (`PATIENCE_LOAD_REQUESTS` for more), every answer checked, no error; the
//!   figures and the server's peak memory are printed (`cargo test --test web_load -- --nocapture`).
//! - A 10 MB body (with and without a Content-Length) is refused with 413, a body never finished is cut off with
//!   408 after 30 s, a request head never finished and 1,000 idle connections are closed after 30 s; all the
//!   while, a normal game is played and answers at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long the server waits for a request, body included, or for a request head (`web::REQUEST_TIMEOUT` and
/// `web::HEAD_TIMEOUT`).
const SERVER_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest a normal request may take while the server is under attack (a debug build on a busy machine).
const PROMPT: Duration = Duration::from_secs(3);

/// `patience serve` on a free port of 127.0.0.1, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Server {
        let dir = tempfile::Builder::new()
            .prefix("patience-web-load-")
            .tempdir()
            .expect("a temporary folder");
        let mut child = Command::new(env!("CARGO_BIN_EXE_patience"))
            .args(["serve", "--port", "0", "--bind", "127.0.0.1", "--data-dir"])
            .arg(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("patience serve starts");
        let stdout = child.stdout.take().expect("its standard output");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address line");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not the address: {line:?}"))
            .parse()
            .expect("an address");
        Server {
            child,
            addr,
            _dir: dir,
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A `kB` line of the server's `/proc/PID/status` (`VmHWM`: peak resident memory).
    fn status_kib(&self, key: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status.lines().find_map(|line| {
            let rest = line.strip_prefix(key)?.strip_prefix(':')?;
            rest.trim().strip_suffix("kB")?.trim().parse().ok()
        })
    }

    /// The server's open file descriptors (its connections among them).
    fn open_files(&self) -> Option<usize> {
        Some(
            std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
                .ok()?
                .count(),
        )
    }

    /// Sends one request on a connection of its own; the status and the body as JSON (`null` when empty).
    fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        let mut stream = TcpStream::connect(self.addr).expect("a connection");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a read timeout");
        let body = body.unwrap_or("");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .expect("the request is sent");
        read_answer(&mut stream)
    }

    /// Plays a little of a game, as a player would, checking each answer; returns the slowest request's time.
    fn play_a_little(&self) -> Duration {
        let mut slowest = Duration::ZERO;
        let mut timed = |method: &str, path: &str, body: Option<&str>, want: u16| {
            let start = Instant::now();
            let (status, value) = self.request(method, path, body);
            slowest = slowest.max(start.elapsed());
            assert_eq!(status, want, "{method} {path}: {value}");
            value
        };
        let state = timed(
            "POST",
            "/api/sessions",
            Some(r#"{"game": "canfield", "deal": 1}"#),
            201,
        );
        let id = state["id"].as_str().expect("an id").to_string();
        let mut state = state;
        for _ in 0..3 {
            let notation = state["legal_moves"][0]["notation"]
                .as_str()
                .expect("a legal move")
                .to_string();
            let body = serde_json::json!({ "move": notation }).to_string();
            let count = state["move_count"].as_u64().expect("a move count");
            state = timed(
                "POST",
                &format!("/api/sessions/{id}/moves"),
                Some(&body),
                200,
            );
            assert_eq!(state["move_count"].as_u64(), Some(count + 1), "{state}");
        }
        timed("GET", &format!("/api/sessions/{id}"), None, 200);
        timed("DELETE", &format!("/api/sessions/{id}"), None, 204);
        slowest
    }

    /// Plays a little again and again until `until`; every request must answer within [`PROMPT`].
    fn keep_playing_until(&self, until: Instant) -> (usize, Duration) {
        let mut games = 0;
        let mut slowest = Duration::ZERO;
        while Instant::now() < until {
            slowest = slowest.max(self.play_a_little());
            games += 1;
            thread::sleep(Duration::from_millis(200));
        }
        assert!(slowest < PROMPT, "a normal request took {slowest:?}");
        (games, slowest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an HTTP answer to the end of the connection: its status and its body as JSON (`null` when empty).
fn read_answer(stream: &mut TcpStream) -> (u16, Value) {
    let mut bytes = Vec::new();
    // A reset after the answer (the server closing a connection with unread body) ends the read too.
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no whole answer: {text:?}"));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head:?}"));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    let value = if body.is_empty() {
        Value::Null
    } else {
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "not JSON: {head}"
        );
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"))
    };
    (status, value)
}

/// The body of a chunked answer.
fn dechunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    body
}

#[test]
fn two_hundred_games_at_once_every_answer_right() {
    let requests: u64 = std::env::var("PATIENCE_LOAD_REQUESTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    assert!(
        requests >= 10_000,
        "the load test sends 10,000 requests at least"
    );
    let server = Server::start();
    let out = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args([
            "--json",
            "load-test",
            "--url",
            &server.url(),
            "--games",
            "200",
        ])
        .args(["--requests", &requests.to_string(), "--time-limit", "600"])
        .stderr(Stdio::inherit())
        .output()
        .expect("patience load-test runs");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: no report: {}", String::from_utf8_lossy(&out.stdout)));
    let peak = server.status_kib("VmHWM");
    let latency = &report["latency"];
    println!(
        "web load: {} games at once, {} requests in {:.1} s: {:.0} requests/s, p50 {:.1} ms, p99 {:.1} ms, \
         max {:.1} ms; {} errors; server peak memory {} KiB",
        report["games"],
        report["requests"],
        report["seconds"].as_f64().unwrap_or(0.0),
        report["requests_per_second"].as_f64().unwrap_or(0.0),
        latency["p50_ms"].as_f64().unwrap_or(0.0),
        latency["p99_ms"].as_f64().unwrap_or(0.0),
        latency["max_ms"].as_f64().unwrap_or(0.0),
        report["errors"],
        peak.map_or("?".to_string(), |k| k.to_string()),
    );
    println!(
        "{}",
        serde_json::to_string(&report["by_kind"]).unwrap_or_default()
    );
    assert_eq!(report["errors"], 0, "{:#}", report["first_errors"]);
    assert!(out.status.success(), "{}", out.status);
    assert_eq!(report["requests"], requests, "{report:#}");
    assert_eq!(report["checked"], requests, "every answer checked");
    assert_eq!(report["stopped_by"], "requests");
    assert!(report["games_started"].as_u64() >= Some(200), "{report:#}");
}

/// Sends a 10 MB body after `head`, from a thread of its own (the server may stop reading it), and reads the
/// answer.
fn send_huge(server: &Server, head: &str, chunked: bool) -> (u16, Value) {
    const SIZE: usize = 10 << 20;
    let mut stream = TcpStream::connect(server.addr).expect("a connection");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a read timeout");
    stream
        .set_write_timeout(Some(Duration::from_secs(10)))
        .expect("a write timeout");
    stream.write_all(head.as_bytes()).expect("the head is sent");
    let mut writer = stream.try_clone().expect("a second handle");
    let sender = thread::spawn(move || {
        let chunk = vec![b' '; 64 << 10];
        let mut sent = 0;
        while sent < SIZE {
            let written = if chunked {
                write!(writer, "{:x}\r\n", chunk.len())
                    .and_then(|()| writer.write_all(&chunk))
                    .and_then(|()| writer.write_all(b"\r\n"))
            } else {
                writer.write_all(&chunk)
            };
            if written.is_err() {
                // The server has answered and closed the connection: the rest is not wanted.
                return sent;
            }
            sent += chunk.len();
        }
        if chunked {
            let _ = writer.write_all(b"0\r\n\r\n");
        }
        sent
    });
    let answer = read_answer(&mut stream);
    let sent = sender.join().expect("the sender");
    println!(
        "10 MB body{}: {} after {} KiB sent",
        if chunked { ", chunked" } else { "" },
        answer.0,
        sent >> 10
    );
    answer
}

/// The heads of a 10 MB request body: with its length, and chunked.
fn huge_heads(server: &Server) -> [(String, bool); 2] {
    let head = |framing: String| {
        format!(
            "POST /api/sessions HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n{framing}\r\n\r\n",
            server.addr
        )
    };
    [
        (head(format!("Content-Length: {}", 10 << 20)), false),
        (head("Transfer-Encoding: chunked".to_string()), true),
    ]
}

#[test]
fn a_ten_megabyte_body_is_refused_while_other_games_go_on() {
    let server = Server::start();
    let refused = |(status, value): (u16, Value)| {
        assert_eq!(status, 413, "{value}");
        let error = value["error"].as_str().expect("an error message");
        assert!(error.contains("too large"), "{error}");
    };
    // On a server with nothing else to do, the bodies are refused without being kept: its memory does not grow
    // by anything like 10 MB.
    let before = server.status_kib("VmRSS");
    for (head, chunked) in huge_heads(&server) {
        refused(send_huge(&server, &head, chunked));
    }
    if let (Some(before), Some(after)) = (before, server.status_kib("VmRSS")) {
        println!("server memory {before} KiB before, {after} KiB after");
        assert!(after < before + 6 * 1024, "{before} KiB, then {after} KiB");
    }
    // And while a player plays, who is answered at once.
    let until = Instant::now() + Duration::from_secs(2);
    thread::scope(|scope| {
        let player = scope.spawn(|| server.keep_playing_until(until));
        for (head, chunked) in huge_heads(&server) {
            refused(send_huge(&server, &head, chunked));
        }
        let (games, slowest) = player.join().expect("the player");
        println!("meanwhile {games} games played, the slowest request {slowest:?}");
    });
}

#[test]
fn a_request_never_finished_is_cut_off_while_other_games_go_on() {
    let server = Server::start();
    let start = Instant::now();
    // A body promised and never sent in full: 408 after 30 s, and the connection is closed.
    let mut body = TcpStream::connect(server.addr).expect("a connection");
    write!(
        body,
        "POST /api/sessions HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"game\": ",
        server.addr
    )
    .expect("part of the request");
    // A request head never finished: the connection is closed after 30 s, without an answer.
    let mut head = TcpStream::connect(server.addr).expect("a connection");
    write!(
        head,
        "POST /api/sessions HTTP/1.1\r\nHost: {}\r\n",
        server.addr
    )
    .expect("a part");
    for stream in [&body, &head] {
        stream
            .set_read_timeout(Some(SERVER_TIMEOUT + Duration::from_secs(30)))
            .expect("a read timeout");
    }
    let (body_answer, head_answer, (games, _)) = thread::scope(|scope| {
        let player = scope.spawn(|| server.keep_playing_until(start + SERVER_TIMEOUT));
        let head_closed = scope.spawn(|| {
            let mut rest = Vec::new();
            let read = (&head).read_to_end(&mut rest);
            (read.map_err(|e| e.kind()), start.elapsed(), rest)
        });
        let answer = read_answer(&mut body);
        let body_elapsed = start.elapsed();
        (
            (answer, body_elapsed),
            head_closed.join().expect("the reader"),
            player.join().expect("the player"),
        )
    });
    let ((status, value), body_elapsed) = body_answer;
    println!(
        "unfinished body: {status} after {body_elapsed:?}; unfinished head: closed after {:?}; \
         meanwhile {games} games played",
        head_answer.1
    );
    assert_eq!(status, 408, "{value}");
    assert!(
        value["error"]
            .as_str()
            .is_some_and(|e| e.contains("too long")),
        "{value}"
    );
    let window = SERVER_TIMEOUT..SERVER_TIMEOUT + Duration::from_secs(10);
    assert!(window.contains(&body_elapsed), "{body_elapsed:?}");
    let (read, head_elapsed, rest) = head_answer;
    assert!(read.is_ok(), "the unfinished head was not closed: {read:?}");
    assert!(rest.is_empty(), "{}", String::from_utf8_lossy(&rest));
    assert!(window.contains(&head_elapsed), "{head_elapsed:?}");
}

/// Raises this process's limit on open files to `wanted` if it is lower (within the hard limit); the server
/// started afterwards inherits it. False when the limit cannot be raised that far.
fn allow_open_files(wanted: u64) -> bool {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current.is_none_or(|current| current >= wanted) {
        return true;
    }
    if limit.maximum.is_some_and(|maximum| maximum < wanted) {
        return false;
    }
    limit.current = Some(wanted);
    setrlimit(Resource::Nofile, limit).is_ok()
}

#[test]
fn a_thousand_idle_connections_leave_the_server_answering() {
    const IDLE: usize = 1000;
    // Each side holds a descriptor per connection; the test's other servers and players need some too.
    assert!(
        allow_open_files(4096),
        "the limit on open files (ulimit -n) is below 4096 and cannot be raised"
    );
    let server = Server::start();
    let files_before = server.open_files();
    let start = Instant::now();
    let mut idle = Vec::with_capacity(IDLE);
    for i in 0..IDLE {
        let mut stream = TcpStream::connect(server.addr).expect("a connection");
        // Half send nothing at all, half a piece of a request line.
        if i % 2 == 1 {
            stream.write_all(b"GET /api/ga").expect("a piece");
        }
        idle.push(stream);
    }
    // Wait until the server holds them all (accepted, not waiting in the listen queue).
    let held = loop {
        let held = server
            .open_files()
            .zip(files_before)
            .map_or(IDLE, |(now, before)| now.saturating_sub(before));
        if held >= IDLE || start.elapsed() > Duration::from_secs(20) {
            break held;
        }
        thread::sleep(Duration::from_millis(50));
    };
    let slowest = server.play_a_little();
    println!(
        "{IDLE} idle connections (server holds {held}) opened in {:?}; a game's slowest request {slowest:?}; \
         server peak memory {:?} KiB",
        start.elapsed(),
        server.status_kib("VmHWM")
    );
    assert!(held >= IDLE, "the server holds {held} connections");
    assert!(slowest < PROMPT, "{slowest:?}");
    // They are closed after the head timeout.
    for stream in &idle {
        stream
            .set_read_timeout(Some(SERVER_TIMEOUT + Duration::from_secs(30)))
            .expect("a read timeout");
    }
    let mut closed = 0;
    for mut stream in idle {
        let mut rest = Vec::new();
        if stream.read_to_end(&mut rest).is_ok() && rest.is_empty() {
            closed += 1;
        }
    }
    let elapsed = start.elapsed();
    println!("all {closed} closed by the server after {elapsed:?}");
    assert_eq!(closed, IDLE);
    assert!(elapsed >= SERVER_TIMEOUT, "{elapsed:?}");
    server.play_a_little();
}
