use super::*;
use crate::testkit;
use gw_core::registry::Interface;

fn world(level: u32, seed: u64) -> World {
    World::new(level, seed, 0)
}

fn place(w: &mut World, hero: Hero, cell: (i64, i64)) {
    let c = &mut w.chars[hero as usize];
    c.body.aabb.x = cell.0 as f64 + 0.5 - HERO_W / 2.0;
    c.body.aabb.y = cell.1 as f64 + 1.0 - HERO_H;
    c.body.vx = 0.0;
    c.body.vy = 0.0;
}

fn hold(w: &mut World, keys: &[&str], ms: u64) {
    for k in keys {
        w.key(k, true);
    }
    w.advance(ms);
    for k in keys {
        w.key(k, false);
    }
}

#[test]
fn levels_parse_with_doors_starts_and_enough_diamond_slots() {
    for level in 1..=LEVELS {
        let l = level_data(level);
        assert_eq!((l.map.width(), l.map.height()), (40, 20), "level {level}");
        let w = world(level, 3);
        for h in Hero::BOTH {
            let n = w.gems.iter().filter(|g| g.hero == h).count();
            assert_eq!(n, l.diamonds[h as usize]);
            assert!(w.chars[h as usize].body.on_ground || w.chars[h as usize].alive);
        }
    }
    // Seeds choose different diamond slots.
    let cells = |w: &World| w.gems.iter().map(|g| (g.x, g.y)).collect::<Vec<_>>();
    assert_ne!(cells(&world(3, 1)), cells(&world(3, 2)));
    assert_eq!(cells(&world(3, 1)), cells(&world(3, 1)));
    assert!(parse_level("; @diamonds 1 1\n#####\n#.r.#\n#####").is_err());
}

#[test]
fn pools_kill_only_the_wrong_character() {
    // Level 1: a water pool at (7..=9, 19) under the ground on Watergirl's
    // side, a fire pool at (27..=29, 19) on Fireboy's side.
    let mut w = world(1, 1);
    place(&mut w, Hero::Watergirl, (8, 18));
    w.advance(100);
    assert!(w.chars[0].alive, "water is Watergirl's element");
    assert!(!w.terminal.is_terminal);
    place(&mut w, Hero::Fireboy, (8, 17));
    w.advance(300);
    assert!(!w.chars[1].alive, "water kills Fireboy");
    assert_eq!(w.terminal.outcome, Some(Outcome::Fail));

    let mut w = world(1, 1);
    place(&mut w, Hero::Fireboy, (28, 18));
    w.advance(100);
    assert!(w.chars[1].alive);
    place(&mut w, Hero::Watergirl, (28, 17));
    w.advance(300);
    assert!(!w.chars[0].alive, "fire kills Watergirl");
    // Green goo (level 2, the ground's left corner) kills both.
    for h in Hero::BOTH {
        let mut w = world(2, 1);
        place(&mut w, h, (1, 18));
        w.advance(400);
        assert!(!w.chars[h as usize].alive, "goo kills {}", h.name());
    }
}

#[test]
fn walking_and_jumping_cover_the_documented_distances() {
    let mut w = world(1, 1);
    let x0 = w.chars[1].body.aabb.x;
    hold(&mut w, &["ArrowRight"], 200);
    assert!((w.chars[1].body.aabb.x - x0 - 1.0).abs() < 1e-9);
    place(&mut w, Hero::Watergirl, (18, 18));
    w.advance(50);
    let y0 = w.chars[0].body.aabb.y;
    w.key("w", true);
    let mut top = y0;
    for _ in 0..60 {
        w.advance(TICK_MS);
        top = top.min(w.chars[0].body.aabb.y);
    }
    w.key("w", false);
    assert!((y0 - top - 3.6).abs() < 0.15, "jump height {}", y0 - top);
    w.advance(1000);
    assert!(w.chars[0].body.on_ground);
}

#[test]
fn diamonds_go_only_to_their_own_character() {
    let mut w = world(1, 1);
    let blue = w
        .gems
        .iter()
        .position(|g| g.hero == Hero::Watergirl)
        .unwrap();
    let cell = (w.gems[blue].x, w.gems[blue].y);
    place(&mut w, Hero::Fireboy, cell);
    w.advance(50);
    assert!(!w.gems[blue].taken, "Fireboy cannot take a blue diamond");
    place(&mut w, Hero::Watergirl, cell);
    w.advance(50);
    assert!(w.gems[blue].taken);
    assert_eq!(w.chars[0].collected, 1);
    assert_eq!(w.score(), 1);
}

