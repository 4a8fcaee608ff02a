//! Reading JSON the way models write it: inside code fences, followed by
//! prose, or cut off by the token limit.

use serde_json::{Map, Value};

/// The most of a reply the repair looks at; the rest is treated as cut off.
pub const MAX_REPAIR_BYTES: usize = 256 * 1024;
/// How many cut-back points (the last commas) the repair tries at most.
pub const MAX_CUTS: usize = 8;

/// The first JSON value in `text` (code fences and trailing prose ignored),
/// repairing a truncated tail by closing open strings and brackets, cutting
/// back to one of the last complete members when that is not enough.
pub fn parse_lenient(text: &str) -> Option<Value> {
    parse_lenient_counted(text).0
}

/// [`parse_lenient`], also returning the bytes scanned by every pass (the
/// work done): at most a fixed multiple of `min(len, MAX_REPAIR_BYTES)`,
/// whatever the input — the repair is linear and bounded.
pub fn parse_lenient_counted(text: &str) -> (Option<Value>, usize) {
    let mut work = 0usize;
    let value = repair(text, &mut work);
    (value, work)
}

fn repair(text: &str, work: &mut usize) -> Option<Value> {
    let text = crate::formats::capped(text, MAX_REPAIR_BYTES);
    *work += text.len();
    let s = strip_fences(text.trim());
    let start = s.find(['{', '['])?;
    let s = &s[start..];
    let attempt = |candidate: &str, work: &mut usize| {
        *work += candidate.len();
        first_value(candidate)
    };
    if let Some(v) = attempt(s, work) {
        return Some(v);
    }
    *work += s.len();
    if let Some(v) = attempt(&close(s), work) {
        return Some(v);
    }
    // Cut back to one of the last commas outside strings, last first. Only
    // a few are tried: a reply broken earlier than its last members is not
    // worth a pass per comma (that made the repair quadratic).
    let mut scan = Strings::default();
    let mut cuts = std::collections::VecDeque::with_capacity(MAX_CUTS);
    *work += s.len();
    for (i, c) in s.char_indices() {
        if scan.outside(c) && c == ',' {
            if cuts.len() == MAX_CUTS {
                cuts.pop_front();
            }
            cuts.push_back(i);
        }
    }
    cuts.iter().rev().find_map(|&i| {
        *work += i;
        attempt(&close(&s[..i]), work)
    })
}

fn strip_fences(s: &str) -> &str {
    let Some(rest) = s.strip_prefix("```") else {
        return s;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    rest.rfind("```").map_or(rest, |end| &rest[..end])
}

fn first_value(s: &str) -> Option<Value> {
    serde_json::Deserializer::from_str(s)
        .into_iter::<Value>()
        .next()?
        .ok()
}

/// Where a left-to-right scan stands with respect to JSON strings.
#[derive(Default)]
struct Strings {
    in_string: bool,
    escaped: bool,
}

impl Strings {
    /// Step over `c`; true when `c` stands outside every string (quotes
    /// themselves count as inside).
    fn outside(&mut self, c: char) -> bool {
        if self.in_string {
            match (self.escaped, c) {
                (true, _) => self.escaped = false,
                (false, '\\') => self.escaped = true,
                (false, '"') => self.in_string = false,
                _ => {}
            }
            false
        } else if c == '"' {
            self.in_string = true;
            false
        } else {
            true
        }
    }
}

/// `s` with an open string closed, a dangling `:`/`,` settled, and every
/// open bracket closed in order.
fn close(s: &str) -> String {
    let mut stack = Vec::new();
    let mut scan = Strings::default();
    for c in s.chars().filter(|&c| scan.outside(c)) {
        match c {
            '{' => stack.push('}'),
            '[' => stack.push(']'),
            '}' | ']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    let mut out = s.to_string();
    if scan.escaped {
        out.pop();
    }
    if scan.in_string {
        out.push('"');
    }
    let trimmed = out.trim_end();
    if let Some(head) = trimmed.strip_suffix(',') {
        out = head.to_string();
    } else if trimmed.ends_with(':') {
        out = format!("{trimmed} null");
    }
    while let Some(c) = stack.pop() {
        out.push(c);
    }
    out
}

/// Tool arguments that arrived as a JSON string (OpenAI style), repaired
/// when truncated.
pub fn arguments_from_text(raw: &str) -> Result<Map<String, Value>, String> {
    if raw.trim().is_empty() {
        return Ok(Map::new());
    }
    match parse_lenient(raw) {
        Some(Value::Object(m)) => Ok(m),
        _ => Err(raw.to_string()),
    }
}

/// Tool arguments as a provider sent them: an object, a JSON string of one
/// (repaired when truncated), or nothing.
pub fn arguments_from_value(v: Option<&Value>) -> Result<Map<String, Value>, String> {
    match v {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(Value::String(s)) => arguments_from_text(s),
        Some(other) => Err(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_models_write() {
        assert_eq!(parse_lenient(r#"{"a": 1}"#), Some(json!({"a": 1})));
        assert_eq!(
            parse_lenient("```json\n{\"a\": 1}\n```"),
            Some(json!({"a": 1}))
        );
        assert_eq!(
            parse_lenient(r#"{"a": 1} and then I thought {"b": 2}"#),
            Some(json!({"a": 1}))
        );
        assert_eq!(
            parse_lenient(r#"Sure: {"name": "x", "arguments": {"k": "v"#),
            Some(json!({"name": "x", "arguments": {"k": "v"}}))
        );
        assert_eq!(
            parse_lenient(r#"{"name": "move_up", "argum"#),
            Some(json!({"name": "move_up"}))
        );
        assert_eq!(
            parse_lenient(r#"{"name": "move_up", "arguments": "#),
            Some(json!({"name": "move_up", "arguments": null}))
        );
        assert_eq!(
            parse_lenient(r#"{"keys": ["a", "b"#),
            Some(json!({"keys": ["a", "b"]}))
        );
        assert_eq!(parse_lenient("no json here"), None);
    }

    /// A 1 MB hostile reply (thousands of commas, broken early) costs a
    /// bounded number of passes over at most MAX_REPAIR_BYTES: the work is
    /// counted in bytes scanned, not timed.
    #[test]
    fn repair_work_is_linear_and_capped() {
        let broken = |n: usize| {
            let mut s = String::from("{\"a\": [1, 2, 'bad' ");
            while s.len() < n {
                s.push_str(", 123");
            }
            s
        };
        let (v, work_1mb) = parse_lenient_counted(&broken(1 << 20));
        assert_eq!(v, None);
        let bound = (5 + 2 * MAX_CUTS) * MAX_REPAIR_BYTES;
        assert!(work_1mb <= bound, "{work_1mb} bytes scanned > {bound}");
        // Below the cap, the work grows linearly with the input.
        let (_, w1) = parse_lenient_counted(&broken(20_000));
        let (_, w2) = parse_lenient_counted(&broken(40_000));
        assert!(w2 * 100 <= w1 * 205, "{w1} -> {w2}");
        assert!(w1 <= (5 + 2 * MAX_CUTS) * 20_100);
        // A long but well-formed truncated reply is still repaired.
        let mut long = String::from("{\"keys\": [");
        for i in 0..30_000 {
            long.push_str(&format!("{i}, "));
        }
        long.push_str("12");
        let (v, _) = parse_lenient_counted(&long);
        assert_eq!(v.unwrap()["keys"].as_array().unwrap().len(), 30_001);
    }
}
