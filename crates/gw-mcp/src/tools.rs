//! What a role offers over MCP: its tools, how a call becomes the payload
//! the action layer reads, and the text that goes with each frame.
//!
//! The tools are the model agents' own: a generalist role gets one tool per
//! semantic action (`gw_agents::prompt::semantic_tools`, the schema a model
//! sees), a computer-use role the one `computer` tool. Both add `observe`.
//! A call is turned into the payload a model agent's tool call would give;
//! legality stays with the action layer.

use gw_agents::prompt::{PromptBuilder, REASONING_ARG, semantic_tools};
use gw_core::registry::{Interface, ModelSpec, Preset};
use serde_json::{Map, Value, json};

/// The tool that shows the current screen without acting.
pub const OBSERVE: &str = "observe";
/// The computer-use interface's single action tool.
pub const COMPUTER: &str = "computer";

/// One tool: name, description, JSON schema of its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    pub schema: Value,
}

/// The tools of one role under an interface, `observe` first.
pub fn tools(preset: &Preset, interface: Interface) -> Vec<ToolDef> {
    let mut out = vec![ToolDef {
        name: OBSERVE.into(),
        description: "Show the current screen and the task: the game's instruction, your controls \
                      and the steps left. Does not act and uses no step (in real-time mode the \
                      game keeps running meanwhile)."
            .into(),
        schema: json!({"type": "object", "properties": {}}),
    }];
    match interface {
        Interface::Generalist => {
            for t in semantic_tools(preset) {
                out.push(ToolDef {
                    name: t.name,
                    description: format!(
                        "{} One step; returns the next screen.",
                        t.description.trim_end()
                    ),
                    schema: t.parameters,
                });
            }
        }
        Interface::ComputerUse => out.push(computer_tool(preset)),
    }
    out
}

fn computer_tool(preset: &Preset) -> ToolDef {
    let vp = &preset.game.viewport;
    let role = &preset.role;
    let keys = if role.allowed_keys.is_empty() {
        "no key".to_string()
    } else {
        role.allowed_keys.join(", ")
    };
    let num = |d: &str| json!({"type": "number", "description": d});
    ToolDef {
        name: COMPUTER.into(),
        description: format!(
            "Use the keyboard or the mouse for one step; returns the next screen. The screen is \
             {}x{} pixels, origin at the top-left corner. Keys this role may press: {keys}. {}",
            vp.width,
            vp.height,
            if role.allow_clicks {
                "The mouse may be used."
            } else {
                "The mouse has no effect in this game: clicks and drags are refused."
            }
        ),
        schema: json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["key", "click", "drag", "wait"],
                           "description": "key: press a key (or several together); click: click at (x, y); drag: press at (from_x, from_y), move to (x, y), release; wait: do nothing for `seconds`."},
                "key": {"type": "string", "description": "For key: the key name, e.g. ArrowUp, Space, Enter, w; several keys held together are separated by '+' (\"w+d\")."},
                "x": num("For click and drag: horizontal pixel (the drag's end)."),
                "y": num("For click and drag: vertical pixel (the drag's end)."),
                "from_x": num("For drag: horizontal pixel where the drag starts."),
                "from_y": num("For drag: vertical pixel where the drag starts."),
                "button": {"type": "string", "enum": ["left", "right", "middle"], "description": "For click: the mouse button (default left)."},
                "seconds": num("For key: how long to hold (default: the game's setting); for wait: how long to wait (default 0.5)."),
                REASONING_ARG: {"type": "string", "description": "One short sentence on why this action."}
            },
            "required": ["action"]
        }),
    }
}

/// A call as the action layer's payload, with the caller's stated reason.
/// Unknown tools and odd arguments pass through: the action layer refuses
/// them with its own words, counted like any agent's invalid action.
pub fn payload(
    interface: Interface,
    name: &str,
    args: &Map<String, Value>,
) -> (Value, Option<String>) {
    let reasoning = args
        .get(REASONING_ARG)
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut args = args.clone();
    args.remove(REASONING_ARG);
    let payload = match interface {
        // What a model agent's generalist tool call gives.
        Interface::Generalist => json!({"tool_name": name, "arguments": args}),
        Interface::ComputerUse if name == COMPUTER => {
            if args.get("action").and_then(Value::as_str) == Some("key") {
                args.insert("action".into(), json!("press_key"));
                if let Some(s) = args.remove("seconds") {
                    args.insert("duration".into(), s);
                }
            }
            Value::Object(args)
        }
        // Any other name: the name is the action, whatever the arguments say.
        Interface::ComputerUse => {
            args.insert("action".into(), json!(name));
            Value::Object(args)
        }
    };
    (payload, reasoning)
}

