//! A compact software 3D renderer shared by the 3D games (Cubefield, Run 3,
//! Temple Run 2, later Wolfenstein 3D).
//!
//! World coordinates: `x` right, `y` up, `z` forward (a left-handed frame, as
//! a runner sees it). A [`Camera`] has a position, yaw (about +y, positive
//! turns toward +x), pitch (positive looks up) and roll (positive tilts the
//! view counter-clockwise, so the horizon appears to turn clockwise), a
//! vertical field of view and a screen rectangle.
//!
//! A [`Scene`] collects flat convex faces: each is shaded once (ambient plus
//! Lambert from one directional light, per face), darkened toward a fog colour
//! by its distance, back-face culled by its explicit normal, clipped against
//! the near plane and projected. [`Scene::draw`] then rasterises the faces as
//! scanline spans straight into the pixmap's RGBA buffer with a depth buffer
//! of interpolated `1/z` (exact for planar faces), or in painter's order for
//! scenes where the caller knows that is right (backgrounds). There is no
//! anti-aliasing; coverage follows the pixel-centre rule, so faces that share
//! an edge neither overlap nor leave gaps.
//!
//! All trigonometry goes through `libm` and the arithmetic is plain IEEE
//! `f64`/`f32` in a fixed order, so frames are bit-identical across runs and
//! golden hashes hold.
//!
//! Speed (every change keeps each pixel identical; the per-game
//! `golden_frames_over_whole_plays` digests, recorded before the tuning, and
//! the golden frames pin this):
//! - The screen is drawn in bands of `BAND` rows: for each band every face
//!   overlapping it is rasterised in the original order, so each pixel sees
//!   the same sequence of writes, but the band's pixels and its depth
//!   buffer (a thread-local buffer of one band, cleared per band and reused
//!   across frames) stay in cache. Which faces overlap which band is listed
//!   once per draw (`band_lists`), not tested face by face per band.
//!   [`Scene::draw_over`] copies a backdrop layer into each band just before
//!   its faces; [`Scene::draw_over_scene`] fills a colour, draws a painter's
//!   background scene and then a depth-tested scene in one banded pass.
//!   A [`SparseLayer`] backdrop (one colour plus the pixels that differ,
//!   Run 3's star field) is written without reading a whole picture.
//! - A span's depths are the serial sums `z, z + s, …` in `f32`. They are
//!   computed 16 at a time as a progression and each checked against its
//!   neighbour's guess by the serial rule (see `depth_ramp`), falling back
//!   to the serial loop where the check fails, so the comparisons see
//!   exactly the serial values without the serial loop's chain of dependent
//!   additions. `depth_ramp` is inlined so the chunk stays in vector
//!   registers (as a call, the caller read the ramp back from the stack in
//!   pieces that stalled on the stores: a fifth of `raster`'s time). The
//!   depth test is one vector compare per four pixels into lane masks
//!   (`nearer_lanes`) reduced by folds; a chunk whose pixels are all nearer
//!   is written whole, a mixed one pixel by pixel. (A bit mask built by
//!   shifts, a count, or per-pixel selects all compiled to slower code.)
//! - Edges are set up once per face (no per-row modulo), and pixel-centre
//!   rounding uses an exact integer `ceil` instead of a libm call.
//! - Faces whose vertices all lie more than a pixel left or right of the
//!   screen are dropped when added (they cover no pixel). A box
//!   ([`Scene::frame_box`]) takes its 8 corners to view space once, not per
//!   face, and is dropped whole when every corner is beyond the far plane,
//!   behind the near plane, or in front of it and off one side of the
//!   screen: the same faces survive as face by face. Cubefield submits
//!   about 900 cubes per frame, most of them off-screen or far.
//! - Measured (instructions, callgrind, 60 bench steps of each game; the
//!   same frames): Cubefield render 893 M → 800 M (`frame_box` 99 M →
//!   67 M, `raster` 439 M → 386 M), Run 3 render 1203 M → 1086 M
//!   (`raster` with `depth_ramp` 734 M → 650 M; its tile corners are now
//!   worked out once), Temple Run 2 render 679 M → 668 M. In time the ramp
//!   stall was the larger part: bench on the loaded 2-core machine (load
//!   4–6, best of 6–8 alternating runs, old and new binary in the same
//!   minute) gave Run 3 render 2.13–2.25 → 1.78–1.9 ms and Cubefield
//!   1.48–1.58 → 1.30–1.38 ms; whole steps (8 alternating runs, load
//!   5.2–5.4): Run 3 3.71–7.67 → 3.40–7.21 ms (fastest four 3.71–5.11 →
//!   3.40–3.88), Cubefield 2.69–5.49 → 2.42–2.76 ms, Temple Run 2
//!   unchanged (2.73–3.22 → 2.73–3.40, PNG being half its step).
//! - Bands are drawn on several threads (session 9): each band touches
//!   only its own rows and has its own depth buffer (a thread-local one per
//!   thread), so any order gives the same pixels. `for_each_band` is the
//!   one band loop: the calling thread and, in parallel, rayon's other
//!   threads take bands in order from a shared counter, so the caller
//!   keeps drawing while a helper is unscheduled (a first version with
//!   `par_chunks_mut` parked the caller while the pool did all the work).
//!   [`BandMode`] (thread-local, set with [`with_band_mode`]) picks serial,
//!   parallel or automatic (parallel when rayon has more than one thread
//!   and the view spans two bands); the per-game digests are checked in
//!   both modes. The HUD bar and title are drawn once and copied
//!   (`draw::hud_cached`).
//! - Measured (callgrind, Run 3, 60 bench steps, all threads counted):
//!   render 1,074 M instructions, of which the bands (rasterising,
//!   backdrop, depth clears) 880 M and the serial rest 190 M (building the
//!   scene 58 M, the translucent help strip about 80 M, HUD text). Bench
//!   on the shared 2-core machine (release, 120 steps, alternating with
//!   the previous binary in the same minute, load 4.5–5.1 from other
//!   builds): render Run 3 1.84 / 1.92 / 2.80 → 1.33 / 1.21 / 1.77 ms,
//!   Cubefield 1.34 / 1.25 / 1.91 → 0.92 / 0.92 / 1.26, Temple Run 2
//!   1.37 / 1.13 / 1.86 → 0.98 / 0.93 / 1.13; whole steps Run 3
//!   3.32 / 3.42 / 5.07 → 2.83 / 2.62 / 4.00 ms. Under heavier load (6–7,
//!   own release build running alongside) single runs of the parallel
//!   binary were far slower (Run 3 render 4.5–9.5 ms): the caller still
//!   waits for a helper job that rayon has queued but not yet started.
//! - Tried and dropped: the help strip as a per-pixel table of what
//!   drawing it does to each channel value (exact, applied per band),
//!   recorded by drawing the strip over all 256 grey levels. Recording
//!   costs tenths of a second per game (seconds under load), done
//!   synchronously that is more than a short run saves, and done on a
//!   background thread it slowed the first second of every run.
//! - Not done (measured or left): filling the backdrop only where no face
//!   wrote was slower (Run 3's thin gaps between tiles make most chunks
//!   mixed); per-frame caches of static geometry and fog culling are open.
//!   Evaluating a face's edges four at a time per row with SSE and masks
//!   instead of branches measured without gain. Where a Run 3 step goes now
//!   (perf samples, whole step): `raster` about 30% (the depth ramp and its
//!   check about a quarter of that, pixel fills another quarter), the star
//!   backdrop 6–9% (the first write to each band's pixels), PNG encoding
//!   about 30% (`gw_core::frame`), HUD text and panels about 5%.

