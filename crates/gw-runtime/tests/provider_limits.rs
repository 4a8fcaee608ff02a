//! Security and limits of model-backed runs against loopback servers (one
//! standing in for the provider, one for an attacker): redirects never take
//! a key to another origin, keys are masked before anything is cut, provider
//! text is bounded and stripped of terminal escapes in every file, wrong
//! shapes stop the run, tools follow the model's version, waits are capped,
//! and numbers out of range are refused at file:line.

mod support;

use gw_core::registry::Registry;
use gw_runtime::{RunError, RunOptions, RunResult, run_preset};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::jsonl;
use support::loopback::*;

const PRESET: &str = "01_2048+01_01";

fn project_registry() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

fn write_model(root: &Path, id: &str, yaml: &str) {
    std::fs::create_dir_all(root.join("models")).unwrap();
    std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
}

fn profile(id: &str, fields: &str, base_url: &str, key_env: Option<&str>) -> String {
    let key = key_env
        .map(|k| format!("api_key_env: {k}\n"))
        .unwrap_or_default();
    let retries = if fields.contains("max_retries:") {
        ""
    } else {
        "max_retries: 0\n"
    };
    let model = if fields.lines().any(|l| l.starts_with("model:")) {
        ""
    } else {
        "model: test-model\n"
    };
    format!(
        "id: {id}\n{model}base_url: {base_url}\n{key}{fields}\nmemory_rounds: 1\nmax_tokens: 64\ntimeout_s: 10\n{retries}retry_backoff_s: 0.01\n"
    )
}

fn set_key(var: &str, value: &str) {
    // SAFETY: each test uses its own variable name, read only by that test.
    unsafe { std::env::set_var(var, value) };
}

struct Played {
    result: Result<RunResult, RunError>,
    dir: tempfile::TempDir,
    out: PathBuf,
    received: Vec<Received>,
}

/// Run `PRESET+id` for `steps` steps against a server playing `script`.
fn play(
    id: &str,
    fields: &str,
    key: Option<(&str, &str)>,
    script: Vec<Scripted>,
    steps: u32,
) -> Played {
    let server = Server::start(script);
    if let Some((var, value)) = key {
        set_key(var, value);
    }
    let dir = tempfile::tempdir().unwrap();
    let suffix = if fields.contains("gemini") {
        "/v1beta"
    } else {
        "/v1"
    };
    let root = dir.path().join("reg");
    write_model(
        &root,
        id,
        &profile(
            id,
            fields,
            &format!("{}{suffix}", server.base()),
            key.map(|k| k.0),
        ),
    );
    let registry = Registry::load(&[project_registry(), root]).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.path().join("run");
    let opts = RunOptions {
        max_steps: Some(steps),
        ..RunOptions::new(format!("{PRESET}+{id}"), 7, &out)
    };
    let result = run_preset(&registry, &opts);
    let received = server.finish();
    Played {
        result,
        dir,
        out,
        received,
    }
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

/// Every file under `dir`, as text.
fn all_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = read(&p);
                out.push((p, text));
            }
        }
    }
    out
}

/// A listener standing in for another origin; it must never be contacted.
struct Attacker(std::net::TcpListener);

impl Attacker {
    fn start() -> Attacker {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.set_nonblocking(true).unwrap();
        Attacker(l)
    }
    fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}{path}",
            self.0.local_addr().unwrap().port()
        )
    }
    fn was_contacted(&self) -> bool {
        self.0.accept().is_ok()
    }
}

#[test]
fn a_redirect_to_another_origin_never_receives_the_key() {
    for (id, fields, var) in [
        (
            "lim-redirect-claude",
            "provider: anthropic",
            "GW_LIM_KEY_RA",
        ),
        ("lim-redirect-gemini", "provider: gemini", "GW_LIM_KEY_RG"),
        ("lim-redirect-openai", "provider: openai", "GW_LIM_KEY_RO"),
    ] {
        let attacker = Attacker::start();
        let secret = format!("sk-{id}-secret-0099");
        let location = attacker.url("/steal");
        let p = play(
            id,
            fields,
            Some((var, &secret)),
            vec![Scripted::raw(302, "{}").with_header("location", &location)],
            3,
        );
        let err = p.result.as_ref().unwrap_err();
        assert!(matches!(err, RunError::Runtime(_)), "{id}: {err}");
        let text = err.to_string();
        assert!(
            text.contains("HTTP 302") && text.contains(&location) && text.contains("redirect"),
            "{id}: {text}"
        );
        assert!(
            !attacker.was_contacted(),
            "{id}: the other origin was contacted"
        );
        assert_eq!(p.received.len(), 1, "{id}: a redirect is not retried");
        assert_eq!(p.received[0].method, "POST");
        // Recorded as what it was: the real status and where it pointed.
        let calls = jsonl(&p.out.join("model_calls.jsonl"));
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0]["status"], json!(302), "{id}");
        assert_eq!(calls[0]["redirect_location"], json!(location), "{id}");
        let result: Value = serde_json::from_str(&read(&p.out.join("result.json"))).unwrap();
        assert_eq!(result["stop_reason"], json!("agent_error"));
        assert!(result["error"].as_str().unwrap().contains(&location));
    }
}

