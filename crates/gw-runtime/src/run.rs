//! One run: a preset, a seed, a run directory.
//!
//! Layout (SPEC "Run directory"): `result.json`, `trajectory.jsonl`,
//! `frames/step_NNNNNN.png` (frame N shows the state after step N; frame 0 is
//! the first observation), `model_calls.jsonl` for model-backed agents.
//! When step N fails an episode and the task resets on failure, frame N shows
//! the failure (trajectory row N's state) and `frames/step_NNNNNN_reset.png`
//! the restarted game, which is what the agent sees for step N + 1.
//! A game whose YAML sets `frame_every: K` (the open world) gets frame N only
//! when K divides N, at the last step, at resets and whenever the agent looks
//! at frames (model-backed agents see every frame they decide on).

use crate::agents::make_agent;
use crate::frames::FrameSink;
use gw_agents::Observation;
use gw_core::frame::write_atomic;
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
    /// With `frames` on, keep a bounded set instead of every frame: the
    /// first and last, each failure with its reset, and every Nth step
    /// (suites' `frames: sparse`; see [`sparse_every`]).
    pub sparse_frames: Option<u32>,
}

/// The step interval of a sparse frame set for a task of `max_steps`
/// steps: every 10th step, or fewer so that at most about 40 periodic
/// frames are kept however long the run.
pub fn sparse_every(max_steps: u32) -> u32 {
    max_steps.div_ceil(40).max(10)
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
            sparse_frames: None,
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
    /// Cooperative runs: one entry per role, in the game's role order (the
    /// SPEC counts and tokens above are these summed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<Vec<RoleResult>>,
    /// Tasks with per-field targets (`field_targets`): the run scored as the
    /// original evaluator scores it, by the plain sum of the fields
    /// (`best_score`, `progress`, `success`), comparable with its results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<gw_core::ReferenceOutcome>,
    /// The program that drove the agent from outside (`gameworld mcp`: the
    /// MCP client's `{name, version}` from its handshake).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<Value>,
}

/// One role's share of a cooperative run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleResult {
    pub role: String,
    pub model: String,
    pub interface: String,
    pub proposed_actions: u32,
    pub valid_actions: u32,
    pub invalid_no_tool_call: u32,
    pub invalid_out_of_space: u32,
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default)]
    pub cached_input_tokens: u64,
    pub cost_usd: f64,
    /// The role's own inference time, summed over its steps.
    #[serde(default)]
    pub latency_ms: u64,
    /// The MCP client that played this role (see [`RunResult::client`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<Value>,
}