use crate::draw::Rgb;
use std::cell::{Cell, RefCell};
use std::ops::{Add, Mul, Neg, Sub};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use tiny_skia::{Pixmap, PremultipliedColorU8};

/// A point or direction in world or view space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

pub const fn v3(x: f64, y: f64, z: f64) -> V3 {
    V3 { x, y, z }
}

impl V3 {
    pub fn dot(self, o: V3) -> f64 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }
    pub fn cross(self, o: V3) -> V3 {
        v3(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }
    pub fn len(self) -> f64 {
        libm::sqrt(self.dot(self))
    }
    /// The unit vector in this direction (zero stays zero).
    pub fn norm(self) -> V3 {
        let l = self.len();
        if l > 0.0 { self * (1.0 / l) } else { self }
    }
}

impl Add for V3 {
    type Output = V3;
    fn add(self, o: V3) -> V3 {
        v3(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl Sub for V3 {
    type Output = V3;
    fn sub(self, o: V3) -> V3 {
        v3(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl Mul<f64> for V3 {
    type Output = V3;
    fn mul(self, k: f64) -> V3 {
        v3(self.x * k, self.y * k, self.z * k)
    }
}
impl Neg for V3 {
    type Output = V3;
    fn neg(self) -> V3 {
        v3(-self.x, -self.y, -self.z)
    }
}

/// A pinhole camera looking into a screen rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub pos: V3,
    pub yaw: f64,
    pub pitch: f64,
    pub roll: f64,
    /// Vertical field of view, radians.
    pub fov_y: f64,
    /// Near clipping distance (view-space depth).
    pub near: f64,
    /// Faces whose every vertex is deeper than this are dropped.
    pub far: f64,
    /// Screen rectangle (x, y, width, height) in pixels.
    pub screen: (u32, u32, u32, u32),
}

impl Camera {
    /// A camera at `pos` looking along +z over the whole `w`×`h` frame.
    pub fn new(pos: V3, w: u32, h: u32) -> Self {
        Camera {
            pos,
            yaw: 0.0,
            pitch: 0.0,
            roll: 0.0,
            fov_y: 60f64.to_radians(),
            near: 0.1,
            far: 200.0,
            screen: (0, 0, w, h),
        }
    }

    /// (right, up, forward) unit vectors of the view.
    pub fn basis(&self) -> (V3, V3, V3) {
        let (sy, cy) = (libm::sin(self.yaw), libm::cos(self.yaw));
        let (sp, cp) = (libm::sin(self.pitch), libm::cos(self.pitch));
        let f = v3(sy * cp, sp, cy * cp);
        let r = v3(cy, 0.0, -sy);
        let u = f.cross(r);
        let (sr, cr) = (libm::sin(self.roll), libm::cos(self.roll));
        (r * cr + u * sr, u * cr - r * sr, f)
    }

    /// Focal length in pixels.
    pub fn focal(&self) -> f64 {
        self.screen.3 as f64 * 0.5 / libm::tan(self.fov_y * 0.5)
    }

    /// Screen centre in pixels.
    pub fn center(&self) -> (f64, f64) {
        (
            self.screen.0 as f64 + self.screen.2 as f64 * 0.5,
            self.screen.1 as f64 + self.screen.3 as f64 * 0.5,
        )
    }

    /// Where a world point lands on screen, if it is in front of the near
    /// plane: (x, y, view depth).
    pub fn project(&self, p: V3) -> Option<(f32, f32, f64)> {
        View::new(self).project(p)
    }
}

/// The per-frame derived view (basis, focal length, centre).
#[derive(Clone, Copy, Debug)]
struct View {
    pos: V3,
    r: V3,
    u: V3,
    f: V3,
    focal: f64,
    cx: f64,
    cy: f64,
    near: f64,
}

impl View {
    fn new(cam: &Camera) -> Self {
        let (r, u, f) = cam.basis();
        let (cx, cy) = cam.center();
        View {
            pos: cam.pos,
            r,
            u,
            f,
            focal: cam.focal(),
            cx,
            cy,
            near: cam.near,
        }
    }
    fn view_of(&self, p: V3) -> V3 {
        let d = p - self.pos;
        v3(d.dot(self.r), d.dot(self.u), d.dot(self.f))
    }
    fn dir_to_view(&self, d: V3) -> V3 {
        v3(d.dot(self.r), d.dot(self.u), d.dot(self.f))
    }
    fn screen(&self, q: V3) -> (f32, f32) {
        let k = self.focal / q.z;
        ((self.cx + q.x * k) as f32, (self.cy - q.y * k) as f32)
    }
    fn project(&self, p: V3) -> Option<(f32, f32, f64)> {
        let q = self.view_of(p);
        if q.z < self.near {
            return None;
        }
        let (x, y) = self.screen(q);
        Some((x, y, q.z))
    }
}

/// One directional light: `dir` points from the scene toward the light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    pub dir: V3,
    /// Brightness of a face turned away from the light, 0..1.
    pub ambient: f64,
}

impl Default for Light {
    fn default() -> Self {
        Light {
            dir: v3(-0.35, 0.8, -0.45).norm(),
            ambient: 0.55,
        }
    }
}

/// Distance fog: faces blend linearly toward `color` between `start` and
/// `end` (view depth of the face centre).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fog {
    pub color: Rgb,
    pub start: f64,
    pub end: f64,
}

/// How a face is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// Ambient + Lambert from the scene light, then fog.
    Lit,
    /// The colour as given, fog only (signs, glowing items).
    Flat,
}

/// Largest vertex count of a face after near-plane clipping.
const MAX_VERTS: usize = 12;

#[derive(Clone, Copy, Debug)]
struct Face {
    n: u8,
    pts: [(f32, f32); MAX_VERTS],
    /// `1/z = a·x + b·y + c` over the screen.
    a: f64,
    b: f64,
    c: f64,
    color: [u8; 4],
    /// View depth of the centre (painter's order key).
    depth: f32,
    /// Screen rows whose centre `y + 0.5` lies in `[ymin, ymax)`.
    rows: (i32, i32),
}

/// Faces of one frame, rasterised together by [`Scene::draw`].
pub struct Scene {
    view: View,
    cam: Camera,
    pub light: Light,
    pub fog: Option<Fog>,
    faces: Vec<Face>,
}

/// Multiply a colour by `k` (clamped to 0..255).
pub fn scale(c: Rgb, k: f64) -> Rgb {
    let f = |v: u8| (v as f64 * k).round().clamp(0.0, 255.0) as u8;
    Rgb(f(c.0), f(c.1), f(c.2), c.3)
}

/// Blend `a` toward `b` by `t` in 0..1.
pub fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let t = t.clamp(0.0, 1.0);
    let f = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
    Rgb(f(a.0, b.0), f(a.1, b.1), f(a.2, b.2), 255)
}

impl Scene {
    pub fn new(cam: Camera) -> Self {
        Scene {
            view: View::new(&cam),
            cam,
            light: Light::default(),
            fog: None,
            faces: Vec::with_capacity(512),
        }
    }

    pub fn camera(&self) -> &Camera {
        &self.cam
    }

    /// Number of faces that survived culling and clipping so far.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The colour a face gets: light, then fog by the view depth `depth`.
    pub fn shade(&self, color: Rgb, normal: V3, depth: f64, shade: Shade) -> Rgb {
        let lit = match shade {
            Shade::Lit => {
                let d = normal.norm().dot(self.light.dir).max(0.0);
                scale(color, self.light.ambient + (1.0 - self.light.ambient) * d)
            }
            Shade::Flat => color,
        };
        match self.fog {
            Some(f) => mix(
                lit,
                f.color,
                (depth - f.start) / (f.end - f.start).max(1e-9),
            ),
            None => lit,
        }
    }

