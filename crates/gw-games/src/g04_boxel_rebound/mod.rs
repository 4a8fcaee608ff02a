//! 04_boxel-rebound — a precision auto-runner: the cube slides right on its
//! own; the only control is the jump, timed over spikes, pits, blocks and
//! saw blades to the end of the level.
//!
//! Space, ArrowUp or a mouse press jumps from the ground; holding it keeps
//! the cube rebounding, jumping again the moment it lands (so a press made
//! just before landing is not lost). Blocks are solid: the cube lands on
//! their tops but crashes into their sides. Jump pads throw it high; saw
//! blades move up and down (their starting phase comes from the seed).
//! Spikes, saws, crashing and falling into a pit end the attempt
//! (`Outcome::Fail`); reaching the finish line ends it with success.
//!
//! Levels 1–3 are data ([`levels`]); a task's `level` picks one. The cube
//! runs at 360 px/s, so the levels (4700, 4850 and 5800 px) take 13–16 s of
//! the 20 s a 100-step run of 0.2 s actions has. The score is
//! `game_state.completion_progress` (0–1, the share of the level run in this
//! attempt); `game_state.score` is the same as a whole percentage.

mod expert;
pub mod levels;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use crate::runner::Aabb;
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use levels::Piece;
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "04_boxel-rebound";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

/// Ground line on screen.
pub const GROUND_Y: f64 = 540.0;
/// The cube's left edge sits this far from the screen's left edge.
const CAMERA_OFFSET: f64 = 300.0;
pub const CUBE: f64 = 36.0;
pub const START_X: f64 = 100.0;
pub const RUN_SPEED: f64 = 360.0;
pub const GRAVITY: f64 = 2600.0;
pub const JUMP_SPEED: f64 = 880.0;
pub const PAD_SPEED: f64 = 1250.0;
pub const MAX_FALL: f64 = 1200.0;
/// The cube climbs onto a ledge at most this high without crashing.
const STEP_UP: f64 = 8.0;
pub const SPIKE_W: f64 = 30.0;
pub const SPIKE_H: f64 = 30.0;
pub const SAW_R: f64 = 24.0;
const PAD_W: f64 = 40.0;
pub const LEVELS: u32 = 3;
/// At most this many saws per level (phases live in a fixed array).
const MAX_SAWS: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saw {
    pub x: f64,
    pub low: f64,
    pub high: f64,
    pub period_ms: f64,
}

/// A level turned into collision geometry (world x, screen y).
#[derive(Debug, PartialEq)]
pub struct Level {
    pub number: u32,
    /// Ground segments, blocks and floating blocks.
    pub solids: Vec<Aabb>,
    /// One box per spike (its full drawn box).
    pub spikes: Vec<Aabb>,
    pub pads: Vec<f64>,
    pub saws: Vec<Saw>,
    pub finish: f64,
}

impl Level {
    pub fn build(number: u32, pieces: &[Piece]) -> Level {
        let mut gaps = Vec::new();
        let mut level = Level {
            number,
            solids: Vec::new(),
            spikes: Vec::new(),
            pads: Vec::new(),
            saws: Vec::new(),
            finish: 0.0,
        };
        for p in pieces {
            match *p {
                Piece::Gap { x, w } => gaps.push((x, w)),
                Piece::Block { x, w, h } => level.solids.push(Aabb::new(x, GROUND_Y - h, w, h)),
                Piece::Float { x, y, w, h } => {
                    level.solids.push(Aabb::new(x, GROUND_Y - y - h, w, h))
                }
                Piece::Spikes { x, n, base } => {
                    for i in 0..n {
                        level.spikes.push(Aabb::new(
                            x + i as f64 * SPIKE_W,
                            GROUND_Y - base - SPIKE_H,
                            SPIKE_W,
                            SPIKE_H,
                        ));
                    }
                }
                Piece::Pad { x } => level.pads.push(x),
                Piece::Saw {
                    x,
                    low,
                    high,
                    period_ms,
                } => level.saws.push(Saw {
                    x,
                    low,
                    high,
                    period_ms,
                }),
                Piece::Finish { x } => level.finish = x,
            }
        }
        assert!(level.saws.len() <= MAX_SAWS, "too many saws");
        assert!(level.finish > 0.0, "level {number} has no finish");
        gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut from = -2000.0;
        for (x, w) in gaps {
            level
                .solids
                .push(Aabb::new(from, GROUND_Y, x - from, 400.0));
            from = x + w;
        }
        let end = level.finish + 3000.0;
        level
            .solids
            .push(Aabb::new(from, GROUND_Y, end - from, 400.0));
        level
    }
}