/// The Output Format block of the MCP prompt.
fn output_format(interface: Interface) -> &'static str {
    match interface {
        Interface::Generalist => {
            "- Call exactly one action tool per step; each call plays one step and returns the next screen.\n\
             - `observe` shows the current screen again without playing a step.\n\
             - An action the game cannot take (an unknown tool, a wrong argument) still uses up its step."
        }
        Interface::ComputerUse => {
            "- Call the `computer` tool once per step; each call plays one step and returns the next screen.\n\
             - `observe` shows the current screen again without playing a step.\n\
             - A key outside your controls or a click where the mouse has no effect still uses up its step."
        }
    }
}

/// The text a model agent's prompt carries (game rules, role and controls,
/// task instruction, output format), built by the model agents' own
/// prompt builder.
pub fn briefing(preset: &Preset, interface: Interface) -> Result<String, String> {
    let spec: ModelSpec = serde_json::from_value(json!({
        "id": gw_core::registry::MCP_AGENT,
        "provider": "openai",
        "model": gw_core::registry::MCP_AGENT,
        "interface": interface,
        "protocol": "native",
        "output_format": output_format(interface),
    }))
    .map_err(|e| format!("cannot describe the MCP agent: {e}"))?;
    Ok(PromptBuilder::new(preset, &spec)?.system().to_string())
}

/// The line about where the run stands: step, episode, steps left.
pub fn step_line(step: u32, episode: u32, max_steps: u32) -> String {
    let done = step.saturating_sub(1);
    let left = max_steps.saturating_sub(done);
    let episode = if episode > 0 {
        format!(
            " (episode {}: the game restarted after the previous one ended)",
            episode + 1
        )
    } else {
        String::new()
    };
    format!("Step {step} of {max_steps}{episode}: {left} steps left.")
}

/// How a finished run ended, for every call that comes after the end.
pub fn finished_text(result: &Value, dir: &std::path::Path) -> String {
    let success = result["success"].as_bool().unwrap_or(false);
    format!(
        "The run has finished: {} (stop reason {}); best {} of target {} (progress {:.2}) in {} steps, \
         {} of {} actions valid. No more actions are taken; the run is in {}.",
        if success { "success" } else { "not solved" },
        result["stop_reason"].as_str().unwrap_or("unknown"),
        result["best_score"],
        result["target_score"],
        result["progress"].as_f64().unwrap_or(0.0),
        result["steps"],
        result["valid_actions"],
        result["proposed_actions"],
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gw_core::Registry;
    use std::path::PathBuf;

    fn preset(id: &str) -> Preset {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
        Registry::load(&[root]).unwrap().resolve_preset(id).unwrap()
    }

    #[test]
    fn generalist_tools_are_the_semantic_actions_after_observe() {
        let p = preset("01_2048+01_01+mcp");
        let names: Vec<String> = tools(&p, Interface::Generalist)
            .into_iter()
            .map(|t| t.name)
            .collect();
        let mut want = vec!["observe".to_string()];
        want.extend(p.role.semantic_controls.iter().map(|c| c.id.clone()));
        assert_eq!(names, want);
    }

    #[test]
    fn open_world_has_one_factored_action_tool() {
        let p = preset("openworld+atomic_dirt+mcp");
        let tools = tools(&p, Interface::Generalist);
        let act = tools.iter().find(|t| t.name == "act").expect("act tool");
        let props = act.schema["properties"].as_object().unwrap();
        // The factored action's parts are the one tool's parameters.
        assert!(props.len() > 3, "{props:?}");
    }

    #[test]
    fn computer_key_call_becomes_press_key() {
        let args = json!({"action": "key", "key": "ArrowUp", "seconds": 0.3, "reasoning": "up"});
        let (p, why) = payload(Interface::ComputerUse, COMPUTER, args.as_object().unwrap());
        assert_eq!(
            p,
            json!({"action": "press_key", "key": "ArrowUp", "duration": 0.3})
        );
        assert_eq!(why.as_deref(), Some("up"));
        let a = gw_core::action::parse_action(&p).unwrap();
        assert_eq!(a.name(), "press_key");
    }

    #[test]
    fn generalist_call_is_a_model_agents_tool_call() {
        let (p, why) = payload(
            Interface::Generalist,
            "move_up",
            json!({"reasoning": "merge"}).as_object().unwrap(),
        );
        assert_eq!(p, json!({"tool_name": "move_up", "arguments": {}}));
        assert_eq!(why.as_deref(), Some("merge"));
    }

    #[test]
    fn briefing_carries_instruction_and_controls() {
        let p = preset("01_2048+01_01+mcp");
        let g = briefing(&p, Interface::Generalist).unwrap();
        assert!(g.contains(p.task.instruction.trim()));
        assert!(g.contains("- move_up: Slide every tile up."), "{g}");
        assert!(g.contains("Call exactly one action tool per step"));
        let c = briefing(&p, Interface::ComputerUse).unwrap();
        assert!(c.contains(p.role.control_description.trim()));
        assert_eq!(step_line(1, 0, 100), "Step 1 of 100: 100 steps left.");
        assert_eq!(
            step_line(7, 1, 100),
            "Step 7 of 100 (episode 2: the game restarted after the previous one ended): 94 steps left."
        );
    }
}
