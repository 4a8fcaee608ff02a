//! Registry validation rejects every value that would make a run
//! meaningless, hang or panic — NaN, infinite, huge and negative numbers,
//! `target == start`, unknown memory fields, values of the wrong kind — with
//! the offending key's file:line:column and words a user can act on, never
//! the YAML library's type or option names.

use gw_core::registry::{Registry, RegistryError};
use std::path::PathBuf;

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

/// Load the project registry plus one extra file; the errors about that file.
fn errors_for(rel: &str, yaml: &str) -> Vec<RegistryError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, yaml).unwrap();
    match Registry::load(&[project(), dir.path().to_path_buf()]) {
        Ok(_) => vec![],
        Err(e) => e.0.into_iter().filter(|e| e.file == path).collect(),
    }
}

const LEAKS: [&str; 8] = [
    "Option<",
    "DuplicateKeyPolicy",
    "invalid u32",
    "f64",
    "u32",
    "String",
    "Options",
    "scalar",
];

/// Exactly one error, at `line:col`, whose message contains every `words`.
fn rejects(rel: &str, yaml: &str, line: usize, col: usize, words: &[&str]) {
    let errs = errors_for(rel, yaml);
    let all: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(!errs.is_empty(), "accepted:\n{yaml}");
    let e = errs
        .iter()
        .find(|e| words.iter().all(|w| e.message.contains(w)))
        .unwrap_or_else(|| panic!("no error with {words:?} in {all:#?}"));
    assert_eq!((e.line, e.column), (line, col), "{all:#?}");
    for leak in LEAKS {
        assert!(!e.message.contains(leak), "library detail {leak:?} in {e}");
    }
}

fn task(extra: &str) -> String {
    format!(
        "id: \"01_99\"\ngame_id: \"01_2048\"\ninstruction: reach 64\nscore_field: game_state.score\n{extra}"
    )
}

const T: &str = "tasks/01_2048/01_99.yaml";

