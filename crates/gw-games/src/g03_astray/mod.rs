//! 03_astray — roll a ball through a maze to the exit.
//!
//! The maze is a square grid of blocks (walls or floor) carved by a
//! recursive backtracker, as in the original Astray: level N has N + 4 cells
//! per side (a (2N + 9)-block grid). The ball starts in the bottom-left cell;
//! the exit is a gap in the right-hand border next to the top-right cell.
//! Holding an arrow key pushes the ball that way; the ball keeps rolling and
//! slows down on its own (velocity damping), bouncing softly off walls.
//! Reaching the exit ends the episode with success.
//!
//! Coordinates are in blocks: x grows to the right, y grows downwards
//! (row 0 is the top of the screen); block (c, r) spans [c, c+1] × [r, r+1].
//!
//! State: `game_state.level`, `game_state.completion_progress` (share of the
//! start-to-exit path distance covered, 1.0 once the exit is reached),
//! `metrics.distance_to_goal` (path distance in blocks from the ball's block
//! to the exit), the ball in `game_state.player`, the maze rows in `raw.maze`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::collections::VecDeque;
use tiny_skia::Pixmap;

pub const ID: &str = "03_astray";
/// Fixed physics tick.
const TICK_MS: u64 = 10;
pub const BALL_RADIUS: f64 = 0.25;
/// Push while a key is held, in blocks/s².
pub const ACCEL: f64 = 26.0;
/// Exponential velocity damping rate, 1/s (the ball coasts and slows down).
pub const DAMPING: f64 = 3.0;
/// Share of the normal speed kept when bouncing off a wall.
pub const RESTITUTION: f64 = 0.25;
pub const MIN_LEVEL: u32 = 1;
pub const MAX_LEVEL: u32 = 12;

/// Maze cells per side at `level` (original Astray: 5 at level 1, +1 per level).
pub fn cells_for_level(level: u32) -> usize {
    level.clamp(MIN_LEVEL, MAX_LEVEL) as usize + 4
}

/// A square block grid; `true` is a wall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    pub dim: usize,
    walls: Vec<bool>,
}

impl Maze {
    /// Carve a perfect maze with `cells` cells per side using an iterative
    /// recursive backtracker, then open the exit in the right border.
    pub fn generate(cells: usize, rng: &mut Rng) -> Maze {
        let dim = 2 * cells + 1;
        let mut m = Maze {
            dim,
            walls: vec![true; dim * dim],
        };
        let start = m.start_block();
        m.set(start.0, start.1, false);
        let mut stack = vec![start];
        while let Some(&(c, r)) = stack.last() {
            let mut options = Vec::with_capacity(4);
            for (dc, dr) in [(-2i32, 0i32), (2, 0), (0, -2), (0, 2)] {
                let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                if nc >= 1
                    && nr >= 1
                    && nc <= dim as i32 - 2
                    && nr <= dim as i32 - 2
                    && m.wall(nc, nr)
                {
                    options.push((nc as usize, nr as usize));
                }
            }
            if options.is_empty() {
                stack.pop();
                continue;
            }
            let (nc, nr) = options[rng.index(options.len())];
            m.set((c + nc) / 2, (r + nr) / 2, false);
            m.set(nc, nr, false);
            stack.push((nc, nr));
        }
        let exit = m.exit_block();
        m.set(exit.0, exit.1, false);
        m
    }

    /// Whether block (c, r) is solid; everything outside the grid is solid.
    pub fn wall(&self, c: i32, r: i32) -> bool {
        if c < 0 || r < 0 || c >= self.dim as i32 || r >= self.dim as i32 {
            return true;
        }
        self.walls[r as usize * self.dim + c as usize]
    }

    fn set(&mut self, c: usize, r: usize, wall: bool) {
        self.walls[r * self.dim + c] = wall;
    }

    /// The bottom-left cell, where the ball starts.
    pub fn start_block(&self) -> (usize, usize) {
        (1, self.dim - 2)
    }

    /// The gap in the right border next to the top-right cell.
    pub fn exit_block(&self) -> (usize, usize) {
        (self.dim - 1, 1)
    }

