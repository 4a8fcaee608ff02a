//! 17_mario-game — a Super-Mario-style side-scroller on level 1-1 (tile
//! data in `levels/1-1.txt`, parsed with [`crate::tilemap`], moved with
//! [`crate::platform`]).
//!
//! Mario walks (arrows), jumps (ArrowUp) and, when big, ducks (ArrowDown).
//! Bumping a `?` block from below releases a coin (200 points) or a
//! mushroom; the mushroom makes Mario big (1000 points), and big Mario
//! breaks bricks (50) and survives one hit. Landing on a goomba squashes it
//! (100); landing on a koopa leaves a shell (100) that Mario kicks by
//! touching it (400) and that knocks out the enemies it runs into (500).
//! Floating coins are 200. Touching an enemy any other way costs the
//! mushroom, or a life; so does a pit. The flagpole ends the level with 100
//! to 5000 points by grab height. Mario has 3 lives; a lost life restarts
//! the level (score and coins kept, objects back in place); losing the last
//! ends the game. The timer counts down from [`LEVEL_TIME_S`] and costs a
//! life at zero.
//!
//! Seeds decide which enemy slot (`g` in the level data) holds a goomba or
//! a koopa and nudge where each starts, so enemy timing differs per seed.
//!
//! Tuned for 0.25 s steps: Mario runs 7 tiles/s, a jump is 3.2 tiles high
//! and 0.8 s long, the level's 107 tiles take a careful player about 80 steps.
//!
//! State: `game_state.{score, level ("1-1"), completion_progress, player,
//! entities}`, `metrics.{coins, lives, time_left_s, level_progress_percent,
//! distance, distance_to_goal, stomps, enemies_alive, deaths, attempts}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use crate::platform::{self, Body, Camera, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::{self, TileMap};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "17_mario-game";

pub const TICK_MS: u64 = 5;
const DT: f64 = TICK_MS as f64 / 1000.0;

pub const RUN_SPEED: f64 = 7.0;
const ACCEL: f64 = 32.0;
const FRICTION: f64 = 26.0;
const AIR_ACCEL: f64 = 24.0;
pub const GRAVITY: f64 = 40.0;
pub const JUMP_SPEED: f64 = 16.0;
const STOMP_BOUNCE: f64 = 10.0;
const MAX_FALL: f64 = 20.0;
pub const GOOMBA_SPEED: f64 = 2.0;
pub const SHELL_SPEED: f64 = 10.0;
const MUSHROOM_SPEED: f64 = 3.0;
/// Seconds of blinking invulnerability after losing the mushroom.
const HURT_S: f64 = 1.5;
pub const LEVEL_TIME_S: u32 = 120;
pub const START_LIVES: u32 = 3;
const SMALL: (f64, f64) = (0.8, 0.95);
const BIG_H: f64 = 1.9;
const DUCK_H: f64 = 1.1;
const ENEMY: (f64, f64) = (0.9, 0.9);

const TILE_PX: f64 = 48.0;
const ROWS: usize = 13;
const VIEW_W: f64 = 1280.0;
const ORIGIN_Y: f64 = 56.0;

static LEVEL_TXT: &str = include_str!("levels/1-1.txt");

/// The parsed level and where things start.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelData {
    pub map: TileMap,
    pub start: (f64, f64),
    pub enemy_slots: Vec<(i64, i64)>,
    pub pole_x: f64,
    pub pole_top: f64,
    pub pole_bottom: f64,
}

