//! Scripted Pac-Man expert: a ghost-aware search over the game's own rules.
//!
//! Each step it plays every sequence of three actions (a wait or one of the
//! four keys each) on a copy of the game and scores where each sequence
//! ends. The copy runs the real tick code, so Pac-Man's turns, the ghosts'
//! chase targets, energizers and collisions are exactly the game's; only the
//! copy's random stream is an unrelated one, so the expert never reads the
//! game's future draws (they only steer frightened ghosts). A sequence that
//! loses a life is ruled out. The end state is scored by the points it made
//! and by what it leaves open: Pac-Man's safe region is the set of tiles he
//! reaches before any ghost that will be dangerous could (ghost path lengths
//! at ghost speed, a frightened ghost counting only once its fright ends);
//! a small safe region is a trap. Inside it, the closer the next pellet the
//! better, and while ghosts are blue the closer a catchable one the better.
//! An energizer eaten with no hunting ghost nearby is a waste of the points
//! its blue ghosts could bring, so that costs.

use super::*;
use std::collections::VecDeque;

const NT: usize = W * H;
/// Actions looked ahead per decision.
const DEPTH: usize = 3;
/// Ticks of slack a tile needs between Pac-Man's arrival and a ghost's.
const MARGIN: i32 = 12;
/// A safe region smaller than this (tiles) counts as a trap.
const ROOMY: i32 = 24;

fn idx(x: i32, y: i32) -> usize {
    y as usize * W + x.rem_euclid(W as i32) as usize
}

fn neighbours(cells: &Grid, x: i32, y: i32) -> impl Iterator<Item = (i32, i32)> + '_ {
    DIRS.iter().filter_map(move |&d| {
        let (dx, dy) = d.delta();
        let (nx, ny) = ((x + dx).rem_euclid(W as i32), y + dy);
        open(cells, nx, ny).then_some((nx, ny))
    })
}

/// Tile-step distances from `seed` along open tiles.
fn bfs(cells: &Grid, seed: (i32, i32)) -> Vec<i32> {
    let mut dist = vec![i32::MAX; NT];
    if !open(cells, seed.0, seed.1) {
        return dist;
    }
    dist[idx(seed.0, seed.1)] = 0;
    let mut q = VecDeque::from([seed]);
    while let Some((x, y)) = q.pop_front() {
        let d = dist[idx(x, y)];
        for (nx, ny) in neighbours(cells, x, y) {
            if dist[idx(nx, ny)] == i32::MAX {
                dist[idx(nx, ny)] = d + 1;
                q.push_back((nx, ny));
            }
        }
    }
    dist
}

/// One expert action: a wait (0.5 s) or a key press (0.2 s), as bound in
/// the registry.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Act {
    Wait,
    Press(Dir),
}

const ACTS: [Act; 5] = [
    Act::Wait,
    Act::Press(Dir::Up),
    Act::Press(Dir::Left),
    Act::Press(Dir::Down),
    Act::Press(Dir::Right),
];

fn play(c: &mut Pacman, act: Act) {
    match act {
        Act::Wait => c.advance(500),
        Act::Press(d) => {
            c.steer(d);
            c.advance(200);
        }
    }
}

/// Ticks until some ghost that is (or will be) dangerous could stand on each
/// tile: its path length at its hunting speed, not before its fright ends,
/// ghosts in or returning to the pen starting from the pen's door later.
fn danger(g: &Pacman) -> Vec<i32> {
    let gspeed = ghost_speed(g.level).max(1);
    let fright = (g.fright_ms / TICK_MS) as i32;
    let mut out = vec![i32::MAX; NT];
    for gh in &g.ghosts {
        let (seed, delay) = match gh.state {
            GhostState::Active => (gh.m.tile(), 0),
            GhostState::Leaving => (HOUSE_EXIT, 30),
            GhostState::InHouse => (HOUSE_EXIT, 100),
            GhostState::Eyes | GhostState::Entering => (HOUSE_EXIT, 150),
        };
        let harmless_for = if gh.frightened { fright } else { 0 };
        let d = bfs(&g.cells, seed);
        for (t, &v) in d.iter().enumerate() {
            if v != i32::MAX {
                let at = (delay + v * U / gspeed).max(harmless_for);
                out[t] = out[t].min(at);
            }
        }
    }
    out
}

