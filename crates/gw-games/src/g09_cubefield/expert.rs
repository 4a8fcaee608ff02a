//! Scripted Cubefield expert: a dynamic programme over the next
//! [`DEPTH`] decisions of 0.2 s (wait, steer left, steer right), flying the
//! ship forward with the game's own kinematics against the cubes that are
//! already laid out. It never draws from the game's random stream; the
//! horizon (2.8 s, 56 to 100 units) reaches the edge of the part of the field
//! that already exists ([`super::SPAWN_AHEAD`] units ahead); past that edge
//! the field counts as open.
//!
//! Every decision lasts exactly 0.2 s, so after `k` decisions the ship is at
//! the same depth whatever it did, and sideways at the start position plus a
//! whole number of slides. The plans therefore fold into a small lattice of
//! (decision, slide count) nodes, which makes the search exact and cheap.
//! A plan is valued by how long the ship survives, then by the room it keeps
//! from the cubes it slips past, then by how open the field is at the end;
//! ties prefer waiting. The first decision also counts how many horizon
//! positions stay reachable without a crash after it ([`SPREAD_WEIGHT`]):
//! keeping a wide fan of escapes open is what saves the ship when the rows
//! laid out next close the lane it aimed for (with the survival term alone
//! the ship got trapped in about a third of held-out flights at level 5).

use super::{CUBE_HALF, Cubefield, DT, SHIP_HALF_L, SHIP_HALF_W, SIDE_SPEED, TICK_MS, speed_at};

/// Decisions looked ahead.
const DEPTH: usize = 14;
/// Ticks per decision (one 0.2 s step).
const STEP_TICKS: u64 = 200 / TICK_MS;
/// Free run ahead counted at most, units.
const FREE_CAP: f64 = 40.0;
/// Lateral room counted at most when passing a cube, units.
const ROOM_CAP: f64 = 1.2;
/// Weight of the room kept per decision.
const ROOM_WEIGHT: f64 = 4.0;
/// Weight, for the first decision, of each horizon position its plans can
/// still reach without a crash.
const SPREAD_WEIGHT: f64 = 20.0;

struct Ctx {
    /// Nearby cubes (x, z), sorted by z.
    cubes: Vec<(f64, f64)>,
    x0: f64,
    /// Depth and flight time (ms) at the start of each decision.
    z: Vec<f64>,
    t: Vec<u64>,
}

impl Ctx {
    /// Cubes whose z range meets [z0, z1].
    fn band(&self, z0: f64, z1: f64) -> &[(f64, f64)] {
        let reach = CUBE_HALF + SHIP_HALF_L;
        let lo = self.cubes.partition_point(|c| c.1 < z0 - reach);
        let hi = self.cubes.partition_point(|c| c.1 <= z1 + reach);
        &self.cubes[lo..hi.max(lo)]
    }

    fn x_at(&self, slides: i32) -> f64 {
        self.x0 + slides as f64 * SIDE_SPEED * 0.2
    }

    /// Fly decision `k` from `slides` with `steer`: the smallest lateral room
    /// kept, or the tick of the crash.
    fn fly(&self, k: usize, slides: i32, steer: f64) -> Result<f64, u64> {
        let (mut x, mut z, mut t) = (self.x_at(slides), self.z[k], self.t[k]);
        let band = self.band(self.z[k], self.z[k + 1]);
        let mut room = ROOM_CAP;
        let reach_x = CUBE_HALF + SHIP_HALF_W;
        let reach_z = CUBE_HALF + SHIP_HALF_L;
        for tick in 0..STEP_TICKS {
            let v = speed_at(t as f64 / 1000.0);
            t += TICK_MS;
            x += steer * SIDE_SPEED * DT;
            z += v * DT;
            for &(cx, cz) in band {
                if (z - cz).abs() < reach_z {
                    let gap = (x - cx).abs() - reach_x;
                    if gap < 0.0 {
                        return Err(tick);
                    }
                    room = room.min(gap);
                }
            }
        }
        Ok(room)
    }

