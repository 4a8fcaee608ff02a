//! 24_restless-wing-syndrome — a small bird with a hurt wing cannot stop
//! flapping. It hops across snowy rooftops, one screen per level, to the
//! piece of bread that ends each level (levels in `levels/levels.txt`,
//! parsed with [`crate::tilemap`], moved with [`crate::platform`]).
//!
//! The flap meter (top left) holds `flap_max` cells and loses one cell every
//! [`CELL_MS`]; when it runs empty the bird flaps by itself (an upward kick
//! of [`FLAP_SPEED`]), on the ground or in the air, and the meter refills.
//! The player only steers: ArrowLeft/ArrowRight move the bird, and holding
//! ArrowUp in the air glides — the fall is held to [`GLIDE_FALL`] — at the
//! price of draining the meter twice as fast, so the next flap comes sooner.
//! Gliding through a run of flaps therefore climbs, letting go sinks.
//!
//! Icy water (`~`) and, unless the level is started with
//! `harmless_spikes` (as every task does), spikes and icicles cost an
//! attempt: the bird is put back at the level's start (`metrics.deaths`
//! counts these). Crumbs are worth 10 points, the bread 100 and the next
//! level; eating the bread of level 5 wins the game (`game_state.level`
//! then reads 6).
//!
//! Seeds (and each attempt) decide how full the flap meter is at the start
//! and nudge the start position, so flap timing differs between runs.
//!
//! State: `game_state.{score, level, completion_progress, player, exit,
//! entities, harmless_spikes}`, `metrics.{deaths, flap_max, flap_target,
//! flap_meter, flap_meter_ms, flaps, crumbs, crumbs_total,
//! levels_completed, distance_to_exit, level_time_ms}`; `flap_target` is
//! the time in ms a full meter lasts before the automatic flap.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::platform::{self, Aabb, Body, Collider, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "24_restless-wing-syndrome";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Downward acceleration, tiles/s².
pub const GRAVITY: f64 = 28.0;
/// Upward speed of a flap, tiles/s (rises about 2.4 tiles).
pub const FLAP_SPEED: f64 = 11.5;
pub const MAX_FALL: f64 = 14.0;
/// Fastest fall while gliding, tiles/s.
pub const GLIDE_FALL: f64 = 2.0;
/// Steering speed, tiles/s.
pub const MOVE_SPEED: f64 = 6.0;
const STEER_ACCEL: f64 = 40.0;
const AIR_DRAG: f64 = 12.0;
const GROUND_FRICTION: f64 = 40.0;
/// Time one cell of the flap meter lasts (half while gliding).
pub const CELL_MS: u64 = 300;
pub const LEVELS: u32 = 5;
pub const COLS: usize = 32;
pub const ROWS: usize = 16;
pub const POINTS_CRUMB: u32 = 10;
pub const POINTS_BREAD: u32 = 100;
const BIRD: (f64, f64) = (0.7, 0.6);

const TILE_PX: f64 = 40.0;
const ORIGIN_Y: f64 = 60.0;

static LEVELS_TXT: &str = include_str!("levels/levels.txt");

/// One parsed level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub number: u32,
    /// Terrain only (start, bread and crumbs taken out).
    pub map: TileMap,
    pub start: (f64, f64),
    pub bread: (i64, i64),
    pub crumbs: Vec<(i64, i64)>,
    pub flap_max: u32,
    /// Distance (tiles, along open tiles) to the bread, avoiding water and
    /// (second field) spikes too.
    pub field_harmless: Vec<f64>,
    pub field_harmful: Vec<f64>,
}

impl Level {
    pub fn bread_box(&self) -> Aabb {
        Aabb::new(
            self.bread.0 as f64 + 0.1,
            self.bread.1 as f64 + 0.3,
            0.8,
            0.7,
        )
    }

    /// Distance to the bread from point `(x, y)` along the level's open
    /// tiles (the field value of a nearby tile plus the straight hop to it).
    pub fn distance_to_bread(&self, x: f64, y: f64, harmless: bool) -> f64 {
        let field = if harmless {
            &self.field_harmless
        } else {
            &self.field_harmful
        };
        let (tx, ty) = (x.floor() as i64, y.floor() as i64);
        let mut best = f64::INFINITY;
        for ny in ty - 1..=ty + 1 {
            for nx in tx - 1..=tx + 1 {
                if nx < 0 || ny < 0 || nx >= COLS as i64 || ny >= ROWS as i64 {
                    continue;
                }
                let d = field[ny as usize * COLS + nx as usize];
                let (cx, cy) = (nx as f64 + 0.5, ny as f64 + 0.5);
                let hop = ((cx - x).powi(2) + (cy - y).powi(2)).sqrt();
                best = best.min(d + hop);
            }
        }
        best
    }
}

