//! Suites: many tasks × models × seeds × repeats, run in parallel, safely.
//!
//! A suite YAML expands into an ordered plan of runs (grouped in repeat
//! waves). Each run writes its own directory, `result.json` last and
//! atomically, so killing the suite at any moment loses no finished result;
//! `--resume` skips runs whose `result.json` exists. A run that fails to
//! start leaves an `error.json` row and the suite goes on. `--shard I/N`
//! (or Slurm / Kubernetes array variables) runs a deterministic slice.

use crate::error::RunError;
use crate::run::{RunOptions, run_preset_observed};
use gw_core::frame::write_atomic;
use gw_core::registry::Registry;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod plan;

pub use plan::{
    CaseSpec, FramesMode, MAX_PARALLEL, MAX_PLANNED_RUNS, PlannedRun, Selection, SuiteSpec,
    check_suite_name, expand, load_suite,
};

pub use gw_core::shard::Shard;

pub struct SuiteOptions {
    pub out: PathBuf,
    pub max_parallel: usize,
    pub resume: bool,
    pub shard: Option<Shard>,
    /// Force plain line output even on a terminal.
    pub plain: bool,
}

/// What a suite invocation did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SuiteOutcome {
    pub planned: usize,
    pub in_shard: usize,
    pub skipped: usize,
    pub finished: usize,
    pub errors: usize,
}

/// Check that every model in the plan has its API key before anything runs.
fn check_keys(plan: &[PlannedRun], registry: &Registry) -> Result<(), String> {
    let mut missing = std::collections::BTreeSet::new();
    for run in plan {
        let Ok(p) = registry.resolve_preset(&run.preset) else {
            continue;
        };
        for m in p.model_specs() {
            if let Some(var) = &m.api_key_env
                && std::env::var(var)
                    .map(|v| v.trim().is_empty())
                    .unwrap_or(true)
            {
                missing.insert(format!("{var} (model {})", m.id));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "missing API key environment variable(s): {}; export them before running the suite",
            missing.into_iter().collect::<Vec<_>>().join(", ")
        ))
    }
}

struct Log {
    file: Mutex<std::fs::File>,
}

/// One JSON line (secrets masked), ready to append with a single write so
/// that concurrent writers never interleave inside a line.
fn json_line(v: &serde_json::Value) -> Vec<u8> {
    let mut bytes = gw_agents::secrets::value(v).to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

impl Log {
    fn event(&self, event: &str, run: &PlannedRun, extra: serde_json::Value) {
        let mut line = json!({"event": event, "index": run.index, "preset": run.preset, "seed": run.seed, "repeat": run.repeat, "dir": run.dir});
        if let (Some(o), Some(e)) = (line.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        if let Ok(mut f) = self.file.lock() {
            let _ = f.write_all(&json_line(&line));
        }
    }
}

/// The plan indices of the runs a suite log (`suite_log.jsonl`, absent or
/// not) records as finished; lines cut short by a kill are passed over.
fn logged_finished(path: &Path) -> std::collections::BTreeSet<usize> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["event"] == "finished")
        .filter_map(|v| v["index"].as_u64().map(|i| i as usize))
        .collect()
}

/// The file (in the suite's own folder, which exists) where every failed run
/// is recorded, even one whose run directory could not be written; reports
/// read it (see `report::collect_runs`).
pub const ERROR_LOG: &str = "suite_errors.jsonl";

/// The suite directory's lock file: it holds the pid of the suite using it.
pub const LOCK_FILE: &str = "suite.lock";

/// An exclusive hold on a suite output directory, released on drop.
pub struct SuiteLock {
    path: PathBuf,
    pid: u32,
}

/// Whether process `pid` is alive (Linux: /proc; elsewhere assumed alive).
fn pid_alive(pid: u32) -> bool {
    if pid == 0 {
        return false;
    }
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        // A zombie (finished, not yet reaped) holds nothing.
        match std::fs::read_to_string(proc.join(pid.to_string()).join("stat")) {
            Ok(stat) => !stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
            Err(_) => false,
        }
    } else {
        true
    }
}

