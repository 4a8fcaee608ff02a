//! The web app end to end: its HTTP API on 127.0.0.1, and the page itself
//! driven by headless Chromium through real key and mouse events (skipped
//! with a note when Chromium is not installed; CI installs it).

#[path = "../../gw-runtime/tests/support/loopback.rs"]
mod loopback;

use gw_core::registry::Registry;
use gw_runtime::{RunOptions, run_preset};
use loopback::{Scripted, Server, openai_text};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn project_registry() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

/// The project's registry plus one loopback model profile (qwen text
/// protocol, no key).
fn registry_with_model(dir: &Path, base_url: &str) -> Registry {
    let root = dir.join("extra");
    std::fs::create_dir_all(root.join("models")).unwrap();
    std::fs::write(
        root.join("models/loop-qwen.yaml"),
        format!(
            "id: loop-qwen\nprovider: openai\nprotocol: qwen\nmodel: test-model\nbase_url: {base_url}\n\
             memory_rounds: 2\nmax_tokens: 256\ntimeout_s: 10\nmax_retries: 0\nretry_backoff_s: 0.01\n"
        ),
    )
    .unwrap();
    Registry::load(&[project_registry(), root]).unwrap_or_else(|e| panic!("{e}"))
}

/// Serve the app on a free loopback port in a background thread.
fn start_server(registry: Registry, runs: &Path) -> String {
    let state = Arc::new(gw_web::AppState::new(registry, &[runs.to_path_buf()]).unwrap());
    start_state(state)
}

/// Serve a prepared state (e.g. with a short idle limit).
fn start_state(state: Arc<gw_web::AppState>) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, gw_web::router(state)).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn http() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn get(url: &str) -> (u16, Value) {
    let mut resp = http().get(url).call().unwrap();
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn post(url: &str, body: Value) -> (u16, Value) {
    let mut resp = http()
        .post(url)
        .header("content-type", "application/json")
        .send(body.to_string())
        .unwrap();
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const KEYS: [&str; 4] = ["ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight"];

/// Play 01_2048+01_01 through the API with the key cycle until the run ends.
fn play_by_api(base: &str, seed: u64, name: &str) -> (Value, usize) {
    let (status, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "01_2048+01_01", "seed": seed, "name": name}),
    );
    assert_eq!(status, 200, "{p}");
    let id = p["id"].as_str().unwrap().to_string();
    let mut presses = 0;
    loop {
        let (status, v) = post(
            &format!("{base}/api/play/{id}/input"),
            json!({"action": {"action": "press_key", "key": KEYS[presses % 4]}}),
        );
        assert_eq!(status, 200, "{v}");
        presses += 1;
        if v["done"] == json!(true) {
            return (v, presses);
        }
        assert!(presses <= 100, "the step budget is 100");
    }
}

#[test]
fn api_plays_write_run_directories_and_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let registry = Registry::load(&[project_registry()]).unwrap();
    let base = start_server(registry, &runs);

    // A play in step mode reaches the task's outcome and leaves a run
    // directory like any agent's.
    let (v, presses) = play_by_api(&base, 5, "api");
    let result = &v["result"];
    assert_eq!(result["model"], "human-api");
    assert_eq!(result["preset"], "01_2048+01_01+human-api");
    assert_eq!(result["steps"].as_u64().unwrap() as usize, presses);
    let run_dir = runs.join(v["run_dir"].as_str().unwrap());
    let traj = jsonl(&run_dir.join("trajectory.jsonl"));
    assert_eq!(traj.len(), presses);
    assert_eq!(traj[0]["action"]["key"], "ArrowUp");
    assert!(run_dir.join("frames/step_000000.png").is_file());
    assert_eq!(
        serde_json::from_slice::<Value>(&std::fs::read(run_dir.join("result.json")).unwrap())
            .unwrap(),
        *result
    );
    // Same seed, same inputs: same play.
    let (v2, presses2) = play_by_api(&base, 5, "api");
    assert_eq!(presses2, presses);
    assert_eq!(v2["result"]["best_score"], result["best_score"]);
    assert_eq!(v2["result"]["success"], result["success"]);

    // Inputs go through the action layer: a key outside the role's controls
    // is out of the action space; a non-object is refused at the door.
    let (_, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "01_2048+01_02", "seed": 1}),
    );
    let id = p["id"].as_str().unwrap();
    let (_, v) = post(
        &format!("{base}/api/play/{id}/input"),
        json!({"action": {"action": "press_key", "key": "q"}}),
    );
    assert_eq!(v["last_valid"], false);
    assert!(
        v["last_note"].as_str().unwrap().contains("not allowed"),
        "{v}"
    );
    let (status, v) = post(
        &format!("{base}/api/play/{id}/input"),
        json!({"action": "up"}),
    );
    assert_eq!(status, 400, "{v}");
    let (status, v) = post(&format!("{base}/api/play/{id}/watch"), json!({}));
    assert_eq!(status, 400, "step mode has no watch ticks: {v}");
    let (status, _) = post(
        &format!("{base}/api/play"),
        json!({"preset": "01_2048+99_99", "seed": 1}),
    );
    assert_eq!(status, 400);
    let (status, _) = post(
        &format!("{base}/api/play"),
        json!({"preset": "01_2048+01_01", "name": "../../etc"}),
    );
    assert_eq!(status, 400);

    // Path traversal is refused everywhere a path is taken.
    std::fs::write(dir.path().join("secret.txt"), "top secret").unwrap();
    for url in [
        "/api/run?root=0&path=../secret.txt",
        "/api/run?root=0&path=%2E%2E/%2E%2E/etc",
        "/api/run/frame?root=0&path=..&name=step_000000.png",
        "/api/run/clip.gif?root=0&path=../",
        "/api/suite?root=0&path=../..",
        "/report/..%2Fsecret.txt",
        "/report/../secret.txt",
        "/api/run?root=7&path=x",
    ] {
        let mut resp = http().get(&format!("{base}{url}")).call().unwrap();
        let status = resp.status().as_u16();
        let body = resp.body_mut().read_to_string().unwrap_or_default();
        assert!((400..500).contains(&status), "{url}: {status}");
        assert!(!body.contains("top secret"), "{url}");
    }
    let (status, v) = get(&format!(
        "{base}/api/run/frame?root=0&path=x&name=..%2Fresult.json"
    ));
    assert_eq!(status, 400, "{v}");

    // The listing shows the plays; the clip is a GIF of every frame.
    let (_, list) = get(&format!("{base}/api/runs"));
    let rows = list["runs"].as_array().unwrap();
    assert!(rows.iter().filter(|r| r["model"] == "human-api").count() >= 2);
    let rel = run_dir
        .strip_prefix(&runs)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mut resp = http()
        .get(&format!(
            "{base}/api/run/clip.gif?root=0&path={}",
            rel.replace('+', "%2B")
        ))
        .call()
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let gif = resp.body_mut().read_to_vec().unwrap();
    assert_eq!(&gif[..6], b"GIF89a");
    let mut decoder = gif::DecodeOptions::new().read_info(&gif[..]).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, presses + 1, "one GIF frame per step plus the first");
}

