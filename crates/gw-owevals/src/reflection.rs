//! Reflection: a frame, the goal and the last actions → can the task go on,
//! and if not, why. The verdict is read from the world by [`diagnose`]:
//! a hostile mob close by at night (`night_danger`), walking that moved the
//! player less than half a block (`stuck`), a held item that cannot harvest
//! the targeted block (`wrong_tool`), a craft or smelt the world refuses for
//! want of a crafting table or furnace within reach (`missing_station`).
//! Optimus-3 scores the yes/no part; we score both and report each.

use crate::Built;
use crate::scene::{self, View};
use crate::text::{answer_part, json_in, mentions, norm};
use gw_core::Rng;
use gw_world::action::Action;
use gw_world::inventory::{CraftError, mining};
use gw_world::world::MobKind;
use gw_world::{World, data};
use serde_json::{Map, Value, json};

pub const REASONS: [&str; 4] = ["wrong_tool", "missing_station", "stuck", "night_danger"];

/// A hostile mob nearer than this at night ends the task.
pub const DANGER_RADIUS: f64 = 10.0;
/// Walking that moved the player less than this (blocks) is stuck.
pub const STUCK_BELOW: f64 = 0.5;

/// What the agent is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    Mine(String),
    Craft(String),
    Smelt(String),
    Walk,
}

impl Goal {
    pub fn text(&self) -> String {
        match self {
            Goal::Mine(b) => format!("mine {}", b.replace('_', " ")),
            Goal::Craft(i) => format!("craft {}", i.replace('_', " ")),
            Goal::Smelt(i) => format!("smelt {}", i.replace('_', " ")),
            Goal::Walk => "walk forward to explore".into(),
        }
    }
}

/// The verdict from the world's state: `None` = the task can continue.
/// `moved` is how far the last walking actions carried the player.
pub fn diagnose(w: &World, goal: &Goal, moved: Option<f64>) -> Option<&'static str> {
    let p = w.player.body.pos;
    let danger = w.is_night()
        && w.mobs.iter().any(|m| {
            m.kind.hostile() && {
                let d = [
                    m.body.pos[0] - p[0],
                    m.body.pos[1] - p[1],
                    m.body.pos[2] - p[2],
                ];
                (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() < DANGER_RADIUS
            }
        });
    if danger {
        return Some("night_danger");
    }
    if moved.is_some_and(|m| m < STUCK_BELOW) {
        return Some("stuck");
    }
    let d = data();
    match goal {
        Goal::Mine(block) => {
            let t = w.target()?;
            (d.block_name(t.block) == block && !mining(t.block, w.held()).harvests)
                .then_some("wrong_tool")
        }
        Goal::Craft(item) => match w.clone().do_craft(item) {
            Err(CraftError::NeedsTable(_)) => Some("missing_station"),
            _ => None,
        },
        Goal::Smelt(item) => match w.clone().do_smelt(item) {
            Err(CraftError::NeedsFurnace(_)) => Some("missing_station"),
            _ => None,
        },
        Goal::Walk => None,
    }
}

/// Put a block at the cell in front of the player at feet level, `ahead`
/// cells along the facing axis.
fn place_ahead(w: &mut World, block: &str, ahead: i32, up: i32) {
    let yaw = w.player.yaw.to_radians();
    let (dx, dz) = (-libm::sin(yaw), libm::cos(yaw));
    let p = w.player.body.pos;
    let (sx, sz) = if dx.abs() > dz.abs() {
        (dx.signum() as i32, 0)
    } else {
        (0, dz.signum() as i32)
    };
    let (x, y, z) = (
        p[0].floor() as i32 + sx * ahead,
        p[1].floor() as i32 + up,
        p[2].floor() as i32 + sz * ahead,
    );
    if let Some(id) = data().block_id(block) {
        w.terrain.set(x, y, z, id);
    }
}

/// Face a cardinal direction (walls then line up with the view).
fn face_cardinal(w: &mut World, rng: &mut Rng) {
    w.player.yaw = 90.0 * rng.below(4) as f64;
}

fn inputs_of(item: &str) -> Vec<(String, u32)> {
    let d = data();
    let Some(id) = d.item_id(item) else {
        return Vec::new();
    };
    let Some(r) = d.recipes_for(id).next() else {
        return Vec::new();
    };
    r.needs()
        .into_iter()
        .filter_map(|(ing, n)| {
            ing.options
                .first()
                .map(|o| (d.item_name(*o).to_string(), n))
        })
        .collect()
}