    /// Add a flat convex face with vertices `pts` (any winding, at most 8)
    /// and outward `normal`. Faces turned away from the camera are culled
    /// when `cull` is set.
    pub fn face(&mut self, pts: &[V3], normal: V3, color: Rgb, shade: Shade, cull: bool) {
        debug_assert!(pts.len() >= 3 && pts.len() <= 8);
        if cull && normal.dot(self.view.pos - pts[0]) <= 0.0 {
            return;
        }
        let mut q = [V3::default(); 8];
        for (v, p) in q.iter_mut().zip(pts) {
            *v = self.view.view_of(*p);
        }
        self.face_view(&q[..pts.len()], normal, color, shade);
    }

    /// [`Scene::face`] after culling, from the vertices in view space.
    fn face_view(&mut self, q: &[V3], normal: V3, color: Rgb, shade: Shade) {
        let mut all_far = true;
        let mut any_near = false;
        for p in q {
            all_far &= p.z > self.cam.far;
            any_near |= p.z >= self.view.near;
        }
        if all_far || !any_near {
            return;
        }
        let n = q.len();
        let mut centre = V3::default();
        for p in &q[..n] {
            centre = centre + *p;
        }
        let depth = centre.z / n as f64;
        // Near-plane clip (Sutherland–Hodgman against z >= near).
        let near = self.view.near;
        let mut clipped = [V3::default(); MAX_VERTS];
        let mut m = 0;
        for i in 0..n {
            let (a, b) = (q[i], q[(i + 1) % n]);
            let (ia, ib) = (a.z >= near, b.z >= near);
            if ia {
                clipped[m] = a;
                m += 1;
            }
            if ia != ib {
                let t = (near - a.z) / (b.z - a.z);
                clipped[m] = a + (b - a) * t;
                clipped[m].z = near;
                m += 1;
            }
        }
        if m < 3 {
            return;
        }
        // Depth plane: with view-space plane nv·p = d and p = z·(X, Y, 1),
        // X = (sx - cx)/f, Y = -(sy - cy)/f: 1/z = (nv.x X + nv.y Y + nv.z)/d.
        let nv = self.view.dir_to_view(normal);
        let d = nv.dot(clipped[0]);
        if d.abs() < 1e-9 {
            return;
        }
        let (f, cx, cy) = (self.view.focal, self.view.cx, self.view.cy);
        let a = nv.x / (f * d);
        let b = -nv.y / (f * d);
        let c = (nv.z - nv.x * cx / f + nv.y * cy / f) / d;
        let mut face = Face {
            n: m as u8,
            pts: [(0.0, 0.0); MAX_VERTS],
            a,
            b,
            c,
            color: [0; 4],
            depth: depth as f32,
            rows: (0, 0),
        };
        let (mut ymin, mut ymax) = (f32::INFINITY, f32::NEG_INFINITY);
        let (mut xmin, mut xmax) = (f32::INFINITY, f32::NEG_INFINITY);
        for i in 0..m {
            let p = self.view.screen(clipped[i]);
            face.pts[i] = p;
            ymin = ymin.min(p.1);
            ymax = ymax.max(p.1);
            xmin = xmin.min(p.0);
            xmax = xmax.max(p.0);
        }
        face.rows = (ceil_i32(ymin - 0.5), ceil_i32(ymax - 0.5));
        // Wholly left or right of the screen rectangle (which contains the
        // drawing clip): no pixel (a span's ends lie within a rounding error
        // of the vertices' x range, and the margin of one pixel is far
        // larger), so neither shaded nor kept; dropping a face keeps the
        // others' order.
        let (sx, sw) = (self.cam.screen.0 as f32, self.cam.screen.2 as f32);
        if xmax < sx - 1.0 || xmin > sx + sw + 1.0 {
            return;
        }
        let col = self.shade(color, normal, depth, shade);
        face.color = [col.0, col.1, col.2, 255];
        self.faces.push(face);
    }

    /// A quad `a b c d` (in order around its edge) with outward `normal`.
    pub fn quad(&mut self, corners: [V3; 4], normal: V3, color: Rgb, shade: Shade) {
        self.face(&corners, normal, color, shade, true);
    }

    /// An axis-aligned box from `lo` to `hi`; `colors` gives the base colour
    /// of each face in the order −x, +x, −y, +y, −z, +z.
    pub fn cuboid(&mut self, lo: V3, hi: V3, colors: [Rgb; 6]) {
        let axes = [v3(1.0, 0.0, 0.0), v3(0.0, 1.0, 0.0), v3(0.0, 0.0, 1.0)];
        self.frame_box(
            V3::default(),
            axes,
            [lo.x, lo.y, lo.z],
            [hi.x, hi.y, hi.z],
            colors,
        );
    }

    /// A box in a local frame: the points `origin + a·axes[0] + b·axes[1] +
    /// c·axes[2]` for (a, b, c) between `lo` and `hi`. The axes must be unit
    /// length and at right angles. `colors` gives the base colour of each
    /// face in the order −a, +a, −b, +b, −c, +c.
    pub fn frame_box(
        &mut self,
        origin: V3,
        axes: [V3; 3],
        lo: [f64; 3],
        hi: [f64; 3],
        colors: [Rgb; 6],
    ) {
        let p = |a: f64, b: f64, c: f64| origin + axes[0] * a + axes[1] * b + axes[2] * c;
        let ([a0, b0, c0], [a1, b1, c1]) = (lo, hi);
        let k = [
            p(a0, b0, c0),
            p(a1, b0, c0),
            p(a1, b1, c0),
            p(a0, b1, c0),
            p(a0, b0, c1),
            p(a1, b0, c1),
            p(a1, b1, c1),
            p(a0, b1, c1),
        ];
        let faces: [([usize; 4], V3); 6] = [
            ([0, 3, 7, 4], -axes[0]),
            ([1, 5, 6, 2], axes[0]),
            ([0, 4, 5, 1], -axes[1]),
            ([3, 2, 6, 7], axes[1]),
            ([0, 1, 2, 3], -axes[2]),
            ([4, 7, 6, 5], axes[2]),
        ];
        // Each corner goes to view space once (the same values `face`
        // computes per face). A box whose corners are all beyond the far
        // plane, all behind the near plane, or all in front of the near
        // plane and projected more than a pixel left (or right) of the
        // screen has no face that `face` would keep, so it stops here.
        let kv = k.map(|p| self.view.view_of(p));
        let (near, far) = (self.view.near, self.cam.far);
        if kv.iter().all(|q| q.z > far) || kv.iter().all(|q| q.z < near) {
            return;
        }
        if kv.iter().all(|q| q.z >= near) {
            let (sx, sw) = (self.cam.screen.0 as f32, self.cam.screen.2 as f32);
            let xs = kv.map(|q| self.view.screen(q).0);
            if xs.iter().all(|&x| x < sx - 1.0) || xs.iter().all(|&x| x > sx + sw + 1.0) {
                return;
            }
        }
        for (i, (idx, n)) in faces.into_iter().enumerate() {
            if n.dot(self.view.pos - k[idx[0]]) <= 0.0 {
                continue;
            }
            self.face_view(&idx.map(|j| kv[j]), n, colors[i], Shade::Lit);
        }
    }

    /// A box with one colour on every face (the light still tells faces apart).
    pub fn cuboid1(&mut self, lo: V3, hi: V3, color: Rgb) {
        self.cuboid(lo, hi, [color; 6]);
    }

