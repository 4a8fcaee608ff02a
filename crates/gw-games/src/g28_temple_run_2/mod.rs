//! 28_temple-run-2 — run along a stone path high above the jungle, seen from
//! behind the runner.
//!
//! The path is a chain of straight stretches joined at right-angle turns.
//! The runner runs on its own (faster and faster, [`V0`] to [`VMAX`] m/s) in
//! one of three lanes. Keys: `a`/`d` take the turn when the runner is near
//! the end of a stretch (within [`TURN_WINDOW`] m of the corner and the key
//! matches the way the path turns), and otherwise switch one lane left or
//! right; `w` jumps (about 1 s in the air), `s` slides (1 s, ducking under
//! arches); Space starts the run and, after a fatal mistake, spends coins to
//! be saved ("save me", [`SAVE_COST`] coins, doubling each time, within
//! [`SAVE_WINDOW_MS`] ms).
//!
//! Obstacles: logs across the path (jump), stone arches (slide), gaps in the
//! path (jump), walls that leave only one lane open (switch lanes), and small
//! rocks in one lane. Running into a rock is a stumble: the runner slows
//! for a moment and the demon monkeys close in; a second stumble while they
//! are close ([`CHASE_MS`]) gets the runner caught. Missing a turn runs the
//! runner off the path. Any death, unless saved, ends the run.
//!
//! Score (`metrics.score`, also `game_state.score`): [`POINTS_PER_M`] points
//! per metre plus [`COIN_POINTS`] per coin picked up. Tuned so 10 000 points
//! take about 40 s of running, which fits 100 actions of 0.5 s.
//!
//! Every stretch and its obstacles are laid out from the episode's random
//! stream when the path ahead runs short (the next stretches are always
//! there to be seen; nothing depends on the runner's choices).

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::render3d::{Backdrop, Camera, Fog, Light, Scene, v3};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{
    FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, Status, TaskInfo, Terminal,
};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "28_temple-run-2";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const V0: f64 = 10.0;
pub const VMAX: f64 = 16.0;
pub const ACCEL: f64 = 0.15;
/// Lane spacing and the path's half width, m.
pub const LANE_W: f64 = 1.2;
pub const HALF_W: f64 = 1.8;
/// Sideways speed of a lane switch, m/s.
pub const LANE_SPEED: f64 = 9.0;
pub const JUMP_SPEED: f64 = 5.0;
pub const GRAVITY: f64 = 10.0;
pub const SLIDE_MS: u64 = 1000;
/// Distance before a corner from which a matching key takes the turn, m.
pub const TURN_WINDOW: f64 = 12.0;
/// Running past the corner by this much without turning runs off the path.
pub const OVERRUN: f64 = 1.5;
pub const CHASE_MS: u64 = 8000;
/// Speed kept for a moment after a stumble.
const STUMBLE_SLOW: f64 = 0.7;
const STUMBLE_SLOW_MS: u64 = 800;
pub const POINTS_PER_M: f64 = 20.0;
pub const COIN_POINTS: u64 = 10;
pub const SAVE_COST: u32 = 40;
pub const SAVE_WINDOW_MS: u64 = 2000;
/// Depth (along the path) of logs, arches, rocks and walls; gap length.
pub const OBSTACLE_DEPTH: f64 = 0.6;
pub const GAP_LEN: f64 = 2.5;
/// Half the runner's depth along the path.
const RUNNER_HALF: f64 = 0.25;

