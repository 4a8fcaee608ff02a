//! Scripted Captain Callisto expert. It picks a goal — the coin nearest by
//! path while the task still needs coins, else the exit — and computes a
//! path-distance field to it over the level's free tiles (climbing costs
//! more in open air than on a ladder, so it prefers ladders and ledges).
//! Then it searches every sequence of the next [`DEPTH`] actions, rolling
//! each forward with the game's own [`World`] physics on a copy, and takes
//! the first action of the plan that ends closest to the goal without
//! losing a life (points and fuel gained count in its favour). The world
//! holds no randomness, so the copy sees nothing the game has not drawn.

use super::{COLS, EXIT_POINTS, Keys, ROWS, TICK_MS, World};
use std::collections::VecDeque;

const DEPTH: u32 = 3;

/// id, keys held, duration in ms (the role's bindings).
const ACTIONS: [(&str, Keys, u64); 7] = [
    ("move_right", Keys { left: false, right: true, up: false, down: false, jet: false }, 200),
    ("move_left", Keys { left: true, right: false, up: false, down: false, jet: false }, 200),
    ("jump", Keys { left: false, right: false, up: false, down: false, jet: false }, 10),
    ("jetpack", Keys { left: false, right: false, up: false, down: false, jet: true }, 200),
    ("move_up", Keys { left: false, right: false, up: true, down: false, jet: false }, 200),
    ("move_down", Keys { left: false, right: false, up: false, down: true, jet: false }, 200),
    ("wait", Keys { left: false, right: false, up: false, down: false, jet: false }, 200),
];

/// Path cost from every tile to `goal` (u32::MAX where unreachable).
fn distance_field(w: &World, goal: (i64, i64)) -> Vec<u32> {
    let idx = |x: i64, y: i64| (y as usize) * COLS + x as usize;
    let free = |x: i64, y: i64| !matches!(w.map.at(x, y, b'#'), b'#' | b'^');
    let supported = |x: i64, y: i64| {
        w.map.at(x, y, b'.') == b'H' || matches!(w.map.at(x, y + 1, b'#'), b'#' | b'=' | b'H')
    };
    let mut dist = vec![u32::MAX; COLS * ROWS];
    dist[idx(goal.0, goal.1)] = 0;
    // Dijkstra with small integer costs via a bucketed deque (0-3).
    let mut q = VecDeque::new();
    q.push_back(goal);
    while let Some((x, y)) = q.pop_front() {
        let d = dist[idx(x, y)];
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if !free(nx, ny) {
                continue;
            }
            // Moving from (nx, ny) to (x, y): going up costs more off
            // ladders, and so does crossing open air sideways (walking needs
            // ground; only fuel or a jump carries the captain there).
            let up = dy == 1;
            let ladder = w.map.at(nx, ny, b'.') == b'H' || w.map.at(x, y, b'.') == b'H';
            let c = if up {
                if ladder { 1 } else { 3 }
            } else if dy == 0 && !supported(nx, ny) && !supported(x, y) {
                3
            } else {
                1
            };
            if d + c < dist[idx(nx, ny)] {
                dist[idx(nx, ny)] = d + c;
                q.push_back((nx, ny));
            }
        }
    }
    dist
}

fn field_at(field: &[u32], cx: f64, cy: f64) -> f64 {
    // Smooth: best of the four nearest tile centres plus the way there.
    let mut best = f64::INFINITY;
    let (bx, by) = ((cx - 0.5).floor() as i64, (cy - 0.5).floor() as i64);
    for (x, y) in [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)] {
        if x < 0 || y < 0 || x >= COLS as i64 || y >= ROWS as i64 {
            continue;
        }
        let d = field[y as usize * COLS + x as usize];
        if d == u32::MAX {
            continue;
        }
        let e = ((x as f64 + 0.5 - cx).powi(2) + (y as f64 + 0.5 - cy).powi(2)).sqrt();
        best = best.min(d as f64 + e);
    }
    if best.is_finite() { best } else { 1.0e4 }
}

fn play(w: &mut World, keys: Keys, ms: u64, jump: bool) -> bool {
    w.keys = keys;
    if jump {
        w.press_jump();
    } else if keys != Keys::default() {
        w.waiting = false;
    }
    for _ in 0..(ms / TICK_MS).max(1) {
        w.tick();
        if w.death.is_some() {
            return false;
        }
        if w.exited {
            break;
        }
    }
    w.keys = Keys::default();
    true
}

/// Every plan is judged at the same game time (short plans keep their last
/// keys held until then), so a quick jump tap cannot be used to stall.
const HORIZON_MS: u64 = DEPTH as u64 * 200;

fn search(w: &World, a: usize, depth: u32, field: &[u32], elapsed: u64) -> f64 {
    let (_, keys, ms) = ACTIONS[a];
    let mut n = w.clone();
    if !play(&mut n, keys, ms, ACTIONS[a].0 == "jump") {
        return -1.0e9 + n.ticks as f64;
    }
    let elapsed = elapsed + ms;
    if depth <= 1 && elapsed < HORIZON_MS && !n.exited {
        // Pad with the same keys held (a jump tap pads with no keys).
        if !play(&mut n, keys, HORIZON_MS - elapsed, false) {
            return -1.0e9 + n.ticks as f64;
        }
    }
    if n.exited {
        // Sooner is better.
        return n.score() as f64 * 1000.0 - 0.1 * n.ticks as f64;
    }
    if depth <= 1 {
        let b = n.body.aabb;
        return n.score() as f64 * 1000.0 - 10.0 * field_at(field, b.center_x(), b.center_y())
            + 5.0 * n.fuel;
    }
    (0..ACTIONS.len())
        .map(|i| search(&n, i, depth - 1, field, elapsed))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The goal tile for a task whose score target is `target`.
pub fn goal(w: &World, target: f64) -> (i64, i64) {
    let exit = w.data().exit;
    let need_coins = target - EXIT_POINTS as f64 - w.coins as f64;
    let coins = w.map.find_all(b'c');
    if need_coins <= 0.0 || coins.is_empty() {
        return exit;
    }
    let b = w.body.aabb;
    let from_here = {
        let here = (b.center_x().floor() as i64, b.center_y().floor() as i64);
        distance_field(w, here)
    };
    *coins
        .iter()
        .min_by_key(|&&(x, y)| from_here[y as usize * COLS + x as usize])
        .unwrap_or(&exit)
}

/// The semantic action id for the next step.
pub fn choose(w: &World, target: f64) -> &'static str {
    if w.exited || w.death.is_some() {
        return "wait";
    }
    let field = distance_field(w, goal(w, target));
    let mut best = (f64::NEG_INFINITY, "wait");
    for (i, a) in ACTIONS.iter().enumerate() {
        let v = search(w, i, DEPTH, &field, 0);
        if std::env::var("CALLISTO_DEBUG").is_ok() {
            eprintln!("  {} = {v}", a.0);
        }
        if v > best.0 + 1e-9 {
            best = (v, a.0);
        }
    }
    best.1
}
