//! 30_vex-3 — a precision platformer after Vex 3: one hazard-packed level
//! (tile data in `levels/levels.txt`) split by five checkpoints.
//!
//! The stick figure runs (ArrowLeft/ArrowRight) and jumps (ArrowUp).
//! ArrowDown while running starts a low crouch-slide that keeps the speed
//! for a moment and fits under one-tile gaps and low saws; ArrowDown while
//! standing crouches. Flying into a swing ring (`R`) grabs it: the runner
//! spins round the ring at a fixed rate in the direction it arrived, and
//! ArrowUp lets go, flinging it along the circle's tangent much faster than
//! a run. Spikes, saws (fixed, patrolling, rising and falling, or orbiting
//! their tile) and falling out of the map send the runner back to the last
//! checkpoint touched; there are no lives. Touching the exit wins.
//!
//! Seeds move each moving saw's phase (and an orbiting saw's direction), so
//! the timings differ between seeds; nothing else is random.
//!
//! Tile legend: `#` solid, `^` spikes, `*` fixed saw, `H` patrolling saw,
//! `V` rising and falling saw, `O` orbiting saw, `R` swing ring, `C`
//! checkpoint, `S` start, `E` exit.
//!
//! State: `game_state.{level, total_levels, completion_progress,
//! checkpoints{passed, total}, respawn{x, y}, player{x, y, vx, vy,
//! on_ground, sliding, crouching, swinging}, entities}`,
//! `metrics.{checkpoints_passed, checkpoints_total, deaths,
//! distance_to_goal, total_levels, level_number, primary_score}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use crate::platform::{self, Aabb, Arrows, Body, Camera, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};
use tiny_skia::Pixmap;

pub const ID: &str = "30_vex-3";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const RUN_SPEED: f64 = 7.5;
const GROUND_ACCEL: f64 = 60.0;
const AIR_ACCEL: f64 = 40.0;
const FRICTION: f64 = 50.0;
pub const GRAVITY: f64 = 48.0;
pub const JUMP_SPEED: f64 = 15.0;
const MAX_FALL: f64 = 18.0;
pub const SLIDE_SPEED: f64 = 10.0;
/// How fast a crouch-slide loses speed, tiles/s².
const SLIDE_DRAG: f64 = 8.0;
const CRAWL_SPEED: f64 = 2.5;
pub const PLAYER_W: f64 = 0.7;
pub const STAND_H: f64 = 1.4;
pub const LOW_H: f64 = 0.7;
/// A ring is grabbed when the runner's centre comes this close to it.
pub const GRAB_RADIUS: f64 = 1.1;
/// Radius of the circle the runner's centre follows round a ring.
pub const SWING_RADIUS: f64 = 1.0;
/// Turning rate on a ring, rad/s.
pub const SWING_RATE: f64 = 7.0;
/// Speed of the fling when letting go of a ring, tiles/s.
pub const LAUNCH_SPEED: f64 = 15.0;
/// After letting go, the same ring cannot be grabbed for this long, s.
const REGRAB_S: f64 = 0.4;
pub const SAW_RADIUS: f64 = 0.45;

const TILE_PX: f64 = 40.0;
const VIEW_Y: f64 = 56.0;
const ROWS: usize = 16;

static LEVELS_TXT: &str = include_str!("levels/levels.txt");

/// How a saw moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SawKind {
    /// Spins in place.
    Fixed,
    /// Patrols two tiles either side of its tile.
    Patrol,
    /// Rises and falls one and a half tiles about its tile.
    Lift,
    /// Circles its tile at a radius of 1.6 tiles.
    Orbit,
}

impl SawKind {
    fn of_tile(t: u8) -> Option<SawKind> {
        match t {
            b'*' => Some(SawKind::Fixed),
            b'H' => Some(SawKind::Patrol),
            b'V' => Some(SawKind::Lift),
            b'O' => Some(SawKind::Orbit),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            SawKind::Fixed => "saw",
            SawKind::Patrol => "patrolling_saw",
            SawKind::Lift => "lifting_saw",
            SawKind::Orbit => "orbiting_saw",
        }
    }
}

