//! Human play. A play is an ordinary run (`gw_runtime::run_preset_with_agent`)
//! whose agent is a person: [`HumanAgent`] hands each observation to the page
//! and blocks until the page sends the next input. So the step budget, the
//! action layer's validation (keys outside the role's controls are
//! out-of-space), the evaluator, resets on failure and the run directory are
//! the agents' own; `result.json` says `model: human` (or `human-<name>`).
//!
//! Step mode: the game is paused between inputs; each input is one step.
//! Real-time mode: the page also sends "watch" ticks while the person thinks;
//! the runtime advances the game clock by the time that passed and shows the
//! new frame, without spending a step. The clock starts with the person's
//! first input or first watch tick (the page sends it after a visible
//! countdown), never while the page is still loading.
//!
//! A play ends early when the person quits (`stop_reason: player_quit`) or
//! leaves: the page closes (it says so on `pagehide`) or nothing arrives for
//! the idle limit (`player_left`).
//!
//! A cooperative game is played by a person in one role and an agent of
//! their choice (a built-in or a model profile) in the others, in step mode:
//! each step waits for the person's input and the agent's reply to the same
//! frame.

use crate::{ApiError, AppState, bad_request, not_found};
use axum::Json;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use gw_agents::{Agent, AgentError, Observation, Reply, Turn};
use gw_core::registry::{Interface, Registry, is_human_agent};
use gw_runtime::RunOptions;
use gw_runtime::run::run_preset_with_agent;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A play nobody touches for this long ends as `player_left` (its partial
/// result is kept); [`Plays::set_idle_limit`] changes it.
pub const IDLE_LIMIT: Duration = Duration::from_secs(10 * 60);
/// How long a request waits for the game to answer an input.
const ANSWER_WAIT: Duration = Duration::from_secs(30);
/// Plays running at once.
const MAX_LIVE: usize = 16;

/// The plays this server started.
#[derive(Default)]
pub struct Plays {
    sessions: Mutex<BTreeMap<String, Arc<Session>>>,
    counter: AtomicU64,
    /// The idle limit in milliseconds (0: [`IDLE_LIMIT`]).
    idle_ms: AtomicU64,
}

impl Plays {
    /// End plays after `limit` without input (default [`IDLE_LIMIT`]).
    pub fn set_idle_limit(&self, limit: Duration) {
        self.idle_ms
            .store(limit.as_millis().max(1) as u64, Ordering::Relaxed);
    }

    fn idle_limit(&self) -> Duration {
        match self.idle_ms.load(Ordering::Relaxed) {
            0 => IDLE_LIMIT,
            ms => Duration::from_millis(ms),
        }
    }
}

enum Input {
    Act(Value),
    Watch,
    Quit,
    /// The page was closed or navigated away.
    Leave,
}

/// What the page sees of a play.
#[derive(Clone, Default)]
struct View {
    /// Bumped whenever a new observation (or the end) is published.
    seq: u64,
    steps_done: u32,
    episode: u32,
    frame: Arc<Vec<u8>>,
    best_progress: f64,
    last_valid: Option<bool>,
    last_note: String,
    /// `result.json` once the run ended.
    finished: Option<Value>,
    error: Option<String>,
}

pub struct Session {
    pub id: String,
    pub preset: String,
    pub realtime: bool,
    pub max_steps: u32,
    pub viewport: (u32, u32),
    /// The run directory relative to runs root 0.
    pub run_rel: String,
    controls: Value,
    tx: Mutex<Sender<Input>>,
    view: Mutex<View>,
    cv: Condvar,
}

impl Session {
    fn publish(&self, f: impl FnOnce(&mut View)) {
        let mut v = self.view.lock().expect("view lock");
        f(&mut v);
        v.seq += 1;
        self.cv.notify_all();
    }

    fn snapshot(&self) -> View {
        self.view.lock().expect("view lock").clone()
    }

    /// Send an input and wait until the game answered it (a new observation
    /// or the end of the run).
    fn send_and_wait(&self, input: Input) -> Result<View, ApiError> {
        let until_end = matches!(input, Input::Quit);
        let before = {
            let v = self.view.lock().expect("view lock");
            if v.finished.is_some() || v.error.is_some() {
                return Ok(v.clone());
            }
            v.seq
        };
        self.tx
            .lock()
            .expect("sender lock")
            .send(input)
            .map_err(|_| ApiError(StatusCode::GONE, "this play has ended".into()))?;
        let guard = self.view.lock().expect("view lock");
        let (guard, timeout) = self
            .cv
            .wait_timeout_while(guard, ANSWER_WAIT, |v| {
                // A quit is answered by the end of the play, not by the next
                // frame: a real-time play may step on its own in between.
                (v.seq == before || until_end) && v.finished.is_none() && v.error.is_none()
            })
            .expect("view lock");
        if timeout.timed_out() {
            return Err(ApiError(
                StatusCode::GATEWAY_TIMEOUT,
                "the game did not answer in time".into(),
            ));
        }
        Ok(guard.clone())
    }

    fn json(&self, v: &View) -> Value {
        json!({
            "id": self.id,
            "preset": self.preset,
            "mode": if self.realtime { "realtime" } else { "step" },
            "max_steps": self.max_steps,
            "viewport": [self.viewport.0, self.viewport.1],
            "run_dir": self.run_rel,
            "controls": self.controls,
            "seq": v.seq,
            "steps_done": v.steps_done,
            "episode": v.episode,
            "last_valid": v.last_valid,
            "last_note": v.last_note,
            "done": v.finished.is_some() || v.error.is_some(),
            // The score is for after the game: while playing, a person sees
            // what an agent sees, the game's own screen.
            "result": v.finished,
            "error": v.error,
        })
    }
}

/// The agent seam for a person: observations go to the page, inputs come back.
struct HumanAgent {
    id: String,
    session: Arc<Session>,
    rx: Receiver<Input>,
    idle_limit: Duration,
    /// Real-time mode: whether the clock runs yet (the first input or watch
    /// tick starts it).
    started: bool,
    /// The input that started a real-time play, played at once.
    first: Option<Value>,
}

impl Agent for HumanAgent {
    fn id(&self) -> &str {
        &self.id
    }
    fn interface(&self) -> Interface {
        Interface::ComputerUse
    }
    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        loop {
            match self.turn(obs)? {
                Turn::Act(reply) => return Ok(reply),
                Turn::End(reason) => {
                    return Err(AgentError::Config(format!(
                        "the player ended the play ({})",
                        reason.as_str()
                    )));
                }
                Turn::Watch | Turn::Hold => {}
            }
        }
    }
    fn turn(&mut self, obs: &Observation) -> Result<Turn, AgentError> {
        // The input that started the clock is played at once, against the
        // observation the page already shows.
        if let Some(payload) = self.first.take() {
            return Ok(Turn::Act(Reply {
                payload: Some(payload),
                ..Reply::default()
            }));
        }
        let frame = Arc::new(obs.frame_png.to_vec());
        let (step, episode) = (obs.step.saturating_sub(1), obs.episode);
        self.session.publish(|v| {
            v.frame = frame;
            v.steps_done = step;
            v.episode = episode;
        });
        let input = self.rx.recv_timeout(self.idle_limit);
        // Real-time mode: the time before the first input is not game time.
        if !self.started {
            self.started = true;
            match input {
                Ok(Input::Act(payload)) => {
                    self.first = Some(payload);
                    return Ok(Turn::Hold);
                }
                Ok(Input::Watch) => return Ok(Turn::Hold),
                _ => {}
            }
        }
        match input {
            Ok(Input::Act(payload)) => Ok(Turn::Act(Reply {
                payload: Some(payload),
                ..Reply::default()
            })),
            Ok(Input::Watch) => Ok(Turn::Watch),
            Ok(Input::Quit) => Ok(Turn::End(gw_core::StopReason::PlayerQuit)),
            Ok(Input::Leave) | Err(RecvTimeoutError::Disconnected | RecvTimeoutError::Timeout) => {
                Ok(Turn::End(gw_core::StopReason::PlayerLeft))
            }
        }
    }
    fn observe_outcome(&mut self, valid: bool, summary: &str) {
        let mut v = self.session.view.lock().expect("view lock");
        v.last_valid = Some(valid);
        v.last_note = summary.chars().take(300).collect();
    }
}

