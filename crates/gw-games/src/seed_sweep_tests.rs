//! Held-out seed sweep (ignored; run in release): plays the scripted expert
//! on every task at seeds the game tests never use, to show the experts are
//! policies that generalise rather than plans tuned to seeds 1..=5.
//!
//! ```text
//! nice -n 10 cargo test --release -p gw-games --lib seed_sweep -- --ignored --nocapture
//! ```
//!
//! Environment: `SWEEP_GAMES` (comma-separated game-id prefixes, default all),
//! `SWEEP_HELD` (how many seeds from 1000, default 20), `SWEEP_LARGE` (how
//! many large pseudo-random u64 seeds, default 5), `SWEEP_RANDOM=1` (also play
//! the random policy over the semantic controls on the held-out seeds).

use crate::testkit::{PlayResult, play_expert, play_random, registry, stepper};
use gw_core::Rng;

/// The held-out seeds: `held` seeds from 1000 and `large` large u64 seeds.
pub(crate) fn held_out_seeds(held: u64, large: usize) -> Vec<u64> {
    let mut seeds: Vec<u64> = (1000..1000 + held).collect();
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
        let tasks: Vec<String> = registry().tasks_of(game).map(|t| t.id.clone()).collect();
        for task in tasks {
            let budget = registry()
                .tasks
                .get(&(game.to_string(), task.clone()))
                .unwrap()
                .value
                .max_steps;
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
                    format!(
                        "  {}/{}",
                        r.iter().filter(|r| r.success).count(),
                        r.len()
                    )
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
            if rate < 0.8 {
                weak.push(format!("{game}+{task}"));
            }
        }
        eprintln!("[{game}: {:.1}s]", started.elapsed().as_secs_f64());
    }
    println!("below 80% held-out: {}", weak.join(", "));
}
