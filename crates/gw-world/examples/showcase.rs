//! Pictures of the open world for the docs: a forest by day, a cave lit by
//! torches, a night with mobs, the inventory screen, every mob kind in a
//! row and every item's icon.
//!
//! `cargo run --release -p gw-world --example showcase -- OUT_DIR [W H]`
//! writes `world-forest.png`, `world-cave.png`, `world-night.png`,
//! `world-inventory.png`, `world-mobs.png` and `world-icons.png` (frames W ×
//! H, default 480 × 270).

use gw_world::data::{b, data};
use gw_world::render::icons::{ICON, icon};
use gw_world::terrain::Biome;
use gw_world::world::{MobKind, find_spawn_where};
use gw_world::{World, WorldConfig};

fn frame(w: &World, wd: usize, ht: usize) -> Vec<u8> {
    let mut rgba = vec![0u8; wd * ht * 4];
    gw_world::render::render_rgba(w, wd, ht, &mut rgba, true);
    rgba.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect()
}

fn save(dir: &str, name: &str, rgb: &[u8], wd: usize, ht: usize) {
    let png = gw_core::frame::encode_png(rgb, wd as u32, ht as u32);
    std::fs::write(format!("{dir}/{name}"), png).expect("write png");
    println!("{dir}/{name}");
}

/// A world whose player stands in `biome`, at `time`.
fn world_in(seed: u64, biome: Biome, time: u32, inventory: &[(&str, u32)]) -> World {
    let mut t = gw_world::terrain::Terrain::new(seed);
    let spawn = find_spawn_where(&mut t, 0, 0, 200, |t, p| t.biome(p[0], p[2]) == biome);
    World::new(WorldConfig {
        seed,
        spawn,
        start_time: time,
        day_cycle: false,
        hostile_mobs: false,
        start_inventory: inventory.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
        ..Default::default()
    })
}

