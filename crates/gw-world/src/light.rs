//! Light as Minecraft has it: two levels 0–15 per cell, sky light and
//! block light, kept in each chunk (`Chunk::light`, sky in the high
//! nibble).
//!
//! - Sky light is 15 above the world and falls straight down without loss
//!   through air, glass, plants and torches; leaves and water take one
//!   level per cell; opaque blocks stop it.
//! - Block light starts at a source's emission ([`emission`]: torch 14,
//!   lava 15, …).
//! - Both spread to the six neighbours, one level less per step (and one
//!   more through leaves and water), never into an opaque block.
//!
//! A chunk is lit when it loads ([`light_chunk`]: its columns top-down,
//! then a flood fill that also carries light across its borders both
//! ways); unloaded chunks count as dark and opaque. A block edit relights
//! incrementally ([`relight`]: the standard removal flood from the edited
//! cell, then a refill from the light left around it), touching only the
//! cells whose level changes and their neighbours. The renderer scales
//! sky light by the time of day ([`brightness`]). Light that reached a
//! chunk from a neighbour that is later unloaded (the ring of loaded
//! chunks moving on) stays until those cells are next relit; a chunk
//! loaded again is lit afresh.

use crate::data::{BlockId, b, data};
use crate::terrain::{CHUNK, HEIGHT, Terrain};
use std::collections::VecDeque;
use std::sync::OnceLock;

/// Per block id: (emission, opacity) where opacity 15 stops light, 1 takes
/// one extra level (leaves, water), 0 lets it through.
fn table() -> &'static [(u8, u8); 256] {
    static T: OnceLock<[(u8, u8); 256]> = OnceLock::new();
    T.get_or_init(|| {
        use crate::data::Pattern;
        let mut t = [(0u8, 15u8); 256];
        for (id, def) in data().blocks.iter().enumerate() {
            let id = id as BlockId;
            let opacity = if id == b::WATER || def.pattern == Pattern::Leaves {
                1
            } else if matches!(
                def.pattern,
                Pattern::None | Pattern::Plant | Pattern::Torch | Pattern::Glass
            ) {
                0
            } else {
                15
            };
            t[id as usize] = (emission(id), opacity);
        }
        t
    })
}

/// The block light a block gives off (Minecraft's levels).
pub fn emission(id: BlockId) -> u8 {
    match id {
        b::TORCH => 14,
        b::LAVA => 15,
        _ => 0,
    }
}

#[inline]
fn opacity(id: BlockId) -> u8 {
    table()[id as usize].1
}

/// The two channels: sky (high nibble) and block (low nibble).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ch {
    Sky,
    Block,
}

impl Ch {
    #[inline]
    fn get(self, v: u8) -> u8 {
        match self {
            Ch::Sky => v >> 4,
            Ch::Block => v & 15,
        }
    }
    #[inline]
    fn put(self, v: u8, l: u8) -> u8 {
        match self {
            Ch::Sky => (v & 15) | l << 4,
            Ch::Block => (v & 0xf0) | l,
        }
    }
}

const DIRS: [[i32; 3]; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

/// The level light of `ch` at `l` brings into a neighbour of opacity `op`
/// reached along `dir` (sky light falls straight down without loss).
#[inline]
fn spread(ch: Ch, l: u8, dir: [i32; 3], op: u8) -> u8 {
    if op >= 15 {
        return 0;
    }
    if ch == Ch::Sky && l == 15 && dir[1] == -1 {
        return 15 - op;
    }
    l.saturating_sub(1 + op)
}

/// Cell access through the terrain's loaded chunks.
struct Cells<'t> {
    t: &'t mut Terrain,
}

impl Cells<'_> {
    /// (block, light byte) at a cell, `None` outside loaded chunks or the
    /// height range.
    #[inline]
    fn at(&self, p: [i32; 3]) -> Option<(BlockId, u8)> {
        if !(0..HEIGHT).contains(&p[1]) {
            return None;
        }
        let c = self.t.chunk(p[0] >> 4, p[2] >> 4)?;
        let i = (((p[0] & 15) * CHUNK + (p[2] & 15)) * HEIGHT + p[1]) as usize;
        Some((c.blocks[i], c.light[i]))
    }
    #[inline]
    fn set(&mut self, p: [i32; 3], ch: Ch, l: u8) {
        if let Some(c) = self.t.chunk_mut(p[0] >> 4, p[2] >> 4) {
            let i = (((p[0] & 15) * CHUNK + (p[2] & 15)) * HEIGHT + p[1]) as usize;
            c.light[i] = ch.put(c.light[i], l);
        }
    }

    /// Flood light outwards from the queued cells (each at its stored
    /// level), raising neighbours that are darker than what it brings.
    fn fill(&mut self, ch: Ch, queue: &mut VecDeque<[i32; 3]>) {
        while let Some(p) = queue.pop_front() {
            let Some((_, v)) = self.at(p) else { continue };
            let l = ch.get(v);
            if l <= 1 {
                continue;
            }
            for d in DIRS {
                let n = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
                let Some((nb, nv)) = self.at(n) else { continue };
                let want = spread(ch, l, d, opacity(nb));
                if want > ch.get(nv) {
                    self.set(n, ch, want);
                    queue.push_back(n);
                }
            }
        }
    }
}

