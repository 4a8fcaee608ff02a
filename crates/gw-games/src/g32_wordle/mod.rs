//! 32_wordle — guess a hidden five-letter word in six tries.
//!
//! Typed letters fill the current row and the fifth letter submits it (as in
//! the paper's rules); Backspace deletes the last letter and Enter submits a
//! row by hand (only a short row can still be waiting). A submitted word must be in the word list (the answer
//! list plus a larger list of allowed guesses, both shipped as text files next
//! to this module); a short row or an unknown word is rejected with a message
//! on screen, the row is cleared (unknown word) or kept (short row) and no try
//! is spent. Each submitted guess is marked letter by letter: green for the
//! right letter in the right place, yellow for a letter that is in the word
//! elsewhere, grey for a letter that is not (or not any more) in the word —
//! repeated letters are only marked as often as the answer holds them, greens
//! first. The on-screen keyboard shows what is known about each letter.
//! Solving ends the episode with success, six misses with failure.
//!
//! The answer is drawn from the answer list by `(seed, level, episode)`,
//! where `level` is the task's puzzle number (`#infinite/N` in the
//! reference).
//!
//! State: `metrics.letters_correct` / `letters_present` / `letters_absent`
//! (greens / yellows / greys of the latest guess), `metrics.attempts`,
//! `metrics.guesses_remaining`, `game_state.completion_progress`
//! (greens of the latest guess / 5), the rows in `game_state.rows`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "32_wordle";
pub const WORD_LEN: usize = 5;
pub const MAX_TRIES: usize = 6;

pub type Word = [u8; WORD_LEN];

static ANSWERS_TXT: &str = include_str!("answers.txt");
static ALLOWED_TXT: &str = include_str!("allowed.txt");

fn parse_list(text: &str) -> Vec<Word> {
    text.split_whitespace()
        .filter_map(|w| {
            let b = w.as_bytes();
            (b.len() == WORD_LEN && b.iter().all(u8::is_ascii_lowercase))
                .then(|| std::array::from_fn(|i| b[i]))
        })
        .collect()
}

/// The possible answers, in file (alphabetical) order.
pub fn answers() -> &'static [Word] {
    static LIST: OnceLock<Vec<Word>> = OnceLock::new();
    LIST.get_or_init(|| parse_list(ANSWERS_TXT))
}

/// Every accepted guess (answers and extra allowed words), sorted, unique.
pub fn valid_words() -> &'static [Word] {
    static LIST: OnceLock<Vec<Word>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut v = parse_list(ANSWERS_TXT);
        v.extend(parse_list(ALLOWED_TXT));
        v.sort_unstable();
        v.dedup();
        v
    })
}

pub fn is_valid(word: &Word) -> bool {
    valid_words().binary_search(word).is_ok()
}

pub fn word_str(w: &Word) -> String {
    w.iter().map(|&b| b as char).collect()
}

/// What a guess letter tells; the order is "how much is known".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Absent,
    Present,
    Correct,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Absent => "absent",
            Mark::Present => "present",
            Mark::Correct => "correct",
        }
    }
}

/// Mark `guess` against `answer`: greens first, then yellows left to right
/// while unmatched copies of the letter remain in the answer.
pub fn score_guess(guess: &Word, answer: &Word) -> [Mark; WORD_LEN] {
    let mut marks = [Mark::Absent; WORD_LEN];
    let mut left = [0u8; 26];
    for i in 0..WORD_LEN {
        if guess[i] == answer[i] {
            marks[i] = Mark::Correct;
        } else {
            left[(answer[i] - b'a') as usize] += 1;
        }
    }
    for i in 0..WORD_LEN {
        if marks[i] == Mark::Correct {
            continue;
        }
        let slot = &mut left[(guess[i] - b'a') as usize];
        if *slot > 0 {
            *slot -= 1;
            marks[i] = Mark::Present;
        }
    }
    marks
}

/// A submitted guess and its marks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub word: Word,
    pub marks: [Mark; WORD_LEN],
}

