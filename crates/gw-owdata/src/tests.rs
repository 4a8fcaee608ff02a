//! End-to-end tests of the dataset pipeline at 64×64 with few episodes.

use crate::card::{features, front_matter};
use crate::episode::{Drop, TaskDef, episode_seed, judge, run_expert};
use crate::generate::{Options, generate};
use crate::stats::{DataOptions, read_shards};
use gw_core::shard::Shard;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use serde_json::Value;
use std::path::Path;

fn logs() -> TaskDef {
    TaskDef {
        id: "atomic_logs".into(),
        target_item: "logs".into(),
        count: 1,
        kit: Vec::new(),
    }
}

/// A diamond from an empty inventory needs a whole tech tree: out of reach
/// in a few hundred steps.
fn out_of_reach() -> TaskDef {
    TaskDef {
        id: "diamond_from_nothing".into(),
        target_item: "diamond".into(),
        count: 1,
        kit: Vec::new(),
    }
}

fn options(out: &Path, tasks: Vec<TaskDef>, episodes: u32, max_steps: u64) -> Options {
    Options {
        data: DataOptions {
            seed: 5,
            episodes,
            tasks,
            width: 64,
            height: 64,
            max_steps,
            run_limit: 600,
            frame_format: crate::FrameFormat::Jpeg,
        },
        out: out.to_path_buf(),
        workers: 2,
        shard: None,
    }
}

fn quiet(_: &str) {}

fn rows(path: &Path) -> Vec<Row> {
    let r = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    r.get_row_iter(None).unwrap().map(|r| r.unwrap()).collect()
}

