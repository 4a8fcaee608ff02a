//! Which tasks a dataset covers: `openworld` registry tasks by id, or a
//! whole suite by name (`atomic` = the eight MGOA tasks), read from each
//! task's `init` (target item and start kit).

use crate::episode::TaskDef;
use gw_core::registry::Registry;
use gw_openworld::game::{ID, OwTask};

/// Resolve a comma-separated list of task ids and suite names; every task
/// asks for `count` of its target item.
pub fn resolve(reg: &Registry, list: &str, count: u32) -> Result<Vec<TaskDef>, String> {
    let mut out: Vec<TaskDef> = Vec::new();
    let open: Vec<_> = reg
        .tasks
        .values()
        .map(|s| &s.value)
        .filter(|t| t.game_id == ID)
        .collect();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let mut picked: Vec<_> = open
            .iter()
            .filter(|t| t.suite.as_deref() == Some(name))
            .copied()
            .collect();
        picked.sort_by(|a, b| a.id.cmp(&b.id));
        if picked.is_empty() {
            picked.extend(open.iter().filter(|t| t.id == name).copied());
        }
        if picked.is_empty() {
            return Err(format!(
                "--tasks: \"{name}\" is neither an openworld task id nor a suite (atomic, long_horizon, open_ended); `gameworld list tasks` shows the ids, e.g. atomic_logs"
            ));
        }
        for t in picked {
            let task = OwTask::from_options(&t.init);
            if task.target_item.is_empty() {
                return Err(format!(
                    "--tasks: task {} has no target_item in its init; pick a task that asks for an item",
                    t.id
                ));
            }
            if out.iter().any(|d| d.id == t.id) {
                continue;
            }
            out.push(TaskDef {
                id: t.id.clone(),
                target_item: task.target_item,
                count,
                kit: task.kit,
            });
        }
    }
    if out.is_empty() {
        return Err(
            "--tasks is empty; name task ids (e.g. atomic_logs,atomic_dirt) or `atomic`".into(),
        );
    }
    Ok(out)
}
