//! One run: a preset, a seed, a run directory.
//!
//! Layout (SPEC "Run directory"): `result.json`, `trajectory.jsonl`,
//! `frames/step_NNNNNN.png` (frame N shows the state after step N; frame 0 is
//! the first observation), `model_calls.jsonl` for model-backed agents.
//! When step N fails an episode and the task resets on failure, frame N shows
//! the failure (trajectory row N's state) and `frames/step_NNNNNN_reset.png`
//! the restarted game, which is what the agent sees for step N + 1.

use crate::agents::make_agent;
use crate::frames::FrameSink;
use gw_agents::Observation;
use gw_core::frame::{encode_pixmap_png, write_atomic};
use gw_core::registry::Registry;
use gw_core::{Decision, StepRecord, Stepper, StopReason};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad preset, registry or options: exit code 2.
    #[error("configuration error: {0}")]
    Config(String),
    /// Something failed while running: exit code 1.
    #[error("runtime error: {0}")]
    Runtime(String),
}

impl RunError {
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Config(_) => 2,
            RunError::Runtime(_) => 1,
        }
    }
}

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub preset: String,
    pub seed: u64,
    pub out: PathBuf,
    pub realtime: bool,
    pub max_steps: Option<u32>,
    pub frames: bool,
    /// Override the model profile's rolling-memory rounds.
    pub memory_rounds: Option<u32>,
    /// Repeat index within a suite (0 for a single run).
    pub repeat: u32,
    /// Answer model calls from this recorded run directory instead of the network.
    pub replay: Option<PathBuf>,
}

impl RunOptions {
    /// Options with the defaults of `gameworld run` (frames on, paused).
    pub fn new(preset: impl Into<String>, seed: u64, out: impl Into<PathBuf>) -> Self {
        RunOptions {
            preset: preset.into(),
            seed,
            out: out.into(),
            realtime: false,
            max_steps: None,
            frames: true,
            memory_rounds: None,
            repeat: 0,
            replay: None,
        }
    }
}

/// `result.json` (SPEC field names first, then extensions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub preset: String,
    pub game_id: String,
    pub task_id: String,
    pub model: String,
    pub interface: String,
    pub seed: u64,
    pub realtime: bool,
    pub steps: u32,
    pub episodes: u32,
    pub success: bool,
    pub progress: f64,
    pub best_score: f64,
    pub start_score: f64,
    pub target_score: f64,
    pub stop_reason: String,
    pub proposed_actions: u32,
    pub valid_actions: u32,
    pub invalid_no_tool_call: u32,
    pub invalid_out_of_space: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    pub wall_ms: u64,
    // Extensions.
    #[serde(default)]
    pub cached_input_tokens: u64,
    #[serde(default)]
    pub latency_ms: u64,
    #[serde(default)]
    pub genre: String,
    #[serde(default)]
    pub curriculum_level: u8,
    #[serde(default)]
    pub score_field: String,
    #[serde(default)]
    pub max_steps: u32,
    #[serde(default)]
    pub game_time_ms: u64,
    #[serde(default)]
    pub memory_rounds: Option<u32>,
    #[serde(default)]
    pub repeat: u32,
    #[serde(default)]
    pub error: Option<String>,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

fn io_err(path: &Path, e: std::io::Error) -> RunError {
    RunError::Runtime(format!("cannot write {}: {e}", path.display()))
}

/// The observation after `step` steps: the PNG the agent sees (empty when
/// it looks at none) and, with frames on, `frames/step_NNNNNN.png`. A frame
/// the agent does not need is encoded and written on the sink's writer.
fn observe_frame(
    stepper: &Stepper,
    sink: &mut Option<FrameSink>,
    pixmap: &mut Option<tiny_skia::Pixmap>,
    frame_rel: &str,
) -> Result<Vec<u8>, RunError> {
    let file = frame_rel.strip_prefix("frames/").unwrap_or(frame_rel);
    match (pixmap, sink) {
        (None, Some(sink)) => {
            stepper.render(sink.canvas());
            sink.submit_canvas(file).map_err(RunError::Runtime)?;
            Ok(Vec::new())
        }
        (None, None) => Ok(Vec::new()),
        (Some(pixmap), sink) => {
            stepper.render(pixmap);
            let png = encode_pixmap_png(pixmap);
            if let Some(sink) = sink {
                sink.submit_png(file, &png).map_err(RunError::Runtime)?;
            }
            Ok(png)
        }
    }
}

