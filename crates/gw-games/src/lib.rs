//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system. Experts read privileged state but never
//! future random draws.
//!
//! What the games share, one module each:
//! - [`draw`]: the drawing kit (tiny-skia, the bundled DejaVu Sans Bold,
//!   cached background layers, the scale transform for small frames, which
//!   fills its shapes itself, by area or 16 samples per pixel, since
//!   tiny-skia's set-up per shape costs more than a few pixels' filling).
//! - [`grid`]: the four-way direction of the grid games.
//! - [`tilemap`]: text tile maps (levels in a game's `levels/` folder,
//!   `---label` sections, `;` comments) and `distance_field`, the path
//!   length from every tile to a goal that distance-to-exit experts follow.
//! - [`platform`]: platform physics in fixed ticks — AABB bodies through a
//!   tile map with solid and one-way tiles and a small step-up, free
//!   platforms, bodies among solid boxes (`move_body_among`), carriers that
//!   move what rests on them and stop rather than crush (`move_carrier`),
//!   jumps with coyote time and buffering, `steer`, a clamped camera,
//!   crouch/slide resizing, wall contact, saw discs, the `Arrows` a role
//!   holds.
//! - [`runner`]: what the 2D runners share (Chrome Dino, NS-Shaft, Boxel
//!   Rebound, Edge Surf): boxes and the exhaustive look-ahead their experts
//!   run on a copy of the game's own physics, never its random stream.
//! - [`planner`]: the platformer experts' weighted A* (Captain Callisto,
//!   OvO, Vex 3) over semantic actions rolled forward on a copy of the world,
//!   with a cached plan that replans when the game differs from it.
//! - [`render3d`]: the software 3D renderer of the 3D games (camera with
//!   yaw/pitch/roll, near-plane clipping, per-face light and fog, convex
//!   faces rasterised as spans with a `1/z` depth buffer, band by band on
//!   the calling thread and rayon's, the same pixels in any order;
//!   `BandMode` forces one or the other; `libm` trig).
//! - [`raycast`]: the Wolfenstein-style grid ray caster (textured walls,
//!   sliding doors, depth-clipped sprites) of `g31_wolf3d`.
//! - [`testkit`]: plays tasks through the real stepper for tests, and
//!   `game_contract!`, the checks every game has (golden frame,
//!   determinism, the expert solves every task, whole-play digests).
//!
//! `g12_fireboy_and_watergirl` is the cooperative game: two characters in
//! one world, levels as tile maps with `@` lines for diamonds, gates, lifts,
//! levers and buttons, and an expert that searches shortest paths over
//! standing cells per character and checks each move on a copy of the
//! world.

// Grid games index boards by row and column; range loops read best there.
#![allow(clippy::needless_range_loop)]

#[cfg(test)]
mod catalog_tests;
pub mod draw;
#[cfg(test)]
mod eval_view_tests;
#[cfg(test)]
mod fuzz_tests;
pub mod grid;
#[cfg(test)]
mod openworld_tests;
pub mod planner;
pub mod platform;
pub mod raycast;
pub mod render3d;
pub mod runner;
#[cfg(test)]
mod scaled_draw_tests;
#[cfg(test)]
mod seed_sweep_tests;
pub mod testkit;
pub mod tilemap;

use gw_core::Game;

/// `v` rounded to one decimal, for tidy state snapshots.
pub(crate) fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// `v` rounded to two decimals, for tidy state snapshots.
pub(crate) fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The catalog, one line per game: its module (a folder `gNN_name/`) and how
/// to make a fresh instance. The line declares the module, puts its `ID` in
/// [`GAME_IDS`] (catalog order) and makes [`create`] build it; nothing else
/// lists the games.
macro_rules! catalog {
    ($($module:ident => $make:expr,)*) => {
        $(pub mod $module;)*

        /// Every native game id, in catalog order.
        pub const GAME_IDS: &[&str] = &[$($module::ID),*];

        fn create_native(game_id: &str) -> Option<Box<dyn Game>> {
            match game_id {
                $($module::ID => Some(Box::new($make)),)*
                _ => None,
            }
        }
    };
}

