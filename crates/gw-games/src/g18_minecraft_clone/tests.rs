use super::*;
use crate::testkit;
use gw_core::Game;

crate::game_contract! {
    golden_frame: (1, 10, "92bc5aa376faa7b562369c3c8244e23bf2c577eb52ff42afbe0a14778473caff"),
    deterministic: ("18_01", 25),
    // Every frame of an expert play (mining, drops, the target outline and
    // cracks) and of a random one, hashed: pins the pixels across many states
    // (re-recorded when light, mob models and item icons came in, and for the
    // rasteriser: rays into chunks not loaded yet end in fully fogged sky, not
    // in sky fogged at the distance where they enter the unloaded chunk; and
    // when leaves came to be drawn opaque, as fast graphics draws them).
    whole_plays: (("18_02", 1, 60), ("18_03", 4, 60), &CONTROLS,
        ["3ef8a240611efe44a83c3b611f3e2b85ddc7e94b869e85672dd63798db9019d6",
         "8dc50320af7affdbb024c037d724c1d822fcddcc3f4c983f56a85ec303155b3e"]),
}

fn game(seed: u64, resource: &str) -> MinecraftClone {
    let mut g = MinecraftClone::new();
    let mut options = serde_json::Map::new();
    options.insert("resource".into(), json!(resource));
    g.init(&GameConfig {
        seed,
        options,
        ..Default::default()
    });
    g
}

#[test]
fn controls_move_look_mine_and_select() {
    let mut g = game(2, "dirt");
    let p0 = g.world.player.body.pos;
    let yaw0 = g.world.player.yaw;
    g.handle_event(&InputEvent::MouseMove { x: 740.0, y: 360.0 });
    assert!(((g.world.player.yaw - yaw0).rem_euclid(360.0) - 20.0).abs() < 1e-9);
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowUp".into(),
    });
    g.advance(500);
    g.handle_event(&InputEvent::KeyUp {
        key: "ArrowUp".into(),
    });
    let p1 = g.world.player.body.pos;
    assert!(libm::hypot(p1[0] - p0[0], p1[2] - p0[2]) > 0.5, "walked");
    g.handle_event(&InputEvent::KeyDown { key: "3".into() });
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["inventory"]["selected_slot"], 3);
    assert_eq!(st["metrics"]["held_selected_item_type"], "iron_shovel");
    assert_eq!(g.world.player.inventory.slots[4].map(|s| s.count), Some(1));
    assert_eq!(st["game_state"]["inventory"]["item_gains"]["dirt"], 0);
}

/// The expert solves every task in at least four of seeds 1..5.
#[test]
fn expert_solves_all_tasks() {
    testkit::assert_expert_solves_all(ID, 4);
}

const CONTROLS: [&str; 12] = [
    "move_forward",
    "move_backward",
    "move_left",
    "move_right",
    "jump",
    "look_left",
    "look_right",
    "look_up",
    "look_down",
    "mine_target",
    "place_block",
    "select_slot_2",
];

#[test]
fn random_play_falls_short() {
    for task in ["18_02", "18_05"] {
        let results = testkit::play_random(ID, task, 1..=3, &CONTROLS, 99);
        for r in results {
            assert!(!r.success, "random play reached {} on {task}", r.best_score);
        }
    }
}

#[test]
#[ignore = "prints expert scores for tuning"]
fn tuning_report() {
    testkit::expert_report(ID, 1..=5);
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "18_02", 1, 10, "/tmp/mc.png");
}

#[test]
#[ignore = "prints an expert trace for debugging"]
fn trace_expert() {
    let task = std::env::var("T18").unwrap_or("18_02".into());
    let seed: u64 = std::env::var("S18")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    for (i, st) in testkit::expert_states(ID, &task, seed, 100)
        .iter()
        .enumerate()
    {
        let g = &st["game_state"];
        println!(
            "{i:3} pos {:?} yaw {:.0} pitch {:.0} tgt {} gains {} {}",
            g["player"]["position"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| (v.as_f64().unwrap() * 10.0).round() / 10.0)
                .collect::<Vec<_>>(),
            g["player"]["yaw"].as_f64().unwrap(),
            g["player"]["pitch"].as_f64().unwrap(),
            g["environment"]["targeted_block"],
            g["inventory"]["item_gains"],
            st["terminal"]
        );
    }
}

#[test]
#[ignore = "prints expert success per task on seeds 1..15"]
fn sr_report() {
    let tasks = std::env::var("T18").unwrap_or("18_01,18_02,18_03,18_04,18_05".into());
    for task in tasks.split(',') {
        let res: Vec<testkit::PlayResult> = (1..=15)
            .map(|s| testkit::play_expert(ID, task, s))
            .collect();
        let r: Vec<f64> = res.iter().map(|x| x.best_score).collect();
        let w15 = res.iter().filter(|x| x.success).count();
        let w5 = res[..5].iter().filter(|x| x.success).count();
        println!("{task}: 1..5 {w5}/5, 1..15 {w15}/15 scores {r:?}");
    }
}