/// Light chunk (`cx`, `cz`) just loaded: sky light down its columns and its
/// blocks' emission, then a flood fill from every cell that can pass light
/// on, and from the lit border cells of loaded neighbours (which the new
/// chunk may also brighten).
pub(crate) fn light_chunk(t: &mut Terrain, cx: i32, cz: i32) {
    let Some(c) = t.chunk_mut(cx, cz) else { return };
    let h = HEIGHT as usize;
    // Columns top-down: open sky down to the column's highest block.
    for col in 0..(CHUNK * CHUNK) as usize {
        let mut sky = 15u8;
        let top = 128 - c.filled[col].leading_zeros() as i32;
        for y in (0..h).rev() {
            let i = col * h + y;
            let id = c.blocks[i];
            let (em, op) = table()[id as usize];
            if (y as i32) < top {
                // As `spread` brings it down from the cell above.
                sky = spread(Ch::Sky, sky, [0, -1, 0], op);
            }
            c.light[i] = sky << 4 | em;
        }
    }
    let mut sky_q = VecDeque::new();
    let mut block_q = VecDeque::new();
    let (bx, bz) = (cx * CHUNK, cz * CHUNK);
    let tops_near = |t: &Terrain, x: i32, z: i32| -> i32 {
        // The highest top among a column and its four neighbours (loaded).
        let mut m = 0;
        for (dx, dz) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (xx, zz) = (x + dx, z + dz);
            if let Some(ch) = t.chunk(xx >> 4, zz >> 4) {
                let col = ((xx & 15) * CHUNK + (zz & 15)) as usize;
                m = m.max(128 - ch.filled[col].leading_zeros() as i32);
            }
        }
        m
    };
    {
        let c = t.chunk(cx, cz).expect("loaded above");
        for x in 0..CHUNK {
            for z in 0..CHUNK {
                let col = (x * CHUNK + z) as usize;
                let reach = tops_near(t, bx + x, bz + z);
                for y in 0..reach.min(HEIGHT) {
                    let v = c.light[col * h + y as usize];
                    let p = [bx + x, y, bz + z];
                    if v >> 4 > 1 {
                        sky_q.push_back(p);
                    }
                    if v & 15 > 1 {
                        block_q.push_back(p);
                    }
                }
            }
        }
    }
    // Lit cells of loaded neighbours along the shared borders.
    for (ncx, ncz, xs, zs) in [
        (cx - 1, cz, [bx - 1, bx - 1], [bz, bz + CHUNK - 1]),
        (cx + 1, cz, [bx + CHUNK, bx + CHUNK], [bz, bz + CHUNK - 1]),
        (cx, cz - 1, [bx, bx + CHUNK - 1], [bz - 1, bz - 1]),
        (cx, cz + 1, [bx, bx + CHUNK - 1], [bz + CHUNK, bz + CHUNK]),
    ] {
        let Some(nc) = t.chunk(ncx, ncz) else {
            continue;
        };
        for x in xs[0]..=xs[1] {
            for z in zs[0]..=zs[1] {
                let col = ((x & 15) * CHUNK + (z & 15)) as usize;
                // Above both columns' tops sky light is 15 on both sides;
                // block light from elsewhere may pass at any height.
                let reach = tops_near(t, x, z);
                for y in 0..HEIGHT {
                    let v = nc.light[col * h + y as usize];
                    if y < reach && v >> 4 > 1 {
                        sky_q.push_back([x, y, z]);
                    }
                    if v & 15 > 1 {
                        block_q.push_back([x, y, z]);
                    }
                }
            }
        }
    }
    let mut cells = Cells { t };
    cells.fill(Ch::Sky, &mut sky_q);
    cells.fill(Ch::Block, &mut block_q);
}

