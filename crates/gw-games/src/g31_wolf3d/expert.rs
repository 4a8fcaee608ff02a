//! Scripted Wolfenstein 3D expert. It reads the map, the guards and the
//! pickups (privileged state, no random draws):
//!
//! 1. If a living guard is in plain sight, turn towards the quickest one to
//!    aim at and
//!    fire once the shot would land inside the hit cone (knife: walk up to
//!    it first when out of bullets and no clip is reachable).
//! 2. Otherwise plan a breadth-first path over the tiles (doors count as
//!    passable) to a goal: the nearest clip when out of bullets (walking
//!    backwards to one close behind), the nearest health pickup when hurt
//!    badly, else the first guard of the cheapest route through two of the
//!    six nearest living guards, costed in steps: walking, closed doors and
//!    the turns at the start and between legs. Follow the path by aiming
//!    at the farthest path tile still in clear sight (string pulling),
//!    opening closed doors on the way; while a door slides open, turn
//!    towards a guard that will be in sight through it.

use super::{
    KNIFE_RANGE, PLAYER_RADIUS, TURN_RATE, USE_REACH, Wolf3d, hit_cone, level::PickupKind,
    level::SIZE, wrap,
};
use crate::raycast::{self, Cell};
use std::collections::VecDeque;

/// Guards ordered per route (the expert heads for the first guard of the
/// cheapest order of this many), chosen among this many nearest guards.
const ROUTE_DEPTH: usize = 2;
const ROUTE_CANDIDATES: usize = 6;
/// Steps a closed door costs on a route (open, wait for it to slide).
const DOOR_STEPS: f64 = 2.0;
/// Tiles per 0.2 s step walking forward.
const STEP_TILES: f64 = 0.6;
/// Longest path (tiles) the expert walks backwards instead of turning round.
const BACK_TILES: usize = 6;

/// Radians one 0.2 s turn press rotates.
const TURN_STEP: f64 = TURN_RATE * 0.2;

fn turn_towards(off: f64) -> &'static str {
    if off > 0.0 { "turn_right" } else { "turn_left" }
}

/// Breadth-first path from the player's tile to the nearest tile in `goals`
/// (tiles in order, the player's own first); doors are passable.
fn path_to(game: &Wolf3d, goals: &[(i32, i32)]) -> Option<Vec<(i32, i32)>> {
    if goals.is_empty() {
        return None;
    }
    let (prev, found) = bfs(game, game.player_tile(), |t| goals.contains(&t));
    let goal = found?;
    let idx = |(c, r): (i32, i32)| r as usize * SIZE + c as usize;
    let mut path = vec![goal];
    let mut i = idx(goal);
    while prev[i] != i {
        i = prev[i];
        path.push(((i % SIZE) as i32, (i / SIZE) as i32));
    }
    path.reverse();
    Some(path)
}

/// Breadth-first search from `start` over non-wall tiles (doors passable),
/// stopping at the first tile taken from the queue for which `stop` holds:
/// the predecessors so far (`prev[i]` is the tile index before `i`,
/// `usize::MAX` where not reached, `start` itself for the start) and that
/// tile, if any.
fn bfs(
    game: &Wolf3d,
    start: (i32, i32),
    stop: impl Fn((i32, i32)) -> bool,
) -> (Vec<usize>, Option<(i32, i32)>) {
    let grid = game.grid();
    let idx = |(c, r): (i32, i32)| r as usize * SIZE + c as usize;
    let mut prev = vec![usize::MAX; SIZE * SIZE];
    prev[idx(start)] = idx(start);
    let mut q = VecDeque::from([start]);
    while let Some(t) = q.pop_front() {
        if stop(t) {
            return (prev, Some(t));
        }
        for (dc, dr) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let n = (t.0 + dc, t.1 + dr);
            if matches!(grid.get(n.0, n.1), Cell::Wall { .. }) {
                continue;
            }
            if prev[idx(n)] == usize::MAX {
                prev[idx(n)] = idx(t);
                q.push_back(n);
            }
        }
    }
    (prev, None)
}