impl RoleResult {
    fn count(&mut self, kind: Option<gw_core::InvalidKind>) {
        self.proposed_actions += 1;
        match kind {
            None => self.valid_actions += 1,
            Some(gw_core::InvalidKind::NoToolCall) => self.invalid_no_tool_call += 1,
            Some(gw_core::InvalidKind::OutOfSpace) => self.invalid_out_of_space += 1,
        }
    }
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
            let png = stepper.encode_frame(pixmap);
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

/// One `trajectory.jsonl` line. `idle_ms` lists the real-time idles the
/// game clock ran before the step (empty in paused mode), in the order they
/// ran, so `gameworld verify` can replay them.
fn trajectory_line(
    rec: &StepRecord,
    reply: &gw_agents::Reply,
    latency_ms: u64,
    idle_ms: &[u64],
) -> Value {
    let proposed = reply.payload.as_ref();
    let fingerprint = crate::verify::state_fingerprint(&rec.state);
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
        "idle_ms": idle_ms,
        "reasoning": reply.reasoning,
        "parse_error": reply.parse_error,
        "stated_reason": reply.stated_reason,
        "usage": reply.usage,
        "cost_usd": reply.cost_usd,
        "state_fingerprint": fingerprint,
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
    let make = |preset: &gw_core::Preset, seed: u64| {
        // A cooperative role replays its own call file.
        let replay = opts.replay.as_ref().map(|dir| {
            if preset.game.is_cooperative() && dir.is_dir() {
                dir.join(role_calls_file(&preset.role.name))
            } else {
                dir.clone()
            }
        });
        make_agent(preset, seed, replay.as_deref())
    };
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
    if opts.out.exists() && !opts.out.is_dir() {
        return Err(RunError::Config(format!(
            "--out {} is a file, not a folder; pass a folder for the run (it is created when missing)",
            opts.out.display()
        )));
    }
    if let Some(rounds) = opts.memory_rounds {
        let agents = std::iter::once(&mut preset.agent)
            .chain(preset.players.iter_mut().map(|p| &mut p.agent));
        for agent in agents {
            if let gw_core::AgentRef::Model(spec) = agent {
                spec.memory_rounds = Some(rounds);
            }
        }
    }
    let memory_rounds = preset.model_specs().first().map(|spec| {
        spec.memory_rounds
            .unwrap_or(gw_agents::memory::DEFAULT_ROUNDS)
    });
    let game = crate::games::create_game(&preset)?;
    if let Some(dir) = &opts.replay {
        check_replay_source(dir, &preset.preset, opts.seed)?;
    }
    // One agent per role: a single-player preset has one, a cooperative
    // preset one for each of its roles (each with its own role prompt,
    // controls, memory and model calls).
    let role_presets = preset.role_presets();
    let coop = preset.is_cooperative();
    let mut agents = Vec::with_capacity(role_presets.len());
    for p in &role_presets {
        agents.push(agent_for(p, opts.seed)?);
    }
    let interfaces: Vec<gw_core::registry::Interface> =
        agents.iter().map(|a| a.interface()).collect();
    let interface = interfaces[0];
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
    // Calls of an earlier run must not pass for this run's.
    let calls_paths: Vec<PathBuf> = if coop {
        role_presets
            .iter()
            .map(|p| opts.out.join(role_calls_file(&p.role.name)))
            .collect()
    } else {
        vec![opts.out.join("model_calls.jsonl")]
    };
    let mut stale: Vec<PathBuf> = calls_paths.clone();
    stale.push(opts.out.join("model_calls.jsonl"));
    for path in stale {
        if path.is_file() {
            std::fs::remove_file(&path).map_err(|e| io_err(&path, e))?;
        }
    }
    let traj_path = opts.out.join("trajectory.jsonl");
    let mut traj = BufWriter::new(File::create(&traj_path).map_err(|e| io_err(&traj_path, e))?);
    let mut calls_out: Vec<Option<BufWriter<File>>> = calls_paths.iter().map(|_| None).collect();

    let (w, h) = stepper.viewport();
    let agent_needs_png = agents.iter().any(|a| a.needs_frames());
    // The agents' frame buffer (frames no agent sees are drawn on the
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
        Some(
            FrameSink::new(&opts.out, w, h, stepper.frame_filter(), !agent_needs_png)
                .map_err(RunError::Runtime)?,
        )
    } else {
        None
    };

    let mut role_results: Vec<RoleResult> = role_presets
        .iter()
        .zip(&agents)
        .map(|(p, a)| RoleResult {
            role: p.role.name.clone(),
            model: a.id().to_string(),
            interface: a.interface().as_str().to_string(),
            client: a.client(),
            ..Default::default()
        })
        .collect();
    let mut result = RunResult {
        preset: preset.preset.clone(),
        game_id: preset.game.id.clone(),
        task_id: preset.task.id.clone(),
        model: if coop {
            preset.model_label()
        } else {
            agents[0].id().to_string()
        },
        interface: if coop {
            joined_interfaces(&interfaces)
        } else {
            interface.as_str().to_string()
        },
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
        roles: None,
        reference: None,
        client: if coop { None } else { agents[0].client() },
    };

