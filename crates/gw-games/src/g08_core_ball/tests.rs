use super::*;
use crate::testkit;

#[test]
#[ignore = "prints expert results per task and seed"]
fn tune_report() {
    for task in ["08_01", "08_02", "08_03", "08_04", "08_05"] {
        let rs: Vec<String> = (1..=10)
            .map(|seed| {
                let r = testkit::play_expert(ID, task, seed);
                format!("{}:{}/{}/{}", r.success as u8, r.best_score, r.steps, r.episodes)
            })
            .collect();
        println!("{task} {}", rs.join(" "));
    }
    let mut rng = gw_core::Rng::new(99, 7);
    for task in ["08_01", "08_03", "08_05"] {
        let rs: Vec<String> = (1..=5)
            .map(|seed| {
                let r = testkit::play(ID, task, seed, |_| Some({ let a = ["wait", "shoot"][rng.index(2)]; serde_json::json!({"action": a}) }));
                format!("{}", r.best_score)
            })
            .collect();
        println!("random {task} {}", rs.join(" "));
    }
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frame() {
    let mut s = testkit::stepper(ID, "08_05", 1);
    for _ in 0..20 {
        let p = s.expert_payload();
        s.step(gw_core::registry::Interface::Generalist, Some(&p)).unwrap();
    }
    testkit::save_frame(&s, std::path::Path::new("/tmp/coreball.png"));
}
