//! The MCP side: one [`Session`] (an rmcp `ServerHandler`) per MCP session.
//! Its `initialize` claims a seat (a role of a run) in the [`Hub`], which
//! starts the run once every role of it has a session; its tools talk to the
//! seat. Over stdio the one session plays one run; over streamable HTTP every
//! session gets its own run (a cooperative game: one session per role).

use crate::McpOptions;
use crate::agent::{Input, Run, View};
#[cfg(test)]
use crate::tools::COMPUTER as COMPUTER_TOOL;
use crate::tools::{self, OBSERVE};
use base64::Engine;
use gw_core::registry::{Interface, Preset, Registry};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// How long a call waits for the game to answer (a step of the open world
/// renders a 3D frame; a cooperative step also waits for the other roles).
const ANSWER_WAIT: Duration = Duration::from_secs(120);

/// Everything the sessions of one server share.
pub struct Hub {
    registry: Arc<Registry>,
    opts: McpOptions,
    /// `<game_id>+<task_id>+mcp[,mcp…]`.
    preset_id: String,
    preset: Preset,
    /// Per role: its tools and the text of `observe`.
    tools: Vec<Vec<Tool>>,
    briefings: Vec<String>,
    state: Mutex<HubState>,
    live: AtomicUsize,
}

#[derive(Default)]
struct HubState {
    /// A cooperative run still waiting for sessions, and its next free seat.
    pending: Option<(Arc<Run>, usize)>,
    runs: Vec<Arc<Run>>,
}

impl Hub {
    pub fn new(registry: Arc<Registry>, opts: McpOptions) -> Result<Arc<Hub>, String> {
        let parts: Vec<&str> = opts.preset.split('+').collect();
        if parts.len() != 2 || parts.iter().any(|p| p.trim().is_empty()) {
            return Err(format!(
                "\"{}\" is not <game_id>+<task_id>: the MCP client is the agent, so the preset names no model (e.g. `gameworld mcp 01_2048+01_01`)",
                opts.preset
            ));
        }
        let game = registry
            .game(parts[0])
            .ok_or_else(|| format!("unknown game \"{}\"; see `gameworld list games`", parts[0]))?;
        let roles = game.roles.len().max(1);
        let agents = if game.is_cooperative() {
            vec![gw_core::registry::MCP_AGENT; roles].join(",")
        } else {
            gw_core::registry::MCP_AGENT.to_string()
        };
        let preset_id = format!("{}+{agents}", opts.preset);
        let preset = registry.resolve_preset(&preset_id)?;
        let mut tool_lists = Vec::new();
        let mut briefings = Vec::new();
        for p in preset.role_presets() {
            tool_lists.push(
                tools::tools(&p, opts.interface)
                    .into_iter()
                    .map(|t| {
                        let schema = match t.schema {
                            Value::Object(m) => m,
                            _ => serde_json::Map::new(),
                        };
                        Tool::new(t.name, t.description, Arc::new(schema))
                    })
                    .collect(),
            );
            let mut text = tools::briefing(&p, opts.interface)?;
            if preset.is_cooperative() {
                text.push_str(&format!(
                    "\n\nYou play the role \"{}\" of {} roles; each role is one MCP session. A step is played when every role has called an action (a role that has not called one within {} s sends none).",
                    p.role.name,
                    preset.players.len(),
                    opts.step_timeout.as_secs()
                ));
            }
            if opts.realtime {
                text.push_str(
                    "\n\nReal-time mode: the game keeps running between your calls by the time that passed.",
                );
            }
            briefings.push(text);
        }
        Ok(Arc::new(Hub {
            registry,
            preset_id,
            preset,
            tools: tool_lists,
            briefings,
            opts,
            state: Mutex::new(HubState::default()),
            live: AtomicUsize::new(0),
        }))
    }

    pub fn cooperative(&self) -> bool {
        self.preset.is_cooperative()
    }

    /// Every run this server started.
    pub fn runs(&self) -> Vec<Arc<Run>> {
        self.state.lock().expect("hub lock").runs.clone()
    }

