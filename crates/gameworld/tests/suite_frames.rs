//! What a suite leaves for the viewer and for `gameworld verify`: a bounded
//! frame set by default (`frames: all | sparse | none`, `true`/`false`
//! kept), the outcome of every finished run in the progress lines, and
//! `verify` over the suite folder.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

fn suite(dir: &Path, frames_line: &str) -> (Output, PathBuf) {
    let file = dir.join("s.yaml");
    std::fs::write(
        &file,
        format!(
            "name: f\ncases:\n  - games: [\"13_flappy-bird\"]\n    tasks: [\"13_01\"]\n    models: [random, noop]\nmax_steps: 45\n{frames_line}\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let o = bin()
        .args([
            "suite",
            file.to_str().unwrap(),
            "--plain",
            "--max-parallel",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (o, out)
}

fn run_dir(out: &Path, model: &str) -> PathBuf {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(out.join("suite.json")).unwrap()).unwrap();
    let run = manifest["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["preset"].as_str().unwrap().ends_with(model))
        .unwrap();
    out.join(run["dir"].as_str().unwrap())
}

fn frames(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir.join("frames"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn suites_keep_a_sparse_frame_set_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = suite(dir.path(), "");
    let run = run_dir(&out, "+random");
    let kept = frames(&run);
    let traj: Vec<Value> = std::fs::read_to_string(run.join("trajectory.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let steps = traj.len() as u32;
    let mut expected = BTreeSet::new();
    expected.insert("step_000000.png".to_string());
    expected.insert(format!("step_{steps:06}.png"));
    for (i, line) in traj.iter().enumerate() {
        let step = i as u32 + 1;
        if step.is_multiple_of(10) {
            expected.insert(format!("step_{step:06}.png"));
        }
        // A failed episode: its frame and the restarted game's.
        if i + 1 < traj.len() && traj[i + 1]["episode"] != line["episode"] {
            expected.insert(format!("step_{step:06}.png"));
            expected.insert(format!("step_{step:06}_reset.png"));
        }
    }
    assert_eq!(kept, expected);
    assert!(kept.len() < steps as usize, "a bounded set, not every step");
    assert!(
        expected.iter().any(|f| f.ends_with("_reset.png")),
        "random flapping crashes at least once in 45 steps"
    );

    // Every finished run's line says how it ended.
    let err = String::from_utf8_lossy(&o.stderr);
    let noop_line = err
        .lines()
        .find(|l| l.contains("+noop seed"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        noop_line.contains(": failed: ") && noop_line.contains("progress 0.00"),
        "{noop_line}"
    );

    // The suite folder verifies, run by run.
    let v = bin().arg("verify").arg(&out).output().unwrap();
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(
        v.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&v.stderr)
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("verified ")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("2 of 2 runs verified"), "{text}");
}

#[test]
fn frames_all_none_and_the_old_booleans() {
    for (line, all) in [
        ("frames: all", Some(true)),
        ("frames: true", Some(true)),
        ("frames: none", None),
        ("frames: false", None),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (_, out) = suite(dir.path(), line);
        let run = run_dir(&out, "+noop");
        let kept = frames(&run);
        match all {
            Some(_) => assert_eq!(
                kept.iter().filter(|f| !f.ends_with("_reset.png")).count(),
                46,
                "{line}: every step and the first"
            ),
            None => assert!(!run.join("frames").exists(), "{line}"),
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.yaml");
    std::fs::write(
        &file,
        "name: f\ncases:\n  - games: all\n    tasks: all\n    models: [noop]\nframes: some\n",
    )
    .unwrap();
    let o = bin()
        .args(["suite", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("not one of all, sparse, none"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn verify_names_the_doctored_step_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let o = bin()
        .args([
            "run",
            "05_breakout+05_01+random",
            "--seed",
            "3",
            "--max-steps",
            "20",
            "--no-frames",
        ])
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = bin().arg("verify").arg(&run).output().unwrap();
    assert_eq!(v.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("verified "));

    let path = run.join("trajectory.jsonl");
    let mut lines: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[13]["progress"] = serde_json::json!(0.5);
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let v = bin().arg("verify").arg(&run).output().unwrap();
    assert_eq!(v.status.code(), Some(1));
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(text.contains("step 14: progress recorded 0.5"), "{text}");

    let missing = bin()
        .arg("verify")
        .arg(dir.path().join("nope"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
}
