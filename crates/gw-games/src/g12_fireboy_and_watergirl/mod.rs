//! 12_fireboy-and-watergirl — a cooperative puzzle-platformer for two
//! agents. Watergirl (w a d) and Fireboy (ArrowUp ArrowLeft ArrowRight)
//! share one temple (levels 1–4 in `levels/`, parsed with
//! [`crate::tilemap`], moved with [`crate::platform`]).
//!
//! Fire pools kill Watergirl, water pools kill Fireboy, green goo kills
//! both; each character walks safely through its own element. Red diamonds
//! are Fireboy's, blue ones Watergirl's: only that character picks them up.
//! Levers latch on when pushed to the right; buttons hold while a character
//! or a box stands on them. A switch drives the mechanisms with its id:
//! gates (numbered blocks in the level data) slide out of the way, lifts
//! (`_` slabs, half a tile thick) travel to their other end (`@lift ID DX
//! DY`) and come back when the switch goes off. A lift carries what stands
//! on it, is solid from every side, and waits rather than crush anyone
//! (the shared [`platform::move_carrier`]). Boxes (`X`, a tile tall) fall,
//! are pushed at 2.5 tiles/s by a character walking into their side, stop at
//! walls, lifts, boxes and characters, and can be stood on; a box rests on
//! a pool's surface like on a floor (a character standing on it is safe).
//! The level is complete when each character stands in its own door. A
//! death ends the episode.
//!
//! Level format (`levels/N.txt`): `#` wall, `F`/`W`/`G` fire/water/goo
//! pool, `r`/`b` red/blue diamond slot, `R`/`B` doors, `f`/`w` starts, `L`
//! lever, `P` button, `1`-`9` gate blocks, `_` lift at its rest end, `X`
//! box; meta lines `; @diamonds WATER FIRE`, `; @gate ID`, `; @lever ID` /
//! `; @button ID` (in reading order of the `L`/`P` tiles), `; @lift ID DX
//! DY` (in reading order of the lifts).
//!
//! Seeds choose which of a level's diamond slots hold diamonds (the count
//! per colour is the level's `@diamonds`), so the routes differ per seed.
//!
//! Tuned for 0.2 s steps: a character walks 5 tiles/s (one tile a step), a jump is 3.6 tiles
//! high; physics runs in fixed 10 ms ticks.
//!
//! State: `game_state.{score, level, completion_progress, diamonds.{fireboy,
//! watergirl}.{collected,total}, fireboy, watergirl, player, board,
//! entities.{diamonds, switches, gates, lifts (x, y, target_x, target_y,
//! on, moving), boxes (x, y)}}`, `metrics.{coins, coins_total, fireboy_distance_to_goal,
//! watergirl_distance_to_goal, deaths}`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb};
use crate::platform::{self, Aabb, Body, Collider, JumpAssist, Solidity};
use crate::round2;
use crate::tilemap::TileMap;
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "12_fireboy-and-watergirl";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;
pub const WALK_SPEED: f64 = 5.0;
pub const GRAVITY: f64 = 45.0;
pub const JUMP_SPEED: f64 = 18.0;
const MAX_FALL: f64 = 22.0;
/// Gates slide this fraction of their travel per second.
const GATE_RATE: f64 = 5.0;
/// Lifts travel this many tiles per second.
pub const LIFT_SPEED: f64 = 4.0;
/// A lift's thickness: a slab in the top half of its cells.
pub const LIFT_H: f64 = 0.5;
/// A box is one tile tall and a little narrower than a tile.
pub const BOX_W: f64 = 0.96;
pub const BOX_H: f64 = 1.0;
/// A character pushing a box walks at this speed.
pub const PUSH_SPEED: f64 = 2.5;
pub const HERO_W: f64 = 0.7;
pub const HERO_H: f64 = 1.6;
const TILE_PX: f32 = 32.0;
const TOP_PX: f32 = 64.0;
pub const LEVELS: u32 = 4;

const LEVEL_TEXT: [&str; 4] = [
    include_str!("levels/1.txt"),
    include_str!("levels/2.txt"),
    include_str!("levels/3.txt"),
    include_str!("levels/4.txt"),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Hero {
    Watergirl = 0,
    Fireboy = 1,
}

impl Hero {
    pub const BOTH: [Hero; 2] = [Hero::Watergirl, Hero::Fireboy];
    pub fn name(self) -> &'static str {
        match self {
            Hero::Watergirl => "watergirl",
            Hero::Fireboy => "fireboy",
        }
    }
    pub fn from_role(role: &str) -> Option<Hero> {
        Hero::BOTH.into_iter().find(|h| h.name() == role)
    }
    /// (left, right, jump) keys.
    fn keys(self) -> [&'static str; 3] {
        match self {
            Hero::Watergirl => ["a", "d", "w"],
            Hero::Fireboy => ["ArrowLeft", "ArrowRight", "ArrowUp"],
        }
    }
    /// The pool tile this character survives.
    fn own_pool(self) -> u8 {
        match self {
            Hero::Watergirl => b'W',
            Hero::Fireboy => b'F',
        }
    }
    fn door(self) -> u8 {
        match self {
            Hero::Watergirl => b'B',
            Hero::Fireboy => b'R',
        }
    }
    fn start(self) -> u8 {
        match self {
            Hero::Watergirl => b'w',
            Hero::Fireboy => b'f',
        }
    }
}