pub fn base_speed(t_ms: u64) -> f64 {
    (V0 + ACCEL * t_ms as f64 / 1000.0).min(VMAX)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    Left,
    Right,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Across the path, low: jump.
    Log,
    /// Across the path, overhead: slide.
    Arch,
    /// A hole across the path: jump.
    Gap,
    /// Blocks the lanes in `lanes`, tall: switch lanes.
    Wall,
    /// Low rock in the lanes in `lanes`: jump or switch lanes, else stumble.
    Rock,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obstacle {
    pub kind: Kind,
    /// Distance along its stretch, m (start of the obstacle).
    pub s: f64,
    /// Lanes covered (bit 0 left, 1 middle, 2 right) for walls and rocks.
    pub lanes: u8,
}

impl Obstacle {
    pub fn len(&self) -> f64 {
        if self.kind == Kind::Gap {
            GAP_LEN
        } else {
            OBSTACLE_DEPTH
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coin {
    pub s: f64,
    pub lane: i32,
    pub taken: bool,
}

/// One straight stretch from a corner (or the start) to the next corner.
#[derive(Clone, Debug, PartialEq)]
pub struct Stretch {
    /// World position of its start (the previous corner).
    pub x: f64,
    pub z: f64,
    /// Heading: 0 +z, 1 +x, 2 −z, 3 −x.
    pub heading: u8,
    pub length: f64,
    pub turn: Turn,
    pub obstacles: Vec<Obstacle>,
    pub coins: Vec<Coin>,
}

pub fn forward(heading: u8) -> (f64, f64) {
    match heading % 4 {
        0 => (0.0, 1.0),
        1 => (1.0, 0.0),
        2 => (0.0, -1.0),
        _ => (-1.0, 0.0),
    }
}

impl Stretch {
    /// World (x, z) of a point `s` along and `lat` to the right.
    pub fn at(&self, s: f64, lat: f64) -> (f64, f64) {
        let (fx, fz) = forward(self.heading);
        let (rx, rz) = forward(self.heading + 1);
        (self.x + fx * s + rx * lat, self.z + fz * s + rz * lat)
    }
    pub fn next_heading(&self) -> u8 {
        match self.turn {
            Turn::Left => (self.heading + 3) % 4,
            Turn::Right => (self.heading + 1) % 4,
        }
    }
}

/// Lane index (−1, 0, 1) nearest a sideways offset.
pub fn lane_of(lat: f64) -> i32 {
    (libm::round(lat / LANE_W) as i32).clamp(-1, 1)
}

fn lane_bit(lane: i32) -> u8 {
    1 << (lane + 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Ready,
    Running,
    /// Dead, waiting for Space to be saved until the given run time.
    SaveMe {
        until_ms: u64,
    },
    Over,
}

/// The runner and the path (the expert plays copies of this).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub path: Vec<Stretch>,
    /// Stretch the runner is on (index into `path`).
    pub cur: usize,
    /// Distance along the current stretch.
    pub s: f64,
    pub lat: f64,
    pub lane: i32,
    pub h: f64,
    pub vh: f64,
    pub slide_ms: u64,
    pub queued_turn: Option<Turn>,
    /// Run time, ms.
    pub t_ms: u64,
    pub distance: f64,
    pub coins: u32,
    pub wallet: u32,
    pub stumbles: u32,
    pub last_stumble_ms: Option<u64>,
    pub jumps: u32,
    pub slides: u32,
    pub turns: u32,
    pub phase: Phase,
    pub death: Option<&'static str>,
}

impl World {
    fn new() -> Self {
        World {
            path: Vec::new(),
            cur: 0,
            s: 0.0,
            lat: 0.0,
            lane: 0,
            h: 0.0,
            vh: 0.0,
            slide_ms: 0,
            queued_turn: None,
            t_ms: 0,
            distance: 0.0,
            coins: 0,
            wallet: 0,
            stumbles: 0,
            last_stumble_ms: None,
            jumps: 0,
            slides: 0,
            turns: 0,
            phase: Phase::Ready,
            death: None,
        }
    }

    pub fn stretch(&self) -> &Stretch {
        &self.path[self.cur]
    }

    pub fn chased(&self) -> bool {
        self.last_stumble_ms
            .is_some_and(|t| self.t_ms < t + CHASE_MS)
    }

    pub fn speed(&self) -> f64 {
        let slow = match self.last_stumble_ms {
            Some(t) if self.t_ms < t + STUMBLE_SLOW_MS => STUMBLE_SLOW,
            _ => 1.0,
        };
        base_speed(self.t_ms) * slow
    }

    pub fn score(&self) -> u64 {
        (self.distance * POINTS_PER_M) as u64 + self.coins as u64 * COIN_POINTS
    }

    pub fn running(&self) -> bool {
        self.phase == Phase::Running
    }

    /// Distance left to the current corner.
    pub fn to_corner(&self) -> f64 {
        self.stretch().length - self.s
    }

    /// `a` (left) or `d` (right): a turn near a matching corner, else a lane.
    pub fn steer(&mut self, dir: Turn) {
        if !self.running() {
            return;
        }
        if self.to_corner() <= TURN_WINDOW && self.stretch().turn == dir {
            self.queued_turn = Some(dir);
            return;
        }
        let d = if dir == Turn::Left { -1 } else { 1 };
        self.lane = (self.lane + d).clamp(-1, 1);
    }

    pub fn jump(&mut self) {
        if self.running() && self.h <= 0.0 {
            self.vh = JUMP_SPEED;
            self.h = 1e-9;
            self.slide_ms = 0;
            self.jumps += 1;
        }
    }

    pub fn slide(&mut self) {
        if self.running() && self.slide_ms == 0 {
            self.slide_ms = SLIDE_MS;
            // Sliding from the air drops the runner straight down.
            if self.h > 0.0 {
                self.vh = self.vh.min(-JUMP_SPEED);
            }
            self.slides += 1;
        }
    }

    fn die(&mut self, why: &'static str) {
        self.death = Some(why);
        self.phase = Phase::SaveMe {
            until_ms: self.t_ms + SAVE_WINDOW_MS,
        };
    }

    /// Cost of the next save.
    pub fn save_cost(&self, saves: u32) -> u32 {
        SAVE_COST << saves.min(8)
    }

    /// One fixed tick of running.
    pub fn tick(&mut self) {
        match self.phase {
            Phase::Running => {}
            Phase::SaveMe { until_ms } => {
                self.t_ms += TICK_MS;
                if self.t_ms >= until_ms {
                    self.phase = Phase::Over;
                }
                return;
            }
            _ => return,
        }
        let v = self.speed();
        self.t_ms += TICK_MS;
        let ds = v * DT;
        self.s += ds;
        self.distance += ds;
        // Lanes.
        let target = self.lane as f64 * LANE_W;
        let step = LANE_SPEED * DT;
        self.lat += (target - self.lat).clamp(-step, step);
        // Jump and slide.
        if self.h > 0.0 {
            self.vh -= GRAVITY * DT;
            self.h += self.vh * DT;
            if self.h <= 0.0 {
                self.h = 0.0;
                self.vh = 0.0;
            }
        }
        self.slide_ms = self.slide_ms.saturating_sub(TICK_MS);
        // Corner.
        let len = self.stretch().length;
        if self.s >= len {
            if let Some(turn) = self.queued_turn.take() {
                debug_assert_eq!(turn, self.stretch().turn);
                let over = self.s - len;
                self.cur += 1;
                self.s = over;
                self.turns += 1;
            } else if self.s > len + OVERRUN {
                self.die("ran off the path at a turn");
                return;
            }
        }
        self.collide();
        // Coins.
        let (s, lane, h) = (self.s, lane_of(self.lat), self.h);
        let mut got = 0;
        for c in self.path[self.cur].coins.iter_mut() {
            if !c.taken && c.lane == lane && (c.s - s).abs() < 0.8 && h < 1.6 {
                c.taken = true;
                got += 1;
            }
        }
        self.coins += got;
        self.wallet += got;
    }

    fn collide(&mut self) {
        let (s, h) = (self.s, self.h);
        let mut hit: Option<Obstacle> = None;
        for o in &self.stretch().obstacles {
            if s + RUNNER_HALF > o.s && s - RUNNER_HALF < o.s + o.len() {
                hit = Some(*o);
                break;
            }
        }
        let Some(o) = hit else { return };
        match o.kind {
            Kind::Log if h < 0.5 => self.die("tripped over a log"),
            Kind::Arch if self.slide_ms == 0 => self.die("hit a stone arch"),
            Kind::Gap if h <= 0.0 && s > o.s + RUNNER_HALF && s < o.s + o.len() - RUNNER_HALF => {
                self.die("fell into a gap")
            }
            Kind::Wall if o.lanes & lane_bit(lane_of(self.lat)) != 0 => self.die("ran into a wall"),
            // Clipping the edge of a wall while switching lanes.
            Kind::Wall if self.touches(o.lanes, LANE_W / 2.0) => self.stumble(),
            Kind::Rock if h < 0.45 && self.touches(o.lanes, 0.4) => self.stumble(),
            _ => {}
        }
    }

    /// Whether the runner's body (0.25 m each side) overlaps a block of half
    /// width `half` centred on any lane in `lanes`.
    fn touches(&self, lanes: u8, half: f64) -> bool {
        (-1..=1)
            .any(|l| lanes & lane_bit(l) != 0 && (self.lat - l as f64 * LANE_W).abs() < half + 0.25)
    }

    fn stumble(&mut self) {
        // One obstacle counts once.
        if self.last_stumble_ms.is_some_and(|t| self.t_ms <= t + 600) {
            return;
        }
        if self.chased() {
            self.die("caught by the demon monkeys");
        } else {
            self.stumbles += 1;
            self.last_stumble_ms = Some(self.t_ms);
        }
    }

    /// Bring a dead runner back (coins already paid): past what killed it,
    /// round the corner it missed, on the ground.
    fn revive(&mut self) {
        let why = self.death.take();
        self.phase = Phase::Running;
        self.h = 0.0;
        self.vh = 0.0;
        self.slide_ms = 0;
        self.last_stumble_ms = None;
        if why == Some("ran off the path at a turn") {
            self.cur += 1;
            self.s = 0.0;
            self.turns += 1;
            return;
        }
        let s = self.s;
        let st = &mut self.path[self.cur];
        if let Some(i) = st
            .obstacles
            .iter()
            .position(|o| s + RUNNER_HALF + 0.5 > o.s && s - 1.0 < o.s + o.len())
        {
            st.obstacles.remove(i);
        }
    }
}

pub struct TempleRun {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    saves: u32,
    deaths: u32,
    best_score: u64,
    episode: u32,
    terminal: Terminal,
    held: [bool; 5],
}

impl Default for TempleRun {
    fn default() -> Self {
        Self::new()
    }
}

/// Keys in `held` order.
const KEYS: [&str; 5] = ["a", "d", "w", "s", "Space"];

impl TempleRun {
    pub fn new() -> Self {
        TempleRun {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            saves: 0,
            deaths: 0,
            best_score: 0,
            episode: 0,
            terminal: Terminal::running(),
            held: [false; 5],
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn saves(&self) -> u32 {
        self.saves
    }

    /// Lay out one more stretch at the end of the path.
    fn add_stretch(&mut self) {
        let first = self.world.path.is_empty();
        let (x, z, heading) = match self.world.path.last() {
            Some(p) => {
                let (x, z) = p.at(p.length, 0.0);
                (x, z, p.next_heading())
            }
            None => (0.0, 0.0, 0),
        };
        let n = self.world.path.len() as f64;
        let length = if first {
            90.0
        } else {
            libm::round(self.rng.range_f64(55.0, 110.0))
        };
        let turn = if self.rng.chance(0.5) {
            Turn::Left
        } else {
            Turn::Right
        };
        let mut obstacles = Vec::new();
        let mut coins = Vec::new();
        // Obstacles from 20 m (35 m on the first stretch) to 22 m before the
        // corner, closer together further along the run.
        let min_gap = (24.0 - 1.5 * n).max(17.0);
        let mut s = if first { 35.0 } else { 20.0 };
        let end = length - 22.0;
        while s < end {
            let kind = match self.rng.below(6) {
                0 => Kind::Log,
                1 => Kind::Arch,
                2 => Kind::Gap,
                3 | 4 => Kind::Wall,
                _ => Kind::Rock,
            };
            let lanes = match kind {
                Kind::Wall => [0b110, 0b011, 0b101][self.rng.index(3)],
                Kind::Rock => lane_bit(self.rng.range_i32(-1, 1)),
                _ => 0b111,
            };
            obstacles.push(Obstacle { kind, s, lanes });
            // Coins between this obstacle and the next, in a free lane.
            let free: Vec<i32> = (-1..=1).filter(|l| lanes & lane_bit(*l) == 0).collect();
            let lane = if free.is_empty() {
                self.rng.range_i32(-1, 1)
            } else {
                free[self.rng.index(free.len())]
            };
            if self.rng.chance(0.6) {
                for k in 0..6 {
                    coins.push(Coin {
                        s: s + 4.0 + 1.6 * k as f64,
                        lane,
                        taken: false,
                    });
                }
            }
            s += min_gap + self.rng.range_f64(0.0, 12.0);
        }
        self.world.path.push(Stretch {
            x,
            z,
            heading,
            length,
            turn,
            obstacles,
            coins,
        });
    }

    fn generate(&mut self) {
        while self.world.path.len() < self.world.cur + 4 {
            self.add_stretch();
        }
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        let was = self.world.phase;
        self.world.tick();
        if matches!(self.world.phase, Phase::SaveMe { .. }) && !matches!(was, Phase::SaveMe { .. })
        {
            self.deaths += 1;
        }
        if self.world.phase == Phase::Over {
            let why = self.world.death.unwrap_or("died");
            self.terminal = Terminal::ended(Outcome::Fail, why);
        }
        self.best_score = self.best_score.max(self.world.score());
        self.generate();
    }

    fn press(&mut self, key: usize) {
        let w = &mut self.world;
        match key {
            0 => w.steer(Turn::Left),
            1 => w.steer(Turn::Right),
            2 => w.jump(),
            3 => w.slide(),
            _ => match w.phase {
                Phase::Ready => w.phase = Phase::Running,
                Phase::SaveMe { .. } => {
                    let cost = w.save_cost(self.saves);
                    if w.wallet >= cost {
                        w.wallet -= cost;
                        self.saves += 1;
                        w.revive();
                    }
                }
                _ => {}
            },
        }
    }
}

impl Game for TempleRun {
    /// `Sub`: the banded 3D frames shrink to a third and encode faster
    /// (`gameworld bench --png-filters`: 350 → 108 kB, 2.4 → 1.5 ms).
    fn frame_filter(&self) -> gw_core::frame::RowFilter {
        gw_core::frame::RowFilter::Sub
    }

    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.deaths = 0;
        self.best_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x7E3B_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        self.saves = 0;
        self.held = [false; 5];
        self.terminal = Terminal::running();
        self.generate();
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let status = match w.phase {
            Phase::Ready => Status::Ready,
            Phase::Running => Status::Playing,
            Phase::SaveMe { .. } => Status::Paused,
            Phase::Over => Status::Terminal,
        };
        let mut s = GameApiState::new(ID, self.seed, w.t_ms, status, self.terminal.clone());
        let r2 = |v: f64| (v * 100.0).round() / 100.0;
        let st = w.stretch();
        set(&mut s.game_state, "score", w.score());
        set(&mut s.game_state, "distance", r2(w.distance));
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", Value::Null);
        set(
            &mut s.game_state,
            "mode",
            match w.phase {
                Phase::Ready => "ready",
                Phase::Running => "running",
                Phase::SaveMe { .. } => "save_me",
                Phase::Over => "game_over",
            },
        );
        set(
            &mut s.game_state,
            "player",
            json!({
                "lane": w.lane,
                "lateral": r2(w.lat),
                "height": r2(w.h),
                "jumping": w.h > 0.0,
                "sliding": w.slide_ms > 0,
                "heading": st.heading,
                "along": r2(w.s),
                "turn_queued": w.queued_turn.map(|t| if t == Turn::Left { "left" } else { "right" }),
                "is_dead": w.death.is_some(),
                "chased": w.chased(),
            }),
        );
        let kind = |k: Kind| match k {
            Kind::Log => "log",
            Kind::Arch => "arch",
            Kind::Gap => "gap",
            Kind::Wall => "wall",
            Kind::Rock => "rock",
        };
        let lanes = |b: u8| -> Vec<i32> { (-1..=1).filter(|l| b & lane_bit(*l) != 0).collect() };
        let ahead: Vec<Value> = st
            .obstacles
            .iter()
            .filter(|o| o.s + o.len() > w.s - 1.0)
            .map(|o| json!({"type": kind(o.kind), "distance": r2(o.s - w.s), "lanes": lanes(o.lanes)}))
            .collect();
        set(&mut s.game_state, "entities", json!(ahead));
        set(
            &mut s.game_state,
            "next_turn",
            json!({"distance": r2(w.to_corner()), "direction": if st.turn == Turn::Left { "left" } else { "right" }}),
        );
        let coins_ahead = st.coins.iter().filter(|c| !c.taken && c.s > w.s).count();
        set(&mut s.metrics, "score", w.score());
        set(&mut s.metrics, "distance", r2(w.distance));
        set(&mut s.metrics, "coins", w.coins);
        set(&mut s.metrics, "wallet", w.wallet);
        set(&mut s.metrics, "speed", r2(w.speed()));
        set(&mut s.metrics, "stumbles_this_run", w.stumbles);
        set(&mut s.metrics, "resurrects_this_run", self.saves);
        set(&mut s.metrics, "save_cost", w.save_cost(self.saves));
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "turns", w.turns);
        set(&mut s.metrics, "jumps", w.jumps);
        set(&mut s.metrics, "slides", w.slides);
        set(&mut s.metrics, "best_score", self.best_score.max(w.score()));
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "stretch", w.cur);
        set(&mut s.raw, "coins_ahead_on_stretch", coins_ahead);
        set(&mut s.raw, "vh", w.vh);
        set(&mut s.raw, "slide_ms", w.slide_ms);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => {
                if let Some(i) = KEYS.iter().position(|k| k.eq_ignore_ascii_case(key)) {
                    if !self.held[i] && !self.terminal.is_terminal {
                        self.press(i);
                    }
                    self.held[i] = true;
                }
            }
            InputEvent::KeyUp { key } => {
                if let Some(i) = KEYS.iter().position(|k| k.eq_ignore_ascii_case(key)) {
                    self.held[i] = false;
                }
            }
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
        json!({"action": expert::choose(&self.world, self.saves)})
    }
}

// ---------------------------------------------------------------- rendering

const VIEW_TOP: u32 = 56;
const HAZE: Rgb = rgb(150, 178, 160);
const FOG_END: f64 = 95.0;

fn backdrop() -> &'static Pixmap {
    static LAYER: OnceLock<Pixmap> = OnceLock::new();
    LAYER.get_or_init(|| {
        let h = 720 - VIEW_TOP;
        let mut pm = Pixmap::new(1280, h).expect("layer");
        // Sky fading into the haze at the horizon, jungle canopy below.
        let horizon = 250.0;
        for y in 0..h {
            let yf = y as f64;
            let c = if yf < horizon {
                crate::render3d::mix(rgb(104, 160, 210), HAZE, yf / horizon)
            } else {
                crate::render3d::mix(HAZE, rgb(30, 70, 40), ((yf - horizon) / 200.0).min(1.0))
            };
            draw::rect(&mut pm, 0.0, y as f32, 1280.0, 1.0, c);
        }
        let mut rng = Rng::new(28, 1);
        for _ in 0..90 {
            let x = rng.range_f64(0.0, 1280.0) as f32;
            let y = rng.range_f64(horizon + 20.0, h as f64) as f32;
            let r = rng.range_f64(14.0, 40.0) as f32;
            let g = 60 + rng.below(40) as u8;
            draw::circle(&mut pm, x, y, r, rgb(25, g, 35));
        }
        pm
    })
}

fn heading_yaw(h: u8) -> f64 {
    h as f64 * std::f64::consts::FRAC_PI_2
}

pub fn camera(g: &TempleRun) -> Camera {
    let w = &g.world;
    let st = w.stretch();
    let (x, z) = st.at(w.s, w.lat * 0.6);
    let mut yaw = heading_yaw(st.heading);
    // Swing round smoothly for the first metres after a corner.
    if w.cur > 0 && w.s < 4.0 {
        let prev = heading_yaw(w.path[w.cur - 1].heading);
        let mut d = yaw - prev;
        let tau = std::f64::consts::TAU;
        d -= tau * libm::round(d / tau);
        yaw = prev + d * (w.s / 4.0);
    }
    let back = 6.0;
    let (sy, cy) = (libm::sin(yaw), libm::cos(yaw));
    let mut cam = Camera::new(v3(x - sy * back, 3.9, z - cy * back), 1280, 720 - VIEW_TOP);
    cam.screen = (0, VIEW_TOP, 1280, 720 - VIEW_TOP);
    cam.yaw = yaw;
    cam.pitch = -0.3;
    cam.fov_y = 60f64.to_radians();
    cam.far = FOG_END;
    cam
}

/// A box in a stretch's frame: `s0..s1` along, `l0..l1` across, `y0..y1` up.
#[allow(clippy::too_many_arguments)]
fn boxed(
    sc: &mut Scene,
    st: &Stretch,
    s0: f64,
    s1: f64,
    l0: f64,
    l1: f64,
    y0: f64,
    y1: f64,
    c: Rgb,
) {
    let (fx, fz) = forward(st.heading);
    let (rx, rz) = forward(st.heading + 1);
    let axes = [v3(rx, 0.0, rz), v3(0.0, 1.0, 0.0), v3(fx, 0.0, fz)];
    sc.frame_box(
        v3(st.x, 0.0, st.z),
        axes,
        [l0, y0, s0],
        [l1, y1, s1],
        [c; 6],
    );
}

/// Blocks filling the obstacle's lanes, `half` wide each side of the lane.
fn lane_blocks(sc: &mut Scene, st: &Stretch, o: &Obstacle, half: f64, height: f64, c: Rgb) {
    for lane in -1..=1 {
        if o.lanes & lane_bit(lane) != 0 {
            let m = lane as f64 * LANE_W;
            boxed(
                sc,
                st,
                o.s,
                o.s + o.len(),
                m - half,
                m + half,
                0.0,
                height,
                c,
            );
        }
    }
}

fn render(g: &TempleRun, pm: &mut Pixmap) {
    let w = &g.world;
    let cam = camera(g);
    let mut sc = Scene::new(cam);
    sc.light = Light {
        dir: v3(-0.4, 0.85, -0.35).norm(),
        ambient: 0.55,
    };
    sc.fog = Some(Fog {
        color: HAZE,
        start: 25.0,
        end: FOG_END,
    });
    let near = |st: &Stretch, s: f64| {
        let (x, z) = st.at(s, 0.0);
        let d = v3(x - cam.pos.x, 0.0, z - cam.pos.z);
        d.len() < FOG_END + 10.0
    };
    let first = w.cur.saturating_sub(1);
    for (i, st) in w.path.iter().enumerate().skip(first).take(4) {
        // Stone slabs in 3 m pieces (so the fog shades along the path),
        // leaving out the gaps.
        let start = if i == 0 { -HALF_W } else { HALF_W };
        let end = st.length + HALF_W;
        let mut s = start;
        while s < end {
            let s1 = (s + 3.0).min(end);
            let mut a = s;
            // Cut out gaps overlapping this piece.
            let mut pieces = Vec::new();
            for o in st.obstacles.iter().filter(|o| o.kind == Kind::Gap) {
                let (g0, g1) = (o.s, o.s + o.len());
                if g1 > a && g0 < s1 {
                    if g0 > a {
                        pieces.push((a, g0));
                    }
                    a = g1;
                }
            }
            if a < s1 {
                pieces.push((a, s1));
            }
            for (p0, p1) in pieces {
                if !near(st, p0) && !near(st, p1) {
                    continue;
                }
                let tone = if ((p0 / 3.0) as i64) % 2 == 0 { 0 } else { 10 };
                boxed(
                    &mut sc,
                    st,
                    p0,
                    p1,
                    -HALF_W,
                    HALF_W,
                    -1.2,
                    0.0,
                    rgb(176 - tone, 160 - tone, 128 - tone),
                );
            }
            s = s1;
        }
        // Low edge stones along both sides.
        for o in &st.obstacles {
            if !near(st, o.s) {
                continue;
            }
            let (s0, s1) = (o.s, o.s + o.len());
            match o.kind {
                Kind::Log => boxed(
                    &mut sc,
                    st,
                    s0,
                    s1,
                    -HALF_W - 0.2,
                    HALF_W + 0.2,
                    0.0,
                    0.55,
                    rgb(120, 74, 40),
                ),
                Kind::Arch => {
                    boxed(
                        &mut sc,
                        st,
                        s0,
                        s1,
                        -HALF_W - 0.4,
                        -HALF_W,
                        0.0,
                        2.2,
                        rgb(130, 126, 112),
                    );
                    boxed(
                        &mut sc,
                        st,
                        s0,
                        s1,
                        HALF_W,
                        HALF_W + 0.4,
                        0.0,
                        2.2,
                        rgb(130, 126, 112),
                    );
                    boxed(
                        &mut sc,
                        st,
                        s0,
                        s1,
                        -HALF_W - 0.4,
                        HALF_W + 0.4,
                        1.0,
                        1.7,
                        rgb(200, 90, 40),
                    );
                }
                Kind::Wall => lane_blocks(&mut sc, st, o, LANE_W / 2.0, 2.4, rgb(112, 108, 96)),
                Kind::Rock => lane_blocks(&mut sc, st, o, 0.4, 0.4, rgb(96, 96, 100)),
                Kind::Gap => {}
            }
        }
        for c in &st.coins {
            if c.taken || !near(st, c.s) {
                continue;
            }
            let l = c.lane as f64 * LANE_W;
            boxed(
                &mut sc,
                st,
                c.s - 0.05,
                c.s + 0.05,
                l - 0.2,
                l + 0.2,
                0.5,
                0.9,
                rgb(250, 200, 40),
            );
        }
    }
    // The runner.
    let st = w.stretch();
    let (s, l, h) = (w.s, w.lat, w.h.max(0.0));
    let falling =
        w.death == Some("fell into a gap") || w.death == Some("ran off the path at a turn");
    let drop = if falling { -1.5 } else { 0.0 };
    let y0 = h + drop;
    if w.slide_ms > 0 {
        boxed(
            &mut sc,
            st,
            s - 0.5,
            s + 0.3,
            l - 0.25,
            l + 0.25,
            y0,
            y0 + 0.45,
            rgb(190, 160, 110),
        );
        boxed(
            &mut sc,
            st,
            s + 0.3,
            s + 0.6,
            l - 0.15,
            l + 0.15,
            y0,
            y0 + 0.3,
            rgb(230, 190, 150),
        );
    } else {
        let swing = if w.h <= 0.0 {
            0.18 * libm::sin(w.distance * 1.6)
        } else {
            0.0
        };
        boxed(
            &mut sc,
            st,
            s - 0.1 + swing,
            s + 0.1 + swing,
            l - 0.22,
            l - 0.04,
            y0,
            y0 + 0.75,
            rgb(100, 80, 60),
        );
        boxed(
            &mut sc,
            st,
            s - 0.1 - swing,
            s + 0.1 - swing,
            l + 0.04,
            l + 0.22,
            y0,
            y0 + 0.75,
            rgb(100, 80, 60),
        );
        boxed(
            &mut sc,
            st,
            s - 0.14,
            s + 0.14,
            l - 0.26,
            l + 0.26,
            y0 + 0.75,
            y0 + 1.4,
            rgb(190, 160, 110),
        );
        boxed(
            &mut sc,
            st,
            s - 0.12,
            s + 0.12,
            l - 0.13,
            l + 0.13,
            y0 + 1.42,
            y0 + 1.7,
            rgb(230, 190, 150),
        );
        boxed(
            &mut sc,
            st,
            s - 0.18,
            s + 0.18,
            l - 0.2,
            l + 0.2,
            y0 + 1.7,
            y0 + 1.8,
            rgb(90, 60, 40),
        );
    }
    // Demon monkeys right behind after a stumble.
    if w.chased() && w.s > 2.5 {
        for side in [-0.7, 0.7] {
            boxed(
                &mut sc,
                st,
                s - 2.4,
                s - 1.9,
                l + side - 0.25,
                l + side + 0.25,
                0.0,
                1.1,
                rgb(40, 30, 30),
            );
        }
    }
    // The backdrop fills the 3D view band by band under the faces.
    sc.draw_over(pm, true, Some(Backdrop::Layer(backdrop())));

    // The bar and title are the same every frame: drawn once, then copied.
    static BAR: OnceLock<Pixmap> = OnceLock::new();
    draw::hud_cached(
        pm,
        &BAR,
        "Temple Run 2",
        &[
            ("Score", w.score().to_string()),
            ("Distance", format!("{:.0} m", w.distance)),
            ("Coins", w.coins.to_string()),
            ("Speed", format!("{:.0} m/s", w.speed())),
        ],
    );
    draw::rounded_rect(pm, 14.0, 676.0, 700.0, 34.0, 8.0, rgba(0, 0, 0, 130));
    draw::text(
        pm,
        "A/D: lane or turn at a corner   W: jump   S: slide   Space: start / save me",
        24.0,
        683.0,
        18.0,
        rgb(245, 240, 225),
        Align::Left,
    );
    match w.phase {
        Phase::Ready => draw::banner(pm, "TEMPLE RUN 2", "press Space to start running"),
        Phase::SaveMe { until_ms } => {
            let cost = w.save_cost(g.saves);
            let left = until_ms.saturating_sub(w.t_ms) as f64 / 1000.0;
            if w.wallet >= cost {
                let sub = format!("Space: save me for {cost} coins ({left:.1} s)");
                draw::banner(pm, "SAVE ME?", &sub);
            } else {
                let sub = format!("{} - not enough coins to be saved", w.death.unwrap_or(""));
                draw::banner(pm, "CRASH!", &sub);
            }
        }
        _ => draw::end_banner(
            pm,
            &g.terminal,
            "",
            &format!(
                "{} - score {}",
                g.terminal.reason.as_deref().unwrap_or(""),
                w.score()
            ),
        ),
    }
    if w.chased() && w.running() {
        draw::text(
            pm,
            "The monkeys are right behind you!",
            640.0,
            70.0,
            24.0,
            rgb(200, 40, 30),
            Align::Center,
        );
    }
}
