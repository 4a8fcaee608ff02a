//! Scripted Captain Callisto expert: a planner over the game's own physics
//! (`planner.rs`).
//!
//! The goal is the next coin while the task still needs points from coins,
//! then the exit. A weighted A* search runs over the semantic actions, each
//! rolled forward on a copy of the [`World`] exactly as the action layer
//! plays it (key down, the binding's duration, key up). Nodes are merged on
//! position to a quarter tile, velocity, fuel, coins and aliens defeated; a
//! move that costs a life, or that leaves by the exit short of the target,
//! is never taken. The heuristic is a path-cost field over the tile map
//! towards the goal tiles (ladders are cheap to climb, open air dear,
//! falling cheap). The world holds no randomness (aliens walk by fixed
//! rules), so the copy only sees what the game has already drawn. The plan
//! is cached and re-checked against the game every step.

use super::{COLS, TICK_MS, World};
use crate::planner::{self, Search};

/// One semantic action: id, keys pressed, duration in ms (the role's
/// bindings in `registry/games/06_captaincallisto.yaml`).
pub struct Act {
    pub id: &'static str,
    pub keys: &'static [&'static str],
    pub ms: u64,
}

const fn act(id: &'static str, keys: &'static [&'static str], ms: u64) -> Act {
    Act { id, keys, ms }
}

pub const ACTS: [Act; 7] = [
    act("move_right", &["ArrowRight"], 200),
    act("move_left", &["ArrowLeft"], 200),
    act("jump", &["Space"], 10),
    act("jetpack", &["Shift"], 200),
    act("move_up", &["ArrowUp"], 200),
    act("move_down", &["ArrowDown"], 200),
    act("wait", &[], 200),
];

pub type Plan = planner::Plan<World>;

/// Play one action on `w` as the action layer would; false if it cost a
/// life.
pub fn play(w: &mut World, act: &Act) -> bool {
    for k in act.keys {
        w.key(k, true);
    }
    for _ in 0..(act.ms / TICK_MS).max(1) {
        w.tick();
        if w.death.is_some() {
            return false;
        }
        if w.exited {
            break;
        }
    }
    for k in act.keys {
        w.key(k, false);
    }
    true
}

/// Plan from `w` to the next coin (while coins are still needed) or out.
fn search(w: &World, target: f64) -> Vec<(World, usize)> {
    let need = target - w.coins as f64;
    let coins = w.map.find_all(b'c');
    let want_coin = need > 0.0 && !coins.is_empty();
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
        let ladder = w.map.at(from.0, from.1, b'.') == b'H' || w.map.at(to.0, to.1, b'.') == b'H';
        Some(match to.1 - from.1 {
            -1 if ladder => 5,
            -1 => 7,
            1 => 2,
            _ => 4,
        })
    });
    let done = |n: &World| if want_coin { n.coins > have } else { n.exited };
    let step = |n: &mut World, a: usize| play(n, &ACTS[a]) && (!n.exited || done(n));
    let key = |n: &World| {
        let b = &n.body;
        (
            (b.aabb.x * 4.0).round() as i32,
            (b.aabb.y * 4.0).round() as i32,
            b.vx.round() as i32,
            (b.vy / 3.0).round() as i32,
            (n.fuel * 4.0).round() as i32,
            (n.climbing, n.waiting),
            (n.coins, n.kills),
        )
    };
    let h = |n: &World| {
        let b = n.body.aabb;
        planner::field_at(&field, COLS, b.center_x(), b.center_y(), 4.0, 1.0e3)
    };
    let s = Search {
        actions: ACTS.len(),
        step: &step,
        key: &key,
        h: &h,
        done: &done,
        weight: 1.6,
        max_expansions: 12_000,
    };
    planner::astar(w, &s)
}

/// The semantic action id for the next step, for a task whose score target
/// is `target`.
pub fn choose(w: &World, target: f64, plan: &mut Plan) -> &'static str {
    if w.exited || w.death.is_some() {
        return "wait";
    }
    match plan.next(w, || search(w, target)) {
        Some(a) => ACTS[a].id,
        // Nothing better found from here: let the aliens move on.
        None => "wait",
    }
}
