//! Behaviour cloning: chunks of consecutive steps drawn from the training
//! episodes, each with the context before it (padding at an episode's
//! start, masked), the loss on the chunk's own steps, Adam with warm-up and
//! cosine decay, gradient-norm clipping, a validation split by episode, and
//! checkpoints that a later run with the same `--out` resumes from.
//!
//! Every random draw comes from the project PRNG for the seed and the step
//! number, so a run (and a resumed run) is the same for a seed and thread
//! count.

use crate::checkpoint::{self, TRAINER_STATE, TRAINER_WEIGHTS, WEIGHTS};
use crate::config::{self, BUTTONS, CAMERA_BINS, Dims, HOTBAR_CLASSES, Heads, PolicyConfig};
use crate::data::{self, Episode};
use crate::features::episode_features;
use crate::model::{Network, Split, bce, cross_entropy, memory_width};
use candle_core::{DType, Device, Tensor, Var};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub data: PathBuf,
    pub out: PathBuf,
    /// Total optimiser steps (a resumed run continues up to this).
    pub steps: u64,
    pub resolution: [u32; 2],
    pub seed: u64,
    pub threads: usize,
    /// Chunks per batch.
    pub batch_chunks: usize,
    /// Supervised steps per chunk.
    pub chunk: usize,
    pub learning_rate: f64,
    pub val_every: u64,
    pub save_every: u64,
    pub dims: Dims,
    /// A fresh run starts from these weights (and their configuration:
    /// vocabulary, heads, dimensions) instead of random ones: fine-tuning,
    /// e.g. on DAgger data. `None`: random weights from `seed`.
    pub init: Option<Init>,
}

/// Where a fine-tuning run's first weights come from.
#[derive(Clone, Debug)]
pub enum Init {
    /// The checkpoint shipped in the binary (the built-in `goap`).
    Shipped,
    /// A checkpoint folder (or its `policy.safetensors`).
    Path(PathBuf),
}

impl TrainOptions {
    pub fn new(data: PathBuf, out: PathBuf) -> TrainOptions {
        TrainOptions {
            data,
            out,
            steps: 2000,
            resolution: [64, 64],
            seed: 0,
            threads: 1,
            batch_chunks: 8,
            chunk: 32,
            learning_rate: 1e-3,
            val_every: 250,
            save_every: 250,
            dims: Dims::default(),
            init: None,
        }
    }
}

/// Why training stopped: bad input (exit 2) or a failure while running (exit 1).
#[derive(Debug)]
pub enum TrainError {
    Config(String),
    Runtime(String),
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Config(m) | TrainError::Runtime(m) => f.write_str(m),
        }
    }
}

fn rt(e: impl std::fmt::Display) -> TrainError {
    TrainError::Runtime(e.to_string())
}

/// What a caller hears while training runs.
pub enum Event {
    /// Episode files read so far, of all.
    Loading(usize, usize),
    /// The data is in memory: (train samples, validation samples).
    Loaded(usize, usize),
    Step {
        step: u64,
        steps: u64,
        loss: f64,
        val_loss: Option<f64>,
    },
}

/// `trainer.json`: where a run stands.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainerState {
    pub step: u64,
    pub samples_seen: u64,
    pub seconds: f64,
    pub train_loss: f64,
    pub val_loss: f64,
}

