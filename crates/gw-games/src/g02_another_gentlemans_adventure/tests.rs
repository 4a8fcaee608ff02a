use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "9e9d0e1804d5943234aa361bf95aba1633df26348d3c5f9f5d5ec722e94cda1f"),
    deterministic: ("02_05", 30),
    expert_solves_all: 4,
    report_scores: (1..=10, 1..=10, &IDS, 2),
}

const IDS: [&str; 6] = [
    "wait",
    "move_left",
    "move_right",
    "jump",
    "jump_left",
    "jump_right",
];

fn game(seed: u64) -> Gentleman {
    let mut g = Gentleman::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

/// A world on seed 1's level with the gentleman at `(x, y)` and no beetles.
fn world_at(x: f64, y: f64) -> World {
    let mut w = game(1).world.clone();
    w.beetles.clear();
    w.gent.aabb.x = x;
    w.gent.aabb.y = y;
    w
}

#[test]
fn levels_are_built_from_sections_per_seed() {
    let g = game(1);
    let l = &g.level;
    assert_eq!(l.map.height(), ROWS);
    assert_eq!(l.sections.len(), MIDDLE_SECTIONS + 2);
    assert_eq!(l.sections[0], "start");
    assert_eq!(l.sections.last().unwrap(), "end");
    assert!(l.coins_total >= 8, "{} coins", l.coins_total);
    assert!(l.map.find(b'm').is_none() && l.map.find(b'D').is_none());
    assert_eq!(game(1).level, game(1).level);
    assert_ne!(game(1).level.sections, game(3).level.sections);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["score"], 0);
    assert_eq!(st["metrics"]["coins_total"], l.coins_total);
    assert_eq!(st["metrics"]["session_coins_collected"], 0);
}

#[test]
fn walking_and_jumping_have_the_documented_speed_and_height() {
    let mut g = game(2);
    let x0 = g.world.gent.aabb.x;
    testkit::hold_key(&mut g, "ArrowRight", 600);
    assert!((g.world.gent.vx - WALK_SPEED).abs() < 1e-9);
    assert!(g.world.gent.aabb.x - x0 > 2.5);
    g.advance(600);
    assert_eq!(g.world.gent.vx, 0.0, "friction stops him");
    let y0 = g.world.gent.aabb.y;
    let mut top = y0;
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowUp".into(),
    });
    for _ in 0..80 {
        g.advance(TICK_MS);
        top = top.min(g.world.gent.aabb.y);
    }
    assert!((y0 - top - 2.8).abs() < 0.1, "jump height {}", y0 - top);
}

#[test]
fn golden_blocks_give_a_coin_when_hit_from_below() {
    let w0 = world_at(0.0, 0.0);
    let (bx, by) = w0.map.find(b'?').expect("seed 1 has a golden block");
    let mut w = world_at(bx as f64 + 0.1, by as f64 + 2.6);
    for _ in 0..20 {
        w.tick();
    }
    assert!(w.gent.on_ground, "stands under the block");
    w.press_jump();
    for _ in 0..60 {
        w.tick();
    }
    assert_eq!(w.coins, 1);
    assert_eq!(w.map.at(bx, by, b'.'), b'E');
    w.press_jump();
    for _ in 0..60 {
        w.tick();
    }
    assert_eq!(w.coins, 1, "a spent block gives nothing");
}

#[test]
fn stomps_squash_beetles_and_side_touches_end_the_attempt() {
    let mut w = world_at(3.0, 6.0);
    let mut body = Body::new(3.0, 11.0 - BEETLE.1, BEETLE.0, BEETLE.1);
    body.on_ground = true;
    w.beetles = vec![Beetle { body, alive: true }];
    for _ in 0..100 {
        w.tick();
    }
    assert!(!w.beetles[0].alive && w.stomps == 1 && w.death.is_none());
    let mut w = world_at(3.0, 9.6);
    let mut body = Body::new(6.0, 11.0 - BEETLE.1, BEETLE.0, BEETLE.1);
    body.vx = -BEETLE_SPEED;
    w.beetles = vec![Beetle { body, alive: true }];
    for _ in 0..200 {
        w.tick();
    }
    assert_eq!(w.death, Some(Death::Beetle));
}

#[test]
fn a_death_ends_the_attempt_and_banks_session_coins() {
    let mut g = game(1);
    g.world.coins = 2;
    g.world.gent.aabb.y = 14.0;
    g.advance(TICK_MS);
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["outcome"], "fail");
    assert_eq!(st["metrics"]["session_coins_collected"], 2);
    assert_eq!(st["metrics"]["deaths"], 1);
    g.reset(1);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["score"], 0);
    assert_eq!(st["metrics"]["session_coins_collected"], 2);
}

#[test]
fn the_door_ends_the_level() {
    let mut g = game(4);
    let d = g.level.door;
    g.world.gent.aabb.x = d.x - 1.0;
    g.world.gent.aabb.y = 9.6;
    testkit::hold_key(&mut g, "ArrowRight", 400);
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["outcome"], "success");
    assert_eq!(st["game_state"]["completion_progress"], 1.0);
}

#[test]
fn expert_collects_five_coins_on_other_seeds() {
    for seed in [21, 333, 4242] {
        let r = testkit::play_expert(ID, "02_05", seed);
        assert!(r.success, "seed {seed}: {r:?}");
    }
}

#[test]
fn random_does_worse_than_the_expert() {
    assert!(testkit::random_policy_wins(ID, "02_01", 1..=5, &IDS, 2) <= 2);
    for task in ["02_03", "02_05"] {
        let wins = testkit::random_policy_wins(ID, task, 1..=5, &IDS, 2);
        assert_eq!(wins, 0, "{task}: random won {wins}/5");
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "02_05", 1, 0, "/tmp/aga_start.png");
    testkit::save_frame_after(ID, "02_05", 2, 25, "/tmp/aga_mid.png");
    testkit::save_frame_after(ID, "02_01", 1, 20, "/tmp/aga_golden.png");
}
