use crate::action::Action;
use crate::data::{b, data};
use crate::inventory::{self, CraftError, FurnaceFuel, Inventory, match_grid, mining};
use crate::render::render_rgb;
use crate::terrain::{Biome, Terrain, generate};
use crate::world::{THROWN_PICKUP_DELAY, World, WorldConfig};

fn inv(items: &[(&str, u32)]) -> Inventory {
    let mut i = Inventory::default();
    for (n, c) in items {
        assert_eq!(i.add(data().item(n), *c), 0);
    }
    i
}

fn count(i: &Inventory, n: &str) -> u32 {
    i.count(data().item(n))
}

#[test]
fn tables_validate_and_constants_match() {
    let d = data();
    for (id, name) in b::NAMED {
        assert_eq!(d.block_id(name), Some(*id), "block constant {name}");
    }
    // Every item the 67 long-horizon tasks target has a recipe or a source.
    let targets = [
        "activator_rail",
        "blast_furnace",
        "bowl",
        "bucket",
        "chain",
        "charcoal",
        "chest",
        "compass",
        "crafting_table",
        "diamond",
        "diamond_axe",
        "diamond_boots",
        "diamond_chestplate",
        "diamond_helmet",
        "diamond_hoe",
        "diamond_leggings",
        "diamond_pickaxe",
        "diamond_shovel",
        "diamond_sword",
        "dropper",
        "furnace",
        "gold_ingot",
        "golden_axe",
        "golden_boots",
        "golden_chestplate",
        "golden_helmet",
        "golden_hoe",
        "golden_leggings",
        "golden_pickaxe",
        "golden_shovel",
        "golden_sword",
        "hopper",
        "iron_axe",
        "iron_bars",
        "iron_boots",
        "iron_chestplate",
        "iron_helmet",
        "iron_hoe",
        "iron_leggings",
        "iron_nugget",
        "iron_pickaxe",
        "iron_shovel",
        "iron_sword",
        "jukebox",
        "ladder",
        "note_block",
        "piston",
        "rail",
        "redstone_torch",
        "shears",
        "shield",
        "smithing_table",
        "smoker",
        "stick",
        "stone_axe",
        "stone_hoe",
        "stone_pickaxe",
        "stone_shovel",
        "stone_sword",
        "stonecutter",
        "torch",
        "tripwire_hook",
        "wooden_axe",
        "wooden_hoe",
        "wooden_pickaxe",
        "wooden_shovel",
        "wooden_sword",
    ];
    assert_eq!(targets.len(), 67);
    for t in targets {
        let id = d.item_id(t).unwrap_or_else(|| panic!("{t} missing"));
        let crafted = d.recipes_for(id).next().is_some();
        let smelted = d.smelt_for(id).next().is_some();
        let mined = d
            .blocks
            .iter()
            .any(|bl| bl.drops.iter().any(|x| x.item == id));
        assert!(crafted || smelted || mined, "{t} cannot be obtained");
    }
    // Bad tables fail with a message naming the cause.
    let bad = crate::data::Data::parse(
        "blocks:\n  - {name: air, hardness: 0, color: [0,0,0]}\n",
        "tags: {}\ntiers: {}\nitems: []\n",
        "crafting:\n  - {out: nothing, ingredients: [dirt]}\nsmelting: []\n",
    )
    .unwrap_err();
    assert!(bad.contains("unknown item \"nothing\""), "{bad}");
}

/// A crafting result goes into the hotbar, where the hand reaches it, even
/// when a stack of it lies in the main inventory (a furnace picked up with
/// the hotbar full): added as a pickup it would join that stack, and every
/// furnace crafted after it would too.
#[test]
fn a_crafted_item_lands_in_the_hotbar_not_on_a_main_inventory_stack() {
    let mut i = inv(&[
        ("cobblestone", 64),
        ("dirt", 64),
        ("oak_planks", 64),
        ("stick", 64),
        ("coal", 64),
        ("iron_ore", 64),
        ("gravel", 64),
        ("sand", 64),
    ]);
    // The ninth hotbar slot is free, and a furnace sits in the main inventory.
    i.slots[12] = Some(inventory::Stack {
        item: data().item("furnace"),
        count: 1,
        wear: 0,
    });
    assert_eq!(i.slots[8], None);
    assert_eq!(inventory::craft(&mut i, "furnace", true), Ok(1));
    let furnace = data().item("furnace");
    assert_eq!(i.slots[8].map(|s| (s.item, s.count)), Some((furnace, 1)));
    assert_eq!(i.slots[12].map(|s| s.count), Some(1));
    // A second one joins the hotbar stack.
    assert_eq!(inventory::craft(&mut i, "furnace", true), Ok(1));
    assert_eq!(i.slots[8].map(|s| s.count), Some(2));
    // With the hotbar full it goes where a pickup would.
    let mut full = inv(&[("cobblestone", 64 * 9 + 8), ("stick", 1)]);
    full.slots[20] = Some(inventory::Stack {
        item: furnace,
        count: 1,
        wear: 0,
    });
    assert_eq!(inventory::craft(&mut full, "furnace", true), Ok(1));
    assert_eq!(full.slots[20].map(|s| s.count), Some(2));
}

