//! Scripted Wolfenstein 3D expert. It reads the map, the guards and the
//! pickups (privileged state, no random draws):
//!
//! 1. If a living guard is in plain sight, turn towards the quickest one to
//!    aim at and
//!    fire once the shot would land inside the hit cone (knife: walk up to
//!    it first when out of bullets and no clip is reachable).
//! 2. Otherwise plan a breadth-first path over the tiles (doors count as
//!    passable) to the nearest useful goal: a clip when out of bullets, a
//!    health pickup when hurt badly, else the nearest living guard. Follow
//!    it by aiming at the farthest path tile still in clear sight (string
//!    pulling), opening closed doors on the way.

use super::{
    KNIFE_RANGE, PLAYER_RADIUS, TURN_RATE, USE_REACH, Wolf3d, hit_cone, level::PickupKind,
    level::SIZE, wrap,
};
use crate::raycast::{self, Cell};
use std::collections::VecDeque;

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
    let grid = game.grid();
    let start = game.player_tile();
    let idx = |(c, r): (i32, i32)| r as usize * SIZE + c as usize;
    let mut prev = vec![usize::MAX; SIZE * SIZE];
    prev[idx(start)] = idx(start);
    let mut q = VecDeque::from([start]);
    while let Some(t) = q.pop_front() {
        if goals.contains(&t) {
            let mut path = vec![t];
            let mut i = idx(t);
            while prev[i] != i {
                i = prev[i];
                path.push(((i % SIZE) as i32, (i / SIZE) as i32));
            }
            path.reverse();
            return Some(path);
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
    None
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
fn follow(game: &Wolf3d, path: &[(i32, i32)]) -> &'static str {
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
                    return "wait";
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
    if off.abs() > 0.3 {
        turn_towards(off)
    } else {
        "move_forward"
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
    // 2. Navigate.
    let goals = if game.ammo() == 0 && !ammo_goals.is_empty() {
        ammo_goals
    } else {
        let health = pickup_goals(game, |k| {
            matches!(k, PickupKind::FirstAid | PickupKind::Food)
        });
        if game.health() <= 40 && !health.is_empty() {
            health
        } else {
            game.guards()
                .iter()
                .filter(|g| g.alive())
                .map(|g| (libm::floor(g.x) as i32, libm::floor(g.y) as i32))
                .collect()
        }
    };
    match path_to(game, &goals) {
        Some(path) if path.len() > 1 => follow(game, &path),
        // Nothing to walk to: look around.
        _ => "turn_right",
    }
}
