use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "bbb8626dd6ab704c4fcd3aa2e198dc4a938db5163394abe37d76001345e92329"),
    deterministic: ("30_05", 40),
    expert_solves_all: 4,
    report_scores: (1..=15, 1..=10, &IDS, 30),
}

fn game(seed: u64) -> Vex3 {
    let mut g = Vex3::new();
    g.init(&GameConfig {
        seed,
        level: Some(1),
        ..Default::default()
    });
    g
}

fn run(w: &mut World, ticks: u32) {
    for _ in 0..ticks {
        w.tick();
    }
}

/// A world without saws, the runner standing on the floor at column `x`.
fn at(x: f64) -> World {
    let mut w = World::new(1, Vec::new());
    w.body.aabb.x = x;
    w
}

#[test]
fn the_level_parses_with_five_checkpoints_saws_and_a_ring() {
    assert_eq!(levels().len(), 1);
    let l = &levels()[0];
    assert_eq!(l.checkpoints.len(), 5);
    assert!(l.checkpoints.windows(2).all(|p| p[0].0 < p[1].0));
    assert!(
        l.checkpoints[4].0 < l.exit.0,
        "the exit lies past the flags"
    );
    assert_eq!(l.rings.len(), 1);
    let kinds: Vec<SawKind> = l.saws.iter().map(|s| s.2).collect();
    for k in [
        SawKind::Fixed,
        SawKind::Patrol,
        SawKind::Lift,
        SawKind::Orbit,
    ] {
        assert!(kinds.contains(&k), "{k:?}");
    }
    assert_eq!(l.map.at(l.exit.0, l.exit.1, b'.'), b'E');
    let st = game(1).state().to_value();
    assert_eq!(st["metrics"]["checkpoints_total"], 5);
    assert_eq!(st["metrics"]["checkpoints_passed"], 0);
    assert_eq!(st["metrics"]["total_levels"], 1);
    assert_eq!(st["game_state"]["player"]["on_ground"], true);
    // Saw phases differ between seeds and repeat for one seed.
    let phases = |g: &Vex3| -> Vec<i64> {
        g.world()
            .saws
            .iter()
            .map(|s| (s.phase * 1e6) as i64)
            .collect()
    };
    assert_ne!(phases(&game(1)), phases(&game(2)));
    assert_eq!(phases(&game(4)), phases(&game(4)));
}

#[test]
fn bad_level_files_are_refused_with_the_reason() {
    let rows = |s: &str| format!("---7\n{}", format!("{s}\n").repeat(16));
    let err = parse_levels(&rows("#....#")).unwrap_err();
    assert!(err.contains("level 7: no start"), "{err}");
    let err = parse_levels(&rows("#S.E.#")).unwrap_err();
    assert!(err.contains("no checkpoint"), "{err}");
    let err = parse_levels("---2\n#S.CE#\n").unwrap_err();
    assert!(err.contains("1 rows, expected 16"), "{err}");
}

#[test]
fn a_crouch_slide_passes_the_tunnel_that_stops_a_runner() {
    // The block over columns 34-38 leaves only row 12 open.
    let mut w = at(30.0);
    w.key("ArrowRight", true);
    run(&mut w, 400);
    assert!(
        (w.body.aabb.right() - 34.0).abs() < 1e-9,
        "stopped at the wall"
    );
    let mut w = at(31.5);
    w.key("ArrowRight", true);
    run(&mut w, 40);
    w.key("ArrowDown", true);
    run(&mut w, 2);
    assert!(w.sliding && (w.body.aabb.h - LOW_H).abs() < 1e-9);
    assert!(w.body.vx >= SLIDE_SPEED - 1.0, "a slide starts fast");
    // One 0.2 s crouch-slide action carries the runner under the block,
    // which then holds it low until the far side.
    run(&mut w, 38);
    assert!(w.body.aabb.right() > 34.2, "{:?}", w.body.aabb);
    w.key("ArrowDown", false);
    run(&mut w, 2);
    assert!(w.low(), "the ceiling keeps the runner down");
    run(&mut w, 400);
    assert!(w.body.aabb.x > 39.0, "through: {}", w.body.aabb.x);
    assert!(!w.low(), "stood up after the tunnel");
    assert_eq!(
        w.passed, 2,
        "ran on into the second flag (the first lies behind the start)"
    );
}

#[test]
fn spikes_send_the_runner_back_to_the_last_checkpoint() {
    let mut g = game(1);
    g.world.body.aabb.x = 7.6;
    g.advance(300);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["deaths"], 1);
    assert_eq!(g.world().body.aabb.x, levels()[0].start.0);
    // Touch the first flag, then die on the spikes of the second part.
    let (cx, _) = levels()[0].checkpoints[0];
    g.world.body.aabb.x = cx as f64;
    g.advance(20);
    assert_eq!(g.state().to_value()["metrics"]["checkpoints_passed"], 1);
    g.world.body.aabb.x = 69.8;
    g.advance(300);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["deaths"], 2);
    assert_eq!(st["metrics"]["checkpoints_passed"], 1, "kept");
    assert!((g.world().body.aabb.x - (cx as f64 + 0.15)).abs() < 1e-9);
    assert_eq!(st["terminal"]["isTerminal"], false, "no lives to lose");
    // The exit wins.
    g.world.body.aabb.x = levels()[0].exit.0 as f64;
    g.advance(20);
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["outcome"], "success");
    assert_eq!(st["game_state"]["completion_progress"], 1.0);
}

