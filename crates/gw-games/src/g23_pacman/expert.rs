//! Scripted Pac-Man expert. Each step it plans a path with Dijkstra over
//! tiles (costs in time), entering a tile only when Pac-Man gets there
//! clearly before any dangerous ghost could (ghost BFS distance at ghost
//! speed). The goal is a reachable frightened ghost when there is time to
//! catch it, otherwise the nearest pellet (or bonus fruit), otherwise the
//! safest reachable tile. It then picks the key (or a wait) whose exact
//! Pac-Man movement follows that path furthest over a two-step look-ahead,
//! so it pre-buffers turns and waits along straight corridors. It reads only
//! the current state (no RNG, no ghost simulation).

use super::*;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

const NT: usize = W * H;

fn idx(x: i32, y: i32) -> usize {
    y as usize * W + x.rem_euclid(W as i32) as usize
}

fn neighbours(cells: &Grid, x: i32, y: i32) -> impl Iterator<Item = (Dir, i32, i32)> + '_ {
    DIRS.iter().filter_map(move |&d| {
        let (dx, dy) = d.delta();
        let (nx, ny) = ((x + dx).rem_euclid(W as i32), y + dy);
        open(cells, nx, ny).then_some((d, nx, ny))
    })
}

/// Tile-step distances from the given seeds (tile, initial steps).
fn bfs(cells: &Grid, seeds: &[((i32, i32), i32)]) -> Vec<i32> {
    let mut dist = vec![i32::MAX; NT];
    let mut q = VecDeque::new();
    let mut sorted: Vec<_> = seeds.to_vec();
    sorted.sort_by_key(|s| s.1);
    for &((x, y), d) in &sorted {
        if open(cells, x, y) && dist[idx(x, y)] > d {
            dist[idx(x, y)] = d;
            q.push_back((x, y));
        }
    }
    while let Some((x, y)) = q.pop_front() {
        let d = dist[idx(x, y)];
        for (_, nx, ny) in neighbours(cells, x, y) {
            if dist[idx(nx, ny)] > d + 1 {
                dist[idx(nx, ny)] = d + 1;
                q.push_back((nx, ny));
            }
        }
    }
    dist
}

/// Where Pac-Man can start a path from: the tile ahead and (when mid-tile)
/// the tile behind, with the sub-units needed to reach each.
fn pac_seeds(m: &Mover) -> Vec<((i32, i32), i32)> {
    if m.at_center() || !m.moving {
        return vec![(m.tile(), 0)];
    }
    let along = if matches!(m.dir, Dir::Left | Dir::Right) {
        m.x
    } else {
        m.y
    };
    let rem = along.rem_euclid(U);
    let positive = matches!(m.dir, Dir::Right | Dir::Down);
    let (ahead, behind) = if positive {
        (U - rem, rem)
    } else {
        (rem, U - rem)
    };
    let (dx, dy) = m.dir.delta();
    let tile_of = |x: i32, y: i32| (x.div_euclid(U).rem_euclid(W as i32), y.div_euclid(U));
    let head = tile_of(m.x + dx * ahead, m.y + dy * ahead);
    let back = tile_of(m.x - dx * behind, m.y - dy * behind);
    vec![(head, ahead), (back, behind)]
}

struct Plan {
    path: Vec<(i32, i32)>,
    /// Earliest ghost arrival (ticks from now) per tile.
    danger: Vec<i32>,
}

