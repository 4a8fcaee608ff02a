//! What the network reads besides frames, computed the same way in training
//! and inference: the previous action's features and the memory (running
//! averages of every earlier action's features and the elapsed time).

use crate::config::PolicyConfig;
use crate::data::Label;
use crate::model::memory_width;

/// The per-step recurrence over an episode's actions.
#[derive(Clone, Debug)]
pub struct History {
    decays: Vec<f32>,
    horizon: f32,
    width: usize,
    step: u32,
    actions: bool,
    prev: Vec<f32>,
    averages: Vec<f32>,
}

impl History {
    pub fn new(cfg: &PolicyConfig) -> History {
        let width = cfg.heads.action_features();
        History {
            decays: cfg.dims.memory_decays.clone(),
            horizon: cfg.dims.memory_horizon.max(1) as f32,
            width,
            step: 0,
            actions: cfg.dims.action_inputs,
            prev: vec![0.0; width],
            averages: vec![0.0; width * cfg.dims.memory_decays.len()],
        }
    }

    /// The previous action's features (zeros on the first step).
    pub fn prev(&self) -> &[f32] {
        &self.prev
    }

    /// The memory features for the current step.
    pub fn memory(&self, out: &mut Vec<f32>) {
        out.extend_from_slice(&self.averages);
        out.push((self.step as f32 / self.horizon).min(1.0));
    }

    /// The action taken on the current step; moves to the next.
    pub fn push(&mut self, action: &Label) {
        self.step += 1;
        if !self.actions {
            return;
        }
        action.features(&mut self.prev);
        for (k, &d) in self.decays.iter().enumerate() {
            let avg = &mut self.averages[k * self.width..(k + 1) * self.width];
            for (a, &x) in avg.iter_mut().zip(&self.prev) {
                *a = d * *a + (1.0 - d) * x;
            }
        }
    }
}

/// Per-step features of a whole episode: (previous action `n × A`, memory `n × M`).
pub fn episode_features(cfg: &PolicyConfig, labels: &[Label]) -> (Vec<f32>, Vec<f32>) {
    let mut h = History::new(cfg);
    let mut prev = Vec::with_capacity(labels.len() * cfg.heads.action_features());
    let mut mem = Vec::with_capacity(labels.len() * memory_width(cfg));
    for l in labels {
        prev.extend_from_slice(h.prev());
        h.memory(&mut mem);
        h.push(l);
    }
    (prev, mem)
}