/// Whether standing on `tile` kills `hero`.
pub fn deadly(tile: u8, hero: Hero) -> bool {
    matches!(tile, b'F' | b'W' | b'G') && tile != hero.own_pool()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwitchKind {
    Lever,
    Button,
}

/// A lever or button and the gate it drives.
#[derive(Clone, Debug, PartialEq)]
pub struct Switch {
    pub kind: SwitchKind,
    pub x: i64,
    pub y: i64,
    pub gate: u8,
    pub on: bool,
}

/// Blocks that slide away while their switch is on.
#[derive(Clone, Debug, PartialEq)]
pub struct Gate {
    pub id: u8,
    pub cells: Vec<(i64, i64)>,
    /// 0 = closed (solid), 1 = open (passable).
    pub open: f64,
}

impl Gate {
    pub fn solid(&self) -> bool {
        self.open < 1.0
    }
}

/// A moving platform: a slab that slides between its home position and
/// home + `travel` while a switch driving its id is on, carrying whatever
/// stands on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Lift {
    pub id: u8,
    pub aabb: Aabb,
    /// Top-left corner at rest (switch off).
    pub home: (f64, f64),
    /// Offset to the other end (switch on), tiles.
    pub travel: (f64, f64),
    /// Position along the track: 0 home, 1 the other end.
    pub t: f64,
    /// Heading for the other end (a switch drives it).
    pub on: bool,
    /// Moved during the last tick.
    pub moving: bool,
}

impl Lift {
    fn length(&self) -> f64 {
        self.travel.0.abs() + self.travel.1.abs()
    }
    /// Top-left corner at track position `t`.
    pub fn at(&self, t: f64) -> (f64, f64) {
        (
            self.home.0 + t * self.travel.0,
            self.home.1 + t * self.travel.1,
        )
    }
}

/// A pushable box: falls, rests on floors, pools, lifts and other boxes, and
/// slides (slower than walking) when a character walks into its side.
#[derive(Clone, Debug, PartialEq)]
pub struct PushBox {
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Gem {
    pub hero: Hero,
    pub x: i64,
    pub y: i64,
    pub taken: bool,
}

/// One level as parsed from its data file.
#[derive(Clone, Debug)]
pub struct LevelData {
    /// Walls and pools only (entities removed).
    pub map: TileMap,
    pub gem_slots: Vec<(Hero, i64, i64)>,
    pub diamonds: [usize; 2],
    pub starts: [(i64, i64); 2],
    pub doors: [(i64, i64); 2],
    pub switches: Vec<Switch>,
    pub gates: Vec<Gate>,
    pub lifts: Vec<Lift>,
    pub boxes: Vec<PushBox>,
}

fn meta_numbers(text: &str, key: &str) -> Vec<Vec<i64>> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("; @"))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            (words.next() == Some(key)).then(|| words.filter_map(|w| w.parse().ok()).collect())
        })
        .collect()
}

pub fn parse_level(text: &str) -> Result<LevelData, String> {
    let mut map = TileMap::parse(text)?;
    let diamonds = meta_numbers(text, "diamonds");
    let diamonds = match diamonds.first().map(|d| d.as_slice()) {
        Some([w, f]) => [*w as usize, *f as usize],
        _ => return Err("level lacks `; @diamonds WATER FIRE`".into()),
    };
    let mut gem_slots = Vec::new();
    let mut switches = Vec::new();
    let mut gates: Vec<Gate> = meta_numbers(text, "gate")
        .iter()
        .filter_map(|g| g.first())
        .map(|&id| Gate {
            id: id as u8,
            cells: Vec::new(),
            open: 0.0,
        })
        .collect();
    let levers: Vec<u8> = meta_numbers(text, "lever")
        .concat()
        .iter()
        .map(|&g| g as u8)
        .collect();
    let buttons: Vec<u8> = meta_numbers(text, "button")
        .concat()
        .iter()
        .map(|&g| g as u8)
        .collect();
    let lift_lines = meta_numbers(text, "lift");
    let tiles = map.clone();
    let mut lifts = Vec::new();
    let mut boxes = Vec::new();
    let (mut lever_i, mut button_i) = (0, 0);
    let mut starts = [None; 2];
    let mut doors = [None; 2];
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            let t = map.at(x, y, b'#');
            let mut clear = true;
            match t {
                b'r' => gem_slots.push((Hero::Fireboy, x, y)),
                b'X' => {
                    let bx = x as f64 + (1.0 - BOX_W) / 2.0;
                    let mut body = Body::new(bx, y as f64 + 1.0 - BOX_H, BOX_W, BOX_H);
                    body.on_ground = true;
                    boxes.push(PushBox { body });
                }
                b'_' if tiles.at(x - 1, y, b'#') != b'_' => {
                    let mut w = 1;
                    while tiles.at(x + w, y, b'#') == b'_' {
                        w += 1;
                    }
                    let line = lift_lines.get(lifts.len()).ok_or_else(|| {
                        format!("lift at ({x}, {y}) has no `; @lift ID DX DY` line")
                    })?;
                    let &[id, dx, dy] = line.as_slice() else {
                        return Err(format!(
                            "lift at ({x}, {y}): write `; @lift ID DX DY` (three integers)"
                        ));
                    };
                    let home = (x as f64, y as f64);
                    lifts.push(Lift {
                        id: id as u8,
                        aabb: Aabb::new(home.0, home.1, w as f64, LIFT_H),
                        home,
                        travel: (dx as f64, dy as f64),
                        t: 0.0,
                        on: false,
                        moving: false,
                    });
                }
                b'_' => {}
                b'b' => gem_slots.push((Hero::Watergirl, x, y)),
                b'L' | b'P' => {
                    let (kind, list, i) = if t == b'L' {
                        (SwitchKind::Lever, &levers, &mut lever_i)
                    } else {
                        (SwitchKind::Button, &buttons, &mut button_i)
                    };
                    let gate = *list.get(*i).ok_or_else(|| {
                        format!("switch at ({x}, {y}) has no @lever/@button gate")
                    })?;
                    *i += 1;
                    switches.push(Switch {
                        kind,
                        x,
                        y,
                        gate,
                        on: false,
                    });
                }
                b'1'..=b'9' => {
                    let id = t - b'0';
                    let g = gates
                        .iter_mut()
                        .find(|g| g.id == id)
                        .ok_or_else(|| format!("block {id} at ({x}, {y}) has no `; @gate {id}`"))?;
                    g.cells.push((x, y));
                }
                _ => {
                    clear = false;
                    for h in Hero::BOTH {
                        if t == h.start() {
                            starts[h as usize] = Some((x, y));
                            clear = true;
                        } else if t == h.door() {
                            doors[h as usize] = Some((x, y));
                            clear = true;
                        }
                    }
                }
            }
            if clear {
                map.set(x, y, b'.');
            }
        }
    }
    let need = |o: [Option<(i64, i64)>; 2], what: &str| -> Result<[(i64, i64); 2], String> {
        match o {
            [Some(a), Some(b)] => Ok([a, b]),
            _ => Err(format!("level lacks a {what} for each character")),
        }
    };
    for h in Hero::BOTH {
        let slots = gem_slots.iter().filter(|g| g.0 == h).count();
        if slots < diamonds[h as usize] {
            return Err(format!(
                "{}: {} diamonds but {slots} slots",
                h.name(),
                diamonds[h as usize]
            ));
        }
    }
    for s in &switches {
        if !gates.iter().any(|g| g.id == s.gate) && !lifts.iter().any(|l| l.id == s.gate) {
            return Err(format!(
                "switch at ({}, {}) drives {}, which is neither a `; @gate` nor a `; @lift` id",
                s.x, s.y, s.gate
            ));
        }
    }
    Ok(LevelData {
        map,
        gem_slots,
        diamonds,
        starts: need(starts, "start")?,
        doors: need(doors, "door")?,
        switches,
        gates,
        lifts,
        boxes,
    })
}

