//! The stepper: one game under one resolved preset, driven one action at a
//! time through the action layer and the evaluator. It is the I/O-free core
//! of the run loop — the runtime adds agents, frames and files around it, and
//! game tests use it directly to prove their scripted experts.

use crate::action::{
    Action, Invalid, InvalidKind, RoleControls, SemanticMap, TimedEvent, parse_action,
};
use crate::evaluator::{Decision, Evaluator, StepEval};
use crate::game::{Game, GameConfig, TaskInfo};
use crate::registry::{Interface, Preset};
use serde_json::Value;

/// Longest a game may stay in loading/menu before the readiness gate gives up.
const READINESS_LIMIT_MS: u64 = 30_000;
const READINESS_TICK_MS: u64 = 10;

/// Everything that happened in one step.
#[derive(Clone, Debug)]
pub struct StepRecord {
    pub step: u32,
    pub episode: u32,
    /// The semantic control id, for generalist agents.
    pub control: Option<String>,
    pub action: Option<Action>,
    pub invalid: Option<Invalid>,
    pub events: Vec<TimedEvent>,
    /// The gameAPI snapshot after the action (before any reset); only the
    /// evaluator's part of it when snapshots are off
    /// ([`Stepper::set_snapshots`]).
    pub state: Value,
    pub eval: StepEval,
}

impl StepRecord {
    pub fn valid(&self) -> bool {
        self.invalid.is_none()
    }
    pub fn invalid_kind(&self) -> Option<InvalidKind> {
        self.invalid.as_ref().map(|i| i.kind)
    }
}

/// One role's part of a cooperative step.
#[derive(Clone, Debug)]
pub struct RoleStep {
    pub role: String,
    pub control: Option<String>,
    pub action: Option<Action>,
    pub invalid: Option<Invalid>,
}

impl RoleStep {
    pub fn valid(&self) -> bool {
        self.invalid.is_none()
    }
    pub fn invalid_kind(&self) -> Option<InvalidKind> {
        self.invalid.as_ref().map(|i| i.kind)
    }
}

/// One step of a cooperative game: every role's action against the same
/// observation, executed together, then one snapshot and one evaluation.
#[derive(Clone, Debug)]
pub struct JointStepRecord {
    pub step: u32,
    pub episode: u32,
    /// One entry per role, in the game's role order.
    pub roles: Vec<RoleStep>,
    /// The roles' events merged on the simulated clock, as played.
    pub events: Vec<TimedEvent>,
    pub state: Value,
    pub eval: StepEval,
}

/// A role's controls and semantic map.
struct RoleSlot {
    name: String,
    controls: RoleControls,
    map: SemanticMap,
}

/// Merge several roles' event lists on one clock: each list starts at time
/// 0; inputs keep their times (ties in role order, then list order) and the
/// merged list waits until the longest list has ended.
pub fn merge_events(lists: &[Vec<TimedEvent>]) -> Vec<TimedEvent> {
    let mut timed: Vec<(u64, &TimedEvent)> = Vec::new();
    let mut end = 0u64;
    for list in lists {
        let mut t = 0u64;
        for ev in list {
            match ev {
                TimedEvent::Input(_) => timed.push((t, ev)),
                TimedEvent::Wait { wait_ms } => t = t.saturating_add(*wait_ms),
            }
        }
        end = end.max(t);
    }
    // Stable: equal times keep role order, then each list's own order.
    timed.sort_by_key(|(t, _)| *t);
    let mut out = Vec::with_capacity(timed.len() + lists.len() * 2);
    let mut now = 0u64;
    for (t, ev) in timed {
        if t > now {
            out.push(TimedEvent::Wait { wait_ms: t - now });
            now = t;
        }
        out.push(ev.clone());
    }
    if end > now {
        out.push(TimedEvent::Wait { wait_ms: end - now });
    }
    out
}

