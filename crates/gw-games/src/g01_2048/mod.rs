//! 01_2048 — slide numbered tiles on a 4×4 board; equal tiles merge and add
//! their sum to the score. Arrow keys (or a swipe with the mouse) move every
//! tile; each move that changes the board spawns a 2 (90 %) or a 4 (10 %).
//!
//! State: `game_state.score` (sum of merges), `game_state.level` (largest
//! tile), `game_state.board` (rows of values, 0 = empty).

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "01_2048";
const N: usize = 4;
const WIN_TILE: u32 = 2048;

pub type Board = [[u32; N]; N];

pub use crate::grid::Dir;

pub const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

/// Slide one line towards index 0; returns the new line and the merge score.
fn slide_line(line: [u32; N]) -> ([u32; N], u32) {
    let mut out = [0u32; N];
    let mut score = 0;
    let mut w = 0;
    let mut pending: Option<u32> = None;
    for v in line.into_iter().filter(|&v| v != 0) {
        match pending {
            Some(p) if p == v => {
                out[w] = p * 2;
                score += p * 2;
                w += 1;
                pending = None;
            }
            Some(p) => {
                out[w] = p;
                w += 1;
                pending = Some(v);
            }
            None => pending = Some(v),
        }
    }
    if let Some(p) = pending {
        out[w] = p;
    }
    (out, score)
}

/// Apply a move without spawning; returns the new board, the score gained and
/// whether anything moved.
pub fn apply_move(board: &Board, dir: Dir) -> (Board, u32, bool) {
    let mut out = [[0u32; N]; N];
    let mut gained = 0;
    for i in 0..N {
        let line: [u32; N] = std::array::from_fn(|k| match dir {
            Dir::Left => board[i][k],
            Dir::Right => board[i][N - 1 - k],
            Dir::Up => board[k][i],
            Dir::Down => board[N - 1 - k][i],
        });
        let (slid, s) = slide_line(line);
        gained += s;
        for (k, &v) in slid.iter().enumerate() {
            match dir {
                Dir::Left => out[i][k] = v,
                Dir::Right => out[i][N - 1 - k] = v,
                Dir::Up => out[k][i] = v,
                Dir::Down => out[N - 1 - k][i] = v,
            }
        }
    }
    let moved = out != *board;
    (out, gained, moved)
}

pub fn max_tile(board: &Board) -> u32 {
    board.iter().flatten().copied().max().unwrap_or(0)
}

fn empty_cells(board: &Board) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (r, row) in board.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            if x == 0 {
                v.push((r, c));
            }
        }
    }
    v
}

pub fn can_move(board: &Board) -> bool {
    DIRS.iter().any(|&d| apply_move(board, d).2)
}

pub struct Game2048 {
    seed: u64,
    rng: Rng,
    board: Board,
    score: u32,
    moves: u32,
    merges_total: u32,
    game_time_ms: u64,
    terminal: Terminal,
    /// Mouse-down point of a swipe in progress.
    swipe_from: Option<(f32, f32)>,
    last_spawn: Option<(usize, usize)>,
    /// Cells as drawn, by (row, column, value).
    cells: draw::Stamps<(usize, usize, u32)>,
}

impl Default for Game2048 {
    fn default() -> Self {
        Self::new()
    }
}

