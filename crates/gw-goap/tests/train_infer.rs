//! Training, checkpoints and inference on a tiny synthetic dataset written
//! in the real Parquet layout (`gw_owdata::shard`): the frame's colour says
//! which action the "expert" took, so a policy that learns shows it.

use gw_goap::checkpoint;
use gw_goap::config::Dims;
use gw_goap::data::Label;
use gw_goap::train::{Event, TrainError, TrainOptions, train};
use gw_goap::{Runner, Sampling};
use gw_owdata::FrameFormat;
use gw_owdata::episode::StepRecord;
use gw_owdata::shard::{EpisodeMeta, EpisodeWriter};
use gw_world::action::Action;
use std::path::Path;

const SIDE: u32 = 16;

/// The frame of step `i` of episode `e`: red (go forward) or blue (attack
/// and look down), with a little per-step texture.
fn frame(e: u32, i: u32) -> (Vec<u8>, bool) {
    let red = (i * 7 + e * 3) % 5 < 2;
    let mut rgba = Vec::with_capacity((SIDE * SIDE * 4) as usize);
    for p in 0..SIDE * SIDE {
        let t = ((p * 7 + i * 3) % 32) as u8;
        let (r, b) = if red {
            (200 + t / 2, 20 + t)
        } else {
            (20 + t, 200 + t / 2)
        };
        rgba.extend([r, 60, b, 255]);
    }
    (rgba, red)
}

fn action(red: bool) -> Action {
    if red {
        Action {
            forward: true,
            ..Default::default()
        }
    } else {
        Action {
            attack: true,
            pitch: gw_world::action::camera::snap(4.0),
            hotbar: Some(2),
            ..Default::default()
        }
    }
}

/// `episodes` episodes of `steps` steps under `root/data/tiny/`.
fn write_dataset(root: &Path, episodes: u32, steps: u32) {
    let dir = root.join("data").join("tiny");
    std::fs::create_dir_all(&dir).unwrap();
    for e in 0..episodes {
        let meta = EpisodeMeta {
            task: "tiny".into(),
            episode_id: format!("tiny-{e:06}"),
            episode: e,
            seed: e as u64,
            steps,
            goal: if e % 2 == 0 {
                "Dig up 3 blocks of dirt.".into()
            } else {
                "Chop a tree to get 2 logs.".into()
            },
        };
        let mut w = EpisodeWriter::create(&dir.join(format!("tiny-{e:06}.parquet")), meta).unwrap();
        for i in 0..steps {
            let (rgba, red) = frame(e, i);
            let a = action(red);
            w.push(StepRecord {
                step: i,
                frame: FrameFormat::parse("png").unwrap().encode(&rgba, SIDE, SIDE),
                vpt: gw_world::action::encode(&a),
                action: a,
                inventory: Vec::new(),
                position: [0.0, 64.0, 0.0],
                yaw: 0.0,
                pitch: 0.0,
                reward: 0.0,
                progress: 0.0,
                done: i + 1 == steps,
            })
            .unwrap();
        }
        w.finish().unwrap();
    }
}

fn small_options(data: &Path, out: &Path, steps: u64) -> TrainOptions {
    let mut o = TrainOptions::new(data.to_path_buf(), out.to_path_buf());
    o.steps = steps;
    o.resolution = [SIDE, SIDE];
    o.seed = 7;
    o.batch_chunks = 4;
    o.chunk = 8;
    o.learning_rate = 3e-3;
    o.val_every = 10;
    o.save_every = 10;
    o.dims = Dims {
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
    o
}

fn losses(o: &TrainOptions) -> Result<Vec<f64>, TrainError> {
    let mut l = Vec::new();
    train(o, &mut |e| {
        if let Event::Step { loss, .. } = e {
            l.push(loss)
        }
    })?;
    Ok(l)
}

fn rgb(e: u32, i: u32) -> Vec<u8> {
    frame(e, i)
        .0
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

#[test]
fn the_loss_falls_on_a_tiny_dataset() {
    let t = tempfile::tempdir().unwrap();
    write_dataset(&t.path().join("d"), 4, 30);
    let o = small_options(&t.path().join("d"), &t.path().join("ck"), 60);
    let l = losses(&o).unwrap();
    assert_eq!(l.len(), 60);
    let first: f64 = l[..5].iter().sum::<f64>() / 5.0;
    let last: f64 = l[55..].iter().sum::<f64>() / 5.0;
    assert!(
        last < 0.5 * first,
        "loss {first:.3} → {last:.3} did not fall by half"
    );
    // The checkpoint records its training.
    let cfg = checkpoint::read_config(&t.path().join("ck/config.json")).unwrap();
    assert_eq!(cfg.resolution, [SIDE, SIDE]);
    assert_eq!(cfg.training.steps, 60);
    assert_eq!(cfg.training.train_episodes + cfg.training.val_episodes, 4);
    assert_eq!(cfg.heads.craft, ["none"]);
    assert!(cfg.vocab.iter().any(|w| w == "dirt"));
}

#[test]
fn training_is_deterministic_and_resumes() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    write_dataset(&data, 3, 20);
    let a = small_options(&data, &t.path().join("a"), 12);
    let b = small_options(&data, &t.path().join("b"), 12);
    losses(&a).unwrap();
    losses(&b).unwrap();
    let read = |d: &str| std::fs::read(t.path().join(d).join("policy.safetensors")).unwrap();
    assert_eq!(
        read("a"),
        read("b"),
        "same seed and threads, different weights"
    );
    // Another seed, other weights.
    let mut c = small_options(&data, &t.path().join("c"), 12);
    c.seed = 8;
    losses(&c).unwrap();
    assert_ne!(read("a"), read("c"));
    // Resume: the same folder with more steps continues from step 12.
    let mut more = small_options(&data, &t.path().join("a"), 20);
    more.save_every = 100;
    let l = losses(&more).unwrap();
    assert_eq!(l.len(), 8);
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join("a/trainer.json")).unwrap())
            .unwrap();
    assert_eq!(state["step"], 20);
    // Already there: nothing more runs.
    assert!(losses(&more).unwrap().is_empty());
}

