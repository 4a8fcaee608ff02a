//! `gameworld verify`: re-play a recorded run and check that its files say
//! what the game says.
//!
//! A run directory claims a trajectory (one line per step: score, progress,
//! a fingerprint of the game state) and totals (`result.json`). Games are
//! deterministic, so the preset, the seed and the recorded actions decide
//! every one of those numbers. Verification plays the actions again and
//! compares, step by step:
//!
//! - A model-backed run (every role a model profile, its call files present)
//!   runs its own agent again with the replies answered from
//!   `model_calls.jsonl` (as `gameworld run --replay` does), so the replies
//!   must also parse into the recorded actions.
//! - Any other run (built-in agents, a person's play, an MCP client) feeds
//!   the recorded proposals (`proposed`) straight into the stepper, with the
//!   recorded real-time idles before each step.
//!
//! The first step whose episode, validity, score, progress, best progress or
//! state fingerprint differs is named; then the totals of `result.json`.

use crate::run::{RunOptions, RunResult, run_preset_observed};
use gw_core::registry::{Interface, Registry};
use gw_core::{Decision, Stepper};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub use crate::run::state_fingerprint;

/// What verification found for one run.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every step and every total matched.
    Verified { steps: u32 },
    /// The first difference: `step` is `None` for a `result.json` total or
    /// a problem with the files themselves.
    Differs { step: Option<u32>, what: String },
}

impl Verdict {
    pub fn is_verified(&self) -> bool {
        matches!(self, Verdict::Verified { .. })
    }

    /// One line for the terminal: `verified DIR (N steps)` or
    /// `DIFFERS DIR: step N: …`.
    pub fn line(&self, dir: &Path) -> String {
        match self {
            Verdict::Verified { steps } => {
                format!("verified {} ({steps} steps)", dir.display())
            }
            Verdict::Differs {
                step: Some(step),
                what,
            } => format!("DIFFERS {}: step {step}: {what}", dir.display()),
            Verdict::Differs { step: None, what } => {
                format!("DIFFERS {}: {what}", dir.display())
            }
        }
    }
}

fn differs(step: Option<u32>, what: impl Into<String>) -> Verdict {
    Verdict::Differs {
        step,
        what: what.into(),
    }
}

/// The run directories under `dir`: `dir` itself when it holds a
/// `result.json`, else every folder below it that does (a suite folder, a
/// runs folder), sorted. `frames/` folders are not searched.
pub fn find_runs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if dir.join("result.json").is_file() {
        out.push(dir.to_path_buf());
        return out;
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            // Symlinked folders are not followed (no loops, no escapes).
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
            if !is_dir || e.file_name() == "frames" {
                continue;
            }
            if path.join("result.json").is_file() {
                out.push(path);
            } else {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Verify every run under each of `dirs`, `parallel` runs at a time; the
/// verdicts come back in the order of [`find_runs`].
pub fn verify_all(
    registry: &Registry,
    dirs: &[PathBuf],
    parallel: usize,
) -> Result<Vec<(PathBuf, Verdict)>, String> {
    let mut runs = Vec::new();
    for d in dirs {
        if !d.is_dir() {
            return Err(format!(
                "{} is not a folder; pass a run directory (holding result.json) or a suite folder",
                d.display()
            ));
        }
        let found = find_runs(d);
        if found.is_empty() {
            return Err(format!(
                "{} holds no run (no result.json in it or below it); pass a run directory or a suite folder",
                d.display()
            ));
        }
        runs.extend(found);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(parallel.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(|| {
        use rayon::prelude::*;
        runs.par_iter()
            .map(|dir| {
                let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    verify_run(registry, dir)
                }))
                .unwrap_or_else(|_| differs(None, "the replay panicked"));
                (dir.clone(), verdict)
            })
            .collect()
    }))
}

/// A recorded trajectory line, as read back.
type Line = Value;

fn read_lines(path: &Path) -> Result<Vec<Line>, Verdict> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| differs(None, format!("cannot read {}: {e}", path.display())))?;
    let mut lines = Vec::new();
    for (i, l) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: Value = serde_json::from_str(l).map_err(|e| {
            differs(
                None,
                format!("{}:{}: not a JSON line: {e}", path.display(), i + 1),
            )
        })?;
        lines.push(v);
    }
    Ok(lines)
}

