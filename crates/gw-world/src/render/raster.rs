//! The rasterised view: chunk meshes, mob and item boxes drawn into a
//! depth buffer and an id buffer, then shaded pixel by pixel.
//!
//! See the module documentation of [`super`] for the design.

use super::mesh::{self, Face, SECTION};
use super::span::spans;
use super::*;

/// Depth (along the view direction) at which faces are clipped: a face
/// nearer than this is cut there (the eye is never closer than 0.3 blocks
/// to a solid face).
const NEAR: f64 = 0.01;

/// Rows per band when the screen is drawn on several threads.
const BAND_ROWS: usize = 16;

/// What a primitive is.
#[derive(Clone, Copy, Debug)]
enum What {
    /// A block face: the cell, its block, the face's axis and side, the
    /// light on it (brightness times the face's shade).
    Block {
        cell: [i32; 3],
        block: BlockId,
        axis: u8,
        positive: bool,
        bright: f32,
    },
    /// Face (`axis`, `far`) of box `i` of the scene.
    Box { i: u32, axis: u8, far: bool },
}

/// One planar face to draw: its screen polygon and its plane as the
/// reciprocal depth of each pixel's ray, `1/z = (a + b·sx + c·sy)·k`.
#[derive(Clone, Copy, Debug)]
struct Prim {
    what: What,
    plane: [f64; 4],
    /// Whether some texels are see-through (tested per pixel).
    cutout: bool,
    /// Rows `y0..y1` it may cover.
    rows: (u16, u16),
    poly: [[f64; 2]; 8],
    n: u8,
}

impl Prim {
    #[inline(always)]
    fn inv(&self, sx: f64, sy: f64) -> f64 {
        (self.plane[0] + self.plane[1] * sx + self.plane[2] * sy) * self.plane[3]
    }
}

/// Per block id: whether any texel of any of its faces is see-through.
fn cutouts() -> &'static [bool; 256] {
    static T: OnceLock<[bool; 256]> = OnceLock::new();
    T.get_or_init(|| {
        let tex = textures();
        let mut t = [false; 256];
        for (id, c) in t.iter_mut().enumerate() {
            *c = (0..3).any(|f| {
                tex.texels
                    .get(id * 3 + f)
                    .is_some_and(|tx| tx.iter().any(|p| p[3] == 0))
            });
        }
        t
    })
}

/// The texture face (0 top, 1 side, 2 bottom) of a face across `axis` on
/// its `positive` side.
#[inline]
fn tex_face(axis: usize, positive: bool) -> usize {
    match (axis, positive) {
        (1, true) => 0,
        (1, false) => 2,
        _ => 1,
    }
}

/// Per-frame buffers, kept per thread between frames.
#[derive(Default)]
struct Buffers {
    depth: Vec<f32>,
    water: Vec<f32>,
    ids: Vec<u32>,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// No primitive at a pixel.
const NONE: u32 = u32::MAX;

/// A frame's primitives and what is needed to shade them.
pub(crate) struct Frame<'a> {
    scene: Scene<'a>,
    w: usize,
    h: usize,
    cols: Vec<f64>,
    rows: Vec<f64>,
    prims: Vec<Prim>,
    water: Vec<Prim>,
    /// Whether the eye is in water (every ray starts in it).
    eye_in_water: bool,
}