/// The three levels, parsed once.
pub fn level(number: u32) -> &'static Level {
    static LEVELS_DATA: OnceLock<Vec<Level>> = OnceLock::new();
    let all = LEVELS_DATA.get_or_init(|| {
        [levels::LEVEL_1, levels::LEVEL_2, levels::LEVEL_3]
            .iter()
            .enumerate()
            .map(|(i, text)| Level::build(i as u32 + 1, &levels::parse(text)))
            .collect()
    });
    &all[(number.clamp(1, LEVELS) - 1) as usize]
}

/// How an attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Spikes,
    Crash,
    Pit,
    Saw,
    Finish,
}

impl End {
    pub fn reason(self) -> &'static str {
        match self {
            End::Spikes => "hit spikes",
            End::Crash => "crashed into a block",
            End::Pit => "fell into a pit",
            End::Saw => "hit a saw blade",
            End::Finish => "reached the end of the level",
        }
    }
}

/// One attempt's deterministic physics (the expert rolls copies forward).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub level: &'static Level,
    /// Cube's left edge (level x) and top (screen y).
    pub x: f64,
    pub y: f64,
    pub vy: f64,
    pub grounded: bool,
    pub jump_held: bool,
    pub time_ms: u64,
    /// Starting phase of each saw, as a fraction of its period.
    pub saw_phase: [f64; MAX_SAWS],
    pub jumps: u32,
}

impl World {
    pub fn new(level: &'static Level, saw_phase: [f64; MAX_SAWS]) -> World {
        World {
            level,
            x: START_X,
            y: GROUND_Y - CUBE,
            vy: 0.0,
            grounded: true,
            jump_held: false,
            time_ms: 0,
            saw_phase,
            jumps: 0,
        }
    }

    pub fn cube(&self) -> Aabb {
        Aabb::new(self.x, self.y, CUBE, CUBE)
    }

    pub fn completion(&self) -> f64 {
        ((self.x - START_X) / (self.level.finish - START_X)).clamp(0.0, 1.0)
    }

    /// Centre (level x, screen y) of saw `i` now.
    pub fn saw_centre(&self, i: usize) -> (f64, f64) {
        let s = &self.level.saws[i];
        let t = self.time_ms as f64 / s.period_ms + self.saw_phase[i];
        let k = 0.5 - 0.5 * libm::cos(2.0 * std::f64::consts::PI * t);
        (s.x, GROUND_Y - (s.low + (s.high - s.low) * k))
    }

    fn on_pad(&self) -> bool {
        self.grounded
            && self.y + CUBE >= GROUND_Y - 0.5
            && self
                .level
                .pads
                .iter()
                .any(|&p| self.x + CUBE > p && self.x < p + PAD_W)
    }

