//! The open-world layer over `gw-world`: what an agent needs to pursue an item in the voxel
//! world. `goal` is the sub-goal vocabulary shared by the planner (which compiles a target item
//! into sub-goals), the skill policy (which turns one sub-goal into actions) and the model-backed
//! planners (whose replies are parsed into the same type).

pub mod goal;

pub use goal::{GoalKind, SubGoal};
