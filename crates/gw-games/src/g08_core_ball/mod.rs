//! 08_core-ball — the "Core Ball" (AA) timing game. A core spins in the
//! upper half of the screen with a few balls already pinned to it. Pressing
//! Space (or clicking) fires the next numbered ball straight up from the
//! launcher; it flies for a tenth of a second and sticks to the core at the
//! bottom point it reaches. If it lands too close to any ball already on the
//! core the level is failed. Firing every ball of the level's queue clears the
//! level and the next one (more pins, more balls, later faster spin) starts.
//!
//! State: `game_state.score` (balls stuck this episode), `game_state.level`,
//! `game_state.completion_progress` (share of this level's queue stuck),
//! `metrics.queue_remaining` / `queue_total` / `attached_count` /
//! `initial_attached` / `total_required` / `attempts`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "08_core-ball";

const TICK_MS: u64 = 10;
/// Core centre on screen.
pub const CX: f64 = 640.0;
pub const CY: f64 = 270.0;
/// Radius of the core disc.
const CORE_R: f64 = 50.0;
/// Distance from the core centre to the centre of a stuck ball.
pub const PIN_R: f64 = 180.0;
/// Radius of every ball.
pub const BALL_R: f64 = 11.0;
/// Two balls touch when their centres are this close (as in the original: 2r + 2).
pub const TOUCH_DIST: f64 = 2.0 * BALL_R + 2.0;
/// Where a fired ball starts, and how fast it flies (px/s).
pub const LAUNCH_Y: f64 = 580.0;
pub const FLIGHT_SPEED: f64 = 1300.0;
/// World angle (degrees, screen coordinates with y down) where balls stick:
/// 90° is straight below the core centre.
pub const ATTACH_WORLD_DEG: f64 = 90.0;
/// How long the "level cleared" pause lasts before the next level.
const CLEAR_PAUSE_MS: u64 = 1000;

/// One level: evenly spaced pins, queue length and spin (degrees per second,
/// signed: positive turns clockwise on screen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    pub pins: u32,
    pub queue: u32,
    pub spin: f64,
}

const SLOW: f64 = 85.0;
const FAST: f64 = 140.0;

/// The first twenty levels (pin count, queue, spin) follow the original's
/// progression; later levels reuse the last ten with a faster spin.
const LEVELS: [(u32, u32, f64); 20] = [
    (4, 8, SLOW),
    (6, 10, SLOW),
    (2, 20, SLOW),
    (8, 12, -SLOW),
    (12, 8, SLOW),
    (10, 10, -SLOW),
    (12, 13, SLOW),
    (16, 3, -SLOW),
    (0, 26, -SLOW),
    (16, 8, SLOW),
    (10, 8, FAST),
    (6, 12, -FAST),
    (12, 4, FAST),
    (8, 14, -FAST),
    (8, 6, FAST),
    (5, 10, -FAST),
    (6, 12, FAST),
    (8, 14, -FAST),
    (0, 23, FAST),
    (10, 13, -FAST),
];

pub fn level_spec(level: u32) -> LevelSpec {
    let level = level.max(1);
    let (idx, extra) = if level as usize <= LEVELS.len() {
        (level as usize - 1, 0)
    } else {
        let over = level as usize - LEVELS.len() - 1;
        (10 + over % 10, 1 + over / 10)
    };
    let (pins, queue, spin) = LEVELS[idx];
    LevelSpec {
        pins,
        queue,
        spin: spin * (1.0 + 0.15 * extra as f64),
    }
}

/// Normalise degrees into [0, 360).
pub fn norm_deg(a: f64) -> f64 {
    let r = a % 360.0;
    if r < 0.0 { r + 360.0 } else { r }
}

/// Smallest angle between two directions, in degrees.
pub fn ang_dist(a: f64, b: f64) -> f64 {
    let d = norm_deg(a - b);
    if d > 180.0 { 360.0 - d } else { d }
}

