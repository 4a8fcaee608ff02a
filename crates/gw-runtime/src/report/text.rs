//! CSV and Markdown renderings.

use super::cells::{REALTIME_HEAD, esc, f1, label, model_order, pm};
use super::stats::Summary;
use super::{RunRow, Status};
use std::fmt::Write;

/// One CSV field, quoted when needed.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv_line(out: &mut String, fields: &[String]) {
    let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
    out.push_str(&line.join(","));
    out.push('\n');
}

pub const RUNS_COLUMNS: &[&str] = &[
    "status",
    "dir",
    "preset",
    "game_id",
    "task_id",
    "model",
    "interface",
    "genre",
    "curriculum_level",
    "seed",
    "repeat",
    "realtime",
    "memory_rounds",
    "steps",
    "episodes",
    "success",
    "progress",
    "best_score",
    "start_score",
    "target_score",
    "stop_reason",
    "proposed_actions",
    "valid_actions",
    "invalid_no_tool_call",
    "invalid_out_of_space",
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "cost_usd",
    "latency_ms",
    "wall_ms",
    "error",
];

pub fn runs_csv(rows: &[RunRow]) -> String {
    let mut out = String::new();
    csv_line(
        &mut out,
        &RUNS_COLUMNS
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    for row in rows {
        let mut f = vec![
            row.status.as_str().to_string(),
            row.rel_dir.clone(),
            row.preset.clone(),
            row.game_id.clone(),
            row.task_id.clone(),
            row.model.clone(),
            row.interface.clone(),
        ];
        match &row.result {
            Some(r) => f.extend([
                r.genre.clone(),
                r.curriculum_level.to_string(),
                r.seed.to_string(),
                r.repeat.to_string(),
                r.realtime.to_string(),
                r.memory_rounds.map(|m| m.to_string()).unwrap_or_default(),
                r.steps.to_string(),
                r.episodes.to_string(),
                r.success.to_string(),
                r.progress.to_string(),
                r.best_score.to_string(),
                r.start_score.to_string(),
                r.target_score.to_string(),
                r.stop_reason.clone(),
                r.proposed_actions.to_string(),
                r.valid_actions.to_string(),
                r.invalid_no_tool_call.to_string(),
                r.invalid_out_of_space.to_string(),
                r.input_tokens.to_string(),
                r.cached_input_tokens.to_string(),
                r.output_tokens.to_string(),
                r.cost_usd.to_string(),
                r.latency_ms.to_string(),
                r.wall_ms.to_string(),
            ]),
            None => {
                f.extend([String::new(), String::new()]);
                f.extend([row.seed.to_string(), row.repeat.to_string()]);
                f.extend(std::iter::repeat_n(String::new(), 20));
            }
        }
        f.push(row.error.clone().unwrap_or_default());
        debug_assert_eq!(f.len(), RUNS_COLUMNS.len());
        csv_line(&mut out, &f);
    }
    out
}

fn opt(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

pub fn by_model_csv(s: &Summary) -> String {
    let mut out = String::new();
    let mut head: Vec<String> = ["model", "interface", "rank", "runs", "sr", "pg"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    for g in &s.counts.genres {
        head.push(format!("sr_{g}"));
        head.push(format!("pg_{g}"));
    }
    for h in [
        "repeats",
        "sr_std",
        "pg_std",
        "iar",
        "ntc",
        "oos",
        "input_tokens_per_step",
        "output_tokens_per_step",
        "cost_usd",
        "cost_per_run_usd",
    ] {
        head.push(h.to_string());
    }
    csv_line(&mut out, &head);
    for (model, interface) in model_order(s) {
        let is = |m: &String, i: &String| *m == model && *i == interface;
        let lead = s.leaderboard.iter().find(|r| is(&r.model, &r.interface));
        let rep = s.repeats.iter().find(|r| is(&r.model, &r.interface));
        let inv = s
            .invalid_actions
            .rows
            .iter()
            .find(|r| is(&r.model, &r.interface));
        let cost = s.cost.rows.iter().find(|r| is(&r.model, &r.interface));
        let mut f = vec![
            model.clone(),
            interface.clone(),
            lead.map(|r| r.rank.to_string()).unwrap_or_default(),
            lead.map(|r| r.runs.to_string()).unwrap_or_default(),
            opt(lead.map(|r| r.sr)),
            opt(lead.map(|r| r.pg)),
        ];
        for g in &s.counts.genres {
            let c = lead.and_then(|r| r.by_genre.get(g));
            f.push(opt(c.map(|c| c.sr)));
            f.push(opt(c.map(|c| c.pg)));
        }
        f.extend([
            rep.map(|r| r.repeats.to_string()).unwrap_or_default(),
            opt(rep.and_then(|r| r.sr_std)),
            opt(rep.and_then(|r| r.pg_std)),
            opt(inv.map(|r| r.iar)),
            opt(inv.map(|r| r.ntc)),
            opt(inv.map(|r| r.oos)),
            opt(cost.map(|r| r.input_tokens_per_step)),
            opt(cost.map(|r| r.output_tokens_per_step)),
            opt(cost.map(|r| r.cost_usd)),
            opt(cost.map(|r| r.cost_per_run_usd)),
        ]);
        csv_line(&mut out, &f);
    }
    out
}

/// A Markdown table cell: HTML escaped (Markdown renderers pass raw HTML
/// through, so a model name or error text could inject markup), `|` escaped,
/// line breaks and other control characters flattened.
pub(crate) fn md_escape(s: &str) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    esc(&flat).replace('|', "\\|")
}

fn md_table(out: &mut String, head: &[&str], rows: &[Vec<String>]) {
    let head: Vec<String> = head.iter().map(|h| md_escape(h)).collect();
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(
        out,
        "|{}|",
        head.iter()
            .enumerate()
            .map(|(i, _)| if i == 0 { "---" } else { "---:" })
            .collect::<Vec<_>>()
            .join("|")
    );
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| md_escape(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// The chance-floor table: what `random` and `noop` reach on each task.
fn chance_section(o: &mut String, s: &Summary) {
    let _ = writeln!(o, "## Chance floors\n");
    if s.chance_floors.is_empty() {
        let _ = writeln!(
            o,
            "No `random` or `noop` runs were found, so there are no chance floors and no \
             chance-adjusted progress. Run `gameworld suite registry/suites/baselines.yaml` \
             and pass its folder with `--baselines DIR`.\n"
        );
        return;
    }
    let flagged = s.chance_floors.iter().filter(|f| f.flagged).count();
    let _ = writeln!(
        o,
        "Floor = the higher mean progress of `random` and `noop` on the task. PG above chance \
         = mean over runs of (PG − floor) / (1 − floor), clamped at 0. {flagged} task(s) \
         marked ⚠ are solved by chance in at least half the baseline runs.\n"
    );
    let body: Vec<Vec<String>> = s
        .chance_floors
        .iter()
        .map(|f| {
            let cell = |a: &str| {
                f.agents
                    .get(a)
                    .map(|c| format!("{} / {} ({})", f1(c.sr), f1(c.pg), c.runs))
                    .unwrap_or_else(|| "–".into())
            };
            vec![
                format!("{}+{}", f.game_id, f.task_id),
                cell("random"),
                cell("noop"),
                f1(f.chance_sr),
                f1(f.floor_pg),
                if f.flagged {
                    "⚠".into()
                } else {
                    String::new()
                },
            ]
        })
        .collect();
    md_table(
        o,
        &[
            "Task",
            "random SR / PG (runs)",
            "noop SR / PG (runs)",
            "Chance SR",
            "Floor PG",
            "SR ≥ 50%",
        ],
        &body,
    );
}

pub fn markdown(s: &Summary, rows: &[RunRow], links: &[String]) -> String {
    let c = &s.counts;
    let mut o = String::new();
    let _ = writeln!(o, "# GameWorld report\n");
    let _ = writeln!(
        o,
        "{} runs: {} completed ({} paused, {} real-time), {} partial, {} failed to start. \
         {} model/interface pairs, {} games, {} tasks, {} seeds, {} repeats.\n",
        c.runs,
        c.ok,
        c.scored,
        c.realtime,
        c.partial,
        c.failed,
        c.models,
        c.games,
        c.tasks,
        c.seeds,
        c.repeats
    );
    let _ = writeln!(
        o,
        "SR = success rate, PG = mean progress, both in %. Leaderboard, heatmap, curriculum and \
         repeats use completed paused runs; partial and failed runs are listed under Errors.\n"
    );

    let _ = writeln!(o, "## Leaderboard (Table 6)\n");
    let mut head: Vec<String> = vec![
        "Rank".into(),
        "Model".into(),
        "Interface".into(),
        "Runs".into(),
    ];
    for g in &c.genres {
        head.push(format!("{g} SR"));
        head.push(format!("{g} PG"));
    }
    head.push("Overall SR".into());
    head.push("Overall PG".into());
    head.push("PG above chance".into());
    let body: Vec<Vec<String>> = s
        .leaderboard
        .iter()
        .map(|r| {
            let mut v = vec![
                r.rank.to_string(),
                r.model.clone(),
                r.interface.clone(),
                r.runs.to_string(),
            ];
            for g in &c.genres {
                match r.by_genre.get(g) {
                    Some(x) => v.extend([f1(x.sr), f1(x.pg)]),
                    None => v.extend(["–".into(), "–".into()]),
                }
            }
            v.extend([f1(r.sr), f1(r.pg)]);
            v.push(r.pg_chance_adjusted.map(f1).unwrap_or_else(|| "–".into()));
            v
        })
        .collect();
    md_table(
        &mut o,
        &head.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        &body,
    );
    chance_section(&mut o, s);

    let _ = writeln!(o, "## Per-game progress (Fig. 3)\n");
    let mut head = vec!["Model".to_string()];
    head.extend(c.game_ids.iter().cloned());
    let body: Vec<Vec<String>> = s
        .heatmap
        .iter()
        .map(|r| {
            let mut v = vec![label(&r.model, &r.interface)];
            v.extend(c.game_ids.iter().map(|g| {
                r.games
                    .get(g)
                    .map(|x| f1(x.pg))
                    .unwrap_or_else(|| "–".into())
            }));
            v
        })
        .collect();
    md_table(
        &mut o,
        &head.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        &body,
    );

    let _ = writeln!(o, "## Curriculum levels, PG (Fig. 5)\n");
    let body: Vec<Vec<String>> = s
        .curriculum
        .iter()
        .map(|r| {
            let mut v = vec![label(&r.model, &r.interface)];
            v.extend((1..=5).map(|l| {
                r.levels
                    .get(&l.to_string())
                    .map(|x| f1(x.pg))
                    .unwrap_or_else(|| "–".into())
            }));
            v
        })
        .collect();
    md_table(&mut o, &["Model", "L1", "L2", "L3", "L4", "L5"], &body);

    let _ = writeln!(o, "## Repeat robustness (Table 7)\n");
    let body: Vec<Vec<String>> = s
        .repeats
        .iter()
        .map(|r| {
            vec![
                r.model.clone(),
                r.interface.clone(),
                r.repeats.to_string(),
                pm(r.sr_mean, r.sr_std),
                pm(r.pg_mean, r.pg_std),
            ]
        })
        .collect();
    md_table(
        &mut o,
        &["Model", "Interface", "Repeats", "SR", "PG"],
        &body,
    );

    let _ = writeln!(o, "## Real-time vs paused (Table 8)\n");
    if s.realtime.iter().all(|r| r.realtime.is_none()) {
        let _ = writeln!(o, "No real-time runs.\n");
    }
    let cell = |m: &Option<super::stats::ModeCell>| match m {
        Some(m) => vec![
            m.runs.to_string(),
            format!("{:.2}", m.sec_per_step),
            f1(m.sr),
            f1(m.pg),
        ],
        None => vec!["0".into(), "–".into(), "–".into(), "–".into()],
    };
    let body: Vec<Vec<String>> = s
        .realtime
        .iter()
        .map(|r| {
            let mut v = vec![label(&r.model, &r.interface)];
            v.extend(cell(&r.realtime));
            v.extend(cell(&r.paused));
            v
        })
        .collect();
    md_table(&mut o, &REALTIME_HEAD, &body);

    let _ = writeln!(o, "## Memory rounds (Table 9)\n");
    if s.memory.is_empty() {
        let _ = writeln!(o, "No model-agent runs (built-in agents keep no memory).\n");
    } else {
        let body: Vec<Vec<String>> = s
            .memory
            .iter()
            .map(|r| {
                vec![
                    r.memory_rounds.to_string(),
                    label(&r.model, &r.interface),
                    r.runs.to_string(),
                    format!("{:.0}", r.input_tokens_per_step),
                    format!("{:.2}", r.sec_per_step),
                    f1(r.pg),
                ]
            })
            .collect();
        md_table(
            &mut o,
            &[
                "Memory rounds",
                "Model",
                "Runs",
                "Input tokens/step",
                "sec/step",
                "PG",
            ],
            &body,
        );
    }

    let _ = writeln!(o, "## Invalid actions (Table 11)\n");
    let mut body: Vec<Vec<String>> = s
        .invalid_actions
        .rows
        .iter()
        .map(|r| {
            vec![
                label(&r.model, &r.interface),
                r.proposed.to_string(),
                format!("{:.2}", r.iar),
                format!("{:.2}", r.ntc),
                format!("{:.2}", r.oos),
            ]
        })
        .collect();
    if let (Some(i), Some(n), Some(x)) = (
        s.invalid_actions.mean_iar,
        s.invalid_actions.mean_ntc,
        s.invalid_actions.mean_oos,
    ) {
        body.push(vec![
            "Mean over models".into(),
            String::new(),
            format!("{i:.2}"),
            format!("{n:.2}"),
            format!("{x:.2}"),
        ]);
    }
    md_table(
        &mut o,
        &["Model", "Proposed", "IAR %", "NTC %", "OOS %"],
        &body,
    );

    let _ = writeln!(o, "## Tokens and cost (Table 13)\n");
    let mut body: Vec<Vec<String>> = s
        .cost
        .rows
        .iter()
        .map(|r| {
            vec![
                label(&r.model, &r.interface),
                r.runs.to_string(),
                format!("{:.1}", r.input_tokens_per_step),
                format!("{:.1}", r.output_tokens_per_step),
                format!("{:.4}", r.cost_per_run_usd),
                format!("{:.2}", r.cost_usd),
            ]
        })
        .collect();
    body.push(vec![
        "Total".into(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        format!("{:.2}", s.cost.total_cost_usd),
    ]);
    md_table(
        &mut o,
        &[
            "Model",
            "Runs",
            "Input tokens/step (incl. cached)",
            "Output tokens/step",
            "USD/run",
            "USD total",
        ],
        &body,
    );

    let _ = writeln!(o, "## Errors\n");
    if s.errors.is_empty() {
        let _ = writeln!(o, "None.\n");
    } else {
        let body: Vec<Vec<String>> = s
            .errors
            .iter()
            .map(|e| {
                vec![
                    e.status.clone(),
                    e.preset.clone(),
                    e.seed.to_string(),
                    e.repeat.to_string(),
                    e.dir.clone(),
                    e.error.clone(),
                ]
            })
            .collect();
        md_table(
            &mut o,
            &["Status", "Preset", "Seed", "Repeat", "Directory", "Error"],
            &body,
        );
    }

    let _ = writeln!(o, "## Runs\n");
    let body: Vec<Vec<String>> = rows
        .iter()
        .zip(links)
        .map(|(r, link)| {
            let res = r.result.as_ref();
            vec![
                r.preset.clone(),
                r.seed.to_string(),
                r.repeat.to_string(),
                r.status.as_str().to_string(),
                res.map(|x| if x.realtime { "real-time" } else { "paused" }.to_string())
                    .unwrap_or_default(),
                res.map(|x| x.steps.to_string()).unwrap_or_default(),
                res.map(|x| format!("{:.2}", x.progress))
                    .unwrap_or_default(),
                match r.status {
                    Status::Failed => "–".into(),
                    _ => res.map(|x| x.success.to_string()).unwrap_or_default(),
                },
                format!("[{}]({})", r.rel_dir, link),
            ]
        })
        .collect();
    md_table(
        &mut o,
        &[
            "Preset", "Seed", "Repeat", "Status", "Mode", "Steps", "Progress", "Success", "Run",
        ],
        &body,
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_escape_html_and_pipes() {
        assert_eq!(
            md_escape("<script>alert('x')</script> a|b & \"c\"\nd"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; a\\|b &amp; &quot;c&quot; d"
        );
        assert_eq!(
            md_escape("<img src=x onerror=1>\u{1b}[31m"),
            "&lt;img src=x onerror=1&gt; [31m"
        );
    }

    #[test]
    fn csv_quotes_only_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
    }
}
