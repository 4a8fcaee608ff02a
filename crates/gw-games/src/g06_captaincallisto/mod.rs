//! 06_captaincallisto — a one-screen platform adventure on five levels
//! (tile data in `levels/levels.txt`, one `---N` section per level). The
//! captain walks, jumps, climbs ladders and, after picking up fuel cans,
//! flies with a jetpack. The score counts coins, 1 point each (each level
//! holds exactly the coins its task asks for, as in the original's tasks);
//! reaching the exit ends the level and adds nothing. Spikes and alien
//! walkers (unless landed on from above, which defeats them) cost a life and
//! send the captain back to the start, where he waits for a key before moving
//! again, as in the original; collected coins stay collected. After the last
//! of [`START_LIVES`] lives the game is over. `r` restarts the level from
//! scratch.
//!
//! Seeds shift where each walker starts on its ledge and which way it first
//! walks, so timings differ per seed.
//!
//! Tile legend: `#` rock, `=` ledge (jump up through it, stand on it),
//! `H` ladder, `^` spikes, `c` coin, `f` fuel can, `x` walker, `S` start,
//! `E` exit.
//!
//! State: `game_state.{score, level, completion_progress, player{x, y, vx,
//! vy, fuel, on_ground, climbing}, entities}`, `metrics.{coins, coins_total,
//! lives, deaths, kills, distance_to_goal}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use crate::platform::{self, Aabb, Body, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "06_captaincallisto";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const WALK_SPEED: f64 = 5.0;
const ACCEL: f64 = 50.0;
const FRICTION: f64 = 40.0;
const AIR_DRAG: f64 = 6.0;
pub const GRAVITY: f64 = 32.0;
pub const JUMP_SPEED: f64 = 12.5;
/// Upward acceleration of the jetpack while it burns, tiles/s².
pub const THRUST: f64 = 62.0;
const MAX_RISE: f64 = 6.0;
pub const CLIMB_SPEED: f64 = 4.0;
const MAX_FALL: f64 = 16.0;
/// Seconds of thrust a fuel can holds, and the tank's size.
pub const FUEL_PER_CAN: f64 = 1.2;
pub const MAX_FUEL: f64 = 3.0;
pub const WALKER_SPEED: f64 = 1.5;
pub const START_LIVES: u32 = 3;
const PLAYER: (f64, f64) = (0.7, 0.9);
const WALKER: (f64, f64) = (0.9, 0.7);

const TILE_PX: f64 = 48.0;
const COLS: usize = 26;
const ROWS: usize = 13;
const ORIGIN: (f64, f64) = ((1280.0 - COLS as f64 * TILE_PX) / 2.0, 62.0);

static LEVELS_TXT: &str = include_str!("levels/levels.txt");

/// A parsed level: the map without its movable things, and where they are.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelData {
    pub number: u32,
    pub map: TileMap,
    pub start: (f64, f64),
    pub exit: (i64, i64),
    pub walkers: Vec<(i64, i64)>,
    pub coins_total: u32,
}

pub fn levels() -> &'static [LevelData] {
    static L: OnceLock<Vec<LevelData>> = OnceLock::new();
    L.get_or_init(|| {
        tilemap::parse_sections(LEVELS_TXT)
            .expect("bundled callisto levels parse")
            .into_iter()
            .enumerate()
            .map(|(i, sec)| {
                let mut map = sec.map;
                assert_eq!(
                    (map.width(), map.height()),
                    (COLS, ROWS),
                    "level {}",
                    sec.label
                );
                let (sx, sy) = map.find(b'S').expect("a start");
                map.set(sx, sy, tilemap::EMPTY);
                let exit = map.find(b'E').expect("an exit");
                let walkers = map.find_all(b'x');
                for &(x, y) in &walkers {
                    map.set(x, y, tilemap::EMPTY);
                }
                let coins_total = map.find_all(b'c').len() as u32;
                LevelData {
                    number: i as u32 + 1,
                    map,
                    start: (sx as f64 + 0.15, sy as f64 + 1.0 - PLAYER.1),
                    exit,
                    walkers,
                    coins_total,
                }
            })
            .collect()
    })
}

