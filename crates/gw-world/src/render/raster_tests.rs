use super::*;
use crate::render::tests_support::{hard_views, views};

#[test]
fn probe_agreement() {
    let (w, h) = (96usize, 64usize);
    for (i, v) in hard_views().iter().enumerate() {
        let r = picks(v, w, h, false);
        let rays = pick_with(v, w, h, false, Paths::FAST);
        let refp = reference_picks(v, w, h, 1e-6);
        let mut cover = vec![Pick::Sky; w * h];
        cover_hud(v, w, h, &mut cover);
        let (mut diff_rays, mut diff_ref, mut unsure) = (0, 0, 0);
        for k in 0..w * h {
            if cover[k] == Pick::Hud { continue; }
            if r[k] != rays[k] { diff_rays += 1; }
            match refp[k] { None => unsure += 1, Some(p) => if p != r[k] { diff_ref += 1; if diff_ref < 3 { eprintln!("view {i} px {} {}: raster {:?} ref {:?} rays {:?}", k % w, k / w, r[k], p, rays[k]); } } }
        }
        let blocks = r.iter().filter(|p| matches!(p, Pick::Block{..})).count(); let hud = cover.iter().filter(|p| **p == Pick::Hud).count();
        eprintln!("view {i}: blocks {blocks} hud {hud} prims {} vs rays {diff_rays}, vs ref {diff_ref}, unsure {unsure}", primitive_count(v, w, h).0);
    }
    let _ = views;
}

#[test]
fn probe_colors() {
    let (w, h) = (96usize, 64usize);
    for (i, v) in hard_views().iter().enumerate() {
        let mut a = vec![0u8; w * h * 4];
        let mut b = vec![0u8; w * h * 4];
        render(v, w, h, 1, &mut a, false);
        render_with(v, w, h, 1, &mut b, false, Paths::FAST);
        let mut big = 0;
        let mut small = 0;
        for k in 0..w * h {
            let d = (0..3).map(|c| (a[k * 4 + c] as i32 - b[k * 4 + c] as i32).abs()).max().unwrap();
            if d > 8 { big += 1; if big < 3 { eprintln!("view {i} px {} {}: raster {:?} rays {:?}", k % w, k / w, &a[k*4..k*4+3], &b[k*4..k*4+3]); } } else if d > 0 { small += 1; }
        }
        eprintln!("view {i}: big {big} small {small}");
    }
}

#[test]
#[ignore]
fn probe_speed() {
    use crate::world::WorldConfig;
    let mut wd = World::new(WorldConfig { seed: 1, ..Default::default() });
    let a = crate::action::Action { forward: true, ..Default::default() };
    for _ in 0..60 { wd.step(&a); }
    for (w, h, n) in [(64usize, 64usize, 400), (640, 360, 30)] {
        let mut out = vec![0u8; w * h * 4];
        for round in 0..2 {
            let t = std::time::Instant::now();
            for _ in 0..n { render(&wd, w, h, 1, &mut out, false); }
            let r = t.elapsed().as_secs_f64() / n as f64;
            let t = std::time::Instant::now();
            for _ in 0..n { render_with(&wd, w, h, 1, &mut out, false, Paths::FAST); }
            let c = t.elapsed().as_secs_f64() / n as f64;
            let t = std::time::Instant::now();
            let f = primitive_count(&wd, w, h);
            for st in &STATS { st.store(0, std::sync::atomic::Ordering::Relaxed); }
            render(&wd, w, h, 1, &mut out, false);
            eprintln!("stats hidden secs {:?} drawn secs {:?} faces empty {:?} drawn {:?}", STATS[0], STATS[1], STATS[2], STATS[3]);
            let setup = t.elapsed().as_secs_f64();
            eprintln!("{w}x{h} round {round}: raster {:.1} us, rays {:.1} us, frame setup {:.1} us, prims {}", r * 1e6, c * 1e6, setup * 1e6, f.0);
        }
    }
}

#[test]
#[ignore]
fn probe_profile() {
    use crate::world::WorldConfig;
    let mut wd = World::new(WorldConfig { seed: 1, ..Default::default() });
    let a = crate::action::Action { forward: true, ..Default::default() };
    for _ in 0..60 { wd.step(&a); }
    let (w, h): (usize, usize) = std::env::var("PROBE_SIZE").ok().map(|s| { let v: Vec<usize> = s.split('x').map(|x| x.parse().unwrap()).collect(); (v[0], v[1]) }).unwrap_or((64, 64));
    let mut out = vec![0u8; w * h * 4];
    let rays = std::env::var("PROBE_RAYS").is_ok();
    let n: usize = std::env::var("PROBE_N").ok().and_then(|v| v.parse().ok()).unwrap_or(2000 * 4096 / (w * h));
    for _ in 0..n {
        if rays { render_with(&wd, w, h, 1, &mut out, false, Paths::FAST); } else { render(&wd, w, h, 1, &mut out, false); }
    }
}