/// Place a mob `ahead` blocks in front of the player and `side` to its
/// right, standing on the ground there, facing `yaw`, mid-stride.
fn put(w: &mut World, kind: MobKind, ahead: f64, side: f64, yaw: f64) {
    let e = w.eye();
    let y = w.player.yaw.to_radians();
    let (f, r) = ([-y.sin(), y.cos()], [-y.cos(), -y.sin()]);
    let x = e[0] + f[0] * ahead + r[0] * side;
    let z = e[2] + f[1] * ahead + r[1] * side;
    let (cx, cz) = (x.floor() as i32, z.floor() as i32);
    let mut feet = e[1] - 1.62;
    for yy in (1..(e[1] as i32 + 6)).rev() {
        let below = w.terrain.get(cx, yy - 1, cz);
        if w.terrain.get(cx, yy, cz) == b::AIR && data().block(below).solid {
            feet = yy as f64;
            break;
        }
    }
    let id = w.spawn_mob(kind, [x, feet, z]);
    let m = w.mobs.iter_mut().find(|m| m.id == id).expect("spawned");
    m.yaw = yaw;
    m.body.vel = [0.03, 0.0, 0.03];
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().cloned().unwrap_or_else(|| ".".into());
    let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (wd, ht) = (num(1, 480), num(2, 270));

    // A forest by day, with the animals that live there.
    let mut w = world_in(4, Biome::Forest, 5000, &[("iron_axe", 1)]);
    w.player.yaw = 200.0;
    w.player.pitch = 5.0;
    w.mobs.clear();
    put(&mut w, MobKind::Wolf, 4.0, -1.5, 140.0);
    put(&mut w, MobKind::Cow, 6.0, 2.0, 250.0);
    put(&mut w, MobKind::Pig, 5.0, 0.5, 20.0);
    w.tick = 7;
    save(&dir, "world-forest.png", &frame(&w, wd, ht), wd, ht);

    // A cave at noon: a room dug into the stone, lit only by torches.
    let mut w = world_in(
        2,
        Biome::Plains,
        6000,
        &[("torch", 12), ("stone_pickaxe", 1)],
    );
    w.mobs.clear();
    let p = w.player.body.pos;
    let (x0, y0, z0) = (p[0] as i32, 30, p[2] as i32);
    for x in x0 - 5..=x0 + 5 {
        for y in y0..y0 + 5 {
            for z in z0 - 2..=z0 + 12 {
                let wall = x == x0 - 5 || x == x0 + 5 || y == y0 + 4 || z == z0 + 12;
                let v = if wall { b::STONE } else { b::AIR };
                w.terrain.set(x, y, z, v);
            }
            w.terrain.set(x, y0 - 1, z0 + 3, b::STONE);
        }
    }
    for (x, z, v) in [
        (x0 + 5, z0 + 6, b::IRON_ORE),
        (x0 - 5, z0 + 8, b::COAL_ORE),
        (x0 + 2, z0 + 12, b::DIAMOND_ORE),
    ] {
        w.terrain.set(x, y0 + 1, z, v);
    }
    for (x, z) in [(x0 + 4, z0 + 3), (x0 - 4, z0 + 9), (x0 + 1, z0 + 11)] {
        w.terrain.set(x, y0, z, b::TORCH);
    }
    w.player.body.pos = [x0 as f64 + 0.5, y0 as f64, z0 as f64 + 0.5];
    w.player.yaw = 0.0;
    w.player.pitch = 8.0;
    w.player.selected = 1;
    put(&mut w, MobKind::Zombie, 7.0, -1.5, 190.0);
    put(&mut w, MobKind::Spider, 9.0, 2.0, 160.0);
    w.tick = 3;
    save(&dir, "world-cave.png", &frame(&w, wd, ht), wd, ht);

    // A night on the plains: hostile mobs about, torches by the player.
    let mut w = world_in(7, Biome::Plains, 18_000, &[("stone_sword", 1)]);
    w.mobs.clear();
    w.player.yaw = 30.0;
    w.player.pitch = 10.0;
    let e = w.eye();
    for (dx, dz) in [(2, 3), (-3, 4)] {
        let (x, z) = (e[0] as i32 + dx, e[2] as i32 + dz);
        if let Some(y) = w.terrain.surface_y(x, z) {
            w.terrain.set(x, y + 1, z, b::TORCH);
        }
    }
    put(&mut w, MobKind::Zombie, 5.0, -1.0, 200.0);
    put(&mut w, MobKind::Skeleton, 8.0, 2.5, 230.0);
    put(&mut w, MobKind::Creeper, 4.0, 1.6, 180.0);
    put(&mut w, MobKind::Spider, 7.0, -3.5, 160.0);
    put(&mut w, MobKind::Horse, 12.0, 5.0, 100.0);
    w.tick = 9;
    save(&dir, "world-night.png", &frame(&w, wd, ht), wd, ht);

    // The inventory screen.
    let items: Vec<(&str, u32)> = vec![
        ("iron_pickaxe", 1),
        ("stone_axe", 1),
        ("stone_pickaxe", 1),
        ("diamond_sword", 1),
        ("torch", 24),
        ("oak_log", 12),
        ("crafting_table", 1),
        ("cooked_beef", 5),
        ("bucket", 1),
        ("stick", 9),
        ("coal", 14),
        ("iron_ingot", 7),
        ("gold_nugget", 3),
        ("diamond", 2),
        ("redstone", 16),
        ("apple", 2),
        ("cobblestone", 40),
        ("glass", 6),
        ("shears", 1),
        ("iron_chestplate", 1),
        ("wheat_seeds", 4),
        ("feather", 3),
        ("leather", 2),
        ("compass", 1),
    ];
    let mut w = world_in(3, Biome::Plains, 5000, &items);
    w.player.inventory_open = true;
    save(&dir, "world-inventory.png", &frame(&w, wd, ht), wd, ht);

    // Every mob kind in a row, from the side, in daylight.
    let mut w = world_in(5, Biome::Plains, 6000, &[]);
    w.mobs.clear();
    let p = w.player.body.pos;
    w.player.body.pos = [p[0], 100.0, p[2]];
    let top = 99;
    for x in -16..=16 {
        for z in 0..=8 {
            w.terrain
                .set(p[0] as i32 + x, top, p[2] as i32 + z, b::GRASS_BLOCK);
        }
    }
    w.player.yaw = 0.0;
    w.player.pitch = 20.0;
    for (i, &k) in MobKind::ALL.iter().enumerate() {
        let side = (i as f64 - 5.0) * 1.25;
        let id = w.spawn_mob(
            k,
            [p[0] - side, top as f64 + 1.0, p[2] + 7.5 + (i % 2) as f64],
        );
        let m = w.mobs.iter_mut().find(|m| m.id == id).expect("spawned");
        m.yaw = 150.0;
        m.body.vel = [0.03, 0.0, 0.03];
    }
    w.tick = 5;
    save(&dir, "world-mobs.png", &frame(&w, wd, ht), wd, ht);

    // Every item's icon, 3× size, 16 to a row.
    let n = data().items.len();
    let (cols, s) = (16usize, 3usize);
    let cell = ICON * s + 4;
    let rows = n.div_ceil(cols);
    let (iw, ih) = (cols * cell, rows * cell);
    let mut rgb = vec![139u8; iw * ih * 3];
    for i in 0..n {
        let ic = icon(i as gw_world::ItemId);
        let (ox, oy) = ((i % cols) * cell + 2, (i / cols) * cell + 2);
        for y in 0..ICON * s {
            for x in 0..ICON * s {
                let p = ic[(y / s) * ICON + x / s];
                if p[3] != 0 {
                    let o = ((oy + y) * iw + ox + x) * 3;
                    rgb[o..o + 3].copy_from_slice(&p[..3]);
                }
            }
        }
    }
    save(&dir, "world-icons.png", &rgb, iw, ih);
}