pub fn level_data(level: u32) -> &'static LevelData {
    static LEVELS_DATA: std::sync::OnceLock<Vec<LevelData>> = std::sync::OnceLock::new();
    let all = LEVELS_DATA.get_or_init(|| {
        LEVEL_TEXT
            .iter()
            .enumerate()
            .map(|(i, t)| parse_level(t).unwrap_or_else(|e| panic!("level {}: {e}", i + 1)))
            .collect()
    });
    &all[(level.clamp(1, LEVELS) - 1) as usize]
}

fn collider(map: &TileMap) -> Collider<'_, fn(u8) -> Solidity> {
    Collider {
        map,
        kind: solidity as fn(u8) -> Solidity,
        outside: b'#',
        step_up: 0.0,
    }
}

fn solidity(t: u8) -> Solidity {
    match t {
        b'#' | b'F' | b'W' | b'G' | b'=' => Solidity::Solid,
        _ => Solidity::Empty,
    }
}

#[derive(Clone, Debug)]
pub struct Character {
    pub hero: Hero,
    pub body: Body,
    pub jump: JumpAssist,
    held: [bool; 3],
    /// Walking into a box's side this tick (walks at the push speed).
    pushing: bool,
    pub alive: bool,
    pub at_door: bool,
    pub collected: u32,
    /// The standing cell (column, row of the body's lower half) last time
    /// the character stood on something.
    pub last_ground: (i64, i64),
}

impl Character {
    fn new(hero: Hero, start: (i64, i64)) -> Self {
        let x = start.0 as f64 + 0.5 - HERO_W / 2.0;
        let y = start.1 as f64 + 1.0 - HERO_H;
        let mut body = Body::new(x, y, HERO_W, HERO_H);
        body.on_ground = true;
        Character {
            hero,
            body,
            jump: JumpAssist::new(0.08, 0.12),
            held: [false; 3],
            pushing: false,
            alive: true,
            at_door: false,
            collected: 0,
            last_ground: start,
        }
    }
    /// The cell of the body's feet (column of its centre).
    pub fn cell(&self) -> (i64, i64) {
        let a = &self.body.aabb;
        (
            a.center_x().floor() as i64,
            (a.bottom() - 0.01).floor() as i64,
        )
    }
}

/// The simulation: everything the expert may copy and step forward.
#[derive(Clone, Debug)]
pub struct World {
    pub level: u32,
    /// Walls, pools and the gates that are solid now (`=`).
    pub map: TileMap,
    /// The level's walls and pools with every gate open.
    pub base: TileMap,
    pub chars: [Character; 2],
    pub gems: Vec<Gem>,
    pub switches: Vec<Switch>,
    pub gates: Vec<Gate>,
    pub lifts: Vec<Lift>,
    pub boxes: Vec<PushBox>,
    pub doors: [(i64, i64); 2],
    pub terminal: Terminal,
    pub game_time_ms: u64,
    clock: FixedStep,
}

impl World {
    pub fn new(level: u32, seed: u64, episode: u32) -> World {
        World::from_data(level, level_data(level), seed, episode)
    }

    /// A world on any parsed level (`level` is only the number shown).
    pub fn from_data(level: u32, data: &LevelData, seed: u64, episode: u32) -> World {
        let mut rng = Rng::new(seed, 0x12F0_0000 + episode as u64);
        let mut gems = Vec::new();
        for h in Hero::BOTH {
            let mut slots: Vec<(i64, i64)> = data
                .gem_slots
                .iter()
                .filter(|g| g.0 == h)
                .map(|g| (g.1, g.2))
                .collect();
            // Drop random slots until the level's count is left.
            while slots.len() > data.diamonds[h as usize] {
                let i = rng.index(slots.len());
                slots.remove(i);
            }
            gems.extend(slots.into_iter().map(|(x, y)| Gem {
                hero: h,
                x,
                y,
                taken: false,
            }));
        }
        let mut w = World {
            level,
            map: data.map.clone(),
            base: data.map.clone(),
            chars: [
                Character::new(Hero::Watergirl, data.starts[0]),
                Character::new(Hero::Fireboy, data.starts[1]),
            ],
            gems,
            switches: data.switches.clone(),
            gates: data.gates.clone(),
            lifts: data.lifts.clone(),
            boxes: data.boxes.clone(),
            doors: data.doors,
            terminal: Terminal::running(),
            game_time_ms: 0,
            clock: FixedStep::new(TICK_MS),
        };
        w.stamp_gates();
        w
    }

