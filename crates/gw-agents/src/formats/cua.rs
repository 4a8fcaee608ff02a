//! Computer-use vocabularies. Each provider's computer tool speaks its own
//! dialect (Anthropic's `computer` actions, Gemini's `click_at`…, OpenAI's
//! `computer_call`, Qwen's `computer_use`); this module rewrites any of them
//! into one low-level action payload that `gw_core::parse_action` reads,
//! rescales coordinates into viewport pixels, and remembers where the
//! pointer is (for drags and clicks that name no point). It does not judge
//! legality: an unknown or disallowed action passes through and the action
//! layer marks it out of space.

use crate::conversation::ToolSpec;
use gw_core::registry::CoordinateSpace;
use serde_json::{Map, Value, json};

/// Names of the generic low-level functions offered where a provider has no
/// computer tool of its own.
pub const GENERIC_TOOLS: [&str; 7] = [
    "click",
    "press_key",
    "mouse_move",
    "drag",
    "scroll",
    "type",
    "wait",
];

/// The generic low-level functions, in the model's coordinate space.
pub fn generic_tools(viewport: (u32, u32), space: CoordinateSpace) -> Vec<ToolSpec> {
    let coords = match space {
        CoordinateSpace::Pixels => format!(
            "Screen pixels: x from 0 to {}, y from 0 to {}, origin at the top-left corner.",
            viewport.0 - 1,
            viewport.1 - 1
        ),
        CoordinateSpace::Normalized1000 => {
            "Coordinates scaled to 0..1000 on both axes, origin at the top-left corner.".to_string()
        }
    };
    let num = |d: &str| json!({"type": "number", "description": d});
    let obj = |props: Value, required: &[&str]| json!({"type": "object", "properties": props, "required": required});
    vec![
        ToolSpec {
            name: "click".into(),
            description: format!("Click a mouse button at a point. {coords}"),
            parameters: obj(
                json!({"x": num("Horizontal position."), "y": num("Vertical position."),
                       "button": {"type": "string", "enum": ["left", "right", "middle"], "description": "Which button (default left)."},
                       "clicks": {"type": "integer", "description": "1 for a single click, 2 for a double click."}}),
                &["x", "y"],
            ),
        },
        ToolSpec {
            name: "press_key".into(),
            description: "Press and release keys. Several keys separated by spaces are held together (\"w d\").".into(),
            parameters: obj(
                json!({"keys": {"type": "string", "description": "Key name(s), e.g. ArrowUp, Space, Enter, w, or \"w d\"."},
                       "hold_duration": num("Seconds to hold the keys down (default: the game's setting).")}),
                &["keys"],
            ),
        },
        ToolSpec {
            name: "mouse_move".into(),
            description: format!("Move the pointer without clicking. {coords}"),
            parameters: obj(json!({"x": num("Horizontal position."), "y": num("Vertical position.")}), &["x", "y"]),
        },
        ToolSpec {
            name: "drag".into(),
            description: format!("Press the left button at one point, move to another and release. {coords}"),
            parameters: obj(
                json!({"from_x": num("Start x."), "from_y": num("Start y."), "x": num("End x."), "y": num("End y."),
                       "duration": num("Seconds the drag takes.")}),
                &["from_x", "from_y", "x", "y"],
            ),
        },
        ToolSpec {
            name: "scroll".into(),
            description: format!("Turn the mouse wheel at a point. {coords}"),
            parameters: obj(
                json!({"x": num("Horizontal position."), "y": num("Vertical position."),
                       "direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
                       "amount": num("Wheel notches (default 3).")}),
                &["x", "y", "direction"],
            ),
        },
        ToolSpec {
            name: "type".into(),
            description: "Type text, one key per character.".into(),
            parameters: obj(json!({"text": {"type": "string", "description": "The text to type."}}), &["text"]),
        },
        ToolSpec {
            name: "wait".into(),
            description: "Do nothing and let the game run.".into(),
            parameters: obj(json!({"seconds": num("How long to wait (default 0.5).")}), &[]),
        },
    ]
}

/// The single `computer_use` function Qwen-VL models are trained to call,
/// described in the prompt of the Qwen text protocol.
pub fn qwen_computer_use_tool(viewport: (u32, u32), space: CoordinateSpace) -> ToolSpec {
    let coords = match space {
        CoordinateSpace::Pixels => format!("The screen is {}x{} pixels.", viewport.0, viewport.1),
        CoordinateSpace::Normalized1000 => {
            "Coordinates run from 0 to 1000 on both axes.".to_string()
        }
    };
    ToolSpec {
        name: "computer_use".into(),
        description: format!("Use the mouse and keyboard to play the game. {coords}"),
        parameters: json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click", "double_click", "scroll", "wait"],
                           "description": "key: press keys together (keys); type: type text; mouse_move / left_click / right_click / middle_click / double_click: at coordinate; left_click_drag: drag from the pointer to coordinate; scroll: wheel by pixels (positive up); wait: pause for time seconds."},
                "keys": {"type": "array", "items": {"type": "string"}, "description": "For key: the keys held together."},
                "text": {"type": "string", "description": "For type."},
                "coordinate": {"type": "array", "items": {"type": "number"}, "description": "[x, y] for pointer actions."},
                "pixels": {"type": "number", "description": "For scroll."},
                "time": {"type": "number", "description": "For wait, in seconds."},
            },
            "required": ["action"],
        }),
    }
}

