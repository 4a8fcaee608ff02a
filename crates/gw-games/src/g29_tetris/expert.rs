//! Scripted Tetris expert: a placement search. For the falling piece it tries
//! every rotation × column reachable by "rotate, then shift, then hard drop"
//! from where the piece is now, scores each resulting well with the classic
//! linear heuristic (aggregate height, complete lines, holes, bumpiness) plus
//! a one-piece look-ahead on the visible next piece, and charges each plan a
//! little for the keys it needs. It then presses ONE key per step towards the
//! chosen placement and hard-drops when it is lined up. It never looks at the
//! bag beyond the preview.

use super::{Board, Piece, Tetris, W, clear_lines, heights, holes};
use gw_core::TaskInfo;

// Weights of the well-known genetic-algorithm tuned heuristic (Yiyuan Lee),
// with the line reward raised because the tasks count points, not survival.
const W_HEIGHT: f64 = -0.510066;
const W_LINES: f64 = 0.95;
const W_HOLES: f64 = -0.35663;
const W_BUMP: f64 = -0.184483;
/// Cost per key press of a plan (the step budget is short).
const W_STEP: f64 = 0.06;

fn evaluate(board: &Board, lines: u32) -> f64 {
    let h = heights(board);
    let agg: u32 = h.iter().sum();
    let bump: u32 = h.windows(2).map(|p| p[0].abs_diff(p[1])).sum();
    W_HEIGHT * agg as f64
        + W_LINES * lines as f64
        + W_HOLES * holes(board) as f64
        + W_BUMP * bump as f64
}

/// One reachable placement: the key plan's first move, its length and the
/// resulting board.
struct Placement {
    first: &'static str,
    keys: u32,
    board: Board,
    lines: u32,
}

/// Every placement reachable from `piece` by rotating (fewest presses, cw or
/// ccw), then shifting, then a hard drop.
fn placements(board: &Board, piece: Piece) -> Vec<Placement> {
    let mut out = Vec::with_capacity(40);
    let rot_plans: [(u32, bool); 4] = [(0, true), (1, true), (2, true), (1, false)];
    for (turns, cw) in rot_plans {
        if piece.kind == 1 && turns > 0 {
            continue; // the O piece looks the same in every rotation
        }
        let mut p = piece;
        let mut ok = true;
        for _ in 0..turns {
            match p.rotated(board, cw) {
                Some(q) => p = q,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        for dir in [-1i32, 1] {
            let mut q = p;
            let mut shifts = 0u32;
            loop {
                if dir == 1 && shifts == 0 {
                    // The unshifted position is already counted with dir -1.
                } else {
                    let first = if turns > 0 {
                        if cw { "rotate_cw" } else { "rotate_ccw" }
                    } else if shifts > 0 {
                        if dir < 0 { "move_left" } else { "move_right" }
                    } else {
                        "hard_drop"
                    };
                    let landed = q.dropped(board);
                    let mut b = *board;
                    for (x, y) in landed.blocks() {
                        b[y as usize][x as usize] = landed.kind + 1;
                    }
                    let lines = clear_lines(&mut b);
                    out.push(Placement {
                        first,
                        keys: turns + shifts + 1,
                        board: b,
                        lines,
                    });
                }
                let n = q.shifted(dir, 0);
                if !n.fits(board) {
                    break;
                }
                q = n;
                shifts += 1;
                if shifts > W as u32 {
                    break;
                }
            }
        }
    }
    out
}

/// The control to press now.
pub fn next_control(game: &Tetris, _task: &TaskInfo) -> &'static str {
    let Some(piece) = game.active() else {
        return "wait";
    };
    let board = game.board();
    let next = game.next_kinds().first().copied();
    let mut best: Option<(f64, &'static str)> = None;
    for pl in placements(board, piece) {
        let mut value = evaluate(&pl.board, pl.lines) - W_STEP * pl.keys as f64;
        if let Some(k) = next {
            let spawn = Piece::spawn(k);
            if spawn.fits(&pl.board) {
                let look = placements(&pl.board, spawn)
                    .iter()
                    .map(|q| evaluate(&q.board, q.lines) - W_STEP * q.keys as f64)
                    .fold(f64::NEG_INFINITY, f64::max);
                // Lines cleared now count once; the look-ahead board's value
                // replaces this board's shape terms.
                value = W_LINES * pl.lines as f64 - W_STEP * pl.keys as f64 + look;
            } else {
                value -= 1000.0;
            }
        }
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, pl.first));
        }
    }
    best.map_or("hard_drop", |(_, c)| c)
}
