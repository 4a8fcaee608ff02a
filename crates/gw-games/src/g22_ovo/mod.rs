//! 22_ovo — a fast side-scrolling platformer after OvO, on three levels
//! (tile data in `levels/levels.txt`, one `---N` section per level).
//!
//! The runner is quick and light: ArrowUp jumps; in the air next to a wall
//! the runner slides down it slowly and ArrowUp jumps off it again, higher
//! up and away from the wall (wall jumps climb shafts and tall walls);
//! ArrowDown while running slides low and fast (under one-tile gaps), while
//! standing crouches, and in the air smashes straight down, breaking
//! cracked floor (`%`) underneath. Spikes, saws and falling out of the map
//! send the runner back to the level's start (coins taken stay taken; there
//! are no lives). Touching the flag finishes the level and the next one
//! starts; after the last the game is won.
//!
//! Seeds move each saw's phase (saws bob up and down by a few tenths of a
//! tile), so timings differ between seeds.
//!
//! Tile legend: `#` solid, `%` cracked floor, `^` spikes, `*` saw, `o` coin,
//! `S` start, `E` exit flag.
//!
//! State: `game_state.{level, score, completion_progress, distance_to_exit,
//! coins{collected_level, remaining_level, total_level}, player{x, y, vx,
//! vy, on_ground, on_wall, sliding, crouching, smashing}, entities}`,
//! `metrics.{coins, coins_total, primary_score, level_number, deaths,
//! distance_to_goal}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, rgb};
use crate::platform::{self, Aabb, Body, Camera, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "22_ovo";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const RUN_SPEED: f64 = 8.0;
const GROUND_ACCEL: f64 = 70.0;
const AIR_ACCEL: f64 = 45.0;
const FRICTION: f64 = 60.0;
pub const GRAVITY: f64 = 50.0;
pub const JUMP_SPEED: f64 = 16.0;
/// A wall jump: up this fast, and away from the wall this fast.
pub const WALL_JUMP_VY: f64 = 15.5;
pub const WALL_JUMP_VX: f64 = 6.0;
/// Fastest fall while sliding down a wall.
const WALL_SLIDE: f64 = 3.0;
const MAX_FALL: f64 = 20.0;
pub const SMASH_SPEED: f64 = 24.0;
pub const SLIDE_SPEED: f64 = 11.0;
/// How fast a slide loses speed, tiles/s².
const SLIDE_DRAG: f64 = 7.0;
const CRAWL_SPEED: f64 = 2.5;
pub const PLAYER_W: f64 = 0.7;
pub const STAND_H: f64 = 1.5;
pub const LOW_H: f64 = 0.7;
pub const COIN_POINTS: u32 = 10;
pub const LEVEL_POINTS: u32 = 100;

const TILE_PX: f64 = 40.0;
const VIEW_Y: f64 = 56.0;
const ROWS: usize = 16;

static LEVELS_TXT: &str = include_str!("levels/levels.txt");

/// A parsed level: the map without its start marker, and where things are.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelData {
    pub number: u32,
    pub map: TileMap,
    pub start: (f64, f64),
    pub exit: (i64, i64),
    pub coins_total: u32,
}

pub fn levels() -> &'static [LevelData] {
    static L: OnceLock<Vec<LevelData>> = OnceLock::new();
    L.get_or_init(|| {
        tilemap::parse_sections(LEVELS_TXT)
            .expect("bundled OvO levels parse")
            .into_iter()
            .enumerate()
            .map(|(i, sec)| {
                let mut map = sec.map;
                assert_eq!(map.height(), ROWS, "level {}", sec.label);
                let (sx, sy) = map.find(b'S').expect("a start");
                map.set(sx, sy, tilemap::EMPTY);
                LevelData {
                    number: i as u32 + 1,
                    start: (sx as f64 + 0.15, sy as f64 + 1.0 - STAND_H),
                    exit: map.find(b'E').expect("an exit"),
                    coins_total: map.find_all(b'o').len() as u32,
                    map,
                }
            })
            .collect()
    })
}

