//! The model-backed agent: one [`Agent`] for every model profile. Per step it
//! assembles the prompt (system template + Action History + current screen),
//! has the profile's provider shape the request, sends it with retries,
//! reads exactly one tool call back (native, Qwen or UI-TARS text), and
//! turns it into a payload for the action layer — which alone decides
//! whether the action is legal.

use crate::agent::memory::{DEFAULT_ROUNDS, Memory, Round};
use crate::agent::prompt::{PromptBuilder, REASONING_ARG, semantic_tools};
use crate::conversation::{Conversation, Image, ModelOutput, Part, ToolCall, Tools};
pub use crate::formats::capped;
use crate::formats::cua::{CuaNormalizer, generic_tools};
use crate::formats::protocols::{TextReply, qwen, ui_tars};
use crate::formats::providers::{self, Provider};
use crate::wire::http::{
    CallMeta, MAX_RETRY_AFTER, NetTransport, Redactor, Transport, call_record, retry_delay_capped,
    retryable,
};
use crate::wire::replay::ReplayTransport;
use crate::{Agent, AgentError, Observation, Reply, Usage};
use gw_core::registry::{Interface, ModelSpec, Preset, Protocol, ProviderKind};
use serde_json::{Map, Value, json};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub const DEFAULT_TIMEOUT_S: f64 = 120.0;
pub const DEFAULT_MAX_RETRIES: u32 = 3;
pub const DEFAULT_BACKOFF_S: f64 = 1.0;

/// The profile's API key from its `api_key_env` variable. `Ok(None)` for
/// keyless profiles (local servers); an error naming the variable when it is
/// unset or empty.
pub fn api_key(spec: &ModelSpec) -> Result<Option<String>, AgentError> {
    let Some(var) = &spec.api_key_env else {
        return Ok(None);
    };
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => {
            // From here on no output of this process may show the key.
            crate::wire::secrets::register(&v);
            crate::wire::secrets::register(v.trim());
            Ok(Some(v.trim().to_string()))
        }
        _ => Err(AgentError::Config(format!(
            "model \"{}\" needs an API key: set the environment variable {var} (named by api_key_env in models/{}.yaml), \
             or point base_url at a server that needs no key and remove api_key_env",
            spec.id, spec.id
        ))),
    }
}

/// Build the agent for a model preset: live (the key is checked now, before
/// the first step) or replaying `replay_dir`'s recorded calls.
pub fn create(
    preset: &Preset,
    spec: &ModelSpec,
    replay_dir: Option<&Path>,
) -> Result<Box<dyn Agent>, AgentError> {
    Ok(Box::new(ModelAgent::with_link(
        preset,
        Link::open(spec, replay_dir)?,
    )?))
}

/// The price of one call's usage. Cache reads and writes are part of
/// `input_tokens`; they cost the profile's `price_cached_input_per_mtok` and
/// `price_cache_write_per_mtok`, by default (Anthropic) 0.1× and 1.25× the
/// input price, elsewhere the input price.
pub fn cost_usd(spec: &ModelSpec, u: &Usage) -> f64 {
    let finite = |p: Option<f64>| p.filter(|p| p.is_finite() && *p >= 0.0);
    let pin = finite(spec.price_input_per_mtok).unwrap_or(0.0);
    let anthropic = spec.provider == ProviderKind::Anthropic;
    let pread =
        finite(spec.price_cached_input_per_mtok).unwrap_or(if anthropic { 0.1 * pin } else { pin });
    let pwrite =
        finite(spec.price_cache_write_per_mtok).unwrap_or(if anthropic { 1.25 * pin } else { pin });
    let pout = finite(spec.price_output_per_mtok).unwrap_or(0.0);
    let fresh = u
        .input_tokens
        .saturating_sub(u.cached_input_tokens)
        .saturating_sub(u.cache_write_input_tokens) as f64;
    let cost = (fresh * pin
        + u.cached_input_tokens as f64 * pread
        + u.cache_write_input_tokens as f64 * pwrite
        + u.output_tokens as f64 * pout)
        / 1e6;
    if cost.is_finite() { cost } else { f64::MAX }
}

