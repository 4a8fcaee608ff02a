//! `gameworld report --leaderboard DIR…`: one static page ranking every
//! model + interface pair found in several suite folders, each row marked
//! verified when `gameworld verify` replays every one of its runs to the
//! recorded numbers.
//!
//! The numbers are the report's own (`stats::summarize`): overall PG and SR
//! over completed paused runs, SR / PG per genre, PG above chance (floors
//! from the `random` / `noop` runs among the inputs) and the cost of all of
//! the pair's runs. Verification re-plays the runs (see [`crate::verify`]).

use super::cells::{esc, f1};
use super::html::{CSS, model_td, pg_td, ranked_cells, ranked_head, table, td, tdl};
use super::{RunRow, Status, collect_runs, stats};
use gw_core::registry::Registry;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One row of the page.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct BoardRow {
    pub rank: usize,
    pub model: String,
    pub interface: String,
    pub runs: usize,
    pub sr: f64,
    pub pg: f64,
    pub pg_chance_adjusted: Option<f64>,
    /// Genre → (SR, PG).
    pub by_genre: BTreeMap<String, (f64, f64)>,
    pub cost_usd: f64,
    /// The input folders the pair's runs came from.
    pub sources: Vec<String>,
    /// `verified`, `differs` or `not checked`.
    pub verification: String,
    /// Runs replayed and how many matched.
    pub runs_checked: usize,
    pub runs_verified: usize,
    /// The first difference found, when one was.
    pub first_difference: Option<String>,
}

/// What `leaderboard.json` holds.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Board {
    pub schema: String,
    pub inputs: Vec<String>,
    pub genres: Vec<String>,
    pub rows: Vec<BoardRow>,
}

/// Build the leaderboard of `inputs`; with a registry every run with a
/// result is re-played (`parallel` at a time), without one rows are marked
/// `not checked`.
pub fn build(
    inputs: &[PathBuf],
    verify_with: Option<&Registry>,
    parallel: usize,
) -> Result<Board, String> {
    let mut rows: Vec<RunRow> = Vec::new();
    let mut source_of: BTreeMap<PathBuf, String> = BTreeMap::new();
    for input in inputs {
        if !input.is_dir() {
            return Err(format!(
                "{} is not a folder; pass suite output folders",
                input.display()
            ));
        }
        let found = collect_runs(std::slice::from_ref(input))?;
        if found.is_empty() {
            return Err(format!(
                "{} holds no run (no result.json or error.json below it)",
                input.display()
            ));
        }
        for r in &found {
            source_of.insert(r.dir.clone(), input.display().to_string());
        }
        rows.extend(found);
    }
    let summary = stats::summarize_with_baselines(&rows, &[]);

    // Verdicts per run directory.
    let mut verdicts: BTreeMap<PathBuf, crate::verify::Verdict> = BTreeMap::new();
    if let Some(registry) = verify_with {
        let dirs: Vec<PathBuf> = rows
            .iter()
            .filter(|r| r.result.is_some())
            .map(|r| r.dir.clone())
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(parallel.max(1))
            .build()
            .map_err(|e| e.to_string())?;
        let out: Vec<(PathBuf, crate::verify::Verdict)> = pool.install(|| {
            use rayon::prelude::*;
            dirs.par_iter()
                .map(|d| (d.clone(), crate::verify::verify_run(registry, d)))
                .collect()
        });
        verdicts.extend(out);
    }

    let mut board_rows = Vec::new();
    for lr in &summary.leaderboard {
        let mine: Vec<&RunRow> = rows
            .iter()
            .filter(|r| r.model == lr.model && r.interface == lr.interface)
            .collect();
        let cost: f64 = mine
            .iter()
            .filter_map(|r| r.result.as_ref())
            .map(|x| x.cost_usd)
            .filter(|c| c.is_finite())
            .sum();
        let mut sources: Vec<String> = mine
            .iter()
            .filter_map(|r| source_of.get(&r.dir).cloned())
            .collect();
        sources.sort();
        sources.dedup();
        let checked: Vec<(&RunRow, &crate::verify::Verdict)> = mine
            .iter()
            .filter_map(|r| verdicts.get(&r.dir).map(|v| (*r, v)))
            .collect();
        let ok = checked.iter().filter(|(_, v)| v.is_verified()).count();
        let with_result = mine.iter().filter(|r| r.result.is_some()).count();
        let verification = if verify_with.is_none() {
            "not checked"
        } else if ok == with_result && with_result > 0 {
            "verified"
        } else {
            "differs"
        };
        let first_difference = checked
            .iter()
            .find(|(_, v)| !v.is_verified())
            .map(|(r, v)| v.line(&r.dir));
        board_rows.push(BoardRow {
            rank: lr.rank,
            model: lr.model.clone(),
            interface: lr.interface.clone(),
            runs: lr.runs,
            sr: lr.sr,
            pg: lr.pg,
            pg_chance_adjusted: lr.pg_chance_adjusted,
            by_genre: lr
                .by_genre
                .iter()
                .map(|(g, c)| (g.clone(), (c.sr, c.pg)))
                .collect(),
            cost_usd: cost,
            sources,
            verification: verification.into(),
            runs_checked: checked.len(),
            runs_verified: ok,
            first_difference,
        });
    }
    // Runs that never started count as not verified for their pair.
    for r in rows.iter().filter(|r| r.status == Status::Failed) {
        if let Some(b) = board_rows
            .iter_mut()
            .find(|b| b.model == r.model && b.interface == r.interface)
            && verify_with.is_some()
        {
            b.verification = "differs".into();
            b.first_difference.get_or_insert_with(|| {
                format!("{}: the run never started (error.json)", r.dir.display())
            });
        }
    }
    Ok(Board {
        schema: "gameworld.leaderboard.v1".into(),
        inputs: inputs.iter().map(|p| p.display().to_string()).collect(),
        genres: summary.counts.genres.clone(),
        rows: board_rows,
    })
}

