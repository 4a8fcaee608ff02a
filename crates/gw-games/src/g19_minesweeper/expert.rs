//! Scripted Minesweeper expert. Before the first reveal it knows nothing and
//! opens the centre cell (always safe). Once the mines are placed it reads the
//! layout (privileged state): for flag tasks it flags mines, preferring those
//! bordering the opened area; otherwise it reveals safe cells, preferring
//! cells with no neighbouring mine (each opens a whole region) and cells next
//! to the opened area, as a player reading the numbers would.

use super::{Cell, MINES, Minesweeper, neighbours};
use gw_core::TaskInfo;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Reveal(Cell),
    Flag(Cell),
    Wait,
}

/// Whether a cell touches an opened cell.
fn on_frontier(g: &Minesweeper, cell: Cell) -> bool {
    neighbours(cell).any(|n| g.is_revealed(n))
}

pub fn choose(g: &Minesweeper, task: &TaskInfo) -> Move {
    if !g.mines_placed() {
        return Move::Reveal((4, 4));
    }
    if g.state_terminal() {
        return Move::Wait;
    }
    // Remove any flag that is wrong (the expert never places one, but a task
    // could start from a board someone else touched).
    if let Some(c) = g.cells().find(|&c| g.is_flagged(c) && !g.is_mine(c)) {
        return Move::Flag(c);
    }
    if task.score_field.ends_with("correct_flags") && g.flags() < MINES {
        let mut mines: Vec<Cell> = g
            .cells()
            .filter(|&c| g.is_mine(c) && !g.is_flagged(c))
            .collect();
        mines.sort_by_key(|&c| !on_frontier(g, c));
        if let Some(&c) = mines.first() {
            return Move::Flag(c);
        }
    }
    let mut safe: Vec<Cell> = g
        .cells()
        .filter(|&c| !g.is_mine(c) && !g.is_revealed(c) && !g.is_flagged(c))
        .collect();
    // Zero cells first (they open regions), then cells next to what is open.
    safe.sort_by_key(|&c| (g.count(c) != 0, !on_frontier(g, c)));
    match safe.first() {
        Some(&c) => Move::Reveal(c),
        None => Move::Wait,
    }
}