impl<'a> Frame<'a> {
    /// The primitives of `world`'s view at `w` × `h` rays.
    pub(crate) fn new(world: &'a World, w: usize, h: usize) -> Frame<'a> {
        let scene = Scene::new(world, w, h);
        let cols: Vec<f64> = (0..w).map(|x| screen_x(x, w, scene.tan_x)).collect();
        let rows: Vec<f64> = (0..h).map(|y| screen_y(y, h, scene.tan_y)).collect();
        let ec = scene.eye_cell;
        let eye_in_water = scene.terrain.get(ec[0], ec[1], ec[2]) == b::WATER;
        let mut f = Frame {
            scene,
            w,
            h,
            cols,
            rows,
            prims: Vec::new(),
            water: Vec::new(),
            eye_in_water,
        };
        f.collect_terrain();
        f.collect_boxes();
        f
    }

    /// Camera-space coordinates (depth, right, up) of world point `p`.
    #[inline(always)]
    fn cam(&self, p: [f64; 3]) -> [f64; 3] {
        let s = &self.scene;
        let d = [p[0] - s.eye[0], p[1] - s.eye[1], p[2] - s.eye[2]];
        let dot = |e: [f64; 3]| d[0] * e[0] + d[1] * e[1] + d[2] * e[2];
        [dot(s.f), dot(s.r), dot(s.u)]
    }

    /// The screen polygon of a convex face given by its camera-space
    /// corners, clipped at [`NEAR`]; `None` when nothing of it is on the
    /// screen.
    fn project(&self, cs: &[[f64; 3]]) -> Option<([[f64; 2]; 8], u8, (u16, u16))> {
        let s = &self.scene;
        let (w, h) = (self.w as f64, self.h as f64);
        let mut clipped = [[0.0f64; 3]; 8];
        let mut m = 0;
        let all_in = cs.iter().all(|c| c[0] >= NEAR);
        if all_in {
            clipped[..cs.len()].copy_from_slice(cs);
            m = cs.len();
        } else {
            for i in 0..cs.len() {
                let (p, q) = (cs[i], cs[(i + 1) % cs.len()]);
                if p[0] >= NEAR {
                    clipped[m] = p;
                    m += 1;
                }
                if (p[0] >= NEAR) != (q[0] >= NEAR) {
                    let t = (NEAR - p[0]) / (q[0] - p[0]);
                    clipped[m] = [NEAR, p[1] + (q[1] - p[1]) * t, p[2] + (q[2] - p[2]) * t];
                    m += 1;
                }
            }
            if m < 3 {
                return None;
            }
        }
        let mut poly = [[0.0f64; 2]; 8];
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for (o, c) in poly.iter_mut().zip(&clipped[..m]) {
            let px = (c[1] / c[0] / s.tan_x + 1.0) / 2.0 * w;
            let py = (1.0 - c[2] / c[0] / s.tan_y) / 2.0 * h;
            *o = [px, py];
            x0 = x0.min(px);
            x1 = x1.max(px);
            y0 = y0.min(py);
            y1 = y1.max(py);
        }
        if x1 < 0.0 || x0 > w || y1 < 0.0 || y0 > h {
            return None;
        }
        let row = |v: f64| (v - 0.5).clamp(0.0, h).ceil() as u16;
        let rows = (row(y0), (row(y1) + 1).min(self.h as u16));
        (rows.0 < rows.1).then_some((poly, m as u8, rows))
    }

    /// Whether the box `lo`..`hi` may hold a point of the view within the
    /// view distance (in front of the near plane, inside the four side
    /// planes of the view pyramid).
    fn box_in_view(&self, lo: [f64; 3], hi: [f64; 3]) -> bool {
        let s = &self.scene;
        let e = s.eye;
        let gap = |k: usize| (lo[k] - e[k]).max(e[k] - hi[k]).max(0.0);
        let (gx, gy, gz) = (gap(0), gap(1), gap(2));
        if gx * gx + gy * gy + gz * gz > (VIEW_DISTANCE + 0.01) * (VIEW_DISTANCE + 0.01) {
            return false;
        }
        // Planes through the eye, normals pointing into the view.
        let planes = [
            add(scaled(s.f, s.tan_x), scaled(s.r, -1.0)),
            add(scaled(s.f, s.tan_x), s.r),
            add(scaled(s.f, s.tan_y), scaled(s.u, -1.0)),
            add(scaled(s.f, s.tan_y), s.u),
            s.f,
        ];
        planes.iter().all(|n| {
            // The box's corner farthest along n.
            let p = [0, 1, 2].map(|k| if n[k] >= 0.0 { hi[k] } else { lo[k] } - e[k]);
            n[0] * p[0] + n[1] * p[1] + n[2] * p[2] > -1e-9
        })
    }

    /// The block and water faces of every loaded chunk's mesh that face
    /// the eye within the view.
    fn collect_terrain(&mut self) {
        let s = &self.scene;
        let e = s.eye;
        let reach = VIEW_DISTANCE + 1.0;
        let span = |v: f64| {
            (
                libm::floor((v - reach) / CHUNK as f64) as i32,
                libm::floor((v + reach) / CHUNK as f64) as i32,
            )
        };
        let ((x0, x1), (z0, z1)) = (span(e[0]), span(e[2]));
        let terrain = s.terrain;
        let mut prims = std::mem::take(&mut self.prims);
        let mut water = std::mem::take(&mut self.water);
        for cx in x0..=x1 {
            for cz in z0..=z1 {
                let Some(c) = terrain.chunk(cx, cz) else {
                    continue;
                };
                let (ox, oz) = (cx * CHUNK, cz * CHUNK);
                if !self.box_in_view(
                    [ox as f64, 0.0, oz as f64],
                    [(ox + CHUNK) as f64, c.top() as f64, (oz + CHUNK) as f64],
                ) {
                    continue;
                }
                let m = mesh::of(terrain, c);
                for (si, sec) in m.sections.iter().enumerate() {
                    if sec.is_empty() {
                        continue;
                    }
                    let oy = si as i32 * SECTION;
                    let lo = [ox as f64, oy as f64, oz as f64];
                    let hi = [(ox + CHUNK) as f64, (oy + SECTION) as f64, (oz + CHUNK) as f64];
                    if !self.box_in_view(lo, hi) {
                        continue;
                    }
                    let origin = [ox, 0, oz];
                    for dir in 0..6 {
                        self.faces(c, &sec.faces[dir], dir, origin, false, &mut prims);
                        self.faces(c, &sec.water[dir], dir, origin, true, &mut water);
                    }
                }
            }
        }
        self.prims = prims;
        self.water = water;
    }

    /// Adds the faces of `list` (direction `dir`, sorted along its axis)
    /// that face the eye and land on the screen.
    fn faces(
        &self,
        c: &Chunk,
        list: &[Face],
        dir: usize,
        origin: [i32; 3],
        water: bool,
        out: &mut Vec<Prim>,
    ) {
        if list.is_empty() {
            return;
        }
        let s = &self.scene;
        let (axis, positive) = (dir / 2, dir % 2 == 1);
        let e = s.eye[axis] - origin[axis] as f64;
        // Faces on the positive side (plane at c + 1) face the eye when it
        // is beyond them; those on the negative side (plane at c) when it is
        // before them.
        let run = if positive {
            &list[..list.partition_point(|f| (f.along(axis) as f64 + 1.0) < e)]
        } else {
            &list[list.partition_point(|f| f.along(axis) as f64 <= e)..]
        };
        if run.is_empty() {
            return;
        }
        // The other two axes, in the order that walks the face's corners
        // around it.
        let (j, k) = match axis {
            0 => (1, 2),
            1 => (2, 0),
            _ => (0, 1),
        };
        let unit = |a: usize| [s.f[a], s.r[a], s.u[a]];
        let (uj, uk) = (unit(j), unit(k));
        let cut = cutouts();
        let reach2 = (VIEW_DISTANCE + 0.9) * (VIEW_DISTANCE + 0.9);
        // Plane coefficients shared by the whole list: n = e_axis.
        let (pa, pb, pc) = (s.f[axis], s.r[axis], s.u[axis]);
        for f in run {
            let cell = [
                origin[0] + f.x as i32,
                f.y as i32,
                origin[2] + f.z as i32,
            ];
            let centre = [0, 1, 2].map(|a| cell[a] as f64 + 0.5 - s.eye[a]);
            if centre[0] * centre[0] + centre[1] * centre[1] + centre[2] * centre[2] > reach2 {
                continue;
            }
            let mut p = cell.map(|v| v as f64);
            if positive {
                p[axis] += 1.0;
            }
            let c0 = self.cam(p);
            let add3 = |a: [f64; 3], b: [f64; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
            let c1 = add3(c0, uj);
            let c2 = add3(c1, uk);
            let c3 = add3(c0, uk);
            let Some((poly, n, rows)) = self.project(&[c0, c1, c2, c3]) else {
                continue;
            };
            let plane_at = p[axis] - s.eye[axis];
            let what = if water {
                What::Block {
                    cell,
                    block: b::WATER,
                    axis: axis as u8,
                    positive,
                    bright: 1.0,
                }
            } else {
                let mut nb = cell;
                nb[axis] += if positive { 1 } else { -1 };
                let (sky, bl) = light_near(s.terrain, c, nb);
                let shade = match (axis, positive) {
                    (1, true) => 1.0,
                    (1, false) => 0.55,
                    (0, _) => 0.8,
                    _ => 0.9,
                };
                What::Block {
                    cell,
                    block: f.block,
                    axis: axis as u8,
                    positive,
                    bright: shade * light::brightness(sky, bl, s.light),
                }
            };
            out.push(Prim {
                what,
                plane: [pa, pb, pc, 1.0 / plane_at],
                cutout: !water && cut[f.block as usize],
                rows,
                poly,
                n,
            });
        }
    }

    /// The faces of the mobs' and items' boxes that face the eye.
    fn collect_boxes(&mut self) {
        let s = &self.scene;
        let mut out = Vec::new();
        for (i, bx) in s.boxes.iter().enumerate() {
            let sh = &bx.shape;
            let corners = sh.corners();
            let cams = corners.map(|p| self.cam(p));
            for axis in 0..3 {
                let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
                for far in [false, true] {
                    let sign = if far { 1.0 } else { -1.0 };
                    let n = sh.axes[axis].map(|v| v * sign);
                    let p0 = if far {
                        add(sh.corner, scaled(sh.axes[axis], sh.size[axis]))
                    } else {
                        sh.corner
                    };
                    let to_eye = [0, 1, 2].map(|a| s.eye[a] - p0[a]);
                    let facing = n[0] * to_eye[0] + n[1] * to_eye[1] + n[2] * to_eye[2];
                    if facing <= 0.0 {
                        continue;
                    }
                    let base = if far { 1 << axis } else { 0 };
                    let quad = [
                        cams[base],
                        cams[base | 1 << j],
                        cams[base | 1 << j | 1 << k],
                        cams[base | 1 << k],
                    ];
                    let Some((poly, m, rows)) = self.project(&quad) else {
                        continue;
                    };
                    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
                    // n·(eye + d·z) = n·p0  ⇒  1/z = n·d / n·(p0 - eye).
                    out.push(Prim {
                        what: What::Box {
                            i: i as u32,
                            axis: axis as u8,
                            far,
                        },
                        plane: [dot(n, s.f), dot(n, s.r), dot(n, s.u), 1.0 / -facing],
                        cutout: false,
                        rows,
                        poly,
                        n: m,
                    });
                }
            }
        }
        self.prims.extend(out);
    }

    /// For a see-through block face, whether the texel its pixel ray
    /// (screen offsets `sx`, `sy`) meets at reciprocal depth `inv` is
    /// opaque.
    #[inline]
    fn opaque_texel(&self, p: &Prim, sx: f64, sy: f64, inv: f64) -> bool {
        let What::Block {
            cell,
            block,
            axis,
            positive,
            ..
        } = p.what
        else {
            return true;
        };
        let (_, _, tu, tv) = self.block_uv(cell, axis as usize, sx, sy, inv);
        let face = tex_face(axis as usize, positive);
        self.scene.tex.texels[block as usize * 3 + face][tv * TEX + tu][3] != 0
    }

    /// Where the ray with screen offsets `sx`, `sy` meets the face of
    /// `cell` across `axis` at reciprocal depth `inv`: the face coordinates
    /// `uu`, `vv` in `0..1` and the texel, as the ray caster's `shade`
    /// takes them.
    #[inline(always)]
    fn block_uv(
        &self,
        cell: [i32; 3],
        axis: usize,
        sx: f64,
        sy: f64,
        inv: f64,
    ) -> (f64, f64, usize, usize) {
        let s = &self.scene;
        let z = 1.0 / inv;
        let d = |k: usize| s.f[k] + s.r[k] * sx + s.u[k] * sy;
        let frac = |k: usize| (s.eye[k] + d(k) * z - cell[k] as f64).clamp(0.0, 0.9999);
        let (uu, vv) = match axis {
            0 => (frac(2), 1.0 - frac(1)),
            1 => (frac(0), frac(2)),
            _ => (frac(0), 1.0 - frac(1)),
        };
        let (tu, tv) = (
            ((uu * TEX as f64) as i32 as usize).min(TEX - 1),
            ((vv * TEX as f64) as i32 as usize).min(TEX - 1),
        );
        (uu, vv, tu, tv)
    }

    /// Draws rows `y0..y1` into the band's buffers (`depth`, `water`, `ids`:
    /// those rows only).
    fn draw_rows(&self, y0: usize, y1: usize, depth: &mut [f32], water: &mut [f32], ids: &mut [u32]) {
        let w = self.w;
        depth.fill(0.0);
        water.fill(0.0);
        ids.fill(NONE);
        let (cols, rows) = (&self.cols[..], &self.rows[..]);
        for (pi, p) in self.prims.iter().enumerate() {
            if (p.rows.1 as usize) <= y0 || (p.rows.0 as usize) >= y1 {
                continue;
            }
            spans(&p.poly[..p.n as usize], w, (y0, y1), |y, xa, xb| {
                let sy = rows[y];
                let base = (p.plane[0] + p.plane[2] * sy) * p.plane[3];
                let step = p.plane[1] * p.plane[3];
                let line = (y - y0) * w;
                for x in xa..xb {
                    let sx = cols[x];
                    let inv = if p.cutout { p.inv(sx, sy) } else { base + step * sx };
                    let v = inv as f32;
                    let k = line + x;
                    if v > depth[k] && (!p.cutout || self.opaque_texel(p, sx, sy, inv)) {
                        depth[k] = v;
                        ids[k] = pi as u32;
                    }
                }
            });
        }
        for p in &self.water {
            if (p.rows.1 as usize) <= y0 || (p.rows.0 as usize) >= y1 {
                continue;
            }
            spans(&p.poly[..p.n as usize], w, (y0, y1), |y, xa, xb| {
                let sy = rows[y];
                let line = (y - y0) * w;
                for x in xa..xb {
                    let v = p.inv(cols[x], sy) as f32;
                    let k = line + x;
                    if v > depth[k] && v > water[k] {
                        water[k] = v;
                    }
                }
            });
        }
    }

    /// Draws the whole view into the thread's buffers and calls `shade`
    /// with them: per ray (row-major) the reciprocal depth of the nearest
    /// face, of the nearest water surface before it, and the primitive.
    fn draw<R>(&self, parallel: bool, shade: impl FnOnce(&[f32], &[f32], &[u32]) -> R) -> R {
        let (w, h) = (self.w, self.h);
        BUFFERS.with(|cell| {
            let mut bufs = cell.borrow_mut();
            let Buffers { depth, water, ids } = &mut *bufs;
            depth.resize(w * h, 0.0);
            water.resize(w * h, 0.0);
            ids.resize(w * h, NONE);
            if parallel && h > BAND_ROWS && w > 0 {
                depth
                    .par_chunks_mut(w * BAND_ROWS)
                    .zip(water.par_chunks_mut(w * BAND_ROWS))
                    .zip(ids.par_chunks_mut(w * BAND_ROWS))
                    .enumerate()
                    .for_each(|(b, ((d, wa), id))| {
                        let y0 = b * BAND_ROWS;
                        self.draw_rows(y0, (y0 + BAND_ROWS).min(h), d, wa, id);
                    });
            } else {
                self.draw_rows(0, h, &mut depth[..w * h], &mut water[..w * h], &mut ids[..w * h]);
            }
            shade(&depth[..w * h], &water[..w * h], &ids[..w * h])
        })
    }

    /// What ray (`x`, `y`) shows, from its primitive and reciprocal depth.
    fn pick_of(&self, id: u32, x: usize, y: usize) -> Pick {
        if id == NONE {
            return Pick::Sky;
        }
        let p = &self.prims[id as usize];
        let (sx, sy) = (self.cols[x], self.rows[y]);
        let len = (1.0 + sx * sx + sy * sy).sqrt();
        if len / p.inv(sx, sy) > VIEW_DISTANCE {
            return Pick::Sky;
        }
        match p.what {
            What::Block { cell, block, .. } => Pick::Block {
                id: block,
                pos: cell,
            },
            What::Box { i, .. } => self.scene.boxes[i as usize].who,
        }
    }

    /// The colour of ray (`x`, `y`).
    #[inline]
    fn color(&self, id: u32, water_inv: f32, x: usize, y: usize) -> [u8; 3] {
        let s = &self.scene;
        let (sx, sy) = (self.cols[x], self.rows[y]);
        let len = (1.0 + sx * sx + sy * sy).sqrt();
        let water = if self.eye_in_water {
            Some(0.0)
        } else if water_inv > 0.0 {
            Some(len / water_inv as f64)
        } else {
            None
        };
        let d = [
            s.f[0] + s.r[0] * sx + s.u[0] * sy,
            s.f[1] + s.r[1] * sx + s.u[1] * sy,
            s.f[2] + s.r[2] * sx + s.u[2] * sy,
        ];
        let sky = || {
            let du = d.map(|v| v / len);
            // Fogged as far as the ray's way out of the world's top.
            let t = if du[1] > 0.0 && s.eye[1] < HEIGHT as f64 {
                (HEIGHT as f64 - s.eye[1]) / du[1]
            } else {
                f64::INFINITY
            };
            (s.sky(du), t)
        };
        if id == NONE {
            let (c, t) = sky();
            let t = if water.is_some() { t.max(VIEW_DISTANCE + 1.0) } else { t };
            return s.fogged(c, t, water);
        }
        let p = &self.prims[id as usize];
        let inv = p.inv(sx, sy);
        let t = len / inv;
        if t > VIEW_DISTANCE {
            return s.fogged(sky().0, f64::INFINITY, water);
        }
        let c = match p.what {
            What::Block {
                cell,
                block,
                axis,
                positive,
                bright,
            } => {
                let axis = axis as usize;
                let (uu, vv, tu, tv) = self.block_uv(cell, axis, sx, sy, inv);
                let e = 0.04;
                if s.target == Some(cell) && (uu < e || uu > 1.0 - e || vv < e || vv > 1.0 - e) {
                    [0.05, 0.05, 0.05]
                } else {
                    let face = tex_face(axis, positive);
                    let tx = s.tex.texels[block as usize * 3 + face][tv * TEX + tu];
                    let mut k = bright;
                    if let Some((bp, prog)) = s.breaking
                        && bp == cell
                        && unit(9, tu as i32, tv as i32, 3) < prog * 0.8
                    {
                        k *= 0.35;
                    }
                    [
                        tx[0] as f32 / 255.0 * k,
                        tx[1] as f32 / 255.0 * k,
                        tx[2] as f32 / 255.0 * k,
                    ]
                }
            }
            What::Box { i, axis, far } => {
                let bx = &s.boxes[i as usize];
                let z = 1.0 / inv;
                let hit = [0, 1, 2].map(|k| s.eye[k] + d[k] * z - bx.shape.corner[k]);
                let at = bx.shape.axes.map(|a| a[0] * hit[0] + a[1] * hit[1] + a[2] * hit[2]);
                bx.color(d, axis as usize, far, at)
            }
        };
        s.fogged(c, t, water)
    }
}

/// The light of cell `p` (as [`light::at`]), read from chunk `c` when it
/// holds the cell.
#[inline]
fn light_near(t: &Terrain, c: &Chunk, p: [i32; 3]) -> (u8, u8) {
    if (0..HEIGHT).contains(&p[1]) && p[0] >> 4 == c.cx && p[2] >> 4 == c.cz {
        let v = c.light[(((p[0] & 15) * CHUNK + (p[2] & 15)) * HEIGHT + p[1]) as usize];
        (v >> 4, v & 15)
    } else {
        light::at(t, p[0], p[1], p[2])
    }
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scaled(a: [f64; 3], k: f64) -> [f64; 3] {
    a.map(|v| v * k)
}

/// The rasterised view of `world` with one ray per `block` × `block`
/// pixels, HUD over it, into `out` (RGBA, `w*h*4` bytes).
pub(crate) fn render(world: &World, w: usize, h: usize, block: usize, out: &mut [u8], parallel: bool) {
    assert_eq!(out.len(), w * h * 4, "buffer is w*h*4 bytes");
    assert!(block >= 1, "block is at least 1 pixel");
    let (tw, th) = (w.div_ceil(block), h.div_ceil(block));
    let frame = Frame::new(world, tw, th);
    let layer = hud::layer(world, w, h);
    frame.draw(parallel, |_, water, ids| {
        let band = |ty: usize, rows: &mut [u8]| {
            let line = &mut rows[..w * 4];
            for (tx, square) in line.chunks_mut(block * 4).enumerate() {
                let k = ty * tw + tx;
                let c = frame.color(ids[k], water[k], tx, ty);
                let px = [c[0], c[1], c[2], 255];
                for p in square.chunks_exact_mut(4) {
                    p.copy_from_slice(&px);
                }
            }
            let (first, rest) = rows.split_at_mut(w * 4);
            for r in rest.chunks_exact_mut(w * 4) {
                r.copy_from_slice(first);
            }
        };
        if parallel {
            out.par_chunks_mut(w * 4 * block)
                .enumerate()
                .for_each(|(y, rows)| band(y, rows));
        } else {
            out.chunks_mut(w * 4 * block)
                .enumerate()
                .for_each(|(y, rows)| band(y, rows));
        }
    });
    hud::draw_over(world, &layer, out);
}

/// The pick buffer of the rasterised view at `w` × `h` (HUD aside).
pub(crate) fn picks(world: &World, w: usize, h: usize, parallel: bool) -> Vec<Pick> {
    let frame = Frame::new(world, w, h);
    frame.draw(parallel, |_, _, ids| {
        ids.iter()
            .enumerate()
            .map(|(k, &id)| frame.pick_of(id, k % w, k / w))
            .collect()
    })
}

/// How many primitives (block, box and water faces) the rasterised view
/// of `world` at `w` × `h` draws (for tests and measurements).
pub fn primitive_count(world: &World, w: usize, h: usize) -> usize {
    let f = Frame::new(world, w, h);
    f.prims.len() + f.water.len()
}

/// For tests: per pixel of the view at `w` × `h`, the nearest primitive
/// whose face the pixel's ray meets inside its bounds (ray against each
/// face's rectangle, no rasterisation), as a pick; `None` where the ray
/// passes within `margin` (in the face's units) of a face's edge or of a
/// tie, so the rasteriser's rounding may decide either way.
#[cfg(test)]
pub(crate) fn reference_picks(world: &World, w: usize, h: usize, margin: f64) -> Vec<Option<Pick>> {
    let f = Frame::new(world, w, h);
    let s = &f.scene;
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = (f.cols[x], f.rows[y]);
            let d = [0, 1, 2].map(|k| s.f[k] + s.r[k] * sx + s.u[k] * sy);
            let mut best: Option<(f64, Pick)> = None;
            let mut unsure = false;
            for p in &f.prims {
                let inv = p.inv(sx, sy);
                if inv <= 0.0 {
                    continue;
                }
                let z = 1.0 / inv;
                let hit = [0, 1, 2].map(|k| s.eye[k] + d[k] * z);
                // Face coordinates of the hit, and how far inside it is.
                let (inside, who) = match p.what {
                    What::Block { cell, block, axis, .. } => {
                        let a = axis as usize;
                        let m = (0..3)
                            .filter(|&k| k != a)
                            .map(|k| {
                                let v = hit[k] - cell[k] as f64;
                                v.min(1.0 - v)
                            })
                            .fold(f64::INFINITY, f64::min);
                        if p.cutout && m > margin && !f.opaque_texel(p, sx, sy, inv) {
                            continue;
                        }
                        if p.cutout && m > margin {
                            // Near a texel border the alpha may differ.
                            let (uu, vv, _, _) = f.block_uv(cell, a, sx, sy, inv);
                            let tb = |v: f64| {
                                let q = v * TEX as f64;
                                (q - libm::round(q)).abs() / TEX as f64
                            };
                            if tb(uu) < margin || tb(vv) < margin {
                                unsure = true;
                            }
                        }
                        (m, Pick::Block { id: block, pos: cell })
                    }
                    What::Box { i, axis, .. } => {
                        let bx = &s.boxes[i as usize];
                        let rel = [0, 1, 2].map(|k| hit[k] - bx.shape.corner[k]);
                        let m = (0..3)
                            .filter(|&k| k != axis as usize)
                            .map(|k| {
                                let a = bx.shape.axes[k];
                                let v = a[0] * rel[0] + a[1] * rel[1] + a[2] * rel[2];
                                v.min(bx.shape.size[k] - v)
                            })
                            .fold(f64::INFINITY, f64::min);
                        (m, bx.who)
                    }
                };
                if inside < -margin || z < NEAR {
                    continue;
                }
                if inside <= margin {
                    unsure = true;
                    continue;
                }
                match best {
                    Some((bz, _)) if (bz - z).abs() <= margin * z => unsure = true,
                    _ => {}
                }
                if best.is_none_or(|(bz, _)| z < bz) {
                    best = Some((z, who));
                }
            }
            let len = (1.0 + sx * sx + sy * sy).sqrt();
            let pick = match best {
                Some((z, _)) if (z * len - VIEW_DISTANCE).abs() <= margin * 10.0 => {
                    unsure = true;
                    Pick::Sky
                }
                Some((z, _)) if z * len > VIEW_DISTANCE => Pick::Sky,
                Some((_, who)) => who,
                None => Pick::Sky,
            };
            out.push((!unsure).then_some(pick));
        }
    }
    out
}

#[cfg(test)]
#[path = "raster_tests.rs"]
mod tests;
