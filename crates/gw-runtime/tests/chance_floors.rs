//! Chance floors in reports: baseline runs (random, noop) give each task a
//! floor, tasks that chance solves half the time are flagged, and the
//! leaderboard gets a chance-adjusted progress column; baseline runs may sit
//! in the report's own folder or in a `--baselines` folder.

use gw_core::registry::Registry;
use gw_runtime::report::chance::adjust;
use gw_runtime::report::{write_report, write_report_with_baselines};
use gw_runtime::{RunOptions, run_preset};
use std::path::{Path, PathBuf};

fn registry() -> Registry {
    Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run(reg: &Registry, root: &Path, preset: &str, seed: u64) -> f64 {
    let out = root.join(preset).join(format!("seed-{seed}"));
    let opts = RunOptions {
        frames: false,
        ..RunOptions::new(preset, seed, out)
    };
    run_preset(reg, &opts).unwrap().progress
}

#[test]
fn report_shows_floors_flags_and_adjusted_progress() {
    let reg = registry();
    let tmp = tempfile::tempdir().unwrap();
    let (models, baselines) = (tmp.path().join("models"), tmp.path().join("baselines"));
    // 01_01 (reach 128 in 2048) is solved by random play; 05_03 is not.
    let tasks = ["01_2048+01_01", "05_breakout+05_03"];
    let mut floor = [0.0f64; 2];
    for (i, task) in tasks.iter().enumerate() {
        for agent in ["random", "noop"] {
            let pg: f64 = (1..=3)
                .map(|s| run(&reg, &baselines, &format!("{task}+{agent}"), s))
                .sum::<f64>()
                / 3.0;
            floor[i] = floor[i].max(pg);
        }
    }
    let mut scripted = Vec::new();
    for task in tasks {
        scripted.push(run(&reg, &models, &format!("{task}+scripted"), 1));
    }

    let s = write_report_with_baselines(
        std::slice::from_ref(&models),
        std::slice::from_ref(&baselines),
        &models,
    )
    .unwrap();
    assert_eq!(s.counts.runs, 2, "baseline runs feed only the floors");
    assert_eq!(s.chance_floors.len(), 2);
    let f01 = &s.chance_floors[0];
    assert_eq!(
        (f01.game_id.as_str(), f01.task_id.as_str()),
        ("01_2048", "01_01")
    );
    assert!(f01.flagged, "random solves 01_01: {f01:?}");
    assert_eq!(f01.agents["random"].runs, 3);
    assert!((f01.floor_pg - 100.0 * floor[0]).abs() < 1e-9);
    let f05 = &s.chance_floors[1];
    assert!(!f05.flagged, "{f05:?}");
    let row = &s.leaderboard[0];
    let want = 100.0 * (adjust(scripted[0], floor[0]) + adjust(scripted[1], floor[1])) / 2.0;
    let got = row.pg_chance_adjusted.expect("floors known for both tasks");
    assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    assert!(got < row.pg, "the 01_01 success is discounted");

    let md = std::fs::read_to_string(models.join("report.md")).unwrap();
    assert!(md.contains("PG above chance"), "{md}");
    assert!(md.contains("## Chance floors"));
    assert!(md.contains("| 01_2048+01_01 |"));
    assert!(md.contains("⚠"));
    let html = std::fs::read_to_string(models.join("report.html")).unwrap();
    assert!(html.contains("id=\"chance\""));

    // Baselines in the report's own folder count just the same.
    let s2 = write_report(
        &[models.clone(), baselines.clone()],
        &tmp.path().join("both"),
    )
    .unwrap();
    assert_eq!(s2.chance_floors, s.chance_floors);

    // Without any baseline run the report says how to get floors.
    let s3 = write_report(std::slice::from_ref(&models), &models).unwrap();
    assert!(s3.chance_floors.is_empty());
    assert_eq!(s3.leaderboard[0].pg_chance_adjusted, None);
    let md = std::fs::read_to_string(models.join("report.md")).unwrap();
    assert!(md.contains("--baselines DIR"));
}
