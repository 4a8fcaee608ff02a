//! The truth of every kind matches the world it was read from, checked
//! through other paths than the generator's: rendered pixels for grounding,
//! the privileged state JSON for captions and QA, the world's own craft and
//! smelt macros for plans, and hand-built worlds for reflection verdicts.

use gw_core::Rng;
use gw_owevals::grounding::{self, Thing};
use gw_owevals::scene::{Seen, View};
use gw_owevals::set::{Spec, build_one};
use gw_owevals::{Kind, caption, eqa, reflection};
use gw_world::render::{Pick, Projected, project_aabb, render_rgb};
use gw_world::world::MobKind;
use gw_world::{World, WorldConfig, data};
use std::collections::BTreeMap;

const VIEW: View = View { w: 160, h: 90 };

fn rng(i: u64) -> Rng {
    Rng::new(0x7e57 + i, 3)
}

/// Pixels whose colour differs between two frames.
fn diff(a: &[u8], b: &[u8], w: usize) -> Vec<(u32, u32)> {
    a.chunks(3)
        .zip(b.chunks(3))
        .enumerate()
        .filter(|(_, (p, q))| p != q)
        .map(|(i, _)| ((i % w) as u32, (i / w) as u32))
        .collect()
}

#[test]
fn grounding_boxes_bound_exactly_the_pixels_the_thing_changes() {
    let (mut mobs, mut ores, mut occluded) = (0, 0, 0);
    let mut i = 0;
    while mobs + ores < 8 && i < 200 {
        i += 1;
        let Some(g) = grounding::scene(&mut rng(i), VIEW) else {
            continue;
        };
        let frame = render_rgb(&g.world, VIEW.w, VIEW.h, true);
        // The same world without the thing: what changes is where it shows.
        let mut bare = g.world.clone();
        let (lo, hi) = match &g.thing {
            Thing::Mob(id) => {
                let m = bare.mobs.iter().find(|m| m.id == *id).unwrap().clone();
                bare.mobs.retain(|x| x.id != *id);
                mobs += 1;
                // The bounds of its model as drawn (a head or tail may
                // reach past the body's box).
                gw_world::model::posed(&m, g.world.tick).iter().fold(
                    ([f64::MAX; 3], [f64::MIN; 3]),
                    |(lo, hi), part| {
                        let (a, b) = part.bounds();
                        (
                            std::array::from_fn(|k| lo[k].min(a[k])),
                            std::array::from_fn(|k| hi[k].max(b[k])),
                        )
                    },
                )
            }
            Thing::Blocks(_, cells) => {
                for c in cells {
                    bare.terrain
                        .set(c[0], c[1], c[2], data().block_id("oak_planks").unwrap());
                }
                ores += 1;
                let lo = cells.iter().fold([i32::MAX; 3], |a, c| {
                    [a[0].min(c[0]), a[1].min(c[1]), a[2].min(c[2])]
                });
                let hi = cells.iter().fold([i32::MIN; 3], |a, c| {
                    [a[0].max(c[0]), a[1].max(c[1]), a[2].max(c[2])]
                });
                (lo.map(f64::from), hi.map(|v| v as f64 + 1.0))
            }
        };
        let changed = diff(&frame, &render_rgb(&bare, VIEW.w, VIEW.h, true), VIEW.w);
        let b = g.region.bbox;
        assert!(
            !changed.is_empty(),
            "item {i}: removing {} changes no pixel",
            g.label
        );
        for (x, y) in &changed {
            assert!(
                *x >= b[0] && *x < b[2] && *y >= b[1] && *y < b[3],
                "item {i}: pixel ({x}, {y}) of the {} lies outside its box {b:?}",
                g.label
            );
        }
        // The box is tight: the changed pixels span it.
        let span = changed
            .iter()
            .fold([u32::MAX, u32::MAX, 0, 0], |a, (x, y)| {
                [a[0].min(*x), a[1].min(*y), a[2].max(x + 1), a[3].max(y + 1)]
            });
        let tight = gw_owevals::reward::iou(span.map(f64::from), b.map(f64::from));
        assert!(
            tight > 0.9,
            "item {i}: changed pixels {span:?} vs box {b:?}"
        );
        // The visible box lies inside the projection of the 3D bounds; an
        // occluded thing's box is strictly smaller.
        if let Projected::Rect(p) = project_aabb(&g.world, VIEW.w, VIEW.h, lo, hi) {
            assert!(
                b[0] as f64 >= p[0].floor().max(0.0) - 1.0
                    && b[1] as f64 >= p[1].floor().max(0.0) - 1.0
                    && b[2] as f64 <= p[2].ceil() + 1.0
                    && b[3] as f64 <= p[3].ceil() + 1.0,
                "item {i}: box {b:?} outside the projected bounds {p:?}"
            );
            let full = [
                p[0].max(0.0),
                p[1].max(0.0),
                p[2].min(VIEW.w as f64),
                p[3].min(VIEW.h as f64),
            ];
            if gw_owevals::reward::iou(full, b.map(f64::from)) < 0.8 {
                occluded += 1;
            }
        }
    }
    assert!(
        mobs >= 3 && ores >= 1,
        "mobs {mobs}, ores {ores} in {i} tries"
    );
    eprintln!(
        "grounding: {mobs} mobs, {ores} ore patches, {occluded} partly hidden or cut by the frame"
    );
}

