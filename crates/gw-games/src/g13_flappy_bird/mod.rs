//! 13_flappy-bird — keep a bird airborne between scrolling pipe pairs.
//!
//! Gravity pulls the bird down; pressing Space sets its vertical speed to a
//! fixed upward flap (on key-down; holding the key does not flap again). Pipe
//! pairs scroll in from the right at a constant speed with a gap whose height
//! is drawn from the seeded RNG. Passing a pipe pair scores one point; touching
//! a pipe or the ground ends the episode (`Outcome::Fail`). The top of the
//! play field is a ceiling the bird slides along, but the pipes reach it.
//!
//! The episode opens in `Ready`: the bird hovers until the first flap, or
//! starts flying on its own after [`READY_MS`] so that a waiting agent still
//! plays (and falls) rather than hovering forever.
//!
//! Geometry is tuned for decisions every 0.2 s (one flap or one wait per
//! step): a pipe pair passes the bird about every 1.1 s, the first one after
//! about 1.2 s, so 15 pipes take about 16.6 s of the 20 s a 100-step run has.
//!
//! State: `game_state.score` (pipes passed), `metrics.distance` (pixels
//! flown), `metrics.pipes_visible`, `metrics.best_score` (best of this
//! session), the bird in `game_state.player`, pipes in `game_state.entities`.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{
    FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, Status, TaskInfo, Terminal,
};
use serde_json::{Value, json};
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "13_flappy-bird";

pub const TICK_MS: u64 = 10;
const DT: f64 = TICK_MS as f64 / 1000.0;
const VIEW_W: f64 = 1280.0;

/// Bottom of the HUD bar: the ceiling of the play field.
pub const CEILING_Y: f64 = 56.0;
/// Top of the ground strip.
pub const GROUND_Y: f64 = 630.0;
/// Fixed horizontal position of the bird's centre.
pub const BIRD_X: f64 = 320.0;
/// Collision radius of the bird (drawn a little larger).
pub const BIRD_R: f64 = 16.0;
/// Bird start (hover) height.
pub const START_Y: f64 = 340.0;

/// Downward acceleration, px/s².
pub const GRAVITY: f64 = 1200.0;
/// Upward speed set by a flap, px/s.
pub const FLAP_SPEED: f64 = 420.0;
/// Terminal falling speed, px/s.
pub const MAX_FALL: f64 = 600.0;

/// Pipe width, px.
pub const PIPE_W: f64 = 90.0;
/// Vertical opening of a pipe pair, px.
pub const GAP: f64 = 180.0;
/// Scroll speed of the pipes, px/s.
pub const PIPE_SPEED: f64 = 300.0;
/// Horizontal distance between consecutive pipe centres, px.
pub const PIPE_SPACING: f64 = 330.0;
/// Centre of the first pipe at the start of an episode.
pub const FIRST_PIPE_X: f64 = BIRD_X + 360.0;
/// Range of gap centres, and the largest change between neighbours.
const GAP_MIN_Y: f64 = CEILING_Y + 60.0 + GAP / 2.0;
const GAP_MAX_Y: f64 = GROUND_Y - 60.0 - GAP / 2.0;
const GAP_MAX_STEP: f64 = 160.0;

/// Time the bird hovers in `Ready` before it starts flying by itself.
pub const READY_MS: u64 = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pipe {
    /// Centre x in screen pixels.
    pub x: f64,
    /// Centre y of the gap.
    pub gap_y: f64,
    pub passed: bool,
}

impl Pipe {
    pub fn gap_top(&self) -> f64 {
        self.gap_y - GAP / 2.0
    }
    pub fn gap_bottom(&self) -> f64 {
        self.gap_y + GAP / 2.0
    }
}

/// The deterministic physics of one episode (no randomness: new pipes are
/// added by the game, so the expert can roll this forward safely).
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub bird_y: f64,
    pub bird_vy: f64,
    pub pipes: Vec<Pipe>,
    /// Pixels scrolled since the bird started flying.
    pub distance: f64,
    pub score: u32,
}

