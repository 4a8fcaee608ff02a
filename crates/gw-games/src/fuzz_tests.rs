//! Robustness fuzzing across the whole catalog: random low-level input (keys
//! the role allows and keys it does not, clicks, drags, scrolls and waits
//! anywhere in the viewport) must never panic a game, and every state it
//! produces must keep the SPEC shape and the lifecycle invariants.
//!
//! Two drivers: through the real action layer (`Stepper::step` with the
//! computer-use interface, where out-of-role input is rejected as a no-op),
//! and straight into `Game::handle_event`/`advance`, which bypasses role
//! legality so every game also sees keys and mouse buttons it never expects.

use crate::testkit::{registry, stepper};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::registry::Interface;
use gw_core::state::lookup;
use gw_core::{GameConfig, Rng};
use serde_json::{Value, json};

/// A broad key set: arrows, named keys, letters, digits and some junk.
const KEYS: &[&str] = &[
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Space",
    "Enter",
    "Shift",
    "Backspace",
    "Escape",
    "Tab",
    "Control",
    "a",
    "b",
    "d",
    "e",
    "q",
    "r",
    "s",
    "w",
    "x",
    "z",
    "A",
    "0",
    "1",
    "5",
    "9",
    "F1",
    "?",
];

const SEEDS: &[u64] = &[1, 977, 40_213];
const FUZZ_STEPS: u32 = 100;
const RAW_STEPS: u32 = 300;

