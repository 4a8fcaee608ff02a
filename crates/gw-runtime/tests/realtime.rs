//! Real-time mode: the world keeps moving while the agent thinks.

use gw_core::registry::{Interface, Registry};
use gw_core::{Decision, Stepper};
use std::path::PathBuf;

fn stepper(preset: &str) -> Stepper {
    let reg = Registry::load(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")])
        .unwrap();
    let p = reg.resolve_preset(preset).unwrap();
    Stepper::new(gw_games::create(&p.game.id).unwrap(), &p, 1).unwrap()
}

/// Play the expert for `steps` steps, letting `think_ms` of game time pass
/// before each action (as `--realtime` does with measured inference time).
fn play(think_ms: u64, steps: u32) -> (u64, u32, f64) {
    let mut s = stepper("13_flappy-bird+13_05+scripted");
    let start = s.state_value()["gameTimeMs"].as_u64().unwrap();
    let mut first_step_ms = 0;
    let mut resets = 0;
    for i in 0..steps {
        s.idle(think_ms);
        let p = s.expert_payload();
        let rec = s.step(Interface::Generalist, Some(&p)).unwrap();
        if i == 0 {
            first_step_ms = rec.state["gameTimeMs"].as_u64().unwrap() - start;
        }
        if rec.eval.decision == Decision::Reset {
            resets += 1;
        }
        if s.finished().is_some() {
            break;
        }
    }
    (first_step_ms, resets, s.evaluator().best_score())
}

#[test]
fn thinking_time_moves_the_clock_and_hurts_a_timing_game() {
    let (paused_ms, paused_resets, paused_best) = play(0, 40);
    let (rt_ms, rt_resets, rt_best) = play(700, 40);
    // One action lasts 0.2 s; real time adds the 0.7 s of thinking.
    assert_eq!(paused_ms, 200);
    assert_eq!(rt_ms, 900);
    assert!(
        paused_best > rt_best || rt_resets > paused_resets,
        "a slow agent should do worse at Flappy Bird: paused {paused_best}/{paused_resets} vs real-time {rt_best}/{rt_resets}"
    );
}
