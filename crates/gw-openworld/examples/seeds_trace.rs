//! Where a wheat-seeds episode (Table 2's atomic_seeds, two game minutes)
//! goes: every EVERY ticks the position, biome, the tall grass the fair
//! expert knows of and the crosshair block: `seeds_trace SEED [EVERY]`.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let seed: u64 = a[1].parse().unwrap();
    let every: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let mut w = gw_openworld::game::fresh_world(seed, 0, &[]);
    let mut ex = gw_openworld::Expert::new("wheat_seeds", gw_openworld::expert::KEEP_COLLECTING);
    let tg = gw_world::data::b::TALL_GRASS;
    let d = gw_world::data();
    for t in 0..2400u64 {
        if w.player.dead {
            w.respawn();
        }
        let act = ex.act(&w);
        if t % every == 0 {
            let p = w.player.body.pos;
            let f = [
                p[0].floor() as i32,
                p[1].floor() as i32,
                p[2].floor() as i32,
            ];
            let grass: Vec<_> = ex
                .sight
                .known()
                .filter(|(_, v)| *v == tg)
                .map(|(c, _)| c)
                .collect();
            let near = grass
                .iter()
                .map(|c| ((c[0] - f[0]).pow(2) + (c[2] - f[2]).pow(2)) as f64)
                .fold(f64::MAX, f64::min)
                .sqrt();
            let col = gw_world::terrain::column(w.terrain.seed, f[0], f[2]);
            let seeds: u32 = w
                .obtained
                .iter()
                .filter(|(i, _)| d.item_name(**i) == "wheat_seeds")
                .map(|(_, n)| *n)
                .sum();
            let hit = gw_world::world::raycast_blocks(&w.terrain, w.eye(), w.look_dir(), 4.5)
                .map(|h| d.block(h.block).name.clone());
            println!(
                "hit {hit:?} t {t} pos {:?} biome {:?} h {} water {} goal {:?} grass_known {} nearest {near:?} seeds {seeds} act f{} j{} a{} yaw {:.0}",
                f,
                col.biome,
                col.height,
                w.player.body.in_water,
                ex.current().map(|g| g.to_string()),
                grass.len(),
                act.forward,
                act.jump,
                act.attack,
                w.player.yaw
            );
        }
        w.step(&act);
    }
    for l in &ex.log {
        println!("{l}");
    }
}
