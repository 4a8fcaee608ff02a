use super::*;
use crate::testkit;
use gw_core::Status;

crate::game_contract! {
    golden_frame: (1, 30, "7c2efce5ee8609324bba30a8d43b07ff59bed07c9c272790eeafe80640490469"),
    deterministic: ("29_01", 40),
    expert_solves_all: 4,
    // Every frame of an expert game and of a random one, hashed with the drawing code before the static layer was cached.
    whole_plays: (("29_03", 2, 150), ("29_01", 3, 150), &CONTROLS,
        ["e0b047533909efdca2a423768ab4775d0c20ebe75d704edf220cfbbed0838301",
         "a583778492b09f7bcac62c8a4997ae0f6dd4eec0afc03ab1331277aee0198310"]),
}

fn game(seed: u64) -> Tetris {
    let mut g = Tetris::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn key(g: &mut Tetris, k: &str) {
    g.handle_event(&InputEvent::KeyDown { key: k.into() });
    g.advance(200);
    g.handle_event(&InputEvent::KeyUp { key: k.into() });
}

#[test]
fn rotations_match_srs_shapes() {
    // T pointing right after one clockwise turn; I becomes column 2 of its box.
    let mut t = cells(2, 1).to_vec();
    t.sort();
    assert_eq!(t, vec![(1, 0), (1, 1), (1, 2), (2, 1)]);
    let mut i = cells(0, 1).to_vec();
    i.sort();
    assert_eq!(i, vec![(2, 0), (2, 1), (2, 2), (2, 3)]);
    for k in 0..7 {
        assert_eq!(cells(k, 4), cells(k, 0));
    }
    // Kick tables: 0->R for JLSTZ tests (-1,0) then (-1,-1 in y down).
    assert_eq!(kicks(2, 0, true)[1], (-1, 0));
    assert_eq!(kicks(2, 0, true)[2], (-1, -1));
    assert_eq!(kicks(0, 0, true)[1], (-2, 0));
}

#[test]
fn wall_kick_lets_a_piece_turn_against_the_wall() {
    let board: Board = [[0; W]; H];
    // A vertical I hugging the right wall (column 9) turns flat by kicking left.
    let p = Piece {
        kind: 0,
        rot: 1,
        x: 7,
        y: 5,
    };
    assert!(p.fits(&board));
    assert!(p.blocks().iter().all(|&(x, _)| x == 9));
    let naive = Piece { rot: 2, ..p };
    assert!(!naive.fits(&board));
    let q = p.rotated(&board, true).expect("kicked");
    assert!(q.fits(&board));
    assert_eq!(q.rot, 2);
}

#[test]
fn seven_bag_deals_each_piece_once_per_set() {
    let mut g = game(5);
    let mut seen = vec![g.active().unwrap().kind];
    for _ in 0..13 {
        g.hard_drop();
        g.board = [[0; W]; H];
        seen.push(g.active().unwrap().kind);
    }
    for set in [&seen[0..7], &seen[7..14]] {
        let mut s = set.to_vec();
        s.sort();
        assert_eq!(s, vec![0, 1, 2, 3, 4, 5, 6], "{seen:?}");
    }
}

#[test]
fn movement_rotation_and_hard_drop() {
    let mut g = game(1);
    let p0 = g.active().unwrap();
    key(&mut g, "ArrowLeft");
    assert_eq!(
        g.active().unwrap().x,
        p0.x - 1,
        "a 0.2 s tap moves one column"
    );
    // Holding past the auto-shift delay repeats.
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowRight".into(),
    });
    g.advance(400);
    g.handle_event(&InputEvent::KeyUp {
        key: "ArrowRight".into(),
    });
    assert!(
        g.active().unwrap().x > p0.x,
        "holding past the delay repeats"
    );
    let before = g.active().unwrap();
    key(&mut g, "x");
    if before.kind != 1 {
        assert_eq!(g.active().unwrap().rot, 1);
        key(&mut g, "z");
        assert_eq!(g.active().unwrap().rot, 0);
        key(&mut g, "ArrowUp");
        assert_eq!(g.active().unwrap().rot, 1);
    }
    let kind = g.active().unwrap().kind;
    key(&mut g, "Space");
    assert_eq!(g.pieces, 1);
    let filled = g
        .board()
        .iter()
        .flatten()
        .filter(|&&v| v == kind + 1)
        .count();
    assert_eq!(filled, 4);
    assert!(
        g.board()[H - 1].iter().any(|&v| v != 0),
        "hard drop lands on the floor"
    );
}

