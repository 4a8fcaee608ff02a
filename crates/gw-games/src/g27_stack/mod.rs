//! 27_stack — the tower-stacking timing game. A slab slides back and forth
//! above the tower, along x on one layer and along z on the next. Space (or a
//! click) drops it where it is: the part hanging over the layer below is cut
//! off and falls away, so the next slab is smaller. A drop within a few units
//! of perfect snaps into place and keeps the full size. Missing the tower
//! entirely ends the game. The camera rises with the tower.
//!
//! State: `game_state.score` (slabs placed), `game_state.level` (speed tier),
//! `metrics.blocks_count`, `metrics.deaths`, the slider and the top layer.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Outcome, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use tiny_skia::Pixmap;

/// Opacity of falling cut-offs.
const DEBRIS_ALPHA: u8 = 110;

pub const ID: &str = "27_stack";

const TICK_MS: u64 = 10;
/// Footprint of the first slab (world units).
pub const START_SIZE: f64 = 100.0;
/// Thickness of one slab.
pub const LAYER_H: f64 = 10.0;
/// A drop this close to the layer below snaps into place (a perfect drop).
pub const PERFECT_TOL: f64 = 5.0;
/// The slider turns around this far from the tower's centre line.
pub const SWING: f64 = 130.0;
/// Slabs per speed level.
pub const BLOCKS_PER_LEVEL: u32 = 10;
/// The game's beat in seconds: a new slab reaches the tower's line a whole
/// number of beats (2 or 3) after it appears, give or take `START_JITTER`.
pub const BEAT_S: f64 = 0.2;
pub const START_JITTER: f64 = 7.0;

/// Slider speed in units per second at `level`.
pub fn slider_speed(level: u32) -> f64 {
    150.0 + 10.0 * (level.clamp(1, 6) - 1) as f64
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slab {
    /// Centre on x and z.
    pub x: f64,
    pub z: f64,
    /// Extent along x and z.
    pub w: f64,
    pub d: f64,
    pub hue: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slider {
    pub slab: Slab,
    /// 0 = slides along x, 1 = along z.
    pub axis: u8,
    /// +1 or -1.
    pub dir: f64,
    pub speed: f64,
}

impl Slider {
    pub fn pos(&self) -> f64 {
        if self.axis == 0 {
            self.slab.x
        } else {
            self.slab.z
        }
    }

    /// One fixed tick of motion, turning around at `centre ± SWING`.
    pub fn step(&mut self, centre: f64, dt: f64) {
        let mut p = self.pos() + self.dir * self.speed * dt;
        if p > centre + SWING {
            p = 2.0 * (centre + SWING) - p;
            self.dir = -1.0;
        } else if p < centre - SWING {
            p = 2.0 * (centre - SWING) - p;
            self.dir = 1.0;
        }
        if self.axis == 0 {
            self.slab.x = p
        } else {
            self.slab.z = p
        }
    }
}

/// A cut-off piece falling away (drawing only).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Debris {
    slab: Slab,
    y: f64,
    vy: f64,
}

/// What one drop did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Drop {
    Perfect,
    Cut(f64),
    Miss,
}

/// Place `moving` on `top` sliding along `axis`: the new top slab, the cut-off
/// piece (if any) and what happened.
pub fn place(top: &Slab, moving: &Slab, axis: u8) -> (Option<Slab>, Option<Slab>, Drop) {
    let (tc, mc, size) = if axis == 0 {
        (top.x, moving.x, top.w)
    } else {
        (top.z, moving.z, top.d)
    };
    let off = mc - tc;
    if off.abs() <= PERFECT_TOL {
        let mut s = *moving;
        if axis == 0 {
            s.x = top.x
        } else {
            s.z = top.z
        }
        return (Some(s), None, Drop::Perfect);
    }
    let overlap = size - off.abs();
    if overlap <= 0.0 {
        return (None, Some(*moving), Drop::Miss);
    }
    let kept_c = tc + off / 2.0;
    let cut_c = if off > 0.0 {
        tc + size / 2.0 + off.abs() / 2.0
    } else {
        tc - size / 2.0 - off.abs() / 2.0
    };
    let mut kept = *moving;
    let mut cut = *moving;
    if axis == 0 {
        kept.x = kept_c;
        kept.w = overlap;
        cut.x = cut_c;
        cut.w = off.abs();
    } else {
        kept.z = kept_c;
        kept.d = overlap;
        cut.z = cut_c;
        cut.d = off.abs();
    }
    (Some(kept), Some(cut), Drop::Cut(off.abs()))
}

