//! The action layer: atomic input events, normalized actions, role-aware
//! legality, and Semantic Action Parsing.
//!
//! Flow for one step: an agent proposes a JSON payload → for a generalist
//! agent [`SemanticMap::resolve`] maps the semantic id to its bound low-level
//! action, for a computer-use agent [`parse_action`] reads it directly → the
//! role's [`RoleControls::legalize`] checks it and fills in durations →
//! [`Action::to_events`] expands it into timed atomic events the runtime plays
//! into the game. Providers never decide legality; this module does.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// How long a click holds the button down, in seconds of game time.
pub const CLICK_SECONDS: f64 = 0.05;
/// Default hold for a key press when the role sets none (SPEC: 0.2 s).
pub const DEFAULT_HOLD_SECONDS: f64 = 0.2;
/// Default wait when a wait action names no duration.
pub const DEFAULT_WAIT_SECONDS: f64 = 0.5;
/// Game time one native action lasts when its binding names no duration
/// (one 20 Hz control tick).
pub const NATIVE_TICK_SECONDS: f64 = 0.05;
/// Per-character hold when typing text.
pub const TYPE_KEY_SECONDS: f64 = 0.05;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    #[default]
    Left,
    Right,
    Middle,
}

/// Atomic input events, the execution-level action space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum InputEvent {
    MouseMove {
        x: f32,
        y: f32,
    },
    MouseDown {
        x: f32,
        y: f32,
        button: MouseButton,
    },
    MouseUp {
        x: f32,
        y: f32,
        button: MouseButton,
    },
    KeyDown {
        key: String,
    },
    KeyUp {
        key: String,
    },
    Scroll {
        x: f32,
        y: f32,
        dx: f32,
        dy: f32,
    },
    /// A game's own structured action for one control tick (the open world's
    /// factored action), delivered as is; see [`Action::Native`].
    Native {
        args: Map<String, Value>,
    },
}

impl InputEvent {
    /// A key event's key and whether it went down (`KeyDown`) or up
    /// (`KeyUp`); `None` for mouse events. Games that track held keys
    /// start their `handle_event` here.
    pub fn key_change(&self) -> Option<(&str, bool)> {
        match self {
            InputEvent::KeyDown { key } => Some((key, true)),
            InputEvent::KeyUp { key } => Some((key, false)),
            _ => None,
        }
    }
}

/// One item of an executed action: an input event, or game time passing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TimedEvent {
    Input(InputEvent),
    Wait { wait_ms: u64 },
}

