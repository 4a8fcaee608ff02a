//! The browser backend: third-party HTML5 games that expose the GameWorld
//! `window.gameAPI` contract, run unmodified in headless Chromium over CDP
//! (chromiumoxide) behind the same [`gw_core::Game`] trait as native games.
//!
//! - [`launch`]: finding and starting Chromium (reusable by anything else in
//!   the project that needs a headless browser).
//! - [`server`]: the per-run loopback static server for a game folder.
//! - `shim.js`: the virtual clock, seeded randomness and WebGL tweaks
//!   injected before page scripts.
//! - [`game`]: [`BrowserGame`], lifecycle (init/reset/reload/readiness),
//!   state reading, input and screenshots.
//! - [`project`]: lenient `getState()` reading onto the evaluator's schema.
//! - [`input`]: DOM key names and CDP input events.
//! - [`import`]: the original GameWorld catalog → our registry.

pub mod frame;
pub mod game;
pub mod import;
pub mod input;
pub mod launch;
pub mod project;
pub mod server;

pub use game::{BrowserGame, BrowserSpec, OpenError, Source, page_seed};
pub use launch::{Chromium, INSTALL_HINT, LaunchError, chromium_args, find_chromium};
