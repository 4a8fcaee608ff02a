//! 09_cubefield — steer a small ship through an endless field of cubes.
//!
//! The ship flies forward on its own over a flat plane strewn with unit
//! cubes, seen in perspective from just behind it. Holding ArrowLeft or
//! ArrowRight slides it sideways at a fixed speed (the view banks with it).
//! Touching a cube ends the run (`Outcome::Fail`). The forward speed rises
//! steadily from [`V0`] to [`VMAX`]; every [`LEVEL_POINTS`] points the level
//! goes up, the palette changes and new parts of the field are laid out more
//! densely.
//!
//! The field is laid out in square chunks of [`CHUNK`] units generated on
//! demand, in a fixed order, from the episode's random stream, whenever they
//! come within [`SPAWN_AHEAD`] units ahead of the ship or [`SPAWN_SIDE`]
//! units to either side, so the field is endless in every direction the ship
//! can go. The first [`SAFE_START`] units are clear.
//!
//! Score: [`SCORE_PER_UNIT`] points per unit flown (the original counts up
//! continuously as you survive). Tuned so the hardest reference target,
//! 100 000 points, takes about 13 s (65 steps of 0.2 s) of survival, leaving
//! room inside the 100-step budget for an early crash and a restart on the
//! easier targets.
//!
//! State: `game_state.score`, `game_state.level`, the ship in
//! `game_state.player`, the cubes nearest ahead in `game_state.entities`;
//! `metrics.distance`, `metrics.speed_forward`, `metrics.speed_side`,
//! `metrics.cubes_alive` (cubes in the generated field), `metrics.high_score`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::render3d::{Camera, Fog, Light, Scene, Shade, mix, v3};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use tiny_skia::Pixmap;

pub const ID: &str = "09_cubefield";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Forward speed at the start, units/s.
pub const V0: f64 = 20.0;
/// Forward acceleration, units/s².
pub const ACCEL: f64 = 1.0;
/// Top forward speed, units/s.
pub const VMAX: f64 = 36.0;
/// Sideways speed while an arrow key is held, units/s.
pub const SIDE_SPEED: f64 = 12.0;
/// Half the edge of a cube.
pub const CUBE_HALF: f64 = 0.5;
/// Half width and half length of the ship's collision box.
pub const SHIP_HALF_W: f64 = 0.35;
pub const SHIP_HALF_L: f64 = 0.5;
pub const SCORE_PER_UNIT: f64 = 300.0;
/// Points per level.
pub const LEVEL_POINTS: u64 = 20_000;
pub const MAX_LEVEL: u32 = 6;
/// Edge of a generated chunk of the field, units.
pub const CHUNK: f64 = 8.0;
pub const SPAWN_AHEAD: f64 = 88.0;
pub const SPAWN_SIDE: f64 = 72.0;
/// Clear stretch at the start of each run.
pub const SAFE_START: f64 = 24.0;

/// Cubes per square unit laid out at `level`.
pub fn density(level: u32) -> f64 {
    0.040 + 0.006 * (level.min(MAX_LEVEL) as f64 - 1.0)
}

pub fn level_for(score: u64) -> u32 {
    (1 + score / LEVEL_POINTS).min(MAX_LEVEL as u64) as u32
}

