//! Graph, planner and scorer tests over the world's own tables.

use crate::goal::{GoalKind, SubGoal};
use crate::graph::{KnowledgeGraph, world_graph};
use crate::plan::{PlanError, plan, simulate};
use crate::score::{exact, lenient, score_set};
use std::collections::BTreeMap;

use crate::expert::LONG_HORIZON;

fn inv(items: &[(&str, u32)]) -> BTreeMap<String, u32> {
    items.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

fn step(kind: GoalKind, item: &str, count: u32) -> SubGoal {
    SubGoal {
        kind,
        item: item.into(),
        count,
    }
}

fn all_targets() -> impl Iterator<Item = &'static str> {
    LONG_HORIZON.iter().flat_map(|(_, t)| t.iter().copied())
}

#[test]
fn there_are_67_targets_and_the_world_knows_each() {
    assert_eq!(all_targets().count(), 67);
    let g = world_graph();
    for t in all_targets() {
        assert!(g.canonical(t).is_some(), "{t} is not an item of the world");
        assert!(g.best_source(t).is_some(), "{t} has no source");
    }
}

#[test]
fn graph_holds_the_tech_tree_edges() {
    let g = KnowledgeGraph::build(gw_world::data());
    let edges = g.edges();
    let has = |from: &str, to: &str, kind: &str| {
        edges.iter().any(|e| {
            e.from == from
                && e.to == to
                && serde_json::to_value(e.kind).unwrap().as_str() == Some(kind)
        })
    };
    assert!(has("planks", "logs", "crafted_from"));
    assert!(has("oak_log", "logs", "member_of"));
    assert!(has("iron_ingot", "iron_ore", "smelted_from"));
    assert!(has("iron_ingot", "furnace", "needs_station"));
    assert!(has("iron_pickaxe", "crafting_table", "needs_station"));
    assert!(!has("stick", "crafting_table", "needs_station"));
    assert!(has("iron_ore", "block:iron_ore", "mined_from"));
    assert!(has("block:iron_ore", "stone_pickaxe", "mined_with"));
    assert!(has("block:diamond_ore", "iron_pickaxe", "mined_with"));
    assert!(has("block:stone", "wooden_pickaxe", "mined_with"));
    assert!(has("cobblestone", "block:stone", "mined_from"));
    assert!(has("leather", "mob:cow", "dropped_by"));
    // Placed-only blocks are not mined: a crafting table is crafted.
    assert!(!has("crafting_table", "block:crafting_table", "mined_from"));
    let e = edges
        .iter()
        .find(|e| e.from == "wooden_pickaxe" && e.to == "planks")
        .unwrap();
    assert_eq!((e.count, e.makes), (Some(3), Some(1)));
    let e = edges
        .iter()
        .find(|e| e.from == "rail" && e.to == "iron_ingot")
        .unwrap();
    assert_eq!((e.count, e.makes), (Some(6), Some(16)));
    // JSON and DOT carry every edge.
    let json = g.to_json();
    assert_eq!(json["edges"].as_array().unwrap().len(), edges.len());
    assert!(
        json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["id"] == "furnace" && n["kind"] == "station")
    );
    let dot = g.to_dot();
    assert!(dot.starts_with("digraph crafting {"));
    assert!(dot.contains("\"iron_ingot\" -> \"iron_ore\" [label=\"smelted_from\"]"));
    assert_eq!(dot.matches(" -> ").count(), edges.len());
    // The cheapest sources: ingots are smelted, not made of nuggets.
    assert!(matches!(
        g.best_source("iron_ingot"),
        Some(crate::graph::Source::Smelt { .. })
    ));
    assert_eq!(g.canonical("birch_planks").as_deref(), Some("planks"));
    assert_eq!(g.canonical("Log").as_deref(), Some("logs"));
    assert_eq!(g.canonical("unobtainium"), None);
}