impl Row {
    fn count(&self, m: Mark) -> usize {
        self.marks.iter().filter(|&&x| x == m).count()
    }
}

pub struct Wordle {
    seed: u64,
    level: u32,
    episode: u32,
    answer: Word,
    rows: Vec<Row>,
    input: Vec<u8>,
    message: Option<String>,
    invalid_guesses: u32,
    keys_typed: u32,
    game_time_ms: u64,
    terminal: Terminal,
    /// Grid tiles as drawn, by (row, column, letter, mark).
    tiles: draw::Stamps<(usize, usize, Option<u8>, Option<Mark>)>,
    /// Letter keys as drawn, by (letter, what the guesses showed of it).
    keys: draw::Stamps<(u8, Option<Mark>)>,
}

impl Default for Wordle {
    fn default() -> Self {
        Self::new()
    }
}

impl Wordle {
    pub fn new() -> Self {
        Wordle {
            seed: 0,
            level: 1,
            episode: 0,
            answer: answers()[0],
            rows: Vec::new(),
            input: Vec::new(),
            message: None,
            invalid_guesses: 0,
            keys_typed: 0,
            game_time_ms: 0,
            terminal: Terminal::running(),
            tiles: draw::Stamps::default(),
            keys: draw::Stamps::default(),
        }
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    pub fn input(&self) -> &[u8] {
        &self.input
    }

    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Best knowledge about each letter a..z (None = untried).
    pub fn keyboard(&self) -> [Option<Mark>; 26] {
        let mut k = [None; 26];
        for row in &self.rows {
            for (i, &ch) in row.word.iter().enumerate() {
                let slot = &mut k[(ch - b'a') as usize];
                *slot = Some(slot.map_or(row.marks[i], |m: Mark| m.max(row.marks[i])));
            }
        }
        k
    }

    fn latest(&self) -> Option<&Row> {
        self.rows.last()
    }

    pub fn letters_correct(&self) -> usize {
        self.latest().map_or(0, |r| r.count(Mark::Correct))
    }

    fn solved(&self) -> bool {
        self.letters_correct() == WORD_LEN
    }

    fn submit(&mut self) {
        if self.input.len() < WORD_LEN {
            self.message = Some("Not enough letters".into());
            return;
        }
        let word: Word = std::array::from_fn(|i| self.input[i]);
        if !is_valid(&word) {
            self.message = Some(format!(
                "{} is not in the word list",
                word_str(&word).to_uppercase()
            ));
            self.invalid_guesses += 1;
            self.input.clear();
            return;
        }
        let marks = score_guess(&word, &self.answer);
        self.rows.push(Row { word, marks });
        self.input.clear();
        self.message = None;
        if self.solved() {
            let n = self.rows.len();
            self.terminal = Terminal::ended(
                Outcome::Success,
                format!("solved in {n} {}", if n == 1 { "try" } else { "tries" }),
            );
        } else if self.rows.len() >= MAX_TRIES {
            self.terminal = Terminal::ended(Outcome::Fail, "no tries left");
        }
    }
}

// ---- rendering ---------------------------------------------------------

const TILE: f32 = 58.0;
const TILE_GAP: f32 = 7.0;
const GRID_TOP: f32 = 72.0;
const KEY_W: f32 = 50.0;
const KEY_H: f32 = 50.0;
const KEY_GAP: f32 = 6.0;
const KEY_TOP: f32 = 512.0;
const KEY_ROWS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

const GREEN: Rgb = rgb(106, 170, 100);
const YELLOW: Rgb = rgb(201, 180, 88);
const GREY: Rgb = rgb(120, 124, 126);
const INK: Rgb = rgb(26, 26, 27);

fn mark_color(m: Mark) -> Rgb {
    match m {
        Mark::Correct => GREEN,
        Mark::Present => YELLOW,
        Mark::Absent => GREY,
    }
}

/// Left edge and top of keyboard row `ri` (whole pixels).
fn key_row_start(ri: usize) -> (f32, f32) {
    let y = KEY_TOP + ri as f32 * (KEY_H + KEY_GAP);
    let n = KEY_ROWS[ri].len() as f32;
    let mut width = n * KEY_W + (n - 1.0) * KEY_GAP;
    if ri == 2 {
        width += 2.0 * (KEY_W * 1.6 + KEY_GAP);
    }
    (640.0 - width / 2.0, y)
}

/// What never changes: background, HUD bar, the colour legend and typing
/// hint on the left, and the ENTER and BACK keys.
fn paint_static(pm: &mut Pixmap) {
    draw::clear(pm, rgb(255, 255, 255));
    draw::hud_bar(pm, "Wordle");
    let lx = 60.0;
    draw::text(
        pm,
        "How to read the colours",
        lx,
        90.0,
        22.0,
        INK,
        Align::Left,
    );
    let legend = [
        (GREEN, "right letter, right spot"),
        (YELLOW, "in the word, wrong spot"),
        (GREY, "not in the word"),
    ];
    for (i, (c, label)) in legend.iter().enumerate() {
        let y = 132.0 + i as f32 * 46.0;
        draw::rect(pm, lx, y, 34.0, 34.0, *c);
        draw::text(
            pm,
            label,
            lx + 48.0,
            y + 6.0,
            20.0,
            rgb(60, 60, 64),
            Align::Left,
        );
    }
    draw::text(
        pm,
        "Type a five-letter word:",
        lx,
        290.0,
        20.0,
        rgb(60, 60, 64),
        Align::Left,
    );
    draw::text(
        pm,
        "the fifth letter submits it.",
        lx,
        318.0,
        20.0,
        rgb(60, 60, 64),
        Align::Left,
    );
    let special = |pm: &mut Pixmap, x: f32, label: &str| {
        let y = key_row_start(2).1;
        draw::rounded_rect(pm, x, y, KEY_W * 1.6, KEY_H, 5.0, rgb(211, 214, 218));
        draw::text(
            pm,
            label,
            x + KEY_W * 0.8,
            y + 16.0,
            16.0,
            INK,
            Align::Center,
        );
    };
    let x = key_row_start(2).0;
    special(pm, x, "ENTER");
    let letters = KEY_ROWS[2].len() as f32;
    special(
        pm,
        x + KEY_W * 1.6 + KEY_GAP + letters * (KEY_W + KEY_GAP),
        "BACK",
    );
}

fn tile_outline(pm: &mut Pixmap, x: f32, y: f32, c: Rgb) {
    draw::rect(pm, x, y, TILE, TILE, c);
    draw::rect(
        pm,
        x + 2.0,
        y + 2.0,
        TILE - 4.0,
        TILE - 4.0,
        rgb(255, 255, 255),
    );
}

impl Wordle {
    fn draw_grid(&self, pm: &mut Pixmap) {
        let width = WORD_LEN as f32 * TILE + (WORD_LEN as f32 - 1.0) * TILE_GAP;
        let x0 = 640.0 - width / 2.0;
        for r in 0..MAX_TRIES {
            let y = GRID_TOP + r as f32 * (TILE + TILE_GAP);
            for c in 0..WORD_LEN {
                let x = x0 + c as f32 * (TILE + TILE_GAP);
                let (letter, mark) = if let Some(row) = self.rows.get(r) {
                    (Some(row.word[c]), Some(row.marks[c]))
                } else if r == self.rows.len() && !self.terminal.is_terminal {
                    (self.input.get(c).copied(), None)
                } else {
                    (None, None)
                };
                let fg = if mark.is_some() {
                    rgb(255, 255, 255)
                } else {
                    INK
                };
                let region = (x as u32, y as u32, TILE as u32, TILE as u32);
                self.tiles.draw(pm, (r, c, letter, mark), region, |pm| {
                    match mark {
                        Some(m) => draw::rect(pm, x, y, TILE, TILE, mark_color(m)),
                        None if letter.is_some() => tile_outline(pm, x, y, rgb(135, 138, 140)),
                        None => tile_outline(pm, x, y, rgb(211, 214, 218)),
                    }
                    if let Some(l) = letter {
                        let s = (l as char).to_ascii_uppercase().to_string();
                        draw::text(pm, &s, x + TILE / 2.0, y + 10.0, 34.0, fg, Align::Center);
                    }
                });
            }
        }
    }