    fn stamp_gates(&mut self) {
        let base = &self.base;
        for g in &self.gates {
            for &(x, y) in &g.cells {
                let t = if g.solid() { b'=' } else { base.at(x, y, b'#') };
                self.map.set(x, y, t);
            }
        }
    }

    pub fn score(&self) -> u32 {
        self.chars.iter().map(|c| c.collected).sum()
    }

    pub fn key(&mut self, key: &str, down: bool) {
        for c in self.chars.iter_mut() {
            for (i, k) in c.hero.keys().iter().enumerate() {
                if key.eq_ignore_ascii_case(k) {
                    if i == 2 && down && !c.held[2] {
                        c.jump.press();
                    }
                    c.held[i] = down;
                }
            }
        }
    }

    pub fn advance(&mut self, ms: u64) {
        self.game_time_ms += ms;
        let ticks = self.clock.ticks(ms);
        for _ in 0..ticks {
            if self.terminal.is_terminal {
                self.clock.clear();
                break;
            }
            self.tick();
        }
    }

    /// Lifts head for the end their switches ask for, carrying riders; a
    /// lift that would crush someone or run into a body waits.
    fn move_lifts(&mut self) {
        let collider = collider(&self.map);
        for li in 0..self.lifts.len() {
            let l = &mut self.lifts[li];
            l.on = self.switches.iter().any(|s| s.gate == l.id && s.on);
            l.moving = false;
            let goal = if l.on { 1.0 } else { 0.0 };
            let step = LIFT_SPEED * DT / l.length().max(1e-9);
            let t = if l.t < goal {
                (l.t + step).min(goal)
            } else {
                (l.t - step).max(goal)
            };
            if t == l.t {
                continue;
            }
            let others: Vec<Aabb> = (0..self.lifts.len())
                .filter(|&j| j != li)
                .map(|j| self.lifts[j].aabb)
                .collect();
            let l = &mut self.lifts[li];
            let (nx, ny) = l.at(t);
            let (dx, dy) = (nx - l.aabb.x, ny - l.aabb.y);
            let blocked = |a: &Aabb| collider.hits_solid(a) || others.iter().any(|o| o.overlaps(a));
            let mut bodies: Vec<&mut Body> = self
                .chars
                .iter_mut()
                .map(|c| &mut c.body)
                .chain(self.boxes.iter_mut().map(|b| &mut b.body))
                .collect();
            if platform::move_carrier(&mut l.aabb, dx, dy, &mut bodies, blocked) {
                l.t = t;
                (l.aabb.x, l.aabb.y) = (nx, ny);
                l.moving = true;
            }
        }
    }

    /// Characters walking into a box's side push it (it carries what stands
    /// on it and stops at walls, lifts, other boxes and characters); then
    /// boxes fall.
    fn move_boxes(&mut self) {
        let collider = collider(&self.map);
        let lifts: Vec<Aabb> = self.lifts.iter().map(|l| l.aabb).collect();
        for ci in 0..self.chars.len() {
            let c = &mut self.chars[ci];
            let dir = c.held[1] as i32 - c.held[0] as i32;
            c.pushing = false;
            if dir == 0 || !c.body.on_ground {
                continue;
            }
            let a = c.body.aabb;
            let probe = Aabb::new(a.x + dir as f64 * 0.02, a.y + 0.1, a.w, a.h - 0.2);
            let Some(bi) = self.boxes.iter().position(|b| b.body.aabb.overlaps(&probe)) else {
                continue;
            };
            c.pushing = true;
            let (before, rest) = self.boxes.split_at_mut(bi);
            let (pushed, after) = rest.split_first_mut().expect("the box found");
            let mut bodies: Vec<&mut Body> = self
                .chars
                .iter_mut()
                .map(|c| &mut c.body)
                .chain(
                    before
                        .iter_mut()
                        .chain(after.iter_mut())
                        .map(|b| &mut b.body),
                )
                .collect();
            let blocked = |a: &Aabb| collider.hits_solid(a) || lifts.iter().any(|o| o.overlaps(a));
            let dx = dir as f64 * PUSH_SPEED * DT;
            if !platform::move_carrier(&mut pushed.body.aabb, dx, 0.0, &mut bodies, blocked) {
                // Short of a wall: slide the rest of the way to the tile edge.
                let a = pushed.body.aabb;
                let gap = if dir > 0 {
                    a.right().ceil() - a.right()
                } else {
                    a.x.floor() - a.x
                };
                if gap.abs() > 1e-9 && gap.abs() < dx.abs() {
                    platform::move_carrier(&mut pushed.body.aabb, gap, 0.0, &mut bodies, blocked);
                }
            }
        }
        for bi in 0..self.boxes.len() {
            let solids: Vec<Aabb> = lifts
                .iter()
                .copied()
                .chain(
                    (0..self.boxes.len())
                        .filter(|&j| j != bi)
                        .map(|j| self.boxes[j].body.aabb),
                )
                .chain(self.chars.iter().map(|c| c.body.aabb))
                .collect();
            let b = &mut self.boxes[bi].body;
            b.vx = 0.0;
            b.vy = (b.vy + GRAVITY * DT).min(MAX_FALL);
            platform::move_body_among(b, &collider, &solids, DT);
        }
    }

    /// The free-standing solids characters collide with: lifts and boxes.
    fn solids(&self) -> Vec<Aabb> {
        self.lifts
            .iter()
            .map(|l| l.aabb)
            .chain(self.boxes.iter().map(|b| b.body.aabb))
            .collect()
    }

