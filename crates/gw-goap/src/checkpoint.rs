//! Checkpoint files: `policy.safetensors` (the weights, one tensor per
//! variable name) beside `config.json` ([`PolicyConfig`]); while training,
//! also `trainer.safetensors` (Adam's moments) and `trainer.json` (the step
//! reached), which let a run resume. Every file is written to a temporary
//! name and renamed.

use crate::config::PolicyConfig;
use crate::model::Network;
use candle_core::{Device, Tensor};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const WEIGHTS: &str = "policy.safetensors";
pub const CONFIG: &str = "config.json";
pub const TRAINER_WEIGHTS: &str = "trainer.safetensors";
pub const TRAINER_STATE: &str = "trainer.json";

/// `(config.json, policy.safetensors)` for a checkpoint folder, or for the
/// weights file itself (its config beside it).
pub fn paths(checkpoint: &Path) -> (PathBuf, PathBuf) {
    if checkpoint.is_dir() {
        (checkpoint.join(CONFIG), checkpoint.join(WEIGHTS))
    } else {
        let dir = checkpoint.parent().unwrap_or(Path::new("."));
        (dir.join(CONFIG), checkpoint.to_path_buf())
    }
}

pub fn read_config(path: &Path) -> Result<PolicyConfig, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: cannot read the policy config: {e} (a checkpoint is a folder with {CONFIG} and {WEIGHTS}, made by `gameworld world train`)",
            path.display()
        )
    })?;
    let cfg: PolicyConfig = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a GOAP policy config: {e}", path.display()))?;
    cfg.check()
        .map_err(|e| format!("{}: invalid policy config: {e}", path.display()))?;
    Ok(cfg)
}

/// Loads a checkpoint; every failure names the file and what is wrong.
pub fn load(checkpoint: &Path, device: &Device) -> Result<Network, String> {
    let (cfg_path, weights) = paths(checkpoint);
    let cfg = read_config(&cfg_path)?;
    let mut net =
        Network::build(cfg, device).map_err(|e| format!("{}: {e}", cfg_path.display()))?;
    load_weights(&mut net, &weights)?;
    Ok(net)
}

/// Reads `path` into the network's variables: every variable must be there
/// with its shape, and nothing else.
pub fn load_weights(net: &mut Network, path: &Path) -> Result<(), String> {
    let name = path.display();
    if !path.is_file() {
        return Err(format!(
            "{name}: no such policy weights file (train one with `gameworld world train --out DIR`)"
        ));
    }
    let tensors = candle_core::safetensors::load(path, &net.device).map_err(|e| {
        format!("{name}: not a readable safetensors file (truncated or corrupt?): {e}")
    })?;
    set_weights(net, tensors, &name.to_string())
}

/// Sets the network's variables from `tensors` read from the file `name`.
pub fn set_weights(
    net: &mut Network,
    tensors: HashMap<String, Tensor>,
    name: &str,
) -> Result<(), String> {
    let vars = net.named_vars();
    for (k, var) in &vars {
        let t = tensors.get(k).ok_or_else(|| {
            format!(
                "{name}: tensor `{k}` is missing: the weights do not match the config beside them"
            )
        })?;
        if t.dims() != var.dims() {
            return Err(format!(
                "{name}: tensor `{k}` has shape {:?}, the config asks for {:?}: the weights do not match the config beside them",
                t.dims(),
                var.dims()
            ));
        }
        t.to_dtype(candle_core::DType::F32)
            .and_then(|t| var.set(&t))
            .map_err(|e| format!("{name}: tensor `{k}`: {e}"))?;
    }
    if let Some(extra) = tensors.keys().find(|k| !vars.iter().any(|(n, _)| n == *k)) {
        return Err(format!(
            "{name}: unexpected tensor `{extra}`: the weights do not match the config beside them"
        ));
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: cannot write: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot rename: {e}", path.display()))
}

/// Writes tensors as safetensors through a temporary file and a rename.
pub fn save_tensors(path: &Path, tensors: &HashMap<String, Tensor>) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    candle_core::safetensors::save(tensors, &tmp)
        .map_err(|e| format!("{}: cannot write: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: cannot rename: {e}", path.display()))
}

/// Saves the weights and the config into `dir`.
pub fn save(net: &Network, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    let tensors: HashMap<String, Tensor> = net
        .named_vars()
        .into_iter()
        .map(|(k, v)| (k, v.as_tensor().clone()))
        .collect();
    save_tensors(&dir.join(WEIGHTS), &tensors)?;
    let mut cfg = net.cfg.clone();
    cfg.parameters = net.parameters();
    let json = serde_json::to_string_pretty(&cfg).expect("config serialises") + "\n";
    write_atomic(&dir.join(CONFIG), json.as_bytes())
}
