//! Chunked block storage and seeded world generation.
//!
//! The world is 128 blocks tall (y 0..127, sea level 62) and unbounded
//! sideways, cut into 16×16 columns (chunks) generated lazily around the
//! player. Generation of a chunk is a pure function of the seed and the
//! chunk's coordinates (trees stay inside their chunk), so the order chunks
//! are made in never changes the world.

use crate::data::{BlockId, b};
use crate::noise::{fbm2, unit, value3};
use gw_core::Rng;
use serde::Serialize;
use std::collections::BTreeMap;

pub const CHUNK: i32 = 16;
pub const HEIGHT: i32 = 128;
// `Chunk::filled` holds one column per u128.
const _: () = assert!(HEIGHT == 128);
pub const SEA_LEVEL: i32 = 62;
/// Chunk slots kept loaded (a ring of RING × RING chunks).
const RING: i32 = 16;
/// Returned for positions in chunks not generated yet.
pub const UNLOADED: BlockId = 255;

/// Every block world generation places (the rest only appear when the player
/// places them). Planners read it to tell minable resources from crafted
/// blocks; a test checks generated chunks hold nothing else.
pub const NATURAL: &[BlockId] = &[
    b::AIR,
    b::STONE,
    b::GRASS_BLOCK,
    b::DIRT,
    b::BEDROCK,
    b::SAND,
    b::WATER,
    b::OAK_LOG,
    b::BIRCH_LOG,
    b::SPRUCE_LOG,
    b::OAK_LEAVES,
    b::BIRCH_LEAVES,
    b::SPRUCE_LEAVES,
    b::COAL_ORE,
    b::IRON_ORE,
    b::GOLD_ORE,
    b::DIAMOND_ORE,
    b::REDSTONE_ORE,
    b::LAPIS_ORE,
    b::TALL_GRASS,
    b::SNOW_BLOCK,
    b::SANDSTONE,
    b::LAVA,
    b::CACTUS,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Biome {
    Plains,
    Forest,
    Desert,
    Taiga,
    Mountains,
    Ocean,
}

impl Biome {
    pub fn name(self) -> &'static str {
        match self {
            Biome::Plains => "plains",
            Biome::Forest => "forest",
            Biome::Desert => "desert",
            Biome::Taiga => "taiga",
            Biome::Mountains => "mountains",
            Biome::Ocean => "ocean",
        }
    }
    pub const ALL: [Biome; 6] = [
        Biome::Plains,
        Biome::Forest,
        Biome::Desert,
        Biome::Taiga,
        Biome::Mountains,
        Biome::Ocean,
    ];
}

#[derive(Clone)]
pub struct Chunk {
    pub cx: i32,
    pub cz: i32,
    /// Index `(x * 16 + z) * HEIGHT + y`.
    pub blocks: Box<[BlockId]>,
    pub biomes: [Biome; 256],
    pub heights: [u8; 256],
    pub dirty: bool,
    /// Per 4×4 column tile (index `(x / 4) * 4 + z / 4`): one above the
    /// highest non-air block ever set there (0: none), so every cell at or
    /// above it is air. Raised by every write through `set`; the renderer
    /// skips the air above it.
    pub tops: [u8; 16],
    /// Per column (index `x * 16 + z`): bit `y` is set where the block is
    /// not air (`HEIGHT` is 128). Kept exact by every write through `set`;
    /// the renderer's beam pre-pass tests boxes of cells against it.
    pub filled: [u128; 256],
    /// Per column, like `filled`: bit `y` is set where the block shows an
    /// opaque texel everywhere on every face (no air, water, plants,
    /// glass or torches; leaves are drawn opaque). Kept exact by `set`;
    /// the renderer's raster pre-pass and chunk meshes skip the faces such
    /// blocks hide.
    pub opaque: [u128; 256],
    /// Per column, like `filled`: bit `y` is set where the block is water.
    pub water: [u128; 256],
    /// Per 4×4 column tile (indexed as `tops`): the union of its 16
    /// columns' `filled` bits. Kept exact by `set` (made whole after
    /// generation); the renderer's beam pre-pass clears a tile's columns
    /// with one test.
    pub tile_filled: [u128; 16],
    /// The greatest of `tops` (see [`Chunk::top`]), raised with them.
    top: u8,
    /// Per cell (indexed as `blocks`): sky light in the high nibble, block
    /// light in the low one ([`crate::light`]), set when the chunk loads
    /// and kept by every edit through [`Terrain::set`].
    pub light: Box<[u8]>,
    /// The exposed faces the rasteriser draws ([`crate::render::mesh`]),
    /// built on first use and dropped by every edit of this chunk or of a
    /// neighbour's border cell, and when a neighbour loads.
    pub(crate) mesh: std::sync::OnceLock<crate::render::mesh::Mesh>,
}

