//! 14_geodash — a Geometry-Dash-style auto-runner. A cube slides to the
//! right at a constant speed over a tile level; the only control is jump
//! (Space). Spikes, the sides and undersides of blocks and falling into a
//! gap destroy the cube; the tops of blocks can be landed on; yellow jump
//! pads throw the cube high by themselves. Holding Space keeps jumping each
//! time the cube lands, as in the original.
//!
//! Levels are data: `levels/level{1,2,3}.txt` hold tile sections (see
//! [`crate::tilemap`]); a level is its `start` section, then pool sections
//! drawn per seed until the level is [`LEVEL_TILES`] long, then its `end`
//! section. The layout is fixed for a seed: every attempt (episode) replays
//! the same level, as attempts do in the original.
//!
//! Tile legend: `.` air, `#` block, `^` floor spike, `v` hanging spike,
//! `*` star (pick-up), `J` jump pad.
//!
//! Score (`game_state.score`) is the number of whole tiles the cube has
//! travelled in this attempt; at 12 tiles/s the 200-tile targets take about
//! 17 s, 67 of the 100 quarter-second steps. Crossing the finish line ends
//! the attempt with a success.
//!
//! State: `game_state.{score, level, completion_progress, mode, player_die,
//! player, entities}`, `metrics.{distance, points, stars, best_score,
//! deaths, attempts, jumps, distance_to_goal}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use crate::platform::{self, Aabb, Body, Camera, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::{Arc, OnceLock};
use tiny_skia::Pixmap;

pub const ID: &str = "14_geodash";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Horizontal speed, tiles/s.
pub const SPEED: f64 = 12.0;
/// Downward acceleration, tiles/s².
pub const GRAVITY: f64 = 64.0;
/// Upward speed of a jump, tiles/s (apex ≈ 2.4 tiles, 0.55 s in the air).
pub const JUMP_SPEED: f64 = 17.5;
/// Upward speed given by a jump pad, tiles/s (apex ≈ 4.5 tiles).
pub const PAD_SPEED: f64 = 24.0;
/// Terminal falling speed, tiles/s.
pub const MAX_FALL: f64 = 26.0;
/// A block edge this close below the cube's bottom is climbed, not crashed
/// into (the original's leniency at block corners).
pub const STEP_UP: f64 = 0.25;
/// Coyote time and jump buffer, s.
pub const COYOTE_S: f64 = 0.04;
pub const BUFFER_S: f64 = 0.08;

/// Rows of every level (sections are bottom-aligned to this height).
pub const ROWS: usize = 12;
/// Minimum length of a level before its end section, tiles.
pub const LEVEL_TILES: usize = 250;
/// Start of the cube's left edge, tiles.
pub const START_X: f64 = 2.0;
/// Pixels per tile.
pub const TILE_PX: f64 = 48.0;
const VIEW_W: f64 = 1280.0;
const VIEW_H: f64 = 720.0;
/// Screen y of the level's top row.
const ORIGIN_Y: f64 = VIEW_H - ROWS as f64 * TILE_PX;

static LEVEL_FILES: [&str; 3] = [
    include_str!("levels/level1.txt"),
    include_str!("levels/level2.txt"),
    include_str!("levels/level3.txt"),
];

/// One built level: the joined tile map and its finish line.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub number: u32,
    pub map: TileMap,
    /// x of the finish line, tiles.
    pub finish_x: f64,
    /// Labels of the sections it was built from, in order.
    pub sections: Vec<String>,
    /// First column of each section.
    pub section_x: Vec<usize>,
}

fn pad_top(map: &TileMap) -> TileMap {
    let mut out = TileMap::new(map.width(), ROWS);
    let off = ROWS as i64 - map.height() as i64;
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            out.set(x, y + off, map.at(x, y, tilemap::EMPTY));
        }
    }
    out
}

