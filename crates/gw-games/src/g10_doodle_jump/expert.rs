//! Scripted Doodle Jump expert: an exhaustive search over the next
//! [`DEPTH`] 0.2 s decisions (drift left, drift right or let go), each rolled
//! forward with the game's own [`World`] physics on a copy. The copy holds
//! only platforms that already exist (the game adds new ones from its RNG
//! just above the view as it rises), so no future draw is seen.
//!
//! A plan is worth the height of the last platform it bounced on (height
//! that is "banked"), plus a little for height reached; a plan that dies, or
//! ends falling with no platform it could still reach below, is worth
//! almost nothing.

use super::{GRAVITY, MOVE_SPEED, PLAT_W, PLAYER_W, TICK_MS, VIEW_H, World, wrapped_dx};

/// Decisions looked ahead.
const DEPTH: u32 = 4;
const STEP_TICKS: u32 = (200 / TICK_MS) as u32;
const STEERS: [i8; 3] = [0, -1, 1];

/// Whether some solid platform below the doodle is still within reach of a
/// full-speed drift before the doodle drops past it.
fn rescue_possible(w: &World) -> bool {
    if w.vy < 0.0 {
        return true;
    }
    let cx = w.x + PLAYER_W / 2.0;
    let limit = w.cam_y + VIEW_H;
    w.platforms.iter().any(|p| {
        if p.broken || p.gone || p.kind == super::Kind::Breaking || p.y < w.y || p.y > limit {
            return false;
        }
        // Time to fall to the platform's top.
        let d = p.y - w.y;
        let t = (-w.vy + (w.vy * w.vy + 2.0 * GRAVITY * d).sqrt()) / GRAVITY;
        let dx = wrapped_dx(cx, p.x + PLAT_W / 2.0).abs();
        dx <= MOVE_SPEED * t + PLAT_W / 2.0 + 10.0
    })
}

fn value(w: &World) -> f64 {
    let mut v = -w.last_bounce_y - 0.2 * w.y;
    if !rescue_possible(w) {
        v -= 1.0e6;
    }
    v
}

fn search(w: &World, steer: i8, depth: u32, elapsed: u32) -> f64 {
    let mut n = w.clone();
    n.steer = steer;
    for t in 0..STEP_TICKS {
        n.tick();
        if n.death.is_some() {
            return -1.0e9 + (elapsed + t) as f64 * 1.0e3;
        }
    }
    if depth <= 1 {
        return value(&n);
    }
    STEERS
        .iter()
        .map(|&s| search(&n, s, depth - 1, elapsed + STEP_TICKS))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The steering for the next step: -1 left, 0 none, +1 right.
pub fn choose(w: &World) -> i8 {
    if w.death.is_some() {
        return 0;
    }
    let mut best = (f64::NEG_INFINITY, 0);
    for &s in &STEERS {
        let v = search(w, s, DEPTH, 0);
        if v > best.0 + 1e-9 {
            best = (v, s);
        }
    }
    best.1
}
