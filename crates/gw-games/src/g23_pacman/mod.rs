//! 23_pacman — the maze chase. Pac-Man eats pellets in a 28×31 tile maze
//! while four ghosts hunt him: Blinky chases his tile, Pinky ambushes four
//! tiles ahead of him, Inky flanks (Blinky's vector doubled around a point
//! two tiles ahead of him) and Clyde chases only while far away and retreats
//! to his corner when close. Ghosts alternate scatter and chase phases; a
//! power pellet frightens them for a few seconds, during which they can be
//! eaten for 200/400/800/1600 points. The side tunnel wraps around.
//!
//! Pac-Man keeps moving in his direction; an arrow key buffers a direction
//! that is taken at the first tile where it is free (a reversal is
//! immediate). Nothing moves until the first arrow key.
//!
//! State: `game_state.score`, `game_state.level`, `metrics.lives`,
//! `metrics.deaths`, `metrics.high_score`, `metrics.maze_index`, player and
//! ghost positions in `game_state.player` / `game_state.entities`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{
    FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, Status, TaskInfo, Terminal,
};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

pub const ID: &str = "23_pacman";

pub const W: usize = 28;
pub const H: usize = 31;
/// Sub-units per tile: positions are integers, a tile centre sits on a multiple of `U`.
pub const U: i32 = 1000;
const TICK_MS: u64 = 10;

/// The classic arcade maze (28×31 tiles, 240 pellets, 4 energizers): `#`
/// wall, `.` pellet, `o` power pellet, `-` ghost door, `G` ghost house, `T`
/// tunnel mouth, space = open corridor without a pellet.
const MAZE: [&str; H] = [
    "############################",
    "#............##............#",
    "#.####.#####.##.#####.####.#",
    "#o####.#####.##.#####.####o#",
    "#.####.#####.##.#####.####.#",
    "#..........................#",
    "#.####.##.########.##.####.#",
    "#.####.##.########.##.####.#",
    "#......##....##....##......#",
    "######.##### ## #####.######",
    "######.##### ## #####.######",
    "######.##          ##.######",
    "######.## ###--### ##.######",
    "######.## #GGGGGG# ##.######",
    "T     .   #GGGGGG#   .     T",
    "######.## #GGGGGG# ##.######",
    "######.## ######## ##.######",
    "######.##          ##.######",
    "######.## ######## ##.######",
    "######.## ######## ##.######",
    "#............##............#",
    "#.####.#####.##.#####.####.#",
    "#.####.#####.##.#####.####.#",
    "#o..##.......  .......##..o#",
    "###.##.##.########.##.##.###",
    "###.##.##.########.##.##.###",
    "#......##....##....##......#",
    "#.##########.##.##########.#",
    "#.##########.##.##########.#",
    "#..........................#",
    "############################",
];

pub const PAC_START: (i32, i32) = (13, 23);
/// The tile just above the ghost-house door where ghosts come out.
pub const HOUSE_EXIT: (i32, i32) = (13, 11);
const HOUSE_DOOR_X: i32 = 13 * U + U / 2;
const HOUSE_MID_Y: i32 = 14 * U;
const FRUIT_TILE: (i32, i32) = (13, 17);
const START_LIVES: u32 = 3;
const DEATH_MS: u64 = 1500;
const LEVEL_CLEAR_MS: u64 = 1500;
const FRUIT_MS: u64 = 9000;
/// Scatter/chase schedule in ms (the last chase lasts forever).
const PHASES: [u64; 7] = [7000, 20000, 7000, 20000, 5000, 20000, 5000];
/// Ghost release times (ms after the round starts).
const RELEASE_MS: [u64; 4] = [0, 500, 3000, 6000];
pub const GHOST_NAMES: [&str; 4] = ["blinky", "pinky", "inky", "clyde"];
const SCATTER_CORNERS: [(i32, i32); 4] = [(25, -3), (2, -3), (27, 31), (0, 31)];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Wall,
    Door,
    House,
    Open,
}

pub use crate::grid::Dir;

/// Ghost tie-break order (the arcade's: up, left, down, right).
pub const DIRS: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Down, Dir::Right];

pub type Grid = [[Cell; W]; H];

pub fn parse_maze() -> (Grid, [[u8; W]; H]) {
    let mut cells = [[Cell::Wall; W]; H];
    let mut pellets = [[0u8; W]; H];
    for (y, row) in MAZE.iter().enumerate() {
        for (x, ch) in row.bytes().enumerate() {
            cells[y][x] = match ch {
                b'#' => Cell::Wall,
                b'-' => Cell::Door,
                b'G' => Cell::House,
                _ => Cell::Open,
            };
            pellets[y][x] = match ch {
                b'.' => 1,
                b'o' => 2,
                _ => 0,
            };
        }
    }
    pellets[PAC_START.1 as usize][PAC_START.0 as usize] = 0;
    (cells, pellets)
}

/// Whether an actor may stand on tile (x, y) (x wraps through the tunnel).
pub fn open(cells: &Grid, x: i32, y: i32) -> bool {
    if !(0..H as i32).contains(&y) {
        return false;
    }
    cells[y as usize][x.rem_euclid(W as i32) as usize] == Cell::Open
}

fn in_tunnel(x: i32, y: i32) -> bool {
    y == 14 && !(6..=21).contains(&x)
}

