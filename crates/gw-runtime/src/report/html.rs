//! `report.html`: one self-contained page (inline CSS, hand-written SVG, no
//! scripts, no external assets) that opens offline.

use super::cells::{REALTIME_HEAD, esc, f1, label, model_order, pm};
use super::stats::{ModeCell, Summary};
use super::{RunRow, Status};
use std::fmt::Write;
use std::path::{Component, Path, PathBuf};

/// Percent-encode a relative path for use in a link.
fn url_path(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/+".contains(&b) {
            o.push(b as char);
        } else {
            let _ = write!(o, "%{b:02X}");
        }
    }
    o
}

fn absolute(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    })
}

/// `target` as a path relative to `base` ("." when equal).
fn relative(target: &Path, base: &Path) -> String {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), b.len() - common).collect();
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// Served by `gameworld serve` (at `/report/<dir>/report.html?root=N`), the
/// report links each run to the web app's viewer; opened from disk it does not.
const VIEWER_LINKS_JS: &str = r#"<script>
(function () {
  var m = location.pathname.match(/^\/report\/(.*?)report\.html$/);
  if (!m) return;
  var root = new URLSearchParams(location.search).get("root") || "0";
  document.querySelectorAll("a.viewer-link").forEach(function (a) {
    var parts = (decodeURIComponent(m[1]) + decodeURIComponent(a.dataset.run)).split("/"), out = [];
    parts.forEach(function (p) { if (p === "..") out.pop(); else if (p && p !== ".") out.push(p); });
    a.href = "/#/run?root=" + encodeURIComponent(root) + "&path=" + encodeURIComponent(out.join("/"));
    a.parentNode.hidden = false;
    // The server serves report files, not folders: the row's folder and
    // frames links open the viewer too.
    var cell = a.closest("td");
    if (cell) cell.querySelectorAll("a.run-link, a.frames-link").forEach(function (b) { b.href = a.href; });
  });
})();
</script>"#;

/// Link (relative to `out`, percent-encoded) to each row's run directory.
pub fn run_links(rows: &[RunRow], out: &Path) -> Vec<String> {
    let base = absolute(out);
    rows.iter()
        .map(|r| url_path(&relative(&absolute(&r.dir), &base)))
        .collect()
}

/// Progress colour: red (0) → yellow (0.5) → green (1), like the paper's Fig. 3.
pub(crate) fn heat_color(p: f64) -> String {
    let p = p.clamp(0.0, 1.0);
    let stops = [
        (0.0, (215, 48, 39)),
        (0.5, (254, 224, 139)),
        (1.0, (26, 152, 80)),
    ];
    let (a, b) = if p <= 0.5 {
        (stops[0], stops[1])
    } else {
        (stops[1], stops[2])
    };
    let t = (p - a.0) / (b.0 - a.0);
    let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.1.0, b.1.0),
        mix(a.1.1, b.1.1),
        mix(a.1.2, b.1.2)
    )
}

const PALETTE: &[&str] = &[
    "#4c6ef5", "#e8590c", "#2b8a3e", "#c2255c", "#7048e8", "#0c8599", "#d9480f", "#5c940d",
    "#862e9c", "#1864ab", "#a61e4d", "#495057",
];

