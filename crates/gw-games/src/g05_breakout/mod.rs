//! 05_breakout — classic Breakout. A paddle slides along the bottom of a
//! walled field while ArrowLeft / ArrowRight is held; a ball bounces off the
//! side walls, the ceiling, the paddle (the further from the paddle's centre
//! it lands, the flatter it leaves) and the coloured bricks, breaking each
//! brick it touches. Higher rows are worth more points. The ball speeds up
//! after 4 and 12 hits. Letting the ball fall past the paddle costs a life;
//! losing the last one ends the episode, breaking every brick wins it.
//!
//! State: `game_state.score` (brick points), `game_state.completion_progress`
//! (share of bricks broken), `game_state.level`, `metrics.lives`,
//! `metrics.bricks_remaining`, `metrics.bricks_total`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "05_breakout";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;
/// The walled field: left/right walls and the ceiling.
pub const FX0: f64 = 300.0;
pub const FX1: f64 = 980.0;
pub const FY0: f64 = 66.0;
/// Bottom of the screen: a ball below this is lost.
const FLOOR: f64 = 720.0;
/// Top edge of the paddle, its size and speed (px/s while a key is held).
pub const PADDLE_Y: f64 = 650.0;
const PADDLE_H: f64 = 14.0;
pub const PADDLE_W: f64 = 150.0;
pub const PADDLE_SPEED: f64 = 600.0;
pub const BALL_R: f64 = 8.0;
/// Largest angle from vertical the paddle sends the ball off at.
pub const MAX_BOUNCE_DEG: f64 = 60.0;
/// Brick grid: columns across the field, row height, top of the first row.
const COLS: usize = 8;
pub const BRICK_W: f64 = (FX1 - FX0) / COLS as f64;
pub const BRICK_H: f64 = 26.0;
pub const BRICK_TOP: f64 = 122.0;
const START_LIVES: u32 = 3;
/// Pause with the ball resting on the paddle before each serve.
const SERVE_MS: u64 = 600;

/// Row colours (top to bottom) and their points, as in the arcade original.
const ROW_STYLE: [((u8, u8, u8), u32); 8] = [
    ((214, 52, 52), 7),
    ((214, 52, 52), 7),
    ((232, 132, 40), 5),
    ((232, 132, 40), 5),
    ((58, 170, 80), 3),
    ((58, 170, 80), 3),
    ((226, 200, 50), 1),
    ((226, 200, 50), 1),
];

/// Brick layouts (rows top to bottom, `#` = brick) and the base ball speed.
const LEVELS: [(&[&str], f64); 5] = [
    (
        &[
            "........", "........", "........", "........", "########", "########",
        ],
        840.0,
    ),
    (
        &[
            "........", "........", "........", "..####..", "########", "########",
        ],
        860.0,
    ),
    (
        &[
            "........", "........", "##.##.##", "........", "########", "########",
        ],
        900.0,
    ),
    (
        &[
            "........", "........", "#.#.#.#.", ".#.#.#.#", "########", "########",
        ],
        940.0,
    ),
    (
        &["........", "...##...", ".######.", "########", "########"],
        1050.0,
    ),
];

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brick {
    pub x: f64,
    pub y: f64,
    pub row: usize,
    pub col: usize,
    pub alive: bool,
}

impl Brick {
    pub fn points(&self) -> u32 {
        ROW_STYLE[self.row.min(7)].1
    }

    fn overlaps(&self, cx: f64, cy: f64, r: f64) -> bool {
        let nx = cx.clamp(self.x, self.x + BRICK_W);
        let ny = cy.clamp(self.y, self.y + BRICK_H);
        let (dx, dy) = (cx - nx, cy - ny);
        dx * dx + dy * dy < r * r
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

/// What happened during one physics tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickEvents {
    pub broken: Vec<usize>,
    pub paddle_hit: bool,
    /// The ball crossed the paddle's top line moving down this tick, at this x.
    pub crossed_paddle_line: Option<f64>,
    pub lost: bool,
}

/// The deterministic ball-and-bricks world. It holds no random state, so the
/// expert may copy it to predict the ball's path.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub ball: Ball,
    pub bricks: Vec<Brick>,
    pub base_speed: f64,
    pub hits: u32,
}

