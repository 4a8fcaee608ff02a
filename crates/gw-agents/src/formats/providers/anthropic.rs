//! Anthropic Messages. Images as base64 `image` blocks, semantic actions as
//! custom tools (`input_schema`), computer-use agents get the built-in
//! `computer` tool (with its beta header). Usage: `input_tokens` excludes
//! cache reads and writes, so the neutral input count adds them back.

use super::{
    Header, HttpRequest, Provider, base_url, computer_tool, joined, json_request, set_opt,
    stated_reason, str_at, u64_at,
};
use crate::Usage;
use crate::conversation::{Conversation, ModelOutput, Part, ToolCall, Tools};
use gw_core::registry::ModelSpec;
use serde_json::{Map, Value, json};

pub struct Anthropic;

pub const API_VERSION: &str = "2023-06-01";
const DEFAULT_MAX_TOKENS: u32 = 1024;

impl Provider for Anthropic {
    fn name(&self) -> &'static str {
        "anthropic"
    }

    fn build(&self, model: &ModelSpec, conv: &Conversation, api_key: Option<&str>) -> HttpRequest {
        let content: Vec<Value> = conv
            .user
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"type": "text", "text": t}),
                Part::Image(i) => json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": i.base64()}}),
            })
            .collect();
        let mut body = json!({
            "model": model.model,
            "max_tokens": model.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            "system": conv.system,
            "messages": [{"role": "user", "content": content}],
        });
        set_opt(&mut body, "temperature", model.temperature);
        let mut headers = vec![Header::plain("anthropic-version", API_VERSION)];
        match &conv.tools {
            Tools::None => {}
            Tools::Functions(f) => {
                let tools: Vec<Value> = f.iter().map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters})).collect();
                body["tools"] = json!(tools);
                body["tool_choice"] = json!({"type": "auto"});
            }
            Tools::ComputerUse { display, .. } => {
                // The tool version and its beta flag follow the model
                // (family and version: providers::anthropic_tool_row), unless the
                // profile pins them.
                let tool = computer_tool(model);
                if let Some(beta) = &tool.beta {
                    headers.push(Header::plain("anthropic-beta", beta));
                }
                body["tools"] = json!([{"type": tool.tool, "name": "computer", "display_width_px": display.0, "display_height_px": display.1}]);
            }
        }
        json_request(
            model,
            format!("{}/messages", base_url(model)),
            body,
            headers,
            api_key.map(|key| Header::secret("x-api-key", key)),
        )
    }

    fn parse(&self, body: &Value) -> Result<ModelOutput, String> {
        let blocks = body
            .get("content")
            .and_then(Value::as_array)
            .ok_or_else(|| "the response has no content list".to_string())?;
        let mut text = String::new();
        let mut reasoning = Vec::new();
        let mut tool_calls = Vec::new();
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("text") => {
                    text.push_str(b.get("text").and_then(Value::as_str).unwrap_or_default())
                }
                Some("thinking") => reasoning.push(str_at(b, "thinking").unwrap_or_default()),
                Some("tool_use") => {
                    let name = str_at(b, "name").unwrap_or_default();
                    let arguments = match b.get("input") {
                        Some(Value::Object(m)) => Ok(m.clone()),
                        None | Some(Value::Null) => Ok(Map::new()),
                        Some(other) => Err(other.to_string()),
                    };
                    tool_calls.push(ToolCall { name, arguments });
                }
                _ => {}
            }
        }
        let cache_read = u64_at(body, &["usage", "cache_read_input_tokens"]);
        let cache_write = u64_at(body, &["usage", "cache_creation_input_tokens"]);
        let usage = Usage {
            input_tokens: u64_at(body, &["usage", "input_tokens"])
                .saturating_add(cache_read)
                .saturating_add(cache_write),
            output_tokens: u64_at(body, &["usage", "output_tokens"]),
            cached_input_tokens: cache_read,
            cache_write_input_tokens: cache_write,
        };
        let stop = str_at(body, "stop_reason");
        Ok(ModelOutput {
            text,
            reasoning: joined(reasoning),
            tool_calls,
            usage,
            stated_reason: stated_reason(
                "stop_reason",
                stop.as_deref(),
                &["end_turn", "tool_use", "stop_sequence"],
            ),
            finish_reason: stop,
            ..Default::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::providers::anthropic_beta_for;

    #[test]
    fn beta_header_follows_tool_version() {
        assert_eq!(
            anthropic_beta_for("computer_20250124").as_deref(),
            Some("computer-use-2025-01-24")
        );
        assert_eq!(
            anthropic_beta_for("computer_20251124").as_deref(),
            Some("computer-use-2025-11-24")
        );
        assert_eq!(anthropic_beta_for("custom"), None);
    }
}
