//! The game `openworld`: the voxel world behind the normal `Game` trait, so
//! the Optimus task suites run through the same runtime, evaluator, run
//! directories, suites and reports as every other game.
//!
//! - **Action**: one step is one control tick (1/20 game second) with a
//!   factored action (Optimus-2 Table 6): the role's semantic control `act`
//!   binds `{action: native}`, so its arguments (`forward`, `attack`,
//!   `yaw`, `craft`…) reach the game as one `InputEvent::Native`. A longer
//!   `duration` holds the buttons for more ticks (camera, hotbar, craft,
//!   smelt, inventory and drop act on the first tick only) — the decision
//!   rate of model-backed policies. Keys (W/A/S/D, Space, Shift, Control, E,
//!   Q, 1–9) and mouse buttons also work for computer-use agents.
//! - **Task** (from the task's `init`): `suite` (`atomic` | `long_horizon` |
//!   `open_ended`), `target_item` (an item id, or `logs`/`planks` for any
//!   wood species), `count`, `kit` (start inventory as `{item: count}`) and
//!   `time_limit_s` (game seconds; `game_state.task.time_up` turns true then).
//! - **Score**: `game_state.task.obtained` counts target items obtained this
//!   episode (the atomic score); `game_state.task.plan_progress` is the
//!   fraction of the plan's sub-goals reached (plan compiled at reset from
//!   the start kit by [`crate::plan::plan`]) and is 1 exactly when the
//!   inventory holds the target count (the long-horizon score).
//! - **World**: every seed (and every reset-on-fail episode) is a freshly
//!   generated world, so the spawn biome varies.
//! - **Frames**: 640×360 like the papers; the game YAML's `frame_every` asks
//!   the runtime for a frame every K steps (plus whenever an agent looks).

use crate::goal::SubGoal;
use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{FixedStep, GameApiState, GameConfig, Outcome, TaskInfo, Terminal};
use gw_world::data::data;
use gw_world::{Action, World, WorldConfig};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

pub const ID: &str = "openworld";
pub const W: u32 = 640;
pub const H: u32 = 360;
/// Control ticks per game second.
pub const TICKS_PER_S: u64 = 20;
const TICK_MS: u64 = 1000 / TICKS_PER_S;
/// Degrees of turn per pixel of mouse offset from the screen centre.
pub const LOOK_DEG_PER_PX: f32 = 0.15;

/// The factored action's argument names (besides `duration`).
pub const ACTION_FIELDS: [&str; 15] = [
    "forward",
    "back",
    "left",
    "right",
    "jump",
    "sneak",
    "sprint",
    "attack",
    "use",
    "drop",
    "inventory",
    "hotbar",
    "yaw",
    "pitch",
    "craft",
];
/// The factored action's on/off buttons: the first fields of [`ACTION_FIELDS`].
pub const BUTTONS: &[&str] = ACTION_FIELDS.split_at(11).0;
/// The last factored field (kept apart so the array above stays a line each).
pub const SMELT_FIELD: &str = "smelt";

/// Which suite a task belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    Atomic,
    LongHorizon,
    OpenEnded,
    /// No task: free play.
    Free,
}

impl Suite {
    pub fn parse(s: &str) -> Suite {
        match s {
            "atomic" => Suite::Atomic,
            "long_horizon" => Suite::LongHorizon,
            "open_ended" => Suite::OpenEnded,
            _ => Suite::Free,
        }
    }
}

/// The task the game keeps score for.
#[derive(Clone, Debug, PartialEq)]
pub struct OwTask {
    pub suite: Suite,
    pub target_item: String,
    pub count: u32,
    pub kit: Vec<(String, u32)>,
    pub time_limit_ms: Option<u64>,
}

impl OwTask {
    pub fn from_options(o: &Map<String, Value>) -> OwTask {
        let kit = match o.get("kit") {
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(1) as u32))
                .collect(),
            _ => Vec::new(),
        };
        OwTask {
            suite: Suite::parse(o.get("suite").and_then(Value::as_str).unwrap_or("")),
            target_item: o
                .get("target_item")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            count: o.get("count").and_then(Value::as_u64).unwrap_or(1).max(1) as u32,
            kit,
            time_limit_ms: o
                .get("time_limit_s")
                .and_then(Value::as_f64)
                .map(|s| (s * 1000.0) as u64),
        }
    }
}

