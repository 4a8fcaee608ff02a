//! The numbers: every analysis of the report as plain serializable data.
//! SR, PG, IAR, NTC and OOS are percentages (0–100) like the paper's tables.
//! Anything derived from wall-clock time lives under keys containing
//! `sec_per_step`.

use super::{RunRow, Status};
use crate::run::RunResult;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

type Key = (String, String);

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub schema: String,
    pub counts: Counts,
    /// Table 6: ranked by overall PG (paused, completed runs).
    pub leaderboard: Vec<LeaderRow>,
    /// Fig. 3: model × game mean progress.
    pub heatmap: Vec<HeatmapRow>,
    /// Fig. 5: model × curriculum level mean progress.
    pub curriculum: Vec<CurriculumRow>,
    /// Table 7 / Fig. 4: spread over repeats.
    pub repeats: Vec<RepeatRow>,
    /// Table 8: real-time next to paused.
    pub realtime: Vec<RealtimeRow>,
    /// Table 9: per memory-round setting.
    pub memory: Vec<MemoryRow>,
    /// Table 11.
    pub invalid_actions: InvalidReport,
    /// Table 13.
    pub cost: CostReport,
    pub errors: Vec<ErrorRow>,
    /// Per task: what `random` and `noop` reach (from runs in the report or
    /// in `--baselines` folders); empty when there are no such runs.
    pub chance_floors: Vec<super::chance::ChanceFloor>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Counts {
    /// Every run found (result.json or error.json).
    pub runs: usize,
    pub ok: usize,
    pub partial: usize,
    pub failed: usize,
    /// Completed paused runs (the leaderboard's population).
    pub scored: usize,
    /// Completed real-time runs.
    pub realtime: usize,
    /// Distinct model + interface pairs among runs with a result.json.
    pub models: usize,
    pub games: usize,
    pub tasks: usize,
    pub seeds: usize,
    pub repeats: usize,
    pub genres: Vec<String>,
    pub game_ids: Vec<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GenreCell {
    pub runs: usize,
    pub sr: f64,
    pub pg: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LeaderRow {
    pub rank: usize,
    pub rank_in_interface: usize,
    pub model: String,
    pub interface: String,
    pub runs: usize,
    pub sr: f64,
    pub pg: f64,
    /// Mean progress rescaled above each task's chance floor, in %, over the
    /// runs whose task has a floor; `None` without baseline runs.
    pub pg_chance_adjusted: Option<f64>,
    /// Genre → SR/PG (genres without runs for this model are absent).
    pub by_genre: BTreeMap<String, GenreCell>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HeatCell {
    pub runs: usize,
    pub pg: f64,
    pub sr: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HeatmapRow {
    pub model: String,
    pub interface: String,
    /// game_id → cell (games this model has no runs of are absent).
    pub games: BTreeMap<String, HeatCell>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CurriculumRow {
    pub model: String,
    pub interface: String,
    /// "1".."5" → mean progress (%) and run count.
    pub levels: BTreeMap<String, HeatCell>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RepeatStat {
    pub repeat: u32,
    pub runs: usize,
    pub sr: f64,
    pub pg: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RepeatGame {
    pub repeats: usize,
    pub pg_mean: f64,
    /// Sample standard deviation over repeats; null with one repeat.
    pub pg_std: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RepeatRow {
    pub model: String,
    pub interface: String,
    pub repeats: usize,
    pub per_repeat: Vec<RepeatStat>,
    pub sr_mean: f64,
    pub sr_std: Option<f64>,
    pub pg_mean: f64,
    pub pg_std: Option<f64>,
    pub per_game: BTreeMap<String, RepeatGame>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ModeCell {
    pub runs: usize,
    pub steps: u64,
    pub sr: f64,
    pub pg: f64,
    /// Model latency seconds per executed step (wall-clock derived).
    pub sec_per_step: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RealtimeRow {
    pub model: String,
    pub interface: String,
    pub realtime: Option<ModeCell>,
    pub paused: Option<ModeCell>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MemoryRow {
    pub model: String,
    pub interface: String,
    pub memory_rounds: u32,
    pub runs: usize,
    pub steps: u64,
    /// Input tokens per step (`input_tokens` already counts cached ones).
    pub input_tokens_per_step: f64,
    pub pg: f64,
    pub sr: f64,
    /// Model latency seconds per step (wall-clock derived).
    pub sec_per_step: f64,
    /// Whole-run wall-clock seconds per step (wall-clock derived).
    pub wall_sec_per_step: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InvalidRow {
    pub model: String,
    pub interface: String,
    pub proposed: u64,
    pub valid: u64,
    pub no_tool_call: u64,
    pub out_of_space: u64,
    /// 100 · (1 − valid / proposed).
    pub iar: f64,
    pub ntc: f64,
    pub oos: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InvalidReport {
    pub rows: Vec<InvalidRow>,
    /// Unweighted means over the model rows (the paper's "Overall Mean").
    pub mean_iar: Option<f64>,
    pub mean_ntc: Option<f64>,
    pub mean_oos: Option<f64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CostRow {
    pub model: String,
    pub interface: String,
    pub runs: usize,
    pub steps: u64,
    pub input_tokens: u64,
    pub cached_input_tokens: u64,
    pub output_tokens: u64,
    /// input_tokens / steps (cached tokens are part of `input_tokens`).
    pub input_tokens_per_step: f64,
    pub output_tokens_per_step: f64,
    pub cost_usd: f64,
    pub cost_per_run_usd: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct CostReport {
    pub rows: Vec<CostRow>,
    pub total_cost_usd: f64,
    pub total_input_tokens: u64,
    pub total_cached_input_tokens: u64,
    pub total_output_tokens: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ErrorRow {
    pub status: String,
    pub dir: String,
    pub preset: String,
    pub model: String,
    pub game_id: String,
    pub task_id: String,
    pub seed: u64,
    pub repeat: u32,
    pub steps: Option<u32>,
    pub error: String,
}

fn mean(xs: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut s, mut n) = (0.0, 0usize);
    for x in xs {
        s += x;
        n += 1;
    }
    (n > 0).then(|| s / n as f64)
}

/// Sample standard deviation (n − 1); None below two values.
pub(crate) fn sample_std(xs: &[f64]) -> Option<f64> {
    if xs.len() < 2 {
        return None;
    }
    let m = xs.iter().sum::<f64>() / xs.len() as f64;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64;
    Some(v.sqrt())
}

fn sr(rs: &[&RunResult]) -> f64 {
    100.0 * mean(rs.iter().map(|r| if r.success { 1.0 } else { 0.0 })).unwrap_or(0.0)
}

fn pg(rs: &[&RunResult]) -> f64 {
    100.0 * mean(rs.iter().map(|r| r.progress)).unwrap_or(0.0)
}

fn group<'a, K: Ord>(
    rs: &[&'a RunResult],
    key: impl Fn(&RunResult) -> K,
) -> BTreeMap<K, Vec<&'a RunResult>> {
    let mut m: BTreeMap<K, Vec<&RunResult>> = BTreeMap::new();
    for r in rs {
        m.entry(key(r)).or_default().push(*r);
    }
    m
}

fn model_key(r: &RunResult) -> Key {
    (r.model.clone(), r.interface.clone())
}

fn heat(rs: &[&RunResult]) -> HeatCell {
    HeatCell {
        runs: rs.len(),
        pg: pg(rs),
        sr: sr(rs),
    }
}

/// A sum of counts that saturates instead of overflowing (run files can
/// hold any number).
fn total<T>(items: &[T], f: impl Fn(&T) -> u64) -> u64 {
    items.iter().map(f).fold(0, u64::saturating_add)
}

fn mode_cell(rs: &[&RunResult]) -> Option<ModeCell> {
    if rs.is_empty() {
        return None;
    }
    let steps: u64 = total(rs, |r| r.steps as u64);
    let latency: u64 = total(rs, |r| r.latency_ms);
    Some(ModeCell {
        runs: rs.len(),
        steps,
        sr: sr(rs),
        pg: pg(rs),
        sec_per_step: per_step(latency as f64 / 1000.0, steps),
    })
}

fn per_step(total: f64, steps: u64) -> f64 {
    if steps == 0 {
        0.0
    } else {
        total / steps as f64
    }
}

/// Every analysis over `rows`; the chance floors also use the baseline runs
/// in `baselines` (which feed nothing else).
pub fn summarize_with_baselines(rows: &[RunRow], baselines: &[RunRow]) -> Summary {
    let with_result: Vec<&RunResult> = rows.iter().filter_map(|r| r.result.as_ref()).collect();
    let ok: Vec<&RunResult> = rows
        .iter()
        .filter(|r| r.status == Status::Ok)
        .filter_map(|r| r.result.as_ref())
        .collect();
    let scored: Vec<&RunResult> = ok.iter().copied().filter(|r| !r.realtime).collect();
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let distinct = |f: &dyn Fn(&RunRow) -> String| {
        rows.iter()
            .filter(|r| !r.game_id.is_empty())
            .map(f)
            .collect::<BTreeSet<_>>()
    };
    let game_ids: Vec<String> = distinct(&|r| r.game_id.clone()).into_iter().collect();
    let counts = Counts {
        runs: rows.len(),
        ok: count(Status::Ok),
        partial: count(Status::Partial),
        failed: count(Status::Failed),
        scored: scored.len(),
        realtime: ok.len() - scored.len(),
        models: with_result
            .iter()
            .map(|r| model_key(r))
            .collect::<BTreeSet<_>>()
            .len(),
        games: game_ids.len(),
        tasks: distinct(&|r| format!("{}+{}", r.game_id, r.task_id)).len(),
        seeds: rows.iter().map(|r| r.seed).collect::<BTreeSet<_>>().len(),
        repeats: rows.iter().map(|r| r.repeat).collect::<BTreeSet<_>>().len(),
        genres: with_result
            .iter()
            .map(|r| r.genre.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
        game_ids,
    };

    // Chance floors from every completed paused baseline run.
    let baseline_runs: Vec<&RunResult> = scored
        .iter()
        .copied()
        .chain(
            baselines
                .iter()
                .filter(|r| r.status == Status::Ok)
                .filter_map(|r| r.result.as_ref()),
        )
        .collect();
    let chance_floors = super::chance::floors(&baseline_runs);

    // Table 6.
    let by_model = group(&scored, model_key);
    let mut leaderboard: Vec<LeaderRow> = by_model
        .iter()
        .map(|((model, interface), rs)| LeaderRow {
            rank: 0,
            rank_in_interface: 0,
            model: model.clone(),
            interface: interface.clone(),
            runs: rs.len(),
            sr: sr(rs),
            pg: pg(rs),
            pg_chance_adjusted: super::chance::adjusted_pg(rs, &chance_floors),
            by_genre: group(rs, |r| r.genre.clone())
                .into_iter()
                .map(|(g, rs)| {
                    (
                        g,
                        GenreCell {
                            runs: rs.len(),
                            sr: sr(&rs),
                            pg: pg(&rs),
                        },
                    )
                })
                .collect(),
        })
        .collect();
    leaderboard.sort_by(|a, b| {
        b.pg.total_cmp(&a.pg)
            .then(b.sr.total_cmp(&a.sr))
            .then_with(|| (&a.model, &a.interface).cmp(&(&b.model, &b.interface)))
    });
    let mut per_interface: BTreeMap<String, usize> = BTreeMap::new();
    for (i, row) in leaderboard.iter_mut().enumerate() {
        row.rank = i + 1;
        let n = per_interface.entry(row.interface.clone()).or_default();
        *n += 1;
        row.rank_in_interface = *n;
    }
    let order: Vec<Key> = leaderboard
        .iter()
        .map(|r| (r.model.clone(), r.interface.clone()))
        .collect();

    // Fig. 3 and Fig. 5, rows in leaderboard order.
    let heatmap = order
        .iter()
        .map(|k| HeatmapRow {
            model: k.0.clone(),
            interface: k.1.clone(),
            games: group(&by_model[k], |r| r.game_id.clone())
                .into_iter()
                .map(|(g, rs)| (g, heat(&rs)))
                .collect(),
        })
        .collect();
    let curriculum = order
        .iter()
        .map(|k| CurriculumRow {
            model: k.0.clone(),
            interface: k.1.clone(),
            levels: group(&by_model[k], |r| r.curriculum_level)
                .into_iter()
                .map(|(l, rs)| (l.to_string(), heat(&rs)))
                .collect(),
        })
        .collect();

    // Table 7 / Fig. 4.
    let repeats = order
        .iter()
        .map(|k| {
            let rs = &by_model[k];
            let per: Vec<RepeatStat> = group(rs, |r| r.repeat)
                .into_iter()
                .map(|(repeat, rs)| RepeatStat {
                    repeat,
                    runs: rs.len(),
                    sr: sr(&rs),
                    pg: pg(&rs),
                })
                .collect();
            let srs: Vec<f64> = per.iter().map(|p| p.sr).collect();
            let pgs: Vec<f64> = per.iter().map(|p| p.pg).collect();
            let per_game = group(rs, |r| r.game_id.clone())
                .into_iter()
                .map(|(g, rs)| {
                    let vals: Vec<f64> =
                        group(&rs, |r| r.repeat).values().map(|rs| pg(rs)).collect();
                    (
                        g,
                        RepeatGame {
                            repeats: vals.len(),
                            pg_mean: mean(vals.iter().copied()).unwrap_or(0.0),
                            pg_std: sample_std(&vals),
                        },
                    )
                })
                .collect();
            RepeatRow {
                model: k.0.clone(),
                interface: k.1.clone(),
                repeats: per.len(),
                sr_mean: mean(srs.iter().copied()).unwrap_or(0.0),
                sr_std: sample_std(&srs),
                pg_mean: mean(pgs.iter().copied()).unwrap_or(0.0),
                pg_std: sample_std(&pgs),
                per_repeat: per,
                per_game,
            }
        })
        .collect();

    // Table 8: every model with completed runs, realtime ones first.
    let mut realtime: Vec<RealtimeRow> = group(&ok, model_key)
        .into_iter()
        .map(|((model, interface), rs)| {
            let (rt, pa): (Vec<&RunResult>, Vec<&RunResult>) =
                rs.iter().copied().partition(|r| r.realtime);
            RealtimeRow {
                model,
                interface,
                realtime: mode_cell(&rt),
                paused: mode_cell(&pa),
            }
        })
        .collect();
    realtime.sort_by_key(|r| r.realtime.is_none());

    // Table 9.
    let memory = group(&scored, |r| {
        (r.model.clone(), r.interface.clone(), r.memory_rounds)
    })
    .into_iter()
    .filter_map(|((model, interface, rounds), rs)| {
        let rounds = rounds?;
        let steps: u64 = total(&rs, |r| r.steps as u64);
        let input: u64 = total(&rs, |r| r.input_tokens);
        let latency: u64 = total(&rs, |r| r.latency_ms);
        let wall: u64 = total(&rs, |r| r.wall_ms);
        Some(MemoryRow {
            model,
            interface,
            memory_rounds: rounds,
            runs: rs.len(),
            steps,
            input_tokens_per_step: per_step(input as f64, steps),
            pg: pg(&rs),
            sr: sr(&rs),
            sec_per_step: per_step(latency as f64 / 1000.0, steps),
            wall_sec_per_step: per_step(wall as f64 / 1000.0, steps),
        })
    })
    .collect();

    // Table 11.
    let inv_rows: Vec<InvalidRow> = group(&ok, model_key)
        .into_iter()
        .map(|((model, interface), rs)| {
            let sum = |f: &dyn Fn(&RunResult) -> u32| total(&rs, |r| f(r) as u64);
            let proposed = sum(&|r| r.proposed_actions);
            let valid = sum(&|r| r.valid_actions);
            let ntc = sum(&|r| r.invalid_no_tool_call);
            let oos = sum(&|r| r.invalid_out_of_space);
            let pct = |x: u64| per_step(100.0 * x as f64, proposed);
            InvalidRow {
                model,
                interface,
                proposed,
                valid,
                no_tool_call: ntc,
                out_of_space: oos,
                iar: if proposed == 0 {
                    0.0
                } else {
                    100.0 * (1.0 - valid as f64 / proposed as f64)
                },
                ntc: pct(ntc),
                oos: pct(oos),
            }
        })
        .collect();
    let invalid_actions = InvalidReport {
        mean_iar: mean(inv_rows.iter().map(|r| r.iar)),
        mean_ntc: mean(inv_rows.iter().map(|r| r.ntc)),
        mean_oos: mean(inv_rows.iter().map(|r| r.oos)),
        rows: inv_rows,
    };

    // Table 13.
    let cost_rows: Vec<CostRow> = group(&with_result, model_key)
        .into_iter()
        .map(|((model, interface), rs)| {
            let steps: u64 = total(&rs, |r| r.steps as u64);
            let input: u64 = total(&rs, |r| r.input_tokens);
            let cached: u64 = total(&rs, |r| r.cached_input_tokens);
            let output: u64 = total(&rs, |r| r.output_tokens);
            let cost: f64 = rs.iter().map(|r| r.cost_usd).sum();
            CostRow {
                model,
                interface,
                runs: rs.len(),
                steps,
                input_tokens: input,
                cached_input_tokens: cached,
                output_tokens: output,
                input_tokens_per_step: per_step(input as f64, steps),
                output_tokens_per_step: per_step(output as f64, steps),
                cost_usd: cost,
                cost_per_run_usd: cost / rs.len() as f64,
            }
        })
        .collect();
    let cost = CostReport {
        total_cost_usd: cost_rows.iter().map(|r| r.cost_usd).sum(),
        total_input_tokens: total(&cost_rows, |r| r.input_tokens),
        total_cached_input_tokens: total(&cost_rows, |r| r.cached_input_tokens),
        total_output_tokens: total(&cost_rows, |r| r.output_tokens),
        rows: cost_rows,
    };

    let errors = rows
        .iter()
        .filter(|r| r.status != Status::Ok)
        .map(|r| ErrorRow {
            status: r.status.as_str().to_string(),
            dir: r.rel_dir.clone(),
            preset: r.preset.clone(),
            model: r.model.clone(),
            game_id: r.game_id.clone(),
            task_id: r.task_id.clone(),
            seed: r.seed,
            repeat: r.repeat,
            steps: r.result.as_ref().map(|x| x.steps),
            error: r.error.clone().unwrap_or_default(),
        })
        .collect();

    Summary {
        schema: "gameworld-report/1".to_string(),
        counts,
        leaderboard,
        heatmap,
        curriculum,
        repeats,
        realtime,
        memory,
        invalid_actions,
        cost,
        errors,
        chance_floors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_std_matches_hand_values() {
        assert_eq!(sample_std(&[1.0]), None);
        let s = sample_std(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert!((s - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn per_step_guards_zero_steps() {
        assert_eq!(per_step(5.0, 0), 0.0);
        assert_eq!(per_step(5.0, 2), 2.5);
    }
}
