//! Running a policy one step at a time. Each step encodes only the new
//! frame and runs the behaviour encoder for the new position only: every
//! block keeps the keys and values of its last `window` positions
//! ([`StepCache`]), which is all the banded causal attention of training
//! reads, so the new position's output equals what training computed for
//! that step.

use crate::config;
use crate::data::Label;
use crate::features::History;
use crate::model::{Network, Split, StepCache, memory_width};
use candle_core::{Result, Tensor};

/// How actions are drawn from the heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// The most likely class of every head (a button when p ≥ 0.5).
    Greedy,
    /// Draw every head from its distribution with the project PRNG, after
    /// leaving out the unlikely choices (see [`Runner::min_p`]).
    Sample,
}

/// The default [`Runner::min_p`].
pub const MIN_P: f64 = 0.02;

pub struct Runner {
    pub net: Network,
    goal: Tensor,
    history: History,
    cache: StepCache,
    rng: gw_core::Rng,
    seed: u64,
    pub sampling: Sampling,
    /// When sampling, a class less likely than `min_p` times the head's
    /// most likely class is never drawn, and a button is held when
    /// `p ≥ 1 − min_p` and left when `p < min_p`. Over an episode of
    /// thousands of steps, a choice the expert almost never made (opening
    /// the inventory, a full turn, a craft) would otherwise be drawn every
    /// few hundred steps, and one such draw can undo the episode.
    pub min_p: f64,
    /// When sampling, the button logits are divided by this first. Below 1
    /// sharpens them: a button the policy is fairly sure of (attack while a
    /// block cracks) is held on more steps in a row, and a block breaks only
    /// under an unbroken hold. The camera, hotbar and macro heads are drawn
    /// as trained, so the view still turns to look for things.
    pub temperature: f64,
    split: Split,
}

/// Softmax of `xs` (numerically stable, in f64).
fn softmax(xs: &[f32]) -> Vec<f64> {
    let m = xs.iter().cloned().fold(f32::NEG_INFINITY, f32::max) as f64;
    let e: Vec<f64> = xs.iter().map(|&x| libm::exp(x as f64 - m)).collect();
    let s: f64 = e.iter().sum();
    e.into_iter().map(|x| x / s).collect()
}

/// A class drawn from logits `xs`, leaving out every class less likely
/// than `min_p` (at most 0.5) times the most likely one.
pub fn draw_class(xs: &[f32], min_p: f64, rng: &mut gw_core::Rng) -> usize {
    let mut p = softmax(xs);
    let floor = min_p.clamp(0.0, 0.5) * p.iter().cloned().fold(0.0, f64::max);
    for q in p.iter_mut() {
        if *q < floor {
            *q = 0.0;
        }
    }
    let mut r = rng.next_f64() * p.iter().sum::<f64>();
    let mut last = 0;
    for (i, q) in p.iter().enumerate() {
        if *q == 0.0 {
            continue;
        }
        if r < *q {
            return i;
        }
        r -= q;
        last = i;
    }
    last
}

/// A button pressed with probability `p`: never below `min_p`, always from
/// `1 − min_p` (`min_p` at most 0.5).
pub fn draw_button(p: f64, min_p: f64, rng: &mut gw_core::Rng) -> bool {
    let min_p = min_p.clamp(0.0, 0.5);
    if p < min_p {
        false
    } else if p >= 1.0 - min_p {
        true
    } else {
        rng.next_f64() < p
    }
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
            cache: StepCache::default(),
            rng: gw_core::Rng::new(seed, 0x0067_6f61_7061_6374), // "goapact"
            seed,
            sampling,
            min_p: MIN_P,
            temperature: 1.0,
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
        self.cache.clear();
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
        let f = self.net.encode_frames_fused(rgb, 1)?.unsqueeze(0)?;
        let prev = Tensor::from_slice(
            self.history.prev(),
            (1, 1, cfg.heads.action_features()),
            dev,
        )?;
        let mut mem = Vec::with_capacity(memory_width(cfg));
        self.history.memory(&mut mem);
        let mem = Tensor::from_vec(mem, (1, 1, memory_width(cfg)), dev)?;
        let tok = self.net.tokens(&f, &prev, &mem, &self.goal)?;
        self.net
            .behaviour_step(&tok, &mut self.cache)?
            .flatten_all()?
            .to_vec1::<f32>()
    }

    /// The classes chosen for frame `rgb`; the choice becomes the next
    /// step's previous action.
    pub fn step(&mut self, rgb: &[u8]) -> Result<Label> {
        let label = self.decide(rgb)?;
        self.history.push(&label);
        Ok(label)
    }

    /// The classes the policy would choose for frame `rgb`; the step is
    /// over once [`Runner::taken`] records the action actually taken
    /// (another player's, in DAgger).
    pub fn decide(&mut self, rgb: &[u8]) -> Result<Label> {
        let z = self.logits(rgb)?;
        Ok(self.choose(&z))
    }

    /// Records the action taken on the step [`Runner::decide`] began.
    pub fn taken(&mut self, label: &Label) {
        self.history.push(label);
    }

    /// The classes drawn from the joint logits `z`.
    fn choose(&mut self, z: &[f32]) -> Label {
        let s = &self.split;
        let part = |(o, w): (usize, usize)| &z[o..o + w];
        let min_p = self.min_p;
        let t = if self.temperature > 0.0 {
            self.temperature as f32
        } else {
            1.0
        };
        let pick = |xs: &[f32], rng: &mut gw_core::Rng, sampling: Sampling| -> usize {
            match sampling {
                Sampling::Greedy => argmax(xs),
                Sampling::Sample => draw_class(xs, min_p, rng),
            }
        };
        let mut label = Label::default();
        for (i, &x) in part(s.buttons).iter().enumerate() {
            let p = match self.sampling {
                Sampling::Sample => 1.0 / (1.0 + libm::exp(-(x / t) as f64)),
                _ => 1.0 / (1.0 + libm::exp(-(x as f64))),
            };
            label.buttons[i] = match self.sampling {
                Sampling::Greedy => p >= 0.5,
                Sampling::Sample => draw_button(p, min_p, &mut self.rng),
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
        label
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
        let label = self.choose(&z);
        self.history.push(&label);
        self.sampling = sampling;
        Ok(z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unlikely_choices_are_never_drawn_and_likely_ones_always() {
        let mut rng = gw_core::Rng::new(7, 1);
        // Class 2 has 5% of class 0's probability: left out at min_p 0.1.
        let xs = [0.0f32, -0.5, (0.05f64).ln() as f32];
        let mut seen = [0u32; 3];
        for _ in 0..4000 {
            seen[draw_class(&xs, 0.1, &mut rng)] += 1;
        }
        assert_eq!(seen[2], 0, "{seen:?}");
        assert!(seen[0] > seen[1] && seen[1] > 1000, "{seen:?}");
        // Without the floor it is drawn about 1 time in 33.
        let mut rare = 0;
        for _ in 0..4000 {
            rare += (draw_class(&xs, 0.0, &mut rng) == 2) as u32;
        }
        assert!((60..200).contains(&rare), "{rare}");
        // Buttons: never under min_p, always over 1 − min_p, drawn between.
        let n =
            |p: f64, rng: &mut gw_core::Rng| (0..4000).filter(|_| draw_button(p, 0.1, rng)).count();
        assert_eq!(n(0.09, &mut rng), 0);
        assert_eq!(n(0.91, &mut rng), 4000);
        assert!((1800..2200).contains(&n(0.5, &mut rng)));
    }
}
