//! Eval set directories: build, write, read and score them.
//!
//! `items.jsonl`: one object per line — `id`, `kind`, `frame`
//! (`frames/<id>.png`), `width`, `height`, `query`, `format` and the kind's
//! context (`qtype`; `label`; `target`, `count`, `inventory`; `goal`,
//! `last_actions`). `answers.jsonl`: `{"id", "answer"}` per line plus what
//! the scorer reads (`accept`, `qtype` for eqa; `pixels` for grounding).

use crate::reward::IouDensity;
use crate::scene::View;
use crate::{Built, Kind, caption, eqa, grounding, planning, reflection};
use gw_core::Rng;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// What to build.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    pub kind: Kind,
    pub n: u32,
    pub seed: u64,
    pub view: View,
}

/// One finished item.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub item: Value,
    pub answer: Value,
    pub png: Vec<u8>,
}

/// Worlds tried per item before giving up (most items need one or two).
pub const ATTEMPTS: u64 = 64;

fn generate(kind: Kind, rng: &mut Rng, view: View, index: u32) -> Option<Built> {
    match kind {
        Kind::Caption => caption::generate(rng, view),
        Kind::Eqa => eqa::generate(rng, view, index),
        Kind::Grounding => grounding::generate(rng, view),
        Kind::Planning => planning::generate(rng, view),
        Kind::Reflection => reflection::generate(rng, view, index),
    }
}

/// Item `index` of a set: the same for the same seed, kind, index and view.
pub fn build_one(spec: &Spec, index: u32) -> Result<Entry, String> {
    let id = format!("{}-{index:04}", spec.kind);
    for attempt in 0..ATTEMPTS {
        let mut rng = Rng::new(
            spec.seed ^ spec.kind.stream().wrapping_mul(0x9e37_79b9_7f4a_7c15),
            ((index as u64) << 8) | attempt,
        );
        let Some(b) = generate(spec.kind, &mut rng, spec.view, index) else {
            continue;
        };
        let mut item = serde_json::Map::new();
        item.insert("id".into(), json!(id));
        item.insert("kind".into(), json!(spec.kind.as_str()));
        item.insert("frame".into(), json!(format!("frames/{id}.png")));
        item.insert("width".into(), json!(spec.view.w));
        item.insert("height".into(), json!(spec.view.h));
        item.insert("query".into(), json!(b.query));
        item.insert("format".into(), json!(b.format));
        item.extend(b.context);
        let mut answer = serde_json::Map::new();
        answer.insert("id".into(), json!(id));
        answer.insert("answer".into(), b.answer);
        answer.extend(b.answer_extra);
        return Ok(Entry {
            item: Value::Object(item),
            answer: Value::Object(answer),
            png: b.png,
        });
    }
    Err(format!(
        "could not build {id}: no suitable world in {ATTEMPTS} tries; try another --seed"
    ))
}

/// All items of a set, in order.
pub fn build(spec: &Spec) -> Result<Vec<Entry>, String> {
    (0..spec.n).map(|i| build_one(spec, i)).collect()
}

/// Write `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension(format!(
        "{}tmp",
        path.extension()
            .map(|e| format!("{}.", e.to_string_lossy()))
            .unwrap_or_default()
    ));
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn jsonl(rows: impl Iterator<Item = Value>) -> String {
    rows.map(|r| format!("{r}\n")).collect()
}

/// Build and write a set into `dir` (created; it must not hold a set
/// already). Returns the entries written.
pub fn write(dir: &Path, spec: &Spec) -> Result<Vec<Entry>, String> {
    if dir.join("items.jsonl").exists() {
        return Err(format!(
            "{} already holds an eval set; remove it or choose another --out",
            dir.display()
        ));
    }
    let entries = build(spec)?;
    std::fs::create_dir_all(dir.join("frames"))
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for e in &entries {
        let frame = e.item["frame"].as_str().unwrap_or_default();
        write_atomic(&dir.join(frame), &e.png)?;
    }
    write_atomic(
        &dir.join("answers.jsonl"),
        jsonl(entries.iter().map(|e| e.answer.clone())).as_bytes(),
    )?;
    // items.jsonl last: its presence marks a complete set.
    write_atomic(
        &dir.join("items.jsonl"),
        jsonl(entries.iter().map(|e| e.item.clone())).as_bytes(),
    )?;
    Ok(entries)
}

/// Read a JSONL file; errors name the file and line.
pub fn read_jsonl(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map_err(|e| format!("{}:{}: not a JSON object ({e})", path.display(), i + 1))
        })
        .collect()
}

/// Rows by `id`; a row without one or a repeated id is an error.
pub fn by_id(path: &Path, rows: Vec<Value>) -> Result<BTreeMap<String, Value>, String> {
    let mut m = BTreeMap::new();
    for (i, r) in rows.into_iter().enumerate() {
        let id = r["id"]
            .as_str()
            .ok_or_else(|| format!("{}: row {} has no \"id\" string", path.display(), i + 1))?
            .to_string();
        if m.insert(id.clone(), r).is_some() {
            return Err(format!("{}: id \"{id}\" appears twice", path.display()));
        }
    }
    Ok(m)
}

/// A set read back: its items in order and its answers by id.
pub struct Set {
    pub items: Vec<Value>,
    pub answers: BTreeMap<String, Value>,
}

/// Read the set in `dir`, checking its items are of `kind`.
pub fn read(dir: &Path, kind: Kind) -> Result<Set, String> {
    let items_path = dir.join("items.jsonl");
    if !items_path.exists() {
        return Err(format!(
            "{} holds no items.jsonl; build a set with `gameworld world evalset --kind {kind} --out {}`",
            dir.display(),
            dir.display()
        ));
    }
    let items = read_jsonl(&items_path)?;
    for it in &items {
        if it["kind"].as_str() != Some(kind.as_str()) {
            return Err(format!(
                "{}: item {} is of kind {}, not {kind}; pass the set's own --kind",
                items_path.display(),
                it["id"],
                it["kind"]
            ));
        }
    }
    let ap = dir.join("answers.jsonl");
    let answers = by_id(&ap, read_jsonl(&ap)?)?;
    Ok(Set { items, answers })
}

/// Predictions (the shape of `answers.jsonl`) by id; ids the set lacks are
/// an error.
pub fn read_preds(path: &Path, set: &Set) -> Result<BTreeMap<String, Value>, String> {
    let rows = by_id(path, read_jsonl(path)?)?;
    let mut out = BTreeMap::new();
    for (id, r) in rows {
        if !set.answers.contains_key(&id) {
            return Err(format!(
                "{}: id \"{id}\" is not in the set; predictions must use the ids of items.jsonl",
                path.display()
            ));
        }
        out.insert(id, r.get("answer").cloned().unwrap_or(Value::Null));
    }
    Ok(out)
}

/// `gameworld world score`: the summary JSON.
pub fn score_files(
    kind: Kind,
    dir: &Path,
    pred: &Path,
    density: &IouDensity,
) -> Result<Value, String> {
    let set = read(dir, kind)?;
    let preds = read_preds(pred, &set)?;
    if kind == Kind::Grounding {
        for (id, p) in &preds {
            grounding::check_coords(p)
                .map_err(|e| format!("{}: id \"{id}\": {e}", pred.display()))?;
        }
    }
    let (summary, _) = crate::score::score(kind, &set.items, &set.answers, &preds, density);
    Ok(summary)
}