/// Whether world item `name` counts as the task item `target` (a wood tag
/// covers every species; `stone` covers cobblestone, as the benchmark does).
pub fn item_matches(target: &str, name: &str) -> bool {
    match target {
        "logs" | "planks" | "leaves" => data()
            .tag(target)
            .iter()
            .any(|&id| data().item_name(id) == name),
        "stone" => name == "stone" || name == "cobblestone",
        t => t == name,
    }
}

/// How many of `target` an item → count map holds.
pub fn count_matching(target: &str, items: &BTreeMap<String, u32>) -> u32 {
    items
        .iter()
        .filter(|(k, _)| item_matches(target, k))
        .map(|(_, n)| *n)
        .sum()
}

pub struct OpenWorld {
    pub world: World,
    seed: u64,
    pub task: OwTask,
    /// The plan from the start kit (empty for atomic tasks or free play).
    pub plan: Vec<SubGoal>,
    /// Per plan step: reached at some point this episode.
    reached: Vec<bool>,
    clock: FixedStep,
    keys: BTreeSet<String>,
    mouse_left: bool,
    mouse_right: bool,
    /// The action of the current native step and how many ticks it still holds.
    pending: Option<Action>,
    held: Action,
    pub terminal: Terminal,
    deaths: u32,
    time_ms: u64,
    /// The scripted expert, kept across steps (it re-plans from state).
    expert: std::sync::Mutex<Option<crate::expert_hook::ExpertSlot>>,
}

impl Default for OpenWorld {
    fn default() -> Self {
        Self::new()
    }
}

/// The world seed of a run seed and episode.
pub fn world_seed(seed: u64, episode: u32) -> u64 {
    let mut r = gw_core::Rng::new(seed, 0x6f77_0000 + episode as u64);
    r.next_u64()
}

/// A fresh world for this seed and episode (the world seed mixes both):
/// the world's shared spawn rule (`gw_world::world::find_spawn`: the
/// surface of a land biome with trees nearby, nearest the origin) on a newly
/// generated terrain, so the spawn biome varies with the seed, as the papers'
/// re-initialised worlds.
pub fn fresh_world(seed: u64, episode: u32, kit: &[(String, u32)]) -> World {
    let ws = world_seed(seed, episode);
    World::new(WorldConfig {
        seed: ws,
        spawn: None,
        start_time: 1000,
        start_inventory: kit.to_vec(),
        ..Default::default()
    })
}

impl OpenWorld {
    pub fn new() -> Self {
        OpenWorld {
            world: World::new(WorldConfig {
                seed: 0,
                spawn: Some([0.5, 80.0, 0.5]),
                passive_mobs: false,
                hostile_mobs: false,
                ..Default::default()
            }),
            seed: 0,
            task: OwTask::from_options(&Map::new()),
            plan: Vec::new(),
            reached: Vec::new(),
            clock: FixedStep::new(TICK_MS),
            keys: BTreeSet::new(),
            mouse_left: false,
            mouse_right: false,
            pending: None,
            held: Action::noop(),
            terminal: Terminal::running(),
            deaths: 0,
            time_ms: 0,
            expert: std::sync::Mutex::new(None),
        }
    }

    fn build(&mut self, episode: u32) {
        self.world = fresh_world(self.seed, episode, &self.task.kit);
        self.plan = match self.task.suite {
            Suite::LongHorizon | Suite::OpenEnded if !self.task.target_item.is_empty() => {
                crate::plan::plan(&self.task.target_item, self.task.count, &self.inventory())
                    .unwrap_or_default()
            }
            _ => Vec::new(),
        };
        self.reached = vec![false; self.plan.len()];
        self.keys.clear();
        self.mouse_left = false;
        self.mouse_right = false;
        self.pending = None;
        self.held = Action::noop();
        self.terminal = Terminal::running();
        self.clock.clear();
        self.time_ms = 0;
        *self.expert.lock().expect("expert lock") = None;
        self.update_reached();
    }

    /// The inventory as item name → count.
    pub fn inventory(&self) -> BTreeMap<String, u32> {
        let d = data();
        let mut m = BTreeMap::new();
        for (id, n) in self.world.player.inventory.totals() {
            *m.entry(d.item_name(id).to_string()).or_insert(0) += n;
        }
        m
    }

    /// Target items obtained this episode (picked up, crafted or smelted).
    pub fn obtained(&self) -> u32 {
        let d = data();
        self.world
            .obtained
            .iter()
            .filter(|(id, _)| item_matches(&self.task.target_item, d.item_name(**id)))
            .map(|(_, n)| *n)
            .sum()
    }

