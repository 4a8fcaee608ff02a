//! Reward functions for RL fine-tuning (Optimus-3 §3.3), usable one answer
//! at a time: exact match, the plan scorers, and the IoU-density reward.
//!
//! The IoU-density reward (Optimus-3 Eq. 3) is
//! `f(u) = 1` if `u ≥ α`, `η·u` if `β ≤ u < α`, `0` if `u < β`, with `u` the
//! IoU of the predicted and true boxes. The paper gives α, β ∈ (0, 1) and a
//! weight η but no values; [`IouDensity::default`] uses α = 0.5 (the
//! evaluation's own IoU@0.5 threshold), β = 0.1 and η = 1 — our choice,
//! stated as such.

use crate::text::norm;
use gw_openworld::SubGoal;

/// A box `[x1, y1, x2, y2]` in pixels (x2 > x1, y2 > y1 for a non-empty box).
pub type BBox = [f64; 4];

/// Intersection over union of two boxes; 0 when either is empty.
pub fn iou(a: BBox, b: BBox) -> f64 {
    let area = |r: BBox| (r[2] - r[0]).max(0.0) * (r[3] - r[1]).max(0.0);
    let (aa, ab) = (area(a), area(b));
    if aa <= 0.0 || ab <= 0.0 {
        return 0.0;
    }
    let inter = area([
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ]);
    inter / (aa + ab - inter)
}

/// The IoU-density reward's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IouDensity {
    pub alpha: f64,
    pub beta: f64,
    pub eta: f64,
}

impl Default for IouDensity {
    fn default() -> Self {
        IouDensity {
            alpha: 0.5,
            beta: 0.1,
            eta: 1.0,
        }
    }
}

impl IouDensity {
    /// Check the paper's constraints: 0 < β < α < 1 and η ≥ 0, all finite.
    pub fn checked(self) -> Result<IouDensity, String> {
        let IouDensity { alpha, beta, eta } = self;
        if !(alpha.is_finite() && beta.is_finite() && eta.is_finite()) {
            return Err("alpha, beta and eta must be finite numbers".into());
        }
        if !(0.0 < beta && beta < alpha && alpha < 1.0) {
            return Err(format!(
                "need 0 < beta < alpha < 1 (Optimus-3 Eq. 3), got alpha {alpha}, beta {beta}"
            ));
        }
        if eta < 0.0 {
            return Err(format!("eta must be at least 0, got {eta}"));
        }
        Ok(self)
    }

    /// The reward of an IoU `u`.
    pub fn reward(&self, u: f64) -> f64 {
        if u >= self.alpha {
            1.0
        } else if u >= self.beta {
            self.eta * u
        } else {
            0.0
        }
    }

    /// The reward of a predicted box against the truth.
    pub fn boxes(&self, pred: BBox, truth: BBox) -> f64 {
        self.reward(iou(pred, truth))
    }
}

/// 1 when the normalised texts are equal (case, `_`, punctuation and
/// articles ignored), else 0.
pub fn exact_match(pred: &str, truth: &str) -> f64 {
    if norm(pred) == norm(truth) { 1.0 } else { 0.0 }
}

/// The plan reward: 1 when the plan matches the truth — step for step
/// (Optimus-3's metric) or, `lenient`, by the released scorer's rule.
pub fn plan(pred: &[SubGoal], truth: &[SubGoal], lenient: bool) -> f64 {
    let ok = if lenient {
        gw_openworld::score::lenient(pred, truth)
    } else {
        gw_openworld::score::exact(pred, truth)
    };
    if ok { 1.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iou_of_known_boxes() {
        assert_eq!(iou([0.0, 0.0, 10.0, 10.0], [0.0, 0.0, 10.0, 10.0]), 1.0);
        assert_eq!(iou([0.0, 0.0, 10.0, 10.0], [10.0, 0.0, 20.0, 10.0]), 0.0);
        // Half overlap: 50 / 150.
        let u = iou([0.0, 0.0, 10.0, 10.0], [5.0, 0.0, 15.0, 10.0]);
        assert!((u - 1.0 / 3.0).abs() < 1e-12, "{u}");
        assert_eq!(iou([5.0, 5.0, 5.0, 9.0], [0.0, 0.0, 10.0, 10.0]), 0.0);
    }

    #[test]
    fn iou_density_follows_equation_3() {
        let f = IouDensity::default();
        assert_eq!(f.reward(0.9), 1.0);
        assert_eq!(f.reward(0.5), 1.0);
        assert_eq!(f.reward(0.3), 0.3);
        assert_eq!(f.reward(0.1), 0.1);
        assert_eq!(f.reward(0.05), 0.0);
        let g = IouDensity {
            alpha: 0.7,
            beta: 0.2,
            eta: 0.5,
        };
        assert_eq!(g.reward(0.6), 0.3);
        assert_eq!(g.boxes([0.0, 0.0, 10.0, 10.0], [0.0, 0.0, 10.0, 10.0]), 1.0);
        let bad = IouDensity {
            alpha: 0.2,
            beta: 0.5,
            eta: 1.0,
        };
        assert!(bad.checked().unwrap_err().contains("0 < beta < alpha < 1"));
    }

    #[test]
    fn exact_match_ignores_case_and_separators() {
        assert_eq!(exact_match("Iron Ore.", "iron_ore"), 1.0);
        assert_eq!(exact_match("the cow", "cow"), 1.0);
        assert_eq!(exact_match("pig", "cow"), 0.0);
    }
}