/// Why a bird died.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    Pipe,
    Ground,
}

impl Death {
    pub fn reason(self) -> &'static str {
        match self {
            Death::Pipe => "hit a pipe",
            Death::Ground => "hit the ground",
        }
    }
}

impl World {
    pub fn new() -> Self {
        World {
            bird_y: START_Y,
            bird_vy: 0.0,
            pipes: Vec::new(),
            distance: 0.0,
            score: 0,
        }
    }

    pub fn flap(&mut self) {
        self.bird_vy = -FLAP_SPEED;
    }

    /// One fixed tick of flight. Returns the death, if the bird died.
    pub fn tick(&mut self) -> Option<Death> {
        self.bird_vy = (self.bird_vy + GRAVITY * DT).min(MAX_FALL);
        self.bird_y += self.bird_vy * DT;
        if self.bird_y - BIRD_R < CEILING_Y {
            self.bird_y = CEILING_Y + BIRD_R;
            self.bird_vy = self.bird_vy.max(0.0);
        }
        let dx = PIPE_SPEED * DT;
        self.distance += dx;
        for p in &mut self.pipes {
            p.x -= dx;
            if !p.passed && p.x < BIRD_X {
                p.passed = true;
                self.score += 1;
            }
        }
        self.pipes.retain(|p| p.x + PIPE_W / 2.0 > -10.0);
        if self.bird_y + BIRD_R >= GROUND_Y {
            self.bird_y = GROUND_Y - BIRD_R;
            return Some(Death::Ground);
        }
        if self.pipes.iter().any(|p| hits_pipe(self.bird_y, p)) {
            return Some(Death::Pipe);
        }
        None
    }

