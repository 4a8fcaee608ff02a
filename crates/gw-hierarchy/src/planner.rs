//! The model planner: the task, the current frame and the inventory go to
//! the model; a JSON list of sub-goals comes back, is parsed, and is checked
//! against the knowledge graph by carrying it out with the world's own
//! craft/smelt macros (`plan::simulate`). A reply that does not parse or does
//! not reach the target is sent back with the reason, up to `max_reasks`
//! times; then the graph planner's plan is used and the fallback is said in
//! the step's reasoning.

use crate::Step;
use gw_agents::AgentError;
use gw_agents::conversation::{Conversation, Image, Part, Tools};
use gw_agents::jsonfix::parse_lenient;
use gw_agents::model_agent::{Link, MAX_REPLY_TEXT, capped};
use gw_openworld::SubGoal;
use gw_openworld::graph::world_graph;
use gw_openworld::plan::simulate;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The longest plan a model may answer (the longest graph plan has ~20).
pub const MAX_PLAN_STEPS: usize = 64;

const SYSTEM: &str = "You are the planner of an agent in a voxel world with Minecraft's items, \
recipes and tools. From the task, the current view and the inventory, write the ordered \
sub-goals that get the target item from this inventory. A sub-goal is a JSON object \
{\"kind\": \"mine\" | \"collect\" | \"craft\" | \"smelt\", \"item\": ITEM, \"count\": N}: \
mine breaks blocks that drop the item (with the right tool), collect takes it from animals, \
craft makes it (larger recipes need a crafting table, itself a sub-goal), smelt cooks it in a \
furnace fuelled with planks. N is how many of the item the inventory holds once the sub-goal \
is done, counting what later sub-goals use up. Put tools and stations before the sub-goals \
that need them. Use the item ids listed below; \"logs\" and \"planks\" stand for any wood. \
Answer with the JSON array only.";

/// The item names a plan may use: every node of the knowledge graph.
fn item_names() -> String {
    let g = world_graph();
    let mut names: Vec<&str> = g.sources.keys().map(String::as_str).collect();
    names.sort_unstable();
    names.join(", ")
}

