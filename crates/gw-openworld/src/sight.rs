//! What the expert knows about the world around it.
//!
//! The fair expert ([`Knowledge::Fair`], the data source) knows only what a
//! player could: blocks and mobs that have been in its view, remembered as
//! last seen. Every [`SCAN_EVERY`] ticks [`Sight::update`] casts a grid of
//! rays through the camera's field of view ([`FOV_DEG`] high, the frame's
//! aspect wide — a coarse pick buffer of the frame the player sees): the
//! first opaque block along each ray is remembered, cells a ray passes
//! through are remembered as empty (a block mined or fallen away is
//! forgotten), and plants it passes (tall grass) are remembered without
//! stopping the ray. A mob is seen when it lies inside the view and no
//! opaque block stands between the eye and its middle. A target can also be
//! checked directly ([`Sight::verify`]) by a ray from the eye to it.
//!
//! The all-seeing expert ([`Knowledge::AllSeeing`]) reads every loaded
//! block and every mob; it exists for solvability checks only and is named
//! so wherever it is used.

use crate::skills::motor::Cell;
use gw_world::World;
use gw_world::data::{BlockId, b, data};
use gw_world::terrain::{HEIGHT, UNLOADED};
use gw_world::world::MobKind;
use std::collections::{BTreeMap, BTreeSet};

/// Ticks between two scans of the view.
pub const SCAN_EVERY: u64 = 4;
/// Rays across and down the view per scan.
pub const RAYS_X: u32 = 32;
pub const RAYS_Y: u32 = 18;
/// How far the scan sees (blocks).
pub const SIGHT_RANGE: f64 = 48.0;
/// The vertical field of view (the renderer's).
pub const FOV_DEG: f64 = 70.0;
/// The frame's width over its height (640×360).
pub const ASPECT: f64 = 16.0 / 9.0;

/// What the expert may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Knowledge {
    /// Only what has been in view (the dataset expert).
    #[default]
    Fair,
    /// Every loaded block and every mob (solvability checks only).
    AllSeeing,
}

/// A mob as last seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeenMob {
    pub kind: MobKind,
    pub pos: [f64; 3],
    pub tick: u64,
}

/// The expert's knowledge of blocks and mobs.
#[derive(Clone, Debug, Default)]
pub struct Sight {
    pub knowledge: Knowledge,
    /// Cell → block as last seen (never air).
    blocks: BTreeMap<Cell, BlockId>,
    /// Block → the cells last seen holding it.
    by_kind: BTreeMap<BlockId, BTreeSet<Cell>>,
    /// Mob id → where it was last seen.
    mobs: BTreeMap<u32, SeenMob>,
    scans: u64,
    last_scan: Option<u64>,
}

/// Whether a ray stops at block `v` (anything drawn solid or leafy).
fn opaque(v: BlockId) -> bool {
    v != b::AIR && v != b::WATER && v != b::LAVA && !plant(v)
}

/// Plants a ray sees but passes through.
fn plant(v: BlockId) -> bool {
    v == b::TALL_GRASS || (v != b::AIR && !data().block(v).solid && v != b::WATER && v != b::LAVA)
}

fn dir(yaw: f64, pitch: f64) -> [f64; 3] {
    let (y, p) = (yaw.to_radians(), pitch.to_radians());
    [
        -libm::sin(y) * libm::cos(p),
        -libm::sin(p),
        libm::cos(y) * libm::cos(p),
    ]
}

fn floor(x: f64) -> i32 {
    libm::floor(x) as i32
}

/// Voxel walk (Amanatides–Woo) from `o` along unit `d` up to `range`:
/// calls `visit(cell)` for each cell entered (the start cell first) until it
/// returns false.
fn walk(o: [f64; 3], d: [f64; 3], range: f64, mut visit: impl FnMut(Cell) -> bool) {
    let mut w = gw_world::ray::VoxelWalk::new(o, d);
    while visit(w.cell) {
        let (_, t) = w.advance();
        if t > range {
            return;
        }
    }
}

impl Sight {
    pub fn new(knowledge: Knowledge) -> Sight {
        Sight {
            knowledge,
            ..Default::default()
        }
    }

