//! The gameAPI state snapshot every game returns from `get_state()`.
//!
//! Field names follow the SPEC's JSON schema exactly (`gameId`, `timestampMs`,
//! `gameTimeMs`, `terminal.isTerminal`, …); tasks address values inside it by
//! dotted paths such as `game_state.score` or `metrics.correct_flags`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Lifecycle status consumed by the readiness gate and the evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Loading,
    Menu,
    Ready,
    Playing,
    Paused,
    Terminal,
}

impl Status {
    /// Whether an agent may act (the readiness gate's default set).
    pub fn is_actionable(self) -> bool {
        matches!(self, Status::Ready | Status::Playing)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Success,
    Fail,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Terminal {
    #[serde(rename = "isTerminal")]
    pub is_terminal: bool,
    pub outcome: Option<Outcome>,
    pub reason: Option<String>,
}

impl Terminal {
    pub fn running() -> Self {
        Terminal::default()
    }

    /// The lifecycle status of a game that is either running or ended:
    /// `terminal` once ended, `playing` before.
    pub fn status(&self) -> Status {
        if self.is_terminal {
            Status::Terminal
        } else {
            Status::Playing
        }
    }

    pub fn ended(outcome: Outcome, reason: impl Into<String>) -> Self {
        Terminal {
            is_terminal: true,
            outcome: Some(outcome),
            reason: Some(reason.into()),
        }
    }
}

/// The verifiable state snapshot (`getState()`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameApiState {
    #[serde(rename = "gameId")]
    pub game_id: String,
    pub seed: u64,
    /// Wall-clock time of the snapshot; filled in by the runtime (games never
    /// read the wall clock), excluded from determinism comparisons.
    #[serde(rename = "timestampMs")]
    pub timestamp_ms: u64,
    #[serde(rename = "gameTimeMs")]
    pub game_time_ms: u64,
    pub status: Status,
    pub terminal: Terminal,
    pub game_state: Map<String, Value>,
    pub metrics: Map<String, Value>,
    pub raw: Map<String, Value>,
    /// Top-level fields beyond the schema (a browser game's `schemaVersion`,
    /// `is_actionable`, …), kept so the trajectory loses nothing the page
    /// reported. Empty, and absent from the JSON, for native games.
    #[serde(flatten, default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

impl GameApiState {
    /// A snapshot with the common fields set and empty sections.
    pub fn new(
        game_id: &str,
        seed: u64,
        game_time_ms: u64,
        status: Status,
        terminal: Terminal,
    ) -> Self {
        GameApiState {
            game_id: game_id.to_string(),
            seed,
            timestamp_ms: 0,
            game_time_ms,
            status,
            terminal,
            game_state: Map::new(),
            metrics: Map::new(),
            raw: Map::new(),
            extra: Map::new(),
        }
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("state serializes")
    }

    /// What the evaluator reads, without converting the whole snapshot: a
    /// JSON object holding `terminal` and, for each dotted path of `paths`
    /// (a task's score and end fields), the subtree under its first two
    /// parts. `lookup(&view, p)` equals `lookup(&self.to_value(), p)` for
    /// every `p` of `paths` and every path under `terminal`.
    pub fn view(&self, paths: &[String]) -> Value {
        let mut out = Map::new();
        out.insert(
            "terminal".into(),
            serde_json::to_value(&self.terminal).expect("terminal serializes"),
        );
        for path in paths {
            let mut parts = path.splitn(3, '.');
            let head = parts.next().unwrap_or("");
            let key = parts.next();
            let section = match head {
                "game_state" => &self.game_state,
                "metrics" => &self.metrics,
                "raw" => &self.raw,
                "terminal" => continue,
                "gameId" | "seed" | "timestampMs" | "gameTimeMs" | "status" => {
                    let whole = self.to_value();
                    if let Some(v) = whole.get(head) {
                        out.insert(head.into(), v.clone());
                    }
                    continue;
                }
                _ => {
                    if let Some(v) = self.extra.get(head) {
                        out.insert(head.into(), v.clone());
                    }
                    continue;
                }
            };
            let slot = out
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            match key {
                None => *slot = Value::Object(section.clone()),
                Some(k) => {
                    if let (Some(v), Value::Object(m)) = (section.get(k), slot) {
                        m.insert(k.to_string(), v.clone());
                    }
                }
            }
        }
        Value::Object(out)
    }
}

/// An evaluator view ([`GameApiState::view`]) built from a game's own
/// fields, for games whose snapshot is costly: `field(path)` gives the
/// value the snapshot holds at `path` (exactly, as [`set`] would store it),
/// or `None` when the game does not know it cheaply, in which case the
/// view comes from `whole()`. `terminal` is the snapshot's terminal.
pub fn view_from(
    paths: &[String],
    terminal: &Terminal,
    field: impl Fn(&str) -> Option<Value>,
    whole: impl FnOnce() -> GameApiState,
) -> Value {
    let mut out = Map::new();
    out.insert(
        "terminal".into(),
        serde_json::to_value(terminal).expect("terminal serializes"),
    );
    for path in paths {
        if path == "terminal" || path.starts_with("terminal.") {
            continue;
        }
        let Some(v) = field(path) else {
            return whole().view(paths);
        };
        let mut parts: Vec<&str> = path.split('.').collect();
        let last = parts.pop().unwrap_or("");
        let mut cur = &mut out;
        for p in parts {
            let slot = cur
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            match slot {
                Value::Object(m) => cur = m,
                _ => return whole().view(paths),
            }
        }
        cur.insert(last.to_string(), v);
    }
    Value::Object(out)
}

/// Insert helper for building sections: `set(&mut s.game_state, "score", 12)`.
pub fn set(map: &mut Map<String, Value>, key: &str, value: impl Into<Value>) {
    map.insert(key.to_string(), value.into());
}

/// Look up a dotted path (`game_state.score`, `terminal.isTerminal`,
/// `game_state.player.x`, `metrics.items.0`) in a state value.
pub fn lookup<'a>(state: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = state;
    for part in path.split('.') {
        cur = match cur {
            Value::Object(map) => map.get(part)?,
            Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A state value read as a number: numbers as they are, booleans as 0/1,
/// numeric strings parsed; anything else is `None`.
pub fn as_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
}

/// Whether a value counts as "set" for an end-field rule.
pub fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty() && s != "false" && s != "0",
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn view_looks_up_what_the_whole_snapshot_does() {
        let mut s = GameApiState::new(
            "01_2048",
            3,
            400,
            Status::Terminal,
            Terminal::ended(Outcome::Fail, "stuck"),
        );
        set(&mut s.game_state, "score", 8);
        set(
            &mut s.game_state,
            "task",
            json!({"obtained": 2, "deep": {"x": [1, 2]}}),
        );
        set(&mut s.game_state, "big", json!(vec![0; 64]));
        set(&mut s.metrics, "lines", 3);
        s.extra.insert("is_actionable".into(), json!(true));
        let paths: Vec<String> = [
            "game_state.score",
            "game_state.task.deep.x.1",
            "metrics.lines",
            "metrics.absent",
            "gameTimeMs",
            "is_actionable",
            "raw.nothing",
            "terminal.outcome",
        ]
        .map(String::from)
        .to_vec();
        let view = s.view(&paths);
        let whole = s.to_value();
        for p in paths
            .iter()
            .map(String::as_str)
            .chain(["terminal.isTerminal", "terminal.reason"])
        {
            assert_eq!(lookup(&view, p), lookup(&whole, p), "{p}");
        }
        assert_eq!(lookup(&view, "game_state.task.deep.x.1"), Some(&json!(2)));
        // What no path names stays out.
        assert!(lookup(&view, "game_state.big").is_none());
    }

    #[test]
    fn schema_field_names() {
        let mut s = GameApiState::new("01_2048", 3, 400, Status::Playing, Terminal::running());
        set(&mut s.game_state, "score", 8);
        let v = s.to_value();
        assert_eq!(v["gameId"], "01_2048");
        assert_eq!(v["gameTimeMs"], 400);
        assert_eq!(v["status"], "playing");
        assert_eq!(v["terminal"]["isTerminal"], false);
        assert_eq!(v["terminal"]["outcome"], Value::Null);
        assert_eq!(lookup(&v, "game_state.score"), Some(&json!(8)));
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "gameId",
                "seed",
                "timestampMs",
                "gameTimeMs",
                "status",
                "terminal",
                "game_state",
                "metrics",
                "raw"
            ]
        );
    }

    #[test]
    fn lookup_paths_and_numbers() {
        let v = json!({"a": {"b": [1, {"c": "2.5"}]}, "t": true});
        assert_eq!(lookup(&v, "a.b.0"), Some(&json!(1)));
        assert_eq!(as_number(lookup(&v, "a.b.1.c").unwrap()), Some(2.5));
        assert_eq!(as_number(lookup(&v, "t").unwrap()), Some(1.0));
        assert!(lookup(&v, "a.x").is_none());
        assert!(is_truthy(&json!(true)) && !is_truthy(&json!(0)) && !is_truthy(&Value::Null));
    }
}
