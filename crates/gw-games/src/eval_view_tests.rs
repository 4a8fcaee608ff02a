//! `Game::eval_view` (what the evaluator reads when no trajectory records
//! the whole snapshot) against the whole snapshot, for every task of every
//! native game: the same values at the task's score and end fields and
//! under `terminal`, and a stepper without snapshots scores, decides and
//! resets exactly as one with them.

use crate::testkit::{registry, stepper};
use gw_core::registry::Interface;
use gw_core::state::lookup;

const STEPS: u32 = 80;

#[test]
fn eval_view_matches_the_snapshot_for_every_task() {
    let reg = registry();
    let mut checked = 0;
    for (game_id, task_id) in reg.tasks.keys() {
        if !crate::GAME_IDS.contains(&game_id.as_str()) {
            continue;
        }
        let task = &reg.tasks[&(game_id.clone(), task_id.clone())].value;
        let mut paths = task.score_fields();
        paths.extend(task.end_field.clone());
        paths.extend(["terminal.isTerminal".into(), "terminal.outcome".into()]);
        let mut full = stepper(game_id, task_id, 5);
        let mut lean = stepper(game_id, task_id, 5);
        lean.set_snapshots(false);
        for step in 0..STEPS {
            if full.finished().is_some() {
                break;
            }
            let roles = full.role_names().len();
            let (a, b) = if roles > 1 {
                let payloads: Vec<_> = (0..roles).map(|i| full.expert_payload_for(i)).collect();
                let proposals: Vec<_> = payloads
                    .iter()
                    .map(|p| (Interface::Generalist, Some(p)))
                    .collect();
                let a = full.step_joint(&proposals).unwrap();
                let b = lean.step_joint(&proposals).unwrap();
                ((a.state, a.eval), (b.state, b.eval))
            } else {
                let p = full.expert_payload();
                let a = full.step(Interface::Generalist, Some(&p)).unwrap();
                let b = lean.step(Interface::Generalist, Some(&p)).unwrap();
                ((a.state, a.eval), (b.state, b.eval))
            };
            assert_eq!(
                a.1, b.1,
                "{game_id}+{task_id} step {step}: evaluations differ"
            );
            for p in &paths {
                assert_eq!(
                    lookup(&b.0, p),
                    lookup(&a.0, p),
                    "{game_id}+{task_id} step {step}: {p}"
                );
            }
            assert_eq!(
                lookup(&lean.eval_value(), &paths[0]),
                lookup(&full.state_value(), &paths[0])
            );
        }
        checked += 1;
    }
    assert!(checked >= 150, "{checked} tasks checked");
}