/// Per block id: whether every texel of every face of the block is opaque
/// (see [`Chunk::opaque`]).
fn opaque_ids() -> &'static [bool; 256] {
    static T: std::sync::OnceLock<[bool; 256]> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        use crate::data::{Pattern, data};
        let mut t = [false; 256];
        for (id, def) in data().blocks.iter().enumerate() {
            t[id] = id != b::WATER as usize
                && !matches!(
                    def.pattern,
                    Pattern::None | Pattern::Plant | Pattern::Torch | Pattern::Glass
                );
        }
        t
    })
}

#[inline]
fn idx(x: i32, y: i32, z: i32) -> usize {
    ((x * CHUNK + z) * HEIGHT + y) as usize
}

impl Chunk {
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> BlockId {
        self.blocks[idx(x, y, z)]
    }
    /// Writes a block, keeping every mask exact.
    #[inline]
    fn set(&mut self, x: i32, y: i32, z: i32, v: BlockId) {
        self.put(x, y, z, v);
        let col = (x * CHUNK + z) as usize;
        let bit = 1u128 << y;
        let m = &mut self.opaque[col];
        if opaque_ids()[v as usize] {
            *m |= bit;
        } else {
            *m &= !bit;
        }
        let m = &mut self.water[col];
        if v == b::WATER {
            *m |= bit;
        } else {
            *m &= !bit;
        }
        let tile = ((x >> 2) * 4 + (z >> 2)) as usize;
        self.tile_filled[tile] = self.tile_union(tile);
    }

    /// The union of the `filled` bits of the 16 columns of column tile
    /// `tile` (see [`Chunk::tile_filled`]).
    fn tile_union(&self, tile: usize) -> u128 {
        let (x0, z0) = ((tile / 4) * 4, (tile % 4) * 4);
        let mut all = 0u128;
        for x in x0..x0 + 4 {
            for z in z0..z0 + 4 {
                all |= self.filled[x * CHUNK as usize + z];
            }
        }
        all
    }

    /// Writes a block during generation: `tops` and `filled` stay exact,
    /// `opaque`, `water` and `tile_filled` are made whole by [`Chunk::masks`] at the end.
    #[inline]
    fn put(&mut self, x: i32, y: i32, z: i32, v: BlockId) {
        self.blocks[idx(x, y, z)] = v;
        if v != b::AIR {
            let t = &mut self.tops[((x >> 2) * 4 + (z >> 2)) as usize];
            *t = (*t).max(y as u8 + 1);
            self.top = self.top.max(y as u8 + 1);
        }
        let m = &mut self.filled[(x * CHUNK + z) as usize];
        if v == b::AIR {
            *m &= !(1u128 << y);
        } else {
            *m |= 1u128 << y;
        }
    }

    /// Sets `opaque`, `water` and `tile_filled` from the blocks (after generation): per
    /// column, the cells up to its highest non-air one, into two 64-bit
    /// halves (cheaper than 128-bit shifts).
    fn masks(&mut self) {
        let opaque = opaque_ids();
        for col in 0..(CHUNK * CHUNK) as usize {
            let n = 128 - self.filled[col].leading_zeros() as usize;
            let cells = &self.blocks[col * HEIGHT as usize..][..n];
            let (mut o, mut wt) = ([0u64; 2], [0u64; 2]);
            for (y, &v) in cells.iter().enumerate() {
                let (k, bit) = (y >> 6, 1u64 << (y & 63));
                if opaque[v as usize] {
                    o[k] |= bit;
                } else if v == b::WATER {
                    wt[k] |= bit;
                }
            }
            self.opaque[col] = o[0] as u128 | (o[1] as u128) << 64;
            self.water[col] = wt[0] as u128 | (wt[1] as u128) << 64;
        }
        for tile in 0..16 {
            self.tile_filled[tile] = self.tile_union(tile);
        }
    }

