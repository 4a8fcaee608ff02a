//! Scripted snake expert. One agent step lasts 0.2 s, i.e. two cells of
//! movement, so it plans over whole steps: a breadth-first search over
//! "turn (or keep going), then move two cells", simulating the body exactly,
//! finds the shortest way to an apple. A way is taken only if, after eating,
//! the head can still reach the tail (so the snake cannot box itself in).
//! Without such a way it picks the surviving move that keeps the tail in
//! reach and the most room. It sees only the board, never the apple RNG.

use super::{BH, BW, Body, Cell, DIRS, Dir, Moved, Snake, TICK_MS, in_bounds, step_cell};
use gw_core::TaskInfo;
use std::collections::VecDeque;

/// Cells moved per agent step (0.2 s holds and waits).
const STEP_TICKS: usize = (200 / TICK_MS) as usize;
/// Search limit in steps.
const MAX_DEPTH: usize = 40;

fn idx(c: Cell) -> usize {
    (c.1 * BW + c.0) as usize
}

/// Move `body` one agent step in direction `d`: `None` on a crash, else
/// whether an apple was eaten.
fn macro_step(body: &mut Body, d: Dir) -> Option<bool> {
    body.dir = d;
    let mut ate = false;
    for _ in 0..STEP_TICKS {
        match body.advance() {
            Moved::Ok => {}
            Moved::Ate => ate = true,
            Moved::HitWall | Moved::HitSelf => return None,
        }
    }
    Some(ate)
}

/// Cells reachable from the head (a body segment counts as free once the
/// tail has moved past it by the time the head could get there) and whether
/// the tail is among them.
fn reach(body: &Body) -> (usize, bool) {
    let n = body.cells.len();
    // Moves until each cell frees up: segment i (head = 0) leaves after n - i moves.
    let mut frees = vec![0usize; (BW * BH) as usize];
    for (i, &c) in body.cells.iter().enumerate() {
        frees[idx(c)] = n - i;
    }
    let tail = *body.cells.back().expect("tail");
    let mut dist = vec![usize::MAX; (BW * BH) as usize];
    let mut q = VecDeque::new();
    dist[idx(body.head())] = 0;
    q.push_back(body.head());
    let (mut count, mut tail_found) = (0, false);
    while let Some(c) = q.pop_front() {
        let dc = dist[idx(c)];
        for d in DIRS {
            let nc = step_cell(c, d);
            if !in_bounds(nc) || dist[idx(nc)] != usize::MAX {
                continue;
            }
            if nc == tail {
                tail_found = true;
            }
            if frees[idx(nc)] > dc + 1 {
                continue;
            }
            dist[idx(nc)] = dc + 1;
            count += 1;
            q.push_back(nc);
        }
    }
    (count, tail_found)
}

fn candidates(dir: Dir) -> impl Iterator<Item = Dir> {
    std::iter::once(dir).chain(
        DIRS.into_iter()
            .filter(move |&d| d != dir && d != dir.opposite()),
    )
}

/// The first direction of the shortest safe way to an apple.
fn path_to_apple(start: &Body) -> Option<Dir> {
    let mut seen = vec![false; (BW * BH * 4) as usize];
    let key = |b: &Body| idx(b.head()) * 4 + b.dir as usize;
    seen[key(start)] = true;
    let mut frontier: Vec<(Body, Option<Dir>)> = vec![(start.clone(), None)];
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for (body, first) in &frontier {
            for d in candidates(body.dir) {
                let mut b = body.clone();
                let first = first.unwrap_or(d);
                match macro_step(&mut b, d) {
                    None => {}
                    Some(true) if reach(&b).1 => return Some(first),
                    Some(true) => {}
                    Some(false) if !seen[key(&b)] => {
                        seen[key(&b)] = true;
                        next.push((b, Some(first)));
                    }
                    Some(false) => {}
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    None
}

/// The surviving direction that keeps the tail in reach and the most room.
fn safest(start: &Body) -> Option<Dir> {
    let mut best: Option<(usize, Dir)> = None;
    for d in candidates(start.dir) {
        let mut b = start.clone();
        if macro_step(&mut b, d).is_none() {
            continue;
        }
        let (room, tail) = reach(&b);
        let v = room + if tail { 10_000 } else { 0 };
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, d));
        }
    }
    best.map(|(_, d)| d)
}

/// The control to press now.
pub fn next_control(game: &Snake, _task: &TaskInfo) -> &'static str {
    let mut body = game.body().clone();
    if let Some(&d) = game.queued().back() {
        body.dir = d;
    }
    let choice = path_to_apple(&body).or_else(|| safest(&body));
    match choice {
        Some(d) if d == body.dir && game.started() => "wait",
        Some(d) => d.control_id(),
        None => "wait",
    }
}
