//! Bytes per frame of each encoding on kept expert episodes:
//! `frame_sizes [EPISODES] [WIDTHxHEIGHT] [TARGET]` (target: logs, dirt,
//! cobblestone, iron_ore with the atomic kits; default logs at 640x360).

use gw_owdata::FrameFormat;
use gw_owdata::episode::{TaskDef, episode_seed, replay, run_expert};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let episodes: u32 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let (w, h) = a
        .get(2)
        .and_then(|s| s.split_once('x'))
        .map(|(w, h)| (w.parse().unwrap(), h.parse().unwrap()))
        .unwrap_or((640u32, 360u32));
    let target = a.get(3).cloned().unwrap_or("logs".into());
    let kit = match target.as_str() {
        "cobblestone" => vec![("wooden_pickaxe".to_string(), 1)],
        "iron_ore" => vec![("stone_pickaxe".to_string(), 1)],
        _ => Vec::new(),
    };
    let task = TaskDef {
        id: format!("atomic_{target}"),
        target_item: target.clone(),
        count: 1,
        kit,
    };
    let (mut frames, mut jpeg, mut png) = (0u64, 0u64, 0u64);
    for e in 0..episodes {
        let seed = episode_seed(77, &task.id, e);
        let run = run_expert(&task, seed, 4800);
        if !run.success {
            continue;
        }
        for (format, total) in [(FrameFormat::Jpeg, &mut jpeg), (FrameFormat::Png, &mut png)] {
            replay::<()>(&task, seed, &run.actions, w, h, format, |r| {
                *total += r.frame.len() as u64;
                Ok(())
            })
            .unwrap_or_else(|_| panic!("replay diverged"));
        }
        frames += run.actions.len() as u64;
    }
    println!(
        "{frames} frames at {w}x{h}: JPEG q{} {:.1} KB/frame, PNG {:.1} KB/frame",
        gw_owdata::frame::JPEG_QUALITY,
        jpeg as f64 / frames.max(1) as f64 / 1000.0,
        png as f64 / frames.max(1) as f64 / 1000.0
    );
}