    /// Rasterise every face into `pm` inside the camera's screen rectangle.
    /// With `depth_test` faces hide each other per pixel (the depth buffer
    /// starts empty each call); without it they are drawn far to near.
    pub fn draw(&mut self, pm: &mut Pixmap, depth_test: bool) {
        self.draw_over(pm, depth_test, None);
    }

    /// [`Scene::draw`] over a `backdrop` layer the size of the screen
    /// rectangle, placed at its top-left corner: the layer is copied into
    /// each band just before the band's faces, the same pixels as copying
    /// the whole layer first and then drawing, while the band stays in cache.
    /// (Filling only the pixels no face wrote, after the faces, was measured
    /// slower: Run 3's thin gaps between tiles make most chunks mixed.)
    pub fn draw_over(&mut self, pm: &mut Pixmap, depth_test: bool, backdrop: Option<Backdrop>) {
        if !depth_test {
            sort_far_to_near(&mut self.faces);
        }
        let back = match backdrop {
            Some(Backdrop::Layer(layer)) => Back::Layer(layer),
            Some(Backdrop::Sparse(layer)) => Back::Sparse(layer),
            None => Back::Nothing,
        };
        draw_bands(pm, self.cam.screen, back, &[(&self.faces, depth_test)]);
        self.faces.clear();
    }

    /// Fill the screen rectangle with `fill`, draw `under` far to near
    /// (a background) and then this scene with depth test: the same pixels
    /// as those three steps one after another over the whole screen, done
    /// band by band. Both scenes must share the screen rectangle.
    pub fn draw_over_scene(&mut self, pm: &mut Pixmap, under: &mut Scene, fill: Rgb) {
        debug_assert_eq!(self.cam.screen, under.cam.screen);
        sort_far_to_near(&mut under.faces);
        let c = PremultipliedColorU8::from_rgba(fill.0, fill.1, fill.2, 255).expect("opaque");
        let passes = [(&under.faces, false), (&self.faces, true)];
        draw_bands(pm, self.cam.screen, Back::Fill(c), &passes);
        under.faces.clear();
        self.faces.clear();
    }
}

/// Painter's order; the sort is stable, so equal depths keep insertion order.
fn sort_far_to_near(faces: &mut [Face]) {
    faces.sort_by(|a, b| b.depth.total_cmp(&a.depth));
}

/// A layer under the 3D view for [`Scene::draw_over`], the size of the
/// screen rectangle and placed at its top-left corner.
#[derive(Clone, Copy)]
pub enum Backdrop<'a> {
    /// Any picture.
    Layer(&'a Pixmap),
    /// A picture that is one colour but for a few pixels (a star field).
    Sparse(&'a SparseLayer),
}

/// A layer stored as one colour plus the pixels that differ from it, so
/// that drawing it writes the colour and those pixels without reading a
/// whole picture from memory. Drawn, it gives exactly the pixels of the
/// picture it was made from.
pub struct SparseLayer {
    width: u32,
    height: u32,
    base: PremultipliedColorU8,
    /// Pixels other than `base`, row by row: (x, colour).
    dots: Vec<(u32, PremultipliedColorU8)>,
    /// Where each row's dots start in `dots` (one more entry than rows).
    row_start: Vec<usize>,
}

impl SparseLayer {
    /// The pixels of `layer` that are not `base`.
    pub fn new(layer: &Pixmap, base: Rgb) -> Self {
        let base = PremultipliedColorU8::from_rgba(base.0, base.1, base.2, 255).expect("opaque");
        let w = layer.width() as usize;
        let mut dots = Vec::new();
        let mut row_start = vec![0];
        for row in layer.pixels().chunks(w) {
            for (x, p) in row.iter().enumerate() {
                if *p != base {
                    dots.push((x as u32, *p));
                }
            }
            row_start.push(dots.len());
        }
        SparseLayer {
            width: layer.width(),
            height: layer.height(),
            base,
            dots,
            row_start,
        }
    }
}

/// What lies under the faces of [`draw_bands`].
enum Back<'a> {
    Nothing,
    /// Written into each band before its faces.
    Sparse(&'a SparseLayer),
    /// Copied into each band before its faces.
    Layer(&'a Pixmap),
    /// One colour filled into each band before its faces.
    Fill(PremultipliedColorU8),
}

/// Rasterise `passes` (faces, with depth test or not) into the `screen`
/// rectangle of `pm`, band by band; the depth buffer starts empty for each
/// depth-tested pass. Bands touch disjoint rows and each has its own depth
/// buffer, so drawing them on several threads ([`BandMode`]) writes the
/// same pixels as drawing them in order.
fn draw_bands(
    pm: &mut Pixmap,
    screen: (u32, u32, u32, u32),
    back: Back,
    passes: &[(&Vec<Face>, bool)],
) {
    let (sx, sy, sw, sh) = screen;
    let (pw, ph) = (pm.width(), pm.height());
    let x_end = (sx + sw).min(pw) as i32;
    let y_end = (sy + sh).min(ph) as i32;
    let (x_beg, y_beg) = (sx.min(pw) as i32, sy.min(ph) as i32);
    if y_beg >= y_end {
        return;
    }
    let stride = pw as usize;
    let origin = (sx as i32, sy as i32);
    let lists: Vec<_> = passes
        .iter()
        .map(|(faces, _)| band_lists(faces, y_beg, y_end))
        .collect();
    let parallel = band_mode_parallel(y_end - y_beg);
    let rows = &mut pm.pixels_mut()[y_beg as usize * stride..y_end as usize * stride];
    // One band: `pixels` holds its rows, `band0..band1` of the screen.
    let draw_band = |band: usize, pixels: &mut [PremultipliedColorU8]| {
        let band0 = y_beg + band as i32 * BAND;
        let band1 = (band0 + BAND).min(y_end);
        match back {
            Back::Layer(layer) => {
                copy_rows(pixels, stride, layer, origin, x_beg..x_end, band0..band1)
            }
            Back::Fill(c) => {
                for row in pixels.chunks_exact_mut(stride) {
                    row[x_beg as usize..x_end as usize].fill(c);
                }
            }
            Back::Sparse(layer) => {
                sparse_rows(pixels, stride, layer, origin, x_beg..x_end, band0..band1)
            }
            Back::Nothing => {}
        }
        let clip = (x_beg, band0, x_end, band1);
        DEPTH.with(|cell| {
            let mut zbuf = cell.borrow_mut();
            let len = stride * BAND as usize;
            if zbuf.len() < len {
                zbuf.resize(len, 0.0);
            }
            for (&(faces, depth_test), (starts, list)) in passes.iter().zip(&lists) {
                if depth_test {
                    for row in zbuf[..pixels.len()].chunks_exact_mut(stride) {
                        row[x_beg as usize..x_end as usize].fill(0.0);
                    }
                }
                for &i in &list[starts[band] as usize..starts[band + 1] as usize] {
                    raster(
                        &faces[i as usize],
                        pixels,
                        &mut zbuf,
                        stride,
                        clip,
                        depth_test,
                    );
                }
            }
        });
    };
    for_each_band(rows, BAND as usize * stride, parallel, draw_band);
}

/// Call `draw(k, rows)` for each band `k` of `band_len` pixels of `rows`
/// (the last may be shorter). In parallel the calling thread and rayon's
/// other threads take bands in order from a shared counter until none is
/// left, so a busy machine that leaves a helper thread unscheduled costs
/// at most the band it has taken: the caller draws the rest itself. With
/// `parallel` false the caller draws every band, in order.
pub(crate) fn for_each_band<P: Send>(
    rows: &mut [P],
    band_len: usize,
    parallel: bool,
    draw: impl Fn(usize, &mut [P]) + Sync,
) {
    let bands: Vec<Mutex<&mut [P]>> = rows.chunks_mut(band_len).map(Mutex::new).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(band) = bands.get(k) else { break };
            // Each band is taken once, so its lock is never contended.
            draw(k, &mut band.lock().expect("a band is drawn once"));
        }
    };
    let helpers = if parallel {
        rayon::current_num_threads()
            .saturating_sub(1)
            .min(bands.len().saturating_sub(1))
    } else {
        0
    };
    if helpers == 0 {
        work();
        return;
    }
    rayon::in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| work());
        }
        work();
    });
}

