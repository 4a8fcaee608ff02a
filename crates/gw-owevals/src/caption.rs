//! Captioning / perception: a frame and the facts a caption of it must
//! state — biome, time of day, the mobs in view, the held item, the block
//! under the crosshair — read from the world (mobs from the pick buffer, so
//! a mob hidden behind a hill is no fact). Scored by fact recall.

use crate::Built;
use crate::scene::{self, Seen, View};
use crate::text::{as_text, mentions};
use gw_core::Rng;
use gw_world::data;
use gw_world::world::{MobKind, raycast_blocks};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// How far the crosshair's block may be and still be "the block in view".
pub const BLOCK_RANGE: f64 = 24.0;

pub fn generate(rng: &mut Rng, view: View) -> Option<Built> {
    let w = scene(rng)?;
    let seen = Seen::of(&w, view);
    let facts = facts_of(&w, &seen);
    let caption = caption_of(&facts);
    Some(Built {
        query: "Describe this first-person frame of the voxel world in a few sentences: the biome, \
                whether it is day or night, the mobs in view, the item in the player's hand, and the \
                block under the crosshair."
            .into(),
        format: "Answer with plain text.".into(),
        context: Map::new(),
        answer: json!({"caption": caption, "facts": facts}),
        answer_extra: Map::new(),
        png: scene::frame_png(&w, view),
    })
}

/// A world to caption: day or night, a few hotbar items, often facing a mob.
pub fn scene(rng: &mut Rng) -> Option<gw_world::World> {
    let night = rng.chance(0.35);
    let n_kit = rng.below(4) as usize;
    let kit = scene::random_kit(rng, n_kit);
    let start = scene::time_of_day(rng, night);
    let mut w = scene::world(rng.next_u64(), start, &kit);
    w.player.selected = rng.index(kit.len() + 1).min(8);
    if night && rng.chance(0.5) {
        scene::spawn_around(&mut w, rng, MobKind::Zombie, 5.0, 14.0);
    }
    let p = w.player.body.pos;
    let near: Vec<u32> = w
        .mobs
        .iter()
        .filter(|m| {
            let d = [m.body.pos[0] - p[0], m.body.pos[2] - p[2]];
            (d[0] * d[0] + d[1] * d[1]).sqrt() < 20.0
        })
        .map(|m| m.id)
        .collect();
    if !near.is_empty() && rng.chance(0.7) {
        let id = near[rng.index(near.len())];
        let c = scene::mob_centre(&w, id)?;
        let (dy, dp) = (rng.range_f64(-25.0, 25.0), rng.range_f64(-8.0, 8.0));
        scene::aim(&mut w, c, dy, dp);
    } else {
        w.player.yaw = rng.range_f64(0.0, 360.0);
        w.player.pitch = rng.range_f64(-5.0, 35.0);
    }
    Some(w)
}

/// The facts of a frame: `biome`, `time` (`day`|`night`), `mobs` (kinds
/// showing at least [`View::min_visible`] pixels, sorted), `held` (item or
/// `nothing`) and `block` (under the crosshair within [`BLOCK_RANGE`], or
/// null).
pub fn facts_of(w: &gw_world::World, seen: &Seen) -> Value {
    let d = data();
    let mobs: BTreeSet<&str> = seen
        .visible_mobs(w)
        .into_iter()
        .map(|(_, k, _)| k.name())
        .collect();
    let held = w
        .held()
        .map(|i| d.item_name(i).to_string())
        .unwrap_or_else(|| "nothing".into());
    let block = raycast_blocks(&w.terrain, w.eye(), w.look_dir(), BLOCK_RANGE)
        .map(|t| d.block_name(t.block).to_string());
    json!({
        "biome": w.biome_here().name(),
        "time": if w.is_night() { "night" } else { "day" },
        "mobs": mobs,
        "held": held,
        "block": block,
    })
}

fn words(s: &str) -> String {
    s.replace('_', " ")
}

