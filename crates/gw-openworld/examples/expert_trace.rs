//! Trace one expert run: `expert_trace TARGET SEED STEPS`. Env: V=N prints
//! the action every N ticks from tick FROM (with ITEMS=1 also the items
//! lying about); WATCH=item,item prints each change of those counts.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let target = &a[1];
    let seed: u64 = a[2].parse().unwrap();
    let max: u64 = a[3].parse().unwrap();
    let mut w = gw_openworld::expert::task_world(seed);
    let mut ex = gw_openworld::Expert::new(target, 1);
    let mut logged = 0;
    let mut watched: Vec<u32> = Vec::new();
    // V=N: the action every N ticks (from tick FROM).
    let every: u64 = std::env::var("V").map_or(u64::MAX, |v| v.parse().unwrap_or(500));
    let from: u64 = std::env::var("FROM").map_or(0, |v| v.parse().unwrap_or(0));
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
        if let Ok(names) = std::env::var("WATCH") {
            // WATCH=item,item: print each change of those items' counts.
            let inv = gw_openworld::plan::inventory_map(&w.player.inventory);
            let now: Vec<u32> = names
                .split(',')
                .map(|n| inv.get(n).copied().unwrap_or(0))
                .collect();
            if now != watched {
                let p = w.player.body.pos;
                println!(
                    "t {t} {names} {now:?} pos {:.1} {:.1} {:.1}",
                    p[0], p[1], p[2]
                );
                watched = now;
            }
        }
        if std::env::var("ITEMS").is_ok() && from <= t && t % every == 0 {
            for it in &w.items {
                println!(
                    "  item {} {:?} age {} thrown {} yaw {:.1} pitch {:.1}",
                    gw_world::data().item_name(it.item),
                    it.body.pos,
                    it.age,
                    it.thrown,
                    w.player.yaw,
                    w.player.pitch
                );
            }
        }
        if from <= t && t % every == 0 {
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