fn field<'a>(row: &'a Row, name: &str) -> &'a Field {
    row.get_column_iter()
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn group<'a>(row: &'a Row, name: &str) -> &'a Row {
    match field(row, name) {
        Field::Group(g) => g,
        f => panic!("{name} is not a group: {f:?}"),
    }
}

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_filter_keeps_successful_runs_and_drops_failed_and_over_long_ones() {
    let dir = tempfile::tempdir().unwrap();
    let report = generate(
        &options(dir.path(), vec![logs(), out_of_reach()], 1, 600),
        &quiet,
    )
    .unwrap();
    let kept = &report.stats.kept;
    assert_eq!(kept.len(), 1, "{:?}", report.stats);
    let k = &kept[0];
    assert_eq!(
        (k.task.as_str(), k.file.as_str()),
        ("atomic_logs", "data/atomic_logs/atomic_logs-000000.parquet")
    );
    assert_eq!(report.stats.dropped.len(), 1);
    let d = &report.stats.dropped[0];
    assert_eq!(
        (d.task.as_str(), d.reason, d.steps),
        ("diamond_from_nothing", Drop::NotReached, 600)
    );
    assert!(!dir.path().join("data/diamond_from_nothing").exists());

    // The same episode with a step budget one short of its length is over-long.
    let over = tempfile::tempdir().unwrap();
    let r = generate(
        &options(over.path(), vec![logs()], 1, k.steps as u64 - 1),
        &quiet,
    )
    .unwrap();
    assert!(r.stats.kept.is_empty());
    assert_eq!(r.stats.dropped[0].reason, Drop::OverLong);
    assert_eq!(r.stats.dropped[0].steps, k.steps as u64);
    assert!(!over.path().join("data").exists());
    let totals = json_file(&over.path().join("stats.json"));
    assert_eq!(totals["episodes"], 0);
    assert_eq!(totals["dropped"]["over_long"], 1);
    assert_eq!(totals["per_task"]["atomic_logs"]["dropped"]["over_long"], 1);

    // Exactly at the budget it is kept.
    let run = run_expert(&logs(), k.seed, 600);
    assert_eq!(run.actions.len(), k.steps as usize);
    assert_eq!(judge(&run, k.steps as u64), Ok(()));
    assert_eq!(judge(&run, k.steps as u64 - 1), Err(Drop::OverLong));

    // The totals and the card say what was dropped and why.
    let totals = json_file(&dir.path().join("stats.json"));
    assert_eq!(totals["episodes"], 1);
    assert_eq!(totals["frames"], k.steps);
    assert_eq!(totals["attempted"], 2);
    assert_eq!(totals["dropped"]["not_reached"], 1);
    assert_eq!(
        totals["per_task"]["diamond_from_nothing"]["dropped"]["not_reached"],
        1
    );
    assert_eq!(totals["per_task"]["atomic_logs"]["episodes"], 1);

    // Records: one per action, the goal reached on the last.
    let rs = rows(&dir.path().join(&k.file));
    assert_eq!(rs.len(), k.steps as usize);
    let last = rs.last().unwrap();
    assert_eq!(field(last, "done"), &Field::Bool(true));
    assert_eq!(field(last, "progress"), &Field::Float(1.0));
    assert!(
        rs[..rs.len() - 1]
            .iter()
            .all(|r| field(r, "done") == &Field::Bool(false))
    );
    let reward: f32 = rs
        .iter()
        .map(|r| match field(r, "reward") {
            Field::Float(x) => *x,
            f => panic!("{f:?}"),
        })
        .sum();
    assert!(reward >= 1.0, "{reward}");
    let goal = match field(&rs[0], "goal") {
        Field::Str(s) => s.clone(),
        f => panic!("{f:?}"),
    };
    assert_eq!(goal, k.goal);
    assert!(crate::instructions::pool("logs", 1).contains(&goal));
    // Each row's VPT action is the discretisation of its factored action.
    for r in &rs {
        let a = group(r, "action");
        let flag = |n: &str| field(a, n) == &Field::Bool(true);
        let angle = |n: &str| match field(a, n) {
            Field::Float(x) => *x,
            f => panic!("{f:?}"),
        };
        let hotbar = match field(a, "hotbar") {
            Field::Int(h) => *h,
            f => panic!("{f:?}"),
        };
        let action = gw_world::Action {
            forward: flag("forward"),
            back: flag("back"),
            left: flag("left"),
            right: flag("right"),
            jump: flag("jump"),
            sneak: flag("sneak"),
            sprint: flag("sprint"),
            attack: flag("attack"),
            use_item: flag("use"),
            drop: flag("drop"),
            inventory: flag("inventory"),
            hotbar: (hotbar > 0).then_some(hotbar as u8),
            yaw: angle("yaw"),
            pitch: angle("pitch"),
            ..Default::default()
        };
        let v = gw_world::action::encode(&action);
        let vpt = group(r, "vpt_action");
        assert_eq!(field(vpt, "buttons"), &Field::Int(v.buttons as i32));
        assert_eq!(field(vpt, "camera"), &Field::Int(v.camera as i32));
        // VPT-exact: the recorded action is the decoding of its label.
        assert_eq!(
            gw_world::action::decode(v),
            action,
            "step {:?}",
            field(r, "step")
        );
    }
    // Frames are 64×64 JPEGs.
    let frame = group(&rs[0], "frame");
    let Field::Bytes(jpeg) = field(frame, "bytes") else {
        panic!("frame bytes")
    };
    let mut dec = jpeg_decoder::Decoder::new(std::io::Cursor::new(jpeg.data().to_vec()));
    let pixels = dec.decode().unwrap();
    let info = dec.info().unwrap();
    assert_eq!((info.width, info.height), (64, 64));
    assert_eq!(pixels.len(), 64 * 64 * 3);
    assert_eq!(field(frame, "path"), &Field::Null);
    // The action figures a data user checks.
    let a = &k.actions;
    assert_eq!(a.vpt_exact_steps, k.steps);
    assert!(a.idle_steps * 5 <= k.steps, "{a:?}");
    assert_eq!(a.camera_yaw.iter().sum::<u32>(), k.steps);
    assert!(a.items >= 1);
    let t = &totals["per_task"]["atomic_logs"];
    assert_eq!(t["vpt_exact_fraction"], 1.0);
    assert_eq!(t["items_per_episode"].as_f64(), Some(a.items as f64));
    assert_eq!(totals["frame_format"], "jpeg");
    assert_eq!(
        t["camera_histogram"]["yaw"].as_array().map(|v| v.len()),
        Some(11)
    );
}

