//! 02_another-gentlemans-adventure — a side-scrolling platform adventure:
//! a gentleman in a top hat walks and jumps through a level of ground,
//! ledges, golden question blocks, spikes, pits and beetles, collecting
//! coins on the way to the door at its end (tile data in
//! `levels/sections.txt`, parsed with [`crate::tilemap`], moved with
//! [`crate::platform`]).
//!
//! A level is its `start` section, [`MIDDLE_SECTIONS`] sections the seed
//! draws from the pool, and the `end` section with the door; the layout is
//! fixed for a seed (each new attempt replays it, with the beetles' start
//! nudged per attempt). Coins lying about are picked up by touching them;
//! hitting a golden block from below pops out its coin. Jumping onto a
//! beetle squashes it; touching one any other way, touching spikes or
//! falling into a pit ends the attempt. The door ends the level.
//!
//! Tuned for 0.2 s steps: the gentleman walks 6 tiles/s and jumps 2.8
//! tiles high.
//!
//! Score (`game_state.score`) is the coins collected in this attempt.
//! State: `game_state.{score, level, completion_progress, player, entities,
//! exit}`, `metrics.{coins, coins_total, session_coins_collected, stomps,
//! deaths, attempts, distance_to_exit}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::platform::{self, Aabb, Body, Camera, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};
use tiny_skia::Pixmap;

pub const ID: &str = "02_another-gentlemans-adventure";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const WALK_SPEED: f64 = 6.0;
const ACCEL: f64 = 40.0;
const FRICTION: f64 = 40.0;
const AIR_DRAG: f64 = 8.0;
pub const GRAVITY: f64 = 40.0;
/// Upward speed of a jump (apex ≈ 2.8 tiles).
pub const JUMP_SPEED: f64 = 15.0;
const STOMP_BOUNCE: f64 = 10.0;
const MAX_FALL: f64 = 18.0;
pub const BEETLE_SPEED: f64 = 1.8;
pub const MIDDLE_SECTIONS: usize = 5;
const GENT: (f64, f64) = (0.7, 1.4);
const BEETLE: (f64, f64) = (0.9, 0.7);

pub const ROWS: usize = 13;
const TILE_PX: f64 = 48.0;
const VIEW_W: f64 = 1280.0;
const ORIGIN_Y: f64 = 56.0;

static SECTIONS_TXT: &str = include_str!("levels/sections.txt");

/// A built level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Terrain, blocks and loose coins (start, door and beetle slots taken
    /// out).
    pub map: TileMap,
    pub start: (f64, f64),
    pub beetles: Vec<(i64, i64)>,
    /// The door's box.
    pub door: Aabb,
    pub sections: Vec<String>,
    /// Coins in the level: loose ones plus one per golden block.
    pub coins_total: u32,
}

fn sections() -> &'static [tilemap::Section] {
    static S: OnceLock<Vec<tilemap::Section>> = OnceLock::new();
    S.get_or_init(|| {
        let secs = tilemap::parse_sections(SECTIONS_TXT).expect("bundled sections parse");
        for s in &secs {
            assert_eq!(s.map.height(), ROWS, "section {} has {ROWS} rows", s.label);
        }
        secs
    })
}