    // Which frames go to disk: all of them (every `frame_every` steps for
    // games that set it), or a sparse set every `every` steps.
    let sparse = opts.sparse_frames.is_some();
    let frame_every = match opts.sparse_frames {
        Some(n) => n.max(preset.game.frame_every).max(1),
        None => preset.game.frame_every.max(1),
    };
    let mut frame_rel = frame_name(0);
    let mut png = observe_frame(&stepper, &mut sink, &mut pixmap, &frame_rel)?;
    let mut frame_written = true;
    // Real-time idles since the last step (a person watching, then the
    // agents' inference time), recorded with the step.
    let mut idles: Vec<u64> = Vec::new();
    let stop: StopReason = 'run: loop {
        let step = stepper.step_index() + 1;
        let state = stepper.state_value();
        // Every role proposes against the same observation; the game clock
        // does not move meanwhile (paused mode).
        let mut replies: Vec<(gw_agents::Reply, u64)> = Vec::with_capacity(agents.len());
        for (i, agent) in agents.iter_mut().enumerate() {
            let expert = || stepper.expert_payload_for(i);
            let obs = Observation {
                step,
                episode: stepper.episode(),
                frame_png: &png,
                frame_path: (opts.frames && frame_written).then_some(frame_rel.as_str()),
                viewport: (w, h),
                state: &state,
                expert: &expert,
                game: stepper.game().as_any(),
            };
            let t0 = Instant::now();
            let reply = agent.turn(&obs);
            let measured_ms = t0.elapsed().as_millis() as u64;
            let reply = match reply {
                Ok(gw_agents::Turn::Act(r)) => r,
                Ok(gw_agents::Turn::Watch) => {
                    // A person watching between inputs (single-role plays
                    // only): no step; in real-time mode the game ran
                    // meanwhile. The fresh frame is not a step's frame, so
                    // it is not stored.
                    if opts.realtime {
                        stepper.idle(measured_ms);
                        idles.push(measured_ms);
                        result.latency_ms = result.latency_ms.saturating_add(measured_ms);
                        if let Some(pixmap) = pixmap.as_mut() {
                            stepper.render(pixmap);
                            png = stepper.encode_frame(pixmap);
                        }
                    }
                    continue 'run;
                }
                Ok(gw_agents::Turn::Hold) => continue 'run,
                Ok(gw_agents::Turn::End(reason)) => {
                    let calls = agent.take_unreported_calls();
                    write_calls(&mut calls_out[i], &calls_paths[i], &calls)?;
                    break 'run reason;
                }
                Err(gw_agents::AgentError::Left(_)) => {
                    // A client that went away ends the run like a budget
                    // would: what was played counts, and it is no error.
                    break 'run StopReason::AgentLeft;
                }
                Err(e) => {
                    result.error = Some(gw_agents::secrets::error_text(&if coop {
                        format!("role {}: {e}", role_results[i].role)
                    } else {
                        e.to_string()
                    }));
                    // Keep the record of the calls that failed.
                    let calls = agent.take_unreported_calls();
                    write_calls(&mut calls_out[i], &calls_paths[i], &calls)?;
                    break 'run StopReason::AgentError;
                }
            };
            write_calls(&mut calls_out[i], &calls_paths[i], &reply.calls)?;
            let latency_ms = if reply.latency_ms > 0 {
                reply.latency_ms
            } else {
                measured_ms
            };
            replies.push((reply, latency_ms));
        }
        // The roles think side by side, so the world waits for the slowest:
        // real-time mode charges the longest of the roles' inference times.
        let charged_ms = replies.iter().map(|(_, l)| *l).max().unwrap_or(0);
        if opts.realtime {
            // Real-time mode: the world kept moving while the agents thought.
            stepper.idle(charged_ms);
            idles.push(charged_ms);
        }
        for (i, (reply, latency_ms)) in replies.iter().enumerate() {
            // Sums saturate: a hostile server may report any count.
            let r = &mut role_results[i];
            r.input_tokens = r.input_tokens.saturating_add(reply.usage.input_tokens);
            r.output_tokens = r.output_tokens.saturating_add(reply.usage.output_tokens);
            r.cached_input_tokens = r
                .cached_input_tokens
                .saturating_add(reply.usage.cached_input_tokens);
            r.cost_usd = saturating_cost(r.cost_usd, reply.cost_usd);
            r.latency_ms = r.latency_ms.saturating_add(*latency_ms);
            result.input_tokens = result.input_tokens.saturating_add(reply.usage.input_tokens);
            result.output_tokens = result
                .output_tokens
                .saturating_add(reply.usage.output_tokens);
            result.cached_input_tokens = result
                .cached_input_tokens
                .saturating_add(reply.usage.cached_input_tokens);
            result.cost_usd = saturating_cost(result.cost_usd, reply.cost_usd);
        }
        result.latency_ms = result.latency_ms.saturating_add(charged_ms);