#[test]
fn wood_and_stone_recipes_with_counts() {
    let mut i = inv(&[("oak_log", 3)]);
    assert_eq!(inventory::craft(&mut i, "oak_planks", false), Ok(4));
    assert_eq!(count(&i, "oak_planks"), 4);
    assert_eq!(inventory::craft(&mut i, "stick", false), Ok(4));
    assert_eq!((count(&i, "oak_planks"), count(&i, "stick")), (2, 4));
    // The pickaxe is a 3×3 recipe: it needs a crafting table within reach.
    inventory::craft(&mut i, "oak_planks", false).unwrap();
    assert_eq!(
        inventory::craft(&mut i, "wooden_pickaxe", false),
        Err(CraftError::NeedsTable("wooden_pickaxe".into()))
    );
    assert_eq!(inventory::craft(&mut i, "wooden_pickaxe", true), Ok(1));
    assert_eq!((count(&i, "oak_planks"), count(&i, "stick")), (3, 2));
    // Mixed plank species satisfy '#planks'.
    let mut i = inv(&[("oak_planks", 2), ("birch_planks", 2)]);
    assert_eq!(inventory::craft(&mut i, "crafting_table", false), Ok(1));
    assert_eq!(count(&i, "oak_planks") + count(&i, "birch_planks"), 0);
    // (inputs, item, count made)
    type Case = (&'static [(&'static str, u32)], &'static str, u32);
    let cases: &[Case] = &[
        (&[("cobblestone", 8)], "furnace", 1),
        (&[("cobblestone", 3), ("stick", 2)], "stone_pickaxe", 1),
        (&[("cobblestone", 1), ("stick", 2)], "stone_shovel", 1),
        (&[("coal", 1), ("stick", 1)], "torch", 4),
        (&[("charcoal", 1), ("stick", 1)], "torch", 4),
        (&[("oak_planks", 3)], "bowl", 4),
        (&[("stick", 7)], "ladder", 3),
        (&[("oak_planks", 8)], "chest", 1),
        (&[("spruce_log", 4), ("furnace", 1)], "smoker", 1),
        (&[("iron_ingot", 6), ("stick", 1)], "rail", 16),
        (&[("iron_ingot", 5), ("chest", 1)], "hopper", 1),
        (&[("iron_ingot", 1)], "iron_nugget", 9),
        (&[("iron_ingot", 1), ("iron_nugget", 2)], "chain", 1),
        (&[("iron_ingot", 6)], "iron_bars", 16),
        (
            &[("iron_ingot", 1), ("stick", 1), ("oak_planks", 1)],
            "tripwire_hook",
            2,
        ),
        (&[("iron_ingot", 2), ("oak_planks", 4)], "smithing_table", 1),
        (
            &[("iron_ingot", 5), ("furnace", 1), ("smooth_stone", 3)],
            "blast_furnace",
            1,
        ),
        (&[("iron_ingot", 1), ("stone", 3)], "stonecutter", 1),
        (&[("oak_planks", 8), ("diamond", 1)], "jukebox", 1),
        (
            &[
                ("oak_planks", 3),
                ("cobblestone", 4),
                ("iron_ingot", 1),
                ("redstone", 1),
            ],
            "piston",
            1,
        ),
        (&[("redstone", 1), ("stick", 1)], "redstone_torch", 1),
        (
            &[("iron_ingot", 6), ("stick", 2), ("redstone_torch", 1)],
            "activator_rail",
            6,
        ),
        (&[("iron_ingot", 4), ("redstone", 1)], "compass", 1),
        (&[("cobblestone", 7), ("redstone", 1)], "dropper", 1),
        (&[("oak_planks", 8), ("redstone", 1)], "note_block", 1),
        (&[("oak_planks", 6), ("iron_ingot", 1)], "shield", 1),
        (&[("iron_ingot", 8)], "iron_chestplate", 1),
        (&[("gold_ingot", 7)], "golden_leggings", 1),
        (&[("diamond", 4)], "diamond_boots", 1),
        (&[("diamond", 5)], "diamond_helmet", 1),
        (&[("diamond", 3), ("stick", 2)], "diamond_pickaxe", 1),
        (&[("gold_ingot", 2), ("stick", 1)], "golden_sword", 1),
        (&[("iron_ingot", 3)], "bucket", 1),
        (&[("iron_ingot", 2)], "shears", 1),
    ];
    for (have, item, n) in cases {
        let mut i = inv(have);
        assert_eq!(inventory::craft(&mut i, item, true), Ok(*n), "{item}");
        assert_eq!(count(&i, item), *n, "{item}");
        // Everything listed was consumed (each case gives exact inputs).
        let left: u32 = i
            .totals()
            .iter()
            .filter(|(id, _)| data().item_name(*id) != *item)
            .map(|x| x.1)
            .sum();
        assert_eq!(left, 0, "{item} left inputs behind");
        // One input short fails.
        let mut short = inv(have);
        short.remove(data().item(have[0].0), 1);
        assert!(
            inventory::craft(&mut short, item, true).is_err(),
            "{item} with too little"
        );
    }
}