/// Relight after the block at `p` changed from `old` (already written):
/// light that depended on the old block is taken away, then the light
/// around refills the gap, and the new block's own emission spreads.
pub(crate) fn relight(t: &mut Terrain, p: [i32; 3], old: BlockId) {
    let mut cells = Cells { t };
    let Some((new, _)) = cells.at(p) else { return };
    if new == old {
        return;
    }
    let ((em_old, op_old), (em_new, op_new)) = (table()[old as usize], table()[new as usize]);
    for ch in [Ch::Sky, Ch::Block] {
        let mut refill: VecDeque<[i32; 3]> = VecDeque::new();
        // Light only grows where the block lets more through and gives
        // off no less: no removal is needed then.
        let darker = op_new > op_old || (ch == Ch::Block && em_new < em_old);
        // Removal: from the edited cell, every cell whose level came
        // through it goes dark; brighter or equal neighbours met on the
        // way are sources for the refill.
        let (_, v) = cells.at(p).expect("checked");
        let mut gone: VecDeque<([i32; 3], u8)> = VecDeque::new();
        if darker {
            gone.push_back((p, ch.get(v)));
            cells.set(p, ch, 0);
        }
        while let Some((c, l)) = gone.pop_front() {
            for d in DIRS {
                let n = [c[0] + d[0], c[1] + d[1], c[2] + d[2]];
                let Some((nb, nv)) = cells.at(n) else {
                    continue;
                };
                let ln = ch.get(nv);
                if ln == 0 {
                    continue;
                }
                let fed = ln < l || (ch == Ch::Sky && l == 15 && ln == 15 && d[1] == -1);
                if fed {
                    cells.set(n, ch, 0);
                    gone.push_back((n, ln));
                    // A source keeps its own light.
                    let em = table()[nb as usize].0;
                    if ch == Ch::Block && em > 0 {
                        cells.set(n, ch, em);
                        refill.push_back(n);
                    }
                } else {
                    refill.push_back(n);
                }
            }
        }
        // The edited cell's own light: its emission, and open sky above
        // the world's top.
        let (nb, _) = cells.at(p).expect("checked");
        let own = match ch {
            Ch::Block => table()[nb as usize].0,
            Ch::Sky if p[1] == HEIGHT - 1 => spread(Ch::Sky, 15, [0, -1, 0], opacity(nb)),
            Ch::Sky => 0,
        };
        if own > 0 {
            cells.set(p, ch, own);
            refill.push_back(p);
        }
        // Its neighbours pass their light (back) into it.
        for d in DIRS {
            refill.push_back([p[0] + d[0], p[1] + d[1], p[2] + d[2]]);
        }
        cells.fill(ch, &mut refill);
    }
}

/// Sky and block light at a cell: above the world open sky, below it
/// dark; outside loaded chunks open sky.
pub fn at(t: &Terrain, x: i32, y: i32, z: i32) -> (u8, u8) {
    if y >= HEIGHT {
        return (15, 0);
    }
    if y < 0 {
        return (0, 0);
    }
    match t.chunk(x >> 4, z >> 4) {
        Some(c) => {
            let v = c.light[(((x & 15) * CHUNK + (z & 15)) * HEIGHT + y) as usize];
            (v >> 4, v & 15)
        }
        None => (15, 0),
    }
}

/// How much of the sky's light reaches down at `daylight` (the world's
/// [`crate::World::daylight`], 0.25 at night to 1 by day): Minecraft
/// darkens sky light by up to 11 levels at night.
pub fn sky_darkening(daylight: f32) -> u8 {
    let night = ((1.0 - daylight) / 0.75).clamp(0.0, 1.0);
    (night * 11.0).round() as u8
}

/// The light level at a cell as mob spawning reads it: the greater of
/// block light and sky light less the night's darkening.
pub fn level(t: &Terrain, p: [i32; 3], daylight: f32) -> u8 {
    let (sky, block) = at(t, p[0], p[1], p[2]);
    block.max(sky.saturating_sub(sky_darkening(daylight)))
}

/// Brightness factor of a face lit by (`sky`, `block`) at `daylight`:
/// sky light scaled by the daylight, the greater of the two through
/// Minecraft's brightness curve, over a faint floor so the darkest caves
/// are not pure black.
#[inline]
pub fn brightness(sky: u8, block: u8, daylight: f32) -> f32 {
    let l = (sky as f32 * daylight).max(block as f32) / 15.0;
    0.04 + 0.96 * l / (4.0 - 3.0 * l)
}