fn frame_name(step: u32) -> String {
    format!("frames/step_{step:06}.png")
}

/// The first frame of the episode that a reset-on-fail started after step
/// `step` (frame `step` itself shows the failure).
fn reset_frame_name(step: u32) -> String {
    format!("frames/step_{step:06}_reset.png")
}

/// What the agent is told when an episode failed and the game restarted.
fn episode_end_note(state: &Value, next_episode: u32) -> String {
    let reason = state["terminal"]["reason"]
        .as_str()
        .filter(|r| !r.trim().is_empty())
        .unwrap_or("the game reported a failure");
    format!(
        "the episode ended in failure ({reason}); the game restarted as episode {}",
        next_episode + 1
    )
}

/// One `trajectory.jsonl` line.
fn trajectory_line(rec: &StepRecord, reply: &gw_agents::Reply, latency_ms: u64) -> Value {
    let proposed = reply.payload.as_ref();
    let mut state = rec.state.clone();
    state["timestampMs"] = json!(now_ms());
    json!({
        "step": rec.step,
        "episode": rec.episode,
        "action": rec.action.as_ref().map(|a| a.to_value()),
        "control": rec.control,
        "proposed": proposed,
        "valid": rec.valid(),
        "invalid_kind": rec.invalid_kind(),
        "invalid_reason": rec.invalid.as_ref().map(|i| i.reason.clone()),
        "events": rec.events,
        "game_time_ms": rec.state["gameTimeMs"],
        "score": rec.eval.score,
        "progress": rec.eval.progress,
        "best_progress": rec.eval.best_progress,
        "latency_ms": latency_ms,
        "reasoning": reply.reasoning,
        "parse_error": reply.parse_error,
        "stated_reason": reply.stated_reason,
        "usage": reply.usage,
        "cost_usd": reply.cost_usd,
        "state": state,
    })
}

/// Run one preset and write its run directory. A run that starts always
/// leaves a `result.json`, even when the agent fails part-way.
pub fn run_preset(registry: &Registry, opts: &RunOptions) -> Result<RunResult, RunError> {
    run_preset_observed(registry, opts, &mut |_, _| {})
}

/// [`run_preset`] that reports `(step, best_progress)` after every step.
pub fn run_preset_observed(
    registry: &Registry,
    opts: &RunOptions,
    on_step: &mut dyn FnMut(u32, f64),
) -> Result<RunResult, RunError> {
    let make =
        |preset: &gw_core::Preset, seed: u64| make_agent(preset, seed, opts.replay.as_deref());
    run_preset_with_agent(registry, opts, &make, on_step)
}

/// Builds the agent for a resolved preset and seed.
pub type AgentFactory<'a> =
    dyn Fn(&gw_core::Preset, u64) -> Result<Box<dyn gw_agents::Agent>, RunError> + 'a;

