//! The network, after Optimus-2's GOAP at small scale:
//!
//! * a frame encoder: four stride-2 4×4 convolutions (ReLU, initialised
//!   for ReLU so activations keep their size through the stack) and a
//!   linear projection with a layer norm, one `d_model` vector per frame of
//!   the same size as the other token parts (without the norm the frame's
//!   part started ~30× smaller than the goal's and training left it there);
//! * per step a token = frame embedding + previous-action embedding +
//!   memory embedding + goal embedding. The memory aggregates the episode
//!   before the window: running averages (one per decay rate) of every
//!   earlier action's features and the elapsed time, the same recurrence in
//!   training and inference. The goal is a bag of words (mean of word
//!   embeddings over the config's vocabulary);
//! * the action-guided behaviour encoder: pre-norm transformer blocks whose
//!   attention is causal and banded — a token sees itself and the
//!   `window − 1` tokens before it — with a learned bias per head and offset
//!   (the tokens' order);
//! * factored action heads on the last token: 11 button logits (sigmoid),
//!   hotbar, camera pitch and yaw bins, craft and smelt classes (softmax).

use crate::config::PolicyConfig;
use candle_core::{D, DType, Device, Result, Tensor, Var};
use candle_nn::{Conv2d, Conv2dConfig, Linear, Module, VarBuilder, VarMap};

struct Block {
    ln1: LayerNorm,
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    rel_bias: Tensor,
    ln2: LayerNorm,
    ffn1: Linear,
    ffn2: Linear,
}

pub struct Network {
    pub cfg: PolicyConfig,
    pub varmap: VarMap,
    pub device: Device,
    convs: Vec<Conv2d>,
    proj: Linear,
    frame_ln: LayerNorm,
    action: Linear,
    memory: Linear,
    goal: Tensor,
    blocks: Vec<Block>,
    head_ln: LayerNorm,
    head: Linear,
}

/// The joint logits split per head: (start, width) of each.
pub struct Split {
    pub buttons: (usize, usize),
    pub hotbar: (usize, usize),
    pub pitch: (usize, usize),
    pub yaw: (usize, usize),
    pub craft: (usize, usize),
    pub smelt: (usize, usize),
}

impl Split {
    pub fn of(cfg: &PolicyConfig) -> Split {
        let h = &cfg.heads;
        let mut o = 0;
        let mut take = |n: usize| {
            let r = (o, n);
            o += n;
            r
        };
        Split {
            buttons: take(h.buttons.len()),
            hotbar: take(h.hotbar),
            pitch: take(h.camera_bins),
            yaw: take(h.camera_bins),
            craft: take(h.craft.len()),
            smelt: take(h.smelt.len()),
        }
    }
}

/// Memory features: one running average of action features per decay,
/// then the elapsed-time fraction.
pub fn memory_width(cfg: &PolicyConfig) -> usize {
    cfg.heads.action_features() * cfg.dims.memory_decays.len() + 1
}

/// Layer normalisation over the last axis with a learned scale and shift,
/// written with differentiable tensor operations. (candle-nn's `LayerNorm`
/// runs a fused kernel on contiguous input that has no backward pass:
/// gradients stop there, and everything before it — the frame encoder, the
/// token parts and the behaviour encoder — silently never trains.)
struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
}

const LN_EPS: f64 = 1e-5;

impl Module for LayerNorm {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let mean = x.mean_keepdim(D::Minus1)?;
        let xc = x.broadcast_sub(&mean)?;
        let var = xc.sqr()?.mean_keepdim(D::Minus1)?;
        xc.broadcast_div(&(var + LN_EPS)?.sqrt()?)?
            .broadcast_mul(&self.weight)?
            .broadcast_add(&self.bias)
    }
}

impl LayerNorm {
    /// The same function through candle's fused kernel: faster, but with no
    /// backward pass, so only inference may call it.
    fn forward_fused(&self, x: &Tensor) -> Result<Tensor> {
        candle_nn::ops::layer_norm(&x.contiguous()?, &self.weight, &self.bias, LN_EPS as f32)
    }
}

fn ln(d: usize, vb: VarBuilder) -> Result<LayerNorm> {
    Ok(LayerNorm {
        weight: vb.get_with_hints(d, "weight", candle_nn::Init::Const(1.0))?,
        bias: vb.get_with_hints(d, "bias", candle_nn::Init::Const(0.0))?,
    })
}

impl Network {
    /// A network with weights drawn from the project PRNG for `seed`.
    pub fn new(cfg: PolicyConfig, device: &Device, seed: u64) -> Result<Network> {
        let net = Network::build(cfg, device)?;
        net.init(seed)?;
        Ok(net)
    }

