//! `gameworld world train`: behaviour cloning of the GOAP policy on a
//! goal-observation-action dataset (`gw-goap`). Bad input (no dataset, a
//! dataset without usable frames, a checkpoint in `--out` that does not
//! match) is a configuration error: exit 2; a failure while training: exit 1.

use clap::Args;
use gw_goap::train::{Event, TrainError, TrainOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(Args)]
pub struct TrainArgs {
    /// A dataset folder written by `gameworld world dataset` (its `data/` Parquet files).
    #[arg(long)]
    data: PathBuf,
    /// Checkpoint folder: policy.safetensors, config.json and the trainer
    /// state. A folder that holds a run already resumes it.
    #[arg(long)]
    out: PathBuf,
    /// Total optimiser steps (a resumed run continues up to this many).
    #[arg(long, default_value_t = 2000)]
    steps: u64,
    /// Frame size the policy reads; frames of another size are area-resized.
    #[arg(long, default_value = "64x64")]
    resolution: String,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// CPU threads (weights depend on the seed and the thread count).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Chunks of consecutive steps per batch.
    #[arg(long, default_value_t = 8)]
    batch: usize,
    /// Steps per chunk that carry a loss.
    #[arg(long, default_value_t = 32)]
    chunk: usize,
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    /// Tokens and memory leave out earlier actions (frames, goal and time only).
    #[arg(long)]
    no_action_inputs: bool,
    /// Start from this checkpoint's weights and configuration instead of
    /// random ones (fine-tuning; `goap` = the shipped checkpoint). Ignored
    /// when `--out` holds a run to resume.
    #[arg(long)]
    init: Option<String>,
    /// Validate and save every this many steps.
    #[arg(long, default_value_t = 250)]
    every: u64,
}

pub fn run(a: TrainArgs) -> Result<(), (u8, String)> {
    let config = |m: String| (2u8, m);
    let (w, h) = crate::world_dataset::parse_resolution(&a.resolution).map_err(config)?;
    if w % 16 != 0 || h % 16 != 0 || w < 16 || h < 16 {
        return Err(config(format!(
            "--resolution {w}x{h}: both sides must be multiples of 16 (at least 16), e.g. 64x64"
        )));
    }
    if a.steps == 0
        || a.batch == 0
        || a.chunk == 0
        || a.threads == 0
        || a.lr.is_nan()
        || a.lr <= 0.0
    {
        return Err(config(
            "--steps, --batch, --chunk, --threads and --lr must be positive".into(),
        ));
    }
    let mut o = TrainOptions::new(a.data, a.out);
    o.steps = a.steps;
    o.resolution = [w, h];
    o.seed = a.seed;
    o.threads = a.threads;
    o.batch_chunks = a.batch;
    o.chunk = a.chunk;
    o.learning_rate = a.lr;
    o.val_every = a.every;
    o.dims.action_inputs = !a.no_action_inputs;
    o.save_every = a.every;
    o.init = a.init.map(|i| match i.as_str() {
        gw_goap::ID => gw_goap::train::Init::Shipped,
        p => gw_goap::train::Init::Path(PathBuf::from(p)),
    });
    let bar = ProgressBar::new(a.steps);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    let mut val = f64::NAN;
    let mut ema = f64::NAN;
    let summary = gw_goap::train(&o, &mut |e| match e {
        Event::Loading(i, n) => {
            bar.set_length(n as u64);
            bar.set_prefix("reading");
            bar.set_position(i as u64);
        }
        Event::Loaded(train, val) => {
            bar.println(format!(
                "data: {train} training samples, {val} validation samples"
            ));
            bar.set_length(a.steps);
            bar.set_prefix("training");
            bar.set_position(0);
        }
        Event::Step {
            step,
            loss,
            val_loss,
            ..
        } => {
            ema = if ema.is_finite() {
                0.95 * ema + 0.05 * loss
            } else {
                loss
            };
            if let Some(v) = val_loss {
                val = v;
            }
            bar.set_position(step);
            bar.set_message(format!("loss {ema:.3} val {val:.3}"));
        }
    })
    .map_err(|e| match e {
        TrainError::Config(m) => (2, m),
        TrainError::Runtime(m) => (1, m),
    })?;
    bar.finish_and_clear();
    let t = &summary.config.training;
    println!(
        "trained {} steps (from step {}) on {} samples ({} episodes; validation {} samples, {} episodes): loss {:.4}, validation loss {:.4}; {:.1} samples/s; {} parameters; wrote {}",
        summary.steps_run,
        summary.resumed_from,
        t.train_samples,
        t.train_episodes,
        t.val_samples,
        t.val_episodes,
        t.train_loss,
        t.val_loss,
        summary.samples_per_s,
        summary.config.parameters,
        o.out.display()
    );
    Ok(())
}