/// The most of a reply's text the text protocols read (Qwen, UI-TARS); a
/// longer reply is cut here, so hostile output costs bounded work.
pub const MAX_REPLY_TEXT: usize = 256 * 1024;

/// A request timeout from the profile: finite, at least 1 ms, at most a day
/// (validation rejects worse; this keeps a hand-built profile from panicking).
pub fn timeout_of(spec: &ModelSpec) -> Duration {
    let secs = spec
        .timeout_s
        .filter(|s| s.is_finite())
        .unwrap_or(DEFAULT_TIMEOUT_S)
        .clamp(0.001, 86_400.0);
    Duration::from_secs_f64(secs)
}

/// One model's line to its provider: the request shaping, the transport
/// (network or replay), the key, and the send-with-retries loop. Every
/// model-backed agent calls through one (the hierarchical agent's planner
/// and policy too).
pub struct Link {
    spec: ModelSpec,
    provider: Box<dyn Provider>,
    transport: Box<dyn Transport>,
    api_key: Option<String>,
}

impl Link {
    pub fn new(spec: &ModelSpec, transport: Box<dyn Transport>, api_key: Option<String>) -> Link {
        Link {
            spec: spec.clone(),
            provider: providers::for_model(spec),
            transport,
            api_key,
        }
    }

    /// Live (the key is checked now) or replaying `replay_dir`'s recorded calls.
    pub fn open(spec: &ModelSpec, replay_dir: Option<&Path>) -> Result<Link, AgentError> {
        if spec.provider == gw_core::registry::ProviderKind::Policy {
            return Err(AgentError::Config(format!(
                "model \"{}\" is a `provider: policy` profile (a local GOAP checkpoint): it makes no model calls",
                spec.id
            )));
        }
        let (transport, key): (Box<dyn Transport>, Option<String>) = match replay_dir {
            // A replay needs no key; a placeholder keeps its requests shaped
            // (and recorded) exactly like the live ones.
            Some(dir) => (
                Box::new(ReplayTransport::open(dir)?),
                spec.api_key_env
                    .as_ref()
                    .map(|_| crate::wire::http::REDACTED.to_string()),
            ),
            None => (Box::new(NetTransport), api_key(spec)?),
        };
        Ok(Link::new(spec, transport, key))
    }

    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// The price of one call's usage under this profile.
    pub fn cost(&self, u: &Usage) -> f64 {
        cost_usd(&self.spec, u)
    }