impl Level {
    /// The label of the section holding column `x`.
    pub fn section_at(&self, x: f64) -> &str {
        let i = self
            .section_x
            .iter()
            .rposition(|&s| s as f64 <= x)
            .unwrap_or(0);
        self.sections.get(i).map(String::as_str).unwrap_or("")
    }
    /// Build level `number` (1..=3; others clamp) with sections drawn from
    /// `rng`.
    pub fn build(number: u32, rng: &mut Rng) -> Level {
        let number = number.clamp(1, 3);
        let secs = tilemap::parse_sections(LEVEL_FILES[number as usize - 1])
            .expect("bundled geodash levels parse");
        let find = |l: &str| {
            secs.iter()
                .find(|s| s.label == l)
                .unwrap_or_else(|| panic!("level {number} lacks a {l} section"))
        };
        let pool: Vec<&tilemap::Section> = secs
            .iter()
            .filter(|s| s.label != "start" && s.label != "end")
            .collect();
        let mut map = pad_top(&find("start").map);
        let mut sections = vec!["start".to_string()];
        let mut section_x = vec![0];
        let mut last = usize::MAX;
        while map.width() < LEVEL_TILES {
            let mut i = rng.index(pool.len());
            if i == last {
                i = (i + 1) % pool.len();
            }
            last = i;
            section_x.push(map.width());
            map.append(&pad_top(&pool[i].map)).expect("same height");
            sections.push(pool[i].label.clone());
        }
        let finish_x = map.width() as f64 + 4.0;
        section_x.push(map.width());
        map.append(&pad_top(&find("end").map)).expect("same height");
        sections.push("end".to_string());
        Level {
            number,
            map,
            finish_x,
            sections,
            section_x,
        }
    }
}

fn solidity(t: u8) -> Solidity {
    if t == b'#' {
        Solidity::Solid
    } else {
        Solidity::Empty
    }
}

/// Why an attempt ended badly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Spike,
    Crash,
    Fall,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Spike => "hit a spike",
            Death::Crash => "crashed into a block",
            Death::Fall => "fell into a gap",
        }
    }
}

/// Hitbox of a spike tile, relative to its tile.
const FLOOR_SPIKE: Aabb = Aabb::new(0.3, 0.42, 0.4, 0.58);
const HANGING_SPIKE: Aabb = Aabb::new(0.3, 0.0, 0.4, 0.55);
const PAD_BOX: Aabb = Aabb::new(0.05, 0.7, 0.9, 0.3);

/// The cube's deterministic run through a level (no randomness; cloned by
/// the expert to look ahead).
#[derive(Clone, Debug, PartialEq)]
pub struct Runner {
    pub body: Body,
    pub jump: JumpAssist,
    pub held: bool,
    pub death: Option<Death>,
    pub finished: bool,
    /// Stars taken in this attempt, as tile positions.
    pub stars: Vec<(i64, i64)>,
    pub jumps: u32,
    pub ticks: u64,
}

impl Runner {
    pub fn new() -> Self {
        let mut body = Body::new(START_X, (ROWS - 3) as f64, 1.0, 1.0);
        body.on_ground = true;
        Runner {
            body,
            jump: JumpAssist::new(COYOTE_S, BUFFER_S),
            held: false,
            death: None,
            finished: false,
            stars: Vec::new(),
            jumps: 0,
            ticks: 0,
        }
    }

    pub fn over(&self) -> bool {
        self.death.is_some() || self.finished
    }

    pub fn key(&mut self, down: bool) {
        if down && !self.held {
            self.jump.press();
        }
        self.held = down;
    }

    /// Tiles travelled.
    pub fn distance(&self) -> f64 {
        self.body.aabb.x - START_X
    }

    /// One fixed tick.
    pub fn tick(&mut self, level: &Level) {
        if self.over() {
            return;
        }
        self.ticks += 1;
        let b = &mut self.body;
        if self.held && b.on_ground {
            self.jump.press();
        }
        self.jump.update(b.on_ground, DT);
        if self.jump.take() {
            b.vy = -JUMP_SPEED;
            self.jumps += 1;
        }
        b.vx = SPEED;
        b.vy = (b.vy + GRAVITY * DT).min(MAX_FALL);
        let world = Collider {
            map: &level.map,
            kind: solidity,
            outside: tilemap::EMPTY,
            step_up: STEP_UP,
        };
        let c = platform::move_body(b, &world, DT);
        if c.right || c.top {
            // Below the floor line the cube hit the far wall of a pit.
            let in_pit = b.aabb.bottom() > (ROWS - 2) as f64 + 0.01;
            self.death = Some(if in_pit { Death::Fall } else { Death::Crash });
            return;
        }
        let cube = b.aabb;
        let mut hit = false;
        let mut pad = false;
        let mut stars = Vec::new();
        platform::for_each_overlapping(&level.map, &cube, |x, y, t| {
            let at = |r: Aabb| Aabb::new(x as f64 + r.x, y as f64 + r.y, r.w, r.h);
            match t {
                b'^' => hit |= cube.overlaps(&at(FLOOR_SPIKE)),
                b'v' => hit |= cube.overlaps(&at(HANGING_SPIKE)),
                b'J' => pad |= cube.overlaps(&at(PAD_BOX)),
                b'*' => stars.push((x, y)),
                _ => {}
            }
        });
        for s in stars {
            if !self.stars.contains(&s) {
                self.stars.push(s);
            }
        }
        if hit {
            self.death = Some(Death::Spike);
            return;
        }
        if pad && self.body.vy > -PAD_SPEED * 0.5 {
            self.body.vy = -PAD_SPEED;
            self.body.on_ground = false;
        }
        if self.body.aabb.y > ROWS as f64 {
            self.death = Some(Death::Fall);
        } else if self.body.aabb.x >= level.finish_x {
            self.finished = true;
        }
    }
}

