//! `gameworld serve`'s guards over raw loopback connections: the Host check
//! (DNS rebinding), header, idle and body timeouts, the cap on live-update
//! streams, and paged, bounded model calls in `/api/run`.

use gw_core::registry::Registry;
use gw_web::guard::{HostPolicy, Limits};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn registry() -> Registry {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
    Registry::load(&[root]).unwrap_or_else(|e| panic!("{e}"))
}

fn short_limits() -> Limits {
    Limits {
        header_read: Duration::from_millis(400),
        body_read: Duration::from_millis(400),
        max_connections: 32,
        max_live_updates: 2,
    }
}

/// Serve on a free loopback port with `hosts` and short limits.
fn start(runs: &Path, hosts: HostPolicy) -> SocketAddr {
    let mut state = gw_web::AppState::new(registry(), &[runs.to_path_buf()]).unwrap();
    state.hosts = hosts;
    state.limits = short_limits();
    let state = Arc::new(state);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            gw_web::serve_on(listener, state).await;
        });
    });
    rx.recv().unwrap()
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    // A guard against a hanging test, far above the server's limits.
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// Everything the server sends until it closes the connection.
fn read_all(mut s: TcpStream) -> String {
    let mut out = Vec::new();
    s.read_to_end(&mut out)
        .expect("the server closes the connection");
    String::from_utf8_lossy(&out).into_owned()
}

/// One request with `Connection: close`; (status, JSON body or null).
fn request(addr: SocketAddr, method: &str, target: &str, host: &str) -> (u16, Value) {
    let mut s = connect(addr);
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    parse(&read_all(s))
}

fn parse(resp: &str) -> (u16, Value) {
    let status = resp
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = resp.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn only_loopback_names_are_answered_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(dir.path(), HostPolicy::Loopback);
    let port = addr.port();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let (status, _) = request(addr, "GET", "/api/runs", &host);
        assert_eq!(status, 200, "{host}");
    }
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1.nip.io:{port}"),
        "192.168.1.20".to_string(),
    ] {
        let (status, body) = request(addr, "GET", "/api/runs", &host);
        assert_eq!(status, 403, "{host}");
        let msg = body["error"].as_str().unwrap();
        assert!(
            msg.contains("--allow-remote") && msg.contains("DNS rebinding"),
            "{msg}"
        );
    }
    // The page itself is guarded too.
    assert_eq!(request(addr, "GET", "/", "evil.example").0, 403);

    let addr = start(dir.path(), HostPolicy::from_flag(Some(&["box.lan".into()])));
    assert_eq!(request(addr, "GET", "/api/runs", "box.lan:8321").0, 200);
    assert_eq!(request(addr, "GET", "/api/runs", "evil.example").0, 403);
}

#[test]
fn slow_headers_idle_connections_and_lying_bodies_are_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let addr = start(dir.path(), HostPolicy::Loopback);
    // Idle: the server closes a connection that sends nothing.
    assert_eq!(read_all(connect(addr)), "");
    // Headers that never finish.
    let mut s = connect(addr);
    s.write_all(b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let got = read_all(s);
    assert!(!got.contains("200 OK"), "{got}");
    // A keep-alive connection is closed after its request once idle.
    let mut s = connect(addr);
    s.write_all(b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let got = read_all(s);
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    // A body shorter than its Content-Length: 408, not a held handler.
    let mut s = connect(addr);
    s.write_all(
        b"POST /api/play HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"preset\"",
    )
    .unwrap();
    let (status, body) = parse(&read_all(s));
    assert_eq!(status, 408, "{body}");
    assert!(body["error"].as_str().unwrap().contains("did not arrive"));
}

#[test]
fn live_update_streams_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s");
    std::fs::create_dir_all(&suite).unwrap();
    std::fs::write(
        suite.join("suite.json"),
        json!({"suite": {"name": "s"}, "planned_runs": 0, "runs": []}).to_string(),
    )
    .unwrap();
    let addr = start(dir.path(), HostPolicy::Loopback);
    let open = || {
        let mut s = connect(addr);
        s.write_all(b"GET /api/suite/events?path=s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 512];
        let n = s.read(&mut buf).unwrap();
        (s, String::from_utf8_lossy(&buf[..n]).into_owned())
    };
    let (a, first) = open();
    let (b, second) = open();
    assert!(first.starts_with("HTTP/1.1 200") && second.starts_with("HTTP/1.1 200"));
    let (_c, third) = open();
    assert!(third.starts_with("HTTP/1.1 503"), "{third}");
    assert!(third.contains("live-update streams"), "{third}");
    drop((a, b));
}

#[test]
fn run_model_calls_come_in_bounded_pages() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("r");
    std::fs::create_dir_all(&run).unwrap();
    let mut traj = String::new();
    for step in 1..=3 {
        traj.push_str(&json!({"step": step, "episode": 0, "valid": true, "state": {}}).to_string());
        traj.push('\n');
    }
    std::fs::write(run.join("trajectory.jsonl"), traj).unwrap();
    let mut calls = String::new();
    for (i, step) in [1, 1, 2, 3, 3].iter().enumerate() {
        let response = if i == 4 {
            json!({"text": "y".repeat(300_000)})
        } else {
            json!({"n": i})
        };
        calls.push_str(
            &json!({"step": step, "episode": 0, "attempt": 1, "status": 200, "response": response})
                .to_string(),
        );
        calls.push('\n');
    }
    std::fs::write(run.join("model_calls.jsonl"), calls).unwrap();
    // A result.json far larger than any the runtime writes.
    std::fs::write(
        run.join("result.json"),
        json!({"preset": "p", "error": "e".repeat(2 << 20)}).to_string(),
    )
    .unwrap();
    let addr = start(dir.path(), HostPolicy::Loopback);

    let (status, body) = request(addr, "GET", "/api/run?path=r&calls_limit=2", "127.0.0.1");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["calls_page"],
        json!({"offset": 0, "limit": 2, "returned": 2, "total": 5, "next": 2})
    );
    assert_eq!(body["steps"][0]["calls"].as_array().unwrap().len(), 2);
    assert_eq!(body["steps"][2]["calls"], json!([]));
    assert!(
        body["result"]["error"]
            .as_str()
            .unwrap()
            .contains("larger than")
    );

    let (_, page) = request(
        addr,
        "GET",
        "/api/run/calls?path=r&offset=2&limit=2",
        "127.0.0.1",
    );
    assert_eq!(page["page"]["next"], json!(4));
    assert_eq!(page["calls"][0]["response"], json!({"n": 2}));
    let (_, step3) = request(addr, "GET", "/api/run/calls?path=r&step=3", "127.0.0.1");
    let list = step3["calls"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    let clipped = list[1]["response"].as_str().unwrap();
    assert!(clipped.len() < 70_000 && clipped.contains("sha256 of the rest"));

    // The runs list does not read the oversized result.json.
    let (_, runs) = request(addr, "GET", "/api/runs", "127.0.0.1");
    let row = &runs["runs"][0];
    assert!(
        row["error"].as_str().unwrap().contains("larger than"),
        "{row}"
    );
}
