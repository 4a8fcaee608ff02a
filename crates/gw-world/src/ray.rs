//! Ray helpers shared by block targeting (`world`) and the renderer: a voxel
//! walk (Amanatides–Woo DDA) and a ray-against-box (slab) test.

/// `x.floor() as i32` for |x| < 2³¹, without a libm call.
#[inline]
pub(crate) fn floor_i32(x: f64) -> i32 {
    let i = x as i32;
    if (i as f64) > x { i - 1 } else { i }
}

/// Steps a ray through the unit cells of the voxel grid in the order it
/// enters them.
pub struct VoxelWalk {
    /// The cell the ray is in now.
    pub cell: [i32; 3],
    /// Direction of travel per axis (−1, 0 or 1).
    pub step: [i32; 3],
    tmax: [f64; 3],
    tdelta: [f64; 3],
}

impl VoxelWalk {
    /// Starts in the cell holding `o`; `d` is the (unit) direction.
    pub fn new(o: [f64; 3], d: [f64; 3]) -> Self {
        Self::at(o.map(floor_i32), o, d)
    }

    /// [`new`](Self::new) with the cell holding `o` already known (many
    /// rays from one eye share it).
    #[inline]
    pub fn at(cell: [i32; 3], o: [f64; 3], d: [f64; 3]) -> Self {
        let mut step = [0i32; 3];
        let mut tmax = [f64::INFINITY; 3];
        let mut tdelta = [f64::INFINITY; 3];
        for k in 0..3 {
            if d[k] > 1e-12 {
                step[k] = 1;
                tdelta[k] = 1.0 / d[k];
                tmax[k] = (cell[k] as f64 + 1.0 - o[k]) * tdelta[k];
            } else if d[k] < -1e-12 {
                step[k] = -1;
                tdelta[k] = -1.0 / d[k];
                tmax[k] = (o[k] - cell[k] as f64) * tdelta[k];
            }
        }
        VoxelWalk {
            cell,
            step,
            tmax,
            tdelta,
        }
    }

    /// Moves into the next cell: the axis crossed and the ray distance at
    /// the crossing.
    pub fn advance(&mut self) -> (usize, f64) {
        let m = &self.tmax;
        let k = if m[0] < m[1] {
            if m[0] < m[2] { 0 } else { 2 }
        } else if m[1] < m[2] {
            1
        } else {
            2
        };
        let t = self.tmax[k];
        self.cell[k] += self.step[k];
        self.tmax[k] += self.tdelta[k];
        (k, t)
    }
}

impl VoxelWalk {
    /// The ray distance at which the walk enters cell `target` along axis
    /// `k`, as [`advance`](Self::advance) would reach it; infinite when the
    /// ray does not head there.
    pub fn time_to(&self, k: usize, target: i32) -> f64 {
        let n = (target - self.cell[k]) * self.step[k];
        if self.step[k] == 0 || n <= 0 {
            return f64::INFINITY;
        }
        self.tmax[k] + (n - 1) as f64 * self.tdelta[k]
    }

    /// Moves past every cell boundary the ray crosses before distance `t`
    /// (the cells in between are known to be empty), as repeated
    /// [`advance`](Self::advance) calls would up to rounding: the axis and
    /// distance of the last crossing passed, `None` when there is none.
    pub fn skip_to(&mut self, t: f64) -> Option<(usize, f64)> {
        let mut last: Option<(usize, f64)> = None;
        for k in 0..3 {
            if self.tmax[k] < t {
                // Positive, so truncation is the floor (no libm call); a
                // ray within the view distance crosses far fewer than 2³¹
                // boundaries.
                let m = ((t - self.tmax[k]) / self.tdelta[k]) as i32;
                let at = self.tmax[k] + m as f64 * self.tdelta[k];
                self.cell[k] += self.step[k] * (m + 1);
                self.tmax[k] = at + self.tdelta[k];
                if last.is_none_or(|(_, lt)| at > lt) {
                    last = Some((k, at));
                }
            }
        }
        last
    }

    /// Jumps out of the box of cells `lo..=hi` (which holds the current
    /// cell and is known to be empty) into the first cell outside it, as
    /// repeated [`advance`](Self::advance) calls would up to rounding: the
    /// axis crossed last and the ray distance at that crossing. `None` when
    /// the ray never leaves the box.
    #[inline(never)]
    pub fn leave_box(&mut self, lo: [i32; 3], hi: [i32; 3]) -> Option<(usize, f64)> {
        // Per axis, the distance at which the ray crosses the box's far
        // side (infinite for an axis it does not move along).
        let exit = |k: usize| {
            let s = self.step[k];
            let n = if s > 0 {
                hi[k] - self.cell[k] + 1
            } else {
                self.cell[k] - lo[k] + 1
            };
            if s == 0 {
                (f64::INFINITY, n)
            } else {
                (self.tmax[k] + (n - 1) as f64 * self.tdelta[k], n)
            }
        };
        let (e0, e1, e2) = (exit(0), exit(1), exit(2));
        // The first axis with the least distance (a moving axis' is
        // finite, so it always beats a still one's infinity).
        let (mut axis, (mut t, mut n_axis)) = (0, e0);
        if e1.0 < t {
            (axis, t, n_axis) = (1, e1.0, e1.1);
        }
        if e2.0 < t {
            (axis, t, n_axis) = (2, e2.0, e2.1);
        }
        if t == f64::INFINITY {
            return None;
        }
        for k in 0..3 {
            if k == axis {
                self.cell[k] += self.step[k] * n_axis;
                self.tmax[k] = t + self.tdelta[k];
            } else if self.tmax[k] < t {
                // Boundaries of the other axes crossed before the exit.
                // Positive, so truncation is the floor (no libm call);
                // the count is a small integer, exact as an f64.
                let m = ((t - self.tmax[k]) / self.tdelta[k]) as i64 + 1;
                self.cell[k] += self.step[k] * m as i32;
                self.tmax[k] += m as f64 * self.tdelta[k];
            }
        }
        Some((axis, t))
    }
}