    /// The layers, their variables registered in `varmap` (values unset).
    pub fn build(cfg: PolicyConfig, device: &Device) -> Result<Network> {
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, device);
        let d = cfg.dims.d_model;
        let mut convs = Vec::new();
        let mut c_in = 3;
        for (i, &c) in cfg.dims.conv.iter().enumerate() {
            let conv_cfg = Conv2dConfig {
                padding: 1,
                stride: 2,
                ..Default::default()
            };
            convs.push(candle_nn::conv2d(
                c_in,
                c,
                4,
                conv_cfg,
                vb.pp(format!("enc.conv{i}")),
            )?);
            c_in = c;
        }
        let [w, h] = cfg.resolution;
        let flat = c_in * (w as usize / 16) * (h as usize / 16);
        let proj = candle_nn::linear(flat, d, vb.pp("enc.proj"))?;
        let frame_ln = ln(d, vb.pp("enc.ln"))?;
        let action = candle_nn::linear(cfg.heads.action_features(), d, vb.pp("tok.action"))?;
        let memory = candle_nn::linear(memory_width(&cfg), d, vb.pp("tok.memory"))?;
        let goal = vb.get((cfg.vocab.len(), d), "goal.embedding")?;
        let mut blocks = Vec::new();
        for l in 0..cfg.dims.layers {
            let b = vb.pp(format!("blocks.{l}"));
            blocks.push(Block {
                ln1: ln(d, b.pp("ln1"))?,
                q: candle_nn::linear(d, d, b.pp("attn.q"))?,
                k: candle_nn::linear(d, d, b.pp("attn.k"))?,
                v: candle_nn::linear(d, d, b.pp("attn.v"))?,
                o: candle_nn::linear(d, d, b.pp("attn.o"))?,
                rel_bias: b.get((cfg.dims.heads, cfg.dims.window), "attn.rel_bias")?,
                ln2: ln(d, b.pp("ln2"))?,
                ffn1: candle_nn::linear(d, cfg.dims.ffn, b.pp("ffn1"))?,
                ffn2: candle_nn::linear(cfg.dims.ffn, d, b.pp("ffn2"))?,
            });
        }
        let head_ln = ln(d, vb.pp("head.ln"))?;
        let head = candle_nn::linear(d, cfg.heads.logits(), vb.pp("head.out"))?;
        Ok(Network {
            cfg,
            varmap,
            device: device.clone(),
            convs,
            proj,
            frame_ln,
            action,
            memory,
            goal,
            blocks,
            head_ln,
            head,
        })
    }

    /// Every variable by name, sorted (the order init, Adam and files use).
    pub fn named_vars(&self) -> Vec<(String, Var)> {
        let data = self.varmap.data().lock().expect("varmap lock");
        let mut v: Vec<(String, Var)> = data.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    pub fn parameters(&self) -> usize {
        self.named_vars().iter().map(|(_, v)| v.elem_count()).sum()
    }

    /// Deterministic initialisation: biases and layer-norm shifts 0,
    /// layer-norm scales 1, relative biases 0, embeddings uniform ±0.1,
    /// convolution kernels uniform ±√(6/fan_in) (He's bound for ReLU), other
    /// weights uniform ±1/√fan_in (PyTorch's default bound), all drawn in
    /// name order from the project PRNG.
    fn init(&self, seed: u64) -> Result<()> {
        let mut rng = gw_core::Rng::new(seed, 0x676f_6170_696e_6974); // "goapinit"
        for (name, var) in self.named_vars() {
            let shape = var.shape().clone();
            let n = shape.elem_count();
            let dims = shape.dims();
            let is_ln = name.contains(".ln") || name.starts_with("head.ln");
            let values: Vec<f32> = if name.ends_with("rel_bias") || name.ends_with(".bias") {
                vec![0.0; n]
            } else if is_ln && name.ends_with(".weight") {
                vec![1.0; n]
            } else {
                let bound = if name == "goal.embedding" {
                    0.1
                } else if name.starts_with("enc.conv") {
                    let fan_in: usize = dims[1..].iter().product();
                    (6.0 / fan_in.max(1) as f64).sqrt()
                } else {
                    let fan_in: usize = dims[1..].iter().product();
                    1.0 / (fan_in.max(1) as f64).sqrt()
                };
                (0..n)
                    .map(|_| rng.range_f64(-bound, bound) as f32)
                    .collect()
            };
            var.set(&Tensor::from_vec(values, shape, &self.device)?)?;
        }
        Ok(())
    }

    /// Frames `(n, h, w, 3)` as bytes → embeddings `(n, d_model)`.
    pub fn encode_frames(&self, rgb: &[u8], n: usize) -> Result<Tensor> {
        let x = self.conv_features(rgb, n)?;
        self.frame_ln.forward(&x)
    }

    /// [`Network::encode_frames`] through the fused layer norm (inference
    /// only: no backward pass).
    pub fn encode_frames_fused(&self, rgb: &[u8], n: usize) -> Result<Tensor> {
        let x = self.conv_features(rgb, n)?;
        self.frame_ln.forward_fused(&x)
    }

    /// The frame encoder up to its layer norm: `(n, d_model)`.
    fn conv_features(&self, rgb: &[u8], n: usize) -> Result<Tensor> {
        let [w, h] = self.cfg.resolution;
        let x: Vec<f32> = rgb.iter().map(|&b| b as f32 / 255.0 - 0.5).collect();
        let mut x = Tensor::from_vec(x, (n, h as usize, w as usize, 3), &self.device)?
            .permute((0, 3, 1, 2))?
            .contiguous()?;
        for c in &self.convs {
            x = c.forward(&x)?.relu()?;
        }
        self.proj.forward(&x.flatten_from(1)?)
    }

    /// Goal embeddings `(b, d_model)` from per-sample token lists.
    pub fn goal_embeddings(&self, goals: &[Vec<u32>]) -> Result<Tensor> {
        let v = self.cfg.vocab.len();
        let mut bag = vec![0f32; goals.len() * v];
        for (i, g) in goals.iter().enumerate() {
            for &t in g {
                bag[i * v + t as usize] += 1.0 / g.len() as f32;
            }
        }
        Tensor::from_vec(bag, (goals.len(), v), &self.device)?.matmul(&self.goal)
    }

    /// Tokens `(b, n, d)` from frame embeddings `(b, n, d)`, previous-action
    /// features `(b, n, A)`, memory features `(b, n, M)` and goals `(b, d)`.
    pub fn tokens(
        &self,
        frames: &Tensor,
        prev: &Tensor,
        memory: &Tensor,
        goal: &Tensor,
    ) -> Result<Tensor> {
        let a = self.action.forward(prev)?;
        let m = self.memory.forward(memory)?;
        (frames + a)?.add(&m)?.broadcast_add(&goal.unsqueeze(1)?)
    }

    /// The behaviour encoder over tokens `(b, n, d)`. `pad` marks padding
    /// keys per sample (`(b, n)`, 1 = padding) or is `None`. Returns the head
    /// logits of every position `(b, n, L)`.
    pub fn behaviour(&self, tokens: &Tensor, pad: Option<&Tensor>) -> Result<Tensor> {
        let (b, n, d) = tokens.dims3()?;
        let heads = self.cfg.dims.heads;
        let dh = d / heads;
        let window = self.cfg.dims.window;
        // Offsets t − j inside the band index the relative bias; the rest
        // point at an extra column of −1e9.
        let mut idx = Vec::with_capacity(n * n);
        let mut band = Vec::with_capacity(n * n);
        for t in 0..n {
            for j in 0..n {
                let inside = j <= t && t - j < window;
                idx.push(if inside {
                    (t - j) as u32
                } else {
                    window as u32
                });
                band.push(if inside { 0f32 } else { -1e9 });
            }
        }
        let idx = Tensor::from_vec(idx, n * n, &self.device)?;
        let mut mask = Tensor::from_vec(band, (1, 1, n, n), &self.device)?;
        if let Some(p) = pad {
            let p = (p.reshape((b, 1, 1, n))? * -1e9)?;
            mask = mask.broadcast_add(&p)?;
        }
        let scale = 1.0 / (dh as f64).sqrt();
        let mut x = tokens.clone();
        for blk in &self.blocks {
            let hx = blk.ln1.forward(&x)?;
            let split = |t: Tensor| -> Result<Tensor> {
                t.reshape((b, n, heads, dh))?.transpose(1, 2)?.contiguous()
            };
            let q = split(blk.q.forward(&hx)?)?;
            let k = split(blk.k.forward(&hx)?)?;
            let v = split(blk.v.forward(&hx)?)?;
            let zeros = Tensor::zeros((heads, 1), DType::F32, &self.device)?;
            let rel = Tensor::cat(&[&blk.rel_bias, &zeros], 1)?
                .index_select(&idx, 1)?
                .reshape((1, heads, n, n))?;
            let scores = (q.matmul(&k.t()?)? * scale)?
                .broadcast_add(&rel)?
                .broadcast_add(&mask)?;
            let att = candle_nn::ops::softmax(&scores, D::Minus1)?;
            let y = att
                .matmul(&v)?
                .transpose(1, 2)?
                .contiguous()?
                .reshape((b, n, d))?;
            x = (x + blk.o.forward(&y)?)?;
            let hx = blk.ln2.forward(&x)?;
            let f = blk.ffn2.forward(&blk.ffn1.forward(&hx)?.gelu_erf()?)?;
            x = (x + f)?;
        }
        self.head.forward(&self.head_ln.forward(&x)?)
    }
}