#[test]
fn checkpoints_round_trip_and_inference_is_deterministic() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    write_dataset(&data, 2, 16);
    losses(&small_options(&data, &t.path().join("ck"), 5)).unwrap();
    let dev = candle_core::Device::Cpu;
    let load = || checkpoint::load(&t.path().join("ck"), &dev).unwrap();
    // Saved again and loaded: the same weights file.
    let again = t.path().join("again");
    checkpoint::save(&load(), &again).unwrap();
    assert_eq!(
        std::fs::read(t.path().join("ck/policy.safetensors")).unwrap(),
        std::fs::read(again.join("policy.safetensors")).unwrap()
    );
    // The same logits from both, step after step (the token cache included).
    let mut r1 = Runner::new(load(), "Collect 2 logs", 3, Sampling::Greedy).unwrap();
    let mut r2 = Runner::new(
        checkpoint::load(&again, &dev).unwrap(),
        "Collect 2 logs",
        3,
        Sampling::Greedy,
    )
    .unwrap();
    for i in 0..12 {
        assert_eq!(
            r1.step_logits(&rgb(1, i)).unwrap(),
            r2.step_logits(&rgb(1, i)).unwrap()
        );
    }
    // Sampling: the same seed, the same actions; another seed differs somewhere.
    let run = |seed: u64| -> Vec<Label> {
        let mut r = Runner::new(load(), "Collect 2 logs", seed, Sampling::Sample).unwrap();
        (0..30).map(|i| r.step(&rgb(0, i)).unwrap()).collect()
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

fn config_error(o: &TrainOptions) -> String {
    match train(o, &mut |_| {}) {
        Err(TrainError::Config(m)) => m,
        Err(TrainError::Runtime(m)) => panic!("a runtime error, not a configuration error: {m}"),
        Ok(_) => panic!("bad input was accepted"),
    }
}

#[test]
fn bad_input_names_the_file() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    // No dataset folder; a folder without episode files.
    let m = config_error(&small_options(
        &t.path().join("nowhere"),
        &t.path().join("o"),
        2,
    ));
    assert!(
        m.contains("nowhere") && m.contains("no such dataset folder"),
        "{m}"
    );
    std::fs::create_dir_all(data.join("data")).unwrap();
    let m = config_error(&small_options(&data, &t.path().join("o"), 2));
    assert!(m.contains("no usable frames"), "{m}");
    // A truncated episode file.
    std::fs::write(data.join("data/broken.parquet"), b"PAR1 not really").unwrap();
    let m = config_error(&small_options(&data, &t.path().join("o"), 2));
    assert!(m.contains("broken.parquet"), "{m}");
    std::fs::remove_file(data.join("data/broken.parquet")).unwrap();
    write_dataset(&data, 2, 12);
    let ck = t.path().join("ck");
    losses(&small_options(&data, &ck, 2)).unwrap();
    // Resuming at another resolution.
    let mut o = small_options(&data, &ck, 4);
    o.resolution = [32, 32];
    let m = config_error(&o);
    assert!(m.contains("config.json") && m.contains("16x16"), "{m}");
    let dev = candle_core::Device::Cpu;
    let err = |p: &Path| {
        checkpoint::load(p, &dev)
            .err()
            .expect("a bad checkpoint loaded")
    };
    // Truncated weights.
    let bad = t.path().join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::copy(ck.join("config.json"), bad.join("config.json")).unwrap();
    let w = std::fs::read(ck.join("policy.safetensors")).unwrap();
    std::fs::write(bad.join("policy.safetensors"), &w[..w.len() / 2]).unwrap();
    let m = err(&bad);
    assert!(
        m.contains("bad/policy.safetensors") && m.contains("truncated"),
        "{m}"
    );
    // Weights for another network.
    let mut cfg: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(ck.join("config.json")).unwrap()).unwrap();
    cfg["dims"]["d_model"] = 64.into();
    std::fs::write(bad.join("config.json"), cfg.to_string()).unwrap();
    std::fs::write(bad.join("policy.safetensors"), &w).unwrap();
    let m = err(&bad);
    assert!(
        m.contains("policy.safetensors") && m.contains("do not match"),
        "{m}"
    );
    // A config that is not one; a missing config.
    std::fs::write(bad.join("config.json"), "{\"format\": 3}").unwrap();
    assert!(err(&bad).contains("bad/config.json"));
    std::fs::remove_file(bad.join("config.json")).unwrap();
    assert!(err(&bad).contains("bad/config.json"));
    // A policy folder without trainer state is not resumed over.
    std::fs::remove_file(ck.join("trainer.json")).unwrap();
    let m = config_error(&small_options(&data, &ck, 4));
    assert!(m.contains("trainer.json"), "{m}");
}