    /// One above the highest non-air block of the chunk (the greatest of
    /// `tops`, kept with them: the renderer asks on every chunk a ray
    /// enters).
    #[inline]
    pub fn top(&self) -> i32 {
        self.top as i32
    }
}

/// Climate and height of one column.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub biome: Biome,
    pub height: i32,
}

/// The terrain shape: biome and surface height of a column.
pub fn column(seed: u64, x: i32, z: i32) -> Column {
    let (fx, fz) = (x as f32, z as f32);
    let temp = fbm2(seed ^ 0x11, fx / 160.0, fz / 160.0, 2);
    let wet = fbm2(seed ^ 0x22, fx / 140.0, fz / 140.0, 2);
    let mount = fbm2(seed ^ 0x33, fx / 120.0, fz / 120.0, 2);
    let cont = fbm2(seed ^ 0x44, fx / 200.0, fz / 200.0, 2);
    let detail = fbm2(seed ^ 0x55, fx / 24.0, fz / 24.0, 3);
    let mut h = 66.0 + detail * 4.0 + cont * 6.0;
    let biome = if cont < -0.42 {
        h = 54.0 + detail * 3.0 + (cont + 0.42) * 20.0;
        Biome::Ocean
    } else if mount > 0.22 {
        let m = (mount - 0.22) / 0.5;
        h += m * 55.0 + detail * 6.0 * m;
        Biome::Mountains
    } else if temp > 0.2 && wet < 0.05 {
        Biome::Desert
    } else if temp < -0.2 {
        Biome::Taiga
    } else if wet > 0.0 {
        Biome::Forest
    } else {
        Biome::Plains
    };
    Column {
        biome,
        height: (h as i32).clamp(8, HEIGHT - 12),
    }
}

/// Generate one chunk.
pub fn generate(seed: u64, cx: i32, cz: i32) -> Chunk {
    let mut c = Chunk {
        cx,
        cz,
        blocks: vec![b::AIR; (CHUNK * CHUNK * HEIGHT) as usize].into_boxed_slice(),
        biomes: [Biome::Plains; 256],
        heights: [0; 256],
        dirty: false,
        tops: [0; 16],
        filled: [0; 256],
        opaque: [0; 256],
        water: [0; 256],
        tile_filled: [0; 16],
        top: 0,
        light: vec![0; (CHUNK * CHUNK * HEIGHT) as usize].into_boxed_slice(),
        mesh: std::sync::OnceLock::new(),
    };
    let (bx, bz) = (cx * CHUNK, cz * CHUNK);
    // Columns: stone, soil, surface, water, bedrock.
    for x in 0..CHUNK {
        for z in 0..CHUNK {
            let col = column(seed, bx + x, bz + z);
            let h = col.height;
            c.biomes[(x * 16 + z) as usize] = col.biome;
            c.heights[(x * 16 + z) as usize] = h as u8;
            let (top, soil, depth) = match col.biome {
                Biome::Desert => (b::SAND, b::SAND, 4),
                Biome::Ocean => (b::SAND, b::SAND, 3),
                Biome::Mountains if h > 100 => (b::SNOW_BLOCK, b::STONE, 1),
                Biome::Mountains if h > 80 => (b::STONE, b::STONE, 0),
                Biome::Taiga if h > 72 => (b::SNOW_BLOCK, b::DIRT, 3),
                _ if h <= SEA_LEVEL + 1 => (b::SAND, b::SAND, 3),
                _ => (b::GRASS_BLOCK, b::DIRT, 3),
            };
            // Written straight into the column: every cell up to the
            // surface or the sea level is filled (none of these is air),
            // so the masks take that whole range at once.
            let base = idx(x, 0, z);
            let cells = &mut c.blocks[base..base + HEIGHT as usize];
            let (h, depth) = (h as usize, depth as usize);
            let stone_top = if col.biome == Biome::Desert {
                (h - depth).saturating_sub(3)
            } else {
                h - depth
            };
            cells[..stone_top].fill(b::STONE);
            cells[stone_top..h - depth].fill(b::SANDSTONE);
            cells[h - depth..h].fill(soil);
            cells[h] = top;
            let sea = SEA_LEVEL as usize;
            if h < sea {
                cells[h + 1..=sea].fill(b::WATER);
            }
            cells[0] = b::BEDROCK;
            for y in 1..5 {
                if unit(seed ^ 0xBED, bx + x, y, bz + z) < 0.8 - y as f32 * 0.2 {
                    cells[y as usize] = b::BEDROCK;
                }
            }
            let last = h.max(sea);
            c.filled[(x * CHUNK + z) as usize] = u128::MAX >> (127 - last);
            let t = &mut c.tops[((x >> 2) * 4 + (z >> 2)) as usize];
            *t = (*t).max(last as u8 + 1);
            c.top = c.top.max(last as u8 + 1);
        }
    }
    carve_caves(seed, &mut c);
    place_ores(seed, &mut c);
    decorate(seed, &mut c);
    c.masks();
    c
}

