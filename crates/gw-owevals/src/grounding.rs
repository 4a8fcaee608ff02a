//! Grounding: "where is the cow / the iron ore?" The truth box is the
//! bounds of the pixels where the thing is visible in the frame, from the
//! renderer's pick buffer: its 3D box projected by the same rays that drew
//! the frame, clipped by whatever stands in front (terrain, other mobs, the
//! HUD). Scored by IoU ≥ 0.5 (Optimus-3's IoU@0.5; the released scorer
//! counts equality), with the IoU-density reward reported alongside.

use crate::Built;
use crate::reward::{BBox, IouDensity, iou};
use crate::scene::{self, Seen, View};
use crate::text::{answer_part, json_in, numbers};
use gw_core::Rng;
use gw_world::render::Pick;
use gw_world::world::MobKind;
use gw_world::{World, data};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Correct when IoU reaches this.
pub const IOU_THRESHOLD: f64 = 0.5;

/// Ores a block item asks about; the item lays a small exposed patch of it
/// into the ground in view.
const ORES: [&str; 5] = [
    "coal_ore",
    "iron_ore",
    "gold_ore",
    "diamond_ore",
    "redstone_ore",
];

/// Horizontal and vertical offsets (degrees) from looking straight at the
/// thing, so it lands anywhere in the frame.
fn offsets(rng: &mut Rng) -> (f64, f64) {
    (rng.range_f64(-32.0, 32.0), rng.range_f64(-16.0, 16.0))
}

/// What a grounding item points at.
#[derive(Clone, Debug, PartialEq)]
pub enum Thing {
    Mob(u32),
    /// Blocks of one kind at these cells (the exposed ore patch).
    Blocks(gw_world::BlockId, BTreeSet<[i32; 3]>),
}

/// A grounding scene: the world as framed, the thing's label and where it
/// shows.
pub struct Grounded {
    pub world: World,
    pub label: String,
    pub thing: Thing,
    pub region: scene::Region,
}

/// Frame a mob (70 %) or an ore patch (30 %) somewhere in view.
pub fn scene(rng: &mut Rng, view: View) -> Option<Grounded> {
    let night = rng.chance(0.25);
    let start = scene::time_of_day(rng, night);
    let mut w = scene::world(rng.next_u64(), start, &[]);
    let (label, thing, region) = if rng.chance(0.7) {
        mob_item(rng, &mut w, view, night)?
    } else {
        ore_item(rng, &mut w, view)?
    };
    Some(Grounded {
        world: w,
        label,
        thing,
        region,
    })
}

pub fn generate(rng: &mut Rng, view: View) -> Option<Built> {
    let g = scene(rng, view)?;
    let (label, region) = (g.label, g.region);
    let b = region.bbox;
    let mut extra = Map::new();
    extra.insert("pixels".into(), json!(region.pixels));
    let mut context = Map::new();
    context.insert("label".into(), json!(label));
    Some(Built {
        query: format!(
            "Where is the {} in this image? Give its bounding box in pixels of this {}x{} image.",
            label.replace('_', " "),
            view.w,
            view.h
        ),
        format: "Answer with JSON: {\"bbox_2d\": [x1, y1, x2, y2], \"label\": \"...\"}.".into(),
        context,
        answer: json!({"bbox_2d": [b[0], b[1], b[2], b[3]], "label": label}),
        answer_extra: extra,
        png: scene::frame_png(&g.world, view),
    })
}

fn mob_item(
    rng: &mut Rng,
    w: &mut World,
    view: View,
    night: bool,
) -> Option<(String, Thing, scene::Region)> {
    // Every kind: the passive ones (Optimus-3's grounding targets) by
    // day, hostile ones half the time at night.
    let kind = if night && rng.chance(0.5) {
        MobKind::HOSTILE[rng.index(MobKind::HOSTILE.len())]
    } else {
        MobKind::PASSIVE[rng.index(MobKind::PASSIVE.len())]
    };
    let id = scene::spawn_around(w, rng, kind, 4.0, 14.0)?;
    let c = scene::mob_centre(w, id)?;
    let (dy, dp) = offsets(rng);
    scene::aim(w, c, dy, dp);
    let seen = Seen::of(w, view);
    let region = seen.region(|p| *p == Pick::Mob(id))?;
    if region.pixels < view.min_visible() {
        return None;
    }
    // "Where is the cow" must name one cow: no other of its kind may show.
    let others = seen
        .mob_pixels()
        .keys()
        .filter(|m| **m != id)
        .filter_map(|m| w.mobs.iter().find(|x| x.id == *m))
        .any(|m| m.kind == kind);
    if others {
        return None;
    }
    Some((kind.name().to_string(), Thing::Mob(id), region))
}