#[test]
fn inference_step_by_step_equals_the_training_computation() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    write_dataset(&data, 2, 24);
    losses(&small_options(&data, &t.path().join("ck"), 20)).unwrap();
    let net = checkpoint::load(&t.path().join("ck"), &candle_core::Device::Cpu).unwrap();
    let eps = gw_goap::data::read_dataset(&data, SIDE, SIDE, &mut |_, _| {}).unwrap();
    let ep = &eps[1];
    let whole = gw_goap::train::episode_logits(&net, ep)
        .unwrap()
        .to_vec2::<f32>()
        .unwrap();
    let fsz = (SIDE * SIDE * 3) as usize;
    let mut r = Runner::new(net, &ep.goal, 1, Sampling::Greedy).unwrap();
    for (i, label) in ep.labels.iter().enumerate() {
        let z = r
            .step_forced(&ep.frames[i * fsz..(i + 1) * fsz], label)
            .unwrap();
        for (a, b) in z.iter().zip(&whole[i]) {
            assert!((a - b).abs() < 1e-4, "step {i}: {a} vs {b}");
        }
    }
}

#[test]
fn fine_tuning_starts_from_the_checkpoint() {
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    write_dataset(&data, 3, 20);
    let base = small_options(&data, &t.path().join("base"), 30);
    let base_losses = losses(&base).unwrap();
    // A run from the checkpoint: its first loss is the trained one, not a
    // fresh network's, and it keeps the checkpoint's configuration.
    let mut tune = small_options(&data, &t.path().join("tune"), 3);
    tune.seed = 99;
    tune.dims.d_model = 48; // ignored: the checkpoint's dimensions win
    tune.init = Some(gw_goap::train::Init::Path(t.path().join("base")));
    let tuned = losses(&tune).unwrap();
    let mut fresh = small_options(&data, &t.path().join("fresh"), 3);
    fresh.seed = 99;
    let fresh_losses = losses(&fresh).unwrap();
    assert!(
        tuned[0] < 0.6 * fresh_losses[0],
        "tuned {tuned:?} fresh {fresh_losses:?} base {base_losses:?}"
    );
    let dev = candle_core::Device::Cpu;
    let cfg = checkpoint::load(&t.path().join("tune"), &dev).unwrap().cfg;
    assert_eq!(cfg.dims.d_model, 32);
    // A checkpoint for other frames: a clear error naming it.
    let mut other = small_options(&data, &t.path().join("other"), 3);
    other.resolution = [32, 32];
    other.init = Some(gw_goap::train::Init::Path(t.path().join("base")));
    let m = config_error(&other);
    assert!(m.contains("16x16") && m.contains("--resolution"), "{m}");
    // A missing one names the file.
    other.resolution = [SIDE, SIDE];
    other.init = Some(gw_goap::train::Init::Path(t.path().join("nowhere")));
    let m = config_error(&other);
    assert!(m.contains("nowhere"), "{m}");
}

#[test]
fn every_weight_learns() {
    // Gradients reach every variable: a layer without a backward pass (as
    // candle-nn's fused layer norm and softmax are) would leave everything before it at
    // its initial values while the loss still falls through the last layer.
    let t = tempfile::tempdir().unwrap();
    let data = t.path().join("d");
    write_dataset(&data, 3, 20);
    let o = small_options(&data, &t.path().join("ck"), 3);
    losses(&o).unwrap();
    let dev = candle_core::Device::Cpu;
    let trained = checkpoint::load(&t.path().join("ck"), &dev).unwrap();
    let initial = gw_goap::Network::new(trained.cfg.clone(), &dev, o.seed).unwrap();
    let (a, b) = (trained.named_vars(), initial.named_vars());
    assert_eq!(a.len(), b.len());
    let mut unchanged = Vec::new();
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        let d = (x.as_tensor() - y.as_tensor())
            .unwrap()
            .abs()
            .unwrap()
            .max_all()
            .unwrap()
            .to_scalar::<f32>()
            .unwrap();
        if d == 0.0 {
            unchanged.push(name.clone());
        }
    }
    assert!(unchanged.is_empty(), "never trained: {unchanged:?}");
}
