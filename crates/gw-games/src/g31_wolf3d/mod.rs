//! 31_wolf3d — a first-person shooter in a castle maze, in the manner of
//! Wolfenstein 3D.
//!
//! The floor is a 3 × 3 block of rooms joined by sliding doors and archways
//! (see [`level`]). The player turns and walks with the arrow keys, fires the
//! pistol with `x` (8 bullets to start; with none left the attack is a knife
//! stab at arm's length) and opens the door in front with Space. Ten guards
//! stand in the other rooms; with the task option `start: ambush` (31_05)
//! the game opens as the original does instead: the player faces two guards
//! in his room and a door with four more behind it, six in all. A guard notices the player when it sees him in
//! front of it, hears a shot nearby (sound travels through open tiles, not
//! through closed doors) or is hit; it then chases along the shortest path
//! (opening doors on the way) and, whenever it has a clear line of fire,
//! stops to aim and shoot. Hits cost health; at 0 health a life is lost and
//! the player starts again at the entrance with full health and 8 bullets
//! (the guards return to their posts). Losing the last of 3 lives ends the
//! game. Dead guards drop a clip (4 bullets); clips (8), first-aid kits
//! (+25) and food (+10) lie on the floor and are picked up by walking over
//! them (entering an item's tile picks it up). Killing every guard ends the
//! game with success.
//!
//! Coordinates are in tiles (x east, y south); angles in radians, 0 = east,
//! growing clockwise on screen (towards +y).
//!
//! State: `metrics.kills`, `metrics.max_kills` (the best kill count of any
//! game played by this instance), `metrics.total_monsters`, `metrics.health`,
//! `metrics.ammo`, `metrics.lives`, shot and damage tallies; the player and
//! every guard and pickup in `game_state`; the map rows in `raw.map`.

mod art;
mod expert;
pub mod level;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use crate::raycast::{self, Camera, Cell, Grid, Scratch, Sprite, Viewport};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use level::{Layout, PickupKind, SIZE};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "31_wolf3d";
const TICK_MS: u64 = 20;
const DT: f64 = TICK_MS as f64 / 1000.0;
/// Walking speed forward / backward, tiles per second.
pub const MOVE_SPEED: f64 = 3.0;
pub const BACK_SPEED: f64 = 2.0;
/// Turning speed, radians per second (0.44 rad ≈ 25° per 0.2 s key press).
pub const TURN_RATE: f64 = 2.2;
pub const PLAYER_RADIUS: f64 = 0.3;
/// Half the field of view as a tangent (≈ 74° in all).
pub const FOV: f64 = 0.75;
pub const START_HEALTH: i32 = 100;
pub const START_AMMO: i32 = 8;
pub const MAX_AMMO: i32 = 99;
pub const START_LIVES: i32 = 3;
pub const GUARD_HP: i32 = 25;
pub const GUARD_SPEED: f64 = 1.5;
/// Guards see this far (tiles) within ±100° of where they face.
pub const GUARD_SIGHT: f64 = 14.0;
/// A shot is heard by guards this many open tiles away.
pub const HEARING: u32 = 12;
/// Guards fire only within this distance.
pub const GUARD_RANGE: f64 = 11.0;
pub const KNIFE_RANGE: f64 = 1.4;
/// Minimum time between two attacks of the player.
pub const ATTACK_COOLDOWN_MS: u64 = 150;
/// How far (tile centre to player) the use key reaches a door.
pub const USE_REACH: f64 = 1.6;
/// Time a door needs to slide fully open.
pub const DOOR_OPEN_MS: f64 = 500.0;

/// Half-angle within which a shot at a guard `d` tiles away hits: the
/// guard's half-width seen from there plus a small allowance.
pub fn hit_cone(d: f64) -> f64 {
    libm::atan2(0.45, d) + 0.1
}

