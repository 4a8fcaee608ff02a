//! Running models over an eval set: each item goes to the model its kind is
//! routed to, through the agent harness's [`Link`] (the provider's wire
//! format, retries, redaction); the reply is read leniently and scored.
//!
//! Writes into the output directory: `predictions.jsonl` (the shape of
//! `answers.jsonl`, so `world score` re-scores it), `results.jsonl` (per
//! item: model, reply text, score detail), `model_calls.jsonl` (every HTTP
//! call, secrets redacted, images named by frame path) and `result.json`
//! (the score summary plus router, models, tokens, cost, errors).

use crate::reward::IouDensity;
use crate::router::Router;
use crate::set::{Set, write_atomic};
use crate::{Kind, caption, eqa, grounding, planning, reflection};
use gw_agents::Usage;
use gw_agents::conversation::{Conversation, Image, Part, Tools};
use gw_agents::model_agent::{Link, cost_usd};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The system prompt every item shares.
pub const SYSTEM: &str = "You are an agent in a Minecraft-like voxel world. You are shown a \
first-person frame of the world and asked one question about it. Look carefully, think briefly \
if you need to, then give the answer in the requested format; you may put the final answer \
inside <answer>...</answer>.";

/// A reply as an answer value for a kind.
pub fn parse_reply(kind: Kind, text: &str) -> Value {
    match kind {
        Kind::Caption => caption::parse(text),
        Kind::Eqa => eqa::parse(text),
        Kind::Grounding => grounding::parse(text),
        Kind::Planning => planning::parse(text),
        Kind::Reflection => reflection::parse(text),
    }
}

/// The user turn for an item: its question and answer format, then its frame.
pub fn conversation(item: &Value, png: Vec<u8>) -> Conversation {
    let text = format!(
        "{}\n{}",
        item["query"].as_str().unwrap_or(""),
        item["format"].as_str().unwrap_or("")
    );
    Conversation {
        system: SYSTEM.to_string(),
        user: vec![
            Part::Text(text),
            Part::Image(Image {
                png: Arc::from(png),
                frame_path: item["frame"].as_str().map(str::to_string),
            }),
        ],
        tools: Tools::None,
    }
}

/// Evaluate `set` (read from `set_dir`, kind `kind`) with the models
/// `router` names; `open` turns a model id into a live link. Writes the
/// results into `out` and returns `result.json`'s content.
pub fn evaluate(
    kind: Kind,
    set: &Set,
    set_dir: &Path,
    router: &Router,
    open: &mut dyn FnMut(&str) -> Result<Link, String>,
    out: &Path,
    density: &IouDensity,
) -> Result<Value, String> {
    let model = router.model_for(kind)?.to_string();
    let mut link = open(&model)?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut preds = BTreeMap::new();
    let mut pred_rows = String::new();
    let mut replies: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
    let mut calls_out = String::new();
    let mut usage = Usage::default();
    let mut latency_ms = 0u64;
    let mut errors = 0usize;
    for (i, item) in set.items.iter().enumerate() {
        let id = item["id"].as_str().unwrap_or("").to_string();
        let frame = item["frame"].as_str().unwrap_or("");
        let png = std::fs::read(set_dir.join(frame))
            .map_err(|e| format!("cannot read the frame of {id} ({frame}): {e}"))?;
        let conv = conversation(item, png);
        let mut calls = Vec::new();
        let result = link.call(&conv, i as u32, 0, &mut calls, &mut latency_ms);
        for c in &calls {
            calls_out.push_str(&format!("{c}\n"));
        }
        match result {
            Ok(o) => {
                usage = usage.saturating_add(o.usage);
                let p = parse_reply(kind, &o.text);
                pred_rows.push_str(&format!("{}\n", json!({"id": id, "answer": p})));
                preds.insert(id.clone(), p);
                replies.insert(id, (o.text, None));
            }
            Err(e) => {
                errors += 1;
                replies.insert(id, (String::new(), Some(e.to_string())));
            }
        }
    }
    let (mut summary, rows) = crate::score::score(kind, &set.items, &set.answers, &preds, density);
    let mut results = String::new();
    for r in rows {
        let id = r["id"].as_str().unwrap_or("").to_string();
        let (reply, error) = replies.remove(&id).unwrap_or_default();
        let mut r = r;
        if let Some(o) = r.as_object_mut() {
            o.insert("model".into(), json!(model));
            o.insert("reply".into(), json!(reply));
            if let Some(e) = error {
                o.insert("error".into(), json!(e));
            }
        }
        results.push_str(&format!("{r}\n"));
    }
    if let Some(s) = summary.as_object_mut() {
        s.insert("set".into(), json!(set_dir.display().to_string()));
        s.insert("router".into(), json!(router.id));
        s.insert("models".into(), json!({kind.as_str(): model}));
        s.insert("errors".into(), json!(errors));
        s.insert("input_tokens".into(), json!(usage.input_tokens));
        s.insert("output_tokens".into(), json!(usage.output_tokens));
        s.insert("cost_usd".into(), json!(cost_usd(link.spec(), &usage)));
        s.insert("latency_ms".into(), json!(latency_ms));
    }
    write_atomic(&out.join("predictions.jsonl"), pred_rows.as_bytes())?;
    write_atomic(&out.join("results.jsonl"), results.as_bytes())?;
    write_atomic(&out.join("model_calls.jsonl"), calls_out.as_bytes())?;
    let text = serde_json::to_string_pretty(&summary).map_err(|e| e.to_string())?;
    write_atomic(&out.join("result.json"), format!("{text}\n").as_bytes())?;
    if errors == set.items.len() && errors > 0 {
        return Err(format!(
            "model \"{model}\" answered none of the {errors} items; see {}",
            out.join("results.jsonl").display()
        ));
    }
    Ok(summary)
}