#[derive(Deserialize)]
pub struct StartRequest {
    /// `<game_id>+<task_id>`.
    pub preset: String,
    #[serde(default)]
    pub seed: Option<u64>,
    /// `step` (default) or `realtime`.
    #[serde(default)]
    pub mode: Option<String>,
    /// Recorded as `human-<name>`.
    #[serde(default)]
    pub name: Option<String>,
    /// Cooperative games: the role the person plays (default: the first).
    #[serde(default)]
    pub role: Option<String>,
    /// Cooperative games: the agent in the other roles (a built-in such as
    /// `scripted`, or a model profile id; default `scripted`).
    #[serde(default)]
    pub partner: Option<String>,
}

fn model_id(name: Option<&str>) -> Result<String, ApiError> {
    let name = name.map(str::trim).unwrap_or("");
    let id = if name.is_empty() || name == "human" {
        "human".to_string()
    } else {
        format!("human-{}", name.strip_prefix("human-").unwrap_or(name))
    };
    if !is_human_agent(&id) {
        return Err(bad_request(
            "a player name has at most 40 letters, digits, '-' or '_'",
        ));
    }
    Ok(id)
}

fn unix_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0)
}

/// Start a play; answers once the first frame is ready.
pub async fn start(
    State(st): State<Arc<AppState>>,
    Json(req): Json<StartRequest>,
) -> Result<Json<Value>, ApiError> {
    let model = model_id(req.name.as_deref())?;
    let parts: Vec<&str> = req.preset.split('+').collect();
    if parts.len() != 2 {
        return Err(bad_request(
            "preset must be <game_id>+<task_id> (the page adds the player)",
        ));
    }
    let single = st
        .registry
        .resolve_preset(&format!("{}+{model}", req.preset))
        .map_err(bad_request)?;
    let full = if single.is_cooperative() {
        cooperative_preset(&st.registry, &req, &single, &model)?
    } else {
        format!("{}+{model}", req.preset)
    };
    let preset = st.registry.resolve_preset(&full).map_err(bad_request)?;
    let realtime = match req.mode.as_deref().unwrap_or("step") {
        "step" => false,
        "realtime" => true,
        other => {
            return Err(bad_request(format!(
                "mode \"{other}\" is not one of step, realtime"
            )));
        }
    };
    if realtime && preset.is_cooperative() {
        return Err(bad_request(
            "a cooperative game is played in step mode: each step waits for your input and the partner agent's reply",
        ));
    }
    let seed = req.seed.unwrap_or(1);
    check_room(&st.plays.sessions.lock().expect("sessions lock"))?;
    let n = st.plays.counter.fetch_add(1, Ordering::Relaxed) + 1;
    let id = format!("p{n}-{}", unix_ms() % 1_000_000_000);
    let run_rel = claim_run_dir(
        &st.roots[0],
        &format!("plays/{full}/seed{seed}-{}", unix_ms()),
    )?;
    let run_dir: PathBuf = st.roots[0].join(&run_rel);
    // The person's role: the one a human id fills.
    let role = preset
        .role_presets()
        .into_iter()
        .find(|p| is_human_agent(p.agent.id()))
        .map(|p| p.role)
        .unwrap_or_else(|| preset.role.clone());
    let role = &role;
    let (tx, rx) = channel();
    let session = Arc::new(Session {
        id: id.clone(),
        preset: full.clone(),
        realtime,
        max_steps: preset.task.max_steps,
        viewport: (preset.game.viewport.width, preset.game.viewport.height),
        run_rel,
        controls: json!({
            "keys": role.allowed_keys,
            "clicks": role.allow_clicks,
            "description": role.control_description.trim(),
            "instruction": preset.task.instruction.trim(),
            "role": preset.is_cooperative().then(|| role.name.clone()),
            "partner": preset.is_cooperative().then(|| preset.model_label()),
        }),
        tx: Mutex::new(tx),
        view: Mutex::new(View::default()),
        cv: Condvar::new(),
    });
    {
        let mut sessions = st.plays.sessions.lock().expect("sessions lock");
        // Checked again under the lock that inserts: plays started together
        // all passed the first check.
        if let Err(e) = check_room(&sessions) {
            drop(sessions);
            let _ = std::fs::remove_dir(&run_dir);
            return Err(e);
        }
        // Forget the oldest ended plays beyond 64 (their run directories stay).
        while sessions.len() >= 64 {
            let ended = sessions
                .iter()
                .find(|(_, s)| {
                    let v = s.view.lock().expect("view lock");
                    v.finished.is_some() || v.error.is_some()
                })
                .map(|(k, _)| k.clone());
            match ended {
                Some(k) => sessions.remove(&k),
                None => break,
            };
        }
        sessions.insert(id.clone(), session.clone());
    }
    spawn_run(
        st.registry.clone(),
        session.clone(),
        rx,
        RunSpec {
            preset: full,
            seed,
            run_dir,
            realtime,
            idle_limit: st.plays.idle_limit(),
        },
    );
    let s2 = session.clone();
    let view = tokio::task::spawn_blocking(move || {
        let guard = s2.view.lock().expect("view lock");
        let (guard, _) = s2
            .cv
            .wait_timeout_while(guard, ANSWER_WAIT, |v| {
                v.seq == 0 && v.finished.is_none() && v.error.is_none()
            })
            .expect("view lock");
        guard.clone()
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    if let (Some(err), None) = (&view.error, &view.finished) {
        return Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, err.clone()));
    }
    Ok(Json(session.json(&view)))
}

