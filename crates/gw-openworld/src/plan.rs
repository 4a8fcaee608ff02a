//! The planner: for a target item, a count and a (partial) inventory, the
//! ordered sub-goals with counts — the Optimus-3 planning query — compiled
//! from the knowledge graph.
//!
//! Each node the plan needs appears once, with `count` = how many the
//! inventory must hold when that step is done (everything later steps
//! consume, or the target count). Steps come in dependency order: a station
//! before the crafts at it, a tool before the blocks it mines, ingredients
//! before what they make. What the inventory already holds is used first,
//! and a step whose item is already held in full is left out. Smelting burns
//! planks: the planks step includes ⌈smelt ticks / plank burn time⌉ extra.
//! Wood species are interchangeable (`logs`, `planks`).

use crate::goal::{GoalKind, SubGoal};
use crate::graph::{FURNACE, KnowledgeGraph, Source, world_graph};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanError {
    /// The name is no item of the world.
    UnknownItem(String),
    /// The plan needs an item no source provides (e.g. a block that only
    /// exists once placed).
    Unobtainable(String),
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::UnknownItem(s) => write!(
                f,
                "unknown item \"{s}\": use an item id from registry/world/items.yaml (e.g. iron_pickaxe) or logs/planks"
            ),
            PlanError::Unobtainable(s) => write!(
                f,
                "no way to obtain \"{s}\" in this world (it is neither mined, dropped, crafted nor smelted)"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

/// Plan with the world's graph. `inventory` maps item ids (any species for
/// wood) to counts.
pub fn plan(
    target: &str,
    count: u32,
    inventory: &BTreeMap<String, u32>,
) -> Result<Vec<SubGoal>, PlanError> {
    plan_with(world_graph(), target, count, inventory)
}

/// The node an ingredient takes: a held option first, else the cheapest.
fn pick_option(g: &KnowledgeGraph, options: &[String], inv: &BTreeMap<String, u32>) -> String {
    if let Some(o) = options
        .iter()
        .filter(|o| g.held(inv, o) > 0)
        .max_by_key(|o| g.held(inv, o))
    {
        return o.clone();
    }
    options
        .iter()
        .min_by(|a, b| {
            let ca = g.cost.get(*a).copied().unwrap_or(f64::INFINITY);
            let cb = g.cost.get(*b).copied().unwrap_or(f64::INFINITY);
            ca.total_cmp(&cb)
        })
        .cloned()
        .unwrap_or_default()
}

/// What a node's step depends on, in the order the plan visits them:
/// station, ingredients, tool, fuel.
fn children(g: &KnowledgeGraph, node: &str, inv: &BTreeMap<String, u32>) -> Vec<String> {
    let mut out = Vec::new();
    match g.best_source(node) {
        Some(Source::Craft {
            inputs, station, ..
        }) => {
            if let Some(s) = station {
                out.push(s.clone());
            }
            for i in inputs {
                out.push(pick_option(g, &i.options, inv));
            }
        }
        Some(Source::Smelt { input, .. }) => {
            out.push(FURNACE.to_string());
            out.push(pick_option(g, &input.options, inv));
            out.push("planks".to_string());
        }
        Some(Source::Mine { tool: Some(t), .. }) if !g.has_tool(inv, t) => {
            if let Some(best) = g.tools_for(t).into_iter().next() {
                out.push(best);
            }
        }
        _ => {}
    }
    out
}

/// Plan with a given graph.
pub fn plan_with(
    g: &KnowledgeGraph,
    target: &str,
    count: u32,
    inventory: &BTreeMap<String, u32>,
) -> Result<Vec<SubGoal>, PlanError> {
    plan_with_spare(g, target, count, inventory, &[])
}

/// [`plan_with`], also keeping `spare` items left over once the target is
/// made (node, count) — for nodes the plan makes anyway; the expert keeps a
/// crafting table's worth of planks this way for a table underground.
pub fn plan_with_spare(
    g: &KnowledgeGraph,
    target: &str,
    count: u32,
    inventory: &BTreeMap<String, u32>,
    spare: &[(&str, u32)],
) -> Result<Vec<SubGoal>, PlanError> {
    let target = g
        .canonical(target)
        .ok_or_else(|| PlanError::UnknownItem(target.to_string()))?;
    if count == 0 {
        return Ok(Vec::new());
    }
    // Dependency order: depth-first post-order from the target.
    let mut order: Vec<String> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut stack: Vec<(String, bool)> = vec![(target.clone(), false)];
    while let Some((node, expanded)) = stack.pop() {
        if expanded {
            order.push(node);
            continue;
        }
        if !seen.insert(node.clone()) {
            continue;
        }
        stack.push((node.clone(), true));
        for c in children(g, &node, inventory).into_iter().rev() {
            if !seen.contains(&c) {
                stack.push((c, false));
            }
        }
    }
    // Demands, consumers before producers.
    let mut demand: BTreeMap<String, u32> = BTreeMap::new();
    let mut as_tool: BTreeSet<String> = BTreeSet::new();
    let mut fuel_ticks: u32 = 0;
    demand.insert(target.clone(), count);
    for (node, n) in spare {
        if order.iter().any(|o| o == node) && *node != target {
            *demand.entry(node.to_string()).or_insert(0) += n;
        }
    }
    // Fuel held that burns longer than a plank (coal, charcoal): the furnace
    // burns the longest-burning fuel first, so planks pay only the rest.
    let d = gw_world::data();
    let held_fuel: u32 = inventory
        .iter()
        .filter_map(|(name, n)| {
            let fuel = d.item_def(d.item_id(name)?).fuel;
            (fuel > g.plank_fuel).then_some(fuel.saturating_mul(*n))
        })
        .fold(0u32, u32::saturating_add);
    let mut steps: BTreeMap<String, SubGoal> = BTreeMap::new();
    for node in order.iter().rev() {
        let mut need = demand.get(node).copied().unwrap_or(0);
        if as_tool.contains(node) {
            need += 1;
        }
        if node == "planks" {
            need += fuel_ticks.saturating_sub(held_fuel).div_ceil(g.plank_fuel);
        }
        let have = g.held(inventory, node);
        let short = need.saturating_sub(have);
        if short == 0 {
            continue;
        }
        let src = g
            .best_source(node)
            .ok_or_else(|| PlanError::Unobtainable(node.clone()))?;
        let kind = match src {
            Source::Mine { tool, .. } => {
                if let Some(t) = tool
                    && !g.has_tool(inventory, t)
                    && let Some(best) = g.tools_for(t).into_iter().next()
                {
                    as_tool.insert(best);
                }
                GoalKind::Mine
            }
            Source::Collect { .. } => GoalKind::Collect,
            Source::Craft {
                inputs,
                makes,
                station,
            } => {
                let batches = short.div_ceil(*makes);
                for i in inputs {
                    let o = pick_option(g, &i.options, inventory);
                    *demand.entry(o).or_insert(0) += batches * i.count;
                }
                if let Some(s) = station {
                    as_tool.insert(s.clone());
                }
                GoalKind::Craft
            }
            Source::Smelt { input, ticks } => {
                let o = pick_option(g, &input.options, inventory);
                *demand.entry(o).or_insert(0) += short;
                fuel_ticks += short * ticks;
                as_tool.insert(FURNACE.to_string());
                GoalKind::Smelt
            }
        };
        steps.insert(
            node.clone(),
            SubGoal {
                kind,
                item: node.clone(),
                count: need,
            },
        );
    }
    Ok(order.iter().filter_map(|n| steps.remove(n)).collect())
}

/// How many of a plan step's item an inventory holds (wood species pooled).
pub fn held(inventory: &BTreeMap<String, u32>, item: &str) -> u32 {
    let g = world_graph();
    match g.canonical(item) {
        Some(c) => g.held(inventory, &c),
        None => inventory.get(item).copied().unwrap_or(0),
    }
}

/// Why a plan could not be carried out by [`simulate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// Step `step` (0-based) names an item the world lacks.
    UnknownItem { step: usize, item: String },
    /// Mining needs a tool the inventory lacks at that step.
    MissingTool { step: usize, item: String },
    /// The world's craft/smelt refused (missing inputs, station, fuel).
    Refused { step: usize, reason: String },
    /// The step's kind is not how the item is obtained.
    WrongKind { step: usize, item: String },
    /// All steps ran but the target is short.
    TargetShort { item: String, have: u32, want: u32 },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::UnknownItem { step, item } => {
                write!(f, "step {}: unknown item {item}", step + 1)
            }
            ApplyError::MissingTool { step, item } => {
                write!(f, "step {}: no tool to mine {item}", step + 1)
            }
            ApplyError::Refused { step, reason } => write!(f, "step {}: {reason}", step + 1),
            ApplyError::WrongKind { step, item } => {
                write!(f, "step {}: {item} is not obtained that way", step + 1)
            }
            ApplyError::TargetShort { item, have, want } => {
                write!(f, "the plan ends with {have} {item}, {want} wanted")
            }
        }
    }
}

