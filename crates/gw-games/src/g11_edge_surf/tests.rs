use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 30, "aa03658daab99a142758039859710006bebf18a0337014ed1b8957573eb39772"),
    deterministic: ("11_05", 60),
    expert_solves_all: 4,
}

fn game(seed: u64) -> EdgeSurf {
    let mut g = EdgeSurf::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn key(g: &mut EdgeSurf, k: &str, down: bool) {
    let key = k.to_string();
    g.handle_event(&if down {
        InputEvent::KeyDown { key }
    } else {
        InputEvent::KeyUp { key }
    });
}

/// A world with one thing of `kind` straight ahead of the surfer.
fn ahead(kind: Kind) -> World {
    let mut w = World::new();
    w.things.push(Thing::new(kind, w.x, 100.0));
    w
}

#[test]
fn starts_surfing_straight_down_with_three_lives() {
    let g = game(2);
    let st = g.state().to_value();
    assert_eq!(st["status"], "playing");
    assert_eq!(st["game_state"]["mode"], "endless");
    assert_eq!(st["metrics"]["lives"], 3);
    assert_eq!(st["metrics"]["boosts"], 1);
    assert_eq!(st["metrics"]["shields"], 0);
    assert_eq!(st["metrics"]["attempts"], 1);
    assert_eq!(st["game_state"]["player"]["heading_deg"], 0);
    // Nothing in the first stretch; obstacles queued far below the screen.
    assert!(g.world().things.iter().all(|t| t.y >= 600.0));
    assert!(g.world().things.iter().any(|t| t.y > 1000.0));
}

#[test]
fn score_counts_metres_downhill_and_turning_trades_speed_for_sideways() {
    let mut w = World::new();
    for _ in 0..100 {
        w.tick();
    }
    assert!((w.y - BASE_SPEED).abs() < 5.0, "{}", w.y);
    assert_eq!(w.score(), (w.y / PX_PER_M) as u32);
    let mut t = World::new();
    t.turn(1);
    t.turn(1);
    t.turn(1);
    assert_eq!(t.heading, 4, "at most 60 degrees");
    let x0 = t.x;
    for _ in 0..100 {
        t.tick();
    }
    assert!(t.y < w.y * 0.6 && t.x > x0 + 0.85 * BASE_SPEED);
}

#[test]
fn obstacles_cost_a_life_then_grace_and_shields_protect() {
    let mut w = ahead(Kind::Rock);
    let mut hits = 0;
    for _ in 0..60 {
        hits += u32::from(w.tick().hit);
    }
    assert_eq!((hits, w.lives), (1, 2), "one hit, then grace while passing");
    assert!(w.speed() < BASE_SPEED);
    let mut w = ahead(Kind::Log);
    w.shield_left_ms = SHIELD_MS;
    for _ in 0..60 {
        assert!(!w.tick().hit);
    }
    assert_eq!(w.lives, 3);
    let mut w = ahead(Kind::Buoy);
    w.lives = 1;
    let dead = (0..60).any(|_| w.tick().dead);
    assert!(dead && w.lives == 0);
}

#[test]
fn items_add_boosts_shields_and_lives() {
    let mut w = ahead(Kind::BoostItem);
    (0..40).for_each(|_| {
        w.tick();
    });
    assert_eq!((w.boosts, w.boosts_collected), (2, 1));
    assert!(w.things.is_empty());
    let mut w = ahead(Kind::ShieldItem);
    (0..40).for_each(|_| {
        w.tick();
    });
    assert!(w.shield_left_ms > 0 && w.shields_collected == 1);
    let mut w = ahead(Kind::Heart);
    w.lives = 2;
    (0..40).for_each(|_| {
        w.tick();
    });
    assert_eq!(w.lives, 3);
}

#[test]
fn keys_turn_brake_and_boost() {
    let mut g = game(1);
    key(&mut g, "ArrowLeft", true);
    key(&mut g, "ArrowLeft", false);
    assert_eq!(g.world().heading, 1);
    key(&mut g, "ArrowRight", true);
    assert_eq!(g.world().heading, 2);
    let v = g.world().speed();
    key(&mut g, "ArrowUp", true);
    assert!(g.world().speed() < v * 0.5);
    key(&mut g, "ArrowUp", false);
    key(&mut g, "ArrowDown", true);
    assert_eq!(g.world().boosts, 0);
    assert!(g.world().speed() > v * 1.5);
    key(&mut g, "ArrowDown", true);
    assert_eq!(g.world().boosts_used, 1, "no boost left to fire");
}

#[test]
fn losing_every_life_ends_the_run_and_reset_counts_attempts() {
    let mut g = game(3);
    g.world.lives = 1;
    let x = g.world.x;
    let y = g.world.y;
    g.world
        .things
        .insert(0, Thing::new(Kind::Rock, x, y + 30.0));
    g.advance(500);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.terminal.reason.as_deref(), Some("out of lives"));
    let t = st.game_time_ms;
    g.advance(500);
    assert_eq!(g.state().game_time_ms, t);
    g.reset(1);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["attempts"], 2);
    assert_eq!(st["metrics"]["lives"], 3);
    assert_eq!(st["gameTimeMs"], 0);
}

const IDS: [&str; 5] = ["wait", "turn_left", "turn_right", "slow_down", "boost"];

#[test]
fn random_and_idle_policies_do_clearly_worse() {
    assert_eq!(testkit::random_policy_wins(ID, "11_05", 1..=5, &IDS, 11), 0);
    let idle: Vec<f64> = (1..=3)
        .map(|seed| {
            testkit::play(ID, "11_05", seed, |_| Some(json!({"action": "wait"}))).best_score
        })
        .collect();
    assert!(idle.iter().all(|&s| s < 2000.0), "{idle:?}");
}

#[test]
#[ignore = "prints expert and random scores while tuning"]
fn report_scores() {
    testkit::expert_report(ID, 1..=15);
    testkit::random_report(ID, 1..=5, &IDS, 11);
    for seed in 1..=5 {
        let r = testkit::play(ID, "11_05", seed, |_| Some(json!({"action": "wait"})));
        println!("idle seed {seed}: {}", r.best_score);
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "11_05", 1, 0, "/tmp/surf_start.png");
    testkit::save_frame_after(ID, "11_05", 1, 40, "/tmp/surf_mid.png");
}

#[test]
fn things_stay_sorted_down_the_river() {
    let mut g = game(6);
    for _ in 0..200 {
        g.advance(100);
        let ys: Vec<f64> = g.world().things.iter().map(|t| t.y).collect();
        assert!(ys.windows(2).all(|p| p[0] <= p[1]));
    }
}

/// No two obstacles or items are laid out on top of each other: every pair
/// keeps at least `SPACING` px apart, over a long stretch of river.
#[test]
fn obstacles_and_items_never_overlap() {
    for seed in [700, 701, 702] {
        let mut g = game(seed);
        for _ in 0..60 {
            g.world.y += 400.0;
            g.spawn();
        }
        let things = &g.world().things;
        assert!(things.len() > 200, "{}", things.len());
        for (i, a) in things.iter().enumerate() {
            for b in &things[i + 1..] {
                let apart = a.x + a.w + SPACING <= b.x + 1e-9
                    || b.x + b.w + SPACING <= a.x + 1e-9
                    || a.y + a.h + SPACING <= b.y + 1e-9
                    || b.y + b.h + SPACING <= a.y + 1e-9;
                assert!(apart, "seed {seed}: {a:?} and {b:?} overlap");
            }
        }
    }
}
