//! Planning: knowledge-graph queries with partial inventories ("given a
//! crafting table and two cobblestone, how do you get a stone sword?"). The
//! truth is the planner's plan from that inventory; the frame is the
//! inventory screen holding it. Scored by Optimus-3's step-for-step exact
//! match, with the released lenient rule and whether the predicted plan
//! actually runs (the world's craft/smelt macros) reported alongside.

use crate::Built;
use crate::scene::{self, View};
use crate::text::{answer_part, json_in, norm};
use gw_core::Rng;
use gw_openworld::expert::LONG_HORIZON;
use gw_openworld::graph::world_graph;
use gw_openworld::plan::{plan, simulate};
use gw_openworld::{GoalKind, SubGoal};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The concrete item to hand out for a plan node (a wood group → its first
/// species).
fn concrete(node: &str) -> String {
    world_graph()
        .groups
        .get(node)
        .and_then(|m| m.first().cloned())
        .unwrap_or_else(|| node.to_string())
}

fn describe(inv: &BTreeMap<String, u32>) -> String {
    if inv.is_empty() {
        return "an empty inventory".into();
    }
    let parts: Vec<String> = inv
        .iter()
        .map(|(k, n)| format!("{n} {}", k.replace('_', " ")))
        .collect();
    parts.join(", ")
}

pub fn generate(rng: &mut Rng, view: View) -> Option<Built> {
    let targets: Vec<&str> = LONG_HORIZON
        .iter()
        .flat_map(|(_, t)| t.iter().copied())
        .collect();
    let target = targets[rng.index(targets.len())];
    let count = if rng.chance(0.2) { 2 } else { 1 };
    let full = plan(target, count, &BTreeMap::new()).ok()?;
    let mut inv = BTreeMap::new();
    for st in &full[..full.len().saturating_sub(1)] {
        if rng.chance(0.35) {
            let n = 1 + rng.below(st.count.max(1));
            *inv.entry(concrete(&st.item)).or_insert(0) += n;
        }
    }
    let truth = plan(target, count, &inv).ok()?;
    if truth.is_empty() {
        return None;
    }
    let kit: Vec<(String, u32)> = inv.iter().map(|(k, n)| (k.clone(), *n)).collect();
    let mut w = scene::world(rng.next_u64(), 6000, &kit);
    w.player.inventory_open = true;
    let mut context = Map::new();
    context.insert("target".into(), json!(target));
    context.insert("count".into(), json!(count));
    context.insert("inventory".into(), json!(inv));
    Some(Built {
        query: format!(
            "Given {}, how can you obtain {count} {}? List the steps in order; each step mines, \
             collects, crafts or smelts an item, with how many of it you must hold once the step is done.",
            describe(&inv),
            target.replace('_', " ")
        ),
        format: "Answer with JSON: {\"steps\": [{\"kind\": \"mine|collect|craft|smelt\", \"item\": \"item_id\", \"count\": N}, ...]}."
            .into(),
        context,
        answer: json!({"steps": truth}),
        answer_extra: Map::new(),
        png: scene::frame_png(&w, view),
    })
}

fn kind_word(w: &str) -> Option<GoalKind> {
    match w {
        "mine" | "dig" | "chop" | "break" | "gather" => Some(GoalKind::Mine),
        "collect" | "kill" | "hunt" => Some(GoalKind::Collect),
        "craft" | "make" => Some(GoalKind::Craft),
        "smelt" | "cook" => Some(GoalKind::Smelt),
        _ => None,
    }
}

const STOP: [&str; 8] = ["with", "using", "from", "at", "in", "by", "on", "for"];

/// One step from a line such as `2. craft 4 planks` or `dig down and mine
/// 3 iron ore with a stone pickaxe`.
fn step_of_line(line: &str) -> Option<SubGoal> {
    let t = line.trim_start_matches(|c: char| {
        c.is_ascii_digit() || c == '.' || c == ')' || c == '-' || c == '*' || c.is_whitespace()
    });
    let words: Vec<String> = norm(t).split(' ').map(String::from).collect();
    let verbs: Vec<usize> = (0..words.len())
        .filter(|&i| kind_word(&words[i]).is_some())
        .collect();
    let num = words.iter().position(|w| w.parse::<u32>().is_ok());
    let vi = match num {
        Some(n) => *verbs.iter().rev().find(|&&v| v < n).or(verbs.first())?,
        None => *verbs.last()?,
    };
    let kind = kind_word(&words[vi])?;
    let (count, from) = match num {
        Some(n) if n > vi => (words[n].parse().ok()?, n + 1),
        _ => (1, vi + 1),
    };
    let item: Vec<&str> = words[from.min(words.len())..]
        .iter()
        .map(String::as_str)
        .take_while(|w| !STOP.contains(w))
        .collect();
    if item.is_empty() {
        return None;
    }
    let mut item = item.join("_");
    // Plurals: "oak logs" → oak_log, "torches" → torch.
    let g = world_graph();
    if g.canonical(&item).is_none() {
        for cut in ["es", "s"] {
            if let Some(one) = item.strip_suffix(cut)
                && g.canonical(one).is_some()
            {
                item = one.to_string();
                break;
            }
        }
    }
    Some(SubGoal { kind, item, count })
}

/// Steps from an answer value: `{"steps": [...]}`, a list of steps, or
/// text with one step per line.
pub fn steps_of(v: &Value) -> Vec<SubGoal> {
    match v {
        Value::Object(o) if o.contains_key("steps") => steps_of(&o["steps"]),
        Value::Array(a) => a
            .iter()
            .filter_map(|s| match s {
                Value::String(t) => step_of_line(t),
                other => serde_json::from_value(other.clone()).ok(),
            })
            .collect(),
        Value::String(s) => match json_in(s) {
            Some(j @ (Value::Object(_) | Value::Array(_))) if !steps_of(&j).is_empty() => {
                steps_of(&j)
            }
            _ => s.lines().filter_map(step_of_line).collect(),
        },
        _ => Vec::new(),
    }
}

/// A reply as an answer: `{"steps": [...]}` read leniently.
pub fn parse(reply: &str) -> Value {
    let a = answer_part(reply);
    json!({"steps": steps_of(&Value::String(a.to_string()))})
}

/// One plan prediction scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// 1 when the steps match the truth step for step (Optimus-3).
    pub exact: f64,
    /// Graded lenient credit ([`crate::reward::plan`]): the released
    /// rule's verdict times the share of the truth's items stated.
    pub lenient: f64,
    /// The released scorer's rule alone, 1 or 0 (for comparison with
    /// numbers reported under it).
    pub released: f64,
    /// 1 when the plan runs from the item's inventory and ends holding the
    /// target (the world's craft and smelt macros).
    pub executable: f64,
}

