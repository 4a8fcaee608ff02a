//! Skill policy and expert runs in freshly generated worlds (no rendering).

use crate::expert::{Expert, minutes_to_steps, run, run_knowing, task_world, time_limit_minutes};
use crate::goal::{GoalKind, SubGoal};
use crate::sight::Knowledge;
use crate::skills::{SkillPolicy, Status};

fn goal(kind: GoalKind, item: &str, count: u32) -> SubGoal {
    SubGoal {
        kind,
        item: item.into(),
        count,
    }
}

#[test]
fn mine_skill_chops_logs_and_craft_skill_fails_without_inputs() {
    let mut w = task_world(5);
    let mut sight = crate::sight::Sight::default();
    let mut s = SkillPolicy::new(goal(GoalKind::Mine, "logs", 2));
    for _ in 0..2400 {
        if *s.status() != Status::Running {
            break;
        }
        sight.update(&w);
        let a = s.act(&w, &mut sight);
        w.step(&a);
    }
    assert_eq!(*s.status(), Status::Done, "logs not chopped in 2 minutes");
    assert!(s.held(&w) >= 2);
    // No pickaxe: mining stone fails at once with the reason.
    let mut s = SkillPolicy::new(goal(GoalKind::Mine, "cobblestone", 1));
    let _ = s.act(&w, &mut sight);
    assert!(matches!(s.status(), Status::Failed(why) if why.contains("pickaxe")));
    // Nothing to craft a pickaxe from.
    let mut s = SkillPolicy::new(goal(GoalKind::Craft, "iron_pickaxe", 1));
    let _ = s.act(&w, &mut sight);
    assert!(matches!(s.status(), Status::Failed(why) if why.contains("ingredients")));
}

/// The fair expert (the data source) solves the wood, stone and iron
/// groups' pickaxes and the furnace from an empty inventory.
#[test]
fn fair_expert_solves_wood_stone_and_iron_tasks() {
    for (group, target) in [
        ("wood", "wooden_pickaxe"),
        ("stone", "furnace"),
        ("iron", "iron_pickaxe"),
    ] {
        let limit = minutes_to_steps(time_limit_minutes(group));
        for seed in [11, 12] {
            let r = run(target, 1, seed, limit);
            assert!(
                r.success,
                "{target} seed {seed} failed after {} steps: {:?}",
                r.steps, r.log
            );
        }
    }
}

/// Solvability: the all-seeing expert (it reads every loaded block and
/// mob) solves a task of every group within its time limit.
#[test]
fn all_seeing_expert_solves_a_task_of_every_group_within_its_time_limit() {
    let sample = [
        ("wood", "wooden_pickaxe"),
        ("stone", "furnace"),
        ("iron", "iron_pickaxe"),
        ("gold", "gold_ingot"),
        ("diamond", "diamond"),
        ("redstone", "redstone_torch"),
        ("armor", "iron_boots"),
    ];
    for (group, target) in sample {
        let limit = minutes_to_steps(time_limit_minutes(group));
        for seed in [11, 12] {
            let r = run_knowing(Knowledge::AllSeeing, target, 1, seed, limit);
            assert!(
                r.success,
                "{target} seed {seed} failed after {} steps: {:?}",
                r.steps, r.log
            );
        }
    }
}

#[test]
fn expert_runs_are_deterministic() {
    let trace = |seed: u64| {
        let mut w = task_world(seed);
        let mut ex = Expert::new("stone_pickaxe", 1);
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for _ in 0..3000 {
            let a = ex.act(&w);
            w.step(&a);
            let p = w.player.body.pos;
            for v in [p[0], p[1], p[2], w.player.yaw] {
                h ^= v.to_bits();
                h = h.wrapping_mul(0x100_0000_01b3);
            }
            if ex.done(&w) {
                break;
            }
        }
        (h, w.tick, ex.plan().to_vec())
    };
    let a = trace(21);
    assert_eq!(a, trace(21));
    assert_ne!(a.0, trace(22).0);
}

