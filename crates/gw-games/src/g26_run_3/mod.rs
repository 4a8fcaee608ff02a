//! 26_run-3 — run through a tunnel in space; any wall can be the floor.
//!
//! The tunnel has a square cross-section; each of its four sides is
//! [`SIDE_TILES`] tiles wide, and rows of tiles are [`ROW_LEN`] m long. The
//! runner runs forward on its own, faster and faster. ArrowLeft/ArrowRight
//! strafe while held; stepping past the edge of the side you stand on puts
//! you on the neighbouring wall, which becomes the new floor (the whole view
//! turns with you). ArrowUp or Space jumps (on key-down, from the ground).
//! Where tiles are missing there is only space: standing over a hole drops
//! the runner out of the tunnel, which ends the run.
//!
//! Infinite mode (the only mode the tasks use: `init: {mode: infinite}`, the
//! reference's `?level=infinite`): the tunnel is generated endlessly from the
//! episode's random stream, [`AHEAD_ROWS`] rows ahead of the runner, as a
//! sequence of sections — clear runs, scattered holes (with an unbroken
//! strip somewhere), gaps across the whole tunnel to jump, and stretches
//! where whole sides are missing. Later sections are harder (more holes,
//! longer gaps, more missing sides); the difficulty tier is
//! `game_state.level`. Power cells float over some tiles and rarer stars
//! over gaps; running or jumping through them collects them.
//!
//! Score: `metrics.primary_score` is the distance run in whole metres. Speed
//! rises from [`V0`] to [`VMAX`] m/s, so 600 m take about 30 s, which fits in
//! 100 steps that mix 0.5 s waits with 0.2 s strafes and jumps.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::render3d::{Backdrop, Camera, Fog, Light, Scene, Shade, SparseLayer, V3, v3};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "26_run-3";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Tiles across one side of the tunnel (each 1 m wide).
pub const SIDE_TILES: usize = 5;
pub const SIDE_W: f64 = SIDE_TILES as f64;
/// Length of a row of tiles, m.
pub const ROW_LEN: f64 = 2.0;
/// Running speed at the start, top speed (m/s) and its rise (m/s²).
pub const V0: f64 = 16.0;
pub const VMAX: f64 = 26.0;
pub const ACCEL: f64 = 0.3;
/// Strafing speed while an arrow key is held, m/s.
pub const STRAFE: f64 = 7.0;
pub const JUMP_SPEED: f64 = 5.5;
pub const GRAVITY: f64 = 18.0;
/// Depth below the floor at which a fall out of the tunnel ends the run.
pub const FALL_DEATH: f64 = 3.0;
/// Rows generated ahead of the runner.
pub const AHEAD_ROWS: i64 = 60;
/// Solid rows before and after a gap across the tunnel: a jump at top speed
/// covers about 16 m (8 rows), so a jump over a hole just before the gap
/// still lands on solid floor with time to jump again, and the landing zone
/// after it is clear.
const GAP_BEFORE: usize = 9;
const GAP_AFTER: usize = 10;
/// Whole rows before a stretch with missing sides: time to strafe from
/// wherever the last section left the runner (a side that is about to go,
/// possibly across a whole side) onto one that stays. Without them two such
/// stretches could meet head on, the floor jumping from one side to another
/// between two rows, which no timing at 0.2 s a strafe can follow.
const SIDES_BEFORE: usize = 10;
/// Clear rows at the start of a run.
const START_ROWS: i64 = 12;
/// Reach of the runner for items, m (sideways, along the tunnel).
const PICK_U: f64 = 0.7;
const PICK_Z: f64 = 0.9;

pub fn speed_at(t_ms: u64) -> f64 {
    (V0 + ACCEL * t_ms as f64 / 1000.0).min(VMAX)
}