#[test]
fn gravity_and_soft_drop_move_the_piece_down() {
    let mut g = game(2);
    let y0 = g.active().unwrap().y;
    g.advance(gravity_ms(1) * 3 + 5);
    assert_eq!(g.active().unwrap().y, y0 + 3);
    let y1 = g.active().unwrap().y;
    key(&mut g, "ArrowDown");
    assert_eq!(
        g.active().unwrap().y,
        y1 + 5,
        "one row at once plus one per 50 ms"
    );
    assert!(gravity_ms(5) < gravity_ms(1) && gravity_ms(1) == 1000);
    // A resting piece locks after the lock delay.
    g.advance(30_000);
    assert!(g.pieces >= 1);
}

#[test]
fn line_clears_score_by_table_and_level() {
    assert_eq!(
        (
            line_points(1, 1),
            line_points(2, 1),
            line_points(3, 1),
            line_points(4, 1)
        ),
        (100, 300, 500, 800)
    );
    assert_eq!(line_points(2, 3), 900);
    let mut g = game(3);
    // Fill the bottom four rows except column 0 and drop a vertical I there.
    for r in H - 4..H {
        for c in 1..W {
            g.board[r][c] = 3;
        }
    }
    g.board[H - 5][5] = 2;
    g.active = Some(Piece {
        kind: 0,
        rot: 1,
        x: -2,
        y: 2,
    });
    assert!(g.active.unwrap().fits(&g.board));
    g.hard_drop();
    assert_eq!(g.lines, 4);
    assert_eq!(g.score, 800);
    assert_eq!(g.clears[3], 1);
    // Everything above moved down four rows.
    assert_eq!(g.board[H - 1][5], 2);
    assert_eq!(g.board[H - 2].iter().filter(|&&v| v != 0).count(), 0);
    // Ten lines raise the level.
    g.lines = 9;
    g.level = 1;
    for c in 1..W {
        g.board[H - 1][c] = 3;
    }
    g.board[H - 1][0] = 0;
    g.active = Some(Piece {
        kind: 0,
        rot: 1,
        x: -2,
        y: 2,
    });
    g.hard_drop();
    assert_eq!(g.level, 2);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], 2);
    assert_eq!(st["metrics"]["lines_target"], 10);
    assert!(st["metrics"]["lines_remaining"].as_u64().unwrap() <= 10);
}

#[test]
fn hold_swaps_once_per_piece() {
    let mut g = game(4);
    let first = g.active().unwrap().kind;
    let next = g.next_kinds()[0];
    key(&mut g, "Shift");
    assert_eq!(g.hold_kind(), Some(first));
    assert_eq!(g.active().unwrap().kind, next);
    key(&mut g, "c");
    assert_eq!(
        g.active().unwrap().kind,
        next,
        "second hold on the same piece does nothing"
    );
    key(&mut g, "Space");
    key(&mut g, "c");
    assert_eq!(g.active().unwrap().kind, first);
}

#[test]
fn blocked_spawn_is_game_over_and_enter_retries() {
    let mut g = game(6);
    for r in HIDDEN..H {
        for c in 0..W {
            g.board[r][c] = if c == (r % W) { 0 } else { 5 };
        }
    }
    g.hard_drop();
    let st = g.state();
    assert!(st.terminal.is_terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.status, Status::Terminal);
    key(&mut g, "Space");
    g.handle_event(&InputEvent::KeyDown {
        key: "Enter".into(),
    });
    assert!(!g.state().terminal.is_terminal);
    assert_eq!(g.score, 0);
    assert!(g.board().iter().flatten().all(|&v| v == 0));
}

#[test]
fn start_level_comes_from_config() {
    let mut g = Tetris::new();
    g.init(&GameConfig {
        seed: 1,
        level: Some(3),
        ..Default::default()
    });
    assert_eq!(g.state().game_state["level"], 3);
    assert_eq!(game(1).state().game_state["level"], 1);
}

/// Every control of the Tetris action space, for the random policy.
const CONTROLS: [&str; 8] = [
    "wait",
    "move_left",
    "move_right",
    "soft_drop",
    "rotate_cw",
    "rotate_ccw",
    "hard_drop",
    "hold_piece",
];

#[test]
fn random_policy_does_clearly_worse() {
    let wins = testkit::random_policy_wins(ID, "29_01", 1..=5, &CONTROLS, 99);
    assert!(wins <= 1, "random policy solved 29_01 {wins}/5 times");
}

#[test]
#[ignore = "prints expert results for tuning"]
fn expert_report() {
    testkit::random_report(ID, 1..=5, &CONTROLS, 99);
    testkit::expert_report(ID, 1..=5);
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "29_05", 1, 45, "/tmp/tetris.png");
}