fn ore_item(rng: &mut Rng, w: &mut World, view: View) -> Option<(String, Thing, scene::Region)> {
    let d = data();
    let ore = ORES[rng.index(ORES.len())];
    let id = d.block_id(ore)?;
    let s = scene::spot_around(w, rng, 3.0, 9.0)?;
    let (x, y, z) = (s[0].floor() as i32, s[1] as i32 - 1, s[2].floor() as i32);
    let mut patch = BTreeSet::new();
    let n = 1 + rng.below(4) as i32;
    for k in 0..n {
        let (dx, dz) = [(0, 0), (1, 0), (0, 1), (1, 1)][k as usize];
        if w.terrain.surface_y(x + dx, z + dz) == Some(y) {
            w.terrain.set(x + dx, y, z + dz, id);
            patch.insert([x + dx, y, z + dz]);
        }
    }
    let (dy, dp) = offsets(rng);
    scene::aim(w, [x as f64 + 1.0, y as f64 + 1.0, z as f64 + 1.0], dy, dp);
    let seen = Seen::of(w, view);
    let region = seen
        .region(|p| matches!(p, Pick::Block { id: b, pos } if *b == id && patch.contains(pos)))?;
    if region.pixels < view.min_visible() {
        return None;
    }
    // No other block of that ore may show.
    let stray = seen
        .picks
        .iter()
        .any(|p| matches!(p, Pick::Block { id: b, pos } if *b == id && !patch.contains(pos)));
    if stray {
        return None;
    }
    Some((ore.to_string(), Thing::Blocks(id, patch), region))
}

/// The box of an answer value: `{"bbox_2d": [...]}`, a list whose first
/// element is such an object, a bare `[x1, y1, x2, y2]`, or text holding
/// four numbers.
pub fn bbox_of(v: &Value) -> Option<BBox> {
    let four = |a: &Vec<Value>| -> Option<BBox> {
        let n: Vec<f64> = a.iter().filter_map(Value::as_f64).collect();
        (n.len() == 4 && a.len() == 4).then(|| [n[0], n[1], n[2], n[3]])
    };
    match v {
        Value::Object(o) => o.get("bbox_2d").or_else(|| o.get("bbox")).and_then(bbox_of),
        Value::Array(a) => four(a).or_else(|| a.first().and_then(bbox_of)),
        Value::String(s) => {
            if let Some(j) = json_in(s)
                && let Some(b) = bbox_of(&j)
            {
                return Some(b);
            }
            let n = numbers(s);
            (n.len() >= 4).then(|| [n[0], n[1], n[2], n[3]])
        }
        _ => None,
    }
}

/// A reply as an answer: the JSON it holds, else its text.
pub fn parse(reply: &str) -> Value {
    let a = answer_part(reply);
    json_in(a).unwrap_or_else(|| Value::String(a.to_string()))
}

/// (correct, IoU, IoU-density reward) of a prediction. A box given with
/// x2 < x1 or y2 < y1 is read with its corners swapped.
pub fn score_item(truth: &Value, pred: &Value, density: &IouDensity) -> (f64, f64, f64) {
    let (Some(t), Some(p)) = (bbox_of(truth), bbox_of(pred)) else {
        return (0.0, 0.0, 0.0);
    };
    let p = [
        p[0].min(p[2]),
        p[1].min(p[3]),
        p[0].max(p[2]),
        p[1].max(p[3]),
    ];
    let u = iou(p, t);
    (
        if u >= IOU_THRESHOLD { 1.0 } else { 0.0 },
        u,
        density.reward(u),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_are_read_from_many_shapes() {
        let want = Some([1.0, 2.0, 3.0, 4.0]);
        assert_eq!(
            bbox_of(&json!({"bbox_2d": [1, 2, 3, 4], "label": "cow"})),
            want
        );
        assert_eq!(bbox_of(&json!([{"bbox_2d": [1, 2, 3, 4]}])), want);
        assert_eq!(bbox_of(&json!([1, 2, 3, 4])), want);
        assert_eq!(bbox_of(&json!("The cow is at (1, 2) to (3, 4).")), want);
        assert_eq!(bbox_of(&json!("nowhere")), None);
        let t = json!({"bbox_2d": [10, 10, 20, 20]});
        let f = IouDensity::default();
        assert_eq!(score_item(&t, &t, &f), (1.0, 1.0, 1.0));
        assert_eq!(score_item(&t, &json!([20, 20, 10, 10]), &f).0, 1.0);
        let (ok, u, r) = score_item(&t, &json!([15, 10, 25, 20]), &f);
        assert_eq!(ok, 0.0);
        assert!((u - 1.0 / 3.0).abs() < 1e-9 && (r - u).abs() < 1e-12);
    }
}
