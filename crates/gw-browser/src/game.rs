//! [`BrowserGame`]: a [`Game`] whose world is a web page exposing
//! `window.gameAPI`, driven over CDP.
//!
//! Time: the page runs on the virtual clock of `shim.js`; between calls it
//! is frozen, and [`Game::advance`] moves it by exactly the requested game
//! milliseconds (frames every 1000/60 ms, timers in due order). Async work
//! the page does on the wall clock (fetching assets, decoding images) is not
//! virtualised; the lifecycle calls wait for it in real time.

use crate::input;
use crate::launch::{Chromium, LaunchError};
use crate::project::{self, HostView};
use crate::server::StaticServer;
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, CaptureScreenshotFormat, CaptureScreenshotParams,
    NavigateParams, RemoveScriptToEvaluateOnNewDocumentParams, ScriptIdentifier,
};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, ExecutionContextId};
use gw_core::action::InputEvent;
use gw_core::game::{Game, GameConfig, TaskInfo};
use gw_core::state::{GameApiState, Status, Terminal};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const SHIM: &str = include_str!("shim.js");
/// One frame of the virtual clock, used while waiting on the page.
const FRAME_MS: f64 = 1000.0 / 60.0;

/// Where the page comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A game folder served on a per-run loopback port (`index.html` at its root).
    Folder(PathBuf),
    /// A page URL opened as is (the task's suffix appended).
    Url(String),
}

#[derive(Clone, Debug)]
pub struct BrowserSpec {
    pub game_id: String,
    pub source: Source,
    /// Appended to the page URL (`?level=3`, `#infinite/2`).
    pub url_suffix: String,
    pub viewport: (u32, u32),
    /// Readiness gate limit (wall clock), 60 s like the original harness.
    pub ready_timeout: Duration,
}

impl BrowserSpec {
    pub fn new(game_id: &str, source: Source, url_suffix: &str, viewport: (u32, u32)) -> Self {
        BrowserSpec {
            game_id: game_id.to_string(),
            source,
            url_suffix: url_suffix.to_string(),
            viewport,
            ready_timeout: Duration::from_secs(60),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error("browser game {game}: {message}")]
    Page { game: String, message: String },
}

/// The seed a page sees in episode `episode` (32-bit, as the games' own
/// mulberry32 helpers expect): the run seed itself for the first episode
/// when it fits, a SplitMix64 mix of (seed, episode) after that.
pub fn page_seed(seed: u64, episode: u32) -> u64 {
    if episode == 0 && seed <= u32::MAX as u64 {
        return seed;
    }
    let mut z = seed ^ (episode as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 0xFFFF_FFFF
}

pub struct BrowserGame {
    id: &'static str,
    spec: BrowserSpec,
    chromium: Arc<Chromium>,
    page: Option<Page>,
    context: Option<BrowserContextId>,
    _server: Option<StaticServer>,
    url: String,
    config: GameConfig,
    episode: u32,
    fresh: bool,
    script: Option<ScriptIdentifier>,
    /// The execution context holding `gameAPI`; `None` is the main frame.
    api_context: Mutex<Option<ExecutionContextId>>,
    last_state: Mutex<Option<GameApiState>>,
    fault: Mutex<Option<String>>,
    input: input::InputState,
    /// `{call, reply}` of every init/reset, in order.
    lifecycle: Vec<Value>,
}

/// Reads the state and the host clock in one round trip.
const STATE_EXPR: &str = r#"(() => {
  const api = window.gameAPI;
  const t = window.__gwHost ? window.__gwHost.now() : null;
  if (!api || typeof api.getState !== 'function') return JSON.stringify({api: false, t});
  try { return JSON.stringify({api: true, t, s: api.getState()}); }
  catch (e) { return JSON.stringify({api: true, t, error: String(e && e.stack || e)}); }
})()"#;