fn pick<'a>(rng: &mut Rng, items: &'a [&'a str]) -> &'a str {
    items[rng.index(items.len())]
}

fn point(rng: &mut Rng) -> (f64, f64) {
    // Mostly inside the viewport, sometimes exactly on its edges.
    match rng.below(10) {
        0 => (0.0, 0.0),
        1 => (1279.0, 719.0),
        _ => (
            (rng.range_f64(0.0, 1280.0) * 10.0).floor() / 10.0,
            (rng.range_f64(0.0, 720.0) * 10.0).floor() / 10.0,
        ),
    }
}

/// One random low-level computer-use payload. Half the key presses use keys
/// the role allows, so the game actually gets exercised.
fn random_payload(rng: &mut Rng, allowed: &[String]) -> Value {
    let key = |rng: &mut Rng| -> String {
        if !allowed.is_empty() && rng.chance(0.5) {
            allowed[rng.index(allowed.len())].clone()
        } else {
            pick(rng, KEYS).to_string()
        }
    };
    match rng.below(12) {
        0..=3 => {
            let k = key(rng);
            if rng.chance(0.3) {
                let d = [0.01, 0.05, 0.1, 0.5, 1.0, 2.5][rng.index(6)];
                json!({"action": "press_key", "key": k, "duration": d})
            } else {
                json!({"action": "press_key", "key": k})
            }
        }
        4 => {
            let (a, b) = (key(rng), key(rng));
            json!({"action": "press_keys", "keys": [a, b]})
        }
        5 => {
            let (x, y) = point(rng);
            let clicks = 1 + rng.below(2);
            json!({"action": "click", "x": x, "y": y, "clicks": clicks})
        }
        6 => {
            let (x, y) = point(rng);
            json!({"action": "right_click", "x": x, "y": y})
        }
        7 => {
            let (fx, fy) = point(rng);
            let (x, y) = point(rng);
            json!({"action": "drag", "from_x": fx, "from_y": fy, "x": x, "y": y})
        }
        8 => {
            let (x, y) = point(rng);
            let dy = rng.range_f64(-600.0, 600.0).round();
            json!({"action": "scroll", "x": x, "y": y, "dx": 0, "dy": dy})
        }
        9 => {
            let (x, y) = point(rng);
            let d = [0.05, 0.3, 1.0][rng.index(3)];
            json!({"action": "click_hold", "x": x, "y": y, "duration": d})
        }
        10 => {
            let (x, y) = point(rng);
            json!({"action": "mouse_move", "x": x, "y": y})
        }
        _ => {
            let d = [0.0, 0.01, 0.1, 0.5, 1.0, 3.0, 7.5][rng.index(7)];
            json!({"action": "wait", "duration": d})
        }
    }
}

/// Check one state against the SPEC shape and lifecycle rules.
fn check_state(ctx: &str, game_id: &str, seed: u64, state: &Value, score_fields: &[String]) {
    assert_eq!(state["gameId"], game_id, "{ctx}: gameId");
    assert_eq!(state["seed"].as_u64(), Some(seed), "{ctx}: seed");
    assert!(state["timestampMs"].is_u64(), "{ctx}: timestampMs");
    assert!(state["gameTimeMs"].is_u64(), "{ctx}: gameTimeMs");
    let status = state["status"]
        .as_str()
        .unwrap_or_else(|| panic!("{ctx}: status"));
    assert!(
        ["loading", "menu", "ready", "playing", "paused", "terminal"].contains(&status),
        "{ctx}: status {status}"
    );
    let term = &state["terminal"];
    let is_term = term["isTerminal"]
        .as_bool()
        .unwrap_or_else(|| panic!("{ctx}: terminal.isTerminal is not a bool: {term}"));
    assert_eq!(
        is_term,
        status == "terminal",
        "{ctx}: isTerminal={is_term} but status={status}"
    );
    match &term["outcome"] {
        Value::Null => assert!(!is_term, "{ctx}: terminal without an outcome"),
        Value::String(o) => {
            assert!(o == "success" || o == "fail", "{ctx}: outcome {o}");
            assert!(is_term, "{ctx}: outcome {o} while not terminal");
        }
        other => panic!("{ctx}: outcome {other}"),
    }
    assert!(
        term["reason"].is_null() || term["reason"].is_string(),
        "{ctx}: reason {}",
        term["reason"]
    );
    for section in ["game_state", "metrics", "raw"] {
        assert!(
            state[section].is_object(),
            "{ctx}: {section} is not an object"
        );
    }
    for f in score_fields {
        let v = lookup(state, f).unwrap_or_else(|| panic!("{ctx}: score field {f} missing"));
        // serde_json writes NaN/inf as null, so "is a number" means finite.
        let n = gw_core::state::as_number(v)
            .unwrap_or_else(|| panic!("{ctx}: score field {f} is not a number: {v}"));
        assert!(n.is_finite(), "{ctx}: score field {f} = {n}");
    }
}

/// Play one task to its end with random low-level input; returns the states.
fn fuzz_run(game_id: &str, task_id: &str, seed: u64) -> (Vec<Value>, FuzzStats) {
    let reg = registry();
    let task = &reg.tasks[&(game_id.to_string(), task_id.to_string())].value;
    let score_fields = task.score_fields();
    let mut s = stepper(game_id, task_id, seed);
    let allowed = s.controls().allowed_keys.clone();
    let mut rng = Rng::new(seed, 0xf022);
    let mut out = Vec::new();
    let mut stats = FuzzStats::default();
    let mut last: Option<(u32, u64)> = None;
    check_state(
        &format!("{game_id}+{task_id} seed {seed} initial"),
        game_id,
        seed,
        &s.state_value(),
        &score_fields,
    );
    let mut steps = 0;
    while s.finished().is_none() && steps < FUZZ_STEPS {
        let payload = random_payload(&mut rng, &allowed);
        let rec = s
            .step(Interface::ComputerUse, Some(&payload))
            .unwrap_or_else(|e| panic!("{game_id}+{task_id}: {e}"));
        steps += 1;
        stats.steps += 1;
        stats.valid += rec.valid() as u32;
        stats.terminal += (rec.state["status"] == "terminal") as u32;
        let ctx = format!(
            "{game_id}+{task_id} seed {seed} step {} ({payload})",
            rec.step
        );
        check_state(&ctx, game_id, seed, &rec.state, &score_fields);
        let t = rec.state["gameTimeMs"].as_u64().unwrap();
        if let Some((ep, prev)) = last
            && ep == rec.episode
        {
            assert!(t >= prev, "{ctx}: gameTimeMs went back from {prev} to {t}");
        }
        last = Some((rec.episode, t));
        // After a reset-on-fail the new episode must start non-terminal.
        if rec.episode != s.episode() {
            let fresh = s.state_value();
            check_state(
                &format!("{ctx} after reset"),
                game_id,
                seed,
                &fresh,
                &score_fields,
            );
            assert_ne!(
                fresh["status"], "terminal",
                "{ctx}: reset left the game terminal"
            );
            last = Some((s.episode(), fresh["gameTimeMs"].as_u64().unwrap()));
        }
        let mut st = rec.state;
        st["timestampMs"] = json!(0);
        out.push(st);
    }
    (out, stats)
}

#[derive(Default)]
struct FuzzStats {
    steps: u32,
    valid: u32,
    terminal: u32,
}

#[test]
fn random_low_level_input_keeps_every_game_sound_and_deterministic() {
    for id in crate::GAME_IDS {
        let tasks: Vec<String> = registry().tasks_of(id).map(|t| t.id.clone()).collect();
        let mut total = FuzzStats::default();
        for (i, task) in tasks.iter().enumerate() {
            for &seed in SEEDS {
                let (a, st) = fuzz_run(id, task, seed);
                total.steps += st.steps;
                total.valid += st.valid;
                total.terminal += st.terminal;
                // Determinism: replay one (task, seed) pair per game and
                // compare the whole state sequence.
                if i == 0 {
                    let (b, _) = fuzz_run(id, task, seed);
                    assert_eq!(a.len(), b.len(), "{id}+{task} seed {seed}: run lengths");
                    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                        assert_eq!(
                            x,
                            y,
                            "{id}+{task} seed {seed}: states differ at step {}",
                            k + 1
                        );
                    }
                }
            }
        }
        eprintln!(
            "{id}: {} steps, {} valid, {} terminal states",
            total.steps, total.valid, total.terminal
        );
        // The fuzz must actually reach the game, not only the action layer.
        assert!(
            total.valid * 4 >= total.steps,
            "{id}: too few legal actions to mean much"
        );
    }
}

