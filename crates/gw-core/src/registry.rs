//! The registry: games, tasks and models as YAML files under one or more
//! roots, resolved and validated before anything runs.
//!
//! Layout of a root: `games/<game_id>.yaml`, `tasks/<game_id>/<task_id>.yaml`,
//! `models/<model_id>.yaml`, `suites/*.yaml`. Later roots add entries or
//! replace entries with the same id. Every error names file, line and column.

use crate::action::{Action, RoleControls, SemanticControl, SemanticMap, parse_action};
use crate::evaluator::EvalSpec;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The five genres of the benchmark.
pub const GENRES: [&str; 5] = ["runner", "arcade", "platformer", "puzzle", "simulation"];
/// Agents that need no model file (`hierarchical`: the open world's graph
/// planner driving its skill policy, see `gw-hierarchy`).
pub const BUILTIN_AGENTS: [&str; 5] = ["random", "noop", "scripted", "hierarchical", "goap"];
/// The model id of a person playing through `gameworld serve` (a name can be
/// added: `human-alice`). Presets accept it; only the web app can play it.
pub const HUMAN_AGENT: &str = "human";
/// The model id of an agent that plays over the Model Context Protocol
/// (`gameworld mcp`); only the MCP server can play it.
pub const MCP_AGENT: &str = "mcp";

/// Whether `model_id` names a person (`human` or `human-<name>`).
pub fn is_human_agent(model_id: &str) -> bool {
    model_id == HUMAN_AGENT
        || model_id.strip_prefix("human-").is_some_and(|name| {
            !name.is_empty()
                && name.len() <= 40
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        })
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            width: 1280,
            height: 720,
        }
    }
}

fn one_f64() -> f64 {
    1.0
}
fn single() -> String {
    "single".into()
}

/// `games/<game_id>.yaml`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSpec {
    pub id: String,
    pub name: String,
    pub genre: String,
    /// Capability-curriculum level 1..=5 (paper section 4.4).
    pub curriculum_level: u8,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub viewport: Viewport,
    #[serde(default = "one_f64")]
    pub speed_multiplier: f64,
    #[serde(default = "single")]
    pub player_mode: String,
    pub rules: String,
    pub roles: Vec<RoleSpec>,
    /// Frame policy for long runs: write `frames/step_N.png` only every
    /// `frame_every` steps (and at the last step, at resets, and whenever the
    /// agent looks at the frame). Default 1: every step.
    #[serde(default = "one_u32")]
    pub frame_every: u32,
    /// Whether `games: all` in a suite selects this game (the open world's
    /// long tasks run through their own suites instead).
    #[serde(default = "yes")]
    pub in_all: bool,
    /// `native` (built into this program) or `browser` (an HTML5 game with
    /// `window.gameAPI`, run in headless Chromium).
    #[serde(default, skip_serializing_if = "Backend::is_native")]
    pub backend: Backend,
    /// Browser games: the game folder (holding `index.html`), relative to the
    /// registry root the YAML belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Browser games: a page URL instead of a folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The registry root this game was loaded from (set by the loader).
    #[serde(skip)]
    pub root: Option<PathBuf>,
}

/// Which engine runs a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    #[default]
    Native,
    Browser,
}

impl Backend {
    pub fn is_native(&self) -> bool {
        *self == Backend::Native
    }
}

impl GameSpec {
    /// A browser game's folder, resolved against its registry root.
    pub fn folder(&self) -> Option<PathBuf> {
        let p = PathBuf::from(self.path.as_ref()?);
        Some(match &self.root {
            Some(root) if p.is_relative() => root.join(p),
            _ => p,
        })
    }
}

impl GameSpec {
    /// `player_mode: cooperative`: every role plays at once, one agent each.
    pub fn is_cooperative(&self) -> bool {
        self.player_mode == "cooperative"
    }
}

fn one_u32() -> u32 {
    1
}

/// One role of a game: its prompt, computer-use controls and semantic controls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleSpec {
    pub name: String,
    pub prompt: String,
    /// The textual control specification shown to computer-use agents.
    #[serde(default)]
    pub control_description: String,
    #[serde(default)]
    pub allowed_keys: Vec<String>,
    #[serde(default)]
    pub allow_clicks: bool,
    #[serde(default)]
    pub hold_duration: Option<f64>,
    #[serde(default)]
    pub key_durations: Option<BTreeMap<String, f64>>,
    pub semantic_controls: Vec<SemanticControl>,
}

impl RoleSpec {
    pub fn controls(&self) -> RoleControls {
        RoleControls {
            allowed_keys: self.allowed_keys.clone(),
            allow_clicks: self.allow_clicks,
            hold_duration: self.hold_duration,
            key_durations: self.key_durations.clone(),
        }
    }

    pub fn semantic_map(&self) -> SemanticMap {
        SemanticMap::new(&self.semantic_controls)
    }

    /// The allowed keys that type one character (`a`…`z` in Wordle): the
    /// values a free-text argument can take one key at a time.
    pub fn single_char_keys(&self) -> Vec<String> {
        self.allowed_keys
            .iter()
            .filter(|k| k.chars().count() == 1)
            .cloned()
            .collect()
    }
}

fn hundred() -> u32 {
    100
}
fn yes() -> bool {
    true
}

/// `tasks/<game_id>/<task_id>.yaml`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    pub id: String,
    pub game_id: String,
    pub instruction: String,
    #[serde(default)]
    pub score_field: Option<String>,
    #[serde(default)]
    pub aggregate_score_fields: Option<Vec<String>>,
    /// Per-field targets for an aggregate score (every aggregate field, the
    /// targets summing to `target`): success then needs each field at its own
    /// target in one state; the plain sum is kept as the reference outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_targets: Option<BTreeMap<String, f64>>,
    pub start: f64,
    pub target: f64,
    #[serde(default)]
    pub end_field: Option<String>,
    #[serde(default = "hundred")]
    pub max_steps: u32,
    #[serde(default = "yes")]
    pub continue_on_fail: bool,
    /// Starting level (the reference's `?level=N` suffix).
    #[serde(default)]
    pub level: Option<u32>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Game-specific init options.
    #[serde(default)]
    pub init: Map<String, Value>,
    /// State paths a researcher should look at for this task.
    #[serde(default)]
    pub state_fields: Vec<String>,
    /// Which role plays (default: the game's first role).
    #[serde(default)]
    pub role: Option<String>,
    /// Browser games: appended to the page URL (`?level=3`, `#infinite/2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_suffix: Option<String>,
    /// Open world: `atomic` | `long_horizon` | `open_ended` (SPEC "Open world").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suite: Option<String>,
    /// Open world: the long-horizon group (`wood` … `armor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Open world: the item the task is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_item: Option<String>,
}