    /// Target items in the inventory now.
    pub fn target_held(&self) -> u32 {
        count_matching(&self.task.target_item, &self.inventory())
    }

    fn update_reached(&mut self) {
        if self.plan.is_empty() {
            return;
        }
        let inv = self.inventory();
        let g = crate::graph::world_graph();
        for (i, step) in self.plan.iter().enumerate() {
            if !self.reached[i] && g.held(&inv, &step.item) >= step.count {
                self.reached[i] = true;
            }
        }
    }

    /// Fraction of plan sub-goals reached; 1 exactly when the target count is held.
    pub fn plan_progress(&self) -> f64 {
        if self.target_held() >= self.task.count {
            return 1.0;
        }
        if self.plan.is_empty() {
            return 0.0;
        }
        let n = self.reached.iter().filter(|r| **r).count();
        // Reaching the last step is holding the target: capped below 1.
        (n.min(self.plan.len() - 1)) as f64 / self.plan.len() as f64
    }

    pub fn time_up(&self) -> bool {
        self.task
            .time_limit_ms
            .is_some_and(|limit| self.time_ms >= limit)
    }

    /// Apply one control tick.
    fn tick(&mut self) {
        let mut a = match self.pending.take() {
            Some(first) => {
                // Buttons keep being held for the rest of the native step.
                self.held = Action {
                    forward: first.forward,
                    back: first.back,
                    left: first.left,
                    right: first.right,
                    jump: first.jump,
                    sneak: first.sneak,
                    sprint: first.sprint,
                    attack: first.attack,
                    use_item: first.use_item,
                    ..Action::noop()
                };
                first
            }
            None => self.held.clone(),
        };
        let k = |s: &str| self.keys.contains(s);
        a.forward |= k("w");
        a.back |= k("s");
        a.left |= k("a");
        a.right |= k("d");
        a.jump |= k("Space");
        a.sneak |= k("Shift");
        a.sprint |= k("Control");
        a.attack |= self.mouse_left;
        a.use_item |= self.mouse_right;
        self.world.step(&a);
        self.update_reached();
        if self.world.player.dead && !self.terminal.is_terminal {
            self.deaths += 1;
            self.terminal = Terminal::ended(Outcome::Fail, "the player died");
        }
    }

    fn compact_world_state(&self) -> Value {
        let w = &self.world;
        let d = data();
        let pl = &w.player;
        let p = pl.body.pos;
        let r2 = |v: f64| (v * 100.0).round() / 100.0;
        let target = w.target().map(
            |t| json!({"block": d.block_name(t.block), "pos": t.pos, "distance": r2(t.distance)}),
        );
        let held = pl.inventory.slots[pl.selected].map(|s| d.item_name(s.item).to_string());
        let mobs = w
            .mobs
            .iter()
            .filter(|m| {
                let dx = m.body.pos[0] - p[0];
                let dz = m.body.pos[2] - p[2];
                dx * dx + dz * dz <= 16.0 * 16.0
            })
            .count();
        let hostile = w
            .mobs
            .iter()
            .filter(|m| {
                let dx = m.body.pos[0] - p[0];
                let dz = m.body.pos[2] - p[2];
                m.kind.hostile() && dx * dx + dz * dz <= 16.0 * 16.0
            })
            .count();
        json!({
            "position": [r2(p[0]), r2(p[1]), r2(p[2])],
            "yaw": r2(pl.yaw),
            "pitch": r2(pl.pitch),
            "health": pl.health,
            "food": pl.food,
            "selected_slot": pl.selected + 1,
            "held_item": held,
            "inventory_open": pl.inventory_open,
            "target": target,
            "break_progress": pl.breaking.map(|s| r2(s.ticks as f64 / s.needed.max(1) as f64)).unwrap_or(0.0),
            "mobs_nearby": mobs,
            "hostiles_nearby": hostile,
            "time_of_day": w.time_of_day(),
            "is_night": w.is_night(),
            "biome": w.biome_here().name(),
            "tick": w.tick,
        })
    }
}

