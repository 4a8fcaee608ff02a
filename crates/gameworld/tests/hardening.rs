//! Hardening through the real binary: no secret in any file or output
//! stream on each error path, no terminal escape sequences printed, suite
//! folders locked against a second suite (stale locks recovered) with no
//! finished result lost, failed runs counted even when their folder cannot
//! be written, suite names kept inside the output root, stale frames
//! removed, and hostile registry numbers rejected by `validate`.

#[path = "../../gw-runtime/tests/support/loopback.rs"]
mod loopback;

use loopback::{Server, openai_error, openai_text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const KEY: &str = "sk-hardening-SECRET-4242";
const KEY_ENV: &str = "GW_HARDENING_TEST_KEY";

fn gameworld(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .env(
            "GAMEWORLD_REGISTRY",
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
        )
        .env(KEY_ENV, KEY)
        .args(args)
        .output()
        .expect("binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A registry root with model `m` talking to `base_url` with the test key.
fn model_root(dir: &Path, base_url: &str) -> PathBuf {
    let root = dir.join("reg");
    std::fs::create_dir_all(root.join("models")).unwrap();
    let yaml = format!(
        "id: m\nprovider: openai\nmodel: test-model\nbase_url: \"{base_url}\"\napi_key_env: {KEY_ENV}\nmax_retries: 1\nretry_backoff_s: 0.01\ntimeout_s: 10\nmemory_rounds: 1\n"
    );
    std::fs::write(root.join("models/m.yaml"), yaml).unwrap();
    root
}

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The key in no file under `dir` and in neither stream; no escape
/// sequence in either stream. Returns the number of files checked.
fn assert_clean(dir: &Path, o: &Output, what: &str) -> usize {
    let mut files = Vec::new();
    all_files(dir, &mut files);
    // The registry root is the user's own input (a key in a base_url there
    // is theirs); everything else was written by gameworld.
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "reg"));
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        assert!(
            !text(&bytes).contains(KEY),
            "{what}: the key is in {}",
            f.display()
        );
    }
    for (name, stream) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
        let s = text(stream);
        assert!(!s.contains(KEY), "{what}: the key is on {name}: {s}");
        assert!(
            !s.contains('\u{1b}'),
            "{what}: an escape sequence on {name}: {s:?}"
        );
    }
    files.len()
}

fn run_preset(dir: &Path, root: &Path, out: &str) -> Output {
    gameworld(&[
        "run",
        "01_2048+01_01+m",
        "--registry",
        root.to_str().unwrap(),
        "--out",
        dir.join(out).to_str().unwrap(),
        "--max-steps",
        "3",
    ])
}

