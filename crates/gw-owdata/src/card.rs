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
    let mut action: Vec<Value> = [
        "forward",
        "back",
        "left",
        "right",
        "jump",
        "sneak",
        "sprint",
        "attack",
        "use",
        "drop",
        "inventory",
    ]
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

/// The front matter of a dataset with `stats` (the merged stats.json).
pub fn front_matter(stats: &Value) -> Value {
    let mut configs = vec![json!({
        "config_name": "default",
        "default": true,
        "data_files": [{"split": "train", "path": "data/*/*.parquet"}],
    })];
    if let Some(tasks) = stats["per_task"].as_object() {
        for (id, t) in tasks {
            if t["episodes"].as_u64().unwrap_or(0) > 0 {
                configs.push(json!({
                    "config_name": id,
                    "data_files": [{"split": "train", "path": format!("data/{id}/*.parquet")}],
                }));
            }
        }
    }
    let bytes = stats["bytes"].as_u64().unwrap_or(0);
    json!({
        "license": "mit",
        "pretty_name": "GameWorld-RS goal-observation-action",
        "task_categories": ["robotics", "reinforcement-learning"],
        "tags": ["minecraft-like", "imitation-learning", "goal-conditioned", "behavior-cloning", "synthetic"],
        "size_categories": [size_category(stats["frames"].as_u64().unwrap_or(0))],
        "configs": configs,
        "dataset_info": {
            "features": features(),
            "splits": [{"name": "train", "num_bytes": bytes, "num_examples": stats["frames"]}],
            "download_size": bytes,
            "dataset_size": bytes,
        },
    })
}

fn body(stats: &Value, example: &str) -> String {
    let mut rows = String::new();
    if let Some(tasks) = stats["per_task"].as_object() {
        for (id, t) in tasks {
            rows.push_str(&format!(
                "| {id} | {} | {} | {} | {} | {} | {} |\n",
                t["episodes"],
                t["frames"],
                t["mean_steps"],
                t["dropped"]["not_reached"],
                t["dropped"]["died"],
                t["dropped"]["over_long"],
            ));
        }
    }
    let res = &stats["resolution"];
    format!(
        r#"# GameWorld-RS goal-observation-action data

Goal-observation-action records from the scripted expert of GameWorld-RS's
open voxel world, made the way Optimus-2 made MGOA: a goal phrasing is drawn
from an instruction pool, the expert plays the task in a freshly generated
world, and only runs that reach the goal within {max_steps} steps
({minutes} game minutes at {fps} steps per second) are kept. Kept runs are
replayed from their seed with rendering, so every record pairs the frame the
expert saw with the action it took on it.

- {episodes} episodes, {frames} frames ({res0}×{res1}, PNG), {bytes} bytes of Parquet
  ({bpf} bytes per frame); {dropped} of {attempted} runs dropped.
- One Parquet file per episode under `data/<task>/`; configs per task.
- `stats.json`: totals, per-task counts, dropped runs by reason;
  `stats/shard-I-of-N.json`: what each generation shard kept and dropped.

| task | episodes | frames | mean steps | dropped: not reached | died | over long |
|---|---|---|---|---|---|---|
{rows}
## Record

| column | meaning |
|---|---|
| `task`, `episode_id`, `episode`, `seed` | registry task id, episode name, index, world seed |
| `step`, `episode_steps` | control tick (20 per game second) and the episode's length |
| `goal` | the instruction for the whole episode |
| `frame` | `{{bytes, path}}`: PNG of the first-person view before the action |
| `action` | factored action (Optimus-2 Table 6): buttons, `hotbar` (0 = unchanged), camera `yaw`/`pitch` in degrees, `craft`/`smelt` macro item or null |
| `vpt_action` | VPT discretisation: `buttons` class of 8641, `camera` class of 121 (11 μ-law bins per axis, `pitch_bin * 11 + yaw_bin`) |
| `inventory` | `[{{item, count}}]` before the action |
| `position` | feet `x, y, z` and view `yaw, pitch` before the action |
| `reward` | goal items obtained by the action |
| `progress` | fraction of the goal count held after the action |
| `done` | the goal is held after the action (last record) |

Frames are PNG: lossless, so pixels match the world exactly, and encoded
bytes are reproducible from the seed. JPEG at quality 90 would take about 56%
of the bytes (33.3 KB against 59.6 KB per 640×360 frame, measured) but blurs
the 8×8 block textures and the HUD digits.

## Load

```python
import pyarrow.parquet as pq, io
from PIL import Image
t = pq.read_table("{example}")
row = t.slice(0, 1).to_pylist()[0]
print(row["goal"], row["action"], row["vpt_action"])
Image.open(io.BytesIO(row["frame"]["bytes"]))
```

or `datasets.load_dataset("parquet", data_dir=".")`, or `load_dataset(".")`
with the configs above (`frame` decodes as an image).
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