pub struct Stack {
    seed: u64,
    rng: Rng,
    clock: FixedStep,
    pub(crate) tower: Vec<Slab>,
    pub(crate) slider: Option<Slider>,
    debris: Vec<Debris>,
    score: u32,
    best: u32,
    perfects: u32,
    streak: u32,
    deaths: u32,
    hue0: f64,
    camera: f64,
    last_drop: Option<Drop>,
    flash_ms: u64,
    space_down: bool,
    game_time_ms: u64,
    terminal: Terminal,
}

impl Default for Stack {
    fn default() -> Self {
        Self::new()
    }
}

impl Stack {
    pub fn new() -> Self {
        Stack {
            seed: 0,
            rng: Rng::new(0, 0),
            clock: FixedStep::new(TICK_MS),
            tower: Vec::new(),
            slider: None,
            debris: Vec::new(),
            score: 0,
            best: 0,
            perfects: 0,
            streak: 0,
            deaths: 0,
            hue0: 0.0,
            camera: 0.0,
            last_drop: None,
            flash_ms: 0,
            space_down: false,
            game_time_ms: 0,
            terminal: Terminal::running(),
        }
    }

    pub fn level(&self) -> u32 {
        1 + self.score / BLOCKS_PER_LEVEL
    }

    pub fn top(&self) -> &Slab {
        self.tower.last().expect("the tower has a base")
    }

    /// Height of the top surface of the tower.
    pub fn height(&self) -> f64 {
        self.tower.len() as f64 * LAYER_H
    }

    fn spawn_slider(&mut self) {
        let top = *self.top();
        let axis = (self.tower.len() % 2) as u8;
        let speed = slider_speed(self.level());
        let beats = self.rng.range_i32(2, 3) as f64;
        let offset = beats * speed * BEAT_S + self.rng.range_f64(-START_JITTER, START_JITTER);
        let side = if self.rng.chance(0.5) { -1.0 } else { 1.0 };
        let mut slab = top;
        slab.hue = self.hue0 + self.tower.len() as f64 * 7.0;
        if axis == 0 {
            slab.x = top.x + side * offset
        } else {
            slab.z = top.z + side * offset
        }
        self.slider = Some(Slider {
            slab,
            axis,
            dir: -side,
            speed,
        });
    }

    fn drop_slab(&mut self) {
        if self.terminal.is_terminal {
            return;
        }
        let Some(sl) = self.slider.take() else { return };
        let top = *self.top();
        let (kept, cut, what) = place(&top, &sl.slab, sl.axis);
        let y = self.height();
        if let Some(c) = cut {
            self.debris.push(Debris {
                slab: c,
                y,
                vy: 0.0,
            });
            if self.debris.len() > 8 {
                self.debris.remove(0);
            }
        }
        self.last_drop = Some(what);
        self.flash_ms = 700;
        match kept {
            Some(k) => {
                self.tower.push(k);
                self.score += 1;
                self.best = self.best.max(self.score);
                if what == Drop::Perfect {
                    self.perfects += 1;
                    self.streak += 1;
                } else {
                    self.streak = 0;
                }
                self.spawn_slider();
            }
            None => {
                self.deaths += 1;
                self.streak = 0;
                self.terminal = Terminal::ended(Outcome::Fail, "the slab missed the tower");
            }
        }
    }

    fn tick(&mut self) {
        let dt = TICK_MS as f64 / 1000.0;
        if !self.terminal.is_terminal {
            let top = *self.top();
            if let Some(sl) = &mut self.slider {
                let c = if sl.axis == 0 { top.x } else { top.z };
                sl.step(c, dt);
            }
        }
        for d in &mut self.debris {
            d.vy -= 400.0 * dt;
            d.y += d.vy * dt;
        }
        let floor = self.height() - 400.0;
        self.debris.retain(|d| d.y > floor);
        let target = (self.height() - 60.0).max(0.0);
        self.camera += (target - self.camera) * (dt * 6.0).min(1.0);
        self.flash_ms = self.flash_ms.saturating_sub(TICK_MS);
    }
}

// ---------------------------------------------------------------- rendering

const SCALE: f64 = 1.45;
const CX: f64 = 640.0;
/// Screen y of world height `camera` at the tower's centre line.
const HORIZON: f64 = 470.0;

