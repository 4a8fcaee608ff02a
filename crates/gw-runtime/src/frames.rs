//! Frame files of a run: `frames/step_NNNNNN.png`, written either in the
//! run loop's thread or on a bounded background writer.
//!
//! When the agent does not look at the PNG (the built-in agents), encoding
//! and writing a frame is work the next step need not wait for: the run loop
//! renders into the sink's canvas and hands the canvas over
//! ([`FrameSink::submit_canvas`]); a writer thread encodes it and writes the
//! file while the loop goes on with a recycled canvas. The queue is bounded,
//! so a slow disk slows the run down instead of piling up frames in memory,
//! and nothing is ever dropped. Every file is written under a temporary name
//! and renamed into place, so a crash (or a killed process) never leaves a
//! truncated `step_NNNNNN.png`. [`FrameSink::finish`] waits for the queue
//! to drain and reports the first write error; the run writes `result.json`
//! only after it returned `Ok`.

use gw_core::frame::{RowFilter, encode_frame};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::thread::JoinHandle;
use tiny_skia::Pixmap;

/// Frames that may wait in the writer's queue (each holds one canvas).
pub const QUEUE_FRAMES: usize = 4;

enum Job {
    /// Encode this canvas and write it to the path.
    Canvas(PathBuf, Pixmap),
    /// Write these PNG bytes to the path.
    Png(PathBuf, Vec<u8>),
}

struct Background {
    jobs: SyncSender<Job>,
    /// Canvases the writer is done with, for reuse.
    spare: Receiver<Pixmap>,
    handle: JoinHandle<Result<usize, String>>,
}

/// Where a run's frames go.
pub struct FrameSink {
    dir: PathBuf,
    canvas: Pixmap,
    /// The PNG row filter canvases are encoded with (the game's).
    filter: RowFilter,
    background: Option<Background>,
    written: usize,
    /// The writer's error, once it stopped on one.
    failed: Option<String>,
}

/// The file name of frame `step` inside `frames/`.
pub fn step_file(step: u32) -> String {
    format!("step_{step:06}.png")
}