fn parse_levels() -> Result<Vec<Level>, String> {
    let secs = tilemap::parse_sections(LEVELS_TXT)?;
    let mut out = Vec::new();
    for (i, s) in secs.iter().enumerate() {
        let number = i as u32 + 1;
        let mut words = s.label.split_whitespace();
        if words.next() != Some(number.to_string().as_str()) {
            return Err(format!("section {} should be labelled {number}", s.label));
        }
        let flap_max = words
            .find_map(|w| w.strip_prefix("flap_max="))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("level {number}: the label needs flap_max=N"))?;
        let mut map = s.map.clone();
        if (map.width(), map.height()) != (COLS, ROWS) {
            return Err(format!("level {number} must be {COLS}x{ROWS} tiles"));
        }
        let (sx, sy) = map.find(b'S').ok_or(format!("level {number} has no S"))?;
        let bread = map.find(b'B').ok_or(format!("level {number} has no B"))?;
        let crumbs = map.find_all(b'c');
        for &(x, y) in crumbs.iter().chain([(sx, sy), bread].iter()) {
            map.set(x, y, tilemap::EMPTY);
        }
        let field_harmless = tilemap::distance_field(&map, &[bread], |t| !matches!(t, b'#' | b'~'));
        let field_harmful =
            tilemap::distance_field(&map, &[bread], |t| !matches!(t, b'#' | b'~' | b'^' | b'v'));
        out.push(Level {
            number,
            map,
            start: (sx as f64 + 0.15, sy as f64 + 1.0 - BIRD.1),
            bread,
            crumbs,
            flap_max,
            field_harmless,
            field_harmful,
        });
    }
    if out.len() != LEVELS as usize {
        return Err(format!("expected {LEVELS} levels, found {}", out.len()));
    }
    Ok(out)
}

/// Level `n` (1..=5; others clamp).
pub fn level(n: u32) -> &'static Level {
    static L: OnceLock<Vec<Level>> = OnceLock::new();
    let all = L.get_or_init(|| parse_levels().expect("bundled wing levels parse"));
    &all[n.clamp(1, LEVELS) as usize - 1]
}

fn solidity(t: u8) -> Solidity {
    match t {
        b'#' => Solidity::Solid,
        _ => Solidity::Empty,
    }
}

/// The part of a hazard tile that hurts.
fn hazard_box(x: i64, y: i64, t: u8) -> Option<Aabb> {
    let (x, y) = (x as f64, y as f64);
    match t {
        b'~' => Some(Aabb::new(x, y + 0.35, 1.0, 0.65)),
        b'^' => Some(Aabb::new(x + 0.15, y + 0.45, 0.7, 0.55)),
        b'v' => Some(Aabb::new(x + 0.15, y, 0.7, 0.55)),
        _ => None,
    }
}

/// Held keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Water,
    Spikes,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Water => "fell into the icy water",
            Death::Spikes => "touched spikes",
        }
    }
}

/// One attempt at one level: deterministic (no RNG), cheap to clone, so the
/// expert rolls copies forward to look ahead.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: u32,
    pub harmless: bool,
    pub bird: Body,
    pub keys: Keys,
    /// Meter time left before the automatic flap, ms.
    pub meter_ms: u64,
    pub gliding: bool,
    pub facing: i8,
    /// Bit `i` set once crumb `i` of the level is eaten.
    pub crumbs: u32,
    pub points: u32,
    pub flaps: u32,
    pub since_flap_ms: u64,
    pub time_ms: u64,
    pub death: Option<Death>,
    pub fed: bool,
}

impl World {
    /// A fresh attempt; `meter_ms` and the start nudge come from the game's
    /// generator, `crumbs` carries the crumbs already eaten on this level.
    pub fn new(level_no: u32, harmless: bool, meter_ms: u64, nudge: f64, crumbs: u32) -> Self {
        let l = level(level_no);
        let mut bird = Body::new(l.start.0 + nudge, l.start.1, BIRD.0, BIRD.1);
        bird.on_ground = true;
        World {
            level: l.number,
            harmless,
            bird,
            keys: Keys::default(),
            meter_ms: meter_ms.clamp(TICK_MS, l.flap_max as u64 * CELL_MS),
            gliding: false,
            facing: 1,
            crumbs,
            points: 0,
            flaps: 0,
            since_flap_ms: 1000,
            time_ms: 0,
            death: None,
            fed: false,
        }
    }

