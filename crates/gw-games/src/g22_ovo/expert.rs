//! Scripted OvO expert: a planner over the game's own physics
//! (`planner.rs`), like Captain Callisto's.
//!
//! The goal is the nearest coin for the coin tasks, else the flag. A
//! weighted A* search runs over the nine semantic actions, each rolled
//! forward on a copy of the [`World`] exactly as the action layer plays it
//! (keys down, 0.25 s, keys up); a move that costs the attempt is never
//! taken. Nodes are merged on position to a quarter tile, velocity, the
//! runner's posture and the cracked tiles left. The heuristic is a path-cost
//! field over the tile map (climbing is dear, falling cheap). Saws move by
//! their seeded phase, which the world already holds: the copy sees nothing
//! the game has not drawn. The plan is cached and re-checked every step.

use super::{TICK_MS, World};
use crate::planner::{self, Search};

/// id, keys held, for 250 ms (the role's bindings in
/// `registry/games/22_ovo.yaml`).
pub const ACTS: [(&str, &[&str]); 9] = [
    ("move_right", &["ArrowRight"]),
    ("jump_right", &["ArrowUp", "ArrowRight"]),
    ("jump", &["ArrowUp"]),
    ("jump_left", &["ArrowUp", "ArrowLeft"]),
    ("move_left", &["ArrowLeft"]),
    ("slide_right", &["ArrowDown", "ArrowRight"]),
    ("slide_left", &["ArrowDown", "ArrowLeft"]),
    ("smash_ground", &["ArrowDown"]),
    ("wait", &[]),
];
const HOLD_MS: u64 = 250;

pub type Plan = planner::Plan<World>;

planner::keyed_platformer!(World);

/// Play one action on `w` as the action layer would; false if the runner
/// died.
pub fn play(w: &mut World, keys: &[&str]) -> bool {
    planner::hold_keys(w, keys, HOLD_MS / TICK_MS)
}

fn search(w: &World, coins_task: bool) -> Vec<(World, usize)> {
    let coins = w.map.find_all(b'o');
    let want_coin = coins_task && !coins.is_empty();
    let have = w.coins;
    let goals = if want_coin {
        coins
    } else {
        vec![w.data().exit]
    };
    let free = |(x, y): (i64, i64)| !matches!(w.map.at(x, y, b'#'), b'#' | b'^');
    let field = planner::cost_field(&w.map, &goals, |from, to| {
        if !free(from) || !free(to) {
            return None;
        }
        Some(match to.1 - from.1 {
            -1 => 6,
            1 => 1,
            _ => 2,
        })
    });
    let width = w.map.width();
    let done = |n: &World| {
        if want_coin {
            n.coins > have
        } else {
            n.finished
        }
    };
    let step = |n: &mut World, a: usize| play(n, ACTS[a].1);
    let key = |n: &World| {
        let b = &n.body;
        (
            (b.aabb.x * 4.0).round() as i32,
            (b.aabb.y * 4.0).round() as i32,
            (b.vx / 2.0).round() as i32,
            (b.vy / 3.0).round() as i32,
            (n.sliding, n.crouching, n.smashing),
            n.map.find_all(b'%').len(),
            n.coins,
        )
    };
    let h = |n: &World| {
        let b = n.body.aabb;
        planner::field_at(&field, width, b.center_x(), b.center_y(), 4.0, 1.0e3)
    };
    let s = Search {
        actions: ACTS.len(),
        step: &step,
        key: &key,
        h: &h,
        done: &done,
        weight: 1.5,
        max_expansions: 15_000,
    };
    planner::astar(w, &s)
}

/// The semantic action id for the next step: towards a coin on the coin
/// tasks, else towards the flag.
pub fn choose(w: &World, coins_task: bool, plan: &mut Plan) -> &'static str {
    if w.finished || w.death.is_some() {
        return "wait";
    }
    match plan.next(w, || search(w, coins_task)) {
        Some(a) => ACTS[a].0,
        None => "wait",
    }
}
