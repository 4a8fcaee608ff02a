//! Building the worlds items are asked about, and reading what a frame
//! shows from the renderer's pick buffer ([`gw_world::render::pick`]): the
//! pixels of a mob or block are exactly those its rays reach, so boxes and
//! "visible" facts account for occlusion by terrain, other mobs and the HUD.

use gw_core::Rng;
use gw_world::render::{Pick, pick, render_rgb};
use gw_world::world::MobKind;
use gw_world::{BlockId, World, WorldConfig, data};
use std::collections::BTreeMap;

/// Frame size of an eval set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub w: usize,
    pub h: usize,
}

impl View {
    /// Optimus-3 samples frames at 640×360.
    pub const DEFAULT: View = View { w: 640, h: 360 };

    /// `WxH`, each side 32..=1920.
    pub fn parse(s: &str) -> Result<View, String> {
        let bad = || {
            format!(
                "--resolution must be WIDTHxHEIGHT (e.g. 640x360), each 32 to 1920; got \"{s}\""
            )
        };
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let (w, h): (usize, usize) = (
            w.trim().parse().map_err(|_| bad())?,
            h.trim().parse().map_err(|_| bad())?,
        );
        if !(32..=1920).contains(&w) || !(32..=1920).contains(&h) {
            return Err(bad());
        }
        Ok(View { w, h })
    }

    /// The fewest pixels a thing must show to count as visible: 0.05 % of
    /// the frame, at least 6.
    pub fn min_visible(&self) -> usize {
        (self.w * self.h / 2000).max(6)
    }
}

/// Ticks into the day: by day 1000..11000, by night 14000..21000.
pub fn time_of_day(rng: &mut Rng, night: bool) -> u32 {
    if night {
        rng.range_i32(14_000, 21_000) as u32
    } else {
        rng.range_i32(1_000, 11_000) as u32
    }
}

/// A fresh world for one item: the seed's terrain, spawned on dry land near
/// the origin, passive herds, no zombie spawns (items add their own).
pub fn world(seed: u64, start_time: u32, kit: &[(String, u32)]) -> World {
    World::new(WorldConfig {
        seed,
        spawn: None,
        start_time,
        hostile_mobs: false,
        start_inventory: kit.to_vec(),
        ..Default::default()
    })
}

/// Turn the player's view to look at `p`, then by `(dyaw, dpitch)` degrees.
pub fn aim(w: &mut World, p: [f64; 3], dyaw: f64, dpitch: f64) {
    let e = w.eye();
    let d = [p[0] - e[0], p[1] - e[1], p[2] - e[2]];
    let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt().max(1e-9);
    let yaw = libm::atan2(-d[0], d[2]).to_degrees();
    let pitch = libm::asin(-d[1] / len).to_degrees();
    w.player.yaw = (yaw + dyaw).rem_euclid(360.0);
    w.player.pitch = (pitch + dpitch).clamp(-89.0, 89.0);
}

/// A dry surface spot (feet position) between `near` and `far` blocks from
/// the player in a random direction, within loaded terrain: solid ground
/// that is no water, leaves or log, with two blocks of air above.
pub fn spot_around(w: &World, rng: &mut Rng, near: f64, far: f64) -> Option<[f64; 3]> {
    let p = w.player.body.pos;
    let d = data();
    for _ in 0..32 {
        let a = rng.range_f64(0.0, std::f64::consts::TAU);
        let r = rng.range_f64(near, far);
        let x = libm::floor(p[0] + libm::cos(a) * r) as i32;
        let z = libm::floor(p[2] + libm::sin(a) * r) as i32;
        let Some(y) = w.terrain.surface_y(x, z) else {
            continue;
        };
        let g = w.terrain.get(x, y, z);
        let name = &d.block(g).name;
        let dry = d.block(g).solid
            && !name.ends_with("_leaves")
            && !name.ends_with("_log")
            && name != "water"
            && name != "lava"
            && w.terrain.get(x, y + 1, z) == gw_world::data::b::AIR
            && w.terrain.get(x, y + 2, z) == gw_world::data::b::AIR;
        if dry {
            return Some([x as f64 + 0.5, y as f64 + 1.0, z as f64 + 0.5]);
        }
    }
    None
}

