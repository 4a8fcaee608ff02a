//! Grounding: "where is the cow / the iron ore?" The truth box is the
//! bounds of the pixels where the thing is visible in the frame, from the
//! renderer's pick buffer: its 3D box projected by the same rays that drew
//! the frame, clipped by whatever stands in front (terrain, other mobs, the
//! HUD). Scored by IoU ≥ 0.5 (Optimus-3's IoU@0.5; the released scorer
//! counts equality) of the box given under the true label, with the
//! IoU-density reward reported alongside. Boxes are pixels of the frame,
//! or 0–1000 per side when the prediction says `"coords": "norm1000"`.

use crate::Built;
use crate::reward::{BBox, IouDensity, iou};
use crate::scene::{self, Seen, View};
use crate::text::{answer_part, json_in, mentions, norm, numbers};
use gw_core::Rng;
use gw_world::render::Pick;
use gw_world::world::MobKind;
use gw_world::{World, data};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Correct when IoU reaches this.
pub const IOU_THRESHOLD: f64 = 0.5;

/// Ores a block item asks about, each with the highest y world generation
/// places it at (coal anywhere, iron to 63, gold to 31, redstone and
/// diamond to 15). The item stands the player in a cave and lays a small
/// vein of the ore into the cave wall in view, at a depth the ore occurs.
pub const ORES: [(&str, i32); 5] = [
    ("coal_ore", 127),
    ("iron_ore", 63),
    ("gold_ore", 31),
    ("diamond_ore", 15),
    ("redstone_ore", 15),
];

/// How far (blocks, each axis) from the spawn a cave is looked for.
const CAVE_RADIUS: i32 = 24;
/// Caves at or below this y are flooded with lava; the player stands above.
const LAVA_TOP: i32 = 10;

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

/// Frame a mob on the surface (70 %) or an ore vein in a cave wall (30 %)
/// somewhere in view.
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
        format: "Answer with JSON: {\"bbox_2d\": [x1, y1, x2, y2], \"label\": \"...\"} in pixels \
                 of this image, or add \"coords\": \"norm1000\" when the numbers run 0-1000 across \
                 each side."
            .into(),
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

/// Whether a cell is open air a player can see through.
fn air(w: &World, c: [i32; 3]) -> bool {
    w.terrain.get(c[0], c[1], c[2]) == gw_world::data::b::AIR
}

const FACES: [[i32; 3]; 6] = [
    [1, 0, 0],
    [-1, 0, 0],
    [0, 1, 0],
    [0, -1, 0],
    [0, 0, 1],
    [0, 0, -1],
];

