//! Scripted Mario expert: an exhaustive search over the next [`DEPTH`]
//! quarter-second actions, each rolled forward on a copy of the level with
//! the game's own [`World`] physics (enemies included; the world holds no
//! randomness). A plan is worth the points it earns plus 40 per tile of
//! progress to the right, more if Mario grows, each step's share discounted
//! by how late it comes; a plan that loses a life is
//! worth almost nothing, and one whose end state cannot survive a short
//! follow-up (running on, or standing still) is marked down, which catches
//! jumps that would only land in a pit after the horizon.

use super::{Keys, TICK_MS, World};

const DEPTH: u32 = 3;
const STEP_TICKS: u32 = (250 / TICK_MS) as u32;
/// Weight of the next step's value against this one's.
const DISCOUNT: f64 = 0.9;

/// The actions searched: id, keys held.
const ACTIONS: [(&str, Keys); 5] = [
    (
        "move_right",
        Keys {
            left: false,
            right: true,
            up: false,
            down: false,
        },
    ),
    (
        "jump_right",
        Keys {
            left: false,
            right: true,
            up: true,
            down: false,
        },
    ),
    (
        "wait",
        Keys {
            left: false,
            right: false,
            up: false,
            down: false,
        },
    ),
    (
        "jump",
        Keys {
            left: false,
            right: false,
            up: true,
            down: false,
        },
    ),
    (
        "move_left",
        Keys {
            left: true,
            right: false,
            up: false,
            down: false,
        },
    ),
];

/// Play one step of `keys` on `w`; false if Mario lost a life.
fn play(w: &mut World, keys: Keys) -> bool {
    if keys.up {
        w.press_jump();
    }
    w.keys = keys;
    for _ in 0..STEP_TICKS {
        w.tick();
        if w.death.is_some() {
            return false;
        }
        if w.flag.is_some() {
            break;
        }
    }
    w.keys = Keys::default();
    true
}

/// What one step earned: its points, 40 per tile to the right, and 300
/// for growing big.
fn reward(before: &World, after: &World) -> f64 {
    (after.score - before.score) as f64
        + 40.0 * (after.mario.aabb.x - before.mario.aabb.x)
        + 300.0 * (after.big as i32 - before.big as i32) as f64
}

fn survives_follow_up(w: &World) -> bool {
    if w.over() {
        return true;
    }
    [ACTIONS[0].1, ACTIONS[2].1].iter().any(|&k| {
        let mut n = w.clone();
        play(&mut n, k) && play(&mut n, k)
    })
}

/// The value of playing `keys` on `w` and then the best `depth - 1` more
/// steps: each step's reward, later ones discounted by [`DISCOUNT`] so that
/// a gain now beats the same gain put off (without it, a kick or a coin
/// that any plan can take "at the last step" is put off for ever).
fn search(w: &World, keys: Keys, depth: u32) -> f64 {
    let mut n = w.clone();
    if !play(&mut n, keys) {
        return -1.0e9 + n.time_ms as f64;
    }
    let r = reward(w, &n);
    if depth <= 1 || n.over() {
        return if survives_follow_up(&n) { r } else { r - 5.0e5 };
    }
    r + DISCOUNT
        * ACTIONS
            .iter()
            .map(|&(_, k)| search(&n, k, depth - 1))
            .fold(f64::NEG_INFINITY, f64::max)
}

/// The semantic action id for the next step.
pub fn choose(w: &World) -> &'static str {
    if w.over() {
        return "wait";
    }
    let mut best = (f64::NEG_INFINITY, "wait");
    for &(id, k) in &ACTIONS {
        let v = search(w, k, DEPTH);
        if v > best.0 + 1e-9 {
            best = (v, id);
        }
    }
    best.1
}