#[test]
fn no_secret_in_any_file_or_stream_on_each_error_path() {
    let dir = tempfile::tempdir().unwrap();

    // 1. A rejected key whose error body echoes the key (and an escape).
    let server = Server::start(vec![openai_error(
        401,
        &format!("Incorrect API key provided: {KEY}\u{1b}]0;owned\u{7}"),
    )]);
    let root = model_root(&dir.path().join("a"), &format!("{}/v1", server.base()));
    let o = run_preset(dir.path(), &root, "a/run");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("HTTP 401"), "{}", text(&o.stderr));
    server.finish();
    assert!(assert_clean(&dir.path().join("a"), &o, "401") >= 3);

    // 2. A 404 whose hint prints a base_url that carries the key.
    let server = Server::start(vec![openai_error(404, "no such model")]);
    let root = model_root(
        &dir.path().join("b"),
        &format!("{}/v1/{KEY}", server.base()),
    );
    let o = run_preset(dir.path(), &root, "b/run");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("check model"),
        "{}",
        text(&o.stderr)
    );
    server.finish();
    assert_clean(&dir.path().join("b"), &o, "404 hint");

    // 3. A transport error (nothing listens) naming a URL with the key.
    let root = model_root(&dir.path().join("c"), &format!("http://127.0.0.1:1/{KEY}"));
    let o = run_preset(dir.path(), &root, "c/run");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("[REDACTED]"),
        "{}",
        text(&o.stderr)
    );
    assert_clean(&dir.path().join("c"), &o, "transport");

    // 4. Model text that repeats the key (with terminal escapes), then a
    // server error body that echoes it: trajectory, calls, result, streams.
    let server = Server::start(vec![
        openai_text(&format!("my key is {KEY} \u{1b}[2J\u{1b}[31m"), (10, 5)),
        openai_error(500, &format!("upstream saw {KEY} \u{1b}[31mred")),
        openai_error(500, &format!("upstream saw {KEY} \u{1b}[31mred")),
    ]);
    let root = model_root(&dir.path().join("d"), &format!("{}/v1", server.base()));
    let o = run_preset(dir.path(), &root, "d/run");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    server.finish();
    let traj = std::fs::read_to_string(dir.path().join("d/run/trajectory.jsonl")).unwrap();
    assert!(traj.contains("my key is [REDACTED]"), "{traj}");
    assert_clean(&dir.path().join("d"), &o, "model text");

    // 5. The same failures inside a suite: suite_log, error log, summary,
    // CSVs, report.md and report.html.
    let server = Server::start(vec![
        openai_text(&format!("again {KEY}"), (10, 5)),
        openai_error(401, &format!("bad key {KEY}")),
    ]);
    let root = model_root(&dir.path().join("e"), &format!("{}/v1", server.base()));
    let suite = dir.path().join("e/s.yaml");
    std::fs::write(
        &suite,
        "name: secret-suite\ncases:\n  - games: [\"01_2048\"]\n    tasks: [\"01_01\"]\n    models: [m]\nmax_steps: 3\n",
    )
    .unwrap();
    let out = dir.path().join("e/out");
    let o = gameworld(&[
        "suite",
        suite.to_str().unwrap(),
        "--registry",
        root.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--plain",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    server.finish();
    for f in [
        "summary.json",
        "runs.csv",
        "report.md",
        "report.html",
        "suite_log.jsonl",
        "suite_errors.jsonl",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert_clean(&dir.path().join("e"), &o, "suite");
}

fn small_suite(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(format!("{name}.yaml"));
    std::fs::write(
        &p,
        format!("name: {name}\ncases:\n  - games: [\"01_2048\"]\n    tasks: all\n    models: [random, noop]\nseeds: [1, 2]\nmax_steps: 12\n"),
    )
    .unwrap();
    p
}

fn suite(file: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "suite",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--plain",
        "--max-parallel",
        "1",
    ];
    args.extend_from_slice(extra);
    gameworld(&args)
}

/// Every run directory of `out` holds a parseable result.json whose step
/// count matches its trajectory.
fn assert_runs_intact(out: &Path, expected: usize) {
    let mut files = Vec::new();
    all_files(out, &mut files);
    let results: Vec<&PathBuf> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "result.json"))
        .collect();
    assert_eq!(results.len(), expected, "finished results");
    for r in results {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(r).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        let traj = std::fs::read_to_string(r.with_file_name("trajectory.jsonl")).unwrap();
        assert_eq!(
            traj.lines().count() as u64,
            v["steps"].as_u64().unwrap(),
            "{}",
            r.display()
        );
        for line in traj.lines() {
            serde_json::from_str::<Value>(line).unwrap();
        }
    }
    for line in std::fs::read_to_string(out.join("suite_log.jsonl"))
        .unwrap()
        .lines()
    {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    }
}