impl BrowserGame {
    /// Launch a Chromium of its own and open the game in it.
    pub fn open(spec: BrowserSpec) -> Result<BrowserGame, OpenError> {
        let chromium = Arc::new(Chromium::launch(spec.viewport)?);
        Self::open_in(chromium, spec)
    }

    /// Open the game in a fresh browser context of a running Chromium.
    pub fn open_in(chromium: Arc<Chromium>, spec: BrowserSpec) -> Result<BrowserGame, OpenError> {
        let page_err = |message: String| OpenError::Page {
            game: spec.game_id.clone(),
            message,
        };
        let (server, base) = match &spec.source {
            Source::Folder(dir) => {
                if !dir.join("index.html").is_file() {
                    return Err(page_err(format!("{} has no index.html", dir.display())));
                }
                let server = StaticServer::start(dir)
                    .map_err(|e| page_err(format!("cannot serve {}: {e}", dir.display())))?;
                let base = server.url("index.html");
                (Some(server), base)
            }
            Source::Url(u) => (None, u.clone()),
        };
        let url = format!("{base}{}", spec.url_suffix);
        let (w, h) = spec.viewport;
        let (page, context) = chromium
            .block_on(async {
                let ctx = chromium
                    .browser()
                    .create_browser_context(CreateBrowserContextParams::default())
                    .await?;
                let params = CreateTargetParams::builder()
                    .url("about:blank")
                    .browser_context_id(ctx.clone())
                    .build()
                    .map_err(chromiumoxide::error::CdpError::msg)?;
                let page = chromium.browser().new_page(params).await?;
                page.execute(SetDeviceMetricsOverrideParams::new(
                    w as i64, h as i64, 1.0, false,
                ))
                .await?;
                Ok::<_, chromiumoxide::error::CdpError>((page, ctx))
            })
            .map_err(|e| page_err(format!("cannot open a page: {e}")))?;
        Ok(BrowserGame {
            id: Box::leak(spec.game_id.clone().into_boxed_str()),
            spec,
            chromium,
            page: Some(page),
            context: Some(context),
            _server: server,
            url,
            config: GameConfig::default(),
            episode: 0,
            fresh: false,
            script: None,
            api_context: Mutex::new(None),
            last_state: Mutex::new(None),
            fault: Mutex::new(None),
            input: input::InputState::default(),
            lifecycle: Vec::new(),
        })
    }

    /// The page URL (loopback server + suffix).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// `{call, reply}` of every init/reset so far.
    pub fn lifecycle(&self) -> &[Value] {
        &self.lifecycle
    }

    fn page(&self) -> &Page {
        self.page.as_ref().expect("page open until drop")
    }

    fn set_fault(&self, message: String) {
        let mut f = self.fault.lock().unwrap();
        if f.is_none() {
            *f = Some(format!("browser game {}: {message}", self.id));
        }
    }

    /// Evaluate `expr` in `ctx` (main frame when `None`), by value.
    fn eval_in(
        &self,
        expr: &str,
        ctx: Option<ExecutionContextId>,
        await_promise: bool,
    ) -> Result<Value, String> {
        let mut b = EvaluateParams::builder()
            .expression(expr)
            .return_by_value(true)
            .await_promise(await_promise);
        if let Some(c) = ctx {
            b = b.context_id(c);
        }
        let params = b.build().map_err(|e| e.to_string())?;
        let page = self.page();
        let res = self
            .chromium
            .block_on(async { page.execute(params).await })
            .map_err(|e| e.to_string())?;
        if let Some(ex) = &res.result.exception_details {
            let detail = ex
                .exception
                .as_ref()
                .and_then(|o| o.description.clone())
                .unwrap_or_else(|| ex.text.clone());
            return Err(format!("page script error: {detail}"));
        }
        Ok(res.result.result.value.clone().unwrap_or(Value::Null))
    }

    fn eval(&self, expr: &str, await_promise: bool) -> Result<Value, String> {
        let ctx = *self.api_context.lock().unwrap();
        self.eval_in(expr, ctx, await_promise)
    }