    pub fn level(&self) -> &'static Level {
        level(self.level)
    }

    pub fn over(&self) -> bool {
        self.death.is_some() || self.fed
    }

    pub fn full_meter_ms(&self) -> u64 {
        self.level().flap_max as u64 * CELL_MS
    }

    /// Cells still lit on the meter.
    pub fn meter_cells(&self) -> u32 {
        self.meter_ms.div_ceil(CELL_MS) as u32
    }

    pub fn distance_to_bread(&self) -> f64 {
        let b = &self.bird.aabb;
        self.level()
            .distance_to_bread(b.center_x(), b.center_y(), self.harmless)
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.over() {
            return;
        }
        let l = self.level();
        self.time_ms += TICK_MS;
        self.since_flap_ms += TICK_MS;
        let b = &mut self.bird;
        self.gliding = self.keys.up && !b.on_ground;
        // Steering.
        let dir = (self.keys.right as i8 - self.keys.left as i8) as f64;
        if dir != 0.0 {
            self.facing = dir as i8;
        }
        let decel = if b.on_ground {
            GROUND_FRICTION
        } else {
            AIR_DRAG
        };
        b.vx = platform::steer(b.vx, dir, MOVE_SPEED, STEER_ACCEL, decel, DT);
        // The restless wing.
        let drain = if self.gliding { 2 * TICK_MS } else { TICK_MS };
        if self.meter_ms <= drain {
            b.vy = -FLAP_SPEED;
            self.meter_ms = l.flap_max as u64 * CELL_MS;
            self.flaps += 1;
            self.since_flap_ms = 0;
        } else {
            self.meter_ms -= drain;
        }
        b.vy = (b.vy + GRAVITY * DT).min(MAX_FALL);
        if self.gliding {
            b.vy = b.vy.min(GLIDE_FALL);
        }
        let world = Collider {
            map: &l.map,
            kind: solidity as fn(u8) -> Solidity,
            outside: b'#',
            step_up: 0.0,
        };
        platform::move_body(b, &world, DT);
        let bb = b.aabb;
        // Hazards.
        let harmless = self.harmless;
        let mut death = None;
        platform::for_each_overlapping(&l.map, &bb, |x, y, t| {
            if let Some(h) = hazard_box(x, y, t)
                && h.overlaps(&bb)
            {
                if t == b'~' {
                    death = Some(Death::Water);
                } else if !harmless && death.is_none() {
                    death = Some(Death::Spikes);
                }
            }
        });
        if death.is_some() {
            self.death = death;
            return;
        }
        for (i, &(x, y)) in l.crumbs.iter().enumerate() {
            let c = Aabb::new(x as f64 + 0.25, y as f64 + 0.25, 0.5, 0.5);
            if self.crumbs & (1 << i) == 0 && c.overlaps(&bb) {
                self.crumbs |= 1 << i;
                self.points += POINTS_CRUMB;
            }
        }
        if l.bread_box().overlaps(&bb) {
            self.fed = true;
            self.points += POINTS_BREAD;
        }
    }
}

pub struct RestlessWing {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    start_level: u32,
    harmless: bool,
    world: World,
    /// Points from finished levels and lost attempts.
    banked: u32,
    levels_completed: u32,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    terminal: Terminal,
}

impl Default for RestlessWing {
    fn default() -> Self {
        Self::new()
    }
}

