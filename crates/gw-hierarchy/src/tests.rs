//! The agent driven through the stepper directly (no run directory): the
//! built-in graph + skills agent solves a Wood task and is deterministic; a
//! scripted transport stands in for the model where a test needs one (the
//! loopback tests in `gw-runtime/tests/hierarchical.rs` use a real server).

use super::*;
use gw_agents::http::{CallMeta, HttpResponse, Transport, TransportFailure};
use gw_agents::providers::HttpRequest;
use gw_core::registry::Registry;
use gw_core::{Decision, Stepper};
use std::path::PathBuf;
use std::time::Duration;

fn registry() -> Registry {
    Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")]).unwrap()
}

/// Play `agent` on `preset` for at most `steps` steps; the payloads sent
/// and whether the task succeeded.
fn play(agent: &mut dyn Agent, preset: &Preset, seed: u64, steps: u32) -> (Vec<Value>, bool) {
    let game = gw_games::create(&preset.game.id).unwrap();
    let mut s = Stepper::new(game, preset, seed).unwrap();
    let mut sent = Vec::new();
    for _ in 0..steps {
        let state = s.state_value();
        let no_expert = || Value::Null;
        let reply = {
            let obs = Observation {
                step: s.step_index() + 1,
                episode: s.episode(),
                frame_png: b"png",
                frame_path: None,
                viewport: (640, 360),
                state: &state,
                expert: &no_expert,
                game: s.game().as_any(),
            };
            agent.act(&obs).unwrap()
        };
        let payload = reply.payload.clone().unwrap_or(Value::Null);
        s.step(Interface::Generalist, reply.payload.as_ref())
            .unwrap();
        sent.push(payload);
        if matches!(s.finished(), Some(Decision::Stop(_))) {
            break;
        }
    }
    (sent, s.evaluator().success())
}

#[test]
fn graph_and_skills_solve_a_wood_task_the_same_way_twice() {
    let reg = registry();
    let preset = reg
        .resolve_preset("openworld+lh_wood_crafting_table+hierarchical")
        .unwrap();
    let run = || {
        let mut a = create(&preset, None, None, 0).unwrap();
        assert!(
            !a.needs_frames() && !a.wants_frame(),
            "graph + skills never looks"
        );
        play(a.as_mut(), &preset, 2, 2400)
    };
    let (sent, ok) = run();
    assert!(ok, "no crafting table after {} steps", sent.len());
    assert!(sent.iter().any(|p| p["craft"] == "crafting_table"));
    assert_eq!(run(), (sent, ok));
}

/// Answers each request with the next scripted OpenAI text reply.
struct Scripted(Vec<String>, u32);

impl Transport for Scripted {
    fn send(
        &mut self,
        _req: &HttpRequest,
        _meta: CallMeta,
        _timeout: Duration,
    ) -> Result<HttpResponse, TransportFailure> {
        let i = self.1 as usize;
        self.1 += 1;
        let text = self.0.get(i).cloned().unwrap_or_default();
        Ok(HttpResponse {
            status: 200,
            body: json!({"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
            .to_string(),
            retry_after: None,
            latency_ms: 0,
            ..Default::default()
        })
    }
}

fn model_spec(hierarchical: &str) -> ModelSpec {
    let yaml = format!(
        "id: scripted-planner\nprovider: openai\nmodel: m\nbase_url: http://127.0.0.1:9\nhierarchical: {hierarchical}\n"
    );
    profile_from_yaml(&yaml)
}

/// A profile from YAML through the registry's own loader.
fn profile_from_yaml(yaml: &str) -> ModelSpec {
    let dir = std::env::temp_dir().join(format!("gw-hierarchy-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("models")).unwrap();
    std::fs::write(dir.join("models/scripted-planner.yaml"), yaml).unwrap();
    let reg = Registry::load(&[
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
        dir.clone(),
    ])
    .unwrap();
    let p = reg
        .resolve_preset("openworld+lh_wood_crafting_table+scripted-planner")
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    match p.agent {
        gw_core::AgentRef::Model(m) => *m,
        _ => unreachable!(),
    }
}

#[test]
fn a_model_plan_that_misses_the_target_is_asked_again_then_the_graph_steps_in() {
    let reg = registry();
    let preset = reg
        .resolve_preset("openworld+lh_wood_crafting_table+hierarchical")
        .unwrap();
    let spec = model_spec("{planner: model, policy: skills, max_reasks: 1}");
    let short = r#"[{"kind": "mine", "item": "logs", "count": 1}]"#.to_string();
    let link = Link::new(
        &spec,
        Box::new(Scripted(vec![short.clone(), short], 0)),
        None,
    );
    let settings = Settings::from_spec(spec.hierarchical.as_ref().unwrap());
    let mut agent =
        HierarchicalAgent::new(&preset, "scripted-planner", settings, Some(link), None).unwrap();
    assert!(
        agent.needs_frames() && agent.wants_frame(),
        "the first step plans"
    );
    let (sent, ok) = play(&mut agent, &preset, 2, 2400);
    assert!(ok, "{:?}", agent.log);
    assert_eq!(agent.rejected_plans(), 2);
    assert!(
        agent.log[0].contains("every plan was rejected; the graph planner's plan is used"),
        "{:?}",
        agent.log
    );
    assert!(!agent.wants_frame(), "planned: no frame needed");
    assert!(!sent.is_empty());
}