/// `exposed_near` as first written: every cell of the cube and its six
/// neighbours read one by one.
fn exposed_near_by_cells(t: &Terrain, c: [i32; 3], r: i32, kinds: &[BlockId]) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for x in c[0] - r..=c[0] + r {
        for y in (c[1] - r).max(1)..=(c[1] + r).min(126) {
            for z in c[2] - r..=c[2] + r {
                if kinds.contains(&t.get(x, y, z)) {
                    let open = [
                        [1, 0, 0],
                        [-1, 0, 0],
                        [0, 1, 0],
                        [0, -1, 0],
                        [0, 0, 1],
                        [0, 0, -1],
                    ]
                    .iter()
                    .any(|d| t.get(x + d[0], y + d[1], z + d[2]) == b::AIR);
                    if open {
                        out.push([x, y, z]);
                    }
                }
            }
        }
    }
    out
}

/// The column-bit `exposed_near` lists the same cells in the same order as
/// reading every cell: at the surface, in caves, at the world's floor and
/// top, across unloaded chunks, after digging, and for air and the
/// unloaded marker among the kinds.
#[test]
fn exposed_near_matches_reading_every_cell() {
    let mut g = game(3, "stone");
    let mut rng = gw_core::Rng::new(3, 18);
    let eye = g.world.eye();
    let e = [eye[0] as i32, eye[1] as i32, eye[2] as i32];
    // Dig a few holes so edited columns are part of it.
    for k in 0..12 {
        g.world
            .terrain
            .set(e[0] + k % 5 - 2, e[1] - 1 - k / 5, e[2] + 2, b::AIR);
    }
    let t = &g.world.terrain;
    let kind_sets: [&[BlockId]; 6] = [
        &target_blocks("stone"),
        &target_blocks("dirt"),
        &[b::IRON_ORE, b::COAL_ORE],
        &target_blocks("wood_log"),
        &[b::AIR, b::WATER],
        &[gw_world::terrain::UNLOADED, b::STONE],
    ];
    let mut found = 0;
    for i in 0..60 {
        let c = match i {
            0 => e,
            // The world's floor and top.
            1 => [e[0], 2, e[2]],
            2 => [e[0], 125, e[2]],
            // Far out, where chunks are not loaded.
            3 => [e[0] + 150, e[1], e[2]],
            _ => [
                e[0] + rng.range_i32(-90, 90),
                rng.range_i32(-5, 132),
                e[2] + rng.range_i32(-90, 90),
            ],
        };
        let r = [0, 1, 4, 6, 8][i % 5];
        for kinds in kind_sets {
            let fast = exposed_near(t, c, r, kinds);
            assert_eq!(
                fast,
                exposed_near_by_cells(t, c, r, kinds),
                "{c:?} r {r} {kinds:?}"
            );
            found += fast.len();
        }
    }
    assert!(found > 2_000, "the cubes hold exposed blocks ({found})");
}

/// The expert on seeds it was never tuned on (from 700): measured 20/20 on
/// 18_04 (700..720) and 18/20 on 18_03 (all of 700..706) once it dug through the soil hiding a
/// mountain's stone within reach and took the quickest tool for a block in
/// its way (before, one seed in forty never found stone under the soil).
///
/// 18_05 (iron from a surface start: dig a shaft down, then tunnel along the
/// view rays to the ore): measured 31/31 on 700..730 and 125/125 on 1..125.
/// The default test run plays four seeds of each (the longest test of the
/// crate otherwise); the whole sweep is `expert_holds_on_untuned_seeds_full`.
#[test]
fn expert_holds_on_untuned_seeds() {
    testkit::assert_expert_wins(ID, "18_04", 700..704, 4);
    testkit::assert_expert_wins(ID, "18_03", 700..703, 3);
    testkit::assert_expert_wins(ID, "18_05", 704..708, 4);
}

/// The full sweep (about two minutes in a debug build): `cargo test
/// --workspace expert_holds_on_untuned_seeds_full -- --ignored`.
#[test]
#[ignore = "slow sweep; run with --ignored (see the doc comment)"]
fn expert_holds_on_untuned_seeds_full() {
    testkit::assert_expert_wins(ID, "18_04", 700..712, 11);
    testkit::assert_expert_wins(ID, "18_03", 700..706, 5);
    testkit::assert_expert_wins(ID, "18_05", 700..712, 11);
}
