//! Scripted Hextris expert. It sees the hexagon, the stacks and the blocks
//! already on their way in (never the spawner's future draws), and plays the
//! known falling physics forward for short plans: "turn to rotation r1 for the
//! first block, then to r2 for the next". Each plan's end board is scored by
//! points won, same-colour neighbours (future clears) and stack heights. When
//! the best plan needs no turn now, it fast-forwards if that loses nothing.

use super::{ACCEL, Falling, Hextris, MAX_ROWS, SIDES, Stacks, settle, side_for_lane};
use gw_core::TaskInfo;

/// Seconds of game time one action lasts (the role's hold / wait duration).
const STEP_S: f64 = 0.25;
const SIM_DT: f64 = 0.01;
const MAX_SIM_STEPS: usize = 24;

/// Shortest turn from `from` to `to`: +1 (right), -1 (left) or 0.
pub fn turn_towards(from: usize, to: usize) -> isize {
    let d = (to + SIDES - from) % SIDES;
    match d {
        0 => 0,
        1..=3 => 1,
        _ => -1,
    }
}

struct Sim {
    stacks: Stacks,
    falling: Vec<Falling>,
    rotation: usize,
    points: f64,
    landed: usize,
    dead: bool,
}

impl Sim {
    fn land(&mut self, level: u32) {
        let mut i = 0;
        while i < self.falling.len() {
            let f = &self.falling[i];
            let side = side_for_lane(f.lane, self.rotation);
            if f.dist <= super::HEX_R + self.stacks[side].len() as f64 * super::BLOCK_H {
                let f = self.falling.remove(i);
                let res = settle(&mut self.stacks, side, f.color, level);
                self.points += res.points as f64;
                self.landed += 1;
                if self.stacks.iter().any(|s| s.len() >= MAX_ROWS) {
                    self.dead = true;
                    return;
                }
            } else {
                i += 1;
            }
        }
    }
}

/// How promising a board is for future clears, minus how dangerous it is.
fn board_value(stacks: &Stacks) -> f64 {
    let mut v = 0.0;
    for (s, st) in stacks.iter().enumerate() {
        let h = st.len() as f64;
        v -= 4.0 * h * h;
        if st.len() + 2 >= MAX_ROWS {
            v -= 400.0;
        }
        for (r, &c) in st.iter().enumerate() {
            if st.get(r + 1) == Some(&c) {
                v += 18.0;
            }
            if stacks[(s + 1) % SIDES].get(r) == Some(&c) {
                v += 18.0;
            }
        }
    }
    // Many different colours on top means any newcomer has a partner.
    let mut tops = [false; super::COLORS];
    for st in stacks {
        if let Some(&c) = st.last() {
            tops[c as usize] = true;
        }
    }
    v += 6.0 * tops.iter().filter(|&&t| t).count() as f64;
    v
}

/// Value of following `targets` (one target rotation per block still to
/// land, the last one held), with the first step fast-forwarded if `accel`.
fn plan_value(g: &Hextris, targets: &[usize], accel: bool) -> f64 {
    let level = g.level();
    let speed = g.speed();
    let mut sim = Sim {
        stacks: g.stacks.clone(),
        falling: g.falling.clone(),
        rotation: g.rotation,
        points: 0.0,
        landed: 0,
        dead: false,
    };
    let mut turns = 0.0;
    for step in 0..MAX_SIM_STEPS {
        if sim.falling.is_empty() || sim.dead {
            break;
        }
        let target = targets[sim.landed.min(targets.len() - 1)];
        let t = turn_towards(sim.rotation, target);
        if t != 0 {
            sim.rotation = (sim.rotation as isize + t).rem_euclid(SIDES as isize) as usize;
            turns += 1.0;
            sim.land(level);
        }
        let scale = if accel && step == 0 { ACCEL } else { 1.0 };
        let ticks = (STEP_S / SIM_DT).round() as usize;
        for _ in 0..ticks {
            for f in &mut sim.falling {
                f.dist -= speed * SIM_DT * scale;
            }
            sim.land(level);
            if sim.dead {
                break;
            }
        }
    }
    if sim.dead {
        return -100_000.0 + sim.points;
    }
    sim.points * 3.0 + board_value(&sim.stacks) - turns * 0.5
}

/// The control the expert plays now.
pub fn choose(g: &Hextris, _task: &TaskInfo) -> &'static str {
    if g.falling.is_empty() {
        // Nothing to steer: bring the next block in sooner.
        return "accelerate";
    }
    let mut best = (f64::NEG_INFINITY, g.rotation, g.rotation);
    for r1 in 0..SIDES {
        for r2 in 0..SIDES {
            let v = plan_value(g, &[r1, r2], false);
            if v > best.0 + 1e-9 {
                best = (v, r1, r2);
            }
        }
    }
    let (value, r1, r2) = best;
    match turn_towards(g.rotation, r1) {
        1 => "rotate_right",
        -1 => "rotate_left",
        _ => {
            let fast = plan_value(g, &[r1, r2], true);
            let calm = g.stacks.iter().all(|s| s.len() + 3 < MAX_ROWS);
            if fast >= value - 1e-9 && calm {
                "accelerate"
            } else {
                "wait"
            }
        }
    }
}
