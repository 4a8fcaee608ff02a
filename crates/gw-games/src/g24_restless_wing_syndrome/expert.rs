//! Scripted Restless Wing expert: an exhaustive search over the next
//! [`DEPTH`] semantic actions, each rolled forward on a copy of the level
//! with the game's own [`World`] physics (the flap meter included; a world
//! holds no randomness). A plan is worth how close it leaves the bird to the
//! bread, measured along the level's open tiles (the level's distance
//! field, which routes around roofs, water and — when they hurt — spikes),
//! plus the points it picks up. Eating the bread beats everything, sooner
//! is better; losing the attempt is worth nothing, and a plan whose end
//! cannot survive a glide or a drift afterwards is marked down, which
//! catches a dive that would only reach the water after the horizon.

use super::{Keys, TICK_MS, World};

const DEPTH: u32 = 3;

const fn keys(left: bool, right: bool, up: bool) -> Keys {
    Keys { left, right, up }
}

/// The semantic actions: id, keys held, duration in ticks (the registry's
/// bindings: wait 0.5 s, the others 0.25 s).
const ACTIONS: [(&str, Keys, u64); 6] = [
    ("glide_right", keys(false, true, true), 250 / TICK_MS),
    ("glide_left", keys(true, false, true), 250 / TICK_MS),
    ("glide", keys(false, false, true), 250 / TICK_MS),
    ("move_right", keys(false, true, false), 250 / TICK_MS),
    ("move_left", keys(true, false, false), 250 / TICK_MS),
    ("wait", keys(false, false, false), 500 / TICK_MS),
];

/// Play one action on `w`; false if the attempt was lost.
fn play(w: &mut World, k: Keys, ticks: u64) -> bool {
    w.keys = k;
    for _ in 0..ticks {
        w.tick();
        if w.over() {
            break;
        }
    }
    w.keys = Keys::default();
    w.death.is_none()
}

fn value(w: &World, t0: u64) -> f64 {
    if w.fed {
        return 1.0e6 - (w.time_ms - t0) as f64;
    }
    w.points as f64 * 0.05 - 10.0 * w.distance_to_bread()
}

fn survives_follow_up(w: &World) -> bool {
    if w.over() {
        return w.death.is_none();
    }
    [ACTIONS[2], ACTIONS[5]]
        .iter()
        .any(|&(_, k, t)| play(&mut w.clone(), k, t))
}

fn search(w: &World, a: usize, depth: u32, t0: u64) -> f64 {
    let mut n = w.clone();
    let (_, k, t) = ACTIONS[a];
    if !play(&mut n, k, t) {
        return -1.0e9 + n.time_ms as f64;
    }
    if depth <= 1 || n.over() {
        let mut v = value(&n, t0);
        if !survives_follow_up(&n) {
            v -= 1.0e5;
        }
        return v;
    }
    (0..ACTIONS.len())
        .map(|b| search(&n, b, depth - 1, t0))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The semantic action id for the next step.
pub fn choose(w: &World) -> &'static str {
    if w.over() {
        return "wait";
    }
    let mut best = (f64::NEG_INFINITY, "wait");
    for (a, &(id, _, _)) in ACTIONS.iter().enumerate() {
        let v = search(w, a, DEPTH, w.time_ms);
        if v > best.0 + 1e-9 {
            best = (v, id);
        }
    }
    best.1
}
