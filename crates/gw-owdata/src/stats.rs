//! What a generation wrote: one `stats/shard-I-of-N.json` per shard (kept
//! episodes and dropped runs with reasons), and the dataset-wide
//! `stats.json` merged from every shard file present. Shard folders merge
//! by copying because their stats files, like their data files, have
//! distinct names; [`merge`] then rebuilds the totals.

use crate::episode::{Drop, TaskDef};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Frames per game second (one record per control tick).
pub const FPS: u32 = 20;

/// The options that shape the data; every shard of one dataset must share them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataOptions {
    pub seed: u64,
    /// Episodes attempted per task.
    pub episodes: u32,
    pub tasks: Vec<TaskDef>,
    pub width: u32,
    pub height: u32,
    pub max_steps: u64,
    pub run_limit: u64,
}

/// A kept episode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    pub id: String,
    pub task: String,
    pub episode: u32,
    pub seed: u64,
    pub goal: String,
    pub steps: u32,
    /// Relative to the dataset root.
    pub file: String,
    /// Size of the Parquet file.
    pub bytes: u64,
    /// PNG bytes of its frames.
    pub frame_bytes: u64,
}

/// A run left out by the filter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    pub task: String,
    pub episode: u32,
    pub seed: u64,
    pub reason: Drop,
    /// Actions taken before the run stopped.
    pub steps: u64,
}

/// `stats/shard-I-of-N.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardStats {
    /// `I/N`.
    pub shard: String,
    pub options: DataOptions,
    pub kept: Vec<Kept>,
    pub dropped: Vec<Dropped>,
}

impl ShardStats {
    pub fn file_name(index: usize, count: usize) -> String {
        format!("shard-{index}-of-{count}.json")
    }
}

/// Read every `stats/*.json` under `root`, sorted by file name.
pub fn read_shards(root: &Path) -> Result<Vec<ShardStats>, String> {
    let dir = root.join("stats");
    let rd = std::fs::read_dir(&dir).map_err(|e| {
        format!(
            "{}: {e}; a dataset folder holds stats/shard-I-of-N.json files written by `gameworld world dataset`",
            dir.display()
        )
    })?;
    let mut names: Vec<_> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!(
            "{} holds no shard stats (shard-I-of-N.json); generate data first",
            dir.display()
        ));
    }
    names
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{} is not a shard stats file ({e}); remove it or regenerate that shard",
                    p.display()
                )
            })
        })
        .collect()
}

/// The dataset-wide `stats.json` of the shards in `root`. Fails when shards
/// were made with different options or a listed data file is missing.
pub fn merge(root: &Path, shards: &[ShardStats]) -> Result<Value, String> {
    let first = shards.first().ok_or("no shard stats to merge")?;
    for s in shards {
        if s.options != first.options {
            return Err(format!(
                "shard {} was generated with other options than shard {} (seed, episodes, tasks, resolution, max steps or run limit differ); regenerate it with the same options",
                s.shard, first.shard
            ));
        }
    }
    let o = &first.options;
    let mut shard_names: Vec<String> = shards.iter().map(|s| s.shard.clone()).collect();
    shard_names.dedup();
    // Which shards of the announced N are absent.
    let mut missing = Vec::new();
    for count in shards
        .iter()
        .filter_map(|s| {
            s.shard
                .split_once('/')
                .and_then(|(_, n)| n.parse::<usize>().ok())
        })
        .collect::<std::collections::BTreeSet<_>>()
    {
        for i in 1..=count {
            let name = format!("{i}/{count}");
            if !shard_names.contains(&name) {
                missing.push(name);
            }
        }
    }
    #[derive(Default)]
    struct Tally {
        episodes: u64,
        frames: u64,
        bytes: u64,
        dropped: BTreeMap<&'static str, u64>,
    }
    let mut per_task: BTreeMap<String, Tally> = BTreeMap::new();
    for t in &o.tasks {
        per_task.entry(t.id.clone()).or_default();
    }
    let (mut frames, mut bytes, mut frame_bytes, mut episodes) = (0u64, 0u64, 0u64, 0u64);
    let mut dropped: BTreeMap<&'static str, u64> =
        Drop::ALL.iter().map(|d| (d.as_str(), 0)).collect();
    for s in shards {
        for k in &s.kept {
            let path = root.join(&k.file);
            if !path.is_file() {
                return Err(format!(
                    "{} is listed in stats/shard-{}.json but missing; copy it from that shard's folder or regenerate the shard",
                    path.display(),
                    s.shard.replace('/', "-of-")
                ));
            }
            let t = per_task.entry(k.task.clone()).or_default();
            t.episodes += 1;
            t.frames += k.steps as u64;
            t.bytes += k.bytes;
            episodes += 1;
            frames += k.steps as u64;
            bytes += k.bytes;
            frame_bytes += k.frame_bytes;
        }
        for d in &s.dropped {
            *per_task
                .entry(d.task.clone())
                .or_default()
                .dropped
                .entry(d.reason.as_str())
                .or_insert(0) += 1;
            *dropped.entry(d.reason.as_str()).or_insert(0) += 1;
        }
    }
    let dropped_total: u64 = dropped.values().sum();
    let mut tasks = Map::new();
    for (id, t) in &per_task {
        let mut d: Map<String, Value> = Drop::ALL
            .iter()
            .map(|r| {
                (
                    r.as_str().to_string(),
                    json!(t.dropped.get(r.as_str()).copied().unwrap_or(0)),
                )
            })
            .collect();
        d.insert("total".into(), json!(t.dropped.values().sum::<u64>()));
        tasks.insert(
            id.clone(),
            json!({
                "episodes": t.episodes,
                "frames": t.frames,
                "bytes": t.bytes,
                "mean_steps": if t.episodes > 0 { (t.frames as f64 / t.episodes as f64 * 10.0).round() / 10.0 } else { 0.0 },
                "dropped": d,
            }),
        );
    }
    let mut d: Map<String, Value> = dropped
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    d.insert("total".into(), json!(dropped_total));
    let per_frame = |b: u64| {
        if frames > 0 {
            (b as f64 / frames as f64).round()
        } else {
            0.0
        }
    };
    Ok(json!({
        "episodes": episodes,
        "frames": frames,
        "attempted": episodes + dropped_total,
        "kept_fraction": if episodes + dropped_total > 0 { (episodes as f64 / (episodes + dropped_total) as f64 * 1000.0).round() / 1000.0 } else { 0.0 },
        "bytes": bytes,
        "bytes_per_frame": per_frame(bytes),
        "png_bytes_per_frame": per_frame(frame_bytes),
        "resolution": [o.width, o.height],
        "fps": FPS,
        "frame_format": "png",
        "seed": o.seed,
        "episodes_per_task_attempted": o.episodes,
        "max_steps": o.max_steps,
        "run_limit": o.run_limit,
        "shards": shard_names,
        "shards_missing": missing,
        "per_task": tasks,
        "dropped": d,
    }))
}
