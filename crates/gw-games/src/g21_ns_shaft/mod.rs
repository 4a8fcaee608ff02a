//! 21_ns-shaft — fall down an endless shaft, landing on platforms that keep
//! rising towards a spiked ceiling.
//!
//! The player steers left and right (ArrowLeft/ArrowRight held) and falls
//! under gravity between platforms; a platform carries the player up with
//! it. Platform kinds: normal, spikes (landing costs life), conveyors
//! (push left or right), springs (bounce the player up) and fragile ones
//! (give way a moment after landing). Touching the ceiling spikes costs life
//! and knocks the player off the platform. Landing on a safe platform heals
//! one point. The run ends (`Outcome::Fail`) when life reaches zero or the
//! player falls out of the bottom of the shaft.
//!
//! The task score is `gameTimeMs`, the survival time of the current run; the
//! game starts playing at once, so a run that never dies reaches 25 000 ms in
//! exactly 100 steps of 0.25 s. `game_state.score` counts floors descended
//! (one per platform spacing risen), `metrics.hp` / `game_state.player.life`
//! the life bar, `metrics.best_score` the longest survival of this session.

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

pub const ID: &str = "21_ns-shaft";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Inner walls of the shaft.
pub const FIELD_L: f64 = 400.0;
pub const FIELD_R: f64 = 880.0;
/// Tips of the ceiling spikes.
pub const CEILING_Y: f64 = 96.0;
/// Falling below this line ends the run.
pub const BOTTOM_Y: f64 = 720.0;

pub const PLAYER_W: f64 = 30.0;
pub const PLAYER_H: f64 = 40.0;
pub const PLATFORM_W: f64 = 120.0;
pub const PLATFORM_H: f64 = 16.0;
/// Vertical distance between consecutive platforms (one floor).
pub const SPACING: f64 = 110.0;

pub const GRAVITY: f64 = 1500.0;
pub const MAX_FALL: f64 = 650.0;
/// Walking speed while an arrow key is held, px/s.
pub const MOVE_SPEED: f64 = 260.0;
pub const CONVEYOR_SPEED: f64 = 110.0;
/// Upward speed a spring gives, px/s.
pub const SPRING_SPEED: f64 = 560.0;
/// Rise speed of the platforms: start, gain per second, cap (px/s).
pub const RISE_START: f64 = 90.0;
pub const RISE_GAIN: f64 = 1.5;
pub const RISE_MAX: f64 = 140.0;
/// A fragile platform gives way this long after the player lands on it.
pub const FRAGILE_MS: f64 = 450.0;

pub const MAX_HP: i32 = 10;
pub const SPIKE_DAMAGE: i32 = 4;
pub const CEILING_DAMAGE: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Spikes,
    ConveyorLeft,
    ConveyorRight,
    Spring,
    Fragile,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Normal => "normal",
            Kind::Spikes => "spikes",
            Kind::ConveyorLeft => "conveyor_left",
            Kind::ConveyorRight => "conveyor_right",
            Kind::Spring => "spring",
            Kind::Fragile => "fragile",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Platform {
    pub id: u32,
    pub kind: Kind,
    /// Left edge and top.
    pub x: f64,
    pub y: f64,
    /// Time since the player landed on a fragile platform, ms.
    pub crumble_ms: Option<f64>,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Fell,
    NoLife,
}

