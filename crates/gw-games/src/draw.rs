//! Small drawing kit over tiny-skia: filled shapes, lines and text in the
//! bundled DejaVu Sans Bold font. Every game renders with these so frames look
//! consistent and stay deterministic (no system fonts, no GPU).

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

static FONT_BYTES: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf");

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("bundled font parses"))
}

/// An opaque colour from 8-bit channels.
pub const fn rgb(r: u8, g: u8, b: u8) -> Rgb {
    Rgb(r, g, b, 255)
}

/// A colour with alpha.
pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Rgb {
    Rgb(r, g, b, a)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8, pub u8);

impl Rgb {
    fn color(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, self.3)
    }
    fn paint(self) -> Paint<'static> {
        let mut p = Paint::default();
        p.set_color(self.color());
        p.anti_alias = true;
        p
    }
}

/// Horizontal text alignment relative to the anchor x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

thread_local! {
    /// The frame [`render_scaled`] is drawing on this thread (its pixel
    /// buffer's address) and the scale from the game's viewport coordinates
    /// to it; `None` otherwise. Only that frame is drawn scaled: layers a
    /// game paints into pixmaps of its own keep their own coordinates.
    static SCALE: std::cell::Cell<Option<(usize, f32, f32)>> = const { std::cell::Cell::new(None) };
}

/// The drawing scale (x, y) for `pm`: viewport coordinates → pixels; (1, 1)
/// unless `pm` is the frame [`render_scaled`] is drawing.
pub fn scale(pm: &Pixmap) -> (f32, f32) {
    match SCALE.with(|s| s.get()) {
        Some((at, sx, sy)) if at == pm.data().as_ptr() as usize => (sx, sy),
        _ => (1.0, 1.0),
    }
}

/// Whether `pm` is being drawn at another size than the viewport.
pub fn scaled(pm: &Pixmap) -> bool {
    scale(pm) != (1.0, 1.0)
}

fn xf(pm: &Pixmap) -> Transform {
    let (sx, sy) = scale(pm);
    Transform::from_scale(sx, sy)
}

/// The frame's width and height in the game's own (viewport) coordinates:
/// the pixmap's size, or the viewport's while [`render_scaled`] draws it.
pub fn logical_size(pm: &Pixmap) -> (f32, f32) {
    let (sx, sy) = scale(pm);
    (pm.width() as f32 / sx, pm.height() as f32 / sy)
}

/// Draw a frame laid out for `viewport` into `pm` of any size: every shape
/// and text of this kit is scaled by `pm`'s size over the viewport's
/// (cached layers and stamps are painted afresh at that size), so a small
/// observation costs its own pixels, not the viewport's. `draw` is the
/// game's own `render`; it must draw through this kit only (the games
/// [`crate::draws_scaled`] names do; the others are drawn at the
/// viewport and shrunk).
pub fn render_scaled(pm: &mut Pixmap, viewport: (u32, u32), draw: impl FnOnce(&mut Pixmap)) {
    let s = (
        pm.width() as f32 / viewport.0.max(1) as f32,
        pm.height() as f32 / viewport.1.max(1) as f32,
    );
    struct Restore(Option<(usize, f32, f32)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCALE.with(|c| c.set(self.0));
        }
    }
    // Start from a cleared frame, as a fresh pixmap does: shapes drawn small
    // cover edge pixels only in part, and what they leave must not be the
    // last frame's pixels (a caller may reuse its buffer).
    pm.fill(tiny_skia::Color::TRANSPARENT);
    let at = pm.data().as_ptr() as usize;
    let _restore = Restore(SCALE.with(|c| c.replace(Some((at, s.0, s.1)))));
    draw(pm);
}

/// The scale when `pm` is a frame [`render_scaled`] draws at another size
/// than the viewport. Such frames (a learner's small observation) fill
/// rectangles, rounded rectangles and small circles here, straight into the
/// pixels, instead of through tiny-skia: at 64×64 a shape covers a handful
/// of pixels and tiny-skia's per-shape set-up (a pipeline compiled, a
/// blitter built) cost several times the filling. Viewport frames, and so
/// every golden, never take these paths.
fn small(pm: &Pixmap) -> Option<(f32, f32)> {
    let s = scale(pm);
    (s != (1.0, 1.0)).then_some(s)
}

/// Blend the opaque colour `c` at effective alpha `a` (0..=255, the colour's
/// alpha times the covered share of the pixel) over the premultiplied pixel
/// `d`: source-over, rounded.
#[inline]
fn blend(d: &mut [u8], c: Rgb, a: u32) {
    if a >= 255 {
        d.copy_from_slice(&[c.0, c.1, c.2, 255]);
        return;
    }
    let inv = 255 - a;
    d[0] = ((c.0 as u32 * a + d[0] as u32 * inv + 127) / 255) as u8;
    d[1] = ((c.1 as u32 * a + d[1] as u32 * inv + 127) / 255) as u8;
    d[2] = ((c.2 as u32 * a + d[2] as u32 * inv + 127) / 255) as u8;
    d[3] = ((255 * a + d[3] as u32 * inv + 127) / 255) as u8;
}

/// The pixel span `[lo, hi)` of the device interval `a..b` clipped to
/// `0..n`, or `None` when nothing of it is inside (NaN included).
fn span(a: f32, b: f32, n: u32) -> Option<(usize, usize)> {
    let (a, b) = (a.max(0.0), b.min(n as f32));
    (b > a).then(|| (a.floor() as usize, (b.ceil() as usize).min(n as usize)))
}

/// Fill the device rectangle `(x0, y0, x1, y1)` with `c`, each pixel
/// covered by the share of its area inside the rectangle (exact box
/// coverage, what shrinking the viewport frame by averaging gives).
fn fill_area(pm: &mut Pixmap, (x0, y0, x1, y1): (f32, f32, f32, f32), c: Rgb) {
    let (pw, ph) = (pm.width(), pm.height());
    let (Some((cx0, cx1)), Some((cy0, cy1))) = (span(x0, x1, pw), span(y0, y1, ph)) else {
        return;
    };
    let alpha = c.3 as f32;
    let cover =
        |p: usize, a: f32, b: f32| (b.min(p as f32 + 1.0) - a.max(p as f32)).clamp(0.0, 1.0);
    // Columns wholly inside: the same coverage as their row.
    let (in0, in1) = (
        (x0.ceil() as usize).max(cx0),
        (x1.floor() as usize).min(cx1),
    );
    let stride = pw as usize * 4;
    let data = pm.data_mut();
    let solid = [c.0, c.1, c.2, 255];
    for py in cy0..cy1 {
        let ky = cover(py, y0, y1) * alpha;
        let row = &mut data[py * stride..(py + 1) * stride];
        let mut edge = |px: usize| {
            let a = (cover(px, x0, x1) * ky + 0.5) as u32;
            if a > 0 {
                blend(&mut row[px * 4..px * 4 + 4], c, a);
            }
        };
        if in0 >= in1 {
            (cx0..cx1).for_each(&mut edge);
            continue;
        }
        (cx0..in0).chain(in1..cx1).for_each(&mut edge);
        let a = (ky + 0.5) as u32;
        let inner = &mut row[in0 * 4..in1 * 4];
        if a >= 255 {
            for d in inner.chunks_exact_mut(4) {
                d.copy_from_slice(&solid);
            }
        } else if a > 0 {
            for d in inner.chunks_exact_mut(4) {
                blend(d, c, a);
            }
        }
    }
}

