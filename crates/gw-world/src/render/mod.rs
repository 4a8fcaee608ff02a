//! The first-person view of the voxel world and its pick buffer.
//!
//! # Design
//!
//! **What is drawn.** The terrain's blocks with 8×8 procedural textures
//! (see-through texels for plants, glass and torches; leaves opaque, their
//! gaps dark, as Minecraft's fast graphics draws them), water looked
//! through with a tint that deepens with the water crossed, mobs as their
//! posed models ([`crate::model`]: oriented boxes with small skins) and
//! dropped items as small boxes, the target block's outline and breaking
//! cracks, fog towards [`VIEW_DISTANCE`] and the sky. Over it the HUD
//! ([`hud`]): crosshair, hotbar and inventory screen with item icons
//! ([`icons`]), the held item, health and food. A block face takes the
//! light of the cell in front of it ([`crate::light`]: sky and block light
//! 0–15, kept per cell and updated on every edit), sky light scaled by the
//! time of day, through Minecraft's brightness curve, times a fixed shade
//! per face direction; a mob or item takes the light of its cell.
//!
//! **Two renderers, one picture.** Both sample one ray per pixel (or per
//! `block` × `block` square, [`render_rgba_blocky`]) through the pixel's
//! centre and shade it by the same functions, so they give the same
//! pixels and picks (tests compare them on views with water, leaves,
//! torches, mobs, items, at night and with the eye inside a block; one
//! difference: a ray into a chunk not loaded yet ends in fully fogged sky
//! in the rasteriser, in sky fogged to where it enters that chunk in the
//! ray caster):
//! - the **rasteriser** ([`raster`]), used from [`RASTER_VIEW_MIN_RAYS`]
//!   rays on ([`Renderer::Auto`]). Each chunk keeps a mesh ([`mesh`]) of
//!   its exposed faces (a face whose neighbour is not an opaque full
//!   block; water faces apart; an opaque block's faces merged with their
//!   neighbours of the same block and plane into rectangles, the cell a
//!   pixel shows found from where its ray meets the rectangle),
//!   built on first use and dropped by every
//!   edit of the chunk or of a neighbour's border cell
//!   ([`crate::terrain::Terrain::set`]) and when a neighbour loads. Faces
//!   go by 8×8×8 section and direction, sorted along their axis, so back
//!   faces are skipped as whole runs; each section and each list keeps the
//!   box its faces fill, and a section or a run of faces whose box lies
//!   outside the view pyramid or the view distance is skipped whole
//!   (before its faces are looked at one by one). Sections are drawn nearest
//!   first; a depth buffer of reciprocal depths keeps, per 4×4 tile, the
//!   farthest depth drawn, and a section or face whose nearest point is
//!   behind every tile it could touch is not drawn (occlusion culling
//!   that cannot change a pixel). A face is clipped at a near plane,
//!   projected and filled by the project's one span rasteriser ([`span`],
//!   pixel-centre rule, shared edges neither overlap nor leave gaps); per
//!   pixel its reciprocal depth is exact (the plane's `n·d / n·(p − eye)`)
//!   and see-through texels are tested there. Mob and item boxes are drawn
//!   first, as six planar faces each. The depth pass writes per pixel the
//!   index of the nearest primitive; water faces, drawn after, keep the
//!   nearest water surface in front of it. A second pass shades each
//!   pixel once from its primitive, a row at a time in runs of pixels of
//!   one face: texel, light (again only where the cell changes), outline
//!   and cracks, water tint and fog.
//! - the **ray caster** (the rest of this module, [`VoxelWalk`] from the
//!   eye through the cells, Amanatides–Woo), used below that size, where
//!   a frame has fewer pixels than its faces cost to set up. Its exact
//!   shortcuts (HUD pixels not traced, a beam pre-pass over per-column
//!   occupancy bits, a raster pre-pass from `RASTER_MIN_RAYS` rays,
//!   jumps over air above chunk and tile tops) are described with their
//!   measurements in `docs/performance.md`.
//!
//! [`set_renderer`] or the environment variable `GW_WORLD_RENDERER`
//! (`auto`, `raster`, `rays`) chooses one for the process, for
//! measurements and comparisons.
//!
//! **Exactness.** The pick buffer ([`pick`]) comes from the same pass as
//! the colours: in the rasteriser, the id buffer's primitive (a block face,
//! a mob's box, an item), so the pixels of a `Pick::Mob(id)` are exactly
//! where that mob is the nearest thing shown, occlusion by blocks, other
//! mobs and the HUD included. Tests check it against rays tested at every
//! primitive of the view (the depth-nearest per pixel) and against the
//! ray caster, for every mob kind with and without a wall in front.
//!
//! **Determinism.** Plain `f64` arithmetic in a fixed order, primitives in
//! a fixed order (ties in depth go to the first drawn). In parallel the
//! view is cut into bands of rows, each drawn with its own buffers over
//! every primitive in the same order, so a pixel's bytes do not depend on
//! the split or the thread count (tested with pools of 1 to 5 threads).
//! Occlusion culling only skips what the depth test would reject.

use crate::data::{BlockId, ItemId, Pattern, b, data};
use crate::light;
use crate::model::{self, Placed};
use crate::noise::unit;
use crate::ray::{VoxelWalk, floor_i32};
use crate::terrain::{CHUNK, Chunk, HEIGHT, Terrain};
use crate::world::MobKind;
use crate::world::{Body, World};
use rayon::prelude::*;
use std::sync::OnceLock;

pub const FOV_DEG: f64 = 70.0;
/// Farthest distance drawn (blocks); fog thickens towards it.
pub const VIEW_DISTANCE: f64 = 40.0;
const TEX: usize = 8;

/// The colour of the target block's outline.
const OUTLINE: [f32; 3] = [0.05, 0.05, 0.05];

/// `v as f32 / 255.0` for every byte `v` (the same values, without a
/// division per channel and pixel).
pub(crate) const UNIT8: [f32; 256] = {
    let mut t = [0.0f32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as f32 / 255.0;
        i += 1;
    }
    t
};

/// Per block, three faces (top, side, bottom) of 8×8 RGB texels; alpha 0
/// marks a see-through texel (plants, glass, torches).
struct Textures {
    texels: Vec<[[u8; 4]; TEX * TEX]>,
}

fn textures() -> &'static Textures {
    static T: OnceLock<Textures> = OnceLock::new();
    T.get_or_init(|| {
        let d = data();
        let mut texels = Vec::new();
        for (id, def) in d.blocks.iter().enumerate() {
            for face in 0..3 {
                let mut t = [[0u8; 4]; TEX * TEX];
                for v in 0..TEX {
                    for u in 0..TEX {
                        t[v * TEX + u] =
                            texel(id as u32, def.pattern, def.color, def.ore_color, face, u, v);
                    }
                }
                texels.push(t);
            }
        }
        Textures { texels }
    })
}

fn scale(c: [u8; 3], f: f32) -> [u8; 4] {
    [
        (c[0] as f32 * f).clamp(0.0, 255.0) as u8,
        (c[1] as f32 * f).clamp(0.0, 255.0) as u8,
        (c[2] as f32 * f).clamp(0.0, 255.0) as u8,
        255,
    ]
}

/// One procedural texel. `face`: 0 top, 1 side, 2 bottom.
fn texel(
    id: u32,
    p: Pattern,
    c: [u8; 3],
    ore: [u8; 3],
    face: usize,
    u: usize,
    v: usize,
) -> [u8; 4] {
    let n = unit(id as u64 * 31 + face as u64, u as i32, v as i32, 7);
    let speck = 0.85 + 0.3 * n;
    match p {
        Pattern::None => [0, 0, 0, 0],
        Pattern::Speckle | Pattern::Water => scale(c, speck),
        Pattern::Grass => {
            if face == 0 || (face == 1 && v < 2 + (n * 2.0) as usize) {
                scale(c, speck)
            } else {
                scale([134, 96, 67], speck)
            }
        }
        Pattern::Cobble => {
            let edge = (u + v * 3).is_multiple_of(5) || (u * 7 + v).is_multiple_of(6);
            scale(c, if edge { 0.65 } else { speck })
        }
        Pattern::Log => {
            if face == 1 {
                scale(c, if u.is_multiple_of(3) { 0.75 } else { speck })
            } else {
                let ring = (u as i32 - 4).abs().max((v as i32 - 4).abs());
                scale([168, 132, 84], if ring % 2 == 0 { 0.85 } else { 1.0 })
            }
        }
        // Leaves are drawn as Minecraft's "fast" graphics draws them: an
        // opaque block whose gaps show as dark texels. A canopy is then a
        // solid shape of its outer faces only (no faces between two leaf
        // blocks to set up and hide), which halves the cost of a forest
        // frame; plants keep their see-through texels.
        Pattern::Leaves => scale(c, if n < 0.18 { 0.35 } else { speck }),
        Pattern::Plant => {
            if n < 0.55 || v < 2 {
                [0, 0, 0, 0]
            } else {
                scale(c, speck)
            }
        }
        Pattern::Planks => scale(c, if v % 4 == 3 { 0.7 } else { 0.9 + 0.15 * n }),
        Pattern::Ore => {
            if n > 0.72 {
                scale(ore, 0.9 + 0.2 * n)
            } else {
                scale(c, speck)
            }
        }
        Pattern::Table => {
            if face == 0 {
                scale(
                    c,
                    if u == 0 || v == 0 || u == 7 || v == 7 || u == 4 || v == 4 {
                        0.6
                    } else {
                        1.1
                    },
                )
            } else {
                scale(
                    c,
                    if v < 2 {
                        1.2
                    } else if u.is_multiple_of(4) {
                        0.6
                    } else {
                        speck
                    },
                )
            }
        }
        Pattern::Furnace => {
            if face == 1 && (2..6).contains(&u) && (3..6).contains(&v) {
                [30, 30, 30, 255]
            } else {
                scale(c, speck)
            }
        }
        Pattern::Torch => {
            if (3..5).contains(&u) {
                if v < 2 {
                    [255, 220, 90, 255]
                } else {
                    [120, 90, 50, 255]
                }
            } else {
                [0, 0, 0, 0]
            }
        }
        Pattern::Layers => scale(c, if v.is_multiple_of(3) { 0.85 } else { speck }),
        Pattern::Glass => {
            if u == 0 || v == 0 || u == 7 || v == 7 {
                scale(c, 1.0)
            } else {
                [0, 0, 0, 0]
            }
        }
    }
}

/// One colour for an item (dropped items' boxes, the compact HUD's
/// slots): the mean of its icon's opaque pixels.
pub fn item_color(item: ItemId) -> [u8; 3] {
    icons::mean_color(item)
}

/// Camera basis for a yaw/pitch (degrees).
fn basis(yaw: f64, pitch: f64) -> ([f64; 3], [f64; 3], [f64; 3]) {
    let (y, p) = (yaw.to_radians(), pitch.to_radians());
    let (sy, cy, sp, cp) = (libm::sin(y), libm::cos(y), libm::sin(p), libm::cos(p));
    let f = [-sy * cp, -sp, cy * cp];
    let r = [-cy, 0.0, -sy];
    // up = r × f
    let u = [
        r[1] * f[2] - r[2] * f[1],
        r[2] * f[0] - r[0] * f[2],
        r[0] * f[1] - r[1] * f[0],
    ];
    (f, r, u)
}

/// One box of a mob's model or a dropped item, as the renderer tests
/// rays against it: where it is, the pixel rectangle `[x0, x1, y0, y1]`
/// (inclusive) outside which no ray can meet it, what it is (for
/// [`pick`]) and how it is coloured.
struct ScreenBox {
    shape: Placed,
    rect: [i32; 4],
    who: Pick,
    paint: Paint,
    /// The light on it ([`light::brightness`] where it stands).
    bright: f32,
}

/// How a [`ScreenBox`] is coloured.
#[derive(Clone, Copy)]
enum Paint {
    /// One colour (dropped items), shaded per world axis.
    Flat([u8; 3]),
    /// Part `part` of a mob of `kind`'s model, with its skin; `tint`
    /// mixes in red (hurt) or white (a creeper's lit fuse).
    Mob {
        kind: MobKind,
        part: usize,
        tint: Option<[f32; 3]>,
    },
}

impl ScreenBox {
    /// Whether pixel (`px`, `py`) lies in the box's rectangle.
    #[inline]
    fn holds(&self, px: i32, py: i32) -> bool {
        let rc = &self.rect;
        px >= rc[0] && px <= rc[1] && py >= rc[2] && py <= rc[3]
    }

