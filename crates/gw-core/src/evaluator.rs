//! The task evaluator: reads only gameAPI state, never pixels.
//!
//! score q = the task's `score_field` (or the sum of `aggregate_score_fields`);
//! progress = clamp((max_t q − start)/(target − start), 0, 1);
//! success = max_t q ≥ target. Stop reasons are checked in the SPEC's order.
//!
//! A task with `field_targets` (one target per aggregate field, summing to
//! `target`) counts each field only up to its own target, so q reaches
//! `target` only in a state where every field has reached its own (e.g.
//! Fireboy's red *and* Watergirl's blue diamonds). The plain sum, as the
//! original evaluator scores it, is kept beside it as the reference outcome.

use crate::state::{Outcome, as_number, is_truthy, lookup};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    TargetReached,
    MaxStepsExhausted,
    EndField,
    GameTerminal,
    /// The agent or provider failed mid-run; partial results were kept.
    AgentError,
    /// The agent went away mid-run (an MCP client disconnected or stayed
    /// silent too long); the steps played so far are kept.
    AgentLeft,
    /// A person playing from the web page pressed Quit.
    PlayerQuit,
    /// A person's play was abandoned: no input within the idle limit.
    PlayerLeft,
}

impl StopReason {
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::TargetReached => "target_reached",
            StopReason::MaxStepsExhausted => "max_steps_exhausted",
            StopReason::EndField => "end_field",
            StopReason::GameTerminal => "game_terminal",
            StopReason::AgentError => "agent_error",
            StopReason::AgentLeft => "agent_left",
            StopReason::PlayerQuit => "player_quit",
            StopReason::PlayerLeft => "player_left",
        }
    }
}

/// What the runtime does after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Continue,
    /// Terminal failure with `continue_on_fail`: reset into a new episode.
    Reset,
    Stop(StopReason),
}

/// The evaluator's view of a task.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalSpec {
    pub score_fields: Vec<String>,
    pub start: f64,
    pub target: f64,
    pub end_field: Option<String>,
    pub max_steps: u32,
    pub continue_on_fail: bool,
    /// Per-field targets (field path, target), empty for most tasks. When
    /// set, each field counts at most its target towards the score.
    pub field_targets: Vec<(String, f64)>,
}

/// The outcome the original evaluator gives a task with per-field targets:
/// the plain sum of the fields against the task's start and target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceOutcome {
    pub best_score: f64,
    pub progress: f64,
    pub success: bool,
}

/// One step's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct StepEval {
    pub score: f64,
    pub progress: f64,
    pub best_progress: f64,
    pub decision: Decision,
}

/// Tracks the run-best score across episodes.
#[derive(Clone, Debug)]
pub struct Evaluator {
    spec: EvalSpec,
    best_score: Option<f64>,
    /// Run-best plain sum (tasks with per-field targets only).
    best_reference: Option<f64>,
}

impl Evaluator {
    pub fn new(spec: EvalSpec) -> Self {
        Evaluator {
            spec,
            best_score: None,
            best_reference: None,
        }
    }

    pub fn spec(&self) -> &EvalSpec {
        &self.spec
    }

    /// The task score in a state: the score field, or the sum of the aggregate
    /// fields, each capped at its own target when the task sets
    /// `field_targets`. Missing or non-numeric fields count as 0.
    pub fn score_of(&self, state: &Value) -> f64 {
        self.spec
            .score_fields
            .iter()
            .map(|f| {
                let v = lookup(state, f).and_then(as_number).unwrap_or(0.0);
                match self.spec.field_targets.iter().find(|(k, _)| k == f) {
                    Some(&(_, t)) => v.min(t),
                    None => v,
                }
            })
            .sum()
    }

    /// The plain sum of the score fields (the original evaluator's score).
    pub fn reference_score_of(&self, state: &Value) -> f64 {
        self.spec
            .score_fields
            .iter()
            .map(|f| lookup(state, f).and_then(as_number).unwrap_or(0.0))
            .sum()
    }

