//! The built-in agents, which need no API key: `random` samples uniformly
//! from the role's legal semantic actions with its own seeded stream, `noop`
//! always waits, and `scripted` plays the game's expert from privileged state.

use crate::{Agent, AgentError, Observation, Reply};
use gw_core::action::ControlParameter;
use gw_core::registry::{Interface, Preset};
use gw_core::{Rng, SemanticControl};
use serde_json::{Map, Value, json};

/// The PRNG stream of the random agent (separate from every game stream).
const RANDOM_AGENT_STREAM: u64 = 0xA6E7;

pub fn create(name: &str, preset: &Preset, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(preset, seed))),
        "noop" => Some(Box::new(NoopAgent::new(preset))),
        "scripted" => Some(Box::new(ScriptedAgent)),
        _ => None,
    }
}

pub struct RandomAgent {
    rng: Rng,
    controls: Vec<SemanticControl>,
    letters: Vec<String>,
}

impl RandomAgent {
    pub fn new(preset: &Preset, seed: u64) -> Self {
        let letters = preset.role.single_char_keys();
        // Each role of a cooperative game draws from its own stream, so two
        // random roles do not mirror each other.
        let role_stream = if preset.game.is_cooperative() {
            preset
                .game
                .roles
                .iter()
                .position(|r| r.name == preset.role.name)
                .unwrap_or(0) as u64
        } else {
            0
        };
        RandomAgent {
            rng: Rng::new(seed, RANDOM_AGENT_STREAM + role_stream),
            controls: preset.role.semantic_controls.clone(),
            letters,
        }
    }

    fn sample_argument(&mut self, control: &SemanticControl, p: &ControlParameter) -> Value {
        if let Some(choices) = p.choices.as_ref().filter(|c| !c.is_empty()) {
            return json!(choices[self.rng.index(choices.len())]);
        }
        if p.name == "cell"
            && let Some(cells) = &control.cell_bindings
            && !cells.is_empty()
        {
            let i = self.rng.index(cells.len());
            return json!(
                cells
                    .get_index(i)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_default()
            );
        }
        match p.kind.as_str() {
            "number" | "integer" if p.minimum.is_some() || p.maximum.is_some() => {
                let lo = p.minimum.unwrap_or(0.0);
                let hi = p.maximum.unwrap_or(lo + 10.0).max(lo);
                let v = lo + (hi - lo) * self.rng.next_f64();
                if p.kind == "integer" {
                    json!(v.round() as i64)
                } else {
                    json!((v * 100.0).round() / 100.0)
                }
            }
            "number" | "integer" => json!(self.rng.range_i32(0, 10)),
            "boolean" => json!(self.rng.chance(0.5)),
            _ => {
                // Text: a few of the role's single-character keys.
                if self.letters.is_empty() {
                    return json!("");
                }
                let n = 5;
                let s: String = (0..n)
                    .map(|_| self.letters[self.rng.index(self.letters.len())].clone())
                    .collect();
                json!(s)
            }
        }
    }
}

impl Agent for RandomAgent {
    fn id(&self) -> &str {
        "random"
    }
    fn interface(&self) -> Interface {
        Interface::Generalist
    }
    fn needs_frames(&self) -> bool {
        false
    }
    fn act(&mut self, _obs: &Observation) -> Result<Reply, AgentError> {
        if self.controls.is_empty() {
            return Ok(Reply {
                payload: None,
                parse_error: Some("the role has no semantic controls".into()),
                ..Default::default()
            });
        }
        let control = self.controls[self.rng.index(self.controls.len())].clone();
        let mut payload = Map::new();
        payload.insert("action".into(), json!(control.id));
        for p in &control.parameters {
            let v = self.sample_argument(&control, p);
            payload.insert(p.name.clone(), v);
        }
        Ok(Reply {
            payload: Some(Value::Object(payload)),
            ..Default::default()
        })
    }
}

pub struct NoopAgent {
    wait_id: Option<String>,
}

impl NoopAgent {
    pub fn new(preset: &Preset) -> Self {
        let wait_id = preset
            .role
            .semantic_controls
            .iter()
            .find(|c| c.binding.get("action").and_then(Value::as_str) == Some("wait"))
            .map(|c| c.id.clone());
        NoopAgent { wait_id }
    }
}

impl Agent for NoopAgent {
    fn id(&self) -> &str {
        "noop"
    }
    fn interface(&self) -> Interface {
        Interface::Generalist
    }
    fn needs_frames(&self) -> bool {
        false
    }
    fn act(&mut self, _obs: &Observation) -> Result<Reply, AgentError> {
        Ok(Reply {
            payload: self.wait_id.as_ref().map(|id| json!({"action": id})),
            ..Default::default()
        })
    }
}

pub struct ScriptedAgent;

impl Agent for ScriptedAgent {
    fn id(&self) -> &str {
        "scripted"
    }
    fn interface(&self) -> Interface {
        Interface::Generalist
    }
    fn needs_frames(&self) -> bool {
        false
    }
    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        Ok(Reply {
            payload: Some((obs.expert)()),
            ..Default::default()
        })
    }
}
