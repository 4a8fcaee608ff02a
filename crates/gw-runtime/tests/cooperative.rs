//! Cooperative runs end to end. A registry overlay turns the real 2048 game
//! into a two-role game (`vertical` slides up/down, `horizontal` left/right),
//! so every mechanism is exercised on a real, deterministic game: preset
//! syntax, one agent per role, joint steps whose events merge on one clock,
//! per-role records and counts, determinism, and model-backed roles against
//! a loopback provider, each with its own prompt and call file.

mod support;

use gw_core::Stepper;
use gw_core::action::TimedEvent;
use gw_core::registry::{AgentRef, Interface, Registry};
use gw_runtime::{RunOptions, run_preset};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::loopback::*;

fn project_registry() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

const COOP_2048: &str = r#"id: 01_2048
name: "2048 for two"
genre: puzzle
curriculum_level: 4
viewport: {width: 1280, height: 720}
player_mode: cooperative
rules: |
  One board, two players: one slides the tiles up and down, the other left and right.
roles:
  - name: vertical
    prompt: |
      You are VERTICAL-PLAYER. You slide the tiles up or down; your partner slides them sideways.
    allowed_keys: [ArrowUp, ArrowDown]
    hold_duration: 0.2
    semantic_controls:
      - id: wait
        binding: {action: wait, duration: 0.2}
      - id: move_up
        binding: {action: press_key, key: ArrowUp}
      - id: move_down
        binding: {action: press_key, key: ArrowDown}
  - name: horizontal
    prompt: |
      You are HORIZONTAL-PLAYER. You slide the tiles left or right; your partner slides them up and down.
    allowed_keys: [ArrowLeft, ArrowRight]
    hold_duration: 0.2
    semantic_controls:
      - id: wait
        binding: {action: wait, duration: 0.2}
      - id: move_left
        binding: {action: press_key, key: ArrowLeft}
      - id: move_right
        binding: {action: press_key, key: ArrowRight}
"#;

