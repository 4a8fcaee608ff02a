//! Held-out seed sweep (ignored; run in release): plays the scripted expert
//! on every task at seeds the game tests never use, to show the experts are
//! policies that generalise rather than plans tuned to seeds 1..=5.
//!
//! ```text
//! nice -n 10 cargo test --release -p gw-games --lib seed_sweep -- --ignored --nocapture
//! ```
//!
//! Environment: `SWEEP_GAMES` (comma-separated game-id prefixes, default all),
//! `SWEEP_FROM` (first held-out seed, default 1000), `SWEEP_HELD` (how many
//! seeds from there, default 20), `SWEEP_LARGE` (how
//! many large pseudo-random u64 seeds, default 5), `SWEEP_RANDOM=1` (also play
//! the random policy over the semantic controls on the held-out seeds).

use crate::testkit::{
    PlayResult, max_steps, play_expert, play_random, registry, stepper, task_ids,
};
use gw_core::Rng;

/// The held-out seeds: `held` seeds from `from` and `large` large u64 seeds.
pub(crate) fn held_out_seeds(from: u64, held: u64, large: usize) -> Vec<u64> {
    let mut seeds: Vec<u64> = (from..from + held).collect();
    let mut rng = Rng::new(0x5eed_5eed, 7);
    for _ in 0..large {
        seeds.push(rng.next_u64() | (1 << 63));
    }
    seeds
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Semantic control ids that take no parameter (the random baseline's
/// choices); empty for multi-role games.
fn plain_controls(game_id: &str, task_id: &str) -> Vec<String> {
    let s = stepper(game_id, task_id, 1);
    if s.role_names().len() > 1 {
        return Vec::new();
    }
    s.semantic_map()
        .controls()
        .iter()
        .filter(|c| c.required.is_empty() && c.cell_bindings.is_none())
        .map(|c| c.id.clone())
        .collect()
}

#[test]
#[ignore = "release-mode sweep over held-out seeds; run with --ignored --nocapture"]
fn seed_sweep() {
    let filter: Vec<String> = std::env::var("SWEEP_GAMES")
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    let held = held_out_seeds(
        env_num("SWEEP_FROM", 1000),
        env_num("SWEEP_HELD", 20),
        env_num("SWEEP_LARGE", 5) as usize,
    );
    let with_random = std::env::var("SWEEP_RANDOM").is_ok_and(|v| v == "1");
    println!(
        "{:<44} {:>5} {:>7} {:>10} {:>7} {:>6}{}",
        "task",
        "1..5",
        "held",
        "meansteps",
        "budget",
        "rate",
        if with_random { "  random" } else { "" }
    );
    let mut weak = Vec::new();
    for game in crate::GAME_IDS {
        if !filter.is_empty() && !filter.iter().any(|f| game.starts_with(f.as_str())) {
            continue;
        }
        let started = std::time::Instant::now();
        for task in task_ids(game) {
            let budget = max_steps(game, &task);
            let base: Vec<PlayResult> = (1..=5).map(|s| play_expert(game, &task, s)).collect();
            let out: Vec<PlayResult> = held.iter().map(|&s| play_expert(game, &task, s)).collect();
            let base_wins = base.iter().filter(|r| r.success).count();
            let wins = out.iter().filter(|r| r.success).count();
            let mean = out.iter().map(|r| r.steps as f64).sum::<f64>() / out.len() as f64;
            let rate = wins as f64 / out.len() as f64;
            let random = if with_random {
                let ids = plain_controls(game, &task);
                if ids.is_empty() {
                    "  -".to_string()
                } else {
                    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
                    let r = play_random(game, &task, held.iter().copied(), &refs, 3);
                    format!("  {}/{}", r.iter().filter(|r| r.success).count(), r.len())
                }
            } else {
                String::new()
            };
            let lost: Vec<String> = held
                .iter()
                .zip(&out)
                .filter(|(_, r)| !r.success)
                .map(|(s, r)| format!("{s}:{}", r.best_score))
                .collect();
            println!(
                "{:<44} {:>3}/5 {:>3}/{:<3} {:>10.1} {:>7} {:>5.0}%{}{}",
                format!("{game}+{task}"),
                base_wins,
                wins,
                out.len(),
                mean,
                budget,
                rate * 100.0,
                random,
                if lost.is_empty() {
                    String::new()
                } else {
                    format!("  lost {}", lost.join(" "))
                }
            );
            if rate < 0.8 && !crate::testkit::out_of_reach(game, &task) {
                weak.push(format!("{game}+{task}"));
            }
        }
        eprintln!("[{game}: {:.1}s]", started.elapsed().as_secs_f64());
    }
    println!("below 80% held-out: {}", weak.join(", "));
}

/// Chance floors on held-out seeds (ignored; run in release): per task, how
/// many plays the `noop` policy (the role's wait control every step) and the
/// random policy over the plain semantic controls win, with their mean best
/// progress. Same environment as [`seed_sweep`] (`SWEEP_GAMES`,
/// `SWEEP_FROM`, `SWEEP_HELD`; no large seeds unless `SWEEP_LARGE`).
#[test]
#[ignore = "release-mode chance sweep over held-out seeds; run with --ignored --nocapture"]
fn chance_sweep() {
    let filter: Vec<String> = std::env::var("SWEEP_GAMES")
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
        .unwrap_or_default();
    let held = held_out_seeds(
        env_num("SWEEP_FROM", 1000),
        env_num("SWEEP_HELD", 20),
        env_num("SWEEP_LARGE", 0) as usize,
    );
    println!("{:<44} {:>12} {:>12}", "task", "noop", "random");
    for game in crate::GAME_IDS {
        if !filter.is_empty() && !filter.iter().any(|f| game.starts_with(f.as_str())) {
            continue;
        }
        for task in task_ids(game) {
            let ids = plain_controls(game, &task);
            if ids.is_empty() {
                println!("{:<44} {:>12} {:>12}", format!("{game}+{task}"), "-", "-");
                continue;
            }
            let target = registry()
                .tasks
                .get(&(game.to_string(), task.clone()))
                .expect("task")
                .value
                .clone();
            let progress = |r: &PlayResult| {
                ((r.best_score - target.start) / (target.target - target.start)).clamp(0.0, 1.0)
            };
            let summary = |rs: &[PlayResult]| {
                let wins = rs.iter().filter(|r| r.success).count();
                let pg = rs.iter().map(progress).sum::<f64>() / rs.len() as f64;
                format!("{wins}/{} {:.2}", rs.len(), pg)
            };
            let wait = stepper(game, &task, 1)
                .semantic_map()
                .controls()
                .iter()
                .find(|c| c.binding.get("action").and_then(|a| a.as_str()) == Some("wait"))
                .map(|c| c.id.clone());
            let noop: Vec<PlayResult> = held
                .iter()
                .map(|&seed| {
                    crate::testkit::play(game, &task, seed, |_| {
                        wait.as_ref().map(|id| serde_json::json!({"action": id}))
                    })
                })
                .collect();
            let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
            let random = play_random(game, &task, held.iter().copied(), &refs, 3);
            println!(
                "{:<44} {:>12} {:>12}",
                format!("{game}+{task}"),
                summary(&noop),
                summary(&random)
            );
        }
    }
}

/// Print the task's state fields and the expert's payload at every step of
/// one play: `SWEEP_TRACE=game_id,task_id,seed` (a diagnostic for a seed the
/// sweep reports lost).
#[test]
#[ignore = "diagnostic; run with SWEEP_TRACE=game,task,seed --ignored --nocapture"]
fn seed_trace() {
    let Ok(spec) = std::env::var("SWEEP_TRACE") else {
        return;
    };
    let parts: Vec<&str> = spec.split(',').collect();
    assert_eq!(parts.len(), 3, "SWEEP_TRACE wants game_id,task_id,seed");
    let (game, task) = (parts[0], parts[1]);
    let seed: u64 = parts[2].parse().expect("seed is a u64");
    let fields = registry()
        .tasks
        .get(&(game.to_string(), task.to_string()))
        .expect("task")
        .value
        .state_fields
        .clone();
    let mut s = stepper(game, task, seed);
    while s.finished().is_none() {
        let payload = if s.role_names().len() > 1 {
            serde_json::Value::Null
        } else {
            s.expert_payload()
        };
        let state = crate::testkit::expert_step(&mut s);
        let cells: Vec<String> = fields
            .iter()
            .map(|f| {
                let v = gw_core::state::lookup(&state, f)
                    .cloned()
                    .unwrap_or_default();
                format!("{}={v}", f.rsplit('.').next().unwrap_or(f))
            })
            .collect();
        println!("{:>3} {payload} {}", s.step_index(), cells.join(" "));
    }
    println!("success {}", s.evaluator().success());
}

/// Always-run held-out checks: each game's expert on
/// [`crate::testkit::HELD_OUT_SEEDS`] (all three seeds, or the first `n` for
/// the games whose plays are slow in debug builds), at least 80% of the plays
/// won and a win on every task.
macro_rules! held_out {
    ($($name:ident: $module:ident, $n:expr;)*) => {
        $(
            #[test]
            fn $name() {
                crate::testkit::assert_expert_generalises(
                    crate::$module::ID,
                    &crate::testkit::HELD_OUT_SEEDS[..$n],
                    0.8,
                );
            }
        )*
    };
}

held_out! {
    held_out_g01: g01_2048, 3;
    held_out_g02: g02_another_gentlemans_adventure, 3;
    held_out_g03: g03_astray, 3;
    held_out_g04: g04_boxel_rebound, 3;
    held_out_g05: g05_breakout, 3;
    held_out_g06: g06_captaincallisto, 3;
    held_out_g07: g07_chrome_dino, 3;
    held_out_g08: g08_core_ball, 3;
    held_out_g09: g09_cubefield, 3;
    held_out_g10: g10_doodle_jump, 3;
    held_out_g11: g11_edge_surf, 3;
    held_out_g12: g12_fireboy_and_watergirl, 3;
    held_out_g13: g13_flappy_bird, 3;
    held_out_g14: g14_geodash, 3;
    held_out_g15: g15_google_snake, 3;
    held_out_g16: g16_hextris, 3;
    held_out_g17: g17_mario_game, 3;
    held_out_g18: g18_minecraft_clone, 3;
    held_out_g19: g19_minesweeper, 3;
    held_out_g20: g20_monkey_mart, 3;
    held_out_g21: g21_ns_shaft, 3;
    held_out_g22: g22_ovo, 3;
    held_out_g23: g23_pacman, 3;
    held_out_g24: g24_restless_wing_syndrome, 3;
    held_out_g25: g25_rocket_league_2d, 3;
    held_out_g26: g26_run_3, 3;
    held_out_g27: g27_stack, 3;
    held_out_g28: g28_temple_run_2, 3;
    held_out_g29: g29_tetris, 3;
    held_out_g30: g30_vex_3, 3;
    held_out_g31: g31_wolf3d, 3;
    held_out_g32: g32_wordle, 3;
    held_out_g33: g33_worlds_hardest_game, 3;
    held_out_g34: g34_worlds_hardest_game_2, 3;
}