fn solid_kind(t: u8) -> Solidity {
    match t {
        b'#' => Solidity::Solid,
        b'=' => Solidity::OneWay,
        _ => Solidity::Empty,
    }
}

fn climbing_kind(t: u8) -> Solidity {
    match t {
        b'#' => Solidity::Solid,
        _ => Solidity::Empty,
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
    pub jet: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Walker {
    pub body: Body,
    pub alive: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Spikes,
    Alien,
    Fall,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Spikes => "landed on spikes",
            Death::Alien => "touched an alien",
            Death::Fall => "fell into a pit",
        }
    }
}

/// The level in play: deterministic (no RNG), cloned by the expert.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: u32,
    pub map: TileMap,
    pub body: Body,
    pub jump: JumpAssist,
    pub keys: Keys,
    pub fuel: f64,
    pub climbing: bool,
    pub walkers: Vec<Walker>,
    pub coins: u32,
    pub kills: u32,
    pub exited: bool,
    /// Set by a death until the game respawns the captain.
    pub death: Option<Death>,
    /// After a respawn the captain waits for a key.
    pub waiting: bool,
    pub facing: i8,
    pub ticks: u64,
}

impl World {
    pub fn new(level: u32, walkers: Vec<Walker>) -> Self {
        let l = &levels()[level as usize - 1];
        let mut body = Body::new(l.start.0, l.start.1, PLAYER.0, PLAYER.1);
        body.on_ground = true;
        World {
            level,
            map: l.map.clone(),
            body,
            jump: JumpAssist::new(0.06, 0.1),
            keys: Keys::default(),
            fuel: 0.0,
            climbing: false,
            walkers,
            coins: 0,
            kills: 0,
            exited: false,
            death: None,
            waiting: false,
            facing: 1,
            ticks: 0,
        }
    }

