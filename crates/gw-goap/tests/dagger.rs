//! DAgger episodes (`gw_goap::dagger`): the policy plays, the fair expert
//! labels every step, and the episode is written in the dataset layout.

use gw_goap::config::{BUTTONS, CAMERA_BINS, Dims, HOTBAR_CLASSES, Heads, PolicyConfig};
use gw_goap::dagger::{DaggerOptions, collect_episode};
use gw_goap::data::{Label, read_dataset};
use gw_goap::{Network, Sampling};
use gw_owdata::TaskDef;
use gw_owdata::episode::{episode_seed, run_expert};

const SIDE: u32 = 16;

fn tiny_policy() -> Network {
    let heads = Heads {
        buttons: BUTTONS.iter().map(|s| s.to_string()).collect(),
        hotbar: HOTBAR_CLASSES,
        camera_bins: CAMERA_BINS,
        craft: vec!["none".into()],
        smelt: vec!["none".into()],
    };
    let dims = Dims {
        d_model: 32,
        heads: 2,
        layers: 1,
        ffn: 64,
        window: 4,
        conv: vec![8, 8, 8, 8],
        memory_decays: vec![0.9],
        memory_horizon: 100,
        action_inputs: true,
    };
    let vocab = gw_goap::config::vocabulary(["Chop a tree to get 2 logs."].into_iter());
    let cfg = PolicyConfig::new([SIDE, SIDE], dims, vocab, heads);
    Network::new(cfg, &candle_core::Device::Cpu, 11).unwrap()
}

fn logs() -> TaskDef {
    TaskDef {
        id: "atomic_logs".into(),
        target_item: "logs".into(),
        count: 1,
        kit: Vec::new(),
    }
}

fn options(expert_share: f64, steps: u32) -> DaggerOptions {
    DaggerOptions {
        steps,
        expert_share,
        sampling: Sampling::Sample,
        temperature: 1.0,
        seed: 5,
        ..DaggerOptions::default()
    }
}

#[test]
fn with_the_expert_in_control_the_episode_is_the_experts_own_run() {
    let t = tempfile::tempdir().unwrap();
    let r = collect_episode(tiny_policy(), &logs(), 2, &options(1.0, 2400), t.path()).unwrap();
    assert_eq!(r.policy_steps, 0);
    let run = run_expert(&logs(), episode_seed(5, "atomic_logs", 2), 2400);
    assert!(run.success, "the expert gets a log within 2,400 steps");
    assert_eq!(r.steps as usize, run.actions.len());
    assert_eq!(r.items, 1);
    let eps = read_dataset(t.path(), SIDE, SIDE, &mut |_, _| {}).unwrap();
    assert_eq!(eps.len(), 1);
    let want: Vec<Label> = run.actions.iter().map(Label::from_action).collect();
    assert_eq!(eps[0].labels, want);
    assert_eq!(eps[0].frames.len(), want.len() * (SIDE * SIDE * 3) as usize);
}

#[test]
fn the_policy_plays_the_expert_labels_and_episodes_repeat() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let r = collect_episode(tiny_policy(), &logs(), 0, &options(0.0, 300), &a).unwrap();
    // An untrained policy gets no log: the whole budget is played, by it.
    assert_eq!((r.steps, r.policy_steps, r.items), (300, 300, 0));
    let eps = read_dataset(&a, SIDE, SIDE, &mut |_, _| {}).unwrap();
    assert_eq!(eps[0].labels.len(), 300);
    // The labels are the expert's: it presses forward and attack over the
    // episode, which a random policy's draws would not match step by step.
    assert!(eps[0].labels.iter().any(|l| l.buttons[0]));
    assert!((r.agreed as usize) < eps[0].labels.len());
    // The same options give the same file, byte for byte.
    collect_episode(tiny_policy(), &logs(), 0, &options(0.0, 300), &b).unwrap();
    let file = "data/atomic_logs/atomic_logs-dagger-5-000000.parquet";
    assert_eq!(
        std::fs::read(a.join(file)).unwrap(),
        std::fs::read(b.join(file)).unwrap()
    );
    // A mixed share hands control back and forth.
    let m = collect_episode(tiny_policy(), &logs(), 0, &options(0.5, 1200), &b).unwrap();
    assert!(m.policy_steps > 0 && m.policy_steps < m.steps, "{m:?}");
}