/// Whether the player's whole body could walk straight to (x, y): three
/// parallel sight lines (centre and both shoulders) are clear.
fn clear_walk(game: &Wolf3d, x: f64, y: f64) -> bool {
    let p = game.player();
    let (dx, dy) = (x - p.x, y - p.y);
    let len = libm::sqrt(dx * dx + dy * dy);
    if len < 1e-6 {
        return true;
    }
    let (nx, ny) = (
        -dy / len * (PLAYER_RADIUS + 0.05),
        dx / len * (PLAYER_RADIUS + 0.05),
    );
    [(0.0, 0.0), (nx, ny), (-nx, -ny)]
        .iter()
        .all(|&(ox, oy)| raycast::line_of_sight(game.grid(), p.x + ox, p.y + oy, x + ox, y + oy))
}

/// Steer along `path`: open a closed door ahead, else aim at the farthest
/// path tile in clear sight and walk.
fn follow(game: &Wolf3d, path: &[(i32, i32)], may_back: bool) -> &'static str {
    let p = game.player();
    let grid = game.grid();
    // The first closed door on the path cuts it short.
    let mut end = path.len();
    for (k, &(c, r)) in path.iter().enumerate().skip(1) {
        if let Cell::Door { open, .. } = grid.get(c, r)
            && open < 0.9
        {
            let (dx, dy) = (c as f64 + 0.5 - p.x, r as f64 + 0.5 - p.y);
            let d = libm::sqrt(dx * dx + dy * dy);
            let off = wrap(libm::atan2(dy, dx) - p.angle);
            if k == 1 || d < USE_REACH {
                let opening = game
                    .doors()
                    .iter()
                    .any(|door| (door.c as i32, door.r as i32) == (c, r) && door.opening);
                if opening {
                    return while_door_opens(game, (c, r));
                }
                if d < USE_REACH - 0.05 {
                    if off.abs() < 0.6 {
                        return "open_door";
                    }
                    return turn_towards(off);
                }
            }
            end = k + 1;
            break;
        }
    }
    let mut aim = path.get(1).copied().unwrap_or(path[0]);
    for &(c, r) in path[1..end].iter().rev() {
        if clear_walk(game, c as f64 + 0.5, r as f64 + 0.5) {
            aim = (c, r);
            break;
        }
    }
    let (dx, dy) = (aim.0 as f64 + 0.5 - p.x, aim.1 as f64 + 0.5 - p.y);
    let off = wrap(libm::atan2(dy, dx) - p.angle);
    if may_back && off.abs() > core::f64::consts::FRAC_PI_2 + 0.3 {
        let back = wrap(off - core::f64::consts::PI);
        if back.abs() > 0.3 {
            return turn_towards(back);
        }
        return "move_backward";
    }
    if off.abs() > 0.3 {
        turn_towards(off)
    } else {
        "move_forward"
    }
}

/// What to do while the door at `door` slides open: if a living guard will
/// be in sight through it, turn towards that guard now (so the shot can
/// follow as soon as the door clears); otherwise wait.
fn while_door_opens(game: &Wolf3d, door: (i32, i32)) -> &'static str {
    let p = game.player();
    let mut grid = game.grid().clone();
    if let Cell::Door { tex, across_x, .. } = grid.get(door.0, door.1) {
        grid.set(
            door.0 as usize,
            door.1 as usize,
            Cell::Door {
                tex,
                open: 1.0,
                across_x,
            },
        );
    }
    let mut best: Option<(f64, f64)> = None;
    for g in game.guards().iter().filter(|g| g.alive()) {
        if game.visible(g) || !raycast::line_of_sight(&grid, p.x, p.y, g.x, g.y) {
            continue;
        }
        let (dx, dy) = (g.x - p.x, g.y - p.y);
        let d = libm::sqrt(dx * dx + dy * dy);
        let off = wrap(libm::atan2(dy, dx) - p.angle);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, off));
        }
    }
    match best {
        Some((d, off)) if off.abs() > hit_cone(d) * 0.85 && off.abs() > TURN_STEP * 0.5 => {
            turn_towards(off)
        }
        _ => "wait",
    }
}