/// One row: a bit per tile, `SIDE_TILES` bits per side.
pub type Row = [u8; 4];
const FULL: u8 = (1 << SIDE_TILES) - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Cell,
    Star,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item {
    pub kind: ItemKind,
    pub side: u8,
    /// Across the side, m (0..SIDE_W).
    pub u: f64,
    /// Along the tunnel, m.
    pub z: f64,
    /// Height above that side, m.
    pub h: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Runner {
    /// Side standing on (0 is the starting floor; side + 1 is to its right).
    pub side: u8,
    /// Position across the side, m.
    pub u: f64,
    /// Height above the side, m (negative while falling out).
    pub h: f64,
    pub vh: f64,
    /// Distance along the tunnel, m.
    pub z: f64,
    pub falling: bool,
}

impl Runner {
    pub fn on_ground(&self) -> bool {
        self.h <= 0.0 && !self.falling
    }
}

/// The simulation without the generator (the expert rolls copies of it).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub runner: Runner,
    /// Rows from `first_row` on.
    pub rows: VecDeque<Row>,
    pub first_row: i64,
    pub items: Vec<Item>,
    /// Run time, ms.
    pub t_ms: u64,
    pub left: bool,
    pub right: bool,
    pub cells: u32,
    pub stars: u32,
    pub jumps: u32,
    pub side_changes: u32,
    pub dead: bool,
}

impl World {
    fn new() -> Self {
        World {
            runner: Runner {
                side: 0,
                u: SIDE_W / 2.0,
                h: 0.0,
                vh: 0.0,
                z: 0.0,
                falling: false,
            },
            rows: VecDeque::new(),
            first_row: -2,
            items: Vec::new(),
            t_ms: 0,
            left: false,
            right: false,
            cells: 0,
            stars: 0,
            jumps: 0,
            side_changes: 0,
            dead: false,
        }
    }

    pub fn speed(&self) -> f64 {
        speed_at(self.t_ms)
    }

    pub fn last_row(&self) -> i64 {
        self.first_row + self.rows.len() as i64 - 1
    }

    /// Whether tile `col` of `side` in row `row` is there (rows not generated
    /// yet count as solid).
    pub fn tile(&self, row: i64, side: u8, col: usize) -> bool {
        if row < self.first_row || row > self.last_row() {
            return true;
        }
        self.rows[(row - self.first_row) as usize][side as usize] & (1 << col) != 0
    }

    /// Whether there is floor under a point of a side.
    pub fn floor_at(&self, side: u8, u: f64, z: f64) -> bool {
        let col = (libm::floor(u) as i64).clamp(0, SIDE_TILES as i64 - 1) as usize;
        self.tile(libm::floor(z / ROW_LEN) as i64, side, col)
    }

    pub fn jump(&mut self) {
        if self.runner.on_ground() && !self.dead {
            self.runner.vh = JUMP_SPEED;
            self.runner.h = 1e-9;
            self.jumps += 1;
        }
    }

    fn steer(&self) -> f64 {
        match (self.left, self.right) {
            (true, false) => -1.0,
            (false, true) => 1.0,
            _ => 0.0,
        }
    }

    /// One fixed tick. Returns true when the runner has just fallen out.
    pub fn tick(&mut self) -> bool {
        if self.dead {
            return false;
        }
        let v = self.speed();
        let steer = self.steer();
        self.t_ms += TICK_MS;
        let r = &mut self.runner;
        r.z += v * DT;
        if r.falling {
            r.vh -= GRAVITY * DT;
            r.h += r.vh * DT;
            if r.h < -FALL_DEATH {
                self.dead = true;
                return true;
            }
            return false;
        }
        r.u += steer * STRAFE * DT;
        if r.h > 0.0 {
            // In the air the runner cannot round a corner.
            r.u = r.u.clamp(0.05, SIDE_W - 0.05);
            r.vh -= GRAVITY * DT;
            r.h += r.vh * DT;
            if r.h <= 0.0 {
                r.h = 0.0;
                r.vh = 0.0;
            }
        } else if r.u < 0.0 {
            r.side = (r.side + 3) % 4;
            r.u += SIDE_W;
            self.side_changes += 1;
        } else if r.u >= SIDE_W {
            r.side = (r.side + 1) % 4;
            r.u -= SIDE_W;
            self.side_changes += 1;
        }
        let r = self.runner;
        if r.h <= 0.0 && !self.floor_at(r.side, r.u, r.z) {
            self.runner.falling = true;
            self.runner.vh = 0.0;
        }
        // Items.
        let (mut cells, mut stars) = (0, 0);
        self.items.retain(|it| {
            let hit = it.side == r.side
                && (it.u - r.u).abs() < PICK_U
                && (it.z - r.z).abs() < PICK_Z
                && (it.h - (r.h + 0.5)).abs() < 0.9;
            if hit {
                match it.kind {
                    ItemKind::Cell => cells += 1,
                    ItemKind::Star => stars += 1,
                }
            }
            !hit && it.z > r.z - 4.0
        });
        self.cells += cells;
        self.stars += stars;
        // Drop rows far behind.
        let keep = libm::floor(r.z / ROW_LEN) as i64 - 3;
        while self.first_row < keep && self.rows.len() > 1 {
            self.rows.pop_front();
            self.first_row += 1;
        }
        false
    }