#[test]
fn pick_buffer_marks_the_hud_and_occluding_blocks() {
    let mut w = World::new(WorldConfig {
        seed: 11,
        hostile_mobs: false,
        passive_mobs: false,
        start_inventory: vec![("stick".into(), 3)],
        ..Default::default()
    });
    let p = w.player.body.pos;
    let id = w.spawn_mob(MobKind::Cow, [p[0], p[1], p[2] + 5.0]);
    gw_owevals::scene::aim(&mut w, [p[0], p[1] + 0.7, p[2] + 5.0], 0.0, 0.0);
    let seen = Seen::of(&w, VIEW);
    let before = seen.mob_pixels().get(&id).copied().unwrap_or(0);
    assert!(before > 20, "the cow shows {before} pixels");
    // The hotbar covers the bottom centre.
    assert_eq!(
        seen.picks[(VIEW.h - 2) * VIEW.w + VIEW.w / 2],
        gw_world::render::Pick::Hud
    );
    // A wall between the player and the cow hides it.
    let (x, y, z) = (
        p[0].floor() as i32,
        p[1].floor() as i32,
        p[2].floor() as i32 + 2,
    );
    for dx in -3..=3 {
        for dy in -1..=4 {
            w.terrain
                .set(x + dx, y + dy, z, data().block_id("stone").unwrap());
        }
    }
    let after = Seen::of(&w, VIEW)
        .mob_pixels()
        .get(&id)
        .copied()
        .unwrap_or(0);
    assert_eq!(after, 0, "the wall hides the cow");
}

#[test]
fn caption_facts_agree_with_the_privileged_state() {
    let mut with_mobs = 0;
    for i in 0..6 {
        let w = caption::scene(&mut rng(100 + i)).unwrap();
        let seen = Seen::of(&w, VIEW);
        let f = caption::facts_of(&w, &seen);
        let st = gw_world::state::privileged(&w);
        // The biome is that of the ground in view (read here from the
        // terrain shape of each pixel's column), when one biome holds
        // most of it.
        let (share, top) = view_biome(&w, &seen);
        if f["biome"].is_null() {
            assert!(share < caption::BIOME_SHARE, "{share} {top}");
        } else {
            assert_eq!(f["biome"], top);
            assert!(share >= caption::BIOME_SHARE);
        }
        assert_eq!(f["time"] == "night", st["is_night"] == true);
        let slot = &st["slots"][st["selected_slot"].as_u64().unwrap() as usize - 1];
        let held = slot["item"].as_str().unwrap_or("nothing");
        assert_eq!(f["held"], held);
        // Every mob named is a mob of the world that shows in the frame.
        for m in f["mobs"].as_array().unwrap() {
            with_mobs += 1;
            assert!(
                w.mobs
                    .iter()
                    .any(|x| x.kind.name() == m && seen.mob_pixels().contains_key(&x.id)),
                "{m} is not visible"
            );
        }
        let target = &st["target"];
        if !target.is_null() {
            assert_eq!(
                f["block"], target["block"],
                "the reachable target is the block in view"
            );
        }
    }
    assert!(with_mobs > 0, "some caption names a mob");
}