    /// The colour where the ray along `d` entered the box across box axis
    /// `axis` (`far` side) at box coordinates `at`, before fog.
    fn color(&self, d: [f64; 3], axis: usize, far: bool, at: [f64; 3]) -> [f32; 3] {
        let (c, s) = match self.paint {
            Paint::Flat(c) => (c, face_shade(axis, d)),
            Paint::Mob { kind, part, .. } => {
                let p = &model::parts(kind)[part];
                let n = self.shape.axes[axis].map(|v| if far { v } else { -v });
                let s = (0.78 + 0.22 * n[1] + 0.06 * n[0]).clamp(0.4, 1.0) as f32;
                (model::texel(kind, p, axis, far, at), s)
            }
        };
        let s = s * self.bright;
        let mut rgb = [
            UNIT8[c[0] as usize] * s,
            UNIT8[c[1] as usize] * s,
            UNIT8[c[2] as usize] * s,
        ];
        if let Paint::Mob { tint: Some(t), .. } = self.paint {
            for k in 0..3 {
                rgb[k] = rgb[k] * 0.45 + t[k] * 0.55 * self.bright.max(0.3);
            }
        }
        rgb
    }
}

/// What one pixel of the first-person view shows: the thing its ray ends
/// on (water is looked through, as drawn), or the HUD drawn over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    Sky,
    Block {
        id: BlockId,
        pos: [i32; 3],
    },
    /// A mob, by its id ([`crate::world::Mob::id`]).
    Mob(u32),
    /// A dropped item, by its index in [`World::items`].
    Item(usize),
    /// Covered by the HUD (crosshair, hotbar, held item, inventory screen).
    Hud,
}

/// The pick buffer of the view [`render_rgba`] draws at `w` × `h`: per
/// pixel (row-major) what that pixel shows, from the same rays, so the
/// pixels of a `Pick::Mob(id)` are exactly where that mob is visible —
/// occlusion by blocks, other mobs and the HUD included.
pub fn pick(world: &World, w: usize, h: usize, parallel: bool) -> Vec<Pick> {
    let parallel = parallel && rayon::current_thread_index().is_none();
    if renderer().rasterises(w * h) {
        let mut out = raster::picks(world, w, h, parallel);
        cover_hud(world, w, h, &mut out);
        out
    } else {
        pick_with(world, w, h, parallel, Paths::FAST)
    }
}

/// Marks the pixels the HUD covers in `out` as [`Pick::Hud`].
fn cover_hud(world: &World, w: usize, h: usize, out: &mut [Pick]) {
    let layer = hud::layer(world, w, h);
    for (p, &c) in out.iter_mut().zip(&layer.mask) {
        if c != 0 {
            *p = Pick::Hud;
        }
    }
    // The HUD over a black and over a white buffer: a pixel it changes on
    // either, it covers (a black rectangle shows on the white one).
    for fill in [0u8, 255] {
        let mut hud = vec![fill; w * h * 4];
        crate::render::hud::draw(world, w, h, &mut hud);
        for (p, px) in out.iter_mut().zip(hud.chunks_exact(4)) {
            if px[..3] != [fill; 3] {
                *p = Pick::Hud;
            }
        }
    }
}

/// Which of the exact shortcuts run (tests compare them with the plain
/// walk).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paths {
    /// The beam pre-pass ([`Scene::beam_start`]).
    pub beam: bool,
    /// The raster pre-pass ([`Scene::raster`]): `None` from
    /// [`RASTER_MIN_RAYS`] rays on, `Some` to force it on or off.
    pub raster: Option<bool>,
}

impl Paths {
    /// What the public entry points use.
    pub const FAST: Paths = Paths {
        beam: true,
        raster: None,
    };
    /// The plain cell-by-cell walk for every ray.
    #[cfg(test)]
    pub const PLAIN: Paths = Paths {
        beam: false,
        raster: Some(false),
    };
}

/// [`pick`], with the shortcuts chosen (tests compare them).
pub(crate) fn pick_with(
    world: &World,
    w: usize,
    h: usize,
    parallel: bool,
    paths: Paths,
) -> Vec<Pick> {
    let mut scene = Scene::new(world, w, h);
    scene.beam = paths.beam;
    scene.raster = paths.raster;
    let layer = hud::layer(world, w, h);
    let covered = &layer.mask;
    let grid = scene.grid(w, h, parallel);
    let mut out = vec![Pick::Sky; w * h];
    let row = |y: usize, line: &mut [Pick]| {
        for (x, p) in line.iter_mut().enumerate() {
            *p = if covered[y * w + x] != 0 {
                Pick::Hud
            } else {
                scene.ray_hit(x, y, &grid).1
            };
        }
    };
    each_chunk(&mut out, w, parallel, row);
    cover_hud(world, w, h, &mut out);
    out
}

/// Where a box lands on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projected {
    /// Wholly behind the eye.
    Behind,
    /// A corner is at or behind the near plane: it may cover any pixel.
    Near,
    /// The bounds of its 8 projected corners, `[x0, y0, x1, y1]` in pixel
    /// coordinates (unclipped; occlusion ignored).
    Rect([f64; 4]),
}

/// Depth (along the view direction) from which [`Camera::project`] and
/// [`Camera::project_clipped`] project a box's points.
const NEAR_Z: f64 = 0.05;

/// The player's camera for a `w` × `h` view.
struct Camera {
    eye: [f64; 3],
    f: [f64; 3],
    r: [f64; 3],
    u: [f64; 3],
    tan_x: f64,
    tan_y: f64,
    w: usize,
    h: usize,
}

impl Camera {
    fn of(world: &World, w: usize, h: usize) -> Camera {
        let (f, r, u) = basis(world.player.yaw, world.player.pitch);
        let tan_y = libm::tan((FOV_DEG / 2.0).to_radians());
        Camera {
            eye: world.eye(),
            f,
            r,
            u,
            tan_x: tan_y * w as f64 / h as f64,
            tan_y,
            w,
            h,
        }
    }

    /// The corners of the box `lo`..`hi` in camera space: (depth, right,
    /// up) from the eye; corner `i` takes `hi` on axis k where bit k of `i`
    /// is set.
    fn corners(&self, lo: [f64; 3], hi: [f64; 3]) -> [[f64; 3]; 8] {
        let eye = self.eye;
        std::array::from_fn(|i| {
            let d = [
                if i & 1 == 0 { lo[0] } else { hi[0] } - eye[0],
                if i & 2 == 0 { lo[1] } else { hi[1] } - eye[1],
                if i & 4 == 0 { lo[2] } else { hi[2] } - eye[2],
            ];
            let dot = |e: [f64; 3]| d[0] * e[0] + d[1] * e[1] + d[2] * e[2];
            [dot(self.f), dot(self.r), dot(self.u)]
        })
    }

    /// The pixel position of a camera-space point in front of the eye.
    fn pixel(&self, c: [f64; 3]) -> (f64, f64) {
        let (sx, sy) = (c[1] / c[0] / self.tan_x, c[2] / c[0] / self.tan_y);
        (
            (sx + 1.0) / 2.0 * self.w as f64,
            (1.0 - sy) / 2.0 * self.h as f64,
        )
    }

    fn project(&self, lo: [f64; 3], hi: [f64; 3]) -> Projected {
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let (mut behind, mut near) = (0, false);
        for c in self.corners(lo, hi) {
            if c[0] <= 0.0 {
                behind += 1;
            }
            if c[0] < NEAR_Z {
                near = true;
                continue;
            }
            let (px, py) = self.pixel(c);
            (x0, x1, y0, y1) = (x0.min(px), x1.max(px), y0.min(py), y1.max(py));
        }
        if behind == 8 {
            Projected::Behind
        } else if near {
            Projected::Near
        } else {
            Projected::Rect([x0, y0, x1, y1])
        }
    }

    /// For a box with a corner nearer than [`NEAR_Z`] in depth
    /// ([`Projected::Near`]): the bounds of the part of it from that depth
    /// on, which hold every ray of the view that meets the box, as long as
    /// the whole box is farther from the eye than `NEAR_Z · |dir|max` (a
    /// ray's point at depth z is at most z·|dir|max from the eye, with
    /// `dir = f + r·sx + u·sy`); `None` where it is not (the box may then
    /// meet rays anywhere). `Behind` when no part is that deep.
    ///
    /// An item at the player's feet has a corner behind the eye's plane
    /// but lies well away from the eye: its clipped bounds are a small
    /// rectangle, often off the view, instead of the whole view.
    fn project_clipped(&self, lo: [f64; 3], hi: [f64; 3]) -> Option<Projected> {
        let eye = self.eye;
        let gap2: f64 = (0..3)
            .map(|k| {
                let g = (lo[k] - eye[k]).max(eye[k] - hi[k]).max(0.0);
                g * g
            })
            .sum();
        let dmax2 = 1.0 + self.tan_x * self.tan_x + self.tan_y * self.tan_y;
        // A margin far above rounding.
        if gap2 <= NEAR_Z * NEAR_Z * dmax2 * (1.0 + 1e-6) {
            return None;
        }
        let corners = self.corners(lo, hi);
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        let mut any = false;
        let mut add = |c: [f64; 3]| {
            let (px, py) = self.pixel(c);
            (x0, x1, y0, y1) = (x0.min(px), x1.max(px), y0.min(py), y1.max(py));
            any = true;
        };
        // The clipped box is the convex hull of its corners at depth
        // NEAR_Z or more and the points where its edges cross that depth.
        for (i, &p) in corners.iter().enumerate() {
            if p[0] >= NEAR_Z {
                add(p);
            }
            for bit in [1, 2, 4] {
                let q = corners[i | bit];
                if i & bit == 0 && (p[0] - NEAR_Z) * (q[0] - NEAR_Z) < 0.0 {
                    let s = (NEAR_Z - p[0]) / (q[0] - p[0]);
                    add([NEAR_Z, p[1] + (q[1] - p[1]) * s, p[2] + (q[2] - p[2]) * s]);
                }
            }
        }
        Some(if any {
            Projected::Rect([x0, y0, x1, y1])
        } else {
            Projected::Behind
        })
    }
}

/// The screen bounds of the box `lo`..`hi` (world coordinates) in the
/// player's `w` × `h` view, ignoring occlusion.
pub fn project_aabb(world: &World, w: usize, h: usize, lo: [f64; 3], hi: [f64; 3]) -> Projected {
    Camera::of(world, w, h).project(lo, hi)
}

struct Scene<'a> {
    terrain: &'a Terrain,
    eye: [f64; 3],
    f: [f64; 3],
    r: [f64; 3],
    u: [f64; 3],
    tan_x: f64,
    tan_y: f64,
    light: f32,
    sky_top: [f32; 3],
    sky_horizon: [f32; 3],
    boxes: Vec<ScreenBox>,
    breaking: Option<([i32; 3], f32)>,
    target: Option<[i32; 3]>,
    /// One above the highest non-air block of any loaded chunk: a ray at
    /// or above it that does not descend meets only sky.
    top: i32,
    /// One above the highest non-air block of the chunks a ray can enter
    /// within [`VIEW_DISTANCE`], when all of them are loaded: a ray at or
    /// above it that does not descend, and does not climb to `top` within
    /// the view distance, meets only air until it ends in fully fogged sky.
    sky_floor: Option<i32>,
    tex: &'static Textures,
    /// The cell holding the eye, where every walk starts.
    eye_cell: [i32; 3],
    /// Whether rays start where [`Scene::beam_start`] allows (off only to
    /// check in tests that it changes no pixel).
    beam: bool,
    /// Whether the raster pre-pass runs: `None` from [`RASTER_MIN_RAYS`]
    /// rays on, `Some` to force it (tests).
    raster: Option<bool>,
}

/// The rays of a view: screen offsets per column and per row, and per tile
/// of [`BEAM_TILE`] × [`BEAM_TILE`] rays (`gw` tiles a row) the distance
/// their walks start at.
struct RayGrid {
    cols: Vec<f64>,
    rows: Vec<f64>,
    gw: usize,
    starts: Vec<f64>,
    /// Per column of rays, where its rays' entries of `buf` start and the
    /// step from row to row: the raster pre-pass cuts the view into bands
    /// of columns whose rays lie together, row-major within the band
    /// ([`band_index`]).
    col_at: Vec<[usize; 2]>,
    /// Per ray (row-major), what the raster pre-pass found
    /// ([`Scene::raster`]) and the ray's unit direction; empty where it did
    /// not run.
    buf: Scratch,
}

impl Drop for RayGrid {
    /// The buffers go back to the thread's [`SCRATCH`] for the next frame.
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        SCRATCH.with(|c| *c.borrow_mut() = buf);
    }
}

/// Where ray (`x`, `y`) of a view `h` rays tall lies in the raster
/// pre-pass's buffers when they are cut into bands of `band_w` columns
/// (the last one narrower), each band's rays together and row-major.
#[inline]
fn band_index(x: usize, y: usize, w: usize, h: usize, band_w: usize) -> usize {
    if band_w >= w {
        // One band: plain row-major (no division).
        return y * w + x;
    }
    let b = x / band_w;
    let x0 = b * band_w;
    x0 * h + y * band_w.min(w - x0) + (x - x0)
}

/// One band's index and its columns of [`Scratch`]'s buffers.
type BandBufs<'x> = (usize, ((&'x mut [Seen], &'x mut [[f64; 3]]), &'x mut [u16]));

/// Per-ray buffers of the raster pre-pass.
#[derive(Default)]
struct Scratch {
    seen: Vec<Seen>,
    dirs: Vec<[f64; 3]>,
    rings: Vec<u16>,
}