    /// One state read: `(page state or None without gameAPI, host clock)`.
    fn read_in(&self, ctx: Option<ExecutionContextId>) -> Result<(Option<Value>, f64), String> {
        let text = self.eval_in(STATE_EXPR, ctx, false)?;
        let v: Value = serde_json::from_str(text.as_str().unwrap_or("null"))
            .map_err(|e| format!("unreadable getState() reply: {e}"))?;
        let t = v["t"].as_f64().unwrap_or(0.0);
        if let Some(err) = v.get("error").and_then(Value::as_str) {
            return Err(format!("gameAPI.getState() threw: {err}"));
        }
        Ok((v.get("s").cloned().filter(|_| v["api"] == true), t))
    }

    /// Find `gameAPI`: the main frame first, then each iframe.
    fn locate_api(&self) -> Result<Option<(Value, f64)>, String> {
        if let (Some(s), t) = self.read_in(None)? {
            *self.api_context.lock().unwrap() = None;
            return Ok(Some((s, t)));
        }
        let page = self.page();
        let frames = self
            .chromium
            .block_on(async {
                let main = page.mainframe().await?;
                let mut out = Vec::new();
                for f in page.frames().await? {
                    if Some(&f) != main.as_ref()
                        && let Some(ctx) = page.frame_execution_context(f).await?
                    {
                        out.push(ctx);
                    }
                }
                Ok::<_, chromiumoxide::error::CdpError>(out)
            })
            .map_err(|e| e.to_string())?;
        for ctx in frames {
            if let Ok((Some(s), t)) = self.read_in(Some(ctx)) {
                *self.api_context.lock().unwrap() = Some(ctx);
                return Ok(Some((s, t)));
            }
        }
        Ok(None)
    }

    fn advance_clock(&self, ms: f64) -> Result<(), String> {
        self.eval(&format!("window.__gwHost.advance({ms})"), true)
            .map(|_| ())
    }

    /// Install the shim for the next documents with this page seed.
    fn install_shim(&mut self, seed: u64) -> Result<(), String> {
        let source = SHIM.replace("__GW_SEED__", &seed.to_string());
        let page = self.page.clone().expect("page open");
        let old = self.script.take();
        let id = self
            .chromium
            .block_on(async move {
                if let Some(old) = old {
                    page.execute(RemoveScriptToEvaluateOnNewDocumentParams::new(old))
                        .await?;
                }
                let r = page
                    .execute(AddScriptToEvaluateOnNewDocumentParams::new(source))
                    .await?;
                Ok::<_, chromiumoxide::error::CdpError>(r.result.identifier)
            })
            .map_err(|e| format!("cannot install the host shim: {e}"))?;
        self.script = Some(id);
        Ok(())
    }

    fn navigate(&mut self) -> Result<(), String> {
        let page = self.page();
        let url = self.url.clone();
        self.chromium
            .block_on(async { page.goto(NavigateParams::new(url)).await.map(|_| ()) })
            .map_err(|e| format!("cannot load {}: {e}", self.url))?;
        *self.api_context.lock().unwrap() = None;
        Ok(())
    }