/// The largest biome's share of the ground pixels and its name, from the
/// terrain generator's column function.
fn view_biome(w: &World, seen: &Seen) -> (f64, String) {
    let mut n: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &seen.picks {
        if let Pick::Block { pos, .. } = p {
            let b = gw_world::terrain::column(w.config.seed, pos[0], pos[2]).biome;
            *n.entry(b.name()).or_insert(0) += 1;
        }
    }
    let total: usize = n.values().sum();
    let (name, most) = n
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(k, v)| (k.to_string(), *v))
        .unwrap_or_default();
    (most as f64 / total.max(1) as f64, name)
}

#[test]
fn caption_biome_is_the_land_in_view_not_the_players_column() {
    // Some of these frames look across a biome border from the player's
    // own column: the fact names the ground the frame shows.
    let mut across = 0;
    for i in 0..60u64 {
        let Some(w) = caption::scene(&mut rng(500 + i)) else {
            continue;
        };
        let seen = Seen::of(&w, VIEW);
        let f = caption::facts_of(&w, &seen);
        let (share, top) = view_biome(&w, &seen);
        if share < caption::BIOME_SHARE {
            assert!(f["biome"].is_null(), "scene {i}: no biome holds the view");
            continue;
        }
        assert_eq!(f["biome"], top.as_str(), "scene {i}");
        if w.biome_here().name() != top {
            across += 1;
        }
    }
    eprintln!(
        "caption: {across} of the frames look across a biome border from the player's column"
    );
    assert!(across > 0, "no frame looked across a biome border");
}

#[test]
fn a_constant_caption_naming_everything_scores_low() {
    let dir = tempfile::tempdir().unwrap();
    let spec = Spec {
        kind: Kind::Caption,
        n: 12,
        seed: 3,
        view: VIEW,
    };
    gw_owevals::set::write(dir.path(), &spec).unwrap();
    let everything = caption::naming_everything();
    let rows: Vec<serde_json::Value> =
        gw_owevals::set::read_jsonl(&dir.path().join("answers.jsonl"))
            .unwrap()
            .into_iter()
            .map(|r| serde_json::json!({"id": r["id"], "answer": everything}))
            .collect();
    let pred = dir.path().join("constant.jsonl");
    std::fs::write(
        &pred,
        rows.iter().map(|r| format!("{r}\n")).collect::<String>(),
    )
    .unwrap();
    let s = gw_owevals::set::score_files(
        Kind::Caption,
        dir.path(),
        &pred,
        &gw_owevals::reward::IouDensity::default(),
    )
    .unwrap();
    let (score, recall) = (s["score"].as_f64().unwrap(), s["recall"].as_f64().unwrap());
    eprintln!("caption naming everything: {s}");
    assert!(recall >= 0.5, "it names most facts: {s}");
    assert!(score <= 0.2, "naming everything scores {s}");
}

