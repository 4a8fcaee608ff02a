//! 34_worlds-hardest-game-2 — the sequel: the same red square, coins and
//! green zones, on the shared WHG engine (`g33_worlds_hardest_game::engine`),
//! with its own levels and obstacle styles: trains of dots circling wall
//! pillars, a rotating cross, and sweeping walls of dots with gaps. Deaths
//! send the square back to the last checkpoint; they never end the game.
//! Its `wait` control is 0.2 s, like one move.
//!
//! State: as in the first game, with `metrics.coins` (coins held on the
//! current level) as the tasks' score and `metrics.distance_to_goal` (maze
//! tiles to the nearest coin still to take, or to the exit).

mod expert;
mod levels;
#[cfg(test)]
mod tests;

use crate::draw::rgb;
use crate::g33_worlds_hardest_game::{Variant, WhgGame};

pub const ID: &str = "34_worlds-hardest-game-2";

pub static VARIANT: Variant = Variant {
    id: ID,
    title: "World's Hardest Game 2",
    levels: levels::levels,
    wait_ticks: 20,
    rng_stream: 0x3400_0000,
    background: rgb(150, 200, 235),
    floor: (rgb(250, 250, 250), rgb(222, 232, 242)),
};

/// A fresh WHG2 game (call `init` before use).
pub fn new_game() -> WhgGame {
    WhgGame::new(&VARIANT)
}
