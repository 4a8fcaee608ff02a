//! Trace one expert run: `expert_trace TARGET SEED STEPS`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let target = &a[1];
    let seed: u64 = a[2].parse().unwrap();
    let max: u64 = a[3].parse().unwrap();
    let mut w = gw_openworld::expert::task_world(seed);
    let mut ex = gw_openworld::Expert::new(target, 1);
    let mut logged = 0;
    for t in 0..max {
        if w.player.dead {
            w.respawn();
        }
        let act = ex.act(&w);
        w.step(&act);
        if ex.log.len() > logged {
            for l in &ex.log[logged..] {
                println!("{l}");
            }
            logged = ex.log.len();
            let p = w.player.body.pos;
            println!(
                "   pos {:.1} {:.1} {:.1} inv {:?} busy {}",
                p[0],
                p[1],
                p[2],
                gw_openworld::plan::inventory_map(&w.player.inventory),
                w.busy
            );
            let d = gw_world::data();
            let hb: Vec<String> = w.player.inventory.slots[..9]
                .iter()
                .map(|s| {
                    s.map(|s| format!("{}x{}", d.item_name(s.item), s.count))
                        .unwrap_or("-".into())
                })
                .collect();
            println!("   hotbar {hb:?}");
            println!(
                "   furnace near {:?} table near {:?} events {:?}",
                gw_openworld::skills::nearest_within(&w, gw_world::data::b::FURNACE, 12),
                gw_openworld::skills::nearest_within(&w, gw_world::data::b::CRAFTING_TABLE, 12),
                w.events
            );
        }
        if t % 500 == 0 && std::env::var("V").is_ok() {
            let p = w.player.body.pos;
            println!(
                "t {t} pos {:.1} {:.1} {:.1} act {:?}",
                p[0], p[1], p[2], act
            );
        }
        if ex.done(&w) {
            println!("done at {t}");
            break;
        }
    }
}
