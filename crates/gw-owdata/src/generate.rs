//! A generation: tasks × episodes, sliced by shard, run on a pool of
//! workers; each episode is judged unrendered, and kept ones are replayed
//! with frames into `data/<task>/<task>-NNNNNN.parquet`. Writes the shard's
//! stats file and then the card and totals of everything in the folder.

use crate::episode::{ReplayError, TaskDef, episode_seed, judge, replay, run_expert};
use crate::shard::{EpisodeMeta, EpisodeWriter};
use crate::stats::{DataOptions, Dropped, Kept, ShardStats};
use gw_core::frame::write_atomic;
use gw_core::shard::Shard;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Options {
    pub data: DataOptions,
    pub out: PathBuf,
    /// Worker threads (episodes in flight).
    pub workers: usize,
    pub shard: Option<Shard>,
}

/// One episode slot of the plan: job `index` in task-interleaved order, so
/// every shard gets a mix of tasks.
#[derive(Clone, Debug)]
struct Job {
    index: usize,
    task: usize,
    episode: u32,
}

fn plan(o: &DataOptions) -> Vec<Job> {
    let n = o.tasks.len();
    (0..o.episodes)
        .flat_map(|e| (0..n).map(move |t| (e, t)))
        .enumerate()
        .map(|(index, (episode, task))| Job {
            index,
            task,
            episode,
        })
        .collect()
}

/// How a generation went: what it wrote and where the time went.
#[derive(Clone, Debug)]
pub struct Report {
    pub stats: ShardStats,
    /// Merged `stats.json` of the whole folder after this shard.
    pub totals: serde_json::Value,
    /// Seconds summed over workers: expert runs (pass 1, unrendered, every
    /// attempted run) and replays (pass 2: render, encode, Parquet; kept runs).
    pub expert_s: f64,
    pub replay_s: f64,
    pub wall_s: f64,
    /// Simulation steps of pass 1 (kept and dropped runs).
    pub expert_steps: u64,
}

enum Outcome {
    Kept(Kept),
    Dropped(Dropped),
}

