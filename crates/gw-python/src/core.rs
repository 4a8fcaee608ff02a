//! One environment without Python: a game under a resolved task, driven
//! through the runtime's own [`Stepper`] (action layer + evaluator), with
//! its frame written as RGB8 at the requested size.
//!
//! Episode semantics (the CLI's run): `reset(seed)` starts a fresh stepper,
//! exactly what `gameworld run --seed SEED` does; a failed game with
//! `continue_on_fail` deals a new board inside the same episode (unless
//! `end_on_fail`), the evaluator's stop reasons end it. The reward of a step
//! is the best progress it gained, so an episode's rewards sum to its best
//! progress (0..1).

use crate::frame::Resampler;
use gw_core::registry::{Backend, Interface, Preset, Registry, RoleSpec};
use gw_core::{Action, Decision, Game, InvalidKind, MouseButton, Rng, Stepper, StopReason};
use serde_json::{Value, json};
use std::sync::Arc;

/// Stream of the seeds an environment draws for its own automatic resets.
const AUTORESET_STREAM: u64 = 0x5EED_A070;

/// The kinds of computer-use action, in the order of the `type` index.
pub const CU_KINDS: [&str; 4] = ["key", "click", "drag", "wait"];

/// A fresh game for the preset: a native game from gw-games, or a
/// `backend: browser` game opened in `chromium` (launched on first use and
/// shared by the environment's later resets).
pub fn create_game(
    preset: &Preset,
    chromium: &mut Option<Arc<gw_browser::Chromium>>,
) -> Result<Box<dyn Game>, String> {
    let spec = &preset.game;
    match spec.backend {
        Backend::Native => gw_games::create(&spec.id).ok_or_else(|| {
            format!(
                "game \"{}\" has no native implementation in this build",
                spec.id
            )
        }),
        Backend::Browser => {
            let source = match (spec.folder(), &spec.url) {
                (Some(dir), _) => gw_browser::Source::Folder(dir),
                (None, Some(url)) => gw_browser::Source::Url(url.clone()),
                (None, None) => {
                    return Err(format!(
                        "browser game \"{}\" names neither path nor url",
                        spec.id
                    ));
                }
            };
            let viewport = (spec.viewport.width, spec.viewport.height);
            let c = match chromium {
                Some(c) => c.clone(),
                None => {
                    let c = Arc::new(gw_browser::Chromium::launch(viewport).map_err(|e| {
                        format!("browser game \"{}\" needs Chromium: {e}", spec.id)
                    })?);
                    *chromium = Some(c.clone());
                    c
                }
            };
            let bspec = gw_browser::BrowserSpec::new(
                &spec.id,
                source,
                preset.task.url_suffix.as_deref().unwrap_or(""),
                viewport,
            );
            gw_browser::BrowserGame::open_in(c, bspec)
                .map(|g| Box::new(g) as Box<dyn Game>)
                .map_err(|e| e.to_string())
        }
    }
}

/// Everything fixed for one environment id: shared by all copies.
pub struct Spec {
    pub preset: Preset,
    pub interface: Interface,
    pub viewport: (u32, u32),
    pub render_size: (u32, u32),
    /// Generalist: one semantic payload per discrete action.
    pub table: Vec<Value>,
    /// Generalist: a readable name per discrete action (`reveal_cell:e5`).
    pub names: Vec<String>,
    /// Computer-use: the role's keys, in the order of the `key` index.
    pub keys: Vec<String>,
    /// Computer-use: the kinds this role can use (subset of [`CU_KINDS`]).
    pub kinds: Vec<&'static str>,
    pub end_on_fail: bool,
    /// Cooperative games: each role's name and generalist table, in the
    /// game's role order (one entry, the role above, for other games).
    pub roles: Vec<RoleTable>,
    resampler: Resampler,
}

/// One role's generalist actions.
pub struct RoleTable {
    pub name: String,
    pub table: Vec<Value>,
    pub names: Vec<String>,
}

