//! The run viewer's data: the run directories under the runs roots, one
//! run's trajectory with its model calls, and its frames.

use crate::paths::{read_json, read_regular_off_thread, relative, resolve};
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
/// The largest `result.json` the runs list reads (the runtime writes a few
/// KiB; anything larger is listed without its fields).
const MAX_LISTED_RESULT: u64 = 1 << 20;
/// Model calls per page of `/api/run` and `/api/run/calls` (default, most).
const CALLS_PAGE: usize = 200;
const MAX_CALLS_PAGE: usize = 1000;
/// The most bytes of one call's response, response text or error in an
/// answer; longer ones come clipped (prefix, length, hash).
const MAX_CALL_FIELD: usize = 64 * 1024;
/// Lines longer than this in a run's JSONL files are passed over.
const MAX_LINE: usize = 8 << 20;
/// Run loads at once: each holds one run's steps and a page of calls.
static LOADS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// `/api/run`'s query: the run, and which page of its model calls to attach.
#[derive(Deserialize)]
pub struct RunPageQuery {
    #[serde(default)]
    pub root: usize,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub calls_offset: usize,
    pub calls_limit: Option<usize>,
}

/// `/api/run/calls`'s query: a page of a run's call records, optionally
/// only one step's.
#[derive(Deserialize)]
pub struct CallsQuery {
    #[serde(default)]
    pub root: usize,
    #[serde(default)]
    pub path: String,
    #[serde(default)]
    pub offset: usize,
    pub limit: Option<usize>,
    pub step: Option<u64>,
}

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
                let result_path = dir.join("result.json");
                let too_large =
                    std::fs::metadata(&result_path).is_ok_and(|m| m.len() > MAX_LISTED_RESULT);
                let r = if too_large {
                    None
                } else {
                    read_json(&result_path)
                };
                // A run that never started leaves error.json only.
                let e = (r.is_none() && !too_large)
                    .then(|| read_json(&dir.join("error.json")))
                    .flatten();
                let mut row = json!({"root": i, "path": rel,
                                     "running": r.is_none() && e.is_none() && !too_large});
                if too_large {
                    row["error"] = json!(format!(
                        "result.json is larger than {} KiB; open the run to see it",
                        MAX_LISTED_RESULT / 1024
                    ));
                    row["outcome"] = json!("error");
                }
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
                    _ if too_large => "error",
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

/// One run: `result.json`, every trajectory step with its frame names, and
/// one page of the model's call records attached to their steps
/// (`calls_page` says which; `/api/run/calls` serves the others).
pub async fn run(
    State(st): State<Arc<AppState>>,
    Query(q): Query<RunPageQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = resolve(&st.roots, q.root, &q.path)?;
    if !dir.join("trajectory.jsonl").is_file() {
        return Err(not_found(format!("{} is not a run directory", q.path)));
    }
    let page = Page::new(q.calls_offset, q.calls_limit);
    let _turn = LOADS.acquire().await.map_err(internal)?;
    let out = tokio::task::spawn_blocking(move || load_run_page(&dir, page))
        .await
        .map_err(internal)?;
    Ok(Json(out))
}

/// A page of one run's call records: `{"calls": [...], "page": {...}}`.
pub async fn calls(
    State(st): State<Arc<AppState>>,
    Query(q): Query<CallsQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = resolve(&st.roots, q.root, &q.path)?;
    if !dir.join("trajectory.jsonl").is_file() {
        return Err(not_found(format!("{} is not a run directory", q.path)));
    }
    let page = Page::new(q.offset, q.limit);
    let step = q.step;
    let _turn = LOADS.acquire().await.map_err(internal)?;
    let out = tokio::task::spawn_blocking(move || {
        let (calls, info) = read_calls(&dir, page, step);
        json!({"calls": calls, "page": info})
    })
    .await
    .map_err(internal)?;
    Ok(Json(out))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// Which call records to return: `limit` of them from number `offset`
/// (counting the records that match the step filter, if any).
#[derive(Clone, Copy, Debug)]
pub struct Page {
    pub offset: usize,
    pub limit: usize,
}

impl Page {
    pub fn new(offset: usize, limit: Option<usize>) -> Page {
        Page {
            offset,
            limit: limit.unwrap_or(CALLS_PAGE).clamp(1, MAX_CALLS_PAGE),
        }
    }
}

/// The lines of a JSONL file, each at most [`MAX_LINE`] bytes (longer ones
/// are skipped without being held), read as a stream.
fn each_line(path: &Path, mut f: impl FnMut(&str)) {
    use std::io::BufRead;
    let Ok(file) = crate::paths::open_regular(path) else {
        return;
    };
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut too_long = false;
        loop {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(_) => return,
            };
            if buf.is_empty() {
                break;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            if !too_long && line.len() + chunk.len() <= MAX_LINE {
                line.extend_from_slice(chunk);
            } else {
                too_long = true;
                line.clear();
            }
            let used = done.unwrap_or(buf.len());
            reader.consume(used);
            if done.is_some() {
                break;
            }
        }
        if !too_long && let Ok(text) = std::str::from_utf8(&line) {
            f(text);
        }
        if reader.fill_buf().map(|b| b.is_empty()).unwrap_or(true) {
            return;
        }
    }
}

