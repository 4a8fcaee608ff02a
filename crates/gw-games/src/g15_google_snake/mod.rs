//! 15_google-snake — the grid snake of Google's doodle game. The snake waits
//! for the first arrow key, then moves one cell per tick on the game clock in
//! its current direction; arrow keys turn it (a turn straight back into the
//! neck is ignored, quick turns queue up). Apples lie on free cells chosen by
//! the seeded RNG; eating one grows the snake by a cell and scores a point,
//! and a new apple appears. Running into a wall or into the body ends the
//! episode; filling the whole board wins it.
//!
//! Settings, all among the options of Google's game: the default 17×15 board,
//! five apples on the board at once and the slow speed of five cells per
//! second. At that speed one 0.2 s agent step is exactly one cell, so every
//! cell can be reached (at two cells per step the head could only turn on
//! every other cell and a quarter of the board would be out of reach), and
//! five apples keep the 15-apple target within 100 steps for a good player.
//!
//! State: `game_state.score` (apples eaten), `game_state.player` (head and
//! direction), `game_state.board` (snake cells head first, apples),
//! `metrics.snake_length`, `metrics.speed` (cells per second),
//! `metrics.board_width`, `metrics.board_height`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{
    FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, Status, TaskInfo, Terminal,
};
use serde_json::{Value, json};
use std::collections::VecDeque;
use tiny_skia::Pixmap;

pub const ID: &str = "15_google-snake";
pub const BW: i32 = 17;
pub const BH: i32 = 15;
/// Milliseconds per cell of movement.
pub const TICK_MS: u64 = 200;
pub const APPLES: usize = 5;
const START_LEN: usize = 4;
const MAX_QUEUED_TURNS: usize = 3;

pub type Cell = (i32, i32);

pub use crate::grid::Dir;

pub const DIRS: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

pub fn in_bounds(c: Cell) -> bool {
    c.0 >= 0 && c.0 < BW && c.1 >= 0 && c.1 < BH
}

pub fn step_cell(c: Cell, d: Dir) -> Cell {
    let (dx, dy) = d.delta();
    (c.0 + dx, c.1 + dy)
}

/// What one tick of movement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moved {
    Ok,
    Ate,
    HitWall,
    HitSelf,
}

/// The snake's body and the apples: the part of the game the expert can
/// simulate (no randomness in here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Body {
    /// Head first.
    pub cells: VecDeque<Cell>,
    pub dir: Dir,
    pub apples: Vec<Cell>,
}

impl Body {
    pub fn head(&self) -> Cell {
        self.cells[0]
    }

    pub fn occupied(&self, c: Cell) -> bool {
        self.cells.contains(&c)
    }

    /// Move one cell in `self.dir`. On a crash nothing moves.
    pub fn advance(&mut self) -> Moved {
        let next = step_cell(self.head(), self.dir);
        if !in_bounds(next) {
            return Moved::HitWall;
        }
        let eat = self.apples.iter().position(|&a| a == next);
        let tail = *self.cells.back().expect("snake has a tail");
        // The tail moves away this tick unless the snake grows.
        let hits = self.cells.iter().any(|&c| c == next) && !(eat.is_none() && next == tail);
        if hits {
            return Moved::HitSelf;
        }
        if eat.is_none() {
            self.cells.pop_back();
        }
        self.cells.push_front(next);
        match eat {
            Some(i) => {
                self.apples.remove(i);
                Moved::Ate
            }
            None => Moved::Ok,
        }
    }
}

pub struct Snake {
    seed: u64,
    episode: u32,
    rng: Rng,
    body: Body,
    queue: VecDeque<Dir>,
    started: bool,
    score: u32,
    moves: u32,
    clock: FixedStep,
    game_time_ms: u64,
    terminal: Terminal,
}

impl Default for Snake {
    fn default() -> Self {
        Self::new()
    }
}

