//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system.

// Grid games index boards by row and column; range loops read best there.
#![allow(clippy::needless_range_loop)]

pub mod draw;
pub mod testkit;

pub mod g01_2048;
pub mod g03_astray;
pub mod g05_breakout;
pub mod g08_core_ball;
pub mod g15_google_snake;
pub mod g16_hextris;
pub mod g27_stack;
pub mod g29_tetris;
pub mod g32_wordle;

use gw_core::Game;

/// Every native game id, in catalog order.
pub const GAME_IDS: &[&str] = &[
    g01_2048::ID,
    g03_astray::ID,
    g05_breakout::ID,
    g08_core_ball::ID,
    g15_google_snake::ID,
    g16_hextris::ID,
    g27_stack::ID,
    g29_tetris::ID,
    g32_wordle::ID,
];

/// A fresh instance of a native game (call `init` before use).
pub fn create(game_id: &str) -> Option<Box<dyn Game>> {
    let game: Box<dyn Game> = match game_id {
        g01_2048::ID => Box::new(g01_2048::Game2048::new()),
        g03_astray::ID => Box::new(g03_astray::Astray::new()),
        g05_breakout::ID => Box::new(g05_breakout::Breakout::new()),
        g08_core_ball::ID => Box::new(g08_core_ball::CoreBall::new()),
        g15_google_snake::ID => Box::new(g15_google_snake::Snake::new()),
        g16_hextris::ID => Box::new(g16_hextris::Hextris::new()),
        g27_stack::ID => Box::new(g27_stack::Stack::new()),
        g29_tetris::ID => Box::new(g29_tetris::Tetris::new()),
        g32_wordle::ID => Box::new(g32_wordle::Wordle::new()),
        _ => return None,
    };
    Some(game)
}