/// Verify one run directory.
pub fn verify_run(registry: &Registry, dir: &Path) -> Verdict {
    let result_path = dir.join("result.json");
    let result: RunResult = match std::fs::read(&result_path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => return differs(None, format!("cannot read result.json: {e}")),
    };
    let recorded = match read_lines(&dir.join("trajectory.jsonl")) {
        Ok(l) => l,
        Err(v) => return v,
    };
    let replayed = match replay(registry, dir, &result, &recorded) {
        Ok(r) => r,
        Err(v) => return v,
    };
    compare(&result, &recorded, &replayed)
}

/// What the replay produced.
struct Replayed {
    lines: Vec<Line>,
    totals: Totals,
    /// Whether the proposals came from the agent (model replay), so they
    /// are compared too.
    proposals_checked: bool,
}

#[derive(Default)]
struct Totals {
    steps: u32,
    episodes: u32,
    success: bool,
    progress: f64,
    best_score: f64,
    /// The decision of the last step, when it ended the run.
    stop_reason: Option<String>,
    proposed: u32,
    valid: u32,
    ntc: u32,
    oos: u32,
    game_time_ms: u64,
}

fn replay(
    registry: &Registry,
    dir: &Path,
    result: &RunResult,
    recorded: &[Line],
) -> Result<Replayed, Verdict> {
    let preset = registry.resolve_preset(&result.preset);
    if let Ok(p) = &preset {
        let all_models = p
            .role_presets()
            .iter()
            .all(|r| matches!(r.agent, gw_core::AgentRef::Model(_)));
        let calls_present = if p.is_cooperative() {
            p.role_presets().iter().all(|r| {
                dir.join(crate::run::role_calls_file(&r.role.name))
                    .is_file()
            })
        } else {
            dir.join("model_calls.jsonl").is_file()
        };
        if all_models && calls_present {
            return replay_model(registry, dir, result);
        }
    }
    replay_actions(registry, result, recorded)
}