/// Forward speed after `t` seconds of flight.
pub fn speed_at(t: f64) -> f64 {
    (V0 + ACCEL * t).min(VMAX)
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cube {
    pub x: f64,
    pub z: f64,
    /// Level the cube was laid out at (sets its colour).
    pub level: u32,
}

/// Whether the ship at (x, z) touches `c`.
pub fn hits(x: f64, z: f64, c: &Cube) -> bool {
    (x - c.x).abs() < CUBE_HALF + SHIP_HALF_W && (z - c.z).abs() < CUBE_HALF + SHIP_HALF_L
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Flying,
    Crashed,
}

pub struct Cubefield {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    phase: Phase,
    /// Ship position: x sideways, z = distance flown.
    ship_x: f64,
    ship_z: f64,
    /// Time flown this run, ms.
    flight_ms: u64,
    cubes: Vec<Cube>,
    chunks: BTreeSet<(i64, i64)>,
    /// Chunk (row, column) the ship was in when the field was last extended.
    spawned_at: Option<(i64, i64)>,
    left_held: bool,
    right_held: bool,
    /// Visual bank of the view, radians (follows the steering).
    tilt: f64,
    high_score: u64,
    episode: u32,
    terminal: Terminal,
}

impl Default for Cubefield {
    fn default() -> Self {
        Self::new()
    }
}

impl Cubefield {
    pub fn new() -> Self {
        Cubefield {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            phase: Phase::Flying,
            ship_x: 0.0,
            ship_z: 0.0,
            flight_ms: 0,
            cubes: Vec::new(),
            chunks: BTreeSet::new(),
            spawned_at: None,
            left_held: false,
            right_held: false,
            tilt: 0.0,
            high_score: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn ship(&self) -> (f64, f64) {
        (self.ship_x, self.ship_z)
    }

    pub fn cubes(&self) -> &[Cube] {
        &self.cubes
    }

    pub fn speed(&self) -> f64 {
        speed_at(self.flight_ms as f64 / 1000.0)
    }

    pub fn flight_ms(&self) -> u64 {
        self.flight_ms
    }

    /// Sideways direction the held keys steer: −1 left, +1 right, 0 none.
    pub fn steer(&self) -> f64 {
        match (self.left_held, self.right_held) {
            (true, false) => -1.0,
            (false, true) => 1.0,
            _ => 0.0,
        }
    }

    pub fn score(&self) -> u64 {
        (self.ship_z * SCORE_PER_UNIT) as u64
    }

    pub fn level(&self) -> u32 {
        level_for(self.score())
    }

    /// Lay out every chunk in the spawn window that is not there yet, in
    /// increasing (row, column) order, once the ship enters a new chunk.
    fn spawn(&mut self) {
        let here = (
            libm::floor(self.ship_z / CHUNK) as i64,
            libm::floor(self.ship_x / CHUNK) as i64,
        );
        if self.spawned_at == Some(here) {
            return;
        }
        self.spawned_at = Some(here);
        let cz0 = libm::floor(self.ship_z / CHUNK) as i64;
        let cz1 = libm::floor((self.ship_z + SPAWN_AHEAD) / CHUNK) as i64;
        let cx0 = libm::floor((self.ship_x - SPAWN_SIDE) / CHUNK) as i64;
        let cx1 = libm::floor((self.ship_x + SPAWN_SIDE) / CHUNK) as i64;
        let level = self.level();
        for cz in cz0..=cz1 {
            for cx in cx0..=cx1 {
                if !self.chunks.insert((cz, cx)) {
                    continue;
                }
                let expected = density(level) * CHUNK * CHUNK;
                // Whole cubes plus one more with the fractional chance.
                let mut n = expected as u32;
                if self.rng.chance(expected - n as f64) {
                    n += 1;
                }
                for _ in 0..n {
                    let x = cx as f64 * CHUNK + self.rng.range_f64(0.0, CHUNK);
                    let z = cz as f64 * CHUNK + self.rng.range_f64(0.0, CHUNK);
                    if z > SAFE_START {
                        self.cubes.push(Cube { x, z, level });
                    }
                }
            }
        }
        // Kept in order of depth so collisions look at a narrow band only.
        self.cubes
            .sort_by(|a, b| a.z.total_cmp(&b.z).then(a.x.total_cmp(&b.x)));
        // Forget what is far behind or far to the side.
        let (sx, sz) = (self.ship_x, self.ship_z);
        self.cubes
            .retain(|c| c.z > sz - 6.0 && (c.x - sx).abs() < SPAWN_SIDE + 2.0 * CHUNK);
        let keep_z = libm::floor((sz - 8.0) / CHUNK) as i64;
        let (kx0, kx1) = (
            libm::floor((sx - SPAWN_SIDE) / CHUNK) as i64 - 2,
            libm::floor((sx + SPAWN_SIDE) / CHUNK) as i64 + 2,
        );
        self.chunks
            .retain(|&(cz, cx)| cz >= keep_z && cx >= kx0 && cx <= kx1);
    }

    fn tick(&mut self) {
        if self.phase != Phase::Flying {
            return;
        }
        let v = self.speed();
        let steer = self.steer();
        self.flight_ms += TICK_MS;
        self.ship_x += steer * SIDE_SPEED * DT;
        self.ship_z += v * DT;
        // The bank eases toward the steering direction.
        self.tilt += (steer * 0.16 - self.tilt) * 0.12;
        self.high_score = self.high_score.max(self.score());
        let (x, z) = (self.ship_x, self.ship_z);
        let reach = CUBE_HALF + SHIP_HALF_L;
        let lo = self.cubes.partition_point(|c| c.z <= z - reach);
        let hi = self.cubes.partition_point(|c| c.z < z + reach);
        if self.cubes[lo..hi.max(lo)].iter().any(|c| hits(x, z, c)) {
            self.phase = Phase::Crashed;
            self.terminal = Terminal::ended(Outcome::Fail, "hit a cube");
            return;
        }
        self.spawn();
    }

    /// The cubes ahead of the ship nearest first (for the state).
    fn cubes_ahead(&self, n: usize) -> Vec<&Cube> {
        let mut ahead: Vec<&Cube> = self
            .cubes
            .iter()
            .filter(|c| c.z + CUBE_HALF > self.ship_z - SHIP_HALF_L && c.z < self.ship_z + 60.0)
            .filter(|c| (c.x - self.ship_x).abs() < 12.0)
            .collect();
        ahead.sort_by(|a, b| {
            let da = (a.z - self.ship_z).abs() + (a.x - self.ship_x).abs();
            let db = (b.z - self.ship_z).abs() + (b.x - self.ship_x).abs();
            da.total_cmp(&db)
        });
        ahead.truncate(n);
        ahead
    }
}

impl Game for Cubefield {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.high_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0xC0BE_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.phase = Phase::Flying;
        self.ship_x = 0.0;
        self.ship_z = 0.0;
        self.flight_ms = 0;
        self.cubes.clear();
        self.chunks.clear();
        self.spawned_at = None;
        self.left_held = false;
        self.right_held = false;
        self.tilt = 0.0;
        self.terminal = Terminal::running();
        self.spawn();
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.flight_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r2 = |v: f64| (v * 100.0).round() / 100.0;
        let score = self.score();
        set(&mut s.game_state, "score", score);
        set(&mut s.game_state, "level", self.level());
        set(&mut s.game_state, "progress", Value::Null);
        set(&mut s.game_state, "alive", self.phase == Phase::Flying);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r2(self.ship_x),
                "z": r2(self.ship_z),
                "half_width": SHIP_HALF_W,
                "half_length": SHIP_HALF_L,
                "steer": self.steer(),
                "is_dead": self.phase == Phase::Crashed,
            }),
        );
        let ents: Vec<Value> = self
            .cubes_ahead(24)
            .iter()
            .map(|c| json!({"type": "cube", "dx": r2(c.x - self.ship_x), "dz": r2(c.z - self.ship_z), "size": 2.0 * CUBE_HALF}))
            .collect();
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.metrics, "distance", r2(self.ship_z));
        set(&mut s.metrics, "speed_forward", r2(self.speed()));
        set(&mut s.metrics, "speed_side", self.steer() * SIDE_SPEED);
        set(&mut s.metrics, "cubes_alive", self.cubes.len());
        set(&mut s.metrics, "high_score", self.high_score.max(score));
        set(&mut s.metrics, "time_alive_ms", self.flight_ms);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "ship_x", self.ship_x);
        set(&mut s.raw, "ship_z", self.ship_z);
        set(&mut s.raw, "tilt", self.tilt);
        set(&mut s.raw, "density", density(self.level()));
        set(&mut s.raw, "left_held", self.left_held);
        set(&mut s.raw, "right_held", self.right_held);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "ArrowLeft" => self.left_held = true,
            InputEvent::KeyDown { key } if key == "ArrowRight" => self.right_held = true,
            InputEvent::KeyUp { key } if key == "ArrowLeft" => self.left_held = false,
            InputEvent::KeyUp { key } if key == "ArrowRight" => self.right_held = false,
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
        json!({"action": expert::choose(self)})
    }
}