/// Largest device radius [`circle`] fills by sampling on a small frame;
/// larger ones go through tiny-skia.
const SAMPLED_MAX: f32 = 24.0;

/// Sub-pixel samples per axis of [`fill_sampled`] (16 per pixel).
const SAMPLES: usize = 4;

/// Fill the device pixels `xs` × `ys` with `c`, each covered by the share
/// of its 4×4 sample points for which `inside` holds.
fn fill_sampled(
    pm: &mut Pixmap,
    (xs, ys): ((usize, usize), (usize, usize)),
    c: Rgb,
    inside: impl Fn(f32, f32) -> bool,
) {
    let stride = pm.width() as usize * 4;
    let data = pm.data_mut();
    let step = 1.0 / SAMPLES as f32;
    let full = (SAMPLES * SAMPLES) as u32;
    for py in ys.0..ys.1 {
        for px in xs.0..xs.1 {
            let mut n = 0u32;
            for j in 0..SAMPLES {
                let y = py as f32 + (j as f32 + 0.5) * step;
                for i in 0..SAMPLES {
                    n += inside(px as f32 + (i as f32 + 0.5) * step, y) as u32;
                }
            }
            if n > 0 {
                let a = (n * c.3 as u32 + full / 2) / full;
                let i = py * stride + px * 4;
                blend(&mut data[i..i + 4], c, a);
            }
        }
    }
}

/// Fill the device polygon `pts` (non-zero winding, as tiny-skia fills
/// it) by sampling; false, drawing nothing, when it spans more than
/// [`SAMPLED_MAX`] × 2 pixels (tiny-skia is then the cheaper).
fn fill_polygon_sampled(pm: &mut Pixmap, pts: &[(f32, f32)], c: Rgb) -> bool {
    let (mut lx, mut ly, mut hx, mut hy) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in pts {
        (lx, ly, hx, hy) = (lx.min(x), ly.min(y), hx.max(x), hy.max(y));
    }
    if !(hx - lx <= 2.0 * SAMPLED_MAX && hy - ly <= 2.0 * SAMPLED_MAX) {
        return false;
    }
    let (pw, ph) = (pm.width(), pm.height());
    let (Some(xs), Some(ys)) = (span(lx, hx, pw), span(ly, hy, ph)) else {
        return true;
    };
    fill_sampled(pm, (xs, ys), c, |x, y| {
        let mut winding = 0i32;
        let mut a = pts[pts.len() - 1];
        for &b in pts {
            // Edges crossing the sample's row, upward or downward.
            if (a.1 <= y) != (b.1 <= y) {
                let cross = (b.0 - a.0) * (y - a.1) - (x - a.0) * (b.1 - a.1);
                if b.1 > a.1 {
                    winding += (cross > 0.0) as i32;
                } else {
                    winding -= (cross < 0.0) as i32;
                }
            }
            a = b;
        }
        winding != 0
    });
    true
}

/// Fill the device ellipse at `(cx, cy)` with radii `(rx, ry)`.
fn fill_ellipse(pm: &mut Pixmap, (cx, cy): (f32, f32), (rx, ry): (f32, f32), c: Rgb) {
    let (pw, ph) = (pm.width(), pm.height());
    let (Some(xs), Some(ys)) = (span(cx - rx, cx + rx, pw), span(cy - ry, cy + ry, ph)) else {
        return;
    };
    let (kx, ky) = (1.0 / rx.max(1e-6), 1.0 / ry.max(1e-6));
    fill_sampled(pm, (xs, ys), c, |x, y| {
        let (u, v) = ((x - cx) * kx, (y - cy) * ky);
        u * u + v * v <= 1.0
    });
}

/// Fill the device rectangle `area` with corners rounded by the radii
/// `(rx, ry)`: pixels clear of the corners by box coverage, the corners'
/// pixels by sampling.
fn fill_rounded_area(pm: &mut Pixmap, area: (f32, f32, f32, f32), (rx, ry): (f32, f32), c: Rgb) {
    let (x0, y0, x1, y1) = area;
    if rx < 0.25 || ry < 0.25 {
        fill_area(pm, area, c);
        return;
    }
    // The middle band, full height, then the left and right bands less
    // their corners, then the four corners sampled.
    fill_area(pm, (x0 + rx, y0, x1 - rx, y1), c);
    fill_area(pm, (x0, y0 + ry, x0 + rx, y1 - ry), c);
    fill_area(pm, (x1 - rx, y0 + ry, x1, y1 - ry), c);
    let (pw, ph) = (pm.width(), pm.height());
    let (kx, ky) = (1.0 / rx, 1.0 / ry);
    for (ex, ey, lx, hx, ly, hy) in [
        (x0 + rx, y0 + ry, x0, x0 + rx, y0, y0 + ry),
        (x1 - rx, y0 + ry, x1 - rx, x1, y0, y0 + ry),
        (x0 + rx, y1 - ry, x0, x0 + rx, y1 - ry, y1),
        (x1 - rx, y1 - ry, x1 - rx, x1, y1 - ry, y1),
    ] {
        let (Some(xs), Some(ys)) = (span(lx, hx, pw), span(ly, hy, ph)) else {
            continue;
        };
        fill_sampled(pm, (xs, ys), c, |x, y| {
            let (u, v) = ((x - ex) * kx, (y - ey) * ky);
            x >= lx && x < hx && y >= ly && y < hy && u * u + v * v <= 1.0
        });
    }
}

pub fn clear(pm: &mut Pixmap, c: Rgb) {
    pm.fill(c.color());
}

pub fn rect(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, c: Rgb) {
    if let Some((sx, sy)) = small(pm) {
        let (w, h) = (w.max(0.0), h.max(0.0));
        fill_area(pm, (x * sx, y * sy, (x + w) * sx, (y + h) * sy), c);
        return;
    }
    if let Some(r) = Rect::from_xywh(x, y, w.max(0.0), h.max(0.0)) {
        // At the viewport rectangles keep hard edges (the goldens').
        let mut p = c.paint();
        p.anti_alias = false;
        pm.fill_rect(r, &p, Transform::identity(), None);
    }
}