thread_local! {
    /// The last frame's [`Scratch`] on this thread.
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl Seen {
    const NONE: Seen = Seen {
        t: f64::INFINITY,
        cell: [0; 3],
        block: b::AIR,
        axis: 0,
        kind: NOTHING,
        ring: u16::MAX,
        face: 0,
        texel: 0,
    };
}

/// What the raster pre-pass found along one ray: the nearest face it meets
/// and how to colour the ray.
#[derive(Clone, Copy)]
struct Seen {
    /// Distance to the face (ray–plane), or infinite when none was met.
    t: f64,
    cell: [i32; 3],
    block: BlockId,
    axis: u8,
    /// [`NOTHING`], [`SHADE`] or [`TRACE`].
    kind: u8,
    /// The ring of columns the face is in (`u16::MAX` when none).
    ring: u16,
    /// For [`SHADE`]: the texture face (0 top, 1 side, 2 bottom) and the
    /// texel (`v * 8 + u`) met, as [`Scene::shade`] picks them.
    face: u8,
    texel: u8,
}

/// No face met: the ray is traced.
const NOTHING: u8 = 0;
/// An opaque texel of a block's face met clearly: the ray is shaded there.
const SHADE: u8 = 1;
/// Water, a face met near an edge, a texel border or the view distance, or
/// a near tie: the ray is traced.
const TRACE: u8 = 2;

/// Rays per frame from which the raster pre-pass runs (it costs a pass over
/// the faces within reach, which few rays do not repay).
const RASTER_MIN_RAYS: usize = 20_000;

/// Margin (in cell units) within which a ray is taken to be near an edge or
/// border: far wider than the rounding of any distance here (~1e-13), far
/// narrower than a pixel.
const EDGE: f64 = 1e-9;

/// Rays per side of a beam pre-pass tile (8 measured best at 64×64 and at
/// 640×360: smaller tiles start rays later but cost more beams).
const BEAM_TILE: usize = 8;

/// Render the first-person view with HUD into `out` (RGBA, `w*h*4` bytes,
/// alpha 255). `parallel` splits rows over rayon's pool, unless the caller
/// is itself one of rayon's workers (see [`render_rgba_blocky`]).
pub fn render_rgba(world: &World, w: usize, h: usize, out: &mut [u8], parallel: bool) {
    render_rgba_blocky(world, w, h, 1, out, parallel);
}

/// Like [`render_rgba`], but the 3D view is traced at one ray per `block` ×
/// `block` pixels (`ceil(w / block)` × `ceil(h / block)` rays, each filling
/// its square), then the HUD is drawn at full resolution. The blocky look
/// suits 8×8 textures and costs `block²` times fewer rays: the GameWorld
/// game uses it at 1280×720.
pub fn render_rgba_blocky(
    world: &World,
    w: usize,
    h: usize,
    block: usize,
    out: &mut [u8],
    parallel: bool,
) {
    // Rows spread over rayon's threads only from outside them: a caller
    // that is one of rayon's workers (a suite's parallel runs, which keep
    // the cores busy already) could, while waiting for its rows, pick up
    // another whole run.
    let parallel = parallel && rayon::current_thread_index().is_none();
    if renderer().rasterises(w.div_ceil(block.max(1)) * h.div_ceil(block.max(1))) {
        raster::render(world, w, h, block, out, parallel)
    } else {
        render_with(world, w, h, block, out, parallel, Paths::FAST)
    }
}

/// [`render_rgba_blocky`], with the shortcuts chosen (tests compare them).
pub(crate) fn render_with(
    world: &World,
    w: usize,
    h: usize,
    block: usize,
    out: &mut [u8],
    parallel: bool,
    paths: Paths,
) {
    assert_eq!(out.len(), w * h * 4, "buffer is w*h*4 bytes");
    assert!(block >= 1, "block is at least 1 pixel");
    let (tw, th) = (w.div_ceil(block), h.div_ceil(block));
    let mut scene = Scene::new(world, tw, th);
    scene.beam = paths.beam;
    scene.raster = paths.raster;
    // Rays whose whole square the HUD paints over are not traced.
    let layer = hud::layer(world, w, h);
    let (covered, hud_rows) = (&layer.mask, &layer.rows);
    let hidden = |tx: usize, ty: usize| {
        let (x0, y0) = (tx * block, ty * block);
        // Most squares are open at their first pixel.
        if covered[y0 * w + x0] == 0 {
            return false;
        }
        let x1 = ((tx + 1) * block).min(w);
        (y0..((ty + 1) * block).min(h))
            .all(|y| covered[y * w + x0..y * w + x1].iter().all(|&c| c != 0))
    };
    let grid = scene.grid(tw, th, parallel);
    let band = |ty: usize, rows: &mut [u8]| {
        // Trace one row of rays into the band's first row, then widen.
        let line = &mut rows[..w * 4];
        // Most bands hold no HUD pixel.
        let hud = hud_rows[ty * block..((ty + 1) * block).min(h)].contains(&true);
        for (tx, square) in line.chunks_mut(block * 4).enumerate() {
            let c = if hud && hidden(tx, ty) {
                [0, 0, 0]
            } else {
                scene.ray_hit(tx, ty, &grid).0
            };
            let px = [c[0], c[1], c[2], 255];
            if square.len() == 16 {
                // A whole square of block 4 (the game's) in one store.
                let quad: [[u8; 4]; 4] = [px; 4];
                square.copy_from_slice(quad.as_flattened());
            } else {
                for p in square.chunks_exact_mut(4) {
                    p.copy_from_slice(&px);
                }
            }
        }
        let (first, rest) = rows.split_at_mut(w * 4);
        for r in rest.chunks_exact_mut(w * 4) {
            r.copy_from_slice(first);
        }
    };
    each_chunk(out, w * 4 * block, parallel, band);
    hud::draw_over(world, &layer, out);
}

/// Render into an RGB buffer (`w*h*3` bytes).
pub fn render_rgb(world: &World, w: usize, h: usize, parallel: bool) -> Vec<u8> {
    let mut rgba = vec![0u8; w * h * 4];
    render_rgba(world, w, h, &mut rgba, parallel);
    rgba.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect()
}

impl<'a> Scene<'a> {
    /// The scene as seen by the player, for a `w` × `h` grid of rays.
    fn new(world: &'a World, w: usize, h: usize) -> Self {
        let pl = &world.player;
        let cam = Camera::of(world, w, h);
        let (f, r, u, tan_x, tan_y) = (cam.f, cam.r, cam.u, cam.tan_x, cam.tan_y);
        let light = world.daylight();
        let sky_day = [0.47f32, 0.65, 1.0];
        let sky_night = [0.02f32, 0.03, 0.08];
        let mix = |a: [f32; 3], c: [f32; 3], t: f32| {
            [
                a[0] + (c[0] - a[0]) * t,
                a[1] + (c[1] - a[1]) * t,
                a[2] + (c[2] - a[2]) * t,
            ]
        };
        let dayness = (light - 0.25) / 0.75;
        let sky_top = mix(sky_night, sky_day, dayness);
        let sky_horizon = mix([0.05, 0.06, 0.12], [0.75, 0.85, 1.0], dayness);
        let eye = world.eye();
        let near = |bd: &Body| libm::hypot(bd.pos[0] - eye[0], bd.pos[2] - eye[2]) < VIEW_DISTANCE;
        let daylight = world.daylight();
        let bright_at = |p: [f64; 3]| {
            let (sky, bl) = light::at(
                &world.terrain,
                floor_i32(p[0]),
                floor_i32(p[1]),
                floor_i32(p[2]),
            );
            light::brightness(sky, bl, daylight)
        };
        let mut corners: Vec<(Placed, Pick, Paint, f32)> = Vec::new();
        for m in world.mobs.iter().filter(|m| near(&m.body)) {
            let bright = bright_at([
                m.body.pos[0],
                m.body.pos[1] + m.body.height / 2.0,
                m.body.pos[2],
            ]);
            let tint = if m.hurt_ticks > 50 {
                Some([0.9, 0.15, 0.15])
            } else if m.fuse > 0 && (m.fuse / 4) % 2 == 1 {
                Some([1.0, 1.0, 1.0])
            } else {
                None
            };
            for (part, shape) in model::posed(m, world.tick).into_iter().enumerate() {
                corners.push((
                    shape,
                    Pick::Mob(m.id),
                    Paint::Mob {
                        kind: m.kind,
                        part,
                        tint,
                    },
                    bright,
                ));
            }
        }
        for (i, it) in world
            .items
            .iter()
            .enumerate()
            .filter(|(_, i)| near(&i.body))
        {
            let p = it.body.pos;
            corners.push((
                Placed {
                    corner: [p[0] - 0.125, p[1], p[2] - 0.125],
                    axes: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                    size: [0.25; 3],
                },
                Pick::Item(i),
                Paint::Flat(item_color(it.item)),
                bright_at([p[0], p[1] + 0.125, p[2]]),
            ));
        }
        // The pixel rectangle each box can cover: its projected corners,
        // widened by a pixel; where a corner is near or behind the eye,
        // those of the part of the box in front of it, or the whole view
        // when the box comes close to the eye.
        let rect = |lo: [f64; 3], hi: [f64; 3]| -> [i32; 4] {
            let near = |p| match p {
                Projected::Near => cam.project_clipped(lo, hi).unwrap_or(p),
                p => p,
            };
            match near(cam.project(lo, hi)) {
                // Every ray leaves the eye forwards: none meets it.
                Projected::Behind => [1, 0, 1, 0],
                Projected::Near => [0, w as i32 - 1, 0, h as i32 - 1],
                Projected::Rect([x0, y0, x1, y1]) => {
                    let clamp = |v: f64, n: usize| v.clamp(-2.0, n as f64 + 2.0) as i32;
                    [
                        clamp(x0 - 1.0, w),
                        clamp(x1 + 1.0, w),
                        clamp(y0 - 1.0, h),
                        clamp(y1 + 1.0, h),
                    ]
                }
            }
        };
        // Only boxes whose rectangle holds a ray of the view are kept: every
        // ray tests the others' rectangles in vain (behind the eye or off
        // to the side: most of the mobs and items within reach).
        let on_view = |rc: &[i32; 4]| {
            rc[0] <= rc[1].min(w as i32 - 1)
                && rc[2] <= rc[3].min(h as i32 - 1)
                && rc[1] >= 0
                && rc[3] >= 0
        };
        let boxes = corners
            .into_iter()
            .map(|(shape, who, paint, bright)| {
                let (lo, hi) = shape.bounds();
                ScreenBox {
                    shape,
                    rect: rect(lo, hi),
                    who,
                    paint,
                    bright,
                }
            })
            .filter(|bx| on_view(&bx.rect))
            .collect();
        let top = world.terrain.loaded().map(|c| c.top()).max().unwrap_or(0);
        // Chunks holding a cell a ray enters at distance ≤ VIEW_DISTANCE:
        // within that distance plus a cell's diagonal of the eye.
        let reach = VIEW_DISTANCE + 2.0;
        let span = |e: f64| {
            (
                libm::floor((e - reach) / CHUNK as f64) as i32,
                libm::floor((e + reach) / CHUNK as f64) as i32,
            )
        };
        let ((x0, x1), (z0, z1)) = (span(eye[0]), span(eye[2]));
        let mut sky_floor = Some(0);
        for cx in x0..=x1 {
            for cz in z0..=z1 {
                let gap = |e: f64, c: i32| {
                    let lo = (c * CHUNK) as f64;
                    (lo - e).max(e - (lo + CHUNK as f64)).max(0.0)
                };
                let (gx, gz) = (gap(eye[0], cx), gap(eye[2], cz));
                if gx * gx + gz * gz > reach * reach {
                    continue;
                }
                sky_floor = match (sky_floor, world.terrain.chunk(cx, cz)) {
                    (Some(f), Some(c)) => Some(f.max(c.top())),
                    _ => None,
                };
            }
        }
        Scene {
            terrain: &world.terrain,
            eye,
            f,
            r,
            u,
            tan_x,
            tan_y,
            light,
            sky_top,
            sky_horizon,
            boxes,
            breaking: pl
                .breaking
                .map(|s| (s.pos, s.ticks as f32 / s.needed.max(1) as f32)),
            target: world.target().map(|t| t.pos),
            top,
            sky_floor,
            tex: textures(),
            beam: true,
            raster: None,
            eye_cell: eye.map(floor_i32),
        }
    }

    /// The screen offsets of a `w` × `h` grid of rays and, per tile of
    /// [`BEAM_TILE`] × [`BEAM_TILE`] rays, the distance their walks may
    /// start at ([`beam_start`](Self::beam_start)).
    fn grid(&self, w: usize, h: usize, parallel: bool) -> RayGrid {
        let cols: Vec<f64> = (0..w).map(|x| screen_x(x, w, self.tan_x)).collect();
        let rows: Vec<f64> = (0..h).map(|y| screen_y(y, h, self.tan_y)).collect();
        let (gw, gh) = (w.div_ceil(BEAM_TILE), h.div_ceil(BEAM_TILE));
        let tile = BEAM_TILE;
        let one = |i: usize| {
            let (gx, gy) = (i % gw, i / gw);
            let (x0, x1) = (gx * tile, ((gx + 1) * tile).min(w) - 1);
            let (y0, y1) = (gy * tile, ((gy + 1) * tile).min(h) - 1);
            // Offsets grow with x and shrink with y.
            self.beam_start([cols[x0], cols[x1]], [rows[y1], rows[y0]])
        };
        // The per-ray buffers are kept between frames (per thread): fresh
        // ones of this size would cost page faults on every frame.
        let mut buf = SCRATCH.with(|c| std::mem::take(&mut *c.borrow_mut()));
        // Bands of ray columns the raster pre-pass draws separately: one
        // per thread in parallel, a single one in order (each band repeats
        // the walk over the world's columns, which costs more than its
        // narrower view pyramid saves). Bands side by side (rather than rows
        // one above the other) split the world's columns between their view
        // pyramids, and each holds a like share of ground and sky, so the
        // threads finish together.
        let n = if parallel {
            rayon::current_num_threads().clamp(1, 16)
        } else {
            1
        };
        let per = w.div_ceil(n).max(1);
        buf.seen.clear();
        buf.dirs.clear();
        if w * h > 0 && self.raster.unwrap_or(w * h >= RASTER_MIN_RAYS) {
            buf.seen.resize(w * h, Seen::NONE);
            buf.dirs.resize(w * h, [0.0; 3]);
            buf.rings.clear();
            buf.rings.resize(w * h, u16::MAX);
            // Bands of columns, each with its own (narrower) view pyramid.
            let band = |(i, ((s, d), r)): BandBufs| {
                self.raster(&cols, &rows, (i * per, ((i + 1) * per).min(w)), (s, d, r))
            };
            let ok = if parallel {
                buf.seen
                    .par_chunks_mut(per * h)
                    .zip(buf.dirs.par_chunks_mut(per * h))
                    .zip(buf.rings.par_chunks_mut(per * h))
                    .enumerate()
                    .map(band)
                    .collect::<Vec<bool>>()
            } else {
                vec![band((0, ((&mut buf.seen, &mut buf.dirs), &mut buf.rings)))]
            };
            if !ok.iter().all(|&o| o) {
                buf.seen.clear();
                buf.dirs.clear();
            }
        }
        let col_at: Vec<[usize; 2]> = (0..w)
            .map(|x| [band_index(x, 0, w, h, per), per.min(w - x / per * per)])
            .collect();
        let seen = &buf.seen;
        // Tiles whose every ray the raster shades or ends in sky need no
        // beam (sky tiles cost the longest beams). A ray among them that
        // meets a box walks from the eye: slower, the same pixel.
        let dirs = &buf.dirs;
        let needed = |i: usize| {
            let (gx, gy) = (i % gw, i / gw);
            seen.is_empty()
                || (gy * tile..((gy + 1) * tile).min(h)).any(|y| {
                    (gx * tile..((gx + 1) * tile).min(w)).any(|x| {
                        let k = col_at[x][0] + y * col_at[x][1];
                        match seen[k].kind {
                            SHADE => false,
                            NOTHING => !self.sky_ray(dirs[k]),
                            _ => true,
                        }
                    })
                })
        };
        let starts = if !self.beam {
            vec![0.0; gw * gh]
        } else if parallel {
            (0..gw * gh)
                .into_par_iter()
                .map(|i| if needed(i) { one(i) } else { 0.0 })
                .collect()
        } else {
            (0..gw * gh)
                .map(|i| if needed(i) { one(i) } else { 0.0 })
                .collect()
        };
        RayGrid {
            cols,
            rows,
            gw,
            starts,
            col_at,
            buf,
        }
    }

    /// A distance `t0` (at most [`VIEW_DISTANCE`]) such that every ray with
    /// screen offsets in `sx[0]..=sx[1]` × `sy[0]..=sy[1]` meets before
    /// `t0` only air cells of loaded chunks, at heights `0..self.top`: its
    /// walk may start at `t0` and ends as the walk from the eye would.
    ///
    /// The rays at distances `ta..tb` lie in the box spanned by the four
    /// corner directions `f + r·sx + u·sy` scaled by `ta / |d|max` and
    /// `tb / |d|min` (each coordinate is bilinear in the scale and the
    /// offsets, so its extremes are at those corners); the beam advances
    /// while every cell of such a box is air (`Chunk::filled`).
    fn beam_start(&self, sx: [f64; 2], sy: [f64; 2]) -> f64 {
        let dir = |a: f64, c: f64| {
            [
                self.f[0] + self.r[0] * a + self.u[0] * c,
                self.f[1] + self.r[1] * a + self.u[1] * c,
                self.f[2] + self.r[2] * a + self.u[2] * c,
            ]
        };
        let corners = [
            dir(sx[0], sy[0]),
            dir(sx[1], sy[0]),
            dir(sx[0], sy[1]),
            dir(sx[1], sy[1]),
        ];
        // |d|² = 1 + sx² + sy² (f, r, u orthonormal), least nearest 0.
        let nearest = |v: [f64; 2]| v[0].max(0.0).min(v[1]);
        let farthest = |v: [f64; 2]| v[0].abs().max(v[1].abs());
        let (nx, ny) = (nearest(sx), nearest(sy));
        let (fx, fy) = (farthest(sx), farthest(sy));
        let len_min = (1.0 + nx * nx + ny * ny).sqrt() * (1.0 - 1e-9);
        let len_max = (1.0 + fx * fx + fy * fy).sqrt() * (1.0 + 1e-9);
        let eye = self.eye;
        let (mut cmin, mut cmax) = ([f64::MAX; 3], [f64::MIN; 3]);
        for c in &corners {
            for k in 0..3 {
                cmin[k] = cmin[k].min(c[k]);
                cmax[k] = cmax[k].max(c[k]);
            }
        }
        let mut cached: (i32, i32, Option<&Chunk>) = (i32::MIN, i32::MIN, None);
        let mut ta = 0.0f64;
        // A blocked step is retried at half the length, down to an eighth.
        let mut part = 1.0f64;
        while ta < VIEW_DISTANCE {
            // Longer steps further out, where the beam is wide anyway.
            let tb = (ta + (1.0 + 0.1 * ta) * part).min(VIEW_DISTANCE);
            let (la, lb) = (ta / len_max, tb / len_min);
            // Scales are positive: each axis' extremes come from the
            // corners' least and greatest component.
            let (mut lo, mut hi) = ([0.0; 3], [0.0; 3]);
            for k in 0..3 {
                lo[k] = eye[k] + (cmin[k] * la).min(cmin[k] * lb);
                hi[k] = eye[k] + (cmax[k] * la).max(cmax[k] * lb);
            }
            let e = 1e-6;
            let cell = floor_i32;
            let (y0, y1) = (cell(lo[1] - e), cell(hi[1] + e));
            let clear = 'check: {
                if y0 < 0 || y1 >= self.top {
                    break 'check false;
                }
                // Bits y0..=y1 (y1 < top ≤ HEIGHT = 128).
                let span = (u128::MAX >> (127 - y1)) & (u128::MAX << y0);
                // Tile by tile of 4×4 columns (`Chunk::tile_filled`): most
                // are clear as a whole; the columns of the others inside
                // the box are tested one by one.
                let (xa, xb) = (cell(lo[0] - e), cell(hi[0] + e));
                let (za, zb) = (cell(lo[2] - e), cell(hi[2] + e));
                for tx in (xa >> 2)..=(xb >> 2) {
                    for tz in (za >> 2)..=(zb >> 2) {
                        let (cx, cz) = (tx >> 2, tz >> 2);
                        if (cx, cz) != (cached.0, cached.1) {
                            cached = (cx, cz, self.terrain.chunk(cx, cz));
                        }
                        let Some(c) = cached.2 else {
                            break 'check false;
                        };
                        let tile = ((tx & 3) * 4 + (tz & 3)) as usize;
                        if c.tile_filled[tile] & span == 0 {
                            continue;
                        }
                        for x in (tx * 4).max(xa)..=(tx * 4 + 3).min(xb) {
                            for z in (tz * 4).max(za)..=(tz * 4 + 3).min(zb) {
                                let column =
                                    ((x & (CHUNK - 1)) * CHUNK + (z & (CHUNK - 1))) as usize;
                                if c.filled[column] & span != 0 {
                                    break 'check false;
                                }
                            }
                        }
                    }
                }
                true
            };
            if clear {
                ta = tb;
            } else if part < 0.2 {
                return ta;
            } else {
                part *= 0.5;
            }
        }
        VIEW_DISTANCE
    }

    /// The raster pre-pass: per ray of the grid (screen offsets `cols` ×
    /// `rows`, row-major), the nearest face among those through which a
    /// walk from the eye can enter a block, and whether the ray can be
    /// shaded there without its walk ([`SHADE`]).
    ///
    /// Faces: every face of a non-air cell within reach that faces the eye
    /// and whose neighbour on the eye's side is air or see-through (the
    /// faces next to opaque blocks or water cannot be the first a ray
    /// meets, as the ray would have met that block or water first). They
    /// go ring by ring of columns around the eye's column (the ring of the
    /// cells a ray enters never decreases), so a ray that met a face in an
    /// earlier ring is final, and a face whose screen rectangle lies in
    /// tiles of final rays only is skipped whole. Per ray the test is the
    /// exact ray–plane distance and the texel's alpha as [`Scene::shade`]
    /// computes them; anything the walk might decide otherwise by rounding
    /// (a hit within [`EDGE`] of the face's edges, of a texel border or of
    /// the target outline, near ties, the view distance) or that needs the
    /// walk's own state (water) is left to the walk ([`TRACE`]).
    ///
    /// `None` where the frame does not allow it (the eye not in an air
    /// cell, or a chunk within reach not loaded): every ray is traced.
    fn raster(
        &self,
        all_cols: &[f64],
        rows: &[f64],
        band: (usize, usize),
        out: (&mut [Seen], &mut [[f64; 3]], &mut [u16]),
    ) -> bool {
        let cols = &all_cols[band.0..band.1];
        let (w, h) = (cols.len(), rows.len());
        let ec = self.eye_cell;
        if self.sky_floor.is_none()
            || !(0..HEIGHT - 1).contains(&ec[1])
            || self.terrain.get(ec[0], ec[1], ec[2]) != b::AIR
        {
            return false;
        }
        let eye = self.eye;
        let reach = VIEW_DISTANCE + 1.0;
        let rings = reach as i32 + 1;
        let (cx0, cz0) = ((ec[0] - rings - 1) >> 4, (ec[2] - rings - 1) >> 4);
        let (cx1, cz1) = ((ec[0] + rings + 1) >> 4, (ec[2] + rings + 1) >> 4);
        let cw = (cz1 - cz0 + 1) as usize;
        let chunks: Vec<Option<&Chunk>> = (cx0..=cx1)
            .flat_map(|cx| (cz0..=cz1).map(move |cz| (cx, cz)))
            .map(|(cx, cz)| self.terrain.chunk(cx, cz))
            .collect();
        let column = |x: i32, z: i32| -> Option<(&Chunk, usize)> {
            let c = chunks[((x >> 4) - cx0) as usize * cw + ((z >> 4) - cz0) as usize]?;
            Some((c, ((x & (CHUNK - 1)) * CHUNK + (z & (CHUNK - 1))) as usize))
        };
        // Cells a ray can be in just before it enters a block: air and
        // see-through blocks (all, where the chunk is not loaded).
        let passable = |x: i32, z: i32| match column(x, z) {
            Some((c, i)) => !(c.opaque[i] | c.water[i]),
            None => u128::MAX,
        };
        let ylo = floor_i32(eye[1] - reach).max(0);
        let yhi = floor_i32(eye[1] + reach).min(HEIGHT - 1);
        let ymask = (u128::MAX >> (127 - yhi)) & (u128::MAX << ylo);
        // Cells above the eye's are entered from below, those under it
        // from above (ec[1] < HEIGHT - 1).
        let above = ymask & (u128::MAX << (ec[1] + 1));
        let below = ymask & ((1u128 << ec[1]) - 1);
        let (seen, dirs, ring_of) = out;
        for (y, line) in dirs.chunks_exact_mut(w).enumerate() {
            for (x, d) in line.iter_mut().enumerate() {
                *d = self.dir(cols[x], rows[y]);
            }
        }
        let mut r = Raster {
            scene: self,
            w,
            h,
            dirs,
            seen,
            rings: ring_of,
            all_w: all_cols.len() as f64,
            x0: band.0 as f64,
            tw: w.div_ceil(RASTER_TILE),
            count: vec![0; w.div_ceil(RASTER_TILE) * h.div_ceil(RASTER_TILE)],
            full: vec![false; w.div_ceil(RASTER_TILE) * h.div_ceil(RASTER_TILE)],
            ring: 0,
        };
        let gap = |e: f64, c: i32| (c as f64 - e).max(e - (c as f64 + 1.0)).max(0.0);
        // Inner normals of the sides of the pyramid holding the band's
        // rays (a millionth wider than their offsets): a point p (from the
        // eye) is in it where sx0 ≤ p·r / p·f ≤ sx1 and likewise for p·u
        // between the band's bottom and top row offsets.
        let (f, rt, up) = (self.f, self.r, self.u);
        let side = |a: [f64; 3], s: f64, tan: f64| {
            [
                tan * f[0] + s * a[0],
                tan * f[1] + s * a[1],
                tan * f[2] + s * a[2],
            ]
        };
        let m = 1e-6;
        let pyramid = [
            side(rt, -1.0, cols[w - 1] + m),
            side(rt, 1.0, -(cols[0] - m)),
            side(up, -1.0, rows[0] + m),
            side(up, 1.0, -(rows[h - 1] - m)),
        ];
        for k in 0..=rings {
            r.ring = k as u16;
            // Rays that met a face in an earlier ring are final.
            for (i, f) in r.full.iter_mut().enumerate() {
                let (gx, gy) = (i % r.tw, i / r.tw);
                let size = (w - gx * RASTER_TILE).min(RASTER_TILE)
                    * (h - gy * RASTER_TILE).min(RASTER_TILE);
                *f = r.count[i] as usize == size;
            }
            if r.full.iter().all(|&f| f) {
                break;
            }
            let side = 2 * k + 1;
            let perimeter = if k == 0 { 1 } else { 4 * (side - 1) };
            for n in 0..perimeter {
                // Walk the ring's perimeter: top row, right side, bottom
                // row, left side.
                let (dx, dz) = if k == 0 {
                    (0, 0)
                } else {
                    let e = side - 1;
                    match n / e {
                        0 => (-k + n % e, -k),
                        1 => (k, -k + n % e),
                        2 => (k - n % e, k),
                        _ => (-k, k - n % e),
                    }
                };
                let (x, z) = (ec[0] + dx, ec[2] + dz);
                let (gx, gz) = (gap(eye[0], x), gap(eye[2], z));
                if gx * gx + gz * gz > reach * reach {
                    continue;
                }
                let Some((c, i)) = column(x, z) else {
                    continue;
                };
                let filled = c.filled[i] & ymask;
                if filled == 0 {
                    continue;
                }
                let water = c.water[i];
                let p = !(c.opaque[i] | water);
                let mut faces = [
                    (1usize, 0i32, filled & above & (p << 1)),
                    (1, 1, filled & below & (p >> 1)),
                    (0, 0, 0),
                    (2, 0, 0),
                ];
                if x != ec[0] {
                    let (nx, off) = if x > ec[0] { (x - 1, 0) } else { (x + 1, 1) };
                    faces[2] = (0, off, filled & passable(nx, z));
                }
                if z != ec[2] {
                    let (nz, off) = if z > ec[2] { (z - 1, 0) } else { (z + 1, 1) };
                    faces[3] = (2, off, filled & passable(x, nz));
                }
                let all = faces[0].2 | faces[1].2 | faces[2].2 | faces[3].2;
                if all == 0 {
                    continue;
                }
                // The box of the column's cells with a face to draw outside
                // the pyramid holding the band's rays: nothing to draw.
                let (y0, y1) = (
                    all.trailing_zeros() as f64,
                    (128 - all.leading_zeros()) as f64,
                );
                let lo = [x as f64 - eye[0], y0 - eye[1], z as f64 - eye[2]];
                let hi = [lo[0] + 1.0, y1 - eye[1], lo[2] + 1.0];
                let outside = pyramid.iter().any(|n| {
                    (0..3)
                        .map(|k| (n[k] * lo[k]).max(n[k] * hi[k]))
                        .sum::<f64>()
                        < 0.0
                });
                if outside {
                    continue;
                }
                for (axis, off, mut m) in faces {
                    while m != 0 {
                        let y = m.trailing_zeros() as i32;
                        m &= m - 1;
                        let block = c.blocks[i * HEIGHT as usize + y as usize];
                        r.face([x, y, z], axis, off, block, water >> y & 1 != 0);
                    }
                }
            }
        }
        true
    }

    /// The unit direction of the ray with screen offsets `sx`, `sy`.
    #[inline]
    fn dir(&self, sx: f64, sy: f64) -> [f64; 3] {
        let mut d = [
            self.f[0] + self.r[0] * sx + self.u[0] * sy,
            self.f[1] + self.r[1] * sx + self.u[1] * sy,
            self.f[2] + self.r[2] * sx + self.u[2] * sy,
        ];
        let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        for k in &mut d {
            *k /= n;
        }
        d
    }

    /// The colour of ray (`x`, `y`) of `grid` and what it ends on.
    fn ray_hit(&self, x: usize, y: usize, grid: &RayGrid) -> ([u8; 3], Pick) {
        // Where the walk of this ray may start (needed only to trace it).
        let t0 = || grid.starts[(y / BEAM_TILE) * grid.gw + x / BEAM_TILE];
        if grid.buf.seen.is_empty() {
            // No raster this frame.
            let d = self.dir(grid.cols[x], grid.rows[y]);
            return self.trace(d, x as i32, y as i32, t0());
        }
        let [at, stride] = grid.col_at[x];
        let i = at + y * stride;
        let s = &grid.buf.seen[i];
        let d = grid.buf.dirs[i];
        // No box on the ray: `trace` would walk the terrain alone.
        let boxless = || !self.box_on_ray(d, x as i32, y as i32);
        if s.kind == SHADE
            && boxless()
            && let Some(c) = if self.target == Some(s.cell) {
                self.shade(s.block, s.cell, s.axis as usize, s.t, d)
            } else {
                // The texel the raster found, lit as `shade` lights it
                // (the target's outline is the only part that needs the
                // exact hit point beyond the texel).
                let (tu, tv) = ((s.texel % 8) as usize, (s.texel / 8) as usize);
                Some(self.lit(s.block, s.cell, s.axis as usize, s.face as usize, tu, tv, d))
            }
        {
            // The raster met this block's face clearly, with only air and
            // see-through texels before it and no box on the ray: the walk
            // would end there, as shaded here.
            let hit = Pick::Block {
                id: s.block,
                pos: s.cell,
            };
            return (self.fogged(c, s.t, None), hit);
        }
        if s.kind == NOTHING && self.sky_ray(d) && boxless() {
            return (self.fogged(self.sky(d), f64::INFINITY, None), Pick::Sky);
        }
        self.trace(d, x as i32, y as i32, t0())
    }

    /// For a ray along `d` on which the raster met no face within reach
    /// (only air and see-through texels up to the view distance), whether
    /// it stays inside the world's height range that far, so that with no
    /// box on it the walk ends past the view distance (or at `sky_floor`)
    /// in fully fogged sky.
    #[inline]
    fn sky_ray(&self, d: [f64; 3]) -> bool {
        let y_end = self.eye[1] + d[1] * (VIEW_DISTANCE + 1.0);
        y_end > 0.0 && y_end < HEIGHT as f64
    }

    /// Whether the ray along `d` of pixel (`px`, `py`) meets a box (mob or
    /// item) whose screen rectangle holds the pixel: exactly the boxes
    /// [`Scene::trace`] finds on the ray. A box near the eye covers the
    /// whole view with its rectangle; testing the ray itself keeps the
    /// rays that miss it on the raster's shortcuts.
    #[inline]
    fn box_on_ray(&self, d: [f64; 3], px: i32, py: i32) -> bool {
        self.boxes
            .iter()
            .any(|bx| bx.holds(px, py) && bx.shape.hit(self.eye, d).is_some())
    }

    fn sky(&self, d: [f64; 3]) -> [f32; 3] {
        let t = (d[1].clamp(0.0, 1.0) as f32).sqrt();
        [
            self.sky_horizon[0] + (self.sky_top[0] - self.sky_horizon[0]) * t,
            self.sky_horizon[1] + (self.sky_top[1] - self.sky_horizon[1]) * t,
            self.sky_horizon[2] + (self.sky_top[2] - self.sky_horizon[2]) * t,
        ]
    }

    /// The ray from the eye along `d` (unit), for pixel (`px`, `py`); its
    /// walk starts at distance `t0` ([`beam_start`](Self::beam_start)).
    fn trace(&self, d: [f64; 3], px: i32, py: i32, t0: f64) -> ([u8; 3], Pick) {
        let o = self.eye;
        // Nearest box (mob or item) along the ray.
        let mut box_hit: Option<(f64, usize, usize, bool, [f64; 3])> = None;
        for (i, bx) in self.boxes.iter().enumerate() {
            if !bx.holds(px, py) {
                continue;
            }
            if let Some((t, axis, far, at)) = bx.shape.hit(o, d)
                && box_hit.is_none_or(|h| t < h.0)
            {
                box_hit = Some((t, i, axis, far, at));
            }
        }
        let box_t = box_hit.map_or(f64::INFINITY, |h| h.0);
        // Only air up to the view distance and no box: the walk would end
        // in fully fogged sky (past the view distance, or at once by
        // `sky_floor`), as here.
        if t0 >= VIEW_DISTANCE && box_hit.is_none() {
            return (self.fogged(self.sky(d), f64::INFINITY, None), Pick::Sky);
        }
        let mut walk = VoxelWalk::at(self.eye_cell, o, d);
        let mut axis = 0usize;
        let mut t = 0.0f64;
        let mut first = true;
        if t0 > 0.0
            && let Some((ax, tt)) = walk.skip_to(t0)
        {
            (axis, t, first) = (ax, tt, false);
        }
        let mut water: Option<f64> = None;
        let mut chunk: Option<&Chunk> = None;
        let mut chunk_top = 0;
        let mut ccx = i32::MIN;
        let mut ccz = i32::MIN;
        let mut hit = Pick::Sky;
        let step = walk.step;
        let color: [f32; 3] = 'walk: loop {
            let cell = walk.cell;
            // Above every block and not descending: nothing but the box,
            // if any, lies ahead.
            let clear = cell[1] >= self.top && step[1] >= 0;
            if (box_t <= t || clear)
                && let Some((_, i, ax, far, at)) = box_hit
            {
                hit = self.boxes[i].who;
                break self.boxes[i].color(d, ax, far, at);
            }
            if clear {
                // Fogged as far as the ray's way out of the world's top.
                t = walk.time_to(1, HEIGHT).max(t);
                break self.sky(d);
            }
            // Above every block within reach, not descending, and not up to
            // `top` within the view distance: the walk would meet only air
            // until it passes the view distance, where fog is total (with
            // no box or water on the way, the exact distance is not needed).
            if let Some(floor) = self.sky_floor
                && cell[1] >= floor
                && step[1] >= 0
                && box_hit.is_none()
                && water.is_none()
                && walk.time_to(1, self.top) > VIEW_DISTANCE + 1e-6
            {
                t = f64::INFINITY;
                break self.sky(d);
            }
            if t > VIEW_DISTANCE || (cell[1] < 0 && step[1] < 0) {
                break self.sky(d);
            }
            let v = if (0..HEIGHT).contains(&cell[1]) {
                let (cx, cz) = (cell[0] >> 4, cell[2] >> 4);
                if cx != ccx || cz != ccz {
                    chunk = self.terrain.chunk(cx, cz);
                    chunk_top = chunk.map_or(0, |c| c.top());
                    ccx = cx;
                    ccz = cz;
                }
                let Some(c) = chunk else {
                    break self.sky(d);
                };
                let (lx, lz) = (cell[0] & (CHUNK - 1), cell[2] & (CHUNK - 1));
                // Above every block of the chunk, or of the 4×4 tile of
                // columns: only air until the ray leaves that box.
                let region = if cell[1] >= chunk_top {
                    Some(([cx * CHUNK, chunk_top, cz * CHUNK], CHUNK))
                } else {
                    let tile_top = c.tops[((lx >> 2) * 4 + (lz >> 2)) as usize] as i32;
                    (cell[1] >= tile_top).then_some(([cell[0] & !3, tile_top, cell[2] & !3], 4))
                };
                if let Some((lo, size)) = region {
                    let hi = [lo[0] + size - 1, i32::MAX / 2, lo[2] + size - 1];
                    if let Some((ax, tt)) = walk.leave_box(lo, hi) {
                        (axis, t) = (ax, tt);
                        first = false;
                        continue;
                    }
                }
                c.get(lx, cell[1], lz)
            } else {
                b::AIR
            };
            if v == b::WATER {
                if water.is_none() {
                    water = Some(t);
                }
            } else if v != b::AIR
                && !first
                && let Some(c) = self.shade(v, cell, axis, t, d)
            {
                hit = Pick::Block { id: v, pos: cell };
                break c;
            }
            // A block around the eye (e.g. head in tall grass) is looked through.
            first = false;
            (axis, t) = walk.advance();
            // Fast walk: while the ray stays in this chunk, under its 4×4
            // tile's top and short of the box and the view distance, the
            // checks above can only find air (stepped over), water (noted)
            // or a block, shaded here as they would shade it (its cell is
            // below its chunk's top, so below `top` and `sky_floor`, and
            // within the view distance); a see-through texel is stepped
            // over as they would; anything else goes back to them.
            if let Some(c) = chunk {
                let [x, mut y, z] = walk.cell;
                if x >> 4 != ccx || z >> 4 != ccz {
                    continue;
                }
                let (mut lx, mut lz) = (x & (CHUNK - 1), z & (CHUNK - 1));
                let mut tile_top = c.tops[((lx >> 2) * 4 + (lz >> 2)) as usize] as i32;
                let blocks = &c.blocks[..];
                let mut i = ((lx * CHUNK + lz) * HEIGHT + y) as isize;
                loop {
                    if !(t < box_t && t <= VIEW_DISTANCE && y >= 0 && y < tile_top) {
                        break;
                    }
                    let v = blocks[i as usize];
                    if v == b::WATER {
                        if water.is_none() {
                            water = Some(t);
                        }
                    } else if v != b::AIR {
                        let cell = walk.cell;
                        if let Some(c) = self.shade(v, cell, axis, t, d) {
                            hit = Pick::Block { id: v, pos: cell };
                            break 'walk c;
                        }
                    }
                    (axis, t) = walk.advance();
                    match axis {
                        1 => {
                            y += step[1];
                            i += step[1] as isize;
                        }
                        0 => {
                            let old = lx >> 2;
                            lx += step[0];
                            if lx as u32 >= CHUNK as u32 {
                                break;
                            }
                            i += (step[0] * CHUNK * HEIGHT) as isize;
                            if lx >> 2 != old {
                                tile_top = c.tops[((lx >> 2) * 4 + (lz >> 2)) as usize] as i32;
                            }
                        }
                        _ => {
                            let old = lz >> 2;
                            lz += step[2];
                            if lz as u32 >= CHUNK as u32 {
                                break;
                            }
                            i += (step[2] * HEIGHT) as isize;
                            if lz >> 2 != old {
                                tile_top = c.tops[((lx >> 2) * 4 + (lz >> 2)) as usize] as i32;
                            }
                        }
                    }
                }
            }
        };
        // A box is met at its own distance, not at the cell entered after.
        (self.fogged(color, t.min(box_t), water), hit)
    }

    /// `color` seen at distance `t`, fogged towards the horizon colour, and
    /// through water from distance `water` on, as bytes.
    fn fogged(&self, color: [f32; 3], t: f64, water: Option<f64>) -> [u8; 3] {
        let fog = self.sky_horizon;
        // At the view distance and past it, the fog colour itself (not a
        // blend that may round a hair away from it).
        let mut c = if t >= VIEW_DISTANCE {
            fog
        } else {
            let fog_t = ((t / VIEW_DISTANCE) as f32).powi(2);
            [
                color[0] + (fog[0] - color[0]) * fog_t,
                color[1] + (fog[1] - color[1]) * fog_t,
                color[2] + (fog[2] - color[2]) * fog_t,
            ]
        };
        if let Some(wt) = water {
            let depth = ((t - wt).min(8.0) / 8.0) as f32;
            let a = 0.45 + 0.45 * depth;
            let wc = [0.15 * self.light, 0.3 * self.light, 0.8 * self.light];
            for k in 0..3 {
                c[k] = c[k] * (1.0 - a) + wc[k] * a;
            }
        }
        [
            (c[0] * 255.0) as u8,
            (c[1] * 255.0) as u8,
            (c[2] * 255.0) as u8,
        ]
    }

    /// Colour of block `v` hit on its face across `axis` at distance `t`, or
    /// `None` where the texel is see-through.
    #[inline(always)]
    fn shade(
        &self,
        v: BlockId,
        cell: [i32; 3],
        axis: usize,
        t: f64,
        d: [f64; 3],
    ) -> Option<[f32; 3]> {
        let o = self.eye;
        let p = [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t];
        let frac = |k: usize| (p[k] - cell[k] as f64).clamp(0.0, 0.9999);
        let (uu, vv) = match axis {
            0 => (frac(2), 1.0 - frac(1)),
            1 => (frac(0), frac(2)),
            _ => (frac(0), 1.0 - frac(1)),
        };
        let face = if axis == 1 {
            if d[1] < 0.0 { 0 } else { 2 }
        } else {
            1
        };
        // uu, vv < 1: the products are below TEX (through i32, the
        // cheaper conversion).
        let (tu, tv) = (
            ((uu * TEX as f64) as i32 as usize).min(TEX - 1),
            ((vv * TEX as f64) as i32 as usize).min(TEX - 1),
        );
        if self.tex.texels[v as usize * 3 + face][tv * TEX + tu][3] == 0 {
            return None;
        }
        if self.outline(cell, uu, vv) {
            return Some(OUTLINE);
        }
        Some(self.lit(v, cell, axis, face, tu, tv, d))
    }

    /// Whether face coordinates `uu`, `vv` of a face of `cell` lie on the
    /// target block's outline.
    #[inline(always)]
    fn outline(&self, cell: [i32; 3], uu: f64, vv: f64) -> bool {
        let e = 0.04;
        self.target == Some(cell) && (uu < e || uu > 1.0 - e || vv < e || vv > 1.0 - e)
    }

    /// Texel `tx` (at `tu`, `tv`) of a face of `cell` under `light`,
    /// darkened where the cracks of the block being broken run.
    #[inline(always)]
    fn texel_rgb(&self, tx: [u8; 4], cell: [i32; 3], tu: usize, tv: usize, light: f32) -> [f32; 3] {
        let mut s = light;
        if let Some((bp, prog)) = self.breaking
            && bp == cell
            && unit(9, tu as i32, tv as i32, 3) < prog * 0.8
        {
            s *= 0.35;
        }
        [
            UNIT8[tx[0] as usize] * s,
            UNIT8[tx[1] as usize] * s,
            UNIT8[tx[2] as usize] * s,
        ]
    }

    /// The colour of opaque texel (`tu`, `tv`) of texture `face` of block
    /// `v` in `cell`, met across `axis` along `d`: face light, daylight and
    /// the breaking cracks (the target's outline aside).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lit(
        &self,
        v: BlockId,
        cell: [i32; 3],
        axis: usize,
        face: usize,
        tu: usize,
        tv: usize,
        d: [f64; 3],
    ) -> [f32; 3] {
        let tx = self.tex.texels[v as usize * 3 + face][tv * TEX + tu];
        // Lit by the cell in front of the face (the side the ray comes
        // from).
        let mut n = cell;
        n[axis] -= if d[axis] > 0.0 { 1 } else { -1 };
        let (sky, bl) = light::at(self.terrain, n[0], n[1], n[2]);
        let s = face_shade(axis, d) * light::brightness(sky, bl, self.light);
        self.texel_rgb(tx, cell, tu, tv, s)
    }
}

