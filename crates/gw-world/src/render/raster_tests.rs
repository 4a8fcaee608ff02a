use super::*;
use crate::render::tests_support::{hard_views, views};
use crate::world::WorldConfig;

/// The rasterised view's picks with the HUD's pixels marked, as
/// [`crate::render::pick`] gives them.
fn raster_pick(w: &World, wd: usize, ht: usize, parallel: bool) -> Vec<Pick> {
    let mut p = picks(w, wd, ht, parallel);
    cover_hud(w, wd, ht, &mut p);
    p
}

fn rgba(w: &World, wd: usize, ht: usize, block: usize, parallel: bool) -> Vec<u8> {
    let mut out = vec![0u8; wd * ht * 4];
    render(w, wd, ht, block, &mut out, parallel);
    out
}

/// FNV-1a over bytes.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &v| {
        (h ^ v as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Every pixel's pick is the nearest primitive its ray meets: the
/// rasteriser's id buffer against rays tested at every face and box face
/// of the view (no rasterisation, no occlusion culling), on views with
/// water, leaves, torches, mobs, items, an eye inside a block, at night.
/// Pixels whose ray passes within a hair of an edge or a tie are left out.
#[test]
fn each_pixel_picks_the_nearest_primitive_its_ray_meets() {
    let (w, h) = (96usize, 64usize);
    let (mut sure, mut total) = (0usize, 0usize);
    for (i, v) in hard_views().iter().enumerate() {
        let got = picks(v, w, h, false);
        let want = reference_picks(v, w, h, 1e-7);
        for (k, (g, r)) in got.iter().zip(&want).enumerate() {
            total += 1;
            if let Some(r) = r {
                sure += 1;
                assert_eq!(
                    g,
                    r,
                    "view {i}: pixel ({}, {}) shows {g:?}, its nearest primitive is {r:?}",
                    k % w,
                    k / w
                );
            }
        }
    }
    assert!(sure * 100 > total * 99, "{sure} of {total} pixels checked");
}

/// The rasterised view shows what the ray caster shows: the same pick at
/// every pixel and the same colour at (nearly) every one (a ray landing
/// within rounding of a texel border may take the neighbouring texel).
#[test]
fn the_rasteriser_shows_what_the_ray_caster_shows() {
    let (w, h) = (96usize, 64usize);
    let (mut differ, mut total, mut mobs) = (0usize, 0usize, 0usize);
    for (i, v) in hard_views().iter().enumerate() {
        let got = raster_pick(v, w, h, false);
        let rays = pick_with(v, w, h, false, Paths::PLAIN);
        assert_eq!(got, rays, "view {i}: picks");
        mobs += got.iter().filter(|p| matches!(p, Pick::Mob(_))).count();
        let a = rgba(v, w, h, 1, false);
        let mut b = vec![0u8; w * h * 4];
        render_with(v, w, h, 1, &mut b, false, Paths::PLAIN);
        differ += a
            .chunks_exact(4)
            .zip(b.chunks_exact(4))
            .filter(|(p, q)| p != q)
            .count();
        total += w * h;
    }
    assert!(mobs > 100, "the views show mobs ({mobs} pixels)");
    assert!(differ * 1000 <= total, "{differ} of {total} pixels differ");
}

/// A chunk's mesh is rebuilt after an edit and the view shows the edit:
/// breaking the block under the crosshair shows what was behind it,
/// placing one back shows it again; after edits on chunk borders and a
/// neighbour loading, every kept mesh equals one built afresh.
#[test]
fn a_mesh_is_rebuilt_on_edit_and_the_view_shows_it() {
    let (w, h) = (64usize, 48usize);
    let mut world = World::new(WorldConfig {
        seed: 4,
        passive_mobs: false,
        hostile_mobs: false,
        ..Default::default()
    });
    world.player.pitch = 50.0;
    // A pixel beside the crosshair.
    let centre = (h / 2 + 5) * w + w / 2 + 5;
    let before = raster_pick(&world, w, h, false);
    let Pick::Block { pos, id } = before[centre] else {
        panic!("the pixel shows {:?}", before[centre]);
    };
    assert_ne!(id, b::AIR);
    world.terrain.set(pos[0], pos[1], pos[2], b::AIR);
    let after = raster_pick(&world, w, h, false);
    assert_ne!(after[centre], before[centre], "the broken block is gone");
    assert!(
        after == pick_with(&world, w, h, false, Paths::PLAIN),
        "as the walk"
    );
    world.terrain.set(pos[0], pos[1], pos[2], b::OAK_LEAVES);
    let leaves = raster_pick(&world, w, h, false);
    assert!(
        leaves.contains(&Pick::Block {
            id: b::OAK_LEAVES,
            pos
        }),
        "the placed leaves show"
    );
    assert!(
        leaves == pick_with(&world, w, h, false, Paths::PLAIN),
        "as the walk"
    );
    // Edits on the borders of the eye's chunk, then a chunk loading.
    let e = world.eye().map(floor_i32);
    let (x0, z0) = (e[0] & !15, e[2] & !15);
    for (x, z) in [
        (x0, z0 + 3),
        (x0 + 15, z0 + 7),
        (x0 + 5, z0),
        (x0 + 9, z0 + 15),
    ] {
        let y = world.terrain.surface_y(x, z).expect("loaded");
        world.terrain.set(x, y, z, b::AIR);
        world.terrain.set(x, y + 2, z, b::STONE);
        let _ = raster_pick(&world, w, h, false);
    }
    let far = (x0 >> 4) + 9;
    world.terrain.load(far, z0 >> 4);
    let _ = raster_pick(&world, w, h, false);
    let mut kept = 0;
    for c in world.terrain.loaded() {
        if let Some(m) = c.mesh.get() {
            assert_eq!(
                m,
                &mesh::build(&world.terrain, c),
                "chunk ({}, {})",
                c.cx,
                c.cz
            );
            kept += 1;
        }
    }
    assert!(kept > 4, "{kept} meshes kept");
}

/// The bytes of a frame and its picks do not depend on how many threads
/// draw it: in order, and in bands over pools of 1, 2, 3 and 5 threads.
#[test]
fn frames_do_not_depend_on_thread_count() {
    let v = &hard_views()[7];
    let (w, h) = (200usize, 120usize);
    let serial = rgba(v, w, h, 1, false);
    let serial_blocky = rgba(v, w, h, 3, false);
    let serial_picks = raster_pick(v, w, h, false);
    for n in [1usize, 2, 3, 5] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("pool");
        let (a, b, p) = pool.install(|| {
            (
                rgba(v, w, h, 1, true),
                rgba(v, w, h, 3, true),
                raster_pick(v, w, h, true),
            )
        });
        assert!(a == serial, "{n} threads: frame");
        assert!(b == serial_blocky, "{n} threads: blocky frame");
        assert_eq!(p, serial_picks, "{n} threads: picks");
    }
}

