//! The OpenAI Responses API, for `computer-use-preview` (which Chat
//! Completions does not serve). Computer-use agents get the built-in
//! `computer_use_preview` tool and answer with `computer_call` items;
//! semantic actions are `function` tools answered with `function_call` items.

use super::{
    HttpRequest, Provider, base_url, bearer, computer_tool, joined, json_request, set_opt, str_at,
    u64_at,
};
use crate::Usage;
use crate::conversation::{Conversation, ModelOutput, Part, ToolCall, Tools};
use crate::formats::jsonfix::arguments_from_value;
use gw_core::registry::ModelSpec;
use serde_json::{Value, json};

pub struct OpenAiResponses;

/// The tool-call name under which a `computer_call` item's action is passed on.
pub const COMPUTER_CALL: &str = "computer_call";

impl Provider for OpenAiResponses {
    fn name(&self) -> &'static str {
        "openai-responses"
    }

    fn build(&self, model: &ModelSpec, conv: &Conversation, api_key: Option<&str>) -> HttpRequest {
        let content: Vec<Value> = conv
            .user
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"type": "input_text", "text": t}),
                // `detail` is required by the schema; strict servers reject
                // an input_image without it.
                Part::Image(i) => json!({"type": "input_image", "detail": "auto", "image_url": format!("data:image/png;base64,{}", i.base64())}),
            })
            .collect();
        let mut body = json!({
            "model": model.model,
            "instructions": conv.system,
            "input": [{"role": "user", "content": content}],
            "truncation": "auto",
        });
        set_opt(&mut body, "max_output_tokens", model.max_tokens);
        set_opt(&mut body, "temperature", model.temperature);
        match &conv.tools {
            Tools::None => {}
            Tools::Functions(f) => {
                let tools: Vec<Value> =
                    // `strict` defaults to true on this API, which demands
                    // every property be required; the action schemas have
                    // optional ones, so it is sent, and false.
                    f.iter().map(|t| json!({"type": "function", "name": t.name, "description": t.description, "parameters": t.parameters, "strict": false})).collect();
                body["tools"] = json!(tools);
            }
            Tools::ComputerUse { display, .. } => {
                // `computer_use_preview` describes the display; the newer
                // `computer` tool takes no display fields (it reads the
                // screenshots' own size).
                let tool = computer_tool(model).tool;
                body["tools"] = if tool == "computer_use_preview" {
                    json!([{"type": tool, "display_width": display.0, "display_height": display.1, "environment": "browser"}])
                } else {
                    json!([{"type": tool}])
                };
            }
        }
        json_request(
            model,
            format!("{}/responses", base_url(model)),
            body,
            Vec::new(),
            bearer(api_key),
        )
    }

    fn parse(&self, body: &Value) -> Result<ModelOutput, String> {
        let items = body
            .get("output")
            .and_then(Value::as_array)
            .ok_or_else(|| "the response has no output list".to_string())?;
        let mut text = String::new();
        let mut reasoning = Vec::new();
        let mut tool_calls = Vec::new();
        let mut refusals = Vec::new();
        let mut extra_actions = 0u32;
        for item in items {
            match item.get("type").and_then(Value::as_str) {
                Some("message") => {
                    for c in item
                        .get("content")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(t) = c.get("text").and_then(Value::as_str) {
                            text.push_str(t);
                        }
                        if let Some(r) = c.get("refusal").and_then(Value::as_str) {
                            refusals.push(r.trim().to_string());
                        }
                    }
                }
                Some("reasoning") => {
                    for s in item
                        .get("summary")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(t) = s.get("text").and_then(Value::as_str) {
                            reasoning.push(t.to_string());
                        }
                    }
                }
                Some("computer_call") => {
                    // `computer_use_preview` sends one `action`; the newer
                    // `computer` tool may batch several moves in `actions`:
                    // the first is executed, the rest are counted.
                    let action = match item.get("actions") {
                        Some(Value::Array(list)) if !list.is_empty() => {
                            let more = u32::try_from(list.len() - 1).unwrap_or(u32::MAX);
                            extra_actions = extra_actions.saturating_add(more);
                            list.first()
                        }
                        _ => item.get("action"),
                    };
                    let arguments = match action {
                        Some(Value::Object(a)) => Ok(a.clone()),
                        other => Err(other.map(Value::to_string).unwrap_or_default()),
                    };
                    tool_calls.push(ToolCall {
                        name: COMPUTER_CALL.into(),
                        arguments,
                    });
                }
                Some("function_call") => {
                    tool_calls.push(ToolCall {
                        name: str_at(item, "name").unwrap_or_default(),
                        arguments: arguments_from_value(item.get("arguments")),
                    });
                }
                _ => {}
            }
        }
        let usage = Usage {
            input_tokens: u64_at(body, &["usage", "input_tokens"]),
            output_tokens: u64_at(body, &["usage", "output_tokens"]),
            cached_input_tokens: u64_at(body, &["usage", "input_tokens_details", "cached_tokens"]),
            ..Default::default()
        };
        let incomplete = body
            .pointer("/incomplete_details/reason")
            .and_then(Value::as_str)
            .map(|r| format!("incomplete: {r}"));
        let refusal = (!refusals.is_empty()).then(|| format!("refusal: {}", refusals.join(" ")));
        Ok(ModelOutput {
            text,
            reasoning: joined(reasoning),
            tool_calls,
            usage,
            finish_reason: str_at(body, "status"),
            stated_reason: refusal.or(incomplete),
            extra_actions,
        })
    }
}
