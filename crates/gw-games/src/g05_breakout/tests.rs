use super::*;
use crate::testkit;
use gw_core::registry::Interface;

fn game(level: u32, seed: u64) -> Breakout {
    let mut g = Breakout::new();
    g.init(&GameConfig { seed, level: Some(level), ..Default::default() });
    g
}

fn key(g: &mut Breakout, k: &str, ms: u64) {
    g.handle_event(&InputEvent::KeyDown { key: k.into() });
    g.advance(ms);
    g.handle_event(&InputEvent::KeyUp { key: k.into() });
}

#[test]
#[ignore = "prints expert results per task and seed"]
fn tune_report() {
    for task in ["05_01", "05_02", "05_03", "05_04", "05_05"] {
        let rs: Vec<String> = (1..=10)
            .map(|seed| {
                let r = testkit::play_expert(ID, task, seed);
                format!("{}:{:.2}/{}/{}", r.success as u8, r.best_score, r.steps, r.episodes)
            })
            .collect();
        println!("{task} {}", rs.join(" "));
    }
    let mut rng = gw_core::Rng::new(99, 7);
    for task in ["05_01", "05_05"] {
        let rs: Vec<String> = (1..=5)
            .map(|seed| {
                let r = testkit::play(ID, task, seed, |_| {
                    Some({ let a = ["wait", "move_left", "move_right"][rng.index(3)]; serde_json::json!({"action": a}) })
                });
                format!("{:.2}", r.best_score)
            })
            .collect();
        println!("random {task} {}", rs.join(" "));
    }
}
