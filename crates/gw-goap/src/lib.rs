//! GOAP: the open world's learned goal-conditioned policy, after Optimus-2
//! at a size two CPU cores can train. Behaviour cloning on the
//! goal-observation-action datasets `gameworld world dataset` writes
//! (`gw-owdata`), with candle.
//!
//! * [`data`]: the dataset's Parquet files → episodes in memory;
//! * [`model`]: the network (frame encoder, behaviour encoder, memory,
//!   goal, factored heads); [`features`]: its non-pixel inputs;
//! * [`train`]: `gameworld world train`; [`checkpoint`]: its files;
//! * [`infer`]: one step at a time with cached tokens; [`agent`]: the
//!   built-in `goap` and `provider: policy` profiles.
//!
//! Invariant: no files but the checkpoint's and the dataset's; the same
//! seed and thread count give the same weights and the same actions.

pub mod agent;
pub mod checkpoint;
pub mod config;
pub mod dagger;
pub mod data;
pub mod features;
pub mod infer;
pub mod model;
pub mod train;

pub use agent::{GoapAgent, ID, create, goal_text};
pub use config::PolicyConfig;
pub use infer::{Runner, Sampling};
pub use model::Network;
pub use train::{Event, TrainError, TrainOptions, train};