impl Level {
    /// The level of a seed: start, middle sections drawn from `rng` (never
    /// the same twice in a row), end.
    pub fn build(rng: &mut Rng) -> Level {
        let secs = sections();
        let find = |l: &str| {
            secs.iter()
                .find(|s| s.label == l)
                .unwrap_or_else(|| panic!("the level data lacks a {l} section"))
        };
        let pool: Vec<&tilemap::Section> = secs
            .iter()
            .filter(|s| s.label != "start" && s.label != "end")
            .collect();
        let mut map = find("start").map.clone();
        let mut labels = vec!["start".to_string()];
        let mut last = usize::MAX;
        for _ in 0..MIDDLE_SECTIONS {
            let mut i = rng.index(pool.len());
            if i == last {
                i = (i + 1) % pool.len();
            }
            last = i;
            map.append(&pool[i].map).expect("sections share a height");
            labels.push(pool[i].label.clone());
        }
        map.append(&find("end").map)
            .expect("sections share a height");
        labels.push("end".into());
        let (sx, sy) = map.find(b'm').expect("start section has m");
        map.set(sx, sy, tilemap::EMPTY);
        let beetles = map.find_all(b'e');
        for &(x, y) in &beetles {
            map.set(x, y, tilemap::EMPTY);
        }
        let door_tiles = map.find_all(b'D');
        for &(x, y) in &door_tiles {
            map.set(x, y, tilemap::EMPTY);
        }
        let (dx, dy0) = door_tiles[0];
        let dy1 = door_tiles.iter().map(|d| d.1).max().unwrap_or(dy0);
        let coins_total = (map.find_all(b'o').len() + map.find_all(b'?').len()) as u32;
        Level {
            start: (sx as f64 + 0.15, sy as f64 + 1.0 - GENT.1),
            beetles,
            door: Aabb::new(dx as f64 + 0.2, dy0 as f64, 0.6, (dy1 - dy0 + 1) as f64),
            sections: labels,
            coins_total,
            map,
        }
    }
}