impl SuiteLock {
    /// Take the lock on `dir` (created if needed). A lock left by a process
    /// that no longer runs is taken over; a live holder is an error naming it.
    pub fn acquire(dir: &Path) -> Result<SuiteLock, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        let pid = std::process::id();
        for _ in 0..3 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(format!("{pid}\n").as_bytes())
                        .and_then(|_| f.sync_all())
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    return Ok(SuiteLock { path, pid });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let holder = text.trim().parse::<u32>().ok();
                    match holder {
                        Some(h) if h == pid || pid_alive(h) => {
                            return Err(format!(
                                "the suite folder {} is in use by another gameworld suite (pid {h}, lock file {}); \
                                 wait for it to finish, or pass another --out",
                                dir.display(),
                                path.display()
                            ));
                        }
                        // A stale lock (dead holder, or unreadable and old
                        // enough that no writer is still filling it in).
                        None if std::fs::metadata(&path)
                            .and_then(|m| m.modified())
                            .ok()
                            .and_then(|t| t.elapsed().ok())
                            .is_some_and(|age| age.as_secs() < 5) =>
                        {
                            std::thread::sleep(std::time::Duration::from_millis(200));
                        }
                        _ => {
                            let _ = std::fs::remove_file(&path);
                        }
                    }
                }
                Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
            }
        }
        Err(format!(
            "cannot take the lock {}; another suite keeps replacing it",
            path.display()
        ))
    }
}

impl Drop for SuiteLock {
    fn drop(&mut self) {
        let ours = std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
            == Some(self.pid);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Running totals for the progress display and the outcome.
#[derive(Default)]
struct Tally {
    done: usize,
    errors: usize,
    successes: usize,
    progress_sum: f64,
}

impl Tally {
    /// Success rate and mean progress so far, in percent.
    fn rates(&self) -> (f64, f64) {
        let n = self.done.max(1) as f64;
        (
            100.0 * self.successes as f64 / n,
            100.0 * self.progress_sum / n,
        )
    }
}

/// A finished run's outcome in the progress line: `success`, or `failed`
/// with why it stopped (`failed: max_steps_exhausted`).
pub fn outcome_label(r: &crate::RunResult) -> String {
    if r.success {
        "success".into()
    } else if r.stop_reason.is_empty() {
        "failed".into()
    } else {
        format!("failed: {}", r.stop_reason)
    }
}

/// The step budget a planned run will have: the suite's `max_steps`, else
/// its task's.
pub(crate) fn planned_max_steps(registry: &Registry, spec: &SuiteSpec, preset: &str) -> u32 {
    spec.max_steps.unwrap_or_else(|| {
        registry
            .resolve_preset(preset)
            .map(|p| p.task.max_steps)
            .unwrap_or(100)
    })
}

/// A resume keeps finished results only when they were planned exactly as
/// the suite file and registry now plan them; otherwise it stops (exit 2)
/// naming what changed, before anything is written.
fn check_resume(
    opts: &SuiteOptions,
    manifest_name: &str,
    fingerprint: &serde_json::Value,
    spec: &SuiteSpec,
    mine: &[PlannedRun],
) -> Result<(), RunError> {
    let path = opts.out.join(manifest_name);
    let Some(old) = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    else {
        return Ok(());
    };
    let done: Vec<PlannedRun> = mine
        .iter()
        .filter(|r| opts.out.join(&r.dir).join("result.json").is_file())
        .cloned()
        .collect();
    match crate::plan_print::changes(&old, fingerprint, spec, &done) {
        None => Ok(()),
        Some(what) => Err(RunError::Config(format!(
            "--resume {}: {what}. Their results would not match the plan; restore the suite file \
             and registry, or run without --resume (or into a new --out) to redo them",
            opts.out.display()
        ))),
    }
}

/// Run a suite. Configuration problems (bad plan, missing keys) fail before
/// any run starts.
pub fn run_suite(
    spec: &SuiteSpec,
    registry: &Registry,
    opts: &SuiteOptions,
) -> Result<SuiteOutcome, RunError> {
    if opts.max_parallel > MAX_PARALLEL {
        return Err(RunError::Config(format!(
            "--max-parallel {} is more than {MAX_PARALLEL} runs at once; pass a smaller number",
            opts.max_parallel
        )));
    }
    let plan = expand(spec, registry).map_err(RunError::Config)?;
    let mine: Vec<PlannedRun> = plan
        .iter()
        .filter(|r| opts.shard.is_none_or(|s| s.contains(r.index)))
        .cloned()
        .collect();
    check_keys(&mine, registry).map_err(RunError::Config)?;
    // One suite per output folder at a time: two would overwrite each
    // other's runs.
    let _lock = SuiteLock::acquire(&opts.out).map_err(RunError::Config)?;
    let fingerprint = crate::plan_print::fingerprint(spec, registry, &mine);
    let manifest_name = match opts.shard {
        Some(s) => format!("suite.shard-{}-of-{}.json", s.index, s.count),
        None => "suite.json".to_string(),
    };
    if opts.resume {
        check_resume(opts, &manifest_name, &fingerprint, spec, &mine)?;
    }
    let manifest = json!({
        "suite": spec,
        "shard": opts.shard.map(|s| format!("{}/{}", s.index, s.count)),
        "planned_runs": plan.len(),
        "runs": mine,
        "fingerprint": fingerprint,
    });
    write_atomic(
        &opts.out.join(manifest_name),
        &serde_json::to_vec_pretty(&gw_agents::secrets::value(&manifest))
            .expect("manifest serializes"),
    )
    .map_err(|e| RunError::Runtime(format!("cannot write the suite manifest: {e}")))?;
    let log = Log {
        file: Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(opts.out.join("suite_log.jsonl"))
                .map_err(|e| RunError::Runtime(format!("cannot open suite_log.jsonl: {e}")))?,
        ),
    };
    let error_log = Log {
        file: Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(opts.out.join(ERROR_LOG))
                .map_err(|e| RunError::Runtime(format!("cannot open {ERROR_LOG}: {e}")))?,
        ),
    };

