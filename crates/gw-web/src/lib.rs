//! `gameworld serve`: one local web app for three jobs — people play tasks
//! (step or real-time mode) and leave normal run directories, the run viewer
//! replays what an agent saw and did, and the dashboard follows a running
//! suite from its own files.
//!
//! Invariants:
//! - The server binds 127.0.0.1 unless the caller asks for another address.
//! - It never writes outside the first runs directory, and only under its
//!   `plays/` folder; every path a client sends is resolved under one of the
//!   runs roots and refused when it leaves it ([`paths::resolve`]).
//! - A person's inputs reach the game through the runtime's own run loop and
//!   action layer ([`play`]): what they can do, how it is validated, scored
//!   and written is exactly what an agent gets.
//! - The page is served from this binary (no CDN, no network).
//! - It answers only requests addressed to a loopback name unless told
//!   otherwise, and bounds what a client can hold ([`guard`]).

pub mod clip;
pub mod dashboard;
pub mod guard;
pub mod paths;
pub mod play;
pub mod runs;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use gw_core::registry::Registry;
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

const INDEX_HTML: &str = include_str!("../app/index.html");
const APP_JS: &str = include_str!("../app/app.js");
const APP_CSS: &str = include_str!("../app/app.css");

/// What the server works with.
pub struct AppState {
    pub registry: Arc<Registry>,
    /// Canonical runs roots; plays are written under `roots[0]/plays`.
    pub roots: Vec<PathBuf>,
    pub plays: play::Plays,
    /// Which `Host` names are answered (loopback only by default).
    pub hosts: guard::HostPolicy,
    /// Live-update (SSE) streams open now.
    pub live: guard::LiveSlots,
    /// Timeouts and caps of the server.
    pub limits: guard::Limits,
}

impl AppState {
    /// Create the first runs root if needed and canonicalise every root.
    pub fn new(registry: Registry, runs: &[PathBuf]) -> Result<AppState, String> {
        if runs.is_empty() {
            return Err("give at least one runs directory (--runs DIR)".into());
        }
        std::fs::create_dir_all(&runs[0]).map_err(|e| {
            format!(
                "cannot create the runs directory {}: {e}; pass a writable --runs DIR",
                runs[0].display()
            )
        })?;
        let mut roots = Vec::new();
        for r in runs {
            let c = r.canonicalize().map_err(|e| {
                format!(
                    "runs directory {} is not readable: {e}; check the --runs path",
                    r.display()
                )
            })?;
            if !c.is_dir() {
                return Err(format!("--runs {} is not a directory", r.display()));
            }
            roots.push(c);
        }
        Ok(AppState {
            registry: Arc::new(registry),
            roots,
            plays: play::Plays::default(),
            hosts: guard::HostPolicy::default(),
            live: guard::LiveSlots::default(),
            limits: guard::Limits::default(),
        })
    }
}

/// An error answer: a status and a message the page shows as is.
pub struct ApiError(pub StatusCode, pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

pub fn bad_request(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

pub fn not_found(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, msg.into())
}

type ApiResult<T> = Result<T, ApiError>;

/// The app's routes.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route("/api/tasks", get(tasks))
        .route("/api/play", post(play::start))
        .route("/api/play/{id}", get(play::view).delete(play::quit))
        .route("/api/play/{id}/input", post(play::input))
        .route("/api/play/{id}/watch", post(play::watch))
        .route("/api/play/{id}/leave", post(play::leave))
        .route("/api/agents", get(agents))
        .route("/api/play/{id}/frame.png", get(play::frame))
        .route("/api/runs", get(runs::list))
        .route("/api/run", get(runs::run))
        .route("/api/run/calls", get(runs::calls))
        .route("/api/run/frame", get(runs::frame))
        .route("/api/run/clip.gif", get(clip::gif))
        .route("/api/suite", get(dashboard::snapshot))
        .route("/api/suite/events", get(dashboard::events))
        .route("/report/{*path}", get(report_file))
        .layer(DefaultBodyLimit::max(guard::MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::read_body_in_time,
        ))
        .layer(axum::middleware::map_response(json_client_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check_host,
        ))
        .with_state(state)
}

