//! Verifiable open-world evaluation sets (Optimus-3 §4.1), built from the
//! voxel world's own state instead of a labelling model or a judge.
//!
//! # API
//! - [`Kind`]: `caption`, `eqa`, `grounding`, `planning`, `reflection`.
//! - [`set::build`] / [`set::write`]: `n` items of a kind, deterministic per
//!   seed; a set directory holds `items.jsonl`, `answers.jsonl` and
//!   `frames/<id>.png` (SPEC "Open world").
//! - [`set::score_files`] / [`score::score`]: predictions (the shape of
//!   `answers.jsonl`) against the truth; `score` in [0, 1], 1 for the set's
//!   own answers.
//! - [`reward`]: exact match, the plan reward, IoU and the IoU-density
//!   reward (Optimus-3 Eq. 3) for RL fine-tuning.
//! - [`router::Router`]: task-level routing, a YAML map from query kind to
//!   model profile; [`eval::evaluate`] asks each item's model through the
//!   agent harness's [`gw_agents::model_agent::Link`] and scores the replies.
//! - [`scene`]: the worlds items are asked about and what a frame shows
//!   (from the renderer's pick buffer, so occlusion counts).
//!
//! Each kind lives in its own module with the same three parts: `generate`
//! (one item from a random stream, or `None` to try another world),
//! `parse` (a model's reply → an answer value, leniently) and `score_item`.

pub mod caption;
pub mod eqa;
pub mod eval;
pub mod grounding;
pub mod planning;
pub mod reflection;
pub mod reward;
pub mod router;
pub mod scene;
pub mod score;
pub mod set;
pub mod text;

use serde_json::{Map, Value};

/// The query kinds (Optimus-3's evaluation sets; caption and eqa share its
/// perception expert).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Caption,
    Eqa,
    Grounding,
    Planning,
    Reflection,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Caption,
        Kind::Eqa,
        Kind::Grounding,
        Kind::Planning,
        Kind::Reflection,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Caption => "caption",
            Kind::Eqa => "eqa",
            Kind::Grounding => "grounding",
            Kind::Planning => "planning",
            Kind::Reflection => "reflection",
        }
    }

    pub fn parse(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "unknown eval kind \"{s}\"; use one of caption, eqa, grounding, planning, reflection"
                )
            })
    }

    fn stream(self) -> u64 {
        self as u64 + 1
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One generated item before it gets its id and frame path.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// The question put to the model.
    pub query: String,
    /// How the answer should be written (added to the prompt).
    pub format: String,
    /// Extra item fields (goal, last actions, inventory…).
    pub context: Map<String, Value>,
    /// The truth.
    pub answer: Value,
    /// Extra answer-row fields the scorer reads (accepted alternatives…).
    pub answer_extra: Map<String, Value>,
    /// The frame the question is about.
    pub png: Vec<u8>,
}
