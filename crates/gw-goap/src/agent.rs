//! The learned policy as an [`Agent`]: the built-in `goap` (the checkpoint
//! shipped in `registry/policies/goap/`, embedded in the binary) and model
//! profiles with `provider: policy` and `checkpoint: PATH`.
//!
//! The policy reads the first-person view at its checkpoint's resolution,
//! drawn exactly as the dataset drew it (`gw_world::render::render_rgba`
//! on the world before the action); only when a game offers no world does
//! it fall back to the step's frame, area-resized like training data.

use crate::checkpoint;
use crate::data::{decode_image, resize_area};
use crate::infer::{Runner, Sampling};
use crate::model::Network;
use candle_core::Device;
use gw_agents::{Agent, AgentError, Observation, Reply};
use gw_core::registry::{Interface, Preset};
use gw_openworld::game::{OpenWorld, OwTask, factored_payload};
use std::path::Path;

/// The built-in model id.
pub const ID: &str = "goap";
/// How a policy draws its actions from its heads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoding {
    pub sampling: Sampling,
    /// Logits are divided by this before sampling ([`Runner::temperature`]).
    pub temperature: f64,
}

/// How the built-in `goap` (and a `provider: policy` profile without a
/// `temperature`) draws actions: buttons sampled at temperature 0.5, so a
/// hold the policy is fairly sure of (attacking a block until it breaks) is
/// seldom broken up by one unlucky draw; the other heads as trained; the
/// unlikely choices left out ([`crate::infer::MIN_P`]). On seeds 101–110
/// of `atomic_logs`, the fully trained network before its DAgger
/// fine-tuning got 0.9 logs per episode this way and 0.4 at button
/// temperature 1; an earlier checkpoint (output layer only) got 0.8, 0.3 at
/// temperature 1 and 0.1 at 0.3, and sharpening its camera too (0.5 on
/// every head) froze the view and gave 0.
pub const BUILTIN_DECODING: Decoding = Decoding {
    sampling: Sampling::Sample,
    temperature: BUILTIN_TEMPERATURE,
};
pub const BUILTIN_TEMPERATURE: f64 = 0.5;

const SHIPPED_CONFIG: &str = include_str!("../../../registry/policies/goap/config.json");
const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../../registry/policies/goap/policy.safetensors");

/// The shipped checkpoint.
pub fn shipped() -> Result<Network, String> {
    let name = "registry/policies/goap (embedded)";
    let cfg: crate::config::PolicyConfig =
        serde_json::from_str(SHIPPED_CONFIG).map_err(|e| format!("{name}/config.json: {e}"))?;
    cfg.check()
        .map_err(|e| format!("{name}/config.json: {e}"))?;
    let mut net = Network::build(cfg, &Device::Cpu).map_err(|e| format!("{name}: {e}"))?;
    let tensors = candle_core::safetensors::load_buffer(SHIPPED_WEIGHTS, &Device::Cpu)
        .map_err(|e| format!("{name}/policy.safetensors: {e}"))?;
    checkpoint::set_weights(&mut net, tensors, &format!("{name}/policy.safetensors"))?;
    Ok(net)
}

/// The goal text for "hold `count` of `item`", phrased as the dataset
/// phrases goals (the first phrasing of the instruction pool).
pub fn goal_text(item: &str, count: u32) -> String {
    gw_owdata::instructions::pool(item, count)
        .into_iter()
        .next()
        .unwrap_or_else(|| format!("Obtain {count} {item}."))
}

/// The view the policy reads: `w × h` RGB of the step's world, or of its frame.
pub struct Eyes {
    rgba: Vec<u8>,
    rgb: Vec<u8>,
}

impl Default for Eyes {
    fn default() -> Self {
        Self::new()
    }
}

impl Eyes {
    pub fn new() -> Eyes {
        Eyes {
            rgba: Vec::new(),
            rgb: Vec::new(),
        }
    }

