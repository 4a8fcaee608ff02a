//! Where a preset's agent is built. A new kind of agent is wired in here.

use crate::error::RunError;
use gw_agents::{Agent, AgentError};
use gw_core::Preset;
use gw_core::registry::ProviderKind;
use std::path::Path;

/// Build the agent a preset names: a built-in, a live model (its API key is
/// checked here, before the first step), or — with `replay` — a model that
/// answers from the `model_calls.jsonl` of a recorded run. The open world's
/// hierarchical agent (`hierarchical`, or a profile with a `hierarchical:`
/// key) comes from `gw-hierarchy`; the learned GOAP policy (`goap`, or a
/// profile with `provider: policy`) from `gw-goap`.
pub fn make_agent(
    preset: &Preset,
    seed: u64,
    replay: Option<&Path>,
) -> Result<Box<dyn Agent>, RunError> {
    if replay.is_some() && matches!(preset.agent, gw_core::AgentRef::Builtin(_)) {
        return Err(RunError::Config(format!(
            "--replay needs a model-backed preset; \"{}\" is a built-in agent and makes no model calls",
            preset.agent.id()
        )));
    }
    let made = match &preset.agent {
        gw_core::AgentRef::Builtin(name) if name == gw_hierarchy::ID => {
            gw_hierarchy::create(preset, None, None, seed)
        }
        gw_core::AgentRef::Model(spec) if spec.hierarchical.is_some() => {
            gw_hierarchy::create(preset, Some(spec), replay, seed)
        }
        gw_core::AgentRef::Builtin(name) if name == gw_goap::ID => gw_goap::create(
            preset,
            gw_goap::ID,
            None,
            seed,
            gw_goap::agent::BUILTIN_DECODING,
        ),
        gw_core::AgentRef::Model(spec) if spec.provider == ProviderKind::Policy => {
            if replay.is_some() {
                return Err(RunError::Config(format!(
                    "--replay needs a model-backed preset; \"{}\" is a local GOAP policy and makes no model calls",
                    spec.id
                )));
            }
            gw_goap::create(
                preset,
                &spec.id,
                Some(Path::new(spec.checkpoint.as_deref().unwrap_or_default()))
                    .filter(|p| !p.as_os_str().is_empty()),
                seed,
                gw_goap::agent::decoding(spec.temperature),
            )
        }
        _ => gw_agents::create_agent(preset, seed, replay),
    };
    made.map_err(|e| match e {
        AgentError::Config(m) => RunError::Config(m),
        AgentError::Provider(m) | AgentError::Left(m) => RunError::Runtime(m),
    })
}
