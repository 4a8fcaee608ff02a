//! Items a GOAP checkpoint collects per episode on an atomic task, as the
//! benchmark counts them (two game minutes, 2,400 steps, fresh worlds):
//! `cargo run --release -p gw-goap --example policy_items -- [CHECKPOINT_DIR|-]
//! [TARGET] [EPISODES] [FIRST_SEED] [sample|greedy] [MIN_P] [TEMPERATURE]` (the shipped
//! checkpoint, `logs`, 6 episodes from seed 1, decoded as the built-in
//! `goap` decodes by default). Prints items per seed, the mean and the share of
//! seeds with at least one item.

use gw_goap::{Runner, Sampling};
use gw_openworld::game::{fresh_world, item_matches};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map(String::as_str).filter(|a| *a != "-");
    let load = || {
        match arg(1) {
            Some(p) => {
                gw_goap::checkpoint::load(std::path::Path::new(p), &candle_core::Device::Cpu)
            }
            None => gw_goap::agent::shipped(),
        }
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let target = arg(2).unwrap_or("logs").to_string();
    let episodes: u64 = arg(3).and_then(|s| s.parse().ok()).unwrap_or(6);
    let first: u64 = arg(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let sampling = match arg(5) {
        Some("greedy") => Sampling::Greedy,
        _ => Sampling::Sample,
    };
    let min_p: f64 = arg(6)
        .and_then(|s| s.parse().ok())
        .unwrap_or(gw_goap::infer::MIN_P);
    let temperature: f64 = arg(7)
        .and_then(|s| s.parse().ok())
        .unwrap_or(gw_goap::agent::BUILTIN_TEMPERATURE);
    let d = gw_world::data();
    let (mut total, mut some) = (0u32, 0u64);
    for seed in first..first + episodes {
        let net = load();
        let [w, h] = net.cfg.resolution;
        let (wu, hu) = (w as usize, h as usize);
        let mut runner = Runner::new(net, &gw_goap::goal_text(&target, 64), seed, sampling)
            .unwrap_or_else(|e| panic!("{e}"));
        runner.min_p = min_p;
        runner.temperature = temperature;
        let mut world = fresh_world(seed, 0, &[]);
        let (mut rgba, mut rgb) = (vec![0u8; wu * hu * 4], vec![0u8; wu * hu * 3]);
        let (mut attack, mut forward, mut on_log) = (0, 0, 0);
        let start = world.player.body.pos;
        let mut aims: std::collections::BTreeMap<String, u32> = Default::default();
        let mut pitch = 0.0;
        for _ in 0..2400 {
            if world.player.dead {
                world.respawn();
            }
            gw_world::render::render_rgba(&world, wu, hu, &mut rgba, false);
            gw_core::frame::rgba_to_rgb(&rgba, &mut rgb);
            let label = runner.step(&rgb).unwrap_or_else(|e| panic!("{e}"));
            let a = label.to_action();
            attack += a.attack as u32;
            forward += a.forward as u32;
            pitch += world.player.pitch as f64 / 2400.0;
            let aim = world
                .target()
                .map_or("nothing".to_string(), |t| d.block(t.block).name.clone());
            *aims.entry(aim).or_default() += 1;
            on_log += world
                .target()
                .is_some_and(|t| d.block(t.block).name.ends_with("_log"))
                as u32;
            world.step(&a);
        }
        let got: u32 = world
            .obtained
            .iter()
            .filter(|(id, _)| item_matches(&target, d.item_name(**id)))
            .map(|(_, n)| *n)
            .sum();
        let p = world.player.body.pos;
        let moved = ((p[0] - start[0]).powi(2) + (p[2] - start[2]).powi(2)).sqrt();
        let mut aims: Vec<(u32, String)> = aims.into_iter().map(|(k, v)| (v, k)).collect();
        aims.sort_by(|a, b| b.cmp(a));
        aims.truncate(3);
        println!("  mean pitch {pitch:.0}, most aimed at {aims:?}");
        println!(
            "seed {seed}: {got} {target} (attack {:.0}%, forward {:.0}%, aiming at a log {:.0}% of steps; ended {moved:.0} blocks from the start)",
            attack as f64 / 24.0,
            forward as f64 / 24.0,
            on_log as f64 / 24.0,
        );
        total += got;
        some += (got > 0) as u64;
    }
    println!(
        "{target}: {:.2} per episode over {episodes} seeds from {first}; at least one on {some}/{episodes}",
        total as f64 / episodes as f64
    );
}