pub fn rounded_rect(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, radius: f32, c: Rgb) {
    let r = radius.min(w / 2.0).min(h / 2.0).max(0.0);
    if let Some((sx, sy)) = small(pm) {
        let (w, h) = (w.max(0.0), h.max(0.0));
        let area = (x * sx, y * sy, (x + w) * sx, (y + h) * sy);
        fill_rounded_area(pm, area, (r * sx, r * sy), c);
        return;
    }
    let k = 0.552_284_8 * r;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    if let Some(path) = pb.finish() {
        pm.fill_path(&path, &c.paint(), FillRule::Winding, xf(pm), None);
    }
}

pub fn circle(pm: &mut Pixmap, cx: f32, cy: f32, radius: f32, c: Rgb) {
    if let Some((sx, sy)) = small(pm) {
        let r = radius.max(0.1);
        let (rx, ry) = (r * sx, r * sy);
        if rx <= SAMPLED_MAX && ry <= SAMPLED_MAX {
            fill_ellipse(pm, (cx * sx, cy * sy), (rx, ry), c);
            return;
        }
    }
    if let Some(path) = PathBuilder::from_circle(cx, cy, radius.max(0.1)) {
        pm.fill_path(&path, &c.paint(), FillRule::Winding, xf(pm), None);
    }
}

pub fn ring(pm: &mut Pixmap, cx: f32, cy: f32, radius: f32, width: f32, c: Rgb) {
    if let Some(path) = PathBuilder::from_circle(cx, cy, radius.max(0.1)) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pm.stroke_path(&path, &c.paint(), &stroke, xf(pm), None);
    }
}

pub fn line(pm: &mut Pixmap, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, c: Rgb) {
    if let Some((sx, sy)) = small(pm) {
        // The round-capped stroke: points within half the width of the
        // segment, tested in viewport coordinates.
        let hw = width.max(0.0) / 2.0;
        let (lx, hx) = ((x0.min(x1) - hw) * sx, (x0.max(x1) + hw) * sx);
        let (ly, hy) = ((y0.min(y1) - hw) * sy, (y0.max(y1) + hw) * sy);
        if hx - lx <= 2.0 * SAMPLED_MAX && hy - ly <= 2.0 * SAMPLED_MAX {
            let (pw, ph) = (pm.width(), pm.height());
            let (Some(xs), Some(ys)) = (span(lx, hx, pw), span(ly, hy, ph)) else {
                return;
            };
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len2 = dx * dx + dy * dy;
            let (ix, iy) = (1.0 / sx, 1.0 / sy);
            fill_sampled(pm, (xs, ys), c, |x, y| {
                let (px, py) = (x * ix - x0, y * iy - y0);
                let t = if len2 > 0.0 {
                    ((px * dx + py * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (ex, ey) = (px - t * dx, py - t * dy);
                ex * ex + ey * ey <= hw * hw
            });
            return;
        }
    }
    let mut pb = PathBuilder::new();
    pb.move_to(x0, y0);
    pb.line_to(x1, y1);
    if let Some(path) = pb.finish() {
        let stroke = Stroke {
            width,
            line_cap: tiny_skia::LineCap::Round,
            ..Stroke::default()
        };
        pm.stroke_path(&path, &c.paint(), &stroke, xf(pm), None);
    }
}

fn polygon_path(points: &[(f32, f32)]) -> Option<tiny_skia::Path> {
    if points.len() < 3 {
        return None;
    }
    let mut pb = PathBuilder::new();
    pb.move_to(points[0].0, points[0].1);
    for &(x, y) in &points[1..] {
        pb.line_to(x, y);
    }
    pb.close();
    pb.finish()
}

fn fill_polygon(pm: &mut Pixmap, points: &[(f32, f32)], c: Rgb, anti_alias: bool) {
    if let Some((sx, sy)) = small(pm)
        && points.len() >= 3
        && points.len() <= 16
    {
        let mut dev = [(0.0f32, 0.0f32); 16];
        for (d, &(x, y)) in dev.iter_mut().zip(points) {
            *d = (x * sx, y * sy);
        }
        if fill_polygon_sampled(pm, &dev[..points.len()], c) {
            return;
        }
    }
    if let Some(path) = polygon_path(points) {
        let mut paint = c.paint();
        paint.anti_alias = anti_alias || scaled(pm);
        pm.fill_path(&path, &paint, FillRule::Winding, xf(pm), None);
    }
}

/// Filled polygon through `points`.
pub fn polygon(pm: &mut Pixmap, points: &[(f32, f32)], c: Rgb) {
    fill_polygon(pm, points, c, true);
}

/// Filled polygon without anti-aliasing: several times cheaper than
/// [`polygon`] for large or many shapes, with hard edges.
pub fn polygon_aliased(pm: &mut Pixmap, points: &[(f32, f32)], c: Rgb) {
    fill_polygon(pm, points, c, false);
}

/// A straight line drawn as a filled quad without anti-aliasing (much cheaper
/// than the stroked, round-capped [`line`]).
pub fn line_aliased(pm: &mut Pixmap, a: (f32, f32), b: (f32, f32), width: f32, c: Rgb) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    polygon_aliased(
        pm,
        &[
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ],
        c,
    );
}

/// Outline of a rectangle.
pub fn rect_outline(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, width: f32, c: Rgb) {
    if let Some((sx, sy)) = small(pm) {
        // The stroke's outer rectangle less its inner one, as four bands
        // (a square-joined stroke centred on the edges).
        let (hw, w, h) = (width.max(0.0) / 2.0, w.max(0.0), h.max(0.0));
        let (x0, y0, x1, y1) = (x - hw, y - hw, x + w + hw, y + h + hw);
        let (ix0, iy0, ix1, iy1) = (x + hw, y + hw, x + w - hw, y + h - hw);
        if ix1 <= ix0 || iy1 <= iy0 {
            fill_area(pm, (x0 * sx, y0 * sy, x1 * sx, y1 * sy), c);
            return;
        }
        for (a, b, e, f) in [
            (x0, y0, x1, iy0),
            (x0, iy1, x1, y1),
            (x0, iy0, ix0, iy1),
            (ix1, iy0, x1, iy1),
        ] {
            fill_area(pm, (a * sx, b * sy, e * sx, f * sy), c);
        }
        return;
    }
    if let Some(r) = Rect::from_xywh(x, y, w, h) {
        let path = PathBuilder::from_rect(r);
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pm.stroke_path(&path, &c.paint(), &stroke, xf(pm), None);
    }
}

struct Glyph {
    advance: f32,
    left: i32,
    top: i32,
    width: usize,
    height: usize,
    coverage: Vec<u8>,
}

type GlyphKey = (char, u32);

/// A hasher for the glyph caches' small integer keys (std's SipHash cost
/// more than the rest of a look-up).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type GlyphMap = HashMap<GlyphKey, &'static Glyph, std::hash::BuildHasherDefault<KeyHasher>>;

/// Every glyph rasterised so far, by character and pixel size. Glyphs are
/// kept for the life of the process (a game uses a few sizes of a few
/// dozen characters), so look-ups hand out plain references.
fn glyph_cache() -> &'static Mutex<GlyphMap> {
    static CACHE: OnceLock<Mutex<GlyphMap>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(GlyphMap::default()))
}