    /// The run directory of a new run.
    fn new_run_dir(&self, n: u64) -> Result<PathBuf, String> {
        if self.opts.one_run {
            return Ok(self.opts.out.clone());
        }
        // One folder per run under --out: run-001, run-002… (a number taken
        // by an earlier server on the same folder is skipped).
        std::fs::create_dir_all(&self.opts.out).map_err(|e| {
            format!(
                "cannot create {} for the runs: {e}",
                self.opts.out.display()
            )
        })?;
        for k in n..n + 100_000 {
            let dir = self.opts.out.join(format!("run-{k:03}"));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(dir),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
            }
        }
        Err(format!("{} holds too many runs", self.opts.out.display()))
    }

    /// Seat a new session: the next free role of the run waiting for
    /// sessions, or role 1 of a new run. The run starts when its last role
    /// is seated.
    fn join(&self, client: Value) -> Result<(Arc<Run>, usize), String> {
        let mut st = self.state.lock().expect("hub lock");
        if self.live.load(Ordering::SeqCst) >= self.opts.max_sessions {
            return Err(format!(
                "this server already plays {} MCP session(s), its --max-sessions; end one (or restart the server with a larger --max-sessions) and connect again",
                self.opts.max_sessions
            ));
        }
        if self.opts.one_run && !st.runs.is_empty() {
            return Err(
                "this server plays one run over stdio and it has been started; start another `gameworld mcp` for another run"
                    .into(),
            );
        }
        let (run, seat) = match st.pending.take() {
            Some((run, seat)) => (run, seat),
            None => {
                let dir = self.new_run_dir(st.runs.len() as u64 + 1)?;
                let run = Run::new(
                    self.preset.clone(),
                    dir,
                    self.opts.interface,
                    self.opts.step_timeout,
                );
                st.runs.push(run.clone());
                (run, 0)
            }
        };
        run.set_client(seat, client);
        self.live.fetch_add(1, Ordering::SeqCst);
        if seat + 1 < run.seats.len() {
            st.pending = Some((run.clone(), seat + 1));
        } else {
            run.start(
                self.registry.clone(),
                self.preset_id.clone(),
                self.opts.seed,
                self.opts.realtime,
            );
        }
        Ok((run, seat))
    }
}

/// What a session holds; its drop (the session ended) tells the run.
struct Seated {
    hub: Arc<Hub>,
    run: Arc<Run>,
    seat: usize,
}

impl Drop for Seated {
    fn drop(&mut self) {
        self.hub.live.fetch_sub(1, Ordering::SeqCst);
        if !self.run.seats.iter().all(|s| s.snapshot().started) {
            // A cooperative run that never started: its other sessions
            // cannot play it either.
            self.run.quit_all();
        }
        self.run.seats[self.seat].quit();
    }
}

/// One MCP session.
pub struct Session {
    hub: Arc<Hub>,
    seated: Arc<OnceLock<Seated>>,
}

impl Session {
    pub fn new(hub: Arc<Hub>) -> Session {
        Session {
            hub,
            seated: Arc::new(OnceLock::new()),
        }
    }

    fn role(&self) -> usize {
        self.seated.get().map(|s| s.seat).unwrap_or(0)
    }
}

fn png_block(frame: &[u8]) -> Option<ContentBlock> {
    (!frame.is_empty()).then(|| {
        ContentBlock::image(
            base64::engine::general_purpose::STANDARD.encode(frame),
            "image/png",
        )
    })
}

fn result(frame: &[u8], text: String, error: bool) -> CallToolResponse {
    let mut content: Vec<ContentBlock> = png_block(frame).into_iter().collect();
    content.push(ContentBlock::text(text));
    if error {
        CallToolResult::error(content).into()
    } else {
        CallToolResult::success(content).into()
    }
}

fn text_error(text: impl Into<String>) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(text.into())]).into()
}

impl Session {
    /// The answer to any call once the run has ended.
    fn finished(&self, run: &Run, v: &View) -> CallToolResponse {
        let text = match (&v.finished, &v.error) {
            (Some(r), _) => tools::finished_text(r, &run.dir),
            (None, Some(e)) => format!("The run has stopped: {e}"),
            (None, None) => "The run has stopped.".into(),
        };
        result(&v.frame, text, true)
    }

    fn observe(&self, run: &Run, seat: usize) -> CallToolResponse {
        let s = &run.seats[seat];
        let mut v = s.snapshot();
        if self.hub.opts.realtime && !run.cooperative() && !v.ended() {
            // The game ran while the client thought: show where it is now.
            let seq = v.seq;
            if s.send(Input::Watch)
                && let Some(next) = s.wait_past(seq, ANSWER_WAIT)
            {
                v = next;
            }
        }
        if v.ended() {
            return self.finished(run, &v);
        }
        let mut text = self.hub.briefings[seat].clone();
        text.push_str("\n\n");
        text.push_str(&tools::step_line(
            v.step,
            v.episode,
            run.preset.task.max_steps,
        ));
        result(&v.frame, text, false)
    }

