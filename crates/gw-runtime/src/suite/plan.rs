//! A suite's plan: the suite YAML ([`SuiteSpec`]) and its expansion into an
//! ordered list of runs ([`PlannedRun`]), before anything runs.

use gw_core::registry::Registry;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `all`, or an explicit list of ids.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Selection {
    Keyword(String),
    List(Vec<String>),
}

impl<'de> Deserialize<'de> for Selection {
    // Hand-written so ids such as `01_01` stay strings: YAML would read them
    // as numbers if the list were deserialized without a target type.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Selection;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`all` or a list of ids")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Selection, E> {
                Ok(Selection::Keyword(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Selection, E> {
                Err(E::custom(format!(
                    "{v} is a number; quote ids (\"01_01\") or use `all`"
                )))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Selection, A::Error> {
                let mut items = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    items.push(s);
                }
                Ok(Selection::List(items))
            }
        }
        d.deserialize_any(V)
    }
}

/// One case: games × tasks × models (× memory rounds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseSpec {
    pub games: Selection,
    pub tasks: Selection,
    pub models: Vec<String>,
    /// Overrides the suite's realtime flag for this case.
    #[serde(default)]
    pub realtime: Option<bool>,
    /// Memory rounds to sweep for model agents (one run per value).
    #[serde(default)]
    pub memory_rounds: Option<Vec<u32>>,
}

fn one() -> u32 {
    1
}
fn first_seed() -> Vec<u64> {
    vec![1]
}

/// `registry/suites/*.yaml`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteSpec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub cases: Vec<CaseSpec>,
    #[serde(default = "one")]
    pub repeats: u32,
    #[serde(default = "first_seed")]
    pub seeds: Vec<u64>,
    #[serde(default)]
    pub realtime: bool,
    /// Memory-rounds override for every model agent of the suite.
    #[serde(default)]
    pub memory_rounds: Option<u32>,
    #[serde(default)]
    pub max_steps: Option<u32>,
    /// Which frames each run keeps: `sparse` (the default: first, last,
    /// every failure with its reset, every Nth step), `all`, or `none`;
    /// `true`/`false` mean `all`/`none`.
    #[serde(default)]
    pub frames: FramesMode,
}

/// A suite's frame policy (`frames:` in the suite file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FramesMode {
    All,
    #[default]
    Sparse,
    None,
}

impl FramesMode {
    /// Whether runs write `frames/` at all.
    pub fn keeps_frames(self) -> bool {
        self != FramesMode::None
    }

    /// The sparse interval for a run of at most `max_steps` steps.
    pub fn sparse_every(self, max_steps: u32) -> Option<u32> {
        (self == FramesMode::Sparse).then(|| crate::run::sparse_every(max_steps))
    }
}