#[test]
fn realtime_plays_let_the_game_run_between_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let base = start_server(Registry::load(&[project_registry()]).unwrap(), &runs);
    let (_, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "13_flappy-bird+13_01", "seed": 2, "mode": "realtime"}),
    );
    let id = p["id"].as_str().unwrap().to_string();
    let t0 = p["seq"].as_u64().unwrap();
    // The clock starts with the first watch tick (the page sends it when its
    // countdown ends); the wait before it is not game time.
    std::thread::sleep(Duration::from_millis(200));
    let (status, v) = post(&format!("{base}/api/play/{id}/watch"), json!({}));
    assert_eq!(status, 200, "{v}");
    std::thread::sleep(Duration::from_millis(300));
    let (status, v) = post(&format!("{base}/api/play/{id}/watch"), json!({}));
    assert_eq!(status, 200, "{v}");
    assert!(
        v["seq"].as_u64().unwrap() > t0,
        "a watch tick shows a new frame"
    );
    assert_eq!(v["steps_done"], 0, "watching spends no step");
    let (_, v) = post(
        &format!("{base}/api/play/{id}/input"),
        json!({"action": {"action": "press_key", "key": "Space"}}),
    );
    assert_eq!(v["steps_done"], 1);
    // The page keeps sending watch ticks while the player quits: the quit is
    // answered with the ended play, not with whichever frame came first.
    let ticking = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let ticker = {
        let (ticking, url) = (ticking.clone(), format!("{base}/api/play/{id}/watch"));
        std::thread::spawn(move || {
            while ticking.load(std::sync::atomic::Ordering::Relaxed) {
                post(&url, json!({}));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(100));
    let (_, v) = http_delete(&format!("{base}/api/play/{id}"));
    ticking.store(false, std::sync::atomic::Ordering::Relaxed);
    ticker.join().unwrap();
    assert_eq!(v["done"], true, "{v}");
    assert_eq!(v["result"]["stop_reason"], "player_quit", "{v}");
    let run_dir = runs.join(v["run_dir"].as_str().unwrap());
    let traj = jsonl(&run_dir.join("trajectory.jsonl"));
    assert_eq!(traj.len(), 1);
    // The bird fell while the player watched: the game clock ran about
    // 300 ms before the flap.
    let t = traj[0]["game_time_ms"].as_u64().unwrap();
    assert!(t >= 300, "game time {t} ms");
    let result = &v["result"];
    assert_eq!(result["realtime"], true);
    assert_eq!(result["steps"], 1);
}

fn http_delete(url: &str) -> (u16, Value) {
    let mut resp = http().delete(url).call().unwrap();
    let status = resp.status().as_u16();
    let text = resp.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A recorded model run (qwen text protocol on a loopback server): steps
/// with reasoning, a malformed reply, and its model calls.
fn record_model_run(runs: &Path, registry: &Registry) {
    let mut opts = RunOptions::new("01_2048+01_01+loop-qwen", 3, runs.join("model-run"));
    opts.max_steps = Some(4);
    run_preset(registry, &opts).unwrap();
}

fn model_script() -> Vec<Scripted> {
    let u = (900, 40);
    vec![
        openai_text(
            "<think>merge the twos upward first</think><tool_call>{\"name\": \"move_up\", \"arguments\": {}}</tool_call>",
            u,
        ),
        openai_text("I am not sure what to do.", u),
        openai_text(
            "<think>left keeps the corner</think><tool_call>{\"name\": \"move_left\", \"arguments\": {}}</tool_call>",
            u,
        ),
        openai_text(
            "<tool_call>{\"name\": \"move_down\", \"arguments\": {}}</tool_call>",
            u,
        ),
    ]
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    path.is_file().then_some(path)
}

#[test]
fn the_page_in_headless_chromium() {
    let Some(chrome) = chromium() else {
        eprintln!(
            "note: chromium not installed (apt-get install chromium); the browser test is skipped"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let model_server = Server::start(model_script());
    let registry = registry_with_model(dir.path(), &format!("{}/v1", model_server.base()));
    record_model_run(&runs, &registry);
    model_server.finish();
    // What the key cycle gives on seed 5, played through the API first.
    let base = start_server(registry.clone(), &runs);
    let (expected, presses) = play_by_api(&base, 5, "api");

    // A suite whose model answers slowly, for the dashboard.
    let slow = Server::start(
        (0..6)
            .map(|_| {
                openai_text(
                    "<tool_call>{\"name\": \"move_up\", \"arguments\": {}}</tool_call>",
                    (10, 5),
                )
                .delayed(Duration::from_millis(250))
            })
            .collect(),
    );
    let suite_registry =
        registry_with_model(&dir.path().join("slow"), &format!("{}/v1", slow.base()));

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use chromiumoxide::{Browser, BrowserConfig};
        use futures_util::StreamExt;
        let config = BrowserConfig::builder()
            .chrome_executable(&chrome)
            .no_sandbox()
            .user_data_dir(dir.path().join("profile"))
            .window_size(1400, 1000)
            .args([
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ])
            .build()
            .unwrap();
        let (mut browser, mut handler) = Browser::launch(config).await.expect("chromium starts");
        let events = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let page = browser.new_page("about:blank").await.unwrap();
        let eval = |js: String| {
            let page = page.clone();
            async move {
                page.evaluate(js)
                    .await
                    .ok()
                    .and_then(|r| r.into_value::<Value>().ok())
                    .unwrap_or(Value::Null)
            }
        };
        let wait_for = |js: String, what: &'static str| {
            async move {
                let t0 = Instant::now();
                loop {
                    let v = eval(js.clone()).await;
                    if v != Value::Null && v != json!(false) && v != json!("") {
                        return v;
                    }
                    assert!(t0.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        };

        // ---- Play in step mode with real key events.
        page.goto(format!("{base}/#/play")).await.unwrap();
        wait_for("document.querySelectorAll('#game option').length > 0".into(), "the task list").await;
        eval(
            "(() => { const g = document.getElementById('game'); g.value = '01_2048'; g.dispatchEvent(new Event('change'));
              document.getElementById('task').value = '01_01'; document.getElementById('seed').value = '5';
              document.getElementById('player').value = 'tester'; return true; })()"
                .into(),
        )
        .await;
        page.find_element("#start").await.unwrap().click().await.unwrap();
        wait_for("document.getElementById('play-status') && document.getElementById('play-status').textContent".into(), "the play page").await;
        let body = page.find_element("body").await.unwrap();
        for i in 0..presses {
            body.press_key(KEYS[i % 4]).await.unwrap();
            let want = format!("step {} /", i + 1);
            wait_for(
                format!("document.getElementById('play-status').textContent.startsWith({want:?}) || document.getElementById('play-outcome')"),
                "the step to be played",
            )
            .await;
        }
        let outcome = wait_for("document.getElementById('play-outcome') && document.getElementById('play-outcome').textContent".into(), "the outcome").await;
        let solved = expected["result"]["success"] == json!(true);
        assert_eq!(outcome.as_str().unwrap().starts_with("Task solved"), solved, "{outcome}");
        let natural = eval("document.getElementById('play-frame').naturalWidth".into()).await;
        assert_eq!(natural, json!(1280), "the frame is the game's viewport");
        let rel = eval("new URLSearchParams(document.getElementById('open-run').getAttribute('href').split('?')[1]).get('path')".into()).await;
        let rel = rel.as_str().expect("the outcome links to the run").to_string();
        assert!(rel.starts_with("plays/01_2048+01_01+human-tester/"), "{rel}");
        let run_dir = runs.join(&rel);
        let result: Value = serde_json::from_slice(&std::fs::read(run_dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(result["model"], "human-tester");
        assert_eq!(result["steps"].as_u64().unwrap() as usize, presses);
        assert_eq!(result["valid_actions"], result["steps"]);
        assert_eq!(result["best_score"], expected["result"]["best_score"]);
        assert_eq!(result["success"], expected["result"]["success"]);
        let keys: Vec<Value> = jsonl(&run_dir.join("trajectory.jsonl")).iter().map(|l| l["action"]["key"].clone()).collect();
        let want: Vec<Value> = (0..presses).map(|i| json!(KEYS[i % 4])).collect();
        assert_eq!(keys, want, "the keys pressed in the page are the run's actions");

        // ---- The viewer on the recorded model run.
        eval("(() => { location.hash = '#/run?root=0&path=model-run'; return true; })()".into()).await;
        let label = wait_for("document.getElementById('step-label') && document.getElementById('step-label').textContent".into(), "the viewer").await;
        assert_eq!(label, json!("before step 1 of 4"));
        let (_, recorded) = get(&format!("{base}/api/run?root=0&path=model-run"));
        assert_eq!(recorded["steps"].as_array().unwrap().len(), 4);
        let reasoning = eval("document.getElementById('step-reasoning') ? document.getElementById('step-reasoning').textContent : document.getElementById('step-detail').textContent".into()).await;
        assert!(reasoning.as_str().unwrap().contains("merge the twos upward"), "{reasoning}");
        let action = eval("document.getElementById('step-action').textContent".into()).await;
        assert!(action.as_str().unwrap().contains("ArrowUp"), "{action}");
        wait_for("document.getElementById('run-frame').naturalWidth === 1280".into(), "the frame").await;
        body.press_key("ArrowRight").await.unwrap();
        let label = wait_for("document.getElementById('step-label').textContent.includes('step 2') && document.getElementById('step-detail').textContent".into(), "step 2").await;
        assert!(label.as_str().unwrap().contains("NTC"), "the malformed reply shows as NTC: {label}");
        body.press_key("End").await.unwrap();
        let label = eval("document.getElementById('step-label').textContent".into()).await;
        assert_eq!(label, json!("after the last step (4)"));
        let summary = eval("document.getElementById('run-summary').textContent".into()).await;
        assert!(summary.as_str().unwrap().contains("NTC 1"), "{summary}");

        // ---- The dashboard follows a suite while it runs.
        let suite_out = runs.join("suite-live");
        let spec: gw_runtime::suite::SuiteSpec = serde_json::from_value(json!({
            "name": "live", "cases": [{"games": ["01_2048"], "tasks": ["01_01"], "models": ["loop-qwen"]}],
            "seeds": [1, 2], "max_steps": 3
        }))
        .unwrap();
        let out2 = suite_out.clone();
        let suite = std::thread::spawn(move || {
            gw_runtime::suite::run_suite(
                &spec,
                &suite_registry,
                &gw_runtime::suite::SuiteOptions { out: out2, max_parallel: 1, resume: false, shard: None, plain: true },
            )
        });
        let t0 = Instant::now();
        while !suite_out.join("suite.json").is_file() {
            assert!(t0.elapsed() < Duration::from_secs(20), "the suite did not start");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        eval("(() => { location.hash = '#/suite?root=0&path=suite-live'; return true; })()".into()).await;
        let mut seen = std::collections::BTreeSet::new();
        let t0 = Instant::now();
        loop {
            let head = eval("document.getElementById('suite-head') ? document.getElementById('suite-head').textContent : ''".into()).await;
            if let Some(h) = head.as_str().filter(|h| h.contains("done")) {
                seen.insert(h.split(" · SR").next().unwrap().to_string());
                if h.contains("complete") {
                    break;
                }
            }
            assert!(t0.elapsed() < Duration::from_secs(40), "the dashboard never showed the end: {seen:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(seen.len() >= 2, "the dashboard updated while the suite ran: {seen:?}");
        assert!(seen.iter().any(|h| h.contains("2/2 done")), "{seen:?}");
        suite.join().unwrap().unwrap();

        browser.close().await.unwrap();
        let _ = browser.wait().await;
        events.abort();
    });
    slow.finish();
}

/// GET with a time limit, so a request the server never answers fails the
/// test instead of hanging it.
fn get_within(url: &str, limit: Duration) -> Result<(u16, String), String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(limit))
        .build()
        .into();
    let mut resp = agent.get(url).call().map_err(|e| format!("{url}: {e}"))?;
    let status = resp.status().as_u16();
    Ok((status, resp.body_mut().read_to_string().unwrap_or_default()))
}

#[test]
fn hostile_files_under_the_runs_root_get_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    std::fs::create_dir_all(runs.join("odd/frames")).unwrap();
    // A run whose trajectory holds JSON that is not an object.
    std::fs::write(
        runs.join("odd/trajectory.jsonl"),
        "[1, 2]\n7\n{\"step\": 1, \"action\": null}\n",
    )
    .unwrap();
    // A suite manifest naming run folders outside the suite's folder.
    std::fs::create_dir_all(dir.path().join("outside/r")).unwrap();
    std::fs::write(
        dir.path().join("outside/r/error.json"),
        r#"{"error": "private text from outside"}"#,
    )
    .unwrap();
    std::fs::create_dir_all(runs.join("s")).unwrap();
    let outside_abs = dir.path().join("outside/r");
    std::fs::write(
        runs.join("s/suite.json"),
        json!({"suite": {"name": "s"}, "runs": [
            {"dir": "../../outside/r", "preset": "a"},
            {"dir": outside_abs.to_string_lossy(), "preset": "b"},
        ]})
        .to_string(),
    )
    .unwrap();
    let base = start_server(Registry::load(&[project_registry()]).unwrap(), &runs);

    let (status, body) =
        get_within(&format!("{base}/api/run?path=odd"), Duration::from_secs(20)).unwrap();
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["steps"].as_array().unwrap().len(), 1, "{v}");

    let (status, body) =
        get_within(&format!("{base}/api/suite?path=s"), Duration::from_secs(20)).unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(!body.contains("private text"), "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["failed"], 2, "{v}");
    assert!(
        v["runs"][0]["error"]
            .as_str()
            .unwrap()
            .contains("outside the suite's folder"),
        "{v}"
    );

    // A FIFO where a file is expected is refused, not read (a read would
    // block until something writes to it).
    #[cfg(unix)]
    {
        for fifo in ["runs/report.json", "runs/odd/frames/step_000001.png"] {
            let path = dir.path().join(fifo);
            let ok = std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            assert!(ok, "mkfifo {fifo}");
        }
        for url in [
            "/report/report.json",
            "/api/run/frame?path=odd&name=step_000001.png",
            "/api/run/clip.gif?path=odd",
        ] {
            let (status, body) =
                get_within(&format!("{base}{url}"), Duration::from_secs(20)).unwrap();
            assert!((400..500).contains(&status), "{url}: {status} {body}");
        }
    }
}

#[test]
fn plays_refuse_realtime_cooperative_games_and_never_share_a_run_directory() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let base = start_server(Registry::load(&[project_registry()]).unwrap(), &runs);
    let (status, v) = post(
        &format!("{base}/api/play"),
        json!({"preset": "12_fireboy-and-watergirl+12_01", "mode": "realtime"}),
    );
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("step mode"), "{v}");

    // Plays of the same task and seed started together each get their own
    // run directory.
    let starts: Vec<_> = (0..4)
        .map(|_| {
            let url = format!("{base}/api/play");
            std::thread::spawn(move || post(&url, json!({"preset": "01_2048+01_01", "seed": 9})))
        })
        .collect();
    let mut dirs = std::collections::BTreeSet::new();
    for s in starts {
        let (status, v) = s.join().unwrap();
        assert_eq!(status, 200, "{v}");
        dirs.insert(v["run_dir"].as_str().unwrap().to_string());
        let (status, _) = http_delete(&format!("{base}/api/play/{}", v["id"].as_str().unwrap()));
        assert_eq!(status, 200);
    }
    assert_eq!(dirs.len(), 4, "{dirs:?}");
}

#[test]
fn malformed_requests_get_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let base = start_server(
        Registry::load(&[project_registry()]).unwrap(),
        &dir.path().join("runs"),
    );
    let agent = http();
    let cases: Vec<(u16, ureq::http::Response<ureq::Body>, &str)> = vec![
        (
            415,
            agent.post(&format!("{base}/api/play")).send("{}").unwrap(),
            "Content-Type",
        ),
        (
            422,
            agent
                .post(&format!("{base}/api/play"))
                .header("content-type", "application/json")
                .send("{\"preset\": 5}")
                .unwrap(),
            "preset",
        ),
        (
            400,
            agent
                .post(&format!("{base}/api/play"))
                .header("content-type", "application/json")
                .send("{\"preset\": ")
                .unwrap(),
            "JSON",
        ),
        (
            413,
            agent
                .post(&format!("{base}/api/play"))
                .header("content-type", "application/json")
                .send(vec![b' '; 70_000])
                .unwrap(),
            "limit",
        ),
        (
            400,
            agent
                .get(&format!("{base}/api/run?root=-1&path=x"))
                .call()
                .unwrap(),
            "root",
        ),
        (
            405,
            agent.put(&format!("{base}/api/play")).send("").unwrap(),
            "method not allowed",
        ),
        (
            404,
            agent.get(&format!("{base}/api/nothing")).call().unwrap(),
            "no such",
        ),
    ];
    for (want, mut resp, text) in cases {
        let status = resp.status().as_u16();
        let body = resp.body_mut().read_to_string().unwrap_or_default();
        assert_eq!(status, want, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(v["error"].as_str().unwrap().contains(text), "{want}: {v}");
    }
}

#[test]
fn at_most_sixteen_plays_run_at_once_even_when_started_together() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let base = start_server(Registry::load(&[project_registry()]).unwrap(), &runs);
    let starts: Vec<_> = (0..20)
        .map(|seed| {
            let url = format!("{base}/api/play");
            std::thread::spawn(move || post(&url, json!({"preset": "01_2048+01_01", "seed": seed})))
        })
        .collect();
    let answers: Vec<(u16, Value)> = starts.into_iter().map(|s| s.join().unwrap()).collect();
    let started: Vec<&Value> = answers
        .iter()
        .filter(|(s, _)| *s == 200)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(started.len(), 16, "{answers:?}");
    assert!(
        answers.iter().all(|(s, _)| *s == 200 || *s == 429),
        "{answers:?}"
    );
    // A refused play leaves no run directory behind.
    let dirs = std::fs::read_dir(runs.join("plays/01_2048+01_01+human"))
        .unwrap()
        .count();
    assert_eq!(dirs, 16);
    for v in started {
        http_delete(&format!("{base}/api/play/{}", v["id"].as_str().unwrap()));
    }
}

/// Wait until a play's result is on disk and return it.
fn wait_result(base: &str, id: &str) -> Value {
    let t0 = Instant::now();
    loop {
        let (_, v) = get(&format!("{base}/api/play/{id}"));
        if v["done"] == json!(true) {
            return v;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the play never ended: {v}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn plays_end_as_quit_or_left_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let registry = Registry::load(&[project_registry()]).unwrap();
    let state =
        Arc::new(gw_web::AppState::new(registry.clone(), std::slice::from_ref(&runs)).unwrap());
    state.plays.set_idle_limit(Duration::from_millis(1500));
    let base = start_state(state);
    let start = |mode: &str| {
        let (status, p) = post(
            &format!("{base}/api/play"),
            json!({"preset": "01_2048+01_01", "seed": 3, "mode": mode}),
        );
        assert_eq!(status, 200, "{p}");
        p["id"].as_str().unwrap().to_string()
    };
    let press = |id: &str, key: &str| {
        let (status, v) = post(
            &format!("{base}/api/play/{id}/input"),
            json!({"action": {"action": "press_key", "key": key}}),
        );
        assert_eq!(status, 200, "{v}");
        v
    };

    // Quit: recorded as player_quit, the steps played kept.
    let id = start("step");
    press(&id, "ArrowUp");
    press(&id, "ArrowLeft");
    let (_, v) = http_delete(&format!("{base}/api/play/{id}"));
    assert_eq!(v["result"]["stop_reason"], "player_quit", "{v}");
    assert_eq!(v["result"]["steps"], 2);
    assert!(v["error"].is_null(), "quitting is not an error: {v}");
    let quit_dir = runs.join(v["run_dir"].as_str().unwrap());
    assert_eq!(
        gw_runtime::verify::verify_run(&registry, &quit_dir),
        gw_runtime::verify::Verdict::Verified { steps: 2 }
    );

    // The page closed (its pagehide beacon): player_left at once.
    let id = start("step");
    press(&id, "ArrowDown");
    let mut resp = http()
        .post(&format!("{base}/api/play/{id}/leave"))
        .send("")
        .unwrap();
    assert_eq!(resp.status().as_u16(), 204);
    let _ = resp.body_mut().read_to_string();
    let v = wait_result(&base, &id);
    assert_eq!(v["result"]["stop_reason"], "player_left", "{v}");
    assert_eq!(v["result"]["steps"], 1);

    // Nobody came back: the idle limit ends the play as player_left.
    let id = start("step");
    press(&id, "ArrowRight");
    let v = wait_result(&base, &id);
    assert_eq!(v["result"]["stop_reason"], "player_left", "{v}");
    let left_dir = runs.join(v["run_dir"].as_str().unwrap());
    assert!(gw_runtime::verify::verify_run(&registry, &left_dir).is_verified());

    // The runs list: game, task, outcome for every run, a run that never
    // started (error.json only) listed as an error.
    std::fs::create_dir_all(runs.join("broken")).unwrap();
    std::fs::write(
        runs.join("broken/error.json"),
        json!({"preset": "05_breakout+05_01+x", "game_id": "05_breakout", "task_id": "05_01", "model": "x", "seed": 4, "error": "no key"}).to_string(),
    )
    .unwrap();
    let (_, list) = get(&format!("{base}/api/runs"));
    let rows = list["runs"].as_array().unwrap();
    let broken = rows
        .iter()
        .find(|r| r["path"] == "broken")
        .expect("error row listed");
    assert_eq!(broken["outcome"], "error");
    assert_eq!(broken["game_id"], "05_breakout");
    let quit = rows
        .iter()
        .find(|r| r["stop_reason"] == "player_quit")
        .unwrap();
    assert_eq!(
        (quit["game_id"].as_str(), quit["task_id"].as_str()),
        (Some("01_2048"), Some("01_01"))
    );
    assert_eq!(quit["outcome"], "fail");
}

#[test]
fn realtime_plays_start_on_the_first_input() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let base = start_server(Registry::load(&[project_registry()]).unwrap(), &runs);
    let (_, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "13_flappy-bird+13_01", "seed": 2, "mode": "realtime"}),
    );
    let id = p["id"].as_str().unwrap().to_string();
    // A page that loads slowly: the bird must not fall meanwhile.
    std::thread::sleep(Duration::from_millis(700));
    let (_, v) = post(
        &format!("{base}/api/play/{id}/input"),
        json!({"action": {"action": "press_key", "key": "Space"}}),
    );
    assert_eq!(v["steps_done"], 1, "{v}");
    let (_, v) = http_delete(&format!("{base}/api/play/{id}"));
    let traj = jsonl(
        &runs
            .join(v["run_dir"].as_str().unwrap())
            .join("trajectory.jsonl"),
    );
    let idle: u64 = traj[0]["idle_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert!(
        idle < 700,
        "the 700 ms before the first input were not game time (idle {idle} ms)"
    );
}

#[test]
fn a_person_plays_one_role_of_the_cooperative_game_with_an_agent() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let registry = Registry::load(&[project_registry()]).unwrap();
    let base = start_server(registry.clone(), &runs);
    let (_, tasks) = get(&format!("{base}/api/tasks"));
    let coop = tasks
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["game_id"] == "12_fireboy-and-watergirl")
        .unwrap();
    assert_eq!(coop["cooperative"], true);
    assert_eq!(coop["roles"], json!(["watergirl", "fireboy"]));
    let (_, agents) = get(&format!("{base}/api/agents"));
    assert!(
        agents["builtin"]
            .as_array()
            .unwrap()
            .contains(&json!("scripted"))
    );

    for (body, why) in [
        (
            json!({"preset": "12_fireboy-and-watergirl+12_01", "role": "luigi"}),
            "not one of",
        ),
        (
            json!({"preset": "12_fireboy-and-watergirl+12_01", "partner": "nobody"}),
            "unknown partner",
        ),
        (
            json!({"preset": "12_fireboy-and-watergirl+12_01", "partner": "human"}),
            "partner is an agent",
        ),
    ] {
        let (status, v) = post(&format!("{base}/api/play"), body);
        assert_eq!(status, 400, "{v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{v}");
    }

    let (status, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "12_fireboy-and-watergirl+12_01", "seed": 1, "name": "ann", "role": "fireboy", "partner": "scripted"}),
    );
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["controls"]["role"], "fireboy");
    assert_eq!(
        p["preset"],
        "12_fireboy-and-watergirl+12_01+scripted,human-ann"
    );
    // Fireboy's keys, not Watergirl's.
    assert!(
        p["controls"]["keys"]
            .as_array()
            .unwrap()
            .contains(&json!("ArrowUp"))
    );
    let id = p["id"].as_str().unwrap().to_string();
    for key in ["ArrowRight", "ArrowRight", "ArrowUp"] {
        let (status, v) = post(
            &format!("{base}/api/play/{id}/input"),
            json!({"action": {"action": "press_key", "key": key}}),
        );
        assert_eq!(status, 200, "{v}");
    }
    let (_, v) = http_delete(&format!("{base}/api/play/{id}"));
    let r = &v["result"];
    assert_eq!(r["steps"], 3, "{v}");
    assert_eq!(r["model"], "scripted,human-ann");
    let run_dir = runs.join(v["run_dir"].as_str().unwrap());
    let traj = jsonl(&run_dir.join("trajectory.jsonl"));
    assert_eq!(traj[0]["action"]["fireboy"]["key"], "ArrowRight");
    assert!(
        !traj[0]["action"]["watergirl"].is_null(),
        "the partner acted too"
    );
    assert!(gw_runtime::verify::verify_run(&registry, &run_dir).is_verified());
}

