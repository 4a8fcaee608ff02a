//! The render phases of `gameworld bench --games openworld`, alone, for
//! profiling and for comparing two builds: a world of seed 1 walked by
//! [`Action::random`] (the bench's mix) for `PREWALK` steps without
//! frames (the bench's simulation phase walks about as far), then `STEPS`
//! steps with a `W` × `H` frame each on one thread.
//!
//! `cargo run --release -p gw-world --example bench_walk -- W H STEPS [PREWALK]`
//! (defaults 64 64 2000 1000000) prints the mean time per rendered step
//! and a checksum of every 16th frame: two builds that draw the same bytes
//! print the same checksum.

use gw_world::{Action, World, WorldConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (w, h, steps, prewalk) = (num(0, 64), num(1, 64), num(2, 2000), num(3, 1_000_000));
    let mut world = World::new(WorldConfig {
        seed: 1,
        start_inventory: vec![("iron_pickaxe".into(), 1)],
        ..Default::default()
    });
    let mut rng = gw_core::Rng::new(1, 77);
    for _ in 0..prewalk {
        world.step(&Action::random(&mut rng));
    }
    let mut buf = vec![0u8; w * h * 4];
    let mut sum = 0u64;
    let started = std::time::Instant::now();
    for i in 0..steps {
        world.step(&Action::random(&mut rng));
        gw_world::render::render_rgba(&world, w, h, &mut buf, false);
        if i % 16 == 0 {
            sum = buf
                .iter()
                .fold(sum, |s, &b| s.wrapping_mul(31).wrapping_add(b as u64));
        }
    }
    let per = started.elapsed().as_secs_f64() / steps.max(1) as f64;
    println!(
        "{w}x{h}: {steps} steps after {prewalk}, checksum {sum:016x}, {:.4} ms per step ({:.0} steps/s)",
        per * 1e3,
        1.0 / per
    );
}
