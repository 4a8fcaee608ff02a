//! The UI-TARS / Seed text protocol: `Thought: …` then `Action: verb(arg='…')`,
//! e.g. `hotkey(key='w d')`, `click(point='<point>640 360</point>')`,
//! `right_single(…)`, `drag(start_point=…, end_point=…)`, `type(content='…')`,
//! `scroll(point=…, direction='down')`, `wait()`.
//!
//! Computer-use replies are rewritten into the generic low-level vocabulary
//! (`click`, `press_key`, …) with points as `x`/`y`; generalist replies
//! written in the same call syntax (`move_up()`, `reveal(cell='c4')`) name a
//! semantic action directly. Several calls: the first is used.

use super::{TextReply, think_of};
use crate::conversation::ToolCall;
use crate::formats::cua::point_of;
use serde_json::{Map, Value, json};

/// One `verb(k='v', …)` call found in the text.
#[derive(Clone, Debug, PartialEq)]
struct RawCall {
    verb: String,
    args: Vec<(String, String)>,
}

pub fn read(text: &str, computer_use: bool) -> TextReply {
    let (reasoning, action_text) = split_thought(text);
    let calls = find_calls(action_text);
    let Some(first) = calls.first() else {
        return TextReply {
            reasoning,
            call: None,
            note: Some("the reply has no action call such as hotkey(key='…')".into()),
        };
    };
    let note =
        (calls.len() > 1).then(|| format!("{} action calls; the first was used", calls.len()));
    let call = if computer_use {
        to_low_level(first)
    } else {
        to_semantic(first)
    };
    TextReply {
        reasoning,
        call: Some(call),
        note,
    }
}

fn split_thought(text: &str) -> (Option<String>, &str) {
    let action_at = text.find("Action:");
    let thought = text.find("Thought:").map(|i| {
        let start = i + "Thought:".len();
        let end = action_at.filter(|&a| a > start).unwrap_or(text.len());
        text[start..end].trim().to_string()
    });
    let thought = thought.or_else(|| think_of(text)).filter(|t| !t.is_empty());
    let action_text = match action_at {
        Some(a) => &text[a + "Action:".len()..],
        None => text
            .rfind("</think>")
            .map_or(text, |i| &text[i + "</think>".len()..]),
    };
    (thought, action_text)
}

/// Every `identifier(args)` whose arguments read as `key=value` pairs.
fn find_calls(text: &str) -> Vec<RawCall> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !(bytes[i].is_ascii_alphabetic() || bytes[i] == b'_')
            || (i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i >= bytes.len() || bytes[i] != b'(' {
            continue;
        }
        let verb = text[start..i].to_string();
        let Some((args_text, end)) = balanced_args(text, i + 1) else {
            break;
        };
        i = end;
        if let Some(args) = parse_kwargs(args_text) {
            out.push(RawCall { verb, args });
        }
    }
    out
}

/// The text up to the `)` that closes the call, skipping quoted parts.
fn balanced_args(text: &str, from: usize) -> Option<(&str, usize)> {
    let mut quote: Option<char> = None;
    let mut depth = 0;
    for (off, c) in text[from..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') if depth == 0 => return Some((&text[from..from + off], from + off + 1)),
            (None, ')') => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `key='v', other="w", n=3` → pairs; `None` when it is not that shape.
fn parse_kwargs(s: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let eq = rest.find('=')?;
        let key = rest[..eq].trim();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let after = rest[eq + 1..].trim_start();
        let (value, remainder) = match after.chars().next() {
            Some(q @ ('\'' | '"')) => {
                let close = after[1..].find(q)? + 1;
                (&after[1..close], &after[close + 1..])
            }
            _ => {
                let end = after.find(',').unwrap_or(after.len());
                (after[..end].trim(), &after[end..])
            }
        };
        out.push((key.to_string(), value.to_string()));
        rest = remainder.trim_start().trim_start_matches(',').trim_start();
    }
    Some(out)
}

fn arg<'a>(call: &'a RawCall, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| {
        call.args
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_str())
    })
}

/// A point from `<point>x y</point>`, `(x,y)`, `<|box_start|>(x,y)<|box_end|>`
/// or a box `(x1,y1,x2,y2)` (its centre).
fn point_arg(s: &str) -> Option<(f64, f64)> {
    let nums: Vec<f64> = s
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .collect();
    match nums.len() {
        4.. => Some(((nums[0] + nums[2]) / 2.0, (nums[1] + nums[3]) / 2.0)),
        _ => point_of(&Value::String(s.to_string())),
    }
}