#[test]
fn expert_keeps_spare_planks_when_it_crafts_at_a_table_after_mining() {
    use crate::expert::{PlanAnswer, SPARE_PLANKS, SPARE_STICKS, expert_answer};
    let w = task_world(3);
    let empty = Default::default();
    let count = |p: &[SubGoal], item: &str| p.iter().find(|s| s.item == item).unwrap().count;
    let both = |target: &str| {
        let PlanAnswer::Plan(spared) = expert_answer(&w, target, 1, &empty) else {
            panic!("no plan for {target}")
        };
        (crate::plan(target, 1, &empty).unwrap(), spared)
    };
    let (plain, spared) = both("iron_pickaxe");
    assert_eq!(
        count(&spared, "planks"),
        count(&plain, "planks") + SPARE_PLANKS
    );
    assert_eq!(count(&spared, "stick"), count(&plain, "stick"));
    // Down to the deep layers (redstone for a piston): spare sticks too.
    let (plain, spared) = both("piston");
    assert_eq!(
        count(&spared, "stick"),
        count(&plain, "stick") + SPARE_STICKS
    );
    assert!(count(&spared, "planks") >= count(&plain, "planks") + SPARE_PLANKS);
    // A wood-only plan never leaves the surface: no spare.
    let PlanAnswer::Plan(p) = expert_answer(&w, "wooden_pickaxe", 1, &empty) else {
        panic!("no plan")
    };
    assert_eq!(p, crate::plan("wooden_pickaxe", 1, &empty).unwrap());
}

#[test]
fn expert_makes_a_piston_where_it_once_looped_on_crafting_tables() {
    // Seed 28 left its table on the surface (the hotbar was full, so it could
    // not be picked up); underground the expert crafted new tables into the
    // main inventory, out of the hotbar, and re-planned on "missing
    // ingredients for crafting_table" until the time ran out. Later, to
    // free a hotbar slot for the new table, it placed its dirt in the
    // tunnel and, with no spot left, dug a pocket — out of the dirt it had
    // just placed — and so on until the time ran out.
    // (A solvability check: the all-seeing expert.)
    let r = run_knowing(
        Knowledge::AllSeeing,
        "piston",
        1,
        28,
        minutes_to_steps(time_limit_minutes("redstone")),
    );
    assert!(
        r.success,
        "piston seed 28 failed after {} steps: {:?}",
        r.steps, r.log
    );
    assert!(
        !r.log
            .iter()
            .any(|l| l.contains("missing ingredients for crafting_table")),
        "{:?}",
        r.log
    );
}

/// The fair expert's sight holds only blocks a ray from the eye reached:
/// ones in front of the player, within sight range, touching air (or a
/// plant or water) — never a buried ore — and nothing before it looks.
#[test]
fn fair_sight_remembers_only_what_was_in_view() {
    use crate::sight::{Knowledge, SIGHT_RANGE, Sight};
    use gw_world::data::b;
    let w = task_world(7);
    let mut s = Sight::new(Knowledge::Fair);
    let none = std::collections::BTreeSet::new();
    assert_eq!(
        s.nearest(&w, &[b::STONE, b::DIRT, b::GRASS_BLOCK], &none),
        None
    );
    s.update(&w);
    assert!(s.known_blocks() > 100, "{}", s.known_blocks());
    let e = w.eye();
    let fwd = w.look_dir();
    let open = |v| v == b::AIR || v == b::WATER || !gw_world::data().block(v).solid;
    for (c, v) in s.known() {
        assert_eq!(w.terrain.get(c[0], c[1], c[2]), v, "{c:?}");
        let d = [
            c[0] as f64 + 0.5 - e[0],
            c[1] as f64 + 0.5 - e[1],
            c[2] as f64 + 0.5 - e[2],
        ];
        let len = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        assert!(len <= SIGHT_RANGE + 2.0, "{c:?} at {len}");
        // In the view cone (70° high, 16:9 wide: at most ~62° off the axis).
        let cos = (d[0] * fwd[0] + d[1] * fwd[1] + d[2] * fwd[2]) / len;
        assert!(len < 3.0 || cos > 0.4, "{c:?} outside the view ({cos})");
        let touches_open = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
        ]
        .iter()
        .any(|n| open(w.terrain.get(c[0] + n[0], c[1] + n[1], c[2] + n[2])));
        assert!(touches_open || open(v), "{c:?} is buried");
    }
    // The all-seeing expert finds buried ore the fair one has not seen.
    let all = Sight::new(Knowledge::AllSeeing);
    let ores = [b::IRON_ORE, b::COAL_ORE];
    assert!(all.nearest(&w, &ores, &none).is_some());
    assert!(
        s.nearest(&w, &ores, &none)
            .is_none_or(|c| s.known().any(|(k, _)| k == c))
    );
}