    fn tick(&mut self) {
        self.move_lifts();
        self.move_boxes();
        let solids = self.solids();
        let map = &self.map;
        let collider = collider(map);
        for c in self.chars.iter_mut() {
            let dir = c.held[1] as i32 - c.held[0] as i32;
            let speed = if c.pushing { PUSH_SPEED } else { WALK_SPEED };
            c.body.vx = dir as f64 * speed;
            c.jump.update(c.body.on_ground, DT);
            if c.jump.take() {
                c.body.vy = -JUMP_SPEED;
            }
            c.body.vy = (c.body.vy + GRAVITY * DT).min(MAX_FALL);
            platform::move_body_among(&mut c.body, &collider, &solids, DT);
            if c.body.on_ground {
                c.last_ground = c.cell();
            }
        }
        // Pools under the feet, diamonds, switches, doors.
        let mut died = None;
        for (i, c) in self.chars.iter_mut().enumerate() {
            let a = c.body.aabb;
            if c.body.on_ground {
                let row = (a.bottom() + 0.01).floor() as i64;
                let x0 = (a.x + 0.1).floor() as i64;
                let x1 = (a.right() - 0.1).floor() as i64;
                if (x0..=x1).any(|x| deadly(map.at(x, row, b'#'), c.hero)) {
                    c.alive = false;
                    died.get_or_insert(i);
                }
            }
            for g in self
                .gems
                .iter_mut()
                .filter(|g| !g.taken && g.hero == c.hero)
            {
                let gem = Aabb::new(g.x as f64 + 0.2, g.y as f64 + 0.2, 0.6, 0.6);
                if gem.overlaps(&a) {
                    g.taken = true;
                    c.collected += 1;
                }
            }
            let door = self.doors[i];
            c.at_door = c.body.on_ground
                && c.cell().1 == door.1
                && (a.center_x() - (door.0 as f64 + 0.5)).abs() < 0.5;
        }
        for s in self.switches.iter_mut() {
            let cell = Aabb::new(s.x as f64, s.y as f64, 1.0, 1.0);
            match s.kind {
                SwitchKind::Lever => {
                    if self
                        .chars
                        .iter()
                        .any(|c| c.body.vx > 0.0 && c.body.aabb.overlaps(&cell))
                    {
                        s.on = true;
                    }
                }
                SwitchKind::Button => {
                    let presses = |b: &Body| {
                        b.on_ground
                            && b.aabb.overlaps(&cell)
                            && (b.aabb.bottom() - 0.01).floor() as i64 == s.y
                    };
                    s.on = self.chars.iter().any(|c| presses(&c.body))
                        || self.boxes.iter().any(|b| presses(&b.body));
                }
            }
        }
        let mut changed = false;
        for g in self.gates.iter_mut() {
            let want = self.switches.iter().any(|s| s.gate == g.id && s.on);
            let was_solid = g.solid();
            if want {
                g.open = (g.open + GATE_RATE * DT).min(1.0);
            } else if g.open > 0.0 {
                // A gate does not close on a character or a box.
                let blocked = g.cells.iter().any(|&(x, y)| {
                    let cell = Aabb::new(x as f64, y as f64, 1.0, 1.0);
                    self.chars.iter().any(|c| c.body.aabb.overlaps(&cell))
                        || self.boxes.iter().any(|b| b.body.aabb.overlaps(&cell))
                });
                if !blocked {
                    g.open = (g.open - GATE_RATE * DT).max(0.0);
                }
            }
            changed |= was_solid != g.solid();
        }
        if changed {
            self.stamp_gates();
        }
        if let Some(i) = died {
            let name = self.chars[i].hero.name();
            self.terminal =
                Terminal::ended(Outcome::Fail, format!("{name} fell into a deadly pool"));
        } else if self.chars.iter().all(|c| c.at_door) {
            self.terminal =
                Terminal::ended(Outcome::Success, "both characters reached their doors");
        }
    }
}

pub struct FireboyWatergirl {
    seed: u64,
    level: u32,
    world: World,
    deaths: u32,
    /// The background and the level's tiles as last drawn, with the tiles
    /// they show.
    layer: draw::KeyedLayer<Vec<u8>>,
    /// Doors and gems as drawn on that layer, by [`Fixture`].
    fixtures: draw::Stamps<Fixture>,
}

impl Default for FireboyWatergirl {
    fn default() -> Self {
        Self::new()
    }
}

impl FireboyWatergirl {
    pub fn new() -> Self {
        FireboyWatergirl {
            seed: 0,
            level: 1,
            world: World::new(1, 0, 0),
            deaths: 0,
            layer: draw::KeyedLayer::default(),
            fixtures: draw::Stamps::default(),
        }
    }
    pub fn world(&self) -> &World {
        &self.world
    }

    fn char_json(&self, c: &Character) -> Value {
        let a = &c.body.aabb;
        json!({
            "x": round2(a.x), "y": round2(a.y), "vx": round2(c.body.vx), "vy": round2(c.body.vy),
            "on_ground": c.body.on_ground, "alive": c.alive, "at_door": c.at_door,
            "cell": [c.cell().0, c.cell().1],
        })
    }
}

