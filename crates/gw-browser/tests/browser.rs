//! The browser backend against real headless Chromium and the project's
//! test game (examples/browser/web/orb_catch). Tests running at the same
//! time share one Chromium; each opens its own browser context. Without Chromium
//! the tests print a note and pass (CI installs it, see .ci/run).

use gw_browser::{BrowserGame, BrowserSpec, Chromium, Source, page_seed};
use gw_core::action::{InputEvent, MouseButton};
use gw_core::game::{Game, GameConfig};
use gw_core::state::Status;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The Chromium the running tests share. The static holds only a weak
/// reference: the tests' games hold the browser, so it is closed (and its
/// profile removed) when the last running test ends, rather than left
/// running after the test binary exits (statics are never dropped). A later
/// test launches a fresh one.
fn chromium() -> Option<Arc<Chromium>> {
    static SHARED: Mutex<Option<Weak<Chromium>>> = Mutex::new(None);
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = shared.as_ref().and_then(Weak::upgrade) {
        return Some(c);
    }
    match Chromium::launch((800, 600)) {
        Ok(c) => {
            let c = Arc::new(c);
            *shared = Some(Arc::downgrade(&c));
            Some(c)
        }
        Err(gw_browser::LaunchError::NotInstalled) => {
            eprintln!(
                "note: Chromium is not installed; browser tests skipped (apt-get install chromium)"
            );
            None
        }
        Err(e) => panic!("Chromium is installed but does not start: {e}"),
    }
}

fn orb_catch() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/browser/web/orb_catch")
}

fn open(suffix: &str, seed: u64) -> Option<BrowserGame> {
    let c = chromium()?;
    let spec = BrowserSpec::new(
        "web_orb_catch",
        Source::Folder(orb_catch()),
        suffix,
        (800, 600),
    );
    let mut g = BrowserGame::open_in(c, spec).expect("page opens");
    g.init(&GameConfig {
        seed,
        ..Default::default()
    });
    assert_eq!(g.fault(), None);
    g.reset(0);
    Some(g)
}

fn hold(g: &mut BrowserGame, key: &str, ms: u64) {
    g.handle_event(&InputEvent::KeyDown { key: key.into() });
    g.advance(ms);
    g.handle_event(&InputEvent::KeyUp { key: key.into() });
}

/// The state without its wall-clock field.
fn comparable(g: &BrowserGame) -> Value {
    let mut v = g.state().to_value();
    v.as_object_mut().unwrap().remove("timestampMs");
    v
}

#[test]
fn lifecycle_input_clock_and_frames() {
    let Some(mut g) = open("?level=2", 3) else {
        return;
    };
    assert!(g.is_ready());
    let s0 = g.state();
    assert_eq!(s0.status, Status::Ready);
    assert_eq!(s0.seed, 3);
    assert_eq!(s0.game_state["level"], 2, "the URL suffix reached the page");
    let v0 = s0.to_value();
    assert_eq!(v0["schemaVersion"], "2.0");
    assert_eq!(v0["is_actionable"], true);
    let init = &g.lifecycle()[0];
    assert_eq!(init["call"], "init");
    assert_eq!(init["reply"]["ok"], true);
    assert_eq!(init["reply"]["accepted"]["seed"], 3);

    let mut before = tiny_skia::Pixmap::new(800, 600).unwrap();
    g.render(&mut before);
    // A held key moves the basket by speed × held game time, exactly.
    let x0 = s0.game_state["player"]["x"].as_f64().unwrap();
    hold(&mut g, "ArrowRight", 500);
    let s1 = g.state();
    assert_eq!(s1.status, Status::Playing);
    let x1 = s1.game_state["player"]["x"].as_f64().unwrap();
    assert!((x1 - x0 - 420.0 * 0.5).abs() <= 12.0, "moved {x0} → {x1}");
    assert_eq!(s1.game_time_ms, 500, "game clock = held time");
    // Frozen between calls: a wall-clock pause changes nothing.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(g.state().game_time_ms, 500);

    let mut after = tiny_skia::Pixmap::new(800, 600).unwrap();
    g.render(&mut after);
    assert_ne!(before.data(), after.data(), "the frame shows the move");
    // The basket (yellow #f2c14e) is drawn at its new place.
    let px = |p: &tiny_skia::Pixmap, x: u32, y: u32| {
        let i = ((y * 800 + x) * 4) as usize;
        p.data()[i..i + 3].to_vec()
    };
    assert_eq!(px(&after, x1 as u32, 556), vec![0xf2, 0xc1, 0x4e]);
    assert_ne!(px(&before, x1 as u32 + 60, 556), vec![0xf2, 0xc1, 0x4e]);
}

