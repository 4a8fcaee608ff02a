//! End-to-end tests of the `gameworld` binary: exit codes, error texts and
//! the files a run writes.

#[path = "../../gw-runtime/tests/support/loopback.rs"]
mod loopback;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env("GAMEWORLD_REGISTRY", project_registry());
    c
}

fn project_registry() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Trajectory lines with the SPEC's wall-clock fields removed.
fn trajectory_without_wall_clock(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("trajectory.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("latency_ms");
            o.remove("wall_ms");
            o["state"].as_object_mut().unwrap().remove("timestampMs");
            v
        })
        .collect()
}

#[test]
fn scripted_run_writes_the_run_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = run(&[
        "run",
        "01_2048+01_01+scripted",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = read_json(&out.join("result.json"));
    for key in [
        "preset",
        "game_id",
        "task_id",
        "model",
        "interface",
        "seed",
        "realtime",
        "steps",
        "episodes",
        "success",
        "progress",
        "best_score",
        "start_score",
        "target_score",
        "stop_reason",
        "proposed_actions",
        "valid_actions",
        "invalid_no_tool_call",
        "invalid_out_of_space",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "wall_ms",
    ] {
        assert!(r.get(key).is_some(), "result.json lacks {key}");
    }
    assert_eq!(r["success"], true);
    assert_eq!(r["stop_reason"], "target_reached");
    assert_eq!(r["best_score"], 32.0);
    let steps = r["steps"].as_u64().unwrap();
    let lines = trajectory_without_wall_clock(&out);
    assert_eq!(lines.len() as u64, steps);
    let first = &lines[0];
    for key in [
        "step",
        "episode",
        "action",
        "valid",
        "invalid_kind",
        "events",
        "game_time_ms",
        "score",
        "progress",
        "best_progress",
        "state",
    ] {
        assert!(first.get(key).is_some(), "trajectory line lacks {key}");
    }
    assert_eq!(first["state"]["gameId"], "01_2048");
    // Frame 0 is the first observation; frame N the state after step N.
    assert!(out.join("frames/step_000000.png").is_file());
    assert!(out.join(format!("frames/step_{steps:06}.png")).is_file());
    let png = std::fs::read(out.join("frames/step_000001.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
}

#[test]
fn same_preset_and_seed_give_identical_trajectories() {
    for agent in ["random", "scripted"] {
        let dir = tempfile::tempdir().unwrap();
        let preset = format!("01_2048+01_04+{agent}");
        let mut trajs = Vec::new();
        for k in 0..2 {
            let out = dir.path().join(format!("r{k}"));
            let o = run(&[
                "run",
                &preset,
                "--seed",
                "7",
                "--no-frames",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert!(!out.join("frames").exists());
            trajs.push(trajectory_without_wall_clock(&out));
        }
        assert!(!trajs[0].is_empty());
        assert_eq!(trajs[0], trajs[1], "{agent} runs differ");
        let out = dir.path().join("other-seed");
        run(&[
            "run",
            &preset,
            "--seed",
            "8",
            "--no-frames",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_ne!(trajs[0], trajectory_without_wall_clock(&out));
    }
}

#[test]
fn unknown_preset_parts_are_configuration_errors() {
    let cases = [
        ("99_nothing+01_01+scripted", "unknown game \"99_nothing\""),
        (
            "01_2048+01_77+scripted",
            "unknown task \"01_77\" for game \"01_2048\"",
        ),
        ("01_2048+01_01+gpt-9", "unknown model \"gpt-9\""),
        ("01_2048+01_01", "must have three parts"),
    ];
    for (preset, msg) in cases {
        let o = run(&["run", preset, "--no-frames"]);
        assert_eq!(o.status.code(), Some(2), "{preset}");
        assert!(stderr(&o).contains(msg), "{preset}: {}", stderr(&o));
    }
    let o = run(&["run", "01_2048+01_01+scripted", "--max-steps", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--max-steps must be at least 1"));
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn malformed_yaml_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "games/09_bad.yaml",
        "id: 09_bad\nname: Bad\ngenre: puzzle\ncurriculum_level: [oops\n",
    );
    let o = run(&["validate", "--registry", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("09_bad.yaml:"), "{err}");
    assert!(err.contains("invalid YAML"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "tasks/01_2048/01_99.yaml",
        "id: 01_99\ngame_id: 01_2048\ninstruction: x\nscore_field: game_state.score\nstart: 0\ntarget: 0\nmax_steps: 10\n",
    );
    let o = run(&["validate", "--registry", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("01_99.yaml:6:1: target equals start"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "tasks/01_2048/01_98.yaml",
        "id: 01_98\ngame_id: 01_2048\ninstruction: x\nscore_field: game_state.score\nstart: 0\ntarget: 5\nmax_stepz: 10\n",
    );
    let o = run(&["validate", "--registry", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("01_98.yaml:7:"), "{}", stderr(&o));
    assert!(stderr(&o).contains("max_stepz"), "{}", stderr(&o));
    // A broken registry also stops `run` with exit 2.
    let o = run(&[
        "run",
        "01_2048+01_01+scripted",
        "--registry",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn illegal_bindings_and_actions_are_reported() {
    // A binding that presses a key the role does not allow is a registry error.
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string(project_registry().join("games/01_2048.yaml")).unwrap();
    let broken = game.replace(
        "binding: {action: press_key, key: ArrowUp}",
        "binding: {action: press_key, key: Space}",
    );
    assert_ne!(game, broken);
    write(dir.path(), "games/01_2048.yaml", &broken);
    let o = run(&["validate", "--registry", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("01_2048.yaml:")
            && err.contains(
                "control \"move_up\": binding is not executable: key \"Space\" is not allowed"
            ),
        "{err}"
    );
}

/// A reader that stops early (`gameworld list tasks | head -1`) ends the
/// command quietly with SIGPIPE's status, not with a panic.
#[test]
fn a_closed_stdout_ends_the_command_quietly() {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = bin()
        .args(["list", "tasks"])
        .stdout(writer)
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(141), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn validate_and_list_json() {
    let o = run(&["validate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["list", "tasks", "--json"]);
    assert!(o.status.success());
    let tasks: Value = serde_json::from_slice(&o.stdout).unwrap();
    let arr = tasks.as_array().unwrap();
    assert!(arr.len() >= 5);
    let t = arr.iter().find(|t| t["task_id"] == "01_05").unwrap();
    assert_eq!(t["preset_prefix"], "01_2048+01_05");
    assert_eq!(t["target"], 1024.0);
    assert_eq!(t["start"], 0.0);
    assert_eq!(t["max_steps"], 100);
    assert_eq!(t["score_field"], "game_state.score");
    let o = run(&["list", "games", "--json"]);
    let games: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        games
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["game_id"] == "01_2048" && g["genre"] == "puzzle")
    );
}

#[test]
fn bench_reports_each_game() {
    let o = run(&[
        "bench",
        "--json",
        "--games",
        "01_2048,openworld",
        "--sim-seconds",
        "0.05",
        "--steps",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Value = serde_json::from_slice(&o.stdout).unwrap();
    let find = |id: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["game_id"] == id)
            .unwrap_or_else(|| panic!("no {id} row in {rows}"))
            .clone()
    };
    let row = find("01_2048");
    assert!(row["sim_steps_per_s"].as_f64().unwrap() > 0.0);
    assert!(row["step_overhead_ms_median"].as_f64().unwrap() > 0.0);
    // The open world has no tasks yet: its row is the world's own figures.
    let world = find("openworld");
    for key in [
        "render_steps_per_s_64x64",
        "render_steps_per_s_640x360",
        "reset_ms_median",
    ] {
        assert!(world[key].as_f64().unwrap() > 0.0, "{key}: {world}");
    }
    let o = run(&["bench", "--games", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    // The text table says what it measured and how busy the machine was.
    let o = run(&[
        "bench",
        "--games",
        "01_2048",
        "--sim-seconds",
        "0.05",
        "--steps",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(
            "bench: 1 games; per game 0.05 s of simulation only, then 5 full runtime steps"
        ) && lines[0].contains("load average at start: "),
        "{text}"
    );
    assert!(lines[1].starts_with("01_2048 "), "{text}");
    assert!(lines[2].starts_with("load average at end: "), "{text}");
}

/// JSON lines of a run file.
fn jsonl(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cooperative_run_writes_per_role_actions_and_counts() {
    use loopback::{Server, openai_text, openai_tools};
    // Watergirl is a model on a loopback server: a valid action, a reply with
    // no tool call, an action outside her controls. Fireboy is the expert.
    let server = Server::start(vec![
        openai_tools(&[("move_right", "{}")], (700, 10, 0)),
        openai_text("Let me look at the level first.", (700, 8)),
        openai_tools(&[("ArrowRight", "{}")], (700, 12, 0)),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("extra");
    write(
        &root,
        "models/loop-coop.yaml",
        &format!(
            "id: loop-coop\nprovider: openai\nmodel: test-model\ninterface: generalist\nbase_url: {}/v1\nmax_retries: 0\n",
            server.base()
        ),
    );
    let out = dir.path().join("run");
    let o = run(&[
        "--registry",
        root.to_str().unwrap(),
        "run",
        "12_fireboy-and-watergirl+12_01+loop-coop,scripted",
        "--seed",
        "3",
        "--max-steps",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let received = server.finish();
    assert_eq!(received.len(), 3, "one call per step, Watergirl's only");
    assert!(
        received[0].body.to_string().contains("You play Watergirl"),
        "Watergirl's own role prompt"
    );

    // Per-role call records: Watergirl's file, none for the expert.
    let calls = jsonl(&out.join("model_calls.watergirl.jsonl"));
    let steps: Vec<u64> = calls.iter().map(|c| c["step"].as_u64().unwrap()).collect();
    assert_eq!(steps, [1, 2, 3]);
    assert!(!out.join("model_calls.fireboy.jsonl").exists());
    assert!(!out.join("model_calls.jsonl").exists());

    // Each trajectory line: one action/valid/invalid entry per role.
    let traj = jsonl(&out.join("trajectory.jsonl"));
    assert_eq!(traj.len(), 3);
    let water: Vec<(bool, Option<&str>)> = traj
        .iter()
        .map(|l| {
            let e = &l["roles"][0];
            assert_eq!(e["role"], "watergirl");
            (e["valid"].as_bool().unwrap(), e["invalid_kind"].as_str())
        })
        .collect();
    assert_eq!(
        water,
        [
            (true, None),
            (false, Some("no_tool_call")),
            (false, Some("out_of_space"))
        ]
    );
    assert_eq!(traj[0]["control"]["watergirl"], "move_right");
    assert_eq!(traj[0]["action"]["watergirl"]["key"], "d");
    for l in &traj {
        let e = &l["roles"][1];
        assert_eq!(e["role"], "fireboy");
        assert_eq!(e["model"], "scripted");
        assert_eq!(e["valid"], true);
        assert!(l["action"]["fireboy"].is_object());
    }
    assert_eq!(
        traj[1]["valid"], false,
        "a step is valid when every role's action is"
    );

    // result.json: the SPEC counts summed over roles, plus per-role counts and tokens.
    let r = read_json(&out.join("result.json"));
    assert_eq!(r["model"], "loop-coop,scripted");
    let counts = |v: &Value| {
        [
            "proposed_actions",
            "valid_actions",
            "invalid_no_tool_call",
            "invalid_out_of_space",
        ]
        .map(|k| v[k].as_u64().unwrap())
    };
    assert_eq!(counts(&r), [6, 4, 1, 1]);
    assert_eq!(counts(&r["roles"][0]), [3, 1, 1, 1]);
    assert_eq!(counts(&r["roles"][1]), [3, 3, 0, 0]);
    assert_eq!(r["roles"][0]["model"], "loop-coop");
    assert_eq!(r["roles"][0]["input_tokens"], 2100);
    assert_eq!(r["roles"][0]["output_tokens"], 30);
    assert_eq!(r["roles"][1]["input_tokens"], 0);
    assert_eq!(r["input_tokens"], 2100);
}