    /// Send with retries; every attempt is recorded in `calls`, its latency
    /// (and any backoff wait) added to `latency`.
    pub fn call(
        &mut self,
        conv: &Conversation,
        step: u32,
        episode: u32,
        calls: &mut Vec<Value>,
        latency: &mut u64,
    ) -> Result<ModelOutput, AgentError> {
        let req = self
            .provider
            .build(&self.spec, conv, self.api_key.as_deref());
        let redactor = Redactor::new(conv.images(), &[self.api_key.as_deref().unwrap_or("")]);
        let timeout = timeout_of(&self.spec);
        // Validation keeps max_retries within MAX_RETRIES; a hand-built
        // profile is held to it too (`max_retries + 1` must not wrap).
        let max_retries = self
            .spec
            .max_retries
            .unwrap_or(DEFAULT_MAX_RETRIES)
            .min(gw_core::registry::MAX_RETRIES);
        let base = self.spec.retry_backoff_s.unwrap_or(DEFAULT_BACKOFF_S);
        let wait_cap = self
            .spec
            .max_retry_wait_s
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map_or(MAX_RETRY_AFTER, |s| {
                Duration::from_secs_f64(s.min(86_400.0))
            });
        let name = self.provider.name();
        let mut last_problem = String::new();
        for attempt in 1..=max_retries + 1 {
            let meta = CallMeta { step, attempt };
            let result = self.transport.send(&req, meta, timeout);
            calls.push(call_record(
                &redactor,
                name,
                &self.spec.id,
                meta,
                episode,
                &req,
                &result,
            ));
            let retry_after = match result {
                Ok(resp) => {
                    *latency += resp.latency_ms;
                    if (200..300).contains(&resp.status) {
                        match serde_json::from_str::<Value>(&resp.body) {
                            Ok(body) => {
                                return self.provider.parse(&body).map_err(|e| {
                                    AgentError::Provider(format!(
                                        "{name} answered step {step} in an unexpected shape: {}",
                                        crate::wire::secrets::message(&e)
                                    ))
                                });
                            }
                            Err(e) => {
                                last_problem =
                                    format!("{name} returned a body that is not JSON ({e})");
                                None
                            }
                        }
                    } else if (300..400).contains(&resp.status) {
                        // Never retried: the same request gets the same redirect.
                        let base = providers::base_url(&self.spec);
                        return Err(AgentError::Provider(match &resp.location {
                            Some(location) => crate::wire::secrets::message(&format!(
                                "{name} answered HTTP {} with a redirect to {location}; provider calls \
                                 do not follow redirects to another origin or that change the method \
                                 (only a same-origin 307/308 is followed), so the key is not sent there. \
                                 Set base_url (now {base}) to the address that answers directly",
                                resp.status
                            )),
                            None => format!(
                                "{name} answered HTTP {} (a redirect) without a Location; check base_url {base}",
                                resp.status
                            ),
                        }));
                    } else {
                        let parsed = serde_json::from_str::<Value>(&resp.body).ok();
                        // Mask first, then cut: a key that straddles the cut
                        // must not leave its first characters behind.
                        let message = parsed
                            .as_ref()
                            .and_then(providers::error_message)
                            .unwrap_or_else(|| resp.body.clone());
                        let message = crate::wire::secrets::message(&redactor.text(&message));
                        last_problem = format!("{name} returned HTTP {}: {message}", resp.status);
                        if !retryable(resp.status) {
                            let hint = match (resp.status, &self.spec.api_key_env) {
                                (401 | 403, Some(var)) => format!(" (check the key in {var})"),
                                (404, _) => format!(
                                    " (check model \"{}\" and base_url {})",
                                    self.spec.model,
                                    providers::base_url(&self.spec)
                                ),
                                _ => String::new(),
                            };
                            return Err(AgentError::Provider(format!("{last_problem}{hint}")));
                        }
                        // Gemini states its wait in the body (RetryInfo).
                        resp.retry_after
                            .clone()
                            .or_else(|| parsed.as_ref().and_then(providers::body_retry_delay))
                    }
                }
                Err(f) => {
                    *latency += f.latency_ms;
                    last_problem = crate::wire::secrets::message(&redactor.text(&f.message));
                    None
                }
            };
            if attempt <= max_retries {
                // Waiting out a rate limit is part of the agent's time (the
                // real-time clock runs on), and it is deterministic, so a
                // replay that skips the wait still reports it.
                let delay = retry_delay_capped(attempt, base, retry_after.as_deref(), wait_cap);
                *latency += delay.as_millis() as u64;
                self.transport.pause(delay);
            }
        }
        Err(AgentError::Provider(format!(
            "step {step}: giving up after {} attempts; last: {last_problem}",
            max_retries + 1
        )))
    }
}

/// The one tool call a reply carries, read by the profile's protocol.
pub fn read_call(spec: &ModelSpec, output: &ModelOutput) -> TextReply {
    match spec.protocol {
        Protocol::Native => {
            let note = match output.tool_calls.len() {
                0 => Some("the reply has no tool call".to_string()),
                1 => None,
                n => Some(format!("{n} tool calls; the first was used")),
            };
            TextReply {
                reasoning: None,
                call: output.tool_calls.first().cloned(),
                note,
            }
        }
        Protocol::Qwen => qwen::read(capped(&output.text, MAX_REPLY_TEXT)),
        Protocol::UiTars => ui_tars::read(
            capped(&output.text, MAX_REPLY_TEXT),
            spec.interface == Interface::ComputerUse,
        ),
    }
}