/// A scratch folder for a model replay's run directory.
fn scratch_dir() -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    std::env::temp_dir().join(format!(
        "gameworld-verify-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Run the model agent again against its recorded replies.
fn replay_model(registry: &Registry, dir: &Path, result: &RunResult) -> Result<Replayed, Verdict> {
    let out = scratch_dir();
    let opts = RunOptions {
        realtime: result.realtime,
        max_steps: (result.max_steps > 0).then_some(result.max_steps),
        frames: false,
        memory_rounds: result.memory_rounds,
        repeat: result.repeat,
        replay: Some(dir.to_path_buf()),
        ..RunOptions::new(result.preset.clone(), result.seed, out.clone())
    };
    let run = run_preset_observed(registry, &opts, &mut |_, _| {});
    let lines = read_lines(&out.join("trajectory.jsonl"));
    // A run that ended in an agent error replays into the same error and
    // leaves its partial result, which is what is compared.
    let fresh = std::fs::read(out.join("result.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<RunResult>(&b).ok());
    let _ = std::fs::remove_dir_all(&out);
    let fresh = match (run, fresh) {
        (Ok(r), _) => r,
        (Err(_), Some(r)) if result.error.is_some() => r,
        (Err(e), _) => return Err(differs(None, format!("the replay failed: {e}"))),
    };
    Ok(Replayed {
        lines: lines?,
        totals: Totals {
            steps: fresh.steps,
            episodes: fresh.episodes,
            success: fresh.success,
            progress: fresh.progress,
            best_score: fresh.best_score,
            stop_reason: Some(fresh.stop_reason),
            proposed: fresh.proposed_actions,
            valid: fresh.valid_actions,
            ntc: fresh.invalid_no_tool_call,
            oos: fresh.invalid_out_of_space,
            game_time_ms: fresh.game_time_ms,
        },
        proposals_checked: true,
    })
}

fn interface_of(name: &str) -> Result<Interface, Verdict> {
    serde_json::from_value(Value::String(name.to_string())).map_err(|_| {
        differs(
            None,
            format!("result.json names interface \"{name}\", not generalist or computer-use"),
        )
    })
}

/// The idles the game clock ran before a recorded step (real-time runs):
/// `idle_ms` when recorded, else the step's charged `latency_ms`.
fn idles(line: &Line) -> Vec<u64> {
    match line.get("idle_ms") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_u64).collect(),
        _ => line["latency_ms"].as_u64().into_iter().collect(),
    }
}

/// Feed the recorded proposals into the stepper.
fn replay_actions(
    registry: &Registry,
    result: &RunResult,
    recorded: &[Line],
) -> Result<Replayed, Verdict> {
    // The agent takes no part: a model id the registry no longer knows (or
    // an MCP client's label) is replaced by a built-in one for resolution.
    let mut preset = registry.resolve_preset(&result.preset).or_else(|first| {
        let (head, _) = result
            .preset
            .rsplit_once('+')
            .unwrap_or((&result.preset, ""));
        registry
            .resolve_preset(&format!("{head}+noop"))
            .map_err(|_| differs(None, format!("the preset no longer resolves: {first}")))
    })?;
    if result.max_steps > 0 {
        preset.task.max_steps = result.max_steps;
    }
    let interfaces: Vec<Interface> = match &result.roles {
        Some(roles) => roles
            .iter()
            .map(|r| interface_of(&r.interface))
            .collect::<Result<_, _>>()?,
        None => vec![interface_of(&result.interface)?],
    };
    let role_names: Vec<String> = preset
        .role_presets()
        .iter()
        .map(|p| p.role.name.clone())
        .collect();
    let coop = preset.is_cooperative();
    if coop && interfaces.len() != role_names.len() {
        return Err(differs(
            None,
            format!(
                "result.json lists {} roles; the game has {}",
                interfaces.len(),
                role_names.len()
            ),
        ));
    }
    let game = crate::games::create_game(&preset)
        .map_err(|e| differs(None, format!("cannot create the game: {e}")))?;
    let mut stepper = Stepper::new(game, &preset, result.seed)
        .map_err(|e| differs(None, format!("cannot start the game: {e}")))?;
    let mut totals = Totals::default();
    let mut lines = Vec::with_capacity(recorded.len());
    for (i, rec) in recorded.iter().enumerate() {
        let step = i as u32 + 1;
        // The replay ended: the comparison names the first step that led
        // here, or the extra lines.
        if stepper.finished().is_some() {
            break;
        }
        if result.realtime {
            for ms in idles(rec) {
                stepper.idle(ms);
            }
        }
        let fail = |e: String| differs(Some(step), format!("the replay failed: {e}"));
        let (state, eval, kinds) = if coop {
            let proposals: Vec<(Interface, Option<&Value>)> = role_names
                .iter()
                .zip(&interfaces)
                .map(|(r, i)| (*i, rec["proposed"].get(r).filter(|v| !v.is_null())))
                .collect();
            let r = stepper.step_joint_keep_terminal(&proposals).map_err(fail)?;
            let kinds: Vec<_> = r.roles.iter().map(|p| p.invalid_kind()).collect();
            let valid = kinds.iter().all(Option::is_none);
            lines.push(line_of(&r.state, &r.eval, r.episode, valid));
            (r.state, r.eval, kinds)
        } else {
            let payload = rec.get("proposed").filter(|v| !v.is_null());
            let r = stepper
                .step_keep_terminal(interfaces[0], payload)
                .map_err(fail)?;
            lines.push(line_of(&r.state, &r.eval, r.episode, r.valid()));
            let kinds = vec![r.invalid_kind()];
            (r.state, r.eval, kinds)
        };
        for k in kinds {
            totals.proposed += 1;
            match k {
                None => totals.valid += 1,
                Some(gw_core::InvalidKind::NoToolCall) => totals.ntc += 1,
                Some(gw_core::InvalidKind::OutOfSpace) => totals.oos += 1,
            }
        }
        let _ = state;
        if let Decision::Stop(reason) = eval.decision {
            totals.stop_reason = Some(reason.as_str().to_string());
        }
        if stepper.reset_pending() {
            stepper
                .complete_reset()
                .map_err(|e| differs(Some(step), format!("the reset failed: {e}")))?;
        }
    }
    let eval = stepper.evaluator();
    totals.steps = stepper.step_index();
    totals.episodes = stepper.episode() + 1;
    totals.success = eval.success();
    totals.progress = eval.best_progress();
    totals.best_score = eval.best_score();
    totals.game_time_ms = stepper.state_value()["gameTimeMs"].as_u64().unwrap_or(0);
    Ok(Replayed {
        lines,
        totals,
        proposals_checked: false,
    })
}

fn line_of(state: &Value, eval: &gw_core::StepEval, episode: u32, valid: bool) -> Line {
    serde_json::json!({
        "episode": episode,
        "valid": valid,
        "score": eval.score,
        "progress": eval.progress,
        "best_progress": eval.best_progress,
        "state_fingerprint": state_fingerprint(state),
    })
}

/// Two recorded values are the same: numbers up to JSON round-trip error.
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => close(x, y),
        _ => a == b,
    }
}

/// Equal up to the last digits a JSON round trip may change.
fn close(x: f64, y: f64) -> bool {
    x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
}

fn show(v: &Value) -> String {
    match v {
        Value::Null => "nothing".into(),
        other => other.to_string(),
    }
}

