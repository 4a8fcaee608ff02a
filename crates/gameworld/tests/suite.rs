//! Suite runner end to end: expansion, error rows, crash safety with
//! SIGKILL + --resume, and sharding.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env(
        "GAMEWORLD_REGISTRY",
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
    );
    c.env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
    c
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Write a suite file `dir/s.yaml`.
fn suite_file(dir: &Path, yaml: &str) -> PathBuf {
    let path = dir.join("s.yaml");
    write(&path, yaml);
    path
}

/// result.json files under `dir`, keyed by their path relative to `dir`.
fn results(dir: &Path) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "result.json") {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(
                    rel,
                    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap(),
                );
            }
        }
    }
    out
}

fn strip_wall_clock(mut v: Value) -> Value {
    for k in ["wall_ms", "latency_ms"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn smoke_suite_runs_every_task_with_both_builtin_agents() {
    let dir = tempfile::tempdir().unwrap();
    let suite = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry/suites/smoke.yaml");
    let o = bin()
        .args([
            "suite",
            suite.to_str().unwrap(),
            "--max-parallel",
            "2",
            "--out",
            dir.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tasks: Value = serde_json::from_slice(
        &bin()
            .args(["list", "tasks", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    // The open world is not in `games: all` (its tasks run thousands of steps).
    let tasks = Value::Array(
        tasks
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["game_id"] != "openworld")
            .cloned()
            .collect(),
    );
    let n_tasks = tasks.as_array().unwrap().len();
    let res = results(dir.path());
    assert_eq!(res.len(), 2 * n_tasks);
    for t in tasks.as_array().unwrap() {
        for agent in ["random", "scripted"] {
            let key = format!(
                "runs/{}+{agent}/seed-1/rep-0/result.json",
                t["preset_prefix"].as_str().unwrap()
            );
            assert!(res.contains_key(&key), "missing {key}");
        }
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("suite.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["planned_runs"], 2 * n_tasks);
    for f in [
        "summary.json",
        "runs.csv",
        "by_model.csv",
        "report.md",
        "report.html",
    ] {
        assert!(dir.path().join(f).is_file(), "missing {f}");
    }
    // The summary's leaderboard equals a recomputation from the run directories.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    let board = summary["leaderboard"].as_array().unwrap();
    assert_eq!(board.len(), 2);
    for agent in ["random", "scripted"] {
        let mine: Vec<&Value> = res.values().filter(|r| r["model"] == agent).collect();
        let sr =
            100.0 * mine.iter().filter(|r| r["success"] == true).count() as f64 / mine.len() as f64;
        let pg = 100.0
            * mine
                .iter()
                .map(|r| r["progress"].as_f64().unwrap())
                .sum::<f64>()
            / mine.len() as f64;
        let row = board.iter().find(|r| r["model"] == agent).unwrap();
        assert_eq!(row["runs"], mine.len());
        assert!(
            (row["sr"].as_f64().unwrap() - sr).abs() < 1e-9,
            "{agent} SR"
        );
        assert!(
            (row["pg"].as_f64().unwrap() - pg).abs() < 1e-9,
            "{agent} PG"
        );
    }
    assert_eq!(
        board[0]["model"], "scripted",
        "the expert ranks first by PG"
    );
    let csv = std::fs::read_to_string(dir.path().join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * n_tasks);
}

#[test]
fn a_failing_run_becomes_an_error_row_and_the_suite_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let extra = dir.path().join("extra");
    // A registered game with no native implementation fails at run time.
    let game = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry/games/01_2048.yaml"),
    )
    .unwrap();
    write(
        &extra.join("games/99_ghost.yaml"),
        &game.replacen("id: 01_2048", "id: 99_ghost", 1),
    );
    write(
        &extra.join("tasks/99_ghost/99_01.yaml"),
        "id: 99_01\ngame_id: 99_ghost\ninstruction: Reach 8.\nscore_field: game_state.level\nstart: 0\ntarget: 8\n",
    );
    let suite = suite_file(
        dir.path(),
        "name: mixed\ncases:\n  - games: [99_ghost, 01_2048]\n    tasks: [99_01, 01_01]\n    models: [scripted]\n",
    );
    let out = dir.path().join("out");
    let o = bin()
        .args([
            "suite",
            suite.to_str().unwrap(),
            "--registry",
            extra.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("1 finished, 1 errors"), "{stdout}");
    let err: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("runs/99_ghost+99_01+scripted/seed-1/rep-0/error.json"))
            .unwrap(),
    )
    .unwrap();
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("has no native implementation")
    );
    assert!(
        out.join("runs/01_2048+01_01+scripted/seed-1/rep-0/result.json")
            .is_file()
    );
}

#[test]
fn bad_suites_are_configuration_errors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "name: x\ncases:\n  - games: [01_2048]\n    tasks: all\n    models: [gpt-nope]\n",
            "unknown model \"gpt-nope\"",
        ),
        (
            "name: x\ncases:\n  - games: [01_2048]\n    tasks: [13_01]\n    models: [random]\n",
            "task \"13_01\" belongs to none of the selected games",
        ),
        (
            "name: x\ncases:\n  - games: all\n    tasks: all\n    modelz: [random]\n",
            "s.yaml:",
        ),
        // Two runs would share one folder.
        (
            "name: x\ncases:\n  - games: [01_2048, 01_2048]\n    tasks: [01_01]\n    models: [noop]\n",
            "01_2048+01_01+noop with seed 1 is planned twice",
        ),
        (
            "name: x\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [noop]\nseeds: [4, 4]\n",
            "with seed 4 is planned twice",
        ),
        (
            "name: x\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [noop]\nmax_steps: 0\n",
            "max_steps must be at least 1",
        ),
        // A plan too large to hold is refused before it is expanded.
        (
            "name: x\ncases:\n  - games: all\n    tasks: all\n    models: [noop]\nrepeats: 1000000000\n",
            "more than the 250000 one suite may hold",
        ),
    ];
    for (text, msg) in cases {
        let suite = suite_file(dir.path(), text);
        let o = bin()
            .args([
                "suite",
                suite.to_str().unwrap(),
                "--out",
                dir.path().join("o").to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(msg),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let o = bin()
        .args(["suite", "registry/suites/smoke.yaml", "--shard", "4/3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A thread per run at once: an absurd count is refused, not started.
    let suite = suite_file(
        dir.path(),
        "name: x\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [noop]\nmax_steps: 1\n",
    );
    let o = bin()
        .args(["suite", suite.to_str().unwrap(), "--max-parallel", "100000"])
        .args(["--out", dir.path().join("p").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--max-parallel 100000 is more than 1024"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!dir.path().join("p/suite.json").exists());
}

/// A kill between a run's result.json and its `finished` log line (the
/// window `sigkill_then_resume…` can land in): the resumed suite skips the
/// run and writes the missing line from its result, marked `recovered`.
#[test]
fn resume_logs_a_finished_run_whose_line_a_kill_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(
        dir.path(),
        "name: cutoff\nseeds: [1, 2]\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [scripted]\n",
    );
    let out = dir.path().join("out");
    let run = |resume: bool| {
        let mut c = bin();
        c.args(["suite", suite.to_str().unwrap(), "--plain", "--out"])
            .arg(&out);
        if resume {
            c.arg("--resume");
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(false);
    let log_path = out.join("suite_log.jsonl");
    let log = std::fs::read_to_string(&log_path).unwrap();
    // Drop run 1's finished line, as a kill just before it would have.
    let kept: Vec<&str> = log
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            !(v["event"] == "finished" && v["index"] == 1)
        })
        .collect();
    assert_eq!(kept.len() + 1, log.lines().count());
    std::fs::write(&log_path, kept.join("\n") + "\n").unwrap();
    run(true);
    let finished: Vec<Value> = std::fs::read_to_string(&log_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"] == "finished")
        .collect();
    let of = |i: u64| {
        finished
            .iter()
            .filter(|v| v["index"] == i)
            .collect::<Vec<_>>()
    };
    assert_eq!(of(0).len(), 1, "run 0 keeps its one line");
    let recovered = of(1);
    assert_eq!(recovered.len(), 1, "run 1 gets its line back: {finished:?}");
    assert_eq!(recovered[0]["recovered"], true);
    let result: Value = serde_json::from_slice(
        &std::fs::read(
            out.join(recovered[0]["dir"].as_str().unwrap())
                .join("result.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(recovered[0]["success"], result["success"]);
    assert_eq!(recovered[0]["progress"], result["progress"]);
}

#[test]
fn sigkill_then_resume_runs_every_run_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    // Frames on and several seeds make the suite slow enough to kill mid-way.
    let suite = suite_file(
        dir.path(),
        "name: killme\nframes: true\nseeds: [1, 2]\ncases:\n  - games: [01_2048, 23_pacman]\n    tasks: all\n    models: [random, scripted]\n",
    );
    let out = dir.path().join("out");
    let expected = 2 * 5 * 2 * 2;
    let mut child = bin()
        .args([
            "suite",
            suite.to_str().unwrap(),
            "--max-parallel",
            "2",
            "--plain",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    loop {
        let n = results(&out).len();
        if n >= 5 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "suite made no progress"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = results(&out);
    assert!(
        before.len() < expected,
        "the suite finished before it could be killed"
    );
    let mtimes: BTreeMap<String, std::time::SystemTime> = before
        .keys()
        .map(|k| {
            (
                k.clone(),
                std::fs::metadata(out.join(k)).unwrap().modified().unwrap(),
            )
        })
        .collect();

    let o = bin()
        .args([
            "suite",
            suite.to_str().unwrap(),
            "--resume",
            "--max-parallel",
            "2",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&format!("{} skipped", before.len())),
        "{stdout}"
    );
    let after = results(&out);
    assert_eq!(after.len(), expected);
    for (k, v) in &before {
        assert_eq!(&after[k], v, "{k} changed on resume");
        assert_eq!(
            std::fs::metadata(out.join(k)).unwrap().modified().unwrap(),
            mtimes[k],
            "{k} was rewritten"
        );
    }
    // The log shows each run finished exactly once, and nothing finished was restarted.
    let log = std::fs::read_to_string(out.join("suite_log.jsonl")).unwrap();
    let mut finished: BTreeMap<u64, usize> = BTreeMap::new();
    let mut started_after_finish = Vec::new();
    for line in log.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let idx = v["index"].as_u64().unwrap();
        match v["event"].as_str().unwrap() {
            "finished" => *finished.entry(idx).or_default() += 1,
            "started" if finished.contains_key(&idx) => started_after_finish.push(idx),
            _ => {}
        }
    }
    assert_eq!(finished.len(), expected);
    assert!(finished.values().all(|&n| n == 1), "a run finished twice");
    assert!(
        started_after_finish.is_empty(),
        "finished runs restarted: {started_after_finish:?}"
    );
}

#[test]
fn shards_are_disjoint_and_cover_the_suite() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(
        dir.path(),
        "name: sharded\nseeds: [1, 2]\ncases:\n  - games: [01_2048, 27_stack]\n    tasks: all\n    models: [random, scripted]\n",
    );
    let full = dir.path().join("full");
    assert!(
        bin()
            .args([
                "suite",
                suite.to_str().unwrap(),
                "--out",
                full.to_str().unwrap()
            ])
            .output()
            .unwrap()
            .status
            .success()
    );
    let mut merged = BTreeMap::new();
    for i in 1..=3 {
        let out = dir.path().join(format!("shard{i}"));
        let mut cmd = bin();
        if i == 3 {
            // The last shard takes its slice from Slurm array variables.
            cmd.env("SLURM_ARRAY_TASK_ID", "2")
                .env("SLURM_ARRAY_TASK_COUNT", "3")
                .env("SLURM_ARRAY_TASK_MIN", "0");
            cmd.args([
                "suite",
                suite.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]);
        } else {
            cmd.args([
                "suite",
                suite.to_str().unwrap(),
                "--shard",
                &format!("{i}/3"),
                "--out",
                out.to_str().unwrap(),
            ]);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.join(format!("suite.shard-{i}-of-3.json")).is_file());
        for (k, v) in results(&out) {
            assert!(
                merged.insert(k.clone(), strip_wall_clock(v)).is_none(),
                "{k} ran in two shards"
            );
        }
    }
    let full_results: BTreeMap<String, Value> = results(&full)
        .into_iter()
        .map(|(k, v)| (k, strip_wall_clock(v)))
        .collect();
    assert_eq!(full_results.len(), 2 * 2 * 5 * 2);
    assert_eq!(merged, full_results);
    // `gameworld report` over the three shard outputs gives the unsharded report.
    let merged_dir = dir.path().join("merged");
    let mut args = vec!["report".to_string()];
    args.extend((1..=3).map(|i| {
        dir.path()
            .join(format!("shard{i}"))
            .to_string_lossy()
            .into_owned()
    }));
    args.extend([
        "--out".to_string(),
        merged_dir.to_string_lossy().into_owned(),
    ]);
    let o = bin().args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = |d: &Path| {
        without_wall_clock_keys(
            serde_json::from_str(&std::fs::read_to_string(d.join("summary.json")).unwrap())
                .unwrap(),
        )
    };
    assert_eq!(summary(&merged_dir), summary(&full));
}

/// Drop every key derived from wall-clock time (they contain `sec_per_step`).
fn without_wall_clock_keys(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(k, _)| !k.contains("sec_per_step"))
                .map(|(k, v)| (k, without_wall_clock_keys(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(without_wall_clock_keys).collect()),
        other => other,
    }
}

#[test]
fn registry_suites_expand_to_the_expected_plans() {
    use gw_core::registry::Registry;
    use gw_runtime::suite::{expand, load_suite};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
    let reg = Registry::load(std::slice::from_ref(&root)).unwrap();
    // `games: all` leaves out games marked `in_all: false` (the open world).
    let tasks = reg
        .tasks
        .values()
        .filter(|t| reg.game(&t.value.game_id).is_some_and(|g| g.in_all))
        .count();
    let plan = |name: &str| {
        expand(
            &load_suite(&root.join(format!("suites/{name}.yaml"))).unwrap(),
            &reg,
        )
        .unwrap()
    };
    assert_eq!(plan("smoke").len(), 2 * tasks);
    assert_eq!(plan("full").len(), 18 * tasks);
    let rep = plan("repeat10");
    assert_eq!(rep.len(), 10 * 4 * tasks);
    // Repeat waves: every run of repeat r comes before any run of repeat r + 1.
    assert!(rep.windows(2).all(|w| w[0].repeat <= w[1].repeat));
    let rt = plan("realtime");
    assert_eq!(rt.iter().filter(|r| r.realtime).count(), 4 * tasks);
    assert_eq!(rt.iter().filter(|r| !r.realtime).count(), 4 * tasks);
    let mem = plan("memory-ablation");
    assert_eq!(mem.len(), 3 * 2 * tasks);
    assert!(mem.iter().all(|r| r.memory_rounds.is_some()
        && r.dir.contains(&format!("mem{}-", r.memory_rounds.unwrap()))));
    let dirs: std::collections::BTreeSet<&String> = mem.iter().map(|r| &r.dir).collect();
    assert_eq!(dirs.len(), mem.len(), "run directories must be unique");
    // The chance floors: random and noop, ten seeds for every task.
    let base = plan("baselines");
    assert_eq!(base.len(), 2 * 10 * tasks);
    assert!(
        base.iter()
            .all(|r| r.preset.ends_with("+random") || r.preset.ends_with("+noop"))
    );
}

/// Lines of a JSONL file.
fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cooperative_suite_runs_resumes_and_reports_the_pair() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(
        dir.path(),
        "name: coop\nseeds: [1, 2]\nmax_steps: 15\ncases:\n  - games: [12_fireboy-and-watergirl]\n    tasks: [12_01]\n    models: [\"random,scripted\", scripted]\n",
    );
    let out = dir.path().join("out");
    let run = |resume: bool| {
        let mut args = vec!["suite", suite.to_str().unwrap(), "--plain"];
        if resume {
            args.push("--resume");
        }
        args.extend(["--out", out.to_str().unwrap()]);
        let o = bin().args(&args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    run(false);
    let res = results(&out);
    assert_eq!(res.len(), 4, "{:?}", res.keys());
    let pair = "runs/12_fireboy-and-watergirl+12_01+random,scripted";
    for seed in [1, 2] {
        let key = format!("{pair}/seed-{seed}/rep-0/result.json");
        let r = &res[&key];
        assert_eq!(r["model"], "random,scripted");
        let steps = r["steps"].as_u64().unwrap();
        assert!(steps > 0 && steps <= 15, "{steps}");
        // One proposal per role per step; the SPEC counts are the roles' sums.
        assert_eq!(r["proposed_actions"].as_u64(), Some(2 * steps));
        let roles = r["roles"].as_array().unwrap();
        let names: Vec<(&str, &str)> = roles
            .iter()
            .map(|x| (x["role"].as_str().unwrap(), x["model"].as_str().unwrap()))
            .collect();
        assert_eq!(names, [("watergirl", "random"), ("fireboy", "scripted")]);
        for field in [
            "proposed_actions",
            "valid_actions",
            "invalid_no_tool_call",
            "invalid_out_of_space",
        ] {
            let sum: u64 = roles.iter().map(|x| x[field].as_u64().unwrap()).sum();
            assert_eq!(r[field].as_u64(), Some(sum), "{field}");
        }
        for x in roles {
            assert_eq!(x["proposed_actions"].as_u64(), Some(steps));
        }
        // Each trajectory line holds one entry per role, in role order.
        let run_dir = out.join(key.trim_end_matches("/result.json"));
        let traj = jsonl(&run_dir.join("trajectory.jsonl"));
        assert_eq!(traj.len() as u64, steps);
        for line in &traj {
            let entries = line["roles"].as_array().unwrap();
            assert_eq!(entries.len(), 2);
            assert_eq!(entries[0]["role"], "watergirl");
            assert_eq!(entries[1]["role"], "fireboy");
            assert!(line["control"]["fireboy"].is_string());
        }
    }
    // The single-id case fills both roles with the expert.
    let solo = &res["runs/12_fireboy-and-watergirl+12_01+scripted/seed-1/rep-0/result.json"];
    assert_eq!(solo["roles"][0]["model"], "scripted");
    assert_eq!(solo["roles"][1]["model"], "scripted");

    // Resume skips all four finished runs and rewrites none of them.
    let stdout = run(true);
    assert!(stdout.contains("4 skipped"), "{stdout}");
    assert_eq!(results(&out), res);

    // The report lists the pair under its own name, next to the expert.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let board = summary["leaderboard"].as_array().unwrap();
    let models: Vec<&str> = board.iter().map(|r| r["model"].as_str().unwrap()).collect();
    assert!(models.contains(&"random,scripted"), "{models:?}");
    assert!(models.contains(&"scripted"), "{models:?}");
    let row = board
        .iter()
        .find(|r| r["model"] == "random,scripted")
        .unwrap();
    assert_eq!(row["runs"], 2);
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert_eq!(
        csv.lines()
            .filter(|l| l.contains("random,scripted"))
            .count(),
        2,
        "{csv}"
    );
}
