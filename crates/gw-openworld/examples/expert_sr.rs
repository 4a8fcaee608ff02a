//! Success rate of the expert per long-horizon group over seeds, each run in
//! a freshly generated world: `cargo run --release -p gw-openworld --example
//! expert_sr -- [SEEDS] [TARGET,…]` (env FIRST_SEED, ALL_SEEING, VERBOSE).

use gw_openworld::expert::{
    LONG_HORIZON as GROUPS, minutes_to_steps, run_knowing, time_limit_minutes,
};
use gw_openworld::sight::Knowledge;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seeds: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let only: Vec<String> = args
        .get(2)
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let verbose = std::env::var("VERBOSE").is_ok();
    // ALL_SEEING=1: the all-seeing expert (solvability), else the fair one.
    let knowledge = if std::env::var("ALL_SEEING").is_ok() {
        Knowledge::AllSeeing
    } else {
        Knowledge::Fair
    };
    let first: u64 = std::env::var("FIRST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let t0 = Instant::now();
    for (group, targets) in GROUPS {
        let limit = minutes_to_steps(time_limit_minutes(group));
        let mut group_ok = 0;
        let mut group_n = 0;
        for t in *targets {
            if !only.is_empty() && !only.iter().any(|o| o == t || o == group) {
                continue;
            }
            let t1 = Instant::now();
            let mut ok = 0;
            let mut steps = 0;
            for seed in first..first + seeds {
                let r = run_knowing(knowledge, t, 1, seed, limit);
                ok += r.success as u32;
                steps += r.steps;
                if verbose && !r.success {
                    eprintln!(
                        "FAIL {t} seed {seed}: deaths {} replans {}",
                        r.deaths, r.replans
                    );
                    for l in r.log.iter().rev().take(4).rev() {
                        eprintln!("    {l}");
                    }
                }
            }
            group_ok += ok;
            group_n += seeds as u32;
            println!(
                "{group:9} {t:20} SR {:5.1}%  mean steps {:6}  wall {:.1}s",
                100.0 * ok as f64 / seeds as f64,
                steps / seeds,
                t1.elapsed().as_secs_f64()
            );
        }
        if group_n > 0 {
            println!(
                "== {group}: SR {:.1}%",
                100.0 * group_ok as f64 / group_n as f64
            );
        }
    }
    println!("total wall {:.1}s", t0.elapsed().as_secs_f64());
}