    /// Wait (wall clock) until the document has loaded and `gameAPI` exists.
    fn wait_api(&self, deadline: Instant) -> Result<(), String> {
        loop {
            let loaded = self
                .eval_in("document.readyState === 'complete'", None, false)
                .unwrap_or(Value::Bool(false))
                == Value::Bool(true);
            if loaded && self.locate_api()?.is_some() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "window.gameAPI did not appear in {} (main frame or iframes) within {} s; is game_api.js loaded by index.html?",
                    self.url,
                    self.spec.ready_timeout.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Run an async page call (`expr` evaluates to a value or a promise)
    /// without blocking on the frozen clock: poll, and give the game one
    /// frame of time whenever the call is still pending. `Ok(None)` means
    /// the document navigated away before the call settled.
    fn call_async(&self, expr: &str, deadline: Instant) -> Result<Option<Value>, String> {
        let start = format!(
            "(() => {{ const c = {{done: false}}; window.__gwCall = c; \
             Promise.resolve().then(() => ({expr})).then(v => {{ c.done = true; c.value = v === undefined ? null : v; }}, \
             e => {{ c.done = true; c.error = String(e && e.stack || e); }}); return true; }})()"
        );
        if let Err(e) = self.eval(&start, false) {
            return Err(format!("cannot call {expr}: {e}"));
        }
        let mut polls = 0u32;
        loop {
            let probe = self.eval(
                "(() => { const c = window.__gwCall; return c ? JSON.stringify(c) : null; })()",
                false,
            );
            let c = match probe {
                Err(_) => return Ok(None),          // context destroyed: navigating
                Ok(Value::Null) => return Ok(None), // a new document
                Ok(v) => {
                    serde_json::from_str::<Value>(v.as_str().unwrap_or("{}")).unwrap_or(Value::Null)
                }
            };
            if c["done"] == true {
                if let Some(err) = c.get("error").and_then(Value::as_str) {
                    return Err(format!("{expr} rejected: {err}"));
                }
                return Ok(Some(c.get("value").cloned().unwrap_or(Value::Null)));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{expr} did not settle within {} s",
                    self.spec.ready_timeout.as_secs()
                ));
            }
            polls += 1;
            std::thread::sleep(Duration::from_millis(2));
            if polls >= 2 && self.advance_clock(FRAME_MS).is_err() {
                return Ok(None);
            }
        }
    }

    /// Seed helpers and `init(config)` on a freshly loaded document.
    fn page_setup(&mut self, seed: u64, deadline: Instant) -> Result<(), String> {
        let mut cfg = serde_json::Map::new();
        for (k, v) in &self.config.options {
            cfg.insert(k.clone(), v.clone());
        }
        cfg.insert("seed".into(), json!(seed));
        if let Some(l) = self.config.level {
            cfg.insert("level".into(), json!(l));
        }
        if let Some(d) = &self.config.difficulty {
            cfg.insert("difficulty".into(), json!(d));
        }
        let cfg = Value::Object(cfg);
        self.eval(
            &format!(
                "(() => {{ if (typeof window.__setDeterministicSeed === 'function') {{ try {{ window.__setDeterministicSeed({seed}); }} catch (e) {{}} }} \
                 if (window.__gwFreezeAnimations) window.__gwFreezeAnimations(); return true; }})()"
            ),
            false,
        )?;
        let reply = self.call_async(
            &format!("typeof window.gameAPI.init === 'function' ? window.gameAPI.init({cfg}) : {{ok: false, notes: ['init_missing']}}"),
            deadline,
        );
        // Like the original host, an init that fails is noted, not fatal:
        // the readiness gate decides whether the game can be played.
        let reply = match reply {
            Ok(v) => v.unwrap_or(Value::Null),
            Err(e) => json!({"ok": false, "error": e}),
        };
        self.lifecycle
            .push(json!({"call": "init", "config": cfg, "reply": reply}));
        Ok(())
    }

    /// The readiness gate: poll `getState()` (main frame, then iframes)
    /// until `is_actionable` (when present) or status ready/playing.
    fn wait_ready(&self, deadline: Instant) -> Result<(), String> {
        let mut last = String::from("(gameAPI not found)");
        loop {
            if let Some((s, _)) = self.locate_api()? {
                if project::page_ready(&s) {
                    return Ok(());
                }
                last = match project::actionable_flag(&s) {
                    Some(flag) => {
                        format!("status {}, is_actionable {flag}", project::status_text(&s))
                    }
                    None => format!("status {}", project::status_text(&s)),
                };
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "not ready after {} s (last seen: {last}); the readiness gate needs is_actionable true or status ready/playing",
                    self.spec.ready_timeout.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(5));
            // Loading screens may need frames to progress.
            let _ = self.advance_clock(FRAME_MS);
        }
    }