    fn act(
        &self,
        run: &Run,
        seat: usize,
        name: &str,
        args: &serde_json::Map<String, Value>,
    ) -> CallToolResponse {
        let s = &run.seats[seat];
        let (payload, reasoning) = tools::payload(self.hub.opts.interface, name, args);
        let seq = s.snapshot().seq;
        if !s.send(Input::Act { payload, reasoning }) {
            let v = s.snapshot();
            return self.finished(run, &v);
        }
        let limit = if run.cooperative() {
            run.step_timeout + ANSWER_WAIT
        } else {
            ANSWER_WAIT
        };
        let Some(v) = s.wait_past(seq, limit) else {
            return text_error(format!(
                "the game did not answer within {} s; call observe to see where it stands",
                limit.as_secs()
            ));
        };
        let (valid, summary) = v
            .last
            .clone()
            .unwrap_or((false, "the action was not played".into()));
        let mut text = if valid {
            format!("Step {}: {summary}.", v.step.saturating_sub(1))
        } else {
            format!(
                "Step {}: {summary}. The step was used up; the game went on without your input.",
                v.step.saturating_sub(1)
            )
        };
        if let Some(note) = s.take_episode_note() {
            text.push_str(&format!("\nNote: {note}."));
        }
        match (&v.finished, &v.error) {
            (Some(r), _) => {
                text.push('\n');
                text.push_str(&tools::finished_text(r, &run.dir));
            }
            (None, Some(e)) => text.push_str(&format!("\nThe run has stopped: {e}")),
            (None, None) => {
                text.push('\n');
                text.push_str(&tools::step_line(
                    v.step,
                    v.episode,
                    run.preset.task.max_steps,
                ));
            }
        }
        result(&v.frame, text, !valid)
    }
}

impl ServerHandler for Session {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("gameworld", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "You play {} ({}), task {}. Call `observe` to see the screen and the task; every other tool plays one step and returns the next screen.",
                self.hub.preset.game.name, self.hub.preset.game.id, self.hub.preset.task.id
            ))
    }

    /// Sessions (one run each) and the `initialize` handshake that names the
    /// client are those of the protocol versions up to 2025-11-25.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        context.peer.set_peer_info(request.clone());
        let info = self.negotiate_initialize(&request)?;
        if self.seated.get().is_some() {
            return Ok(info);
        }
        let client = json!({
            "name": request.client_info.name,
            "version": request.client_info.version,
        });
        let (run, seat) = self
            .hub
            .join(client)
            .map_err(|e| McpError::invalid_request(e, None))?;
        let _ = self.seated.set(Seated {
            hub: self.hub.clone(),
            run: run.clone(),
            seat,
        });
        if !run.cooperative() {
            // Answer once the first frame is there (or the run failed to start).
            let s = run.seats[seat].clone();
            let v = tokio::task::spawn_blocking(move || s.wait_started(ANSWER_WAIT))
                .await
                .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            if let (Some(e), None) = (&v.error, &v.finished) {
                return Err(McpError::internal_error(
                    format!("the run could not start: {e}"),
                    None,
                ));
            }
        }
        Ok(info)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            self.hub.tools[self.role()].clone(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(seated) = self.seated.get() else {
            return Ok(text_error(
                "this session has no run: it did not complete the initialize handshake",
            ));
        };
        let run = seated.run.clone();
        let seat = seated.seat;
        let v = run.seats[seat].snapshot();
        if v.ended() {
            return Ok(self.finished(&run, &v));
        }
        if !v.started {
            let joined = self
                .hub
                .state
                .lock()
                .expect("hub lock")
                .pending
                .as_ref()
                .map(|(_, n)| *n)
                .unwrap_or(0);
            return Ok(text_error(format!(
                "the run waits for its other roles: {joined} of {} MCP sessions have joined; connect one MCP session per role",
                run.seats.len()
            )));
        }
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let this = Session {
            hub: self.hub.clone(),
            seated: self.seated.clone(),
        };
        let answer = tokio::task::spawn_blocking(move || {
            if name == OBSERVE {
                this.observe(&run, seat)
            } else {
                this.act(&run, seat, &name, &args)
            }
        })
        .await
        .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        Ok(answer)
    }
}

