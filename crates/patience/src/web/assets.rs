//! The page: `assets/index.html`, `style.css` and `app.js`, embedded in the binary and served as they are. Nothing
//! is fetched from elsewhere, and there is no build step.

use std::sync::Arc;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::AppState;

/// The page's HTML.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// The page's script.
pub const APP_JS: &str = include_str!("assets/app.js");

/// The routes of the page and its files.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route(
            "/style.css",
            get(|| asset("text/css; charset=utf-8", STYLE_CSS)),
        )
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", APP_JS)),
        )
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        body,
    )
}
