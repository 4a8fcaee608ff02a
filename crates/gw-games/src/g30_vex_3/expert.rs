//! Scripted Vex 3 expert: a planner over the game's own physics
//! (`planner.rs`), like OvO's and Captain Callisto's.
//!
//! The goal is the next checkpoint, then the exit. A weighted A* search
//! runs over the eight semantic actions, each rolled forward on a copy of
//! the [`World`] exactly as the action layer plays it (keys down, 0.2 s,
//! keys up); a move that costs the attempt is never taken. Saws move with
//! time, so nodes are merged on the step count as well as position to a
//! quarter tile, velocity, posture and the ring angle: waiting for a saw to
//! pass is a real choice. The heuristic is a path-cost field over the tile
//! map towards the goal, scaled to about one unit per step of running. The
//! saws' seeded phases are in the world already (drawn when the level
//! started), so a copy sees nothing the game has not drawn. The search is
//! bounded (a node budget, then the plan to the node nearest the goal), the
//! plan is cached and re-checked against the game every step.

use super::{TICK_MS, World};
use crate::planner::{self, Search};

/// id, keys held, for 200 ms (the role's bindings in
/// `registry/games/30_vex-3.yaml`).
pub const ACTS: [(&str, &[&str]); 8] = [
    ("move_right", &["ArrowRight"]),
    ("jump_right", &["ArrowUp", "ArrowRight"]),
    ("crouch_slide_right", &["ArrowDown", "ArrowRight"]),
    ("jump", &["ArrowUp"]),
    ("wait", &[]),
    ("move_left", &["ArrowLeft"]),
    ("jump_left", &["ArrowUp", "ArrowLeft"]),
    ("crouch_slide_left", &["ArrowDown", "ArrowLeft"]),
];
const HOLD_MS: u64 = 200;
/// Nodes one search may expand before it settles for the closest.
const BUDGET: usize = 6_000;

pub type Plan = planner::Plan<World>;

planner::keyed_platformer!(World);

/// Play one action on `w` as the action layer would; false if the runner
/// died.
pub fn play(w: &mut World, keys: &[&str]) -> bool {
    planner::hold_keys(w, keys, HOLD_MS / TICK_MS)
}

fn search(w: &World) -> Vec<(World, usize)> {
    let map = &w.data().map;
    let have = w.passed;
    let free = |(x, y): (i64, i64)| !matches!(map.at(x, y, b'#'), b'#' | b'^');
    // Two units a tile across, six up, one down: a run covers about three
    // units a step.
    let field = planner::cost_field(map, &[w.goal()], |from, to| {
        if !free(from) || !free(to) {
            return None;
        }
        Some(match to.1 - from.1 {
            -1 => 6,
            1 => 1,
            _ => 2,
        })
    });
    let width = map.width();
    let done = |n: &World| n.passed > have || n.finished;
    let step = |n: &mut World, a: usize| play(n, ACTS[a].1);
    let key = |n: &World| {
        let b = &n.body;
        (
            (b.aabb.x * 4.0).round() as i32,
            (b.aabb.y * 4.0).round() as i32,
            (b.vx / 2.0).round() as i32,
            (b.vy / 3.0).round() as i32,
            (n.sliding, n.crouching),
            n.swing.map(|s| (s.ring, (s.angle * 4.0) as i32)),
            n.ticks / (HOLD_MS / TICK_MS),
        )
    };
    let h = |n: &World| {
        let b = n.body.aabb;
        planner::field_at(&field, width, b.center_x(), b.center_y(), 3.0, 1.0e3)
    };
    let s = Search {
        actions: ACTS.len(),
        step: &step,
        key: &key,
        h: &h,
        done: &done,
        weight: 2.0,
        max_expansions: BUDGET,
    };
    planner::astar(w, &s)
}

/// The semantic action id for the next step, towards the next checkpoint.
pub fn choose(w: &World, plan: &mut Plan) -> &'static str {
    if w.finished || w.death.is_some() {
        return "wait";
    }
    match plan.next(w, || search(w)) {
        Some(a) => ACTS[a].0,
        None => "wait",
    }
}
