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
