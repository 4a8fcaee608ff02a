//! 11_edge-surf — the endless surfing game: ride down a river of obstacles,
//! steering between five headings, with boosts, shields and three lives.
//!
//! The surfer stays near the top of the screen while the water streams up
//! past it; the world is seen from above and the surfer travels down it.
//! ArrowLeft/ArrowRight turn one heading step per press (straight down,
//! 30° or 60° either way); holding ArrowUp brakes; ArrowDown (or Space)
//! fires a boost if the surfer holds one (1.5 s at 1.6× speed). Rocks, logs
//! and buoys cost a life on contact (the surfer stops dead and recovers for
//! a moment) unless a shield is active; yellow bolts add a boost (at most 3),
//! blue bubbles give 4 s of shield, hearts give a life back (at most 3). At 0
//! lives the run ends (`Outcome::Fail`).
//!
//! Score = metres travelled downhill (5 px per metre). The surfer starts at
//! 600 px/s (120 m/s straight down) and gains speed with distance, so the
//! 2000 m target takes about 16 s of the 25 s that 100 steps of 0.25 s give
//! (a documented speed-up against the original, whose runs are slower).

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use crate::runner::Aabb;
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "11_edge-surf";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Lateral limits of the surfer (the river banks).
pub const BANK_L: f64 = 80.0;
pub const BANK_R: f64 = 1200.0;
/// Screen row of the surfer's centre.
pub const SURFER_SCREEN_Y: f64 = 210.0;
pub const SURFER_W: f64 = 28.0;
pub const SURFER_H: f64 = 40.0;
pub const PX_PER_M: f64 = 5.0;
/// Least gap, px, between any two obstacles or items as laid out.
pub const SPACING: f64 = 12.0;

