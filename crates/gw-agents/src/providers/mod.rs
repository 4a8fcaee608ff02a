//! One [`Provider`] per wire format. A provider only translates: a neutral
//! [`Conversation`] into an HTTP request, and a response body into a neutral
//! [`ModelOutput`]. It never sends anything (the transport does), never
//! retries (the agent does) and never decides legality (the action layer does).

pub mod anthropic;
pub mod gemini;
pub mod openai;
pub mod openai_responses;

use crate::conversation::{Conversation, ModelOutput};
use gw_core::registry::{ApiKind, ModelSpec, ProviderKind};
use serde_json::{Map, Value};

/// A request ready to send. Header values marked secret are redacted from
/// every record.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    pub headers: Vec<Header>,
    pub body: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub secret: bool,
}

impl Header {
    pub fn plain(name: &str, value: &str) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            secret: false,
        }
    }
    pub fn secret(name: &str, value: &str) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
            secret: true,
        }
    }
}

/// The seam between the agent and a wire format.
pub trait Provider: Send {
    /// Short name written to `model_calls.jsonl` (`openai`, `anthropic`, …).
    fn name(&self) -> &'static str;
    /// Shape a request. `api_key` is `None` for keyless local servers.
    fn build(
        &self,
        model: &ModelSpec,
        conversation: &Conversation,
        api_key: Option<&str>,
    ) -> HttpRequest;
    /// Read a successful (2xx) response body.
    fn parse(&self, body: &Value) -> Result<ModelOutput, String>;
}

/// The provider for a model profile.
pub fn for_model(model: &ModelSpec) -> Box<dyn Provider> {
    match (model.provider, model.api) {
        (ProviderKind::Openai, ApiKind::Chat) => Box::new(openai::OpenAiChat),
        (ProviderKind::Openai, ApiKind::Responses) => Box::new(openai_responses::OpenAiResponses),
        (ProviderKind::Anthropic, _) => Box::new(anthropic::Anthropic),
        (ProviderKind::Gemini, _) => Box::new(gemini::Gemini),
    }
}

/// The default endpoint root of each provider.
pub fn default_base_url(model: &ModelSpec) -> &'static str {
    match model.provider {
        ProviderKind::Openai => "https://api.openai.com/v1",
        ProviderKind::Anthropic => "https://api.anthropic.com/v1",
        ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
    }
}

pub fn base_url(model: &ModelSpec) -> String {
    model
        .base_url
        .clone()
        .unwrap_or_else(|| default_base_url(model).to_string())
        .trim_end_matches('/')
        .to_string()
}

/// Merge the profile's `extra_body` into a request body (top-level keys).
pub fn merge_extra(body: &mut Value, model: &ModelSpec) {
    if let (Value::Object(b), Some(extra)) = (body, &model.extra_body) {
        for (k, v) in extra {
            b.insert(k.clone(), v.clone());
        }
    }
}

/// Set `obj[key]` when the profile gives a value (`temperature`, `max_tokens`…).
pub fn set_opt<T: serde::Serialize>(obj: &mut Value, key: &str, value: Option<T>) {
    if let Some(v) = value {
        obj[key] = serde_json::json!(v);
    }
}

/// The request every provider sends: `body` with the profile's `extra_body`
/// merged in, a JSON content type, the provider's own `headers`, then the
/// key header when there is a key.
pub fn json_request(
    model: &ModelSpec,
    url: String,
    mut body: Value,
    headers: Vec<Header>,
    key: Option<Header>,
) -> HttpRequest {
    merge_extra(&mut body, model);
    let mut all = vec![Header::plain("content-type", "application/json")];
    all.extend(headers);
    all.extend(key);
    HttpRequest {
        url,
        headers: all,
        body,
    }
}

/// `authorization: Bearer KEY` (OpenAI and the servers that speak its APIs).
pub fn bearer(api_key: Option<&str>) -> Option<Header> {
    api_key.map(|key| Header::secret("authorization", &format!("Bearer {key}")))
}

/// The string at `v[key]`, when it is one.
pub fn str_at(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// Reasoning pieces joined into one text; `None` when there are none.
pub fn joined(pieces: Vec<String>) -> Option<String> {
    (!pieces.is_empty()).then(|| pieces.join("\n"))
}

/// The error message inside a provider's error body, whichever of the
/// common shapes it uses (`{"error": {"message"}}`, `{"error": "…"}`,
/// `{"message": "…"}`, Gemini's list form).
pub fn error_message(body: &Value) -> Option<String> {
    let body = match body {
        Value::Array(a) => a.first()?,
        other => other,
    };
    match body.get("error") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Object(e)) => e.get("message").and_then(Value::as_str).map(str::to_string),
        _ => body
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string),
    }
}

/// Tool arguments that arrived as a JSON string (OpenAI style), repaired
/// when truncated.
pub fn arguments_from_text(raw: &str) -> Result<Map<String, Value>, String> {
    if raw.trim().is_empty() {
        return Ok(Map::new());
    }
    match crate::jsonfix::parse_lenient(raw) {
        Some(Value::Object(m)) => Ok(m),
        _ => Err(raw.to_string()),
    }
}

pub fn arguments_from_value(v: Option<&Value>) -> Result<Map<String, Value>, String> {
    match v {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(Value::String(s)) => arguments_from_text(s),
        Some(other) => Err(other.to_string()),
    }
}

pub fn u64_at(v: &Value, path: &[&str]) -> u64 {
    let mut cur = v;
    for p in path {
        match cur.get(p) {
            Some(next) => cur = next,
            None => return 0,
        }
    }
    cur.as_u64().unwrap_or(0)
}
