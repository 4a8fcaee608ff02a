//! Reports from real run directories: the numbers in summary.json are
//! recomputed here independently from the result.json files, the CSVs are
//! checked row by row, merged shard folders must give the same report as one
//! folder, and the SVG charts in report.html must parse as XML with one mark
//! per model × game, per model, and so on.

use gw_core::registry::Registry;
use gw_runtime::report::write_report;
use gw_runtime::{RunOptions, run_preset};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn registry() -> Registry {
    Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run_dir(root: &Path, preset: &str, seed: u64, repeat: u32) -> PathBuf {
    root.join("runs")
        .join(preset)
        .join(format!("seed-{seed}"))
        .join(format!("rep-{repeat}"))
}

const GAMES: &[&str] = &[
    "01_2048+01_01",
    "05_breakout+05_01",
    "13_flappy-bird+13_01",
    "27_stack+27_01",
];

/// A suite-like folder: built-in agents on four games (three genres, three
/// curriculum levels), two repeats, plus hand-written model runs and errors.
fn build_fixture(root: &Path) {
    let reg = registry();
    for game in GAMES {
        for agent in ["random", "scripted"] {
            for repeat in 0..2u32 {
                let preset = format!("{game}+{agent}");
                let seed = 1 + repeat as u64;
                let opts = RunOptions {
                    frames: false,
                    max_steps: Some(40),
                    repeat,
                    ..RunOptions::new(&preset, seed, run_dir(root, &preset, seed, repeat))
                };
                run_preset(&reg, &opts).unwrap_or_else(|e| panic!("{preset}: {e}"));
            }
        }
    }
    let noop = RunOptions {
        frames: true,
        max_steps: Some(5),
        ..RunOptions::new(
            "05_breakout+05_02+noop",
            3,
            run_dir(root, "05_breakout+05_02+noop", 3, 0),
        )
    };
    run_preset(&reg, &noop).unwrap();

    // Model-like runs, written by hand: a real-time run, two memory settings
    // and a partial run (agent error) that still paid for tokens.
    let base = serde_json::to_value(
        serde_json::from_str::<Value>(
            &std::fs::read_to_string(
                run_dir(root, "01_2048+01_01+random", 1, 0).join("result.json"),
            )
            .unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    let model_run = |preset: &str, repeat: u32, patch: Value| {
        let mut v = base.clone();
        v["preset"] = json!(preset);
        v["model"] = json!("qwen-test-cua");
        v["interface"] = json!("computer-use");
        v["repeat"] = json!(repeat);
        for (k, x) in patch.as_object().unwrap() {
            v[k] = x.clone();
        }
        let dir = run_dir(root, preset, 1, repeat);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("result.json"),
            serde_json::to_vec_pretty(&v).unwrap(),
        )
        .unwrap();
    };
    model_run(
        "01_2048+01_01+qwen-test-cua",
        0,
        json!({"steps": 20, "proposed_actions": 20, "valid_actions": 17, "invalid_no_tool_call": 2,
               "invalid_out_of_space": 1, "input_tokens": 30000, "cached_input_tokens": 10000,
               "output_tokens": 900, "cost_usd": 0.125, "latency_ms": 50000, "wall_ms": 61000,
               "memory_rounds": 2, "success": false, "progress": 0.4, "realtime": false}),
    );
    model_run(
        "01_2048+01_01+qwen-test-cua",
        1,
        json!({"steps": 10, "proposed_actions": 10, "valid_actions": 10, "input_tokens": 8000,
               "cached_input_tokens": 0, "output_tokens": 300, "cost_usd": 0.03,
               "latency_ms": 12000, "wall_ms": 15000, "memory_rounds": 0, "success": true,
               "progress": 1.0, "realtime": false}),
    );
    model_run(
        "05_breakout+05_01+qwen-test-cua",
        0,
        json!({"game_id": "05_breakout", "task_id": "05_01", "genre": "arcade", "curriculum_level": 1,
               "steps": 30, "proposed_actions": 30, "valid_actions": 30, "input_tokens": 45000,
               "output_tokens": 1200, "cost_usd": 0.2, "latency_ms": 90000, "wall_ms": 95000,
               "memory_rounds": 2, "success": false, "progress": 0.25, "realtime": true}),
    );
    model_run(
        "13_flappy-bird+13_01+qwen-test-cua",
        0,
        json!({"game_id": "13_flappy-bird", "task_id": "13_01", "genre": "runner", "curriculum_level": 2,
               "steps": 4, "proposed_actions": 4, "valid_actions": 4, "input_tokens": 6000,
               "output_tokens": 100, "cost_usd": 0.01, "latency_ms": 9000, "wall_ms": 9500,
               "memory_rounds": 2, "success": false, "progress": 0.1, "realtime": false,
               "stop_reason": "agent_error", "error": "HTTP 500 from provider, giving up"}),
    );
    // A run that never started.
    let dir = run_dir(root, "27_stack+27_02+gpt-test", 1, 0);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("error.json"),
        serde_json::to_vec_pretty(&json!({
            "preset": "27_stack+27_02+gpt-test", "game_id": "27_stack", "task_id": "27_02",
            "model": "gpt-test", "seed": 1, "repeat": 0,
            "error": "environment variable OPENAI_API_KEY is not set"
        }))
        .unwrap(),
    )
    .unwrap();
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
    .unwrap()
}

/// Every result.json / error.json under `root`, read as plain JSON.
fn scan(root: &Path) -> (Vec<Value>, Vec<Value>) {
    fn walk(d: &Path, res: &mut Vec<Value>, errs: &mut Vec<Value>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, res, errs);
            } else if p.file_name().unwrap() == "result.json" {
                res.push(read_json(&p));
            } else if p.file_name().unwrap() == "error.json" {
                errs.push(read_json(&p));
            }
        }
    }
    let (mut r, mut e) = (vec![], vec![]);
    walk(root, &mut r, &mut e);
    (r, e)
}

