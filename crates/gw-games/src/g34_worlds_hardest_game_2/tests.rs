use super::expert::{Act, Goal, plan};
use super::*;
use crate::g33_worlds_hardest_game::engine::TILE;
use crate::testkit;
use gw_core::action::InputEvent;
use gw_core::{Game, GameConfig, Outcome, Status, TaskInfo};

crate::game_contract! {
    golden_frame: (1, 10, "1ad5cc05fafec1ef36701b0c1ad10544640384080766baeaac8d299b479a5bfc"),
    expert_solves_all: 4,
}

fn game(level: u32, seed: u64) -> WhgGame {
    let mut g = new_game();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g
}

fn press(g: &mut WhgGame, key: &str) {
    g.handle_event(&InputEvent::KeyDown { key: key.into() });
    g.advance(200);
    g.handle_event(&InputEvent::KeyUp { key: key.into() });
}

fn run_plan(g: &mut WhgGame, steps: &[(crate::g33_worlds_hardest_game::engine::Body, Act)]) {
    for (_, act) in steps {
        match act {
            Act::Wait => g.advance(200),
            Act::Up => press(g, "ArrowUp"),
            Act::Down => press(g, "ArrowDown"),
            Act::Left => press(g, "ArrowLeft"),
            Act::Right => press(g, "ArrowRight"),
        }
    }
}

#[test]
fn levels_have_enough_coins_and_fields() {
    let want = [(1, 3), (2, 2), (3, 1)];
    for (l, min) in want {
        let st = game(l, 1).state().to_value();
        assert_eq!(st["game_state"]["level"], l);
        assert!(st["metrics"]["coins_total"].as_u64().unwrap() >= min);
        for f in ["coins", "checkpoints_passed", "deaths", "distance_to_goal"] {
            assert!(st["metrics"][f].is_number(), "{f}");
        }
        assert!(st["game_state"]["completion_progress"].is_number());
        assert_eq!(st["status"], "playing");
    }
    assert_eq!(game(3, 1).state().metrics["checkpoints_total"], 1);
}

#[test]
fn a_press_moves_one_tile() {
    let mut g = game(1, 2);
    let b = g.body();
    press(&mut g, "ArrowUp");
    assert_eq!((g.body().x, g.body().y), (b.x, b.y - TILE));
}

#[test]
fn distance_to_goal_counts_down_towards_a_coin() {
    let mut g = game(2, 1);
    let d0 = g.state().metrics["distance_to_goal"].as_i64().unwrap();
    assert_eq!(
        d0, 9,
        "the cross's centre coin is nine tiles from the start"
    );
    press(&mut g, "ArrowRight");
    assert_eq!(g.state().metrics["distance_to_goal"].as_i64().unwrap(), 8);
}

#[test]
fn coins_count_and_death_drops_unbanked_coins() {
    let mut g = game(1, 3);
    let task = TaskInfo {
        task_id: "34_01".into(),
        score_field: "metrics.coins".into(),
        target: 1.0,
        level: Some(1),
    };
    let steps = plan(
        g.level(),
        g.body(),
        Goal::for_task(&task),
        VARIANT.wait_ticks,
    )
    .expect("a coin is reachable");
    run_plan(&mut g, &steps);
    assert_eq!(g.state().metrics["coins"], 1);
    // Now stand still until a dot train runs the square over.
    for _ in 0..200 {
        g.advance(200);
        if g.deaths() > 0 {
            break;
        }
    }
    assert_eq!(g.deaths(), 1, "the coin sits on a train's track");
    let st = g.state();
    assert_eq!(st.metrics["coins"], 0, "the coin goes back");
    assert_eq!(st.status, Status::Playing);
    assert_eq!((g.body().x, g.body().y), g.level().start);
}

#[test]
fn clearing_level_one_moves_on_to_level_two() {
    let mut g = game(1, 5);
    let task = TaskInfo {
        task_id: "x".into(),
        score_field: "game_state.level".into(),
        target: 2.0,
        level: Some(1),
    };
    let steps = plan(
        g.level(),
        g.body(),
        Goal::for_task(&task),
        VARIANT.wait_ticks,
    )
    .expect("level 1 is solvable");
    run_plan(&mut g, &steps);
    let st = g.state();
    assert_eq!(st.game_state["level"], 2);
    assert_eq!(st.metrics["coins"], 0);
    assert_eq!(st.metrics["levels_cleared"], 1);
    assert!(!st.terminal.is_terminal);
}

#[test]
fn the_last_level_ends_in_success() {
    let mut g = game(3, 1);
    let task = TaskInfo {
        task_id: "x".into(),
        score_field: "game_state.level".into(),
        target: 4.0,
        level: Some(3),
    };
    let steps = plan(
        g.level(),
        g.body(),
        Goal::for_task(&task),
        VARIANT.wait_ticks,
    )
    .expect("level 3 is solvable");
    run_plan(&mut g, &steps);
    assert_eq!(g.state().terminal.outcome, Some(Outcome::Success));
    assert_eq!(g.state().game_state["level"], 4);
}

#[test]
fn random_policy_does_clearly_worse() {
    let wins = testkit::random_policy_wins(ID, "34_05", 1..=5, &testkit::WAIT_AND_MOVES, 99);
    assert!(wins <= 1, "random play won {wins}/5");
}

#[test]
fn deterministic_per_seed() {
    let a = testkit::expert_states(ID, "34_03", 4, 30);
    let b = testkit::expert_states(ID, "34_03", 4, 30);
    assert_eq!(a, b);
    let c = testkit::expert_states(ID, "34_03", 5, 30);
    let dots = |v: &Vec<serde_json::Value>| v[0]["game_state"]["entities"].clone();
    assert_ne!(dots(&a), dots(&c), "the seed shifts the dot clock");
}

#[test]
#[ignore = "prints the expert's results per task"]
fn report_expert() {
    testkit::expert_report(ID, 1..=5);
    testkit::random_report(ID, 1..=5, &testkit::WAIT_AND_MOVES, 99);
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    for task in ["34_01", "34_04"] {
        testkit::save_frame_after(ID, task, 1, 8, &format!("/tmp/whg2_{task}.png"));
    }
    testkit::save_game_frame(&game(3, 1), "/tmp/whg2_level3.png");
}

#[test]
fn coins_are_visible_and_checkpoints_labelled_on_every_level() {
    use crate::g33_worlds_hardest_game::engine::{ORIGIN_X, ORIGIN_Y, Tile};
    for level in 1..=3 {
        let g = game(level, 1);
        let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
        let texts = crate::draw::record_texts(|| g.render(&mut pm));
        let has_check = g.level().tiles.iter().any(|t| matches!(t, Tile::Check(_)));
        assert_eq!(
            texts.iter().any(|t| t == "CHECKPOINT"),
            has_check,
            "level {level}: {texts:?}"
        );
        assert!(texts.iter().any(|t| t == "EXIT"));
        let rgb = gw_core::frame::pixmap_rgb(&pm);
        for &(x, y) in &g.level().coins {
            let (px, py) = (
                (ORIGIN_X as i32 + x) as usize,
                (ORIGIN_Y as i32 + y) as usize,
            );
            let p = &rgb[(py * 1280 + px) * 3..][..3];
            assert!(
                p[0] > 180 && p[1] > 150 && p[2] < 120,
                "level {level}: coin at ({x}, {y}) is hidden: {p:?}"
            );
        }
    }
}