/// Parse a factored action from native arguments; errors name the field.
pub fn parse_factored(args: &Map<String, Value>) -> Result<Action, String> {
    let mut a = Action::noop();
    let flag = |k: &str| -> Result<bool, String> {
        match args.get(k) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(Value::Number(n)) => Ok(n.as_f64().unwrap_or(0.0) != 0.0),
            Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" => Ok(true),
                "false" | "0" | "no" | "" => Ok(false),
                _ => Err(format!("\"{k}\" must be true or false, got \"{s}\"")),
            },
            Some(v) => Err(format!("\"{k}\" must be true or false, got {v}")),
        }
    };
    for k in args.keys() {
        if !ACTION_FIELDS.contains(&k.as_str()) && k != SMELT_FIELD {
            return Err(format!(
                "unknown factored-action field \"{k}\"; fields: {}, {SMELT_FIELD}",
                ACTION_FIELDS.join(", ")
            ));
        }
    }
    a.forward = flag("forward")?;
    a.back = flag("back")?;
    a.left = flag("left")?;
    a.right = flag("right")?;
    a.jump = flag("jump")?;
    a.sneak = flag("sneak")?;
    a.sprint = flag("sprint")?;
    a.attack = flag("attack")?;
    a.use_item = flag("use")?;
    a.drop = flag("drop")?;
    a.inventory = flag("inventory")?;
    a.hotbar = match args.get("hotbar") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let n = match v {
                Value::Number(n) => n.as_f64(),
                Value::String(s) if s.trim().eq_ignore_ascii_case("none") => Some(0.0),
                Value::String(s) => s.trim().parse::<f64>().ok(),
                _ => None,
            };
            match n {
                Some(0.0) => None,
                Some(n) if (1.0..=9.0).contains(&n) && n.fract() == 0.0 => Some(n as u8),
                _ => {
                    return Err(format!(
                        "\"hotbar\" must be a slot 1-9 (or 0 for none), got {v}"
                    ));
                }
            }
        }
    };
    let angle = |k: &str, max: f32| -> Result<f32, String> {
        match args.get(k) {
            None | Some(Value::Null) => Ok(0.0),
            Some(v) => {
                let x = match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                };
                match x {
                    Some(x) if x.is_finite() && x.abs() <= max as f64 => Ok(x as f32),
                    _ => Err(format!("\"{k}\" must be degrees within ±{max}, got {v}")),
                }
            }
        }
    };
    a.yaw = angle("yaw", 180.0)?;
    a.pitch = angle("pitch", 180.0)?;
    let item = |k: &str| -> Result<Option<String>, String> {
        match args.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => {
                let s = s.trim().to_ascii_lowercase();
                let s = s.strip_prefix("minecraft:").unwrap_or(&s).to_string();
                if s.is_empty() || s == "none" {
                    Ok(None)
                } else if data().item_id(&s).is_some() {
                    Ok(Some(s))
                } else {
                    Err(format!(
                        "\"{k}\": unknown item \"{s}\" (use an item id such as stick)"
                    ))
                }
            }
            Some(v) => Err(format!("\"{k}\" must be an item id, got {v}")),
        }
    };
    a.craft = item("craft")?;
    a.smelt = item(SMELT_FIELD)?;
    Ok(a)
}

impl gw_core::Game for OpenWorld {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn viewport(&self) -> (u32, u32) {
        (W, H)
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.task = OwTask::from_options(&config.options);
        self.deaths = 0;
        self.build(0);
    }