/// Feed raw events straight to the game (no role legality), resetting every
/// now and then, including in the middle of held keys and mouse drags.
#[test]
fn raw_events_outside_the_role_never_break_a_game() {
    for id in crate::GAME_IDS {
        let tasks: Vec<_> = registry().tasks_of(id).cloned().collect();
        for &seed in SEEDS {
            for (ti, task) in tasks.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
                let mut game = crate::create(id).unwrap();
                let config = GameConfig {
                    seed,
                    level: task.level,
                    difficulty: task.difficulty.clone(),
                    options: task.init.clone(),
                };
                game.init(&config);
                game.reset(0);
                let mut rng = Rng::new(seed ^ 0x5eed, ti as u64);
                let mut episode = 0;
                let mut prev_time = game.state().game_time_ms;
                let buttons = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
                for step in 0..RAW_STEPS {
                    let (x, y) = point(&mut rng);
                    let (x, y) = (x as f32, y as f32);
                    let key = pick(&mut rng, KEYS).to_string();
                    match rng.below(9) {
                        0 | 1 => game.handle_event(&InputEvent::KeyDown { key }),
                        2 => game.handle_event(&InputEvent::KeyUp { key }),
                        3 => game.handle_event(&InputEvent::MouseMove { x, y }),
                        4 => game.handle_event(&InputEvent::MouseDown {
                            x,
                            y,
                            button: buttons[rng.index(3)],
                        }),
                        5 => game.handle_event(&InputEvent::MouseUp {
                            x,
                            y,
                            button: buttons[rng.index(3)],
                        }),
                        6 => game.handle_event(&InputEvent::Scroll {
                            x,
                            y,
                            dx: rng.range_f64(-50.0, 50.0) as f32,
                            dy: rng.range_f64(-500.0, 500.0) as f32,
                        }),
                        // Out-of-viewport and non-finite-free odd coordinates.
                        7 => game.handle_event(&InputEvent::MouseDown {
                            x: -40.0 - x,
                            y: 2000.0 + y,
                            button: MouseButton::Left,
                        }),
                        _ => {}
                    }
                    game.advance([0, 1, 7, 10, 33, 200, 1000][rng.index(7)]);
                    let st = game.state().to_value();
                    let ctx = format!("{id}+{} seed {seed} raw step {step}", task.id);
                    check_state(&ctx, id, seed, &st, &task.score_fields());
                    let t = st["gameTimeMs"].as_u64().unwrap();
                    assert!(
                        t >= prev_time,
                        "{ctx}: gameTimeMs went back from {prev_time} to {t}"
                    );
                    prev_time = t;
                    if rng.chance(0.02) || (st["status"] == "terminal" && rng.chance(0.3)) {
                        episode += 1;
                        game.reset(episode);
                        prev_time = game.state().game_time_ms;
                    }
                    if step % 50 == 0 {
                        let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
                        game.render(&mut pm);
                    }
                }
            }
        }
    }
}

/// Random semantic payloads through the generalist interface, with valid and
/// junk parameters (unknown cells, odd text), checked the same way.
#[test]
fn random_semantic_actions_keep_every_game_sound() {
    const TEXTS: &[&str] = &[
        "crane\n",
        "CRANE\n",
        "abc\n",
        "zzzzz\n",
        "\n",
        "",
        "hello world\n",
        "sl\u{e9}pt\n",
        "aaaaaaaaaaaaaaaaaaaa",
        "12345\n",
    ];
    for id in crate::GAME_IDS {
        let task = registry().tasks_of(id).last().unwrap().clone();
        for &seed in SEEDS {
            let mut s = stepper(id, &task.id, seed);
            let controls = s.semantic_map().controls().to_vec();
            let mut rng = Rng::new(seed, 0x5e3a);
            let mut last: Option<(u32, u64)> = None;
            while s.finished().is_none() {
                let c = &controls[rng.index(controls.len())];
                let mut payload = json!({"action": c.id});
                if let Some(cells) = &c.cell_bindings {
                    let cell = if rng.chance(0.8) {
                        cells.keys().nth(rng.index(cells.len())).unwrap().clone()
                    } else {
                        ["z9", "a0", "", "A1", "e55"][rng.index(5)].to_string()
                    };
                    payload["cell"] = json!(cell);
                }
                if c.parameters.iter().any(|p| p.name == "text") {
                    payload["text"] = json!(TEXTS[rng.index(TEXTS.len())]);
                }
                let rec = s
                    .step(Interface::Generalist, Some(&payload))
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                let ctx = format!("{id}+{} seed {seed} step {} ({payload})", task.id, rec.step);
                check_state(&ctx, id, seed, &rec.state, &task.score_fields());
                let t = rec.state["gameTimeMs"].as_u64().unwrap();
                if let Some((ep, prev)) = last
                    && ep == rec.episode
                {
                    assert!(t >= prev, "{ctx}: gameTimeMs went back from {prev} to {t}");
                }
                last = Some((s.episode(), if rec.episode == s.episode() { t } else { 0 }));
            }
        }
    }
}