/// Golden digests of rasterised frames: a day view, a night view with
/// mobs and items, a wet view with leaves and a torch, drawn at 160×90
/// and in 4×4 blocks at 320×180. A change of any pixel changes them.
#[test]
fn golden_digests_of_rasterised_frames() {
    let all = hard_views();
    let mut got = Vec::new();
    for i in [0usize, 1, 2, 5, 6] {
        let v = &all[i];
        got.push(fnv(&rgba(v, 160, 90, 1, false)));
        got.push(fnv(&rgba(v, 320, 180, 4, false)));
    }
    let want: [u64; 10] = [
        10720333671336546826,
        9483412646250287467,
        3718338011937810970,
        2808581485683586637,
        11136035258871047189,
        13573001693140796621,
        6216688046607038279,
        13722147853797255216,
        13884222522836763339,
        16102727841299944682,
    ];
    assert_eq!(
        got, want,
        "golden digests (re-record only for a wanted change)"
    );
}

/// Every primitive of the views is turned towards the eye and covers
/// pixels of the screen, where its plane lies in front of the eye.
#[test]
fn primitives_face_the_eye_and_lie_on_screen() {
    let (w, h) = (80usize, 45usize);
    for v in views() {
        let f = Frame::new(&v, w, h);
        let (solid, water) = f.all();
        assert!(!solid.is_empty());
        for p in solid.iter().chain(&water) {
            assert!(p.rows.0 < p.rows.1 && p.rows.1 as usize <= h);
            assert!(p.cols.0 < p.cols.1 && p.cols.1 as usize <= w);
            if let What::Block(b) = p.what {
                let a = b.axis as usize;
                let plane = (b.cell[a] + b.positive as i32) as f64;
                let eye = f.scene.eye[a];
                assert!(if b.positive { eye > plane } else { eye < plane });
            }
            spans(&p.poly[..p.n as usize], w, (0, h), |y, x0, x1| {
                for x in x0..x1 {
                    assert!(p.inv(f.cols[x], f.rows[y]) > 0.0, "in front of the eye");
                }
            });
        }
    }
}

