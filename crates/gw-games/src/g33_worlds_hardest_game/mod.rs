//! 33_worlds-hardest-game — steer a red square through a tile maze with the
//! arrow keys, dodging blue dots that sweep on fixed paths. Collect every
//! yellow coin, then stand on the green exit to clear the level. A dot touch
//! is not the end: the square goes back to the last green checkpoint (coins
//! taken since then drop back into the maze) and the death counter rises, as
//! in the original. Clearing a level opens the next; clearing the last ends
//! the game with a success.
//!
//! Tuned for one action per step: a held arrow moves exactly one tile per
//! 0.2 s, so each `move_*` step moves one tile, and the dots' speeds leave a
//! timing-aware player room to pass. Every episode starts the dot clock at a
//! seeded offset inside the dots' common period, so open-loop key sequences
//! don't transfer between seeds.
//!
//! State: `game_state.level` (1-based; one past the last level once all are
//! cleared), `game_state.completion_progress`, `metrics.coins`,
//! `metrics.coins_total`, `metrics.checkpoints_passed`,
//! `metrics.checkpoints_total`, `metrics.deaths`, `metrics.distance_to_goal`.
//!
//! The engine and the planning expert are shared with
//! `34_worlds-hardest-game-2`, which brings its own levels.

pub(crate) mod engine;
pub(crate) mod expert;
mod levels;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use engine::{
    Body, COLS, Level, LevelSpec, ORIGIN_X, ORIGIN_Y, PLAYER_DRAW, ROWS, TICK_MS, TILE, TickEvent,
    Tile,
};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::{Mutex, OnceLock};
use tiny_skia::Pixmap;

pub const ID: &str = "33_worlds-hardest-game";

/// A fresh WHG game (call `init` before use).
pub fn new_game() -> WhgGame {
    WhgGame::new(&VARIANT)
}

/// What differs between the two WHG games.
pub struct Variant {
    pub id: &'static str,
    pub title: &'static str,
    pub levels: fn() -> Vec<LevelSpec>,
    /// Length of the `wait` control in ticks (the role's binding).
    pub wait_ticks: u64,
    pub rng_stream: u64,
    pub background: Rgb,
    pub floor: (Rgb, Rgb),
}

pub static VARIANT: Variant = Variant {
    id: ID,
    title: "World's Hardest Game",
    levels: levels::levels,
    wait_ticks: 50,
    rng_stream: 0x3300_0000,
    background: rgb(180, 181, 254),
    floor: (rgb(248, 248, 255), rgb(224, 224, 252)),
};

/// Arrow directions in the order of `held`.
const ARROWS: [(&str, i32, i32); 4] = [
    ("ArrowUp", 0, -1),
    ("ArrowDown", 0, 1),
    ("ArrowLeft", -1, 0),
    ("ArrowRight", 1, 0),
];
/// How long the red "you died here" marker stays on screen.
const DEATH_MARK_TICKS: u32 = 60;

/// Dots and coins are drawn from small pre-rendered sprites: blitting is
/// much cheaper than filling an anti-aliased circle path per object.
struct Sprites {
    dot: Pixmap,
    coin: Pixmap,
}

const SPRITE: u32 = 28;

fn sprites() -> &'static Sprites {
    static SPRITES: OnceLock<Sprites> = OnceLock::new();
    SPRITES.get_or_init(|| {
        let ball = |r: f32, rim: Rgb, fill: Rgb| {
            let mut pm = Pixmap::new(SPRITE, SPRITE).expect("sprite pixmap");
            let c = SPRITE as f32 / 2.0;
            draw::circle(&mut pm, c, c, r + 2.0, rim);
            draw::circle(&mut pm, c, c, r - 1.0, fill);
            pm
        };
        Sprites {
            dot: ball(engine::DOT_R, rgb(0, 0, 60), rgb(30, 60, 255)),
            coin: ball(engine::COIN_R, rgb(60, 50, 0), rgb(255, 214, 0)),
        }
    })
}

/// Draw `sprite` centred on (x, y), snapped to whole pixels (a source-over
/// blend of premultiplied pixels, clipped to the frame).
fn blit(pm: &mut Pixmap, sprite: &Pixmap, x: f32, y: f32) {
    let h = SPRITE as f32 / 2.0;
    let (x0, y0) = ((x - h).round() as i32, (y - h).round() as i32);
    let (w, ht) = (pm.width() as i32, pm.height() as i32);
    let src = sprite.data();
    let dst = pm.data_mut();
    for sy in 0..SPRITE as i32 {
        let py = y0 + sy;
        if py < 0 || py >= ht {
            continue;
        }
        for sx in 0..SPRITE as i32 {
            let px = x0 + sx;
            if px < 0 || px >= w {
                continue;
            }
            let si = ((sy * SPRITE as i32 + sx) * 4) as usize;
            let a = src[si + 3] as u32;
            if a == 0 {
                continue;
            }
            let di = ((py * w + px) * 4) as usize;
            for k in 0..4 {
                dst[di + k] = (src[si + k] as u32 + dst[di + k] as u32 * (255 - a) / 255) as u8;
            }
        }
    }
}