#[test]
fn frames_are_png_on_request_and_jpeg_is_the_smaller() {
    let task = logs();
    let run = run_expert(&task, episode_seed(5, "atomic_logs", 0), 600);
    let (mut jpeg, mut png) = (Vec::new(), Vec::new());
    assert!(run.success);
    let take = &run.actions;
    for (format, out) in [
        (crate::FrameFormat::Jpeg, &mut jpeg),
        (crate::FrameFormat::Png, &mut png),
    ] {
        crate::episode::replay::<()>(
            &task,
            episode_seed(5, "atomic_logs", 0),
            take,
            320,
            180,
            format,
            |r| {
                out.push(r.frame);
                Ok(())
            },
        )
        .unwrap_or_else(|_| panic!("the replay holds"));
        assert_eq!(out.len(), take.len());
    }
    assert!(png[0].starts_with(b"\x89PNG"));
    assert!(jpeg[0].starts_with(&[0xFF, 0xD8]));
    let (j, p): (usize, usize) = (
        jpeg.iter().map(Vec::len).sum(),
        png.iter().map(Vec::len).sum(),
    );
    assert!(j < p, "jpeg {j} png {p}");
    assert_eq!(
        crate::FrameFormat::parse("PNG"),
        Ok(crate::FrameFormat::Png)
    );
    assert!(
        crate::FrameFormat::parse("webp")
            .unwrap_err()
            .contains("jpeg")
    );
}

#[test]
fn one_episode_is_deterministic_whatever_the_worker_count() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut oa = options(a.path(), vec![logs()], 1, 600);
    oa.workers = 1;
    let ob = options(b.path(), vec![logs()], 1, 600);
    let ra = generate(&oa, &quiet).unwrap();
    let rb = generate(&ob, &quiet).unwrap();
    assert_eq!(ra.stats, rb.stats);
    let file = &ra.stats.kept[0].file;
    let (fa, fb) = (
        std::fs::read(a.path().join(file)).unwrap(),
        std::fs::read(b.path().join(file)).unwrap(),
    );
    assert_eq!(fa, fb);
    for f in ["stats.json", "README.md", "stats/shard-1-of-1.json"] {
        assert_eq!(
            std::fs::read(a.path().join(f)).unwrap(),
            std::fs::read(b.path().join(f)).unwrap(),
            "{f}"
        );
    }
    // Another dataset seed is another world.
    assert_ne!(
        episode_seed(5, "atomic_logs", 0),
        episode_seed(6, "atomic_logs", 0)
    );
    assert_ne!(
        episode_seed(5, "atomic_logs", 0),
        episode_seed(5, "atomic_logs", 1)
    );
    assert_ne!(
        episode_seed(5, "atomic_logs", 0),
        episode_seed(5, "atomic_dirt", 0)
    );
}

/// Leaf names of the card's features, dotted, in order.
fn feature_leaves(v: &Value, prefix: &str, out: &mut Vec<String>) {
    for f in v.as_array().unwrap() {
        let name = format!("{prefix}{}", f["name"].as_str().unwrap());
        if let Some(s) = f.get("struct") {
            feature_leaves(s, &format!("{name}."), out);
        } else if let Some(s) = f.get("list") {
            feature_leaves(s, &format!("{name}.list.element."), out);
        } else if f["dtype"] == "image" {
            out.push(format!("{name}.bytes"));
            out.push(format!("{name}.path"));
        } else {
            out.push(name);
        }
    }
}

