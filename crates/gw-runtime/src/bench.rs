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
use gw_core::frame::{RowFilter, encode_pixels, encode_pixmap_png};
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
        let bytes = encode_pixmap_png(&pixmap);
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
    })
}

/// One PNG setting measured on one game's frames (`bench --png-filters`).
#[derive(Clone, Debug, Serialize)]
pub struct PngFilterRow {
    pub game_id: String,
    pub filter: String,
    pub encode_ms_median: f64,
    pub bytes_mean: f64,
    pub frames: usize,
}

/// Encode `frames` frames of a game (random agent, full runtime steps) with
/// every [`RowFilter`], so the frame filter is chosen by measurement. All of
/// them decode to the same pixels (checked here on every frame).
pub fn bench_png_filters(
    registry: &Registry,
    game_id: &str,
    frames: usize,
) -> Result<Vec<PngFilterRow>, String> {
    let task = registry
        .tasks_of(game_id)
        .next()
        .ok_or_else(|| format!("game {game_id} has no tasks"))?
        .id
        .clone();
    let preset = registry.resolve_preset(&format!("{game_id}+{task}+random"))?;
    let game = gw_games::create(game_id)
        .ok_or_else(|| format!("game {game_id} has no native implementation"))?;
    let mut agent = gw_agents::builtin::create("random", &preset, 1).expect("random agent exists");
    let mut stepper = Stepper::new(game, &preset, 1)?;
    let (w, h) = stepper.viewport();
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
    let mut shots = Vec::new();
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or("bad viewport")?;
    for i in 0..frames {
        if stepper.finished().is_some() {
            let game = gw_games::create(game_id).expect("checked above");
            stepper = Stepper::new(game, &preset, 2 + i as u64)?;
        }
        let reply = agent.act(&obs).map_err(|e| e.to_string())?;
        stepper.step(Interface::Generalist, reply.payload.as_ref())?;
        stepper.render(&mut pixmap);
        shots.push(pixmap.clone());
    }
    let mut rows = Vec::new();
    for filter in RowFilter::ALL {
        let (mut times, mut bytes) = (Vec::new(), 0usize);
        for shot in &shots {
            let t0 = Instant::now();
            let png = encode_pixels(shot.data(), 4, w, h, filter);
            times.push(ms(t0.elapsed()));
            bytes += png.len();
        }
        rows.push(PngFilterRow {
            game_id: game_id.to_string(),
            filter: filter.as_str().to_string(),
            encode_ms_median: median(times),
            bytes_mean: bytes as f64 / shots.len().max(1) as f64,
            frames: shots.len(),
        });
    }
    Ok(rows)
}
