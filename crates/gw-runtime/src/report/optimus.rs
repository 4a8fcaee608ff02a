//! The Optimus tables for open-world runs (game `openworld`): SR per
//! long-horizon group (Optimus-2 Table 3), average items per atomic task
//! (Table 2) and SR per open-ended task (Table 4), one row per agent, next to
//! the papers' published rows (labelled "published, not re-run").
//! Task ids carry the suite: `lh_<group>_<item>`, `atomic_<name>`,
//! `oe_<item>_<n>`.

/// Per task: (sum, runs).
type TaskSums = BTreeMap<String, (f64, u32)>;

use super::RunRow;
use std::collections::BTreeMap;
use std::fmt::Write;

pub const GROUPS: [&str; 7] = [
    "wood", "stone", "iron", "gold", "diamond", "redstone", "armor",
];
pub const ATOMIC: [&str; 4] = ["logs", "seeds", "dirt", "stone"];
pub const OPEN_ENDED: [&str; 5] = [
    "torch",
    "rail",
    "golden_shovel",
    "diamond_pickaxe",
    "compass",
];

/// Optimus-2 Table 3 and Optimus-3 Table 1 (group SR).
const PUBLISHED_GROUPS: [(&str, [f64; 7]); 4] = [
    (
        "Optimus-2 (GOAP)",
        [0.99, 0.93, 0.53, 0.09, 0.13, 0.28, 0.21],
    ),
    ("Optimus-3", [0.99, 0.95, 0.55, 0.10, 0.15, 0.28, 0.23]),
    (
        "Optimus-1 + STEVE-1",
        [0.98, 0.92, 0.46, 0.08, 0.11, 0.25, 0.19],
    ),
    ("Human", [1.0, 1.0, 0.86, 0.17, 0.16, 0.33, 0.28]),
];
/// Optimus-2 Table 2 (average items per episode).
const PUBLISHED_ATOMIC: [(&str, [f64; 4]); 3] = [
    ("GOAP [VPT head]", [15.0, 8.5, 26.7, 25.7]),
    ("GROOT", [14.3, 7.3, 19.7, 19.0]),
    ("STEVE-1", [11.0, 5.1, 10.0, 3.2]),
];
/// Optimus-2 Table 4 (SR).
const PUBLISHED_OPEN: [(&str, [f64; 5]); 2] = [
    ("GPT-4V + GOAP", [0.75, 0.47, 0.13, 0.16, 0.17]),
    ("GLM-4V + GOAP", [0.71, 0.39, 0.11, 0.14, 0.13]),
];

/// Which Optimus column a task id belongs to.
pub fn column(task_id: &str) -> Option<(&'static str, String)> {
    if let Some(rest) = task_id.strip_prefix("lh_") {
        let g = GROUPS.iter().find(|g| rest.starts_with(&format!("{g}_")))?;
        return Some(("long_horizon", g.to_string()));
    }
    if let Some(rest) = task_id.strip_prefix("atomic_") {
        return Some(("atomic", rest.to_string()));
    }
    if let Some(rest) = task_id.strip_prefix("oe_") {
        let item = rest.rsplit_once('_').map(|(a, _)| a).unwrap_or(rest);
        return Some(("open_ended", item.to_string()));
    }
    None
}

/// Per agent and column: (sum, n) of the per-task means, averaged over tasks
/// (a group's SR is the mean of its tasks' SRs, as the papers compute it).
fn table(
    rows: &[RunRow],
    suite: &str,
    value: impl Fn(&RunRow) -> Option<f64>,
) -> BTreeMap<String, BTreeMap<String, f64>> {
    // agent → column → task → (sum, n)
    let mut acc: BTreeMap<String, BTreeMap<String, TaskSums>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.game_id == "openworld") {
        let Some((s, col)) = column(&r.task_id) else {
            continue;
        };
        if s != suite {
            continue;
        }
        let Some(v) = value(r) else { continue };
        let e = acc
            .entry(r.model.clone())
            .or_default()
            .entry(col)
            .or_default()
            .entry(r.task_id.clone())
            .or_insert((0.0, 0));
        e.0 += v;
        e.1 += 1;
    }
    acc.into_iter()
        .map(|(agent, cols)| {
            let cols = cols
                .into_iter()
                .map(|(c, tasks)| {
                    let means: Vec<f64> = tasks.values().map(|(s, n)| s / *n as f64).collect();
                    (c, means.iter().sum::<f64>() / means.len() as f64)
                })
                .collect();
            (agent, cols)
        })
        .collect()
}