impl std::error::Error for ApplyError {}

/// Inventory totals by item name.
pub fn inventory_map(inv: &gw_world::inventory::Inventory) -> BTreeMap<String, u32> {
    let d = gw_world::data();
    let mut m = BTreeMap::new();
    for (id, n) in inv.totals() {
        *m.entry(d.item_name(id).to_string()).or_insert(0) += n;
    }
    m
}

/// Carry a plan out on an inventory with the world's own craft and smelt
/// macros (stations are placed when a step first needs them; mining adds
/// the drops when a suitable tool is held, wood species in turn), then check
/// the target count. Returns the final inventory.
pub fn simulate(
    steps: &[SubGoal],
    inventory: &BTreeMap<String, u32>,
    target: &str,
    count: u32,
) -> Result<BTreeMap<String, u32>, ApplyError> {
    use gw_world::inventory::{FurnaceFuel, Inventory, craft, smelt};
    let g = world_graph();
    let d = gw_world::data();
    let mut inv = Inventory::default();
    for (name, &n) in inventory {
        if let Some(id) = d.item_id(name) {
            inv.add(id, n);
        }
    }
    let mut table = false;
    let mut furnace: Option<FurnaceFuel> = None;
    let concrete = |node: &str| -> Vec<String> {
        match g.groups.get(node) {
            Some(members) => members.clone(),
            None => vec![node.to_string()],
        }
    };
    for (i, st) in steps.iter().enumerate() {
        let node = g
            .canonical(&st.item)
            .ok_or_else(|| ApplyError::UnknownItem {
                step: i,
                item: st.item.clone(),
            })?;
        let names = concrete(&node);
        let held = |inv: &Inventory| g.held(&inventory_map(inv), &node);
        let mut guard = 0;
        while held(&inv) < st.count {
            guard += 1;
            if guard > 10_000 {
                return Err(ApplyError::Refused {
                    step: i,
                    reason: format!("{} never reaches {}", st.item, st.count),
                });
            }
            match st.kind {
                GoalKind::Mine | GoalKind::Collect => {
                    let list = g.sources.get(&node).cloned().unwrap_or_default();
                    let want_mine = st.kind == GoalKind::Mine;
                    let ok = list.iter().any(|s| match s {
                        Source::Mine { tool, .. } if want_mine => tool
                            .as_ref()
                            .is_none_or(|t| g.has_tool(&inventory_map(&inv), t)),
                        Source::Collect { .. } => !want_mine,
                        _ => false,
                    });
                    if !ok {
                        let mines = list.iter().any(|s| matches!(s, Source::Mine { .. }));
                        return Err(if want_mine && mines {
                            ApplyError::MissingTool {
                                step: i,
                                item: st.item.clone(),
                            }
                        } else {
                            ApplyError::WrongKind {
                                step: i,
                                item: st.item.clone(),
                            }
                        });
                    }
                    let pick = &names[guard % names.len()];
                    inv.add(d.item(pick), 1);
                }
                GoalKind::Craft => {
                    let mut last = String::new();
                    let mut made = false;
                    for name in &names {
                        let needs_table = d
                            .item_id(name)
                            .is_some_and(|id| d.recipes_for(id).all(|r| r.needs_table));
                        if needs_table && !table && inv.remove(d.item("crafting_table"), 1) == 1 {
                            table = true;
                        }
                        match craft(&mut inv, name, table) {
                            Ok(_) => {
                                made = true;
                                break;
                            }
                            Err(e) => last = e.to_string(),
                        }
                    }
                    if !made {
                        return Err(ApplyError::Refused {
                            step: i,
                            reason: last,
                        });
                    }
                }
                GoalKind::Smelt => {
                    if furnace.is_none() && inv.remove(d.item(FURNACE), 1) == 1 {
                        furnace = Some(FurnaceFuel::default());
                    }
                    if let Err(e) = smelt(&mut inv, &names[0], furnace.as_mut()) {
                        return Err(ApplyError::Refused {
                            step: i,
                            reason: e.to_string(),
                        });
                    }
                }
            }
        }
    }
    let out = inventory_map(&inv);
    let t = g.canonical(target).ok_or_else(|| ApplyError::UnknownItem {
        step: steps.len(),
        item: target.to_string(),
    })?;
    let have = g.held(&out, &t);
    if have < count {
        return Err(ApplyError::TargetShort {
            item: t,
            have,
            want: count,
        });
    }
    Ok(out)
}
