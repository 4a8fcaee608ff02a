//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system.

pub mod draw;
pub mod testkit;

pub mod g01_2048;
pub mod g33_worlds_hardest_game;
pub mod g34_worlds_hardest_game_2;

use gw_core::Game;

/// Every native game id, in catalog order.
pub const GAME_IDS: &[&str] = &[g01_2048::ID, g33_worlds_hardest_game::ID, g34_worlds_hardest_game_2::ID];

/// A fresh instance of a native game (call `init` before use).
pub fn create(game_id: &str) -> Option<Box<dyn Game>> {
    let game: Box<dyn Game> = match game_id {
        g01_2048::ID => Box::new(g01_2048::Game2048::new()),
        g33_worlds_hardest_game::ID => Box::new(g33_worlds_hardest_game::new_game()),
        g34_worlds_hardest_game_2::ID => Box::new(g34_worlds_hardest_game_2::new_game()),
        _ => return None,
    };
    Some(game)
}
