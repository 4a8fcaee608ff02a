//! `gameworld report`: exit 2 without runs, and merging shard folders.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env(
        "GAMEWORLD_REGISTRY",
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
    );
    c
}

#[test]
fn report_without_runs_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let o = bin().arg("report").arg(tmp.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no runs found"));
    assert!(!tmp.path().join("report.html").exists());
}

#[test]
fn report_merges_shard_folders_into_out() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, out) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("out"),
    );
    for (dir, preset) in [
        (&a, "01_2048+01_01+random"),
        (&b, "27_stack+27_01+scripted"),
    ] {
        let run = dir.join("runs").join(preset).join("seed-1").join("rep-0");
        let o = bin()
            .args(["run", preset, "--no-frames", "--max-steps", "20", "--out"])
            .arg(&run)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = bin()
        .arg("report")
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["counts"]["runs"], 2);
    assert_eq!(s["counts"]["models"], 2);
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("href=\"../a/runs/01_2048+01_01+random/seed-1/rep-0/\""));
}
