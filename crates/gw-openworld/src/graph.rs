//! The crafting knowledge graph, built from the world's own tables
//! (`gw_world::data()`: recipes, smelting, block drops and harvest levels,
//! plus the blocks world generation places and the mobs' loot).
//!
//! Nodes are items, tools, stations, the wood groups (`logs`, `planks`: any
//! species counts, as in the Optimus-1 benchmark), blocks (`block:stone`) and
//! mobs (`mob:cow`). Edges:
//! - `crafted_from` (item → ingredient, `count` per craft, `makes` per craft),
//! - `smelted_from` (item → input, `ticks`),
//! - `needs_station` (item → `crafting_table` | `furnace`),
//! - `mined_from` (item → natural block that drops it, `count` per block),
//! - `mined_with` (block → the cheapest tool that harvests it, `tool`, `level`),
//! - `dropped_by` (item → mob), `member_of` (wood species → group).
//!
//! For each obtainable node the graph keeps its [`Source`]s and the cheapest
//! one (a fixed point over the whole table), which is what the planner follows.

use gw_world::data::{Data, ToolKind};
use gw_world::world::MobKind;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Item groups whose members count as each other (any wood species).
pub const WOOD_GROUPS: [&str; 2] = ["logs", "planks"];

/// The station crafts larger than 2×2 need, and the one smelting needs.
pub const CRAFTING_TABLE: &str = "crafting_table";
pub const FURNACE: &str = "furnace";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Item,
    Tool,
    Station,
    Group,
    Block,
    Mob,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    CraftedFrom,
    SmeltedFrom,
    NeedsStation,
    MinedFrom,
    MinedWith,
    DroppedBy,
    MemberOf,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub makes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ticks: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<i8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<f32>,
}

impl Edge {
    fn new(from: &str, to: &str, kind: EdgeKind) -> Edge {
        Edge {
            from: from.to_string(),
            to: to.to_string(),
            kind,
            count: None,
            makes: None,
            ticks: None,
            tool: None,
            level: None,
            chance: None,
        }
    }
}

/// The tool a block needs to drop anything: a kind reaching a harvest level.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ToolNeed {
    pub kind: String,
    pub level: i8,
}

/// One ingredient slot group: `count` items, any of `options` (graph nodes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Input {
    pub options: Vec<String>,
    pub count: u32,
}

/// One way to obtain a node.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// Break one of `blocks` (natural blocks), with `tool` when it needs one.
    Mine {
        blocks: Vec<String>,
        tool: Option<ToolNeed>,
        per_block: u32,
        chance: f32,
    },
    /// Kill one of `mobs` and pick up its loot.
    Collect { mobs: Vec<String> },
    /// Craft: `makes` items per craft from `inputs`, at `station` if any.
    Craft {
        inputs: Vec<Input>,
        makes: u32,
        station: Option<String>,
    },
    /// Smelt one `input` into one item in a furnace.
    Smelt { input: Input, ticks: u32 },
}

/// The crafting knowledge graph of the world's tables.
#[derive(Clone, Debug)]
pub struct KnowledgeGraph {
    pub nodes: BTreeMap<String, Node>,
    /// Ways to obtain each node (mining first, then mobs, crafts, smelts).
    pub sources: BTreeMap<String, Vec<Source>>,
    /// Wood group → its species items.
    pub groups: BTreeMap<String, Vec<String>>,
    /// Estimated effort to obtain one of each obtainable node.
    pub cost: BTreeMap<String, f64>,
    /// The cheapest source of each obtainable node (index into `sources`).
    pub best: BTreeMap<String, usize>,
    /// Tools by kind: (item, harvest level, cost), cheapest first per level.
    tools: Vec<(String, String, i8)>,
    /// Burn time of one plank (the planner's fuel).
    pub plank_fuel: u32,
}

fn tool_kind_name(k: ToolKind) -> &'static str {
    k.name()
}