    /// One fixed tick. Returns how the attempt ended, if it did.
    pub fn tick(&mut self) -> Option<End> {
        self.time_ms += TICK_MS;
        if self.grounded && self.on_pad() {
            self.vy = -PAD_SPEED;
            self.grounded = false;
        } else if self.grounded && self.jump_held {
            self.vy = -JUMP_SPEED;
            self.grounded = false;
            self.jumps += 1;
        }
        // Horizontal move: step onto low ledges, crash into walls.
        self.x += RUN_SPEED * DT;
        for s in &self.level.solids {
            let c = self.cube();
            if c.overlaps(s) {
                if c.bottom() - s.y <= STEP_UP {
                    self.y = s.y - CUBE;
                } else if s.y >= GROUND_Y {
                    // Down in a pit, against its far wall.
                    return Some(End::Pit);
                } else {
                    return Some(End::Crash);
                }
            }
        }
        // Vertical move: land on tops, bump heads on bottoms.
        let prev = self.cube();
        self.vy = (self.vy + GRAVITY * DT).min(MAX_FALL);
        self.y += self.vy * DT;
        self.grounded = false;
        for s in &self.level.solids {
            let c = self.cube();
            if !c.overlaps(s) {
                continue;
            }
            if self.vy >= 0.0 && prev.bottom() <= s.y + 0.5 {
                self.y = s.y - CUBE;
                self.vy = 0.0;
                self.grounded = true;
            } else if self.vy < 0.0 && prev.y >= s.bottom() - 0.5 {
                self.y = s.bottom();
                self.vy = 0.0;
            } else {
                return Some(End::Crash);
            }
        }
        let me = self.cube().inset(3.0);
        if self
            .level
            .spikes
            .iter()
            .any(|s| Aabb::new(s.x + 8.0, s.y + 10.0, s.w - 16.0, s.h - 10.0).overlaps(&me))
        {
            return Some(End::Spikes);
        }
        for i in 0..self.level.saws.len() {
            let (sx, sy) = self.saw_centre(i);
            let (cx, cy) = (sx.clamp(me.x, me.right()), sy.clamp(me.y, me.bottom()));
            if (sx - cx).powi(2) + (sy - cy).powi(2) < (SAW_R - 3.0).powi(2) {
                return Some(End::Saw);
            }
        }
        if self.y > 720.0 {
            return Some(End::Pit);
        }
        if self.x >= self.level.finish {
            return Some(End::Finish);
        }
        None
    }
}

pub struct BoxelRebound {
    seed: u64,
    level_no: u32,
    clock: FixedStep,
    world: World,
    key_held: bool,
    mouse_held: bool,
    best_progress: f64,
    episode: u32,
    terminal: Terminal,
}

impl Default for BoxelRebound {
    fn default() -> Self {
        Self::new()
    }
}

