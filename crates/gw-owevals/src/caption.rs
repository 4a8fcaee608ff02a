//! Captioning / perception: a frame and the facts a caption of it must
//! state — the biome in view, time of day, the mobs in view, the held
//! item, the block under the crosshair — read from the world and from what
//! the frame shows (mobs and the biome from the pick buffer, so a mob
//! hidden behind a hill is no fact and the biome is that of the land in
//! view, not of the player's column).
//!
//! Scored as the F1 of fact recall (the share of the facts the caption
//! states) and claim precision (the share of the things the caption names —
//! biomes, times of day, mobs, blocks, items — that are true of the frame),
//! so naming everything is no way to state every fact.

use crate::Built;
use crate::scene::{self, Seen, View};
use crate::text::{as_text, mentions, norm};
use gw_core::Rng;
use gw_world::render::Pick;
use gw_world::world::{MobKind, raycast_blocks};
use gw_world::{Biome, data};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// How far the crosshair's block may be and still be "the block in view".
pub const BLOCK_RANGE: f64 = 24.0;

/// The share of the visible ground one biome must hold to be "the biome
/// in view"; frames across a biome border are not captioned.
pub const BIOME_SHARE: f64 = 0.6;

pub fn generate(rng: &mut Rng, view: View) -> Option<Built> {
    let w = scene(rng)?;
    let seen = Seen::of(&w, view);
    let facts = facts_of(&w, &seen);
    let rgb = scene::frame_rgb(&w, view);
    if !answerable(&w, &seen, &rgb, &facts) {
        return None;
    }
    let caption = caption_of(&facts);
    Some(Built {
        query: "Describe this first-person frame of the voxel world in a few sentences: the biome \
                of the land in view, whether it is day or night, the mobs in view, the item in the \
                player's hand, and the block under the crosshair. Name only what the frame shows."
            .into(),
        format: "Answer with plain text.".into(),
        context: Map::new(),
        answer: json!({"caption": caption, "facts": facts}),
        answer_extra: Map::new(),
        png: scene::png_of(&rgb, view),
    })
}

