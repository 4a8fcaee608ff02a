//! `gameworld verify`'s core: a recorded run replays to the same steps and
//! totals, and any edit to `result.json` or a trajectory line is caught and
//! names the step.

mod support;

use gw_runtime::verify::{Verdict, find_runs, state_fingerprint, verify_all, verify_run};
use gw_runtime::{RunOptions, run_preset};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::loopback::*;
use support::{jsonl, registry};

fn record(preset: &str, seed: u64, out: &Path, realtime: bool, steps: u32) {
    let reg = registry();
    let opts = RunOptions {
        frames: false,
        realtime,
        max_steps: Some(steps),
        ..RunOptions::new(preset, seed, out)
    };
    run_preset(&reg, &opts).unwrap_or_else(|e| panic!("{preset}: {e}"));
}

fn edit_line(dir: &Path, step: usize, f: impl FnOnce(&mut Value)) {
    let path = dir.join("trajectory.jsonl");
    let mut lines = jsonl(&path);
    f(&mut lines[step - 1]);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}

fn edit_result(dir: &Path, f: impl FnOnce(&mut Value)) {
    let path = dir.join("result.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in ["result.json", "trajectory.jsonl", "model_calls.jsonl"] {
        if from.join(f).is_file() {
            std::fs::copy(from.join(f), to.join(f)).unwrap();
        }
    }
}

fn step_of(v: &Verdict) -> Option<u32> {
    match v {
        Verdict::Differs { step, .. } => *step,
        Verdict::Verified { .. } => panic!("expected a difference"),
    }
}

fn what(v: &Verdict) -> String {
    match v {
        Verdict::Differs { what, .. } => what.clone(),
        Verdict::Verified { .. } => panic!("expected a difference"),
    }
}

#[test]
fn trajectory_lines_carry_a_state_fingerprint_that_ignores_the_wall_clock() {
    let dir = tempfile::tempdir().unwrap();
    record("01_2048+01_01+random", 3, dir.path(), false, 6);
    for line in jsonl(&dir.path().join("trajectory.jsonl")) {
        let fp = line["state_fingerprint"].as_str().expect("fingerprint");
        assert_eq!(fp.len(), 32);
        assert_eq!(fp, state_fingerprint(&line["state"]));
        let mut other = line["state"].clone();
        other["timestampMs"] = json!(1);
        assert_eq!(state_fingerprint(&other), fp);
        other["gameTimeMs"] = json!(other["gameTimeMs"].as_u64().unwrap() + 1);
        assert_ne!(state_fingerprint(&other), fp);
        assert_eq!(line["idle_ms"], json!([]), "paused runs idle nowhere");
    }
}

#[test]
fn honest_runs_verify_and_doctored_ones_name_the_step() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    // A game that resets on failure, so episodes and resets are replayed.
    record("13_flappy-bird+13_01+random", 4, &run, false, 30);
    let r = verify_run(&reg, &run);
    assert_eq!(r, Verdict::Verified { steps: 30 }, "{r:?}");
    assert!(r.line(&run).starts_with("verified "));

    // A score raised at step 7.
    let bad = dir.path().join("score");
    copy_run(&run, &bad);
    edit_line(&bad, 7, |l| {
        l["score"] = json!(l["score"].as_f64().unwrap() + 5.0)
    });
    let v = verify_run(&reg, &bad);
    assert_eq!(step_of(&v), Some(7), "{v:?}");
    assert!(what(&v).starts_with("score recorded"), "{v:?}");
    assert!(v.line(&bad).contains("step 7: score recorded"));

    // A state edited but its fingerprint kept.
    let bad = dir.path().join("state");
    copy_run(&run, &bad);
    edit_line(&bad, 12, |l| l["state"]["game_state"]["score"] = json!(99));
    let v = verify_run(&reg, &bad);
    assert_eq!(step_of(&v), Some(12), "{v:?}");
    assert!(what(&v).contains("fingerprint"), "{v:?}");

    // A different action at step 3: the replay goes elsewhere.
    let bad = dir.path().join("action");
    copy_run(&run, &bad);
    edit_line(&bad, 3, |l| {
        l["proposed"] = json!({"action": "not_a_control"})
    });
    let v = verify_run(&reg, &bad);
    assert_eq!(step_of(&v), Some(3), "{v:?}");

    // A raised total.
    let bad = dir.path().join("result");
    copy_run(&run, &bad);
    edit_result(&bad, |r| r["progress"] = json!(1.0));
    let v = verify_run(&reg, &bad);
    assert_eq!(step_of(&v), None);
    assert!(what(&v).contains("result.json progress"), "{v:?}");
    let bad = dir.path().join("success");
    copy_run(&run, &bad);
    edit_result(&bad, |r| r["stop_reason"] = json!("target_reached"));
    assert!(what(&verify_run(&reg, &bad)).contains("stop_reason"));

    // Lines dropped from the end.
    let bad = dir.path().join("short");
    copy_run(&run, &bad);
    let lines = jsonl(&bad.join("trajectory.jsonl"));
    let text: String = lines[..20].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(bad.join("trajectory.jsonl"), text).unwrap();
    let v = verify_run(&reg, &bad);
    assert!(what(&v).contains("steps"), "{v:?}");
}