    /// The letter keys, coloured by what the guesses so far showed (the
    /// ENTER and BACK keys are part of the static layer).
    fn draw_keyboard(&self, pm: &mut Pixmap) {
        let known = self.keyboard();
        for (ri, row) in KEY_ROWS.iter().enumerate() {
            let (mut x, y) = key_row_start(ri);
            if ri == 2 {
                x += KEY_W * 1.6 + KEY_GAP;
            }
            for ch in row.bytes() {
                let mark = known[(ch - b'a') as usize];
                let (bg, fg) = match mark {
                    Some(m) => (mark_color(m), rgb(255, 255, 255)),
                    None => (rgb(211, 214, 218), INK),
                };
                let region = (x as u32, y as u32, KEY_W as u32, KEY_H as u32);
                self.keys.draw(pm, (ch, mark), region, |pm| {
                    draw::rounded_rect(pm, x, y, KEY_W, KEY_H, 5.0, bg);
                    let s = (ch as char).to_ascii_uppercase().to_string();
                    draw::text(pm, &s, x + KEY_W / 2.0, y + 12.0, 24.0, fg, Align::Center);
                });
                x += KEY_W + KEY_GAP;
            }
        }
    }

    /// The status on the right (the legend on the left is static).
    fn draw_side(&self, pm: &mut Pixmap) {
        // Status on the right.
        let rx = 900.0;
        let left = MAX_TRIES - self.rows.len();
        draw::text(
            pm,
            &format!("Tries left: {left}"),
            rx,
            90.0,
            26.0,
            INK,
            Align::Left,
        );
        draw::text(
            pm,
            &format!("Puzzle #{}", self.level),
            rx,
            130.0,
            22.0,
            rgb(90, 90, 96),
            Align::Left,
        );
        if let Some(row) = self.latest() {
            let s = format!("Last guess: {}", word_str(&row.word).to_uppercase());
            draw::text(pm, &s, rx, 180.0, 22.0, rgb(60, 60, 64), Align::Left);
            let counts = format!(
                "{} green  {} yellow  {} grey",
                row.count(Mark::Correct),
                row.count(Mark::Present),
                row.count(Mark::Absent)
            );
            draw::text(pm, &counts, rx, 212.0, 20.0, rgb(90, 90, 96), Align::Left);
        }
    }

