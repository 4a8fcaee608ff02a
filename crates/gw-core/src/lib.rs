//! Contracts shared by every GameWorld crate: the game API and its state
//! schema, the action layer, the evaluator, the registry, the PRNG and frame
//! encoding. This crate does no I/O beyond reading registry files and has no
//! notion of agents, providers or run directories.

pub mod action;
pub mod episode;
pub mod evaluator;
pub mod frame;
pub mod game;
pub mod registry;
pub mod rng;
pub mod shard;
pub mod state;

pub use action::{
    Action, InputEvent, InvalidKind, MouseButton, RoleControls, SemanticControl, SemanticMap,
};
pub use episode::{JointStepRecord, RoleStep, StepRecord, Stepper, merge_events};
pub use evaluator::{Decision, EvalSpec, Evaluator, ReferenceOutcome, StepEval, StopReason};
pub use game::{FixedStep, Game, GameConfig, TaskInfo};
pub use registry::{AgentRef, GameSpec, ModelSpec, Player, Preset, Registry, RoleSpec, TaskSpec};
pub use rng::Rng;
pub use state::{GameApiState, Outcome, Status, Terminal};