/// A maze actor: position in sub-units (tile centre = multiple of `U`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mover {
    pub x: i32,
    pub y: i32,
    pub dir: Dir,
    pub moving: bool,
}

impl Mover {
    pub fn at_tile(tx: i32, ty: i32, dir: Dir) -> Self {
        Mover {
            x: tx * U,
            y: ty * U,
            dir,
            moving: true,
        }
    }
    /// The tile the actor is (mostly) on.
    pub fn tile(&self) -> (i32, i32) {
        (
            ((self.x + U / 2).div_euclid(U)).rem_euclid(W as i32),
            (self.y + U / 2).div_euclid(U),
        )
    }
    pub fn at_center(&self) -> bool {
        self.x.rem_euclid(U) == 0 && self.y.rem_euclid(U) == 0
    }
    /// Move `dist` sub-units, calling `decide` at every tile centre reached
    /// (and first at the start when `decide_first`).
    fn travel(&mut self, mut dist: i32, decide_first: bool, mut decide: impl FnMut(&mut Mover)) {
        if decide_first && self.at_center() {
            decide(self);
        }
        while dist > 0 && self.moving {
            let along = if self.dir.horizontal() {
                self.x
            } else {
                self.y
            };
            let rem = along.rem_euclid(U);
            let positive = matches!(self.dir, Dir::Right | Dir::Down);
            let to_center = if rem == 0 {
                U
            } else if positive {
                U - rem
            } else {
                rem
            };
            let d = dist.min(to_center);
            let (dx, dy) = self.dir.delta();
            self.x = (self.x + dx * d).rem_euclid(W as i32 * U);
            self.y += dy * d;
            dist -= d;
            if d == to_center {
                decide(self);
            }
        }
    }
}

/// Pac-Man's choice at a tile centre: the buffered direction when free,
/// otherwise straight on, otherwise stop.
fn pac_decide(cells: &Grid, m: &mut Mover, buffered: Option<Dir>) {
    let (tx, ty) = m.tile();
    if let Some(b) = buffered {
        let (dx, dy) = b.delta();
        if open(cells, tx + dx, ty + dy) {
            m.dir = b;
            m.moving = true;
            return;
        }
    }
    let (dx, dy) = m.dir.delta();
    m.moving = open(cells, tx + dx, ty + dy);
}

/// One tick of Pac-Man movement (shared with the expert's look-ahead).
pub fn pac_tick(cells: &Grid, m: &mut Mover, buffered: Option<Dir>, speed: i32) {
    if let Some(b) = buffered
        && b == m.dir.opposite()
        && m.moving
    {
        m.dir = b;
    }
    m.travel(speed, true, |m| pac_decide(cells, m, buffered));
}

/// Pac-Man speed in sub-units per 10 ms tick for a level.
pub fn pac_speed(level: u32) -> i32 {
    (95 + 4 * (level.saturating_sub(1) as i32)).min(115)
}
/// Normal ghost speed in sub-units per tick.
pub fn ghost_speed(level: u32) -> i32 {
    (80 + 5 * (level.saturating_sub(1) as i32)).min(105)
}
const GHOST_FRIGHT_SPEED: i32 = 48;
const GHOST_TUNNEL_SPEED: i32 = 45;
const GHOST_EYES_SPEED: i32 = 180;
const GHOST_HOUSE_SPEED: i32 = 45;