/// Coins in every level together.
pub fn coins_in_game() -> u32 {
    levels().iter().map(|l| l.coins_total).sum()
}

fn solid_kind(t: u8) -> Solidity {
    match t {
        b'#' | b'%' => Solidity::Solid,
        _ => Solidity::Empty,
    }
}

fn collider(map: &TileMap) -> Collider<'_, fn(u8) -> Solidity> {
    Collider {
        map,
        kind: solid_kind as fn(u8) -> Solidity,
        outside: tilemap::EMPTY,
        step_up: 0.0,
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Spikes,
    Saw,
    Fall,
}

/// A saw: a spinning blade on its tile, bobbing with a seeded phase.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saw {
    pub x: f64,
    pub y: f64,
    pub phase: f64,
}

impl Saw {
    /// Centre at game time `t` seconds.
    pub fn center(&self, t: f64) -> (f64, f64) {
        (
            self.x + 0.5,
            self.y + 0.5 + 0.3 * libm::sin(self.phase + 2.5 * t),
        )
    }
}

pub const SAW_RADIUS: f64 = 0.42;

/// The level in play: deterministic (no RNG), cloned by the expert.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: u32,
    pub map: TileMap,
    pub body: Body,
    pub jump: JumpAssist,
    pub keys: Keys,
    pub saws: Vec<Saw>,
    pub sliding: bool,
    pub crouching: bool,
    pub smashing: bool,
    /// -1 or 1 when touching a wall on that side in the air, else 0.
    pub on_wall: i8,
    pub facing: i8,
    /// Coins taken on this level.
    pub coins: u32,
    pub finished: bool,
    pub death: Option<Death>,
    pub ticks: u64,
}

impl World {
    pub fn new(level: u32, saws: Vec<Saw>) -> Self {
        let l = &levels()[level as usize - 1];
        let mut body = Body::new(l.start.0, l.start.1, PLAYER_W, STAND_H);
        body.on_ground = true;
        World {
            level,
            map: l.map.clone(),
            body,
            jump: JumpAssist::new(0.08, 0.12),
            keys: Keys::default(),
            saws,
            sliding: false,
            crouching: false,
            smashing: false,
            on_wall: 0,
            facing: 1,
            coins: 0,
            finished: false,
            death: None,
            ticks: 0,
        }
    }

