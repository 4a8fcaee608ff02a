//! DAgger data: episodes driven mostly by a policy and labelled by the fair
//! expert (Ross et al., 2011). Behaviour cloning alone trains on the states
//! the expert visits; a policy that drifts off them (stands in a clearing,
//! faces a wall) meets frames its data never showed and has no answer. Here
//! the policy plays, the expert watches every step and says what it would
//! do, and that answer is the step's label. Control passes between the two
//! in segments (the expert's share is a choice), so the episodes also
//! hold stretches that show how the expert recovers.
//!
//! The episodes are written in the dataset layout `gameworld world dataset`
//! writes (`data/<task>/<id>.parquet`), so `gameworld world train` reads
//! them beside expert-only data.

use crate::data::Label;
use crate::infer::{Runner, Sampling};
use crate::model::Network;
use gw_openworld::Expert;
use gw_owdata::FrameFormat;
use gw_owdata::TaskDef;
use gw_owdata::episode::{episode_seed, record_step, start_world};
use gw_owdata::shard::{EpisodeMeta, EpisodeWriter};
use std::path::Path;

/// How the episodes are played.
#[derive(Clone, Debug)]
pub struct DaggerOptions {
    /// Steps per episode (the benchmark's two game minutes: 2,400).
    pub steps: u32,
    /// The share of segments the expert plays (0 = the policy plays all).
    pub expert_share: f64,
    /// Segment lengths are drawn uniformly from this range (steps).
    pub segment: (u32, u32),
    /// The policy's decoding.
    pub sampling: Sampling,
    pub temperature: f64,
    /// The dataset seed: episode `e` of a task plays the world
    /// [`episode_seed`]`(seed, task, e)`, as `gameworld world dataset` does.
    pub seed: u64,
}

impl Default for DaggerOptions {
    fn default() -> Self {
        DaggerOptions {
            steps: 2400,
            expert_share: 0.3,
            segment: (40, 200),
            sampling: Sampling::Sample,
            temperature: crate::agent::BUILTIN_TEMPERATURE,
            seed: 0,
        }
    }
}

/// What one episode held.
#[derive(Clone, Debug, PartialEq)]
pub struct DaggerEpisode {
    pub id: String,
    pub steps: u32,
    /// Steps the policy's own action was taken.
    pub policy_steps: u32,
    /// Target items obtained (by either player).
    pub items: u32,
    /// Steps where the policy's action agreed with the expert's label on
    /// the move keys and attack.
    pub agreed: u32,
    /// Times the expert rebuilt its plan (a policy that keeps leaving the
    /// expert's path makes it re-plan).
    pub replans: u32,
}

/// Plays episode `episode` of `task` with `net` and the expert, and writes
/// it under `out/data/<task>/` as `<task>-dagger-<seed>-<episode>.parquet`,
/// frames in PNG at the policy's resolution. The seed in the name lets
/// rounds collected with different seeds share one folder.
pub fn collect_episode(
    net: Network,
    task: &TaskDef,
    episode: u32,
    o: &DaggerOptions,
    out: &Path,
) -> Result<DaggerEpisode, String> {
    let seed = episode_seed(o.seed, &task.id, episode);
    let goal = gw_owdata::instructions::draw(&task.target_item, task.count, seed);
    let [w, h] = net.cfg.resolution;
    let (wu, hu) = (w as usize, h as usize);
    let mut runner = Runner::new(net, &goal, seed, o.sampling).map_err(|e| e.to_string())?;
    runner.temperature = o.temperature;
    let mut world = start_world(task, seed);
    let mut expert = Expert::new(&task.target_item, task.count);
    let mut control = gw_core::Rng::new(seed, 0x6461_6767_6572); // "dagger"
    let (mut expert_turn, mut left) = (false, 0u32);
    let mut rgba = vec![0u8; wu * hu * 4];
    let mut rgb = vec![0u8; wu * hu * 3];
    let mut records = Vec::with_capacity(o.steps as usize);
    let (mut policy_steps, mut agreed, mut replans) = (0u32, 0u32, 0u32);
    let (lo, hi) = (o.segment.0.max(1), o.segment.1.max(o.segment.0.max(1)));
    for step in 0..o.steps {
        if world.player.dead {
            world.respawn();
        }
        if left == 0 {
            expert_turn = control.next_f64() < o.expert_share;
            left = lo + (control.next_u64() % (hi - lo + 1) as u64) as u32;
        }
        left -= 1;
        gw_world::render::render_rgba(&world, wu, hu, &mut rgba, false);
        gw_core::frame::rgba_to_rgb(&rgba, &mut rgb);
        let proposed = runner.decide(&rgb).map_err(|e| e.to_string())?;
        if !expert_turn {
            expert.aim_at_crosshair(&world);
        }
        let label = expert.act(&world);
        // The policy's detours make the expert's steps fail and re-plan;
        // the cap on re-plans (after which the expert only explores) is
        // for the expert's own runs, not for a labeller that is led astray.
        replans += expert.replans;
        expert.replans = 0;
        let mine = proposed.to_action();
        let same = |a: &gw_world::Action, b: &gw_world::Action| {
            a.forward == b.forward && a.back == b.back && a.attack == b.attack
        };
        agreed += same(&mine, &label) as u32;
        let taken = if expert_turn {
            label.clone()
        } else {
            policy_steps += 1;
            mine
        };
        runner.taken(&Label::from_action(&taken));
        let frame = FrameFormat::Png.encode(&rgba, w, h);
        let r = record_step(task, &expert, &mut world, step, frame, &taken, label);
        let done = r.done;
        records.push(r);
        if done {
            break;
        }
    }
    let id = format!("{}-dagger-{}-{episode:06}", task.id, o.seed);
    let path = out.join(format!("data/{}/{id}.parquet", task.id));
    let dir = path.parent().expect("a data file has a folder");
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let steps = records.len() as u32;
    let items = records.iter().map(|r| r.reward as u32).sum();
    let mut writer = EpisodeWriter::create(
        &path,
        EpisodeMeta {
            task: task.id.clone(),
            episode_id: id.clone(),
            episode,
            seed,
            steps,
            goal,
        },
    )?;
    for r in records {
        if let Err(e) = writer.push(r) {
            writer.abandon();
            return Err(e);
        }
    }
    writer.finish()?;
    Ok(DaggerEpisode {
        id,
        steps,
        policy_steps,
        items,
        agreed,
        replans,
    })
}