/// Breadth-first predecessors of every tile reachable from `start`
/// (see [`bfs`]).
fn bfs_prev(game: &Wolf3d, start: (i32, i32)) -> Vec<usize> {
    bfs(game, start, |_| false).0
}

/// One leg of a route: its cost in steps (walking, closed doors), the
/// direction it leaves in and the direction it arrives in.
#[derive(Clone, Copy)]
struct Leg {
    cost: f64,
    depart: f64,
    arrive: f64,
}

fn leg(game: &Wolf3d, prev: &[usize], to: (i32, i32)) -> Option<Leg> {
    let mut i = to.1 as usize * SIZE + to.0 as usize;
    if prev[i] == usize::MAX {
        return None;
    }
    let mut path = vec![to];
    while prev[i] != i {
        i = prev[i];
        path.push(((i % SIZE) as i32, (i / SIZE) as i32));
    }
    path.reverse();
    let n = path.len();
    let doors = path
        .iter()
        .filter(|&&(c, r)| matches!(game.grid().get(c, r), Cell::Door { open, .. } if open < 0.9))
        .count();
    let dir = |a: (i32, i32), b: (i32, i32)| libm::atan2((b.1 - a.1) as f64, (b.0 - a.0) as f64);
    let k = 3.min(n - 1);
    Some(Leg {
        cost: (n - 1) as f64 / STEP_TILES + doors as f64 * DOOR_STEPS,
        depart: if n > 1 { dir(path[0], path[k]) } else { 0.0 },
        arrive: if n > 1 {
            dir(path[n - 1 - k], path[n - 1])
        } else {
            0.0
        },
    })
}

/// The first guard of the cheapest route through `depth` of the nearest
/// living guards, counting walking, doors and the turns at each guard.
fn plan_order(game: &Wolf3d, depth: usize) -> Option<(i32, i32)> {
    let p = game.player();
    let here = game.player_tile();
    let from_here = bfs_prev(game, here);
    let mut cand: Vec<((i32, i32), Leg)> = game
        .guards()
        .iter()
        .filter(|g| g.alive())
        .filter_map(|g| {
            let t = (libm::floor(g.x) as i32, libm::floor(g.y) as i32);
            leg(game, &from_here, t).map(|l| (t, l))
        })
        .collect();
    cand.sort_by(|a, b| a.1.cost.total_cmp(&b.1.cost));
    cand.truncate(ROUTE_CANDIDATES);
    let m = cand.len();
    if m == 0 {
        return None;
    }
    let preds: Vec<Vec<usize>> = cand.iter().map(|(t, _)| bfs_prev(game, *t)).collect();
    let legs: Vec<Vec<Option<Leg>>> = (0..m)
        .map(|a| (0..m).map(|b| leg(game, &preds[a], cand[b].0)).collect())
        .collect();
    let search = RouteSearch {
        depth: depth.min(m),
        first: cand.iter().map(|c| c.1).collect(),
        legs,
    };
    let mut best = None;
    search.extend(&mut Vec::new(), 0.0, p.angle, &mut best);
    best.map(|(_, j)| cand[j].0)
}

/// Exhaustive search over guard orders (pruned by the best cost so far).
struct RouteSearch {
    depth: usize,
    /// Leg from the player to each candidate, and between candidates.
    first: Vec<Leg>,
    legs: Vec<Vec<Option<Leg>>>,
}

