//! `gameworld._core`: the Rust half of the `gameworld` Python package. The
//! Gymnasium classes live in `python/gameworld/`; this module gives them one
//! environment ([`Env`]) and a batch stepped on a thread pool without the
//! GIL ([`VecEnv`]), both over [`core::EnvCore`].

mod core;
mod frame;
mod ow;

use crate::core::{CuAction, EnvCore, Proposal, Spec, StepOut, invalid_code};
use gw_core::registry::{Interface, Registry};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArray4, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/registry_files.rs"));
}

/// Stop reasons in the order of the vector env's `stop` codes (0 = none).
const STOP_REASONS: [&str; 6] = [
    "",
    "target_reached",
    "max_steps_exhausted",
    "end_field",
    "game_terminal",
    "game_failed",
];

fn stop_code(reason: Option<&str>) -> i8 {
    reason
        .and_then(|r| STOP_REASONS.iter().position(|s| *s == r))
        .unwrap_or(0) as i8
}

/// The registry: an explicit folder, else `$GAMEWORLD_REGISTRY`, else the
/// copy embedded in the extension at build time.
fn registry(path: Option<&str>) -> PyResult<Arc<Registry>> {
    static EMBEDDED: OnceLock<Result<Arc<Registry>, String>> = OnceLock::new();
    let chosen = path
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("GAMEWORLD_REGISTRY").map(PathBuf::from));
    let result = match chosen {
        Some(dir) => Registry::load(&[dir])
            .map(Arc::new)
            .map_err(|e| e.to_string()),
        None => EMBEDDED
            .get_or_init(|| {
                Registry::from_memory(Path::new("<embedded registry>"), embedded::REGISTRY_FILES)
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone(),
    };
    result.map_err(|e| PyValueError::new_err(format!("cannot load the GameWorld registry:\n{e}")))
}

fn interface(name: &str) -> PyResult<Interface> {
    match name {
        "generalist" => Ok(Interface::Generalist),
        "computer-use" | "computer_use" => Ok(Interface::ComputerUse),
        other => Err(PyValueError::new_err(format!(
            "interface \"{other}\" is unknown; use \"generalist\" or \"computer-use\""
        ))),
    }
}

fn spec(
    game_task: &str,
    iface: &str,
    render_size: Option<(u32, u32)>,
    end_on_fail: bool,
    registry_dir: Option<&str>,
) -> PyResult<Arc<Spec>> {
    let reg = registry(registry_dir)?;
    Spec::new(&reg, game_task, interface(iface)?, render_size, end_on_fail)
        .map(Arc::new)
        .map_err(PyValueError::new_err)
}

fn runtime(e: String) -> PyErr {
    PyRuntimeError::new_err(e)
}

type StepTuple = (
    f64,
    bool,
    bool,
    f64,
    f64,
    f64,
    Option<&'static str>,
    Option<&'static str>,
    bool,
    u32,
    u32,
);

fn step_tuple(o: StepOut) -> StepTuple {
    (
        o.reward,
        o.terminated,
        o.truncated,
        o.score,
        o.progress,
        o.best_progress,
        o.invalid,
        o.stop_reason,
        o.game_reset,
        o.step,
        o.board,
    )
}

fn cu_row(row: &[f64]) -> CuAction {
    CuAction {
        kind: row[0] as i64,
        key: row[1] as i64,
        button: row[2] as i64,
        point: [row[3], row[4]],
        to: [row[5], row[6]],
        duration: row[7],
    }
}

/// `[(game_id, task_id, game_name)]` of every task with a native game.
#[pyfunction]
#[pyo3(signature = (registry_dir=None))]
fn task_ids(registry_dir: Option<&str>) -> PyResult<Vec<(String, String, String)>> {
    let reg = registry(registry_dir)?;
    Ok(reg
        .tasks
        .keys()
        .filter(|(g, _)| {
            gw_games::GAME_IDS.contains(&g.as_str()) || g.as_str() == gw_openworld::game::ID
        })
        .filter_map(|(g, t)| {
            reg.game(g)
                .map(|spec| (g.clone(), t.clone(), spec.name.clone()))
        })
        .collect())
}

/// The static description shared by both classes.
fn describe(spec: &Spec) -> Vec<(&'static str, String)> {
    let task = &spec.preset.task;
    vec![
        ("game_id", spec.preset.game.id.clone()),
        ("task_id", task.id.clone()),
        ("game_name", spec.preset.game.name.clone()),
        ("instruction", task.instruction.clone()),
        ("role", spec.preset.role.name.clone()),
        ("max_steps", task.max_steps.to_string()),
    ]
}

/// One environment.
#[pyclass(module = "gameworld._core")]
struct Env {
    core: Mutex<EnvCore>,
    spec: Arc<Spec>,
    /// The open world's index spaces (`None` for the other games).
    ow: Option<ow::Tables>,
}

/// `(inventory counts, equipped, (health, food), (x, y, z, yaw, pitch),
/// target items obtained)`.
type VitalsTuple = (Vec<i32>, i64, (f32, f32), [f32; 5], u32);

impl Env {
    fn tables(&self) -> PyResult<&ow::Tables> {
        self.ow.as_ref().ok_or_else(|| {
            PyValueError::new_err(format!(
                "{} is not the open world: its actions are semantic actions (step_index)",
                self.spec.preset.game.id
            ))
        })
    }

    fn with<R>(&self, f: impl FnOnce(&mut EnvCore) -> Result<R, String>) -> PyResult<R> {
        let mut core = self
            .core
            .lock()
            .map_err(|_| runtime("environment poisoned".into()))?;
        f(&mut core).map_err(runtime)
    }
}

#[pymethods]
impl Env {
    #[new]
    #[pyo3(signature = (game_task, interface="generalist", render_size=None, end_on_fail=false, registry_dir=None))]
    fn new(
        game_task: &str,
        interface: &str,
        render_size: Option<(u32, u32)>,
        end_on_fail: bool,
        registry_dir: Option<&str>,
    ) -> PyResult<Self> {
        let spec = spec(game_task, interface, render_size, end_on_fail, registry_dir)?;
        let core = EnvCore::new(spec.clone()).map_err(PyValueError::new_err)?;
        let ow = (spec.preset.game.id == gw_openworld::game::ID).then(|| ow::tables(&spec.preset));
        Ok(Env {
            core: Mutex::new(core),
            spec,
            ow,
        })
    }

    /// The open world's `(items, craft_items, smelt_items, segmentation
    /// classes)`; `None` for other games.
    #[getter]
    fn ow_tables(&self) -> Option<(Vec<String>, Vec<String>, Vec<String>, Vec<String>)> {
        self.ow.as_ref().map(|t| {
            (
                t.items.clone(),
                t.craft.clone(),
                t.smelt.clone(),
                t.classes.clone(),
            )
        })
    }

    /// Step the open world with a `Dict` action as numbers (see
    /// `ow::ROW_LEN`); a field out of its space is a ValueError naming it.
    fn ow_step(&self, py: Python<'_>, row: [f64; ow::ROW_LEN]) -> PyResult<StepTuple> {
        let payload = ow::dict_payload(self.tables()?, &row).map_err(PyValueError::new_err)?;
        py.detach(|| self.with(|c| c.step(&Proposal::Payload(payload))))
            .map(step_tuple)
    }

    /// Step the open world with a VPT action (button class, camera class).
    fn ow_step_vpt(&self, py: Python<'_>, buttons: i64, camera: i64) -> PyResult<StepTuple> {
        self.tables()?;
        let payload = ow::vpt_payload(buttons, camera).map_err(PyValueError::new_err)?;
        py.detach(|| self.with(|c| c.step(&Proposal::Payload(payload))))
            .map(step_tuple)
    }

    /// The open world's inventory vector, equipped item, life stats,
    /// location and target items obtained.
    fn ow_vitals(&self) -> PyResult<VitalsTuple> {
        let n = self.tables()?.items.len();
        self.with(|c| {
            let world = ow::world_of(c.stepper()?.game()).ok_or("not the open world")?;
            let v = ow::vitals(world, n);
            Ok((
                v.inventory,
                v.equipped,
                (v.life[0], v.life[1]),
                v.location,
                v.obtained,
            ))
        })
    }

    /// Fill `depth` (H, W) float32 and/or `segmentation` (H, W) int32 at the
    /// render size from the pick buffer.
    #[pyo3(signature = (depth=None, segmentation=None))]
    fn ow_pick(
        &self,
        py: Python<'_>,
        depth: Option<&Bound<'_, PyArray2<f32>>>,
        segmentation: Option<&Bound<'_, PyArray2<i32>>>,
    ) -> PyResult<()> {
        self.tables()?;
        let (w, h) = self.spec.render_size;
        let n = w as usize * h as usize;
        let mut d = depth.map(|a| a.readwrite());
        let mut s = segmentation.map(|a| a.readwrite());
        let d_buf = match d.as_mut() {
            Some(rw) => Some(
                rw.as_slice_mut()
                    .map_err(|e| PyValueError::new_err(format!("depth buffer: {e}")))?,
            ),
            None => None,
        };
        let s_buf = match s.as_mut() {
            Some(rw) => Some(
                rw.as_slice_mut()
                    .map_err(|e| PyValueError::new_err(format!("segmentation buffer: {e}")))?,
            ),
            None => None,
        };
        if d_buf.as_ref().is_some_and(|b| b.len() != n)
            || s_buf.as_ref().is_some_and(|b| b.len() != n)
        {
            return Err(PyValueError::new_err(
                "depth/segmentation buffers must have the render size (H, W)",
            ));
        }
        py.detach(|| {
            self.with(|c| {
                let world = ow::world_of(c.stepper()?.game()).ok_or("not the open world")?;
                ow::depth_and_segmentation(&world.world, w as usize, h as usize, d_buf, s_buf);
                Ok(())
            })
        })
    }

    #[getter]
    fn info(&self) -> Vec<(&'static str, String)> {
        describe(&self.spec)
    }
    #[getter]
    fn action_names(&self) -> Vec<String> {
        self.spec.names.clone()
    }
    #[getter]
    fn keys(&self) -> Vec<String> {
        self.spec.keys.clone()
    }
    #[getter]
    fn kinds(&self) -> Vec<&'static str> {
        self.spec.kinds.clone()
    }
    #[getter]
    fn viewport(&self) -> (u32, u32) {
        self.spec.viewport
    }
    #[getter]
    fn render_size(&self) -> (u32, u32) {
        self.spec.render_size
    }

    fn reset(&self, py: Python<'_>, seed: u64) -> PyResult<()> {
        py.detach(|| self.with(|c| c.reset(seed)))
    }

    fn step_index(&self, py: Python<'_>, action: i64) -> PyResult<StepTuple> {
        py.detach(|| self.with(|c| c.step(&Proposal::Index(action))))
            .map(step_tuple)
    }

    /// `row`: type, key, button, point x, point y, to x, to y, duration.
    fn step_cu(&self, py: Python<'_>, row: [f64; 8]) -> PyResult<StepTuple> {
        py.detach(|| self.with(|c| c.step(&Proposal::Cu(cu_row(&row)))))
            .map(step_tuple)
    }

    /// A GameWorld payload as JSON text (`{"action": "move_up"}`).
    fn step_payload(&self, py: Python<'_>, payload: &str) -> PyResult<StepTuple> {
        let v: serde_json::Value = serde_json::from_str(payload)
            .map_err(|e| PyValueError::new_err(format!("the action payload is not JSON: {e}")))?;
        py.detach(|| self.with(|c| c.step(&Proposal::Payload(v))))
            .map(step_tuple)
    }

    /// Each role's name and generalist action names (one entry for a
    /// single-player game).
    #[getter]
    fn roles(&self) -> Vec<(String, Vec<String>)> {
        self.spec
            .roles
            .iter()
            .map(|r| (r.name.clone(), r.names.clone()))
            .collect()
    }

    /// One cooperative step: `actions[i]` is role i's generalist action.
    /// Returns the shared outcome and each role's invalid kind.
    fn step_joint(
        &self,
        py: Python<'_>,
        actions: Vec<i64>,
    ) -> PyResult<(StepTuple, Vec<Option<&'static str>>)> {
        let n = self.spec.roles.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} roles",
                actions.len()
            )));
        }
        for (a, r) in actions.iter().zip(&self.spec.roles) {
            if usize::try_from(*a).map_or(true, |i| i >= r.table.len()) {
                return Err(PyValueError::new_err(format!(
                    "action {a} of {} is outside Discrete({})",
                    r.name,
                    r.table.len()
                )));
            }
        }
        py.detach(|| self.with(|c| c.step_joint(&actions)))
            .map(|(o, inv)| (step_tuple(o), inv))
    }

    /// Score and progress of the current state (after a reset: the start).
    fn current(&self) -> PyResult<StepTuple> {
        self.with(|c| c.current()).map(step_tuple)
    }

    /// Write the observation frame (render size) into `out` (H, W, 3) uint8.
    fn observe(&self, out: &Bound<'_, PyArray3<u8>>) -> PyResult<()> {
        let mut rw = out.readwrite();
        let buf = rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(format!("observation buffer: {e}")))?;
        if buf.len() != self.spec.frame_len() {
            return Err(PyValueError::new_err(
                "observation buffer has the wrong size",
            ));
        }
        let py = out.py();
        py.detach(|| self.with(|c| c.observe_rgb(buf)))
    }

    /// The frame at the game's own viewport, (H, W, 3) uint8.
    fn frame<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let (w, h) = self.spec.viewport;
        let rgb = py.detach(|| self.with(|c| c.frame_full()))?;
        let flat = PyArray1::from_vec(py, rgb);
        flat.reshape([h as usize, w as usize, 3])
    }

    /// The gameAPI state as compact ASCII JSON.
    fn state(&self) -> PyResult<String> {
        self.with(|c| c.state_json())
    }
}

