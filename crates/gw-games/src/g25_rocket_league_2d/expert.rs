//! Scripted Rocket League 2D expert: get to the ball's own-goal side (left of it), then drive — boosting when far — through
//! it towards the orange goal; jump into balls dropping just in front, hop
//! over a grounded ball when caught on the wrong side, brake when about to
//! run under an airborne ball. Reads only current positions and velocities.

use super::*;

/// The semantic control id for this step.
pub fn choose(g: &RocketLeague, _task: &TaskInfo) -> &'static str {
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
