//! What a generation wrote: one `stats/shard-I-of-N.json` per shard (kept
//! episodes and dropped runs with reasons), and the dataset-wide
//! `stats.json` merged from every shard file present. Shard folders merge
//! by copying because their stats files, like their data files, have
//! distinct names; [`merge`] then rebuilds the totals.

use crate::episode::{Drop, TaskDef};
use crate::frame::FrameFormat;
use gw_world::Action;
use gw_world::action::camera;
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
    /// How frames are encoded (stats files from before the choice: PNG).
    #[serde(default = "FrameFormat::legacy")]
    pub frame_format: FrameFormat,
}

/// What a data user checks about an episode's actions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionStats {
    /// Steps whose action does nothing (no key, no camera move, no macro).
    pub idle_steps: u32,
    /// The longest run of idle steps.
    pub longest_idle: u32,
    /// Steps holding attack.
    pub attack_steps: u32,
    /// Steps whose action equals the decoding of its VPT label (the
    /// craft/smelt macros aside, which VPT has no class for).
    pub vpt_exact_steps: u32,
    /// Steps per VPT camera bin (11 μ-law bins, bin 5 = no move), yaw and pitch.
    pub camera_yaw: Vec<u32>,
    pub camera_pitch: Vec<u32>,
    /// Target items obtained in the episode.
    pub items: u32,
}

/// Whether action `a` does nothing at all.
pub fn is_idle(a: &Action) -> bool {
    *a == Action::noop()
}

/// Whether `a` equals the decoding of its VPT label (macros aside).
pub fn vpt_exact(a: &Action) -> bool {
    gw_world::action::vpt_exact(a) == *a
}

impl ActionStats {
    /// The stats of one episode's actions; `items` target items obtained.
    pub fn of(actions: &[Action], items: u32) -> ActionStats {
        let bins = camera::BINS as usize;
        let mut s = ActionStats {
            camera_yaw: vec![0; bins],
            camera_pitch: vec![0; bins],
            items,
            ..Default::default()
        };
        let mut run = 0;
        for a in actions {
            if is_idle(a) {
                s.idle_steps += 1;
                run += 1;
                s.longest_idle = s.longest_idle.max(run);
            } else {
                run = 0;
            }
            s.attack_steps += a.attack as u32;
            s.vpt_exact_steps += vpt_exact(a) as u32;
            s.camera_yaw[camera::encode(a.yaw) as usize] += 1;
            s.camera_pitch[camera::encode(a.pitch) as usize] += 1;
        }
        s
    }
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
    /// Encoded bytes of its frames (JPEG or PNG, as the options say).
    pub frame_bytes: u64,
    /// Idle, attack, camera and item figures of its actions.
    #[serde(default)]
    pub actions: ActionStats,
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
        idle: u64,
        attack: u64,
        exact: u64,
        items: u64,
        max_idle_fraction: f64,
        longest_idle: u32,
        yaw: Vec<u64>,
        pitch: Vec<u64>,
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
            let a = &k.actions;
            t.idle += a.idle_steps as u64;
            t.attack += a.attack_steps as u64;
            t.exact += a.vpt_exact_steps as u64;
            t.items += a.items as u64;
            t.longest_idle = t.longest_idle.max(a.longest_idle);
            if k.steps > 0 {
                t.max_idle_fraction = t
                    .max_idle_fraction
                    .max(a.idle_steps as f64 / k.steps as f64);
            }
            for (acc, bins) in [(&mut t.yaw, &a.camera_yaw), (&mut t.pitch, &a.camera_pitch)] {
                acc.resize(acc.len().max(bins.len()), 0);
                for (i, n) in bins.iter().enumerate() {
                    acc[i] += *n as u64;
                }
            }
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
        let frac = |n: u64| {
            if t.frames > 0 {
                (n as f64 / t.frames as f64 * 1000.0).round() / 1000.0
            } else {
                0.0
            }
        };
        tasks.insert(
            id.clone(),
            json!({
                "episodes": t.episodes,
                "frames": t.frames,
                "bytes": t.bytes,
                "mean_steps": if t.episodes > 0 { (t.frames as f64 / t.episodes as f64 * 10.0).round() / 10.0 } else { 0.0 },
                "items_per_episode": if t.episodes > 0 { (t.items as f64 / t.episodes as f64 * 100.0).round() / 100.0 } else { 0.0 },
                "idle_fraction": frac(t.idle),
                "max_idle_fraction": (t.max_idle_fraction * 1000.0).round() / 1000.0,
                "longest_idle_steps": t.longest_idle,
                "attack_fraction": frac(t.attack),
                "vpt_exact_fraction": frac(t.exact),
                "camera_histogram": {"yaw": t.yaw, "pitch": t.pitch, "bins_deg": (0..camera::BINS).map(|b| (camera::decode(b) as f64 * 1000.0).round() / 1000.0).collect::<Vec<_>>()},
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
        "frame_bytes_per_frame": per_frame(frame_bytes),
        "resolution": [o.width, o.height],
        "fps": FPS,
        "frame_format": o.frame_format.as_str(),
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
