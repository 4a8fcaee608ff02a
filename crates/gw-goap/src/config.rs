//! The checkpoint's `config.json`: the network's sizes, the input
//! resolution, the goal vocabulary, the action heads with their class lists,
//! and how the weights were trained. Everything a reader (this crate or a
//! PyTorch script) needs to rebuild the network and decode its outputs.

use serde::{Deserialize, Serialize};

/// The `format` value of every config this crate writes.
pub const FORMAT: &str = "gameworld-goap/1";
/// The factored action's on/off buttons, in head order (Optimus-2 Table 6;
/// the same names as `gw_openworld::game::BUTTONS`).
pub const BUTTONS: &[&str] = gw_openworld::game::BUTTONS;
/// Hotbar classes: 0 = no change, 1..=9 = select that slot.
pub const HOTBAR_CLASSES: usize = 10;
/// Camera bins per axis (VPT's μ-law bins; 5 = no movement).
pub const CAMERA_BINS: usize = gw_world::action::camera::BINS as usize;
/// The class meaning "no craft" / "no smelt".
pub const NONE_CLASS: &str = "none";
/// The token goal words outside the vocabulary map to.
pub const UNK: &str = "<unk>";
/// The token every number in a goal maps to (counts vary between datasets
/// and tasks; the item is what the policy should read).
pub const NUM: &str = "<num>";

/// Sizes of the network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dims {
    /// Width of every token (frame, action, memory and goal embeddings).
    pub d_model: usize,
    pub heads: usize,
    pub layers: usize,
    /// Hidden width of each block's feed-forward layer.
    pub ffn: usize,
    /// The behaviour encoder's window: each token attends to itself and the
    /// `window - 1` tokens before it.
    pub window: usize,
    /// Output channels of the frame encoder's four stride-2 convolutions.
    pub conv: Vec<usize>,
    /// Decay rates of the memory's running averages of earlier actions.
    pub memory_decays: Vec<f32>,
    /// Steps at which the memory's elapsed-time feature reaches 1.
    pub memory_horizon: u32,
    /// Whether tokens and memory read earlier actions. Off, the policy sees
    /// only frames, goal and elapsed time (behaviour cloning then cannot
    /// learn to copy its previous action).
    #[serde(default = "yes")]
    pub action_inputs: bool,
}

fn yes() -> bool {
    true
}

impl Default for Dims {
    fn default() -> Self {
        Dims {
            d_model: 128,
            heads: 4,
            layers: 2,
            ffn: 256,
            window: 8,
            conv: vec![16, 32, 64, 64],
            memory_decays: vec![0.9, 0.99],
            memory_horizon: 2400,
            action_inputs: true,
        }
    }
}

impl Dims {
    /// Tokens the top layer's last token depends on: `layers × (window − 1) + 1`.
    pub fn context(&self) -> usize {
        self.layers * (self.window - 1) + 1
    }
}

/// The action heads and their classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Heads {
    /// One sigmoid output each.
    pub buttons: Vec<String>,
    pub hotbar: usize,
    /// Classes of the pitch and of the yaw head (VPT μ-law bins).
    pub camera_bins: usize,
    /// Class 0 is `none`; the others are item ids.
    pub craft: Vec<String>,
    pub smelt: Vec<String>,
}

impl Heads {
    /// Width of one step's previous-action feature vector.
    pub fn action_features(&self) -> usize {
        self.buttons.len() + self.hotbar + 2 * self.camera_bins + 1
    }

    /// Width of the joint logit vector: buttons, hotbar, pitch, yaw, craft, smelt.
    pub fn logits(&self) -> usize {
        self.buttons.len()
            + self.hotbar
            + 2 * self.camera_bins
            + self.craft.len()
            + self.smelt.len()
    }
}

/// How the weights were made.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainInfo {
    pub data: String,
    pub seed: u64,
    pub threads: usize,
    pub steps: u64,
    pub batch_chunks: usize,
    pub chunk: usize,
    pub learning_rate: f64,
    pub train_episodes: usize,
    pub val_episodes: usize,
    pub train_samples: usize,
    pub val_samples: usize,
    pub samples_seen: u64,
    pub train_loss: f64,
    pub val_loss: f64,
    /// Wall-clock seconds spent training, summed over resumed runs.
    pub seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyConfig {
    pub format: String,
    pub architecture: String,
    /// Frame width and height the network reads (RGB).
    pub resolution: [u32; 2],
    pub dims: Dims,
    /// Goal words: index = embedding row. Holds `<unk>` and `<num>`.
    pub vocab: Vec<String>,
    pub heads: Heads,
    pub parameters: usize,
    pub training: TrainInfo,
}