/// What one-step inference keeps between steps: per block, the keys and
/// values of the last `window` positions (heads × 1 × dh each, oldest
/// first). A block's output at a position depends only on the block's input
/// at that position and the `window − 1` before it, so these never change
/// once computed.
#[derive(Default)]
pub struct StepCache {
    kv: Vec<std::collections::VecDeque<(Tensor, Tensor)>>,
}

impl StepCache {
    pub fn clear(&mut self) {
        self.kv.clear();
    }
}

impl Network {
    /// The behaviour encoder for one new token `(1, d)` after the tokens
    /// `cache` has seen: the head logits of the new position, equal to what
    /// [`Network::behaviour`] computes for it over the whole sequence, at
    /// the cost of one position per block. Inference only: it runs candle's
    /// fused layer norm and softmax, which have no backward pass.
    pub fn behaviour_step(&self, token: &Tensor, cache: &mut StepCache) -> Result<Tensor> {
        let d = self.cfg.dims.d_model;
        let heads = self.cfg.dims.heads;
        let dh = d / heads;
        let window = self.cfg.dims.window;
        let scale = 1.0 / (dh as f64).sqrt();
        cache.kv.resize_with(self.blocks.len(), Default::default);
        let mut x = token.reshape((1, d))?;
        for (blk, kv) in self.blocks.iter().zip(cache.kv.iter_mut()) {
            let hx = blk.ln1.forward_fused(&x)?;
            let split = |t: Tensor| -> Result<Tensor> { t.reshape((heads, 1, dh)) };
            let q = split(blk.q.forward(&hx)?)?;
            kv.push_back((split(blk.k.forward(&hx)?)?, split(blk.v.forward(&hx)?)?));
            while kv.len() > window {
                kv.pop_front();
            }
            let m = kv.len();
            let k = Tensor::cat(&kv.iter().map(|(k, _)| k).collect::<Vec<_>>(), 1)?;
            let v = Tensor::cat(&kv.iter().map(|(_, v)| v).collect::<Vec<_>>(), 1)?;
            // Offsets of the cached positions from the new one: m−1 … 0.
            let idx: Vec<u32> = (0..m).rev().map(|o| o as u32).collect();
            let rel = blk
                .rel_bias
                .index_select(&Tensor::from_vec(idx, m, &self.device)?, 1)?
                .reshape((heads, 1, m))?;
            let scores = (q.matmul(&k.t()?)? * scale)?.add(&rel)?;
            let att = candle_nn::ops::softmax_last_dim(&scores)?;
            let y = att.matmul(&v)?.reshape((1, d))?;
            x = (x + blk.o.forward(&y)?)?;
            let hx = blk.ln2.forward_fused(&x)?;
            let f = blk.ffn2.forward(&blk.ffn1.forward(&hx)?.gelu_erf()?)?;
            x = (x + f)?;
        }
        self.head.forward(&self.head_ln.forward_fused(&x)?)
    }
}

/// Cross-entropy of `logits` `(n, c)` against class ids.
pub fn cross_entropy(logits: &Tensor, target: &Tensor) -> Result<Tensor> {
    candle_nn::loss::cross_entropy(logits, target)
}

/// Mean binary cross-entropy of button logits against 0/1 targets.
pub fn bce(logits: &Tensor, target: &Tensor) -> Result<Tensor> {
    // log(1 + e^x) − x·y, computed stably: max(x,0) − x·y + log(1 + e^−|x|).
    let relu = logits.relu()?;
    let abs = logits.abs()?;
    let soft = ((abs.neg()?.exp()? + 1.0)?).log()?;
    ((relu - logits.mul(target)?)? + soft)?.mean_all()
}

/// Per-head logits of one row as plain vectors.
pub fn row_logits(logits: &Tensor) -> Result<Vec<f32>> {
    logits.flatten_all()?.to_vec1::<f32>()
}