    /// The run's outcome under the plain sum, for tasks with per-field
    /// targets (`None` for every other task: there the two agree).
    pub fn reference(&self) -> Option<ReferenceOutcome> {
        if self.spec.field_targets.is_empty() {
            return None;
        }
        let best = self.best_reference.unwrap_or(self.spec.start);
        Some(ReferenceOutcome {
            best_score: best,
            progress: self.best_reference.map_or(0.0, |b| self.progress_of(b)),
            success: self.best_reference.is_some_and(|b| b >= self.spec.target),
        })
    }

    pub fn progress_of(&self, score: f64) -> f64 {
        let span = self.spec.target - self.spec.start;
        if span == 0.0 {
            return if score >= self.spec.target { 1.0 } else { 0.0 };
        }
        ((score - self.spec.start) / span).clamp(0.0, 1.0)
    }

    /// Run-best score so far (the start value before any step).
    pub fn best_score(&self) -> f64 {
        self.best_score.unwrap_or(self.spec.start)
    }

    pub fn best_progress(&self) -> f64 {
        self.best_score.map(|b| self.progress_of(b)).unwrap_or(0.0)
    }

    pub fn success(&self) -> bool {
        self.best_score.is_some_and(|b| b >= self.spec.target)
    }

    /// Record the initial state (before the first action) so a task already
    /// met at the start counts; does not decide anything.
    pub fn observe(&mut self, state: &Value) {
        let q = self.score_of(state);
        self.best_score = Some(self.best_score.map_or(q, |b| b.max(q)));
        if !self.spec.field_targets.is_empty() {
            let r = self.reference_score_of(state);
            self.best_reference = Some(self.best_reference.map_or(r, |b| b.max(r)));
        }
    }

    /// Evaluate the state after global step `step` (1-based).
    pub fn evaluate_step(&mut self, state: &Value, step: u32) -> StepEval {
        let score = self.score_of(state);
        self.observe(state);
        let terminal = lookup(state, "terminal.isTerminal").is_some_and(is_truthy);
        let failed = terminal
            && lookup(state, "terminal.outcome").and_then(Value::as_str)
                == Some(outcome_str(Outcome::Fail));
        let reached = self.success();
        let exhausted = step >= self.spec.max_steps;
        let decision = if failed && self.spec.continue_on_fail {
            if reached {
                Decision::Stop(StopReason::TargetReached)
            } else if exhausted {
                Decision::Stop(StopReason::MaxStepsExhausted)
            } else {
                Decision::Reset
            }
        } else if reached {
            Decision::Stop(StopReason::TargetReached)
        } else if exhausted {
            Decision::Stop(StopReason::MaxStepsExhausted)
        } else if self
            .spec
            .end_field
            .as_deref()
            .and_then(|f| lookup(state, f))
            .is_some_and(is_truthy)
        {
            Decision::Stop(StopReason::EndField)
        } else if terminal {
            Decision::Stop(StopReason::GameTerminal)
        } else {
            Decision::Continue
        };
        StepEval {
            score,
            progress: self.progress_of(score),
            best_progress: self.best_progress(),
            decision,
        }
    }
}

fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::Success => "success",
        Outcome::Fail => "fail",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(cof: bool) -> EvalSpec {
        EvalSpec {
            score_fields: vec!["game_state.score".into()],
            start: 0.0,
            target: 10.0,
            end_field: Some("terminal.isTerminal".into()),
            max_steps: 5,
            continue_on_fail: cof,
            field_targets: vec![],
        }
    }

    fn st(score: f64, terminal: bool, outcome: Option<&str>) -> Value {
        json!({"game_state": {"score": score}, "terminal": {"isTerminal": terminal, "outcome": outcome}})
    }

    #[test]
    fn progress_and_best_are_kept_across_resets() {
        let mut e = Evaluator::new(spec(true));
        let r = e.evaluate_step(&st(4.0, false, None), 1);
        assert_eq!((r.progress, r.decision), (0.4, Decision::Continue));
        let r = e.evaluate_step(&st(6.0, true, Some("fail")), 2);
        assert_eq!(r.decision, Decision::Reset);
        let r = e.evaluate_step(&st(1.0, false, None), 3);
        assert_eq!((r.progress, r.best_progress), (0.1, 0.6));
        assert!(!e.success());
        let r = e.evaluate_step(&st(12.0, false, None), 4);
        assert_eq!(r.decision, Decision::Stop(StopReason::TargetReached));
        assert_eq!(r.progress, 1.0);
        assert!(e.success());
    }

    #[test]
    fn stop_reason_order() {
        let mut e = Evaluator::new(spec(false));
        assert_eq!(
            e.evaluate_step(&st(1.0, true, Some("fail")), 1).decision,
            Decision::Stop(StopReason::EndField)
        );
        let mut e = Evaluator::new(EvalSpec {
            end_field: None,
            ..spec(false)
        });
        assert_eq!(
            e.evaluate_step(&st(1.0, true, Some("fail")), 1).decision,
            Decision::Stop(StopReason::GameTerminal)
        );
        let mut e = Evaluator::new(spec(true));
        assert_eq!(
            e.evaluate_step(&st(1.0, true, Some("fail")), 5).decision,
            Decision::Stop(StopReason::MaxStepsExhausted)
        );
        let mut e = Evaluator::new(spec(true));
        assert_eq!(
            e.evaluate_step(&st(10.0, true, Some("fail")), 2).decision,
            Decision::Stop(StopReason::TargetReached)
        );
        let mut e = Evaluator::new(spec(true));
        assert_eq!(
            e.evaluate_step(&st(3.0, false, None), 5).decision,
            Decision::Stop(StopReason::MaxStepsExhausted)
        );
    }

    #[test]
    fn aggregate_fields_sum() {
        let e = Evaluator::new(EvalSpec {
            score_fields: vec!["metrics.a".into(), "metrics.b".into()],
            ..spec(true)
        });
        assert_eq!(e.score_of(&json!({"metrics": {"a": 2, "b": 3.5}})), 5.5);
        assert_eq!(e.score_of(&json!({"metrics": {"a": 2}})), 2.0);
    }

    #[test]
    fn field_targets_need_every_field_in_one_state() {
        let mut e = Evaluator::new(EvalSpec {
            score_fields: vec!["d.red".into(), "d.blue".into()],
            target: 7.0,
            field_targets: vec![("d.red".into(), 3.0), ("d.blue".into(), 4.0)],
            ..spec(true)
        });
        let s = |r: u32, b: u32| json!({"d": {"red": r, "blue": b}});
        assert!(
            e.reference()
                .is_some_and(|r| r.best_score == 0.0 && !r.success)
        );
        // 4 red and 3 blue sum to 7 but miss Watergirl's 4.
        let r = e.evaluate_step(&s(4, 3), 1);
        assert_eq!((r.score, r.decision), (6.0, Decision::Continue));
        assert!(!e.success());
        let reference = e.reference().unwrap();
        assert_eq!(
            (reference.best_score, reference.progress, reference.success),
            (7.0, 1.0, true)
        );
        // Extra red never makes up for missing blue.
        assert_eq!(e.evaluate_step(&s(6, 0), 2).score, 3.0);
        let r = e.evaluate_step(&s(3, 4), 3);
        assert_eq!((r.score, r.progress), (7.0, 1.0));
        assert_eq!(r.decision, Decision::Stop(StopReason::TargetReached));
        assert!(e.success());
        // Tasks without per-field targets have no separate reference outcome.
        assert!(Evaluator::new(spec(true)).reference().is_none());
    }
}
