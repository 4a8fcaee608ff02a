//! Frames written on the background writer (built-in agents): every frame of
//! a run lands, in order, with the pixels of its step; a run killed mid-way
//! leaves only whole PNGs and no `result.json`.

use gw_core::registry::{Interface, Registry};
use gw_core::{Stepper, frame::pixmap_rgb};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn registry_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gameworld"));
    c.env("GAMEWORLD_REGISTRY", registry_dir());
    c
}

/// Decode a PNG fully (a truncated file fails here).
fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let f = std::fs::File::open(path).unwrap();
    let mut r = png::Decoder::new(std::io::BufReader::new(f))
        .read_info()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r
        .next_frame(&mut buf)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// `frames/` entries: the step numbers of `step_NNNNNN.png` files (sorted)
/// and the names of anything else.
fn frame_files(run: &Path) -> (Vec<u32>, Vec<String>) {
    let (mut steps, mut other) = (Vec::new(), Vec::new());
    for e in std::fs::read_dir(run.join("frames")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        match name
            .strip_prefix("step_")
            .and_then(|n| n.strip_suffix(".png"))
            .and_then(|n| n.parse().ok())
        {
            Some(n) => steps.push(n),
            None => other.push(name),
        }
    }
    steps.sort();
    (steps, other)
}

#[test]
fn a_background_written_run_has_every_frame_with_its_steps_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let preset = "29_tetris+29_01+random";
    let status = bin()
        .args(["run", preset, "--seed", "4", "--max-steps", "30", "--out"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("result.json")).unwrap()).unwrap();
    let steps = result["steps"].as_u64().unwrap() as u32;
    assert_eq!(steps, 30);
    let (frames, other) = frame_files(&out);
    assert_eq!(
        frames,
        (0..=steps).collect::<Vec<_>>(),
        "one frame per step"
    );
    assert!(other.is_empty(), "left behind: {other:?}");

    // Replay the recorded actions and compare every frame with a fresh render.
    let reg = Registry::load(&[registry_dir()]).unwrap();
    let p = reg.resolve_preset(preset).unwrap();
    let mut stepper = Stepper::new(gw_games::create(&p.game.id).unwrap(), &p, 4).unwrap();
    let (w, h) = stepper.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    let traj = std::fs::read_to_string(out.join("trajectory.jsonl")).unwrap();
    let mut lines = traj.lines();
    for step in 0..=steps {
        if step > 0 {
            let line: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
            let proposed = &line["proposed"];
            let payload = (!proposed.is_null()).then_some(proposed);
            stepper.step(Interface::Generalist, payload).unwrap();
        }
        stepper.render(&mut pm);
        let (fw, fh, pixels) = decode(&out.join(format!("frames/step_{step:06}.png")));
        assert_eq!((fw, fh), (w, h));
        assert!(
            pixels == pixmap_rgb(&pm),
            "frame {step} does not show the state after step {step}"
        );
    }
}

#[test]
fn a_run_killed_mid_way_leaves_only_whole_frames_and_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut child = bin()
        .args([
            "run",
            "01_2048+01_05+noop",
            "--max-steps",
            "1000000",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let landed = out.join("frames").exists() && frame_files(&out).0.len() >= 25;
        if landed || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !out.join("result.json").exists(),
        "a killed run must not look finished"
    );
    let (frames, _temporaries) = frame_files(&out);
    assert!(frames.len() >= 25, "only {} frames landed", frames.len());
    assert_eq!(
        frames,
        (0..frames.len() as u32).collect::<Vec<_>>(),
        "frames land in order, without holes"
    );
    for step in frames {
        let (w, h, pixels) = decode(&out.join(format!("frames/step_{step:06}.png")));
        assert_eq!(pixels.len(), (w * h * 3) as usize);
    }
}

#[test]
fn bench_suite_plays_the_environment_side_with_a_stand_in() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("tiny.yaml");
    std::fs::write(
        &suite,
        "name: tiny\ncases:\n  - games: [01_2048, 29_tetris]\n    tasks: [01_01, 29_01]\n    models: [gpt-5.2, noop]\nmax_steps: 6\n",
    )
    .unwrap();
    // No API key: the stand-in answers for the model, nothing is called.
    let out = bin()
        .env_remove("OPENAI_API_KEY")
        .args(["bench", "--json", "--suite"])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let b: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(b["suite"], "tiny");
    assert_eq!(b["runs_planned"], 4);
    assert_eq!(b["runs_measured"], 4);
    assert_eq!(b["steps_measured"], 24);
    assert_eq!(b["paper_steps"], 306_000);
    let per_step = b["env_ms_per_step"].as_f64().unwrap();
    assert!(per_step > 0.0);
    let paper = b["paper_env_seconds_estimate"].as_f64().unwrap();
    assert!((paper - 306.0 * per_step).abs() < 1e-6 * paper.max(1.0));
}
