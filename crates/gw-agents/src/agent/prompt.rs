//! Prompt assembly. Two system templates share the four sections Game Rules
//! / Role and Controls / Task Instruction / Output Format: the generalist one
//! renders the semantic action list from the registry (so the prompt lists
//! exactly what executes), the computer-use one the role's textual control
//! specification. Templates live in `templates/` and render with strict
//! undefined variables: a missing block is an error, never an empty section.

use crate::conversation::ToolSpec;
use crate::formats::cua;
use crate::formats::protocols::qwen;
use gw_core::registry::{Interface, ModelSpec, Preset, Protocol};
use minijinja::{Environment, UndefinedBehavior, context};
use serde_json::{Map, Value, json};

const GENERALIST: &str = include_str!("../../templates/generalist.j2");
const COMPUTER_USE: &str = include_str!("../../templates/computer_use.j2");
const ACTION_LIST: &str = include_str!("../../templates/action_list.j2");
const STEP: &str = include_str!("../../templates/step.j2");

/// Name of the free-text argument every semantic tool accepts.
pub const REASONING_ARG: &str = "reasoning";

fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    for (name, src) in [
        ("generalist", GENERALIST),
        ("computer_use", COMPUTER_USE),
        ("action_list", ACTION_LIST),
        ("step", STEP),
    ] {
        env.add_template(name, src)
            .expect("bundled templates parse");
    }
    env
}

/// One function per semantic control: name = action id, parameters from the
/// registry, plus an optional `reasoning` string.
pub fn semantic_tools(preset: &Preset) -> Vec<ToolSpec> {
    preset
        .role
        .semantic_controls
        .iter()
        .map(|c| {
            let mut props = Map::new();
            for p in &c.parameters {
                let mut schema = json!({"type": json_type(&p.kind)});
                if !p.description.is_empty() {
                    schema["description"] = json!(p.description);
                }
                if let Some(v) = p.minimum {
                    schema["minimum"] = json!(v);
                }
                if let Some(v) = p.maximum {
                    schema["maximum"] = json!(v);
                }
                if let Some(choices) = choices_of(c, p) {
                    schema["enum"] = json!(choices);
                }
                props.insert(p.name.clone(), schema);
            }
            props.insert(
                REASONING_ARG.into(),
                json!({"type": "string", "description": "One short sentence on why this action."}),
            );
            let description = if c.description.is_empty() {
                format!("Game action {}.", c.id)
            } else {
                c.description.clone()
            };
            ToolSpec {
                name: c.id.clone(),
                description,
                parameters: json!({"type": "object", "properties": props, "required": c.required}),
            }
        })
        .collect()
}

fn json_type(kind: &str) -> &'static str {
    match kind {
        "number" | "float" => "number",
        "integer" | "int" => "integer",
        "boolean" | "bool" => "boolean",
        _ => "string",
    }
}

/// The values a parameter may take: the control's cell names for its `cell`
/// parameter, else the registry's choices.
fn choices_of(
    c: &gw_core::SemanticControl,
    p: &gw_core::action::ControlParameter,
) -> Option<Vec<String>> {
    let is_cell = p.name == "cell" && c.binding.get("cell_param") == Some(&Value::Bool(true));
    is_cell
        .then(|| {
            c.cell_bindings
                .as_ref()
                .map(|cells| cells.keys().cloned().collect())
        })
        .flatten()
        .or_else(|| p.choices.clone())
}