impl Spec {
    pub fn new(
        registry: &Registry,
        game_task: &str,
        interface: Interface,
        render_size: Option<(u32, u32)>,
        end_on_fail: bool,
    ) -> Result<Spec, String> {
        let parts: Vec<&str> = game_task.split('+').collect();
        if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) {
            return Err(format!(
                "environment id \"{game_task}\" must be <game_id>+<task_id> (e.g. 01_2048+01_01)"
            ));
        }
        let preset = registry.resolve_preset(&format!("{game_task}+random"))?;
        let viewport = match preset.game.backend {
            Backend::Native => create_game(&preset, &mut None)?.viewport(),
            Backend::Browser => {
                // Say now, not at the first reset, when Chromium is missing.
                gw_browser::find_chromium().map_err(|e| {
                    format!("browser game \"{}\" needs Chromium: {e}", preset.game.id)
                })?;
                (preset.game.viewport.width, preset.game.viewport.height)
            }
        };
        let render_size = render_size.unwrap_or(viewport);
        if render_size.0 == 0 || render_size.1 == 0 || render_size.0 > 8192 || render_size.1 > 8192
        {
            return Err(format!(
                "render_size {}x{} must be between 1x1 and 8192x8192",
                render_size.0, render_size.1
            ));
        }
        let (table, names) = discrete_table(&preset.role);
        let roles = preset
            .players
            .iter()
            .map(|p| {
                let (table, names) = discrete_table(&p.role);
                RoleTable {
                    name: p.role.name.clone(),
                    table,
                    names,
                }
            })
            .collect();
        let controls = preset.role.controls();
        let mut kinds = Vec::new();
        if !controls.allowed_keys.is_empty() {
            kinds.push("key");
        }
        if controls.allow_clicks {
            kinds.extend(["click", "drag"]);
        }
        kinds.push("wait");
        Ok(Spec {
            interface,
            viewport,
            render_size,
            table,
            names,
            keys: controls.allowed_keys.clone(),
            kinds,
            end_on_fail,
            roles,
            resampler: Resampler::new(viewport, render_size),
            preset,
        })
    }

    pub fn frame_len(&self) -> usize {
        self.render_size.0 as usize * self.render_size.1 as usize * 3
    }
}

/// The generalist's discrete actions: every semantic control once; a control
/// with `cell_bindings` once per cell; a required parameter with an `enum`
/// once per choice; a required free-text parameter once per single-character
/// key of the role (Wordle types a letter per action).
fn discrete_table(role: &RoleSpec) -> (Vec<Value>, Vec<String>) {
    let mut table = Vec::new();
    let mut names = Vec::new();
    let letters = role.single_char_keys();
    for c in &role.semantic_controls {
        if let Some(cells) = &c.cell_bindings {
            for cell in cells.keys() {
                table.push(json!({"action": c.id, "cell": cell}));
                names.push(format!("{}:{cell}", c.id));
            }
            continue;
        }
        let required = c
            .parameters
            .iter()
            .find(|p| c.required.contains(&p.name) && p.name != "cell");
        match required {
            Some(p) => {
                let values = p.choices.clone().unwrap_or_else(|| letters.clone());
                for v in values {
                    let mut payload = json!({"action": c.id});
                    payload[&p.name] = Value::String(v.clone());
                    table.push(payload);
                    names.push(format!("{}:{v}", c.id));
                }
            }
            None => {
                table.push(json!({"action": c.id}));
                names.push(c.id.clone());
            }
        }
    }
    (table, names)
}

/// One computer-use action as numbers (the `Dict` space, flattened).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CuAction {
    pub kind: i64,
    pub key: i64,
    pub button: i64,
    pub point: [f64; 2],
    pub to: [f64; 2],
    pub duration: f64,
}