impl Game for FireboyWatergirl {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level = config.level.unwrap_or(1).clamp(1, LEVELS);
        self.deaths = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        if !self.world.chars.iter().all(|c| c.alive) {
            self.deaths += 1;
        }
        self.world = World::new(self.level, self.seed, episode);
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let mut s = GameApiState::new(
            ID,
            self.seed,
            w.game_time_ms,
            w.terminal.status(),
            w.terminal.clone(),
        );
        let total: usize = w.gems.len();
        let count = |h: Hero| {
            let of: Vec<&Gem> = w.gems.iter().filter(|g| g.hero == h).collect();
            json!({"collected": of.iter().filter(|g| g.taken).count(), "total": of.len()})
        };
        let doors = w.chars.iter().filter(|c| c.at_door).count();
        let completion = (w.score() as f64 + doors as f64) / (total as f64 + 2.0);
        set(&mut s.game_state, "score", w.score());
        set(&mut s.game_state, "level", w.level);
        set(&mut s.game_state, "completion_progress", round2(completion));
        set(
            &mut s.game_state,
            "diamonds",
            json!({"fireboy": count(Hero::Fireboy), "watergirl": count(Hero::Watergirl)}),
        );
        let wg = self.char_json(&w.chars[0]);
        let fb = self.char_json(&w.chars[1]);
        set(&mut s.game_state, "watergirl", wg.clone());
        set(&mut s.game_state, "fireboy", fb.clone());
        set(
            &mut s.game_state,
            "player",
            json!({"watergirl": wg, "fireboy": fb}),
        );
        set(&mut s.game_state, "board", Value::Null);
        let gems: Vec<Value> = w
            .gems
            .iter()
            .map(|g| json!({"kind": format!("{}_diamond", if g.hero == Hero::Fireboy {"red"} else {"blue"}), "x": g.x, "y": g.y, "taken": g.taken}))
            .collect();
        let switches: Vec<Value> = w
            .switches
            .iter()
            .map(|sw| json!({"kind": if sw.kind == SwitchKind::Lever {"lever"} else {"button"}, "x": sw.x, "y": sw.y, "on": sw.on, "gate": sw.gate}))
            .collect();
        let gates: Vec<Value> = w
            .gates
            .iter()
            .map(|g| json!({"id": g.id, "open": round2(g.open), "cells": g.cells}))
            .collect();
        let lifts: Vec<Value> = w
            .lifts
            .iter()
            .map(|l| {
                let target = l.at(if l.on { 1.0 } else { 0.0 });
                json!({"kind": "lift", "id": l.id, "x": round2(l.aabb.x), "y": round2(l.aabb.y),
                       "w": l.aabb.w, "target_x": round2(target.0), "target_y": round2(target.1),
                       "on": l.on, "moving": l.moving})
            })
            .collect();
        let boxes: Vec<Value> = w
            .boxes
            .iter()
            .map(|b| json!({"kind": "box", "x": round2(b.body.aabb.x), "y": round2(b.body.aabb.y)}))
            .collect();
        set(
            &mut s.game_state,
            "entities",
            json!({"diamonds": gems, "switches": switches, "gates": gates, "lifts": lifts, "boxes": boxes}),
        );
        let coins_total = total;
        set(&mut s.metrics, "coins", w.score());
        set(&mut s.metrics, "coins_total", coins_total);
        for (i, c) in w.chars.iter().enumerate() {
            let d = w.doors[i];
            let a = &c.body.aabb;
            let dist = ((a.center_x() - d.0 as f64 - 0.5).powi(2)
                + (a.bottom() - d.1 as f64 - 1.0).powi(2))
            .sqrt();
            set(
                &mut s.metrics,
                &format!("{}_distance_to_goal", c.hero.name()),
                round2(dist),
            );
        }
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.raw, "tick_ms", TICK_MS);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if let Some((key, down)) = event.key_change() {
            self.world.key(key, down);
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.world.advance(dt_ms);
    }

    fn render(&self, pm: &mut Pixmap) {
        render(&self.world, pm, &self.layer, &self.fixtures);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        self.expert_action_for_role(task, Hero::Watergirl.name())
    }

    fn expert_action_for_role(&self, _task: &TaskInfo, role: &str) -> Value {
        let hero = Hero::from_role(role).unwrap_or(Hero::Watergirl);
        json!({"action": expert::choose(&self.world, hero)})
    }
}

const WALL: Rgb = rgb(92, 84, 58);
const WALL_EDGE: Rgb = rgb(128, 118, 80);
const BACK: Rgb = rgb(44, 42, 30);
const FIRE: Rgb = rgb(232, 84, 30);
const WATER: Rgb = rgb(40, 120, 230);
const GOO: Rgb = rgb(70, 190, 60);

fn px(x: f64, y: f64) -> (f32, f32) {
    (x as f32 * TILE_PX, TOP_PX + y as f32 * TILE_PX)
}

/// The tiles [`draw_tiles`] draws: the map's walls and pools (everything
/// else as '.'), its size first.
fn drawn_tiles(map: &TileMap) -> Vec<u8> {
    let mut key = Vec::with_capacity(map.width() * map.height() + 16);
    key.extend((map.width() as u64).to_le_bytes());
    key.extend((map.height() as u64).to_le_bytes());
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            key.push(match map.at(x, y, b'#') {
                t @ (b'#' | b'F' | b'W' | b'G') => t,
                _ => b'.',
            });
        }
    }
    key
}

fn draw_tiles(map: &TileMap, pm: &mut Pixmap) {
    draw::clear(pm, BACK);
    for y in 0..map.height() as i64 {
        for x in 0..map.width() as i64 {
            let (sx, sy) = px(x as f64, y as f64);
            match map.at(x, y, b'#') {
                b'#' => {
                    draw::rect(pm, sx, sy, TILE_PX, TILE_PX, WALL);
                    draw::rect(pm, sx, sy, TILE_PX, 3.0, WALL_EDGE);
                }
                t @ (b'F' | b'W' | b'G') => {
                    let c = match t {
                        b'F' => FIRE,
                        b'W' => WATER,
                        _ => GOO,
                    };
                    draw::rect(pm, sx, sy, TILE_PX, TILE_PX, WALL);
                    draw::rect(pm, sx, sy + 4.0, TILE_PX, 14.0, c);
                }
                _ => {}
            }
        }
    }
}

/// A door (its index) or a gem (its hero) at a tile: what decides its
/// pixels when drawn over the tile layer alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Fixture {
    Door(usize, i64, i64),
    Gem(Hero, i64, i64),
}