/// One WHG game (either variant).
pub struct WhgGame {
    variant: &'static Variant,
    levels: Vec<Level>,
    seed: u64,
    start_level: usize,
    rng: Rng,
    level: usize,
    body: Body,
    /// Coins banked at the last checkpoint (kept through deaths).
    saved_coins: u32,
    respawn: (i32, i32),
    passed: Vec<bool>,
    deaths: u32,
    levels_cleared: u32,
    held: [bool; 4],
    clock: FixedStep,
    game_time_ms: u64,
    terminal: Terminal,
    death_mark: Option<(i32, i32, u32)>,
    /// The expert's cached plan (see `expert.rs`).
    plan: Mutex<expert::Plan>,
}

impl Default for WhgGame {
    fn default() -> Self {
        Self::new(&VARIANT)
    }
}

impl WhgGame {
    pub fn new(variant: &'static Variant) -> Self {
        let levels: Vec<Level> = (variant.levels)().into_iter().map(Level::build).collect();
        let body = Body {
            x: levels[0].start.0,
            y: levels[0].start.1,
            t: 0,
            coins: 0,
        };
        WhgGame {
            variant,
            seed: 0,
            start_level: 0,
            rng: Rng::new(0, variant.rng_stream),
            level: 0,
            body,
            saved_coins: 0,
            respawn: levels[0].start,
            passed: Vec::new(),
            deaths: 0,
            levels_cleared: 0,
            held: [false; 4],
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            terminal: Terminal::running(),
            death_mark: None,
            plan: Mutex::new(expert::Plan::default()),
            levels,
        }
    }

    pub fn level(&self) -> &Level {
        &self.levels[self.level]
    }

    pub fn level_index(&self) -> usize {
        self.level
    }