/// The Output Format block used when a model profile sets none.
pub fn default_output_format(interface: Interface, protocol: Protocol) -> &'static str {
    match (interface, protocol) {
        (Interface::Generalist, Protocol::Native) => {
            "- Call exactly one tool per step; its name is the id of a registered action.\n\
             - Put one short sentence of rationale in the tool's `reasoning` argument.\n\
             - Write nothing outside the tool call."
        }
        (Interface::Generalist, Protocol::Qwen) => {
            "Answer every step in this shape and nothing else:\n\
             <think> one short sentence on what to do </think>\n\
             <tool_call>\n{\"name\": \"<registered action id>\", \"arguments\": {<the action's arguments>}}\n</tool_call>\n\
             Exactly one <tool_call> block per step."
        }
        (Interface::Generalist, Protocol::UiTars) => {
            "Answer every step in this shape and nothing else:\n\
             Thought: one short sentence on what to do\n\
             Action: <registered action id>(<argument>='<value>', ...)\n\
             For example `Action: wait()`. Exactly one action per step."
        }
        (Interface::ComputerUse, Protocol::Native) => {
            "- Use the computer tool to send exactly one action (or one key combination) per step.\n\
             - Do not ask for screenshots: a fresh one arrives with every step.\n\
             - Write nothing outside the tool call."
        }
        (Interface::ComputerUse, Protocol::Qwen) => {
            "Answer every step in this shape and nothing else:\n\
             <think> one short sentence on what to do </think>\n\
             <tool_call>\n{\"name\": \"computer_use\", \"arguments\": {\"action\": \"<action>\", ...}}\n</tool_call>\n\
             Exactly one <tool_call> block, holding one action or key combination."
        }
        (Interface::ComputerUse, Protocol::UiTars) => {
            "Answer every step in this shape and nothing else:\n\
             Thought: one short sentence on what to do\n\
             Action: one of\n\
             - hotkey(key='<key>') to press a key, hotkey(key='<key1> <key2>') to press keys together\n\
             - click(point='<point>x y</point>') and right_single(point='<point>x y</point>')\n\
             - drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')\n\
             - type(content='<text>'), scroll(point='<point>x y</point>', direction='down'), wait()\n\
             For example `hotkey(key='arrowup')` presses the Up arrow and `click(point='<point>640 360</point>')` clicks the centre of the screen."
        }
    }
}

/// Renders the system prompt once per run and the short per-step prompt.
pub struct PromptBuilder {
    env: Environment<'static>,
    system: String,
}

impl PromptBuilder {
    pub fn new(preset: &Preset, model: &ModelSpec) -> Result<PromptBuilder, String> {
        let env = environment();
        let viewport = (preset.game.viewport.width, preset.game.viewport.height);
        let output_format = model
            .output_format
            .clone()
            .unwrap_or_else(|| default_output_format(model.interface, model.protocol).to_string());
        let tools_block = match (model.protocol, model.interface) {
            (Protocol::Qwen, Interface::Generalist) => qwen::tools_block(&semantic_tools(preset)),
            (Protocol::Qwen, Interface::ComputerUse) => {
                qwen::tools_block(&[cua::qwen_computer_use_tool(
                    viewport,
                    model.coordinate_space,
                )])
            }
            _ => String::new(),
        };
        let common = context! {
            game_rules => preset.game.rules.trim(),
            role_prompt => preset.role.prompt.trim(),
            task_instruction => preset.task.instruction.trim(),
            output_format => output_format.trim(),
            tools_block => tools_block,
        };
        let system = match model.interface {
            Interface::Generalist => {
                let actions: Vec<Value> = preset
                    .role
                    .semantic_controls
                    .iter()
                    .map(|c| {
                        let params: Vec<Value> = c
                            .parameters
                            .iter()
                            .map(|p| {
                                json!({"name": p.name, "type": json_type(&p.kind), "description": p.description,
                                       "required": c.required.contains(&p.name),
                                       "choices": choices_of(c, p).unwrap_or_default()})
                            })
                            .collect();
                        json!({"id": c.id, "description": c.description, "parameters": params})
                    })
                    .collect();
                let action_list = env.get_template("action_list").and_then(|t| t.render(context! { actions => minijinja::Value::from(minijinja::value::Serde(&actions)) })).map_err(|e| e.to_string())?;
                env.get_template("generalist")
                    .and_then(|t| {
                        t.render(context! { action_list => action_list.trim(), ..common })
                    })
                    .map_err(|e| e.to_string())?
            }
            Interface::ComputerUse => {
                let controls = if preset.role.control_description.trim().is_empty() {
                    describe_controls(preset)
                } else {
                    preset.role.control_description.trim().to_string()
                };
                env.get_template("computer_use")
                    .and_then(|t| {
                        t.render(context! { control_description => controls, viewport_width => viewport.0, viewport_height => viewport.1, ..common })
                    })
                    .map_err(|e| e.to_string())?
            }
        };
        Ok(PromptBuilder { env, system })
    }