/// Two stuck balls collide when the chord between them is at most
/// `TOUCH_DIST`; this is that limit as an angle between them.
pub fn touch_angle_deg() -> f64 {
    2.0 * libm::asin(TOUCH_DIST / 2.0 / PIN_R).to_degrees()
}

/// Ticks a fired ball needs to reach the core.
pub fn flight_ticks() -> u64 {
    let dist = LAUNCH_Y - (CY + PIN_R);
    let per_tick = FLIGHT_SPEED * TICK_MS as f64 / 1000.0;
    libm::ceil(dist / per_tick) as u64
}

/// A ball stuck to the core: its angle in the core's own frame and the
/// number it carries (0 for the level's initial pins).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stuck {
    pub angle: f64,
    pub number: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Aiming,
    Cleared,
    Failed,
}

pub struct CoreBall {
    seed: u64,
    start_level: u32,
    rng: Rng,
    clock: FixedStep,
    game_time_ms: u64,
    level: u32,
    spec: LevelSpec,
    /// Core rotation in degrees (world angle of the core frame's 0°).
    rotation: f64,
    stuck: Vec<Stuck>,
    /// Balls still waiting in the queue (not counting one in flight).
    queue_remaining: u32,
    /// Height of the ball in flight, if any, and its number.
    flight: Option<(f64, u32)>,
    phase: Phase,
    phase_ms: u64,
    score: u32,
    attempts: u32,
    levels_cleared: u32,
    attached_this_level: u32,
    /// Core-frame angle of the ball that caused a failure.
    failed_at: Option<f64>,
    terminal: Terminal,
}

impl Default for CoreBall {
    fn default() -> Self {
        Self::new()
    }
}

impl CoreBall {
    pub fn new() -> Self {
        CoreBall {
            seed: 0,
            start_level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            level: 1,
            spec: level_spec(1),
            rotation: 0.0,
            stuck: Vec::new(),
            queue_remaining: 0,
            flight: None,
            phase: Phase::Aiming,
            phase_ms: 0,
            score: 0,
            attempts: 0,
            levels_cleared: 0,
            attached_this_level: 0,
            failed_at: None,
            terminal: Terminal::running(),
        }
    }

    fn load_level(&mut self, level: u32) {
        self.level = level.max(1);
        self.spec = level_spec(self.level);
        self.rotation = self.rng.range_f64(0.0, 360.0);
        let n = self.spec.pins;
        self.stuck = (0..n)
            .map(|i| Stuck {
                angle: 360.0 * i as f64 / n as f64,
                number: 0,
            })
            .collect();
        self.queue_remaining = self.spec.queue;
        self.flight = None;
        self.phase = Phase::Aiming;
        self.phase_ms = 0;
        self.attached_this_level = 0;
    }

