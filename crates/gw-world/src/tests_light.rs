//! Light, mob kinds and their spawn rules, the new mobs' attacks.

use crate::data::{b, data};
use crate::terrain::Biome;
use crate::world::{MobKind, World, WorldConfig};

/// A world at noon that stays at noon, with no mobs.
fn noon(seed: u64) -> World {
    World::new(WorldConfig {
        seed,
        start_time: 6000,
        day_cycle: false,
        passive_mobs: false,
        hostile_mobs: false,
        ..Default::default()
    })
}

/// The cells of a hollow stone box: interior `lo..=hi`, shell one cell
/// around it.
fn shell(lo: [i32; 3], hi: [i32; 3]) -> Vec<[i32; 3]> {
    let mut v = Vec::new();
    for x in lo[0] - 1..=hi[0] + 1 {
        for y in lo[1] - 1..=hi[1] + 1 {
            for z in lo[2] - 1..=hi[2] + 1 {
                let inside = (lo[0]..=hi[0]).contains(&x)
                    && (lo[1]..=hi[1]).contains(&y)
                    && (lo[2]..=hi[2]).contains(&z);
                if !inside {
                    v.push([x, y, z]);
                }
            }
        }
    }
    v
}

/// Incremental light equals light computed afresh over the same blocks.
fn assert_light_is_fresh(w: &World, what: &str) {
    let fresh = w.terrain.relit();
    let mut n = 0;
    for c in w.terrain.loaded() {
        let f = fresh.chunk(c.cx, c.cz).expect("same chunks");
        for (i, (a, b)) in c.light.iter().zip(f.light.iter()).enumerate() {
            assert_eq!(
                a, b,
                "{what}: chunk ({}, {}) cell {i}: incremental {a:#04x}, fresh {b:#04x}",
                c.cx, c.cz
            );
            n += 1;
        }
    }
    assert!(n > 100_000);
}

/// A room sealed in stone is dark at noon (no sky light, no block light),
/// though the air around it is in full sunlight; the incremental updates
/// that closed it agree with lighting the world afresh.
#[test]
fn a_sealed_room_is_dark_at_noon() {
    let mut w = noon(3);
    let p = w.player.body.pos;
    let (x, z) = (p[0] as i32, p[2] as i32);
    let (lo, hi) = ([x - 2, 110, z - 2], [x + 2, 114, z + 2]);
    assert_eq!(w.terrain.light(x, 112, z), (15, 0), "open sky before");
    for c in shell(lo, hi) {
        assert!(w.terrain.set(c[0], c[1], c[2], b::STONE));
    }
    for x in lo[0]..=hi[0] {
        for y in lo[1]..=hi[1] {
            for z in lo[2]..=hi[2] {
                assert_eq!(w.terrain.light(x, y, z), (0, 0), "inside at {x} {y} {z}");
                assert_eq!(w.light_level([x, y, z]), 0);
            }
        }
    }
    // Right outside the walls: daylight.
    assert_eq!(w.terrain.light(hi[0] + 2, 112, z).0, 15);
    assert_light_is_fresh(&w, "after sealing");
}

/// A torch gives 14 minus the walking distance through air, in the dark
/// and within reach of its light; taking it away darkens the room again.
#[test]
fn a_torch_gives_fourteen_minus_distance() {
    let mut w = noon(4);
    let p = w.player.body.pos;
    let (x, z) = (p[0] as i32, p[2] as i32);
    let (lo, hi) = ([x - 6, 104, z - 6], [x + 6, 116, z + 6]);
    for c in shell(lo, hi) {
        w.terrain.set(c[0], c[1], c[2], b::STONE);
    }
    let t = [x, 110, z];
    w.terrain.set(t[0], t[1], t[2], b::TORCH);
    for xx in lo[0]..=hi[0] {
        for y in lo[1]..=hi[1] {
            for zz in lo[2]..=hi[2] {
                let dist = (xx - t[0]).abs() + (y - t[1]).abs() + (zz - t[2]).abs();
                let want = (14 - dist).max(0) as u8;
                assert_eq!(w.terrain.light(xx, y, zz), (0, want), "at distance {dist}");
            }
        }
    }
    assert_light_is_fresh(&w, "torch lit");
    w.terrain.set(t[0], t[1], t[2], b::AIR);
    assert_eq!(w.terrain.light(x + 1, 110, z), (0, 0));
    assert_light_is_fresh(&w, "torch gone");
}

