//! OpenAI Chat Completions, and every server that speaks it: vLLM,
//! llama.cpp server, Ollama, DashScope compatible mode, Z.ai, Moonshot, xAI,
//! BytePlus ARK (Seed). Images travel as `data:` URLs in `image_url` parts;
//! tools as `{"type": "function"}` entries; usage from `usage.prompt_tokens`,
//! `completion_tokens` and `prompt_tokens_details.cached_tokens`.
//!
//! Chat Completions has no built-in computer tool, so computer-use agents
//! get the generic low-level functions.

use super::{
    HttpRequest, Provider, base_url, bearer, json_request, set_opt, stated_reason, str_at, u64_at,
};
use crate::Usage;
use crate::conversation::{Conversation, ModelOutput, Part, ToolCall, ToolSpec, Tools};
use crate::formats::jsonfix::arguments_from_value;
use gw_core::registry::ModelSpec;
use serde_json::{Value, json};

pub struct OpenAiChat;

/// A function in Chat Completions' `tools` shape (which Qwen's `<tools>`
/// prompt block uses too).
pub fn function_tool(t: &ToolSpec) -> Value {
    json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}})
}

impl Provider for OpenAiChat {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn build(&self, model: &ModelSpec, conv: &Conversation, api_key: Option<&str>) -> HttpRequest {
        let content: Vec<Value> = conv
            .user
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"type": "text", "text": t}),
                Part::Image(i) => json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", i.base64())}}),
            })
            .collect();
        let mut body = json!({
            "model": model.model,
            "messages": [
                {"role": "system", "content": conv.system},
                {"role": "user", "content": content},
            ],
        });
        if let Some(n) = model.max_tokens {
            // The profile says which name its server reads (`max_tokens_field`):
            // compatible servers widely know only `max_tokens`; OpenAI's
            // reasoning models accept only `max_completion_tokens`.
            body[model.max_tokens_field.as_str()] = json!(n);
        }
        set_opt(&mut body, "temperature", model.temperature);
        let functions = match &conv.tools {
            Tools::None => None,
            Tools::Functions(f) | Tools::ComputerUse { functions: f, .. } => Some(f),
        };
        if let Some(f) = functions.filter(|f| !f.is_empty()) {
            body["tools"] = json!(f.iter().map(function_tool).collect::<Vec<_>>());
            body["tool_choice"] = json!("auto");
        }
        json_request(
            model,
            format!("{}/chat/completions", base_url(model)),
            body,
            Vec::new(),
            bearer(api_key),
        )
    }

    fn parse(&self, body: &Value) -> Result<ModelOutput, String> {
        let choice = body
            .get("choices")
            .and_then(|c| c.get(0))
            .ok_or_else(|| "the response has no choices[0]".to_string())?;
        let message = choice
            .get("message")
            .ok_or_else(|| "choices[0] has no message".to_string())?;
        let text = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            // Some servers return content as a list of text parts.
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
            _ => String::new(),
        };
        let reasoning = ["reasoning_content", "reasoning"]
            .iter()
            .find_map(|k| message.get(*k).and_then(Value::as_str))
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string);
        let tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(|calls| {
                calls
                    .iter()
                    .filter_map(|c| {
                        let f = c.get("function")?;
                        let name = f.get("name")?.as_str()?.to_string();
                        Some(ToolCall {
                            name,
                            arguments: arguments_from_value(f.get("arguments")),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        let usage = Usage {
            input_tokens: u64_at(body, &["usage", "prompt_tokens"]),
            output_tokens: u64_at(body, &["usage", "completion_tokens"]),
            cached_input_tokens: u64_at(body, &["usage", "prompt_tokens_details", "cached_tokens"]),
            ..Default::default()
        };
        let finish = str_at(choice, "finish_reason");
        let refusal = message
            .get("refusal")
            .and_then(Value::as_str)
            .filter(|r| !r.trim().is_empty())
            .map(|r| format!("refusal: {}", r.trim()));
        Ok(ModelOutput {
            text,
            reasoning,
            tool_calls,
            usage,
            stated_reason: refusal.or_else(|| {
                stated_reason(
                    "finish_reason",
                    finish.as_deref(),
                    &["stop", "tool_calls", "function_call"],
                )
            }),
            finish_reason: finish,
            ..Default::default()
        })
    }
}
