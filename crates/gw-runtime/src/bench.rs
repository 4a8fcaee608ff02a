//! `gameworld bench`: simulation speed and per-step runtime overhead.
//!
//! - `sim_steps_per_s`: one core, simulation only — random legal actions are
//!   pre-expanded to input events and played into the game (no rendering, no
//!   state snapshot, no evaluation).
//! - `step_overhead_ms_median`: one full runtime step without a model —
//!   execute the action, snapshot state, evaluate, render the frame and encode
//!   it as PNG — as the median over the measured steps.

use gw_agents::Observation;
use gw_core::action::TimedEvent;
use gw_core::frame::{encode_png, pixmap_rgb};
use gw_core::registry::{Interface, Registry};
use gw_core::{Game, Stepper};
use serde::Serialize;
use serde_json::Value;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    pub game_id: String,
    pub sim_steps_per_s: f64,
    pub step_overhead_ms_median: f64,
    /// The parts of the overhead, medians in ms.
    pub render_ms_median: f64,
    pub png_ms_median: f64,
    pub step_ms_median: f64,
    pub measured_steps: usize,
    /// Open world only (`--games openworld`): steps/s on one core with a
    /// first-person frame rendered every step, and new-world reset time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub render_steps_per_s_64x64: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub render_steps_per_s_640x360: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reset_ms_median: Option<f64>,
}

/// The id `gameworld bench --games` uses for the voxel world itself.
pub const OPENWORLD: &str = "openworld";