/// A batch of environments of one id, stepped on a rayon pool with the GIL
/// released. Observations are written in place into one (N, H, W, 3) array;
/// the per-env results into small arrays; finished environments reset on
/// their next step (Gymnasium's next-step auto-reset).
#[pyclass(module = "gameworld._core")]
struct VecEnv {
    inner: Mutex<VecInner>,
    spec: Arc<Spec>,
    with_rgb: bool,
    obs: Py<PyArray4<u8>>,
    rewards: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    /// score, progress, best_progress, step per env.
    metrics: Py<PyArray2<f64>>,
    /// invalid code (0 none, 1 no_tool_call, 2 out_of_space), stop code,
    /// game reset (0/1), autoreset (0/1) per env.
    codes: Py<PyArray2<i8>>,
}

/// One environment's part of a batch: `None` when it was reset.
type StepResult = Result<Option<StepOut>, String>;

/// Reset (with `seed`), auto-reset (when finished) or step one environment,
/// then draw its frame into `buf` (empty: no frame).
fn advance(
    env: &mut EnvCore,
    job: Option<&Proposal>,
    seed: Option<u64>,
    buf: &mut [u8],
) -> StepResult {
    let stepped = match (seed, job) {
        (Some(seed), _) => {
            env.reset(seed)?;
            None
        }
        (None, _) if env.done() => {
            env.reset_next()?;
            None
        }
        (None, Some(p)) => Some(env.step(p)?),
        (None, None) => return Err("no action for an environment".into()),
    };
    if !buf.is_empty() {
        env.observe_rgb(buf)?;
    }
    Ok(stepped)
}

