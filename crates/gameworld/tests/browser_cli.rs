//! `gameworld` with browser games (examples/browser, the project's HTML5
//! test game): runs, determinism, reset-on-fail by reload, a mixed suite,
//! the importer, and the clear failure without Chromium. Tests that need
//! Chromium print a note and pass when it is not installed.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env("GAMEWORLD_REGISTRY", root().join("registry"));
    c.arg("--registry").arg(root().join("examples/browser"));
    c
}

fn has_chromium() -> bool {
    match gw_browser::find_chromium() {
        Ok(_) => true,
        Err(_) => {
            eprintln!(
                "note: Chromium is not installed; browser run tests skipped (apt-get install chromium)"
            );
            false
        }
    }
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn trajectory(dir: &Path) -> Vec<Value> {
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
fn browser_run_is_real_and_reproducible() {
    if !has_chromium() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for dir in [&a, &b] {
        let o = bin()
            .args([
                "run",
                "web_orb_catch+catch_3+random",
                "--seed",
                "3",
                "--out",
            ])
            .arg(dir)
            .output()
            .unwrap();
        ok(&o);
    }
    let ra = read_json(&a.join("result.json"));
    assert_eq!(ra["game_id"], "web_orb_catch");
    assert!(ra["steps"].as_u64().unwrap() >= 1);
    let ta = trajectory(&a);
    assert_eq!(ta.len() as u64, ra["steps"].as_u64().unwrap());
    // Scores come from the page.
    assert_eq!(ta[0]["state"]["gameId"], "web_orb_catch");
    assert_eq!(ta[0]["state"]["schemaVersion"], "2.0");
    assert!(
        ta.iter()
            .all(|r| r["state"]["game_state"]["score"].is_number())
    );
    // Same seed ⇒ same run.
    let rb = read_json(&b.join("result.json"));
    for k in [
        "steps",
        "episodes",
        "best_score",
        "progress",
        "success",
        "stop_reason",
    ] {
        assert_eq!(ra[k], rb[k], "{k}");
    }
    assert_eq!(ta, trajectory(&b));
    // Real screenshots at the game's viewport.
    let png = std::fs::read(a.join("frames/step_000001.png")).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (800, 600));
    let first = &buf[..3];
    assert!(
        buf.chunks(info.line_size / info.width as usize)
            .any(|p| &p[..3] != first),
        "frame is blank"
    );
}

#[test]
fn reset_on_fail_reloads_the_page() {
    if !has_chromium() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let o = bin()
        .args([
            "run",
            "web_orb_catch+level_3_fast+random",
            "--seed",
            "2",
            "--no-frames",
            "--out",
        ])
        .arg(tmp.path())
        .output()
        .unwrap();
    ok(&o);
    let r = read_json(&tmp.path().join("result.json"));
    // One life at level 3 against a random player: episodes fail, the page
    // reloads, and the next episode starts fresh.
    assert!(r["episodes"].as_u64().unwrap() >= 2, "{r}");
    let t = trajectory(tmp.path());
    let fail = t
        .iter()
        .position(|r| r["state"]["terminal"]["outcome"] == "fail")
        .unwrap();
    assert_eq!(t[fail + 1]["episode"], 1);
    assert_eq!(
        t[fail + 1]["state"]["game_state"]["lives"],
        1,
        "a fresh game after the reload"
    );
    assert_eq!(
        t[fail + 1]["state"]["game_state"]["level"],
        3,
        "the URL suffix survives the reload"
    );
}

#[test]
fn mixed_suite_reports_native_and_browser_together() {
    if !has_chromium() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let o = bin()
        .arg("suite")
        .arg(root().join("examples/browser/suites/mixed.yaml"))
        .args(["--plain", "--max-parallel", "2", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    ok(&o);
    let csv = std::fs::read_to_string(tmp.path().join("runs.csv")).unwrap();
    assert!(
        csv.contains("01_2048") && csv.contains("web_orb_catch"),
        "{csv}"
    );
    let summary = read_json(&tmp.path().join("summary.json"));
    let text = summary.to_string();
    assert!(text.contains("web_orb_catch") && text.contains("01_2048"));
}

#[test]
fn without_chromium_browser_runs_fail_clearly_and_native_runs_do_not() {
    let tmp = tempfile::tempdir().unwrap();
    let o = bin()
        .env("GAMEWORLD_CHROMIUM", "/nonexistent/chromium")
        .args(["run", "web_orb_catch+catch_3+random", "--out"])
        .arg(tmp.path().join("b"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("apt-get install chromium") && err.contains("web_orb_catch"),
        "{err}"
    );
    let o = bin()
        .env("GAMEWORLD_CHROMIUM", "/nonexistent/chromium")
        .env("PATH", "/nonexistent")
        .args([
            "run",
            "01_2048+01_01+random",
            "--max-steps",
            "3",
            "--no-frames",
            "--out",
        ])
        .arg(tmp.path().join("n"))
        .output()
        .unwrap();
    ok(&o);
}

#[test]
fn import_reference_converts_and_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("imported");
    let o = bin()
        .arg("import-reference")
        .arg("--catalog")
        .arg(root().join("crates/gw-browser/tests/fixtures/catalog"))
        .arg("--games")
        .arg(root().join("examples/browser/web"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    ok(&o);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("imported 1 games, 2 tasks, 1 models"),
        "{stdout}"
    );
    // Unsupported fields are named, not dropped silently.
    for field in [
        "background_music",
        "end_value",
        "judge_prompt",
        "thinking_budget",
        "pause_during_inference",
    ] {
        assert!(stdout.contains(field), "{field} not reported:\n{stdout}");
    }
    let report = read_json(&out.join("import-report.json"));
    assert_eq!(report["games"], 1);
    // The output is a registry our loader accepts, with the browser fields.
    let game = std::fs::read_to_string(out.join("games/orb_catch.yaml")).unwrap();
    assert!(game.contains("backend: browser"), "{game}");
    let task = std::fs::read_to_string(out.join("tasks/orb_catch/orb_catch_01.yaml")).unwrap();
    assert!(
        task.contains("url_suffix") && task.contains("?level=2"),
        "{task}"
    );
    let reg = gw_core::registry::Registry::load(&[root().join("registry"), out.clone()]).unwrap();
    let g = reg.game("orb_catch").unwrap();
    assert_eq!((g.viewport.width, g.viewport.height), (800, 600));
    assert!(g.folder().unwrap().join("index.html").is_file());
    let pop = g.roles[0]
        .semantic_controls
        .iter()
        .find(|c| c.id == "pop_cell")
        .unwrap();
    assert_eq!(
        pop.cell_bindings.as_ref().unwrap()["middle"],
        [400.0, 300.0]
    );
    assert_eq!(g.roles[0].key_durations.as_ref().unwrap()["ArrowLeft"], 0.3);
    let t2 = &reg.tasks[&("orb_catch".to_string(), "orb_catch_02".to_string())].value;
    assert_eq!(t2.aggregate_score_fields.as_ref().unwrap().len(), 2);
    assert!(!t2.continue_on_fail);
    assert_eq!(
        reg.models["claude-test-cua"].value.interface,
        gw_core::registry::Interface::ComputerUse
    );

    // And its task runs in the browser.
    if has_chromium() {
        let o = bin()
            .arg("--registry")
            .arg(&out)
            .args([
                "run",
                "orb_catch+orb_catch_01+random",
                "--max-steps",
                "3",
                "--no-frames",
                "--out",
            ])
            .arg(tmp.path().join("run"))
            .output()
            .unwrap();
        ok(&o);
        let t = trajectory(&tmp.path().join("run"));
        assert_eq!(t[0]["state"]["game_state"]["level"], 2);
    }
}