/// What one step proposes.
#[derive(Clone, Debug)]
pub enum Proposal {
    Index(i64),
    Cu(CuAction),
    /// A raw GameWorld payload (what a model would reply), read by the same
    /// action layer as the CLI's agents.
    Payload(Value),
}

/// What one step produced (the observation is written separately).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOut {
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    pub score: f64,
    pub progress: f64,
    pub best_progress: f64,
    /// `no_tool_call` / `out_of_space` when the proposal was not executed.
    pub invalid: Option<&'static str>,
    pub stop_reason: Option<&'static str>,
    /// The game failed and a new board was dealt inside this episode.
    pub game_reset: bool,
    pub step: u32,
    /// Boards played in this episode before the current one.
    pub board: u32,
}

fn invalid_name(k: InvalidKind) -> &'static str {
    match k {
        InvalidKind::NoToolCall => "no_tool_call",
        InvalidKind::OutOfSpace => "out_of_space",
    }
}

pub fn invalid_code(kind: Option<&str>) -> i8 {
    match kind {
        None => 0,
        Some("no_tool_call") => 1,
        _ => 2,
    }
}

pub struct EnvCore {
    pub spec: Arc<Spec>,
    stepper: Option<Stepper>,
    /// The viewport-sized frame (drawn, then shrunk, by games that draw
    /// only at their viewport; `render()`).
    pixmap: tiny_skia::Pixmap,
    /// A frame of the render size, for games that draw at any size
    /// ([`gw_core::Game::render_sized`]); `None` when it is the viewport.
    sized: Option<tiny_skia::Pixmap>,
    /// The Chromium a browser game runs in, kept across resets.
    chromium: Option<Arc<gw_browser::Chromium>>,
    best: f64,
    done: bool,
    seeds: Rng,
}

impl EnvCore {
    pub fn new(spec: Arc<Spec>) -> Result<EnvCore, String> {
        let (w, h) = spec.viewport;
        let pixmap = tiny_skia::Pixmap::new(w, h).ok_or("the game's viewport is empty")?;
        let sized = if spec.render_size == spec.viewport {
            None
        } else {
            let (w, h) = spec.render_size;
            Some(tiny_skia::Pixmap::new(w, h).ok_or("the render size is empty")?)
        };
        Ok(EnvCore {
            spec,
            stepper: None,
            pixmap,
            sized,
            chromium: None,
            best: 0.0,
            done: true,
            seeds: Rng::new(0, AUTORESET_STREAM),
        })
    }