fn add(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Whether a cell is underground: the sky cannot be seen from it and its
/// column's surface is at least four blocks above.
pub fn underground(w: &World, c: [i32; 3]) -> bool {
    !w.sky_visible(c[0], c[1], c[2])
        && w.terrain
            .surface_y(c[0], c[2])
            .is_some_and(|s| s >= c[1] + 4)
}

/// Cave floor spots around the spawn: two cells of air (feet, head) over a
/// solid floor that is no liquid, underground, above the lava.
pub fn cave_spots(w: &World) -> Vec<[i32; 3]> {
    let d = data();
    let p = w.player.body.pos;
    let (px, pz) = (p[0].floor() as i32, p[2].floor() as i32);
    let mut out = Vec::new();
    for x in px - CAVE_RADIUS..=px + CAVE_RADIUS {
        for z in pz - CAVE_RADIUS..=pz + CAVE_RADIUS {
            let Some(top) = w.terrain.surface_y(x, z) else {
                continue;
            };
            for y in LAVA_TOP + 1..top - 5 {
                let floor = w.terrain.get(x, y - 1, z);
                let fd = d.block(floor);
                if fd.solid
                    && floor != gw_world::data::b::LAVA
                    && floor != gw_world::data::b::WATER
                    && air(w, [x, y, z])
                    && air(w, [x, y + 1, z])
                    && underground(w, [x, y + 1, z])
                {
                    out.push([x, y, z]);
                }
            }
        }
    }
    out
}

/// Move the player onto a random cave floor spot ([`cave_spots`]); the
/// spot, or `None` when there is no cave near the spawn.
pub fn stand_in_cave(rng: &mut Rng, w: &mut World) -> Option<[i32; 3]> {
    let spots = cave_spots(w);
    if spots.is_empty() {
        return None;
    }
    let stand = spots[rng.index(spots.len())];
    w.player.body.pos = [
        stand[0] as f64 + 0.5,
        stand[1] as f64,
        stand[2] as f64 + 0.5,
    ];
    w.player.body.vel = [0.0; 3];
    Some(stand)
}

/// Put a torch on the cave floor in an air cell beside `cells` (not where
/// the player standing at `stand` is), as a player mining there would, and
/// what lights the cells under a renderer with block light.
pub fn place_torch(rng: &mut Rng, w: &mut World, cells: &BTreeSet<[i32; 3]>, stand: [i32; 3]) {
    let d = data();
    let spots: BTreeSet<[i32; 3]> = cells
        .iter()
        .flat_map(|c| FACES.iter().map(move |f| add(*c, *f)))
        .filter(|c| air(w, *c) && d.block(w.terrain.get(c[0], c[1] - 1, c[2])).solid)
        .filter(|c| *c != stand && *c != add(stand, [0, 1, 0]))
        .collect();
    let spots: Vec<[i32; 3]> = spots.into_iter().collect();
    if !spots.is_empty() {
        let t = spots[rng.index(spots.len())];
        w.terrain.set(t[0], t[1], t[2], gw_world::data::b::TORCH);
    }
}

/// Stone cells of a cave wall seen from `eye`: bare stone (no ore of any
/// kind) at or below `max_y`, with a face on air, their centres `near` to
/// `far` blocks away.
pub fn wall_cells(w: &World, eye: [f64; 3], max_y: i32, near: f64, far: f64) -> Vec<[i32; 3]> {
    let (ex, ey, ez) = (
        eye[0].floor() as i32,
        eye[1].floor() as i32,
        eye[2].floor() as i32,
    );
    let r = far.ceil() as i32;
    let mut out = Vec::new();
    for x in ex - r..=ex + r {
        for y in (ey - r).max(1)..=(ey + r).min(max_y) {
            for z in ez - r..=ez + r {
                let c = [x, y, z];
                if w.terrain.get(x, y, z) != gw_world::data::b::STONE {
                    continue;
                }
                let centre = [x as f64 + 0.5, y as f64 + 0.5, z as f64 + 0.5];
                let dist = ((centre[0] - eye[0]).powi(2)
                    + (centre[1] - eye[1]).powi(2)
                    + (centre[2] - eye[2]).powi(2))
                .sqrt();
                if (near..=far).contains(&dist) && FACES.iter().any(|f| air(w, add(c, *f))) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// An ore vein in a cave wall: stand the player on a cave floor, turn 1–4
/// exposed wall cells at a depth the ore occurs into the ore, light them
/// with a torch on the floor nearby, and frame them.
fn ore_item(rng: &mut Rng, w: &mut World, view: View) -> Option<(String, Thing, scene::Region)> {
    let d = data();
    let (ore, max_y) = ORES[rng.index(ORES.len())];
    let id = d.block_id(ore)?;
    let stand = stand_in_cave(rng, w)?;
    let walls = wall_cells(w, w.eye(), max_y, 2.0, 7.0);
    if walls.is_empty() {
        return None;
    }
    let first = walls[rng.index(walls.len())];
    let mut patch = BTreeSet::from([first]);
    let n = 1 + rng.below(4) as usize;
    while patch.len() < n {
        let grow: Vec<[i32; 3]> = walls
            .iter()
            .copied()
            .filter(|c| !patch.contains(c))
            .filter(|c| FACES.iter().any(|f| patch.contains(&add(*c, *f))))
            .collect();
        if grow.is_empty() {
            break;
        }
        patch.insert(grow[rng.index(grow.len())]);
    }
    for c in &patch {
        w.terrain.set(c[0], c[1], c[2], id);
    }
    place_torch(rng, w, &patch, stand);
    let lo = patch.iter().fold([i32::MAX; 3], |a, c| {
        [a[0].min(c[0]), a[1].min(c[1]), a[2].min(c[2])]
    });
    let hi = patch.iter().fold([i32::MIN; 3], |a, c| {
        [a[0].max(c[0]), a[1].max(c[1]), a[2].max(c[2])]
    });
    let centre = [
        (lo[0] + hi[0] + 1) as f64 / 2.0,
        (lo[1] + hi[1] + 1) as f64 / 2.0,
        (lo[2] + hi[2] + 1) as f64 / 2.0,
    ];
    let (dy, dp) = offsets(rng);
    scene::aim(w, centre, dy, dp);
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
/// four numbers. Coordinates as written (see [`answer_of`] for units).
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

/// The units a prediction's box is written in: `"coords": "pixels"` (the
/// default: pixels of the item's frame) or `"coords": "norm1000"` (0–1000
/// across each side of the frame, as Qwen-VL models write boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coords {
    Pixels,
    Norm1000,
}

impl Coords {
    /// The units an answer object declares; `inherited` when it names none.
    fn of(o: &Map<String, Value>, inherited: Coords) -> Result<Coords, String> {
        match o.get("coords") {
            None | Some(Value::Null) => Ok(inherited),
            Some(Value::String(s)) if s == "pixels" => Ok(Coords::Pixels),
            Some(Value::String(s)) if s == "norm1000" => Ok(Coords::Norm1000),
            Some(other) => Err(format!(
                "\"coords\" must be \"pixels\" or \"norm1000\", got {other}"
            )),
        }
    }
}

/// Every "coords" an answer value declares is one this scorer knows.
pub fn check_coords(v: &Value) -> Result<(), String> {
    match v {
        Value::Object(o) => Coords::of(o, Coords::Pixels).map(|_| ()),
        Value::Array(a) => a.iter().try_for_each(check_coords),
        _ => Ok(()),
    }
}

/// The labels a grounding item can ask about: every mob kind and ore.
fn known_labels() -> Vec<String> {
    MobKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .chain(ORES.iter().map(|(o, _)| o.to_string()))
        .collect()
}

/// Whether a predicted label names `truth`: the same words (case, `_` and
/// an article aside), or its plural.
fn label_matches(label: &str, truth: &str) -> bool {
    let (l, t) = (norm(label), norm(truth));
    !t.is_empty() && (l == t || l == format!("{t}s") || l == format!("{t}es"))
}

/// A predicted box for `label`, in pixels of a `width` × `height` frame,
/// or `None` when the prediction gives no box labelled so.
///
/// - `{"bbox_2d": [x1, y1, x2, y2], "label": "cow"}` (also `"bbox"`), with
///   an optional `"coords"` ([`Coords`]);
/// - a list of such objects (the first whose label matches counts; each
///   object carries its own `"coords"`, pixels when it names none);
/// - text: the JSON it holds, else its first four numbers, labelled when
///   the text names the label and no other mob or ore.
///
/// A bare `[x1, y1, x2, y2]` carries no label, so it names nothing.
pub fn answer_of(v: &Value, label: &str, width: f64, height: f64) -> Option<BBox> {
    match v {
        Value::Object(o) => {
            let named = o
                .get("label")
                .and_then(Value::as_str)
                .is_some_and(|l| label_matches(l, label));
            if !named {
                return None;
            }
            let coords = Coords::of(o, Coords::Pixels).ok()?;
            let b = o
                .get("bbox_2d")
                .or_else(|| o.get("bbox"))
                .and_then(bbox_of)?;
            Some(match coords {
                Coords::Pixels => b,
                Coords::Norm1000 => [
                    b[0] * width / 1000.0,
                    b[1] * height / 1000.0,
                    b[2] * width / 1000.0,
                    b[3] * height / 1000.0,
                ],
            })
        }
        Value::Array(a) => a
            .iter()
            .filter(|e| e.is_object())
            .find_map(|e| answer_of(e, label, width, height)),
        Value::String(s) => {
            if let Some(j @ (Value::Object(_) | Value::Array(_))) = json_in(s)
                && bbox_of(&j).is_some()
            {
                return answer_of(&j, label, width, height);
            }
            let rivals = known_labels()
                .into_iter()
                .filter(|l| norm(l) != norm(label))
                .any(|l| mentions(s, &l));
            if !mentions(s, label) || rivals {
                return None;
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

/// One grounding prediction scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// 1 when the label matches and IoU reaches [`IOU_THRESHOLD`].
    pub correct: f64,
    /// IoU of the box given for the true label (0 without one).
    pub iou: f64,
    /// The IoU-density reward of that IoU.
    pub density: f64,
    /// Whether the prediction gave a box under the true label.
    pub labelled: bool,
}

/// Score a prediction against the truth `{"bbox_2d", "label"}` of a
/// `width` × `height` frame. Only a box given under the true label counts:
/// the right box under another label scores 0. A box given with x2 < x1 or
/// y2 < y1 is read with its corners swapped.
pub fn score_item(
    truth: &Value,
    pred: &Value,
    width: f64,
    height: f64,
    density: &IouDensity,
) -> Scored {
    let zero = Scored {
        correct: 0.0,
        iou: 0.0,
        density: 0.0,
        labelled: false,
    };
    let label = truth["label"].as_str().unwrap_or("");
    let Some(t) = bbox_of(truth) else {
        return zero;
    };
    let Some(p) = answer_of(pred, label, width, height) else {
        return zero;
    };
    let p = [
        p[0].min(p[2]),
        p[1].min(p[3]),
        p[0].max(p[2]),
        p[1].max(p[3]),
    ];
    let u = iou(p, t);
    Scored {
        correct: if u >= IOU_THRESHOLD { 1.0 } else { 0.0 },
        iou: u,
        density: density.reward(u),
        labelled: true,
    }
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
        let t = json!({"bbox_2d": [10, 10, 20, 20], "label": "cow"});
        let f = IouDensity::default();
        let s = |p: Value| score_item(&t, &p, 100.0, 50.0, &f);
        let full = Scored {
            correct: 1.0,
            iou: 1.0,
            density: 1.0,
            labelled: true,
        };
        assert_eq!(s(t.clone()), full);
        assert_eq!(
            s(json!({"bbox_2d": [20, 20, 10, 10], "label": "Cows"})).correct,
            1.0
        );
        let half = s(json!({"bbox_2d": [15, 10, 25, 20], "label": "cow"}));
        assert_eq!(half.correct, 0.0);
        assert!((half.iou - 1.0 / 3.0).abs() < 1e-9 && (half.density - half.iou).abs() < 1e-12);
    }

    #[test]
    fn the_label_must_match_the_box() {
        let t = json!({"bbox_2d": [10, 10, 20, 20], "label": "iron_ore"});
        let f = IouDensity::default();
        let s = |p: Value| score_item(&t, &p, 100.0, 50.0, &f).correct;
        assert_eq!(
            s(json!({"bbox_2d": [10, 10, 20, 20], "label": "iron ore"})),
            1.0
        );
        // The right box under a wrong label, or with none, names nothing.
        assert_eq!(
            s(json!({"bbox_2d": [10, 10, 20, 20], "label": "gold_ore"})),
            0.0
        );
        assert_eq!(s(json!({"bbox_2d": [10, 10, 20, 20]})), 0.0);
        assert_eq!(s(json!([10, 10, 20, 20])), 0.0);
        // Of several boxes the one labelled right counts.
        assert_eq!(
            s(json!([{"bbox_2d": [0, 0, 5, 5], "label": "coal_ore"},
                     {"bbox_2d": [10, 10, 20, 20], "label": "iron_ore"}])),
            1.0
        );
        assert_eq!(
            s(json!([{"bbox_2d": [10, 10, 20, 20], "label": "coal_ore"},
                     {"bbox_2d": [0, 0, 5, 5], "label": "iron_ore"}])),
            0.0
        );
        // Text: the label named, and no rival.
        assert_eq!(s(json!("The iron ore is at (10, 10) to (20, 20).")), 1.0);
        assert_eq!(s(json!("The coal ore is at (10, 10) to (20, 20).")), 0.0);
        assert_eq!(
            s(json!("iron ore, coal ore, cow, pig: 10 10 20 20")),
            0.0,
            "naming every label is no answer"
        );
    }

    #[test]
    fn norm1000_boxes_are_scaled_to_the_frame() {
        // Frame 640x360: pixels [64, 36, 128, 72] are 100..200 per mille.
        let t = json!({"bbox_2d": [64, 36, 128, 72], "label": "pig"});
        let f = IouDensity::default();
        let q = json!({"bbox_2d": [100, 100, 200, 200], "label": "pig", "coords": "norm1000"});
        let got = score_item(&t, &q, 640.0, 360.0, &f);
        assert_eq!((got.correct, got.iou), (1.0, 1.0));
        // Undeclared, the same numbers are pixels and miss.
        let px = json!({"bbox_2d": [100, 100, 200, 200], "label": "pig"});
        assert_eq!(score_item(&t, &px, 640.0, 360.0, &f).correct, 0.0);
        let list = json!([{"bbox_2d": [100, 100, 200, 200], "label": "pig", "coords": "norm1000"}]);
        assert_eq!(score_item(&t, &list, 640.0, 360.0, &f).correct, 1.0);
        assert!(check_coords(&q).is_ok() && check_coords(&px).is_ok());
        let bad = json!([{"bbox_2d": [1, 2, 3, 4], "label": "pig", "coords": "percent"}]);
        let e = check_coords(&bad).unwrap_err();
        assert!(
            e.contains("\"pixels\" or \"norm1000\"") && e.contains("percent"),
            "{e}"
        );
        assert_eq!(score_item(&t, &bad, 640.0, 360.0, &f).correct, 0.0);
    }
}