/// A call record as the viewer shows it: the fields it needs, each large
/// one clipped to [`MAX_CALL_FIELD`].
fn viewer_call(rec: &Value) -> Value {
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
        "redirect_location",
        "stated_reason",
    ] {
        if let Some(v) = rec.get(k) {
            let text = v.to_string();
            let v = if text.len() > MAX_CALL_FIELD {
                json!(gw_agents::secrets::clip(&text, MAX_CALL_FIELD))
            } else {
                v.clone()
            };
            keep.insert(k.into(), v);
        }
    }
    Value::Object(keep)
}

/// One page of `dir/model_calls.jsonl` (only `step`'s records when given)
/// and the page's description: offset, limit, returned, total, next.
fn read_calls(dir: &Path, page: Page, step: Option<u64>) -> (Vec<Value>, Value) {
    let mut out = Vec::new();
    let mut total = 0usize;
    each_line(&dir.join("model_calls.jsonl"), |line| {
        // Records open with their step (`{"step":N,`): read from there when
        // filtering, and parse in full only the records on the page.
        let quick_step = line
            .strip_prefix("{\"step\":")
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.trim().parse::<u64>().ok());
        let on_page = |total: usize, taken: usize| total >= page.offset && taken < page.limit;
        if let (Some(want), Some(got)) = (step, quick_step)
            && want != got
        {
            return;
        }
        if quick_step.is_some() && !on_page(total, out.len()) {
            total += 1;
            return;
        }
        let Ok(rec @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
            return;
        };
        if step.is_some_and(|s| rec["step"].as_u64() != Some(s)) {
            return;
        }
        if on_page(total, out.len()) {
            out.push(viewer_call(&rec));
        }
        total += 1;
    });
    let end = page.offset + out.len();
    let info = json!({"offset": page.offset, "limit": page.limit, "returned": out.len(),
                      "total": total, "next": (end < total).then_some(end)});
    (out, info)
}

/// The viewer's picture of one run directory, with the first page of calls.
pub fn load_run(dir: &Path) -> Value {
    load_run_page(dir, Page::new(0, None))
}

/// [`load_run`] with a chosen page of calls.
pub fn load_run_page(dir: &Path, page: Page) -> Value {
    let frames = dir.join("frames");
    let frame_if = |name: String| frames.join(&name).is_file().then_some(name);
    let (page_calls, info) = read_calls(dir, page, None);
    let mut calls: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    for c in page_calls {
        calls
            .entry(c["step"].as_u64().unwrap_or(0))
            .or_default()
            .push(c);
    }
    let mut steps = Vec::new();
    each_line(&dir.join("trajectory.jsonl"), |line| {
        // A line that is not an object (a hand-edited or foreign file)
        // is skipped like an unreadable one.
        let Ok(mut row @ Value::Object(_)) = serde_json::from_str::<Value>(line) else {
            return;
        };
        let n = row["step"].as_u64().unwrap_or(0);
        row["frame"] = json!(frame_if(format!("step_{n:06}.png")));
        row["reset_frame"] = json!(frame_if(format!("step_{n:06}_reset.png")));
        row["calls"] = json!(calls.remove(&n).unwrap_or_default());
        steps.push(row);
    });
    let result_path = dir.join("result.json");
    let result = if std::fs::metadata(&result_path).is_ok_and(|m| m.len() > MAX_LISTED_RESULT) {
        json!({"error": format!("result.json is larger than {} KiB and is not shown", MAX_LISTED_RESULT / 1024)})
    } else {
        json!(read_json(&result_path))
    };
    json!({
        "result": result,
        "first_frame": frame_if("step_000000.png".into()),
        "steps": steps,
        "calls_page": info,
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
