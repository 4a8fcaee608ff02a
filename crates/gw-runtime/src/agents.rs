//! Where a preset's agent is built. A new kind of agent is wired in here.

use crate::run::RunError;
use gw_agents::Agent;
use gw_core::Preset;

/// Build the agent a preset names.
pub fn make_agent(preset: &Preset, seed: u64) -> Result<Box<dyn Agent>, RunError> {
    match &preset.agent {
        gw_core::AgentRef::Builtin(name) => gw_agents::builtin::create(name, preset, seed)
            .ok_or_else(|| RunError::Config(format!("unknown built-in agent \"{name}\""))),
        gw_core::AgentRef::Model(spec) => Err(RunError::Config(format!(
            "model \"{}\" uses provider {:?}, which this build cannot call yet",
            spec.id, spec.provider
        ))),
    }
}