pub fn generate(rng: &mut Rng, view: View, index: u32) -> Option<Built> {
    // Cycle through the scenarios so every reason shows up in small sets.
    let scenario = index % 9;
    let night = scenario >= 7;
    let start = scene::time_of_day(rng, night);
    let mut w = scene::world(rng.next_u64(), start, &[]);
    let mut moved = None;
    let (goal, actions): (Goal, Vec<String>) = match scenario {
        0 | 1 => {
            let block = [
                "iron_ore",
                "stone",
                "diamond_ore",
                "gold_ore",
                "coal_ore",
                "redstone_ore",
            ][rng.index(6)];
            w.player.yaw = rng.range_f64(0.0, 360.0);
            w.player.pitch = rng.range_f64(45.0, 70.0);
            let t = w.target()?;
            w.terrain
                .set(t.pos[0], t.pos[1], t.pos[2], data().block_id(block)?);
            let tools = [
                "wooden_pickaxe",
                "stone_pickaxe",
                "iron_pickaxe",
                "diamond_pickaxe",
                "stone_axe",
            ];
            let held = tools[rng.index(tools.len())];
            if scenario == 0 || rng.chance(0.3) {
                w.player.inventory.add(data().item(held), 1);
            }
            let what = w
                .held()
                .map(|i| data().item_name(i).replace('_', " "))
                .unwrap_or_else(|| "an empty hand".into());
            (
                Goal::Mine(block.into()),
                vec![format!(
                    "attack the {} with {what} for 2 seconds",
                    block.replace('_', " ")
                )],
            )
        }
        2 | 3 => {
            let item = [
                "wooden_pickaxe",
                "stone_pickaxe",
                "furnace",
                "chest",
                "iron_sword",
                "bucket",
            ][rng.index(6)];
            for (name, n) in inputs_of(item) {
                w.player.inventory.add(data().item(&name), n);
            }
            face_cardinal(&mut w, rng);
            w.player.pitch = rng.range_f64(10.0, 35.0);
            if scenario == 2 {
                place_ahead(&mut w, "crafting_table", 1, 0);
            }
            (
                Goal::Craft(item.into()),
                vec!["open the inventory".into(), format!("craft {item}")],
            )
        }
        4 => {
            let (item, input) = [
                ("iron_ingot", "iron_ore"),
                ("gold_ingot", "gold_ore"),
                ("charcoal", "oak_log"),
            ][rng.index(3)];
            w.player.inventory.add(data().item(input), 3);
            w.player.inventory.add(data().item("coal"), 2);
            face_cardinal(&mut w, rng);
            w.player.pitch = rng.range_f64(10.0, 35.0);
            if rng.chance(0.5) {
                place_ahead(&mut w, "furnace", 1, 0);
            }
            (Goal::Smelt(item.into()), vec![format!("smelt {item}")])
        }
        5 | 6 => {
            face_cardinal(&mut w, rng);
            w.player.pitch = rng.range_f64(0.0, 20.0);
            if scenario == 6 {
                for up in 0..3 {
                    place_ahead(&mut w, "stone", 1, up);
                }
            }
            let start = w.player.body.pos;
            let fwd = Action {
                forward: true,
                ..Action::noop()
            };
            for _ in 0..30 {
                w.step(&fwd);
            }
            let end = w.player.body.pos;
            moved = Some(((end[0] - start[0]).powi(2) + (end[2] - start[2]).powi(2)).sqrt());
            w.events.clear();
            (Goal::Walk, vec!["move forward for 1.5 seconds".into()])
        }
        _ => {
            let block = ["stone", "oak_log", "coal_ore"][rng.index(3)];
            w.player.yaw = rng.range_f64(0.0, 360.0);
            w.player.pitch = rng.range_f64(45.0, 70.0);
            let t = w.target()?;
            w.terrain
                .set(t.pos[0], t.pos[1], t.pos[2], data().block_id(block)?);
            w.player.inventory.add(data().item("iron_pickaxe"), 1);
            w.player.inventory.add(data().item("iron_axe"), 1);
            if block == "oak_log" {
                w.player.selected = 1;
            }
            if scenario == 8 {
                let id = scene::spawn_around(&mut w, rng, MobKind::Zombie, 3.0, 7.0)?;
                let c = scene::mob_centre(&w, id)?;
                scene::aim(
                    &mut w,
                    c,
                    rng.range_f64(-20.0, 20.0),
                    rng.range_f64(-5.0, 5.0),
                );
            }
            (
                Goal::Mine(block.into()),
                vec![format!(
                    "attack the {} for 1 second",
                    block.replace('_', " ")
                )],
            )
        }
    };
    let verdict = diagnose(&w, &goal, moved);
    let mut context = Map::new();
    context.insert("goal".into(), json!(goal.text()));
    context.insert("last_actions".into(), json!(actions));
    Some(Built {
        query: format!(
            "Goal: {}. Last actions: {}. Can the task continue? If it cannot, say why: wrong_tool, \
             missing_station, stuck or night_danger.",
            goal.text(),
            actions.join("; ")
        ),
        format: "Answer with JSON: {\"can_continue\": true|false, \"reason\": null|\"wrong_tool\"|\"missing_station\"|\"stuck\"|\"night_danger\"}."
            .into(),
        context,
        answer: json!({"can_continue": verdict.is_none(), "reason": verdict}),
        answer_extra: Map::new(),
        png: scene::frame_png(&w, view),
    })
}