/// The deterministic part of a run: the game adds platforms from its seeded
/// stream, so the expert can roll a copy of this forward.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// Player's left edge and top.
    pub px: f64,
    pub py: f64,
    pub vy: f64,
    /// Held direction: -1 left, 0 none, +1 right.
    pub input: i8,
    /// Platform the player stands on.
    pub on: Option<u32>,
    /// Platform the player was knocked off (ignored until passed).
    pub ignore: Option<u32>,
    pub hp: i32,
    pub platforms: Vec<Platform>,
    /// Total distance risen by the platforms, px.
    pub risen: f64,
    pub time_ms: u64,
    pub landings: u32,
    pub ceiling_hits: u32,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    pub fn new() -> Self {
        World {
            px: (FIELD_L + FIELD_R - PLAYER_W) / 2.0,
            py: 0.0,
            vy: 0.0,
            input: 0,
            on: None,
            ignore: None,
            hp: MAX_HP,
            platforms: Vec::new(),
            risen: 0.0,
            time_ms: 0,
            landings: 0,
            ceiling_hits: 0,
        }
    }

    pub fn rise_speed(&self) -> f64 {
        (RISE_START + RISE_GAIN * self.time_ms as f64 / 1000.0).min(RISE_MAX)
    }

    pub fn floors(&self) -> u32 {
        (self.risen / SPACING) as u32
    }

    pub fn player_box(&self) -> Aabb {
        Aabb::new(self.px, self.py, PLAYER_W, PLAYER_H)
    }

    pub fn platform(&self, id: u32) -> Option<&Platform> {
        self.platforms.iter().find(|p| p.id == id)
    }

    fn over(&self, p: &Platform) -> bool {
        self.px + PLAYER_W > p.x + 2.0 && self.px < p.x + PLATFORM_W - 2.0
    }

    /// One fixed tick. Returns why the run ended, if it did.
    pub fn tick(&mut self) -> Option<Death> {
        self.time_ms += TICK_MS;
        let rise = self.rise_speed() * DT;
        self.risen += rise;
        for p in &mut self.platforms {
            p.y -= rise;
            if let Some(t) = p.crumble_ms.as_mut() {
                *t += TICK_MS as f64;
            }
        }
        let before = self.platforms.len();
        self.platforms
            .retain(|p| p.y + PLATFORM_H > 0.0 && p.crumble_ms.is_none_or(|t| t < FRAGILE_MS));
        if self.platforms.len() != before && self.on.is_some_and(|id| self.platform(id).is_none()) {
            self.on = None;
        }

        // Horizontal: own steering plus the conveyor underfoot.
        let belt = match self.on.and_then(|id| self.platform(id)).map(|p| p.kind) {
            Some(Kind::ConveyorLeft) => -CONVEYOR_SPEED,
            Some(Kind::ConveyorRight) => CONVEYOR_SPEED,
            _ => 0.0,
        };
        self.px = (self.px + (self.input as f64 * MOVE_SPEED + belt) * DT)
            .clamp(FIELD_L, FIELD_R - PLAYER_W);

        // Vertical: ride the platform or fall and maybe land.
        if let Some(p) = self.on.and_then(|id| self.platform(id)).copied() {
            if self.over(&p) {
                self.py = p.y - PLAYER_H;
            } else {
                self.on = None;
                self.vy = 0.0;
            }
        } else {
            self.vy = (self.vy + GRAVITY * DT).min(MAX_FALL);
            let old_bottom = self.py + PLAYER_H;
            self.py += self.vy * DT;
            let bottom = self.py + PLAYER_H;
            if self.vy >= 0.0 {
                let hit = self
                    .platforms
                    .iter()
                    .filter(|p| Some(p.id) != self.ignore && self.over(p))
                    .filter(|p| old_bottom <= p.y + rise + 0.01 && bottom >= p.y)
                    .min_by(|a, b| a.y.total_cmp(&b.y))
                    .copied();
                if let Some(p) = hit {
                    self.land(p);
                }
            }
        }
        if let Some(id) = self.ignore
            && self.platform(id).is_none_or(|p| self.py > p.y)
        {
            self.ignore = None;
        }

        // The spiked ceiling.
        if self.py < CEILING_Y {
            self.hp -= CEILING_DAMAGE;
            self.ceiling_hits += 1;
            self.py = CEILING_Y + 1.0;
            self.vy = 150.0;
            if let Some(id) = self.on.take() {
                self.ignore = Some(id);
            }
        }
        if self.hp <= 0 {
            self.hp = 0;
            return Some(Death::NoLife);
        }
        if self.py > BOTTOM_Y {
            return Some(Death::Fell);
        }
        None
    }

    fn land(&mut self, p: Platform) {
        self.py = p.y - PLAYER_H;
        self.vy = 0.0;
        self.landings += 1;
        match p.kind {
            Kind::Spikes => self.hp -= SPIKE_DAMAGE,
            _ => self.hp = (self.hp + 1).min(MAX_HP),
        }
        match p.kind {
            Kind::Spring => {
                self.vy = -SPRING_SPEED;
                self.on = None;
            }
            Kind::Fragile => {
                self.on = Some(p.id);
                if let Some(q) = self.platforms.iter_mut().find(|q| q.id == p.id)
                    && q.crumble_ms.is_none()
                {
                    q.crumble_ms = Some(0.0);
                }
            }
            _ => self.on = Some(p.id),
        }
    }
}

