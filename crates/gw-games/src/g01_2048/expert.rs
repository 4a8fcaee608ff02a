//! Scripted 2048 expert: depth-limited expectimax over the known spawn
//! distribution (never the game's actual RNG), scoring boards by merge score,
//! free cells, monotone rows/columns and a heavy corner.

use super::{Board, DIRS, Dir, apply_move, can_move};
use gw_core::TaskInfo;

fn heuristic(b: &Board) -> f64 {
    let mut empty = 0.0;
    let mut mono = 0.0;
    let mut smooth = 0.0;
    let lg = |v: u32| if v == 0 { 0.0 } else { (v as f64).log2() };
    for i in 0..4 {
        let (mut inc_r, mut dec_r, mut inc_c, mut dec_c) = (0.0, 0.0, 0.0, 0.0);
        for k in 0..4 {
            if b[i][k] == 0 {
                empty += 1.0;
            }
            if k < 3 {
                let (a, c) = (lg(b[i][k]), lg(b[i][k + 1]));
                if a > c {
                    dec_r += a - c
                } else {
                    inc_r += c - a
                }
                let (a2, c2) = (lg(b[k][i]), lg(b[k + 1][i]));
                if a2 > c2 {
                    dec_c += a2 - c2
                } else {
                    inc_c += c2 - a2
                }
                if b[i][k] != 0 && b[i][k + 1] != 0 {
                    smooth -= (a - c).abs();
                }
                if b[k][i] != 0 && b[k + 1][i] != 0 {
                    smooth -= (a2 - c2).abs();
                }
            }
        }
        mono -= f64::min(inc_r, dec_r) + f64::min(inc_c, dec_c);
    }
    let max = b.iter().flatten().copied().max().unwrap_or(0);
    let corner = [b[0][0], b[0][3], b[3][0], b[3][3]].contains(&max) as u8 as f64;
    empty * 12.0 + mono * 6.0 + smooth * 2.0 + corner * 20.0
}

fn chance(b: &Board, depth: u32) -> f64 {
    let mut cells = Vec::new();
    for r in 0..4 {
        for c in 0..4 {
            if b[r][c] == 0 {
                cells.push((r, c));
            }
        }
    }
    if cells.is_empty() {
        return heuristic(b);
    }
    let mut total = 0.0;
    for &(r, c) in &cells {
        for (v, p) in [(2u32, 0.9), (4u32, 0.1)] {
            let mut nb = *b;
            nb[r][c] = v;
            total += p * max_node(&nb, depth);
        }
    }
    total / cells.len() as f64
}

fn max_node(b: &Board, depth: u32) -> f64 {
    if depth == 0 {
        return heuristic(b);
    }
    let mut best = f64::NEG_INFINITY;
    for d in DIRS {
        let (nb, gained, moved) = apply_move(b, d);
        if moved {
            best = best.max(gained as f64 * 2.0 + chance(&nb, depth - 1));
        }
    }
    if best == f64::NEG_INFINITY {
        -1000.0
    } else {
        best
    }
}

/// The move the expert plays on `board`.
pub fn best_move(board: &Board, _task: &TaskInfo) -> Dir {
    if !can_move(board) {
        return Dir::Up;
    }
    let empties = board.iter().flatten().filter(|&&v| v == 0).count();
    let depth = if empties >= 6 { 1 } else { 2 };
    let mut best = (f64::NEG_INFINITY, Dir::Up);
    for d in DIRS {
        let (nb, gained, moved) = apply_move(board, d);
        if !moved {
            continue;
        }
        let v = gained as f64 * 2.0 + chance(&nb, depth);
        if v > best.0 {
            best = (v, d);
        }
    }
    best.1
}
