//! The dataset card: `README.md` with Hugging Face front matter (configs
//! per task, features, the train split's size) above a short description,
//! written together with `stats.json` from the shard stats in the folder.

use crate::stats::{FPS, merge, read_shards};
use gw_core::frame::write_atomic;
use serde_json::{Value, json};
use std::path::Path;

fn leaf(name: &str, dtype: &str) -> Value {
    json!({"name": name, "dtype": dtype})
}

/// The `datasets` features of a record, in the Parquet schema's order.
pub fn features() -> Value {
    let mut action: Vec<Value> = gw_openworld::game::BUTTONS
        .iter()
        .map(|n| leaf(n, "bool"))
        .collect();
    action.extend([
        leaf("hotbar", "int32"),
        leaf("yaw", "float32"),
        leaf("pitch", "float32"),
        leaf("craft", "string"),
        leaf("smelt", "string"),
    ]);
    json!([
        leaf("task", "string"),
        leaf("episode_id", "string"),
        leaf("episode", "int32"),
        leaf("seed", "uint64"),
        leaf("step", "int32"),
        leaf("episode_steps", "int32"),
        leaf("goal", "string"),
        leaf("frame", "image"),
        {"name": "action", "struct": action},
        {"name": "vpt_action", "struct": [leaf("buttons", "int32"), leaf("camera", "int32")]},
        {"name": "inventory", "list": [leaf("item", "string"), leaf("count", "int32")]},
        {"name": "position", "struct": [
            leaf("x", "float64"), leaf("y", "float64"), leaf("z", "float64"),
            leaf("yaw", "float32"), leaf("pitch", "float32"),
        ]},
        leaf("reward", "float32"),
        leaf("progress", "float32"),
        leaf("done", "bool"),
    ])
}

/// The Hub's size bucket for `n` rows.
fn size_category(n: u64) -> &'static str {
    match n {
        0..1_000 => "n<1K",
        1_000..10_000 => "1K<n<10K",
        10_000..100_000 => "10K<n<100K",
        100_000..1_000_000 => "100K<n<1M",
        1_000_000..10_000_000 => "1M<n<10M",
        10_000_000..100_000_000 => "10M<n<100M",
        _ => "100M<n<1B",
    }
}

/// Frames of Optimus-2's MGOA (25k videos, about 30 M frames): the scale
/// the card sizes the data format at.
pub const MGOA_FRAMES: f64 = 30.0e6;

/// The front matter of a dataset with `stats` (the merged stats.json): a
/// config per task besides the default one, each with its own
/// `dataset_info` (so `frame` is an `Image` feature whichever is loaded).
pub fn front_matter(stats: &Value) -> Value {
    let mut configs = vec![json!({
        "config_name": "default",
        "default": true,
        "data_files": [{"split": "train", "path": "data/*/*.parquet"}],
    })];
    let bytes = stats["bytes"].as_u64().unwrap_or(0);
    let info = |name: &str, bytes: u64, frames: &Value| {
        json!({
            "config_name": name,
            "features": features(),
            "splits": [{"name": "train", "num_bytes": bytes, "num_examples": frames}],
            "download_size": bytes,
            "dataset_size": bytes,
        })
    };
    let mut infos = vec![info("default", bytes, &stats["frames"])];
    if let Some(tasks) = stats["per_task"].as_object() {
        for (id, t) in tasks {
            if t["episodes"].as_u64().unwrap_or(0) > 0 {
                configs.push(json!({
                    "config_name": id,
                    "data_files": [{"split": "train", "path": format!("data/{id}/*.parquet")}],
                }));
                infos.push(info(id, t["bytes"].as_u64().unwrap_or(0), &t["frames"]));
            }
        }
    }
    json!({
        "license": "mit",
        "pretty_name": "GameWorld-RS goal-observation-action",
        "task_categories": ["robotics", "reinforcement-learning"],
        "tags": ["minecraft-like", "imitation-learning", "goal-conditioned", "behavior-cloning", "synthetic"],
        "size_categories": [size_category(stats["frames"].as_u64().unwrap_or(0))],
        "configs": configs,
        "dataset_info": infos,
    })
}

