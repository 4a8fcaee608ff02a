//! The World's Hardest Game engine shared by both WHG games: a tile maze, a
//! red square that moves one tile per 0.2 s of held arrow key, blue dots on
//! closed deterministic paths, yellow coins and green safe zones.
//!
//! Everything here is a pure function of the level and a [`Body`] (player
//! position, dot clock, coins held), so the game and its planning expert run
//! the very same tick code and can never disagree about a collision.

use std::f64::consts::TAU;

/// Side of one maze tile in pixels.
pub const TILE: i32 = 40;
pub const COLS: usize = 30;
pub const ROWS: usize = 15;
/// Top-left corner of the maze on screen.
pub const ORIGIN_X: f32 = 40.0;
pub const ORIGIN_Y: f32 = 66.0;
/// Player speed in pixels per 10 ms tick: exactly one tile per 0.2 s hold.
pub const SPEED: i32 = 2;
pub const TICK_MS: u64 = 10;
/// Half side of the player's square used for dot and coin contact (drawn a
/// little larger, so contact never looks unfair).
pub const PLAYER_HIT: f32 = 13.0;
pub const PLAYER_DRAW: f32 = 15.0;
pub const DOT_R: f32 = 10.0;
pub const COIN_R: f32 = 9.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tile {
    Wall,
    Floor,
    Start,
    /// A checkpoint zone; the number is its group (connected zone) index.
    Check(u8),
    Exit,
}

impl Tile {
    pub fn is_zone(self) -> bool {
        matches!(self, Tile::Start | Tile::Check(_) | Tile::Exit)
    }
}

/// How one blue dot moves. Points are in cell units: `(3.0, 4.0)` is the
/// centre of column 3, row 4. `period` is in ticks; `phase` shifts the start.
#[derive(Clone, Debug, PartialEq)]
pub enum Motion {
    /// Back and forth along a straight segment.
    Line {
        a: (f32, f32),
        b: (f32, f32),
        period: u32,
        phase: u32,
    },
    /// Round a circle (counter-clockwise on screen when `ccw`).
    Circle {
        c: (f32, f32),
        r: f32,
        period: u32,
        phase: u32,
        ccw: bool,
    },
    /// Round a closed polyline at constant speed.
    Loop {
        pts: Vec<(f32, f32)>,
        period: u32,
        phase: u32,
    },
}

/// Cell-unit point to maze pixels (relative to the maze's top-left corner).
fn px(p: (f32, f32)) -> (f32, f32) {
    ((p.0 + 0.5) * TILE as f32, (p.1 + 0.5) * TILE as f32)
}

impl Motion {
    pub fn period(&self) -> u32 {
        match self {
            Motion::Line { period, .. }
            | Motion::Circle { period, .. }
            | Motion::Loop { period, .. } => *period,
        }
    }