impl Game2048 {
    pub fn new() -> Self {
        Game2048 {
            seed: 0,
            rng: Rng::new(0, 0),
            board: [[0; N]; N],
            score: 0,
            moves: 0,
            merges_total: 0,
            game_time_ms: 0,
            terminal: Terminal::running(),
            swipe_from: None,
            last_spawn: None,
            cells: draw::Stamps::default(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    fn spawn(&mut self) {
        let empty = empty_cells(&self.board);
        if empty.is_empty() {
            return;
        }
        let (r, c) = empty[self.rng.index(empty.len())];
        self.board[r][c] = if self.rng.below(10) == 0 { 4 } else { 2 };
        self.last_spawn = Some((r, c));
    }

    fn do_move(&mut self, dir: Dir) {
        if self.terminal.is_terminal {
            return;
        }
        let (next, gained, moved) = apply_move(&self.board, dir);
        if !moved {
            return;
        }
        let before = self.board.iter().flatten().filter(|&&v| v != 0).count();
        self.board = next;
        let after = self.board.iter().flatten().filter(|&&v| v != 0).count();
        self.merges_total += (before - after) as u32;
        self.score += gained;
        self.moves += 1;
        self.spawn();
        if max_tile(&self.board) >= WIN_TILE {
            self.terminal = Terminal::ended(Outcome::Success, "reached the 2048 tile");
        } else if !can_move(&self.board) {
            self.terminal = Terminal::ended(Outcome::Fail, "no moves left");
        }
    }
}

/// Board geometry shared by rendering and the swipe handler.
const CELL: f32 = 130.0;
const GAP: f32 = 14.0;
const BOARD_PX: f32 = CELL * N as f32 + GAP * (N as f32 + 1.0);
const BOARD_X: f32 = (1280.0 - BOARD_PX) / 2.0;
const BOARD_Y: f32 = 80.0;

fn tile_colors(v: u32) -> (draw::Rgb, draw::Rgb) {
    let dark = rgb(119, 110, 101);
    let light = rgb(249, 246, 242);
    match v {
        2 => (rgb(238, 228, 218), dark),
        4 => (rgb(237, 224, 200), dark),
        8 => (rgb(242, 177, 121), light),
        16 => (rgb(245, 149, 99), light),
        32 => (rgb(246, 124, 95), light),
        64 => (rgb(246, 94, 59), light),
        128 => (rgb(237, 207, 114), light),
        256 => (rgb(237, 204, 97), light),
        512 => (rgb(237, 200, 80), light),
        1024 => (rgb(237, 197, 63), light),
        2048 => (rgb(237, 194, 46), light),
        _ => (rgb(60, 58, 50), light),
    }
}

/// Top-left corner of the cell in row `r`, column `c` (whole pixels).
fn cell_origin(r: usize, c: usize) -> (f32, f32) {
    (
        BOARD_X + GAP + c as f32 * (CELL + GAP),
        BOARD_Y + GAP + r as f32 * (CELL + GAP),
    )
}

fn label_size(v: u32) -> f32 {
    match v.to_string().len() {
        1 | 2 => 60.0,
        3 => 50.0,
        _ => 40.0,
    }
}

/// What never changes: background, HUD bar, the board and the hint under it.
fn paint_static(pm: &mut Pixmap) {
    draw::clear(pm, rgb(250, 248, 239));
    draw::hud_bar(pm, "2048");
    draw::rounded_rect(
        pm,
        BOARD_X,
        BOARD_Y,
        BOARD_PX,
        BOARD_PX,
        12.0,
        rgb(187, 173, 160),
    );
    draw::text(
        pm,
        "Arrow keys slide all tiles",
        40.0,
        660.0,
        22.0,
        rgb(119, 110, 101),
        Align::Left,
    );
}

/// One cell at (x, y) on the board: empty (0) or a tile with its value.
fn draw_cell(pm: &mut Pixmap, x: f32, y: f32, v: u32) {
    if v == 0 {
        draw::rounded_rect(pm, x, y, CELL, CELL, 8.0, rgb(205, 193, 180));
        return;
    }
    let (bg, fg) = tile_colors(v);
    draw::rounded_rect(pm, x, y, CELL, CELL, 8.0, bg);
    let size = label_size(v);
    draw::text(
        pm,
        &v.to_string(),
        x + CELL / 2.0,
        y + CELL / 2.0 - size * 0.6,
        size,
        fg,
        Align::Center,
    );
}

impl Game for Game2048 {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x2048_0000 + episode as u64);
        self.board = [[0; N]; N];
        self.score = 0;
        self.moves = 0;
        self.merges_total = 0;
        self.terminal = Terminal::running();
        self.swipe_from = None;
        self.spawn();
        self.spawn();
        self.last_spawn = None;
    }

    fn state(&self) -> GameApiState {
        let status = self.terminal.status();
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let max = max_tile(&self.board);
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", max);
        set(
            &mut s.game_state,
            "progress",
            (max as f64).log2() / (WIN_TILE as f64).log2(),
        );
        set(&mut s.game_state, "player", Value::Null);
        set(&mut s.game_state, "board", json!(self.board));
        set(&mut s.game_state, "entities", Value::Null);
        set(&mut s.metrics, "max_tile", max);
        set(&mut s.metrics, "moves", self.moves);
        set(
            &mut s.metrics,
            "empty_cells",
            empty_cells(&self.board).len(),
        );
        set(&mut s.metrics, "merges", self.merges_total);
        set(&mut s.raw, "best_tile", max);
        set(&mut s.raw, "last_spawn", json!(self.last_spawn));
        s
    }

    fn eval_view(&self, paths: &[String]) -> Value {
        gw_core::state::view_from(
            paths,
            &self.terminal,
            |p| match p {
                "game_state.score" => Some(self.score.into()),
                "game_state.level" => Some(max_tile(&self.board).into()),
                _ => None,
            },
            || self.state(),
        )
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => {
                let Some(dir) = Dir::from_arrow_key(key) else {
                    return;
                };
                self.do_move(dir);
            }
            InputEvent::MouseDown {
                x,
                y,
                button: MouseButton::Left,
            } => self.swipe_from = Some((*x, *y)),
            InputEvent::MouseUp {
                x,
                y,
                button: MouseButton::Left,
            } => {
                if let Some((sx, sy)) = self.swipe_from.take() {
                    let (dx, dy) = (x - sx, y - sy);
                    if dx.abs().max(dy.abs()) >= 30.0 {
                        let dir = if dx.abs() > dy.abs() {
                            if dx > 0.0 { Dir::Right } else { Dir::Left }
                        } else if dy > 0.0 {
                            Dir::Down
                        } else {
                            Dir::Up
                        };
                        self.do_move(dir);
                    }
                }
            }
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        // Turn-based: time passes but nothing moves on its own.
        self.game_time_ms += dt_ms;
    }

    fn render(&self, pm: &mut Pixmap) {
        static LAYER: OnceLock<Pixmap> = OnceLock::new();
        draw::static_layer(pm, &LAYER, paint_static);
        draw::hud_items(
            pm,
            &[
                ("Score", self.score.to_string()),
                ("Best tile", max_tile(&self.board).to_string()),
                ("Moves", self.moves.to_string()),
            ],
        );
        for r in 0..N {
            for c in 0..N {
                let (x, y) = cell_origin(r, c);
                let v = self.board[r][c];
                // A label wider than the cell would spill over its box:
                // drawn directly, not kept.
                if v != 0 && draw::text_width(&v.to_string(), label_size(v)) > CELL - 8.0 {
                    draw_cell(pm, x, y, v);
                    continue;
                }
                let region = (x as u32, y as u32, CELL as u32, CELL as u32);
                self.cells
                    .draw(pm, (r, c, v), region, |pm| draw_cell(pm, x, y, v));
            }
        }
        draw::end_banner(
            pm,
            &self.terminal,
            "YOU WIN",
            &format!("Score {}", self.score),
        );
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::best_move(&self.board, task).control_id()})
    }
}
