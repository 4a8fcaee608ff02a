//! Goal-observation-action datasets from the open world (Optimus-2's MGOA
//! pipeline, with the world's scripted expert in place of STEVE-1).
//!
//! Pipeline: [`tasks::resolve`] (registry tasks → target item, kit, count)
//! → per episode a seed ([`episode::episode_seed`]) → pass 1
//! [`episode::run_expert`] unrendered and [`episode::judge`] (successful and
//! not over-long runs only) → pass 2 [`episode::replay`] with frames →
//! [`shard::EpisodeWriter`] (one Parquet file per episode) → per-shard stats
//! ([`stats`]) → card and totals ([`card::rebuild`]). [`generate::generate`]
//! runs it all on a worker pool for one shard of the plan.
//!
//! Everything that reaches a file is a function of the options and the seed:
//! the same options write the same bytes, whatever the worker count.

pub mod card;
pub mod episode;
pub mod frame;
pub mod generate;
pub mod instructions;
pub mod shard;
pub mod stats;
pub mod tasks;

pub use episode::{Drop, TaskDef};
pub use frame::FrameFormat;
pub use generate::{Options, Report, generate};
pub use stats::DataOptions;

#[cfg(test)]
mod tests;
