//! Embodied QA: questions whose exact answers are state — how many of an
//! item the hotbar holds, which block the crosshair targets, which visible
//! mob is nearest, whether it is night, which tool mines the block in view
//! (a cave wall's stone or ore, at a depth the ore occurs). Each question
//! is kept only when its frame can answer it ([`answerable`]).

use crate::Built;
use crate::scene::{self, Seen, View};
use crate::text::{answer_part, as_text, first_int, mentions, norm, yes_no};
use gw_core::Rng;
use gw_openworld::graph::{ToolNeed, world_graph};
use gw_world::render::Pick;
use gw_world::world::MobKind;
use gw_world::{World, data};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

/// The question types, in the order a set cycles through them (see
/// [`qtypes_for`]).
pub const QTYPES: [&str; 5] = ["count", "target", "nearest_mob", "is_night", "tool"];

/// Blocks the tool question puts under the crosshair (each needs a tool),
/// with the highest y they occur at: the player stands in a cave and looks
/// at a wall cell within reach, turned into the block.
const TOOL_BLOCKS: [(&str, i32); 6] = [
    ("stone", 127),
    ("coal_ore", 127),
    ("iron_ore", 63),
    ("gold_ore", 31),
    ("diamond_ore", 15),
    ("redstone_ore", 15),
];

/// Look down at the ground within reach.
fn look_down(w: &mut World, rng: &mut Rng) {
    w.player.yaw = rng.range_f64(0.0, 360.0);
    w.player.pitch = rng.range_f64(40.0, 75.0);
}

/// The tools that harvest `block` (cheapest first); empty when the hand does.
pub fn tools_for_block(block: &str) -> Vec<String> {
    let d = data();
    let Some(id) = d.block_id(block) else {
        return Vec::new();
    };
    let def = d.block(id);
    if def.level < 0 {
        return Vec::new();
    }
    world_graph().tools_for(&ToolNeed {
        kind: def.tool.name().to_string(),
        level: def.level,
    })
}

/// A question about a world, with its answer and accepted alternatives.
pub struct Asked {
    pub world: World,
    pub qtype: &'static str,
    pub query: String,
    pub answer: String,
    pub accept: Vec<String>,
    /// What the question is about in the frame.
    pub focus: Focus,
    /// The frame (RGB) at the set's view.
    pub rgb: Vec<u8>,
}

/// The part of the frame a question asks about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Focus {
    /// The stack in this hotbar slot (its icon and count).
    Slot(usize),
    /// The block at this cell (the crosshair's).
    Block([i32; 3]),
    /// This mob (its kind).
    Mob(u32),
    /// The sky (day or night).
    Sky,
}

/// Whether the frame `rgb` of `w` answers a question about `focus`: the
/// asked stack's icon looks unlike every other item in the hotbar and its
/// count shows; the asked block shows at least [`View::min_visible`]
/// pixels; the asked mob looks unlike every other kind of mob in the
/// frame, and no mob of another kind showing at all stands within a block
/// of it or nearer; the sky shows at least [`View::min_visible`] pixels.
pub fn answerable(w: &World, seen: &Seen, rgb: &[u8], focus: Focus) -> bool {
    let view = seen.view;
    match focus {
        Focus::Slot(slot) => {
            scene::slot_count_shows(w, view, rgb, slot)
                && scene::slot_item_distinct(
                    w,
                    view,
                    rgb,
                    slot,
                    &scene::other_hotbar_items(w, slot),
                )
        }
        Focus::Block(cell) => {
            seen.picks
                .iter()
                .filter(|p| matches!(p, Pick::Block { pos, .. } if *pos == cell))
                .count()
                >= view.min_visible()
        }
        Focus::Mob(id) => {
            let Some(own) = w.mobs.iter().find(|m| m.id == id) else {
                return false;
            };
            let eye = w.eye();
            let dist = |id: u32| {
                scene::mob_centre(w, id).map(|c| {
                    ((c[0] - eye[0]).powi(2) + (c[1] - eye[1]).powi(2) + (c[2] - eye[2]).powi(2))
                        .sqrt()
                })
            };
            let Some(d0) = dist(id) else {
                return false;
            };
            let mut kinds = BTreeSet::new();
            for other in seen.mob_pixels().keys() {
                let Some(m) = w.mobs.iter().find(|m| m.id == *other) else {
                    continue;
                };
                kinds.insert(m.kind);
                if m.kind != own.kind && dist(m.id).is_some_and(|d| d - d0 < 1.0) {
                    return false;
                }
            }
            let kinds: Vec<MobKind> = kinds.into_iter().collect();
            scene::mob_kind_distinct(w, view, rgb, id, &kinds)
        }
        Focus::Sky => seen.sky_pixels() >= view.min_visible(),
    }
}