/// How near (in pixels) to a face's projection a ray is tested against it.
const SPAN_MARGIN: f64 = 1e-3;

/// Rays per side of the raster pre-pass's occlusion tiles.
const RASTER_TILE: usize = 8;

/// The state of the raster pre-pass ([`Scene::raster`]).
struct Raster<'s, 'a, 'b> {
    scene: &'s Scene<'a>,
    w: usize,
    h: usize,
    /// Per ray, its unit direction (as [`Scene::dir`] gives it).
    dirs: &'b mut [[f64; 3]],
    seen: &'b mut [Seen],
    /// Per ray, the ring of the face in `seen` (`u16::MAX`: none yet).
    rings: &'b mut [u16],
    /// Columns of the whole view, and the first column of the band drawn.
    all_w: f64,
    x0: f64,
    /// Tiles per row.
    tw: usize,
    /// Per tile, the rays that met a face so far.
    count: Vec<u16>,
    /// Per tile, whether every ray met a face in an earlier ring.
    full: Vec<bool>,
    /// The ring of columns being drawn.
    ring: u16,
}

impl Raster<'_, '_, '_> {
    /// Draws the face of `cell` (holding `block`) across `axis` at
    /// `cell[axis] + off`, which faces the eye.
    fn face(&mut self, cell: [i32; 3], axis: usize, off: i32, block: BlockId, water: bool) {
        let sc = self.scene;
        let (eye, f, r, u) = (sc.eye, sc.f, sc.r, sc.u);
        let (a, bx) = match axis {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let plane = (cell[axis] + off) as f64;
        let mut rel = [0.0; 3];
        rel[axis] = plane - eye[axis];
        rel[a] = cell[a] as f64 - eye[a];
        rel[bx] = cell[bx] as f64 - eye[bx];
        let dot = |v: [f64; 3], e: [f64; 3]| v[0] * e[0] + v[1] * e[1] + v[2] * e[2];
        let (z0, x0, y0) = (dot(rel, f), dot(rel, r), dot(rel, u));
        // The corners in order round the face, in camera space.
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(i, j)| {
            [
                z0 + f[a] * i + f[bx] * j,
                x0 + r[a] * i + r[bx] * j,
                y0 + u[a] * i + u[bx] * j,
            ]
        });
        if corners.iter().all(|c| c[0] <= 0.0) {
            // Every ray heads forwards: a face wholly behind the eye's
            // plane meets none.
            return;
        }
        let (w, h) = (self.w, self.h);
        // The face clipped to depths from NEAR on: a ray meeting the face
        // nearer than that travels at most NEAR·|d| (|d| ≤ `dmax` for the
        // unnormalised directions f + r·sx + u·sy), so where the plane is
        // farther than that from the eye, the clipped face's screen
        // rectangle holds every ray that meets it.
        const NEAR: f64 = 0.05;
        // The clipped face's corners in pixel coordinates: pixel x's
        // offset is (2 (x + 0.5) / w - 1) tan_x, row y's is
        // (1 - 2 (y + 0.5) / h) tan_y.
        let (wf, hf, band_x0) = (self.all_w, h as f64, self.x0);
        let mut poly = [(0.0f64, 0.0f64); 8];
        let mut n = 0;
        let mut add = |c: [f64; 3]| {
            let (sx, sy) = (c[1] / c[0], c[2] / c[0]);
            poly[n] = (
                (sx / sc.tan_x + 1.0) * wf / 2.0 - 0.5 - band_x0,
                (1.0 - sy / sc.tan_y) * hf / 2.0 - 0.5,
            );
            n += 1;
        };
        let mut clipped = false;
        for k in 0..4 {
            let (p, q) = (corners[k], corners[(k + 1) % 4]);
            if p[0] >= NEAR {
                add(p);
            } else {
                clipped = true;
            }
            if (p[0] - NEAR) * (q[0] - NEAR) < 0.0 {
                let s = (NEAR - p[0]) / (q[0] - p[0]);
                add([NEAR, p[1] + (q[1] - p[1]) * s, p[2] + (q[2] - p[2]) * s]);
            }
        }
        let dmax = (1.0 + sc.tan_x * sc.tan_x + sc.tan_y * sc.tan_y).sqrt();
        let (px0, px1, py0, py1, poly) = if clipped && rel[axis].abs() <= NEAR * dmax {
            (0, w - 1, 0, h - 1, None)
        } else {
            if n == 0 {
                return;
            }
            let poly = &poly[..n];
            let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
            for &(x, y) in poly {
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
            }
            let lim = |v: f64, n: usize| v.clamp(-4.0, n as f64 + 4.0);
            let ceil = |v: f64| -floor_i32(-v);
            let m = SPAN_MARGIN;
            let (xa, xb) = (ceil(lim(x0 - m, w)), floor_i32(lim(x1 + m, w)));
            let (ya, yb) = (ceil(lim(y0 - m, h)), floor_i32(lim(y1 + m, h)));
            if xb < xa || yb < ya || xb < 0 || yb < 0 || xa >= w as i32 || ya >= h as i32 {
                return;
            }
            (
                xa.max(0) as usize,
                (xb as usize).min(w - 1),
                ya.max(0) as usize,
                (yb as usize).min(h - 1),
                Some(poly),
            )
        };
        let tile = RASTER_TILE;
        let open = (py0 / tile..=py1 / tile)
            .any(|gy| (px0 / tile..=px1 / tile).any(|gx| !self.full[gy * self.tw + gx]));
        if !open {
            return;
        }
        for py in py0..=py1 {
            // The pixels within SPAN_MARGIN of the face's polygon on this
            // row: the polygon's extent in x within the strip of rows
            // py ± SPAN_MARGIN (every other pixel is farther from the face
            // than any rounding could carry a ray).
            let (mut xa, mut xb) = (px0, px1);
            if let Some(poly) = poly {
                let m = SPAN_MARGIN;
                let (lo, hi) = (py as f64 - m, py as f64 + m);
                let (mut x0, mut x1) = (f64::MAX, f64::MIN);
                for k in 0..poly.len() {
                    let (p, q) = (poly[k], poly[(k + 1) % poly.len()]);
                    if (lo..=hi).contains(&p.1) {
                        (x0, x1) = (x0.min(p.0), x1.max(p.0));
                    }
                    for l in [lo, hi] {
                        if (p.1 - l) * (q.1 - l) < 0.0 {
                            let x = p.0 + (l - p.1) * (q.0 - p.0) / (q.1 - p.1);
                            (x0, x1) = (x0.min(x), x1.max(x));
                        }
                    }
                }
                if x0 > x1 {
                    continue;
                }
                let ceil = |v: f64| -floor_i32(-v);
                let lim = |v: f64| v.clamp(-4.0, w as f64 + 4.0);
                let (a, b) = (ceil(lim(x0 - m)), floor_i32(lim(x1 + m)));
                if b < a || b < px0 as i32 || a > px1 as i32 {
                    continue;
                }
                (xa, xb) = ((a.max(px0 as i32)) as usize, (b as usize).min(px1));
            }
            // One copy of the loop per axis (constant indices).
            match axis {
                0 => self.pixels::<0>(cell, plane, block, water, py, xa, xb),
                1 => self.pixels::<1>(cell, plane, block, water, py, xa, xb),
                _ => self.pixels::<2>(cell, plane, block, water, py, xa, xb),
            }
        }
    }

    /// Tests the rays of pixels `px0..=px1` of row `py` against the face
    /// of `cell` across `AXIS` on `plane`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn pixels<const AXIS: usize>(
        &mut self,
        cell: [i32; 3],
        plane: f64,
        block: BlockId,
        water: bool,
        py: usize,
        px0: usize,
        px1: usize,
    ) {
        let axis = AXIS;
        let sc = self.scene;
        let eye = sc.eye;
        let w = self.w;
        let tile = RASTER_TILE;
        let (a, bx) = match axis {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        let (ca, cb) = (cell[a] as f64, cell[bx] as f64);
        // No ray meets the plane nearer than its distance from the eye.
        let tmin = (plane - eye[axis]).abs();
        let target = sc.target == Some(cell);
        let ring = self.ring;
        let span = py * w + px0..=py * w + px1;
        let dirs = &self.dirs[span.clone()];
        let rings = &mut self.rings[span.clone()];
        let seen = &mut self.seen[span];
        let count = &mut self.count[(py / tile) * self.tw..];
        {
            for k in 0..dirs.len() {
                if rings[k] < ring {
                    continue;
                }
                let px = px0 + k;
                let s = seen[k];
                if s.t + EDGE < tmin {
                    continue;
                }
                let d = dirs[k];
                let dk = d[axis];
                if dk.abs() < 1e-12 {
                    continue;
                }
                let t = (plane - eye[axis]) / dk;
                if t <= 0.0 || t > s.t + EDGE {
                    continue;
                }
                let fa = eye[a] + d[a] * t - ca;
                let fb = eye[bx] + d[bx] * t - cb;
                let inside = -EDGE..=1.0 + EDGE;
                if !inside.contains(&fa) || !inside.contains(&fb) {
                    continue;
                }
                if t > VIEW_DISTANCE + EDGE {
                    // Past the view distance: the walk ends before it.
                    continue;
                }
                let clear = EDGE..=1.0 - EDGE;
                let near_edge = !clear.contains(&fa) || !clear.contains(&fb);
                let (mut face, mut texel) = (0u8, 0u8);
                let kind = if water || near_edge || t > VIEW_DISTANCE - EDGE {
                    TRACE
                } else {
                    // The texel as `shade` picks it.
                    let fr = |v: f64| v.clamp(0.0, 0.9999);
                    let (uu, vv) = match axis {
                        0 => (fr(fb), 1.0 - fr(fa)),
                        1 => (fr(fa), fr(fb)),
                        _ => (fr(fa), 1.0 - fr(fb)),
                    };
                    let side = if axis == 1 {
                        if d[1] < 0.0 { 0 } else { 2 }
                    } else {
                        1
                    };
                    let (su, sv) = (uu * TEX as f64, vv * TEX as f64);
                    let (tu, tv) = (
                        (su as i32 as usize).min(TEX - 1),
                        (sv as i32 as usize).min(TEX - 1),
                    );
                    let border = |s: f64| {
                        let f = s - s as i32 as f64;
                        !(1e-7..=1.0 - 1e-7).contains(&f)
                    };
                    let outline =
                        |v: f64| (v - 0.04).abs() < 1e-7 || (v - (1.0 - 0.04)).abs() < 1e-7;
                    if border(su) || border(sv) || (target && (outline(uu) || outline(vv))) {
                        TRACE
                    } else if sc.tex.texels[block as usize * 3 + side][tv * TEX + tu][3] == 0 {
                        // See-through: the ray goes on into the cell.
                        continue;
                    } else {
                        (face, texel) = (side as u8, (tv * TEX + tu) as u8);
                        SHADE
                    }
                };
                let e = &mut seen[k];
                if e.ring == u16::MAX {
                    count[px / tile] += 1;
                }
                rings[k] = ring;
                if t < s.t - EDGE {
                    *e = Seen {
                        t,
                        cell,
                        block,
                        axis: axis as u8,
                        kind,
                        ring,
                        face,
                        texel,
                    };
                } else {
                    // A near tie: the walk decides.
                    e.kind = TRACE;
                    e.t = e.t.min(t);
                    e.ring = ring;
                }
            }
        }
    }
}