#[test]
fn grid_matching_shaped_mirrored_and_shapeless() {
    let d = data();
    let p = Some(d.item("oak_planks"));
    let s = Some(d.item("stick"));
    let c = Some(d.item("cobblestone"));
    // Stick: two planks stacked anywhere in the 2×2 grid.
    assert_eq!(
        match_grid(&[None, p, None, p], 2),
        Some((d.item("stick"), 4))
    );
    assert_eq!(match_grid(&[p, p, None, None], 2), None);
    // Axe and its mirror image.
    let axe = [c, c, None, c, s, None, None, s, None];
    let mirrored = [None, c, c, None, s, c, None, s, None];
    assert_eq!(match_grid(&axe, 3), Some((d.item("stone_axe"), 1)));
    assert_eq!(match_grid(&mirrored, 3), Some((d.item("stone_axe"), 1)));
    // Shapeless planks from a log in any cell.
    let log = Some(d.item("birch_log"));
    assert_eq!(
        match_grid(&[None, None, log, None], 2),
        Some((d.item("birch_planks"), 4))
    );
    assert_eq!(match_grid(&[None; 9], 3), None);
}

#[test]
fn smelting_needs_a_furnace_and_burns_fuel() {
    let mut i = inv(&[("iron_ore", 3), ("coal", 1)]);
    assert_eq!(
        inventory::smelt(&mut i, "iron_ingot", None),
        Err(CraftError::NeedsFurnace("iron_ingot".into()))
    );
    let mut f = FurnaceFuel::default();
    assert_eq!(
        inventory::smelt(&mut i, "iron_ingot", Some(&mut f)),
        Ok(200)
    );
    // One coal pays 1600 ticks: 8 smelts; 1400 left after the first.
    assert_eq!((count(&i, "coal"), f.burn_left), (0, 1400));
    inventory::smelt(&mut i, "iron_ingot", Some(&mut f)).unwrap();
    assert_eq!(
        (count(&i, "iron_ingot"), count(&i, "iron_ore"), f.burn_left),
        (2, 1, 1200)
    );
    // Logs smelt into charcoal and planks burn as fuel (300 ticks each).
    let mut i = inv(&[("oak_log", 1), ("oak_planks", 1)]);
    let mut f = FurnaceFuel::default();
    inventory::smelt(&mut i, "charcoal", Some(&mut f)).unwrap();
    assert_eq!(
        (count(&i, "charcoal"), count(&i, "oak_planks"), f.burn_left),
        (1, 0, 100)
    );
    // Logs to smelt and the charcoal made are spared while planks burn;
    // then a log burns before the charcoal does.
    let mut i = inv(&[("oak_log", 3), ("oak_planks", 1)]);
    let mut f = FurnaceFuel::default();
    inventory::smelt(&mut i, "charcoal", Some(&mut f)).unwrap();
    assert_eq!((count(&i, "oak_log"), count(&i, "oak_planks")), (2, 0));
    inventory::smelt(&mut i, "charcoal", Some(&mut f)).unwrap();
    assert_eq!(
        (count(&i, "oak_log"), count(&i, "charcoal"), f.burn_left),
        (0, 2, 200)
    );
    let mut i = inv(&[("cobblestone", 1)]);
    assert_eq!(
        inventory::smelt(&mut i, "stone", Some(&mut FurnaceFuel::default())),
        Err(CraftError::NoFuel("stone".into()))
    );
    assert_eq!(
        inventory::smelt(&mut i, "diamond", Some(&mut f)),
        Err(CraftError::NoRecipe("diamond".into()))
    );
}

#[test]
fn mining_tiers_speed_and_drops() {
    let d = data();
    let t = |blk, tool: Option<&str>| mining(blk, tool.map(|n| d.item(n)));
    // Bare hands: logs in 3 s (60 ticks), stone in 7.5 s and nothing dropped.
    assert_eq!(t(b::OAK_LOG, None).ticks, Some(60));
    assert!(t(b::OAK_LOG, None).harvests);
    assert_eq!(t(b::STONE, None).ticks, Some(150));
    assert!(!t(b::STONE, None).harvests);
    // Pickaxe tiers: wood < stone < iron < diamond.
    let w = t(b::STONE, Some("wooden_pickaxe"));
    let s = t(b::STONE, Some("stone_pickaxe"));
    let i = t(b::STONE, Some("iron_pickaxe"));
    let dm = t(b::STONE, Some("diamond_pickaxe"));
    assert!(w.harvests && w.ticks > s.ticks && s.ticks > i.ticks && i.ticks > dm.ticks);
    assert_eq!((w.ticks, dm.ticks), (Some(23), Some(6)));
    // Harvest levels: iron ore needs stone+, diamond and redstone need iron+.
    assert!(!t(b::IRON_ORE, Some("wooden_pickaxe")).harvests);
    assert!(t(b::IRON_ORE, Some("stone_pickaxe")).harvests);
    assert!(!t(b::DIAMOND_ORE, Some("stone_pickaxe")).harvests);
    assert!(t(b::DIAMOND_ORE, Some("iron_pickaxe")).harvests);
    assert!(t(b::REDSTONE_ORE, Some("iron_pickaxe")).harvests);
    assert!(!t(b::GOLD_ORE, Some("golden_pickaxe")).harvests);
    // The wrong tool is no faster than a hand.
    assert_eq!(
        t(b::DIRT, Some("iron_pickaxe")).ticks,
        t(b::DIRT, None).ticks
    );
    assert!(t(b::DIRT, Some("iron_shovel")).ticks < t(b::DIRT, None).ticks);
    assert_eq!(t(b::BEDROCK, Some("diamond_pickaxe")).ticks, None);
    // Shears take leaves in one tick and keep the leaves block.
    assert_eq!(t(b::OAK_LEAVES, Some("shears")).ticks, Some(1));
    let mut rng = gw_core::Rng::new(1, 1);
    let got = inventory::drops(b::OAK_LEAVES, Some(d.item("shears")), &mut rng);
    assert_eq!(got, vec![(d.item("oak_leaves"), 1)]);
    assert_eq!(
        inventory::drops(b::STONE, Some(d.item("wooden_pickaxe")), &mut rng),
        vec![(d.item("cobblestone"), 1)]
    );
    assert!(inventory::drops(b::DIAMOND_ORE, Some(d.item("stone_pickaxe")), &mut rng).is_empty());
    assert_eq!(
        inventory::drops(b::DIAMOND_ORE, Some(d.item("iron_pickaxe")), &mut rng),
        vec![(d.item("diamond"), 1)]
    );
}

