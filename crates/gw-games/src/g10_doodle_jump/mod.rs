//! 10_doodle-jump — a vertical climber. The doodle bounces automatically
//! whenever it falls onto a platform; the player only drifts it left or
//! right (the column wraps around: leaving one side enters the other).
//! Platforms: green (normal), blue (sliding sideways), brown (breaks when
//! landed on, no bounce), white (bounces once, then vanishes); some green
//! ones carry a spring that throws the doodle much higher. Higher up,
//! monsters hover: landing on one from above squashes it (and bounces),
//! touching one otherwise ends the run, as does dropping below the screen.
//!
//! Score (`game_state.score`) is counted as the original counts it: one
//! point for every frame (at 60 frames a second of game time) in which the
//! view scrolled up, so a run earns at most 12 points per 0.2 s step and at
//! most 1200 in the 100 steps of a task; `metrics.distance` is the greatest
//! height reached, in pixels above the first platform. A bounce rises 450 px
//! in 0.5 s and a spring 1500 px; the view scrolls while the doodle climbs
//! above 45% of its height.
//!
//! Platforms are drawn from the seeded RNG only as the view rises (just above
//! its top edge); the physics in [`World`] holds no randomness, so the expert
//! rolls copies of it forward.
//!
//! State: `game_state.{score, level, player{x, y, vx, vy, is_dead},
//! entities}`, `metrics.{distance, platforms_visible, best_score, bounces,
//! springs, monsters_stomped}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use crate::platform::{self, Aabb};
use crate::round1;
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "10_doodle-jump";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Width of the (wrapping) column, px.
pub const COL_W: f64 = 480.0;
/// Height of the view, px.
pub const VIEW_H: f64 = 664.0;
/// Screen position of the column's top-left corner.
const COL_X: f32 = 400.0;
const COL_Y: f32 = 56.0;

pub const GRAVITY: f64 = 3600.0;
/// Upward speed of a bounce (apex 450 px after 0.5 s).
pub const JUMP_SPEED: f64 = 1800.0;
/// Upward speed off a spring (apex ≈ 1510 px).
pub const SPRING_SPEED: f64 = 3300.0;
pub const MAX_FALL: f64 = 2000.0;
/// Horizontal drift speed while an arrow is held, and its acceleration.
pub const MOVE_SPEED: f64 = 600.0;
const MOVE_ACCEL: f64 = 6000.0;
const MOVE_DECEL: f64 = 3600.0;

pub const PLAYER_W: f64 = 44.0;
pub const PLAYER_H: f64 = 56.0;
/// Feet span inside the player's box (only the feet land).
const FEET: (f64, f64) = (8.0, 36.0);
pub const PLAT_W: f64 = 70.0;
pub const PLAT_H: f64 = 14.0;
/// Spring span on its platform (offset from the platform's left, width).
const SPRING_W: f64 = 22.0;
pub const MONSTER_W: f64 = 64.0;
pub const MONSTER_H: f64 = 44.0;
/// Where the doodle sits in the view while climbing (fraction from the top).
const CAMERA_ANCHOR: f64 = 0.45;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Moving,
    Breaking,
    Vanishing,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Normal => "normal",
            Kind::Moving => "moving",
            Kind::Breaking => "breaking",
            Kind::Vanishing => "vanishing",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Platform {
    /// Left edge and top surface, px (y grows downward).
    pub x: f64,
    pub y: f64,
    pub kind: Kind,
    /// Sideways speed of a moving platform, px/s.
    pub vx: f64,
    /// Offset of a spring from the platform's left edge.
    pub spring: Option<f64>,
    /// A breaking platform that was stepped on (falls away).
    pub broken: bool,
    /// A vanishing platform that was used.
    pub gone: bool,
}

