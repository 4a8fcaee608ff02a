//! The one redaction point. Every secret the process reads (API keys from
//! the environment) is registered here when it is read, and every text the
//! runtime writes to a file or prints passes through [`text`] / [`value`]
//! (files) or [`terminal`] (stdout and stderr), which mask each registered
//! secret wherever it appears: in headers, URLs, error bodies that echo the
//! key, or model text that repeats it. [`terminal`] also strips terminal
//! control sequences (ANSI CSI, OSC, other escapes) from provider text.
//!
//! Provider text is also bounded here: [`clip`] masks first, strips control
//! sequences, and only then cuts, so a key that straddles the cut can never
//! leave a prefix behind; what is cut is replaced by its length and a hash.

use serde_json::Value;
use std::sync::RwLock;

/// What a secret is replaced with.
pub const MASK: &str = "[REDACTED]";

static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Remember a secret so that no output ever shows it. Every non-empty
/// secret is registered, however short: a key of a few characters is
/// masked too, and so are those characters wherever else they appear.
pub fn register(secret: &str) {
    let secret = secret.trim();
    if secret.is_empty() || secret == MASK {
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

/// One pass over the original text: every byte that belongs to an
/// occurrence of any secret (overlapping ones included) is covered, and each
/// covered run becomes one [`MASK`]. Masking secret by secret instead would
/// let a short secret match inside the mask of a longer one, or let two
/// overlapping secrets leave part of one behind.
fn mask(s: &str, secrets: &[String]) -> String {
    let mut covered: Vec<(usize, usize)> = Vec::new();
    for secret in secrets {
        let mut from = 0;
        while let Some(at) = s[from..].find(secret.as_str()) {
            let start = from + at;
            covered.push((start, start + secret.len()));
            // Next match may overlap this one: step one character on.
            from = start + s[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if covered.is_empty() {
        return s.to_string();
    }
    covered.sort_unstable();
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    let mut i = 0;
    while i < covered.len() {
        let (start, mut end) = covered[i];
        i += 1;
        while i < covered.len() && covered[i].0 <= end {
            end = end.max(covered[i].1);
            i += 1;
        }
        out.push_str(&s[at..start]);
        out.push_str(MASK);
        at = end;
    }
    out.push_str(&s[at..]);
    out
}

/// The most bytes of one provider message (an error body, a reply's text,
/// a stated reason) that a printed line or a run file keeps; see [`clip`].
pub const MAX_MESSAGE: usize = 2000;

/// The most bytes of one provider text stored in `trajectory.jsonl` and
/// `model_calls.jsonl` (a reasoning text, a raw response); see [`clip`].
pub const MAX_STORED_TEXT: usize = 64 * 1024;

/// Provider text made safe to print or store, in this order: secrets
/// masked, control sequences stripped, then cut to at most `max` bytes
/// (at a character boundary). A cut text ends with
/// `… [N bytes in all; sha256 of the rest: HEX]`, so two long texts that
/// differ after the cut still read as different.
pub fn clip(s: &str, max: usize) -> String {
    let clean = terminal(s);
    if clean.len() <= max {
        return clean;
    }
    let mut end = max;
    while !clean.is_char_boundary(end) {
        end -= 1;
    }
    use sha2::Digest;
    let digest = sha2::Sha256::digest(&clean.as_bytes()[end..]);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}… [{} bytes in all; sha256 of the rest: {hex}]",
        &clean[..end],
        clean.len()
    )
}

/// A JSON value with every string in it (keys too) passed through [`clip`].
pub fn clip_value(v: &Value, max: usize) -> Value {
    match v {
        Value::String(s) => Value::String(clip(s, max)),
        Value::Array(a) => Value::Array(a.iter().map(|x| clip_value(x, max)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (clip(k, max), clip_value(x, max)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// [`clip`] to [`MAX_MESSAGE`]: for one provider message (an error body, a
/// stated reason, a note about a reply).
pub fn message(s: &str) -> String {
    clip(s, MAX_MESSAGE)
}

/// The most bytes of an error line printed or stored as a run's or suite
/// row's `error`: room for a clipped provider message and its context.
pub const MAX_ERROR: usize = 4 * MAX_MESSAGE;

/// [`clip`] to [`MAX_ERROR`]: the last bound on a whole error text.
pub fn error_text(s: &str) -> String {
    clip(s, MAX_ERROR)
}

/// A JSON value for a file: every registered secret masked and terminal
/// control sequences stripped in its strings and keys (working on the
/// value, not its serialized text, keeps the JSON valid whatever the
/// secret's characters).
pub fn value(v: &Value) -> Value {
    with_secrets(|secrets| clean_value(v, secrets))
}

fn clean_str(s: &str, secrets: &[String]) -> String {
    if secrets.is_empty() {
        return strip_control(s);
    }
    // Masking before and after stripping: an escape sequence inside a key
    // must not hide it from the first pass and rejoin it in the second.
    mask(&strip_control(&mask(s, secrets)), secrets)
}

fn clean_value(v: &Value, secrets: &[String]) -> Value {
    match v {
        Value::String(s) => Value::String(clean_str(s, secrets)),
        Value::Array(a) => Value::Array(a.iter().map(|x| clean_value(x, secrets)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (clean_str(k, secrets), clean_value(x, secrets)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Text for a terminal or a text file (CSV, Markdown, HTML): secrets
/// masked, and escape sequences (CSI `ESC [ …`, OSC `ESC ] … BEL|ESC \`,
/// other `ESC x`), C1 controls and other control characters removed;
/// newlines and tabs stay.
pub fn terminal(s: &str) -> String {
    with_secrets(|secrets| clean_str(s, secrets))
}

/// `s` without terminal control sequences (see [`terminal`]).
pub fn strip_control(s: &str) -> String {
    if !has_control(s) {
        return s.to_string();
    }
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

/// Whether `s` holds a control character other than newline and tab (C0,
/// DEL, or a C1 control, which UTF-8 writes as 0xC2 0x80..=0x9F).
fn has_control(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        (c < 0x20 && c != b'\n' && c != b'\t')
            || c == 0x7f
            || (c == 0xc2 && b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
    })
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
        assert_eq!(text("key=sk-unit-test-secret-42&x=k"), "key=[REDACTED]&x=k");
        let v = value(&json!({"sk-unit-test-secret-42": ["a sk-unit-test-secret-42 b", 1]}));
        assert_eq!(v, json!({"[REDACTED]": ["a [REDACTED] b", 1]}));
        assert_eq!(
            terminal("\u{1b}[31msk-unit-test-secret-42\u{1b}[0m"),
            "[REDACTED]"
        );
    }

    #[test]
    fn short_and_overlapping_secrets_are_masked_whole() {
        // A key of any length is registered and masked (here 3 characters).
        register("Qz9");
        assert_eq!(text("a Qz9 b"), "a [REDACTED] b");
        // Overlapping secrets: one mask over the union, nothing left over.
        register("ovlp-AAAA-1111");
        register("1111-BBBB-ovlp");
        assert_eq!(text("x ovlp-AAAA-1111-BBBB-ovlp y"), "x [REDACTED] y");
        // An escape sequence inside a key does not smuggle it through.
        register("sk-split-key-777");
        assert_eq!(terminal("sk-split\u{1b}[0m-key-777!"), "[REDACTED]!");
        assert_eq!(
            value(&json!(["sk-split\u{1b}]0;t\u{7}-key-777"])),
            json!(["[REDACTED]"])
        );
    }

    #[test]
    fn clipping_masks_first_and_keeps_a_length_and_hash() {
        let key = "sk-clip-0123456789abcdef";
        register(key);
        // The key straddles the cut: masked first, so no prefix of it survives.
        let body = format!("{}{key}{}", "e".repeat(MAX_MESSAGE - 5), "z".repeat(5000));
        let out = message(&body);
        assert!(!out.contains("sk-c"), "{}", &out[MAX_MESSAGE - 20..]);
        assert!(out.starts_with(&"e".repeat(MAX_MESSAGE - 5)));
        let masked_len = MAX_MESSAGE - 5 + MASK.len() + 5000;
        assert!(
            out.contains(&format!(
                "… [{masked_len} bytes in all; sha256 of the rest: "
            )),
            "{}",
            &out[MAX_MESSAGE - 20..]
        );
        assert!(out.len() < MAX_MESSAGE + 120);
        // Different tails, different hashes; short texts pass unchanged.
        assert_ne!(
            message(&"a".repeat(9000)),
            message(&format!("{}b", "a".repeat(8999)))
        );
        assert_eq!(message("short \u{1b}[1mbold"), "short bold");
        // Cut at a character boundary.
        let wide = "é".repeat(MAX_MESSAGE);
        assert!(message(&wide).starts_with(&"é".repeat(MAX_MESSAGE / 2)));
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