        // The reset of a failed episode waits until its frame is drawn, so
        // frame N shows the state of trajectory row N (the mine, the crash).
        let (rec_step, rec_episode, rec_state, rec_eval, line) = if coop {
            let proposals: Vec<(gw_core::registry::Interface, Option<&Value>)> = replies
                .iter()
                .zip(&interfaces)
                .map(|((r, _), i)| (*i, r.payload.as_ref()))
                .collect();
            let rec = stepper
                .step_joint_keep_terminal(&proposals)
                .map_err(RunError::Runtime)?;
            for (i, part) in rec.roles.iter().enumerate() {
                role_results[i].count(part.invalid_kind());
                result.proposed_actions += 1;
                count_kind(&mut result, part.invalid_kind());
                agents[i]
                    .observe_outcome(part.valid(), &outcome_summary(&part.action, &part.invalid));
            }
            let line = joint_trajectory_line(&rec, &replies, &role_results, charged_ms, &idles);
            (rec.step, rec.episode, rec.state, rec.eval, line)
        } else {
            let (reply, latency_ms) = &replies[0];
            let rec = stepper
                .step_keep_terminal(interface, reply.payload.as_ref())
                .map_err(RunError::Runtime)?;
            result.proposed_actions += 1;
            count_kind(&mut result, rec.invalid_kind());
            agents[0].observe_outcome(rec.valid(), &outcome_summary(&rec.action, &rec.invalid));
            let line = trajectory_line(&rec, reply, *latency_ms, &idles);
            (rec.step, rec.episode, rec.state, rec.eval, line)
        };
        append_lines(&mut traj, &traj_path, std::slice::from_ref(&line))?;
        idles.clear();

        frame_rel = frame_name(rec_step);
        // Frame policy (game YAML `frame_every`): long open-world runs keep a
        // frame every K steps, the last one, and every frame the agent sees.
        let last = matches!(rec_eval.decision, Decision::Stop(_));
        // An agent that looks only now and then (`wants_frame`) gets the
        // frame drawn on the steps it looks at and an empty one otherwise.
        let wanted = agents.iter().any(|a| a.wants_frame());
        let policy = last || stepper.reset_pending() || rec_step % frame_every == 0;
        // A sparse set keeps only the policy's frames; otherwise every frame
        // an agent looked at is kept too.
        let store = policy || (wanted && !sparse);
        if wanted || store {
            let mut no_sink = None;
            let target = if store { &mut sink } else { &mut no_sink };
            png = observe_frame(&stepper, target, &mut pixmap, &frame_rel)?;
            frame_written = store;
        } else {
            frame_written = false;
            png.clear();
        }
        if stepper.reset_pending() {
            let note = episode_end_note(&rec_state, rec_episode + 1);
            for agent in agents.iter_mut() {
                agent.observe_episode_end(&png, opts.frames.then_some(frame_rel.as_str()), &note);
            }
            stepper.complete_reset().map_err(RunError::Runtime)?;
            frame_rel = reset_frame_name(rec_step);
            png = observe_frame(&stepper, &mut sink, &mut pixmap, &frame_rel)?;
        }
        on_step(rec_step, rec_eval.best_progress);
        if let Decision::Stop(reason) = rec_eval.decision {
            break reason;
        }
    };
    if coop {
        result.roles = Some(role_results);
    }
    let eval = stepper.evaluator();
    result.steps = stepper.step_index();
    result.episodes = stepper.episode() + 1;
    result.success = eval.success();
    result.progress = eval.best_progress();
    result.best_score = eval.best_score();
    result.reference = eval.reference();
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