#[test]
fn wooden_pickaxe_plan_matches_the_optimus_order() {
    let p = plan("wooden_pickaxe", 1, &BTreeMap::new()).unwrap();
    assert_eq!(
        p,
        vec![
            step(GoalKind::Mine, "logs", 3),
            step(GoalKind::Craft, "planks", 9),
            step(GoalKind::Craft, "crafting_table", 1),
            step(GoalKind::Craft, "stick", 2),
            step(GoalKind::Craft, "wooden_pickaxe", 1),
        ]
    );
}

#[test]
fn iron_pickaxe_plan_climbs_the_tech_tree() {
    let p = plan("iron_pickaxe", 1, &BTreeMap::new()).unwrap();
    let text: Vec<String> = p.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        text,
        [
            "mine 4 logs",
            "craft 13 planks",
            "craft 1 crafting_table",
            "craft 6 stick",
            "craft 1 wooden_pickaxe",
            "mine 11 cobblestone",
            "craft 1 furnace",
            "craft 1 stone_pickaxe",
            "mine 3 iron_ore",
            "smelt 3 iron_ingot",
            "craft 1 iron_pickaxe",
        ]
    );
}

#[test]
fn partial_inventories_shorten_plans() {
    // A held stone pickaxe: no wooden tools; a held table: no table step.
    let p = plan(
        "iron_sword",
        1,
        &inv(&[
            ("stone_pickaxe", 1),
            ("crafting_table", 1),
            ("birch_planks", 2),
        ]),
    )
    .unwrap();
    let items: Vec<&str> = p.iter().map(|s| s.item.as_str()).collect();
    assert!(!items.contains(&"wooden_pickaxe") && !items.contains(&"stone_pickaxe"));
    assert!(!items.contains(&"crafting_table"));
    assert_eq!(p.last().unwrap(), &step(GoalKind::Craft, "iron_sword", 1));
    // Everything held: nothing to do; the target held: nothing either.
    assert!(plan("stick", 4, &inv(&[("stick", 5)])).unwrap().is_empty());
    // Held planks of any species count.
    assert_eq!(
        plan("stick", 4, &inv(&[("spruce_planks", 2)])).unwrap(),
        vec![step(GoalKind::Craft, "stick", 4)]
    );
    assert_eq!(
        plan("stick", 8, &inv(&[("spruce_planks", 2)])).unwrap(),
        vec![
            step(GoalKind::Mine, "logs", 1),
            step(GoalKind::Craft, "planks", 4),
            step(GoalKind::Craft, "stick", 8),
        ]
    );
    // A better pickaxe serves a lower tier.
    let p = plan("cobblestone", 3, &inv(&[("iron_pickaxe", 1)])).unwrap();
    assert_eq!(p, vec![step(GoalKind::Mine, "cobblestone", 3)]);
    // Errors name the item.
    assert_eq!(
        plan("unobtainium", 1, &BTreeMap::new()),
        Err(PlanError::UnknownItem("unobtainium".into()))
    );
    assert!(
        PlanError::UnknownItem("x".into())
            .to_string()
            .contains("items.yaml")
    );
    assert!(matches!(
        plan("bedrock", 1, &BTreeMap::new()),
        Err(PlanError::UnknownItem(_) | PlanError::Unobtainable(_))
    ));
}