impl KnowledgeGraph {
    /// Build the graph from the world's tables.
    pub fn build(data: &Data) -> KnowledgeGraph {
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for g in WOOD_GROUPS {
            let members = data
                .tag(g)
                .iter()
                .map(|&i| data.item_name(i).to_string())
                .collect();
            groups.insert(g.to_string(), members);
        }
        let canon = |name: &str| -> String {
            for (g, members) in &groups {
                if members.iter().any(|m| m == name) {
                    return g.clone();
                }
            }
            name.to_string()
        };
        let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
        let mut add = |id: &str, kind: NodeKind| {
            nodes.entry(id.to_string()).or_insert(Node {
                id: id.to_string(),
                kind,
            });
        };
        for g in groups.keys() {
            add(g, NodeKind::Group);
        }
        let mut tools = Vec::new();
        for it in &data.items {
            let kind = if it.tool.is_some() {
                NodeKind::Tool
            } else if it.name == CRAFTING_TABLE || it.name == FURNACE {
                NodeKind::Station
            } else {
                NodeKind::Item
            };
            add(&canon(&it.name), kind);
            if let Some(t) = it.tool {
                tools.push((tool_kind_name(t.kind).to_string(), it.name.clone(), t.level));
            }
        }
        let mut sources: BTreeMap<String, Vec<Source>> = BTreeMap::new();
        // Mining: natural blocks and what they drop.
        let natural: BTreeSet<u8> = gw_world::terrain::NATURAL.iter().copied().collect();
        for (id, bl) in data.blocks.iter().enumerate() {
            if !natural.contains(&(id as u8)) || bl.hardness < 0.0 || bl.drops.is_empty() {
                continue;
            }
            add(&format!("block:{}", bl.name), NodeKind::Block);
            let tool = (bl.level >= 0 && bl.tool != ToolKind::None).then(|| ToolNeed {
                kind: tool_kind_name(bl.tool).to_string(),
                level: bl.level,
            });
            for drop in &bl.drops {
                let item = canon(data.item_name(drop.item));
                let list = sources.entry(item).or_default();
                let same = list.iter_mut().find(|s| {
                    matches!(s, Source::Mine { tool: t, per_block, chance, .. }
                        if *t == tool && *per_block == drop.count as u32 && *chance == drop.chance)
                });
                match same {
                    Some(Source::Mine { blocks, .. }) => blocks.push(bl.name.clone()),
                    _ => list.push(Source::Mine {
                        blocks: vec![bl.name.clone()],
                        tool: tool.clone(),
                        per_block: drop.count as u32,
                        chance: drop.chance,
                    }),
                }
            }
        }
        for mob in MobKind::ALL {
            add(&format!("mob:{}", mob.name()), NodeKind::Mob);
            for item in mob.loot() {
                let list = sources.entry(canon(item)).or_default();
                match list
                    .iter_mut()
                    .find(|s| matches!(s, Source::Collect { .. }))
                {
                    Some(Source::Collect { mobs }) => mobs.push(mob.name().to_string()),
                    _ => list.push(Source::Collect {
                        mobs: vec![mob.name().to_string()],
                    }),
                }
            }
        }
        let input_of = |ing: &gw_world::data::Ingredient, count: u32| -> Input {
            let mut options: Vec<String> = Vec::new();
            for &o in &ing.options {
                let c = canon(data.item_name(o));
                if !options.contains(&c) {
                    options.push(c);
                }
            }
            Input { options, count }
        };
        for r in &data.recipes {
            let out = canon(data.item_name(r.out));
            let inputs: Vec<Input> = r.needs().iter().map(|(i, n)| input_of(i, *n)).collect();
            let src = Source::Craft {
                inputs,
                makes: r.count as u32,
                station: r.needs_table.then(|| CRAFTING_TABLE.to_string()),
            };
            let list = sources.entry(out).or_default();
            if !list.contains(&src) {
                list.push(src);
            }
        }
        for s in &data.smelting {
            let out = canon(data.item_name(s.out));
            let src = Source::Smelt {
                input: input_of(&s.input, 1),
                ticks: s.ticks,
            };
            let list = sources.entry(out).or_default();
            if !list.contains(&src) {
                list.push(src);
            }
        }
        let plank_fuel = groups["planks"]
            .first()
            .and_then(|p| data.item_id(p))
            .map(|i| data.item_def(i).fuel)
            .unwrap_or(300)
            .max(1);
        let mut g = KnowledgeGraph {
            nodes,
            sources,
            groups,
            cost: BTreeMap::new(),
            best: BTreeMap::new(),
            tools,
            plank_fuel,
        };
        g.settle_costs();
        g
    }

    /// The graph node an item name stands for: a wood species is its group;
    /// `log`/`plank` (singular) name the groups too. `None` = unknown.
    pub fn canonical(&self, name: &str) -> Option<String> {
        let name = name.trim().to_ascii_lowercase();
        let name = name.strip_prefix("minecraft:").unwrap_or(&name);
        let alias = match name {
            "log" | "wood" | "wood_log" => "logs",
            "plank" | "wooden_planks" => "planks",
            other => other,
        };
        for (g, members) in &self.groups {
            if members.iter().any(|m| m == alias) {
                return Some(g.clone());
            }
        }
        self.nodes
            .get(alias)
            .filter(|n| !matches!(n.kind, NodeKind::Block | NodeKind::Mob))
            .map(|n| n.id.clone())
    }

