//! Scripted Flappy Bird expert: an exhaustive look-ahead over the next few
//! 0.2 s decisions (flap or wait), rolled forward with the game's own
//! deterministic physics on the pipes that already exist. It never draws from
//! the game's RNG: pipes not yet spawned are simply absent from the rollout
//! (the newest pipe is always beyond the right edge, far outside the horizon).

use super::{START_Y, TICK_MS, World};
use gw_core::TaskInfo;

/// Decisions looked ahead.
const DEPTH: u32 = 6;
/// Values above this survived the whole look-ahead.
const SURVIVES: f64 = -1.0e8;
/// Ticks per decision (one 0.2 s step).
const STEP_TICKS: u32 = (200 / TICK_MS) as u32;

/// Where the bird should be: the middle of the next gap, a little low since a
/// flap lifts it quickly while falling back takes longer.
fn target_y(w: &World) -> f64 {
    w.next_pipe().map(|p| p.gap_y + 12.0).unwrap_or(START_Y)
}

/// Value of taking `flap` now and playing the best continuation for
/// `depth - 1` more decisions.
fn branch(w: &World, flap: bool, depth: u32, elapsed: u32) -> f64 {
    let mut n = w.clone();
    if flap {
        n.flap();
    }
    for t in 0..STEP_TICKS {
        if n.tick().is_some() {
            // Dying later is better than dying sooner.
            return -1.0e9 + (elapsed + t) as f64 * 1.0e5;
        }
    }
    let cost = (n.bird_y - target_y(&n)).abs() + if flap { 2.0 } else { 0.0 };
    let rest = if depth > 1 {
        branch(&n, false, depth - 1, elapsed + STEP_TICKS).max(branch(
            &n,
            true,
            depth - 1,
            elapsed + STEP_TICKS,
        ))
    } else {
        0.0
    };
    rest - cost
}

/// Whether to flap now.
pub fn should_flap(w: &World, ready: bool, _task: &TaskInfo) -> bool {
    let (flap, glide) = (branch(w, true, DEPTH, 0), branch(w, false, DEPTH, 0));
    if ready {
        // In Ready a wait only hovers (the pipes stand still) until the bird
        // sets off by itself without a flap, which is what `glide` rolls out.
        // Start with a flap unless that leads into a pipe the glide avoids.
        flap > SURVIVES || flap >= glide
    } else {
        flap > glide
    }
}
