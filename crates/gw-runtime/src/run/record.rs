//! What a run writes as it goes: the `trajectory.jsonl` line of each step
//! (single-role or cooperative shape), the model call files, frame names and
//! the state fingerprint that `gameworld verify` compares.

use super::result::{RoleResult, saturating_cost};
use crate::error::RunError;
use gw_core::StepRecord;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

pub(super) fn io_err(path: &Path, e: std::io::Error) -> RunError {
    RunError::Runtime(format!("cannot write {}: {e}", path.display()))
}

pub(super) fn frame_name(step: u32) -> String {
    format!("frames/step_{step:06}.png")
}

/// The first frame of the episode that a reset-on-fail started after step
/// `step` (frame `step` itself shows the failure).
pub(super) fn reset_frame_name(step: u32) -> String {
    format!("frames/step_{step:06}_reset.png")
}

/// What the agent is told when an episode failed and the game restarted.
pub(super) fn episode_end_note(state: &Value, next_episode: u32) -> String {
    let reason = state["terminal"]["reason"]
        .as_str()
        .filter(|r| !r.trim().is_empty())
        .unwrap_or("the game reported a failure");
    format!(
        "the episode ended in failure ({reason}); the game restarted as episode {}",
        next_episode + 1
    )
}

/// One `trajectory.jsonl` line. `idle_ms` lists the real-time idles the
/// game clock ran before the step (empty in paused mode), in the order they
/// ran, so `gameworld verify` can replay them.
pub(super) fn trajectory_line(
    rec: &StepRecord,
    reply: &gw_agents::Reply,
    latency_ms: u64,
    idle_ms: &[u64],
) -> Value {
    let proposed = reply.payload.as_ref();
    let fingerprint = state_fingerprint(&rec.state);
    let mut state = rec.state.clone();
    state["timestampMs"] = json!(now_ms());
    json!({
        "step": rec.step,
        "episode": rec.episode,
        "action": rec.action.as_ref().map(|a| a.to_value()),
        "control": rec.control,
        "proposed": proposed,
        "valid": rec.valid(),
        "invalid_kind": rec.invalid_kind(),
        "invalid_reason": rec.invalid.as_ref().map(|i| i.reason.clone()),
        "events": rec.events,
        "game_time_ms": rec.state["gameTimeMs"],
        "score": rec.eval.score,
        "progress": rec.eval.progress,
        "best_progress": rec.eval.best_progress,
        "latency_ms": latency_ms,
        "idle_ms": idle_ms,
        "reasoning": reply.reasoning,
        "parse_error": reply.parse_error,
        "stated_reason": reply.stated_reason,
        "usage": reply.usage,
        "cost_usd": reply.cost_usd,
        "state_fingerprint": fingerprint,
        "state": state,
    })
}

/// What an agent hears about its executed (or refused) action.
pub(super) fn outcome_summary(
    action: &Option<gw_core::Action>,
    invalid: &Option<gw_core::action::Invalid>,
) -> String {
    match (action, invalid) {
        (_, Some(inv)) => format!(
            "invalid ({}): {}",
            if inv.kind == gw_core::InvalidKind::NoToolCall {
                "no tool call"
            } else {
                "out of action space"
            },
            inv.reason
        ),
        (Some(a), None) => format!("executed {}", a.to_value()),
        (None, None) => String::new(),
    }
}

/// One `trajectory.jsonl` line of a cooperative step: the SPEC fields
/// (`action` and `control` keyed by role, `valid` when every role's action
/// was, `invalid_kind` the first role's failure) and `roles`, one entry per
/// role with its action, validity, reply and latency. `latency_ms` is the
/// charged (longest) inference time; `usage` and `cost_usd` are summed.
pub(super) fn joint_trajectory_line(
    rec: &gw_core::JointStepRecord,
    replies: &[(gw_agents::Reply, u64)],
    roles: &[RoleResult],
    charged_ms: u64,
    idle_ms: &[u64],
) -> Value {
    let fingerprint = state_fingerprint(&rec.state);
    let mut state = rec.state.clone();
    state["timestampMs"] = json!(now_ms());
    let mut actions = serde_json::Map::new();
    let mut controls = serde_json::Map::new();
    let mut proposed = serde_json::Map::new();
    let mut entries = Vec::new();
    let mut usage = gw_agents::Usage::default();
    let mut cost = 0.0;
    for ((part, (reply, latency_ms)), info) in rec.roles.iter().zip(replies).zip(roles) {
        let action = part.action.as_ref().map(|a| a.to_value());
        actions.insert(part.role.clone(), json!(action));
        controls.insert(part.role.clone(), json!(part.control));
        proposed.insert(part.role.clone(), json!(reply.payload));
        usage = usage.saturating_add(reply.usage);
        cost = saturating_cost(cost, reply.cost_usd);
        entries.push(json!({
            "role": part.role,
            "model": info.model,
            "action": action,
            "control": part.control,
            "proposed": reply.payload,
            "valid": part.valid(),
            "invalid_kind": part.invalid_kind(),
            "invalid_reason": part.invalid.as_ref().map(|i| i.reason.clone()),
            "latency_ms": latency_ms,
            "reasoning": reply.reasoning,
            "parse_error": reply.parse_error,
            "stated_reason": reply.stated_reason,
            "usage": reply.usage,
            "cost_usd": reply.cost_usd,
        }));
    }
    let first_invalid = rec.roles.iter().find(|r| !r.valid());
    json!({
        "step": rec.step,
        "episode": rec.episode,
        "action": actions,
        "control": controls,
        "proposed": proposed,
        "valid": first_invalid.is_none(),
        "invalid_kind": first_invalid.and_then(|r| r.invalid_kind()),
        "invalid_reason": first_invalid.map(|r| format!("{}: {}", r.role, r.invalid.as_ref().map(|i| i.reason.as_str()).unwrap_or(""))),
        "roles": entries,
        "events": rec.events,
        "game_time_ms": rec.state["gameTimeMs"],
        "score": rec.eval.score,
        "progress": rec.eval.progress,
        "best_progress": rec.eval.best_progress,
        "latency_ms": charged_ms,
        "idle_ms": idle_ms,
        "usage": usage,
        "cost_usd": cost,
        "state_fingerprint": fingerprint,
        "state": state,
    })
}

