//! The open world's hierarchical agent, after Optimus-2: a planner turns
//! the task into sub-goals, a goal-conditioned policy carries out the
//! current one, and the agent re-plans when a sub-goal fails or times out.
//!
//! - Planner `graph`: the knowledge graph's planner (`gw_openworld::plan`);
//!   `model`: the profile's model, shown the task, the frame and the
//!   inventory, answering a JSON sub-goal list that is parsed and checked
//!   against the graph ([`planner`]).
//! - Policy `skills`: the scripted skill policy (`gw_openworld::Expert`
//!   driven by the planner above; privileged: it reads the game's `World`
//!   through `Observation::game`); `model`: the profile's model picking
//!   factored actions from frames every `decision_every` steps ([`policy`]);
//!   `goap`: the learned GOAP policy (`gw-goap`) acting every step on the
//!   current sub-goal's text ([`goap`]).
//!
//! The model id `hierarchical` is graph + skills; a model profile with a
//! `hierarchical:` key picks the parts (registry/models/*-hierarchical.yaml).
//! Model calls go through `gw_agents::model_agent::Link`, so they are
//! recorded, retried, priced and replayable like every model agent's.

pub mod goap;
pub mod planner;
pub mod policy;

use gw_agents::conversation::{Conversation, ModelOutput};
use gw_agents::model_agent::Link;
use gw_agents::{Agent, AgentError, Observation, Reply, Usage};
use gw_core::registry::{HierarchySpec, Interface, ModelSpec, PlannerKind, PolicyKind, Preset};
use gw_openworld::expert::{MAX_REPLANS, PlanAnswer, graph_answer, planning_inventory};
use gw_openworld::game::{OpenWorld, OwTask, factored_payload};
use gw_openworld::graph::world_graph;
use gw_openworld::{Expert, SubGoal};
use planner::{ModelPlanner, frame_image};
use policy::ModelPolicy;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// The built-in model id: graph planner + skill policy.
pub const ID: &str = "hierarchical";
/// Default steps between two model-policy decisions (2 a game second).
pub const DEFAULT_DECISION_EVERY: u32 = 10;
/// Default steps one sub-goal may take before a re-plan (2 game minutes).
pub const DEFAULT_SUBGOAL_TIMEOUT_STEPS: u32 = 2400;
/// Default re-asks of a model planner after a rejected plan.
pub const DEFAULT_MAX_REASKS: u32 = 2;

/// The parts and rates of one hierarchical agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub planner: PlannerKind,
    pub policy: PolicyKind,
    pub decision_every: u32,
    pub subgoal_timeout_steps: u32,
    pub max_reasks: u32,
}

impl Settings {
    pub fn from_spec(h: &HierarchySpec) -> Settings {
        Settings {
            planner: h.planner,
            policy: h.policy,
            decision_every: h.decision_every.unwrap_or(DEFAULT_DECISION_EVERY).max(1),
            subgoal_timeout_steps: h
                .subgoal_timeout_steps
                .unwrap_or(DEFAULT_SUBGOAL_TIMEOUT_STEPS)
                .max(1),
            max_reasks: h.max_reasks.unwrap_or(DEFAULT_MAX_REASKS),
        }
    }

    fn uses_model(&self) -> bool {
        self.planner == PlannerKind::Model || self.policy == PolicyKind::Model
    }
}

/// What one step produced: the payload and the model calls behind it.
#[derive(Default)]
pub struct Step {
    pub number: u32,
    pub episode: u32,
    pub payload: Option<Value>,
    pub parse_error: Option<String>,
    calls: Vec<Value>,
    usage: Usage,
    cost: f64,
    latency: u64,
    notes: Vec<String>,
}

impl Step {
    /// One model call (with the link's retries), recorded and priced.
    pub fn call(
        &mut self,
        link: &mut Link,
        conv: &Conversation,
    ) -> Result<ModelOutput, AgentError> {
        let out = link.call(
            conv,
            self.number,
            self.episode,
            &mut self.calls,
            &mut self.latency,
        )?;
        self.usage = self.usage.saturating_add(out.usage);
        self.cost += link.cost(&out.usage);
        Ok(out)
    }

    /// A line for the step's `reasoning`.
    pub fn note(&mut self, s: impl Into<String>) {
        self.notes.push(s.into());
    }
}

