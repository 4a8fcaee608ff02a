//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system.

pub mod draw;
pub mod testkit;

pub mod g01_2048;
pub mod g13_flappy_bird;
pub mod g19_minesweeper;

use gw_core::Game;

/// Every native game id, in catalog order.
pub const GAME_IDS: &[&str] = &[g01_2048::ID, g13_flappy_bird::ID, g19_minesweeper::ID];

/// A fresh instance of a native game (call `init` before use).
pub fn create(game_id: &str) -> Option<Box<dyn Game>> {
    let game: Box<dyn Game> = match game_id {
        g01_2048::ID => Box::new(g01_2048::Game2048::new()),
        g13_flappy_bird::ID => Box::new(g13_flappy_bird::FlappyBird::new()),
        g19_minesweeper::ID => Box::new(g19_minesweeper::Minesweeper::new()),
        _ => return None,
    };
    Some(game)
}