#[test]
fn buttons_hold_gates_open_and_levers_latch() {
    // Level 4: button at (9, 18) drives gate 2 in Fireboy's shaft; the lever
    // at (16, 12) drives gate 1.
    let mut w = world(4, 1);
    assert_eq!(w.map.at(21, 16, b'#'), b'=');
    place(&mut w, Hero::Watergirl, (9, 18));
    w.advance(400);
    assert!(
        w.switches
            .iter()
            .any(|s| s.kind == SwitchKind::Button && s.on)
    );
    assert_eq!(w.map.at(21, 16, b'#'), b'.', "the gate slid open");
    // Fireboy can now jump up the shaft onto the first floor.
    place(&mut w, Hero::Fireboy, (22, 18));
    hold(&mut w, &["ArrowUp", "ArrowRight"], 200);
    hold(&mut w, &["ArrowRight"], 400);
    w.advance(600);
    assert_eq!(w.chars[1].cell().1, 15, "Fireboy reached the first floor");
    place(&mut w, Hero::Watergirl, (12, 18));
    w.advance(400);
    assert_eq!(w.map.at(21, 16, b'#'), b'=', "released: closed again");

    assert_eq!(w.map.at(21, 4, b'#'), b'=');
    place(&mut w, Hero::Watergirl, (15, 12));
    hold(&mut w, &["d"], 200);
    hold(&mut w, &["a"], 400);
    w.advance(400);
    assert!(
        w.switches
            .iter()
            .any(|s| s.kind == SwitchKind::Lever && s.on)
    );
    assert_eq!(w.map.at(21, 4, b'#'), b'.', "a lever stays pushed");
}

#[test]
fn both_characters_in_their_doors_complete_the_level() {
    let mut w = world(1, 1);
    let doors = w.doors;
    place(&mut w, Hero::Watergirl, doors[0]);
    w.advance(100);
    assert!(w.chars[0].at_door && !w.terminal.is_terminal);
    place(&mut w, Hero::Fireboy, doors[1]);
    w.advance(100);
    assert_eq!(w.terminal.outcome, Some(Outcome::Success));
}

#[test]
fn both_roles_act_in_the_same_step() {
    let mut s = testkit::stepper(ID, "12_01", 1);
    assert_eq!(s.role_names(), ["watergirl", "fireboy"]);
    let before = s.state_value();
    let left = serde_json::json!({"action": "move_left"});
    let right = serde_json::json!({"action": "move_right"});
    let rec = s
        .step_joint(&[
            (Interface::Generalist, Some(&left)),
            (Interface::Generalist, Some(&right)),
        ])
        .unwrap();
    let dx = |who: &str| {
        rec.state["game_state"][who]["x"].as_f64().unwrap()
            - before["game_state"][who]["x"].as_f64().unwrap()
    };
    assert!((dx("watergirl") + 1.0).abs() < 0.01, "{}", dx("watergirl"));
    assert!((dx("fireboy") - 1.0).abs() < 0.01, "{}", dx("fireboy"));
    assert_eq!(rec.state["gameTimeMs"], 200, "one shared 0.2 s");
    // Each role's keys are its own: Fireboy's arrow is outside Watergirl's space.
    let arrow = serde_json::json!({"action": "press_key", "key": "ArrowLeft"});
    let rec = s
        .step_joint(&[
            (Interface::ComputerUse, Some(&arrow)),
            (Interface::ComputerUse, Some(&arrow)),
        ])
        .unwrap();
    assert!(!rec.roles[0].valid() && rec.roles[1].valid());
}

#[test]
fn expert_solves_every_task_on_seeds_1_to_5() {
    testkit::assert_expert_solves_all(ID, 4);
}

#[test]
fn expert_solves_other_seeds() {
    let tasks = ["12_01", "12_02", "12_03", "12_04", "12_05"];
    let mut wins = 0;
    for task in tasks {
        for seed in [11, 29, 404] {
            wins += testkit::play_expert(ID, task, seed).success as u32;
        }
    }
    println!("expert wins on other seeds: {wins}/15");
    assert!(wins >= 13, "expert won {wins}/15 on other seeds");
}

#[test]
fn random_play_stays_below_the_expert() {
    use gw_core::Rng;
    let ids = ["wait", "move_left", "move_right", "jump_left", "jump_right"];
    for task in ["12_02", "12_04"] {
        let mut wins = 0;
        for seed in 1..=3 {
            let mut rng = Rng::new(seed, 0x5EED);
            let r = testkit::play_joint(ID, task, seed, |_, _| {
                Some(serde_json::json!({"action": ids[rng.index(ids.len())]}))
            });
            wins += r.success as u32;
        }
        assert_eq!(wins, 0, "{task}: random won {wins}/3");
    }
}

#[test]
fn expert_play_is_deterministic() {
    let a = testkit::expert_states(ID, "12_05", 2, 40);
    let b = testkit::expert_states(ID, "12_05", 2, 40);
    assert_eq!(a, b);
    assert_eq!(a.len(), 40);
}

#[test]
fn golden_frame() {
    let h = testkit::frame_hash_after(ID, 1, 6);
    assert_eq!(
        h,
        "bf33848cbbe0d6976944413d58ba9c141e8db2ccea58097126432b7debdc6fa9"
    );
}
