//! The Qwen-VL text protocol: an optional `<think>…</think>` block, then
//! `<tool_call>{"name": …, "arguments": {…}}</tool_call>`. Tools are listed
//! in the prompt inside `<tools>…</tools>`, one JSON object per line.
//!
//! Tolerated: a missing `</tool_call>` (cut off by the token limit), a
//! truncated JSON body (repaired), prose around the blocks, a `<think>`
//! without its opening tag (Qwen3 thinking models), arguments given as a
//! JSON string. Several blocks: the first readable one is used.

use super::{TextReply, think_of};
use crate::conversation::{ToolCall, ToolSpec};
use crate::formats::jsonfix::arguments_from_value;
use crate::formats::providers::openai::function_tool;
use serde_json::Value;

const OPEN: &str = "<tool_call>";
const CLOSE: &str = "</tool_call>";

/// The `<tools>` block describing the functions, for the prompt.
pub fn tools_block(tools: &[ToolSpec]) -> String {
    let mut s = String::from("<tools>\n");
    for t in tools {
        s.push_str(&function_tool(t).to_string());
        s.push('\n');
    }
    s.push_str("</tools>");
    s
}

pub fn read(text: &str) -> TextReply {
    let reasoning = think_of(text);
    let body = text
        .rfind("</think>")
        .map_or(text, |i| &text[i + "</think>".len()..]);
    let mut blocks = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find(OPEN) {
        let after = &rest[i + OPEN.len()..];
        match after.find(CLOSE) {
            Some(j) => {
                blocks.push(&after[..j]);
                rest = &after[j + CLOSE.len()..];
            }
            None => {
                blocks.push(after);
                rest = "";
            }
        }
    }
    if blocks.is_empty() {
        return TextReply {
            reasoning,
            call: None,
            note: Some("the reply has no <tool_call> block".into()),
        };
    }
    let total = blocks.len();
    for block in blocks {
        let Some(Value::Object(obj)) = crate::formats::jsonfix::parse_lenient(block) else {
            continue;
        };
        let Some(name) = obj
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
        else {
            continue;
        };
        let call = ToolCall {
            name: name.to_string(),
            arguments: arguments_from_value(obj.get("arguments").or_else(|| obj.get("parameters"))),
        };
        let note = (total > 1)
            .then(|| format!("{total} <tool_call> blocks; the first readable one was used"));
        return TextReply {
            reasoning,
            call: Some(call),
            note,
        };
    }
    TextReply {
        reasoning,
        call: None,
        note: Some("no <tool_call> block holds a readable {\"name\", \"arguments\"} object".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_qwen_replies() {
        let r = read(
            "<think>slide up to merge</think>\n<tool_call>\n{\"name\": \"move_up\", \"arguments\": {}}\n</tool_call>",
        );
        assert_eq!(r.reasoning.as_deref(), Some("slide up to merge"));
        assert_eq!(r.call.unwrap().name, "move_up");
        // Thinking models: the opening tag is in the template, not the reply.
        let r = read(
            "the 8s line up</think><tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"key\", \"keys\": [\"up\"]}}</tool_call>",
        );
        assert_eq!(r.reasoning.as_deref(), Some("the 8s line up"));
        let call = r.call.unwrap();
        assert_eq!(call.arguments.unwrap()["keys"], json!(["up"]));
        // Cut off mid-JSON.
        let r = read(
            "<tool_call>{\"name\": \"move_left\", \"arguments\": {\"reasoning\": \"merge the tw",
        );
        assert_eq!(r.call.unwrap().name, "move_left");
        // Two calls: the first is used.
        let r = read(
            "<tool_call>{\"name\": \"a\"}</tool_call><tool_call>{\"name\": \"b\"}</tool_call>",
        );
        assert_eq!(r.call.unwrap().name, "a");
        assert!(r.note.unwrap().contains("2"));
        // Prose only, or an unreadable block: no call.
        assert!(read("I would move up.").call.is_none());
        assert!(read("<tool_call>{\"nam").call.is_none());
        assert!(read("<tool_call>move_up</tool_call>").call.is_none());
    }
}