#[test]
fn ore_veins_sit_in_cave_walls_at_the_depths_ores_occur() {
    let mut ores = 0;
    let mut i = 0;
    while ores < 4 && i < 400 {
        i += 1;
        let Some(g) = grounding::scene(&mut rng(1000 + i), VIEW) else {
            continue;
        };
        let Thing::Blocks(id, cells) = &g.thing else {
            continue;
        };
        ores += 1;
        let w = &g.world;
        let name = data().block_name(*id).to_string();
        let max_y = grounding::ORES
            .iter()
            .find(|(o, _)| *o == name)
            .map(|(_, y)| *y)
            .unwrap();
        let feet = w.player.body.pos.map(|v| v.floor() as i32);
        assert!(
            !w.sky_visible(feet[0], feet[1] + 1, feet[2]),
            "item {i}: the player stands under open sky"
        );
        for c in cells {
            assert!(
                c[1] <= max_y,
                "item {i}: {name} at y {} (occurs to {max_y})",
                c[1]
            );
            let surface = w.terrain.surface_y(c[0], c[2]).unwrap();
            assert!(
                surface >= c[1] + 4,
                "item {i}: {name} at {c:?} under surface {surface}"
            );
            let open: Vec<[i32; 3]> = [
                [1, 0, 0],
                [-1, 0, 0],
                [0, 1, 0],
                [0, -1, 0],
                [0, 0, 1],
                [0, 0, -1],
            ]
            .iter()
            .map(|f| [c[0] + f[0], c[1] + f[1], c[2] + f[2]])
            .filter(|n| {
                let b = data().block_name(w.terrain.get(n[0], n[1], n[2]));
                b == "air" || b == "torch"
            })
            .collect();
            assert!(!open.is_empty(), "item {i}: {name} at {c:?} shows no face");
            assert!(
                open.iter().all(|n| !w.sky_visible(n[0], n[1], n[2])),
                "item {i}: {name} at {c:?} faces the open sky"
            );
        }
    }
    assert!(ores >= 4, "only {ores} ore items in {i} tries");
}

/// Whether the RGB frames differ visibly (in at least `n` pixels).
fn differs(a: &[u8], b: &[u8], n: usize) -> bool {
    gw_owevals::scene::changed_pixels(a, b) >= n
}

#[test]
fn every_eqa_and_caption_question_is_answerable_from_its_frame() {
    // Full HUD (counts drawn) from 180 pixels a side.
    let view = View { w: 320, h: 180 };
    let d = data();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    for i in 0..40u32 {
        let mut r = rng(3000 + i as u64);
        let Some(a) = (0..gw_owevals::set::ATTEMPTS).find_map(|_| eqa::scene(&mut r, view, i))
        else {
            continue;
        };
        let w = &a.world;
        let frame = render_rgb(w, view.w, view.h, true);
        let seen = Seen::of(w, view);
        *checked.entry(a.qtype).or_insert(0) += 1;
        match a.qtype {
            "count" => {
                let item = d
                    .item_id(
                        &a.query
                            .split("How many ")
                            .nth(1)
                            .unwrap()
                            .split(" does")
                            .next()
                            .unwrap()
                            .replace(' ', "_"),
                    )
                    .unwrap();
                let slot = (0..9)
                    .find(|s| w.player.inventory.slots[*s].is_some_and(|st| st.item == item))
                    .unwrap();
                // Its icon is unlike each other item's in the hotbar.
                for other in w.player.inventory.slots[..9].iter().flatten() {
                    if other.item == item {
                        continue;
                    }
                    let mut v = w.clone();
                    v.player.inventory.slots[slot].as_mut().unwrap().item = other.item;
                    assert!(
                        differs(&frame, &render_rgb(&v, view.w, view.h, true), 4),
                        "{}: {} looks like {}",
                        a.query,
                        d.item_name(item),
                        d.item_name(other.item)
                    );
                }
                let mut v = w.clone();
                v.player.inventory.slots[slot].as_mut().unwrap().count += 1;
                assert!(differs(&frame, &render_rgb(&v, view.w, view.h, true), 1));
            }
            "nearest_mob" => {
                let eqa::Focus::Mob(id) = a.focus else {
                    panic!("nearest_mob asks about a mob")
                };
                let own = w.mobs.iter().find(|m| m.id == id).unwrap();
                assert_eq!(own.kind.name(), a.answer);
                let present: Vec<MobKind> = seen
                    .mob_pixels()
                    .keys()
                    .filter_map(|m| w.mobs.iter().find(|x| x.id == *m).map(|x| x.kind))
                    .collect();
                for k in present.into_iter().filter(|k| *k != own.kind) {
                    let mut v = w.clone();
                    let m = v.mobs.iter_mut().find(|m| m.id == id).unwrap();
                    m.kind = k;
                    (m.body.width, m.body.height, _) = k.size();
                    assert!(
                        differs(&frame, &render_rgb(&v, view.w, view.h, true), 4),
                        "{} looks like {}",
                        a.answer,
                        k.name()
                    );
                }
            }
            "is_night" => assert!(seen.sky_pixels() >= view.min_visible(), "no sky shows"),
            "target" | "tool" => {
                let t = w.target().unwrap();
                let px = seen
                    .picks
                    .iter()
                    .filter(|p| matches!(p, Pick::Block { pos, .. } if *pos == t.pos))
                    .count();
                assert!(
                    px >= view.min_visible(),
                    "the asked block shows {px} pixels"
                );
            }
            other => panic!("unknown question type {other}"),
        }
    }
    assert_eq!(checked.len(), 5, "{checked:?}");
    // Captions: the held item looks unlike the rest of the hotbar, and each
    // mob named looks unlike the other kinds in the frame.
    let spec = Spec {
        kind: Kind::Caption,
        n: 1,
        seed: 0,
        view,
    };
    let mut held = 0;
    for seed in 0..12u64 {
        let e = build_one(&Spec { seed, ..spec }, 0).unwrap();
        let f = &e.answer["answer"]["facts"];
        assert!(!f["biome"].is_null());
        if f["held"] != "nothing" {
            held += 1;
            let h = f["held"].as_str().unwrap();
            let others: Vec<&str> = f["in_frame"]["items"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|v| v.as_str())
                .filter(|x| *x != h)
                .collect();
            // Two items of one look would make the held one a guess.
            for o in others {
                assert!(!icon_same(h, o, view), "{h} held beside {o}");
            }
        }
    }
    assert!(held > 0);
}