/// The normalized runtime action schema (one action per step).
/// Durations are in seconds of game time; `None` means "the role's default".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Click {
        x: f64,
        y: f64,
        #[serde(default)]
        button: MouseButton,
        #[serde(default = "one")]
        clicks: u32,
    },
    ClickHold {
        x: f64,
        y: f64,
        #[serde(default)]
        button: MouseButton,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
    Drag {
        from_x: f64,
        from_y: f64,
        x: f64,
        y: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
    MouseMove {
        x: f64,
        y: f64,
    },
    Scroll {
        x: f64,
        y: f64,
        #[serde(default)]
        dx: f64,
        #[serde(default)]
        dy: f64,
    },
    Type {
        text: String,
    },
    PressKey {
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
    PressKeys {
        keys: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
    Wait {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
    /// A game's native structured action (the open world's factored action,
    /// Optimus-2 Table 6): the named arguments go to the game in one
    /// [`InputEvent::Native`], then `duration` of game time passes. The game
    /// checks the arguments (`Game::check_native`); bindings write
    /// `{action: native, duration: 0.05}` and declare the arguments as parameters.
    Native {
        #[serde(default)]
        args: Map<String, Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        duration: Option<f64>,
    },
}

fn one() -> u32 {
    1
}

impl Action {
    pub fn wait(seconds: f64) -> Action {
        Action::Wait {
            duration: Some(seconds),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Action::Click { .. } => "click",
            Action::ClickHold { .. } => "click_hold",
            Action::Drag { .. } => "drag",
            Action::MouseMove { .. } => "mouse_move",
            Action::Scroll { .. } => "scroll",
            Action::Type { .. } => "type",
            Action::PressKey { .. } => "press_key",
            Action::PressKeys { .. } => "press_keys",
            Action::Wait { .. } => "wait",
            Action::Native { .. } => "native",
        }
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("action serializes")
    }

    /// Expand into timed atomic events. `speed` is the game's speed multiplier
    /// (game seconds per real second of hold). Durations must already be
    /// resolved by [`RoleControls::legalize`]; unresolved ones use defaults.
    pub fn to_events(&self, speed: f64) -> Vec<TimedEvent> {
        let ms = |seconds: f64| -> u64 { (seconds * 1000.0 * speed).round().max(0.0) as u64 };
        let input = TimedEvent::Input;
        let fx = |v: f64| v as f32;
        match self {
            Action::Click {
                x,
                y,
                button,
                clicks,
            } => {
                let (x, y) = (fx(*x), fx(*y));
                let mut out = vec![input(InputEvent::MouseMove { x, y })];
                for _ in 0..(*clicks).max(1) {
                    out.push(input(InputEvent::MouseDown {
                        x,
                        y,
                        button: *button,
                    }));
                    out.push(TimedEvent::Wait {
                        wait_ms: ms(CLICK_SECONDS),
                    });
                    out.push(input(InputEvent::MouseUp {
                        x,
                        y,
                        button: *button,
                    }));
                }
                out
            }
            Action::ClickHold {
                x,
                y,
                button,
                duration,
            } => {
                let (x, y) = (fx(*x), fx(*y));
                vec![
                    input(InputEvent::MouseMove { x, y }),
                    input(InputEvent::MouseDown {
                        x,
                        y,
                        button: *button,
                    }),
                    TimedEvent::Wait {
                        wait_ms: ms(duration.unwrap_or(DEFAULT_HOLD_SECONDS)),
                    },
                    input(InputEvent::MouseUp {
                        x,
                        y,
                        button: *button,
                    }),
                ]
            }
            Action::Drag {
                from_x,
                from_y,
                x,
                y,
                duration,
            } => {
                let (sx, sy, ex, ey) = (fx(*from_x), fx(*from_y), fx(*x), fx(*y));
                let total = ms(duration.unwrap_or(DEFAULT_HOLD_SECONDS));
                let mut out = vec![
                    input(InputEvent::MouseMove { x: sx, y: sy }),
                    input(InputEvent::MouseDown {
                        x: sx,
                        y: sy,
                        button: MouseButton::Left,
                    }),
                ];
                // Move in a few segments so games see a path, not a teleport.
                const SEGMENTS: u64 = 4;
                for i in 1..=SEGMENTS {
                    let t = i as f32 / SEGMENTS as f32;
                    out.push(TimedEvent::Wait {
                        wait_ms: total / SEGMENTS,
                    });
                    out.push(input(InputEvent::MouseMove {
                        x: sx + (ex - sx) * t,
                        y: sy + (ey - sy) * t,
                    }));
                }
                out.push(input(InputEvent::MouseUp {
                    x: ex,
                    y: ey,
                    button: MouseButton::Left,
                }));
                out
            }
            Action::MouseMove { x, y } => vec![input(InputEvent::MouseMove {
                x: fx(*x),
                y: fx(*y),
            })],
            Action::Scroll { x, y, dx, dy } => vec![
                input(InputEvent::MouseMove {
                    x: fx(*x),
                    y: fx(*y),
                }),
                input(InputEvent::Scroll {
                    x: fx(*x),
                    y: fx(*y),
                    dx: *dx as f32,
                    dy: *dy as f32,
                }),
            ],
            Action::Type { text } => {
                let mut out = Vec::new();
                for ch in text.chars() {
                    let key = char_key(ch);
                    out.push(input(InputEvent::KeyDown { key: key.clone() }));
                    out.push(TimedEvent::Wait {
                        wait_ms: ms(TYPE_KEY_SECONDS),
                    });
                    out.push(input(InputEvent::KeyUp { key }));
                }
                out
            }
            Action::PressKey { key, duration } => vec![
                input(InputEvent::KeyDown { key: key.clone() }),
                TimedEvent::Wait {
                    wait_ms: ms(duration.unwrap_or(DEFAULT_HOLD_SECONDS)),
                },
                input(InputEvent::KeyUp { key: key.clone() }),
            ],
            Action::PressKeys { keys, duration } => {
                let mut out: Vec<TimedEvent> = keys
                    .iter()
                    .map(|k| input(InputEvent::KeyDown { key: k.clone() }))
                    .collect();
                out.push(TimedEvent::Wait {
                    wait_ms: ms(duration.unwrap_or(DEFAULT_HOLD_SECONDS)),
                });
                out.extend(
                    keys.iter()
                        .rev()
                        .map(|k| input(InputEvent::KeyUp { key: k.clone() })),
                );
                out
            }
            Action::Wait { duration } => vec![TimedEvent::Wait {
                wait_ms: ms(duration.unwrap_or(DEFAULT_WAIT_SECONDS)),
            }],
            Action::Native { args, duration } => vec![
                input(InputEvent::Native { args: args.clone() }),
                TimedEvent::Wait {
                    wait_ms: ms(duration.unwrap_or(NATIVE_TICK_SECONDS)),
                },
            ],
        }
    }
}

/// The canonical key for a typed character (`' '` → `Space`, `'\n'` → `Enter`).
pub fn char_key(ch: char) -> String {
    match ch {
        ' ' => "Space".into(),
        '\n' | '\r' => "Enter".into(),
        '\u{8}' => "Backspace".into(),
        '\t' => "Tab".into(),
        c => c.to_lowercase().collect(),
    }
}

/// Normalize a key name to its canonical form (DOM `KeyboardEvent.key`-like):
/// arrows as `ArrowUp`…, `Space`, `Enter`, `Shift`, single letters lowercase.
pub fn canonical_key(raw: &str) -> String {
    let trimmed = raw.trim();
    if trimmed == " " || raw == " " {
        return "Space".into();
    }
    let lower = trimmed.to_ascii_lowercase().replace(['_', '-', ' '], "");
    let named = match lower.as_str() {
        "up" | "arrowup" | "uparrow" => "ArrowUp",
        "down" | "arrowdown" | "downarrow" => "ArrowDown",
        "left" | "arrowleft" | "leftarrow" => "ArrowLeft",
        "right" | "arrowright" | "rightarrow" => "ArrowRight",
        "space" | "spacebar" | "spacekey" => "Space",
        "enter" | "return" | "numpadenter" => "Enter",
        "esc" | "escape" => "Escape",
        "shift" | "shiftleft" | "shiftright" | "lshift" | "rshift" => "Shift",
        "ctrl" | "control" | "controlleft" | "controlright" => "Control",
        "alt" | "altleft" | "altright" | "option" => "Alt",
        "meta" | "cmd" | "command" | "super" | "win" => "Meta",
        "tab" => "Tab",
        "backspace" | "back" | "delete" | "del" => "Backspace",
        _ => "",
    };
    if !named.is_empty() {
        return named.into();
    }
    // DOM `code` names: KeyA → a, Digit1 → 1.
    if let Some(rest) = lower.strip_prefix("key")
        && rest.len() == 1
    {
        return rest.into();
    }
    if let Some(rest) = lower.strip_prefix("digit")
        && rest.len() == 1
    {
        return rest.into();
    }
    if trimmed.chars().count() == 1 {
        return trimmed.to_lowercase();
    }
    trimmed.to_string()
}

/// Why a proposed action was not executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvalidKind {
    /// No usable tool call / action could be read from the reply (NTC).
    NoToolCall,
    /// An action was read but lies outside the role's action space (OOS).
    OutOfSpace,
}

/// An invalid proposal: its kind and a human-readable reason.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    pub kind: InvalidKind,
    pub reason: String,
}

impl Invalid {
    pub fn ntc(reason: impl Into<String>) -> Self {
        Invalid {
            kind: InvalidKind::NoToolCall,
            reason: reason.into(),
        }
    }
    pub fn oos(reason: impl Into<String>) -> Self {
        Invalid {
            kind: InvalidKind::OutOfSpace,
            reason: reason.into(),
        }
    }
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn field<'a>(obj: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names
        .iter()
        .find_map(|n| obj.get(*n))
        .filter(|v| !v.is_null())
}

fn point(obj: &Map<String, Value>, xs: &[&str], ys: &[&str], pairs: &[&str]) -> Option<(f64, f64)> {
    if let (Some(x), Some(y)) = (field(obj, xs).and_then(num), field(obj, ys).and_then(num)) {
        return Some((x, y));
    }
    let pair = field(obj, pairs)?;
    match pair {
        Value::Array(a) if a.len() >= 2 => Some((num(&a[0])?, num(&a[1])?)),
        Value::Object(o) => Some((
            field(o, &["x"]).and_then(num)?,
            field(o, &["y"]).and_then(num)?,
        )),
        Value::String(s) => {
            let nums: Vec<f64> = s
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter(|p| !p.is_empty())
                .filter_map(|p| p.parse().ok())
                .collect();
            (nums.len() >= 2).then(|| (nums[0], nums[1]))
        }
        _ => None,
    }
}

fn duration_of(obj: &Map<String, Value>) -> Option<f64> {
    if let Some(s) = field(obj, &["duration", "hold_duration", "seconds", "time"]).and_then(num) {
        return Some(s);
    }
    field(obj, &["duration_ms", "ms"])
        .and_then(num)
        .map(|ms| ms / 1000.0)
}

fn button_of(obj: &Map<String, Value>, default: MouseButton) -> MouseButton {
    match field(obj, &["button"])
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("right") | Some("secondary") => MouseButton::Right,
        Some("middle") | Some("wheel") => MouseButton::Middle,
        Some("left") | Some("primary") => MouseButton::Left,
        _ => default,
    }
}

fn split_keys(s: &str) -> Vec<String> {
    let parts: Vec<&str> = if s.contains('+') {
        s.split('+').collect()
    } else if s.trim().contains(' ') {
        s.split_whitespace().collect()
    } else {
        vec![s]
    };
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty() || *p == " ")
        .map(|p| p.to_string())
        .collect()
}

