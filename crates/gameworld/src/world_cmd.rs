//! `gameworld world graph|plan|dataset|train|dagger`: the open world's crafting knowledge graph
//! and planner (SPEC "Open world"). Bad input (unknown item, malformed
//! inventory JSON, count 0) is a configuration error: exit 2.

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[derive(Subcommand)]
pub enum WorldCommand {
    /// Export the crafting knowledge graph (items, blocks, tools, stations and
    /// their crafted-from / smelted-from / mined-with / needs-station edges).
    Graph(GraphArgs),
    /// Ordered sub-goals that obtain ITEM from an inventory.
    Plan(PlanArgs),
    /// Goal-observation-action Parquet data from expert runs (Optimus-2 MGOA).
    Dataset(crate::world_dataset::DatasetArgs),
    /// Train the GOAP policy (behaviour cloning) on a `world dataset` folder.
    Train(crate::world_train::TrainArgs),
    /// DAgger data: a GOAP policy plays, the fair expert labels every step.
    Dagger(crate::world_dagger::DaggerArgs),
    #[command(flatten)]
    Evals(crate::world_evals::EvalCommand),
}

#[derive(Clone, Copy, ValueEnum, Default)]
pub enum GraphFormat {
    #[default]
    Json,
    Dot,
}

#[derive(Args)]
pub struct GraphArgs {
    #[arg(long, value_enum, default_value = "json")]
    format: GraphFormat,
}

#[derive(Args)]
pub struct PlanArgs {
    /// Target item id (e.g. iron_pickaxe; logs/planks for any wood species).
    item: String,
    /// How many of the item to hold at the end.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// Starting inventory as a JSON object of item id → count, e.g. '{"oak_log": 3}'.
    #[arg(long)]
    inventory: Option<String>,
    /// Print `{"target", "count", "steps": [{"kind", "item", "count"}…]}`.
    #[arg(long)]
    json: bool,
}

/// Parse `--inventory`: a JSON object of known items with whole counts.
pub fn parse_inventory(text: &str) -> Result<BTreeMap<String, u32>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        format!("--inventory is not valid JSON ({e}); write an object such as '{{\"oak_log\": 3}}'")
    })?;
    let obj = v
        .as_object()
        .ok_or_else(|| format!("--inventory must be a JSON object of item id → count, got {v}"))?;
    let g = gw_openworld::graph::world_graph();
    let mut inv = BTreeMap::new();
    for (k, n) in obj {
        let count = n
            .as_u64()
            .filter(|c| *c <= u32::MAX as u64)
            .ok_or_else(|| {
                format!("--inventory: the count of \"{k}\" must be a whole number ≥ 0, got {n}")
            })?;
        if g.canonical(k).is_none() {
            return Err(format!(
                "--inventory: unknown item \"{k}\"; use item ids from registry/world/items.yaml (e.g. oak_log, stick)"
            ));
        }
        inv.insert(k.clone(), count as u32);
    }
    Ok(inv)
}

pub fn run(cmd: WorldCommand, registry: &[std::path::PathBuf]) -> Result<(), (u8, String)> {
    match cmd {
        WorldCommand::Evals(c) => crate::world_evals::run(c, registry),
        WorldCommand::Graph(a) => {
            let g = gw_openworld::graph::world_graph();
            match a.format {
                GraphFormat::Json => println!(
                    "{}",
                    serde_json::to_string_pretty(&g.to_json()).expect("graph serializes")
                ),
                GraphFormat::Dot => print!("{}", g.to_dot()),
            }
            Ok(())
        }
        WorldCommand::Plan(a) => {
            if a.count == 0 {
                return Err((2, "--count must be at least 1".into()));
            }
            let inv = match &a.inventory {
                Some(t) => parse_inventory(t).map_err(|e| (2, e))?,
                None => BTreeMap::new(),
            };
            let steps =
                gw_openworld::plan::plan(&a.item, a.count, &inv).map_err(|e| (2, e.to_string()))?;
            if a.json {
                let out = json!({"target": a.item, "count": a.count, "steps": steps});
                println!(
                    "{}",
                    serde_json::to_string_pretty(&out).expect("plan serializes")
                );
            } else if steps.is_empty() {
                println!(
                    "nothing to do: the inventory already holds {} {}",
                    a.count, a.item
                );
            } else {
                for (i, s) in steps.iter().enumerate() {
                    println!("{:>2}. {s}", i + 1);
                }
            }
            Ok(())
        }
        WorldCommand::Dataset(a) => crate::world_dataset::run(a, registry),
        WorldCommand::Train(a) => crate::world_train::run(a),
        WorldCommand::Dagger(a) => crate::world_dagger::run(a, registry),
    }
}