impl Field {
    pub fn new(level: u32) -> Field {
        let (idx, cycle) = level_index(level);
        let (rows, speed) = LEVELS[idx];
        let mut bricks = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    bricks.push(Brick {
                        x: FX0 + c as f64 * BRICK_W,
                        y: BRICK_TOP + r as f64 * BRICK_H,
                        row: r,
                        col: c,
                        alive: true,
                    });
                }
            }
        }
        Field {
            ball: Ball {
                x: (FX0 + FX1) / 2.0,
                y: PADDLE_Y - BALL_R,
                vx: 0.0,
                vy: 0.0,
            },
            bricks,
            base_speed: speed * (1.0 + 0.1 * cycle as f64),
            hits: 0,
        }
    }

    /// Current ball speed: the base speed, raised after 4 and 12 hits.
    pub fn speed(&self) -> f64 {
        let mult = if self.hits >= 12 {
            1.2
        } else if self.hits >= 4 {
            1.1
        } else {
            1.0
        };
        self.base_speed * mult
    }

    pub fn alive_count(&self) -> usize {
        self.bricks.iter().filter(|b| b.alive).count()
    }

    /// Send the ball off at `deg` from vertical (positive = to the right).
    pub fn launch(&mut self, deg: f64) {
        let a = deg.to_radians();
        let s = self.speed();
        self.ball.vx = s * libm::sin(a);
        self.ball.vy = -s * libm::cos(a);
    }

    fn hit_brick(&mut self, ev: &mut TickEvents) -> bool {
        let b = self.ball;
        if let Some(i) = self
            .bricks
            .iter()
            .position(|k| k.alive && k.overlaps(b.x, b.y, BALL_R))
        {
            self.bricks[i].alive = false;
            self.hits += 1;
            ev.broken.push(i);
            return true;
        }
        false
    }

    fn rescale(&mut self) {
        let s = self.speed();
        let cur = libm::hypot(self.ball.vx, self.ball.vy);
        if cur > 0.0 {
            self.ball.vx *= s / cur;
            self.ball.vy *= s / cur;
        }
    }

    /// One tick of ball physics. `paddle_x` is the paddle's centre, or `None`
    /// to let the ball pass through the paddle line (for predictions).
    pub fn tick(&mut self, paddle_x: Option<f64>) -> TickEvents {
        let mut ev = TickEvents::default();
        let travel = libm::hypot(self.ball.vx, self.ball.vy) * DT;
        let n = libm::ceil(travel / 3.0).max(1.0) as usize;
        let h = DT / n as f64;
        for _ in 0..n {
            let hits_before = self.hits;
            // Horizontal move: side walls, then bricks.
            self.ball.x += self.ball.vx * h;
            if self.ball.x - BALL_R < FX0 {
                self.ball.x = 2.0 * (FX0 + BALL_R) - self.ball.x;
                self.ball.vx = self.ball.vx.abs();
            } else if self.ball.x + BALL_R > FX1 {
                self.ball.x = 2.0 * (FX1 - BALL_R) - self.ball.x;
                self.ball.vx = -self.ball.vx.abs();
            }
            if self.hit_brick(&mut ev) {
                self.ball.x -= self.ball.vx * h;
                self.ball.vx = -self.ball.vx;
            }
            // Vertical move: ceiling, bricks, paddle.
            let prev_bottom = self.ball.y + BALL_R;
            self.ball.y += self.ball.vy * h;
            if self.ball.y - BALL_R < FY0 {
                self.ball.y = 2.0 * (FY0 + BALL_R) - self.ball.y;
                self.ball.vy = self.ball.vy.abs();
            }
            if self.hit_brick(&mut ev) {
                self.ball.y -= self.ball.vy * h;
                self.ball.vy = -self.ball.vy;
            }
            if self.hits != hits_before {
                self.rescale();
            }
            let bottom = self.ball.y + BALL_R;
            if self.ball.vy > 0.0 && prev_bottom < PADDLE_Y && bottom >= PADDLE_Y {
                ev.crossed_paddle_line = Some(self.ball.x);
                if let Some(px) = paddle_x {
                    let half = PADDLE_W / 2.0;
                    if (self.ball.x - px).abs() <= half + BALL_R * 0.5 {
                        let offset = ((self.ball.x - px) / half).clamp(-1.0, 1.0);
                        self.ball.y = PADDLE_Y - BALL_R;
                        self.launch(offset * MAX_BOUNCE_DEG);
                        ev.paddle_hit = true;
                    }
                }
            }
            if self.ball.y - BALL_R > FLOOR {
                ev.lost = true;
                break;
            }
        }
        ev
    }
}

