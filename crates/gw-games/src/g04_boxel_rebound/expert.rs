//! Scripted Boxel Rebound expert: an exhaustive look-ahead over the next
//! 0.2 s decisions (wait or jump, the jump key held for the whole step as the
//! binding does), each rolled forward on a copy of the attempt's
//! deterministic [`World`]. The level and the saws' phases are part of the
//! current state (the saw phases are drawn at reset), so nothing is peeked.

use super::{TICK_MS, World};
use crate::runner::{Rollout, plan};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Wait,
    Jump,
}

impl Move {
    pub fn id(self) -> &'static str {
        match self {
            Move::Wait => "wait",
            Move::Jump => "jump",
        }
    }
}

const STEP_TICKS: u64 = 200 / TICK_MS;
/// Decisions looked ahead (1.6 s: a jump and the landing after it).
const DEPTH: u32 = 8;

pub fn simulate(w: &mut World, m: Move) -> Rollout {
    w.jump_held = m == Move::Jump;
    for _ in 0..STEP_TICKS {
        match w.tick() {
            None => {}
            Some(super::End::Finish) => return Rollout::Won,
            Some(_) => return Rollout::Dead,
        }
    }
    w.jump_held = false;
    Rollout::Alive(if m == Move::Jump { 0.05 } else { 0.0 })
}

pub fn choose(w: &World) -> Move {
    plan(w, &[Move::Wait, Move::Jump], DEPTH, simulate).0
}
