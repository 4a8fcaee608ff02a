//! Scripted Rocket League 2D expert. Each step it tries every control, then
//! every second control, on a copy of the game whose random stream is
//! replaced (so it sees the physics and the CPU's policy, never the game's
//! future random draws), lets a reactive heuristic play on for
//! a few steps and keeps the first control of the best line: a goal soonest,
//! else the ball furthest and fastest towards the orange goal with the car
//! behind it. The heuristic gets to the ball's own-goal side (left of it), then
//! drives — boosting when far — through it towards the orange goal; jumps
//! into balls dropping just in front, hops over a grounded ball when caught on
//! the wrong side, brakes when about to run under an airborne ball.

use super::*;

const ACTIONS: [&str; 5] = ["move_right", "boost", "jump", "wait", "move_left"];

/// Play one semantic control on a copy of the game, as the harness would.
fn apply(g: &mut RocketLeague, id: &str) {
    let key = match id {
        "move_left" => "a",
        "move_right" => "d",
        "jump" => "w",
        "boost" => "Space",
        _ => {
            g.advance(500);
            return;
        }
    };
    g.handle_event(&InputEvent::KeyDown { key: key.into() });
    g.advance(200);
    g.handle_event(&InputEvent::KeyUp { key: key.into() });
}

/// How good a position is for the player: goals dominate, then the ball's
/// progress towards the orange goal and the car being behind it.
fn value(g: &RocketLeague, g0: &RocketLeague, steps: u32) -> f64 {
    let scored = (g.goals_for - g0.goals_for) as f64;
    let conceded = (g.goals_against - g0.goals_against) as f64;
    if scored > 0.0 || conceded > 0.0 {
        return 10_000.0 * scored - 10_000.0 * conceded - 50.0 * steps as f64;
    }
    let (b, p) = (g.ball, g.player);
    let behind = if p.x < b.x { 0.0 } else { -(p.x - b.x) };
    b.x + 0.3 * b.vx.clamp(-600.0, 900.0) + 0.5 * behind
        - 0.002 * g.distance_to_goal().powi(2) / 10.0
}

/// Roll a copy forward: `first` then `second`, then the heuristic for a few steps.
fn rollout(g0: &RocketLeague, first: &str, second: &str, tail: u32) -> f64 {
    let mut g = g0.clone();
    // The copy must not know the game's future random draws (the CPU's
    // reaction times): give it an unrelated stream, so the expert plans
    // against a model of the opponent, not its actual future.
    g.rng = Rng::new(0x5EED_E8E7, 25);
    let mut steps = 0;
    for k in 0..(2 + tail) {
        let id = match k {
            0 => first,
            1 => second,
            _ => heuristic(&g),
        };
        apply(&mut g, id);
        steps += 1;
        if g.goals_for != g0.goals_for
            || g.goals_against != g0.goals_against
            || g.terminal.is_terminal
        {
            break;
        }
    }
    value(&g, g0, steps)
}

/// The semantic control id for this step: a short look-ahead on a copy of
/// the game (its physics are deterministic), over two steps of every control
/// followed by the heuristic below.
pub fn choose(g: &RocketLeague, _task: &TaskInfo) -> &'static str {
    if !g.playing() {
        return "wait";
    }
    let mut best = (f64::NEG_INFINITY, heuristic(g));
    for a in ACTIONS {
        let mut v = f64::NEG_INFINITY;
        for b in ACTIONS {
            v = v.max(rollout(g, a, b, 6));
        }
        if v > best.0 + 1e-9 {
            best = (v, a);
        }
    }
    best.1
}

/// Reactive play: the continuation policy of the look-ahead.
fn heuristic(g: &RocketLeague) -> &'static str {
    if !g.playing() {
        return "wait";
    }
    let (b, p) = (g.ball, g.player);
    if b.x > RIGHT - 120.0 && b.vx > 150.0 && b.y > GOAL_TOP + BALL_R {
        return "wait"; // already going in
    }
    let contact = BALL_R + CAR_W / 2.0;
    let dx = b.x - p.x;
    let airborne = b.y < GROUND - BALL_R - 40.0;
    let on_roof = dx.abs() < CAR_W / 2.0 + 6.0 && b.y < p.top() && b.y > p.top() - BALL_R - 8.0;
    if on_roof {
        return "move_right"; // the ball rides along on the roof
    }
    if dx > contact - 10.0 {
        // Behind the ball (our goal side).
        let over_roof = b.y < p.top() - BALL_R + 2.0;
        if over_roof && dx < contact + 110.0 {
            // It would pass over the roof: jump into it when reachable, else ease off.
            if p.on_ground
                && b.y > GROUND - 240.0
                && dx > contact - 10.0
                && dx < contact + 70.0
                && b.vy > -300.0
            {
                return "jump";
            }
            if p.vx > 200.0 {
                return "move_left";
            }
            if dx > contact + 40.0 {
                return "wait";
            }
            return "move_left";
        }
        if dx > 300.0 && p.boost > 12.0 && p.facing > 0.0 && p.on_ground {
            return "boost";
        }
        return "move_right";
    }
    // Wrong side: go back past the ball, hopping over it when low and close.
    let gap = p.x - b.x;
    if airborne && gap.abs() < contact && p.x < LEFT + CAR_W / 2.0 + 30.0 {
        // Pinned against our wall under a dropping ball: drive out so it lands behind us.
        return "move_right";
    }
    if !airborne && gap > -contact && gap < contact + 110.0 && p.on_ground && p.vx < -100.0 {
        return "jump";
    }
    "move_left"
}