fn hsv(h: f64, s: f64, v: f64) -> Rgb {
    let h = h.rem_euclid(360.0) / 60.0;
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let f = |u: f64| ((u + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    rgb(f(r), f(g), f(b))
}

impl Stack {
    fn project(&self, x: f64, y: f64, z: f64) -> (f32, f32) {
        let c30 = libm::cos(30f64.to_radians());
        let s30 = libm::sin(30f64.to_radians());
        let sx = CX + (x - z) * c30 * SCALE;
        let sy = HORIZON + (x + z) * s30 * SCALE - (y - self.camera) * SCALE;
        (sx as f32, sy as f32)
    }

    /// Draw a box with its base at height `y0` and top at `y1`.
    /// The edges of `s`'s footprint at height `y`.
    fn outline(&self, pm: &mut Pixmap, s: &Slab, y: f64, c: Rgb, width: f32) {
        let (x0, x1, z0, z1) = (
            s.x - s.w / 2.0,
            s.x + s.w / 2.0,
            s.z - s.d / 2.0,
            s.z + s.d / 2.0,
        );
        let pts = [
            self.project(x0, y, z0),
            self.project(x1, y, z0),
            self.project(x1, y, z1),
            self.project(x0, y, z1),
        ];
        for k in 0..4 {
            draw::line_aliased(pm, pts[k], pts[(k + 1) % 4], width, c);
        }
    }

    fn draw_box(&self, pm: &mut Pixmap, s: &Slab, y0: f64, y1: f64, alpha: u8) {
        let (x0, x1) = (s.x - s.w / 2.0, s.x + s.w / 2.0);
        let (z0, z1) = (s.z - s.d / 2.0, s.z + s.d / 2.0);
        let top = hsv(s.hue, 0.45, 0.95);
        let shade = |c: Rgb, k: u32| {
            rgba(
                (c.0 as u32 * k / 100) as u8,
                (c.1 as u32 * k / 100) as u8,
                (c.2 as u32 * k / 100) as u8,
                alpha,
            )
        };
        let p = |x, y, z| self.project(x, y, z);
        draw::polygon_aliased(
            pm,
            &[p(x1, y0, z0), p(x1, y1, z0), p(x1, y1, z1), p(x1, y0, z1)],
            shade(top, 78),
        );
        draw::polygon_aliased(
            pm,
            &[p(x0, y0, z1), p(x1, y0, z1), p(x1, y1, z1), p(x0, y1, z1)],
            shade(top, 62),
        );
        draw::polygon_aliased(
            pm,
            &[p(x0, y1, z0), p(x1, y1, z0), p(x1, y1, z1), p(x0, y1, z1)],
            shade(top, 100),
        );
    }
}

impl Game for Stack {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.deaths = 0;
        self.best = 0;
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.rng = Rng::new(self.seed, 0x2727_0000 + episode as u64);
        self.clock.clear();
        self.hue0 = self.rng.range_f64(0.0, 360.0);
        self.tower = vec![Slab {
            x: 0.0,
            z: 0.0,
            w: START_SIZE,
            d: START_SIZE,
            hue: self.hue0,
        }];
        self.debris.clear();
        self.score = 0;
        self.perfects = 0;
        self.streak = 0;
        self.camera = 0.0;
        self.last_drop = None;
        self.flash_ms = 0;
        self.space_down = false;
        self.terminal = Terminal::running();
        self.spawn_slider();
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
        let r1 = |v: f64| (v * 10.0).round() / 10.0;
        let top = self.top();
        let slider = self.slider.map(|sl| {
            let centre = if sl.axis == 0 { top.x } else { top.z };
            json!({"axis": if sl.axis == 0 { "x" } else { "z" }, "x": r1(sl.slab.x), "z": r1(sl.slab.z), "width": r1(sl.slab.w),
                   "depth": r1(sl.slab.d), "direction": sl.dir, "speed": sl.speed, "offset": r1(sl.pos() - centre)})
        });
        let last = self.last_drop.map(|d| match d {
            Drop::Perfect => json!({"kind": "perfect", "cut": 0.0}),
            Drop::Cut(c) => json!({"kind": "cut", "cut": r1(c)}),
            Drop::Miss => json!({"kind": "miss", "cut": Value::Null}),
        });
        set(&mut s.game_state, "score", self.score);
        set(&mut s.game_state, "level", self.level());
        set(
            &mut s.game_state,
            "progress",
            (self.score % BLOCKS_PER_LEVEL) as f64 / BLOCKS_PER_LEVEL as f64,
        );
        set(&mut s.game_state, "player", json!(slider));
        set(
            &mut s.game_state,
            "board",
            json!({"height": self.tower.len(), "top": {"x": r1(top.x), "z": r1(top.z), "width": r1(top.w), "depth": r1(top.d)}}),
        );
        set(&mut s.game_state, "entities", Value::Null);
        set(&mut s.metrics, "blocks_count", self.score);
        set(&mut s.metrics, "deaths", self.deaths);
        set(&mut s.metrics, "perfect_drops", self.perfects);
        set(&mut s.metrics, "perfect_streak", self.streak);
        set(&mut s.metrics, "best_score", self.best.max(self.score));
        set(&mut s.metrics, "top_area", r1(top.w * top.d));
        set(&mut s.raw, "last_drop", json!(last));
        set(&mut s.raw, "camera_y", r1(self.camera));
        set(&mut s.raw, "perfect_tolerance", PERFECT_TOL);
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        match event {
            InputEvent::KeyDown { key } if key == "Space" && !self.space_down => {
                self.space_down = true;
                self.drop_slab();
            }
            InputEvent::KeyUp { key } if key == "Space" => self.space_down = false,
            InputEvent::MouseDown {
                button: MouseButton::Left,
                ..
            } => self.drop_slab(),
            _ => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        let bg = hsv(
            self.hue0 + self.tower.len() as f64 * 7.0 + 180.0,
            0.18,
            0.32,
        );
        draw::clear(pm, bg);
        // Painter's order: pieces behind the tower, the tower bottom-up, the slider, pieces in front.
        let top = *self.top();
        let behind = |d: &Debris| d.slab.x + d.slab.z < top.x + top.z;
        // Cut-offs fall half transparent, so they never read as tower slabs.
        for d in self.debris.iter().filter(|d| behind(d)) {
            self.draw_box(pm, &d.slab, d.y, d.y + LAYER_H, DEBRIS_ALPHA);
        }
        let first_visible = ((self.camera - 330.0 / SCALE) / LAYER_H).floor().max(0.0) as usize;
        for (i, slab) in self.tower.iter().enumerate().skip(first_visible) {
            let y1 = (i + 1) as f64 * LAYER_H;
            let y0 = if i == first_visible {
                y1 - LAYER_H - 400.0
            } else {
                y1 - LAYER_H
            };
            self.draw_box(pm, slab, y0, y1, 255);
        }
        if let Some(sl) = &self.slider {
            let y = self.height() + LAYER_H;
            self.draw_box(pm, &sl.slab, y - LAYER_H, y, 255);
            // A light rim on the moving slab's top face sets it apart from the
            // tower; the tower top's edges, drawn on that face too,
            // mark exactly what will be kept and what will be cut off.
            self.outline(pm, &sl.slab, y, rgba(255, 255, 255, 200), 2.0);
            self.outline(pm, &top, y, rgba(255, 40, 60, 235), 3.0);
        }
        for d in self.debris.iter().filter(|d| !behind(d)) {
            self.draw_box(pm, &d.slab, d.y, d.y + LAYER_H, DEBRIS_ALPHA);
        }
        draw::hud(
            pm,
            "Stack",
            &[
                ("Score", self.score.to_string()),
                ("Level", self.level().to_string()),
                ("Best", self.best.max(self.score).to_string()),
            ],
        );
        draw::text(
            pm,
            &self.score.to_string(),
            640.0,
            80.0,
            72.0,
            rgb(255, 255, 255),
            Align::Center,
        );
        if self.flash_ms > 0 && !self.terminal.is_terminal {
            let (msg, c) = match self.last_drop {
                Some(Drop::Perfect) => ("PERFECT!", rgb(255, 236, 120)),
                Some(Drop::Cut(_)) => ("cut", rgb(230, 230, 230)),
                _ => ("", rgb(0, 0, 0)),
            };
            draw::text(pm, msg, 640.0, 160.0, 30.0, c, Align::Center);
        }
        draw::text(
            pm,
            "Space or click: drop the sliding slab",
            20.0,
            684.0,
            20.0,
            rgb(225, 225, 225),
            Align::Left,
        );
        if self.terminal.is_terminal {
            draw::banner(pm, "GAME OVER", &format!("Tower of {} slabs", self.score));
        }
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}