pub const BASE_SPEED: f64 = 450.0;
pub const SPEED_GAIN: f64 = 0.012;
pub const MAX_SPEED: f64 = 800.0;
pub const BOOST_FACTOR: f64 = 1.6;
pub const BOOST_MS: u64 = 1500;
pub const SHIELD_MS: u64 = 4000;
/// After a hit: time to get back to full speed, and time of invulnerability.
pub const RECOVER_MS: u64 = 1000;
pub const GRACE_MS: u64 = 1500;
/// Speed factor while braking.
pub const BRAKE_FACTOR: f64 = 0.35;
pub const MAX_LIVES: u32 = 3;
pub const MAX_BOOSTS: u32 = 3;
/// Sines and cosines of the five headings (-60°, -30°, 0°, 30°, 60°).
const HEAD_SIN: [f64; 5] = [
    -0.866_025_403_784_438_6,
    -0.5,
    0.0,
    0.5,
    0.866_025_403_784_438_6,
];
/// The five headings in degrees (negative: towards the left bank).
pub const HEADING_DEG: [i32; 5] = [-60, -30, 0, 30, 60];
const HEAD_COS: [f64; 5] = [
    0.5,
    0.866_025_403_784_438_6,
    1.0,
    0.866_025_403_784_438_6,
    0.5,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Rock,
    Log,
    Buoy,
    BoostItem,
    ShieldItem,
    Heart,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rock => "rock",
            Kind::Log => "log",
            Kind::Buoy => "buoy",
            Kind::BoostItem => "boost",
            Kind::ShieldItem => "shield",
            Kind::Heart => "heart",
        }
    }
    pub fn is_item(self) -> bool {
        matches!(self, Kind::BoostItem | Kind::ShieldItem | Kind::Heart)
    }
    fn size(self) -> (f64, f64) {
        match self {
            Kind::Rock => (56.0, 48.0),
            Kind::Log => (150.0, 28.0),
            Kind::Buoy => (34.0, 34.0),
            _ => (34.0, 34.0),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thing {
    pub kind: Kind,
    /// World box: x across the river, y down it (top-left).
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Thing {
    pub fn new(kind: Kind, cx: f64, y: f64) -> Thing {
        let (w, h) = kind.size();
        Thing {
            kind,
            x: cx - w / 2.0,
            y,
            w,
            h,
        }
    }
    pub fn hitbox(&self) -> Aabb {
        Aabb::new(self.x, self.y, self.w, self.h).inset(4.0)
    }
}

/// What happened in one tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Events {
    pub hit: bool,
    pub picked: u32,
    pub dead: bool,
}

/// The deterministic part of a run (the game adds obstacles from its seeded
/// stream; the expert rolls copies of this forward).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// Surfer centre x and world y (distance travelled downhill, px).
    pub x: f64,
    pub y: f64,
    /// Heading index 0..=4 (2 = straight down).
    pub heading: usize,
    pub braking: bool,
    pub lives: u32,
    pub boosts: u32,
    pub boost_left_ms: u64,
    pub shield_left_ms: u64,
    /// Time since the last hit (for recovery and grace), ms.
    pub since_hit_ms: u64,
    /// Obstacles and items, sorted by `y`.
    pub things: Vec<Thing>,
    pub hits: u32,
    pub shields_collected: u32,
    pub boosts_collected: u32,
    pub boosts_used: u32,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    pub fn new() -> Self {
        World {
            x: (BANK_L + BANK_R) / 2.0,
            y: 0.0,
            heading: 2,
            braking: false,
            lives: MAX_LIVES,
            boosts: 1,
            boost_left_ms: 0,
            shield_left_ms: 0,
            since_hit_ms: u64::MAX / 2,
            things: Vec::new(),
            hits: 0,
            shields_collected: 0,
            boosts_collected: 0,
            boosts_used: 0,
        }
    }

    pub fn metres(&self) -> f64 {
        self.y / PX_PER_M
    }

    pub fn score(&self) -> u32 {
        self.metres() as u32
    }

    /// Current speed along the heading, px/s.
    pub fn speed(&self) -> f64 {
        let mut v = (BASE_SPEED + SPEED_GAIN * self.y).min(MAX_SPEED);
        if self.boost_left_ms > 0 {
            v *= BOOST_FACTOR;
        }
        if self.braking {
            v *= BRAKE_FACTOR;
        }
        if self.since_hit_ms < RECOVER_MS {
            v *= self.since_hit_ms as f64 / RECOVER_MS as f64;
        }
        v
    }

    pub fn surfer_box(&self) -> Aabb {
        Aabb::new(
            self.x - SURFER_W / 2.0,
            self.y - SURFER_H / 2.0,
            SURFER_W,
            SURFER_H,
        )
    }

    pub fn invulnerable(&self) -> bool {
        self.shield_left_ms > 0 || self.since_hit_ms < GRACE_MS
    }

    pub fn turn(&mut self, dir: i32) {
        self.heading = (self.heading as i32 + dir).clamp(0, 4) as usize;
    }

    /// Fire a boost if one is held.
    pub fn boost(&mut self) -> bool {
        if self.boosts > 0 {
            self.boosts -= 1;
            self.boosts_used += 1;
            self.boost_left_ms = BOOST_MS;
            true
        } else {
            false
        }
    }

    pub fn tick(&mut self) -> Events {
        let mut ev = Events::default();
        let v = self.speed();
        self.x = (self.x + v * HEAD_SIN[self.heading] * DT).clamp(BANK_L, BANK_R);
        self.y += v * HEAD_COS[self.heading] * DT;
        self.boost_left_ms = self.boost_left_ms.saturating_sub(TICK_MS);
        self.shield_left_ms = self.shield_left_ms.saturating_sub(TICK_MS);
        self.since_hit_ms = self.since_hit_ms.saturating_add(TICK_MS);
        let me = self.surfer_box();
        let mut i = 0;
        while i < self.things.len() {
            let t = self.things[i];
            if t.y >= me.bottom() {
                // Things are kept sorted by y: the rest are all further down.
                break;
            }
            if !t.hitbox().overlaps(&me) {
                i += 1;
                continue;
            }
            if t.kind.is_item() {
                match t.kind {
                    Kind::BoostItem => {
                        self.boosts = (self.boosts + 1).min(MAX_BOOSTS);
                        self.boosts_collected += 1;
                    }
                    Kind::ShieldItem => {
                        self.shield_left_ms = SHIELD_MS;
                        self.shields_collected += 1;
                    }
                    _ => self.lives = (self.lives + 1).min(MAX_LIVES),
                }
                ev.picked += 1;
                self.things.remove(i);
                continue;
            }
            if !self.invulnerable() {
                self.lives = self.lives.saturating_sub(1);
                self.hits += 1;
                self.since_hit_ms = 0;
                self.boost_left_ms = 0;
                ev.hit = true;
                if self.lives == 0 {
                    ev.dead = true;
                }
            }
            i += 1;
        }
        let top = self.y - SURFER_SCREEN_Y - 100.0;
        self.things.retain(|t| t.y + t.h > top);
        ev
    }
}

pub struct EdgeSurf {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    /// World y of the next row of obstacles to lay out.
    next_row: f64,
    time_ms: u64,
    brake_held: bool,
    best_score: u32,
    attempts: u32,
    episode: u32,
    terminal: Terminal,
}

impl Default for EdgeSurf {
    fn default() -> Self {
        Self::new()
    }
}

impl EdgeSurf {
    pub fn new() -> Self {
        EdgeSurf {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            next_row: 0.0,
            time_ms: 0,
            brake_held: false,
            best_score: 0,
            attempts: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    /// Put a `kind` at world row `y`, at a seeded x where it keeps
    /// [`SPACING`] px clear of everything already laid out (a few draws; a
    /// thing with no room left is not placed), so no two ever overlap.
    fn place(&mut self, kind: Kind, y: f64) {
        for _ in 0..8 {
            let cx = self.rng.range_f64(BANK_L + 20.0, BANK_R - 20.0).round();
            let t = Thing::new(kind, cx, y);
            let clear = self.world.things.iter().rev().take(16).all(|o| {
                t.x + t.w + SPACING <= o.x
                    || o.x + o.w + SPACING <= t.x
                    || t.y + t.h + SPACING <= o.y
                    || o.y + o.h + SPACING <= t.y
            });
            if clear {
                self.world.things.push(t);
                return;
            }
        }
    }

    /// Lay out rows of obstacles and items down to 700 px below the bottom
    /// of the screen, so a look-ahead never needs one not yet drawn.
    fn spawn(&mut self) {
        let limit = self.world.y + (720.0 - SURFER_SCREEN_Y) + 700.0;
        while self.next_row < limit {
            let y = self.next_row;
            // Denser rows further down.
            let extra = (y / 6000.0).min(1.0);
            let n = 2 + self.rng.below(2) + u32::from(self.rng.chance(0.2 + 0.5 * extra));
            for _ in 0..n {
                let kind = match self.rng.below(10) {
                    0..5 => Kind::Rock,
                    5..7 => Kind::Log,
                    _ => Kind::Buoy,
                };
                self.place(kind, y);
            }
            if self.rng.chance(0.35) {
                let kind = match self.rng.below(10) {
                    0..6 => Kind::BoostItem,
                    6..9 => Kind::ShieldItem,
                    _ => Kind::Heart,
                };
                let dy = self.rng.range_f64(60.0, 110.0).round();
                self.place(kind, y + dy);
            }
            self.next_row += self.rng.range_f64(140.0, 200.0).round();
            // Keep the list sorted by y (items sit a little below their row).
            self.world.things.sort_by(|a, b| a.y.total_cmp(&b.y));
        }
    }
}

impl Game for EdgeSurf {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.best_score = 0;
        self.attempts = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.attempts += 1;
        self.rng = Rng::new(self.seed, 0xED6E_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        // The first row comes after a clear stretch below the start.
        self.next_row = 600.0;
        self.time_ms = 0;
        self.brake_held = false;
        self.terminal = Terminal::running();
        self.spawn();
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r1 = |v: f64| (v * 10.0).round() / 10.0;
        set(&mut s.game_state, "score", w.score());
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", Value::Null);
        set(&mut s.game_state, "mode", "endless");
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r1(w.x), "y": r1(w.y), "screen_y": SURFER_SCREEN_Y,
                "width": SURFER_W, "height": SURFER_H,
                "heading_deg": HEADING_DEG[w.heading],
                "speed": r1(w.speed()), "braking": w.braking,
                "boosting": w.boost_left_ms > 0, "shielded": w.shield_left_ms > 0,
                "invulnerable": w.invulnerable(),
            }),
        );
        let view_bottom = w.y + 720.0 - SURFER_SCREEN_Y;
        let ents: Vec<Value> = w
            .things
            .iter()
            .filter(|t| t.y < view_bottom)
            .map(|t| {
                json!({"kind": t.kind.name(), "x": r1(t.x), "y": r1(t.y), "width": t.w,
                       "height": t.h, "screen_y": r1(t.y - w.y + SURFER_SCREEN_Y)})
            })
            .collect();
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.game_state, "boost_ms", w.boost_left_ms);
        set(&mut s.game_state, "shield_ms", w.shield_left_ms);
        set(&mut s.metrics, "distance", r1(w.metres()));
        set(&mut s.metrics, "lives", w.lives);
        set(&mut s.metrics, "boosts", w.boosts);
        set(&mut s.metrics, "shields", w.shields_collected);
        set(&mut s.metrics, "attempts", self.attempts);
        set(&mut s.metrics, "hits", w.hits);
        set(&mut s.metrics, "boosts_used", w.boosts_used);
        set(&mut s.metrics, "best_score", self.best_score.max(w.score()));
        set(&mut s.metrics, "speed", r1(w.speed()));
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "heading", w.heading);
        set(&mut s.raw, "since_hit_ms", w.since_hit_ms.min(1_000_000));
        set(&mut s.raw, "x", w.x);
        set(&mut s.raw, "y", w.y);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if self.terminal.is_terminal {
            return;
        }
        match event {
            InputEvent::KeyDown { key } => match key.as_str() {
                "ArrowLeft" => self.world.turn(-1),
                "ArrowRight" => self.world.turn(1),
                "ArrowUp" => self.brake_held = true,
                "ArrowDown" | "Space" => {
                    self.world.boost();
                }
                _ => {}
            },
            InputEvent::KeyUp { key } if key == "ArrowUp" => self.brake_held = false,
            _ => {}
        }
        self.world.braking = self.brake_held;
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.time_ms += TICK_MS;
            let ev = self.world.tick();
            self.spawn();
            self.best_score = self.best_score.max(self.world.score());
            if ev.dead {
                self.terminal = Terminal::ended(Outcome::Fail, "out of lives");
            }
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        json!({"action": expert::choose(&self.world).id()})
    }
}