/// One Optimus table: this report's agents beside the published rows.
pub struct OptimusTable {
    pub title: &'static str,
    pub cols: Vec<&'static str>,
    /// agent → column → value.
    pub ours: BTreeMap<String, BTreeMap<String, f64>>,
    pub published: Vec<(&'static str, Vec<f64>)>,
    pub digits: usize,
}

impl OptimusTable {
    /// Rows as (label, cells), this report's agents first.
    fn rows(&self) -> Vec<(String, Vec<String>)> {
        let digits = self.digits;
        let mut out = Vec::new();
        for (agent, vals) in &self.ours {
            let cells = self
                .cols
                .iter()
                .map(|c| {
                    vals.get(*c)
                        .map(|v| format!("{v:.digits$}"))
                        .unwrap_or_else(|| "–".into())
                })
                .collect();
            out.push((format!("{agent} (this run)"), cells));
        }
        for (name, vals) in &self.published {
            let cells = vals.iter().map(|v| format!("{v:.digits$}")).collect();
            out.push((format!("{name} (published, not re-run)"), cells));
        }
        out
    }
}

/// The Optimus tables the open-world runs among `rows` fill (none without
/// open-world runs).
pub fn tables(rows: &[RunRow]) -> Vec<OptimusTable> {
    fn scored(r: &RunRow) -> Option<&crate::run::RunResult> {
        r.result.as_ref().filter(|x| x.error.is_none())
    }
    let lh = table(rows, "long_horizon", |r| {
        scored(r).map(|x| x.success as u8 as f64)
    });
    let at = table(rows, "atomic", |r| scored(r).map(|x| x.best_score));
    let oe = table(rows, "open_ended", |r| {
        scored(r).map(|x| x.success as u8 as f64)
    });
    let mut out = Vec::new();
    if !lh.is_empty() {
        out.push(OptimusTable {
            title: "Long-horizon SR per group (Optimus-2 Table 3)",
            cols: GROUPS.to_vec(),
            ours: lh,
            published: PUBLISHED_GROUPS
                .iter()
                .map(|(n, v)| (*n, v.to_vec()))
                .collect(),
            digits: 2,
        });
    }
    if !at.is_empty() {
        let extra = ["iron", "gold", "diamond", "redstone"];
        // The other four MGOA tasks have no published numbers.
        let has_extra = at
            .values()
            .any(|v| extra.iter().any(|c| v.contains_key(*c)));
        out.push(OptimusTable {
            title: "Atomic tasks: average items obtained (Optimus-2 Table 2; published rows cover logs, seeds, dirt, stone)",
            cols: ATOMIC.to_vec(),
            ours: at.clone(),
            published: PUBLISHED_ATOMIC
                .iter()
                .map(|(n, v)| (*n, v.to_vec()))
                .collect(),
            digits: 1,
        });
        if has_extra {
            out.push(OptimusTable {
                title: "Atomic tasks with starting pickaxes: average items obtained",
                cols: extra.to_vec(),
                ours: at,
                published: Vec::new(),
                digits: 1,
            });
        }
    }
    if !oe.is_empty() {
        out.push(OptimusTable {
            title: "Open-ended instruction tasks: SR per task (Optimus-2 Table 4)",
            cols: OPEN_ENDED.to_vec(),
            ours: oe,
            published: PUBLISHED_OPEN
                .iter()
                .map(|(n, v)| (*n, v.to_vec()))
                .collect(),
            digits: 2,
        });
    }
    out
}

/// The Optimus section of `report.md` (empty without open-world runs).
pub fn markdown(rows: &[RunRow]) -> String {
    let tables = tables(rows);
    if tables.is_empty() {
        return String::new();
    }
    let mut o = String::from("## Open world (Optimus suites)\n\n");
    for t in &tables {
        let _ = writeln!(o, "### {}\n", t.title);
        let _ = writeln!(o, "| agent | {} |", t.cols.join(" | "));
        let _ = writeln!(o, "|---|{}", "---|".repeat(t.cols.len()));
        for (label, cells) in t.rows() {
            let _ = writeln!(o, "| {label} | {} |", cells.join(" | "));
        }
        let _ = writeln!(o);
    }
    o
}

/// The same tables as a `report.html` section (empty without open-world runs).
pub fn html(rows: &[RunRow]) -> String {
    use super::cells::esc;
    let tables = tables(rows);
    if tables.is_empty() {
        return String::new();
    }
    let mut o = String::from(
        "<section id=\"openworld\"><h2>Open world <small>Optimus-2 Tables 2–4</small></h2><p class=\"note\">This report's agents on the open-world suites beside the papers' published rows (copied, not re-run).</p>",
    );
    for t in &tables {
        let _ = write!(
            o,
            "<h3>{}</h3><div class=\"scroll\"><table><thead><tr><th class=\"l\">Agent</th>",
            esc(t.title)
        );
        for c in &t.cols {
            let _ = write!(o, "<th>{}</th>", esc(c));
        }
        o.push_str("</tr></thead><tbody>");
        for (label, cells) in t.rows() {
            let published = label.ends_with("(published, not re-run)");
            let _ = write!(
                o,
                "<tr{}><td class=\"l\">{}</td>",
                if published {
                    " class=\"published\""
                } else {
                    ""
                },
                esc(&label)
            );
            for c in cells {
                let _ = write!(o, "<td>{}</td>", esc(&c));
            }
            o.push_str("</tr>");
        }
        o.push_str("</tbody></table></div>");
    }
    o.push_str("</section>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_ids_map_to_the_papers_columns() {
        assert_eq!(
            column("lh_iron_iron_pickaxe"),
            Some(("long_horizon", "iron".into()))
        );
        assert_eq!(
            column("lh_armor_golden_boots"),
            Some(("long_horizon", "armor".into()))
        );
        assert_eq!(column("atomic_logs"), Some(("atomic", "logs".into())));
        assert_eq!(
            column("oe_golden_shovel_3"),
            Some(("open_ended", "golden_shovel".into()))
        );
        assert_eq!(column("18_01"), None);
    }
}