/// Breaking a wall lets daylight in: the opening gets 14 from the sky
/// beside it and the room fills one level less per step; breaking the roof
/// lets full sunlight fall straight down.
/// The renderer builds its per-frame brightness table from the curve of
/// sky light and block light alone: exact only because the curve rises.
#[test]
fn a_pairs_brightness_is_the_greater_of_its_two_lights_alone() {
    use crate::light::brightness;
    for step in 0..=64 {
        let daylight = step as f32 / 64.0;
        for sky in 0..16u8 {
            for block in 0..16u8 {
                let alone = brightness(sky, 0, daylight).max(brightness(0, block, daylight));
                assert_eq!(
                    brightness(sky, block, daylight).to_bits(),
                    alone.to_bits(),
                    "sky {sky} block {block} daylight {daylight}"
                );
            }
        }
    }
}

#[test]
fn breaking_a_wall_lets_light_in() {
    let mut w = noon(5);
    let p = w.player.body.pos;
    let (x, z) = (p[0] as i32, p[2] as i32);
    let (lo, hi) = ([x - 3, 108, z - 3], [x + 3, 112, z + 3]);
    for c in shell(lo, hi) {
        w.terrain.set(c[0], c[1], c[2], b::STONE);
    }
    assert_eq!(w.terrain.light(x, 110, z), (0, 0));
    // The wall on +x at the room's middle height.
    let hole = [hi[0] + 1, 110, z];
    w.terrain.set(hole[0], hole[1], hole[2], b::AIR);
    assert_eq!(w.terrain.light(hole[0], 110, z).0, 14);
    assert_eq!(w.terrain.light(hi[0], 110, z).0, 13);
    assert_eq!(w.terrain.light(hi[0] - 3, 110, z).0, 10);
    assert!(w.light_level([x, 110, z]) > 0);
    assert_light_is_fresh(&w, "wall broken");
    // The roof above the middle: 15 all the way down to the floor.
    w.terrain.set(x, hi[1] + 1, z, b::AIR);
    for y in lo[1]..=hi[1] {
        assert_eq!(w.terrain.light(x, y, z).0, 15, "under the hole at {y}");
    }
    assert_light_is_fresh(&w, "roof broken");
    // Closing the roof again takes the shaft's light away.
    w.terrain.set(x, hi[1] + 1, z, b::STONE);
    assert!(w.terrain.light(x, lo[1], z).0 < 15);
    assert_light_is_fresh(&w, "roof mended");
}

/// Random edits of every kind of block (opaque, leaves, water, glass,
/// torches, lava) near the player keep the light equal to a fresh lighting.
#[test]
fn incremental_light_matches_fresh_light_after_random_edits() {
    let mut w = noon(8);
    let p = w.player.body.pos;
    let (x, y, z) = (p[0] as i32, p[1] as i32, p[2] as i32);
    let mut rng = gw_core::Rng::new(8, 3);
    let kinds = [
        b::AIR,
        b::AIR,
        b::STONE,
        b::DIRT,
        b::OAK_LEAVES,
        b::WATER,
        data().block_id("glass").expect("glass"),
        b::TORCH,
        b::LAVA,
    ];
    for i in 0..400 {
        let c = [
            x + rng.range_i32(-8, 9),
            y + rng.range_i32(-8, 9),
            z + rng.range_i32(-8, 9),
        ];
        let v = kinds[rng.index(kinds.len())];
        w.terrain.set(c[0], c[1], c[2], v);
        if i % 100 == 99 {
            assert_light_is_fresh(&w, &format!("after {} edits", i + 1));
        }
    }
}