pub struct ModelAgent {
    spec: ModelSpec,
    link: Link,
    prompt: PromptBuilder,
    tools: Tools,
    memory: Memory,
    cua: CuaNormalizer,
    /// Calls of a step that failed, not yet handed to the runtime.
    unreported: Vec<Value>,
    /// How the previous episode ended, told once in the next step's prompt.
    recent_outcome: Option<String>,
}

impl ModelAgent {
    pub fn new(
        preset: &Preset,
        spec: &ModelSpec,
        transport: Box<dyn Transport>,
        api_key: Option<String>,
    ) -> Result<ModelAgent, AgentError> {
        ModelAgent::with_link(preset, Link::new(spec, transport, api_key))
    }

    pub fn with_link(preset: &Preset, link: Link) -> Result<ModelAgent, AgentError> {
        let spec = link.spec().clone();
        let spec = &spec;
        if let Some(fields) = &spec.memory_include_fields {
            Memory::check_fields(fields)
                .map_err(|e| AgentError::Config(format!("model \"{}\": {e}", spec.id)))?;
        }
        let prompt = PromptBuilder::new(preset, spec).map_err(|e| {
            AgentError::Config(format!("model \"{}\": prompt template: {e}", spec.id))
        })?;
        let viewport = (preset.game.viewport.width, preset.game.viewport.height);
        let tools = match (spec.protocol, spec.interface) {
            (Protocol::Native, Interface::Generalist) => Tools::Functions(semantic_tools(preset)),
            (Protocol::Native, Interface::ComputerUse) => Tools::ComputerUse {
                display: viewport,
                functions: generic_tools(viewport, spec.coordinate_space),
            },
            _ => Tools::None,
        };
        Ok(ModelAgent {
            spec: spec.clone(),
            link,
            prompt,
            tools,
            memory: Memory::new(
                spec.memory_rounds.unwrap_or(DEFAULT_ROUNDS),
                spec.memory_include_fields.as_deref(),
            ),
            cua: CuaNormalizer::new(viewport, spec.coordinate_space),
            unreported: Vec::new(),
            recent_outcome: None,
        })
    }

    pub fn system_prompt(&self) -> &str {
        self.prompt.system()
    }

    /// The payload for the action layer from one tool call.
    fn payload(&mut self, call: &ToolCall) -> (Value, Option<String>) {
        let (args, problem) = match &call.arguments {
            Ok(a) => (a.clone(), None),
            Err(raw) => (
                Map::new(),
                Some(format!(
                    "the arguments of {} could not be read: {raw}",
                    call.name
                )),
            ),
        };
        match self.spec.interface {
            Interface::Generalist => {
                let mut args = args;
                args.remove(REASONING_ARG);
                (json!({"tool_name": call.name, "arguments": args}), problem)
            }
            Interface::ComputerUse => (self.cua.normalize(&call.name, &args), problem),
        }
    }
}

fn reasoning_arg(call: &ToolCall) -> Option<String> {
    call.arguments
        .as_ref()
        .ok()?
        .get(REASONING_ARG)?
        .as_str()
        .map(str::to_string)
}

impl Agent for ModelAgent {
    fn id(&self) -> &str {
        &self.spec.id
    }