    pub fn data(&self) -> &'static LevelData {
        &levels()[self.level as usize - 1]
    }

    /// Coins collected: the exit ends the level but scores nothing.
    pub fn score(&self) -> u32 {
        self.coins
    }

    pub fn press_jump(&mut self) {
        self.waiting = false;
        self.jump.press();
    }

    /// A key going down or up: the role's bindings (restart aside, which the
    /// game handles). Any binding pressed ends the wait after a respawn. The
    /// expert drives its simulated copies through this same function.
    pub fn key(&mut self, key: &str, down: bool) {
        let k = &mut self.keys;
        match key {
            "ArrowLeft" | "a" | "A" => k.left = down,
            "ArrowRight" | "d" | "D" => k.right = down,
            "ArrowUp" | "w" | "W" => k.up = down,
            "ArrowDown" | "s" | "S" => k.down = down,
            "Shift" => k.jet = down,
            "Space" => {
                if down {
                    self.press_jump();
                }
                return;
            }
            _ => return,
        }
        if down {
            self.waiting = false;
        }
    }

    fn touches(&self, b: &Aabb, tile: u8) -> bool {
        let mut hit = false;
        platform::for_each_overlapping(&self.map, b, |_, _, t| hit |= t == tile);
        hit
    }

    /// Put the captain back at the start (after a death).
    pub fn respawn(&mut self) {
        let l = self.data();
        self.body = Body::new(l.start.0, l.start.1, PLAYER.0, PLAYER.1);
        self.body.on_ground = true;
        self.jump = JumpAssist::new(0.06, 0.1);
        self.climbing = false;
        self.death = None;
        self.waiting = true;
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.exited || self.death.is_some() {
            return;
        }
        self.ticks += 1;
        self.tick_walkers();
        if self.waiting {
            return;
        }
        let k = self.keys;
        let b = self.body.aabb;
        // Ladders: hold up or down on one to climb; the climb zone reaches a
        // little over a tile below the feet, so a climb carries the captain
        // onto the ledge a ladder leads up to, and down through that ledge
        // onto the ladder again.
        let zone = Aabb::new(b.x + 0.2, b.y, b.w - 0.4, b.h + 1.05);
        let on_ladder = self.touches(&zone, b'H');
        if (k.up || k.down) && on_ladder {
            self.climbing = true;
        }
        if !on_ladder {
            self.climbing = false;
        }
        // Walk.
        let dir = (k.right as i8 - k.left as i8) as f64;
        let body = &mut self.body;
        if dir != 0.0 {
            self.facing = dir as i8;
            let a = ACCEL * DT;
            let t = dir * WALK_SPEED;
            body.vx = if body.vx < t {
                (body.vx + a).min(t)
            } else {
                (body.vx - a).max(t)
            };
        } else {
            let f = if body.on_ground || self.climbing {
                FRICTION
            } else {
                AIR_DRAG
            } * DT;
            body.vx = if body.vx > 0.0 {
                (body.vx - f).max(0.0)
            } else {
                (body.vx + f).min(0.0)
            };
        }
        // Jump, jetpack, climb, gravity.
        self.jump.update(body.on_ground || self.climbing, DT);
        if self.jump.take() {
            body.vy = -JUMP_SPEED;
            self.climbing = false;
        }
        if self.climbing {
            body.vy = CLIMB_SPEED * (k.down as i8 - k.up as i8) as f64;
        } else {
            body.vy += GRAVITY * DT;
            if k.jet && self.fuel > 0.0 {
                body.vy = (body.vy - THRUST * DT).max(-MAX_RISE);
                self.fuel = (self.fuel - DT).max(0.0);
            }
            body.vy = body.vy.min(MAX_FALL);
        }
        let kind: fn(u8) -> Solidity = if self.climbing {
            climbing_kind
        } else {
            solid_kind
        };
        let world = Collider {
            map: &self.map,
            kind,
            outside: b'#',
            step_up: 0.0,
        };
        platform::move_body(&mut self.body, &world, DT);
        // Pick-ups, spikes, exit.
        let b = self.body.aabb;
        let mut got = Vec::new();
        let mut spiked = false;
        let mut exit = false;
        platform::for_each_overlapping(&self.map, &b, |x, y, t| match t {
            b'c' | b'f' => got.push((x, y, t)),
            b'^' => spiked |= b.overlaps(&Aabb::new(x as f64 + 0.1, y as f64 + 0.5, 0.8, 0.5)),
            b'E' => exit = true,
            _ => {}
        });
        for (x, y, t) in got {
            self.map.set(x, y, tilemap::EMPTY);
            if t == b'c' {
                self.coins += 1;
            } else {
                self.fuel = (self.fuel + FUEL_PER_CAN).min(MAX_FUEL);
            }
        }
        if spiked {
            self.death = Some(Death::Spikes);
            return;
        }
        if exit {
            self.exited = true;
            return;
        }
        // Sinking into the floor row means a pit (the map's outside is rock,
        // so the body comes to rest just below it).
        if b.bottom() > ROWS as f64 - 0.5 {
            self.death = Some(Death::Fall);
            return;
        }
        // Walkers.
        for w in &mut self.walkers {
            if !w.alive || !b.overlaps(&w.body.aabb) {
                continue;
            }
            if self.body.vy > 0.0 && b.bottom() <= w.body.aabb.y + 0.35 {
                w.alive = false;
                self.kills += 1;
                self.body.vy = -JUMP_SPEED * 0.6;
            } else {
                self.death = Some(Death::Alien);
                return;
            }
        }
    }

    fn tick_walkers(&mut self) {
        let world = Collider {
            map: &self.map,
            kind: solid_kind as fn(u8) -> Solidity,
            outside: b'#',
            step_up: 0.0,
        };
        for w in &mut self.walkers {
            if !w.alive {
                continue;
            }
            // Turn at walls and at ledge ends.
            let b = w.body.aabb;
            let ahead_x = if w.body.vx > 0.0 {
                b.right() + 0.05
            } else {
                b.x - 0.05
            };
            let below = world
                .map
                .at(ahead_x.floor() as i64, b.bottom().floor() as i64, b'#');
            let ground_ahead = solid_kind(below) != Solidity::Empty;
            if !ground_ahead {
                w.body.vx = -w.body.vx;
            }
            w.body.vy = (w.body.vy + GRAVITY * DT).min(MAX_FALL);
            let vx = w.body.vx;
            let c = platform::move_body(&mut w.body, &world, DT);
            if c.left || c.right {
                w.body.vx = -vx;
            }
        }
    }

    /// Straight-line distance from the captain to the exit, tiles.
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