impl TaskSpec {
    pub fn score_fields(&self) -> Vec<String> {
        match (&self.score_field, &self.aggregate_score_fields) {
            (Some(f), _) => vec![f.clone()],
            (None, Some(fs)) => fs.clone(),
            (None, None) => vec![],
        }
    }

    /// `score_field`, or the aggregate fields joined with `+`.
    pub fn score_label(&self) -> String {
        self.score_fields().join("+")
    }

    pub fn eval_spec(&self) -> EvalSpec {
        EvalSpec {
            score_fields: self.score_fields(),
            start: self.start,
            target: self.target,
            end_field: self.end_field.clone(),
            max_steps: self.max_steps,
            continue_on_fail: self.continue_on_fail,
            field_targets: self
                .field_targets
                .iter()
                .flatten()
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    Openai,
    Anthropic,
    Gemini,
    /// A learned GOAP policy checkpoint run locally (`checkpoint:`); no API.
    Policy,
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "kebab-case")]
pub enum Interface {
    #[default]
    Generalist,
    ComputerUse,
}

impl Interface {
    pub fn as_str(self) -> &'static str {
        match self {
            Interface::Generalist => "generalist",
            Interface::ComputerUse => "computer-use",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    #[default]
    Native,
    Qwen,
    UiTars,
}

/// `models/<model_id>.yaml`
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSpec {
    pub id: String,
    pub provider: ProviderKind,
    /// The provider's model name (required for every provider but `policy`).
    #[serde(default)]
    pub model: String,
    /// `provider: policy`: the GOAP checkpoint folder (config.json +
    /// policy.safetensors), relative to the profile's file; the shipped
    /// `goap` checkpoint when unset.
    #[serde(default)]
    pub checkpoint: Option<String>,
    #[serde(default)]
    pub interface: Interface,
    #[serde(default)]
    pub protocol: Protocol,
    #[serde(default)]
    pub base_url: Option<String>,
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// The model-specific Output Format block of the prompt.
    #[serde(default)]
    pub output_format: Option<String>,
    #[serde(default)]
    pub memory_rounds: Option<u32>,
    #[serde(default)]
    pub memory_include_fields: Option<Vec<String>>,
    #[serde(default)]
    pub max_tokens: Option<u32>,
    #[serde(default)]
    pub temperature: Option<f64>,
    #[serde(default)]
    pub timeout_s: Option<f64>,
    #[serde(default)]
    pub max_retries: Option<u32>,
    /// USD per million input tokens.
    #[serde(default)]
    pub price_input_per_mtok: Option<f64>,
    #[serde(default)]
    pub price_output_per_mtok: Option<f64>,
    #[serde(default)]
    pub price_cached_input_per_mtok: Option<f64>,
    /// The reference catalog's profile name, where this mirrors one.
    #[serde(default)]
    pub reference_name: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    /// Extra JSON merged into every request body (provider-specific knobs).
    #[serde(default)]
    pub extra_body: Option<Map<String, Value>>,
    /// How the model writes screen coordinates (computer-use interface).
    #[serde(default)]
    pub coordinate_space: CoordinateSpace,
    /// Base delay of the exponential retry backoff, in seconds (default 1).
    #[serde(default)]
    pub retry_backoff_s: Option<f64>,
    /// The longest wait before a retry that a server's `Retry-After` (or
    /// `retry-after-ms`, or Gemini's `RetryInfo`) can ask for, in seconds
    /// (default 120); a longer one is waited up to this.
    #[serde(default)]
    pub max_retry_wait_s: Option<f64>,
    /// Which endpoint of the provider to call: `chat` (default; OpenAI Chat
    /// Completions, Anthropic Messages, Gemini generateContent) or
    /// `responses` (the OpenAI Responses API, needed by `computer-use-preview`).
    #[serde(default)]
    pub api: ApiKind,
    /// The provider's built-in computer tool type for computer-use agents
    /// (Anthropic `computer_20250124`, …); the provider's default when unset.
    #[serde(default)]
    pub computer_tool: Option<String>,
    /// The beta flag sent with the computer tool (Anthropic
    /// `anthropic-beta`); derived from the model name when unset.
    #[serde(default)]
    pub computer_beta: Option<String>,
    /// The request field that carries `max_tokens` on OpenAI Chat
    /// Completions: `max_tokens` (default; what compatible servers read) or
    /// `max_completion_tokens` (OpenAI's own reasoning models).
    #[serde(default)]
    pub max_tokens_field: TokenLimitField,
    /// USD per million tokens written to a prompt cache (Anthropic; default
    /// 1.25 × the input price there).
    #[serde(default)]
    pub price_cache_write_per_mtok: Option<f64>,
    /// Play as the open world's hierarchical agent (planner → sub-goals →
    /// goal-conditioned policy) with this model in the parts set to `model`.
    #[serde(default)]
    pub hierarchical: Option<HierarchySpec>,
}

/// Who writes the sub-goal list of a hierarchical agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlannerKind {
    /// The crafting knowledge graph's planner.
    #[default]
    Graph,
    /// The profile's model, shown the task, the frame and the inventory.
    Model,
}

/// Who carries out a hierarchical agent's current sub-goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// The open world's scripted skill policy (privileged state).
    #[default]
    Skills,
    /// The profile's model, picking factored actions from frames.
    Model,
    /// The learned GOAP policy (the profile's `checkpoint:`, or the shipped one).
    Goap,
}

/// The `hierarchical:` key of a model profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct HierarchySpec {
    #[serde(default)]
    pub planner: PlannerKind,
    #[serde(default)]
    pub policy: PolicyKind,
    /// A model policy decides every this many steps and holds its movement
    /// and attack buttons in between (default 10: two decisions a second).
    #[serde(default)]
    pub decision_every: Option<u32>,
    /// Steps one sub-goal may take before the agent re-plans (default 2400).
    #[serde(default)]
    pub subgoal_timeout_steps: Option<u32>,
    /// How many times a model planner is asked again after a plan that does
    /// not parse or does not reach the target (default 2).
    #[serde(default)]
    pub max_reasks: Option<u32>,
}

/// How a Chat Completions request names its output-token limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TokenLimitField {
    #[default]
    MaxTokens,
    MaxCompletionTokens,
}

impl TokenLimitField {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenLimitField::MaxTokens => "max_tokens",
            TokenLimitField::MaxCompletionTokens => "max_completion_tokens",
        }
    }
}

/// What rolling memory may keep of a past round (`memory_include_fields`).
pub const MEMORY_FIELDS: [&str; 5] = [
    "user_prompt",
    "screenshot",
    "reasoning",
    "action",
    "outcome",
];

/// Screen coordinates as a model emits them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum CoordinateSpace {
    /// Viewport pixels (the screenshot's own size).
    #[default]
    Pixels,
    /// 0..1000 on both axes, whatever the screenshot size (Qwen3-VL, Gemini computer use).
    Normalized1000,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum ApiKind {
    #[default]
    Chat,
    Responses,
}

