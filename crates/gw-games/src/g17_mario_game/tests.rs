use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "e51438e8e03e45c64bac2f1714a40be5370ced8ab4d4fabc3540d620dc4b64f5"),
    deterministic: ("17_05", 40),
    expert_solves_all: 4,
}

fn game(seed: u64) -> MarioGame {
    let mut g = MarioGame::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn keys(g: &mut MarioGame, ks: &[&str], down: bool) {
    for k in ks {
        let key = k.to_string();
        g.handle_event(&if down {
            InputEvent::KeyDown { key }
        } else {
            InputEvent::KeyUp { key }
        });
    }
}

fn hold(g: &mut MarioGame, ks: &[&str], ms: u64) {
    keys(g, ks, true);
    g.advance(ms);
    keys(g, ks, false);
}

#[test]
fn level_data_parses_with_start_enemies_and_pole() {
    let l = level_data();
    assert_eq!(l.map.height(), ROWS);
    assert!(l.enemy_slots.len() >= 8);
    assert!(l.pole_x > 100.0);
    assert!(l.map.find(b'm').is_none() && l.map.find(b'g').is_none());
    let g = game(1);
    let st = g.state().to_value();
    assert_eq!(st["game_state"]["level"], "1-1");
    assert_eq!(st["game_state"]["score"], 0);
    assert_eq!(st["metrics"]["lives"], 3);
    assert_eq!(st["metrics"]["time_left_s"], LEVEL_TIME_S);
    assert_eq!(st["metrics"]["coins"], 0);
    // Enemy kinds and places differ between seeds.
    let kinds = |g: &MarioGame| -> Vec<(EnemyKind, i64)> {
        g.world()
            .enemies
            .iter()
            .map(|e| (e.kind, (e.body.aabb.x * 100.0) as i64))
            .collect()
    };
    assert_ne!(kinds(&game(1)), kinds(&game(2)));
    assert_eq!(kinds(&game(1)), kinds(&game(1)));
}

#[test]
fn walking_and_jumping_have_the_documented_speed_and_height() {
    let mut g = game(1);
    let x0 = g.world().mario.aabb.x;
    hold(&mut g, &["ArrowRight"], 500);
    assert!((g.world().mario.vx - RUN_SPEED).abs() < 1e-9);
    assert!(g.world().mario.aabb.x - x0 > 2.5);
    g.advance(500);
    assert_eq!(g.world().mario.vx, 0.0, "friction stops Mario");
    let y0 = g.world().mario.aabb.y;
    keys(&mut g, &["ArrowUp"], true);
    let mut top = y0;
    for _ in 0..100 {
        g.advance(TICK_MS);
        top = top.min(g.world().mario.aabb.y);
    }
    keys(&mut g, &["ArrowUp"], false);
    assert!((y0 - top - 3.2).abs() < 0.1, "jump height {}", y0 - top);
}

#[test]
fn bumping_a_question_block_gives_a_coin() {
    // The first `?` block is at column 10, row 7.
    let mut w = World::new(Vec::new());
    w.mario.aabb.x = 9.7;
    w.press_jump();
    w.keys.up = true;
    for _ in 0..60 {
        w.tick();
    }
    assert_eq!(w.score, 200);
    assert_eq!(w.coins, 1);
    assert_eq!(w.map.at(10, 7, b'.'), b'E');
}

#[test]
fn stomps_kill_and_side_touches_cost_a_life() {
    let goomba = |x: f64, y: f64| {
        let mut body = Body::new(x, y, ENEMY.0, ENEMY.1);
        body.vx = -GOOMBA_SPEED;
        Enemy {
            kind: EnemyKind::Goomba,
            body,
            alive: true,
            active: true,
            safe_s: 0.0,
        }
    };
    // Falling onto it: squashed, +100, bounce.
    let mut still = goomba(5.0, 10.1);
    still.body.vx = 0.0;
    let mut w = World::new(vec![still]);
    w.mario.aabb.x = 5.0;
    w.mario.aabb.y = 7.0;
    w.mario.on_ground = false;
    for _ in 0..120 {
        w.tick();
    }
    assert!(!w.enemies[0].alive);
    assert_eq!((w.score, w.stomps), (100, 1));
    // Walking into it: a life lost.
    let mut w = World::new(vec![goomba(6.0, 10.1)]);
    for _ in 0..400 {
        w.tick();
    }
    assert_eq!(w.death, Some(Death::Enemy));
    // Big Mario only shrinks.
    let mut w = World::new(vec![goomba(6.0, 10.1)]);
    w.big = true;
    w.set_height(BIG_H);
    for _ in 0..400 {
        w.tick();
    }
    assert!(w.death.is_none() && !w.big && w.hurt_s > 0.0);
}

#[test]
fn koopa_shell_is_kicked_and_knocks_out_others() {
    let mut w = World::new(Vec::new());
    let mk = |kind, x: f64, vx: f64| {
        let mut body = Body::new(x, 10.1, ENEMY.0, ENEMY.1);
        body.vx = vx;
        Enemy {
            kind,
            body,
            alive: true,
            active: true,
            safe_s: 0.0,
        }
    };
    w.enemies = vec![
        mk(EnemyKind::Shell, 5.0, 0.0),
        mk(EnemyKind::Goomba, 12.0, 0.0),
    ];
    w.keys.right = true;
    for _ in 0..300 {
        w.tick();
    }
    assert!(w.death.is_none(), "{:?}", w.death);
    assert!(!w.enemies[1].alive, "the shell knocked the goomba out");
    assert_eq!(w.score, 900);
}

#[test]
fn pits_cost_lives_and_the_third_loss_ends_the_game() {
    let mut g = game(1);
    for _ in 0..3 {
        let mut w = g.world.clone();
        w.mario.aabb.x = 45.0;
        w.mario.aabb.y = 8.0;
        w.cam_x = 30.0;
        g.world = w;
        g.advance(2000);
    }
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["lives"], 0);
    assert_eq!(st["terminal"]["isTerminal"], true);
    assert_eq!(st["terminal"]["outcome"], "fail");
}