/// Whether every fact of a frame can be read from it (`rgb` is the frame):
/// one biome holds the visible ground, the sky shows (day or night), the
/// held item looks unlike every other item in the hotbar, and each mob in
/// view looks unlike the other kinds of mob in the frame.
pub fn answerable(w: &gw_world::World, seen: &Seen, rgb: &[u8], facts: &Value) -> bool {
    if facts["biome"].is_null() || seen.sky_pixels() < seen.view.min_visible() {
        return false;
    }
    let slot = w.player.selected;
    if w.player.inventory.slots[slot].is_some()
        && !scene::slot_item_distinct(w, seen.view, rgb, slot, &scene::other_hotbar_items(w, slot))
    {
        return false;
    }
    let kinds: BTreeSet<MobKind> = seen.any_pixel_mobs(w).into_iter().collect();
    let kinds: Vec<MobKind> = kinds.into_iter().collect();
    seen.visible_mobs(w)
        .iter()
        .all(|(id, _, _)| scene::mob_kind_distinct(w, seen.view, rgb, *id, &kinds))
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

/// The biomes of the ground a frame shows, with each one's share of the
/// block pixels; the first is the largest (ties in [`Biome`]'s order).
pub fn biomes_in_view(w: &gw_world::World, seen: &Seen) -> Vec<(Biome, f64)> {
    let mut n: BTreeMap<Biome, usize> = BTreeMap::new();
    for p in &seen.picks {
        if let Pick::Block { pos, .. } = p {
            *n.entry(w.terrain.biome(pos[0], pos[2])).or_insert(0) += 1;
        }
    }
    let total: usize = n.values().sum();
    let mut v: Vec<(Biome, f64)> = n
        .into_iter()
        .map(|(b, k)| (b, k as f64 / total as f64))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

/// The facts of a frame: `biome` (the biome holding at least
/// [`BIOME_SHARE`] of the visible ground, or null), `time`
/// (`day`|`night`), `mobs` (kinds showing at least [`View::min_visible`]
/// pixels, sorted), `held` (item or `nothing`) and `block` (under the
/// crosshair within [`BLOCK_RANGE`] and showing at least
/// [`View::min_visible`] pixels, or null). `in_frame` lists what else a
/// caption may truly name though no fact asks for it: every biome, mob
/// kind and block with a pixel in the frame, and the hotbar's items.
pub fn facts_of(w: &gw_world::World, seen: &Seen) -> Value {
    let d = data();
    let min = seen.view.min_visible();
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
        .filter(|t| {
            seen.picks
                .iter()
                .filter(|p| matches!(p, Pick::Block { pos, .. } if *pos == t.pos))
                .count()
                >= min
        })
        .map(|t| d.block_name(t.block).to_string());
    let biomes = biomes_in_view(w, seen);
    let biome = biomes
        .first()
        .filter(|(_, share)| *share >= BIOME_SHARE)
        .map(|(b, _)| b.name());
    let mut blocks = BTreeSet::new();
    for p in &seen.picks {
        if let Pick::Block { id, .. } = p {
            blocks.insert(d.block_name(*id));
        }
    }
    let any_mobs: BTreeSet<&str> = seen
        .any_pixel_mobs(w)
        .into_iter()
        .map(|k| k.name())
        .collect();
    let items: BTreeSet<&str> = w.player.inventory.slots[..9]
        .iter()
        .flatten()
        .map(|s| d.item_name(s.item))
        .collect();
    let in_biomes: BTreeSet<&str> = biomes.iter().map(|(b, _)| b.name()).collect();
    json!({
        "biome": biome,
        "time": if w.is_night() { "night" } else { "day" },
        "mobs": mobs,
        "held": held,
        "block": block,
        "in_frame": {
            "biomes": in_biomes,
            "mobs": any_mobs,
            "blocks": blocks,
            "items": items,
        },
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

const DAY_WORDS: [&str; 7] = [
    "day",
    "daytime",
    "daylight",
    "morning",
    "noon",
    "afternoon",
    "sunny",
];
const NIGHT_WORDS: [&str; 3] = ["night", "nighttime", "midnight"];
const NO_MOBS: [&str; 5] = [
    "no mobs",
    "no mob",
    "no animals",
    "no creatures",
    "no entities",
];
const EMPTY_HAND: [&str; 5] = ["nothing", "empty", "bare hand", "empty hand", "no item"];
/// Words that deny the name right after them ("no cows").
const NEGATIONS: [&str; 4] = ["no", "not", "without", "never"];

/// The names of a biome a caption may use.
fn biome_names(b: &str) -> Vec<String> {
    let mut v = vec![b.to_string()];
    if let Some(one) = b.strip_suffix('s') {
        v.push(one.to_string());
    }
    v
}

/// The names of a block or item a caption may use (`grass_block` also as
/// `grass`).
fn thing_names(t: &str) -> Vec<String> {
    let mut v = vec![t.to_string()];
    if let Some(short) = t.strip_suffix("_block") {
        v.push(short.to_string());
    }
    v
}

/// Everything a caption can claim, as normalised phrases: biomes, times of
/// day, mob kinds, blocks and items, "no mobs" and an empty hand.
fn vocabulary() -> &'static (BTreeSet<String>, usize) {
    static V: OnceLock<(BTreeSet<String>, usize)> = OnceLock::new();
    V.get_or_init(|| {
        let d = data();
        let mut v: BTreeSet<String> = BTreeSet::new();
        for b in Biome::ALL {
            v.extend(biome_names(b.name()).iter().map(|n| norm(n)));
        }
        v.extend(DAY_WORDS.iter().chain(&NIGHT_WORDS).map(|w| norm(w)));
        v.extend(MobKind::ALL.iter().map(|k| norm(k.name())));
        for name in d
            .blocks
            .iter()
            .map(|b| b.name.as_str())
            .chain(d.items.iter().map(|i| i.name.as_str()))
            .filter(|n| *n != "air")
        {
            v.extend(thing_names(name).iter().map(|n| norm(n)));
        }
        v.extend(NO_MOBS.iter().chain(&EMPTY_HAND).map(|w| norm(w)));
        v.remove("");
        let longest = v.iter().map(|p| p.split(' ').count()).max().unwrap_or(1);
        (v, longest)
    })
}

/// The phrases a caption names, longest first at each word ("stone
/// pickaxe" is one claim, not also "stone"; "cows" names "cow"), each with
/// whether a negation ("no", "not", "without") comes right before it.
pub fn claims(text: &str) -> BTreeSet<(String, bool)> {
    let (vocab, longest) = vocabulary();
    let n = norm(text);
    let words: Vec<&str> = n.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < words.len() {
        let mut hit = None;
        for len in (1..=(*longest).min(words.len() - i)).rev() {
            let phrase = words[i..i + len].join(" ");
            let found = std::iter::once(phrase.clone())
                .chain(
                    ["es", "s"]
                        .iter()
                        .filter_map(|cut| phrase.strip_suffix(cut).map(String::from)),
                )
                .find(|p| vocab.contains(p));
            if let Some(p) = found {
                hit = Some((p, len));
                break;
            }
        }
        match hit {
            Some((p, len)) => {
                let negated = i > 0 && NEGATIONS.contains(&words[i - 1]);
                out.insert((p, negated));
                i += len;
            }
            None => i += 1,
        }
    }
    out
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// What is true of a frame, as normalised phrases: `asked` (the facts
/// themselves) and `shown` (those and everything else in the frame).
fn truth_phrases(f: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut asked: BTreeSet<String> = BTreeSet::new();
    if let Some(b) = f["biome"].as_str() {
        asked.extend(biome_names(b).iter().map(|n| norm(n)));
    }
    let words: &[&str] = if f["time"] == "night" {
        &NIGHT_WORDS
    } else {
        &DAY_WORDS
    };
    asked.extend(words.iter().map(|w| norm(w)));
    let mobs = strings(&f["mobs"]);
    asked.extend(mobs.iter().map(|m| norm(m)));
    if mobs.is_empty() {
        asked.extend(NO_MOBS.iter().map(|w| norm(w)));
    }
    match f["held"].as_str() {
        Some("nothing") | None => asked.extend(EMPTY_HAND.iter().map(|w| norm(w))),
        Some(h) => asked.extend(thing_names(h).iter().map(|n| norm(n))),
    }
    if let Some(b) = f["block"].as_str() {
        asked.extend(thing_names(b).iter().map(|n| norm(n)));
    }
    let mut shown = asked.clone();
    let also = &f["in_frame"];
    for b in strings(&also["biomes"]) {
        shown.extend(biome_names(&b).iter().map(|n| norm(n)));
    }
    for t in strings(&also["mobs"])
        .into_iter()
        .chain(strings(&also["blocks"]))
        .chain(strings(&also["items"]))
    {
        shown.extend(thing_names(&t).iter().map(|n| norm(n)));
    }
    (asked, shown)
}

/// Each fact with the phrases that state it.
fn required(f: &Value) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    if let Some(b) = f["biome"].as_str() {
        out.push(("biome".into(), biome_names(b)));
    }
    if let Some(t) = f["time"].as_str() {
        let alts: Vec<&str> = if t == "night" {
            NIGHT_WORDS.iter().copied().chain(["dark"]).collect()
        } else {
            DAY_WORDS.to_vec()
        };
        out.push(("time".into(), alts.into_iter().map(String::from).collect()));
    }
    match f["mobs"].as_array() {
        Some(a) if !a.is_empty() => {
            for m in a.iter().filter_map(Value::as_str) {
                out.push((format!("mob:{m}"), vec![m.to_string()]));
            }
        }
        _ => out.push(("mobs".into(), NO_MOBS.map(String::from).to_vec())),
    }
    if let Some(h) = f["held"].as_str() {
        let alts = if h == "nothing" {
            EMPTY_HAND.map(String::from).to_vec()
        } else {
            vec![h.to_string()]
        };
        out.push(("held".into(), alts));
    }
    if let Some(b) = f["block"].as_str() {
        out.push(("block".into(), thing_names(b)));
    }
    out
}

/// The baseline a caption scorer must rank low: one caption for every
/// frame naming every biome, both times of day, every mob kind and every
/// block, whatever the frame shows.
pub fn naming_everything() -> String {
    let d = data();
    let biomes: Vec<&str> = Biome::ALL.iter().map(|b| b.name()).collect();
    let mobs: Vec<&str> = MobKind::ALL.iter().map(|k| k.name()).collect();
    let blocks: Vec<String> = d
        .blocks
        .iter()
        .filter(|b| b.name != "air")
        .map(|b| words(&b.name))
        .collect();
    format!(
        "A {} biome, by day or by night. In view: {}. Blocks: {}.",
        biomes.join(", "),
        mobs.join(", "),
        blocks.join(", ")
    )
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

/// One caption scored.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// F1 of `recall` and `precision` (0 when both are 0).
    pub score: f64,
    /// The share of the facts the caption states; a day caption that also
    /// says "night" misses the time fact.
    pub recall: f64,
    /// The share of the caption's claims that are true of the frame: a
    /// name is true when it states a fact and false when it shows nowhere in
    /// the frame; "no X" is false when X is a fact and true when X shows
    /// nowhere. A claim about something that shows but that no fact asks
    /// about counts neither way. 1 for a caption that claims nothing.
    pub precision: f64,
    /// The facts it missed.
    pub missed: Vec<String>,
    /// The claims that are false, `no ` before a denied name.
    pub false_claims: Vec<String>,
}

/// Score a caption against the truth's facts.
pub fn score_item(truth: &Value, pred: &Value) -> Scored {
    let facts = &truth["facts"];
    let text = caption_text(pred);
    let req = required(facts);
    let says_night = NIGHT_WORDS.iter().any(|w| mentions(&text, w));
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
    let (asked, shown) = truth_phrases(facts);
    let (mut right, mut counted) = (0usize, 0usize);
    let mut false_claims = Vec::new();
    for (phrase, negated) in claims(&text) {
        // "no mobs" and an empty hand are claims of their own.
        let verdict = if negated && !NO_MOBS.iter().chain(&EMPTY_HAND).any(|w| norm(w) == phrase) {
            if asked.contains(&phrase) {
                Some(false)
            } else if shown.contains(&phrase) {
                None
            } else {
                Some(true)
            }
        } else if asked.contains(&phrase) {
            Some(true)
        } else if shown.contains(&phrase) {
            None
        } else {
            Some(false)
        };
        match verdict {
            Some(true) => {
                right += 1;
                counted += 1;
            }
            Some(false) => {
                counted += 1;
                false_claims.push(if negated {
                    format!("no {phrase}")
                } else {
                    phrase
                });
            }
            None => {}
        }
    }
    let precision = if counted == 0 {
        1.0
    } else {
        right as f64 / counted as f64
    };
    let score = if recall + precision > 0.0 {
        2.0 * recall * precision / (recall + precision)
    } else {
        0.0
    };
    Scored {
        score,
        recall,
        precision,
        missed,
        false_claims,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth() -> Value {
        let facts = json!({"biome": "plains", "time": "day", "mobs": ["cow", "pig"],
            "held": "stone_pickaxe", "block": "grass_block",
            "in_frame": {"biomes": ["plains", "forest"], "mobs": ["cow", "pig"],
                "blocks": ["grass_block", "dirt", "oak_leaves"],
                "items": ["stone_pickaxe", "torch"]}});
        json!({"caption": caption_of(&facts), "facts": facts})
    }

    #[test]
    fn recall_counts_each_fact() {
        let truth = truth();
        let own = score_item(&truth, &truth);
        assert_eq!(
            (own.score, own.recall, own.precision),
            (1.0, 1.0, 1.0),
            "{own:?}"
        );
        let s = score_item(
            &truth,
            &json!("Plains at day, two cows, a stone pickaxe, grass."),
        );
        assert_eq!(s.missed, vec!["mob:pig".to_string()]);
        assert!((s.recall - 5.0 / 6.0).abs() < 1e-9);
        assert_eq!(s.precision, 1.0, "{:?}", s.false_claims);
        // Saying night on a day frame loses the time fact and is a false claim.
        let s = score_item(
            &truth,
            &json!("plains day or night, cow pig stone pickaxe grass"),
        );
        assert_eq!(s.missed, vec!["time".to_string()]);
        assert_eq!(s.false_claims, vec!["night".to_string()]);
        assert!(s.score < 1.0);
        assert_eq!(score_item(&truth, &json!("")).score, 0.0);
    }

    #[test]
    fn false_claims_cost_and_naming_everything_scores_low() {
        let truth = truth();
        let own = caption_text(&truth["caption"].clone());
        // One false mob on top of every fact.
        let s = score_item(&truth, &json!(format!("{own} A zombie stands by.")));
        assert_eq!(s.recall, 1.0);
        assert_eq!(s.false_claims, vec!["zombie".to_string()]);
        assert!(s.score < 1.0 && s.precision < 1.0, "{s:?}");
        // Things in the frame but asked about by no fact are no false claims.
        let s = score_item(
            &truth,
            &json!(format!(
                "{own} Oak leaves, dirt and a torch; forest behind."
            )),
        );
        assert_eq!(s.score, 1.0, "{s:?}");
        // Denials: "no zombies" is true, "no cows" is false.
        let s = score_item(&truth, &json!(format!("{own} There are no zombies.")));
        assert_eq!(s.score, 1.0, "{s:?}");
        let s = score_item(&truth, &json!(format!("{own} There are no cows.")));
        assert_eq!(s.false_claims, vec!["no cow".to_string()]);
        // A "stone pickaxe" is one claim, not also "stone".
        assert_eq!(
            claims("holding a stone pickaxe"),
            BTreeSet::from([("stone pickaxe".to_string(), false)])
        );
        let c = naming_everything();
        let s = score_item(&truth, &json!(c));
        assert!(
            s.recall >= 0.6,
            "the constant caption states most facts: {s:?}"
        );
        assert!(s.score <= 0.3, "{s:?}");
    }
}