/// A policy that follows a plan kept here: the model's or the learned one.
enum Low {
    Model(ModelPolicy),
    Goap(Box<goap::GoapPolicy>),
}

impl Low {
    fn restart(&mut self) {
        if let Low::Model(p) = self {
            p.restart();
        }
    }

    /// Whether the next step needs the step's frame (the learned policy
    /// draws its own view).
    fn deciding(&self) -> bool {
        match self {
            Low::Model(p) => p.deciding(),
            Low::Goap(_) => false,
        }
    }
}

/// The model or learned policy's plan bookkeeping (the skill policy's is in `Expert`).
struct ModelRun {
    policy: Low,
    plan: Vec<SubGoal>,
    index: usize,
    since: u32,
    need_plan: bool,
    replans: u32,
}

enum Policy {
    Skills(Box<Expert>),
    Model(ModelRun),
}

pub struct HierarchicalAgent {
    id: String,
    pub settings: Settings,
    instruction: String,
    target: String,
    count: u32,
    link: Option<Link>,
    model_planner: Option<ModelPlanner>,
    policy: Policy,
    /// A model planner is waiting for a frame.
    want_plan_frame: bool,
    /// The sub-goal last named in a step's reasoning.
    reported: Option<SubGoal>,
    unreported: Vec<Value>,
    /// Plans, rejections, time-outs and failures, for logs and tests.
    pub log: Vec<String>,
}

/// Build the agent: `spec` is `None` for the built-in `hierarchical`.
pub fn create(
    preset: &Preset,
    spec: Option<&ModelSpec>,
    replay_dir: Option<&Path>,
    seed: u64,
) -> Result<Box<dyn Agent>, AgentError> {
    let settings = match spec {
        None => Settings::from_spec(&HierarchySpec::default()),
        Some(s) => Settings::from_spec(s.hierarchical.as_ref().ok_or_else(|| {
            AgentError::Config(format!(
                "model \"{}\" has no `hierarchical:` key; add one (planner, policy) to play it as a hierarchical agent",
                s.id
            ))
        })?),
    };
    let link = match spec {
        Some(s) if settings.uses_model() => Some(Link::open(s, replay_dir)?),
        _ => None,
    };
    let goap = match settings.policy {
        PolicyKind::Goap => {
            let checkpoint = spec.and_then(|s| s.checkpoint.as_deref()).map(Path::new);
            Some(goap::GoapPolicy::new(checkpoint, seed)?)
        }
        _ => None,
    };
    let id = spec.map_or(ID.to_string(), |s| s.id.clone());
    Ok(Box::new(HierarchicalAgent::new(
        preset, &id, settings, link, goap,
    )?))
}

impl HierarchicalAgent {
    pub fn new(
        preset: &Preset,
        id: &str,
        settings: Settings,
        link: Option<Link>,
        goap: Option<goap::GoapPolicy>,
    ) -> Result<HierarchicalAgent, AgentError> {
        let task = OwTask::from_options(&preset.task.init);
        if preset.game.id != gw_openworld::game::ID || task.target_item.is_empty() {
            return Err(AgentError::Config(format!(
                "\"{id}\" is a hierarchical agent for open-world tasks with a target item; \"{}\" is not one (run it on openworld+lh_* / atomic_* / oe_* tasks, or pick another agent)",
                preset.preset
            )));
        }
        if settings.uses_model() && link.is_none() {
            return Err(AgentError::Config(format!(
                "\"{id}\": a model planner or policy needs a model profile with a `hierarchical:` key"
            )));
        }
        let policy = match settings.policy {
            PolicyKind::Skills => {
                let mut ex = Expert::new(&task.target_item, task.count);
                ex.subgoal_timeout = Some(settings.subgoal_timeout_steps as u64);
                Policy::Skills(Box::new(ex))
            }
            PolicyKind::Model => {
                let link = link.as_ref().expect("checked above");
                Policy::Model(ModelRun {
                    policy: Low::Model(ModelPolicy::new(preset, link, settings.decision_every)?),
                    plan: Vec::new(),
                    index: 0,
                    since: 0,
                    need_plan: true,
                    replans: 0,
                })
            }
            PolicyKind::Goap => Policy::Model(ModelRun {
                policy: Low::Goap(Box::new(goap.ok_or_else(|| {
                    AgentError::Config(format!(
                        "\"{id}\": `policy: goap` needs the GOAP checkpoint"
                    ))
                })?)),
                plan: Vec::new(),
                index: 0,
                since: 0,
                need_plan: true,
                replans: 0,
            }),
        };
        Ok(HierarchicalAgent {
            id: id.to_string(),
            model_planner: (settings.planner == PlannerKind::Model).then_some(ModelPlanner {
                max_reasks: settings.max_reasks,
                rejected: 0,
            }),
            settings,
            instruction: preset.task.instruction.clone(),
            target: task.target_item,
            count: task.count,
            link,
            policy,
            want_plan_frame: false,
            reported: None,
            unreported: Vec::new(),
            log: Vec::new(),
        })
    }