fn to_low_level(call: &RawCall) -> ToolCall {
    let mut m = Map::new();
    let at = |m: &mut Map<String, Value>, names: &[&str], kx: &str, ky: &str| {
        if let Some((x, y)) = arg(call, names).and_then(point_arg) {
            m.insert(kx.into(), json!(x));
            m.insert(ky.into(), json!(y));
        }
    };
    let verb = call.verb.to_ascii_lowercase();
    let name = match verb.as_str() {
        "click" | "left_single" => {
            at(&mut m, &["point", "start_box", "start_point"], "x", "y");
            "click"
        }
        "left_double" | "double_click" => {
            at(&mut m, &["point", "start_box", "start_point"], "x", "y");
            "double_click"
        }
        "right_single" | "right_click" => {
            at(&mut m, &["point", "start_box", "start_point"], "x", "y");
            m.insert("button".into(), json!("right"));
            "click"
        }
        "hover" | "mouse_move" | "move_to" => {
            at(&mut m, &["point", "start_box", "start_point"], "x", "y");
            "mouse_move"
        }
        "drag" | "select" => {
            at(&mut m, &["start_point", "start_box"], "from_x", "from_y");
            at(&mut m, &["end_point", "end_box"], "x", "y");
            "drag"
        }
        "hotkey" | "press" | "keydown" | "key" => {
            if let Some(k) = arg(call, &["key", "hotkey", "keys"]) {
                m.insert("keys".into(), json!(k));
            }
            "press_key"
        }
        "type" => {
            if let Some(t) = arg(call, &["content", "text"]) {
                m.insert("text".into(), json!(t.replace("\\n", "\n")));
            }
            "type"
        }
        "scroll" => {
            at(&mut m, &["point", "start_box", "start_point"], "x", "y");
            m.insert(
                "direction".into(),
                json!(arg(call, &["direction"]).unwrap_or("down")),
            );
            "scroll"
        }
        "wait" | "sleep" => "wait",
        _ => {
            for (k, v) in &call.args {
                m.insert(k.clone(), json!(v));
            }
            return ToolCall {
                name: call.verb.clone(),
                arguments: Ok(m),
            };
        }
    };
    ToolCall {
        name: name.into(),
        arguments: Ok(m),
    }
}

fn to_semantic(call: &RawCall) -> ToolCall {
    let m: Map<String, Value> = call
        .args
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    ToolCall {
        name: call.verb.clone(),
        arguments: Ok(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(r: &TextReply) -> Value {
        Value::Object(r.call.as_ref().unwrap().arguments.clone().unwrap())
    }

    #[test]
    fn reads_ui_tars_replies() {
        let r = read("Thought: jump right\nAction: hotkey(key='w d')", true);
        assert_eq!(r.reasoning.as_deref(), Some("jump right"));
        assert_eq!(r.call.as_ref().unwrap().name, "press_key");
        assert_eq!(args(&r), json!({"keys": "w d"}));
        let r = read("Action: click(point='<point>640 360</point>')", true);
        assert_eq!(args(&r), json!({"x": 640.0, "y": 360.0}));
        let r = read(
            "right_single(start_box='<|box_start|>(10,20)<|box_end|>')",
            true,
        );
        assert_eq!(args(&r), json!({"x": 10.0, "y": 20.0, "button": "right"}));
        let r = read(
            "Action: drag(start_point='<point>1 2</point>', end_point='<point>30 40</point>')",
            true,
        );
        assert_eq!(
            args(&r),
            json!({"from_x": 1.0, "from_y": 2.0, "x": 30.0, "y": 40.0})
        );
        let r = read("Thought: look\nAction: wait()\n\nhotkey(key='a')", true);
        assert_eq!(r.call.as_ref().unwrap().name, "wait");
        assert!(r.note.is_some());
        let r = read("Action: finished(content='done')", true);
        assert_eq!(r.call.as_ref().unwrap().name, "finished");
        assert!(
            read("Thought: I am not sure what to do here (maybe up).", true)
                .call
                .is_none()
        );
        assert!(read("Action: hotkey(key='w", true).call.is_none());
        let r = read("Action: move_up()", false);
        assert_eq!(r.call.unwrap().name, "move_up");
    }
}