/// Write a run folder by hand for the list (the list reads result.json only).
fn fake_run(
    dir: &Path,
    game: &str,
    task: &str,
    model: &str,
    seed: u64,
    success: bool,
    progress: f64,
) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("result.json"),
        json!({"preset": format!("{game}+{task}+{model}"), "game_id": game, "task_id": task, "model": model,
               "seed": seed, "success": success, "progress": progress, "steps": 10,
               "stop_reason": if success { "target_reached" } else { "max_steps_exhausted" }})
        .to_string(),
    )
    .unwrap();
}

#[test]
fn pages_at_1400_px_keep_panels_beside_the_frame_and_page_the_runs() {
    let Some(chrome) = chromium() else {
        eprintln!(
            "note: chromium not installed (apt-get install chromium); the layout test is skipped"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs");
    let registry = Registry::load(&[project_registry()]).unwrap();
    // A real run with frames, one without, 120 listed runs, a suite with its report.
    let framed = runs.join("framed");
    run_preset(
        &registry,
        &RunOptions {
            max_steps: Some(3),
            ..RunOptions::new("23_pacman+23_01+scripted", 1, &framed)
        },
    )
    .unwrap();
    let bare = runs.join("bare");
    run_preset(
        &registry,
        &RunOptions {
            max_steps: Some(4),
            frames: false,
            ..RunOptions::new("05_breakout+05_01+noop", 1, &bare)
        },
    )
    .unwrap();
    for i in 0..117u64 {
        let game = ["01_2048", "05_breakout", "29_tetris"][i as usize % 3];
        let task = format!("{}_0{}", &game[..2], 1 + i % 5);
        fake_run(
            &runs.join(format!("many/{game}+{task}/seed-{i}")),
            game,
            &task,
            "random",
            i,
            i % 4 == 0,
            (i % 10) as f64 / 10.0,
        );
    }
    std::fs::create_dir_all(runs.join("many/running-one")).unwrap();
    std::fs::write(runs.join("many/running-one/trajectory.jsonl"), "").unwrap();
    std::fs::create_dir_all(runs.join("suite-done")).unwrap();
    std::fs::write(
        runs.join("suite-done/suite.json"),
        json!({"suite": {"name": "done"}, "planned_runs": 0, "runs": []}).to_string(),
    )
    .unwrap();
    std::fs::write(
        runs.join("suite-done/report.html"),
        "<html><body>report</body></html>",
    )
    .unwrap();
    let base = start_server(registry, &runs);
    let (_, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "23_pacman+23_01", "seed": 1}),
    );
    let step_play = p["id"].as_str().unwrap().to_string();
    let (_, p) = post(
        &format!("{base}/api/play"),
        json!({"preset": "13_flappy-bird+13_01", "seed": 1, "mode": "realtime"}),
    );
    let rt_play = p["id"].as_str().unwrap().to_string();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use chromiumoxide::{Browser, BrowserConfig};
        use futures_util::StreamExt;
        let config = BrowserConfig::builder()
            .chrome_executable(&chrome)
            .no_sandbox()
            .user_data_dir(dir.path().join("profile"))
            .window_size(1400, 1000)
            // The window's own size, not chromiumoxide's 800 × 600 emulation.
            .viewport(None)
            .args(["--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"])
            .build()
            .unwrap();
        let (mut browser, mut handler) = Browser::launch(config).await.expect("chromium starts");
        let events = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let page = browser.new_page("about:blank").await.unwrap();
        let eval = |js: String| {
            let page = page.clone();
            async move { page.evaluate(js).await.ok().and_then(|r| r.into_value::<Value>().ok()).unwrap_or(Value::Null) }
        };
        let wait_for = |js: String, what: &'static str| async move {
            let t0 = Instant::now();
            loop {
                let v = eval(js.clone()).await;
                if v != Value::Null && v != json!(false) && v != json!("") {
                    return v;
                }
                assert!(t0.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        // Whether `side` sits to the right of `frame`, their tops level.
        let beside = |frame: &str, side: &str| format!(
            "(() => {{ const f = document.querySelector('{frame}'), s = document.querySelector('{side}');
               if (!f || !s || !f.getBoundingClientRect().width) return null;
               const a = f.getBoundingClientRect(), b = s.getBoundingClientRect();
               return {{ beside: b.left >= a.right - 1 && Math.abs(b.top - a.top) < 40, frame_w: a.width, inner: window.innerWidth }}; }})()");

        // Play page, step mode: the side panel beside a 960-px frame; a favicon.
        page.goto(format!("{base}/#/play/{step_play}")).await.unwrap();
        let v = wait_for(beside("#play-frame", "#play-side"), "the play page").await;
        assert_eq!(v["inner"], 1400, "{v}");
        assert_eq!(v["beside"], true, "{v}");
        assert!(v["frame_w"].as_f64().unwrap() >= 900.0, "{v}");
        // A step-mode play has no countdown, and no overlay dims its frame.
        let overlay = eval("getComputedStyle(document.getElementById('countdown')).display".into()).await;
        assert_eq!(overlay, json!("none"));
        // The controls text reflows (the registry's prose is hard-wrapped).
        let text = eval("document.querySelector('#play-controls p').textContent".into()).await;
        let text = text.as_str().unwrap();
        assert!(text.len() > 40 && !text.contains('\n'), "{text:?}");
        let icon = eval("document.querySelector('link[rel=icon]') && document.querySelector('link[rel=icon]').href.startsWith('data:image/svg+xml')".into()).await;
        assert_eq!(icon, json!(true));

        // Real-time play: a visible countdown until the first key.
        eval(format!("(() => {{ location.hash = {:?}; return true; }})()", format!("#/play/{rt_play}"))).await;
        let text = wait_for("(() => { const c = document.getElementById('countdown'); return c && !c.hidden && c.textContent; })()".into(), "the countdown").await;
        assert!(text.as_str().unwrap().contains("starts in"), "{text}");
        page.find_element("body").await.unwrap().press_key(" ").await.unwrap();
        wait_for("document.getElementById('countdown').hidden && document.getElementById('play-status').textContent.startsWith('step 1')".into(), "the first step").await;
        let (_, v) = http_delete(&format!("{base}/api/play/{rt_play}"));
        assert_eq!(v["result"]["stop_reason"], "player_quit");

        // Viewer: detail panel beside the frame; a run without frames says so.
        eval(format!("(() => {{ location.hash = {:?}; return true; }})()", format!("#/run?root=0&path=framed"))).await;
        let v = wait_for(beside("#run-frame", "#viewer-side"), "the viewer").await;
        assert_eq!(v["beside"], true, "{v}");
        // A run with frames shows no "no frames" note over them (the note's
        // own display rule must not override `hidden`).
        let shown = eval("getComputedStyle(document.getElementById('no-frames')).display".into()).await;
        assert_eq!(shown, json!("none"));
        eval(format!("(() => {{ location.hash = {:?}; return true; }})()", format!("#/run?root=0&path=bare"))).await;
        let note = wait_for("(() => { const n = document.getElementById('no-frames'); return n && !n.hidden && getComputedStyle(n).display !== 'none' && n.textContent; })()".into(), "the no-frames note").await;
        assert!(note.as_str().unwrap().starts_with("No frames recorded"), "{note}");

        // Runs list: running first, 50 a page, next page, filter.
        eval(format!("(() => {{ location.hash = {:?}; return true; }})()", format!("#/runs"))).await;
        let label = wait_for("document.getElementById('page-label') && document.getElementById('page-label').textContent".into(), "the runs list").await;
        assert_eq!(label, json!("page 1 of 3"));
        let rows = eval("document.querySelectorAll('#run-table tr.run-row').length".into()).await;
        assert_eq!(rows, json!(50));
        let first = eval("document.querySelector('#run-table tr.run-row td:nth-child(5)').textContent".into()).await;
        assert_eq!(first, json!("running"));
        let heads = eval("Array.from(document.querySelectorAll('#run-table th')).map(t => t.textContent.replace(/ [▲▼]/, ''))".into()).await;
        assert_eq!(heads, json!(["game", "task", "model", "seed", "outcome", "progress", "steps", "run folder"]));
        page.find_element("#page-next").await.unwrap().click().await.unwrap();
        wait_for("document.getElementById('page-label').textContent === 'page 2 of 3'".into(), "page 2").await;
        eval("(() => { const s = document.getElementById('f-outcome'); s.value = 'success'; s.dispatchEvent(new Event('change')); return true; })()".into()).await;
        let outcomes = eval("Array.from(document.querySelectorAll('#run-table tr.run-row td:nth-child(5)')).map(t => t.textContent)".into()).await;
        let outcomes = outcomes.as_array().unwrap();
        assert_eq!(outcomes.len(), 30, "117 runs, every 4th a success, plus none of the real ones");
        assert!(outcomes.iter().all(|o| o == "success"));
        // Sorting by progress, highest first on a second click.
        page.find_element("th[data-key=progress]").await.unwrap().click().await.unwrap();
        page.find_element("th[data-key=progress]").await.unwrap().click().await.unwrap();
        let top = eval("document.querySelector('#run-table tr.run-row td:nth-child(6)').textContent".into()).await;
        assert_eq!(top, json!("0.80"));

        // Dashboard: links to the suite's report.
        eval(format!("(() => {{ location.hash = {:?}; return true; }})()", format!("#/suite?root=0&path=suite-done"))).await;
        let href = wait_for("document.getElementById('suite-report') && document.getElementById('suite-report').getAttribute('href')".into(), "the report link").await;
        assert_eq!(href, json!("/report/suite-done/report.html?root=0"));

        browser.close().await.unwrap();
        let _ = browser.wait().await;
        events.abort();
    });
}