#[test]
fn task_numbers_must_be_finite_sane_and_distinct() {
    rejects(
        T,
        &task("start: 0\ntarget: .nan\n"),
        6,
        1,
        &["target", "NaN"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: .inf\n"),
        6,
        1,
        &["target", "infinite"],
    );
    rejects(
        T,
        &task("start: -.inf\ntarget: 5\n"),
        5,
        1,
        &["start", "infinite"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 1e300\n"),
        6,
        1,
        &["target", "too large"],
    );
    rejects(
        T,
        &task("start: -1e300\ntarget: 0\n"),
        5,
        1,
        &["start", "too large"],
    );
    rejects(
        T,
        &task("start: 7\ntarget: 7\n"),
        6,
        1,
        &["target equals start"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 5\nmax_steps: -3\n"),
        7,
        12,
        &["\"max_steps\"", "whole number"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 5\nmax_steps: lots\n"),
        7,
        12,
        &["\"max_steps\"", "whole number"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: lots\n"),
        6,
        9,
        &["\"target\"", "a number"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 5\nmax_stepz: 9\n"),
        7,
        1,
        &["unknown key \"max_stepz\"", "max_steps"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 5\ntarget: 6\n"),
        7,
        1,
        &["\"target\" appears twice"],
    );
    assert!(errors_for(T, &task("start: 0\ntarget: 64\n")).is_empty());
}

/// A two-field aggregate task with `field_targets` lines appended.
fn per_field(targets: &str) -> String {
    format!(
        "id: \"01_99\"\ngame_id: \"01_2048\"\ninstruction: both\naggregate_score_fields: [metrics.a, metrics.b]\nstart: 0\ntarget: 7\nfield_targets:\n{targets}"
    )
}

#[test]
fn field_targets_cover_the_aggregate_fields_and_sum_to_target() {
    assert!(errors_for(T, &per_field("  metrics.a: 3\n  metrics.b: 4\n")).is_empty());
    rejects(
        T,
        &per_field("  metrics.a: 3\n  metrics.b: 3\n"),
        7,
        1,
        &["sum to 6", "target is 7"],
    );
    rejects(
        T,
        &per_field("  metrics.a: 7\n"),
        7,
        1,
        &["lacks a target", "metrics.b"],
    );
    rejects(
        T,
        &per_field("  metrics.a: 3\n  metrics.b: 4\n  metrics.c: 0\n"),
        7,
        1,
        &["metrics.c", "not one of the aggregate_score_fields"],
    );
    rejects(
        T,
        &task("start: 0\ntarget: 7\nfield_targets:\n  game_state.score: 7\n"),
        7,
        1,
        &["field_targets needs aggregate_score_fields"],
    );
}

const M: &str = "models/m1.yaml";

fn model(extra: &str) -> String {
    format!("id: m1\nprovider: openai\nmodel: some-model\n{extra}")
}

#[test]
fn model_numbers_and_fields_are_checked() {
    rejects(
        M,
        &model("timeout_s: 1e30\n"),
        4,
        1,
        &["timeout_s", "too large"],
    );
    rejects(
        M,
        &model("timeout_s: -1\n"),
        4,
        1,
        &["timeout_s", "negative"],
    );
    rejects(M, &model("timeout_s: .nan\n"), 4, 1, &["timeout_s", "NaN"]);
    rejects(
        M,
        &model("timeout_s: 0\n"),
        4,
        1,
        &["timeout_s", "too small"],
    );
    rejects(
        M,
        &model("retry_backoff_s: .inf\n"),
        4,
        1,
        &["retry_backoff_s", "infinite"],
    );
    rejects(
        M,
        &model("temperature: -0.5\n"),
        4,
        1,
        &["temperature", "negative"],
    );
    rejects(
        M,
        &model("price_input_per_mtok: -3\n"),
        4,
        1,
        &["price_input_per_mtok", "negative"],
    );
    rejects(
        M,
        &model("price_output_per_mtok: 1e300\n"),
        4,
        1,
        &["price_output_per_mtok", "too large"],
    );
    rejects(
        M,
        &model("max_tokens: 0\n"),
        4,
        1,
        &["max_tokens", "too small"],
    );
    rejects(
        M,
        &model("max_tokens: -3\n"),
        4,
        13,
        &["\"max_tokens\"", "whole number"],
    );
    rejects(
        M,
        &model("memory_include_fields: [action, mood]\n"),
        4,
        1,
        &["memory_include_fields", "\"mood\"", "outcome"],
    );
    rejects(
        M,
        &model("max_tokens_field: tokens\n"),
        4,
        19,
        &["\"max_tokens_field\"", "max_completion_tokens"],
    );
    rejects(
        M,
        &model("base_url: [1, 2]\n"),
        4,
        11,
        &["\"base_url\"", "single value"],
    );
    rejects(
        "models/m2.yaml",
        "id: m2\nprovider: openai\nmodel: x\nmodel: y\n",
        4,
        1,
        &["\"model\" appears twice"],
    );
    rejects(
        "models/m3.yaml",
        "id: m3\nprovider: openia\nmodel: x\n",
        2,
        11,
        &["\"provider\"", "openia", "openai, anthropic, gemini"],
    );
    assert!(
        errors_for(
            M,
            &model("timeout_s: 30\nmemory_include_fields: [action, outcome]\n")
        )
        .is_empty()
    );
}

fn game(from: &str, to: &str) -> String {
    let src = std::fs::read_to_string(project().join("games/01_2048.yaml")).unwrap();
    assert!(src.contains(from), "{from}");
    src.replace(from, to)
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn game_speed_and_durations_are_bounded() {
    let g = "games/01_2048.yaml";
    let y = game("speed_multiplier: 1.0", "speed_multiplier: 1e12");
    rejects(
        g,
        &y,
        line_of(&y, "speed_multiplier"),
        1,
        &["speed_multiplier", "too large"],
    );
    let y = game("speed_multiplier: 1.0", "speed_multiplier: .nan");
    rejects(
        g,
        &y,
        line_of(&y, "speed_multiplier"),
        1,
        &["speed_multiplier", "NaN"],
    );
    let y = game("speed_multiplier: 1.0", "speed_multiplier: 0");
    rejects(
        g,
        &y,
        line_of(&y, "speed_multiplier"),
        1,
        &["speed_multiplier", "too small"],
    );
    let y = game("hold_duration: 0.2", "hold_duration: -0.2");
    rejects(
        g,
        &y,
        line_of(&y, "hold_duration"),
        5,
        &["hold_duration", "negative"],
    );
    let y = game("hold_duration: 0.2", "hold_duration: .inf");
    rejects(
        g,
        &y,
        line_of(&y, "hold_duration"),
        5,
        &["hold_duration", "infinite"],
    );
    let y = game(
        "hold_duration: 0.2",
        "hold_duration: 0.2\n    key_durations: {ArrowUp: 1e9}",
    );
    rejects(
        g,
        &y,
        line_of(&y, "key_durations"),
        5,
        &["key_durations[ArrowUp]", "too large"],
    );
}

#[test]
fn the_shipped_registry_is_valid() {
    Registry::load(&[project()]).unwrap_or_else(|e| panic!("{e}"));
}

/// A registry read from memory (as the Python extension embeds it) holds the
/// same games and tasks in the same order as the one loaded from disk, and
/// reports errors at `<root>/<path>` like the disk loader.
#[test]
fn registry_from_memory_matches_the_disk_loader() {
    let disk = Registry::load(&[project()]).unwrap();
    let mut owned: Vec<(String, String)> = Vec::new();
    for (kind, dir) in [("games", project().join("games"))] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            owned.push((
                format!("{kind}/{name}"),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    for g in std::fs::read_dir(project().join("tasks")).unwrap() {
        let g = g.unwrap().path();
        for t in std::fs::read_dir(&g).unwrap() {
            let t = t.unwrap().path();
            let rel = format!(
                "tasks/{}/{}",
                g.file_name().unwrap().to_str().unwrap(),
                t.file_name().unwrap().to_str().unwrap()
            );
            owned.push((rel, std::fs::read_to_string(&t).unwrap()));
        }
    }
    owned.reverse();
    let files: Vec<(&str, &str)> = owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let mem = Registry::from_memory(&PathBuf::from("embedded"), &files).unwrap();
    assert_eq!(
        mem.games.keys().collect::<Vec<_>>(),
        disk.games.keys().collect::<Vec<_>>()
    );
    assert_eq!(
        mem.tasks.keys().collect::<Vec<_>>(),
        disk.tasks.keys().collect::<Vec<_>>()
    );
    // The same preset, but for where the game was loaded from.
    let mut from_mem = mem.resolve_preset("01_2048+01_01+random").unwrap();
    let mut from_disk = disk.resolve_preset("01_2048+01_01+random").unwrap();
    from_mem.game.root = None;
    from_disk.game.root = None;
    assert_eq!(from_mem, from_disk);

    let bad = [("tasks/01_2048/zz.yaml", "id: zz\ngame_id: 01_2048\n")];
    let err = Registry::from_memory(&PathBuf::from("embedded"), &bad).unwrap_err();
    assert_eq!(
        err.0[0].file,
        PathBuf::from("embedded/tasks/01_2048/zz.yaml")
    );
}
