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
        eprintln!("view {i}: blocks {blocks} hud {hud} prims {} vs rays {diff_rays}, vs ref {diff_ref}, unsure {unsure}", primitive_count(v, w, h));
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