/// The page.
pub fn render(board: &Board) -> String {
    let mut o = String::new();
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>GameWorld leaderboard</title><style>");
    o.push_str(CSS);
    o.push_str(".v-ok{color:#2b8a3e;font-weight:650}.v-bad{color:#c92a2a;font-weight:650}.v-none{color:#667085}td.why{white-space:normal;text-align:left;color:#667085;font-size:12px;max-width:360px}</style></head><body>");
    let _ = write!(
        o,
        "<header><h1>GameWorld leaderboard</h1><p>{} model/interface pairs from {} suite folder(s). PG = mean progress toward each task's target, SR = success rate, both in percent over completed paused runs; PG above chance rescales PG by each task's chance floor; cost covers every run of the pair.</p></header><main>",
        board.rows.len(),
        board.inputs.len()
    );
    o.push_str("<section id=\"board\"><h2>Ranking <small>by overall PG</small></h2><p class=\"note\">Verified: <code>gameworld verify</code> re-played every run of the row from its preset, seed and recorded actions and got the recorded score, progress and state at every step and the recorded totals.</p>");
    let mut head = ranked_head();
    head.push(("PG".into(), false));
    head.push(("SR".into(), false));
    for g in &board.genres {
        head.push((format!("{g} SR / PG"), false));
    }
    head.push(("PG above chance".into(), false));
    head.push(("Cost (USD)".into(), false));
    head.push(("Verified".into(), true));
    let body: Vec<Vec<String>> = board
        .rows
        .iter()
        .map(|r| {
            let mut v = ranked_cells(r.rank, &r.model, &r.interface, r.runs);
            v.push(pg_td(r.pg));
            v.push(td(&f1(r.sr)));
            for g in &board.genres {
                v.push(match r.by_genre.get(g) {
                    Some((sr, pg)) => td(&format!("{} / {}", f1(*sr), f1(*pg))),
                    None => td("–"),
                });
            }
            v.push(td(&r
                .pg_chance_adjusted
                .map(f1)
                .unwrap_or_else(|| "–".into())));
            v.push(td(&format!("{:.2}", r.cost_usd)));
            let (class, text) = match r.verification.as_str() {
                "verified" => ("v-ok", format!("✓ verified ({} runs)", r.runs_verified)),
                "differs" => (
                    "v-bad",
                    format!(
                        "✗ not verified ({} of {} runs match)",
                        r.runs_verified, r.runs_checked
                    ),
                ),
                _ => ("v-none", "not checked".to_string()),
            };
            let why = r
                .first_difference
                .as_deref()
                .map(|d| format!("<br><span class=\"muted\">{}</span>", esc(d)))
                .unwrap_or_default();
            v.push(format!(
                "<td class=\"l verified {class}\" data-verification=\"{}\">{}{why}</td>",
                esc(&r.verification),
                esc(&text)
            ));
            v
        })
        .collect();
    let head_ref: Vec<(&str, bool)> = head.iter().map(|(h, l)| (h.as_str(), *l)).collect();
    o.push_str(&table(&head_ref, &body));
    o.push_str("</section><section id=\"sources\"><h2>Suite folders</h2>");
    let rows: Vec<Vec<String>> = board
        .rows
        .iter()
        .map(|r| vec![model_td(&r.model, &r.interface), tdl(&r.sources.join(", "))])
        .collect();
    o.push_str(&table(&[("Model", true), ("From", true)], &rows));
    o.push_str("</section></main><footer>Generated by <code>gameworld report --leaderboard</code> from run directories alone.</footer></body></html>\n");
    o
}

/// Build and write `leaderboard.html` and `leaderboard.json` into `out`.
pub fn write(
    inputs: &[PathBuf],
    verify_with: Option<&Registry>,
    parallel: usize,
    out: &Path,
) -> Result<Board, String> {
    let board = build(inputs, verify_with, parallel)?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let put = |name: &str, bytes: &[u8]| {
        let p = out.join(name);
        let text = gw_agents::secrets::text(&String::from_utf8_lossy(bytes));
        gw_core::frame::write_atomic(&p, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    put(
        "leaderboard.json",
        &serde_json::to_vec_pretty(&board).map_err(|e| e.to_string())?,
    )?;
    put("leaderboard.html", render(&board).as_bytes())?;
    Ok(board)
}