/// Whether frames of this size draw the hotbar's counts (the compact HUD
/// of small frames draws none): probed once per size on a fixed world, by
/// whether a stack's count changing changes the frame.
pub fn counts_show(view: View) -> bool {
    static SEEN: Mutex<BTreeMap<(usize, usize), bool>> = Mutex::new(BTreeMap::new());
    let key = (view.w, view.h);
    if let Some(v) = SEEN.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return *v;
    }
    let w = scene::world(1, 6000, &[("stick".to_string(), 5)]);
    let rgb = scene::frame_rgb(&w, view);
    let v = scene::slot_count_shows(&w, view, &rgb, 0);
    SEEN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, v);
    v
}

/// The question types a set at this frame size cycles through: all of
/// [`QTYPES`], less `count` where the frame draws no counts.
pub fn qtypes_for(view: View) -> Vec<&'static str> {
    let counts = counts_show(view);
    QTYPES
        .iter()
        .copied()
        .filter(|q| counts || *q != "count")
        .collect()
}

/// Question `index` cycles through [`qtypes_for`] the view.
pub fn scene(rng: &mut Rng, view: View, index: u32) -> Option<Asked> {
    let types = qtypes_for(view);
    let qtype = types[index as usize % types.len()];
    let night = rng.chance(if qtype == "is_night" { 0.5 } else { 0.3 });
    let n_kit = if qtype == "count" {
        2 + rng.below(3) as usize
    } else {
        rng.below(3) as usize
    };
    let kit = scene::random_kit(rng, n_kit);
    let start = scene::time_of_day(rng, night);
    let mut w = scene::world(rng.next_u64(), start, &kit);
    w.player.selected = rng.index(kit.len() + 1).min(8);
    let d = data();
    let focus;
    let (query, answer, accept): (String, String, Vec<String>) = match qtype {
        "count" => {
            let counts = gw_world::state::inventory_counts(&w);
            let names: Vec<&String> = counts.keys().collect();
            if names.is_empty() {
                return None;
            }
            let name = names[rng.index(names.len())].clone();
            let n = counts[&name].as_u64()?;
            w.player.yaw = rng.range_f64(0.0, 360.0);
            w.player.pitch = rng.range_f64(-5.0, 30.0);
            let id = d.item_id(&name)?;
            let slot =
                (0..9).find(|i| w.player.inventory.slots[*i].is_some_and(|s| s.item == id))?;
            focus = Focus::Slot(slot);
            (
                format!(
                    "How many {} does the player have in the hotbar? The counts are drawn in the slots.",
                    name.replace('_', " ")
                ),
                n.to_string(),
                vec![n.to_string()],
            )
        }
        "target" => {
            look_down(&mut w, rng);
            let t = w.target()?;
            focus = Focus::Block(t.pos);
            let a = d.block_name(t.block).to_string();
            (
                "Which block is the crosshair on? Answer with the block's id.".into(),
                a.clone(),
                vec![a],
            )
        }
        "nearest_mob" => {
            let kind = if night {
                MobKind::HOSTILE[rng.index(MobKind::HOSTILE.len())]
            } else {
                MobKind::PASSIVE[rng.index(MobKind::PASSIVE.len())]
            };
            let id = scene::spawn_around(&mut w, rng, kind, 3.0, 12.0)?;
            let c = scene::mob_centre(&w, id)?;
            let (dy, dp) = (rng.range_f64(-30.0, 30.0), rng.range_f64(-10.0, 10.0));
            scene::aim(&mut w, c, dy, dp);
            let seen = Seen::of(&w, view);
            let eye = w.eye();
            let mut vis: Vec<(f64, MobKind, u32)> = seen
                .visible_mobs(&w)
                .into_iter()
                .filter_map(|(id, k, _)| {
                    let c = scene::mob_centre(&w, id)?;
                    let dd =
                        (c[0] - eye[0]).powi(2) + (c[1] - eye[1]).powi(2) + (c[2] - eye[2]).powi(2);
                    Some((dd.sqrt(), k, id))
                })
                .collect();
            vis.sort_by(|a, b| a.0.total_cmp(&b.0));
            let first = vis.first()?;
            focus = Focus::Mob(first.2);
            let a = first.1.name().to_string();
            (
                "Which kind of mob in view is nearest to the player?".into(),
                a.clone(),
                vec![a],
            )
        }
        "is_night" => {
            w.player.yaw = rng.range_f64(0.0, 360.0);
            w.player.pitch = rng.range_f64(-30.0, 10.0);
            focus = Focus::Sky;
            let a = if w.is_night() { "yes" } else { "no" };
            (
                "Is it night in this frame?".into(),
                a.into(),
                vec![a.into()],
            )
        }
        _ => {
            let (block, max_y) = TOOL_BLOCKS[rng.index(TOOL_BLOCKS.len())];
            let stand = crate::grounding::stand_in_cave(rng, &mut w)?;
            let walls = crate::grounding::wall_cells(&w, w.eye(), max_y, 1.5, 4.0);
            if walls.is_empty() {
                return None;
            }
            let cell = walls[rng.index(walls.len())];
            scene::aim(&mut w, cell.map(|v| v as f64 + 0.5), 0.0, 0.0);
            // The wall cell must be what the crosshair meets.
            if w.target()?.pos != cell {
                return None;
            }
            focus = Focus::Block(cell);
            w.terrain.set(cell[0], cell[1], cell[2], d.block_id(block)?);
            crate::grounding::place_torch(rng, &mut w, &BTreeSet::from([cell]), stand);
            if w.target()?.pos != cell {
                return None;
            }
            let tools = tools_for_block(block);
            let first = tools.first()?.clone();
            (
                "Which is the cheapest tool that mines the block under the crosshair so that it drops? \
                 Answer with the tool's item id."
                    .into(),
                first,
                tools,
            )
        }
    };
    let seen = Seen::of(&w, view);
    let rgb = scene::frame_rgb(&w, view);
    if !answerable(&w, &seen, &rgb, focus) {
        return None;
    }
    Some(Asked {
        world: w,
        qtype,
        query,
        answer,
        accept,
        focus,
        rgb,
    })
}

