//! Inference speed of a GOAP checkpoint: `cargo run --release -p gw-goap
//! --example infer_speed -- [CHECKPOINT_DIR] [STEPS]` (the shipped checkpoint
//! by default). Steps through rendered open-world frames on the calling
//! thread and prints milliseconds per step (network only, and with the
//! 64×64 view drawn).

use gw_goap::{Runner, Sampling};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let net = match args.get(1).filter(|a| *a != "-") {
        Some(p) => gw_goap::checkpoint::load(std::path::Path::new(p), &candle_core::Device::Cpu),
        None => gw_goap::agent::shipped(),
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let [w, h] = net.cfg.resolution;
    let (wu, hu) = (w as usize, h as usize);
    let mut world = gw_openworld::game::fresh_world(3, 0, &[]);
    let mut r = Runner::new(net, &gw_goap::goal_text("logs", 5), 1, Sampling::Sample).unwrap();
    let mut rgba = vec![0u8; wu * hu * 4];
    let (mut net_s, mut draw_s) = (0.0, 0.0);
    for _ in 0..steps {
        let t = Instant::now();
        gw_world::render::render_rgba(&world, wu, hu, &mut rgba, false);
        let mut rgb = vec![0; wu * hu * 3];
        gw_core::frame::rgba_to_rgb(&rgba, &mut rgb);
        draw_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let label = r.step(&rgb).unwrap();
        net_s += t.elapsed().as_secs_f64();
        world.step(&label.to_action());
    }
    println!(
        "{steps} steps at {w}x{h}: network {:.3} ms/step, drawing the view {:.3} ms/step",
        net_s * 1e3 / steps as f64,
        draw_s * 1e3 / steps as f64
    );
}