/// Caves: where two smooth 3D noises are both near zero (winding tunnels),
/// sampled on a 4-block lattice and interpolated; lava floods them below
/// y = 10. Tunnels stay under the water table and away from the sea floor.
fn carve_caves(seed: u64, c: &mut Chunk) {
    const S: i32 = 4;
    const NY: usize = (HEIGHT / S + 1) as usize;
    let (bx, bz) = (c.cx * CHUNK, c.cz * CHUNK);
    let mut lat = vec![[0.0f32; 2]; 5 * 5 * NY];
    for i in 0..5 {
        for k in 0..5 {
            for j in 0..NY {
                let (x, y, z) = (
                    (bx + i as i32 * S) as f32,
                    (j as i32 * S) as f32,
                    (bz + k as i32 * S) as f32,
                );
                lat[(i * 5 + k) * NY + j] = [
                    value3(seed ^ 0xCA1, x / 28.0, y / 16.0, z / 28.0),
                    value3(seed ^ 0xCA2, x / 28.0, y / 16.0, z / 28.0),
                ];
            }
        }
    }
    // Per column, the two noises interpolated across x and z at every
    // lattice level (the same operations, in the same order, as a
    // trilinear lookup per cell); cells then interpolate along y only.
    let mut col = [[0.0f32; 2]; NY];
    for x in 0..CHUNK {
        for z in 0..CHUNK {
            let h = c.heights[(x * 16 + z) as usize] as i32;
            let ocean = h < SEA_LEVEL;
            let top = if ocean { h - 6 } else { h - 3 };
            if top <= 5 {
                continue;
            }
            let (i, k) = ((x / S) as usize, (z / S) as usize);
            let (tx, tz) = ((x % S) as f32 / S as f32, (z % S) as f32 / S as f32);
            // Levels the cells 5..top read: j and j + 1 for j = y / S.
            for (j, cj) in col
                .iter_mut()
                .enumerate()
                .take((top - 1) as usize / S as usize + 2)
            {
                for (n, v) in cj.iter_mut().enumerate() {
                    let g = |di: usize, dk: usize| lat[((i + di) * 5 + k + dk) * NY + j][n];
                    let a = g(0, 0) + (g(1, 0) - g(0, 0)) * tx;
                    let bb = g(0, 1) + (g(1, 1) - g(0, 1)) * tx;
                    *v = a + (bb - a) * tz;
                }
            }
            for y in 5..top {
                let j = (y / S) as usize;
                let ty = (y % S) as f32 / S as f32;
                let (lo, hi) = (col[j], col[j + 1]);
                let v0 = lo[0] + (hi[0] - lo[0]) * ty;
                let v1 = lo[1] + (hi[1] - lo[1]) * ty;
                if v0.abs() < 0.075 && v1.abs() < 0.075 {
                    c.put(x, y, z, if y <= 10 { b::LAVA } else { b::AIR });
                }
            }
        }
    }
}

