//! The run loop as named steps over one [`Run`]: observe, infer (the
//! agents' replies, parsed by the agents), charge the inference time,
//! execute (parse into actions, play, snapshot, evaluate), record, draw the
//! step's frame, reset on fail. A single-role preset is the one-player case:
//! the same steps run over a list of one agent; only the stepper call and
//! the trajectory line take the single-role shapes the SPEC gives them.

use super::record::{
    Records, episode_end_note, frame_name, io_err, joint_trajectory_line, outcome_summary,
    reset_frame_name, trajectory_line,
};
use super::result::{RoleResult, RunOptions, RunResult, role_calls_file, saturating_cost};
use crate::agents::make_agent;
use crate::error::RunError;
use crate::frames::FrameSink;
use gw_agents::{Agent, Observation, Reply};
use gw_core::frame::write_atomic;
use gw_core::registry::{Interface, Preset, Registry};
use gw_core::{Decision, InvalidKind, JointStepRecord, StepEval, StepRecord, Stepper, StopReason};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    let make = |preset: &Preset, seed: u64| {
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
    dyn Fn(&Preset, u64) -> Result<Box<dyn gw_agents::Agent>, RunError> + 'a;

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
    let preset = resolve(registry, opts)?;
    let mut run = Run::start(&preset, opts, agent_for)?;
    let stop = loop {
        let replies = match run.infer()? {
            Inferred::Replies(replies) => replies,
            Inferred::Again => continue,
            Inferred::Stop(reason) => break reason,
        };
        let charged_ms = run.charge_inference(&replies);
        let step = run.execute(&replies)?;
        run.record(&step, &replies, charged_ms)?;
        run.draw_step_frame(&step)?;
        run.reset_on_fail(&step)?;
        on_step(step.step(), step.eval().best_progress);
        if let Decision::Stop(reason) = step.eval().decision {
            break reason;
        }
    };
    run.finish(stop, started)
}

/// The preset with the options applied (`--max-steps`, `--memory-rounds`),
/// after the checks that need no game: resolution errors surface before
/// anything starts.
fn resolve(registry: &Registry, opts: &RunOptions) -> Result<Preset, RunError> {
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
    Ok(preset)
}

/// What the agents said for one step.
enum Inferred {
    /// One reply per role, in role order, with the inference time charged
    /// to each.
    Replies(Vec<(Reply, u64)>),
    /// No step: a person watched the game (real-time play); observe again.
    Again,
    /// The run ends here (an agent ended it, left, or failed).
    Stop(StopReason),
}

/// One executed step in the shape the stepper returns it: a single-role
/// step, or a cooperative step with one part per role.
enum Executed {
    One(StepRecord),
    Joint(JointStepRecord),
}

impl Executed {
    fn step(&self) -> u32 {
        match self {
            Executed::One(r) => r.step,
            Executed::Joint(r) => r.step,
        }
    }
    fn episode(&self) -> u32 {
        match self {
            Executed::One(r) => r.episode,
            Executed::Joint(r) => r.episode,
        }
    }
    fn state(&self) -> &Value {
        match self {
            Executed::One(r) => &r.state,
            Executed::Joint(r) => &r.state,
        }
    }
    fn eval(&self) -> &StepEval {
        match self {
            Executed::One(r) => &r.eval,
            Executed::Joint(r) => &r.eval,
        }
    }
    /// Each role's invalid kind (none when valid) and what its agent hears
    /// about the outcome, in role order.
    fn outcomes(&self) -> Vec<(Option<InvalidKind>, String)> {
        match self {
            Executed::One(r) => vec![(r.invalid_kind(), outcome_summary(&r.action, &r.invalid))],
            Executed::Joint(r) => r
                .roles
                .iter()
                .map(|p| (p.invalid_kind(), outcome_summary(&p.action, &p.invalid)))
                .collect(),
        }
    }
}

/// The frames side of a run: the frame the agents see next, the buffer it
/// is drawn in, and the sink that stores frames on disk.
struct Frames {
    viewport: (u32, u32),
    /// The agents' frame buffer; `None` when no agent looks at frames (the
    /// frames that go to disk are then drawn on the sink's canvas).
    pixmap: Option<tiny_skia::Pixmap>,
    sink: Option<FrameSink>,
    /// Keep a frame every this many steps (game YAML `frame_every`, or the
    /// sparse set's interval).
    every: u32,
    /// A sparse set: only the policy's frames are stored.
    sparse: bool,
    /// The frame the agents see next (empty when none was drawn), its name
    /// under the run directory, and whether it is stored there.
    png: Vec<u8>,
    rel: String,
    written: bool,
}

