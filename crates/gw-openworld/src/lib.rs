//! The open-world layer over `gw-world`: what an agent needs to pursue an item in the voxel
//! world.
//!
//! # API
//! - [`goal`]: [`SubGoal`] (`kind` mine|collect|craft|smelt, `item`, `count`), the sub-goal
//!   vocabulary shared by the planner, the skill policy and model-backed planners; its JSON is
//!   the SPEC's `world plan --json` step.
//! - [`graph`]: the crafting knowledge graph built from the world's tables:
//!   `graph::KnowledgeGraph::build(gw_world::data())` (or the cached `graph::world_graph()`),
//!   `.to_json()` (`{"nodes": [{id, kind}], "edges": [{from, to, kind, …}]}`), `.to_dot()`,
//!   `.canonical(name)` (a wood species → `logs`/`planks`), `.held(inventory, node)`.
//! - [`plan`]: `plan::plan(target, count, &inventory) -> Result<Vec<SubGoal>, PlanError>` —
//!   ordered sub-goals, each with the count the inventory must hold once it is done;
//!   `plan::simulate(&steps, &inventory, target, count)` carries any plan (a model's too) out
//!   with the world's craft/smelt macros and says which step fails; `plan::held`.
//! - [`score`]: `score::exact(pred, truth)` (Optimus-3: step-for-step), `score::lenient(pred,
//!   truth)` (items ⊆ truth, counts ≥ truth, same last item), `score::score_set`.

pub mod expert;
// The game `openworld` (Optimus suites through the runtime) and its expert bridge.
mod expert_hook;
pub mod game;
pub mod goal;
pub mod graph;
pub mod plan;
pub mod score;
pub mod sight;
pub mod skills;

pub use expert::Expert;
pub use goal::{GoalKind, SubGoal};
pub use graph::KnowledgeGraph;
pub use plan::{PlanError, plan};
pub use skills::SkillPolicy;

#[cfg(test)]
mod tests;
