use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 30, "faaa80b6d19bfbe8b91aca2facd4acc7872c90422195a4fa1ca188191054c8d0"),
    deterministic: ("04_05", 60),
    expert_solves_all: 4,
    report_scores: (1..=15, 1..=5, &IDS, 41),
}

fn game(seed: u64, level: u32) -> BoxelRebound {
    let mut g = BoxelRebound::new();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g
}

fn flat(pieces: &str) -> &'static Level {
    Box::leak(Box::new(Level::build(9, &levels::parse(pieces))))
}

fn run_until_end(w: &mut World, ticks: u32) -> Option<End> {
    (0..ticks).find_map(|_| w.tick())
}

#[test]
fn levels_parse_and_have_a_finish() {
    for n in 1..=LEVELS {
        let l = level(n);
        assert_eq!(l.number, n);
        assert!(l.finish > 4000.0);
        assert!(!l.spikes.is_empty());
    }
    assert_eq!(level(3).saws.len(), 3);
    let r = std::panic::catch_unwind(|| levels::parse("wall 3"));
    assert!(r.is_err());
}

#[test]
fn starts_at_zero_progress_on_the_requested_level() {
    let g = game(1, 2);
    let st = g.state().to_value();
    assert_eq!(st["status"], "playing");
    assert_eq!(st["game_state"]["level"], 2);
    assert_eq!(st["game_state"]["completion_progress"], 0.0);
    assert_eq!(st["game_state"]["player"]["jump_ready"], true);
}

#[test]
fn runs_right_on_its_own_and_dies_on_the_first_spike() {
    let mut g = game(1, 1);
    g.advance(1000);
    assert!((g.world().x - (START_X + RUN_SPEED)).abs() < 1e-6);
    g.advance(5000);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.terminal.reason.as_deref(), Some("hit spikes"));
    let p = st.game_state["completion_progress"].as_f64().unwrap();
    assert!(p > 0.1 && p < 0.15, "{p}");
}

#[test]
fn jump_clears_spikes_and_holding_rebounds() {
    let l = flat("spikes 400 3\nfinish 2000");
    let mut w = World::new(l, [0.0; 4]);
    w.x = 330.0;
    w.jump_held = true;
    w.tick();
    w.jump_held = false;
    assert_eq!(run_until_end(&mut w, 150), None);
    assert!(w.x > 600.0 && w.grounded);
    // Holding the key jumps again on every landing.
    let mut w = World::new(l, [0.0; 4]);
    w.x = 800.0;
    w.jump_held = true;
    for _ in 0..200 {
        w.tick();
    }
    assert!(w.jumps >= 2, "{}", w.jumps);
}

#[test]
fn blocks_are_landed_on_but_crash_from_the_side_and_pits_kill() {
    let l = flat("block 400 200 60\nfinish 2000");
    let mut w = World::new(l, [0.0; 4]);
    w.x = 300.0;
    assert_eq!(run_until_end(&mut w, 100), Some(End::Crash));
    let mut w = World::new(l, [0.0; 4]);
    w.x = 300.0;
    w.jump_held = true;
    w.tick();
    w.jump_held = false;
    for _ in 0..65 {
        assert_eq!(w.tick(), None);
    }
    assert!(
        w.grounded && (w.y - (GROUND_Y - 60.0 - CUBE)).abs() < 1e-6,
        "on top"
    );
    let l = flat("gap 400 150\nfinish 2000");
    let mut w = World::new(l, [0.0; 4]);
    w.x = 300.0;
    assert_eq!(run_until_end(&mut w, 300), Some(End::Pit));
}

#[test]
fn pads_throw_high_and_saws_kill() {
    let l = flat("pad 400\nfinish 2000");
    let mut w = World::new(l, [0.0; 4]);
    w.x = 380.0;
    let mut top = GROUND_Y;
    for _ in 0..40 {
        w.tick();
        top = top.min(w.y);
    }
    assert!(
        GROUND_Y - CUBE - top > 250.0,
        "pad jump height {}",
        GROUND_Y - CUBE - top
    );
    let l = flat("saw 500 20 20 1000\nfinish 2000");
    let mut w = World::new(l, [0.0; 4]);
    w.x = 400.0;
    assert_eq!(run_until_end(&mut w, 100), Some(End::Saw));
}

#[test]
fn reaching_the_finish_is_success_with_full_progress() {
    let mut g = game(1, 1);
    g.world.x = g.world.level.finish - 10.0;
    g.advance(100);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Success));
    assert_eq!(st.game_state["completion_progress"], 1.0);
}

#[test]
fn saw_phase_depends_on_the_seed() {
    let a = game(1, 3).world().saw_phase;
    let b = game(2, 3).world().saw_phase;
    assert_ne!(a, b);
    let mut g = game(1, 3);
    g.reset(4);
    assert_eq!(g.world().saw_phase, a, "a retry meets the same saws");
}

const IDS: [&str; 2] = ["wait", "jump"];

#[test]
fn random_and_idle_policies_do_clearly_worse() {
    assert_eq!(testkit::random_policy_wins(ID, "04_02", 1..=5, &IDS, 41), 0);
    assert_eq!(testkit::random_policy_wins(ID, "04_05", 1..=5, &IDS, 41), 0);
    let idle = testkit::play(ID, "04_01", 1, |_| Some(json!({"action": "wait"})));
    assert!(!idle.success);
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "04_05", 1, 0, "/tmp/boxel_start.png");
    testkit::save_frame_after(ID, "04_05", 1, 52, "/tmp/boxel_mid.png");
    testkit::save_frame_after(ID, "04_04", 1, 30, "/tmp/boxel_l2.png");
}
