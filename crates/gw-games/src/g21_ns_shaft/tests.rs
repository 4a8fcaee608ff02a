use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 30, "c37b56d50822521c586d7d8ccf98fd5badc90f4d8ab8d80120aaad2fe5c67d43"),
    deterministic: ("21_05", 60),
    expert_solves_all: 4,
    report_scores: (1..=15, 1..=5, &IDS, 21),
}

fn game(seed: u64) -> NsShaft {
    let mut g = NsShaft::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn plat(id: u32, kind: Kind, x: f64, y: f64) -> Platform {
    Platform {
        id,
        kind,
        x,
        y,
        crumble_ms: None,
    }
}

/// A world where the player (life 5) drops onto one platform of `kind`.
fn dropped_on(kind: Kind) -> World {
    let mut w = World::new();
    w.platforms.push(plat(1, kind, 500.0, 400.0));
    w.px = 540.0;
    w.py = 250.0;
    w.hp = 5;
    for _ in 0..100 {
        w.tick();
        if w.landings > 0 {
            break;
        }
    }
    assert_eq!(w.landings, 1);
    w
}

#[test]
fn starts_playing_on_a_platform_with_full_life() {
    let g = game(3);
    let st = g.state().to_value();
    assert_eq!(st["status"], "playing");
    assert_eq!(st["gameTimeMs"], 0);
    assert_eq!(st["metrics"]["hp"], MAX_HP);
    assert_eq!(st["game_state"]["player"]["life"], MAX_HP);
    assert_eq!(st["game_state"]["player"]["on_platform"], "normal");
    // Platforms are queued below the visible shaft.
    assert!(g.world().platforms.last().unwrap().y > BOTTOM_Y + 200.0);
}

#[test]
fn platforms_carry_the_player_up_into_the_ceiling_spikes() {
    let mut g = game(1);
    let y0 = g.world().py;
    g.advance(1000);
    assert!(g.world().py < y0 - 80.0, "rode up with the platform");
    assert_eq!(g.world().on, Some(0));
    g.advance(2500);
    assert!(g.world().ceiling_hits >= 1);
    assert!(g.world().hp <= MAX_HP - CEILING_DAMAGE + 1);
    assert_ne!(g.world().on, Some(0), "knocked off the platform");
}

#[test]
fn landing_effects_by_platform_kind() {
    let w = dropped_on(Kind::Normal);
    assert_eq!((w.on, w.hp), (Some(1), 6));
    let w = dropped_on(Kind::Spikes);
    assert_eq!((w.on, w.hp), (Some(1), 5 - SPIKE_DAMAGE));
    let w = dropped_on(Kind::ConveyorRight);
    assert_eq!((w.on, w.hp), (Some(1), 6));
    let w = dropped_on(Kind::Spring);
    assert_eq!((w.on, w.hp), (None, 6));
    assert_eq!(w.vy, -SPRING_SPEED);
}

#[test]
fn walking_conveyors_springs_and_fragile_platforms() {
    // Walking off the edge starts a fall.
    let mut w = World::new();
    w.platforms.push(plat(0, Kind::Normal, 500.0, 400.0));
    w.px = 520.0;
    w.py = 360.0;
    w.on = Some(0);
    w.input = 1;
    for _ in 0..40 {
        w.tick();
    }
    assert!(w.on.is_none() && w.px > 620.0);
    // A conveyor pushes a standing player.
    let mut w = World::new();
    w.platforms.push(plat(0, Kind::ConveyorLeft, 500.0, 400.0));
    w.px = 560.0;
    w.py = 360.0;
    w.on = Some(0);
    w.tick();
    assert!((w.px - (560.0 - CONVEYOR_SPEED * DT)).abs() < 1e-9);
    // A spring throws the player back up.
    let mut w = World::new();
    w.platforms.push(plat(0, Kind::Spring, 500.0, 400.0));
    w.px = 540.0;
    w.py = 355.0;
    w.vy = 300.0;
    for _ in 0..3 {
        w.tick();
    }
    assert!(w.vy < 0.0 && w.on.is_none(), "{w:?}");
    // A fragile platform gives way shortly after landing.
    let mut w = World::new();
    w.platforms.push(plat(0, Kind::Fragile, 500.0, 400.0));
    w.px = 540.0;
    w.py = 355.0;
    w.vy = 300.0;
    w.tick();
    w.tick();
    assert_eq!(w.on, Some(0));
    for _ in 0..50 {
        w.tick();
    }
    assert!(w.platforms.is_empty() && w.on.is_none());
}

#[test]
fn falling_out_of_the_shaft_ends_the_run() {
    let mut w = World::new();
    w.py = 600.0;
    let mut end = None;
    for _ in 0..100 {
        end = w.tick();
        if end.is_some() {
            break;
        }
    }
    assert_eq!(end, Some(Death::Fell));
    let mut g = game(2);
    g.world.platforms.clear();
    g.world.on = None;
    g.advance(3000);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    let t = st.game_time_ms;
    g.advance(1000);
    assert_eq!(g.state().game_time_ms, t, "the clock stops at the end");
    assert_eq!(g.state().metrics["best_score"], t);
    g.reset(1);
    assert_eq!(g.state().game_time_ms, 0);
    assert_eq!(g.state().metrics["best_score"], t);
}

#[test]
fn keys_steer_and_releasing_stops() {
    let mut g = game(4);
    let x0 = g.world().px;
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowLeft".into(),
    });
    g.advance(100);
    assert!(g.world().px < x0 - 20.0);
    g.handle_event(&InputEvent::KeyUp {
        key: "ArrowLeft".into(),
    });
    assert_eq!(g.world().input, 0);
}

const IDS: [&str; 3] = ["wait", "move_left", "move_right"];

#[test]
fn random_and_idle_policies_do_clearly_worse() {
    assert!(testkit::random_policy_wins(ID, "21_05", 1..=5, &IDS, 21) <= 1);
    for seed in 1..=3 {
        let idle = testkit::play(ID, "21_03", seed, |_| Some(json!({"action": "wait"})));
        assert!(!idle.success, "standing still rides into the spikes");
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "21_05", 1, 0, "/tmp/shaft_start.png");
    testkit::save_frame_after(ID, "21_05", 1, 45, "/tmp/shaft_mid.png");
    let mut g = game(1);
    g.advance(20_000);
    testkit::save_game_frame(&g, "/tmp/shaft_over.png");
}

/// A platform rising into the ceiling passes behind the spikes: the spike
/// tips stay drawn over it.
#[test]
fn the_ceiling_spikes_are_drawn_over_a_rising_platform() {
    let mut g = game(700);
    g.world.platforms.push(Platform {
        id: 999,
        kind: Kind::Normal,
        x: FIELD_L,
        y: 70.0,
        crumble_ms: None,
    });
    let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
    g.render(&mut pm);
    // Inside the first two spikes, a little above their tips.
    for x in [FIELD_L + 10.0, FIELD_L + 30.0] {
        let i = (84 * 1280 + x as usize) * 4;
        let px = &pm.data()[i..i + 3];
        assert_eq!(
            px,
            [SPIKE_COLOR.0, SPIKE_COLOR.1, SPIKE_COLOR.2],
            "at x {x}"
        );
    }
}
