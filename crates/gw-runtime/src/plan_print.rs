//! The fingerprint of a suite's plan, so that `--resume` never keeps a
//! result planned differently from what the suite file now asks.
//!
//! Each planned run's fingerprint covers everything its result depends on:
//! its own fields (preset, seed, repeat, real-time flag, memory rounds), the
//! suite's settings (every field but the lists that only select runs:
//! `name`, `description`, `cases`, `seeds`, `repeats`), and the registry
//! entries it runs (game, task and model YAML as loaded). The manifest
//! (`suite.json`) stores the settings, one hash per registry entry and one
//! per run; a resume compares the runs it would skip against them.

use crate::suite::{PlannedRun, SuiteSpec};
use gw_core::registry::Registry;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Suite fields that select which runs exist; they change the plan's size,
/// not how a given run is played.
const SELECTING_FIELDS: [&str; 5] = ["name", "description", "cases", "seeds", "repeats"];

fn hash(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The suite settings every run shares.
pub fn settings(spec: &SuiteSpec) -> Value {
    let mut v = serde_json::to_value(spec).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        for k in SELECTING_FIELDS {
            o.remove(k);
        }
    }
    v
}

/// The registry entries a preset runs, by a readable name (`game X`,
/// `task X+Y`, `model Z`), each with the hash of its loaded YAML.
fn inputs_of(registry: &Registry, preset: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(p) = registry.resolve_preset(preset) else {
        return out;
    };
    let text = |v: Value| v.to_string();
    out.insert(format!("game {}", p.game.id), hash(&[&text(json!(p.game))]));
    out.insert(
        format!("task {}+{}", p.game.id, p.task.id),
        hash(&[&text(json!(p.task))]),
    );
    for m in p.model_specs() {
        out.insert(format!("model {}", m.id), hash(&[&text(json!(m))]));
    }
    out
}

/// `{"settings", "inputs": {name: hash}, "runs": {dir: hash}}` for `runs`.
pub fn fingerprint(spec: &SuiteSpec, registry: &Registry, runs: &[PlannedRun]) -> Value {
    let settings = settings(spec);
    let settings_text = settings.to_string();
    let mut inputs = BTreeMap::new();
    let mut per_preset: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    let mut prints = Map::new();
    for run in runs {
        let mine = per_preset
            .entry(run.preset.as_str())
            .or_insert_with(|| inputs_of(registry, &run.preset));
        let mut parts = vec![settings_text.clone(), run_fields(run).to_string()];
        for (name, h) in mine.iter() {
            inputs.insert(name.clone(), h.clone());
            parts.push(format!("{name}={h}"));
        }
        let refs: Vec<&str> = parts.iter().map(String::as_str).collect();
        prints.insert(run.dir.clone(), json!(hash(&refs)));
    }
    json!({"settings": settings, "inputs": inputs, "runs": prints})
}

fn run_fields(run: &PlannedRun) -> Value {
    json!({"preset": run.preset, "seed": run.seed, "repeat": run.repeat,
           "realtime": run.realtime, "memory_rounds": run.memory_rounds})
}

/// A short text of a JSON value for a message.
fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => "unset".into(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
    }
}

/// Why `done` runs (about to be skipped by a resume) no longer match the
/// plan: `None` when every one matches. `old` is the manifest the previous
/// invocation wrote; a manifest without a fingerprint (older versions)
/// is compared on its suite settings only.
pub fn changes(
    old: &Value,
    new: &Value,
    spec_now: &SuiteSpec,
    done: &[PlannedRun],
) -> Option<String> {
    let old_print = &old["fingerprint"];
    let old_settings = if old_print.is_object() {
        old_print["settings"].clone()
    } else {
        match serde_json::from_value::<SuiteSpec>(old["suite"].clone()) {
            Ok(s) => settings(&s),
            Err(_) => return None,
        }
    };
    let new_settings = settings(spec_now);
    let mut reasons = Vec::new();
    if old_settings != new_settings {
        let empty = Map::new();
        let (o, n) = (
            old_settings.as_object().unwrap_or(&empty),
            new_settings.as_object().unwrap_or(&empty),
        );
        let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
        keys.sort();
        keys.dedup();
        for k in keys {
            if o.get(k) != n.get(k) {
                reasons.push(format!(
                    "{k} {} → {} (suite file)",
                    shown(o.get(k)),
                    shown(n.get(k))
                ));
            }
        }
    }
    if !old_print.is_object() {
        return (!reasons.is_empty()).then(|| summary(done.len(), &reasons));
    }
    let changed_runs: Vec<&str> = done
        .iter()
        .filter(|run| {
            let was = old_print["runs"].get(&run.dir);
            was.is_some() && was != new["runs"].get(&run.dir)
        })
        .map(|run| run.dir.as_str())
        .collect();
    if !changed_runs.is_empty()
        && let Some(inputs) = new["inputs"].as_object()
    {
        for (name, h) in inputs {
            if old_print["inputs"].get(name).is_some_and(|b| b != h) {
                reasons.push(format!("{name} (its registry YAML)"));
            }
        }
    }
    if changed_runs.is_empty() && reasons.is_empty() {
        return None;
    }
    let count = if changed_runs.is_empty() {
        done.len()
    } else {
        changed_runs.len()
    };
    let mut text = summary(count, &reasons);
    if !changed_runs.is_empty() {
        let shown: Vec<&str> = changed_runs.iter().take(5).copied().collect();
        text.push_str(&format!(
            "; e.g. {}{}",
            shown.join(", "),
            if changed_runs.len() > 5 { ", …" } else { "" }
        ));
    }
    Some(text)
}

fn summary(count: usize, reasons: &[String]) -> String {
    let what = if reasons.is_empty() {
        "their planned settings".to_string()
    } else {
        reasons.join(", ")
    };
    format!("{count} finished run(s) were planned differently: {what}")
}