#[test]
fn same_seed_same_game_and_reload_reset() {
    let (Some(mut a), Some(mut b)) = (open("", 11), open("", 11)) else {
        return;
    };
    let script = |g: &mut BrowserGame| {
        hold(g, "ArrowLeft", 300);
        g.advance(1500);
        hold(g, "d", 200);
        g.advance(900);
    };
    script(&mut a);
    script(&mut b);
    let (sa, sb) = (comparable(&a), comparable(&b));
    assert_eq!(sa, sb);
    assert!(
        !sa["game_state"]["entities"].as_array().unwrap().is_empty(),
        "orbs fell: {sa}"
    );

    // reload-style reset: the game reloads itself; the host survives the
    // navigation, re-seeds for the episode and waits for readiness.
    a.reset(1);
    assert_eq!(a.fault(), None);
    let reset = a.lifecycle().iter().find(|l| l["call"] == "reset").unwrap();
    assert_eq!(reset["reply"]["method"], "reload");
    let s = a.state();
    assert_eq!(s.status, Status::Ready);
    assert_eq!(s.game_state["score"], 0);
    assert_eq!(s.seed, page_seed(11, 1));
    assert_eq!(a.lifecycle().last().unwrap()["call"], "init");
    // The new episode is playable.
    hold(&mut a, "ArrowRight", 200);
    assert_eq!(a.state().status, Status::Playing);
}

#[test]
fn clicks_pop_orbs() {
    let Some(mut g) = open("", 5) else { return };
    hold(&mut g, "ArrowLeft", 100);
    g.advance(1200);
    let s = g.state();
    let orb = &s.game_state["entities"][0];
    let (x, y) = (
        orb["x"].as_f64().unwrap() as f32,
        orb["y"].as_f64().unwrap() as f32,
    );
    g.handle_event(&InputEvent::MouseMove { x, y });
    g.handle_event(&InputEvent::MouseDown {
        x,
        y,
        button: MouseButton::Left,
    });
    g.handle_event(&InputEvent::MouseUp {
        x,
        y,
        button: MouseButton::Left,
    });
    let s = g.state();
    assert_eq!(s.metrics["popped"], 1, "{:?}", s.metrics);
    assert_eq!(s.game_state["score"], 1);
}

#[test]
fn readiness_gate_names_game_and_last_status() {
    let Some(c) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<script>window.gameAPI = { getState() { return { status: 'menu', terminal: {isTerminal: false} }; }, async init() { return {ok: true}; } };</script>",
    )
    .unwrap();
    let mut spec = BrowserSpec::new(
        "stuck_menu",
        Source::Folder(dir.path().into()),
        "",
        (320, 240),
    );
    spec.ready_timeout = Duration::from_secs(2);
    let mut g = BrowserGame::open_in(c.clone(), spec).unwrap();
    g.init(&GameConfig::default());
    let f = g.fault().expect("the gate times out");
    assert!(f.contains("stuck_menu") && f.contains("status menu"), "{f}");

    let empty = tempfile::tempdir().unwrap();
    std::fs::write(empty.path().join("index.html"), "<p>no api</p>").unwrap();
    let mut spec = BrowserSpec::new(
        "no_api",
        Source::Folder(empty.path().into()),
        "",
        (320, 240),
    );
    spec.ready_timeout = Duration::from_secs(2);
    let mut g = BrowserGame::open_in(c, spec).unwrap();
    g.init(&GameConfig::default());
    let f = g.fault().expect("no gameAPI");
    assert!(
        f.contains("no_api") && f.contains("gameAPI did not appear"),
        "{f}"
    );
}
