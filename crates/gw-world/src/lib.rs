//! The open voxel world (Optimus-style Minecraft): one job — simulate and
//! draw a deterministic, seeded block world with Minecraft's tech tree.
//!
//! - [`data`]: blocks, items, tags, recipes and smelting from
//!   `registry/world/*.yaml` (embedded, parsed once).
//! - [`inventory`]: slots, the craft/smelt macros, grid matching, mining
//!   speed and drops.
//! - [`terrain`]: chunks and seeded generation (biomes, trees, caves, ores).
//! - [`world`]: the tick — player physics, health and hunger, mining and
//!   placing, dropped items, mobs, day and night.
//! - [`action`]: the factored action and its VPT discretisation.
//! - [`light`]: sky and block light per cell, updated on every edit.
//! - [`model`]: mob models (jointed boxes with skins).
//! - [`render`]: the first-person ray-cast view with HUD and item icons.
//! - [`state`]: the privileged state as JSON.
//!
//! No agents and no file I/O live here.

pub mod action;
pub mod data;
pub mod inventory;
pub mod light;
pub mod model;
pub mod noise;
pub mod ray;
pub mod render;
pub mod state;
pub mod terrain;
pub mod world;

pub use action::{Action, VptAction};
pub use data::{BlockId, ItemId, data};
pub use terrain::Biome;
pub use world::{World, WorldConfig};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_light;
