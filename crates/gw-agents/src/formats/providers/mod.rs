//! One [`Provider`] per wire format. A provider only translates: a neutral
//! [`Conversation`] into an HTTP request, and a response body into a neutral
//! [`ModelOutput`]. It never sends anything (the transport does), never
//! retries (the agent does) and never decides legality (the action layer does).

pub mod anthropic;
pub mod gemini;
pub mod openai;
pub mod openai_responses;
mod select;

pub use crate::wire::http::{Header, HttpRequest};
pub use select::for_model;

use crate::conversation::{Conversation, ModelOutput};
use gw_core::registry::{ModelSpec, ProviderKind};
use serde_json::Value;

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

/// The default endpoint root of each provider.
pub fn default_base_url(model: &ModelSpec) -> &'static str {
    match model.provider {
        ProviderKind::Openai => "https://api.openai.com/v1",
        ProviderKind::Anthropic => "https://api.anthropic.com/v1",
        ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        ProviderKind::Policy => "",
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

/// The built-in computer tool a computer-use model is offered: the tool type
/// and, for Anthropic, the beta flag that unlocks it.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputerTool {
    pub tool: String,
    pub beta: Option<String>,
}

/// A computer tool type and its beta flag, if it needs one.
pub type ToolRow = (&'static str, Option<&'static str>);

const ANTHROPIC_2025_11: ToolRow = ("computer_20251124", Some("computer-use-2025-11-24"));
const ANTHROPIC_2025_01: ToolRow = ("computer_20250124", Some("computer-use-2025-01-24"));
const ANTHROPIC_2024_10: ToolRow = ("computer_20241022", Some("computer-use-2024-10-22"));

/// Which computer tool each Claude family gets from which version on:
/// (family, lowest `(major, minor)`, tool). Rows of a family go newest
/// first; the first row whose version the model's reaches wins. A Claude
/// name whose family or version cannot be read, a family not listed, or a
/// version above every row's gets [`ANTHROPIC_NEWEST`]: names newer than
/// this table get the newest tool.
pub const ANTHROPIC_COMPUTER_TOOLS: &[(&str, (u32, u32), ToolRow)] = &[
    ("opus", (4, 5), ANTHROPIC_2025_11),
    ("opus", (3, 7), ANTHROPIC_2025_01),
    ("opus", (0, 0), ANTHROPIC_2024_10),
    ("sonnet", (4, 6), ANTHROPIC_2025_11),
    ("sonnet", (3, 7), ANTHROPIC_2025_01),
    ("sonnet", (0, 0), ANTHROPIC_2024_10),
    ("haiku", (4, 6), ANTHROPIC_2025_11),
    ("haiku", (0, 0), ANTHROPIC_2025_01),
];

/// Anthropic's newest computer tool.
pub const ANTHROPIC_NEWEST: ToolRow = ANTHROPIC_2025_11;

