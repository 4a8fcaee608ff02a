//! `gameworld run` with a model profile from an extra `--registry` root whose
//! `base_url` points at an OpenAI-compatible server (a loopback stand-in for
//! vLLM / Ollama), `--replay` of that run, and the missing-key error.

#[path = "../../gw-runtime/tests/support/loopback.rs"]
mod loopback;

use loopback::{Server, openai_text, openai_tools};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gameworld(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env(
        "GAMEWORLD_REGISTRY",
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
    );
    for (k, v) in envs {
        c.env(k, v);
    }
    c.args(args).output().expect("binary runs")
}

fn model_root(dir: &Path, id: &str, base_url: &str, key_env: Option<&str>) -> PathBuf {
    let root = dir.join("extra-registry");
    std::fs::create_dir_all(root.join("models")).unwrap();
    let key = key_env
        .map(|k| format!("api_key_env: {k}\n"))
        .unwrap_or_default();
    let yaml = format!(
        "id: {id}\nprovider: openai\nmodel: Qwen/Qwen3-VL-8B-Instruct\ninterface: generalist\nbase_url: {base_url}\n{key}max_retries: 1\nretry_backoff_s: 0.01\n"
    );
    std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
    root
}

fn result_without_wall_clock(dir: &Path) -> Value {
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("result.json")).unwrap()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("wall_ms");
    o.remove("latency_ms");
    v
}

#[test]
fn an_extra_registry_model_plays_against_an_openai_compatible_server_and_replays() {
    let u = (900, 12, 0);
    let server = Server::start(vec![
        openai_tools(&[("move_up", "{}")], u),
        openai_text("Thinking about it...", (900, 5)),
        openai_tools(&[("move_left", "{\"reasoning\": \"corner\"}")], u),
        openai_tools(&[("spin", "{}")], u),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let key = "sk-local-cli-secret-31337";
    let root = model_root(
        dir.path(),
        "local-vllm",
        &format!("{}/v1", server.base()),
        Some("GW_CLI_TEST_KEY"),
    );
    let out = dir.path().join("run");
    let o = gameworld(
        &[
            "--registry",
            root.to_str().unwrap(),
            "run",
            "01_2048+01_01+local-vllm",
            "--seed",
            "5",
            "--max-steps",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
        &[("GW_CLI_TEST_KEY", key)],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let received = server.finish();
    assert_eq!(received.len(), 4);
    assert_eq!(
        received[0].body["model"],
        Value::from("Qwen/Qwen3-VL-8B-Instruct")
    );
    let r = result_without_wall_clock(&out);
    assert_eq!(r["model"], Value::from("local-vllm"));
    assert_eq!(
        (
            r["valid_actions"].as_u64(),
            r["invalid_no_tool_call"].as_u64(),
            r["invalid_out_of_space"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(r["input_tokens"].as_u64(), Some(3600));
    for f in ["result.json", "trajectory.jsonl", "model_calls.jsonl"] {
        assert!(
            !std::fs::read_to_string(out.join(f)).unwrap().contains(key),
            "{f} holds the key"
        );
    }

    // Offline replay: no server, no key, seed taken from the recording.
    let o = gameworld(
        &[
            "--registry",
            root.to_str().unwrap(),
            "run",
            "01_2048+01_01+local-vllm",
            "--max-steps",
            "4",
            "--replay",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let replayed = PathBuf::from(format!("{}.replay", out.display()));
    assert_eq!(result_without_wall_clock(&replayed), r);
}

#[test]
fn a_missing_key_exits_2_naming_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let root = model_root(
        dir.path(),
        "needs-key",
        "http://127.0.0.1:9/v1",
        Some("GW_CLI_KEY_NOT_SET_2024"),
    );
    let out = dir.path().join("run");
    let o = gameworld(
        &[
            "--registry",
            root.to_str().unwrap(),
            "run",
            "01_2048+01_01+needs-key",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("GW_CLI_KEY_NOT_SET_2024"));
    assert!(!out.exists());
}