/// Ore veins by depth, as in Minecraft 1.16: coal anywhere up to y 127, iron
/// up to 63 (common), lapis up to 31, gold up to 31, redstone and diamond
/// only up to 15 (diamond rare). Veins replace stone inside the chunk.
fn place_ores(seed: u64, c: &mut Chunk) {
    let mut rng = Rng::new(seed ^ 0x0E5, chunk_stream(c.cx, c.cz));
    //          block, veins per chunk, vein size, max y
    let table: [(BlockId, u32, u32, i32); 6] = [
        (b::COAL_ORE, 20, 14, 127),
        (b::IRON_ORE, 20, 8, 63),
        (b::GOLD_ORE, 2, 8, 31),
        (b::REDSTONE_ORE, 8, 7, 15),
        (b::DIAMOND_ORE, 1, 7, 15),
        (b::LAPIS_ORE, 1, 6, 31),
    ];
    for (ore, veins, size, max_y) in table {
        for _ in 0..veins {
            let (mut x, mut y, mut z) = (
                rng.range_i32(0, CHUNK - 1),
                rng.range_i32(1, max_y),
                rng.range_i32(0, CHUNK - 1),
            );
            for _ in 0..size {
                if (0..CHUNK).contains(&x)
                    && (1..=max_y).contains(&y)
                    && (0..CHUNK).contains(&z)
                    && c.get(x, y, z) == b::STONE
                {
                    c.put(x, y, z, ore);
                }
                match rng.below(6) {
                    0 => x += 1,
                    1 => x -= 1,
                    2 => y += 1,
                    3 => y -= 1,
                    4 => z += 1,
                    _ => z -= 1,
                }
            }
        }
    }
}

fn chunk_stream(cx: i32, cz: i32) -> u64 {
    ((cx as u32 as u64) << 32) | cz as u32 as u64
}

/// Trees, tall grass and cacti per biome.
fn decorate(seed: u64, c: &mut Chunk) {
    let mut rng = Rng::new(seed ^ 0x7EE, chunk_stream(c.cx, c.cz));
    let tries = 12;
    for _ in 0..tries {
        let x = rng.range_i32(2, CHUNK - 3);
        let z = rng.range_i32(2, CHUNK - 3);
        let roll = rng.next_f64();
        let kind_roll = rng.next_f64();
        let tall = rng.range_i32(0, 2);
        let h = c.heights[(x * 16 + z) as usize] as i32;
        let biome = c.biomes[(x * 16 + z) as usize];
        let ground = c.get(x, h, z);
        let on_soil =
            ground == b::GRASS_BLOCK || (ground == b::SNOW_BLOCK && biome == Biome::Taiga);
        if h + 12 >= HEIGHT || c.get(x, h + 1, z) != b::AIR {
            continue;
        }
        let density = match biome {
            Biome::Forest => 0.75,
            Biome::Taiga => 0.55,
            Biome::Plains => 0.08,
            Biome::Mountains => 0.1,
            _ => 0.0,
        };
        if on_soil && roll < density {
            c.put(x, h, z, b::DIRT);
            match biome {
                Biome::Taiga => spruce(c, x, h + 1, z, 6 + tall),
                Biome::Forest if kind_roll < 0.3 => {
                    round_tree(c, x, h + 1, z, 5 + tall, b::BIRCH_LOG, b::BIRCH_LEAVES)
                }
                _ => round_tree(c, x, h + 1, z, 4 + tall, b::OAK_LOG, b::OAK_LEAVES),
            }
        } else if biome == Biome::Desert && ground == b::SAND && roll < 0.15 {
            for dy in 1..=2 + tall.min(1) {
                c.put(x, h + dy, z, b::CACTUS);
            }
        }
    }
    // Tall grass on plains and forest floors.
    for x in 0..CHUNK {
        for z in 0..CHUNK {
            let biome = c.biomes[(x * 16 + z) as usize];
            let h = c.heights[(x * 16 + z) as usize] as i32;
            let p = match biome {
                Biome::Plains => 0.12,
                Biome::Forest => 0.05,
                _ => 0.0,
            };
            if p > 0.0
                && h + 1 < HEIGHT
                && c.get(x, h, z) == b::GRASS_BLOCK
                && c.get(x, h + 1, z) == b::AIR
                && unit(seed ^ 0x6A5, c.cx * CHUNK + x, h, c.cz * CHUNK + z) < p
            {
                c.put(x, h + 1, z, b::TALL_GRASS);
            }
        }
    }
}

fn put_leaf(c: &mut Chunk, x: i32, y: i32, z: i32, leaf: BlockId) {
    if (0..CHUNK).contains(&x) && (0..HEIGHT).contains(&y) && (0..CHUNK).contains(&z) {
        let v = c.get(x, y, z);
        if v == b::AIR || v == b::TALL_GRASS {
            c.put(x, y, z, leaf);
        }
    }
}