    fn interface(&self) -> Interface {
        self.spec.interface
    }

    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        let image = Image {
            png: Arc::from(obs.frame_png),
            frame_path: obs.frame_path.map(str::to_string),
        };
        let step_prompt = self.prompt.step_prompt(
            obs.step,
            obs.episode,
            self.memory.len(),
            self.recent_outcome.take().as_deref(),
        );
        let mut user = self.memory.render();
        user.push(Part::Text(step_prompt.clone()));
        user.push(Part::Image(image.clone()));
        let conv = Conversation {
            system: self.prompt.system().to_string(),
            user,
            tools: self.tools.clone(),
        };
        let mut calls = Vec::new();
        let mut latency = 0;
        let output = match self
            .link
            .call(&conv, obs.step, obs.episode, &mut calls, &mut latency)
        {
            Ok(o) => o,
            Err(e) => {
                self.unreported = calls;
                return Err(e);
            }
        };
        let reply = read_call(&self.spec, &output);
        let reasoning = output
            .reasoning
            .or(reply.reasoning)
            .or_else(|| reply.call.as_ref().and_then(reasoning_arg))
            .or_else(|| {
                (self.spec.protocol == Protocol::Native && !output.text.trim().is_empty())
                    .then(|| output.text.trim().to_string())
            });
        let (payload, parse_error) = match &reply.call {
            Some(call) => {
                let (p, problem) = self.payload(call);
                let p = crate::wire::secrets::clip_value(&p, crate::wire::secrets::MAX_STORED_TEXT);
                (Some(p), problem.or(reply.note))
            }
            None => {
                let note = reply
                    .note
                    .unwrap_or_else(|| "the reply has no tool call".into());
                let note = match &output.stated_reason {
                    Some(r) => format!("{note} ({r})"),
                    None => note,
                };
                (None, Some(note))
            }
        };
        let parse_error = match (output.extra_actions, parse_error) {
            (0, e) => e,
            (n, e) => {
                let more =
                    format!("{n} more action(s) in the reply were not executed (one per step)");
                Some(match e {
                    Some(e) => format!("{e}; {more}"),
                    None => more,
                })
            }
        };
        // The call record that produced this reply keeps the provider's
        // stated reason and the count of moves beyond the first.
        let stated_reason = output
            .stated_reason
            .as_deref()
            .map(crate::wire::secrets::message);
        if let Some(last) = calls.last_mut().and_then(Value::as_object_mut) {
            if let Some(r) = &stated_reason {
                last.insert("stated_reason".into(), json!(r));
            }
            if output.extra_actions > 0 {
                last.insert("extra_actions".into(), json!(output.extra_actions));
            }
        }
        // Provider text kept per step is bounded (prefix, length, hash of
        // the rest): the reasoning as a stored text, notes as messages.
        let reasoning = reasoning
            .map(|r| crate::wire::secrets::clip(&r, crate::wire::secrets::MAX_STORED_TEXT));
        let parse_error = parse_error.map(|e| crate::wire::secrets::message(&e));
        let action_text = match &payload {
            Some(p) => p.to_string(),
            None => "none (the reply had no tool call)".to_string(),
        };
        self.memory.push(Round {
            step: obs.step,
            user_prompt: step_prompt,
            screenshot: Some(image),
            reasoning: reasoning.clone(),
            action: action_text,
            outcome: None,
            episode_end: None,
        });
        let cost_usd = self.link.cost(&output.usage);
        Ok(Reply {
            payload,
            parse_error,
            reasoning,
            stated_reason,
            usage: output.usage,
            cost_usd,
            latency_ms: latency,
            calls,
        })
    }

    fn observe_outcome(&mut self, valid: bool, summary: &str) {
        let outcome = if valid {
            "executed".to_string()
        } else {
            format!("not executed: {summary}")
        };
        self.memory.set_outcome(outcome);
    }

    fn observe_episode_end(&mut self, terminal_png: &[u8], frame_path: Option<&str>, note: &str) {
        let image = (!terminal_png.is_empty()).then(|| Image {
            png: Arc::from(terminal_png),
            frame_path: frame_path.map(str::to_string),
        });
        self.memory.set_episode_end(note.to_string(), image);
        self.recent_outcome = Some(note.to_string());
    }

    fn take_unreported_calls(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.unreported)
    }
}