#[test]
fn a_ring_swings_the_runner_over_a_pit_no_jump_clears() {
    let l = &levels()[0];
    let (rx, ry) = l.rings[0];
    // A running jump from the pit's edge falls short.
    let mut w = at(46.5);
    w.key("ArrowRight", true);
    run(&mut w, 60);
    w.key("ArrowUp", true);
    w.key("ArrowRight", false);
    w.key("ArrowLeft", false);
    let mut grabbed = false;
    for _ in 0..200 {
        w.tick();
        grabbed |= w.swing.is_some();
        if w.death.is_some() {
            break;
        }
    }
    assert!(grabbed, "flew into the ring");
    // Hold on: the runner turns round the ring at the swing radius.
    let mut w = at(46.5);
    w.body.aabb.x = rx - 1.3;
    w.body.aabb.y = ry - STAND_H / 2.0;
    w.body.on_ground = false;
    w.body.vx = 6.0;
    w.body.vy = -3.0;
    w.tick();
    let sw = w.swing.expect("grabbed");
    assert!(sw.rate > 0.0, "turning the way it came (clockwise)");
    run(&mut w, 100);
    let b = w.body.aabb;
    let r = ((b.center_x() - rx).powi(2) + (b.center_y() - ry).powi(2)).sqrt();
    assert!((r - SWING_RADIUS).abs() < 1e-9, "{r}");
    // Let go above and left of the ring, where a clockwise turn heads up
    // and right: a fling over the pit.
    while !(3.8..4.05).contains(&w.swing.unwrap().angle) {
        w.tick();
    }
    w.key("ArrowUp", true);
    w.tick();
    assert!(w.swing.is_none());
    let speed = (w.body.vx.powi(2) + w.body.vy.powi(2)).sqrt();
    assert!((speed - LAUNCH_SPEED).abs() < 1.0, "{speed}");
    assert!(w.body.vx > 0.0 && w.body.vy < 0.0);
    run(&mut w, 300);
    assert!(w.death.is_none() && w.body.on_ground, "landed");
    assert!(w.body.aabb.x > 56.0, "past the pit: {}", w.body.aabb.x);
}

#[test]
fn a_plain_jump_cannot_clear_the_pit() {
    let mut best = 0.0f64;
    for start in [44.0, 45.0, 46.0, 47.0] {
        let mut w = at(start);
        w.key("ArrowRight", true);
        for t in 0..400 {
            if t == 1 || w.body.aabb.right() >= 47.95 && w.body.on_ground {
                w.key("ArrowUp", true);
            }
            w.tick();
            if w.swing.is_some() || w.death.is_some() {
                break;
            }
            if !w.body.on_ground {
                best = best.max(w.body.aabb.x);
            }
        }
    }
    // Without the ring (the search above stops at a grab) nothing lands
    // beyond the pit.
    assert!(best < 56.0, "{best}");
}

#[test]
fn the_expert_swings_over_the_pit_and_slides_through_the_tunnel() {
    let states = testkit::expert_states(ID, "30_03", 2, 60);
    let player = |s: &Value, k: &str| s["game_state"]["player"][k] == true;
    assert!(
        states.iter().any(|s| player(s, "swinging")),
        "held on to the ring"
    );
    assert!(
        states
            .iter()
            .any(|s| player(s, "sliding") || player(s, "crouching")),
        "went low"
    );
    let last = states.last().unwrap();
    assert_eq!(last["metrics"]["checkpoints_passed"], 3);
}

#[test]
fn expert_generalises_to_unseen_seeds() {
    for task in ["30_03", "30_05"] {
        let wins = (6..=15)
            .filter(|&seed| testkit::play_expert(ID, task, seed).success)
            .count();
        assert!(wins >= 8, "{task}: {wins}/10 on seeds 6..15");
    }
}

const IDS: [&str; 8] = [
    "wait",
    "move_left",
    "move_right",
    "jump",
    "jump_left",
    "jump_right",
    "crouch_slide_left",
    "crouch_slide_right",
];

#[test]
fn random_does_worse_than_the_expert() {
    for task in ["30_01", "30_02", "30_03", "30_04", "30_05"] {
        let wins = testkit::random_policy_wins(ID, task, 1..=5, &IDS, 30);
        assert!(wins <= 1, "{task}: random won {wins}/5");
    }
}

#[test]
fn expert_takes_over_after_random_steps() {
    let r = testkit::play_expert_after(ID, "30_03", 5, 10, &IDS, 8);
    assert!(r.success, "{r:?}");
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "30_05", 1, 0, "/tmp/vex_start.png");
    testkit::save_frame_after(ID, "30_05", 1, 30, "/tmp/vex_mid.png");
    testkit::save_frame_after(ID, "30_05", 1, 45, "/tmp/vex_late.png");
}