    let mut outcome = SuiteOutcome {
        planned: plan.len(),
        in_shard: mine.len(),
        ..Default::default()
    };
    let (done, todo): (Vec<PlannedRun>, Vec<PlannedRun>) = mine
        .into_iter()
        .partition(|r| opts.resume && opts.out.join(&r.dir).join("result.json").is_file());
    outcome.skipped = done.len();
    // A suite killed after a run wrote its result.json but before the log
    // said so: the log gets that run's `finished` line now (from its
    // result, marked `recovered`), so the log holds one per finished run.
    if !done.is_empty() {
        let logged = logged_finished(&opts.out.join("suite_log.jsonl"));
        for run in done.iter().filter(|r| !logged.contains(&r.index)) {
            let result = std::fs::read(opts.out.join(&run.dir).join("result.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
            if let Some(r) = result {
                log.event(
                    "finished",
                    run,
                    json!({"success": r["success"], "progress": r["progress"], "recovered": true}),
                );
            }
        }
    }

    let fancy = !opts.plain && std::io::stderr().is_terminal();
    let multi = MultiProgress::new();
    let overall = if fancy {
        let pb = multi.add(ProgressBar::new(todo.len() as u64));
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:30.cyan/blue} {pos}/{len} runs {msg} [{elapsed_precise}]",
            )
            .expect("template"),
        );
        Some(pb)
    } else {
        None
    };
    let tally = Mutex::new(Tally::default());
    let total = todo.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.max_parallel.clamp(1, total.max(1)))
        .build()
        .map_err(|e| RunError::Runtime(e.to_string()))?;
    let max_repeat = todo.iter().map(|r| r.repeat).max().unwrap_or(0);
    for wave in 0..=max_repeat {
        let wave_runs: Vec<&PlannedRun> = todo.iter().filter(|r| r.repeat == wave).collect();
        pool.install(|| {
            use rayon::prelude::*;
            wave_runs.par_iter().for_each(|run| {
                let bar = fancy.then(|| {
                    let pb = multi.add(ProgressBar::new_spinner());
                    pb.set_style(ProgressStyle::with_template("  {spinner} {msg}").expect("template"));
                    pb.set_message(format!("{} seed {}: starting", run.preset, run.seed));
                    pb
                });
                log.event("started", run, json!({}));
                let dir = opts.out.join(&run.dir);
                let ropts = RunOptions {
                    preset: run.preset.clone(),
                    seed: run.seed,
                    out: dir.clone(),
                    realtime: run.realtime,
                    max_steps: spec.max_steps,
                    frames: spec.frames.keeps_frames(),
                    memory_rounds: run.memory_rounds,
                    repeat: run.repeat,
                    replay: None,
                    sparse_frames: spec
                        .frames
                        .sparse_every(planned_max_steps(registry, spec, &run.preset)),
                };
                let _ = std::fs::remove_file(dir.join("error.json"));
                let mut on_step = |step: u32, pg: f64| {
                    if let Some(b) = &bar {
                        b.set_message(format!("{} seed {}: step {step}, PG {:.2}", run.preset, run.seed, pg));
                        b.tick();
                    }
                };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_preset_observed(registry, &ropts, &mut on_step)))
                    .unwrap_or_else(|panic| {
                        let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "panic".into());
                        Err(RunError::Runtime(format!("the run panicked: {msg}")))
                    });
                let line = match &result {
                    Ok(r) => {
                        log.event("finished", run, json!({"success": r.success, "progress": r.progress}));
                        let mut t = tally.lock().expect("tally");
                        t.done += 1;
                        t.successes += r.success as usize;
                        t.progress_sum += r.progress;
                        let (sr, pg) = t.rates();
                        format!(
                            "[{}/{total}] {} seed {} rep {}: {}, progress {:.2} in {} steps (SR {sr:.0}% PG {pg:.0}% so far)",
                            t.done,
                            run.preset,
                            run.seed,
                            run.repeat,
                            outcome_label(r),
                            r.progress,
                            r.steps,
                        )
                    }
                    Err(e) => {
                        // A run that wrote partial results keeps its result.json; one
                        // that never started leaves an error row. Its text is bounded
                        // (masked first, then cut) wherever it goes.
                        let e = gw_agents::secrets::error_text(&e.to_string());
                        let (game_id, rest) = run.preset.split_once('+').unwrap_or((&run.preset, ""));
                        let (task_id, model) = rest.split_once('+').unwrap_or((rest, ""));
                        let row = json!({"preset": run.preset, "game_id": game_id, "task_id": task_id, "model": model,
                                         "seed": run.seed, "repeat": run.repeat, "dir": run.dir, "error": e});
                        if !dir.join("result.json").is_file() {
                            let bytes = serde_json::to_vec_pretty(&gw_agents::secrets::value(&row)).expect("row serializes");
                            let _ = write_atomic(&dir.join("error.json"), &bytes);
                        }
                        // Also in the suite's own error log, which exists even
                        // when the run directory cannot be written.
                        if let Ok(mut f) = error_log.file.lock() {
                            let _ = f.write_all(&json_line(&row));
                        }
                        log.event("failed", run, json!({"error": e}));
                        let mut t = tally.lock().expect("tally");
                        t.done += 1;
                        t.errors += 1;
                        format!("[{}/{total}] {} seed {} rep {}: ERROR {e}", t.done, run.preset, run.seed, run.repeat)
                    }
                };
                match (&bar, &overall) {
                    (Some(b), Some(o)) => {
                        b.finish_and_clear();
                        o.inc(1);
                        let (sr, pg) = tally.lock().expect("tally").rates();
                        o.set_message(format!("SR {sr:.0}% PG {pg:.0}%"));
                    }
                    _ => eprintln!("{}", gw_agents::secrets::terminal(&line)),
                }
            });
        });
    }
    if let Some(o) = overall {
        o.finish();
    }
    outcome.errors = tally.lock().expect("tally").errors;
    outcome.finished = total - outcome.errors;
    Ok(outcome)
}