fn plan(g: &Pacman, margin_ticks: i32, safe: bool, save_power: bool) -> Option<Plan> {
    let cells = &g.cells;
    let pspeed = g.pac_speed();
    let gspeed = ghost_speed(g.level);
    // Ghost arrival time (ticks) at every tile, over the dangerous ghosts.
    let mut danger = vec![i32::MAX; NT];
    let mut prey: Vec<(i32, i32)> = Vec::new();
    for gh in &g.ghosts {
        let threat = match gh.state {
            GhostState::Active => !gh.frightened || g.fright_ms < 1200,
            GhostState::Leaving => !gh.frightened || g.fright_ms < 2500,
            _ => false,
        };
        if gh.frightened && matches!(gh.state, GhostState::Active) && !threat {
            prey.push(gh.m.tile());
        }
        if !threat {
            continue;
        }
        let seeds = if gh.state == GhostState::Leaving {
            vec![(HOUSE_EXIT, 2)]
        } else {
            vec![(gh.m.tile(), 0)]
        };
        let d = bfs(cells, &seeds);
        for (t, &v) in d.iter().enumerate() {
            if v != i32::MAX {
                danger[t] = danger[t].min(v * U / gspeed);
            }
        }
    }
    // Keep power pellets for when a ghost is near, so it can be eaten.
    let near = pac_seeds(&g.pac)
        .iter()
        .map(|&((x, y), _)| danger[idx(x, y)])
        .min()
        .unwrap_or(i32::MAX);
    let active = g
        .ghosts
        .iter()
        .filter(|gh| gh.state == GhostState::Active && !gh.frightened)
        .count();
    let keep_power = save_power
        && g.fright_ms == 0
        && !(near < 6 * U / gspeed.max(1) && active >= 2)
        && near > 3 * U / gspeed;
    let is_power = |i: usize| g.pellets[i / W][i % W] == 2;
    // Dijkstra over Pac-Man arrival time (ticks), respecting safety.
    let mut cost = vec![i32::MAX; NT];
    let mut parent = vec![usize::MAX; NT];
    let mut heap = BinaryHeap::new();
    for ((x, y), sub) in pac_seeds(&g.pac) {
        let t = sub / pspeed;
        let i = idx(x, y);
        if t < cost[i] {
            cost[i] = t;
            heap.push(Reverse((t, i)));
        }
    }
    let step = U / pspeed;
    while let Some(Reverse((c, i))) = heap.pop() {
        if c > cost[i] {
            continue;
        }
        let (x, y) = ((i % W) as i32, (i / W) as i32);
        for (_, nx, ny) in neighbours(cells, x, y) {
            let j = idx(nx, ny);
            let nc = c + step;
            if safe && danger[j] != i32::MAX && danger[j] <= nc + margin_ticks {
                continue;
            }
            if keep_power && is_power(j) {
                continue;
            }
            if nc < cost[j] {
                cost[j] = nc;
                parent[j] = i;
                heap.push(Reverse((nc, j)));
            }
        }
    }
    let reach = |i: usize| cost[i] != i32::MAX;
    let mut goal: Option<usize> = None;
    // A frightened ghost we can catch in time.
    for &(x, y) in &prey {
        let i = idx(x, y);
        if reach(i)
            && (cost[i] as u64 * TICK_MS) + 600 < g.fright_ms
            && goal.is_none_or(|gi| cost[i] < cost[gi])
        {
            goal = Some(i);
        }
    }
    if goal.is_none() {
        let fruit = g.fruit.map(|_| idx(FRUIT_TILE.0, FRUIT_TILE.1));
        goal = (0..NT)
            .filter(|&i| reach(i) && (g.pellets[i / W][i % W] > 0 || Some(i) == fruit))
            .min_by_key(|&i| (cost[i], i));
    }
    if goal.is_none() {
        // Nothing to eat safely: head for the reachable tile with the most slack.
        goal = (0..NT)
            .filter(|&i| reach(i) && cost[i] <= 8 * step)
            .max_by_key(|&i| (danger[i].saturating_sub(cost[i]), Reverse(i)));
    }
    let goal = goal?;
    let mut path = vec![((goal % W) as i32, (goal / W) as i32)];
    let mut cur = goal;
    while parent[cur] != usize::MAX {
        cur = parent[cur];
        path.push(((cur % W) as i32, (cur / W) as i32));
    }
    path.reverse();
    Some(Plan { path, danger })
}