/// The fair expert on an atomic task: it keeps busy (at most a fifth of the
/// steps idle), every action is VPT-exact, and it collects logs.
#[test]
fn fair_expert_keeps_busy_with_vpt_exact_actions() {
    let mut w = gw_world::World::new(gw_world::WorldConfig {
        seed: 31,
        ..Default::default()
    });
    let mut ex = Expert::new("logs", 64);
    let (mut idle, mut logs_before) = (0, 0);
    for t in 0..2400 {
        if w.player.dead {
            w.respawn();
        }
        let a = ex.act(&w);
        assert_eq!(gw_world::action::vpt_exact(&a), a, "tick {t}: {a:?}");
        assert!(a.yaw.abs() <= 10.0 && a.pitch.abs() <= 10.0);
        idle += (a == gw_world::Action::noop()) as u32;
        w.step(&a);
        if t == 0 {
            logs_before =
                crate::plan::held(&crate::plan::inventory_map(&w.player.inventory), "logs");
        }
    }
    let logs = crate::plan::held(&crate::plan::inventory_map(&w.player.inventory), "logs");
    assert!(idle * 5 <= 2400, "{idle} idle steps");
    assert!(logs >= logs_before + 8, "{logs} logs");
}

/// Wheat seeds gathered by the fair expert in one Table-2 episode (two game
/// minutes, the benchmark's fresh world, no kit), and the steps it spent
/// attacking while walking (mowing).
fn seeds_episode(seed: u64) -> (u32, u32) {
    let mut w = crate::game::fresh_world(seed, 0, &[]);
    let mut ex = Expert::new("wheat_seeds", crate::expert::KEEP_COLLECTING);
    let mut mowing = 0;
    for _ in 0..2400 {
        if w.player.dead {
            w.respawn();
        }
        let a = ex.act(&w);
        mowing += (a.attack && a.forward) as u32;
        w.step(&a);
    }
    let d = gw_world::data();
    let seeds = w
        .obtained
        .iter()
        .filter(|(i, _)| d.item_name(**i) == "wheat_seeds")
        .map(|(_, n)| *n)
        .sum();
    (seeds, mowing)
}

/// Seed 9003 spawns on a mountain above a meadow: the nearest grass lies
/// below a cliff it cannot step down. The expert gives up plants it draws no
/// nearer to (and the plants around them) instead of pacing at the edge
/// until each target's time runs out, and it mows grass on the move.
#[test]
fn fair_expert_leaves_grass_below_a_cliff_and_mows_on_the_move() {
    let (seeds, mowing) = seeds_episode(9003);
    assert!(seeds >= 6, "{seeds} seeds");
    assert!(mowing > 0, "no attack while walking");
}

/// Seeds 9018 and 9019 spawn in a wooded mountain and a taiga without tall
/// grass near. The explorer once dug into every rise on its legs (a leg aims
/// at the feet's height, so a step up was tunnelled), gave each leg up and
/// turned back, circling its spawn for two minutes with no seed. Legs now
/// aim a block up (a rise is climbed), keep one bearing across the land and
/// give way after a little digging.
#[test]
fn fair_expert_leaves_a_wooded_mountain_spawn_for_grass() {
    for (seed, least) in [(9018, 3), (9019, 8)] {
        let (seeds, _) = seeds_episode(seed);
        assert!(seeds >= least, "seed {seed}: {seeds} seeds");
    }
}

/// A zombie behind a wall within arm's reach: the expert once aimed at it
/// and waited (the crosshair met the wall, so it never struck) for as long
/// as the zombie stood there — 30,000 ticks in one gold run. A mob that a
/// solid block hides is not fought; one in the open is.
#[test]
fn expert_does_not_fight_a_mob_behind_a_wall() {
    use crate::skills::attack_mob;
    use gw_world::data::b;
    use gw_world::world::MobKind;
    let mut w = task_world(5);
    let f = crate::skills::motor::feet(&w);
    // Clear a 3-block strip east of the player, then wall its middle.
    for dx in 1..=3 {
        for dy in 0..=2 {
            w.terrain.set(f[0] + dx, f[1] + dy, f[2], b::AIR);
        }
        w.terrain.set(f[0] + dx, f[1] - 1, f[2], b::STONE);
    }
    let p = w.player.body.pos;
    let id = w.spawn_mob(MobKind::Zombie, [p[0] + 2.2, p[1], p[2]]);
    let mob = |w: &gw_world::World| w.mobs.iter().find(|m| m.id == id).unwrap().clone();
    assert!(attack_mob(&w, &mob(&w)).is_some(), "a zombie in the open");
    for dy in 0..=1 {
        w.terrain.set(f[0] + 1, f[1] + dy, f[2], b::STONE);
    }
    assert!(attack_mob(&w, &mob(&w)).is_none(), "a zombie behind stone");
}