impl Platform {
    fn solid(&self) -> bool {
        !self.broken && !self.gone
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Monster {
    /// Centre of its hover path and the path's half-width, px.
    pub base_x: f64,
    pub y: f64,
    pub range: f64,
    /// Hover speed, px/s, and distance travelled along the path.
    pub speed: f64,
    pub travel: f64,
    pub alive: bool,
}

impl Monster {
    /// Left edge now (a triangle wave around `base_x`).
    pub fn x(&self) -> f64 {
        if self.range <= 0.0 {
            return self.base_x - MONSTER_W / 2.0;
        }
        let period = 4.0 * self.range;
        let p = self.travel.rem_euclid(period);
        let off = if p < 2.0 * self.range {
            p - self.range
        } else {
            3.0 * self.range - p
        };
        self.base_x + off - MONSTER_W / 2.0
    }
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.x(), self.y, MONSTER_W, MONSTER_H)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Fell,
    Monster,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Fell => "fell off the screen",
            Death::Monster => "caught by a monster",
        }
    }
}

/// Horizontal overlap of `[a0, a1)` with `[b0, b1)` in a column that wraps.
fn wrapped_overlap(a0: f64, a1: f64, b0: f64, b1: f64) -> bool {
    [-COL_W, 0.0, COL_W]
        .iter()
        .any(|s| a0 + s < b1 && b0 < a1 + s)
}

/// Shortest horizontal distance between two x positions across the wrap.
pub fn wrapped_dx(from: f64, to: f64) -> f64 {
    let d = (to - from).rem_euclid(COL_W);
    if d > COL_W / 2.0 { d - COL_W } else { d }
}

/// The deterministic climb (no randomness: the game adds platforms).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// Player's left edge and feet, px.
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
    /// -1 left, 0 none, +1 right.
    pub steer: i8,
    pub platforms: Vec<Platform>,
    pub monsters: Vec<Monster>,
    /// Top of the view, px.
    pub cam_y: f64,
    /// Highest feet position so far (smallest y).
    pub best_y: f64,
    /// Top of the platform last bounced on.
    pub last_bounce_y: f64,
    pub death: Option<Death>,
    pub bounces: u32,
    pub springs: u32,
    pub stomps: u32,
    /// Ticks played, for the 60 fps frame clock.
    pub ticks: u64,
    /// The view's top at the last frame boundary.
    pub frame_cam_y: f64,
    /// Frames in which the view scrolled up: the score.
    pub scroll_frames: u32,
}

/// Frames per second of the original's clock, which scores one point per
/// frame that scrolls the view.
pub const SCORE_FPS: u64 = 60;

impl World {
    pub fn new() -> Self {
        World {
            x: COL_W / 2.0 - PLAYER_W / 2.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
            steer: 0,
            platforms: vec![Platform {
                x: COL_W / 2.0 - PLAT_W / 2.0,
                y: 0.0,
                kind: Kind::Normal,
                vx: 0.0,
                spring: None,
                broken: false,
                gone: false,
            }],
            monsters: Vec::new(),
            cam_y: -VIEW_H * (1.0 - 0.2),
            frame_cam_y: -VIEW_H * (1.0 - 0.2),
            ticks: 0,
            scroll_frames: 0,
            best_y: 0.0,
            last_bounce_y: 0.0,
            death: None,
            bounces: 0,
            springs: 0,
            stomps: 0,
        }
    }

    /// The score: frames (at [`SCORE_FPS`]) in which the view scrolled up.
    pub fn score(&self) -> u32 {
        self.scroll_frames
    }