pub fn fright_ms_for(level: u32) -> u64 {
    6000u64
        .saturating_sub(1000 * level.saturating_sub(1) as u64)
        .max(2000)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GhostState {
    InHouse,
    Leaving,
    Active,
    Eyes,
    Entering,
}

impl GhostState {
    fn name(self) -> &'static str {
        match self {
            GhostState::InHouse => "in_house",
            GhostState::Leaving => "leaving",
            GhostState::Active => "active",
            GhostState::Eyes => "eyes",
            GhostState::Entering => "entering",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ghost {
    pub m: Mover,
    pub state: GhostState,
    pub frightened: bool,
    reverse_pending: bool,
}

impl Ghost {
    /// Whether touching this ghost kills Pac-Man.
    pub fn dangerous(&self) -> bool {
        matches!(self.state, GhostState::Active | GhostState::Leaving) && !self.frightened
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for the first arrow key of the episode.
    Ready,
    Playing,
    Dying(u64),
    LevelClear(u64),
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Popup {
    x: i32,
    y: i32,
    points: u32,
    ms: u64,
}

#[derive(Clone)]
pub struct Pacman {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    game_time_ms: u64,
    pub(crate) cells: Grid,
    pub(crate) pellets: [[u8; W]; H],
    pellets_left: u32,
    pellets_total: u32,
    pellets_eaten_level: u32,
    pub(crate) pac: Mover,
    pub(crate) buffered: Option<Dir>,
    pub(crate) ghosts: [Ghost; 4],
    pub(crate) score: u32,
    high_score: u32,
    pub(crate) lives: u32,
    deaths: u32,
    pub(crate) level: u32,
    start_level: u32,
    ghosts_eaten: u32,
    power_eaten: u32,
    pellets_eaten_total: u32,
    fruits_eaten: u32,
    mode_phase: usize,
    mode_ms: u64,
    pub(crate) fright_ms: u64,
    fright_chain: u32,
    round_ms: u64,
    phase: Phase,
    fruit: Option<(u32, u64)>,
    fruits_spawned: u8,
    popups: Vec<Popup>,
    terminal: Terminal,
}

impl Default for Pacman {
    fn default() -> Self {
        Self::new()
    }
}

fn ghost_home(i: usize) -> Ghost {
    let m = match i {
        0 => Mover::at_tile(HOUSE_EXIT.0, HOUSE_EXIT.1, Dir::Left),
        1 => Mover {
            x: HOUSE_DOOR_X,
            y: HOUSE_MID_Y,
            dir: Dir::Down,
            moving: false,
        },
        2 => Mover {
            x: 11 * U + U / 2,
            y: HOUSE_MID_Y,
            dir: Dir::Up,
            moving: false,
        },
        _ => Mover {
            x: 15 * U + U / 2,
            y: HOUSE_MID_Y,
            dir: Dir::Up,
            moving: false,
        },
    };
    let state = if i == 0 {
        GhostState::Active
    } else {
        GhostState::InHouse
    };
    Ghost {
        m,
        state,
        frightened: false,
        reverse_pending: false,
    }
}

fn fruit_points(level: u32) -> u32 {
    [100, 300, 500, 700, 1000, 2000][(level.saturating_sub(1) as usize).min(5)]
}

impl Pacman {
    pub fn new() -> Self {
        let (cells, pellets) = parse_maze();
        Pacman {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            cells,
            pellets,
            pellets_left: 0,
            pellets_total: 0,
            pellets_eaten_level: 0,
            pac: Mover::at_tile(PAC_START.0, PAC_START.1, Dir::Left),
            buffered: None,
            ghosts: std::array::from_fn(ghost_home),
            score: 0,
            high_score: 0,
            lives: START_LIVES,
            deaths: 0,
            level: 1,
            start_level: 1,
            ghosts_eaten: 0,
            power_eaten: 0,
            pellets_eaten_total: 0,
            fruits_eaten: 0,
            mode_phase: 0,
            mode_ms: 0,
            fright_ms: 0,
            fright_chain: 0,
            round_ms: 0,
            phase: Phase::Ready,
            fruit: None,
            fruits_spawned: 0,
            popups: Vec::new(),
            terminal: Terminal::running(),
        }
    }

    fn fill_maze(&mut self) {
        let (cells, pellets) = parse_maze();
        self.cells = cells;
        self.pellets = pellets;
        self.pellets_left = pellets.iter().flatten().filter(|&&p| p > 0).count() as u32;
        self.pellets_total = self.pellets_left;
        self.pellets_eaten_level = 0;
        self.fruit = None;
        self.fruits_spawned = 0;
    }

    /// Put every actor back at its start (after a death or a cleared level).
    fn start_round(&mut self) {
        self.pac = Mover::at_tile(PAC_START.0, PAC_START.1, Dir::Left);
        self.buffered = None;
        self.ghosts = std::array::from_fn(ghost_home);
        self.fright_ms = 0;
        self.fright_chain = 0;
        self.mode_phase = 0;
        self.mode_ms = 0;
        self.round_ms = 0;
        self.popups.clear();
    }

    pub fn scatter(&self) -> bool {
        self.mode_phase < PHASES.len() && self.mode_phase.is_multiple_of(2)
    }

    fn mode_name(&self) -> &'static str {
        if self.fright_ms > 0 {
            "frightened"
        } else if self.scatter() {
            "scatter"
        } else {
            "chase"
        }
    }

    pub fn pac_speed(&self) -> i32 {
        pac_speed(self.level)
    }

    /// The chase/scatter target tile of ghost `i`.
    pub fn ghost_target(&self, i: usize) -> (i32, i32) {
        if self.scatter() {
            return SCATTER_CORNERS[i];
        }
        let (px, py) = self.pac.tile();
        let (dx, dy) = self.pac.dir.delta();
        match i {
            0 => (px, py),
            1 => (px + 4 * dx, py + 4 * dy),
            2 => {
                let (bx, by) = self.ghosts[0].m.tile();
                let (ax, ay) = (px + 2 * dx, py + 2 * dy);
                (2 * ax - bx, 2 * ay - by)
            }
            _ => {
                let (gx, gy) = self.ghosts[3].m.tile();
                let d2 = (gx - px).pow(2) + (gy - py).pow(2);
                if d2 > 64 {
                    (px, py)
                } else {
                    SCATTER_CORNERS[3]
                }
            }
        }
    }

    fn ghost_step(&mut self, i: usize) {
        let level = self.level;
        let g = self.ghosts[i];
        match g.state {
            GhostState::InHouse => {
                if self.round_ms >= RELEASE_MS[i] {
                    self.ghosts[i].state = GhostState::Leaving;
                }
            }
            GhostState::Leaving => {
                let mut m = g.m;
                let mut d = GHOST_HOUSE_SPEED;
                // Centre under the door, rise to the exit row, then step left onto the exit tile.
                if m.y > HOUSE_EXIT.1 * U && m.x != HOUSE_DOOR_X {
                    let s = (HOUSE_DOOR_X - m.x).clamp(-d, d);
                    m.x += s;
                    d -= s.abs();
                }
                if d > 0 && m.x == HOUSE_DOOR_X && m.y > HOUSE_EXIT.1 * U {
                    let s = (m.y - HOUSE_EXIT.1 * U).min(d);
                    m.y -= s;
                    d -= s;
                    m.dir = Dir::Up;
                }
                if d > 0 && m.y == HOUSE_EXIT.1 * U {
                    let s = (m.x - HOUSE_EXIT.0 * U).min(d);
                    m.x -= s;
                    m.dir = Dir::Left;
                    if m.x == HOUSE_EXIT.0 * U {
                        m.moving = true;
                        self.ghosts[i].state = GhostState::Active;
                    }
                }
                self.ghosts[i].m = m;
            }
            GhostState::Entering => {
                let mut m = g.m;
                let mut d = GHOST_EYES_SPEED / 2;
                if m.y == HOUSE_EXIT.1 * U && m.x != HOUSE_DOOR_X {
                    let s = (HOUSE_DOOR_X - m.x).clamp(-d, d);
                    m.x += s;
                    d -= s.abs();
                }
                if d > 0 && m.x == HOUSE_DOOR_X {
                    let s = (HOUSE_MID_Y - m.y).min(d);
                    m.y += s;
                    m.dir = Dir::Down;
                    if m.y == HOUSE_MID_Y {
                        self.ghosts[i].state = GhostState::Leaving;
                        self.ghosts[i].frightened = false;
                    }
                }
                self.ghosts[i].m = m;
            }
            GhostState::Active | GhostState::Eyes => {
                let mut m = g.m;
                if g.reverse_pending {
                    self.ghosts[i].reverse_pending = false;
                    let (tx, ty) = m.tile();
                    let (dx, dy) = m.dir.opposite().delta();
                    if !m.at_center() || open(&self.cells, tx + dx, ty + dy) {
                        m.dir = m.dir.opposite();
                    }
                }
                let (tx, ty) = m.tile();
                let speed = if g.state == GhostState::Eyes {
                    GHOST_EYES_SPEED
                } else if in_tunnel(tx, ty) {
                    GHOST_TUNNEL_SPEED
                } else if g.frightened {
                    GHOST_FRIGHT_SPEED
                } else {
                    ghost_speed(level)
                };
                let eyes = g.state == GhostState::Eyes;
                let target = if eyes {
                    HOUSE_EXIT
                } else {
                    self.ghost_target(i)
                };
                let frightened = g.frightened && !eyes;
                let cells = &self.cells;
                let rng = &mut self.rng;
                let mut reached_exit = false;
                m.moving = true;
                m.travel(speed, false, |m| {
                    let (tx, ty) = m.tile();
                    if eyes && (tx, ty) == HOUSE_EXIT {
                        reached_exit = true;
                        m.moving = false;
                        return;
                    }
                    let mut opts: Vec<Dir> = DIRS
                        .iter()
                        .copied()
                        .filter(|d| {
                            let (dx, dy) = d.delta();
                            *d != m.dir.opposite() && open(cells, tx + dx, ty + dy)
                        })
                        .collect();
                    if opts.is_empty() {
                        opts.push(m.dir.opposite());
                    }
                    m.dir = if frightened {
                        opts[rng.index(opts.len())]
                    } else {
                        *opts
                            .iter()
                            .min_by_key(|d| {
                                let (dx, dy) = d.delta();
                                (tx + dx - target.0).pow(2) + (ty + dy - target.1).pow(2)
                            })
                            .expect("an option")
                    };
                });
                self.ghosts[i].m = m;
                if reached_exit {
                    self.ghosts[i].state = GhostState::Entering;
                }
            }
        }
    }

    fn eat_at_pac(&mut self) {
        let (tx, ty) = self.pac.tile();
        let p = &mut self.pellets[ty as usize][tx as usize];
        if *p == 0 {
            return;
        }
        let kind = *p;
        *p = 0;
        self.pellets_left -= 1;
        self.pellets_eaten_level += 1;
        self.pellets_eaten_total += 1;
        if kind == 2 {
            self.score += 50;
            self.power_eaten += 1;
            self.fright_ms = fright_ms_for(self.level);
            self.fright_chain = 0;
            for g in &mut self.ghosts {
                match g.state {
                    GhostState::Active => {
                        g.frightened = true;
                        g.reverse_pending = true;
                    }
                    GhostState::InHouse | GhostState::Leaving => g.frightened = true,
                    _ => {}
                }
            }
        } else {
            self.score += 10;
        }
        if (self.pellets_eaten_level == 70 || self.pellets_eaten_level == 170)
            && self.fruits_spawned < 2
        {
            self.fruits_spawned += 1;
            self.fruit = Some((fruit_points(self.level), FRUIT_MS));
        }
    }

    fn collide(&mut self) {
        let (px, py) = (self.pac.x, self.pac.y);
        let wrap = W as i32 * U;
        for i in 0..4 {
            let g = self.ghosts[i];
            if !matches!(g.state, GhostState::Active | GhostState::Leaving) {
                continue;
            }
            let mut dx = (g.m.x - px).abs();
            dx = dx.min(wrap - dx);
            let dist = dx + (g.m.y - py).abs();
            if dist >= U * 6 / 10 {
                continue;
            }
            if g.frightened {
                let points = 200u32 << self.fright_chain.min(3);
                self.fright_chain += 1;
                self.score += points;
                self.ghosts_eaten += 1;
                self.ghosts[i].state = GhostState::Eyes;
                self.ghosts[i].frightened = false;
                self.popups.push(Popup {
                    x: g.m.x,
                    y: g.m.y,
                    points,
                    ms: 1000,
                });
            } else {
                self.lives = self.lives.saturating_sub(1);
                self.deaths += 1;
                // Power ends with the life: the HUD must not say FRIGHTENED
                // over the death.
                self.fright_ms = 0;
                for g in &mut self.ghosts {
                    g.frightened = false;
                }
                if self.lives == 0 {
                    self.phase = Phase::Over;
                    self.terminal =
                        Terminal::ended(Outcome::Fail, "caught by a ghost with no lives left");
                } else {
                    self.phase = Phase::Dying(DEATH_MS);
                }
                return;
            }
        }
    }

    fn tick(&mut self) {
        self.popups.retain_mut(|p| {
            p.ms = p.ms.saturating_sub(TICK_MS);
            p.ms > 0
        });
        match self.phase {
            Phase::Ready | Phase::Over => return,
            Phase::Dying(ms) => {
                let left = ms.saturating_sub(TICK_MS);
                if left == 0 {
                    self.start_round();
                    self.phase = Phase::Playing;
                } else {
                    self.phase = Phase::Dying(left);
                }
                return;
            }
            Phase::LevelClear(ms) => {
                let left = ms.saturating_sub(TICK_MS);
                if left == 0 {
                    self.level += 1;
                    self.fill_maze();
                    self.start_round();
                    self.phase = Phase::Playing;
                } else {
                    self.phase = Phase::LevelClear(left);
                }
                return;
            }
            Phase::Playing => {}
        }
        self.round_ms += TICK_MS;
        // Mode timers (paused while the ghosts are frightened).
        if self.fright_ms > 0 {
            self.fright_ms = self.fright_ms.saturating_sub(TICK_MS);
            if self.fright_ms == 0 {
                for g in &mut self.ghosts {
                    g.frightened = false;
                }
            }
        } else if self.mode_phase < PHASES.len() {
            self.mode_ms += TICK_MS;
            if self.mode_ms >= PHASES[self.mode_phase] {
                self.mode_ms = 0;
                self.mode_phase += 1;
                for g in &mut self.ghosts {
                    if g.state == GhostState::Active {
                        g.reverse_pending = true;
                    }
                }
            }
        }
        if let Some((pts, ms)) = self.fruit {
            self.fruit = if ms > TICK_MS {
                Some((pts, ms - TICK_MS))
            } else {
                None
            };
        }
        let speed = self.pac_speed();
        pac_tick(&self.cells, &mut self.pac, self.buffered, speed);
        self.eat_at_pac();
        if let Some((pts, _)) = self.fruit
            && self.pac.tile() == FRUIT_TILE
        {
            self.score += pts;
            self.fruits_eaten += 1;
            self.fruit = None;
            self.popups.push(Popup {
                x: FRUIT_TILE.0 * U,
                y: FRUIT_TILE.1 * U,
                points: pts,
                ms: 1000,
            });
        }
        self.collide();
        if self.phase != Phase::Playing {
            return;
        }
        for i in 0..4 {
            self.ghost_step(i);
        }
        self.collide();
        if self.phase == Phase::Playing && self.pellets_left == 0 {
            self.phase = Phase::LevelClear(LEVEL_CLEAR_MS);
        }
        self.high_score = self.high_score.max(self.score);
    }

    fn steer(&mut self, dir: Dir) {
        if self.terminal.is_terminal {
            return;
        }
        self.buffered = Some(dir);
        if self.phase == Phase::Ready {
            self.phase = Phase::Playing;
        }
        if self.pac.moving && dir == self.pac.dir.opposite() {
            self.pac.dir = dir;
        }
    }

    pub fn maze_index(&self) -> u32 {
        0
    }

    fn board_rows(&self) -> Vec<String> {
        (0..H)
            .map(|y| {
                (0..W)
                    .map(|x| match (self.cells[y][x], self.pellets[y][x]) {
                        (Cell::Wall, _) => '#',
                        (Cell::Door, _) => '-',
                        (Cell::House, _) => 'G',
                        (_, 1) => '.',
                        (_, 2) => 'o',
                        _ => ' ',
                    })
                    .collect()
            })
            .collect()
    }
}

// ---------------------------------------------------------------- rendering

const TILE: f32 = 20.0;
const MAZE_X: f32 = (1280.0 - TILE * W as f32) / 2.0;
const MAZE_Y: f32 = 68.0;
const GHOST_COLORS: [Rgb; 4] = [
    rgb(255, 0, 0),
    rgb(255, 184, 255),
    rgb(0, 255, 255),
    rgb(255, 184, 82),
];

fn screen(x: i32, y: i32) -> (f32, f32) {
    (
        MAZE_X + (x as f32 / U as f32 + 0.5) * TILE,
        MAZE_Y + (y as f32 / U as f32 + 0.5) * TILE,
    )
}

fn draw_pacman(pm: &mut Pixmap, cx: f32, cy: f32, r: f32, dir: Dir, open_frac: f32) {
    draw::circle(pm, cx, cy, r, rgb(255, 230, 0));
    if open_frac <= 0.02 {
        return;
    }
    let base = match dir {
        Dir::Right => 0.0f32,
        Dir::Down => std::f32::consts::FRAC_PI_2,
        Dir::Left => std::f32::consts::PI,
        Dir::Up => -std::f32::consts::FRAC_PI_2,
    };
    let half = 0.8 * open_frac;
    let rr = r * 1.25;
    draw::polygon(
        pm,
        &[
            (cx, cy),
            (
                cx + rr * libm::cosf(base + half),
                cy + rr * libm::sinf(base + half),
            ),
            (
                cx + rr * libm::cosf(base - half),
                cy + rr * libm::sinf(base - half),
            ),
        ],
        rgb(0, 0, 0),
    );
}

fn draw_ghost(pm: &mut Pixmap, cx: f32, cy: f32, body: Option<Rgb>, dir: Dir, scared_face: bool) {
    let r = 9.0;
    if let Some(c) = body {
        draw::circle(pm, cx, cy - 1.0, r, c);
        draw::rect(pm, cx - r, cy - 1.0, 2.0 * r, r, c);
        for k in 0..3 {
            let x0 = cx - r + k as f32 * 6.0;
            draw::polygon(
                pm,
                &[(x0, cy + 8.0), (x0 + 6.0, cy + 8.0), (x0 + 3.0, cy + 11.0)],
                c,
            );
        }
    }
    if scared_face {
        draw::rect(pm, cx - 5.0, cy - 4.0, 3.0, 3.0, rgb(255, 220, 200));
        draw::rect(pm, cx + 2.0, cy - 4.0, 3.0, 3.0, rgb(255, 220, 200));
        draw::line(
            pm,
            cx - 6.0,
            cy + 4.0,
            cx + 6.0,
            cy + 4.0,
            1.5,
            rgb(255, 220, 200),
        );
        return;
    }
    let (dx, dy) = dir.delta();
    for ex in [-4.0f32, 4.0] {
        draw::circle(pm, cx + ex, cy - 3.0, 3.2, rgb(255, 255, 255));
        draw::circle(
            pm,
            cx + ex + dx as f32 * 1.5,
            cy - 3.0 + dy as f32 * 1.5,
            1.7,
            rgb(30, 40, 200),
        );
    }
}

/// The static wall layer of the maze (opaque, corridors black).
fn wall_layer(cells: &Grid) -> Pixmap {
    let mut pm = Pixmap::new((TILE * W as f32) as u32, (TILE * H as f32) as u32).expect("layer");
    draw::clear(&mut pm, rgb(0, 0, 0));
    let wall_fill = rgb(14, 18, 80);
    let wall_edge = rgb(60, 90, 255);
    let not_wall = |xx: i32, yy: i32| {
        (0..W as i32).contains(&xx)
            && (0..H as i32).contains(&yy)
            && cells[yy as usize][xx as usize] != Cell::Wall
    };
    for (y, row) in cells.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            let (sx, sy) = (x as f32 * TILE, y as f32 * TILE);
            let (xi, yi) = (x as i32, y as i32);
            match cell {
                Cell::Wall => {
                    draw::rect(&mut pm, sx, sy, TILE, TILE, wall_fill);
                    if not_wall(xi, yi - 1) {
                        draw::rect(&mut pm, sx, sy, TILE, 3.0, wall_edge);
                    }
                    if not_wall(xi, yi + 1) {
                        draw::rect(&mut pm, sx, sy + TILE - 3.0, TILE, 3.0, wall_edge);
                    }
                    if not_wall(xi - 1, yi) {
                        draw::rect(&mut pm, sx, sy, 3.0, TILE, wall_edge);
                    }
                    if not_wall(xi + 1, yi) {
                        draw::rect(&mut pm, sx + TILE - 3.0, sy, 3.0, TILE, wall_edge);
                    }
                }
                Cell::Door => draw::rect(
                    &mut pm,
                    sx,
                    sy + TILE / 2.0 - 2.0,
                    TILE,
                    4.0,
                    rgb(255, 184, 222),
                ),
                _ => {}
            }
        }
    }
    pm
}

/// An opaque `n`×`n` square of pixels at integer (x, y).
fn fill_square(pm: &mut Pixmap, x: usize, y: usize, n: usize, c: Rgb) {
    if draw::scaled(pm) {
        draw::rect(pm, x as f32, y as f32, n as f32, n as f32, c);
        return;
    }
    let w = pm.width() as usize;
    let data = pm.data_mut();
    for yy in y..y + n {
        for xx in x..x + n {
            let i = (yy * w + xx) * 4;
            data[i..i + 4].copy_from_slice(&[c.0, c.1, c.2, 255]);
        }
    }
}

impl Pacman {
    fn render_maze(&self, pm: &mut Pixmap) {
        // The walls never change: draw them once into an opaque layer and
        // copy its rows into the frame.
        static LAYER: std::sync::OnceLock<Pixmap> = std::sync::OnceLock::new();
        let layer = LAYER.get_or_init(|| wall_layer(&self.cells));
        draw::copy_layer(pm, layer, 0, layer.width(), MAZE_X as u32, MAZE_Y as u32);
        let pellet = rgb(255, 200, 180);
        for y in 0..H {
            for x in 0..W {
                let (sx, sy) = (MAZE_X + x as f32 * TILE, MAZE_Y + y as f32 * TILE);
                match self.pellets[y][x] {
                    1 => fill_square(pm, sx as usize + 8, sy as usize + 8, 4, pellet),
                    2 => draw::circle(
                        pm,
                        sx + TILE / 2.0,
                        sy + TILE / 2.0,
                        7.0,
                        rgb(255, 200, 180),
                    ),
                    _ => {}
                }
            }
        }
    }

    fn render_panels(&self, pm: &mut Pixmap) {
        let white = rgb(235, 235, 235);
        let yellow = rgb(255, 230, 0);
        let lx = 30.0;
        draw::text(pm, "LIVES", lx, 90.0, 22.0, white, Align::Left);
        for k in 0..self.lives {
            draw_pacman(
                pm,
                lx + 16.0 + k as f32 * 36.0,
                140.0,
                13.0,
                Dir::Right,
                0.6,
            );
        }
        draw::text(
            pm,
            &format!("LEVEL {}", self.level),
            lx,
            180.0,
            22.0,
            white,
            Align::Left,
        );
        draw::text(
            pm,
            &format!("PELLETS LEFT {}", self.pellets_left),
            lx,
            220.0,
            22.0,
            white,
            Align::Left,
        );
        let mode = self.mode_name().to_uppercase();
        draw::text(
            pm,
            &format!("GHOSTS: {mode}"),
            lx,
            260.0,
            22.0,
            white,
            Align::Left,
        );
        if self.fright_ms > 0 {
            draw::text(
                pm,
                &format!("POWER {:.1} s", self.fright_ms as f64 / 1000.0),
                lx,
                300.0,
                22.0,
                rgb(90, 140, 255),
                Align::Left,
            );
        }
        draw::text(
            pm,
            &format!("HIGH SCORE {}", self.high_score.max(self.score)),
            lx,
            340.0,
            22.0,
            yellow,
            Align::Left,
        );
        draw::text(
            pm,
            "Pellet 10  Power 50",
            lx,
            420.0,
            18.0,
            rgb(180, 180, 180),
            Align::Left,
        );
        draw::text(
            pm,
            "Ghosts 200-1600",
            lx,
            446.0,
            18.0,
            rgb(180, 180, 180),
            Align::Left,
        );
        draw::text(
            pm,
            "Arrow keys steer",
            lx,
            640.0,
            20.0,
            rgb(180, 180, 180),
            Align::Left,
        );

        let rx = MAZE_X + TILE * W as f32 + 40.0;
        let roles = [
            "BLINKY chases",
            "PINKY ambushes",
            "INKY flanks",
            "CLYDE is shy",
        ];
        for (i, role) in roles.iter().enumerate() {
            let y = 100.0 + i as f32 * 48.0;
            draw_ghost(
                pm,
                rx + 10.0,
                y + 12.0,
                Some(GHOST_COLORS[i]),
                Dir::Right,
                false,
            );
            draw::text(pm, role, rx + 32.0, y, 20.0, white, Align::Left);
        }
        if let Some((pts, _)) = self.fruit {
            draw::text(
                pm,
                &format!("BONUS FRUIT {pts}"),
                rx,
                320.0,
                20.0,
                rgb(255, 90, 90),
                Align::Left,
            );
        }
    }
}

impl Game for Pacman {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.start_level = config.level.unwrap_or(1).max(1);
        self.high_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x2300_0000 + episode as u64);
        self.clock.clear();
        self.level = self.start_level;
        self.score = 0;
        self.lives = START_LIVES;
        self.deaths = 0;
        self.ghosts_eaten = 0;
        self.power_eaten = 0;
        self.pellets_eaten_total = 0;
        self.fruits_eaten = 0;
        self.terminal = Terminal::running();
        self.phase = Phase::Ready;
        self.fill_maze();
        self.start_round();
    }

    fn state(&self) -> GameApiState {
        let status = match self.phase {
            Phase::Over => Status::Terminal,
            Phase::Ready => Status::Ready,
            _ => Status::Playing,
        };
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let (tx, ty) = self.pac.tile();
        let f = |v: i32| v as f64 / U as f64;
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", self.level);
        set(
            &mut s.game_state,
            "progress",
            self.pellets_eaten_level as f64 / self.pellets_total.max(1) as f64,
        );
        set(
            &mut s.game_state,
            "player",
            json!({"x": f(self.pac.x), "y": f(self.pac.y), "tile_x": tx, "tile_y": ty, "dir": self.pac.dir.name(), "moving": self.pac.moving && self.phase == Phase::Playing,
                   "buffered_dir": self.buffered.map(|d| d.name())}),
        );
        set(&mut s.game_state, "board", json!(self.board_rows()));
        let ghosts: Vec<Value> = self
            .ghosts
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let (gx, gy) = g.m.tile();
                json!({"name": GHOST_NAMES[i], "x": f(g.m.x), "y": f(g.m.y), "tile_x": gx, "tile_y": gy, "dir": g.m.dir.name(),
                       "state": g.state.name(), "frightened": g.frightened})
            })
            .collect();
        set(&mut s.game_state, "entities", json!(ghosts));
        set(&mut s.metrics, "primary_score", self.score);
        set(
            &mut s.metrics,
            "high_score",
            self.high_score.max(self.score),
        );
        set(&mut s.metrics, "lives", self.lives);
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "maze_index", self.maze_index());
        set(&mut s.metrics, "pellets_remaining", self.pellets_left);
        set(&mut s.metrics, "pellets_eaten", self.pellets_eaten_total);
        set(&mut s.metrics, "power_pellets_eaten", self.power_eaten);
        set(&mut s.metrics, "ghosts_eaten", self.ghosts_eaten);
        set(&mut s.metrics, "fruits_eaten", self.fruits_eaten);
        set(&mut s.metrics, "ghost_mode", self.mode_name());
        set(&mut s.metrics, "fright_ms_left", self.fright_ms);
        set(&mut s.raw, "mode_phase", self.mode_phase);
        set(&mut s.raw, "mode_ms", self.mode_ms);
        set(&mut s.raw, "round_ms", self.round_ms);
        set(
            &mut s.raw,
            "fruit",
            json!(
                self.fruit
                    .map(|(p, ms)| json!({"points": p, "ms_left": ms}))
            ),
        );
        set(
            &mut s.raw,
            "phase",
            match self.phase {
                Phase::Ready => "ready",
                Phase::Playing => "playing",
                Phase::Dying(_) => "dying",
                Phase::LevelClear(_) => "level_clear",
                Phase::Over => "over",
            },
        );
        s
    }

    fn eval_view(&self, paths: &[String]) -> Value {
        gw_core::state::view_from(
            paths,
            &self.terminal,
            |p| (p == "game_state.score").then(|| self.score.into()),
            || self.state(),
        )
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } => {
                let Some(dir) = Dir::from_arrow_key(key) else {
                    return;
                };
                self.steer(dir);
            }
            InputEvent::MouseDown {
                x,
                y,
                button: MouseButton::Left,
            } => {
                // A click steers towards the clicked point along its main axis.
                let (px, py) = screen(self.pac.x, self.pac.y);
                let (dx, dy) = (x - px, y - py);
                if dx.abs().max(dy.abs()) < 5.0 {
                    return;
                }
                let dir = if dx.abs() > dy.abs() {
                    if dx > 0.0 { Dir::Right } else { Dir::Left }
                } else if dy > 0.0 {
                    Dir::Down
                } else {
                    Dir::Up
                };
                self.steer(dir);
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
        draw::clear(pm, rgb(0, 0, 0));
        draw::hud(
            pm,
            "Pac-Man",
            &[
                ("Score", self.score.to_string()),
                ("Lives", self.lives.to_string()),
                ("Level", self.level.to_string()),
            ],
        );
        self.render_maze(pm);
        if let Some((_, ms)) = self.fruit {
            let (cx, cy) = screen(FRUIT_TILE.0 * U, FRUIT_TILE.1 * U);
            if ms > 0 {
                draw::circle(pm, cx - 4.0, cy + 2.0, 5.5, rgb(230, 20, 40));
                draw::circle(pm, cx + 4.0, cy + 3.0, 5.5, rgb(230, 20, 40));
                draw::line(
                    pm,
                    cx - 3.0,
                    cy - 3.0,
                    cx + 3.0,
                    cy - 9.0,
                    2.0,
                    rgb(60, 170, 60),
                );
            }
        }
        // Ghosts stay drawn while Pac-Man dies, so the frame shows who caught him.
        {
            for (i, g) in self.ghosts.iter().enumerate() {
                let (cx, cy) = screen(g.m.x, g.m.y);
                match g.state {
                    GhostState::Eyes | GhostState::Entering => {
                        draw_ghost(pm, cx, cy, None, g.m.dir, false)
                    }
                    _ if g.frightened => {
                        let flash =
                            self.fright_ms < 2000 && (self.fright_ms / 200).is_multiple_of(2);
                        let c = if flash {
                            rgb(240, 240, 255)
                        } else {
                            rgb(40, 40, 230)
                        };
                        draw_ghost(pm, cx, cy, Some(c), g.m.dir, true);
                    }
                    _ => draw_ghost(pm, cx, cy, Some(GHOST_COLORS[i]), g.m.dir, false),
                }
            }
        }
        let (cx, cy) = screen(self.pac.x, self.pac.y);
        let mouth = match self.phase {
            Phase::Dying(ms) => 1.0 + (1.0 - ms as f32 / DEATH_MS as f32) * 2.9,
            Phase::Over => 3.9,
            _ if self.pac.moving && self.phase == Phase::Playing => {
                let t = (self.game_time_ms % 240) as f32 / 240.0;
                if t < 0.5 { t * 2.0 } else { 2.0 - t * 2.0 }
            }
            _ => 0.6,
        };
        if mouth < 3.9 {
            draw_pacman(pm, cx, cy, 9.5, self.pac.dir, mouth);
        }
        for p in &self.popups {
            let (x, y) = screen(p.x, p.y);
            draw::text(
                pm,
                &p.points.to_string(),
                x,
                y - 10.0,
                16.0,
                rgb(0, 255, 255),
                Align::Center,
            );
        }
        let (rx, ry) = screen(13 * U + U / 2, 17 * U);
        match self.phase {
            Phase::Ready => draw::text(
                pm,
                "READY!",
                rx,
                ry - 11.0,
                20.0,
                rgb(255, 230, 0),
                Align::Center,
            ),
            Phase::LevelClear(_) => draw::text(
                pm,
                "LEVEL CLEAR!",
                rx,
                ry - 11.0,
                20.0,
                rgb(255, 230, 0),
                Align::Center,
            ),
            _ => {}
        }
        self.render_panels(pm);
        if self.phase == Phase::Over {
            draw::banner(pm, "GAME OVER", &format!("Score {}", self.score));
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        match expert::choose(self, task) {
            Some(d) => json!({"action": d.control_id()}),
            None => json!({"action": "wait"}),
        }
    }
}