/// Table 2's seeds row on unseen seeds (mean over seeds 9040–9069, which no
/// change was tuned on; Optimus-2's GOAP published 8.5). A measurement, run
/// with `cargo test --workspace --locked --lib seeds_per_episode -- --ignored
/// --nocapture` (the `atomic_items` example measures every atomic task the
/// same way: `atomic_items 30 9040 atomic_seeds`).
#[test]
#[ignore = "measurement: thirty two-minute episodes"]
fn seeds_per_episode_on_unseen_seeds() {
    let per: Vec<u32> = (9040..9070).map(|s| seeds_episode(s).0).collect();
    let mean = per.iter().sum::<u32>() as f64 / per.len() as f64;
    println!("seeds per episode {mean:.2} {per:?}");
    assert!(mean >= 8.5, "{mean} {per:?}");
}

/// A fresh stack of `count` of the named item, for filling slots by hand.
fn stack(name: &str, count: u8) -> Option<gw_world::inventory::Stack> {
    Some(gw_world::inventory::Stack {
        item: gw_world::data().item(name),
        count,
        wear: 0,
    })
}

/// A full hotbar with nothing to build with: a stack of an item no recipe
/// takes (wheat seeds) goes, so a tool can be crafted into its slot — the
/// expert once re-planned on "no hotbar slot free" until the time ran out.
/// And a swimmer can build into the water over a solid bed.
#[test]
fn a_full_hotbar_drops_what_no_recipe_takes_and_builds_into_water() {
    use crate::skills::free_hotbar_slot;
    use gw_world::data::b;
    let mut w = task_world(5);
    let kept = [
        "oak_planks",
        "stick",
        "coal",
        "iron_ingot",
        "oak_log",
        "furnace",
        "crafting_table",
        "stone_pickaxe",
    ];
    for (i, name) in kept.iter().enumerate() {
        w.player.inventory.slots[i] = stack(name, 1);
    }
    w.player.inventory.slots[8] = stack("wheat_seeds", 1);
    let a = free_hotbar_slot(&w).expect("the seeds can go");
    assert!(a.drop || a.hotbar == Some(9), "{a:?}");
    w.player.inventory.slots[8] = stack("oak_planks", 1);
    assert!(free_hotbar_slot(&w).is_none(), "nothing here may go");

    // Water all around the player's feet and head, a stone bed below.
    let f = crate::skills::motor::feet(&w);
    for dx in -2..=2 {
        for dz in -2..=2 {
            w.terrain.set(f[0] + dx, f[1] - 1, f[2] + dz, b::STONE);
            for dy in 0..=2 {
                w.terrain.set(f[0] + dx, f[1] + dy, f[2] + dz, b::WATER);
            }
        }
    }
    let (_, cell) = crate::skills::motor::place_spot(&w).expect("a spot in the water");
    assert_eq!(crate::skills::motor::block(&w, cell), b::WATER);
}

