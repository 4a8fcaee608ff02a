//! `gameworld import-reference`: an original GameWorld catalog (games,
//! tasks and models in its YAML layout) plus its game folders, turned into a
//! registry root of browser games for `--registry DIR`.
//!
//! Every input field is either converted or reported in [`ImportReport`]
//! (`file: field: what happened`); nothing is dropped silently.

use serde_json::{Map, Value, json};
use std::path::{Component, Path, PathBuf};

/// What the importer did, for the user.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ImportReport {
    pub games: usize,
    pub tasks: usize,
    pub models: usize,
    /// `file: field: note`, one per field that was not carried over as is.
    pub notes: Vec<String>,
    /// Catalog games whose folder (`--games DIR/<id>/index.html`) is not
    /// there: not imported, nor their tasks (an imported browser game would
    /// replace a working game of the same id in the project's registry).
    pub missing_games: Vec<MissingGame>,
    /// Entries left out because the converted YAML would not load
    /// (`file: why`), so that the registry written always loads.
    pub rejected: Vec<String>,
}

/// A catalog game without its folder.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MissingGame {
    pub id: String,
    pub folder: String,
    pub tasks_skipped: usize,
}

/// Genre and curriculum level for a game id, when the caller knows them
/// (the project's own registry has them for the 34 benchmark games).
pub type GameFacts<'a> = dyn Fn(&str) -> Option<(String, u8)> + 'a;

fn read_yaml(path: &Path) -> Result<Map<String, Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: Value = serde_saphyr::from_str(&text)
        .map_err(|e| format!("{}: not valid YAML: {e}", path.display()))?;
    match v {
        Value::Object(m) => Ok(m),
        _ => Err(format!(
            "{}: expected a mapping at the top level",
            path.display()
        )),
    }
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn write_yaml(path: &Path, value: &Value) -> Result<(), String> {
    let text = serde_saphyr::to_string(value).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension("yaml.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `to` relative to `from` (both absolute), with `..` where needed.
fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out
}

struct Notes<'a> {
    file: String,
    list: &'a mut Vec<String>,
}

impl Notes<'_> {
    fn add(&mut self, field: &str, note: impl AsRef<str>) {
        self.list
            .push(format!("{}: {field}: {}", self.file, note.as_ref()));
    }
}

fn take<'a>(
    m: &'a Map<String, Value>,
    used: &mut Vec<&'static str>,
    key: &'static str,
) -> Option<&'a Value> {
    used.push(key);
    m.get(key).filter(|v| !v.is_null())
}