    fn load_fresh(&mut self, seed: u64) -> Result<(), String> {
        let deadline = Instant::now() + self.spec.ready_timeout;
        self.install_shim(seed)?;
        self.navigate()?;
        self.wait_api(deadline)?;
        self.page_setup(seed, deadline)?;
        self.wait_ready(deadline)
    }

    /// After a `reload` reset: wait for the new document, then set it up.
    fn after_reload(&mut self, seed: u64, token: &str) -> Result<(), String> {
        let deadline = Instant::now() + self.spec.ready_timeout;
        loop {
            let same = self
                .eval_in(&format!("window.__gwDoc === '{token}'"), None, false)
                .unwrap_or(Value::Bool(false));
            if same != Value::Bool(true) {
                break;
            }
            if Instant::now() >= deadline {
                return Err("reset() answered method 'reload' but the page never navigated".into());
            }
            std::thread::sleep(Duration::from_millis(5));
            // A game may schedule its reload on a timer.
            let _ = self.advance_clock(FRAME_MS);
        }
        *self.api_context.lock().unwrap() = None;
        self.wait_api(deadline)?;
        self.page_setup(seed, deadline)?;
        self.wait_ready(deadline)
    }

    fn try_reset(&mut self, episode: u32) -> Result<(), String> {
        let seed = page_seed(self.config.seed, episode);
        // The next document (a reload) starts from this episode's seed too.
        self.install_shim(seed)?;
        let token = format!("doc{episode}");
        self.eval_in(&format!("window.__gwDoc = '{token}'"), None, false)?;
        self.eval(
            &format!(
                "(() => {{ if (window.__gwHost) window.__gwHost.reseed({seed}); \
                 if (typeof window.__setDeterministicSeed === 'function') {{ try {{ window.__setDeterministicSeed({seed}); }} catch (e) {{}} }} return true; }})()"
            ),
            false,
        )?;
        let mut opts = serde_json::Map::new();
        opts.insert("seed".into(), json!(seed));
        if let Some(l) = self.config.level {
            opts.insert("level".into(), json!(l));
        }
        let opts = Value::Object(opts);
        let deadline = Instant::now() + self.spec.ready_timeout;
        let reply = self.call_async(
            &format!("typeof window.gameAPI.reset === 'function' ? window.gameAPI.reset({opts}) : {{ok: false, method: 'unsupported'}}"),
            deadline,
        )?;
        let method = reply
            .as_ref()
            .and_then(|r| r.get("method"))
            .and_then(Value::as_str)
            .unwrap_or(if reply.is_none() { "reload" } else { "" })
            .to_string();
        let ok = reply
            .as_ref()
            .is_none_or(|r| r.get("ok").is_none_or(|v| v != &Value::Bool(false)));
        self.lifecycle
            .push(json!({"call": "reset", "options": opts, "reply": reply}));
        if reply.is_none() || method == "reload" {
            return self.after_reload(seed, &token);
        }
        if !ok || method == "unsupported" {
            // The game cannot reset itself: load it again from scratch.
            self.lifecycle.push(json!({"call": "navigate", "reason": format!("reset answered ok={ok}, method '{method}'")}));
            return self.load_fresh(seed);
        }
        self.wait_ready(deadline)
    }

    fn screenshot(&self, pixmap: &mut tiny_skia::Pixmap) -> Result<(), String> {
        let params = CaptureScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Png)
            .from_surface(true)
            .capture_beyond_viewport(false)
            .build();
        let page = self.page();
        let res = self
            .chromium
            .block_on(async { page.execute(params).await })
            .map_err(|e| format!("screenshot failed: {e}"))?;
        let b64: &str = res.result.data.as_ref();
        use base64::Engine;
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| format!("screenshot data: {e}"))?;
        crate::frame::png_into_pixmap(&png, pixmap)
    }
}

