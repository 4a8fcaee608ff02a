//! Scripted Edge Surf expert: an exhaustive look-ahead over the next four
//! 0.25 s decisions (wait, turn left, turn right, brake, boost), each rolled
//! forward on a copy of the game's deterministic [`World`]. The game lays out
//! obstacles far below the visible water, so the copy holds everything the
//! horizon reaches and never touches the game's random stream. A decision is
//! worth the distance it gains and the items it picks up, minus a heavy
//! price for every life lost and a small one for steering far off the
//! fall line.

use super::{TICK_MS, World};
use crate::runner::{Rollout, plan};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Wait,
    Left,
    Right,
    Brake,
    Boost,
}

impl Move {
    pub fn id(self) -> &'static str {
        match self {
            Move::Wait => "wait",
            Move::Left => "turn_left",
            Move::Right => "turn_right",
            Move::Brake => "slow_down",
            Move::Boost => "boost",
        }
    }
}

const STEP_TICKS: u64 = 250 / TICK_MS;
const DEPTH: u32 = 4;

pub fn simulate(w: &mut World, m: Move) -> Rollout {
    let (lives, y0) = (w.lives, w.y);
    let mut picked = 0;
    match m {
        Move::Left => w.turn(-1),
        Move::Right => w.turn(1),
        Move::Brake => w.braking = true,
        Move::Boost => {
            w.boost();
        }
        Move::Wait => {}
    }
    for _ in 0..STEP_TICKS {
        let ev = w.tick();
        if ev.dead {
            return Rollout::Dead;
        }
        picked += ev.picked;
    }
    w.braking = false;
    let lost = lives.saturating_sub(w.lives) as f64;
    let gained = (w.y - y0) * 0.05;
    let off_line = (w.heading as f64 - 2.0).abs() * 0.5;
    Rollout::Alive(lost * 1000.0 - gained - picked as f64 * 8.0 + off_line)
}

pub fn choose(w: &World) -> Move {
    plan(
        w,
        &[
            Move::Wait,
            Move::Left,
            Move::Right,
            Move::Brake,
            Move::Boost,
        ],
        DEPTH,
        simulate,
    )
    .0
}