    fn reset(&mut self, episode: u32) {
        self.build(episode);
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let inv = self.inventory();
        let obtained = self.obtained();
        let held = self.target_held();
        let progress = self.plan_progress();
        let gs = &mut s.game_state;
        let score = match self.task.suite {
            Suite::Atomic | Suite::Free => json!(obtained),
            _ => json!(progress),
        };
        set(gs, "score", score);
        set(gs, "level", 1);
        set(gs, "progress", json!(progress));
        set(
            gs,
            "task",
            json!({
                "target_item": self.task.target_item,
                "count": self.task.count,
                "obtained": obtained,
                "target_count": held,
                "done": held >= self.task.count,
                "plan_steps": self.plan.len(),
                "plan_reached": self.reached.iter().filter(|r| **r).count(),
                "plan_progress": progress,
                "time_up": self.time_up(),
            }),
        );
        set(gs, "inventory", json!(inv));
        set(gs, "player", self.compact_world_state());
        let m = &mut s.metrics;
        set(
            m,
            "items_total",
            json!(self.world.obtained.values().sum::<u32>()),
        );
        set(m, "items_unique", json!(self.world.obtained.len()));
        set(m, "deaths", json!(self.deaths));
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if self.terminal.is_terminal {
            return;
        }
        match event {
            InputEvent::Native { args } => {
                // Checked by `check_native` before it got here.
                if let Ok(a) = parse_factored(args) {
                    self.pending = Some(a);
                }
            }
            InputEvent::KeyDown { key } => {
                let key = gw_core::action::canonical_key(key);
                let mut a = self.pending.take().unwrap_or_default();
                if let Some(n) = key.parse::<u8>().ok().filter(|n| (1..=9).contains(n)) {
                    a.hotbar = Some(n);
                } else if key == "e" {
                    a.inventory = true;
                } else if key == "q" {
                    a.drop = true;
                } else {
                    self.keys.insert(key);
                }
                self.pending = Some(a);
            }
            InputEvent::KeyUp { key } => {
                self.keys.remove(&gw_core::action::canonical_key(key));
            }
            InputEvent::MouseMove { x, y } => {
                let mut a = self.pending.take().unwrap_or_default();
                a.yaw += (x - W as f32 / 2.0) * LOOK_DEG_PER_PX;
                a.pitch += (y - H as f32 / 2.0) * LOOK_DEG_PER_PX;
                self.pending = Some(a);
            }
            InputEvent::MouseDown { button, .. } => match button {
                MouseButton::Left => self.mouse_left = true,
                MouseButton::Right => self.mouse_right = true,
                MouseButton::Middle => {}
            },
            InputEvent::MouseUp { button, .. } => match button {
                MouseButton::Left => self.mouse_left = false,
                MouseButton::Right => self.mouse_right = false,
                MouseButton::Middle => {}
            },
            InputEvent::Scroll { .. } => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                break;
            }
            self.tick();
        }
    }

    fn render(&self, pixmap: &mut tiny_skia::Pixmap) {
        let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
        gw_world::render::render_rgba(&self.world, w, h, pixmap.data_mut(), true);
    }

    /// The ray caster draws at any size: a small observation traces only
    /// its own pixels (on the calling thread; rows in parallel from about a
    /// quarter of the viewport up).
    fn render_sized(&self, pixmap: &mut tiny_skia::Pixmap) -> bool {
        let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
        let parallel = w * h >= (W * H / 4) as usize;
        gw_world::render::render_rgba(&self.world, w, h, pixmap.data_mut(), parallel);
        true
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        let mut slot = self.expert.lock().expect("expert lock");
        let a = crate::expert_hook::next_action(&mut slot, self);
        factored_payload(&a)
    }

    fn check_native(&self, args: &Map<String, Value>) -> Result<(), String> {
        parse_factored(args).map(|_| ())
    }

    /// The hierarchical agent's skill policy reads the `World` (privileged).
    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }
}