pub struct NsShaft {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    next_id: u32,
    left_held: bool,
    right_held: bool,
    best_ms: u64,
    episode: u32,
    terminal: Terminal,
}

impl Default for NsShaft {
    fn default() -> Self {
        Self::new()
    }
}

impl NsShaft {
    pub fn new() -> Self {
        NsShaft {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            next_id: 0,
            left_held: false,
            right_held: false,
            best_ms: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn push_platform(&mut self, kind: Kind, x: f64, y: f64) {
        self.world.platforms.push(Platform {
            id: self.next_id,
            kind,
            x,
            y,
            crumble_ms: None,
        });
        self.next_id += 1;
    }

    /// Keep platforms queued down to well below the bottom edge (hidden), so
    /// a look-ahead never needs one that has not been drawn yet.
    fn spawn(&mut self) {
        while let Some(last) = self.world.platforms.last().copied() {
            if last.y > BOTTOM_Y + 220.0 {
                return;
            }
            let roll = self.rng.below(100);
            let mut kind = match roll {
                0..45 => Kind::Normal,
                45..60 => Kind::Spikes,
                60..70 => Kind::ConveyorLeft,
                70..80 => Kind::ConveyorRight,
                80..90 => Kind::Spring,
                _ => Kind::Fragile,
            };
            // Never two spiked platforms in a row.
            if kind == Kind::Spikes && last.kind == Kind::Spikes {
                kind = Kind::Normal;
            }
            let x = self.rng.range_f64(FIELD_L, FIELD_R - PLATFORM_W).round();
            self.push_platform(kind, x, last.y + SPACING);
        }
    }

    fn update_input(&mut self) {
        self.world.input = match (self.left_held, self.right_held) {
            (true, false) => -1,
            (false, true) => 1,
            _ => 0,
        };
    }
}

impl Game for NsShaft {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.best_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x5AF7_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        self.next_id = 0;
        self.left_held = false;
        self.right_held = false;
        self.terminal = Terminal::running();
        // The player starts on a normal platform in the middle of the shaft.
        let x0 = ((FIELD_L + FIELD_R - PLATFORM_W) / 2.0).round();
        self.push_platform(Kind::Normal, x0, 330.0);
        self.world.py = 330.0 - PLAYER_H;
        self.world.on = Some(0);
        self.spawn();
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let mut s = GameApiState::new(
            ID,
            self.seed,
            w.time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r1 = |v: f64| (v * 10.0).round() / 10.0;
        let standing = w.on.and_then(|id| w.platform(id)).map(|p| p.kind.name());
        set(&mut s.game_state, "score", w.floors());
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", Value::Null);
        set(&mut s.game_state, "alive", !self.terminal.is_terminal);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r1(w.px), "y": r1(w.py), "width": PLAYER_W, "height": PLAYER_H,
                "vy": r1(w.vy), "life": w.hp, "max_life": MAX_HP,
                "on_platform": standing, "falling": w.on.is_none(),
            }),
        );
        let plats: Vec<Value> = w
            .platforms
            .iter()
            .filter(|p| p.y < BOTTOM_Y)
            .map(|p| {
                json!({"id": p.id, "kind": p.kind.name(), "x": r1(p.x), "y": r1(p.y),
                       "width": PLATFORM_W, "height": PLATFORM_H,
                       "crumbling": p.crumble_ms.is_some()})
            })
            .collect();
        set(&mut s.game_state, "entities", json!(plats));
        set(
            &mut s.game_state,
            "board",
            json!({"left": FIELD_L, "right": FIELD_R, "ceiling_y": CEILING_Y, "bottom_y": BOTTOM_Y}),
        );
        set(&mut s.metrics, "hp", w.hp);
        set(&mut s.metrics, "primary_score", w.time_ms);
        set(&mut s.metrics, "best_score", self.best_ms.max(w.time_ms));
        set(&mut s.metrics, "floors", w.floors());
        set(&mut s.metrics, "rise_speed", r1(w.rise_speed()));
        set(&mut s.metrics, "landings", w.landings);
        set(&mut s.metrics, "ceiling_hits", w.ceiling_hits);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "px", w.px);
        set(&mut s.raw, "py", w.py);
        set(&mut s.raw, "risen", w.risen);
        set(&mut s.raw, "input", w.input as i64);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "ArrowLeft" => self.left_held = true,
            InputEvent::KeyUp { key } if key == "ArrowLeft" => self.left_held = false,
            InputEvent::KeyDown { key } if key == "ArrowRight" => self.right_held = true,
            InputEvent::KeyUp { key } if key == "ArrowRight" => self.right_held = false,
            _ => return,
        }
        self.update_input();
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            let died = self.world.tick();
            self.spawn();
            self.best_ms = self.best_ms.max(self.world.time_ms);
            if let Some(d) = died {
                let reason = match d {
                    Death::Fell => "fell to the bottom of the shaft",
                    Death::NoLife => "ran out of life",
                };
                self.terminal = Terminal::ended(Outcome::Fail, reason);
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

fn render_platform(pm: &mut Pixmap, p: &Platform, t: f64) {
    let (x, y, w, h) = (p.x as f32, p.y as f32, PLATFORM_W as f32, PLATFORM_H as f32);
    match p.kind {
        Kind::Normal => {
            draw::rect(pm, x, y, w, h, rgb(120, 170, 220));
            draw::rect(pm, x, y, w, 4.0, rgb(190, 225, 255));
        }
        Kind::Spikes => {
            draw::rect(pm, x, y + 6.0, w, h - 6.0, rgb(150, 150, 160));
            for i in 0..8 {
                let sx = x + i as f32 * 15.0;
                draw::polygon(
                    pm,
                    &[(sx, y + 7.0), (sx + 15.0, y + 7.0), (sx + 7.5, y - 8.0)],
                    rgb(230, 70, 70),
                );
            }
        }
        Kind::ConveyorLeft | Kind::ConveyorRight => {
            draw::rect(pm, x, y, w, h, rgb(90, 90, 100));
            let dir = if p.kind == Kind::ConveyorLeft {
                -1.0
            } else {
                1.0
            };
            let phase = ((t * CONVEYOR_SPEED / 1000.0) % 20.0) as f32 * dir as f32;
            for i in -1..7 {
                let cx = x + 10.0 + i as f32 * 20.0 + phase;
                if cx < x + 4.0 || cx > x + w - 10.0 {
                    continue;
                }
                let (a, b) = if dir < 0.0 {
                    (cx + 6.0, cx)
                } else {
                    (cx, cx + 6.0)
                };
                draw::polygon(
                    pm,
                    &[(a, y + 3.0), (b, y + 8.0), (a, y + 13.0)],
                    rgb(250, 200, 60),
                );
            }
        }
        Kind::Spring => {
            draw::rect(pm, x, y + 8.0, w, h - 8.0, rgb(60, 160, 80));
            for i in 0..6 {
                let cx = x + 10.0 + i as f32 * 20.0;
                draw::rect(pm, cx, y, 6.0, 10.0, rgb(240, 240, 120));
            }
            draw::rect(pm, x, y, w, 3.0, rgb(120, 230, 130));
        }
        Kind::Fragile => {
            let a = if p.crumble_ms.is_some() { 150 } else { 255 };
            draw::rect(pm, x, y, w, h, rgba(200, 160, 110, a));
            for i in 0..4 {
                let cx = x + 15.0 + i as f32 * 30.0;
                draw::line(pm, cx, y, cx + 8.0, y + h, 2.0, rgb(110, 80, 50));
            }
        }
    }
}

fn render_player(pm: &mut Pixmap, w: &World) {
    let (x, y) = (w.px as f32, w.py as f32);
    draw::rect(pm, x + 4.0, y + 14.0, 22.0, 18.0, rgb(240, 110, 60));
    draw::circle(pm, x + 15.0, y + 8.0, 9.0, rgb(255, 220, 180));
    draw::rect(pm, x + 6.0, y - 1.0, 18.0, 5.0, rgb(60, 60, 140));
    draw::rect(pm, x + 6.0, y + 32.0, 7.0, 8.0, rgb(50, 50, 90));
    draw::rect(pm, x + 17.0, y + 32.0, 7.0, 8.0, rgb(50, 50, 90));
    let eye = if w.input < 0 {
        10.0
    } else if w.input > 0 {
        18.0
    } else {
        14.0
    };
    draw::rect(pm, x + eye, y + 6.0, 3.0, 3.0, rgb(20, 20, 20));
}

/// Colour of the ceiling spikes.
const SPIKE_COLOR: draw::Rgb = rgb(220, 220, 230);

fn render(g: &NsShaft, pm: &mut Pixmap) {
    let w = &g.world;
    draw::clear(pm, rgb(18, 20, 30));
    // Shaft interior with bricks scrolling up with the platforms.
    let (l, r) = (FIELD_L as f32, FIELD_R as f32);
    draw::rect(pm, l, 56.0, r - l, 664.0, rgb(34, 38, 56));
    let off = (w.risen % 60.0) as f32;
    for row in 0..13 {
        let y = 56.0 + row as f32 * 60.0 - off;
        draw::rect(pm, l, y, r - l, 2.0, rgb(44, 48, 70));
    }
    // Side pillars.
    draw::rect(pm, l - 24.0, 56.0, 24.0, 664.0, rgb(90, 80, 70));
    draw::rect(pm, r, 56.0, 24.0, 664.0, rgb(90, 80, 70));
    for p in &w.platforms {
        if p.y < BOTTOM_Y && p.y + PLATFORM_H > 56.0 {
            render_platform(pm, p, w.time_ms as f64);
        }
    }
    render_player(pm, w);
    // Ceiling spikes, in front of whatever rises into them.
    draw::rect(pm, l, 56.0, r - l, 16.0, rgb(110, 110, 120));
    let n = ((r - l) / 20.0) as i32;
    for i in 0..n {
        let sx = l + i as f32 * 20.0;
        draw::polygon(
            pm,
            &[(sx, 72.0), (sx + 20.0, 72.0), (sx + 10.0, CEILING_Y as f32)],
            SPIKE_COLOR,
        );
    }

    // Side panels: life bar, floor, time, legend.
    let px = 40.0;
    draw::text(pm, "LIFE", px, 90.0, 26.0, rgb(240, 240, 240), Align::Left);
    for i in 0..MAX_HP {
        let c = if i < w.hp {
            if w.hp <= 3 {
                rgb(235, 80, 70)
            } else {
                rgb(90, 210, 110)
            }
        } else {
            rgb(60, 60, 70)
        };
        draw::rect(pm, px + i as f32 * 30.0, 126.0, 24.0, 34.0, c);
    }
    draw::text(
        pm,
        &format!("{} / {}", w.hp, MAX_HP),
        px,
        170.0,
        24.0,
        rgb(200, 200, 200),
        Align::Left,
    );
    draw::text(
        pm,
        &format!("FLOOR B{}", w.floors()),
        px,
        230.0,
        30.0,
        rgb(250, 214, 90),
        Align::Left,
    );
    let legend: [(Kind, &str); 6] = [
        (Kind::Normal, "normal: +1 life"),
        (Kind::Spikes, "spikes: -4 life"),
        (Kind::ConveyorLeft, "conveyor: pushes"),
        (Kind::Spring, "spring: bounces"),
        (Kind::Fragile, "fragile: breaks"),
        (Kind::ConveyorRight, ""),
    ];
    for (i, (kind, label)) in legend.iter().enumerate().take(5) {
        let y = 420.0 + i as f64 * 44.0;
        let sample = Platform {
            id: 0,
            kind: *kind,
            x: 940.0,
            y,
            crumble_ms: None,
        };
        render_platform(pm, &sample, 0.0);
        draw::text(
            pm,
            label,
            1075.0,
            y as f32 - 8.0,
            20.0,
            rgb(220, 220, 220),
            Align::Left,
        );
    }
    draw::text(
        pm,
        "Ceiling spikes: -4 life",
        940.0,
        380.0,
        20.0,
        rgb(220, 220, 220),
        Align::Left,
    );
    for (i, line) in [
        "Hold ArrowLeft / ArrowRight",
        "to move; wait to ride or fall",
    ]
    .iter()
    .enumerate()
    {
        draw::text(
            pm,
            line,
            40.0,
            630.0 + i as f32 * 28.0,
            20.0,
            rgb(170, 170, 180),
            Align::Left,
        );
    }
    draw::hud(
        pm,
        "NS-Shaft",
        &[
            ("Life", w.hp.to_string()),
            ("Floor", format!("B{}", w.floors())),
            ("Time", format!("{:.1}s", w.time_ms as f64 / 1000.0)),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "",
        &format!(
            "Floor B{} - {}",
            w.floors(),
            g.terminal.reason.as_deref().unwrap_or("")
        ),
    );
}
