//! Scripted gentleman expert: an exhaustive search over the next [`DEPTH`]
//! 0.2 s actions, each rolled forward on a copy of the level with the
//! game's own [`World`] physics (beetles included; the world holds no
//! randomness). It aims at the nearest coin ahead (for a golden block, the
//! spot under it) while the task still wants coins, else at the door; a
//! plan is worth the coins it earns, then how close it ends to the aim; a
//! coin sooner beats the same coin later. A plan that ends the attempt is
//! worth nothing, and one whose end cannot survive a short follow-up
//! (walking on, or standing) is marked down.

use super::{Keys, TICK_MS, World};

const DEPTH: u32 = 3;
const STEP_TICKS: u64 = 200 / TICK_MS;

const fn keys(left: bool, right: bool, up: bool) -> Keys {
    Keys { left, right, up }
}

const ACTIONS: [(&str, Keys); 6] = [
    ("move_right", keys(false, true, false)),
    ("jump_right", keys(false, true, true)),
    ("wait", keys(false, false, false)),
    ("jump", keys(false, false, true)),
    ("move_left", keys(true, false, false)),
    ("jump_left", keys(true, false, true)),
];

/// Play one step; false if the attempt ended badly.
fn play(w: &mut World, k: Keys) -> bool {
    if k.up {
        w.press_jump();
    }
    w.keys = k;
    for _ in 0..STEP_TICKS {
        w.tick();
        if w.over() {
            break;
        }
    }
    w.keys = Keys::default();
    w.death.is_none()
}

/// Where to go: the centre of the nearest coin ahead, or the spot under
/// the nearest golden block, or the door.
fn aim(w: &World, want_coins: bool) -> (f64, f64) {
    let g = &w.gent.aabb;
    let (gx, gy) = (g.center_x(), g.center_y());
    let mut best: Option<(f64, (f64, f64))> = None;
    if want_coins {
        let x0 = (g.x - 4.0).floor() as i64;
        w.map
            .for_each_in(x0, 0, x0 + 40, w.map.height() as i64, |x, y, t| {
                let p = match t {
                    b'o' => (x as f64 + 0.5, y as f64 + 0.5),
                    b'?' => (x as f64 + 0.5, y as f64 + 1.0 + 0.7 + 0.5),
                    _ => return,
                };
                let behind = if p.0 < gx { 2.0 } else { 1.0 };
                let d = behind * (p.0 - gx).abs() + 0.5 * (p.1 - gy).abs();
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, p));
                }
            });
    }
    best.map(|b| b.1)
        .unwrap_or((w.level.door.center_x(), w.level.door.center_y()))
}

fn value(w: &World, c0: u32, target: (f64, f64)) -> f64 {
    let g = &w.gent.aabb;
    let d = (g.center_x() - target.0).abs() + 0.6 * (g.center_y() - target.1).abs();
    let exit = if w.exited { 500.0 } else { 0.0 };
    1000.0 * (w.coins - c0) as f64 - 10.0 * d + exit
}

fn survives_follow_up(w: &World) -> bool {
    if w.over() {
        return w.death.is_none();
    }
    [ACTIONS[0].1, ACTIONS[2].1, ACTIONS[4].1].iter().any(|&k| {
        let mut n = w.clone();
        play(&mut n, k) && play(&mut n, k)
    })
}

fn search(w: &World, k: Keys, depth: u32, c0: u32, target: (f64, f64)) -> f64 {
    let mut n = w.clone();
    if !play(&mut n, k) {
        return -1.0e9 + n.time_ms as f64;
    }
    // A coin now is worth a little more than the same coin later.
    let sooner = 100.0 * depth as f64 * (n.coins - w.coins) as f64;
    if depth <= 1 || n.over() {
        let mut v = value(&n, c0, target);
        if !survives_follow_up(&n) {
            v -= 5.0e5;
        }
        return v + sooner;
    }
    sooner
        + ACTIONS
            .iter()
            .map(|&(_, k2)| search(&n, k2, depth - 1, c0, target))
            .fold(f64::NEG_INFINITY, f64::max)
}

/// The semantic action id for the next step toward `target` coins.
pub fn choose(w: &World, target_coins: f64) -> &'static str {
    if w.over() {
        return "wait";
    }
    let want = (w.coins as f64) < target_coins;
    let aim_at = aim(w, want);
    let mut best = (f64::NEG_INFINITY, "wait");
    for &(id, k) in &ACTIONS {
        let v = search(w, k, DEPTH, w.coins, aim_at);
        if v > best.0 + 1e-9 {
            best = (v, id);
        }
    }
    best.1
}