    pub fn level(&self) -> u32 {
        self.level
    }
    pub fn spec(&self) -> LevelSpec {
        self.spec
    }
    pub fn rotation(&self) -> f64 {
        self.rotation
    }
    pub fn stuck(&self) -> &[Stuck] {
        &self.stuck
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn in_flight(&self) -> bool {
        self.flight.is_some()
    }

    /// Core-frame angle at which a ball would stick if the core were at
    /// `rotation`.
    pub fn attach_angle(rotation: f64) -> f64 {
        norm_deg(ATTACH_WORLD_DEG - rotation)
    }

    fn shoot(&mut self) {
        if self.terminal.is_terminal
            || self.phase != Phase::Aiming
            || self.flight.is_some()
            || self.queue_remaining == 0
        {
            return;
        }
        let number = self.queue_remaining;
        self.queue_remaining -= 1;
        self.attempts += 1;
        self.flight = Some((LAUNCH_Y, number));
    }

    fn tick(&mut self) {
        let dt = TICK_MS as f64 / 1000.0;
        self.phase_ms += TICK_MS;
        match self.phase {
            Phase::Cleared => {
                if self.phase_ms >= CLEAR_PAUSE_MS {
                    self.levels_cleared += 1;
                    let next = self.level + 1;
                    self.load_level(next);
                }
                return;
            }
            Phase::Failed => return,
            Phase::Aiming => {}
        }
        self.rotation = norm_deg(self.rotation + self.spec.spin * dt);
        if let Some((y, number)) = self.flight {
            let ny = y - FLIGHT_SPEED * dt;
            if ny <= CY + PIN_R {
                self.flight = None;
                self.stick(number);
            } else {
                self.flight = Some((ny, number));
            }
        }
    }

    fn stick(&mut self, number: u32) {
        let angle = Self::attach_angle(self.rotation);
        let limit = touch_angle_deg();
        let hit = self.stuck.iter().any(|s| ang_dist(s.angle, angle) <= limit);
        self.stuck.push(Stuck { angle, number });
        if hit {
            self.failed_at = Some(angle);
            self.phase = Phase::Failed;
            self.phase_ms = 0;
            self.terminal = Terminal::ended(Outcome::Fail, "the ball hit another ball on the core");
            return;
        }
        self.score += 1;
        self.attached_this_level += 1;
        if self.queue_remaining == 0 {
            self.phase = Phase::Cleared;
            self.phase_ms = 0;
        }
    }

    fn world_pos(&self, core_angle: f64) -> (f32, f32) {
        let a = (core_angle + self.rotation).to_radians();
        (
            (CX + PIN_R * libm::cos(a)) as f32,
            (CY + PIN_R * libm::sin(a)) as f32,
        )
    }
}

impl Game for CoreBall {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).max(1);
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x0C0E_BA11_0000 + episode as u64);
        self.clock.clear();
        self.score = 0;
        self.attempts = 0;
        self.levels_cleared = 0;
        self.failed_at = None;
        self.terminal = Terminal::running();
        self.load_level(self.start_level);
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
        let queue_total = self.spec.queue;
        let progress = if queue_total == 0 {
            1.0
        } else {
            self.attached_this_level as f64 / queue_total as f64
        };
        let phase = match self.phase {
            Phase::Aiming => "aiming",
            Phase::Cleared => "level_cleared",
            Phase::Failed => "failed",
        };
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", self.level);
        set(&mut s.game_state, "completion_progress", progress);
        set(&mut s.game_state, "phase", phase);
        set(&mut s.game_state, "core_angle_deg", self.rotation);
        set(&mut s.game_state, "spin_deg_per_s", self.spec.spin);
        set(
            &mut s.game_state,
            "ball_in_flight",
            json!(self.flight.map(|(y, n)| json!({"y": y, "number": n}))),
        );
        let balls: Vec<Value> = self
            .stuck
            .iter()
            .map(|b| json!({"angle_deg": b.angle, "number": b.number}))
            .collect();
        set(&mut s.game_state, "core_balls", Value::Array(balls));
        set(&mut s.game_state, "player", Value::Null);
        set(
            &mut s.metrics,
            "queue_remaining",
            self.queue_remaining + self.flight.is_some() as u32,
        );
        set(&mut s.metrics, "queue_total", queue_total);
        set(
            &mut s.metrics,
            "attached_count",
            self.stuck.len() as u32 - self.failed_at.is_some() as u32,
        );
        set(&mut s.metrics, "initial_attached", self.spec.pins);
        set(
            &mut s.metrics,
            "total_required",
            self.spec.pins + queue_total,
        );
        set(&mut s.metrics, "attempts", self.attempts);
        set(&mut s.metrics, "levels_cleared", self.levels_cleared);
        set(&mut s.raw, "attach_world_deg", ATTACH_WORLD_DEG);
        set(&mut s.raw, "touch_angle_deg", touch_angle_deg());
        set(&mut s.raw, "flight_ms", flight_ticks() * TICK_MS);
        set(&mut s.raw, "failed_at_deg", json!(self.failed_at));
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "Space" => self.shoot(),
            InputEvent::MouseDown {
                button: MouseButton::Left,
                ..
            } => self.shoot(),
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
        let bg = match self.phase {
            Phase::Aiming => rgb(236, 238, 242),
            Phase::Cleared => rgb(120, 200, 120),
            Phase::Failed => rgb(214, 96, 96),
        };
        draw::clear(pm, bg);
        let left = self.queue_remaining + self.flight.is_some() as u32;
        draw::hud(
            pm,
            "Core Ball",
            &[
                ("Score", self.score.to_string()),
                ("Level", self.level.to_string()),
                ("Balls left", left.to_string()),
            ],
        );
        let ink = rgb(25, 25, 30);
        let (cx, cy) = (CX as f32, CY as f32);
        // Where the next ball will stick: a faint mark below the core.
        let mark_y = (CY + PIN_R) as f32;
        draw::line(
            pm,
            cx,
            mark_y + 16.0,
            cx,
            (LAUNCH_Y - BALL_R) as f32 - 4.0,
            2.0,
            rgb(190, 192, 200),
        );
        for b in &self.stuck {
            let (x, y) = self.world_pos(b.angle);
            // Thin pins without anti-aliasing: long anti-aliased diagonals
            // cost ~0.1 ms each, and a crowded core has twenty or more.
            draw::line_aliased(pm, (cx, cy), (x, y), 2.0, rgb(25, 25, 30));
        }
        for b in &self.stuck {
            let (x, y) = self.world_pos(b.angle);
            let failed = self.failed_at == Some(b.angle) && self.phase == Phase::Failed;
            draw::circle(
                pm,
                x,
                y,
                if failed {
                    BALL_R as f32 + 4.0
                } else {
                    BALL_R as f32
                },
                if failed { rgb(200, 20, 30) } else { ink },
            );
            if b.number > 0 {
                draw::text(
                    pm,
                    &b.number.to_string(),
                    x,
                    y - 7.0,
                    12.0,
                    rgb(255, 255, 255),
                    Align::Center,
                );
            }
        }
        draw::circle(pm, cx, cy, CORE_R as f32, ink);
        draw::text(
            pm,
            &self.level.to_string(),
            cx,
            cy - 22.0,
            36.0,
            rgb(255, 255, 255),
            Align::Center,
        );
        if let Some((y, n)) = self.flight {
            draw::circle(pm, cx, y as f32, BALL_R as f32, ink);
            draw::text(
                pm,
                &n.to_string(),
                cx,
                y as f32 - 7.0,
                12.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        }
        // The queue: the next ball sits on the launcher, the rest below it.
        for i in 0..self.queue_remaining.min(4) {
            let n = self.queue_remaining - i;
            let y = LAUNCH_Y as f32 + i as f32 * 34.0;
            draw::circle(pm, cx, y, BALL_R as f32 + 3.0, ink);
            draw::text(
                pm,
                &n.to_string(),
                cx,
                y - 8.0,
                14.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        }
        if self.queue_remaining > 4 {
            draw::text(
                pm,
                &format!("+{} more", self.queue_remaining - 4),
                cx + 30.0,
                684.0,
                18.0,
                rgb(90, 90, 100),
                Align::Left,
            );
        }
        draw::text(
            pm,
            "Space: shoot the next ball up into the spinning core",
            30.0,
            680.0,
            20.0,
            rgb(90, 90, 100),
            Align::Left,
        );
        let dir = if self.spec.spin >= 0.0 {
            "clockwise"
        } else {
            "counter-clockwise"
        };
        draw::text(
            pm,
            &format!("Spin: {dir}"),
            1250.0,
            680.0,
            20.0,
            rgb(90, 90, 100),
            Align::Right,
        );
        match self.phase {
            Phase::Cleared => draw::banner(
                pm,
                "LEVEL CLEARED",
                &format!("Next: level {}", self.level + 1),
            ),
            Phase::Failed => draw::banner(
                pm,
                "GAME OVER",
                &format!("Balls touched - score {}", self.score),
            ),
            Phase::Aiming => {}
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