impl TrainerState {
    /// A run before its first step.
    fn fresh() -> TrainerState {
        TrainerState {
            step: 0,
            samples_seen: 0,
            seconds: 0.0,
            train_loss: f64::NAN,
            val_loss: f64::NAN,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Summary {
    pub config: PolicyConfig,
    pub resumed_from: u64,
    pub steps_run: u64,
    pub samples_per_s: f64,
}

struct Prepared {
    ep: Episode,
    goal: Vec<u32>,
    prev: Vec<f32>,
    mem: Vec<f32>,
    craft: Vec<u32>,
    smelt: Vec<u32>,
}

fn prepare(cfg: &PolicyConfig, ep: Episode) -> Prepared {
    let (prev, mem) = episode_features(cfg, &ep.labels);
    let class = |list: &[String], v: &Option<String>| -> u32 {
        v.as_ref()
            .and_then(|s| list.iter().position(|c| c == s))
            .unwrap_or(0) as u32
    };
    Prepared {
        goal: config::tokens(&cfg.vocab, &ep.goal),
        craft: ep
            .labels
            .iter()
            .map(|l| class(&cfg.heads.craft, &l.craft))
            .collect(),
        smelt: ep
            .labels
            .iter()
            .map(|l| class(&cfg.heads.smelt, &l.smelt))
            .collect(),
        prev,
        mem,
        ep,
    }
}

/// A batch of chunks: `(episode, first supervised step)` each.
struct Batch {
    frames: Vec<u8>,
    prev: Vec<f32>,
    mem: Vec<f32>,
    pad: Vec<f32>,
    goals: Vec<Vec<u32>>,
    buttons: Vec<f32>,
    hotbar: Vec<u32>,
    pitch: Vec<u32>,
    yaw: Vec<u32>,
    craft: Vec<u32>,
    smelt: Vec<u32>,
}

fn make_batch(cfg: &PolicyConfig, eps: &[Prepared], chunks: &[(usize, usize)], l: usize) -> Batch {
    let ctx = cfg.dims.context();
    let n = ctx - 1 + l;
    let [w, h] = cfg.resolution;
    let fsz = (w * h * 3) as usize;
    let a = cfg.heads.action_features();
    let m = memory_width(cfg);
    let b = chunks.len();
    let mut batch = Batch {
        frames: vec![0; b * n * fsz],
        prev: vec![0.0; b * n * a],
        mem: vec![0.0; b * n * m],
        pad: vec![0.0; b * n],
        goals: Vec::with_capacity(b),
        buttons: Vec::with_capacity(b * l * BUTTONS.len()),
        hotbar: Vec::with_capacity(b * l),
        pitch: Vec::with_capacity(b * l),
        yaw: Vec::with_capacity(b * l),
        craft: Vec::with_capacity(b * l),
        smelt: Vec::with_capacity(b * l),
    };
    for (bi, &(e, s)) in chunks.iter().enumerate() {
        let p = &eps[e];
        batch.goals.push(p.goal.clone());
        for i in 0..n {
            let row = bi * n + i;
            let pos = s as isize - (ctx as isize - 1) + i as isize;
            if pos < 0 {
                batch.pad[row] = 1.0;
                continue;
            }
            let pos = pos as usize;
            batch.frames[row * fsz..(row + 1) * fsz]
                .copy_from_slice(&p.ep.frames[pos * fsz..(pos + 1) * fsz]);
            batch.prev[row * a..(row + 1) * a].copy_from_slice(&p.prev[pos * a..(pos + 1) * a]);
            batch.mem[row * m..(row + 1) * m].copy_from_slice(&p.mem[pos * m..(pos + 1) * m]);
        }
        for pos in s..s + l {
            let lab = &p.ep.labels[pos];
            batch
                .buttons
                .extend(lab.buttons.iter().map(|&x| x as u8 as f32));
            batch.hotbar.push(lab.hotbar as u32);
            batch.pitch.push(lab.pitch as u32);
            batch.yaw.push(lab.yaw as u32);
            batch.craft.push(p.craft[pos]);
            batch.smelt.push(p.smelt[pos]);
        }
    }
    batch
}

/// The behaviour-cloning loss of a batch (a scalar tensor).
fn loss(net: &Network, batch: &Batch, b: usize, l: usize) -> candle_core::Result<Tensor> {
    let cfg = &net.cfg;
    let n = cfg.dims.context() - 1 + l;
    let dev = &net.device;
    let d = cfg.dims.d_model;
    let frames = net
        .encode_frames(&batch.frames, b * n)?
        .reshape((b, n, d))?;
    let prev = Tensor::from_slice(&batch.prev, (b, n, cfg.heads.action_features()), dev)?;
    let mem = Tensor::from_slice(&batch.mem, (b, n, memory_width(cfg)), dev)?;
    let goal = net.goal_embeddings(&batch.goals)?;
    let tokens = net.tokens(&frames, &prev, &mem, &goal)?;
    let pad = Tensor::from_slice(&batch.pad, (b, n), dev)?;
    let logits = net
        .behaviour(&tokens, Some(&pad))?
        .narrow(1, n - l, l)?
        .reshape((b * l, cfg.heads.logits()))?;
    let s = Split::of(cfg);
    let part = |(o, w): (usize, usize)| logits.narrow(1, o, w);
    let ids = |v: &[u32]| Tensor::from_slice(v, v.len(), dev);
    let buttons = Tensor::from_slice(&batch.buttons, (b * l, BUTTONS.len()), dev)?;
    let mut total = (bce(&part(s.buttons)?, &buttons)? * BUTTONS.len() as f64)?;
    for (range, target) in [
        (s.hotbar, &batch.hotbar),
        (s.pitch, &batch.pitch),
        (s.yaw, &batch.yaw),
        (s.craft, &batch.craft),
        (s.smelt, &batch.smelt),
    ] {
        total = (total + cross_entropy(&part(range)?, &ids(target)?)?)?;
    }
    Ok(total)
}

/// Adam's moments, one pair per variable in name order.
struct Adam {
    m: Vec<Tensor>,
    v: Vec<Tensor>,
}

impl Adam {
    fn new(vars: &[(String, Var)]) -> candle_core::Result<Adam> {
        let z = |v: &Var| Tensor::zeros(v.shape(), DType::F32, v.device());
        Ok(Adam {
            m: vars.iter().map(|(_, v)| z(v)).collect::<Result<_, _>>()?,
            v: vars.iter().map(|(_, v)| z(v)).collect::<Result<_, _>>()?,
        })
    }

    fn step(
        &mut self,
        vars: &[(String, Var)],
        grads: &candle_core::backprop::GradStore,
        lr: f64,
        t: u64,
    ) -> candle_core::Result<()> {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        const CLIP: f64 = 1.0;
        // Detached: a gradient still carries the graph it was computed
        // through (the batch's activations), and the moments would chain
        // every step's graph to the next, holding all of them in memory.
        let gs: Vec<Option<Tensor>> = vars
            .iter()
            .map(|(_, v)| grads.get(v).map(Tensor::detach))
            .collect();
        let mut sq = 0f64;
        for g in gs.iter().flatten() {
            sq += g.sqr()?.sum_all()?.to_scalar::<f32>()? as f64;
        }
        let norm = sq.sqrt();
        let scale = if norm > CLIP { CLIP / norm } else { 1.0 };
        let (c1, c2) = (1.0 - B1.powi(t as i32), 1.0 - B2.powi(t as i32));
        for (i, ((_, var), g)) in vars.iter().zip(gs).enumerate() {
            let Some(g) = g else { continue };
            let g = (g * scale)?;
            self.m[i] = ((&self.m[i] * B1)? + (&g * (1.0 - B1))?)?;
            self.v[i] = ((&self.v[i] * B2)? + (g.sqr()? * (1.0 - B2))?)?;
            let mhat = (&self.m[i] / c1)?;
            let vhat = (&self.v[i] / c2)?;
            let upd = (mhat / (vhat.sqrt()? + EPS)?)?;
            var.set(&(var.as_tensor() - (upd * lr)?)?)?;
        }
        Ok(())
    }

    fn tensors(&self, vars: &[(String, Var)]) -> HashMap<String, Tensor> {
        let mut out = HashMap::new();
        for (i, (k, _)) in vars.iter().enumerate() {
            out.insert(format!("m.{k}"), self.m[i].clone());
            out.insert(format!("v.{k}"), self.v[i].clone());
        }
        out
    }

    fn load(&mut self, vars: &[(String, Var)], path: &Path, dev: &Device) -> Result<(), String> {
        let name = path.display();
        let t = candle_core::safetensors::load(path, dev).map_err(|e| {
            format!("{name}: not a readable trainer state (truncated or corrupt?): {e}")
        })?;
        for (i, (k, v)) in vars.iter().enumerate() {
            for (which, slot) in [("m", &mut self.m[i]), ("v", &mut self.v[i])] {
                let x = t
                    .get(&format!("{which}.{k}"))
                    .filter(|x| x.dims() == v.dims())
                    .ok_or_else(|| {
                        format!("{name}: `{which}.{k}` is missing or has the wrong shape")
                    })?;
                *slot = x.clone();
            }
        }
        Ok(())
    }
}

/// Learning rate at `step` (0-based): linear warm-up, then cosine decay to a tenth.
fn learning_rate(base: f64, step: u64, steps: u64) -> f64 {
    let warm = 100.min(steps / 10).max(1);
    if step < warm {
        return base * (step + 1) as f64 / warm as f64;
    }
    let p = (step - warm) as f64 / (steps - warm).max(1) as f64;
    base * (0.1 + 0.9 * 0.5 * (1.0 + libm::cos(std::f64::consts::PI * p.min(1.0))))
}

/// The episodes held out for validation: every tenth in file order (none
/// when there are fewer than two episodes).
fn is_validation(index: usize, count: usize) -> bool {
    count >= 2 && (index % 10 == 9 || (count < 10 && index == count - 1))
}

/// Trains (or resumes) into `o.out`.
pub fn train(o: &TrainOptions, on: &mut (dyn FnMut(Event) + Send)) -> Result<Summary, TrainError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(rt)?;
    pool.install(|| train_in_pool(o, on))
}

fn train_in_pool(
    o: &TrainOptions,
    on: &mut (dyn FnMut(Event) + Send),
) -> Result<Summary, TrainError> {
    let dev = Device::Cpu;
    let out = &o.out;
    let trainer_path = out.join(TRAINER_STATE);
    let resume = trainer_path.is_file();
    if !resume && out.join(WEIGHTS).exists() {
        return Err(TrainError::Config(format!(
            "{}: holds a policy but no {TRAINER_STATE} to resume from; pick a fresh --out folder",
            out.display()
        )));
    }
    let [w, h] = o.resolution;
    let resumed_cfg = if resume {
        let cfg_path = out.join(checkpoint::CONFIG);
        let cfg = checkpoint::read_config(&cfg_path).map_err(TrainError::Config)?;
        if cfg.resolution != o.resolution {
            return Err(TrainError::Config(format!(
                "{}: the checkpoint is for {}x{} frames, --resolution asks for {w}x{h}; resume with --resolution {}x{} or pick a fresh --out",
                cfg_path.display(),
                cfg.resolution[0],
                cfg.resolution[1],
                cfg.resolution[0],
                cfg.resolution[1]
            )));
        }
        Some(cfg)
    } else {
        None
    };
    // A fine-tuning run's first weights, checked before the data is read.
    let init_net = match (&o.init, resume) {
        (Some(init), false) => {
            let (net, name) = match init {
                Init::Shipped => (
                    crate::agent::shipped().map_err(TrainError::Config)?,
                    "goap (the shipped checkpoint)".to_string(),
                ),
                Init::Path(p) if !p.exists() => {
                    return Err(TrainError::Config(format!(
                        "--init {}: no such checkpoint (a folder with config.json and policy.safetensors from `gameworld world train`, or `goap` for the shipped one)",
                        p.display()
                    )));
                }
                Init::Path(p) => (
                    checkpoint::load(p, &dev).map_err(TrainError::Config)?,
                    p.display().to_string(),
                ),
            };
            if net.cfg.resolution != o.resolution {
                let [cw, ch] = net.cfg.resolution;
                return Err(TrainError::Config(format!(
                    "--init {name}: the checkpoint is for {cw}x{ch} frames, --resolution asks for {w}x{h}; train with --resolution {cw}x{ch}"
                )));
            }
            Some(net)
        }
        _ => None,
    };
    let eps = data::read_dataset(&o.data, w, h, &mut |i, n| on(Event::Loading(i, n)))
        .map_err(TrainError::Config)?;
    let (mut net, mut adam, state) = if let Some(cfg) = resumed_cfg {
        let mut net = Network::build(cfg, &dev).map_err(rt)?;
        checkpoint::load_weights(&mut net, &out.join(WEIGHTS)).map_err(TrainError::Config)?;
        let vars = net.named_vars();
        let mut adam = Adam::new(&vars).map_err(rt)?;
        adam.load(&vars, &out.join(TRAINER_WEIGHTS), &dev)
            .map_err(TrainError::Config)?;
        let text = std::fs::read_to_string(&trainer_path)
            .map_err(|e| TrainError::Config(format!("{}: {e}", trainer_path.display())))?;
        let state: TrainerState = serde_json::from_str(&text).map_err(|e| {
            TrainError::Config(format!(
                "{}: not a trainer state: {e}",
                trainer_path.display()
            ))
        })?;
        (net, adam, state)
    } else if let Some(net) = init_net {
        let adam = Adam::new(&net.named_vars()).map_err(rt)?;
        let state = TrainerState::fresh();
        (net, adam, state)
    } else {
        let (craft, smelt) = data::macro_classes(&eps);
        let heads = Heads {
            buttons: BUTTONS.iter().map(|s| s.to_string()).collect(),
            hotbar: HOTBAR_CLASSES,
            camera_bins: CAMERA_BINS,
            craft,
            smelt,
        };
        let vocab = config::vocabulary(eps.iter().map(|e| e.goal.as_str()));
        let cfg = PolicyConfig::new(o.resolution, o.dims.clone(), vocab, heads);
        cfg.check().map_err(TrainError::Config)?;
        let net = Network::new(cfg, &dev, o.seed).map_err(rt)?;
        let adam = Adam::new(&net.named_vars()).map_err(rt)?;
        let state = TrainerState::fresh();
        (net, adam, state)
    };
    let count = eps.len();
    let (mut train_eps, mut val_eps) = (Vec::new(), Vec::new());
    for (i, e) in eps.into_iter().enumerate() {
        let p = prepare(&net.cfg, e);
        if is_validation(i, count) {
            val_eps.push(p);
        } else {
            train_eps.push(p);
        }
    }
    let train_samples: usize = train_eps.iter().map(|p| p.ep.len()).sum();
    let val_samples: usize = val_eps.iter().map(|p| p.ep.len()).sum();
    on(Event::Loaded(train_samples, val_samples));
    // Chunk length: the longest episode bounds it.
    let longest = train_eps.iter().map(|p| p.ep.len()).max().unwrap_or(1);
    let l = o.chunk.clamp(1, longest);
    let eligible: Vec<usize> = (0..train_eps.len())
        .filter(|&i| train_eps[i].ep.len() >= l)
        .collect();
    let starts: Vec<(usize, usize)> = eligible
        .iter()
        .map(|&i| (i, train_eps[i].ep.len() - l + 1))
        .collect();
    let total_starts: u64 = starts.iter().map(|s| s.1 as u64).sum();
    // Validation chunks: consecutive, non-overlapping, at most 64.
    let mut val_chunks = Vec::new();
    for (i, p) in val_eps.iter().enumerate() {
        let mut s = 0;
        while s + l <= p.ep.len() && val_chunks.len() < 64 {
            val_chunks.push((i, s));
            s += l;
        }
    }
    let vars = net.named_vars();
    let b = o.batch_chunks.max(1);
    let started = Instant::now();
    let first = state.step;
    let mut st = state;
    let validate = |net: &Network| -> Result<f64, TrainError> {
        if val_chunks.is_empty() {
            return Ok(f64::NAN);
        }
        let mut sum = 0.0;
        for c in val_chunks.chunks(b) {
            let batch = make_batch(&net.cfg, &val_eps, c, l);
            let v = loss(net, &batch, c.len(), l)
                .and_then(|t| t.to_scalar::<f32>())
                .map_err(rt)?;
            sum += v as f64 * c.len() as f64;
        }
        Ok(sum / val_chunks.len() as f64)
    };
    let save = |net: &mut Network,
                adam: &Adam,
                st: &TrainerState,
                seconds: f64|
     -> Result<(), TrainError> {
        let parameters = net.parameters();
        let cfg = &mut net.cfg;
        cfg.parameters = parameters;
        cfg.training = config::TrainInfo {
            data: o.data.display().to_string(),
            seed: o.seed,
            threads: o.threads,
            steps: st.step,
            batch_chunks: b,
            chunk: l,
            learning_rate: o.learning_rate,
            train_episodes: train_eps.len(),
            val_episodes: val_eps.len(),
            train_samples,
            val_samples,
            samples_seen: st.samples_seen,
            train_loss: st.train_loss,
            val_loss: st.val_loss,
            seconds,
        };
        checkpoint::save(net, out).map_err(TrainError::Runtime)?;
        checkpoint::save_tensors(&out.join(TRAINER_WEIGHTS), &adam.tensors(&vars))
            .map_err(TrainError::Runtime)?;
        let json = serde_json::to_string_pretty(st).expect("state serialises") + "\n";
        checkpoint::write_atomic(&trainer_path, json.as_bytes()).map_err(TrainError::Runtime)
    };
    let base_seconds = st.seconds;
    while st.step < o.steps && total_starts > 0 {
        let mut rng = gw_core::Rng::new(o.seed, 0x6261_7463_6800 ^ st.step);
        let chunks: Vec<(usize, usize)> = (0..b)
            .map(|_| {
                let mut r = rng.next_u64() % total_starts;
                for &(e, n) in &starts {
                    if r < n as u64 {
                        return (e, r as usize);
                    }
                    r -= n as u64;
                }
                unreachable!("r < total_starts")
            })
            .collect();
        let batch = make_batch(&net.cfg, &train_eps, &chunks, l);
        let lt = loss(&net, &batch, b, l).map_err(rt)?;
        let lv = lt.to_scalar::<f32>().map_err(rt)? as f64;
        if !lv.is_finite() {
            return Err(TrainError::Runtime(format!(
                "the loss is {lv} at step {}; lower the learning rate",
                st.step
            )));
        }
        let grads = lt.backward().map_err(rt)?;
        let lr = learning_rate(o.learning_rate, st.step, o.steps);
        adam.step(&vars, &grads, lr, st.step + 1).map_err(rt)?;
        st.step += 1;
        st.samples_seen += (b * l) as u64;
        st.train_loss = if st.train_loss.is_finite() {
            0.95 * st.train_loss + 0.05 * lv
        } else {
            lv
        };
        let last = st.step == o.steps;
        let mut val = None;
        if last || st.step % o.val_every.max(1) == 0 {
            st.val_loss = validate(&net)?;
            val = Some(st.val_loss);
        }
        if last || st.step % o.save_every.max(1) == 0 {
            st.seconds = base_seconds + started.elapsed().as_secs_f64();
            save(&mut net, &adam, &st, st.seconds)?;
        }
        on(Event::Step {
            step: st.step,
            steps: o.steps,
            loss: lv,
            val_loss: val,
        });
    }
    if st.step == first {
        // Nothing to run (already at --steps): make sure the files exist.
        if total_starts == 0 {
            return Err(TrainError::Config(format!(
                "{}: no training episode is long enough to train on",
                o.data.display()
            )));
        }
        st.val_loss = validate(&net)?;
        save(&mut net, &adam, &st, st.seconds)?;
    }
    let secs = started.elapsed().as_secs_f64();
    let steps_run = st.step - first;
    Ok(Summary {
        config: net.cfg.clone(),
        resumed_from: first,
        steps_run,
        samples_per_s: if secs > 0.0 {
            (steps_run * (b * l) as u64) as f64 / secs
        } else {
            0.0
        },
    })
}

/// The mean loss of `net` on a whole dataset folder (for tests and reports).
pub fn dataset_loss(net: &Network, dir: &Path, chunk: usize) -> Result<f64, TrainError> {
    let [w, h] = net.cfg.resolution;
    let eps = data::read_dataset(dir, w, h, &mut |_, _| {}).map_err(TrainError::Config)?;
    let prepared: Vec<Prepared> = eps.into_iter().map(|e| prepare(&net.cfg, e)).collect();
    let l = chunk.clamp(1, prepared.iter().map(|p| p.ep.len()).min().unwrap_or(1));
    let chunks: Vec<(usize, usize)> = prepared
        .iter()
        .enumerate()
        .flat_map(|(i, p)| (0..=p.ep.len() - l).step_by(l).map(move |s| (i, s)))
        .collect();
    let mut sum = 0.0;
    for c in chunks.chunks(8) {
        let batch = make_batch(&net.cfg, &prepared, c, l);
        let v = loss(net, &batch, c.len(), l)
            .and_then(|t| t.to_scalar::<f32>())
            .map_err(rt)?;
        sum += v as f64 * c.len() as f64;
    }
    Ok(sum / chunks.len().max(1) as f64)
}

/// The joint logits `(steps, L)` of every step of `ep` computed the training
/// way: the whole episode as one sequence under the banded causal mask,
/// previous actions and memory from the episode's own actions.
pub fn episode_logits(net: &Network, ep: &Episode) -> candle_core::Result<Tensor> {
    let cfg = &net.cfg;
    let p = prepare(cfg, ep.clone());
    let n = ep.len();
    let dev = &net.device;
    let frames = net
        .encode_frames(&ep.frames, n)?
        .reshape((1, n, cfg.dims.d_model))?;
    let prev = Tensor::from_slice(&p.prev, (1, n, cfg.heads.action_features()), dev)?;
    let mem = Tensor::from_slice(&p.mem, (1, n, memory_width(cfg)), dev)?;
    let goal = net.goal_embeddings(std::slice::from_ref(&p.goal))?;
    let tokens = net.tokens(&frames, &prev, &mem, &goal)?;
    net.behaviour(&tokens, None)?.squeeze(0)
}