/// Follow `full` from index `at` for `ticks` ticks with `buffered`; returns
/// the new mover, buffer and path index, or `None` when Pac-Man leaves the path.
struct Look<'a> {
    full: &'a [(i32, i32)],
    danger: &'a [i32],
}

fn follow(
    g: &Pacman,
    look: &Look,
    mut m: Mover,
    buffered: Option<Dir>,
    start_tick: i32,
    ticks: u32,
    mut at: usize,
) -> Option<(Mover, usize)> {
    let speed = g.pac_speed();
    let full = look.full;
    for k in 0..ticks as i32 {
        pac_tick(&g.cells, &mut m, buffered, speed);
        let t = m.tile();
        if look.danger[idx(t.0, t.1)] <= start_tick + k + 6 {
            return None;
        }
        if at + 1 >= full.len() {
            continue;
        }
        if t == full[at] {
            continue;
        }
        if t == full[at + 1] {
            at += 1;
        } else {
            return None;
        }
    }
    Some((m, at))
}

#[derive(Clone, Copy)]
enum Act {
    Wait,
    Press(Dir),
}

impl Act {
    fn apply(self, m: &mut Mover, buffered: Option<Dir>) -> (Option<Dir>, u32) {
        match self {
            Act::Wait => (buffered, 50),
            Act::Press(d) => {
                if m.moving && d == m.dir.opposite() {
                    m.dir = d;
                }
                (Some(d), 20)
            }
        }
    }
}

const ACTS: [Act; 5] = [
    Act::Wait,
    Act::Press(Dir::Up),
    Act::Press(Dir::Left),
    Act::Press(Dir::Down),
    Act::Press(Dir::Right),
];

/// The expert's key for this step (`None` = wait).
pub fn choose(g: &Pacman, _task: &TaskInfo) -> Option<Dir> {
    if matches!(
        g.phase,
        Phase::Over | Phase::Dying(_) | Phase::LevelClear(_)
    ) {
        return None;
    }
    let plan = plan(g, 12, true, true)
        .or_else(|| plan(g, 12, true, false))
        .or_else(|| plan(g, 0, true, false))
        .or_else(|| plan(g, 0, false, false))?;
    let mut full = vec![g.pac.tile()];
    for &t in &plan.path {
        if *full.last().expect("non-empty") != t {
            full.push(t);
        }
    }
    if full.len() < 2 {
        return None;
    }
    // Two-step look-ahead over {wait, four keys}.
    let look = Look {
        full: &full,
        danger: &plan.danger,
    };
    let mut best: Option<((usize, i32, i32), Act)> = None;
    for (k1, &a1) in ACTS.iter().enumerate() {
        let mut m1 = g.pac;
        let (b1, t1) = a1.apply(&mut m1, g.buffered);
        if g.phase == Phase::Ready && matches!(a1, Act::Wait) {
            continue;
        }
        let Some((m1, at1)) = follow(g, &look, m1, b1, 0, t1, 0) else {
            continue;
        };
        let mut second = at1;
        for &a2 in &ACTS {
            let mut m2 = m1;
            let (b2, t2) = a2.apply(&mut m2, b1);
            if let Some((_, at2)) = follow(g, &look, m2, b2, t1 as i32, t2, at1) {
                second = second.max(at2);
            }
        }
        let done_first = (at1 + 1 >= full.len()) as i32;
        let key = (second, done_first, -(k1 as i32));
        if best.is_none_or(|(bk, _)| key > bk) {
            best = Some((key, a1));
        }
    }
    match best {
        Some((_, Act::Press(d))) => Some(d),
        Some((_, Act::Wait)) => None,
        None => {
            // No action keeps to the path: steer to its first step directly.
            let (x0, y0) = full[0];
            let (x1, y1) = full[1];
            let dx = (x1 - x0 + W as i32 + 1).rem_euclid(W as i32) - 1;
            Some(match (dx, y1 - y0) {
                (1, _) => Dir::Right,
                (-1, _) => Dir::Left,
                (_, 1) => Dir::Down,
                _ => Dir::Up,
            })
        }
    }
}
