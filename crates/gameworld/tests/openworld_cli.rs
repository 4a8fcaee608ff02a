//! The open world through the binary: task listing fields, `world graph`,
//! `world plan` (output shape, exit codes), a short run's frame policy and
//! the learned GOAP policy (built-in, `provider: policy`, under the planner).

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let registry = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
    Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .env("GAMEWORLD_REGISTRY", registry)
        .args(args)
        .output()
        .expect("binary runs")
}

fn json_out(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("stdout is JSON")
}

#[test]
fn task_list_has_the_three_optimus_suites_with_their_fields() {
    let rows = json_out(&run(&["list", "tasks", "--json"]));
    let ow: Vec<&Value> = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["game_id"] == "openworld")
        .collect();
    let count = |suite: &str, group: Option<&str>| {
        ow.iter()
            .filter(|t| t["suite"] == suite && group.is_none_or(|g| t["group"] == g))
            .count()
    };
    assert_eq!(count("atomic", None), 8);
    assert_eq!(count("long_horizon", None), 67);
    assert_eq!(count("open_ended", None), 25);
    for (g, n, steps) in [
        ("wood", 10, 2400),
        ("stone", 9, 6000),
        ("iron", 16, 24000),
        ("gold", 6, 36000),
        ("diamond", 7, 36000),
        ("redstone", 6, 36000),
        ("armor", 13, 36000),
    ] {
        assert_eq!(count("long_horizon", Some(g)), n, "{g}");
        assert!(
            ow.iter()
                .filter(|t| t["suite"] == "long_horizon" && t["group"] == g)
                .all(|t| t["max_steps"] == steps)
        );
    }
    let lh = ow
        .iter()
        .find(|t| t["task_id"] == "lh_iron_iron_pickaxe")
        .unwrap();
    assert_eq!(lh["target_item"], "iron_pickaxe");
    assert_eq!(lh["score_field"], "game_state.task.plan_progress");
    let logs = ow.iter().find(|t| t["task_id"] == "atomic_logs").unwrap();
    assert_eq!(logs["target_item"], "logs");
    assert_eq!(logs["max_steps"], 2400);
}

#[test]
fn world_plan_and_graph() {
    let p = json_out(&run(&["world", "plan", "stone_pickaxe", "--json"]));
    assert_eq!(p["target"], "stone_pickaxe");
    assert_eq!(p["count"], 1);
    let steps = p["steps"].as_array().unwrap();
    assert_eq!(steps.first().unwrap()["kind"], "mine");
    assert_eq!(steps.last().unwrap()["item"], "stone_pickaxe");
    // A partial inventory shortens the plan.
    let q = json_out(&run(&[
        "world",
        "plan",
        "stone_pickaxe",
        "--inventory",
        r#"{"crafting_table": 1, "stick": 2, "cobblestone": 3}"#,
        "--json",
    ]));
    assert_eq!(q["steps"].as_array().unwrap().len(), 1, "{q}");
    let g = json_out(&run(&["world", "graph"]));
    assert!(g["nodes"].as_array().unwrap().len() > 50);
    let dot = run(&["world", "graph", "--format", "dot"]);
    assert!(String::from_utf8_lossy(&dot.stdout).starts_with("digraph"));
}

