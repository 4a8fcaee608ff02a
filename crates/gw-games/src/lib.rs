//! The native GameWorld games. One folder per game holds its simulation,
//! rendering, scripted expert and tests; its data lives in
//! `registry/games/<game_id>.yaml` and `registry/tasks/<game_id>/`.
//!
//! Architecture invariant: games never read the wall clock or a global RNG,
//! and never touch the file system.

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

pub mod g01_2048;
pub mod g02_another_gentlemans_adventure;
pub mod g03_astray;
pub mod g04_boxel_rebound;
pub mod g05_breakout;
pub mod g06_captaincallisto;
pub mod g07_chrome_dino;
pub mod g08_core_ball;
pub mod g09_cubefield;
pub mod g10_doodle_jump;
pub mod g11_edge_surf;
pub mod g12_fireboy_and_watergirl;
pub mod g13_flappy_bird;
pub mod g14_geodash;
pub mod g15_google_snake;
pub mod g16_hextris;
pub mod g17_mario_game;
pub mod g18_minecraft_clone;
pub mod g19_minesweeper;
pub mod g20_monkey_mart;
pub mod g21_ns_shaft;
pub mod g22_ovo;
pub mod g23_pacman;
pub mod g24_restless_wing_syndrome;
pub mod g25_rocket_league_2d;
pub mod g26_run_3;
pub mod g27_stack;
pub mod g28_temple_run_2;
pub mod g29_tetris;
pub mod g30_vex_3;
pub mod g31_wolf3d;
pub mod g32_wordle;
pub mod g33_worlds_hardest_game;
pub mod g34_worlds_hardest_game_2;

use gw_core::Game;

/// `v` rounded to one decimal, for tidy state snapshots.
pub(crate) fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// `v` rounded to two decimals, for tidy state snapshots.
pub(crate) fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Every native game id, in catalog order.
pub const GAME_IDS: &[&str] = &[
    g01_2048::ID,
    g02_another_gentlemans_adventure::ID,
    g03_astray::ID,
    g04_boxel_rebound::ID,
    g05_breakout::ID,
    g06_captaincallisto::ID,
    g07_chrome_dino::ID,
    g08_core_ball::ID,
    g09_cubefield::ID,
    g10_doodle_jump::ID,
    g11_edge_surf::ID,
    g12_fireboy_and_watergirl::ID,
    g13_flappy_bird::ID,
    g14_geodash::ID,
    g15_google_snake::ID,
    g16_hextris::ID,
    g17_mario_game::ID,
    g18_minecraft_clone::ID,
    g19_minesweeper::ID,
    g20_monkey_mart::ID,
    g21_ns_shaft::ID,
    g22_ovo::ID,
    g23_pacman::ID,
    g24_restless_wing_syndrome::ID,
    g25_rocket_league_2d::ID,
    g26_run_3::ID,
    g27_stack::ID,
    g28_temple_run_2::ID,
    g29_tetris::ID,
    g30_vex_3::ID,
    g31_wolf3d::ID,
    g32_wordle::ID,
    g33_worlds_hardest_game::ID,
    g34_worlds_hardest_game_2::ID,
];

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
    let game: Box<dyn Game> = match game_id {
        g01_2048::ID => Box::new(g01_2048::Game2048::new()),
        g02_another_gentlemans_adventure::ID => {
            Box::new(g02_another_gentlemans_adventure::Gentleman::new())
        }
        g03_astray::ID => Box::new(g03_astray::Astray::new()),
        g04_boxel_rebound::ID => Box::new(g04_boxel_rebound::BoxelRebound::new()),
        g05_breakout::ID => Box::new(g05_breakout::Breakout::new()),
        g06_captaincallisto::ID => Box::new(g06_captaincallisto::CaptainCallisto::new()),
        g07_chrome_dino::ID => Box::new(g07_chrome_dino::ChromeDino::new()),
        g08_core_ball::ID => Box::new(g08_core_ball::CoreBall::new()),
        g09_cubefield::ID => Box::new(g09_cubefield::Cubefield::new()),
        g10_doodle_jump::ID => Box::new(g10_doodle_jump::DoodleJump::new()),
        g11_edge_surf::ID => Box::new(g11_edge_surf::EdgeSurf::new()),
        g12_fireboy_and_watergirl::ID => {
            Box::new(g12_fireboy_and_watergirl::FireboyWatergirl::new())
        }
        g13_flappy_bird::ID => Box::new(g13_flappy_bird::FlappyBird::new()),
        g14_geodash::ID => Box::new(g14_geodash::Geodash::new()),
        g15_google_snake::ID => Box::new(g15_google_snake::Snake::new()),
        g16_hextris::ID => Box::new(g16_hextris::Hextris::new()),
        g17_mario_game::ID => Box::new(g17_mario_game::MarioGame::new()),
        g18_minecraft_clone::ID => Box::new(g18_minecraft_clone::MinecraftClone::new()),
        g19_minesweeper::ID => Box::new(g19_minesweeper::Minesweeper::new()),
        g20_monkey_mart::ID => Box::new(g20_monkey_mart::MonkeyMart::new()),
        g21_ns_shaft::ID => Box::new(g21_ns_shaft::NsShaft::new()),
        g22_ovo::ID => Box::new(g22_ovo::Ovo::new()),
        g23_pacman::ID => Box::new(g23_pacman::Pacman::new()),
        g24_restless_wing_syndrome::ID => Box::new(g24_restless_wing_syndrome::RestlessWing::new()),
        g25_rocket_league_2d::ID => Box::new(g25_rocket_league_2d::RocketLeague::new()),
        g26_run_3::ID => Box::new(g26_run_3::Run3::new()),
        g27_stack::ID => Box::new(g27_stack::Stack::new()),
        g28_temple_run_2::ID => Box::new(g28_temple_run_2::TempleRun::new()),
        g29_tetris::ID => Box::new(g29_tetris::Tetris::new()),
        g30_vex_3::ID => Box::new(g30_vex_3::Vex3::new()),
        g31_wolf3d::ID => Box::new(g31_wolf3d::Wolf3d::new()),
        g32_wordle::ID => Box::new(g32_wordle::Wordle::new()),
        g33_worlds_hardest_game::ID => Box::new(g33_worlds_hardest_game::new_game()),
        g34_worlds_hardest_game_2::ID => Box::new(g34_worlds_hardest_game_2::new_game()),
        // The open world (Optimus suites): its Game impl lives with the planner in gw-openworld.
        gw_openworld::game::ID => Box::new(gw_openworld::game::OpenWorld::new()),
        _ => return None,
    };
    Some(game)
}
