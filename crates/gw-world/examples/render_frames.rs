//! Render first-person frames of a world walked by a fixed pseudo-random
//! policy, for profiling the renderer (e.g. under `valgrind --tool=callgrind`)
//! and for looking at frames.
//!
//! `cargo run --release -p gw-world --example render_frames -- W H STEPS [OUT_DIR|-] [BLOCK]`
//! renders one frame per step on one thread (one ray per BLOCK × BLOCK
//! pixels, default 1, as `render_rgba_blocky`); with OUT_DIR it writes every
//! 10th frame there as `frame_NNNN.png`. W or H 0 steps without rendering.
//! It prints the world build time and the mean time per step.

use gw_world::{Action, World, WorldConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (w, h, steps) = (num(0, 64), num(1, 64), num(2, 200));
    let out = args.get(3).filter(|d| *d != "-");
    let block = num(4, 1);
    let t0 = std::time::Instant::now();
    let mut world = World::new(WorldConfig {
        seed: 1,
        start_inventory: vec![("iron_pickaxe".into(), 1)],
        ..Default::default()
    });
    let built = t0.elapsed();
    let mut rng = gw_core::Rng::new(1, 77);
    let t1 = std::time::Instant::now();
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
        if w == 0 || h == 0 {
            continue;
        }
        gw_world::render::render_rgba_blocky(&world, w, h, block, &mut buf, false);
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
    let per = t1.elapsed().as_secs_f64() / steps.max(1) as f64;
    println!(
        "{w}x{h} block {block}: {steps} steps, checksum {sum:016x}, world built in {:.2} ms, {:.3} ms per step ({:.0} steps/s)",
        built.as_secs_f64() * 1e3,
        per * 1e3,
        1.0 / per
    );
}