    /// Height reached, px above the first platform.
    pub fn height(&self) -> u32 {
        (-self.best_y).max(0.0).floor() as u32
    }

    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.x, self.y - PLAYER_H, PLAYER_W, PLAYER_H)
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.death.is_some() {
            return;
        }
        // Drift.
        let target = self.steer as f64 * MOVE_SPEED;
        let acc = DT
            * if self.steer != 0 {
                MOVE_ACCEL
            } else {
                MOVE_DECEL
            };
        self.vx = if self.vx < target {
            (self.vx + acc).min(target)
        } else {
            (self.vx - acc).max(target)
        };
        self.x = (self.x + self.vx * DT).rem_euclid(COL_W);
        // Fall.
        self.vy = (self.vy + GRAVITY * DT).min(MAX_FALL);
        let prev_feet = self.y;
        self.y += self.vy * DT;
        for p in &mut self.platforms {
            if p.kind == Kind::Moving {
                p.x += p.vx * DT;
                if p.x < 0.0 || p.x > COL_W - PLAT_W {
                    p.vx = -p.vx;
                    p.x = p.x.clamp(0.0, COL_W - PLAT_W);
                }
            }
            if p.broken {
                p.y += 500.0 * DT;
            }
        }
        // Land on the first platform the feet cross.
        if self.vy > 0.0 {
            let (f0, f1) = (self.x + FEET.0, self.x + FEET.1);
            let me = self.aabb();
            let hit = self
                .platforms
                .iter()
                .enumerate()
                .filter(|(_, p)| p.solid() && wrapped_overlap(f0, f1, p.x, p.x + PLAT_W))
                .filter(|(_, p)| platform::lands_on(prev_feet, &me, self.vy, -1e9, 1e9, p.y))
                .min_by(|a, b| a.1.y.total_cmp(&b.1.y))
                .map(|(i, _)| i);
            if let Some(i) = hit {
                let p = &mut self.platforms[i];
                if p.kind == Kind::Breaking {
                    p.broken = true;
                } else {
                    let on_spring = p
                        .spring
                        .is_some_and(|s| wrapped_overlap(f0, f1, p.x + s, p.x + s + SPRING_W));
                    self.y = p.y;
                    self.vy = if on_spring {
                        self.springs += 1;
                        -SPRING_SPEED
                    } else {
                        -JUMP_SPEED
                    };
                    self.bounces += 1;
                    self.last_bounce_y = p.y;
                    if p.kind == Kind::Vanishing {
                        p.gone = true;
                    }
                }
            }
        }
        // Monsters.
        let me = self.aabb();
        for m in &mut self.monsters {
            if !m.alive {
                continue;
            }
            m.travel += m.speed * DT;
            let mb = m.aabb();
            let hit = [-COL_W, 0.0, COL_W].iter().any(|s| {
                let mut b = mb;
                b.x += s;
                me.overlaps(&b)
            });
            if hit {
                if self.vy > 0.0 && prev_feet <= mb.y + 12.0 {
                    m.alive = false;
                    self.vy = -JUMP_SPEED;
                    self.stomps += 1;
                } else {
                    self.death = Some(Death::Monster);
                    return;
                }
            }
        }
        self.best_y = self.best_y.min(self.y);
        self.cam_y = self.cam_y.min(self.y - CAMERA_ANCHOR * VIEW_H);
        // The 60 fps frame clock: a frame that ends with the view higher
        // than it began scores one point.
        let frame = |t: u64| t * TICK_MS * SCORE_FPS / 1000;
        self.ticks += 1;
        if frame(self.ticks) > frame(self.ticks - 1) {
            if self.cam_y < self.frame_cam_y {
                self.scroll_frames += 1;
            }
            self.frame_cam_y = self.cam_y;
        }
        if self.y - PLAYER_H > self.cam_y + VIEW_H {
            self.death = Some(Death::Fell);
        }
    }

    /// Platforms at least partly in view.
    pub fn visible_platforms(&self) -> impl Iterator<Item = &Platform> {
        self.platforms
            .iter()
            .filter(|p| p.y + PLAT_H > self.cam_y && p.y < self.cam_y + VIEW_H)
    }
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

pub struct DoodleJump {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    /// Top of the highest platform the generator placed on the climbing
    /// chain.
    gen_y: f64,
    left_held: bool,
    right_held: bool,
    game_time_ms: u64,
    episode: u32,
    best_score: u32,
    terminal: Terminal,
}

impl Default for DoodleJump {
    fn default() -> Self {
        Self::new()
    }
}

