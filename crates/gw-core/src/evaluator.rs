//! The task evaluator: reads only gameAPI state, never pixels.
//!
//! score q = the task's `score_field` (or the sum of `aggregate_score_fields`);
//! progress = clamp((max_t q − start)/(target − start), 0, 1);
//! success = max_t q ≥ target. Stop reasons are checked in the SPEC's order.

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
}

impl Evaluator {
    pub fn new(spec: EvalSpec) -> Self {
        Evaluator {
            spec,
            best_score: None,
        }
    }

    pub fn spec(&self) -> &EvalSpec {
        &self.spec
    }

    /// The task score in a state: the score field, or the sum of the aggregate
    /// fields. Missing or non-numeric fields count as 0.
    pub fn score_of(&self, state: &Value) -> f64 {
        self.spec
            .score_fields
            .iter()
            .map(|f| lookup(state, f).and_then(as_number).unwrap_or(0.0))
            .sum()
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
}