    pub fn data(&self) -> &'static LevelData {
        &levels()[self.level as usize - 1]
    }

    pub fn time_s(&self) -> f64 {
        self.ticks as f64 * DT
    }

    /// A key going down or up (the role's four arrows). The expert drives
    /// its simulated copies through this same function.
    pub fn key(&mut self, key: &str, down: bool) {
        let k = &mut self.keys;
        match key {
            "ArrowLeft" => k.left = down,
            "ArrowRight" => k.right = down,
            "ArrowUp" => {
                if down && !k.up {
                    self.jump.press();
                }
                k.up = down;
            }
            "ArrowDown" => {
                if down && !k.down && !self.body.on_ground {
                    self.smashing = true;
                }
                k.down = down;
            }
            _ => {}
        }
    }

    /// Put the runner back at the level's start (after a death).
    pub fn respawn(&mut self) {
        let l = self.data();
        self.body = Body::new(l.start.0, l.start.1, PLAYER_W, STAND_H);
        self.body.on_ground = true;
        self.jump = JumpAssist::new(0.08, 0.12);
        self.sliding = false;
        self.crouching = false;
        self.smashing = false;
        self.on_wall = 0;
        self.death = None;
    }

    fn low(&self) -> bool {
        self.sliding || self.crouching
    }

    /// Change the body's height keeping its feet where they are; false (and
    /// no change) when standing up is blocked by a ceiling.
    fn set_height(&mut self, h: f64) -> bool {
        platform::resize_keep_feet(&mut self.body, &collider(&self.map), h)
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.finished || self.death.is_some() {
            return;
        }
        self.ticks += 1;
        let k = self.keys;
        let dir = (k.right as i8 - k.left as i8) as f64;
        if dir != 0.0 {
            self.facing = dir as i8;
        }
        let grounded = self.body.on_ground;
        // Low moves on the ground: a slide when running or steering, a
        // crouch when standing still.
        if grounded && k.down && !self.low() {
            if dir != 0.0 || self.body.vx.abs() > 3.0 {
                let d = if dir != 0.0 {
                    dir
                } else {
                    self.body.vx.signum()
                };
                self.sliding = true;
                self.body.vx = d * self.body.vx.abs().max(SLIDE_SPEED);
            } else {
                self.crouching = true;
            }
            self.set_height(LOW_H);
        }
        if self.low() && (!k.down || !grounded) && self.set_height(STAND_H) {
            self.sliding = false;
            self.crouching = false;
        }
        if self.sliding && self.body.vx.abs() < CRAWL_SPEED {
            self.sliding = false;
            self.crouching = true;
        }
        // Horizontal speed.
        let body = &mut self.body;
        if self.sliding {
            let s = (body.vx.abs() - SLIDE_DRAG * DT).max(0.0);
            body.vx = s * body.vx.signum();
        } else if self.smashing {
            body.vx = 0.0;
        } else {
            let top = if self.crouching {
                CRAWL_SPEED
            } else {
                RUN_SPEED
            };
            let accel = if grounded { GROUND_ACCEL } else { AIR_ACCEL } * DT;
            if dir != 0.0 {
                let t = dir * top;
                body.vx = if body.vx < t {
                    (body.vx + accel).min(t)
                } else {
                    (body.vx - accel).max(t)
                };
            } else if grounded {
                let f = FRICTION * DT;
                body.vx = if body.vx > 0.0 {
                    (body.vx - f).max(0.0)
                } else {
                    (body.vx + f).min(0.0)
                };
            }
        }
        // Jumps: from the ground (with coyote time), else off a wall.
        self.on_wall = if grounded {
            0
        } else {
            platform::wall_side(&self.body.aabb, &collider(&self.map), 0.05)
        };
        self.jump.update(grounded, DT);
        if !self.low() && !self.smashing && self.jump.take() {
            self.body.vy = -JUMP_SPEED;
        } else if self.on_wall != 0 && self.jump.pending() && !self.smashing {
            self.jump.cancel();
            self.body.vy = -WALL_JUMP_VY;
            self.body.vx = -(self.on_wall as f64) * WALL_JUMP_VX;
            self.on_wall = 0;
        }
        // Gravity, smash, wall slide.
        let body = &mut self.body;
        if self.smashing {
            body.vy = SMASH_SPEED;
        } else {
            body.vy = (body.vy + GRAVITY * DT).min(MAX_FALL);
            let pressing_wall = self.on_wall != 0 && dir == self.on_wall as f64;
            if pressing_wall && body.vy > WALL_SLIDE {
                body.vy = WALL_SLIDE;
            }
        }
        let falling = self.body.vy > 0.0;
        let c = platform::move_body(&mut self.body, &collider(&self.map), DT);
        if self.smashing && c.bottom && falling {
            // Break the cracked tiles under the feet and keep falling.
            let b = self.body.aabb;
            let row = b.bottom().floor() as i64;
            let (x0, _, x1, _) = b.tile_span();
            let mut broke = false;
            for x in x0..x1 {
                if self.map.at(x, row, b'.') == b'%' {
                    self.map.set(x, row, tilemap::EMPTY);
                    broke = true;
                }
            }
            if broke {
                // Neighbouring cracked tiles crumble too.
                for dx in [-1, 1] {
                    let mut x = if dx < 0 { x0 - 1 } else { x1 };
                    while self.map.at(x, row, b'.') == b'%' {
                        self.map.set(x, row, tilemap::EMPTY);
                        x += dx;
                    }
                }
                self.body.on_ground = false;
            } else {
                self.smashing = false;
            }
        }
        if self.body.on_ground && !self.smashing {
            self.on_wall = 0;
        }
        self.touch();
    }

    /// Pick-ups, hazards and the flag at the body's new place.
    fn touch(&mut self) {
        let b = self.body.aabb;
        let mut got = Vec::new();
        let (mut spiked, mut flag) = (false, false);
        platform::for_each_overlapping(&self.map, &b, |x, y, t| match t {
            b'o' => got.push((x, y)),
            b'^' => spiked |= b.overlaps(&Aabb::new(x as f64 + 0.1, y as f64 + 0.45, 0.8, 0.55)),
            b'E' => flag = true,
            _ => {}
        });
        for (x, y) in got {
            self.map.set(x, y, tilemap::EMPTY);
            self.coins += 1;
        }
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
        if self.death.is_none() && flag {
            self.finished = true;
        }
    }

    /// Straight-line distance from the runner to the flag, tiles.
    pub fn distance_to_exit(&self) -> f64 {
        let (ex, ey) = self.data().exit;
        let b = self.body.aabb;
        let (dx, dy) = (
            ex as f64 + 0.5 - b.center_x(),
            ey as f64 + 0.5 - b.center_y(),
        );
        (dx * dx + dy * dy).sqrt()
    }
}