/// Wrap an angle into (−π, π].
pub fn wrap(a: f64) -> f64 {
    let two_pi = 2.0 * core::f64::consts::PI;
    let mut a = a % two_pi;
    if a > core::f64::consts::PI {
        a -= two_pi;
    } else if a <= -core::f64::consts::PI {
        a += two_pi;
    }
    a
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardState {
    /// At its post, not yet aware of the player.
    Stand,
    Chase,
    /// Stopped, aiming; fires when the timer runs out.
    Aim,
    /// Flinching after a hit.
    Pain,
    Dying,
    Dead,
}

impl GuardState {
    fn name(self) -> &'static str {
        match self {
            GuardState::Stand => "stand",
            GuardState::Chase => "chase",
            GuardState::Aim => "aim",
            GuardState::Pain => "pain",
            GuardState::Dying => "dying",
            GuardState::Dead => "dead",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub x: f64,
    pub y: f64,
    pub facing: f64,
    pub hp: i32,
    pub state: GuardState,
    pub alerted: bool,
    /// Time left in Aim / Pain / Dying, ms.
    timer_ms: f64,
    /// Time until the guard may aim again, ms.
    cooldown_ms: f64,
    /// Tile it is walking to.
    target: Option<(i32, i32)>,
    post: (f64, f64, f64),
    walk_phase: f64,
}

impl Guard {
    pub fn alive(&self) -> bool {
        !matches!(self.state, GuardState::Dying | GuardState::Dead)
    }
    fn tile(&self) -> (i32, i32) {
        (libm::floor(self.x) as i32, libm::floor(self.y) as i32)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pickup {
    pub kind: PickupKind,
    pub x: f64,
    pub y: f64,
    pub taken: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Door {
    pub c: usize,
    pub r: usize,
    pub open: f64,
    pub opening: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Held {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub x: f64,
    pub y: f64,
    pub angle: f64,
}

pub struct Wolf3d {
    seed: u64,
    episode: u32,
    /// The original opening (task option `init: {start: ambush}`): two
    /// guards in front, four behind the door ahead ([`level::generate_ambush`]).
    ambush: bool,
    rng: Rng,
    layout: Layout,
    grid: Grid,
    player: Player,
    held: Held,
    guards: Vec<Guard>,
    pickups: Vec<Pickup>,
    doors: Vec<Door>,
    health: i32,
    ammo: i32,
    lives: i32,
    kills: u32,
    max_kills: u32,
    score: u32,
    deaths: u32,
    shots_fired: u32,
    shots_hit: u32,
    knife_attacks: u32,
    damage_taken: u32,
    doors_opened: u32,
    pickups_collected: u32,
    /// Game time of the last attack and the last hit taken (for effects).
    last_attack_ms: Option<u64>,
    last_hurt_ms: Option<u64>,
    clock: FixedStep,
    game_time_ms: u64,
    terminal: Terminal,
    /// Breadth-first distances from the player's tile (guards' chase field)
    /// and the tile it was computed for.
    field: Vec<u32>,
    field_tile: (i32, i32),
    scratch: RefCell<Scratch>,
}

impl Default for Wolf3d {
    fn default() -> Self {
        Self::new()
    }
}

const NEIGHBOURS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl Wolf3d {
    pub fn new() -> Self {
        let mut rng = Rng::new(0, 0);
        let layout = level::generate(&mut rng);
        let mut g = Wolf3d {
            seed: 0,
            episode: 0,
            ambush: false,
            rng,
            grid: layout.grid.clone(),
            layout,
            player: Player {
                x: 0.0,
                y: 0.0,
                angle: 0.0,
            },
            held: Held::default(),
            guards: Vec::new(),
            pickups: Vec::new(),
            doors: Vec::new(),
            health: START_HEALTH,
            ammo: START_AMMO,
            lives: START_LIVES,
            kills: 0,
            max_kills: 0,
            score: 0,
            deaths: 0,
            shots_fired: 0,
            shots_hit: 0,
            knife_attacks: 0,
            damage_taken: 0,
            doors_opened: 0,
            pickups_collected: 0,
            last_attack_ms: None,
            last_hurt_ms: None,
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            terminal: Terminal::running(),
            field: Vec::new(),
            field_tile: (-1, -1),
            scratch: RefCell::new(Scratch::default()),
        };
        g.build();
        g
    }

    fn build(&mut self) {
        let mut rng = Rng::new(self.seed, 0x3100_0000 + self.episode as u64);
        self.layout = if self.ambush {
            level::generate_ambush(&mut rng)
        } else {
            level::generate(&mut rng)
        };
        self.rng = rng;
        self.grid = self.layout.grid.clone();
        let (x, y, angle) = self.layout.start;
        self.player = Player { x, y, angle };
        self.held = Held::default();
        self.guards = self
            .layout
            .guards
            .iter()
            .map(|&(c, r, facing)| {
                let (x, y) = (c as f64 + 0.5, r as f64 + 0.5);
                Guard {
                    x,
                    y,
                    facing,
                    hp: GUARD_HP,
                    state: GuardState::Stand,
                    alerted: false,
                    timer_ms: 0.0,
                    cooldown_ms: 0.0,
                    target: None,
                    post: (x, y, facing),
                    walk_phase: 0.0,
                }
            })
            .collect();
        self.pickups = self
            .layout
            .pickups
            .iter()
            .map(|&(kind, c, r)| Pickup {
                kind,
                x: c as f64 + 0.5,
                y: r as f64 + 0.5,
                taken: false,
            })
            .collect();
        self.doors = self
            .layout
            .doors
            .iter()
            .map(|&(c, r)| Door {
                c,
                r,
                open: 0.0,
                opening: false,
            })
            .collect();
        self.health = START_HEALTH;
        self.ammo = START_AMMO;
        self.lives = START_LIVES;
        self.kills = 0;
        self.score = 0;
        self.deaths = 0;
        self.shots_fired = 0;
        self.shots_hit = 0;
        self.knife_attacks = 0;
        self.damage_taken = 0;
        self.doors_opened = 0;
        self.pickups_collected = 0;
        self.last_attack_ms = None;
        self.last_hurt_ms = None;
        self.clock.clear();
        self.terminal = Terminal::running();
        self.field_tile = (-1, -1);
        self.pickup_items();
    }

    // ---- accessors (tests and the expert) -------------------------------

    pub fn player(&self) -> Player {
        self.player
    }
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    pub fn guards(&self) -> &[Guard] {
        &self.guards
    }
    pub fn pickups(&self) -> &[Pickup] {
        &self.pickups
    }
    pub fn doors(&self) -> &[Door] {
        &self.doors
    }
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    pub fn health(&self) -> i32 {
        self.health
    }
    pub fn ammo(&self) -> i32 {
        self.ammo
    }
    pub fn lives(&self) -> i32 {
        self.lives
    }
    pub fn kills(&self) -> u32 {
        self.kills
    }
    pub fn is_over(&self) -> bool {
        self.terminal.is_terminal
    }

    pub fn player_tile(&self) -> (i32, i32) {
        (
            libm::floor(self.player.x) as i32,
            libm::floor(self.player.y) as i32,
        )
    }

    /// Whether the guard could be seen from the player's position (nothing
    /// solid in between).
    pub fn visible(&self, g: &Guard) -> bool {
        raycast::line_of_sight(&self.grid, self.player.x, self.player.y, g.x, g.y)
    }

    // ---- simulation ------------------------------------------------------

    fn door_index(&self, c: i32, r: i32) -> Option<usize> {
        self.doors
            .iter()
            .position(|d| d.c as i32 == c && d.r as i32 == r)
    }

    fn sync_door(&mut self, i: usize) {
        let d = &self.doors[i];
        if let Cell::Door { tex, across_x, .. } = self.grid.get(d.c as i32, d.r as i32) {
            self.grid.set(
                d.c,
                d.r,
                Cell::Door {
                    tex,
                    open: d.open,
                    across_x,
                },
            );
        }
    }

    fn start_opening(&mut self, i: usize, by_player: bool) {
        if !self.doors[i].opening && self.doors[i].open < 1.0 {
            self.doors[i].opening = true;
            if by_player {
                self.doors_opened += 1;
            }
        }
    }

    /// The door the player faces within reach, if any: the nearest door
    /// whose centre is at most [`USE_REACH`] tiles away and within 45° of
    /// the view direction.
    fn door_in_front(&self) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (i, d) in self.doors.iter().enumerate() {
            let (dx, dy) = (
                d.c as f64 + 0.5 - self.player.x,
                d.r as f64 + 0.5 - self.player.y,
            );
            let dist = libm::sqrt(dx * dx + dy * dy);
            let off = wrap(libm::atan2(dy, dx) - self.player.angle);
            if dist <= USE_REACH
                && off.abs() <= core::f64::consts::FRAC_PI_4
                && best.is_none_or(|(bd, _)| dist < bd)
            {
                best = Some((dist, i));
            }
        }
        best.map(|(_, i)| i)
    }

    /// Whether a circle of `radius` at (x, y) overlaps no solid tile.
    fn free_at(&self, x: f64, y: f64, radius: f64) -> bool {
        let (c0, c1) = (
            libm::floor(x - radius) as i32,
            libm::floor(x + radius) as i32,
        );
        let (r0, r1) = (
            libm::floor(y - radius) as i32,
            libm::floor(y + radius) as i32,
        );
        for r in r0..=r1 {
            for c in c0..=c1 {
                if !self.grid.walkable(c, r) {
                    return false;
                }
            }
        }
        true
    }

    fn blocked_by_guard(&self, x: f64, y: f64) -> bool {
        self.guards.iter().any(|g| {
            g.alive() && {
                let (dx, dy) = (g.x - x, g.y - y);
                dx * dx + dy * dy < 0.6 * 0.6
            }
        })
    }

    fn move_player(&mut self, dist: f64) {
        let (s, c) = (libm::sin(self.player.angle), libm::cos(self.player.angle));
        let nx = self.player.x + c * dist;
        if self.free_at(nx, self.player.y, PLAYER_RADIUS)
            && !self.blocked_by_guard(nx, self.player.y)
        {
            self.player.x = nx;
        }
        let ny = self.player.y + s * dist;
        if self.free_at(self.player.x, ny, PLAYER_RADIUS)
            && !self.blocked_by_guard(self.player.x, ny)
        {
            self.player.y = ny;
        }
        // Blocked along the main direction of travel but the tile ahead is
        // open (a doorway entered off-centre): slide towards the middle of
        // the current row or column so the body fits through.
        let (sx, sy) = (c * dist.signum(), s * dist.signum());
        let (px, py) = (self.player.x, self.player.y);
        let (tc, tr) = self.player_tile();
        let nudge = dist.abs() * 0.7;
        if sx.abs() >= sy.abs() {
            let ahead = tc + sx.signum() as i32;
            let moved_x = (px - (nx - c * dist)).abs() > 1e-9;
            if !moved_x && self.grid.walkable(ahead, tr) {
                let mid = tr as f64 + 0.5;
                let y = py + (mid - py).clamp(-nudge, nudge);
                if self.free_at(px, y, PLAYER_RADIUS) {
                    self.player.y = y;
                }
            }
        } else {
            let ahead = tr + sy.signum() as i32;
            let moved_y = (py - (ny - s * dist)).abs() > 1e-9;
            if !moved_y && self.grid.walkable(tc, ahead) {
                let mid = tc as f64 + 0.5;
                let x = px + (mid - px).clamp(-nudge, nudge);
                if self.free_at(x, py, PLAYER_RADIUS) {
                    self.player.x = x;
                }
            }
        }
    }

    fn pickup_items(&mut self) {
        for i in 0..self.pickups.len() {
            let p = &self.pickups[i];
            if p.taken {
                continue;
            }
            // As in the original, stepping into an item's tile picks it up.
            if (libm::floor(p.x) as i32, libm::floor(p.y) as i32) != self.player_tile() {
                continue;
            }
            let used = match p.kind {
                PickupKind::Clip | PickupKind::DroppedClip if self.ammo < MAX_AMMO => {
                    let n = if p.kind == PickupKind::Clip { 8 } else { 4 };
                    self.ammo = (self.ammo + n).min(MAX_AMMO);
                    true
                }
                PickupKind::FirstAid | PickupKind::Food if self.health < START_HEALTH => {
                    let n = if p.kind == PickupKind::FirstAid {
                        25
                    } else {
                        10
                    };
                    self.health = (self.health + n).min(START_HEALTH);
                    true
                }
                _ => false,
            };
            if used {
                self.pickups[i].taken = true;
                self.pickups_collected += 1;
            }
        }
    }

    /// Open-tile distances from `from` (closed doors block when `doors_block`).
    fn distances(&self, from: (i32, i32), doors_block: bool) -> Vec<u32> {
        let mut dist = vec![u32::MAX; SIZE * SIZE];
        if from.0 < 0 || from.1 < 0 || from.0 >= SIZE as i32 || from.1 >= SIZE as i32 {
            return dist;
        }
        dist[from.1 as usize * SIZE + from.0 as usize] = 0;
        let mut q = VecDeque::from([from]);
        while let Some((c, r)) = q.pop_front() {
            let d = dist[r as usize * SIZE + c as usize];
            for (dc, dr) in NEIGHBOURS {
                let (nc, nr) = (c + dc, r + dr);
                let pass = match self.grid.get(nc, nr) {
                    Cell::Empty => true,
                    Cell::Door { open, .. } => !doors_block || open >= 0.9,
                    Cell::Wall { .. } => false,
                };
                if pass {
                    let i = nr as usize * SIZE + nc as usize;
                    if dist[i] == u32::MAX {
                        dist[i] = d + 1;
                        q.push_back((nc, nr));
                    }
                }
            }
        }
        dist
    }

    fn alert(&mut self, i: usize) {
        let g = &mut self.guards[i];
        if !g.alerted && g.alive() {
            g.alerted = true;
            if g.state == GuardState::Stand {
                g.state = GuardState::Chase;
            }
            g.cooldown_ms = self.rng.range_f64(300.0, 900.0);
        }
    }

    /// Pistol shot (or knife stab with no ammo) straight ahead.
    fn attack(&mut self) {
        if let Some(t) = self.last_attack_ms
            && self.game_time_ms < t + ATTACK_COOLDOWN_MS
        {
            return;
        }
        self.last_attack_ms = Some(self.game_time_ms);
        let pistol = self.ammo > 0;
        let range = if pistol { f64::INFINITY } else { KNIFE_RANGE };
        if pistol {
            self.ammo -= 1;
            self.shots_fired += 1;
            // Everyone within earshot comes running.
            let dist = self.distances(self.player_tile(), true);
            for i in 0..self.guards.len() {
                let (c, r) = self.guards[i].tile();
                if c >= 0 && r >= 0 && dist[r as usize * SIZE + c as usize] <= HEARING {
                    self.alert(i);
                }
            }
        } else {
            self.knife_attacks += 1;
        }
        let mut best: Option<(f64, usize)> = None;
        for (i, g) in self.guards.iter().enumerate() {
            if !g.alive() {
                continue;
            }
            let (dx, dy) = (g.x - self.player.x, g.y - self.player.y);
            let d = libm::sqrt(dx * dx + dy * dy);
            let off = wrap(libm::atan2(dy, dx) - self.player.angle);
            if d <= range
                && off.abs() <= hit_cone(d)
                && self.visible(g)
                && best.is_none_or(|(bd, _)| d < bd)
            {
                best = Some((d, i));
            }
        }
        let Some((d, i)) = best else { return };
        let chance = if pistol {
            (1.0 - (d - 4.0).max(0.0) / 16.0).max(0.5)
        } else {
            1.0
        };
        if !self.rng.chance(chance) {
            self.alert(i);
            return;
        }
        let mut damage = if pistol {
            self.rng.range_i32(14, 30)
        } else {
            self.rng.range_i32(10, 25)
        };
        if pistol && d < 2.0 {
            damage += 8;
        }
        if pistol {
            self.shots_hit += 1;
        }
        self.alert(i);
        let g = &mut self.guards[i];
        g.hp -= damage;
        if g.hp <= 0 {
            g.hp = 0;
            g.state = GuardState::Dying;
            g.timer_ms = 400.0;
            self.kills += 1;
            self.max_kills = self.max_kills.max(self.kills);
            self.score += 100;
            let (x, y) = (g.x, g.y);
            self.pickups.push(Pickup {
                kind: PickupKind::DroppedClip,
                x,
                y,
                taken: false,
            });
            if self.guards.iter().all(|g| !g.alive()) {
                self.terminal = Terminal::ended(Outcome::Success, "every guard is down");
            }
        } else {
            g.state = GuardState::Pain;
            g.timer_ms = 200.0;
        }
    }

    fn update_guard(&mut self, i: usize) {
        let (px, py) = (self.player.x, self.player.y);
        let g = &self.guards[i];
        let (dx, dy) = (px - g.x, py - g.y);
        let d = libm::sqrt(dx * dx + dy * dy);
        let bearing = libm::atan2(dy, dx);
        match g.state {
            GuardState::Dead => {}
            GuardState::Dying => {
                let g = &mut self.guards[i];
                g.timer_ms -= TICK_MS as f64;
                if g.timer_ms <= 0.0 {
                    g.state = GuardState::Dead;
                }
            }
            GuardState::Pain => {
                let g = &mut self.guards[i];
                g.timer_ms -= TICK_MS as f64;
                if g.timer_ms <= 0.0 {
                    g.state = GuardState::Chase;
                }
            }
            GuardState::Stand => {
                let in_view = wrap(bearing - g.facing).abs() <= 100f64.to_radians();
                if d < 1.6 || (d < GUARD_SIGHT && in_view && self.visible(g)) {
                    self.alert(i);
                }
            }
            GuardState::Aim => {
                let visible = self.visible(g);
                let g = &mut self.guards[i];
                g.facing = bearing;
                g.timer_ms -= TICK_MS as f64;
                if g.timer_ms > 0.0 {
                    return;
                }
                g.state = GuardState::Chase;
                g.cooldown_ms = self.rng.range_f64(900.0, 1800.0);
                if visible && d <= GUARD_RANGE {
                    let chance = (0.9 - d * 0.06).clamp(0.25, 0.9);
                    if self.rng.chance(chance) {
                        let mut damage = self.rng.range_i32(5, 14);
                        if d < 2.0 {
                            damage += 5;
                        }
                        self.health -= damage;
                        self.damage_taken += damage as u32;
                        self.last_hurt_ms = Some(self.game_time_ms);
                    }
                }
            }
            GuardState::Chase => {
                let visible = d <= GUARD_RANGE && self.visible(g);
                let g = &mut self.guards[i];
                g.cooldown_ms -= TICK_MS as f64;
                if visible && g.cooldown_ms <= 0.0 {
                    g.state = GuardState::Aim;
                    g.timer_ms = 300.0;
                    g.facing = bearing;
                    return;
                }
                if d > 1.2 {
                    self.walk_guard(i);
                }
            }
        }
    }

    /// Move a chasing guard one tick along the chase field.
    fn walk_guard(&mut self, i: usize) {
        let here = self.guards[i].tile();
        let target = match self.guards[i].target {
            Some(t) => t,
            None => {
                let d_here = self.field_at(here);
                let mut best = None;
                for (dc, dr) in NEIGHBOURS {
                    let n = (here.0 + dc, here.1 + dr);
                    let dn = self.field_at(n);
                    let taken = self.guards.iter().enumerate().any(|(j, o)| {
                        j != i && o.alive() && (o.tile() == n || o.target == Some(n))
                    });
                    if dn < d_here && !taken && best.is_none_or(|(bd, _)| dn < bd) {
                        best = Some((dn, n));
                    }
                }
                match best {
                    Some((_, n)) => {
                        self.guards[i].target = Some(n);
                        n
                    }
                    None => return,
                }
            }
        };
        if !self.grid.walkable(target.0, target.1) {
            if let Some(door) = self.door_index(target.0, target.1) {
                self.start_opening(door, false);
                return;
            }
            self.guards[i].target = None;
            return;
        }
        let g = &mut self.guards[i];
        let (tx, ty) = (target.0 as f64 + 0.5, target.1 as f64 + 0.5);
        let (dx, dy) = (tx - g.x, ty - g.y);
        let d = libm::sqrt(dx * dx + dy * dy);
        let step = GUARD_SPEED * DT;
        g.walk_phase += step;
        if d <= step {
            g.x = tx;
            g.y = ty;
            g.target = None;
        } else {
            g.x += dx / d * step;
            g.y += dy / d * step;
            g.facing = libm::atan2(dy, dx);
        }
    }

    fn field_at(&self, (c, r): (i32, i32)) -> u32 {
        if c < 0 || r < 0 || c >= SIZE as i32 || r >= SIZE as i32 {
            return u32::MAX;
        }
        self.field[r as usize * SIZE + c as usize]
    }

    fn die(&mut self) {
        self.deaths += 1;
        self.lives -= 1;
        self.held = Held::default();
        if self.lives <= 0 {
            self.lives = 0;
            self.health = 0;
            self.terminal = Terminal::ended(Outcome::Fail, "out of lives");
            return;
        }
        let (x, y, angle) = self.layout.start;
        self.player = Player { x, y, angle };
        self.health = START_HEALTH;
        self.ammo = START_AMMO;
        for g in self.guards.iter_mut().filter(|g| g.alive()) {
            (g.x, g.y, g.facing) = g.post;
            g.state = GuardState::Stand;
            g.alerted = false;
            g.target = None;
            g.hp = GUARD_HP;
        }
        self.field_tile = (-1, -1);
    }

    fn tick(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        let turn = (self.held.right as i32 - self.held.left as i32) as f64;
        self.player.angle = wrap(self.player.angle + turn * TURN_RATE * DT);
        let walk = if self.held.forward && !self.held.back {
            MOVE_SPEED
        } else if self.held.back && !self.held.forward {
            -BACK_SPEED
        } else {
            0.0
        };
        if walk != 0.0 {
            self.move_player(walk * DT);
        }
        for i in 0..self.doors.len() {
            if self.doors[i].opening {
                let d = &mut self.doors[i];
                d.open = (d.open + TICK_MS as f64 / DOOR_OPEN_MS).min(1.0);
                if d.open >= 1.0 {
                    d.opening = false;
                }
                self.sync_door(i);
            }
        }
        self.pickup_items();
        let tile = self.player_tile();
        if tile != self.field_tile {
            self.field = self.distances(tile, false);
            self.field_tile = tile;
        }
        for i in 0..self.guards.len() {
            self.update_guard(i);
            if self.terminal.is_terminal {
                return;
            }
        }
        if self.health <= 0 {
            self.die();
        }
    }
}

// ---- rendering -----------------------------------------------------------

const VIEW: Viewport = Viewport {
    x: 0,
    y: 56,
    w: 1280,
    h: 664,
};

impl Wolf3d {
    fn sprites(&self) -> Vec<Sprite> {
        let mut out = Vec::new();
        for p in self.pickups.iter().filter(|p| !p.taken) {
            let tex = match p.kind {
                PickupKind::Clip | PickupKind::DroppedClip => art::CLIP,
                PickupKind::FirstAid => art::FIRST_AID,
                PickupKind::Food => art::FOOD,
            };
            out.push(Sprite {
                x: p.x,
                y: p.y,
                tex,
                width: 1.0,
                height: 1.0,
            });
        }
        for g in &self.guards {
            let tex = match g.state {
                GuardState::Dead | GuardState::Dying => art::GUARD_DEAD,
                GuardState::Pain => art::GUARD_PAIN,
                GuardState::Aim if g.timer_ms < 120.0 => art::GUARD_SHOOT,
                GuardState::Chase if (g.walk_phase * 2.0) as i64 % 2 == 1 => art::GUARD_WALK,
                _ => art::GUARD_STAND,
            };
            out.push(Sprite {
                x: g.x,
                y: g.y,
                tex,
                width: 1.0,
                height: 1.0,
            });
        }
        out
    }

    fn draw_weapon(&self, pm: &mut Pixmap) {
        let cx = 640.0;
        let base = 720.0;
        let firing = self
            .last_attack_ms
            .is_some_and(|t| self.game_time_ms < t + 120);
        if self.ammo > 0 {
            if firing {
                draw::circle(pm, cx, base - 250.0, 34.0, rgba(255, 210, 80, 230));
                draw::circle(pm, cx, base - 250.0, 16.0, rgb(255, 255, 220));
            }
            // Hand, grip and barrel of the pistol.
            draw::polygon(
                pm,
                &[
                    (cx - 60.0, base),
                    (cx - 40.0, base - 120.0),
                    (cx + 40.0, base - 120.0),
                    (cx + 70.0, base),
                ],
                rgb(214, 162, 120),
            );
            draw::rect(pm, cx - 34.0, base - 200.0, 68.0, 100.0, rgb(52, 52, 58));
            draw::rect(pm, cx - 22.0, base - 232.0, 44.0, 40.0, rgb(70, 70, 78));
            draw::rect(pm, cx - 6.0, base - 232.0, 12.0, 20.0, rgb(20, 20, 24));
        } else {
            let lift = if firing { 60.0 } else { 0.0 };
            draw::polygon(
                pm,
                &[
                    (cx + 40.0, base - 150.0 - lift),
                    (cx + 56.0, base - 290.0 - lift),
                    (cx + 72.0, base - 150.0 - lift),
                ],
                rgb(200, 204, 212),
            );
            draw::polygon(
                pm,
                &[
                    (cx + 10.0, base),
                    (cx + 30.0, base - 150.0 - lift),
                    (cx + 90.0, base - 150.0 - lift),
                    (cx + 110.0, base),
                ],
                rgb(214, 162, 120),
            );
        }
        // Crosshair.
        let (mx, my) = (640.0, VIEW.y as f32 + VIEW.h as f32 / 2.0);
        draw::rect(pm, mx - 10.0, my - 1.0, 7.0, 2.0, rgba(255, 255, 255, 200));
        draw::rect(pm, mx + 3.0, my - 1.0, 7.0, 2.0, rgba(255, 255, 255, 200));
        draw::rect(pm, mx - 1.0, my - 10.0, 2.0, 7.0, rgba(255, 255, 255, 200));
        draw::rect(pm, mx - 1.0, my + 3.0, 2.0, 7.0, rgba(255, 255, 255, 200));
    }
}

impl Game for Wolf3d {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.ambush = config.options.get("start").and_then(Value::as_str) == Some("ambush");
        self.max_kills = 0;
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.build();
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let r3 = |v: f64| (v * 1000.0).round() / 1000.0;
        let total = self.guards.len() as u32;
        let (pc, pr) = self.player_tile();
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", 1);
        set(
            &mut s.game_state,
            "completion_progress",
            r3(self.kills as f64 / total.max(1) as f64),
        );
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r3(self.player.x), "y": r3(self.player.y),
                "angle_deg": r3(self.player.angle.to_degrees()),
                "tile": [pc, pr],
                "health": self.health, "ammo": self.ammo, "lives": self.lives,
                "weapon": if self.ammo > 0 { "pistol" } else { "knife" },
            }),
        );
        let guards: Vec<Value> = self
            .guards
            .iter()
            .enumerate()
            .map(|(i, g)| {
                json!({
                    "id": i, "type": "guard", "x": r3(g.x), "y": r3(g.y),
                    "state": g.state.name(), "hp": g.hp, "alerted": g.alerted,
                    "visible": g.alive() && self.visible(g),
                })
            })
            .collect();
        let pickups: Vec<Value> = self
            .pickups
            .iter()
            .filter(|p| !p.taken)
            .map(|p| json!({"type": p.kind.name(), "x": r3(p.x), "y": r3(p.y)}))
            .collect();
        let doors: Vec<Value> = self
            .doors
            .iter()
            .map(|d| json!({"tile": [d.c, d.r], "open": r3(d.open)}))
            .collect();
        set(
            &mut s.game_state,
            "entities",
            json!({"guards": guards, "pickups": pickups}),
        );
        set(&mut s.game_state, "doors", json!(doors));
        set(&mut s.metrics, "kills", self.kills);
        set(&mut s.metrics, "max_kills", self.max_kills);
        set(&mut s.metrics, "total_monsters", total);
        set(&mut s.metrics, "primary_score", self.kills);
        set(&mut s.metrics, "health", self.health);
        set(&mut s.metrics, "ammo", self.ammo);
        set(&mut s.metrics, "lives", self.lives);
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "shots_fired", self.shots_fired);
        set(&mut s.metrics, "shots_hit", self.shots_hit);
        set(&mut s.metrics, "knife_attacks", self.knife_attacks);
        set(&mut s.metrics, "damage_taken", self.damage_taken);
        set(&mut s.metrics, "doors_opened", self.doors_opened);
        set(&mut s.metrics, "pickups_collected", self.pickups_collected);
        set(
            &mut s.metrics,
            "guards_alerted",
            self.guards
                .iter()
                .filter(|g| g.alerted && g.alive())
                .count(),
        );
        let rows: Vec<String> = (0..SIZE as i32)
            .map(|r| {
                (0..SIZE as i32)
                    .map(|c| match self.grid.get(c, r) {
                        Cell::Empty => '.',
                        Cell::Wall { .. } => '#',
                        Cell::Door { .. } => 'D',
                    })
                    .collect()
            })
            .collect();
        set(&mut s.raw, "map", json!(rows));
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "start_room", self.layout.start_room);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let Some((key, down)) = event.key_change() else {
            return;
        };
        match key {
            "ArrowUp" => self.held.forward = down,
            "ArrowDown" => self.held.back = down,
            "ArrowLeft" => self.held.left = down,
            "ArrowRight" => self.held.right = down,
            "x" | "X" if down && !self.terminal.is_terminal => self.attack(),
            "Space" if down && !self.terminal.is_terminal => {
                if let Some(i) = self.door_in_front() {
                    self.start_opening(i, true);
                }
            }
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        let cam = Camera::new(self.player.x, self.player.y, self.player.angle, FOV);
        let sprites = self.sprites();
        {
            let stride = pm.width() as usize;
            let mut scratch = self.scratch.borrow_mut();
            let data = pm.data_mut();
            let scene = raycast::Scene {
                grid: &self.grid,
                cam: &cam,
                textures: art::walls(),
                ceiling: [56, 56, 60, 255],
                floor: [112, 112, 112, 255],
            };
            raycast::render_walls(data, stride, &VIEW, &scene, &mut scratch);
            raycast::render_sprites(
                data,
                stride,
                &VIEW,
                &cam,
                &sprites,
                art::sprites(),
                &mut scratch,
            );
        }
        if self
            .last_hurt_ms
            .is_some_and(|t| self.game_time_ms < t + 250)
        {
            draw::rect(
                pm,
                0.0,
                VIEW.y as f32,
                1280.0,
                VIEW.h as f32,
                rgba(200, 0, 0, 80),
            );
        }
        self.draw_weapon(pm);
        // Nothing drawn above reaches the bar (the view starts under it).
        static BAR: OnceLock<Pixmap> = OnceLock::new();
        draw::hud_cached(
            pm,
            &BAR,
            "Wolfenstein 3D",
            &[
                ("Lives", self.lives.to_string()),
                ("Health", format!("{}%", self.health.max(0))),
                ("Ammo", self.ammo.to_string()),
                ("Kills", self.kills.to_string()),
            ],
        );
        let weapon = if self.ammo > 0 { "PISTOL" } else { "KNIFE" };
        draw::text(
            pm,
            weapon,
            1260.0,
            680.0,
            22.0,
            rgb(250, 214, 90),
            Align::Right,
        );
        draw::end_banner(
            pm,
            &self.terminal,
            "FLOOR CLEARED",
            &format!("{} guards down", self.kills),
        );
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self)})
    }
}