/// A flat test world: stone up to y = 63, the player standing on it.
fn flat_world(extra: &[(&str, u32)]) -> World {
    let mut w = World::new(WorldConfig {
        seed: 5,
        spawn: Some([0.5, 100.0, 0.5]),
        passive_mobs: false,
        hostile_mobs: false,
        start_inventory: extra.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
        ..Default::default()
    });
    for x in -40..40 {
        for z in -40..40 {
            for y in 1..128 {
                w.terrain
                    .set(x, y, z, if y <= 63 { b::STONE } else { b::AIR });
            }
        }
    }
    w.player.body.pos = [0.5, 64.0, 0.5];
    w
}

#[test]
fn physics_gravity_jump_collision_and_fall_damage() {
    let mut w = flat_world(&[]);
    w.player.body.pos = [0.5, 70.0, 0.5];
    for _ in 0..40 {
        w.step(&Action::noop());
    }
    assert!(w.player.body.on_ground);
    assert!((w.player.body.pos[1] - 64.0).abs() < 1e-6);
    // A 6-block fall costs 3 half-hearts (fall − 3).
    assert_eq!(w.player.health, 17.0);
    // Jump: rises about 1.25 blocks and lands again.
    let mut top: f64 = 0.0;
    w.step(&Action {
        jump: true,
        ..Default::default()
    });
    for _ in 0..20 {
        w.step(&Action::noop());
        top = top.max(w.player.body.pos[1]);
    }
    assert!(
        (1.2..1.3).contains(&(top - 64.0)),
        "jump height {}",
        top - 64.0
    );
    assert!(w.player.body.on_ground);
    // Walking: 4.317 blocks per second facing +z; sprinting faster; a wall stops it.
    let z0 = w.player.body.pos[2];
    for _ in 0..20 {
        w.step(&Action {
            forward: true,
            ..Default::default()
        });
    }
    let walked = w.player.body.pos[2] - z0;
    assert!((walked - 4.317).abs() < 0.05, "walked {walked}");
    let z1 = w.player.body.pos[2];
    for _ in 0..20 {
        w.step(&Action {
            forward: true,
            sprint: true,
            ..Default::default()
        });
    }
    assert!(w.player.body.pos[2] - z1 > 5.5);
    let wall = libm::floor(w.player.body.pos[2]) as i32 + 2;
    for x in -3..=3 {
        for y in 64..67 {
            w.terrain.set(x, y, wall, b::STONE);
        }
    }
    for _ in 0..40 {
        w.step(&Action {
            forward: true,
            ..Default::default()
        });
    }
    assert!(
        (w.player.body.pos[2] - (wall as f64 - 0.3)).abs() < 0.01,
        "stopped at the wall"
    );
    // One-block steps are climbed automatically.
    let mut w = flat_world(&[]);
    for x in -3..=3 {
        for z in 3..12 {
            w.terrain.set(x, 64, z, b::STONE);
        }
    }
    for _ in 0..30 {
        w.step(&Action {
            forward: true,
            ..Default::default()
        });
    }
    assert!((w.player.body.pos[1] - 65.0).abs() < 1e-6 && w.player.body.pos[2] > 3.0);
}

/// `preview_path` foresees exactly where the body goes: the first body is
/// the one the step makes, the rest the ticks after it with no key held
/// (walking off a step, a jump, turning while walking), and the world is
/// left as it was.
#[test]
fn preview_path_foresees_the_step_and_the_drift_after_it() {
    let mut w = flat_world(&[]);
    for x in -3..=3 {
        for z in 2..5 {
            w.terrain.set(x, 64, z, b::STONE);
        }
    }
    w.player.body.pos = [0.5, 65.0, 4.2];
    for _ in 0..5 {
        w.step(&Action::noop());
    }
    let moves = [
        Action {
            forward: true,
            ..Default::default()
        },
        Action {
            forward: true,
            left: true,
            yaw: 10.0,
            ..Default::default()
        },
        Action {
            back: true,
            sprint: true,
            jump: true,
            ..Default::default()
        },
        Action {
            forward: true,
            sprint: true,
            yaw: -10.0,
            ..Default::default()
        },
    ];
    let mut left_the_step = false;
    for k in 0..40 {
        let a = &moves[if k < 8 { 0 } else { (k / 3) % moves.len() }];
        let before = w.player.body.clone();
        let path = w.preview_path(a, 6);
        assert_eq!(path.len(), 7);
        assert_eq!(w.player.body, before, "a preview changes nothing");
        let mut real = w.clone();
        real.step(a);
        assert_eq!(real.player.body, path[0], "tick {k}: the step itself");
        for (i, b) in path[1..].iter().enumerate() {
            real.step(&Action::noop());
            assert_eq!(&real.player.body, b, "tick {k}: coasting tick {i}");
        }
        w.step(a);
        left_the_step |= w.player.body.pos[1] < 65.0 && !w.player.body.on_ground;
    }
    assert!(left_the_step, "the walk never dropped off the step");
}