impl<'de> Deserialize<'de> for FramesMode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = FramesMode;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("all, sparse or none (or true / false)")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<FramesMode, E> {
                Ok(if v { FramesMode::All } else { FramesMode::None })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<FramesMode, E> {
                match v {
                    "all" | "true" => Ok(FramesMode::All),
                    "sparse" => Ok(FramesMode::Sparse),
                    "none" | "false" => Ok(FramesMode::None),
                    other => Err(E::custom(format!(
                        "frames: \"{other}\" is not one of all, sparse, none"
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// One planned run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlannedRun {
    pub index: usize,
    pub preset: String,
    pub seed: u64,
    pub repeat: u32,
    pub realtime: bool,
    pub memory_rounds: Option<u32>,
    /// Relative to the suite output directory.
    pub dir: String,
}

/// Parse a suite file; errors carry file:line:column.
pub fn load_suite(path: &Path) -> Result<SuiteSpec, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read suite: {e}", path.display()))?;
    let spec = serde_saphyr::from_str::<SuiteSpec>(&text).map_err(|e| {
        let location = e
            .location()
            .map(|l| (l.line() as usize, l.column() as usize));
        let (line, col, msg) =
            gw_core::registry::explain_yaml_error(&text, location, &e.to_string());
        format!("{}:{line}:{col}: suite: {msg}", path.display())
    })?;
    check_suite_name(&spec.name).map_err(|e| {
        let (line, col) = gw_core::registry::locate_key(&text, "name");
        format!("{}:{line}:{col}: {e}", path.display())
    })?;
    check_memory_rounds(&spec, &text)
        .map_err(|(line, col, e)| format!("{}:{line}:{col}: suite: {e}", path.display()))?;
    Ok(spec)
}

/// Every memory_rounds value of a suite (its own and each case's sweep)
/// within 0..=MAX_MEMORY_ROUNDS; else where the first bad one is written.
fn check_memory_rounds(spec: &SuiteSpec, text: &str) -> Result<(), (usize, usize, String)> {
    let max = gw_core::registry::MAX_MEMORY_ROUNDS;
    let values = spec.memory_rounds.iter().chain(
        spec.cases
            .iter()
            .flat_map(|c| c.memory_rounds.iter().flatten()),
    );
    for &v in values {
        if v > max {
            let (line, col) = locate_value(text, "memory_rounds", &v.to_string());
            return Err((
                line,
                col,
                format!(
                    "memory_rounds {v} is out of range; each value must be a whole number from 0 to {max}"
                ),
            ));
        }
    }
    Ok(())
}

/// Line and column (1-based) of the first `value` written as a whole token
/// at or after a `key:` line; the key's own place when none is found.
fn locate_value(text: &str, key: &str, value: &str) -> (usize, usize) {
    let mut after_key = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start().trim_start_matches("- ");
        if trimmed.starts_with(&format!("{key}:")) {
            after_key = true;
        }
        if !after_key {
            continue;
        }
        let mut from = 0;
        while let Some(at) = line[from..].find(value) {
            let start = from + at;
            let end = start + value.len();
            let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            if !digit(line[..start].chars().next_back()) && !digit(line[end..].chars().next()) {
                return (i + 1, start + 1);
            }
            from = end;
        }
    }
    gw_core::registry::locate_key(text, key)
}

fn select(sel: &Selection, all: Vec<String>, what: &str) -> Result<Vec<String>, String> {
    match sel {
        Selection::Keyword(k) if k == "all" => Ok(all),
        Selection::Keyword(k) => Ok(vec![k.clone()]),
        Selection::List(v) if v.is_empty() => Err(format!(
            "the {what} list is empty; use `all` or name at least one"
        )),
        Selection::List(v) => Ok(v.clone()),
    }
}

/// A suite name names its output folder (`runs/suites/<name>`), so it must
/// stay one plain folder name: no separators, no `..`, not absolute.
pub fn check_suite_name(name: &str) -> Result<(), String> {
    let bad = if name.trim().is_empty() {
        Some("is empty")
    } else if name.contains('/') || name.contains('\\') {
        Some("contains a path separator")
    } else if name == "." || name.contains("..") {
        Some("contains \"..\" or is \".\"")
    } else if name.chars().any(|c| c.is_control() || c == ':') {
        Some("contains control characters or ':'")
    } else if name.starts_with('.') {
        Some("starts with '.'")
    } else {
        None
    };
    match bad {
        Some(why) => Err(format!(
            "suite name \"{}\" {why}; use a plain folder name such as \"smoke\" (it becomes runs/suites/<name>)",
            name.escape_debug()
        )),
        None => Ok(()),
    }
}

/// The most runs one suite may plan. A plan is held in memory and written
/// to `suite.json` before anything runs, so a typo such as an extra digit
/// in `repeats` must be refused, not expanded (34 M runs took 12 GB).
pub const MAX_PLANNED_RUNS: usize = 250_000;
/// Most runs at once (`--max-parallel`): one thread each; far more than any
/// machine or model endpoint serves, and 100,000 threads never started.
pub const MAX_PARALLEL: usize = 1024;

/// Expand a suite into its ordered plan (repeat-major: wave 0 first).
pub fn expand(spec: &SuiteSpec, registry: &Registry) -> Result<Vec<PlannedRun>, String> {
    check_suite_name(&spec.name)?;
    if spec.repeats == 0 {
        return Err("repeats must be at least 1".into());
    }
    if spec.seeds.is_empty() {
        return Err("seeds must list at least one seed".into());
    }
    if spec.cases.is_empty() {
        return Err("the suite has no cases".into());
    }
    if spec.max_steps == Some(0) {
        return Err("max_steps must be at least 1 (or left out for each task's own budget)".into());
    }
    struct Variant {
        preset: String,
        realtime: bool,
        memory_rounds: Option<u32>,
    }
    let mut variants = Vec::new();
    for (ci, case) in spec.cases.iter().enumerate() {
        let games = select(
            &case.games,
            registry
                .games
                .iter()
                .filter(|(_, g)| g.value.in_all)
                .map(|(k, _)| k.clone())
                .collect(),
            "games",
        )
        .map_err(|e| format!("case {}: {e}", ci + 1))?;
        if case.models.is_empty() {
            return Err(format!("case {}: list at least one model", ci + 1));
        }
        let mut matched_tasks = std::collections::BTreeSet::new();
        for game in &games {
            if registry.game(game).is_none() {
                return Err(format!(
                    "case {}: unknown game \"{game}\"; see `gameworld list games`",
                    ci + 1
                ));
            }
            let game_tasks: Vec<String> = registry.tasks_of(game).map(|t| t.id.clone()).collect();
            let tasks = match &case.tasks {
                Selection::Keyword(k) if k == "all" => game_tasks.clone(),
                other => select(other, vec![], "tasks")
                    .map_err(|e| format!("case {}: {e}", ci + 1))?
                    .into_iter()
                    .filter(|t| game_tasks.contains(t))
                    .collect(),
            };
            for task in tasks {
                matched_tasks.insert(task.clone());
                for model in &case.models {
                    let preset = format!("{game}+{task}+{model}");
                    let resolved = registry
                        .resolve_preset(&preset)
                        .map_err(|e| format!("case {}: {e}", ci + 1))?;
                    let realtime = case.realtime.unwrap_or(spec.realtime);
                    let calls_models = !resolved.model_specs().is_empty();
                    let rounds: Vec<Option<u32>> = match &case.memory_rounds {
                        Some(list) if calls_models && !list.is_empty() => {
                            list.iter().map(|r| Some(*r)).collect()
                        }
                        _ if calls_models => vec![spec.memory_rounds],
                        _ => vec![None],
                    };
                    for memory_rounds in rounds {
                        variants.push(Variant {
                            preset: preset.clone(),
                            realtime,
                            memory_rounds,
                        });
                    }
                }
            }
        }
        if let Selection::List(wanted) = &case.tasks {
            for t in wanted {
                if !matched_tasks.contains(t) {
                    return Err(format!(
                        "case {}: task \"{t}\" belongs to none of the selected games",
                        ci + 1
                    ));
                }
            }
        }
    }
    let planned = variants
        .len()
        .checked_mul(spec.seeds.len())
        .and_then(|n| n.checked_mul(spec.repeats as usize));
    match planned {
        Some(n) if n <= MAX_PLANNED_RUNS => {}
        _ => {
            return Err(format!(
                "the suite plans {} runs ({} game/task/model variants x {} seeds x {} repeats), \
                 more than the {MAX_PLANNED_RUNS} one suite may hold; split it into several suite files",
                planned.map_or_else(|| "too many".to_string(), |n| n.to_string()),
                variants.len(),
                spec.seeds.len(),
                spec.repeats
            ));
        }
    }
    // Each run has its own folder: the same game, task, model and seed
    // listed twice (a repeated seed, game, model or case) would have two
    // runs write one folder at once.
    let mut seen = std::collections::BTreeSet::new();
    for v in &variants {
        for &seed in &spec.seeds {
            if !seen.insert((v.preset.as_str(), v.realtime, v.memory_rounds, seed)) {
                return Err(format!(
                    "{} with seed {seed}{}{} is planned twice (a seed, game, task, model or case \
                     is listed more than once); list each once and use `repeats` to run it again",
                    v.preset,
                    if v.realtime { " in real time" } else { "" },
                    v.memory_rounds
                        .map(|m| format!(" and memory_rounds {m}"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    let mut plan = Vec::new();
    for repeat in 0..spec.repeats {
        for v in &variants {
            for &seed in &spec.seeds {
                let mut tag = String::new();
                if v.realtime {
                    tag.push_str("rt-");
                }
                if let Some(m) = v.memory_rounds {
                    tag.push_str(&format!("mem{m}-"));
                }
                plan.push(PlannedRun {
                    index: plan.len(),
                    preset: v.preset.clone(),
                    seed,
                    repeat,
                    realtime: v.realtime,
                    memory_rounds: v.memory_rounds,
                    dir: format!("runs/{}/{tag}seed-{seed}/rep-{repeat}", v.preset),
                });
            }
        }
    }
    Ok(plan)
}