/// An inventory full of cobblestone deep in a mine: crafting and new ores
/// need free slots, so the expert turns to the open side and throws the
/// surplus away (a stack is kept), and what it threw is not pulled back.
#[test]
fn a_full_inventory_throws_surplus_cobblestone_away() {
    use gw_world::inventory::SLOTS;
    let mut w = task_world(5);
    let d = gw_world::data();
    w.player.inventory.slots[0] = stack("iron_pickaxe", 1);
    w.player.inventory.slots[1] = stack("crafting_table", 1);
    for i in 2..SLOTS {
        w.player.inventory.slots[i] = stack("cobblestone", 64);
    }
    let cobble = d.item("cobblestone");
    let mut ex = Expert::new("diamond", 1);
    let mut freed_at = None;
    for t in 0..400 {
        let a = ex.act(&w);
        w.step(&a);
        if w.player.inventory.free_slots() >= 3 {
            freed_at = Some(t);
            break;
        }
    }
    let t = freed_at.expect("slots freed within 400 ticks");
    // Three stacks thrown, one item a tick, after a turn of at most 180°.
    assert!((192..192 + 40).contains(&t), "freed at tick {t}");
    assert!(ex.log.iter().any(|l| l.contains("throwing surplus away")));
    let thrown = w
        .items
        .iter()
        .filter(|it| it.thrown && it.item == cobble)
        .count();
    assert_eq!(thrown, 192, "thrown items lying around");
    assert_eq!(w.player.inventory.count(cobble), 34 * 64 - 192);
    // The pickaxe and the table stay.
    assert_eq!(w.player.inventory.count(d.item("iron_pickaxe")), 1);
    assert_eq!(w.player.inventory.count(d.item("crafting_table")), 1);
}

/// A strip-mining leg that stops drawing nearer its end is left for the
/// next one. On seed 9300 the diamond tunnel ran into a drop to a cave at
/// (-73, 13, 27): the expert stepped back and forth at its edge from tick
/// 6,300 until the stall rule re-planned 2,400 ticks later, and the same
/// heading led it back there. While it mines for diamonds in the first
/// 9,000 ticks it may not stay within three blocks of one spot for 1,000.
#[test]
fn a_strip_mining_leg_that_draws_no_nearer_is_left() {
    let mut w = task_world(9300);
    let mut ex = Expert::new("diamond_chestplate", 1);
    // Where the player was at each tick spent mining for diamonds.
    let mut at: Vec<(u64, [f64; 3])> = Vec::new();
    for _ in 0..9000 {
        if w.player.dead {
            w.respawn();
        }
        let a = ex.act(&w);
        w.step(&a);
        if ex.current().is_some_and(|s| s.item == "diamond") {
            at.push((w.tick, w.player.body.pos));
        }
    }
    assert!(at.len() > 3000, "mined for diamonds {} ticks", at.len());
    const SPAN: usize = 1000;
    for t in SPAN..at.len() {
        let (t0, o) = at[t - SPAN];
        if at[t].0 - t0 != SPAN as u64 {
            continue; // not one stretch of mining
        }
        let far = at[t - SPAN..=t]
            .iter()
            .map(|(_, p)| (p[0] - o[0]).abs().max((p[2] - o[2]).abs()))
            .fold(0.0, f64::max);
        assert!(
            far >= 3.0,
            "stuck near {o:?} from tick {t0} to {}: {:?}",
            at[t].0,
            ex.log
        );
    }
}

/// With the main inventory full of cobblestone (out of the hand's reach)
/// and nothing surplus in the hotbar, the diamond chestplate could not be
/// crafted: eight of nine diamonds leave their stack, and the chestplate
/// found no slot (seed 10070 was refused until its time ran out). The
/// expert throws away what the task never uses (the gold ore) and crafts.
#[test]
fn a_full_inventory_gives_up_what_the_task_never_uses_to_craft() {
    use gw_world::inventory::SLOTS;
    let mut w = task_world(5);
    let d = gw_world::data();
    let hotbar = [
        ("iron_pickaxe", 1),
        ("crafting_table", 1),
        ("oak_planks", 6),
        ("stick", 2),
        ("redstone", 19),
        ("diamond", 9),
        ("gold_ore", 1),
        ("iron_ore", 10),
        ("coal", 3),
    ];
    for (i, (n, c)) in hotbar.iter().enumerate() {
        w.player.inventory.slots[i] = stack(n, *c);
    }
    for i in hotbar.len()..SLOTS {
        w.player.inventory.slots[i] = stack("cobblestone", 64);
    }
    let mut ex = Expert::new("diamond_chestplate", 1);
    for _ in 0..600 {
        if ex.done(&w) {
            break;
        }
        let a = ex.act(&w);
        w.step(&a);
    }
    assert!(ex.done(&w), "no chestplate after 600 ticks: {:?}", ex.log);
    let count = |n: &str| w.player.inventory.count(d.item(n));
    assert_eq!(count("gold_ore"), 0);
    assert_eq!(count("diamond"), 1);
    // Only the gold ore had to go.
    assert_eq!(count("redstone"), 19);
    assert_eq!(count("iron_ore"), 10);
    assert_eq!(count("cobblestone"), 27 * 64);
}