impl Default for Runner {
    fn default() -> Self {
        Self::new()
    }
}

pub struct Geodash {
    seed: u64,
    level_no: u32,
    level: Arc<Level>,
    clock: FixedStep,
    runner: Runner,
    game_time_ms: u64,
    episode: u32,
    deaths: u32,
    best_score: u32,
    terminal: Terminal,
}

impl Default for Geodash {
    fn default() -> Self {
        Self::new()
    }
}

impl Geodash {
    pub fn new() -> Self {
        Geodash {
            seed: 0,
            level_no: 1,
            level: Arc::new(Level::build(1, &mut Rng::new(0, 0))),
            clock: FixedStep::new(TICK_MS),
            runner: Runner::new(),
            game_time_ms: 0,
            episode: 0,
            deaths: 0,
            best_score: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn runner(&self) -> &Runner {
        &self.runner
    }

    pub fn level(&self) -> &Level {
        &self.level
    }

    pub fn score(&self) -> u32 {
        (self.runner.distance() + 1e-6).max(0.0).floor() as u32
    }

    fn camera(&self) -> Camera {
        let mut cam = Camera::new(VIEW_W / TILE_PX, ROWS as f64, TILE_PX, (0.0, ORIGIN_Y));
        let b = &self.runner.body.aabb;
        cam.follow(
            b.x,
            0.0,
            (0.25, 0.0),
            self.level.map.width() as f64,
            ROWS as f64,
        );
        cam
    }

    /// Obstacles and pick-ups in view, nearest first.
    fn entities(&self) -> Vec<Value> {
        let cam = self.camera();
        let (x0, y0, x1, y1) = cam.visible_tiles();
        let mut out = Vec::new();
        for x in x0.max(0)..x1 {
            for y in y0.max(0)..y1 {
                let kind = match self.level.map.at(x, y, tilemap::EMPTY) {
                    b'^' => "spike",
                    b'v' => "hanging_spike",
                    b'J' => "jump_pad",
                    b'*' if !self.runner.stars.contains(&(x, y)) => "star",
                    b'#' if y < (ROWS - 2) as i64 => "block",
                    _ => continue,
                };
                out.push(json!({"type": kind, "x": x, "y": y}));
            }
        }
        out
    }
}

impl Game for Geodash {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level_no = config.level.unwrap_or(1).clamp(1, 3);
        let mut rng = Rng::new(config.seed, 0x6E0D_A500 + self.level_no as u64);
        self.level = Arc::new(Level::build(self.level_no, &mut rng));
        self.deaths = 0;
        self.best_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.clock = FixedStep::new(TICK_MS);
        self.runner = Runner::new();
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r = &self.runner;
        let b = &r.body;
        let score = self.score();
        let finish = self.level.finish_x - START_X;
        let completion = (r.distance() / finish).clamp(0.0, 1.0);
        set(&mut s.game_state, "score", score);
        set(&mut s.game_state, "level", self.level_no);
        set(&mut s.game_state, "progress", round2(completion));
        set(&mut s.game_state, "completion_progress", round2(completion));
        set(&mut s.game_state, "mode", "cube");
        set(&mut s.game_state, "player_die", r.death.is_some());
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(b.aabb.x), "y": round2(b.aabb.y),
                "vx": round2(b.vx), "vy": round2(b.vy),
                "width": b.aabb.w, "height": b.aabb.h,
                "on_ground": b.on_ground, "holding_jump": r.held,
            }),
        );
        set(&mut s.game_state, "entities", json!(self.entities()));
        set(&mut s.game_state, "attempt", self.episode + 1);
        set(&mut s.metrics, "distance", round2(r.distance()));
        set(&mut s.metrics, "points", r.stars.len() as u32 * 10);
        set(&mut s.metrics, "stars", r.stars.len());
        set(&mut s.metrics, "best_score", self.best_score.max(score));
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(&mut s.metrics, "jumps", r.jumps);
        set(
            &mut s.metrics,
            "distance_to_goal",
            round2((self.level.finish_x - b.aabb.x).max(0.0)),
        );
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "level_length", round2(finish));
        set(&mut s.raw, "sections", json!(self.level.sections));
        set(&mut s.raw, "speed_tiles_per_s", SPEED);
        set(&mut s.raw, "tile_px", TILE_PX);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "Space" => self.runner.key(true),
            InputEvent::KeyUp { key } if key == "Space" => self.runner.key(false),
            // A click also jumps in the original.
            InputEvent::MouseDown { .. } => self.runner.key(true),
            InputEvent::MouseUp { .. } => self.runner.key(false),
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.game_time_ms += TICK_MS;
            self.runner.tick(&self.level);
            self.best_score = self.best_score.max(self.score());
            if let Some(d) = self.runner.death {
                self.deaths += 1;
                self.terminal = Terminal::ended(Outcome::Fail, d.reason());
            } else if self.runner.finished {
                self.terminal = Terminal::ended(Outcome::Success, "level complete");
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        let jump = expert::should_jump(&self.runner, &self.level);
        json!({"action": if jump { "jump" } else { "wait" }})
    }
}

