use super::*;
use crate::testkit;
use gw_core::registry::Interface;

crate::game_contract! {
    golden_frame: (1, 30, "c94996b194ed0b714f52d79a50c37155651df714927e5e054e3f87e02a7b985d"),
    deterministic: ("23_05", 60),
    expert_solves_all: 4,
}

fn game(seed: u64) -> Pacman {
    let mut g = Pacman::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn key(g: &mut Pacman, k: &str) {
    g.handle_event(&InputEvent::KeyDown { key: k.into() });
    g.handle_event(&InputEvent::KeyUp { key: k.into() });
}

/// Park every ghost in the pen so it cannot interfere.
fn park_ghosts(g: &mut Pacman) {
    for gh in &mut g.ghosts {
        gh.state = GhostState::InHouse;
        gh.m = Mover {
            x: HOUSE_EXIT.0 * U,
            y: 14 * U,
            dir: Dir::Up,
            moving: false,
        };
    }
    g.round_ms = 0;
}

#[test]
fn maze_is_connected_without_dead_ends() {
    let (cells, pellets) = parse_maze();
    let mut seen = vec![false; W * H];
    let mut stack = vec![PAC_START];
    seen[PAC_START.1 as usize * W + PAC_START.0 as usize] = true;
    while let Some((x, y)) = stack.pop() {
        let mut exits = 0;
        for d in DIRS {
            let (dx, dy) = d.delta();
            let (nx, ny) = ((x + dx).rem_euclid(W as i32), y + dy);
            if open(&cells, nx, ny) {
                exits += 1;
                let i = ny as usize * W + nx as usize;
                if !seen[i] {
                    seen[i] = true;
                    stack.push((nx, ny));
                }
            }
        }
        assert!(exits >= 2, "dead end at {x},{y}");
    }
    let mut count = 0;
    for y in 0..H {
        for x in 0..W {
            if pellets[y][x] > 0 {
                count += 1;
                assert!(seen[y * W + x], "pellet at {x},{y} unreachable");
            }
        }
    }
    // The classic arcade maze: 240 pellets and 4 energizers.
    assert_eq!(count, 244);
    assert_eq!(pellets.iter().flatten().filter(|&&p| p == 2).count(), 4);
    assert!(seen[HOUSE_EXIT.1 as usize * W + HOUSE_EXIT.0 as usize]);
}

#[test]
fn waits_for_first_key_then_keeps_moving() {
    let mut g = game(1);
    assert_eq!(g.state().status, Status::Ready);
    g.advance(1000);
    assert_eq!(g.pac, Mover::at_tile(PAC_START.0, PAC_START.1, Dir::Left));
    assert_eq!(
        g.state().game_state["player"]["moving"],
        false,
        "nothing moves before the first key"
    );
    assert_eq!(
        g.ghosts[0].m,
        Mover::at_tile(HOUSE_EXIT.0, HOUSE_EXIT.1, Dir::Left)
    );
    key(&mut g, "ArrowRight");
    assert_eq!(g.state().status, Status::Playing);
    g.advance(300);
    // Key released long ago, Pac-Man still runs right at ~9.5 tiles/s.
    assert_eq!(g.pac.y, PAC_START.1 * U);
    assert!(g.pac.x > PAC_START.0 * U + 2 * U, "{}", g.pac.x);
    assert_eq!(g.state().game_state["player"]["moving"], true);
    assert_eq!(
        g.score, 20,
        "two pellets on the way (the start row is bare)"
    );
}

#[test]
fn buffered_turn_waits_for_an_opening() {
    let mut g = game(1);
    park_ghosts(&mut g);
    key(&mut g, "ArrowLeft");
    // Row 23 going left from x=13: the first open tile upwards is x=12 (row 22 col 12 is '.').
    key(&mut g, "ArrowUp");
    g.advance(60);
    assert_eq!(g.pac.dir, Dir::Left, "no opening above until column 12");
    g.advance(200);
    assert_eq!(g.pac.dir, Dir::Up);
    assert_eq!(g.pac.x, 12 * U);
    assert!(g.pac.y < 23 * U);
    // Reversal is immediate, even mid-tile.
    key(&mut g, "ArrowDown");
    assert_eq!(g.pac.dir, Dir::Down);
}

#[test]
fn stops_at_walls_and_wraps_through_tunnel() {
    let mut g = game(2);
    park_ghosts(&mut g);
    g.phase = Phase::Playing;
    g.pac = Mover::at_tile(3, 14, Dir::Left);
    g.buffered = Some(Dir::Left);
    g.advance(500);
    let (tx, ty) = g.pac.tile();
    assert_eq!(ty, 14);
    assert!(tx >= 23, "wrapped to the right side, at {tx}");
    g.pac = Mover::at_tile(1, 1, Dir::Up);
    g.buffered = None;
    g.advance(200);
    assert_eq!(g.pac.tile(), (1, 1));
    assert!(!g.pac.moving);
}

#[test]
fn power_pellet_frightens_and_ghosts_score_doubling() {
    let mut g = game(3);
    park_ghosts(&mut g);
    g.phase = Phase::Playing;
    g.pac = Mover::at_tile(2, 23, Dir::Left);
    g.buffered = Some(Dir::Left);
    // Put two ghosts in the corridor to the right, chasing.
    for i in 0..2 {
        g.ghosts[i].state = GhostState::Active;
        g.ghosts[i].m = Mover::at_tile(6 + i as i32 * 2, 20, Dir::Left);
    }
    g.round_ms = 0;
    g.advance(120);
    assert_eq!(
        g.score,
        10 + 50,
        "pellet at (2,23) and the power pellet at (1,23)"
    );
    assert!(g.fright_ms > 0);
    assert!(g.ghosts[0].frightened && g.ghosts[1].frightened);
    assert!(!g.ghosts[0].dangerous());
    let before = g.score;
    g.ghosts[0].m = g.pac;
    g.collide();
    assert_eq!(g.score, before + 200);
    assert_eq!(g.ghosts[0].state, GhostState::Eyes);
    g.ghosts[1].m = g.pac;
    g.collide();
    assert_eq!(g.score, before + 600);
    assert_eq!(g.lives, 3);
    // Eyes go home and the ghost comes back out un-frightened.
    g.advance(6000);
    assert!(!g.ghosts[0].frightened);
    assert!(matches!(
        g.ghosts[0].state,
        GhostState::Active | GhostState::Leaving | GhostState::Entering
    ));
}

#[test]
fn touching_a_ghost_costs_a_life_and_last_life_ends() {
    let mut g = game(4);
    key(&mut g, "ArrowLeft");
    for life in (0..3).rev() {
        g.ghosts[0].state = GhostState::Active;
        g.ghosts[0].frightened = false;
        g.ghosts[0].m = g.pac;
        g.collide();
        assert_eq!(g.lives, life);
        if life > 0 {
            assert_eq!(g.state().status, Status::Playing);
            g.advance(DEATH_MS + 20);
            assert_eq!(g.pac.tile(), PAC_START);
        }
    }
    let st = g.state();
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.to_value()["metrics"]["deaths"], 3);
    // A reset starts over with full lives and keeps the high score.
    g.score = 0;
    g.reset(1);
    assert_eq!((g.lives, g.score, g.level), (3, 0, 1));
}