// ---------------------------------------------------------------- rendering

const WATER: draw::Rgb = rgb(38, 120, 190);

fn render_thing(pm: &mut Pixmap, t: &Thing, sy: f32) {
    let (x, w, h) = (t.x as f32, t.w as f32, t.h as f32);
    let (cx, cy) = (x + w / 2.0, sy + h / 2.0);
    match t.kind {
        Kind::Rock => {
            draw::circle(pm, cx, cy + 4.0, w / 2.0 + 4.0, rgba(255, 255, 255, 90));
            draw::polygon(
                pm,
                &[
                    (x, sy + h * 0.7),
                    (x + w * 0.2, sy + h * 0.1),
                    (x + w * 0.6, sy),
                    (x + w, sy + h * 0.4),
                    (x + w * 0.85, sy + h),
                    (x + w * 0.15, sy + h),
                ],
                rgb(110, 110, 120),
            );
            draw::polygon(
                pm,
                &[
                    (x + w * 0.2, sy + h * 0.15),
                    (x + w * 0.6, sy + 3.0),
                    (x + w * 0.5, sy + h * 0.4),
                ],
                rgb(160, 160, 170),
            );
        }
        Kind::Log => {
            draw::rounded_rect(pm, x, sy, w, h, h / 2.0, rgb(120, 80, 45));
            draw::rect(pm, x + 14.0, sy + h * 0.4, w - 28.0, 3.0, rgb(90, 60, 35));
            draw::circle(pm, x + w - h / 2.0, cy, h / 2.0 - 4.0, rgb(190, 150, 100));
        }
        Kind::Buoy => {
            draw::circle(pm, cx, cy, w / 2.0, rgb(235, 60, 50));
            draw::rect(pm, x + 2.0, cy - 5.0, w - 4.0, 10.0, rgb(250, 250, 250));
        }
        Kind::BoostItem => {
            draw::circle(pm, cx, cy, w / 2.0, rgb(255, 215, 40));
            draw::polygon(
                pm,
                &[
                    (cx + 3.0, cy - 13.0),
                    (cx - 8.0, cy + 2.0),
                    (cx - 1.0, cy + 2.0),
                    (cx - 4.0, cy + 13.0),
                    (cx + 8.0, cy - 3.0),
                    (cx + 1.0, cy - 3.0),
                ],
                rgb(120, 70, 0),
            );
        }
        Kind::ShieldItem => {
            draw::circle(pm, cx, cy, w / 2.0, rgba(120, 230, 255, 200));
            draw::ring(pm, cx, cy, w / 2.0, 3.0, rgb(255, 255, 255));
        }
        Kind::Heart => {
            draw::circle(pm, cx - 7.0, cy - 4.0, 9.0, rgb(240, 60, 90));
            draw::circle(pm, cx + 7.0, cy - 4.0, 9.0, rgb(240, 60, 90));
            draw::polygon(
                pm,
                &[
                    (cx - 16.0, cy - 1.0),
                    (cx + 16.0, cy - 1.0),
                    (cx, cy + 15.0),
                ],
                rgb(240, 60, 90),
            );
        }
    }
}

