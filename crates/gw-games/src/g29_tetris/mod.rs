//! 29_tetris — the falling-block puzzle. A 10×20 well (plus two hidden rows
//! above it) receives the seven tetrominoes from a seeded 7-bag. Pieces fall
//! on the game clock, move left/right, rotate with SRS wall kicks, soft drop
//! (ArrowDown), hard drop (Space) and can be swapped into a hold box once per
//! piece (Shift or c). Full rows clear and score 100/300/500/800 × level for
//! 1/2/3/4 rows; every 10 cleared rows raise the level and the fall speed.
//! The game ends when a new piece has no room to spawn (or a piece locks
//! entirely above the visible well).
//!
//! State: `game_state.score`, `game_state.level`, `game_state.lines`,
//! `game_state.completion_progress` (share of the current level's 10-line
//! goal), `metrics.lines_target` / `metrics.lines_remaining` (that goal),
//! `game_state.board` (20 visible rows, 0 = empty, 1..7 = I O T S Z J L),
//! `game_state.player` (the falling piece), `game_state.next`, `game_state.hold`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "29_tetris";
pub const W: usize = 10;
/// Visible rows.
pub const VISIBLE: usize = 20;
/// Hidden rows above the visible well (where pieces spawn).
pub const HIDDEN: usize = 2;
pub const H: usize = VISIBLE + HIDDEN;
const TICK_MS: u64 = 10;
/// Delayed auto shift: a tap shorter than this moves exactly one column.
const DAS_MS: u64 = 250;
const ARR_MS: u64 = 50;
const SOFT_DROP_MS: u64 = 50;
const LOCK_DELAY_MS: u64 = 500;
const MAX_LOCK_RESETS: u32 = 15;
pub const LINES_PER_LEVEL: u32 = 10;
const PREVIEW: usize = 3;

pub type Board = [[u8; W]; H];

/// Piece kinds in the usual order; cell value on the board is kind + 1.
pub const NAMES: [&str; 7] = ["I", "O", "T", "S", "Z", "J", "L"];

/// Cells of each piece in rotation state 0 inside its bounding box
/// (x right, y down) and the box size.
const SHAPES: [([(i8, i8); 4], i8); 7] = [
    ([(0, 1), (1, 1), (2, 1), (3, 1)], 4), // I
    ([(0, 0), (1, 0), (0, 1), (1, 1)], 2), // O
    ([(1, 0), (0, 1), (1, 1), (2, 1)], 3), // T
    ([(1, 0), (2, 0), (0, 1), (1, 1)], 3), // S
    ([(0, 0), (1, 0), (1, 1), (2, 1)], 3), // Z
    ([(0, 0), (0, 1), (1, 1), (2, 1)], 3), // J
    ([(2, 0), (0, 1), (1, 1), (2, 1)], 3), // L
];

/// The four cells of `kind` in rotation `rot` (0 spawn, 1 R, 2 180°, 3 L),
/// relative to the box's top-left corner.
pub fn cells(kind: u8, rot: u8) -> [(i8, i8); 4] {
    let (base, n) = SHAPES[kind as usize];
    let mut out = base;
    for _ in 0..(rot % 4) {
        for c in out.iter_mut() {
            *c = (n - 1 - c.1, c.0);
        }
    }
    out
}

/// SRS kick offsets (x right, y UP as in the guideline tables) for the
/// JLSTZ pieces, per rotation state; kick = offset[from] - offset[to].
const JLSTZ_OFFSETS: [[(i8, i8); 5]; 4] = [
    [(0, 0); 5],
    [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
    [(0, 0); 5],
    [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
];

/// SRS kick tests for the I piece, indexed by the source state, clockwise
/// then counter-clockwise (x right, y up).
const I_KICKS_CW: [[(i8, i8); 5]; 4] = [
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)], // 0 -> R
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], // R -> 2
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], // 2 -> L
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], // L -> 0
];
const I_KICKS_CCW: [[(i8, i8); 5]; 4] = [
    [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)], // 0 -> L
    [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)], // R -> 0
    [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)], // 2 -> R
    [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)], // L -> 2
];