impl DoodleJump {
    pub fn new() -> Self {
        DoodleJump {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            gen_y: 0.0,
            left_held: false,
            right_held: false,
            game_time_ms: 0,
            episode: 0,
            best_score: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Add platforms (and monsters) until the chain reaches just above the
    /// view's top edge; forget what fell far below the view.
    fn generate(&mut self) {
        let horizon = self.world.cam_y - 60.0;
        while self.gen_y > horizon {
            let h = -self.gen_y;
            // Gaps of 70–130 px at the start (a jump rises 450), growing to
            // 130–340 px: a doodle left alone bounces straight up and seldom
            // finds a platform in its own column jump after jump.
            let min_gap = 70.0 + (h * 0.006).min(60.0);
            let max_gap = 130.0 + (h * 0.02).min(210.0);
            let gap = self.rng.range_f64(min_gap, max_gap).round();
            let y = self.gen_y - gap;
            let x = self.rng.range_f64(0.0, COL_W - PLAT_W).round();
            let p_move = if h > 400.0 {
                (0.08 + h / 25_000.0).min(0.35)
            } else {
                0.0
            };
            let p_vanish = if h > 1500.0 { 0.12 } else { 0.0 };
            let r = self.rng.next_f64();
            let kind = if r < p_move {
                Kind::Moving
            } else if r < p_move + p_vanish {
                Kind::Vanishing
            } else {
                Kind::Normal
            };
            let vx = if kind == Kind::Moving {
                let s = self
                    .rng
                    .range_f64(70.0, 90.0 + (h / 60.0).min(90.0))
                    .round();
                if self.rng.chance(0.5) { s } else { -s }
            } else {
                0.0
            };
            let spring = (kind == Kind::Normal && h > 300.0 && self.rng.chance(0.12))
                .then(|| self.rng.range_f64(4.0, PLAT_W - SPRING_W - 4.0).round());
            self.world.platforms.push(Platform {
                x,
                y,
                kind,
                vx,
                spring,
                broken: false,
                gone: false,
            });
            // Brown decoys that break beside the chain higher up. (No extra
            // green ones low down: with them a doodle left alone found a
            // platform straight above it bounce after bounce and climbed.)
            if h > 600.0 && self.rng.chance(0.3) {
                let x2 = self.rng.range_f64(0.0, COL_W - PLAT_W).round();
                let y2 = (y + gap * self.rng.range_f64(0.3, 0.7)).round();
                self.world.platforms.push(Platform {
                    x: x2,
                    y: y2,
                    kind: Kind::Breaking,
                    vx: 0.0,
                    spring: None,
                    broken: false,
                    gone: false,
                });
            }
            if h > 2500.0 && self.rng.chance(0.07) {
                let base_x = self.rng.range_f64(MONSTER_W, COL_W - MONSTER_W).round();
                let range = self.rng.range_f64(0.0, 80.0).round();
                self.world.monsters.push(Monster {
                    base_x,
                    y: y - gap * 0.5 - MONSTER_H / 2.0,
                    range,
                    speed: 90.0,
                    travel: 0.0,
                    alive: true,
                });
            }
            self.gen_y = y;
        }
        let floor = self.world.cam_y + VIEW_H + 200.0;
        self.world.platforms.retain(|p| p.y < floor);
        self.world.monsters.retain(|m| m.y < floor);
    }

    fn steer(&mut self) {
        self.world.steer = match (self.left_held, self.right_held) {
            (true, false) => -1,
            (false, true) => 1,
            _ => 0,
        };
    }
}

impl Game for DoodleJump {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.best_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0xD00D_1E00 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        self.gen_y = 0.0;
        self.left_held = false;
        self.right_held = false;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        self.generate();
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
        set(&mut s.game_state, "score", w.score());
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", Value::Null);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round1(w.x + PLAYER_W / 2.0), "y": round1(w.y),
                "height": round1(-w.y),
                "vx": round1(w.vx), "vy": round1(w.vy),
                "is_dead": w.death.is_some(),
                "screen_y": round1(w.y - w.cam_y),
            }),
        );
        let mut ents: Vec<Value> = w
            .visible_platforms()
            .map(|p| {
                json!({"type": "platform", "kind": p.kind.name(), "x": round1(p.x), "y": round1(p.y),
                       "width": PLAT_W, "vx": p.vx, "spring": p.spring.is_some(),
                       "broken": p.broken, "gone": p.gone})
            })
            .collect();
        for m in w.monsters.iter().filter(|m| m.alive) {
            if m.y + MONSTER_H > w.cam_y && m.y < w.cam_y + VIEW_H {
                ents.push(
                    json!({"type": "monster", "x": round1(m.x()), "y": round1(m.y),
                                 "width": MONSTER_W, "height": MONSTER_H}),
                );
            }
        }
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.game_state, "camera_top", round1(w.cam_y));
        set(&mut s.metrics, "distance", w.height());
        set(
            &mut s.metrics,
            "platforms_visible",
            w.visible_platforms().filter(|p| p.solid()).count(),
        );
        set(&mut s.metrics, "best_score", self.best_score.max(w.score()));
        set(&mut s.metrics, "bounces", w.bounces);
        set(&mut s.metrics, "springs", w.springs);
        set(&mut s.metrics, "monsters_stomped", w.stomps);
        set(
            &mut s.metrics,
            "height_of_last_landing",
            round1(-w.last_bounce_y),
        );
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "column_width", COL_W);
        set(&mut s.raw, "view_height", VIEW_H);
        set(&mut s.raw, "steer", w.steer);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "ArrowLeft" => self.left_held = true,
            InputEvent::KeyDown { key } if key == "ArrowRight" => self.right_held = true,
            InputEvent::KeyUp { key } if key == "ArrowLeft" => self.left_held = false,
            InputEvent::KeyUp { key } if key == "ArrowRight" => self.right_held = false,
            _ => return,
        }
        self.steer();
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.game_time_ms += TICK_MS;
            self.world.tick();
            self.generate();
            self.best_score = self.best_score.max(self.world.score());
            if let Some(d) = self.world.death {
                self.terminal = Terminal::ended(Outcome::Fail, d.reason());
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        let a = match expert::choose(&self.world) {
            -1 => "move_left",
            1 => "move_right",
            _ => "wait",
        };
        json!({"action": a})
    }
}

