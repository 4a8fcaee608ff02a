use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "0ed885ece2ad2d4a8e01c62a8f58eab236a231bb29060ae66ccdbae6c6c008c4"),
    deterministic: ("22_05", 40),
    expert_solves_all: 4,
    report_scores: (1..=10, 1..=10, &IDS, 22),
}

fn game(seed: u64, level: u32) -> Ovo {
    let mut g = Ovo::new();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g
}

fn run(w: &mut World, ticks: u32) {
    for _ in 0..ticks {
        w.tick();
    }
}

#[test]
fn three_levels_parse_with_start_flag_and_coins() {
    assert_eq!(levels().len(), 3);
    for l in levels() {
        assert_eq!(l.coins_total, 3, "level {}", l.number);
        assert_eq!(l.map.at(l.exit.0, l.exit.1, b'.'), b'E');
    }
    let st = game(1, 2).state().to_value();
    assert_eq!(st["game_state"]["level"], 2);
    assert_eq!(st["metrics"]["level_number"], 2);
    assert_eq!(st["game_state"]["coins"]["total_level"], 3);
    assert_eq!(st["metrics"]["coins_total"], 9);
    // Saw phases differ between seeds.
    let phases = |g: &Ovo| -> Vec<i64> {
        g.world()
            .saws
            .iter()
            .map(|s| (s.phase * 1e6) as i64)
            .collect()
    };
    assert_ne!(phases(&game(1, 3)), phases(&game(2, 3)));
    assert_eq!(phases(&game(4, 3)), phases(&game(4, 3)));
}

#[test]
fn a_wall_jump_climbs_higher_than_a_jump() {
    // Level 1: the wall at column 28 rises four tiles above the floor.
    let mut w = World::new(1, Vec::new());
    w.body.aabb.x = 26.0;
    w.key("ArrowRight", true);
    w.key("ArrowUp", true);
    let mut top = w.body.aabb.bottom();
    run(&mut w, 40);
    w.key("ArrowUp", false);
    run(&mut w, 40);
    assert!(w.on_wall == 1 || w.body.on_ground, "at the wall");
    top = top.min(w.body.aabb.bottom());
    let plain = 13.0 - top;
    assert!(plain < 3.0, "a plain jump reaches {plain}");
    // Jump again off the wall, then steer back to it.
    let mut w2 = World::new(1, Vec::new());
    w2.body.aabb.x = 26.0;
    w2.key("ArrowRight", true);
    w2.key("ArrowUp", true);
    run(&mut w2, 50);
    w2.key("ArrowUp", false);
    assert_eq!(w2.on_wall, 1, "touching the wall in the air");
    w2.key("ArrowUp", true);
    run(&mut w2, 1);
    assert!(w2.body.vx < 0.0, "kicked away from the wall");
    let mut best = f64::INFINITY;
    for _ in 0..120 {
        w2.tick();
        best = best.min(w2.body.aabb.bottom());
    }
    assert!(
        13.0 - best > plain + 1.5,
        "wall jump reached {}",
        13.0 - best
    );
}

#[test]
fn slides_pass_under_a_one_tile_gap_that_stops_a_runner() {
    // Level 2: the ceiling from column 15 leaves only row 12 open.
    let mut w = World::new(2, Vec::new());
    w.body.aabb.x = 12.0;
    w.key("ArrowRight", true);
    run(&mut w, 200);
    assert!(w.body.aabb.right() <= 15.0 + 1e-9, "stopped at the ceiling");
    let mut w = World::new(2, Vec::new());
    w.body.aabb.x = 11.5;
    w.key("ArrowRight", true);
    run(&mut w, 30);
    w.key("ArrowDown", true);
    run(&mut w, 5);
    assert!(w.sliding && (w.body.aabb.h - LOW_H).abs() < 1e-9);
    run(&mut w, 800);
    assert!(
        w.body.aabb.x > 24.0,
        "slid and crawled through: {}",
        w.body.aabb.x
    );
    assert_eq!(w.coins, 1, "the tunnel coin");
    w.key("ArrowDown", false);
    run(&mut w, 5);
    assert!(
        !w.low() && (w.body.aabb.h - STAND_H).abs() < 1e-9,
        "stood up"
    );
}

