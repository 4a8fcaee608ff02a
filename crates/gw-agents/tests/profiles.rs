//! The shipped model profiles: the reference catalog's 24, each complete
//! enough to build an agent whose first request has the right shape.

use gw_agents::http::{CallMeta, HttpResponse, Transport, TransportFailure};
use gw_agents::model_agent::ModelAgent;
use gw_agents::providers::HttpRequest;
use gw_agents::{Agent, Observation};
use gw_core::registry::{Interface, Protocol, Registry};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const REFERENCE_IDS: [&str; 24] = [
    "claude-sonnet-4.6-cua",
    "claude-sonnet-4.6",
    "gemini-2.5-computer-use",
    "gemini-3-flash-preview",
    "glm-4.6v",
    "gpt-5.2",
    "grok-4.1-fast-reasoning",
    "kimi-k2.5",
    "openai-computer-use",
    "qwen2.5-vl-32b-instruct-cua",
    "qwen2.5-vl-32b-instruct",
    "qwen3-vl-235b-a22b-cua",
    "qwen3-vl-235b-a22b",
    "qwen3-vl-30b-a3b-cua",
    "qwen3-vl-30b-a3b",
    "qwen3-vl-plus-cua",
    "qwen3-vl-plus",
    "qwen3.5-122b-a10b-cua",
    "qwen3.5-122b-a10b",
    "qwen3.5-397b-a17b-cua",
    "qwen3.5-397b-a17b",
    "seed-1.8-cua",
    "seed-1.8",
    "ui-tars-1.5-7b",
];

/// Captures the request and answers with an empty chat reply.
struct Capture(Arc<Mutex<Vec<HttpRequest>>>);

impl Transport for Capture {
    fn send(
        &mut self,
        req: &HttpRequest,
        _m: CallMeta,
        _t: Duration,
    ) -> Result<HttpResponse, TransportFailure> {
        self.0.lock().unwrap().push(req.clone());
        Ok(HttpResponse { status: 200, body: json!({"choices": [{"message": {"content": ""}}], "content": [], "candidates": [], "output": []}).to_string(), retry_after: None, latency_ms: 1, ..Default::default() })
    }
}

#[test]
fn the_reference_profiles_are_complete_and_build_agents() {
    let reg = Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
        .unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = reg.models.keys().map(String::as_str).collect();
    for id in REFERENCE_IDS {
        assert!(ids.contains(&id), "missing profile {id}");
    }
    for id in REFERENCE_IDS {
        let spec = &reg.models[id].value;
        assert_eq!(spec.reference_name.as_deref(), Some(id));
        assert!(
            spec.output_format
                .as_deref()
                .is_some_and(|f| !f.trim().is_empty()),
            "{id}: output_format"
        );
        assert!(
            spec.max_tokens.is_some() && spec.memory_rounds.is_some(),
            "{id}: limits"
        );
        assert_eq!(
            id.ends_with("-cua") || id.contains("computer-use") || id == "ui-tars-1.5-7b",
            spec.interface == Interface::ComputerUse,
            "{id}: interface"
        );
        assert!(
            spec.base_url.is_some() || spec.api_key_env.is_some(),
            "{id}: neither a local server nor a key"
        );
        if spec.api_key_env.is_some() && !id.starts_with("seed") {
            assert!(
                spec.price_input_per_mtok.is_some() && spec.price_output_per_mtok.is_some(),
                "{id}: hosted profile without prices"
            );
        }

        let preset = {
            let mut p = reg.resolve_preset(&format!("01_2048+01_01+{id}")).unwrap();
            p.task.max_steps = 1;
            p
        };
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut agent = ModelAgent::new(
            &preset,
            spec,
            Box::new(Capture(seen.clone())),
            spec.api_key_env.as_ref().map(|_| "k".to_string()),
        )
        .unwrap();
        let state = json!({});
        let expert = || Value::Null;
        let obs = Observation {
            step: 1,
            episode: 0,
            frame_png: b"png",
            frame_path: Some("frames/step_000000.png"),
            viewport: (1280, 720),
            state: &state,
            expert: &expert,
            game: None,
        };
        let reply = agent.act(&obs).unwrap();
        assert!(
            reply.payload.is_none(),
            "{id}: an empty reply is no tool call"
        );
        let req = seen.lock().unwrap()[0].clone();
        let body = req.body.to_string();
        assert!(
            agent
                .system_prompt()
                .contains(spec.output_format.as_deref().unwrap().trim()),
            "{id}: output format in the prompt"
        );
        match spec.protocol {
            Protocol::Native => assert!(req.body.get("tools").is_some(), "{id}: native tools"),
            Protocol::Qwen | Protocol::UiTars => {
                assert!(req.body.get("tools").is_none(), "{id}: text protocol")
            }
        }
        if spec.interface == Interface::Generalist && spec.protocol == Protocol::Native {
            assert!(body.contains("move_right"), "{id}: semantic tools");
        }
        // Each shipped computer-use profile speaks the tool version its model
        // supports (checked against the providers' documented shapes).
        let header = |name: &str| {
            req.headers
                .iter()
                .find(|h| h.name == name)
                .map(|h| h.value.clone())
        };
        match id {
            "claude-sonnet-4.6-cua" => {
                assert_eq!(req.body["tools"][0]["type"], json!("computer_20251124"));
                assert_eq!(req.body["tools"][0]["name"], json!("computer"));
                assert_eq!(
                    header("anthropic-beta").as_deref(),
                    Some("computer-use-2025-11-24")
                );
            }
            "gemini-2.5-computer-use" => {
                let cu = &req.body["tools"][0]["computerUse"];
                assert_eq!(cu["environment"], json!("ENVIRONMENT_BROWSER"));
                assert!(
                    cu["excludedPredefinedFunctions"]
                        .to_string()
                        .contains("open_web_browser")
                );
            }
            "openai-computer-use" => {
                assert_eq!(req.body["tools"][0]["type"], json!("computer_use_preview"));
                assert_eq!(req.body["tools"][0]["display_width"], json!(1280));
                assert_eq!(req.body["input"][0]["content"][1]["detail"], json!("auto"));
            }
            "gpt-5.2" => {
                assert!(
                    req.body.get("max_completion_tokens").is_some(),
                    "{id}: token limit field"
                );
                assert!(req.body.get("max_tokens").is_none());
            }
            _ => {}
        }
        if spec.provider == gw_core::registry::ProviderKind::Anthropic {
            assert_eq!(header("anthropic-version").as_deref(), Some("2023-06-01"));
        }
    }
}