/// Spawn a mob at a spot around the player; its id.
pub fn spawn_around(
    w: &mut World,
    rng: &mut Rng,
    kind: MobKind,
    near: f64,
    far: f64,
) -> Option<u32> {
    let s = spot_around(w, rng, near, far)?;
    Some(w.spawn_mob(kind, s))
}

/// The centre of a mob's box.
pub fn mob_centre(w: &World, id: u32) -> Option<[f64; 3]> {
    w.mobs.iter().find(|m| m.id == id).map(|m| {
        let p = m.body.pos;
        [p[0], p[1] + m.body.height / 2.0, p[2]]
    })
}

/// What one frame shows.
pub struct Seen {
    pub view: View,
    pub picks: Vec<Pick>,
}

/// Pixel count and bounds `[x1, y1, x2, y2]` (x2, y2 exclusive) of the
/// pixels matching a predicate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    pub pixels: usize,
    pub bbox: [u32; 4],
}

impl Seen {
    pub fn of(w: &World, view: View) -> Seen {
        Seen {
            view,
            picks: pick(w, view.w, view.h, true),
        }
    }

    /// The region of pixels whose pick satisfies `f`.
    pub fn region(&self, f: impl Fn(&Pick) -> bool) -> Option<Region> {
        let mut r: Option<Region> = None;
        for (i, p) in self.picks.iter().enumerate() {
            if !f(p) {
                continue;
            }
            let (x, y) = ((i % self.view.w) as u32, (i / self.view.w) as u32);
            let g = r.get_or_insert(Region {
                pixels: 0,
                bbox: [x, y, x + 1, y + 1],
            });
            g.pixels += 1;
            g.bbox = [
                g.bbox[0].min(x),
                g.bbox[1].min(y),
                g.bbox[2].max(x + 1),
                g.bbox[3].max(y + 1),
            ];
        }
        r
    }

    /// Visible pixel counts per mob id.
    pub fn mob_pixels(&self) -> BTreeMap<u32, usize> {
        let mut m = BTreeMap::new();
        for p in &self.picks {
            if let Pick::Mob(id) = p {
                *m.entry(*id).or_insert(0) += 1;
            }
        }
        m
    }

    /// Mobs showing at least [`View::min_visible`] pixels: (id, kind, pixels).
    pub fn visible_mobs(&self, w: &World) -> Vec<(u32, MobKind, usize)> {
        let min = self.view.min_visible();
        self.mob_pixels()
            .into_iter()
            .filter(|(_, n)| *n >= min)
            .filter_map(|(id, n)| w.mobs.iter().find(|m| m.id == id).map(|m| (id, m.kind, n)))
            .collect()
    }

    /// Mobs showing any pixel at all.
    pub fn any_pixel_mobs(&self, w: &World) -> Vec<MobKind> {
        self.mob_pixels()
            .keys()
            .filter_map(|id| w.mobs.iter().find(|m| m.id == *id).map(|m| m.kind))
            .collect()
    }

    /// Pixels showing the sky.
    pub fn sky_pixels(&self) -> usize {
        self.picks.iter().filter(|p| **p == Pick::Sky).count()
    }

    /// Pixels per block kind.
    pub fn block_pixels(&self, block: BlockId) -> usize {
        self.picks
            .iter()
            .filter(|p| matches!(p, Pick::Block { id, .. } if *id == block))
            .count()
    }
}

/// The frame as PNG bytes.
pub fn frame_png(w: &World, view: View) -> Vec<u8> {
    png_of(&frame_rgb(w, view), view)
}

/// The frame as RGB bytes.
pub fn frame_rgb(w: &World, view: View) -> Vec<u8> {
    render_rgb(w, view.w, view.h, true)
}

/// RGB bytes of a frame as PNG bytes.
pub fn png_of(rgb: &[u8], view: View) -> Vec<u8> {
    gw_core::frame::encode_png(rgb, view.w as u32, view.h as u32)
}

/// How far apart (in some channel, 0–255) two colours must be for a pixel
/// to count as looking different.
pub const DIFF_LEVEL: u8 = 24;

