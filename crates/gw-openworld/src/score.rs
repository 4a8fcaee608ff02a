//! Planning scorers. Items compare through the graph's canonical names, so a
//! wood species matches its group (`oak_planks` = `planks`).
//!
//! - [`exact`]: Optimus-3's metric — correct only when the predicted steps
//!   match the truth step for step (kind, item, count, order).
//! - [`lenient`]: the released scorer's looser rule — every predicted item
//!   is one of the true items, each predicted count is at least the true
//!   count for that item, and the last predicted item is the true last item
//!   (the target).

use crate::goal::SubGoal;
use crate::graph::world_graph;
use serde::Serialize;
use std::collections::BTreeMap;

fn canon(item: &str) -> String {
    world_graph()
        .canonical(item)
        .unwrap_or_else(|| item.trim().to_ascii_lowercase())
}

/// Step-for-step equality.
pub fn exact(pred: &[SubGoal], truth: &[SubGoal]) -> bool {
    pred.len() == truth.len()
        && pred.iter().zip(truth).all(|(p, t)| {
            p.kind == t.kind && p.count == t.count && canon(&p.item) == canon(&t.item)
        })
}

/// Subset of items, counts at least the truth's, same final item.
pub fn lenient(pred: &[SubGoal], truth: &[SubGoal]) -> bool {
    let (Some(pl), Some(tl)) = (pred.last(), truth.last()) else {
        return pred.is_empty() && truth.is_empty();
    };
    if canon(&pl.item) != canon(&tl.item) {
        return false;
    }
    let mut want: BTreeMap<String, u32> = BTreeMap::new();
    for t in truth {
        let e = want.entry(canon(&t.item)).or_insert(0);
        *e = (*e).max(t.count);
    }
    pred.iter()
        .all(|p| want.get(&canon(&p.item)).is_some_and(|&c| p.count >= c))
}

/// Both metrics over a set of (prediction, truth) pairs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlanScore {
    pub n: usize,
    pub exact: f64,
    pub lenient: f64,
}

pub fn score_set<'a>(pairs: impl IntoIterator<Item = (&'a [SubGoal], &'a [SubGoal])>) -> PlanScore {
    let (mut n, mut e, mut l) = (0usize, 0usize, 0usize);
    for (p, t) in pairs {
        n += 1;
        e += exact(p, t) as usize;
        l += lenient(p, t) as usize;
    }
    let frac = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    PlanScore {
        n,
        exact: frac(e),
        lenient: frac(l),
    }
}
