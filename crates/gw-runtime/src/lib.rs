//! The runtime: resolves a preset, runs the observe → infer → parse →
//! execute → snapshot → evaluate loop, and writes the run directory.
//!
//! Architecture invariant: only the runtime writes files. Games, agents and
//! the evaluator hand it values; it records them (atomically for results).

pub mod agents;
pub mod bench;
pub mod error;
pub mod frames;
pub mod games;
pub mod plan_print;
pub mod report;
pub mod run;
pub mod suite;
pub mod validate;
pub mod verify;

pub use error::RunError;
pub use run::{RunOptions, RunResult, recorded_seed, run_preset, run_preset_observed};