fn close(a: f64, b: &Value, what: &str) {
    let b = b
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: not a number: {b}"));
    assert!(
        (a - b).abs() < 1e-9,
        "{what}: expected {a}, report says {b}"
    );
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn std_sample(xs: &[f64]) -> f64 {
    let m = mean(xs);
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

fn find<'a>(rows: &'a Value, model: &str, interface: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["model"] == model && r["interface"] == interface)
        .unwrap_or_else(|| panic!("no row for {model} ({interface})"))
}

/// A minimal CSV reader (quotes, doubled quotes, embedded newlines).
fn parse_csv(s: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (vec![], vec![], String::new());
    let mut chars = s.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        field.is_empty() && row.is_empty(),
        "CSV must end with a newline"
    );
    rows
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let t = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).unwrap();
        }
    }
}

/// The `<svg>…</svg>` fragments of an HTML page, parsed as XML.
fn svgs(html: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = html;
    while let Some(i) = rest.find("<svg") {
        let j = rest[i..].find("</svg>").expect("every <svg> is closed") + i + 6;
        out.push(rest[i..j].to_string());
        rest = &rest[j..];
    }
    out
}

fn count_class(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|x| x == class))
        })
        .count()
}

#[test]
fn report_numbers_csvs_merge_and_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all");
    build_fixture(&all);
    let summary = write_report(std::slice::from_ref(&all), &all).unwrap();
    for f in [
        "summary.json",
        "runs.csv",
        "by_model.csv",
        "report.md",
        "report.html",
    ] {
        assert!(all.join(f).is_file(), "{f} written");
    }
    // No temp files left behind by the atomic writes.
    let leftovers: Vec<_> = std::fs::read_dir(&all)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    let s = read_json(&all.join("summary.json"));
    // (Both sides go through the same text → f64 parse.)
    let returned: Value = serde_json::from_str(&serde_json::to_string(&summary).unwrap()).unwrap();
    assert!(s == returned, "returned summary = summary.json");
    let (results, errors) = scan(&all.join("runs"));
    assert_eq!(results.len(), GAMES.len() * 2 * 2 + 1 + 4);
    assert_eq!(errors.len(), 1);

    // Counts.
    let ok: Vec<&Value> = results.iter().filter(|r| r["error"].is_null()).collect();
    let scored: Vec<&Value> = ok
        .iter()
        .copied()
        .filter(|r| r["realtime"] == false)
        .collect();
    assert_eq!(s["counts"]["runs"], results.len() + errors.len());
    assert_eq!(s["counts"]["ok"], ok.len());
    assert_eq!(s["counts"]["partial"], 1);
    assert_eq!(s["counts"]["failed"], 1);
    assert_eq!(s["counts"]["scored"], scored.len());
    assert_eq!(s["counts"]["realtime"], 1);
    assert_eq!(
        s["counts"]["models"], 4,
        "random, scripted, noop, qwen-test-cua"
    );

    let key = |r: &Value| {
        (
            r["model"].as_str().unwrap().to_string(),
            r["interface"].as_str().unwrap().to_string(),
        )
    };
    let mut by_model: BTreeMap<(String, String), Vec<&Value>> = BTreeMap::new();
    for r in &scored {
        by_model.entry(key(r)).or_default().push(r);
    }
    let sr = |rs: &[&Value]| {
        100.0
            * mean(
                &rs.iter()
                    .map(|r| r["success"].as_bool().unwrap() as u8 as f64)
                    .collect::<Vec<_>>(),
            )
    };
    let pg = |rs: &[&Value]| {
        100.0
            * mean(
                &rs.iter()
                    .map(|r| r["progress"].as_f64().unwrap())
                    .collect::<Vec<_>>(),
            )
    };

    // Table 6: per genre and overall, ranked by overall PG.
    let lb = &s["leaderboard"];
    assert_eq!(lb.as_array().unwrap().len(), by_model.len());
    let pgs: Vec<f64> = lb
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pg"].as_f64().unwrap())
        .collect();
    assert!(
        pgs.windows(2).all(|w| w[0] >= w[1]),
        "ranked by PG: {pgs:?}"
    );
    for (i, r) in lb.as_array().unwrap().iter().enumerate() {
        assert_eq!(r["rank"], i + 1);
    }
    for ((m, it), rs) in &by_model {
        let row = find(lb, m, it);
        close(sr(rs), &row["sr"], &format!("{m} SR"));
        close(pg(rs), &row["pg"], &format!("{m} PG"));
        let genres: BTreeSet<&str> = rs.iter().map(|r| r["genre"].as_str().unwrap()).collect();
        assert_eq!(row["by_genre"].as_object().unwrap().len(), genres.len());
        for g in genres {
            let sub: Vec<&Value> = rs.iter().copied().filter(|r| r["genre"] == g).collect();
            close(pg(&sub), &row["by_genre"][g]["pg"], &format!("{m} {g} PG"));
            close(sr(&sub), &row["by_genre"][g]["sr"], &format!("{m} {g} SR"));
            assert_eq!(row["by_genre"][g]["runs"], sub.len());
        }

        // Fig. 3 and Fig. 5.
        let hm = find(&s["heatmap"], m, it);
        let games: BTreeSet<&str> = rs.iter().map(|r| r["game_id"].as_str().unwrap()).collect();
        assert_eq!(hm["games"].as_object().unwrap().len(), games.len());
        for g in games {
            let sub: Vec<&Value> = rs.iter().copied().filter(|r| r["game_id"] == g).collect();
            close(pg(&sub), &hm["games"][g]["pg"], &format!("{m} {g} heat"));
        }
        let cur = find(&s["curriculum"], m, it);
        for l in 1..=5u64 {
            let sub: Vec<&Value> = rs
                .iter()
                .copied()
                .filter(|r| r["curriculum_level"] == l)
                .collect();
            let cell = &cur["levels"][l.to_string()];
            if sub.is_empty() {
                assert!(cell.is_null(), "{m} L{l} has no runs");
            } else {
                close(pg(&sub), &cell["pg"], &format!("{m} L{l}"));
            }
        }

        // Table 7: per-repeat overall means, then mean ± sample std.
        let rep = find(&s["repeats"], m, it);
        let reps: BTreeSet<u64> = rs.iter().map(|r| r["repeat"].as_u64().unwrap()).collect();
        assert_eq!(rep["repeats"], reps.len());
        let (mut srs, mut pgs) = (vec![], vec![]);
        for k in &reps {
            let sub: Vec<&Value> = rs.iter().copied().filter(|r| r["repeat"] == *k).collect();
            srs.push(sr(&sub));
            pgs.push(pg(&sub));
        }
        close(mean(&pgs), &rep["pg_mean"], &format!("{m} PG mean"));
        close(mean(&srs), &rep["sr_mean"], &format!("{m} SR mean"));
        if reps.len() >= 2 {
            close(std_sample(&pgs), &rep["pg_std"], &format!("{m} PG std"));
            close(std_sample(&srs), &rep["sr_std"], &format!("{m} SR std"));
        } else {
            assert!(rep["pg_std"].is_null());
        }
    }
    // The built-in agents ran two repeats each.
    assert_eq!(find(&s["repeats"], "random", "generalist")["repeats"], 2);

    // Table 8: the real-time run sits next to the paused ones.
    let rt = find(&s["realtime"], "qwen-test-cua", "computer-use");
    assert_eq!(rt["realtime"]["runs"], 1);
    close(90.0 / 30.0, &rt["realtime"]["sec_per_step"], "RT sec/step");
    close(25.0, &rt["realtime"]["pg"], "RT PG");
    assert_eq!(rt["paused"]["runs"], 2);
    close(
        (50.0 + 12.0) / 30.0,
        &rt["paused"]["sec_per_step"],
        "paused sec/step",
    );
    close(70.0, &rt["paused"]["pg"], "paused PG");
    assert!(find(&s["realtime"], "random", "generalist")["realtime"].is_null());

    // Table 9: memory rounds 0 and 2 (paused, completed runs only).
    let mem = s["memory"].as_array().unwrap();
    assert_eq!(mem.len(), 2, "{mem:?}");
    let m2 = mem.iter().find(|r| r["memory_rounds"] == 2).unwrap();
    assert_eq!(m2["runs"], 1);
    close(
        // input_tokens already include the 10000 cached ones.
        30000.0 / 20.0,
        &m2["input_tokens_per_step"],
        "memory 2 input/step",
    );
    close(2.5, &m2["sec_per_step"], "memory 2 sec/step");
    close(40.0, &m2["pg"], "memory 2 PG");
    let m0 = mem.iter().find(|r| r["memory_rounds"] == 0).unwrap();
    close(800.0, &m0["input_tokens_per_step"], "memory 0 input/step");

    // Table 11 over completed runs.
    for (k, rs) in ok
        .iter()
        .fold(BTreeMap::<_, Vec<&Value>>::new(), |mut m, r| {
            m.entry(key(r)).or_default().push(r);
            m
        })
    {
        let sum = |f: &str| rs.iter().map(|r| r[f].as_f64().unwrap()).sum::<f64>();
        let row = find(&s["invalid_actions"]["rows"], &k.0, &k.1);
        let p = sum("proposed_actions");
        close(100.0 * (1.0 - sum("valid_actions") / p), &row["iar"], "IAR");
        close(100.0 * sum("invalid_no_tool_call") / p, &row["ntc"], "NTC");
        close(100.0 * sum("invalid_out_of_space") / p, &row["oos"], "OOS");
    }
    close(
        5.0,
        &find(
            &s["invalid_actions"]["rows"],
            "qwen-test-cua",
            "computer-use",
        )["iar"],
        "qwen IAR",
    );

    // Table 13 over every result.json, the partial run included.
    let c = find(&s["cost"]["rows"], "qwen-test-cua", "computer-use");
    assert_eq!(c["runs"], 4);
    close(
        (30000.0 + 8000.0 + 45000.0 + 6000.0) / 64.0,
        &c["input_tokens_per_step"],
        "input/step",
    );
    assert_eq!(c["input_tokens"], 89000);
    assert_eq!(c["cached_input_tokens"], 10000);
    close(2500.0 / 64.0, &c["output_tokens_per_step"], "output/step");
    close(0.365, &c["cost_usd"], "cost");
    close(0.365 / 4.0, &c["cost_per_run_usd"], "cost/run");
    close(0.365, &s["cost"]["total_cost_usd"], "total cost");

    // Errors: the partial run and the one that never started.
    let errs = s["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 2);
    assert!(errs.iter().any(|e| e["status"] == "failed"
        && e["model"] == "gpt-test"
        && e["error"].as_str().unwrap().contains("OPENAI_API_KEY")));
    assert!(
        errs.iter()
            .any(|e| e["status"] == "partial" && e["steps"] == 4)
    );

    // runs.csv: one row per run, error rows included, every row full width.
    let runs = parse_csv(&std::fs::read_to_string(all.join("runs.csv")).unwrap());
    let head = &runs[0];
    assert_eq!(runs.len(), 1 + results.len() + errors.len());
    assert!(runs.iter().all(|r| r.len() == head.len()));
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("column {name}"))
    };
    for name in [
        "status",
        "preset",
        "model",
        "interface",
        "seed",
        "repeat",
        "progress",
        "success",
        "error",
        "wall_ms",
    ] {
        col(name);
    }
    let statuses: Vec<&str> = runs[1..]
        .iter()
        .map(|r| r[col("status")].as_str())
        .collect();
    assert_eq!(statuses.iter().filter(|s| **s == "ok").count(), ok.len());
    assert_eq!(statuses.iter().filter(|s| **s == "partial").count(), 1);
    assert_eq!(statuses.iter().filter(|s| **s == "failed").count(), 1);
    let partial = runs.iter().find(|r| r[col("status")] == "partial").unwrap();
    assert_eq!(
        partial[col("error")],
        "HTTP 500 from provider, giving up",
        "comma survives quoting"
    );
    let csv_pg: f64 = runs[1..]
        .iter()
        .filter(|r| r[col("status")] == "ok" && r[col("realtime")] == "false")
        .map(|r| r[col("progress")].parse::<f64>().unwrap())
        .sum();
    let json_pg: f64 = scored.iter().map(|r| r["progress"].as_f64().unwrap()).sum();
    assert!((csv_pg - json_pg).abs() < 1e-9);

    // by_model.csv: one row per model + interface with a result.
    let bm = parse_csv(&std::fs::read_to_string(all.join("by_model.csv")).unwrap());
    assert_eq!(bm.len(), 1 + 4);
    assert_eq!(
        &bm[0][..6],
        ["model", "interface", "rank", "runs", "sr", "pg"]
    );
    let first = &bm[1];
    assert_eq!(
        first[0],
        lb[0]["model"].as_str().unwrap(),
        "leaderboard order"
    );
    close(first[5].parse().unwrap(), &lb[0]["pg"], "by_model PG");

    // Merging two shard folders equals one folder with every run.
    let (a, b) = (tmp.path().join("shard-a"), tmp.path().join("shard-b"));
    for (i, e) in std::fs::read_dir(all.join("runs")).unwrap().enumerate() {
        let p = e.unwrap().path();
        let dst = if i % 2 == 0 { &a } else { &b };
        copy_dir(&p, &dst.join("runs").join(p.file_name().unwrap()));
    }
    let merged_out = tmp.path().join("merged");
    let merged = write_report(&[a.clone(), b.clone()], &merged_out).unwrap();
    assert_eq!(merged, summary);
    for f in ["summary.json", "runs.csv", "by_model.csv"] {
        assert_eq!(
            std::fs::read_to_string(merged_out.join(f)).unwrap(),
            std::fs::read_to_string(all.join(f)).unwrap(),
            "{f}: merged shards = one folder"
        );
    }

    // report.html: self-contained, charts parse as XML with the right marks.
    for (dir, html_dir) in [(&all, &all), (&merged_out, &merged_out)] {
        let html = std::fs::read_to_string(html_dir.join("report.html")).unwrap();
        let external = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(
            !external.contains("http://") && !external.contains("https://"),
            "no external assets"
        );
        // One inline script (links to the web app's viewer when served by
        // `gameworld serve`); nothing loaded from elsewhere.
        assert!(!html.contains("<link") && !html.contains(" src="));
        assert!(html.matches("<script>").count() <= 1);
        // Every run links to its directory, relative to the report.
        let links: Vec<&str> = html
            .split("class=\"run-link\" href=\"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .collect();
        assert_eq!(links.len(), results.len() + errors.len());
        for l in &links {
            assert!(!l.starts_with('/'), "relative link {l}");
            assert!(dir.join(l).is_dir(), "{l} resolves from {}", dir.display());
        }
        assert_eq!(
            html.matches("class=\"frames-link\"").count(),
            1,
            "only the noop run kept frames"
        );
    }
    let html = std::fs::read_to_string(all.join("report.html")).unwrap();
    let docs: Vec<String> = svgs(&html);
    assert!(docs.len() >= 4, "heatmap, radar(s), repeat bars");
    let parsed: Vec<roxmltree::Document> = docs
        .iter()
        .map(|d| {
            roxmltree::Document::parse(d).unwrap_or_else(|e| panic!("SVG is not well-formed: {e}"))
        })
        .collect();
    let total = |class: &str| parsed.iter().map(|d| count_class(d, class)).sum::<usize>();
    let pairs: usize = by_model
        .values()
        .map(|rs| {
            rs.iter()
                .map(|r| r["game_id"].as_str().unwrap())
                .collect::<BTreeSet<_>>()
                .len()
        })
        .sum();
    assert_eq!(
        total("hm-cell"),
        pairs,
        "one heatmap cell per model × game with runs"
    );
    let heat = parsed
        .iter()
        .find(|d| count_class(d, "heatmap") == 1)
        .unwrap();
    let games: BTreeSet<&str> = scored
        .iter()
        .map(|r| r["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        count_class(heat, "hm-cell") + count_class(heat, "hm-empty"),
        by_model.len() * games.len()
    );
    for n in heat
        .descendants()
        .filter(|n| n.attribute("class") == Some("hm-cell"))
    {
        let (m, g) = (
            n.attribute("data-model").unwrap(),
            n.attribute("data-game").unwrap(),
        );
        let it = n.attribute("data-interface").unwrap();
        let want = s["heatmap"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["model"] == m && r["interface"] == it)
            .unwrap()["games"][g]["pg"]
            .as_f64()
            .unwrap();
        let got: f64 = n.attribute("data-pg").unwrap().parse().unwrap();
        assert!((got - want).abs() < 1e-3, "{m} {g}");
    }
    assert_eq!(
        total("radar-series"),
        by_model.len(),
        "one radar polygon per model"
    );
    assert_eq!(total("radar-point"), by_model.len() * 5);
    assert_eq!(
        total("radar"),
        by_model.keys().map(|k| &k.1).collect::<BTreeSet<_>>().len(),
        "one radar per interface"
    );
    assert_eq!(total("rep-bar"), by_model.len(), "one repeat bar per model");
    let multi = s["repeats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["repeats"].as_u64().unwrap() >= 2)
        .count();
    assert_eq!(
        total("rep-err"),
        multi,
        "error bars where there are repeats"
    );
    assert_eq!(
        total("rep-game"),
        multi,
        "a per-game panel per repeated model"
    );
}

#[test]
fn no_runs_is_an_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("runs/empty")).unwrap();
    let err = write_report(&[tmp.path().to_path_buf()], tmp.path()).unwrap_err();
    assert!(err.contains("no runs found"), "{err}");
    assert!(!tmp.path().join("summary.json").exists());
    let err = write_report(&[tmp.path().join("missing")], tmp.path()).unwrap_err();
    assert!(err.contains("not a directory"), "{err}");
}