    /// How many of node `item` an inventory (item name → count) holds;
    /// a wood group counts all its species.
    pub fn held(&self, inventory: &BTreeMap<String, u32>, item: &str) -> u32 {
        let mut n = 0;
        for (name, c) in inventory {
            if self.canonical(name).as_deref() == Some(item) {
                n += c;
            }
        }
        n
    }

    /// Tools of `kind` reaching harvest `level`, cheapest first.
    pub fn tools_for(&self, need: &ToolNeed) -> Vec<String> {
        let mut v: Vec<(f64, &String)> = self
            .tools
            .iter()
            .filter(|(k, _, l)| *k == need.kind && *l >= need.level)
            .map(|(_, n, _)| (self.cost.get(n).copied().unwrap_or(f64::INFINITY), n))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
        v.into_iter().map(|(_, n)| n.clone()).collect()
    }

    /// Whether an inventory holds a tool meeting `need`.
    pub fn has_tool(&self, inventory: &BTreeMap<String, u32>, need: &ToolNeed) -> bool {
        self.tools.iter().any(|(k, n, l)| {
            *k == need.kind && *l >= need.level && inventory.get(n).is_some_and(|&c| c > 0)
        })
    }

    /// The source the planner follows for a node.
    pub fn best_source(&self, node: &str) -> Option<&Source> {
        let i = *self.best.get(node)?;
        self.sources.get(node).map(|v| &v[i])
    }

    fn tool_cost(&self, cost: &BTreeMap<String, f64>, need: &ToolNeed) -> f64 {
        self.tools
            .iter()
            .filter(|(k, _, l)| *k == need.kind && *l >= need.level)
            .map(|(_, n, _)| cost.get(n).copied().unwrap_or(f64::INFINITY))
            .fold(f64::INFINITY, f64::min)
    }

    fn input_cost(cost: &BTreeMap<String, f64>, input: &Input) -> f64 {
        input
            .options
            .iter()
            .map(|o| cost.get(o).copied().unwrap_or(f64::INFINITY))
            .fold(f64::INFINITY, f64::min)
    }