    pub fn system(&self) -> &str {
        &self.system
    }

    /// The text that accompanies the current screenshot.
    /// `recent_outcome` says how the previous episode ended when the game
    /// has just restarted after a failure.
    pub fn step_prompt(
        &self,
        step: u32,
        episode: u32,
        history_rounds: usize,
        recent_outcome: Option<&str>,
    ) -> String {
        self.env
            .get_template("step")
            .and_then(|t| {
                t.render(context! { step => step, episode => episode,
                history_rounds => history_rounds, recent_outcome => recent_outcome })
            })
            .expect("the step template renders with its four variables")
            .trim()
            .to_string()
    }
}

/// A control specification from the role's key and mouse settings, for
/// roles whose YAML has no `control_description`.
fn describe_controls(preset: &Preset) -> String {
    let r = &preset.role;
    let keys = if r.allowed_keys.is_empty() {
        "none".to_string()
    } else {
        r.allowed_keys.join(", ")
    };
    let mouse = if r.allow_clicks {
        "The mouse may be used."
    } else {
        "The mouse has no effect."
    };
    format!("Keys that work: {keys}. {mouse}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use gw_core::Registry;
    use std::path::PathBuf;

    fn preset(model: ModelSpec) -> Preset {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
        let reg = Registry::load(&[root]).unwrap();
        let mut p = reg.resolve_preset("01_2048+01_01+random").unwrap();
        p.agent = gw_core::AgentRef::Model(Box::new(model));
        p
    }

    fn model(interface: Interface, protocol: Protocol) -> ModelSpec {
        serde_json::from_value(json!({"id": "m", "provider": "openai", "model": "m", "interface": interface, "protocol": protocol})).unwrap()
    }

    #[test]
    fn generalist_prompt_lists_exactly_the_registered_actions() {
        let m = model(Interface::Generalist, Protocol::Native);
        let p = preset(m.clone());
        let b = PromptBuilder::new(&p, &m).unwrap();
        let s = b.system();
        for section in [
            "# Game Rules",
            "# Role and Controls",
            "# Task Instruction",
            "# Output Format",
        ] {
            assert_eq!(s.matches(section).count(), 1, "{section} in {s}");
        }
        for c in &p.role.semantic_controls {
            assert!(
                s.contains(&format!("- {}: {}", c.id, c.description)),
                "{} missing",
                c.id
            );
        }
        assert!(s.contains(p.task.instruction.trim()));
        let tools = semantic_tools(&p);
        assert_eq!(
            tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            p.role
                .semantic_controls
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
        );
        assert!(!s.contains("Functions you may call"));
    }

    #[test]
    fn computer_use_prompt_carries_the_control_specification() {
        let m = model(Interface::ComputerUse, Protocol::Qwen);
        let p = preset(m.clone());
        let s = PromptBuilder::new(&p, &m).unwrap().system().to_string();
        assert!(s.contains(p.role.control_description.trim()));
        assert!(s.contains("1280x720"));
        assert!(s.contains("\"name\":\"computer_use\""));
        assert!(
            !s.contains("move_up"),
            "no semantic actions for computer-use agents"
        );
    }

    #[test]
    fn model_output_format_replaces_the_default() {
        let mut m = model(Interface::Generalist, Protocol::Native);
        m.output_format = Some("Reply with one tool call, please.".into());
        let p = preset(m.clone());
        let s = PromptBuilder::new(&p, &m).unwrap().system().to_string();
        assert!(s.ends_with("Reply with one tool call, please."), "{s}");
    }

    #[test]
    fn step_prompt_mentions_history_only_when_there_is_some() {
        let m = model(Interface::Generalist, Protocol::Native);
        let b = PromptBuilder::new(&preset(m.clone()), &m).unwrap();
        assert_eq!(
            b.step_prompt(3, 0, 0, None),
            "Step 3. The current screen is attached. Choose your next action."
        );
        assert!(b.step_prompt(3, 1, 2, None).starts_with("The rounds above"));
        let after_fail = b.step_prompt(9, 1, 2, Some("the episode ended in failure (hit a mine)"));
        assert!(
            after_fail.contains("Recent outcome: the episode ended in failure (hit a mine)."),
            "{after_fail}"
        );
    }
}