#[test]
fn concurrent_suites_on_one_folder_lose_no_finished_result() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_suite(dir.path(), "shared");
    let out = dir.path().join("out");
    // 5 tasks × 2 agents × 2 seeds = 20 runs; two suites start together.
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_gameworld"))
            .env(
                "GAMEWORLD_REGISTRY",
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
            )
            .args([
                "suite",
                file.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--plain",
                "--max-parallel",
                "1",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let a = spawn();
    let b = spawn();
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let codes = [a.status.code(), b.status.code()];
    assert!(
        codes.contains(&Some(0)),
        "{codes:?} {} {}",
        text(&a.stderr),
        text(&b.stderr)
    );
    for o in [&a, &b] {
        if o.status.code() != Some(0) {
            // The loser names the holder and the lock, and wrote nothing.
            assert_eq!(o.status.code(), Some(2));
            let err = text(&o.stderr);
            assert!(
                err.contains("in use by another gameworld suite (pid "),
                "{err}"
            );
            assert!(err.contains("suite.lock"), "{err}");
        }
    }
    assert_runs_intact(&out, 20);
    assert!(!out.join("suite.lock").exists(), "the lock is released");

    // A second full (non-resume) pass over the finished folder replaces
    // results atomically: every result is still there afterwards.
    let o = suite(&file, &out, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_runs_intact(&out, 20);
}

#[test]
fn a_live_lock_is_an_error_and_a_stale_one_is_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_suite(dir.path(), "locked");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    // Held by a live process (this test).
    let me = std::process::id();
    std::fs::write(out.join("suite.lock"), format!("{me}\n")).unwrap();
    let o = suite(&file, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains(&format!("pid {me}")),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.join("runs").exists(), "nothing ran");
    assert_eq!(
        std::fs::read_to_string(out.join("suite.lock"))
            .unwrap()
            .trim(),
        me.to_string(),
        "someone else's lock is left alone"
    );
    // Left by a process that has exited: taken over, then released.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    std::fs::write(out.join("suite.lock"), format!("{dead}\n")).unwrap();
    let o = suite(&file, &out, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_runs_intact(&out, 20);
    assert!(!out.join("suite.lock").exists());
}

#[test]
fn a_run_whose_folder_cannot_be_written_is_still_counted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.yaml");
    std::fs::write(
        &file,
        "name: blocked\ncases:\n  - games: [\"01_2048\"]\n    tasks: [\"01_01\", \"01_02\"]\n    models: [random]\nmax_steps: 5\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    // A file where the run folder must go: the folder cannot be created.
    let blocked = out.join("runs/01_2048+01_01+random/seed-1");
    std::fs::create_dir_all(blocked.parent().unwrap()).unwrap();
    std::fs::write(&blocked, "not a folder").unwrap();
    let o = suite(&file, &out, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("1 errors"), "{}", text(&o.stdout));
    let log = std::fs::read_to_string(out.join("suite_errors.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(log.contains("01_2048+01_01+random"), "{log}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["counts"]["runs"], 2, "{}", summary["counts"]);
    assert_eq!(summary["counts"]["failed"], 1, "{}", summary["counts"]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("01_2048+01_01+random"));
    // `gameworld report` alone rebuilds the same count from the folder.
    let o = gameworld(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("1 failed"), "{}", text(&o.stdout));
}

#[test]
fn suite_names_stay_inside_the_output_root() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["../escape", "/abs/path", "a/b", "..", "a\\\\b"] {
        let file = dir.path().join("bad.yaml");
        std::fs::write(
            &file,
            format!("description: x\nname: \"{name}\"\ncases:\n  - games: [\"01_2048\"]\n    tasks: [\"01_01\"]\n    models: [noop]\n"),
        )
        .unwrap();
        let o = gameworld(&["suite", file.to_str().unwrap(), "--plain"]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = text(&o.stderr);
        assert!(err.contains("bad.yaml:2:1: suite name"), "{name}: {err}");
    }
    assert!(!dir.path().join("escape").exists());
    // `validate` checks the suites of a registry root the same way.
    let root = dir.path().join("reg");
    std::fs::create_dir_all(root.join("suites")).unwrap();
    std::fs::write(
        root.join("suites/evil.yaml"),
        "name: ../../evil\ncases:\n  - games: all\n    tasks: all\n    models: [noop]\n",
    )
    .unwrap();
    let o = gameworld(&["validate", "--registry", root.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("evil.yaml:1:1: suite name"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_rerun_removes_stale_frames_and_keeps_no_temp_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let args = |frames: bool| {
        let mut a = vec![
            "run",
            "01_2048+01_01+random",
            "--out",
            out.to_str().unwrap(),
            "--max-steps",
            "3",
        ];
        if !frames {
            a.push("--no-frames");
        }
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |frames: bool| {
        let a = args(frames);
        gameworld(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert!(run(true).status.success());
    std::fs::write(out.join("frames/step_000099.png"), b"stale").unwrap();
    assert!(run(true).status.success());
    let mut frames: Vec<String> = std::fs::read_dir(out.join("frames"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    frames.sort();
    assert_eq!(
        frames,
        [
            "step_000000.png",
            "step_000001.png",
            "step_000002.png",
            "step_000003.png"
        ]
    );
    assert!(run(false).status.success());
    assert!(
        !out.join("frames").exists(),
        "frames of an earlier run are gone"
    );
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

#[test]
fn hostile_registry_numbers_fail_validate_without_panic_or_hang() {
    let dir = tempfile::tempdir().unwrap();
    let reg = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
    let cases: Vec<(&str, String, &str)> = vec![
        ("models/slow.yaml", "id: slow\nprovider: openai\nmodel: x\ntimeout_s: 1e30\n".into(), "slow.yaml:4:1: timeout_s is too large"),
        (
            "games/01_2048.yaml",
            std::fs::read_to_string(reg.join("games/01_2048.yaml")).unwrap().replace("speed_multiplier: 1.0", "speed_multiplier: 1e12"),
            "01_2048.yaml:7:1: speed_multiplier is too large",
        ),
        (
            "games/01_2048.yaml",
            std::fs::read_to_string(reg.join("games/01_2048.yaml")).unwrap().replace("{width: 1280, height: 720}", "{width: 100000, height: 100000}"),
            "01_2048.yaml:6:1: viewport 100000x100000 is outside 1x1..8192x8192",
        ),
        (
            "games/01_2048.yaml",
            std::fs::read_to_string(reg.join("games/01_2048.yaml")).unwrap().replace("{width: 1280, height: 720}", "{width: 0, height: 0}"),
            "01_2048.yaml:6:1: viewport 0x0 is outside",
        ),
        ("tasks/01_2048/01_77.yaml", "id: \"01_77\"\ngame_id: \"01_2048\"\ninstruction: x\nscore_field: game_state.nope\nstart: 0\ntarget: 8\n".into(), "01_77.yaml:4:14: score_field \"game_state.nope\" is not in the state"),
        (
            "models/laughs.yaml",
            {
                let mut y = String::from("id: laughs\nprovider: openai\nmodel: x\nextra_body:\n  a: &a [x, x, x, x, x, x, x, x, x]\n");
                for (name, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().zip(["a", "b", "c", "d", "e", "f", "g", "h"]) {
                    y.push_str(&format!("  {name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(", ")));
                }
                y
            },
            "anchors and aliases (*name) that repeat large blocks",
        ),
        ("models/mem.yaml", "id: mem\nprovider: openai\nmodel: x\nmemory_include_fields: [screenshot, feelings]\n".into(), "mem.yaml:4:1: unknown memory_include_fields entry \"feelings\""),
    ];
    for (rel, yaml, want) in cases {
        let root = dir.path().join(rel.replace('/', "_"));
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, yaml).unwrap();
        let o = gameworld(&["validate", "--registry", root.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{rel}");
        let err = text(&o.stderr);
        assert!(err.contains(want), "{rel}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // And the shipped registry passes.
    let o = gameworld(&["validate"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

#[test]
fn run_out_pointing_at_a_file_is_a_configuration_error_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "kept").unwrap();
    let o = gameworld(&[
        "run",
        "01_2048+01_01+noop",
        "--max-steps",
        "1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("is a file, not a folder"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
}

#[test]
fn serve_with_a_file_as_runs_folder_is_a_configuration_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("runs");
    std::fs::write(&file, "kept").unwrap();
    let o = gameworld(&["serve", "--port", "0", "--runs", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--runs"), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
}