impl Game for BrowserGame {
    fn game_id(&self) -> &'static str {
        self.id
    }

    fn viewport(&self) -> (u32, u32) {
        self.spec.viewport
    }

    fn init(&mut self, config: &GameConfig) {
        self.config = config.clone();
        self.episode = 0;
        *self.last_state.lock().unwrap() = None;
        let seed = page_seed(config.seed, 0);
        if let Err(e) = self.load_fresh(seed) {
            self.set_fault(e);
        }
        self.fresh = true;
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        if std::mem::take(&mut self.fresh) && episode == 0 {
            // init just loaded this document: it is the first episode.
            return;
        }
        self.input = input::InputState::default();
        if let Err(e) = self.try_reset(episode) {
            self.set_fault(format!("reset for episode {episode} failed: {e}"));
        }
    }

    fn state(&self) -> GameApiState {
        let fallback = || {
            self.last_state.lock().unwrap().clone().unwrap_or_else(|| {
                GameApiState::new(
                    self.id,
                    self.config.seed,
                    0,
                    Status::Loading,
                    Terminal::running(),
                )
            })
        };
        if self.fault.lock().unwrap().is_some() {
            return fallback();
        }
        let read = self.read_in(*self.api_context.lock().unwrap());
        let host = |t: f64| HostView {
            game_id: self.id,
            seed: page_seed(self.config.seed, self.episode),
            game_time_ms: t,
        };
        match read {
            Ok((Some(s), t)) => match project::project(&s, &host(t)) {
                Ok(st) => {
                    *self.last_state.lock().unwrap() = Some(st.clone());
                    st
                }
                Err(e) => {
                    self.set_fault(e);
                    fallback()
                }
            },
            Ok((None, _)) => {
                self.set_fault("window.gameAPI disappeared from the page".into());
                fallback()
            }
            Err(e) => {
                self.set_fault(e);
                fallback()
            }
        }
    }

    fn is_ready(&self) -> bool {
        if self.fault.lock().unwrap().is_some() {
            return false;
        }
        match self.read_in(*self.api_context.lock().unwrap()) {
            Ok((Some(s), _)) => project::page_ready(&s),
            _ => false,
        }
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if self.fault.lock().unwrap().is_some() {
            return;
        }
        let page = self.page.clone().expect("page open");
        let r = input::dispatch(&self.chromium, &page, &mut self.input, event);
        if let Err(e) = r {
            self.set_fault(format!("input {event:?} failed: {e}"));
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        if dt_ms == 0 || self.fault.lock().unwrap().is_some() {
            return;
        }
        if let Err(e) = self.advance_clock(dt_ms as f64) {
            self.set_fault(format!("advancing the clock failed: {e}"));
        }
    }

    fn render(&self, pixmap: &mut tiny_skia::Pixmap) {
        if self.fault.lock().unwrap().is_some() {
            pixmap.fill(tiny_skia::Color::BLACK);
            return;
        }
        if let Err(e) = self.screenshot(pixmap) {
            self.set_fault(e);
            pixmap.fill(tiny_skia::Color::BLACK);
        }
    }

    /// Browser games have no scripted expert: the page's internals are its own.
    fn expert_action(&self, _task: &TaskInfo) -> Value {
        Value::Null
    }

    fn fault(&self) -> Option<String> {
        self.fault.lock().unwrap().clone()
    }
}

impl Drop for BrowserGame {
    fn drop(&mut self) {
        let page = self.page.take();
        let ctx = self.context.take();
        let browser = self.chromium.browser();
        self.chromium.block_on(async {
            let work = async {
                if let Some(p) = page {
                    let _ = p.close().await;
                }
                if let Some(c) = ctx {
                    let _ = browser.dispose_browser_context(c).await;
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(5), work).await;
        });
    }
}
