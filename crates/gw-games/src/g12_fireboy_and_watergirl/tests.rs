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

/// A small room: a three-wide lift (1) resting at row 5 that a button at
/// (8, 6) raises two rows, a box at (7, 6); `ceiling` adds a block over
/// the lift's middle.
fn lift_room(ceiling: bool) -> World {
    let row2 = if ceiling {
        "#...#......#"
    } else {
        "#..........#"
    };
    let text = format!(
        "; @diamonds 0 0\n; @lift 1 0 -2\n; @button 1\n############\n#..........#\n{row2}\n\
         #..........#\n#..........#\n#..___.....#\n#BR....XPwf#\n############\n"
    );
    World::from_data(1, &parse_level(&text).unwrap(), 1, 0)
}

fn stand_on_lift(w: &mut World, hero: Hero, x: f64) {
    let top = w.lifts[0].aabb.y;
    let c = &mut w.chars[hero as usize];
    c.body.aabb.x = x;
    c.body.aabb.y = top - HERO_H;
    c.body.vy = 0.0;
    w.advance(50);
    assert!(w.chars[hero as usize].body.on_ground);
}

#[test]
fn a_lift_carries_its_rider_up_and_goes_back_when_the_button_is_released() {
    let mut w = lift_room(false);
    assert_eq!(w.lifts[0].aabb, Aabb::new(3.0, 5.0, 3.0, LIFT_H));
    stand_on_lift(&mut w, Hero::Fireboy, 4.1);
    place(&mut w, Hero::Watergirl, (8, 6));
    let mut bottoms = Vec::new();
    for _ in 0..80 {
        w.advance(TICK_MS);
        bottoms.push(w.chars[1].body.aabb.bottom() - w.lifts[0].aabb.y);
    }
    assert!(w.switches[0].on);
    assert_eq!(w.lifts[0].aabb.y, 3.0, "at its other end");
    assert_eq!(w.lifts[0].t, 1.0);
    let rider = &w.chars[1].body;
    assert!(
        (rider.aabb.bottom() - 3.0).abs() < 1e-9,
        "carried to the top"
    );
    assert!((rider.aabb.x - 4.1).abs() < 1e-9, "straight up");
    assert!(rider.on_ground);
    assert!(
        bottoms.iter().all(|d| d.abs() < 1e-6),
        "the rider's feet never leave the lift: {bottoms:?}"
    );
    // Release the button: the lift and its rider go back down.
    place(&mut w, Hero::Watergirl, (10, 6));
    w.advance(1000);
    assert!(!w.switches[0].on && !w.lifts[0].on);
    assert_eq!(w.lifts[0].aabb.y, 5.0);
    assert!((w.chars[1].body.aabb.bottom() - 5.0).abs() < 1e-9);
    let state = {
        let mut g = FireboyWatergirl::new();
        g.world = w.clone();
        g.state()
    };
    let lift = &state.game_state["entities"]["lifts"][0];
    assert_eq!(lift["kind"], "lift");
    assert_eq!(
        (lift["y"].as_f64(), lift["target_y"].as_f64()),
        (Some(5.0), Some(5.0))
    );
    assert_eq!(lift["moving"], false);
}

#[test]
fn a_lift_stops_rather_than_crush_and_characters_collide_with_it() {
    let mut w = lift_room(true);
    stand_on_lift(&mut w, Hero::Fireboy, 4.1);
    place(&mut w, Hero::Watergirl, (8, 6));
    w.advance(1000);
    assert!(w.lifts[0].on && w.lifts[0].t < 1.0);
    let rider = &w.chars[1];
    assert!(rider.alive);
    assert!(
        (rider.body.aabb.y - 3.0).abs() < 0.05,
        "head under the block: {:?}",
        rider.body.aabb
    );
    assert!((w.lifts[0].aabb.y - (3.0 + HERO_H)).abs() < 0.05);
    // Walking into the lift's side is stopped by it.
    let mut w = lift_room(false);
    place(&mut w, Hero::Watergirl, (1, 6));
    w.advance(50);
    hold(&mut w, &["d"], 600);
    assert!(
        (w.chars[0].body.aabb.right() - 3.0).abs() < 1e-9,
        "{:?}",
        w.chars[0].body.aabb
    );
    // Characters stand on boxes.
    place(&mut w, Hero::Fireboy, (7, 5));
    w.chars[1].body.aabb.y -= 0.5;
    w.advance(500);
    let fb = &w.chars[1].body;
    assert!(
        fb.on_ground && (fb.aabb.bottom() - 6.0).abs() < 1e-9,
        "{:?}",
        fb.aabb
    );
}

