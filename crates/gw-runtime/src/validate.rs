//! Registry checks that need the games themselves (gw-core cannot see
//! them): every task's `score_field`, `aggregate_score_fields` and
//! `end_field` must be a path in one real `get_state()` of its game.

use gw_core::Stepper;
use gw_core::registry::{Registry, RegistryError, locate_key};
use gw_core::state::lookup;

/// One error per task field that names a path the game's state lacks.
pub fn state_paths(registry: &Registry) -> Vec<RegistryError> {
    let mut errors = Vec::new();
    for t in registry.tasks.values() {
        let task = &t.value;
        let Some(game) = gw_games::create(&task.game_id) else {
            continue;
        };
        let Ok(preset) = registry.resolve_preset(&format!("{}+{}+noop", task.game_id, task.id))
        else {
            continue;
        };
        let state = match Stepper::new(game, &preset, 1) {
            Ok(stepper) => stepper.state_value(),
            Err(e) => {
                let (line, column) = locate_key(&t.source, "game_id");
                errors.push(RegistryError {
                    file: t.file.clone(),
                    line,
                    column,
                    message: format!(
                        "game \"{}\" does not start with this task's options: {e}",
                        task.game_id
                    ),
                });
                continue;
            }
        };
        let mut fields: Vec<(&str, &str)> = Vec::new();
        if let Some(f) = &task.score_field {
            fields.push(("score_field", f));
        }
        for f in task.aggregate_score_fields.iter().flatten() {
            fields.push(("aggregate_score_fields", f));
        }
        if let Some(f) = &task.end_field {
            fields.push(("end_field", f));
        }
        for (key, path) in fields {
            if lookup(&state, path).is_none() {
                let (line, column) = locate_path(&t.source, key, path);
                let known = top_paths(&state);
                errors.push(RegistryError {
                    file: t.file.clone(),
                    line,
                    column,
                    message: format!(
                        "{key} \"{path}\" is not in the state of game \"{}\"; use a path such as {}",
                        task.game_id,
                        known.join(", ")
                    ),
                });
            }
        }
    }
    errors
}

/// Where `path` is written under `key` (its own list item for aggregates).
fn locate_path(source: &str, key: &str, path: &str) -> (usize, usize) {
    let (line, column) = locate_key(source, key);
    for (i, text) in source.lines().enumerate().skip(line.saturating_sub(1)) {
        if let Some(col) = text.find(path) {
            return (i + 1, col + 1);
        }
    }
    (line, column)
}

/// A few numeric paths of the state, as a hint.
fn top_paths(state: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    for section in ["game_state", "metrics"] {
        if let Some(obj) = state.get(section).and_then(|v| v.as_object()) {
            for (k, v) in obj {
                if v.is_number() || v.is_boolean() {
                    out.push(format!("{section}.{k}"));
                }
            }
        }
    }
    out.truncate(8);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn shipped_tasks_name_real_state_paths() {
        let reg =
            Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
                .unwrap_or_else(|e| panic!("{e}"));
        let errors = state_paths(&reg);
        assert!(
            errors.is_empty(),
            "{}",
            gw_core::registry::RegistryErrors(errors)
        );
    }

    #[test]
    fn a_missing_state_path_is_located_and_explained() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tasks/01_2048")).unwrap();
        std::fs::write(
            root.join("tasks/01_2048/01_99.yaml"),
            "id: \"01_99\"\ngame_id: \"01_2048\"\ninstruction: reach it\naggregate_score_fields:\n  - game_state.score\n  - game_state.no_such_thing\nstart: 0\ntarget: 10\nend_field: metrics.nope\n",
        )
        .unwrap();
        let reg = Registry::load(&[
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
            root.to_path_buf(),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        let errors = state_paths(&reg);
        let text = gw_core::registry::RegistryErrors(errors.clone()).to_string();
        assert_eq!(errors.len(), 2, "{text}");
        assert_eq!((errors[0].line, errors[0].column), (6, 5), "{text}");
        assert!(
            errors[0].message.contains("game_state.no_such_thing"),
            "{text}"
        );
        assert!(errors[0].message.contains("game_state.score"), "{text}");
        assert_eq!((errors[1].line, errors[1].column), (9, 12), "{text}");
    }
}