fn spawn_walkers(rng: &mut Rng, l: &LevelData) -> Vec<Walker> {
    l.walkers
        .iter()
        .map(|&(x, y)| {
            let nudge = rng.range_f64(-0.5, 0.5);
            let mut body = Body::new(
                x as f64 + 0.05 + nudge,
                y as f64 + 1.0 - WALKER.1,
                WALKER.0,
                WALKER.1,
            );
            body.vx = if rng.chance(0.5) {
                WALKER_SPEED
            } else {
                -WALKER_SPEED
            };
            Walker { body, alive: true }
        })
        .collect()
}

pub struct CaptainCallisto {
    seed: u64,
    level: u32,
    rng: Rng,
    clock: FixedStep,
    world: World,
    lives: u32,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    terminal: Terminal,
    /// The expert's cached plan (see `expert.rs`).
    plan: RefCell<expert::Plan>,
}

impl Default for CaptainCallisto {
    fn default() -> Self {
        Self::new()
    }
}

impl CaptainCallisto {
    pub fn new() -> Self {
        CaptainCallisto {
            seed: 0,
            level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(1, Vec::new()),
            lives: START_LIVES,
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

    fn start_level(&mut self) {
        let walkers = spawn_walkers(&mut self.rng, &levels()[self.level as usize - 1]);
        self.world = World::new(self.level, walkers);
    }

    fn key(&mut self, key: &str, down: bool) {
        if matches!(key, "r" | "R") {
            if down && !self.terminal.is_terminal {
                self.start_level();
            }
            return;
        }
        self.world.key(key, down);
    }
}

impl Game for CaptainCallisto {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level = config.level.unwrap_or(1).clamp(1, levels().len() as u32);
        self.deaths = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(
            self.seed,
            0xCA11_0000 + episode as u64 * 8 + self.level as u64,
        );
        self.clock = FixedStep::new(TICK_MS);
        self.lives = START_LIVES;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        *self.plan.borrow_mut() = expert::Plan::default();
        self.start_level();
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let status = if w.waiting && !self.terminal.is_terminal {
            gw_core::Status::Ready
        } else {
            self.terminal.status()
        };
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let l = w.data();
        let b = w.body.aabb;
        let (sx, sy) = l.start;
        let (ex, ey) = l.exit;
        let total = ((ex as f64 - sx).powi(2) + (ey as f64 - sy).powi(2))
            .sqrt()
            .max(1.0);
        let completion = if w.exited {
            1.0
        } else {
            (1.0 - w.distance_to_exit() / total).clamp(0.0, 1.0)
        };
        set(&mut s.game_state, "score", w.score());
        set(&mut s.game_state, "level", self.level);
        set(&mut s.game_state, "progress", round2(completion));
        set(&mut s.game_state, "completion_progress", round2(completion));
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(b.x), "y": round2(b.y), "vx": round2(w.body.vx), "vy": round2(w.body.vy),
                "fuel": round2(w.fuel), "on_ground": w.body.on_ground, "climbing": w.climbing,
                "waiting_for_input": w.waiting,
            }),
        );
        let mut ents: Vec<Value> = w
            .walkers
            .iter()
            .filter(|a| a.alive)
            .map(|a| json!({"type": "alien", "x": round2(a.body.aabb.x), "y": round2(a.body.aabb.y), "vx": a.body.vx}))
            .collect();
        for t in [b'c', b'f'] {
            for (x, y) in w.map.find_all(t) {
                ents.push(json!({"type": if t == b'c' { "coin" } else { "fuel" }, "x": x, "y": y}));
            }
        }
        ents.push(json!({"type": "exit", "x": ex, "y": ey}));
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.metrics, "coins", w.coins);
        set(&mut s.metrics, "coins_total", l.coins_total);
        set(&mut s.metrics, "lives", self.lives);
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "kills", w.kills);
        set(
            &mut s.metrics,
            "distance_to_goal",
            round2(w.distance_to_exit()),
        );
        set(&mut s.raw, "episode", self.episode);
        set(
            &mut s.raw,
            "keys",
            json!({"left": w.keys.left, "right": w.keys.right, "up": w.keys.up, "down": w.keys.down, "jetpack": w.keys.jet}),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if let Some((key, down)) = event.key_change() {
            self.key(key, down);
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.game_time_ms += TICK_MS;
            self.world.tick();
            if let Some(d) = self.world.death {
                self.deaths += 1;
                self.lives -= 1;
                if self.lives == 0 {
                    self.terminal =
                        Terminal::ended(Outcome::Fail, format!("out of lives: {}", d.reason()));
                } else {
                    self.world.respawn();
                    self.world.keys = Keys::default();
                }
            } else if self.world.exited {
                self.terminal = Terminal::ended(Outcome::Success, "reached the exit");
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(&self.world, task.target, &mut self.plan.borrow_mut())})
    }
}

