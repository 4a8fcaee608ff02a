//! report.html and the leaderboard page as a person sees them: headless
//! Chromium lays the pages out in a 1400-px window and reports what fits
//! (skipped with a note when Chromium is absent). Also what the pages hold:
//! the open-world tables beside the published numbers, the chance floors
//! folded below the heatmap, and rows marked verified or not.

mod support;

use gw_runtime::report::leaderboard;
use gw_runtime::report::write_report;
use gw_runtime::{RunOptions, run_preset};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::registry;

const GENRES: [(&str, &str); 5] = [
    ("01_2048", "puzzle"),
    ("05_breakout", "arcade"),
    ("06_captaincallisto", "platformer"),
    ("07_chrome-dino", "runner"),
    ("20_monkey-mart", "simulation"),
];

/// A result.json for `model` on `game` (written by hand: the page only
/// reads results). One argument per field the page reads.
#[allow(clippy::too_many_arguments)]
fn fake(
    root: &Path,
    template: &Value,
    model: &str,
    interface: &str,
    game: &str,
    genre: &str,
    task: &str,
    pg: f64,
) {
    let mut r = template.clone();
    r["model"] = json!(model);
    r["interface"] = json!(interface);
    r["game_id"] = json!(game);
    r["task_id"] = json!(task);
    r["genre"] = json!(genre);
    r["preset"] = json!(format!("{game}+{task}+{model}"));
    r["progress"] = json!(pg);
    r["success"] = json!(pg >= 1.0);
    r["cost_usd"] = json!(0.25);
    let dir = root.join(format!("{game}+{task}+{model}+{interface}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("result.json"),
        serde_json::to_vec_pretty(&r).unwrap(),
    )
    .unwrap();
}

fn template(root: &Path) -> Value {
    let out = root.join("real");
    let opts = RunOptions {
        frames: false,
        max_steps: Some(3),
        ..RunOptions::new("01_2048+01_01+noop", 1, &out)
    };
    run_preset(&registry(), &opts).unwrap();
    serde_json::from_slice(&std::fs::read(out.join("result.json")).unwrap()).unwrap()
}

/// Fourteen long-named model/interface pairs on all five genres, baselines
/// on 30 tasks, and open-world runs.
fn fixture(root: &Path) {
    let t = template(root);
    let models = [
        "claude-sonnet-4.5",
        "gemini-2.5-computer-use",
        "gpt-5.2",
        "qwen3-vl-235b-a22b-instruct",
        "ui-tars-1.5-7b",
        "seed-1.6-vision",
        "glm-4.5v",
        "kimi-vl-a3b-thinking",
    ];
    for (i, m) in models.iter().enumerate() {
        for interface in ["generalist", "computer-use"] {
            if i >= 6 && interface == "computer-use" {
                continue;
            }
            for (g, genre) in GENRES {
                let task = format!("{}_01", &g[..2]);
                fake(
                    root,
                    &t,
                    m,
                    interface,
                    g,
                    genre,
                    &task,
                    (i as f64 * 0.11) % 1.0,
                );
            }
        }
    }
    for n in 1..=30 {
        let (g, genre) = GENRES[n % 5];
        let task = format!("{}_{n:02}", &g[..2]);
        for agent in ["random", "noop"] {
            fake(root, &t, agent, "computer-use", g, genre, &task, 0.05);
        }
    }
    for (task, pg) in [
        ("lh_wood_wooden_pickaxe", 1.0),
        ("lh_iron_iron_pickaxe", 0.0),
        ("oe_torch_1", 1.0),
    ] {
        fake(
            root,
            &t,
            "hierarchical",
            "generalist",
            "openworld",
            "simulation",
            task,
            pg,
        );
    }
}

fn chromium() -> Option<PathBuf> {
    let p = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    p.is_file().then_some(p)
}

/// Open `page` at 1400 × 1000 with `probe` (a script that writes its
/// findings as JSON into `document.title`) and return the findings.
fn probe(chrome: &Path, page: &Path, probe: &str) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let probed = page.with_file_name("probe.html");
    std::fs::write(
        &probed,
        html.replace("</body>", &format!("<script>{probe}</script></body>")),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,1000",
            &format!("--user-data-dir={}", profile.path().display()),
            "--dump-dom",
            &format!("file://{}", probed.display()),
        ])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let title = dom
        .split("<title>")
        .nth(1)
        .and_then(|t| t.split("</title>").next())
        .unwrap_or_else(|| panic!("no title in the dumped page: {dom:.400}"));
    let title = title.replace("&quot;", "\"").replace("&amp;", "&");
    serde_json::from_str(&title).unwrap_or_else(|e| panic!("{e}: {title}"))
}

#[test]
fn report_html_holds_the_open_world_tables_and_folds_the_chance_floors() {
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    write_report(&[dir.path().to_path_buf()], dir.path()).unwrap();
    let html = std::fs::read_to_string(dir.path().join("report.html")).unwrap();
    // Optimus-2 Tables 3 and 4 with the published rows.
    let ow = &html[html.find("id=\"openworld\"").expect("open-world section")..];
    assert!(ow.contains("Optimus-2 Table 3") && ow.contains("Optimus-2 Table 4"));
    assert!(ow.contains("Optimus-2 (GOAP) (published, not re-run)"));
    assert!(ow.contains("hierarchical (this run)"));
    assert!(
        ow.contains("<td>0.99</td><td>0.93</td><td>0.53</td>"),
        "published Table 3 row"
    );
    // The chance floors come after the heatmap, folded.
    let heat = html.find("id=\"heatmap\"").unwrap();
    let chance = html.find("id=\"chance\"").unwrap();
    assert!(chance > heat, "chance floors below the heatmap");
    assert!(html[chance..].starts_with("id=\"chance\"><details><summary>"));
    // Run links open the viewer when the page is served.
    assert!(html.contains("a.run-link, a.frames-link"));
}