/// A reference caption stating every fact.
pub fn caption_of(f: &Value) -> String {
    let mobs: Vec<String> = f["mobs"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(words).collect())
        .unwrap_or_default();
    let mobs = if mobs.is_empty() {
        "No mobs are in view.".to_string()
    } else {
        format!("In view: {}.", mobs.join(" and "))
    };
    let held = match f["held"].as_str() {
        Some("nothing") | None => "The player's hand is empty.".to_string(),
        Some(h) => format!("The player holds {}.", words(h)),
    };
    let block = match f["block"].as_str() {
        Some(b) => format!(" The crosshair is on {}.", words(b)),
        None => String::new(),
    };
    format!(
        "A {} biome by {}. {mobs} {held}{block}",
        words(f["biome"].as_str().unwrap_or("")),
        f["time"].as_str().unwrap_or("day")
    )
}

/// Each fact with the phrases that state it.
fn required(f: &Value) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    if let Some(b) = f["biome"].as_str() {
        out.push((
            "biome".into(),
            vec![b.to_string(), b.trim_end_matches('s').to_string()],
        ));
    }
    if let Some(t) = f["time"].as_str() {
        let alts = if t == "night" {
            vec!["night", "nighttime", "dark"]
        } else {
            vec![
                "day",
                "daytime",
                "daylight",
                "morning",
                "noon",
                "afternoon",
                "sunny",
            ]
        };
        out.push(("time".into(), alts.into_iter().map(String::from).collect()));
    }
    match f["mobs"].as_array() {
        Some(a) if !a.is_empty() => {
            for m in a.iter().filter_map(Value::as_str) {
                out.push((format!("mob:{m}"), vec![m.to_string()]));
            }
        }
        _ => out.push((
            "mobs".into(),
            [
                "no mobs",
                "no mob",
                "no animals",
                "no creatures",
                "no entities",
            ]
            .map(String::from)
            .to_vec(),
        )),
    }
    if let Some(h) = f["held"].as_str() {
        let alts = if h == "nothing" {
            vec!["nothing", "empty", "bare hand", "no item"]
                .into_iter()
                .map(String::from)
                .collect()
        } else {
            vec![h.to_string()]
        };
        out.push(("held".into(), alts));
    }
    if let Some(b) = f["block"].as_str() {
        let mut alts = vec![b.to_string()];
        if let Some(short) = b.strip_suffix("_block") {
            alts.push(short.to_string());
        }
        out.push(("block".into(), alts));
    }
    out
}

/// The caption text of an answer value: a string, or an object's `caption`.
pub fn caption_text(v: &Value) -> String {
    match v {
        Value::Object(o) => o.get("caption").map(as_text).unwrap_or_default(),
        other => as_text(other),
    }
}

/// A reply as an answer: the caption text.
pub fn parse(reply: &str) -> Value {
    Value::String(crate::text::answer_part(reply).to_string())
}

/// Fact recall: the share of the truth's facts the caption states; a day
/// caption that also says "night" misses the time fact. With the names of
/// the facts it missed.
pub fn score_item(truth: &Value, pred: &Value) -> (f64, Vec<String>) {
    let facts = &truth["facts"];
    let text = caption_text(pred);
    let req = required(facts);
    let says_night = mentions(&text, "night");
    let mut missed = Vec::new();
    for (name, alts) in &req {
        let mut ok = alts.iter().any(|a| mentions(&text, a));
        if name == "time" && facts["time"] == "day" && says_night {
            ok = false;
        }
        if !ok {
            missed.push(name.clone());
        }
    }
    let recall = if req.is_empty() {
        1.0
    } else {
        (req.len() - missed.len()) as f64 / req.len() as f64
    };
    (recall, missed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_counts_each_fact() {
        let facts = json!({"biome": "plains", "time": "day", "mobs": ["cow", "pig"],
            "held": "stone_pickaxe", "block": "grass_block"});
        let truth = json!({"caption": caption_of(&facts), "facts": facts});
        assert_eq!(score_item(&truth, &truth).0, 1.0);
        let (r, missed) = score_item(
            &truth,
            &json!("Plains at day, two cows, a stone pickaxe, grass."),
        );
        assert_eq!(missed, vec!["mob:pig".to_string()]);
        assert!((r - 5.0 / 6.0).abs() < 1e-9);
        // Saying night on a day frame loses the time fact.
        let (r, missed) = score_item(
            &truth,
            &json!("plains day or night, cow pig stone pickaxe grass"),
        );
        assert_eq!(missed, vec!["time".to_string()]);
        assert!(r < 1.0);
        assert_eq!(score_item(&truth, &json!("")).0, 0.0);
    }
}