// ---------------------------------------------------------------- rendering

fn render(g: &CaptainCallisto, pm: &mut Pixmap) {
    let w = &g.world;
    let s = TILE_PX as f32;
    draw::clear(pm, rgb(18, 14, 38));
    let to_screen = |x: f64, y: f64| {
        (
            (ORIGIN.0 + x * TILE_PX) as f32,
            (ORIGIN.1 + y * TILE_PX) as f32,
        )
    };
    // Starfield.
    for k in 0..60u32 {
        let x = (k * 97 % 1260) as f32 + 10.0;
        let y = (k * 53 % 640) as f32 + 70.0;
        draw::circle(pm, x, y, 1.5, rgb(120, 120, 170));
    }
    w.map
        .for_each_in(0, 0, COLS as i64, ROWS as i64, |x, y, t| {
            let (sx, sy) = to_screen(x as f64, y as f64);
            match t {
                b'#' => {
                    draw::rect(pm, sx, sy, s, s, rgb(70, 60, 90));
                    draw::rect(pm, sx + 2.0, sy + 2.0, s - 4.0, s - 4.0, rgb(110, 96, 140));
                }
                b'=' => {
                    draw::rect(pm, sx, sy, s, 12.0, rgb(200, 150, 80));
                    draw::rect(pm, sx, sy + 10.0, s, 3.0, rgb(120, 80, 40));
                }
                b'H' => {
                    draw::rect(pm, sx + 8.0, sy, 5.0, s, rgb(210, 180, 120));
                    draw::rect(pm, sx + s - 13.0, sy, 5.0, s, rgb(210, 180, 120));
                    for k in 0..3 {
                        draw::rect(
                            pm,
                            sx + 8.0,
                            sy + 8.0 + k as f32 * 15.0,
                            s - 16.0,
                            4.0,
                            rgb(210, 180, 120),
                        );
                    }
                }
                b'^' => {
                    for k in 0..3 {
                        let x0 = sx + k as f32 * s / 3.0;
                        draw::polygon(
                            pm,
                            &[
                                (x0, sy + s),
                                (x0 + s / 3.0, sy + s),
                                (x0 + s / 6.0, sy + s * 0.45),
                            ],
                            rgb(230, 60, 60),
                        );
                    }
                }
                b'c' => {
                    draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 12.0, rgb(170, 120, 0));
                    draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 9.0, rgb(255, 210, 50));
                }
                b'f' => {
                    draw::rounded_rect(
                        pm,
                        sx + 12.0,
                        sy + 8.0,
                        s - 24.0,
                        s - 12.0,
                        5.0,
                        rgb(40, 200, 120),
                    );
                    draw::text(
                        pm,
                        "F",
                        sx + s / 2.0,
                        sy + 14.0,
                        18.0,
                        rgb(10, 40, 20),
                        Align::Center,
                    );
                }
                b'E' => {
                    draw::rect(
                        pm,
                        sx + 4.0,
                        sy - s + 4.0,
                        s - 8.0,
                        2.0 * s - 4.0,
                        rgb(40, 220, 240),
                    );
                    draw::rect(
                        pm,
                        sx + 10.0,
                        sy - s + 10.0,
                        s - 20.0,
                        2.0 * s - 10.0,
                        rgb(10, 60, 90),
                    );
                    draw::text(
                        pm,
                        "EXIT",
                        sx + s / 2.0,
                        sy - s - 22.0,
                        18.0,
                        rgb(40, 220, 240),
                        Align::Center,
                    );
                }
                _ => {}
            }
        });
    for a in w.walkers.iter().filter(|a| a.alive) {
        let (sx, sy) = to_screen(a.body.aabb.x, a.body.aabb.y);
        let (aw, ah) = (
            (a.body.aabb.w * TILE_PX) as f32,
            (a.body.aabb.h * TILE_PX) as f32,
        );
        draw::rounded_rect(pm, sx, sy, aw, ah, 12.0, rgb(120, 220, 60));
        draw::circle(pm, sx + aw * 0.5, sy + ah * 0.4, 8.0, rgb(255, 255, 255));
        draw::circle(pm, sx + aw * 0.5, sy + ah * 0.4, 4.0, rgb(200, 0, 0));
    }
    let b = w.body.aabb;
    let (sx, sy) = to_screen(b.x, b.y);
    let (pw, ph) = ((b.w * TILE_PX) as f32, (b.h * TILE_PX) as f32);
    let back = if w.facing > 0 {
        sx - 8.0
    } else {
        sx + pw - 2.0
    };
    draw::rounded_rect(
        pm,
        back,
        sy + ph * 0.3,
        10.0,
        ph * 0.45,
        3.0,
        rgb(150, 150, 160),
    );
    if w.keys.jet && w.fuel > 0.0 && !w.waiting {
        draw::polygon(
            pm,
            &[
                (back, sy + ph * 0.75),
                (back + 10.0, sy + ph * 0.75),
                (back + 5.0, sy + ph + 14.0),
            ],
            rgb(255, 160, 40),
        );
    }
    draw::rounded_rect(
        pm,
        sx,
        sy + ph * 0.25,
        pw,
        ph * 0.75,
        6.0,
        rgb(240, 240, 250),
    );
    draw::circle(
        pm,
        sx + pw / 2.0,
        sy + ph * 0.22,
        ph * 0.24,
        rgb(240, 240, 250),
    );
    draw::circle(
        pm,
        sx + pw / 2.0 + w.facing as f32 * 4.0,
        sy + ph * 0.22,
        ph * 0.15,
        rgb(60, 140, 220),
    );
    let fuel_bar = format!("{:.1}s", w.fuel);
    draw::hud(
        pm,
        &format!("Captain Callisto - Level {}", g.level),
        &[
            ("Coins", format!("{}/{}", w.coins, w.data().coins_total)),
            ("Fuel", fuel_bar),
            ("Lives", g.lives.to_string()),
        ],
    );
    if w.waiting && !g.terminal.is_terminal {
        draw::banner(pm, "READY", "press any move key to start");
    }
    draw::end_banner(
        pm,
        &g.terminal,
        "LEVEL CLEAR",
        &format!("Score {}", w.score()),
    );
}
