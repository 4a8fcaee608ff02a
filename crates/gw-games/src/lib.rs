//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system.

pub mod draw;
pub mod testkit;

pub mod g01_2048;
pub mod g23_pacman;
pub mod g25_rocket_league_2d;

use gw_core::Game;

/// Every native game id, in catalog order.
pub const GAME_IDS: &[&str] = &[g01_2048::ID, g23_pacman::ID, g25_rocket_league_2d::ID];

/// A fresh instance of a native game (call `init` before use).
pub fn create(game_id: &str) -> Option<Box<dyn Game>> {
    let game: Box<dyn Game> = match game_id {
        g01_2048::ID => Box::new(g01_2048::Game2048::new()),
        g23_pacman::ID => Box::new(g23_pacman::Pacman::new()),
        g25_rocket_league_2d::ID => Box::new(g25_rocket_league_2d::RocketLeague::new()),
        _ => return None,
    };
    Some(game)
}
