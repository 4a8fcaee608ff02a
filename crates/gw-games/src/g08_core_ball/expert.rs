//! Scripted Core Ball expert: for the shot now and after each of the next few
//! waits, work out where the ball would stick given the core's spin during
//! the wait and the ball's flight, and how far that spot is from the nearest
//! ball already on the core. Shoot now when now is (nearly) the best of those
//! options and clearly safe; otherwise wait. Uses only the known spin, never
//! the game's random generator.

use super::{CoreBall, Phase, ang_dist, flight_ticks, touch_angle_deg};
use gw_core::TaskInfo;

/// Game time one agent step takes (the shoot/wait bindings hold 0.2 s).
const STEP_S: f64 = 0.2;
/// How many waits ahead to consider.
const LOOKAHEAD: u32 = 6;
/// Clearance beyond which more room is not worth waiting for (degrees).
const ENOUGH: f64 = 40.0;
/// Cost of waiting one step, in degrees of clearance.
const WAIT_COST: f64 = 1.0;
/// Extra safety margin over the touching angle (degrees).
const MARGIN: f64 = 1.0;

/// Clearance (degrees to the nearest stuck ball) of a shot fired after
/// `waits` steps.
pub fn clearance_after(g: &CoreBall, waits: u32) -> f64 {
    let t = waits as f64 * STEP_S + flight_ticks() as f64 * 0.01;
    let rotation = g.rotation() + g.spec().spin * t;
    let at = CoreBall::attach_angle(rotation);
    g.stuck()
        .iter()
        .map(|s| ang_dist(s.angle, at))
        .fold(360.0, f64::min)
}

pub fn choose(g: &CoreBall, _task: &TaskInfo) -> &'static str {
    if g.phase() != Phase::Aiming || g.in_flight() {
        return "wait";
    }
    let value = |k: u32| clearance_after(g, k).min(ENOUGH) - WAIT_COST * k as f64;
    let best = (0..=LOOKAHEAD)
        .max_by(|&a, &b| value(a).total_cmp(&value(b)).then(b.cmp(&a)))
        .unwrap_or(0);
    if best == 0 && clearance_after(g, 0) > touch_angle_deg() + MARGIN {
        "shoot"
    } else {
        "wait"
    }
}
