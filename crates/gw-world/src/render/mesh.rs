//! Per-chunk meshes of exposed block faces, built once per chunk and kept
//! in the chunk ([`crate::terrain::Chunk::mesh`]) until an edit drops them.
//!
//! A face of a non-air cell is exposed when the neighbour across it is not
//! an opaque full block ([`Chunk::opaque`]): faces against air, water and
//! see-through blocks (plants, glass, torches) are kept, so a ray through
//! a gap in a plant meets the face behind it as the walk did. Water
//! cells give water faces where their neighbour is neither water nor
//! opaque (the surface a ray enters water through). Faces go by 16-high
//! section and direction, sorted along their axis, so the faces turned
//! towards the eye are one run of each list.
//!
//! Faces of opaque blocks are merged into rectangles: neighbours in one
//! plane, of one block, next to each other along the face's merge axis
//! ([`merge_axis`]) within a section become one strip `len` cells long,
//! and strips of the same span in neighbouring rows one rectangle `wid`
//! rows wide (about a third as many faces on natural ground). The
//! renderer finds the cell a pixel shows from where its ray meets the
//! rectangle, so texels, light, picks, the target outline and cracks stay
//! per cell.

use crate::data::BlockId;
use crate::terrain::{CHUNK, Chunk, HEIGHT, Terrain};

/// Side of a section: a chunk holds `(CHUNK / SECTION)² · HEIGHT /
/// SECTION` cubes of cells, each with its own faces (culled as a whole).
pub(crate) const SECTION: i32 = 8;

/// Sections per chunk along x (and z).
const ACROSS: i32 = CHUNK / SECTION;

// Section indices fit a byte ([`Mesh::filled`]).
const _: () = assert!(ACROSS * ACROSS * (HEIGHT / SECTION) <= 256);

/// Index of the section holding chunk-local cell (`x`, `y`, `z`).
#[inline]
pub(crate) fn section_of(x: i32, y: i32, z: i32) -> usize {
    (((x / SECTION) * ACROSS + z / SECTION) * (HEIGHT / SECTION) + y / SECTION) as usize
}

/// The chunk-local corner (least x, y, z) of section `i`.
#[inline]
pub(crate) fn section_corner(i: usize) -> [i32; 3] {
    let i = i as i32;
    let ys = HEIGHT / SECTION;
    [
        (i / ys / ACROSS) * SECTION,
        (i % ys) * SECTION,
        ((i / ys) % ACROSS) * SECTION,
    ]
}

/// The axis along which faces across `axis` are merged into strips:
/// horizontal for side faces (the edges of terrain steps), x for tops and
/// bottoms.
#[inline]
pub(crate) const fn merge_axis(axis: usize) -> usize {
    if axis == 0 { 2 } else { 0 }
}

/// One face: its first cell (chunk-local `x`, `y`, `z`, the least corner
/// of the rectangle), its block and how many cells it spans along the
/// merge axis (`len`) and along the plane's other axis (`wid`); 1 and 1
/// for a single face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Face {
    pub x: u8,
    pub y: u8,
    pub z: u8,
    pub block: BlockId,
    pub len: u8,
    pub wid: u8,
}

impl Face {
    /// The cell's coordinate on axis `a`.
    #[inline]
    pub fn along(&self, a: usize) -> u8 {
        [self.x, self.y, self.z][a]
    }

    /// How many cells the face spans along each axis, as a face across
    /// `axis` (1 across it).
    #[inline]
    pub fn ext(&self, axis: usize) -> [u8; 3] {
        // `len` along [`merge_axis`], `wid` along the other in-plane axis.
        match axis {
            0 => [1, self.wid, self.len],
            1 => [self.len, 1, self.wid],
            _ => [self.len, self.wid, 1],
        }
    }

    /// The box its cells fill, as a face across `axis`: least and
    /// past-greatest corner.
    pub fn cells(&self, axis: usize) -> Bounds {
        let lo = [self.x, self.y, self.z];
        let ext = self.ext(axis);
        (lo, [0, 1, 2].map(|k| lo[k] + ext[k]))
    }
}

/// A box of cells: least and past-greatest chunk-local corner.
pub(crate) type Bounds = ([u8; 3], [u8; 3]);

/// The least box holding both `a` and `b`.
fn union(a: Bounds, b: Bounds) -> Bounds {
    (
        [0, 1, 2].map(|k| a.0[k].min(b.0[k])),
        [0, 1, 2].map(|k| a.1[k].max(b.1[k])),
    )
}

/// The faces of one section (a cube of [`SECTION`]³ cells) by direction `axis * 2 + positive`, each list
/// sorted by the cells' coordinate on `axis`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Section {
    pub faces: [Vec<Face>; 6],
    pub water: [Vec<Face>; 6],
    /// Per list of `faces`, the box its rectangles' cells fill (empty
    /// lists: all zero).
    pub bounds: [Bounds; 6],
    /// The box of all the section's faces and water faces.
    pub all: Bounds,
}

impl Section {
    pub fn is_empty(&self) -> bool {
        self.faces.iter().all(Vec::is_empty) && self.water.iter().all(Vec::is_empty)
    }
}

/// A chunk's mesh: its sections (see [`section_of`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mesh {
    pub(crate) sections: Vec<Section>,
    /// The indices of the sections that hold a face, in order.
    pub(crate) filled: Vec<u8>,
}