impl PolicyConfig {
    pub fn new(resolution: [u32; 2], dims: Dims, vocab: Vec<String>, heads: Heads) -> Self {
        PolicyConfig {
            format: FORMAT.into(),
            architecture: "goap: conv frame encoder, causal behaviour encoder over (frame, previous action) tokens, action-history memory, bag-of-words goal, factored action heads".into(),
            resolution,
            dims,
            vocab,
            heads,
            parameters: 0,
            training: TrainInfo::default(),
        }
    }

    /// Checks a config read from a file; `Err` says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!(
                "format is \"{}\", expected \"{FORMAT}\"",
                self.format
            ));
        }
        let d = &self.dims;
        if self.resolution[0] < 16 || self.resolution[1] < 16 {
            return Err("resolution must be at least 16x16".into());
        }
        if d.d_model == 0 || d.heads == 0 || !d.d_model.is_multiple_of(d.heads) {
            return Err(format!(
                "d_model ({}) must be a positive multiple of heads ({})",
                d.d_model, d.heads
            ));
        }
        if d.window == 0 || d.layers == 0 || d.ffn == 0 || d.conv.len() != 4 {
            return Err("dims need window, layers and ffn ≥ 1 and four conv widths".into());
        }
        if !self.resolution[0].is_multiple_of(16) || !self.resolution[1].is_multiple_of(16) {
            return Err("resolution must be a multiple of 16 on both sides".into());
        }
        if self.heads.buttons != BUTTONS {
            return Err(format!("heads.buttons must be {}", BUTTONS.join(", ")));
        }
        if self.heads.hotbar != HOTBAR_CLASSES || self.heads.camera_bins != CAMERA_BINS {
            return Err(format!(
                "heads.hotbar must be {HOTBAR_CLASSES} and heads.camera_bins {CAMERA_BINS}"
            ));
        }
        for (name, list) in [("craft", &self.heads.craft), ("smelt", &self.heads.smelt)] {
            if list.first().map(String::as_str) != Some(NONE_CLASS) {
                return Err(format!("heads.{name} must start with \"{NONE_CLASS}\""));
            }
        }
        for w in [UNK, NUM] {
            if !self.vocab.iter().any(|v| v == w) {
                return Err(format!("vocab lacks \"{w}\""));
            }
        }
        Ok(())
    }
}

/// The goal's words as vocabulary rows: lower-cased runs of letters, `_`
/// and `'`; every number becomes `<num>`, unknown words `<unk>`.
pub fn words(goal: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut digits = false;
    let flush = |cur: &mut String, digits: &mut bool, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(if *digits {
                NUM.to_string()
            } else {
                std::mem::take(cur)
            });
            cur.clear();
        }
        *digits = false;
    };
    for ch in goal.chars() {
        if ch.is_ascii_digit() {
            if !cur.is_empty() && !digits {
                flush(&mut cur, &mut digits, &mut out);
            }
            digits = true;
            cur.push(ch);
        } else if ch.is_alphabetic() || ch == '_' || ch == '\'' {
            if digits {
                flush(&mut cur, &mut digits, &mut out);
            }
            cur.extend(ch.to_lowercase());
        } else {
            flush(&mut cur, &mut digits, &mut out);
        }
    }
    flush(&mut cur, &mut digits, &mut out);
    out
}

/// Vocabulary rows of `goal` (unknown words → `<unk>`); never empty.
pub fn tokens(vocab: &[String], goal: &str) -> Vec<u32> {
    let unk = vocab.iter().position(|v| v == UNK).unwrap_or(0) as u32;
    let mut t: Vec<u32> = words(goal)
        .iter()
        .map(|w| vocab.iter().position(|v| v == w).map_or(unk, |i| i as u32))
        .collect();
    if t.is_empty() {
        t.push(unk);
    }
    t
}

/// The vocabulary of a set of goals: `<unk>`, `<num>`, then their words sorted.
pub fn vocabulary<'a>(goals: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut set = std::collections::BTreeSet::new();
    for g in goals {
        for w in words(g) {
            if w != NUM {
                set.insert(w);
            }
        }
    }
    let mut v = vec![UNK.to_string(), NUM.to_string()];
    v.extend(set);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_words_map_numbers_and_unknowns() {
        assert_eq!(
            words("Chop a tree to get 5 logs."),
            ["chop", "a", "tree", "to", "get", "<num>", "logs"]
        );
        assert_eq!(
            words("Mine 64 blocks of dirt"),
            ["mine", "<num>", "blocks", "of", "dirt"]
        );
        let v = vocabulary(["Dig up 16 blocks of dirt.", "Collect 5 logs"].into_iter());
        assert_eq!(v[..2], [UNK.to_string(), NUM.to_string()]);
        let t = tokens(&v, "Dig up 64 llamas");
        let at = |w: &str| v.iter().position(|x| x == w).unwrap() as u32;
        assert_eq!(t, [at("dig"), at("up"), at(NUM), at(UNK)]);
        assert_eq!(tokens(&v, "  "), [at(UNK)]);
    }
}