impl Frames {
    fn new(
        opts: &RunOptions,
        preset: &Preset,
        stepper: &Stepper,
        agent_needs_png: bool,
    ) -> Result<Frames, RunError> {
        let (w, h) = stepper.viewport();
        let pixmap = if agent_needs_png {
            Some(
                tiny_skia::Pixmap::new(w, h)
                    .ok_or_else(|| RunError::Runtime("viewport too large".into()))?,
            )
        } else {
            None
        };
        let sink = if opts.frames {
            Some(
                FrameSink::new(&opts.out, w, h, stepper.frame_filter(), !agent_needs_png)
                    .map_err(RunError::Runtime)?,
            )
        } else {
            None
        };
        // Which frames go to disk: all of them (every `frame_every` steps for
        // games that set it), or a sparse set every `every` steps.
        let every = match opts.sparse_frames {
            Some(n) => n.max(preset.game.frame_every).max(1),
            None => preset.game.frame_every.max(1),
        };
        Ok(Frames {
            viewport: (w, h),
            pixmap,
            sink,
            every,
            sparse: opts.sparse_frames.is_some(),
            png: Vec::new(),
            rel: String::new(),
            written: false,
        })
    }

    /// Draw the game as `rel`: into the agents' PNG when they look, and to
    /// disk when `store` (and frames are on).
    fn draw(&mut self, stepper: &Stepper, rel: String, store: bool) -> Result<(), RunError> {
        let mut no_sink = None;
        let sink = if store { &mut self.sink } else { &mut no_sink };
        self.png = observe_frame(stepper, sink, &mut self.pixmap, &rel)?;
        self.rel = rel;
        Ok(())
    }
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

/// One run in progress: the game, one agent per role (one for a
/// single-role preset), what has been written and what is counted.
struct Run<'o> {
    opts: &'o RunOptions,
    stepper: Stepper,
    agents: Vec<Box<dyn Agent>>,
    interfaces: Vec<Interface>,
    /// A cooperative preset: per-role call files, joint steps and joint
    /// trajectory lines, per-role counts in `result.json`.
    coop: bool,
    frames: Frames,
    records: Records,
    result_path: PathBuf,
    result: RunResult,
    roles: Vec<RoleResult>,
    /// Real-time idles since the last step (a person watching, then the
    /// agents' inference time), recorded with the step.
    idles: Vec<u64>,
}

impl<'o> Run<'o> {
    /// Build the game and the agents, prepare the run directory and observe
    /// the first frame.
    fn start(
        preset: &Preset,
        opts: &'o RunOptions,
        agent_for: &AgentFactory<'_>,
    ) -> Result<Run<'o>, RunError> {
        let game = crate::games::create_game(preset)?;
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
        let interfaces: Vec<Interface> = agents.iter().map(|a| a.interface()).collect();
        let stepper = Stepper::new(game, preset, opts.seed).map_err(RunError::Runtime)?;

        let calls_paths: Vec<PathBuf> = if coop {
            role_presets
                .iter()
                .map(|p| opts.out.join(role_calls_file(&p.role.name)))
                .collect()
        } else {
            vec![opts.out.join("model_calls.jsonl")]
        };
        let records = prepare_run_dir(&opts.out, calls_paths)?;
        let agent_needs_png = agents.iter().any(|a| a.needs_frames());
        let frames = Frames::new(opts, preset, &stepper, agent_needs_png)?;

