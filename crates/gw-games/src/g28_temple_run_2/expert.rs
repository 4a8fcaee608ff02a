//! Scripted Temple Run 2 expert: an exhaustive search over the next
//! [`DEPTH`] actions of 0.5 s (wait, turn/lane left, turn/lane right, jump,
//! slide), each played on a copy of the world with the game's own physics
//! over the stretches already laid out (the copy has no random stream; the
//! path ahead always holds several stretches). Plans are valued by survival
//! first, then by stumbles avoided, by being in a lane that stays open for
//! the next walls and rocks, and by coins. Space starts the run, and buys a
//! save after a death whenever the coins allow it.

use super::{Kind, LANE_W, Phase, TICK_MS, Turn, World, lane_of};

const DEPTH: u32 = 3;
const STEP_MS: u64 = 500;
const DEAD: f64 = -1.0e7;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Wait,
    Left,
    Right,
    Jump,
    Slide,
}

const ACTS: [Act; 5] = [Act::Wait, Act::Left, Act::Right, Act::Jump, Act::Slide];

impl Act {
    fn id(self) -> &'static str {
        match self {
            Act::Wait => "wait",
            Act::Left => "turn_left",
            Act::Right => "turn_right",
            Act::Jump => "jump",
            Act::Slide => "slide",
        }
    }
}

/// Play one action; false once the runner is dead.
fn play(w: &mut World, act: Act) -> bool {
    match act {
        Act::Left => w.steer(Turn::Left),
        Act::Right => w.steer(Turn::Right),
        Act::Jump => w.jump(),
        Act::Slide => w.slide(),
        Act::Wait => {}
    }
    for _ in 0..STEP_MS / TICK_MS {
        w.tick();
        if !w.running() {
            return false;
        }
    }
    true
}

/// How good the runner's place is at the end of a plan.
fn leaf(w: &World, stumbles0: u32) -> f64 {
    let mut v = 3.0 * w.coins as f64 - 400.0 * (w.stumbles - stumbles0) as f64;
    // Lanes blocked by the next walls and rocks within reach.
    let lane = w.lane;
    for o in w.stretch().obstacles.iter() {
        let d = o.s - w.s;
        if !(0.0..45.0).contains(&d) {
            continue;
        }
        let blocked = |l: i32| o.lanes & (1 << (l + 1)) != 0;
        let weight = match o.kind {
            Kind::Wall => 60.0,
            Kind::Rock => 25.0,
            _ => 0.0,
        };
        if weight > 0.0 && blocked(lane) {
            // Distance in lanes to the nearest open one.
            let gap = (-1..=1)
                .filter(|l| !blocked(*l))
                .map(|l| (l - lane).abs())
                .min()
                .unwrap_or(2);
            v -= weight * gap as f64 * (1.0 + (45.0 - d) / 15.0);
        }
    }
    // Near a corner the turn should be queued.
    if w.to_corner() < 9.0 && w.queued_turn.is_none() {
        v -= 80.0;
    }
    v - 2.0 * (w.lat / LANE_W).abs() - if lane_of(w.lat) != w.lane { 1.0 } else { 0.0 }
}

fn value(w: &World, depth: u32, stumbles0: u32, elapsed: u64) -> f64 {
    if depth == 0 {
        return leaf(w, stumbles0);
    }
    let mut best = f64::NEG_INFINITY;
    for act in ACTS {
        let mut n = w.clone();
        let v = if play(&mut n, act) {
            value(&n, depth - 1, stumbles0, elapsed + STEP_MS)
        } else {
            DEAD + 1000.0 * (elapsed + n.t_ms - w.t_ms) as f64
        };
        best = best.max(v);
    }
    best
}

/// The semantic action to take now.
pub fn choose(w: &World, saves: u32) -> &'static str {
    match w.phase {
        Phase::Ready => return "start",
        Phase::SaveMe { .. } => {
            return if w.wallet >= w.save_cost(saves) {
                "start"
            } else {
                "wait"
            };
        }
        Phase::Over => return "wait",
        Phase::Running => {}
    }
    let mut best = (Act::Wait, f64::NEG_INFINITY);
    for act in ACTS {
        let mut n = w.clone();
        let v = if play(&mut n, act) {
            value(&n, DEPTH - 1, w.stumbles, STEP_MS)
        } else {
            DEAD + 1000.0 * (n.t_ms - w.t_ms) as f64
        };
        // Ties keep the earlier (simpler) action.
        if v > best.1 + 1e-9 {
            best = (act, v);
        }
    }
    best.0.id()
}