    /// Effort estimates by relaxation until nothing changes: one action per
    /// block, craft or smelt, mob kills dearer, a tool's effort added to
    /// what needs it; the first cheapest source wins.
    fn settle_costs(&mut self) {
        let mut cost: BTreeMap<String, f64> = BTreeMap::new();
        let mut best: BTreeMap<String, usize> = BTreeMap::new();
        for _ in 0..256 {
            let mut changed = false;
            for (node, list) in &self.sources {
                for (i, s) in list.iter().enumerate() {
                    let c = match s {
                        Source::Mine {
                            tool,
                            per_block,
                            chance,
                            ..
                        } => {
                            let t = tool.as_ref().map_or(0.0, |t| self.tool_cost(&cost, t));
                            1.0 / (*per_block as f64 * (*chance as f64).max(1e-3)) + t
                        }
                        Source::Collect { .. } => 8.0,
                        Source::Craft { inputs, makes, .. } => {
                            let sum: f64 = inputs
                                .iter()
                                .map(|i| i.count as f64 * Self::input_cost(&cost, i))
                                .sum();
                            (1.0 + sum) / *makes as f64
                        }
                        Source::Smelt { input, .. } => 2.0 + Self::input_cost(&cost, input),
                    };
                    let old = cost.get(node).copied().unwrap_or(f64::INFINITY);
                    if c.is_finite() && c < old - 1e-9 {
                        cost.insert(node.clone(), c);
                        best.insert(node.clone(), i);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.cost = cost;
        self.best = best;
    }

    /// All edges, in a stable order.
    pub fn edges(&self) -> Vec<Edge> {
        let mut out = Vec::new();
        for (g, members) in &self.groups {
            for m in members {
                out.push(Edge::new(m, g, EdgeKind::MemberOf));
            }
        }
        let mut mined_with: BTreeSet<(String, ToolNeed)> = BTreeSet::new();
        for (node, list) in &self.sources {
            for s in list {
                match s {
                    Source::Mine {
                        blocks,
                        tool,
                        per_block,
                        chance,
                    } => {
                        for bl in blocks {
                            let mut e =
                                Edge::new(node, &format!("block:{bl}"), EdgeKind::MinedFrom);
                            e.count = Some(*per_block);
                            e.chance = (*chance < 1.0).then_some(*chance);
                            out.push(e);
                            if let Some(t) = tool {
                                mined_with.insert((bl.clone(), t.clone()));
                            }
                        }
                    }
                    Source::Collect { mobs } => {
                        for m in mobs {
                            out.push(Edge::new(node, &format!("mob:{m}"), EdgeKind::DroppedBy));
                        }
                    }
                    Source::Craft {
                        inputs,
                        makes,
                        station,
                    } => {
                        for i in inputs {
                            for o in &i.options {
                                let mut e = Edge::new(node, o, EdgeKind::CraftedFrom);
                                e.count = Some(i.count);
                                e.makes = Some(*makes);
                                out.push(e);
                            }
                        }
                        if let Some(st) = station {
                            out.push(Edge::new(node, st, EdgeKind::NeedsStation));
                        }
                    }
                    Source::Smelt { input, ticks } => {
                        for o in &input.options {
                            let mut e = Edge::new(node, o, EdgeKind::SmeltedFrom);
                            e.ticks = Some(*ticks);
                            out.push(e);
                        }
                        out.push(Edge::new(node, FURNACE, EdgeKind::NeedsStation));
                    }
                }
            }
        }
        for (bl, need) in mined_with {
            let tool = self.tools_for(&need).into_iter().next();
            let mut e = Edge::new(
                &format!("block:{bl}"),
                tool.as_deref().unwrap_or(&need.kind),
                EdgeKind::MinedWith,
            );
            e.tool = Some(need.kind.clone());
            e.level = Some(need.level);
            out.push(e);
        }
        // Drop duplicate station edges (several recipes for one item).
        let mut seen = Vec::new();
        out.retain(|e| {
            if seen.contains(e) {
                false
            } else {
                seen.push(e.clone());
                true
            }
        });
        out
    }

    /// Nodes and edges as JSON: `{"nodes": [{id, kind}], "edges": [{from,
    /// to, kind, count?, makes?, ticks?, tool?, level?, chance?}]}`. Species
    /// items appear as `item` nodes linked to their group.
    pub fn to_json(&self) -> serde_json::Value {
        let mut nodes: Vec<&Node> = self.nodes.values().collect();
        let species: Vec<Node> = self
            .groups
            .values()
            .flatten()
            .map(|m| Node {
                id: m.clone(),
                kind: NodeKind::Item,
            })
            .collect();
        nodes.extend(species.iter());
        nodes.sort_by(|a, b| a.id.cmp(&b.id));
        serde_json::json!({"nodes": nodes, "edges": self.edges()})
    }

    /// Graphviz DOT: one statement per node (shaped by kind) and edge.
    pub fn to_dot(&self) -> String {
        let mut s = String::from("digraph crafting {\n  rankdir=LR;\n");
        let json = self.to_json();
        for n in json["nodes"].as_array().into_iter().flatten() {
            let shape = match n["kind"].as_str().unwrap_or("") {
                "tool" => "hexagon",
                "station" => "box3d",
                "group" => "doubleoctagon",
                "block" => "box",
                "mob" => "diamond",
                _ => "ellipse",
            };
            s.push_str(&format!(
                "  \"{}\" [shape={shape}];\n",
                n["id"].as_str().unwrap_or("")
            ));
        }
        for e in self.edges() {
            let kind = serde_json::to_value(e.kind).unwrap_or_default();
            let mut label = kind.as_str().unwrap_or("").to_string();
            if let Some(c) = e.count {
                label.push_str(&format!(" ×{c}"));
            }
            if let Some(m) = e.makes.filter(|&m| m > 1) {
                label.push_str(&format!(" → {m}"));
            }
            if let (Some(t), Some(l)) = (&e.tool, e.level) {
                label.push_str(&format!(" {t}≥{l}"));
            }
            s.push_str(&format!(
                "  \"{}\" -> \"{}\" [label=\"{label}\"];\n",
                e.from, e.to
            ));
        }
        s.push_str("}\n");
        s
    }
}

/// The graph of `gw_world::data()`, built once.
pub fn world_graph() -> &'static KnowledgeGraph {
    static G: std::sync::OnceLock<KnowledgeGraph> = std::sync::OnceLock::new();
    G.get_or_init(|| KnowledgeGraph::build(gw_world::data()))
}
