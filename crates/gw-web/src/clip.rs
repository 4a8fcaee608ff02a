//! An animated GIF of a run's frames (the `gif` crate's encoder and NeuQuant
//! palette per frame), for sharing what an agent did. Served by the viewer
//! and written by `gameworld clip`.

use crate::paths::resolve;
use crate::runs::is_frame_name;
use crate::{ApiError, AppState, bad_request};
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a clip is made.
#[derive(Clone, Copy, Debug)]
pub struct ClipOptions {
    /// Frames per second of the clip (each frame is one step).
    pub fps: u32,
    /// Frames wider than this are scaled down (box filter).
    pub max_width: u32,
    /// At most this many frames; longer runs are sampled evenly.
    pub max_frames: usize,
}

impl Default for ClipOptions {
    fn default() -> Self {
        ClipOptions {
            fps: 4,
            max_width: 480,
            max_frames: 400,
        }
    }
}

/// The run's frames in step order (a reset frame right after its step).
pub fn frame_files(run_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(run_dir.join("frames")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| is_frame_name(n))
        .collect();
    // step_000003.png sorts before step_000003_reset.png.
    names.sort();
    names
        .into_iter()
        .map(|n| run_dir.join("frames").join(n))
        .collect()
}

/// RGBA pixels of a PNG frame.
fn decode(path: &Path) -> Result<(u32, u32, Vec<u8>), String> {
    let bytes = crate::paths::read_regular(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (w, h) = (info.width, info.height);
    let px = (w * h) as usize;
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf[..px * 4].to_vec(),
        png::ColorType::Rgb => buf[..px * 3]
            .chunks_exact(3)
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect(),
        png::ColorType::Grayscale => buf[..px].iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => buf[..px * 2]
            .chunks_exact(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        png::ColorType::Indexed => {
            return Err(format!("{}: unexpected palette PNG", path.display()));
        }
    };
    Ok((w, h, rgba))
}

/// Box-filter `rgba` down by an integer factor so the width is at most `max_w`.
fn shrink(w: u32, h: u32, rgba: &[u8], max_w: u32) -> (u32, u32, Vec<u8>) {
    let f = w.div_ceil(max_w.max(1)).max(1);
    if f == 1 {
        return (w, h, rgba.to_vec());
    }
    let (nw, nh) = (w / f, h / f);
    let mut out = vec![0u8; (nw * nh * 4) as usize];
    let n = f * f;
    for y in 0..nh {
        for x in 0..nw {
            let mut acc = [0u32; 4];
            for dy in 0..f {
                let row = ((y * f + dy) * w + x * f) as usize * 4;
                for dx in 0..f as usize {
                    for c in 0..4 {
                        acc[c] += rgba[row + dx * 4 + c] as u32;
                    }
                }
            }
            let o = ((y * nw + x) * 4) as usize;
            for c in 0..4 {
                out[o + c] = ((acc[c] + n / 2) / n) as u8;
            }
        }
    }
    (nw, nh, out)
}

/// Write the run's frames as a looping GIF; returns the number of frames.
pub fn write_gif(run_dir: &Path, out: impl Write, opts: ClipOptions) -> Result<usize, String> {
    let mut files = frame_files(run_dir);
    if files.is_empty() {
        return Err(format!(
            "{} has no frames (was it run with --no-frames?)",
            run_dir.display()
        ));
    }
    if files.len() > opts.max_frames.max(2) {
        let n = opts.max_frames.max(2);
        let last = files.len() - 1;
        files = (0..n).map(|i| files[i * last / (n - 1)].clone()).collect();
    }
    let (w0, h0, first) = decode(&files[0])?;
    let (w, h, _) = shrink(w0, h0, &first, opts.max_width);
    if w > u16::MAX as u32 || h > u16::MAX as u32 || w == 0 || h == 0 {
        return Err("frames are too large for a GIF".into());
    }
    let mut enc = gif::Encoder::new(out, w as u16, h as u16, &[]).map_err(|e| e.to_string())?;
    enc.set_repeat(gif::Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    let delay = (100 / opts.fps.clamp(1, 50)) as u16;
    let count = files.len();
    for (i, f) in files.iter().enumerate() {
        let (fw, fh, rgba) = decode(f)?;
        if (fw, fh) != (w0, h0) {
            return Err(format!(
                "{} has another size than the first frame",
                f.display()
            ));
        }
        let (_, _, mut small) = shrink(fw, fh, &rgba, opts.max_width);
        let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut small, 10);
        // Hold the last frame so the outcome can be seen.
        frame.delay = if i + 1 == count { delay * 6 } else { delay };
        enc.write_frame(&frame).map_err(|e| e.to_string())?;
    }
    Ok(count)
}

#[derive(Deserialize)]
pub struct ClipQuery {
    #[serde(default)]
    pub root: usize,
    #[serde(default)]
    pub path: String,
    pub fps: Option<u32>,
    pub width: Option<u32>,
}

pub async fn gif(
    State(st): State<Arc<AppState>>,
    Query(q): Query<ClipQuery>,
) -> Result<Response, ApiError> {
    let dir = resolve(&st.roots, q.root, &q.path)?;
    let opts = ClipOptions {
        fps: q.fps.unwrap_or(4).clamp(1, 30),
        max_width: q.width.unwrap_or(480).clamp(64, 1280),
        ..ClipOptions::default()
    };
    let bytes = tokio::task::spawn_blocking(move || {
        let mut buf = Vec::new();
        write_gif(&dir, &mut buf, opts).map(|_| buf)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(bad_request)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/gif"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"run.gif\"",
            ),
        ],
        bytes,
    )
        .into_response())
}