thread_local! {
    /// This thread's copy of the glyphs it used: no lock per character.
    static LOCAL_GLYPHS: std::cell::RefCell<GlyphMap> = std::cell::RefCell::new(GlyphMap::default());
}

fn glyph(ch: char, size: f32) -> &'static Glyph {
    let key = (ch, size.to_bits());
    if let Some(g) = LOCAL_GLYPHS.with(|m| m.borrow().get(&key).copied()) {
        return g;
    }
    let g = shared_glyph(key, ch, size);
    LOCAL_GLYPHS.with(|m| m.borrow_mut().insert(key, g));
    g
}

fn shared_glyph(key: GlyphKey, ch: char, size: f32) -> &'static Glyph {
    if let Some(g) = glyph_cache().lock().expect("glyph cache").get(&key) {
        return g;
    }
    let f = font();
    let scale = PxScale::from(size);
    let scaled = f.as_scaled(scale);
    let id = f.glyph_id(ch);
    let advance = scaled.h_advance(id);
    let g = id.with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
    let rendered = match f.outline_glyph(g) {
        Some(outline) => {
            let b = outline.px_bounds();
            let (w, h) = (b.width() as usize, b.height() as usize);
            let mut coverage = vec![0u8; w * h];
            outline.draw(|x, y, c| {
                let i = y as usize * w + x as usize;
                if i < coverage.len() {
                    coverage[i] = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                }
            });
            Glyph {
                advance,
                left: b.min.x as i32,
                top: b.min.y as i32,
                width: w,
                height: h,
                coverage,
            }
        }
        None => Glyph {
            advance,
            left: 0,
            top: 0,
            width: 0,
            height: 0,
            coverage: vec![],
        },
    };
    glyph_cache()
        .lock()
        .expect("glyph cache")
        .entry(key)
        .or_insert_with(|| Box::leak(Box::new(rendered)))
}

/// Width in pixels of `s` at `size` px.
pub fn text_width(s: &str, size: f32) -> f32 {
    s.chars().map(|c| glyph(c, size).advance).sum()
}

