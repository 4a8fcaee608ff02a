//! The agent layer: the agents behind the [`Agent`] seam, built from a
//! preset by [`create_agent`].

pub mod builtin;
pub mod memory;
pub mod model_agent;
pub mod prompt;

use crate::{Agent, AgentError};
use gw_core::registry::Preset;

/// Build the agent for a preset: a built-in, a live model (its API key is
/// checked here, before the first step), or a model replaying the calls
/// recorded in `replay_dir`.
pub fn create_agent(
    preset: &Preset,
    seed: u64,
    replay_dir: Option<&std::path::Path>,
) -> Result<Box<dyn Agent>, AgentError> {
    match &preset.agent {
        gw_core::AgentRef::Builtin(name) if gw_core::registry::is_human_agent(name) => {
            Err(AgentError::Config(format!(
                "\"{name}\" is a person: human play runs in the browser; start `gameworld serve` and open its Play page"
            )))
        }
        gw_core::AgentRef::Builtin(name) if name == gw_core::registry::MCP_AGENT => {
            Err(AgentError::Config(
                "\"mcp\" is an agent that connects over the Model Context Protocol: start `gameworld mcp <game_id>+<task_id>` and point an MCP client at it".into(),
            ))
        }
        gw_core::AgentRef::Builtin(name) => builtin::create(name, preset, seed)
            .ok_or_else(|| AgentError::Config(format!("unknown built-in agent \"{name}\""))),
        gw_core::AgentRef::Model(spec) => model_agent::create(preset, spec, replay_dir),
    }
}
