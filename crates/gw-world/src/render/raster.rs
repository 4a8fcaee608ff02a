//! The rasterised view: chunk meshes, mob and item boxes drawn into a
//! depth buffer and an id buffer, then shaded pixel by pixel.
//!
//! See the module documentation of [`super`] for the design.

use super::mesh::{self, SECTION};
use super::span::spans;
use super::*;

/// Depth (along the view direction) at which faces are clipped: a face
/// nearer than this is cut there (the eye is never closer than 0.3 blocks
/// to a solid face).
const NEAR: f64 = 0.01;

/// Rows per band when the screen is drawn on several threads.
const BAND_ROWS: usize = 16;

/// A block face (a rectangle of cells of one block in one plane): its
/// first cell (least corner), its block, the face's axis and side and how
/// many cells it spans along each axis (1 across its own).
#[derive(Clone, Copy, Debug)]
struct BlockFace {
    cell: [i32; 3],
    block: BlockId,
    axis: u8,
    positive: bool,
    ext: [u8; 3],
}

/// What a primitive is.
#[derive(Clone, Copy, Debug)]
enum What {
    Block(BlockFace),
    /// Face (`axis`, `far`) of box `i` of the scene.
    Box {
        i: u32,
        axis: u8,
        far: bool,
    },
}

/// One planar face to draw: its screen polygon and its plane as the
/// reciprocal depth of each pixel's ray, `1/z = (a + b·sx + c·sy)·k`.
#[derive(Clone, Copy, Debug)]
struct Prim {
    what: What,
    plane: [f64; 4],
    /// Whether some texels are see-through (tested per pixel).
    cutout: bool,
    /// Rows `y0..y1` and columns `x0..x1` it may cover.
    rows: (u16, u16),
    cols: (u16, u16),
    /// The greatest reciprocal depth of its points (its nearest point).
    near: f32,
    poly: [[f64; 2]; 8],
    n: u8,
}

impl Prim {
    #[inline(always)]
    fn inv(&self, sx: f64, sy: f64) -> f64 {
        (self.plane[0] + self.plane[1] * sx + self.plane[2] * sy) * self.plane[3]
    }
}

/// A face's projection ([`Frame::project`]).
struct Shape {
    poly: [[f64; 2]; 8],
    n: u8,
    rows: (u16, u16),
    cols: (u16, u16),
    near: f32,
}

/// The first pixel whose centre is at or past `v`, clamped to `0..=n`.
#[inline(always)]
fn first(v: f64, n: usize) -> u16 {
    let c = v - 0.5;
    if c.is_nan() || c <= 0.0 {
        return 0;
    }
    if c >= n as f64 {
        return n as u16;
    }
    let t = c as u32;
    (if (t as f64) < c { t + 1 } else { t }) as u16
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

/// Side of the depth buffer's tiles kept for occlusion tests (pixels).
const TILE: usize = 4;

/// One band of rays (rows `y0..y1` of the view) being drawn: its buffers
/// (row-major over the band) and the primitives its ids point at. Kept per
/// thread between frames.
#[derive(Default)]
struct Band {
    y0: usize,
    y1: usize,
    /// Per ray, the reciprocal depth of the nearest face (0: none).
    depth: Vec<f32>,
    /// Per ray, the reciprocal depth of the nearest water surface in front
    /// of that face (0: none).
    water: Vec<f32>,
    /// Whether some ray of `water` holds a surface (else all are 0 and the
    /// buffer need not be cleared or read).
    wet: bool,
    /// Per ray, the index in `prims` of the nearest face ([`NONE`]: none).
    ids: Vec<u32>,
    prims: Vec<Prim>,
    /// Per tile of [`TILE`] × [`TILE`] rays, the least reciprocal depth
    /// (the farthest anything drawn there is), valid where not `stale`.
    tiles: Vec<f32>,
    stale: Vec<bool>,
}

thread_local! {
    static BANDS: std::cell::RefCell<Band> = std::cell::RefCell::default();
}

/// No primitive at a pixel.
const NONE: u32 = u32::MAX;

/// The light last computed while shading: primitive, cell, light.
type Lit = (u32, [i32; 3], f32);

/// A mesh section within view.
struct Sec<'a> {
    faces: &'a mesh::Section,
    origin: [i32; 3],
    lo: [f64; 3],
    hi: [f64; 3],
}

/// A frame's sections and boxes and what is needed to shade them.
pub(crate) struct Frame<'a> {
    scene: Scene<'a>,
    w: usize,
    h: usize,
    cols: Vec<f64>,
    rows: Vec<f64>,
    /// The mesh sections within view, nearest first.
    secs: Vec<Sec<'a>>,
    /// The faces of the mobs' and items' boxes turned to the eye.
    boxes: Vec<Prim>,
    /// Whether the eye is in water (every ray starts in it).
    eye_in_water: bool,
    /// The colour of every ray that meets nothing, where the world's top
    /// is beyond the view distance (the sky wholly fogged).
    flat_sky: Option<[u8; 3]>,
    /// [`light::brightness`] at this frame's daylight for every (sky,
    /// block) light pair, `sky * 16 + block`.
    bright: [f32; 256],
    /// The view pyramid's planes through the eye (normals pointing into
    /// the view): left, right, bottom, top, and the one across the view.
    planes: [[f64; 3]; 5],
}

