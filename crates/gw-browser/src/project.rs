//! Reading a page's `getState()` leniently and projecting it onto the
//! evaluator's schema ([`GameApiState`]) without losing the page's fields.
//!
//! Accepted: schema versions 1 and 2, `debug` or `raw`, `game_state` or
//! `gameState`, `is_actionable` or `isActionable`, null `seed`/`gameTimeMs`
//! (loading skeletons), outcomes beyond success/fail. Whatever had to be
//! changed is kept under `page_values` (the page's original value per field);
//! unknown top-level fields are kept as they are.

use gw_core::state::{GameApiState, Outcome, Status, Terminal};
use serde_json::{Map, Value};

/// Fields the schema owns; everything else at the top level is kept as is.
const KNOWN: [&str; 13] = [
    "gameId",
    "seed",
    "timestampMs",
    "gameTimeMs",
    "status",
    "terminal",
    "game_state",
    "gameState",
    "metrics",
    "raw",
    "debug",
    "is_actionable",
    "isActionable",
];

/// Host-side facts used where the page reports nothing usable.
pub struct HostView<'a> {
    pub game_id: &'a str,
    pub seed: u64,
    /// The host's virtual clock (ms of game time since the page loaded).
    pub game_time_ms: f64,
}

/// `terminal.outcome` in the evaluator's terms. `aborted`, `quit` and
/// other endings are terminal without a success or failure: the run stops
/// (`game_terminal`) instead of resetting.
pub fn map_outcome(raw: &str) -> Option<Outcome> {
    match raw
        .trim()
        .to_ascii_lowercase()
        .replace(['-', ' '], "_")
        .as_str()
    {
        "success" | "win" | "won" | "victory" | "complete" | "completed" | "cleared" => {
            Some(Outcome::Success)
        }
        "fail" | "failure" | "failed" | "lose" | "lost" | "loss" | "dead" | "death" | "died"
        | "gameover" | "game_over" | "timeout" | "crashed" => Some(Outcome::Fail),
        _ => None,
    }
}

fn map_status(raw: &str) -> Option<Status> {
    Some(match raw.trim().to_ascii_lowercase().as_str() {
        "loading" | "boot" | "booting" | "init" | "initializing" => Status::Loading,
        "menu" | "title" | "start" | "idle" => Status::Menu,
        "ready" => Status::Ready,
        "playing" | "running" | "active" | "play" => Status::Playing,
        "paused" | "pause" => Status::Paused,
        "terminal" | "gameover" | "game_over" | "over" | "ended" | "finished" | "done" => {
            Status::Terminal
        }
        _ => return None,
    })
}

fn truthy(v: Option<&Value>) -> bool {
    v.is_some_and(gw_core::state::is_truthy)
}

fn as_u64(v: Option<&Value>) -> Option<u64> {
    let f = v?.as_f64()?;
    (0.0..1.8e19).contains(&f).then(|| f.round() as u64)
}

fn object(v: Option<&Value>) -> Option<Map<String, Value>> {
    v.and_then(Value::as_object).cloned()
}

/// The page's actionable flag when it reports one.
pub fn actionable_flag(page: &Value) -> Option<bool> {
    page.get("is_actionable")
        .or_else(|| page.get("isActionable"))
        .and_then(Value::as_bool)
}

/// The readiness rule: `is_actionable` when the page reports it, else status
/// `ready` or `playing`.
pub fn page_ready(page: &Value) -> bool {
    match actionable_flag(page) {
        Some(flag) => flag,
        None => page
            .get("status")
            .and_then(Value::as_str)
            .and_then(map_status)
            .is_some_and(Status::is_actionable),
    }
}

/// The page's status string, for error messages.
pub fn status_text(page: &Value) -> String {
    match page.get("status") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => "(no status)".into(),
    }
}