/// For each band of `BAND` rows from `y_beg` (the last one ending at
/// `y_end`), the indices of the faces whose rows overlap it, in their
/// original order: band `k`'s faces are `list[starts[k]..starts[k + 1]]`
/// (returned as `(starts, list)`). Built in time proportional to the
/// face–band pairs, instead of testing every face against every band.
fn band_lists(faces: &[Face], y_beg: i32, y_end: i32) -> (Vec<u32>, Vec<u32>) {
    let bands = ((y_end - y_beg).max(0) + BAND - 1) / BAND;
    let bands_of = |f: &Face| {
        let (a, b) = (f.rows.0.max(y_beg), f.rows.1.min(y_end));
        if a >= b {
            0..0
        } else {
            ((a - y_beg) / BAND) as usize..((b - 1 - y_beg) / BAND + 1) as usize
        }
    };
    let mut starts = vec![0u32; bands as usize + 1];
    for f in faces {
        for k in bands_of(f) {
            starts[k + 1] += 1;
        }
    }
    for k in 0..bands as usize {
        starts[k + 1] += starts[k];
    }
    let mut next = starts.clone();
    let mut list = vec![0u32; starts[bands as usize] as usize];
    for (i, f) in faces.iter().enumerate() {
        for k in bands_of(f) {
            list[next[k] as usize] = i as u32;
            next[k] += 1;
        }
    }
    (starts, list)
}

/// Rows per band: faces are drawn band by band so that the band's depth
/// buffer and pixels stay in cache (each pixel still sees the faces in
/// the same order, so the result is the same as drawing the whole screen
/// face by face). 32 rows of 1280 pixels and depths are 320 kB, inside the
/// development machine's 512 kB L2 per core; against 16 rows, big faces
/// are set up half as often (callgrind: Run 3 render −0.7%, Cubefield
/// −1.3% instructions; bench times equal within the noise of load 5).
pub(crate) const BAND: i32 = 32;

thread_local! {
    /// The depth buffer of one band, reused across frames (one per thread
    /// that draws bands).
    static DEPTH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    /// How this thread's draws spread their bands (see [`with_band_mode`]).
    static BAND_MODE: Cell<BandMode> = const { Cell::new(BandMode::Auto) };
}

/// Whether [`Scene`] draws spread their bands over rayon's threads. The
/// pixels are the same either way; only the time differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandMode {
    /// In parallel when rayon has more than one thread, the screen
    /// rectangle spans more than one band, and the caller is not itself one
    /// of rayon's workers (a suite's parallel runs: a worker waiting for its
    /// bands' helper could pick up another whole run meanwhile, and those
    /// runs already keep the cores busy).
    Auto,
    /// Every band on the calling thread, in order.
    Serial,
    /// Bands shared with rayon's other threads whatever the size (none
    /// when rayon has a single thread).
    Parallel,
}

impl BandMode {
    fn parallel(self, rows: i32) -> bool {
        match self {
            BandMode::Auto => {
                rows > BAND
                    && rayon::current_num_threads() > 1
                    && rayon::current_thread_index().is_none()
            }
            BandMode::Serial => false,
            BandMode::Parallel => true,
        }
    }
}

/// Whether a draw of `rows` screen rows on this thread spreads its bands
/// over rayon's threads, by the mode [`with_band_mode`] set (`Auto`
/// unless changed): the 3D scenes and the raycaster's walls ask here.
pub(crate) fn band_mode_parallel(rows: i32) -> bool {
    BAND_MODE.with(|m| m.get()).parallel(rows)
}

/// Run `f` with the draws it makes on this thread in `mode` (the previous
/// mode is restored afterwards): for tests that compare serial and parallel
/// frames, and for callers that already keep every core busy.
pub fn with_band_mode<R>(mode: BandMode, f: impl FnOnce() -> R) -> R {
    struct Restore(BandMode);
    impl Drop for Restore {
        fn drop(&mut self) {
            BAND_MODE.with(|m| m.set(self.0));
        }
    }
    let _restore = Restore(BAND_MODE.with(|m| m.replace(mode)));
    f()
}

/// Write the rows `ys` and columns `xs` of the screen from a sparse
/// `layer` whose top-left corner sits at `origin` (clipped to the layer);
/// `pixels` starts at row `ys.start`.
fn sparse_rows(
    pixels: &mut [PremultipliedColorU8],
    stride: usize,
    layer: &SparseLayer,
    origin: (i32, i32),
    xs: std::ops::Range<i32>,
    ys: std::ops::Range<i32>,
) {
    let x0 = xs.start.max(origin.0);
    let x1 = xs.end.min(origin.0 + layer.width as i32);
    if x0 >= x1 {
        return;
    }
    for y in ys.start.max(origin.1)..ys.end.min(origin.1 + layer.height as i32) {
        let d = (y - ys.start) as usize * stride;
        pixels[d + x0 as usize..d + x1 as usize].fill(layer.base);
        let ly = (y - origin.1) as usize;
        for &(lx, c) in &layer.dots[layer.row_start[ly]..layer.row_start[ly + 1]] {
            let x = lx as i32 + origin.0;
            if x >= x0 && x < x1 {
                pixels[d + x as usize] = c;
            }
        }
    }
}

/// Copy the rows `ys` and columns `xs` of the screen from `layer`, whose
/// top-left corner sits at `origin` (clipped to the layer); `pixels` starts
/// at row `ys.start`.
fn copy_rows(
    pixels: &mut [PremultipliedColorU8],
    stride: usize,
    layer: &Pixmap,
    origin: (i32, i32),
    xs: std::ops::Range<i32>,
    ys: std::ops::Range<i32>,
) {
    let (lw, lh) = (layer.width() as i32, layer.height() as i32);
    let x0 = xs.start.max(origin.0);
    let x1 = xs.end.min(origin.0 + lw);
    if x0 >= x1 {
        return;
    }
    let src = layer.pixels();
    for y in ys.start.max(origin.1)..ys.end.min(origin.1 + lh) {
        let d = (y - ys.start) as usize * stride;
        // The layer's row, from its column `x0 - origin.0` (not negative).
        let s = (y - origin.1) as usize * lw as usize;
        let (l0, l1) = ((x0 - origin.0) as usize, (x1 - origin.0) as usize);
        pixels[d + x0 as usize..d + x1 as usize].copy_from_slice(&src[s + l0..s + l1]);
    }
}

/// `v.ceil() as i32`, without a libm call for ordinary screen coordinates.
#[inline]
fn ceil_i32(v: f32) -> i32 {
    if v.abs() < 8_388_608.0 {
        let t = v as i32;
        if (t as f32) < v { t + 1 } else { t }
    } else {
        v.ceil() as i32
    }
}

/// One polygon edge, ordered by y, with the differences the span
/// intersection needs (the same operations as computing them per row).
#[derive(Clone, Copy, Default)]
struct Edge {
    px: f32,
    py: f32,
    qy: f32,
    dx: f32,
    dy: f32,
}

