//! The one redaction point. Every secret the process reads (API keys from
//! the environment) is registered here when it is read, and every text the
//! runtime writes to a file or prints passes through [`text`] / [`value`]
//! (files) or [`terminal`] (stdout and stderr), which mask each registered
//! secret wherever it appears: in headers, URLs, error bodies that echo the
//! key, or model text that repeats it. [`terminal`] also strips terminal
//! control sequences (ANSI CSI, OSC, other escapes) from provider text.

use serde_json::Value;
use std::sync::RwLock;

/// What a secret is replaced with.
pub const MASK: &str = crate::http::REDACTED;

/// Secrets shorter than this are not registered: masking every occurrence
/// of a two-letter "key" would mangle all output and protect nothing.
pub const MIN_SECRET_LEN: usize = 6;

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Remember a secret so that no output ever shows it.
pub fn register(secret: &str) {
    let secret = secret.trim();
    if secret.len() < MIN_SECRET_LEN || secret == MASK {
        return;
    }
    let mut all = SECRETS.write().unwrap_or_else(|e| e.into_inner());
    if !all.iter().any(|s| s == secret) {
        all.push(secret.to_string());
        // Longest first, so a secret containing another is masked whole.
        all.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }
}

fn with_secrets<R>(f: impl FnOnce(&[String]) -> R) -> R {
    let all = SECRETS.read().unwrap_or_else(|e| e.into_inner());
    f(&all)
}

/// `s` with every registered secret masked.
pub fn text(s: &str) -> String {
    with_secrets(|secrets| mask(s, secrets))
}

fn mask(s: &str, secrets: &[String]) -> String {
    let mut out = None::<String>;
    for secret in secrets {
        let cur = out.as_deref().unwrap_or(s);
        if cur.contains(secret.as_str()) {
            out = Some(cur.replace(secret.as_str(), MASK));
        }
    }
    out.unwrap_or_else(|| s.to_string())
}

/// A JSON value with every registered secret masked in its strings and keys
/// (masking the value, not its serialized text, keeps the JSON valid).
pub fn value(v: &Value) -> Value {
    with_secrets(|secrets| {
        if secrets.is_empty() {
            v.clone()
        } else {
            mask_value(v, secrets)
        }
    })
}

fn mask_value(v: &Value, secrets: &[String]) -> Value {
    match v {
        Value::String(s) => Value::String(mask(s, secrets)),
        Value::Array(a) => Value::Array(a.iter().map(|x| mask_value(x, secrets)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (mask(k, secrets), mask_value(x, secrets)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Text for a terminal: secrets masked, and escape sequences (CSI `ESC [ …`,
/// OSC `ESC ] … BEL|ESC \`, other `ESC x`), C1 controls and other control
/// characters removed; newlines and tabs stay.
pub fn terminal(s: &str) -> String {
    strip_control(&text(s))
}

/// `s` without terminal control sequences (see [`terminal`]).
pub fn strip_control(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.next() {
                // CSI: parameters and intermediates, then one final byte.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \).
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut chars),
                _ => {}
            },
            '\u{9b}' => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' if chars.peek() == Some(&'\\') => {
                chars.next();
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn registered_secrets_are_masked_everywhere() {
        register("sk-unit-test-secret-42");
        register("k");
        assert_eq!(text("key=sk-unit-test-secret-42&x=k"), "key=[REDACTED]&x=k");
        let v = value(&json!({"sk-unit-test-secret-42": ["a sk-unit-test-secret-42 b", 1]}));
        assert_eq!(v, json!({"[REDACTED]": ["a [REDACTED] b", 1]}));
        assert_eq!(
            terminal("\u{1b}[31msk-unit-test-secret-42\u{1b}[0m"),
            "[REDACTED]"
        );
    }

    #[test]
    fn terminal_text_loses_escape_sequences() {
        assert_eq!(
            strip_control("a\u{1b}[2J\u{1b}[1;31mred\u{1b}[0m b"),
            "ared b"
        );
        assert_eq!(
            strip_control(
                "x\u{1b}]0;pwned title\u{7}y\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\z"
            ),
            "xylinkz"
        );
        assert_eq!(
            strip_control("bell\u{7} cr\r del\u{7f} c1\u{9b}31m ok\nnext\t."),
            "bell cr del c1 ok\nnext\t."
        );
        assert_eq!(
            strip_control("unterminated \u{1b}]52;c;ZXZpbA=="),
            "unterminated "
        );
        assert_eq!(strip_control("héllo ✓"), "héllo ✓");
    }
}