catalog! {
    g01_2048 => g01_2048::Game2048::new(),
    g02_another_gentlemans_adventure => g02_another_gentlemans_adventure::Gentleman::new(),
    g03_astray => g03_astray::Astray::new(),
    g04_boxel_rebound => g04_boxel_rebound::BoxelRebound::new(),
    g05_breakout => g05_breakout::Breakout::new(),
    g06_captaincallisto => g06_captaincallisto::CaptainCallisto::new(),
    g07_chrome_dino => g07_chrome_dino::ChromeDino::new(),
    g08_core_ball => g08_core_ball::CoreBall::new(),
    g09_cubefield => g09_cubefield::Cubefield::new(),
    g10_doodle_jump => g10_doodle_jump::DoodleJump::new(),
    g11_edge_surf => g11_edge_surf::EdgeSurf::new(),
    g12_fireboy_and_watergirl => g12_fireboy_and_watergirl::FireboyWatergirl::new(),
    g13_flappy_bird => g13_flappy_bird::FlappyBird::new(),
    g14_geodash => g14_geodash::Geodash::new(),
    g15_google_snake => g15_google_snake::Snake::new(),
    g16_hextris => g16_hextris::Hextris::new(),
    g17_mario_game => g17_mario_game::MarioGame::new(),
    g18_minecraft_clone => g18_minecraft_clone::MinecraftClone::new(),
    g19_minesweeper => g19_minesweeper::Minesweeper::new(),
    g20_monkey_mart => g20_monkey_mart::MonkeyMart::new(),
    g21_ns_shaft => g21_ns_shaft::NsShaft::new(),
    g22_ovo => g22_ovo::Ovo::new(),
    g23_pacman => g23_pacman::Pacman::new(),
    g24_restless_wing_syndrome => g24_restless_wing_syndrome::RestlessWing::new(),
    g25_rocket_league_2d => g25_rocket_league_2d::RocketLeague::new(),
    g26_run_3 => g26_run_3::Run3::new(),
    g27_stack => g27_stack::Stack::new(),
    g28_temple_run_2 => g28_temple_run_2::TempleRun::new(),
    g29_tetris => g29_tetris::Tetris::new(),
    g30_vex_3 => g30_vex_3::Vex3::new(),
    g31_wolf3d => g31_wolf3d::Wolf3d::new(),
    g32_wordle => g32_wordle::Wordle::new(),
    g33_worlds_hardest_game => g33_worlds_hardest_game::new_game(),
    g34_worlds_hardest_game_2 => g34_worlds_hardest_game_2::new_game(),
}

/// The games drawn at their viewport and shrunk for a small observation:
/// the 3D games, Doodle Jump, Monkey Mart and the Minecraft clone (the voxel
/// renderer) draw outside the drawing kit's scale transform. Every other
/// game draws scaled ([`draws_scaled`]).
pub const DRAWS_AT_VIEWPORT: &[&str] = &[
    g09_cubefield::ID,
    g10_doodle_jump::ID,
    g18_minecraft_clone::ID,
    g20_monkey_mart::ID,
    g26_run_3::ID,
    g28_temple_run_2::ID,
    g31_wolf3d::ID,
];

/// Whether `game_id`'s `render` draws through the drawing kit only, so it
/// draws a small observation directly at its size ([`render_sized`]);
/// `scaled_draw_tests` checks each against its viewport frame shrunk.
pub fn draws_scaled(game_id: &str) -> bool {
    GAME_IDS.contains(&game_id) && !DRAWS_AT_VIEWPORT.contains(&game_id)
}

/// Draw `game`'s frame directly at `pixmap`'s size when the game is one of
/// [`draws_scaled`] (the kit's scale transform, [`draw::render_scaled`]);
/// false, drawing nothing, for the others.
pub fn render_sized(game: &dyn Game, pixmap: &mut tiny_skia::Pixmap) -> bool {
    if game.render_sized(pixmap) {
        return true;
    }
    if !draws_scaled(game.game_id()) {
        return false;
    }
    draw::render_scaled(pixmap, game.viewport(), |pm| game.render(pm));
    true
}

/// A fresh instance of a native game (call `init` before use).
pub fn create(game_id: &str) -> Option<Box<dyn Game>> {
    if game_id == gw_openworld::game::ID {
        // The open world (Optimus suites): its Game impl lives with the planner in gw-openworld.
        return Some(Box::new(gw_openworld::game::OpenWorld::new()));
    }
    create_native(game_id)
}
