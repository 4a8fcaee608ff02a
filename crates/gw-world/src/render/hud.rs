//! The HUD over the 3D view: crosshair, hotbar with item icons and counts,
//! health and hunger bars, the held item, and the inventory screen. Drawn
//! with plain rectangles and a 3×5 digit font. Frames under
//! [`COMPACT_BELOW`] pixels on a side get a compact HUD of a few pixel rows
//! instead (`paint_compact`). [`coverage`] tells the renderer which pixels
//! the HUD paints opaquely, so it does not trace rays there.
//!
//! Those pixels' colours do not depend on the view either, and they change
//! only with what the HUD shows (hotbar, counts, wear, health and food
//! levels, the selected slot, the inventory screen): [`layer`] keeps them
//! per thread, with the coverage, for as long as that stays the same
//! ([`Layer`]; the colours taken from the first frame drawn with it), and
//! [`draw_over`] copies them in after applying the only view-dependent
//! parts (the darkening and the inverted crosshair).

use super::icons::{ICON, icon};
use super::item_color;
use crate::data::ItemId;
use crate::inventory::{HOTBAR, SLOTS, Stack};
use crate::world::World;
use std::cell::RefCell;
use std::rc::Rc;

/// 3×5 bitmaps of the digits 0–9 (bit 2 = left column).
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 1, 1, 1],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

/// What painting the HUD does to the canvas.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Draw everything.
    Draw,
    /// Record which pixels the HUD paints opaquely (1, one byte per pixel)
    /// instead of drawing: their final colour does not depend on the 3D
    /// view under them.
    Mask,
    /// Apply only what depends on the view (darkening, inverting): the
    /// opaque rectangles are copied in from a [`Layer`] afterwards.
    View,
}

struct Canvas<'a> {
    w: usize,
    h: usize,
    /// RGBA pixels, or one byte per pixel in [`Mode::Mask`].
    px: &'a mut [u8],
    mode: Mode,
}

