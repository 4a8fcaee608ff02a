//! Reset-on-fail keeps the failure visible: frame N shows trajectory row N's
//! state (the mine that was hit), the restarted game gets its own frame, and
//! the failing frame differs from it.

mod support;

use gw_core::frame::frame_hash;
use gw_runtime::{RunOptions, run_preset};
use serde_json::Value;
use std::path::Path;
use support::{decode_png, registry};

fn count_rgb(rgb: &[u8], colour: [u8; 3]) -> usize {
    rgb.chunks_exact(3).filter(|p| *p == colour).count()
}

/// Run `preset` with frames and return the trajectory rows and the run dir.
fn run_with_frames(preset: &str, seed: u64, out: &Path) -> Vec<Value> {
    let opts = RunOptions::new(preset, seed, out);
    run_preset(&registry(), &opts).unwrap_or_else(|e| panic!("{preset}: {e}"));
    std::fs::read_to_string(out.join("trajectory.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The steps whose action failed an episode (the next row is a new episode).
fn failing_steps(rows: &[Value]) -> Vec<u64> {
    rows.windows(2)
        .filter(|w| w[1]["episode"] != w[0]["episode"])
        .map(|w| w[0]["step"].as_u64().unwrap())
        .collect()
}

#[test]
fn minesweeper_failure_frame_shows_the_hit_mine() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let rows = run_with_frames("19_minesweeper+19_01+random", 1, &out);
    let fails = failing_steps(&rows);
    assert!(!fails.is_empty(), "random should hit a mine on seed 1");
    for n in fails {
        let row = &rows[n as usize - 1];
        assert_eq!(row["state"]["terminal"]["outcome"], "fail", "row {n}");
        let fail = decode_png(&out.join(format!("frames/step_{n:06}.png")));
        let reset = decode_png(&out.join(format!("frames/step_{n:06}_reset.png")));
        assert_ne!(frame_hash(&fail), frame_hash(&reset), "step {n}");
        // The exploded mine's red cell is on the failure frame only.
        let red = [230, 40, 40];
        assert!(count_rgb(&fail, red) > 1000, "step {n}: no hit mine drawn");
        assert_eq!(
            count_rgb(&reset, red),
            0,
            "step {n}: the reset board is fresh"
        );
    }
}

#[test]
fn every_reset_on_fail_game_draws_its_failure_before_restarting() {
    let reg = registry();
    let dir = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for game in gw_games::GAME_IDS {
        let Some(task) = reg.tasks_of(game).find(|t| t.continue_on_fail) else {
            continue;
        };
        let out = dir.path().join(game);
        let preset = format!("{game}+{}+random", task.id);
        let rows = run_with_frames(&preset, 3, &out);
        for n in failing_steps(&rows) {
            seen += 1;
            let fail = std::fs::read(out.join(format!("frames/step_{n:06}.png"))).unwrap();
            let reset = std::fs::read(out.join(format!("frames/step_{n:06}_reset.png"))).unwrap();
            assert_ne!(
                fail, reset,
                "{preset}: step {n} frame shows the restarted game"
            );
            assert_eq!(
                rows[n as usize - 1]["state"]["terminal"]["isTerminal"],
                true,
                "{preset}: row {n}"
            );
        }
    }
    assert!(seen >= 5, "only {seen} failures seen across the games");
}