#[test]
fn world_plan_errors_exit_2_and_name_the_cause() {
    for (args, needle) in [
        (
            vec!["world", "plan", "laser_sword"],
            "unknown item \"laser_sword\"",
        ),
        (
            vec!["world", "plan", "stick", "--count", "0"],
            "--count must be at least 1",
        ),
        (
            vec!["world", "plan", "stick", "--inventory", "{oops"],
            "not valid JSON",
        ),
        (
            vec![
                "world",
                "plan",
                "stick",
                "--inventory",
                r#"{"unobtainium": 1}"#,
            ],
            "unknown item \"unobtainium\"",
        ),
        (
            vec!["world", "plan", "stick", "--inventory", r#"{"stick": -1}"#],
            "whole number",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_short_openworld_run_keeps_every_twentieth_frame() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = run(&[
        "run",
        "openworld+atomic_dirt+random",
        "--seed",
        "5",
        "--max-steps",
        "45",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut frames: Vec<String> = std::fs::read_dir(out.join("frames"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    frames.sort();
    assert_eq!(
        frames,
        [
            "step_000000.png",
            "step_000020.png",
            "step_000040.png",
            "step_000045.png"
        ]
    );
    let traj = std::fs::read_to_string(out.join("trajectory.jsonl")).unwrap();
    assert_eq!(traj.lines().count(), 45);
    let rows: Vec<Value> = traj
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["game_time_ms"], 50);
    assert_eq!(rows[44]["game_time_ms"], 45 * 50);
    let act = rows
        .iter()
        .find(|r| r["control"] == "act")
        .expect("random acts");
    assert_eq!(act["action"]["action"], "native");
    assert_eq!(act["valid"], true);
}

fn actions(run_dir: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(run_dir.join("trajectory.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["action"].clone())
        .collect()
}

fn short_run(preset: &str, out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        preset,
        "--seed",
        "11",
        "--max-steps",
        "25",
        "--no-frames",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn the_learned_policy_runs_as_goap_as_a_profile_and_under_the_planner() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The built-in: the same seed, the same actions.
    for name in ["a", "b"] {
        let o = short_run("openworld+atomic_dirt+goap", &d.join(name), &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let a = actions(&d.join("a"));
    assert_eq!(a.len(), 25);
    assert_eq!(a, actions(&d.join("b")));
    assert!(a.iter().any(|x| x["action"] == "native"), "{a:?}");
    // A `provider: policy` profile with a checkpoint relative to its file.
    let reg = d.join("reg");
    std::fs::create_dir_all(reg.join("models")).unwrap();
    let ck = reg.join("models/ck");
    std::fs::create_dir_all(&ck).unwrap();
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry/policies/goap");
    for f in ["config.json", "policy.safetensors"] {
        std::fs::copy(shipped.join(f), ck.join(f)).unwrap();
    }
    std::fs::write(
        reg.join("models/my-policy.yaml"),
        "id: my-policy\nprovider: policy\ncheckpoint: ck\n",
    )
    .unwrap();
    let reg_s = reg.to_str().unwrap();
    let o = short_run(
        "openworld+atomic_dirt+my-policy",
        &d.join("p"),
        &["--registry", reg_s],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The shipped checkpoint through a profile acts as the built-in does.
    assert_eq!(actions(&d.join("p")), a);
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("p/result.json")).unwrap()).unwrap();
    assert_eq!(result["model"], "my-policy");
    // Planner + learned policy.
    let o = short_run(
        "openworld+lh_wood_stick+goap-hierarchical",
        &d.join("h"),
        &[],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(actions(&d.join("h")).len(), 25);
    // A truncated checkpoint: exit 2, the file named.
    let w = std::fs::read(ck.join("policy.safetensors")).unwrap();
    std::fs::write(ck.join("policy.safetensors"), &w[..1000]).unwrap();
    let o = short_run(
        "openworld+atomic_dirt+my-policy",
        &d.join("bad"),
        &["--registry", reg_s],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ck/policy.safetensors"), "{err}");
}

#[test]
fn world_train_refuses_bad_data_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-data");
    let o = run(&[
        "world",
        "train",
        "--data",
        missing.to_str().unwrap(),
        "--out",
        dir.path().join("ck").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-data"));
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(empty.join("data")).unwrap();
    let o = run(&[
        "world",
        "train",
        "--data",
        empty.to_str().unwrap(),
        "--out",
        dir.path().join("ck").to_str().unwrap(),
        "--resolution",
        "60x60",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("multiples of 16"));
}

#[test]
fn world_dagger_writes_labelled_episodes_and_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dagger");
    let args = |policy: &str, share: &str| {
        vec![
            "world".to_string(),
            "dagger".into(),
            "--policy".into(),
            policy.into(),
            "--tasks".into(),
            "atomic_logs".into(),
            "--episodes".into(),
            "2".into(),
            "--steps".into(),
            "30".into(),
            "--expert-share".into(),
            share.into(),
            "--seed".into(),
            "3".into(),
            "--workers".into(),
            "2".into(),
            "--out".into(),
            out.to_str().unwrap().into(),
        ]
    };
    let call = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let o = call(args("goap", "0.3"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("2 episodes, 60 labelled frames"),
        "{stdout}"
    );
    for e in 0..2 {
        let f = out.join(format!(
            "data/atomic_logs/atomic_logs-dagger-3-{e:06}.parquet"
        ));
        assert!(f.is_file(), "{}", f.display());
    }
    // A checkpoint that is not there, a share outside [0, 1]: exit 2, nothing written.
    let missing = dir.path().join("no-such-checkpoint");
    let o = call(args(missing.to_str().unwrap(), "0.3"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-checkpoint"));
    let o = call(args("goap", "1.5"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--expert-share"));
}