/// The kick tests for rotating `kind` from `from` one step (`cw` or not),
/// converted to board coordinates (y down).
pub fn kicks(kind: u8, from: u8, cw: bool) -> [(i8, i8); 5] {
    let to = if cw { (from + 1) % 4 } else { (from + 3) % 4 };
    let mut out = [(0i8, 0i8); 5];
    match kind {
        1 => {} // O never needs a kick
        0 => {
            let t = if cw {
                I_KICKS_CW[from as usize]
            } else {
                I_KICKS_CCW[from as usize]
            };
            for (o, k) in out.iter_mut().zip(t) {
                *o = (k.0, -k.1);
            }
        }
        _ => {
            for (i, o) in out.iter_mut().enumerate() {
                let a = JLSTZ_OFFSETS[from as usize][i];
                let b = JLSTZ_OFFSETS[to as usize][i];
                *o = (a.0 - b.0, -(a.1 - b.1));
            }
        }
    }
    out
}

/// A piece in the well: kind, rotation and the box's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub kind: u8,
    pub rot: u8,
    pub x: i32,
    pub y: i32,
}

impl Piece {
    pub fn spawn(kind: u8) -> Piece {
        let x = if kind == 1 { 4 } else { 3 };
        let y = if kind == 0 { 0 } else { 1 };
        Piece { kind, rot: 0, x, y }
    }

    pub fn blocks(&self) -> [(i32, i32); 4] {
        cells(self.kind, self.rot).map(|(cx, cy)| (self.x + cx as i32, self.y + cy as i32))
    }

    pub fn fits(&self, board: &Board) -> bool {
        self.blocks().iter().all(|&(x, y)| {
            x >= 0 && x < W as i32 && y >= 0 && y < H as i32 && board[y as usize][x as usize] == 0
        })
    }

