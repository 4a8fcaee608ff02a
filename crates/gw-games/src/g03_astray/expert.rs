//! Scripted Astray expert: a short look-ahead over the deterministic ball
//! physics (there is no randomness once a maze exists). Every sequence of
//! three actions is simulated tick by tick and scored by a smooth potential:
//! the breadth-first path distance from the ball's block to the exit, minus
//! how far the ball already sits towards the next block on that path, plus a
//! small penalty for being off the corridor's centre line (which makes turns
//! into side openings easier). The first action of the best sequence is
//! played.

use super::{Astray, Ball, Maze, TICK_MS, physics_tick};
use gw_core::TaskInfo;

/// (control id, push x, push y).
const ACTIONS: [(&str, f64, f64); 5] = [
    ("wait", 0.0, 0.0),
    ("move_left", -1.0, 0.0),
    ("move_right", 1.0, 0.0),
    ("move_up", 0.0, -1.0),
    ("move_down", 0.0, 1.0),
];
/// Ticks one action lasts (the bindings hold a key, or wait, for 0.25 s).
const STEP_TICKS: u32 = 25;
const DEPTH: usize = 3;
const LATERAL: f64 = 0.6;

fn potential(maze: &Maze, dist: &[u32], ball: &Ball) -> f64 {
    let dim = maze.dim;
    if ball.x >= (dim - 1) as f64 {
        return -10.0 - ball.x;
    }
    let (c, r) = ball.block();
    if maze.wall(c, r) {
        return 1e6;
    }
    let d = dist[r as usize * dim + c as usize];
    if d == u32::MAX {
        return 1e6;
    }
    let mut dir = (1i32, 0i32);
    if d > 0 {
        for (dc, dr) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let (nc, nr) = (c + dc, r + dr);
            if !maze.wall(nc, nr) && dist[nr as usize * dim + nc as usize] == d - 1 {
                dir = (dc, dr);
                break;
            }
        }
    }
    let (ox, oy) = (ball.x - (c as f64 + 0.5), ball.y - (r as f64 + 0.5));
    let along = ox * dir.0 as f64 + oy * dir.1 as f64;
    let perp = (ox * dir.1 as f64 - oy * dir.0 as f64).abs();
    d as f64 - along + LATERAL * perp
}

fn simulate(maze: &Maze, ball: &mut Ball, ax: f64, ay: f64) {
    let dt = TICK_MS as f64 / 1000.0;
    for _ in 0..STEP_TICKS {
        physics_tick(maze, ball, ax, ay, dt);
        if ball.x >= (maze.dim - 1) as f64 {
            ball.vx = 0.0;
            ball.vy = 0.0;
            return;
        }
    }
}

fn search(maze: &Maze, dist: &[u32], ball: Ball, depth: usize) -> f64 {
    let here = potential(maze, dist, &ball);
    if depth == 0 || here < -5.0 {
        return here;
    }
    let mut best = f64::INFINITY;
    for &(_, ax, ay) in &ACTIONS {
        let mut b = ball;
        simulate(maze, &mut b, ax, ay);
        // A little weight on the intermediate state prefers progress sooner.
        let v = search(maze, dist, b, depth - 1) + 0.05 * potential(maze, dist, &b);
        best = best.min(v);
    }
    best
}

/// The control the expert plays now.
pub fn choose(game: &Astray, _task: &TaskInfo) -> &'static str {
    let maze = game.maze();
    let dist = maze.distances_to_exit();
    let ball = game.ball();
    let mut best = (f64::INFINITY, "wait");
    for &(id, ax, ay) in &ACTIONS {
        let mut b = ball;
        simulate(maze, &mut b, ax, ay);
        let v = search(maze, &dist, b, DEPTH - 1) + 0.05 * potential(maze, &dist, &b);
        if v < best.0 - 1e-9 {
            best = (v, id);
        }
    }
    best.1
}