fn compare(result: &RunResult, recorded: &[Line], replayed: &Replayed) -> Verdict {
    for (i, (rec, rep)) in recorded.iter().zip(&replayed.lines).enumerate() {
        let step = i as u32 + 1;
        if rec["step"].as_u64() != Some(step as u64) {
            return differs(
                Some(step),
                format!(
                    "line {} of trajectory.jsonl says step {}",
                    i + 1,
                    show(&rec["step"])
                ),
            );
        }
        for field in ["episode", "valid", "score", "progress", "best_progress"] {
            if !same(&rec[field], &rep[field]) {
                return differs(
                    Some(step),
                    format!(
                        "{field} recorded {}, replayed {}",
                        show(&rec[field]),
                        show(&rep[field])
                    ),
                );
            }
        }
        if replayed.proposals_checked && rec["proposed"] != rep["proposed"] {
            return differs(
                Some(step),
                format!(
                    "the recorded replies parse into {}, not the recorded action {}",
                    show(&rep["proposed"]),
                    show(&rec["proposed"])
                ),
            );
        }
        let fresh = rep["state_fingerprint"].as_str().map(str::to_string);
        let fresh = fresh.unwrap_or_else(|| state_fingerprint(&rep["state"]));
        match rec["state_fingerprint"].as_str() {
            Some(fp) => {
                if fp != fresh {
                    return differs(
                        Some(step),
                        format!("state fingerprint recorded {fp}, replayed {fresh}"),
                    );
                }
                // The recorded state must be the one fingerprinted.
                if rec.get("state").is_some_and(|s| !s.is_null())
                    && state_fingerprint(&rec["state"]) != fp
                {
                    return differs(
                        Some(step),
                        "the recorded state does not match its fingerprint (edited after the run)",
                    );
                }
            }
            // Runs recorded before fingerprints: the state itself.
            None => {
                if state_fingerprint(&rec["state"]) != fresh {
                    return differs(
                        Some(step),
                        "the recorded game state differs from the replay",
                    );
                }
            }
        }
    }
    let (n_rec, n_rep) = (recorded.len(), replayed.lines.len());
    if n_rec != n_rep {
        return differs(
            Some(n_rec.min(n_rep) as u32 + 1),
            format!("trajectory.jsonl has {n_rec} steps, the replay {n_rep}"),
        );
    }
    let t = &replayed.totals;
    let num = |name: &str, rec: f64, rep: f64| -> Option<Verdict> {
        (!close(rec, rep)).then(|| {
            differs(
                None,
                format!("result.json {name} is {rec}, the replay gives {rep}"),
            )
        })
    };
    let checks = [
        num("steps", result.steps as f64, t.steps as f64),
        num("episodes", result.episodes as f64, t.episodes as f64),
        num("progress", result.progress, t.progress),
        num("best_score", result.best_score, t.best_score),
        num(
            "proposed_actions",
            result.proposed_actions as f64,
            t.proposed as f64,
        ),
        num("valid_actions", result.valid_actions as f64, t.valid as f64),
        num(
            "invalid_no_tool_call",
            result.invalid_no_tool_call as f64,
            t.ntc as f64,
        ),
        num(
            "invalid_out_of_space",
            result.invalid_out_of_space as f64,
            t.oos as f64,
        ),
        num(
            "game_time_ms",
            result.game_time_ms as f64,
            t.game_time_ms as f64,
        ),
    ];
    if let Some(v) = checks.into_iter().flatten().next() {
        return v;
    }
    if result.success != t.success {
        return differs(
            None,
            format!(
                "result.json success is {}, the replay gives {}",
                result.success, t.success
            ),
        );
    }
    // A run stopped by the game or the budget must say so; one stopped by
    // its agent (an error, a person leaving) ends on a step that did not
    // stop it.
    match &t.stop_reason {
        Some(reason) if *reason != result.stop_reason => {
            return differs(
                None,
                format!(
                    "result.json stop_reason is {}, the replay stops with {reason}",
                    result.stop_reason
                ),
            );
        }
        None if !agent_stop(&result.stop_reason) => {
            return differs(
                None,
                format!(
                    "result.json stop_reason is {}, but the replay's last step does not stop the run",
                    result.stop_reason
                ),
            );
        }
        _ => {}
    }
    Verdict::Verified { steps: t.steps }
}

/// Stop reasons that come from the agent's side, not the game's.
fn agent_stop(reason: &str) -> bool {
    matches!(
        reason,
        "agent_error" | "player_quit" | "player_left" | "agent_left"
    )
}