/// Largest magnitude accepted for a task's `start` / `target`.
pub const MAX_SCORE: f64 = 1e15;
/// Largest game `speed_multiplier` (a faster clock would simulate for hours per step).
pub const MAX_SPEED: f64 = 100.0;
/// Largest viewport side in pixels (frames are allocated at this size).
pub const MAX_VIEWPORT_SIDE: u32 = 8192;
/// Longest action duration (hold, key, wait), in seconds.
pub const MAX_DURATION_S: f64 = 3600.0;
/// Longest request timeout or retry backoff, in seconds (one day).
pub const MAX_TIMEOUT_S: f64 = 86_400.0;
/// Highest price per million tokens, in USD.
pub const MAX_PRICE: f64 = 1e6;

/// What is wrong with a task's `field_targets`, in words: they must name
/// every aggregate field and nothing else, with finite targets above
/// `start` that sum to `target` (so the capped sum reaches `target` exactly
/// when every field reaches its own).
fn field_targets_problem(task: &TaskSpec, ft: &BTreeMap<String, f64>) -> Option<String> {
    let Some(fields) = &task.aggregate_score_fields else {
        return Some("field_targets needs aggregate_score_fields (one target per field)".into());
    };
    if let Some(k) = ft.keys().find(|k| !fields.contains(k)) {
        return Some(format!(
            "field_targets names \"{k}\", which is not one of the aggregate_score_fields"
        ));
    }
    if let Some(f) = fields.iter().find(|f| !ft.contains_key(*f)) {
        return Some(format!("field_targets lacks a target for \"{f}\""));
    }
    if let Some((k, problem)) = ft
        .iter()
        .find_map(|(k, &v)| bad_number(v, 0.0, MAX_SCORE).map(|p| (k, p)))
    {
        return Some(format!("the target of \"{k}\" {problem}"));
    }
    let sum: f64 = ft.values().sum();
    if (sum - task.target).abs() > 1e-9 {
        return Some(format!(
            "field_targets sum to {sum} but target is {}; make them add up to target",
            task.target
        ));
    }
    None
}

/// What is wrong with a number that must lie in `lo..=hi`, in words.
/// The most retries a model profile may ask for (`max_retries`).
pub const MAX_RETRIES: u32 = 100;
/// The most memory rounds a profile or suite may ask for: each round adds
/// a screenshot to every request.
pub const MAX_MEMORY_ROUNDS: u32 = 100;
/// The largest `frame_every` a game may set.
pub const MAX_FRAME_EVERY: u32 = 1_000_000;

/// Why `url` cannot be a provider endpoint, or `None`: it must be an
/// absolute http(s) URL with a host, an optional numeric port, no
/// credentials (keys come from `api_key_env`) and no spaces or controls.
pub fn url_problem(url: &str) -> Option<String> {
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("contains spaces or control characters".into());
    }
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("http://") {
        &url[7..]
    } else if lower.starts_with("https://") {
        &url[8..]
    } else {
        return Some("is not a URL: it must start with http:// or https://".into());
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Some(
            "holds credentials (user@host); keys come from the variable api_key_env names".into(),
        );
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, p)) => (h, p.strip_prefix(':')),
            None => return Some("has an unclosed [IPv6] host".into()),
        }
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() {
        return Some("has no host".into());
    }
    if !host
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
    {
        return Some(format!("has an invalid host \"{host}\""));
    }
    if let Some(p) = port
        && !p.parse::<u16>().is_ok_and(|p| p > 0)
    {
        return Some(format!("has an invalid port \"{p}\" (1 to 65535)"));
    }
    None
}

fn bad_number(v: f64, lo: f64, hi: f64) -> Option<String> {
    if v.is_nan() {
        Some("is not a number (NaN)".into())
    } else if v.is_infinite() {
        Some("is infinite".into())
    } else if v < lo && v < 0.0 {
        Some(format!("is negative ({v})"))
    } else if v < lo {
        Some(format!("is too small ({v})"))
    } else if v > hi || (lo == f64::MIN && v < -hi) {
        Some(format!("is too large ({v:e})"))
    } else {
        None
    }
}

/// An error in the registry, located in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct RegistryError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// Errors that stop resolution (exit code 2 at the command line).
#[derive(Clone, Debug, PartialEq)]
pub struct RegistryErrors(pub Vec<RegistryError>);

impl fmt::Display for RegistryErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RegistryErrors {}

/// An entry with the file it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub file: PathBuf,
    pub source: String,
}

impl<T> Sourced<T> {
    fn err_at(&self, key: &str, message: impl Into<String>) -> RegistryError {
        let (line, column) = locate_key(&self.source, key);
        RegistryError {
            file: self.file.clone(),
            line,
            column,
            message: message.into(),
        }
    }
}

/// Line and column (1-based) of the first `key:` in a YAML text; (1, 1) if absent.
pub fn locate_key(source: &str, key: &str) -> (usize, usize) {
    for (i, line) in source.lines().enumerate() {
        let trimmed = line.trim_start().trim_start_matches("- ");
        if trimmed.starts_with(&format!("{key}:")) {
            let col = line.len() - trimmed.len() + 1;
            return (i + 1, col);
        }
    }
    (1, 1)
}

/// All registry entries, keyed by id in load order.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    pub roots: Vec<PathBuf>,
    pub games: IndexMap<String, Sourced<GameSpec>>,
    /// Keyed by `(game_id, task_id)`.
    pub tasks: IndexMap<(String, String), Sourced<TaskSpec>>,
    pub models: IndexMap<String, Sourced<ModelSpec>>,
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && matches!(
                            p.extension().and_then(|e| e.to_str()),
                            Some("yaml") | Some("yml")
                        )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn parse_file<T: for<'de> Deserialize<'de>>(
    path: &Path,
    errors: &mut Vec<RegistryError>,
) -> Option<Sourced<T>> {
    match std::fs::read_to_string(path) {
        Ok(source) => parse_source(path, source, errors),
        Err(e) => {
            errors.push(RegistryError {
                file: path.to_path_buf(),
                line: 1,
                column: 1,
                message: format!("cannot read file: {e}"),
            });
            None
        }
    }
}

fn parse_source<T: for<'de> Deserialize<'de>>(
    path: &Path,
    source: String,
    errors: &mut Vec<RegistryError>,
) -> Option<Sourced<T>> {
    match serde_saphyr::from_str::<T>(&source) {
        Ok(value) => Some(Sourced {
            value,
            file: path.to_path_buf(),
            source,
        }),
        Err(e) => {
            let location = e
                .location()
                .map(|l| (l.line() as usize, l.column() as usize));
            let (line, column, message) = explain_yaml_error(&source, location, &e.to_string());
            errors.push(RegistryError {
                file: path.to_path_buf(),
                line,
                column,
                message,
            });
            None
        }
    }
}

