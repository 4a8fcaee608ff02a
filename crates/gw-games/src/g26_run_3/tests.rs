use super::*;
use crate::testkit;

crate::game_contract! {
    golden_frame: (1, 20, "286eb9839b0e77dd18781c6079e73f103468f3cd768625dbc7f76ff7d6912a00"),
    deterministic: ("26_05", 40),
    expert_solves_all: 4,
    report_scores: (1..=15, 1..=10, &IDS, 99),
    // Every frame of an expert play and of a random one, hashed with the
    // renderer as it was before it was tuned for speed: pins the pixels of many
    // scenes (turns, jumps, crashes, restarts), not just one frame.
    whole_plays_banded: (("26_05", 1, 120), ("26_04", 2, 120), &IDS,
        ["0cb9be09a025ff4b6886b9fa01912c021f756af014fc54662fe4479f2db32c01",
         "e7c8bf43811f6466fdf6ad2ebc1a3f12fc6982d2379a34e01d88c296e246c88f"]),
}

fn game(seed: u64) -> Run3 {
    let mut g = Run3::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn key(g: &mut Run3, key: &str, down: bool) {
    let key = key.to_string();
    g.handle_event(&if down {
        InputEvent::KeyDown { key }
    } else {
        InputEvent::KeyUp { key }
    });
}

/// A world over a tunnel of `rows` (first row 0) with the runner at row 0.
fn world(rows: &[Row]) -> World {
    let mut w = World::new();
    w.first_row = 0;
    w.rows = rows.iter().copied().collect();
    w
}

#[test]
fn starts_running_on_a_clear_tunnel_with_state_fields() {
    let g = game(3);
    let st = g.state().to_value();
    assert_eq!(st["status"], "playing");
    assert_eq!(st["metrics"]["primary_score"], 0);
    assert_eq!(st["metrics"]["deaths"], 0);
    assert_eq!(st["game_state"]["level"], 1);
    assert_eq!(st["game_state"]["mode"], "infinite");
    assert_eq!(st["game_state"]["player"]["side"], 0);
    let w = g.world();
    assert!(w.last_row() >= AHEAD_ROWS);
    for row in 0..START_ROWS {
        assert_eq!(w.rows[(row - w.first_row) as usize], [FULL; 4]);
    }
    // The generated tunnel has holes somewhere ahead.
    assert!(
        w.rows
            .iter()
            .any(|r| r.contains(&0) || r.iter().any(|b| *b != FULL))
    );
}

#[test]
fn strafing_past_an_edge_turns_the_wall_into_the_floor() {
    let mut w = world(&[[FULL; 4]; 40]);
    w.right = true;
    while w.runner.side == 0 {
        assert!(!w.tick());
    }
    assert_eq!(w.runner.side, 1);
    assert!(w.runner.u < 0.2);
    assert_eq!(w.side_changes, 1);
    w.right = false;
    w.left = true;
    while w.runner.side == 1 {
        w.tick();
    }
    assert_eq!(w.runner.side, 0);
    assert!(w.runner.u > SIDE_W - 0.2);
    // Left of side 0 is side 3.
    w.runner.u = 0.01;
    w.tick();
    assert_eq!(w.runner.side, 3);
    // Points on the shared corner coincide in 3D.
    let a = section_point(0, SIDE_W, 0.0);
    let b = section_point(1, 0.0, 0.0);
    assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
}

#[test]
fn a_hole_drops_the_runner_and_a_jump_clears_it() {
    let mut rows = [[FULL; 4]; 40];
    rows[3][0] = 0; // row 3 (z 6..8) of the floor is missing
    let mut w = world(&rows);
    let mut fell = false;
    for _ in 0..200 {
        if w.tick() {
            fell = true;
            break;
        }
    }
    assert!(fell && w.dead);
    assert!(w.runner.z > 6.0);
    // Jumping shortly before the hole carries the runner over it.
    let mut w = world(&rows);
    while w.runner.z < 4.5 {
        w.tick();
    }
    w.jump();
    assert_eq!(w.jumps, 1);
    w.jump();
    assert_eq!(w.jumps, 1, "no jumping again in the air");
    for _ in 0..150 {
        assert!(!w.tick());
    }
    assert!(w.runner.on_ground() && w.runner.z > 10.0);
}

#[test]
fn speed_rises_and_items_are_collected() {
    assert_eq!(speed_at(0), V0);
    assert!(speed_at(10_000) > V0 && speed_at(1_000_000) == VMAX);
    let mut w = world(&[[FULL; 4]; 40]);
    w.items.push(Item {
        kind: ItemKind::Cell,
        side: 0,
        u: SIDE_W / 2.0,
        z: 5.0,
        h: 0.5,
    });
    w.items.push(Item {
        kind: ItemKind::Cell,
        side: 2,
        u: SIDE_W / 2.0,
        z: 5.0,
        h: 0.5,
    });
    for _ in 0..50 {
        w.tick();
    }
    assert_eq!(w.cells, 1, "only the cell on the runner's side");
}

#[test]
fn falling_out_is_terminal_and_counts_a_death() {
    let mut g = game(1);
    // Make every row ahead a gap.
    for r in g.world.rows.iter_mut().skip(4) {
        *r = [0; 4];
    }
    let mut t = 0;
    while !g.state().terminal.is_terminal && t < 10_000 {
        g.advance(100);
        t += 100;
    }
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["outcome"], "fail");
    assert_eq!(st["metrics"]["deaths"], 1);
    g.reset(1);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["deaths"], 1);
    assert_eq!(st["metrics"]["attempts"], 2);
    assert_eq!(st["metrics"]["primary_score"], 0);
}