#[test]
fn same_origin_307_and_308_are_followed_with_method_and_body_others_are_not() {
    let u = (10, 1, 0);
    let p = play(
        "lim-same-origin",
        "provider: openai",
        None,
        vec![
            Scripted::raw(307, "").with_header("location", "/v1/moved/chat/completions"),
            openai_tools(&[("move_up", "{}")], u),
            Scripted::raw(308, "").with_header("location", "moved/chat/completions"),
            openai_tools(&[("move_left", "{}")], u),
        ],
        2,
    );
    let r = p.result.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.valid_actions, 2);
    let rx = &p.received;
    assert_eq!(rx.len(), 4);
    assert_eq!(rx[1].path, "/v1/moved/chat/completions");
    // A relative Location resolves against the request's own path.
    assert_eq!(rx[3].path, "/v1/chat/moved/chat/completions");
    for (a, b) in [(0, 1), (2, 3)] {
        assert_eq!(rx[b].method, "POST", "the method is kept");
        assert_eq!(rx[a].body, rx[b].body, "the body is sent again");
    }
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2, "one record per call, redirect included");
    assert_eq!(calls[0]["status"], json!(200));
    assert!(
        calls[0]["redirects_followed"][0]
            .as_str()
            .unwrap()
            .ends_with("/v1/moved/chat/completions")
    );

    // A 302 to the same origin would turn the POST into a GET: refused; so
    // is a 307 to another port (another origin).
    let other = Attacker::start();
    for (status, location) in [
        (302, "/v1/elsewhere".to_string()),
        (307, other.url("/v1/x")),
    ] {
        let p = play(
            "lim-same-origin-refused",
            "provider: openai",
            None,
            vec![Scripted::raw(status, "").with_header("location", &location)],
            1,
        );
        let err = p.result.unwrap_err().to_string();
        assert!(
            err.contains(&format!("HTTP {status}")) && err.contains(&location),
            "{err}"
        );
        assert_eq!(p.received.len(), 1);
    }
    assert!(!other.was_contacted());
}

#[test]
fn a_key_straddling_the_cut_and_a_short_key_never_leak() {
    // The key starts just before where the old code cut the body (300
    // characters) and runs past it.
    let secret = "sk-straddle-ABCDEFGHIJKLMNOP-0123";
    let body = format!("{}{secret}{}", "e".repeat(290), "z".repeat(5000));
    let p = play(
        "lim-straddle",
        "provider: openai",
        Some(("GW_LIM_KEY_STRADDLE", secret)),
        vec![Scripted::raw(400, &body)],
        2,
    );
    let err = p.result.as_ref().unwrap_err().to_string();
    assert!(err.contains("HTTP 400"), "{err}");
    assert!(
        !err.contains("sk-str") && err.contains("[REDACTED]"),
        "{err}"
    );
    for (path, text) in all_files(&p.out) {
        assert!(
            !text.contains("sk-str"),
            "{} holds part of the key",
            path.display()
        );
    }

    // A five-character key is masked everywhere too.
    let short = "Qz9#k";
    let p = play(
        "lim-short-key",
        "provider: openai",
        Some(("GW_LIM_KEY_SHORT", short)),
        vec![Scripted::error(
            401,
            json!({"error": {"message": format!("key {short} was rejected")}}),
        )],
        1,
    );
    let err = p.result.as_ref().unwrap_err().to_string();
    assert!(!err.contains(short) && err.contains("[REDACTED]"), "{err}");
    assert_eq!(
        p.received[0].header("authorization"),
        Some(format!("Bearer {short}").as_str())
    );
    for (path, text) in all_files(&p.out) {
        assert!(!text.contains(short), "{} holds the key", path.display());
    }
}