    pub fn see(&mut self, obs: &Observation, w: u32, h: u32) -> Result<&[u8], AgentError> {
        let (wu, hu) = (w as usize, h as usize);
        if let Some(ow) = obs.game.and_then(|g| g.downcast_ref::<OpenWorld>()) {
            self.rgba.resize(wu * hu * 4, 0);
            gw_world::render::render_rgba(&ow.world, wu, hu, &mut self.rgba, false);
            self.rgb.resize(wu * hu * 3, 0);
            gw_core::frame::rgba_to_rgb(&self.rgba, &mut self.rgb);
            return Ok(&self.rgb);
        }
        if obs.frame_png.is_empty() {
            return Err(AgentError::Config(
                "the GOAP policy needs the open world's view or the step's frame; this game offers neither".into(),
            ));
        }
        let (fw, fh, rgb) = decode_image(obs.frame_png)
            .map_err(|e| AgentError::Provider(format!("the step's frame: {e}")))?;
        self.rgb = resize_area(&rgb, fw, fh, w, h);
        Ok(&self.rgb)
    }
}

/// One step of `runner` on what `eyes` see: the game's `act` payload.
pub fn act_payload(
    runner: &mut Runner,
    eyes: &mut Eyes,
    obs: &Observation,
) -> Result<serde_json::Value, AgentError> {
    let (w, h) = runner.resolution();
    let rgb = eyes.see(obs, w, h)?;
    let label = runner
        .step(rgb)
        .map_err(|e| AgentError::Provider(format!("the GOAP policy failed: {e}")))?;
    Ok(factored_payload(&label.to_action()))
}

pub struct GoapAgent {
    id: String,
    runner: Runner,
    eyes: Eyes,
    episodes: u64,
}

/// Loads the checkpoint a profile names (`None`: the shipped one).
pub fn load_network(checkpoint: Option<&Path>) -> Result<Network, AgentError> {
    match checkpoint {
        None => shipped().map_err(AgentError::Config),
        Some(p) => checkpoint::load(p, &Device::Cpu).map_err(AgentError::Config),
    }
}

/// How a profile's `temperature` picks actions: 0 = the most likely class
/// of every head, another value = drawn from the heads at that temperature,
/// none = as the built-in `goap` does.
pub fn decoding(temperature: Option<f64>) -> Decoding {
    match temperature {
        Some(t) if t <= 0.0 => Decoding {
            sampling: Sampling::Greedy,
            temperature: 1.0,
        },
        Some(t) => Decoding {
            sampling: Sampling::Sample,
            temperature: t,
        },
        None => BUILTIN_DECODING,
    }
}

/// The agent for an open-world preset with a target item.
pub fn create(
    preset: &Preset,
    id: &str,
    checkpoint: Option<&Path>,
    seed: u64,
    decoding: Decoding,
) -> Result<Box<dyn Agent>, AgentError> {
    let task = OwTask::from_options(&preset.task.init);
    if preset.game.id != gw_openworld::game::ID || task.target_item.is_empty() {
        return Err(AgentError::Config(format!(
            "\"{id}\" is a learned policy for open-world tasks with a target item; \"{}\" is not one (run it on openworld+atomic_* / lh_* / oe_* tasks, or pick another agent)",
            preset.preset
        )));
    }
    let net = load_network(checkpoint)?;
    let goal = goal_text(&task.target_item, task.count);
    let mut runner = Runner::new(net, &goal, seed, decoding.sampling)
        .map_err(|e| AgentError::Config(format!("\"{id}\": {e}")))?;
    runner.temperature = decoding.temperature;
    Ok(Box::new(GoapAgent {
        id: id.to_string(),
        runner,
        eyes: Eyes::new(),
        episodes: 0,
    }))
}

impl Agent for GoapAgent {
    fn id(&self) -> &str {
        &self.id
    }

    fn interface(&self) -> Interface {
        Interface::Generalist
    }

    /// The policy draws its own small view from the world.
    fn needs_frames(&self) -> bool {
        false
    }

    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        Ok(Reply {
            payload: Some(act_payload(&mut self.runner, &mut self.eyes, obs)?),
            ..Default::default()
        })
    }

    fn observe_episode_end(&mut self, _png: &[u8], _path: Option<&str>, _note: &str) {
        self.episodes += 1;
        self.runner.restart(self.episodes);
    }
}
