//! The scripted expert beats the random agent on every native game, and the
//! `noop` agent runs cleanly, through the full runtime (run directories and all).

use gw_core::registry::Registry;
use gw_runtime::{RunOptions, RunResult, run_preset};
use std::path::PathBuf;

fn registry() -> Registry {
    Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run(reg: &Registry, preset: &str, seed: u64, dir: &std::path::Path) -> RunResult {
    let opts = RunOptions {
        frames: false,
        ..RunOptions::new(preset, seed, dir.join(format!("{preset}-{seed}")))
    };
    run_preset(reg, &opts).unwrap_or_else(|e| panic!("{preset}: {e}"))
}

#[test]
fn scripted_beats_random_on_every_game() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    for game in gw_games::GAME_IDS {
        if !reg.game(game).is_some_and(|g| g.in_all) {
            // The open world's 100 long tasks have their own expert tests.
            continue;
        }
        let tasks: Vec<String> = reg.tasks_of(game).map(|t| t.id.clone()).collect();
        assert_eq!(tasks.len(), 5, "{game}");
        let (mut scripted, mut random) = (0.0, 0.0);
        for task in &tasks {
            for seed in 1..=2 {
                scripted +=
                    run(&reg, &format!("{game}+{task}+scripted"), seed, dir.path()).progress;
                let r = run(&reg, &format!("{game}+{task}+random"), seed, dir.path());
                // A cooperative step is one proposal per role.
                let spec = reg.game(game).unwrap();
                let per_step = if spec.is_cooperative() {
                    spec.roles.len() as u32
                } else {
                    1
                };
                assert_eq!(r.proposed_actions, r.steps * per_step);
                assert_eq!(
                    r.valid_actions,
                    r.steps * per_step,
                    "{game}+{task}: random proposes only legal actions"
                );
                random += r.progress;
            }
        }
        assert!(
            scripted > random,
            "{game}: scripted progress {scripted} should beat random {random}"
        );
    }
}

#[test]
fn noop_waits_out_the_budget() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let r = run(&reg, "01_2048+01_01+noop", 1, dir.path());
    assert_eq!(r.steps, 100);
    assert_eq!(r.stop_reason, "max_steps_exhausted");
    assert!(!r.success);
    assert_eq!(r.valid_actions, 100);
    // 100 one-second waits on the simulated clock.
    assert_eq!(r.game_time_ms, 100_000);
}

#[test]
fn max_steps_override_and_realtime_flag() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let opts = RunOptions {
        realtime: true,
        max_steps: Some(7),
        ..RunOptions::new("01_2048+01_05+random", 3, dir.path().join("short"))
    };
    let r = run_preset(&reg, &opts).unwrap();
    assert_eq!(r.steps, 7);
    assert!(r.realtime);
    assert_eq!(r.max_steps, 7);
    assert_eq!(
        std::fs::read_dir(dir.path().join("short/frames"))
            .unwrap()
            .count(),
        8
    );
}