    fn draw_message(&self, pm: &mut Pixmap) {
        if let Some(msg) = &self.message {
            let w = draw::text_width(msg, 22.0) + 40.0;
            draw::rounded_rect(pm, 640.0 - w / 2.0, 462.0, w, 40.0, 8.0, INK);
            draw::text(
                pm,
                msg,
                640.0,
                470.0,
                22.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        }
    }
}

impl Game for Wordle {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.level = config.level.unwrap_or(1).max(1);
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        let stream = 0x3200_0000 + ((self.level as u64) << 16) + episode as u64;
        let mut rng = Rng::new(self.seed, stream);
        let list = answers();
        self.answer = list[rng.index(list.len())];
        self.rows.clear();
        self.input.clear();
        self.message = None;
        self.invalid_guesses = 0;
        self.keys_typed = 0;
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
        let latest = self.latest();
        let count = |m: Mark| latest.map_or(0, |r| r.count(m));
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| json!({"word": word_str(&r.word), "marks": r.marks.iter().map(|m| m.name()).collect::<Vec<_>>()}))
            .collect();
        let mut keyboard = Map::new();
        for (i, k) in self.keyboard().iter().enumerate() {
            if let Some(m) = k {
                keyboard.insert(((b'a' + i as u8) as char).to_string(), json!(m.name()));
            }
        }
        let progress = if self.solved() {
            1.0
        } else {
            count(Mark::Correct) as f64 / WORD_LEN as f64
        };
        set(&mut s.game_state, "level", self.level);
        set(&mut s.game_state, "completion_progress", progress);
        set(&mut s.game_state, "solved", self.solved());
        set(&mut s.game_state, "rows", rows);
        set(
            &mut s.game_state,
            "current_input",
            String::from_utf8_lossy(&self.input).into_owned(),
        );
        set(
            &mut s.game_state,
            "message",
            self.message.clone().map_or(Value::Null, Value::String),
        );
        set(&mut s.game_state, "keyboard", keyboard);
        // The answer is revealed only once the episode is over.
        let answer = if self.terminal.is_terminal {
            json!(word_str(&self.answer))
        } else {
            Value::Null
        };
        set(&mut s.game_state, "answer", answer);
        set(&mut s.metrics, "attempts", self.rows.len());
        set(
            &mut s.metrics,
            "guesses_remaining",
            MAX_TRIES - self.rows.len(),
        );
        set(&mut s.metrics, "letters_correct", count(Mark::Correct));
        set(&mut s.metrics, "letters_present", count(Mark::Present));
        set(&mut s.metrics, "letters_absent", count(Mark::Absent));
        set(&mut s.metrics, "invalid_guesses", self.invalid_guesses);
        set(&mut s.metrics, "keys_typed", self.keys_typed);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "max_tries", MAX_TRIES);
        set(&mut s.raw, "word_list_size", valid_words().len());
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let InputEvent::KeyDown { key } = event else {
            return;
        };
        if self.terminal.is_terminal {
            return;
        }
        self.keys_typed += 1;
        match key.as_str() {
            // An empty row has nothing to submit (the fifth letter already
            // did); keep the last message on screen.
            "Enter" if self.input.is_empty() => {}
            "Enter" => self.submit(),
            "Backspace" => {
                self.input.pop();
            }
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_alphabetic() => {
                if self.input.len() < WORD_LEN {
                    self.input.push(k.as_bytes()[0].to_ascii_lowercase());
                    self.message = None;
                    // The fifth letter submits the guess.
                    if self.input.len() == WORD_LEN {
                        self.submit();
                    }
                }
            }
            _ => self.keys_typed -= 1,
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        // Turn-based: time passes but nothing changes on its own.
        self.game_time_ms += dt_ms;
    }