/// Horizontal offset of pixel column `x`'s ray on the view plane.
#[inline]
fn screen_x(x: usize, w: usize, tan_x: f64) -> f64 {
    (2.0 * (x as f64 + 0.5) / w as f64 - 1.0) * tan_x
}

/// Vertical offset of pixel row `y`'s ray on the view plane.
#[inline]
fn screen_y(y: usize, h: usize, tan_y: f64) -> f64 {
    (1.0 - 2.0 * (y as f64 + 0.5) / h as f64) * tan_y
}

/// The fixed shade of a face met along `d` across `axis` (a ray going
/// down meets a top).
fn face_shade(axis: usize, d: [f64; 3]) -> f32 {
    side_shade(axis, d[1] < 0.0)
}

/// The fixed shade of a face across `axis` on its `positive` side: tops
/// brightest, then faces across z, across x, bottoms darkest.
#[inline]
fn side_shade(axis: usize, positive: bool) -> f32 {
    match (axis, positive) {
        (1, true) => 1.0,
        (1, false) => 0.55,
        (0, _) => 0.8,
        _ => 0.9,
    }
}

pub mod hud;
pub mod icons;
pub mod mesh;
mod raster;
pub mod span;

pub use raster::primitive_count;

/// Which renderer draws the first-person view. Both show the same
/// scene by the same rules (tests compare their pixels and picks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renderer {
    /// The rasteriser from [`RASTER_VIEW_MIN_RAYS`] rays on, the ray
    /// caster below (where it is the faster).
    Auto,
    /// Chunk meshes, boxes and a depth buffer ([`raster`]).
    Raster,
    /// One ray per pixel walked through the cells.
    Rays,
}

