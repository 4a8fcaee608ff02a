//! Where the fair expert idles: `idle_trace TARGET SEED STEPS` prints each
//! run of idle ticks with the sub-goal, position, view and crosshair.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let target = &a[1];
    let seed: u64 = a[2].parse().unwrap();
    let max: u64 = a[3].parse().unwrap();
    let mut w = gw_world::World::new(gw_world::WorldConfig {
        seed,
        ..Default::default()
    });
    let count = std::env::var("COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(gw_openworld::expert::KEEP_COLLECTING);
    let mut ex = gw_openworld::Expert::new(target, count);
    let mut run = 0;
    for t in 0..max {
        if w.player.dead {
            w.respawn();
        }
        let act = ex.act(&w);
        let every: u64 = std::env::var("EVERY")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        if every > 0 && t % every == 0 {
            println!(
                "t {t} goal {:?} pos {:?} yaw {:.0} pitch {:.0} act {:?} known {}",
                ex.current().map(|g| g.to_string()),
                w.player.body.pos.map(|x| (x * 10.0).round() / 10.0),
                w.player.yaw,
                w.player.pitch,
                act,
                ex.sight.known_blocks()
            );
        }
        if act == gw_world::Action::noop() {
            if run == 0 {
                let hit = gw_world::world::raycast_blocks(&w.terrain, w.eye(), w.look_dir(), 4.5);
                println!(
                    "tick {t}: idle; goal {:?} pos {:?} yaw {:.1} pitch {:.1} hit {:?} ground {}",
                    ex.current().map(|g| g.to_string()),
                    w.player.body.pos.map(|x| (x * 10.0).round() / 10.0),
                    w.player.yaw,
                    w.player.pitch,
                    hit.map(|h| (h.pos, gw_world::data().block(h.block).name.clone())),
                    w.player.body.on_ground
                );
            }
            run += 1;
        } else if run > 0 {
            println!("  … {run} idle ticks, then {act:?}");
            run = 0;
        }
        w.step(&act);
    }
    for l in &ex.log {
        println!("{l}");
    }
}
