//! 16_hextris — a hexagon sits in the middle of the screen and coloured
//! blocks slide in from the outside along six lanes. Each block stops on the
//! side of the hexagon (or on the stack) that faces its lane when it arrives.
//! ArrowLeft / ArrowRight turn the hexagon one side per press, ArrowDown held
//! fast-forwards the incoming blocks. Three or more touching blocks of one
//! colour (same side one above the other, or neighbouring sides at the same
//! row) vanish and score; blocks above them drop down, which can chain. A
//! stack that reaches the outer limit ends the game.
//!
//! State: `game_state.score`, `game_state.level`, `game_state.completion_progress`,
//! `game_state.environment.{settled_blocks, highest_column_height, active_blocks}`,
//! `metrics.{score, distance, best_score, difficulty}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "16_hextris";

pub const SIDES: usize = 6;
/// Colours in the palette; a level uses the first [`colors_for_level`].
pub const COLORS: usize = 6;
/// A stack this tall touches the outer limit: game over.
pub const MAX_ROWS: usize = 7;
/// Apothem of the central hexagon, in pixels.
pub const HEX_R: f64 = 62.0;
/// Radial thickness of one block.
pub const BLOCK_H: f64 = 24.0;
/// Distance from the centre where new blocks appear.
pub const SPAWN_D: f64 = 290.0;
/// Fast-forward factor while ArrowDown is held.
pub const ACCEL: f64 = 3.0;
/// Clears needed to go up one level.
pub const CLEARS_PER_LEVEL: u32 = 8;
const TICK_MS: u64 = 10;
const CX: f32 = 640.0;
const CY: f32 = 392.0;

const COLOR_NAMES: [&str; COLORS] = ["red", "yellow", "blue", "green", "purple", "white"];
const PALETTE: [Rgb; COLORS] = [
    rgb(231, 76, 60),
    rgb(241, 196, 15),
    rgb(52, 152, 219),
    rgb(46, 204, 113),
    rgb(155, 89, 182),
    rgb(236, 240, 241),
];

/// Block colours in play at `level`: more colours make matches rarer, so
/// difficulty rises with the level together with speed and spawn rate.
pub fn colors_for_level(level: u32) -> u32 {
    match level {
        0..=2 => 4,
        3..=4 => 5,
        _ => 6,
    }
}

/// Falling speed (px per second of block time) at `level` before the ramp.
pub fn base_speed(level: u32) -> f64 {
    90.0 + 18.0 * (level.max(1) - 1) as f64
}

/// Seconds of block time between spawns at `level`.
pub fn spawn_interval(level: u32) -> f64 {
    (1.45 - 0.12 * (level.max(1) - 1) as f64).max(0.55)
}

/// Points for clearing a group of `n` blocks in chain link `chain` (1-based) at `level`.
pub fn clear_points(n: usize, chain: u32, level: u32) -> u32 {
    let base = 6 * (n * n) as u32 * chain.max(1);
    base * (level.max(1) + 3) / 4
}

#[derive(Clone, Debug, PartialEq)]
pub struct Falling {
    /// World lane 0..6 (0 = top, clockwise).
    pub lane: usize,
    /// Distance of the block's inner edge from the centre.
    pub dist: f64,
    pub color: u8,
}

pub type Stacks = [Vec<u8>; SIDES];

/// Side of the hexagon that faces world `lane` at `rotation`.
pub fn side_for_lane(lane: usize, rotation: usize) -> usize {
    (lane + SIDES - rotation % SIDES) % SIDES
}

/// The connected same-colour group containing (side, row).
pub fn group_at(stacks: &Stacks, side: usize, row: usize) -> Vec<(usize, usize)> {
    let Some(&color) = stacks[side].get(row) else {
        return vec![];
    };
    let mut seen = vec![(side, row)];
    let mut todo = vec![(side, row)];
    while let Some((s, r)) = todo.pop() {
        let mut next = vec![
            ((s + 1) % SIDES, r),
            ((s + SIDES - 1) % SIDES, r),
            (s, r + 1),
        ];
        if r > 0 {
            next.push((s, r - 1));
        }
        for (ns, nr) in next {
            if stacks[ns].get(nr) == Some(&color) && !seen.contains(&(ns, nr)) {
                seen.push((ns, nr));
                todo.push((ns, nr));
            }
        }
    }
    seen
}