/// A box (x0, y0, x1, y1) in pixels.
type Area = (f32, f32, f32, f32);

fn areas_meet(a: Area, b: Area) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Where what is drawn before the doors and gems and can move or change
/// may reach: gates, lifts with their rails, boxes and switches (with
/// margins for outlines, caps and anti-aliasing).
fn moving_areas(w: &World) -> Vec<Area> {
    let mut out = Vec::new();
    for g in &w.gates {
        for &(x, y) in &g.cells {
            let (sx, sy) = px(x as f64, y as f64);
            out.push((sx - 2.0, sy - 2.0, sx + TILE_PX + 2.0, sy + TILE_PX + 2.0));
        }
    }
    for l in &w.lifts {
        let (h, e) = (l.at(0.0), l.at(1.0));
        let (ax, ay) = px(h.0 + l.aabb.w / 2.0, h.1 + LIFT_H / 2.0);
        let (bx, by) = px(e.0 + l.aabb.w / 2.0, e.1 + LIFT_H / 2.0);
        out.push((
            ax.min(bx) - 3.0,
            ay.min(by) - 3.0,
            ax.max(bx) + 3.0,
            ay.max(by) + 3.0,
        ));
        let (sx, sy) = px(l.aabb.x, l.aabb.y);
        let (lw, lh) = (l.aabb.w as f32 * TILE_PX, LIFT_H as f32 * TILE_PX);
        out.push((sx - 3.0, sy - 3.0, sx + lw + 3.0, sy + lh + 3.0));
    }
    for b in &w.boxes {
        let a = &b.body.aabb;
        let (sx, sy) = px(a.x, a.y);
        let (bw, bh) = (a.w as f32 * TILE_PX, a.h as f32 * TILE_PX);
        out.push((sx - 4.0, sy - 4.0, sx + bw + 4.0, sy + bh + 4.0));
    }
    for sw in &w.switches {
        let (sx, sy) = px(sw.x as f64, sw.y as f64);
        out.push((sx - 4.0, sy - 4.0, sx + TILE_PX + 4.0, sy + TILE_PX + 4.0));
    }
    out
}

/// The areas of `fixed` and of `list` except its `i`-th: what a fixture
/// drawn from `list` must not meet.
fn all_but(fixed: &[Area], list: &[Area], i: usize) -> Vec<Area> {
    let rest = list.iter().enumerate().filter(|&(j, _)| j != i);
    fixed.iter().chain(rest.map(|(_, a)| a)).copied().collect()
}

/// Draw `paint` over `area` from `stamps` when nothing in `others` meets
/// it and the area is whole pixels inside the frame; directly otherwise.
fn fixture(
    pm: &mut Pixmap,
    stamps: &draw::Stamps<Fixture>,
    key: Fixture,
    area: Area,
    others: &[Area],
    paint: impl FnOnce(&mut Pixmap),
) {
    let whole = [area.0, area.1, area.2, area.3]
        .iter()
        .all(|v| v.fract() == 0.0 && *v >= 0.0);
    let inside = area.2 <= pm.width() as f32 && area.3 <= pm.height() as f32;
    if whole && inside && !others.iter().any(|&o| areas_meet(area, o)) {
        let region = (
            area.0 as u32,
            area.1 as u32,
            (area.2 - area.0) as u32,
            (area.3 - area.1) as u32,
        );
        stamps.draw(pm, key, region, paint);
    } else {
        paint(pm);
    }
}

fn door_area(d: (i64, i64)) -> Area {
    let (sx, sy) = px(d.0 as f64, d.1 as f64 - 1.0);
    (
        sx - 6.0,
        sy - 10.0,
        sx + TILE_PX + 6.0,
        sy + 2.0 * TILE_PX + 2.0,
    )
}

fn gem_area(g: &Gem) -> Area {
    let (cx, cy) = px(g.x as f64 + 0.5, g.y as f64 + 0.5);
    (cx - 11.0, cy - 13.0, cx + 11.0, cy + 13.0)
}

fn draw_door(pm: &mut Pixmap, i: usize, d: (i64, i64)) {
    let (sx, sy) = px(d.0 as f64, d.1 as f64 - 1.0);
    let c = if i == 0 { WATER } else { FIRE };
    draw::rect(
        pm,
        sx - 4.0,
        sy - 8.0,
        TILE_PX + 8.0,
        2.0 * TILE_PX + 8.0,
        rgb(30, 28, 20),
    );
    draw::rect_outline(
        pm,
        sx - 4.0,
        sy - 8.0,
        TILE_PX + 8.0,
        2.0 * TILE_PX + 8.0,
        3.0,
        c,
    );
    let sym = if i == 0 { "W" } else { "F" };
    draw::text(pm, sym, sx + 16.0, sy + 14.0, 24.0, c, Align::Center);
}

fn draw_gem(pm: &mut Pixmap, g: &Gem) {
    let (cx, cy) = px(g.x as f64 + 0.5, g.y as f64 + 0.5);
    let c = if g.hero == Hero::Fireboy { FIRE } else { WATER };
    draw::polygon(
        pm,
        &[
            (cx, cy - 11.0),
            (cx + 9.0, cy),
            (cx, cy + 11.0),
            (cx - 9.0, cy),
        ],
        c,
    );
    draw::polygon(
        pm,
        &[(cx, cy - 7.0), (cx + 4.0, cy - 1.0), (cx - 4.0, cy - 1.0)],
        rgb(255, 255, 255),
    );
}