/// Whether two items draw the same hotbar picture (one at a time in slot 1
/// of a fixed world, nothing held).
fn icon_same(a: &str, b: &str, view: View) -> bool {
    let frame = |item: &str| {
        let mut w = World::new(WorldConfig {
            seed: 1,
            start_inventory: vec![(item.to_string(), 1)],
            passive_mobs: false,
            hostile_mobs: false,
            ..Default::default()
        });
        w.player.selected = 8;
        render_rgb(&w, view.w, view.h, true)
    };
    !differs(&frame(a), &frame(b), 4)
}

#[test]
fn eqa_answers_equal_the_state() {
    // Counts are drawn from 180 pixels a side; smaller sets ask no count.
    let view = View { w: 320, h: 180 };
    assert!(eqa::qtypes_for(view).contains(&"count"));
    let mut seen_types = BTreeMap::new();
    for i in 0..15u32 {
        let mut r = rng(200 + i as u64);
        let Some(a) = (0..gw_owevals::set::ATTEMPTS).find_map(|_| eqa::scene(&mut r, view, i))
        else {
            panic!("no world for question {i}");
        };
        let st = gw_world::state::privileged(&a.world);
        *seen_types.entry(a.qtype).or_insert(0) += 1;
        match a.qtype {
            "count" => {
                let item = a
                    .query
                    .split("How many ")
                    .nth(1)
                    .unwrap()
                    .split(" does")
                    .next()
                    .unwrap()
                    .replace(' ', "_");
                assert_eq!(
                    st["inventory"][&item].as_u64().unwrap().to_string(),
                    a.answer
                );
            }
            "target" => {
                let want = st["target"]["block"].as_str().unwrap_or("none");
                assert_eq!(a.answer, want);
            }
            "is_night" => assert_eq!(a.answer == "yes", st["is_night"] == true),
            "nearest_mob" => {
                // The answer is a mob kind the state lists near the player.
                let ents = st["entities"].as_array().unwrap();
                assert!(
                    ents.iter().any(|e| e["kind"] == a.answer.as_str()),
                    "{}",
                    a.answer
                );
            }
            "tool" => {
                let block = st["target"]["block"].as_str().unwrap();
                let bid = data().block_id(block).unwrap();
                for t in &a.accept {
                    let m = gw_world::inventory::mining(bid, Some(data().item(t)));
                    assert!(m.harvests, "{t} must harvest {block}");
                }
                let weak = gw_world::inventory::mining(bid, Some(data().item("wooden_shovel")));
                assert!(!weak.harvests);
                assert_eq!(a.accept[0], a.answer);
            }
            other => panic!("unknown question type {other}"),
        }
    }
    assert_eq!(seen_types.len(), 5, "{seen_types:?}");
}