/// Score a plan prediction for an item.
pub fn score_item(item: &Value, truth: &Value, pred: &Value) -> Scored {
    let t = steps_of(truth);
    let p = steps_of(pred);
    let inv: BTreeMap<String, u32> =
        serde_json::from_value(item["inventory"].clone()).unwrap_or_default();
    let target = item["target"].as_str().unwrap_or("");
    let count = item["count"].as_u64().unwrap_or(1) as u32;
    let runs = !p.is_empty() && simulate(&p, &inv, target, count).is_ok();
    let one = |b: bool| if b { 1.0 } else { 0.0 };
    Scored {
        exact: crate::reward::plan(&p, &t, false),
        lenient: crate::reward::plan(&p, &t, true),
        released: one(gw_openworld::score::lenient(&p, &t)),
        executable: one(runs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_plans_are_read_step_by_step() {
        let s = steps_of(&json!(
            "1. chop trees to get 3 oak logs\n2. craft 12 planks\n3) Craft 1 crafting table\nthen dig down and mine 2 iron ore with a stone pickaxe"
        ));
        let got: Vec<String> = s.iter().map(|g| g.to_string()).collect();
        assert_eq!(
            got,
            vec![
                "mine 3 oak_log",
                "craft 12 planks",
                "craft 1 crafting_table",
                "mine 2 iron_ore"
            ]
        );
        let j = steps_of(&json!(
            "```json\n{\"steps\": [{\"kind\": \"craft\", \"item\": \"stick\", \"count\": 4}]}\n```"
        ));
        assert_eq!(j.len(), 1);
        assert_eq!(j[0].item, "stick");
    }
}