impl<'a> Frame<'a> {
    /// The view of `world` at `w` × `h` rays.
    pub(crate) fn new(world: &'a World, w: usize, h: usize) -> Frame<'a> {
        let scene = Scene::new(world, w, h);
        let cols: Vec<f64> = (0..w).map(|x| screen_x(x, w, scene.tan_x)).collect();
        let rows: Vec<f64> = (0..h).map(|y| screen_y(y, h, scene.tan_y)).collect();
        let ec = scene.eye_cell;
        let planes = [
            add(scaled(scene.f, scene.tan_x), scaled(scene.r, -1.0)),
            add(scaled(scene.f, scene.tan_x), scene.r),
            add(scaled(scene.f, scene.tan_y), scaled(scene.u, -1.0)),
            add(scaled(scene.f, scene.tan_y), scene.u),
            scene.f,
        ];
        let eye_in_water = scene.terrain.get(ec[0], ec[1], ec[2]) == b::WATER;
        let mut f = Frame {
            scene,
            w,
            h,
            cols,
            rows,
            secs: Vec::new(),
            boxes: Vec::new(),
            eye_in_water,
            flat_sky: None,
            bright: [0.0; 256],
            planes,
        };
        // The brightness curve rises, so the brightness of a pair is the
        // greater of its sky light's and its block light's alone (the same
        // value as `light::brightness` of the pair): 32 curve values.
        let daylight = f.scene.light;
        let sky: [f32; 16] = std::array::from_fn(|i| light::brightness(i as u8, 0, daylight));
        let block: [f32; 16] = std::array::from_fn(|i| light::brightness(0, i as u8, daylight));
        for (i, b) in f.bright.iter_mut().enumerate() {
            *b = sky[i >> 4].max(block[i & 15]);
        }
        if HEIGHT as f64 - f.scene.eye[1] >= VIEW_DISTANCE {
            let fog = f.scene.sky_horizon;
            f.flat_sky = Some(fog.map(|c| (c * 255.0) as u8));
        }
        f.secs = f.sections();
        f.boxes = f.box_faces();
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
    /// corners, clipped at [`NEAR`]; `None` when it covers no pixel centre
    /// of the view.
    #[inline]
    fn project(&self, cs: &[[f64; 3]]) -> Option<Shape> {
        let s = &self.scene;
        let (w, h) = (self.w as f64, self.h as f64);
        let mut clipped = [[0.0f64; 3]; 8];
        let mut m = 0;
        if cs.iter().all(|c| c[0] >= NEAR) {
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
        let (kx, ky) = (w / (2.0 * s.tan_x), h / (2.0 * s.tan_y));
        let mut zmin = f64::MAX;
        for (o, c) in poly.iter_mut().zip(&clipped[..m]) {
            zmin = zmin.min(c[0]);
            let iz = 1.0 / c[0];
            let px = c[1] * iz * kx + w / 2.0;
            let py = h / 2.0 - c[2] * iz * ky;
            *o = [px, py];
            x0 = x0.min(px);
            x1 = x1.max(px);
            y0 = y0.min(py);
            y1 = y1.max(py);
        }
        // The first pixel centres at or past each bound: none between
        // them, no pixel covered.
        let (xa, xb) = (first(x0, self.w), first(x1, self.w));
        let (ya, yb) = (first(y0, self.h), first(y1, self.h));
        if xa >= xb || ya >= yb {
            return None;
        }
        Some(Shape {
            poly,
            n: m as u8,
            rows: (ya, yb),
            cols: (xa, xb),
            // Rounded up, so that no point of it is nearer.
            near: ((1.0 / zmin) * (1.0 + 1e-6)) as f32,
        })
    }

    /// Whether the box `lo`..`hi` may hold a point of the view within the
    /// view distance (in front of the eye, inside the four side planes of
    /// the view pyramid).
    fn box_in_view(&self, lo: [f64; 3], hi: [f64; 3]) -> bool {
        let s = &self.scene;
        let e = s.eye;
        let gap = |k: usize| (lo[k] - e[k]).max(e[k] - hi[k]).max(0.0);
        let (gx, gy, gz) = (gap(0), gap(1), gap(2));
        if gx * gx + gy * gy + gz * gz > (VIEW_DISTANCE + 0.01) * (VIEW_DISTANCE + 0.01) {
            return false;
        }
        self.planes.iter().all(|n| {
            // The box's corner farthest along n.
            let p = [0, 1, 2].map(|k| if n[k] >= 0.0 { hi[k] } else { lo[k] } - e[k]);
            n[0] * p[0] + n[1] * p[1] + n[2] * p[2] > -1e-9
        })
    }

    /// The non-empty mesh sections of loaded chunks within view, nearest
    /// first (ties in a fixed order).
    fn sections(&self) -> Vec<Sec<'a>> {
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
        let terrain: &'a Terrain = s.terrain;
        let mut out: Vec<(f64, Sec<'a>)> = Vec::new();
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
                for &si in &m.filled {
                    let (si, sec) = (si as usize, &m.sections[si as usize]);
                    // Culled by the box its faces fill, ordered by its cube.
                    let (lo, hi) = world_box([ox, 0, oz], sec.all);
                    if !self.box_in_view(lo, hi) {
                        continue;
                    }
                    let k = mesh::section_corner(si);
                    let cube = [(ox + k[0]) as f64, k[1] as f64, (oz + k[2]) as f64];
                    let gap = |k: usize| {
                        (cube[k] - e[k])
                            .max(e[k] - cube[k] - SECTION as f64)
                            .max(0.0)
                    };
                    let d2 = gap(0) * gap(0) + gap(1) * gap(1) + gap(2) * gap(2);
                    out.push((
                        d2,
                        Sec {
                            faces: sec,
                            origin: [ox, 0, oz],
                            lo,
                            hi,
                        },
                    ));
                }
            }
        }
        // Nearest first: they hide the most. Ties by position.
        out.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.origin.cmp(&b.1.origin))
                .then(a.1.lo[1].total_cmp(&b.1.lo[1]))
        });
        out.into_iter().map(|(_, s)| s).collect()
    }

    /// Calls `put` with every face of section `sec`'s list for direction
    /// `dir` (block faces, or water faces where `water`) that faces the eye
    /// and covers a pixel centre of the view.
    #[inline]
    fn faces(&self, sec: &Sec, dir: usize, water: bool, mut put: impl FnMut(Prim)) {
        let list = if water {
            &sec.faces.water[dir]
        } else {
            &sec.faces.faces[dir]
        };
        if list.is_empty() {
            return;
        }
        let s = &self.scene;
        let origin = sec.origin;
        let (axis, positive) = (dir / 2, dir % 2 == 1);
        let e = s.eye[axis] - origin[axis] as f64;
        // Faces on the positive side (plane at c + 1) face the eye when it
        // is beyond them; those on the negative side (plane at c) when it is
        // before them.
        // The list's layers (faces of water lists: their first and last)
        // settle most lists whole without a search.
        let (first, last) = if water {
            (list[0].along(axis), list[list.len() - 1].along(axis))
        } else {
            let b = sec.faces.bounds[dir];
            (b.0[axis], b.1[axis] - 1)
        };
        let turned = |a: u8| {
            if positive {
                (a as f64 + 1.0) < e
            } else {
                a as f64 > e
            }
        };
        let run = match (turned(first), turned(last)) {
            (true, true) => list,
            (false, false) => return,
            _ if positive => &list[..list.partition_point(|f| turned(f.along(axis)))],
            _ => &list[list.partition_point(|f| !turned(f.along(axis)))..],
        };
        if run.is_empty() {
            return;
        }
        if !water {
            // The box of the run's faces: the list's, cut to the run's
            // layers.
            let (mut b0, mut b1) = sec.faces.bounds[dir];
            b0[axis] = b0[axis].max(run[0].along(axis));
            b1[axis] = b1[axis].min(run[run.len() - 1].along(axis) + 1);
            let (lo, hi) = world_box(origin, (b0, b1));
            if !self.box_in_view(lo, hi) {
                return;
            }
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
        let reach2 = (VIEW_DISTANCE + 0.01) * (VIEW_DISTANCE + 0.01);
        // Whether some cell of the section may lie beyond reach.
        let far = {
            let g = |k: usize| {
                (sec.hi[k] - s.eye[k])
                    .abs()
                    .max((s.eye[k] - sec.lo[k]).abs())
            };
            g(0) * g(0) + g(1) * g(1) + g(2) * g(2) > (VIEW_DISTANCE - 1.0) * (VIEW_DISTANCE - 1.0)
        };
        // The camera-space position of the section's origin; a cell's
        // corner is it plus whole steps along the axes.
        let base = self.cam(origin.map(|v| v as f64));
        let (ux, uy, uz) = (unit(0), unit(1), unit(2));
        let (pa, pb, pc) = (s.f[axis], s.r[axis], s.u[axis]);
        let add3 = |a: [f64; 3], b: [f64; 3]| [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
        // Nearest first: the positive side's run ends at the eye.
        let mut each = |f: &mesh::Face| {
            let cell = [origin[0] + f.x as i32, f.y as i32, origin[2] + f.z as i32];
            let ext = f.ext(axis);
            if far {
                // Nothing of it within the view distance: every pixel it
                // could cover is fogged sky.
                let gap = |a: usize| {
                    let lo = cell[a] as f64;
                    let hi = lo + ext[a] as f64;
                    (lo - s.eye[a]).max(s.eye[a] - hi).max(0.0)
                };
                let (gx, gy, gz) = (gap(0), gap(1), gap(2));
                if gx * gx + gy * gy + gz * gz > reach2 {
                    return;
                }
            }
            let mut l = [f.x as f64, f.y as f64, f.z as f64];
            if positive {
                l[axis] += 1.0;
            }
            let at = |q: usize| base[q] + ux[q] * l[0] + uy[q] * l[1] + uz[q] * l[2];
            let c0 = [at(0), at(1), at(2)];
            let stretch = |u: [f64; 3], n: u8| {
                if n == 1 { u } else { u.map(|v| v * n as f64) }
            };
            let (sj, sk) = (stretch(uj, ext[j]), stretch(uk, ext[k]));
            let c1 = add3(c0, sj);
            let c2 = add3(c1, sk);
            let c3 = add3(c0, sk);
            // All four corners beyond one side of the view: off screen.
            let (tx, ty) = (s.tan_x, s.tan_y);
            let out = |c: [f64; 3]| {
                (c[1] > c[0] * tx) as u8
                    | ((c[1] < -c[0] * tx) as u8) << 1
                    | ((c[2] > c[0] * ty) as u8) << 2
                    | ((c[2] < -c[0] * ty) as u8) << 3
            };
            if out(c0) & out(c1) & out(c2) & out(c3) != 0 {
                return;
            }
            let Some(sh) = self.project(&[c0, c1, c2, c3]) else {
                return;
            };
            let plane_at = (cell[axis] + positive as i32) as f64 - s.eye[axis];
            put(Prim {
                what: What::Block(BlockFace {
                    cell,
                    block: f.block,
                    axis: axis as u8,
                    positive,
                    ext,
                }),
                plane: [pa, pb, pc, 1.0 / plane_at],
                cutout: !water && cut[f.block as usize],
                rows: sh.rows,
                cols: sh.cols,
                near: sh.near,
                poly: sh.poly,
                n: sh.n,
            });
        };
        if positive {
            run.iter().rev().for_each(&mut each);
        } else {
            run.iter().for_each(&mut each);
        }
    }

    /// The faces of the mobs' and items' boxes that face the eye.
    fn box_faces(&self) -> Vec<Prim> {
        let s = &self.scene;
        let mut out = Vec::new();
        for (i, bx) in s.boxes.iter().enumerate() {
            let sh = &bx.shape;
            let cams = sh.corners().map(|p| self.cam(p));
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
                    let Some(sh) = self.project(&quad) else {
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
                        rows: sh.rows,
                        cols: sh.cols,
                        near: sh.near,
                        poly: sh.poly,
                        n: sh.n,
                    });
                }
            }
        }
        out
    }

    /// For a see-through block face, whether the texel its pixel ray
    /// (screen offsets `sx`, `sy`) meets at reciprocal depth `inv` is
    /// opaque.
    #[inline]
    fn opaque_texel(&self, p: &Prim, sx: f64, sy: f64, inv: f64) -> bool {
        let What::Block(f) = p.what else {
            return true;
        };
        let z = 1.0 / inv;
        let cell = self.cell_at(&f, sx, sy, z);
        let (_, _, tu, tv) = self.block_uv(cell, f.axis as usize, sx, sy, z);
        self.tex_of(&f)[tv * TEX + tu][3] != 0
    }

    /// The texture of block face `f`.
    #[inline(always)]
    fn tex_of(&self, f: &BlockFace) -> &'a [[u8; 4]; TEX * TEX] {
        let face = tex_face(f.axis as usize, f.positive);
        &self.scene.tex.texels[f.block as usize * 3 + face]
    }

    /// The cell of block face `f` that the ray with screen offsets `sx`,
    /// `sy` meets at depth `z`.
    #[inline(always)]
    fn cell_at(&self, f: &BlockFace, sx: f64, sy: f64, z: f64) -> [i32; 3] {
        let (cell, ext) = (f.cell, f.ext);
        if ext == [1, 1, 1] {
            return cell;
        }
        let s = &self.scene;
        let mut c = cell;
        for k in 0..3 {
            if ext[k] > 1 {
                let along = s.eye[k] + (s.f[k] + s.r[k] * sx + s.u[k] * sy) * z;
                c[k] = floor_i32(along).clamp(cell[k], cell[k] + ext[k] as i32 - 1);
            }
        }
        c
    }

    /// Where the ray with screen offsets `sx`, `sy` meets the face of
    /// `cell` across `axis` at depth `z`: the face coordinates
    /// `uu`, `vv` in `0..1` and the texel, as the ray caster's `shade`
    /// takes them.
    #[inline(always)]
    fn block_uv(
        &self,
        cell: [i32; 3],
        axis: usize,
        sx: f64,
        sy: f64,
        z: f64,
    ) -> (f64, f64, usize, usize) {
        let s = &self.scene;
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

    /// Rasterises `p` into `band`'s depth and id buffers (or, for a water
    /// face, its water buffer).
    #[inline]
    #[allow(clippy::needless_range_loop)]
    fn raster(&self, p: Prim, band: &mut Band, water: bool) {
        let (y0, y1) = (band.y0, band.y1);
        if (p.rows.1 as usize) <= y0 || (p.rows.0 as usize) >= y1 {
            return;
        }
        let w = self.w;
        let tw = w.div_ceil(TILE);
        if self.tiles_hide(
            band,
            p.cols,
            (p.rows.0.max(y0 as u16), p.rows.1.min(y1 as u16)),
            p.near,
        ) {
            return;
        }
        let (cols, rows) = (&self.cols[..], &self.rows[..]);
        let id = band.prims.len() as u32;
        let Band {
            depth,
            water: wbuf,
            wet,
            ids,
            stale,
            ..
        } = band;
        let mut drawn = false;
        spans(&p.poly[..p.n as usize], w, (y0, y1), |y, xa, xb| {
            let sy = rows[y];
            let line = (y - y0) * w;
            if water {
                for x in xa..xb {
                    let v = p.inv(cols[x], sy) as f32;
                    let k = line + x;
                    if v > depth[k] && v > wbuf[k] {
                        wbuf[k] = v;
                        *wet = true;
                    }
                }
                return;
            }
            let mut any = false;
            if p.cutout {
                for x in xa..xb {
                    let sx = cols[x];
                    let inv = p.inv(sx, sy);
                    let v = inv as f32;
                    let k = line + x;
                    if v > depth[k] && self.opaque_texel(&p, sx, sy, inv) {
                        depth[k] = v;
                        ids[k] = id;
                        any = true;
                    }
                }
            } else {
                let base = (p.plane[0] + p.plane[2] * sy) * p.plane[3];
                let step = p.plane[1] * p.plane[3];
                // Written without branches (every ray stores its depth and
                // id, the nearer kept) so that it runs several rays at once.
                let (d, i) = (
                    &mut depth[line + xa..line + xb],
                    &mut ids[line + xa..line + xb],
                );
                for ((d, i), &sx) in d.iter_mut().zip(i.iter_mut()).zip(&cols[xa..xb]) {
                    let v = (base + step * sx) as f32;
                    let nearer = v > *d;
                    *d = if nearer { v } else { *d };
                    *i = if nearer { id } else { *i };
                    any |= nearer;
                }
            }
            if any {
                drawn = true;
                let row = ((y - y0) / TILE) * tw;
                for t in &mut stale[row + xa / TILE..=row + (xb - 1) / TILE] {
                    *t = true;
                }
            }
        });
        if drawn {
            band.prims.push(p);
        }
    }

    /// Whether nothing of section `sec` can show in `band`: every tile of
    /// the band its screen rectangle touches holds only nearer faces.
    fn hidden(&self, sec: &Sec, band: &mut Band) -> bool {
        let (lo, hi) = (sec.lo, sec.hi);
        let s = &self.scene;
        let (w, h) = (self.w as f64, self.h as f64);
        let (kx, ky) = (w / (2.0 * s.tan_x), h / (2.0 * s.tan_y));
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let mut zmin = f64::MAX;
        // The corners in camera space: the least one plus the box's edges.
        let c0 = self.cam(lo);
        let edge = |k: usize| {
            let d = hi[k] - lo[k];
            [s.f[k] * d, s.r[k] * d, s.u[k] * d]
        };
        let (ex, ey, ez) = (edge(0), edge(1), edge(2));
        for i in 0..8 {
            let mut c = c0;
            for (bit, e) in [(1, ex), (2, ey), (4, ez)] {
                if i & bit != 0 {
                    c = [c[0] + e[0], c[1] + e[1], c[2] + e[2]];
                }
            }
            if c[0] < NEAR {
                return false;
            }
            zmin = zmin.min(c[0]);
            let iz = 1.0 / c[0];
            let (px, py) = (c[1] * iz * kx + w / 2.0, h / 2.0 - c[2] * iz * ky);
            x0 = x0.min(px);
            x1 = x1.max(px);
            y0 = y0.min(py);
            y1 = y1.max(py);
        }
        // Widened by a hair, so that rounding (the corners here and the
        // faces' own corners are computed differently) cannot leave out a
        // pixel centre a face of the section covers.
        let m = 1e-6;
        let (x0, x1, y0, y1) = (x0 - m, x1 + m, y0 - m, y1 + m);
        // Rounded up, so that no point of it is nearer.
        let thr = ((1.0 / zmin) * (1.0 + 1e-6)) as f32;
        // The pixel centres it may cover, within the band: none, nothing
        // of it to draw here.
        let cols = (first(x0, self.w), first(x1, self.w));
        let rows = (
            first(y0, self.h).max(band.y0 as u16),
            first(y1, self.h).min(band.y1 as u16),
        );
        if cols.0 >= cols.1 || rows.0 >= rows.1 {
            return true;
        }
        self.tiles_hide(band, cols, rows, thr)
    }

    /// Whether every tile of `band` holding a ray of columns `cols.0..cols.1`
    /// and rows `rows.0..rows.1` (view rows, inside the band) has only faces
    /// with reciprocal depth above `near` drawn at every ray.
    #[inline]
    fn tiles_hide(&self, band: &mut Band, cols: (u16, u16), rows: (u16, u16), near: f32) -> bool {
        if cols.0 >= cols.1 || rows.0 >= rows.1 {
            return false;
        }
        let tw = self.w.div_ceil(TILE);
        let bh = band.y1 - band.y0;
        let (tx0, tx1) = (cols.0 as usize / TILE, (cols.1 as usize - 1) / TILE);
        let (ty0, ty1) = (
            (rows.0 as usize - band.y0) / TILE,
            (rows.1 as usize - 1 - band.y0) / TILE,
        );
        for ty in ty0..=ty1 {
            for tx in tx0..=tx1 {
                let t = ty * tw + tx;
                // A stale value is a lower bound (depths only grow):
                // recomputed only when it does not settle the question.
                if band.tiles[t] > near {
                    continue;
                }
                if !band.stale[t] {
                    return false;
                }
                let mut m = f32::INFINITY;
                for y in ty * TILE..((ty + 1) * TILE).min(bh) {
                    let row = &band.depth[y * self.w..][tx * TILE..((tx + 1) * TILE).min(self.w)];
                    // Depths are never NaN: a plain comparison (which
                    // vectorises) gives `f32::min`'s value.
                    for &v in row {
                        m = if v < m { v } else { m };
                    }
                }
                band.tiles[t] = m;
                band.stale[t] = false;
                if m <= near {
                    return false;
                }
            }
        }
        true
    }

    /// Draws rays rows `y0..y1` into `band`.
    fn draw_band(&self, y0: usize, y1: usize, band: &mut Band) {
        let n = self.w * (y1 - y0);
        let tiles = self.w.div_ceil(TILE) * (y1 - y0).div_ceil(TILE);
        band.y0 = y0;
        band.y1 = y1;
        band.depth.clear();
        band.depth.resize(n, 0.0);
        if band.wet || band.water.len() != n {
            band.water.clear();
            band.water.resize(n, 0.0);
            band.wet = false;
        }
        band.ids.clear();
        band.ids.resize(n, NONE);
        band.prims.clear();
        band.tiles.clear();
        band.tiles.resize(tiles, 0.0);
        band.stale.clear();
        band.stale.resize(tiles, false);
        for &p in &self.boxes {
            self.raster(p, band, false);
        }
        for sec in &self.secs {
            if self.hidden(sec, band) {
                continue;
            }
            for dir in 0..6 {
                self.faces(sec, dir, false, |p| self.raster(p, band, false));
            }
        }
        for sec in &self.secs {
            if sec.faces.water.iter().all(Vec::is_empty) || self.hidden(sec, band) {
                continue;
            }
            for dir in 0..6 {
                self.faces(sec, dir, true, |p| self.raster(p, band, true));
            }
        }
    }

    /// Rows of rays per band: the whole view in order, or about two bands
    /// per thread in parallel (the bytes do not depend on the split).
    fn band_rows(&self, parallel: bool) -> usize {
        if parallel {
            let n = rayon::current_num_threads().max(1) * 2;
            self.h.div_ceil(n).max(BAND_ROWS)
        } else {
            self.h.max(1)
        }
    }

    /// What ray (`x`, `y`) of `band` shows.
    fn pick_of(&self, band: &Band, x: usize, y: usize) -> Pick {
        let id = band.ids[(y - band.y0) * self.w + x];
        if id == NONE {
            return Pick::Sky;
        }
        let p = &band.prims[id as usize];
        let (sx, sy) = (self.cols[x], self.rows[y]);
        let len = (1.0 + sx * sx + sy * sy).sqrt();
        let inv = p.inv(sx, sy);
        if len / inv > VIEW_DISTANCE {
            return Pick::Sky;
        }
        match p.what {
            What::Block(f) => Pick::Block {
                id: f.block,
                pos: self.cell_at(&f, sx, sy, 1.0 / inv),
            },
            What::Box { i, .. } => self.scene.boxes[i as usize].who,
        }
    }

    /// The light on the face of `cell` across `axis` on its `positive`
    /// side (brightness times the face's shade).
    fn face_light(&self, cell: [i32; 3], axis: u8, positive: bool) -> f32 {
        let (axis, s) = (axis as usize, &self.scene);
        let mut nb = cell;
        nb[axis] += if positive { 1 } else { -1 };
        let (sky, bl) = light::at(s.terrain, nb[0], nb[1], nb[2]);
        side_shade(axis, positive) * self.bright[((sky as usize) << 4 | bl as usize) & 255]
    }

    /// The colour, before fog, of the pixel (screen offsets `sx`, `sy`) of
    /// a face of `cell` across `axis` textured by `tex` and lit by `light`
    /// that the ray meets at depth `z`: the texel, darkened by the cracks
    /// of the block being broken, or the target block's outline.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn block_rgb(
        &self,
        cell: [i32; 3],
        axis: usize,
        tex: &[[u8; 4]; TEX * TEX],
        sx: f64,
        sy: f64,
        z: f64,
        light: f32,
    ) -> [f32; 3] {
        let s = &self.scene;
        let (uu, vv, tu, tv) = self.block_uv(cell, axis, sx, sy, z);
        if s.outline(cell, uu, vv) {
            return OUTLINE;
        }
        s.texel_rgb(tex[tv * TEX + tu], cell, tu, tv, light)
    }

    /// The colour of ray (`x`, `y`) of `band`; `lit` caches the light of
    /// the last primitive and cell shaded.
    #[inline]
    fn color(&self, band: &Band, x: usize, y: usize, lit: &mut Lit) -> [u8; 3] {
        let s = &self.scene;
        let k = (y - band.y0) * self.w + x;
        let (id, water_inv) = (band.ids[k], band.water[k]);
        if id == NONE
            && water_inv == 0.0
            && !self.eye_in_water
            && let Some(c) = self.flat_sky
        {
            return c;
        }
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
            let t = if water.is_some() {
                t.max(VIEW_DISTANCE + 1.0)
            } else {
                t
            };
            return s.fogged(c, t, water);
        }
        let p = &band.prims[id as usize];
        let inv = p.inv(sx, sy);
        let z = 1.0 / inv;
        let t = len * z;
        if t > VIEW_DISTANCE {
            // Wholly fogged: the colour under the fog does not matter.
            return s.fogged(s.sky_horizon, f64::INFINITY, water);
        }
        let c = match p.what {
            What::Block(f) => {
                let cell = self.cell_at(&f, sx, sy, z);
                if lit.0 != id || lit.1 != cell {
                    *lit = (id, cell, self.face_light(cell, f.axis, f.positive));
                }
                self.block_rgb(cell, f.axis as usize, self.tex_of(&f), sx, sy, z, lit.2)
            }
            What::Box { i, axis, far } => {
                let bx = &s.boxes[i as usize];
                let hit = [0, 1, 2].map(|k| s.eye[k] + d[k] * z - bx.shape.corner[k]);
                let at = bx
                    .shape
                    .axes
                    .map(|a| a[0] * hit[0] + a[1] * hit[1] + a[2] * hit[2]);
                bx.color(d, axis as usize, far, at)
            }
        };
        s.fogged(c, t, water)
    }

    /// Row `y` of `band` into `out` (RGBA), as [`Frame::color`] gives each
    /// pixel; a pixel of a block face with no water before it takes a
    /// shorter way to the same bytes, and so does the sky.
    fn shade_row(&self, band: &Band, y: usize, out: &mut [u8], lit: &mut Lit) {
        let s = &self.scene;
        let row = (y - band.y0) * self.w;
        let ids = &band.ids[row..row + self.w];
        let water = &band.water[row..row + self.w];
        let wet = band.wet;
        let sy = self.rows[y];
        let sky = if self.eye_in_water {
            None
        } else {
            self.flat_sky.map(|c| [c[0], c[1], c[2], 255])
        };
        // What a block face past the view distance shows (no water).
        let far = s.fogged(s.sky_horizon, f64::INFINITY, None);
        let mut x = 0;
        while x < self.w {
            let id = ids[x];
            if id == NONE
                && let Some(c) = sky
            {
                // A run of sky: written at once where no water lies in it.
                let n = ids[x..]
                    .iter()
                    .position(|&i| i != NONE)
                    .unwrap_or(self.w - x);
                let dry = if wet {
                    water[x..x + n].iter().position(|&v| v != 0.0).unwrap_or(n)
                } else {
                    n
                };
                if dry > 0 {
                    for p in out[x * 4..(x + dry) * 4].chunks_exact_mut(4) {
                        p.copy_from_slice(&c);
                    }
                    x += dry;
                    continue;
                }
            }
            // A run of pixels of one block face.
            let p = (id != NONE && !self.eye_in_water).then(|| &band.prims[id as usize]);
            let Some((p, What::Block(f))) = p.map(|p| (p, p.what)) else {
                let c = self.color(band, x, y, lit);
                out[x * 4..x * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
                x += 1;
                continue;
            };
            let tex = self.tex_of(&f);
            while x < self.w && ids[x] == id {
                let sx = self.cols[x];
                let len_r = (1.0 + sx * sx + sy * sy).sqrt();
                let z = 1.0 / p.inv(sx, sy);
                let t = len_r * z;
                let c = if wet && water[x] != 0.0 {
                    self.color(band, x, y, lit)
                } else if t > VIEW_DISTANCE {
                    far
                } else {
                    // The light is looked up again only where the cell
                    // changes (written out here and in `color`: a shared
                    // helper taking `lit` measured 7 % slower at 640×360).
                    let cell = self.cell_at(&f, sx, sy, z);
                    if lit.0 != id || lit.1 != cell {
                        *lit = (id, cell, self.face_light(cell, f.axis, f.positive));
                    }
                    s.fogged(
                        self.block_rgb(cell, f.axis as usize, tex, sx, sy, z, lit.2),
                        t,
                        None,
                    )
                };
                out[x * 4..x * 4 + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
                x += 1;
            }
        }
    }

    /// Every primitive of the view turned to the eye and on screen (no
    /// occlusion): the boxes' faces, the block faces, the water faces.
    #[cfg(test)]
    fn all(&self) -> (Vec<Prim>, Vec<Prim>) {
        let mut solid = self.boxes.clone();
        let mut water = Vec::new();
        for sec in &self.secs {
            for dir in 0..6 {
                self.faces(sec, dir, false, |p| solid.push(p));
                self.faces(sec, dir, true, |p| water.push(p));
            }
        }
        (solid, water)
    }
}

/// The world box of a mesh box (chunk-local cells, see
/// [`mesh::Section::bounds`]) of the chunk at `origin`.
fn world_box(origin: [i32; 3], (lo, hi): mesh::Bounds) -> ([f64; 3], [f64; 3]) {
    let at = |c: [u8; 3]| [0, 1, 2].map(|k| (origin[k] + c[k] as i32) as f64);
    (at(lo), at(hi))
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scaled(a: [f64; 3], k: f64) -> [f64; 3] {
    a.map(|v| v * k)
}

/// The rasterised view of `world` with one ray per `block` × `block`
/// pixels, HUD over it, into `out` (RGBA, `w*h*4` bytes).
pub(crate) fn render(
    world: &World,
    w: usize,
    h: usize,
    block: usize,
    out: &mut [u8],
    parallel: bool,
) {
    assert_eq!(out.len(), w * h * 4, "buffer is w*h*4 bytes");
    assert!(block >= 1, "block is at least 1 pixel");
    let (tw, th) = (w.div_ceil(block), h.div_ceil(block));
    let frame = Frame::new(world, tw, th);
    let layer = hud::layer(world, w, h);
    let rows = frame.band_rows(parallel);
    // One band of rays: drawn, then shaded into its pixel rows.
    let band = |bi: usize, px: &mut [u8]| {
        BANDS.with(|cell| {
            let band = &mut *cell.borrow_mut();
            let y0 = bi * rows;
            frame.draw_band(y0, (y0 + rows).min(th), band);
            let mut lit: Lit = (NONE, [0; 3], 0.0);
            for (ty, line_rows) in px.chunks_mut(w * 4 * block).enumerate() {
                let ty = y0 + ty;
                let line = &mut line_rows[..w * 4];
                if block == 1 {
                    frame.shade_row(band, ty, line, &mut lit);
                } else {
                    for (tx, square) in line.chunks_mut(block * 4).enumerate() {
                        let c = frame.color(band, tx, ty, &mut lit);
                        let px = [c[0], c[1], c[2], 255];
                        for p in square.chunks_exact_mut(4) {
                            p.copy_from_slice(&px);
                        }
                    }
                }
                let (first, rest) = line_rows.split_at_mut(w * 4);
                for r in rest.chunks_exact_mut(w * 4) {
                    r.copy_from_slice(first);
                }
            }
        })
    };
    let chunk = (w * 4 * block * rows).max(1);
    super::each_chunk(out, chunk, parallel, band);
    hud::draw_over(world, &layer, out);
}

/// The pick buffer of the rasterised view at `w` × `h` (HUD aside).
pub(crate) fn picks(world: &World, w: usize, h: usize, parallel: bool) -> Vec<Pick> {
    let frame = Frame::new(world, w, h);
    let rows = frame.band_rows(parallel);
    let mut out = vec![Pick::Sky; w * h];
    let band = |bi: usize, line: &mut [Pick]| {
        BANDS.with(|cell| {
            let band = &mut *cell.borrow_mut();
            let y0 = bi * rows;
            frame.draw_band(y0, (y0 + rows).min(h), band);
            for (k, p) in line.iter_mut().enumerate() {
                *p = frame.pick_of(band, k % w, y0 + k / w);
            }
        })
    };
    let chunk = (w * rows).max(1);
    super::each_chunk(&mut out, chunk, parallel, band);
    out
}

/// How many primitives (block, box and water faces turned to the eye and
/// on screen, hidden or not) the rasterised view of `world` at `w` × `h`
/// considers, and how many mesh sections.
pub fn primitive_count(world: &World, w: usize, h: usize) -> (usize, usize) {
    let f = Frame::new(world, w, h);
    let mut n = f.boxes.len();
    for sec in &f.secs {
        for dir in 0..6 {
            f.faces(sec, dir, false, |_| n += 1);
            f.faces(sec, dir, true, |_| n += 1);
        }
    }
    (n, f.secs.len())
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
    let (prims, _) = f.all();
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let (sx, sy) = (f.cols[x], f.rows[y]);
            let d = [0, 1, 2].map(|k| s.f[k] + s.r[k] * sx + s.u[k] * sy);
            let mut best: Option<(f64, Pick)> = None;
            let mut unsure = false;
            for p in &prims {
                let inv = p.inv(sx, sy);
                if inv <= 0.0 {
                    continue;
                }
                let z = 1.0 / inv;
                let hit = [0, 1, 2].map(|k| s.eye[k] + d[k] * z);
                // Face coordinates of the hit, and how far inside it is.
                let (inside, who) = match p.what {
                    What::Block(face) => {
                        let a = face.axis as usize;
                        let m = (0..3)
                            .filter(|&k| k != a)
                            .map(|k| {
                                let v = hit[k] - face.cell[k] as f64;
                                let size = face.ext[k] as f64;
                                v.min(size - v)
                            })
                            .fold(f64::INFINITY, f64::min);
                        let cell = f.cell_at(&face, sx, sy, z);
                        if p.cutout && m > margin && !f.opaque_texel(p, sx, sy, inv) {
                            continue;
                        }
                        if p.cutout && m > margin {
                            // Near a texel border the alpha may differ.
                            let (uu, vv, _, _) = f.block_uv(cell, a, sx, sy, z);
                            let tb = |v: f64| {
                                let q = v * TEX as f64;
                                (q - libm::round(q)).abs() / TEX as f64
                            };
                            if tb(uu) < margin || tb(vv) < margin {
                                unsure = true;
                            }
                        }
                        (
                            m,
                            Pick::Block {
                                id: face.block,
                                pos: cell,
                            },
                        )
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