/// A parsed level: the map without its start marker, and where things are.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelData {
    pub number: u32,
    pub map: TileMap,
    pub start: (f64, f64),
    pub exit: (i64, i64),
    /// Checkpoint tiles from left to right (the order they are met in).
    pub checkpoints: Vec<(i64, i64)>,
    /// Swing ring centres.
    pub rings: Vec<(f64, f64)>,
    /// Saw tiles and how each moves.
    pub saws: Vec<(i64, i64, SawKind)>,
}

/// Where a runner stands when put on tile `(x, y)` (feet on its bottom).
fn stand_on(x: i64, y: i64) -> (f64, f64) {
    (x as f64 + 0.15, y as f64 + 1.0 - STAND_H)
}

pub fn levels() -> &'static [LevelData] {
    static L: OnceLock<Vec<LevelData>> = OnceLock::new();
    L.get_or_init(|| parse_levels(LEVELS_TXT).expect("bundled Vex 3 levels parse"))
}

/// Parse a level file; errors name the section and what is missing.
pub fn parse_levels(text: &str) -> Result<Vec<LevelData>, String> {
    let mut out = Vec::new();
    for (i, sec) in tilemap::parse_sections(text)?.into_iter().enumerate() {
        let mut map = sec.map;
        let label = &sec.label;
        if map.height() != ROWS {
            return Err(format!(
                "level {label}: {} rows, expected {ROWS}",
                map.height()
            ));
        }
        let (sx, sy) = map
            .find(b'S')
            .ok_or_else(|| format!("level {label}: no start `S`"))?;
        map.set(sx, sy, tilemap::EMPTY);
        let exit = map
            .find(b'E')
            .ok_or_else(|| format!("level {label}: no exit `E`"))?;
        let mut checkpoints = map.find_all(b'C');
        if checkpoints.is_empty() {
            return Err(format!("level {label}: no checkpoint `C`"));
        }
        checkpoints.sort();
        let rings = map
            .find_all(b'R')
            .into_iter()
            .map(|(x, y)| (x as f64 + 0.5, y as f64 + 0.5))
            .collect();
        let mut saws = Vec::new();
        for y in 0..ROWS as i64 {
            for x in 0..map.width() as i64 {
                if let Some(k) = SawKind::of_tile(map.at(x, y, b'.')) {
                    saws.push((x, y, k));
                }
            }
        }
        out.push(LevelData {
            number: i as u32 + 1,
            start: stand_on(sx, sy),
            exit,
            checkpoints,
            rings,
            saws,
            map,
        });
    }
    Ok(out)
}

fn solid_kind(t: u8) -> Solidity {
    if t == b'#' {
        Solidity::Solid
    } else {
        Solidity::Empty
    }
}

fn collider(map: &TileMap) -> Collider<'_, fn(u8) -> Solidity> {
    Collider::plain(map, solid_kind as fn(u8) -> Solidity)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Spikes,
    Saw,
    Fall,
}

/// A saw blade: its home tile's centre, how it moves and its seeded phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saw {
    pub kind: SawKind,
    pub x: f64,
    pub y: f64,
    pub phase: f64,
    /// 1 or -1: an orbiting saw's direction.
    pub turn: f64,
}

impl Saw {
    /// Centre at game time `t` seconds.
    pub fn center(&self, t: f64) -> (f64, f64) {
        match self.kind {
            SawKind::Fixed => (self.x, self.y),
            SawKind::Patrol => (self.x + 2.0 * libm::sin(self.phase + 2.0 * t), self.y),
            SawKind::Lift => (self.x, self.y + 1.5 * libm::sin(self.phase + 2.5 * t)),
            SawKind::Orbit => {
                let a = self.phase + self.turn * 2.2 * t;
                (self.x + 1.6 * libm::cos(a), self.y + 1.6 * libm::sin(a))
            }
        }
    }
}

/// Hanging on a ring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swing {
    pub ring: usize,
    /// Angle of the runner's centre about the ring (0 = right, y down).
    pub angle: f64,
    /// SWING_RATE with the turning direction's sign.
    pub rate: f64,
}

