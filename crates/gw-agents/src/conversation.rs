//! The provider-neutral shape of one model call: a system prompt, one user
//! turn of interleaved text and screenshots, and the tools on offer; and the
//! neutral shape of what came back. Providers translate between these and
//! their wire formats; nothing else in the crate knows a wire format.

use crate::Usage;
use base64::Engine;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A screenshot attached to a prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub png: Arc<[u8]>,
    /// Where the runtime stored it (relative to the run directory), when it did.
    pub frame_path: Option<String>,
}

impl Image {
    pub fn base64(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.png)
    }

    /// How this image is written in `model_calls.jsonl` instead of its bytes.
    pub fn record_label(&self) -> String {
        match &self.frame_path {
            Some(p) => format!("<image {p}>"),
            None => format!("<image not stored, {} bytes>", self.png.len()),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    Image(Image),
}

/// A function the model may call: its name and a JSON-schema object.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// What the model may call this step.
#[derive(Clone, Debug, PartialEq)]
pub enum Tools {
    /// Text protocols: the tools are described in the prompt, not the request.
    None,
    /// Generalist agents: one function per semantic action.
    Functions(Vec<ToolSpec>),
    /// Computer-use agents: the provider's own computer tool where it has one,
    /// else these generic low-level functions.
    ComputerUse {
        display: (u32, u32),
        functions: Vec<ToolSpec>,
    },
}

/// One request, before any provider shapes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversation {
    pub system: String,
    pub user: Vec<Part>,
    pub tools: Tools,
}

impl Conversation {
    pub fn images(&self) -> impl Iterator<Item = &Image> {
        self.user.iter().filter_map(|p| match p {
            Part::Image(i) => Some(i),
            Part::Text(_) => None,
        })
    }
}

/// A tool call read from a reply.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    pub name: String,
    /// The arguments, or `Err(raw text)` when they could not be read even
    /// after repair.
    pub arguments: Result<Map<String, Value>, String>,
}

/// A reply, provider-neutral.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelOutput {
    /// Visible text the model wrote (the whole reply for text protocols).
    pub text: String,
    /// Reasoning the provider returned separately (thinking blocks, summaries).
    pub reasoning: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub finish_reason: Option<String>,
    /// Why the reply may carry no action, as the provider stated it
    /// (`refusal: …`, `finishReason: SAFETY`, `incomplete: max_output_tokens`).
    pub stated_reason: Option<String>,
    /// Moves the reply proposed beyond the first (OpenAI's `computer` tool
    /// may send several in one `actions` list; only the first is executed).
    pub extra_actions: u32,
}
