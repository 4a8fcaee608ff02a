//! Model-backed runs end to end: every provider and text protocol plays
//! 2048 through the full runtime against a loopback server that answers in
//! that provider's exact format — tool calls, usage, errors, 429 with
//! Retry-After, malformed replies — and the run's counts must match what
//! was sent. Also: replay, partial results when the provider dies, missing
//! and rejected keys, and no key in any file a run writes.

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

/// A registry root holding one model profile next to the project's registry.
fn registry_with(root: &Path, id: &str, yaml: &str) -> Registry {
    std::fs::create_dir_all(root.join("models")).unwrap();
    std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
    Registry::load(&[project_registry(), root.to_path_buf()]).unwrap_or_else(|e| panic!("{e}"))
}

/// A profile for a loopback server: short timeouts and backoff.
fn profile(id: &str, fields: &str, base_url: &str, key_env: Option<&str>) -> String {
    let key = key_env
        .map(|k| format!("api_key_env: {k}\n"))
        .unwrap_or_default();
    let timeout = if fields.contains("timeout_s:") {
        ""
    } else {
        "timeout_s: 10\n"
    };
    format!(
        "id: {id}\nmodel: test-model\nbase_url: {base_url}\n{key}{fields}\nmemory_rounds: 2\nmax_tokens: 256\n{timeout}max_retries: 2\nretry_backoff_s: 0.01\n\
         price_input_per_mtok: 1.0\nprice_output_per_mtok: 2.0\nprice_cached_input_per_mtok: 0.5\n"
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
    registry: Registry,
    model: String,
}

/// Run `PRESET+id` for `steps` steps against a server playing `script`.
fn play(
    id: &str,
    fields: &str,
    url_suffix: &str,
    key: Option<(&str, &str)>,
    script: Vec<Scripted>,
    steps: u32,
) -> Played {
    let server = Server::start(script);
    if let Some((var, value)) = key {
        set_key(var, value);
    }
    let dir = tempfile::tempdir().unwrap();
    let yaml = profile(
        id,
        fields,
        &format!("{}{url_suffix}", server.base()),
        key.map(|k| k.0),
    );
    let registry = registry_with(&dir.path().join("reg"), id, &yaml);
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
        registry,
        model: id.to_string(),
    }
}

/// The summed `latency_ms` of one step's recorded calls.
fn calls_ms(calls: &[Value], step: u64) -> u64 {
    calls
        .iter()
        .filter(|c| c["step"].as_u64() == Some(step))
        .map(|c| c["latency_ms"].as_u64().unwrap())
        .sum()
}

fn kinds(out: &Path) -> Vec<Option<String>> {
    jsonl(&out.join("trajectory.jsonl"))
        .iter()
        .map(|l| l["invalid_kind"].as_str().map(str::to_string))
        .collect()
}

const NTC: Option<&str> = Some("no_tool_call");
const OOS: Option<&str> = Some("out_of_space");

fn assert_kinds(p: &Played, expected: &[Option<&str>]) {
    let got = kinds(&p.out);
    let want: Vec<Option<String>> = expected.iter().map(|k| k.map(str::to_string)).collect();
    assert_eq!(got, want, "{}: per-step invalid kinds", p.model);
    let r = p
        .result
        .as_ref()
        .unwrap_or_else(|e| panic!("{}: {e}", p.model));
    assert_eq!(r.proposed_actions as usize, expected.len());
    assert_eq!(
        r.invalid_no_tool_call as usize,
        expected.iter().filter(|k| **k == NTC).count(),
        "{}: NTC",
        p.model
    );
    assert_eq!(
        r.invalid_out_of_space as usize,
        expected.iter().filter(|k| **k == OOS).count(),
        "{}: OOS",
        p.model
    );
    assert_eq!(
        r.valid_actions as usize,
        expected.iter().filter(|k| k.is_none()).count()
    );
}

/// No file under `dir` contains `secret`.
fn assert_secret_absent(dir: &Path, secret: &str) {
    let mut stack = vec![dir.to_path_buf()];
    let mut files = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files += 1;
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(secret),
                    "{} holds the API key",
                    p.display()
                );
            }
        }
    }
    assert!(files > 0);
}