/// Result of settling one block: points and blocks cleared.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Settle {
    pub points: u32,
    pub cleared: usize,
    pub groups: u32,
}

/// Put `color` on top of `side`, then clear groups of three or more and
/// let blocks drop, repeating while new groups form (chains).
pub fn settle(stacks: &mut Stacks, side: usize, color: u8, level: u32) -> Settle {
    stacks[side].push(color);
    let mut out = Settle::default();
    let mut seeds = vec![(side, stacks[side].len() - 1)];
    let mut chain = 1;
    loop {
        let mut remove: Vec<(usize, usize)> = Vec::new();
        let mut groups = Vec::new();
        for &(s, r) in &seeds {
            if remove.contains(&(s, r)) || r >= stacks[s].len() {
                continue;
            }
            let g = group_at(stacks, s, r);
            if g.len() >= 3 {
                groups.push(g.len());
                remove.extend(g);
            }
        }
        if remove.is_empty() {
            break;
        }
        for n in groups {
            out.points += clear_points(n, chain, level);
            out.groups += 1;
        }
        out.cleared += remove.len();
        let mut touched = [usize::MAX; SIDES];
        for s in 0..SIDES {
            let mut rows: Vec<usize> = remove.iter().filter(|p| p.0 == s).map(|p| p.1).collect();
            rows.sort_unstable_by(|a, b| b.cmp(a));
            for &r in &rows {
                stacks[s].remove(r);
            }
            if let Some(&lowest) = rows.last() {
                touched[s] = lowest;
            }
        }
        // Blocks that dropped may now touch new partners.
        seeds.clear();
        for (s, &low) in touched.iter().enumerate() {
            if low != usize::MAX {
                for r in low..stacks[s].len() {
                    seeds.push((s, r));
                }
            }
        }
        chain += 1;
    }
    out
}

pub struct Hextris {
    seed: u64,
    start_level: u32,
    rng: Rng,
    clock: FixedStep,
    pub(crate) stacks: Stacks,
    pub(crate) falling: Vec<Falling>,
    pub(crate) rotation: usize,
    score: u32,
    best_score: u32,
    clears: u32,
    blocks_cleared: u32,
    blocks_landed: u32,
    rotations: u32,
    /// Seconds of block time this episode (the fast-forward counts faster).
    block_time: f64,
    spawn_timer: f64,
    down_held: bool,
    game_time_ms: u64,
    episode_time_ms: u64,
    terminal: Terminal,
    last_clear: Option<(u32, u32)>,
}

impl Default for Hextris {
    fn default() -> Self {
        Self::new()
    }
}

impl Hextris {
    pub fn new() -> Self {
        Hextris {
            seed: 0,
            start_level: 1,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            stacks: Default::default(),
            falling: Vec::new(),
            rotation: 0,
            score: 0,
            best_score: 0,
            clears: 0,
            blocks_cleared: 0,
            blocks_landed: 0,
            rotations: 0,
            block_time: 0.0,
            spawn_timer: 0.0,
            down_held: false,
            game_time_ms: 0,
            episode_time_ms: 0,
            terminal: Terminal::running(),
            last_clear: None,
        }
    }

    pub fn level(&self) -> u32 {
        self.start_level + self.clears / CLEARS_PER_LEVEL
    }

    /// Speed multiplier from the slow ramp inside a level.
    pub fn ramp(&self) -> f64 {
        (1.0 + self.block_time / 120.0).min(1.5)
    }

    /// Current falling speed in px per second of block time.
    pub fn speed(&self) -> f64 {
        base_speed(self.level()) * self.ramp()
    }