fn render_surfer(pm: &mut Pixmap, w: &World, hit: bool) {
    let (cx, cy) = (w.x as f32, SURFER_SCREEN_Y as f32);
    let (s, c) = (HEAD_SIN[w.heading] as f32, HEAD_COS[w.heading] as f32);
    // Points along the heading ((s, c) is the direction of travel on screen).
    let along = |d: f32, side: f32| (cx + s * d + c * side, cy + c * d - s * side);
    if w.shield_left_ms > 0 {
        draw::circle(pm, cx, cy, 36.0, rgba(120, 230, 255, 110));
    }
    let t0 = along(-26.0, 0.0);
    let t1 = along(-70.0, 0.0);
    draw::line(pm, t0.0, t0.1, t1.0, t1.1, 8.0, rgba(255, 255, 255, 150));
    let board = [
        along(24.0, 0.0),
        along(8.0, 9.0),
        along(-22.0, 8.0),
        along(-22.0, -8.0),
        along(8.0, -9.0),
    ];
    let color = if hit {
        rgb(200, 200, 200)
    } else {
        rgb(250, 170, 40)
    };
    draw::polygon(pm, &board, color);
    draw::circle(pm, cx, cy - 4.0, 10.0, rgb(60, 60, 90));
    draw::circle(pm, cx, cy - 6.0, 6.0, rgb(240, 200, 160));
    if w.boost_left_ms > 0 {
        let f = along(-30.0, 0.0);
        draw::circle(pm, f.0, f.1, 8.0, rgb(255, 230, 80));
    }
}