#[test]
fn retried_run_counts_its_result_not_its_old_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = run_dir(tmp.path(), "01_2048+01_01+random", 1, 0);
    let opts = RunOptions {
        frames: false,
        ..RunOptions::new("01_2048+01_01+random", 1, &dir)
    };
    run_preset(&registry(), &opts).unwrap();
    std::fs::write(
        dir.join("error.json"),
        r#"{"preset":"01_2048+01_01+random","error":"old"}"#,
    )
    .unwrap();
    let s = write_report(&[tmp.path().to_path_buf()], tmp.path()).unwrap();
    assert_eq!((s.counts.runs, s.counts.ok, s.counts.failed), (1, 1, 0));
}

/// Optional visual check: a headless Chromium screenshot of the report.
#[test]
fn chromium_screenshot_when_available() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("skipped: /usr/bin/chromium is absent");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    build_fixture(tmp.path());
    write_report(&[tmp.path().to_path_buf()], tmp.path()).unwrap();
    let png = std::env::var_os("GW_REPORT_SCREENSHOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| tmp.path().join("report.png"));
    let profile = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            &format!("--user-data-dir={}", profile.path().display()),
            "--window-size=1400,3200",
            &format!("--screenshot={}", png.display()),
            &format!("file://{}", tmp.path().join("report.html").display()),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish the screenshot within 90 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(status.success());
    // The page really drew its tables and charts: decode the screenshot and
    // look for ink, and for the saturated greens of 100 % heatmap cells.
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.line_size / info.width as usize;
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let ink = pixels
        .iter()
        .filter(|p| p[0] < 200 || p[1] < 200 || p[2] < 200)
        .count();
    let green = pixels
        .iter()
        .filter(|p| p[1] > 120 && p[0] < 90 && p[2] < 110)
        .count();
    assert!(
        ink * 20 > pixels.len(),
        "the screenshot is nearly blank ({ink} inked of {} pixels)",
        pixels.len()
    );
    assert!(
        green > 500,
        "no heatmap greens in the screenshot ({green} pixels)"
    );
}