/// The project registry plus the cooperative 2048 overlay (and any extra
/// model profiles).
fn coop_registry(root: &Path, models: &[(&str, String)]) -> Registry {
    std::fs::create_dir_all(root.join("games")).unwrap();
    std::fs::write(root.join("games/01_2048.yaml"), COOP_2048).unwrap();
    if !models.is_empty() {
        std::fs::create_dir_all(root.join("models")).unwrap();
        for (id, yaml) in models {
            std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
        }
    }
    Registry::load(&[project_registry(), root.to_path_buf()]).unwrap_or_else(|e| panic!("{e}"))
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strip_clock(mut v: Value) -> Value {
    v["state"].as_object_mut().unwrap().remove("timestampMs");
    v.as_object_mut().unwrap().remove("latency_ms");
    for r in v["roles"].as_array_mut().into_iter().flatten() {
        r.as_object_mut().unwrap().remove("latency_ms");
    }
    v
}

#[test]
fn pair_presets_resolve_per_role_and_bad_pairs_name_the_roles() {
    let dir = tempfile::tempdir().unwrap();
    let reg = coop_registry(dir.path(), &[]);
    let p = reg.resolve_preset("01_2048+01_01+random,scripted").unwrap();
    assert!(p.is_cooperative());
    let roles: Vec<(&str, &str)> = p
        .players
        .iter()
        .map(|pl| (pl.role.name.as_str(), pl.agent.id()))
        .collect();
    assert_eq!(roles, [("vertical", "random"), ("horizontal", "scripted")]);
    assert_eq!(p.model_label(), "random,scripted");
    let views = p.role_presets();
    assert_eq!(views[1].role.name, "horizontal");
    assert_eq!(views[1].agent, AgentRef::Builtin("scripted".into()));

    // One id fills every role.
    let p = reg.resolve_preset("01_2048+01_01+noop").unwrap();
    assert_eq!(p.players.len(), 2);
    assert!(p.players.iter().all(|pl| pl.agent.id() == "noop"));
    assert_eq!(p.model_label(), "noop");

    let err = reg
        .resolve_preset("01_2048+01_01+random,noop,scripted")
        .unwrap_err();
    assert!(
        err.contains("3 models") && err.contains("vertical, horizontal"),
        "{err}"
    );
    let err = reg.resolve_preset("01_2048+01_01+random,").unwrap_err();
    assert!(err.contains("empty model id"), "{err}");
    let err = reg
        .resolve_preset("01_2048+01_01+random,gpt-x")
        .unwrap_err();
    assert!(err.contains("unknown model \"gpt-x\""), "{err}");

    // A single-player game refuses a pair and keeps its own syntax.
    let plain = Registry::load(&[project_registry()]).unwrap();
    let err = plain
        .resolve_preset("01_2048+01_01+random,noop")
        .unwrap_err();
    assert!(err.contains("single-player"), "{err}");
    let p = plain.resolve_preset("01_2048+01_01+random").unwrap();
    assert!(!p.is_cooperative());
    assert_eq!(p.players.len(), 1);
}

#[test]
fn a_joint_step_plays_both_roles_actions_on_one_clock() {
    let dir = tempfile::tempdir().unwrap();
    let reg = coop_registry(dir.path(), &[]);
    let preset = reg.resolve_preset("01_2048+01_01+scripted").unwrap();
    let game = gw_games::create("01_2048").unwrap();
    let mut s = Stepper::new(game, &preset, 3).unwrap();
    assert_eq!(s.role_names(), ["vertical", "horizontal"]);
    let before = s.state_value()["metrics"]["moves"].as_u64().unwrap();
    let up = json!({"action": "move_up"});
    let left = json!({"action": "move_left"});
    let rec = s
        .step_joint(&[
            (Interface::Generalist, Some(&up)),
            (Interface::Generalist, Some(&left)),
        ])
        .unwrap();
    assert!(rec.roles.iter().all(|r| r.valid()));
    // Both key presses start at t = 0, before the one shared hold.
    let keys: Vec<String> = rec
        .events
        .iter()
        .take(2)
        .map(|e| match e {
            TimedEvent::Input(i) => serde_json::to_value(i).unwrap()["key"]
                .as_str()
                .unwrap()
                .to_string(),
            TimedEvent::Wait { .. } => "wait".into(),
        })
        .collect();
    assert_eq!(keys, ["ArrowUp", "ArrowLeft"]);
    let waited: u64 = rec
        .events
        .iter()
        .map(|e| match e {
            TimedEvent::Wait { wait_ms } => *wait_ms,
            _ => 0,
        })
        .sum();
    assert_eq!(waited, 200, "the holds overlap on one clock");
    // Both moves reached the game in the same step (a move that changes
    // nothing does not count, so allow for one being blocked).
    let after = rec.state["metrics"]["moves"].as_u64().unwrap();
    assert!(after > before, "{before} -> {after}");
    assert_eq!(rec.step, 1);

    // A role's key is out of the other role's space; only that role's
    // action is dropped.
    let right_for_vertical = json!({"action": "move_right"});
    let down = json!({"action": "move_down"});
    let rec = s
        .step_joint(&[
            (Interface::Generalist, Some(&right_for_vertical)),
            (Interface::Generalist, Some(&down)),
        ])
        .unwrap();
    assert!(!rec.roles[0].valid());
    assert!(
        !rec.roles[1].valid(),
        "move_down is not a horizontal control"
    );
    let wait = json!({"action": "wait"});
    let rec = s
        .step_joint(&[
            (Interface::Generalist, Some(&down)),
            (Interface::Generalist, Some(&wait)),
        ])
        .unwrap();
    assert!(rec.roles[0].valid() && rec.roles[1].valid());
    assert!(
        s.step_joint(&[(Interface::Generalist, Some(&wait))])
            .unwrap_err()
            .contains("one proposal per role")
    );
}

#[test]
fn cooperative_builtin_runs_write_per_role_records_and_repeat_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let reg = coop_registry(&dir.path().join("reg"), &[]);
    let run = |name: &str| {
        let out = dir.path().join(name);
        let opts = RunOptions {
            max_steps: Some(12),
            frames: false,
            ..RunOptions::new("01_2048+01_01+random,noop", 5, &out)
        };
        let r = run_preset(&reg, &opts).unwrap();
        (r, out)
    };
    let (r, out) = run("a");
    assert_eq!(r.model, "random,noop");
    assert_eq!(r.steps, 12);
    assert_eq!(r.proposed_actions, 24, "one action per role per step");
    let roles = r.roles.as_ref().expect("per-role results");
    assert_eq!(roles.len(), 2);
    assert_eq!(
        (roles[0].role.as_str(), roles[0].model.as_str()),
        ("vertical", "random")
    );
    assert_eq!(
        (roles[1].role.as_str(), roles[1].model.as_str()),
        ("horizontal", "noop")
    );
    assert_eq!(roles[1].valid_actions, 12);
    let summed: u32 = roles.iter().map(|x| x.valid_actions).sum();
    assert_eq!(summed, r.valid_actions);
    assert_eq!(
        r.proposed_actions,
        r.valid_actions + r.invalid_no_tool_call + r.invalid_out_of_space
    );
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("result.json")).unwrap()).unwrap();
    assert_eq!(saved["roles"][1]["role"], json!("horizontal"));
    assert_eq!(saved["proposed_actions"], json!(24));

    let traj = jsonl(&out.join("trajectory.jsonl"));
    assert_eq!(traj.len(), 12);
    for line in &traj {
        let roles = line["roles"].as_array().unwrap();
        assert_eq!(roles.len(), 2);
        assert_eq!(roles[0]["role"], json!("vertical"));
        assert_eq!(roles[1]["control"], json!("wait"));
        assert!(line["action"]["horizontal"].is_object());
        assert_eq!(
            line["valid"],
            json!(roles.iter().all(|r| r["valid"] == json!(true)))
        );
    }
    // Built-in agents make no model calls.
    assert!(!out.join("model_calls.vertical.jsonl").exists());

    let (_, again) = run("b");
    let a: Vec<Value> = jsonl(&out.join("trajectory.jsonl"))
        .into_iter()
        .map(strip_clock)
        .collect();
    let b: Vec<Value> = jsonl(&again.join("trajectory.jsonl"))
        .into_iter()
        .map(strip_clock)
        .collect();
    assert_eq!(a, b, "same pair and seed, same trajectory");
}

