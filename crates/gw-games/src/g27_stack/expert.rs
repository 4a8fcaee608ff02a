//! Scripted Stack expert. The slider's motion is plain physics (constant
//! speed, turning at the ends), so the expert plays it forward to the moments
//! its next few actions would start and drops at the one that trades the
//! least cut-off against the steps spent waiting. It never reads the RNG.

use super::{PERFECT_TOL, Stack};
use gw_core::TaskInfo;

/// Seconds one action lasts (drop_block hold and wait are both 0.2 s).
const STEP_S: f64 = 0.2;
const TICK_S: f64 = 0.01;
/// Steps ahead the expert considers.
const HORIZON: usize = 12;
/// Units of slab it would give up to save one step.
const STEP_COST: f64 = 1.6;

/// Offsets from alignment at the start of each of the next `HORIZON` actions.
pub fn future_offsets(g: &Stack) -> Vec<f64> {
    let Some(mut sl) = g.slider else {
        return vec![];
    };
    let top = *g.top();
    let centre = if sl.axis == 0 { top.x } else { top.z };
    let ticks = (STEP_S / TICK_S).round() as usize;
    let mut out = vec![sl.pos() - centre];
    for _ in 0..HORIZON {
        for _ in 0..ticks {
            sl.step(centre, TICK_S);
        }
        out.push(sl.pos() - centre);
    }
    out
}

pub fn choose(g: &Stack, _task: &TaskInfo) -> &'static str {
    let Some(sl) = g.slider else { return "wait" };
    let size = if sl.axis == 0 { g.top().w } else { g.top().d };
    let cost = |k: usize, off: f64| {
        let e = off.abs();
        let loss = if e <= PERFECT_TOL {
            0.0
        } else if e >= size {
            1e9
        } else {
            e
        };
        loss + STEP_COST * k as f64
    };
    let offs = future_offsets(g);
    let best = offs
        .iter()
        .enumerate()
        .map(|(k, &o)| (cost(k, o), k))
        .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
    if best.1 == 0 { "drop_block" } else { "wait" }
}