    /// Free run ahead of (x, z) in its lane (capped).
    fn free_ahead(&self, x: f64, z: f64) -> f64 {
        let reach_x = CUBE_HALF + SHIP_HALF_W + 0.15;
        self.band(z, z + FREE_CAP)
            .iter()
            .filter(|c| c.1 > z && (c.0 - x).abs() < reach_x)
            .map(|c| c.1 - z)
            .fold(FREE_CAP, f64::min)
    }

    /// How open the field is ahead: the free run in the ship's own lane plus
    /// half the best free run of a nearby lane less the slide there.
    fn openness(&self, x: f64, z: f64) -> f64 {
        let mut side = 0.0f64;
        for i in 1..=12 {
            for sign in [-1.0, 1.0] {
                let d = sign * 0.5 * i as f64;
                side = side.max(self.free_ahead(x + d, z) - 2.0 * d.abs());
            }
        }
        self.free_ahead(x, z) + 0.5 * side
    }
}

const STEERS: [(&str, f64, i32); 3] = [
    ("wait", 0.0, 0),
    ("move_left", -1.0, -1),
    ("move_right", 1.0, 1),
];

/// The semantic action to take now and the value of the best plan.
pub fn plan(g: &Cubefield) -> (&'static str, f64) {
    let (x0, z0) = g.ship();
    let reach = DEPTH as f64 * 0.2 * SIDE_SPEED + 8.0;
    let mut cubes: Vec<(f64, f64)> = g
        .cubes()
        .iter()
        .filter(|c| c.z > z0 - 2.0 && (c.x - x0).abs() < reach)
        .map(|c| (c.x, c.z))
        .collect();
    cubes.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (mut z, mut t) = (vec![z0], vec![g.flight_ms()]);
    for k in 0..DEPTH {
        let (mut zk, mut tk) = (z[k], t[k]);
        for _ in 0..STEP_TICKS {
            zk += speed_at(tk as f64 / 1000.0) * DT;
            tk += TICK_MS;
        }
        z.push(zk);
        t.push(tk);
    }
    let ctx = Ctx { cubes, x0, z, t };
    // value[j] for slides j - DEPTH at the current decision, backwards.
    let width = 2 * DEPTH + 1;
    let mut next: Vec<f64> = (0..width)
        .map(|j| {
            let slides = j as i32 - DEPTH as i32;
            1.0e6 * (DEPTH as u64 * STEP_TICKS) as f64
                + ctx.openness(ctx.x_at(slides), ctx.z[DEPTH])
        })
        .collect();
    // Bit set of the horizon nodes each node reaches without a crash.
    let mut next_mask: Vec<u64> = (0..width).map(|j| 1u64 << j).collect();
    let mut first = ("wait", f64::NEG_INFINITY);
    for k in (0..DEPTH).rev() {
        let mut cur = vec![f64::NEG_INFINITY; width];
        let mut cur_mask = vec![0u64; width];
        let span = k as i32;
        for slides in -span..=span {
            let j = (slides + DEPTH as i32) as usize;
            let mut best = f64::NEG_INFINITY;
            for (action, steer, dj) in STEERS {
                let to = (j as i32 + dj) as usize;
                let v = match ctx.fly(k, slides, steer) {
                    Ok(room) => {
                        cur_mask[j] |= next_mask[to];
                        let spread = if k == 0 {
                            SPREAD_WEIGHT * next_mask[to].count_ones() as f64
                        } else {
                            0.0
                        };
                        next[to] + ROOM_WEIGHT * room + spread
                    }
                    Err(tick) => 1.0e6 * (k as u64 * STEP_TICKS + tick) as f64,
                };
                if v > best {
                    best = v;
                    if k == 0 {
                        first = (action, v);
                    }
                }
            }
            cur[j] = best;
        }
        next = cur;
        next_mask = cur_mask;
    }
    first
}

/// The semantic action to take now.
pub fn choose(g: &Cubefield) -> &'static str {
    plan(g).0
}