    /// Plans the model planner answered that failed validation.
    pub fn rejected_plans(&self) -> u32 {
        self.model_planner.as_ref().map_or(0, |p| p.rejected)
    }

    fn reset(&mut self) {
        match &mut self.policy {
            Policy::Skills(ex) => {
                let timeout = ex.subgoal_timeout;
                **ex = Expert::new(&self.target, self.count);
                ex.subgoal_timeout = timeout;
            }
            Policy::Model(run) => {
                run.plan.clear();
                run.index = 0;
                run.need_plan = true;
                run.policy.restart();
                if let Low::Goap(g) = &mut run.policy {
                    g.restart_episode();
                }
            }
        }
        self.want_plan_frame = false;
        self.reported = None;
    }

    fn step(&mut self, obs: &Observation, step: &mut Step) -> Result<(), AgentError> {
        let world = obs
            .game
            .and_then(|g| g.downcast_ref::<OpenWorld>())
            .map(|g| &g.world);
        let frame = frame_image(obs.frame_png, obs.frame_path);
        let HierarchicalAgent {
            instruction,
            target,
            count,
            link,
            model_planner,
            policy,
            want_plan_frame,
            log,
            settings,
            ..
        } = self;
        let count = *count;
        let mut failure: Option<AgentError> = None;
        // The planner both policies call: the graph, or the model (which
        // waits for a step with a frame).
        let mut plan_now = |step: &mut Step, inv: &BTreeMap<String, u32>| -> PlanAnswer {
            let (Some(mp), Some(link)) = (model_planner.as_mut(), link.as_mut()) else {
                return graph_answer(target, count, inv);
            };
            if frame.png.is_empty() {
                *want_plan_frame = true;
                return PlanAnswer::Later;
            }
            *want_plan_frame = false;
            match mp.ask(link, step, instruction, target, count, inv, frame.clone()) {
                Ok(Some(p)) => PlanAnswer::Plan(p),
                Ok(None) => {
                    log.push(format!(
                        "step {}: every plan was rejected; the graph planner's plan is used",
                        step.number
                    ));
                    step.note("every plan was rejected; using the graph planner's plan");
                    graph_answer(target, count, inv)
                }
                Err(e) => {
                    failure = Some(e);
                    PlanAnswer::Later
                }
            }
        };
        match policy {
            Policy::Skills(ex) => {
                let w = world.ok_or_else(|| {
                    AgentError::Config(
                        "the skill policy reads the open world's state, which this game does not offer; use `policy: model`".into(),
                    )
                })?;
                let logged = ex.log.len();
                let a = ex.act_with(w, &mut |_, inv| plan_now(step, inv));
                for l in &ex.log[logged..] {
                    log.push(l.clone());
                    step.note(l.clone());
                }
                step.payload = Some(factored_payload(&a));
            }
            Policy::Model(run) => {
                let inv = match world {
                    Some(w) => gw_openworld::skills::usable_inventory(w),
                    None => state_inventory(obs.state),
                };
                step.payload = Some(json!({"action": "wait"}));
                if run.need_plan {
                    if run.replans > MAX_REPLANS {
                        return Ok(());
                    }
                    let plan_inv = world.map_or_else(|| inv.clone(), planning_inventory);
                    match plan_now(step, &plan_inv) {
                        PlanAnswer::Later => {}
                        PlanAnswer::Plan(p) => {
                            log.push(format!(
                                "step {}: plan {}",
                                step.number,
                                p.iter()
                                    .map(|s| s.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ));
                            run.plan = p;
                            run.index = 0;
                            run.since = step.number;
                            run.need_plan = false;
                            run.policy.restart();
                        }
                        PlanAnswer::Error(e) => {
                            log.push(format!("step {}: cannot plan: {e}", step.number));
                            run.replans += 1;
                        }
                    }
                    if let Some(e) = failure {
                        return Err(e);
                    }
                    if run.need_plan {
                        return Ok(());
                    }
                }
                let g = world_graph();
                while let Some(s) = run.plan.get(run.index) {
                    let node = g.canonical(&s.item).unwrap_or_default();
                    if g.held(&inv, &node) < s.count {
                        break;
                    }
                    run.index += 1;
                    run.since = step.number;
                }
                let Some(goal) = run.plan.get(run.index).cloned() else {
                    if gw_openworld::plan::held(&inv, target) < count {
                        log.push(format!(
                            "step {}: the plan ran out without the target; re-planning",
                            step.number
                        ));
                        run.need_plan = true;
                        run.replans += 1;
                        run.policy.restart();
                    }
                    return Ok(());
                };
                if step.number.saturating_sub(run.since) > settings.subgoal_timeout_steps {
                    let why = format!(
                        "step {}: {goal} timed out after {} steps; re-planning",
                        step.number, settings.subgoal_timeout_steps
                    );
                    log.push(why.clone());
                    step.note(why);
                    run.need_plan = true;
                    run.replans += 1;
                    run.policy.restart();
                    return Ok(());
                }
                if run.policy.deciding() && frame.png.is_empty() {
                    // A decision needs the frame: wait one step for it.
                    return Ok(());
                }
                match &mut run.policy {
                    Low::Model(p) => {
                        let link = link.as_mut().expect("a model policy has a link");
                        p.act(
                            link,
                            step,
                            instruction,
                            &goal,
                            (run.index, run.plan.len()),
                            &inv,
                            frame.clone(),
                        )?;
                    }
                    Low::Goap(g) => g.act(obs, &goal, step)?,
                }
            }
        }
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(())
    }

    fn current_goal(&self) -> Option<SubGoal> {
        match &self.policy {
            Policy::Skills(ex) => ex.current().cloned(),
            Policy::Model(run) => run.plan.get(run.index).cloned(),
        }
    }
}

/// `game_state.inventory` of a gameAPI state as item → count.
pub fn state_inventory(state: &Value) -> BTreeMap<String, u32> {
    state["game_state"]["inventory"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_u64()? as u32)))
                .collect()
        })
        .unwrap_or_default()
}