/// A YAML reader's error in plain words: where it is (the offending key's
/// line and column; the key named in the message when the reader gave no
/// place) and what the value must be, without the deserializer's type names
/// or option names.
pub fn explain_yaml_error(
    source: &str,
    location: Option<(usize, usize)>,
    raw: &str,
) -> (usize, usize, String) {
    let first = raw.lines().next().unwrap_or("").trim();
    // "error: line 4 column 13: invalid u32" → "invalid u32".
    let mut msg = first.strip_prefix("error:").unwrap_or(first).trim();
    if let Some(rest) = msg.strip_prefix("line ")
        && let Some((_, after)) = rest.split_once(": ")
    {
        msg = after.trim();
    }
    let ticked = |s: &str| -> Option<String> {
        let start = s.find('`')? + 1;
        let end = s[start..].find('`')? + start;
        Some(s[start..end].to_string())
    };
    // The key on the error's line (`  max_tokens: -3` → max_tokens).
    let key_at = |line: usize| -> Option<String> {
        let text = source.lines().nth(line.checked_sub(1)?)?;
        let t = text.trim_start().trim_start_matches("- ");
        let (k, _) = t.split_once(':')?;
        let k = k.trim().trim_matches('"').trim_matches('\'');
        (!k.is_empty() && !k.contains(' ')).then(|| k.to_string())
    };
    let (mut line, mut column) = location.unwrap_or((0, 0));
    let named = ticked(msg).or_else(|| {
        msg.strip_prefix("duplicate mapping key:")
            .map(|k| k.split(',').next().unwrap_or("").trim().to_string())
    });
    if line == 0
        && let Some(k) = &named
    {
        (line, column) = locate_key(source, k);
    }
    if line == 0 {
        (line, column) = (1, 1);
    }
    let key = key_at(line)
        .map(|k| format!("\"{k}\""))
        .unwrap_or_else(|| "this value".into());
    let lower = msg.to_ascii_lowercase();
    let text = if lower.starts_with("duplicate mapping key") {
        format!(
            "the key \"{}\" appears twice in the same mapping; keep one",
            named.unwrap_or_default()
        )
    } else if lower.starts_with("unknown field") {
        let valid = msg
            .split_once("expected one of")
            .map(|(_, v)| v.trim())
            .unwrap_or("");
        let valid = valid.replace('`', "");
        format!(
            "unknown key \"{}\"{}",
            named.unwrap_or_default(),
            if valid.is_empty() {
                String::new()
            } else {
                format!("; the keys allowed here are: {valid}")
            }
        )
    } else if lower.starts_with("missing field") {
        format!(
            "the required key \"{}\" is missing; add it",
            named.unwrap_or_default()
        )
    } else if lower.starts_with("unknown variant") {
        let valid = msg
            .split_once("expected one of")
            .or_else(|| msg.split_once("expected"))
            .map(|(_, v)| v.trim().replace('`', ""))
            .unwrap_or_default();
        format!(
            "{key} cannot be \"{}\"; use one of: {valid}",
            named.unwrap_or_default()
        )
    } else if lower.contains("budget breached") {
        // serde-saphyr's limits: aliases that repeat a block expand it
        // each time ("billion laughs"), or the file is simply enormous.
        format!(
            "invalid YAML: the file expands to more values than one file may hold ({}); \
             anchors and aliases (*name) that repeat large blocks are the usual cause: \
             write the values out once",
            msg.trim_start_matches("budget breached:").trim()
        )
    } else if lower.contains("string scalar") {
        // A list or mapping (or an unclosed bracket) where one value belongs.
        format!(
            "invalid YAML: {key} must be a single value here, not a list or a mapping (check for an unclosed bracket)"
        )
    } else if let Some(kind) = expected_kind(&lower) {
        format!("{key} must be {kind}")
    } else if lower.contains("invalid type") || lower.contains("invalid value") {
        format!("{key} has the wrong kind of value ({})", plain_types(msg))
    } else {
        format!("invalid YAML: {}", plain_types(msg))
    };
    (line, column, text)
}

/// What a type name in a deserializer message asks for, in words.
fn expected_kind(lower: &str) -> Option<&'static str> {
    let has = |w: &str| lower.contains(w);
    Some(
        if has("u8") || has("u16") || has("u32") || has("u64") || has("usize") {
            "a whole number, 0 or more (no sign, no decimals)"
        } else if has("i32") || has("i64") {
            "a whole number"
        } else if has("floating point") || has("f64") || has("f32") {
            "a number (e.g. 1.5)"
        } else if has("bool") {
            "true or false"
        } else if has("a string") || has("option<string>") {
            "text (quote it if it looks like a number or a list)"
        } else if has("sequence") || has("vec<") {
            "a list"
        } else if has("map") && !has("mapping key") {
            "a mapping of keys to values"
        } else {
            return None;
        },
    )
}

/// A message with Rust type names replaced by plain words.
fn plain_types(msg: &str) -> String {
    let mut s = msg.to_string();
    for (from, to) in [
        ("Option<String>", "text"),
        ("Option<f64>", "a number"),
        ("Option<u32>", "a whole number"),
        ("Option<bool>", "true or false"),
        ("Option<Vec<String>>", "a list of text"),
        ("Vec<String>", "a list of text"),
        ("String", "text"),
        ("f64", "a number"),
        ("u32", "a whole number"),
        ("u64", "a whole number"),
        ("u8", "a whole number"),
        ("DuplicateKeyPolicy", "duplicate keys"),
    ] {
        s = s.replace(from, to);
    }
    s.replace('`', "\"")
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string()
}

