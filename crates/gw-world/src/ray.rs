//! Ray helpers shared by block targeting (`world`) and the renderer: a voxel
//! walk (Amanatides–Woo DDA) and a ray-against-box (slab) test.

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
        let cell = [
            libm::floor(o[0]) as i32,
            libm::floor(o[1]) as i32,
            libm::floor(o[2]) as i32,
        ];
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
