use super::*;
use crate::testkit;
use gw_core::Status;

crate::game_contract! {
    golden_frame: (1, 20, "5c95bb4cb531ac64b66985f98298d6be3fdcab310d4a82feb3a0a16fc11ec9a1"),
    deterministic: ("16_02", 40),
    expert_solves_all: 4,
}

fn game(level: u32, seed: u64) -> Hextris {
    let mut g = Hextris::new();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g.stacks = Default::default();
    g.falling.clear();
    g
}

fn key(g: &mut Hextris, k: &str, down: bool) {
    let k = k.to_string();
    g.handle_event(&if down {
        InputEvent::KeyDown { key: k }
    } else {
        InputEvent::KeyUp { key: k }
    });
}

#[test]
fn three_in_a_pile_clear_and_score() {
    let mut s: Stacks = Default::default();
    s[2] = vec![1, 0, 0];
    let res = settle(&mut s, 2, 0, 1);
    assert_eq!(res.cleared, 3);
    assert_eq!(res.points, clear_points(3, 1, 1));
    assert_eq!(s[2], vec![1]);
    // Two of a kind do not clear.
    let res = settle(&mut s, 2, 1, 1);
    assert_eq!((res.cleared, s[2].len()), (0, 2));
}

#[test]
fn neighbouring_sides_touch_at_the_same_row() {
    let mut s: Stacks = Default::default();
    s[5] = vec![3];
    s[1] = vec![3];
    let res = settle(&mut s, 0, 3, 1);
    assert_eq!(res.cleared, 3, "side 5, 0 and 1 wrap around");
    assert!(s.iter().all(Vec::is_empty));
    // Not touching: different rows on neighbouring sides.
    let mut s: Stacks = Default::default();
    s[1] = vec![0, 2];
    s[2] = vec![2];
    assert_eq!(settle(&mut s, 0, 2, 1).cleared, 0);
}

#[test]
fn chain_reaction_scores_second_link_double() {
    let mut s: Stacks = Default::default();
    // Side 0: red, blue. Side 1: red, blue. Side 2: red -> adding red on side 2? use side 5 blue at row 0.
    s[0] = vec![0, 2];
    s[1] = vec![0, 2];
    s[5] = vec![2];
    let res = settle(&mut s, 2, 0, 1);
    // Reds on sides 0,1,2 row 0 clear; blues drop to row 0 next to the blue on side 5.
    assert_eq!(res.groups, 2);
    assert_eq!(res.cleared, 6);
    assert_eq!(res.points, clear_points(3, 1, 1) + clear_points(3, 2, 1));
    assert!(s.iter().all(Vec::is_empty));
}

#[test]
fn blocks_land_on_the_side_facing_their_lane_and_rotation_moves_piles() {
    let mut g = game(1, 3);
    g.spawn_timer = 100.0;
    key(&mut g, "ArrowRight", true);
    assert_eq!(g.rotation, 1);
    key(&mut g, "ArrowLeft", true);
    key(&mut g, "ArrowLeft", true);
    assert_eq!(g.rotation, 5);
    g.falling.push(Falling {
        lane: 0,
        dist: HEX_R + 30.0,
        color: 1,
    });
    g.advance(1000);
    assert!(g.falling.is_empty());
    assert_eq!(g.stacks[side_for_lane(0, 5)], vec![1]);
    assert_eq!(side_for_lane(0, 5), 1);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["environment"]["settled_blocks"], 1);
    assert_eq!(st["game_state"]["environment"]["highest_column_height"], 1);
}

#[test]
fn arrow_down_fast_forwards_falling() {
    let mut a = game(1, 1);
    let mut b = game(1, 1);
    for g in [&mut a, &mut b] {
        g.spawn_timer = 100.0;
        g.falling.push(Falling {
            lane: 2,
            dist: SPAWN_D,
            color: 0,
        });
    }
    key(&mut b, "ArrowDown", true);
    a.advance(500);
    b.advance(500);
    let fell_a = SPAWN_D - a.falling[0].dist;
    let fell_b = SPAWN_D - b.falling[0].dist;
    assert!((fell_b / fell_a - ACCEL).abs() < 0.05, "{fell_a} {fell_b}");
    key(&mut b, "ArrowDown", false);
    let before = b.falling[0].dist;
    b.advance(100);
    assert!((before - b.falling[0].dist) < base_speed(1) * 0.11 * 1.1);
}

