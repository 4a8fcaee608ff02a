//! `gameworld world evalset|score|eval|reward`: the open world's verifiable
//! evaluation sets (SPEC "Open world"), their scorers, model evaluation
//! through a task router, and the RL reward functions. Bad input is a
//! configuration error (exit 2); a model that answers nothing is a runtime
//! error (exit 1).

use clap::{Args, Subcommand, ValueEnum};
use gw_owevals::reward::{self, IouDensity};
use gw_owevals::router::Router;
use gw_owevals::scene::View;
use gw_owevals::set::{self, Spec};
use gw_owevals::{Kind, grounding, planning};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Subcommand)]
pub enum EvalCommand {
    /// Build an eval set: items.jsonl, answers.jsonl (truth from the world's
    /// state) and frames/ (PNG), deterministic per seed.
    Evalset(EvalsetArgs),
    /// Score predictions (the shape of answers.jsonl) against a set; prints
    /// JSON with `score` in [0, 1].
    Score(ScoreArgs),
    /// Ask a model (or the models a router names) every item of a set
    /// through the provider harness, then score the replies.
    Eval(EvalArgs),
    /// One reward for RL fine-tuning: exact match, plan, IoU or Optimus-3's
    /// IoU-density reward; prints {"reward": …}.
    Reward(RewardArgs),
}

#[derive(Args)]
pub struct SetArgs {
    /// caption, eqa, grounding, planning or reflection.
    #[arg(long)]
    kind: String,
    /// Number of items.
    #[arg(long, default_value_t = 20)]
    n: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Frame size WIDTHxHEIGHT (Optimus-3 uses 640x360).
    #[arg(long, default_value = "640x360")]
    resolution: String,
}

#[derive(Args)]
pub struct EvalsetArgs {
    #[command(flatten)]
    set: SetArgs,
    /// The set directory to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args)]
pub struct DensityArgs {
    /// IoU-density reward: full reward at IoU ≥ alpha.
    #[arg(long, default_value_t = 0.5)]
    alpha: f64,
    /// IoU-density reward: no reward below beta.
    #[arg(long, default_value_t = 0.1)]
    beta: f64,
    /// IoU-density reward: weight of the IoU between beta and alpha.
    #[arg(long, default_value_t = 1.0)]
    eta: f64,
}

impl DensityArgs {
    fn density(&self) -> Result<IouDensity, (u8, String)> {
        IouDensity {
            alpha: self.alpha,
            beta: self.beta,
            eta: self.eta,
        }
        .checked()
        .map_err(|e| (2, e))
    }
}

#[derive(Args)]
pub struct ScoreArgs {
    #[arg(long)]
    kind: String,
    /// The set directory (items.jsonl, answers.jsonl).
    #[arg(long)]
    set: PathBuf,
    /// Predictions: JSONL of {"id", "answer"}.
    #[arg(long)]
    pred: PathBuf,
    #[command(flatten)]
    density: DensityArgs,
}

#[derive(Args)]
pub struct EvalArgs {
    #[command(flatten)]
    build: SetArgs,
    /// A model id from the registry (every kind goes to it).
    #[arg(long, conflicts_with = "router", required_unless_present = "router")]
    model: Option<String>,
    /// A router YAML mapping kinds to model ids (e.g. registry/routers/optimus3.yaml).
    #[arg(long)]
    router: Option<PathBuf>,
    /// An existing set to evaluate; without it a set is built into OUT/set
    /// from --n, --seed and --resolution.
    #[arg(long)]
    set: Option<PathBuf>,
    /// Where predictions.jsonl, results.jsonl, model_calls.jsonl and result.json go.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    density: DensityArgs,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum RewardKind {
    /// 1 when the normalised texts are equal.
    Exact,
    /// 1 when the plan matches the truth step for step (Optimus-3).
    Plan,
    /// The released scorer's looser plan rule, graded by the share of the
    /// true plan's items stated (a plan of only the last step earns 1/n).
    PlanLenient,
    /// The IoU of two boxes.
    Iou,
    /// Optimus-3's IoU-density reward (Eq. 3).
    IouDensity,
}

#[derive(Args)]
pub struct RewardArgs {
    #[arg(long, value_enum)]
    kind: RewardKind,
    /// The model's answer: text, a box ([x1,y1,x2,y2] or {"bbox_2d": …}) or
    /// a plan ({"steps": […]}, a list of steps, or one step per line).
    #[arg(long)]
    pred: String,
    /// The truth, in the same forms.
    #[arg(long)]
    truth: String,
    #[command(flatten)]
    density: DensityArgs,
}

fn kind_of(s: &str) -> Result<Kind, (u8, String)> {
    Kind::parse(s).map_err(|e| (2, e))
}

fn spec_of(a: &SetArgs) -> Result<Spec, (u8, String)> {
    if a.n == 0 {
        return Err((2, "--n must be at least 1".into()));
    }
    Ok(Spec {
        kind: kind_of(&a.kind)?,
        n: a.n,
        seed: a.seed,
        view: View::parse(&a.resolution).map_err(|e| (2, e))?,
    })
}

fn print(v: &serde_json::Value) {
    println!(
        "{}",
        serde_json::to_string_pretty(v).expect("JSON serializes")
    );
}

/// A value from the command line: JSON when it parses, else the text.
fn value_of(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|_| serde_json::Value::String(s.to_string()))
}