#[test]
fn two_random_roles_draw_from_their_own_streams() {
    let dir = tempfile::tempdir().unwrap();
    let reg = coop_registry(&dir.path().join("reg"), &[]);
    let out = dir.path().join("run");
    let opts = RunOptions {
        max_steps: Some(30),
        frames: false,
        ..RunOptions::new("01_2048+01_01+random", 9, &out)
    };
    run_preset(&reg, &opts).unwrap();
    let traj = jsonl(&out.join("trajectory.jsonl"));
    let picks = |i: usize| -> Vec<String> {
        traj.iter()
            .map(|l| {
                l["roles"][i]["control"]
                    .as_str()
                    .unwrap_or("")
                    .replace("up", "left")
                    .replace("down", "right")
            })
            .collect()
    };
    assert_ne!(picks(0), picks(1), "the two random roles mirror each other");
}

/// An OpenAI-compatible profile on a loopback server.
fn loop_profile(id: &str, base: &str) -> String {
    format!(
        "id: {id}\nprovider: openai\ninterface: generalist\nmodel: test-model\nbase_url: {base}/v1\n\
         api_key_env: GW_TEST_KEY_COOP\nmemory_rounds: 2\nmax_tokens: 128\ntimeout_s: 10\n\
         max_retries: 1\nretry_backoff_s: 0.01\nprice_input_per_mtok: 1.0\nprice_output_per_mtok: 2.0\n"
    )
}