struct VecInner {
    envs: Vec<EnvCore>,
    outs: Vec<StepResult>,
    pool: rayon::ThreadPool,
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game_task, num_envs, threads=None, interface="generalist", render_size=None, end_on_fail=false, registry_dir=None, with_rgb=true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_task: &str,
        num_envs: usize,
        threads: Option<usize>,
        interface: &str,
        render_size: Option<(u32, u32)>,
        end_on_fail: bool,
        registry_dir: Option<&str>,
        with_rgb: bool,
    ) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let spec = spec(game_task, interface, render_size, end_on_fail, registry_dir)?;
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .clamp(1, num_envs);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("gameworld-env-{i}"))
            .build()
            .map_err(|e| runtime(format!("cannot start {threads} threads: {e}")))?;
        let envs = (0..num_envs)
            .map(|_| EnvCore::new(spec.clone()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let (w, h) = spec.render_size;
        let shape = if with_rgb {
            [num_envs, h as usize, w as usize, 3]
        } else {
            [num_envs, 0, 0, 3]
        };
        Ok(VecEnv {
            obs: PyArray4::zeros(py, shape, false).unbind(),
            rewards: PyArray1::zeros(py, num_envs, false).unbind(),
            terminated: PyArray1::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::zeros(py, num_envs, false).unbind(),
            metrics: PyArray2::zeros(py, [num_envs, 4], false).unbind(),
            codes: PyArray2::zeros(py, [num_envs, 4], false).unbind(),
            inner: Mutex::new(VecInner {
                outs: vec![Ok(None); num_envs],
                envs,
                pool,
            }),
            spec,
            with_rgb,
        })
    }

    #[getter]
    fn info(&self) -> Vec<(&'static str, String)> {
        describe(&self.spec)
    }
    #[getter]
    fn num_threads(&self) -> PyResult<usize> {
        Ok(self.lock()?.pool.current_num_threads())
    }
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray4<u8>> {
        self.obs.bind(py).clone()
    }
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.rewards.bind(py).clone()
    }
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    #[getter]
    fn metrics<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.metrics.bind(py).clone()
    }
    #[getter]
    fn codes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.codes.bind(py).clone()
    }
    #[getter]
    fn stop_reasons(&self) -> Vec<&'static str> {
        STOP_REASONS.to_vec()
    }

    /// Reset every environment; `seeds[i]` is environment i's seed.
    fn reset(&self, py: Python<'_>, seeds: Vec<u64>) -> PyResult<()> {
        let mut inner = self.lock()?;
        if seeds.len() != inner.envs.len() {
            return Err(PyValueError::new_err(format!(
                "{} seeds for {} environments",
                seeds.len(),
                inner.envs.len()
            )));
        }
        let jobs: Vec<Option<Proposal>> = vec![None; seeds.len()];
        self.run(py, &mut inner, &jobs, Some(&seeds))
    }

    /// Step with one discrete action per environment.
    fn step_index(&self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let jobs: Vec<Option<Proposal>> = actions
            .as_array()
            .iter()
            .map(|a| Some(Proposal::Index(*a)))
            .collect();
        let mut inner = self.lock()?;
        self.run(py, &mut inner, &jobs, None)
    }

    /// Step with one computer-use row per environment, shape (N, 8): type,
    /// key, button, point x, point y, to x, to y, duration.
    fn step_cu(&self, py: Python<'_>, actions: PyReadonlyArray2<'_, f64>) -> PyResult<()> {
        let a = actions.as_array();
        if a.ncols() != 8 {
            return Err(PyValueError::new_err(
                "computer-use actions must have shape (N, 8)",
            ));
        }
        let jobs: Vec<Option<Proposal>> = a
            .rows()
            .into_iter()
            .map(|r| Some(Proposal::Cu(cu_row(&r.to_vec()))))
            .collect();
        let mut inner = self.lock()?;
        self.run(py, &mut inner, &jobs, None)
    }

    /// Every environment's gameAPI state as compact ASCII JSON.
    fn states(&self) -> PyResult<Vec<String>> {
        let inner = self.lock()?;
        inner
            .envs
            .iter()
            .map(|e| e.state_json().map_err(runtime))
            .collect()
    }
}

