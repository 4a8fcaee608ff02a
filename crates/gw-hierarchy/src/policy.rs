//! The model policy: every `decision_every` steps the profile's model sees
//! the current frame, the sub-goal and the inventory and answers one
//! factored action (the game's `act` control, or `wait`); in between the
//! agent holds that action's movement, jump, sneak, sprint, attack and use
//! buttons (camera, hotbar, craft and smelt act once, on the decision step).

use crate::Step;
use gw_agents::AgentError;
use gw_agents::conversation::{Conversation, Image, Part, Tools};
use gw_agents::model_agent::{Link, read_call};
use gw_agents::prompt::{PromptBuilder, REASONING_ARG, semantic_tools};
use gw_core::registry::{Preset, Protocol};
use gw_openworld::SubGoal;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The buttons a decision keeps pressed until the next one.
pub const HELD_FIELDS: [&str; 9] = [
    "forward", "back", "left", "right", "jump", "sneak", "sprint", "attack", "use",
];

pub struct ModelPolicy {
    system: String,
    tools: Tools,
    pub decision_every: u32,
    /// Steps until the next decision (0: decide on the next step).
    pub countdown: u32,
    /// The held part of the last decision (`None`: wait).
    held: Option<Map<String, Value>>,
}

impl ModelPolicy {
    pub fn new(preset: &Preset, link: &Link, decision_every: u32) -> Result<Self, AgentError> {
        let spec = link.spec();
        let prompt = PromptBuilder::new(preset, spec).map_err(|e| {
            AgentError::Config(format!("model \"{}\": prompt template: {e}", spec.id))
        })?;
        let tools = match spec.protocol {
            Protocol::Native => Tools::Functions(semantic_tools(preset)),
            _ => Tools::None,
        };
        Ok(ModelPolicy {
            system: prompt.system().to_string(),
            tools,
            decision_every: decision_every.max(1),
            countdown: 0,
            held: None,
        })
    }

    /// A new sub-goal or plan: decide on the next step.
    pub fn restart(&mut self) {
        self.countdown = 0;
        self.held = None;
    }

    /// Whether the next step is a decision (the model looks at the frame).
    pub fn deciding(&self) -> bool {
        self.countdown == 0
    }

    /// One step towards `goal`: a decision or the held buttons.
    #[allow(clippy::too_many_arguments)]
    pub fn act(
        &mut self,
        link: &mut Link,
        step: &mut Step,
        task: &str,
        goal: &SubGoal,
        progress: (usize, usize),
        inventory: &BTreeMap<String, u32>,
        frame: Image,
    ) -> Result<(), AgentError> {
        if self.countdown > 0 {
            self.countdown -= 1;
            step.payload = Some(match &self.held {
                Some(h) => {
                    let mut m = h.clone();
                    m.insert("action".into(), json!("act"));
                    Value::Object(m)
                }
                None => json!({"action": "wait"}),
            });
            return Ok(());
        }
        self.countdown = self.decision_every - 1;
        let text = format!(
            "Task: {}\nCurrent sub-goal ({} of {}): {goal} — it is done when the inventory holds {} {}.\n\
             Inventory: {}\nYour action is held for {} step(s) (movement, jump, sneak, sprint, attack, use).\n",
            task.trim(),
            progress.0 + 1,
            progress.1,
            goal.count,
            goal.item,
            json!(inventory),
            self.decision_every
        );
        let conv = Conversation {
            system: self.system.clone(),
            user: vec![Part::Text(text), Part::Image(frame)],
            tools: self.tools.clone(),
        };
        let out = step.call(link, &conv)?;
        let reply = read_call(link.spec(), &out);
        match reply.call {
            Some(call) => {
                let mut args = match call.arguments {
                    Ok(a) => a,
                    Err(raw) => {
                        self.held = None;
                        step.parse_error = Some(format!(
                            "the arguments of {} could not be read: {raw}",
                            call.name
                        ));
                        step.payload = Some(json!({"tool_name": call.name, "arguments": {}}));
                        return Ok(());
                    }
                };
                if let Some(r) = args
                    .remove(REASONING_ARG)
                    .and_then(|v| v.as_str().map(str::to_string))
                {
                    step.note(r);
                }
                self.held = call.name.eq_ignore_ascii_case("act").then(|| {
                    args.iter()
                        .filter(|(k, v)| HELD_FIELDS.contains(&k.as_str()) && truthy(v))
                        .map(|(k, _)| (k.clone(), json!(true)))
                        .collect()
                });
                step.payload = Some(json!({"tool_name": call.name, "arguments": args}));
                step.parse_error = reply.note;
            }
            None => {
                self.held = None;
                step.parse_error = Some(
                    reply
                        .note
                        .unwrap_or_else(|| "the reply has no tool call".into()),
                );
            }
        }
        if let Some(r) = out.reasoning.or(reply.reasoning) {
            step.note(r);
        }
        Ok(())
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|x| x != 0.0),
        Value::String(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "1" | "yes"),
        _ => false,
    }
}