/// Check the options before any work: a message naming the fix.
pub fn check(o: &Options) -> Result<(), String> {
    let d = &o.data;
    if d.tasks.is_empty() {
        return Err(
            "no tasks: pass --tasks with registry task ids (e.g. atomic_logs) or `atomic`".into(),
        );
    }
    if d.episodes == 0 {
        return Err("--episodes must be at least 1".into());
    }
    if d.width < 16 || d.height < 16 || d.width > 4096 || d.height > 4096 {
        return Err(format!(
            "--resolution {}x{} is out of range; use 16x16 up to 4096x4096 (the papers use 640x360)",
            d.width, d.height
        ));
    }
    if d.max_steps == 0 {
        return Err("--max-steps must be at least 1".into());
    }
    if d.run_limit < d.max_steps {
        return Err(format!(
            "--run-limit {} is below --max-steps {}; the run limit must let a run reach the step budget",
            d.run_limit, d.max_steps
        ));
    }
    if o.workers == 0 {
        return Err("--workers must be at least 1".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    for t in &d.tasks {
        if !seen.insert(&t.id) {
            return Err(format!("task {} is listed twice in --tasks", t.id));
        }
        if t.count == 0 {
            return Err(format!("task {}: the goal count must be at least 1", t.id));
        }
    }
    Ok(())
}

fn run_job(o: &Options, job: &Job, timing: &Timing) -> Result<Outcome, String> {
    let d = &o.data;
    let task: &TaskDef = &d.tasks[job.task];
    let seed = episode_seed(d.seed, &task.id, job.episode);
    let t0 = Instant::now();
    let run = run_expert(task, seed, d.run_limit);
    timing.add_expert(t0.elapsed().as_secs_f64(), run.actions.len() as u64);
    if let Err(reason) = judge(&run, d.max_steps) {
        return Ok(Outcome::Dropped(Dropped {
            task: task.id.clone(),
            episode: job.episode,
            seed,
            reason,
            steps: run.actions.len() as u64,
        }));
    }
    let t1 = Instant::now();
    let id = format!("{}-{:06}", task.id, job.episode);
    let file = format!("data/{}/{id}.parquet", task.id);
    let path = o.out.join(&file);
    let dir = path.parent().expect("a data file has a folder");
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let goal = crate::instructions::draw(&task.target_item, task.count, seed);
    let steps = run.actions.len() as u32;
    let mut w = EpisodeWriter::create(
        &path,
        EpisodeMeta {
            task: task.id.clone(),
            episode_id: id.clone(),
            episode: job.episode,
            seed,
            steps,
            goal: goal.clone(),
        },
    )?;
    let mut items = 0u32;
    let replayed = replay(
        task,
        seed,
        &run.actions,
        d.width,
        d.height,
        d.frame_format,
        |r| {
            items += r.reward as u32;
            w.push(r)
        },
    );
    if let Err(e) = replayed {
        w.abandon();
        return Err(match e {
            ReplayError::Diverged { step } => format!(
                "{id}: the rendered replay left the expert's run at step {step}; the world is not deterministic (a bug: report it with this seed {seed})"
            ),
            ReplayError::Sink(e) => format!("{id}: {e}"),
        });
    }
    let (_, frame_bytes) = w.finish()?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    timing.add_replay(t1.elapsed().as_secs_f64());
    Ok(Outcome::Kept(Kept {
        id,
        task: task.id.clone(),
        episode: job.episode,
        seed,
        goal,
        steps,
        file,
        bytes,
        frame_bytes,
        actions: crate::stats::ActionStats::of(&run.actions, items),
    }))
}

#[derive(Default)]
struct Timing(std::sync::Mutex<(f64, f64, u64)>);

impl Timing {
    fn add_expert(&self, s: f64, steps: u64) {
        let mut t = self.0.lock().expect("timing");
        t.0 += s;
        t.2 += steps;
    }
    fn add_replay(&self, s: f64) {
        self.0.lock().expect("timing").1 += s;
    }
}

/// Generate this shard's episodes into `o.out`, then rebuild the card and
/// totals from every shard present. `progress` hears one line per episode.
pub fn generate(o: &Options, progress: &(dyn Fn(&str) + Sync)) -> Result<Report, String> {
    check(o)?;
    let start = Instant::now();
    std::fs::create_dir_all(o.out.join("stats"))
        .map_err(|e| format!("cannot create {}: {e}", o.out.join("stats").display()))?;
    let shard = o.shard.unwrap_or(Shard { index: 1, count: 1 });
    let jobs: Vec<Job> = plan(&o.data)
        .into_iter()
        .filter(|j| shard.contains(j.index))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.workers)
        .build()
        .map_err(|e| format!("cannot start {} workers: {e}", o.workers))?;
    let timing = Timing::default();
    let results: Vec<Result<Outcome, String>> = pool.install(|| {
        jobs.par_iter()
            .map(|j| {
                let r = run_job(o, j, &timing);
                let task = &o.data.tasks[j.task].id;
                match &r {
                    Ok(Outcome::Kept(k)) => {
                        progress(&format!("kept    {} ({} steps)", k.id, k.steps))
                    }
                    Ok(Outcome::Dropped(d)) => progress(&format!(
                        "dropped {task}-{:06} ({}, {} steps)",
                        d.episode,
                        d.reason.as_str(),
                        d.steps
                    )),
                    Err(e) => progress(&format!("error   {e}")),
                }
                r
            })
            .collect()
    });
    let mut stats = ShardStats {
        shard: format!("{}/{}", shard.index, shard.count),
        options: o.data.clone(),
        kept: Vec::new(),
        dropped: Vec::new(),
    };
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(Outcome::Kept(k)) => stats.kept.push(k),
            Ok(Outcome::Dropped(d)) => stats.dropped.push(d),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let path = o
        .out
        .join("stats")
        .join(ShardStats::file_name(shard.index, shard.count));
    let text = serde_json::to_string_pretty(&stats).expect("stats serialize") + "\n";
    write_atomic(&path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let totals = crate::card::rebuild(&o.out)?;
    let (expert_s, replay_s, expert_steps) = *timing.0.lock().expect("timing");
    Ok(Report {
        stats,
        totals,
        expert_s,
        replay_s,
        wall_s: start.elapsed().as_secs_f64(),
        expert_steps,
    })
}