    /// The first pipe the bird has not yet cleared entirely.
    pub fn next_pipe(&self) -> Option<&Pipe> {
        self.pipes
            .iter()
            .find(|p| p.x + PIPE_W / 2.0 + BIRD_R > BIRD_X)
    }
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

/// Circle-versus-rectangles test of the bird against one pipe pair.
fn hits_pipe(bird_y: f64, p: &Pipe) -> bool {
    let (left, right) = (p.x - PIPE_W / 2.0, p.x + PIPE_W / 2.0);
    let cx = BIRD_X.clamp(left, right);
    let dx = BIRD_X - cx;
    if dx.abs() >= BIRD_R {
        return false;
    }
    // Upper pipe spans [CEILING_Y - big, gap_top], lower [gap_bottom, ground].
    let cy_top = bird_y.min(p.gap_top());
    let cy_bottom = bird_y.max(p.gap_bottom());
    let d_top = (BIRD_X - cx).powi(2) + (bird_y - cy_top).powi(2);
    let d_bottom = (BIRD_X - cx).powi(2) + (bird_y - cy_bottom).powi(2);
    let r2 = BIRD_R * BIRD_R;
    d_top < r2 || d_bottom < r2
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Ready,
    Flying,
    Over,
}

pub struct FlappyBird {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    world: World,
    phase: Phase,
    /// Game time of this episode, ms.
    game_time_ms: u64,
    /// Time spent hovering in `Ready`, ms.
    ready_ms: u64,
    /// Time flown, ms.
    flight_ms: u64,
    space_held: bool,
    flaps: u32,
    best_score: u32,
    episode: u32,
    terminal: Terminal,
}

impl Default for FlappyBird {
    fn default() -> Self {
        Self::new()
    }
}

impl FlappyBird {
    pub fn new() -> Self {
        FlappyBird {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            world: World::new(),
            phase: Phase::Ready,
            game_time_ms: 0,
            ready_ms: 0,
            flight_ms: 0,
            space_held: false,
            flaps: 0,
            best_score: 0,
            episode: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// Draw a new gap centre near the previous one.
    fn draw_gap(&mut self, prev: Option<f64>) -> f64 {
        let (lo, hi) = match prev {
            Some(p) => (
                (p - GAP_MAX_STEP).max(GAP_MIN_Y),
                (p + GAP_MAX_STEP).min(GAP_MAX_Y),
            ),
            None => (GAP_MIN_Y, GAP_MAX_Y),
        };
        self.rng.range_f64(lo, hi).round()
    }

    /// Keep one pipe pair queued beyond the right edge of the screen.
    fn spawn_pipes(&mut self) {
        loop {
            let last = self.world.pipes.last().copied();
            let x = match last {
                Some(p) if p.x - PIPE_W / 2.0 > VIEW_W => return,
                Some(p) => p.x + PIPE_SPACING,
                None => FIRST_PIPE_X,
            };
            let gap_y = self.draw_gap(last.map(|p| p.gap_y));
            self.world.pipes.push(Pipe {
                x,
                gap_y,
                passed: false,
            });
        }
    }

    fn flap(&mut self) {
        match self.phase {
            Phase::Over => {}
            Phase::Ready => {
                self.phase = Phase::Flying;
                self.world.flap();
                self.flaps += 1;
            }
            Phase::Flying => {
                self.world.flap();
                self.flaps += 1;
            }
        }
    }

    fn tick(&mut self) {
        match self.phase {
            Phase::Over => {}
            Phase::Ready => {
                self.ready_ms += TICK_MS;
                if self.ready_ms >= READY_MS {
                    self.phase = Phase::Flying;
                }
            }
            Phase::Flying => {
                self.flight_ms += TICK_MS;
                let died = self.world.tick();
                self.spawn_pipes();
                self.best_score = self.best_score.max(self.world.score);
                if let Some(d) = died {
                    self.phase = Phase::Over;
                    self.terminal = Terminal::ended(Outcome::Fail, d.reason());
                }
            }
        }
    }

    fn pipes_visible(&self) -> usize {
        self.world
            .pipes
            .iter()
            .filter(|p| p.x + PIPE_W / 2.0 > 0.0 && p.x - PIPE_W / 2.0 < VIEW_W)
            .count()
    }
}

impl Game for FlappyBird {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.best_score = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.rng = Rng::new(self.seed, 0xF1A9_0000 + episode as u64);
        self.clock = FixedStep::new(TICK_MS);
        self.world = World::new();
        self.phase = Phase::Ready;
        self.game_time_ms = 0;
        self.ready_ms = 0;
        self.flight_ms = 0;
        self.space_held = false;
        self.flaps = 0;
        self.terminal = Terminal::running();
        self.spawn_pipes();
    }

    fn state(&self) -> GameApiState {
        let status = match self.phase {
            Phase::Ready => Status::Ready,
            Phase::Flying => Status::Playing,
            Phase::Over => Status::Terminal,
        };
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            status,
            self.terminal.clone(),
        );
        let w = &self.world;
        let round1 = |v: f64| (v * 10.0).round() / 10.0;
        set(&mut s.game_state, "score", w.score);
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "progress", Value::Null);
        set(&mut s.game_state, "started", self.phase != Phase::Ready);
        set(&mut s.game_state, "alive", self.phase != Phase::Over);
        set(
            &mut s.game_state,
            "player",
            json!({"x": BIRD_X, "y": round1(w.bird_y), "vy": round1(w.bird_vy), "radius": BIRD_R}),
        );
        let pipes: Vec<Value> = w
            .pipes
            .iter()
            .map(|p| json!({"x": round1(p.x), "width": PIPE_W, "gap_top": p.gap_top(), "gap_bottom": p.gap_bottom(), "passed": p.passed}))
            .collect();
        set(&mut s.game_state, "entities", json!(pipes));
        set(
            &mut s.game_state,
            "next_pipe",
            match w.next_pipe() {
                Some(p) => {
                    json!({"dx": round1(p.x - BIRD_X), "gap_top": p.gap_top(), "gap_bottom": p.gap_bottom()})
                }
                None => Value::Null,
            },
        );
        set(&mut s.metrics, "distance", round1(w.distance));
        set(&mut s.metrics, "pipes_visible", self.pipes_visible());
        set(&mut s.metrics, "best_score", self.best_score.max(w.score));
        set(&mut s.metrics, "pipes_passed", w.score);
        set(&mut s.metrics, "flaps", self.flaps);
        set(&mut s.metrics, "time_alive_ms", self.flight_ms);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "bird_y", w.bird_y);
        set(&mut s.raw, "bird_vy", w.bird_vy);
        set(&mut s.raw, "ground_y", GROUND_Y);
        set(&mut s.raw, "ceiling_y", CEILING_Y);
        set(&mut s.raw, "gap", GAP);
        set(&mut s.raw, "pipe_speed", PIPE_SPEED);
        set(&mut s.raw, "space_held", self.space_held);
        s
    }

    fn eval_view(&self, paths: &[String]) -> Value {
        gw_core::state::view_from(
            paths,
            &self.terminal,
            |p| (p == "game_state.score").then(|| self.world.score.into()),
            || self.state(),
        )
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "Space" && !self.space_held => {
                self.space_held = true;
                self.flap();
            }
            InputEvent::KeyUp { key } if key == "Space" => self.space_held = false,
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        for _ in 0..self.clock.ticks(dt_ms) {
            self.game_time_ms += TICK_MS;
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        render(self, pm);
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        let flap = expert::should_flap(&self.world, self.phase == Phase::Ready, task);
        json!({"action": if flap { "flap" } else { "wait" }})
    }
}

