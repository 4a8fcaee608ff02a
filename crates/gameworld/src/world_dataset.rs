//! `gameworld world dataset`: goal-observation-action Parquet data from the
//! open world's expert (SPEC "Open world"; the pipeline is `gw-owdata`).
//! Bad options are configuration errors (exit 2), failures while generating
//! are runtime errors (exit 1).

use clap::Args;
use gw_owdata::{DataOptions, Options};
use std::path::PathBuf;

#[derive(Args)]
pub struct DatasetArgs {
    /// Registry task ids or suite names, comma-separated (e.g.
    /// atomic_logs,atomic_stone, or `atomic` for the eight MGOA tasks).
    #[arg(long)]
    tasks: Option<String>,
    /// Episodes attempted per task (runs the filter drops are not replaced).
    #[arg(long)]
    episodes: Option<u32>,
    /// Dataset folder (data/<task>/*.parquet, README.md, stats.json, stats/).
    #[arg(long)]
    out: PathBuf,
    /// Frame size WIDTHxHEIGHT.
    #[arg(long, default_value = "640x360")]
    resolution: String,
    /// Frame encoding: jpeg (quality 88, compact) or png (lossless, about
    /// 3.5 times the bytes).
    #[arg(long, default_value = "jpeg")]
    frame_format: String,
    /// Episodes generated at once (default: the machine's cores).
    #[arg(long)]
    workers: Option<usize>,
    /// Dataset seed: every episode's world seed and goal phrasing derive from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many of its target item each episode's goal asks for.
    #[arg(long, default_value_t = 1)]
    count: u32,
    /// Longest run kept, in steps (2400 = 2 game minutes at 20 steps/s);
    /// successful runs that took longer are dropped as over-long.
    #[arg(long, default_value_t = 2400)]
    max_steps: u64,
    /// Hard cap on a run's steps before it counts as not reached
    /// (default: twice --max-steps).
    #[arg(long)]
    run_limit: Option<u64>,
    /// Generate only slice I of N of the episodes (or set by the Slurm /
    /// Kubernetes array variables, as for suites); shard folders merge by
    /// copying, then run --rebuild-card on the merged folder.
    #[arg(long)]
    shard: Option<String>,
    /// Only rebuild README.md and stats.json from the stats/ of --out
    /// (after copying shard folders together).
    #[arg(long)]
    rebuild_card: bool,
}

pub(crate) fn parse_resolution(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("--resolution \"{s}\" must look like WIDTHxHEIGHT, e.g. 640x360");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    Ok((
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    ))
}

fn summary(t: &serde_json::Value) -> String {
    let d = &t["dropped"];
    format!(
        "{} episodes, {} frames, {} bytes ({} per frame); dropped {} of {} runs (not reached {}, died {}, over-long {}, empty {})",
        t["episodes"],
        t["frames"],
        t["bytes"],
        t["bytes_per_frame"],
        d["total"],
        t["attempted"],
        d["not_reached"],
        d["died"],
        d["over_long"],
        d["empty"]
    )
}

pub fn run(a: DatasetArgs, registry: &[PathBuf]) -> Result<(), (u8, String)> {
    let config = |m: String| (2u8, m);
    if a.rebuild_card {
        let totals = gw_owdata::card::rebuild(&a.out).map_err(config)?;
        println!("rebuilt {}: {}", a.out.display(), summary(&totals));
        return Ok(());
    }
    let (Some(tasks), Some(episodes)) = (&a.tasks, a.episodes) else {
        return Err(config(
            "world dataset needs --tasks (e.g. atomic) and --episodes N (or --rebuild-card)".into(),
        ));
    };
    let reg = crate::load_registry(registry).map_err(config)?;
    let tasks = gw_owdata::tasks::resolve(&reg, tasks, a.count).map_err(config)?;
    let (width, height) = parse_resolution(&a.resolution).map_err(config)?;
    let frame_format = gw_owdata::FrameFormat::parse(&a.frame_format).map_err(config)?;
    let shard =
        gw_core::shard::Shard::from_flag_or_env(a.shard.as_deref(), |k| std::env::var(k).ok())
            .map_err(config)?;
    let workers = a.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let opts = Options {
        data: DataOptions {
            seed: a.seed,
            episodes,
            tasks,
            width,
            height,
            max_steps: a.max_steps,
            run_limit: a.run_limit.unwrap_or(a.max_steps.saturating_mul(2)),
            frame_format,
        },
        out: a.out.clone(),
        workers,
        shard,
    };
    gw_owdata::generate::check(&opts).map_err(config)?;
    let r = gw_owdata::generate(&opts, &|line| eprintln!("{line}")).map_err(|e| (1, e))?;
    let frames: u64 = r.stats.kept.iter().map(|k| k.steps as u64).sum();
    println!(
        "shard {}: kept {} of {} runs, {frames} frames at {width}x{height} in {:.1} s ({:.1} frames/s with {workers} workers; expert pass {:.0} steps/s, replay {:.1} frames/s per worker)",
        r.stats.shard,
        r.stats.kept.len(),
        r.stats.kept.len() + r.stats.dropped.len(),
        r.wall_s,
        frames as f64 / r.wall_s.max(1e-9),
        r.expert_steps as f64 / r.expert_s.max(1e-9),
        frames as f64 / r.replay_s.max(1e-9),
    );
    println!("dataset {}: {}", a.out.display(), summary(&r.totals));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_resolution;

    #[test]
    fn resolution_parses_or_names_the_form() {
        assert_eq!(parse_resolution("640x360"), Ok((640, 360)));
        assert_eq!(parse_resolution("64X64"), Ok((64, 64)));
        assert!(
            parse_resolution("640")
                .unwrap_err()
                .contains("WIDTHxHEIGHT")
        );
        assert!(parse_resolution("ax3").is_err());
    }
}