pub fn generate(rng: &mut Rng, view: View, index: u32) -> Option<Built> {
    let a = scene(rng, view, index)?;
    let mut context = Map::new();
    context.insert("qtype".into(), json!(a.qtype));
    let mut extra = Map::new();
    extra.insert("qtype".into(), json!(a.qtype));
    extra.insert("accept".into(), json!(a.accept));
    Some(Built {
        query: a.query,
        format: "Answer with a single word, number or item id.".into(),
        context,
        answer: json!(a.answer),
        answer_extra: extra,
        png: scene::png_of(&a.rgb, view),
    })
}

/// A reply as an answer: the answer part as text.
pub fn parse(reply: &str) -> Value {
    let a = answer_part(reply);
    match crate::text::json_in(a) {
        Some(Value::Object(o)) if o.contains_key("answer") => o["answer"].clone(),
        _ => Value::String(a.to_string()),
    }
}

/// 1 when the prediction states the truth: the same number for counts,
/// yes/no for yes-no questions, else an accepted name (exactly, or named in
/// a short sentence while no other accepted or rival name is).
pub fn score_item(truth: &Value, accept: &[String], qtype: &str, pred: &Value) -> f64 {
    let t = as_text(truth);
    let p = as_text(pred);
    let ok = match qtype {
        "count" => first_int(&p).is_some_and(|n| n.to_string() == t),
        "is_night" => yes_no(&p) == Some(t == "yes"),
        _ => {
            let pn = norm(&p);
            let mut alts: Vec<&str> = accept.iter().map(String::as_str).collect();
            alts.push(&t);
            alts.iter().any(|a| norm(a) == pn)
                || (pn.split(' ').count() <= 12 && alts.iter().any(|a| mentions(&p, a)))
        }
    };
    if ok { 1.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_leniently_but_must_be_right() {
        let acc = vec!["3".to_string()];
        assert_eq!(
            score_item(&json!("3"), &acc, "count", &json!("There are 3.")),
            1.0
        );
        assert_eq!(score_item(&json!("3"), &acc, "count", &json!(4)), 0.0);
        assert_eq!(
            score_item(&json!("yes"), &[], "is_night", &json!("Yes, it is dark.")),
            1.0
        );
        assert_eq!(
            score_item(&json!("yes"), &[], "is_night", &json!("no")),
            0.0
        );
        let tools: Vec<String> = vec!["stone_pickaxe".into(), "iron_pickaxe".into()];
        assert_eq!(
            score_item(
                &json!("stone_pickaxe"),
                &tools,
                "tool",
                &json!("A stone pickaxe")
            ),
            1.0
        );
        assert_eq!(
            score_item(
                &json!("stone_pickaxe"),
                &tools,
                "tool",
                &json!("iron_pickaxe")
            ),
            1.0
        );
        assert_eq!(
            score_item(
                &json!("stone_pickaxe"),
                &tools,
                "tool",
                &json!("wooden_pickaxe")
            ),
            0.0
        );
        assert_eq!(
            score_item(&json!("cow"), &[], "nearest_mob", &json!("pig")),
            0.0
        );
        assert_eq!(
            parse("<answer>{\"answer\": \"cow\"}</answer>"),
            json!("cow")
        );
    }

    #[test]
    fn iron_ore_needs_a_stone_pickaxe_or_better() {
        let t = tools_for_block("iron_ore");
        assert_eq!(t.first().map(String::as_str), Some("stone_pickaxe"));
        assert!(t.iter().any(|x| x == "diamond_pickaxe"));
        assert!(!t.iter().any(|x| x == "wooden_pickaxe"));
        assert!(tools_for_block("dirt").is_empty());
    }
}
