//! 25_rocket-league-2d — side-view car soccer. The blue player car (left
//! half, attacking the right goal) plays a scripted orange car (attacking the
//! left goal) with a bouncy ball under gravity. `a`/`d` drive, `w` jumps,
//! Space boosts in the facing direction while the boost meter lasts (it
//! refills slowly). A goal is scored when the whole ball crosses a goal line
//! under the crossbar; play then pauses briefly and restarts from a kickoff.
//! The match clock runs two minutes; when it expires the match ends (won if
//! the player leads).
//!
//! State: `metrics.primary_score` / `game_state.score` (player goals),
//! `metrics.goals_against`, `metrics.distance_to_goal` (ball to the goal the
//! player attacks), `metrics.player_boost`, `metrics.player_gas` (throttle).

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "25_rocket-league-2d";

const TICK_MS: u64 = 10;
const DT: f64 = 0.01;

// Arena geometry (pixels; y grows downwards).
pub const GROUND: f64 = 660.0;
pub const CEILING: f64 = 92.0;
pub const LEFT: f64 = 80.0;
pub const RIGHT: f64 = 1200.0;
pub const MID: f64 = (LEFT + RIGHT) / 2.0;
pub const GOAL_TOP: f64 = GROUND - 230.0;
pub const GOAL_DEPTH: f64 = 64.0;

// Ball.
pub const BALL_R: f64 = 26.0;
const BALL_G: f64 = 1300.0;
const BALL_BOUNCE: f64 = 0.55;
const WALL_BOUNCE: f64 = 0.8;
/// The walls above the goals are padded: a ball slammed into one drops
/// rather than rebounding the length of the pitch.
const SIDE_WALL_BOUNCE: f64 = 0.45;
/// Share of the ball's sideways speed relative to a car that a roof contact
/// takes away each tick: a ball on a roof rides along with the car.
const ROOF_GRIP: f64 = 0.2;
const BALL_ROLL_DECEL: f64 = 90.0;
/// Proportional drag on the ball's horizontal speed (per second) on the
/// ground and in the air: a loose ball slows down instead of rolling the
/// length of the pitch.
const BALL_GROUND_DRAG: f64 = 0.6;
const BALL_AIR_DRAG: f64 = 0.3;
/// Share of horizontal speed lost when the ball bounces on the ground.
const BOUNCE_FRICTION: f64 = 0.12;
const BALL_MAX_SPEED: f64 = 1500.0;

// Cars.
pub const CAR_W: f64 = 96.0;
pub const CAR_H: f64 = 42.0;
const CAR_G: f64 = 1700.0;
const DRIVE_ACC: f64 = 2200.0;
const BRAKE_ACC: f64 = 3600.0;
const COAST_DECEL: f64 = 520.0;
pub const DRIVE_MAX: f64 = 560.0;
const BOOST_ACC: f64 = 2600.0;
pub const BOOST_MAX_SPEED: f64 = 920.0;
const BOOST_DRAIN: f64 = 45.0;
const BOOST_REGEN: f64 = 9.0;
const JUMP_V: f64 = 740.0;
const AIR_CONTROL: f64 = 0.45;
/// Extra push a car gives the ball, in full once the car moves into it at
/// `KICK_FULL_SPEED` or more; a parked car is a wall, not a kicker.
const HIT_KICK: f64 = 170.0;
const KICK_FULL_SPEED: f64 = 300.0;
const HIT_LIFT: f64 = 160.0;

// Opponent.
pub const OPP_MAX: f64 = 340.0;
const OPP_ACC: f64 = 1500.0;

const MATCH_MS: u64 = 120_000;
const GOAL_PAUSE_MS: u64 = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Car {
    /// Centre of the body.
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
    pub facing: f64,
    pub on_ground: bool,
    pub boost: f64,
    pub boosting: bool,
}