impl RestlessWing {
    pub fn new() -> Self {
        RestlessWing {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            start_level: 1,
            harmless: false,
            world: World::new(1, false, 1200, 0.0, 0),
            banked: 0,
            levels_completed: 0,
            deaths: 0,
            game_time_ms: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn score(&self) -> u32 {
        self.banked + self.world.points
    }

    /// The level number the game reports: the one being played, or 6 once
    /// the last bread is eaten.
    pub fn level_no(&self) -> u32 {
        if self.terminal.outcome == Some(Outcome::Success) {
            LEVELS + 1
        } else {
            self.world.level
        }
    }

    /// A new attempt at `level_no`, keeping the crumbs eaten there.
    fn new_attempt(&mut self, level_no: u32, crumbs: u32) {
        let full = level(level_no).flap_max as u64 * CELL_MS;
        let meter = self.rng.range_f64(0.3, 1.0) * full as f64;
        let meter = (meter / TICK_MS as f64).round() as u64 * TICK_MS;
        let nudge = self.rng.range_f64(-0.3, 0.3);
        let keys = self.world.keys;
        self.world = World::new(level_no, self.harmless, meter, nudge, crumbs);
        self.world.keys = keys;
    }

    fn apply_key(&mut self, key: &str, down: bool) {
        let k = &mut self.world.keys;
        match key {
            "ArrowLeft" => k.left = down,
            "ArrowRight" => k.right = down,
            "ArrowUp" => k.up = down,
            _ => {}
        }
    }
}

impl Game for RestlessWing {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).clamp(1, LEVELS);
        self.harmless = config
            .options
            .get("harmless_spikes")
            .is_some_and(|v| v.as_bool() == Some(true) || v.as_str() == Some("true"));
        self.deaths = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x24B1_2D00 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.banked = 0;
        self.levels_completed = 0;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        self.world.keys = Keys::default();
        self.new_attempt(self.start_level, 0);
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let w = &self.world;
        let l = w.level();
        let b = &w.bird;
        let start_d = l.distance_to_bread(
            l.start.0 + BIRD.0 / 2.0,
            l.start.1 + BIRD.1 / 2.0,
            self.harmless,
        );
        let d = w.distance_to_bread();
        let progress = if w.fed || self.terminal.outcome == Some(Outcome::Success) {
            1.0
        } else {
            (1.0 - d / start_d).clamp(0.0, 1.0)
        };
        set(&mut s.game_state, "score", self.score());
        set(&mut s.game_state, "level", self.level_no());
        set(&mut s.game_state, "levels_total", LEVELS);
        set(&mut s.game_state, "completion_progress", round2(progress));
        set(&mut s.game_state, "harmless_spikes", self.harmless);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(b.aabb.x), "y": round2(b.aabb.y),
                "width": BIRD.0, "height": BIRD.1,
                "vx": round2(b.vx), "vy": round2(b.vy),
                "on_ground": b.on_ground, "gliding": w.gliding,
                "facing": if w.facing < 0 { "left" } else { "right" },
                "alive": w.death.is_none(),
            }),
        );
        set(
            &mut s.game_state,
            "exit",
            json!({"type": "bread", "x": l.bread.0, "y": l.bread.1}),
        );
        let crumbs: Vec<Value> = l
            .crumbs
            .iter()
            .enumerate()
            .filter(|(i, _)| w.crumbs & (1 << i) == 0)
            .map(|(_, &(x, y))| json!({"type": "crumb", "x": x, "y": y}))
            .collect();
        set(&mut s.game_state, "entities", json!(crumbs));
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "flap_max", l.flap_max);
        set(&mut s.metrics, "flap_target", w.full_meter_ms());
        set(&mut s.metrics, "flap_meter", w.meter_cells());
        set(&mut s.metrics, "flap_meter_ms", w.meter_ms);
        set(&mut s.metrics, "flaps", w.flaps);
        set(&mut s.metrics, "crumbs", w.crumbs.count_ones());
        set(&mut s.metrics, "crumbs_total", l.crumbs.len());
        set(&mut s.metrics, "levels_completed", self.levels_completed);
        set(&mut s.metrics, "distance_to_exit", round2(d));
        set(&mut s.metrics, "level_time_ms", w.time_ms);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "start_level", self.start_level);
        set(&mut s.raw, "tick_ms", TICK_MS);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if let Some((key, down)) = event.key_change() {
            self.apply_key(key, down);
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
                self.banked += self.world.points;
                let (lv, crumbs) = (self.world.level, self.world.crumbs);
                self.new_attempt(lv, crumbs);
            } else if self.world.fed {
                self.banked += self.world.points;
                self.levels_completed += 1;
                if self.world.level >= LEVELS {
                    self.world.points = 0;
                    self.terminal = Terminal::ended(Outcome::Success, "ate the last bread");
                } else {
                    self.new_attempt(self.world.level + 1, 0);
                }
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        json!({"action": expert::choose(&self.world)})
    }
}

// ---------------------------------------------------------------- rendering

const ROOF: Rgb = rgb(120, 62, 48);
const ROOF_DARK: Rgb = rgb(72, 36, 30);
const SNOW: Rgb = rgb(236, 242, 250);

