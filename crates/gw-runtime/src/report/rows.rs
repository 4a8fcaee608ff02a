//! The runs a report reads: one [`RunRow`] per run folder found under the
//! inputs (`result.json`, or `error.json` for a run that never started).

use crate::run::RunResult;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// How a run ended, as far as the report is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// `result.json` without `error`: scored.
    Ok,
    /// `result.json` with `error` set (stop reason `agent_error`).
    Partial,
    /// `error.json` only, or an unreadable `result.json`.
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Partial => "partial",
            Status::Failed => "failed",
        }
    }
}

/// One run found on disk.
#[derive(Clone, Debug)]
pub struct RunRow {
    pub status: Status,
    /// Run directory relative to its input folder, `/`-separated ("." for the
    /// input folder itself).
    pub rel_dir: String,
    /// Run directory as found on disk.
    pub dir: PathBuf,
    /// Whether the run directory has a `frames/` folder.
    pub has_frames: bool,
    pub preset: String,
    pub game_id: String,
    pub task_id: String,
    pub model: String,
    pub interface: String,
    pub seed: u64,
    pub repeat: u32,
    pub error: Option<String>,
    /// The parsed `result.json`, when there is one.
    pub result: Option<RunResult>,
}

impl RunRow {
    /// The model + interface pair the paper reports as one row.
    pub fn model_key(&self) -> (String, String) {
        (self.model.clone(), self.interface.clone())
    }

    fn sort_key(&self) -> impl Ord + '_ {
        let r = self.result.as_ref();
        (
            &self.model,
            &self.interface,
            &self.game_id,
            &self.task_id,
            self.seed,
            self.repeat,
            r.map(|r| r.realtime),
            r.and_then(|r| r.memory_rounds),
            &self.rel_dir,
        )
    }
}

/// Find every run under `inputs`, sorted by model, interface, game, task,
/// seed, repeat and directory (so the order does not depend on how the runs
/// were split across folders). A folder holding both files counts as its
/// `result.json` (a later retry of a run that once failed to start). The same
/// relative run directory found in two inputs counts once (the first input's).
pub fn collect_runs(inputs: &[PathBuf]) -> Result<Vec<RunRow>, String> {
    let mut rows = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for input in inputs {
        if !input.is_dir() {
            return Err(format!("{} is not a directory", input.display()));
        }
        let mut dirs = Vec::new();
        find_run_dirs(input, &mut dirs)?;
        dirs.sort();
        for dir in dirs {
            let rel = rel_string(&dir, input);
            if !seen.insert(rel.clone()) {
                continue;
            }
            rows.push(read_run(&dir, rel));
        }
        // Runs that failed where their own folder could not be written are
        // known only to the suite's error log; count them too.
        let log = input.join(crate::suite::ERROR_LOG);
        for line in std::fs::read_to_string(&log).unwrap_or_default().lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let Some(rel) = v["dir"].as_str().map(str::to_string) else {
                continue;
            };
            let dir = input.join(&rel);
            if dir.join("result.json").is_file() || dir.join("error.json").is_file() {
                continue;
            }
            if seen.insert(rel.clone()) {
                rows.push(row_from_error(dir, rel, &v));
            } else if let Some(row) = rows
                .iter_mut()
                .find(|r| r.rel_dir == rel && r.result.is_none())
            {
                // A later failure of the same run replaces the earlier one.
                *row = row_from_error(row.dir.clone(), rel, &v);
            }
        }
    }
    rows.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(rows)
}

fn rel_string(dir: &Path, root: &Path) -> String {
    let rel = dir.strip_prefix(root).unwrap_or(dir);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// Run directories are folders holding `result.json` or `error.json`; the
/// search does not descend into them, nor into `frames/` or hidden folders,
/// and does not follow symbolic links.
fn find_run_dirs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if dir.join("result.json").is_file() || dir.join("error.json").is_file() {
        out.push(dir.to_path_buf());
        return Ok(());
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut subdirs = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "frames" {
            continue;
        }
        if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            subdirs.push(entry.path());
        }
    }
    subdirs.sort();
    for d in subdirs {
        find_run_dirs(&d, out)?;
    }
    Ok(())
}

