//! Errors as the API answers them: a 4xx status and a JSON body `{"error": "..."}`, whatever refused the request
//! (a handler, the router, the body limit, the timeout).

use std::any::Any;

use axum::body::Body;
use axum::http::{header, HeaderValue, Response, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;

/// A request refused: its status and what is wrong, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The status (4xx).
    pub status: StatusCode,
    /// What is wrong.
    pub message: String,
    /// For an illegal move, the move as the engine read it (notation).
    pub refused_move: Option<String>,
}

/// The JSON body of every error.
#[derive(Debug, Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    refused_move: Option<&'a str>,
}

impl ApiError {
    /// 400: the request cannot be read or makes no sense.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: no such game or session.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 422: a well-formed move that the rules do not allow here.
    pub fn illegal(mv: String, reason: impl Into<String>) -> ApiError {
        ApiError {
            refused_move: Some(mv),
            ..ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, reason)
        }
    }

    /// An error with this status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            refused_move: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> axum::response::Response {
        let body = ErrorBody {
            error: &self.message,
            refused_move: self.refused_move.as_deref(),
        };
        (self.status, Json(body)).into_response()
    }
}

/// The answer to a path the server does not have.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API path (see docs/web-api.md)")
}

/// What a handler that panicked answers (a bug: the handlers refuse bad input rather than panic).
pub fn panicked(_: Box<dyn Any + Send + 'static>) -> Response<Body> {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the server failed on this request",
    )
    .into_response()
}

/// Turns every error answered without a JSON body (by the router, the body limit, the timeout) into one with
/// `{"error": "..."}`, keeping the status.
pub async fn json_errors(response: Response<Body>) -> Response<Body> {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!(
                "the request body is too large: at most {} bytes",
                super::BODY_LIMIT
            )
        }
        StatusCode::REQUEST_TIMEOUT => "the request took too long and was cut off".to_string(),
        StatusCode::METHOD_NOT_ALLOWED => "this path does not take that method".to_string(),
        _ if !text.is_empty() => text,
        _ => status
            .canonical_reason()
            .unwrap_or("the request was refused")
            .to_lowercase(),
    };
    let body = serde_json::to_vec(&ErrorBody {
        error: &message,
        refused_move: None,
    })
    .unwrap_or_default();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}
