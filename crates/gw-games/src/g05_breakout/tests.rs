use super::*;
use crate::testkit;
use gw_core::Status;

crate::game_contract! {
    golden_frame: (1, 12, "faeca6339bd72ff23c53ac6a054bde7aa882882f9b0add5c33a22d89ddc9f3e6"),
    deterministic: ("05_01", 40),
    expert_solves_all: 4,
}

fn game(level: u32, seed: u64) -> Breakout {
    let mut g = Breakout::new();
    g.init(&GameConfig {
        seed,
        level: Some(level),
        ..Default::default()
    });
    g
}

fn key(g: &mut Breakout, k: &str, ms: u64) {
    g.handle_event(&InputEvent::KeyDown { key: k.into() });
    g.advance(ms);
    g.handle_event(&InputEvent::KeyUp { key: k.into() });
}

fn empty_field(ball: Ball) -> Field {
    let mut f = Field::new(1);
    f.bricks.clear();
    f.ball = ball;
    f
}

#[test]
fn paddle_moves_only_while_key_held_and_stops_at_walls() {
    let mut g = game(1, 1);
    let x0 = g.paddle_x();
    key(&mut g, "ArrowRight", 200);
    assert!(
        (g.paddle_x() - (x0 + PADDLE_SPEED * 0.2)).abs() < 1e-9,
        "{}",
        g.paddle_x()
    );
    g.advance(500);
    assert!(
        (g.paddle_x() - (x0 + PADDLE_SPEED * 0.2)).abs() < 1e-9,
        "paddle drifts without a key"
    );
    for _ in 0..20 {
        key(&mut g, "ArrowLeft", 200);
    }
    assert_eq!(g.paddle_x(), FX0 + PADDLE_W / 2.0);
}

#[test]
fn walls_and_ceiling_reflect_the_ball() {
    let mut f = empty_field(Ball {
        x: FX0 + 30.0,
        y: 300.0,
        vx: -600.0,
        vy: -300.0,
    });
    let speed = libm::hypot(-600.0, -300.0);
    for _ in 0..20 {
        f.tick(None);
        assert!(f.ball.x - BALL_R >= FX0 - 1e-9);
    }
    assert!(f.ball.vx > 0.0 && f.ball.vy < 0.0, "{:?}", f.ball);
    assert!((libm::hypot(f.ball.vx, f.ball.vy) - speed).abs() < 1e-6);
    let mut f = empty_field(Ball {
        x: 640.0,
        y: FY0 + 20.0,
        vx: 100.0,
        vy: -700.0,
    });
    for _ in 0..10 {
        f.tick(None);
        assert!(f.ball.y - BALL_R >= FY0 - 1e-9);
    }
    assert!(f.ball.vy > 0.0 && f.ball.vx > 0.0);
}

#[test]
fn paddle_bounce_angle_follows_hit_position() {
    let px = 640.0;
    let down = |x: f64| {
        let mut f = empty_field(Ball {
            x,
            y: PADDLE_Y - BALL_R - 20.0,
            vx: 0.0,
            vy: 800.0,
        });
        let mut hit = false;
        for _ in 0..10 {
            hit |= f.tick(Some(px)).paddle_hit;
        }
        assert!(hit);
        f.ball
    };
    let centre = down(px);
    assert!(centre.vy < 0.0 && centre.vx.abs() < 1e-6);
    let right = down(px + PADDLE_W / 4.0);
    let edge = down(px + PADDLE_W / 2.0 - 1.0);
    let left = down(px - PADDLE_W / 4.0);
    assert!(right.vx > 0.0 && left.vx < 0.0 && edge.vx > right.vx);
    let deg = libm::atan2(right.vx, -right.vy).to_degrees();
    assert!((deg - MAX_BOUNCE_DEG / 2.0).abs() < 0.5, "{deg}");
    // A ball well clear of the paddle falls through and is lost.
    let mut f = empty_field(Ball {
        x: px + PADDLE_W,
        y: PADDLE_Y - 30.0,
        vx: 0.0,
        vy: 800.0,
    });
    let lost = (0..20).any(|_| f.tick(Some(px)).lost);
    assert!(lost);
}

#[test]
fn bricks_break_score_and_bounce_the_ball() {
    let mut g = game(1, 2);
    g.serve_in = None;
    // Brick 11 is in the bottom row, so nothing stands between it and the ball.
    let target = g.field.bricks[11];
    assert_eq!(target.row, 5);
    let (bx, by) = (target.x + BRICK_W / 2.0, target.y + BRICK_H + BALL_R + 4.0);
    g.field.ball = Ball {
        x: bx,
        y: by,
        vx: 0.0,
        vy: -800.0,
    };
    g.advance(20);
    assert!(!g.field.bricks[11].alive);
    assert_eq!(g.score, target.points());
    assert!(g.field.ball.vy > 0.0);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["bricks_remaining"], 15);
    assert_eq!(st["game_state"]["completion_progress"], 1.0 / 16.0);
    // Top rows are worth more than bottom rows.
    assert!(
        ROW_STYLE[0].1 > ROW_STYLE[2].1
            && ROW_STYLE[2].1 > ROW_STYLE[4].1
            && ROW_STYLE[4].1 > ROW_STYLE[6].1
    );
}

#[test]
fn ball_speeds_up_after_hits() {
    let mut f = Field::new(1);
    let base = f.speed();
    f.hits = 4;
    assert!((f.speed() - base * 1.1).abs() < 1e-9);
    f.hits = 12;
    assert!((f.speed() - base * 1.2).abs() < 1e-9);
}

