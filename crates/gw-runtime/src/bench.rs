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
use gw_core::frame::{FRAME_FILTER, RowFilter, encode_pixels};
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
    let random_action = Action::random;
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
        let bytes = encode_pixels(&pix, 4, w as u32, h as u32, FRAME_FILTER);
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
    // Native or browser (a browser game opens a Chromium per instance).
    let new_game = || crate::games::create_game(&preset).map_err(|e| e.to_string());
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
        game: None,
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
        let bytes = stepper.encode_frame(&pixmap);
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

/// One PNG setting measured on one game's frames (`bench --png-filters`).
#[derive(Clone, Debug, Serialize)]
pub struct PngFilterRow {
    pub game_id: String,
    pub filter: String,
    /// Whether this is the filter the game's frames are written with
    /// (`Game::frame_filter`).
    pub chosen: bool,
    pub encode_ms_median: f64,
    pub bytes_mean: f64,
    pub frames: usize,
}

/// Encode `frames` frames of a game (random agent, full runtime steps) with
/// every [`RowFilter`], so the frame filter is chosen by measurement. All of
/// them decode to the same pixels (`gw_core::frame` tests round-trip each
/// filter); `chosen` marks the one the game writes its frames with.
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
    let chosen = stepper.frame_filter();
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
        game: None,
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
            chosen: filter == chosen,
            encode_ms_median: median(times),
            bytes_mean: bytes as f64 / shots.len().max(1) as f64,
            frames: shots.len(),
        });
    }
    Ok(rows)
}

/// The environment side of a whole suite (`bench --suite`): each planned run
/// of a native game goes through the real run loop with a stand-in agent
/// that answers at once.
#[derive(Clone, Debug, Serialize)]
pub struct SuiteBench {
    pub suite: String,
    /// Runs in the plan whose game is native (the landed games).
    pub runs_planned: usize,
    /// Runs in the plan left out because their game has no native build.
    pub runs_not_native: usize,
    pub runs_measured: usize,
    pub steps_measured: u64,
    pub env_seconds_measured: f64,
    /// Total environment time over total steps of the measured runs.
    pub env_ms_per_step: f64,
    /// Median over the measured runs of their environment ms per step.
    pub env_ms_per_step_median_run: f64,
    /// Steps of the whole plan (measured steps per run × planned runs).
    pub suite_steps_estimate: f64,
    pub suite_env_seconds_estimate: f64,
    /// The paper's evaluation: 170 tasks × 18 model–interface pairs × 100
    /// steps, at this suite's environment cost per step.
    pub paper_steps: u64,
    pub paper_env_seconds_estimate: f64,
}

/// The paper's evaluation size: 170 tasks × 18 pairs × 100 steps.
pub const PAPER_STEPS: u64 = 170 * 18 * 100;

/// A stand-in for the suite's agent: the seeded random agent's legal
/// semantic actions, answered at once, but asking for the PNG like a model
/// agent does (so frames are encoded in the run loop, as in a real suite).
struct StandIn {
    inner: Box<dyn gw_agents::Agent>,
    id: String,
}

impl gw_agents::Agent for StandIn {
    fn id(&self) -> &str {
        &self.id
    }
    fn interface(&self) -> Interface {
        self.inner.interface()
    }
    fn act(&mut self, obs: &Observation) -> Result<gw_agents::Reply, gw_agents::AgentError> {
        self.inner.act(obs)
    }
    fn needs_frames(&self) -> bool {
        true
    }
}

/// Run the environment side of `suite` (every planned run of a native game,
/// or `max_runs` of them spread evenly over the plan) and time it.
pub fn bench_suite(
    registry: &Registry,
    suite: &std::path::Path,
    max_runs: Option<usize>,
) -> Result<SuiteBench, String> {
    let spec = crate::suite::load_suite(suite)?;
    let plan = crate::suite::expand(&spec, registry)?;
    let total = plan.len();
    let plan: Vec<_> = plan
        .into_iter()
        .filter(|r| {
            let game = r.preset.split('+').next().unwrap_or("");
            gw_games::create(game).is_some()
        })
        .collect();
    let not_native = total - plan.len();
    if plan.is_empty() {
        return Err(format!(
            "{}: no run of the suite is on a native game",
            suite.display()
        ));
    }
    let take = max_runs.unwrap_or(plan.len()).clamp(1, plan.len());
    let picked: Vec<_> = (0..take).map(|i| &plan[i * plan.len() / take]).collect();
    let scratch = std::env::temp_dir().join(format!("gameworld-bench-{}", std::process::id()));
    let stand_in = |preset: &gw_core::Preset, seed: u64| {
        let inner = gw_agents::builtin::create("random", preset, seed)
            .ok_or_else(|| crate::RunError::Config("no random agent".into()))?;
        Ok(Box::new(StandIn {
            inner,
            id: preset.agent.id().to_string(),
        }) as Box<dyn gw_agents::Agent>)
    };
    let (mut steps, mut secs, mut per_run) = (0u64, 0f64, Vec::new());
    for (i, run) in picked.iter().enumerate() {
        let out = scratch.join(format!("run-{i}"));
        let opts = crate::RunOptions {
            realtime: false,
            max_steps: spec.max_steps,
            frames: spec.frames.keeps_frames(),
            sparse_frames: spec.frames.sparse_every(crate::suite::planned_max_steps(
                registry,
                &spec,
                &run.preset,
            )),
            memory_rounds: run.memory_rounds,
            repeat: run.repeat,
            ..crate::RunOptions::new(run.preset.clone(), run.seed, out.clone())
        };
        let t0 = Instant::now();
        let result = crate::run::run_preset_with_agent(registry, &opts, &stand_in, &mut |_, _| {})
            .map_err(|e| format!("{}: {e}", run.preset))?;
        let dt = t0.elapsed().as_secs_f64();
        let _ = std::fs::remove_dir_all(&out);
        steps += result.steps as u64;
        secs += dt;
        per_run.push(dt * 1000.0 / result.steps.max(1) as f64);
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let ms_per_step = secs * 1000.0 / steps.max(1) as f64;
    let suite_steps = steps as f64 / picked.len() as f64 * plan.len() as f64;
    Ok(SuiteBench {
        suite: spec.name,
        runs_planned: plan.len(),
        runs_not_native: not_native,
        runs_measured: picked.len(),
        steps_measured: steps,
        env_seconds_measured: secs,
        env_ms_per_step: ms_per_step,
        env_ms_per_step_median_run: median(per_run),
        suite_steps_estimate: suite_steps,
        suite_env_seconds_estimate: suite_steps * ms_per_step / 1000.0,
        paper_steps: PAPER_STEPS,
        paper_env_seconds_estimate: PAPER_STEPS as f64 * ms_per_step / 1000.0,
    })
}