fn images_in(v: &Value) -> usize {
    match v {
        Value::Object(o) => {
            let here = usize::from(
                o.contains_key("image_url")
                    || o.contains_key("inlineData")
                    || o.get("type") == Some(&json!("image")),
            );
            here + o.values().map(images_in).sum::<usize>()
        }
        Value::Array(a) => a.iter().map(images_in).sum(),
        _ => 0,
    }
}

fn without(mut v: Value, keys: &[&str]) -> Value {
    if let Value::Object(o) = &mut v {
        for k in keys {
            o.remove(*k);
        }
        if let Some(state) = o.get_mut("state").and_then(Value::as_object_mut) {
            state.remove("timestampMs");
        }
    }
    v
}

#[test]
fn openai_chat_generalist_with_retries_malformed_replies_and_replay() {
    let secret = "sk-test-OPENAI-5ecret-0123456789";
    let u = (1000, 20, 200);
    let script = vec![
        openai_error(429, "Rate limit reached").with_header("retry-after", "1"),
        openai_tools(&[("move_up", r#"{"reasoning": "merge the top row"}"#)], u),
        openai_text("I think moving up is best.", (1000, 15)),
        openai_tools(&[("jump", "{}")], u),
        openai_tools(&[("move_left", "{}"), ("move_up", "{}")], u),
        openai_error(500, "upstream failure"),
        openai_tools(
            &[("move_down", r#"{"reasoning": "the bottom row is emp"#)],
            u,
        ),
        Scripted::raw(200, "{not json"),
        openai_tools(&[("MOVE_RIGHT", "{}")], u),
    ];
    let p = play(
        "loop-openai",
        "provider: openai\ninterface: generalist",
        "/v1",
        Some(("GW_TEST_KEY_OPENAI", secret)),
        script,
        6,
    );
    assert_kinds(&p, &[None, NTC, OOS, None, None, None]);
    let r = p.result.as_ref().unwrap();
    assert_eq!(
        (r.input_tokens, r.output_tokens, r.cached_input_tokens),
        (6000, 115, 1000)
    );
    assert!(
        (r.cost_usd - (5000.0 + 500.0 + 230.0) / 1e6).abs() < 1e-12,
        "{}",
        r.cost_usd
    );

    // Per step: usage, cost, reasoning and why a reply was not an action.
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(
        traj[0]["usage"],
        json!({"input_tokens": 1000, "output_tokens": 20, "cached_input_tokens": 200})
    );
    assert_eq!(traj[0]["reasoning"], json!("merge the top row"));
    assert_eq!(traj[1]["reasoning"], json!("I think moving up is best."));
    assert!(
        traj[1]["parse_error"]
            .as_str()
            .unwrap()
            .contains("no tool call")
    );
    assert!(
        traj[3]["parse_error"]
            .as_str()
            .unwrap()
            .contains("2 tool calls")
    );

    // The wire: keys, paths, tools from the registry, memory images.
    let rx = &p.received;
    assert_eq!(rx.len(), 9);
    for r in rx {
        assert_eq!(r.path, "/v1/chat/completions");
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {secret}").as_str())
        );
    }
    let tools: Vec<&str> = rx[1].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        ["wait", "move_up", "move_down", "move_left", "move_right"]
    );
    assert_eq!(images_in(&rx[1].body), 1, "step 1: the current screen only");
    assert_eq!(
        images_in(&rx[3].body),
        3,
        "step 3: two remembered screens and the current one"
    );
    let history = rx[3].body["messages"][1]["content"].to_string();
    assert!(
        history.contains("Action History") && history.contains("merge the top row"),
        "{history}"
    );

    // The record: every attempt, secrets redacted, images by frame path.
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    let steps: Vec<u64> = calls.iter().map(|c| c["step"].as_u64().unwrap()).collect();
    assert_eq!(steps, [1, 1, 2, 3, 4, 5, 5, 6, 6]);
    let statuses: Vec<u64> = calls
        .iter()
        .map(|c| c["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [429, 200, 200, 200, 200, 500, 200, 200, 200]);
    assert_eq!(calls[0]["retry_after"], json!("1"));
    // Waiting before a retry is agent time, charged exactly: a step's latency
    // is its calls' latencies plus the waits before its retries (the 1 s that
    // `Retry-After: 1` asked for at step 1; the profile's 0.01 s backoff after
    // the 500 at step 5 and after the unreadable reply at step 6).
    for (step, wait_ms) in [(1u64, 1000u64), (5, 10), (6, 10)] {
        assert_eq!(
            traj[step as usize - 1]["latency_ms"].as_u64(),
            Some(calls_ms(&calls, step) + wait_ms),
            "step {step}"
        );
    }
    assert_eq!(calls[7]["response_text"], json!("{not json"));
    assert_eq!(
        calls[0]["request"]["headers"]["authorization"],
        json!("[REDACTED]")
    );
    let step3 = calls[3]["request"]["body"].to_string();
    for f in [
        "frames/step_000000.png",
        "frames/step_000001.png",
        "frames/step_000002.png",
    ] {
        assert!(
            step3.contains(&format!("<image {f}>")),
            "{f} not referenced"
        );
    }
    assert!(!step3.contains("base64,"));
    assert_secret_absent(&p.out, secret);

    // Replay offline: same result (wall-clock fields aside), same trajectory.
    let replay_out = p.dir.path().join("replayed");
    let opts = RunOptions {
        max_steps: Some(6),
        replay: Some(p.out.clone()),
        ..RunOptions::new(format!("{PRESET}+loop-openai"), 7, &replay_out)
    };
    let replayed = run_preset(&p.registry, &opts).unwrap_or_else(|e| panic!("replay: {e}"));
    // The replay skips the waits but charges them as the run did.
    let replayed_traj = jsonl(&replay_out.join("trajectory.jsonl"));
    for step in [0, 4, 5] {
        assert_eq!(
            replayed_traj[step]["latency_ms"],
            traj[step]["latency_ms"],
            "step {}",
            step + 1
        );
    }
    let strip = |v: Value| without(v, &["wall_ms", "latency_ms"]);
    let read = |d: &Path| {
        serde_json::from_str::<Value>(&std::fs::read_to_string(d.join("result.json")).unwrap())
            .unwrap()
    };
    assert_eq!(strip(read(&replay_out)), strip(read(&p.out)));
    assert_eq!(replayed.invalid_no_tool_call, 1);
    assert!(
        replayed.latency_ms >= 1000,
        "the Retry-After wait counts as agent time, replayed too"
    );
    let traj = |d: &Path| {
        jsonl(&d.join("trajectory.jsonl"))
            .into_iter()
            .map(|l| without(l, &["latency_ms"]))
            .collect::<Vec<_>>()
    };
    assert_eq!(traj(&replay_out), traj(&p.out));
    let calls_again: Vec<Value> = jsonl(&replay_out.join("model_calls.jsonl"))
        .into_iter()
        .map(|c| without(c, &["latency_ms"]))
        .collect();
    assert_eq!(
        calls_again,
        calls
            .into_iter()
            .map(|c| without(c, &["latency_ms"]))
            .collect::<Vec<_>>()
    );

    // Replaying another seed is refused before anything runs.
    let wrong = RunOptions { seed: 8, ..opts };
    assert!(
        matches!(run_preset(&p.registry, &wrong), Err(RunError::Config(m)) if m.contains("--seed 7"))
    );
}

#[test]
fn openai_chat_computer_use_gets_generic_functions() {
    let u = (800, 10, 0);
    let script = vec![
        openai_tools(
            &[("press_key", r#"{"keys": "ArrowUp", "hold_duration": 0.3}"#)],
            u,
        ),
        openai_tools(&[("click", r#"{"x": 640, "y": 360}"#)], u),
        openai_tools(&[("press_key", r#"{"keys": "w d"}"#)], u),
        openai_tools(&[("wait", r#"{"action": "click", "x": 1, "y": 1}"#)], u),
        openai_text("", (800, 10)),
    ];
    let p = play(
        "loop-openai-cua",
        "provider: openai\ninterface: computer-use",
        "/v1",
        Some(("GW_TEST_KEY_OPENAI_CUA", "sk-cua-key-000111")),
        script,
        5,
    );
    assert_kinds(&p, &[None, None, OOS, None, NTC]);
    assert_eq!(
        jsonl(&p.out.join("trajectory.jsonl"))[3]["action"]["action"],
        json!("wait"),
        "the function name wins over an `action` argument"
    );
    let tools: Vec<&str> = p.received[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        [
            "click",
            "press_key",
            "mouse_move",
            "drag",
            "scroll",
            "type",
            "wait"
        ]
    );
    let first = &jsonl(&p.out.join("trajectory.jsonl"))[0];
    assert_eq!(
        first["action"],
        json!({"action": "press_key", "key": "ArrowUp", "duration": 0.3})
    );
    let system = p.received[0].body["messages"][0]["content"]
        .as_str()
        .unwrap();
    assert!(
        system.contains("Press ArrowUp, ArrowDown") && !system.contains("move_up"),
        "CUA prompt carries the control text"
    );
}

#[test]
fn anthropic_computer_use_tool() {
    let secret = "sk-ant-test-5ecret-abcdef";
    let u = (500, 30, 100);
    let script = vec![
        anthropic_tool("computer", json!({"action": "key", "text": "Up"}), u),
        anthropic_blocks(
            json!([{"type": "text", "text": "Let me look at the board first."}]),
            u,
        ),
        anthropic_tool(
            "computer",
            json!({"action": "left_click", "coordinate": [2000, 100]}),
            u,
        ),
        anthropic_error(529, "overloaded_error", "Overloaded"),
        anthropic_tool("computer", json!({"action": "key", "text": "ctrl+c"}), u),
        anthropic_tool(
            "computer",
            json!({"action": "left_click_drag", "start_coordinate": [640, 300], "coordinate": [640, 600]}),
            u,
        ),
        anthropic_blocks(
            json!([{"type": "thinking", "thinking": "left merges the 4s", "signature": "x"},
                   {"type": "tool_use", "id": "t", "name": "computer", "input": {"action": "hold_key", "text": "Left", "duration": 0.3}}]),
            u,
        ),
    ];
    let p = play(
        "loop-claude-cua",
        "provider: anthropic\ninterface: computer-use",
        "/v1",
        Some(("GW_TEST_KEY_ANTHROPIC", secret)),
        script,
        6,
    );
    assert_kinds(&p, &[None, NTC, OOS, OOS, None, None]);
    let r = p.result.as_ref().unwrap();
    assert_eq!(
        (r.input_tokens, r.cached_input_tokens, r.output_tokens),
        (3600, 600, 180)
    );
    let rx = &p.received[0];
    assert_eq!(rx.path, "/v1/messages");
    assert_eq!(rx.header("x-api-key"), Some(secret));
    assert_eq!(rx.header("anthropic-version"), Some("2023-06-01"));
    // A model the table does not know gets Anthropic's newest computer tool.
    assert_eq!(rx.header("anthropic-beta"), Some("computer-use-2025-11-24"));
    assert_eq!(
        rx.body["tools"],
        json!([{"type": "computer_20251124", "name": "computer", "display_width_px": 1280, "display_height_px": 720}])
    );
    assert!(rx.body["system"].as_str().unwrap().contains("# Game Rules"));
    assert_eq!(
        rx.body["messages"][0]["content"][1]["source"]["media_type"],
        json!("image/png")
    );
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[4]["action"]["action"], json!("drag"));
    assert_eq!(
        traj[5]["action"],
        json!({"action": "press_key", "key": "ArrowLeft", "duration": 0.3})
    );
    assert_secret_absent(&p.out, secret);
}

#[test]
fn anthropic_generalist_tools() {
    let u = (400, 12, 0);
    let script = vec![
        anthropic_tool("move_up", json!({"reasoning": "stack upwards"}), u),
        anthropic_tool("teleport", json!({}), u),
        anthropic_blocks(json!([{"type": "text", "text": "move_up"}]), u),
    ];
    let p = play(
        "loop-claude",
        "provider: anthropic",
        "/v1",
        Some(("GW_TEST_KEY_ANTHROPIC_GEN", "sk-ant-gen-987654")),
        script,
        3,
    );
    assert_kinds(&p, &[None, OOS, NTC]);
    let tools = p.received[0].body["tools"].as_array().unwrap();
    assert_eq!(tools[1]["name"], json!("move_up"));
    assert_eq!(tools[1]["input_schema"]["type"], json!("object"));
    assert!(p.received[0].header("anthropic-beta").is_none());
}

#[test]
fn gemini_generalist_function_calls() {
    let secret = "AIza-test-gemini-5ecret";
    let u = (700, 8, 0);
    let script = vec![
        gemini_call("move_left", json!({"reasoning": "free the corner"}), u),
        gemini_parts(json!([{"text": "The board looks full."}]), u),
        gemini_call("fly", json!({}), u),
        gemini_error(503, "The model is overloaded."),
        gemini_parts(
            json!([{"text": "up keeps the big tile in place", "thought": true}, {"functionCall": {"name": "move_up", "args": {}}}]),
            u,
        ),
    ];
    let p = play(
        "loop-gemini",
        "provider: gemini",
        "/v1beta",
        Some(("GW_TEST_KEY_GEMINI", secret)),
        script,
        4,
    );
    assert_kinds(&p, &[None, NTC, OOS, None]);
    let rx = &p.received[0];
    assert_eq!(rx.path, "/v1beta/models/test-model:generateContent");
    assert!(!rx.path.contains("key="));
    assert_eq!(rx.header("x-goog-api-key"), Some(secret));
    let decls: Vec<&str> = rx.body["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        decls,
        ["wait", "move_up", "move_down", "move_left", "move_right"]
    );
    assert_eq!(images_in(&rx.body), 1);
    assert!(
        rx.body["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains("# Task Instruction")
    );
    assert_eq!(p.result.as_ref().unwrap().input_tokens, 2800);
    assert_secret_absent(&p.out, secret);
}

#[test]
fn gemini_computer_use_tool() {
    let u = (600, 5, 0);
    let script = vec![
        gemini_call("click_at", json!({"x": 500, "y": 500}), u),
        gemini_call("key_combination", json!({"keys": "ArrowUp"}), u),
        gemini_call("navigate", json!({"url": "https://example.com"}), u),
    ];
    let p = play(
        "loop-gemini-cua",
        "provider: gemini\ninterface: computer-use",
        "/v1beta",
        Some(("GW_TEST_KEY_GEMINI_CUA", "AIza-cua-000")),
        script,
        3,
    );
    assert_kinds(&p, &[None, None, OOS]);
    assert_eq!(
        p.received[0].body["tools"],
        json!([{"computerUse": {"environment": "ENVIRONMENT_BROWSER",
            "excludedPredefinedFunctions": ["open_web_browser", "navigate", "search", "go_back", "go_forward"]}}])
    );
    let first = &jsonl(&p.out.join("trajectory.jsonl"))[0];
    assert_eq!(
        (first["action"]["x"].as_f64(), first["action"]["y"].as_f64()),
        (Some(640.0), Some(360.0))
    );
}

#[test]
fn openai_responses_computer_calls() {
    let u = (900, 40);
    let script = vec![
        responses_output(
            json!([{"type": "reasoning", "id": "rs", "summary": [{"type": "summary_text", "text": "down"}]},
                                {"type": "computer_call", "id": "cu", "call_id": "c1", "action": {"type": "keypress", "keys": ["ArrowDown"]}, "status": "completed"}]),
            u,
        ),
        responses_output(
            json!([{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done?"}]}]),
            u,
        ),
        responses_output(
            json!([{"type": "computer_call", "id": "cu", "call_id": "c2", "action": {"type": "screenshot"}, "status": "completed"}]),
            u,
        ),
    ];
    let p = play(
        "loop-openai-responses",
        "provider: openai\ninterface: computer-use\napi: responses\ncomputer_tool: computer_use_preview",
        "/v1",
        Some(("GW_TEST_KEY_RESPONSES", "sk-resp-123456")),
        script,
        3,
    );
    assert_kinds(&p, &[None, NTC, OOS]);
    let rx = &p.received[0];
    assert_eq!(rx.path, "/v1/responses");
    assert_eq!(rx.body["tools"][0]["type"], json!("computer_use_preview"));
    assert_eq!(
        rx.body["input"][0]["content"][1]["type"],
        json!("input_image")
    );
}

#[test]
fn qwen_text_protocol_generalist_on_a_keyless_server() {
    let u = (1200, 50);
    let script = vec![
        openai_text(
            "<think>up merges the 2s</think>\n<tool_call>\n{\"name\": \"move_up\", \"arguments\": {}}\n</tool_call>",
            u,
        ),
        openai_text("I would slide the tiles up now.", u),
        openai_text("<think>left</think><tool_call>{\"na", u),
        openai_text(
            "<tool_call>{\"name\": \"move_down\", \"arguments\": {\"reasoning\": \"the bottom row is emp",
            u,
        ),
        openai_text(
            "<tool_call>{\"name\": \"move_right\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"jump\"}</tool_call>",
            u,
        ),
        openai_text(
            "<think>hmm</think><tool_call>{\"name\": \"rotate_board\", \"arguments\": {}}</tool_call>",
            u,
        ),
    ];
    let p = play(
        "loop-qwen",
        "provider: openai\nprotocol: qwen",
        "/v1",
        None,
        script,
        6,
    );
    assert_kinds(&p, &[None, NTC, NTC, None, None, OOS]);
    let rx = &p.received[0];
    assert!(
        rx.header("authorization").is_none(),
        "no key for a keyless profile"
    );
    assert!(
        rx.body.get("tools").is_none(),
        "text protocols describe tools in the prompt"
    );
    let system = rx.body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("<tools>") && system.contains("\"name\":\"move_left\""),
        "{system}"
    );
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[0]["control"], json!("move_up"));
}

#[test]
fn qwen_text_protocol_computer_use_with_normalized_coordinates() {
    let u = (1500, 40);
    let script = vec![
        openai_text(
            "<think>up</think><tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"key\", \"keys\": [\"up\"]}}</tool_call>",
            u,
        ),
        openai_text(
            "<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\", \"coordinate\": [500, 500]}}</tool_call>",
            u,
        ),
        openai_text(
            "<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"key\", \"keys\": [\"space\"]}}</tool_call>",
            u,
        ),
        openai_text("The board is stuck.", u),
    ];
    let p = play(
        "loop-qwen-cua",
        "provider: openai\ninterface: computer-use\nprotocol: qwen\ncoordinate_space: normalized1000",
        "/v1",
        None,
        script,
        4,
    );
    assert_kinds(&p, &[None, None, OOS, NTC]);
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[0]["action"]["key"], json!("ArrowUp"));
    assert_eq!(
        (
            traj[1]["action"]["x"].as_f64(),
            traj[1]["action"]["y"].as_f64()
        ),
        (Some(640.0), Some(360.0))
    );
    let system = p.received[0].body["messages"][0]["content"]
        .as_str()
        .unwrap();
    assert!(system.contains("\"name\":\"computer_use\"") && system.contains("0 to 1000"));
}

#[test]
fn ui_tars_text_protocol_computer_use() {
    let u = (1100, 25);
    let script = vec![
        openai_text(
            "Thought: slide everything up\nAction: hotkey(key='arrowup')",
            u,
        ),
        openai_text(
            "Thought: drag down\nAction: drag(start_point='<point>640 250</point>', end_point='<point>640 600</point>')",
            u,
        ),
        openai_text("Thought: jump right\nAction: hotkey(key='w d')", u),
        openai_text("Thought: I am not sure what to do here (maybe up).", u),
        openai_text("Thought: done\nAction: finished(content='stuck')", u),
        openai_text(
            "Action: click(point='<point>640 360</point>')\n\nAction: hotkey(key='arrowleft')",
            u,
        ),
    ];
    let p = play(
        "loop-ui-tars",
        "provider: openai\ninterface: computer-use\nprotocol: ui-tars",
        "/v1",
        None,
        script,
        6,
    );
    assert_kinds(&p, &[None, None, OOS, NTC, OOS, None]);
    let traj = jsonl(&p.out.join("trajectory.jsonl"));
    assert_eq!(traj[0]["action"]["key"], json!("ArrowUp"));
    assert_eq!(traj[1]["action"]["action"], json!("drag"));
    // Several calls: the first one counts.
    assert_eq!(traj[5]["action"]["action"], json!("click"));
    assert_eq!(p.result.as_ref().unwrap().output_tokens, 150);
}

#[test]
fn a_provider_that_dies_mid_run_leaves_partial_results() {
    let u = (100, 5, 0);
    let script = vec![
        openai_tools(&[("move_up", "{}")], u),
        openai_tools(&[("move_left", "{}")], u),
        openai_error(500, "boom"),
        openai_error(502, "bad gateway"),
        openai_error(503, "unavailable"),
    ];
    let p = play(
        "loop-dying",
        "provider: openai",
        "/v1",
        Some(("GW_TEST_KEY_DYING", "sk-dying-424242")),
        script,
        10,
    );
    let err = p.result.as_ref().unwrap_err();
    assert!(matches!(err, RunError::Runtime(_)), "{err}");
    assert!(
        err.to_string().contains("503") && err.to_string().contains("3 attempts"),
        "{err}"
    );
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(p.out.join("result.json")).unwrap()).unwrap();
    assert_eq!(r["steps"], json!(2));
    assert_eq!(r["stop_reason"], json!("agent_error"));
    assert_eq!(r["valid_actions"], json!(2));
    assert!(r["error"].as_str().unwrap().contains("unavailable"));
    let statuses: Vec<u64> = jsonl(&p.out.join("model_calls.jsonl"))
        .iter()
        .map(|c| c["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 200, 500, 502, 503]);
}

#[test]
fn a_rejected_key_stops_the_run_with_a_hint_and_no_key_in_the_message() {
    let secret = "sk-rejected-key-777";
    let script = vec![Scripted::error(
        401,
        json!({"error": {"message": format!("Incorrect API key provided: {secret}"), "type": "invalid_request_error"}}),
    )];
    let p = play(
        "loop-401",
        "provider: openai",
        "/v1",
        Some(("GW_TEST_KEY_401", secret)),
        script,
        3,
    );
    let err = p.result.unwrap_err().to_string();
    assert!(
        err.contains("401") && err.contains("GW_TEST_KEY_401"),
        "{err}"
    );
    assert!(!err.contains(secret), "{err}");
    assert_eq!(p.received.len(), 1, "a 401 is not retried");
    assert_secret_absent(&p.out, secret);
}

#[test]
fn a_missing_key_is_a_configuration_error_before_the_first_step() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = profile(
        "loop-nokey",
        "provider: openai",
        "http://127.0.0.1:9/v1",
        Some("GW_TEST_KEY_NEVER_SET_4711"),
    );
    let reg = registry_with(&dir.path().join("reg"), "loop-nokey", &yaml);
    let out = dir.path().join("run");
    let err = run_preset(
        &reg,
        &RunOptions::new(format!("{PRESET}+loop-nokey"), 1, &out),
    )
    .unwrap_err();
    assert!(
        matches!(&err, RunError::Config(m) if m.contains("GW_TEST_KEY_NEVER_SET_4711")),
        "{err}"
    );
    assert_eq!(err.exit_code(), 2);
    assert!(
        !out.exists(),
        "nothing is written before the key is checked"
    );
}

#[test]
fn a_slow_reply_times_out_and_is_retried() {
    let u = (100, 5, 0);
    let script = vec![
        openai_tools(&[("move_up", "{}")], u).delayed(std::time::Duration::from_millis(1500)),
        openai_tools(&[("move_down", "{}")], u),
    ];
    let p = play(
        "loop-slow",
        "provider: openai\ntimeout_s: 0.3",
        "/v1",
        None,
        script,
        1,
    );
    assert_kinds(&p, &[None]);
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2);
    assert!(calls[0]["status"].is_null());
    assert!(
        calls[0]["error"].as_str().unwrap().contains("timed out")
            || calls[0]["error"].as_str().unwrap().contains("imeout"),
        "{}",
        calls[0]["error"]
    );
    assert_eq!(
        jsonl(&p.out.join("trajectory.jsonl"))[0]["control"],
        json!("move_down")
    );
}

#[test]
fn rate_limit_waits_come_from_retry_after_ms_and_gemini_retry_info() {
    // OpenAI: `retry-after-ms` wins over a coarser `Retry-After`.
    let p = play(
        "loop-openai-retry-ms",
        "provider: openai\ninterface: generalist",
        "/v1",
        None,
        vec![
            openai_error(429, "slow down")
                .with_header("retry-after-ms", "350")
                .with_header("retry-after", "30"),
            openai_tools(&[("move_up", "{}")], (10, 1, 0)),
        ],
        1,
    );
    let r = p.result.as_ref().unwrap();
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2, "one retry");
    assert_eq!(calls[0]["retry_after"], json!("0.35"));
    assert_eq!(r.latency_ms, calls_ms(&calls, 1) + 350);

    // Gemini: the wait is in the 429 body (RetryInfo), not in a header.
    let body = json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "quota",
        "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.4s"}]}});
    let p = play(
        "loop-gemini-retry-info",
        "provider: gemini\ninterface: generalist",
        "/v1beta",
        None,
        vec![
            Scripted::error(429, body),
            gemini_call("move_up", json!({}), (10, 1, 0)),
        ],
        1,
    );
    let r = p.result.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.valid_actions, 1);
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2, "one retry");
    assert_eq!(calls[0]["status"], json!(429));
    assert_eq!(r.latency_ms, calls_ms(&calls, 1) + 400);
}

#[test]
fn no_action_replies_keep_the_providers_stated_reason() {
    let refusal = Scripted::json(json!({
        "id": "c", "object": "chat.completion", "created": 1, "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": "I won't play this."}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}
    }));
    let p = play(
        "loop-openai-refusal",
        "provider: openai\ninterface: generalist",
        "/v1",
        None,
        vec![refusal],
        1,
    );
    assert_kinds(&p, &[NTC]);
    let line = &jsonl(&p.out.join("trajectory.jsonl"))[0];
    assert_eq!(line["stated_reason"], json!("refusal: I won't play this."));
    assert!(
        line["parse_error"]
            .as_str()
            .unwrap()
            .contains("refusal: I won't play this."),
        "{line}"
    );
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(
        calls[0]["stated_reason"],
        json!("refusal: I won't play this.")
    );

    let blocked = Scripted::json(
        json!({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "SAFETY"}],
        "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 0}}),
    );
    let p = play(
        "loop-gemini-safety",
        "provider: gemini\ninterface: generalist",
        "/v1beta",
        None,
        vec![blocked],
        1,
    );
    assert_kinds(&p, &[NTC]);
    let line = &jsonl(&p.out.join("trajectory.jsonl"))[0];
    assert_eq!(line["stated_reason"], json!("finishReason: SAFETY"));
}

#[test]
fn the_computer_tool_runs_the_first_of_several_actions() {
    let output = json!([{"type": "computer_call", "id": "cu", "call_id": "c1", "status": "completed",
        "actions": [{"type": "keypress", "keys": ["ArrowUp"]}, {"type": "keypress", "keys": ["ArrowLeft"]}, {"type": "wait"}]}]);
    let p = play(
        "loop-openai-computer",
        "provider: openai\ninterface: computer-use\napi: responses",
        "/v1",
        None,
        vec![responses_output(output, (100, 5))],
        1,
    );
    assert_kinds(&p, &[None]);
    // The newer tool takes no display fields.
    assert_eq!(p.received[0].body["tools"], json!([{"type": "computer"}]));
    assert_eq!(
        p.received[0].body["input"][0]["content"][1]["detail"],
        json!("auto")
    );
    let line = &jsonl(&p.out.join("trajectory.jsonl"))[0];
    assert_eq!(line["action"]["key"], json!("ArrowUp"), "{line}");
    let calls = jsonl(&p.out.join("model_calls.jsonl"));
    assert_eq!(calls[0]["extra_actions"], json!(2));
}