#[test]
fn pages_fit_a_1400_px_window() {
    let Some(chrome) = chromium() else {
        eprintln!(
            "note: chromium not installed (apt-get install chromium); the layout test is skipped"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    write_report(&[dir.path().to_path_buf()], dir.path()).unwrap();
    let found = probe(
        &chrome,
        &dir.path().join("report.html"),
        r#"(function(){
          var lb = document.querySelector('#leaderboard .scroll');
          var d = document.querySelector('#chance details');
          var heat = document.getElementById('heatmap').getBoundingClientRect().top;
          var ch = document.getElementById('chance').getBoundingClientRect();
          document.title = JSON.stringify({
            window: window.innerWidth,
            lb_scroll: lb.scrollWidth, lb_client: lb.clientWidth,
            rows: document.querySelectorAll('#leaderboard tbody tr').length,
            chance_open: d.open, chance_height: ch.height, chance_below_heatmap: ch.top > heat,
            openworld_tables: document.querySelectorAll('#openworld table').length
          });
        })();"#,
    );
    assert_eq!(found["window"], 1400, "{found}");
    assert_eq!(
        found["rows"],
        14 + 4,
        "14 pairs, random, noop (both interfaces), hierarchical: {found}"
    );
    assert!(
        found["lb_scroll"].as_f64() <= found["lb_client"].as_f64(),
        "the leaderboard overflows at 1400 px: {found}"
    );
    assert_eq!(found["chance_open"], false);
    assert!(
        found["chance_height"].as_f64().unwrap() < 120.0,
        "folded: {found}"
    );
    assert_eq!(found["chance_below_heatmap"], true);
    assert_eq!(found["openworld_tables"], 2);

    // The leaderboard page over two folders: rows marked, and it fits too.
    let a = dir.path().join("suite-a");
    let b = dir.path().join("suite-b");
    for (out, preset, seed) in [
        (&a, "05_breakout+05_01+scripted", 1),
        (&b, "01_2048+01_01+random", 2),
    ] {
        let opts = RunOptions {
            frames: false,
            max_steps: Some(12),
            ..RunOptions::new(preset, seed, out.join("run"))
        };
        run_preset(&registry(), &opts).unwrap();
    }
    let board_dir = dir.path().join("board");
    let board =
        leaderboard::write(&[a.clone(), b.clone()], Some(&registry()), 2, &board_dir).unwrap();
    let found = probe(
        &chrome,
        &board_dir.join("leaderboard.html"),
        r#"(function(){
          var s = document.querySelector('#board .scroll');
          document.title = JSON.stringify({scroll: s.scrollWidth, client: s.clientWidth,
            marks: Array.from(document.querySelectorAll('td.verified')).map(function(t){return t.dataset.verification;})});
        })();"#,
    );
    assert!(
        found["scroll"].as_f64() <= found["client"].as_f64(),
        "{found}"
    );
    assert_eq!(found["marks"], json!(["verified", "verified"]));
    assert_eq!(board.rows.len(), 2);
}

#[test]
fn leaderboard_rows_say_which_pairs_verify() {
    let dir = tempfile::tempdir().unwrap();
    let reg = registry();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    for (out, preset, seed) in [
        (&a, "05_breakout+05_01+scripted", 1),
        (&a, "05_breakout+05_01+random", 1),
        (&b, "01_2048+01_01+random", 2),
        (&b, "01_2048+01_01+scripted", 2),
    ] {
        let opts = RunOptions {
            frames: false,
            max_steps: Some(10),
            ..RunOptions::new(preset, seed, out.join(preset))
        };
        run_preset(&reg, &opts).unwrap();
    }
    // One doctored run: the random agent's 2048 progress raised.
    let doctored = b.join("01_2048+01_01+random/result.json");
    let mut r: Value = serde_json::from_slice(&std::fs::read(&doctored).unwrap()).unwrap();
    r["progress"] = json!(0.9);
    std::fs::write(&doctored, serde_json::to_vec(&r).unwrap()).unwrap();

    let out = dir.path().join("board");
    let board = leaderboard::write(&[a.clone(), b.clone()], Some(&reg), 2, &out).unwrap();
    let row = |m: &str| board.rows.iter().find(|r| r.model == m).unwrap();
    assert_eq!(row("scripted").verification, "verified");
    assert_eq!(row("scripted").runs_verified, 2);
    assert_eq!(
        row("scripted").sources.len(),
        2,
        "one row over both folders"
    );
    let random = row("random");
    assert_eq!(random.verification, "differs");
    assert_eq!((random.runs_checked, random.runs_verified), (2, 1));
    assert!(
        random
            .first_difference
            .as_deref()
            .unwrap()
            .contains("result.json progress")
    );
    assert!(board.genres.contains(&"puzzle".to_string()));
    let html = std::fs::read_to_string(out.join("leaderboard.html")).unwrap();
    assert!(
        html.contains("✗ not verified (1 of 2 runs match)"),
        "{html:.2000}"
    );
    let json: Value =
        serde_json::from_slice(&std::fs::read(out.join("leaderboard.json")).unwrap()).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 2);

    let unchecked = leaderboard::build(&[a], None, 1).unwrap();
    assert!(
        unchecked
            .rows
            .iter()
            .all(|r| r.verification == "not checked")
    );
    assert!(
        leaderboard::build(&[dir.path().join("nope")], None, 1)
            .unwrap_err()
            .contains("not a folder")
    );
}