    pub fn body(&self) -> Body {
        self.body
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    pub fn deaths(&self) -> u32 {
        self.deaths
    }

    fn enter_level(&mut self, idx: usize) {
        self.level = idx;
        let lv = &self.levels[idx];
        let offset = self.rng.below(lv.period as u32) as u64;
        self.body = Body {
            x: lv.start.0,
            y: lv.start.1,
            t: offset,
            coins: 0,
        };
        self.saved_coins = 0;
        self.respawn = lv.start;
        self.passed = vec![false; lv.checkpoints.len()];
        self.held = [false; 4];
    }

    /// The 1-based level number the state reports (one past the last level
    /// once every level is cleared).
    fn level_number(&self) -> usize {
        if self.terminal.outcome == Some(Outcome::Success) {
            self.levels.len() + 1
        } else {
            self.level + 1
        }
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        if let Some((_, _, n)) = &mut self.death_mark {
            *n = n.saturating_sub(1);
        }
        let dx = self.held[3] as i32 - self.held[2] as i32;
        let dy = self.held[1] as i32 - self.held[0] as i32;
        let lv = &self.levels[self.level];
        match lv.tick(&mut self.body, dx, dy) {
            TickEvent::Died => {
                self.deaths += 1;
                self.death_mark = Some((self.body.x, self.body.y, DEATH_MARK_TICKS));
                self.body.x = self.respawn.0;
                self.body.y = self.respawn.1;
                self.body.coins = self.saved_coins;
                // The square reappears still; a new key press moves it.
                self.held = [false; 4];
            }
            TickEvent::Exited => {
                self.levels_cleared += 1;
                self.death_mark = None;
                if self.level + 1 < self.levels.len() {
                    self.enter_level(self.level + 1);
                } else {
                    self.held = [false; 4];
                    self.terminal = Terminal::ended(Outcome::Success, "cleared every level");
                }
            }
            TickEvent::Alive => {
                if let Tile::Check(g) = lv.tile_at(self.body.x, self.body.y) {
                    self.passed[g as usize] = true;
                    self.respawn = lv.checkpoints[g as usize];
                    self.saved_coins = self.body.coins;
                }
            }
        }
    }

    /// Maze distance (tiles) to the nearest coin still to take, or to the
    /// exit once every coin is held.
    fn distance_to_goal(&self) -> i32 {
        let lv = self.level();
        let remaining: Vec<usize> = lv
            .coins
            .iter()
            .enumerate()
            .filter(|(i, _)| self.body.coins & (1 << i) == 0)
            .filter_map(|(_, &(x, y))| Level::cell_of(x, y))
            .collect();
        if remaining.is_empty() {
            return lv.exit_distance(self.body.x, self.body.y);
        }
        let dist = lv.distances(&remaining);
        Level::cell_of(self.body.x, self.body.y).map_or(-1, |c| dist[c])
    }

    fn coins_held(&self) -> u32 {
        (self.body.coins & self.level().all_coins()).count_ones()
    }

    fn completion_progress(&self) -> f64 {
        if self.terminal.outcome == Some(Outcome::Success) {
            return 1.0;
        }
        let lv = self.level();
        let done = self.coins_held() as usize + self.passed.iter().filter(|&&p| p).count();
        done as f64 / (lv.coins.len() + lv.checkpoints.len() + 1) as f64
    }

    fn draw_maze(&self, pm: &mut Pixmap) {
        let lv = self.level();
        let v = self.variant;
        let t = TILE as f32;
        let zone = rgb(170, 240, 170);
        for r in 0..ROWS {
            for c in 0..COLS {
                let tile = lv.tile(c as i32, r as i32);
                let (x, y) = (ORIGIN_X + c as f32 * t, ORIGIN_Y + r as f32 * t);
                let color = match tile {
                    Tile::Wall => continue,
                    Tile::Floor => {
                        if (r + c) % 2 == 0 {
                            v.floor.0
                        } else {
                            v.floor.1
                        }
                    }
                    _ => zone,
                };
                draw::rect(pm, x, y, t, t, color);
            }
        }
        // Label the start, checkpoint and exit zones (all green, as in the
        // original), so a checkpoint is not mistaken for the exit.
        let mut zones = vec![(Tile::Start, "START", 17.0), (Tile::Exit, "EXIT", 17.0)];
        let mut checks: Vec<Tile> = lv
            .tiles
            .iter()
            .copied()
            .filter(|t| matches!(t, Tile::Check(_)))
            .collect();
        checks.sort_by_key(|t| match t {
            Tile::Check(g) => *g,
            _ => 0,
        });
        checks.dedup();
        zones.extend(checks.into_iter().map(|t| (t, "CHECKPOINT", 13.0)));
        for (want, label, size) in zones {
            let cells: Vec<(usize, usize)> = (0..ROWS)
                .flat_map(|r| (0..COLS).map(move |c| (c, r)))
                .filter(|&(c, r)| lv.tile(c as i32, r as i32) == want)
                .collect();
            let n = cells.len().max(1) as f32;
            let cx = cells.iter().map(|&(c, _)| c as f32 + 0.5).sum::<f32>() / n;
            // The square starts on the cell nearest the zone's centre, so a
            // zone taller than one row carries its label in its top row
            // where the square does not cover it.
            let top = cells.iter().map(|&(_, r)| r).min().unwrap_or(0);
            let bottom = cells.iter().map(|&(_, r)| r).max().unwrap_or(0);
            let cy = if bottom > top {
                top as f32 + 0.5
            } else {
                cells.iter().map(|&(_, r)| r as f32 + 0.5).sum::<f32>() / n
            };
            draw::text(
                pm,
                label,
                ORIGIN_X + cx * t,
                ORIGIN_Y + cy * t - size * 0.6,
                size,
                rgb(30, 110, 30),
                Align::Center,
            );
        }
        // Dark outline wherever open ground meets a wall.
        let edge = rgb(20, 20, 40);
        for r in 0..ROWS as i32 {
            for c in 0..COLS as i32 {
                if lv.tile(c, r) == Tile::Wall {
                    continue;
                }
                let (x, y) = (ORIGIN_X + c as f32 * t, ORIGIN_Y + r as f32 * t);
                if lv.tile(c, r - 1) == Tile::Wall {
                    draw::rect(pm, x - 2.0, y - 3.0, t + 4.0, 3.0, edge);
                }
                if lv.tile(c, r + 1) == Tile::Wall {
                    draw::rect(pm, x - 2.0, y + t, t + 4.0, 3.0, edge);
                }
                if lv.tile(c - 1, r) == Tile::Wall {
                    draw::rect(pm, x - 3.0, y - 2.0, 3.0, t + 4.0, edge);
                }
                if lv.tile(c + 1, r) == Tile::Wall {
                    draw::rect(pm, x + t, y - 2.0, 3.0, t + 4.0, edge);
                }
            }
        }
    }
}

impl Game for WhgGame {
    fn game_id(&self) -> &'static str {
        self.variant.id
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        let n = self.levels.len() as u32;
        self.start_level = (config.level.unwrap_or(1).clamp(1, n) - 1) as usize;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, self.variant.rng_stream + episode as u64);
        self.deaths = 0;
        self.levels_cleared = 0;
        self.clock.clear();
        self.terminal = Terminal::running();
        self.death_mark = None;
        self.enter_level(self.start_level);
        *self.plan.lock().expect("plan lock") = expert::Plan::default();
    }

    fn state(&self) -> GameApiState {
        let status = self.terminal.status();
        let mut s = GameApiState::new(
            self.variant.id,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let lv = self.level();
        let (col, row) = (self.body.x.div_euclid(TILE), self.body.y.div_euclid(TILE));
        let coins: Vec<Value> = lv
            .coins
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| json!({"col": x / TILE, "row": y / TILE, "collected": self.body.coins & (1 << i) != 0}))
            .collect();
        let dots: Vec<Value> = (0..lv.dot_count())
            .map(|i| {
                let (x, y) = lv.dot_pos(i, self.body.t);
                json!({"x": (x * 10.0).round() / 10.0, "y": (y * 10.0).round() / 10.0})
            })
            .collect();
        set(&mut s.game_state, "level", self.level_number());
        set(&mut s.game_state, "levels_total", self.levels.len());
        set(&mut s.game_state, "level_name", lv.name);
        set(
            &mut s.game_state,
            "completion_progress",
            self.completion_progress(),
        );
        set(
            &mut s.game_state,
            "player",
            json!({"x": self.body.x, "y": self.body.y, "col": col, "row": row}),
        );
        set(&mut s.game_state, "coins", coins);
        set(&mut s.game_state, "entities", dots);
        set(&mut s.metrics, "coins", self.coins_held());
        set(&mut s.metrics, "coins_total", lv.coins.len());
        set(
            &mut s.metrics,
            "checkpoints_passed",
            self.passed.iter().filter(|&&p| p).count(),
        );
        set(&mut s.metrics, "checkpoints_total", lv.checkpoints.len());
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "distance_to_goal", self.distance_to_goal());
        set(&mut s.metrics, "levels_cleared", self.levels_cleared);
        set(&mut s.raw, "dot_clock", self.body.t);
        set(&mut s.raw, "dot_period", lv.period);
        set(
            &mut s.raw,
            "respawn",
            json!({"col": self.respawn.0 / TILE, "row": self.respawn.1 / TILE}),
        );
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let Some((key, down)) = event.key_change() else {
            return;
        };
        if let Some(i) = ARROWS.iter().position(|(k, _, _)| *k == key) {
            self.held[i] = down && !self.terminal.is_terminal;
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        let v = self.variant;
        let lv = self.level();
        draw::clear(pm, v.background);
        self.draw_maze(pm);
        let (ox, oy) = (ORIGIN_X, ORIGIN_Y);
        if let Some((x, y, n)) = self.death_mark
            && n > 0
        {
            let a = (n * 150 / DEATH_MARK_TICKS) as u8;
            let h = PLAYER_DRAW;
            draw::rect(
                pm,
                ox + x as f32 - h,
                oy + y as f32 - h,
                2.0 * h,
                2.0 * h,
                rgba(255, 0, 0, a),
            );
        }
        let (px, py) = (ox + self.body.x as f32, oy + self.body.y as f32);
        let h = PLAYER_DRAW;
        draw::rect(
            pm,
            px - h - 2.0,
            py - h - 2.0,
            2.0 * h + 4.0,
            2.0 * h + 4.0,
            rgb(60, 0, 0),
        );
        draw::rect(
            pm,
            px - h + 1.0,
            py - h + 1.0,
            2.0 * h - 2.0,
            2.0 * h - 2.0,
            rgb(240, 20, 20),
        );
        for i in 0..lv.dot_count() {
            let (x, y) = lv.dot_pos(i, self.body.t);
            blit(pm, &sprites().dot, ox + x, oy + y);
        }
        // Coins go over the dots: one under a passing dot stays visible.
        for (i, &(x, y)) in lv.coins.iter().enumerate() {
            if self.body.coins & (1 << i) == 0 {
                blit(pm, &sprites().coin, ox + x as f32, oy + y as f32);
            }
        }
        draw::hud(
            pm,
            v.title,
            &[
                (
                    "Level",
                    format!(
                        "{}/{}",
                        self.level_number().min(self.levels.len()),
                        self.levels.len()
                    ),
                ),
                ("Coins", format!("{}/{}", self.coins_held(), lv.coins.len())),
                ("Deaths", self.deaths.to_string()),
            ],
        );
        let hint = format!("{} - take every coin, then reach the green exit", lv.name);
        draw::text(pm, &hint, 40.0, 680.0, 22.0, rgb(30, 30, 60), Align::Left);
        if self.terminal.outcome == Some(Outcome::Success) {
            draw::banner(
                pm,
                "ALL LEVELS CLEARED",
                &format!("Deaths: {}", self.deaths),
            );
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::next_action(self, task).control_id()})
    }
}
