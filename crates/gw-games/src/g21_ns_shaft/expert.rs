//! Scripted NS-Shaft expert: an exhaustive look-ahead over the next few
//! 0.25 s decisions (wait, left, right), each rolled forward on a copy of the
//! game's deterministic [`World`]. The game keeps platforms queued below the
//! visible shaft, so the copy holds every platform the horizon can reach and
//! never touches the game's random stream. A decision costs the life it
//! loses (heavily) plus distance from the comfortable middle of the shaft
//! (near the spiked ceiling or the open bottom is dangerous).

use super::{BOTTOM_Y, CEILING_Y, TICK_MS, World};
use crate::runner::{Rollout, plan};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Wait,
    Left,
    Right,
}

impl Move {
    pub fn id(self) -> &'static str {
        match self {
            Move::Wait => "wait",
            Move::Left => "move_left",
            Move::Right => "move_right",
        }
    }
}

const STEP_TICKS: u64 = 250 / TICK_MS;
const DEPTH: u32 = 5;

pub fn simulate(w: &mut World, m: Move) -> Rollout {
    let hp = w.hp;
    w.input = match m {
        Move::Wait => 0,
        Move::Left => -1,
        Move::Right => 1,
    };
    for _ in 0..STEP_TICKS {
        if w.tick().is_some() {
            return Rollout::Dead;
        }
    }
    w.input = 0;
    let lost = (hp - w.hp).max(0) as f64;
    let top = CEILING_Y + 110.0;
    let low = BOTTOM_Y - 200.0;
    let place = if w.py < top {
        (top - w.py) * 0.6
    } else if w.py > low {
        (w.py - low) * 0.6
    } else {
        0.0
    };
    let moved = if m == Move::Wait { 0.0 } else { 0.2 };
    Rollout::Alive(lost * 150.0 + place + moved)
}

pub fn choose(w: &World) -> Move {
    plan(w, &[Move::Wait, Move::Left, Move::Right], DEPTH, simulate).0
}
