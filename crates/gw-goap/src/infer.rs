//! Running a policy one step at a time. Each step encodes only the new
//! frame: the tokens of the last `context` steps are kept (a token depends
//! only on its own step's inputs), and the behaviour encoder runs over them
//! with the same banded causal attention as in training, so the last
//! token's output equals what training computed for that step.

use crate::config;
use crate::data::Label;
use crate::features::History;
use crate::model::{Network, Split, memory_width};
use candle_core::{Result, Tensor};
use std::collections::VecDeque;

/// How actions are drawn from the heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// The most likely class of every head (a button when p ≥ 0.5).
    Greedy,
    /// Draw every head from its distribution with the project PRNG.
    Sample,
}

pub struct Runner {
    pub net: Network,
    goal: Tensor,
    history: History,
    tokens: VecDeque<Tensor>,
    rng: gw_core::Rng,
    seed: u64,
    pub sampling: Sampling,
    split: Split,
}

/// Softmax of `xs` (numerically stable, in f64).
fn softmax(xs: &[f32]) -> Vec<f64> {
    let m = xs.iter().cloned().fold(f32::NEG_INFINITY, f32::max) as f64;
    let e: Vec<f64> = xs.iter().map(|&x| libm::exp(x as f64 - m)).collect();
    let s: f64 = e.iter().sum();
    e.into_iter().map(|x| x / s).collect()
}

fn argmax(xs: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[best] {
            best = i;
        }
    }
    best
}

impl Runner {
    /// A runner for `goal` text; `seed` drives sampling.
    pub fn new(net: Network, goal: &str, seed: u64, sampling: Sampling) -> Result<Runner> {
        let g = config::tokens(&net.cfg.vocab, goal);
        let goal = net.goal_embeddings(&[g])?;
        Ok(Runner {
            history: History::new(&net.cfg),
            split: Split::of(&net.cfg),
            goal,
            tokens: VecDeque::new(),
            rng: gw_core::Rng::new(seed, 0x0067_6f61_7061_6374), // "goapact"
            seed,
            sampling,
            net,
        })
    }

    /// Frame width and height the policy reads.
    pub fn resolution(&self) -> (u32, u32) {
        (self.net.cfg.resolution[0], self.net.cfg.resolution[1])
    }

    /// A new goal (a new sub-goal): the episode's history is kept.
    pub fn set_goal(&mut self, goal: &str) -> Result<()> {
        let g = config::tokens(&self.net.cfg.vocab, goal);
        self.goal = self.net.goal_embeddings(&[g])?;
        Ok(())
    }

    /// Start a new episode (`episode` varies the sampling stream).
    pub fn restart(&mut self, episode: u64) {
        self.history = History::new(&self.net.cfg);
        self.tokens.clear();
        self.rng = gw_core::Rng::new(
            self.seed ^ episode.wrapping_mul(0x9e37_79b9),
            0x0067_6f61_7061_6374,
        );
    }

    /// The joint logits for `rgb` (height × width × 3 bytes at the policy's
    /// resolution) as the next step, without taking an action yet.
    fn logits(&mut self, rgb: &[u8]) -> Result<Vec<f32>> {
        let cfg = &self.net.cfg;
        let dev = &self.net.device;
        let f = self.net.encode_frames(rgb, 1)?.unsqueeze(0)?;
        let prev = Tensor::from_slice(
            self.history.prev(),
            (1, 1, cfg.heads.action_features()),
            dev,
        )?;
        let mut mem = Vec::with_capacity(memory_width(cfg));
        self.history.memory(&mut mem);
        let mem = Tensor::from_vec(mem, (1, 1, memory_width(cfg)), dev)?;
        let tok = self.net.tokens(&f, &prev, &mem, &self.goal)?;
        self.tokens.push_back(tok);
        while self.tokens.len() > cfg.dims.context() {
            self.tokens.pop_front();
        }
        let n = self.tokens.len();
        let all = Tensor::cat(&self.tokens.iter().collect::<Vec<_>>(), 1)?;
        let out = self.net.behaviour(&all, None)?;
        out.narrow(1, n - 1, 1)?.flatten_all()?.to_vec1::<f32>()
    }

    /// The classes chosen for frame `rgb`; the choice becomes the next
    /// step's previous action.
    pub fn step(&mut self, rgb: &[u8]) -> Result<Label> {
        let z = self.logits(rgb)?;
        let s = &self.split;
        let part = |(o, w): (usize, usize)| &z[o..o + w];
        let pick = |xs: &[f32], rng: &mut gw_core::Rng, sampling: Sampling| -> usize {
            match sampling {
                Sampling::Greedy => argmax(xs),
                Sampling::Sample => {
                    let p = softmax(xs);
                    let mut r = rng.next_f64();
                    for (i, q) in p.iter().enumerate() {
                        if r < *q {
                            return i;
                        }
                        r -= q;
                    }
                    p.len() - 1
                }
            }
        };
        let mut label = Label::default();
        for (i, &x) in part(s.buttons).iter().enumerate() {
            let p = 1.0 / (1.0 + libm::exp(-(x as f64)));
            label.buttons[i] = match self.sampling {
                Sampling::Greedy => p >= 0.5,
                Sampling::Sample => self.rng.next_f64() < p,
            };
        }
        let sampling = self.sampling;
        label.hotbar = pick(part(s.hotbar), &mut self.rng, sampling) as u8;
        label.pitch = pick(part(s.pitch), &mut self.rng, sampling) as u8;
        label.yaw = pick(part(s.yaw), &mut self.rng, sampling) as u8;
        let heads = &self.net.cfg.heads;
        let c = pick(part(s.craft), &mut self.rng, sampling);
        label.craft = (c > 0).then(|| heads.craft[c].clone());
        let c = pick(part(s.smelt), &mut self.rng, sampling);
        label.smelt = (c > 0).then(|| heads.smelt[c].clone());
        self.history.push(&label);
        Ok(label)
    }

    /// The joint logits for frame `rgb`, then `taken` recorded as the action
    /// of this step (teacher forcing: replaying a recorded episode).
    pub fn step_forced(&mut self, rgb: &[u8], taken: &Label) -> Result<Vec<f32>> {
        let z = self.logits(rgb)?;
        self.history.push(taken);
        Ok(z)
    }

    /// Raw joint logits of the next step (for tests): the step is taken
    /// with the greedy action.
    pub fn step_logits(&mut self, rgb: &[u8]) -> Result<Vec<f32>> {
        let sampling = std::mem::replace(&mut self.sampling, Sampling::Greedy);
        let z = self.logits(rgb)?;
        self.tokens.pop_back();
        let label = self.step(rgb);
        self.sampling = sampling;
        label.map(|_| z)
    }
}