/// The level in play: deterministic (its saws hold their seeded phases),
/// cloned by the expert.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: u32,
    pub body: Body,
    pub jump: JumpAssist,
    pub keys: Arrows,
    pub saws: Arc<Vec<Saw>>,
    pub sliding: bool,
    pub crouching: bool,
    pub swing: Option<Swing>,
    /// The ring just let go of, and how long until it can be grabbed again.
    pub regrab: Option<(usize, f64)>,
    pub facing: i8,
    /// Checkpoints passed (they lie in order along the level).
    pub passed: u32,
    /// Where the runner comes back after a death.
    pub respawn: (f64, f64),
    pub finished: bool,
    pub death: Option<Death>,
    pub ticks: u64,
}

impl World {
    pub fn new(level: u32, saws: Vec<Saw>) -> Self {
        let l = &levels()[level as usize - 1];
        let mut w = World {
            level,
            body: Body::new(l.start.0, l.start.1, PLAYER_W, STAND_H),
            jump: JumpAssist::new(0.08, 0.1),
            keys: Arrows::default(),
            saws: Arc::new(saws),
            sliding: false,
            crouching: false,
            swing: None,
            regrab: None,
            facing: 1,
            passed: 0,
            respawn: l.start,
            finished: false,
            death: None,
            ticks: 0,
        };
        w.body.on_ground = true;
        w
    }