/// Hostile token counts (u64::MAX in two runs) saturate in every report
/// sum instead of overflowing, and model text with markup is escaped.
#[test]
fn report_sums_saturate_and_markdown_escapes_markup() {
    let dir = tempfile::tempdir().unwrap();
    let reg = registry();
    for seed in [1, 2] {
        let out = run_dir(dir.path(), "01_2048+01_01+noop", seed, 0);
        let opts = RunOptions {
            max_steps: Some(2),
            frames: false,
            ..RunOptions::new("01_2048+01_01+noop", seed, &out)
        };
        run_preset(&reg, &opts).unwrap();
        let path = out.join("result.json");
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        v["model"] = json!("<b>evil</b>|model");
        v["input_tokens"] = json!(u64::MAX);
        v["output_tokens"] = json!(u64::MAX);
        v["cached_input_tokens"] = json!(u64::MAX);
        v["latency_ms"] = json!(u64::MAX);
        v["wall_ms"] = json!(u64::MAX);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    }
    let s = write_report(&[dir.path().to_path_buf()], dir.path()).unwrap();
    assert_eq!(s.cost.total_input_tokens, u64::MAX);
    assert_eq!(s.cost.total_output_tokens, u64::MAX);
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.contains("&lt;b&gt;evil&lt;/b&gt;\\|model"), "{md}");
    assert!(!md.contains("<b>evil"), "{md}");
}