/// Refuse a new play while [`MAX_LIVE`] are running.
fn check_room(sessions: &BTreeMap<String, Arc<Session>>) -> Result<(), ApiError> {
    let live = sessions
        .values()
        .filter(|s| {
            let v = s.view.lock().expect("view lock");
            v.finished.is_none() && v.error.is_none()
        })
        .count();
    if live >= MAX_LIVE {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{MAX_LIVE} plays are running; finish or quit one first"),
        ));
    }
    Ok(())
}

/// Create a fresh run directory `<stem>` under `root` (`<stem>-2`, `-3`…
/// when plays of the same task and seed start in the same millisecond, here
/// or in another server on the same folder) and return it relative to `root`.
fn claim_run_dir(root: &std::path::Path, stem: &str) -> Result<String, ApiError> {
    let cannot = |e: std::io::Error| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!(
                "cannot create the play's run directory under {}: {e}",
                root.display()
            ),
        )
    };
    let parent = root.join(stem);
    if let Some(p) = parent.parent() {
        std::fs::create_dir_all(p).map_err(cannot)?;
    }
    for n in 1..1000u32 {
        let rel = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        match std::fs::create_dir(root.join(&rel)) {
            Ok(()) => return Ok(rel),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(cannot(e)),
        }
    }
    Err(ApiError(
        StatusCode::CONFLICT,
        format!("too many plays of {stem} at once; try again"),
    ))
}