/// [`run_preset_observed`] with the agent built by `agent_for` instead of the
/// one the preset names (`gameworld bench --suite` plays a suite's
/// environment side with a stand-in that answers at once).
pub fn run_preset_with_agent(
    registry: &Registry,
    opts: &RunOptions,
    agent_for: &AgentFactory<'_>,
    on_step: &mut dyn FnMut(u32, f64),
) -> Result<RunResult, RunError> {
    let started = Instant::now();
    let mut preset = registry
        .resolve_preset(&opts.preset)
        .map_err(RunError::Config)?;
    if let Some(n) = opts.max_steps {
        if n == 0 {
            return Err(RunError::Config("--max-steps must be at least 1".into()));
        }
        preset.task.max_steps = n;
    }
    if let (Some(rounds), gw_core::AgentRef::Model(spec)) = (opts.memory_rounds, &mut preset.agent)
    {
        spec.memory_rounds = Some(rounds);
    }
    let memory_rounds = match &preset.agent {
        gw_core::AgentRef::Model(spec) => Some(
            spec.memory_rounds
                .unwrap_or(gw_agents::memory::DEFAULT_ROUNDS),
        ),
        gw_core::AgentRef::Builtin(_) => None,
    };
    let game = gw_games::create(&preset.game.id).ok_or_else(|| {
        RunError::Config(format!(
            "game \"{}\" is in the registry but has no native implementation in this build",
            preset.game.id
        ))
    })?;
    if let Some(dir) = &opts.replay {
        check_replay_source(dir, &preset.preset, opts.seed)?;
    }
    let mut agent = agent_for(&preset, opts.seed)?;
    let interface = agent.interface();
    let mut stepper = Stepper::new(game, &preset, opts.seed).map_err(RunError::Runtime)?;

    std::fs::create_dir_all(&opts.out).map_err(|e| io_err(&opts.out, e))?;
    // A finished result.json already here is never deleted: the new one
    // replaces it atomically when this run ends. Frames of an earlier run
    // would mix with this run's, so they go first.
    let result_path = opts.out.join("result.json");
    let frames_dir = opts.out.join("frames");
    if frames_dir.is_dir() {
        std::fs::remove_dir_all(&frames_dir).map_err(|e| io_err(&frames_dir, e))?;
    }
    // FrameSink (below) creates frames/ when frames are on.
    if opts.out.join("model_calls.jsonl").is_file() {
        // Calls of an earlier run must not pass for this run's.
        let stale = opts.out.join("model_calls.jsonl");
        std::fs::remove_file(&stale).map_err(|e| io_err(&stale, e))?;
    }
    let traj_path = opts.out.join("trajectory.jsonl");
    let mut traj = BufWriter::new(File::create(&traj_path).map_err(|e| io_err(&traj_path, e))?);
    let calls_path = opts.out.join("model_calls.jsonl");
    let mut calls_out: Option<BufWriter<File>> = None;

    let (w, h) = stepper.viewport();
    let agent_needs_png = agent.needs_frames();
    // The agent's own frame buffer (frames it does not see are drawn on the
    // sink's canvas).
    let mut pixmap = if agent_needs_png {
        Some(
            tiny_skia::Pixmap::new(w, h)
                .ok_or_else(|| RunError::Runtime("viewport too large".into()))?,
        )
    } else {
        None
    };
    let mut sink = if opts.frames {
        Some(FrameSink::new(&opts.out, w, h, !agent_needs_png).map_err(RunError::Runtime)?)
    } else {
        None
    };

    let mut result = RunResult {
        preset: preset.preset.clone(),
        game_id: preset.game.id.clone(),
        task_id: preset.task.id.clone(),
        model: agent.id().to_string(),
        interface: interface.as_str().to_string(),
        seed: opts.seed,
        realtime: opts.realtime,
        steps: 0,
        episodes: 1,
        success: false,
        progress: 0.0,
        best_score: stepper.evaluator().best_score(),
        start_score: preset.task.start,
        target_score: preset.task.target,
        stop_reason: String::new(),
        proposed_actions: 0,
        valid_actions: 0,
        invalid_no_tool_call: 0,
        invalid_out_of_space: 0,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: 0.0,
        wall_ms: 0,
        cached_input_tokens: 0,
        latency_ms: 0,
        genre: preset.game.genre.clone(),
        curriculum_level: preset.game.curriculum_level,
        score_field: preset.task.score_label(),
        max_steps: preset.task.max_steps,
        game_time_ms: 0,
        memory_rounds,
        repeat: opts.repeat,
        error: None,
    };

    let mut frame_rel = frame_name(0);
    let mut png = observe_frame(&stepper, &mut sink, &mut pixmap, &frame_rel)?;
    let stop: StopReason = loop {
        let step = stepper.step_index() + 1;
        let state = stepper.state_value();
        let expert = || stepper.expert_payload();
        let obs = Observation {
            step,
            episode: stepper.episode(),
            frame_png: &png,
            frame_path: opts.frames.then_some(frame_rel.as_str()),
            viewport: (w, h),
            state: &state,
            expert: &expert,
        };
        // Paused mode: the game clock does not move while the agent thinks.
        let t0 = Instant::now();
        let reply = agent.turn(&obs);
        let measured_ms = t0.elapsed().as_millis() as u64;
        let reply = match reply {
            Ok(gw_agents::Turn::Act(r)) => r,
            Ok(gw_agents::Turn::Watch) => {
                // A person watching between inputs: no step; in real-time
                // mode the game ran meanwhile. The fresh frame is not a
                // step's frame, so it is not stored.
                if opts.realtime {
                    stepper.idle(measured_ms);
                    result.latency_ms = result.latency_ms.saturating_add(measured_ms);
                    if let Some(pixmap) = pixmap.as_mut() {
                        stepper.render(pixmap);
                        png = encode_pixmap_png(pixmap);
                    }
                }
                continue;
            }
            Err(e) => {
                result.error = Some(e.to_string());
                // Keep the record of the calls that failed.
                let calls = agent.take_unreported_calls();
                write_calls(&mut calls_out, &calls_path, &calls)?;
                break StopReason::AgentError;
            }
        };
        write_calls(&mut calls_out, &calls_path, &reply.calls)?;
        let latency_ms = if reply.latency_ms > 0 {
            reply.latency_ms
        } else {
            measured_ms
        };
        if opts.realtime {
            // Real-time mode: the world kept moving while the agent thought.
            stepper.idle(latency_ms);
        }
        // Sums saturate: a hostile server may report any count.
        result.input_tokens = result.input_tokens.saturating_add(reply.usage.input_tokens);
        result.output_tokens = result
            .output_tokens
            .saturating_add(reply.usage.output_tokens);
        result.cached_input_tokens = result
            .cached_input_tokens
            .saturating_add(reply.usage.cached_input_tokens);
        result.cost_usd = saturating_cost(result.cost_usd, reply.cost_usd);
        result.latency_ms = result.latency_ms.saturating_add(latency_ms);

        // The reset of a failed episode waits until its frame is drawn, so
        // frame N shows the state of trajectory row N (the mine, the crash).
        let rec = stepper
            .step_keep_terminal(interface, reply.payload.as_ref())
            .map_err(RunError::Runtime)?;
        result.proposed_actions += 1;
        match rec.invalid_kind() {
            None => result.valid_actions += 1,
            Some(gw_core::InvalidKind::NoToolCall) => result.invalid_no_tool_call += 1,
            Some(gw_core::InvalidKind::OutOfSpace) => result.invalid_out_of_space += 1,
        }
        let summary = match (&rec.action, &rec.invalid) {
            (_, Some(inv)) => format!(
                "invalid ({}): {}",
                if inv.kind == gw_core::InvalidKind::NoToolCall {
                    "no tool call"
                } else {
                    "out of action space"
                },
                inv.reason
            ),
            (Some(a), None) => format!("executed {}", a.to_value()),
            (None, None) => String::new(),
        };
        agent.observe_outcome(rec.valid(), &summary);
        let line = trajectory_line(&rec, &reply, latency_ms);
        append_lines(&mut traj, &traj_path, std::slice::from_ref(&line))?;

        frame_rel = frame_name(rec.step);
        png = observe_frame(&stepper, &mut sink, &mut pixmap, &frame_rel)?;
        if stepper.reset_pending() {
            let note = episode_end_note(&rec.state, rec.episode + 1);
            agent.observe_episode_end(&png, opts.frames.then_some(frame_rel.as_str()), &note);
            stepper.complete_reset().map_err(RunError::Runtime)?;
            frame_rel = reset_frame_name(rec.step);
            png = observe_frame(&stepper, &mut sink, &mut pixmap, &frame_rel)?;
        }
        on_step(rec.step, rec.eval.best_progress);
        if let Decision::Stop(reason) = rec.eval.decision {
            break reason;
        }
    };
    let eval = stepper.evaluator();
    result.steps = stepper.step_index();
    result.episodes = stepper.episode() + 1;
    result.success = eval.success();
    result.progress = eval.best_progress();
    result.best_score = eval.best_score();
    result.stop_reason = stop.as_str().to_string();
    result.game_time_ms = stepper.state_value()["gameTimeMs"].as_u64().unwrap_or(0);
    // Every frame is on disk before the result that refers to them.
    if let Some(sink) = sink.take() {
        sink.finish().map_err(RunError::Runtime)?;
    }
    result.wall_ms = started.elapsed().as_millis() as u64;
    let value = serde_json::to_value(&result).map_err(|e| RunError::Runtime(e.to_string()))?;
    let bytes = serde_json::to_vec_pretty(&gw_agents::secrets::value(&value))
        .map_err(|e| RunError::Runtime(e.to_string()))?;
    write_atomic(&result_path, &bytes).map_err(|e| io_err(&result_path, e))?;
    if let Some(err) = &result.error {
        return Err(RunError::Runtime(format!(
            "{err} (partial results written to {})",
            result_path.display()
        )));
    }
    Ok(result)
}

