//! `gameworld mcp`: every task as a Model Context Protocol server, built on
//! the official Rust SDK (`rmcp`). An MCP client — a coding agent, a desktop
//! agent, an agent SDK — plays one run through tools: `observe`, and one tool
//! per semantic action (generalist) or the one `computer` tool (computer
//! use). Behind the tools sits one more [`gw_agents::Agent`] ([`agent`]), and
//! the run is the runtime's own: same step budget, validation, evaluator and
//! run directory as `gameworld run`, with model id `mcp`.

pub mod agent;
pub mod server;
pub mod tools;

use gw_core::registry::{Interface, Registry};
use rmcp::ServiceExt;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use server::{Hub, Session, parse_interface};

/// Which wire the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// One session on standard input/output (the client starts the server).
    Stdio,
    /// Streamable HTTP on `/mcp`: one run per session.
    Http,
}

#[derive(Clone, Debug)]
pub struct McpOptions {
    /// `<game_id>+<task_id>`.
    pub preset: String,
    pub seed: u64,
    /// Stdio: the run directory. HTTP: the folder that gets one `run-NNN`
    /// folder per run.
    pub out: PathBuf,
    pub interface: Interface,
    pub realtime: bool,
    pub transport: Transport,
    /// HTTP: where to listen.
    pub bind: IpAddr,
    pub port: u16,
    /// HTTP: sessions at once.
    pub max_sessions: usize,
    /// Cooperative games: how long a step waits for the roles that have
    /// not called an action.
    pub step_timeout: Duration,
    /// Set for stdio: `out` is the one run's directory.
    pub one_run: bool,
}

/// Exit status and message of a server that could not run (2: configuration,
/// 1: runtime), as the CLI reports them.
pub type ServeError = (u8, String);

/// Serve until the client leaves (stdio) or the process is stopped (HTTP).
/// Every run started leaves a complete `result.json`.
pub fn serve(registry: Arc<Registry>, mut opts: McpOptions) -> Result<(), ServeError> {
    opts.one_run = opts.transport == Transport::Stdio;
    if opts.max_sessions == 0 {
        return Err((2, "--max-sessions must be at least 1".into()));
    }
    if opts.out.exists() && !opts.out.is_dir() {
        return Err((
            2,
            format!(
                "--out {} is a file, not a folder; pass a folder (it is created when missing)",
                opts.out.display()
            ),
        ));
    }
    let hub = Hub::new(registry, opts.clone()).map_err(|e| (2, e))?;
    if hub.cooperative() && opts.transport == Transport::Stdio {
        return Err((
            2,
            format!(
                "{} is a cooperative game: each role plays from its own MCP session, which needs --transport http (stdio carries one session)",
                opts.preset
            ),
        ));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| (1, format!("cannot start the async runtime: {e}")))?;
    let served = match opts.transport {
        Transport::Stdio => rt.block_on(serve_stdio(hub.clone())),
        Transport::Http => rt.block_on(serve_http(hub.clone(), &opts)),
    };
    // The sessions are gone: every run not yet over ends as agent_left and
    // writes its result before the process exits.
    for run in hub.runs() {
        run.quit_all();
        run.join();
        if let Some(r) = run.seats[0].snapshot().finished {
            eprintln!(
                "gameworld mcp: {} — {}, stop: {}, {} steps → {}",
                r["preset"].as_str().unwrap_or(""),
                if r["success"].as_bool() == Some(true) {
                    "success"
                } else {
                    "not solved"
                },
                r["stop_reason"].as_str().unwrap_or(""),
                r["steps"],
                run.dir.display()
            );
        }
    }
    rt.shutdown_timeout(Duration::from_secs(1));
    served
}

async fn serve_stdio(hub: Arc<Hub>) -> Result<(), ServeError> {
    let session = Session::new(hub);
    let service = session
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| (1, format!("the MCP handshake on stdio failed: {e}")))?;
    // The client closing stdin ends the session; so does a SIGTERM or
    // Ctrl-C (a client that stops its server): either way the run then
    // ends as agent_left and writes its result.
    tokio::select! {
        done = service.waiting() => {
            done.map_err(|e| (1, format!("the MCP session on stdio failed: {e}")))?;
        }
        _ = stop_signal() => {}
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = term.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

async fn serve_http(hub: Arc<Hub>, opts: &McpOptions) -> Result<(), ServeError> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let mut sessions = LocalSessionManager::default();
    // A client that vanishes without closing its session is let go after
    // the idle limit (its run ends as agent_left).
    sessions.session_config.keep_alive = Some(agent::IDLE_LIMIT);
    let mut config = StreamableHttpServerConfig::default();
    if !opts.bind.is_loopback() {
        // --allow-remote was given (the CLI checks): the Host header names
        // this machine, whatever it is called.
        config = config.disable_allowed_hosts();
    }
    let factory_hub = hub.clone();
    let service: StreamableHttpService<Session, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(Session::new(factory_hub.clone())),
        Arc::new(sessions),
        config,
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let addr = SocketAddr::new(opts.bind, opts.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| (1, format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| (1, format!("cannot read the listening address: {e}")))?;
    eprintln!(
        "gameworld mcp: {} over streamable HTTP at http://{local}/mcp (one run per MCP session, at most {} at once); stop with Ctrl-C or SIGTERM",
        opts.preset, opts.max_sessions
    );
    let server = axum::serve(listener, router).with_graceful_shutdown(stop_signal());
    tokio::select! {
        done = server => done.map_err(|e| (1, format!("the HTTP server stopped: {e}"))),
        // Open streams get a few seconds to close after the signal.
        _ = async {
            stop_signal().await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        } => Ok(()),
    }
}