/// Pixels per depth ramp chunk.
const CHUNK: usize = 16;

/// `0, 1, 2, …` as `f32`, the offsets of a chunk's pixels.
const OFFSETS: [f32; CHUNK] = {
    let mut o = [0f32; CHUNK];
    let mut i = 0;
    while i < CHUNK {
        o[i] = i as f32;
        i += 1;
    }
    o
};

/// `1, 2, 3, …` as `f32`, the offsets of each pixel's right-hand neighbour.
const NEXT: [f32; CHUNK] = {
    let mut o = [0f32; CHUNK];
    let mut i = 0;
    while i < CHUNK {
        o[i] = (i + 1) as f32;
        i += 1;
    }
    o
};

/// Per pixel, all ones where `ramp[j]` is nearer than `z[j]` (a larger
/// `1/z`), else zero: one vector compare per four pixels (a bit mask built
/// with shifts, or a count, compiled to slower code).
#[inline(always)]
fn nearer_lanes(ramp: &[f32; CHUNK], z: &[f32; CHUNK]) -> [i32; CHUNK] {
    let mut m = [0i32; CHUNK];
    for j in 0..CHUNK {
        m[j] = -((ramp[j] > z[j]) as i32);
    }
    m
}

/// Fill `out` with `z, z + s, (z + s) + s, …` exactly as the serial `f32`
/// loop computes them, and return the value after the last. The chunk is
/// guessed as the progression `z + j·d` with `d = (z + s) − z` (exact while
/// the sums stay inside one binade and no rounding tie occurs), then every
/// pixel is checked against its right-hand neighbour's guess,
/// `out[j] + s == z + (j + 1)·d`, which by induction makes the guess the
/// serial sequence (the last check, past the chunk, only sends a few more
/// chunks to the serial loop). A chunk that fails the check (a binade
/// crossing, a tie) is redone serially. Unlike the serial loop, guess and
/// check have no chain of dependent additions and no lane needs its
/// neighbour, so both stay in vector registers once inlined (a call left
/// the ramp in memory, read back in pieces that stalled on the stores).
#[inline(always)]
fn depth_ramp(z: f32, s: f32, out: &mut [f32; CHUNK]) -> f32 {
    let d = (z + s) - z;
    // `out[0]` is `z + 0·d`: `z` itself (up to the sign of a zero, which no
    // comparison sees) whenever `d` is finite; otherwise it is NaN and the
    // check below fails.
    let mut bad = 0u32;
    for j in 0..CHUNK {
        out[j] = z + OFFSETS[j] * d;
        bad |= (out[j] + s != z + NEXT[j] * d) as u32;
    }
    if bad != 0 {
        return depth_ramp_serial(z, s, out);
    }
    out[CHUNK - 1] + s
}

/// The serial form of [`depth_ramp`] (any length); returns the next value.
fn depth_ramp_serial(z: f32, s: f32, out: &mut [f32]) -> f32 {
    let mut v = z;
    for o in out.iter_mut() {
        *o = v;
        v += s;
    }
    v
}