/// Ray against the axis-aligned box `lo..hi`: the entry distance (0 when the
/// origin is inside) and the axis of the face entered.
pub fn ray_aabb(o: [f64; 3], d: [f64; 3], lo: [f64; 3], hi: [f64; 3]) -> Option<(f64, usize)> {
    let (mut t0, mut t1, mut ax) = (0.0f64, f64::INFINITY, 0usize);
    for k in 0..3 {
        if d[k].abs() < 1e-12 {
            if o[k] < lo[k] || o[k] > hi[k] {
                return None;
            }
            continue;
        }
        let (a, c) = ((lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]);
        let (a, c) = if a < c { (a, c) } else { (c, a) };
        if a > t0 {
            t0 = a;
            ax = k;
        }
        t1 = t1.min(c);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, ax))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit directions spread over the sphere, none axis-aligned.
    fn dirs() -> Vec<[f64; 3]> {
        let mut v = Vec::new();
        for i in 0..40 {
            let a = i as f64 * 0.61 + 0.05;
            let b = (i as f64 * 0.37).sin() * 1.4;
            let d = [a.cos() * b.cos(), b.sin(), a.sin() * b.cos()];
            let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            v.push([d[0] / n, d[1] / n, d[2] / n]);
        }
        v
    }

    /// Jumps out of box `lo..=hi` from `o` along `d` and steps out of it
    /// cell by cell: both land in the same cell, crossing the same axis at
    /// the same distance, and go on in step for `then` more cells. The
    /// axis the jump left by.
    fn jump_matches_steps(
        o: [f64; 3],
        d: [f64; 3],
        lo: [i32; 3],
        hi: [i32; 3],
        then: usize,
    ) -> usize {
        let mut jump = VoxelWalk::new(o, d);
        let Some((axis, t)) = jump.leave_box(lo, hi) else {
            panic!("every moving ray leaves a bounded box: {d:?}");
        };
        let mut walk = VoxelWalk::new(o, d);
        let inside = |c: [i32; 3]| (0..3).all(|k| (lo[k]..=hi[k]).contains(&c[k]));
        let mut last = (0, 0.0);
        while inside(walk.cell) {
            last = walk.advance();
        }
        assert_eq!(jump.cell, walk.cell, "{d:?}");
        assert_eq!(axis, last.0, "{d:?}");
        assert!((t - last.1).abs() < 1e-9, "{d:?}: {t} vs {}", last.1);
        for _ in 0..then {
            assert_eq!(jump.advance().0, walk.advance().0);
            assert_eq!(jump.cell, walk.cell);
        }
        axis
    }

    #[test]
    fn leave_box_lands_where_stepping_does() {
        let o = [3.3, 64.7, -5.2];
        let (lo, hi) = ([0, 64, -8], [3, 200, -5]);
        for d in dirs() {
            jump_matches_steps(o, d, lo, hi, 20);
        }
    }

    /// Rays along an axis or in an axis plane (some axes never move): the
    /// jump still leaves by a moving axis and lands where stepping does.
    #[test]
    fn leave_box_with_still_axes_lands_where_stepping_does() {
        let o = [3.3, 64.7, -5.2];
        let (lo, hi) = ([0, 64, -8], [3, 70, -5]);
        let s = 0.6f64;
        let c = (1.0 - s * s).sqrt();
        let dirs = [
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, -1.0],
            [s, 0.0, c],
            [-c, s, 0.0],
            [0.0, -s, -c],
        ];
        for d in dirs {
            let axis = jump_matches_steps(o, d, lo, hi, 10);
            assert_ne!(d[axis], 0.0, "{d:?} left by a still axis");
        }
    }

    #[test]
    fn skip_to_lands_where_stepping_does() {
        let o = [-7.6, 70.3, 12.45];
        for d in dirs() {
            for target in [0.3, 2.0, 7.77, 19.5] {
                let mut jump = VoxelWalk::new(o, d);
                let got = jump.skip_to(target);
                let mut walk = VoxelWalk::new(o, d);
                let mut last = None;
                while walk.tmax.iter().cloned().fold(f64::INFINITY, f64::min) < target {
                    last = Some(walk.advance());
                }
                assert_eq!(jump.cell, walk.cell, "{d:?} to {target}");
                match (got, last) {
                    (Some((ga, gt)), Some((wa, wt))) => {
                        assert_eq!(ga, wa, "{d:?} to {target}");
                        assert!((gt - wt).abs() < 1e-9, "{d:?}: {gt} vs {wt}");
                    }
                    (None, None) => {}
                    other => panic!("{d:?} to {target}: {other:?}"),
                }
                for _ in 0..20 {
                    assert_eq!(jump.advance().0, walk.advance().0);
                    assert_eq!(jump.cell, walk.cell);
                }
            }
        }
    }

    #[test]
    fn time_to_matches_the_crossing() {
        let o = [0.5, 10.25, 0.5];
        for d in dirs() {
            let walk = VoxelWalk::new(o, d);
            let t = walk.time_to(1, 14);
            if d[1] <= 0.0 {
                assert!(t.is_infinite());
                continue;
            }
            let mut w = VoxelWalk::new(o, d);
            let mut cross = 0.0;
            while w.cell[1] < 14 {
                cross = w.advance().1;
            }
            assert!((t - cross).abs() < 1e-9, "{d:?}");
        }
    }
}