#[test]
fn model_backed_roles_call_with_their_own_prompts_and_record_their_own_calls() {
    // SAFETY: only this test reads this variable.
    unsafe { std::env::set_var("GW_TEST_KEY_COOP", "sk-coop-test-0123456789") };
    // Calls arrive role by role within a step: vertical, then horizontal.
    let script = vec![
        openai_tools(&[("move_up", "{}")], (100, 10, 0)),
        openai_tools(&[("move_left", "{}")], (200, 20, 0)),
        openai_tools(&[("move_left", "{}")], (100, 10, 0)), // not a vertical control
        openai_text("I will wait.", (200, 20)),
        openai_tools(&[("move_down", "{}")], (100, 10, 0)),
        openai_tools(&[("move_right", "{}")], (200, 20, 0)),
    ];
    let server = Server::start(script);
    let dir = tempfile::tempdir().unwrap();
    let reg = coop_registry(
        &dir.path().join("reg"),
        &[("loop-coop", loop_profile("loop-coop", &server.base()))],
    );
    let out = dir.path().join("run");
    let opts = RunOptions {
        max_steps: Some(3),
        ..RunOptions::new("01_2048+01_01+loop-coop", 2, &out)
    };
    let r = run_preset(&reg, &opts).unwrap_or_else(|e| panic!("{e}"));
    let received = server.finish();
    assert_eq!(received.len(), 6);
    for (i, req) in received.iter().enumerate() {
        let text = req.body.to_string();
        let (mine, partner) = if i % 2 == 0 {
            ("VERTICAL-PLAYER", "HORIZONTAL-PLAYER")
        } else {
            ("HORIZONTAL-PLAYER", "VERTICAL-PLAYER")
        };
        assert!(text.contains(mine), "request {i} lacks its role prompt");
        assert!(
            !text.contains(partner),
            "request {i} carries the other role's prompt"
        );
    }
    // Tokens and counts: summed in the SPEC fields, split per role.
    assert_eq!((r.input_tokens, r.output_tokens), (900, 90));
    let roles = r.roles.as_ref().unwrap();
    assert_eq!((roles[0].input_tokens, roles[1].input_tokens), (300, 600));
    assert_eq!(roles[0].invalid_out_of_space, 1);
    assert_eq!(roles[1].invalid_no_tool_call, 1);
    assert_eq!(
        (
            r.valid_actions,
            r.invalid_out_of_space,
            r.invalid_no_tool_call
        ),
        (4, 1, 1)
    );

    let v = jsonl(&out.join("model_calls.vertical.jsonl"));
    let h = jsonl(&out.join("model_calls.horizontal.jsonl"));
    assert_eq!((v.len(), h.len()), (3, 3));
    assert!(v.iter().all(|c| c.to_string().contains("VERTICAL-PLAYER")));
    assert!(
        h.iter()
            .all(|c| c.to_string().contains("HORIZONTAL-PLAYER"))
    );
    assert!(!out.join("model_calls.jsonl").exists());
    let traj = jsonl(&out.join("trajectory.jsonl"));
    assert_eq!(traj[1]["roles"][0]["invalid_kind"], json!("out_of_space"));
    assert_eq!(traj[1]["roles"][1]["invalid_kind"], json!("no_tool_call"));
    assert_eq!(traj[1]["invalid_kind"], json!("out_of_space"));
    assert_eq!(traj[2]["action"]["horizontal"]["key"], json!("ArrowRight"));
    let all = std::fs::read_to_string(out.join("model_calls.horizontal.jsonl")).unwrap();
    assert!(!all.contains("sk-coop-test-0123456789"));
}

/// Fireboy and Watergirl's tasks need each role's own diamonds in one
/// attempt; `result.json` keeps the plain sum, the original evaluator's
/// outcome, as `reference`, and the task's own outcome never claims more
/// than it.
#[test]
fn per_role_targets_decide_success_and_the_summed_outcome_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let reg = Registry::load(&[project_registry()]).unwrap_or_else(|e| panic!("{e}"));
    for (preset, seed) in [
        ("12_fireboy-and-watergirl+12_02+scripted", 700),
        ("12_fireboy-and-watergirl+12_01+random", 701),
    ] {
        let out = dir.path().join(format!("{seed}"));
        let opts = RunOptions {
            frames: false,
            ..RunOptions::new(preset, seed, &out)
        };
        let r = run_preset(&reg, &opts).unwrap();
        let saved: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("result.json")).unwrap())
                .unwrap();
        let reference = &saved["reference"];
        assert!(reference.is_object(), "{preset}: no reference in {saved}");
        assert!(reference["best_score"].as_f64().unwrap() >= r.best_score);
        assert!(!r.success || reference["success"] == json!(true));
        // Success means both roles reached their own target in one state.
        let traj = jsonl(&out.join("trajectory.jsonl"));
        let both = traj.iter().any(|l| {
            let d = &l["state"]["game_state"]["diamonds"];
            let (red, blue) = if preset.contains("12_02") {
                (3, 4)
            } else {
                (1, 1)
            };
            d["fireboy"]["collected"].as_u64().unwrap_or(0) >= red
                && d["watergirl"]["collected"].as_u64().unwrap_or(0) >= blue
        });
        assert_eq!(r.success, both, "{preset}");
    }
    // Single-role tasks have no separate reference outcome.
    let out = dir.path().join("2048");
    let opts = RunOptions {
        frames: false,
        max_steps: Some(3),
        ..RunOptions::new("01_2048+01_01+noop", 1, &out)
    };
    assert!(run_preset(&reg, &opts).unwrap().reference.is_none());
    let saved = std::fs::read_to_string(out.join("result.json")).unwrap();
    assert!(!saved.contains("\"reference\""));
}
