//! Render first-person frames of a world walked by a fixed pseudo-random
//! policy, for profiling the renderer (e.g. under `valgrind --tool=callgrind`)
//! and for looking at frames.
//!
//! `cargo run --release -p gw-world --example render_frames -- W H STEPS [OUT_DIR]`
//! renders one frame per step on one thread; with OUT_DIR it writes every
//! 10th frame there as `frame_NNNN.png`.

use gw_world::{Action, World, WorldConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (w, h, steps) = (num(0, 64), num(1, 64), num(2, 200));
    let out = args.get(3);
    let mut world = World::new(WorldConfig {
        seed: 1,
        start_inventory: vec![("iron_pickaxe".into(), 1)],
        ..Default::default()
    });
    let mut rng = gw_core::Rng::new(1, 77);
    let mut buf = vec![0u8; w * h * 4];
    let mut sum = 0u64;
    for i in 0..steps {
        let a = Action {
            forward: rng.chance(0.6),
            jump: rng.chance(0.1),
            attack: rng.chance(0.4),
            yaw: rng.range_f64(-10.0, 10.0) as f32,
            pitch: rng.range_f64(-3.0, 3.0) as f32,
            ..Default::default()
        };
        world.step(&a);
        gw_world::render::render_rgba(&world, w, h, &mut buf, false);
        sum = buf
            .iter()
            .fold(sum, |s, &b| s.wrapping_mul(31).wrapping_add(b as u64));
        if let Some(dir) = out
            && i % 10 == 0
        {
            let rgb: Vec<u8> = buf.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
            let png = gw_core::frame::encode_png(&rgb, w as u32, h as u32);
            std::fs::write(format!("{dir}/frame_{i:04}.png"), png).expect("write frame");
        }
    }
    println!("{w}x{h} {steps} steps, checksum {sum:016x}");
}
