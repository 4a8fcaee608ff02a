//! Limits through the command line: `suite --resume` refuses a changed
//! plan, `import-reference` imports the games whose folders are there, and
//! a browser game without its folder is the only game that cannot run.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env("GAMEWORLD_REGISTRY", root().join("registry"));
    c.env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
    c
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn suite(dir: &Path, max_steps: u32) -> PathBuf {
    let path = dir.join("s.yaml");
    write(
        &path,
        &format!(
            "name: s\nmax_steps: {max_steps}\nseeds: [1, 2]\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [random]\n"
        ),
    );
    path
}

fn run_suite(file: &Path, out: &Path, resume: bool) -> Output {
    let mut c = bin();
    c.arg("suite").arg(file).arg("--out").arg(out);
    if resume {
        c.arg("--resume");
    }
    c.output().unwrap()
}

#[test]
fn resume_refuses_a_plan_that_changed_and_names_the_change() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let o = run_suite(&suite(tmp.path(), 5), &out, false);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let manifest = read_json(&out.join("suite.json"));
    assert_eq!(
        manifest["fingerprint"]["runs"].as_object().unwrap().len(),
        2
    );
    let before = std::fs::read_to_string(out.join("suite.json")).unwrap();

    // Same plan: resumes (nothing to do).
    let o = run_suite(&suite(tmp.path(), 5), &out, true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // max_steps 5 → 10: refused before anything is written.
    let o = run_suite(&suite(tmp.path(), 10), &out, true);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("max_steps 5 → 10") && err.contains("--resume"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("suite.json")).unwrap(),
        before
    );

    // A registry entry the runs use changed: named too.
    let reg = tmp.path().join("reg");
    let task = std::fs::read_to_string(root().join("registry/tasks/01_2048/01_01.yaml")).unwrap();
    write(
        &reg.join("tasks/01_2048/01_01.yaml"),
        &task.replace("target: 32", "target: 64"),
    );
    let o = bin()
        .arg("--registry")
        .arg(&reg)
        .arg("suite")
        .arg(suite(tmp.path(), 5))
        .arg("--out")
        .arg(&out)
        .arg("--resume")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("task 01_2048+01_01"),
        "{}",
        text(&o)
    );

    // Adding seeds keeps the finished runs and runs only the new one.
    let path = tmp.path().join("s.yaml");
    write(
        &path,
        "name: s\nmax_steps: 5\nseeds: [1, 2, 3]\ncases:\n  - games: [01_2048]\n    tasks: [01_01]\n    models: [random]\n",
    );
    let o = run_suite(&path, &out, true);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A catalog with the fixture's game plus one whose folder is missing.
fn partial_catalog(dir: &Path) -> PathBuf {
    let fixture = root().join("crates/gw-browser/tests/fixtures/catalog");
    let cat = dir.join("catalog");
    for sub in ["games", "models", "tasks/orb_catch"] {
        std::fs::create_dir_all(cat.join(sub)).unwrap();
        for e in std::fs::read_dir(fixture.join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, cat.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    let game = std::fs::read_to_string(cat.join("games/orb_catch.yaml")).unwrap();
    write(&cat.join("games/gone_game.yaml"), &game);
    for e in std::fs::read_dir(cat.join("tasks/orb_catch")).unwrap() {
        let p = e.unwrap().path();
        let t = std::fs::read_to_string(&p)
            .unwrap()
            .replace("orb_catch", "gone_game");
        let name = p
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace("orb_catch", "gone_game");
        write(&cat.join("tasks/gone_game").join(name), &t);
    }
    cat
}

#[test]
fn import_reference_imports_the_games_that_are_there() {
    let tmp = tempfile::tempdir().unwrap();
    let cat = partial_catalog(tmp.path());
    let out = tmp.path().join("imported");
    let o = bin()
        .arg("import-reference")
        .arg("--catalog")
        .arg(&cat)
        .arg("--games")
        .arg(root().join("examples/browser/web"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("gone_game") && err.contains("not imported"),
        "{err}"
    );
    let report = read_json(&out.join("import-report.json"));
    assert_eq!(report["games"], 1);
    assert_eq!(report["missing_games"][0]["id"], "gone_game");
    assert_eq!(report["missing_games"][0]["tasks_skipped"], 2);
    assert!(!out.join("games/gone_game.yaml").exists());
    assert!(!out.join("tasks/gone_game").exists());
    // What was written loads.
    let o = bin()
        .arg("--registry")
        .arg(&out)
        .arg("validate")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // No game folder at all: a clear refusal, nothing written.
    let none = tmp.path().join("none");
    let o = bin()
        .arg("import-reference")
        .arg("--catalog")
        .arg(&cat)
        .arg("--games")
        .arg(tmp.path().join("empty"))
        .arg("--out")
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("none of the 2 catalog games"));
    assert!(!none.join("games").exists());
}

#[test]
fn a_browser_game_without_its_folder_is_the_only_one_that_cannot_run() {
    let tmp = tempfile::tempdir().unwrap();
    let reg = tmp.path().join("reg");
    let fixture = root().join("crates/gw-browser/tests/fixtures/catalog");
    // Import the fixture, then take its folder away.
    let games = tmp.path().join("games");
    let src = root().join("examples/browser/web/orb_catch");
    std::fs::create_dir_all(games.join("orb_catch")).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, games.join("orb_catch").join(p.file_name().unwrap())).unwrap();
        }
    }
    let o = bin()
        .arg("import-reference")
        .arg("--catalog")
        .arg(&fixture)
        .arg("--games")
        .arg(&games)
        .arg("--out")
        .arg(&reg)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::remove_dir_all(&games).unwrap();

    let o = bin()
        .arg("--registry")
        .arg(&reg)
        .args(["run", "orb_catch+orb_catch_01+random", "--out"])
        .arg(tmp.path().join("r1"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("orb_catch") && err.contains("has no index.html") && err.contains("--games"),
        "{err}"
    );
    let o = bin()
        .arg("--registry")
        .arg(&reg)
        .args([
            "run",
            "01_2048+01_01+random",
            "--max-steps",
            "2",
            "--no-frames",
            "--out",
        ])
        .arg(tmp.path().join("r2"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = bin()
        .arg("--registry")
        .arg(&reg)
        .arg("validate")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning: "));
}
