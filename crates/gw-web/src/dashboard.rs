//! The live suite dashboard. Everything comes from the files a running suite
//! already writes (`suite.json`, each run's `trajectory.jsonl`, `result.json`
//! or `error.json`, `suite_errors.jsonl`), so it follows a suite started by
//! any `gameworld suite` process on this machine, and a finished one too.

use crate::paths::{plain_relative, read_json, read_regular, read_text, resolve};
use crate::runs::RunQuery;
use crate::{ApiError, AppState, not_found};
use axum::Json;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn line_count(path: &Path) -> usize {
    read_regular(path)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}

/// The suite's state now.
pub fn suite_status(dir: &Path) -> Value {
    let manifest = read_json(&dir.join("suite.json")).unwrap_or(Value::Null);
    let planned = manifest["runs"].as_array().cloned().unwrap_or_default();
    let (mut done, mut running, mut pending, mut failed) = (0usize, 0usize, 0usize, 0usize);
    let (mut successes, mut progress_sum) = (0usize, 0.0f64);
    let (mut tokens_in, mut tokens_out, mut cost) = (0u64, 0u64, 0.0f64);
    let mut rows = Vec::new();
    for run in &planned {
        let rel = run["dir"].as_str().unwrap_or("");
        // suite.json is a file like any other under the runs root: a run
        // folder it names must stay inside the suite's folder.
        let Some(rel_path) = plain_relative(rel).filter(|p| !p.as_os_str().is_empty()) else {
            failed += 1;
            rows.push(json!({
                "preset": run["preset"],
                "seed": run["seed"],
                "repeat": run["repeat"],
                "dir": rel,
                "status": "error",
                "steps": 0,
                "success": null,
                "progress": null,
                "error": "suite.json names a run folder outside the suite's folder; it is not read",
            }));
            continue;
        };
        let run_dir = dir.join(rel_path);
        let result = read_json(&run_dir.join("result.json"));
        let error = read_json(&run_dir.join("error.json"));
        let steps_so_far = line_count(&run_dir.join("trajectory.jsonl"));
        let status = if let Some(r) = &result {
            done += 1;
            successes += r["success"].as_bool().unwrap_or(false) as usize;
            progress_sum += r["progress"].as_f64().unwrap_or(0.0);
            tokens_in += r["input_tokens"].as_u64().unwrap_or(0);
            tokens_out += r["output_tokens"].as_u64().unwrap_or(0);
            cost += r["cost_usd"]
                .as_f64()
                .filter(|c| c.is_finite())
                .unwrap_or(0.0);
            if r["error"].is_string() {
                failed += 1;
                "error"
            } else {
                "finished"
            }
        } else if error.is_some() {
            failed += 1;
            "error"
        } else if run_dir.join("trajectory.jsonl").is_file() {
            running += 1;
            "running"
        } else {
            pending += 1;
            "pending"
        };
        rows.push(json!({
            "preset": run["preset"],
            "seed": run["seed"],
            "repeat": run["repeat"],
            "dir": rel,
            "status": status,
            "steps": result.as_ref().map(|r| r["steps"].clone()).unwrap_or(json!(steps_so_far)),
            "success": result.as_ref().map(|r| r["success"].clone()),
            "progress": result.as_ref().map(|r| r["progress"].clone()),
            "error": result.as_ref().and_then(|r| r["error"].as_str().map(String::from))
                .or_else(|| error.as_ref().and_then(|e| e["error"].as_str().map(String::from))),
        }));
    }
    let mut errors: Vec<Value> = read_text(&dir.join(gw_runtime::suite::ERROR_LOG))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let n_err = errors.len();
    errors.drain(..n_err.saturating_sub(20));
    let finished = done.max(1) as f64;
    json!({
        "name": manifest["suite"]["name"],
        "planned": planned.len(),
        "done": done,
        "running": running,
        "pending": pending,
        "failed": failed,
        "sr": if done > 0 { Some(successes as f64 / finished) } else { None },
        "pg": if done > 0 { Some(progress_sum / finished) } else { None },
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "cost_usd": cost,
        "runs": rows,
        "errors": errors,
        "complete": !planned.is_empty() && running == 0 && pending == 0,
        // The suite's report, once written (the suite writes it at its end).
        "report": dir.join("report.html").is_file(),
    })
}

fn suite_dir(st: &AppState, q: &RunQuery) -> Result<PathBuf, ApiError> {
    let dir = resolve(&st.roots, q.root, &q.path)?;
    if !dir.join("suite.json").is_file() {
        return Err(not_found(format!(
            "{} is not a suite output folder",
            q.path
        )));
    }
    Ok(dir)
}

pub async fn snapshot(
    State(st): State<Arc<AppState>>,
    Query(q): Query<RunQuery>,
) -> Result<Json<Value>, ApiError> {
    let dir = suite_dir(&st, &q)?;
    let v = tokio::task::spawn_blocking(move || suite_status(&dir))
        .await
        .unwrap_or(Value::Null);
    Ok(Json(v))
}

/// Server-sent events: the suite's status whenever it changes (checked twice
/// a second).
pub async fn events(
    State(st): State<Arc<AppState>>,
    Query(q): Query<RunQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let dir = suite_dir(&st, &q)?;
    // One place per open stream; it is freed when the client goes away.
    let slot = st.live.take(st.limits.max_live_updates).ok_or_else(|| {
        ApiError(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{} live-update streams are open, the most this server keeps; close other dashboard tabs or reload later",
                st.limits.max_live_updates
            ),
        )
    })?;
    let stream = futures_util::stream::unfold(
        (dir, String::new(), true),
        |(dir, last, first)| async move {
            let mut first = first;
            loop {
                if !first {
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                let d = dir.clone();
                let now = tokio::task::spawn_blocking(move || suite_status(&d))
                    .await
                    .unwrap_or(Value::Null)
                    .to_string();
                if now != last || first {
                    let ev = Event::default().event("status").data(now.clone());
                    return Some((Ok(ev), (dir, now, false)));
                }
                first = false;
            }
        },
    );
    let stream = futures_util::StreamExt::map(stream, move |event| {
        let _held = &slot;
        event
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