// ---------------------------------------------------------------- rendering

const GROUND_TOP: f64 = (ROWS - 2) as f64;

/// Sky with a faint grid, drawn once; it scrolls at a fifth of the speed.
fn sky_strip() -> &'static Pixmap {
    static STRIP: OnceLock<Pixmap> = OnceLock::new();
    STRIP.get_or_init(|| {
        let h = (ORIGIN_Y + GROUND_TOP * TILE_PX) as u32 - 56;
        let w = VIEW_W as u32 + 192;
        let mut pm = Pixmap::new(w, h).expect("strip");
        for i in 0..h {
            let t = i as f32 / h as f32;
            let c = rgb(
                (40.0 + 30.0 * t) as u8,
                (70.0 + 40.0 * t) as u8,
                (190.0 - 20.0 * t) as u8,
            );
            draw::rect(&mut pm, 0.0, i as f32, w as f32, 1.0, c);
        }
        let line = rgba(255, 255, 255, 22);
        for k in 0..(w / 96 + 1) {
            draw::rect(&mut pm, k as f32 * 96.0, 0.0, 2.0, h as f32, line);
        }
        for k in 0..(h / 96 + 1) {
            draw::rect(
                &mut pm,
                0.0,
                h as f32 - k as f32 * 96.0,
                w as f32,
                2.0,
                line,
            );
        }
        pm
    })
}

fn render_spike(pm: &mut Pixmap, x: f32, y: f32, s: f32, down: bool) {
    let pts = if down {
        [(x + 3.0, y), (x + s - 3.0, y), (x + s / 2.0, y + s * 0.85)]
    } else {
        [
            (x + 3.0, y + s),
            (x + s - 3.0, y + s),
            (x + s / 2.0, y + s * 0.15),
        ]
    };
    draw::polygon(pm, &pts, rgb(255, 255, 255));
    let inner = if down {
        [
            (x + 8.0, y + 2.0),
            (x + s - 8.0, y + 2.0),
            (x + s / 2.0, y + s * 0.85 - 9.0),
        ]
    } else {
        [
            (x + 8.0, y + s - 2.0),
            (x + s - 8.0, y + s - 2.0),
            (x + s / 2.0, y + s * 0.15 + 9.0),
        ]
    };
    draw::polygon(pm, &inner, rgb(20, 20, 30));
}

