//! Time `encode_pixels` alone on saved frames (e.g. a run's `frames/`), so
//! encoder changes can be compared without rendering, or counted with
//! `valgrind --tool=callgrind --toggle-collect='gw_core::frame::encode_pixels'`:
//!
//! `png_encode_bench DIR... [--reps N] [--filter none|sub|up|up-or-sub|per-frame]`
//!
//! Prints per folder the median encode time, the mean PNG size and a digest
//! of every PNG's bytes (equal digests: byte-identical output).
use gw_core::frame::{RowFilter, encode_pixels};
use std::time::Instant;

fn main() {
    let mut dirs = Vec::new();
    let mut reps = 5usize;
    let mut filter = RowFilter::Up;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|n| n.parse().ok()).expect("--reps N"),
            "--filter" => {
                let f = args.next().unwrap_or_default();
                filter = RowFilter::ALL
                    .into_iter()
                    .find(|x| x.as_str() == f)
                    .expect("--filter none|sub|up|up-or-sub|per-frame");
            }
            _ => dirs.push(a),
        }
    }
    for dir in dirs {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "png"))
            .collect();
        paths.sort();
        let frames: Vec<(u32, u32, Vec<u8>)> = paths.iter().map(|p| rgba_of(p)).collect();
        if frames.is_empty() {
            println!("{dir}: no PNG frames");
            continue;
        }
        let (mut times, mut total, mut digest) = (Vec::new(), 0usize, 0u64);
        for _ in 0..reps {
            for (w, h, px) in &frames {
                let t0 = Instant::now();
                let png = encode_pixels(px, 4, *w, *h, filter);
                times.push(t0.elapsed().as_secs_f64() * 1e3);
                total += png.len();
                for (i, &b) in png.iter().enumerate() {
                    digest = digest
                        .wrapping_mul(31)
                        .wrapping_add(u64::from(b) ^ i as u64);
                }
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{dir}: {} frames x {reps}, median {:.3} ms, mean bytes {}, digest {digest:016x}",
            frames.len(),
            times[times.len() / 2],
            total / times.len()
        );
    }
}

/// A PNG file's pixels as opaque RGBA, as a pixmap holds them.
fn rgba_of(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut buf = vec![0; reader.output_buffer_size().expect("frame size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgb, "RGB frames");
    let rgba = buf[..info.buffer_size()]
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    (info.width, info.height, rgba)
}
