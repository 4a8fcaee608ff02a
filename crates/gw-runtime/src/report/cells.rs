//! Table cells shared by the Markdown and HTML reports (and the
//! leaderboard page): escaping, number formats, model labels and orders.

use super::stats::Summary;

/// The columns of the real-time vs paused table (Table 8), in both reports.
pub(crate) const REALTIME_HEAD: [&str; 9] = [
    "Model",
    "RT runs",
    "RT sec/step",
    "RT SR",
    "RT PG",
    "Paused runs",
    "Paused sec/step",
    "Paused SR",
    "Paused PG",
];

/// Every model + interface pair that has a result: leaderboard order first.
pub(crate) fn model_order(s: &Summary) -> Vec<(String, String)> {
    let mut keys: Vec<(String, String)> = s
        .leaderboard
        .iter()
        .map(|r| (r.model.clone(), r.interface.clone()))
        .collect();
    let mut rest: Vec<(String, String)> = s
        .cost
        .rows
        .iter()
        .map(|r| (r.model.clone(), r.interface.clone()))
        .filter(|k| !keys.contains(k))
        .collect();
    rest.sort();
    keys.extend(rest);
    keys
}

pub(crate) fn f1(x: f64) -> String {
    format!("{x:.1}")
}

pub(crate) fn pm(mean: f64, std: Option<f64>) -> String {
    match std {
        Some(s) => format!("{mean:.1} ± {s:.1}"),
        None => format!("{mean:.1}"),
    }
}

pub(crate) fn label(model: &str, interface: &str) -> String {
    format!("{model} ({interface})")
}

/// Escape text for HTML/XML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}