#[test]
fn thrown_items_stay_thrown_and_do_not_count_again() {
    // Thrown ahead: not pulled back by the magnet, left lying there.
    let mut w = flat_world(&[("cobblestone", 5)]);
    w.player.pitch = 0.0;
    w.player.selected = 0;
    for _ in 0..3 {
        w.step(&Action {
            drop: true,
            ..Default::default()
        });
    }
    assert_eq!(count(&w.player.inventory, "cobblestone"), 2);
    for _ in 0..200 {
        w.step(&Action::noop());
    }
    assert_eq!(
        count(&w.player.inventory, "cobblestone"),
        2,
        "not pulled back"
    );
    assert_eq!(w.items.len(), 3);
    assert!(w.items.iter().all(|it| it.thrown));
    // Walked over, they come back into the inventory but are not new items.
    let before = w
        .obtained
        .get(&data().item("cobblestone"))
        .copied()
        .unwrap_or(0);
    for _ in 0..20 {
        w.step(&Action {
            forward: true,
            ..Default::default()
        });
    }
    assert_eq!(count(&w.player.inventory, "cobblestone"), 5);
    assert!(w.items.is_empty());
    assert_eq!(
        w.obtained
            .get(&data().item("cobblestone"))
            .copied()
            .unwrap_or(0),
        before
    );
    // Thrown at one's feet, an item waits two seconds before it is picked up.
    let mut w = flat_world(&[("cobblestone", 1)]);
    w.player.pitch = 90.0;
    w.player.selected = 0;
    w.step(&Action {
        drop: true,
        ..Default::default()
    });
    assert_eq!(count(&w.player.inventory, "cobblestone"), 0);
    for _ in 0..THROWN_PICKUP_DELAY - 2 {
        w.step(&Action::noop());
    }
    assert_eq!(count(&w.player.inventory, "cobblestone"), 0, "too early");
    for _ in 0..5 {
        w.step(&Action::noop());
    }
    assert_eq!(count(&w.player.inventory, "cobblestone"), 1);
}

#[test]
fn mining_in_the_world_drops_and_picks_up_items() {
    let mut w = flat_world(&[("stone_pickaxe", 1)]);
    w.player.pitch = 90.0; // look straight down at the stone below
    let target = w.target().unwrap();
    assert_eq!((target.block, target.pos), (b::STONE, [0, 63, 0]));
    let need = mining(b::STONE, w.held()).ticks.unwrap();
    for k in 0..need {
        assert_eq!(w.terrain.get(0, 63, 0), b::STONE, "tick {k}");
        w.step(&Action {
            attack: true,
            ..Default::default()
        });
    }
    assert_eq!(w.terrain.get(0, 63, 0), b::AIR);
    for _ in 0..40 {
        w.step(&Action::noop());
    }
    assert_eq!(count(&w.player.inventory, "cobblestone"), 1);
    assert_eq!(w.obtained[&data().item("cobblestone")], 1);
    // Letting go resets the progress.
    let mut w = flat_world(&[]);
    w.player.pitch = 90.0;
    for _ in 0..50 {
        w.step(&Action {
            attack: true,
            ..Default::default()
        });
    }
    assert!(w.player.breaking.is_some());
    w.step(&Action::noop());
    assert!(w.player.breaking.is_none());
    // Craft macro needs the table within reach.
    let mut w = flat_world(&[("oak_planks", 3), ("stick", 2)]);
    w.step(&Action {
        craft: Some("wooden_pickaxe".into()),
        ..Default::default()
    });
    assert_eq!(count(&w.player.inventory, "wooden_pickaxe"), 0);
    w.terrain.set(2, 64, 0, b::CRAFTING_TABLE);
    w.step(&Action {
        craft: Some("wooden_pickaxe".into()),
        ..Default::default()
    });
    assert_eq!(count(&w.player.inventory, "wooden_pickaxe"), 1);
}