    pub fn time_scale(&self) -> f64 {
        if self.down_held { ACCEL } else { 1.0 }
    }

    /// Inner-edge distance at which a block in `lane` lands now.
    pub fn landing_dist(&self, lane: usize) -> f64 {
        HEX_R + self.stacks[side_for_lane(lane, self.rotation)].len() as f64 * BLOCK_H
    }

    fn rotate(&mut self, delta: isize) {
        if self.terminal.is_terminal {
            return;
        }
        self.rotation = (self.rotation as isize + delta).rem_euclid(SIDES as isize) as usize;
        self.rotations += 1;
        // A block that is already inside the new stack's reach lands at once.
        self.land_blocks();
    }

    fn spawn(&mut self) {
        let mut lane = self.rng.index(SIDES);
        let color = self.rng.below(colors_for_level(self.level())) as u8;
        // Keep new blocks from overlapping one still near the rim.
        for _ in 0..SIDES {
            if self
                .falling
                .iter()
                .any(|f| f.lane == lane && f.dist > SPAWN_D - 2.5 * BLOCK_H)
            {
                lane = (lane + 1) % SIDES;
            } else {
                break;
            }
        }
        self.falling.push(Falling {
            lane,
            dist: SPAWN_D,
            color,
        });
    }

    fn land_blocks(&mut self) {
        let mut i = 0;
        while i < self.falling.len() {
            let f = &self.falling[i];
            if f.dist <= self.landing_dist(f.lane) {
                let f = self.falling.remove(i);
                let side = side_for_lane(f.lane, self.rotation);
                let level = self.level();
                let res = settle(&mut self.stacks, side, f.color, level);
                self.blocks_landed += 1;
                if res.groups > 0 {
                    self.score += res.points;
                    self.clears += res.groups;
                    self.blocks_cleared += res.cleared as u32;
                    self.best_score = self.best_score.max(self.score);
                    self.last_clear = Some((res.points, res.cleared as u32));
                }
                if self.stacks.iter().any(|s| s.len() >= MAX_ROWS) {
                    self.terminal =
                        Terminal::ended(Outcome::Fail, "a stack reached the outer limit");
                    return;
                }
            } else {
                i += 1;
            }
        }
    }

    fn tick(&mut self) {
        let dt = TICK_MS as f64 / 1000.0 * self.time_scale();
        self.block_time += dt;
        self.spawn_timer -= dt;
        if self.spawn_timer <= 0.0 {
            self.spawn();
            self.spawn_timer += spawn_interval(self.level());
        }
        let step = self.speed() * dt;
        for f in &mut self.falling {
            f.dist -= step;
        }
        self.land_blocks();
    }

    fn highest(&self) -> usize {
        self.stacks.iter().map(Vec::len).max().unwrap_or(0)
    }

    fn settled(&self) -> usize {
        self.stacks.iter().map(Vec::len).sum()
    }
}

/// Corners of the ring segment facing world direction `dir` (0 = up,
/// clockwise, fractional while nothing animates is fine) between apothems
/// `d0` and `d1`, with `gap` px trimmed on the lateral edges.
fn segment(dir: f64, d0: f64, d1: f64, gap: f64) -> [(f32, f32); 4] {
    let ang = (-90.0 + 60.0 * dir).to_radians();
    let (nx, ny) = (libm::cos(ang), libm::sin(ang));
    let (tx, ty) = (-ny, nx);
    let half = libm::tan(30f64.to_radians());
    let p = |d: f64, t: f64| {
        (
            (CX as f64 + nx * d + tx * t) as f32,
            (CY as f64 + ny * d + ty * t) as f32,
        )
    };
    let (w0, w1) = ((d0 * half - gap).max(0.0), (d1 * half - gap).max(0.0));
    [p(d0, -w0), p(d0, w0), p(d1, w1), p(d1, -w1)]
}