impl Renderer {
    /// The renderer named `name` (`auto`, `raster` or `rays`).
    pub fn parse(name: &str) -> Option<Renderer> {
        match name {
            "auto" => Some(Renderer::Auto),
            "raster" => Some(Renderer::Raster),
            "rays" => Some(Renderer::Rays),
            _ => None,
        }
    }

    /// Whether a view of `rays` rays is rasterised.
    pub fn rasterises(self, rays: usize) -> bool {
        match self {
            Renderer::Auto => rays >= RASTER_VIEW_MIN_RAYS,
            Renderer::Raster => true,
            Renderer::Rays => false,
        }
    }
}

/// Calls `f(i, chunk)` for each `len`-long chunk of `out`, on rayon's
/// threads when `parallel`, else in order. Each chunk's bytes depend only
/// on its index, so both give the same buffer.
pub(crate) fn each_chunk<T: Send>(
    out: &mut [T],
    len: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    if parallel {
        out.par_chunks_mut(len)
            .enumerate()
            .for_each(|(i, c)| f(i, c));
    } else {
        out.chunks_mut(len).enumerate().for_each(|(i, c)| f(i, c));
    }
}

/// Rays per view from which [`Renderer::Auto`] rasterises (64×64). The
/// ray caster takes fewer instructions at 64×64 (callgrind), but not less
/// time: `gameworld bench --games openworld` on one thread, release, the
/// two alternated in the same minutes, gave 2,264–2,567 steps/s at 64×64
/// rasterised against 1,295–1,403 traced (127–144 against 53–68 at
/// 640×360). Smaller views keep the ray caster (not measured).
pub const RASTER_VIEW_MIN_RAYS: usize = 4_096;