impl RouteSearch {
    /// Extend the partial `order` (costing `cost`, facing `heading` at its
    /// end); `best` holds the cheapest full order's cost and first guard.
    fn extend(
        &self,
        order: &mut Vec<usize>,
        cost: f64,
        heading: f64,
        best: &mut Option<(f64, usize)>,
    ) {
        if best.is_some_and(|(b, _)| cost >= b) {
            return;
        }
        if order.len() == self.depth {
            *best = Some((cost, order[0]));
            return;
        }
        for j in 0..self.first.len() {
            if order.contains(&j) {
                continue;
            }
            let leg = match order.last() {
                None => Some(self.first[j]),
                Some(&i) => self.legs[i][j],
            };
            let Some(leg) = leg else { continue };
            let turns = wrap(leg.depart - heading).abs() / TURN_STEP;
            order.push(j);
            self.extend(order, cost + leg.cost + turns, leg.arrive, best);
            order.pop();
        }
    }
}

fn pickup_goals(game: &Wolf3d, want: impl Fn(PickupKind) -> bool) -> Vec<(i32, i32)> {
    game.pickups()
        .iter()
        .filter(|p| !p.taken && want(p.kind))
        .map(|p| (libm::floor(p.x) as i32, libm::floor(p.y) as i32))
        .collect()
}

/// The control the expert plays now.
pub fn choose(game: &Wolf3d) -> &'static str {
    if game.is_over() {
        return "wait";
    }
    let p = game.player();
    let ammo_goals = pickup_goals(game, PickupKind::is_ammo);
    // 1. A guard in sight: the one needing the fewest turn presses before a
    // shot lands (nearest on ties), so two guards in view do not make the
    // expert swing back and forth.
    let mut target: Option<(u32, f64, f64)> = None;
    for g in game.guards().iter().filter(|g| g.alive()) {
        if !game.visible(g) {
            continue;
        }
        let (dx, dy) = (g.x - p.x, g.y - p.y);
        let d = libm::sqrt(dx * dx + dy * dy);
        let off = wrap(libm::atan2(dy, dx) - p.angle);
        let turns = libm::ceil(((off.abs() - hit_cone(d) * 0.85) / TURN_STEP).max(0.0)) as u32;
        if target.is_none_or(|(bt, bd, _)| (turns, d) < (bt, bd)) {
            target = Some((turns, d, off));
        }
    }
    let target = target.map(|(_, d, off)| (d, off));
    if let Some((d, off)) = target {
        let armed = game.ammo() > 0;
        if armed || d <= KNIFE_RANGE || ammo_goals.is_empty() {
            let in_cone = off.abs() <= hit_cone(d) * 0.85;
            if in_cone && (armed || d <= KNIFE_RANGE) {
                return "shoot";
            }
            if in_cone || (off.abs() <= TURN_STEP * 0.5 && d > 1.5) {
                // Aimed (or a turn would overshoot): close in.
                return "move_forward";
            }
            return turn_towards(off);
        }
    }
    // 2. Navigate. Out of bullets: to the nearest clip, walking backwards
    // when it lies close behind (cheaper than turning round).
    if game.ammo() == 0
        && let Some(path) = path_to(game, &ammo_goals)
        && path.len() > 1
    {
        return follow(game, &path, path.len() - 1 <= BACK_TILES);
    }
    // Badly hurt: to the nearest health pickup; else to the first guard of
    // the cheapest short route.
    let health = pickup_goals(game, |k| {
        matches!(k, PickupKind::FirstAid | PickupKind::Food)
    });
    let goals = if game.health() <= 40 && !health.is_empty() {
        health
    } else if let Some(first) = plan_order(game, ROUTE_DEPTH) {
        vec![first]
    } else {
        game.guards()
            .iter()
            .filter(|g| g.alive())
            .map(|g| (libm::floor(g.x) as i32, libm::floor(g.y) as i32))
            .collect()
    };
    match path_to(game, &goals) {
        Some(path) if path.len() > 1 => {
            let back = game.ammo() == 0 && path.len() - 1 <= BACK_TILES;
            follow(game, &path, back)
        }
        // Nothing to walk to: look around.
        _ => "turn_right",
    }
}