// ---------------------------------------------------------------- rendering

/// Top of the 3D view (below the HUD bar).
const VIEW_TOP: u32 = 56;
const FOG_START: f64 = 30.0;
const FOG_END: f64 = 84.0;

struct Palette {
    sky: Rgb,
    ground: Rgb,
    cube: Rgb,
}

/// Colours of each level, after the original's changing palettes.
fn palette(level: u32) -> Palette {
    match level {
        1 => Palette {
            sky: rgb(206, 214, 222),
            ground: rgb(238, 238, 232),
            cube: rgb(240, 170, 40),
        },
        2 => Palette {
            sky: rgb(200, 222, 236),
            ground: rgb(235, 240, 244),
            cube: rgb(70, 150, 230),
        },
        3 => Palette {
            sky: rgb(214, 206, 228),
            ground: rgb(240, 236, 244),
            cube: rgb(210, 60, 90),
        },
        4 => Palette {
            sky: rgb(206, 226, 208),
            ground: rgb(236, 244, 236),
            cube: rgb(60, 170, 80),
        },
        5 => Palette {
            sky: rgb(60, 64, 80),
            ground: rgb(110, 114, 126),
            cube: rgb(250, 250, 250),
        },
        _ => Palette {
            sky: rgb(24, 24, 30),
            ground: rgb(70, 70, 78),
            cube: rgb(240, 90, 40),
        },
    }
}

