//! Scoring predictions against a set's truth. Every kind gives each item a
//! score in [0, 1] and the set's `score` is their mean over all items (a
//! missing prediction scores 0); kinds add their own figures.

use crate::reward::IouDensity;
use crate::{Kind, caption, eqa, grounding, planning, reflection};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// One item's score and its detail.
pub fn score_one(
    kind: Kind,
    item: &Value,
    answer_row: &Value,
    pred: &Value,
    density: &IouDensity,
) -> Map<String, Value> {
    let truth = &answer_row["answer"];
    let mut m = Map::new();
    match kind {
        Kind::Caption => {
            let c = caption::score_item(truth, pred);
            m.insert("score".into(), json!(c.score));
            m.insert("recall".into(), json!(c.recall));
            m.insert("precision".into(), json!(c.precision));
            m.insert("missed".into(), json!(c.missed));
            m.insert("false_claims".into(), json!(c.false_claims));
        }
        Kind::Eqa => {
            let accept: Vec<String> =
                serde_json::from_value(answer_row["accept"].clone()).unwrap_or_default();
            let q = answer_row["qtype"].as_str().unwrap_or("");
            m.insert(
                "score".into(),
                json!(eqa::score_item(truth, &accept, q, pred)),
            );
            m.insert("qtype".into(), json!(q));
        }
        Kind::Grounding => {
            let (w, h) = (
                item["width"].as_f64().unwrap_or(0.0),
                item["height"].as_f64().unwrap_or(0.0),
            );
            let g = grounding::score_item(truth, pred, w, h, density);
            m.insert("score".into(), json!(g.correct));
            m.insert("iou".into(), json!(g.iou));
            m.insert("iou_density".into(), json!(g.density));
            m.insert("label_ok".into(), json!(g.labelled));
        }
        Kind::Planning => {
            let p = planning::score_item(item, truth, pred);
            m.insert("score".into(), json!(p.exact));
            m.insert("lenient".into(), json!(p.lenient));
            m.insert("lenient_released".into(), json!(p.released));
            m.insert("executable".into(), json!(p.executable));
        }
        Kind::Reflection => {
            let (full, yn) = reflection::score_item(truth, pred);
            m.insert("score".into(), json!(full));
            m.insert("continue_correct".into(), json!(yn));
        }
    }
    m
}

/// Score a set: `items` in order, the truth rows and the predictions by id.
/// Returns the summary (with `score`) and the per-item rows.
pub fn score(
    kind: Kind,
    items: &[Value],
    answers: &BTreeMap<String, Value>,
    preds: &BTreeMap<String, Value>,
    density: &IouDensity,
) -> (Value, Vec<Value>) {
    let mut rows = Vec::new();
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    let mut answered = 0usize;
    for item in items {
        let id = item["id"].as_str().unwrap_or("");
        let mut row = match (answers.get(id), preds.get(id)) {
            (Some(a), Some(p)) => {
                answered += 1;
                score_one(kind, item, a, p, density)
            }
            _ => {
                let mut m = score_one(
                    kind,
                    item,
                    answers.get(id).unwrap_or(&Value::Null),
                    &Value::Null,
                    density,
                );
                m.insert("missing".into(), json!(true));
                m
            }
        };
        for (k, v) in &row {
            if let Some(x) = v.as_f64() {
                *sums.entry(k.clone()).or_insert(0.0) += x;
            }
        }
        row.insert("id".into(), json!(id));
        rows.push(Value::Object(row));
    }
    let n = items.len();
    let mean = |k: &str| {
        if n == 0 {
            0.0
        } else {
            sums.get(k).copied().unwrap_or(0.0) / n as f64
        }
    };
    let mut s = Map::new();
    s.insert("kind".into(), json!(kind.as_str()));
    s.insert("n".into(), json!(n));
    s.insert("answered".into(), json!(answered));
    s.insert("score".into(), json!(mean("score")));
    match kind {
        Kind::Grounding => {
            s.insert(
                "metric".into(),
                json!("IoU >= 0.5 accuracy, box under the true label"),
            );
            s.insert("mean_iou".into(), json!(mean("iou")));
            s.insert("mean_iou_density".into(), json!(mean("iou_density")));
            s.insert(
                "iou_density".into(),
                json!({"alpha": density.alpha, "beta": density.beta, "eta": density.eta}),
            );
        }
        Kind::Planning => {
            s.insert("metric".into(), json!("exact step match"));
            s.insert("lenient".into(), json!(mean("lenient")));
            s.insert("lenient_released".into(), json!(mean("lenient_released")));
            s.insert("executable".into(), json!(mean("executable")));
        }
        Kind::Reflection => {
            s.insert("metric".into(), json!("can-continue and reason both right"));
            s.insert("continue_accuracy".into(), json!(mean("continue_correct")));
        }
        Kind::Caption => {
            s.insert(
                "metric".into(),
                json!("F1 of fact recall and claim precision"),
            );
            s.insert("recall".into(), json!(mean("recall")));
            s.insert("precision".into(), json!(mean("precision")));
        }
        Kind::Eqa => {
            s.insert("metric".into(), json!("exact answer accuracy"));
            let mut by: BTreeMap<String, (f64, usize)> = BTreeMap::new();
            for r in &rows {
                let e = by
                    .entry(r["qtype"].as_str().unwrap_or("").to_string())
                    .or_insert((0.0, 0));
                e.0 += r["score"].as_f64().unwrap_or(0.0);
                e.1 += 1;
            }
            let per: Map<String, Value> = by
                .into_iter()
                .map(|(k, (sum, c))| (k, json!(sum / c as f64)))
                .collect();
            s.insert("by_question".into(), Value::Object(per));
        }
    }
    (Value::Object(s), rows)
}
