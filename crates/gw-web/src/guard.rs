//! What keeps `gameworld serve` safe to leave running: which `Host` names
//! it answers (a DNS-rebinding guard), how long a client may take to send a
//! request, how many connections and live-update streams it holds at once.
//!
//! - **Host**: a page on another site can make the browser send requests to
//!   127.0.0.1 under its own name (DNS rebinding) and read the answers. The
//!   server therefore answers only requests addressed to `localhost`
//!   (`*.localhost`) or a loopback address, plus the names `--allow-remote`
//!   lists (or any name with a bare `--allow-remote`); others get 403.
//! - **Timeouts**: a request's headers must arrive within
//!   [`HEADER_READ_TIMEOUT`] of the connection's being ready for one (which
//!   also closes an idle keep-alive connection after that long), and its
//!   body within [`BODY_READ_TIMEOUT`] (a lying `Content-Length` gets 408).
//! - **Caps**: at most [`MAX_CONNECTIONS`] connections at once (more wait in
//!   the listen queue) and [`MAX_LIVE_UPDATES`] live-update (SSE) streams
//!   (more get 503).

use crate::{ApiError, AppState};
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest wait for a request's headers (and an idle connection's next request).
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest wait for a request's body (at most 64 KiB).
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 128;
/// The most live-update (server-sent events) streams at once.
pub const MAX_LIVE_UPDATES: usize = 16;
/// The largest request body (also axum's limit in [`crate::router`]).
pub const MAX_BODY: usize = 64 * 1024;

/// The server's limits (the constants above unless a caller, such as a
/// test, sets others).
#[derive(Clone, Debug)]
pub struct Limits {
    pub header_read: Duration,
    pub body_read: Duration,
    pub max_connections: usize,
    pub max_live_updates: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: HEADER_READ_TIMEOUT,
            body_read: BODY_READ_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            max_live_updates: MAX_LIVE_UPDATES,
        }
    }
}

/// Which `Host` names the server answers besides loopback ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum HostPolicy {
    /// `localhost`, `*.localhost` and loopback addresses only.
    #[default]
    Loopback,
    /// Those and these names (lower case, without port).
    Also(Vec<String>),
    /// Any name (a bare `--allow-remote`).
    Any,
}

impl HostPolicy {
    /// The policy for `--allow-remote [HOSTS]`: `None` (flag absent) keeps
    /// loopback only, an empty list or `*` allows any, else those names.
    pub fn from_flag(hosts: Option<&[String]>) -> HostPolicy {
        match hosts {
            None => HostPolicy::Loopback,
            Some(list) => {
                let names: Vec<String> = list
                    .iter()
                    .flat_map(|h| h.split(','))
                    .map(|h| host_name(h.trim()).to_ascii_lowercase())
                    .filter(|h| !h.is_empty())
                    .collect();
                if names.is_empty() || names.iter().any(|n| n == "*") {
                    HostPolicy::Any
                } else {
                    HostPolicy::Also(names)
                }
            }
        }
    }

    /// Whether a request whose `Host` header is `host` is answered.
    pub fn allows(&self, host: &str) -> bool {
        let name = host_name(host.trim()).to_ascii_lowercase();
        if is_loopback_name(&name) {
            return true;
        }
        match self {
            HostPolicy::Loopback => false,
            HostPolicy::Also(names) => names.contains(&name),
            HostPolicy::Any => true,
        }
    }
}

/// A `Host` value without its port: `[::1]:80` → `::1`, `a.b:8321` → `a.b`.
pub fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

fn is_loopback_name(name: &str) -> bool {
    let name = name.trim_end_matches('.');
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| match ip {
            IpAddr::V6(v6) => {
                v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
            v4 => v4.is_loopback(),
        })
}

/// Middleware: refuse requests addressed to a name the policy does not
/// allow. A request without `Host` (HTTP/1.0 tools) is answered: browsers,
/// the only way to a rebinding attack, always send one.
pub async fn check_host(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    match host {
        Some(h) if !st.hosts.allows(&h) => ApiError(
            StatusCode::FORBIDDEN,
            format!(
                "this server answers only requests addressed to localhost or a loopback address, not \"{}\" \
                 (a guard against DNS rebinding); to reach it under that name start it with --allow-remote {}",
                h.escape_debug(),
                host_name(&h).escape_debug()
            ),
        )
        .into_response(),
        _ => next.run(req).await,
    }
}

/// Middleware: read a request's body within the body timeout (and at
/// most [`MAX_BODY`] bytes) before any handler sees it, so a client that
/// announces more than it sends is answered 408 instead of holding a
/// handler.
pub async fn read_body_in_time(
    State(st): State<Arc<AppState>>,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let limit = st.limits.body_read;
    match tokio::time::timeout(limit, axum::body::to_bytes(body, MAX_BODY)).await {
        Err(_) => ApiError(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {:.1} s",
                limit.as_secs_f64()
            ),
        )
        .into_response(),
        Ok(Err(_)) => ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request bodies are limited to {} KiB", MAX_BODY / 1024),
        )
        .into_response(),
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await
        }
    }
}

/// Counts live-update streams; a [`LiveSlot`] frees its place when the
/// stream ends or the client goes away.
#[derive(Debug, Default)]
pub struct LiveSlots(Arc<AtomicUsize>);

/// One held live-update place.
#[derive(Debug)]
pub struct LiveSlot(Arc<AtomicUsize>);

impl LiveSlots {
    /// A place, or `None` when `max` are in use.
    pub fn take(&self, max: usize) -> Option<LiveSlot> {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| LiveSlot(self.0.clone()))
    }

    pub fn in_use(&self) -> usize {
        self.0.load(Ordering::Acquire)
    }
}

impl Drop for LiveSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serve `app` on `listener` until the process ends: HTTP/1.1 with the
/// header timeout, at most `limits.max_connections` connections at once.
pub async fn serve_connections(listener: tokio::net::TcpListener, app: Router, limits: Limits) {
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: wait, then go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let limits = limits.clone();
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .max_buf_size(64 * 1024);
            let _ = http
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_and_policies() {
        let lo = HostPolicy::Loopback;
        for ok in [
            "localhost",
            "localhost:8321",
            "LOCALHOST.",
            "app.localhost:1",
            "127.0.0.1:8321",
            "127.3.4.5",
            "[::1]:8321",
            "[::ffff:127.0.0.1]",
        ] {
            assert!(lo.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8321",
            "127.0.0.1.nip.io",
            "localhost.evil.com",
            "10.0.0.2",
            "[::2]",
            "",
        ] {
            assert!(!lo.allows(bad), "{bad}");
        }
        let some = HostPolicy::from_flag(Some(&["Box.lan:8321, 192.168.1.9".to_string()]));
        assert_eq!(
            some,
            HostPolicy::Also(vec!["box.lan".into(), "192.168.1.9".into()])
        );
        assert!(
            some.allows("box.lan:8321") && some.allows("192.168.1.9") && some.allows("localhost")
        );
        assert!(!some.allows("evil.example"));
        assert_eq!(HostPolicy::from_flag(Some(&[])), HostPolicy::Any);
        assert_eq!(HostPolicy::from_flag(None), HostPolicy::Loopback);
        assert!(HostPolicy::Any.allows("anything:1"));
    }

    #[test]
    fn live_slots_are_capped_and_freed() {
        let slots = LiveSlots::default();
        let held: Vec<LiveSlot> = (0..3).map(|_| slots.take(3).unwrap()).collect();
        assert!(slots.take(3).is_none());
        drop(held);
        assert_eq!(slots.in_use(), 0);
        assert!(slots.take(3).is_some());
    }
}
