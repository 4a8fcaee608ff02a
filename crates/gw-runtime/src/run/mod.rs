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
//!
//! `result.rs` holds the options and the result, `play.rs` the loop as named
//! steps over one run's state, `record.rs` what each step writes.

mod play;
mod record;
mod result;

pub use crate::error::RunError;
pub use play::{AgentFactory, run_preset, run_preset_observed, run_preset_with_agent};
pub use record::state_fingerprint;
pub use result::{
    RoleResult, RunOptions, RunResult, recorded_seed, role_calls_file, saturating_cost,
    sparse_every,
};