fn round_tree(c: &mut Chunk, x: i32, y: i32, z: i32, height: i32, log: BlockId, leaf: BlockId) {
    let top = y + height - 1;
    for dy in 0..height {
        c.put(x, y + dy, z, log);
    }
    for ly in top - 2..=top + 1 {
        let r: i32 = if ly >= top { 1 } else { 2 };
        for dx in -r..=r {
            for dz in -r..=r {
                // Round the corners of the wide layers and the top.
                if dx.abs() == r && dz.abs() == r && (r == 1 && ly == top + 1 || r == 2) {
                    continue;
                }
                put_leaf(c, x + dx, ly, z + dz, leaf);
            }
        }
    }
}

fn spruce(c: &mut Chunk, x: i32, y: i32, z: i32, height: i32) {
    let top = y + height - 1;
    for dy in 0..height {
        c.put(x, y + dy, z, b::SPRUCE_LOG);
    }
    for ly in y + 2..=top + 1 {
        let from_top = top + 1 - ly;
        let r: i32 = if from_top == 0 {
            0
        } else if from_top % 2 == 1 {
            1
        } else {
            2
        };
        for dx in -r..=r {
            for dz in -r..=r {
                if r == 2 && dx.abs() == 2 && dz.abs() == 2 {
                    continue;
                }
                put_leaf(c, x + dx, ly, z + dz, b::SPRUCE_LEAVES);
            }
        }
    }
}

/// Loaded chunks (a ring of slots) plus chunks changed by the player that
/// were unloaded (kept so edits survive walking away and back).
#[derive(Clone)]
pub struct Terrain {
    pub seed: u64,
    slots: Vec<Option<Box<Chunk>>>,
    saved: BTreeMap<(i32, i32), Box<Chunk>>,
}

impl Terrain {
    pub fn new(seed: u64) -> Self {
        Terrain {
            seed,
            slots: (0..RING * RING).map(|_| None).collect(),
            saved: BTreeMap::new(),
        }
    }

    #[inline]
    fn slot(cx: i32, cz: i32) -> usize {
        ((cx.rem_euclid(RING)) * RING + cz.rem_euclid(RING)) as usize
    }

    #[inline]
    /// Every loaded chunk, in slot order.
    pub fn loaded(&self) -> impl Iterator<Item = &Chunk> {
        self.slots.iter().filter_map(|c| c.as_deref())
    }

    pub fn chunk(&self, cx: i32, cz: i32) -> Option<&Chunk> {
        match &self.slots[Self::slot(cx, cz)] {
            Some(c) if c.cx == cx && c.cz == cz => Some(c),
            _ => None,
        }
    }

    pub fn is_loaded(&self, cx: i32, cz: i32) -> bool {
        self.chunk(cx, cz).is_some()
    }