/// Turns computer-tool calls into low-level action payloads, tracking the pointer.
#[derive(Clone, Debug, Default)]
pub struct CuaNormalizer {
    pub viewport: (u32, u32),
    pub space: CoordinateSpace,
    pointer: Option<(f64, f64)>,
}

fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

const XY: (&str, &str) = ("x", "y");
const FROM_XY: (&str, &str) = ("from_x", "from_y");

/// Set the pair of fields `keys` to the point `p`.
fn put_point(m: &mut Map<String, Value>, (kx, ky): (&str, &str), p: (f64, f64)) {
    m.insert(kx.into(), json!(p.0));
    m.insert(ky.into(), json!(p.1));
}

/// A point given as `[x, y]`, `{"x", "y"}` or `"x y"` / `"(x,y)"`.
pub fn point_of(v: &Value) -> Option<(f64, f64)> {
    match v {
        Value::Array(a) if a.len() >= 2 => Some((num(&a[0])?, num(&a[1])?)),
        Value::Object(o) => Some((num(o.get("x")?)?, num(o.get("y")?)?)),
        Value::String(s) => {
            let n: Vec<f64> = s
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter(|p| !p.is_empty())
                .filter_map(|p| p.parse().ok())
                .collect();
            (n.len() >= 2).then(|| (n[0], n[1]))
        }
        _ => None,
    }
}

impl CuaNormalizer {
    pub fn new(viewport: (u32, u32), space: CoordinateSpace) -> Self {
        CuaNormalizer {
            viewport,
            space,
            pointer: None,
        }
    }

    /// A model point in `space` → viewport pixels.
    pub fn scale(&self, (x, y): (f64, f64), space: CoordinateSpace) -> (f64, f64) {
        match space {
            CoordinateSpace::Pixels => (x, y),
            CoordinateSpace::Normalized1000 => (
                x / 1000.0 * self.viewport.0 as f64,
                y / 1000.0 * self.viewport.1 as f64,
            ),
        }
    }

    /// Rewrite one tool call as a low-level action payload.
    pub fn normalize(&mut self, name: &str, args: &Map<String, Value>) -> Value {
        let lname = name.to_ascii_lowercase();
        let mut out = match lname.as_str() {
            // Anthropic's `computer` tool and Qwen's `computer_use` share most verbs.
            "computer" | "computer_use" => self.action_dialect(args, self.space),
            crate::formats::providers::openai_responses::COMPUTER_CALL => self.openai_dialect(args),
            "click_at" | "hover_at" | "type_text_at" | "key_combination" | "scroll_document"
            | "scroll_at" | "drag_and_drop" | "wait_5_seconds" => self.gemini_dialect(&lname, args),
            _ => {
                // Generic functions (or anything else: the action layer decides).
                // The function's name is the action, whatever the arguments say.
                let mut m = args.clone();
                m.insert("action".into(), json!(name));
                let space = self.space;
                self.scale_fields(&mut m, space);
                m
            }
        };
        if let (Some(x), Some(y)) = (out.get("x").and_then(num), out.get("y").and_then(num)) {
            self.pointer = Some((x, y));
        }
        out.remove("reasoning");
        Value::Object(out)
    }

    fn scale_fields(&self, m: &mut Map<String, Value>, space: CoordinateSpace) {
        for keys @ (kx, ky) in [XY, FROM_XY] {
            if let (Some(x), Some(y)) = (m.get(kx).and_then(num), m.get(ky).and_then(num)) {
                put_point(m, keys, self.scale((x, y), space));
            }
        }
        for (key, keys) in [("coordinate", XY), ("start_coordinate", FROM_XY)] {
            // A point that cannot be read stays as it was sent, so the
            // action layer refuses it and the record shows it (it is never
            // replaced by the pointer's last position).
            if let Some(p) = m.get(key).and_then(point_of) {
                m.remove(key);
                put_point(m, keys, self.scale(p, space));
            }
        }
    }