fn solidity(t: u8) -> Solidity {
    match t {
        b'#' | b'=' | b'?' | b'E' => Solidity::Solid,
        b'-' => Solidity::OneWay,
        _ => Solidity::Empty,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Beetle,
    Spikes,
    Pit,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Beetle => "caught by a beetle",
            Death::Spikes => "stepped on spikes",
            Death::Pit => "fell into a pit",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beetle {
    pub body: Body,
    pub alive: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
}

/// One attempt: deterministic (no RNG), cloned by the expert to look ahead.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: Arc<Level>,
    /// The level's tiles as they are now (coins taken, blocks spent).
    pub map: TileMap,
    pub gent: Body,
    pub jump: JumpAssist,
    pub keys: Keys,
    pub beetles: Vec<Beetle>,
    pub coins: u32,
    pub stomps: u32,
    pub facing: i8,
    pub time_ms: u64,
    pub death: Option<Death>,
    pub exited: bool,
}

impl World {
    pub fn new(level: Arc<Level>, nudges: &[f64]) -> Self {
        let mut gent = Body::new(level.start.0, level.start.1, GENT.0, GENT.1);
        gent.on_ground = true;
        let beetles = level
            .beetles
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                let n = nudges.get(i).copied().unwrap_or(0.0);
                let mut body = Body::new(
                    x as f64 + 0.05 + n,
                    y as f64 + 1.0 - BEETLE.1,
                    BEETLE.0,
                    BEETLE.1,
                );
                body.vx = if i % 2 == 0 {
                    -BEETLE_SPEED
                } else {
                    BEETLE_SPEED
                };
                Beetle { body, alive: true }
            })
            .collect();
        World {
            map: level.map.clone(),
            level,
            gent,
            jump: JumpAssist::new(0.06, 0.1),
            keys: Keys::default(),
            beetles,
            coins: 0,
            stomps: 0,
            facing: 1,
            time_ms: 0,
            death: None,
            exited: false,
        }
    }

    pub fn over(&self) -> bool {
        self.death.is_some() || self.exited
    }

    fn collider(map: &TileMap) -> Collider<'_, fn(u8) -> Solidity> {
        Collider {
            map,
            kind: solidity as fn(u8) -> Solidity,
            outside: tilemap::EMPTY,
            step_up: 0.0,
        }
    }

    pub fn press_jump(&mut self) {
        self.jump.press();
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.over() {
            return;
        }
        self.time_ms += TICK_MS;
        let dir = (self.keys.right as i8 - self.keys.left as i8) as f64;
        if dir != 0.0 {
            self.facing = dir as i8;
        }
        let g = &mut self.gent;
        let decel = if g.on_ground { FRICTION } else { AIR_DRAG };
        g.vx = platform::steer(g.vx, dir, WALK_SPEED, ACCEL, decel, DT);
        self.jump.update(g.on_ground, DT);
        if self.jump.take() {
            g.vy = -JUMP_SPEED;
        }
        g.vy = (g.vy + GRAVITY * DT).min(MAX_FALL);
        let prev_bottom = g.aabb.bottom();
        let c = platform::move_body(g, &World::collider(&self.map), DT);
        if g.aabb.x < 0.0 {
            g.aabb.x = 0.0;
            g.vx = 0.0;
        }
        if let Some((x, y)) = c.head_tile
            && self.map.at(x, y, b'.') == b'?'
        {
            self.map.set(x, y, b'E');
            self.coins += 1;
        }
        // Coins and spikes.
        let gb = self.gent.aabb;
        let mut got = Vec::new();
        let mut spiked = false;
        platform::for_each_overlapping(&self.map, &gb, |x, y, t| match t {
            b'o' => got.push((x, y)),
            b'^' => {
                let s = Aabb::new(x as f64 + 0.1, y as f64 + 0.45, 0.8, 0.55);
                spiked |= s.overlaps(&gb);
            }
            _ => {}
        });
        for (x, y) in got {
            self.map.set(x, y, tilemap::EMPTY);
            self.coins += 1;
        }
        if spiked {
            self.death = Some(Death::Spikes);
            return;
        }
        if gb.y > ROWS as f64 {
            self.death = Some(Death::Pit);
            return;
        }
        self.tick_beetles(prev_bottom);
        if self.death.is_none() && self.level.door.overlaps(&self.gent.aabb) {
            self.exited = true;
        }
    }

    fn tick_beetles(&mut self, gent_prev_bottom: f64) {
        let map = &self.map;
        for b in self.beetles.iter_mut().filter(|b| b.alive) {
            b.body.vy = (b.body.vy + GRAVITY * DT).min(MAX_FALL);
            let vx = b.body.vx;
            let c = platform::move_body(&mut b.body, &World::collider(map), DT);
            // Turn at walls and at the edge of the ground.
            let a = b.body.aabb;
            let ahead = if vx > 0.0 {
                a.right() + 0.05
            } else {
                a.x - 0.05
            };
            let below = map.at(ahead.floor() as i64, a.bottom().floor() as i64, b'#');
            if c.left || c.right || (b.body.on_ground && solidity(below) == Solidity::Empty) {
                b.body.vx = -vx;
            }
            if a.y > ROWS as f64 {
                b.alive = false;
            }
        }
        let gb = self.gent.aabb;
        for i in 0..self.beetles.len() {
            let b = self.beetles[i];
            if !b.alive || !gb.overlaps(&b.body.aabb) {
                continue;
            }
            if self.gent.vy > 0.0 && gent_prev_bottom <= b.body.aabb.y + 0.3 {
                self.beetles[i].alive = false;
                self.stomps += 1;
                self.gent.vy = -STOMP_BOUNCE;
            } else {
                self.death = Some(Death::Beetle);
                return;
            }
        }
    }

    /// Tiles from the gentleman to the door.
    pub fn distance_to_exit(&self) -> f64 {
        (self.level.door.x - self.gent.aabb.right()).max(0.0)
    }
}

pub struct Gentleman {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    level: Arc<Level>,
    world: World,
    session_coins: u32,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    terminal: Terminal,
}

impl Default for Gentleman {
    fn default() -> Self {
        Self::new()
    }
}

