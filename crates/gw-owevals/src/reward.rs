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
use std::collections::BTreeMap;

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

/// The plan reward. Exact: 1 when the plan matches the truth step for step
/// (Optimus-3's metric), else 0. Lenient: 0 unless the plan passes the
/// released scorer's rule (every predicted item is a true item with at
/// least its true count, and the last item is the target), then the share
/// of the truth's distinct items the plan states with at least their
/// counts — so a plan naming only its final step earns 1/n of an n-item
/// plan, not full credit.
pub fn plan(pred: &[SubGoal], truth: &[SubGoal], lenient: bool) -> f64 {
    if !lenient {
        return if gw_openworld::score::exact(pred, truth) {
            1.0
        } else {
            0.0
        };
    }
    if !gw_openworld::score::lenient(pred, truth) {
        return 0.0;
    }
    let counts = |steps: &[SubGoal]| {
        let mut m: BTreeMap<String, u32> = BTreeMap::new();
        for s in steps {
            let e = m.entry(canon(&s.item)).or_insert(0);
            *e = (*e).max(s.count);
        }
        m
    };
    let (want, have) = (counts(truth), counts(pred));
    if want.is_empty() {
        return 1.0;
    }
    let covered = want
        .iter()
        .filter(|(item, n)| have.get(*item).is_some_and(|h| h >= *n))
        .count();
    covered as f64 / want.len() as f64
}

/// An item's name as the knowledge graph spells it (a wood species names
/// its group).
fn canon(item: &str) -> String {
    gw_openworld::graph::world_graph()
        .canonical(item)
        .unwrap_or_else(|| item.trim().to_ascii_lowercase())
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
    fn lenient_plan_credit_needs_the_plans_items_and_counts() {
        use gw_openworld::plan::plan as make;
        let truth = make("wooden_pickaxe", 1, &BTreeMap::new()).unwrap();
        assert!(truth.len() >= 4, "{truth:?}");
        assert_eq!(plan(&truth, &truth, true), 1.0);
        assert_eq!(plan(&truth, &truth, false), 1.0);
        // Only the final step: the released rule passes it, the credit is
        // the one item of n.
        let last = vec![truth.last().unwrap().clone()];
        assert!(gw_openworld::score::lenient(&last, &truth));
        let got = plan(&last, &truth, true);
        assert!(got <= 0.5, "final step only earns {got}");
        assert!((got - 1.0 / truth.len() as f64).abs() < 1e-9, "{got}");
        assert_eq!(plan(&last, &truth, false), 0.0);
        // Every item but one: (n - 1) / n.
        let mut most = truth.clone();
        most.remove(1);
        let got = plan(&most, &truth, true);
        assert!((got - (truth.len() - 1) as f64 / truth.len() as f64).abs() < 1e-9);
        // Too few of an item fails the rule outright.
        let mut short = truth.clone();
        short[0].count = 0;
        assert_eq!(plan(&short, &truth, true), 0.0);
        // A two-item plan: the final step alone is half.
        let step = |kind, item: &str, count| SubGoal {
            kind,
            item: item.into(),
            count,
        };
        let two = vec![
            step(gw_openworld::GoalKind::Mine, "oak_log", 1),
            step(gw_openworld::GoalKind::Craft, "planks", 4),
        ];
        assert_eq!(plan(&two[1..], &two, true), 0.5);
    }

    #[test]
    fn exact_match_ignores_case_and_separators() {
        assert_eq!(exact_match("Iron Ore.", "iron_ore"), 1.0);
        assert_eq!(exact_match("the cow", "cow"), 1.0);
        assert_eq!(exact_match("pig", "cow"), 0.0);
    }
}