/// The preset of a cooperative play: the person (`model`) in the requested
/// role, the partner agent in every other role.
fn cooperative_preset(
    registry: &Registry,
    req: &StartRequest,
    single: &gw_core::Preset,
    model: &str,
) -> Result<String, ApiError> {
    let roles: Vec<String> = single.players.iter().map(|p| p.role.name.clone()).collect();
    let mine = match req.role.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => roles[0].clone(),
        Some(r) if roles.iter().any(|x| x == r) => r.to_string(),
        Some(r) => {
            return Err(bad_request(format!(
                "role \"{r}\" is not one of this game's roles: {}",
                roles.join(", ")
            )));
        }
    };
    let partner = req.partner.as_deref().map(str::trim).unwrap_or("scripted");
    let partner = if partner.is_empty() {
        "scripted"
    } else {
        partner
    };
    if is_human_agent(partner) {
        return Err(bad_request(
            "the partner is an agent: a built-in (scripted, random, noop) or a model id",
        ));
    }
    if !gw_core::registry::BUILTIN_AGENTS.contains(&partner)
        && !registry.models.contains_key(partner)
    {
        return Err(bad_request(format!(
            "unknown partner agent \"{partner}\"; pick scripted, random, noop or a model id from `gameworld list models`"
        )));
    }
    let ids: Vec<&str> = roles
        .iter()
        .map(|r| if *r == mine { model } else { partner })
        .collect();
    Ok(format!("{}+{}", req.preset, ids.join(",")))
}

/// What a play runs.
struct RunSpec {
    preset: String,
    seed: u64,
    run_dir: PathBuf,
    realtime: bool,
    idle_limit: Duration,
}