pub struct Stepper {
    game: Box<dyn Game>,
    /// The roles that play: one for single-player presets, every role of a
    /// cooperative game otherwise.
    roles: Vec<RoleSlot>,
    evaluator: Evaluator,
    speed: f64,
    viewport: (u32, u32),
    task_info: TaskInfo,
    step: u32,
    episode: u32,
    finished: Option<Decision>,
    /// A reset-on-fail decided by the last step and not yet carried out, so
    /// the caller can still render (and show) the terminal state.
    pending_reset: bool,
    /// Whether each step snapshots the whole state into its record (the
    /// trajectory's `state`); off, a step reads only what the evaluator
    /// needs ([`Game::eval_view`]) and the record holds just that.
    snapshots: bool,
    /// The task's score fields and end field (what [`Game::eval_view`] reads).
    eval_paths: Vec<String>,
}

/// The init config a task asks for.
pub fn game_config(preset: &Preset, seed: u64) -> GameConfig {
    GameConfig {
        seed,
        level: preset.task.level,
        difficulty: preset.task.difficulty.clone(),
        options: preset.task.init.clone(),
    }
}

impl Stepper {
    /// `init` + `reset` the game for this preset and seed, then wait at the
    /// readiness gate. Records the initial state with the evaluator.
    pub fn new(mut game: Box<dyn Game>, preset: &Preset, seed: u64) -> Result<Self, String> {
        game.init(&game_config(preset, seed));
        if let Some(f) = game.fault() {
            return Err(f);
        }
        game.reset(0);
        let task = &preset.task;
        let task_info = TaskInfo {
            task_id: task.id.clone(),
            score_field: task.score_fields().first().cloned().unwrap_or_default(),
            target: task.target,
            level: task.level,
        };
        let mut s = Stepper {
            viewport: game.viewport(),
            game,
            roles: if preset.is_cooperative() {
                preset
                    .players
                    .iter()
                    .map(|p| RoleSlot {
                        name: p.role.name.clone(),
                        controls: p.role.controls(),
                        map: p.role.semantic_map(),
                    })
                    .collect()
            } else {
                vec![RoleSlot {
                    name: preset.role.name.clone(),
                    controls: preset.role.controls(),
                    map: preset.role.semantic_map(),
                }]
            },
            evaluator: Evaluator::new(task.eval_spec()),
            speed: preset.game.speed_multiplier,
            task_info,
            step: 0,
            episode: 0,
            finished: None,
            pending_reset: false,
            snapshots: true,
            eval_paths: task
                .score_fields()
                .into_iter()
                .chain(task.end_field.clone())
                .collect(),
        };
        s.readiness_gate()?;
        let initial = s.game.state().to_value();
        s.evaluator.observe(&initial);
        Ok(s)
    }

    fn readiness_gate(&mut self) -> Result<(), String> {
        let mut waited = 0;
        loop {
            self.check_fault()?;
            if self.game.is_ready() {
                break;
            }
            if waited >= READINESS_LIMIT_MS {
                return Err(format!(
                    "game {} did not become ready within {} s of game time",
                    self.game.game_id(),
                    READINESS_LIMIT_MS / 1000
                ));
            }
            self.game.advance(READINESS_TICK_MS);
            waited += READINESS_TICK_MS;
        }
        Ok(())
    }

    /// The game's unrecoverable failure, if it reported one.
    fn check_fault(&self) -> Result<(), String> {
        match self.game.fault() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }

    pub fn game(&self) -> &dyn Game {
        self.game.as_ref()
    }
    pub fn step_index(&self) -> u32 {
        self.step
    }
    pub fn episode(&self) -> u32 {
        self.episode
    }
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }
    pub fn task_info(&self) -> &TaskInfo {
        &self.task_info
    }
    pub fn semantic_map(&self) -> &SemanticMap {
        &self.roles[0].map
    }
    pub fn controls(&self) -> &RoleControls {
        &self.roles[0].controls
    }
    /// The names of the roles that play, in order.
    pub fn role_names(&self) -> Vec<&str> {
        self.roles.iter().map(|r| r.name.as_str()).collect()
    }
    pub fn viewport(&self) -> (u32, u32) {
        self.viewport
    }
    /// The decision that ended the run, once it has ended.
    pub fn finished(&self) -> Option<Decision> {
        self.finished
    }

    pub fn state_value(&self) -> Value {
        self.game.state().to_value()
    }

    /// Keep (the default) or drop the whole-state snapshot of each step's
    /// record. Without it a step costs the game's step and its
    /// [`Game::eval_view`]; scores, progress and decisions are the same.
    pub fn set_snapshots(&mut self, on: bool) {
        self.snapshots = on;
    }

    /// What the evaluator reads of the current state ([`Game::eval_view`]).
    pub fn eval_value(&self) -> Value {
        self.game.eval_view(&self.eval_paths)
    }

    pub fn render(&self, pixmap: &mut tiny_skia::Pixmap) {
        self.game.render(pixmap)
    }

    /// The PNG row filter the game's frames are encoded with.
    pub fn frame_filter(&self) -> crate::frame::RowFilter {
        self.game.frame_filter()
    }

    /// The game's frame in `pixmap` (as [`Self::render`] drew it) encoded
    /// as PNG with the game's filter.
    pub fn encode_frame(&self, pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
        crate::frame::encode_frame(pixmap, self.frame_filter())
    }

    /// The scripted expert's next payload.
    pub fn expert_payload(&self) -> Value {
        self.game.expert_action(&self.task_info)
    }

    /// The scripted expert's next payload for role `index` (cooperative
    /// games coordinate their roles in the game's expert).
    pub fn expert_payload_for(&self, index: usize) -> Value {
        match self.roles.get(index) {
            Some(r) if self.roles.len() > 1 => {
                self.game.expert_action_for_role(&self.task_info, &r.name)
            }
            _ => self.expert_payload(),
        }
    }

    /// Read a proposal into an executable, legal action.
    pub fn interpret(
        &self,
        interface: Interface,
        payload: Option<&Value>,
    ) -> Result<(Option<String>, Action), Invalid> {
        self.interpret_for(0, interface, payload)
    }

    /// Read role `index`'s proposal with that role's controls.
    pub fn interpret_for(
        &self,
        index: usize,
        interface: Interface,
        payload: Option<&Value>,
    ) -> Result<(Option<String>, Action), Invalid> {
        let slot = &self.roles[index];
        let payload = payload.ok_or_else(|| Invalid::ntc("the agent proposed no action"))?;
        let (control, action) = match interface {
            Interface::Generalist => {
                let (id, a) = slot.map.resolve(payload)?;
                (Some(id), a)
            }
            Interface::ComputerUse => (None, parse_action(payload)?),
        };
        let action = slot.controls.legalize(action, self.viewport)?;
        if let Action::Native { args, .. } = &action {
            self.game.check_native(args).map_err(Invalid::oos)?;
        }
        Ok((control, action))
    }

    /// Let game time pass without input (real-time mode's inference time).
    pub fn idle(&mut self, ms: u64) {
        let scaled = (ms as f64 * self.speed).round() as u64;
        if scaled > 0 {
            self.game.advance(scaled);
        }
    }

    /// Execute one proposal as one step: invalid proposals are no-ops. A
    /// reset-on-fail happens before this returns; use [`Stepper::step_keep_terminal`]
    /// to look at the failed game first.
    pub fn step(
        &mut self,
        interface: Interface,
        payload: Option<&Value>,
    ) -> Result<StepRecord, String> {
        let rec = self.step_keep_terminal(interface, payload)?;
        self.complete_reset()?;
        Ok(rec)
    }

    /// Whether the last step failed an episode whose reset has not happened
    /// yet: the game still shows the failure.
    pub fn reset_pending(&self) -> bool {
        self.pending_reset
    }

    /// Carry out a pending reset-on-fail: start the next episode and wait at
    /// the readiness gate. Returns whether a reset happened.
    pub fn complete_reset(&mut self) -> Result<bool, String> {
        if !self.pending_reset {
            return Ok(false);
        }
        self.pending_reset = false;
        self.episode += 1;
        self.game.reset(self.episode);
        self.readiness_gate()?;
        Ok(true)
    }

    /// [`Stepper::step`] that leaves a reset-on-fail pending, so the game
    /// (its state, its frame) still shows the failure until
    /// [`Stepper::complete_reset`] runs. The next step completes it first.
    pub fn step_keep_terminal(
        &mut self,
        interface: Interface,
        payload: Option<&Value>,
    ) -> Result<StepRecord, String> {
        if self.finished.is_some() {
            return Err("the run has already ended".into());
        }
        self.complete_reset()?;
        let (control, action, invalid) = match self.interpret(interface, payload) {
            Ok((c, a)) => (c, Some(a), None),
            Err(e) => (None, None, Some(e)),
        };
        let events = action
            .as_ref()
            .map(|a| a.to_events(self.speed))
            .unwrap_or_default();
        let (state, eval) = self.execute(&events)?;
        let record = StepRecord {
            step: self.step,
            episode: self.episode,
            control,
            action,
            invalid,
            events,
            state,
            eval,
        };
        Ok(record)
    }

    /// Play `events` into the game, count the step, snapshot and evaluate.
    fn execute(&mut self, events: &[TimedEvent]) -> Result<(Value, StepEval), String> {
        for ev in events {
            match ev {
                TimedEvent::Input(input) => self.game.handle_event(input),
                TimedEvent::Wait { wait_ms } => self.game.advance(*wait_ms),
            }
        }
        self.check_fault()?;
        self.step += 1;
        let state = if self.snapshots {
            self.game.state().to_value()
        } else {
            self.eval_value()
        };
        let eval = self.evaluator.evaluate_step(&state, self.step);
        match eval.decision {
            Decision::Continue => {}
            Decision::Reset => self.pending_reset = true,
            Decision::Stop(_) => self.finished = Some(eval.decision),
        }
        Ok((state, eval))
    }

    /// One cooperative step: `proposals[i]` is role `i`'s (interface,
    /// payload), all chosen against the same observation. Each is read with
    /// its role's controls (invalid ones are no-ops for that role only),
    /// the valid actions' events are merged on the simulated clock and
    /// played together, then the game is snapshotted and evaluated once.
    /// A reset-on-fail stays pending as in [`Stepper::step_keep_terminal`].
    pub fn step_joint_keep_terminal(
        &mut self,
        proposals: &[(Interface, Option<&Value>)],
    ) -> Result<JointStepRecord, String> {
        if self.finished.is_some() {
            return Err("the run has already ended".into());
        }
        if proposals.len() != self.roles.len() {
            return Err(format!(
                "a step needs one proposal per role ({}), got {}",
                self.roles.len(),
                proposals.len()
            ));
        }
        self.complete_reset()?;
        let mut roles = Vec::with_capacity(proposals.len());
        let mut lists = Vec::with_capacity(proposals.len());
        for (i, (interface, payload)) in proposals.iter().enumerate() {
            let (control, action, invalid) = match self.interpret_for(i, *interface, *payload) {
                Ok((c, a)) => (c, Some(a), None),
                Err(e) => (None, None, Some(e)),
            };
            lists.push(
                action
                    .as_ref()
                    .map(|a| a.to_events(self.speed))
                    .unwrap_or_default(),
            );
            roles.push(RoleStep {
                role: self.roles[i].name.clone(),
                control,
                action,
                invalid,
            });
        }
        let events = merge_events(&lists);
        let (state, eval) = self.execute(&events)?;
        Ok(JointStepRecord {
            step: self.step,
            episode: self.episode,
            roles,
            events,
            state,
            eval,
        })
    }

    /// [`Stepper::step_joint_keep_terminal`] followed by any reset-on-fail.
    pub fn step_joint(
        &mut self,
        proposals: &[(Interface, Option<&Value>)],
    ) -> Result<JointStepRecord, String> {
        let rec = self.step_joint_keep_terminal(proposals)?;
        self.complete_reset()?;
        Ok(rec)
    }
}