impl Car {
    fn new(x: f64, facing: f64) -> Self {
        Car {
            x,
            y: GROUND - CAR_H / 2.0,
            vx: 0.0,
            vy: 0.0,
            facing,
            on_ground: true,
            boost: 100.0,
            boosting: false,
        }
    }
    pub fn top(&self) -> f64 {
        self.y - CAR_H / 2.0
    }
    fn jump(&mut self) {
        if self.on_ground {
            self.vy = -JUMP_V;
            self.on_ground = false;
        }
    }
    /// One tick of car physics with throttle `t` (−1, 0, 1), boost and a speed cap.
    fn tick(&mut self, t: f64, boost: bool, acc: f64, max: f64) {
        let mult = if self.on_ground { 1.0 } else { AIR_CONTROL };
        if t != 0.0 {
            self.facing = t;
            let a = if self.vx * t < 0.0 { BRAKE_ACC } else { acc };
            let v = self.vx + t * a * mult * DT;
            // Driving alone cannot exceed the cap; boosted speed bleeds off.
            self.vx = if v.abs() > max && v * t > 0.0 {
                v.signum() * (self.vx.abs() - COAST_DECEL * DT).max(max)
            } else {
                v
            };
        } else if self.on_ground {
            let s = (self.vx.abs() - COAST_DECEL * DT).max(0.0);
            self.vx = self.vx.signum() * s;
        }
        self.boosting = boost && self.boost > 0.0;
        if self.boosting {
            self.vx += self.facing * BOOST_ACC * DT;
            self.vx = self.vx.clamp(-BOOST_MAX_SPEED, BOOST_MAX_SPEED);
            self.boost = (self.boost - BOOST_DRAIN * DT).max(0.0);
        } else if !boost {
            // The meter refills only while the boost key is up.
            self.boost = (self.boost + BOOST_REGEN * DT).min(100.0);
        }
        if !self.on_ground {
            self.vy += CAR_G * DT;
        }
        self.x += self.vx * DT;
        self.y += self.vy * DT;
        if self.y + CAR_H / 2.0 >= GROUND {
            self.y = GROUND - CAR_H / 2.0;
            self.vy = 0.0;
            self.on_ground = true;
        }
        let (lo, hi) = (LEFT + CAR_W / 2.0, RIGHT - CAR_W / 2.0);
        if self.x < lo || self.x > hi {
            self.x = self.x.clamp(lo, hi);
            self.vx = 0.0;
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Playing,
    /// Celebration after a goal; `true` when the player scored.
    Goal(u64, bool),
    Over,
}

#[derive(Clone)]
pub struct RocketLeague {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    game_time_ms: u64,
    pub(crate) player: Car,
    pub(crate) opp: Car,
    pub(crate) ball: Ball,
    pub(crate) goals_for: u32,
    pub(crate) goals_against: u32,
    pub(crate) time_left_ms: u64,
    phase: Phase,
    held_left: bool,
    held_right: bool,
    held_boost: bool,
    /// Opponent's current plan: target x and whether it wants to jump.
    opp_target: f64,
    opp_think_ms: u64,
    kickoffs: u32,
    touches: u32,
    shots: u32,
    pub(crate) terminal: Terminal,
}

impl Default for RocketLeague {
    fn default() -> Self {
        Self::new()
    }
}

/// Circle vs axis-aligned car body: push the ball out and bounce it off.
fn hit_ball(ball: &mut Ball, car: &Car) -> bool {
    let (l, r) = (car.x - CAR_W / 2.0, car.x + CAR_W / 2.0);
    let (t, b) = (car.y - CAR_H / 2.0, car.y + CAR_H / 2.0);
    let px = ball.x.clamp(l, r);
    let py = ball.y.clamp(t, b);
    let (dx, dy) = (ball.x - px, ball.y - py);
    let d2 = dx * dx + dy * dy;
    if d2 >= BALL_R * BALL_R {
        return false;
    }
    let d = d2.sqrt();
    let (nx, ny) = if d > 1e-6 {
        (dx / d, dy / d)
    } else {
        (car.facing * 0.9, -0.44)
    };
    ball.x = px + nx * BALL_R;
    ball.y = py + ny * BALL_R;
    let (rvx, rvy) = (ball.vx - car.vx, ball.vy - car.vy);
    let vn = rvx * nx + rvy * ny;
    if vn < 0.0 {
        let (rvx, rvy) = (rvx - 1.5 * vn * nx, rvy - 1.5 * vn * ny);
        let push = (car.vx * nx + car.vy * ny).max(0.0);
        let kick = HIT_KICK * (push / KICK_FULL_SPEED).min(1.0);
        ball.vx = car.vx + rvx + nx * kick;
        ball.vy = car.vy + rvy + ny * kick;
        if ny < 0.5 {
            ball.vy -= HIT_LIFT * (car.vx.abs() / DRIVE_MAX).min(1.5);
        }
    }
    if ny < -0.7 {
        ball.vx = car.vx + (ball.vx - car.vx) * (1.0 - ROOF_GRIP);
    }
    {
        let s = (ball.vx * ball.vx + ball.vy * ball.vy).sqrt();
        if s > BALL_MAX_SPEED {
            ball.vx *= BALL_MAX_SPEED / s;
            ball.vy *= BALL_MAX_SPEED / s;
        }
    }
    true
}

impl RocketLeague {
    pub fn new() -> Self {
        RocketLeague {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            player: Car::new(MID - 300.0, 1.0),
            opp: Car::new(MID + 300.0, -1.0),
            ball: Ball {
                x: MID,
                y: GROUND - 220.0,
                vx: 0.0,
                vy: 0.0,
            },
            goals_for: 0,
            goals_against: 0,
            time_left_ms: MATCH_MS,
            phase: Phase::Playing,
            held_left: false,
            held_right: false,
            held_boost: false,
            opp_target: MID + 300.0,
            opp_think_ms: 0,
            kickoffs: 0,
            touches: 0,
            shots: 0,
            terminal: Terminal::running(),
        }
    }

    /// Cars back to their halves, the ball dropped near the centre spot.
    fn kickoff(&mut self) {
        let boost_p = if self.kickoffs == 0 {
            100.0
        } else {
            self.player.boost.max(40.0)
        };
        let boost_o = if self.kickoffs == 0 {
            100.0
        } else {
            self.opp.boost.max(40.0)
        };
        self.player = Car::new(MID - 300.0, 1.0);
        self.player.boost = boost_p;
        self.opp = Car::new(MID + 300.0, -1.0);
        self.opp.boost = boost_o;
        let dx = self.rng.range_f64(-40.0, 40.0);
        let vx = self.rng.range_f64(-60.0, 60.0);
        self.ball = Ball {
            x: MID + dx,
            y: GROUND - 130.0,
            vx,
            vy: 0.0,
        };
        self.opp_target = self.opp.x;
        self.opp_think_ms = 150 + self.rng.below(200) as u64;
        self.kickoffs += 1;
    }

    pub fn throttle(&self) -> f64 {
        match (self.held_left, self.held_right) {
            (true, false) => -1.0,
            (false, true) => 1.0,
            _ => 0.0,
        }
    }

    /// Where the ball will be when it next comes down to car height (its
    /// current position when it is already that low), ignoring walls.
    fn ball_landing_x(&self) -> f64 {
        let b = self.ball;
        let h = GROUND - CAR_H - BALL_R; // centre height when touching a roof
        let t = if b.y >= h {
            0.0
        } else {
            // y + vy t + g t^2 / 2 = h, the later root.
            let (a, bb, c) = (BALL_G / 2.0, b.vy, b.y - h);
            (-bb + (bb * bb - 4.0 * a * c).max(0.0).sqrt()) / (2.0 * a)
        };
        (b.x + b.vx * t).clamp(LEFT + BALL_R, RIGHT - BALL_R)
    }

    /// The scripted opponent defends first: it keeps goal-side of the ball
    /// (between the ball and the orange goal), races back — boosting — when
    /// caught on the wrong side or when the ball flies at its goal, and only
    /// plays the ball from its goal side, driving, heading or blocking it
    /// towards the blue goal. On the wrong side it hops over a low ball
    /// rather than knocking it on towards its own goal.
    fn opp_think(&mut self) {
        let (b, o) = (self.ball, self.opp);
        let reach = CAR_W / 2.0 + BALL_R;
        let land = self.ball_landing_x();
        let front = b.x.max(land);
        let goal_side = o.x > front + reach * 0.5;
        let low = b.y > GROUND - CAR_H - BALL_R - 10.0;
        let on_roof =
            (b.x - o.x).abs() < CAR_W / 2.0 + 4.0 && b.y < o.top() && b.y > o.top() - BALL_R - 8.0;
        self.opp_target = if on_roof {
            o.x - 200.0 // carry a ball on the roof away from the goal
        } else if !goal_side {
            // Wrong side: get back between the ball and the goal.
            (front + reach + 80.0).min(RIGHT - 70.0)
        } else if low && (b.x > MID + 80.0 || !self.player_contests()) {
            // Goal side with a loose ball, or one in its own half: drive it
            // towards the blue goal.
            b.x + 10.0
        } else if low {
            // The player is on the ball in the other half: shadow it, goal side.
            (b.x + reach + 110.0).min(RIGHT - 70.0)
        } else {
            // A ball in the air: be under where it comes down, on the goal side.
            (land + reach * 0.5).min(RIGHT - 70.0)
        };
        self.opp_think_ms = 220 + self.rng.below(160) as u64;
    }

    /// Whether the player is playing the ball: near it and driving or in the
    /// air. Only then does the CPU hang back and shadow; a parked or distant
    /// player leaves the ball loose and the CPU goes for it.
    fn player_contests(&self) -> bool {
        let (p, b) = (self.player, self.ball);
        (p.x - b.x).abs() < CAR_W / 2.0 + BALL_R + 150.0 && (p.vx.abs() > 60.0 || !p.on_ground)
    }

    /// Throttle, jump and boost for this tick.
    fn opp_control(&mut self) -> (f64, bool, bool) {
        let (b, o) = (self.ball, self.opp);
        let reach = CAR_W / 2.0 + BALL_R;
        let dx = self.opp_target - o.x;
        let t = if dx.abs() < 12.0 { 0.0 } else { dx.signum() };
        let goal_side = o.x > b.x + 10.0;
        let top = o.top();
        // Head a ball dropping onto the roof, only from the goal side and when
        // it is not flying on towards the goal, so it goes back the other way.
        let header = goal_side
            && (b.x - o.x).abs() < CAR_W / 2.0
            && b.y < top - 40.0
            && b.y > top - 180.0
            && b.vy > -100.0
            && b.vx < 100.0;
        // Block a ball about to sail over the roof towards the goal, within
        // its own half (a jump in its path).
        let closing = b.vx - o.vx;
        let eta = (o.x - b.x - reach) / closing.max(1.0);
        let block = goal_side
            && o.x > MID
            && closing > 150.0
            && b.y + BALL_R < top + 5.0
            && b.y > top - 150.0
            && (0.0..0.2).contains(&eta);
        // Wrong side with a low ball ahead: hop over it.
        let gap = b.x - o.x;
        let hop = !goal_side
            && t > 0.0
            && gap > reach - 30.0
            && gap < reach + 80.0
            && b.y > GROUND - 110.0;
        let jump = o.on_ground && (header || block || hop);
        // Race back when beaten by a ball heading for the goal.
        let boost = t > 0.0 && o.on_ground && !goal_side && b.vx > 0.0;
        (t, jump, boost)
    }

    fn ball_tick(&mut self) -> Option<bool> {
        let b = &mut self.ball;
        b.vy += BALL_G * DT;
        b.x += b.vx * DT;
        b.y += b.vy * DT;
        // Ground and ceiling.
        if b.y + BALL_R > GROUND {
            b.y = GROUND - BALL_R;
            if b.vy > 0.0 {
                b.vy = if b.vy < 240.0 {
                    0.0
                } else {
                    b.vx *= 1.0 - BOUNCE_FRICTION;
                    -b.vy * BALL_BOUNCE
                };
            }
            let s = (b.vx.abs() * (1.0 - BALL_GROUND_DRAG * DT) - BALL_ROLL_DECEL * DT).max(0.0);
            b.vx = b.vx.signum() * s;
        } else {
            b.vx *= 1.0 - BALL_AIR_DRAG * DT;
        }
        if b.y - BALL_R < CEILING {
            b.y = CEILING + BALL_R;
            b.vy = b.vy.abs() * WALL_BOUNCE;
        }
        // Side walls above the goals, crossbar corners, goal interiors.
        for (line, dir) in [(LEFT, -1.0f64), (RIGHT, 1.0)] {
            let beyond = (b.x - line) * dir; // > 0 once the centre is past the goal line
            if b.y < GOAL_TOP {
                // Beside the wall segment above the goal mouth.
                if beyond + BALL_R > 0.0 {
                    b.x = line - dir * BALL_R;
                    if b.vx * dir > 0.0 {
                        b.vx = -b.vx * SIDE_WALL_BOUNCE;
                    }
                }
            } else if beyond <= 0.0 {
                // Below the crossbar's level but still on the pitch: the crossbar corner.
                let (dx, dy) = (b.x - line, b.y - GOAL_TOP);
                let d = (dx * dx + dy * dy).sqrt();
                if d < BALL_R && d > 1e-6 {
                    let (nx, ny) = (dx / d, dy / d);
                    b.x = line + nx * BALL_R;
                    b.y = GOAL_TOP + ny * BALL_R;
                    let vn = b.vx * nx + b.vy * ny;
                    if vn < 0.0 {
                        b.vx -= (1.0 + WALL_BOUNCE) * vn * nx;
                        b.vy -= (1.0 + WALL_BOUNCE) * vn * ny;
                    }
                }
            } else {
                // Inside the goal: its roof and back.
                if b.y - BALL_R < GOAL_TOP {
                    b.y = GOAL_TOP + BALL_R;
                    b.vy = b.vy.abs() * WALL_BOUNCE;
                }
                if beyond + BALL_R > GOAL_DEPTH {
                    b.x = line + dir * (GOAL_DEPTH - BALL_R);
                    b.vx = -b.vx * 0.3;
                }
                if beyond > BALL_R {
                    // The whole ball is over the line.
                    return Some(dir > 0.0);
                }
            }
        }
        None
    }

    fn tick(&mut self) {
        match self.phase {
            Phase::Over => return,
            Phase::Goal(ms, _) => {
                let left = ms.saturating_sub(TICK_MS);
                if left == 0 {
                    self.phase = Phase::Playing;
                    self.kickoff();
                } else {
                    self.phase = Phase::Goal(left, matches!(self.phase, Phase::Goal(_, true)));
                    // The ball keeps settling in the net during the celebration.
                    self.ball.vy += BALL_G * DT;
                    self.ball.y = (self.ball.y + self.ball.vy * DT).min(GROUND - BALL_R);
                }
                return;
            }
            Phase::Playing => {}
        }
        self.time_left_ms = self.time_left_ms.saturating_sub(TICK_MS);
        // Player.
        let t = self.throttle();
        self.player.tick(t, self.held_boost, DRIVE_ACC, DRIVE_MAX);
        // Opponent.
        if self.opp_think_ms <= TICK_MS {
            self.opp_think();
        } else {
            self.opp_think_ms -= TICK_MS;
        }
        let (ot, ojump, oboost) = self.opp_control();
        if ojump {
            self.opp.jump();
        }
        self.opp.tick(ot, oboost, OPP_ACC, OPP_MAX);
        self.cars_bump();
        // Ball.
        let scored = self.ball_tick();
        let before = self.ball;
        if hit_ball(&mut self.ball, &self.player.clone()) {
            self.touches += 1;
            if self.ball.vx > 300.0 && before.vx <= 300.0 {
                self.shots += 1;
            }
        }
        let opp = self.opp;
        hit_ball(&mut self.ball, &opp);
        if let Some(right_goal) = scored {
            if right_goal {
                self.goals_for += 1;
            } else {
                self.goals_against += 1;
            }
            self.phase = Phase::Goal(GOAL_PAUSE_MS, right_goal);
            self.held_boost = false;
        }
        if self.time_left_ms == 0 && !matches!(self.phase, Phase::Goal(..)) {
            self.phase = Phase::Over;
            self.terminal = if self.goals_for > self.goals_against {
                Terminal::ended(Outcome::Success, "time is up: the player won the match")
            } else {
                Terminal::ended(
                    Outcome::Fail,
                    "time is up: the player did not win the match",
                )
            };
        }
    }

    fn cars_bump(&mut self) {
        let (p, o) = (&mut self.player, &mut self.opp);
        let overlap_x = CAR_W - (p.x - o.x).abs();
        let overlap_y = CAR_H - (p.y - o.y).abs();
        if overlap_x > 0.0 && overlap_y > 0.0 {
            let s = if p.x < o.x { -1.0 } else { 1.0 };
            if overlap_x < overlap_y + 10.0 {
                p.x += s * overlap_x / 2.0;
                o.x -= s * overlap_x / 2.0;
                let (pv, ov) = (p.vx, o.vx);
                p.vx = ov * 0.6;
                o.vx = pv * 0.6;
            } else if p.y < o.y {
                p.y = o.top() - CAR_H / 2.0;
                p.vy = p.vy.min(0.0);
            } else {
                o.y = p.top() - CAR_H / 2.0;
                o.vy = o.vy.min(0.0);
            }
        }
    }

    /// Distance from the ball to the centre of the goal the player attacks.
    pub fn distance_to_goal(&self) -> f64 {
        let (gx, gy) = (RIGHT + GOAL_DEPTH / 2.0, (GOAL_TOP + GROUND) / 2.0);
        ((self.ball.x - gx).powi(2) + (self.ball.y - gy).powi(2)).sqrt()
    }

    pub fn playing(&self) -> bool {
        self.phase == Phase::Playing
    }
}

// ---------------------------------------------------------------- rendering

const BLUE: Rgb = rgb(40, 120, 255);
const ORANGE: Rgb = rgb(255, 140, 30);

fn draw_car(pm: &mut Pixmap, c: &Car, body: Rgb, label: &str) {
    let (l, t) = ((c.x - CAR_W / 2.0) as f32, c.top() as f32);
    let (w, h) = (CAR_W as f32, CAR_H as f32);
    draw::rounded_rect(pm, l, t + 6.0, w, h - 12.0, 6.0, body);
    // Cabin towards the front.
    let cab_x = if c.facing > 0.0 {
        l + w * 0.35
    } else {
        l + w * 0.15
    };
    draw::rounded_rect(pm, cab_x, t - 4.0, w * 0.5, 14.0, 5.0, body);
    let win_x = if c.facing > 0.0 {
        cab_x + w * 0.28
    } else {
        cab_x + 4.0
    };
    draw::rect(pm, win_x, t - 1.0, w * 0.18, 8.0, rgb(200, 230, 255));
    for wx in [l + 18.0, l + w - 18.0] {
        draw::circle(pm, wx, t + h - 6.0, 9.0, rgb(25, 25, 25));
        draw::circle(pm, wx, t + h - 6.0, 4.0, rgb(170, 170, 170));
    }
    if c.boosting {
        let bx = if c.facing > 0.0 { l - 4.0 } else { l + w + 4.0 };
        let tail = -(c.facing as f32) * 34.0;
        draw::polygon(
            pm,
            &[(bx, t + 10.0), (bx, t + h - 10.0), (bx + tail, t + h / 2.0)],
            rgb(255, 210, 60),
        );
    }
    draw::text(
        pm,
        label,
        c.x as f32,
        t - 26.0,
        16.0,
        rgb(255, 255, 255),
        Align::Center,
    );
}

fn render_arena(pm: &mut Pixmap) {
    // Sky / stands.
    draw::rect(pm, 0.0, 56.0, 1280.0, 664.0, rgb(22, 28, 48));
    draw::rect(
        pm,
        LEFT as f32,
        CEILING as f32,
        (RIGHT - LEFT) as f32,
        (GROUND - CEILING) as f32,
        rgb(34, 44, 74),
    );
    // Pitch.
    draw::rect(
        pm,
        0.0,
        GROUND as f32,
        1280.0,
        (720.0 - GROUND) as f32,
        rgb(46, 140, 60),
    );
    draw::rect(pm, 0.0, GROUND as f32, 1280.0, 4.0, rgb(220, 240, 220));
    draw::line(
        pm,
        MID as f32,
        CEILING as f32,
        MID as f32,
        GROUND as f32,
        2.0,
        rgba(255, 255, 255, 60),
    );
    draw::ring(
        pm,
        MID as f32,
        GROUND as f32 - 120.0,
        70.0,
        2.0,
        rgba(255, 255, 255, 50),
    );
    // Walls and ceiling.
    draw::rect(
        pm,
        LEFT as f32 - 8.0,
        CEILING as f32 - 8.0,
        (RIGHT - LEFT) as f32 + 16.0,
        8.0,
        rgb(120, 130, 160),
    );
    draw::rect(
        pm,
        LEFT as f32 - 8.0,
        CEILING as f32 - 8.0,
        8.0,
        (GOAL_TOP - CEILING) as f32 + 8.0,
        rgb(120, 130, 160),
    );
    draw::rect(
        pm,
        RIGHT as f32,
        CEILING as f32 - 8.0,
        8.0,
        (GOAL_TOP - CEILING) as f32 + 8.0,
        rgb(120, 130, 160),
    );
    // Goals: net boxes, the player attacks the orange (right) one.
    for (line, dir, c) in [(LEFT, -1.0f64, BLUE), (RIGHT, 1.0, ORANGE)] {
        let x0 = if dir < 0.0 { line - GOAL_DEPTH } else { line };
        draw::rect(
            pm,
            x0 as f32,
            GOAL_TOP as f32,
            GOAL_DEPTH as f32,
            (GROUND - GOAL_TOP) as f32,
            rgba(c.0, c.1, c.2, 70),
        );
        for k in 1..8 {
            let y = (GOAL_TOP + k as f64 * 25.0) as f32;
            draw::line(
                pm,
                x0 as f32,
                y,
                (x0 + GOAL_DEPTH) as f32,
                y,
                1.0,
                rgba(255, 255, 255, 70),
            );
        }
        draw::rect(
            pm,
            x0 as f32,
            GOAL_TOP as f32 - 6.0,
            GOAL_DEPTH as f32 + 8.0 * (dir > 0.0) as u8 as f32,
            6.0,
            c,
        );
        let back = if dir < 0.0 { x0 } else { x0 + GOAL_DEPTH - 4.0 };
        draw::rect(
            pm,
            back as f32,
            GOAL_TOP as f32,
            4.0,
            (GROUND - GOAL_TOP) as f32,
            c,
        );
        draw::rect(
            pm,
            line as f32 - 2.0,
            GOAL_TOP as f32,
            4.0,
            (GROUND - GOAL_TOP) as f32,
            rgba(255, 255, 255, 120),
        );
    }
}

impl Game for RocketLeague {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x2500_0000 + episode as u64);
        self.clock.clear();
        self.goals_for = 0;
        self.goals_against = 0;
        self.time_left_ms = MATCH_MS;
        self.phase = Phase::Playing;
        self.held_left = false;
        self.held_right = false;
        self.held_boost = false;
        self.kickoffs = 0;
        self.touches = 0;
        self.shots = 0;
        self.terminal = Terminal::running();
        self.kickoff();
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
        let car = |c: &Car| json!({"x": c.x, "y": c.y, "vx": c.vx, "vy": c.vy, "facing": c.facing, "on_ground": c.on_ground, "boost": c.boost});
        set(&mut s.game_state, "score", self.goals_for);
        set(&mut s.game_state, "opponent_score", self.goals_against);
        set(&mut s.game_state, "level", 1);
        set(
            &mut s.game_state,
            "progress",
            1.0 - self.time_left_ms as f64 / MATCH_MS as f64,
        );
        set(&mut s.game_state, "player", car(&self.player));
        set(&mut s.game_state, "board", Value::Null);
        set(
            &mut s.game_state,
            "entities",
            json!({"ball": {"x": self.ball.x, "y": self.ball.y, "vx": self.ball.vx, "vy": self.ball.vy, "r": BALL_R},
                   "opponent": car(&self.opp)}),
        );
        set(&mut s.game_state, "time_left_ms", self.time_left_ms);
        set(&mut s.metrics, "primary_score", self.goals_for);
        set(&mut s.metrics, "goals_against", self.goals_against);
        set(
            &mut s.metrics,
            "distance_to_goal",
            (self.distance_to_goal() * 10.0).round() / 10.0,
        );
        set(
            &mut s.metrics,
            "player_boost",
            (self.player.boost * 10.0).round() / 10.0,
        );
        set(&mut s.metrics, "player_gas", self.throttle());
        set(
            &mut s.metrics,
            "player_speed",
            (self.player.vx.abs() * 10.0).round() / 10.0,
        );
        set(&mut s.metrics, "ball_touches", self.touches);
        set(&mut s.metrics, "shots", self.shots);
        set(&mut s.metrics, "kickoffs", self.kickoffs);
        set(
            &mut s.raw,
            "phase",
            match self.phase {
                Phase::Playing => "playing",
                Phase::Goal(_, true) => "goal_for",
                Phase::Goal(_, false) => "goal_against",
                Phase::Over => "over",
            },
        );
        set(&mut s.raw, "opponent_target_x", self.opp_target);
        set(
            &mut s.raw,
            "held",
            json!({"left": self.held_left, "right": self.held_right, "boost": self.held_boost}),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let Some((key, down)) = event.key_change() else {
            return;
        };
        match key {
            "a" | "A" => self.held_left = down,
            "d" | "D" => self.held_right = down,
            "Space" => self.held_boost = down,
            "w" | "W" if down && self.phase == Phase::Playing => self.player.jump(),
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
        // The arena never changes: draw it once and copy it in.
        static ARENA: std::sync::OnceLock<Pixmap> = std::sync::OnceLock::new();
        let arena = ARENA.get_or_init(|| {
            let mut a = Pixmap::new(1280, 720).expect("arena");
            draw::clear(&mut a, rgb(22, 28, 48));
            render_arena(&mut a);
            a
        });
        draw::copy_layer(pm, arena, 0, arena.width(), 0, 0);
        let secs = self.time_left_ms.div_ceil(1000);
        draw::hud(
            pm,
            "Rocket League 2D",
            &[
                ("Blue", self.goals_for.to_string()),
                ("Orange", self.goals_against.to_string()),
                ("Time", format!("{}:{:02}", secs / 60, secs % 60)),
            ],
        );
        // Ball shadow, cars, ball.
        let sh = (1.0 - ((GROUND - self.ball.y) / 500.0).min(0.8)) as f32;
        draw::rect(
            pm,
            self.ball.x as f32 - 20.0 * sh,
            GROUND as f32 - 3.0,
            40.0 * sh,
            5.0,
            rgba(0, 0, 0, 110),
        );
        draw_car(pm, &self.opp, ORANGE, "CPU");
        draw_car(pm, &self.player, BLUE, "YOU");
        let (bx, by) = (self.ball.x as f32, self.ball.y as f32);
        draw::circle(pm, bx, by, BALL_R as f32, rgb(235, 235, 235));
        draw::ring(pm, bx, by, BALL_R as f32 - 1.0, 2.0, rgb(90, 90, 90));
        draw::circle(pm, bx - 7.0, by - 8.0, 7.0, rgb(90, 90, 90));
        draw::circle(pm, bx + 10.0, by + 6.0, 5.0, rgb(90, 90, 90));
        // Boost meter.
        draw::text(
            pm,
            "BOOST",
            24.0,
            676.0,
            20.0,
            rgb(255, 255, 255),
            Align::Left,
        );
        draw::rect(pm, 110.0, 680.0, 200.0, 20.0, rgb(30, 30, 30));
        draw::rect(
            pm,
            110.0,
            680.0,
            2.0 * self.player.boost as f32,
            20.0,
            rgb(255, 200, 40),
        );
        draw::text(
            pm,
            "A/D drive   W jump   Space boost",
            1256.0,
            680.0,
            18.0,
            rgb(235, 235, 235),
            Align::Right,
        );
        match self.phase {
            Phase::Goal(_, true) => draw::text(
                pm,
                "GOAL! BLUE SCORES",
                640.0,
                200.0,
                48.0,
                BLUE,
                Align::Center,
            ),
            Phase::Goal(_, false) => draw::text(
                pm,
                "GOAL! ORANGE SCORES",
                640.0,
                200.0,
                48.0,
                ORANGE,
                Align::Center,
            ),
            Phase::Over => {
                let msg = if self.goals_for > self.goals_against {
                    "YOU WIN"
                } else {
                    "MATCH OVER"
                };
                draw::banner(
                    pm,
                    msg,
                    &format!("Blue {} - {} Orange", self.goals_for, self.goals_against),
                );
            }
            Phase::Playing => {}
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