#[test]
fn worldgen_is_seeded_and_has_biomes_ores_and_bedrock() {
    assert_eq!(generate(11, 3, -2).blocks, generate(11, 3, -2).blocks);
    assert_ne!(generate(11, 3, -2).blocks, generate(12, 3, -2).blocks);
    let mut a = Terrain::new(4);
    let mut bb = Terrain::new(4);
    a.load_around(0.0, 0.0, 2, usize::MAX);
    // Load in a different order: the same chunks come out.
    for cx in (-2..=2).rev() {
        for cz in -2..=2 {
            bb.load(cx, cz);
        }
    }
    for cx in -2..=2 {
        for cz in -2..=2 {
            assert_eq!(a.chunk_hash(cx, cz), bb.chunk_hash(cx, cz));
        }
    }
    // Over a wide area: all biomes, ores at their depths, bedrock floor.
    let mut biomes = std::collections::BTreeSet::new();
    let mut ore_y: std::collections::BTreeMap<u8, (i32, u32)> = Default::default();
    for cx in -12..12 {
        for cz in -12..12 {
            let c = generate(7, cx * 3, cz * 3);
            for x in 0..16 {
                for z in 0..16 {
                    biomes.insert(c.biomes[(x * 16 + z) as usize]);
                    assert_eq!(c.get(x, 0, z), b::BEDROCK);
                    for y in 1..128 {
                        let v = c.get(x, y, z);
                        assert!(
                            crate::terrain::NATURAL.contains(&v),
                            "block {v} not in NATURAL"
                        );
                        if matches!(
                            v,
                            b::DIAMOND_ORE | b::REDSTONE_ORE | b::IRON_ORE | b::COAL_ORE
                        ) {
                            let e = ore_y.entry(v).or_insert((0, 0));
                            e.0 = e.0.max(y);
                            e.1 += 1;
                        }
                    }
                }
            }
        }
    }
    for bm in [
        Biome::Plains,
        Biome::Forest,
        Biome::Desert,
        Biome::Taiga,
        Biome::Mountains,
    ] {
        assert!(biomes.contains(&bm), "{bm:?} missing");
    }
    assert!(ore_y[&b::DIAMOND_ORE].0 <= 16 && ore_y[&b::REDSTONE_ORE].0 <= 16);
    assert!(ore_y[&b::IRON_ORE].0 <= 64);
    assert!(
        ore_y[&b::DIAMOND_ORE].1 * 5 < ore_y[&b::IRON_ORE].1,
        "diamonds rarer than iron"
    );
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &v in bytes {
        h ^= v as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

#[test]
fn rendering_is_deterministic_and_pinned() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        ..Default::default()
    });
    w.player.yaw = 30.0;
    w.player.pitch = 10.0;
    let a = render_rgb(&w, 64, 64, false);
    let par = render_rgb(&w, 64, 64, true);
    assert_eq!(a, par, "parallel rows give the same pixels");
    let wide = render_rgb(&w, 640, 360, true);
    assert_eq!(wide.len(), 640 * 360 * 3);
    // Sky at the top, ground lower down: the frame is not flat.
    let distinct: std::collections::BTreeSet<&[u8]> = a.chunks(3).collect();
    assert!(distinct.len() > 20);
    if std::env::var("GW_DUMP").is_ok() {
        std::fs::write("/tmp/w64.rgb", &a).unwrap();
        std::fs::write("/tmp/w640.rgb", &wide).unwrap();
    }
    assert_eq!(hash(&a), 13326895735115844546, "64x64 golden");
    assert_eq!(hash(&wide), 13103351822900299301, "640x360 golden");
}

#[test]
fn blocky_rendering_traces_one_ray_per_block() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        ..Default::default()
    });
    w.player.yaw = 30.0;
    w.player.pitch = 10.0;
    let (wd, ht) = (64usize, 64usize);
    let mut plain = vec![0u8; wd * ht * 4];
    let mut one = vec![0u8; wd * ht * 4];
    crate::render::render_rgba(&w, wd, ht, &mut plain, false);
    crate::render::render_rgba_blocky(&w, wd, ht, 1, &mut one, true);
    assert_eq!(plain, one, "block 1 is the plain renderer");
    let mut four = vec![0u8; wd * ht * 4];
    crate::render::render_rgba_blocky(&w, wd, ht, 4, &mut four, true);
    let mut serial = vec![0u8; wd * ht * 4];
    crate::render::render_rgba_blocky(&w, wd, ht, 4, &mut serial, false);
    assert_eq!(four, serial, "parallel bands give the same pixels");
    let px = |x: usize, y: usize| &four[(y * wd + x) * 4..(y * wd + x) * 4 + 4];
    // Above the HUD every 4×4 block is one colour, and the view is not flat.
    let mut colours = std::collections::BTreeSet::new();
    for y in 0..24 {
        for x in 0..wd {
            assert_eq!(px(x, y), px(x / 4 * 4, y / 4 * 4), "({x}, {y})");
            colours.insert(px(x, y).to_vec());
        }
    }
    assert!(colours.len() > 3, "{} colours", colours.len());
    // A width that is not a multiple of the block still fills every pixel.
    let mut odd = vec![7u8; 30 * 20 * 4];
    crate::render::render_rgba_blocky(&w, 30, 20, 4, &mut odd, false);
    assert!(odd.chunks(4).all(|p| p[3] == 255));
}

/// World generation is pinned: chunk contents (caves, ores, trees
/// included) over a patch of chunks for two seeds hash to fixed values, so
/// a faster generator must produce the very same blocks.
#[test]
fn worldgen_chunks_are_pinned() {
    let mut all = Vec::new();
    for seed in [1u64, 7] {
        let mut t = crate::terrain::Terrain::new(seed);
        let mut h: u64 = 0;
        for cx in -3..3 {
            for cz in -3..3 {
                t.load(cx, cz);
                h = h.rotate_left(5) ^ t.chunk_hash(cx, cz).unwrap();
            }
        }
        all.push(h);
    }
    assert_eq!(
        all,
        [7179500416520453103, 4113269475557800584],
        "worldgen golden"
    );
}