#[test]
fn a_pushed_box_slides_slower_than_walking_and_stops_at_the_wall() {
    // Level 3: Watergirl starts right of the box at (10, 18).
    let mut w = world(3, 1);
    let x0 = w.boxes[0].body.aabb.x;
    assert_eq!(x0, 10.02);
    hold(&mut w, &["a"], 400);
    let moved = x0 - w.boxes[0].body.aabb.x;
    assert!(
        moved > 0.5 && moved <= PUSH_SPEED * 0.4 + 1e-9,
        "box moved {moved}"
    );
    assert!(w.chars[0].pushing);
    hold(&mut w, &["a"], 4000);
    let b = &w.boxes[0].body.aabb;
    assert!((b.x - 1.0).abs() < 1e-9, "against the wall: {b:?}");
    assert!(
        (w.chars[0].body.aabb.x - b.right()).abs() < 1e-6,
        "Watergirl behind it"
    );
}

#[test]
fn a_box_on_the_button_holds_the_gate_open_for_both() {
    let mut w = world(3, 1);
    let gate_cells = [(17, 16), (18, 16), (21, 16), (22, 16)];
    assert!(
        gate_cells
            .iter()
            .all(|&(x, y)| w.map.at(x, y, b'#') == b'=')
    );
    hold(&mut w, &["a"], 700);
    w.advance(400);
    // Nobody on the button: Watergirl walks off to the right.
    hold(&mut w, &["d"], 1000);
    w.advance(400);
    assert!(w.chars.iter().all(|c| (c.cell().0 - 8).abs() > 1));
    assert!(w.switches[0].on, "the box holds the button");
    assert!(
        gate_cells
            .iter()
            .all(|&(x, y)| w.map.at(x, y, b'#') == b'.')
    );
    let mut g = FireboyWatergirl::new();
    g.world = w;
    let state = g.state();
    let b = &state.game_state["entities"]["boxes"][0];
    assert_eq!(b["kind"], "box");
    assert!(b["x"].as_f64().unwrap() < 9.0);
}

#[test]
fn the_expert_uses_the_box_and_the_lift_where_levels_need_them() {
    // Level 3: the ground floors open only while the box holds the button.
    let mut s = testkit::stepper(ID, "12_04", 1);
    let mut box_x = Vec::new();
    while s.finished().is_none() {
        let st = testkit::expert_step(&mut s);
        box_x.push(
            st["game_state"]["entities"]["boxes"][0]["x"]
                .as_f64()
                .unwrap(),
        );
    }
    assert!(s.evaluator().success());
    assert!(box_x.last().unwrap() < &9.0, "the box ended on the button");
    // Level 2, seed 4: all four chamber slots hold diamonds; Fireboy needs
    // the lift to reach at least two of them.
    let mut s = testkit::stepper(ID, "12_03", 4);
    let mut rode = false;
    while s.finished().is_none() {
        let st = testkit::expert_step(&mut s);
        let lift = &st["game_state"]["entities"]["lifts"][0];
        rode |= lift["y"] == 7.0;
    }
    assert!(s.evaluator().success() && rode);
    let st = s.state_value();
    let chamber = st["game_state"]["entities"]["diamonds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["y"] == 3 && d["x"].as_i64().unwrap() >= 27 && d["taken"] == true)
        .count();
    assert!(chamber >= 2, "{chamber} chamber diamonds taken");
}

#[test]
fn play_with_lifts_and_boxes_is_deterministic() {
    for task in ["12_03", "12_04"] {
        let a = testkit::expert_states(ID, task, 3, 90);
        assert_eq!(a, testkit::expert_states(ID, task, 3, 90));
        let first = &a[0]["game_state"]["entities"];
        let last = &a[a.len() - 1]["game_state"]["entities"];
        assert_ne!(
            (&first["lifts"], &first["boxes"]),
            (&last["lifts"], &last["boxes"]),
            "{task}: a lift or a box moved"
        );
    }
}

crate::game_contract! {
    golden_frame: (1, 6, "bf33848cbbe0d6976944413d58ba9c141e8db2ccea58097126432b7debdc6fa9"),
    // Every frame of an expert play and of a random one on two levels (gates,
    // lifts, boxes, gems, deaths), hashed with the drawing code from before
    // the level's tiles were drawn from a cached layer: pins the pixels across
    // many states.
    whole_plays: (("12_05", 1, 120), ("12_03", 6, 120), &["wait", "move_left", "move_right", "jump_left", "jump_right"],
        ["a35f5b6bf7d49837a43c290cd1e353770dcc867252c59c68a9d86b56ea6c6d7e",
         "a4105de0bd52250267da42410499739ca734feaed9dc3ea345612d66ef132274"]),
}