    /// Dot centre in maze pixels at tick `t`.
    pub fn pos(&self, t: u64) -> (f32, f32) {
        let frac =
            |period: u32, phase: u32| ((t + phase as u64) % period as u64) as f64 / period as f64;
        match self {
            Motion::Line {
                a,
                b,
                period,
                phase,
            } => {
                let u = frac(*period, *phase);
                let f = if u < 0.5 { 2.0 * u } else { 2.0 - 2.0 * u } as f32;
                let (a, b) = (px(*a), px(*b));
                (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
            }
            Motion::Circle {
                c,
                r,
                period,
                phase,
                ccw,
            } => {
                let ang = TAU * frac(*period, *phase) * if *ccw { -1.0 } else { 1.0 };
                let c = px(*c);
                let rad = (*r * TILE as f32) as f64;
                (
                    c.0 + (rad * libm::cos(ang)) as f32,
                    c.1 + (rad * libm::sin(ang)) as f32,
                )
            }
            Motion::Loop { pts, period, phase } => {
                let n = pts.len();
                let seg = |i: usize| {
                    let (a, b) = (px(pts[i]), px(pts[(i + 1) % n]));
                    (a, b, ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt())
                };
                let total: f32 = (0..n).map(|i| seg(i).2).sum();
                let mut s = frac(*period, *phase) as f32 * total;
                for i in 0..n {
                    let (a, b, len) = seg(i);
                    if s <= len || i == n - 1 {
                        let f = if len > 0.0 { (s / len).min(1.0) } else { 0.0 };
                        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
                    }
                    s -= len;
                }
                px(pts[0])
            }
        }
    }
}

/// Shorthand constructors for level tables.
pub fn line(a: (f32, f32), b: (f32, f32), period: u32, phase: u32) -> Motion {
    Motion::Line {
        a,
        b,
        period,
        phase,
    }
}
pub fn circle(c: (f32, f32), r: f32, period: u32, phase: u32, ccw: bool) -> Motion {
    Motion::Circle {
        c,
        r,
        period,
        phase,
        ccw,
    }
}
pub fn path_loop(pts: &[(f32, f32)], period: u32, phase: u32) -> Motion {
    Motion::Loop {
        pts: pts.to_vec(),
        period,
        phase,
    }
}

/// A level as written by hand: 15 rows of 30 characters and its dots.
/// `#` wall, `.` floor, `S` start zone, `P` start zone where the player
/// appears, `C` checkpoint zone, `E` exit zone, `o` a coin on the floor.
pub struct LevelSpec {
    pub name: &'static str,
    pub map: [&'static str; ROWS],
    pub dots: Vec<Motion>,
}

/// Where the player is and what it carries; the dot clock `t` (ticks since
/// the level began, plus the episode's phase offset) is part of it because
/// dot positions are a function of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Body {
    pub x: i32,
    pub y: i32,
    pub t: u64,
    /// Bit i set = coin i collected (and not lost to a death).
    pub coins: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickEvent {
    Alive,
    Died,
    /// Stood on the exit with every coin: the level is complete.
    Exited,
}

/// A built level: tiles, coins, respawn points and the dot table.
pub struct Level {
    pub name: &'static str,
    pub tiles: Vec<Tile>,
    /// Coin centres in maze pixels.
    pub coins: Vec<(i32, i32)>,
    /// Player start (maze pixels, a tile centre).
    pub start: (i32, i32),
    /// Respawn point of each checkpoint group.
    pub checkpoints: Vec<(i32, i32)>,
    pub motions: Vec<Motion>,
    /// Common period of all dots, in ticks.
    pub period: u64,
    /// Dot positions for every tick of one period: `table[phase * n + i]`.
    table: Vec<(f32, f32)>,
    /// Per cell, the dots that can touch a player whose centre is in it.
    near: Vec<Vec<u16>>,
    /// Maze distance (tiles) from every cell to the nearest exit cell.
    exit_dist: Vec<i32>,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

pub fn cell_center(c: usize, r: usize) -> (i32, i32) {
    (c as i32 * TILE + TILE / 2, r as i32 * TILE + TILE / 2)
}

impl Level {
    pub fn build(spec: LevelSpec) -> Level {
        let mut tiles = vec![Tile::Wall; COLS * ROWS];
        let mut coins = Vec::new();
        let mut start = None;
        for (r, row) in spec.map.iter().enumerate() {
            assert_eq!(
                row.len(),
                COLS,
                "level {} row {r} must be {COLS} wide",
                spec.name
            );
            for (c, ch) in row.chars().enumerate() {
                tiles[r * COLS + c] = match ch {
                    '#' => Tile::Wall,
                    '.' => Tile::Floor,
                    'o' => {
                        coins.push(cell_center(c, r));
                        Tile::Floor
                    }
                    'S' => Tile::Start,
                    'P' => {
                        start = Some(cell_center(c, r));
                        Tile::Start
                    }
                    'C' => Tile::Check(u8::MAX),
                    'E' => Tile::Exit,
                    other => panic!("level {}: unknown map character {other:?}", spec.name),
                };
            }
        }
        // Number the checkpoint zones; each respawns at its cell nearest its centroid.
        let mut checkpoints = Vec::new();
        for i in 0..tiles.len() {
            if tiles[i] != Tile::Check(u8::MAX) {
                continue;
            }
            let g = checkpoints.len() as u8;
            let mut stack = vec![i];
            let mut cells = Vec::new();
            tiles[i] = Tile::Check(g);
            while let Some(j) = stack.pop() {
                cells.push(j);
                let (c, r) = (j % COLS, j / COLS);
                let mut nb = Vec::new();
                if c > 0 {
                    nb.push(j - 1);
                }
                if c + 1 < COLS {
                    nb.push(j + 1);
                }
                if r > 0 {
                    nb.push(j - COLS);
                }
                if r + 1 < ROWS {
                    nb.push(j + COLS);
                }
                for k in nb {
                    if tiles[k] == Tile::Check(u8::MAX) {
                        tiles[k] = Tile::Check(g);
                        stack.push(k);
                    }
                }
            }
            cells.sort_unstable();
            let n = cells.len() as f32;
            let (mx, my) = cells.iter().fold((0.0, 0.0), |(x, y), &j| {
                (x + (j % COLS) as f32 / n, y + (j / COLS) as f32 / n)
            });
            let best = *cells
                .iter()
                .min_by(|&&a, &&b| {
                    let d = |j: usize| {
                        ((j % COLS) as f32 - mx).powi(2) + ((j / COLS) as f32 - my).powi(2)
                    };
                    d(a).partial_cmp(&d(b)).unwrap()
                })
                .unwrap();
            checkpoints.push(cell_center(best % COLS, best / COLS));
        }
        let start = start.unwrap_or_else(|| panic!("level {} has no P start cell", spec.name));
        let period = spec.dots.iter().fold(1u64, |l, m| {
            l / gcd(l, m.period() as u64) * m.period() as u64
        });
        assert!(
            period <= 4800,
            "level {}: dot periods have a common period of {period} ticks",
            spec.name
        );
        let n = spec.dots.len();
        let mut table = Vec::with_capacity(period as usize * n);
        for t in 0..period {
            for m in &spec.dots {
                table.push(m.pos(t));
            }
        }
        // Bounding box of each dot's whole path, for the per-cell near lists.
        let mut near = vec![Vec::new(); COLS * ROWS];
        let reach = DOT_R + PLAYER_HIT + TILE as f32 / 2.0 + 1.0;
        for i in 0..n {
            let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for t in 0..period as usize {
                let (x, y) = table[t * n + i];
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
            for (j, list) in near.iter_mut().enumerate() {
                let (cx, cy) = cell_center(j % COLS, j / COLS);
                let (cx, cy) = (cx as f32, cy as f32);
                if cx + reach > x0 && cx - reach < x1 && cy + reach > y0 && cy - reach < y1 {
                    list.push(i as u16);
                }
            }
        }
        let mut level = Level {
            name: spec.name,
            tiles,
            coins,
            start,
            checkpoints,
            motions: spec.dots,
            period,
            table,
            near,
            exit_dist: Vec::new(),
        };
        let exits: Vec<usize> = (0..COLS * ROWS)
            .filter(|&j| level.tiles[j] == Tile::Exit)
            .collect();
        assert!(!exits.is_empty(), "level {} has no exit", level.name);
        level.exit_dist = level.distances(&exits);
        assert!(level.coins.len() <= 32);
        level
    }

    pub fn tile(&self, c: i32, r: i32) -> Tile {
        if c < 0 || r < 0 || c >= COLS as i32 || r >= ROWS as i32 {
            return Tile::Wall;
        }
        self.tiles[r as usize * COLS + c as usize]
    }

    /// The tile under a maze-pixel point.
    pub fn tile_at(&self, x: i32, y: i32) -> Tile {
        self.tile(x.div_euclid(TILE), y.div_euclid(TILE))
    }

    pub fn cell_of(x: i32, y: i32) -> Option<usize> {
        let (c, r) = (x.div_euclid(TILE), y.div_euclid(TILE));
        (c >= 0 && r >= 0 && c < COLS as i32 && r < ROWS as i32)
            .then(|| r as usize * COLS + c as usize)
    }

    /// Whether a tile-sized box centred at (x, y) would overlap a wall.
    pub fn blocked(&self, x: i32, y: i32) -> bool {
        let h = TILE / 2;
        let (c0, c1) = ((x - h).div_euclid(TILE), (x + h - 1).div_euclid(TILE));
        let (r0, r1) = ((y - h).div_euclid(TILE), (y + h - 1).div_euclid(TILE));
        (r0..=r1).any(|r| (c0..=c1).any(|c| self.tile(c, r) == Tile::Wall))
    }

    pub fn dot_count(&self) -> usize {
        self.motions.len()
    }

    /// Dot `i`'s centre (maze pixels) at dot-clock tick `t`.
    pub fn dot_pos(&self, i: usize, t: u64) -> (f32, f32) {
        let n = self.motions.len();
        self.table[(t % self.period) as usize * n + i]
    }

    /// Whether any dot touches the player square centred at (x, y) at tick `t`.
    pub fn dot_hit(&self, t: u64, x: i32, y: i32) -> bool {
        let Some(cell) = Level::cell_of(x, y) else {
            return false;
        };
        let (fx, fy) = (x as f32, y as f32);
        self.near[cell].iter().any(|&i| {
            let (dx, dy) = self.dot_pos(i as usize, t);
            let ex = ((dx - fx).abs() - PLAYER_HIT).max(0.0);
            let ey = ((dy - fy).abs() - PLAYER_HIT).max(0.0);
            ex * ex + ey * ey < DOT_R * DOT_R
        })
    }

    /// Bitmask of the coins the player square centred at (x, y) touches.
    pub fn coins_touching(&self, x: i32, y: i32) -> u32 {
        let mut mask = 0;
        for (i, &(cx, cy)) in self.coins.iter().enumerate() {
            let ex = ((cx - x).abs() as f32 - PLAYER_HIT).max(0.0);
            let ey = ((cy - y).abs() as f32 - PLAYER_HIT).max(0.0);
            if ex * ex + ey * ey < COIN_R * COIN_R {
                mask |= 1 << i;
            }
        }
        mask
    }

    pub fn all_coins(&self) -> u32 {
        if self.coins.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.coins.len()) - 1
        }
    }

