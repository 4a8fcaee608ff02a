//! The open world (`gw_openworld::game`) through the stepper: the scripted
//! expert (planner + skill policy) solves tasks of its registry within their
//! budgets, and a long run is deterministic.

use crate::testkit::{play_expert, stepper};
use gw_core::registry::Interface;
use gw_openworld::game::ID;

#[test]
fn expert_solves_wood_and_stone_tasks_through_the_runtime_seam() {
    for (task, seed) in [
        ("lh_wood_crafting_table", 1),
        ("lh_wood_wooden_pickaxe", 2),
        ("lh_stone_stone_pickaxe", 3),
    ] {
        let r = play_expert(ID, task, seed);
        assert!(r.success, "{task} seed {seed}: {r:?}");
        assert_eq!(r.best_score, 1.0);
    }
}

#[test]
fn a_long_run_is_deterministic() {
    // A stone-group run of the expert: thousands of ticks with mining,
    // crafting, placing stations and mobs about.
    let digest = || {
        let mut s = stepper(ID, "lh_stone_furnace", 4);
        let mut lines = Vec::new();
        while s.finished().is_none() && s.step_index() < 3000 {
            let payload = s.expert_payload();
            let rec = s.step(Interface::Generalist, Some(&payload)).unwrap();
            assert!(rec.valid(), "{:?}", rec.invalid);
            lines.push(serde_json::to_string(&rec.state).unwrap());
        }
        lines
    };
    let a = digest();
    let b = digest();
    assert!(a.len() > 500, "only {} steps", a.len());
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "step {} differs", i + 1);
    }
}