    pub fn shifted(&self, dx: i32, dy: i32) -> Piece {
        Piece {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }

    /// The piece rotated one step with SRS kicks, if any test position fits.
    pub fn rotated(&self, board: &Board, cw: bool) -> Option<Piece> {
        let rot = if cw {
            (self.rot + 1) % 4
        } else {
            (self.rot + 3) % 4
        };
        kicks(self.kind, self.rot, cw)
            .iter()
            .map(|&(dx, dy)| Piece {
                rot,
                x: self.x + dx as i32,
                y: self.y + dy as i32,
                ..*self
            })
            .find(|p| p.fits(board))
    }

    /// Where the piece lands if dropped straight down.
    pub fn dropped(&self, board: &Board) -> Piece {
        let mut p = *self;
        while p.shifted(0, 1).fits(board) {
            p = p.shifted(0, 1);
        }
        p
    }
}

/// Write `piece` into `board` and clear full rows; returns the rows cleared.
pub fn lock_into(board: &mut Board, piece: &Piece) -> u32 {
    for (x, y) in piece.blocks() {
        board[y as usize][x as usize] = piece.kind + 1;
    }
    clear_lines(board)
}

pub fn clear_lines(board: &mut Board) -> u32 {
    let mut w = H;
    let mut cleared = 0;
    for r in (0..H).rev() {
        if board[r].iter().all(|&c| c != 0) {
            cleared += 1;
            continue;
        }
        w -= 1;
        board[w] = board[r];
    }
    for row in board.iter_mut().take(w) {
        *row = [0; W];
    }
    cleared
}

/// Points for clearing `n` rows at once on `level` (guideline table).
pub fn line_points(n: u32, level: u32) -> u32 {
    [0, 100, 300, 500, 800][n.min(4) as usize] * level
}

/// Milliseconds per row of gravity on `level` (guideline curve).
pub fn gravity_ms(level: u32) -> u64 {
    let l = (level.max(1) - 1) as f64;
    let secs = libm::pow(0.8 - l * 0.007, l);
    ((secs * 1000.0).round() as u64).max(TICK_MS)
}

/// Column heights (0 = empty column), counted from the floor.
pub fn heights(board: &Board) -> [u32; W] {
    let mut h = [0u32; W];
    for (c, hc) in h.iter_mut().enumerate() {
        if let Some(r) = (0..H).find(|&r| board[r][c] != 0) {
            *hc = (H - r) as u32;
        }
    }
    h
}

/// Empty cells with a filled cell somewhere above them.
pub fn holes(board: &Board) -> u32 {
    let mut n = 0;
    for c in 0..W {
        let mut seen = false;
        for row in board.iter() {
            if row[c] != 0 {
                seen = true;
            } else if seen {
                n += 1;
            }
        }
    }
    n
}

pub struct Tetris {
    seed: u64,
    episode: u32,
    rng: Rng,
    bag: Vec<u8>,
    queue: VecDeque<u8>,
    board: Board,
    active: Option<Piece>,
    hold: Option<u8>,
    hold_used: bool,
    start_level: u32,
    level: u32,
    score: u32,
    lines: u32,
    pieces: u32,
    clears: [u32; 4],
    clock: FixedStep,
    game_time_ms: u64,
    gravity_acc: u64,
    lock_ms: u64,
    lock_resets: u32,
    left_held: Option<u64>,
    right_held: Option<u64>,
    down_held: Option<u64>,
    last_clear: u32,
    terminal: Terminal,
}

impl Default for Tetris {
    fn default() -> Self {
        Self::new()
    }
}

impl Tetris {
    pub fn new() -> Self {
        Tetris {
            seed: 0,
            episode: 0,
            rng: Rng::new(0, 0),
            bag: Vec::new(),
            queue: VecDeque::new(),
            board: [[0; W]; H],
            active: None,
            hold: None,
            hold_used: false,
            start_level: 1,
            level: 1,
            score: 0,
            lines: 0,
            pieces: 0,
            clears: [0; 4],
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            gravity_acc: 0,
            lock_ms: 0,
            lock_resets: 0,
            left_held: None,
            right_held: None,
            down_held: None,
            last_clear: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn active(&self) -> Option<Piece> {
        self.active
    }
    pub fn next_kinds(&self) -> Vec<u8> {
        self.queue.iter().copied().take(PREVIEW).collect()
    }
    pub fn hold_kind(&self) -> Option<u8> {
        self.hold
    }
    pub fn hold_available(&self) -> bool {
        !self.hold_used
    }

    fn draw_from_bag(&mut self) -> u8 {
        if self.bag.is_empty() {
            let mut b: Vec<u8> = (0..7).collect();
            self.rng.shuffle(&mut b);
            b.reverse();
            self.bag = b;
        }
        self.bag.pop().expect("bag refilled")
    }

    fn refill_queue(&mut self) {
        while self.queue.len() < PREVIEW {
            let k = self.draw_from_bag();
            self.queue.push_back(k);
        }
    }

    fn game_over(&mut self, reason: &str) {
        self.active = None;
        self.terminal = Terminal::ended(Outcome::Fail, reason);
    }

    fn spawn(&mut self, kind: u8) {
        let p = Piece::spawn(kind);
        self.gravity_acc = 0;
        self.lock_ms = 0;
        self.lock_resets = 0;
        if p.fits(&self.board) {
            self.active = Some(p);
        } else {
            self.game_over("block out: no room for the next piece");
        }
    }

    fn spawn_next(&mut self) {
        let k = self.queue.pop_front().expect("queue");
        self.refill_queue();
        self.hold_used = false;
        self.spawn(k);
    }

    fn lock(&mut self) {
        let Some(p) = self.active.take() else { return };
        let above = p.blocks().iter().all(|&(_, y)| (y as usize) < HIDDEN);
        let n = lock_into(&mut self.board, &p);
        self.pieces += 1;
        self.last_clear = n;
        if n > 0 {
            self.clears[n as usize - 1] += 1;
            self.score += line_points(n, self.level);
            self.lines += n;
            self.level = self.start_level + self.lines / LINES_PER_LEVEL;
        }
        if above && n == 0 {
            self.game_over("lock out: the piece locked above the well");
            return;
        }
        self.spawn_next();
    }

    /// Try to move the active piece; on success a grounded piece's lock
    /// timer restarts (a limited number of times).
    fn try_move(&mut self, dx: i32, dy: i32) -> bool {
        let Some(p) = self.active else { return false };
        let q = p.shifted(dx, dy);
        if !q.fits(&self.board) {
            return false;
        }
        self.active = Some(q);
        if dy > 0 {
            self.lock_ms = 0;
        } else {
            self.touch_lock();
        }
        true
    }

    fn touch_lock(&mut self) {
        if self.lock_ms > 0 && self.lock_resets < MAX_LOCK_RESETS {
            self.lock_ms = 0;
            self.lock_resets += 1;
        }
    }

    fn rotate(&mut self, cw: bool) {
        let Some(p) = self.active else { return };
        if let Some(q) = p.rotated(&self.board, cw) {
            self.active = Some(q);
            self.touch_lock();
        }
    }

    fn hard_drop(&mut self) {
        let Some(p) = self.active else { return };
        self.active = Some(p.dropped(&self.board));
        self.lock();
    }

    fn swap_hold(&mut self) {
        let Some(p) = self.active else { return };
        if self.hold_used {
            return;
        }
        let prev = self.hold.replace(p.kind);
        match prev {
            Some(k) => self.spawn(k),
            None => {
                self.active = None;
                self.spawn_next();
            }
        }
        self.hold_used = true;
    }

    fn tick(&mut self) {
        self.game_time_ms += TICK_MS;
        if self.terminal.is_terminal || self.active.is_none() {
            return;
        }
        // Auto-repeat of a held horizontal key (the most recent one wins).
        let dir = match (self.left_held, self.right_held) {
            (Some(a), Some(b)) => Some(if a >= b { -1 } else { 1 }),
            (Some(_), None) => Some(-1),
            (None, Some(_)) => Some(1),
            _ => None,
        };
        if let Some(dx) = dir {
            let since = if dx < 0 {
                self.left_held
            } else {
                self.right_held
            }
            .unwrap_or(0);
            let held = self.game_time_ms - since;
            if held >= DAS_MS && (held - DAS_MS).is_multiple_of(ARR_MS) {
                self.try_move(dx, 0);
            }
        }
        if let Some(since) = self.down_held {
            let held = self.game_time_ms - since;
            if held > 0 && held.is_multiple_of(SOFT_DROP_MS) && self.try_move(0, 1) {
                self.gravity_acc = 0;
            }
        }
        self.gravity_acc += TICK_MS;
        let g = gravity_ms(self.level);
        while self.gravity_acc >= g {
            self.gravity_acc -= g;
            self.try_move(0, 1);
        }
        let grounded = self
            .active
            .is_some_and(|p| !p.shifted(0, 1).fits(&self.board));
        if grounded {
            self.lock_ms += TICK_MS;
            if self.lock_ms >= LOCK_DELAY_MS {
                self.lock();
            }
        } else {
            self.lock_ms = 0;
        }
    }

    fn lines_this_level(&self) -> u32 {
        self.lines % LINES_PER_LEVEL
    }
}

// ---------------------------------------------------------------- rendering

const CELL: f32 = 29.0;
const WELL_X: f32 = 495.0;
/// Top of the visible 20 rows; the two hidden rows are drawn as a faded strip
/// above it, so a piece that has just spawned shows all four blocks.
const WELL_Y: f32 = 126.0;

/// Screen y of board row `y` (rows `0..HIDDEN` land in the strip above the
/// visible field).
fn row_y(y: i32) -> f32 {
    WELL_Y + (y - HIDDEN as i32) as f32 * CELL
}

fn piece_color(kind: u8) -> Rgb {
    match kind {
        0 => rgb(0, 200, 230),
        1 => rgb(240, 210, 0),
        2 => rgb(160, 60, 210),
        3 => rgb(60, 200, 70),
        4 => rgb(230, 50, 50),
        5 => rgb(40, 90, 230),
        _ => rgb(245, 140, 20),
    }
}

fn shade(c: Rgb, f: f32) -> Rgb {
    let m = |v: u8| ((v as f32 * f).min(255.0)) as u8;
    rgb(m(c.0), m(c.1), m(c.2))
}

fn block(pm: &mut Pixmap, x: f32, y: f32, size: f32, c: Rgb) {
    draw::rect(pm, x, y, size, size, shade(c, 0.6));
    draw::rect(pm, x + 2.0, y + 2.0, size - 4.0, size - 4.0, c);
    draw::rect(pm, x + 2.0, y + 2.0, size - 4.0, 4.0, shade(c, 1.3));
}

/// A small piece drawn centred in a box at (cx, cy).
fn mini_piece(pm: &mut Pixmap, kind: u8, cx: f32, cy: f32, size: f32, c: Rgb) {
    let cs = cells(kind, 0);
    let (minx, maxx) = (
        cs.iter().map(|c| c.0).min().unwrap(),
        cs.iter().map(|c| c.0).max().unwrap(),
    );
    let (miny, maxy) = (
        cs.iter().map(|c| c.1).min().unwrap(),
        cs.iter().map(|c| c.1).max().unwrap(),
    );
    let w = (maxx - minx + 1) as f32 * size;
    let h = (maxy - miny + 1) as f32 * size;
    for &(x, y) in &cs {
        block(
            pm,
            cx - w / 2.0 + (x - minx) as f32 * size,
            cy - h / 2.0 + (y - miny) as f32 * size,
            size,
            c,
        );
    }
}

fn side_box(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, title: &str) {
    draw::rounded_rect(pm, x, y, w, h, 10.0, rgb(34, 38, 52));
    draw::rect_outline(pm, x, y, w, h, 2.0, rgb(90, 96, 120));
    draw::text(
        pm,
        title,
        x + w / 2.0,
        y + 8.0,
        22.0,
        rgb(230, 230, 240),
        Align::Center,
    );
}

/// What every frame shares: background, HUD bar, the empty well with its
/// grid, the side boxes and the key help. None of it overlaps what is drawn
/// later except where the later drawing covers it (blocks on the grid, text
/// on the boxes), as in the original one-pass order.
fn static_layer(pm: &mut Pixmap) {
    draw::clear(pm, rgb(18, 20, 30));
    draw::hud_bar(pm, "Tetris");
    let (ww, wh) = (W as f32 * CELL, VISIBLE as f32 * CELL);
    let strip_h = HIDDEN as f32 * CELL;
    let top = WELL_Y - strip_h;
    draw::rect(
        pm,
        WELL_X - 6.0,
        top - 6.0,
        ww + 12.0,
        strip_h + wh + 12.0,
        rgb(120, 126, 150),
    );
    draw::rect(pm, WELL_X, top, ww, strip_h, rgb(40, 43, 58));
    draw::rect(pm, WELL_X, WELL_Y, ww, wh, rgb(10, 11, 18));
    for c in 1..W {
        let x = WELL_X + c as f32 * CELL;
        draw::rect(pm, x, top, 1.0, strip_h + wh, rgb(30, 33, 46));
    }
    for r in 1..H {
        let y = top + r as f32 * CELL;
        draw::rect(pm, WELL_X, y, ww, 1.0, rgb(30, 33, 46));
    }
    side_box(pm, 290.0, 78.0, 170.0, 140.0, "HOLD");
    side_box(pm, 820.0, 78.0, 170.0, 330.0, "NEXT");
    side_box(pm, 290.0, 240.0, 170.0, 200.0, "STATS");
    let help = [
        "Left/Right: move",
        "Up or X: rotate cw",
        "Z: rotate ccw",
        "Down: soft drop",
        "Space: hard drop",
        "Shift or C: hold",
    ];
    for (i, s) in help.iter().enumerate() {
        draw::text(
            pm,
            s,
            820.0,
            440.0 + i as f32 * 30.0,
            18.0,
            rgb(160, 166, 190),
            Align::Left,
        );
    }
}

impl Game for Tetris {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).clamp(1, 20);
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x7E72_0000 + episode as u64);
        self.bag.clear();
        self.queue.clear();
        self.board = [[0; W]; H];
        self.active = None;
        self.hold = None;
        self.hold_used = false;
        self.level = self.start_level;
        self.score = 0;
        self.lines = 0;
        self.pieces = 0;
        self.clears = [0; 4];
        self.clock.clear();
        self.gravity_acc = 0;
        self.lock_ms = 0;
        self.lock_resets = 0;
        self.left_held = None;
        self.right_held = None;
        self.down_held = None;
        self.last_clear = 0;
        self.terminal = Terminal::running();
        self.refill_queue();
        self.spawn_next();
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
        let visible: Vec<Vec<u8>> = self.board[HIDDEN..].iter().map(|r| r.to_vec()).collect();
        let player = match self.active {
            Some(p) => json!({
                "piece": NAMES[p.kind as usize],
                "rotation": p.rot,
                "x": p.x,
                "y": p.y - HIDDEN as i32,
                "cells": p.blocks().iter().map(|&(x, y)| json!([x, y - HIDDEN as i32])).collect::<Vec<_>>(),
                "ghost_y": p.dropped(&self.board).y - HIDDEN as i32,
            }),
            None => Value::Null,
        };
        let hs = heights(&self.board);
        let done = self.lines_this_level();
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", self.level);
        set(&mut s.game_state, "lines", self.lines);
        set(
            &mut s.game_state,
            "completion_progress",
            done as f64 / LINES_PER_LEVEL as f64,
        );
        set(
            &mut s.game_state,
            "progress",
            done as f64 / LINES_PER_LEVEL as f64,
        );
        set(&mut s.game_state, "player", player);
        set(&mut s.game_state, "board", json!(visible));
        set(
            &mut s.game_state,
            "next",
            self.next_kinds()
                .iter()
                .map(|&k| NAMES[k as usize])
                .collect::<Vec<_>>(),
        );
        set(
            &mut s.game_state,
            "hold",
            self.hold.map(|k| NAMES[k as usize]),
        );
        set(&mut s.game_state, "entities", Value::Null);
        set(&mut s.metrics, "lines", self.lines);
        set(&mut s.metrics, "lines_target", LINES_PER_LEVEL);
        set(&mut s.metrics, "lines_remaining", LINES_PER_LEVEL - done);
        set(&mut s.metrics, "pieces_placed", self.pieces);
        set(&mut s.metrics, "singles", self.clears[0]);
        set(&mut s.metrics, "doubles", self.clears[1]);
        set(&mut s.metrics, "triples", self.clears[2]);
        set(&mut s.metrics, "tetrises", self.clears[3]);
        set(&mut s.metrics, "holes", holes(&self.board));
        set(
            &mut s.metrics,
            "max_height",
            hs.iter().copied().max().unwrap_or(0),
        );
        set(&mut s.metrics, "gravity_ms", gravity_ms(self.level));
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "hold_used", self.hold_used);
        set(&mut s.raw, "lock_ms", self.lock_ms);
        set(&mut s.raw, "last_clear", self.last_clear);
        set(&mut s.raw, "column_heights", json!(hs));
        s
    }

    fn eval_view(&self, paths: &[String]) -> Value {
        gw_core::state::view_from(
            paths,
            &self.terminal,
            |p| match p {
                "game_state.score" => Some(self.score.into()),
                "game_state.completion_progress" => {
                    Some((self.lines_this_level() as f64 / LINES_PER_LEVEL as f64).into())
                }
                _ => None,
            },
            || self.state(),
        )
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let t = self.game_time_ms;
        match event {
            InputEvent::KeyDown { key } => {
                if self.terminal.is_terminal {
                    if key == "Enter" {
                        self.reset(self.episode + 1);
                    }
                    return;
                }
                match key.as_str() {
                    "ArrowLeft" if self.left_held.is_none() => {
                        self.left_held = Some(t);
                        self.try_move(-1, 0);
                    }
                    "ArrowRight" if self.right_held.is_none() => {
                        self.right_held = Some(t);
                        self.try_move(1, 0);
                    }
                    "ArrowDown" if self.down_held.is_none() => {
                        self.down_held = Some(t);
                        if self.try_move(0, 1) {
                            self.gravity_acc = 0;
                        }
                    }
                    "ArrowUp" | "x" | "X" => self.rotate(true),
                    "z" | "Z" => self.rotate(false),
                    "Space" => self.hard_drop(),
                    "Shift" | "c" | "C" => self.swap_hold(),
                    _ => {}
                }
            }
            InputEvent::KeyUp { key } => match key.as_str() {
                "ArrowLeft" => self.left_held = None,
                "ArrowRight" => self.right_held = None,
                "ArrowDown" => self.down_held = None,
                _ => {}
            },
            InputEvent::MouseDown {
                button: MouseButton::Left,
                ..
            } if self.terminal.is_terminal => self.reset(self.episode + 1),
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        // Everything that never changes comes from a layer drawn once; the
        // rest is drawn over it in the same order as before, so frames are
        // pixel-identical to drawing it all (see `golden_frames_*`).
        static LAYER: OnceLock<Pixmap> = OnceLock::new();
        draw::static_layer(pm, &LAYER, static_layer);
        draw::hud_items(
            pm,
            &[
                ("Score", self.score.to_string()),
                ("Lines", self.lines.to_string()),
                ("Level", self.level.to_string()),
            ],
        );
        let ww = W as f32 * CELL;
        let strip_h = HIDDEN as f32 * CELL;
        let top = WELL_Y - strip_h;
        for (r, row) in self.board.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                if v != 0 {
                    block(
                        pm,
                        WELL_X + c as f32 * CELL,
                        row_y(r as i32),
                        CELL,
                        piece_color(v - 1),
                    );
                }
            }
        }
        if let Some(p) = self.active {
            let ghost = p.dropped(&self.board);
            let col = piece_color(p.kind);
            for (x, y) in ghost.blocks() {
                let (px, py) = (WELL_X + x as f32 * CELL, row_y(y));
                draw::rect(
                    pm,
                    px + 2.0,
                    py + 2.0,
                    CELL - 4.0,
                    CELL - 4.0,
                    rgba(col.0, col.1, col.2, 60),
                );
                draw::rect_outline(
                    pm,
                    px + 2.0,
                    py + 2.0,
                    CELL - 4.0,
                    CELL - 4.0,
                    2.0,
                    rgba(col.0, col.1, col.2, 170),
                );
            }
            for (x, y) in p.blocks() {
                block(pm, WELL_X + x as f32 * CELL, row_y(y), CELL, col);
            }
        }
        // Fade the hidden rows and mark where the visible field starts.
        draw::rect(pm, WELL_X, top, ww, strip_h, rgba(18, 20, 30, 110));
        draw::rect(pm, WELL_X, WELL_Y - 1.0, ww, 2.0, rgb(120, 126, 150));
        // Hold box (left).
        if let Some(k) = self.hold {
            let c = if self.hold_used {
                rgb(100, 100, 110)
            } else {
                piece_color(k)
            };
            mini_piece(pm, k, 375.0, 160.0, 26.0, c);
        }
        // Next queue (right).
        for (i, &k) in self.next_kinds().iter().enumerate() {
            let size = if i == 0 { 28.0 } else { 22.0 };
            mini_piece(pm, k, 905.0, 150.0 + i as f32 * 95.0, size, piece_color(k));
        }
        // Stats (left, under hold).
        let stats = [
            format!("Score {}", self.score),
            format!("Lines {}", self.lines),
            format!("Level {}", self.level),
            format!("Goal {}/{}", self.lines_this_level(), LINES_PER_LEVEL),
        ];
        for (i, s) in stats.iter().enumerate() {
            draw::text(
                pm,
                s,
                305.0,
                284.0 + i as f32 * 36.0,
                20.0,
                rgb(250, 214, 90),
                Align::Left,
            );
        }
        if self.terminal.is_terminal {
            draw::banner(
                pm,
                "GAME OVER",
                &format!("Score {}  -  press Enter to retry", self.score),
            );
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::next_control(self, task)})
    }
}