/// Placing a block aims at a face through camera moves of whole bins. On
/// seed 10102 (tick 30,000 of a diamond chestplate run) the face lay 0.29°
/// from one reachable yaw and 0.33° from the next, neither of which hit
/// it, and the expert swung between the two for the rest of the episode.
/// The same spot, rebuilt block for block: a block is placed within 60
/// ticks.
#[test]
fn placing_a_block_never_swings_between_two_aims() {
    use gw_world::data::b;
    // Layers from 2 below the feet up, rows from z-3 to z+3, columns from
    // x-3 to x+3: stone, dirt, redstone and iron ore, air.
    const SPOT: [[&str; 7]; 6] = [
        [
            ".ssssss", "..sssss", "...ssss", "s..ssss", "ss...ss", "ssss..s", "ssssssi",
        ],
        [
            "sssssss", ".ssssss", "s.sssss", "sr.ssss", "sssssss", "srsssss", "ssssssi",
        ],
        [
            "..sssss", "...ssss", "s.d.sss", "rr..sss", "srsssss", "srsssss", "sssrsss",
        ],
        [
            "..sssss", "s..ssss", "i.d.sss", "isd.sss", "issssss", "sssssss", "sssrsss",
        ],
        [
            "sssssss", "sssssss", "sssssss", "issssss", "issssss", "sssssss", "ssrrsss",
        ],
        [
            "sssssss", "sssssss", "sssssss", "sssssss", "issssss", "sssssss", "sssssss",
        ],
    ];
    let mut w = task_world(5);
    let s = crate::skills::motor::feet(&w);
    let f = [s[0], 20, s[2]];
    for (l, rows) in SPOT.iter().enumerate() {
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let v = match ch {
                    's' => b::STONE,
                    'd' => b::DIRT,
                    'r' => b::REDSTONE_ORE,
                    'i' => b::IRON_ORE,
                    _ => b::AIR,
                };
                w.terrain.set(
                    f[0] + c as i32 - 3,
                    f[1] + l as i32 - 2,
                    f[2] + r as i32 - 3,
                    v,
                );
            }
        }
    }
    w.player.body.pos = [
        f[0] as f64 + 0.41039939871199,
        20.0,
        f[2] as f64 + 0.11727529405243,
    ];
    w.player.body.vel = [0.0; 3];
    w.player.yaw = 74.42854082584381;
    w.player.pitch = 55.39239311218262;
    w.player.inventory.slots[0] = stack("dirt", 8);
    w.player.selected = 0;
    let dirt = gw_world::data().item("dirt");
    let mut yaws = Vec::new();
    let placed = (0..60).any(|_| {
        let a = crate::skills::motor::place_nearby(&w, 0).unwrap_or_default();
        w.step(&a);
        yaws.push(w.player.yaw);
        w.player.inventory.count(dirt) < 8
    });
    assert!(placed, "no block placed; yaws {yaws:?}");
}

/// A ledge underground at y 20: stone floor to z+0, then a drop of two
/// blocks onto `pit` (lava or stone) from z+1 on; the player stands at
/// the ledge's cell facing the drop (+z).
fn ledge_over(pit: gw_world::data::BlockId) -> gw_world::World {
    use gw_world::data::b;
    underground(-4..=4, 14..=26, -4..=8, |x, y, z| {
        let inside = x.abs() <= 2 && (-2..=6).contains(&z);
        let open = inside && (20..=22).contains(&y) || inside && z >= 1 && (18..=22).contains(&y);
        if open {
            b::AIR
        } else if inside && z >= 1 && y == 17 {
            pit
        } else {
            b::STONE
        }
    })
}

/// Seed 5's world with the blocks around the spawn column rebuilt at depth:
/// `block(x, y, z)` for every offset `x`, `z` from the spawn column and
/// height `y` in the ranges; the player then stands at y 20 on the spawn
/// column, facing +z, level, still.
fn underground(
    xs: std::ops::RangeInclusive<i32>,
    ys: std::ops::RangeInclusive<i32>,
    zs: std::ops::RangeInclusive<i32>,
    block: impl Fn(i32, i32, i32) -> gw_world::data::BlockId,
) -> gw_world::World {
    let mut w = task_world(5);
    let f = crate::skills::motor::feet(&w);
    for x in xs {
        for z in zs.clone() {
            for y in ys.clone() {
                assert!(w.terrain.set(f[0] + x, y, f[2] + z, block(x, y, z)));
            }
        }
    }
    w.player.body.pos = [f[0] as f64 + 0.5, 20.0, f[2] as f64 + 0.5];
    w.player.body.vel = [0.0; 3];
    w.player.yaw = 0.0;
    w.player.pitch = 0.0;
    w.step(&gw_world::Action::noop());
    w
}