// ---------------------------------------------------------------- rendering

const SKY_TOP: draw::Rgb = rgb(112, 197, 206);
const PIPE_GREEN: draw::Rgb = rgb(116, 191, 46);
const PIPE_DARK: draw::Rgb = rgb(84, 56, 71);
const PIPE_LIGHT: draw::Rgb = rgb(158, 228, 89);

fn render_pipe(pm: &mut Pixmap, p: &Pipe) {
    let left = (p.x - PIPE_W / 2.0) as f32;
    let w = PIPE_W as f32;
    let top = p.gap_top() as f32;
    let bottom = p.gap_bottom() as f32;
    let ceil = CEILING_Y as f32;
    let ground = GROUND_Y as f32;
    let cap_h = 30.0;
    let lip = 6.0;
    // Upper body and cap.
    draw::rect(pm, left, ceil, w, top - ceil, PIPE_DARK);
    draw::rect(pm, left + 3.0, ceil, w - 6.0, top - ceil - 3.0, PIPE_GREEN);
    draw::rect(pm, left + 10.0, ceil, 10.0, top - ceil - 3.0, PIPE_LIGHT);
    draw::rect(pm, left - lip, top - cap_h, w + 2.0 * lip, cap_h, PIPE_DARK);
    draw::rect(
        pm,
        left - lip + 3.0,
        top - cap_h + 3.0,
        w + 2.0 * lip - 6.0,
        cap_h - 6.0,
        PIPE_GREEN,
    );
    draw::rect(
        pm,
        left - lip + 10.0,
        top - cap_h + 3.0,
        10.0,
        cap_h - 6.0,
        PIPE_LIGHT,
    );
    // Lower body and cap.
    draw::rect(pm, left, bottom, w, ground - bottom, PIPE_DARK);
    draw::rect(
        pm,
        left + 3.0,
        bottom + 3.0,
        w - 6.0,
        ground - bottom - 3.0,
        PIPE_GREEN,
    );
    draw::rect(
        pm,
        left + 10.0,
        bottom + 3.0,
        10.0,
        ground - bottom - 3.0,
        PIPE_LIGHT,
    );
    draw::rect(pm, left - lip, bottom, w + 2.0 * lip, cap_h, PIPE_DARK);
    draw::rect(
        pm,
        left - lip + 3.0,
        bottom + 3.0,
        w + 2.0 * lip - 6.0,
        cap_h - 6.0,
        PIPE_GREEN,
    );
    draw::rect(
        pm,
        left - lip + 10.0,
        bottom + 3.0,
        10.0,
        cap_h - 6.0,
        PIPE_LIGHT,
    );
}

