//! Scripted Chrome Dino expert: an exhaustive look-ahead over the next few
//! 0.25 s decisions (wait, jump, duck), each rolled forward on a copy of the
//! game's deterministic [`World`] with the obstacles that already exist. The
//! game keeps them queued well beyond the right edge, so the horizon never
//! needs an obstacle that has not been drawn yet, and the copy never touches
//! the game's random stream.

use super::{TICK_MS, World};
use crate::runner::{Rollout, plan};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Wait,
    Jump,
    Duck,
}

impl Move {
    pub fn id(self) -> &'static str {
        match self {
            Move::Wait => "wait",
            Move::Jump => "jump",
            Move::Duck => "duck",
        }
    }
}

/// Ticks per decision (one 0.25 s action).
const STEP_TICKS: u64 = 250 / TICK_MS;
/// Decisions looked ahead (1.25 s).
const DEPTH: u32 = 5;

/// Play one decision on a copy the way the action layer plays it: key down
/// at the start, held for the whole step, released at its end.
pub fn simulate(w: &mut World, m: Move) -> Rollout {
    match m {
        Move::Jump => {
            w.jump();
        }
        Move::Duck => w.duck_held = true,
        Move::Wait => {}
    }
    for _ in 0..STEP_TICKS {
        if w.tick().is_some() {
            return Rollout::Dead;
        }
    }
    w.duck_held = false;
    // Prefer staying on the ground: every jump and duck is a small cost.
    Rollout::Alive(match m {
        Move::Wait => 0.0,
        Move::Duck => 0.5,
        Move::Jump => 1.0,
    })
}

pub fn choose(w: &World) -> Move {
    plan(w, &[Move::Wait, Move::Jump, Move::Duck], DEPTH, simulate).0
}