    pub fn data(&self) -> &'static LevelData {
        &levels()[self.level as usize - 1]
    }

    fn map(&self) -> &'static TileMap {
        &self.data().map
    }

    pub fn time_s(&self) -> f64 {
        self.ticks as f64 * DT
    }

    /// A key going down or up (the role's four arrows). The expert drives
    /// its simulated copies through this same function.
    pub fn key(&mut self, key: &str, down: bool) {
        if self.keys.set(key, down) && key == "ArrowUp" {
            self.jump.press();
        }
    }

    /// Back to the last checkpoint (or the start) after a death.
    pub fn respawn(&mut self) {
        let (x, y) = self.respawn;
        self.body = Body::new(x, y, PLAYER_W, STAND_H);
        self.body.on_ground = true;
        self.jump = JumpAssist::new(0.08, 0.1);
        self.sliding = false;
        self.crouching = false;
        self.swing = None;
        self.regrab = None;
        self.death = None;
    }

    pub fn low(&self) -> bool {
        self.sliding || self.crouching
    }

    /// The tile the runner heads for: the next checkpoint, then the exit.
    pub fn goal(&self) -> (i64, i64) {
        let l = self.data();
        l.checkpoints
            .get(self.passed as usize)
            .copied()
            .unwrap_or(l.exit)
    }

    /// Straight-line distance to [`World::goal`], tiles.
    pub fn distance_to_goal(&self) -> f64 {
        let (gx, gy) = self.goal();
        self.body.aabb.distance_to_tile(gx, gy)
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.finished || self.death.is_some() {
            return;
        }
        self.ticks += 1;
        let dir = self.keys.dir();
        if dir != 0.0 {
            self.facing = dir as i8;
        }
        if let Some((ring, left)) = self.regrab {
            self.regrab = (left > DT).then_some((ring, left - DT));
        }
        if self.swing.is_some() {
            self.jump.update(false, DT);
            self.swing_tick();
        } else {
            self.run_tick(dir);
            self.try_grab();
        }
        self.touch();
    }

    fn run_tick(&mut self, dir: f64) {
        let map = self.map();
        let grounded = self.body.on_ground;
        let down = self.keys.down;
        if grounded && down && !self.low() {
            let speed = self.body.vx.abs();
            if dir != 0.0 || speed > 3.0 {
                let d = if dir != 0.0 {
                    dir
                } else {
                    self.body.vx.signum()
                };
                self.body.vx = d * speed.max(SLIDE_SPEED);
                self.sliding = true;
            } else {
                self.crouching = true;
            }
            platform::resize_keep_feet(&mut self.body, &collider(map), LOW_H);
        }
        // Up again once Down is let go (or the ground is gone), unless a
        // ceiling holds the runner low: then it keeps sliding or crawls.
        let stay_low = down && grounded;
        if self.low()
            && !stay_low
            && platform::resize_keep_feet(&mut self.body, &collider(map), STAND_H)
        {
            self.sliding = false;
            self.crouching = false;
        }
        if self.sliding && self.body.vx.abs() <= CRAWL_SPEED {
            self.sliding = false;
            self.crouching = true;
        }
        let b = &mut self.body;
        if self.sliding {
            let s = b.vx.abs() - SLIDE_DRAG * DT;
            b.vx = s * b.vx.signum();
        } else {
            let top = if self.crouching {
                CRAWL_SPEED
            } else {
                RUN_SPEED
            };
            if grounded {
                b.vx = platform::steer(b.vx, dir, top, GROUND_ACCEL, FRICTION, DT);
            } else if dir * b.vx < top {
                // Air control speeds up to a run but never brakes a fling.
                let v = b.vx + dir * AIR_ACCEL * DT;
                b.vx = if dir * v > top { dir * top } else { v };
            }
        }
        self.jump.update(grounded, DT);
        if !self.low() && self.jump.take() {
            self.body.vy = -JUMP_SPEED;
        }
        self.body.vy = (self.body.vy + GRAVITY * DT).min(MAX_FALL);
        platform::move_body(&mut self.body, &collider(map), DT);
    }

    /// Grab a ring the runner flies into (not the one just let go).
    fn try_grab(&mut self) {
        if self.body.on_ground {
            return;
        }
        let b = self.body.aabb;
        let (bx, by) = (b.center_x(), b.center_y());
        let blocked = self.regrab.map(|r| r.0);
        let near = self
            .data()
            .rings
            .iter()
            .enumerate()
            .find(|&(i, &(rx, ry))| {
                Some(i) != blocked && (bx - rx).powi(2) + (by - ry).powi(2) < GRAB_RADIUS.powi(2)
            });
        let Some((ring, &(rx, ry))) = near else {
            return;
        };
        let angle = libm::atan2(by - ry, bx - rx);
        // Keep turning the way the runner was going round the ring.
        let along = -self.body.vx * libm::sin(angle) + self.body.vy * libm::cos(angle);
        let sign = if along.abs() > 0.5 {
            along.signum()
        } else {
            self.facing as f64
        };
        if self.low() {
            let map = self.map();
            platform::resize_keep_feet(&mut self.body, &collider(map), STAND_H);
            self.sliding = false;
            self.crouching = false;
        }
        self.jump.cancel();
        self.swing = Some(Swing {
            ring,
            angle,
            rate: sign * SWING_RATE,
        });
        self.swing_tick();
    }

    fn swing_tick(&mut self) {
        let Some(mut sw) = self.swing else { return };
        let (rx, ry) = self.data().rings[sw.ring];
        sw.angle = (sw.angle + sw.rate * DT).rem_euclid(std::f64::consts::TAU);
        let (s, c) = (libm::sin(sw.angle), libm::cos(sw.angle));
        let b = self.body.aabb;
        let placed = Aabb::new(
            rx + SWING_RADIUS * c - b.w / 2.0,
            ry + SWING_RADIUS * s - b.h / 2.0,
            b.w,
            b.h,
        );
        self.body.on_ground = false;
        if collider(self.map()).hits_solid(&placed) {
            // Knocked off the ring by a wall: drop.
            self.swing = None;
            self.regrab = Some((sw.ring, REGRAB_S));
            self.body.vx = 0.0;
            self.body.vy = 0.0;
            return;
        }
        self.body.aabb = placed;
        let v = SWING_RADIUS * sw.rate;
        self.body.vx = -v * s;
        self.body.vy = v * c;
        if self.jump.pending() {
            self.jump.cancel();
            let k = LAUNCH_SPEED * sw.rate.signum();
            self.body.vx = -k * s;
            self.body.vy = k * c;
            self.swing = None;
            self.regrab = Some((sw.ring, REGRAB_S));
        } else {
            self.swing = Some(sw);
        }
    }

    /// Hazards, checkpoints and the exit at the body's new place.
    fn touch(&mut self) {
        let b = self.body.aabb;
        let l = self.data();
        let (mut spiked, mut exit, mut cp) = (false, false, None);
        platform::for_each_overlapping(&l.map, &b, |x, y, t| match t {
            b'^' => spiked |= b.overlaps(&Aabb::new(x as f64 + 0.1, y as f64 + 0.45, 0.8, 0.55)),
            b'E' => exit = true,
            b'C' => cp = l.checkpoints.iter().position(|&c| c == (x, y)),
            _ => {}
        });
        let t = self.time_s();
        let sawed = self.saws.iter().any(|s| {
            let (cx, cy) = s.center(t);
            platform::disc_hits(&b, cx, cy, SAW_RADIUS)
        });
        self.death = if spiked {
            Some(Death::Spikes)
        } else if sawed {
            Some(Death::Saw)
        } else if b.y > ROWS as f64 {
            Some(Death::Fall)
        } else {
            None
        };
        if self.death.is_some() {
            return;
        }
        if let Some(i) = cp
            && i as u32 >= self.passed
        {
            self.passed = i as u32 + 1;
            let (x, y) = l.checkpoints[i];
            self.respawn = stand_on(x, y);
        }
        self.finished = exit;
    }
}

