//! Time drawing a small observation (default 64×64) directly at its size,
//! per game, next to the cost of advancing the game one step.
//!
//!     cargo run --release -p gw-games --example small_frames -- [GAMES] [W] [H] [FRAMES]
use std::time::Instant;

use gw_core::GameConfig;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "01_2048,13_flappy-bird,23_pacman,29_tetris,05_breakout".into());
    let w: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let h: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(64);
    let frames: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2000);
    println!("{:<28} {:>12} {:>12}", "game", "draw µs", "advance µs");
    for id in games.split(',') {
        let Some(mut game) = gw_games::create(id) else {
            eprintln!("no game {id}");
            continue;
        };
        game.init(&GameConfig {
            seed: 1,
            ..Default::default()
        });
        game.reset(0);
        let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
        let (mut draw, mut adv) = (0.0f64, 0.0f64);
        for _ in 0..frames {
            let t = Instant::now();
            game.advance(33);
            adv += t.elapsed().as_secs_f64();
            let t = Instant::now();
            assert!(
                gw_games::render_sized(game.as_ref(), &mut pm),
                "{id} draws only at its viewport"
            );
            draw += t.elapsed().as_secs_f64();
        }
        let n = f64::from(frames) / 1e6;
        println!("{id:<28} {:>12.1} {:>12.1}", draw / n, adv / n);
    }
}
