//! Scripted Breakout expert. The ball-and-bricks world holds no randomness,
//! so the expert copies it and runs the ball forward (walls, ceiling and
//! bricks included) to find where and when it next crosses the paddle line.
//! Among the paddle positions it can reach by then (whole 0.2 s moves), it
//! picks the one whose hit offset sends the ball off to break the most
//! bricks on the following flight while leaving the next return reachable,
//! and moves toward it. The serve's random angle is never looked at before
//! it happens.

use super::{BALL_R, Breakout, Field, MAX_BOUNCE_DEG, PADDLE_SPEED, PADDLE_W, PADDLE_Y, TICK_MS};
use gw_core::TaskInfo;

/// Game time of one agent step (the move/wait bindings last 0.2 s).
const STEP_MS: u64 = 200;
const STEP_PX: f64 = PADDLE_SPEED * STEP_MS as f64 / 1000.0;
/// Longest flight the expert simulates (ms).
const HORIZON_MS: u64 = 8000;
/// Offsets beyond this share of the half-width are too risky to aim for.
const SAFE_OFFSET: f64 = 0.85;
/// Bounces looked ahead when aiming.
const DEPTH: u32 = 2;
/// Value of a second of flight, in tenths of a brick.
const TIME_COST: f64 = 3.0;

/// Where the ball next crosses the paddle line moving down: its x, the time
/// until then, and the world at that moment.
pub fn predict_landing(field: &Field) -> Option<(f64, u64, Field)> {
    let mut f = field.clone();
    let mut t = 0;
    while t < HORIZON_MS {
        let ev = f.tick(None);
        t += TICK_MS;
        if let Some(x) = ev.crossed_paddle_line {
            return Some((x, t, f));
        }
    }
    None
}

/// Paddle centres reachable with `k` whole moves (negative = left).
fn paddle_after(x: f64, k: i32) -> f64 {
    let mut p = x;
    for _ in 0..k.unsigned_abs() {
        p = Breakout::clamp_paddle(p + k.signum() as f64 * STEP_PX);
    }
    p
}

/// A way to meet the ball: the paddle centre when it arrives and the action
/// to take now to get there.
#[derive(Clone, Copy, Debug)]
struct Plan {
    paddle: f64,
    now: &'static str,
}

fn dir_action(d: i32) -> &'static str {
    match d.signum() {
        1 => "move_right",
        -1 => "move_left",
        _ => "wait",
    }
}

/// Every paddle position from `px` that meets a ball crossing the paddle
/// line at `land_x` after `t` ms: whole moves before the step in which it
/// arrives, plus an optional move during that step.
fn plans(px: f64, land_x: f64, t: u64) -> Vec<Plan> {
    let n = (t.saturating_sub(1) / STEP_MS) as i32;
    let partial_ticks = (t - n as u64 * STEP_MS) / TICK_MS;
    let partial_px = PADDLE_SPEED * (partial_ticks * TICK_MS) as f64 / 1000.0;
    let mut out: Vec<Plan> = Vec::new();
    for k in -n..=n {
        let base = paddle_after(px, k);
        for s in [0, -1, 1] {
            let p = Breakout::clamp_paddle(base + s as f64 * partial_px);
            let offset = (land_x - p) / (PADDLE_W / 2.0);
            if offset.abs() > SAFE_OFFSET || out.iter().any(|q| (q.paddle - p).abs() < 1.0) {
                continue;
            }
            let now = if k != 0 {
                dir_action(k)
            } else if n == 0 {
                dir_action(s)
            } else {
                "wait"
            };
            out.push(Plan { paddle: p, now });
        }
    }
    out
}

/// Value of bouncing the ball at `land_x` off a paddle centred at `paddle`,
/// looking `depth` bounces ahead: bricks broken, sooner being better, with a
/// large penalty when a return cannot be reached.
fn aim_value(at_landing: &Field, land_x: f64, paddle: f64, depth: u32) -> f64 {
    let mut f = at_landing.clone();
    f.ball.x = land_x;
    f.ball.y = PADDLE_Y - BALL_R;
    let offset = ((land_x - paddle) / (PADDLE_W / 2.0)).clamp(-1.0, 1.0);
    f.launch(offset * MAX_BOUNCE_DEG);
    let before = f.alive_count();
    let Some((next_x, t, after)) = predict_landing(&f) else {
        return -100.0;
    };
    let broken = (before - after.alive_count()) as f64;
    let secs = t as f64 / 1000.0;
    if after.alive_count() == 0 {
        return 1000.0 - secs;
    }
    let next = plans(paddle, next_x, t);
    if next.is_empty() {
        return broken * 10.0 - 60.0 - secs;
    }
    if depth <= 1 {
        return broken * 10.0 - secs * TIME_COST;
    }
    let best = next
        .iter()
        .map(|p| aim_value(&after, next_x, p.paddle, depth - 1))
        .fold(f64::NEG_INFINITY, f64::max);
    broken * 10.0 - secs * TIME_COST + 0.9 * best
}

pub fn choose(g: &Breakout, _task: &TaskInfo) -> &'static str {
    if g.is_terminal() {
        return "wait";
    }
    let px = g.paddle_x();
    if g.serving() {
        return toward(px, Breakout::clamp_paddle((super::FX0 + super::FX1) / 2.0));
    }
    let Some((land_x, t, at_landing)) = predict_landing(g.field()) else {
        return toward(px, g.field().ball.x);
    };
    let mut best: Option<(f64, &'static str)> = None;
    for plan in plans(px, land_x, t) {
        let v = aim_value(&at_landing, land_x, plan.paddle, DEPTH);
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, plan.now));
        }
    }
    match best {
        Some((_, a)) => a,
        None => toward(px, land_x),
    }
}

fn toward(px: f64, x: f64) -> &'static str {
    if x > px + STEP_PX / 2.0 {
        "move_right"
    } else if x < px - STEP_PX / 2.0 {
        "move_left"
    } else {
        "wait"
    }
}