/// Layout index and how many times the five layouts have cycled.
fn level_index(level: u32) -> (usize, u32) {
    let l = level.max(1) - 1;
    ((l % LEVELS.len() as u32) as usize, l / LEVELS.len() as u32)
}

pub struct Breakout {
    seed: u64,
    start_level: u32,
    rng: Rng,
    clock: FixedStep,
    game_time_ms: u64,
    level: u32,
    field: Field,
    bricks_total: u32,
    paddle_x: f64,
    held_left: bool,
    held_right: bool,
    /// Milliseconds left before the resting ball is served, if it rests.
    serve_in: Option<u64>,
    lives: u32,
    score: u32,
    balls_lost: u32,
    paddle_hits: u32,
    /// Ball centres of the last [`TRAIL_TICKS`] ticks, newest last: drawn as
    /// a fading trail so a single frame shows where the ball is heading.
    trail: std::collections::VecDeque<(f64, f64)>,
    terminal: Terminal,
}

/// Ticks of ball history kept for the motion trail (150 ms).
const TRAIL_TICKS: usize = 15;

impl Default for Breakout {
    fn default() -> Self {
        Self::new()
    }
}

impl Breakout {
    pub fn new() -> Self {
        Breakout {
            seed: 0,
            start_level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            level: 1,
            field: Field::new(1),
            bricks_total: 0,
            paddle_x: (FX0 + FX1) / 2.0,
            held_left: false,
            held_right: false,
            serve_in: Some(SERVE_MS),
            lives: START_LIVES,
            score: 0,
            balls_lost: 0,
            paddle_hits: 0,
            trail: std::collections::VecDeque::new(),
            terminal: Terminal::running(),
        }
    }

    pub fn field(&self) -> &Field {
        &self.field
    }
    pub fn paddle_x(&self) -> f64 {
        self.paddle_x
    }
    pub fn serving(&self) -> bool {
        self.serve_in.is_some()
    }
    pub fn lives(&self) -> u32 {
        self.lives
    }
    pub fn is_terminal(&self) -> bool {
        self.terminal.is_terminal
    }

    /// A paddle centre `x` kept inside the walls.
    pub fn clamp_paddle(x: f64) -> f64 {
        x.clamp(FX0 + PADDLE_W / 2.0, FX1 - PADDLE_W / 2.0)
    }