impl Registry {
    /// Load every root in order; later roots override by id. Returns all
    /// parse and validation errors together.
    pub fn load(roots: &[PathBuf]) -> Result<Registry, RegistryErrors> {
        let mut errors = Vec::new();
        let mut reg = Registry {
            roots: roots.to_vec(),
            ..Default::default()
        };
        for root in roots {
            if !root.is_dir() {
                errors.push(RegistryError {
                    file: root.clone(),
                    line: 1,
                    column: 1,
                    message: "registry root is not a directory; pass --registry DIR with a folder holding games/, tasks/, models/".into(),
                });
                continue;
            }
            for path in yaml_files(&root.join("games")) {
                if let Some(mut g) = parse_file::<GameSpec>(&path, &mut errors) {
                    g.value.root = Some(root.clone());
                    reg.games.insert(g.value.id.clone(), g);
                }
            }
            let mut task_dirs: Vec<PathBuf> = std::fs::read_dir(root.join("tasks"))
                .map(|rd| {
                    rd.filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.is_dir())
                        .collect()
                })
                .unwrap_or_default();
            task_dirs.sort();
            for dir in task_dirs {
                for path in yaml_files(&dir) {
                    if let Some(t) = parse_file::<TaskSpec>(&path, &mut errors) {
                        reg.tasks
                            .insert((t.value.game_id.clone(), t.value.id.clone()), t);
                    }
                }
            }
            for path in yaml_files(&root.join("models")) {
                if let Some(mut m) = parse_file::<ModelSpec>(&path, &mut errors) {
                    // A relative checkpoint is relative to the profile's file.
                    if let (Some(c), Some(dir)) = (&m.value.checkpoint, path.parent())
                        && Path::new(c).is_relative()
                    {
                        m.value.checkpoint = Some(dir.join(c).display().to_string());
                    }
                    reg.models.insert(m.value.id.clone(), m);
                }
            }
        }
        errors.extend(reg.validate());
        if errors.is_empty() {
            Ok(reg)
        } else {
            Err(RegistryErrors(errors))
        }
    }

    /// Browser games whose folder has no `index.html`: they are in the
    /// registry but cannot run until the folder is there. One entry per
    /// game, pointing at its `path:` line.
    pub fn missing_game_folders(&self) -> Vec<RegistryError> {
        self.games
            .values()
            .filter(|g| g.value.backend == Backend::Browser && g.value.path.is_some())
            .filter_map(|g| {
                let dir = g.value.folder()?;
                (!dir.join("index.html").is_file())
                    .then(|| g.err_at("path", missing_game_folder_message(&g.value.id, &dir)))
            })
            .collect()
    }

    /// Build a registry from files held in memory (a registry embedded in a
    /// binary, such as the Python extension): `(path, contents)` with paths
    /// laid out as in a root (`games/<id>.yaml`, `tasks/<game_id>/<id>.yaml`,
    /// `models/<id>.yaml`; others are ignored). Files load in path order and
    /// are validated exactly like [`Registry::load`]; error paths are
    /// `<root>/<path>`.
    pub fn from_memory(root: &Path, files: &[(&str, &str)]) -> Result<Registry, RegistryErrors> {
        let mut errors = Vec::new();
        let mut reg = Registry {
            roots: vec![root.to_path_buf()],
            ..Default::default()
        };
        let mut files: Vec<&(&str, &str)> = files
            .iter()
            .filter(|(p, _)| p.ends_with(".yaml") || p.ends_with(".yml"))
            .collect();
        files.sort_by_key(|(p, _)| *p);
        for (rel, source) in files {
            let path = root.join(rel);
            let source = source.to_string();
            let parts: Vec<&str> = rel.split('/').collect();
            match parts.as_slice() {
                ["games", _] => {
                    if let Some(g) = parse_source::<GameSpec>(&path, source, &mut errors) {
                        reg.games.insert(g.value.id.clone(), g);
                    }
                }
                ["tasks", _, _] => {
                    if let Some(t) = parse_source::<TaskSpec>(&path, source, &mut errors) {
                        reg.tasks
                            .insert((t.value.game_id.clone(), t.value.id.clone()), t);
                    }
                }
                ["models", _] => {
                    if let Some(m) = parse_source::<ModelSpec>(&path, source, &mut errors) {
                        reg.models.insert(m.value.id.clone(), m);
                    }
                }
                _ => {}
            }
        }
        errors.extend(reg.validate());
        if errors.is_empty() {
            Ok(reg)
        } else {
            Err(RegistryErrors(errors))
        }
    }

    /// Semantic checks beyond the YAML schema.
    pub fn validate(&self) -> Vec<RegistryError> {
        let mut errors = Vec::new();
        for g in self.games.values() {
            validate_game(g, &mut errors);
        }
        for t in self.tasks.values() {
            let task = &t.value;
            if stem(&t.file) != task.id {
                errors.push(t.err_at(
                    "id",
                    format!(
                        "task id \"{}\" does not match its file name \"{}\"",
                        task.id,
                        stem(&t.file)
                    ),
                ));
            }
            let dir = t
                .file
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if dir != task.game_id {
                errors.push(t.err_at(
                    "game_id",
                    format!(
                        "task is in tasks/{dir}/ but names game_id \"{}\"",
                        task.game_id
                    ),
                ));
            }
            match self.games.get(&task.game_id) {
                None => errors.push(t.err_at(
                    "game_id",
                    format!(
                        "unknown game \"{}\"; add registry/games/{}.yaml first",
                        task.game_id, task.game_id
                    ),
                )),
                Some(g) => {
                    if task.url_suffix.is_some() && g.value.backend.is_native() {
                        errors.push(t.err_at(
                            "url_suffix",
                            format!(
                                "url_suffix applies to browser games; \"{}\" is native",
                                task.game_id
                            ),
                        ));
                    }
                    if let Some(role) = &task.role
                        && !g.value.roles.iter().any(|r| &r.name == role)
                    {
                        errors.push(t.err_at(
                            "role",
                            format!("game \"{}\" has no role \"{role}\"", task.game_id),
                        ));
                    }
                }
            }
            match (&task.score_field, &task.aggregate_score_fields) {
                (Some(_), Some(_)) => errors.push(t.err_at(
                    "aggregate_score_fields",
                    "set either score_field or aggregate_score_fields, not both",
                )),
                (None, None) => errors
                    .push(t.err_at("id", "the task needs score_field or aggregate_score_fields")),
                (None, Some(v)) if v.is_empty() => errors
                    .push(t.err_at("aggregate_score_fields", "aggregate_score_fields is empty")),
                _ => {}
            }
            if let Some(ft) = &task.field_targets
                && let Some(problem) = field_targets_problem(task, ft)
            {
                errors.push(t.err_at("field_targets", problem));
            }
            for (key, v) in [("start", task.start), ("target", task.target)] {
                if let Some(problem) = bad_number(v, f64::MIN, MAX_SCORE) {
                    errors.push(t.err_at(
                        key,
                        format!("{key} {problem}; it must be a finite score within ±{MAX_SCORE:e}"),
                    ));
                }
            }
            if task.target == task.start {
                errors.push(t.err_at(
                    "target",
                    format!(
                        "target equals start ({}): progress would be undefined; set target to the score that counts as solved",
                        task.start
                    ),
                ));
            }
            if task.max_steps == 0 {
                errors.push(t.err_at("max_steps", "max_steps must be at least 1"));
            }
            if task.instruction.trim().is_empty() {
                errors.push(t.err_at("instruction", "instruction is empty"));
            }
        }
        for m in self.models.values() {
            let model = &m.value;
            if stem(&m.file) != model.id {
                errors.push(m.err_at(
                    "id",
                    format!(
                        "model id \"{}\" does not match its file name \"{}\"",
                        model.id,
                        stem(&m.file)
                    ),
                ));
            }
            if BUILTIN_AGENTS.contains(&model.id.as_str()) || model.id == MCP_AGENT {
                errors.push(m.err_at(
                    "id",
                    format!(
                        "\"{}\" is a built-in agent name; choose another id",
                        model.id
                    ),
                ));
            }
            if model.id.contains('+') {
                errors.push(m.err_at(
                    "id",
                    "model ids may not contain '+' (it separates preset parts)",
                ));
            }
            let limits: [(&str, Option<f64>, f64, f64, &str); 9] = [
                (
                    "timeout_s",
                    model.timeout_s,
                    0.001,
                    MAX_TIMEOUT_S,
                    "seconds",
                ),
                (
                    "retry_backoff_s",
                    model.retry_backoff_s,
                    0.0,
                    MAX_TIMEOUT_S,
                    "seconds",
                ),
                (
                    "max_retry_wait_s",
                    model.max_retry_wait_s,
                    0.0,
                    MAX_TIMEOUT_S,
                    "seconds",
                ),
                ("temperature", model.temperature, 0.0, 2.0, ""),
                (
                    "price_input_per_mtok",
                    model.price_input_per_mtok,
                    0.0,
                    MAX_PRICE,
                    "USD per million tokens",
                ),
                (
                    "price_output_per_mtok",
                    model.price_output_per_mtok,
                    0.0,
                    MAX_PRICE,
                    "USD per million tokens",
                ),
                (
                    "price_cached_input_per_mtok",
                    model.price_cached_input_per_mtok,
                    0.0,
                    MAX_PRICE,
                    "USD per million tokens",
                ),
                (
                    "price_cache_write_per_mtok",
                    model.price_cache_write_per_mtok,
                    0.0,
                    MAX_PRICE,
                    "USD per million tokens",
                ),
                (
                    "max_tokens",
                    model.max_tokens.map(f64::from),
                    1.0,
                    10_000_000.0,
                    "tokens",
                ),
            ];
            for (key, value, lo, hi, unit) in limits {
                if let Some(problem) = value.and_then(|v| bad_number(v, lo, hi)) {
                    errors.push(m.err_at(
                        key,
                        format!(
                            "{key} {problem}; it must be a number from {lo} to {hi}{}",
                            if unit.is_empty() {
                                String::new()
                            } else {
                                format!(" {unit}")
                            }
                        ),
                    ));
                }
            }
            for (key, value, hi, what) in [
                (
                    "max_retries",
                    model.max_retries,
                    MAX_RETRIES,
                    "retries after the first attempt",
                ),
                (
                    "memory_rounds",
                    model.memory_rounds,
                    MAX_MEMORY_ROUNDS,
                    "earlier steps remembered",
                ),
            ] {
                if let Some(v) = value.filter(|v| *v > hi) {
                    errors.push(m.err_at(
                        key,
                        format!("{key} is {v}; it must be a whole number from 0 to {hi} ({what})"),
                    ));
                }
            }
            if let Some(url) = &model.base_url
                && let Some(problem) = url_problem(url)
            {
                errors.push(m.err_at(
                    "base_url",
                    format!(
                        "base_url \"{}\" {problem}; write the endpoint root, e.g. http://127.0.0.1:8000/v1 or https://api.openai.com/v1",
                        url.escape_debug()
                    ),
                ));
            }
            if let Some(fields) = &model.memory_include_fields {
                for f in fields {
                    if !MEMORY_FIELDS.contains(&f.as_str()) {
                        errors.push(m.err_at(
                            "memory_include_fields",
                            format!(
                                "unknown memory_include_fields entry \"{f}\"; use any of {}",
                                MEMORY_FIELDS.join(", ")
                            ),
                        ));
                    }
                }
            }
            if let Some(h) = &model.hierarchical {
                for (key, value) in [
                    ("decision_every", h.decision_every),
                    ("subgoal_timeout_steps", h.subgoal_timeout_steps),
                ] {
                    if value == Some(0) {
                        errors.push(m.err_at(
                            key,
                            format!("hierarchical.{key} must be at least 1 (steps)"),
                        ));
                    }
                }
                if h.max_reasks.is_some_and(|n| n > 20) {
                    errors
                        .push(m.err_at("max_reasks", "hierarchical.max_reasks must be at most 20"));
                }
                if model.interface != Interface::Generalist {
                    errors.push(m.err_at(
                        "hierarchical",
                        "a hierarchical profile plays through the factored `act` control: set interface: generalist",
                    ));
                }
            }
            if model.provider == ProviderKind::Policy {
                if model.hierarchical.as_ref().is_some_and(|h| {
                    h.planner == PlannerKind::Model || h.policy == PolicyKind::Model
                }) {
                    errors.push(m.err_at(
                        "hierarchical",
                        "a `provider: policy` profile has no model to ask: use planner: graph and policy: goap (or skills)",
                    ));
                }
            } else {
                if model.model.trim().is_empty() {
                    errors.push(m.err_at(
                        "provider",
                        "model is missing: name the provider's model (e.g. model: gpt-5.2)",
                    ));
                }
                if model.checkpoint.is_some() {
                    errors.push(m.err_at(
                        "checkpoint",
                        "checkpoint is for `provider: policy` profiles (a GOAP checkpoint run locally)",
                    ));
                }
            }
            if let Some(env) = &model.api_key_env
                && (env.is_empty() || !env.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            {
                errors.push(m.err_at("api_key_env", format!("api_key_env must name an environment variable (letters, digits, _), got \"{env}\"")));
            }
        }
        errors
    }

    pub fn game(&self, id: &str) -> Option<&GameSpec> {
        self.games.get(id).map(|g| &g.value)
    }

    pub fn tasks_of<'a>(&'a self, game_id: &'a str) -> impl Iterator<Item = &'a TaskSpec> + 'a {
        self.tasks
            .values()
            .map(|t| &t.value)
            .filter(move |t| t.game_id == game_id)
    }

    /// Resolve `<game_id>+<task_id>+<model_id>`, or for a cooperative game
    /// `<game_id>+<task_id>+<model_a>,<model_b>` (one id per role in the
    /// game's role order; a single id fills every role).
    pub fn resolve_preset(&self, preset: &str) -> Result<Preset, String> {
        let parts: Vec<&str> = preset.split('+').collect();
        if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(format!(
                "preset \"{preset}\" must have three parts: <game_id>+<task_id>+<model_id> (e.g. 01_2048+01_01+scripted)"
            ));
        }
        let (game_id, task_id, models) = (parts[0], parts[1], parts[2]);
        let game = self.game(game_id).ok_or_else(|| {
            format!("unknown game \"{game_id}\" in preset \"{preset}\"; run `gameworld list games` to see the ids ({})", self.games.keys().cloned().collect::<Vec<_>>().join(", "))
        })?;
        let task = self.tasks.get(&(game_id.to_string(), task_id.to_string())).map(|t| &t.value).ok_or_else(|| {
            let ids: Vec<&str> = self.tasks_of(game_id).map(|t| t.id.as_str()).collect();
            format!("unknown task \"{task_id}\" for game \"{game_id}\" in preset \"{preset}\"; its tasks are: {}", if ids.is_empty() { "none".into() } else { ids.join(", ") })
        })?;
        let model_ids: Vec<&str> = models.split(',').map(str::trim).collect();
        if model_ids.iter().any(|m| m.is_empty()) {
            return Err(format!(
                "preset \"{preset}\" has an empty model id; separate one id per role with commas (e.g. random,scripted)"
            ));
        }
        let role_names: Vec<&str> = game.roles.iter().map(|r| r.name.as_str()).collect();
        let players: Vec<Player> = if game.is_cooperative() {
            let ids: Vec<&str> = match model_ids.len() {
                1 => vec![model_ids[0]; game.roles.len()],
                n if n == game.roles.len() => model_ids.clone(),
                n => {
                    return Err(format!(
                        "preset \"{preset}\" names {n} models, but game \"{game_id}\" has {} roles ({}); give one model id per role in that order, or one id for every role",
                        game.roles.len(),
                        role_names.join(", ")
                    ));
                }
            };
            let mut players = Vec::new();
            for (role, id) in game.roles.iter().zip(ids) {
                players.push(Player {
                    role: role.clone(),
                    agent: self.agent_ref(id, preset)?,
                });
            }
            players
        } else {
            if model_ids.len() != 1 {
                return Err(format!(
                    "preset \"{preset}\" names {} models, but game \"{game_id}\" is single-player; name one model id",
                    model_ids.len()
                ));
            }
            let role = match &task.role {
                Some(name) => game.roles.iter().find(|r| &r.name == name).cloned(),
                None => game.roles.first().cloned(),
            }
            .ok_or_else(|| format!("game \"{game_id}\" has no playable role"))?;
            vec![Player {
                role,
                agent: self.agent_ref(model_ids[0], preset)?,
            }]
        };
        if players.is_empty() {
            return Err(format!("game \"{game_id}\" has no playable role"));
        }
        Ok(Preset {
            preset: preset.to_string(),
            game: game.clone(),
            task: task.clone(),
            role: players[0].role.clone(),
            agent: players[0].agent.clone(),
            players,
        })
    }

    fn agent_ref(&self, model_id: &str, preset: &str) -> Result<AgentRef, String> {
        if BUILTIN_AGENTS.contains(&model_id) || is_human_agent(model_id) || model_id == MCP_AGENT {
            return Ok(AgentRef::Builtin(model_id.to_string()));
        }
        let m = self.models.get(model_id).map(|m| m.value.clone()).ok_or_else(|| {
            format!(
                "unknown model \"{model_id}\" in preset \"{preset}\"; use a built-in agent ({}) or a model id from `gameworld list models`",
                BUILTIN_AGENTS.join(", ")
            )
        })?;
        Ok(AgentRef::Model(Box::new(m)))
    }
}