impl Snake {
    pub fn new() -> Self {
        Snake {
            seed: 0,
            episode: 0,
            rng: Rng::new(0, 0),
            body: Body {
                cells: VecDeque::new(),
                dir: Dir::Right,
                apples: Vec::new(),
            },
            queue: VecDeque::new(),
            started: false,
            score: 0,
            moves: 0,
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn body(&self) -> &Body {
        &self.body
    }
    pub fn started(&self) -> bool {
        self.started
    }
    pub fn queued(&self) -> &VecDeque<Dir> {
        &self.queue
    }

    fn free_cells(&self) -> Vec<Cell> {
        let mut v = Vec::new();
        for y in 0..BH {
            for x in 0..BW {
                let c = (x, y);
                if !self.body.occupied(c) && !self.body.apples.contains(&c) {
                    v.push(c);
                }
            }
        }
        v
    }

    fn place_apple(&mut self) {
        let free = self.free_cells();
        if !free.is_empty() {
            let c = free[self.rng.index(free.len())];
            self.body.apples.push(c);
        }
    }

    fn turn(&mut self, d: Dir) {
        let last = self.queue.back().copied().unwrap_or(self.body.dir);
        if d == last || d == last.opposite() || self.queue.len() >= MAX_QUEUED_TURNS {
            if !self.started && d == self.body.dir {
                self.started = true;
                self.clock.clear();
            }
            return;
        }
        self.queue.push_back(d);
        if !self.started {
            self.started = true;
            self.clock.clear();
        }
    }

    fn tick(&mut self) {
        if !self.started || self.terminal.is_terminal {
            return;
        }
        if let Some(d) = self.queue.pop_front() {
            self.body.dir = d;
        }
        match self.body.advance() {
            Moved::Ok => {}
            Moved::Ate => {
                self.score += 1;
                self.place_apple();
                if self.body.cells.len() as i32 == BW * BH {
                    self.terminal =
                        Terminal::ended(Outcome::Success, "the snake fills the whole board");
                }
            }
            Moved::HitWall => {
                self.terminal = Terminal::ended(Outcome::Fail, "the snake hit the wall")
            }
            Moved::HitSelf => {
                self.terminal = Terminal::ended(Outcome::Fail, "the snake ran into itself")
            }
        }
        self.moves += 1;
    }
}

// ---------------------------------------------------------------- rendering

const CELL: f32 = 38.0;
const BOARD_X: f32 = (1280.0 - CELL * BW as f32) / 2.0;
const BOARD_Y: f32 = 72.0;

fn cell_xy(c: Cell) -> (f32, f32) {
    (BOARD_X + c.0 as f32 * CELL, BOARD_Y + c.1 as f32 * CELL)
}

impl Game for Snake {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x5AA_0000 + episode as u64);
        let y = BH / 2;
        let head_x = START_LEN as i32;
        self.body = Body {
            cells: (0..START_LEN as i32).map(|i| (head_x - i, y)).collect(),
            dir: Dir::Right,
            apples: Vec::new(),
        };
        self.queue.clear();
        self.started = false;
        self.score = 0;
        self.moves = 0;
        self.clock.clear();
        self.terminal = Terminal::running();
        for _ in 0..APPLES {
            self.place_apple();
        }
    }