#[test]
fn mushroom_makes_mario_big_and_big_mario_ducks_and_breaks_bricks() {
    let mut w = World::new(Vec::new());
    w.bump(64, 7);
    assert_eq!(w.enemies.len(), 1);
    assert_eq!(w.enemies[0].kind, EnemyKind::Mushroom);
    // Put Mario in its way.
    w.mario.aabb.x = 68.0;
    w.cam_x = 50.0;
    for _ in 0..600 {
        w.tick();
        if w.big {
            break;
        }
    }
    assert!(w.big && w.score == 1000);
    assert!((w.mario.aabb.h - BIG_H).abs() < 1e-9);
    w.keys.down = true;
    for _ in 0..5 {
        w.tick();
    }
    assert!(w.ducking && (w.mario.aabb.h - DUCK_H).abs() < 1e-9);
    w.keys.down = false;
    w.bump(15, 7);
    assert_eq!(w.map.at(15, 7, b'.'), tilemap::EMPTY);
    assert_eq!(w.score, 1050);
}

#[test]
fn random_does_worse_than_the_expert() {
    let ids = [
        "wait",
        "move_right",
        "move_left",
        "jump",
        "jump_right",
        "jump_left",
        "duck",
    ];
    assert!(testkit::random_policy_wins(ID, "17_03", 1..=5, &ids, 33) <= 1);
    for task in ["17_04", "17_05"] {
        let wins = testkit::random_policy_wins(ID, task, 1..=5, &ids, 33);
        assert_eq!(wins, 0, "{task}: random won {wins}/5");
    }
}

#[test]
#[ignore = "prints expert and random scores while tuning"]
fn report_scores() {
    testkit::expert_report(ID, 1..=15);
    let ids = [
        "wait",
        "move_right",
        "move_left",
        "jump",
        "jump_right",
        "jump_left",
        "duck",
    ];
    testkit::random_report(ID, 1..=10, &ids, 33);
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "17_05", 1, 0, "/tmp/mario_start.png");
    testkit::save_frame_after(ID, "17_05", 2, 30, "/tmp/mario_mid.png");
    testkit::save_frame_after(ID, "17_05", 2, 100, "/tmp/mario_end.png");
}

/// The expert on seeds it was never tuned on (700..720): measured 20/20 on
/// 17_04 and 18/20 on 17_05 when its search was given discounting (before,
/// it could stall for good behind a still shell it meant to kick "later").
#[test]
fn expert_holds_on_untuned_seeds() {
    testkit::assert_expert_wins(ID, "17_04", 700..720, 18);
    testkit::assert_expert_wins(ID, "17_05", 700..720, 16);
}

/// The task texts state the goal as the original does — points to earn in
/// World 1-1 — with no strategy hint (where points come from, what pays most).
#[test]
fn task_texts_state_the_goal_without_strategy_hints() {
    for task in testkit::registry().tasks_of(ID) {
        let text = task.instruction.replace('\n', " ");
        let goal = format!("Earn {} points in World 1-1.", task.target);
        assert!(text.starts_with(&goal), "{}: {text}", task.id);
        for hint in ["(", "coin", "block", "flagpole", "pays", "stomp"] {
            assert!(!text.contains(hint), "{}: hint {hint:?} in {text}", task.id);
        }
    }
}