fn color_of(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

pub(crate) const CSS: &str = r#"
:root{--bg:#f4f6fa;--card:#fff;--ink:#1d2433;--muted:#667085;--line:#e4e7ec;--accent:#4c6ef5}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header{background:linear-gradient(120deg,#1d2433,#34406b);color:#fff;padding:28px 40px 24px}
header h1{margin:0 0 4px;font-size:26px;letter-spacing:.2px}
header p{margin:0;color:#c9d1e6}
main{max-width:1340px;margin:0 auto;padding:24px 24px 48px}
#leaderboard th{white-space:normal}#leaderboard th,#leaderboard td{padding:6px 6px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:-40px 0 20px}
.card{background:var(--card);border-radius:12px;padding:14px 16px;box-shadow:0 1px 3px rgba(16,24,40,.08),0 1px 2px rgba(16,24,40,.04)}
.card .v{font-size:24px;font-weight:650;font-variant-numeric:tabular-nums}
.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.6px}
.card.bad .v{color:#c92a2a}
section{background:var(--card);border-radius:14px;padding:20px 24px;margin:0 0 20px;box-shadow:0 1px 3px rgba(16,24,40,.08)}
section h2{margin:0 0 4px;font-size:18px}
section h2 small{color:var(--muted);font-weight:400;font-size:13px;margin-left:6px}
section h3{margin:14px 0 6px;font-size:15px}
details>summary{cursor:pointer}details>summary h2{display:inline}
tr.published td{color:var(--muted);font-style:italic}
.note{color:var(--muted);margin:0 0 14px;font-size:13px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);white-space:nowrap}
th{background:#f8f9fc;color:#475467;font-weight:600;font-size:12px;text-align:right;position:sticky;top:0}
th.l,td.l{text-align:left}
td{text-align:right}
tbody tr:nth-child(even){background:#fbfcfe}
tbody tr:hover{background:#eef2ff}
td.pg{font-weight:600}
.tag{display:inline-block;padding:1px 8px;border-radius:10px;font-size:11px;font-weight:600;background:#edf2ff;color:#364fc7}
.tag.computer-use{background:#fff4e6;color:#d9480f}
.st-ok{color:#2b8a3e;font-weight:600}.st-partial{color:#e67700;font-weight:600}.st-failed{color:#c92a2a;font-weight:600}
.rank{display:inline-block;width:24px;height:24px;line-height:24px;border-radius:50%;background:#eef2ff;color:#364fc7;text-align:center;font-weight:700;font-size:12px}
.rank.r1{background:#ffd43b;color:#5c3d00}.rank.r2{background:#dee2e6;color:#343a40}.rank.r3{background:#f4c29b;color:#6b3a12}
.bar{display:inline-block;height:6px;border-radius:3px;background:var(--accent);vertical-align:middle;margin-left:6px}
a{color:#3b5bdb;text-decoration:none}a:hover{text-decoration:underline}
.err{white-space:normal;text-align:left;color:#862e2e;max-width:560px}
.charts{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
svg text{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Arial,sans-serif}
footer{color:var(--muted);text-align:center;font-size:12px;padding:0 0 24px}
"#;

fn tag(interface: &str) -> String {
    format!(
        "<span class=\"tag {}\">{}</span>",
        esc(interface),
        esc(interface)
    )
}

pub(crate) fn pg_td(pg: f64) -> String {
    format!(
        "<td class=\"pg\" style=\"background:{}33\">{}</td>",
        heat_color(pg / 100.0),
        f1(pg)
    )
}

/// The per-game heatmap (Fig. 3): one `hm-cell` per model × game with runs.
fn heatmap_svg(s: &Summary) -> String {
    let games = &s.counts.game_ids;
    let rows = &s.heatmap;
    let labels: Vec<String> = rows.iter().map(|r| label(&r.model, &r.interface)).collect();
    let left = (labels.iter().map(|l| l.chars().count()).max().unwrap_or(8) as f64 * 7.0 + 16.0)
        .clamp(90.0, 300.0);
    let (cw, ch) = (46.0, 30.0);
    let top = (games.iter().map(|g| g.chars().count()).max().unwrap_or(6) as f64 * 5.4 + 20.0)
        .clamp(50.0, 180.0);
    // Room on the right for the last rotated labels and for the legend.
    let w = (left + cw * games.len() as f64 + top * 0.7).max(left + 380.0);
    let h = top + ch * rows.len() as f64 + 56.0;
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart heatmap\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"Per-game progress heatmap\">"
    );
    o.push_str("<defs><linearGradient id=\"hm-grad\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">");
    for i in 0..=4 {
        let p = i as f64 / 4.0;
        let _ = write!(
            o,
            "<stop offset=\"{:.0}%\" stop-color=\"{}\"/>",
            p * 100.0,
            heat_color(p)
        );
    }
    o.push_str("</linearGradient></defs>");
    for (j, g) in games.iter().enumerate() {
        let x = left + cw * j as f64 + cw / 2.0;
        let _ = write!(
            o,
            "<text class=\"hm-game\" x=\"{x:.1}\" y=\"{:.1}\" transform=\"rotate(-50 {x:.1} {:.1})\" font-size=\"11\" fill=\"#475467\">{}</text>",
            top - 8.0,
            top - 8.0,
            esc(g)
        );
    }
    for (i, (row, lab)) in rows.iter().zip(&labels).enumerate() {
        let y = top + ch * i as f64;
        let _ = write!(
            o,
            "<text class=\"hm-model\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"12\" fill=\"#1d2433\">{}</text>",
            left - 8.0,
            y + ch / 2.0 + 4.0,
            esc(lab)
        );
        for (j, g) in games.iter().enumerate() {
            let x = left + cw * j as f64;
            match row.games.get(g) {
                Some(c) => {
                    let fill = heat_color(c.pg / 100.0);
                    let _ = write!(
                        o,
                        "<g><rect class=\"hm-cell\" data-model=\"{}\" data-interface=\"{}\" data-game=\"{}\" data-pg=\"{:.4}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\" fill=\"{fill}\"><title>{} · {}: PG {:.1}%, SR {:.1}% ({} runs)</title></rect>",
                        esc(&row.model),
                        esc(&row.interface),
                        esc(g),
                        c.pg,
                        x + 1.0,
                        y + 1.0,
                        cw - 2.0,
                        ch - 2.0,
                        esc(lab),
                        esc(g),
                        c.pg,
                        c.sr,
                        c.runs
                    );
                    let ink = if (25.0..=80.0).contains(&c.pg) {
                        "#1d2433"
                    } else {
                        "#ffffff"
                    };
                    let _ = write!(
                        o,
                        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"600\" fill=\"{ink}\">{:.0}</text></g>",
                        x + cw / 2.0,
                        y + ch / 2.0 + 4.0,
                        c.pg
                    );
                }
                None => {
                    let _ = write!(
                        o,
                        "<rect class=\"hm-empty\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\" fill=\"#f1f3f5\"/>",
                        x + 1.0,
                        y + 1.0,
                        cw - 2.0,
                        ch - 2.0
                    );
                }
            }
        }
    }
    let ly = top + ch * rows.len() as f64 + 18.0;
    let _ = write!(
        o,
        "<text x=\"{left:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#667085\">0%</text><rect x=\"{:.1}\" y=\"{:.1}\" width=\"200\" height=\"12\" rx=\"3\" fill=\"url(#hm-grad)\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#667085\">100% mean progress</text>",
        ly + 10.0,
        left + 24.0,
        ly,
        left + 230.0,
        ly + 10.0
    );
    o.push_str("</svg>");
    o
}

/// One radar (Fig. 5) for the models of one interface.
fn radar_svg(s: &Summary, interface: &str, colors: &[(String, String, &str)]) -> String {
    let rows: Vec<_> = s
        .curriculum
        .iter()
        .filter(|r| r.interface == interface)
        .collect();
    let (cx, cy, rad) = (285.0, 195.0, 140.0);
    let legend_h = 22.0 * rows.len() as f64;
    let lx0 = 560.0;
    let w = 790.0;
    let h = (390.0f64).max(legend_h + 60.0);
    let ang = |i: usize| (-90.0 + 72.0 * i as f64).to_radians();
    let pt = |i: usize, v: f64| {
        (
            cx + rad * v / 100.0 * ang(i).cos(),
            cy + rad * v / 100.0 * ang(i).sin(),
        )
    };
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart radar\" data-interface=\"{}\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"Curriculum radar\">",
        esc(interface)
    );
    for ring in [25.0, 50.0, 75.0, 100.0] {
        let pts: Vec<String> = (0..5)
            .map(|i| {
                let (x, y) = pt(i, ring);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = write!(
            o,
            "<polygon points=\"{}\" fill=\"none\" stroke=\"#dee2e6\" stroke-width=\"1\"/>",
            pts.join(" ")
        );
        let (x, y) = pt(0, ring);
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#98a2b3\">{ring:.0}</text>",
            x + 4.0,
            y + 10.0
        );
    }
    let names = [
        "L1 control & timing",
        "L2 reactive control",
        "L3 spatial navigation",
        "L4 symbolic strategy",
        "L5 open world",
    ];
    for (i, name) in names.iter().enumerate() {
        let (x, y) = pt(i, 100.0);
        let _ = write!(
            o,
            "<line x1=\"{cx}\" y1=\"{cy}\" x2=\"{x:.1}\" y2=\"{y:.1}\" stroke=\"#dee2e6\"/>"
        );
        let (lx, ly) = pt(i, 118.0);
        let anchor = if (lx - cx).abs() < 5.0 {
            "middle"
        } else if lx > cx {
            "start"
        } else {
            "end"
        };
        let _ = write!(
            o,
            "<text class=\"radar-axis\" x=\"{lx:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" font-size=\"12\" font-weight=\"600\" fill=\"#475467\">{}</text>",
            ly + 4.0,
            esc(name)
        );
    }
    for (k, row) in rows.iter().enumerate() {
        let color = colors
            .iter()
            .find(|c| c.0 == row.model && c.1 == row.interface)
            .map(|c| c.2)
            .unwrap_or("#495057");
        let vals: Vec<Option<f64>> = (1..=5)
            .map(|l| row.levels.get(&l.to_string()).map(|c| c.pg))
            .collect();
        let pts: Vec<String> = vals
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let (x, y) = pt(i, v.unwrap_or(0.0));
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = write!(
            o,
            "<polygon class=\"radar-series\" data-model=\"{}\" data-interface=\"{}\" points=\"{}\" fill=\"{color}\" fill-opacity=\"0.12\" stroke=\"{color}\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
            esc(&row.model),
            esc(&row.interface),
            pts.join(" ")
        );
        for (i, v) in vals.iter().enumerate() {
            let (x, y) = pt(i, v.unwrap_or(0.0));
            let fill = if v.is_some() { color } else { "#ffffff" };
            let _ = write!(
                o,
                "<circle class=\"radar-point\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{fill}\" stroke=\"{color}\" stroke-width=\"1.5\"><title>{} · L{}: {}</title></circle>",
                esc(&row.model),
                i + 1,
                v.map(|v| format!("PG {v:.1}%"))
                    .unwrap_or_else(|| "no runs".into())
            );
        }
        let ly = 40.0 + 22.0 * k as f64;
        let _ = write!(
            o,
            "<rect x=\"{lx0}\" y=\"{:.1}\" width=\"14\" height=\"14\" rx=\"3\" fill=\"{color}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" fill=\"#1d2433\">{}</text>",
            ly - 11.0,
            lx0 + 22.0,
            ly,
            esc(&row.model)
        );
    }
    let _ = write!(
        o,
        "<text x=\"{lx0}\" y=\"18\" font-size=\"12\" font-weight=\"700\" fill=\"#475467\">{} agents</text></svg>",
        esc(interface)
    );
    o
}

/// Horizontal bars with ±1 std whiskers: (label, mean, std) in percent.
fn bars_svg(class: &str, title: &str, items: &[(String, f64, Option<f64>)], color: &str) -> String {
    let left = (items.iter().map(|i| i.0.chars().count()).max().unwrap_or(6) as f64 * 6.8 + 16.0)
        .clamp(80.0, 320.0);
    let plot = 360.0;
    let bh = 22.0;
    let top = 30.0;
    let w = left + plot + 100.0;
    let h = top + bh * items.len() as f64 + 30.0;
    let sx = |v: f64| left + plot * v.clamp(0.0, 100.0) / 100.0;
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bars {class}\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\" aria-label=\"{}\"><text x=\"{left:.1}\" y=\"16\" font-size=\"12\" font-weight=\"700\" fill=\"#475467\">{}</text>",
        esc(title),
        esc(title)
    );
    for t in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let x = sx(t);
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eef0f3\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\" fill=\"#98a2b3\">{t:.0}</text>",
            top - 4.0,
            top + bh * items.len() as f64,
            top + bh * items.len() as f64 + 14.0
        );
    }
    for (i, (lab, mean, std)) in items.iter().enumerate() {
        let y = top + bh * i as f64;
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\" fill=\"#1d2433\">{}</text><rect class=\"{class}-bar\" data-label=\"{}\" data-mean=\"{mean:.4}\" x=\"{left:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"3\" fill=\"{color}\"><title>{}: {}</title></rect>",
            left - 8.0,
            y + bh / 2.0 + 4.0,
            esc(lab),
            esc(lab),
            y + 4.0,
            (sx(*mean) - left).max(0.5),
            bh - 8.0,
            esc(lab),
            esc(&pm(*mean, *std))
        );
        if let Some(sd) = std {
            let (x0, x1) = (sx(mean - sd), sx(mean + sd));
            let yc = y + bh / 2.0;
            let _ = write!(
                o,
                "<g class=\"{class}-err\" stroke=\"#1d2433\" stroke-width=\"1.3\"><line x1=\"{x0:.1}\" y1=\"{yc:.1}\" x2=\"{x1:.1}\" y2=\"{yc:.1}\"/><line x1=\"{x0:.1}\" y1=\"{:.1}\" x2=\"{x0:.1}\" y2=\"{:.1}\"/><line x1=\"{x1:.1}\" y1=\"{:.1}\" x2=\"{x1:.1}\" y2=\"{:.1}\"/></g>",
                yc - 5.0,
                yc + 5.0,
                yc - 5.0,
                yc + 5.0
            );
        }
        let tx = sx(mean + std.unwrap_or(0.0)) + 6.0;
        let _ = write!(
            o,
            "<text x=\"{tx:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#475467\">{}</text>",
            y + bh / 2.0 + 4.0,
            esc(&pm(*mean, *std))
        );
    }
    o.push_str("</svg>");
    o
}

pub(crate) fn table(head: &[(&str, bool)], rows: &[Vec<String>]) -> String {
    let mut o = String::from("<div class=\"scroll\"><table><thead><tr>");
    for (h, left) in head {
        let _ = write!(
            o,
            "<th{}>{}</th>",
            if *left { " class=\"l\"" } else { "" },
            esc(h)
        );
    }
    o.push_str("</tr></thead><tbody>");
    for r in rows {
        o.push_str("<tr>");
        for c in r {
            // Cells are pre-rendered `<td…>` elements.
            o.push_str(c);
        }
        o.push_str("</tr>");
    }
    o.push_str("</tbody></table></div>");
    o
}

pub(crate) fn td(s: &str) -> String {
    format!("<td>{}</td>", esc(s))
}

pub(crate) fn tdl(s: &str) -> String {
    format!("<td class=\"l\">{}</td>", esc(s))
}

/// The first columns of a ranked table (the leaderboard, the leaderboard
/// page): rank, model and interface, runs.
pub(crate) fn ranked_head() -> Vec<(String, bool)> {
    vec![
        ("#".into(), false),
        ("Model".into(), true),
        ("Runs".into(), false),
    ]
}

/// The cells under [`ranked_head`].
pub(crate) fn ranked_cells(rank: usize, model: &str, interface: &str, runs: usize) -> Vec<String> {
    vec![
        format!(
            "<td><span class=\"rank r{}\">{rank}</span></td>",
            rank.min(4)
        ),
        model_td(model, interface),
        td(&runs.to_string()),
    ]
}

pub(crate) fn model_td(model: &str, interface: &str) -> String {
    format!(
        "<td class=\"l\"><b>{}</b> {}</td>",
        esc(model),
        tag(interface)
    )
}

pub fn render(s: &Summary, rows: &[RunRow], links: &[String]) -> String {
    let c = &s.counts;
    let colors: Vec<(String, String, &str)> = model_order(s)
        .into_iter()
        .enumerate()
        .map(|(i, (m, it))| (m, it, color_of(i)))
        .collect();
    let mut o = String::new();
    o.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>GameWorld report</title><style>");
    o.push_str(CSS);
    o.push_str("</style></head><body>");
    let _ = write!(
        o,
        "<header><h1>GameWorld report</h1><p>{} model/interface pairs · {} games · {} tasks · {} seeds · {} repeat(s). SR = success rate, PG = mean progress toward the task target, both in percent.</p></header><main>",
        c.models, c.games, c.tasks, c.seeds, c.repeats
    );
    let best = s.leaderboard.first();
    let cards: Vec<(String, String, bool)> = vec![
        (c.runs.to_string(), "runs found".into(), false),
        (c.scored.to_string(), "scored (paused)".into(), false),
        (c.realtime.to_string(), "real-time".into(), false),
        (
            best.map(|b| f1(b.pg)).unwrap_or_else(|| "–".into()),
            best.map(|b| format!("best PG · {}", b.model))
                .unwrap_or_else(|| "best PG".into()),
            false,
        ),
        (
            format!("{:.2}", s.cost.total_cost_usd),
            "USD spent".into(),
            false,
        ),
        (
            (c.partial + c.failed).to_string(),
            "errors".into(),
            c.partial + c.failed > 0,
        ),
    ];
    o.push_str("<div class=\"cards\">");
    for (v, k, bad) in cards {
        let _ = write!(
            o,
            "<div class=\"card{}\"><div class=\"v\">{}</div><div class=\"k\">{}</div></div>",
            if bad { " bad" } else { "" },
            esc(&v),
            esc(&k)
        );
    }
    o.push_str("</div>");

    // Table 6.
    o.push_str("<section id=\"leaderboard\"><h2>Leaderboard <small>Table 6 · ranked by overall PG</small></h2><p class=\"note\">Completed paused runs. Each genre shows SR / PG; the bar tracks overall PG.</p>");
    let mut head = ranked_head();
    // One column per genre (SR / PG) keeps the table inside a 1400-px
    // window with the paper's five genres.
    for g in &c.genres {
        head.push((format!("{g} SR / PG"), false));
    }
    head.push(("Overall SR".into(), false));
    head.push(("Overall PG".into(), true));
    head.push(("PG above chance".into(), false));
    let body: Vec<Vec<String>> = s
        .leaderboard
        .iter()
        .map(|r| {
            let mut v = ranked_cells(r.rank, &r.model, &r.interface, r.runs);
            for g in &c.genres {
                match r.by_genre.get(g) {
                    Some(x) => v.push(format!(
                        "<td>{} / <b style=\"background:{}33\">{}</b></td>",
                        f1(x.sr),
                        heat_color(x.pg / 100.0),
                        f1(x.pg)
                    )),
                    None => v.push(td("–")),
                }
            }
            v.push(format!("<td><b>{}</b></td>", f1(r.sr)));
            v.push(format!(
                "<td class=\"l pg\"><b>{}</b><span class=\"bar\" style=\"width:{:.0}px\"></span></td>",
                f1(r.pg),
                r.pg.clamp(0.0, 100.0) * 0.9
            ));
            v.push(td(&r.pg_chance_adjusted.map(f1).unwrap_or_else(|| "–".into())));
            v
        })
        .collect();
    let head_ref: Vec<(&str, bool)> = head.iter().map(|(h, l)| (h.as_str(), *l)).collect();
    o.push_str(&table(&head_ref, &body));
    o.push_str("</section>");

    // Fig. 3.
    o.push_str("<section id=\"heatmap\"><h2>Per-game progress <small>Fig. 3</small></h2><p class=\"note\">Mean progress of each model on each game (paused runs); hover a cell for SR and run count.</p><div class=\"scroll\">");
    o.push_str(&heatmap_svg(s));
    o.push_str("</div></section>");
    // One row per task: folded away below the figure it qualifies.
    o.push_str(&chance_section(s));
    // Open-world runs: the Optimus tables beside the published numbers.
    o.push_str(&super::optimus::html(rows));

    // Fig. 5.
    o.push_str("<section id=\"curriculum\"><h2>Capability curriculum <small>Fig. 5</small></h2><p class=\"note\">Mean progress per curriculum level, one radar per agent interface. Hollow points mark levels without runs.</p><div class=\"charts\">");
    let interfaces: std::collections::BTreeSet<&str> =
        s.curriculum.iter().map(|r| r.interface.as_str()).collect();
    for it in interfaces {
        o.push_str(&radar_svg(s, it, &colors));
    }
    o.push_str("</div></section>");

    // Table 7 / Fig. 4.
    o.push_str("<section id=\"repeats\"><h2>Repeat robustness <small>Table 7 · Fig. 4</small></h2><p class=\"note\">Overall SR and PG of each repeat, then mean ± sample standard deviation over repeats (whiskers: ±1 std).</p>");
    let body: Vec<Vec<String>> = s
        .repeats
        .iter()
        .map(|r| {
            vec![
                model_td(&r.model, &r.interface),
                td(&r.repeats.to_string()),
                td(&pm(r.sr_mean, r.sr_std)),
                td(&pm(r.pg_mean, r.pg_std)),
                tdl(&r
                    .per_repeat
                    .iter()
                    .map(|p| format!("#{}: {}", p.repeat, f1(p.pg)))
                    .collect::<Vec<_>>()
                    .join("  ")),
            ]
        })
        .collect();
    o.push_str(&table(
        &[
            ("Model", true),
            ("Repeats", false),
            ("SR", false),
            ("PG", false),
            ("PG per repeat", true),
        ],
        &body,
    ));
    o.push_str("<div class=\"charts\">");
    let pg_items: Vec<(String, f64, Option<f64>)> = s
        .repeats
        .iter()
        .map(|r| (label(&r.model, &r.interface), r.pg_mean, r.pg_std))
        .collect();
    let sr_items: Vec<(String, f64, Option<f64>)> = s
        .repeats
        .iter()
        .map(|r| (label(&r.model, &r.interface), r.sr_mean, r.sr_std))
        .collect();
    o.push_str(&bars_svg("rep", "Overall PG (%)", &pg_items, "#4c6ef5"));
    o.push_str(&bars_svg("rep-sr", "Overall SR (%)", &sr_items, "#12b886"));
    o.push_str("</div>");
    let multi: Vec<_> = s.repeats.iter().filter(|r| r.repeats >= 2).collect();
    if multi.is_empty() {
        o.push_str("<p class=\"note\">Every model has a single repeat, so there is no spread to show per game.</p>");
    } else {
        o.push_str("<h3>Per-game progress over repeats</h3><div class=\"charts\">");
        for r in multi {
            let items: Vec<(String, f64, Option<f64>)> = r
                .per_game
                .iter()
                .map(|(g, x)| (g.clone(), x.pg_mean, x.pg_std))
                .collect();
            o.push_str(&bars_svg(
                "rep-game",
                &label(&r.model, &r.interface),
                &items,
                "#7048e8",
            ));
        }
        o.push_str("</div>");
    }
    o.push_str("</section>");

    // Table 8.
    o.push_str("<section id=\"realtime\"><h2>Real-time vs paused <small>Table 8</small></h2><p class=\"note\">sec/step = model latency per executed step (wall clock). In real-time runs the game keeps moving while the model thinks, so scores are not comparable with paused ones.</p>");
    if c.realtime == 0 {
        o.push_str("<p class=\"note\"><b>No real-time runs in these inputs.</b></p>");
    }
    let mode = |m: &Option<ModeCell>| -> Vec<String> {
        match m {
            Some(m) => vec![
                td(&m.runs.to_string()),
                td(&format!("{:.2}", m.sec_per_step)),
                td(&f1(m.sr)),
                pg_td(m.pg),
            ],
            None => vec![td("0"), td("–"), td("–"), td("–")],
        }
    };
    let body: Vec<Vec<String>> = s
        .realtime
        .iter()
        .map(|r| {
            let mut v = vec![model_td(&r.model, &r.interface)];
            v.extend(mode(&r.realtime));
            v.extend(mode(&r.paused));
            v
        })
        .collect();
    // The model column is text (left-aligned); the rest are numbers.
    o.push_str(&table(&REALTIME_HEAD.map(|h| (h, h == "Model")), &body));
    o.push_str("</section>");

    // Table 9.
    o.push_str("<section id=\"memory\"><h2>Memory rounds <small>Table 9</small></h2><p class=\"note\">Paused runs of model agents grouped by how many past rounds the prompt keeps. Input tokens include cached tokens.</p>");
    if s.memory.is_empty() {
        o.push_str(
            "<p class=\"note\"><b>No model-agent runs: built-in agents keep no memory.</b></p>",
        );
    } else {
        let body: Vec<Vec<String>> = s
            .memory
            .iter()
            .map(|r| {
                vec![
                    td(&r.memory_rounds.to_string()),
                    model_td(&r.model, &r.interface),
                    td(&r.runs.to_string()),
                    td(&format!("{:.0}", r.input_tokens_per_step)),
                    td(&format!("{:.2}", r.sec_per_step)),
                    td(&f1(r.sr)),
                    pg_td(r.pg),
                ]
            })
            .collect();
        o.push_str(&table(
            &[
                ("Rounds", false),
                ("Model", true),
                ("Runs", false),
                ("Input tokens/step", false),
                ("sec/step", false),
                ("SR", false),
                ("PG", false),
            ],
            &body,
        ));
    }
    o.push_str("</section>");

    // Table 11.
    o.push_str("<section id=\"invalid\"><h2>Invalid actions <small>Table 11</small></h2><p class=\"note\">IAR = 1 − valid/proposed over completed runs, split into no tool call (NTC) and out of action space (OOS), in percent.</p>");
    let mut body: Vec<Vec<String>> = s
        .invalid_actions
        .rows
        .iter()
        .map(|r| {
            vec![
                model_td(&r.model, &r.interface),
                td(&r.proposed.to_string()),
                td(&r.valid.to_string()),
                td(&format!("{:.2}", r.iar)),
                td(&format!("{:.2}", r.ntc)),
                td(&format!("{:.2}", r.oos)),
            ]
        })
        .collect();
    if let (Some(i), Some(n), Some(x)) = (
        s.invalid_actions.mean_iar,
        s.invalid_actions.mean_ntc,
        s.invalid_actions.mean_oos,
    ) {
        body.push(vec![
            "<td class=\"l\"><b>Mean over models</b></td>".into(),
            td(""),
            td(""),
            td(&format!("{i:.2}")),
            td(&format!("{n:.2}")),
            td(&format!("{x:.2}")),
        ]);
    }
    o.push_str(&table(
        &[
            ("Model", true),
            ("Proposed", false),
            ("Valid", false),
            ("IAR %", false),
            ("NTC %", false),
            ("OOS %", false),
        ],
        &body,
    ));
    o.push_str("</section>");

    // Table 13.
    o.push_str("<section id=\"cost\"><h2>Tokens and cost <small>Table 13</small></h2><p class=\"note\">Every run with a result.json, partial ones included (their tokens were paid for). Input tokens per step include cached input tokens.</p>");
    let mut body: Vec<Vec<String>> = s
        .cost
        .rows
        .iter()
        .map(|r| {
            vec![
                model_td(&r.model, &r.interface),
                td(&r.runs.to_string()),
                td(&r.steps.to_string()),
                td(&format!("{:.1}", r.input_tokens_per_step)),
                td(&format!("{:.1}", r.output_tokens_per_step)),
                td(&format!("{:.4}", r.cost_per_run_usd)),
                td(&format!("{:.2}", r.cost_usd)),
            ]
        })
        .collect();
    body.push(vec![
        "<td class=\"l\"><b>Total</b></td>".into(),
        td(""),
        td(""),
        td(""),
        td(""),
        td(""),
        format!("<td><b>{:.2}</b></td>", s.cost.total_cost_usd),
    ]);
    o.push_str(&table(
        &[
            ("Model", true),
            ("Runs", false),
            ("Steps", false),
            ("Input tok/step", false),
            ("Output tok/step", false),
            ("USD/run", false),
            ("USD total", false),
        ],
        &body,
    ));
    o.push_str("</section>");

    // Errors.
    let _ = write!(
        o,
        "<section id=\"errors\"><h2>Errors <small>{} partial · {} failed to start</small></h2>",
        c.partial, c.failed
    );
    if s.errors.is_empty() {
        o.push_str("<p class=\"note\">No errors: every run completed.</p>");
    } else {
        o.push_str("<p class=\"note\">Partial runs stopped part-way (agent error) and failed runs never started; neither is scored.</p>");
        let body: Vec<Vec<String>> = s
            .errors
            .iter()
            .map(|e| {
                vec![
                    format!(
                        "<td class=\"l st-{}\">{}</td>",
                        esc(&e.status),
                        esc(&e.status)
                    ),
                    tdl(&e.preset),
                    td(&e.seed.to_string()),
                    td(&e.repeat.to_string()),
                    td(&e.steps.map(|x| x.to_string()).unwrap_or_else(|| "–".into())),
                    format!("<td class=\"err\">{}</td>", esc(&e.error)),
                ]
            })
            .collect();
        o.push_str(&table(
            &[
                ("Status", true),
                ("Preset", true),
                ("Seed", false),
                ("Repeat", false),
                ("Steps", false),
                ("Error", true),
            ],
            &body,
        ));
    }
    o.push_str("</section>");

    // Runs.
    let _ = write!(
        o,
        "<section id=\"runs\"><h2>Runs <small>{}</small></h2><p class=\"note\">Links open each run directory (result.json, trajectory.jsonl) and, when the run kept frames, its frames/ folder. Opened through <code>gameworld serve</code>, they open the run in the viewer.</p>",
        rows.len()
    );
    let body: Vec<Vec<String>> = rows
        .iter()
        .zip(links)
        .map(|(r, link)| {
            let res = r.result.as_ref();
            let mut files = format!(
                "<a class=\"run-link\" href=\"{}/\">dir</a> · <a href=\"{}/{}\">{}</a>",
                esc(link),
                esc(link),
                if res.is_some() {
                    "result.json"
                } else {
                    "error.json"
                },
                if res.is_some() { "result" } else { "error" }
            );
            if r.has_frames {
                let _ = write!(
                    files,
                    " · <a class=\"frames-link\" href=\"{}/frames/\">frames</a>",
                    esc(link)
                );
            }
            // Shown when the report is opened through `gameworld serve`.
            let _ = write!(
                files,
                "<span class=\"viewer\" hidden> · <a class=\"viewer-link\" data-run=\"{}\">viewer</a></span>",
                esc(link)
            );
            vec![
                tdl(&r.model),
                tdl(&format!("{}+{}", r.game_id, r.task_id)),
                td(&r.seed.to_string()),
                td(&r.repeat.to_string()),
                tdl(res
                    .map(|x| if x.realtime { "real-time" } else { "paused" })
                    .unwrap_or("")),
                format!(
                    "<td class=\"l st-{}\">{}</td>",
                    r.status.as_str(),
                    r.status.as_str()
                ),
                td(&res.map(|x| x.steps.to_string()).unwrap_or_default()),
                match (r.status, res) {
                    (Status::Failed, _) | (_, None) => td("–"),
                    (_, Some(x)) => pg_td(100.0 * x.progress),
                },
                td(&res
                    .map(|x| if x.success { "✓" } else { "" }.to_string())
                    .unwrap_or_default()),
                tdl(&res.map(|x| x.stop_reason.clone()).unwrap_or_default()),
                format!("<td class=\"l\">{files}</td>"),
            ]
        })
        .collect();
    o.push_str(&table(
        &[
            ("Model", true),
            ("Game+task", true),
            ("Seed", false),
            ("Rep", false),
            ("Mode", true),
            ("Status", true),
            ("Steps", false),
            ("PG", false),
            ("Success", false),
            ("Stop", true),
            ("Files", true),
        ],
        &body,
    ));
    o.push_str("</section></main><footer>Generated by <code>gameworld report</code> from result.json / error.json files alone.</footer>");
    o.push_str(VIEWER_LINKS_JS);
    o.push_str("</body></html>\n");
    o
}

/// Chance floors per task (see `report::chance`), flagged tasks first.
fn chance_section(s: &Summary) -> String {
    let flagged = s.chance_floors.iter().filter(|f| f.flagged).count();
    let mut o = format!(
        "<section id=\"chance\"><details><summary><h2>Chance floors <small>{} tasks · {flagged} flagged · click to show</small></h2></summary>",
        s.chance_floors.len()
    );
    if s.chance_floors.is_empty() {
        o.push_str("<p class=\"note\">No <code>random</code> or <code>noop</code> runs found: run the <code>baselines</code> suite and pass its folder with <code>--baselines DIR</code>.</p></details></section>");
        return o;
    }
    o.push_str("<p class=\"note\">Floor = the higher mean progress of <code>random</code> and <code>noop</code>; PG above chance = (PG &minus; floor) / (1 &minus; floor), clamped at 0. &#9888; = chance succeeds in at least half the baseline runs.</p>");
    let mut floors: Vec<&super::chance::ChanceFloor> = s.chance_floors.iter().collect();
    floors.sort_by_key(|f| !f.flagged);
    let body: Vec<Vec<String>> = floors
        .iter()
        .map(|f| {
            let cell = |a: &str| {
                td(&f
                    .agents
                    .get(a)
                    .map(|c| format!("{} / {} ({})", f1(c.sr), f1(c.pg), c.runs))
                    .unwrap_or_else(|| "–".into()))
            };
            vec![
                tdl(&format!("{}+{}", f.game_id, f.task_id)),
                cell("random"),
                cell("noop"),
                td(&f1(f.chance_sr)),
                td(&f1(f.floor_pg)),
                td(if f.flagged { "⚠" } else { "" }),
            ]
        })
        .collect();
    o.push_str(&table(
        &[
            ("Task", true),
            ("random SR / PG (runs)", false),
            ("noop SR / PG (runs)", false),
            ("Chance SR", false),
            ("Floor PG", false),
            ("SR ≥ 50%", false),
        ],
        &body,
    ));
    o.push_str("</details></section>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_walk_up_and_down() {
        assert_eq!(relative(Path::new("/a/b/c"), Path::new("/a/b")), "c");
        assert_eq!(relative(Path::new("/a/x/y"), Path::new("/a/b")), "../x/y");
        assert_eq!(relative(Path::new("/a/b"), Path::new("/a/b")), ".");
    }

    #[test]
    fn heat_colour_ends_and_middle() {
        assert_eq!(heat_color(0.0), "#d73027");
        assert_eq!(heat_color(0.5), "#fee08b");
        assert_eq!(heat_color(1.0), "#1a9850");
        assert_eq!(heat_color(7.0), "#1a9850");
    }

    #[test]
    fn escaping_and_url_encoding() {
        assert_eq!(esc("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(
            url_path("runs/01_2048+01_01+x/seed 1"),
            "runs/01_2048+01_01+x/seed%201"
        );
    }
}