fn to_screen(x: f64, y: f64) -> (f32, f32) {
    ((x * TILE_PX) as f32, (ORIGIN_Y + y * TILE_PX) as f32)
}

/// Sky, town and terrain of a level: everything that never changes.
fn paint_level(pm: &mut Pixmap, l: &Level) {
    // Night sky, lighter towards the horizon.
    for i in 0..24 {
        let t = i as f32 / 23.0;
        let c = rgb(
            (18.0 + 40.0 * t) as u8,
            (24.0 + 46.0 * t) as u8,
            (58.0 + 60.0 * t) as u8,
        );
        draw::rect(pm, 0.0, 30.0 * i as f32, 1280.0, 31.0, c);
    }
    draw::circle(pm, 1120.0, 130.0, 34.0, rgb(246, 240, 210));
    draw::circle(pm, 1106.0, 122.0, 30.0, rgb(40, 52, 96));
    // Far houses.
    for k in 0..14 {
        let x = k as f32 * 96.0 - 20.0;
        let h = 90.0 + ((k * 37) % 5) as f32 * 26.0;
        draw::rect(pm, x, 700.0 - h, 84.0, h, rgb(44, 52, 84));
        draw::polygon(
            pm,
            &[
                (x - 6.0, 700.0 - h),
                (x + 42.0, 660.0 - h),
                (x + 90.0, 700.0 - h),
            ],
            rgb(44, 52, 84),
        );
        draw::rect(pm, x + 20.0, 720.0 - h, 14.0, 16.0, rgb(230, 200, 110));
    }
    // Falling snow, fixed flakes.
    for k in 0..90u32 {
        let x = (k * 211 % 1280) as f32;
        let y = 60.0 + (k * 137 % 640) as f32;
        draw::circle(
            pm,
            x,
            y,
            1.5 + (k % 3) as f32 * 0.5,
            rgba(255, 255, 255, 150),
        );
    }
    let s = TILE_PX as f32;
    l.map
        .for_each_in(0, 0, COLS as i64, ROWS as i64, |x, y, t| {
            let (sx, sy) = to_screen(x as f64, y as f64);
            match t {
                b'#' => {
                    draw::rect(pm, sx, sy, s, s, ROOF_DARK);
                    draw::rect(pm, sx + 2.0, sy + 2.0, s - 4.0, s - 4.0, ROOF);
                    draw::rect(pm, sx + 2.0, sy + s / 2.0 - 1.0, s - 4.0, 2.0, ROOF_DARK);
                    if l.map.at(x, y - 1, b'.') != b'#' {
                        draw::rounded_rect(pm, sx - 1.0, sy - 4.0, s + 2.0, 12.0, 5.0, SNOW);
                    }
                }
                b'~' if l.map.at(x, y - 1, b'.') == b'~' => {
                    draw::rect(pm, sx, sy, s, s, rgb(40, 90, 150));
                }
                b'~' => {
                    draw::rect(pm, sx, sy + 12.0, s, s - 12.0, rgb(40, 90, 150));
                    draw::rect(pm, sx, sy + 12.0, s, 5.0, rgb(170, 215, 240));
                }
                b'^' => {
                    for k in 0..3 {
                        let bx = sx + k as f32 * s / 3.0;
                        draw::polygon(
                            pm,
                            &[
                                (bx, sy + s),
                                (bx + s / 6.0, sy + s * 0.4),
                                (bx + s / 3.0, sy + s),
                            ],
                            rgb(190, 196, 210),
                        );
                    }
                }
                b'v' => {
                    for k in 0..3 {
                        let bx = sx + k as f32 * s / 3.0;
                        draw::polygon(
                            pm,
                            &[
                                (bx + 1.0, sy),
                                (bx + s / 6.0, sy + s * 0.6),
                                (bx + s / 3.0 - 1.0, sy),
                            ],
                            rgb(200, 236, 255),
                        );
                    }
                }
                _ => {}
            }
        });
    draw::rect(pm, 0.0, 700.0, 1280.0, 20.0, rgb(30, 34, 52));
    // The bread.
    let (bx, by) = to_screen(l.bread.0 as f64, l.bread.1 as f64);
    draw::rounded_rect(
        pm,
        bx + 2.0,
        by + 14.0,
        s - 4.0,
        s - 16.0,
        10.0,
        rgb(150, 90, 30),
    );
    draw::rounded_rect(
        pm,
        bx + 5.0,
        by + 16.0,
        s - 10.0,
        s - 24.0,
        8.0,
        rgb(226, 168, 84),
    );
    for k in 0..3 {
        let cx = bx + 11.0 + k as f32 * 9.0;
        draw::line(
            pm,
            cx,
            by + 19.0,
            cx + 4.0,
            by + 27.0,
            2.0,
            rgb(150, 90, 30),
        );
    }
}