fn level_data() -> &'static LevelData {
    static L: OnceLock<LevelData> = OnceLock::new();
    L.get_or_init(|| {
        let mut map = TileMap::parse(LEVEL_TXT).expect("bundled mario level parses");
        assert_eq!(map.height(), ROWS, "level 1-1 has {ROWS} rows");
        let (sx, sy) = map.find(b'm').expect("level has a start");
        map.set(sx, sy, tilemap::EMPTY);
        let enemy_slots = map.find_all(b'g');
        for &(x, y) in &enemy_slots {
            map.set(x, y, tilemap::EMPTY);
        }
        let pole = map.find_all(b'F');
        let pole_x = pole[0].0 as f64;
        let pole_top = pole.iter().map(|p| p.1).min().unwrap_or(0) as f64;
        let pole_bottom = pole.iter().map(|p| p.1).max().unwrap_or(0) as f64 + 1.0;
        LevelData {
            map,
            start: (sx as f64 + 0.1, sy as f64 + 1.0 - SMALL.1),
            enemy_slots,
            pole_x,
            pole_top,
            pole_bottom,
        }
    })
}

fn solidity(t: u8) -> Solidity {
    match t {
        b'#' | b'S' | b'P' | b'B' | b'?' | b'M' | b'E' => Solidity::Solid,
        _ => Solidity::Empty,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnemyKind {
    Goomba,
    Koopa,
    /// A koopa's shell: still when `body.vx == 0`, sliding otherwise.
    Shell,
    Mushroom,
}

impl EnemyKind {
    pub fn name(self) -> &'static str {
        match self {
            EnemyKind::Goomba => "goomba",
            EnemyKind::Koopa => "koopa",
            EnemyKind::Shell => "shell",
            EnemyKind::Mushroom => "mushroom",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Enemy {
    pub kind: EnemyKind,
    pub body: Body,
    pub alive: bool,
    /// Starts walking once it comes near the view.
    pub active: bool,
    /// A shell kicked in the last moments does not hurt its kicker.
    pub safe_s: f64,
}

/// How a life was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Pit,
    Enemy,
    Time,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Pit => "fell into a pit",
            Death::Enemy => "hit by an enemy",
            Death::Time => "time ran out",
        }
    }
}

/// Held keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
}

/// One life's run through the level: deterministic (no RNG), cloned by the
/// expert to look ahead.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub map: TileMap,
    pub mario: Body,
    pub big: bool,
    pub ducking: bool,
    pub hurt_s: f64,
    pub jump: JumpAssist,
    pub keys: Keys,
    pub enemies: Vec<Enemy>,
    pub cam_x: f64,
    pub score: u32,
    pub coins: u32,
    pub stomps: u32,
    pub time_ms: u64,
    pub death: Option<Death>,
    /// Flag points once the pole is reached.
    pub flag: Option<u32>,
    pub facing: i8,
}

fn spawn_enemies(rng: &mut Rng, slots: &[(i64, i64)]) -> Vec<Enemy> {
    slots
        .iter()
        .map(|&(x, y)| {
            let kind = if rng.chance(0.35) {
                EnemyKind::Koopa
            } else {
                EnemyKind::Goomba
            };
            let nudge = rng.range_f64(-0.6, 0.6);
            let mut body = Body::new(
                x as f64 + 0.05 + nudge,
                y as f64 + 1.0 - ENEMY.1,
                ENEMY.0,
                ENEMY.1,
            );
            body.vx = -GOOMBA_SPEED;
            Enemy {
                kind,
                body,
                alive: true,
                active: false,
                safe_s: 0.0,
            }
        })
        .collect()
}

impl World {
    pub fn new(enemies: Vec<Enemy>) -> Self {
        let l = level_data();
        let mut mario = Body::new(l.start.0, l.start.1, SMALL.0, SMALL.1);
        mario.on_ground = true;
        World {
            map: l.map.clone(),
            mario,
            big: false,
            ducking: false,
            hurt_s: 0.0,
            jump: JumpAssist::new(0.06, 0.1),
            keys: Keys::default(),
            enemies,
            cam_x: 0.0,
            score: 0,
            coins: 0,
            stomps: 0,
            time_ms: 0,
            death: None,
            flag: None,
            facing: 1,
        }
    }

    pub fn over(&self) -> bool {
        self.death.is_some() || self.flag.is_some()
    }

    pub fn time_left_s(&self) -> u32 {
        LEVEL_TIME_S.saturating_sub((self.time_ms / 1000) as u32)
    }