#[test]
fn losing_balls_costs_lives_and_the_last_one_ends_in_failure() {
    let mut g = game(1, 3);
    g.serve_in = None;
    g.field.ball = Ball {
        x: FX0 + 20.0,
        y: 690.0,
        vx: 0.0,
        vy: 800.0,
    };
    g.paddle_x = FX1 - PADDLE_W / 2.0;
    g.advance(100);
    assert_eq!(g.lives, 2);
    assert!(g.serving() && !g.is_terminal());
    g.advance(SERVE_MS + 10);
    assert!(
        !g.serving() && g.field.ball.vy < 0.0,
        "ball is served again"
    );
    g.lives = 1;
    g.field.ball = Ball {
        x: FX0 + 20.0,
        y: 690.0,
        vx: 0.0,
        vy: 800.0,
    };
    g.advance(100);
    let st = g.state();
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.to_value()["metrics"]["lives"], 0);
}

#[test]
fn breaking_the_last_brick_wins() {
    let mut g = game(2, 4);
    g.serve_in = None;
    for b in g.field.bricks.iter_mut().skip(1) {
        b.alive = false;
    }
    let b = g.field.bricks[0];
    g.field.ball = Ball {
        x: b.x + BRICK_W / 2.0,
        y: b.y + BRICK_H + BALL_R + 4.0,
        vx: 0.0,
        vy: -800.0,
    };
    g.advance(30);
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Success));
    assert_eq!(st.to_value()["game_state"]["completion_progress"], 1.0);
}

#[test]
fn level_selects_layout_and_speed() {
    let counts: Vec<usize> = (1..=5).map(|l| game(l, 1).field.bricks.len()).collect();
    assert_eq!(counts, [16, 20, 22, 24, 24]);
    assert!(game(5, 1).field.speed() > game(1, 1).field.speed());
    let st = game(3, 1).state().to_value();
    assert_eq!(st["game_state"]["level"], 3);
    assert_eq!(st["metrics"]["bricks_total"], 22);
    let mut g = Breakout::new();
    g.init(&GameConfig {
        seed: 1,
        ..Default::default()
    });
    assert_eq!(g.state().to_value()["game_state"]["level"], 1);
}

#[test]
fn state_has_every_reference_field() {
    for t in testkit::registry().tasks_of(ID) {
        let s = testkit::stepper(ID, &t.id, 1);
        let st = s.state_value();
        for f in t.state_fields.iter().chain(t.score_fields().iter()) {
            assert!(
                gw_core::state::lookup(&st, f).is_some(),
                "{} lacks {f}",
                t.id
            );
        }
        assert_eq!(st["status"], "playing");
        assert_eq!(st["game_state"]["level"], t.level.unwrap());
    }
}

#[test]
fn expert_predicts_landing_off_the_side_walls() {
    let f = empty_field(Ball {
        x: 640.0,
        y: 300.0,
        vx: 500.0,
        vy: 500.0,
    });
    let (x, t, _) = expert::predict_landing(&f).unwrap();
    // Unfolded path: 350 px down, 350 px right from 640 -> 990, mirrored at FX1 - r.
    let unfolded = 640.0 + (PADDLE_Y - BALL_R - 300.0);
    let wall = FX1 - BALL_R;
    let expect = wall - (unfolded - wall);
    assert!((x - expect).abs() < 8.0, "{x} vs {expect}");
    assert!((t as f64 - 700.0).abs() <= 20.0, "{t}");
}

/// The random policy's controls, in the order it draws them.
const CONTROLS: [&str; 3] = ["wait", "move_left", "move_right"];

#[test]
fn random_policy_does_clearly_worse() {
    // One generator across the five runs.
    let mut rng = gw_core::Rng::new(99, 7);
    let mut total = 0.0;
    for seed in 1..=5 {
        let r = testkit::play(
            ID,
            "05_03",
            seed,
            testkit::random_policy(&CONTROLS, &mut rng),
        );
        total += r.best_score;
    }
    assert!(total / 5.0 < 0.6, "random mean progress {}", total / 5.0);
}

#[test]
#[ignore = "prints expert results per task and seed"]
fn tune_report() {
    testkit::expert_report(ID, 1..=10);
    let mut rng = gw_core::Rng::new(99, 7);
    for task in ["05_01", "05_05"] {
        let rs: Vec<String> = (1..=5)
            .map(|seed| {
                let r = testkit::play(ID, task, seed, testkit::random_policy(&CONTROLS, &mut rng));
                format!("{:.2}", r.best_score)
            })
            .collect();
        println!("random {task} {}", rs.join(" "));
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frame() {
    let s = testkit::save_frame_after(ID, "05_05", 1, 30, "/tmp/breakout.png");
    let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
    let t0 = std::time::Instant::now();
    for _ in 0..100 {
        s.render(&mut pm);
    }
    println!("render: {:?} per frame", t0.elapsed() / 100);
}

#[test]
fn ball_leaves_a_trail_and_levels_speed_up_in_order() {
    let mut g = Breakout::new();
    g.init(&GameConfig {
        seed: 1,
        level: Some(1),
        ..Default::default()
    });
    g.reset(0);
    g.advance(2500);
    assert!(g.serve_in.is_none(), "the ball is in play");
    assert_eq!(g.trail.len(), TRAIL_TICKS);
    let render = |g: &Breakout| {
        let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
        g.render(&mut pm);
        gw_core::frame::pixmap_rgb(&pm)
    };
    let with = render(&g);
    g.trail.clear();
    let without = render(&g);
    let changed = with
        .chunks_exact(3)
        .zip(without.chunks_exact(3))
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed > 100, "the trail is drawn ({changed} px)");
    let speeds: Vec<f64> = LEVELS.iter().map(|l| l.1).collect();
    assert!(speeds.windows(2).all(|w| w[0] < w[1]), "{speeds:?}");
}
