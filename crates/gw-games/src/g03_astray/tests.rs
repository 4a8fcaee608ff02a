use super::*;
use crate::testkit;
use gw_core::state::lookup;

crate::game_contract! {
    golden_frame: (1, 8, "a06767c01d8f2107f7102d44453ae4a3b1265fc6505121790ab3549b4f59e26c"),
    deterministic: ("03_02", 30),
    expert_solves_all: 4,
}

fn game(seed: u64, level: u32) -> Astray {
    let mut g = Astray::new();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g
}

#[test]
fn mazes_are_perfect_and_grow_with_level() {
    for level in 1..=5 {
        let g = game(7, level);
        let n = cells_for_level(level);
        let m = g.maze();
        assert_eq!(m.dim, 2 * n + 1);
        let dist = m.distances_to_exit();
        let mut floor = 0;
        for r in 0..m.dim {
            for c in 0..m.dim {
                if !m.wall(c as i32, r as i32) {
                    floor += 1;
                    assert_ne!(
                        dist[r * m.dim + c],
                        u32::MAX,
                        "floor block ({c},{r}) cannot reach the exit"
                    );
                }
                if r % 2 == 1 && c % 2 == 1 {
                    assert!(!m.wall(c as i32, r as i32), "every cell is carved");
                }
            }
        }
        // A spanning tree over n² cells has n² − 1 passages, plus the exit gap.
        assert_eq!(floor, n * n + (n * n - 1) + 1, "level {level}");
        assert!(m.wall(0, 0) && m.wall(m.dim as i32 - 1, m.dim as i32 - 2));
        assert_eq!(m.rows()[1].chars().last(), Some('E'));
    }
}

#[test]
fn maze_depends_on_seed_level_and_episode_only() {
    assert_eq!(game(3, 2).maze(), game(3, 2).maze());
    assert_ne!(game(3, 2).maze(), game(4, 2).maze());
    let mut g = game(3, 2);
    let first = g.maze().clone();
    g.reset(1);
    assert_ne!(g.maze(), &first, "a reset episode gets a new maze");
    g.reset(0);
    assert_eq!(g.maze(), &first);
}

#[test]
fn holding_a_key_pushes_and_the_ball_coasts_to_a_stop() {
    let mut g = game(1, 1);
    let start = g.ball();
    // Find an open direction from the start block (up or right is always open
    // in a perfect maze carved from the bottom-left corner).
    let (sc, sr) = g.maze().start_block();
    let key = if !g.maze().wall(sc as i32 + 1, sr as i32) {
        "ArrowRight"
    } else {
        "ArrowUp"
    };
    testkit::hold_key(&mut g, key, 250);
    let moved = g.ball();
    let speed = (moved.vx * moved.vx + moved.vy * moved.vy).sqrt();
    assert!(speed > 3.0, "speed after a 0.25 s push: {speed}");
    assert!((moved.x - start.x).abs() + (moved.y - start.y).abs() > 0.3);
    g.advance(2000);
    let rest = g.ball();
    let speed = (rest.vx * rest.vx + rest.vy * rest.vy).sqrt();
    assert!(speed < 0.05, "ball keeps rolling at {speed}");
    assert_eq!(g.state().metrics["key_presses"], 1);
}

#[test]
fn walls_stop_the_ball() {
    let mut g = game(2, 3);
    let dim = g.maze().dim as f64;
    // Below and left of the start block are border walls.
    testkit::hold_key(&mut g, "ArrowDown", 1000);
    testkit::hold_key(&mut g, "ArrowLeft", 1000);
    g.advance(500);
    let b = g.ball();
    assert!(
        b.y <= dim - 1.0 - BALL_RADIUS + 1e-6,
        "ball sank into the bottom wall: {}",
        b.y
    );
    assert!(
        b.x >= 1.0 + BALL_RADIUS - 1e-6,
        "ball sank into the left wall: {}",
        b.x
    );
    assert!(g.state().metrics["wall_hits"].as_u64().unwrap() >= 1);
    assert!(!g.state().terminal.is_terminal);
}