/// What the end of a sequence is worth beyond its points.
fn outlook(g: &Pacman) -> f64 {
    if matches!(g.phase, Phase::LevelClear(_)) {
        return 0.0;
    }
    let cells = &g.cells;
    let threat = danger(g);
    let step = U / g.pac_speed().max(1);
    // Pac-Man's safe region, by breadth-first search from his tile.
    let start = g.pac.tile();
    let mut dist = vec![i32::MAX; NT];
    dist[idx(start.0, start.1)] = 0;
    let mut q = VecDeque::from([start]);
    let mut roomy = 0;
    let mut pellet: Option<i32> = None;
    while let Some((x, y)) = q.pop_front() {
        let d = dist[idx(x, y)];
        roomy += 1;
        if pellet.is_none() && g.pellets[y as usize][x as usize] > 0 {
            pellet = Some(d);
        }
        for (nx, ny) in neighbours(cells, x, y) {
            let j = idx(nx, ny);
            if dist[j] == i32::MAX && (d + 1) * step + MARGIN < threat[j] {
                dist[j] = d + 1;
                q.push_back((nx, ny));
            }
        }
    }
    let mut v = 0.0;
    if roomy < ROOMY {
        v -= 40.0 * (ROOMY - roomy) as f64;
    }
    // The nearest pellet (a far one when the safe region holds none).
    let pellet = pellet.unwrap_or_else(|| {
        let all = bfs(cells, start);
        (0..NT)
            .filter(|&i| g.pellets[i / W][i % W] > 0)
            .map(|i| all[i])
            .min()
            .map_or(0, |d| d.saturating_add(10))
    });
    v -= 2.0 * pellet.min(60) as f64;
    // A blue ghost Pac-Man can still catch pulls hard.
    if g.fright_ms > 0 {
        let all = bfs(cells, start);
        let left = (g.fright_ms / TICK_MS) as i32;
        let prey = g
            .ghosts
            .iter()
            .filter(|gh| gh.frightened && gh.state == GhostState::Active)
            .map(|gh| {
                let (x, y) = gh.m.tile();
                all[idx(x, y)]
            })
            .filter(|&d| d != i32::MAX && d * step + 40 < left)
            .min();
        if let Some(d) = prey {
            v += 200.0 - 12.0 * d as f64;
        }
    }
    v
}

/// Hunting ghosts within `tiles` path steps of Pac-Man.
fn hunters_near(g: &Pacman, tiles: i32) -> usize {
    let d = bfs(&g.cells, g.pac.tile());
    g.ghosts
        .iter()
        .filter(|gh| gh.dangerous())
        .filter(|gh| {
            let (x, y) = gh.m.tile();
            d[idx(x, y)] <= tiles
        })
        .count()
}

struct Search {
    root_score: u32,
    root_deaths: u32,
    root_power: u32,
    root_hunters: usize,
}

impl Search {
    /// The best value reachable from `c` within `depth` more actions.
    fn best(&self, c: &Pacman, depth: usize) -> f64 {
        if c.deaths > self.root_deaths || matches!(c.phase, Phase::Over | Phase::Dying(_)) {
            return -1e6;
        }
        let mut v = c.score as f64 - self.root_score as f64;
        if c.power_eaten > self.root_power && self.root_hunters < 2 {
            // Blue ghosts far away will not be caught: the energizer's real
            // prize (200 + 400 + …) is lost.
            v -= 250.0 * (c.power_eaten - self.root_power) as f64;
        }
        if depth == 0 {
            return v + outlook(c);
        }
        ACTS.iter()
            .map(|&a| {
                let mut n = c.clone();
                play(&mut n, a);
                self.best(&n, depth - 1)
            })
            .fold(f64::MIN, f64::max)
    }
}

/// The expert's key for this step (`None` = wait).
pub fn choose(g: &Pacman, _task: &TaskInfo) -> Option<Dir> {
    if matches!(
        g.phase,
        Phase::Over | Phase::Dying(_) | Phase::LevelClear(_)
    ) {
        return None;
    }
    // The look-ahead copy draws from its own stream, not the game's.
    let mut copy = g.clone();
    copy.rng = Rng::new(0x23e7_5eed, g.game_time_ms);
    let search = Search {
        root_score: g.score,
        root_deaths: g.deaths,
        root_power: g.power_eaten,
        root_hunters: hunters_near(g, 10),
    };
    let mut best: Option<(f64, Act)> = None;
    for &a in &ACTS {
        if g.phase == Phase::Ready && a == Act::Wait {
            continue;
        }
        let mut n = copy.clone();
        play(&mut n, a);
        let v = search.best(&n, DEPTH - 1);
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, a));
        }
    }
    match best {
        Some((_, Act::Press(d))) => Some(d),
        _ => None,
    }
}
