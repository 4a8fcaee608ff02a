//! The privileged state as JSON: what planners, task checks and dataset
//! pipelines read (never the agent's pixels).

use crate::data::data;
use crate::world::World;
use serde_json::{Map, Value, json};

/// Entities within this many blocks are listed.
pub const NEARBY: f64 = 16.0;

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Inventory totals by item name (ordered by name).
pub fn inventory_counts(world: &World) -> Map<String, Value> {
    let d = data();
    let mut m: std::collections::BTreeMap<String, u32> = Default::default();
    for (id, n) in world.player.inventory.totals() {
        *m.entry(d.item_name(id).to_string()).or_insert(0) += n;
    }
    m.into_iter().map(|(k, v)| (k, json!(v))).collect()
}

/// The full privileged state.
pub fn privileged(world: &World) -> Value {
    let d = data();
    let pl = &world.player;
    let p = pl.body.pos;
    let slots: Vec<Value> = pl
        .inventory
        .slots
        .iter()
        .map(|s| match s {
            Some(s) => json!({"item": d.item_name(s.item), "count": s.count, "wear": s.wear}),
            None => Value::Null,
        })
        .collect();
    let target = world.target().map(|t| {
        json!({
            "block": d.block_name(t.block),
            "pos": t.pos,
            "face": t.normal,
            "distance": round2(t.distance),
        })
    });
    let progress = pl
        .breaking
        .map(|s| round2(s.ticks as f64 / s.needed.max(1) as f64))
        .unwrap_or(0.0);
    let mut entities: Vec<(f64, Value)> = Vec::new();
    for m in &world.mobs {
        let dist = libm::sqrt(
            (m.body.pos[0] - p[0]).powi(2)
                + (m.body.pos[1] - p[1]).powi(2)
                + (m.body.pos[2] - p[2]).powi(2),
        );
        if dist <= NEARBY {
            entities.push((
                dist,
                json!({"id": m.id, "kind": m.kind.name(), "hostile": m.kind.hostile(),
                    "pos": [round2(m.body.pos[0]), round2(m.body.pos[1]), round2(m.body.pos[2])],
                    "health": m.health, "distance": round2(dist)}),
            ));
        }
    }
    entities.sort_by(|a, b| a.0.total_cmp(&b.0));
    let obtained: Map<String, Value> = world
        .obtained
        .iter()
        .map(|(id, n)| (d.item_name(*id).to_string(), json!(n)))
        .collect();
    json!({
        "position": [round2(p[0]), round2(p[1]), round2(p[2])],
        "yaw": round2(pl.yaw),
        "pitch": round2(pl.pitch),
        "on_ground": pl.body.on_ground,
        "in_water": pl.body.in_water,
        "health": pl.health,
        "food": pl.food,
        "saturation": pl.saturation,
        "dead": pl.dead,
        "selected_slot": pl.selected + 1,
        "inventory_open": pl.inventory_open,
        "inventory": inventory_counts(world),
        "slots": slots,
        "obtained": obtained,
        "target": target,
        "break_progress": progress,
        "entities": entities.into_iter().map(|e| e.1).collect::<Vec<_>>(),
        "time_of_day": world.time_of_day(),
        "is_night": world.is_night(),
        "biome": world.biome_here().name(),
        "tick": world.tick,
    })
}
