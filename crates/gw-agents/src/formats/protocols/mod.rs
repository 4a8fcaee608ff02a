//! Text protocols for models served without native tool calling: the tool
//! calls are written in the reply text and read back here. A reader returns
//! the first usable call (one action per step) or none — which the runtime
//! counts as no tool call.

pub mod qwen;
pub mod ui_tars;

use crate::conversation::ToolCall;

/// What a text reply contained.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextReply {
    pub reasoning: Option<String>,
    pub call: Option<ToolCall>,
    /// Why no call was read, or what was dropped (extra calls).
    pub note: Option<String>,
}

/// The reasoning in a reply: the `<think>` block, or everything before
/// `</think>` when the opening tag was consumed by the chat template.
pub fn think_of(text: &str) -> Option<String> {
    let end = text.find("</think>")?;
    let start = text[..end]
        .find("<think>")
        .map_or(0, |i| i + "<think>".len());
    let t = text[start..end].trim();
    (!t.is_empty()).then(|| t.to_string())
}