fn render_bird(pm: &mut Pixmap, y: f64, vy: f64, bob: f64) {
    let (cx, cy) = (BIRD_X as f32, (y + bob) as f32);
    // Tilt with vertical speed: nose up when rising, down when falling.
    let angle = (vy / MAX_FALL * 0.9).clamp(-0.45, 1.2);
    let (s, c) = (libm::sin(angle) as f32, libm::cos(angle) as f32);
    let rot = |dx: f32, dy: f32| (cx + dx * c - dy * s, cy + dx * s + dy * c);
    draw::circle(pm, cx, cy, 21.0, rgb(84, 56, 71));
    draw::circle(pm, cx, cy, 18.5, rgb(250, 200, 40));
    let belly = rot(-2.0, 7.0);
    draw::circle(pm, belly.0, belly.1, 10.0, rgb(252, 232, 150));
    let wing = rot(-10.0, 2.0);
    draw::circle(pm, wing.0, wing.1, 8.0, rgb(84, 56, 71));
    draw::circle(pm, wing.0, wing.1, 6.5, rgb(255, 250, 235));
    let eye = rot(8.0, -8.0);
    draw::circle(pm, eye.0, eye.1, 7.0, rgb(255, 255, 255));
    let pupil = rot(10.5, -8.0);
    draw::circle(pm, pupil.0, pupil.1, 3.0, rgb(20, 20, 20));
    let beak = [rot(12.0, -1.0), rot(30.0, 3.0), rot(12.0, 8.0)];
    draw::polygon(pm, &beak, rgb(240, 110, 40));
}

/// Period of the scenery pattern (clouds, city), px; it scrolls at a quarter
/// of the pipe speed.
const SCENERY_PERIOD: u32 = 320;
/// Period of the ground stripes, px; they scroll with the pipes.
const GROUND_PERIOD: u32 = 40;

/// Sky, clouds and city between the HUD and the ground, drawn once into a
/// strip one period wider than the screen so a frame only copies rows.
fn scenery_strip() -> &'static Pixmap {
    static STRIP: OnceLock<Pixmap> = OnceLock::new();
    STRIP.get_or_init(|| {
        let (w, top) = (VIEW_W as f32 + SCENERY_PERIOD as f32, CEILING_Y as f32);
        let mut pm = Pixmap::new(w as u32, (GROUND_Y - CEILING_Y) as u32).expect("strip");
        draw::clear(&mut pm, SKY_TOP);
        draw::rect(&mut pm, 0.0, 420.0 - top, w, 210.0, rgb(130, 208, 214));
        let cloud = rgb(233, 252, 217);
        for i in 0..6 {
            let x = i as f32 * 320.0;
            draw::circle(&mut pm, x + 60.0, 470.0 - top, 46.0, cloud);
            draw::circle(&mut pm, x + 130.0, 450.0 - top, 60.0, cloud);
            draw::circle(&mut pm, x + 210.0, 475.0 - top, 42.0, cloud);
        }
        draw::rect(&mut pm, 0.0, 490.0 - top, w, 140.0, cloud);
        for i in 0..11 {
            let x = i as f32 * 160.0;
            draw::rect(
                &mut pm,
                x + 10.0,
                540.0 - top,
                50.0,
                90.0,
                rgb(160, 218, 170),
            );
            draw::rect(
                &mut pm,
                x + 70.0,
                515.0 - top,
                40.0,
                115.0,
                rgb(150, 210, 160),
            );
            draw::rect(
                &mut pm,
                x + 118.0,
                560.0 - top,
                34.0,
                70.0,
                rgb(160, 218, 170),
            );
        }
        draw::rect(&mut pm, 0.0, 600.0 - top, w, 30.0, rgb(94, 190, 70));
        pm
    })
}

