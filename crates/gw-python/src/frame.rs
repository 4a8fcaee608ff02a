//! Frames at any size: the game draws at its viewport, the observation is
//! RGB8 at the requested size, each output pixel the mean of the source
//! pixels its box covers (whole pixels; nearest pixel when enlarging).

/// Precomputed source ranges of each output column and row.
pub struct Resampler {
    src: (usize, usize),
    dst: (usize, usize),
    cols: Vec<(usize, usize)>,
    rows: Vec<(usize, usize)>,
}

fn spans(src: usize, dst: usize) -> Vec<(usize, usize)> {
    (0..dst)
        .map(|i| {
            let a = i * src / dst;
            let b = ((i + 1) * src / dst).max(a + 1).min(src);
            (a, b)
        })
        .collect()
}

impl Resampler {
    pub fn new(src: (u32, u32), dst: (u32, u32)) -> Self {
        let src = (src.0 as usize, src.1 as usize);
        let dst = (dst.0 as usize, dst.1 as usize);
        Resampler {
            cols: spans(src.0, dst.0),
            rows: spans(src.1, dst.1),
            src,
            dst,
        }
    }

    /// `rgba` is the viewport's premultiplied RGBA (opaque), `out` receives
    /// `dst.0 * dst.1 * 3` bytes.
    pub fn write(&self, rgba: &[u8], out: &mut [u8]) {
        let (sw, _) = self.src;
        let (dw, _) = self.dst;
        assert_eq!(out.len(), dw * self.dst.1 * 3, "frame buffer size");
        if self.src == self.dst {
            gw_core::frame::rgba_to_rgb(rgba, out);
            return;
        }
        let mut acc = vec![0u32; dw * 3];
        for (oy, &(y0, y1)) in self.rows.iter().enumerate() {
            acc.iter_mut().for_each(|a| *a = 0);
            for y in y0..y1 {
                let row = &rgba[y * sw * 4..(y + 1) * sw * 4];
                for (ox, &(x0, x1)) in self.cols.iter().enumerate() {
                    let (mut r, mut g, mut b) = (0u32, 0u32, 0u32);
                    for px in row[x0 * 4..x1 * 4].chunks_exact(4) {
                        r += px[0] as u32;
                        g += px[1] as u32;
                        b += px[2] as u32;
                    }
                    let a = &mut acc[ox * 3..ox * 3 + 3];
                    a[0] += r;
                    a[1] += g;
                    a[2] += b;
                }
            }
            let line = &mut out[oy * dw * 3..(oy + 1) * dw * 3];
            for (ox, &(x0, x1)) in self.cols.iter().enumerate() {
                let n = ((x1 - x0) * (y1 - y0)) as u32;
                for c in 0..3 {
                    line[ox * 3 + c] = ((acc[ox * 3 + c] + n / 2) / n) as u8;
                }
            }
        }
    }
}