#[test]
fn a_pile_at_the_outer_limit_ends_the_game() {
    let mut g = game(1, 2);
    g.spawn_timer = 100.0;
    g.stacks[0] = (0..MAX_ROWS - 1).map(|r| (r % 2) as u8).collect();
    g.falling.push(Falling {
        lane: 0,
        dist: g.landing_dist(0) + 5.0,
        color: 3,
    });
    g.advance(500);
    let st = g.state();
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    // Input after the end changes nothing.
    key(&mut g, "ArrowRight", true);
    assert_eq!(g.rotation, 0);
}

#[test]
fn level_comes_from_the_task_and_sets_the_pace() {
    let s1 = testkit::stepper(ID, "16_01", 1).state_value();
    let s4 = testkit::stepper(ID, "16_04", 1).state_value();
    assert_eq!(s1["game_state"]["level"], 1);
    assert_eq!(s4["game_state"]["level"], 4);
    assert!(
        s4["metrics"]["difficulty"].as_f64().unwrap()
            > s1["metrics"]["difficulty"].as_f64().unwrap()
    );
    assert!(spawn_interval(4) < spawn_interval(1));
    for path in testkit::preset(ID, "16_01").task.state_fields {
        assert!(
            gw_core::state::lookup(&s1, &path).is_some(),
            "missing {path}"
        );
    }
    let mut g = game(2, 1);
    g.clears = CLEARS_PER_LEVEL;
    assert_eq!(g.level(), 3);
}

/// Mean expert steps and mean noop progress on `task` over `seeds`.
fn effort(task: &str, seeds: std::ops::RangeInclusive<u64>) -> (f64, f64) {
    let n = seeds.clone().count() as f64;
    let steps: u32 = seeds
        .clone()
        .map(|s| testkit::play_expert(ID, task, s).steps)
        .sum();
    let target = testkit::preset(ID, task).task.target;
    let noop: f64 = testkit::play_random(ID, task, seeds, &["wait"], 1)
        .iter()
        .map(|r| (r.best_score / target).min(1.0))
        .sum();
    (steps as f64 / n, noop / n)
}

#[test]
fn higher_levels_are_harder() {
    // Speed, spawn rate and colours rise with the level: the expert needs
    // more steps and a passive player gets less far.
    let (e1, n1) = effort("16_01", 1..=6);
    let (e3, n3) = effort("16_03", 1..=6);
    let (e5, n5) = effort("16_05", 1..=6);
    assert!(
        e1 + 5.0 < e3 && e1 + 5.0 < e5,
        "expert steps {e1} / {e3} / {e5}"
    );
    assert!(n1 > n3 && n3 > n5, "noop progress {n1} / {n3} / {n5}");
    assert!(colors_for_level(5) > colors_for_level(1));
}

/// The random policy's controls, in the order it draws them.
const CONTROLS: [&str; 4] = ["wait", "rotate_left", "rotate_right", "accelerate"];

#[test]
fn random_play_falls_short() {
    let wins = testkit::random_policy_wins(ID, "16_01", 1..=5, &CONTROLS, 99);
    assert!(wins <= 1, "random play won {wins}/5");
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "16_03", 1, 30, "/tmp/hextris.png");
}

#[test]
#[ignore = "prints expert and random scores for tuning"]
fn tuning_report() {
    testkit::expert_report(ID, 1..=15);
    testkit::random_report(ID, 1..=10, &CONTROLS, 99);
    testkit::random_report(ID, 1..=10, &["wait"], 1);
    for t in ["16_01", "16_02", "16_03", "16_04", "16_05"] {
        println!("{t}: (expert steps, noop progress) {:?}", effort(t, 1..=6));
    }
}