/// Who plays: a built-in agent or a model profile.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentRef {
    Builtin(String),
    Model(Box<ModelSpec>),
}

impl AgentRef {
    pub fn id(&self) -> &str {
        match self {
            AgentRef::Builtin(s) => s,
            AgentRef::Model(m) => &m.id,
        }
    }
    pub fn interface(&self) -> Interface {
        match self {
            AgentRef::Builtin(_) => Interface::Generalist,
            AgentRef::Model(m) => m.interface,
        }
    }
}

/// A fully resolved preset: everything a run needs before its first frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    pub preset: String,
    pub game: GameSpec,
    pub task: TaskSpec,
    /// The first (or the task's) role and its agent.
    pub role: RoleSpec,
    pub agent: AgentRef,
    /// Every role that plays, in the game's role order, with its agent: one
    /// entry for single-player games (equal to `role`/`agent`), one per
    /// role for cooperative games.
    pub players: Vec<Player>,
}

/// One role of a preset and the agent that drives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    pub role: RoleSpec,
    pub agent: AgentRef,
}

impl Preset {
    /// Whether several roles play together (one agent each).
    pub fn is_cooperative(&self) -> bool {
        self.players.len() > 1
    }

    /// The preset as each role's agent sees it: `role` and `agent` set to
    /// that role's. A single-player preset gives itself.
    pub fn role_presets(&self) -> Vec<Preset> {
        if !self.is_cooperative() {
            return vec![self.clone()];
        }
        self.players
            .iter()
            .map(|p| Preset {
                role: p.role.clone(),
                agent: p.agent.clone(),
                players: vec![p.clone()],
                ..self.clone()
            })
            .collect()
    }