/// `computer-use` or `generalist`.
pub fn parse_interface(s: &str) -> Result<Interface, String> {
    match s {
        "generalist" => Ok(Interface::Generalist),
        "computer-use" | "computer_use" => Ok(Interface::ComputerUse),
        other => Err(format!(
            "--interface {other}: use generalist or computer-use"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Transport;

    fn registry() -> Arc<Registry> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
        Arc::new(Registry::load(&[root]).unwrap())
    }

    fn options(preset: &str, out: PathBuf, interface: Interface) -> McpOptions {
        McpOptions {
            preset: preset.into(),
            seed: 1,
            out,
            interface,
            realtime: false,
            transport: Transport::Http,
            bind: std::net::IpAddr::from([127, 0, 0, 1]),
            port: 0,
            max_sessions: 1,
            step_timeout: Duration::from_secs(60),
            one_run: false,
        }
    }

    fn seat(hub: &Arc<Hub>) -> (Session, Arc<Run>) {
        let (run, seat) = hub.join(json!({"name": "unit", "version": "9"})).unwrap();
        let session = Session::new(hub.clone());
        let _ = session.seated.set(Seated {
            hub: hub.clone(),
            run: run.clone(),
            seat,
        });
        run.seats[seat].wait_started(ANSWER_WAIT);
        (session, run)
    }

    /// `isError` and the text of a tool result.
    fn read(r: CallToolResponse) -> (bool, String, bool) {
        let CallToolResponse::Complete(r) = r else {
            panic!("not a complete result")
        };
        let v = serde_json::to_value(&r).unwrap();
        let text = v["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let image = v["content"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["type"] == "image");
        (v["isError"].as_bool().unwrap_or(false), text, image)
    }

    #[test]
    fn preset_must_name_game_and_task_only() {
        let dir = tempfile::tempdir().unwrap();
        let o = |p: &str| options(p, dir.path().into(), Interface::Generalist);
        let e = Hub::new(registry(), o("01_2048+01_01+random"))
            .err()
            .unwrap();
        assert!(e.contains("<game_id>+<task_id>"), "{e}");
        let e = Hub::new(registry(), o("99_nothing+01")).err().unwrap();
        assert!(e.contains("unknown game \"99_nothing\""), "{e}");
    }

    #[test]
    fn bad_calls_count_as_invalid_steps_and_leaving_ends_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let hub = Hub::new(
            registry(),
            options("01_2048+01_01", dir.path().into(), Interface::ComputerUse),
        )
        .unwrap();
        let (session, run) = seat(&hub);
        // --max-sessions 1: a second session is refused while this one plays.
        let refused = hub
            .join(json!({"name": "other", "version": "1"}))
            .err()
            .unwrap();
        assert!(refused.contains("--max-sessions"), "{refused}");

        let (err, text, image) = read(session.observe(&run, 0));
        assert!(!err && image);
        assert!(text.contains("Step 1 of 100: 100 steps left."), "{text}");
        let key = |k: &str| {
            json!({"action": "key", "key": k})
                .as_object()
                .unwrap()
                .clone()
        };
        let (err, text, _) = read(session.act(&run, 0, COMPUTER_TOOL, &key("x")));
        assert!(err && text.contains("\"x\""), "{text}");
        let (err, text, _) = read(session.act(&run, 0, "jump", &serde_json::Map::new()));
        assert!(err && text.contains("unknown action \"jump\""), "{text}");
        let (err, text, image) = read(session.act(&run, 0, COMPUTER_TOOL, &key("ArrowLeft")));
        assert!(!err && image, "{text}");
        assert!(text.contains("Step 4 of 100: 97 steps left."), "{text}");

        drop(session);
        run.join();
        let r: Value =
            serde_json::from_slice(&std::fs::read(run.dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(r["stop_reason"], "agent_left");
        assert_eq!(r["model"], "mcp");
        assert_eq!(r["client"], json!({"name": "unit", "version": "9"}));
        assert_eq!(
            (r["proposed_actions"].as_u64(), r["valid_actions"].as_u64()),
            (Some(3), Some(1))
        );
        assert_eq!(r["invalid_out_of_space"], 2);
        assert!(r["error"].is_null());
        assert!(run.dir.ends_with("run-001"));
        // The session is gone: another may join now.
        assert!(hub.join(json!({"name": "next", "version": "1"})).is_ok());
        hub.runs().iter().for_each(|r| {
            r.quit_all();
            r.join()
        });
    }

    #[test]
    fn calls_after_the_end_say_the_run_finished() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = options(
            "01_2048+01_01",
            dir.path().join("one"),
            Interface::Generalist,
        );
        o.one_run = true;
        let hub = Hub::new(registry(), o).unwrap();
        let (session, run) = seat(&hub);
        // Waiting out the step budget with the `wait` action.
        let mut last = String::new();
        for _ in 0..100 {
            let (err, text, _) = read(session.act(&run, 0, "wait", &serde_json::Map::new()));
            assert!(!err, "{text}");
            last = text;
        }
        assert!(
            last.contains("The run has finished: not solved (stop reason max_steps_exhausted)"),
            "{last}"
        );
        let (err, text, _) = read(session.act(&run, 0, "move_up", &serde_json::Map::new()));
        assert!(err && text.contains("The run has finished"), "{text}");
        let (err, text, image) = read(session.observe(&run, 0));
        assert!(
            err && image && text.contains("The run has finished"),
            "{text}"
        );
        run.join();
        assert!(run.dir.ends_with("one"));
        let r: Value =
            serde_json::from_slice(&std::fs::read(run.dir.join("result.json")).unwrap()).unwrap();
        assert_eq!(
            (r["steps"].as_u64(), r["valid_actions"].as_u64()),
            (Some(100), Some(100))
        );
        drop(session);
    }
}