/// Pixels where two RGB frames of one size look different (some channel
/// apart by at least [`DIFF_LEVEL`]).
pub fn changed_pixels(a: &[u8], b: &[u8]) -> usize {
    a.chunks_exact(3)
        .zip(b.chunks_exact(3))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) >= DIFF_LEVEL)
        })
        .count()
}

/// The fewest changed pixels that tell two hotbar icons apart.
pub const HUD_MIN_CHANGE: usize = 4;

/// Whether the frame tells the item in hotbar `slot` apart from each of
/// `others`: the frame `base` (of `w` at `view`) changes visibly when that
/// slot holds any of them instead, with the same count. Read from the
/// pixels, so it holds for whatever icons the renderer draws.
pub fn slot_item_distinct(
    w: &World,
    view: View,
    base: &[u8],
    slot: usize,
    others: &[gw_world::ItemId],
) -> bool {
    let Some(st) = w.player.inventory.slots[slot] else {
        return false;
    };
    others.iter().filter(|o| **o != st.item).all(|o| {
        let mut v = w.clone();
        if let Some(s) = v.player.inventory.slots[slot].as_mut() {
            s.item = *o;
            s.wear = 0;
        }
        changed_pixels(base, &frame_rgb(&v, view)) >= HUD_MIN_CHANGE
    })
}

/// Whether the frame shows the count of the stack in hotbar `slot`: the
/// frame changes visibly when the count does (digits next to each other
/// may differ in a single pixel of their glyphs, so one pixel is enough).
pub fn slot_count_shows(w: &World, view: View, base: &[u8], slot: usize) -> bool {
    let mut v = w.clone();
    let Some(s) = v.player.inventory.slots[slot].as_mut() else {
        return false;
    };
    s.count = if s.count < 64 {
        s.count + 1
    } else {
        s.count - 1
    };
    changed_pixels(base, &frame_rgb(&v, view)) >= 1
}

/// The other items in the hotbar (slots 0..9) than the one in `slot`.
pub fn other_hotbar_items(w: &World, slot: usize) -> Vec<gw_world::ItemId> {
    let mut out: Vec<gw_world::ItemId> = w.player.inventory.slots[..9]
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != slot)
        .filter_map(|(_, s)| s.map(|s| s.item))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether mob `id` looks like its own kind and none of `kinds`: the frame
/// `base` changes visibly (in at least half [`View::min_visible`] pixels)
/// when the mob is made each of them instead, with that kind's size.
pub fn mob_kind_distinct(w: &World, view: View, base: &[u8], id: u32, kinds: &[MobKind]) -> bool {
    let Some(own) = w.mobs.iter().find(|m| m.id == id).map(|m| m.kind) else {
        return false;
    };
    let need = (view.min_visible() / 2).max(HUD_MIN_CHANGE);
    kinds.iter().filter(|k| **k != own).all(|k| {
        let mut v = w.clone();
        if let Some(m) = v.mobs.iter_mut().find(|m| m.id == id) {
            let (width, height, _) = k.size();
            m.kind = *k;
            m.body.width = width;
            m.body.height = height;
        }
        changed_pixels(base, &frame_rgb(&v, view)) >= need
    })
}

/// A few items for the hotbar: up to `n` distinct items with counts.
pub fn random_kit(rng: &mut Rng, n: usize) -> Vec<(String, u32)> {
    const POOL: [(&str, u32); 14] = [
        ("oak_log", 16),
        ("oak_planks", 32),
        ("stick", 16),
        ("cobblestone", 40),
        ("coal", 12),
        ("iron_ingot", 8),
        ("wooden_pickaxe", 1),
        ("stone_pickaxe", 1),
        ("iron_pickaxe", 1),
        ("stone_axe", 1),
        ("torch", 20),
        ("dirt", 30),
        ("wheat_seeds", 10),
        ("crafting_table", 1),
    ];
    let mut pool: Vec<(&str, u32)> = POOL
        .iter()
        .copied()
        .filter(|(name, _)| data().item_id(name).is_some())
        .collect();
    rng.shuffle(&mut pool);
    pool.into_iter()
        .take(n)
        .map(|(name, max)| {
            (
                name.to_string(),
                if max == 1 { 1 } else { 1 + rng.below(max) },
            )
        })
        .collect()
}