    /// One 10 ms tick: move along (dx, dy) unless a wall is in the way, then
    /// dots, coins and the exit, in that order.
    pub fn tick(&self, b: &mut Body, dx: i32, dy: i32) -> TickEvent {
        b.t += 1;
        if dx != 0 && !self.blocked(b.x + dx * SPEED, b.y) {
            b.x += dx * SPEED;
        }
        if dy != 0 && !self.blocked(b.x, b.y + dy * SPEED) {
            b.y += dy * SPEED;
        }
        if self.dot_hit(b.t, b.x, b.y) {
            return TickEvent::Died;
        }
        b.coins |= self.coins_touching(b.x, b.y);
        if self.tile_at(b.x, b.y) == Tile::Exit && b.coins & self.all_coins() == self.all_coins() {
            return TickEvent::Exited;
        }
        TickEvent::Alive
    }

    /// Breadth-first maze distance (in tiles) from every cell to the nearest
    /// of `targets`; -1 where unreachable.
    pub fn distances(&self, targets: &[usize]) -> Vec<i32> {
        let mut dist = vec![-1; COLS * ROWS];
        let mut queue = std::collections::VecDeque::new();
        for &t in targets {
            dist[t] = 0;
            queue.push_back(t);
        }
        while let Some(j) = queue.pop_front() {
            let (c, r) = ((j % COLS) as i32, (j / COLS) as i32);
            for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nc, nr) = (c + dc, r + dr);
                if self.tile(nc, nr) == Tile::Wall {
                    continue;
                }
                let k = nr as usize * COLS + nc as usize;
                if dist[k] < 0 {
                    dist[k] = dist[j] + 1;
                    queue.push_back(k);
                }
            }
        }
        dist
    }

    /// How much of two levels' layout is the same: of the cells open in
    /// either, the share that holds the same kind of tile in both (floor,
    /// start, checkpoint or exit). Two levels built on one corridor score
    /// high even when their dots and coins differ.
    pub fn shared_layout(&self, other: &Level) -> f64 {
        let kind = |t: Tile| match t {
            Tile::Check(_) => Tile::Check(0),
            t => t,
        };
        let (mut open, mut same) = (0usize, 0usize);
        for (&a, &b) in self.tiles.iter().zip(&other.tiles) {
            if a == Tile::Wall && b == Tile::Wall {
                continue;
            }
            open += 1;
            same += usize::from(kind(a) == kind(b));
        }
        same as f64 / open.max(1) as f64
    }

    /// Maze distance from the player's cell to the exit.
    pub fn exit_distance(&self, x: i32, y: i32) -> i32 {
        Level::cell_of(x, y).map_or(-1, |c| self.exit_dist[c])
    }
}