        let roles: Vec<RoleResult> = role_presets
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
        let mut result = RunResult::starting(preset, opts, stepper.evaluator().best_score());
        if coop {
            result.model = preset.model_label();
            result.interface = joined_interfaces(&interfaces);
        } else {
            result.model = agents[0].id().to_string();
            result.interface = interfaces[0].as_str().to_string();
            result.client = agents[0].client();
        }
        let mut run = Run {
            opts,
            stepper,
            agents,
            interfaces,
            coop,
            frames,
            records,
            result_path: opts.out.join("result.json"),
            result,
            roles,
            idles: Vec::new(),
        };
        run.frames.draw(&run.stepper, frame_name(0), true)?;
        run.frames.written = true;
        Ok(run)
    }

    /// Observe and infer: every role proposes against the same observation,
    /// in role order; the game clock does not move meanwhile (paused mode).
    /// Each reply's call records are written as it arrives.
    fn infer(&mut self) -> Result<Inferred, RunError> {
        let opts = self.opts;
        let step = self.stepper.step_index() + 1;
        let state = self.stepper.state_value();
        let mut replies: Vec<(Reply, u64)> = Vec::with_capacity(self.agents.len());
        for (i, agent) in self.agents.iter_mut().enumerate() {
            let stepper = &self.stepper;
            let expert = || stepper.expert_payload_for(i);
            let frames = &self.frames;
            let obs = Observation {
                step,
                episode: stepper.episode(),
                frame_png: &frames.png,
                frame_path: (opts.frames && frames.written).then_some(frames.rel.as_str()),
                viewport: frames.viewport,
                state: &state,
                expert: &expert,
                game: stepper.game().as_any(),
            };
            let t0 = Instant::now();
            let turn = agent.turn(&obs);
            let measured_ms = t0.elapsed().as_millis() as u64;
            let reply = match turn {
                Ok(gw_agents::Turn::Act(r)) => r,
                Ok(gw_agents::Turn::Watch) => {
                    // A person watching between inputs (single-role plays
                    // only): no step; in real-time mode the game ran
                    // meanwhile. The fresh frame is not a step's frame, so
                    // it is not stored.
                    if opts.realtime {
                        self.stepper.idle(measured_ms);
                        self.idles.push(measured_ms);
                        self.result.latency_ms = self.result.latency_ms.saturating_add(measured_ms);
                        if let Some(pixmap) = self.frames.pixmap.as_mut() {
                            self.stepper.render(pixmap);
                            self.frames.png = self.stepper.encode_frame(pixmap);
                        }
                    }
                    return Ok(Inferred::Again);
                }
                Ok(gw_agents::Turn::Hold) => return Ok(Inferred::Again),
                Ok(gw_agents::Turn::End(reason)) => {
                    let calls = agent.take_unreported_calls();
                    self.records.calls(i, &calls)?;
                    return Ok(Inferred::Stop(reason));
                }
                Err(gw_agents::AgentError::Left(_)) => {
                    // A client that went away ends the run like a budget
                    // would: what was played counts, and it is no error.
                    return Ok(Inferred::Stop(StopReason::AgentLeft));
                }
                Err(e) => {
                    self.result.error = Some(gw_agents::secrets::error_text(&if self.coop {
                        format!("role {}: {e}", self.roles[i].role)
                    } else {
                        e.to_string()
                    }));
                    // Keep the record of the calls that failed.
                    let calls = agent.take_unreported_calls();
                    self.records.calls(i, &calls)?;
                    return Ok(Inferred::Stop(StopReason::AgentError));
                }
            };
            self.records.calls(i, &reply.calls)?;
            let latency_ms = if reply.latency_ms > 0 {
                reply.latency_ms
            } else {
                measured_ms
            };
            replies.push((reply, latency_ms));
        }
        Ok(Inferred::Replies(replies))
    }

    /// Charge the step's inference: in real-time mode the world moves for
    /// it, and tokens, costs and latencies are summed (per role and in the
    /// SPEC totals). The roles think side by side, so the world waits for
    /// the slowest: the charged time, returned, is the longest latency.
    fn charge_inference(&mut self, replies: &[(Reply, u64)]) -> u64 {
        let charged_ms = replies.iter().map(|(_, l)| *l).max().unwrap_or(0);
        if self.opts.realtime {
            // Real-time mode: the world kept moving while the agents thought.
            self.stepper.idle(charged_ms);
            self.idles.push(charged_ms);
        }
        let result = &mut self.result;
        for (i, (reply, latency_ms)) in replies.iter().enumerate() {
            // Sums saturate: a hostile server may report any count.
            let r = &mut self.roles[i];
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
        charged_ms
    }

    /// Parse, execute, snapshot and evaluate: the stepper reads each role's
    /// proposal with its controls (an invalid one is a no-op for that role),
    /// plays the actions, snapshots and evaluates once. A failed episode's
    /// reset stays pending until its frame is drawn. Each proposal is
    /// counted and its agent hears the outcome.
    fn execute(&mut self, replies: &[(Reply, u64)]) -> Result<Executed, RunError> {
        let executed = if self.coop {
            let proposals: Vec<(Interface, Option<&Value>)> = replies
                .iter()
                .zip(&self.interfaces)
                .map(|((r, _), i)| (*i, r.payload.as_ref()))
                .collect();
            Executed::Joint(
                self.stepper
                    .step_joint_keep_terminal(&proposals)
                    .map_err(RunError::Runtime)?,
            )
        } else {
            Executed::One(
                self.stepper
                    .step_keep_terminal(self.interfaces[0], replies[0].0.payload.as_ref())
                    .map_err(RunError::Runtime)?,
            )
        };
        for (i, (kind, summary)) in executed.outcomes().into_iter().enumerate() {
            self.roles[i].count(kind);
            self.result.count(kind);
            self.agents[i].observe_outcome(kind.is_none(), &summary);
        }
        Ok(executed)
    }

    /// Record: the step's `trajectory.jsonl` line (the real-time idles that
    /// preceded it go with it).
    fn record(
        &mut self,
        executed: &Executed,
        replies: &[(Reply, u64)],
        charged_ms: u64,
    ) -> Result<(), RunError> {
        let line = match executed {
            Executed::One(rec) => {
                let (reply, latency_ms) = &replies[0];
                trajectory_line(rec, reply, *latency_ms, &self.idles)
            }
            Executed::Joint(rec) => {
                joint_trajectory_line(rec, replies, &self.roles, charged_ms, &self.idles)
            }
        };
        self.records.trajectory(&line)?;
        self.idles.clear();
        Ok(())
    }

    /// Observe the step: draw frame N (the state of trajectory row N, a
    /// failure included) when an agent looks or the frame policy keeps it.
    /// Long open-world runs (game YAML `frame_every`) keep a frame every K
    /// steps, the last one, and every frame the agent sees.
    fn draw_step_frame(&mut self, executed: &Executed) -> Result<(), RunError> {
        let step = executed.step();
        let last = matches!(executed.eval().decision, Decision::Stop(_));
        // An agent that looks only now and then (`wants_frame`) gets the
        // frame drawn on the steps it looks at and an empty one otherwise.
        let wanted = self.agents.iter().any(|a| a.wants_frame());
        let policy = last || self.stepper.reset_pending() || step.is_multiple_of(self.frames.every);
        // A sparse set keeps only the policy's frames; otherwise every frame
        // an agent looked at is kept too.
        let store = policy || (wanted && !self.frames.sparse);
        if wanted || store {
            self.frames.draw(&self.stepper, frame_name(step), store)?;
            self.frames.written = store;
        } else {
            self.frames.rel = frame_name(step);
            self.frames.written = false;
            self.frames.png.clear();
        }
        Ok(())
    }

    /// Reset on fail: when the step failed the episode, the agents hear it
    /// (with the failure frame), the game restarts, and the restarted game
    /// is drawn as `frames/step_NNNNNN_reset.png`.
    fn reset_on_fail(&mut self, executed: &Executed) -> Result<(), RunError> {
        if !self.stepper.reset_pending() {
            return Ok(());
        }
        let note = episode_end_note(executed.state(), executed.episode() + 1);
        let frame_path = self.opts.frames.then_some(self.frames.rel.as_str());
        for agent in self.agents.iter_mut() {
            agent.observe_episode_end(&self.frames.png, frame_path, &note);
        }
        self.stepper.complete_reset().map_err(RunError::Runtime)?;
        self.frames
            .draw(&self.stepper, reset_frame_name(executed.step()), true)?;
        Ok(())
    }

    /// The run's totals into `result.json`, written atomically after every
    /// frame is on disk. An agent's failure is returned after it is written.
    fn finish(mut self, stop: StopReason, started: Instant) -> Result<RunResult, RunError> {
        let mut result = self.result;
        if self.coop {
            result.roles = Some(self.roles);
        }
        let eval = self.stepper.evaluator();
        result.steps = self.stepper.step_index();
        result.episodes = self.stepper.episode() + 1;
        result.success = eval.success();
        result.progress = eval.best_progress();
        result.best_score = eval.best_score();
        result.reference = eval.reference();
        result.stop_reason = stop.as_str().to_string();
        result.game_time_ms = self.stepper.state_value()["gameTimeMs"]
            .as_u64()
            .unwrap_or(0);
        // Every frame is on disk before the result that refers to them.
        if let Some(sink) = self.frames.sink.take() {
            sink.finish().map_err(RunError::Runtime)?;
        }
        result.wall_ms = started.elapsed().as_millis() as u64;
        let result_path = self.result_path;
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
}

/// Make the run directory ready: create it, clear an earlier run's frames
/// and call files (they would mix with this run's or pass for them) and
/// open `trajectory.jsonl`. A finished `result.json` already there is never
/// deleted: the new one replaces it atomically when this run ends.
fn prepare_run_dir(out: &Path, calls_paths: Vec<PathBuf>) -> Result<Records, RunError> {
    std::fs::create_dir_all(out).map_err(|e| io_err(out, e))?;
    let frames_dir = out.join("frames");
    if frames_dir.is_dir() {
        std::fs::remove_dir_all(&frames_dir).map_err(|e| io_err(&frames_dir, e))?;
    }
    // FrameSink creates frames/ when frames are on.
    let mut stale: Vec<PathBuf> = calls_paths.clone();
    stale.push(out.join("model_calls.jsonl"));
    for path in stale {
        if path.is_file() {
            std::fs::remove_file(&path).map_err(|e| io_err(&path, e))?;
        }
    }
    Records::create(out.join("trajectory.jsonl"), calls_paths)
}

/// The interface column of a cooperative run: the roles' interfaces, once
/// each, joined with `,`.
fn joined_interfaces(interfaces: &[Interface]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for i in interfaces {
        if !names.contains(&i.as_str()) {
            names.push(i.as_str());
        }
    }
    names.join(",")
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