    /// Rows as text, `#` for walls, `.` for floor, `E` for the exit.
    pub fn rows(&self) -> Vec<String> {
        let exit = self.exit_block();
        (0..self.dim)
            .map(|r| {
                (0..self.dim)
                    .map(|c| {
                        if (c, r) == exit {
                            'E'
                        } else if self.wall(c as i32, r as i32) {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Breadth-first path distance (in blocks) from every floor block to the
    /// exit; `u32::MAX` for walls.
    pub fn distances_to_exit(&self) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.dim * self.dim];
        let (ec, er) = self.exit_block();
        dist[er * self.dim + ec] = 0;
        let mut queue = VecDeque::from([(ec, er)]);
        while let Some((c, r)) = queue.pop_front() {
            let d = dist[r * self.dim + c];
            for (dc, dr) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (nc, nr) = (c as i32 + dc, r as i32 + dr);
                if !self.wall(nc, nr) {
                    let i = nr as usize * self.dim + nc as usize;
                    if dist[i] == u32::MAX {
                        dist[i] = d + 1;
                        queue.push_back((nc as usize, nr as usize));
                    }
                }
            }
        }
        dist
    }
}

/// The ball's position and velocity, in blocks and blocks/s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

impl Ball {
    pub fn block(&self) -> (i32, i32) {
        (libm::floor(self.x) as i32, libm::floor(self.y) as i32)
    }
}

/// One physics tick of `dt` seconds with push direction (`ax`, `ay`) in
/// {-1, 0, 1}². Returns whether the ball touched a wall.
pub fn physics_tick(maze: &Maze, ball: &mut Ball, ax: f64, ay: f64, dt: f64) -> bool {
    let keep = libm::exp(-DAMPING * dt);
    let norm = if ax != 0.0 && ay != 0.0 {
        core::f64::consts::FRAC_1_SQRT_2
    } else {
        1.0
    };
    ball.vx = ball.vx * keep + ACCEL * ax * norm * dt;
    ball.vy = ball.vy * keep + ACCEL * ay * norm * dt;
    let speed = libm::sqrt(ball.vx * ball.vx + ball.vy * ball.vy);
    let substeps = libm::ceil(speed * dt / 0.05).max(1.0) as u32;
    let h = dt / substeps as f64;
    let mut hit = false;
    for _ in 0..substeps {
        ball.x += ball.vx * h;
        ball.y += ball.vy * h;
        hit |= resolve_walls(maze, ball);
    }
    hit
}

/// Push the ball out of any wall block it overlaps and bounce its velocity.
fn resolve_walls(maze: &Maze, ball: &mut Ball) -> bool {
    let mut hit = false;
    let (bc, br) = ball.block();
    for r in br - 1..=br + 1 {
        for c in bc - 1..=bc + 1 {
            if !maze.wall(c, r) {
                continue;
            }
            let nx = ball.x.clamp(c as f64, c as f64 + 1.0);
            let ny = ball.y.clamp(r as f64, r as f64 + 1.0);
            let (dx, dy) = (ball.x - nx, ball.y - ny);
            let d2 = dx * dx + dy * dy;
            if d2 >= BALL_RADIUS * BALL_RADIUS {
                continue;
            }
            let d = libm::sqrt(d2);
            let (nx, ny) = if d > 1e-9 {
                (dx / d, dy / d)
            } else {
                // Centre inside the block (cannot happen with small substeps):
                // push back against the velocity.
                let s = libm::sqrt(ball.vx * ball.vx + ball.vy * ball.vy).max(1e-9);
                (-ball.vx / s, -ball.vy / s)
            };
            let pen = BALL_RADIUS - d;
            ball.x += nx * pen;
            ball.y += ny * pen;
            let vn = ball.vx * nx + ball.vy * ny;
            if vn < 0.0 {
                ball.vx -= (1.0 + RESTITUTION) * vn * nx;
                ball.vy -= (1.0 + RESTITUTION) * vn * ny;
            }
            hit = true;
        }
    }
    hit
}

/// Held arrow keys: left, right, up, down.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Held {
    left: bool,
    right: bool,
    up: bool,
    down: bool,
}

impl Held {
    fn axis(&self) -> (f64, f64) {
        let x = self.right as i32 - self.left as i32;
        let y = self.down as i32 - self.up as i32;
        (x as f64, y as f64)
    }
}

pub struct Astray {
    seed: u64,
    start_level: u32,
    level: u32,
    episode: u32,
    maze: Maze,
    dist: Vec<u32>,
    start_distance: u32,
    ball: Ball,
    held: Held,
    clock: FixedStep,
    game_time_ms: u64,
    level_time_ms: u64,
    key_presses: u32,
    wall_hits: u32,
    was_touching: bool,
    terminal: Terminal,
    /// Counts maze builds; keys the cached static layer.
    maze_serial: u64,
    /// Background and maze drawn once per maze (walls never change).
    layer: draw::KeyedLayer<u64>,
}

impl Default for Astray {
    fn default() -> Self {
        Self::new()
    }
}

impl Astray {
    pub fn new() -> Self {
        let mut rng = Rng::new(0, 0);
        let maze = Maze::generate(cells_for_level(1), &mut rng);
        let dist = maze.distances_to_exit();
        Astray {
            seed: 0,
            start_level: 1,
            level: 1,
            episode: 0,
            maze,
            dist,
            start_distance: 0,
            ball: Ball {
                x: 1.5,
                y: 1.5,
                vx: 0.0,
                vy: 0.0,
            },
            held: Held::default(),
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            level_time_ms: 0,
            key_presses: 0,
            wall_hits: 0,
            was_touching: false,
            terminal: Terminal::running(),
            maze_serial: 0,
            layer: draw::KeyedLayer::default(),
        }
    }

    pub fn maze(&self) -> &Maze {
        &self.maze
    }

    pub fn ball(&self) -> Ball {
        self.ball
    }

    pub fn level(&self) -> u32 {
        self.level
    }

    fn build_level(&mut self) {
        let stream = 0x0300_0000 + ((self.level as u64) << 16) + self.episode as u64;
        let mut rng = Rng::new(self.seed, stream);
        self.maze = Maze::generate(cells_for_level(self.level), &mut rng);
        self.dist = self.maze.distances_to_exit();
        self.maze_serial += 1;
        let (sc, sr) = self.maze.start_block();
        self.ball = Ball {
            x: sc as f64 + 0.5,
            y: sr as f64 + 0.5,
            vx: 0.0,
            vy: 0.0,
        };
        self.start_distance = self.dist[sr * self.maze.dim + sc];
        self.held = Held::default();
        self.clock.clear();
        self.level_time_ms = 0;
        self.key_presses = 0;
        self.wall_hits = 0;
        self.was_touching = false;
        self.terminal = Terminal::running();
    }

    /// Path distance in blocks from the ball's block to the exit.
    pub fn distance_to_goal(&self) -> u32 {
        if self.reached_exit() {
            return 0;
        }
        let (c, r) = self.ball.block();
        if self.maze.wall(c, r) {
            return self.start_distance;
        }
        self.dist[r as usize * self.maze.dim + c as usize]
    }

    fn reached_exit(&self) -> bool {
        self.ball.x >= (self.maze.dim - 1) as f64
    }

    pub fn completion_progress(&self) -> f64 {
        if self.reached_exit() {
            return 1.0;
        }
        let p = 1.0 - self.distance_to_goal() as f64 / self.start_distance.max(1) as f64;
        (p.clamp(0.0, 0.999) * 1000.0).round() / 1000.0
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        let (ax, ay) = self.held.axis();
        let touching = physics_tick(&self.maze, &mut self.ball, ax, ay, TICK_MS as f64 / 1000.0);
        if touching && !self.was_touching {
            self.wall_hits += 1;
        }
        self.was_touching = touching;
        self.level_time_ms += TICK_MS;
        if self.reached_exit() {
            self.ball.vx = 0.0;
            self.ball.vy = 0.0;
            self.terminal = Terminal::ended(
                Outcome::Success,
                format!("reached the exit of level {}", self.level),
            );
        }
    }
}

// ---- rendering ---------------------------------------------------------

const MAZE_TOP: f32 = 66.0;
const MAZE_AREA: f32 = 642.0;
const MAZE_CENTER_X: f32 = 470.0;

/// Pixel size of one block and the maze's top-left corner.
fn layout(dim: usize) -> (f32, f32, f32) {
    let block = (MAZE_AREA / dim as f32).floor();
    let size = block * dim as f32;
    (
        block,
        MAZE_CENTER_X - size / 2.0,
        MAZE_TOP + (MAZE_AREA - size) / 2.0,
    )
}

impl Astray {
    /// The static layer: background, floor, start pad, exit and walls.
    fn draw_static(&self, pm: &mut Pixmap) {
        draw::clear(pm, rgb(30, 33, 42));
        let dim = self.maze.dim;
        let (b, ox, oy) = layout(dim);
        let size = b * dim as f32;
        // Floor with a subtle checker so motion is readable.
        draw::rect(pm, ox, oy, size, size, rgb(206, 196, 176));
        for r in 0..dim {
            for c in 0..dim {
                if (r + c) % 2 == 0 && !self.maze.wall(c as i32, r as i32) {
                    draw::rect(
                        pm,
                        ox + c as f32 * b,
                        oy + r as f32 * b,
                        b,
                        b,
                        rgb(198, 188, 167),
                    );
                }
            }
        }
        // Start pad and exit.
        let (sc, sr) = self.maze.start_block();
        draw::rect(
            pm,
            ox + sc as f32 * b + 3.0,
            oy + sr as f32 * b + 3.0,
            b - 6.0,
            b - 6.0,
            rgb(170, 196, 226),
        );
        let (ec, er) = self.maze.exit_block();
        let (ex, ey) = (ox + ec as f32 * b, oy + er as f32 * b);
        draw::rect(pm, ex, ey, b, b, rgb(60, 190, 90));
        draw::polygon(
            pm,
            &[
                (ex + b * 0.25, ey + b * 0.22),
                (ex + b * 0.8, ey + b * 0.5),
                (ex + b * 0.25, ey + b * 0.78),
            ],
            rgb(240, 255, 240),
        );
        // Walls: a drop shadow on the floor, then a raised brick top.
        let sh = (b * 0.14).max(2.0);
        for r in 0..dim {
            for c in 0..dim {
                if self.maze.wall(c as i32, r as i32) {
                    draw::rect(
                        pm,
                        ox + c as f32 * b + sh,
                        oy + r as f32 * b + sh,
                        b,
                        b,
                        rgba(60, 45, 30, 110),
                    );
                }
            }
        }
        for r in 0..dim {
            for c in 0..dim {
                if !self.maze.wall(c as i32, r as i32) {
                    continue;
                }
                let (x, y) = (ox + c as f32 * b, oy + r as f32 * b);
                draw::rect(pm, x, y, b, b, rgb(122, 58, 42));
                draw::rect(pm, x, y, b - sh * 0.6, b - sh * 0.6, rgb(164, 82, 58));
                draw::rect(pm, x, y, b - sh * 0.6, sh * 0.4, rgb(192, 110, 82));
            }
        }
        // Exit label just outside the border.
        draw::text(
            pm,
            "EXIT",
            ex + b + 6.0,
            ey + b * 0.5 - 11.0,
            20.0,
            rgb(40, 150, 70),
            Align::Left,
        );
    }

    fn draw_ball(&self, pm: &mut Pixmap) {
        let (b, ox, oy) = layout(self.maze.dim);
        // Ball: shadow, body, highlight.
        let (bx, by) = (ox + self.ball.x as f32 * b, oy + self.ball.y as f32 * b);
        let rad = BALL_RADIUS as f32 * b;
        draw::circle(
            pm,
            bx + rad * 0.25,
            by + rad * 0.3,
            rad,
            rgba(30, 20, 10, 110),
        );
        draw::circle(pm, bx, by, rad, rgb(52, 62, 84));
        draw::circle(
            pm,
            bx - rad * 0.1,
            by - rad * 0.1,
            rad * 0.8,
            rgb(86, 100, 132),
        );
        draw::circle(
            pm,
            bx - rad * 0.35,
            by - rad * 0.35,
            rad * 0.3,
            rgb(220, 228, 240),
        );
        draw::ring(pm, bx, by, rad + 2.5, 3.0, rgb(250, 214, 90));
    }

    fn draw_panel(&self, pm: &mut Pixmap) {
        let x = 880.0;
        draw::rounded_rect(pm, x, 90.0, 370.0, 400.0, 14.0, rgb(44, 48, 60));
        let white = rgb(240, 240, 240);
        let soft = rgb(190, 196, 210);
        draw::text(
            pm,
            &format!("Level {}", self.level),
            x + 24.0,
            110.0,
            40.0,
            white,
            Align::Left,
        );
        let n = cells_for_level(self.level);
        draw::text(
            pm,
            &format!("Maze {n} x {n} cells"),
            x + 24.0,
            165.0,
            24.0,
            soft,
            Align::Left,
        );
        draw::text(
            pm,
            "Roll the ball to the",
            x + 24.0,
            330.0,
            22.0,
            white,
            Align::Left,
        );
        draw::text(
            pm,
            "green EXIT (top right).",
            x + 24.0,
            358.0,
            22.0,
            white,
            Align::Left,
        );
        draw::text(
            pm,
            "Hold arrow keys to push;",
            x + 24.0,
            400.0,
            22.0,
            soft,
            Align::Left,
        );
        draw::text(
            pm,
            "the ball keeps rolling.",
            x + 24.0,
            428.0,
            22.0,
            soft,
            Align::Left,
        );
        // Arrow-key legend with held keys lit.
        let (kx, ky, k) = (x + 185.0, 520.0, 50.0);
        let keys = [
            (kx - k / 2.0, ky, self.held.up, "^"),
            (kx - k / 2.0 - k - 6.0, ky + k + 6.0, self.held.left, "<"),
            (kx - k / 2.0, ky + k + 6.0, self.held.down, "v"),
            (kx + k / 2.0 + 6.0, ky + k + 6.0, self.held.right, ">"),
        ];
        for (x0, y0, on, label) in keys {
            let bg = if on {
                rgb(250, 214, 90)
            } else {
                rgb(70, 76, 92)
            };
            let fg = if on {
                rgb(30, 30, 30)
            } else {
                rgb(220, 220, 220)
            };
            draw::rounded_rect(pm, x0, y0, k, k, 8.0, bg);
            draw::text(pm, label, x0 + k / 2.0, y0 + 10.0, 26.0, fg, Align::Center);
        }
    }
}

impl Game for Astray {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).clamp(MIN_LEVEL, MAX_LEVEL);
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.level = self.start_level;
        self.build_level();
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
        let (c, r) = self.ball.block();
        let (ec, er) = self.maze.exit_block();
        let round3 = |v: f64| (v * 1000.0).round() / 1000.0;
        set(&mut s.game_state, "level", self.level);
        set(
            &mut s.game_state,
            "completion_progress",
            self.completion_progress(),
        );
        set(&mut s.game_state, "score", self.completion_progress());
        set(
            &mut s.game_state,
            "player",
            json!({"x": round3(self.ball.x), "y": round3(self.ball.y), "vx": round3(self.ball.vx), "vy": round3(self.ball.vy), "block": [c, r]}),
        );
        set(&mut s.game_state, "exit", json!({"block": [ec, er]}));
        set(&mut s.game_state, "maze_cells", cells_for_level(self.level));
        set(&mut s.game_state, "maze_blocks", self.maze.dim);
        set(&mut s.metrics, "distance_to_goal", self.distance_to_goal());
        set(&mut s.metrics, "start_distance", self.start_distance);
        set(&mut s.metrics, "key_presses", self.key_presses);
        set(&mut s.metrics, "wall_hits", self.wall_hits);
        set(&mut s.metrics, "level_time_ms", self.level_time_ms);
        set(
            &mut s.metrics,
            "speed",
            round3(libm::sqrt(
                self.ball.vx * self.ball.vx + self.ball.vy * self.ball.vy,
            )),
        );
        set(&mut s.raw, "maze", json!(self.maze.rows()));
        set(&mut s.raw, "episode", self.episode);
        set(
            &mut s.raw,
            "held_keys",
            json!({"left": self.held.left, "right": self.held.right, "up": self.held.up, "down": self.held.down}),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let Some((key, down)) = event.key_change() else {
            return;
        };
        let slot = match key {
            "ArrowLeft" => &mut self.held.left,
            "ArrowRight" => &mut self.held.right,
            "ArrowUp" => &mut self.held.up,
            "ArrowDown" => &mut self.held.down,
            _ => return,
        };
        if down && !*slot && !self.terminal.is_terminal {
            self.key_presses += 1;
        }
        *slot = down;
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        self.layer
            .draw(pm, self.maze_serial, |layer| self.draw_static(layer));
        // No distance or progress readout: the maze itself is the puzzle.
        draw::hud(pm, "Astray", &[("Level", self.level.to_string())]);
        self.draw_ball(pm);
        self.draw_panel(pm);
        if self.terminal.is_terminal {
            draw::banner(
                pm,
                "LEVEL COMPLETE",
                &format!("Level {} escaped", self.level),
            );
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