fn spawn_saws(rng: &mut Rng, l: &LevelData) -> Vec<Saw> {
    l.saws
        .iter()
        .map(|&(x, y, kind)| {
            let phase = if kind == SawKind::Fixed {
                0.0
            } else {
                rng.range_f64(0.0, std::f64::consts::TAU)
            };
            let turn = if kind == SawKind::Orbit && rng.chance(0.5) {
                -1.0
            } else {
                1.0
            };
            Saw {
                kind,
                x: x as f64 + 0.5,
                y: y as f64 + 0.5,
                phase,
                turn,
            }
        })
        .collect()
}

pub struct Vex3 {
    seed: u64,
    first_level: u32,
    rng: Rng,
    clock: FixedStep,
    world: World,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    terminal: Terminal,
    /// The expert's cached plan (see `expert.rs`).
    plan: RefCell<expert::Plan>,
}

impl Default for Vex3 {
    fn default() -> Self {
        Self::new()
    }
}

impl Vex3 {
    pub fn new() -> Self {
        Vex3 {
            seed: 0,
            first_level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(1, Vec::new()),
            deaths: 0,
            game_time_ms: 0,
            episode: 0,
            terminal: Terminal::running(),
            plan: RefCell::new(expert::Plan::default()),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Completion of the level: the runner's way from the start towards
    /// the exit, 1 once it is reached.
    fn completion(&self) -> f64 {
        let w = &self.world;
        if w.finished {
            return 1.0;
        }
        let l = w.data();
        let span = (l.exit.0 as f64 + 0.5 - l.start.0).max(1.0);
        ((w.body.aabb.center_x() - l.start.0) / span).clamp(0.0, 1.0)
    }
}

impl Game for Vex3 {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.first_level = config.level.unwrap_or(1).clamp(1, levels().len() as u32);
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x0000_0300 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.deaths = 0;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        *self.plan.borrow_mut() = expert::Plan::default();
        let l = &levels()[self.first_level as usize - 1];
        self.world = World::new(self.first_level, spawn_saws(&mut self.rng, l));
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let l = w.data();
        let b = w.body.aabb;
        let total = l.checkpoints.len();
        let levels_n = levels().len();
        set(&mut s.game_state, "level", w.level);
        set(&mut s.game_state, "total_levels", levels_n);
        set(
            &mut s.game_state,
            "completion_progress",
            round2(self.completion()),
        );
        set(
            &mut s.game_state,
            "checkpoints",
            json!({"passed": w.passed, "total": total}),
        );
        set(
            &mut s.game_state,
            "respawn",
            json!({"x": round2(w.respawn.0), "y": round2(w.respawn.1)}),
        );
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(b.x), "y": round2(b.y), "vx": round2(w.body.vx),
                "vy": round2(w.body.vy), "on_ground": w.body.on_ground,
                "sliding": w.sliding, "crouching": w.crouching,
                "swinging": w.swing.is_some(),
            }),
        );
        let t = w.time_s();
        let mut ents: Vec<Value> = w
            .saws
            .iter()
            .map(|sw| {
                let (cx, cy) = sw.center(t);
                json!({"type": sw.kind.name(), "x": round2(cx), "y": round2(cy), "radius": SAW_RADIUS})
            })
            .collect();
        for &(x, y) in &l.rings {
            ents.push(json!({"type": "ring", "x": x, "y": y}));
        }
        for (i, &(x, y)) in l.checkpoints.iter().enumerate() {
            let passed = (i as u32) < w.passed;
            ents.push(json!({"type": "checkpoint", "x": x, "y": y, "passed": passed}));
        }
        ents.push(json!({"type": "exit", "x": l.exit.0, "y": l.exit.1}));
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.metrics, "checkpoints_passed", w.passed);
        set(&mut s.metrics, "checkpoints_total", total);
        set(&mut s.metrics, "deaths", self.deaths);
        set(
            &mut s.metrics,
            "distance_to_goal",
            round2(w.distance_to_goal()),
        );
        set(&mut s.metrics, "total_levels", levels_n);
        set(&mut s.metrics, "level_number", w.level);
        set(&mut s.metrics, "primary_score", w.passed);
        set(&mut s.raw, "episode", self.episode);
        set(
            &mut s.raw,
            "keys",
            json!({"left": w.keys.left, "right": w.keys.right, "up": w.keys.up, "down": w.keys.down}),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if let Some((key, down)) = event.key_change() {
            self.world.key(key, down);
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.game_time_ms += TICK_MS;
            self.world.tick();
            if self.world.death.is_some() {
                self.deaths += 1;
                self.world.respawn();
            } else if self.world.finished {
                self.terminal = Terminal::ended(Outcome::Success, "reached the exit");
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        json!({"action": expert::choose(&self.world, &mut self.plan.borrow_mut())})
    }
}

// ---------------------------------------------------------------- rendering

fn render(g: &Vex3, pm: &mut Pixmap) {
    let w = &g.world;
    let l = w.data();
    let b = w.body.aabb;
    let mut cam = Camera::side_view(TILE_PX, ROWS, VIEW_Y);
    let world_w = l.map.width() as f64;
    cam.follow(b.center_x(), b.center_y(), (0.4, 0.5), world_w, ROWS as f64);
    let s = TILE_PX as f32;
    draw::clear(pm, rgb(214, 226, 236));
    let (x0, y0, x1, y1) = cam.visible_tiles();
    let steel = rgb(58, 66, 80);
    l.map.for_each_in(x0, y0, x1, y1, |x, y, t| {
        let (sx, sy) = cam.to_screen(x as f64, y as f64);
        match t {
            b'#' => {
                draw::rect(pm, sx, sy, s, s, steel);
                if l.map.at(x, y - 1, b'.') != b'#' {
                    draw::rect(pm, sx, sy, s, 5.0, rgb(120, 132, 150));
                }
            }
            b'^' => {
                let tooth = s / 3.0;
                for k in 0..3 {
                    let xa = sx + k as f32 * tooth;
                    let pts = [
                        (xa, sy + s),
                        (xa + tooth / 2.0, sy + s * 0.45),
                        (xa + tooth, sy + s),
                    ];
                    draw::polygon(pm, &pts, rgb(200, 30, 40));
                }
            }
            b'C' => {
                let lit = l
                    .checkpoints
                    .iter()
                    .position(|&c| c == (x, y))
                    .is_some_and(|i| (i as u32) < w.passed);
                let flag = if lit {
                    rgb(40, 200, 80)
                } else {
                    rgb(150, 150, 150)
                };
                draw::rect(pm, sx + s * 0.3, sy - s, 4.0, s * 2.0, rgb(40, 40, 40));
                let top = sy - s;
                draw::polygon(
                    pm,
                    &[
                        (sx + s * 0.3 + 4.0, top),
                        (sx + s * 1.1, top + s * 0.3),
                        (sx + s * 0.3 + 4.0, top + s * 0.6),
                    ],
                    flag,
                );
            }
            b'E' => {
                draw::rect(
                    pm,
                    sx - 4.0,
                    sy - s * 1.2,
                    s + 8.0,
                    s * 2.2,
                    rgb(30, 30, 30),
                );
                draw::rect(pm, sx, sy - s, s, s * 2.0, rgb(250, 200, 40));
                draw::text(
                    pm,
                    "EXIT",
                    sx + s / 2.0,
                    sy - s * 1.9,
                    18.0,
                    rgb(20, 20, 20),
                    Align::Center,
                );
            }
            _ => {}
        }
    });
    for &(rx, ry) in &l.rings {
        let (px, py) = cam.to_screen(rx, ry);
        draw::ring(pm, px, py, s * 0.35, 5.0, rgb(230, 150, 20));
    }
    let t = w.time_s();
    let r = (SAW_RADIUS * TILE_PX) as f32;
    // The tracks of the moving saws, so their reach shows.
    let track = rgb(160, 170, 185);
    for sw in w.saws.iter() {
        let (a, b) = match sw.kind {
            SawKind::Fixed => continue,
            SawKind::Orbit => {
                let (px, py) = cam.to_screen(sw.x, sw.y);
                draw::ring(pm, px, py, 1.6 * s, 2.0, track);
                continue;
            }
            SawKind::Patrol => ((sw.x - 2.0, sw.y), (sw.x + 2.0, sw.y)),
            SawKind::Lift => ((sw.x, sw.y - 1.5), (sw.x, sw.y + 1.5)),
        };
        let (p, q) = (cam.to_screen(a.0, a.1), cam.to_screen(b.0, b.1));
        draw::line(pm, p.0, p.1, q.0, q.1, 3.0, track);
    }
    for sw in w.saws.iter() {
        let (cx, cy) = sw.center(t);
        let (px, py) = cam.to_screen(cx, cy);
        draw::circle(pm, px, py, r, rgb(170, 30, 30));
        draw::circle(pm, px, py, r * 0.8, rgb(205, 205, 215));
        let spin = (t * 10.0) as f32;
        for k in 0..3 {
            let a = spin + k as f32 * std::f32::consts::TAU / 3.0;
            let (dx, dy) = (libm::cosf(a) * r * 0.8, libm::sinf(a) * r * 0.8);
            draw::line(
                pm,
                px - dx,
                py - dy,
                px + dx,
                py + dy,
                3.0,
                rgb(90, 90, 100),
            );
        }
    }
    draw_runner(w, &cam, pm);
    draw::hud(
        pm,
        &format!("Vex 3 - Level {}", w.level),
        &[
            ("Deaths", g.deaths.to_string()),
            ("Time", format!("{:.1}s", g.game_time_ms as f64 / 1000.0)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "LEVEL COMPLETE",
        &format!("Deaths {}", g.deaths),
    );
}

/// The stick figure: low when sliding or crouching, arms up on a ring.
fn draw_runner(w: &World, cam: &Camera, pm: &mut Pixmap) {
    let b = w.body.aabb;
    let ink = rgb(10, 10, 14);
    let (x, y) = cam.to_screen(b.x, b.y);
    let (bw, bh) = ((b.w * TILE_PX) as f32, (b.h * TILE_PX) as f32);
    let f = w.facing as f32;
    if let Some(sw) = w.swing {
        let (rx, ry) = w.data().rings[sw.ring];
        let (hx, hy) = cam.to_screen(rx, ry);
        let (cx, cy) = (x + bw / 2.0, y + bh / 2.0);
        draw::line(pm, hx, hy, cx, cy, 4.0, ink);
        draw::circle(pm, cx, cy, bw * 0.35, ink);
        return;
    }
    if w.low() {
        let head = (x + bw / 2.0 + f * bw * 0.4, y + bh * 0.35);
        draw::circle(pm, head.0, head.1, bh * 0.35, ink);
        draw::line(pm, head.0, head.1, x + bw / 2.0 - f * bw, y + bh, 5.0, ink);
        return;
    }
    let head_r = bh * 0.15;
    let (cx, neck) = (x + bw / 2.0, y + head_r * 2.0);
    draw::circle(pm, cx + f * 2.0, y + head_r, head_r, ink);
    let hip = y + bh * 0.62;
    draw::line(pm, cx, neck, cx, hip, 5.0, ink);
    let stride = if w.body.on_ground && w.body.vx.abs() > 0.5 {
        if (w.ticks / 16).is_multiple_of(2) {
            0.4
        } else {
            -0.4
        }
    } else {
        0.25
    };
    for side in [1.0f32, -1.0] {
        draw::line(pm, cx, hip, cx + side * stride * bw, y + bh, 4.0, ink);
    }
    draw::line(pm, cx, neck + 4.0, cx + f * bw * 0.6, hip - 6.0, 4.0, ink);
}