/// Walking off a ledge over a lava pool is refused, the drift of a
/// side-step included, while the same drop onto stone is walked down.
#[test]
fn the_expert_never_walks_off_a_ledge_into_lava() {
    use crate::skills::motor::keep_off_lava;
    use gw_world::Action;
    use gw_world::data::b;
    let walk = |k: u64| Action {
        forward: true,
        left: k % 7 < 2,
        right: k % 7 == 4,
        sprint: k.is_multiple_of(5),
        yaw: if k % 11 < 3 { 10.0 } else { 0.0 },
        ..Default::default()
    };
    // Without the guard the walk ends in the lava: the scene is a real trap.
    let mut w = ledge_over(b::LAVA);
    assert!((0..60).any(|k| {
        w.step(&walk(k));
        w.player.body.in_lava
    }));
    let mut w = ledge_over(b::LAVA);
    let y0 = w.player.body.pos[1];
    for k in 0..200 {
        let a = keep_off_lava(&w, walk(k));
        w.step(&a);
        assert!(!w.player.body.in_lava, "in lava at tick {k}");
    }
    assert_eq!(w.player.body.pos[1], y0, "still on the ledge");
    // Over stone the same walk goes down the drop.
    let mut w = ledge_over(b::STONE);
    for k in 0..60 {
        let a = keep_off_lava(&w, walk(k));
        w.step(&a);
    }
    assert_eq!(w.player.body.pos[1], y0 - 2.0, "walked down onto the stone");
}

/// The floor under the feet is never mined when lava lies below it, nor
/// any block below the feet with lava under it; over stone it is.
#[test]
fn a_floor_over_lava_is_not_mined() {
    use crate::skills::motor::{add, breakable, feet};
    use gw_world::data::b;
    let mut w = ledge_over(b::LAVA);
    let f = feet(&w);
    let below = add(f, [0, -1, 0]);
    assert!(breakable(&w, below), "stone over stone");
    w.terrain.set(below[0], below[1] - 1, below[2], b::LAVA);
    assert!(!breakable(&w, below), "stone over lava");
    // Two blocks of stone and then lava: the lower one is refused too.
    w.terrain.set(below[0], below[1] - 1, below[2], b::STONE);
    w.terrain.set(below[0], below[1] - 2, below[2], b::LAVA);
    assert!(breakable(&w, below));
    assert!(!breakable(&w, add(below, [0, -1, 0])));
    // A wall at head height is still dug.
    assert!(breakable(&w, add(f, [-3, 1, 0])));
}

/// A labeller whose player turned to another log in reach (DAgger): with
/// `aim_at_crosshair` the expert mines the log in front; without, it turns
/// back to the one it had chosen.
#[test]
fn a_log_under_the_crosshair_becomes_the_target_when_asked() {
    use gw_world::data::b;
    let mut w = underground(-5..=5, 18..=25, -5..=9, |x, y, z| {
        let inside = x.abs() <= 3 && (-3..=8).contains(&z) && (20..=23).contains(&y);
        if !inside {
            b::STONE
        } else if (x, z) == (0, 7) || (x.abs(), z) == (2, 0) {
            b::OAK_LOG
        } else {
            b::AIR
        }
    });
    let mut ex = Expert::new("logs", 1);
    // Facing +z: the log seven blocks ahead is seen and chosen.
    let _ = ex.act(&w);
    // Turned a quarter: a log two blocks to the side is under the crosshair.
    w.player.yaw = 90.0;
    w.step(&gw_world::Action::noop());
    let t = w.target().expect("a block ahead");
    assert_eq!(t.block, b::OAK_LOG);
    let mut led = ex.clone();
    let own = ex.act(&w);
    assert!(!own.attack, "{own:?}");
    assert!(led.aim_at_crosshair(&w));
    let a = led.act(&w);
    assert!(a.attack && !a.forward, "{a:?}");
}