#[test]
fn huge_provider_text_is_bounded_everywhere_and_escapes_are_stripped() {
    // A 3 MB error message with terminal escapes in it.
    let huge = format!(
        "\u{1b}]0;pwned\u{7}\u{1b}[31mboom{}\u{1b}[0m",
        "x".repeat(3 << 20)
    );
    let p = play(
        "lim-huge",
        "provider: openai",
        None,
        vec![Scripted::error(400, json!({"error": {"message": huge}}))],
        1,
    );
    let err = p.result.as_ref().unwrap_err().to_string();
    assert!(err.len() < 20_000, "error is {} bytes", err.len());
    assert!(
        err.contains("bytes in all; sha256 of the rest: "),
        "{}",
        &err[..200]
    );
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'));
    let result = read(&p.out.join("result.json"));
    assert!(
        result.len() < 64 * 1024,
        "result.json is {} bytes",
        result.len()
    );
    let calls = read(&p.out.join("model_calls.jsonl"));
    assert!(
        calls.len() < 256 * 1024,
        "model_calls.jsonl is {} bytes",
        calls.len()
    );
    assert!(calls.contains("sha256 of the rest"));

    // Reports hold no raw escape sequence and stay small.
    let report = p.dir.path().join("report");
    gw_runtime::report::write_report(std::slice::from_ref(&p.out), &report).unwrap();
    for (path, text) in all_files(&report) {
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{} holds an escape sequence",
            path.display()
        );
        assert!(
            text.len() < 512 * 1024,
            "{} is {} bytes",
            path.display(),
            text.len()
        );
    }
    assert!(read(&report.join("runs.csv")).contains("boom"));

    // Reasoning with escapes, stored in the trajectory and the calls.
    let p = play(
        "lim-escapes",
        "provider: openai",
        None,
        vec![openai_text(
            "\u{1b}[2J\u{1b}]8;;http://e\u{1b}\\think\u{1b}]8;;\u{1b}\\ing\u{9b}31m",
            (5, 1),
        )],
        1,
    );
    p.result.as_ref().unwrap();
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[0]["reasoning"], json!("thinking"));
    for (path, text) in all_files(&p.out) {
        if path.extension().is_some_and(|e| e == "png") {
            continue;
        }
        for bad in ["\\u001b", "\u{1b}", "\\u009b"] {
            assert!(!text.contains(bad), "{} holds {bad:?}", path.display());
        }
    }
}

#[test]
fn gemini_wrong_shape_stops_and_a_bad_click_is_recorded_as_sent() {
    let p = play(
        "lim-gemini-shape",
        "provider: gemini",
        None,
        vec![Scripted::json(json!({"unexpected": {"shape": true}}))],
        5,
    );
    let err = p.result.as_ref().unwrap_err().to_string();
    assert!(
        err.contains("unexpected shape") && err.contains("candidates"),
        "{err}"
    );
    assert_eq!(
        p.received.len(),
        1,
        "the budget is not burned on a wrong shape"
    );
    let p = play(
        "lim-gemini-shape-2",
        "provider: gemini",
        None,
        vec![Scripted::json(json!({"candidates": {"0": {}}}))],
        5,
    );
    assert!(
        p.result
            .unwrap_err()
            .to_string()
            .contains("candidates is not a list")
    );

    let u = (5, 1, 0);
    let p = play(
        "lim-claude-click",
        "provider: anthropic\ninterface: computer-use",
        None,
        vec![
            anthropic_tool(
                "computer",
                json!({"action": "left_click", "coordinate": [2000, 100]}),
                u,
            ),
            anthropic_tool(
                "computer",
                json!({"action": "left_click", "coordinate": ["a", null]}),
                u,
            ),
        ],
        2,
    );
    p.result.as_ref().unwrap();
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[0]["valid"], json!(false));
    let second = &traj[1];
    assert_eq!(second["valid"], json!(false));
    assert_eq!(
        second["proposed"]["coordinate"],
        json!(["a", null]),
        "{second}"
    );
    assert!(second["proposed"].get("x").is_none(), "{second}");
    assert!(
        !second["proposed"].to_string().contains("2000")
            && !second["action"].to_string().contains("2000"),
        "{second}"
    );
}