fn body(stats: &Value, example: &str) -> String {
    let mut rows = String::new();
    if let Some(tasks) = stats["per_task"].as_object() {
        for (id, t) in tasks {
            rows.push_str(&format!(
                "| {id} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                t["episodes"],
                t["frames"],
                t["mean_steps"],
                t["items_per_episode"],
                t["idle_fraction"],
                t["attack_fraction"],
                t["dropped"]["not_reached"],
                t["dropped"]["died"],
                t["dropped"]["over_long"],
            ));
        }
    }
    let res = &stats["resolution"];
    let format = stats["frame_format"].as_str().unwrap_or("png");
    let bpf = stats["bytes_per_frame"].as_f64().unwrap_or(0.0);
    let fbpf = stats["frame_bytes_per_frame"].as_f64().unwrap_or(0.0);
    let frames_note = if format == "jpeg" {
        format!(
            "Frames are JPEG (quality {q}, 4:2:0 chroma; `--frame-format png` stores lossless PNG\n\
             instead, about 3.5 times the bytes): {kb:.1} KB per {res0}×{res1} frame here.",
            q = crate::frame::JPEG_QUALITY,
            kb = fbpf / 1000.0,
            res0 = res[0],
            res1 = res[1],
        )
    } else {
        format!(
            "Frames are PNG (lossless, `--frame-format png`): {kb:.1} KB per {res0}×{res1} frame here;\n\
             the default JPEG takes under a third of that.",
            kb = fbpf / 1000.0,
            res0 = res[0],
            res1 = res[1],
        )
    };
    let scale = format!(
        "At {bpf:.0} bytes of Parquet per frame, MGOA's scale (about 30 M frames) would\n\
         take about {tb:.2} TB.",
        tb = bpf * MGOA_FRAMES / 1e12
    );
    format!(
        r#"# GameWorld-RS goal-observation-action data

Goal-observation-action records from the scripted expert of GameWorld-RS's
open voxel world, made the way Optimus-2 made MGOA: a goal phrasing is drawn
from an instruction pool, the expert plays the task in a freshly generated
world, and only runs that reach the goal within {max_steps} steps
({minutes} game minutes at {fps} steps per second) are kept. Kept runs are
replayed from their seed with rendering, so every record pairs the frame the
expert saw with the action it took on it.

- {episodes} episodes, {frames} frames ({res0}×{res1}, {fmt}), {bytes} bytes of Parquet
  ({bpf} bytes per frame); {dropped} of {attempted} runs dropped.
- One Parquet file per episode under `data/<task>/`; configs per task.
- `stats.json`: totals, per-task counts, dropped runs by reason, and what a
  data user checks about the actions: items per episode, idle fraction
  (steps that do nothing; the largest of any episode too), attack fraction,
  the share of actions that equal the decoding of their VPT label, and a
  histogram of the VPT camera bins; `stats/shard-I-of-N.json`: what each
  generation shard kept and dropped, with those figures per episode.

| task | episodes | frames | mean steps | items per episode | idle | attack | dropped: not reached | died | over long |
|---|---|---|---|---|---|---|---|---|---|
{rows}
## Record

| column | meaning |
|---|---|
| `task`, `episode_id`, `episode`, `seed` | registry task id, episode name, index, world seed |
| `step`, `episode_steps` | control tick (20 per game second) and the episode's length |
| `goal` | the instruction for the whole episode |
| `frame` | `{{bytes, path}}`: the first-person view before the action ({fmt}) |
| `action` | factored action (Optimus-2 Table 6): buttons, `hotbar` (0 = unchanged), camera `yaw`/`pitch` in degrees, `craft`/`smelt` macro item or null |
| `vpt_action` | VPT discretisation: `buttons` class of 8641, `camera` class of 121 (11 μ-law bins per axis, `pitch_bin * 11 + yaw_bin`) |
| `inventory` | `[{{item, count}}]` before the action |
| `position` | feet `x, y, z` and view `yaw, pitch` before the action |
| `reward` | goal items obtained by the action |
| `progress` | fraction of the goal count held after the action |
| `done` | the goal is held after the action (last record) |

{frames_note} Encoded bytes are reproducible from the seed.
{scale}

The expert's actions are ones a policy can imitate: it acts only on what has
been in its view, turns the camera at most one VPT bin (10°) a tick, and each
recorded `action` equals the decoding of its `vpt_action` (the craft/smelt
macros aside).

## Load

```python
from datasets import load_dataset
ds = load_dataset("path/to/this/folder", split="train")                 # every task
logs = load_dataset("path/to/this/folder", "atomic_logs", split="train")  # one task's config
row = ds[0]
row["frame"]          # a PIL image (the `frame` feature is an Image in every config)
print(row["goal"], row["action"], row["vpt_action"])
```

Without `datasets`:

```python
import pyarrow.parquet as pq, io
from PIL import Image
row = pq.read_table("{example}").slice(0, 1).to_pylist()[0]
Image.open(io.BytesIO(row["frame"]["bytes"]))
```
"#,
        max_steps = stats["max_steps"],
        minutes = stats["max_steps"].as_f64().unwrap_or(0.0) / (FPS as f64 * 60.0),
        fps = FPS,
        episodes = stats["episodes"],
        frames = stats["frames"],
        res0 = res[0],
        res1 = res[1],
        bytes = stats["bytes"],
        bpf = stats["bytes_per_frame"],
        dropped = stats["dropped"]["total"],
        attempted = stats["attempted"],
        fmt = format.to_uppercase(),
    )
}

/// The dataset card text for `stats`; `example` is a data file to show in
/// the loading snippet.
pub fn card(stats: &Value, example: &str) -> String {
    let yaml = serde_saphyr::to_string(&front_matter(stats)).expect("the front matter serializes");
    format!("---\n{}---\n\n{}", yaml, body(stats, example))
}

/// Merge the shard stats in `root` and (re)write `stats.json` and
/// `README.md`; returns the merged stats.
pub fn rebuild(root: &Path) -> Result<Value, String> {
    let shards = read_shards(root)?;
    let stats = merge(root, &shards)?;
    let text = serde_json::to_string_pretty(&stats).expect("stats serialize") + "\n";
    let w = |name: &str, bytes: &[u8]| {
        write_atomic(&root.join(name), bytes)
            .map_err(|e| format!("cannot write {}: {e}", root.join(name).display()))
    };
    w("stats.json", text.as_bytes())?;
    let example = shards
        .iter()
        .flat_map(|s| s.kept.iter().map(|k| k.file.as_str()))
        .min()
        .unwrap_or("data/<task>/<episode>.parquet");
    w("README.md", card(&stats, example).as_bytes())?;
    Ok(stats)
}
