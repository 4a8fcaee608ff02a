//! Agents: who chooses the next action. One narrow trait, [`Agent`]; the
//! built-in agents (`random`, `noop`, `scripted`) and model-backed
//! agents, which wrap a provider (one wire format each), sit behind it.
//!
//! Architecture invariant: agents propose, they never decide legality — the
//! action layer in `gw-core` does — and they never write files; the runtime
//! records what they return.
//!
//! Layers, each using only the ones above it in this list:
//! * this file and [`conversation`]: the agent seam and the neutral
//!   conversation every layer speaks;
//! * [`wire`]: sending requests and recording them ([`http`]), the one
//!   redaction point ([`secrets`]), answering from a recording ([`replay`]);
//! * [`formats`]: translating to and from what models read and write:
//!   one [`providers::Provider`] per wire format, the text [`protocols`],
//!   computer-use dialects ([`cua`]) and lenient JSON ([`jsonfix`]);
//! * [`agent`]: the agents themselves: built-ins ([`builtin`]) and the
//!   model-backed agent ([`model_agent`]) with its [`prompt`] and [`memory`].
//!
//! `scripts/module-cycles.py` checks that no modules import each other in a
//! cycle.

pub mod agent;
pub mod conversation;
pub mod formats;
pub mod wire;

pub use agent::{builtin, create_agent, memory, model_agent, prompt};
pub use formats::{cua, jsonfix, protocols, providers};
pub use wire::{http, replay, secrets};

use gw_core::registry::Interface;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What an agent sees before choosing an action.
pub struct Observation<'a> {
    pub step: u32,
    pub episode: u32,
    /// The current screenshot, PNG-encoded.
    pub frame_png: &'a [u8],
    /// Where the runtime stored that frame, relative to the run directory
    /// (`frames/step_000001.png`), when frames are kept.
    pub frame_path: Option<&'a str>,
    pub viewport: (u32, u32),
    /// Privileged gameAPI state. Only built-in agents may read it.
    pub state: &'a Value,
    /// The game's scripted expert, computed on demand (privileged).
    pub expert: &'a dyn Fn() -> Value,
    /// The game object (`Game::as_any`), for privileged built-in agents that
    /// read a game's own types; `None` for games that do not offer it.
    pub game: Option<&'a dyn std::any::Any>,
}

/// Token usage of one model call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Every input token of the call, cache reads and writes included, for
    /// every provider: OpenAI and Gemini report it so; the Anthropic parser
    /// adds back the cache counts its API leaves out. Statistics and prices
    /// rely on this and never add `cached_input_tokens` on top.
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Input tokens read from a prompt cache (included in `input_tokens`).
    pub cached_input_tokens: u64,
    /// Input tokens written to a prompt cache (Anthropic; included in
    /// `input_tokens`, billed at the cache-write price).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cache_write_input_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Usage {
    /// `self + other`, saturating instead of wrapping (a hostile server can
    /// report any count).
    pub fn saturating_add(self, other: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            cached_input_tokens: self
                .cached_input_tokens
                .saturating_add(other.cached_input_tokens),
            cache_write_input_tokens: self
                .cache_write_input_tokens
                .saturating_add(other.cache_write_input_tokens),
        }
    }
}

/// An agent's answer for one step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// The proposed action payload: a semantic payload for generalist agents,
    /// a low-level action for computer-use agents; `None` = no tool call.
    pub payload: Option<Value>,
    /// Why the payload is missing or malformed, when the agent knows.
    pub parse_error: Option<String>,
    pub reasoning: Option<String>,
    /// The provider's stated reason when the reply has no usable action
    /// (a refusal, a safety block, a token limit), for NTC rows.
    pub stated_reason: Option<String>,
    pub usage: Usage,
    pub cost_usd: f64,
    /// Model latency (wall clock); 0 for built-in agents.
    pub latency_ms: u64,
    /// One record per HTTP call made for this step (retries included): the
    /// request with secrets redacted and images replaced by their frame path,
    /// and the raw response. The runtime appends them to `model_calls.jsonl`.
    pub calls: Vec<Value>,
}

/// Failures that end a run (a provider that stays down, a bad key).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Provider(String),
    /// The agent went away (an MCP client disconnected): the run ends with
    /// `stop_reason: agent_left` and keeps what was played; not an error.
    #[error("{0}")]
    Left(String),
}

/// What an agent does with one observation: act (one step), or only watch the
/// game run for a while (a person playing in real time between two inputs).
// One `Turn` per step, moved once: boxing the reply would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    Act(Reply),
    /// No action and no step: in real-time mode the game clock advances by the
    /// time the agent spent watching and the agent gets a fresh observation; in
    /// paused mode nothing changes.
    Watch,
    /// No action, no step and no game time: the agent was not playing yet
    /// (a person before a real-time game starts); the runtime asks again.
    Hold,
    /// No action: the agent ends the run here with this stop reason (a
    /// person quit or walked away); the steps played so far are the result.
    End(gw_core::StopReason),
}

/// The seam every agent implements.
pub trait Agent: Send {
    /// The id written to `result.json` (`model`).
    fn id(&self) -> &str;
    fn interface(&self) -> Interface;
    /// Choose the next action.
    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError>;
    /// Act or watch. The runtime calls this; agents other than a person
    /// playing live always act.
    fn turn(&mut self, obs: &Observation) -> Result<Turn, AgentError> {
        self.act(obs).map(Turn::Act)
    }
    /// Whether `act` looks at the frame; built-in agents do not, which lets
    /// the runtime skip rendering when no frames are kept.
    fn needs_frames(&self) -> bool {
        true
    }
    /// Whether the next `act` looks at the frame. The runtime renders a step
    /// no agent wants (and no frame policy keeps) not at all, and hands the
    /// agent an empty `frame_png` then. Agents that look only now and then
    /// (a hierarchical agent between model decisions) say so here.
    fn wants_frame(&self) -> bool {
        self.needs_frames()
    }
    /// Hear how the step went (valid or not), e.g. for rolling memory.
    fn observe_outcome(&mut self, _valid: bool, _summary: &str) {}
    /// Hear that the last step failed the episode and the game restarted:
    /// `terminal_png` is the frame that shows the failure (stored at
    /// `frame_path` when frames are kept), `note` says what happened. The
    /// next observation is the restarted game.
    fn observe_episode_end(
        &mut self,
        _terminal_png: &[u8],
        _frame_path: Option<&str>,
        _note: &str,
    ) {
    }
    /// Call records of a step whose `act` failed (the provider stayed
    /// down), so the runtime can still write them to `model_calls.jsonl`.
    fn take_unreported_calls(&mut self) -> Vec<Value> {
        Vec::new()
    }
    /// Who drives the agent from outside, for `result.json` (`client`): an
    /// MCP client's name and version. `None` for every other agent.
    fn client(&self) -> Option<Value> {
        None
    }
}