#[test]
fn planning_answers_run_in_the_world_and_reflection_covers_every_reason() {
    let spec = Spec {
        kind: Kind::Planning,
        n: 6,
        seed: 4,
        view: View { w: 64, h: 36 },
    };
    for i in 0..spec.n {
        let e = build_one(&spec, i).unwrap();
        let steps = gw_owevals::planning::steps_of(&e.answer["answer"]);
        let inv: BTreeMap<String, u32> =
            serde_json::from_value(e.item["inventory"].clone()).unwrap();
        let target = e.item["target"].as_str().unwrap();
        let count = e.item["count"].as_u64().unwrap() as u32;
        gw_openworld::plan::simulate(&steps, &inv, target, count)
            .unwrap_or_else(|err| panic!("{}: the true plan fails: {err}", e.item["id"]));
    }
    let spec = Spec {
        kind: Kind::Reflection,
        n: 9,
        seed: 2,
        view: View { w: 64, h: 36 },
    };
    let mut reasons = BTreeMap::new();
    for i in 0..spec.n {
        let e = build_one(&spec, i).unwrap();
        let a = &e.answer["answer"];
        let key = a["reason"].as_str().unwrap_or("continue").to_string();
        *reasons.entry(key).or_insert(0) += 1;
    }
    let keys: Vec<&str> = reasons.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "continue",
            "missing_station",
            "night_danger",
            "stuck",
            "wrong_tool"
        ],
        "{reasons:?}"
    );
}

#[test]
fn diagnose_reads_verdicts_from_hand_built_worlds() {
    use reflection::{Goal, diagnose};
    let mut w = World::new(WorldConfig {
        seed: 5,
        passive_mobs: false,
        hostile_mobs: false,
        ..Default::default()
    });
    w.player.pitch = 60.0;
    let t = w.target().expect("looking at the ground");
    w.terrain.set(
        t.pos[0],
        t.pos[1],
        t.pos[2],
        data().block_id("iron_ore").unwrap(),
    );
    let goal = Goal::Mine("iron_ore".into());
    assert_eq!(diagnose(&w, &goal, None), Some("wrong_tool"), "bare hand");
    w.player.inventory.add(data().item("wooden_pickaxe"), 1);
    assert_eq!(
        diagnose(&w, &goal, None),
        Some("wrong_tool"),
        "wooden pickaxe"
    );
    w.player.inventory = Default::default();
    w.player.inventory.add(data().item("stone_pickaxe"), 1);
    assert_eq!(diagnose(&w, &goal, None), None);
    assert_eq!(diagnose(&w, &goal, Some(0.1)), Some("stuck"));
    w.config.start_time = 15_000;
    assert!(w.is_night());
    assert_eq!(diagnose(&w, &goal, None), None, "night alone is no danger");
    let p = w.player.body.pos;
    w.spawn_mob(MobKind::Zombie, [p[0] + 3.0, p[1], p[2]]);
    assert_eq!(diagnose(&w, &goal, None), Some("night_danger"));
    let mut c = World::new(WorldConfig {
        seed: 5,
        passive_mobs: false,
        hostile_mobs: false,
        ..Default::default()
    });
    c.player.inventory.add(data().item("oak_planks"), 3);
    c.player.inventory.add(data().item("stick"), 2);
    assert_eq!(
        diagnose(&c, &Goal::Craft("wooden_pickaxe".into()), None),
        Some("missing_station")
    );
}