/// The ground below `GROUND_Y` with its diagonal stripes.
fn ground_strip() -> &'static Pixmap {
    static STRIP: OnceLock<Pixmap> = OnceLock::new();
    STRIP.get_or_init(|| {
        let w = VIEW_W as f32 + GROUND_PERIOD as f32;
        let mut pm = Pixmap::new(w as u32, (720.0 - GROUND_Y) as u32).expect("strip");
        draw::clear(&mut pm, rgb(222, 216, 149));
        draw::rect(&mut pm, 0.0, 0.0, w, 4.0, rgb(84, 56, 71));
        draw::rect(&mut pm, 0.0, 4.0, w, 18.0, rgb(156, 230, 89));
        for i in 0..35 {
            let x = i as f32 * 40.0;
            draw::polygon(
                &mut pm,
                &[
                    (x, 22.0),
                    (x + 20.0, 22.0),
                    (x + 10.0, 4.0),
                    (x - 10.0, 4.0),
                ],
                rgb(115, 191, 46),
            );
        }
        draw::rect(&mut pm, 0.0, 22.0, w, 3.0, rgb(200, 190, 120));
        pm
    })
}

fn render(g: &FlappyBird, pm: &mut Pixmap) {
    let w = &g.world;
    let scroll = w.distance.max(0.0) as u64;
    // Screen-wide windows of the pre-drawn strips, scrolled.
    let frame_w = VIEW_W as u32;
    draw::copy_layer(
        pm,
        scenery_strip(),
        (scroll / 4 % SCENERY_PERIOD as u64) as u32,
        frame_w,
        0,
        CEILING_Y as u32,
    );
    for p in &w.pipes {
        if p.x + PIPE_W / 2.0 + 10.0 > 0.0 && p.x - PIPE_W / 2.0 - 10.0 < VIEW_W {
            render_pipe(pm, p);
        }
    }
    draw::copy_layer(
        pm,
        ground_strip(),
        (scroll % GROUND_PERIOD as u64) as u32,
        frame_w,
        0,
        GROUND_Y as u32,
    );

    let bob = if g.phase == Phase::Ready {
        8.0 * libm::sin(g.ready_ms as f64 / 1000.0 * 2.0 * std::f64::consts::PI * 1.5)
    } else {
        0.0
    };
    render_bird(
        pm,
        w.bird_y,
        if g.phase == Phase::Ready {
            0.0
        } else {
            w.bird_vy
        },
        bob,
    );

    // Big score like the original, with an outline.
    let sc = w.score.to_string();
    for (ox, oy) in [(-3.0, 0.0), (3.0, 0.0), (0.0, -3.0), (0.0, 3.0)] {
        draw::text(
            pm,
            &sc,
            640.0 + ox,
            76.0 + oy,
            72.0,
            rgb(40, 30, 30),
            Align::Center,
        );
    }
    draw::text(
        pm,
        &sc,
        640.0,
        76.0,
        72.0,
        rgb(255, 255, 255),
        Align::Center,
    );

    draw::hud(
        pm,
        "Flappy Bird",
        &[
            ("Score", w.score.to_string()),
            ("Best", g.best_score.max(w.score).to_string()),
            ("Time", format!("{:.1}s", g.flight_ms as f64 / 1000.0)),
        ],
    );
    draw::text(
        pm,
        "Space: flap   (wait: fall)",
        20.0,
        682.0,
        22.0,
        rgb(90, 70, 50),
        Align::Left,
    );

    match g.phase {
        Phase::Ready => {
            draw::rounded_rect(pm, 440.0, 200.0, 400.0, 110.0, 16.0, rgba(0, 0, 0, 120));
            draw::text(
                pm,
                "GET READY",
                640.0,
                212.0,
                48.0,
                rgb(255, 210, 60),
                Align::Center,
            );
            draw::text(
                pm,
                "press Space to flap",
                640.0,
                268.0,
                26.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        }
        Phase::Over => draw::banner(
            pm,
            "GAME OVER",
            &format!(
                "Score {} - {}",
                w.score,
                g.terminal.reason.as_deref().unwrap_or("")
            ),
        ),
        Phase::Flying => {}
    }
}