/// The reason a text gives, by keyword.
fn reason_in(text: &str) -> Option<&'static str> {
    let n = norm(text);
    for r in REASONS {
        if n.contains(&norm(r)) {
            return Some(r);
        }
    }
    let has = |ws: &[&str]| ws.iter().any(|w| mentions(text, w));
    if has(&["zombie", "hostile", "danger", "dangerous", "night"]) {
        Some("night_danger")
    } else if has(&["stuck", "blocked", "wall", "cannot move"]) {
        Some("stuck")
    } else if has(&["crafting table", "furnace", "station", "table"]) {
        Some("missing_station")
    } else if has(&["tool", "pickaxe", "axe"]) {
        Some("wrong_tool")
    } else {
        None
    }
}

/// (can continue, reason) of an answer value: an object with
/// `can_continue` / `reason`, or text ("The task cannot proceed and requires
/// re-planning: the pickaxe is too weak").
pub fn verdict_of(v: &Value) -> Option<(bool, Option<&'static str>)> {
    match v {
        Value::Object(o) => {
            let c = match o.get("can_continue")? {
                Value::Bool(b) => *b,
                other => crate::text::yes_no(&crate::text::as_text(other))?,
            };
            let r = o.get("reason").and_then(Value::as_str).and_then(reason_in);
            Some((c, r))
        }
        Value::String(s) => {
            if let Some(j @ Value::Object(_)) = json_in(s)
                && let Some(v) = verdict_of(&j)
            {
                return Some(v);
            }
            let n = format!(" {} ", norm(s));
            let cannot = [
                " cannot ",
                " can not ",
                " can t ",
                " unable ",
                " re planning ",
                " replan",
                " should stop ",
            ]
            .iter()
            .any(|k| n.contains(k))
                || n.starts_with(" no ");
            let can = !cannot
                && (n.contains(" can continue ")
                    || n.contains(" can proceed ")
                    || n.starts_with(" yes "));
            if !cannot && !can {
                return None;
            }
            Some((can, if can { None } else { reason_in(s) }))
        }
        _ => None,
    }
}

/// A reply as an answer.
pub fn parse(reply: &str) -> Value {
    let a = answer_part(reply);
    match verdict_of(&Value::String(a.to_string())) {
        Some((c, r)) => json!({"can_continue": c, "reason": r}),
        None => Value::String(a.to_string()),
    }
}

/// (both right, can-continue right).
pub fn score_item(truth: &Value, pred: &Value) -> (f64, f64) {
    let (Some((tc, tr)), Some((pc, pr))) = (verdict_of(truth), verdict_of(pred)) else {
        return (0.0, 0.0);
    };
    let yes_no = tc == pc;
    let full = yes_no && (tc || tr == pr);
    (if full { 1.0 } else { 0.0 }, if yes_no { 1.0 } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_read_from_json_and_sentences() {
        let t = json!({"can_continue": false, "reason": "wrong_tool"});
        assert_eq!(score_item(&t, &t), (1.0, 1.0));
        assert_eq!(
            score_item(
                &t,
                &json!(
                    "The task cannot proceed and requires re-planning: the pickaxe is too weak."
                )
            ),
            (1.0, 1.0)
        );
        assert_eq!(
            score_item(&t, &json!("No - a zombie is close.")),
            (0.0, 1.0)
        );
        assert_eq!(score_item(&t, &json!("The task can continue.")), (0.0, 0.0));
        let ok = json!({"can_continue": true, "reason": null});
        assert_eq!(score_item(&ok, &json!("Yes, it can continue.")), (1.0, 1.0));
        assert_eq!(score_item(&ok, &json!("unclear")), (0.0, 0.0));
    }
}
