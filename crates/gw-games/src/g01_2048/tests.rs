use super::*;
use crate::testkit;
use gw_core::Status;

crate::game_contract! {
    golden_frame: (1, 10, "1e2b271a77e945f353bdf01f05f2ca4242e91728c1930d3cd32ed7040857f146"),
    deterministic: ("01_01", 30),
    expert_solves_all: 4,
    // Every frame of an expert play (tiles up to 256 and more, merges,
    // spawns) and of a random one, hashed with the drawing code from before
    // the board was drawn from cached layers and tiles: pins the pixels across
    // many boards.
    whole_plays: (("01_05", 1, 160), ("01_03", 3, 120), &["wait", "move_up", "move_down", "move_left", "move_right"],
        ["1d04764b7768f2f9be2f46d44662e7a88def9221c9841d90ec4c6ffbecc168c1",
         "e44b07cee455d920b18472aaab4522d3c3dc57666b4c10ae149962660c83e940"]),
}

#[test]
fn slide_merges_once_per_pair() {
    assert_eq!(slide_line([2, 2, 2, 2]), ([4, 4, 0, 0], 8));
    assert_eq!(slide_line([2, 0, 2, 4]), ([4, 4, 0, 0], 4));
    assert_eq!(slide_line([4, 4, 8, 0]), ([8, 8, 0, 0], 8));
    let b: Board = [[2, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]];
    let (nb, s, moved) = apply_move(&b, Dir::Right);
    assert!(moved);
    assert_eq!((nb[0], s), ([0, 0, 0, 4], 4));
    assert!(!apply_move(&nb, Dir::Right).2);
}

#[test]
fn start_board_has_two_tiles_and_state_fields() {
    let mut g = Game2048::new();
    g.init(&GameConfig {
        seed: 9,
        ..Default::default()
    });
    let st = g.state().to_value();
    let tiles = g.board().iter().flatten().filter(|&&v| v != 0).count();
    assert_eq!(tiles, 2);
    assert_eq!(st["game_state"]["score"], 0);
    assert!(st["game_state"]["level"] == 2 || st["game_state"]["level"] == 4);
    assert_eq!(st["terminal"]["isTerminal"], false);
    assert_eq!(st["status"], "playing");
}

#[test]
fn key_and_swipe_move_the_board() {
    let mut g = Game2048::new();
    g.init(&GameConfig {
        seed: 3,
        ..Default::default()
    });
    g.board = [[2, 2, 0, 0], [0; 4], [0; 4], [0; 4]];
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowLeft".into(),
    });
    assert_eq!(g.board[0][0], 4);
    assert_eq!(g.score, 4);
    g.board = [[0, 0, 0, 8], [0; 4], [0; 4], [0; 4]];
    g.handle_event(&InputEvent::MouseDown {
        x: 700.0,
        y: 300.0,
        button: MouseButton::Left,
    });
    g.handle_event(&InputEvent::MouseUp {
        x: 500.0,
        y: 310.0,
        button: MouseButton::Left,
    });
    assert_eq!(g.board[0][0], 8);
}

#[test]
fn full_board_without_merges_is_terminal_fail() {
    let mut g = Game2048::new();
    g.init(&GameConfig {
        seed: 1,
        ..Default::default()
    });
    g.board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 0]];
    g.board[3][3] = 0;
    // Moving right fills the last cell via spawn; the board may then be stuck.
    g.board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 0, 8]];
    g.do_move(Dir::Right);
    let st = g.state();
    if !can_move(&g.board) {
        assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
        assert_eq!(st.status, Status::Terminal);
    } else {
        assert!(!st.terminal.is_terminal);
    }
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "01_01", 1, 25, "/tmp/2048.png");
}

#[test]
fn invalid_actions_are_classified_and_execute_as_no_ops() {
    use gw_core::InvalidKind;
    use gw_core::registry::Interface;
    let mut s = testkit::stepper(ID, "01_01", 2);
    let before = s.state_value();
    let r = s
        .step(Interface::Generalist, Some(&json!({"action": "jump"})))
        .unwrap();
    assert_eq!(r.invalid_kind(), Some(InvalidKind::OutOfSpace));
    assert!(
        r.invalid
            .as_ref()
            .unwrap()
            .reason
            .contains("unknown action \"jump\"")
    );
    assert!(r.events.is_empty());
    assert_eq!(r.state["game_state"], before["game_state"]);
    let r = s.step(Interface::Generalist, None).unwrap();
    assert_eq!(r.invalid_kind(), Some(InvalidKind::NoToolCall));
    let r = s
        .step(
            Interface::ComputerUse,
            Some(&json!({"action": "key_press", "key": "space"})),
        )
        .unwrap();
    assert_eq!(r.invalid_kind(), Some(InvalidKind::OutOfSpace));
    assert!(
        r.invalid
            .as_ref()
            .unwrap()
            .reason
            .contains("key \"space\" is not allowed"),
        "{:?}",
        r.invalid
    );
    // A legal computer-use action with an alias executes.
    let r = s
        .step(
            Interface::ComputerUse,
            Some(&json!({"action": "key_press", "key": "left"})),
        )
        .unwrap();
    assert!(r.valid());
    assert_eq!(
        r.action,
        Some(gw_core::Action::PressKey {
            key: "ArrowLeft".into(),
            duration: Some(0.2)
        })
    );
    assert_eq!(s.step_index(), 4);
}