#[test]
fn death_frame_shows_the_ghosts_and_ends_the_power() {
    let mut g = game(4);
    key(&mut g, "ArrowLeft");
    g.advance(100);
    g.fright_ms = 3000;
    g.ghosts[1].frightened = true;
    g.ghosts[0].state = GhostState::Active;
    g.ghosts[0].frightened = false;
    g.ghosts[0].m = g.pac;
    g.collide();
    assert!(matches!(g.phase, Phase::Dying(_)));
    assert_eq!(g.fright_ms, 0);
    assert_ne!(g.state().to_value()["metrics"]["ghost_mode"], "frightened");
    let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
    g.render(&mut pm);
    let rgb = gw_core::frame::pixmap_rgb(&pm);
    let red = rgb.chunks_exact(3).filter(|p| *p == [255, 0, 0]).count();
    assert!(
        red > 50,
        "Blinky, who caught Pac-Man, is drawn on the death frame"
    );
}

#[test]
fn clearing_the_maze_advances_the_level() {
    let mut g = game(5);
    park_ghosts(&mut g);
    g.phase = Phase::Playing;
    g.pellets = [[0; W]; H];
    g.pellets[23][12] = 1;
    g.pellets_left = 1;
    g.buffered = Some(Dir::Left);
    g.advance(200);
    assert_eq!(g.score, 10);
    g.advance(LEVEL_CLEAR_MS + 20);
    assert_eq!(g.level, 2);
    assert_eq!(g.pellets_total, 244);
    assert!(g.pellets_left >= 240);
    assert!(pac_speed(2) > pac_speed(1) && fright_ms_for(2) < fright_ms_for(1));
    let mut g2 = Pacman::new();
    g2.init(&GameConfig {
        seed: 1,
        level: Some(3),
        ..Default::default()
    });
    assert_eq!(g2.level, 3);
}