/// The call records of one role of a cooperative run.
pub fn role_calls_file(role: &str) -> String {
    format!("model_calls.{role}.jsonl")
}

/// The interface column of a cooperative run: the roles' interfaces, once
/// each, joined with `,`.
fn joined_interfaces(interfaces: &[gw_core::registry::Interface]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for i in interfaces {
        if !names.contains(&i.as_str()) {
            names.push(i.as_str());
        }
    }
    names.join(",")
}

fn count_kind(result: &mut RunResult, kind: Option<gw_core::InvalidKind>) {
    match kind {
        None => result.valid_actions += 1,
        Some(gw_core::InvalidKind::NoToolCall) => result.invalid_no_tool_call += 1,
        Some(gw_core::InvalidKind::OutOfSpace) => result.invalid_out_of_space += 1,
    }
}

/// What an agent hears about its executed (or refused) action.
fn outcome_summary(
    action: &Option<gw_core::Action>,
    invalid: &Option<gw_core::action::Invalid>,
) -> String {
    match (action, invalid) {
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
    }
}

/// One `trajectory.jsonl` line of a cooperative step: the SPEC fields
/// (`action` and `control` keyed by role, `valid` when every role's action
/// was, `invalid_kind` the first role's failure) and `roles`, one entry per
/// role with its action, validity, reply and latency. `latency_ms` is the
/// charged (longest) inference time; `usage` and `cost_usd` are summed.
fn joint_trajectory_line(
    rec: &gw_core::JointStepRecord,
    replies: &[(gw_agents::Reply, u64)],
    roles: &[RoleResult],
    charged_ms: u64,
    idle_ms: &[u64],
) -> Value {
    let fingerprint = crate::verify::state_fingerprint(&rec.state);
    let mut state = rec.state.clone();
    state["timestampMs"] = json!(now_ms());
    let mut actions = serde_json::Map::new();
    let mut controls = serde_json::Map::new();
    let mut proposed = serde_json::Map::new();
    let mut entries = Vec::new();
    let mut usage = gw_agents::Usage::default();
    let mut cost = 0.0;
    for ((part, (reply, latency_ms)), info) in rec.roles.iter().zip(replies).zip(roles) {
        let action = part.action.as_ref().map(|a| a.to_value());
        actions.insert(part.role.clone(), json!(action));
        controls.insert(part.role.clone(), json!(part.control));
        proposed.insert(part.role.clone(), json!(reply.payload));
        usage = usage.saturating_add(reply.usage);
        cost = saturating_cost(cost, reply.cost_usd);
        entries.push(json!({
            "role": part.role,
            "model": info.model,
            "action": action,
            "control": part.control,
            "proposed": reply.payload,
            "valid": part.valid(),
            "invalid_kind": part.invalid_kind(),
            "invalid_reason": part.invalid.as_ref().map(|i| i.reason.clone()),
            "latency_ms": latency_ms,
            "reasoning": reply.reasoning,
            "parse_error": reply.parse_error,
            "stated_reason": reply.stated_reason,
            "usage": reply.usage,
            "cost_usd": reply.cost_usd,
        }));
    }
    let first_invalid = rec.roles.iter().find(|r| !r.valid());
    json!({
        "step": rec.step,
        "episode": rec.episode,
        "action": actions,
        "control": controls,
        "proposed": proposed,
        "valid": first_invalid.is_none(),
        "invalid_kind": first_invalid.and_then(|r| r.invalid_kind()),
        "invalid_reason": first_invalid.map(|r| format!("{}: {}", r.role, r.invalid.as_ref().map(|i| i.reason.as_str()).unwrap_or(""))),
        "roles": entries,
        "events": rec.events,
        "game_time_ms": rec.state["gameTimeMs"],
        "score": rec.eval.score,
        "progress": rec.eval.progress,
        "best_progress": rec.eval.best_progress,
        "latency_ms": charged_ms,
        "idle_ms": idle_ms,
        "usage": usage,
        "cost_usd": cost,
        "state_fingerprint": fingerprint,
        "state": state,
    })
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