pub fn camera(g: &Cubefield) -> Camera {
    let mut cam = Camera::new(v3(g.ship_x, 1.45, g.ship_z - 4.2), 1280, 720 - VIEW_TOP);
    cam.screen = (0, VIEW_TOP, 1280, 720 - VIEW_TOP);
    cam.pitch = -0.10;
    cam.roll = g.tilt;
    cam.fov_y = 52f64.to_radians();
    cam.far = FOG_END;
    cam
}

/// Width of the dark rim around each visible face of a cube, world units.
pub const CUBE_RIM: f64 = 0.06;

/// A cube whose visible faces (front, top, sides) carry a dark rim: the
/// box in a darkened colour with each such face's inner part in `base`
/// just in front of it, so cubes of one colour that overlap on screen stay
/// separate shapes instead of merging into one blob.
fn outlined_cube(s: &mut Scene, x: f64, z: f64, base: Rgb) {
    let h = CUBE_HALF;
    let (lo, hi) = (v3(x - h, 0.0, z - h), v3(x + h, 2.0 * h, z + h));
    s.cuboid1(lo, hi, mix(base, rgb(0, 0, 0), 0.55));
    let (e, m) = (0.004, CUBE_RIM);
    let (x0, x1, y0, y1, z0, z1) = (lo.x + m, hi.x - m, lo.y + m, hi.y - m, lo.z + m, hi.z - m);
    // Front (towards the ship), top, left and right faces.
    let faces = [
        (
            [
                v3(x0, y0, lo.z - e),
                v3(x1, y0, lo.z - e),
                v3(x1, y1, lo.z - e),
                v3(x0, y1, lo.z - e),
            ],
            v3(0.0, 0.0, -1.0),
        ),
        (
            [
                v3(x0, hi.y + e, z0),
                v3(x1, hi.y + e, z0),
                v3(x1, hi.y + e, z1),
                v3(x0, hi.y + e, z1),
            ],
            v3(0.0, 1.0, 0.0),
        ),
        (
            [
                v3(lo.x - e, y0, z0),
                v3(lo.x - e, y1, z0),
                v3(lo.x - e, y1, z1),
                v3(lo.x - e, y0, z1),
            ],
            v3(-1.0, 0.0, 0.0),
        ),
        (
            [
                v3(hi.x + e, y0, z0),
                v3(hi.x + e, y1, z0),
                v3(hi.x + e, y1, z1),
                v3(hi.x + e, y0, z1),
            ],
            v3(1.0, 0.0, 0.0),
        ),
    ];
    for (corners, n) in faces {
        s.quad(corners, n, base, Shade::Lit);
    }
}