impl Mesh {
    /// How many faces (blocks and water) the mesh holds.
    pub fn len(&self) -> usize {
        self.sections
            .iter()
            .map(|s| {
                s.faces.iter().map(Vec::len).sum::<usize>()
                    + s.water.iter().map(Vec::len).sum::<usize>()
            })
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The mesh of chunk `c` (a chunk of `t`), from its blocks and, at its
/// borders, its neighbours' (an unloaded neighbour hides the faces
/// against it: nothing behind it is drawn either).
pub(crate) fn build(t: &Terrain, c: &Chunk) -> Mesh {
    let full = u128::MAX;
    // The opaque and water masks of column (x, z), x and z in -1..=16.
    let side = |dcx: i32, dcz: i32| t.chunk(c.cx + dcx, c.cz + dcz);
    let (xm, xp, zm, zp) = (side(-1, 0), side(1, 0), side(0, -1), side(0, 1));
    let masks = |x: i32, z: i32| -> (u128, u128) {
        let (ch, lx, lz) = if x < 0 {
            (xm, CHUNK - 1, z)
        } else if x >= CHUNK {
            (xp, 0, z)
        } else if z < 0 {
            (zm, x, CHUNK - 1)
        } else if z >= CHUNK {
            (zp, x, 0)
        } else {
            (Some(c), x, z)
        };
        match ch {
            Some(ch) => {
                let col = (lx * CHUNK + lz) as usize;
                (ch.opaque[col], ch.water[col])
            }
            None => (full, 0),
        }
    };
    let mut sections = vec![Section::default(); (ACROSS * ACROSS * (HEIGHT / SECTION)) as usize];
    for x in 0..CHUNK {
        for z in 0..CHUNK {
            let col = (x * CHUNK + z) as usize;
            let filled = c.filled[col];
            if filled == 0 {
                continue;
            }
            let (op, wa) = (c.opaque[col], c.water[col]);
            // Per direction (axis * 2 + positive): the neighbours' masks,
            // shifted so bit y speaks of cell y's neighbour.
            let around = [
                masks(x - 1, z),
                masks(x + 1, z),
                // Below y = 0 lies bedrock (opaque); above the top, air.
                ((op << 1) | 1, wa << 1),
                (op >> 1, wa >> 1),
                masks(x, z - 1),
                masks(x, z + 1),
            ];
            let hidden = around.iter().fold(full, |a, m| a & m.0);
            let mut cells = filled & !hidden;
            while cells != 0 {
                let y = cells.trailing_zeros() as i32;
                cells &= cells - 1;
                let bit = 1u128 << y;
                let is_water = wa & bit != 0;
                let block = c.get(x, y, z);
                let face = Face {
                    x: x as u8,
                    y: y as u8,
                    z: z as u8,
                    block,
                    // Faces of see-through blocks stay single (their texels
                    // are tested where they are drawn); 0 marks the rest
                    // as mergeable until the strips are made.
                    len: u8::from(op & bit == 0),
                    wid: 1,
                };
                let s = &mut sections[section_of(x, y, z)];
                for (dir, m) in around.iter().enumerate() {
                    if m.0 & bit != 0 {
                        continue;
                    }
                    if is_water {
                        if m.1 & bit == 0 {
                            s.water[dir].push(face);
                        }
                    } else {
                        s.faces[dir].push(face);
                    }
                }
            }
        }
    }
    for s in &mut sections {
        for (dir, list) in s.faces.iter_mut().enumerate() {
            strips(list, dir / 2);
        }
        for (dir, list) in s.faces.iter_mut().chain(s.water.iter_mut()).enumerate() {
            let axis = (dir % 6) / 2;
            list.sort_by_key(|f| f.along(axis));
        }
        let mut all = None;
        for (dir, list) in s.faces.iter().chain(&s.water).enumerate() {
            let axis = (dir % 6) / 2;
            let Some(b) = list.iter().map(|f| f.cells(axis)).reduce(union) else {
                continue;
            };
            if dir < 6 {
                s.bounds[dir] = b;
            }
            all = Some(all.map_or(b, |a| union(a, b)));
        }
        s.all = all.unwrap_or_default();
    }
    let filled = (0..sections.len())
        .filter(|&i| !sections[i].is_empty())
        .map(|i| i as u8)
        .collect();
    Mesh { sections, filled }
}

/// Merges the mergeable faces (`len` 0) of one section's list for faces
/// across `axis` into strips along [`merge_axis`] (runs of neighbours with
/// the same plane, the same third coordinate and the same block), then
/// strips of the same block, plane and span in neighbouring rows into
/// rectangles.
fn strips(list: &mut Vec<Face>, axis: usize) {
    let m = merge_axis(axis);
    let o = 3 - axis - m;
    // Single faces first, then the mergeable ones in strip order.
    list.sort_by_key(|f| (f.len == 0, f.along(axis), f.along(o), f.block, f.along(m)));
    let split = list.partition_point(|f| f.len != 0);
    let mut runs: Vec<Face> = Vec::new();
    for &f in &list[split..] {
        if let Some(last) = runs.last_mut()
            && last.block == f.block
            && last.along(axis) == f.along(axis)
            && last.along(o) == f.along(o)
            && last.along(m) as u32 + last.len as u32 == f.along(m) as u32
        {
            last.len += 1;
            continue;
        }
        runs.push(Face { len: 1, ..f });
    }
    // Strips of one plane, span and block in neighbouring rows.
    runs.sort_by_key(|f| (f.along(axis), f.along(m), f.len, f.block, f.along(o)));
    list.truncate(split);
    for f in runs {
        if let Some(last) = list[split..].last_mut()
            && last.block == f.block
            && last.along(axis) == f.along(axis)
            && last.along(m) == f.along(m)
            && last.len == f.len
            && last.along(o) as u32 + last.wid as u32 == f.along(o) as u32
        {
            last.wid += 1;
            continue;
        }
        list.push(f);
    }
}

/// The mesh of chunk `c` as kept in it, built on first use.
pub(crate) fn of<'a>(t: &Terrain, c: &'a Chunk) -> &'a Mesh {
    c.mesh.get_or_init(|| build(t, c))
}