/// At 64×64 the HUD is the compact one: only the bottom four rows (status
/// row and hotbar strip) are painted over, the selected slot has a white
/// top edge and its item's colour, and the inventory screen is a grid.
#[test]
fn small_frames_get_the_compact_hud() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        start_inventory: vec![("iron_pickaxe".into(), 1)],
        ..Default::default()
    });
    let cov = crate::render::hud::coverage(&w, 64, 64);
    for y in 0..64 {
        let painted = cov[y * 64..(y + 1) * 64]
            .iter()
            .filter(|&&c| c != 0)
            .count();
        assert_eq!(painted, if y >= 60 { 64 } else { 0 }, "row {y}");
    }
    let rgb = render_rgb(&w, 64, 64, false);
    let px = |x: usize, y: usize| &rgb[(y * 64 + x) * 3..(y * 64 + x) * 3 + 3];
    let sel = w.player.selected;
    let x = sel * 64 / 9 + 3;
    assert_eq!(px(x, 61), [255, 255, 255], "selected slot's edge");
    let held = w.held().expect("a pickaxe in hand");
    assert_eq!(
        px(x, 62),
        crate::render::item_color(held),
        "held item colour"
    );
    // Full health: the status row's left half is red.
    assert_eq!(px(0, 60), [220, 30, 30]);
    // The crosshair inverts, it does not cover.
    assert_eq!(cov[32 * 64 + 32], 0);
    w.player.inventory_open = true;
    let cov = crate::render::hud::coverage(&w, 64, 64);
    let grid = cov[..60 * 64].iter().filter(|&&c| c != 0).count();
    assert_eq!(grid, 9 * 7 * 4 * 7, "a 9×4 grid of 7-pixel cells");
    // The 640×360 view keeps the full HUD (hotbar rows at the bottom).
    let cov = crate::render::hud::coverage(&w, 640, 360);
    assert!(
        cov[(350 * 640)..(351 * 640)]
            .iter()
            .filter(|&&c| c != 0)
            .count()
            > 300
    );
}

/// The per-column occupancy masks match the blocks exactly after
/// generation and after placing and breaking blocks, and a fresh build of a
/// chunk gives the masks the loaded one had before any edit.
#[test]
fn occupancy_masks_follow_block_edits() {
    use crate::terrain::{CHUNK, HEIGHT};
    let mut w = World::new(WorldConfig {
        seed: 4,
        ..Default::default()
    });
    let check = |w: &World, what: &str| {
        for c in w.terrain.loaded() {
            let mut tiles = [0u128; 16];
            for x in 0..CHUNK {
                for z in 0..CHUNK {
                    let want = (0..HEIGHT)
                        .filter(|&y| c.get(x, y, z) != b::AIR)
                        .fold(0u128, |m, y| m | 1 << y);
                    assert_eq!(
                        c.filled[(x * CHUNK + z) as usize],
                        want,
                        "{what}: column ({x}, {z}) of chunk ({}, {})",
                        c.cx,
                        c.cz
                    );
                    tiles[((x / 4) * 4 + z / 4) as usize] |= want;
                }
            }
            assert_eq!(
                c.tile_filled, tiles,
                "{what}: tiles of ({}, {})",
                c.cx, c.cz
            );
            let top = c.tops.iter().copied().max().unwrap() as i32;
            assert_eq!(c.top(), top, "{what}: top of ({}, {})", c.cx, c.cz);
        }
    };
    check(&w, "generated");
    let (cx, cz) = {
        let c = w.terrain.loaded().next().unwrap();
        (c.cx, c.cz)
    };
    assert_eq!(
        generate(4, cx, cz).filled,
        w.terrain.chunk(cx, cz).unwrap().filled,
        "a fresh build"
    );
    let (x, z) = (cx * 16 + 5, cz * 16 + 9);
    let column = |w: &World| w.terrain.chunk(cx, cz).unwrap().filled[5 * 16 + 9];
    assert!(w.terrain.set(x, 120, z, b::STONE));
    assert_eq!(column(&w) >> 120, 1, "placed at 120");
    assert!(w.terrain.set(x, 120, z, b::AIR));
    assert_eq!(column(&w) >> 100, 0, "broken again");
    // Break the column's surface block and place one in the air beside it.
    let surface = (0..HEIGHT)
        .rev()
        .find(|&y| w.terrain.get(x, y, z) != b::AIR)
        .unwrap();
    assert!(w.terrain.set(x, surface, z, b::AIR));
    assert!(w.terrain.set(x + 1, surface + 5, z, b::DIRT));
    check(&w, "edited");
    assert_eq!(
        column(&w) >> surface,
        0,
        "no block at or above the old surface"
    );
    // Random places and breaks in one tile of columns and around it,
    // emptying some of its columns' cells and filling others.
    let mut rng = gw_core::Rng::new(9, 3);
    let mut changed = 0;
    for _ in 0..400 {
        let (dx, dz) = (rng.range_i32(-1, 6), rng.range_i32(-1, 6));
        let y = rng.range_i32(surface - 6, surface + 4);
        let v = if rng.chance(0.6) { b::AIR } else { b::STONE };
        if w.terrain.get(x + dx, y, z + dz) != v {
            changed += 1;
        }
        assert!(w.terrain.set(x + dx, y, z + dz, v));
    }
    assert!(changed > 100, "{changed} cells changed");
    check(&w, "randomly edited");
    // The whole tile emptied at the surface's heights.
    for (dx, dz) in (0..4).flat_map(|a| (0..4).map(move |c| (a, c))) {
        for y in surface - 6..surface + 4 {
            w.terrain.set((x & !3) + dx, y, (z & !3) + dz, b::AIR);
        }
    }
    check(&w, "emptied");
}