/// The family and `(major, minor)` version of a Claude model name, in
/// either naming scheme: `claude-opus-4-7`, `claude-sonnet-4-5-20250929`,
/// `claude-sonnet-4-20250514` (minor 0), `claude-opus-4.5`, and the older
/// `claude-3-5-sonnet-20241022`, `claude-3-7-sonnet-latest`. Dates (8
/// digits) and tags (`latest`, `v1`…) are not versions.
pub fn claude_version(model: &str) -> Option<(String, (u32, u32))> {
    let name = model
        .to_ascii_lowercase()
        .replace(['.', '_', '@', ':'], "-");
    let tokens: Vec<&str> = name.split(['-', '/']).filter(|t| !t.is_empty()).collect();
    let at = tokens
        .iter()
        .position(|t| ["opus", "sonnet", "haiku"].contains(t))?;
    let numbers = |ts: &[&str]| -> Vec<u32> {
        ts.iter()
            .take_while(|t| t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .filter_map(|t| t.parse().ok())
            .collect()
    };
    // New scheme: the version follows the family; old: it precedes it.
    let mut version = numbers(&tokens[at + 1..]);
    if version.is_empty() {
        let before: Vec<&str> = tokens[..at]
            .iter()
            .rev()
            .take_while(|t| t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
            .copied()
            .collect();
        version = numbers(&before.into_iter().rev().collect::<Vec<_>>());
    }
    let major = *version.first()?;
    Some((
        tokens[at].to_string(),
        (major, version.get(1).copied().unwrap_or(0)),
    ))
}

/// The computer tool row for a Claude model name (see
/// [`ANTHROPIC_COMPUTER_TOOLS`]).
pub fn anthropic_tool_row(model: &str) -> ToolRow {
    let Some((family, version)) = claude_version(model) else {
        return ANTHROPIC_NEWEST;
    };
    ANTHROPIC_COMPUTER_TOOLS
        .iter()
        .filter(|(f, _, _)| *f == family)
        .find(|(_, from, _)| version >= *from)
        .map_or(ANTHROPIC_NEWEST, |(_, _, row)| *row)
}

/// The computer tool of the other providers: (provider, a fragment of the
/// model name, tool). The first matching row wins.
pub const COMPUTER_TOOLS: &[(ProviderKind, &str, ToolRow)] = &[
    (
        ProviderKind::Openai,
        "computer-use-preview",
        ("computer_use_preview", None),
    ),
    (ProviderKind::Openai, "", ("computer", None)),
    (ProviderKind::Gemini, "", ("ENVIRONMENT_BROWSER", None)),
];

/// `computer_20250124` → `computer-use-2025-01-24`.
pub fn anthropic_beta_for(tool: &str) -> Option<String> {
    let date = tool.strip_prefix("computer_")?;
    (date.len() == 8 && date.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("computer-use-{}-{}-{}", &date[..4], &date[4..6], &date[6..]))
}

/// The computer tool for a profile: its `computer_tool` / `computer_beta`
/// when set (a pin), else the one its model's family and version get
/// ([`anthropic_tool_row`], or the row of [`COMPUTER_TOOLS`] its name matches).
pub fn computer_tool(model: &ModelSpec) -> ComputerTool {
    let name = model.model.to_ascii_lowercase().replace('.', "-");
    let (tool, beta) = match model.provider {
        ProviderKind::Anthropic => anthropic_tool_row(&model.model),
        _ => COMPUTER_TOOLS
            .iter()
            .find(|(p, fragment, _)| *p == model.provider && name.contains(fragment))
            .map(|(_, _, row)| *row)
            .unwrap_or(("computer", None)),
    };
    match &model.computer_tool {
        Some(custom) => ComputerTool {
            tool: custom.clone(),
            beta: model.computer_beta.clone().or_else(|| {
                (model.provider == ProviderKind::Anthropic)
                    .then(|| anthropic_beta_for(custom))
                    .flatten()
            }),
        },
        None => ComputerTool {
            tool: tool.to_string(),
            beta: model.computer_beta.clone().or(beta.map(str::to_string)),
        },
    }
}

/// The wait a provider asks for inside an error body: Google's `RetryInfo`
/// detail (`{"error": {"details": [{"@type": "…RetryInfo", "retryDelay":
/// "12s"}]}}`), in seconds as text (the form `Retry-After` uses).
pub fn body_retry_delay(body: &Value) -> Option<String> {
    let body = match body {
        Value::Array(a) => a.first()?,
        other => other,
    };
    let details = body.pointer("/error/details")?.as_array()?;
    details.iter().find_map(|d| {
        let is_retry_info = d
            .get("@type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.ends_with("RetryInfo"));
        let delay = d.get("retryDelay")?;
        if !is_retry_info {
            return None;
        }
        match delay {
            Value::String(s) => {
                let secs: f64 = s.trim().trim_end_matches('s').trim().parse().ok()?;
                (secs.is_finite() && secs >= 0.0).then(|| format!("{secs}"))
            }
            // The protobuf JSON form {"seconds": N, "nanos": M}.
            Value::Object(o) => {
                let s = o
                    .get("seconds")
                    .and_then(|v| v.as_f64().or_else(|| v.as_str()?.parse().ok()))?;
                let n = o.get("nanos").and_then(Value::as_f64).unwrap_or(0.0);
                let secs = s + n / 1e9;
                (secs.is_finite() && secs >= 0.0).then(|| format!("{secs}"))
            }
            _ => None,
        }
    })
}

/// Why a reply carries no action, in the provider's own words when it gave
/// any: an OpenAI `refusal`, a finish / stop reason other than a normal
/// end, Gemini's `blockReason`, the Responses API's `incomplete_details`.
pub fn stated_reason(label: &str, value: Option<&str>, normal: &[&str]) -> Option<String> {
    let v = value?.trim();
    (!v.is_empty() && !normal.iter().any(|n| n.eq_ignore_ascii_case(v)))
        .then(|| format!("{label}: {v}"))
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

#[cfg(test)]
mod conformance_tests {
    //! Request and response shapes against the providers' documented schemas.
    use super::*;
    use crate::Usage;
    use crate::conversation::{Conversation, Image, Part, ToolSpec, Tools};
    use serde_json::json;
    use std::sync::Arc;

    fn spec(v: Value) -> ModelSpec {
        let mut base = json!({"id": "m", "provider": "openai", "model": "m"});
        for (k, x) in v.as_object().unwrap() {
            base[k] = x.clone();
        }
        serde_json::from_value(base).unwrap()
    }

    fn conv(tools: Tools) -> Conversation {
        Conversation {
            system: "sys".into(),
            user: vec![
                Part::Text("go".into()),
                Part::Image(Image {
                    png: Arc::from(&b"png"[..]),
                    frame_path: None,
                }),
            ],
            tools,
        }
    }

    fn cua() -> Conversation {
        conv(Tools::ComputerUse {
            display: (1280, 720),
            functions: vec![],
        })
    }

    fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
        r.headers
            .iter()
            .find(|h| h.name == name)
            .map(|h| h.value.as_str())
    }

    #[test]
    fn computer_tool_versions_follow_the_model_and_the_profile() {
        let t = |provider: &str, model: &str| {
            computer_tool(&spec(json!({"provider": provider, "model": model})))
        };
        let newest = ComputerTool {
            tool: "computer_20251124".into(),
            beta: Some("computer-use-2025-11-24".into()),
        };
        let jan = ComputerTool {
            tool: "computer_20250124".into(),
            beta: Some("computer-use-2025-01-24".into()),
        };
        assert_eq!(t("anthropic", "claude-sonnet-4-6"), newest);
        // Newer names than any row, and unreadable ones, get the newest tool.
        assert_eq!(t("anthropic", "claude-opus-4-7"), newest);
        assert_eq!(t("anthropic", "claude-opus-4.7-20260115"), newest);
        assert_eq!(t("anthropic", "claude-sonnet-5"), newest);
        assert_eq!(t("anthropic", "claude-haiku-4-6"), newest);
        assert_eq!(t("anthropic", "claude-nova-1"), newest);
        assert_eq!(t("anthropic", "claude-haiku-4-5-20251001"), jan);
        assert_eq!(t("anthropic", "claude-opus-4-1-20250805"), jan);
        assert_eq!(t("anthropic", "claude-opus-4-20250514"), jan);
        assert_eq!(
            claude_version("claude-3-5-sonnet-latest"),
            Some(("sonnet".into(), (3, 5)))
        );
        assert_eq!(
            claude_version("claude-sonnet-4-20250514"),
            Some(("sonnet".into(), (4, 0)))
        );
        assert_eq!(
            claude_version("anthropic/claude-opus-4.7"),
            Some(("opus".into(), (4, 7)))
        );
        assert_eq!(t("anthropic", "claude-sonnet-4.6"), newest);
        assert_eq!(t("anthropic", "claude-opus-4-5-20251101"), newest);
        assert_eq!(t("anthropic", "claude-sonnet-4-5-20250929"), jan);
        assert_eq!(t("anthropic", "claude-sonnet-4-20250514"), jan);
        assert_eq!(t("anthropic", "claude-3-7-sonnet-latest"), jan);
        assert_eq!(
            t("anthropic", "claude-3-5-sonnet-20241022").tool,
            "computer_20241022"
        );
        assert_eq!(
            t("openai", "computer-use-preview").tool,
            "computer_use_preview"
        );
        assert_eq!(
            t("openai", "gpt-5.4"),
            ComputerTool {
                tool: "computer".into(),
                beta: None
            }
        );
        assert_eq!(
            t("gemini", "gemini-2.5-computer-use-preview-10-2025").tool,
            "ENVIRONMENT_BROWSER"
        );
        // The profile overrides the table; the beta follows a custom tool.
        let custom = computer_tool(&spec(
            json!({"provider": "anthropic", "model": "claude-sonnet-4-6", "computer_tool": "computer_20250124"}),
        ));
        assert_eq!(custom, jan);
        let custom = computer_tool(&spec(
            json!({"provider": "anthropic", "model": "x", "computer_beta": "b-1"}),
        ));
        assert_eq!(custom.beta.as_deref(), Some("b-1"));
    }

    #[test]
    fn anthropic_computer_use_request_for_sonnet_4_6() {
        let m = spec(
            json!({"provider": "anthropic", "model": "claude-sonnet-4-6", "interface": "computer-use"}),
        );
        let r = anthropic::Anthropic.build(&m, &cua(), Some("k"));
        assert_eq!(
            header(&r, "anthropic-beta"),
            Some("computer-use-2025-11-24")
        );
        assert_eq!(
            r.body["tools"],
            json!([{"type": "computer_20251124", "name": "computer", "display_width_px": 1280, "display_height_px": 720}])
        );
    }

    #[test]
    fn retry_info_in_an_error_body() {
        let body = json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "17s"}]}});
        assert_eq!(body_retry_delay(&body).as_deref(), Some("17"));
        let list = json!([{"error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.5s"}]}}]);
        assert_eq!(body_retry_delay(&list).as_deref(), Some("0.5"));
        let proto = json!({"error": {"details": [{"@type": "x.RetryInfo", "retryDelay": {"seconds": 3, "nanos": 500000000}}]}});
        assert_eq!(body_retry_delay(&proto).as_deref(), Some("3.5"));
        assert_eq!(body_retry_delay(&json!({"error": {"message": "x"}})), None);
        assert_eq!(
            body_retry_delay(
                &json!({"error": {"details": [{"@type": "x.RetryInfo", "retryDelay": "-3s"}]}})
            ),
            None
        );
    }

    #[test]
    fn responses_images_carry_detail_and_computer_tools_their_own_shape() {
        let preview = spec(
            json!({"model": "computer-use-preview", "api": "responses", "interface": "computer-use"}),
        );
        let r = openai_responses::OpenAiResponses.build(&preview, &cua(), Some("k"));
        let image = &r.body["input"][0]["content"][1];
        assert_eq!(image["type"], json!("input_image"));
        assert_eq!(image["detail"], json!("auto"));
        assert_eq!(
            r.body["tools"],
            json!([{"type": "computer_use_preview", "display_width": 1280, "display_height": 720, "environment": "browser"}])
        );
        let ga = spec(json!({"model": "gpt-5.4", "api": "responses", "interface": "computer-use"}));
        let r = openai_responses::OpenAiResponses.build(&ga, &cua(), Some("k"));
        assert_eq!(r.body["tools"], json!([{"type": "computer"}]));
    }

    #[test]
    fn a_batch_of_computer_actions_runs_the_first_and_counts_the_rest() {
        let body = json!({"status": "completed", "output": [{"type": "computer_call", "call_id": "c1",
            "actions": [{"type": "click", "x": 1, "y": 2, "button": "left"}, {"type": "type", "text": "hi"}, {"type": "keypress", "keys": ["Enter"]}]}]});
        let out = openai_responses::OpenAiResponses.parse(&body).unwrap();
        assert_eq!(out.tool_calls.len(), 1);
        assert_eq!(
            out.tool_calls[0].arguments.as_ref().unwrap()["type"],
            json!("click")
        );
        assert_eq!(out.extra_actions, 2);
    }

    #[test]
    fn gemini_computer_use_excludes_browser_only_functions() {
        let m = spec(
            json!({"provider": "gemini", "model": "gemini-2.5-computer-use-preview-10-2025", "interface": "computer-use"}),
        );
        let r = gemini::Gemini.build(&m, &cua(), Some("k"));
        let cu = &r.body["tools"][0]["computerUse"];
        assert_eq!(cu["environment"], json!("ENVIRONMENT_BROWSER"));
        let excluded: Vec<&str> = cu["excludedPredefinedFunctions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(
            excluded,
            [
                "open_web_browser",
                "navigate",
                "search",
                "go_back",
                "go_forward"
            ]
        );
        for kept in [
            "click_at",
            "key_combination",
            "type_text_at",
            "scroll_at",
            "drag_and_drop",
        ] {
            assert!(!excluded.contains(&kept));
        }
    }

    #[test]
    fn replies_without_an_action_keep_the_stated_reason() {
        let chat = openai::OpenAiChat.parse(&json!({"choices": [{"finish_reason": "stop", "message": {"content": null, "refusal": "I can't help with that."}}]})).unwrap();
        assert_eq!(
            chat.stated_reason.as_deref(),
            Some("refusal: I can't help with that.")
        );
        let cut = openai::OpenAiChat
            .parse(&json!({"choices": [{"finish_reason": "length", "message": {"content": "…"}}]}))
            .unwrap();
        assert_eq!(cut.stated_reason.as_deref(), Some("finish_reason: length"));
        let ok = openai::OpenAiChat
            .parse(
                &json!({"choices": [{"finish_reason": "tool_calls", "message": {"content": ""}}]}),
            )
            .unwrap();
        assert_eq!(ok.stated_reason, None);
        let g = gemini::Gemini
            .parse(&json!({"candidates": [{"finishReason": "SAFETY", "content": {"parts": []}}]}))
            .unwrap();
        assert_eq!(g.stated_reason.as_deref(), Some("finishReason: SAFETY"));
        let blocked = gemini::Gemini
            .parse(&json!({"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}}))
            .unwrap();
        assert_eq!(
            blocked.stated_reason.as_deref(),
            Some("blockReason: PROHIBITED_CONTENT")
        );
        let inc = openai_responses::OpenAiResponses.parse(&json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []})).unwrap();
        assert_eq!(
            inc.stated_reason.as_deref(),
            Some("incomplete: max_output_tokens")
        );
        let refused = openai_responses::OpenAiResponses.parse(&json!({"status": "completed", "output": [{"type": "message", "content": [{"type": "refusal", "refusal": "No."}]}]})).unwrap();
        assert_eq!(refused.stated_reason.as_deref(), Some("refusal: No."));
        let a = anthropic::Anthropic
            .parse(&json!({"content": [], "stop_reason": "refusal"}))
            .unwrap();
        assert_eq!(a.stated_reason.as_deref(), Some("stop_reason: refusal"));
    }

    #[test]
    fn the_token_limit_field_is_a_profile_setting() {
        let tools = Tools::Functions(vec![ToolSpec {
            name: "f".into(),
            description: "d".into(),
            parameters: json!({"type": "object"}),
        }]);
        let default = spec(json!({"max_tokens": 100, "base_url": "https://api.openai.com/v1"}));
        let r = openai::OpenAiChat.build(&default, &conv(tools.clone()), None);
        assert_eq!(
            (
                r.body.get("max_tokens"),
                r.body.get("max_completion_tokens")
            ),
            (Some(&json!(100)), None)
        );
        let newer = spec(
            json!({"max_tokens": 100, "base_url": "http://127.0.0.1:9/v1", "max_tokens_field": "max_completion_tokens"}),
        );
        let r = openai::OpenAiChat.build(&newer, &conv(tools), None);
        assert_eq!(
            (
                r.body.get("max_tokens"),
                r.body.get("max_completion_tokens")
            ),
            (None, Some(&json!(100)))
        );
    }

    #[test]
    fn anthropic_cache_reads_and_writes_are_priced() {
        let body = json!({"content": [], "stop_reason": "end_turn", "usage": {"input_tokens": 1000, "cache_read_input_tokens": 10000, "cache_creation_input_tokens": 2000, "output_tokens": 100}});
        let u = anthropic::Anthropic.parse(&body).unwrap().usage;
        assert_eq!(
            (
                u.input_tokens,
                u.cached_input_tokens,
                u.cache_write_input_tokens
            ),
            (13000, 10000, 2000)
        );
        let m = spec(
            json!({"provider": "anthropic", "price_input_per_mtok": 3.0, "price_output_per_mtok": 15.0}),
        );
        let cost = crate::agent::model_agent::cost_usd(&m, &u);
        let want = (1000.0 * 3.0 + 10000.0 * 0.3 + 2000.0 * 3.75 + 100.0 * 15.0) / 1e6;
        assert!((cost - want).abs() < 1e-12, "{cost} vs {want}");
        let own = spec(
            json!({"provider": "anthropic", "price_input_per_mtok": 3.0, "price_cached_input_per_mtok": 1.0, "price_cache_write_per_mtok": 5.0}),
        );
        let want = (1000.0 * 3.0 + 10000.0 * 1.0 + 2000.0 * 5.0) / 1e6;
        assert!((crate::agent::model_agent::cost_usd(&own, &u) - want).abs() < 1e-12);
        // Hostile counts saturate instead of wrapping.
        let huge = anthropic::Anthropic.parse(&json!({"content": [], "usage": {"input_tokens": u64::MAX, "cache_read_input_tokens": u64::MAX}})).unwrap().usage;
        assert_eq!(huge.input_tokens, u64::MAX);
        let sum = huge.saturating_add(huge);
        assert_eq!(sum.input_tokens, u64::MAX);
        assert!(
            crate::agent::model_agent::cost_usd(
                &m,
                &Usage {
                    output_tokens: u64::MAX,
                    ..sum
                }
            )
            .is_finite()
        );
    }
}