    /// The model id(s) as `result.json` names them: the agent's id, or for
    /// a cooperative preset the role agents' ids joined with `,` (one id
    /// when every role has the same agent).
    pub fn model_label(&self) -> String {
        if !self.is_cooperative() {
            return self.agent.id().to_string();
        }
        let ids: Vec<&str> = self.players.iter().map(|p| p.agent.id()).collect();
        if ids.iter().all(|id| *id == ids[0]) {
            ids[0].to_string()
        } else {
            ids.join(",")
        }
    }

    /// The model profiles this preset calls (any role).
    pub fn model_specs(&self) -> Vec<&ModelSpec> {
        let mut out = Vec::new();
        if !self.is_cooperative()
            && let AgentRef::Model(m) = &self.agent
        {
            out.push(m.as_ref());
            return out;
        }
        for p in &self.players {
            if let AgentRef::Model(m) = &p.agent {
                out.push(m.as_ref());
            }
        }
        out
    }
}

fn validate_game(g: &Sourced<GameSpec>, errors: &mut Vec<RegistryError>) {
    let game = &g.value;
    if game.frame_every == 0 || game.frame_every > MAX_FRAME_EVERY {
        errors.push(g.err_at(
            "frame_every",
            format!(
                "frame_every is {}; it must be a whole number from 1 to {MAX_FRAME_EVERY} (steps between stored frames)",
                game.frame_every
            ),
        ));
    }
    if stem(&g.file) != game.id {
        errors.push(g.err_at(
            "id",
            format!(
                "game id \"{}\" does not match its file name \"{}\"",
                game.id,
                stem(&g.file)
            ),
        ));
    }
    if !GENRES.contains(&game.genre.as_str()) {
        errors.push(g.err_at(
            "genre",
            format!(
                "unknown genre \"{}\"; use one of {}",
                game.genre,
                GENRES.join(", ")
            ),
        ));
    }
    let (w, h) = (game.viewport.width, game.viewport.height);
    if !(1..=MAX_VIEWPORT_SIDE).contains(&w) || !(1..=MAX_VIEWPORT_SIDE).contains(&h) {
        errors.push(g.err_at(
            "viewport",
            format!(
                "viewport {w}x{h} is outside 1x1..{MAX_VIEWPORT_SIDE}x{MAX_VIEWPORT_SIDE}; \
                 give the game's frame size in pixels, e.g. {{width: 1280, height: 720}}"
            ),
        ));
    }
    if !(1..=5).contains(&game.curriculum_level) {
        errors.push(g.err_at(
            "curriculum_level",
            format!("curriculum_level {} is outside 1..5", game.curriculum_level),
        ));
    }
    if let Some(problem) = bad_number(game.speed_multiplier, f64::MIN_POSITIVE, MAX_SPEED) {
        errors.push(g.err_at(
            "speed_multiplier",
            format!("speed_multiplier {problem}; it must be a positive number up to {MAX_SPEED}"),
        ));
    }
    for role in &game.roles {
        let mut durations: Vec<(&str, String, f64)> = Vec::new();
        if let Some(d) = role.hold_duration {
            durations.push(("hold_duration", "hold_duration".into(), d));
        }
        for (key, d) in role.key_durations.iter().flatten() {
            durations.push(("key_durations", format!("key_durations[{key}]"), *d));
        }
        for c in &role.semantic_controls {
            for (k, v) in &c.binding {
                if k.contains("duration") || k == "seconds" {
                    match v.as_f64() {
                        Some(d) => {
                            durations.push((k.as_str(), format!("control \"{}\": {k}", c.id), d))
                        }
                        None if !v.is_null() => errors.push(g.err_at(
                            k,
                            format!("control \"{}\": {k} must be a number of seconds", c.id),
                        )),
                        None => {}
                    }
                }
            }
        }
        for (key, label, d) in durations {
            if let Some(problem) = bad_number(d, 0.0, MAX_DURATION_S) {
                errors.push(g.err_at(
                    key,
                    format!(
                        "role \"{}\": {label} {problem}; durations are seconds from 0 to {MAX_DURATION_S}",
                        role.name
                    ),
                ));
            }
        }
    }
    if game.roles.is_empty() {
        errors.push(g.err_at("roles", "a game needs at least one role"));
    }
    match game.player_mode.as_str() {
        "single" => {}
        "cooperative" => {
            if game.roles.len() < 2 {
                errors.push(g.err_at(
                    "player_mode",
                    "a cooperative game needs at least two roles (one agent plays each)",
                ));
            }
            let mut names = std::collections::BTreeSet::new();
            for role in &game.roles {
                if !names.insert(role.name.as_str()) {
                    errors.push(g.err_at(
                        "roles",
                        format!("duplicate role \"{}\"; cooperative roles need distinct names (they name the per-role records)", role.name),
                    ));
                }
                if role.name.is_empty()
                    || !role
                        .name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    errors.push(g.err_at(
                        "roles",
                        format!("role name \"{}\" must be letters, digits, _ or - (it names model_calls.<role>.jsonl)", role.name),
                    ));
                }
            }
        }
        other => errors.push(g.err_at(
            "player_mode",
            format!("unknown player_mode \"{other}\"; use single or cooperative"),
        )),
    }
    let viewport = (game.viewport.width, game.viewport.height);
    for role in &game.roles {
        let controls = role.controls();
        let mut seen = std::collections::BTreeSet::new();
        for c in &role.semantic_controls {
            if !seen.insert(c.id.to_ascii_lowercase()) {
                errors.push(g.err_at(
                    "id",
                    format!(
                        "role \"{}\": duplicate semantic control \"{}\"",
                        role.name, c.id
                    ),
                ));
            }
            for req in &c.required {
                if !c.parameters.iter().any(|p| &p.name == req) {
                    errors.push(g.err_at(
                        "required",
                        format!(
                            "control \"{}\": required \"{req}\" is not a declared parameter",
                            c.id
                        ),
                    ));
                }
            }
            let cell_param = c.binding.get("cell_param") == Some(&Value::Bool(true));
            let mut probes: Vec<Map<String, Value>> = Vec::new();
            if cell_param {
                match &c.cell_bindings {
                    Some(cells) if !cells.is_empty() => {
                        for [x, y] in cells.values() {
                            let mut b = c.binding.clone();
                            b.remove("cell_param");
                            b.insert("x".into(), (*x).into());
                            b.insert("y".into(), (*y).into());
                            probes.push(b);
                        }
                    }
                    _ => errors.push(g.err_at(
                        "cell_param",
                        format!("control \"{}\" has cell_param but no cell_bindings", c.id),
                    )),
                }
            } else {
                let mut b = c.binding.clone();
                // Parameters filled at run time get a harmless probe value.
                for p in &c.parameters {
                    b.entry(p.name.clone())
                        .or_insert_with(|| match p.kind.as_str() {
                            "number" | "integer" => Value::from(1),
                            _ => Value::String(probe_text(&controls)),
                        });
                }
                probes.push(b);
            }
            for b in probes {
                let checked: Result<Action, String> = parse_action(&Value::Object(b))
                    .map_err(|e| e.reason)
                    .and_then(|a| controls.legalize(a, viewport).map_err(|e| e.reason));
                if let Err(reason) = checked {
                    errors.push(g.err_at(
                        "binding",
                        format!(
                            "role \"{}\", control \"{}\": binding is not executable: {reason}",
                            role.name, c.id
                        ),
                    ));
                    break;
                }
            }
        }
    }
    validate_backend(g, errors);
}

