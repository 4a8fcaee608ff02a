//! The game contract: the native form of `window.gameAPI`.
//!
//! Architecture invariant: a game never reads the wall clock or a global RNG.
//! Time moves only through [`Game::advance`] (called by the runtime with the
//! simulated clock) and randomness comes from [`crate::rng::Rng`] seeded by
//! [`GameConfig::seed`].

use crate::action::InputEvent;
use crate::frame::{FRAME_FILTER, RowFilter};
use crate::state::GameApiState;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `init(config)`: seed, starting level and difficulty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct GameConfig {
    pub seed: u64,
    #[serde(default)]
    pub level: Option<u32>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Game-specific options from the task's `init` block.
    #[serde(default)]
    pub options: serde_json::Map<String, Value>,
}

/// What the scripted expert may know about its task.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskInfo {
    pub task_id: String,
    /// The score field, or the first of the aggregate fields.
    pub score_field: String,
    pub target: f64,
    pub level: Option<u32>,
}

/// One native game. Implementations live in `gw-games`, one module each.
pub trait Game: Send {
    /// The registry id, e.g. `01_2048`.
    fn game_id(&self) -> &'static str;

    /// Viewport in pixels (default 1280×720).
    fn viewport(&self) -> (u32, u32) {
        (1280, 720)
    }

    /// `init(config)`: (re)build the world for this seed/level/difficulty.
    fn init(&mut self, config: &GameConfig);

    /// `reset(options)`: start a new episode. `episode` counts from 0; games
    /// derive the episode's layout from `(seed, episode)` so a reset-on-fail
    /// episode differs from the first but stays reproducible.
    fn reset(&mut self, episode: u32);

    /// `getState()`.
    fn state(&self) -> GameApiState;

    /// What the evaluator reads of the state: a JSON object in which every
    /// dotted path of `paths` (the task's score and end fields) and of
    /// `terminal` looks up the same value as in `state().to_value()`. The
    /// default takes those parts of [`Game::state`] without converting the
    /// rest ([`GameApiState::view`]); a game whose snapshot is costly builds
    /// just them. Steps that record no trajectory (the Python package) read
    /// this instead of the snapshot.
    fn eval_view(&self, paths: &[String]) -> Value {
        self.state().view(paths)
    }

    /// Deliver one atomic input event at the current game time.
    fn handle_event(&mut self, event: &InputEvent);

    /// Advance the simulated clock by `dt_ms` of game time. Games step their
    /// physics in fixed ticks internally (see [`FixedStep`]).
    fn advance(&mut self, dt_ms: u64);

    /// Draw the current frame into `pixmap` (sized to the viewport).
    fn render(&self, pixmap: &mut tiny_skia::Pixmap);

    /// Draw the current frame directly into `pixmap` at its own size, which
    /// may differ from the viewport (a learner's small observation), and
    /// return true; return false, drawing nothing, when the game draws only
    /// at its viewport (the default): the caller then draws at the viewport
    /// and shrinks. Frames at the viewport always come from [`Game::render`].
    fn render_sized(&self, pixmap: &mut tiny_skia::Pixmap) -> bool {
        let _ = pixmap;
        false
    }

    /// The PNG row filter this game's frames are written with (run frames,
    /// the PNG an agent sees, `gameworld bench`). Every filter decodes to the
    /// same pixels; a game whose frames `gameworld bench --png-filters`
    /// encodes clearly faster and no larger with another filter names it
    /// here. Default: [`FRAME_FILTER`].
    fn frame_filter(&self) -> RowFilter {
        FRAME_FILTER
    }

    /// The scripted expert's next semantic action (a payload such as
    /// `{"action": "move_up"}`) from privileged state. It must not look at
    /// future random draws.
    fn expert_action(&self, task: &TaskInfo) -> Value;

    /// Whether the readiness gate may let the agent act. Native games: status
    /// `ready` or `playing`; a browser game also honours the page's
    /// `is_actionable` flag.
    fn is_ready(&self) -> bool {
        self.state().status.is_actionable()
    }

    /// A failure the game cannot recover from (a browser page that crashed,
    /// timed out or lost its `gameAPI`). Native games never fail; the stepper
    /// ends the run with this message as a runtime error.
    fn fault(&self) -> Option<String> {
        None
    }

    /// The expert's action for one role of a cooperative game. Every role's
    /// expert reads the same state, so a game's expert can coordinate its
    /// roles by planning for all of them and answering with `role`'s part.
    /// Single-player games keep the default.
    fn expert_action_for_role(&self, task: &TaskInfo, role: &str) -> Value {
        let _ = role;
        self.expert_action(task)
    }

    /// Check the arguments of a native action (`Action::Native`, the open
    /// world's factored action) before it executes; an error makes the
    /// proposal invalid (out of the action space). Games without a native
    /// action refuse it.
    fn check_native(&self, _args: &serde_json::Map<String, Value>) -> Result<(), String> {
        Err(format!("{} takes no native actions", self.game_id()))
    }

    /// The game object itself, for privileged built-in agents that read a
    /// game's own types (the open world's skill policy reads its `World`).
    /// Games without such an agent keep the default.
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        None
    }
}

/// Accumulates simulated milliseconds and yields whole fixed ticks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FixedStep {
    tick_ms: u64,
    pending_ms: u64,
}

impl FixedStep {
    pub fn new(tick_ms: u64) -> Self {
        assert!(tick_ms > 0);
        FixedStep {
            tick_ms,
            pending_ms: 0,
        }
    }

    /// Add `dt_ms` and return how many ticks to simulate now.
    pub fn ticks(&mut self, dt_ms: u64) -> u64 {
        self.pending_ms += dt_ms;
        let n = self.pending_ms / self.tick_ms;
        self.pending_ms -= n * self.tick_ms;
        n
    }

    pub fn tick_ms(&self) -> u64 {
        self.tick_ms
    }

    pub fn tick_seconds(&self) -> f64 {
        self.tick_ms as f64 / 1000.0
    }

    pub fn clear(&mut self) {
        self.pending_ms = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_step_carries_remainders() {
        let mut f = FixedStep::new(10);
        assert_eq!(f.ticks(25), 2);
        assert_eq!(f.ticks(5), 1);
        assert_eq!(f.ticks(9), 0);
        assert_eq!(f.ticks(1), 1);
    }
}
