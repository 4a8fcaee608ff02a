//! `gameworld world dagger`: DAgger episodes for the GOAP policy — the
//! policy plays, the fair expert labels every step (`gw_goap::dagger`).
//! The episodes land in the dataset layout, so `world train` reads them
//! beside `world dataset` folders. Bad options: exit 2; a failure while
//! playing: exit 1.

use clap::Args;
use gw_goap::dagger::{DaggerOptions, collect_episode};
use rayon::prelude::*;
use std::path::PathBuf;

#[derive(Args)]
pub struct DaggerArgs {
    /// The policy that plays: `goap` (the shipped checkpoint) or a
    /// checkpoint folder from `world train`.
    #[arg(long, default_value = "goap")]
    policy: String,
    /// Registry task ids or suite names, comma-separated (e.g. atomic_logs,atomic_dirt).
    #[arg(long)]
    tasks: String,
    /// Episodes per task.
    #[arg(long)]
    episodes: u32,
    /// Output folder (data/<task>/<task>-dagger-<seed>-<n>.parquet; rounds with other seeds can share it).
    #[arg(long)]
    out: PathBuf,
    /// How many of its target item each episode's goal asks for (an
    /// episode ends when the goal is held, or after --steps).
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// Dataset seed: episode worlds and goal phrasings derive from it as in `world dataset`.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Share of the control segments the expert plays (0 = the policy plays throughout).
    #[arg(long, default_value_t = 0.3)]
    expert_share: f64,
    /// Steps per episode at most.
    #[arg(long, default_value_t = 2400)]
    steps: u32,
    /// The policy's button temperature (as a profile's `temperature`; 0 = greedy).
    #[arg(long)]
    temperature: Option<f64>,
    /// Episodes played at once (default: the machine's cores).
    #[arg(long)]
    workers: Option<usize>,
}

pub fn run(a: DaggerArgs, registry: &[PathBuf]) -> Result<(), (u8, String)> {
    let config = |m: String| (2u8, m);
    if a.episodes == 0 || a.steps == 0 || a.count == 0 {
        return Err(config(
            "--episodes, --steps and --count must be at least 1".into(),
        ));
    }
    if !(0.0..=1.0).contains(&a.expert_share) {
        return Err(config(format!(
            "--expert-share {} must lie between 0 and 1",
            a.expert_share
        )));
    }
    let reg = crate::load_registry(registry).map_err(config)?;
    let tasks = gw_owdata::tasks::resolve(&reg, &a.tasks, a.count).map_err(config)?;
    let checkpoint = (a.policy != gw_goap::ID).then(|| PathBuf::from(&a.policy));
    if let Some(p) = checkpoint.as_ref().filter(|p| !p.exists()) {
        return Err(config(format!(
            "--policy {}: no such checkpoint (a folder from `gameworld world train`, or `goap` for the shipped one)",
            p.display()
        )));
    }
    let load = || gw_goap::agent::load_network(checkpoint.as_deref()).map_err(|e| e.to_string());
    // Fail on a bad checkpoint before anything is written.
    load().map_err(config)?;
    let decoding = gw_goap::agent::decoding(a.temperature);
    let o = DaggerOptions {
        steps: a.steps,
        expert_share: a.expert_share,
        sampling: decoding.sampling,
        temperature: decoding.temperature,
        seed: a.seed,
        ..DaggerOptions::default()
    };
    let jobs: Vec<(usize, u32)> = (0..tasks.len())
        .flat_map(|t| (0..a.episodes).map(move |e| (t, e)))
        .collect();
    let workers = a.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .build()
        .map_err(|e| (1, e.to_string()))?;
    let started = std::time::Instant::now();
    let results: Vec<Result<gw_goap::dagger::DaggerEpisode, String>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(t, e)| {
                let r = collect_episode(load()?, &tasks[t], e, &o, &a.out)?;
                println!(
                    "wrote   {} ({} steps, {} by the policy; {} items; expert and policy agreed on the move keys and attack on {:.0}% of steps)",
                    r.id,
                    r.steps,
                    r.policy_steps,
                    r.items,
                    100.0 * r.agreed as f64 / r.steps.max(1) as f64
                );
                Ok(r)
            })
            .collect()
    });
    let mut frames = 0u64;
    let mut policy = 0u64;
    for r in results {
        let r = r.map_err(|e| (1, e))?;
        frames += r.steps as u64;
        policy += r.policy_steps as u64;
    }
    println!(
        "dagger {}: {} episodes, {frames} labelled frames ({:.0}% played by the policy) in {:.1} s; train on it with `gameworld world train --data {}` (beside expert data: copy both data/ folders into one)",
        a.out.display(),
        jobs.len(),
        100.0 * policy as f64 / frames.max(1) as f64,
        started.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}
