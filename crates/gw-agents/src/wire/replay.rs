//! Replay: answer model calls from a recorded `model_calls.jsonl`, in order,
//! without the network. The agent runs its normal code path (prompting,
//! retries, parsing), so a replayed run reproduces the recorded one exactly —
//! including the recorded latencies, which real-time runs feed to the clock.

use crate::AgentError;
use crate::wire::http::HttpRequest;
use crate::wire::http::{CallMeta, HttpResponse, Transport, TransportFailure};
use serde_json::Value;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Duration;

pub struct ReplayTransport {
    source: String,
    calls: VecDeque<Value>,
}

impl ReplayTransport {
    /// Load `RUN_DIR/model_calls.jsonl` (or a path to the file itself).
    pub fn open(path: &Path) -> Result<ReplayTransport, AgentError> {
        let file = if path.is_dir() {
            path.join("model_calls.jsonl")
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&file).map_err(|e| {
            AgentError::Config(format!("cannot replay {}: {e}; --replay needs a run directory written by a model-backed run", file.display()))
        })?;
        let mut calls = VecDeque::new();
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Value = serde_json::from_str(line).map_err(|e| {
                AgentError::Config(format!(
                    "{}:{}: not a JSON call record: {e}",
                    file.display(),
                    i + 1
                ))
            })?;
            calls.push_back(v);
        }
        Ok(ReplayTransport {
            source: file.display().to_string(),
            calls,
        })
    }

    pub fn remaining(&self) -> usize {
        self.calls.len()
    }
}

impl Transport for ReplayTransport {
    fn send(
        &mut self,
        req: &HttpRequest,
        meta: CallMeta,
        _timeout: Duration,
    ) -> Result<HttpResponse, TransportFailure> {
        let fail = |message: String| TransportFailure {
            message,
            latency_ms: 0,
        };
        let rec = self.calls.pop_front().ok_or_else(|| {
            fail(format!(
                "replay of {} ran out of recorded calls at step {}",
                self.source, meta.step
            ))
        })?;
        let (step, attempt) = (rec["step"].as_u64(), rec["attempt"].as_u64());
        if step != Some(meta.step as u64) || attempt != Some(meta.attempt as u64) {
            return Err(fail(format!(
                "replay of {} diverged: the run asks for step {} attempt {}, the recording holds step {} attempt {}",
                self.source,
                meta.step,
                meta.attempt,
                step.map_or("?".into(), |s| s.to_string()),
                attempt.map_or("?".into(), |a| a.to_string())
            )));
        }
        let recorded_url = rec
            .pointer("/request/url")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !recorded_url.is_empty()
            && recorded_url != req.url
            && !recorded_url.contains(crate::wire::http::REDACTED)
        {
            return Err(fail(format!(
                "replay of {} diverged at step {}: recorded URL {recorded_url}, requested {}",
                self.source, meta.step, req.url
            )));
        }
        let latency_ms = rec["latency_ms"].as_u64().unwrap_or(0);
        if let Some(err) = rec.get("error").and_then(Value::as_str) {
            return Err(TransportFailure {
                message: err.to_string(),
                latency_ms,
            });
        }
        let status = rec["status"].as_u64().unwrap_or(200) as u16;
        let body = match (rec.get("response"), rec.get("response_text")) {
            (Some(v), _) if !v.is_null() => v.to_string(),
            (_, Some(Value::String(t))) => t.clone(),
            _ => String::new(),
        };
        let retry_after = rec
            .get("retry_after")
            .and_then(Value::as_str)
            .map(str::to_string);
        let location = rec
            .get("redirect_location")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(HttpResponse {
            status,
            body,
            retry_after,
            latency_ms,
            location,
            followed: Vec::new(),
        })
    }

    fn pause(&mut self, _d: Duration) {}
}