#[test]
fn the_schema_matches_the_card_and_shards_merge_by_copying() {
    // Two shards of a plan of two jobs: logs (job 0) and the unreachable task (job 1).
    let root = tempfile::tempdir().unwrap();
    let (s1, s2, merged) = (
        root.path().join("s1"),
        root.path().join("s2"),
        root.path().join("all"),
    );
    for (dir, index) in [(&s1, 1), (&s2, 2)] {
        let mut o = options(dir, vec![logs(), out_of_reach()], 1, 600);
        o.shard = Some(Shard { index, count: 2 });
        generate(&o, &quiet).unwrap();
    }
    let t1 = json_file(&s1.join("stats.json"));
    assert_eq!(
        (t1["episodes"].as_u64(), t1["dropped"]["total"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(t1["shards_missing"], serde_json::json!(["2/2"]));
    let t2 = json_file(&s2.join("stats.json"));
    assert_eq!(
        (t2["episodes"].as_u64(), t2["dropped"]["total"].as_u64()),
        (Some(0), Some(1))
    );

    // Merge: copy both folders over one another, then rebuild the card.
    for src in [&s1, &s2] {
        copy_tree(src, &merged);
    }
    let totals = crate::card::rebuild(&merged).unwrap();
    assert_eq!(totals["episodes"], 1);
    assert_eq!(totals["dropped"]["total"], 1);
    assert_eq!(totals["shards"], serde_json::json!(["1/2", "2/2"]));
    assert_eq!(totals["shards_missing"], serde_json::json!([]));
    assert_eq!(read_shards(&merged).unwrap().len(), 2);

    // The Parquet schema's leaves are the card's features.
    let kept = &read_shards(&s1).unwrap()[0].kept[0];
    let reader =
        SerializedFileReader::new(std::fs::File::open(merged.join(&kept.file)).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr();
    let leaves: Vec<String> = schema.columns().iter().map(|c| c.path().string()).collect();
    let mut expected = Vec::new();
    feature_leaves(&features(), "", &mut expected);
    assert_eq!(leaves, expected);
    assert_eq!(
        reader.metadata().file_metadata().num_rows(),
        kept.steps as i64
    );

    // The card's front matter parses and points at the data.
    let card = std::fs::read_to_string(merged.join("README.md")).unwrap();
    let yaml = card
        .strip_prefix("---\n")
        .unwrap()
        .split("\n---\n")
        .next()
        .unwrap();
    let fm: Value = serde_saphyr::from_str(yaml).unwrap();
    assert_eq!(fm, front_matter(&totals));
    assert_eq!(
        fm["configs"][0]["data_files"][0]["path"],
        "data/*/*.parquet"
    );
    assert_eq!(fm["configs"][1]["config_name"], "atomic_logs");
    assert_eq!(fm["configs"].as_array().unwrap().len(), 2);
    // One dataset_info per config, each with `frame` as an Image.
    let infos = fm["dataset_info"].as_array().unwrap();
    assert_eq!(infos.len(), 2);
    for (info, config) in infos.iter().zip(fm["configs"].as_array().unwrap()) {
        assert_eq!(info["config_name"], config["config_name"]);
        let frame = info["features"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "frame")
            .unwrap();
        assert_eq!(frame["dtype"], "image");
        assert_eq!(info["splits"][0]["num_examples"], kept.steps);
    }
    assert!(card.contains("load_dataset("), "{card}");
    assert!(card.contains("TB"), "{card}");
    assert!(card.contains(&kept.file));

    // A shard made with other options does not merge.
    let other = root.path().join("other");
    let mut o = options(&other, vec![logs()], 1, 600);
    o.data.seed = 9;
    o.shard = Some(Shard { index: 2, count: 2 });
    o.data.tasks = vec![out_of_reach()];
    generate(&o, &quiet).unwrap();
    std::fs::copy(
        other.join("stats/shard-2-of-2.json"),
        merged.join("stats/shard-2-of-2.json"),
    )
    .unwrap();
    let e = crate::card::rebuild(&merged).unwrap_err();
    assert!(e.contains("other options"), "{e}");
    // A listed data file that is missing is named.
    std::fs::copy(
        s2.join("stats/shard-2-of-2.json"),
        merged.join("stats/shard-2-of-2.json"),
    )
    .unwrap();
    std::fs::remove_file(merged.join(&kept.file)).unwrap();
    let e = crate::card::rebuild(&merged).unwrap_err();
    assert!(e.contains(&kept.file) && e.contains("missing"), "{e}");
}

fn copy_tree(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}

#[test]
fn bad_options_name_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let mut o = options(dir.path(), vec![logs()], 1, 600);
    o.data.run_limit = 10;
    let e = generate(&o, &quiet).unwrap_err();
    assert!(e.contains("--run-limit 10 is below --max-steps 600"), "{e}");
    let mut o = options(dir.path(), vec![logs(), logs()], 1, 600);
    let e = generate(&o, &quiet).unwrap_err();
    assert!(e.contains("listed twice"), "{e}");
    o.data.tasks = vec![logs()];
    o.data.width = 8;
    let e = generate(&o, &quiet).unwrap_err();
    assert!(e.contains("--resolution 8x64"), "{e}");
    let e = crate::card::rebuild(&dir.path().join("nothing")).unwrap_err();
    assert!(e.contains("stats"), "{e}");
}