/// Write `bytes` to `path` through a temporary file in the same folder and a
/// rename: readers (and a crash) see either no file or the whole file.
/// Unlike `write_atomic` it does not fsync: frames are many and cheap to
/// regenerate; `result.json`, written last with fsync, is what marks a run
/// as done.
pub fn write_replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("frame");
    let tmp = path.with_file_name(format!(".{name}.tmp.{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn write_job(job: &Job, filter: RowFilter) -> Result<(), String> {
    let (path, bytes) = match job {
        Job::Canvas(path, canvas) => (path, encode_frame(canvas, filter)),
        Job::Png(path, bytes) => (path, bytes.clone()),
    };
    write_replace(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

impl FrameSink {
    /// A sink writing under `run_dir/frames/` with a `width × height`
    /// canvas whose frames are encoded with `filter` (the game's
    /// `frame_filter`); `background` starts the writer thread.
    pub fn new(
        run_dir: &Path,
        width: u32,
        height: u32,
        filter: RowFilter,
        background: bool,
    ) -> Result<Self, String> {
        let dir = run_dir.join("frames");
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let canvas = Pixmap::new(width, height).ok_or("viewport too large")?;
        let background = background.then(|| {
            let (jobs, rx) = sync_channel::<Job>(QUEUE_FRAMES);
            let (give_back, spare) = sync_channel::<Pixmap>(QUEUE_FRAMES + 2);
            let handle = std::thread::Builder::new()
                .name("frame-writer".into())
                .spawn(move || {
                    let mut written = 0;
                    for job in rx {
                        write_job(&job, filter)?;
                        written += 1;
                        if let Job::Canvas(_, canvas) = job {
                            // A full return queue just means enough spares.
                            let _ = give_back.try_send(canvas);
                        }
                    }
                    Ok(written)
                })
                .expect("spawn the frame writer");
            Background {
                jobs,
                spare,
                handle,
            }
        });
        Ok(FrameSink {
            dir,
            canvas,
            filter,
            background,
            written: 0,
            failed: None,
        })
    }

    /// Whether frames are encoded and written on the writer thread.
    pub fn is_background(&self) -> bool {
        self.background.is_some()
    }

    /// The pixmap to render the next frame into. After
    /// [`submit_canvas`](Self::submit_canvas) it may be a recycled one with an
    /// older frame on it: `Game::render` paints every pixel.
    pub fn canvas(&mut self) -> &mut Pixmap {
        &mut self.canvas
    }

    fn send(&mut self, job: Job) -> Result<(), String> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let bg = self.background.as_ref().expect("background sink");
        if bg.jobs.send(job).is_err() {
            // The writer stopped on an error; `finish` reports it.
            return self.join_error();
        }
        Ok(())
    }

    fn join_error(&mut self) -> Result<(), String> {
        let bg = self.background.take().expect("background sink");
        drop(bg.jobs);
        let err = match bg.handle.join() {
            Ok(Ok(_)) => "the frame writer stopped".to_string(),
            Ok(Err(e)) => e,
            Err(_) => "the frame writer panicked".to_string(),
        };
        self.failed = Some(err.clone());
        Err(err)
    }

    /// Write the canvas under `file`, a name inside `frames/` (`step_file`,
    /// or the `step_NNNNNN_reset.png` of a restarted episode), encoding it on
    /// the writer thread when there is one.
    pub fn submit_canvas(&mut self, file: &str) -> Result<(), String> {
        let path = self.dir.join(file);
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let Some(bg) = &self.background else {
            write_replace(&path, &encode_frame(&self.canvas, self.filter))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            self.written += 1;
            return Ok(());
        };
        let next = match bg.spare.try_recv() {
            Ok(p) => p,
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => {
                Pixmap::new(self.canvas.width(), self.canvas.height()).expect("same size as before")
            }
        };
        let canvas = std::mem::replace(&mut self.canvas, next);
        self.send(Job::Canvas(path, canvas))
    }

    /// Write already encoded PNG bytes under `file` (a name inside `frames/`).
    pub fn submit_png(&mut self, file: &str, png: &[u8]) -> Result<(), String> {
        let path = self.dir.join(file);
        if self.background.is_none() && self.failed.is_none() {
            write_replace(&path, png)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            self.written += 1;
            return Ok(());
        }
        self.send(Job::Png(path, png.to_vec()))
    }

    /// Wait until every submitted frame is on disk; the number written, or
    /// the first error.
    pub fn finish(mut self) -> Result<usize, String> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let Some(bg) = self.background.take() else {
            return Ok(self.written);
        };
        drop(bg.jobs);
        match bg.handle.join() {
            Ok(r) => r,
            Err(_) => Err("the frame writer panicked".into()),
        }
    }
}

impl Drop for FrameSink {
    /// A run that stops early still waits for the frames it handed over, so
    /// no writer outlives its run.
    fn drop(&mut self) {
        if let Some(bg) = self.background.take() {
            drop(bg.jobs);
            let _ = bg.handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paint(pm: &mut Pixmap, step: u32) {
        let v = (step * 37 % 256) as u8;
        pm.fill(tiny_skia::Color::from_rgba8(
            v,
            255 - v,
            (step % 7) as u8 * 30,
            255,
        ));
    }

    fn decode(path: &Path) -> Vec<u8> {
        let f = std::fs::File::open(path).unwrap();
        let mut r = png::Decoder::new(std::io::BufReader::new(f))
            .read_info()
            .unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    }

    #[test]
    fn background_sink_writes_every_frame_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = FrameSink::new(dir.path(), 40, 30, RowFilter::Up, true).unwrap();
        assert!(sink.is_background());
        let n = 3 * QUEUE_FRAMES as u32 + 5;
        for step in 0..n {
            paint(sink.canvas(), step);
            if step % 5 == 4 {
                let png = encode_frame(sink.canvas(), RowFilter::Up);
                sink.submit_png(&step_file(step), &png).unwrap();
            } else {
                sink.submit_canvas(&step_file(step)).unwrap();
            }
        }
        assert_eq!(sink.finish().unwrap(), n as usize);
        let mut names: Vec<String> = std::fs::read_dir(dir.path().join("frames"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        let expected: Vec<String> = (0..n).map(|s| format!("step_{s:06}.png")).collect();
        assert_eq!(names, expected, "every frame, no temporary files left");
        for step in 0..n {
            let mut want = Pixmap::new(40, 30).unwrap();
            paint(&mut want, step);
            let got = decode(&dir.path().join(format!("frames/step_{step:06}.png")));
            assert!(
                got == gw_core::frame::pixmap_rgb(&want),
                "frame {step} has another frame's pixels"
            );
        }
    }

    #[test]
    fn foreground_and_background_write_the_same_bytes() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for (dir, bg) in [(&a, false), (&b, true)] {
            let mut sink = FrameSink::new(dir.path(), 16, 16, RowFilter::Up, bg).unwrap();
            for step in 0..6 {
                paint(sink.canvas(), step);
                sink.submit_canvas(&step_file(step)).unwrap();
            }
            assert_eq!(sink.finish().unwrap(), 6);
        }
        for step in 0..6 {
            let name = format!("frames/step_{step:06}.png");
            assert_eq!(
                std::fs::read(a.path().join(&name)).unwrap(),
                std::fs::read(b.path().join(&name)).unwrap()
            );
        }
    }

    #[test]
    fn a_write_error_surfaces_and_leaves_no_partial_frame() {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = FrameSink::new(dir.path(), 32, 32, RowFilter::Up, true).unwrap();
        for step in 0..3 {
            paint(sink.canvas(), step);
            sink.submit_canvas(&step_file(step)).unwrap();
        }
        // Pull the folder away under the writer: later frames cannot land.
        let frames = dir.path().join("frames");
        let moved = dir.path().join("moved");
        let mut err = None;
        for step in 3..200 {
            if step == 3 {
                // Let the first frames land, then break the folder.
                let landed = || {
                    std::fs::read_dir(&frames)
                        .unwrap()
                        .filter(|e| {
                            let name = e.as_ref().unwrap().file_name();
                            let name = name.to_string_lossy();
                            name.starts_with("step_") && name.ends_with(".png")
                        })
                        .count()
                };
                while landed() < 3 {
                    std::thread::yield_now();
                }
                std::fs::rename(&frames, &moved).unwrap();
                std::fs::write(&frames, b"not a folder").unwrap();
            }
            paint(sink.canvas(), step);
            if let Err(e) = sink.submit_canvas(&step_file(step)) {
                err = Some(e);
                break;
            }
        }
        let err = err.or_else(|| sink.finish().err());
        let err = err.expect("the write error reaches the run loop");
        assert!(err.contains("cannot write"), "{err}");
        assert!(err.contains("step_000003.png"), "{err}");
        for entry in std::fs::read_dir(&moved).unwrap() {
            let path = entry.unwrap().path();
            assert_eq!(path.extension().unwrap(), "png", "{}", path.display());
            assert_eq!(decode(&path).len(), 32 * 32 * 3);
        }
    }
}