impl RunRow {
    /// A row that knows only its folder, marked failed until read.
    fn failed(dir: PathBuf, rel_dir: String) -> RunRow {
        RunRow {
            status: Status::Failed,
            rel_dir,
            dir,
            has_frames: false,
            preset: String::new(),
            game_id: String::new(),
            task_id: String::new(),
            model: String::new(),
            interface: String::new(),
            seed: 0,
            repeat: 0,
            error: None,
            result: None,
        }
    }
}

fn read_run(dir: &Path, rel_dir: String) -> RunRow {
    let mut row = RunRow::failed(dir.to_path_buf(), rel_dir);
    row.has_frames = dir.join("frames").is_dir();
    let result_path = dir.join("result.json");
    if result_path.is_file() {
        match std::fs::read(&result_path)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice::<RunResult>(&b).map_err(|e| e.to_string()))
        {
            Ok(r) => {
                row.status = if r.error.is_some() {
                    Status::Partial
                } else {
                    Status::Ok
                };
                row.preset = r.preset.clone();
                row.game_id = r.game_id.clone();
                row.task_id = r.task_id.clone();
                row.model = r.model.clone();
                row.interface = r.interface.clone();
                row.seed = r.seed;
                row.repeat = r.repeat;
                // Bounded however the file was written (an older run's error
                // may hold a whole provider body).
                row.error = r.error.as_deref().map(gw_agents::secrets::error_text);
                row.result = Some(r);
            }
            Err(e) => {
                row.error = Some(format!("unreadable result.json: {e}"));
                fill_from_preset(&mut row, dir);
            }
        }
        return row;
    }
    let v: Value = match std::fs::read(dir.join("error.json"))
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(v) => v,
        Err(e) => {
            row.error = Some(format!("unreadable error.json: {e}"));
            fill_from_preset(&mut row, dir);
            return row;
        }
    };
    fill_from_error(&mut row, &v);
    row
}

/// A failed run known only from an error row (`error.json` or a line of
/// the suite's error log).
fn row_from_error(dir: PathBuf, rel_dir: String, v: &Value) -> RunRow {
    let mut row = RunRow::failed(dir, rel_dir);
    fill_from_error(&mut row, v);
    row
}

fn fill_from_error(row: &mut RunRow, v: &Value) {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    row.preset = s("preset");
    row.game_id = s("game_id");
    row.task_id = s("task_id");
    row.model = s("model");
    row.interface = s("interface");
    row.seed = v["seed"].as_u64().unwrap_or(0);
    row.repeat = v["repeat"].as_u64().unwrap_or(0) as u32;
    row.error = Some(gw_agents::secrets::error_text(&match &v["error"] {
        Value::String(s) => s.clone(),
        Value::Null => "unknown error".to_string(),
        other => other.to_string(),
    }));
    if row.game_id.is_empty() || row.model.is_empty() {
        let preset = row.preset.clone();
        split_preset(row, &preset);
    }
}

/// Best effort for unreadable files: the suite layout is
/// `runs/<preset>/seed-<S>/rep-<R>/`.
fn fill_from_preset(row: &mut RunRow, dir: &Path) {
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for (i, p) in parts.iter().enumerate() {
        if let Some(s) = p.strip_prefix("seed-").and_then(|s| s.parse().ok()) {
            row.seed = s;
            if i > 0 {
                let preset = parts[i - 1].clone();
                split_preset(row, &preset);
            }
        }
        if let Some(r) = p.strip_prefix("rep-").and_then(|s| s.parse().ok()) {
            row.repeat = r;
        }
    }
}

fn split_preset(row: &mut RunRow, preset: &str) {
    let mut it = preset.splitn(3, '+');
    if let (Some(g), Some(t), Some(m)) = (it.next(), it.next(), it.next()) {
        row.preset = preset.to_string();
        if row.game_id.is_empty() {
            row.game_id = g.to_string();
        }
        if row.task_id.is_empty() {
            row.task_id = t.to_string();
        }
        if row.model.is_empty() {
            row.model = m.to_string();
        }
    }
}