fn level_layer(n: u32) -> &'static Pixmap {
    static LAYERS: [OnceLock<Pixmap>; LEVELS as usize] = [const { OnceLock::new() }; 5];
    LAYERS[n.clamp(1, LEVELS) as usize - 1].get_or_init(|| {
        let mut pm = Pixmap::new(1280, 720).expect("frame-sized layer");
        paint_level(&mut pm, level(n));
        pm
    })
}

fn draw_bird(pm: &mut Pixmap, w: &World) {
    let b = &w.bird.aabb;
    let (sx, sy) = to_screen(b.x, b.y);
    let (bw, bh) = ((b.w * TILE_PX) as f32, (b.h * TILE_PX) as f32);
    let (cx, cy) = (sx + bw / 2.0, sy + bh / 2.0);
    let f = w.facing as f32;
    draw::circle(pm, cx, cy, bh * 0.55, rgb(110, 78, 58));
    draw::circle(pm, cx + f * 4.0, cy + 3.0, bh * 0.36, rgb(230, 96, 60));
    // Head, eye, beak.
    draw::circle(pm, cx + f * 9.0, cy - 7.0, 8.0, rgb(110, 78, 58));
    draw::circle(pm, cx + f * 11.0, cy - 9.0, 2.2, rgb(0, 0, 0));
    draw::polygon(
        pm,
        &[
            (cx + f * 15.0, cy - 9.0),
            (cx + f * 23.0, cy - 6.0),
            (cx + f * 15.0, cy - 3.0),
        ],
        rgb(250, 190, 40),
    );
    // The wing: raised just after a flap, spread while gliding, folded
    // otherwise.
    let wx = cx - f * 5.0;
    let tip = if w.since_flap_ms < 150 {
        (wx - f * 10.0, cy - 20.0)
    } else if w.gliding {
        (wx - f * 20.0, cy - 4.0)
    } else {
        (wx - f * 10.0, cy + 8.0)
    };
    draw::polygon(
        pm,
        &[(wx, cy - 4.0), tip, (wx + f * 6.0, cy + 4.0)],
        rgb(80, 56, 42),
    );
}

fn render(g: &RestlessWing, pm: &mut Pixmap) {
    let w = &g.world;
    let l = w.level();
    if !draw::copy_frame(pm, level_layer(l.number)) {
        paint_level(pm, l);
    }
    for (i, &(x, y)) in l.crumbs.iter().enumerate() {
        if w.crumbs & (1 << i) == 0 {
            let (sx, sy) = to_screen(x as f64 + 0.5, y as f64 + 0.5);
            draw::circle(pm, sx, sy, 7.0, rgb(170, 110, 40));
            draw::circle(pm, sx - 1.0, sy - 1.0, 5.0, rgb(240, 200, 120));
        }
    }
    draw_bird(pm, w);
    // HUD: the flap meter at the top left, then the level, then counters.
    draw::hud_bar(pm, "");
    draw::text(
        pm,
        "FLAP",
        16.0,
        16.0,
        22.0,
        rgb(240, 240, 240),
        Align::Left,
    );
    let cells = w.meter_cells();
    for i in 0..l.flap_max {
        let x = 86.0 + i as f32 * 30.0;
        draw::rect(pm, x, 14.0, 24.0, 28.0, rgb(70, 74, 90));
        if i < cells {
            let c = if cells <= 1 {
                rgb(250, 120, 80)
            } else {
                rgb(120, 210, 250)
            };
            draw::rect(pm, x + 3.0, 17.0, 18.0, 22.0, c);
        }
    }
    draw::text(
        pm,
        &format!("Restless Wing  -  Level {}", l.number),
        300.0,
        13.0,
        26.0,
        rgb(240, 240, 240),
        Align::Left,
    );
    draw::hud_items(
        pm,
        &[
            ("Score", g.score().to_string()),
            ("Deaths", g.deaths.to_string()),
            ("Time", format!("{}", g.game_time_ms / 1000)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "ALL BREAD EATEN!",
        &format!("Score {}", g.score()),
    );
}