/// Read a plan from a reply: a JSON array of sub-goals (or an object with a
/// `plan`/`steps` array), inside code fences or prose.
pub fn parse_plan(text: &str) -> Result<Vec<SubGoal>, String> {
    let v = parse_lenient(capped(text, MAX_REPLY_TEXT))
        .ok_or_else(|| "the answer holds no JSON array of sub-goals".to_string())?;
    let list = match &v {
        Value::Array(a) => a.clone(),
        Value::Object(o) => match o.get("plan").or_else(|| o.get("steps")) {
            Some(Value::Array(a)) => a.clone(),
            _ => return Err("the answer is a JSON object without a \"plan\" array".into()),
        },
        _ => return Err("the answer is not a JSON array of sub-goals".into()),
    };
    if list.is_empty() {
        return Err("the plan is empty".into());
    }
    if list.len() > MAX_PLAN_STEPS {
        return Err(format!(
            "the plan has {} sub-goals; at most {MAX_PLAN_STEPS}",
            list.len()
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let mut goal: SubGoal = serde_json::from_value(s.clone()).map_err(|e| {
                format!(
                    "sub-goal {} ({s}) is not {{\"kind\": mine|collect|craft|smelt, \"item\", \"count\"}}: {e}",
                    i + 1
                )
            })?;
            goal.item = goal
                .item
                .trim()
                .trim_start_matches("minecraft:")
                .to_ascii_lowercase();
            if goal.count == 0 {
                return Err(format!("sub-goal {} ({goal}) has count 0", i + 1));
            }
            Ok(goal)
        })
        .collect()
}

/// Check a plan against the graph: every item known, and carried out from
/// `inventory` with the world's macros it ends holding `count` of `target`.
pub fn validate(
    plan: &[SubGoal],
    inventory: &BTreeMap<String, u32>,
    target: &str,
    count: u32,
) -> Result<(), String> {
    let g = world_graph();
    for (i, s) in plan.iter().enumerate() {
        if g.canonical(&s.item).is_none() {
            return Err(format!(
                "sub-goal {} names \"{}\", which is no item of this world",
                i + 1,
                s.item
            ));
        }
    }
    simulate(plan, inventory, target, count)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A planner that asks the profile's model.
pub struct ModelPlanner {
    pub max_reasks: u32,
    /// Invalid answers so far (all plans), for reports and tests.
    pub rejected: u32,
}

impl ModelPlanner {
    /// Ask for a plan; `Ok(None)` when every answer was rejected (the caller
    /// falls back). Every call is recorded in `step`.
    #[allow(clippy::too_many_arguments)]
    pub fn ask(
        &mut self,
        link: &mut Link,
        step: &mut Step,
        task: &str,
        target: &str,
        count: u32,
        inventory: &BTreeMap<String, u32>,
        frame: Image,
    ) -> Result<Option<Vec<SubGoal>>, AgentError> {
        let mut text = format!(
            "Task: {}\nTarget: {count} {target}\nInventory: {}\n",
            task.trim(),
            json!(inventory)
        );
        text.push_str(&format!("Item ids: {}\n", item_names()));
        let mut notes = Vec::new();
        for _ in 0..=self.max_reasks {
            let conv = Conversation {
                system: SYSTEM.to_string(),
                user: vec![Part::Text(text.clone()), Part::Image(frame.clone())],
                tools: Tools::None,
            };
            let out = step.call(link, &conv)?;
            let answer = parse_plan(&out.text)
                .and_then(|p| validate(&p, inventory, target, count).map(|()| p));
            match answer {
                Ok(p) => {
                    notes.push(format!(
                        "plan: {}",
                        p.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    step.note(notes.join("; "));
                    return Ok(Some(p));
                }
                Err(why) => {
                    self.rejected += 1;
                    notes.push(format!("plan rejected: {why}"));
                    text = format!(
                        "{text}\nYour answer was rejected: {why}. Answer again with the JSON array only.\n"
                    );
                }
            }
        }
        step.note(notes.join("; "));
        Ok(None)
    }
}

/// The image of an observation for a prompt.
pub fn frame_image(png: &[u8], path: Option<&str>) -> Image {
    Image {
        png: Arc::from(png),
        frame_path: path.map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gw_openworld::GoalKind;

    #[test]
    fn plans_parse_from_fences_and_objects_and_errors_name_the_step() {
        let p = parse_plan(
            "Here:\n```json\n[{\"kind\":\"mine\",\"item\":\"logs\",\"count\":1},{\"kind\":\"craft\",\"item\":\"minecraft:Planks\",\"count\":4}]\n```",
        )
        .unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].kind, GoalKind::Craft);
        assert_eq!(p[1].item, "planks");
        let p = parse_plan(r#"{"plan": [{"kind":"mine","item":"logs","count":2}]}"#).unwrap();
        assert_eq!(p[0].count, 2);
        let e = parse_plan(r#"[{"kind":"dig","item":"logs","count":1}]"#).unwrap_err();
        assert!(e.starts_with("sub-goal 1"), "{e}");
        assert_eq!(
            parse_plan("I would chop a tree first.").unwrap_err(),
            "the answer holds no JSON array of sub-goals"
        );
        assert_eq!(parse_plan("[]").unwrap_err(), "the plan is empty");
        let e = parse_plan(r#"[{"kind":"mine","item":"logs","count":0}]"#).unwrap_err();
        assert!(e.contains("count 0"), "{e}");
    }

    #[test]
    fn validation_runs_the_plan_against_the_graph() {
        let empty = BTreeMap::new();
        let truth = gw_openworld::plan("wooden_pickaxe", 1, &empty).unwrap();
        assert_eq!(validate(&truth, &empty, "wooden_pickaxe", 1), Ok(()));
        // Without the table the pickaxe cannot be crafted.
        let short: Vec<SubGoal> = truth
            .iter()
            .filter(|s| s.item != "crafting_table")
            .cloned()
            .collect();
        let e = validate(&short, &empty, "wooden_pickaxe", 1).unwrap_err();
        assert!(e.contains("wooden_pickaxe") || e.contains("table"), "{e}");
        let unknown = vec![SubGoal {
            kind: GoalKind::Mine,
            item: "unobtainium".into(),
            count: 1,
        }];
        assert_eq!(
            validate(&unknown, &empty, "logs", 1).unwrap_err(),
            "sub-goal 1 names \"unobtainium\", which is no item of this world"
        );
        // Stopping short of the target is rejected too.
        let e = validate(&truth[..1], &empty, "wooden_pickaxe", 1).unwrap_err();
        assert!(e.contains("wanted"), "{e}");
    }
}