fn hexagon(apothem: f64) -> Vec<(f32, f32)> {
    let r = apothem / libm::cos(30f64.to_radians());
    (0..6)
        .map(|k| {
            let a = (-60.0 + 60.0 * k as f64).to_radians();
            (
                (CX as f64 + r * libm::cos(a)) as f32,
                (CY as f64 + r * libm::sin(a)) as f32,
            )
        })
        .collect()
}

fn darker(c: Rgb) -> Rgb {
    rgb(
        (c.0 as u32 * 7 / 10) as u8,
        (c.1 as u32 * 7 / 10) as u8,
        (c.2 as u32 * 7 / 10) as u8,
    )
}

impl Game for Hextris {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).clamp(1, 9);
        self.best_score = 0;
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x1616_0000 + episode as u64);
        self.clock.clear();
        self.stacks = Default::default();
        self.falling.clear();
        self.rotation = 0;
        self.score = 0;
        self.clears = 0;
        self.blocks_cleared = 0;
        self.blocks_landed = 0;
        self.rotations = 0;
        self.block_time = 0.0;
        self.spawn_timer = 0.3;
        self.down_held = false;
        self.episode_time_ms = 0;
        self.terminal = Terminal::running();
        self.last_clear = None;
        // Start with a few scattered blocks so the board has something to match.
        for _ in 0..4 {
            let side = self.rng.index(SIDES);
            let color = self.rng.below(colors_for_level(self.start_level)) as u8;
            if self.stacks[side].len() < 2 {
                self.stacks[side].push(color);
                if group_at(&self.stacks, side, self.stacks[side].len() - 1).len() >= 3 {
                    self.stacks[side].pop();
                }
            }
        }
    }

    fn state(&self) -> GameApiState {
        let status = self.terminal.status();
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let level = self.level();
        let progress = (self.clears % CLEARS_PER_LEVEL) as f64 / CLEARS_PER_LEVEL as f64;
        let board: Vec<Vec<&str>> = self
            .stacks
            .iter()
            .map(|st| st.iter().map(|&c| COLOR_NAMES[c as usize]).collect())
            .collect();
        let falling: Vec<Value> = self
            .falling
            .iter()
            .map(|f| {
                json!({"lane": f.lane, "side": side_for_lane(f.lane, self.rotation), "distance": (f.dist * 10.0).round() / 10.0,
                       "landing_distance": self.landing_dist(f.lane), "color": COLOR_NAMES[f.color as usize]})
            })
            .collect();
        let distance = (self.block_time * 100.0).round() / 100.0;
        let difficulty = (self.speed() / base_speed(1) * 100.0).round() / 100.0;
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", level);
        set(&mut s.game_state, "completion_progress", progress);
        set(&mut s.game_state, "progress", progress);
        set(
            &mut s.game_state,
            "player",
            json!({"rotation": self.rotation, "accelerating": self.down_held}),
        );
        set(
            &mut s.game_state,
            "environment",
            json!({"settled_blocks": self.settled(), "highest_column_height": self.highest(), "active_blocks": self.falling.len(),
                   "max_rows": MAX_ROWS}),
        );
        set(&mut s.game_state, "board", json!(board));
        set(&mut s.game_state, "entities", Value::Array(falling));
        set(&mut s.metrics, "score", self.score);
        set(&mut s.metrics, "distance", distance);
        set(
            &mut s.metrics,
            "best_score",
            self.best_score.max(self.score),
        );
        set(&mut s.metrics, "difficulty", difficulty);
        set(&mut s.metrics, "clears", self.clears);
        set(&mut s.metrics, "blocks_cleared", self.blocks_cleared);
        set(&mut s.metrics, "blocks_landed", self.blocks_landed);
        set(&mut s.metrics, "rotations", self.rotations);
        set(&mut s.raw, "start_level", self.start_level);
        set(
            &mut s.raw,
            "speed_px_per_s",
            (self.speed() * 10.0).round() / 10.0,
        );
        set(
            &mut s.raw,
            "spawn_in_s",
            (self.spawn_timer.max(0.0) * 1000.0).round() / 1000.0,
        );
        set(&mut s.raw, "episode_time_ms", self.episode_time_ms);
        set(
            &mut s.raw,
            "last_clear",
            json!(
                self.last_clear
                    .map(|(p, n)| json!({"points": p, "blocks": n}))
            ),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => match key.as_str() {
                "ArrowLeft" => self.rotate(-1),
                "ArrowRight" => self.rotate(1),
                "ArrowDown" => self.down_held = true,
                _ => {}
            },
            InputEvent::KeyUp { key } if key == "ArrowDown" => self.down_held = false,
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        let n = self.clock.ticks(dt_ms);
        for _ in 0..n {
            if self.terminal.is_terminal {
                break;
            }
            self.episode_time_ms += TICK_MS;
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        draw::clear(pm, rgb(236, 240, 241));
        draw::hud(
            pm,
            "Hextris",
            &[
                ("Score", self.score.to_string()),
                ("Level", self.level().to_string()),
                ("Clears", self.clears.to_string()),
            ],
        );
        // Lane guides and the outer limit.
        let limit = HEX_R + MAX_ROWS as f64 * BLOCK_H;
        draw::polygon_aliased(pm, &hexagon(limit + 3.0), rgb(214, 219, 223));
        draw::polygon_aliased(pm, &hexagon(limit), rgb(228, 232, 234));
        for k in 0..6 {
            let a = (-60.0 + 60.0 * k as f64).to_radians();
            let (c, s) = (libm::cos(a) as f32, libm::sin(a) as f32);
            let r0 = (HEX_R / libm::cos(30f64.to_radians())) as f32;
            let r1 = (limit / libm::cos(30f64.to_radians())) as f32;
            draw::line_aliased(
                pm,
                (CX + c * r0, CY + s * r0),
                (CX + c * r1, CY + s * r1),
                1.5,
                rgb(214, 219, 223),
            );
        }
        // Centre hexagon; a white notch marks side 0 so rotation is visible.
        draw::polygon_aliased(pm, &hexagon(HEX_R), rgb(44, 62, 80));
        let mark = segment(self.rotation as f64, HEX_R - 12.0, HEX_R - 5.0, 14.0);
        draw::polygon_aliased(pm, &mark, rgb(236, 240, 241));
        for (side, stack) in self.stacks.iter().enumerate() {
            let dir = ((side + self.rotation) % SIDES) as f64;
            for (row, &c) in stack.iter().enumerate() {
                let d0 = HEX_R + row as f64 * BLOCK_H + 1.0;
                let col = PALETTE[c as usize];
                draw::polygon_aliased(pm, &segment(dir, d0, d0 + BLOCK_H - 2.0, 1.5), darker(col));
                draw::polygon_aliased(pm, &segment(dir, d0 + 2.0, d0 + BLOCK_H - 4.0, 4.0), col);
            }
        }
        for f in &self.falling {
            let col = PALETTE[f.color as usize];
            draw::polygon_aliased(
                pm,
                &segment(f.lane as f64, f.dist, f.dist + BLOCK_H - 2.0, 1.5),
                darker(col),
            );
            draw::polygon_aliased(
                pm,
                &segment(f.lane as f64, f.dist + 2.0, f.dist + BLOCK_H - 4.0, 4.0),
                col,
            );
        }
        draw::text(
            pm,
            "ArrowLeft / ArrowRight: rotate    ArrowDown: speed up",
            20.0,
            684.0,
            20.0,
            rgb(90, 100, 110),
            Align::Left,
        );
        draw::text(
            pm,
            &format!("Best {}", self.best_score.max(self.score)),
            1260.0,
            684.0,
            20.0,
            rgb(90, 100, 110),
            Align::Right,
        );
        if self.down_held {
            draw::text(
                pm,
                ">> fast",
                20.0,
                70.0,
                22.0,
                rgba(192, 57, 43, 255),
                Align::Left,
            );
        }
        if self.terminal.is_terminal {
            draw::banner(pm, "GAME OVER", &format!("Score {}", self.score));
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