    pub fn press_jump(&mut self) {
        self.jump.press();
    }

    fn collider(map: &TileMap) -> Collider<'_, fn(u8) -> Solidity> {
        Collider {
            map,
            kind: solidity as fn(u8) -> Solidity,
            outside: tilemap::EMPTY,
            step_up: 0.0,
        }
    }

    fn set_height(&mut self, h: f64) {
        let bottom = self.mario.aabb.bottom();
        self.mario.aabb.h = h;
        self.mario.aabb.y = bottom - h;
    }

    fn hurt(&mut self) {
        if self.hurt_s > 0.0 {
            return;
        }
        if self.big {
            self.big = false;
            self.ducking = false;
            self.set_height(SMALL.1);
            self.hurt_s = HURT_S;
        } else {
            self.death = Some(Death::Enemy);
        }
    }

    fn bump(&mut self, x: i64, y: i64) {
        match self.map.at(x, y, b'.') {
            b'?' => {
                self.map.set(x, y, b'E');
                self.score += 200;
                self.coins += 1;
            }
            b'M' => {
                self.map.set(x, y, b'E');
                let mut body = Body::new(x as f64 + 0.05, y as f64 - 0.9, 0.9, 0.9);
                body.vx = MUSHROOM_SPEED;
                self.enemies.push(Enemy {
                    kind: EnemyKind::Mushroom,
                    body,
                    alive: true,
                    active: true,
                    safe_s: 0.0,
                });
            }
            b'B' if self.big => {
                self.map.set(x, y, tilemap::EMPTY);
                self.score += 50;
            }
            _ => {}
        }
    }

    /// One fixed tick.
    pub fn tick(&mut self) {
        if self.over() {
            return;
        }
        self.time_ms += TICK_MS;
        if self.time_left_s() == 0 {
            self.death = Some(Death::Time);
            return;
        }
        self.hurt_s = (self.hurt_s - DT).max(0.0);
        // Duck (big only, on the ground).
        let want_duck = self.big && self.keys.down && self.mario.on_ground;
        if want_duck != self.ducking {
            let h = if want_duck { DUCK_H } else { BIG_H };
            let mut probe = self.mario.aabb;
            probe.y = probe.bottom() - h;
            probe.h = h;
            if want_duck || !World::collider(&self.map).hits_solid(&probe) {
                self.ducking = want_duck;
                self.set_height(h);
            }
        }
        // Walk.
        let dir = (self.keys.right as i8 - self.keys.left as i8) as f64;
        let m = &mut self.mario;
        if dir != 0.0 && !self.ducking {
            self.facing = dir as i8;
            let a = if m.on_ground { ACCEL } else { AIR_ACCEL } * DT;
            let target = dir * RUN_SPEED;
            m.vx = if m.vx < target {
                (m.vx + a).min(target)
            } else {
                (m.vx - a).max(target)
            };
        } else if m.on_ground {
            let f = FRICTION * DT;
            m.vx = if m.vx > 0.0 {
                (m.vx - f).max(0.0)
            } else {
                (m.vx + f).min(0.0)
            };
        }
        // Jump.
        if self.keys.up && m.on_ground {
            self.jump.press();
        }
        self.jump.update(m.on_ground, DT);
        if !self.ducking && self.jump.take() {
            m.vy = -JUMP_SPEED;
        }
        m.vy = (m.vy + GRAVITY * DT).min(MAX_FALL);
        let prev_bottom = m.aabb.bottom();
        let c = platform::move_body(m, &World::collider(&self.map), DT);
        // The camera never scrolls back; Mario cannot walk off its left edge.
        if self.mario.aabb.x < self.cam_x {
            self.mario.aabb.x = self.cam_x;
            self.mario.vx = self.mario.vx.max(0.0);
        }
        if let Some((x, y)) = c.head_tile {
            self.bump(x, y);
        }
        // Coins.
        let mb = self.mario.aabb;
        let mut got = Vec::new();
        platform::for_each_overlapping(&self.map, &mb, |x, y, t| {
            if t == b'o' {
                got.push((x, y));
            }
        });
        for (x, y) in got {
            self.map.set(x, y, tilemap::EMPTY);
            self.score += 200;
            self.coins += 1;
        }
        // Flagpole.
        let l = level_data();
        if self.mario.aabb.right() >= l.pole_x + 0.4 {
            let y = self.mario.aabb.bottom();
            let pts = if y <= l.pole_top + 1.5 {
                5000
            } else if y <= l.pole_top + 3.0 {
                2000
            } else if y <= l.pole_top + 5.0 {
                800
            } else if y <= l.pole_top + 7.0 {
                400
            } else {
                100
            };
            self.score += pts;
            self.flag = Some(pts);
            return;
        }
        self.tick_enemies(prev_bottom);
        if self.mario.aabb.y > ROWS as f64 + 1.0 {
            self.death = Some(Death::Pit);
        }
        self.cam_x = self
            .cam_x
            .max(self.mario.aabb.x - 0.4 * VIEW_W / TILE_PX)
            .min(self.map.width() as f64 - VIEW_W / TILE_PX);
    }

    fn tick_enemies(&mut self, mario_prev_bottom: f64) {
        let view_right = self.cam_x + VIEW_W / TILE_PX + 2.0;
        let n = self.enemies.len();
        for i in 0..n {
            let e = &mut self.enemies[i];
            if !e.alive {
                continue;
            }
            if !e.active {
                if e.body.aabb.x < view_right {
                    e.active = true;
                } else {
                    continue;
                }
            }
            e.safe_s = (e.safe_s - DT).max(0.0);
            e.body.vy = (e.body.vy + GRAVITY * DT).min(MAX_FALL);
            let vx = e.body.vx;
            let c = platform::move_body(&mut e.body, &World::collider(&self.map), DT);
            if c.left || c.right {
                e.body.vx = -vx;
            }
            if e.body.aabb.y > ROWS as f64 + 1.0 || e.body.aabb.right() < self.cam_x - 4.0 {
                e.alive = false;
            }
        }
        // Moving shells knock out what they touch.
        for i in 0..n {
            let (k, b) = (self.enemies[i].kind, self.enemies[i].body);
            if !self.enemies[i].alive || k != EnemyKind::Shell || b.vx == 0.0 {
                continue;
            }
            for j in 0..n {
                let o = &self.enemies[j];
                if j != i
                    && o.alive
                    && o.kind != EnemyKind::Mushroom
                    && o.body.aabb.overlaps(&b.aabb)
                {
                    self.enemies[j].alive = false;
                    self.score += 500;
                }
            }
        }
        // Mario against enemies and items.
        let mb = self.mario.aabb;
        for i in 0..n {
            let e = self.enemies[i].clone();
            if !e.alive || !e.active || !mb.overlaps(&e.body.aabb) {
                continue;
            }
            if e.kind == EnemyKind::Mushroom {
                self.enemies[i].alive = false;
                self.score += 1000;
                if !self.big {
                    self.big = true;
                    self.set_height(BIG_H);
                }
                continue;
            }
            let from_above = self.mario.vy > 0.0 && mario_prev_bottom <= e.body.aabb.y + 0.35;
            match (e.kind, from_above) {
                (EnemyKind::Shell, _) if e.body.vx == 0.0 => {
                    // Kick the still shell away from Mario.
                    let dir = if mb.center_x() < e.body.aabb.center_x() {
                        1.0
                    } else {
                        -1.0
                    };
                    let en = &mut self.enemies[i];
                    en.body.vx = dir * SHELL_SPEED;
                    en.safe_s = 0.3;
                    self.score += 400;
                    if from_above {
                        self.mario.vy = -STOMP_BOUNCE;
                    }
                }
                (_, true) => {
                    let en = &mut self.enemies[i];
                    match e.kind {
                        EnemyKind::Koopa => {
                            en.kind = EnemyKind::Shell;
                            en.body.vx = 0.0;
                        }
                        EnemyKind::Shell => en.body.vx = 0.0,
                        _ => en.alive = false,
                    }
                    self.score += 100;
                    self.stomps += 1;
                    self.mario.vy = -STOMP_BOUNCE;
                }
                (_, false) => {
                    if e.safe_s == 0.0 {
                        self.hurt();
                        if self.death.is_some() {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Enemies still standing.
    pub fn enemies_alive(&self) -> usize {
        self.enemies
            .iter()
            .filter(|e| e.alive && e.kind != EnemyKind::Mushroom)
            .count()
    }
}

pub struct MarioGame {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    /// Score and coins carried over from lost lives.
    banked_score: u32,
    banked_coins: u32,
    lives: u32,
    deaths: u32,
    game_time_ms: u64,
    episode: u32,
    best_score: u32,
    terminal: Terminal,
}

impl Default for MarioGame {
    fn default() -> Self {
        Self::new()
    }
}

impl MarioGame {
    pub fn new() -> Self {
        MarioGame {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(Vec::new()),
            banked_score: 0,
            banked_coins: 0,
            lives: START_LIVES,
            deaths: 0,
            game_time_ms: 0,
            episode: 0,
            best_score: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn score(&self) -> u32 {
        self.banked_score + self.world.score
    }

    pub fn lives(&self) -> u32 {
        self.lives
    }

    fn new_life(&mut self) {
        let enemies = spawn_enemies(&mut self.rng, &level_data().enemy_slots);
        self.world = World::new(enemies);
    }

    fn apply_keys(&mut self, key: &str, down: bool) {
        let k = &mut self.world.keys;
        match key {
            "ArrowLeft" => k.left = down,
            "ArrowRight" => k.right = down,
            "ArrowUp" => {
                if down && !k.up {
                    self.world.press_jump();
                }
                self.world.keys.up = down;
            }
            "ArrowDown" => k.down = down,
            _ => {}
        }
    }
}

impl Game for MarioGame {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.best_score = 0;
        self.deaths = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x3A21_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.banked_score = 0;
        self.banked_coins = 0;
        self.lives = START_LIVES;
        self.game_time_ms = 0;
        self.terminal = Terminal::running();
        self.new_life();
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
        let l = level_data();
        let m = &w.mario.aabb;
        let completion = ((m.x - l.start.0) / (l.pole_x - l.start.0)).clamp(0.0, 1.0);
        let completion = if w.flag.is_some() { 1.0 } else { completion };
        set(&mut s.game_state, "score", self.score());
        set(&mut s.game_state, "level", "1-1");
        set(&mut s.game_state, "progress", round2(completion));
        set(&mut s.game_state, "completion_progress", round2(completion));
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": round2(m.x), "y": round2(m.y), "width": m.w, "height": round2(m.h),
                "vx": round2(w.mario.vx), "vy": round2(w.mario.vy),
                "power": if w.big { 2 } else { 1 }, "big": w.big, "ducking": w.ducking,
                "on_ground": w.mario.on_ground, "invulnerable": w.hurt_s > 0.0,
                "alive": w.death.is_none(), "name": "Mario",
            }),
        );
        let view_r = w.cam_x + VIEW_W / TILE_PX;
        let ents: Vec<Value> = w
            .enemies
            .iter()
            .filter(|e| e.alive && e.body.aabb.right() > w.cam_x && e.body.aabb.x < view_r)
            .map(|e| {
                json!({"type": e.kind.name(), "x": round2(e.body.aabb.x), "y": round2(e.body.aabb.y),
                       "vx": round2(e.body.vx)})
            })
            .collect();
        set(&mut s.game_state, "entities", json!(ents));
        set(&mut s.game_state, "board", Value::Null);
        set(&mut s.metrics, "coins", self.banked_coins + w.coins);
        set(&mut s.metrics, "lives", self.lives);
        set(&mut s.metrics, "time_left_s", w.time_left_s());
        set(
            &mut s.metrics,
            "level_progress_percent",
            (completion * 100.0).round() as u32,
        );
        set(
            &mut s.metrics,
            "distance",
            round2((m.x - l.start.0).max(0.0)),
        );
        set(
            &mut s.metrics,
            "distance_to_goal",
            round2((l.pole_x - m.right()).max(0.0)),
        );
        set(&mut s.metrics, "stomps", w.stomps);
        set(&mut s.metrics, "enemies_alive", w.enemies_alive());
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "attempts", self.episode + 1);
        set(
            &mut s.metrics,
            "best_score",
            self.best_score.max(self.score()),
        );
        set(&mut s.raw, "world", 1);
        set(&mut s.raw, "stage", 1);
        set(&mut s.raw, "levelId", "1-1");
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "flag_points", w.flag);
        set(&mut s.raw, "camera_x", round2(w.cam_x));
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if let Some((key, down)) = event.key_change() {
            self.apply_keys(key, down);
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                return;
            }
            self.game_time_ms += TICK_MS;
            self.world.tick();
            self.best_score = self.best_score.max(self.score());
            if let Some(d) = self.world.death {
                self.deaths += 1;
                self.lives -= 1;
                self.banked_score += self.world.score;
                self.banked_coins += self.world.coins;
                if self.lives == 0 {
                    self.world.score = 0;
                    self.world.coins = 0;
                    self.terminal =
                        Terminal::ended(Outcome::Fail, format!("game over: {}", d.reason()));
                } else {
                    let keys = self.world.keys;
                    self.new_life();
                    self.world.keys = keys;
                }
            } else if self.world.flag.is_some() {
                self.terminal = Terminal::ended(Outcome::Success, "reached the flagpole");
            }
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

const SKY: Rgb = rgb(104, 136, 252);

fn block(pm: &mut Pixmap, sx: f32, sy: f32, s: f32, base: Rgb, dark: Rgb) {
    draw::rect(pm, sx, sy, s, s, dark);
    draw::rect(pm, sx + 2.0, sy + 2.0, s - 4.0, s - 4.0, base);
}

fn render(g: &MarioGame, pm: &mut Pixmap) {
    let w = &g.world;
    let s = TILE_PX as f32;
    draw::rect(
        pm,
        0.0,
        ORIGIN_Y as f32,
        VIEW_W as f32,
        720.0 - ORIGIN_Y as f32,
        SKY,
    );
    let mut cam = Camera::new(VIEW_W / TILE_PX, ROWS as f64, TILE_PX, (0.0, ORIGIN_Y));
    cam.x = w.cam_x;
    // Hills and clouds in the far background.
    for k in 0..8 {
        let hx = (k as f64 * 16.0 + 2.0 - w.cam_x * 0.5) * TILE_PX;
        let hx = hx.rem_euclid(16.0 * 8.0 * TILE_PX) as f32 - 200.0;
        draw::circle(
            pm,
            hx,
            ORIGIN_Y as f32 + 11.0 * s,
            2.2 * s,
            rgb(90, 170, 60),
        );
        draw::circle(
            pm,
            hx + 5.0 * s,
            ORIGIN_Y as f32 + 2.0 * s,
            0.8 * s,
            rgb(250, 250, 250),
        );
        draw::circle(
            pm,
            hx + 5.8 * s,
            ORIGIN_Y as f32 + 1.8 * s,
            1.0 * s,
            rgb(250, 250, 250),
        );
        draw::circle(
            pm,
            hx + 6.6 * s,
            ORIGIN_Y as f32 + 2.0 * s,
            0.8 * s,
            rgb(250, 250, 250),
        );
    }
    let (x0, y0, x1, y1) = cam.visible_tiles();
    w.map.for_each_in(x0, y0, x1, y1, |x, y, t| {
        let (sx, sy) = cam.to_screen(x as f64, y as f64);
        match t {
            b'#' => {
                block(pm, sx, sy, s, rgb(200, 76, 12), rgb(90, 30, 0));
                draw::rect(pm, sx + 4.0, sy + s / 2.0, s - 8.0, 2.0, rgb(90, 30, 0));
            }
            b'S' => block(pm, sx, sy, s, rgb(180, 110, 60), rgb(70, 40, 20)),
            b'B' => {
                block(pm, sx, sy, s, rgb(200, 76, 12), rgb(60, 20, 0));
                draw::rect(pm, sx, sy + s / 2.0 - 1.0, s, 2.0, rgb(60, 20, 0));
                draw::rect(pm, sx + s / 2.0 - 1.0, sy, 2.0, s / 2.0, rgb(60, 20, 0));
            }
            b'?' | b'M' => {
                block(pm, sx, sy, s, rgb(252, 188, 60), rgb(140, 70, 0));
                draw::text(
                    pm,
                    "?",
                    sx + s / 2.0,
                    sy + 6.0,
                    30.0,
                    rgb(140, 70, 0),
                    Align::Center,
                );
            }
            b'E' => block(pm, sx, sy, s, rgb(150, 100, 60), rgb(60, 30, 10)),
            b'P' => {
                let left = w.map.at(x - 1, y, b'.') != b'P';
                let top = w.map.at(x, y - 1, b'.') != b'P';
                draw::rect(pm, sx, sy, s, s, rgb(0, 120, 0));
                draw::rect(
                    pm,
                    sx + if left { 4.0 } else { 0.0 },
                    sy,
                    s - 4.0,
                    s,
                    rgb(60, 200, 40),
                );
                if top {
                    draw::rect(
                        pm,
                        sx - if left { 4.0 } else { 0.0 },
                        sy,
                        s + 4.0,
                        12.0,
                        rgb(0, 100, 0),
                    );
                }
            }
            b'o' => {
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 13.0, rgb(160, 100, 0));
                draw::circle(pm, sx + s / 2.0, sy + s / 2.0, 10.0, rgb(252, 200, 40));
            }
            b'F' => {
                draw::rect(pm, sx + s / 2.0 - 3.0, sy, 6.0, s, rgb(220, 240, 220));
                if w.map.at(x, y - 1, b'.') != b'F' {
                    draw::circle(pm, sx + s / 2.0, sy - 6.0, 9.0, rgb(40, 180, 40));
                    draw::polygon(
                        pm,
                        &[
                            (sx + s / 2.0 - 3.0, sy + 6.0),
                            (sx - s, sy + 24.0),
                            (sx + s / 2.0 - 3.0, sy + 42.0),
                        ],
                        rgb(255, 255, 255),
                    );
                }
            }
            _ => {}
        }
    });
    for e in w.enemies.iter().filter(|e| e.alive && e.active) {
        let (sx, sy) = cam.to_screen(e.body.aabb.x, e.body.aabb.y);
        let (ew, eh) = (
            (e.body.aabb.w * TILE_PX) as f32,
            (e.body.aabb.h * TILE_PX) as f32,
        );
        match e.kind {
            EnemyKind::Goomba => {
                draw::rounded_rect(pm, sx, sy, ew, eh * 0.8, 14.0, rgb(160, 80, 30));
                draw::rect(
                    pm,
                    sx + 4.0,
                    sy + eh * 0.75,
                    ew - 8.0,
                    eh * 0.25,
                    rgb(240, 200, 160),
                );
                draw::circle(pm, sx + ew * 0.32, sy + eh * 0.35, 5.0, rgb(255, 255, 255));
                draw::circle(pm, sx + ew * 0.68, sy + eh * 0.35, 5.0, rgb(255, 255, 255));
                draw::circle(pm, sx + ew * 0.32, sy + eh * 0.37, 2.5, rgb(0, 0, 0));
                draw::circle(pm, sx + ew * 0.68, sy + eh * 0.37, 2.5, rgb(0, 0, 0));
            }
            EnemyKind::Koopa => {
                draw::rounded_rect(
                    pm,
                    sx + 2.0,
                    sy + eh * 0.3,
                    ew - 4.0,
                    eh * 0.6,
                    12.0,
                    rgb(40, 170, 40),
                );
                draw::circle(pm, sx + ew * 0.2, sy + eh * 0.22, 9.0, rgb(250, 220, 120));
                draw::rect(
                    pm,
                    sx + 6.0,
                    sy + eh * 0.88,
                    ew - 12.0,
                    eh * 0.12,
                    rgb(250, 220, 120),
                );
            }
            EnemyKind::Shell => {
                draw::rounded_rect(
                    pm,
                    sx + 2.0,
                    sy + eh * 0.35,
                    ew - 4.0,
                    eh * 0.65,
                    14.0,
                    rgb(30, 140, 30),
                );
                draw::rect(
                    pm,
                    sx + 6.0,
                    sy + eh * 0.6,
                    ew - 12.0,
                    4.0,
                    rgb(250, 240, 200),
                );
            }
            EnemyKind::Mushroom => {
                draw::rect(
                    pm,
                    sx + ew * 0.25,
                    sy + eh * 0.5,
                    ew * 0.5,
                    eh * 0.5,
                    rgb(250, 230, 190),
                );
                draw::rounded_rect(pm, sx, sy, ew, eh * 0.6, 16.0, rgb(220, 40, 30));
                draw::circle(pm, sx + ew * 0.5, sy + eh * 0.25, 6.0, rgb(255, 255, 255));
            }
        }
    }
    // Mario (blinks while invulnerable).
    let blink = w.hurt_s > 0.0 && (w.time_ms / 100).is_multiple_of(2);
    if !blink {
        let m = w.mario.aabb;
        let (sx, sy) = cam.to_screen(m.x, m.y);
        let (mw, mh) = ((m.w * TILE_PX) as f32, (m.h * TILE_PX) as f32);
        draw::rect(pm, sx + 2.0, sy, mw - 4.0, mh * 0.22, rgb(220, 30, 30));
        draw::rect(
            pm,
            sx + 4.0,
            sy + mh * 0.2,
            mw - 8.0,
            mh * 0.25,
            rgb(250, 190, 140),
        );
        let eye_x = if w.facing > 0 {
            sx + mw * 0.65
        } else {
            sx + mw * 0.3
        };
        draw::rect(pm, eye_x, sy + mh * 0.25, 4.0, 6.0, rgb(0, 0, 0));
        draw::rect(pm, sx, sy + mh * 0.45, mw, mh * 0.3, rgb(220, 30, 30));
        draw::rect(
            pm,
            sx + 3.0,
            sy + mh * 0.55,
            mw - 6.0,
            mh * 0.35,
            rgb(40, 60, 200),
        );
        draw::rect(
            pm,
            sx,
            sy + mh * 0.88,
            mw * 0.45,
            mh * 0.12,
            rgb(110, 60, 20),
        );
        draw::rect(
            pm,
            sx + mw * 0.55,
            sy + mh * 0.88,
            mw * 0.45,
            mh * 0.12,
            rgb(110, 60, 20),
        );
    }
    draw::hud(
        pm,
        "MARIO  World 1-1",
        &[
            ("Score", format!("{:06}", g.score())),
            ("Coins", (g.banked_coins + w.coins).to_string()),
            ("Lives", g.lives.to_string()),
            ("Time", w.time_left_s().to_string()),
        ],
    );
    draw::rect(pm, 0.0, 680.0, VIEW_W as f32, 40.0, rgba(0, 0, 0, 110));
    draw::text(
        pm,
        "Arrows: walk   Up: jump   Down: duck (big)",
        20.0,
        688.0,
        20.0,
        rgb(255, 255, 255),
        Align::Left,
    );
    draw::end_banner(
        pm,
        &g.terminal,
        "COURSE CLEAR!",
        &format!("Score {}", g.score()),
    );
}