    fn rest_ball(&mut self) {
        self.field.ball = Ball {
            x: self.paddle_x,
            y: PADDLE_Y - BALL_R,
            vx: 0.0,
            vy: 0.0,
        };
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        let dir = self.held_right as i32 - self.held_left as i32;
        self.paddle_x = Self::clamp_paddle(self.paddle_x + dir as f64 * PADDLE_SPEED * DT);
        if let Some(left) = self.serve_in {
            self.rest_ball();
            self.trail.clear();
            if left > TICK_MS {
                self.serve_in = Some(left - TICK_MS);
            } else {
                self.serve_in = None;
                let deg = self.rng.range_f64(15.0, 40.0);
                let deg = if self.rng.chance(0.5) { -deg } else { deg };
                self.field.launch(deg);
            }
            return;
        }
        let ev = self.field.tick(Some(self.paddle_x));
        if self.trail.len() == TRAIL_TICKS {
            self.trail.pop_front();
        }
        self.trail.push_back((self.field.ball.x, self.field.ball.y));
        for &i in &ev.broken {
            self.score += self.field.bricks[i].points();
        }
        if ev.paddle_hit {
            self.paddle_hits += 1;
        }
        if self.field.alive_count() == 0 {
            self.terminal = Terminal::ended(Outcome::Success, "every brick is broken");
        } else if ev.lost {
            self.balls_lost += 1;
            self.lives -= 1;
            if self.lives == 0 {
                self.terminal =
                    Terminal::ended(Outcome::Fail, "the last ball fell past the paddle");
            } else {
                self.serve_in = Some(SERVE_MS);
                self.rest_ball();
            }
        }
    }
}