#[test]
fn realtime_and_cooperative_runs_verify() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let rt = dir.path().join("rt");
    record("07_chrome-dino+07_01+random", 2, &rt, true, 25);
    assert!(
        verify_run(&reg, &rt).is_verified(),
        "{:?}",
        verify_run(&reg, &rt)
    );
    // The idles replayed are the recorded ones: a longer one moves the game.
    edit_line(&rt, 5, |l| l["idle_ms"] = json!([5000]));
    let v = verify_run(&reg, &rt);
    assert_eq!(step_of(&v), Some(5), "{v:?}");

    let coop = dir.path().join("coop");
    record(
        "12_fireboy-and-watergirl+12_01+scripted,random",
        1,
        &coop,
        false,
        20,
    );
    assert!(
        verify_run(&reg, &coop).is_verified(),
        "{:?}",
        verify_run(&reg, &coop)
    );
    // One role's action changed: the step names it.
    let lines = jsonl(&coop.join("trajectory.jsonl"));
    let other = if lines[3]["proposed"]["fireboy"]["action"] == json!("move_left") {
        "move_right"
    } else {
        "move_left"
    };
    edit_line(&coop, 4, |l| {
        l["proposed"]["fireboy"] = json!({"action": other})
    });
    let v = verify_run(&reg, &coop);
    assert_eq!(step_of(&v), Some(4), "{v:?}");
}

#[test]
fn a_folder_of_runs_verifies_each_run_and_finds_the_doctored_one() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("suite");
    let presets = [
        "01_2048+01_01+random",
        "05_breakout+05_01+scripted",
        "19_minesweeper+19_01+random",
    ];
    for (i, p) in presets.iter().enumerate() {
        record(p, 1, &suite.join(format!("{p}/seed1-r{i}")), false, 15);
    }
    let runs = find_runs(&suite);
    assert_eq!(runs.len(), 3);
    let all = verify_all(&reg, std::slice::from_ref(&suite), 3).unwrap();
    assert!(all.iter().all(|(_, v)| v.is_verified()), "{all:?}");
    edit_line(&runs[1], 9, |l| l["best_progress"] = json!(0.99));
    let all = verify_all(&reg, std::slice::from_ref(&suite), 3).unwrap();
    let bad: Vec<&(PathBuf, Verdict)> = all.iter().filter(|(_, v)| !v.is_verified()).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].0, runs[1]);
    assert_eq!(step_of(&bad[0].1), Some(9));
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(
        verify_all(&reg, &[empty], 1)
            .unwrap_err()
            .contains("holds no run")
    );
}

#[test]
fn a_model_run_verifies_by_replaying_its_replies() {
    let server = Server::start(vec![
        openai_tools(&[("move_up", "{}")], (100, 5, 0)),
        openai_tools(&[("move_left", "{}")], (100, 5, 0)),
        openai_text("no idea", (100, 5)),
        openai_tools(&[("move_down", "{}")], (100, 5, 0)),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("reg");
    std::fs::create_dir_all(root.join("models")).unwrap();
    std::fs::write(
        root.join("models/loop-verify.yaml"),
        format!(
            "id: loop-verify\nprovider: openai\nmodel: test\nbase_url: {}/v1\ntimeout_s: 10\nmax_retries: 0\n",
            server.base()
        ),
    )
    .unwrap();
    let reg = gw_core::registry::Registry::load(&[
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
        root,
    ])
    .unwrap();
    let out = dir.path().join("run");
    let opts = RunOptions {
        frames: false,
        max_steps: Some(4),
        ..RunOptions::new("01_2048+01_01+loop-verify", 2, &out)
    };
    run_preset(&reg, &opts).unwrap();
    drop(server);
    assert_eq!(verify_run(&reg, &out), Verdict::Verified { steps: 4 });
    // A recorded action that the recorded reply does not say.
    edit_line(&out, 2, |l| l["proposed"] = json!({"action": "move_right"}));
    let v = verify_run(&reg, &out);
    assert_eq!(step_of(&v), Some(2), "{v:?}");
    assert!(what(&v).contains("recorded replies parse into"), "{v:?}");
}
