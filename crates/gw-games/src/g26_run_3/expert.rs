//! Scripted Run 3 expert: an exhaustive search over the next [`DEPTH`]
//! actions (wait 0.5 s, strafe left or right 0.2 s, jump 0.2 s), each played
//! on a copy of the world with the game's own physics over the tunnel rows
//! that already exist. It never draws from the game's random stream (the
//! copy has no generator, and the search horizon stays well inside the
//! [`super::AHEAD_ROWS`] rows already laid out).
//!
//! A plan is valued by how long the runner survives, then by how safe the
//! place it ends in is: the free run ahead of the best column within reach
//! (any side of the tunnel), less the strafing it takes to get there. Among
//! plans about as good as the best one it prefers those that start with a
//! wait, since waiting covers the most ground per step.

use super::{ROW_LEN, SIDE_TILES, SIDE_W, STRAFE, TICK_MS, World};

/// Actions looked ahead.
const DEPTH: u32 = 5;
/// Rows of free run counted at most.
const RUN_CAP: i64 = 30;
/// Value of a millisecond of plan (waiting covers ground per step).
const ELAPSED_WEIGHT: f64 = 0.004;
/// Value of a plan that falls out (plus the time it lasted).
const FALL: f64 = -1.0e7;

/// Longest hole (rows) the free run counts as jumpable.
const JUMPABLE: i64 = 3;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    Wait,
    Left,
    Right,
    Jump,
}

const ACTS: [Act; 4] = [Act::Wait, Act::Left, Act::Right, Act::Jump];

impl Act {
    fn id(self) -> &'static str {
        match self {
            Act::Wait => "wait",
            Act::Left => "move_left",
            Act::Right => "move_right",
            Act::Jump => "jump",
        }
    }
    fn ms(self) -> u64 {
        match self {
            Act::Wait => 500,
            _ => 200,
        }
    }
}

/// Play one action on `w`; false if the runner fell out.
fn play(w: &mut World, act: Act) -> bool {
    match act {
        Act::Left => w.left = true,
        Act::Right => w.right = true,
        Act::Jump => w.jump(),
        Act::Wait => {}
    }
    let mut alive = true;
    for _ in 0..act.ms() / TICK_MS {
        if w.tick() || w.runner.falling {
            alive = false;
            break;
        }
    }
    w.left = false;
    w.right = false;
    alive
}

/// Rows of floor ahead of column `col` of `side`, counting short holes that
/// a jump clears (each hole still costs a row: a jump has to be timed).
fn free_rows(w: &World, side: u8, col: usize) -> i64 {
    let row0 = w.row_index();
    let mut row = row0;
    let (mut hole, mut holes) = (0, 0);
    while row < row0 + RUN_CAP {
        if w.tile(row, side, col) {
            hole = 0;
        } else {
            hole += 1;
            holes += 1;
            if hole > JUMPABLE {
                return row - hole - row0 + 1 - holes;
            }
        }
        row += 1;
    }
    RUN_CAP - hole - holes
}

/// How safe the runner's place is: the best free run within reach, in
/// metres, less the metres run while strafing there.
fn safety(w: &World) -> f64 {
    let r = &w.runner;
    let around = 4.0 * SIDE_W;
    let here = r.side as f64 * SIDE_W + r.u;
    let mut best = f64::NEG_INFINITY;
    for side in 0..4u8 {
        for col in 0..SIDE_TILES {
            let there = side as f64 * SIDE_W + col as f64 + 0.5;
            let mut d = (there - here).abs() % around;
            d = d.min(around - d);
            let cost = d / STRAFE * w.speed();
            let run = free_rows(w, side, col) as f64 * ROW_LEN;
            best = best.max(run - 1.2 * cost);
        }
    }
    let col = (libm::floor(r.u) as i64).clamp(0, SIDE_TILES as i64 - 1) as usize;
    best + 0.25 * free_rows(w, r.side, col) as f64 * ROW_LEN
}

/// Value of the best plan of `depth` actions from `w`, `elapsed` ms in.
fn value(w: &World, depth: u32, elapsed: u64) -> f64 {
    if depth == 0 {
        return ELAPSED_WEIGHT * elapsed as f64 + safety(w);
    }
    let mut best = f64::NEG_INFINITY;
    for act in ACTS {
        if act == Act::Jump && !w.runner.on_ground() {
            continue;
        }
        let mut n = w.clone();
        let v = if play(&mut n, act) {
            value(&n, depth - 1, elapsed + act.ms())
        } else {
            FALL + 1000.0 * (elapsed + n.t_ms - w.t_ms) as f64
        };
        best = best.max(v);
    }
    best
}

/// The semantic action to take now.
pub fn choose(w: &World) -> &'static str {
    let mut scored = Vec::new();
    for act in ACTS {
        if act == Act::Jump && !w.runner.on_ground() {
            continue;
        }
        let mut n = w.clone();
        let v = if play(&mut n, act) {
            value(&n, DEPTH - 1, act.ms())
        } else {
            FALL + 1000.0 * (n.t_ms - w.t_ms) as f64
        };
        scored.push((act, v));
    }
    let best = scored.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    // A wait wins whenever it is within a few metres of safety of the best.
    let pick = scored
        .iter()
        .find(|(a, v)| *a == Act::Wait && *v >= best - 4.0)
        .or_else(|| scored.iter().find(|(_, v)| *v == best))
        .expect("some action");
    pick.0.id()
}