    pub fn all_seeing(&self) -> bool {
        self.knowledge == Knowledge::AllSeeing
    }

    /// How many scans have run.
    pub fn scans(&self) -> u64 {
        self.scans
    }

    /// Blocks remembered (not air).
    pub fn known_blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Every remembered block, in cell order.
    pub fn known(&self) -> impl Iterator<Item = (Cell, BlockId)> + '_ {
        self.blocks.iter().map(|(&c, &v)| (c, v))
    }

    fn remember(&mut self, c: Cell, v: BlockId) {
        if let Some(old) = self.blocks.insert(c, v) {
            if old == v {
                return;
            }
            if let Some(s) = self.by_kind.get_mut(&old) {
                s.remove(&c);
            }
        }
        self.by_kind.entry(v).or_default().insert(c);
    }

    fn forget(&mut self, c: Cell) {
        if let Some(old) = self.blocks.remove(&c)
            && let Some(s) = self.by_kind.get_mut(&old)
        {
            s.remove(&c);
        }
    }

    /// Follow one ray through the world, remembering what it meets.
    fn trace(&mut self, w: &World, o: [f64; 3], d: [f64; 3], range: f64) {
        walk(o, d, range, |c| {
            if !(0..HEIGHT).contains(&c[1]) {
                return false;
            }
            let v = w.terrain.get(c[0], c[1], c[2]);
            if v == UNLOADED {
                return false;
            }
            if opaque(v) {
                self.remember(c, v);
                return false;
            }
            if plant(v) {
                self.remember(c, v);
            } else {
                self.forget(c);
            }
            true
        });
    }

    /// Look at the world this tick: a scan of the view every
    /// [`SCAN_EVERY`] ticks (Fair), the mobs in view every tick.
    pub fn update(&mut self, w: &World) {
        if self.all_seeing() {
            return;
        }
        let e = w.eye();
        let (yaw, pitch) = (w.player.yaw, w.player.pitch);
        let fwd = dir(yaw, pitch);
        let up = dir(yaw, pitch - 90.0);
        let yr = yaw.to_radians();
        let right = [-libm::cos(yr), 0.0, -libm::sin(yr)];
        let ty = libm::tan((FOV_DEG / 2.0).to_radians());
        let tx = ty * ASPECT;
        if self.last_scan.is_none_or(|t| w.tick >= t + SCAN_EVERY) {
            self.last_scan = Some(w.tick);
            // The grid shifts by a quarter cell each scan, so four scans
            // from one pose cover a grid four times as fine.
            let k = self.scans % 4;
            let (jx, jy) = ((k % 2) as f64 * 0.5, (k / 2) as f64 * 0.5);
            self.scans += 1;
            for j in 0..RAYS_Y {
                let sy = ((j as f64 + 0.25 + jy) / RAYS_Y as f64 * 2.0 - 1.0) * ty;
                for i in 0..RAYS_X {
                    let sx = ((i as f64 + 0.25 + jx) / RAYS_X as f64 * 2.0 - 1.0) * tx;
                    let v = [
                        fwd[0] + right[0] * sx - up[0] * sy,
                        fwd[1] + right[1] * sx - up[1] * sy,
                        fwd[2] + right[2] * sx - up[2] * sy,
                    ];
                    let n = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                    self.trace(w, e, [v[0] / n, v[1] / n, v[2] / n], SIGHT_RANGE);
                }
            }
        }
        for m in &w.mobs {
            let c = [
                m.body.pos[0],
                m.body.pos[1] + m.body.height * 0.5,
                m.body.pos[2],
            ];
            let d = [c[0] - e[0], c[1] - e[1], c[2] - e[2]];
            let f = d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2];
            if f <= 0.1 || f > SIGHT_RANGE {
                continue;
            }
            let r = d[0] * right[0] + d[1] * right[1] + d[2] * right[2];
            let u = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
            if (r / f).abs() > tx || (u / f).abs() > ty {
                continue;
            }
            if self.line_of_sight(w, e, c) {
                self.mobs.insert(
                    m.id,
                    SeenMob {
                        kind: m.kind,
                        pos: m.body.pos,
                        tick: w.tick,
                    },
                );
            }
        }
        // Mobs not seen for a minute are forgotten.
        let now = w.tick;
        self.mobs.retain(|_, m| now.saturating_sub(m.tick) < 1200);
    }

    /// Whether no opaque block stands between `from` and `to`.
    fn line_of_sight(&self, w: &World, from: [f64; 3], to: [f64; 3]) -> bool {
        let d = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
        let len = libm::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if len < 1e-9 {
            return true;
        }
        let goal = [floor(to[0]), floor(to[1]), floor(to[2])];
        let mut clear = true;
        walk(from, [d[0] / len, d[1] / len, d[2] / len], len, |c| {
            if c == goal {
                return false;
            }
            let v = w.terrain.get(c[0], c[1], c[2]);
            if v == UNLOADED || opaque(v) {
                clear = false;
                return false;
            }
            true
        });
        clear
    }

    /// Look straight at cell `c` (a ray from the eye to its centre): what
    /// it holds is remembered if nothing opaque stands in between.
    pub fn verify(&mut self, w: &World, c: Cell) {
        if self.all_seeing() {
            return;
        }
        let e = w.eye();
        let p = [c[0] as f64 + 0.5, c[1] as f64 + 0.5, c[2] as f64 + 0.5];
        if self.line_of_sight(w, e, p) {
            let v = w.terrain.get(c[0], c[1], c[2]);
            if v == UNLOADED {
                return;
            }
            if v == b::AIR || v == b::WATER || v == b::LAVA {
                self.forget(c);
            } else {
                self.remember(c, v);
            }
        }
    }

    /// The block at `c` as the expert knows it (`None`: never seen, or
    /// seen empty).
    pub fn block(&self, w: &World, c: Cell) -> Option<BlockId> {
        if self.all_seeing() {
            let v = w.terrain.get(c[0], c[1], c[2]);
            return (v != UNLOADED && v != b::AIR).then_some(v);
        }
        self.blocks.get(&c).copied()
    }

    /// The nearest known block of `kinds` (horizontal distance² plus 3×
    /// height gap²), skipping `skip` and blocks next to lava or under water
    /// (as far as known).
    pub fn nearest(&self, w: &World, kinds: &[BlockId], skip: &BTreeSet<Cell>) -> Option<Cell> {
        if self.all_seeing() {
            return crate::skills::nearest_loaded(w, kinds, skip);
        }
        let f = crate::skills::motor::feet(w);
        let mut best: Option<(i64, Cell)> = None;
        for k in kinds {
            for &c in self.by_kind.get(k).into_iter().flatten() {
                let (dx, dy, dz) = (
                    (c[0] - f[0]) as i64,
                    (c[1] - f[1]) as i64,
                    (c[2] - f[2]) as i64,
                );
                let cost = dx * dx + dz * dz + 3 * dy * dy;
                if best.is_some_and(|b| (cost, c) >= b) || skip.contains(&c) {
                    continue;
                }
                let risky = [[0, 1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]]
                    .iter()
                    .any(|n| {
                        let v = self.blocks.get(&[c[0] + n[0], c[1] + n[1], c[2] + n[2]]);
                        v.is_some_and(|&v| v == b::LAVA || v == b::WATER)
                    });
                if !risky {
                    best = Some((cost, c));
                }
            }
        }
        best.map(|(_, c)| c)
    }

    /// Mobs the expert knows of: (id, kind, position), each seen within the
    /// last minute at the position it was last seen (all mobs where they are
    /// for the all-seeing expert).
    pub fn mobs(&self, w: &World) -> Vec<(u32, MobKind, [f64; 3])> {
        if self.all_seeing() {
            return w.mobs.iter().map(|m| (m.id, m.kind, m.body.pos)).collect();
        }
        self.mobs
            .iter()
            .map(|(&id, m)| {
                // A mob in view now is where it is; one out of view where it
                // was last seen.
                let pos = w
                    .mobs
                    .iter()
                    .find(|x| x.id == id && m.tick == w.tick)
                    .map_or(m.pos, |x| x.body.pos);
                (id, m.kind, pos)
            })
            .collect()
    }

    /// Forget mob `id` (it was not where last seen).
    pub fn forget_mob(&mut self, id: u32) {
        self.mobs.remove(&id);
    }
}
