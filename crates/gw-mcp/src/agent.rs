//! The MCP agent: one more [`Agent`] behind the runtime's seam. The run is
//! an ordinary `gw_runtime::run_preset_with_agent` on its own thread; each
//! role's agent hands the observation to its seat (what the MCP session
//! reads) and blocks until the session sends the next call — the mechanism of
//! the web app's human player (`gw-web/src/play.rs`). So the step budget, the
//! action layer's validation, the evaluator, resets on failure and the run
//! directory are those of every other run.

use gw_agents::{Agent, AgentError, Observation, Reply, Turn};
use gw_core::registry::{Interface, Preset, Registry};
use gw_runtime::RunOptions;
use gw_runtime::run::run_preset_with_agent;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A session that makes no call for this long has left (its run ends with
/// `stop_reason: agent_left`).
pub const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

/// What a session sends to its role's agent.
pub enum Input {
    /// One action: the payload for the action layer and the caller's stated
    /// reason, if any.
    Act {
        payload: Value,
        reasoning: Option<String>,
    },
    /// Real-time mode: let the game run for the time since the last answer.
    Watch,
    /// The session ended.
    Quit,
}

/// What a session sees of its run.
#[derive(Clone, Default)]
pub struct View {
    /// Bumped whenever a new observation (or the end) is published.
    pub seq: u64,
    /// The run's first observation has been published.
    pub started: bool,
    /// The step the next action will be (1-based).
    pub step: u32,
    pub episode: u32,
    pub frame: Arc<Vec<u8>>,
    /// How this role's last action went: valid, and the action layer's words.
    pub last: Option<(bool, String)>,
    /// Set when the last step failed the episode and the game restarted.
    pub episode_note: Option<String>,
    /// `result.json` once the run ended.
    pub finished: Option<Value>,
    /// Why the run stopped without a result (a broken run directory…).
    pub error: Option<String>,
}

impl View {
    pub fn ended(&self) -> bool {
        self.finished.is_some() || self.error.is_some()
    }
}

/// One role's place in a run: the session that plays it talks to the agent
/// through here.
pub struct Seat {
    pub index: usize,
    pub role: String,
    tx: Mutex<Option<Sender<Input>>>,
    rx: Mutex<Option<Receiver<Input>>>,
    view: Mutex<View>,
    cv: Condvar,
    client: Mutex<Option<Value>>,
}

impl Seat {
    fn new(index: usize, role: String) -> Seat {
        let (tx, rx) = channel();
        Seat {
            index,
            role,
            tx: Mutex::new(Some(tx)),
            rx: Mutex::new(Some(rx)),
            view: Mutex::new(View::default()),
            cv: Condvar::new(),
            client: Mutex::new(None),
        }
    }

    fn publish(&self, f: impl FnOnce(&mut View)) {
        let mut v = self.view.lock().expect("view lock");
        f(&mut v);
        v.seq += 1;
        self.cv.notify_all();
    }

    pub fn snapshot(&self) -> View {
        self.view.lock().expect("view lock").clone()
    }

    /// Take the note about a restarted episode (said once).
    pub fn take_episode_note(&self) -> Option<String> {
        self.view.lock().expect("view lock").episode_note.take()
    }

    /// Send an input; `false` when the run no longer listens.
    pub fn send(&self, input: Input) -> bool {
        match self.tx.lock().expect("sender lock").as_ref() {
            Some(tx) => tx.send(input).is_ok(),
            None => false,
        }
    }

    /// The session left: the agent hears it at its next turn.
    pub fn quit(&self) {
        let tx = self.tx.lock().expect("sender lock").take();
        if let Some(tx) = tx {
            let _ = tx.send(Input::Quit);
        }
    }

    /// Wait until the view moves past `seq` (a new observation or the end),
    /// for at most `limit`. `None` when it did not.
    pub fn wait_past(&self, seq: u64, limit: Duration) -> Option<View> {
        let guard = self.view.lock().expect("view lock");
        let (guard, timeout) = self
            .cv
            .wait_timeout_while(guard, limit, |v| v.seq == seq && !v.ended())
            .expect("view lock");
        (!timeout.timed_out() || guard.seq != seq || guard.ended()).then(|| guard.clone())
    }

    /// Wait until the run's first observation (or its end), at most `limit`.
    pub fn wait_started(&self, limit: Duration) -> View {
        let guard = self.view.lock().expect("view lock");
        let (guard, _) = self
            .cv
            .wait_timeout_while(guard, limit, |v| !v.started && !v.ended())
            .expect("view lock");
        guard.clone()
    }
}

/// One run: its preset, folder and one seat per role.
pub struct Run {
    pub preset: Preset,
    pub role_presets: Vec<Preset>,
    pub dir: PathBuf,
    pub seats: Vec<Arc<Seat>>,
    pub interface: Interface,
    /// How long a cooperative step waits for the roles that have not acted.
    pub step_timeout: Duration,
    /// The current cooperative step's deadline (set when its observation is
    /// published).
    deadline: Mutex<Option<Instant>>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Run {
    pub fn new(
        preset: Preset,
        dir: PathBuf,
        interface: Interface,
        step_timeout: Duration,
    ) -> Arc<Run> {
        let role_presets = preset.role_presets();
        let seats = role_presets
            .iter()
            .enumerate()
            .map(|(i, p)| Arc::new(Seat::new(i, p.role.name.clone())))
            .collect();
        Arc::new(Run {
            preset,
            role_presets,
            dir,
            seats,
            interface,
            step_timeout,
            deadline: Mutex::new(None),
            thread: Mutex::new(None),
        })
    }

    pub fn cooperative(&self) -> bool {
        self.seats.len() > 1
    }

    pub fn set_client(&self, seat: usize, client: Value) {
        *self.seats[seat].client.lock().expect("client lock") = Some(client);
    }

    /// Start the run on its own thread (once every seat is taken).
    pub fn start(
        self: &Arc<Run>,
        registry: Arc<Registry>,
        preset_id: String,
        seed: u64,
        realtime: bool,
    ) {
        let run = self.clone();
        let handle = std::thread::spawn(move || {
            let mut opts = RunOptions::new(preset_id, seed, run.dir.clone());
            opts.realtime = realtime;
            let agent_run = run.clone();
            let make = move |preset: &Preset, _seed: u64| {
                let index = agent_run
                    .role_presets
                    .iter()
                    .position(|p| p.role.name == preset.role.name)
                    .unwrap_or(0);
                let seat = agent_run.seats[index].clone();
                let rx = seat.rx.lock().expect("rx lock").take().ok_or_else(|| {
                    gw_runtime::RunError::Runtime("the session's input channel is gone".into())
                })?;
                let client = seat.client.lock().expect("client lock").clone();
                Ok(Box::new(McpAgent {
                    run: agent_run.clone(),
                    seat,
                    rx,
                    client,
                }) as Box<dyn Agent>)
            };
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_preset_with_agent(&registry, &opts, &make, &mut |_, _| {})
            }));
            let result = std::fs::read(run.dir.join("result.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
            let last_frame = result
                .as_ref()
                .and_then(|r| r["steps"].as_u64())
                .and_then(|n| std::fs::read(run.dir.join(format!("frames/step_{n:06}.png"))).ok());
            let error = match outcome {
                Ok(Ok(_)) => None,
                Ok(Err(e)) => Some(e.to_string()),
                Err(_) => Some("the game stopped unexpectedly (panic); see the server log".into()),
            };
            if let Some(e) = &error {
                eprintln!("gameworld mcp: run {}: {e}", run.dir.display());
            }
            for seat in &run.seats {
                seat.publish(|v| {
                    if let Some(frame) = &last_frame {
                        v.frame = Arc::new(frame.clone());
                    }
                    if let Some(r) = &result {
                        v.step = r["steps"].as_u64().unwrap_or(0) as u32 + 1;
                    }
                    v.finished = result.clone();
                    v.error = if result.is_some() {
                        None
                    } else {
                        error.clone()
                    };
                });
            }
        });
        *self.thread.lock().expect("thread lock") = Some(handle);
    }

    /// Tell every seat's agent that its session left.
    pub fn quit_all(&self) {
        for s in &self.seats {
            s.quit();
        }
    }

    /// Wait for the run's thread (its `result.json` is written then).
    pub fn join(&self) {
        let handle = self.thread.lock().expect("thread lock").take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }

    pub fn ended(&self) -> bool {
        self.seats[0].snapshot().ended()
    }
}

/// The agent of one role: observations go to the seat, calls come back.
struct McpAgent {
    run: Arc<Run>,
    seat: Arc<Seat>,
    rx: Receiver<Input>,
    client: Option<Value>,
}

impl McpAgent {
    fn left(why: &str) -> AgentError {
        AgentError::Left(why.to_string())
    }
}

impl Agent for McpAgent {
    fn id(&self) -> &str {
        gw_core::registry::MCP_AGENT
    }
    fn interface(&self) -> Interface {
        self.run.interface
    }
    fn act(&mut self, obs: &Observation) -> Result<Reply, AgentError> {
        loop {
            if let Turn::Act(reply) = self.turn(obs)? {
                return Ok(reply);
            }
        }
    }
    fn turn(&mut self, obs: &Observation) -> Result<Turn, AgentError> {
        let frame = Arc::new(obs.frame_png.to_vec());
        let (step, episode) = (obs.step, obs.episode);
        let coop = self.run.cooperative();
        if self.seat.index == 0 {
            // Every role sees the same observation: the first role's turn
            // shows it to all seats and starts the step's clock.
            *self.run.deadline.lock().expect("deadline lock") =
                Some(Instant::now() + self.run.step_timeout);
            for seat in &self.run.seats {
                let frame = frame.clone();
                seat.publish(|v| {
                    v.started = true;
                    v.frame = frame;
                    v.step = step;
                    v.episode = episode;
                });
            }
        }
        loop {
            let limit = if coop {
                let deadline = self
                    .run
                    .deadline
                    .lock()
                    .expect("deadline lock")
                    .unwrap_or_else(Instant::now);
                deadline.saturating_duration_since(Instant::now())
            } else {
                IDLE_LIMIT
            };
            return match self.rx.recv_timeout(limit) {
                Ok(Input::Act { payload, reasoning }) => Ok(Turn::Act(Reply {
                    payload: Some(payload),
                    reasoning,
                    ..Reply::default()
                })),
                // A cooperative step waits for every role: no role watches
                // alone (the other roles' proposals would be dropped).
                Ok(Input::Watch) if coop => continue,
                Ok(Input::Watch) => Ok(Turn::Watch),
                Ok(Input::Quit) | Err(RecvTimeoutError::Disconnected) => Err(Self::left(
                    "the MCP client disconnected before the run ended",
                )),
                Err(RecvTimeoutError::Timeout) if coop => Ok(Turn::Act(Reply {
                    payload: None,
                    parse_error: Some(format!(
                        "role {} made no action call within {} s of the step's observation",
                        self.seat.role,
                        self.run.step_timeout.as_secs()
                    )),
                    ..Reply::default()
                })),
                Err(RecvTimeoutError::Timeout) => Err(Self::left(&format!(
                    "the MCP client made no call for {} minutes",
                    IDLE_LIMIT.as_secs() / 60
                ))),
            };
        }
    }
    fn observe_outcome(&mut self, valid: bool, summary: &str) {
        let mut v = self.seat.view.lock().expect("view lock");
        v.last = Some((valid, summary.chars().take(500).collect()));
    }
    fn observe_episode_end(&mut self, _png: &[u8], _path: Option<&str>, note: &str) {
        let mut v = self.seat.view.lock().expect("view lock");
        v.episode_note = Some(note.to_string());
    }
    fn client(&self) -> Option<Value> {
        self.client.clone()
    }
}
