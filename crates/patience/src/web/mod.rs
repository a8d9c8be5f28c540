//! `patience serve`: the web player. A JSON API (documented in `docs/web-api.md`) over games held on the server,
//! and a page (HTML, CSS and plain JavaScript under `assets/`, embedded in the binary) that draws them.
//!
//! The server decides everything the rules decide: the page asks for the legal moves and sends moves to be
//! played; it never judges a move itself. Each game is a session in a bounded map keyed by a random id, so that
//! several tabs and several games go on at once, independently. The solver works in the background, a few
//! searches at a time: whether the position is still winnable after each move, hints, the post-mortem of a lost
//! game and the search for winnable deals. Finished games go to the player's store, which also gives the
//! statistics page its figures.

mod analysis;
mod api;
mod assets;
mod error;
mod postmortem;
mod record;
mod session;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

use crate::{output, ServeArgs};
pub use analysis::Pool;
pub use record::Record;
use session::Sessions;

/// The largest request body the server reads; a larger one is refused with 413.
pub const BODY_LIMIT: usize = 64 * 1024;
/// The longest a request may take, body included; a slower one is cut off with 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most games held at once; starting one more forgets the one left alone longest.
pub const MAX_SESSIONS: usize = 1024;
/// The longest the server waits for a request's head (its line and headers), on a new connection or for the
/// next request on one kept alive; the connection is then closed.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(30);
/// Connections the system may hold for the server before it accepts them (the system may allow fewer). With
/// the usual 128, 200 players connecting at once overflowed the queue, and the connections dropped waited a
/// second for the retry.
pub const BACKLOG: u32 = 1024;
/// How long requests under way may go on once the server is interrupted.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// What every request handler shares.
pub struct AppState {
    /// The games in play, by id.
    sessions: Mutex<Sessions>,
    /// The background solver's threads.
    pool: Pool,
    /// The player's store: finished games, the unfinished game, statistics.
    record: Record,
    /// The longest a request may take.
    timeout: Duration,
}

impl AppState {
    /// A server's state: no game yet, `pool` for the solver and `record` for the player's store.
    pub fn new(pool: Pool, record: Record) -> Arc<AppState> {
        AppState::with_limits(pool, record, MAX_SESSIONS, REQUEST_TIMEOUT)
    }

    /// A server's state that holds at most `sessions` games and cuts requests off after `timeout`.
    pub fn with_limits(
        pool: Pool,
        record: Record,
        sessions: usize,
        timeout: Duration,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            sessions: Mutex::new(Sessions::new(sessions)),
            pool,
            record,
            timeout,
        })
    }
}

/// The whole service: the page, the API, and the limits on every request (body size, time, panics), with every
/// error answered as JSON.
pub fn router(state: Arc<AppState>) -> Router {
    let timeout = state.timeout;
    Router::new()
        .merge(assets::routes())
        .nest("/api", api::routes())
        .fallback(error::not_found)
        .with_state(state)
        .layer(CatchPanicLayer::custom(error::panicked))
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            timeout,
        ))
        .layer(axum::middleware::map_response(error::json_errors))
}

/// Runs `patience serve`: binds the address, prints it on standard output (`listening on http://ADDR/`), and
/// serves until interrupted.
pub fn run(args: &ServeArgs, data_dir: Option<&Path>) -> anyhow::Result<()> {
    let record = Record::open(data_dir);
    for note in record.notes() {
        eprintln!("note: {note}");
    }
    if let Some(problem) = record.problem() {
        eprintln!("note: finished games will not be recorded: {problem}");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = listen(addr).with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener
            .local_addr()
            .context("cannot read the address listened on")?;
        output::print(&format!("listening on http://{bound}/\n"))?;
        let state = AppState::new(Pool::new(Pool::default_size()), record);
        serve(listener, router(state)).await;
        Ok(())
    })
}

/// Accepts connections and serves each with `app` until interrupted (Ctrl-C), then lets the requests under way
/// finish for a few seconds.
///
/// Each connection is HTTP/1.1 with hyper's header timeout, which `axum::serve` does not set: a connection that
/// has not sent a whole request head within [`HEAD_TIMEOUT`], the first or the next one on a connection kept
/// alive, is closed, so that idle or slow connections are not held for ever.
async fn serve(listener: tokio::net::TcpListener, app: Router) {
    let graceful = GracefulShutdown::new();
    let mut interrupted = std::pin::pin!(async {
        if tokio::signal::ctrl_c().await.is_err() {
            // Without a signal handler the server runs until it is killed, which is as good.
            std::future::pending::<()>().await;
        }
    });
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut interrupted => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of file descriptors, say: wait for connections to close rather than spin.
                eprintln!("note: cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        // Answers are small: send them at once.
        let _ = stream.set_nodelay(true);
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(HEAD_TIMEOUT)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection that fails (closed by the client, timed out) concerns that client alone.
            let _ = connection.await;
        });
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}

/// Listens on `addr` with room for [`BACKLOG`] connections waiting to be accepted.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As the standard library's bind does: a port left in TIME_WAIT by a server just stopped can be reused.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// An error of one incoming connection, not of the listener.
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}