/// The HUD drawn from the per-thread layer of opaque pixels gives the
/// pixels of drawing it whole, over a varied view, as the HUD's state
/// changes from frame to frame (the layer kept or rebuilt): health and
/// food levels, hurt, the selected slot, counts and wear, the inventory
/// screen, the compact HUD and other sizes.
#[test]
fn hud_layer_draws_what_the_hud_draws() {
    use crate::render::hud;
    let mut w = World::new(WorldConfig {
        seed: 5,
        start_inventory: vec![
            ("iron_pickaxe".into(), 1),
            ("dirt".into(), 17),
            ("golden_axe".into(), 1),
        ],
        ..Default::default()
    });
    let mut rebuilt = 0;
    let mut last: Option<std::rc::Rc<hud::Layer>> = None;
    for step in 0..14 {
        let pl = &mut w.player;
        match step {
            1 => pl.health = 13.5,
            2 => pl.health = 13.9,
            3 => pl.food = 6.25,
            4 => pl.hurt_ticks = 5,
            5 => pl.selected = 2,
            6 => pl.inventory.slots[1].as_mut().unwrap().count = 3,
            7 => pl.inventory.slots[0].as_mut().unwrap().wear = 40,
            8 => pl.inventory_open = true,
            9 => pl.hurt_ticks = 0,
            _ => {}
        }
        for (wd, ht) in [(640, 360), (64, 64), (320, 200)] {
            let view: Vec<u8> = (0..wd * ht * 4)
                .map(|i| (i * 7 % 251) as u8 | if i % 4 == 3 { 255 } else { 0 })
                .collect();
            let mut whole = view.clone();
            hud::draw(&w, wd, ht, &mut whole);
            let layer = hud::layer(&w, wd, ht);
            assert_eq!(
                layer.mask,
                hud::coverage(&w, wd, ht),
                "step {step} {wd}x{ht}"
            );
            let mut over = view.clone();
            hud::draw_over(&w, &layer, &mut over);
            assert!(over == whole, "step {step} at {wd}x{ht}: pixels differ");
            if wd == 640 {
                if !last
                    .as_ref()
                    .is_some_and(|l| std::rc::Rc::ptr_eq(l, &layer))
                {
                    rebuilt += 1;
                }
                last = Some(layer);
            }
        }
    }
    // The first frame, then one per change the HUD shows (health 13.5 and
    // 13.9 show alike); the same state keeps its layer on the next frame.
    assert_eq!(rebuilt, 9, "layers built at 640x360");
}

/// The shared spawn rule: every world starts on dry land in a land biome
/// with a log within a few blocks, on the surface (open sky above the head).
#[test]
fn worlds_spawn_on_the_surface_of_land_with_trees_nearby() {
    use crate::terrain::Biome;
    use crate::world::{SPAWN_TREE_REACH, trees_nearby};
    for seed in [3, 17, 101, 4242, 90_001] {
        let w = World::new(WorldConfig {
            seed,
            ..Default::default()
        });
        let p = w.player.body.pos;
        let g = [
            libm::floor(p[0]) as i32,
            libm::floor(p[1]) as i32 - 1,
            libm::floor(p[2]) as i32,
        ];
        assert_ne!(w.terrain.biome(g[0], g[2]), Biome::Ocean, "seed {seed}");
        assert!(
            data().block(w.terrain.get(g[0], g[1], g[2])).solid,
            "seed {seed}"
        );
        assert!(
            trees_nearby(&w.terrain, g),
            "seed {seed}: no tree near {g:?}"
        );
        let r = SPAWN_TREE_REACH;
        let logs = (-r..=r)
            .flat_map(|dx| (-r..=r).flat_map(move |dz| (1..=8).map(move |dy| (dx, dy, dz))))
            .filter(|&(dx, dy, dz)| {
                data()
                    .block(w.terrain.get(g[0] + dx, g[1] + dy, g[2] + dz))
                    .name
                    .ends_with("_log")
            })
            .count();
        assert!(logs > 0, "seed {seed}");
        // On the surface: nothing but air, plants or leaves above the head.
        let above = (g[1] + 3..crate::terrain::HEIGHT)
            .map(|y| w.terrain.get(g[0], y, g[2]))
            .filter(|&v| {
                let n = &data().block(v).name;
                data().block(v).solid && !n.ends_with("_leaves") && !n.ends_with("_log")
            })
            .count();
        assert_eq!(above, 0, "seed {seed}: spawned under ground at {g:?}");
    }
}
