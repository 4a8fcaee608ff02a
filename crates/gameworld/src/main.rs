//! `gameworld`: the command line. Flags are parsed here, resolved against the
//! registry, then handed to the runtime; exit codes follow the SPEC (0 ok,
//! 1 runtime error, 2 configuration error).

use clap::{Args, Parser, Subcommand, ValueEnum};
use gw_core::registry::Registry;
use gw_runtime::{RunOptions, run_preset};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

mod panic;
mod verify_cmd;
mod world_cmd;
mod world_dagger;
mod world_dataset;
mod world_evals;
mod world_train;

#[derive(Parser)]
#[command(
    name = "gameworld",
    version,
    about = "Build and evaluate multimodal game agents on verifiable native games"
)]
struct Cli {
    /// Extra registry root (repeatable); later roots add entries or replace
    /// entries with the same id. The project's registry/ always comes first.
    #[arg(long = "registry", global = true, value_name = "DIR")]
    registry: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List games, tasks or models.
    List(ListArgs),
    /// Run one task: <game_id>+<task_id>+<model_id>.
    Run(RunArgs),
    /// Check the registry; errors name file, line and column.
    Validate,
    /// Expand and run a suite of tasks × models × seeds × repeats.
    Suite(SuiteArgs),
    /// Measure simulation speed and per-step runtime overhead per game.
    Bench(BenchArgs),
    /// Rebuild summary.json, runs.csv, by_model.csv, report.md and
    /// report.html from run directories (several folders merge).
    Report(ReportArgs),
    /// Convert an original GameWorld catalog (games/, tasks/, models/ YAML)
    /// and its game folders into a registry root of browser games.
    ImportReference(ImportArgs),
    /// The open world: crafting knowledge graph and planner.
    #[command(subcommand)]
    World(world_cmd::WorldCommand),
    /// Serve the web app: play tasks, view runs, follow a running suite.
    Serve(ServeArgs),
    /// Export a run's frames as an animated GIF.
    Clip(ClipArgs),
    /// Serve one task as a Model Context Protocol server: an MCP client
    /// plays the run through tools (<game_id>+<task_id>).
    Mcp(McpArgs),
    /// Re-play runs from their preset, seed and recorded actions and check
    /// every step and the result.json totals.
    Verify(verify_cmd::VerifyArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum McpInterface {
    Generalist,
    ComputerUse,
}

#[derive(Clone, Copy, ValueEnum)]
enum McpTransport {
    Stdio,
    Http,
}

#[derive(Args)]
struct McpArgs {
    /// <game_id>+<task_id>, e.g. 01_2048+01_01 (the MCP client is the agent;
    /// the run's model id is `mcp`).
    preset: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stdio: the run directory (default runs/<game>+<task>+mcp/seed-<N>).
    /// HTTP: the folder that gets one run-NNN folder per MCP session.
    #[arg(long)]
    out: Option<PathBuf>,
    /// generalist: one tool per semantic action; computer-use: one
    /// `computer` tool (key, click, drag, wait).
    #[arg(long, value_enum, default_value = "generalist")]
    interface: McpInterface,
    /// Let the game clock run by the wall time between calls (default:
    /// paused, the game waits for the next call).
    #[arg(long)]
    realtime: bool,
    #[arg(long, value_enum, default_value = "stdio")]
    transport: McpTransport,
    /// HTTP: port on 127.0.0.1 (0 picks a free one; the address is printed
    /// on stderr).
    #[arg(long, default_value_t = 8322)]
    port: u16,
    /// HTTP: MCP sessions at once (each plays its own run; a cooperative
    /// game takes one session per role).
    #[arg(long, default_value_t = 4)]
    max_sessions: usize,
    /// HTTP: listen on another address than 127.0.0.1 (needs --allow-remote:
    /// anyone who reaches it can start runs on this machine).
    #[arg(long, value_name = "ADDR")]
    bind: Option<std::net::IpAddr>,
    #[arg(long)]
    allow_remote: bool,
    /// Cooperative games: seconds a step waits for the roles that have not
    /// called an action (they send none).
    #[arg(long, default_value_t = 120)]
    step_timeout: u64,
}

#[derive(Args)]
struct ImportArgs {
    /// The original catalog folder (holding games/, tasks/, models/).
    #[arg(long)]
    catalog: PathBuf,
    /// The folder holding one game folder per game id (index.html, game_api.js).
    #[arg(long)]
    games: PathBuf,
    /// The registry root to write (use it with --registry DIR).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
struct ServeArgs {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 8321)]
    port: u16,
    /// Runs folder (repeatable): shown in the viewer; plays are written
    /// under the first one's plays/.
    #[arg(long = "runs", value_name = "DIR", default_values_t = [String::from("runs")])]
    runs: Vec<String>,
    /// Listen on another address than 127.0.0.1 (needs --allow-remote:
    /// anyone who reaches it can start plays and read every run).
    #[arg(long, value_name = "ADDR")]
    bind: Option<std::net::IpAddr>,
    /// Answer requests addressed to these host names too (comma-separated;
    /// by default only localhost and loopback addresses are answered, a
    /// guard against DNS rebinding). Without names: any host name.
    #[arg(long, value_name = "HOSTS", num_args = 0..=1, default_missing_value = "", value_delimiter = ',')]
    allow_remote: Option<Vec<String>>,
}

#[derive(Args)]
struct ClipArgs {
    /// A run directory (with frames/).
    run_dir: PathBuf,
    /// Output file (default: RUN_DIR/clip.gif).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Steps per second in the clip.
    #[arg(long, default_value_t = 4)]
    fps: u32,
    /// Frames wider than this are scaled down.
    #[arg(long, default_value_t = 480)]
    width: u32,
}

#[derive(Clone, Copy, ValueEnum)]
enum ListWhat {
    Games,
    Tasks,
    Models,
}

#[derive(Args)]
struct ListArgs {
    what: ListWhat,
    /// Print one JSON array.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct RunArgs {
    /// <game_id>+<task_id>+<model_id>, e.g. 01_2048+01_01+scripted; a
    /// cooperative game takes one model id per role: <game_id>+<task_id>+<m1>,<m2>
    preset: String,
    /// Seed (default 1, or the recorded run's seed with --replay).
    #[arg(long)]
    seed: Option<u64>,
    /// Run directory (default runs/<preset>/seed-<N>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Let the game clock run during the agent's inference time.
    #[arg(long)]
    realtime: bool,
    /// Override the task's step budget.
    #[arg(long)]
    max_steps: Option<u32>,
    /// Do not write frames/ (model agents still see frames).
    #[arg(long)]
    no_frames: bool,
    /// Answer model calls offline from RUN_DIR/model_calls.jsonl of a
    /// recorded run (default --out: RUN_DIR.replay).
    #[arg(long, value_name = "RUN_DIR")]
    replay: Option<PathBuf>,
}

#[derive(Args)]
struct SuiteArgs {
    /// Suite YAML (e.g. registry/suites/smoke.yaml).
    file: PathBuf,
    /// Output directory (default runs/suites/<suite name>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Runs at once.
    #[arg(long, default_value_t = 2)]
    max_parallel: usize,
    /// Skip runs whose result.json exists.
    #[arg(long)]
    resume: bool,
    /// Run slice I of N (1-based). Also read from SLURM_ARRAY_TASK_ID/COUNT
    /// or JOB_COMPLETION_INDEX + GAMEWORLD_SHARD_COUNT.
    #[arg(long)]
    shard: Option<String>,
    /// Plain line output even on a terminal.
    #[arg(long)]
    plain: bool,
}

#[derive(Args)]
struct BenchArgs {
    #[arg(long)]
    json: bool,
    /// Comma-separated game ids (default: every native game).
    #[arg(long, value_delimiter = ',')]
    games: Vec<String>,
    /// Seconds of simulation per game for the steps/s figure.
    #[arg(long, default_value_t = 1.0)]
    sim_seconds: f64,
    /// Full runtime steps measured per game for the overhead median.
    #[arg(long, default_value_t = 60)]
    steps: usize,
    /// Instead: encode `--steps` frames of each game with every PNG row
    /// filter and report encoding time and size per filter.
    #[arg(long)]
    png_filters: bool,
    /// Instead: time the environment side of this suite (every planned run
    /// of a native game, with a stand-in agent that answers at once).
    #[arg(long, value_name = "FILE")]
    suite: Option<PathBuf>,
    /// With --suite: measure at most this many runs, spread over the plan,
    /// and scale up to the whole suite.
    #[arg(long, value_name = "N")]
    max_runs: Option<usize>,
}

#[derive(Args)]
struct ReportArgs {
    /// Folders searched recursively for result.json / error.json.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write the report (default: the first DIR).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folders of `random` / `noop` runs (e.g. the output of the `baselines`
    /// suite) used only for the chance floors; such runs among DIR count too.
    #[arg(long, value_name = "DIR")]
    baselines: Vec<PathBuf>,
    /// Instead: write leaderboard.html / leaderboard.json, one row per model
    /// and interface over every DIR (suite folders), each row verified by
    /// re-playing its runs.
    #[arg(long)]
    leaderboard: bool,
    /// With --leaderboard: skip the re-play (rows say "not checked").
    #[arg(long, requires = "leaderboard")]
    no_verify: bool,
}

/// `gameworld report --leaderboard`: exit 2 when a folder holds no run, 1
/// when writing fails. Rows that do not verify are marked, not fatal.
fn leaderboard(registry: &[PathBuf], args: ReportArgs) -> CmdResult {
    let reg = if args.no_verify {
        None
    } else {
        Some(load_registry(registry).map_err(config)?)
    };
    let out = args.out.unwrap_or_else(|| args.dirs[0].clone());
    let parallel = std::thread::available_parallelism().map_or(1, |n| n.get());
    let board = gw_runtime::report::leaderboard::write(&args.dirs, reg.as_ref(), parallel, &out)
        .map_err(|e| {
            if e.contains("holds no run") || e.contains("not a folder") {
                config(e)
            } else {
                (1, e)
            }
        })?;
    let verified = board
        .rows
        .iter()
        .filter(|r| r.verification == "verified")
        .count();
    println!(
        "leaderboard: {} model/interface pairs ({verified} verified) → {}",
        board.rows.len(),
        out.join("leaderboard.html").display()
    );
    Ok(())
}

/// `gameworld report`: exit 2 when no run is found, 1 when writing fails.
fn report(args: ReportArgs) -> CmdResult {
    let rows = gw_runtime::report::collect_runs(&args.dirs).map_err(config)?;
    if rows.is_empty() {
        return Err(config(format!(
            "no runs found: none of {} holds a result.json or error.json",
            args.dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let out = args.out.unwrap_or_else(|| args.dirs[0].clone());
    for b in &args.baselines {
        if !b.is_dir() {
            return Err(config(format!(
                "--baselines {}: not a directory (pass the output folder of `gameworld suite registry/suites/baselines.yaml`)",
                b.display()
            )));
        }
    }
    let s = gw_runtime::report::write_report_with_baselines(&args.dirs, &args.baselines, &out)
        .map_err(|e| (1, e))?;
    println!(
        "report: {} runs ({} ok, {} partial, {} failed), {} model/interface pairs → {}",
        s.counts.runs,
        s.counts.ok,
        s.counts.partial,
        s.counts.failed,
        s.counts.models,
        out.join("report.html").display()
    );
    Ok(())
}

/// The project's registry: $GAMEWORLD_REGISTRY, ./registry, or the one next
/// to the sources this binary was built from.
fn default_registry() -> PathBuf {
    if let Some(p) = std::env::var_os("GAMEWORLD_REGISTRY") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("registry");
    if local.join("games").is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

fn load_registry(extra: &[PathBuf]) -> Result<Registry, String> {
    let mut roots = vec![default_registry()];
    roots.extend(extra.iter().cloned());
    Registry::load(&roots).map_err(|e| {
        format!("{e}\nthe registry has errors; fix them (run `gameworld validate`) and try again")
    })
}

fn main() -> ExitCode {
    panic::install();
    // GAMEWORLD_PARSE_ONLY=1: check the command line and stop (exit 0, or
    // clap's message and exit 2). The guide's commands are checked this way
    // (tests/guide_commands.rs) without running them.
    if std::env::var_os("GAMEWORLD_PARSE_ONLY").is_some_and(|v| v == "1") {
        return match Cli::try_parse() {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                let _ = e.print();
                ExitCode::from(if e.use_stderr() { 2 } else { 0 })
            }
        };
    }
    let cli = Cli::parse();
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, msg)) => {
            // Secrets masked, terminal escape sequences from provider text removed.
            eprintln!("error: {}", gw_agents::secrets::error_text(&msg));
            ExitCode::from(code)
        }
    }
}

type CmdResult = Result<(), (u8, String)>;

fn config(msg: String) -> (u8, String) {
    (2, msg)
}

fn import_reference(args: ImportArgs) -> CmdResult {
    // Genre and curriculum level of games the project already knows.
    let known = Registry::load(&[default_registry()]).ok();
    let facts = |id: &str| {
        known
            .as_ref()
            .and_then(|r| r.game(id))
            .map(|g| (g.genre.clone(), g.curriculum_level))
    };
    let report = gw_browser::import::import_catalog(&args.catalog, &args.games, &args.out, &facts)
        .map_err(config)?;
    for note in &report.notes {
        println!("note: {note}");
    }
    // Games whose folder is missing are left out; say so where errors go.
    if !report.missing_games.is_empty() {
        eprintln!(
            "warning: {} catalog game(s) have no folder under {} and were not imported (nor their tasks): {}",
            report.missing_games.len(),
            args.games.display(),
            report
                .missing_games
                .iter()
                .map(|m| format!(
                    "{} ({} tasks; looked for {}/index.html)",
                    m.id, m.tasks_skipped, m.folder
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for r in &report.rejected {
        eprintln!("warning: not imported: {r}");
    }
    let report_path = args.out.join("import-report.json");
    let bytes = serde_json::to_vec_pretty(&report).expect("report serializes");
    gw_core::frame::write_atomic(&report_path, &bytes)
        .map_err(|e| (1, format!("{}: {e}", report_path.display())))?;
    println!(
        "imported {} games, {} tasks, {} models into {} ({} notes, also in {}); run them with --registry {}",
        report.games,
        report.tasks,
        report.models,
        args.out.display(),
        report.notes.len(),
        report_path.display(),
        args.out.display()
    );
    // The result must load as a registry.
    Registry::load(&[default_registry(), args.out.clone()]).map_err(|e| {
        config(format!(
            "the imported registry has errors:\n{e}\nedit the files under {} (the notes above say what was guessed)",
            args.out.display()
        ))
    })?;
    Ok(())
}

fn dispatch(cli: Cli) -> CmdResult {
    match cli.command {
        Command::Validate => {
            let reg = load_registry(&cli.registry).map_err(config)?;
            // Task score/end paths must exist in each game's real state.
            let mut problems: Vec<String> = gw_runtime::validate::state_paths(&reg)
                .iter()
                .map(|e| e.to_string())
                .collect();
            // Suites must parse and expand against this registry.
            let mut suites = 0;
            for root in &reg.roots {
                let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("suites"))
                    .map(|rd| {
                        rd.filter_map(|e| e.ok().map(|e| e.path()))
                            .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
                            .collect()
                    })
                    .unwrap_or_default();
                files.sort();
                for f in files {
                    suites += 1;
                    match gw_runtime::suite::load_suite(&f) {
                        Err(e) => problems.push(e),
                        Ok(spec) => {
                            if let Err(e) = gw_runtime::suite::expand(&spec, &reg) {
                                // Point at the key the problem is about where possible.
                                let text = std::fs::read_to_string(&f).unwrap_or_default();
                                let key = if e.starts_with("suite name") {
                                    "name"
                                } else {
                                    "cases"
                                };
                                let (line, col) = gw_core::registry::locate_key(&text, key);
                                problems.push(format!("{}:{line}:{col}: {e}", f.display()));
                            }
                        }
                    }
                }
            }
            if !problems.is_empty() {
                return Err(config(problems.join("\n")));
            }
            // Not errors: only these games are unusable, the rest runs.
            for w in reg.missing_game_folders() {
                eprintln!("warning: {w}");
            }
            println!(
                "registry ok: {} games, {} tasks, {} models, {suites} suites ({})",
                reg.games.len(),
                reg.tasks.len(),
                reg.models.len(),
                reg.roots
                    .iter()
                    .map(|r| r.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            Ok(())
        }
        Command::List(args) => list(&load_registry(&cli.registry).map_err(config)?, args),
        Command::Run(args) => {
            let reg = load_registry(&cli.registry).map_err(config)?;
            let seed = args
                .seed
                .or_else(|| args.replay.as_deref().and_then(gw_runtime::recorded_seed))
                .unwrap_or(1);
            let out = match (args.out, &args.replay) {
                (Some(out), _) => out,
                (None, Some(dir)) => PathBuf::from(format!("{}.replay", dir.display())),
                (None, None) => PathBuf::from("runs")
                    .join(&args.preset)
                    .join(format!("seed-{seed}")),
            };
            let opts = RunOptions {
                preset: args.preset,
                seed,
                out: out.clone(),
                realtime: args.realtime,
                max_steps: args.max_steps,
                frames: !args.no_frames,
                memory_rounds: None,
                repeat: 0,
                replay: args.replay,
                sparse_frames: None,
            };
            match run_preset(&reg, &opts) {
                Ok(r) => {
                    println!(
                        "{} seed {}: {} — best {} of target {} (progress {:.2}) in {} steps, {} episode(s), stop: {}; valid {}/{} → {}",
                        r.preset,
                        r.seed,
                        if r.success { "success" } else { "not solved" },
                        r.best_score,
                        r.target_score,
                        r.progress,
                        r.steps,
                        r.episodes,
                        r.stop_reason,
                        r.valid_actions,
                        r.proposed_actions,
                        out.display()
                    );
                    Ok(())
                }
                Err(e) => Err((e.exit_code() as u8, e.to_string())),
            }
        }
        Command::Suite(args) => {
            let reg = load_registry(&cli.registry).map_err(config)?;
            let spec = gw_runtime::suite::load_suite(&args.file).map_err(config)?;
            let shard = match &args.shard {
                Some(s) => Some(gw_runtime::suite::Shard::parse(s).map_err(config)?),
                None => {
                    gw_runtime::suite::Shard::from_env(|k| std::env::var(k).ok()).map_err(config)?
                }
            };
            let out = args
                .out
                .unwrap_or_else(|| PathBuf::from("runs/suites").join(&spec.name));
            let opts = gw_runtime::suite::SuiteOptions {
                out: out.clone(),
                max_parallel: args.max_parallel,
                resume: args.resume,
                shard,
                plain: args.plain,
            };
            let outcome = gw_runtime::suite::run_suite(&spec, &reg, &opts)
                .map_err(|e| (e.exit_code() as u8, e.to_string()))?;
            let summary = gw_runtime::report::write_report(std::slice::from_ref(&out), &out)
                .map_err(|e| (1, e))?;
            println!(
                "suite {}: {} runs planned, {} in this shard, {} skipped (already done), {} finished, {} errors → {} (report.html, summary.json)",
                spec.name,
                outcome.planned,
                outcome.in_shard,
                outcome.skipped,
                outcome.finished,
                outcome.errors,
                out.display()
            );
            for row in &summary.leaderboard {
                println!(
                    "  #{} {:<28} {:<13} SR {:>5.1}%  PG {:>5.1}%  ({} runs)",
                    row.rank, row.model, row.interface, row.sr, row.pg, row.runs
                );
            }
            Ok(())
        }
        Command::Report(args) if args.leaderboard => leaderboard(&cli.registry, args),
        Command::Report(args) => report(args),
        Command::ImportReference(args) => import_reference(args),
        Command::World(cmd) => world_cmd::run(cmd, &cli.registry),
        Command::Serve(args) => serve(&cli.registry, args),
        Command::Clip(args) => clip(args),
        Command::Mcp(args) => mcp(&cli.registry, args),
        Command::Verify(args) => {
            verify_cmd::run(&load_registry(&cli.registry).map_err(config)?, args)
        }
        Command::Bench(args) => {
            let reg = load_registry(&cli.registry).map_err(config)?;
            let games: Vec<String> = if args.games.is_empty() {
                gw_games::GAME_IDS.iter().map(|s| s.to_string()).collect()
            } else {
                args.games
            };
            let mut rows = Vec::new();
            for g in &games {
                if g == gw_runtime::bench::OPENWORLD {
                    let row = gw_runtime::bench::bench_openworld(
                        std::time::Duration::from_secs_f64(args.sim_seconds.max(0.05)),
                        args.steps.max(5),
                    );
                    if !args.json {
                        println!(
                            "{:<28} sim {:>12.0} steps/s   64x64 {:>8.0} steps/s   640x360 {:>6.0} steps/s   reset {:.1} ms",
                            row.game_id,
                            row.sim_steps_per_s,
                            row.render_steps_per_s_64x64.unwrap_or(0.0),
                            row.render_steps_per_s_640x360.unwrap_or(0.0),
                            row.reset_ms_median.unwrap_or(0.0)
                        );
                    }
                    rows.push(row);
                    continue;
                }
                let browser = reg
                    .game(g)
                    .is_some_and(|s| s.backend == gw_core::registry::Backend::Browser);
                if !browser && gw_games::create(g).is_none() {
                    return Err(config(format!(
                        "unknown game \"{g}\" for --games; native games: {}",
                        gw_games::GAME_IDS.join(", ")
                    )));
                }
            }
            if let Some(suite) = &args.suite {
                let b =
                    gw_runtime::bench::bench_suite(&reg, suite, args.max_runs).map_err(config)?;
                if args.json {
                    println!("{}", serde_json::to_string_pretty(&b).expect("serializes"));
                } else {
                    println!(
                        "suite {}: {} runs on native games ({} not native), measured {} runs / {} steps in {:.1} s",
                        b.suite,
                        b.runs_planned,
                        b.runs_not_native,
                        b.runs_measured,
                        b.steps_measured,
                        b.env_seconds_measured
                    );
                    println!(
                        "environment: {:.3} ms per step (median run {:.3} ms); whole suite ≈ {:.0} steps ≈ {:.1} s on one core",
                        b.env_ms_per_step,
                        b.env_ms_per_step_median_run,
                        b.suite_steps_estimate,
                        b.suite_env_seconds_estimate
                    );
                    println!(
                        "paper-scale evaluation ({} steps) ≈ {:.1} s ({:.1} min) of environment time on one core",
                        b.paper_steps,
                        b.paper_env_seconds_estimate,
                        b.paper_env_seconds_estimate / 60.0
                    );
                }
                return Ok(());
            }
            if args.png_filters {
                let mut all = Vec::new();
                for g in games.iter().filter(|g| *g != gw_runtime::bench::OPENWORLD) {
                    let rows = gw_runtime::bench::bench_png_filters(&reg, g, args.steps.max(5))
                        .map_err(|e| (1, e))?;
                    if !args.json {
                        for r in &rows {
                            println!(
                                "{:<28} {:<10} encode median {:>6.2} ms  {:>9.0} bytes/frame{}",
                                r.game_id,
                                r.filter,
                                r.encode_ms_median,
                                r.bytes_mean,
                                if r.chosen { "  (chosen)" } else { "" }
                            );
                        }
                    }
                    all.extend(rows);
                }
                if args.json {
                    println!(
                        "{}",
                        serde_json::to_string_pretty(&all).expect("rows serialize")
                    );
                }
                return Ok(());
            }
            // The open world's row was measured above; it has no tasks to run.
            if !args.json {
                println!(
                    "bench: {} games; per game {:.2} s of simulation only, then {} full runtime steps (step + render + PNG at the game's viewport; medians in ms); load average at start: {}",
                    games.len(),
                    args.sim_seconds.max(0.05),
                    args.steps.max(5),
                    load_average()
                );
            }
            for g in games.iter().filter(|g| *g != gw_runtime::bench::OPENWORLD) {
                let row = gw_runtime::bench::bench_game(
                    &reg,
                    g,
                    std::time::Duration::from_secs_f64(args.sim_seconds.max(0.05)),
                    args.steps.max(5),
                )
                .map_err(|e| (1, e))?;
                if !args.json {
                    println!(
                        "{:<28} sim {:>12.0} steps/s   overhead median {:>6.2} ms  (step {:.2} + render {:.2} + png {:.2})",
                        row.game_id,
                        row.sim_steps_per_s,
                        row.step_overhead_ms_median,
                        row.step_ms_median,
                        row.render_ms_median,
                        row.png_ms_median
                    );
                }
                rows.push(row);
            }
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&rows).expect("rows serialize")
                );
            } else {
                println!("load average at end: {}", load_average());
            }
            Ok(())
        }
    }
}

/// The 1, 5 and 15 minute load averages (Linux), so a bench table says how
/// busy the machine was; "unknown" elsewhere.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".to_string())
}

fn list(reg: &Registry, args: ListArgs) -> CmdResult {
    let rows: Vec<serde_json::Value> = match args.what {
        ListWhat::Games => reg
            .games
            .values()
            .map(|g| {
                let g = &g.value;
                json!({"game_id": g.id, "name": g.name, "genre": g.genre, "curriculum_level": g.curriculum_level,
                       "tasks": reg.tasks_of(&g.id).count(), "native": gw_games::create(&g.id).is_some(),
                       "backend": if g.backend.is_native() { "native" } else { "browser" },
                       "roles": g.roles.iter().map(|r| r.name.clone()).collect::<Vec<_>>(), "player_mode": g.player_mode})
            })
            .collect(),
        ListWhat::Tasks => reg
            .tasks
            .values()
            .map(|t| {
                let t = &t.value;
                json!({"game_id": t.game_id, "task_id": t.id, "preset_prefix": format!("{}+{}", t.game_id, t.id),
                       "max_steps": t.max_steps, "target": t.target, "start": t.start, "score_field": t.score_label(),
                       "level": t.level, "instruction": t.instruction.trim(),
                       "suite": t.suite, "group": t.group, "target_item": t.target_item})
            })
            .collect(),
        ListWhat::Models => reg
            .models
            .values()
            .map(|m| {
                let m = &m.value;
                json!({"model_id": m.id, "provider": m.provider, "model": m.model, "interface": m.interface, "protocol": m.protocol,
                       "base_url": m.base_url, "api_key_env": m.api_key_env})
            })
            .collect(),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).expect("rows serialize")
        );
        return Ok(());
    }
    for r in rows {
        match args.what {
            ListWhat::Games => println!(
                "{:<30} {:<12} L{} {:>2} tasks  {}",
                r["game_id"].as_str().unwrap_or(""),
                r["genre"].as_str().unwrap_or(""),
                r["curriculum_level"],
                r["tasks"],
                r["name"].as_str().unwrap_or("")
            ),
            ListWhat::Tasks => println!(
                "{:<36} {:<28} {} → {} in {} steps",
                r["preset_prefix"].as_str().unwrap_or(""),
                r["score_field"].as_str().unwrap_or(""),
                r["start"],
                r["target"],
                r["max_steps"]
            ),
            ListWhat::Models => println!(
                "{:<32} {:<10} {:<13} {}",
                r["model_id"].as_str().unwrap_or(""),
                r["provider"].as_str().unwrap_or(""),
                r["interface"].as_str().unwrap_or(""),
                r["model"].as_str().unwrap_or("")
            ),
        }
    }
    Ok(())
}

fn serve(extra: &[PathBuf], args: ServeArgs) -> CmdResult {
    let ip = match args.bind {
        None => std::net::IpAddr::from([127, 0, 0, 1]),
        Some(ip) if ip.is_loopback() || args.allow_remote.is_some() => ip,
        Some(ip) => {
            return Err(config(format!(
                "--bind {ip} would let other machines play and read every run; add --allow-remote to confirm, or leave --bind out to stay on 127.0.0.1"
            )));
        }
    };
    let registry = load_registry(extra).map_err(config)?;
    let runs: Vec<PathBuf> = args.runs.iter().map(PathBuf::from).collect();
    // An unusable --runs folder is the caller's to fix (exit 2); a port in
    // use or a server that stops is a runtime error (exit 1).
    let mut state = gw_web::AppState::new(registry, &runs).map_err(config)?;
    let mut hosts = gw_web::guard::HostPolicy::from_flag(args.allow_remote.as_deref());
    match &mut hosts {
        // The address it listens on is a name clients use.
        gw_web::guard::HostPolicy::Also(names) if !ip.is_unspecified() => {
            names.push(ip.to_string().to_ascii_lowercase())
        }
        gw_web::guard::HostPolicy::Any => eprintln!(
            "warning: --allow-remote without host names answers requests under any host name (no DNS-rebinding guard); name the hosts to keep it"
        ),
        _ => {}
    }
    state.hosts = hosts;
    let addr = std::net::SocketAddr::new(ip, args.port);
    gw_web::serve_state(std::sync::Arc::new(state), addr).map_err(|e| (1, e))
}

fn mcp(extra: &[PathBuf], args: McpArgs) -> CmdResult {
    let bind = match args.bind {
        None => std::net::IpAddr::from([127, 0, 0, 1]),
        Some(ip) if ip.is_loopback() || args.allow_remote => ip,
        Some(ip) => {
            return Err(config(format!(
                "--bind {ip} would let other machines start runs and play them; add --allow-remote to confirm, or leave --bind out to stay on 127.0.0.1"
            )));
        }
    };
    if args.step_timeout == 0 {
        return Err(config("--step-timeout must be at least 1 second".into()));
    }
    let registry = load_registry(extra).map_err(config)?;
    let out = args.out.unwrap_or_else(|| {
        PathBuf::from("runs")
            .join(format!("{}+{}", args.preset, gw_core::registry::MCP_AGENT))
            .join(format!("seed-{}", args.seed))
    });
    let opts = gw_mcp::McpOptions {
        preset: args.preset,
        seed: args.seed,
        out,
        interface: match args.interface {
            McpInterface::Generalist => gw_core::registry::Interface::Generalist,
            McpInterface::ComputerUse => gw_core::registry::Interface::ComputerUse,
        },
        realtime: args.realtime,
        transport: match args.transport {
            McpTransport::Stdio => gw_mcp::Transport::Stdio,
            McpTransport::Http => gw_mcp::Transport::Http,
        },
        bind,
        port: args.port,
        max_sessions: args.max_sessions,
        step_timeout: std::time::Duration::from_secs(args.step_timeout),
        one_run: false,
    };
    gw_mcp::serve(std::sync::Arc::new(registry), opts)
}

fn clip(args: ClipArgs) -> CmdResult {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.run_dir.join("clip.gif"));
    let opts = gw_web::clip::ClipOptions {
        fps: args.fps.clamp(1, 50),
        max_width: args.width.max(16),
        ..Default::default()
    };
    let mut buf = Vec::new();
    let n = gw_web::clip::write_gif(&args.run_dir, &mut buf, opts).map_err(config)?;
    gw_core::frame::write_atomic(&out, &buf)
        .map_err(|e| (1, format!("cannot write {}: {e}", out.display())))?;
    println!("{} ({n} frames)", out.display());
    Ok(())
}
