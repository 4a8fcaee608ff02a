//! Reports over many runs: the paper's analyses computed from run directories.
//!
//! [`write_report`] scans input folders for `result.json` (a run that started;
//! `error` set means it stopped part-way) and `error.json` (a run that failed
//! before it could start), and writes `summary.json`, `runs.csv`,
//! `by_model.csv`, `report.md` and a self-contained `report.html`.
//!
//! Which runs feed which analysis:
//! * the leaderboard (Table 6), per-game heatmap (Fig. 3), curriculum (Fig. 5)
//!   and repeat study (Table 7 / Fig. 4) use completed **paused** runs; the
//!   paper keeps real-time results apart because they are not comparable;
//! * the real-time table (Table 8) puts real-time and paused runs side by side;
//! * memory rounds (Table 9) use completed paused runs of model agents;
//! * invalid actions (Table 11) use every completed run;
//! * tokens and cost (Table 13) use every run with a `result.json`, partial
//!   ones included, because their tokens were paid for.
//!
//! Partial runs (`error` set) and failed runs (`error.json`) are listed under
//! errors and are not scored.
//!
//! Chance floors ([`chance`]) come from the `random` and `noop` runs among
//! the inputs plus any `--baselines` folders (`gameworld suite
//! registry/suites/baselines.yaml` writes such runs): each task's floor, a
//! flag where chance succeeds in ≥ 50% of runs, and a chance-adjusted PG
//! column next to PG.

mod cells;
pub mod chance;
mod html;
pub mod leaderboard;
pub mod optimus;
mod rows;
mod stats;
mod text;

pub use stats::{
    CostReport, CostRow, Counts, CurriculumRow, ErrorRow, GenreCell, HeatCell, HeatmapRow,
    InvalidReport, InvalidRow, LeaderRow, MemoryRow, ModeCell, RealtimeRow, RepeatGame, RepeatRow,
    RepeatStat, Summary,
};

pub use rows::{RunRow, Status, collect_runs};

use std::path::{Path, PathBuf};

/// Scan `inputs` and write `summary.json`, `runs.csv`, `by_model.csv`,
/// `report.md` and `report.html` into `out` (each atomically). Fails when no
/// run is found or a file cannot be written.
pub fn write_report(inputs: &[PathBuf], out: &Path) -> Result<Summary, String> {
    write_report_with_baselines(inputs, &[], out)
}

/// [`write_report`] that also reads the `random` / `noop` runs under
/// `baselines` (e.g. the output of the `baselines` suite) for the chance
/// floors. Baseline runs found among `inputs` count too; runs under
/// `baselines` feed only the floors, not the other analyses.
pub fn write_report_with_baselines(
    inputs: &[PathBuf],
    baselines: &[PathBuf],
    out: &Path,
) -> Result<Summary, String> {
    let rows = collect_runs(inputs)?;
    let baseline_rows = collect_runs(baselines)?;
    if rows.is_empty() {
        return Err(format!(
            "no runs found (no result.json or error.json) under {}",
            inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let summary = stats::summarize_with_baselines(&rows, &baseline_rows);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let links = html::run_links(&rows, out);
    let write_bytes = |name: &str, bytes: &[u8]| {
        let p = out.join(name);
        gw_core::frame::write_atomic(&p, bytes)
            .map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    // The redaction point for report files: no secret and no terminal
    // control sequence in any of them. Text files are cleaned as text; the
    // JSON file as a value, so masking cannot break its syntax.
    let write = |name: &str, bytes: &[u8]| {
        let text = gw_agents::secrets::terminal(&String::from_utf8_lossy(bytes));
        write_bytes(name, text.as_bytes())
    };
    let json = serde_json::to_value(&summary).map_err(|e| e.to_string())?;
    let json =
        serde_json::to_vec_pretty(&gw_agents::secrets::value(&json)).map_err(|e| e.to_string())?;
    write_bytes("summary.json", &json)?;
    write("runs.csv", text::runs_csv(&rows).as_bytes())?;
    write("by_model.csv", text::by_model_csv(&summary).as_bytes())?;
    let mut md = text::markdown(&summary, &rows, &links);
    // Open-world runs add the Optimus tables (SR per group, items per atomic task…).
    md.push_str(&optimus::markdown(&rows));
    write("report.md", md.as_bytes())?;
    write(
        "report.html",
        html::render(&summary, &rows, &links).as_bytes(),
    )?;
    Ok(summary)
}