/// Project one `getState()` value. Errors only when it is not an object.
pub fn project(page: &Value, host: &HostView<'_>) -> Result<GameApiState, String> {
    let obj = page
        .as_object()
        .ok_or_else(|| format!("gameAPI.getState() returned {page}, not an object"))?;
    let mut changed = Map::new();
    let mut keep = |field: &str, v: Option<&Value>| {
        changed.insert(field.to_string(), v.cloned().unwrap_or(Value::Null));
    };

    let game_id = match obj.get("gameId") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        other => {
            if other.is_some() {
                keep("gameId", other);
            }
            host.game_id.to_string()
        }
    };
    let seed = match as_u64(obj.get("seed")) {
        Some(s)
            if obj
                .get("seed")
                .and_then(Value::as_f64)
                .is_some_and(|f| f.fract() == 0.0) =>
        {
            s
        }
        _ => {
            keep("seed", obj.get("seed"));
            host.seed
        }
    };
    let timestamp_ms = as_u64(obj.get("timestampMs")).unwrap_or(0);
    let game_time_ms = match as_u64(obj.get("gameTimeMs")) {
        Some(t) => t,
        None => {
            keep("gameTimeMs", obj.get("gameTimeMs"));
            host.game_time_ms.max(0.0).round() as u64
        }
    };

    let term_obj = obj.get("terminal").and_then(Value::as_object);
    let raw_outcome = term_obj.and_then(|t| t.get("outcome"));
    let outcome = raw_outcome.and_then(Value::as_str).and_then(map_outcome);
    if raw_outcome.is_some_and(|o| !o.is_null())
        && outcome.map(outcome_name) != raw_outcome.and_then(Value::as_str)
    {
        keep("terminal.outcome", raw_outcome);
    }
    let status_raw = obj.get("status");
    let mapped_status = status_raw.and_then(Value::as_str).and_then(map_status);
    let is_terminal = term_obj
        .map(|t| truthy(t.get("isTerminal")) || truthy(t.get("is_terminal")))
        .unwrap_or(false)
        || mapped_status == Some(Status::Terminal);
    let reason = term_obj
        .and_then(|t| t.get("reason"))
        .and_then(|r| match r {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        });
    let status = match mapped_status {
        Some(s) => s,
        None => {
            keep("status", status_raw);
            if is_terminal {
                Status::Terminal
            } else if actionable_flag(page) == Some(true) {
                Status::Playing
            } else {
                Status::Loading
            }
        }
    };
    let terminal = Terminal {
        is_terminal,
        outcome: if is_terminal { outcome } else { None },
        reason,
    };

    let mut state = GameApiState::new(&game_id, seed, game_time_ms, status, terminal);
    state.timestamp_ms = timestamp_ms;
    state.game_state = object(obj.get("game_state"))
        .or_else(|| object(obj.get("gameState")))
        .unwrap_or_default();
    state.metrics = object(obj.get("metrics")).unwrap_or_default();
    match (object(obj.get("raw")), object(obj.get("debug"))) {
        (Some(raw), debug) => {
            state.raw = raw;
            if let Some(d) = debug {
                state.extra.insert("debug".into(), Value::Object(d));
            }
        }
        (None, Some(debug)) => state.raw = debug,
        (None, None) => {}
    }
    for (k, v) in obj {
        if !KNOWN.contains(&k.as_str()) {
            state.extra.insert(k.clone(), v.clone());
        }
    }
    if let Some(flag) = obj.get("is_actionable").or_else(|| obj.get("isActionable")) {
        state.extra.insert("is_actionable".into(), flag.clone());
    }
    if !changed.is_empty() {
        state
            .extra
            .insert("page_values".into(), Value::Object(changed));
    }
    Ok(state)
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Success => "success",
        Outcome::Fail => "fail",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn host() -> HostView<'static> {
        HostView {
            game_id: "web_test",
            seed: 7,
            game_time_ms: 1234.4,
        }
    }

    #[test]
    fn v2_state_projects_and_keeps_page_fields() {
        let page = json!({
            "schemaVersion": "2.0", "gameId": "orbs", "seed": 3, "timestampMs": 99,
            "gameTimeMs": 500, "status": "playing", "is_actionable": true,
            "terminal": {"isTerminal": false, "outcome": null, "reason": null},
            "game_state": {"score": 4, "level": 2}, "metrics": {"primary_score": 4},
            "debug": {"fps": 60}
        });
        let s = project(&page, &host()).unwrap();
        let v = s.to_value();
        assert_eq!(v["gameId"], "orbs");
        assert_eq!(v["seed"], 3);
        assert_eq!(v["gameTimeMs"], 500);
        assert_eq!(v["status"], "playing");
        assert_eq!(v["game_state"]["score"], 4);
        assert_eq!(v["raw"]["fps"], 60);
        assert_eq!(v["schemaVersion"], "2.0");
        assert_eq!(v["is_actionable"], true);
        assert!(v.get("page_values").is_none());
        assert!(page_ready(&page));
    }

    #[test]
    fn loading_skeleton_with_nulls() {
        let page = json!({
            "schemaVersion": "1.0", "gameId": null, "seed": null, "timestampMs": null,
            "gameTimeMs": null, "status": "loading",
            "terminal": {"isTerminal": false, "outcome": null, "reason": null},
            "game_state": {"score": null}, "metrics": {}, "raw": {}
        });
        let s = project(&page, &host()).unwrap();
        assert_eq!(s.game_id, "web_test");
        assert_eq!(s.seed, 7);
        assert_eq!(s.game_time_ms, 1234);
        assert_eq!(s.status, Status::Loading);
        let v = s.to_value();
        assert_eq!(v["page_values"]["seed"], Value::Null);
        assert_eq!(v["page_values"]["gameTimeMs"], Value::Null);
        assert!(!page_ready(&page));
    }

    #[test]
    fn outcomes_beyond_success_and_fail() {
        let t = |outcome: &str| {
            let page = json!({"status": "terminal", "terminal": {"isTerminal": true, "outcome": outcome, "reason": "x"}});
            project(&page, &host()).unwrap()
        };
        assert_eq!(t("success").terminal.outcome, Some(Outcome::Success));
        assert_eq!(t("fail").terminal.outcome, Some(Outcome::Fail));
        let aborted = t("aborted");
        assert!(aborted.terminal.is_terminal);
        assert_eq!(aborted.terminal.outcome, None);
        assert_eq!(
            aborted.to_value()["page_values"]["terminal.outcome"],
            "aborted"
        );
        assert_eq!(t("quit").terminal.outcome, None);
        // A terminal status without a terminal block still ends the episode.
        let bare = project(&json!({"status": "gameover"}), &host()).unwrap();
        assert!(bare.terminal.is_terminal && bare.status == Status::Terminal);
    }

    #[test]
    fn actionable_flag_decides_readiness() {
        assert!(!page_ready(
            &json!({"status": "playing", "is_actionable": false})
        ));
        assert!(page_ready(
            &json!({"status": "menu", "is_actionable": true})
        ));
        assert!(page_ready(&json!({"status": "ready"})));
        assert!(!page_ready(&json!({"status": "menu"})));
        let odd = project(&json!({"status": "weird", "isActionable": true}), &host()).unwrap();
        assert_eq!(odd.status, Status::Playing);
        assert_eq!(odd.to_value()["page_values"]["status"], "weird");
        assert!(
            project(&json!([1, 2]), &host())
                .unwrap_err()
                .contains("not an object")
        );
    }
}