    /// Start an episode on `seed` (the CLI's `--seed`).
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        let game = create_game(&self.spec.preset, &mut self.chromium)?;
        let mut stepper = Stepper::new(game, &self.spec.preset, seed)?;
        // The gameAPI snapshot is built only when asked for (`state()`).
        stepper.set_snapshots(false);
        self.best = stepper.evaluator().best_progress();
        self.stepper = Some(stepper);
        self.done = false;
        self.seeds = Rng::new(seed, AUTORESET_STREAM);
        Ok(())
    }

    /// Start the next episode on a seed drawn from the last reset's seed
    /// (vector auto-reset): reproducible from the first seed alone.
    pub fn reset_next(&mut self) -> Result<(), String> {
        let seed = self.seeds.next_u64() >> 1;
        let seeds = self.seeds.clone();
        self.reset(seed)?;
        self.seeds = seeds;
        Ok(())
    }

    pub fn done(&self) -> bool {
        self.done
    }

    pub fn stepper(&self) -> Result<&Stepper, String> {
        self.stepper
            .as_ref()
            .ok_or_else(|| "call reset() before step()".to_string())
    }

    fn payload(&self, p: &Proposal) -> Result<Value, String> {
        let spec = &self.spec;
        match (p, spec.interface) {
            (Proposal::Payload(v), _) => Ok(v.clone()),
            (Proposal::Index(i), Interface::Generalist) => usize::try_from(*i)
                .ok()
                .and_then(|i| spec.table.get(i))
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "action {i} is outside Discrete({}) (the semantic actions of {})",
                        spec.table.len(),
                        spec.preset.game.id
                    )
                }),
            (Proposal::Cu(a), Interface::ComputerUse) => Ok(cu_action(spec, a)?.to_value()),
            (Proposal::Index(_), Interface::ComputerUse) => Err(
                "a computer-use environment takes a dict action (type, key, button, point, to, duration)"
                    .into(),
            ),
            (Proposal::Cu(_), Interface::Generalist) => {
                Err("a generalist environment takes an integer action".into())
            }
        }
    }

    pub fn step(&mut self, p: &Proposal) -> Result<StepOut, String> {
        let payload = self.payload(p)?;
        if self.done {
            return Err("the episode has ended; call reset()".into());
        }
        let interface = self.spec.interface;
        let stepper = self.stepper.as_mut().ok_or("call reset() before step()")?;
        let rec = stepper.step_keep_terminal(interface, Some(&payload))?;
        let invalid = rec.invalid_kind().map(invalid_name);
        self.after_step(&rec.eval, rec.step, rec.episode, invalid)
    }

    /// One cooperative step: role i takes generalist action `actions[i]`
    /// (all chosen against the same observation). Returns the shared
    /// outcome and each role's invalid kind.
    pub fn step_joint(
        &mut self,
        actions: &[i64],
    ) -> Result<(StepOut, Vec<Option<&'static str>>), String> {
        let roles = &self.spec.roles;
        if actions.len() != roles.len() {
            return Err(format!(
                "{} actions for {} roles ({})",
                actions.len(),
                roles.len(),
                roles
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let payloads = actions
            .iter()
            .zip(roles)
            .map(|(&i, r)| {
                usize::try_from(i)
                    .ok()
                    .and_then(|i| r.table.get(i))
                    .ok_or_else(|| {
                        format!(
                            "action {i} of {} is outside Discrete({})",
                            r.name,
                            r.table.len()
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if self.done {
            return Err("the episode has ended; call reset()".into());
        }
        let stepper = self.stepper.as_mut().ok_or("call reset() before step()")?;
        let proposals: Vec<(Interface, Option<&Value>)> = payloads
            .iter()
            .map(|p| (Interface::Generalist, Some(*p)))
            .collect();
        let rec = stepper.step_joint_keep_terminal(&proposals)?;
        let invalid: Vec<_> = rec
            .roles
            .iter()
            .map(|r| r.invalid_kind().map(invalid_name))
            .collect();
        let first = invalid.iter().flatten().next().copied();
        let out = self.after_step(&rec.eval, rec.step, rec.episode, first)?;
        Ok((out, invalid))
    }

    /// Reward, stop reason and reset-on-fail of an evaluated step.
    fn after_step(
        &mut self,
        eval: &gw_core::StepEval,
        step: u32,
        board: u32,
        invalid: Option<&'static str>,
    ) -> Result<StepOut, String> {
        let stepper = self.stepper.as_mut().ok_or("call reset() before step()")?;
        let mut out = StepOut {
            reward: eval.best_progress - self.best,
            score: eval.score,
            progress: eval.progress,
            best_progress: eval.best_progress,
            invalid,
            step,
            board,
            ..Default::default()
        };
        self.best = eval.best_progress;
        match eval.decision {
            Decision::Continue => {}
            Decision::Reset if self.spec.end_on_fail => {
                out.terminated = true;
                out.stop_reason = Some("game_failed");
            }
            Decision::Reset => {
                stepper.complete_reset()?;
                out.game_reset = true;
            }
            Decision::Stop(reason) => {
                out.stop_reason = Some(reason.as_str());
                match reason {
                    StopReason::MaxStepsExhausted => out.truncated = true,
                    _ => out.terminated = true,
                }
            }
        }
        self.done = out.terminated || out.truncated;
        Ok(out)
    }

    /// Score and progress of the current state, as after a reset.
    pub fn current(&self) -> Result<StepOut, String> {
        let stepper = self.stepper()?;
        let e = stepper.evaluator();
        let score = e.score_of(&stepper.eval_value());
        Ok(StepOut {
            score,
            progress: e.progress_of(score),
            best_progress: e.best_progress(),
            step: stepper.step_index(),
            board: stepper.episode(),
            ..Default::default()
        })
    }

    /// Draw the current frame as RGB8 at the render size into `out`: drawn
    /// at that size by a game that can, else at the viewport and shrunk.
    pub fn observe_rgb(&mut self, out: &mut [u8]) -> Result<(), String> {
        let stepper = self.stepper.as_ref().ok_or("call reset() first")?;
        if let Some(small) = self.sized.as_mut()
            && gw_games::render_sized(stepper.game(), small)
        {
            if out.len() != small.data().len() / 4 * 3 {
                return Err("observation buffer has the wrong size".into());
            }
            gw_core::frame::rgba_to_rgb(small.data(), out);
            return Ok(());
        }
        stepper.render(&mut self.pixmap);
        self.spec.resampler.write(self.pixmap.data(), out);
        Ok(())
    }

    /// Draw the current frame at the game's own viewport (`render()`).
    pub fn frame_full(&mut self) -> Result<Vec<u8>, String> {
        let stepper = self.stepper.as_ref().ok_or("call reset() first")?;
        stepper.render(&mut self.pixmap);
        Ok(gw_core::frame::pixmap_rgb(&self.pixmap))
    }

    /// The gameAPI state as compact JSON with every non-ASCII character
    /// escaped (the `state` observation).
    pub fn state_json(&self) -> Result<String, String> {
        let v = self.stepper()?.state_value();
        Ok(ascii_json(&v))
    }
}

/// Compact JSON in printable ASCII: non-ASCII characters (which JSON allows
/// only inside strings) become `\uXXXX` escapes.
pub fn ascii_json(v: &Value) -> String {
    let s = serde_json::to_string(v).expect("state serializes");
    if s.is_ascii() {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut buf = [0u16; 2];
    for ch in s.chars() {
        if ch.is_ascii() {
            out.push(ch);
        } else {
            for unit in ch.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// The computer-use `Dict` action as a normalized action. Keys and drags hold
/// for the role's own duration (as when a CLI agent names none); `duration`
/// is the wait's length in seconds.
fn cu_action(spec: &Spec, a: &CuAction) -> Result<Action, String> {
    let kind = usize::try_from(a.kind)
        .ok()
        .and_then(|k| spec.kinds.get(k))
        .ok_or_else(|| {
            format!(
                "action type {} is outside Discrete({}) ({})",
                a.kind,
                spec.kinds.len(),
                spec.kinds.join(", ")
            )
        })?;
    let button = match a.button {
        0 => MouseButton::Left,
        1 => MouseButton::Right,
        2 => MouseButton::Middle,
        b => {
            return Err(format!(
                "button {b} is outside Discrete(3) (left, right, middle)"
            ));
        }
    };
    Ok(match *kind {
        "key" => {
            let key = usize::try_from(a.key)
                .ok()
                .and_then(|k| spec.keys.get(k))
                .ok_or_else(|| {
                    format!(
                        "key {} is outside Discrete({}) ({})",
                        a.key,
                        spec.keys.len(),
                        spec.keys.join(", ")
                    )
                })?;
            Action::PressKey {
                key: key.clone(),
                duration: None,
            }
        }
        "click" => Action::Click {
            x: a.point[0],
            y: a.point[1],
            button,
            clicks: 1,
        },
        "drag" => Action::Drag {
            from_x: a.point[0],
            from_y: a.point[1],
            x: a.to[0],
            y: a.to[1],
            duration: None,
        },
        _ => Action::wait(a.duration),
    })
}