impl Gentleman {
    pub fn new() -> Self {
        let level = Arc::new(Level::build(&mut Rng::new(0, 0)));
        Gentleman {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(level.clone(), &[]),
            level,
            session_coins: 0,
            deaths: 0,
            game_time_ms: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn apply_key(&mut self, key: &str, down: bool) {
        let k = &mut self.world.keys;
        match key {
            "ArrowLeft" => k.left = down,
            "ArrowRight" => k.right = down,
            "ArrowUp" => {
                if down && !k.up {
                    self.world.press_jump();
                }
                self.world.keys.up = down;
            }
            _ => {}
        }
    }
}

impl Game for Gentleman {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level = Arc::new(Level::build(&mut Rng::new(config.seed, 0x02A6_0000)));
        self.session_coins = 0;
        self.deaths = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x02A6_1000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        let nudges: Vec<f64> = (0..self.level.beetles.len())
            .map(|_| self.rng.range_f64(-1.0, 1.0))
            .collect();
        self.world = World::new(self.level.clone(), &nudges);
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
        let l = &self.level;
        let g = &w.gent;
        let span = l.door.x - l.start.0;
        let progress = if w.exited {
            1.0
        } else {
            ((g.aabb.x - l.start.0) / span).clamp(0.0, 1.0)
        };
        set(&mut s.game_state, "score", w.coins);
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "completion_progress", round2(progress));
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(g.aabb.x), "y": round2(g.aabb.y),
                "width": GENT.0, "height": GENT.1,
                "vx": round2(g.vx), "vy": round2(g.vy), "on_ground": g.on_ground,
                "facing": if w.facing < 0 { "left" } else { "right" },
                "alive": w.death.is_none(),
            }),
        );
        let cam_x = camera_x(w);
        let view_r = cam_x + VIEW_W / TILE_PX;
        let mut ents: Vec<Value> = w
            .beetles
            .iter()
            .filter(|b| b.alive && b.body.aabb.right() > cam_x && b.body.aabb.x < view_r)
            .map(|b| {
                json!({"type": "beetle", "x": round2(b.body.aabb.x), "y": round2(b.body.aabb.y),
                       "vx": round2(b.body.vx)})
            })
            .collect();
        let (x0, x1) = (cam_x.floor() as i64, view_r.ceil() as i64);
        w.map.for_each_in(x0, 0, x1, ROWS as i64, |x, y, t| {
            let kind = match t {
                b'o' => "coin",
                b'?' => "golden_block",
                _ => return,
            };
            ents.push(json!({"type": kind, "x": x, "y": y}));
        });
        set(&mut s.game_state, "entities", json!(ents));
        set(
            &mut s.game_state,
            "exit",
            json!({"type": "door", "x": round2(l.door.x), "y": round2(l.door.y)}),
        );
        set(&mut s.metrics, "coins", w.coins);
        set(&mut s.metrics, "coins_total", l.coins_total);
        set(
            &mut s.metrics,
            "session_coins_collected",
            self.session_coins + w.coins,
        );
        set(&mut s.metrics, "stomps", w.stomps);
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(
            &mut s.metrics,
            "distance_to_exit",
            round2(w.distance_to_exit()),
        );
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "sections", json!(l.sections));
        set(&mut s.raw, "camera_x", round2(cam_x));
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
            if let Some(d) = self.world.death {
                self.deaths += 1;
                self.session_coins += self.world.coins;
                self.world.coins = 0;
                self.terminal = Terminal::ended(Outcome::Fail, d.reason());
            } else if self.world.exited {
                self.terminal = Terminal::ended(Outcome::Success, "reached the door");
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(&self.world, task.target)})
    }
}

// ---------------------------------------------------------------- rendering

fn camera_x(w: &World) -> f64 {
    let view = VIEW_W / TILE_PX;
    (w.gent.aabb.x - 0.35 * view).clamp(0.0, (w.map.width() as f64 - view).max(0.0))
}

fn paint_sky(pm: &mut Pixmap) {
    for i in 0..20 {
        let t = i as f32 / 19.0;
        let c = rgb(
            (236.0 - 40.0 * t) as u8,
            (206.0 - 20.0 * t) as u8,
            (160.0 + 30.0 * t) as u8,
        );
        draw::rect(pm, 0.0, 56.0 + 34.0 * i as f32, 1280.0, 35.0, c);
    }
}

