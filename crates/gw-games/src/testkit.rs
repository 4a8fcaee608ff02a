//! Helpers the game tests share: load the project registry, play a task with
//! the scripted expert through the real action layer and evaluator, and hash
//! rendered frames for golden tests.

use gw_core::frame::{frame_hash, pixmap_rgb};
use gw_core::registry::{Interface, Preset, Registry};
use gw_core::{Rng, Stepper, StopReason};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::OnceLock;

pub fn registry_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry")
}

/// The project registry (loaded once per test binary; panics with the
/// located errors if it does not validate).
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        Registry::load(&[registry_root()])
            .unwrap_or_else(|e| panic!("registry does not validate:\n{e}"))
    })
}

pub fn preset(game_id: &str, task_id: &str) -> Preset {
    registry()
        .resolve_preset(&format!("{game_id}+{task_id}+scripted"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A new stepper for a task and seed.
pub fn stepper(game_id: &str, task_id: &str, seed: u64) -> Stepper {
    let game =
        crate::create(game_id).unwrap_or_else(|| panic!("game {game_id} is not in the catalog"));
    Stepper::new(game, &preset(game_id, task_id), seed).unwrap_or_else(|e| panic!("{e}"))
}

/// Outcome of one played task.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayResult {
    pub success: bool,
    pub best_score: f64,
    pub steps: u32,
    pub episodes: u32,
    pub stop: Option<StopReason>,
}

/// Play a task to its end with `policy` choosing semantic payloads.
pub fn play(
    game_id: &str,
    task_id: &str,
    seed: u64,
    mut policy: impl FnMut(&Stepper) -> Option<Value>,
) -> PlayResult {
    let mut s = stepper(game_id, task_id, seed);
    let mut stop = None;
    while s.finished().is_none() {
        let payload = policy(&s);
        let rec = s
            .step(Interface::Generalist, payload.as_ref())
            .unwrap_or_else(|e| panic!("{e}"));
        if let gw_core::Decision::Stop(r) = rec.eval.decision {
            stop = Some(r);
        }
    }
    play_result(&s, stop)
}

/// The outcome of a finished play.
fn play_result(s: &Stepper, stop: Option<StopReason>) -> PlayResult {
    PlayResult {
        success: s.evaluator().success(),
        best_score: s.evaluator().best_score(),
        steps: s.step_index(),
        episodes: s.episode() + 1,
        stop,
    }
}

pub fn play_expert(game_id: &str, task_id: &str, seed: u64) -> PlayResult {
    if stepper(game_id, task_id, seed).role_names().len() > 1 {
        return play_joint(game_id, task_id, seed, |s, i| Some(s.expert_payload_for(i)));
    }
    play(game_id, task_id, seed, |s| Some(s.expert_payload()))
}

/// Play a cooperative task to its end: every step, `policy(stepper, role)`
/// proposes each role's payload against the same state, and the stepper
/// executes them together.
pub fn play_joint(
    game_id: &str,
    task_id: &str,
    seed: u64,
    mut policy: impl FnMut(&Stepper, usize) -> Option<Value>,
) -> PlayResult {
    let mut s = stepper(game_id, task_id, seed);
    let roles = s.role_names().len();
    let mut stop = None;
    while s.finished().is_none() {
        let payloads: Vec<Option<Value>> = (0..roles).map(|i| policy(&s, i)).collect();
        let proposals: Vec<(Interface, Option<&Value>)> = payloads
            .iter()
            .map(|p| (Interface::Generalist, p.as_ref()))
            .collect();
        let rec = s.step_joint(&proposals).unwrap_or_else(|e| panic!("{e}"));
        if let gw_core::Decision::Stop(r) = rec.eval.decision {
            stop = Some(r);
        }
    }
    play_result(&s, stop)
}

/// One expert step: every role's expert payload, executed together (one
/// payload for single-player games). Returns the state after the step.
pub fn expert_step(s: &mut Stepper) -> Value {
    let roles = s.role_names().len();
    if roles > 1 {
        let payloads: Vec<Value> = (0..roles).map(|i| s.expert_payload_for(i)).collect();
        let proposals: Vec<(Interface, Option<&Value>)> = payloads
            .iter()
            .map(|p| (Interface::Generalist, Some(p)))
            .collect();
        return s
            .step_joint(&proposals)
            .unwrap_or_else(|e| panic!("{e}"))
            .state;
    }
    let p = s.expert_payload();
    s.step(Interface::Generalist, Some(&p))
        .unwrap_or_else(|e| panic!("{e}"))
        .state
}

/// Tasks whose target no play can reach within the 100-step budget at the
/// original game's score scale (the catalog's targets, kept): Chrome Dino
/// scores about 10 points a second and a task holds 25 s of play; Doodle Jump
/// scores at most one point per 60 fps frame, 12 per 0.2 s step. The expert
/// checks leave them out; each game's tests bound what a play can score
/// there instead. The guide's chance-floor table (docs/chance-floors.md) lists them.
pub const OUT_OF_REACH: &[(&str, &str)] = &[
    ("07_chrome-dino", "07_03"),
    ("07_chrome-dino", "07_04"),
    ("07_chrome-dino", "07_05"),
    ("10_doodle-jump", "10_03"),
    ("10_doodle-jump", "10_04"),
    ("10_doodle-jump", "10_05"),
];

/// Whether `task_id` of `game_id` is in [`OUT_OF_REACH`].
pub fn out_of_reach(game_id: &str, task_id: &str) -> bool {
    OUT_OF_REACH.contains(&(game_id, task_id))
}

/// Assert the expert solves every task of `game_id` (those in
/// [`OUT_OF_REACH`] aside) in at least `min_successes` of seeds 1..=5,
/// within the step budget.
pub fn assert_expert_solves_all(game_id: &str, min_successes: usize) {
    let tasks: Vec<String> = registry().tasks_of(game_id).map(|t| t.id.clone()).collect();
    assert_eq!(tasks.len(), 5, "{game_id} should have five tasks");
    let mut failures = Vec::new();
    for task in tasks.iter().filter(|t| !out_of_reach(game_id, t)) {
        let results: Vec<PlayResult> = (1..=5)
            .map(|seed| play_expert(game_id, task, seed))
            .collect();
        let wins = results.iter().filter(|r| r.success).count();
        let budget = max_steps(game_id, task);
        assert!(results.iter().all(|r| r.steps <= budget));
        if wins < min_successes {
            let scores: Vec<String> = results
                .iter()
                .map(|r| format!("{}", r.best_score))
                .collect();
            failures.push(format!(
                "{task}: {wins}/5 (best scores {})",
                scores.join(", ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "expert falls short on {game_id}:\n{}",
        failures.join("\n")
    );
}

/// Seeds the game tests never use for their expert checks, for
/// [`assert_expert_generalises`]: one from the sweep's 1000.. range and two
/// large ones (the sweep's own large seeds are drawn differently).
pub const HELD_OUT_SEEDS: [u64; 3] = [1013, 0x9E37_79B9_7F4A_7C15, 0xD1B5_4A32_D192_ED03];

/// The expert's plays of each of `tasks` at each of `seeds`: the number
/// won, and "task@seed (best score)" for each lost one.
fn expert_wins(game_id: &str, tasks: &[String], seeds: &[u64]) -> (Vec<usize>, Vec<String>) {
    let mut wins = Vec::new();
    let mut lost = Vec::new();
    for task in tasks {
        let mut task_wins = 0;
        for &seed in seeds {
            let r = play_expert(game_id, task, seed);
            if r.success {
                task_wins += 1;
            } else {
                lost.push(format!("{task}@{seed} (best {})", r.best_score));
            }
        }
        wins.push(task_wins);
    }
    (wins, lost)
}

/// Assert the expert is a policy that generalises beyond seeds 1..=5: over
/// every task of `game_id` ([`OUT_OF_REACH`] aside) and every seed in `seeds`, it wins at least
/// `min_rate` of the plays, and every task wins at least one of its seeds.
pub fn assert_expert_generalises(game_id: &str, seeds: &[u64], min_rate: f64) {
    let tasks = task_ids(game_id);
    assert_eq!(tasks.len(), 5, "{game_id} should have five tasks");
    let tasks: Vec<String> = tasks
        .into_iter()
        .filter(|t| !out_of_reach(game_id, t))
        .collect();
    let (per_task, lost) = expert_wins(game_id, &tasks, seeds);
    let task_without_win: Vec<&String> = tasks
        .iter()
        .zip(&per_task)
        .filter(|(_, w)| **w == 0)
        .map(|(t, _)| t)
        .collect();
    let wins: usize = per_task.iter().sum();
    let plays = tasks.len() * seeds.len();
    let rate = wins as f64 / plays as f64;
    assert!(
        rate >= min_rate && task_without_win.is_empty(),
        "expert of {game_id} wins {wins}/{plays} held-out plays (needs {:.0}% and a win on every task; \
         tasks without a win: {task_without_win:?}); lost: {}",
        min_rate * 100.0,
        lost.join(", ")
    );
}

/// Assert the expert wins at least `min_wins` of its plays of `task_id` over
/// `seeds` (seeds it was not tuned on; a game's generalisation check on its
/// hardest tasks, with the rate measured when it was written less a margin).
pub fn assert_expert_wins(
    game_id: &str,
    task_id: &str,
    seeds: std::ops::Range<u64>,
    min_wins: usize,
) {
    let seeds: Vec<u64> = seeds.collect();
    let (wins, lost) = expert_wins(game_id, &[task_id.to_string()], &seeds);
    assert!(
        wins[0] >= min_wins,
        "expert of {game_id}+{task_id} wins {}/{} plays over seeds {}..={} (needs {min_wins}); lost: {}",
        wins[0],
        seeds.len(),
        seeds[0],
        seeds[seeds.len() - 1],
        lost.join(", ")
    );
}

/// SHA-256 of the frame after `expert_steps` expert steps of the game's
/// first task at `seed`.
pub fn frame_hash_after(game_id: &str, seed: u64, expert_steps: u32) -> String {
    let task = registry()
        .tasks_of(game_id)
        .next()
        .expect("a task")
        .id
        .clone();
    let mut s = stepper(game_id, &task, seed);
    for _ in 0..expert_steps {
        if s.finished().is_some() {
            break;
        }
        expert_step(&mut s);
    }
    let (w, h) = s.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    s.render(&mut pm);
    frame_hash(&pixmap_rgb(&pm))
}

/// SHA-256 over the hashes of every frame of a `steps`-step play of `task`
/// at `seed` driven by `policy` (frame 0 included): pins rendering across
/// many states, e.g. while a game's drawing is reorganised for speed.
pub fn frames_digest(
    game_id: &str,
    task_id: &str,
    seed: u64,
    steps: u32,
    mut policy: impl FnMut(&Stepper) -> Option<Value>,
) -> String {
    let mut s = stepper(game_id, task_id, seed);
    let (w, h) = s.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    let mut all = String::new();
    for step in 0..=steps {
        if step > 0 {
            if s.finished().is_some() {
                break;
            }
            let p = policy(&s);
            s.step(Interface::Generalist, p.as_ref()).unwrap();
        }
        s.render(&mut pm);
        all.push_str(&frame_hash(&pixmap_rgb(&pm)));
    }
    frame_hash(all.as_bytes())
}

/// [`frames_digest`] of an expert play and of a random one, each given as
/// (task, seed, steps); the random play picks among `controls` with
/// `Rng::new(seed, 77)`. Recorded before a game's drawing is reorganised,
/// the pair pins its pixels over many states.
pub fn expert_and_random_digests(
    game_id: &str,
    (expert_task, expert_seed, expert_steps): (&str, u64, u32),
    (random_task, random_seed, random_steps): (&str, u64, u32),
    controls: &[&str],
) -> [String; 2] {
    let expert = frames_digest(game_id, expert_task, expert_seed, expert_steps, |s| {
        Some(s.expert_payload())
    });
    let mut rng = gw_core::Rng::new(random_seed, 77);
    let random = frames_digest(
        game_id,
        random_task,
        random_seed,
        random_steps,
        random_policy(controls, &mut rng),
    );
    [expert, random]
}

/// The sequence of states the expert produces (for determinism checks).
pub fn expert_states(game_id: &str, task_id: &str, seed: u64, steps: u32) -> Vec<Value> {
    let mut s = stepper(game_id, task_id, seed);
    let mut out = Vec::new();
    for _ in 0..steps {
        if s.finished().is_some() {
            break;
        }
        out.push(expert_step(&mut s));
    }
    out
}

/// Save the current frame as PNG (for looking at a game while developing).
pub fn save_frame(stepper: &Stepper, path: &std::path::Path) {
    let (w, h) = stepper.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    stepper.render(&mut pm);
    let png = stepper.encode_frame(&pm);
    std::fs::write(path, png).unwrap();
}

/// Wait plus the four moves, in the order the grid games' random-policy tests
/// draw them (snake, World's Hardest Game 1 and 2).
pub const WAIT_AND_MOVES: [&str; 5] = ["wait", "move_up", "move_down", "move_left", "move_right"];

/// A policy that sends a uniformly chosen control id from `ids` every step,
/// drawing from `rng` (one `rng.index(ids.len())` per step).
pub fn random_policy<'a>(
    ids: &'a [&'a str],
    rng: &'a mut Rng,
) -> impl FnMut(&Stepper) -> Option<Value> + 'a {
    move |_| Some(json!({"action": ids[rng.index(ids.len())]}))
}

/// Play `task` once per seed with [`random_policy`] over `ids`, the generator
/// for each seed being `Rng::new(seed, stream)`.
pub fn play_random(
    game_id: &str,
    task_id: &str,
    seeds: impl IntoIterator<Item = u64>,
    ids: &[&str],
    stream: u64,
) -> Vec<PlayResult> {
    seeds
        .into_iter()
        .map(|seed| {
            let mut rng = Rng::new(seed, stream);
            play(game_id, task_id, seed, random_policy(ids, &mut rng))
        })
        .collect()
}

/// Play `task` with `random_steps` steps of [`random_policy`] over `ids`
/// (generator `Rng::new(seed, stream)`) and then the expert to the end: the
/// expert has to take over from a state its plan did not expect.
pub fn play_expert_after(
    game_id: &str,
    task_id: &str,
    seed: u64,
    random_steps: u32,
    ids: &[&str],
    stream: u64,
) -> PlayResult {
    let mut rng = Rng::new(seed, stream);
    let mut random = random_policy(ids, &mut rng);
    play(game_id, task_id, seed, |s| {
        if s.step_index() < random_steps {
            random(s)
        } else {
            Some(s.expert_payload())
        }
    })
}

/// How many of `seeds` the random policy of [`play_random`] wins on `task`.
pub fn random_policy_wins(
    game_id: &str,
    task_id: &str,
    seeds: impl IntoIterator<Item = u64>,
    ids: &[&str],
    stream: u64,
) -> u32 {
    play_random(game_id, task_id, seeds, ids, stream)
        .iter()
        .filter(|r| r.success)
        .count() as u32
}

/// One result as `best_score` (`+` when solved) `@steps` `e` episodes.
fn result_cell(r: &PlayResult) -> String {
    format!(
        "{}{}@{}e{}",
        r.best_score,
        if r.success { "+" } else { "" },
        r.steps,
        r.episodes
    )
}

pub(crate) fn task_ids(game_id: &str) -> Vec<String> {
    registry().tasks_of(game_id).map(|t| t.id.clone()).collect()
}

/// The step budget of `task_id` of `game_id`, from the registry.
pub(crate) fn max_steps(game_id: &str, task_id: &str) -> u32 {
    registry()
        .tasks
        .get(&(game_id.to_string(), task_id.to_string()))
        .unwrap_or_else(|| panic!("no task {game_id}+{task_id}"))
        .value
        .max_steps
}

/// Print the expert's result on every task of `game_id` for each seed, one
/// line per task (a diagnostic for tuning the expert).
pub fn expert_report(game_id: &str, seeds: impl IntoIterator<Item = u64> + Clone) {
    for task in task_ids(game_id) {
        let cells: Vec<String> = seeds
            .clone()
            .into_iter()
            .map(|seed| result_cell(&play_expert(game_id, &task, seed)))
            .collect();
        println!("{task}: expert {}", cells.join("  "));
    }
}

/// Print the results of [`play_random`] on every task of `game_id`, one line
/// per task with the number of wins.
pub fn random_report(
    game_id: &str,
    seeds: impl IntoIterator<Item = u64> + Clone,
    ids: &[&str],
    stream: u64,
) {
    for task in task_ids(game_id) {
        let results = play_random(game_id, &task, seeds.clone(), ids, stream);
        let wins = results.iter().filter(|r| r.success).count();
        let cells: Vec<String> = results.iter().map(result_cell).collect();
        println!(
            "{task}: random {} | wins {wins}/{}",
            cells.join("  "),
            results.len()
        );
    }
}

/// Play `expert_steps` expert steps of `task` at `seed` (fewer if the run
/// ends), save that frame as PNG at `path` and hand back the stepper.
pub fn save_frame_after(
    game_id: &str,
    task_id: &str,
    seed: u64,
    expert_steps: u32,
    path: &str,
) -> Stepper {
    let mut s = stepper(game_id, task_id, seed);
    for _ in 0..expert_steps {
        if s.finished().is_some() {
            break;
        }
        let p = s.expert_payload();
        s.step(Interface::Generalist, Some(&p))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    save_frame(&s, std::path::Path::new(path));
    s
}

/// Save a frame rendered straight from a game (no stepper) as PNG.
/// Hold `key` down for `ms` of game time, then release it: the key press the
/// mechanics tests drive games with.
pub fn hold_key(game: &mut dyn gw_core::Game, key: &str, ms: u64) {
    game.handle_event(&gw_core::InputEvent::KeyDown { key: key.into() });
    game.advance(ms);
    game.handle_event(&gw_core::InputEvent::KeyUp { key: key.into() });
}

pub fn save_game_frame(game: &dyn gw_core::Game, path: &str) {
    let (w, h) = game.viewport();
    let mut pm = tiny_skia::Pixmap::new(w, h).unwrap();
    game.render(&mut pm);
    let png = gw_core::frame::encode_frame(&pm, game.frame_filter());
    std::fs::write(path, png).unwrap();
}

/// The checks every game's `tests.rs` starts from, generated from its data
/// (each key is optional; a game's own tests follow the invocation):
///
/// - `golden_frame: (seed, expert_steps, "sha256")`: the frame after that
///   many expert steps of the game's first task ([`frame_hash_after`]);
/// - `deterministic: ("task", steps)`: the same seed gives the same states,
///   seed 4 and seed 5 differ ([`expert_states`]);
/// - `expert_solves_all: n`: the scripted expert solves every task on at
///   least `n` of seeds 1..=5 ([`assert_expert_solves_all`]);
/// - `whole_plays: (("task", seed, steps), ("task", seed, steps), &controls,
///   ["sha256", "sha256"])`: every frame of an expert play and of a random
///   play over `controls` ([`expert_and_random_digests`]);
///   `whole_plays_banded:` the same, and the expert's frames again with the
///   3D bands drawn in order on this thread (they must not change);
/// - `report_scores: (expert_seeds, random_seeds, &controls, rng_stream)`:
///   an ignored test that prints expert and random scores while tuning.
///
/// Names resolve where the macro is used: the module needs `ID`.
#[macro_export]
macro_rules! game_contract {
    ($($key:ident : $val:tt),* $(,)?) => {
        $( $crate::game_contract!(@ $key $val); )*
    };
    (@ golden_frame ($seed:expr, $steps:expr, $hash:expr)) => {
        #[test]
        fn golden_frame() {
            assert_eq!($crate::testkit::frame_hash_after(ID, $seed, $steps), $hash);
        }
    };
    (@ deterministic ($task:expr, $steps:expr)) => {
        #[test]
        fn deterministic_per_seed() {
            let a = $crate::testkit::expert_states(ID, $task, 4, $steps);
            assert_eq!(a, $crate::testkit::expert_states(ID, $task, 4, $steps));
            assert_ne!(a, $crate::testkit::expert_states(ID, $task, 5, $steps));
        }
    };
    (@ expert_solves_all $n:tt) => {
        #[test]
        fn expert_solves_every_task() {
            $crate::testkit::assert_expert_solves_all(ID, $n);
        }
    };
    (@ whole_plays ($expert:expr, $random:expr, $controls:expr, $hashes:expr)) => {
        #[test]
        fn golden_frames_over_whole_plays() {
            let [expert, random] =
                $crate::testkit::expert_and_random_digests(ID, $expert, $random, $controls);
            assert_eq!([expert.as_str(), random.as_str()], $hashes);
        }
    };
    (@ whole_plays_banded ($expert:expr, $random:expr, $controls:expr, $hashes:expr)) => {
        #[test]
        fn golden_frames_over_whole_plays() {
            let [expert, random] =
                $crate::testkit::expert_and_random_digests(ID, $expert, $random, $controls);
            assert_eq!([expert.as_str(), random.as_str()], $hashes);
            // Bands spread over rayon's threads (where there is more than one
            // core) and drawn in order on this thread give the same frames.
            let (task, seed, steps) = $expert;
            let serial = $crate::render3d::with_band_mode($crate::render3d::BandMode::Serial, || {
                $crate::testkit::frames_digest(ID, task, seed, steps, |s| Some(s.expert_payload()))
            });
            assert_eq!(serial, expert);
        }
    };
    (@ report_scores ($expert_seeds:expr, $random_seeds:expr, $controls:expr, $stream:expr)) => {
        #[test]
        #[ignore = "prints expert and random scores while tuning"]
        fn report_scores() {
            $crate::testkit::expert_report(ID, $expert_seeds);
            $crate::testkit::random_report(ID, $random_seeds, $controls, $stream);
        }
    };
}