    pub fn distance(&self) -> f64 {
        self.runner.z
    }

    pub fn row_index(&self) -> i64 {
        libm::floor(self.runner.z / ROW_LEN) as i64
    }
}

/// Sections the generator lays out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Clear,
    Holes,
    Gap,
    MissingSides,
}

pub struct Run3 {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    /// Side and column of the unbroken strip kept through hole sections.
    strip: (u8, usize),
    /// Shown roll of the view, radians (eases toward the runner's side).
    view_roll: f64,
    jump_held: bool,
    deaths: u32,
    best_distance: f64,
    episode: u32,
    terminal: Terminal,
}

impl Default for Run3 {
    fn default() -> Self {
        Self::new()
    }
}

/// Difficulty tier at a distance (the state's `game_state.level`).
pub fn tier(distance: f64) -> u32 {
    1 + (distance.max(0.0) / 150.0) as u32
}

impl Run3 {
    pub fn new() -> Self {
        Run3 {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            strip: (0, 2),
            view_roll: 0.0,
            jump_held: false,
            deaths: 0,
            best_distance: 0.0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn push_row(&mut self, row: Row) {
        self.world.rows.push_back(row);
    }

    fn next_z(&self) -> f64 {
        (self.world.last_row() + 1) as f64 * ROW_LEN
    }

    /// Lay out one more section at the end of the tunnel.
    fn generate_section(&mut self) {
        let level = tier(self.next_z());
        let lv = level.min(6) as f64;
        let pick = self.rng.next_f64();
        let section = if pick < 0.22 {
            Section::Clear
        } else if pick < 0.52 {
            Section::Holes
        } else if pick < 0.76 {
            Section::Gap
        } else {
            Section::MissingSides
        };
        match section {
            Section::Clear => {
                let n = self.rng.range_i32(3, 7);
                for _ in 0..n {
                    self.maybe_cell();
                    self.push_row([FULL; 4]);
                }
            }
            Section::Holes => {
                let n = self.rng.range_i32(6, 12);
                let p = (0.10 + 0.03 * lv).min(0.25);
                for _ in 0..n {
                    // The strip drifts sideways now and then but never breaks.
                    if self.rng.chance(0.25) {
                        let (s, c) = self.strip;
                        let c = if self.rng.chance(0.5) {
                            c.saturating_sub(1)
                        } else {
                            (c + 1).min(SIDE_TILES - 2)
                        };
                        self.strip = (s, c);
                    }
                    let mut row = [FULL; 4];
                    for (s, bits) in row.iter_mut().enumerate() {
                        for c in 0..SIDE_TILES {
                            let keep = s as u8 == self.strip.0
                                && (c == self.strip.1 || c == self.strip.1 + 1);
                            if !keep && self.rng.chance(p) {
                                *bits &= !(1 << c);
                            }
                        }
                    }
                    self.maybe_cell();
                    self.push_row(row);
                }
            }
            Section::Gap => {
                let len = self.rng.range_i32(1, if level >= 3 { 3 } else { 2 });
                for _ in 0..GAP_BEFORE {
                    self.push_row([FULL; 4]);
                }
                let gap_z = self.next_z();
                for _ in 0..len {
                    self.push_row([0; 4]);
                }
                if self.rng.chance(0.4) {
                    let side = self.rng.below(4) as u8;
                    let u = self.rng.range_f64(0.8, SIDE_W - 0.8);
                    self.world.items.push(Item {
                        kind: ItemKind::Star,
                        side,
                        u,
                        z: gap_z + len as f64 * ROW_LEN * 0.5,
                        h: 0.9,
                    });
                }
                // A landing zone longer than a jump at top speed plus a step.
                for _ in 0..GAP_AFTER {
                    self.push_row([FULL; 4]);
                }
            }
            Section::MissingSides => {
                let n = self.rng.range_i32(6, 10 + 2 * lv as i32);
                let missing = if level >= 2 && self.rng.chance(0.5) {
                    2
                } else {
                    1
                };
                let first = self.rng.below(4) as u8;
                let mut row = [FULL; 4];
                row[first as usize] = 0;
                if missing == 2 {
                    let other = (first + 1 + self.rng.below(3) as u8) % 4;
                    row[other as usize] = 0;
                }
                // The strip moves to a side that stays.
                let keep: Vec<u8> = (0..4u8).filter(|&s| row[s as usize] != 0).collect();
                self.strip = (
                    keep[self.rng.index(keep.len())],
                    self.rng.index(SIDE_TILES - 1),
                );
                for _ in 0..SIDES_BEFORE {
                    self.push_row([FULL; 4]);
                }
                for _ in 0..n {
                    self.maybe_cell();
                    self.push_row(row);
                }
            }
        }
    }

    /// A power cell over the next row, now and then.
    fn maybe_cell(&mut self) {
        if self.rng.chance(0.18) {
            let side = self.rng.below(4) as u8;
            let col = self.rng.index(SIDE_TILES);
            let z = self.next_z() + ROW_LEN * 0.5;
            self.world.items.push(Item {
                kind: ItemKind::Cell,
                side,
                u: col as f64 + 0.5,
                z,
                h: 0.5,
            });
        }
    }

    fn generate(&mut self) {
        if self.world.last_row() >= self.world.row_index() + AHEAD_ROWS {
            return;
        }
        while self.world.last_row() < self.world.row_index() + AHEAD_ROWS {
            if self.world.last_row() < START_ROWS {
                self.push_row([FULL; 4]);
            } else {
                self.generate_section();
            }
        }
        // Items over missing tiles (except stars over gaps) are dropped.
        let w = &self.world;
        let keep: Vec<bool> = w
            .items
            .iter()
            .map(|it| it.kind == ItemKind::Star || w.floor_at(it.side, it.u, it.z))
            .collect();
        let mut i = 0;
        self.world.items.retain(|_| {
            i += 1;
            keep[i - 1]
        });
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        if self.world.tick() {
            self.deaths += 1;
            self.terminal = Terminal::ended(Outcome::Fail, "fell out of the tunnel");
            return;
        }
        self.best_distance = self.best_distance.max(self.world.distance());
        let target = self.world.runner.side as f64 * std::f64::consts::FRAC_PI_2;
        // Ease the shown roll along the shorter way round.
        let mut d = target - self.view_roll;
        let tau = std::f64::consts::TAU;
        d -= tau * libm::round(d / tau);
        self.view_roll += d * 0.25;
        self.generate();
    }

    pub fn primary_score(&self) -> u64 {
        self.world.distance() as u64
    }
}

impl Game for Run3 {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.deaths = 0;
        self.best_distance = 0.0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x2B33_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        self.strip = (0, 2);
        self.view_roll = 0.0;
        self.jump_held = false;
        self.terminal = Terminal::running();
        self.generate();
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let mut s = GameApiState::new(
            ID,
            self.seed,
            w.t_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r2 = |v: f64| (v * 100.0).round() / 100.0;
        let r = &w.runner;
        set(&mut s.game_state, "score", self.primary_score());
        set(&mut s.game_state, "level", tier(w.distance()));
        set(&mut s.game_state, "mode", "infinite");
        set(&mut s.game_state, "progress", Value::Null);
        set(
            &mut s.game_state,
            "player",
            json!({
                "side": r.side,
                "u": r2(r.u),
                "column": (libm::floor(r.u) as i64).clamp(0, SIDE_TILES as i64 - 1),
                "height": r2(r.h),
                "z": r2(r.z),
                "on_ground": r.on_ground(),
                "falling": r.falling,
                "is_dead": w.dead,
            }),
        );
        // The tunnel ahead: one string per row and side, '#' tile, '.' hole.
        let row0 = w.row_index();
        let ahead: Vec<Value> = (row0..=(row0 + 30).min(w.last_row()))
            .map(|row| {
                let sides: Vec<String> = (0..4u8)
                    .map(|sd| {
                        (0..SIDE_TILES)
                            .map(|c| if w.tile(row, sd, c) { '#' } else { '.' })
                            .collect()
                    })
                    .collect();
                json!({"row": row, "z": row as f64 * ROW_LEN, "sides": sides})
            })
            .collect();
        set(
            &mut s.game_state,
            "board",
            json!({"rows_ahead": ahead, "side_tiles": SIDE_TILES, "row_length": ROW_LEN}),
        );
        let items: Vec<Value> = w
            .items
            .iter()
            .filter(|it| it.z > r.z - 1.0 && it.z < r.z + 60.0)
            .map(|it| json!({"type": match it.kind { ItemKind::Cell => "power_cell", ItemKind::Star => "star" }, "side": it.side, "u": r2(it.u), "dz": r2(it.z - r.z), "height": it.h}))
            .collect();
        set(&mut s.game_state, "entities", json!(items));
        set(&mut s.metrics, "primary_score", self.primary_score());
        set(&mut s.metrics, "distance", r2(w.distance()));
        set(&mut s.metrics, "speed", r2(w.speed()));
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(&mut s.metrics, "coins", w.cells);
        set(&mut s.metrics, "stars", w.stars);
        set(&mut s.metrics, "jumps", w.jumps);
        set(&mut s.metrics, "side_changes", w.side_changes);
        set(&mut s.metrics, "best_distance", r2(self.best_distance));
        set(&mut s.raw, "episode", self.episode);
        set(
            &mut s.raw,
            "runner",
            json!({"side": r.side, "u": r.u, "h": r.h, "vh": r.vh, "z": r.z}),
        );
        set(&mut s.raw, "view_roll", self.view_roll);
        set(&mut s.raw, "first_row", w.first_row);
        set(&mut s.raw, "last_row", w.last_row());
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => match key.as_str() {
                "ArrowLeft" => self.world.left = true,
                "ArrowRight" => self.world.right = true,
                "ArrowUp" | "Space" if !self.jump_held => {
                    self.jump_held = true;
                    if !self.terminal.is_terminal {
                        self.world.jump();
                    }
                }
                _ => {}
            },
            InputEvent::KeyUp { key } => match key.as_str() {
                "ArrowLeft" => self.world.left = false,
                "ArrowRight" => self.world.right = false,
                "ArrowUp" | "Space" => self.jump_held = false,
                _ => {}
            },
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
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

const VIEW_TOP: u32 = 56;
const SPACE: Rgb = rgb(8, 8, 22);
const FOG_END: f64 = 92.0;

/// A point of `side` at (u across, height h) in the tunnel's cross-section
/// frame (x right, y up, centred on the tunnel axis).
pub fn section_point(side: u8, u: f64, h: f64) -> (f64, f64) {
    let (x, y) = (u - SIDE_W / 2.0, -SIDE_W / 2.0 + h);
    rotate(x, y, side as f64 * std::f64::consts::FRAC_PI_2)
}

fn rotate(x: f64, y: f64, a: f64) -> (f64, f64) {
    let (s, c) = (libm::sin(a), libm::cos(a));
    (x * c - y * s, x * s + y * c)
}

/// Deterministic star field behind the tunnel.
fn starfield() -> &'static Pixmap {
    static LAYER: OnceLock<Pixmap> = OnceLock::new();
    LAYER.get_or_init(|| {
        let mut pm = Pixmap::new(1280, 720 - VIEW_TOP).expect("layer");
        draw::clear(&mut pm, SPACE);
        let mut rng = Rng::new(26, 3);
        for _ in 0..420 {
            let x = rng.range_f64(0.0, 1280.0) as f32;
            let y = rng.range_f64(0.0, (720 - VIEW_TOP) as f64) as f32;
            let b = 120 + rng.below(135) as u8;
            let r = if rng.chance(0.1) { 2.0 } else { 1.0 };
            draw::rect(&mut pm, x, y, r, r, rgb(b, b, b.saturating_add(20)));
        }
        pm
    })
}

/// The star field as space colour plus its star pixels (drawn without
/// reading the whole layer each frame; the same pixels).
fn sparse_starfield() -> &'static SparseLayer {
    static LAYER: OnceLock<SparseLayer> = OnceLock::new();
    LAYER.get_or_init(|| SparseLayer::new(starfield(), SPACE))
}

/// Gap left around each tile, m (the dark seams between tiles).
const TILE_INSET: f64 = 0.05;

/// A side's inward normal and, per column, its tile's two long edges.
type SideTiles = (V3, [((f64, f64), (f64, f64)); SIDE_TILES]);

/// Per side: the inward normal and, per column, the cross-section points
/// of a tile's two long edges. The same values every frame, so they are
/// worked out (sines and cosines included) once.
fn tile_edges() -> &'static [SideTiles; 4] {
    static EDGES: OnceLock<[SideTiles; 4]> = OnceLock::new();
    EDGES.get_or_init(|| {
        std::array::from_fn(|side| {
            let side = side as u8;
            let (nx, ny) = rotate(0.0, 1.0, side as f64 * std::f64::consts::FRAC_PI_2);
            let edges = std::array::from_fn(|col| {
                (
                    section_point(side, col as f64 + TILE_INSET, 0.0),
                    section_point(side, col as f64 + 1.0 - TILE_INSET, 0.0),
                )
            });
            (v3(nx, ny, 0.0), edges)
        })
    })
}

pub fn camera(g: &Run3) -> Camera {
    let r = &g.world.runner;
    let (rx, ry) = section_point(r.side, r.u, r.h.max(-FALL_DEATH));
    // Eye above and behind the runner, in the view's own up direction.
    let (ux, uy) = rotate(0.0, 1.0, g.view_roll);
    let eye = 2.2;
    let mut cam = Camera::new(
        v3(rx + ux * eye, ry + uy * eye, r.z - 3.4),
        1280,
        720 - VIEW_TOP,
    );
    cam.screen = (0, VIEW_TOP, 1280, 720 - VIEW_TOP);
    cam.roll = g.view_roll;
    cam.pitch = -0.25;
    cam.fov_y = 62f64.to_radians();
    cam.far = FOG_END;
    cam
}

/// The controls hint (x, y, width, height): top left, just under the HUD
/// bar, where the tunnel's far ceiling is; the runner is drawn in the lower
/// half of the view (and, while the view rolls onto a wall, beside its
/// middle), never up here.
pub const HINT_BOX: (f32, f32, f32, f32) = (14.0, VIEW_TOP as f32 + 8.0, 640.0, 34.0);

fn render(g: &Run3, pm: &mut Pixmap) {
    let w = &g.world;
    let cam = camera(g);
    let mut s = Scene::new(cam);
    s.light = Light {
        dir: v3(0.3, 0.5, -0.8).norm(),
        ambient: 0.78,
    };
    s.fog = Some(Fog {
        color: SPACE,
        start: 20.0,
        end: FOG_END,
    });
    let inset = TILE_INSET;
    let tiles = tile_edges();
    let row0 = (libm::floor((cam.pos.z) / ROW_LEN) as i64).max(w.first_row);
    let row1 = (row0 + (FOG_END / ROW_LEN) as i64 + 1).min(w.last_row());
    for row in row0..=row1 {
        let (z0, z1) = (
            row as f64 * ROW_LEN + inset,
            (row + 1) as f64 * ROW_LEN - inset,
        );
        for side in 0..4u8 {
            let (n, edges) = &tiles[side as usize];
            let n = *n;
            for (col, &((ax, ay), (bx, by))) in edges.iter().enumerate() {
                if !w.tile(row, side, col) {
                    continue;
                }
                let shade = if (row + col as i64) % 2 == 0 { 0 } else { 14 };
                let base = match side {
                    0 => rgb(150 - shade, 160 - shade, 185 - shade),
                    1 => rgb(135 - shade, 165 - shade, 190 - shade),
                    2 => rgb(160 - shade, 150 - shade, 185 - shade),
                    _ => rgb(140 - shade, 170 - shade, 175 - shade),
                };
                s.quad(
                    [
                        v3(ax, ay, z0),
                        v3(bx, by, z0),
                        v3(bx, by, z1),
                        v3(ax, ay, z1),
                    ],
                    n,
                    base,
                    Shade::Lit,
                );
            }
        }
    }
    // Items: power cells (yellow) and stars (white-gold, larger).
    for it in &w.items {
        if it.z < cam.pos.z + 0.5 || it.z > cam.pos.z + FOG_END {
            continue;
        }
        let (cx, cy) = section_point(it.side, it.u, it.h);
        let (half, color) = match it.kind {
            ItemKind::Cell => (0.18, rgb(255, 214, 40)),
            ItemKind::Star => (0.3, rgb(255, 250, 200)),
        };
        s.cuboid1(
            v3(cx - half, cy - half, it.z - half),
            v3(cx + half, cy + half, it.z + half),
            color,
        );
    }
    // The runner: a small grey alien (body and head), in the side's frame.
    let r = &w.runner;
    let a = r.side as f64 * std::f64::consts::FRAC_PI_2;
    let lift = r.h;
    // Boxes in the frame of the runner's side: across, up from it, along.
    let (ox, oy) = section_point(r.side, 0.0, 0.0);
    let (ax, ay) = rotate(1.0, 0.0, a);
    let (vx, vy) = rotate(0.0, 1.0, a);
    let axes = [v3(ax, ay, 0.0), v3(vx, vy, 0.0), v3(0.0, 0.0, 1.0)];
    let part = |s: &mut Scene, u0: f64, u1: f64, h0: f64, h1: f64, dz: f64, c: Rgb| {
        s.frame_box(
            v3(ox, oy, 0.0),
            axes,
            [u0, h0, r.z - dz],
            [u1, h1, r.z + dz],
            [c; 6],
        );
    };
    let run_phase = libm::sin(r.z * 2.2);
    let step = if r.on_ground() { 0.08 * run_phase } else { 0.0 };
    part(
        &mut s,
        r.u - 0.17,
        r.u + 0.17,
        lift + 0.28,
        lift + 0.72,
        0.11,
        rgb(120, 124, 134),
    );
    part(
        &mut s,
        r.u - 0.13,
        r.u + 0.13,
        lift + 0.74,
        lift + 0.98,
        0.12,
        rgb(150, 154, 166),
    );
    part(
        &mut s,
        r.u - 0.15,
        r.u - 0.03,
        lift + step.max(0.0),
        lift + 0.29,
        0.06,
        rgb(95, 98, 108),
    );
    part(
        &mut s,
        r.u + 0.03,
        r.u + 0.15,
        lift + (-step).max(0.0),
        lift + 0.29,
        0.06,
        rgb(95, 98, 108),
    );
    // The backdrop fills the 3D view band by band under the faces.
    s.draw_over(pm, true, Some(Backdrop::Sparse(sparse_starfield())));

    // The bar and title are the same every frame: drawn once, then copied.
    static BAR: OnceLock<Pixmap> = OnceLock::new();
    draw::hud_cached(
        pm,
        &BAR,
        "Run 3 - Infinite",
        &[
            ("Distance", format!("{} m", g.primary_score())),
            ("Level", tier(w.distance()).to_string()),
            ("Speed", format!("{:.0} m/s", w.speed())),
            ("Cells", w.cells.to_string()),
            ("Stars", w.stars.to_string()),
        ],
    );
    let (hx, hy, hw, hh) = HINT_BOX;
    draw::rounded_rect(pm, hx, hy, hw, hh, 8.0, rgba(0, 0, 0, 150));
    draw::text(
        pm,
        "Left / Right: strafe (walk onto a wall to make it the floor)   Up: jump",
        hx + 10.0,
        hy + 7.0,
        18.0,
        rgb(235, 235, 245),
        Align::Left,
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "",
        &format!("Fell into space after {} m", g.primary_score()),
    );
}