    /// Make sure chunk `(cx, cz)` is loaded (generating or restoring it).
    pub fn load(&mut self, cx: i32, cz: i32) {
        if self.is_loaded(cx, cz) {
            return;
        }
        let s = Self::slot(cx, cz);
        if let Some(old) = self.slots[s].take()
            && old.dirty
        {
            self.saved.insert((old.cx, old.cz), old);
        }
        let c = match self.saved.remove(&(cx, cz)) {
            Some(c) => c,
            None => Box::new(generate(self.seed, cx, cz)),
        };
        self.slots[s] = Some(c);
        // The neighbours' meshes hid their faces against this chunk (and a
        // restored chunk's own was built beside other neighbours).
        for (dx, dz) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
            self.drop_mesh(cx + dx, cz + dz);
        }
        crate::light::light_chunk(self, cx, cz);
    }

    pub(crate) fn chunk_mut(&mut self, cx: i32, cz: i32) -> Option<&mut Chunk> {
        match &mut self.slots[Self::slot(cx, cz)] {
            Some(c) if c.cx == cx && c.cz == cz => Some(c),
            _ => None,
        }
    }

    /// The same chunks (blocks as they are now) lit afresh, one after
    /// another in slot order: what incremental updates must agree with.
    #[cfg(test)]
    pub(crate) fn relit(&self) -> Terrain {
        let mut t = Terrain::new(self.seed);
        for c in self.loaded() {
            let (cx, cz) = (c.cx, c.cz);
            t.slots[Self::slot(cx, cz)] = Some(Box::new(c.clone()));
            crate::light::light_chunk(&mut t, cx, cz);
        }
        t
    }

    /// Sky and block light at a position (see [`crate::light::at`]).
    pub fn light(&self, x: i32, y: i32, z: i32) -> (u8, u8) {
        crate::light::at(self, x, y, z)
    }

    /// Load every chunk within `radius` chunks of block position `(x, z)`;
    /// at most `budget` new ones (nearest first). Returns how many loaded.
    pub fn load_around(&mut self, x: f64, z: f64, radius: i32, budget: usize) -> usize {
        let (pcx, pcz) = (
            libm::floor(x / CHUNK as f64) as i32,
            libm::floor(z / CHUNK as f64) as i32,
        );
        let mut want: Vec<(i32, i32, i32)> = Vec::new();
        for dx in -radius..=radius {
            for dz in -radius..=radius {
                if !self.is_loaded(pcx + dx, pcz + dz) {
                    want.push((dx * dx + dz * dz, pcx + dx, pcz + dz));
                }
            }
        }
        want.sort();
        let n = want.len().min(budget);
        for &(_, cx, cz) in &want[..n] {
            self.load(cx, cz);
        }
        n
    }

    /// The block at a position; bedrock below the world, air above it and
    /// [`UNLOADED`] in chunks not generated yet.
    #[inline]
    pub fn get(&self, x: i32, y: i32, z: i32) -> BlockId {
        if y < 0 {
            return b::BEDROCK;
        }
        if y >= HEIGHT {
            return b::AIR;
        }
        match self.chunk(x >> 4, z >> 4) {
            Some(c) => c.get(x & 15, y, z & 15),
            None => UNLOADED,
        }
    }

    /// Change a block (no effect outside loaded chunks or the height range).
    pub fn set(&mut self, x: i32, y: i32, z: i32, v: BlockId) -> bool {
        if !(0..HEIGHT).contains(&y) {
            return false;
        }
        let s = Self::slot(x >> 4, z >> 4);
        match &mut self.slots[s] {
            Some(c) if c.cx == x >> 4 && c.cz == z >> 4 => {
                let old = c.get(x & 15, y, z & 15);
                c.set(x & 15, y, z & 15, v);
                c.dirty = true;
                if old != v {
                    // This chunk's mesh, and a neighbour's where the cell
                    // lies on their border.
                    c.mesh = std::sync::OnceLock::new();
                    let (lx, lz) = (x & 15, z & 15);
                    if lx == 0 {
                        self.drop_mesh((x >> 4) - 1, z >> 4);
                    }
                    if lx == 15 {
                        self.drop_mesh((x >> 4) + 1, z >> 4);
                    }
                    if lz == 0 {
                        self.drop_mesh(x >> 4, (z >> 4) - 1);
                    }
                    if lz == 15 {
                        self.drop_mesh(x >> 4, (z >> 4) + 1);
                    }
                    crate::light::relight(self, [x, y, z], old);
                }
                true
            }
            _ => false,
        }
    }

    /// Drops a loaded chunk's mesh (it is rebuilt when next drawn).
    fn drop_mesh(&mut self, cx: i32, cz: i32) {
        if let Some(c) = self.chunk_mut(cx, cz) {
            c.mesh = std::sync::OnceLock::new();
        }
    }

    pub fn biome(&self, x: i32, z: i32) -> Biome {
        match self.chunk(x >> 4, z >> 4) {
            Some(c) => c.biomes[((x & 15) * 16 + (z & 15)) as usize],
            None => column(self.seed, x, z).biome,
        }
    }

    /// The highest non-air, non-plant block's y in a loaded column.
    pub fn surface_y(&self, x: i32, z: i32) -> Option<i32> {
        let c = self.chunk(x >> 4, z >> 4)?;
        (0..HEIGHT).rev().find(|&y| {
            let v = c.get(x & 15, y, z & 15);
            v != b::AIR && v != b::TALL_GRASS
        })
    }

    /// A content hash of a loaded chunk (FNV-1a over its blocks).
    pub fn chunk_hash(&self, cx: i32, cz: i32) -> Option<u64> {
        let c = self.chunk(cx, cz)?;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &v in c.blocks.iter() {
            h ^= v as u64;
            h = h.wrapping_mul(0x100_0000_01b3);
        }
        Some(h)
    }
}