fn render(g: &Gentleman, pm: &mut Pixmap) {
    static SKY: OnceLock<Pixmap> = OnceLock::new();
    draw::static_layer(pm, &SKY, paint_sky);
    let w = &g.world;
    let s = TILE_PX as f32;
    let mut cam = Camera::new(VIEW_W / TILE_PX, ROWS as f64, TILE_PX, (0.0, ORIGIN_Y));
    cam.x = camera_x(w);
    // Far chimneys of the town, slower than the level.
    for k in 0..12 {
        let x = ((k as f64 * 7.0 - cam.x * 0.4) * TILE_PX).rem_euclid(12.0 * 7.0 * TILE_PX) as f32
            - 160.0;
        let h = 150.0 + ((k * 53) % 4) as f32 * 40.0;
        draw::rect(pm, x, 600.0 - h, 120.0, h + 40.0, rgb(176, 150, 140));
        draw::rect(pm, x + 20.0, 570.0 - h, 18.0, 30.0, rgb(150, 120, 112));
    }
    let (x0, y0, x1, y1) = cam.visible_tiles();
    w.map.for_each_in(x0, y0, x1, y1, |x, y, t| {
        // Whole pixels, so neighbouring tiles meet without seams.
        let (sx, sy) = cam.to_screen(x as f64, y as f64);
        let sx = sx.round();
        match t {
            b'#' => {
                let top = w.map.at(x, y - 1, b'.') != b'#';
                draw::rect(pm, sx, sy, s, s, rgb(120, 84, 56));
                if top {
                    draw::rect(pm, sx, sy, s, 10.0, rgb(96, 160, 70));
                }
            }
            b'=' => {
                draw::rect(pm, sx, sy, s, s, rgb(90, 90, 100));
                draw::rect(pm, sx + 3.0, sy + 3.0, s - 6.0, s - 6.0, rgb(150, 150, 160));
            }
            b'-' => {
                draw::rect(pm, sx, sy, s, 12.0, rgb(140, 90, 40));
                draw::rect(pm, sx + 4.0, sy + 12.0, 4.0, 10.0, rgb(110, 70, 30));
                draw::rect(pm, sx + s - 8.0, sy + 12.0, 4.0, 10.0, rgb(110, 70, 30));
            }
            b'?' => {
                draw::rect(pm, sx, sy, s, s, rgb(150, 100, 10));
                draw::rect(pm, sx + 3.0, sy + 3.0, s - 6.0, s - 6.0, rgb(246, 196, 40));
                draw::text(
                    pm,
                    "?",
                    sx + s / 2.0,
                    sy + 7.0,
                    30.0,
                    rgb(150, 100, 10),
                    Align::Center,
                );
            }
            b'E' => {
                draw::rect(pm, sx, sy, s, s, rgb(90, 70, 40));
                draw::rect(pm, sx + 3.0, sy + 3.0, s - 6.0, s - 6.0, rgb(160, 130, 90));
            }
            b'o' => {
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 13.0, rgb(170, 110, 0));
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 10.0, rgb(255, 214, 60));
            }
            b'^' => {
                for k in 0..3 {
                    let bx = sx + k as f32 * s / 3.0;
                    draw::polygon(
                        pm,
                        &[
                            (bx, sy + s),
                            (bx + s / 6.0, sy + s * 0.45),
                            (bx + s / 3.0, sy + s),
                        ],
                        rgb(60, 60, 70),
                    );
                }
            }
            _ => {}
        }
    });
    // The door.
    let d = w.level.door;
    if cam.sees(&d) {
        let (sx, sy) = cam.to_screen(d.x - 0.3, d.y);
        let (dw, dh) = (((d.w + 0.6) * TILE_PX) as f32, (d.h * TILE_PX) as f32);
        draw::rect(pm, sx - 6.0, sy - 6.0, dw + 12.0, dh + 6.0, rgb(70, 40, 20));
        draw::rect(pm, sx, sy, dw, dh, rgb(130, 60, 30));
        draw::circle(pm, sx + dw - 10.0, sy + dh / 2.0, 4.0, rgb(240, 200, 60));
    }
    for b in w
        .beetles
        .iter()
        .filter(|b| b.alive && cam.sees(&b.body.aabb))
    {
        let (sx, sy) = cam.to_screen(b.body.aabb.x, b.body.aabb.y);
        let (bw, bh) = (
            (b.body.aabb.w * TILE_PX) as f32,
            (b.body.aabb.h * TILE_PX) as f32,
        );
        draw::rounded_rect(pm, sx, sy, bw, bh * 0.85, 14.0, rgb(60, 30, 90));
        draw::rect(
            pm,
            sx + bw / 2.0 - 1.0,
            sy + 2.0,
            2.0,
            bh * 0.7,
            rgb(30, 10, 50),
        );
        let ex = if b.body.vx < 0.0 {
            sx + 6.0
        } else {
            sx + bw - 10.0
        };
        draw::circle(pm, ex + 2.0, sy + bh * 0.35, 4.0, rgb(255, 255, 255));
        for k in 0..3 {
            draw::rect(
                pm,
                sx + 6.0 + k as f32 * 12.0,
                sy + bh * 0.8,
                4.0,
                bh * 0.2,
                rgb(30, 10, 50),
            );
        }
    }
    draw_gentleman(pm, &cam, w);
    let coins = w.coins.to_string();
    draw::hud(
        pm,
        "Another Gentleman's Adventure",
        &[
            ("Coins", coins),
            ("Time", (g.game_time_ms / 1000).to_string()),
        ],
    );
    draw::rect(pm, 0.0, 680.0, VIEW_W as f32, 40.0, rgba(0, 0, 0, 110));
    draw::text(
        pm,
        "Left/Right: walk   Up: jump",
        20.0,
        688.0,
        20.0,
        rgb(255, 255, 255),
        Align::Left,
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "THROUGH THE DOOR!",
        &format!("Coins {}", w.coins),
    );
}