impl Canvas<'_> {
    fn rect(&mut self, x: i64, y: i64, rw: i64, rh: i64, c: [u8; 3]) {
        let (x0, y0) = (x.max(0) as usize, y.max(0) as usize);
        let x1 = ((x + rw).max(0) as usize).min(self.w);
        let y1 = ((y + rh).max(0) as usize).min(self.h);
        if x0 >= x1 || self.mode == Mode::View {
            return;
        }
        for yy in y0..y1 {
            if self.mode == Mode::Mask {
                self.px[yy * self.w + x0..yy * self.w + x1].fill(1);
                continue;
            }
            for p in self.px[(yy * self.w + x0) * 4..(yy * self.w + x1) * 4].chunks_exact_mut(4) {
                p[..3].copy_from_slice(&c);
            }
        }
    }

    /// Darken a rectangle (a translucent black panel), keeping `keep`/256
    /// of each colour (`keep` at most 256).
    fn shade(&mut self, x: i64, y: i64, rw: i64, rh: i64, keep: u32) {
        if self.mode == Mode::Mask {
            return;
        }
        let (x0, y0) = (x.max(0) as usize, y.max(0) as usize);
        let x1 = ((x + rw).max(0) as usize).min(self.w);
        let y1 = ((y + rh).max(0) as usize).min(self.h);
        if x0 >= x1 {
            return;
        }
        for yy in y0..y1 {
            let row = &mut self.px[(yy * self.w + x0) * 4..(yy * self.w + x1) * 4];
            // Every byte times `keep` over 256 in 16-bit lanes, then alpha
            // put back through a mask: four pixels at a time.
            debug_assert!(keep <= 256);
            let k = keep as u16;
            // (Opaque to the optimiser: folded in, it makes the loop a
            // byte at a time again.)
            let alpha: [u8; 16] =
                std::hint::black_box(std::array::from_fn(|i| if i % 4 == 3 { 255 } else { 0 }));
            let dark = |q: &mut [u8]| {
                for (v, a) in q.iter_mut().zip(alpha) {
                    let d = ((*v as u16 * k) >> 8) as u8;
                    *v = (d & !a) | (*v & a);
                }
            };
            let mut quads = row.chunks_exact_mut(16);
            for q in &mut quads {
                dark(q);
            }
            dark(quads.into_remainder());
        }
    }

    fn invert(&mut self, x: i64, y: i64, rw: i64, rh: i64) {
        if self.mode == Mode::Mask {
            return;
        }
        let (x0, y0) = (x.max(0) as usize, y.max(0) as usize);
        let x1 = ((x + rw).max(0) as usize).min(self.w);
        let y1 = ((y + rh).max(0) as usize).min(self.h);
        for yy in y0..y1 {
            for xx in x0..x1 {
                let i = (yy * self.w + xx) * 4;
                for k in 0..3 {
                    self.px[i + k] = 255 - self.px[i + k];
                }
            }
        }
    }

    fn number(&mut self, mut n: u32, right: i64, bottom: i64, s: i64) {
        let mut x = right;
        loop {
            let dgt = (n % 10) as usize;
            x -= 4 * s;
            for (row, bits) in DIGITS[dgt].iter().enumerate() {
                for col in 0..3 {
                    if bits & (4 >> col) != 0 {
                        let (px, py) = (x + col * s, bottom - (5 - row as i64) * s);
                        self.rect(px + s / 2, py + s / 2, s, s, [40, 40, 40]);
                        self.rect(px, py, s, s, [255, 255, 255]);
                    }
                }
            }
            n /= 10;
            if n == 0 {
                break;
            }
        }
    }

    /// Item `item`'s icon with its top left corner at (`x`, `y`), each
    /// icon pixel `s` × `s` screen pixels; see-through pixels leave what is
    /// under them.
    fn icon(&mut self, item: ItemId, x: i64, y: i64, s: i64) {
        let ic = icon(item);
        for iy in 0..ICON {
            // One rectangle per run of equal opaque pixels along the row.
            let mut ix = 0;
            while ix < ICON {
                let p = ic[iy * ICON + ix];
                let mut end = ix + 1;
                while end < ICON && ic[iy * ICON + end] == p {
                    end += 1;
                }
                if p[3] != 0 {
                    self.rect(
                        x + ix as i64 * s,
                        y + iy as i64 * s,
                        (end - ix) as i64 * s,
                        s,
                        [p[0], p[1], p[2]],
                    );
                }
                ix = end;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn slot(&mut self, world: &World, i: usize, x: i64, y: i64, size: i64, s: i64, selected: bool) {
        let border = if selected {
            [255, 255, 255]
        } else {
            [60, 60, 60]
        };
        self.rect(x, y, size, size, border);
        let bw = if selected { 2 * s } else { s };
        self.rect(
            x + bw,
            y + bw,
            size - 2 * bw,
            size - 2 * bw,
            [139, 139, 139],
        );
        if let Some(st) = world.player.inventory.slots[i] {
            // The 16×16 icon at one screen pixel per `s`, centred.
            let m = (size - ICON as i64 * s) / 2;
            self.icon(st.item, x + m, y + m, s);
            let m = m.max(s);
            if st.count > 1 {
                self.number(st.count as u32, x + size - s, y + size - s, s.max(1));
            }
            if let Some(t) = crate::data::data().item_def(st.item).tool
                && st.wear > 0
            {
                let frac = 1.0 - st.wear as f64 / t.uses as f64;
                let len = ((size - 2 * m) as f64 * frac) as i64;
                self.rect(x + m, y + size - m, size - 2 * m, s, [30, 30, 30]);
                self.rect(x + m, y + size - m, len, s, [60, 220, 60]);
            }
        }
    }
}

/// Draw the HUD over the RGBA view `px` (`w*h*4` bytes).
pub fn draw(world: &World, w: usize, h: usize, px: &mut [u8]) {
    paint(
        world,
        &mut Canvas {
            w,
            h,
            px,
            mode: Mode::Draw,
        },
    );
}

/// Per pixel (row-major), 1 where [`draw`] paints the pixel opaquely, so
/// its final colour does not depend on the view under it (the renderer
/// does not trace those rays), else 0.
pub fn coverage(world: &World, w: usize, h: usize) -> Vec<u8> {
    let mut m = vec![0u8; w * h];
    paint(
        world,
        &mut Canvas {
            w,
            h,
            px: &mut m,
            mode: Mode::Mask,
        },
    );
    m
}

/// What the HUD's opaque pixels depend on: the frame size and the player's
/// HUD state, health and food as the HUD shows them.
#[derive(Clone, PartialEq)]
struct Key {
    w: usize,
    h: usize,
    hurt: bool,
    open: bool,
    selected: usize,
    health: u32,
    food: u32,
    slots: [Option<Stack>; SLOTS],
}

impl Key {
    fn of(world: &World, w: usize, h: usize) -> Key {
        let pl = &world.player;
        // The full HUD shows health and food in half icons: icon i is full
        // from 2i + 2 points on and half from 2i + 1 (`paint`). The compact
        // one draws bars of the exact value.
        let compact = w < COMPACT_BELOW || h < COMPACT_BELOW;
        let level = |v: f32| {
            if compact {
                v.to_bits()
            } else {
                (1..=20).filter(|&k| v >= k as f32).count() as u32
            }
        };
        Key {
            w,
            h,
            hurt: pl.hurt_ticks > 0,
            open: pl.inventory_open,
            selected: pl.selected,
            health: level(pl.health),
            food: level(pl.food),
            slots: pl.inventory.slots,
        }
    }
}

/// The HUD's opaque pixels for one [`Key`]: where they are and their final
/// colours.
pub struct Layer {
    key: Key,
    /// Per pixel (row-major), 1 where the HUD paints opaquely, as
    /// [`coverage`] gives it.
    pub mask: Vec<u8>,
    /// Per pixel row, whether it holds a covered pixel.
    pub rows: Vec<bool>,
    /// Runs of covered pixels along rows: first pixel index and length.
    runs: Vec<(usize, usize)>,
    /// The runs' RGBA pixels, one after another: taken from the first
    /// frame drawn whole with this layer ([`draw_over`]).
    rgba: RefCell<Option<Vec<u8>>>,
}

impl Layer {
    fn new(world: &World, key: Key) -> Layer {
        let (w, h) = (key.w, key.h);
        let mask = coverage(world, w, h);
        let (mut runs, mut rows) = (Vec::new(), Vec::with_capacity(h));
        for (y, row) in mask.chunks_exact(w.max(1)).enumerate() {
            let mut x = skip(row, 0, 0);
            rows.push(x < w);
            while x < w {
                let end = skip(row, x, 1);
                runs.push((y * w + x, end - x));
                x = skip(row, end, 0);
            }
        }
        Layer {
            key,
            mask,
            rows,
            runs,
            rgba: RefCell::new(None),
        }
    }
}

/// The first index from `x` on where `row` is not `v` (`row.len()` if
/// none), eight bytes at a time where it can.
fn skip(row: &[u8], mut x: usize, v: u8) -> usize {
    let word = u64::from_ne_bytes([v; 8]);
    while x + 8 <= row.len()
        && u64::from_ne_bytes(row[x..x + 8].try_into().expect("8 bytes")) == word
    {
        x += 8;
    }
    while x < row.len() && row[x] == v {
        x += 1;
    }
    x
}

/// How many [`Layer`]s a thread keeps: a player switching between hotbar
/// slots, or health going up and down, comes back to a HUD it has shown
/// (a run renders at one size; tests and pick buffers use a few).
const LAYERS_KEPT: usize = 16;

thread_local! {
    /// The [`Layer`]s last used on this thread, most recently used last.
    static LAYERS: RefCell<Vec<Rc<Layer>>> = const { RefCell::new(Vec::new()) };
}

/// The HUD's opaque pixels for `world` at `w` × `h`: a layer this thread
/// kept for the same size and HUD state, else a new one.
pub fn layer(world: &World, w: usize, h: usize) -> Rc<Layer> {
    let key = Key::of(world, w, h);
    LAYERS.with(|cell| {
        let mut kept = cell.borrow_mut();
        if let Some(i) = kept.iter().position(|l| l.key == key) {
            let l = kept.remove(i);
            kept.push(l.clone());
            return l;
        }
        if kept.len() >= LAYERS_KEPT {
            kept.remove(0);
        }
        let l = Rc::new(Layer::new(world, key));
        kept.push(l.clone());
        l
    })
}

/// [`draw`] over a view of alpha 255 (the renderer's), with the opaque
/// pixels copied from `layer` (which must be [`layer`]'s for this world and
/// size) once it holds them: the same pixels. The first frame drawn with a
/// layer is drawn whole, and the layer keeps its opaque pixels.
pub fn draw_over(world: &World, layer: &Layer, px: &mut [u8]) {
    let (w, h) = (layer.key.w, layer.key.h);
    assert_eq!(px.len(), w * h * 4, "buffer is w*h*4 bytes");
    let mut kept = layer.rgba.borrow_mut();
    let Some(rgba) = kept.as_ref() else {
        draw(world, w, h, px);
        let mut rgba = Vec::with_capacity(layer.runs.iter().map(|r| r.1 * 4).sum());
        for &(i, n) in &layer.runs {
            rgba.extend_from_slice(&px[i * 4..(i + n) * 4]);
        }
        *kept = Some(rgba);
        return;
    };
    paint(
        world,
        &mut Canvas {
            w,
            h,
            px,
            mode: Mode::View,
        },
    );
    let mut at = 0;
    for &(i, n) in &layer.runs {
        px[i * 4..(i + n) * 4].copy_from_slice(&rgba[at..at + n * 4]);
        at += n * 4;
    }
}

/// Frames smaller than this (either side, pixels) get the compact HUD: the
/// full one is laid out for 180 rows and 180 columns at least, and on a
/// 64×64 frame it would cover the lower half of the view.
pub const COMPACT_BELOW: usize = 180;

fn paint(world: &World, c: &mut Canvas) {
    let (w, h) = (c.w, c.h);
    if w < COMPACT_BELOW || h < COMPACT_BELOW {
        return paint_compact(world, c);
    }
    let s = (h as i64 / 180).max(1);
    let (cx, cy) = (w as i64 / 2, h as i64 / 2);
    let pl = &world.player;
    if pl.hurt_ticks > 0 {
        c.shade(0, 0, w as i64, h as i64, 200);
    }

    // Held item: its icon's shape, large, in the lower right, like a hand
    // holding it.
    if let Some(st) = pl.inventory.slots[pl.selected] {
        let px = (h as i64 / 64).max(1);
        let size = ICON as i64 * px;
        let (x, y) = (w as i64 - size - size / 2, h as i64 - size - size / 6);
        c.icon(st.item, x, y, px);
    } else {
        let size = (h as i64 / 6).max(3);
        c.rect(
            w as i64 - size * 2,
            h as i64 - size,
            size,
            size,
            [200, 150, 120],
        );
    }

    // Crosshair.
    let arm = 5 * s;
    c.invert(cx - arm, cy - s / 2, 2 * arm + 1, s.max(1));
    c.invert(cx - s / 2, cy - arm, s.max(1), arm);
    c.invert(cx - s / 2, cy + s.max(1), s.max(1), arm - s.max(1) + 1);

    // Hotbar.
    let size = 20 * s;
    let x0 = cx - size * 9 / 2;
    let y0 = h as i64 - size - s;
    for i in 0..HOTBAR {
        c.slot(
            world,
            i,
            x0 + i as i64 * size,
            y0,
            size,
            s,
            i == pl.selected,
        );
    }
    // Health (left) and hunger (right) above the hotbar: 10 icons each.
    let icon = 8 * s;
    let by = y0 - icon - s;
    for i in 0..10 {
        let hp = pl.health - (i * 2) as f32;
        let x = x0 + i as i64 * (icon + s / 2);
        c.rect(x, by, icon - s, icon - s, [40, 10, 10]);
        if hp >= 2.0 {
            c.rect(x + s, by + s, icon - 3 * s, icon - 3 * s, [220, 30, 30]);
        } else if hp >= 1.0 {
            c.rect(
                x + s,
                by + s,
                (icon - 3 * s) / 2,
                icon - 3 * s,
                [220, 30, 30],
            );
        }
        let f = pl.food - (i * 2) as f32;
        let fx = x0 + 9 * size - (i as i64 + 1) * (icon + s / 2);
        c.rect(fx, by, icon - s, icon - s, [40, 25, 10]);
        if f >= 2.0 {
            c.rect(fx + s, by + s, icon - 3 * s, icon - 3 * s, [190, 120, 50]);
        } else if f >= 1.0 {
            c.rect(
                fx + s,
                by + s,
                (icon - 3 * s) / 2,
                icon - 3 * s,
                [190, 120, 50],
            );
        }
    }

    // Inventory screen: 3 rows of storage and the hotbar, plus a 2×2 grid.
    if pl.inventory_open {
        c.shade(0, 0, w as i64, h as i64, 110);
        let pw = size * 9 + 8 * s;
        let ph = size * 7 + 12 * s;
        let (px0, py0) = (cx - pw / 2, cy - ph / 2);
        c.rect(px0, py0, pw, ph, [198, 198, 198]);
        for gy in 0..2 {
            for gx in 0..2 {
                c.rect(
                    px0 + pw - 4 * s - (3 - gx) * size,
                    py0 + 4 * s + gy * size,
                    size - s,
                    size - s,
                    [139, 139, 139],
                );
            }
        }
        // Player silhouette.
        c.rect(
            px0 + 4 * s + size / 2,
            py0 + 4 * s,
            size,
            2 * size,
            [60, 60, 90],
        );
        for i in HOTBAR..SLOTS {
            let k = (i - HOTBAR) as i64;
            let (x, y) = (
                px0 + 4 * s + (k % 9) * size,
                py0 + 3 * size + (k / 9) * size,
            );
            c.slot(world, i, x, y, size, s, false);
        }
        for i in 0..HOTBAR {
            let (x, y) = (px0 + 4 * s + i as i64 * size, py0 + 6 * size + 4 * s);
            c.slot(world, i, x, y, size, s, i == pl.selected);
        }
    }
}

/// The HUD for small frames (learning agents' 64×64 views), a few pixel
/// rows at the bottom so the view stays visible: a hotbar strip of nine
/// slots in their item colours (a white top edge on the selected one, dark
/// grey where empty), above it a one-pixel status row with health growing
/// from the left and food from the right, and a small inverted crosshair.
/// The inventory screen is a 9×4 grid of slot colours over the darkened
/// view (hotbar the bottom row). Counts and wear are not drawn at this size
/// (the privileged state has them).
fn paint_compact(world: &World, c: &mut Canvas) {
    let (w, h) = (c.w as i64, c.h as i64);
    let pl = &world.player;
    if pl.hurt_ticks > 0 {
        c.shade(0, 0, w, h, 200);
    }
    let colour = |i: usize| pl.inventory.slots[i].map_or([60, 60, 60], |st| item_color(st.item));
    // Crosshair: a plus of arm `arm` around the centre.
    let arm = (h.min(w) / 32).max(1);
    let (cx, cy) = (w / 2, h / 2);
    c.invert(cx - arm, cy, 2 * arm + 1, 1);
    c.invert(cx, cy - arm, 1, arm);
    c.invert(cx, cy + 1, 1, arm);
    // Hotbar strip: `rows` tall, slot i spans [i*w/9, (i+1)*w/9).
    let rows = (h / 20).max(3);
    let y0 = h - rows;
    for i in 0..HOTBAR {
        let (x0, x1) = (i as i64 * w / 9, (i as i64 + 1) * w / 9);
        let edge = if i == pl.selected {
            [255, 255, 255]
        } else {
            [30, 30, 30]
        };
        c.rect(x0, y0, x1 - x0, 1, edge);
        c.rect(x0, y0 + 1, 1, rows - 1, [30, 30, 30]);
        c.rect(x0 + 1, y0 + 1, x1 - x0 - 1, rows - 1, colour(i));
    }
    // Status row: health from the left half, food from the right half.
    let by = y0 - 1;
    let half = w / 2;
    let hp = ((pl.health.clamp(0.0, 20.0) / 20.0) * half as f32).round() as i64;
    c.rect(0, by, half, 1, [40, 10, 10]);
    c.rect(0, by, hp, 1, [220, 30, 30]);
    let food = ((pl.food.clamp(0.0, 20.0) / 20.0) * (w - half) as f32).round() as i64;
    c.rect(half, by, w - half, 1, [40, 25, 10]);
    c.rect(w - food, by, food, 1, [190, 120, 50]);
    if pl.inventory_open {
        c.shade(0, 0, w, h, 110);
        let cell = (w / 9).min((by - 1) / 4).max(2);
        let (gx, gy) = ((w - 9 * cell) / 2, (by - 4 * cell) / 2);
        for i in 0..SLOTS {
            // Storage rows on top, the hotbar as the bottom row.
            let (col, row) = if i < HOTBAR {
                (i as i64, 3)
            } else {
                (((i - HOTBAR) % 9) as i64, ((i - HOTBAR) / 9) as i64)
            };
            let (x, y) = (gx + col * cell, gy + row * cell);
            let frame = if i == pl.selected {
                [255, 255, 255]
            } else {
                [198, 198, 198]
            };
            c.rect(x, y, cell, cell, frame);
            c.rect(x + 1, y + 1, cell - 2, cell - 2, colour(i));
        }
    }
}