fn spawn_run(registry: Arc<Registry>, session: Arc<Session>, rx: Receiver<Input>, spec: RunSpec) {
    let RunSpec {
        preset,
        seed,
        run_dir,
        realtime,
        idle_limit,
    } = spec;
    std::thread::spawn(move || {
        let mut opts = RunOptions::new(preset, seed, run_dir.clone());
        opts.realtime = realtime;
        let rx = Mutex::new(Some(rx));
        let agent_session = session.clone();
        let make = move |preset: &gw_core::Preset, seed: u64| {
            // A cooperative play's partner roles are ordinary agents.
            if !is_human_agent(preset.agent.id()) {
                return gw_runtime::agents::make_agent(preset, seed, None);
            }
            let rx = rx.lock().expect("rx lock").take().ok_or_else(|| {
                gw_runtime::RunError::Runtime("the player's input channel is gone".into())
            })?;
            Ok(Box::new(HumanAgent {
                id: preset.agent.id().to_string(),
                session: agent_session.clone(),
                rx,
                idle_limit,
                // Step mode waits for each input anyway.
                started: !realtime,
                first: None,
            }) as Box<dyn Agent>)
        };
        let progress_session = session.clone();
        let mut on_step = move |_step: u32, best: f64| {
            let mut v = progress_session.view.lock().expect("view lock");
            v.best_progress = best;
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_preset_with_agent(&registry, &opts, &make, &mut on_step)
        }));
        let result = std::fs::read(run_dir.join("result.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
        let last_frame = result
            .as_ref()
            .and_then(|r| r["steps"].as_u64())
            .and_then(|n| std::fs::read(run_dir.join(format!("frames/step_{n:06}.png"))).ok());
        let error = match outcome {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(e.to_string()),
            Err(_) => Some("the game stopped unexpectedly (panic); see the server log".into()),
        };
        session.publish(|v| {
            if let Some(frame) = last_frame {
                v.frame = Arc::new(frame);
            }
            if let Some(r) = &result {
                v.steps_done = r["steps"].as_u64().unwrap_or(0) as u32;
            }
            v.finished = result;
            v.error = error;
        });
    });
}

fn session_of(st: &AppState, id: &str) -> Result<Arc<Session>, ApiError> {
    st.plays
        .sessions
        .lock()
        .expect("sessions lock")
        .get(id)
        .cloned()
        .ok_or_else(|| not_found(format!("no play \"{id}\" on this server")))
}

pub async fn view(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = session_of(&st, &id)?;
    let v = s.snapshot();
    Ok(Json(s.json(&v)))
}

#[derive(Deserialize)]
pub struct InputRequest {
    pub action: Value,
}

/// One input = one step.
pub async fn input(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
    Json(req): Json<InputRequest>,
) -> Result<Json<Value>, ApiError> {
    let s = session_of(&st, &id)?;
    if !req.action.is_object() {
        return Err(bad_request(
            "action must be an object such as {\"action\": \"press_key\", \"key\": \"ArrowUp\"}",
        ));
    }
    let s2 = s.clone();
    let v = tokio::task::spawn_blocking(move || s2.send_and_wait(Input::Act(req.action)))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(Json(s.json(&v)))
}

/// Real-time mode: let the game run for the time since the last answer.
pub async fn watch(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = session_of(&st, &id)?;
    if !s.realtime {
        return Err(bad_request(
            "this play is in step mode: the game waits for your next input",
        ));
    }
    let s2 = s.clone();
    let v = tokio::task::spawn_blocking(move || s2.send_and_wait(Input::Watch))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(Json(s.json(&v)))
}

/// The page was closed (sent with `navigator.sendBeacon` on `pagehide`):
/// the play ends as `player_left`. Answers at once.
pub async fn leave(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<StatusCode, ApiError> {
    let s = session_of(&st, &id)?;
    let _ = s.tx.lock().expect("sender lock").send(Input::Leave);
    Ok(StatusCode::NO_CONTENT)
}

/// End a play now; the run directory keeps what was played.
pub async fn quit(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let s = session_of(&st, &id)?;
    let s2 = s.clone();
    let v = tokio::task::spawn_blocking(move || s2.send_and_wait(Input::Quit))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))??;
    Ok(Json(s.json(&v)))
}

pub async fn frame(
    State(st): State<Arc<AppState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Response, ApiError> {
    let s = session_of(&st, &id)?;
    let frame = s.snapshot().frame;
    if frame.is_empty() {
        return Err(not_found("no frame yet"));
    }
    Ok((
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        frame.as_ref().clone(),
    )
        .into_response())
}