const SUIT: Rgb = rgb(34, 34, 44);

fn draw_gentleman(pm: &mut Pixmap, cam: &Camera, w: &World) {
    let a = w.gent.aabb;
    let (sx, sy) = cam.to_screen(a.x, a.y);
    let (gw, gh) = ((a.w * TILE_PX) as f32, (a.h * TILE_PX) as f32);
    let f = w.facing as f32;
    // Top hat.
    draw::rect(pm, sx - 3.0, sy + 12.0, gw + 6.0, 4.0, SUIT);
    draw::rect(pm, sx + 4.0, sy - 4.0, gw - 8.0, 17.0, SUIT);
    draw::rect(pm, sx + 4.0, sy + 8.0, gw - 8.0, 3.0, rgb(150, 30, 30));
    // Face with a moustache.
    draw::rect(pm, sx + 4.0, sy + 16.0, gw - 8.0, 14.0, rgb(244, 204, 170));
    let ex = sx + gw / 2.0 + f * 6.0;
    draw::rect(pm, ex - 2.0, sy + 19.0, 3.0, 4.0, rgb(0, 0, 0));
    draw::rect(pm, sx + 8.0, sy + 25.0, gw - 16.0, 3.0, rgb(90, 50, 20));
    // Coat, shirt, legs.
    draw::rect(pm, sx + 1.0, sy + 30.0, gw - 2.0, gh * 0.45, SUIT);
    draw::rect(
        pm,
        sx + gw / 2.0 - 3.0,
        sy + 30.0,
        6.0,
        12.0,
        rgb(250, 250, 250),
    );
    draw::rect(pm, sx + 5.0, sy + gh - 16.0, 8.0, 16.0, rgb(60, 60, 70));
    draw::rect(
        pm,
        sx + gw - 13.0,
        sy + gh - 16.0,
        8.0,
        16.0,
        rgb(60, 60, 70),
    );
    // Cane.
    let cx = if f > 0.0 { sx + gw + 3.0 } else { sx - 5.0 };
    draw::rect(pm, cx, sy + 36.0, 3.0, gh - 36.0, rgb(120, 70, 30));
}
