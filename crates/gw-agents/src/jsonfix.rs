//! Reading JSON the way models write it: inside code fences, followed by
//! prose, or cut off by the token limit.

use serde_json::Value;

/// The first JSON value in `text` (code fences and trailing prose ignored),
/// repairing a truncated tail by closing open strings and brackets, cutting
/// back to the last complete member when that is not enough.
pub fn parse_lenient(text: &str) -> Option<Value> {
    let s = strip_fences(text.trim());
    let start = s.find(['{', '['])?;
    let s = &s[start..];
    if let Some(v) = first_value(s) {
        return Some(v);
    }
    if let Some(v) = first_value(&close(s)) {
        return Some(v);
    }
    // Cut back to each top-level-or-nested comma outside strings, last first.
    let mut scan = Strings::default();
    let cuts: Vec<usize> = s
        .char_indices()
        .filter(|&(_, c)| scan.outside(c) && c == ',')
        .map(|(i, _)| i)
        .collect();
    cuts.iter()
        .rev()
        .find_map(|&i| first_value(&close(&s[..i])))
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
}