/// Every client error is `{"error": "..."}`, as the app's own are: axum's
/// answers to a malformed query or body (400, 413, 415, 422), an unknown
/// route (404) or a method a route lacks (405) come as plain text or with
/// no body, which a client reading `error` would not see.
async fn json_client_errors(resp: Response) -> Response {
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() || is_json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let message = match (text.is_empty(), status) {
        (false, _) => text,
        (true, StatusCode::METHOD_NOT_ALLOWED) => {
            match parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok())
            {
                Some(allowed) if !allowed.is_empty() => {
                    format!("method not allowed on this route; use {allowed}")
                }
                _ => "method not allowed on this route".to_string(),
            }
        }
        (true, StatusCode::NOT_FOUND) => "no such page or API route".to_string(),
        (true, s) => s.canonical_reason().unwrap_or("client error").to_string(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(
        parts,
        axum::body::Body::from(json!({ "error": message }).to_string()),
    )
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Every task, for the Play picker.
async fn tasks(State(st): State<Arc<AppState>>) -> axum::Json<Value> {
    let reg = &st.registry;
    let mut out = Vec::new();
    for game in reg.games.values() {
        let game = &game.value;
        for task in reg.tasks_of(&game.id) {
            out.push(json!({
                "game_id": game.id,
                "game_name": game.name,
                "task_id": task.id,
                "preset_prefix": format!("{}+{}", game.id, task.id),
                "instruction": task.instruction.trim(),
                "max_steps": task.max_steps,
                "viewport": [game.viewport.width, game.viewport.height],
                "roles": game.roles.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
                "cooperative": game.is_cooperative(),
            }));
        }
    }
    axum::Json(Value::Array(out))
}

/// The agents a person can pair with in a cooperative game: the built-ins
/// and every model profile.
async fn agents(State(st): State<Arc<AppState>>) -> axum::Json<Value> {
    let builtin: Vec<&str> = ["scripted", "random", "noop"].to_vec();
    let models: Vec<&String> = st.registry.models.keys().collect();
    axum::Json(json!({"builtin": builtin, "models": models}))
}

#[derive(Deserialize)]
struct RootQuery {
    root: Option<usize>,
}

/// `report.html` and its SVG figures, served from a runs root so their links
/// into the viewer work.
async fn report_file(
    State(st): State<Arc<AppState>>,
    UrlPath(path): UrlPath<String>,
    Query(q): Query<RootQuery>,
) -> ApiResult<Response> {
    let file = paths::resolve(&st.roots, q.root.unwrap_or(0), &path)?;
    let kind = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("csv") | Some("md") => "text/plain; charset=utf-8",
        _ => return Err(not_found("only report files are served here")),
    };
    let bytes = paths::read_regular_off_thread(file)
        .await
        .ok_or_else(|| not_found(format!("no such file: {path}")))?;
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

/// Bind, print the address and serve a prepared state until the process
/// ends (its runs roots already checked by [`AppState::new`], whose errors
/// are the caller's configuration errors).
pub fn serve_state(state: Arc<AppState>, listen: SocketAddr) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}; choose another --port"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        println!(
            "gameworld serve: http://{addr}/  (runs: {})",
            state.roots[0].display()
        );
        println!("  play:      http://{addr}/#/play");
        println!("  runs:      http://{addr}/#/runs");
        serve_on(listener, state).await;
        Err("server stopped".to_string())
    })
}

/// Serve the app on a bound listener until the process ends, with the
/// state's limits (Host check, timeouts, connection caps).
pub async fn serve_on(listener: tokio::net::TcpListener, state: Arc<AppState>) {
    let limits = state.limits.clone();
    guard::serve_connections(listener, router(state), limits).await
}