fn render(g: &EdgeSurf, pm: &mut Pixmap) {
    let w = &g.world;
    draw::clear(pm, WATER);
    // Sandy banks and scrolling wave marks.
    draw::rect(
        pm,
        0.0,
        56.0,
        BANK_L as f32 - 20.0,
        664.0,
        rgb(230, 205, 140),
    );
    draw::rect(
        pm,
        BANK_R as f32 + 20.0,
        56.0,
        1280.0 - BANK_R as f32 - 20.0,
        664.0,
        rgb(230, 205, 140),
    );
    let off = (w.y % 120.0) as f32;
    for row in 0..8 {
        let y = 56.0 + row as f32 * 120.0 - off;
        let shift = if row % 2 == 0 { 0.0 } else { 60.0 };
        for col in 0..8 {
            let x = BANK_L as f32 + 40.0 + col as f32 * 130.0 + shift;
            draw::rect(pm, x, y, 40.0, 4.0, rgba(255, 255, 255, 45));
        }
    }
    for t in &w.things {
        let sy = (t.y - w.y + SURFER_SCREEN_Y) as f32;
        if sy > 40.0 - t.h as f32 && sy < 730.0 {
            render_thing(pm, t, sy);
        }
    }
    let flash = w.since_hit_ms < GRACE_MS && (w.since_hit_ms / 150).is_multiple_of(2);
    render_surfer(pm, w, flash);

    // Controls hint just under the top bar (behind the surfer, where
    // nothing is left to dodge).
    draw::rounded_rect(pm, 90.0, 64.0, 470.0, 34.0, 10.0, rgba(0, 0, 0, 110));
    draw::text(
        pm,
        "Left/Right: turn   Up: brake   Down: boost",
        104.0,
        70.0,
        20.0,
        rgb(255, 255, 255),
        Align::Left,
    );
    let shield = if w.shield_left_ms > 0 {
        format!("{:.1}s", w.shield_left_ms as f64 / 1000.0)
    } else {
        "off".to_string()
    };
    draw::hud(
        pm,
        "Edge Surf",
        &[
            ("Distance", format!("{} m", w.score())),
            ("Lives", w.lives.to_string()),
            ("Boosts", w.boosts.to_string()),
            ("Shield", shield),
            ("Speed", format!("{:.0} m/s", w.speed() / PX_PER_M)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "",
        &format!(
            "{} m - {}",
            w.score(),
            g.terminal.reason.as_deref().unwrap_or("")
        ),
    );
}
