use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 12, "e429c84b495229e6dd7175a919f9359a978e9faad95b2a50904f6d6f0e4d22e2"),
    deterministic: ("24_02", 30),
    expert_solves_all: 4,
    report_scores: (1..=10, 1..=10, &IDS, 24),
}

fn game(seed: u64, level: u32, harmless: bool) -> RestlessWing {
    let mut g = RestlessWing::new();
    let mut options = serde_json::Map::new();
    options.insert("harmless_spikes".into(), json!(harmless));
    g.init(&GameConfig {
        seed,
        level: Some(level),
        options,
        ..Default::default()
    });
    g
}

const IDS: [&str; 6] = [
    "wait",
    "move_left",
    "move_right",
    "glide",
    "glide_left",
    "glide_right",
];

#[test]
fn levels_parse_with_start_bread_and_a_route() {
    for n in 1..=LEVELS {
        let l = level(n);
        assert_eq!((l.map.width(), l.map.height()), (COLS, ROWS));
        assert!(l.map.find(b'S').is_none() && l.map.find(b'B').is_none());
        assert!((4..=6).contains(&l.flap_max), "level {n}");
        let d = l.distance_to_bread(l.start.0 + 0.35, l.start.1 + 0.3, false);
        assert!(d.is_finite() && d > 20.0, "level {n}: bread {d} tiles away");
    }
    let st = game(1, 3, true).state().to_value();
    assert_eq!(st["game_state"]["level"], 3);
    assert_eq!(st["game_state"]["harmless_spikes"], true);
    assert_eq!(st["metrics"]["flap_max"], 5);
    assert_eq!(st["metrics"]["flap_target"], 5 * CELL_MS);
    assert_eq!(st["metrics"]["deaths"], 0);
    // The meter's start and the start spot differ between seeds.
    let start = |s: u64| {
        let w = game(s, 1, true).world().clone();
        (w.meter_ms, (w.bird.aabb.x * 1000.0) as i64)
    };
    assert_ne!(start(1), start(2));
    assert_eq!(start(1), start(1));
}

#[test]
fn the_meter_runs_down_a_cell_at_a_time_and_flaps_by_itself() {
    let mut w = World::new(1, true, 2 * CELL_MS, 0.0, 0);
    let y0 = w.bird.aabb.y;
    assert_eq!(w.meter_cells(), 2);
    for _ in 0..CELL_MS / TICK_MS {
        w.tick();
    }
    assert_eq!((w.meter_cells(), w.flaps), (1, 0));
    for _ in 0..CELL_MS / TICK_MS {
        w.tick();
    }
    assert_eq!(w.flaps, 1, "empty meter: one flap");
    assert_eq!(w.meter_cells(), 4, "refilled to flap_max");
    let mut top = y0;
    for _ in 0..80 {
        w.tick();
        top = top.min(w.bird.aabb.y);
    }
    let rise = y0 - top;
    assert!(
        (2.2..2.5).contains(&rise),
        "a flap lifts about 2.4 tiles, got {rise}"
    );
    // Sitting still, the next flap comes one full meter later.
    let mut ticks = 0;
    while w.flaps == 1 {
        w.tick();
        ticks += 1;
    }
    assert_eq!((ticks + 80) * TICK_MS, 4 * CELL_MS);
}

#[test]
fn gliding_slows_the_fall_and_spends_the_meter_twice_as_fast() {
    let mut w = World::new(1, true, 4 * CELL_MS, 0.0, 0);
    w.bird.aabb.y = 9.0;
    w.bird.on_ground = false;
    w.keys.up = true;
    let m0 = w.meter_ms;
    for _ in 0..50 {
        w.tick();
        assert!(w.bird.vy <= GLIDE_FALL + 1e-9);
    }
    assert!(w.gliding);
    assert_eq!(m0 - w.meter_ms, 2 * 50 * TICK_MS);
    // Gliding through flaps climbs; letting go sinks.
    let y = w.bird.aabb.y;
    for _ in 0..300 {
        w.tick();
    }
    assert!(
        w.bird.aabb.y < y - 2.0,
        "climbed from {y} to {}",
        w.bird.aabb.y
    );
    w.keys.up = false;
    w.meter_ms = 4 * CELL_MS;
    let y = w.bird.aabb.y;
    for _ in 0..60 {
        w.tick();
    }
    assert!(
        w.bird.aabb.y > y + 1.0,
        "sank from {y} to {}",
        w.bird.aabb.y
    );
}