fn leftovers(m: &Map<String, Value>, used: &[&str], notes: &mut Notes<'_>, prefix: &str) {
    for k in m.keys() {
        if !used.contains(&k.as_str()) {
            notes.add(
                &format!("{prefix}{k}"),
                "not supported by GameWorld-RS; not imported",
            );
        }
    }
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// One converted file, held until the whole import is known to load.
struct Entry {
    /// `games/<id>.yaml`, `tasks/<game>/<id>.yaml` or `models/<id>.yaml`.
    rel: String,
    value: Value,
    /// The game a game or task entry belongs to.
    game: Option<String>,
}

/// Import `catalog` (holding `games/`, `tasks/`, `models/`) whose game
/// folders live under `games_dir/<game_id>/`, writing a registry root at
/// `out`. Games whose folder is missing are left out (with their tasks) and
/// listed in [`ImportReport::missing_games`]; nothing is written unless the
/// converted files load as a registry, entries that would not are left out
/// and listed in [`ImportReport::rejected`].
pub fn import_catalog(
    catalog: &Path,
    games_dir: &Path,
    out: &Path,
    facts: &GameFacts<'_>,
) -> Result<ImportReport, String> {
    let mut report = ImportReport::default();
    let game_files = yaml_files(&catalog.join("games"));
    if game_files.is_empty() {
        return Err(format!(
            "{} has no games/*.yaml; pass --catalog the folder that holds the original games/, tasks/ and models/",
            catalog.display()
        ));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let out_abs = out
        .canonicalize()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let mut entries = Vec::new();
    let mut game_ids = Vec::new();
    for file in &game_files {
        let id = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let src = read_yaml(file)?;
        let by_url = matches!(src.get("url"), Some(Value::String(_)));
        let folder = games_dir.join(&id);
        if !by_url && !folder.join("index.html").is_file() {
            report.missing_games.push(MissingGame {
                id,
                folder: folder.display().to_string(),
                tasks_skipped: 0,
            });
            continue;
        }
        let mut notes = Notes {
            file: file.display().to_string(),
            list: &mut report.notes,
        };
        let game = convert_game(&id, &src, games_dir, &out_abs, facts, &mut notes)?;
        entries.push(Entry {
            rel: format!("games/{id}.yaml"),
            value: game,
            game: Some(id.clone()),
        });
        game_ids.push(id);
    }
    if game_ids.is_empty() {
        return Err(format!(
            "none of the {} catalog games has its folder under {} (looked for {}/<game_id>/index.html); \
             pass --games the folder that holds the game folders",
            game_files.len(),
            games_dir.display(),
            games_dir.display()
        ));
    }
    let mut task_dirs: Vec<PathBuf> = std::fs::read_dir(catalog.join("tasks"))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    task_dirs.sort();
    for dir in task_dirs {
        for file in yaml_files(&dir) {
            let src = read_yaml(&file)?;
            let mut notes = Notes {
                file: file.display().to_string(),
                list: &mut report.notes,
            };
            let task = convert_task(&file, &src, &mut notes)?;
            let game_id = task["game_id"].as_str().unwrap_or_default().to_string();
            if let Some(m) = report.missing_games.iter_mut().find(|m| m.id == game_id) {
                m.tasks_skipped += 1;
                continue;
            }
            if !game_ids.contains(&game_id) {
                notes.add(
                    "game_id",
                    format!("game \"{game_id}\" is not in the catalog; task skipped"),
                );
                continue;
            }
            let id = task["id"].as_str().unwrap_or_default().to_string();
            entries.push(Entry {
                rel: format!("tasks/{game_id}/{id}.yaml"),
                value: task,
                game: Some(game_id),
            });
        }
    }
    for file in yaml_files(&catalog.join("models")) {
        let src = read_yaml(&file)?;
        let mut notes = Notes {
            file: file.display().to_string(),
            list: &mut report.notes,
        };
        let model = convert_model(&file, &src, &mut notes);
        let id = model["id"].as_str().unwrap_or_default().to_string();
        entries.push(Entry {
            rel: format!("models/{id}.yaml"),
            value: model,
            game: None,
        });
    }
    keep_loadable(&mut entries, &out_abs, &mut report)?;
    for e in &entries {
        write_yaml(&out.join(&e.rel), &e.value)?;
        match e.rel.split('/').next() {
            Some("games") => report.games += 1,
            Some("tasks") => report.tasks += 1,
            _ => report.models += 1,
        }
    }
    Ok(report)
}

/// Drop the entries the registry loader refuses (a game takes its tasks
/// with it) until the rest loads; each one dropped is reported.
fn keep_loadable(
    entries: &mut Vec<Entry>,
    root: &Path,
    report: &mut ImportReport,
) -> Result<(), String> {
    loop {
        let texts: Vec<(String, String)> = entries
            .iter()
            .map(|e| {
                serde_saphyr::to_string(&e.value)
                    .map(|t| (e.rel.clone(), t))
                    .map_err(|err| format!("{}: {err}", e.rel))
            })
            .collect::<Result<_, _>>()?;
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let Err(errors) = gw_core::registry::Registry::from_memory(root, &files) else {
            return Ok(());
        };
        let before = entries.len();
        for err in &errors.0 {
            let Some(at) = entries.iter().position(|e| root.join(&e.rel) == err.file) else {
                continue;
            };
            let gone = entries.remove(at);
            report.rejected.push(format!("{}: {}", gone.rel, err));
            if gone.rel.starts_with("games/") {
                let game = gone.game.clone();
                entries.retain(|e| {
                    let dependent = e.game == game;
                    if dependent {
                        report.rejected.push(format!(
                            "{}: its game {} was left out",
                            e.rel,
                            game.as_deref().unwrap_or("")
                        ));
                    }
                    !dependent
                });
            }
        }
        if entries.len() == before {
            // Errors that belong to no single entry: nothing safe to write.
            return Err(format!("the imported registry would not load:\n{errors}"));
        }
    }
}

fn convert_game(
    id: &str,
    src: &Map<String, Value>,
    games_dir: &Path,
    out_abs: &Path,
    facts: &GameFacts<'_>,
    notes: &mut Notes<'_>,
) -> Result<Value, String> {
    let mut used = Vec::new();
    let name = take(src, &mut used, "game_name")
        .map(|v| text(Some(v)))
        .unwrap_or_else(|| id.to_string());
    let (genre, level) = facts(id).unwrap_or_else(|| {
        notes.add("genre", "the original catalog has no genre or curriculum level; set to arcade / 1 (edit the YAML to change)");
        ("arcade".into(), 1)
    });
    let mut g = Map::new();
    g.insert("id".into(), json!(id));
    g.insert("name".into(), json!(name));
    g.insert("genre".into(), json!(genre));
    g.insert("curriculum_level".into(), json!(level));
    g.insert("backend".into(), json!("browser"));
    match take(src, &mut used, "url") {
        Some(Value::String(u)) => {
            g.insert("url".into(), json!(u));
        }
        _ => {
            // Only games whose folder holds index.html get here.
            let folder = games_dir.join(id);
            let abs = folder
                .canonicalize()
                .unwrap_or_else(|_| std::env::current_dir().unwrap_or_default().join(&folder));
            g.insert(
                "path".into(),
                json!(relative(out_abs, &abs).to_string_lossy()),
            );
        }
    }
    let width = take(src, &mut used, "width")
        .and_then(Value::as_u64)
        .unwrap_or(1280);
    let height = take(src, &mut used, "height")
        .and_then(Value::as_u64)
        .unwrap_or(720);
    g.insert("viewport".into(), json!({"width": width, "height": height}));
    g.insert(
        "speed_multiplier".into(),
        json!(
            take(src, &mut used, "speed_multiplier")
                .and_then(Value::as_f64)
                .unwrap_or(1.0)
        ),
    );
    g.insert(
        "player_mode".into(),
        json!(
            take(src, &mut used, "player_mode")
                .and_then(Value::as_str)
                .unwrap_or("single")
        ),
    );
    let rules = text(take(src, &mut used, "game_rules"));
    g.insert(
        "rules".into(),
        json!(if rules.trim().is_empty() {
            format!("{name}.")
        } else {
            rules
        }),
    );
    let roles = take(src, &mut used, "game_roles")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if roles.is_empty() {
        return Err(format!(
            "{}: game_roles is missing or empty; every game needs a role",
            notes.file
        ));
    }
    let mut out_roles = Vec::new();
    for (i, r) in roles.iter().enumerate() {
        let r = r.as_object().cloned().unwrap_or_default();
        out_roles.push(convert_role(&r, &format!("game_roles[{i}]."), notes));
    }
    g.insert("roles".into(), Value::Array(out_roles));
    leftovers(src, &used, notes, "");
    Ok(Value::Object(g))
}

fn convert_role(r: &Map<String, Value>, prefix: &str, notes: &mut Notes<'_>) -> Value {
    let mut used = Vec::new();
    let mut out = Map::new();
    out.insert(
        "name".into(),
        json!(text(take(r, &mut used, "name")).if_empty("player")),
    );
    let prompt = take(r, &mut used, "prompt")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut pused = Vec::new();
    let role_section = text(take(&prompt, &mut pused, "role_section"));
    let controls_section = text(take(&prompt, &mut pused, "computer_use_controls_section"));
    leftovers(&prompt, &pused, notes, &format!("{prefix}prompt."));
    out.insert(
        "prompt".into(),
        json!(role_section.if_empty("You play this game.")),
    );
    if !controls_section.is_empty() {
        out.insert("control_description".into(), json!(controls_section));
    }
    let cu = take(r, &mut used, "computer_use_controls")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut cused = Vec::new();
    for (k, dst) in [
        ("allowed_keys", "allowed_keys"),
        ("allow_clicks", "allow_clicks"),
        ("hold_duration", "hold_duration"),
        ("key_durations", "key_durations"),
    ] {
        if let Some(v) = take(&cu, &mut cused, k) {
            out.insert(dst.into(), v.clone());
        }
    }
    leftovers(
        &cu,
        &cused,
        notes,
        &format!("{prefix}computer_use_controls."),
    );
    let mut controls = Vec::new();
    for (i, c) in take(r, &mut used, "semantic_controls")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let c = c.as_object().cloned().unwrap_or_default();
        controls.push(convert_control(
            &c,
            &format!("{prefix}semantic_controls[{i}]."),
            notes,
        ));
    }
    out.insert("semantic_controls".into(), Value::Array(controls));
    leftovers(r, &used, notes, prefix);
    Value::Object(out)
}

fn convert_control(c: &Map<String, Value>, prefix: &str, notes: &mut Notes<'_>) -> Value {
    let mut used = Vec::new();
    let mut out = Map::new();
    out.insert("id".into(), json!(text(take(c, &mut used, "id"))));
    if let Some(d) = take(c, &mut used, "description") {
        out.insert("description".into(), json!(text(Some(d))));
    }
    if let Some(a) = take(c, &mut used, "aliases") {
        out.insert("aliases".into(), a.clone());
    }
    let mut binding = take(c, &mut used, "binding")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    // The original keeps cell coordinates inside the binding.
    let cells = binding
        .remove("cell_bindings")
        .or_else(|| take(c, &mut used, "cell_bindings").cloned());
    if let Some(cells) = cells {
        let mut map = Map::new();
        if let Some(obj) = cells.as_object() {
            for (cell, xy) in obj {
                let point = match xy {
                    Value::Array(a) if a.len() == 2 => Some(json!([a[0], a[1]])),
                    Value::Object(o) => match (o.get("x"), o.get("y")) {
                        (Some(x), Some(y)) => Some(json!([x, y])),
                        _ => None,
                    },
                    _ => None,
                };
                match point {
                    Some(p) => {
                        map.insert(cell.clone(), p);
                    }
                    None => notes.add(
                        &format!("{prefix}binding.cell_bindings.{cell}"),
                        "not an [x, y] point; not imported",
                    ),
                }
            }
        } else {
            notes.add(
                &format!("{prefix}binding.cell_bindings"),
                "not a mapping of cell ids to points; not imported",
            );
        }
        binding.entry("cell_param").or_insert(json!(true));
        out.insert("cell_bindings".into(), Value::Object(map));
    }
    out.insert("binding".into(), Value::Object(binding));
    let params = take(c, &mut used, "parameters")
        .cloned()
        .unwrap_or(Value::Null);
    let params: Vec<Value> = match params {
        Value::Array(items) => items
            .into_iter()
            .map(|p| match p {
                Value::String(name) => json!({"name": name, "type": "string"}),
                other => other,
            })
            .collect(),
        // A JSON-schema style mapping: {name: {type, description}}.
        Value::Object(m) => m
            .into_iter()
            .map(|(name, spec)| {
                let mut p = json!({"name": name, "type": spec.get("type").and_then(Value::as_str).unwrap_or("string")});
                if let Some(d) = spec.get("description") {
                    p["description"] = d.clone();
                }
                p
            })
            .collect(),
        _ => Vec::new(),
    };
    if !params.is_empty() {
        out.insert("parameters".into(), Value::Array(params));
    }
    if let Some(r) = take(c, &mut used, "required") {
        out.insert("required".into(), r.clone());
    }
    leftovers(c, &used, notes, prefix);
    Value::Object(out)
}

trait IfEmpty {
    fn if_empty(self, default: &str) -> String;
}
impl IfEmpty for String {
    fn if_empty(self, default: &str) -> String {
        if self.trim().is_empty() {
            default.to_string()
        } else {
            self
        }
    }
}

fn convert_task(
    file: &Path,
    src: &Map<String, Value>,
    notes: &mut Notes<'_>,
) -> Result<Value, String> {
    let mut used = Vec::new();
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let dir = file
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let id = text(take(src, &mut used, "task_id")).if_empty(stem);
    if id != stem {
        notes.add(
            "task_id",
            format!("\"{id}\" differs from the file name; the file name \"{stem}\" is used"),
        );
    }
    let game_id = text(take(src, &mut used, "game_id")).if_empty(dir);
    let mut t = Map::new();
    t.insert("id".into(), json!(stem));
    t.insert("game_id".into(), json!(game_id));
    t.insert(
        "instruction".into(),
        json!(
            text(take(src, &mut used, "task_prompt")).if_empty(&format!("Complete task {stem}."))
        ),
    );
    if let Some(e) = take(src, &mut used, "evaluator_id").and_then(Value::as_str)
        && e != "game_api_metric"
    {
        notes.add(
            "evaluator_id",
            format!(
                "evaluator \"{e}\" is not supported; scored from game state as game_api_metric"
            ),
        );
    }
    let num = |v: Option<&Value>| {
        v.and_then(|v| {
            v.as_f64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        })
    };
    let start = num(take(src, &mut used, "task_start_score_field"));
    let target = num(take(src, &mut used, "task_target_score_field"));
    let (Some(start), Some(target)) = (start, target) else {
        return Err(format!(
            "{}: task_start_score_field and task_target_score_field must be numbers",
            file.display()
        ));
    };
    let ec = take(src, &mut used, "evaluator_config")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut eused = Vec::new();
    match (
        take(&ec, &mut eused, "score_field"),
        take(&ec, &mut eused, "aggregate_score_fields"),
    ) {
        (Some(f), _) => {
            t.insert("score_field".into(), f.clone());
        }
        (None, Some(a)) => {
            t.insert("aggregate_score_fields".into(), a.clone());
        }
        (None, None) => {
            return Err(format!(
                "{}: evaluator_config needs score_field or aggregate_score_fields",
                file.display()
            ));
        }
    }
    t.insert("start".into(), json!(start));
    t.insert("target".into(), json!(target));
    if let Some(f) = take(&ec, &mut eused, "end_field") {
        t.insert("end_field".into(), f.clone());
    }
    if let Some(v) = take(&ec, &mut eused, "end_value")
        && v != &Value::Bool(true)
    {
        notes.add(
            "evaluator_config.end_value",
            format!("end_value {v} is not supported (runs end when end_field is truthy)"),
        );
    }
    if let Some(s) = take(&ec, &mut eused, "terminal_status")
        && s.as_str() != Some("success")
    {
        notes.add(
            "evaluator_config.terminal_status",
            format!("terminal_status {s}: success is decided by the score target"),
        );
    }
    if let Some(m) = take(&ec, &mut eused, "metrics_fields") {
        t.insert("state_fields".into(), m.clone());
    }
    leftovers(&ec, &eused, notes, "evaluator_config.");
    if let Some(n) = take(src, &mut used, "max_steps") {
        t.insert("max_steps".into(), n.clone());
    }
    if let Some(c) = take(src, &mut used, "continue_on_fail") {
        t.insert("continue_on_fail".into(), c.clone());
    }
    if take(src, &mut used, "pause_during_inference") == Some(&Value::Bool(false)) {
        notes.add(
            "pause_during_inference",
            "false: run this task with --realtime to charge inference time",
        );
    }
    if let Some(Value::String(suffix)) = take(src, &mut used, "game_url_suffix") {
        t.insert("url_suffix".into(), json!(suffix));
        // `?level=N` also reaches init({level}).
        if let Some(level) = suffix
            .trim_start_matches(['?', '#'])
            .split('&')
            .find_map(|kv| kv.strip_prefix("level="))
            .and_then(|n| n.parse::<u32>().ok())
        {
            t.insert("level".into(), json!(level));
        }
    }
    leftovers(src, &used, notes, "");
    Ok(Value::Object(t))
}

fn convert_model(file: &Path, src: &Map<String, Value>, notes: &mut Notes<'_>) -> Value {
    let mut used = Vec::new();
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let mut m = Map::new();
    let id = stem.replace('+', "-");
    m.insert("id".into(), json!(id));
    let model = text(take(src, &mut used, "model")).if_empty(stem);
    let lower = model.to_ascii_lowercase();
    let provider = if lower.contains("claude") {
        "anthropic"
    } else if lower.contains("gemini") {
        "gemini"
    } else {
        "openai"
    };
    notes.add(
        "provider",
        format!("inferred \"{provider}\" from the model name; check base_url and api_key_env"),
    );
    m.insert("provider".into(), json!(provider));
    m.insert("model".into(), json!(model));
    let template = text(take(src, &mut used, "prompt_template_id"));
    let cua = template.contains("computer_use") || stem.ends_with("-cua");
    m.insert(
        "interface".into(),
        json!(if cua { "computer-use" } else { "generalist" }),
    );
    if let Some(n) = take(src, &mut used, "model_name") {
        m.insert("reference_name".into(), json!(text(Some(n))));
    }
    if let Some(f) = take(src, &mut used, "output_format") {
        m.insert("output_format".into(), json!(text(Some(f))));
    }
    if take(src, &mut used, "enable_memory") == Some(&Value::Bool(false)) {
        m.insert("memory_rounds".into(), json!(0));
    }
    for (k, dst) in [
        ("base_url", "base_url"),
        ("api_key_env", "api_key_env"),
        ("temperature", "temperature"),
        ("max_tokens", "max_tokens"),
        ("timeout", "timeout_s"),
        ("max_retries", "max_retries"),
    ] {
        if let Some(v) = take(src, &mut used, k) {
            m.insert(dst.into(), v.clone());
        }
    }
    leftovers(src, &used, notes, "");
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative(Path::new("/a/b/out"), Path::new("/a/b/games/x")),
            PathBuf::from("../games/x")
        );
        assert_eq!(
            relative(Path::new("/a"), Path::new("/a/g")),
            PathBuf::from("g")
        );
    }
}