#[test]
fn a_smash_breaks_cracked_floor() {
    // Level 2: cracked tiles at columns 35-37, row 8, over a chamber.
    let mut w = World::new(2, Vec::new());
    w.body.aabb.x = 35.8;
    w.body.aabb.y = 8.0 - STAND_H;
    run(&mut w, 5);
    assert!(w.body.on_ground, "cracked floor holds a runner");
    w.key("ArrowUp", true);
    run(&mut w, 30);
    w.key("ArrowUp", false);
    w.key("ArrowDown", true);
    assert!(w.smashing);
    run(&mut w, 200);
    assert!(w.map.find(b'%').is_none(), "all three cracked tiles broke");
    assert!(
        (w.body.aabb.bottom() - 13.0).abs() < 1e-9,
        "fell into the chamber"
    );
    assert!(!w.smashing);
}

#[test]
fn spikes_send_the_runner_back_and_the_flag_starts_the_next_level() {
    let mut g = game(1, 1);
    g.world.body.aabb.x = 10.5;
    g.world.body.aabb.y = 9.0;
    g.advance(600);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["deaths"], 1);
    assert_eq!(g.world().body.aabb.x, levels()[0].start.0);
    assert_eq!(st["terminal"]["isTerminal"], false, "no lives to lose");
    g.world.body.aabb.x = 56.5;
    g.advance(100);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], 2);
    assert_eq!(st["game_state"]["score"], LEVEL_POINTS);
    assert_eq!(g.world().level, 2);
    // Finishing the last level wins.
    let mut g = game(1, 3);
    g.world.body.aabb.x = 74.5;
    g.advance(100);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], 4);
    assert_eq!(st["terminal"]["outcome"], "success");
}

const IDS: [&str; 9] = [
    "wait",
    "move_left",
    "move_right",
    "jump",
    "jump_right",
    "jump_left",
    "smash_ground",
    "slide_right",
    "slide_left",
];

#[test]
fn random_does_worse_than_the_expert() {
    for task in ["22_01", "22_02", "22_03", "22_04", "22_05"] {
        let wins = testkit::random_policy_wins(ID, task, 1..=5, &IDS, 22);
        assert!(wins <= 1, "{task}: random won {wins}/5");
    }
}

#[test]
fn expert_replans_after_someone_else_played() {
    let mut rng = gw_core::Rng::new(5, 8);
    let mut step = 0;
    let r = testkit::play(ID, "22_03", 12, |s| {
        step += 1;
        if step <= 8 {
            Some(serde_json::json!({"action": IDS[rng.index(IDS.len())]}))
        } else {
            Some(s.expert_payload())
        }
    });
    assert!(r.success, "{r:?}");
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "22_03", 1, 0, "/tmp/ovo_start.png");
    testkit::save_frame_after(ID, "22_03", 2, 25, "/tmp/ovo_mid.png");
}

/// Neighbouring wall tiles meet without a seam wherever the camera stands:
/// both pixel columns at every shared edge are wall, at any sub-tile
/// scroll.
#[test]
fn wall_tiles_meet_without_seams() {
    let wall = [40u8, 44, 52];
    let mut g = game(700, 1);
    let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
    let mut checked = 0;
    for k in 0..12 {
        g.world.body.aabb.x += 0.37 + k as f64 * 0.011;
        g.world.body.aabb.y -= 0.013;
        g.render(&mut pm);
        let cam = camera(&g.world);
        let (x0, y0, x1, y1) = cam.visible_tiles();
        for y in y0..y1 {
            for x in x0..x1 {
                if g.world.map.at(x, y, b'.') != b'#' || g.world.map.at(x + 1, y, b'.') != b'#' {
                    continue;
                }
                let (sx, sy) = cam.to_screen((x + 1) as f64, y as f64 + 0.5);
                let (px, py) = (sx.round() as i64, sy.round() as i64);
                if !(1..1279).contains(&px) || !(60..719).contains(&py) {
                    continue;
                }
                for col in [px - 1, px] {
                    let i = ((py * 1280 + col) * 4) as usize;
                    assert_eq!(
                        &pm.data()[i..i + 3],
                        wall,
                        "seam at tile ({x}, {y}), column {col}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
}