#[test]
fn reaching_the_exit_is_terminal_success() {
    let mut g = game(5, 2);
    let (ec, er) = g.maze().exit_block();
    assert!(g.completion_progress() == 0.0);
    assert!(g.distance_to_goal() > 10);
    // Put the ball in the top-right cell, next to the exit, and push right.
    g.ball = Ball {
        x: ec as f64 - 0.5,
        y: er as f64 + 0.5,
        vx: 0.0,
        vy: 0.0,
    };
    assert_eq!(g.distance_to_goal(), 1);
    assert!(g.completion_progress() > 0.9 && g.completion_progress() < 1.0);
    testkit::hold_key(&mut g, "ArrowRight", 500);
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["isTerminal"], true);
    assert_eq!(st["terminal"]["outcome"], "success");
    assert_eq!(st["status"], "terminal");
    assert_eq!(lookup(&st, "game_state.completion_progress").unwrap(), 1.0);
    assert_eq!(lookup(&st, "metrics.distance_to_goal").unwrap(), 0);
    // Input after the end changes nothing.
    let before = g.ball();
    testkit::hold_key(&mut g, "ArrowLeft", 500);
    assert_eq!(g.ball(), before);
}

#[test]
fn task_level_selects_the_starting_maze() {
    for level in 1..=5u32 {
        let s = testkit::stepper(ID, &format!("03_0{level}"), 1);
        let st = s.state_value();
        assert_eq!(st["game_state"]["level"], level);
        assert_eq!(st["game_state"]["maze_blocks"], 2 * (level + 4) + 1);
        for f in [
            "game_state.level",
            "game_state.completion_progress",
            "metrics.distance_to_goal",
            "terminal.outcome",
            "terminal.isTerminal",
        ] {
            assert!(lookup(&st, f).is_some(), "missing state field {f}");
        }
        assert_eq!(st["status"], "playing");
    }
}

/// The random policy's controls, in the order it draws them.
const CONTROLS: [&str; 5] = ["wait", "move_left", "move_right", "move_up", "move_down"];

#[test]
fn random_policy_does_clearly_worse() {
    let (mut random_total, mut expert_total) = (0.0, 0.0);
    for seed in 1..=3 {
        random_total += testkit::play_random(ID, "03_03", [seed], &CONTROLS, 99)[0].best_score;
        expert_total += testkit::play_expert(ID, "03_03", seed).best_score;
    }
    assert!(expert_total >= 2.9, "expert {expert_total}");
    assert!(random_total < 1.5, "random {random_total}");
}

#[test]
#[ignore = "benchmark: prints the cost of one tick (machine-dependent, so not asserted)"]
fn tick_timing() {
    let mut g = game(1, 5);
    g.handle_event(&InputEvent::KeyDown {
        key: "ArrowUp".into(),
    });
    let t = std::time::Instant::now();
    for _ in 0..10_000 {
        g.advance(10);
    }
    let per_tick = t.elapsed().as_secs_f64() / 10_000.0;
    eprintln!("advance(10): {:.2} us", per_tick * 1e6);
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "03_05", 1, 20, "/tmp/astray.png");
}

#[test]
#[ignore = "diagnostic: prints steps the expert needs per level and seed"]
fn expert_step_report() {
    for level in 1..=5 {
        let task = format!("03_0{level}");
        let mut line = format!("level {level}:");
        for seed in 1..=10 {
            let r = testkit::play_expert(ID, &task, seed);
            let d = game(seed, level).start_distance;
            line += &format!(
                " s{seed}:{}{}(d{d})",
                r.steps,
                if r.success { "" } else { "!" }
            );
        }
        println!("{line}");
    }
}

#[test]
#[ignore = "diagnostic: random policy best progress per task"]
fn random_policy_report() {
    testkit::random_report(ID, 1..=5, &CONTROLS, 99);
}
