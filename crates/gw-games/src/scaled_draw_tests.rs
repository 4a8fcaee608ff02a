//! Frames drawn directly at a small size ([`crate::render_sized`], the
//! drawing kit's scale transform) against the viewport frame shrunk to that
//! size: the same layout within a tolerance, for every game that draws
//! scaled, and the same pixels every time.

use crate::testkit::{expert_step, stepper};
use gw_core::Stepper;
use tiny_skia::Pixmap;

/// Box-shrink an RGBA frame to `w` × `h` (the mean of each box).
fn shrink(src: &Pixmap, w: u32, h: u32) -> Vec<u8> {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let (w, h) = (w as usize, h as usize);
    let mut out = vec![0u8; w * h * 3];
    for oy in 0..h {
        let (y0, y1) = (oy * sh / h, ((oy + 1) * sh / h).max(oy * sh / h + 1));
        for ox in 0..w {
            let (x0, x1) = (ox * sw / w, ((ox + 1) * sw / w).max(ox * sw / w + 1));
            let mut acc = [0u64; 3];
            for y in y0..y1 {
                for x in x0..x1 {
                    let p = &src.data()[(y * sw + x) * 4..];
                    for c in 0..3 {
                        acc[c] += p[c] as u64;
                    }
                }
            }
            let n = ((x1 - x0) * (y1 - y0)) as u64;
            for c in 0..3 {
                out[(oy * w + ox) * 3 + c] = ((acc[c] + n / 2) / n) as u8;
            }
        }
    }
    out
}

fn rgb(pm: &Pixmap) -> Vec<u8> {
    pm.data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// `game_id`'s first task on seed 3, after up to 12 expert steps, and its
/// viewport frame there.
fn played(game_id: &str) -> (Stepper, Pixmap) {
    let task = crate::testkit::registry()
        .tasks_of(game_id)
        .next()
        .expect("every game has tasks")
        .id
        .clone();
    let mut s = stepper(game_id, &task, 3);
    for _ in 0..12 {
        if s.finished().is_some() {
            break;
        }
        expert_step(&mut s);
    }
    let (vw, vh) = s.viewport();
    let mut full = Pixmap::new(vw, vh).unwrap();
    s.render(&mut full);
    (s, full)
}

/// Mean absolute difference per channel (0..255) between `small` and
/// `full` shrunk to its size.
fn mean_diff(small: &Pixmap, full: &Pixmap) -> f64 {
    let a = rgb(small);
    let b = shrink(full, small.width(), small.height());
    a.iter()
        .zip(&b)
        .map(|(x, y)| (*x as f64 - *y as f64).abs())
        .sum::<f64>()
        / a.len() as f64
}

/// Mean absolute difference between a frame drawn at `w` × `h` and the
/// viewport frame shrunk, and whether two small draws were identical;
/// `None` for a game that does not draw scaled.
fn compare(game_id: &str, w: u32, h: u32) -> Option<(f64, bool)> {
    let (s, full) = played(game_id);
    let mut small = Pixmap::new(w, h).unwrap();
    if !crate::render_sized(s.game(), &mut small) {
        return None;
    }
    // Drawn again over another frame's pixels (an env reuses its buffer):
    // nothing of them may show through.
    let mut again = Pixmap::new(w, h).unwrap();
    again.fill(tiny_skia::Color::from_rgba8(255, 0, 255, 255));
    crate::render_sized(s.game(), &mut again);
    Some((mean_diff(&small, &full), small.data() == again.data()))
}

/// Mean absolute difference allowed per channel (of 255): small shapes and
/// glyphs land on other pixels when drawn small, the layout does not.
const TOLERANCE: f64 = 12.0;

#[test]
fn small_frames_match_the_shrunk_viewport_frame() {
    let mut report = Vec::new();
    for &g in crate::GAME_IDS {
        for (w, h) in [(64, 64), (160, 90)] {
            let Some((diff, same)) = compare(g, w, h) else {
                continue;
            };
            report.push(format!("{g} {w}x{h}: {diff:.2}"));
            assert!(
                same,
                "{g}: two draws at {w}x{h} differ (the second over a magenta frame)"
            );
            assert!(
                diff <= TOLERANCE,
                "{g} at {w}x{h}: mean difference {diff:.2} from the shrunk viewport frame"
            );
        }
    }
    // Every game that draws scaled, plus those that draw at any size
    // themselves (`Game::render_sized`).
    let scaled = crate::GAME_IDS
        .iter()
        .filter(|g| crate::draws_scaled(g))
        .count();
    assert!(report.len() >= 2 * scaled, "{report:#?}");
}

/// Which games could draw scaled (run with --ignored --nocapture to see
/// every game's difference when shortening [`crate::DRAWS_AT_VIEWPORT`]).
#[test]
#[ignore]
fn survey_every_game_drawn_scaled() {
    for &g in crate::GAME_IDS {
        let (s, full) = played(g);
        let (vw, vh) = s.viewport();
        for (w, h) in [(64, 64), (160, 90)] {
            let mut small = Pixmap::new(w, h).unwrap();
            let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::draw::render_scaled(&mut small, (vw, vh), |pm| s.game().render(pm))
            }))
            .is_ok();
            let diff = mean_diff(&small, &full);
            println!("SURVEY {g} {w}x{h} ok={ok} diff={diff:.2}");
        }
    }
}
