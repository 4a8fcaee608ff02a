use super::*;
use crate::testkit;
use gw_core::Status;

crate::game_contract! {
    golden_frame: (1, 20, "ea159be32712ba0957ffb56b754e903fcbb986ef9d913e3587e1655d3628a2ef"),
    deterministic: ("27_03", 40),
    expert_solves_all: 4,
}

fn game(seed: u64) -> Stack {
    let mut g = Stack::new();
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    g
}

fn space(g: &mut Stack, down: bool) {
    let key = "Space".to_string();
    g.handle_event(&if down {
        InputEvent::KeyDown { key }
    } else {
        InputEvent::KeyUp { key }
    });
}

/// Let the slider run until it sits over the tower.
fn align(g: &mut Stack) {
    while g
        .slider
        .map(|s| (s.pos() - if s.axis == 0 { g.top().x } else { g.top().z }).abs() > 2.0)
        .unwrap()
    {
        g.advance(10);
    }
}

fn slab(x: f64, z: f64, w: f64, d: f64) -> Slab {
    Slab {
        x,
        z,
        w,
        d,
        hue: 0.0,
    }
}

#[test]
fn perfect_drops_snap_and_keep_size() {
    let top = slab(0.0, 0.0, 80.0, 60.0);
    let (kept, cut, what) = place(&top, &slab(PERFECT_TOL - 0.5, 0.0, 80.0, 60.0), 0);
    assert_eq!(what, Drop::Perfect);
    assert_eq!(kept.unwrap(), slab(0.0, 0.0, 80.0, 60.0));
    assert!(cut.is_none());
}

#[test]
fn overhang_is_cut_off_on_the_sliding_axis() {
    let top = slab(10.0, -5.0, 80.0, 60.0);
    let (kept, cut, what) = place(&top, &slab(10.0, 15.0, 80.0, 60.0), 1);
    assert_eq!(what, Drop::Cut(20.0));
    let (kept, cut) = (kept.unwrap(), cut.unwrap());
    assert_eq!((kept.x, kept.w), (10.0, 80.0));
    assert_eq!((kept.z, kept.d), (5.0, 40.0));
    assert_eq!((cut.z, cut.d), (35.0, 20.0));
    // Kept and cut together cover the dropped slab exactly.
    assert_eq!(kept.z - kept.d / 2.0, top.z - top.d / 2.0 + 20.0);
    assert_eq!(cut.z + cut.d / 2.0, 15.0 + 30.0);
    let (kept, _, _) = place(&top, &slab(-20.0, -5.0, 80.0, 60.0), 0);
    let kept = kept.unwrap();
    assert_eq!((kept.x, kept.w), (-5.0, 50.0));
}

#[test]
fn missing_the_tower_ends_the_game_and_counts_a_death() {
    let top = slab(0.0, 0.0, 50.0, 50.0);
    assert_eq!(place(&top, &slab(50.0, 0.0, 50.0, 50.0), 0).2, Drop::Miss);
    let mut g = game(3);
    g.tower.push(slab(0.0, 0.0, 20.0, 20.0));
    let sl = g.slider.as_mut().unwrap();
    sl.slab.x = 60.0;
    sl.slab.z = 60.0;
    space(&mut g, true);
    let st = g.state();
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.metrics["deaths"], 1);
    g.reset(1);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["deaths"], 1, "deaths survive a reset");
    assert_eq!(st["game_state"]["score"], 0);
    assert_eq!(st["status"], "playing");
}

#[test]
fn drop_happens_on_key_down_once_per_press_and_on_click() {
    let mut g = game(1);
    space(&mut g, true);
    assert_eq!(g.score, 1);
    g.advance(200);
    space(&mut g, true); // still held: no second drop
    assert_eq!(g.score, 1);
    space(&mut g, false);
    align(&mut g);
    space(&mut g, true);
    assert_eq!(g.score, 2);
    assert_eq!(g.last_drop, Some(Drop::Perfect));
    align(&mut g);
    g.handle_event(&InputEvent::MouseDown {
        x: 10.0,
        y: 10.0,
        button: MouseButton::Left,
    });
    assert_eq!(g.score, 3);
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["blocks_count"], 3);
}

#[test]
fn slider_alternates_axes_turns_around_and_lines_up_on_the_beat() {
    let mut g = game(5);
    for layer in 0..6u32 {
        let sl = g.slider.unwrap();
        assert_eq!(sl.axis as usize, g.tower.len() % 2);
        let top = *g.top();
        let centre = if sl.axis == 0 { top.x } else { top.z };
        let off = sl.pos() - centre;
        let beats = off.abs() / (sl.speed * BEAT_S);
        assert!(
            (beats - beats.round()).abs() * sl.speed * BEAT_S <= START_JITTER + 1e-9
                && (2.0..=3.0).contains(&beats.round())
        );
        assert!(off * sl.dir < 0.0, "moves towards the tower");
        // Let it run long enough to bounce: it stays within the swing.
        let mut probe = sl;
        for _ in 0..500 {
            probe.step(centre, 0.01);
            assert!((probe.pos() - centre).abs() <= SWING + 1e-9);
        }
        let _ = layer;
        g.slider.as_mut().unwrap().slab = if sl.axis == 0 {
            Slab {
                x: top.x,
                ..sl.slab
            }
        } else {
            Slab {
                z: top.z,
                ..sl.slab
            }
        };
        space(&mut g, true);
        space(&mut g, false);
    }
    assert_eq!(g.score, 6);
    assert_eq!(g.perfects, 6);
    g.advance(3000);
    assert!(
        (g.camera - (g.height() - 60.0)).abs() < 1.0,
        "camera follows the top"
    );
    assert_eq!(g.state().game_state["level"], 1);
}

/// The random policy's controls, in the order it draws them.
const CONTROLS: [&str; 2] = ["wait", "drop_block"];

#[test]
fn random_play_falls_short() {
    let results = testkit::play_random(ID, "27_01", 1..=5, &CONTROLS, 99);
    for (seed, r) in (1..=5).zip(results) {
        assert!(
            !r.success,
            "random play built {} on seed {seed}",
            r.best_score
        );
    }
}

#[test]
#[ignore = "prints expert and random scores for tuning"]
fn tuning_report() {
    testkit::expert_report(ID, 1..=5);
    testkit::random_report(ID, 1..=5, &CONTROLS, 99);
}

#[test]
#[ignore = "writes a PNG for a person to look at"]
fn save_sample_frame() {
    testkit::save_frame_after(ID, "27_05", 1, 43, "/tmp/stack.png");
}

#[test]
fn slider_shows_the_tower_edge_it_will_be_cut_at() {
    let s = testkit::stepper(ID, "27_01", 1);
    let (w, h) = s.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    s.render(&mut pm);
    let rgb = gw_core::frame::pixmap_rgb(&pm);
    let red = rgb
        .chunks_exact(3)
        .filter(|p| p[0] > 200 && p[1] < 90 && p[2] < 110)
        .count();
    assert!(
        red > 200,
        "the tower outline over the slider is missing ({red} px)"
    );
}