/// Append call records to `model_calls.jsonl`, creating it on first use.
fn write_calls(
    out: &mut Option<BufWriter<File>>,
    path: &Path,
    calls: &[Value],
) -> Result<(), RunError> {
    if calls.is_empty() {
        return Ok(());
    }
    if out.is_none() {
        *out = Some(BufWriter::new(
            File::create(path).map_err(|e| io_err(path, e))?,
        ));
    }
    append_lines(out.as_mut().expect("opened above"), path, calls)
}

/// A cost sum that stays finite (a hostile usage report cannot make it
/// infinite or NaN).
pub fn saturating_cost(sum: f64, add: f64) -> f64 {
    let add = if add.is_finite() && add > 0.0 {
        add
    } else {
        0.0
    };
    let total = sum + add;
    if total.is_finite() { total } else { f64::MAX }
}

/// Append JSON lines to a `.jsonl` file and flush them (secrets masked).
fn append_lines(out: &mut BufWriter<File>, path: &Path, lines: &[Value]) -> Result<(), RunError> {
    for line in lines {
        let line = gw_agents::secrets::value(line);
        serde_json::to_writer(&mut *out, &line).map_err(|e| RunError::Runtime(e.to_string()))?;
        out.write_all(b"\n").map_err(|e| io_err(path, e))?;
    }
    out.flush().map_err(|e| io_err(path, e))
}

/// A replay must re-run the recorded preset and seed, or its answers would
/// belong to another game.
fn check_replay_source(dir: &Path, preset: &str, seed: u64) -> Result<(), RunError> {
    let Ok(text) = std::fs::read_to_string(dir.join("result.json")) else {
        return Ok(());
    };
    let recorded: Value = serde_json::from_str(&text)
        .map_err(|e| RunError::Config(format!("{}: {e}", dir.join("result.json").display())))?;
    if let Some(p) = recorded["preset"].as_str()
        && p != preset
    {
        return Err(RunError::Config(format!(
            "--replay {} recorded preset {p}, not {preset}",
            dir.display()
        )));
    }
    if let Some(s) = recorded["seed"].as_u64()
        && s != seed
    {
        return Err(RunError::Config(format!(
            "--replay {} recorded seed {s}; run with --seed {s}",
            dir.display()
        )));
    }
    Ok(())
}

/// The seed a recorded run used (from its `result.json`), for `--replay`.
pub fn recorded_seed(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("result.json")).ok()?;
    serde_json::from_str::<Value>(&text).ok()?["seed"].as_u64()
}