#[test]
fn every_long_horizon_plan_is_executable_from_empty_and_partial_inventories() {
    let partials: Vec<BTreeMap<String, u32>> = vec![
        BTreeMap::new(),
        inv(&[("oak_log", 2), ("birch_planks", 3)]),
        inv(&[("crafting_table", 1), ("stick", 3), ("wooden_pickaxe", 1)]),
        inv(&[("stone_pickaxe", 1), ("cobblestone", 5), ("furnace", 1)]),
        inv(&[("iron_pickaxe", 1), ("iron_ingot", 2), ("spruce_log", 1)]),
        inv(&[
            ("diamond", 1),
            ("gold_ingot", 1),
            ("redstone", 1),
            ("coal", 1),
        ]),
    ];
    for t in all_targets() {
        for (k, start) in partials.iter().enumerate() {
            let steps = plan(t, 1, start).unwrap_or_else(|e| panic!("{t}: {e}"));
            let end = simulate(&steps, start, t, 1)
                .unwrap_or_else(|e| panic!("{t} from inventory #{k}: {e}; plan {steps:?}"));
            assert!(crate::plan::held(&end, t) >= 1);
            if k == 0 {
                assert_eq!(
                    steps.last().unwrap().item,
                    world_graph().canonical(t).unwrap()
                );
                // Each item once, all counts positive.
                let mut items: Vec<&str> = steps.iter().map(|s| s.item.as_str()).collect();
                items.sort();
                items.dedup();
                assert_eq!(items.len(), steps.len(), "{t}: {steps:?}");
                assert!(steps.iter().all(|s| s.count > 0));
            }
        }
        // Larger counts too.
        let steps = plan(t, 3, &BTreeMap::new()).unwrap();
        simulate(&steps, &BTreeMap::new(), t, 3).unwrap_or_else(|e| panic!("{t} ×3: {e}"));
    }
}

#[test]
fn simulate_rejects_broken_plans() {
    // No pickaxe for cobblestone.
    let bad = vec![step(GoalKind::Mine, "cobblestone", 3)];
    assert!(matches!(
        simulate(&bad, &BTreeMap::new(), "cobblestone", 3),
        Err(crate::plan::ApplyError::MissingTool { step: 0, .. })
    ));
    // Crafting without the ingredients.
    let bad = vec![step(GoalKind::Craft, "stick", 4)];
    assert!(matches!(
        simulate(&bad, &BTreeMap::new(), "stick", 4),
        Err(crate::plan::ApplyError::Refused { step: 0, .. })
    ));
    // A plan that stops short.
    let short = vec![step(GoalKind::Mine, "logs", 1)];
    assert!(matches!(
        simulate(&short, &BTreeMap::new(), "planks", 4),
        Err(crate::plan::ApplyError::TargetShort { .. })
    ));
}

#[test]
fn scorers_follow_exact_and_lenient_rules() {
    let truth = plan("wooden_pickaxe", 1, &BTreeMap::new()).unwrap();
    assert!(exact(&truth, &truth) && lenient(&truth, &truth));
    // Species names match their group.
    let mut species = truth.clone();
    species[0].item = "oak_log".into();
    species[1].item = "birch_planks".into();
    assert!(exact(&species, &truth));
    // More of an item: lenient only.
    let mut more = truth.clone();
    more[0].count = 5;
    assert!(!exact(&more, &truth) && lenient(&more, &truth));
    // Fewer: neither.
    let mut fewer = truth.clone();
    fewer[1].count = 4;
    assert!(!exact(&fewer, &truth) && !lenient(&fewer, &truth));
    // Skipping steps keeps the lenient rule (subset), breaks exact.
    let subset = vec![truth[0].clone(), truth[4].clone()];
    assert!(!exact(&subset, &truth) && lenient(&subset, &truth));
    // A foreign item or a wrong last item fails both.
    let mut foreign = truth.clone();
    foreign.insert(1, step(GoalKind::Mine, "cobblestone", 1));
    assert!(!lenient(&foreign, &truth));
    let mut reordered = truth.clone();
    reordered.swap(3, 4);
    assert!(!exact(&reordered, &truth) && !lenient(&reordered, &truth));
    // Swapped middle steps: lenient, not exact.
    let mut swapped = truth.clone();
    swapped.swap(2, 3);
    assert!(!exact(&swapped, &truth) && lenient(&swapped, &truth));
    assert!(!lenient(&[], &truth) && lenient(&[], &[]));
    let s = score_set([
        (truth.as_slice(), truth.as_slice()),
        (more.as_slice(), truth.as_slice()),
        (fewer.as_slice(), truth.as_slice()),
        (subset.as_slice(), truth.as_slice()),
    ]);
    assert_eq!((s.n, s.exact, s.lenient), (4, 0.25, 0.75));
}
