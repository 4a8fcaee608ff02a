//! Reading answers the way models write them: normalised words, the
//! `<think>…</think><answer>…</answer>` template Optimus-3 trains with,
//! JSON inside prose, numbers and yes/no in sentences.

use serde_json::Value;

/// Lowercase words: `_`, `-` and punctuation become spaces, runs of spaces
/// collapse, and a leading article is dropped (`"The Iron_Ore."` → `iron ore`).
pub fn norm(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let skip = match words.first() {
        Some(&("the" | "a" | "an")) if words.len() > 1 => 1,
        _ => 0,
    };
    words[skip..].join(" ")
}

/// Whether normalised `text` names `phrase` as whole words (a plural `s` or
/// `es` also counts: "cows" names "cow").
pub fn mentions(text: &str, phrase: &str) -> bool {
    let (t, p) = (format!(" {} ", norm(text)), norm(phrase));
    if p.is_empty() {
        return false;
    }
    [format!(" {p} "), format!(" {p}s "), format!(" {p}es ")]
        .iter()
        .any(|q| t.contains(q.as_str()))
}

/// The answer part of a reply: inside `<answer>…</answer>` when present,
/// else the text with any `<think>…</think>` removed.
pub fn answer_part(text: &str) -> &str {
    if let Some(a) = text.find("<answer>") {
        let rest = &text[a + "<answer>".len()..];
        return rest.find("</answer>").map_or(rest, |e| &rest[..e]).trim();
    }
    match text.rfind("</think>") {
        Some(e) => text[e + "</think>".len()..].trim(),
        None => text.trim(),
    }
}

/// The first JSON object or array in a reply, repaired the way the agent
/// harness repairs tool arguments.
pub fn json_in(text: &str) -> Option<Value> {
    gw_agents::jsonfix::parse_lenient(text)
}

/// The first whole number in the text.
pub fn first_int(text: &str) -> Option<i64> {
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else if !digits.is_empty() {
            break;
        }
    }
    digits.parse().ok()
}

/// All numbers in the text (integers or decimals), in order.
pub fn numbers(text: &str) -> Vec<f64> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == '.' && !cur.is_empty() && !cur.contains('.')) {
            cur.push(c);
        } else {
            if let Ok(v) = cur.trim_end_matches('.').parse::<f64>() {
                out.push(v);
            }
            cur.clear();
        }
    }
    out
}

/// Yes or no from the first word that says so (`yes`, `true`, `no`, `false`).
pub fn yes_no(text: &str) -> Option<bool> {
    norm(text).split(' ').find_map(|w| match w {
        "yes" | "true" => Some(true),
        "no" | "false" | "not" => Some(false),
        _ => None,
    })
}

/// A JSON answer as text (strings as they are, other values as JSON).
pub fn as_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_finds_phrases() {
        assert_eq!(norm("The Iron_Ore."), "iron ore");
        assert_eq!(norm("a"), "a");
        assert!(mentions("Two cows graze near the OAK_LOG", "cow"));
        assert!(mentions("Two cows graze near the OAK_LOG", "oak log"));
        assert!(!mentions("a cowboy", "cow"));
        assert!(!mentions("anything", ""));
    }

    #[test]
    fn reads_answers_out_of_replies() {
        let r = "<think>I see ore.</think><answer>{\"bbox_2d\": [1, 2, 3, 4]}</answer>";
        assert_eq!(answer_part(r), "{\"bbox_2d\": [1, 2, 3, 4]}");
        assert_eq!(answer_part("<think>x</think> 7"), "7");
        assert_eq!(first_int("There are 12 sticks, not 3"), Some(12));
        assert_eq!(
            numbers("box: (10, 20.5) to [30., 40]"),
            vec![10.0, 20.5, 30.0, 40.0]
        );
        assert_eq!(yes_no("Yes, it is night."), Some(true));
        assert_eq!(yes_no("It is not night"), Some(false));
        assert_eq!(yes_no("maybe"), None);
        let v = json_in("Here: ```json\n{\"a\": 1}\n``` done").unwrap();
        assert_eq!(v["a"], 1);
    }
}