    fn state(&self) -> GameApiState {
        let status = if self.terminal.is_terminal {
            Status::Terminal
        } else if self.started {
            Status::Playing
        } else {
            Status::Ready
        };
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let head = self.body.head();
        let cells: Vec<Value> = self.body.cells.iter().map(|c| json!([c.0, c.1])).collect();
        let apples: Vec<Value> = self.body.apples.iter().map(|c| json!([c.0, c.1])).collect();
        let len = self.body.cells.len();
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", len as f64 / (BW * BH) as f64);
        set(
            &mut s.game_state,
            "player",
            json!({"x": head.0, "y": head.1, "direction": self.body.dir.name(), "moving": self.started}),
        );
        set(
            &mut s.game_state,
            "board",
            json!({"width": BW, "height": BH, "snake": cells, "apples": apples}),
        );
        set(&mut s.game_state, "entities", json!({"apples": apples}));
        set(&mut s.metrics, "snake_length", len);
        set(&mut s.metrics, "speed", 1000.0 / TICK_MS as f64);
        set(&mut s.metrics, "board_width", BW);
        set(&mut s.metrics, "board_height", BH);
        set(&mut s.metrics, "apples_eaten", self.score);
        set(&mut s.metrics, "moves", self.moves);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "tick_ms", TICK_MS);
        set(
            &mut s.raw,
            "queued_turns",
            self.queue.iter().map(|d| d.name()).collect::<Vec<_>>(),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if self.terminal.is_terminal {
            return;
        }
        match event {
            InputEvent::KeyDown { key } => {
                if let Some(d) = Dir::from_arrow_key(key) {
                    self.turn(d);
                }
            }
            // A click on the board turns the snake towards the clicked side.
            InputEvent::MouseDown {
                x,
                y,
                button: MouseButton::Left,
            } => {
                let (hx, hy) = cell_xy(self.body.head());
                let (dx, dy) = (*x - (hx + CELL / 2.0), *y - (hy + CELL / 2.0));
                if dx.abs().max(dy.abs()) < CELL / 2.0 {
                    return;
                }
                let horizontal = matches!(self.body.dir, Dir::Up | Dir::Down);
                let d = if horizontal {
                    if dx < 0.0 { Dir::Left } else { Dir::Right }
                } else if dy < 0.0 {
                    Dir::Up
                } else {
                    Dir::Down
                };
                self.turn(d);
            }
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        draw::clear(pm, rgb(74, 117, 44));
        draw::hud(
            pm,
            "Google Snake",
            &[
                ("Apples", self.score.to_string()),
                ("Length", self.body.cells.len().to_string()),
            ],
        );
        let (bw, bh) = (CELL * BW as f32, CELL * BH as f32);
        draw::rect(
            pm,
            BOARD_X - 4.0,
            BOARD_Y - 4.0,
            bw + 8.0,
            bh + 8.0,
            rgb(87, 138, 52),
        );
        draw::rect(pm, BOARD_X, BOARD_Y, bw, bh, rgb(170, 215, 81));
        for y in 0..BH {
            for x in 0..BW {
                if (x + y) % 2 == 1 {
                    let (px, py) = cell_xy((x, y));
                    draw::rect(pm, px, py, CELL, CELL, rgb(162, 209, 73));
                }
            }
        }
        for &a in &self.body.apples {
            let (px, py) = cell_xy(a);
            draw::circle(
                pm,
                px + CELL / 2.0,
                py + CELL / 2.0 + 2.0,
                CELL * 0.38,
                rgb(231, 71, 29),
            );
            draw::circle(
                pm,
                px + CELL * 0.4,
                py + CELL * 0.45,
                CELL * 0.09,
                rgba(255, 255, 255, 150),
            );
            draw::line(
                pm,
                px + CELL / 2.0,
                py + CELL * 0.18,
                px + CELL * 0.62,
                py + CELL * 0.06,
                3.0,
                rgb(90, 60, 30),
            );
        }
        let n = self.body.cells.len();
        for (i, &c) in self.body.cells.iter().enumerate().rev() {
            let (px, py) = cell_xy(c);
            let shade = (i as f32 / n.max(1) as f32 * 40.0) as u8;
            let col = rgb(78 - shade / 2, 124 - shade / 2, 246 - shade);
            draw::rounded_rect(pm, px + 3.0, py + 3.0, CELL - 6.0, CELL - 6.0, 9.0, col);
            // Bridge to the next segment so the body reads as one piece.
            if let Some(&next) = self.body.cells.get(i + 1) {
                let (qx, qy) = cell_xy(next);
                let (mx, my) = ((px + qx) / 2.0, (py + qy) / 2.0);
                draw::rect(pm, mx + 6.0, my + 6.0, CELL - 12.0, CELL - 12.0, col);
            }
        }
        // Eyes on the head, looking where it goes.
        let (hx, hy) = cell_xy(self.body.head());
        let (dx, dy) = self.body.dir.delta();
        let (cx, cy) = (
            hx + CELL / 2.0 + dx as f32 * 5.0,
            hy + CELL / 2.0 + dy as f32 * 5.0,
        );
        let (ox, oy) = (dy as f32 * 8.0, dx as f32 * 8.0);
        for s in [-1.0f32, 1.0] {
            draw::circle(pm, cx + ox * s, cy + oy * s, 6.0, rgb(255, 255, 255));
            draw::circle(
                pm,
                cx + ox * s + dx as f32 * 2.0,
                cy + oy * s + dy as f32 * 2.0,
                3.0,
                rgb(20, 20, 40),
            );
        }
        if !self.started && !self.terminal.is_terminal {
            draw::rounded_rect(pm, 440.0, 658.0, 400.0, 44.0, 10.0, rgba(0, 0, 0, 150));
            draw::text(
                pm,
                "Press an arrow key to start",
                640.0,
                667.0,
                22.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        }
        draw::end_banner(
            pm,
            &self.terminal,
            "YOU WIN",
            &format!("Apples eaten: {}", self.score),
        );
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::next_control(self, task)})
    }
}