/// The `act` payload of a factored action (only the fields that are set).
pub fn factored_payload(a: &Action) -> Value {
    let mut m = Map::new();
    m.insert("action".into(), json!("act"));
    let flags = [
        ("forward", a.forward),
        ("back", a.back),
        ("left", a.left),
        ("right", a.right),
        ("jump", a.jump),
        ("sneak", a.sneak),
        ("sprint", a.sprint),
        ("attack", a.attack),
        ("use", a.use_item),
        ("drop", a.drop),
        ("inventory", a.inventory),
    ];
    for (k, v) in flags {
        if v {
            m.insert(k.into(), json!(true));
        }
    }
    if let Some(h) = a.hotbar {
        m.insert("hotbar".into(), json!(h));
    }
    if a.yaw != 0.0 {
        m.insert("yaw".into(), json!(a.yaw));
    }
    if a.pitch != 0.0 {
        m.insert("pitch".into(), json!(a.pitch));
    }
    if let Some(c) = &a.craft {
        m.insert("craft".into(), json!(c));
    }
    if let Some(c) = &a.smelt {
        m.insert(SMELT_FIELD.into(), json!(c));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gw_core::Game;

    fn game(options: Value) -> OpenWorld {
        let mut g = OpenWorld::new();
        g.init(&GameConfig {
            seed: 7,
            options: options.as_object().cloned().unwrap_or_default(),
            ..Default::default()
        });
        g
    }

    fn native(g: &mut OpenWorld, args: Value) {
        let args = args.as_object().cloned().unwrap();
        g.check_native(&args).unwrap();
        g.handle_event(&InputEvent::Native { args });
        g.advance(TICK_MS);
    }

    #[test]
    fn factored_fields_are_checked() {
        let ok = json!({"forward": true, "hotbar": "3", "yaw": -12.5, "craft": "stick", "smelt": "none"});
        let a = parse_factored(ok.as_object().unwrap()).unwrap();
        assert!(a.forward && a.hotbar == Some(3) && a.yaw == -12.5);
        assert_eq!(a.craft.as_deref(), Some("stick"));
        assert_eq!(a.smelt, None);
        for (bad, needle) in [
            (
                json!({"fly": true}),
                "unknown factored-action field \"fly\"",
            ),
            (json!({"hotbar": 12}), "slot 1-9"),
            (json!({"yaw": 400}), "within ±180"),
            (json!({"craft": "laser"}), "unknown item \"laser\""),
            (json!({"jump": "maybe"}), "true or false"),
        ] {
            let e = parse_factored(bad.as_object().unwrap()).unwrap_err();
            assert!(e.contains(needle), "{e}");
        }
    }

    #[test]
    fn kit_time_limit_and_craft_through_native_actions() {
        let mut g = game(json!({"suite": "long_horizon", "target_item": "stick",
            "time_limit_s": 1, "kit": {"oak_log": 1}}));
        assert_eq!(g.inventory().get("oak_log"), Some(&1));
        // Plan from the kit: planks then sticks.
        let items: Vec<&str> = g.plan.iter().map(|s| s.item.as_str()).collect();
        assert_eq!(items.last(), Some(&"stick"), "{items:?}");
        assert_eq!(g.plan_progress(), 0.0);
        native(&mut g, json!({"craft": "oak_planks"}));
        assert_eq!(g.inventory().get("oak_planks"), Some(&4));
        let mid = g.plan_progress();
        assert!(mid > 0.0 && mid < 1.0, "{mid}");
        native(&mut g, json!({"craft": "stick"}));
        assert_eq!(g.plan_progress(), 1.0);
        let s = g.state().to_value();
        assert_eq!(s["game_state"]["task"]["target_count"], json!(4));
        assert_eq!(s["game_state"]["score"], json!(1.0));
        assert_eq!(s["game_state"]["task"]["time_up"], json!(false));
        for _ in 0..18 {
            native(&mut g, json!({}));
        }
        assert_eq!(
            g.state().to_value()["game_state"]["task"]["time_up"],
            json!(true)
        );
    }

    #[test]
    fn atomic_counts_any_log_species_and_worlds_differ_by_seed() {
        assert!(item_matches("logs", "birch_log") && item_matches("logs", "oak_log"));
        assert!(item_matches("stone", "cobblestone") && !item_matches("logs", "oak_planks"));
        let a = game(json!({"suite": "atomic", "target_item": "logs"}));
        let mut b = OpenWorld::new();
        b.init(&GameConfig {
            seed: 8,
            ..Default::default()
        });
        assert_ne!(a.world.player.body.pos, b.world.player.body.pos);
        let again = game(json!({"suite": "atomic", "target_item": "logs"}));
        assert_eq!(a.world.player.body.pos, again.world.player.body.pos);
        assert_eq!(a.state().to_value()["game_state"]["score"], json!(0));
    }

    #[test]
    fn held_buttons_last_the_whole_native_step_camera_only_once() {
        let mut g = game(json!({}));
        // Face open ground (the spawn has trees nearby): the first quarter
        // turn whose cells ahead are free at feet and head height.
        let f = g.world.player.body.pos.map(|x| libm::floor(x) as i32);
        let open = |dx: i32, dz: i32| {
            (1..=3).all(|k| {
                (0..2).all(|dy| {
                    let v = g.world.terrain.get(f[0] + dx * k, f[1] + dy, f[2] + dz * k);
                    !gw_world::data().block(v).solid
                })
            })
        };
        // Yaw 0 faces +z, 90 faces -x (after the 10° turn the path bends a little).
        let yaw = [(0.0, 0, 1), (90.0, -1, 0), (180.0, 0, -1), (270.0, 1, 0)]
            .into_iter()
            .find(|&(_, dx, dz)| open(dx, dz))
            .map_or(0.0, |(y, _, _)| y);
        g.world.player.yaw = yaw;
        let yaw0 = g.world.player.yaw;
        let args = json!({"yaw": 10.0, "forward": true})
            .as_object()
            .cloned()
            .unwrap();
        g.handle_event(&InputEvent::Native { args });
        let p0 = g.world.player.body.pos;
        g.advance(TICK_MS * 10);
        assert!(
            (g.world.player.yaw - yaw0 - 10.0).abs() < 1e-6
                || (g.world.player.yaw - yaw0 + 350.0).abs() < 1e-6
        );
        let moved =
            (g.world.player.body.pos[0] - p0[0]).abs() + (g.world.player.body.pos[2] - p0[2]).abs();
        assert!(moved > 1.0, "walked {moved}");
    }
}