fn spawn_saws(rng: &mut Rng, l: &LevelData) -> Vec<Saw> {
    l.map
        .find_all(b'*')
        .into_iter()
        .map(|(x, y)| Saw {
            x: x as f64,
            y: y as f64,
            phase: rng.range_f64(0.0, std::f64::consts::TAU),
        })
        .collect()
}

pub struct Ovo {
    seed: u64,
    first_level: u32,
    rng: Rng,
    clock: FixedStep,
    world: World,
    /// Coins over the whole run (all levels).
    coins: u32,
    levels_done: u32,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    terminal: Terminal,
    /// The expert's cached plan (see `expert.rs`).
    plan: RefCell<expert::Plan>,
}

impl Default for Ovo {
    fn default() -> Self {
        Self::new()
    }
}

impl Ovo {
    pub fn new() -> Self {
        Ovo {
            seed: 0,
            first_level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(1, Vec::new()),
            coins: 0,
            levels_done: 0,
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

    fn start_level(&mut self, level: u32) {
        let saws = spawn_saws(&mut self.rng, &levels()[level as usize - 1]);
        self.world = World::new(level, saws);
    }

    /// The level number the state reports: one past the last level once the
    /// game is won.
    fn level_number(&self) -> u32 {
        if self.world.finished {
            self.world.level + 1
        } else {
            self.world.level
        }
    }

    fn score(&self) -> u32 {
        self.coins * COIN_POINTS + self.levels_done * LEVEL_POINTS
    }
}

impl Game for Ovo {
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
        self.rng = Rng::new(self.seed, 0x0000_0220 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.coins = 0;
        self.levels_done = 0;
        self.deaths = 0;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        *self.plan.borrow_mut() = expert::Plan::default();
        self.start_level(self.first_level);
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
        let span = (l.exit.0 as f64 + 0.5 - l.start.0).max(1.0);
        let completion = if w.finished {
            1.0
        } else {
            ((b.center_x() - l.start.0) / span).clamp(0.0, 1.0)
        };
        let level = self.level_number();
        set(&mut s.game_state, "level", level);
        set(&mut s.game_state, "score", self.score());
        set(&mut s.game_state, "completion_progress", round2(completion));
        set(
            &mut s.game_state,
            "distance_to_exit",
            round2(w.distance_to_exit()),
        );
        set(
            &mut s.game_state,
            "coins",
            json!({
                "collected_level": w.coins,
                "remaining_level": l.coins_total - w.coins,
                "total_level": l.coins_total,
            }),
        );
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(b.x), "y": round2(b.y), "vx": round2(w.body.vx),
                "vy": round2(w.body.vy), "on_ground": w.body.on_ground,
                "on_wall": w.on_wall, "sliding": w.sliding,
                "crouching": w.crouching, "smashing": w.smashing,
            }),
        );
        let t = w.time_s();
        let mut ents: Vec<Value> = w
            .saws
            .iter()
            .map(|sw| {
                let (cx, cy) = sw.center(t);
                json!({"type": "saw", "x": round2(cx), "y": round2(cy), "radius": SAW_RADIUS})
            })
            .collect();
        for (t, name) in [(b'o', "coin"), (b'%', "cracked_floor")] {
            for (x, y) in w.map.find_all(t) {
                ents.push(json!({"type": name, "x": x, "y": y}));
            }
        }
        ents.push(json!({"type": "exit", "x": l.exit.0, "y": l.exit.1}));
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.metrics, "coins", self.coins);
        set(&mut s.metrics, "coins_total", coins_in_game());
        set(&mut s.metrics, "primary_score", self.score());
        set(&mut s.metrics, "level_number", level);
        set(&mut s.metrics, "deaths", self.deaths);
        set(
            &mut s.metrics,
            "distance_to_goal",
            round2(w.distance_to_exit()),
        );
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
            let before = self.world.coins;
            self.world.tick();
            self.coins += self.world.coins - before;
            if self.world.death.is_some() {
                self.deaths += 1;
                self.world.respawn();
            } else if self.world.finished {
                self.levels_done += 1;
                if self.world.level as usize == levels().len() {
                    self.terminal = Terminal::ended(Outcome::Success, "finished the last level");
                } else {
                    let keys = self.world.keys;
                    self.start_level(self.world.level + 1);
                    self.world.keys = keys;
                }
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        let coins_task = task.score_field.ends_with("coins");
        json!({"action": expert::choose(&self.world, coins_task, &mut self.plan.borrow_mut())})
    }
}

