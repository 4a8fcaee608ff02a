//! 19_minesweeper — the classic 9×9 beginner board with 10 mines.
//!
//! Mines are placed from the seeded RNG at the first reveal, never on the
//! revealed cell or its eight neighbours, so the first click always opens an
//! area. A revealed cell shows how many of its neighbours hold a mine; a cell
//! with no neighbouring mine opens its neighbours too (flood fill). Left click
//! reveals, right click toggles a flag (at most as many flags as mines;
//! flagged cells cannot be revealed). Revealing a mine ends the episode with
//! `Outcome::Fail`; revealing all 71 safe cells ends it with `Success`.
//!
//! Cells are named by column letter `a`–`i` (left to right) and row number
//! `1`–`9` (top to bottom), e.g. `e5` is the centre; the labels are drawn
//! around the board.
//!
//! State: `game_state.score` (revealed safe cells), `metrics.correct_flags`
//! (flags on mines), `game_state.board` (what the player sees, one string per
//! row: `.` hidden, `F` flag, digits, `*` mine after a loss).

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "19_minesweeper";
pub const N: usize = 9;
pub const MINES: usize = 10;
pub const SAFE_CELLS: usize = N * N - MINES;

/// Board geometry (shared by rendering, mouse hit-testing and the registry's
/// `cell_bindings`).
pub const CELL: f32 = 60.0;
pub const BOARD_X: f32 = 370.0;
pub const BOARD_Y: f32 = 110.0;

/// A cell as (row, column).
pub type Cell = (usize, usize);

/// The id of a cell: column letter + row number, `a1`..`i9`.
pub fn cell_id((r, c): Cell) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// Parse `a1`..`i9` (case-insensitive).
pub fn parse_cell(id: &str) -> Option<Cell> {
    let id = id.trim().to_ascii_lowercase();
    let mut chars = id.chars();
    let col = chars.next()?;
    let row: usize = chars.as_str().parse().ok()?;
    let c = (col as u32).checked_sub('a' as u32)? as usize;
    (c < N && (1..=N).contains(&row)).then(|| (row - 1, c))
}

/// Viewport centre of a cell.
pub fn cell_center((r, c): Cell) -> (f32, f32) {
    (
        BOARD_X + c as f32 * CELL + CELL / 2.0,
        BOARD_Y + r as f32 * CELL + CELL / 2.0,
    )
}

/// The cell under a viewport point.
pub fn cell_at(x: f32, y: f32) -> Option<Cell> {
    let (fx, fy) = ((x - BOARD_X) / CELL, (y - BOARD_Y) / CELL);
    if fx < 0.0 || fy < 0.0 {
        return None;
    }
    let (c, r) = (fx as usize, fy as usize);
    (r < N && c < N).then_some((r, c))
}

/// The up-to-eight neighbours of a cell, in row-major order.
pub fn neighbours((r, c): Cell) -> impl Iterator<Item = Cell> {
    (-1i32..=1)
        .flat_map(move |dr| (-1i32..=1).map(move |dc| (dr, dc)))
        .filter_map(move |(dr, dc)| {
            let (nr, nc) = (r as i32 + dr, c as i32 + dc);
            ((dr, dc) != (0, 0) && (0..N as i32).contains(&nr) && (0..N as i32).contains(&nc))
                .then_some((nr as usize, nc as usize))
        })
}

pub type Grid<T> = [[T; N]; N];

pub struct Minesweeper {
    seed: u64,
    rng: Rng,
    episode: u32,
    game_time_ms: u64,
    mines: Grid<bool>,
    placed: bool,
    revealed: Grid<bool>,
    flagged: Grid<bool>,
    /// The mine that was revealed (loss).
    exploded: Option<Cell>,
    first_click: Option<Cell>,
    /// Left button pressed on this cell (a reveal happens on release).
    pressed: Option<Cell>,
    reveals: u32,
    flag_actions: u32,
    terminal: Terminal,
}

impl Default for Minesweeper {
    fn default() -> Self {
        Self::new()
    }
}