/// The run's record files: the trajectory, and the model call files (one per
/// role of a cooperative run, `model_calls.jsonl` otherwise), each created
/// when its first record arrives.
pub(super) struct Records {
    traj: BufWriter<File>,
    traj_path: PathBuf,
    calls: Vec<(Option<BufWriter<File>>, PathBuf)>,
}

impl Records {
    /// Create `trajectory.jsonl` (replacing an earlier run's) and plan the
    /// call files at `calls_paths`, one per agent.
    pub(super) fn create(
        traj_path: PathBuf,
        calls_paths: Vec<PathBuf>,
    ) -> Result<Records, RunError> {
        let traj = BufWriter::new(File::create(&traj_path).map_err(|e| io_err(&traj_path, e))?);
        Ok(Records {
            traj,
            traj_path,
            calls: calls_paths.into_iter().map(|p| (None, p)).collect(),
        })
    }

    /// Append one step's line to `trajectory.jsonl`.
    pub(super) fn trajectory(&mut self, line: &Value) -> Result<(), RunError> {
        append_lines(&mut self.traj, &self.traj_path, std::slice::from_ref(line))
    }

    /// Append agent `role`'s call records to its call file.
    pub(super) fn calls(&mut self, role: usize, calls: &[Value]) -> Result<(), RunError> {
        let (out, path) = &mut self.calls[role];
        write_calls(out, path, calls)
    }
}

/// Append call records to `model_calls.jsonl`, creating it on first use.
fn write_calls(
    out: &mut Option<BufWriter<File>>,
    path: &Path,
    calls: &[Value],
) -> Result<(), RunError> {
    if calls.is_empty() {
        return Ok(());
    }
    if out.is_none() {
        *out = Some(BufWriter::new(
            File::create(path).map_err(|e| io_err(path, e))?,
        ));
    }
    append_lines(out.as_mut().expect("opened above"), path, calls)
}

/// Append JSON lines to a `.jsonl` file and flush them (secrets masked).
fn append_lines(out: &mut BufWriter<File>, path: &Path, lines: &[Value]) -> Result<(), RunError> {
    for line in lines {
        let line = gw_agents::secrets::value(line);
        serde_json::to_writer(&mut *out, &line).map_err(|e| RunError::Runtime(e.to_string()))?;
        out.write_all(b"\n").map_err(|e| io_err(path, e))?;
    }
    out.flush().map_err(|e| io_err(path, e))
}

/// The fingerprint of a gameAPI snapshot recorded in each trajectory line
/// (`state_fingerprint`): SHA-256 of a canonical form of the state without
/// the wall-clock `timestampMs` (keys in order, integers as written,
/// other numbers to 12 significant digits so a JSON round trip keeps the
/// fingerprint), first 128 bits in hex.
pub fn state_fingerprint(state: &Value) -> String {
    fn feed(h: &mut Sha256, v: &Value, top: bool) {
        match v {
            Value::Object(map) => {
                h.update(b"{");
                for (k, x) in map {
                    if top && k == "timestampMs" {
                        continue;
                    }
                    h.update(k.as_bytes());
                    h.update(b":");
                    feed(h, x, false);
                    h.update(b",");
                }
                h.update(b"}");
            }
            Value::Array(items) => {
                h.update(b"[");
                for x in items {
                    feed(h, x, false);
                    h.update(b",");
                }
                h.update(b"]");
            }
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    h.update(i.to_string().as_bytes());
                } else if let Some(u) = n.as_u64() {
                    h.update(u.to_string().as_bytes());
                } else {
                    let f = n.as_f64().unwrap_or(0.0);
                    h.update(format!("{f:.11e}").as_bytes());
                }
            }
            Value::String(s) => {
                h.update(b"\"");
                h.update(s.as_bytes());
                h.update(b"\"");
            }
            other => h.update(other.to_string().as_bytes()),
        }
    }
    let mut h = Sha256::new();
    feed(&mut h, state, true);
    let digest = h.finalize();
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}