/// Fill one convex face with the pixel-centre rule inside `clip`
/// (x0, y0, x1, y1); `pixels` and `zbuf` start at row `y0`.
fn raster(
    face: &Face,
    pixels: &mut [PremultipliedColorU8],
    zbuf: &mut [f32],
    stride: usize,
    clip: (i32, i32, i32, i32),
    depth_test: bool,
) {
    let n = face.n as usize;
    let pts = &face.pts[..n];
    let y0 = face.rows.0.max(clip.1);
    let y1 = face.rows.1.min(clip.3);
    if y0 >= y1 {
        return;
    }
    // Order each edge by y so both faces sharing it compute the same x.
    let mut edges = [Edge::default(); MAX_VERTS];
    for i in 0..n {
        let (mut p, mut q) = (pts[i], pts[if i + 1 == n { 0 } else { i + 1 }]);
        if p.1 > q.1 {
            std::mem::swap(&mut p, &mut q);
        }
        edges[i] = Edge {
            px: p.0,
            py: p.1,
            qy: q.1,
            dx: q.0 - p.0,
            dy: q.1 - p.1,
        };
    }
    let edges = &edges[..n];
    let color = PremultipliedColorU8::from_rgba(face.color[0], face.color[1], face.color[2], 255)
        .expect("opaque colour");
    let (fx0, fx1) = (clip.0 as f32, clip.2 as f32);
    let step = face.a as f32;
    for y in y0..y1 {
        let yc = y as f32 + 0.5;
        let (mut xl, mut xr) = (f32::INFINITY, f32::NEG_INFINITY);
        for e in edges {
            if yc < e.py || yc >= e.qy {
                continue;
            }
            let x = e.px + e.dx * ((yc - e.py) / e.dy);
            xl = xl.min(x);
            xr = xr.max(x);
        }
        if xl > xr {
            continue;
        }
        let xa = ceil_i32(xl.max(fx0) - 0.5);
        let xb = ceil_i32(xr.min(fx1) - 0.5).min(clip.2);
        let xa = xa.max(clip.0);
        if xa >= xb {
            continue;
        }
        // `pixels` and `zbuf` both start at the clip's first row.
        let row = (y - clip.1) as usize * stride;
        let px = &mut pixels[row + xa as usize..row + xb as usize];
        if depth_test {
            let zs = &mut zbuf[row + xa as usize..row + xb as usize];
            let mut iz = (face.a * (xa as f64 + 0.5) + face.b * yc as f64 + face.c) as f32;
            let mut ramp = [0f32; CHUNK];
            let mut pcs = px.chunks_exact_mut(CHUNK);
            let mut zcs = zs.chunks_exact_mut(CHUNK);
            for (pc, zc) in (&mut pcs).zip(&mut zcs) {
                iz = depth_ramp(iz, step, &mut ramp);
                let zc: &mut [f32; CHUNK] = zc.try_into().expect("chunk");
                let pc: &mut [PremultipliedColorU8; CHUNK] = pc.try_into().expect("chunk");
                let nearer = nearer_lanes(&ramp, zc);
                // Folds, not `all`/`any`: no early exit, so one vector
                // reduction each.
                if nearer.iter().fold(-1, |a, m| a & m) != 0 {
                    *zc = ramp;
                    pc.fill(color);
                } else if nearer.iter().fold(0, |a, m| a | m) != 0 {
                    for (j, (p, z)) in pc.iter_mut().zip(zc.iter_mut()).enumerate() {
                        if nearer[j] != 0 {
                            *z = ramp[j];
                            *p = color;
                        }
                    }
                }
            }
            let (pc, zc) = (pcs.into_remainder(), zcs.into_remainder());
            if !pc.is_empty() {
                // A whole chunk's ramp (exact), of which the tail uses the
                // first values.
                depth_ramp(iz, step, &mut ramp);
                for ((p, z), r) in pc.iter_mut().zip(zc.iter_mut()).zip(&ramp) {
                    if *r > *z {
                        *z = *r;
                        *p = color;
                    }
                }
            }
        } else {
            px.fill(color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::rgb;

    fn pixel(pm: &Pixmap, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * pm.width() + x) * 4) as usize;
        let d = pm.data();
        [d[i], d[i + 1], d[i + 2]]
    }

    fn cam() -> Camera {
        Camera::new(v3(0.0, 0.0, 0.0), 200, 100)
    }

    #[test]
    fn projection_centre_and_axes() {
        let c = cam();
        let (x, y, z) = c.project(v3(0.0, 0.0, 5.0)).unwrap();
        assert_eq!((x, y, z), (100.0, 50.0, 5.0));
        let (x, y, _) = c.project(v3(1.0, 1.0, 5.0)).unwrap();
        assert!(x > 100.0 && y < 50.0, "right is +x, up is −y on screen");
        assert!(c.project(v3(0.0, 0.0, -1.0)).is_none());
        // Yaw a quarter turn right: +x is now straight ahead.
        let mut c2 = c;
        c2.yaw = std::f64::consts::FRAC_PI_2;
        let (x, y, z) = c2.project(v3(4.0, 0.0, 0.0)).unwrap();
        assert!((x - 100.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3 && (z - 4.0).abs() < 1e-9);
        // Focal length matches the field of view: the top edge at depth 1 is tan(fov/2).
        let t = libm::tan(c.fov_y / 2.0);
        let (_, y, _) = c.project(v3(0.0, t, 1.0)).unwrap();
        assert!(y.abs() < 1e-3);
    }

    #[test]
    fn depth_buffer_keeps_the_nearer_face_whatever_the_order() {
        for near_first in [false, true] {
            let mut pm = Pixmap::new(200, 100).unwrap();
            let mut s = Scene::new(cam());
            let quad = |z: f64| {
                [
                    v3(-1.0, -1.0, z),
                    v3(1.0, -1.0, z),
                    v3(1.0, 1.0, z),
                    v3(-1.0, 1.0, z),
                ]
            };
            let (red, blue) = (rgb(200, 0, 0), rgb(0, 0, 200));
            let n = v3(0.0, 0.0, -1.0);
            if near_first {
                s.quad(quad(3.0), n, red, Shade::Flat);
                s.quad(quad(6.0), n, blue, Shade::Flat);
            } else {
                s.quad(quad(6.0), n, blue, Shade::Flat);
                s.quad(quad(3.0), n, red, Shade::Flat);
            }
            s.draw(&mut pm, true);
            assert_eq!(pixel(&pm, 100, 50), [200, 0, 0]);
            assert_eq!(pixel(&pm, 0, 0), [0, 0, 0], "outside both quads");
        }
    }

    #[test]
    fn back_faces_are_culled_and_a_cube_shows_at_most_three_faces() {
        let mut s = Scene::new(cam());
        s.cuboid1(v3(1.0, -2.0, 4.0), v3(2.0, -1.0, 5.0), rgb(100, 100, 100));
        assert_eq!(s.len(), 3, "left, top and front faces face the camera");
        let mut s = Scene::new(cam());
        s.cuboid1(v3(-0.5, -0.5, 4.0), v3(0.5, 0.5, 5.0), rgb(100, 100, 100));
        assert_eq!(s.len(), 1, "straight ahead only the front face shows");
    }

    #[test]
    fn faces_crossing_the_near_plane_are_clipped_not_dropped() {
        let mut pm = Pixmap::new(200, 100).unwrap();
        let mut s = Scene::new(cam());
        // A floor running from behind the camera to far ahead.
        s.quad(
            [
                v3(-5.0, -1.0, -5.0),
                v3(-5.0, -1.0, 50.0),
                v3(5.0, -1.0, 50.0),
                v3(5.0, -1.0, -5.0),
            ],
            v3(0.0, 1.0, 0.0),
            rgb(0, 180, 0),
            Shade::Flat,
        );
        assert_eq!(s.len(), 1);
        s.draw(&mut pm, true);
        assert_eq!(pixel(&pm, 100, 99), [0, 180, 0], "floor fills the bottom");
        assert_eq!(pixel(&pm, 100, 10), [0, 0, 0], "nothing above the horizon");
    }

    #[test]
    fn shared_edges_leave_no_gaps_or_double_writes() {
        // Two triangles of one square: every pixel inside gets exactly one.
        let mut pm = Pixmap::new(200, 100).unwrap();
        let mut s = Scene::new(cam());
        let (a, b, c, d) = (
            v3(-1.3, -0.7, 3.0),
            v3(1.1, -0.9, 3.0),
            v3(1.2, 1.05, 3.0),
            v3(-0.8, 0.9, 3.0),
        );
        let n = v3(0.0, 0.0, -1.0);
        s.face(&[a, b, c], n, rgb(255, 0, 0), Shade::Flat, false);
        s.face(&[a, c, d], n, rgb(0, 0, 255), Shade::Flat, false);
        s.draw(&mut pm, false);
        let mut whole = Pixmap::new(200, 100).unwrap();
        let mut s = Scene::new(cam());
        s.face(&[a, b, c, d], n, rgb(0, 255, 0), Shade::Flat, false);
        s.draw(&mut whole, false);
        let lit = |p: &Pixmap| p.data().chunks(4).filter(|c| c[..3] != [0, 0, 0]).count();
        assert!(lit(&whole) > 1000);
        assert_eq!(lit(&pm), lit(&whole));
    }

    #[test]
    fn light_and_fog_shade_faces() {
        let mut s = Scene::new(cam());
        let base = rgb(200, 200, 200);
        let top = s.shade(base, v3(0.0, 1.0, 0.0), 1.0, Shade::Lit);
        let bottom = s.shade(base, v3(0.0, -1.0, 0.0), 1.0, Shade::Lit);
        assert!(top.0 > bottom.0);
        assert_eq!(bottom, scale(base, s.light.ambient));
        s.fog = Some(Fog {
            color: rgb(10, 20, 30),
            start: 10.0,
            end: 20.0,
        });
        assert_eq!(
            s.shade(base, v3(0.0, 1.0, 0.0), 25.0, Shade::Flat),
            rgb(10, 20, 30)
        );
        assert_eq!(s.shade(base, v3(0.0, 1.0, 0.0), 5.0, Shade::Flat), base);
    }

    #[test]
    fn depth_ramp_matches_the_serial_sums_bit_for_bit() {
        let mut rng = gw_core::Rng::new(3, 19);
        let mut out = [0f32; CHUNK];
        let mut serial = [0f32; CHUNK];
        let (mut mismatches, mut guessed) = (0, 0);
        for case in 0..20_000 {
            // Depths on and near binade edges, steps of every size and
            // sign, so both the guess and the serial fallback are used.
            let z = match case % 4 {
                0 => rng.range_f64(0.001, 2.0) as f32,
                1 => (1u32 << rng.below(6)) as f32 / 64.0,
                _ => rng.range_f64(-1.0, 1.0) as f32,
            };
            let s = match case % 3 {
                0 => rng.range_f64(-1e-3, 1e-3) as f32,
                1 => (rng.range_f64(-1.0, 1.0) * libm::pow(2.0, -(rng.below(30) as f64))) as f32,
                _ => z * rng.range_f64(-0.3, 0.3) as f32,
            };
            let next = depth_ramp(z, s, &mut out);
            let want = depth_ramp_serial(z, s, &mut serial);
            // Bit for bit, except that a zero may differ in sign (no
            // comparison can tell).
            let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0);
            for (o, w) in out.iter().zip(&serial) {
                mismatches += !same(*o, *w) as u32;
            }
            mismatches += !same(next, want) as u32;
            let d = (z + s) - z;
            guessed += (1..CHUNK).all(|j| z + j as f32 * d == serial[j]) as u32;
        }
        assert_eq!(mismatches, 0);
        assert!(guessed > 10_000 && guessed < 20_000, "{guessed}");
    }

    #[test]
    fn band_lists_hold_the_faces_overlapping_each_band_in_order() {
        let mut s = Scene::new(cam());
        s.quad(
            [
                v3(-5.0, -1.0, 1.0),
                v3(-5.0, -1.0, 50.0),
                v3(5.0, -1.0, 50.0),
                v3(5.0, -1.0, 1.0),
            ],
            v3(0.0, 1.0, 0.0),
            rgb(0, 180, 0),
            Shade::Flat,
        );
        for i in 0..30 {
            let (x, y) = (i as f64 * 0.37 - 5.0, (i % 7) as f64 * 0.6 - 2.0);
            let z = 2.0 + (i % 5) as f64;
            s.cuboid1(
                v3(x, y, z),
                v3(x + 0.4, y + 0.3 * i as f64 * 0.1, z + 0.5),
                rgb(9, 9, 9),
            );
        }
        assert!(s.len() > 40);
        // A clip that starts and ends inside faces and leaves a short last band.
        let (y_beg, y_end) = (3, 97);
        let (starts, list) = band_lists(&s.faces, y_beg, y_end);
        let (mut band0, mut k) = (y_beg, 0);
        while band0 < y_end {
            let band1 = (band0 + BAND).min(y_end);
            let want: Vec<u32> = (0..s.faces.len() as u32)
                .filter(|&i| {
                    // The test the band loop made before (faces with no
                    // pixel row, listed nowhere now, drew nothing then).
                    let f = &s.faces[i as usize];
                    f.rows.1 > band0 && f.rows.0 < band1 && f.rows.0 < f.rows.1
                })
                .collect();
            assert_eq!(list[starts[k] as usize..starts[k + 1] as usize], want[..]);
            (band0, k) = (band1, k + 1);
        }
        assert_eq!(starts.len(), k + 1);
        assert!(list.len() > s.len(), "some faces span several bands");
    }

    #[test]
    fn a_sparse_backdrop_draws_the_same_pixels_as_its_layer() {
        let mut layer = Pixmap::new(200, 80).unwrap();
        crate::draw::clear(&mut layer, rgb(8, 8, 22));
        for (x, y) in [(0, 0), (199, 79), (50, 20), (51, 20), (120, 60)] {
            crate::draw::rect(&mut layer, x as f32, y as f32, 1.0, 1.0, rgb(200, 200, 220));
        }
        let sparse = SparseLayer::new(&layer, rgb(8, 8, 22));
        assert_eq!(sparse.dots.len(), 5);
        let frame = |back: Backdrop| {
            let mut pm = Pixmap::new(200, 100).unwrap();
            let mut c = cam();
            c.screen = (0, 20, 200, 80);
            let mut s = Scene::new(c);
            s.cuboid1(v3(-0.5, -0.5, 4.0), v3(0.5, 0.5, 5.0), rgb(100, 100, 100));
            s.draw_over(&mut pm, true, Some(back));
            pm
        };
        let (a, b) = (
            frame(Backdrop::Layer(&layer)),
            frame(Backdrop::Sparse(&sparse)),
        );
        assert_eq!(a.data(), b.data());
        assert_eq!(pixel(&a, 50, 40), [200, 200, 220], "a star shows");
        assert_eq!(pixel(&a, 0, 10), [0, 0, 0], "above the screen rectangle");
    }

    /// `Auto` spreads bands from an ordinary thread, never from one of
    /// rayon's workers (a suite's parallel runs), and never for one band.
    #[test]
    fn auto_bands_stay_serial_on_rayon_workers() {
        let tall = 8 * BAND;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool of two");
        assert!(pool.install(|| BandMode::Parallel.parallel(tall)));
        assert!(!pool.install(|| BandMode::Auto.parallel(tall)));
        let outside = std::thread::spawn(move || {
            (
                BandMode::Auto.parallel(tall),
                BandMode::Auto.parallel(BAND),
                rayon::current_num_threads() > 1,
            )
        })
        .join()
        .expect("thread ran");
        assert_eq!(outside.0, outside.2);
        assert!(!outside.1);
    }

    #[test]
    fn serial_and_parallel_bands_draw_the_same_pixels() {
        // A screen rectangle that starts and ends mid-band (a short last
        // band), overlapping faces of every size, each entry point.
        let (w, h) = (300, 230);
        let mut c = cam();
        c.screen = (7, 13, 280, 201);
        c.roll = 0.15;
        c.pitch = -0.2;
        let fill = |s: &mut Scene| {
            s.quad(
                [
                    v3(-6.0, -1.0, -2.0),
                    v3(-6.0, -1.0, 40.0),
                    v3(6.0, -1.0, 40.0),
                    v3(6.0, -1.0, -2.0),
                ],
                v3(0.0, 1.0, 0.0),
                rgb(40, 150, 60),
                Shade::Lit,
            );
            for i in 0..60 {
                let x = (i % 9) as f64 * 0.9 - 4.0;
                let z = 2.0 + (i * 7 % 23) as f64 * 0.8;
                let y = -1.0 + (i % 4) as f64 * 0.35;
                s.cuboid1(
                    v3(x, y, z),
                    v3(x + 0.6, y + 0.5 + (i % 3) as f64, z + 0.7),
                    rgb(200 - i as u8, 90 + i as u8, 40 + 2 * i as u8),
                );
            }
        };
        let mut layer = Pixmap::new(280, 201).unwrap();
        crate::draw::clear(&mut layer, rgb(8, 8, 22));
        for i in 0..200u32 {
            let (x, y) = (i * 37 % 280, i * 53 % 201);
            crate::draw::rect(
                &mut layer,
                x as f32,
                y as f32,
                1.0,
                1.0,
                rgb(i as u8, 200, 220),
            );
        }
        let sparse = SparseLayer::new(&layer, rgb(8, 8, 22));
        let frames = |mode: BandMode| {
            with_band_mode(mode, || {
                let mut out = Vec::new();
                for depth_test in [true, false] {
                    for back in [
                        None,
                        Some(Backdrop::Layer(&layer)),
                        Some(Backdrop::Sparse(&sparse)),
                    ] {
                        let mut pm = Pixmap::new(w, h).unwrap();
                        crate::draw::clear(&mut pm, rgb(1, 2, 3));
                        let mut s = Scene::new(c);
                        fill(&mut s);
                        s.draw_over(&mut pm, depth_test, back);
                        out.push(pm.data().to_vec());
                    }
                }
                let mut pm = Pixmap::new(w, h).unwrap();
                let (mut s, mut under) = (Scene::new(c), Scene::new(c));
                fill(&mut s);
                fill(&mut under);
                s.draw_over_scene(&mut pm, &mut under, rgb(90, 120, 200));
                out.push(pm.data().to_vec());
                out
            })
        };
        let serial = frames(BandMode::Serial);
        assert_eq!(serial, frames(BandMode::Parallel));
        assert_eq!(serial, frames(BandMode::Auto));
        // The backdrop shows (a layer and its sparse form alike), the depth
        // test and the background scene change the picture, and the mode is
        // restored afterwards.
        assert_ne!(serial[0], serial[1]);
        assert_eq!(serial[1], serial[2]);
        assert_ne!(serial[0], serial[3]);
        assert_ne!(serial[0], serial[6]);
        assert_eq!(BAND_MODE.with(|m| m.get()), BandMode::Auto);
    }

    #[test]
    fn frames_are_deterministic() {
        let render = || {
            let mut pm = Pixmap::new(200, 100).unwrap();
            let mut c = cam();
            c.roll = 0.2;
            c.pitch = -0.1;
            let mut s = Scene::new(c);
            for i in 0..20 {
                let x = i as f64 * 0.7 - 7.0;
                s.cuboid1(
                    v3(x, -1.0, 3.0 + i as f64),
                    v3(x + 0.5, -0.5, 3.5 + i as f64),
                    rgb(220, 120, 40),
                );
            }
            s.draw(&mut pm, true);
            pm.data().to_vec()
        };
        assert_eq!(render(), render());
    }
}