impl Minesweeper {
    pub fn new() -> Self {
        Minesweeper {
            seed: 0,
            rng: Rng::new(0, 0),
            episode: 0,
            game_time_ms: 0,
            mines: [[false; N]; N],
            placed: false,
            revealed: [[false; N]; N],
            flagged: [[false; N]; N],
            exploded: None,
            first_click: None,
            pressed: None,
            reveals: 0,
            flag_actions: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn state_terminal(&self) -> bool {
        self.terminal.is_terminal
    }
    pub fn mines_placed(&self) -> bool {
        self.placed
    }
    pub fn is_mine(&self, cell: Cell) -> bool {
        self.mines[cell.0][cell.1]
    }
    pub fn is_revealed(&self, cell: Cell) -> bool {
        self.revealed[cell.0][cell.1]
    }
    pub fn is_flagged(&self, cell: Cell) -> bool {
        self.flagged[cell.0][cell.1]
    }

    /// Mines around a cell.
    pub fn count(&self, cell: Cell) -> usize {
        neighbours(cell).filter(|&(r, c)| self.mines[r][c]).count()
    }

    pub fn revealed_safe(&self) -> usize {
        self.cells()
            .filter(|&(r, c)| self.revealed[r][c] && !self.mines[r][c])
            .count()
    }
    pub fn flags(&self) -> usize {
        self.flagged.iter().flatten().filter(|&&f| f).count()
    }
    pub fn correct_flags(&self) -> usize {
        if !self.placed {
            return 0;
        }
        self.cells()
            .filter(|&(r, c)| self.flagged[r][c] && self.mines[r][c])
            .count()
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> {
        (0..N).flat_map(|r| (0..N).map(move |c| (r, c)))
    }

    /// Place the mines, keeping `first` and its neighbours clear.
    fn place_mines(&mut self, first: Cell) {
        let mut candidates: Vec<Cell> = self
            .cells()
            .filter(|&c| c != first && !neighbours(first).any(|n| n == c))
            .collect();
        for i in 0..MINES {
            let j = i + self.rng.index(candidates.len() - i);
            candidates.swap(i, j);
            let (r, c) = candidates[i];
            self.mines[r][c] = true;
        }
        self.placed = true;
        self.first_click = Some(first);
    }

    /// Reveal a cell (left click).
    pub fn reveal(&mut self, cell: Cell) {
        if self.terminal.is_terminal || self.is_revealed(cell) || self.is_flagged(cell) {
            return;
        }
        if !self.placed {
            self.place_mines(cell);
        }
        self.reveals += 1;
        if self.is_mine(cell) {
            self.revealed[cell.0][cell.1] = true;
            self.exploded = Some(cell);
            self.terminal = Terminal::ended(
                Outcome::Fail,
                format!("revealed a mine at {}", cell_id(cell)),
            );
            return;
        }
        let mut stack = vec![cell];
        while let Some(cur) = stack.pop() {
            if self.is_revealed(cur) || self.is_flagged(cur) {
                continue;
            }
            self.revealed[cur.0][cur.1] = true;
            if self.count(cur) == 0 {
                stack.extend(
                    neighbours(cur).filter(|&n| !self.is_revealed(n) && !self.is_flagged(n)),
                );
            }
        }
        if self.revealed_safe() == SAFE_CELLS {
            self.terminal = Terminal::ended(Outcome::Success, "revealed every safe cell");
        }
    }

    /// Toggle a flag (right click). No more flags than mines can be placed.
    pub fn toggle_flag(&mut self, cell: Cell) {
        if self.terminal.is_terminal || self.is_revealed(cell) {
            return;
        }
        let (r, c) = cell;
        if self.flagged[r][c] {
            self.flagged[r][c] = false;
            self.flag_actions += 1;
        } else if self.flags() < MINES {
            self.flagged[r][c] = true;
            self.flag_actions += 1;
        }
    }

    /// The board as the player sees it, one string per row.
    pub fn visible_board(&self) -> Vec<String> {
        (0..N)
            .map(|r| {
                (0..N)
                    .map(|c| {
                        let cell = (r, c);
                        let lost = self.exploded.is_some();
                        if self.is_revealed(cell) {
                            if self.is_mine(cell) {
                                '*'
                            } else {
                                char::from(b'0' + self.count(cell) as u8)
                            }
                        } else if self.is_flagged(cell) {
                            'F'
                        } else if lost && self.is_mine(cell) {
                            '*'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl Game for Minesweeper {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0x3193_0000 + episode as u64);
        self.game_time_ms = 0;
        self.mines = [[false; N]; N];
        self.placed = false;
        self.revealed = [[false; N]; N];
        self.flagged = [[false; N]; N];
        self.exploded = None;
        self.first_click = None;
        self.pressed = None;
        self.reveals = 0;
        self.flag_actions = 0;
        self.terminal = Terminal::running();
    }

    fn state(&self) -> GameApiState {
        let status = self.terminal.status();
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let revealed = self.revealed_safe();
        let progress = (revealed as f64 / SAFE_CELLS as f64 * 10_000.0).round() / 10_000.0;
        let flags = self.flags();
        set(&mut s.game_state, "score", revealed);
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "completion_progress", progress);
        set(&mut s.game_state, "progress", progress);
        set(&mut s.game_state, "player", Value::Null);
        set(&mut s.game_state, "board", json!(self.visible_board()));
        set(&mut s.game_state, "entities", Value::Null);
        set(&mut s.game_state, "mines_placed", self.placed);
        set(&mut s.metrics, "primary_score", revealed);
        set(&mut s.metrics, "revealed_safe_cells", revealed);
        set(&mut s.metrics, "total_safe_cells", SAFE_CELLS);
        set(&mut s.metrics, "correct_flags", self.correct_flags());
        set(&mut s.metrics, "wrong_flags", flags - self.correct_flags());
        set(&mut s.metrics, "flags_placed", flags);
        set(&mut s.metrics, "total_mines", MINES);
        set(&mut s.metrics, "remaining_mines", MINES - flags);
        set(&mut s.metrics, "reveals", self.reveals);
        set(&mut s.metrics, "flag_actions", self.flag_actions);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "rows", N);
        set(&mut s.raw, "cols", N);
        set(&mut s.raw, "first_click", self.first_click.map(cell_id));
        set(&mut s.raw, "exploded", self.exploded.map(cell_id));
        // The layout is kept out of the state until the episode is over.
        let mines: Option<Vec<String>> = self.terminal.is_terminal.then(|| {
            self.cells()
                .filter(|&c| self.is_mine(c))
                .map(cell_id)
                .collect()
        });
        set(&mut s.raw, "mines", json!(mines));
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::MouseDown {
                x,
                y,
                button: MouseButton::Left,
            } => self.pressed = cell_at(*x, *y),
            InputEvent::MouseUp {
                x,
                y,
                button: MouseButton::Left,
            } => {
                if let Some(cell) = self.pressed.take()
                    && cell_at(*x, *y) == Some(cell)
                {
                    self.reveal(cell);
                }
            }
            InputEvent::MouseDown {
                x,
                y,
                button: MouseButton::Right,
            } => {
                if let Some(cell) = cell_at(*x, *y) {
                    self.toggle_flag(cell);
                }
            }
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        // Turn-based: the clock runs, the board does not change by itself.
        self.game_time_ms += dt_ms;
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        match expert::choose(self, task) {
            expert::Move::Reveal(c) => json!({"action": "reveal_cell", "cell": cell_id(c)}),
            expert::Move::Flag(c) => json!({"action": "flag_cell", "cell": cell_id(c)}),
            expert::Move::Wait => json!({"action": "wait"}),
        }
    }
}

// ---------------------------------------------------------------- rendering

fn number_color(n: usize) -> draw::Rgb {
    match n {
        1 => rgb(25, 60, 220),
        2 => rgb(20, 130, 30),
        3 => rgb(210, 30, 30),
        4 => rgb(20, 20, 130),
        5 => rgb(130, 20, 20),
        6 => rgb(0, 130, 130),
        7 => rgb(20, 20, 20),
        _ => rgb(110, 110, 110),
    }
}

fn draw_flag(pm: &mut Pixmap, cx: f32, cy: f32) {
    draw::rect(pm, cx - 12.0, cy + 14.0, 26.0, 5.0, rgb(30, 30, 30));
    draw::rect(pm, cx - 5.0, cy + 10.0, 12.0, 5.0, rgb(30, 30, 30));
    draw::rect(pm, cx + 1.0, cy - 17.0, 4.0, 29.0, rgb(30, 30, 30));
    draw::polygon(
        pm,
        &[
            (cx + 3.0, cy - 18.0),
            (cx + 3.0, cy + 1.0),
            (cx - 17.0, cy - 8.5),
        ],
        rgb(225, 30, 30),
    );
}

fn draw_mine(pm: &mut Pixmap, cx: f32, cy: f32) {
    for (dx, dy) in [(1.0, 0.0), (0.0, 1.0), (0.707, 0.707), (0.707, -0.707)] {
        draw::line(
            pm,
            cx - dx * 19.0,
            cy - dy * 19.0,
            cx + dx * 19.0,
            cy + dy * 19.0,
            4.0,
            rgb(20, 20, 20),
        );
    }
    draw::circle(pm, cx, cy, 13.0, rgb(20, 20, 20));
    draw::circle(pm, cx - 4.5, cy - 4.5, 3.5, rgb(240, 240, 240));
}

/// What every frame shares: background, HUD bar, the board's frame, the row
/// and column labels and the fixed help texts. Nothing drawn later overlaps
/// it except on top (cells on the board), as in the original one-pass order.
fn static_layer(pm: &mut Pixmap) {
    draw::clear(pm, rgb(52, 58, 70));
    draw::hud_bar(pm, "Minesweeper");
    let size = CELL * N as f32;
    draw::rect(
        pm,
        BOARD_X - 6.0,
        BOARD_Y - 6.0,
        size + 12.0,
        size + 12.0,
        rgb(120, 120, 120),
    );
    draw::rect(pm, BOARD_X, BOARD_Y, size, size, rgb(128, 128, 128));
    let label = rgb(235, 235, 235);
    for i in 0..N {
        let letter = ((b'a' + i as u8) as char).to_string();
        let x = BOARD_X + i as f32 * CELL + CELL / 2.0;
        draw::text(pm, &letter, x, BOARD_Y - 40.0, 28.0, label, Align::Center);
        draw::text(
            pm,
            &letter,
            x,
            BOARD_Y + size + 8.0,
            28.0,
            label,
            Align::Center,
        );
        let num = (i + 1).to_string();
        let y = BOARD_Y + i as f32 * CELL + CELL / 2.0 - 17.0;
        draw::text(pm, &num, BOARD_X - 22.0, y, 28.0, label, Align::Right);
        draw::text(pm, &num, BOARD_X + size + 22.0, y, 28.0, label, Align::Left);
    }
    let px = BOARD_X + size + 70.0;
    let info = rgb(225, 228, 235);
    let dim = rgb(170, 176, 190);
    draw::text(
        pm,
        "Board 9 x 9, 10 mines",
        px,
        130.0,
        24.0,
        info,
        Align::Left,
    );
    draw::text(pm, "Left click: reveal", px, 290.0, 22.0, dim, Align::Left);
    draw::text(pm, "Right click: flag", px, 322.0, 22.0, dim, Align::Left);
    draw::text(pm, "Cell = letter + row", px, 380.0, 22.0, dim, Align::Left);
    draw::text(pm, "e.g. a1 top-left,", px, 410.0, 22.0, dim, Align::Left);
    draw::text(pm, "e5 centre", px, 440.0, 22.0, dim, Align::Left);
    let lx = 40.0;
    draw::text(pm, "Numbers count", lx, 130.0, 22.0, dim, Align::Left);
    draw::text(pm, "mines in the 8", lx, 160.0, 22.0, dim, Align::Left);
    draw::text(pm, "neighbouring cells", lx, 190.0, 22.0, dim, Align::Left);
}

fn render(g: &Minesweeper, pm: &mut Pixmap) {
    // The static layer is drawn once; the rest goes over it in the original
    // order, so frames stay pixel-identical (see `golden_frames_*`).
    static LAYER: OnceLock<Pixmap> = OnceLock::new();
    draw::static_layer(pm, &LAYER, static_layer);
    let flags = g.flags();
    let status = match g.terminal.outcome {
        Some(Outcome::Success) => "cleared",
        Some(Outcome::Fail) => "mine hit",
        None if !g.placed => "first click",
        None => "playing",
    };
    draw::hud_items(
        pm,
        &[
            ("Revealed", format!("{}/{}", g.revealed_safe(), SAFE_CELLS)),
            ("Mines left", (MINES as i64 - flags as i64).to_string()),
            ("Status", status.to_string()),
        ],
    );

    let lost = g.exploded.is_some();
    for (r, c) in g.cells() {
        let cell = (r, c);
        let (x, y) = (BOARD_X + c as f32 * CELL, BOARD_Y + r as f32 * CELL);
        let (cx, cy) = cell_center(cell);
        if g.is_revealed(cell) {
            let bg = if g.exploded == Some(cell) {
                rgb(230, 40, 40)
            } else {
                rgb(214, 214, 214)
            };
            draw::rect(pm, x + 1.0, y + 1.0, CELL - 1.0, CELL - 1.0, bg);
            if g.is_mine(cell) {
                draw_mine(pm, cx, cy);
            } else {
                let n = g.count(cell);
                if n > 0 {
                    draw::text(
                        pm,
                        &n.to_string(),
                        cx,
                        cy - 20.0,
                        38.0,
                        number_color(n),
                        Align::Center,
                    );
                }
            }
        } else {
            // Raised tile with a bevel.
            draw::rect(
                pm,
                x + 1.0,
                y + 1.0,
                CELL - 1.0,
                CELL - 1.0,
                rgb(250, 250, 250),
            );
            draw::rect(
                pm,
                x + 6.0,
                y + 6.0,
                CELL - 6.0,
                CELL - 6.0,
                rgb(110, 110, 110),
            );
            draw::rect(
                pm,
                x + 6.0,
                y + 6.0,
                CELL - 11.0,
                CELL - 11.0,
                rgb(190, 190, 190),
            );
            if g.is_flagged(cell) {
                draw_flag(pm, cx, cy);
                if lost && !g.is_mine(cell) {
                    draw::line(
                        pm,
                        cx - 18.0,
                        cy - 18.0,
                        cx + 18.0,
                        cy + 18.0,
                        4.0,
                        rgb(200, 0, 0),
                    );
                    draw::line(
                        pm,
                        cx - 18.0,
                        cy + 18.0,
                        cx + 18.0,
                        cy - 18.0,
                        4.0,
                        rgb(200, 0, 0),
                    );
                }
            } else if lost && g.is_mine(cell) {
                draw_mine(pm, cx, cy);
            }
        }
    }

    // Side panels.
    let px = BOARD_X + CELL * N as f32 + 70.0;
    let info = rgb(225, 228, 235);
    draw::text(
        pm,
        &format!("Flags placed: {flags}"),
        px,
        175.0,
        24.0,
        info,
        Align::Left,
    );
    draw::text(
        pm,
        &format!("Safe cells left: {}", SAFE_CELLS - g.revealed_safe()),
        px,
        215.0,
        24.0,
        info,
        Align::Left,
    );
    let lx = 40.0;
    if !g.placed {
        draw::text(
            pm,
            "First click",
            lx,
            260.0,
            22.0,
            rgb(250, 214, 90),
            Align::Left,
        );
        draw::text(
            pm,
            "is always safe",
            lx,
            290.0,
            22.0,
            rgb(250, 214, 90),
            Align::Left,
        );
    }

    match g.terminal.outcome {
        Some(Outcome::Fail) => draw::banner(
            pm,
            "BOOM - GAME OVER",
            g.terminal.reason.as_deref().unwrap_or(""),
        ),
        Some(Outcome::Success) => draw::banner(
            pm,
            "BOARD CLEARED",
            &format!("{} safe cells revealed", SAFE_CELLS),
        ),
        None => {}
    }
}