    /// Anthropic `computer` / Qwen `computer_use`: `{"action": verb, …}`.
    fn action_dialect(
        &self,
        args: &Map<String, Value>,
        space: CoordinateSpace,
    ) -> Map<String, Value> {
        let mut m = args.clone();
        self.scale_fields(&mut m, space);
        let verb = m
            .get("action")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_ascii_lowercase();
        let keys = m
            .get("text")
            .or_else(|| m.get("keys"))
            .or_else(|| m.get("key"))
            .cloned();
        match verb.as_str() {
            "key" | "hold_key" => {
                m.insert("action".into(), json!("press_key"));
                m.remove("text");
                if let Some(k) = keys {
                    m.insert("key".into(), k);
                }
            }
            "left_click" | "right_click" | "middle_click" | "double_click" | "triple_click"
            | "mouse_move" | "scroll" => {
                if !m.contains_key("x")
                    && !m.contains_key("coordinate")
                    && let Some(p) = self.pointer
                {
                    put_point(&mut m, XY, p);
                }
                if verb == "scroll"
                    && let Some(px) = m.remove("pixels").as_ref().and_then(num)
                {
                    // Qwen: positive pixels scroll up, i.e. a negative wheel delta.
                    m.insert("dy".into(), json!(-px));
                }
            }
            "left_click_drag" => {
                if !m.contains_key("from_x")
                    && !m.contains_key("start_coordinate")
                    && let Some(p) = self.pointer
                {
                    put_point(&mut m, FROM_XY, p);
                }
            }
            _ => {}
        }
        m
    }