impl VecEnv {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, VecInner>> {
        self.inner
            .lock()
            .map_err(|_| runtime("vector environment poisoned".into()))
    }

    /// Reset (`seeds`) or step every environment in parallel, then copy the
    /// small per-env results into their arrays.
    fn run(
        &self,
        py: Python<'_>,
        inner: &mut VecInner,
        jobs: &[Option<Proposal>],
        seeds: Option<&[u64]>,
    ) -> PyResult<()> {
        let n = inner.envs.len();
        if jobs.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} environments",
                jobs.len(),
                n
            )));
        }
        let frame = if self.with_rgb {
            self.spec.frame_len()
        } else {
            0
        };
        let obs = self.obs.bind(py);
        let mut obs_rw = obs.readwrite();
        let obs_buf = obs_rw
            .as_slice_mut()
            .map_err(|e| runtime(format!("observation buffer: {e}")))?;
        let VecInner { envs, outs, pool } = inner;
        py.detach(|| {
            pool.install(|| {
                let work = |((i, env), out): ((usize, &mut EnvCore), &mut StepResult),
                            buf: &mut [u8]| {
                    *out = advance(env, jobs[i].as_ref(), seeds.map(|s| s[i]), buf);
                };
                if frame == 0 {
                    envs.par_iter_mut()
                        .enumerate()
                        .zip(outs.par_iter_mut())
                        .for_each(|job| work(job, &mut []));
                } else {
                    envs.par_iter_mut()
                        .enumerate()
                        .zip(outs.par_iter_mut())
                        .zip(obs_buf.par_chunks_mut(frame))
                        .for_each(|(job, buf)| work(job, buf));
                }
            })
        });
        if let Some(e) = outs.iter().find_map(|o| o.as_ref().err()) {
            return Err(runtime(e.clone()));
        }
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut truncated = self.truncated.bind(py).readwrite();
        let mut metrics = self.metrics.bind(py).readwrite();
        let mut codes = self.codes.bind(py).readwrite();
        let (mut rewards, mut terminated, mut truncated) = (
            rewards.as_array_mut(),
            terminated.as_array_mut(),
            truncated.as_array_mut(),
        );
        let (mut metrics, mut codes) = (metrics.as_array_mut(), codes.as_array_mut());
        for (i, out) in outs.iter().enumerate() {
            let (o, autoreset) = match out {
                Ok(Some(o)) => (o.clone(), false),
                _ => (envs[i].current().map_err(runtime)?, seeds.is_none()),
            };
            rewards[i] = o.reward;
            terminated[i] = o.terminated;
            truncated[i] = o.truncated;
            metrics[[i, 0]] = o.score;
            metrics[[i, 1]] = o.progress;
            metrics[[i, 2]] = o.best_progress;
            metrics[[i, 3]] = o.step as f64;
            codes[[i, 0]] = invalid_code(o.invalid);
            codes[[i, 1]] = stop_code(o.stop_reason);
            codes[[i, 2]] = o.game_reset as i8;
            codes[[i, 3]] = autoreset as i8;
        }
        Ok(())
    }
}

#[pymodule]
#[pyo3(name = "_core")]
fn gameworld_core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Env>()?;
    m.add_class::<VecEnv>()?;
    m.add_function(wrap_pyfunction!(task_ids, m)?)?;
    m.add("CU_KINDS", crate::core::CU_KINDS.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