impl Game for Breakout {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).max(1);
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x0B4E_A000 + episode as u64);
        self.clock.clear();
        self.level = self.start_level;
        self.field = Field::new(self.level);
        self.bricks_total = self.field.bricks.len() as u32;
        self.paddle_x = (FX0 + FX1) / 2.0;
        self.held_left = false;
        self.held_right = false;
        self.serve_in = Some(SERVE_MS);
        self.lives = START_LIVES;
        self.score = 0;
        self.balls_lost = 0;
        self.paddle_hits = 0;
        self.terminal = Terminal::running();
        self.rest_ball();
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
        let remaining = self.field.alive_count() as u32;
        let broken = self.bricks_total - remaining;
        let progress = if self.bricks_total == 0 {
            1.0
        } else {
            broken as f64 / self.bricks_total as f64
        };
        let b = self.field.ball;
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "completion_progress", progress);
        set(&mut s.game_state, "level", self.level);
        set(&mut s.game_state, "lives", self.lives);
        set(
            &mut s.game_state,
            "player",
            json!({"x": self.paddle_x, "y": PADDLE_Y, "width": PADDLE_W}),
        );
        set(
            &mut s.game_state,
            "ball",
            json!({"x": b.x, "y": b.y, "vx": b.vx, "vy": b.vy, "resting": self.serve_in.is_some()}),
        );
        let bricks: Vec<Value> = self
            .field
            .bricks
            .iter()
            .filter(|k| k.alive)
            .map(|k| json!({"row": k.row, "col": k.col, "points": k.points()}))
            .collect();
        set(&mut s.game_state, "bricks", Value::Array(bricks));
        set(&mut s.metrics, "lives", self.lives);
        set(&mut s.metrics, "bricks_remaining", remaining);
        set(&mut s.metrics, "bricks_total", self.bricks_total);
        set(&mut s.metrics, "bricks_broken", broken);
        set(&mut s.metrics, "balls_lost", self.balls_lost);
        set(&mut s.metrics, "paddle_hits", self.paddle_hits);
        set(&mut s.raw, "ball_speed", self.field.speed());
        set(
            &mut s.raw,
            "field",
            json!({"left": FX0, "right": FX1, "top": FY0, "paddle_y": PADDLE_Y}),
        );
        s
    }

    fn eval_view(&self, paths: &[String]) -> Value {
        gw_core::state::view_from(
            paths,
            &self.terminal,
            |p| match p {
                "game_state.score" => Some(self.score.into()),
                "game_state.completion_progress" => {
                    let remaining = self.field.alive_count() as u32;
                    let broken = self.bricks_total - remaining;
                    Some(if self.bricks_total == 0 {
                        1.0.into()
                    } else {
                        (broken as f64 / self.bricks_total as f64).into()
                    })
                }
                _ => None,
            },
            || self.state(),
        )
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => match key.as_str() {
                "ArrowLeft" => self.held_left = true,
                "ArrowRight" => self.held_right = true,
                _ => {}
            },
            InputEvent::KeyUp { key } => match key.as_str() {
                "ArrowLeft" => self.held_left = false,
                "ArrowRight" => self.held_right = false,
                _ => {}
            },
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
        draw::clear(pm, rgb(14, 16, 28));
        draw::hud(
            pm,
            "Breakout",
            &[
                ("Score", self.score.to_string()),
                ("Lives", self.lives.to_string()),
                ("Level", self.level.to_string()),
            ],
        );
        let wall = rgb(150, 154, 170);
        let (x0, x1, y0) = (FX0 as f32, FX1 as f32, FY0 as f32);
        draw::rect(pm, x0 - 10.0, y0 - 10.0, x1 - x0 + 20.0, 10.0, wall);
        draw::rect(pm, x0 - 10.0, y0, 10.0, 720.0 - y0, wall);
        draw::rect(pm, x1, y0, 10.0, 720.0 - y0, wall);
        for k in self.field.bricks.iter().filter(|k| k.alive) {
            let ((r, g, b), _) = ROW_STYLE[k.row.min(7)];
            draw::rect(
                pm,
                k.x as f32 + 2.0,
                k.y as f32 + 2.0,
                BRICK_W as f32 - 4.0,
                BRICK_H as f32 - 4.0,
                rgb(r, g, b),
            );
        }
        let px = (self.paddle_x - PADDLE_W / 2.0) as f32;
        draw::rounded_rect(
            pm,
            px,
            PADDLE_Y as f32,
            PADDLE_W as f32,
            PADDLE_H as f32,
            6.0,
            rgb(90, 190, 250),
        );
        // Motion trail: every third recent position, older ones smaller and
        // fainter (none while the ball rests on the paddle).
        if self.serve_in.is_none() {
            let n = self.trail.len();
            for (k, &(x, y)) in self.trail.iter().enumerate().rev().step_by(3).skip(1) {
                let age = (n - 1 - k) as f32 / TRAIL_TICKS as f32;
                let r = BALL_R as f32 * (1.0 - 0.55 * age);
                let a = (170.0 * (1.0 - age)) as u8;
                draw::circle(pm, x as f32, y as f32, r, rgba(250, 200, 90, a));
            }
        }
        let b = self.field.ball;
        draw::circle(
            pm,
            b.x as f32,
            b.y as f32,
            BALL_R as f32,
            rgb(250, 250, 250),
        );
        // Side panels.
        let info = rgb(200, 204, 220);
        let remaining = self.field.alive_count();
        draw::text(
            pm,
            &format!("Bricks left: {remaining}"),
            30.0,
            90.0,
            22.0,
            info,
            Align::Left,
        );
        draw::text(
            pm,
            &format!("Balls: {}", self.lives),
            30.0,
            124.0,
            22.0,
            info,
            Align::Left,
        );
        for (i, ((r, g, bl), pts)) in [ROW_STYLE[0], ROW_STYLE[2], ROW_STYLE[4], ROW_STYLE[6]]
            .iter()
            .enumerate()
        {
            let y = 180.0 + i as f32 * 34.0;
            draw::rect(pm, 30.0, y, 40.0, 20.0, rgb(*r, *g, *bl));
            draw::text(
                pm,
                &format!("{pts} pts"),
                80.0,
                y - 2.0,
                20.0,
                info,
                Align::Left,
            );
        }
        draw::text(pm, "Hold Left/Right", 1010.0, 90.0, 22.0, info, Align::Left);
        draw::text(
            pm,
            "to move the paddle",
            1010.0,
            120.0,
            22.0,
            info,
            Align::Left,
        );
        if self.serve_in.is_some() && !self.terminal.is_terminal {
            draw::text(
                pm,
                "Get ready...",
                640.0,
                560.0,
                26.0,
                rgb(250, 214, 90),
                Align::Center,
            );
        }
        draw::end_banner(
            pm,
            &self.terminal,
            "LEVEL CLEARED",
            &format!("Score {}", self.score),
        );
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