#[test]
fn jump_keys_act_on_key_down_only() {
    let mut g = game(2);
    key(&mut g, "ArrowUp", true);
    assert_eq!(g.world().jumps, 1);
    g.advance(800);
    key(&mut g, "Space", true);
    assert_eq!(g.world().jumps, 1, "a held jump key does not jump again");
    key(&mut g, "ArrowUp", false);
    key(&mut g, "Space", true);
    assert_eq!(g.world().jumps, 2);
}

/// The screen box of the runner's body and head (the corners of the boxes
/// `render` draws, projected with the game's camera).
fn runner_screen_box(g: &Run3) -> (f32, f32, f32, f32) {
    let cam = camera(g);
    let r = &g.world.runner;
    let a = r.side as f64 * std::f64::consts::FRAC_PI_2;
    let (ox, oy) = section_point(r.side, 0.0, 0.0);
    let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for u in [r.u - 0.17, r.u + 0.17] {
        for h in [r.h, r.h + 0.98] {
            for dz in [-0.12, 0.12] {
                let (x, y) = rotate(u, h, a);
                if let Some((sx, sy, _)) = cam.project(v3(ox + x, oy + y, r.z + dz)) {
                    b = (b.0.min(sx), b.1.min(sy), b.2.max(sx), b.3.max(sy));
                }
            }
        }
    }
    b
}

/// The controls hint never covers the runner: not while it strafes to
/// either edge, walks onto a wall (the view rolling) or jumps.
#[test]
fn the_controls_hint_never_covers_the_runner() {
    let (hx, hy, hw, hh) = HINT_BOX;
    for keys in [
        &["ArrowLeft"][..],
        &["ArrowRight"],
        &["ArrowLeft", "ArrowUp"],
    ] {
        let mut g = game(700);
        for k in keys {
            key(&mut g, k, true);
        }
        for _ in 0..60 {
            g.advance(50);
            if g.terminal.is_terminal {
                break;
            }
            let (x0, y0, x1, y1) = runner_screen_box(&g);
            let apart = x1 < hx || x0 > hx + hw || y1 < hy || y0 > hy + hh;
            assert!(
                apart,
                "{keys:?}: runner at ({x0},{y0})-({x1},{y1}) under the hint"
            );
        }
    }
}

const IDS: [&str; 4] = ["wait", "move_left", "move_right", "jump"];

#[test]
fn random_and_idle_policies_do_clearly_worse() {
    let random = testkit::play_random(ID, "26_04", 1..=5, &IDS, 99);
    assert!(random.iter().all(|r| !r.success), "{random:?}");
    let idle = testkit::play(ID, "26_03", 1, |_| Some(json!({"action": "wait"})));
    assert!(!idle.success && idle.episodes > 1, "{idle:?}");
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    testkit::save_frame_after(ID, "26_05", 1, 0, "/tmp/run3_start.png");
    testkit::save_frame_after(ID, "26_05", 1, 25, "/tmp/run3_mid.png");
    testkit::save_frame_after(ID, "26_05", 2, 60, "/tmp/run3_late.png");
    let mut g = game(1);
    while !g.state().terminal.is_terminal {
        g.advance(200);
    }
    testkit::save_game_frame(&g, "/tmp/run3_over.png");
}

/// Over many seeds and sections, a stretch with missing sides (rows whose
/// sides are each whole or gone) never takes away a side that the stretch
/// before it kept, nor starts after fewer than [`SIDES_BEFORE`] whole rows:
/// the floor never jumps from one side to another between two rows. (Seed 1000 once laid
/// sides 0 and 2 out right after a stretch without side 3, so a runner on
/// side 3 had to be on side 2 within one 10 ms tick.)
#[test]
fn missing_sides_always_come_after_whole_rows() {
    for seed in 0..200 {
        let mut g = game(seed);
        for _ in 0..300 {
            g.generate_section();
        }
        let rows: Vec<Row> = g.world.rows.iter().copied().collect();
        // A stretch's row: every side whole or gone, some of each.
        let sided =
            |r: &Row| r.iter().all(|&b| b == 0 || b == FULL) && r.contains(&0) && r.contains(&FULL);
        for i in 1..rows.len() {
            if !sided(&rows[i]) || rows[i - 1] == rows[i] {
                continue;
            }
            // A side that was whole never goes straight after one stretch;
            // after whole rows, at least SIDES_BEFORE of them.
            let gone = (0..4).any(|k| rows[i - 1][k] == FULL && rows[i][k] == 0);
            let whole_before = rows[..i]
                .iter()
                .rev()
                .take_while(|r| **r == [FULL; 4])
                .count();
            assert!(
                !(sided(&rows[i - 1]) && gone)
                    && (whole_before == 0 || whole_before >= SIDES_BEFORE.min(i)),
                "seed {seed}: row {} ({:?}) follows {:?}",
                g.world.first_row + i as i64,
                rows[i],
                &rows[i.saturating_sub(3)..i]
            );
        }
    }
}

/// The expert on seeds it was never tuned on (700..720): measured 20/20 on
/// 26_04 and 26_05 once stretches with missing sides came after whole rows.
#[test]
fn expert_holds_on_untuned_seeds() {
    testkit::assert_expert_wins(ID, "26_04", 700..720, 19);
    testkit::assert_expert_wins(ID, "26_05", 700..720, 18);
}