// ---------------------------------------------------------------- rendering

const PAPER: draw::Rgb = rgb(250, 246, 232);
const GRID: draw::Rgb = rgb(232, 224, 200);

/// The graph-paper column, one grid period taller than the view.
fn paper_strip() -> &'static Pixmap {
    static STRIP: OnceLock<Pixmap> = OnceLock::new();
    STRIP.get_or_init(|| {
        let (w, h) = (COL_W as u32, VIEW_H as u32 + 32);
        let mut pm = Pixmap::new(w, h).expect("strip");
        draw::clear(&mut pm, PAPER);
        for k in 0..=(h / 32) {
            draw::rect(&mut pm, 0.0, k as f32 * 32.0, w as f32, 1.5, GRID);
        }
        for k in 0..=(w / 32) {
            draw::rect(&mut pm, k as f32 * 32.0, 0.0, 1.5, h as f32, GRID);
        }
        pm
    })
}

/// The side panels with the legend, drawn once.
fn panels() -> &'static Pixmap {
    static P: OnceLock<Pixmap> = OnceLock::new();
    P.get_or_init(|| {
        let mut pm = Pixmap::new(1280, 664).expect("panels");
        draw::clear(&mut pm, rgb(46, 52, 64));
        let t = rgb(235, 235, 235);
        draw::text(
            &mut pm,
            "Platforms",
            40.0,
            40.0,
            26.0,
            rgb(250, 214, 90),
            Align::Left,
        );
        let rows: [(&str, draw::Rgb); 4] = [
            ("normal", rgb(110, 190, 60)),
            ("slides sideways", rgb(70, 150, 230)),
            ("breaks, no bounce", rgb(150, 100, 50)),
            ("one bounce, vanishes", rgb(245, 245, 245)),
        ];
        for (i, (label, c)) in rows.iter().enumerate() {
            let y = 96.0 + i as f32 * 52.0;
            draw::rounded_rect(&mut pm, 40.0, y, 70.0, 14.0, 6.0, *c);
            draw::text(&mut pm, label, 126.0, y - 8.0, 20.0, t, Align::Left);
        }
        let y = 96.0 + 4.0 * 52.0;
        draw::rounded_rect(&mut pm, 40.0, y, 70.0, 14.0, 6.0, rgb(110, 190, 60));
        draw::rect(&mut pm, 64.0, y - 14.0, 22.0, 14.0, rgb(190, 190, 200));
        draw::text(
            &mut pm,
            "spring: big jump",
            126.0,
            y - 8.0,
            20.0,
            t,
            Align::Left,
        );
        let y = y + 60.0;
        draw::rounded_rect(&mut pm, 50.0, y - 10.0, 50.0, 34.0, 10.0, rgb(150, 60, 170));
        draw::text(
            &mut pm,
            "monster: land on",
            126.0,
            y - 12.0,
            20.0,
            t,
            Align::Left,
        );
        draw::text(
            &mut pm,
            "it from above only",
            126.0,
            y + 12.0,
            20.0,
            t,
            Align::Left,
        );
        let x = 920.0;
        draw::text(
            &mut pm,
            "Controls",
            x,
            40.0,
            26.0,
            rgb(250, 214, 90),
            Align::Left,
        );
        for (i, line) in [
            "Left / Right arrow:",
            "drift sideways",
            "",
            "The doodle bounces by",
            "itself on platforms.",
            "Left and right edges",
            "wrap around.",
            "Falling below the",
            "screen ends the run.",
        ]
        .iter()
        .enumerate()
        {
            draw::text(
                &mut pm,
                line,
                x,
                90.0 + i as f32 * 30.0,
                20.0,
                t,
                Align::Left,
            );
        }
        pm
    })
}

