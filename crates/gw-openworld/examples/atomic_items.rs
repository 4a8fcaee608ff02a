//! Items per episode of the fair expert on the eight atomic tasks (Optimus-2
//! Table 2 and the MGOA tasks), each episode two game minutes in the
//! benchmark's fresh world with the task's kit, plus the share of idle steps
//! and of VPT-exact actions: `cargo run --release -p gw-openworld --example
//! atomic_items -- [EPISODES] [FIRST_SEED] [TASK,…]`.

use gw_openworld::Expert;
use gw_openworld::game::{fresh_world, item_matches};
use std::time::Instant;

/// A task id, its target item and the kit it starts with.
type Task = (&'static str, &'static str, &'static [(&'static str, u32)]);

const TASKS: [Task; 8] = [
    ("atomic_logs", "logs", &[]),
    ("atomic_seeds", "wheat_seeds", &[]),
    ("atomic_dirt", "dirt", &[]),
    ("atomic_stone", "cobblestone", &[("wooden_pickaxe", 1)]),
    ("atomic_iron", "iron_ore", &[("stone_pickaxe", 1)]),
    ("atomic_gold", "gold_ore", &[("iron_pickaxe", 1)]),
    ("atomic_diamond", "diamond", &[("iron_pickaxe", 1)]),
    ("atomic_redstone", "redstone", &[("iron_pickaxe", 1)]),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let episodes: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9000);
    let only: Vec<String> = args
        .get(3)
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let d = gw_world::data();
    for (id, target, kit) in TASKS {
        if !only.is_empty() && !only.iter().any(|o| o == id) {
            continue;
        }
        let t0 = Instant::now();
        let kit: Vec<(String, u32)> = kit.iter().map(|(n, c)| (n.to_string(), *c)).collect();
        let (mut items, mut idle, mut exact, mut steps, mut worst_idle) =
            (0u64, 0u64, 0u64, 0u64, 0f64);
        let mut per = Vec::new();
        for seed in first..first + episodes {
            let mut w = fresh_world(seed, 0, &kit);
            let mut ex = Expert::new(target, gw_openworld::expert::KEEP_COLLECTING);
            let mut ep_idle = 0;
            for _ in 0..2400 {
                if w.player.dead {
                    w.respawn();
                }
                let a = ex.act(&w);
                ep_idle += (a == gw_world::Action::noop()) as u64;
                exact += (gw_world::action::vpt_exact(&a) == a) as u64;
                w.step(&a);
                steps += 1;
            }
            let got: u32 = w
                .obtained
                .iter()
                .filter(|(i, _)| item_matches(target, d.item_name(**i)))
                .map(|(_, n)| *n)
                .sum();
            items += got as u64;
            idle += ep_idle;
            worst_idle = worst_idle.max(ep_idle as f64 / 2400.0);
            per.push(got);
        }
        println!(
            "{id:16} items/episode {:6.2}  idle {:5.1}% (worst episode {:5.1}%)  vpt-exact {:6.2}%  per episode {per:?}  wall {:.1}s",
            items as f64 / episodes as f64,
            100.0 * idle as f64 / steps as f64,
            100.0 * worst_idle,
            100.0 * exact as f64 / steps as f64,
            t0.elapsed().as_secs_f64()
        );
    }
}