/// Parse a low-level action payload, normalizing action-name aliases
/// (`left_click`, `right_click`, `key_press`, `hotkey`, `sleep`, …) and the
/// common argument spellings (`x`/`y`, `coordinate: [x, y]`, `keys: "a+b"`).
pub fn parse_action(payload: &Value) -> Result<Action, Invalid> {
    let obj = payload
        .as_object()
        .ok_or_else(|| Invalid::ntc(format!("expected an action object, got {payload}")))?;
    let name = field(obj, &["action", "type", "name"])
        .and_then(Value::as_str)
        .ok_or_else(|| Invalid::ntc("the action object has no \"action\" name"))?;
    let name = name.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    let xy = || {
        point(
            obj,
            &["x"],
            &["y"],
            &["coordinate", "coordinates", "point", "position", "pos"],
        )
    };
    let need_xy =
        |what: &str| xy().ok_or_else(|| Invalid::oos(format!("{what} needs x and y coordinates")));
    let clicks_of = |default: u32| {
        field(obj, &["clicks", "count"])
            .and_then(num)
            .map(|c| c as u32)
            .unwrap_or(default)
    };
    let action = match name.as_str() {
        "native" => {
            // Everything but the name and the duration is the game's argument.
            let mut args = obj.clone();
            for k in ["action", "type", "name"] {
                args.remove(k);
            }
            let duration = match args.remove("duration") {
                None | Some(Value::Null) => None,
                Some(v) => {
                    Some(num(&v).ok_or_else(|| Invalid::oos("native: duration must be a number"))?)
                }
            };
            Action::Native { args, duration }
        }
        "click" | "left_click" | "tap" | "mouse_click" => {
            let (x, y) = need_xy("click")?;
            Action::Click {
                x,
                y,
                button: button_of(obj, MouseButton::Left),
                clicks: clicks_of(1),
            }
        }
        "right_click" | "right_single" | "secondary_click" => {
            let (x, y) = need_xy("right_click")?;
            Action::Click {
                x,
                y,
                button: MouseButton::Right,
                clicks: 1,
            }
        }
        "middle_click" => {
            let (x, y) = need_xy("middle_click")?;
            Action::Click {
                x,
                y,
                button: MouseButton::Middle,
                clicks: 1,
            }
        }
        "double_click" | "left_double" => {
            let (x, y) = need_xy("double_click")?;
            Action::Click {
                x,
                y,
                button: button_of(obj, MouseButton::Left),
                clicks: 2,
            }
        }
        "triple_click" => {
            let (x, y) = need_xy("triple_click")?;
            Action::Click {
                x,
                y,
                button: MouseButton::Left,
                clicks: 3,
            }
        }
        "click_hold" | "left_click_hold" | "hold" | "long_press" | "mouse_hold" => {
            let (x, y) = need_xy("click_hold")?;
            Action::ClickHold {
                x,
                y,
                button: button_of(obj, MouseButton::Left),
                duration: duration_of(obj),
            }
        }
        "right_click_hold" => {
            let (x, y) = need_xy("right_click_hold")?;
            Action::ClickHold {
                x,
                y,
                button: MouseButton::Right,
                duration: duration_of(obj),
            }
        }
        "drag" | "left_click_drag" | "drag_and_drop" | "swipe" => {
            let (fx, fy) = point(
                obj,
                &["from_x", "start_x", "x1"],
                &["from_y", "start_y", "y1"],
                &["start_coordinate", "start_box", "start", "from"],
            )
            .ok_or_else(|| Invalid::oos("drag needs a start point (from_x, from_y)"))?;
            let (x, y) = point(
                obj,
                &["x", "to_x", "end_x", "x2"],
                &["y", "to_y", "end_y", "y2"],
                &["coordinate", "end_coordinate", "end_box", "end", "to"],
            )
            .ok_or_else(|| Invalid::oos("drag needs an end point (x, y)"))?;
            Action::Drag {
                from_x: fx,
                from_y: fy,
                x,
                y,
                duration: duration_of(obj),
            }
        }
        "mouse_move" | "move" | "move_mouse" | "hover" | "mousemove" => {
            let (x, y) = need_xy("mouse_move")?;
            Action::MouseMove { x, y }
        }
        "scroll" | "wheel" | "mouse_scroll" => {
            let (x, y) = xy().unwrap_or((0.0, 0.0));
            let mut dx = field(obj, &["dx", "delta_x", "scroll_x"])
                .and_then(num)
                .unwrap_or(0.0);
            let mut dy = field(obj, &["dy", "delta_y", "scroll_y"])
                .and_then(num)
                .unwrap_or(0.0);
            if dx == 0.0 && dy == 0.0 {
                let amount = field(obj, &["amount", "scroll_amount", "clicks"])
                    .and_then(num)
                    .unwrap_or(3.0)
                    * 100.0;
                match field(obj, &["direction", "scroll_direction"])
                    .and_then(Value::as_str)
                    .unwrap_or("down")
                {
                    "up" => dy = -amount,
                    "left" => dx = -amount,
                    "right" => dx = amount,
                    _ => dy = amount,
                }
            }
            Action::Scroll { x, y, dx, dy }
        }
        "type" | "type_text" | "input_text" | "text" | "write" => {
            let text = field(obj, &["text", "content", "value", "string"])
                .and_then(Value::as_str)
                .ok_or_else(|| Invalid::oos("type needs a \"text\" argument"))?;
            Action::Type {
                text: text.to_string(),
            }
        }
        "press_key" | "key_press" | "keypress" | "key" | "press" | "keydown" | "key_down" => {
            key_action(
                obj,
                &["key", "keys", "text", "value"],
                "press_key needs a \"key\" argument",
                "press_key needs a non-empty \"key\"",
            )?
        }
        "press_keys" | "hotkey" | "key_combo" | "keys" | "key_combination"
        | "keyboard_shortcut" => key_action(
            obj,
            &["keys", "key", "hotkey", "combo"],
            "press_keys needs a \"keys\" argument",
            "press_keys needs at least one key",
        )?,
        "wait" | "sleep" | "noop" | "no_op" | "idle" | "pause" => Action::Wait {
            duration: duration_of(obj),
        },
        other => return Err(Invalid::oos(format!("unknown action \"{other}\""))),
    };
    Ok(action)
}