fn render(
    w: &World,
    pm: &mut Pixmap,
    layer: &draw::KeyedLayer<Vec<u8>>,
    fixtures: &draw::Stamps<Fixture>,
) {
    // The background and the map's walls and pools, kept while those tiles
    // and the frame size stay the same.
    if layer.draw(pm, drawn_tiles(&w.map), |l| draw_tiles(&w.map, l)) {
        // Other tiles under the doors and gems.
        fixtures.clear();
    }
    // Doors and gems stand still: drawn over the tile layer alone (nothing
    // that moves or changes, and no other door or gem, near them) their
    // pixels come from stamps.
    let mut moving = moving_areas(w);
    let doors: Vec<Area> = w.doors.iter().map(|&d| door_area(d)).collect();
    let gems: Vec<Area> = w.gems.iter().filter(|g| !g.taken).map(gem_area).collect();
    for g in &w.gates {
        let color = rgb(190, 160, 60);
        let slide = g.open as f32 * TILE_PX;
        for &(x, y) in &g.cells {
            let (sx, sy) = px(x as f64, y as f64);
            let h = TILE_PX - slide;
            if h > 0.5 {
                draw::rect(pm, sx + 2.0, sy, TILE_PX - 4.0, h, color);
                draw::rect_outline(pm, sx + 2.0, sy, TILE_PX - 4.0, h, 2.0, rgb(90, 70, 20));
            }
        }
    }
    for l in &w.lifts {
        // The track: a thin rail from end to end, then the slab.
        let (h, e) = (l.at(0.0), l.at(1.0));
        let (ax, ay) = px(h.0 + l.aabb.w / 2.0, h.1 + LIFT_H / 2.0);
        let (bx, by) = px(e.0 + l.aabb.w / 2.0, e.1 + LIFT_H / 2.0);
        draw::line(pm, ax, ay, bx, by, 2.0, rgb(120, 110, 90));
        let (sx, sy) = px(l.aabb.x, l.aabb.y);
        let (lw, lh) = (l.aabb.w as f32 * TILE_PX, LIFT_H as f32 * TILE_PX);
        draw::rect(pm, sx, sy, lw, lh, rgb(150, 120, 200));
        draw::rect_outline(pm, sx, sy, lw, lh, 2.0, rgb(70, 50, 110));
    }
    for b in &w.boxes {
        let a = &b.body.aabb;
        let (sx, sy) = px(a.x, a.y);
        let (bw, bh) = (a.w as f32 * TILE_PX, a.h as f32 * TILE_PX);
        draw::rect(pm, sx, sy, bw, bh, rgb(150, 150, 140));
        draw::rect_outline(pm, sx, sy, bw, bh, 3.0, rgb(80, 80, 72));
        draw::line(
            pm,
            sx + 3.0,
            sy + 3.0,
            sx + bw - 3.0,
            sy + bh - 3.0,
            2.0,
            rgb(80, 80, 72),
        );
        draw::line(
            pm,
            sx + bw - 3.0,
            sy + 3.0,
            sx + 3.0,
            sy + bh - 3.0,
            2.0,
            rgb(80, 80, 72),
        );
    }
    for s in &w.switches {
        let (sx, sy) = px(s.x as f64, s.y as f64);
        match s.kind {
            SwitchKind::Lever => {
                draw::rect(pm, sx + 6.0, sy + 24.0, 20.0, 8.0, rgb(160, 150, 110));
                let tip = if s.on { sx + 28.0 } else { sx + 4.0 };
                draw::line(
                    pm,
                    sx + 16.0,
                    sy + 26.0,
                    tip,
                    sy + 6.0,
                    4.0,
                    rgb(230, 210, 80),
                );
            }
            SwitchKind::Button => {
                let h = if s.on { 3.0 } else { 7.0 };
                draw::rect(pm, sx + 4.0, sy + TILE_PX - h, 24.0, h, rgb(200, 80, 200));
            }
        }
    }
    for (i, d) in w.doors.iter().enumerate() {
        let others = all_but(&moving, &doors, i);
        fixture(
            pm,
            fixtures,
            Fixture::Door(i, d.0, d.1),
            doors[i],
            &others,
            |pm| draw_door(pm, i, *d),
        );
    }
    moving.extend(doors.iter().copied());
    for (i, g) in w.gems.iter().filter(|g| !g.taken).enumerate() {
        let others = all_but(&moving, &gems, i);
        fixture(
            pm,
            fixtures,
            Fixture::Gem(g.hero, g.x, g.y),
            gems[i],
            &others,
            |pm| draw_gem(pm, g),
        );
    }
    for c in &w.chars {
        let a = &c.body.aabb;
        let (sx, sy) = px(a.x, a.y);
        let (bw, bh) = (a.w as f32 * TILE_PX, a.h as f32 * TILE_PX);
        let (body, head) = match c.hero {
            Hero::Watergirl => (rgb(30, 90, 200), rgb(120, 200, 255)),
            Hero::Fireboy => (rgb(200, 60, 20), rgb(255, 170, 60)),
        };
        let body = if c.alive { body } else { rgb(60, 60, 60) };
        draw::rounded_rect(pm, sx, sy + bh * 0.45, bw, bh * 0.55, 5.0, body);
        draw::circle(pm, sx + bw / 2.0, sy + bh * 0.28, bw * 0.62, head);
        draw::circle(pm, sx + bw * 0.35, sy + bh * 0.26, 2.5, rgb(20, 20, 20));
        draw::circle(pm, sx + bw * 0.65, sy + bh * 0.26, 2.5, rgb(20, 20, 20));
    }
    let fb = &w.chars[1];
    let wg = &w.chars[0];
    draw::hud(
        pm,
        &format!("Fireboy & Watergirl · Level {}", w.level),
        &[
            ("Red", format!("{}", fb.collected)),
            ("Blue", format!("{}", wg.collected)),
            ("Time", format!("{:.1}s", w.game_time_ms as f64 / 1000.0)),
        ],
    );
    if w.terminal.is_terminal {
        draw::end_banner(pm, &w.terminal, "Level complete", "");
    }
}
