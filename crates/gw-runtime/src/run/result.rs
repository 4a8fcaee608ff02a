//! What a run is asked to do ([`RunOptions`]) and what it reports
//! ([`RunResult`], `result.json`), with the small rules both follow.

use gw_core::registry::Preset;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

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
    /// Count one proposal of this role.
    pub(super) fn count(&mut self, kind: Option<gw_core::InvalidKind>) {
        self.proposed_actions += 1;
        match kind {
            None => self.valid_actions += 1,
            Some(gw_core::InvalidKind::NoToolCall) => self.invalid_no_tool_call += 1,
            Some(gw_core::InvalidKind::OutOfSpace) => self.invalid_out_of_space += 1,
        }
    }
}

impl RunResult {
    /// The result before the first step: the preset's and the options'
    /// fields, every count at zero. The run names the agent (`model`,
    /// `interface`, `client`) and fills in the rest as it plays.
    pub(super) fn starting(preset: &Preset, opts: &RunOptions, best_score: f64) -> RunResult {
        let memory_rounds = preset.model_specs().first().map(|spec| {
            spec.memory_rounds
                .unwrap_or(gw_agents::memory::DEFAULT_ROUNDS)
        });
        RunResult {
            preset: preset.preset.clone(),
            game_id: preset.game.id.clone(),
            task_id: preset.task.id.clone(),
            model: String::new(),
            interface: String::new(),
            seed: opts.seed,
            realtime: opts.realtime,
            steps: 0,
            episodes: 1,
            success: false,
            progress: 0.0,
            best_score,
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
            client: None,
        }
    }

    /// Count one proposal in the SPEC's totals.
    pub(super) fn count(&mut self, kind: Option<gw_core::InvalidKind>) {
        self.proposed_actions += 1;
        match kind {
            None => self.valid_actions += 1,
            Some(gw_core::InvalidKind::NoToolCall) => self.invalid_no_tool_call += 1,
            Some(gw_core::InvalidKind::OutOfSpace) => self.invalid_out_of_space += 1,
        }
    }
}

/// The call records of one role of a cooperative run.
pub fn role_calls_file(role: &str) -> String {
    format!("model_calls.{role}.jsonl")
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

/// The seed a recorded run used (from its `result.json`), for `--replay`.
pub fn recorded_seed(dir: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(dir.join("result.json")).ok()?;
    serde_json::from_str::<Value>(&text).ok()?["seed"].as_u64()
}
