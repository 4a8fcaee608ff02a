//! The run viewer's data: the run directories under the runs roots, one
//! run's trajectory with its model calls, and its frames.

use crate::paths::{read_json, read_regular_off_thread, read_text, relative, resolve};
use crate::{ApiError, AppState, bad_request, not_found};
use axum::Json;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deep and how wide the listing looks (a runs folder can be huge).
const MAX_DEPTH: usize = 7;
const MAX_ENTRIES: usize = 20_000;

#[derive(Deserialize)]
pub struct RunQuery {
    #[serde(default)]
    pub root: usize,
    #[serde(default)]
    pub path: String,
}

/// Run and suite folders under `dir` (depth-first, sorted by name).
fn walk(
    dir: &Path,
    depth: usize,
    seen: &mut usize,
    runs: &mut Vec<PathBuf>,
    suites: &mut Vec<PathBuf>,
) {
    if depth > MAX_DEPTH || *seen > MAX_ENTRIES {
        return;
    }
    if dir.join("result.json").is_file()
        || dir.join("trajectory.jsonl").is_file()
        || dir.join("error.json").is_file()
    {
        runs.push(dir.to_path_buf());
        return;
    }
    if dir.join("suite.json").is_file() {
        suites.push(dir.to_path_buf());
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
        .map(|e| e.path())
        .filter(|p| p.file_name().is_some_and(|n| n != "frames"))
        .collect();
    subdirs.sort();
    for d in subdirs {
        *seen += 1;
        walk(&d, depth + 1, seen, runs, suites);
    }
}

/// Every run and suite under the runs roots.
pub async fn list(State(st): State<Arc<AppState>>) -> Json<Value> {
    let roots = st.roots.clone();
    let out = tokio::task::spawn_blocking(move || {
        let mut all_runs = Vec::new();
        let mut all_suites = Vec::new();
        for (i, root) in roots.iter().enumerate() {
            let (mut runs, mut suites, mut seen) = (Vec::new(), Vec::new(), 0);
            walk(root, 0, &mut seen, &mut runs, &mut suites);
            for dir in runs {
                let rel = relative(root, &dir).unwrap_or_default();
                let r = read_json(&dir.join("result.json"));
                // A run that never started leaves error.json only.
                let e = r
                    .is_none()
                    .then(|| read_json(&dir.join("error.json")))
                    .flatten();
                let mut row = json!({"root": i, "path": rel,
                                     "running": r.is_none() && e.is_none()});
                if let Some(r) = r.as_ref().or(e.as_ref()) {
                    for k in [
                        "preset",
                        "game_id",
                        "task_id",
                        "model",
                        "seed",
                        "success",
                        "progress",
                        "steps",
                        "stop_reason",
                        "realtime",
                        "error",
                    ] {
                        if let Some(v) = r.get(k) {
                            row[k] = v.clone();
                        }
                    }
                }
                // Outcome for the list: running, error, success or fail.
                row["outcome"] = json!(match (&r, &e) {
                    (None, None) => "running",
                    (None, Some(_)) => "error",
                    (Some(r), _) if r["error"].is_string() => "error",
                    (Some(r), _) if r["success"] == json!(true) => "success",
                    _ => "fail",
                });
                all_runs.push(row);
            }
            for dir in suites {
                let rel = relative(root, &dir).unwrap_or_default();
                let m = read_json(&dir.join("suite.json")).unwrap_or(Value::Null);
                all_suites.push(json!({
                    "root": i,
                    "path": rel,
                    "name": m["suite"]["name"],
                    "planned_runs": m["planned_runs"],
                    "report": dir.join("report.html").is_file(),
                }));
            }
        }
        json!({"roots": roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>(),
               "runs": all_runs, "suites": all_suites})
    })
    .await
    .unwrap_or_else(|e| json!({"error": e.to_string()}));
    Json(out)
}

/// One run: `result.json`, every trajectory step with its frame names and
/// the model's raw replies.
pub async fn run(
    State(st): State<Arc<AppState>>,
    Query(q): Query<RunQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = resolve(&st.roots, q.root, &q.path)?;
    if !dir.join("trajectory.jsonl").is_file() {
        return Err(not_found(format!("{} is not a run directory", q.path)));
    }
    let out = tokio::task::spawn_blocking(move || load_run(&dir))
        .await
        .map_err(|e| ApiError(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(out))
}

/// The viewer's picture of one run directory.
pub fn load_run(dir: &Path) -> Value {
    let frames = dir.join("frames");
    let frame_if = |name: String| frames.join(&name).is_file().then_some(name);
    let mut calls: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    if let Ok(text) = read_text(&dir.join("model_calls.jsonl")) {
        for line in text.lines() {
            let Ok(rec @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let mut keep = Map::new();
            for k in [
                "step",
                "episode",
                "attempt",
                "status",
                "latency_ms",
                "response",
                "response_text",
                "error",
            ] {
                if let Some(v) = rec.get(k) {
                    keep.insert(k.into(), v.clone());
                }
            }
            calls
                .entry(rec["step"].as_u64().unwrap_or(0))
                .or_default()
                .push(Value::Object(keep));
        }
    }
    let mut steps = Vec::new();
    if let Ok(text) = read_text(&dir.join("trajectory.jsonl")) {
        for line in text.lines() {
            // A line that is not an object (a hand-edited or foreign file)
            // is skipped like an unreadable one.
            let Ok(mut row @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let n = row["step"].as_u64().unwrap_or(0);
            row["frame"] = json!(frame_if(format!("step_{n:06}.png")));
            row["reset_frame"] = json!(frame_if(format!("step_{n:06}_reset.png")));
            row["calls"] = json!(calls.remove(&n).unwrap_or_default());
            steps.push(row);
        }
    }
    json!({
        "result": read_json(&dir.join("result.json")),
        "first_frame": frame_if("step_000000.png".into()),
        "steps": steps,
    })
}

#[derive(Deserialize)]
pub struct FrameQuery {
    #[serde(default)]
    pub root: usize,
    #[serde(default)]
    pub path: String,
    pub name: String,
}

/// A frame file name the runtime writes: `step_NNNNNN.png` or
/// `step_NNNNNN_reset.png`.
pub fn is_frame_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("step_") else {
        return false;
    };
    let rest = rest
        .strip_suffix("_reset.png")
        .or_else(|| rest.strip_suffix(".png"));
    rest.is_some_and(|d| d.len() >= 6 && d.len() <= 10 && d.bytes().all(|b| b.is_ascii_digit()))
}

pub async fn frame(
    State(st): State<Arc<AppState>>,
    Query(q): Query<FrameQuery>,
) -> Result<Response, ApiError> {
    if !is_frame_name(&q.name) {
        return Err(bad_request("frame names look like step_000012.png"));
    }
    let dir = resolve(&st.roots, q.root, &q.path)?;
    let file = dir.join("frames").join(&q.name);
    let bytes = read_regular_off_thread(file)
        .await
        .ok_or_else(|| not_found(format!("no frame {}", q.name)))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "max-age=60"),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_names() {
        assert!(is_frame_name("step_000000.png"));
        assert!(is_frame_name("step_000012_reset.png"));
        for bad in [
            "step_1.png",
            "../step_000001.png",
            "step_000001.png/..",
            "step_00000a.png",
            "x.png",
        ] {
            assert!(!is_frame_name(bad), "{bad}");
        }
    }
}