fn render(g: &DoodleJump, pm: &mut Pixmap) {
    let w = &g.world;
    let scroll = (w.cam_y.rem_euclid(32.0)) as u32;
    // Paper: copy rows shifted by the scroll so the grid moves with the world.
    let strip = paper_strip();
    {
        let (pw, sw) = (pm.width() as usize * 4, strip.width() as usize * 4);
        let src = strip.data();
        let dst = pm.data_mut();
        for row in 0..VIEW_H as usize {
            let d = (COL_Y as usize + row) * pw + COL_X as usize * 4;
            let s = (row + scroll as usize) * sw;
            dst[d..d + sw].copy_from_slice(&src[s..s + sw]);
        }
    }
    let to_screen = |x: f64, y: f64| (COL_X + x as f32, COL_Y + (y - w.cam_y) as f32);
    for p in w.visible_platforms() {
        if p.gone {
            continue;
        }
        let (sx, sy) = to_screen(p.x, p.y);
        let c = match p.kind {
            Kind::Normal => rgb(110, 190, 60),
            Kind::Moving => rgb(70, 150, 230),
            Kind::Breaking => rgb(150, 100, 50),
            Kind::Vanishing => rgb(245, 245, 245),
        };
        draw::rounded_rect(
            pm,
            sx,
            sy,
            PLAT_W as f32,
            PLAT_H as f32,
            6.0,
            rgb(60, 60, 60),
        );
        draw::rounded_rect(
            pm,
            sx + 2.0,
            sy + 2.0,
            PLAT_W as f32 - 4.0,
            PLAT_H as f32 - 4.0,
            5.0,
            c,
        );
        if p.kind == Kind::Breaking {
            draw::line(
                pm,
                sx + 35.0,
                sy + 1.0,
                sx + 30.0,
                sy + 13.0,
                2.0,
                rgb(70, 40, 20),
            );
        }
        if let Some(o) = p.spring {
            draw::rect(
                pm,
                sx + o as f32,
                sy - 14.0,
                SPRING_W as f32,
                14.0,
                rgb(120, 120, 130),
            );
            for k in 0..3 {
                draw::rect(
                    pm,
                    sx + o as f32,
                    sy - 13.0 + k as f32 * 4.5,
                    SPRING_W as f32,
                    2.0,
                    rgb(220, 220, 230),
                );
            }
        }
    }
    for m in w.monsters.iter().filter(|m| m.alive) {
        let (sx, sy) = to_screen(m.x(), m.y);
        if sy > COL_Y - 50.0 {
            let (mw, mh) = (MONSTER_W as f32, MONSTER_H as f32);
            draw::rounded_rect(pm, sx, sy, mw, mh, 14.0, rgb(150, 60, 170));
            draw::circle(pm, sx + 20.0, sy + 16.0, 7.0, rgb(255, 255, 255));
            draw::circle(pm, sx + 44.0, sy + 16.0, 7.0, rgb(255, 255, 255));
            draw::circle(pm, sx + 20.0, sy + 17.0, 3.0, rgb(0, 0, 0));
            draw::circle(pm, sx + 44.0, sy + 17.0, 3.0, rgb(0, 0, 0));
            draw::rect(pm, sx + 16.0, sy + 32.0, 32.0, 4.0, rgb(60, 20, 60));
        }
    }
    // The doodle, drawn again across the wrap when it straddles an edge.
    for shift in [-COL_W, 0.0, COL_W] {
        let (sx, sy) = to_screen(w.x + shift, w.y - PLAYER_H);
        if sx + PLAYER_W as f32 <= COL_X || sx >= COL_X + COL_W as f32 {
            continue;
        }
        let face = if w.vx < -1.0 { -1.0 } else { 1.0 };
        draw::rounded_rect(pm, sx + 4.0, sy + 6.0, 36.0, 40.0, 14.0, rgb(60, 60, 40));
        draw::rounded_rect(pm, sx + 6.0, sy + 8.0, 32.0, 36.0, 12.0, rgb(205, 220, 60));
        draw::rect(pm, sx + 6.0, sy + 32.0, 32.0, 8.0, rgb(90, 140, 60));
        for k in 0..3 {
            draw::rect(
                pm,
                sx + 9.0 + k as f32 * 10.0,
                sy + 44.0,
                4.0,
                11.0,
                rgb(60, 60, 40),
            );
        }
        let nose_x = if face > 0.0 { sx + 36.0 } else { sx - 4.0 };
        draw::rounded_rect(pm, nose_x, sy + 16.0, 12.0, 8.0, 3.0, rgb(60, 60, 40));
        let eye_x = if face > 0.0 { sx + 28.0 } else { sx + 16.0 };
        draw::circle(pm, eye_x, sy + 17.0, 3.0, rgb(0, 0, 0));
    }
    // Panels cover whatever crossed the column's sides.
    let right = (COL_X + COL_W as f32) as u32;
    draw::copy_layer(pm, panels(), 0, COL_X as u32, 0, COL_Y as u32);
    draw::copy_layer(pm, panels(), right, 1280 - right, right, COL_Y as u32);
    draw::rect(pm, COL_X - 4.0, COL_Y, 4.0, VIEW_H as f32, rgb(30, 30, 30));
    draw::rect(
        pm,
        COL_X + COL_W as f32,
        COL_Y,
        4.0,
        VIEW_H as f32,
        rgb(30, 30, 30),
    );
    draw::hud(
        pm,
        "Doodle Jump",
        &[
            ("Score", w.score().to_string()),
            ("Best", g.best_score.max(w.score()).to_string()),
            ("Time", format!("{:.1}s", g.game_time_ms as f64 / 1000.0)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "",
        &format!(
            "Score {} - {}",
            w.score(),
            g.terminal.reason.as_deref().unwrap_or("")
        ),
    );
}