/// A key press read from the first of `fields` present: one key is a
/// [`Action::PressKey`], several (a list or `"w d"` / `"Control+C"`) a
/// [`Action::PressKeys`].
fn key_action(
    obj: &Map<String, Value>,
    fields: &[&str],
    missing: &str,
    empty: &str,
) -> Result<Action, Invalid> {
    let key_val = field(obj, fields).ok_or_else(|| Invalid::oos(missing))?;
    let mut keys: Vec<String> = match key_val {
        Value::String(s) => split_keys(s),
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => vec![],
    };
    let duration = duration_of(obj);
    Ok(match keys.len() {
        0 => return Err(Invalid::oos(empty)),
        1 => Action::PressKey {
            key: keys.remove(0),
            duration,
        },
        _ => Action::PressKeys { keys, duration },
    })
}

/// A role's low-level controls: the computer-use action space.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct RoleControls {
    #[serde(default)]
    pub allowed_keys: Vec<String>,
    #[serde(default)]
    pub allow_clicks: bool,
    /// Default key hold in seconds (SPEC default 0.2).
    #[serde(default)]
    pub hold_duration: Option<f64>,
    #[serde(default)]
    pub key_durations: Option<BTreeMap<String, f64>>,
}

impl RoleControls {
    /// The legal key equal to `raw` after alias normalization, if any.
    pub fn legal_key(&self, raw: &str) -> Option<String> {
        let want = canonical_key(raw);
        self.allowed_keys
            .iter()
            .find(|k| canonical_key(k) == want)
            .cloned()
    }