#[test]
fn ghost_personalities_target_differently() {
    let mut g = game(6);
    g.mode_phase = 1; // chase
    g.pac = Mover::at_tile(6, 20, Dir::Right);
    g.ghosts[0].m = Mover::at_tile(1, 20, Dir::Right);
    assert_eq!(g.ghost_target(0), (6, 20));
    assert_eq!(g.ghost_target(1), (10, 20));
    // Inky: point two ahead (8,20), doubled away from Blinky (1,20) -> (15,20).
    assert_eq!(g.ghost_target(2), (15, 20));
    g.ghosts[3].m = Mover::at_tile(26, 5, Dir::Left);
    assert_eq!(g.ghost_target(3), (6, 20), "far away: chase");
    g.ghosts[3].m = Mover::at_tile(6, 23, Dir::Left);
    assert_eq!(g.ghost_target(3), (0, 31), "close: retreat to his corner");
    g.mode_phase = 0;
    assert_eq!(g.ghost_target(0), (25, -3));
}

#[test]
fn state_has_reference_fields() {
    let g = game(7);
    let v = g.state().to_value();
    let task = testkit::registry()
        .tasks
        .get(&(ID.to_string(), "23_01".to_string()))
        .unwrap();
    for f in &task.value.state_fields {
        assert!(gw_core::state::lookup(&v, f).is_some(), "missing {f}");
    }
    assert_eq!(v["metrics"]["lives"], 3);
    assert_eq!(v["game_state"]["board"].as_array().unwrap().len(), H);
}

#[test]
fn expert_reaches_2500_on_seeds_beyond_the_first_five() {
    let wins = (6..=15u64)
        .filter(|&seed| testkit::play_expert(ID, "23_05", seed).success)
        .count();
    assert!(wins >= 8, "23_05 solved on {wins}/10 of seeds 6..15");
}

#[test]
fn random_policy_does_clearly_worse() {
    let ids = ["move_up", "move_down", "move_left", "move_right", "wait"];
    let wins = testkit::random_policy_wins(ID, "23_03", 1..=5, &ids, 99);
    assert!(wins <= 1, "random policy won {wins}/5");
}

#[test]
#[ignore = "prints expert scores for tuning"]
fn expert_report() {
    testkit::expert_report(ID, 1..=15);
}

#[test]
#[ignore = "prints the expert's 23_05 results on seeds 1..30 for tuning"]
fn expert_report_23_05() {
    use rayon::prelude::*;
    let results: Vec<(u64, testkit::PlayResult)> = (1..=30u64)
        .into_par_iter()
        .map(|seed| (seed, testkit::play_expert(ID, "23_05", seed)))
        .collect();
    for (seed, r) in &results {
        println!("seed {seed:2}: {} best {}", r.success, r.best_score);
    }
    let wins = results.iter().filter(|(_, r)| r.success).count();
    println!("23_05: {wins}/30");
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "23_05", 1, 40, "/tmp/pacman.png");
}

#[test]
#[ignore = "prints an expert trace for tuning"]
fn expert_trace() {
    let mut s = testkit::stepper(ID, "23_05", 2);
    for _ in 0..100 {
        if s.finished().is_some() {
            break;
        }
        let p = s.expert_payload();
        let r = s.step(Interface::Generalist, Some(&p)).unwrap();
        let st = &r.state;
        println!(
            "{:3} {:12} score {:5} lives {} pac ({:.1},{:.1}) power {} ghosts {} mode {}",
            r.step,
            p["action"].as_str().unwrap(),
            st["game_state"]["score"],
            st["metrics"]["lives"],
            st["game_state"]["player"]["x"].as_f64().unwrap(),
            st["game_state"]["player"]["y"].as_f64().unwrap(),
            st["metrics"]["power_pellets_eaten"],
            st["metrics"]["ghosts_eaten"],
            st["metrics"]["ghost_mode"]
        );
    }
}

#[test]
#[ignore = "prints render and tick timings"]
fn timing_report() {
    let mut s = testkit::stepper(
        ID,
        testkit::registry().tasks_of(ID).next().unwrap().id.as_str(),
        1,
    );
    for _ in 0..4 {
        let p = s.expert_payload();
        s.step(Interface::Generalist, Some(&p)).unwrap();
    }
    let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..20 {
        s.render(&mut pm);
    }
    println!("render {:?}/frame", t.elapsed() / 20);
    let t = std::time::Instant::now();
    s.idle(10_000);
    println!("advance {:?}/tick", t.elapsed() / 1000);
}
