//! One dataset episode in two passes.
//!
//! 1. [`run_expert`]: the expert plays the task in a fresh world without
//!    drawing anything and its factored actions are kept. [`judge`] applies
//!    the MGOA filter: only runs that reach the goal, within `max_steps`.
//! 2. [`replay`]: a kept run is played again from the same seed with the same
//!    actions, now rendering the observation before every action. The world
//!    is deterministic and rendering reads it only, so the replay walks the
//!    very same states; discarded runs never pay for frames.

use crate::frame::FrameFormat;
use gw_openworld::Expert;
use gw_openworld::game::item_matches;
use gw_openworld::plan::inventory_map;
use gw_world::{Action, VptAction, World};
use serde::{Deserialize, Serialize};

/// What an episode asks for: hold `count` of `target_item`, starting from
/// the inventory `kit` (a registry task's `init`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskDef {
    /// The registry task id (e.g. `atomic_logs`); names the data folder.
    pub id: String,
    pub target_item: String,
    pub count: u32,
    pub kit: Vec<(String, u32)>,
}

/// The seed of episode `episode` of task `task_id` under the dataset seed
/// `base`: each episode has its own world, and adding tasks or episodes does
/// not change the others.
pub fn episode_seed(base: u64, task_id: &str, episode: u32) -> u64 {
    // FNV-1a of the task id picks the stream.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in task_id.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut r = gw_core::Rng::new(base ^ h, 0x6570_0000 + episode as u64);
    r.next_u64()
}

/// The world an episode starts in: the `openworld` game's fresh world for
/// this seed (new terrain, the shared spawn rule: surface, trees nearby, morning) with
/// the task's kit.
pub fn start_world(task: &TaskDef, seed: u64) -> World {
    gw_openworld::game::fresh_world(seed, 0, &task.kit)
}

/// Pass 1's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpertRun {
    pub actions: Vec<Action>,
    /// The inventory held the goal count after the last action.
    pub success: bool,
    /// The player died (the game ends the episode there).
    pub died: bool,
}

/// Pass 1: the expert plays until it holds the goal, dies, or has acted
/// `run_limit` times.
pub fn run_expert(task: &TaskDef, seed: u64, run_limit: u64) -> ExpertRun {
    let mut w = start_world(task, seed);
    let mut ex = Expert::new(&task.target_item, task.count);
    let mut actions = Vec::new();
    let mut success = ex.done(&w);
    while !success && !w.player.dead && (actions.len() as u64) < run_limit {
        let a = ex.act(&w);
        w.step(&a);
        actions.push(a);
        success = ex.done(&w);
    }
    ExpertRun {
        actions,
        success,
        died: w.player.dead && !success,
    }
}

/// Why a run is left out of the dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Drop {
    /// The goal was not reached within the run limit.
    NotReached,
    /// The player died before reaching the goal.
    Died,
    /// The goal was reached, but after more than `max_steps` steps.
    OverLong,
    /// The goal already held at the start: nothing to learn.
    Empty,
}

impl Drop {
    pub const ALL: [Drop; 4] = [Drop::NotReached, Drop::Died, Drop::OverLong, Drop::Empty];

    pub fn as_str(self) -> &'static str {
        match self {
            Drop::NotReached => "not_reached",
            Drop::Died => "died",
            Drop::OverLong => "over_long",
            Drop::Empty => "empty",
        }
    }
}

/// The MGOA filter: keep successful runs of at most `max_steps` steps.
pub fn judge(run: &ExpertRun, max_steps: u64) -> Result<(), Drop> {
    if run.success && run.actions.is_empty() {
        Err(Drop::Empty)
    } else if run.success && run.actions.len() as u64 <= max_steps {
        Ok(())
    } else if run.success {
        Err(Drop::OverLong)
    } else if run.died {
        Err(Drop::Died)
    } else {
        Err(Drop::NotReached)
    }
}

/// One goal-observation-action record: the frame the agent saw, the action
/// it took on that frame, and what the action brought.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRecord {
    pub step: u32,
    /// The first-person view (with HUD) before the action, encoded in the
    /// dataset's frame format (JPEG or PNG bytes).
    pub frame: Vec<u8>,
    pub action: Action,
    pub vpt: VptAction,
    /// Item id → count before the action, sorted by item id.
    pub inventory: Vec<(String, u32)>,
    /// Feet position (x, y, z) before the action.
    pub position: [f64; 3],
    /// View direction before the action, degrees.
    pub yaw: f32,
    pub pitch: f32,
    /// Target items obtained by this action (picked up, crafted, smelted).
    pub reward: f32,
    /// Fraction of the goal count held after the action, in [0, 1].
    pub progress: f32,
    /// The goal is held after this action (true on the last record only).
    pub done: bool,
}

/// Target items obtained so far in `w`.
fn obtained(w: &World, target: &str) -> u32 {
    let d = gw_world::data();
    w.obtained
        .iter()
        .filter(|(id, _)| item_matches(target, d.item_name(**id)))
        .map(|(_, n)| *n)
        .sum()
}

/// Takes `taken` in `w` and returns that step's record: `frame` and the
/// player's state before the step, `label` as the recorded action (the
/// action taken in the expert's own runs; the expert's answer while another
/// player acts, in DAgger data), and what the step brought toward the task.
pub fn record_step(
    task: &TaskDef,
    ex: &Expert,
    w: &mut World,
    step: u32,
    frame: Vec<u8>,
    taken: &Action,
    label: Action,
) -> StepRecord {
    let p = &w.player;
    let inventory = inventory_map(&p.inventory).into_iter().collect();
    let position = p.body.pos;
    let (yaw, pitch) = (p.yaw as f32, p.pitch as f32);
    let before = obtained(w, &task.target_item);
    w.step(taken);
    let held = gw_openworld::plan::held(&inventory_map(&w.player.inventory), &task.target_item);
    StepRecord {
        step,
        frame,
        vpt: gw_world::action::encode(&label),
        action: label,
        inventory,
        position,
        yaw,
        pitch,
        reward: obtained(w, &task.target_item).saturating_sub(before) as f32,
        progress: (held as f32 / task.count as f32).min(1.0),
        done: ex.done(w),
    }
}

/// Pass 2: play `actions` again from the start world of `seed`, rendering
/// `width` × `height` frames encoded as `format`, and hand each record to
/// `sink` in order.
/// Fails if the replay does not reach the goal on its last step (the world
/// was not deterministic, which would make the records lie).
pub fn replay<E>(
    task: &TaskDef,
    seed: u64,
    actions: &[Action],
    width: u32,
    height: u32,
    format: FrameFormat,
    mut sink: impl FnMut(StepRecord) -> Result<(), E>,
) -> Result<(), ReplayError<E>> {
    let mut w = start_world(task, seed);
    let ex = Expert::new(&task.target_item, task.count);
    let (wu, hu) = (width as usize, height as usize);
    let mut rgba = vec![0u8; wu * hu * 4];
    for (i, a) in actions.iter().enumerate() {
        gw_world::render::render_rgba(&w, wu, hu, &mut rgba, false);
        let frame = format.encode(&rgba, width, height);
        let r = record_step(task, &ex, &mut w, i as u32, frame, a, a.clone());
        if r.done != (i + 1 == actions.len()) {
            return Err(ReplayError::Diverged { step: i as u32 });
        }
        sink(r).map_err(ReplayError::Sink)?;
    }
    Ok(())
}

#[derive(Debug)]
pub enum ReplayError<E> {
    /// The replayed run reached the goal at another step than pass 1 did.
    Diverged {
        step: u32,
    },
    Sink(E),
}