fn render(g: &Cubefield, pm: &mut Pixmap) {
    let pal = palette(g.level());
    let cam = camera(g);
    // Ground: strips that fade into the sky colour toward the horizon.
    let mut bg = Scene::new(cam);
    let (x0, x1) = (g.ship_x - 400.0, g.ship_x + 400.0);
    let strips = 24;
    let z_far = g.ship_z + FOG_END;
    for i in 0..strips {
        let t0 = i as f64 / strips as f64;
        let t1 = (i + 1) as f64 / strips as f64;
        let za = g.ship_z - 6.0 + (z_far - g.ship_z + 6.0) * t0 * t0;
        let zb = g.ship_z - 6.0 + (z_far - g.ship_z + 6.0) * t1 * t1;
        let fog = ((za + zb) * 0.5 - cam.pos.z - FOG_START) / (FOG_END - FOG_START);
        let c = mix(pal.ground, pal.sky, fog);
        bg.quad(
            [
                v3(x0, 0.0, za),
                v3(x0, 0.0, zb),
                v3(x1, 0.0, zb),
                v3(x1, 0.0, za),
            ],
            v3(0.0, 1.0, 0.0),
            c,
            Shade::Flat,
        );
    }

    let mut s = Scene::new(cam);
    s.light = Light {
        dir: v3(-0.45, 0.75, -0.5).norm(),
        ambient: 0.5,
    };
    s.fog = Some(Fog {
        color: pal.sky,
        start: FOG_START,
        end: FOG_END,
    });
    for c in &g.cubes {
        if c.z < cam.pos.z || c.z - cam.pos.z > FOG_END + 1.0 {
            continue;
        }
        outlined_cube(&mut s, c.x, c.z, palette(c.level).cube);
    }
    // The ship: a flat dark arrowhead with a lighter spine, just above the ground.
    let (x, z) = (g.ship_x, g.ship_z);
    let (h, tip, tail) = (0.06, z + SHIP_HALF_L + 0.25, z - SHIP_HALF_L);
    let up = v3(0.0, 1.0, 0.0);
    s.face(
        &[
            v3(x, h, tip),
            v3(x + SHIP_HALF_W + 0.1, h, tail),
            v3(x, h, tail + 0.25),
            v3(x - SHIP_HALF_W - 0.1, h, tail),
        ],
        up,
        rgb(24, 26, 36),
        Shade::Flat,
        false,
    );
    s.face(
        &[
            v3(x, h + 0.01, tip - 0.1),
            v3(x + 0.08, h + 0.01, tail + 0.3),
            v3(x - 0.08, h + 0.01, tail + 0.3),
        ],
        up,
        rgb(90, 200, 255),
        Shade::Flat,
        false,
    );
    // Sky, then the ground strips far to near, then the cubes and ship with
    // depth test, band by band.
    s.draw_over_scene(pm, &mut bg, pal.sky);

    // The bar and title are the same every frame: drawn once, then copied.
    static BAR: std::sync::OnceLock<Pixmap> = std::sync::OnceLock::new();
    draw::hud_cached(
        pm,
        &BAR,
        "Cubefield",
        &[
            ("Score", g.score().to_string()),
            ("Level", g.level().to_string()),
            ("Speed", format!("{:.0}", g.speed())),
            ("Best", g.high_score.max(g.score()).to_string()),
        ],
    );
    draw::rounded_rect(pm, 14.0, 676.0, 446.0, 34.0, 8.0, rgba(0, 0, 0, 110));
    draw::text(
        pm,
        "Hold Left / Right to steer - avoid the cubes",
        24.0,
        682.0,
        20.0,
        rgb(255, 255, 255),
        Align::Left,
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "",
        &format!("Crashed into a cube - score {}", g.score()),
    );
}