// ---------------------------------------------------------------- rendering

fn camera(w: &World) -> Camera {
    let mut cam = Camera::new(1280.0 / TILE_PX, ROWS as f64, TILE_PX, (0.0, VIEW_Y));
    let b = w.body.aabb;
    cam.follow(
        b.center_x(),
        b.center_y(),
        (0.4, 0.5),
        w.map.width() as f64,
        ROWS as f64,
    );
    // Whole pixels: every tile edge then lands on a pixel boundary and
    // neighbouring tiles meet without a 1-px seam.
    cam.x = (cam.x * TILE_PX).round() / TILE_PX;
    cam.y = (cam.y * TILE_PX).round() / TILE_PX;
    cam
}

fn render(g: &Ovo, pm: &mut Pixmap) {
    let w = &g.world;
    let cam = camera(w);
    let s = TILE_PX as f32;
    draw::clear(pm, rgb(232, 236, 240));
    let (x0, y0, x1, y1) = cam.visible_tiles();
    w.map.for_each_in(x0, y0, x1, y1, |x, y, t| {
        let (sx, sy) = cam.to_screen(x as f64, y as f64);
        match t {
            b'#' => draw::rect(pm, sx, sy, s, s, rgb(40, 44, 52)),
            b'%' => {
                draw::rect(pm, sx, sy, s, s, rgb(120, 110, 100));
                draw::line(
                    pm,
                    sx + 6.0,
                    sy + 4.0,
                    sx + s * 0.5,
                    sy + s * 0.6,
                    3.0,
                    rgb(50, 45, 40),
                );
                draw::line(
                    pm,
                    sx + s * 0.5,
                    sy + s * 0.6,
                    sx + s - 8.0,
                    sy + s - 4.0,
                    3.0,
                    rgb(50, 45, 40),
                );
            }
            b'^' => {
                for k in 0..2 {
                    let xa = sx + k as f32 * s / 2.0;
                    draw::polygon(
                        pm,
                        &[
                            (xa, sy + s),
                            (xa + s / 2.0, sy + s),
                            (xa + s / 4.0, sy + s * 0.45),
                        ],
                        rgb(220, 40, 40),
                    );
                }
            }
            b'o' => {
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 11.0, rgb(180, 130, 0));
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 8.0, rgb(255, 205, 40));
            }
            b'E' => {
                draw::rect(pm, sx + 8.0, sy - s * 1.5, 4.0, s * 2.5, rgb(60, 60, 60));
                draw::polygon(
                    pm,
                    &[
                        (sx + 12.0, sy - s * 1.5),
                        (sx + s + 6.0, sy - s * 1.1),
                        (sx + 12.0, sy - s * 0.7),
                    ],
                    rgb(40, 190, 90),
                );
            }
            _ => {}
        }
    });
    let t = w.time_s();
    for sw in &w.saws {
        let (cx, cy) = sw.center(t);
        let (px, py) = cam.to_screen(cx, cy);
        let r = (SAW_RADIUS * TILE_PX) as f32;
        let spin = (t * 9.0) as f32;
        let teeth: Vec<(f32, f32)> = (0..16)
            .map(|i| {
                let a = spin + i as f32 * std::f32::consts::PI / 8.0;
                let rr = if i % 2 == 0 { r } else { r * 0.75 };
                (px + rr * libm::cosf(a), py + rr * libm::sinf(a))
            })
            .collect();
        draw::polygon(pm, &teeth, rgb(150, 150, 160));
        draw::circle(pm, px, py, r * 0.3, rgb(60, 60, 70));
    }
    // The runner: a stick figure, low when sliding or crouching.
    let b = w.body.aabb;
    let (sx, sy) = cam.to_screen(b.x, b.y);
    let (bw, bh) = ((b.w * TILE_PX) as f32, (b.h * TILE_PX) as f32);
    let ink = rgb(15, 15, 20);
    let head_r = if w.low() { bh * 0.3 } else { bh * 0.16 };
    let (hx, hy) = (sx + bw / 2.0 + w.facing as f32 * 3.0, sy + head_r);
    draw::circle(pm, hx, hy, head_r, ink);
    if w.low() {
        draw::line(
            pm,
            hx,
            hy,
            hx - w.facing as f32 * bw * 0.9,
            sy + bh - 3.0,
            5.0,
            ink,
        );
    } else {
        let hip = (sx + bw / 2.0, sy + bh * 0.65);
        draw::line(pm, hx, hy, hip.0, hip.1, 5.0, ink);
        let stride = ((w.ticks / 20) % 2) as f32 * 2.0 - 1.0;
        let run = if w.body.vx.abs() > 0.5 && w.body.on_ground {
            stride * bw * 0.35
        } else {
            bw * 0.2
        };
        draw::line(pm, hip.0, hip.1, hip.0 + run, sy + bh, 4.0, ink);
        draw::line(pm, hip.0, hip.1, hip.0 - run, sy + bh, 4.0, ink);
        draw::line(
            pm,
            hip.0,
            sy + bh * 0.38,
            hip.0 + w.facing as f32 * bw * 0.5,
            sy + bh * 0.5,
            4.0,
            ink,
        );
    }
    let l = w.data();
    draw::hud(
        pm,
        &format!("OvO - Level {} of {}", w.level, levels().len()),
        &[
            ("Coins", format!("{}/{}", w.coins, l.coins_total)),
            ("Deaths", g.deaths.to_string()),
            ("Time", format!("{:.1}s", g.game_time_ms as f64 / 1000.0)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "ALL LEVELS CLEAR",
        &format!("Coins {}", g.coins),
    );
}
