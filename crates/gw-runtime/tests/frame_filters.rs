//! A game's PNG row filter (`Game::frame_filter`) is the one its frames are
//! written with, on the background writer (built-in agents) and in the run
//! loop (agents that look at the PNG) alike, and every written frame decodes
//! to the game's pixels whatever the filter.

mod support;

use gw_agents::{Agent, AgentError, Observation, Reply};
use gw_core::Stepper;
use gw_core::frame::{FRAME_FILTER, RowFilter, encode_frame, pixmap_rgb};
use gw_core::registry::Interface;
use gw_runtime::RunOptions;
use gw_runtime::run::run_preset_with_agent;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use support::{decode_png, registry};

/// The scripted expert, optionally claiming to look at the PNG (so the run
/// loop encodes frames itself instead of on the background writer), keeping
/// every PNG it was shown.
struct Looker {
    inner: Box<dyn Agent>,
    looks: bool,
    seen: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Agent for Looker {
    fn id(&self) -> &str {
        "looker"
    }
    fn interface(&self) -> Interface {
        self.inner.interface()
    }
    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        if self.looks {
            self.seen.lock().unwrap().push(obs.frame_png.to_vec());
        }
        self.inner.act(obs)
    }
    fn needs_frames(&self) -> bool {
        self.looks
    }
}

/// Run `game`'s first task for `steps` expert steps with frames on and check
/// every written frame (and every PNG the agent saw) against a replay: the
/// bytes are the frame encoded with `filter`, the pixels the replay's.
fn check_run(game: &str, filter: RowFilter, looks: bool, steps: u32) {
    let reg = registry();
    let task = reg.tasks_of(game).next().unwrap().id.clone();
    let preset_id = format!("{game}+{task}+scripted");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let opts = RunOptions {
        max_steps: Some(steps),
        ..RunOptions::new(preset_id.clone(), 3, out.clone())
    };
    let seen = Arc::new(Mutex::new(Vec::new()));
    let make = |preset: &gw_core::Preset, seed: u64| {
        let inner = gw_agents::builtin::create("scripted", preset, seed).expect("scripted agent");
        Ok(Box::new(Looker {
            inner,
            looks,
            seen: seen.clone(),
        }) as Box<dyn Agent>)
    };
    let result = run_preset_with_agent(&reg, &opts, &make, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{preset_id}: {e}"));
    assert_eq!(result.steps, steps, "{preset_id}");
    assert_eq!(result.episodes, 1, "{preset_id}: no restart in this play");

    let preset = reg.resolve_preset(&preset_id).unwrap();
    let mut stepper = Stepper::new(gw_games::create(game).unwrap(), &preset, 3).unwrap();
    assert_eq!(stepper.frame_filter(), filter, "{game}");
    let (w, h) = stepper.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    let traj = std::fs::read_to_string(out.join("trajectory.jsonl")).unwrap();
    let mut rows = traj.lines();
    let seen = seen.lock().unwrap();
    for step in 0..=steps {
        if step > 0 {
            let row: Value = serde_json::from_str(rows.next().unwrap()).unwrap();
            let proposed = &row["proposed"];
            let payload = (!proposed.is_null()).then_some(proposed);
            stepper.step(Interface::Generalist, payload).unwrap();
        }
        stepper.render(&mut pm);
        let path = out.join(format!("frames/step_{step:06}.png"));
        let written = std::fs::read(&path).unwrap();
        assert!(
            written == encode_frame(&pm, filter),
            "{game} frame {step} (agent looks: {looks}) is not encoded with {filter:?}"
        );
        assert!(
            decode_png(&path) == pixmap_rgb(&pm),
            "{game} frame {step} does not decode to the game's pixels"
        );
        // The agent acts on frames 0..steps - 1 (none after the last step).
        if looks && step < steps {
            assert!(
                seen.get(step as usize) == Some(&written),
                "{game}: the agent saw other bytes than frame {step}"
            );
        }
    }
    assert_eq!(seen.len(), if looks { steps as usize } else { 0 });
}

#[test]
fn a_games_hinted_filter_writes_its_frames_with_the_same_pixels() {
    // Temple Run 2 names `Sub`, which gives other bytes than the default.
    let game = gw_games::create("28_temple-run-2").unwrap();
    assert_eq!(game.frame_filter(), RowFilter::Sub);
    assert_ne!(game.frame_filter(), FRAME_FILTER);
    for looks in [false, true] {
        check_run("28_temple-run-2", RowFilter::Sub, looks, 6);
        // A game without a hint keeps the default filter.
        check_run("29_tetris", FRAME_FILTER, looks, 6);
    }
}

#[test]
fn every_filter_of_a_hinted_game_decodes_to_the_same_frame() {
    let reg = registry();
    let preset = reg
        .resolve_preset("28_temple-run-2+28_01+scripted")
        .unwrap();
    let mut stepper =
        Stepper::new(gw_games::create("28_temple-run-2").unwrap(), &preset, 2).unwrap();
    for _ in 0..4 {
        let p = stepper.expert_payload();
        stepper.step(Interface::Generalist, Some(&p)).unwrap();
    }
    let (w, h) = stepper.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    stepper.render(&mut pm);
    let dir = tempfile::tempdir().unwrap();
    let hinted = stepper.encode_frame(&pm);
    let mut sizes = Vec::new();
    for filter in RowFilter::ALL {
        let png = encode_frame(&pm, filter);
        let path = dir.path().join(format!("{}.png", filter.as_str()));
        std::fs::write(&path, &png).unwrap();
        assert!(decode_png(&path) == pixmap_rgb(&pm), "{filter:?}");
        sizes.push((filter, png.len()));
        if filter == RowFilter::Sub {
            assert_eq!(png, hinted);
        }
    }
    // The hint is the smaller of the two fast filters on this game's frame.
    let size = |f| sizes.iter().find(|(g, _)| *g == f).unwrap().1;
    assert!(
        size(RowFilter::Sub) < size(RowFilter::Up),
        "sizes: {sizes:?}"
    );
}