    fn key_hold(&self, key: &str, explicit: Option<f64>) -> f64 {
        explicit
            .or_else(|| {
                self.key_durations.as_ref().and_then(|m| {
                    m.iter()
                        .find(|(k, _)| canonical_key(k) == canonical_key(key))
                        .map(|(_, d)| *d)
                })
            })
            .or(self.hold_duration)
            .unwrap_or(DEFAULT_HOLD_SECONDS)
    }

    /// Check `action` against the role and viewport; return it with keys in
    /// their allowed spelling and every duration resolved.
    pub fn legalize(&self, action: Action, viewport: (u32, u32)) -> Result<Action, Invalid> {
        let in_view = |x: f64, y: f64| -> Result<(), Invalid> {
            if x.is_finite()
                && y.is_finite()
                && x >= 0.0
                && y >= 0.0
                && x < viewport.0 as f64
                && y < viewport.1 as f64
            {
                Ok(())
            } else {
                Err(Invalid::oos(format!(
                    "point ({x}, {y}) lies outside the {}x{} viewport",
                    viewport.0, viewport.1
                )))
            }
        };
        let mouse = |what: &str| -> Result<(), Invalid> {
            if self.allow_clicks {
                Ok(())
            } else {
                Err(Invalid::oos(format!(
                    "{what} is not allowed: this role has no mouse control"
                )))
            }
        };
        let key = |raw: &str| -> Result<String, Invalid> {
            self.legal_key(raw).ok_or_else(|| {
                Invalid::oos(format!(
                    "key \"{raw}\" is not allowed; allowed keys: {}",
                    if self.allowed_keys.is_empty() {
                        "none".to_string()
                    } else {
                        self.allowed_keys.join(", ")
                    }
                ))
            })
        };
        let positive = |d: Option<f64>| -> Result<Option<f64>, Invalid> {
            match d {
                Some(s) if !(s.is_finite() && (0.0..=10.0).contains(&s)) => {
                    Err(Invalid::oos(format!("duration {s} s is outside 0..10 s")))
                }
                other => Ok(other),
            }
        };
        Ok(match action {
            Action::Click {
                x,
                y,
                button,
                clicks,
            } => {
                mouse("click")?;
                in_view(x, y)?;
                if !(1..=3).contains(&clicks) {
                    return Err(Invalid::oos(format!(
                        "{clicks} clicks in one action; use 1 to 3"
                    )));
                }
                Action::Click {
                    x,
                    y,
                    button,
                    clicks,
                }
            }
            Action::ClickHold {
                x,
                y,
                button,
                duration,
            } => {
                mouse("click_hold")?;
                in_view(x, y)?;
                let d = positive(duration)?
                    .or(self.hold_duration)
                    .unwrap_or(DEFAULT_HOLD_SECONDS);
                Action::ClickHold {
                    x,
                    y,
                    button,
                    duration: Some(d),
                }
            }
            Action::Drag {
                from_x,
                from_y,
                x,
                y,
                duration,
            } => {
                mouse("drag")?;
                in_view(from_x, from_y)?;
                in_view(x, y)?;
                let d = positive(duration)?
                    .or(self.hold_duration)
                    .unwrap_or(DEFAULT_HOLD_SECONDS);
                Action::Drag {
                    from_x,
                    from_y,
                    x,
                    y,
                    duration: Some(d),
                }
            }
            Action::MouseMove { x, y } => {
                mouse("mouse_move")?;
                in_view(x, y)?;
                Action::MouseMove { x, y }
            }
            Action::Scroll { x, y, dx, dy } => {
                mouse("scroll")?;
                in_view(x, y)?;
                Action::Scroll { x, y, dx, dy }
            }
            Action::Type { text } => {
                if text.is_empty() {
                    return Err(Invalid::oos("type needs non-empty text"));
                }
                for ch in text.chars() {
                    key(&char_key(ch))?;
                }
                Action::Type { text }
            }
            Action::PressKey { key: k, duration } => {
                let k = key(&k)?;
                let d = self.key_hold(&k, positive(duration)?);
                Action::PressKey {
                    key: k,
                    duration: Some(d),
                }
            }
            Action::PressKeys { keys, duration } => {
                let keys = keys.iter().map(|k| key(k)).collect::<Result<Vec<_>, _>>()?;
                let d = positive(duration)?
                    .or(self.hold_duration)
                    .unwrap_or(DEFAULT_HOLD_SECONDS);
                Action::PressKeys {
                    keys,
                    duration: Some(d),
                }
            }
            Action::Wait { duration } => Action::Wait {
                duration: Some(positive(duration)?.unwrap_or(DEFAULT_WAIT_SECONDS)),
            },
            Action::Native { args, duration } => Action::Native {
                args,
                duration: Some(positive(duration)?.unwrap_or(NATIVE_TICK_SECONDS)),
            },
        })
    }
}