/// Faces are lit by the light in front of them: a cave wall at noon is
/// drawn far darker than the same stone in the sun, and a torch brightens
/// it (the pixels the view shows, through the renderer).
#[test]
fn cave_walls_are_dark_at_noon_and_torches_light_them() {
    let mut w = noon(3);
    let p = w.player.body.pos;
    let (x, z) = (p[0] as i32, p[2] as i32);
    // A closed stone room high up with the player inside, looking at a
    // wall.
    let (lo, hi) = ([x - 3, 108, z - 3], [x + 3, 112, z + 3]);
    for c in shell(lo, hi) {
        w.terrain.set(c[0], c[1], c[2], b::STONE);
    }
    w.player.body.pos = [x as f64 + 0.5, 108.0, z as f64 + 0.5];
    w.player.yaw = 0.0;
    w.player.pitch = 0.0;
    let mean = |w: &World| {
        let rgb = crate::render::render_rgb(w, 64, 64, false);
        // The wall ahead, above and left of the crosshair, away from the
        // HUD.
        let mut s = 0u64;
        for yy in 14..30 {
            for xx in 14..30 {
                let i = (yy * 64 + xx) * 3;
                s += rgb[i] as u64 + rgb[i + 1] as u64 + rgb[i + 2] as u64;
            }
        }
        s / (16 * 16 * 3)
    };
    let dark = mean(&w);
    w.terrain.set(x, 108, z + 2, b::TORCH);
    let torch = mean(&w);
    w.terrain.set(x, 108, z + 2, b::AIR);
    // Take the roof off: the sun comes in.
    for c in shell(lo, hi).into_iter().filter(|c| c[1] == hi[1] + 1) {
        w.terrain.set(c[0], c[1], c[2], b::AIR);
    }
    let sunny = mean(&w);
    assert!(dark < 20, "a sealed room at noon is dark ({dark})");
    assert!(
        torch > dark * 3 + 20,
        "a torch lights it ({dark} → {torch})"
    );
    assert!(
        sunny > dark * 3 + 20,
        "sunlight lights it ({dark} → {sunny})"
    );
}

/// Hostile mobs spawn only where it is dark (no block light, light level
/// at most 7): in a sealed room at noon and on the surface at night, not
/// on the surface at noon nor next to a torch. Passive mobs need light.
#[test]
fn mob_spawning_reads_the_light_level() {
    let mut w = noon(3);
    let p = w.player.body.pos;
    let (x, z) = (p[0] as i32, p[2] as i32);
    let surface = w.terrain.surface_y(x + 5, z).expect("loaded") + 1;
    let open = [x + 5, surface, z];
    assert!(!w.hostile_can_spawn(open), "not in the noon sun");
    let (lo, hi) = ([x - 2, 110, z - 2], [x + 2, 112, z + 2]);
    for c in shell(lo, hi) {
        w.terrain.set(c[0], c[1], c[2], b::STONE);
    }
    let floor = [x, 110, z];
    assert!(w.hostile_can_spawn(floor), "in the dark room");
    w.terrain.set(x + 2, 110, z + 2, b::TORCH);
    assert!(!w.hostile_can_spawn(floor), "not in torch light");
    let mut night = w.clone();
    night.config.start_time = 18_000;
    assert!(night.is_night());
    if data()
        .block(night.terrain.get(open[0], open[1] - 1, open[2]))
        .solid
    {
        assert!(night.hostile_can_spawn(open), "on the surface at night");
    }
    // Passive: on grass in daylight, not on grass in the dark.
    let g = [x, 120, z];
    w.terrain.set(g[0], g[1] - 1, g[2], b::GRASS_BLOCK);
    let biome = w.terrain.biome(g[0], g[2]);
    let kind = MobKind::PASSIVE
        .into_iter()
        .find(|k| k.biomes().contains(&biome) && *k != MobKind::Rabbit);
    if let Some(kind) = kind {
        assert!(
            w.passive_can_spawn(kind, g),
            "{kind:?} on lit grass in {biome:?}"
        );
        for c in shell([g[0], g[1], g[2]], [g[0], g[1] + 1, g[2]]) {
            if c[1] >= g[1] {
                w.terrain.set(c[0], c[1], c[2], b::STONE);
            }
        }
        assert!(!w.passive_can_spawn(kind, g), "not in the dark");
    }
}