    fn render(&self, pm: &mut Pixmap) {
        static LAYER: OnceLock<Pixmap> = OnceLock::new();
        draw::static_layer(pm, &LAYER, paint_static);
        let left = (MAX_TRIES - self.rows.len()).to_string();
        draw::hud_items(
            pm,
            &[
                ("Puzzle", self.level.to_string()),
                ("Tries left", left),
                ("Green", self.letters_correct().to_string()),
            ],
        );
        self.draw_grid(pm);
        self.draw_keyboard(pm);
        self.draw_side(pm);
        self.draw_message(pm);
        if self.terminal.is_terminal {
            if self.terminal.outcome == Some(Outcome::Success) {
                let n = self.rows.len();
                draw::banner(
                    pm,
                    "SOLVED!",
                    &format!("in {n} {}", if n == 1 { "try" } else { "tries" }),
                );
            } else {
                draw::banner(
                    pm,
                    "OUT OF TRIES",
                    &format!("The word was {}", word_str(&self.answer).to_uppercase()),
                );
            }
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        let word = expert::next_guess(&self.rows, task);
        // Clear any half-typed row first, then type the word: its fifth
        // letter submits it.
        let mut text: String = std::iter::repeat_n('\u{8}', self.input.len()).collect();
        text.push_str(&word_str(&word));
        json!({"action": "type_text", "text": text})
    }
}