/// One semantic control as registered for a role.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SemanticControl {
    pub id: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The low-level action this control maps to (an [`Action`] payload,
    /// possibly with `cell_param: true`).
    pub binding: Map<String, Value>,
    #[serde(default)]
    pub parameters: Vec<ControlParameter>,
    #[serde(default)]
    pub required: Vec<String>,
    /// Cell id → viewport point, for controls with `cell_param`.
    #[serde(default)]
    pub cell_bindings: Option<IndexMap<String, [f64; 2]>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ControlParameter {
    pub name: String,
    #[serde(rename = "type", default = "string_type")]
    pub kind: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, rename = "enum", skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<String>>,
    /// Bounds of a number parameter (JSON-schema `minimum`/`maximum`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<f64>,
}

fn string_type() -> String {
    "string".into()
}

/// Keys of a payload that name the control rather than carry arguments.
const ID_KEYS: [&str; 5] = ["action", "tool_name", "tool_id", "name", "function"];

fn normalize_id(id: &str) -> String {
    id.trim().to_ascii_lowercase().replace(['-', ' '], "_")
}

/// The semantic-control map of one role: case-insensitive, alias-aware.
#[derive(Clone, Debug, Default)]
pub struct SemanticMap {
    controls: Vec<SemanticControl>,
    index: BTreeMap<String, usize>,
}

impl SemanticMap {
    pub fn new(controls: &[SemanticControl]) -> Self {
        let mut index = BTreeMap::new();
        for (i, c) in controls.iter().enumerate() {
            index.insert(normalize_id(&c.id), i);
        }
        for (i, c) in controls.iter().enumerate() {
            for a in &c.aliases {
                index.entry(normalize_id(a)).or_insert(i);
            }
        }
        SemanticMap {
            controls: controls.to_vec(),
            index,
        }
    }

    pub fn controls(&self) -> &[SemanticControl] {
        &self.controls
    }

    pub fn get(&self, id: &str) -> Option<&SemanticControl> {
        self.index
            .get(&normalize_id(id))
            .map(|&i| &self.controls[i])
    }

    /// Resolve a semantic payload (`{"action": "reveal_cell", "cell": "c4"}`,
    /// `{"tool_name": …, "arguments": {…}}`) to a low-level action and the
    /// canonical control id.
    pub fn resolve(&self, payload: &Value) -> Result<(String, Action), Invalid> {
        let obj = match payload {
            Value::Object(o) => o.clone(),
            Value::String(s) => {
                let mut o = Map::new();
                o.insert("action".into(), Value::String(s.clone()));
                o
            }
            other => {
                return Err(Invalid::ntc(format!(
                    "expected a semantic action object, got {other}"
                )));
            }
        };
        let id = ID_KEYS
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str))
            .ok_or_else(|| {
                Invalid::ntc(
                    "the reply names no action (expected \"action\", \"tool_name\" or \"tool_id\")",
                )
            })?;
        let control = self.get(id).ok_or_else(|| {
            let known: Vec<&str> = self.controls.iter().map(|c| c.id.as_str()).collect();
            Invalid::oos(format!(
                "unknown action \"{id}\"; known actions: {}",
                known.join(", ")
            ))
        })?;
        // Runtime arguments: either nested (`arguments`/`args`/`parameters`) or top-level.
        let mut args = Map::new();
        for (k, v) in &obj {
            if ID_KEYS.contains(&k.as_str()) {
                continue;
            }
            if matches!(k.as_str(), "arguments" | "args" | "parameters" | "input") {
                match v {
                    Value::Object(inner) => args.extend(inner.clone()),
                    Value::String(s) => {
                        if let Ok(Value::Object(inner)) = serde_json::from_str::<Value>(s) {
                            args.extend(inner);
                        }
                    }
                    _ => {}
                }
            } else {
                args.insert(k.clone(), v.clone());
            }
        }
        for req in &control.required {
            if args.get(req).is_none_or(Value::is_null) {
                return Err(Invalid::oos(format!(
                    "action \"{}\" needs the argument \"{req}\"",
                    control.id
                )));
            }
        }
        let mut merged = control.binding.clone();
        let cell_param = merged
            .remove("cell_param")
            .is_some_and(|v| v == Value::Bool(true));
        // Only declared parameters (and duration) may override the binding.
        for (k, v) in args {
            let declared = control.parameters.iter().any(|p| p.name == k);
            if declared || k == "duration" {
                merged.insert(k, v);
            }
        }
        if cell_param {
            let cell = merged
                .remove("cell")
                .and_then(|v| v.as_str().map(|s| s.trim().to_ascii_lowercase()))
                .ok_or_else(|| {
                    Invalid::oos(format!(
                        "action \"{}\" needs a \"cell\" such as \"a1\"",
                        control.id
                    ))
                })?;
            let cells = control.cell_bindings.as_ref().ok_or_else(|| {
                Invalid::oos(format!("action \"{}\" has no cell bindings", control.id))
            })?;
            let [x, y] = cells.get(&cell).ok_or_else(|| {
                Invalid::oos(format!(
                    "unknown cell \"{cell}\" for action \"{}\"",
                    control.id
                ))
            })?;
            merged.insert("x".into(), json!(x));
            merged.insert("y".into(), json!(y));
        }
        let action = parse_action(&Value::Object(merged)).map_err(|e| Invalid::oos(e.reason))?;
        Ok((control.id.clone(), action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(keys: &[&str], clicks: bool) -> RoleControls {
        RoleControls {
            allowed_keys: keys.iter().map(|k| k.to_string()).collect(),
            allow_clicks: clicks,
            hold_duration: Some(0.2),
            key_durations: None,
        }
    }

    #[test]
    fn key_aliases_normalize() {
        assert_eq!(canonical_key("left"), "ArrowLeft");
        assert_eq!(canonical_key("UP"), "ArrowUp");
        assert_eq!(canonical_key(" "), "Space");
        assert_eq!(canonical_key("space"), "Space");
        assert_eq!(canonical_key("KeyW"), "w");
        assert_eq!(canonical_key("W"), "w");
        assert_eq!(canonical_key("Return"), "Enter");
        assert_eq!(canonical_key("Digit3"), "3");
    }

    #[test]
    fn action_aliases_normalize() {
        let a = parse_action(&json!({"action": "left_click", "coordinate": [10, 20]})).unwrap();
        assert_eq!(
            a,
            Action::Click {
                x: 10.0,
                y: 20.0,
                button: MouseButton::Left,
                clicks: 1
            }
        );
        let a = parse_action(&json!({"action": "right_click", "x": 5, "y": 6})).unwrap();
        assert!(matches!(
            a,
            Action::Click {
                button: MouseButton::Right,
                ..
            }
        ));
        let a = parse_action(&json!({"action": "key_press", "key": "left"})).unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "left".into(),
                duration: None
            }
        );
        let a = parse_action(&json!({"action": "hotkey", "keys": "ctrl+c"})).unwrap();
        assert_eq!(
            a,
            Action::PressKeys {
                keys: vec!["ctrl".into(), "c".into()],
                duration: None
            }
        );
        let a = parse_action(&json!({"action": "sleep", "duration_ms": 300})).unwrap();
        assert_eq!(
            a,
            Action::Wait {
                duration: Some(0.3)
            }
        );
        assert_eq!(
            parse_action(&json!({"action": "fly"})).unwrap_err().kind,
            InvalidKind::OutOfSpace
        );
        assert_eq!(
            parse_action(&json!("hello")).unwrap_err().kind,
            InvalidKind::NoToolCall
        );
    }

    #[test]
    fn legality_is_role_aware() {
        let r = role(&["ArrowUp", "Space"], false);
        let a = r
            .legalize(
                Action::PressKey {
                    key: "up".into(),
                    duration: None,
                },
                (1280, 720),
            )
            .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "ArrowUp".into(),
                duration: Some(0.2)
            }
        );
        let a = r
            .legalize(
                Action::PressKey {
                    key: " ".into(),
                    duration: None,
                },
                (1280, 720),
            )
            .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "Space".into(),
                duration: Some(0.2)
            }
        );
        let e = r
            .legalize(
                Action::PressKey {
                    key: "ArrowDown".into(),
                    duration: None,
                },
                (1280, 720),
            )
            .unwrap_err();
        assert_eq!(e.kind, InvalidKind::OutOfSpace);
        assert!(
            e.reason.contains("allowed keys: ArrowUp, Space"),
            "{}",
            e.reason
        );
        let e = r
            .legalize(
                Action::Click {
                    x: 1.0,
                    y: 1.0,
                    button: MouseButton::Left,
                    clicks: 1,
                },
                (1280, 720),
            )
            .unwrap_err();
        assert!(e.reason.contains("no mouse control"));
        let r = role(&[], true);
        assert!(
            r.legalize(
                Action::Click {
                    x: 1300.0,
                    y: 1.0,
                    button: MouseButton::Left,
                    clicks: 1
                },
                (1280, 720)
            )
            .is_err()
        );
        let mut kd = BTreeMap::new();
        kd.insert("Space".to_string(), 0.5);
        let r = RoleControls {
            allowed_keys: vec!["Space".into()],
            allow_clicks: false,
            hold_duration: None,
            key_durations: Some(kd),
        };
        let a = r
            .legalize(
                Action::PressKey {
                    key: "space".into(),
                    duration: None,
                },
                (1280, 720),
            )
            .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "Space".into(),
                duration: Some(0.5)
            }
        );
    }

    #[test]
    fn events_follow_durations() {
        let ev = Action::PressKey {
            key: "Space".into(),
            duration: Some(0.25),
        }
        .to_events(2.0);
        assert_eq!(ev[1], TimedEvent::Wait { wait_ms: 500 });
        let ev = Action::Type {
            text: "ab\n".into(),
        }
        .to_events(1.0);
        assert_eq!(ev.len(), 9);
        assert_eq!(
            ev[6],
            TimedEvent::Input(InputEvent::KeyDown {
                key: "Enter".into()
            })
        );
    }

    fn controls() -> Vec<SemanticControl> {
        let mut cells = IndexMap::new();
        cells.insert("a1".to_string(), [100.0, 200.0]);
        vec![
            SemanticControl {
                id: "move_up".into(),
                description: String::new(),
                aliases: vec!["up".into()],
                binding: json!({"action": "press_key", "key": "ArrowUp"})
                    .as_object()
                    .unwrap()
                    .clone(),
                parameters: vec![],
                required: vec![],
                cell_bindings: None,
            },
            SemanticControl {
                id: "flag_cell".into(),
                description: String::new(),
                aliases: vec![],
                binding: json!({"action": "click", "button": "right", "cell_param": true})
                    .as_object()
                    .unwrap()
                    .clone(),
                parameters: vec![ControlParameter {
                    name: "cell".into(),
                    kind: "string".into(),
                    description: String::new(),
                    choices: None,
                    minimum: None,
                    maximum: None,
                }],
                required: vec!["cell".into()],
                cell_bindings: Some(cells),
            },
        ]
    }

    #[test]
    fn semantic_parsing() {
        let map = SemanticMap::new(&controls());
        let (id, a) = map.resolve(&json!({"action": "MOVE_UP"})).unwrap();
        assert_eq!(
            (id.as_str(), a),
            (
                "move_up",
                Action::PressKey {
                    key: "ArrowUp".into(),
                    duration: None
                }
            )
        );
        let (_, a) = map.resolve(&json!({"tool_name": "up"})).unwrap();
        assert!(matches!(a, Action::PressKey { .. }));
        let (id, a) = map
            .resolve(&json!({"tool_id": "flag_cell", "arguments": {"cell": "A1"}}))
            .unwrap();
        assert_eq!(id, "flag_cell");
        assert_eq!(
            a,
            Action::Click {
                x: 100.0,
                y: 200.0,
                button: MouseButton::Right,
                clicks: 1
            }
        );
        assert_eq!(
            map.resolve(&json!({"action": "jump"})).unwrap_err().kind,
            InvalidKind::OutOfSpace
        );
        assert_eq!(
            map.resolve(&json!({"action": "flag_cell"}))
                .unwrap_err()
                .kind,
            InvalidKind::OutOfSpace
        );
        assert_eq!(
            map.resolve(&json!({"action": "flag_cell", "cell": "z9"}))
                .unwrap_err()
                .kind,
            InvalidKind::OutOfSpace
        );
        assert_eq!(
            map.resolve(&json!({"thoughts": "hmm"})).unwrap_err().kind,
            InvalidKind::NoToolCall
        );
        // Undeclared arguments cannot rewrite the binding.
        let (_, a) = map
            .resolve(&json!({"action": "move_up", "key": "ArrowDown"}))
            .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "ArrowUp".into(),
                duration: None
            }
        );
    }
}