/// Benchmark the voxel world (crate gw-world) directly: random factored
/// actions, one core (rows rendered in order, no rayon).
pub fn bench_openworld(sim_budget: Duration, overhead_steps: usize) -> BenchRow {
    use gw_world::{Action, World, WorldConfig};
    let random_action = |rng: &mut gw_core::Rng| Action {
        forward: rng.chance(0.6),
        back: rng.chance(0.05),
        left: rng.chance(0.1),
        right: rng.chance(0.1),
        jump: rng.chance(0.1),
        sprint: rng.chance(0.2),
        attack: rng.chance(0.4),
        use_item: rng.chance(0.02),
        hotbar: rng.chance(0.05).then(|| 1 + rng.below(9) as u8),
        yaw: rng.range_f64(-10.0, 10.0) as f32,
        pitch: rng.range_f64(-3.0, 3.0) as f32,
        ..Default::default()
    };
    let new_world = |seed: u64| {
        World::new(WorldConfig {
            seed,
            start_inventory: vec![("iron_pickaxe".into(), 1)],
            ..Default::default()
        })
    };
    let mut rng = gw_core::Rng::new(1, 77);
    // Simulation only.
    let mut world = new_world(1);
    let started = Instant::now();
    let mut steps = 0u64;
    while started.elapsed() < sim_budget {
        for _ in 0..64 {
            world.step(&random_action(&mut rng));
            steps += 1;
        }
    }
    let sim_steps_per_s = steps as f64 / started.elapsed().as_secs_f64();
    // With a frame every step.
    let render_rate = |w: usize, h: usize, world: &mut World, rng: &mut gw_core::Rng| {
        let mut buf = vec![0u8; w * h * 4];
        let started = Instant::now();
        let mut n = 0u64;
        while started.elapsed() < sim_budget {
            world.step(&random_action(rng));
            gw_world::render::render_rgba(world, w, h, &mut buf, false);
            std::hint::black_box(&buf);
            n += 1;
        }
        n as f64 / started.elapsed().as_secs_f64()
    };
    let r64 = render_rate(64, 64, &mut world, &mut rng);
    let r640 = render_rate(640, 360, &mut world, &mut rng);
    // Reset: a new world from a new seed until the first 64×64 observation.
    let mut resets = Vec::new();
    let mut buf = vec![0u8; 64 * 64 * 4];
    for seed in 100..100 + 9u64 {
        let t0 = Instant::now();
        let w = new_world(seed);
        gw_world::render::render_rgba(&w, 64, 64, &mut buf, false);
        resets.push(ms(t0.elapsed()));
        std::hint::black_box(&w);
    }
    // Per-step overhead at 640×360: step, render, PNG.
    let (mut total, mut render, mut png, mut step_t) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (w, h) = (640usize, 360usize);
    let mut pix = vec![0u8; w * h * 4];
    for _ in 0..overhead_steps {
        let t0 = Instant::now();
        world.step(&random_action(&mut rng));
        let t1 = Instant::now();
        gw_world::render::render_rgba(&world, w, h, &mut pix, false);
        let t2 = Instant::now();
        let rgb: Vec<u8> = pix.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        let bytes = encode_png(&rgb, w as u32, h as u32);
        let t3 = Instant::now();
        std::hint::black_box(bytes);
        step_t.push(ms(t1 - t0));
        render.push(ms(t2 - t1));
        png.push(ms(t3 - t2));
        total.push(ms(t3 - t0));
    }
    BenchRow {
        game_id: OPENWORLD.to_string(),
        sim_steps_per_s,
        step_overhead_ms_median: median(total),
        render_ms_median: median(render),
        png_ms_median: median(png),
        step_ms_median: median(step_t),
        measured_steps: overhead_steps,
        render_steps_per_s_64x64: Some(r64),
        render_steps_per_s_640x360: Some(r640),
        reset_ms_median: Some(median(resets)),
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Benchmark one game; `sim_budget` bounds the simulation-speed loop.
pub fn bench_game(
    registry: &Registry,
    game_id: &str,
    sim_budget: Duration,
    overhead_steps: usize,
) -> Result<BenchRow, String> {
    let task = registry
        .tasks_of(game_id)
        .next()
        .ok_or_else(|| format!("game {game_id} has no tasks"))?
        .id
        .clone();
    let preset = registry.resolve_preset(&format!("{game_id}+{task}+random"))?;
    let new_game = || {
        gw_games::create(game_id)
            .ok_or_else(|| format!("game {game_id} has no native implementation"))
    };
    let mut agent = gw_agents::builtin::create("random", &preset, 1).expect("random agent exists");
    let null = Value::Null;
    let no_expert = || Value::Null;
    let obs = Observation {
        step: 0,
        episode: 0,
        frame_png: &[],
        frame_path: None,
        viewport: (0, 0),
        state: &null,
        expert: &no_expert,
    };

    // Pre-expand a pool of random legal actions into events.
    let probe = Stepper::new(new_game()?, &preset, 1)?;
    let mut pool: Vec<Vec<TimedEvent>> = Vec::new();
    for _ in 0..512 {
        let reply = agent.act(&obs).map_err(|e| e.to_string())?;
        if let Ok((_, action)) = probe.interpret(Interface::Generalist, reply.payload.as_ref()) {
            pool.push(action.to_events(preset.game.speed_multiplier));
        }
    }
    if pool.is_empty() {
        return Err(format!(
            "game {game_id}: the random agent produced no legal action"
        ));
    }

    let mut game: Box<dyn Game> = new_game()?;
    game.init(&gw_core::GameConfig {
        seed: 1,
        ..Default::default()
    });
    game.reset(0);
    let mut episode = 0;
    let started = Instant::now();
    let mut steps: u64 = 0;
    while started.elapsed() < sim_budget {
        for _ in 0..64 {
            for ev in &pool[(steps as usize) % pool.len()] {
                match ev {
                    TimedEvent::Input(i) => game.handle_event(i),
                    TimedEvent::Wait { wait_ms } => game.advance(*wait_ms),
                }
            }
            steps += 1;
        }
        if game.state().terminal.is_terminal {
            episode += 1;
            game.reset(episode);
        }
    }
    let sim_steps_per_s = steps as f64 / started.elapsed().as_secs_f64();

    // Full runtime steps.
    let mut stepper = Stepper::new(new_game()?, &preset, 1)?;
    let (w, h) = stepper.viewport();
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or("bad viewport")?;
    let (mut total, mut render, mut png, mut step_t) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..overhead_steps {
        if stepper.finished().is_some() {
            stepper = Stepper::new(new_game()?, &preset, 2 + i as u64)?;
        }
        let reply = agent.act(&obs).map_err(|e| e.to_string())?;
        let t0 = Instant::now();
        stepper.step(Interface::Generalist, reply.payload.as_ref())?;
        let t1 = Instant::now();
        stepper.render(&mut pixmap);
        let t2 = Instant::now();
        let bytes = encode_png(&pixmap_rgb(&pixmap), w, h);
        let t3 = Instant::now();
        std::hint::black_box(bytes);
        step_t.push(ms(t1 - t0));
        render.push(ms(t2 - t1));
        png.push(ms(t3 - t2));
        total.push(ms(t3 - t0));
    }
    Ok(BenchRow {
        game_id: game_id.to_string(),
        sim_steps_per_s,
        step_overhead_ms_median: median(total),
        render_ms_median: median(render),
        png_ms_median: median(png),
        step_ms_median: median(step_t),
        measured_steps: overhead_steps,
        render_steps_per_s_64x64: None,
        render_steps_per_s_640x360: None,
        reset_ms_median: None,
    })
}