/// Over many seeds every passive kind spawns, each only on its ground in
/// a biome it lives in (horses on the plains, wolves in forest and taiga,
/// rabbits in desert, plains and taiga), where the light is at least 9.
#[test]
fn passive_mobs_spawn_in_their_biomes() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        let w = World::new(WorldConfig {
            seed,
            hostile_mobs: false,
            ..Default::default()
        });
        for m in &w.mobs {
            let c = m.body.pos.map(|v| libm::floor(v) as i32);
            let biome = w.terrain.biome(c[0], c[2]);
            assert!(
                m.kind.biomes().contains(&biome),
                "seed {seed}: a {} in {biome:?}",
                m.kind.name()
            );
            assert!(!m.kind.hostile());
            assert!(
                w.light_level(c) >= 9,
                "seed {seed}: {} in the dark",
                m.kind.name()
            );
            seen.insert(m.kind);
        }
    }
    for k in MobKind::PASSIVE {
        assert!(seen.contains(&k), "no {} in 40 worlds", k.name());
    }
    assert_eq!(MobKind::Horse.biomes(), &[Biome::Plains]);
}

/// Hostile mobs of every kind spawn at night on the surface, each where
/// the spawn rule allows; none on the surface by day.
#[test]
fn hostile_mobs_of_every_kind_spawn_in_the_dark() {
    let mut seen = std::collections::BTreeSet::new();
    let mut day_surface = 0;
    for seed in 0..6u64 {
        for start in [18_000u32, 6_000] {
            let mut w = World::new(WorldConfig {
                seed,
                start_time: start,
                day_cycle: false,
                passive_mobs: false,
                ..Default::default()
            });
            for i in 0..60u64 {
                w.tick = i * 40;
                let before = w.mobs.len();
                w.spawn_hostile();
                if let Some(m) = w.mobs.get(before) {
                    let c = m.body.pos.map(|v| libm::floor(v) as i32);
                    assert!(m.kind.hostile());
                    assert!(w.light_level(c) <= 7, "{} spawned in light", m.kind.name());
                    assert_eq!(w.terrain.light(c[0], c[1], c[2]).1, 0);
                    if start == 6_000 && w.terrain.light(c[0], c[1], c[2]).0 == 15 {
                        day_surface += 1;
                    }
                    seen.insert(m.kind);
                }
                w.mobs.clear();
            }
        }
    }
    for k in MobKind::HOSTILE {
        assert!(seen.contains(&k), "no {}", k.name());
    }
    assert_eq!(day_surface, 0, "no hostile spawns under the noon sky");
}