/// A short text typed with allowed keys only (to probe `type` bindings).
/// `backend`, `path` and `url` agree; a browser game's folder has its page.
/// Why browser game `id` cannot run from `dir`, and what to do.
pub fn missing_game_folder_message(id: &str, dir: &Path) -> String {
    format!(
        "browser game \"{id}\" cannot run: its folder {} has no index.html (path is relative to the registry root); \
         copy the game's folder there, or re-run import-reference with --games pointing at the folder that holds it",
        dir.display()
    )
}

fn validate_backend(g: &Sourced<GameSpec>, errors: &mut Vec<RegistryError>) {
    let game = &g.value;
    match (game.backend, &game.path, &game.url) {
        (Backend::Native, None, None) => {}
        (Backend::Native, p, _) => errors.push(g.err_at(
            if p.is_some() { "path" } else { "url" },
            "path and url belong to browser games; add `backend: browser` or remove them",
        )),
        (Backend::Browser, None, None) => errors.push(g.err_at(
            "backend",
            "a browser game needs `path` (its folder, relative to the registry root) or `url`",
        )),
        (Backend::Browser, Some(_), Some(_)) => {
            errors.push(g.err_at("url", "set either path or url, not both"))
        }
        // A folder that is missing (or lacks index.html) makes only that game
        // unusable: the registry loads, and running the game says why
        // (see [`Registry::missing_game_folders`]).
        (Backend::Browser, Some(_), None) => {}
        (Backend::Browser, None, Some(u)) => {
            if !(u.starts_with("http://") || u.starts_with("https://") || u.starts_with("file://"))
            {
                errors.push(g.err_at(
                    "url",
                    format!("url \"{u}\" must start with http://, https:// or file://"),
                ));
            }
        }
    }
}

fn probe_text(controls: &RoleControls) -> String {
    controls
        .allowed_keys
        .iter()
        .find(|k| k.chars().count() == 1)
        .cloned()
        .unwrap_or_else(|| "a".into())
}
