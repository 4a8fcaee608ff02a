//! Chance floors: what the built-in `random` and `noop` agents reach on each
//! task, from their completed paused runs (the `baselines` suite runs them
//! over ten seeds per task). A task's floor is the higher of the two agents'
//! mean progress; a task where either agent succeeds in at least half its
//! runs is flagged, because a success there says little. A model's
//! chance-adjusted progress rescales each run's progress above its task's
//! floor: `(PG − floor) / (1 − floor)`, clamped at 0.

use crate::run::RunResult;
use serde::Serialize;
use std::collections::BTreeMap;

/// The agents whose runs define the floors.
pub const BASELINE_AGENTS: [&str; 2] = ["random", "noop"];

/// SR at or above this (in %) flags a task as solvable by chance.
pub const FLAG_SR: f64 = 50.0;

/// One agent's results on one task.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BaselineCell {
    pub runs: usize,
    pub sr: f64,
    pub pg: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChanceFloor {
    pub game_id: String,
    pub task_id: String,
    /// Baseline agent → its SR/PG (percent) on this task.
    pub agents: BTreeMap<String, BaselineCell>,
    /// The higher baseline SR, in %.
    pub chance_sr: f64,
    /// The higher baseline PG, in % (the floor of the adjusted progress).
    pub floor_pg: f64,
    /// `chance_sr` ≥ 50%: success on this task is within reach of chance.
    pub flagged: bool,
}

/// Floors per `(game_id, task_id)` from the completed paused runs of the
/// baseline agents among `runs`.
pub fn floors(runs: &[&RunResult]) -> Vec<ChanceFloor> {
    let mut per: BTreeMap<(String, String), BTreeMap<String, Vec<&RunResult>>> = BTreeMap::new();
    for r in runs {
        if r.realtime || !BASELINE_AGENTS.contains(&r.model.as_str()) {
            continue;
        }
        per.entry((r.game_id.clone(), r.task_id.clone()))
            .or_default()
            .entry(r.model.clone())
            .or_default()
            .push(r);
    }
    per.into_iter()
        .map(|((game_id, task_id), by_agent)| {
            let agents: BTreeMap<String, BaselineCell> = by_agent
                .into_iter()
                .map(|(agent, rs)| {
                    let n = rs.len() as f64;
                    let sr = 100.0 * rs.iter().filter(|r| r.success).count() as f64 / n;
                    let pg = 100.0 * rs.iter().map(|r| r.progress).sum::<f64>() / n;
                    (
                        agent,
                        BaselineCell {
                            runs: rs.len(),
                            sr,
                            pg,
                        },
                    )
                })
                .collect();
            let chance_sr = agents.values().map(|c| c.sr).fold(0.0, f64::max);
            let floor_pg = agents.values().map(|c| c.pg).fold(0.0, f64::max);
            ChanceFloor {
                game_id,
                task_id,
                agents,
                chance_sr,
                floor_pg,
                flagged: chance_sr >= FLAG_SR,
            }
        })
        .collect()
}

/// Progress (0–1) rescaled above a floor (0–1): `(p − f) / (1 − f)`,
/// clamped at 0; a task that chance already completes (`f` = 1) gives 0.
pub fn adjust(progress: f64, floor: f64) -> f64 {
    if floor >= 1.0 {
        return 0.0;
    }
    ((progress - floor) / (1.0 - floor)).clamp(0.0, 1.0)
}

/// Mean chance-adjusted progress (in %) of `runs` over the tasks that have a
/// floor; `None` when none has.
pub fn adjusted_pg(runs: &[&RunResult], floors: &[ChanceFloor]) -> Option<f64> {
    let by_task: BTreeMap<(&str, &str), f64> = floors
        .iter()
        .map(|f| ((f.game_id.as_str(), f.task_id.as_str()), f.floor_pg / 100.0))
        .collect();
    let adj: Vec<f64> = runs
        .iter()
        .filter_map(|r| {
            by_task
                .get(&(r.game_id.as_str(), r.task_id.as_str()))
                .map(|&f| adjust(r.progress, f))
        })
        .collect();
    (!adj.is_empty()).then(|| 100.0 * adj.iter().sum::<f64>() / adj.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjust_rescales_above_the_floor() {
        assert_eq!(adjust(0.5, 0.0), 0.5);
        assert_eq!(adjust(0.75, 0.5), 0.5);
        assert_eq!(adjust(0.25, 0.5), 0.0, "below the floor clamps at 0");
        assert_eq!(adjust(1.0, 1.0), 0.0);
        assert_eq!(adjust(1.0, 0.2), 1.0);
    }
}