fn render(g: &Geodash, pm: &mut Pixmap) {
    let cam = g.camera();
    let s = TILE_PX as f32;
    let scroll = (cam.x * TILE_PX / 5.0) as u32 % 96;
    draw::copy_layer(pm, sky_strip(), scroll, VIEW_W as u32, 0, 56);
    // Ground band.
    let (_, gy) = cam.to_screen(0.0, GROUND_TOP);
    // Below the floor line: the dark of the pits, covered by ground tiles.
    draw::rect(
        pm,
        0.0,
        gy,
        VIEW_W as f32,
        VIEW_H as f32 - gy,
        rgb(8, 10, 24),
    );
    let (x0, y0, x1, y1) = cam.visible_tiles();
    g.level.map.for_each_in(x0, y0, x1, y1, |x, y, t| {
        let (sx, sy) = cam.to_screen(x as f64, y as f64);
        match t {
            b'#' if y as f64 >= GROUND_TOP => {
                let c = if y as f64 == GROUND_TOP {
                    rgb(30, 60, 170)
                } else {
                    rgb(24, 48, 140)
                };
                draw::rect(pm, sx, sy, s + 1.0, s, c);
                if g.level.map.at(x, y - 1, b'.') != b'#' {
                    draw::rect(pm, sx, sy, s + 1.0, 4.0, rgb(230, 240, 255));
                }
            }
            b'#' => {
                draw::rect(pm, sx, sy, s, s, rgb(235, 240, 255));
                draw::rect(pm, sx + 3.0, sy + 3.0, s - 6.0, s - 6.0, rgb(16, 18, 34));
                draw::rect_outline(
                    pm,
                    sx + 10.0,
                    sy + 10.0,
                    s - 20.0,
                    s - 20.0,
                    2.0,
                    rgb(90, 110, 200),
                );
            }
            b'^' => render_spike(pm, sx, sy, s, false),
            b'v' => render_spike(pm, sx, sy, s, true),
            b'J' => {
                draw::rounded_rect(
                    pm,
                    sx + 3.0,
                    sy + s * 0.72,
                    s - 6.0,
                    s * 0.28,
                    6.0,
                    rgb(255, 214, 40),
                );
                draw::rect(pm, sx + 3.0, sy + s - 4.0, s - 6.0, 4.0, rgb(200, 150, 10));
            }
            b'*' if !g.runner.stars.contains(&(x, y)) => {
                let (cx, cy) = (sx + s / 2.0, sy + s / 2.0);
                let mut pts = Vec::with_capacity(10);
                for k in 0..10 {
                    let a = std::f64::consts::PI * (k as f64 / 5.0 - 0.5);
                    let r = if k % 2 == 0 { 17.0 } else { 7.5 };
                    pts.push((cx + r * libm::cos(a) as f32, cy + r * libm::sin(a) as f32));
                }
                draw::polygon(pm, &pts, rgb(255, 230, 80));
            }
            _ => {}
        }
    });
    // Finish line: a checkered column.
    let (fx, _) = cam.to_screen(g.level.finish_x, 0.0);
    if fx < VIEW_W as f32 + 20.0 {
        for k in 0..((gy - 56.0) / 24.0) as i32 + 1 {
            let c = if k % 2 == 0 {
                rgb(255, 255, 255)
            } else {
                rgb(20, 20, 20)
            };
            draw::rect(pm, fx, gy - 24.0 * (k + 1) as f32, 12.0, 24.0, c);
            let c2 = if k % 2 == 1 {
                rgb(255, 255, 255)
            } else {
                rgb(20, 20, 20)
            };
            draw::rect(pm, fx + 12.0, gy - 24.0 * (k + 1) as f32, 12.0, 24.0, c2);
        }
    }
    // The cube, tilted while airborne.
    let b = g.runner.body.aabb;
    let (px, py) = cam.to_screen(b.x, b.y);
    let (cx, cy) = (px + s / 2.0, py + s / 2.0);
    let angle = if g.runner.body.on_ground {
        0.0
    } else {
        (g.runner.ticks as f64 * DT * 7.0) % (std::f64::consts::PI / 2.0)
    };
    let corner = |dx: f32, dy: f32| {
        let (sn, cs) = (libm::sin(angle) as f32, libm::cos(angle) as f32);
        (cx + dx * cs - dy * sn, cy + dx * sn + dy * cs)
    };
    let h = s / 2.0;
    draw::polygon(
        pm,
        &[corner(-h, -h), corner(h, -h), corner(h, h), corner(-h, h)],
        rgb(20, 20, 20),
    );
    let i = h - 4.0;
    draw::polygon(
        pm,
        &[corner(-i, -i), corner(i, -i), corner(i, i), corner(-i, i)],
        rgb(120, 230, 60),
    );
    let e = h - 14.0;
    draw::polygon(
        pm,
        &[corner(-e, -e), corner(e, -e), corner(e, e), corner(-e, e)],
        rgb(80, 220, 255),
    );
    if let Some(d) = g.runner.death {
        let _ = d;
        draw::circle(pm, cx, cy, 34.0, rgba(255, 120, 40, 150));
    }

    draw::hud(
        pm,
        &format!("Geometry Dash - Level {}", g.level_no),
        &[
            ("Attempt", (g.episode + 1).to_string()),
            ("Distance", g.score().to_string()),
            ("Stars", g.runner.stars.len().to_string()),
            ("Best", g.best_score.max(g.score()).to_string()),
        ],
    );
    draw::text(
        pm,
        "Space: jump (hold to keep jumping)",
        20.0,
        VIEW_H as f32 - 34.0,
        20.0,
        rgb(200, 210, 255),
        Align::Left,
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "LEVEL COMPLETE",
        &format!(
            "Distance {} - {}",
            g.score(),
            g.terminal.reason.as_deref().unwrap_or("")
        ),
    );
}
