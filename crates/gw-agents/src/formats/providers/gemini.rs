//! Google Gemini `generateContent`. Images as `inlineData` parts, semantic
//! actions as `functionDeclarations`, computer-use agents get the built-in
//! `computerUse` tool (whose calls — `click_at`, `key_combination`, … — use
//! 0..1000 coordinates). The key travels in the `x-goog-api-key` header,
//! never in the URL. Output tokens include thinking tokens, which are billed.

use super::{
    Header, HttpRequest, Provider, base_url, computer_tool, joined, json_request, set_opt,
    stated_reason, str_at, u64_at,
};
use crate::Usage;
use crate::conversation::{Conversation, ModelOutput, Part, ToolCall, Tools};
use crate::formats::jsonfix::arguments_from_value;
use gw_core::registry::ModelSpec;
use serde_json::{Value, json};

pub struct Gemini;

/// Predefined computer-use functions that only make sense in a web browser;
/// a game run excludes them so no step is spent on them. The ones a game
/// needs (clicks, keys, typing, scrolling, drags, waits) stay.
pub const BROWSER_ONLY_FUNCTIONS: [&str; 5] = [
    "open_web_browser",
    "navigate",
    "search",
    "go_back",
    "go_forward",
];

impl Provider for Gemini {
    fn name(&self) -> &'static str {
        "gemini"
    }

    fn build(&self, model: &ModelSpec, conv: &Conversation, api_key: Option<&str>) -> HttpRequest {
        let parts: Vec<Value> = conv
            .user
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({"text": t}),
                Part::Image(i) => {
                    json!({"inlineData": {"mimeType": "image/png", "data": i.base64()}})
                }
            })
            .collect();
        let mut generation = json!({});
        set_opt(&mut generation, "maxOutputTokens", model.max_tokens);
        set_opt(&mut generation, "temperature", model.temperature);
        let mut body = json!({
            "systemInstruction": {"parts": [{"text": conv.system}]},
            "contents": [{"role": "user", "parts": parts}],
            "generationConfig": generation,
        });
        match &conv.tools {
            Tools::None => {}
            Tools::Functions(f) => {
                let decls: Vec<Value> = f.iter().map(|t| json!({"name": t.name, "description": t.description, "parameters": t.parameters})).collect();
                body["tools"] = json!([{"functionDeclarations": decls}]);
                body["toolConfig"] = json!({"functionCallingConfig": {"mode": "AUTO"}});
            }
            Tools::ComputerUse { .. } => {
                let env = computer_tool(model).tool;
                body["tools"] = json!([{"computerUse": {
                    "environment": env,
                    "excludedPredefinedFunctions": BROWSER_ONLY_FUNCTIONS,
                }}]);
            }
        }
        json_request(
            model,
            format!("{}/models/{}:generateContent", base_url(model), model.model),
            body,
            Vec::new(),
            api_key.map(|key| Header::secret("x-goog-api-key", key)),
        )
    }

    fn parse(&self, body: &Value) -> Result<ModelOutput, String> {
        // A reply in another shape is an error (as with the other
        // providers), not an empty reply that would burn the step budget.
        if !body.is_object() {
            return Err("the response is not a JSON object".into());
        }
        let candidates = match body.get("candidates") {
            None | Some(Value::Null) if body.get("promptFeedback").is_some() => None,
            None | Some(Value::Null) => {
                return Err("the response has neither candidates nor promptFeedback".into());
            }
            Some(Value::Array(c)) => Some(c),
            Some(_) => return Err("candidates is not a list".into()),
        };
        let candidate = candidates.and_then(|c| c.first());
        if let Some(c) = candidate {
            if !c.is_object() {
                return Err("candidates[0] is not an object".into());
            }
            match c.pointer("/content/parts") {
                None | Some(Value::Null) | Some(Value::Array(_)) => {}
                Some(_) => return Err("candidates[0].content.parts is not a list".into()),
            }
        }
        let usage = Usage {
            input_tokens: u64_at(body, &["usageMetadata", "promptTokenCount"]),
            output_tokens: u64_at(body, &["usageMetadata", "candidatesTokenCount"])
                .saturating_add(u64_at(body, &["usageMetadata", "thoughtsTokenCount"])),
            cached_input_tokens: u64_at(body, &["usageMetadata", "cachedContentTokenCount"]),
            ..Default::default()
        };
        let Some(candidate) = candidate else {
            // A blocked prompt has no candidates: an empty reply, not a transport failure.
            let block = body
                .pointer("/promptFeedback/blockReason")
                .and_then(Value::as_str);
            let reason = block.unwrap_or("no candidates");
            return Ok(ModelOutput {
                usage,
                finish_reason: Some(reason.to_string()),
                stated_reason: Some(match block {
                    Some(b) => format!("blockReason: {b}"),
                    None => "the response has no candidates".to_string(),
                }),
                ..Default::default()
            });
        };
        let mut text = String::new();
        let mut reasoning = Vec::new();
        let mut tool_calls = Vec::new();
        let parts = candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        for p in &parts {
            if let Some(call) = p.get("functionCall").or_else(|| p.get("function_call")) {
                tool_calls.push(ToolCall {
                    name: str_at(call, "name").unwrap_or_default(),
                    arguments: arguments_from_value(call.get("args")),
                });
            } else if let Some(t) = p.get("text").and_then(Value::as_str) {
                if p.get("thought").and_then(Value::as_bool) == Some(true) {
                    reasoning.push(t.to_string());
                } else {
                    text.push_str(t);
                }
            }
        }
        let finish = str_at(candidate, "finishReason");
        let stated = stated_reason("finishReason", finish.as_deref(), &["STOP"]).map(|r| {
            match str_at(candidate, "finishMessage").filter(|m| !m.trim().is_empty()) {
                Some(m) => format!("{r} ({})", m.trim()),
                None => r,
            }
        });
        Ok(ModelOutput {
            text,
            reasoning: joined(reasoning),
            tool_calls,
            usage,
            finish_reason: finish,
            stated_reason: stated,
            ..Default::default()
        })
    }
}
