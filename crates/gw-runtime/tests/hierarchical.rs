//! The open world's hierarchical agent through the full runtime: the
//! built-in `hierarchical` (graph planner + skill policy) solves a Wood task
//! and replays bit for bit; the model planner and the model policy talk to a
//! loopback server — a malformed plan is asked again, a sub-goal that times
//! out is re-planned, and frames are drawn only for the steps a model looks at.

mod support;

use gw_core::registry::Registry;
use gw_runtime::{RunOptions, RunResult, run_preset};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::jsonl;
use support::loopback::*;

const WOOD: &str = "openworld+lh_wood_crafting_table";

fn project_registry() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

fn run(registry: &Registry, preset: &str, seed: u64, out: &Path, steps: Option<u32>) -> RunResult {
    let opts = RunOptions {
        max_steps: steps,
        frames: false,
        ..RunOptions::new(preset, seed, out)
    };
    run_preset(registry, &opts).unwrap_or_else(|e| panic!("{preset}: {e}"))
}

/// The trajectory without its wall-clock fields.
fn trajectory(out: &Path) -> Vec<Value> {
    jsonl(&out.join("trajectory.jsonl"))
        .into_iter()
        .map(|mut l| {
            let o = l.as_object_mut().unwrap();
            o.remove("latency_ms");
            if let Some(s) = o.get_mut("state").and_then(Value::as_object_mut) {
                s.remove("timestampMs");
            }
            l
        })
        .collect()
}

