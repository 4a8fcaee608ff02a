//! Scripted Geometry Dash expert: an exhaustive search over the next
//! [`DEPTH`] quarter-second decisions (jump = Space held for the step, or
//! wait), each rolled forward with the game's own [`Runner`] physics on a
//! copy of the cube. The level holds no randomness after it is built, and
//! the look-ahead (1.5 s, 18 tiles) stays inside what the frame shows.
//! Among the plans that survive longest it prefers those that take stars,
//! then those with fewer jumps.

use super::{Level, Runner, TICK_MS};

/// Decisions looked ahead.
const DEPTH: u32 = 6;
/// Ticks per decision (one 0.25 s step).
const STEP_TICKS: u32 = (250 / TICK_MS) as u32;

/// Value of taking `jump` now and then the best continuation.
fn branch(r: &Runner, level: &Level, jump: bool, depth: u32, elapsed: u32) -> f64 {
    let mut n = r.clone();
    n.key(jump);
    for t in 0..STEP_TICKS {
        n.tick(level);
        if n.death.is_some() {
            return -1.0e9 + (elapsed + t) as f64 * 1.0e4;
        }
        if n.finished {
            return 1.0e6;
        }
    }
    n.key(false);
    if depth <= 1 {
        return n.stars.len() as f64 * 10.0 - n.jumps as f64;
    }
    let e = elapsed + STEP_TICKS;
    branch(&n, level, false, depth - 1, e).max(branch(&n, level, true, depth - 1, e))
}

/// Whether to hold jump during the next step.
pub fn should_jump(r: &Runner, level: &Level) -> bool {
    if r.over() {
        return false;
    }
    branch(r, level, true, DEPTH, 0) > branch(r, level, false, DEPTH, 0)
}
