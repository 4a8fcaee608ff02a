use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "bd540a4a18f5a70a3a9773e57c0f5d33873e36bed4378a1f11a5612bc1d3a640"),
    deterministic: ("15_05", 60),
    expert_solves_all: 4,
}

fn game(seed: u64) -> Snake {
    let mut g = Snake::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn press(g: &mut Snake, k: &str) {
    g.handle_event(&InputEvent::KeyDown { key: k.into() });
    g.advance(200);
    g.handle_event(&InputEvent::KeyUp { key: k.into() });
}

#[test]
fn waits_for_the_first_key_then_moves_each_tick() {
    let mut g = game(1);
    g.body.apples.clear();
    let head = g.body.head();
    assert_eq!(g.state().status, Status::Ready);
    g.advance(1000);
    assert_eq!(g.body.head(), head, "no movement before the first key");
    press(&mut g, "ArrowLeft");
    assert_eq!(
        g.state().status,
        Status::Ready,
        "reversing into the neck does not start it"
    );
    press(&mut g, "ArrowRight");
    assert_eq!(g.state().status, Status::Playing);
    assert_eq!(
        g.body.head(),
        (head.0 + 1, head.1),
        "one cell per 0.2 s step"
    );
    g.advance(TICK_MS * 3);
    assert_eq!(g.body.head(), (head.0 + 4, head.1));
    assert_eq!(g.body.cells.len(), START_LEN);
    assert_eq!(g.state().metrics["speed"], 5.0);
}

#[test]
fn turns_apply_and_reversal_is_ignored() {
    let mut g = game(2);
    g.body.apples.clear();
    press(&mut g, "ArrowUp");
    assert_eq!(g.body.dir, Dir::Up);
    let h = g.body.head();
    press(&mut g, "ArrowDown");
    assert_eq!(g.body.dir, Dir::Up, "no reversing into itself");
    assert_eq!(g.body.head(), (h.0, h.1 - 1));
    // Two quick turns queue up and apply on consecutive ticks.
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowLeft".into(),
    });
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowDown".into(),
    });
    g.advance(TICK_MS * 2);
    assert_eq!(g.body.dir, Dir::Down);
    assert_eq!(g.body.head(), (h.0 - 1, h.1));
}

#[test]
fn eating_grows_scores_and_respawns_an_apple() {
    let mut g = game(3);
    let h = g.body.head();
    g.body.apples = vec![(h.0 + 1, h.1)];
    press(&mut g, "ArrowRight");
    assert_eq!(g.score, 1);
    assert_eq!(g.body.cells.len(), START_LEN + 1);
    assert_eq!(g.body.apples.len(), 1);
    let a = g.body.apples[0];
    assert!(!g.body.occupied(a) && in_bounds(a));
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["score"], 1);
    assert_eq!(st["metrics"]["snake_length"], START_LEN + 1);
    assert_eq!(st["metrics"]["board_width"], BW);
    assert_eq!(st["metrics"]["board_height"], BH);
}

#[test]
fn apples_come_from_the_seed_on_free_cells() {
    let a = game(7);
    assert_eq!(a.body.apples.len(), APPLES);
    assert!(a.body.apples.iter().all(|&c| !a.body.occupied(c)));
    assert_eq!(a.body.apples, game(7).body.apples);
    assert_ne!(a.body.apples, game(8).body.apples);
}

#[test]
fn hitting_the_wall_ends_the_run() {
    let mut g = game(4);
    g.body.apples.clear();
    press(&mut g, "ArrowUp");
    for _ in 0..10 {
        g.advance(200);
    }
    let st = g.state();
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(g.body.head().1, 0, "the head stops at the edge");
    assert!(st.terminal.reason.unwrap().contains("wall"));
}

#[test]
fn running_into_the_body_ends_the_run() {
    let mut g = game(5);
    g.body.apples.clear();
    // A long snake curled so that turning down-left-up bites the body.
    g.body.cells = [(5, 5), (4, 5), (3, 5), (2, 5), (1, 5), (1, 6)]
        .into_iter()
        .collect();
    g.body.dir = Dir::Right;
    g.started = true;
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowDown".into(),
    });
    g.advance(TICK_MS);
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowLeft".into(),
    });
    g.advance(TICK_MS);
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowUp".into(),
    });
    g.advance(TICK_MS);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert!(st.terminal.reason.unwrap().contains("itself"));
    // Moving into the cell the tail is leaving is fine.
    let mut b = Body {
        cells: [(1, 1), (2, 1), (2, 2), (1, 2)].into_iter().collect(),
        dir: Dir::Down,
        apples: vec![],
    };
    assert_eq!(b.advance(), Moved::Ok);
}

#[test]
fn random_policy_does_clearly_worse() {
    let wins = testkit::random_policy_wins(ID, "15_03", 1..=5, &testkit::WAIT_AND_MOVES, 99);
    assert!(wins <= 1, "random policy solved 15_03 {wins}/5 times");
}

#[test]
#[ignore = "prints expert results for tuning"]
fn expert_report() {
    testkit::random_report(ID, 1..=5, &testkit::WAIT_AND_MOVES, 99);
    testkit::expert_report(ID, 1..=10);
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "15_05", 1, 40, "/tmp/snake.png");
}