    /// OpenAI `computer_call` actions: `{"type": "click", "x", "y", "button"}`…
    fn openai_dialect(&self, args: &Map<String, Value>) -> Map<String, Value> {
        let mut m = Map::new();
        let kind = args.get("type").and_then(Value::as_str).unwrap_or_default();
        let xy = (args.get("x").and_then(num), args.get("y").and_then(num));
        let put_xy = |m: &mut Map<String, Value>| {
            if let (Some(x), Some(y)) = xy {
                put_point(m, XY, (x, y));
            }
        };
        match kind {
            "click" => {
                let button = match args.get("button").and_then(Value::as_str) {
                    Some("right") => "right",
                    Some("wheel") | Some("middle") => "middle",
                    _ => "left",
                };
                m.insert("action".into(), json!("click"));
                m.insert("button".into(), json!(button));
                put_xy(&mut m);
            }
            "double_click" => {
                m.insert("action".into(), json!("double_click"));
                put_xy(&mut m);
            }
            "move" => {
                m.insert("action".into(), json!("mouse_move"));
                put_xy(&mut m);
            }
            "scroll" => {
                m.insert("action".into(), json!("scroll"));
                put_xy(&mut m);
                m.insert(
                    "dx".into(),
                    json!(args.get("scroll_x").and_then(num).unwrap_or(0.0)),
                );
                m.insert(
                    "dy".into(),
                    json!(args.get("scroll_y").and_then(num).unwrap_or(0.0)),
                );
            }
            "keypress" => {
                m.insert("action".into(), json!("press_keys"));
                m.insert(
                    "keys".into(),
                    args.get("keys").cloned().unwrap_or(json!([])),
                );
            }
            "type" => {
                m.insert("action".into(), json!("type"));
                m.insert(
                    "text".into(),
                    args.get("text").cloned().unwrap_or(json!("")),
                );
            }
            "wait" => {
                m.insert("action".into(), json!("wait"));
            }
            "drag" => {
                m.insert("action".into(), json!("drag"));
                let path: Vec<(f64, f64)> = args
                    .get("path")
                    .and_then(Value::as_array)
                    .map(|p| p.iter().filter_map(point_of).collect())
                    .unwrap_or_default();
                if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
                    put_point(&mut m, FROM_XY, first);
                    put_point(&mut m, XY, last);
                }
            }
            other => {
                m.insert("action".into(), json!(other));
            }
        }
        m
    }

    /// Gemini computer-use functions; their coordinates are always 0..1000.
    fn gemini_dialect(&self, name: &str, args: &Map<String, Value>) -> Map<String, Value> {
        let mut m = Map::new();
        let n = CoordinateSpace::Normalized1000;
        let at = |kx: &str, ky: &str| match (args.get(kx).and_then(num), args.get(ky).and_then(num))
        {
            (Some(x), Some(y)) => Some(self.scale((x, y), n)),
            _ => None,
        };
        let point = at("x", "y");
        let action = match name {
            "click_at" => "click",
            "hover_at" => "mouse_move",
            "type_text_at" => "type",
            "key_combination" => "press_keys",
            "scroll_document" | "scroll_at" => "scroll",
            "drag_and_drop" => "drag",
            _ => "wait",
        };
        m.insert("action".into(), json!(action));
        match name {
            "drag_and_drop" => {
                if let Some(p) = point {
                    put_point(&mut m, FROM_XY, p);
                }
                if let Some(p) = at("destination_x", "destination_y") {
                    put_point(&mut m, XY, p);
                }
            }
            "type_text_at" => {
                m.insert(
                    "text".into(),
                    args.get("text").cloned().unwrap_or(json!("")),
                );
            }
            "key_combination" => {
                m.insert(
                    "keys".into(),
                    args.get("keys").cloned().unwrap_or(json!("")),
                );
            }
            "scroll_document" | "scroll_at" => {
                let p =
                    point.unwrap_or((self.viewport.0 as f64 / 2.0, self.viewport.1 as f64 / 2.0));
                put_point(&mut m, XY, p);
                m.insert(
                    "direction".into(),
                    args.get("direction").cloned().unwrap_or(json!("down")),
                );
                if let Some(mag) = args.get("magnitude").and_then(num) {
                    m.insert("amount".into(), json!(mag / 100.0));
                }
            }
            "wait_5_seconds" => {
                m.insert("duration".into(), json!(5.0));
            }
            _ => {
                if let Some(p) = point {
                    put_point(&mut m, XY, p);
                }
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gw_core::action::parse_action;
    use gw_core::{Action, MouseButton};

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn dialects_become_one_action_space() {
        let mut n = CuaNormalizer::new((1280, 720), CoordinateSpace::Pixels);
        let a =
            parse_action(&n.normalize("computer", &args(json!({"action": "key", "text": "Up"}))))
                .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "Up".into(),
                duration: None
            }
        );
        let a = parse_action(&n.normalize(
            "computer",
            &args(json!({"action": "hold_key", "text": "space", "duration": 0.6})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "space".into(),
                duration: Some(0.6)
            }
        );
        let a = parse_action(&n.normalize(
            "computer",
            &args(json!({"action": "left_click", "coordinate": [100, 200]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::Click {
                x: 100.0,
                y: 200.0,
                button: MouseButton::Left,
                clicks: 1
            }
        );
        // A Qwen drag starts where the pointer is.
        let a = parse_action(&n.normalize(
            "computer_use",
            &args(json!({"action": "left_click_drag", "coordinate": [300, 200]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::Drag {
                from_x: 100.0,
                from_y: 200.0,
                x: 300.0,
                y: 200.0,
                duration: None
            }
        );
        let a = parse_action(&n.normalize(
            "computer_use",
            &args(json!({"action": "key", "keys": ["w", "d"]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::PressKeys {
                keys: vec!["w".into(), "d".into()],
                duration: None
            }
        );
        let a = parse_action(&n.normalize("click_at", &args(json!({"x": 500, "y": 500})))).unwrap();
        assert_eq!(
            a,
            Action::Click {
                x: 640.0,
                y: 360.0,
                button: MouseButton::Left,
                clicks: 1
            }
        );
        let a = parse_action(&n.normalize("key_combination", &args(json!({"keys": "Control+C"}))))
            .unwrap();
        assert_eq!(
            a,
            Action::PressKeys {
                keys: vec!["Control".into(), "C".into()],
                duration: None
            }
        );
        let a = parse_action(&n.normalize(
            "computer_call",
            &args(json!({"type": "keypress", "keys": ["ArrowLeft"]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::PressKey {
                key: "ArrowLeft".into(),
                duration: None
            }
        );
        let a = parse_action(&n.normalize(
            "computer_call",
            &args(json!({"type": "drag", "path": [{"x": 1, "y": 2}, {"x": 5, "y": 6}]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::Drag {
                from_x: 1.0,
                from_y: 2.0,
                x: 5.0,
                y: 6.0,
                duration: None
            }
        );
        let a = parse_action(&n.normalize(
            "press_key",
            &args(json!({"keys": "w d", "hold_duration": 0.4})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::PressKeys {
                keys: vec!["w".into(), "d".into()],
                duration: Some(0.4)
            }
        );
        assert!(
            parse_action(&n.normalize("computer", &args(json!({"action": "screenshot"})))).is_err()
        );
    }

    #[test]
    fn normalized_coordinates_scale_to_the_viewport() {
        let mut n = CuaNormalizer::new((1280, 720), CoordinateSpace::Normalized1000);
        let a = parse_action(&n.normalize("click", &args(json!({"x": 250, "y": 500})))).unwrap();
        assert_eq!(
            a,
            Action::Click {
                x: 320.0,
                y: 360.0,
                button: MouseButton::Left,
                clicks: 1
            }
        );
        let a = parse_action(&n.normalize(
            "computer_use",
            &args(json!({"action": "left_click", "coordinate": [1000, 0]})),
        ))
        .unwrap();
        assert_eq!(
            a,
            Action::Click {
                x: 1280.0,
                y: 0.0,
                button: MouseButton::Left,
                clicks: 1
            }
        );
    }
}