/// A chunk's rectangles, taken apart into single faces, are exactly its
/// exposed faces (each once): every face of a non-air, non-water cell
/// whose neighbour across it is not an opaque full block (an unloaded
/// neighbour hides it); a rectangle is of one block, in one plane, inside
/// one section, and only opaque blocks' faces are merged. On natural
/// ground merging leaves under half as many faces.
#[test]
fn strips_are_exactly_the_exposed_faces() {
    use std::collections::BTreeSet;
    let world = World::new(WorldConfig {
        seed: 11,
        ..Default::default()
    });
    let t = &world.terrain;
    let opaque = |x: i32, y: i32, z: i32| -> bool {
        if y < 0 {
            return true;
        }
        if y >= HEIGHT {
            return false;
        }
        match t.chunk(x >> 4, z >> 4) {
            Some(c) => c.opaque[((x & 15) * CHUNK + (z & 15)) as usize] >> y & 1 == 1,
            None => true,
        }
    };
    let (mut strips, mut singles) = (0usize, 0usize);
    for c in t.loaded() {
        let (ox, oz) = (c.cx * CHUNK, c.cz * CHUNK);
        let mut want = BTreeSet::new();
        for x in 0..CHUNK {
            for z in 0..CHUNK {
                for y in 0..HEIGHT {
                    let v = c.get(x, y, z);
                    if v == b::AIR || v == b::WATER {
                        continue;
                    }
                    for dir in 0..6usize {
                        let mut n = [ox + x, y, oz + z];
                        n[dir / 2] += if dir % 2 == 1 { 1 } else { -1 };
                        if !opaque(n[0], n[1], n[2]) {
                            want.insert((dir, [ox + x, y, oz + z], v));
                        }
                    }
                }
            }
        }
        let mut got = BTreeSet::new();
        let m = mesh::build(t, c);
        let filled: Vec<u8> = (0..m.sections.len())
            .filter(|&i| !m.sections[i].is_empty())
            .map(|i| i as u8)
            .collect();
        assert_eq!(m.filled, filled, "chunk ({}, {})", c.cx, c.cz);
        for (si, sec) in m.sections.iter().enumerate() {
            let k = mesh::section_corner(si);
            // The section's box holds every cell of every list, water too.
            let (a0, a1) = sec.all;
            for (dir, f) in (0..12).flat_map(|d| {
                let list = if d < 6 {
                    &sec.faces[d]
                } else {
                    &sec.water[d - 6]
                };
                list.iter().map(move |f| (d % 6, f))
            }) {
                let (at, end) = f.cells(dir / 2);
                assert!(
                    (0..3).all(|a| a0[a] <= at[a] && end[a] <= a1[a]),
                    "{f:?} outside {:?}",
                    sec.all
                );
            }
            for (dir, list) in sec.faces.iter().enumerate() {
                let along = mesh::merge_axis(dir / 2);
                let across = 3 - dir / 2 - along;
                // Each list's box is exactly the box of its cells.
                let (mut lo, mut hi) = ([u8::MAX; 3], [0u8; 3]);
                for f in list {
                    let (at, end) = f.cells(dir / 2);
                    for a in 0..3 {
                        lo[a] = lo[a].min(at[a]);
                        hi[a] = hi[a].max(end[a]);
                    }
                }
                if !list.is_empty() {
                    assert_eq!(sec.bounds[dir], (lo, hi), "section {si} direction {dir}");
                }
                for f in list {
                    strips += 1;
                    let first = [f.x as i32, f.y as i32, f.z as i32];
                    assert!(f.len >= 1 && f.wid >= 1);
                    let mut ext = [1; 3];
                    (ext[along], ext[across]) = (f.len, f.wid);
                    assert_eq!(f.ext(dir / 2), ext, "{f:?}");
                    if f.len > 1 || f.wid > 1 {
                        assert!(opaque(ox + first[0], first[1], oz + first[2]), "{f:?}");
                    }
                    for i in 0..f.len as i32 * f.wid as i32 {
                        let mut p = first;
                        p[along] += i % f.len as i32;
                        p[across] += i / f.len as i32;
                        for a in 0..3 {
                            assert!(
                                p[a] >= k[a] && p[a] < k[a] + SECTION,
                                "{f:?} leaves its section"
                            );
                        }
                        assert_eq!(c.get(p[0], p[1], p[2]), f.block, "{f:?}");
                        singles += 1;
                        assert!(
                            got.insert((dir, [ox + p[0], p[1], oz + p[2]], f.block)),
                            "{f:?} twice"
                        );
                    }
                }
            }
        }
        assert!(got == want, "chunk ({}, {})", c.cx, c.cz);
    }
    assert!(singles > 10_000, "{singles} faces");
    assert!(
        strips * 2 < singles,
        "{strips} rectangles for {singles} faces"
    );
}
