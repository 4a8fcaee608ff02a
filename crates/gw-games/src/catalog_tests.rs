//! Checks across the whole catalog: every registered game has a native
//! implementation, and every path a task scores on or lists is in the state.

use crate::testkit::{registry, stepper};
use gw_core::state::lookup;

#[test]
fn every_registry_game_is_native_and_every_native_game_is_registered() {
    let reg = registry();
    for id in reg.games.keys() {
        assert!(
            crate::create(id).is_some(),
            "{id} is registered but has no implementation"
        );
    }
    for id in crate::GAME_IDS {
        assert!(
            reg.game(id).is_some(),
            "{id} is implemented but not registered"
        );
        assert_eq!(crate::create(id).unwrap().game_id(), *id);
    }
}

#[test]
fn task_fields_exist_in_game_state() {
    let reg = registry();
    let mut missing = Vec::new();
    for t in reg.tasks.values().map(|t| &t.value) {
        let s = stepper(&t.game_id, &t.id, 1);
        let state = s.state_value();
        let mut paths = t.score_fields();
        paths.extend(t.state_fields.iter().cloned());
        paths.extend(t.end_field.iter().cloned());
        for p in paths {
            if lookup(&state, &p).is_none() {
                missing.push(format!("{}+{}: {p}", t.game_id, t.id));
            }
        }
        for key in [
            "gameId",
            "seed",
            "timestampMs",
            "gameTimeMs",
            "status",
            "terminal",
            "game_state",
            "metrics",
            "raw",
        ] {
            assert!(state.get(key).is_some(), "{}: state lacks {key}", t.game_id);
        }
        assert_eq!(state["gameId"], t.game_id.as_str());
    }
    assert!(
        missing.is_empty(),
        "state paths missing:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_game_renders_at_its_viewport_without_blank_frames() {
    for id in crate::GAME_IDS {
        let task = registry().tasks_of(id).next().unwrap().id.clone();
        let s = stepper(id, &task, 1);
        let (w, h) = s.viewport();
        assert_eq!((w, h), (1280, 720), "{id}");
        let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
        s.render(&mut pm);
        let first = &pm.data()[..4];
        let distinct = pm.data().chunks(4).filter(|p| p != &first).count();
        assert!(
            distinct > (w * h / 20) as usize,
            "{id}: frame is nearly uniform"
        );
    }
}

/// Words that would give the evaluator's answer away on screen (a distance
/// travelled, like Run 3's odometer, is the game's own score and is fine).
const TELLS: [&str; 7] = [
    "progress",
    "distance to",
    "to exit",
    "to goal",
    "to the goal",
    "%",
    "solution",
];

#[test]
fn no_hud_shows_task_progress_or_distance_to_goal() {
    use gw_core::registry::Interface;
    let reg = registry();
    let mut found = Vec::new();
    let mut digit_hud_seen = std::collections::BTreeSet::new();
    for t in reg.tasks.values().map(|t| &t.value) {
        // The voxel world draws its HUD (hotbar counts, health, hunger)
        // with its own 3×5 digit font: digits only, so it cannot spell a
        // tell, and its HUD is the same for every task. One task each of
        // those two games is enough (they were two thirds of this test's
        // time); every other game writes through `draw::text` and must
        // show up here for every task.
        let digit_hud = t.game_id == crate::g18_minecraft_clone::ID || t.game_id == "openworld";
        if digit_hud && !digit_hud_seen.insert(t.game_id.clone()) {
            continue;
        }
        let mut s = stepper(&t.game_id, &t.id, 2);
        let (w, h) = s.viewport();
        let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
        for step in 0..=24 {
            if step % 6 == 0 || s.reset_pending() || s.finished().is_some() {
                let texts = crate::draw::record_texts(|| s.render(&mut pm));
                assert!(
                    digit_hud || !texts.is_empty(),
                    "{}: nothing recorded",
                    t.game_id
                );
                for text in texts {
                    let lower = text.to_lowercase();
                    // A percentage is a tell unless it is the player's own
                    // health gauge (Wolfenstein's HUD shows "Health: 100%").
                    let own_gauge = lower.starts_with("health") && !lower.contains("progress");
                    if TELLS
                        .iter()
                        .any(|w| lower.contains(w) && !(*w == "%" && own_gauge))
                    {
                        found.push(format!("{}+{} step {step}: {text:?}", t.game_id, t.id));
                    }
                }
            }
            if s.finished().is_some() {
                break;
            }
            let p = s.expert_payload();
            s.step_keep_terminal(Interface::Generalist, Some(&p))
                .unwrap();
        }
    }
    found.dedup();
    assert!(
        found.is_empty(),
        "HUD text gives the answer away:\n{}",
        found.join("\n")
    );
}

/// Frames for a person to look at (ignored): each named game played with
/// random keys from its role until its first terminal state (the end
/// banner over the HUD), plus a few mid-play frames, written as PNGs under
/// `REVIEW_DIR` (default `/tmp/review`).
#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_review_frames() {
    let dir = std::env::var("REVIEW_DIR").unwrap_or_else(|_| "/tmp/review".into());
    std::fs::create_dir_all(&dir).unwrap();
    let games = std::env::var("REVIEW_GAMES")
        .unwrap_or_else(|_| "04,06,09,10,11,20,21,22,24,26,28,31".into());
    for id in crate::GAME_IDS {
        if !games.split(',').any(|p| id.starts_with(p.trim())) {
            continue;
        }
        let preset = crate::testkit::preset(id, &crate::testkit::task_ids(id)[4]);
        let keys = preset.role.allowed_keys.clone();
        let mut g = crate::create(id).unwrap();
        g.init(&gw_core::GameConfig {
            seed: 701,
            level: preset.task.level,
            options: preset.task.init.clone(),
            ..Default::default()
        });
        g.reset(0);
        let mut rng = gw_core::Rng::new(701, 5);
        for step in 0..600 {
            if !keys.is_empty() {
                let key = keys[rng.index(keys.len())].clone();
                g.handle_event(&gw_core::action::InputEvent::KeyDown { key: key.clone() });
                g.advance(200);
                g.handle_event(&gw_core::action::InputEvent::KeyUp { key });
            } else {
                g.advance(200);
            }
            if step % 25 == 5 && step < 80 {
                crate::testkit::save_game_frame(g.as_ref(), &format!("{dir}/{id}-{step}.png"));
            }
            if g.state().terminal.is_terminal {
                break;
            }
        }
        crate::testkit::save_game_frame(g.as_ref(), &format!("{dir}/{id}-end.png"));
    }
}