impl BoxelRebound {
    pub fn new() -> Self {
        BoxelRebound {
            seed: 0,
            level_no: 1,
            clock: FixedStep::new(TICK_MS),
            world: World::new(level(1), [0.0; MAX_SAWS]),
            key_held: false,
            mouse_held: false,
            best_progress: 0.0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    fn sync_jump(&mut self) {
        self.world.jump_held = self.key_held || self.mouse_held;
    }
}

impl Game for BoxelRebound {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level_no = config.level.unwrap_or(1).clamp(1, LEVELS);
        self.best_progress = 0.0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        // Saw phases depend on the seed only: retrying a level meets the same
        // saws, as in the original.
        let mut rng = Rng::new(self.seed, 0xB0_0000 + self.level_no as u64);
        let mut phase = [0.0; MAX_SAWS];
        for p in &mut phase {
            *p = rng.next_f64();
        }
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new(level(self.level_no), phase);
        self.key_held = false;
        self.mouse_held = false;
        self.terminal = Terminal::running();
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
        let done = (w.completion() * 1000.0).floor() / 1000.0;
        set(&mut s.game_state, "completion_progress", done);
        set(&mut s.game_state, "score", (w.completion() * 100.0).floor());
        set(&mut s.game_state, "level", self.level_no);
        set(&mut s.game_state, "progress", done);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r1(w.x), "y": r1(w.y), "size": CUBE, "vy": r1(w.vy),
                "grounded": w.grounded, "jump_ready": w.grounded,
                "is_dead": self.terminal.outcome == Some(Outcome::Fail),
            }),
        );
        // Hazards and solids near the cube (one screen back, two ahead).
        let near = |x: f64, wd: f64| x + wd > w.x - 400.0 && x < w.x + 1400.0;
        let mut ents: Vec<Value> = Vec::new();
        for b in w.level.solids.iter().filter(|b| near(b.x, b.w)) {
            let kind = if b.y >= GROUND_Y { "ground" } else { "block" };
            ents.push(json!({"kind": kind, "x": r1(b.x), "y": r1(b.y), "width": r1(b.w), "height": r1(b.h)}));
        }
        for b in w.level.spikes.iter().filter(|b| near(b.x, b.w)) {
            ents.push(json!({"kind": "spike", "x": b.x, "y": b.y, "width": b.w, "height": b.h}));
        }
        for &p in w.level.pads.iter().filter(|&&p| near(p, PAD_W)) {
            ents.push(
                json!({"kind": "pad", "x": p, "y": GROUND_Y - 8.0, "width": PAD_W, "height": 8.0}),
            );
        }
        for i in 0..w.level.saws.len() {
            let (sx, sy) = w.saw_centre(i);
            if near(sx - SAW_R, 2.0 * SAW_R) {
                ents.push(json!({"kind": "saw", "x": sx, "y": r1(sy), "radius": SAW_R}));
            }
        }
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.game_state, "finish_x", w.level.finish);
        set(&mut s.metrics, "distance", r1(w.x - START_X));
        set(&mut s.metrics, "distance_to_goal", r1(w.level.finish - w.x));
        set(&mut s.metrics, "jumps", w.jumps);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(
            &mut s.metrics,
            "deaths",
            self.episode + u32::from(self.terminal.outcome == Some(Outcome::Fail)),
        );
        set(
            &mut s.metrics,
            "best_progress",
            (self.best_progress.max(w.completion()) * 1000.0).floor() / 1000.0,
        );
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "x", w.x);
        set(&mut s.raw, "y", w.y);
        set(&mut s.raw, "jump_held", w.jump_held);
        set(
            &mut s.raw,
            "saw_phase",
            json!(w.saw_phase[..w.level.saws.len()]),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "Space" || key == "ArrowUp" => {
                self.key_held = true
            }
            InputEvent::KeyUp { key } if key == "Space" || key == "ArrowUp" => {
                self.key_held = false
            }
            InputEvent::MouseDown { .. } => self.mouse_held = true,
            InputEvent::MouseUp { .. } => self.mouse_held = false,
            _ => return,
        }
        self.sync_jump();
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            let end = self.world.tick();
            self.best_progress = self.best_progress.max(self.world.completion());
            if let Some(e) = end {
                let outcome = if e == End::Finish {
                    Outcome::Success
                } else {
                    Outcome::Fail
                };
                self.terminal = Terminal::ended(outcome, e.reason());
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

fn render(g: &BoxelRebound, pm: &mut Pixmap) {
    let w = &g.world;
    let cam = w.x - CAMERA_OFFSET;
    let sx = |x: f64| (x - cam) as f32;
    // Sky gradient bands and a parallax grid.
    draw::clear(pm, rgb(30, 34, 60));
    for i in 0..6 {
        let y = 56.0 + i as f32 * 80.0;
        draw::rect(
            pm,
            0.0,
            y,
            1280.0,
            80.0,
            rgb(30 + i * 6, 34 + i * 8, 60 + i * 10),
        );
    }
    let par = (cam * 0.3).rem_euclid(160.0) as f32;
    for i in 0..10 {
        let x = i as f32 * 160.0 - par;
        draw::rect(
            pm,
            x,
            56.0,
            2.0,
            GROUND_Y as f32 - 56.0,
            rgba(255, 255, 255, 18),
        );
    }
    let visible = |x: f64, wd: f64| x + wd > cam - 10.0 && x < cam + 1290.0;
    for s in w.level.solids.iter().filter(|s| visible(s.x, s.w)) {
        let (x, y, wd, h) = (sx(s.x), s.y as f32, s.w as f32, s.h as f32);
        if s.y >= GROUND_Y {
            draw::rect(pm, x, y, wd, h, rgb(52, 60, 92));
            draw::rect(pm, x, y, wd, 6.0, rgb(120, 220, 255));
        } else {
            draw::rect(pm, x, y, wd, h, rgb(70, 80, 120));
            draw::rect_outline(pm, x, y, wd, h, 3.0, rgb(120, 220, 255));
        }
    }
    for s in w.level.spikes.iter().filter(|s| visible(s.x, s.w)) {
        let (x, y, wd, h) = (sx(s.x), s.y as f32, s.w as f32, s.h as f32);
        draw::polygon(
            pm,
            &[(x, y + h), (x + wd, y + h), (x + wd / 2.0, y)],
            rgb(255, 80, 90),
        );
    }
    for &p in w.level.pads.iter().filter(|&&p| visible(p, PAD_W)) {
        draw::rounded_rect(
            pm,
            sx(p),
            GROUND_Y as f32 - 8.0,
            PAD_W as f32,
            10.0,
            4.0,
            rgb(255, 220, 60),
        );
    }
    for i in 0..w.level.saws.len() {
        let (x, y) = w.saw_centre(i);
        if visible(x - SAW_R, 2.0 * SAW_R) {
            let s = &w.level.saws[i];
            draw::line(
                pm,
                sx(x),
                (GROUND_Y - s.high) as f32,
                sx(x),
                (GROUND_Y - s.low) as f32,
                3.0,
                rgba(255, 255, 255, 60),
            );
            draw::circle(pm, sx(x), y as f32, SAW_R as f32, rgb(200, 200, 210));
            for k in 0..8 {
                let a = k as f64 * std::f64::consts::PI / 4.0 + w.time_ms as f64 / 80.0;
                let (c, sn) = (libm::cos(a) as f32, libm::sin(a) as f32);
                let r = SAW_R as f32;
                draw::polygon(
                    pm,
                    &[
                        (sx(x) + c * r * 0.7, y as f32 + sn * r * 0.7),
                        (sx(x) + c * r * 1.25, y as f32 + sn * r * 1.25),
                        (
                            sx(x) - sn * r * 0.5 + c * r * 0.7,
                            y as f32 + c * r * 0.5 + sn * r * 0.7,
                        ),
                    ],
                    rgb(200, 200, 210),
                );
            }
            draw::circle(pm, sx(x), y as f32, 6.0, rgb(90, 90, 100));
        }
    }
    // Finish line: a checkered pole.
    let fx = sx(w.level.finish);
    if fx > -40.0 && fx < 1300.0 {
        for k in 0..12 {
            let c = if k % 2 == 0 {
                rgb(255, 255, 255)
            } else {
                rgb(20, 20, 20)
            };
            draw::rect(
                pm,
                fx,
                GROUND_Y as f32 - 240.0 + k as f32 * 20.0,
                20.0,
                20.0,
                c,
            );
        }
        draw::text(
            pm,
            "FINISH",
            fx + 10.0,
            GROUND_Y as f32 - 280.0,
            26.0,
            rgb(255, 255, 255),
            Align::Center,
        );
    }
    // The cube.
    let (cx, cy) = (sx(w.x), w.y as f32);
    let body = if g.terminal.outcome == Some(Outcome::Fail) {
        rgb(150, 150, 150)
    } else {
        rgb(90, 255, 160)
    };
    draw::rect(pm, cx, cy, CUBE as f32, CUBE as f32, rgb(20, 90, 60));
    draw::rect(
        pm,
        cx + 3.0,
        cy + 3.0,
        CUBE as f32 - 6.0,
        CUBE as f32 - 6.0,
        body,
    );
    draw::rect(pm, cx + 20.0, cy + 10.0, 6.0, 8.0, rgb(20, 40, 30));

    let pct = w.completion();
    draw::text(
        pm,
        "Space / ArrowUp / click: jump (hold to keep rebounding)    wait: keep running",
        640.0,
        660.0,
        22.0,
        rgb(170, 180, 210),
        Align::Center,
    );
    draw::hud(
        pm,
        "Boxel Rebound",
        &[
            ("Level", g.level_no.to_string()),
            ("Attempt", (g.episode + 1).to_string()),
            ("Jumps", w.jumps.to_string()),
        ],
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "LEVEL COMPLETE",
        &format!(
            "{:.0}% - {}",
            (pct * 100.0).floor(),
            g.terminal.reason.as_deref().unwrap_or("")
        ),
    );
}