#[test]
fn water_sends_the_bird_back_and_spikes_hurt_only_when_harmful() {
    // Level 1: water at columns 6..9 of the bottom row.
    let mut g = game(1, 1, true);
    g.world.bird.aabb.x = 7.0;
    g.world.bird.aabb.y = 13.0;
    g.world.bird.on_ground = false;
    g.world.meter_ms = 2000;
    g.advance(1000);
    assert_eq!(g.deaths, 1);
    assert!((g.world.bird.aabb.x - level(1).start.0).abs() < 0.31);
    // Level 2: spikes at columns 9..11 of row 13.
    for (harmless, deaths) in [(true, 0), (false, 1)] {
        let mut g = game(1, 2, harmless);
        g.world.bird.aabb.x = 9.5;
        g.world.bird.aabb.y = 12.0;
        g.world.bird.on_ground = false;
        g.world.meter_ms = 2000;
        g.advance(400);
        assert_eq!(g.deaths, deaths, "harmless spikes: {harmless}");
        let st = g.state().to_value();
        assert_eq!(st["metrics"]["deaths"], deaths);
    }
}

#[test]
fn bread_moves_on_and_the_fifth_ends_the_game() {
    let mut g = game(1, 4, true);
    let (bx, by) = level(4).bread;
    g.world.bird.aabb.x = bx as f64 + 0.1;
    g.world.bird.aabb.y = by as f64 + 0.4;
    g.advance(TICK_MS);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], 5);
    assert_eq!(st["game_state"]["score"], POINTS_BREAD);
    assert_eq!(st["metrics"]["levels_completed"], 1);
    assert_eq!(st["terminal"]["isTerminal"], false);
    let (bx, by) = level(5).bread;
    g.world.bird.aabb.x = bx as f64 + 0.1;
    g.world.bird.aabb.y = by as f64 + 0.4;
    g.advance(TICK_MS);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], 6);
    assert_eq!(st["terminal"]["outcome"], "success");
    assert_eq!(st["game_state"]["score"], 2 * POINTS_BREAD);
}

#[test]
fn keys_steer_the_bird() {
    let mut g = game(3, 1, true);
    let x0 = g.world().bird.aabb.x;
    testkit::hold_key(&mut g, "ArrowRight", 500);
    assert!(g.world().bird.aabb.x > x0 + 1.5);
    assert_eq!(g.world().facing, 1);
    testkit::hold_key(&mut g, "ArrowLeft", 250);
    assert_eq!(g.world().facing, -1);
}

#[test]
fn expert_solves_levels_on_other_seeds() {
    for task in ["24_01", "24_03", "24_05"] {
        for seed in [17, 404, 9001] {
            let r = testkit::play_expert(ID, task, seed);
            assert!(r.success, "{task} seed {seed}: {r:?}");
        }
    }
}

#[test]
fn random_does_worse_than_the_expert() {
    for task in ["24_01", "24_02", "24_03", "24_04", "24_05"] {
        let wins = testkit::random_policy_wins(ID, task, 1..=5, &IDS, 24);
        assert!(wins <= 1, "{task}: random won {wins}/5");
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    for n in 1..=5 {
        testkit::save_frame_after(ID, &format!("24_0{n}"), 1, 6, &format!("/tmp/rws_{n}.png"));
    }
    testkit::save_frame_after(ID, "24_01", 1, 12, "/tmp/rws_golden.png");
}