/// 0: not chosen yet, then 1 + the renderer's index.
static RENDERER: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The renderer the public entry points use: set by [`set_renderer`], else
/// by the environment variable `GW_WORLD_RENDERER` (`auto`, `raster` or
/// `rays`), else [`DEFAULT_RENDERER`].
pub fn renderer() -> Renderer {
    use std::sync::atomic::Ordering;
    match RENDERER.load(Ordering::Relaxed) {
        1 => Renderer::Auto,
        2 => Renderer::Raster,
        3 => Renderer::Rays,
        _ => {
            let r = std::env::var("GW_WORLD_RENDERER")
                .ok()
                .and_then(|v| Renderer::parse(v.trim()))
                .unwrap_or(DEFAULT_RENDERER);
            set_renderer(r);
            r
        }
    }
}

/// Chooses the renderer for the whole process.
pub fn set_renderer(r: Renderer) {
    let v = match r {
        Renderer::Auto => 1,
        Renderer::Raster => 2,
        Renderer::Rays => 3,
    };
    RENDERER.store(v, std::sync::atomic::Ordering::Relaxed);
}

/// The renderer used unless one is chosen.
pub const DEFAULT_RENDERER: Renderer = Renderer::Auto;

/// Worlds the renderer tests look at.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;
    use crate::action::Action;
    use crate::world::WorldConfig;

    /// Worlds seen from many places and angles: a few seeds, walked by a
    /// fixed pseudo-random policy that also digs and places blocks.
    pub(crate) fn views() -> Vec<World> {
        let mut out = Vec::new();
        for seed in [1u64, 3, 8] {
            let mut w = World::new(WorldConfig {
                seed,
                start_inventory: vec![("iron_pickaxe".into(), 1), ("dirt".into(), 64)],
                ..Default::default()
            });
            let mut rng = gw_core::Rng::new(seed, 5);
            for i in 0..120 {
                let a = Action {
                    forward: rng.chance(0.6),
                    jump: rng.chance(0.1),
                    attack: rng.chance(0.4),
                    use_item: rng.chance(0.1),
                    hotbar: rng.chance(0.05).then(|| 1 + rng.below(2) as u8),
                    yaw: rng.range_f64(-25.0, 25.0) as f32,
                    pitch: rng.range_f64(-8.0, 8.0) as f32,
                    ..Default::default()
                };
                w.step(&a);
                if i % 20 == 19 {
                    let mut v = w.clone();
                    v.player.pitch = rng.range_f64(-89.0, 89.0);
                    out.push(v);
                }
            }
        }
        out
    }

    /// The views of [`views`] and variants of them: at night, with water,
    /// leaves and a torch placed around the eye, with a mob and an item in
    /// front and an item at the feet, and with the eye in water or in tall
    /// grass (see-through blocks a head can be in; leaves are drawn opaque
    /// and solid).
    pub(crate) fn hard_views() -> Vec<World> {
        use crate::world::MobKind;
        let mut out = Vec::new();
        for (i, w) in views().into_iter().enumerate() {
            let e = w.eye().map(floor_i32);
            let (sy, cy) = (
                libm::sin(w.player.yaw.to_radians()),
                libm::cos(w.player.yaw.to_radians()),
            );
            // A point `n` blocks ahead of the eye, horizontally.
            let ahead = |n: f64| {
                let p = w.eye();
                [p[0] - sy * n, p[1], p[2] + cy * n]
            };
            let mut night = w.clone();
            night.tick += 13_000;
            out.push(night);
            let mut wet = w.clone();
            for dx in -3..=3 {
                for dz in -3..=3 {
                    let a = ahead(4.0).map(floor_i32);
                    wet.terrain.set(a[0] + dx, e[1] - 2, a[2] + dz, b::WATER);
                    if (dx + dz) % 3 == 0 {
                        wet.terrain
                            .set(a[0] + dx, e[1] + 1, a[2] + dz, b::OAK_LEAVES);
                    }
                }
            }
            let a = ahead(2.0).map(floor_i32);
            wet.terrain.set(a[0], e[1], a[2], b::TORCH);
            wet.terrain.set(a[0] + 1, e[1], a[2], b::SPRUCE_LEAVES);
            out.push(wet);
            let mut mobs = w.clone();
            let p = ahead(3.0);
            mobs.spawn_mob(MobKind::Cow, [p[0], p[1] - 1.0, p[2]]);
            let p = ahead(1.5);
            let item = crate::data::data().item("dirt");
            mobs.spawn_item(item, 1, [p[0], p[1] - 1.2, p[2]]);
            // One at the feet: its rectangle is the whole view.
            let feet = mobs.player.body.pos;
            mobs.spawn_item(item, 1, feet);
            out.push(mobs);
            let mut inside = w.clone();
            let block = if i % 2 == 0 { b::WATER } else { b::TALL_GRASS };
            inside.terrain.set(e[0], e[1], e[2], block);
            out.push(inside);
            out.push(w);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldConfig;

    use crate::render::tests_support::{hard_views, views};

    #[test]
    fn beam_start_changes_no_pixel_and_no_pick() {
        for (i, w) in views().iter().enumerate() {
            for (wd, ht, block) in [(64, 64, 1), (160, 90, 1), (120, 68, 4)] {
                let mut on = vec![0u8; wd * ht * 4];
                let mut off = vec![0u8; wd * ht * 4];
                let beam = Paths {
                    beam: true,
                    raster: Some(false),
                };
                render_with(w, wd, ht, block, &mut on, false, beam);
                render_with(w, wd, ht, block, &mut off, false, Paths::PLAIN);
                assert!(on == off, "view {i} at {wd}x{ht}/{block}: pixels differ");
            }
            let beam = Paths {
                beam: true,
                raster: Some(false),
            };
            assert_eq!(
                pick_with(w, 96, 54, false, beam),
                pick_with(w, 96, 54, false, Paths::PLAIN),
                "view {i}: picks differ"
            );
        }
    }

    /// The pick buffer is exact for every mob kind: with nothing in the
    /// way, a pixel shows the mob exactly where its ray meets a box of the
    /// mob's posed model (not its collision box: the gaps between the legs
    /// show the sky); behind a stone wall, exactly where the model is met
    /// before the wall. The fast paths give the plain walk's picks.
    #[test]
    fn pick_buffer_is_exact_for_every_mob_kind_with_and_without_occlusion() {
        use crate::world::MobKind;
        let (wd, ht) = (200usize, 120usize);
        let base = World::new(WorldConfig {
            seed: 6,
            passive_mobs: false,
            hostile_mobs: false,
            day_cycle: false,
            start_time: 6000,
            ..Default::default()
        });
        for (k, &kind) in MobKind::ALL.iter().enumerate() {
            for occluded in [false, true] {
                let mut w = base.clone();
                // High in open air, looking along +z and a little down.
                // The eye just left of a cell boundary across the view,
                // where the mob stands: the wall's cells to the right of
                // the boundary cover the rays to its right half.
                let p = w.player.body.pos;
                w.player.body.pos = [libm::floor(p[0]) + 0.05, 108.0, p[2]];
                w.player.yaw = 0.0;
                w.player.pitch = 8.0;
                let eye = w.eye();
                let dist = if kind == MobKind::Horse || kind == MobKind::Spider {
                    4.5
                } else {
                    3.2
                };
                // Its centre on a cell boundary across, so the wall (the cells
                // to the right of it) hides about half of it.
                let mx = libm::floor(eye[0]);
                let id = w.spawn_mob(kind, [mx, eye[1] - 1.3, eye[2] + dist]);
                let m = w.mobs.iter_mut().find(|m| m.id == id).expect("spawned");
                m.yaw = 30.0 + 47.0 * k as f64;
                m.body.vel = [0.05, 0.0, 0.0];
                w.tick = 11 + k as u64;
                let wall: Vec<[i32; 3]> = if occluded {
                    let (ex, ey, ez) = (floor_i32(eye[0]), floor_i32(eye[1]), floor_i32(eye[2]));
                    (ey - 4..ey + 2)
                        .flat_map(|y| (ex - 4..ex).map(move |x| [x, y, ez + 1]))
                        .collect()
                } else {
                    Vec::new()
                };
                for c in &wall {
                    w.terrain.set(c[0], c[1], c[2], b::STONE);
                }
                // The rasteriser's picks (the public entry point's at this
                // size), checked against the walk and the model below.
                let fast = {
                    let mut p = raster::picks(&w, wd, ht, false);
                    cover_hud(&w, wd, ht, &mut p);
                    p
                };
                assert_eq!(
                    pick_with(&w, wd, ht, false, Paths::FAST),
                    pick_with(&w, wd, ht, false, Paths::PLAIN),
                    "{kind:?}: ray caster fast = plain"
                );
                assert_eq!(
                    fast,
                    pick_with(&w, wd, ht, false, Paths::PLAIN),
                    "{kind:?}: rasteriser = plain walk"
                );
                let m = w.mobs.iter().find(|m| m.id == id).expect("spawned");
                let parts = model::posed(m, w.tick);
                let scene = Scene::new(&w, wd, ht);
                let hw = m.body.width / 2.0;
                let (clo, chi) = (
                    [m.body.pos[0] - hw, m.body.pos[1], m.body.pos[2] - hw],
                    [
                        m.body.pos[0] + hw,
                        m.body.pos[1] + m.body.height,
                        m.body.pos[2] + hw,
                    ],
                );
                let (mut shown, mut gaps, mut hidden) = (0, 0, 0);
                for y in 0..ht {
                    for x in 0..wd {
                        let got = fast[y * wd + x];
                        if got == Pick::Hud {
                            continue;
                        }
                        let d =
                            scene.dir(screen_x(x, wd, scene.tan_x), screen_y(y, ht, scene.tan_y));
                        let t_mob = parts
                            .iter()
                            .filter_map(|pp| pp.hit(scene.eye, d).map(|h| h.0))
                            .fold(f64::INFINITY, f64::min);
                        let t_wall = wall
                            .iter()
                            .filter_map(|c| {
                                let lo = c.map(|v| v as f64);
                                crate::ray::ray_aabb(scene.eye, d, lo, lo.map(|v| v + 1.0))
                                    .map(|h| h.0)
                            })
                            .fold(f64::INFINITY, f64::min);
                        let want = t_mob.is_finite() && t_mob < t_wall;
                        assert_eq!(
                            got == Pick::Mob(id),
                            want,
                            "{kind:?} occluded {occluded}: pixel ({x}, {y}) shows {got:?}, model at {t_mob}, wall at {t_wall}"
                        );
                        shown += want as usize;
                        hidden += (t_mob.is_finite() && !want) as usize;
                        if !t_mob.is_finite()
                            && crate::ray::ray_aabb(scene.eye, d, clo, chi).is_some()
                        {
                            gaps += 1;
                        }
                    }
                }
                assert!(shown > 60, "{kind:?}: {shown} pixels show it");
                assert!(gaps > 0, "{kind:?}: the model is not its collision box");
                if occluded {
                    assert!(
                        hidden > 20,
                        "{kind:?}: the wall hides part of it ({hidden})"
                    );
                }
            }
        }
    }

    /// Every ray of the view that meets a mob's or item's box lies in the
    /// box's screen rectangle (the renderer tests boxes only there): boxes
    /// all round the eye, at the feet, overhead, behind, some nearer than
    /// the near plane, at many pitches.
    #[test]
    fn box_rectangles_hold_every_ray_that_meets_the_box() {
        use crate::world::MobKind;
        let (wd, ht) = (96usize, 54usize);
        let item = crate::data::data().item("dirt");
        let (mut met, mut small) = (0, 0);
        for (i, base) in views().into_iter().enumerate() {
            let mut rng = gw_core::Rng::new(i as u64, 9);
            let mut w = base.clone();
            let feet = w.player.body.pos;
            w.spawn_item(item, 1, feet);
            for _ in 0..14 {
                let p = [
                    feet[0] + rng.range_f64(-2.5, 2.5),
                    feet[1] + rng.range_f64(-1.5, 2.5),
                    feet[2] + rng.range_f64(-2.5, 2.5),
                ];
                w.spawn_item(item, 1, p);
            }
            w.spawn_mob(MobKind::Cow, [feet[0] + 1.0, feet[1], feet[2] + 0.5]);
            for pitch in [-89.0, -50.0, -10.0, 0.0, 30.0, 75.0] {
                w.player.pitch = pitch;
                let scene = Scene::new(&w, wd, ht);
                let whole = [0, wd as i32 - 1, 0, ht as i32 - 1];
                small += scene.boxes.iter().filter(|b| b.rect != whole).count();
                for y in 0..ht {
                    for x in 0..wd {
                        let sx = screen_x(x, wd, scene.tan_x);
                        let sy = screen_y(y, ht, scene.tan_y);
                        let d = scene.dir(sx, sy);
                        for bx in &scene.boxes {
                            let rc = bx.rect;
                            if bx.shape.hit(scene.eye, d).is_some() {
                                met += 1;
                                let (px, py) = (x as i32, y as i32);
                                assert!(
                                    px >= rc[0] && px <= rc[1] && py >= rc[2] && py <= rc[3],
                                    "view {i} pitch {pitch}: ray ({x}, {y}) meets a box outside {rc:?}"
                                );
                            }
                        }
                    }
                }
                // Boxes off the view are dropped: none holds a ray then.
                let all = w.items.len()
                    + w.mobs
                        .iter()
                        .map(|m| model::parts(m.kind).len())
                        .sum::<usize>();
                assert!(scene.boxes.len() <= all);
            }
        }
        assert!(met > 10_000, "rays meet boxes ({met})");
        assert!(
            small > 200,
            "boxes get rectangles smaller than the view ({small})"
        );
    }

    /// `Chunk::opaque` and `Chunk::water` match the blocks after
    /// generation and after digging and placing.
    #[test]
    fn chunk_masks_match_blocks() {
        let tex = textures();
        let mut checked = 0;
        for w in hard_views().iter().step_by(3) {
            for c in w.terrain.loaded() {
                for col in 0..256usize {
                    for y in 0..HEIGHT as usize {
                        let v = c.blocks[col * HEIGHT as usize + y];
                        let see_through = (0..3)
                            .any(|f| tex.texels[v as usize * 3 + f].iter().any(|t| t[3] == 0));
                        let opaque = v != b::WATER && !see_through;
                        assert_eq!(c.opaque[col] >> y & 1 == 1, opaque, "block {v} at {y}");
                        assert_eq!(c.water[col] >> y & 1 == 1, v == b::WATER, "water at {y}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1_000_000, "{checked} cells checked");
    }

    /// The raster pre-pass changes no pixel and no pick: frames with it
    /// forced on are byte-equal to the plain walk's, at several sizes and
    /// blocks, and the pick buffers equal.
    #[test]
    fn raster_changes_no_pixel_and_no_pick() {
        let raster = Paths {
            beam: true,
            raster: Some(true),
        };
        let mut shaded = 0;
        for (i, w) in hard_views().iter().enumerate() {
            for (wd, ht, block) in [(64, 64, 1), (160, 90, 1), (120, 68, 4), (320, 180, 1)] {
                let mut on = vec![0u8; wd * ht * 4];
                let mut off = vec![0u8; wd * ht * 4];
                // In parallel the raster runs in bands of columns, one per
                // thread: the same pixels.
                render_with(w, wd, ht, block, &mut on, wd == 160, raster);
                render_with(w, wd, ht, block, &mut off, false, Paths::PLAIN);
                if let Some(k) = (0..on.len()).find(|&k| on[k] != off[k]) {
                    let px = k / 4;
                    panic!(
                        "view {i} at {wd}x{ht}/{block}: pixel ({}, {}) differs: {:?} vs {:?}",
                        px % wd,
                        px / wd,
                        &on[px * 4..px * 4 + 3],
                        &off[px * 4..px * 4 + 3]
                    );
                }
            }
            assert_eq!(
                pick_with(w, 96, 54, false, raster),
                pick_with(w, 96, 54, false, Paths::PLAIN),
                "view {i}: picks differ"
            );
            let scene = Scene {
                raster: Some(true),
                ..Scene::new(w, 160, 90)
            };
            let grid = scene.grid(160, 90, false);
            shaded += grid.buf.seen.iter().filter(|s| s.kind == SHADE).count();
        }
        // Most rays that meet a block are shaded from the raster.
        assert!(shaded > 100_000, "the raster shades rays itself ({shaded})");
    }

    /// The start distance never passes a cell the plain walk must look at:
    /// along every ray of a tile, the first cell that is not air of a loaded
    /// chunk below `top` is entered no earlier than the tile's start.
    #[test]
    fn beam_start_never_skips_a_hit() {
        let mut jumped = 0;
        for w in views() {
            let scene = Scene::new(&w, 48, 27);
            let grid = scene.grid(48, 27, false);
            for y in 0..27 {
                for x in 0..48 {
                    let t0 = grid.starts[(y / BEAM_TILE) * grid.gw + x / BEAM_TILE];
                    let d = scene.dir(grid.cols[x], grid.rows[y]);
                    let mut walk = VoxelWalk::new(scene.eye, d);
                    let mut t = 0.0;
                    while t <= t0 + 1.0 {
                        let c = walk.cell;
                        let open = (0..scene.top).contains(&c[1])
                            && w.terrain.chunk(c[0] >> 4, c[2] >> 4).is_some()
                            && w.terrain.get(c[0], c[1], c[2]) == b::AIR;
                        if !open {
                            assert!(t >= t0 - 1e-9, "cell {c:?} entered at {t} before {t0}");
                            break;
                        }
                        t = walk.advance().1;
                    }
                    if t0 > 0.0 {
                        jumped += 1;
                    }
                }
            }
        }
        assert!(jumped > 1000, "the pre-pass moves rays' starts ({jumped})");
    }
}