/// A skeleton shoots the player it can see from afar, and a wall stops
/// its shots; a creeper next to the player explodes after its fuse,
/// hurting the player and breaking blocks.
#[test]
fn skeletons_shoot_and_creepers_explode() {
    let mut w = noon(3);
    let p = w.player.body.pos;
    let id = w.spawn_mob(MobKind::Skeleton, [p[0] + 8.0, p[1] + 30.0, p[2]]);
    // Both in the air, high up, facing each other across open sky.
    w.player.body.pos = [p[0], p[1] + 30.0, p[2]];
    let mut hurt = false;
    for _ in 0..60 {
        w.player.body.pos[1] = p[1] + 30.0;
        w.player.body.vel = [0.0; 3];
        if let Some(m) = w.mobs.iter_mut().find(|m| m.id == id) {
            m.body.pos = [p[0] + 8.0, p[1] + 30.0, p[2]];
            m.body.vel = [0.0; 3];
        }
        w.step(&crate::Action::default());
        hurt |= w
            .events
            .iter()
            .any(|e| matches!(e, crate::world::Event::Hurt { cause, .. } if cause == "skeleton"));
    }
    assert!(hurt, "the skeleton shot the player");
    assert!(crate::world::line_of_sight(
        &w.terrain,
        [p[0] + 8.0, p[1] + 31.6, p[2]],
        [p[0], p[1] + 31.6, p[2]]
    ));
    // A stone wall between them: no line of sight.
    let (wx, wy, wz) = ((p[0] + 4.0) as i32, (p[1] + 31.6) as i32, p[2] as i32);
    w.terrain.set(wx, wy, wz, b::STONE);
    assert!(!crate::world::line_of_sight(
        &w.terrain,
        [p[0] + 8.0, p[1] + 31.6, p[2] + 0.0],
        [p[0], p[1] + 31.6, p[2] + 0.0]
    ));

    // The creeper: on the ground next to the player, in a clearing (the
    // spawn rule starts the player beside trees, which could stand between).
    let mut w = noon(3);
    let p = w.player.body.pos;
    let (fx, fy, fz) = (p[0] as i32, libm::floor(p[1] + 0.01) as i32, p[2] as i32);
    for x in fx - 4..=fx + 4 {
        for z in fz - 4..=fz + 4 {
            w.terrain.set(x, fy - 1, z, b::DIRT);
            for y in fy..fy + 6 {
                w.terrain.set(x, y, z, b::AIR);
            }
        }
    }
    let cid = w.spawn_mob(MobKind::Creeper, [p[0] + 1.5, p[1], p[2]]);
    let ground = [p[0] as i32 + 1, p[1] as i32 - 1, p[2] as i32];
    let before = w.terrain.get(ground[0], ground[1], ground[2]);
    let health = w.player.health;
    let mut boom = false;
    for _ in 0..40 {
        w.step(&crate::Action::default());
        if !w.mobs.iter().any(|m| m.id == cid) {
            boom = true;
            break;
        }
    }
    assert!(boom, "the creeper exploded");
    assert!(
        w.player.health < health - 5.0,
        "the blast hurt ({})",
        w.player.health
    );
    assert_ne!(before, b::AIR);
    assert_eq!(
        w.terrain.get(ground[0], ground[1], ground[2]),
        b::AIR,
        "the blast broke the ground"
    );
}

#[test]
fn every_kill_drops_its_kinds_loot_and_only_that() {
    use crate::world::MobKind;
    let d = crate::data::data();
    for kind in MobKind::ALL {
        let mut w = noon(5);
        let mut got: std::collections::BTreeMap<String, u32> = Default::default();
        for _ in 0..40 {
            let p = w.player.body.pos;
            w.spawn_mob(kind, [p[0] + 1.5, p[1], p[2]]);
            let i = w.mobs.len() - 1;
            w.mobs[i].health = 0.5;
            w.items.clear();
            w.attack_mob(i);
            assert!(w.mobs.len() == i, "one hit kills a {}", kind.name());
            for it in &w.items {
                *got.entry(d.item_def(it.item).name.clone()).or_default() += it.count;
            }
        }
        let expected: Vec<&str> = kind.loot().collect();
        for (name, n) in &got {
            assert!(
                expected.contains(&name.as_str()),
                "{} dropped {name}",
                kind.name()
            );
            let (_, least, extra) = kind.drops().iter().find(|d| d.0 == name).unwrap();
            assert!(
                *n >= least * 40 && *n <= (least + extra) * 40,
                "{} × {name}: {n}",
                kind.name()
            );
        }
        // Over 40 kills every listed item turns up at least once.
        for name in expected {
            assert!(
                got.contains_key(name),
                "40 {}s never dropped {name}",
                kind.name()
            );
        }
    }
    // The hostile drops are items with icons of their own.
    for name in ["bone", "arrow", "string", "spider_eye", "gunpowder"] {
        assert!(d.item_id(name).is_some(), "{name} is an item");
    }
}