#[test]
fn graph_planner_and_skills_solve_a_wood_task_and_replay_identically() {
    let registry = Registry::load(&[project_registry()]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let preset = format!("{WOOD}+hierarchical");
    let r = run(&registry, &preset, 2, &a, None);
    assert!(r.success, "{r:?}");
    assert_eq!(r.model, "hierarchical");
    assert_eq!(r.stop_reason, "target_reached");
    assert_eq!(r.valid_actions, r.proposed_actions);
    assert_eq!((r.input_tokens, r.cost_usd), (0, 0.0));
    let t = trajectory(&a);
    // The first step states the graph plan; later steps name each new sub-goal.
    let first = t[0]["reasoning"].as_str().unwrap_or_default();
    assert!(first.contains("plan mine"), "{first}");
    assert!(first.contains("craft 1 crafting_table"), "{first}");
    assert!(
        t.iter()
            .any(|l| l["reasoning"].as_str() == Some("sub-goal: craft 1 crafting_table")),
        "no step names the table sub-goal"
    );
    assert!(!a.join("model_calls.jsonl").exists());
    let r2 = run(&registry, &preset, 2, &b, None);
    assert_eq!((r2.steps, r2.success), (r.steps, r.success));
    assert_eq!(trajectory(&b), t, "the same seed replays identically");
}

#[test]
fn a_hierarchical_agent_refuses_games_without_a_target_item() {
    let registry = Registry::load(&[project_registry()]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let opts = RunOptions::new("01_2048+01_01+hierarchical", 1, dir.path().join("r"));
    let e = run_preset(&registry, &opts).unwrap_err().to_string();
    assert!(e.contains("open-world tasks with a target item"), "{e}");
}

/// A registry with one loopback profile next to the project's.
fn registry_with(root: &Path, id: &str, base_url: &str, hierarchical: &str) -> Registry {
    std::fs::create_dir_all(root.join("models")).unwrap();
    let yaml = format!(
        "id: {id}\nprovider: openai\nmodel: test-model\nbase_url: {base_url}\ntimeout_s: 10\nmax_retries: 0\n\
         price_input_per_mtok: 1.0\nprice_output_per_mtok: 2.0\nhierarchical:\n{hierarchical}"
    );
    std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
    Registry::load(&[project_registry(), root.to_path_buf()]).unwrap_or_else(|e| panic!("{e}"))
}

fn plan_text(steps: &[(&str, &str, u32)]) -> String {
    let v: Vec<Value> = steps
        .iter()
        .map(|(k, i, n)| json!({"kind": k, "item": i, "count": n}))
        .collect();
    format!("```json\n{}\n```", Value::Array(v))
}

/// The user text of a received OpenAI request.
fn user_text(r: &Received) -> String {
    let mut s = String::new();
    for m in r.body["messages"].as_array().unwrap() {
        if m["role"] == "user" {
            match &m["content"] {
                Value::String(t) => s.push_str(t),
                Value::Array(parts) => {
                    for p in parts {
                        if let Some(t) = p["text"].as_str() {
                            s.push_str(t);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    s
}

fn has_image(r: &Received) -> bool {
    r.body.to_string().contains("data:image/png;base64,")
}

#[test]
fn model_planner_is_asked_again_after_a_malformed_plan_and_the_skills_carry_it_out() {
    let good = plan_text(&[
        ("mine", "logs", 1),
        ("craft", "planks", 4),
        ("craft", "crafting_table", 1),
    ]);
    let server = Server::start(vec![
        openai_text("First I would look for a tree, then chop it.", (500, 12)),
        openai_text(&good, (600, 40)),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let registry = registry_with(
        &dir.path().join("reg"),
        "loop-planner",
        &server.base(),
        "  planner: model\n  policy: skills\n  max_reasks: 1\n",
    );
    let out = dir.path().join("run");
    let r = run(&registry, &format!("{WOOD}+loop-planner"), 2, &out, None);
    let got = server.finish();
    assert!(r.success, "{r:?}");
    assert_eq!(got.len(), 2, "one rejected plan, one accepted");
    assert!(got.iter().all(has_image), "the planner sees the frame");
    assert!(got.iter().all(|g| g.body.get("tools").is_none()));
    let first = user_text(&got[0]);
    assert!(first.contains("Target: 1 crafting_table"), "{first}");
    assert!(first.contains("Inventory: {}"), "{first}");
    let again = user_text(&got[1]);
    assert!(
        again.contains("Your answer was rejected: the answer holds no JSON array of sub-goals"),
        "{again}"
    );
    assert_eq!((r.input_tokens, r.output_tokens), (1100, 52));
    assert!((r.cost_usd - (1100.0 + 2.0 * 52.0) / 1e6).abs() < 1e-12);
    let calls = jsonl(&out.join("model_calls.jsonl"));
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c["step"] == 1), "both calls on step 1");
    let t = trajectory(&out);
    let why = t[0]["reasoning"].as_str().unwrap();
    assert!(
        why.contains("plan rejected: the answer holds no JSON array"),
        "{why}"
    );
    assert!(
        why.contains("plan: mine 1 logs, craft 4 planks, craft 1 crafting_table"),
        "{why}"
    );
}

#[test]
fn model_planner_and_model_policy_replan_after_a_timeout() {
    let plan = plan_text(&[
        ("mine", "logs", 1),
        ("craft", "planks", 4),
        ("craft", "crafting_table", 1),
    ]);
    let u = (300, 10, 0);
    let server = Server::start(vec![
        openai_text(&plan, (500, 30)),
        openai_tools(
            &[(
                "act",
                r#"{"forward": true, "attack": true, "yaw": 15, "reasoning": "towards the tree"}"#,
            )],
            u,
        ),
        openai_tools(&[("act", r#"{"jump": true, "pitch": -5}"#)], u),
        openai_text(&plan, (500, 30)),
        openai_tools(&[("wait", "{}")], u),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let registry = registry_with(
        &dir.path().join("reg"),
        "loop-both",
        &server.base(),
        "  planner: model\n  policy: model\n  decision_every: 5\n  subgoal_timeout_steps: 8\n",
    );
    let out = dir.path().join("run");
    let r = run(&registry, &format!("{WOOD}+loop-both"), 2, &out, Some(13));
    let got = server.finish();
    assert_eq!(r.steps, 13);
    assert_eq!(r.error, None);
    // Planner calls carry no tools; policy calls offer the game's controls.
    let kinds: Vec<bool> = got.iter().map(|g| g.body.get("tools").is_some()).collect();
    assert_eq!(kinds, [false, true, true, false, true]);
    assert!(got.iter().all(has_image));
    let policy_text = user_text(&got[1]);
    assert!(
        policy_text.contains("Current sub-goal (1 of 3): mine 1 logs"),
        "{policy_text}"
    );
    let calls = jsonl(&out.join("model_calls.jsonl"));
    let steps: Vec<u64> = calls.iter().map(|c| c["step"].as_u64().unwrap()).collect();
    // Plan + decision on step 1, a decision on step 6, the time-out on step
    // 10 (9 steps on one sub-goal > 8), a new plan + decision on step 11.
    assert_eq!(steps, [1, 1, 6, 11, 11]);
    let t = trajectory(&out);
    assert_eq!(t.len(), 13);
    let action = |i: usize| t[i]["action"].clone();
    // Steps 2-5 hold the decision's buttons (not its camera turn).
    for i in 1..5 {
        assert_eq!(action(i), action(1), "step {}", i + 1);
    }
    let held = action(1).to_string();
    assert!(
        held.contains("forward") && held.contains("attack"),
        "{held}"
    );
    assert!(!held.contains("yaw"), "{held}");
    assert!(action(0).to_string().contains("yaw"), "{}", action(0));
    let why = t[9]["reasoning"].as_str().unwrap_or_default();
    assert!(
        why.contains("mine 1 logs timed out after 8 steps; re-planning"),
        "{why}"
    );
    assert_eq!(
        t[0]["reasoning"]
            .as_str()
            .map(|s| s.contains("towards the tree")),
        Some(true)
    );
    assert_eq!(r.input_tokens, 500 * 2 + 300 * 3);
}