#[test]
fn computer_tools_follow_family_and_version_and_responses_tools_are_not_strict() {
    let u = (5, 1, 0);
    let p = play(
        "lim-opus-4-7",
        "provider: anthropic\ninterface: computer-use\nmodel: claude-opus-4-7",
        None,
        vec![anthropic_tool(
            "computer",
            json!({"action": "key", "text": "Up"}),
            u,
        )],
        1,
    );
    p.result.as_ref().unwrap();
    let rx = &p.received[0];
    assert_eq!(rx.header("anthropic-beta"), Some("computer-use-2025-11-24"));
    assert_eq!(rx.body["tools"][0]["type"], json!("computer_20251124"));
    // A profile still pins an older tool.
    let p = play(
        "lim-opus-pinned",
        "provider: anthropic\ninterface: computer-use\nmodel: claude-opus-4-7\ncomputer_tool: computer_20250124",
        None,
        vec![anthropic_tool(
            "computer",
            json!({"action": "key", "text": "Up"}),
            u,
        )],
        1,
    );
    p.result.as_ref().unwrap();
    assert_eq!(
        p.received[0].header("anthropic-beta"),
        Some("computer-use-2025-01-24")
    );
    assert_eq!(
        p.received[0].body["tools"][0]["type"],
        json!("computer_20250124")
    );

    let p = play(
        "lim-responses-strict",
        "provider: openai\napi: responses",
        None,
        vec![Scripted::json(json!({"status": "completed", "output": [
            {"type": "function_call", "name": "move_up", "arguments": "{}", "call_id": "c"}],
            "usage": {"input_tokens": 5, "output_tokens": 1}}))],
        1,
    );
    p.result.as_ref().unwrap();
    let tools = p.received[0].body["tools"].as_array().unwrap().clone();
    assert!(!tools.is_empty());
    for t in tools {
        assert_eq!(t["type"], json!("function"));
        assert_eq!(t["strict"], json!(false), "{t}");
    }
}

#[test]
fn a_retry_after_above_the_cap_is_waited_up_to_the_cap() {
    let p = play(
        "lim-retry-cap",
        "provider: openai\nmax_retries: 1\nmax_retry_wait_s: 0.3",
        None,
        vec![
            openai_error(429, "slow down").with_header("retry-after", "3600"),
            openai_tools(&[("move_up", "{}")], (10, 1, 0)),
        ],
        1,
    );
    let r = p.result.as_ref().unwrap_or_else(|e| panic!("{e}"));
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2, "retried once");
    assert_eq!(calls[0]["retry_after"], json!("3600"));
    let sent: u64 = calls
        .iter()
        .map(|c| c["latency_ms"].as_u64().unwrap())
        .sum();
    // The hour asked for is waited 300 ms (the cap), and charged as such.
    assert_eq!(r.latency_ms, sent + 300);
    // The second request really came after the wait.
    assert!(
        p.received[1].at.duration_since(p.received[0].at) >= std::time::Duration::from_millis(300)
    );
}

#[test]
fn numbers_and_urls_out_of_range_are_refused_at_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (field, value, expect) in [
        ("max_retries", "4294967295", "from 0 to 100"),
        ("memory_rounds", "1000000", "from 0 to 100"),
        (
            "base_url",
            "\"not a url at all\"",
            "write the endpoint root",
        ),
        ("base_url", "ftp://127.0.0.1/v1", "http:// or https://"),
        (
            "base_url",
            "http://user:pw@127.0.0.1:8000/v1",
            "credentials",
        ),
        ("base_url", "http://127.0.0.1:99999/v1", "invalid port"),
    ] {
        let root = dir.path().join(format!("r-{field}-{}", value.len()));
        let yaml =
            format!("id: lim-num\nprovider: openai\nmodel: m\nmax_tokens: 10\n{field}: {value}\n");
        write_model(&root, "lim-num", &yaml);
        let err = Registry::load(&[project_registry(), root.clone()])
            .unwrap_err()
            .to_string();
        let line = yaml.lines().position(|l| l.starts_with(field)).unwrap() + 1;
        assert!(
            err.contains(&format!("lim-num.yaml:{line}:1")) && err.contains(expect),
            "{field}: {err}"
        );
    }
    // frame_every: 0 in a game.
    let root = dir.path().join("game");
    std::fs::create_dir_all(root.join("games")).unwrap();
    let game = std::fs::read_to_string(project_registry().join("games/01_2048.yaml")).unwrap();
    std::fs::write(
        root.join("games/01_2048.yaml"),
        format!("{game}\nframe_every: 0\n"),
    )
    .unwrap();
    let err = Registry::load(&[project_registry(), root])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("frame_every is 0") && err.contains("from 1 to"),
        "{err}"
    );

    // A suite's memory_rounds sweep.
    let suite = dir.path().join("s.yaml");
    std::fs::write(
        &suite,
        "name: s\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [random]\n    memory_rounds: [0, 4294967295]\n",
    )
    .unwrap();
    let err = gw_runtime::suite::load_suite(&suite).unwrap_err();
    assert!(
        err.contains("s.yaml:6:") && err.contains("4294967295") && err.contains("from 0 to 100"),
        "{err}"
    );
}