impl Agent for HierarchicalAgent {
    fn id(&self) -> &str {
        &self.id
    }

    fn interface(&self) -> Interface {
        Interface::Generalist
    }

    fn needs_frames(&self) -> bool {
        self.settings.uses_model()
    }

    fn wants_frame(&self) -> bool {
        let planner_model = self.model_planner.is_some();
        match &self.policy {
            Policy::Skills(ex) => planner_model && (ex.needs_plan() || self.want_plan_frame),
            Policy::Model(run) => (run.need_plan && planner_model) || run.policy.deciding(),
        }
    }

    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        let mut step = Step {
            number: obs.step,
            episode: obs.episode,
            ..Default::default()
        };
        if let Err(e) = self.step(obs, &mut step) {
            self.unreported = step.calls;
            return Err(e);
        }
        let goal = self.current_goal();
        if goal.is_some() && goal != self.reported {
            if let Some(g) = &goal {
                step.note(format!("sub-goal: {g}"));
            }
            self.reported = goal;
        }
        Ok(Reply {
            payload: step.payload,
            parse_error: step.parse_error,
            reasoning: (!step.notes.is_empty()).then(|| step.notes.join("; ")),
            stated_reason: None,
            usage: step.usage,
            cost_usd: step.cost,
            latency_ms: step.latency,
            calls: step.calls,
        })
    }

    fn observe_episode_end(&mut self, _png: &[u8], _path: Option<&str>, _note: &str) {
        // A failed episode restarts in a fresh world: start over.
        self.reset();
    }

    fn take_unreported_calls(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.unreported)
    }
}

#[cfg(test)]
mod tests;