thread_local! {
    /// Texts drawn on this thread while [`record_texts`] runs.
    static TEXT_LOG: std::cell::RefCell<Option<Vec<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f` and return every string it drew with [`text`], in order: lets
/// tests audit what a frame says (e.g. that no HUD shows task progress).
pub fn record_texts(f: impl FnOnce()) -> Vec<String> {
    TEXT_LOG.with(|l| *l.borrow_mut() = Some(Vec::new()));
    f();
    TEXT_LOG.with(|l| l.borrow_mut().take().unwrap_or_default())
}

/// Draw `s` with its baseline-aligned box starting at `y` (top of the line)
/// and `x` interpreted by `align`. `size` is the pixel height of the font.
pub fn text(pm: &mut Pixmap, s: &str, x: f32, y: f32, size: f32, c: Rgb, align: Align) {
    TEXT_LOG.with(|l| {
        if let Some(log) = l.borrow_mut().as_mut() {
            log.push(s.to_string());
        }
    });
    let (sx, sy) = scale(pm);
    let (x, y, size) = (x * sx, y * sy, size * sy);
    // One cache look-up per character.
    let glyphs: Vec<_> = s.chars().map(|ch| glyph(ch, size)).collect();
    let w: f32 = glyphs.iter().map(|g| g.advance).sum();
    let mut pen = match align {
        Align::Left => x,
        Align::Center => x - w / 2.0,
        Align::Right => x - w,
    };
    let ascent = font().as_scaled(PxScale::from(size)).ascent();
    let baseline = y + ascent;
    let (pw, ph) = (pm.width() as i32, pm.height() as i32);
    let data = pm.data_mut();
    for g in glyphs {
        let ox = pen.round() as i32 + g.left;
        let oy = baseline.round() as i32 + g.top;
        for gy in 0..g.height {
            let py = oy + gy as i32;
            if py < 0 || py >= ph {
                continue;
            }
            for gx in 0..g.width {
                let px = ox + gx as i32;
                if px < 0 || px >= pw {
                    continue;
                }
                let cov = g.coverage[gy * g.width + gx] as u32 * c.3 as u32 / 255;
                if cov == 0 {
                    continue;
                }
                let i = ((py * pw + px) * 4) as usize;
                let inv = 255 - cov;
                data[i] = ((c.0 as u32 * cov + data[i] as u32 * inv) / 255) as u8;
                data[i + 1] = ((c.1 as u32 * cov + data[i + 1] as u32 * inv) / 255) as u8;
                data[i + 2] = ((c.2 as u32 * cov + data[i + 2] as u32 * inv) / 255) as u8;
                data[i + 3] = 255;
            }
        }
        pen += g.advance;
    }
}

/// A standard HUD bar across the top of the frame: title on the left and
/// `label: value` pairs on the right.
pub fn hud(pm: &mut Pixmap, title: &str, items: &[(&str, String)]) {
    hud_bar(pm, title);
    hud_items(pm, items);
}

/// The static half of [`hud`]: the bar and the title (for cached layers).
pub fn hud_bar(pm: &mut Pixmap, title: &str) {
    let w = logical_size(pm).0;
    rect(pm, 0.0, 0.0, w, HUD_BAR_H as f32, rgb(24, 26, 33));
    text(pm, title, 20.0, 12.0, 28.0, rgb(240, 240, 240), Align::Left);
}

/// [`hud`] with its static half drawn once: the bar and `title` go into
/// `cell` (a layer as wide as `pm` and as tall as the bar) on the first call
/// and are copied from there after that, the same pixels as [`hud_bar`]
/// since the bar is opaque. Each call site keeps its own `cell` (one title);
/// a frame of another width gets the bar drawn directly.
pub fn hud_cached(
    pm: &mut Pixmap,
    cell: &'static OnceLock<Pixmap>,
    title: &str,
    items: &[(&str, String)],
) {
    if scaled(pm) {
        hud_bar(pm, title);
        hud_items(pm, items);
        return;
    }
    let layer = cell.get_or_init(|| {
        let mut l = Pixmap::new(pm.width(), HUD_BAR_H).expect("bar-sized layer");
        hud_bar(&mut l, title);
        l
    });
    if layer.width() == pm.width() {
        copy_layer(pm, layer, 0, layer.width(), 0, 0);
    } else {
        hud_bar(pm, title);
    }
    hud_items(pm, items);
}

/// Height of the [`hud`] bar in pixels.
pub const HUD_BAR_H: u32 = 56;

/// The changing half of [`hud`]: the `label: value` pairs, right-aligned.
pub fn hud_items(pm: &mut Pixmap, items: &[(&str, String)]) {
    let w = logical_size(pm).0;
    let mut x = w - 20.0;
    for (label, value) in items.iter().rev() {
        let s = format!("{label}: {value}");
        text(pm, &s, x, 15.0, 24.0, rgb(250, 214, 90), Align::Right);
        x -= text_width(&s, 24.0) + 36.0;
    }
}

/// Copy columns `src_x..src_x + width` of every row of the pre-rendered
/// opaque `layer` into `pm` with their top-left corner at (`x`, `y`),
/// replacing what is there (no blending): one slice copy per row, so a static
/// background costs next to nothing per frame. Rows and columns that fall
/// outside `pm` are left out.
pub fn copy_layer(pm: &mut Pixmap, layer: &Pixmap, src_x: u32, width: u32, x: u32, y: u32) {
    if let Some(s) = small(pm) {
        // Drawn small: the layer's window, resampled through the scale.
        let width = width.min(layer.width().saturating_sub(src_x));
        copy_layer_resampled(pm, s, layer, src_x, width, (x, y));
        return;
    }
    let (pw, ph) = (pm.width(), pm.height());
    let width = width
        .min(layer.width().saturating_sub(src_x))
        .min(pw.saturating_sub(x)) as usize;
    let rows = layer.height().min(ph.saturating_sub(y)) as usize;
    let (fw, lw) = (pw as usize * 4, layer.width() as usize * 4);
    let src = layer.data();
    let dst = pm.data_mut();
    for row in 0..rows {
        let d = (y as usize + row) * fw + x as usize * 4;
        let s = row * lw + src_x as usize * 4;
        dst[d..d + width * 4].copy_from_slice(&src[s..s + width * 4]);
    }
}

/// [`copy_layer`] on a small frame: every pixel whose centre falls in the
/// window's scaled rectangle takes the layer's colour there, interpolated
/// bilinearly between the four nearest layer pixels (edges clamped; the
/// nearest alone when shrunk ten times or more) and blended source-over.
fn copy_layer_resampled(
    pm: &mut Pixmap,
    (sx, sy): (f32, f32),
    layer: &Pixmap,
    src_x: u32,
    width: u32,
    (x, y): (u32, u32),
) {
    let (lw, lh) = (layer.width() as usize, layer.height() as usize);
    if width == 0 || lh == 0 {
        return;
    }
    let (pw, ph) = (pm.width(), pm.height());
    // Pixel centres inside [a, b): pixels ceil(a - 0.5) .. ceil(b - 0.5).
    let centres = |a: f32, b: f32, n: u32| {
        let lo = (a - 0.5).ceil().max(0.0) as usize;
        let hi = ((b - 0.5).ceil().max(0.0) as usize).min(n as usize);
        (lo, hi)
    };
    let (x0, x1) = centres(x as f32 * sx, (x + width) as f32 * sx, pw);
    let (y0, y1) = centres(y as f32 * sy, (y as usize + lh) as f32 * sy, ph);
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    // Source position of a pixel centre and its two neighbours' weights
    // (8-bit fixed point), clamped to the layer (the pad spread).
    let taps = |p: usize, s: f32, off: f32, lo: usize, n: usize| {
        let u = ((p as f32 + 0.5) / s - off - 0.5).max(lo as f32);
        let i = (u as usize).min(lo + n - 1);
        let f = ((u - i as f32).clamp(0.0, 1.0) * 256.0) as u32;
        (i, (i + 1).min(lo + n - 1), f)
    };
    let cols: Vec<(usize, usize, u32)> = (x0..x1)
        .map(|px| {
            taps(
                px,
                sx,
                x as f32 - src_x as f32,
                src_x as usize,
                width as usize,
            )
        })
        .collect();
    // Shrunk ten times or more, the four taps of a pixel are 4 of the 100+
    // layer pixels it stands for: the nearest alone is as faithful (64×64
    // frames are as close to the averaged viewport frame either way) and a
    // third of the work. At 160×90 (eight times) the taps still smooth thin
    // lines: Pac-Man's walls are 4.0 from the averaged frame with them, 7.0
    // without.
    let point = sx <= 0.1 && sy <= 0.1;
    let (src, stride) = (layer.data(), lw * 4);
    let dstride = pw as usize * 4;
    let data = pm.data_mut();
    for py in y0..y1 {
        let (r0, r1, fy) = taps(py, sy, y as f32, 0, lh);
        let (a, b) = (
            &src[r0 * stride..(r0 + 1) * stride],
            &src[r1 * stride..(r1 + 1) * stride],
        );
        // The four channels side by side in 16-bit lanes of a u64: a
        // weight of at most 256 times a byte stays inside its lane.
        const LANES: u64 = 0x00ff_00ff_00ff_00ff;
        const HALF: u64 = 0x0080_0080_0080_0080;
        let wide = |row: &[u8], c: usize| {
            let p: [u8; 4] = row[c * 4..c * 4 + 4].try_into().expect("four bytes");
            let v = u32::from_le_bytes(p) as u64;
            (v & 0xff) | (v & 0xff00) << 8 | (v & 0xff_0000) << 16 | (v & 0xff00_0000) << 24
        };
        let lerp =
            |p: u64, q: u64, f: u32| ((p * (256 - f) as u64 + q * f as u64 + HALF) >> 8) & LANES;
        for (k, &(c0, c1, fx)) in cols.iter().enumerate() {
            let v = if point {
                wide(if fy < 128 { a } else { b }, if fx < 128 { c0 } else { c1 })
            } else {
                let top = lerp(wide(a, c0), wide(a, c1), fx);
                let bot = lerp(wide(b, c0), wide(b, c1), fx);
                lerp(top, bot, fy)
            };
            let px = [v as u8, (v >> 16) as u8, (v >> 32) as u8, (v >> 48) as u8];
            let i = py * dstride + (x0 + k) * 4;
            let d: &mut [u8; 4] = (&mut data[i..i + 4]).try_into().expect("four bytes");
            if px[3] == 255 {
                d.copy_from_slice(&px);
            } else {
                let inv = 255 - px[3] as u32;
                for ch in 0..4 {
                    d[ch] = (px[ch] as u32 + (d[ch] as u32 * inv + 127) / 255).min(255) as u8;
                }
            }
        }
    }
}

/// Copy a whole pre-rendered `layer` of the same size as `pm` over it;
/// returns false (and copies nothing) when the sizes differ.
pub fn copy_frame(pm: &mut Pixmap, layer: &Pixmap) -> bool {
    if (pm.width(), pm.height()) != (layer.width(), layer.height()) {
        return false;
    }
    pm.data_mut().copy_from_slice(layer.data());
    true
}

/// Start a frame from the static layer `paint` draws: drawn once into `cell`
/// (frame-sized) and copied after that; drawn directly, over a cleared
/// frame, when `pm` has another size or is drawn scaled.
pub fn static_layer(pm: &mut Pixmap, cell: &'static OnceLock<Pixmap>, paint: fn(&mut Pixmap)) {
    if scaled(pm) {
        // `render_scaled` cleared the frame.
        paint(pm);
        return;
    }
    let layer = cell.get_or_init(|| {
        let mut l = Pixmap::new(pm.width(), pm.height()).expect("frame-sized layer");
        paint(&mut l);
        l
    });
    if !copy_frame(pm, layer) {
        // As the cached layer does: start from a transparent frame, so that
        // what `paint` leaves uncovered does not keep the last frame's pixels.
        pm.fill(tiny_skia::Color::TRANSPARENT);
        paint(pm);
    }
}

/// A frame-sized layer kept by key (a background that changes rarely: a
/// maze, a level's tiles): painted afresh when the key or the frame size
/// changes, copied over the frame otherwise. The caller keys on everything
/// that decides the layer's pixels.
pub struct KeyedLayer<K> {
    kept: std::cell::RefCell<Option<(K, Pixmap)>>,
}

impl<K> Default for KeyedLayer<K> {
    fn default() -> Self {
        KeyedLayer {
            kept: std::cell::RefCell::new(None),
        }
    }
}

impl<K> Clone for KeyedLayer<K> {
    /// A clone starts empty (the layer is a cache).
    fn clone(&self) -> Self {
        KeyedLayer::default()
    }
}

impl<K> std::fmt::Debug for KeyedLayer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.kept.borrow().is_some();
        write!(f, "KeyedLayer({})", if kept { "kept" } else { "empty" })
    }
}

impl<K: PartialEq> KeyedLayer<K> {
    /// Start the frame `pm` from the layer for `key`, painting the layer
    /// with `paint` first when the kept one has another key or size; true
    /// when it was painted afresh.
    pub fn draw(&self, pm: &mut Pixmap, key: K, paint: impl FnOnce(&mut Pixmap)) -> bool {
        // A frame drawn scaled is painted directly (a layer of its own
        // would be drawn unscaled).
        if scaled(pm) {
            paint(pm);
            return true;
        }
        let mut kept = self.kept.borrow_mut();
        let size = (pm.width(), pm.height());
        let fresh = matches!(&*kept, Some((k, l)) if *k == key && (l.width(), l.height()) == size);
        if !fresh {
            let mut layer = Pixmap::new(size.0, size.1).expect("frame-sized layer");
            paint(&mut layer);
            *kept = Some((key, layer));
        }
        let (_, layer) = kept.as_ref().expect("kept above");
        copy_frame(pm, layer);
        !fresh
    }
}

/// The most regions a [`Stamps`] keeps; past it the store starts over (a
/// bound on memory for games with many keys, not reached in play).
const MAX_STAMPS: usize = 1024;

/// Small frame regions kept as drawn, by key: the first time a key is drawn
/// its painter draws into the frame and the region is copied out; after that
/// the region is copied back in instead of drawn again (a slice copy per row
/// instead of anti-aliased paths and glyphs). The pixels are the same as
/// drawing afresh when, for every key, the painter draws nothing outside the
/// region and the frame holds the same pixels there before each draw (e.g. a
/// cached static layer that nothing else drawn earlier overlaps): the caller
/// keys on everything that decides the region's pixels. Frames of another
/// size empty the store.
pub struct Stamps<K> {
    store: std::cell::RefCell<(u32, u32, HashMap<K, Pixmap>)>,
}

impl<K> Default for Stamps<K> {
    fn default() -> Self {
        Stamps {
            store: std::cell::RefCell::new((0, 0, HashMap::new())),
        }
    }
}

impl<K> Clone for Stamps<K> {
    /// A clone starts empty (the store is a cache).
    fn clone(&self) -> Self {
        Stamps::default()
    }
}

impl<K> std::fmt::Debug for Stamps<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stamps({} kept)", self.store.borrow().2.len())
    }
}

impl<K> Stamps<K> {
    /// Forget every kept region (what lies under them changed).
    pub fn clear(&self) {
        self.store.borrow_mut().2.clear();
    }
}

impl<K: std::hash::Hash + Eq> Stamps<K> {
    /// Draw the region `x, y, w, h` of `pm` for `key`: by `paint` the first
    /// time (then kept), by copying the kept pixels after that. A region
    /// not wholly inside `pm` is always painted.
    pub fn draw(
        &self,
        pm: &mut Pixmap,
        key: K,
        (x, y, w, h): (u32, u32, u32, u32),
        paint: impl FnOnce(&mut Pixmap),
    ) {
        // Regions are in viewport coordinates: a scaled frame paints them.
        if scaled(pm) {
            paint(pm);
            return;
        }
        let mut store = self.store.borrow_mut();
        let (sw, sh, map) = &mut *store;
        if (*sw, *sh) != (pm.width(), pm.height()) || map.len() >= MAX_STAMPS {
            (*sw, *sh) = (pm.width(), pm.height());
            map.clear();
        }
        if let Some(kept) = map.get(&key) {
            copy_layer(pm, kept, 0, w, x, y);
            return;
        }
        paint(pm);
        let kept = tiny_skia::IntRect::from_xywh(x as i32, y as i32, w, h)
            .and_then(|r| pm.clone_rect(r))
            .filter(|k| (k.width(), k.height()) == (w, h));
        if let Some(kept) = kept {
            map.insert(key, kept);
        }
    }
}

/// The end-of-game banner: `win` when the run ended in success, "GAME OVER"
/// otherwise, with `sub` under it; nothing while the game is running.
pub fn end_banner(pm: &mut Pixmap, terminal: &gw_core::Terminal, win: &str, sub: &str) {
    if terminal.is_terminal {
        let msg = if terminal.outcome == Some(gw_core::Outcome::Success) {
            win
        } else {
            "GAME OVER"
        };
        banner(pm, msg, sub);
    }
}

/// An end-of-episode banner (e.g. "GAME OVER"): one line in a dark strip
/// over the top bar of the frame, so the board, the pieces and the side text
/// that decided the outcome stay in view. The strip is opaque and covers the
/// whole bar, so no piece of the HUD under it shows through (a half-hidden
/// "oins: 0" reads as something else); say in `sub` what the HUD said.
pub fn banner(pm: &mut Pixmap, msg: &str, sub: &str) {
    let w = logical_size(pm).0;
    rect(pm, 0.0, 0.0, w, HUD_BAR_H as f32, rgb(12, 12, 16));
    rect(pm, 0.0, 53.0, w, 3.0, rgb(250, 214, 90));
    let line = if sub.is_empty() {
        msg.to_string()
    } else {
        format!("{msg}  -  {sub}")
    };
    let size = if text_width(&line, 30.0) > w - 40.0 {
        22.0
    } else {
        30.0
    };
    text(
        pm,
        &line,
        w / 2.0,
        10.0,
        size,
        rgb(255, 236, 140),
        Align::Center,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draw `f` into a `w` × `h` frame laid out for a viewport twice its
    /// size (every shape at half scale: the small-frame paths).
    fn drawn_small(w: u32, h: u32, f: impl FnOnce(&mut Pixmap)) -> Pixmap {
        let mut pm = Pixmap::new(w, h).unwrap();
        render_scaled(&mut pm, (w * 2, h * 2), f);
        pm
    }

    fn alphas(pm: &Pixmap) -> Vec<u8> {
        pm.data().chunks(4).map(|p| p[3]).collect()
    }

    /// A rectangle on a small frame covers each pixel by the share of its
    /// area inside, and blends over what is there.
    #[test]
    fn small_rectangles_cover_by_area() {
        // Viewport x 0.5..3.5 is device 0.25..1.75: three quarters of
        // pixels 0 and 1; rows 0..2 device 0..1.
        let pm = drawn_small(3, 2, |pm| rect(pm, 0.5, 0.0, 3.0, 2.0, rgb(200, 100, 0)));
        assert_eq!(alphas(&pm), [191, 191, 0, 0, 0, 0]);
        assert_eq!(&pm.data()[..4], &[150, 75, 0, 191]);
        // Wholly covered pixels take the colour; half a pixel over red is
        // half and half.
        let pm = drawn_small(2, 1, |pm| {
            rect(pm, 0.0, 0.0, 4.0, 2.0, rgb(255, 0, 0));
            rect(pm, 0.0, 0.0, 3.0, 2.0, rgb(0, 0, 255));
        });
        assert_eq!(pm.data(), &[0, 0, 255, 255, 127, 0, 128, 255]);
        // A rectangle's outline leaves its inside alone.
        let pm = drawn_small(8, 8, |pm| {
            rect_outline(pm, 2.0, 2.0, 12.0, 12.0, 4.0, rgb(9, 9, 9))
        });
        let a = alphas(&pm);
        assert_eq!(a[8 + 1], 255);
        assert_eq!(a[3 * 8 + 3], 0);
    }

    /// Sampled shapes: a small circle covers about its area, a polygon
    /// fills the same pixels whichever way round its points go, a line
    /// covers its length times its width.
    #[test]
    fn small_shapes_cover_their_area() {
        let covered = |pm: &Pixmap| alphas(pm).iter().map(|&a| a as f64 / 255.0).sum::<f64>();
        let pm = drawn_small(16, 16, |pm| circle(pm, 16.0, 16.0, 8.0, rgb(1, 2, 3)));
        let area = std::f64::consts::PI * 16.0;
        assert!(
            (covered(&pm) - area).abs() < 0.03 * area,
            "{}",
            covered(&pm)
        );
        let tri = [(2.0, 2.0), (26.0, 4.0), (8.0, 28.0)];
        let rev = [tri[2], tri[1], tri[0]];
        let a = drawn_small(16, 16, |pm| polygon(pm, &tri, rgb(5, 5, 5)));
        let b = drawn_small(16, 16, |pm| polygon(pm, &rev, rgb(5, 5, 5)));
        assert_eq!(a.data(), b.data());
        // Half of |(24, 2) x (6, 26)| / 2 in device pixels (a quarter).
        let area = (24.0 * 26.0 - 2.0 * 6.0) / 2.0 / 4.0;
        assert!((covered(&a) - area).abs() < 0.05 * area, "{}", covered(&a));
        let pm = drawn_small(16, 16, |pm| {
            line(pm, 4.0, 10.0, 24.0, 10.0, 4.0, rgb(7, 7, 7))
        });
        // 10 × 2 device pixels plus two round caps of radius 1.
        let area = 20.0 + std::f64::consts::PI;
        assert!(
            (covered(&pm) - area).abs() < 0.05 * area,
            "{}",
            covered(&pm)
        );
    }

    /// A layer copied onto a small frame lands where its scaled rectangle
    /// is, resampled, and nowhere else.
    #[test]
    fn small_layer_copies_land_scaled() {
        let mut layer = Pixmap::new(8, 4).unwrap();
        clear(&mut layer, rgb(10, 200, 30));
        let pm = drawn_small(8, 8, |pm| copy_layer(pm, &layer, 0, 8, 4, 4));
        // Viewport (4, 4)..(12, 8) is device (2, 2)..(6, 4).
        for y in 0..8 {
            for x in 0..8 {
                let inside = (2..6).contains(&x) && (2..4).contains(&y);
                let i = (y * 8 + x) * 4;
                let want: &[u8] = if inside {
                    &[10, 200, 30, 255]
                } else {
                    &[0, 0, 0, 0]
                };
                assert_eq!(&pm.data()[i..i + 4], want, "pixel ({x}, {y})");
            }
        }
    }

    /// Nothing of a HUD under a banner shows through: the strip looks the
    /// same over a busy HUD as over an empty frame.
    #[test]
    fn a_banner_hides_the_hud_under_it_completely() {
        let mut over_hud = Pixmap::new(1280, 720).unwrap();
        clear(&mut over_hud, rgb(90, 140, 220));
        hud(
            &mut over_hud,
            "Some Game - Level 3",
            &[("Coins", "0/12".into()), ("Lives", "3".into())],
        );
        let mut plain = Pixmap::new(1280, 720).unwrap();
        clear(&mut plain, rgb(90, 140, 220));
        for pm in [&mut over_hud, &mut plain] {
            banner(pm, "GAME OVER", "Score 0");
        }
        let row = 4 * 1280;
        let bar = HUD_BAR_H as usize * row;
        assert!(
            over_hud.data()[..bar] == plain.data()[..bar],
            "HUD shows through"
        );
    }

    #[test]
    fn end_banner_leaves_the_board_below_it_untouched() {
        let mut pm = Pixmap::new(1280, 720).unwrap();
        clear(&mut pm, rgb(10, 80, 30));
        rect(&mut pm, 300.0, 60.0, 600.0, 560.0, rgb(200, 40, 40));
        let before = pm.clone();
        end_banner(
            &mut pm,
            &gw_core::Terminal::ended(gw_core::Outcome::Success, "cleared"),
            "LEVEL COMPLETE",
            "a long line of text under the banner's headline",
        );
        let strip = 56 * pm.width() as usize * 4;
        assert_ne!(
            pm.data()[..strip],
            before.data()[..strip],
            "no banner drawn"
        );
        assert_eq!(
            pm.data()[strip..],
            before.data()[strip..],
            "the banner covers the board"
        );
    }

    #[test]
    fn text_draws_pixels_deterministically() {
        let mut a = Pixmap::new(200, 60).unwrap();
        clear(&mut a, rgb(0, 0, 0));
        text(
            &mut a,
            "Score 128",
            10.0,
            10.0,
            24.0,
            rgb(255, 255, 255),
            Align::Left,
        );
        let lit = a.data().chunks(4).filter(|p| p[0] > 128).count();
        assert!(lit > 100, "text should light pixels, lit {lit}");
        let mut b = Pixmap::new(200, 60).unwrap();
        clear(&mut b, rgb(0, 0, 0));
        text(
            &mut b,
            "Score 128",
            10.0,
            10.0,
            24.0,
            rgb(255, 255, 255),
            Align::Left,
        );
        assert_eq!(a.data(), b.data());
        assert!(text_width("WW", 24.0) > text_width("ii", 24.0));
    }

    #[test]
    fn a_keyed_layer_is_painted_again_only_for_another_key_or_size() {
        let layer: KeyedLayer<u32> = KeyedLayer::default();
        let paints = std::cell::Cell::new(0);
        let paint = |pm: &mut Pixmap, v: u32| {
            paints.set(paints.get() + 1);
            clear(pm, rgb(10 * v as u8, 40, 90));
            text(
                pm,
                &v.to_string(),
                20.0,
                10.0,
                30.0,
                rgb(255, 255, 255),
                Align::Left,
            );
        };
        let frame = |v: u32, w: u32| {
            let mut pm = Pixmap::new(w, 60).unwrap();
            let fresh = layer.draw(&mut pm, v, |l| paint(l, v));
            (fresh, pm)
        };
        let direct = |v: u32, w: u32| {
            let mut pm = Pixmap::new(w, 60).unwrap();
            paint(&mut pm, v);
            pm
        };
        let (fresh, first) = frame(1, 80);
        assert!(fresh);
        let (fresh, again) = frame(1, 80);
        assert!(!fresh && again.data() == first.data());
        assert_eq!(paints.get(), 1);
        let (fresh, other) = frame(2, 80);
        assert!(fresh && other.data() != first.data());
        let (fresh, wider) = frame(2, 96);
        assert!(fresh && wider.width() == 96);
        assert_eq!(paints.get(), 3);
        assert!(first.data() == direct(1, 80).data());
        assert!(wider.data() == direct(2, 96).data());
    }

    #[test]
    fn stamps_copy_back_what_their_painter_drew() {
        let stamps: Stamps<u32> = Stamps::default();
        let paints = std::cell::Cell::new(0);
        let tile = |pm: &mut Pixmap, v: u32| {
            rounded_rect(pm, 40.0, 30.0, 60.0, 60.0, 9.0, rgb(200, 60, 20));
            text(
                pm,
                &v.to_string(),
                70.0,
                40.0,
                30.0,
                rgb(255, 255, 255),
                Align::Center,
            );
        };
        let frame = |v: u32, cached: bool| {
            let mut pm = Pixmap::new(160, 120).unwrap();
            clear(&mut pm, rgb(30, 90, 160));
            if cached {
                stamps.draw(&mut pm, v, (40, 30, 60, 60), |pm| {
                    paints.set(paints.get() + 1);
                    tile(pm, v);
                });
            } else {
                tile(&mut pm, v);
            }
            pm
        };
        for v in [2, 4, 2, 2, 4, 8] {
            assert_eq!(frame(v, false).data(), frame(v, true).data(), "{v}");
        }
        // Painted once per key, copied after that.
        assert_eq!(paints.get(), 3);
        // A region reaching outside the frame is painted every time.
        let mut pm = Pixmap::new(160, 120).unwrap();
        for _ in 0..2 {
            stamps.draw(&mut pm, 99, (150, 100, 20, 20), |_| {
                paints.set(paints.get() + 1)
            });
        }
        assert_eq!(paints.get(), 5);
    }

    #[test]
    fn a_cached_hud_bar_draws_the_same_pixels_as_drawing_it() {
        static BAR: OnceLock<Pixmap> = OnceLock::new();
        let items = |n: u32| {
            [
                ("Score", n.to_string()),
                ("Speed", format!("{} m/s", n % 7)),
            ]
        };
        let frame = |w: u32, n: u32, cached: bool| {
            let mut pm = Pixmap::new(w, 200).unwrap();
            clear(&mut pm, rgb(30, 90, 160));
            if cached {
                hud_cached(&mut pm, &BAR, "Some Game", &items(n));
            } else {
                hud(&mut pm, "Some Game", &items(n));
            }
            pm
        };
        // The first call fills the cache, later ones copy it; another
        // width draws the bar directly.
        for (w, n) in [(1280, 3), (1280, 1234), (640, 55), (1280, 9)] {
            let (direct, cached) = (frame(w, n, false), frame(w, n, true));
            assert_eq!(direct.data(), cached.data(), "{w} wide, {n}");
        }
        assert_eq!(
            BAR.get().map(|l| (l.width(), l.height())),
            Some((1280, HUD_BAR_H))
        );
        // The title and the items show.
        let p = frame(1280, 3, true);
        let lit = |x0: usize, x1: usize| {
            (0..HUD_BAR_H as usize)
                .flat_map(|y| (x0..x1).map(move |x| (y * 1280 + x) * 4))
                .filter(|&i| p.data()[i] > 200)
                .count()
        };
        assert!(lit(0, 300) > 50 && lit(980, 1280) > 50);
    }
}