fn build_set(out: &Path, spec: &Spec) -> Result<usize, (u8, String)> {
    if out.join("items.jsonl").exists() {
        return Err((
            2,
            format!(
                "{} already holds an eval set; remove it or choose another --out",
                out.display()
            ),
        ));
    }
    set::write(out, spec).map(|e| e.len()).map_err(|e| (1, e))
}

pub fn run(cmd: EvalCommand, registry: &[PathBuf]) -> Result<(), (u8, String)> {
    match cmd {
        EvalCommand::Evalset(a) => {
            let spec = spec_of(&a.set)?;
            let n = build_set(&a.out, &spec)?;
            print(
                &json!({"kind": spec.kind.as_str(), "n": n, "seed": spec.seed,
                "width": spec.view.w, "height": spec.view.h, "out": a.out.display().to_string()}),
            );
            Ok(())
        }
        EvalCommand::Score(a) => {
            let kind = kind_of(&a.kind)?;
            let density = a.density.density()?;
            let s = set::score_files(kind, &a.set, &a.pred, &density).map_err(|e| (2, e))?;
            print(&s);
            Ok(())
        }
        EvalCommand::Reward(a) => {
            let density = a.density.density()?;
            let (p, t) = (value_of(&a.pred), value_of(&a.truth));
            let out = match a.kind {
                RewardKind::Exact => json!({"reward": reward::exact_match(&a.pred, &a.truth)}),
                RewardKind::Plan | RewardKind::PlanLenient => {
                    let (ps, ts) = (planning::steps_of(&p), planning::steps_of(&t));
                    if ts.is_empty() {
                        return Err((2, "--truth holds no plan steps; write {\"steps\": [{\"kind\": \"craft\", \"item\": \"stick\", \"count\": 4}]} or lines such as \"craft 4 stick\"".into()));
                    }
                    let lenient = matches!(a.kind, RewardKind::PlanLenient);
                    json!({"reward": reward::plan(&ps, &ts, lenient), "pred_steps": ps.len(), "truth_steps": ts.len()})
                }
                RewardKind::Iou | RewardKind::IouDensity => {
                    let tb = grounding::bbox_of(&t).ok_or_else(|| {
                        (2, "--truth is no box; write [x1, y1, x2, y2] or {\"bbox_2d\": [x1, y1, x2, y2]}".to_string())
                    })?;
                    let u = grounding::bbox_of(&p).map_or(0.0, |pb| {
                        let pb = [
                            pb[0].min(pb[2]),
                            pb[1].min(pb[3]),
                            pb[0].max(pb[2]),
                            pb[1].max(pb[3]),
                        ];
                        reward::iou(pb, tb)
                    });
                    if matches!(a.kind, RewardKind::Iou) {
                        json!({"reward": u, "iou": u})
                    } else {
                        json!({"reward": density.reward(u), "iou": u,
                            "alpha": density.alpha, "beta": density.beta, "eta": density.eta})
                    }
                }
            };
            print(&out);
            Ok(())
        }
        EvalCommand::Eval(a) => {
            let spec = spec_of(&a.build)?;
            let density = a.density.density()?;
            let router = match (&a.model, &a.router) {
                (Some(m), _) => Router::single(m),
                (None, Some(p)) => Router::load(p).map_err(|e| (2, e))?,
                (None, None) => return Err((2, "pass --model ID or --router FILE".into())),
            };
            // Resolve the model (and its key) before any work.
            let reg = crate::load_registry(registry).map_err(|e| (2, e))?;
            let model_id = router.model_for(spec.kind).map_err(|e| (2, e))?.to_string();
            let model = reg
                .models
                .get(&model_id)
                .map(|s| s.value.clone())
                .ok_or_else(|| {
                    (
                        2,
                        format!(
                            "unknown model \"{model_id}\" (router \"{}\"); list the models with `gameworld list models`, or add registry/models/{model_id}.yaml",
                            router.id
                        ),
                    )
                })?;
            let mut link = Some(
                gw_agents::model_agent::Link::open(&model, None).map_err(|e| (2, e.to_string()))?,
            );
            let set_dir = match &a.set {
                Some(d) => d.clone(),
                None => {
                    let d = a.out.join("set");
                    build_set(&d, &spec)?;
                    d
                }
            };
            let the_set = set::read(&set_dir, spec.kind).map_err(|e| (2, e))?;
            let mut open = |id: &str| -> Result<gw_agents::model_agent::Link, String> {
                link.take()
                    .filter(|_| id == model_id)
                    .ok_or_else(|| format!("model \"{id}\" was not prepared"))
            };
            let summary = gw_owevals::eval::evaluate(
                spec.kind, &the_set, &set_dir, &router, &mut open, &a.out, &density,
            )
            .map_err(|e| (1, e))?;
            print(&summary);
            Ok(())
        }
    }
}
