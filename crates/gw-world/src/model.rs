//! Mob models: per kind a set of boxes (head, body, legs, and the parts
//! that tell kinds apart: horns, snout, beak, ears, tail, arms, a bow),
//! each with a pivot, a fixed tilt and a walk swing, and small procedural
//! skins. [`posed`] places a mob's boxes in the world for one tick: the
//! legs swing with the mob's walking speed, in a phase fixed by the tick
//! and the mob's id, so a frame depends only on the world state.
//!
//! Model space is in pixels (1/16 block): x to the mob's right, y up, z
//! forward, the origin at the feet's centre.

use crate::noise::unit;
use crate::world::{Mob, MobKind};
use std::sync::OnceLock;

/// How a part's faces are coloured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Skin {
    /// The base colour, lightly speckled.
    Plain,
    /// Patches of a second colour.
    Spots([u8; 3]),
    /// Fleece: strong speckle.
    Wool,
    /// Creeper mottle: dark and light greens.
    Mottle,
    /// Skeleton ribs: dark bands and a spine.
    Ribs,
    /// A head: the face on the front (eyes and the kind's features).
    Face,
}

/// One box of a model.
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The joint the box turns about (model space, pixels).
    pub pivot: [f64; 3],
    /// The box's lowest corner relative to the pivot, before turning.
    pub from: [f64; 3],
    pub size: [f64; 3],
    /// A fixed turn about the forward axis (degrees; spider legs).
    pub roll: f64,
    /// How the walk swing turns it about the right axis: 0 not, ±1 with
    /// or against the swing (legs in diagonal pairs).
    pub swing: f64,
    pub color: [u8; 3],
    pub skin: Skin,
}

const fn part(pivot: [f64; 3], from: [f64; 3], size: [f64; 3], color: [u8; 3], skin: Skin) -> Part {
    Part {
        pivot,
        from,
        size,
        roll: 0.0,
        swing: 0.0,
        color,
        skin,
    }
}

/// A box hanging from the origin: `from`/`size` in model space.
const fn block(from: [f64; 3], size: [f64; 3], color: [u8; 3], skin: Skin) -> Part {
    part([0.0; 3], from, size, color, skin)
}

/// A leg of `size` hanging from the hip at `hip`, swinging with `swing`.
fn leg(hip: [f64; 3], size: [f64; 3], swing: f64, color: [u8; 3]) -> Part {
    Part {
        swing,
        ..part(
            hip,
            [-size[0] / 2.0, -size[1], -size[2] / 2.0],
            size,
            color,
            Skin::Plain,
        )
    }
}

/// Four legs at (±`x`, `hip`, ±`z`), diagonal pairs swinging together.
fn four_legs(x: f64, hip: f64, z: f64, size: [f64; 3], color: [u8; 3]) -> Vec<Part> {
    vec![
        leg([x, hip, z], size, 1.0, color),
        leg([-x, hip, z], size, -1.0, color),
        leg([x, hip, -z], size, -1.0, color),
        leg([-x, hip, -z], size, 1.0, color),
    ]
}

fn build(kind: MobKind) -> Vec<Part> {
    let mut p = Vec::new();
    match kind {
        MobKind::Cow => {
            let hide = [86, 58, 40];
            p.push(block(
                [-6.0, 10.0, -9.0],
                [12.0, 10.0, 18.0],
                hide,
                Skin::Spots([232, 232, 232]),
            ));
            p.push(block([-4.0, 13.0, 9.0], [8.0, 8.0, 6.0], hide, Skin::Face));
            p.push(block(
                [-5.0, 20.0, 11.0],
                [1.0, 3.0, 1.0],
                [220, 214, 196],
                Skin::Plain,
            ));
            p.push(block(
                [4.0, 20.0, 11.0],
                [1.0, 3.0, 1.0],
                [220, 214, 196],
                Skin::Plain,
            ));
            p.extend(four_legs(3.5, 10.0, 6.5, [4.0, 10.0, 4.0], hide));
        }
        MobKind::Pig => {
            let pink = [238, 158, 158];
            p.push(block(
                [-5.0, 6.0, -8.0],
                [10.0, 8.0, 16.0],
                pink,
                Skin::Plain,
            ));
            p.push(block([-4.0, 7.0, 8.0], [8.0, 8.0, 7.0], pink, Skin::Face));
            p.push(block(
                [-2.0, 8.0, 15.0],
                [4.0, 3.0, 1.0],
                [214, 112, 124],
                Skin::Plain,
            ));
            p.extend(four_legs(3.0, 6.0, 5.0, [4.0, 6.0, 4.0], pink));
        }
        MobKind::Sheep => {
            let face = [214, 186, 156];
            p.push(block(
                [-5.0, 10.0, -8.0],
                [10.0, 9.0, 16.0],
                [236, 236, 236],
                Skin::Wool,
            ));
            p.push(block([-3.0, 13.0, 7.0], [6.0, 6.0, 7.0], face, Skin::Face));
            p.extend(four_legs(3.0, 10.0, 5.5, [3.0, 10.0, 3.0], face));
        }
        MobKind::Chicken => {
            let white = [246, 246, 246];
            p.push(block(
                [-3.0, 4.0, -4.0],
                [6.0, 6.0, 8.0],
                white,
                Skin::Plain,
            ));
            p.push(block([-2.0, 8.0, 3.0], [4.0, 5.0, 3.0], white, Skin::Face));
            p.push(block(
                [-2.0, 10.0, 6.0],
                [4.0, 2.0, 2.0],
                [240, 170, 40],
                Skin::Plain,
            ));
            p.push(block(
                [-1.0, 8.0, 6.0],
                [2.0, 2.0, 1.0],
                [210, 30, 30],
                Skin::Plain,
            ));
            p.push(block(
                [-4.0, 5.0, -3.0],
                [1.0, 4.0, 6.0],
                [226, 226, 226],
                Skin::Plain,
            ));
            p.push(block(
                [3.0, 5.0, -3.0],
                [1.0, 4.0, 6.0],
                [226, 226, 226],
                Skin::Plain,
            ));
            p.push(leg([1.5, 4.0, 0.0], [1.0, 4.0, 1.0], 1.0, [232, 170, 40]));
            p.push(leg([-1.5, 4.0, 0.0], [1.0, 4.0, 1.0], -1.0, [232, 170, 40]));
        }
        MobKind::Horse => {
            let coat = [142, 92, 52];
            let mane = [60, 38, 22];
            p.push(block(
                [-5.0, 11.0, -10.0],
                [10.0, 10.0, 22.0],
                coat,
                Skin::Plain,
            ));
            p.push(block(
                [-2.0, 17.0, 8.0],
                [4.0, 10.0, 6.0],
                coat,
                Skin::Plain,
            ));
            p.push(block(
                [-1.0, 18.0, 7.0],
                [2.0, 10.0, 1.0],
                mane,
                Skin::Plain,
            ));
            p.push(block([-2.5, 24.0, 9.0], [5.0, 5.0, 10.0], coat, Skin::Face));
            p.push(block(
                [-1.5, 12.0, -12.0],
                [3.0, 8.0, 2.0],
                mane,
                Skin::Plain,
            ));
            p.extend(four_legs(3.0, 11.0, 8.0, [3.5, 11.0, 3.5], coat));
        }
        MobKind::Wolf => {
            let fur = [206, 204, 198];
            p.push(block(
                [-3.0, 6.0, -5.0],
                [6.0, 6.0, 9.0],
                fur,
                Skin::Spots([150, 144, 136]),
            ));
            p.push(block([-4.0, 6.0, 2.0], [8.0, 7.0, 3.0], fur, Skin::Plain));
            p.push(block([-3.0, 8.0, 5.0], [6.0, 6.0, 4.0], fur, Skin::Face));
            p.push(block(
                [-1.5, 8.0, 9.0],
                [3.0, 3.0, 3.0],
                [170, 166, 160],
                Skin::Plain,
            ));
            p.push(block([-3.0, 14.0, 6.0], [2.0, 2.0, 1.0], fur, Skin::Plain));
            p.push(block([1.0, 14.0, 6.0], [2.0, 2.0, 1.0], fur, Skin::Plain));
            p.push(block([-1.0, 7.0, -11.0], [2.0, 2.0, 6.0], fur, Skin::Plain));
            p.extend(four_legs(1.5, 6.0, 3.5, [2.0, 6.0, 2.0], fur));
        }
        MobKind::Rabbit => {
            let fur = [152, 122, 92];
            p.push(block([-2.5, 2.0, -4.0], [5.0, 5.0, 7.0], fur, Skin::Plain));
            p.push(block([-2.0, 5.0, 2.0], [4.0, 4.0, 4.0], fur, Skin::Face));
            p.push(block([-1.5, 9.0, 3.0], [1.0, 5.0, 1.0], fur, Skin::Plain));
            p.push(block([0.5, 9.0, 3.0], [1.0, 5.0, 1.0], fur, Skin::Plain));
            p.push(block(
                [-1.0, 4.0, -5.0],
                [2.0, 2.0, 1.0],
                [240, 240, 240],
                Skin::Plain,
            ));
            p.push(leg([1.5, 2.0, 2.0], [1.0, 2.0, 1.0], 1.0, fur));
            p.push(leg([-1.5, 2.0, 2.0], [1.0, 2.0, 1.0], 1.0, fur));
            p.push(leg([2.0, 2.0, -2.5], [1.5, 2.0, 4.0], -1.0, fur));
            p.push(leg([-2.0, 2.0, -2.5], [1.5, 2.0, 4.0], -1.0, fur));
        }
        MobKind::Zombie => {
            let skin = [84, 140, 82];
            p.push(leg([2.0, 12.0, 0.0], [4.0, 12.0, 4.0], 1.0, [62, 60, 150]));
            p.push(leg(
                [-2.0, 12.0, 0.0],
                [4.0, 12.0, 4.0],
                -1.0,
                [62, 60, 150],
            ));
            p.push(block(
                [-4.0, 12.0, -2.0],
                [8.0, 12.0, 4.0],
                [42, 150, 160],
                Skin::Plain,
            ));
            p.push(block([-4.0, 24.0, -4.0], [8.0, 8.0, 8.0], skin, Skin::Face));
            // Arms held out in front.
            p.push(block(
                [4.0, 20.0, -2.0],
                [4.0, 4.0, 12.0],
                skin,
                Skin::Plain,
            ));
            p.push(block(
                [-8.0, 20.0, -2.0],
                [4.0, 4.0, 12.0],
                skin,
                Skin::Plain,
            ));
        }
        MobKind::Skeleton => {
            let bone = [196, 196, 192];
            p.push(leg([2.0, 12.0, 0.0], [2.0, 12.0, 2.0], 1.0, bone));
            p.push(leg([-2.0, 12.0, 0.0], [2.0, 12.0, 2.0], -1.0, bone));
            p.push(block(
                [-4.0, 12.0, -2.0],
                [8.0, 12.0, 4.0],
                bone,
                Skin::Ribs,
            ));
            p.push(block([-4.0, 24.0, -4.0], [8.0, 8.0, 8.0], bone, Skin::Face));
            p.push(block(
                [4.0, 20.0, -1.0],
                [2.0, 2.0, 10.0],
                bone,
                Skin::Plain,
            ));
            p.push(block(
                [-6.0, 20.0, -1.0],
                [2.0, 2.0, 10.0],
                bone,
                Skin::Plain,
            ));
            // The bow, upright in the right hand.
            p.push(block(
                [4.5, 15.0, 8.0],
                [1.0, 12.0, 1.0],
                [122, 82, 40],
                Skin::Plain,
            ));
        }
        MobKind::Spider => {
            let body = [52, 42, 36];
            p.push(block(
                [-5.0, 3.0, -12.0],
                [10.0, 8.0, 12.0],
                body,
                Skin::Spots([92, 30, 26]),
            ));
            p.push(block([-3.0, 4.0, -1.0], [6.0, 6.0, 5.0], body, Skin::Plain));
            p.push(block([-4.0, 3.0, 3.0], [8.0, 8.0, 8.0], body, Skin::Face));
            for (i, z) in [3.0, 1.0, -1.0, -3.0].into_iter().enumerate() {
                for side in [1.0, -1.0] {
                    let from = if side > 0.0 { 0.0 } else { -14.0 };
                    p.push(Part {
                        roll: side * 38.0,
                        swing: 0.0,
                        ..part(
                            [side * 2.0, 8.0, z],
                            [from, -1.0, -1.0],
                            [14.0, 2.0, 2.0],
                            if i % 2 == 0 { body } else { [66, 54, 46] },
                            Skin::Plain,
                        )
                    });
                }
            }
        }
        MobKind::Creeper => {
            let green = [92, 178, 76];
            p.push(block(
                [-4.0, 6.0, -2.0],
                [8.0, 12.0, 4.0],
                green,
                Skin::Mottle,
            ));
            p.push(block(
                [-4.0, 18.0, -4.0],
                [8.0, 8.0, 8.0],
                green,
                Skin::Face,
            ));
            for l in four_legs(2.0, 6.0, 4.0, [4.0, 6.0, 4.0], green) {
                p.push(Part {
                    skin: Skin::Mottle,
                    ..l
                });
            }
        }
    }
    p
}

/// The parts of `kind`'s model.
pub fn parts(kind: MobKind) -> &'static [Part] {
    static MODELS: OnceLock<Vec<Vec<Part>>> = OnceLock::new();
    let all = MODELS.get_or_init(|| MobKind::ALL.iter().map(|&k| build(k)).collect());
    let i = MobKind::ALL
        .iter()
        .position(|&k| k == kind)
        .expect("every kind is in ALL");
    &all[i]
}

/// One part placed in the world: its lowest corner and its three edge
/// directions (unit, right-handed), with the edge lengths in blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub corner: [f64; 3],
    pub axes: [[f64; 3]; 3],
    pub size: [f64; 3],
}

impl Placed {
    /// The world-space corners (corner `i` takes edge k where bit k of
    /// `i` is set).
    pub fn corners(&self) -> [[f64; 3]; 8] {
        std::array::from_fn(|i| {
            let mut c = self.corner;
            for k in 0..3 {
                if i >> k & 1 == 1 {
                    for (cj, aj) in c.iter_mut().zip(self.axes[k]) {
                        *cj += aj * self.size[k];
                    }
                }
            }
            c
        })
    }

    /// The axis-aligned box around it.
    pub fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        let (mut lo, mut hi) = ([f64::MAX; 3], [f64::MIN; 3]);
        for c in self.corners() {
            for k in 0..3 {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        (lo, hi)
    }

    /// Where the ray `o + t·d` enters the box: distance, the box axis
    /// crossed, which side (false: the corner's), and the entry point in
    /// box coordinates (blocks along each edge). A ray starting inside
    /// enters at distance 0.
    pub fn hit(&self, o: [f64; 3], d: [f64; 3]) -> Option<(f64, usize, bool, [f64; 3])> {
        let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let rel = [
            o[0] - self.corner[0],
            o[1] - self.corner[1],
            o[2] - self.corner[2],
        ];
        let (mut t0, mut t1, mut ax, mut far) = (0.0f64, f64::INFINITY, 0usize, false);
        let (mut lo_, mut dl) = ([0.0; 3], [0.0; 3]);
        for k in 0..3 {
            let (ok, dk) = (dot(rel, self.axes[k]), dot(d, self.axes[k]));
            lo_[k] = ok;
            dl[k] = dk;
            if dk.abs() < 1e-12 {
                if ok < 0.0 || ok > self.size[k] {
                    return None;
                }
                continue;
            }
            let (a, c) = ((0.0 - ok) / dk, (self.size[k] - ok) / dk);
            let (a, c, side) = if a < c { (a, c, false) } else { (c, a, true) };
            if a > t0 {
                t0 = a;
                ax = k;
                far = side;
            }
            t1 = t1.min(c);
            if t0 > t1 {
                return None;
            }
        }
        let p = [
            lo_[0] + dl[0] * t0,
            lo_[1] + dl[1] * t0,
            lo_[2] + dl[2] * t0,
        ];
        Some((t0, ax, far, p))
    }
}

/// The walk swing of `mob` at `tick`, radians: a sine whose amplitude
/// grows with the mob's horizontal speed (none standing still).
pub fn swing(mob: &Mob, tick: u64) -> f64 {
    let v = libm::hypot(mob.body.vel[0], mob.body.vel[2]);
    let amp = (v / 0.06).min(1.0) * 0.7;
    if amp < 1e-3 {
        return 0.0;
    }
    let phase = (tick % 10_000) as f64 * 0.55 + (mob.id % 16) as f64;
    amp * libm::sin(phase)
}

fn rot_x(v: [f64; 3], a: f64) -> [f64; 3] {
    let (s, c) = (libm::sin(a), libm::cos(a));
    [v[0], v[1] * c - v[2] * s, v[1] * s + v[2] * c]
}

fn rot_z(v: [f64; 3], a: f64) -> [f64; 3] {
    let (s, c) = (libm::sin(a), libm::cos(a));
    [v[0] * c - v[1] * s, v[0] * s + v[1] * c, v[2]]
}

/// `mob`'s parts placed in the world at `tick`, in [`parts`]' order.
pub fn posed(mob: &Mob, tick: u64) -> Vec<Placed> {
    let sw = swing(mob, tick);
    let yaw = mob.yaw.to_radians();
    let (sy, cy) = (libm::sin(yaw), libm::cos(yaw));
    // Model x (right), y (up), z (forward) in the world: forward is the
    // way the mob walks, (-sin yaw, 0, cos yaw).
    let to_world = |v: [f64; 3]| [-cy * v[0] - sy * v[2], v[1], -sy * v[0] + cy * v[2]];
    let px = 1.0 / 16.0;
    let feet = mob.body.pos;
    parts(mob.kind)
        .iter()
        .map(|p| {
            let turn = |v: [f64; 3]| rot_x(rot_z(v, p.roll.to_radians()), sw * p.swing);
            let from = turn(p.from);
            let model = [
                (p.pivot[0] + from[0]) * px,
                (p.pivot[1] + from[1]) * px,
                (p.pivot[2] + from[2]) * px,
            ];
            let w = to_world(model);
            // The box's edges along model x, y and z after turning; model
            // x maps to the mob's right, so the frame is mirrored: the
            // edges stay a valid frame for slab tests either way.
            let axes = [
                to_world(turn([1.0, 0.0, 0.0])),
                to_world(turn([0.0, 1.0, 0.0])),
                to_world(turn([0.0, 0.0, 1.0])),
            ];
            Placed {
                corner: [feet[0] + w[0], feet[1] + w[1], feet[2] + w[2]],
                axes,
                size: [p.size[0] * px, p.size[1] * px, p.size[2] * px],
            }
        })
        .collect()
}

/// The colour of a part's skin where the ray met it: face across box axis
/// `axis` (`far`: the side away from the corner) at box coordinates `at`
/// (blocks), on an 8×8 grid per face.
pub fn texel(kind: MobKind, part: &Part, axis: usize, far: bool, at: [f64; 3]) -> [u8; 3] {
    let px = 1.0 / 16.0;
    let (a, b) = match axis {
        0 => (2, 1),
        1 => (0, 2),
        _ => (0, 1),
    };
    let cell = |k: usize| {
        let s = part.size[k] * px;
        ((at[k] / s).clamp(0.0, 0.999) * 8.0) as i32
    };
    let (u, v) = (cell(a), 7 - cell(b));
    let seed = kind as u64 * 131 + axis as u64 * 2 + far as u64;
    let n = unit(seed, u, v, part.size[0] as i32);
    let base = part.color;
    let scale = |c: [u8; 3], f: f32| c.map(|x| (x as f32 * f).clamp(0.0, 255.0) as u8);
    let front = axis == 2 && far;
    match part.skin {
        Skin::Plain => scale(base, 0.92 + 0.16 * n),
        Skin::Spots(other) => {
            let blob = unit(seed ^ 0x55, u / 3, v / 3, 1);
            if blob > 0.62 {
                scale(other, 0.95 + 0.1 * n)
            } else {
                scale(base, 0.92 + 0.16 * n)
            }
        }
        Skin::Wool => scale(base, 0.8 + 0.25 * n),
        Skin::Mottle => {
            if n > 0.7 {
                scale(base, 0.55)
            } else if n < 0.2 {
                scale(base, 1.2)
            } else {
                scale(base, 0.9 + 0.15 * n)
            }
        }
        Skin::Ribs => {
            if (u == 3 || u == 4) || (v % 2 == 1 && v < 6) {
                scale(base, 1.05)
            } else {
                [40, 40, 40]
            }
        }
        Skin::Face if !front => scale(base, 0.92 + 0.16 * n),
        Skin::Face => face(kind, base, u, v),
    }
}

/// The front of a head (8×8; u across, v down).
fn face(kind: MobKind, base: [u8; 3], u: i32, v: i32) -> [u8; 3] {
    const BLACK: [u8; 3] = [20, 20, 20];
    const WHITE: [u8; 3] = [240, 240, 240];
    let eyes = |row: i32| {
        if v == row && (u == 1 || u == 6) {
            Some(WHITE)
        } else if v == row && (u == 2 || u == 5) {
            Some(BLACK)
        } else {
            None
        }
    };
    let c = match kind {
        MobKind::Creeper => {
            let eye = (2..=3).contains(&v) && ((1..=2).contains(&u) || (5..=6).contains(&u));
            let mouth = ((4..=6).contains(&v) && (3..=4).contains(&u))
                || ((5..=7).contains(&v) && (u == 2 || u == 5));
            (eye || mouth).then_some([24, 36, 24])
        }
        MobKind::Skeleton => {
            let socket = (3..=4).contains(&v) && ((1..=2).contains(&u) || (5..=6).contains(&u));
            let nose = v == 5 && (3..=4).contains(&u);
            let teeth = v == 6 && (1..=6).contains(&u) && u % 2 == 1;
            (socket || nose || teeth).then_some([36, 36, 36])
        }
        MobKind::Spider => {
            if (v == 3 && [1, 2, 5, 6].contains(&u)) || (v == 2 && (u == 3 || u == 4)) {
                Some([220, 30, 30])
            } else {
                None
            }
        }
        MobKind::Zombie => {
            if v == 3 && [1, 2, 5, 6].contains(&u) {
                Some([30, 50, 30])
            } else if v == 6 && (2..=5).contains(&u) {
                Some([50, 90, 50])
            } else {
                None
            }
        }
        MobKind::Cow => eyes(2).or(((5..=7).contains(&v) && (2..=5).contains(&u)).then_some(
            if v == 6 && (u == 2 || u == 5) {
                [60, 40, 40]
            } else {
                [206, 172, 150]
            },
        )),
        MobKind::Pig => eyes(3),
        MobKind::Sheep => eyes(3).or((v >= 6 && (3..=4).contains(&u)).then_some([236, 160, 160])),
        MobKind::Chicken => eyes(2),
        MobKind::Horse => eyes(1).or((v >= 6 && (2..=5).contains(&u)).then_some([60, 38, 22])),
        MobKind::Wolf => eyes(3),
        MobKind::Rabbit => eyes(3).or((v == 6 && (3..=4).contains(&u)).then_some([236, 160, 170])),
    };
    c.unwrap_or(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds are told apart by their models: no two kinds have the same
    /// boxes, and every model has a head with a face.
    #[test]
    fn every_kind_has_its_own_model_with_a_face() {
        for (i, &a) in MobKind::ALL.iter().enumerate() {
            let pa = parts(a);
            assert!(pa.len() >= 3, "{} has {} parts", a.name(), pa.len());
            assert!(
                pa.iter().any(|p| p.skin == Skin::Face),
                "{} has no face",
                a.name()
            );
            for &b in &MobKind::ALL[i + 1..] {
                let pb = parts(b);
                let same = pa.len() == pb.len()
                    && pa
                        .iter()
                        .zip(pb)
                        .all(|(x, y)| x.size == y.size && x.from == y.from && x.color == y.color);
                assert!(!same, "{} and {} look alike", a.name(), b.name());
            }
        }
    }

    /// A placed part's slab test agrees with sampling along the ray, and
    /// its bounds hold its corners.
    #[test]
    fn placed_boxes_are_hit_where_the_ray_enters_them() {
        let mut w = crate::world::World::new(crate::world::WorldConfig {
            seed: 2,
            passive_mobs: false,
            hostile_mobs: false,
            ..Default::default()
        });
        let feet = w.player.body.pos;
        let id = w.spawn_mob(MobKind::Spider, [feet[0] + 3.0, feet[1], feet[2]]);
        let m = w.mobs.iter_mut().find(|m| m.id == id).expect("spawned");
        m.yaw = 33.0;
        m.body.vel = [0.05, 0.0, 0.02];
        let placed = posed(m, 17);
        let mut rng = gw_core::Rng::new(5, 1);
        let mut hits = 0;
        for p in &placed {
            let (lo, hi) = p.bounds();
            for c in p.corners() {
                for k in 0..3 {
                    assert!(c[k] >= lo[k] - 1e-12 && c[k] <= hi[k] + 1e-12);
                }
            }
            let centre: [f64; 3] = std::array::from_fn(|k| (lo[k] + hi[k]) / 2.0);
            for _ in 0..200 {
                let o = [
                    centre[0] + rng.range_f64(-3.0, 3.0),
                    centre[1] + rng.range_f64(-3.0, 3.0),
                    centre[2] + rng.range_f64(-3.0, 3.0),
                ];
                let to = [
                    centre[0] + rng.range_f64(-0.3, 0.3) - o[0],
                    centre[1] + rng.range_f64(-0.3, 0.3) - o[1],
                    centre[2] + rng.range_f64(-0.3, 0.3) - o[2],
                ];
                let n = libm::sqrt(to[0] * to[0] + to[1] * to[1] + to[2] * to[2]);
                let d = to.map(|x| x / n);
                let inside = |t: f64| {
                    let q = [
                        o[0] + d[0] * t - p.corner[0],
                        o[1] + d[1] * t - p.corner[1],
                        o[2] + d[2] * t - p.corner[2],
                    ];
                    (0..3).all(|k| {
                        let s = q[0] * p.axes[k][0] + q[1] * p.axes[k][1] + q[2] * p.axes[k][2];
                        s >= -1e-9 && s <= p.size[k] + 1e-9
                    })
                };
                // The first sample inside along the ray.
                let first = (0..20_000).map(|i| i as f64 * 0.0005).find(|&t| inside(t));
                match (p.hit(o, d), first) {
                    (Some((t, ..)), Some(f)) => {
                        assert!(inside(t + 1e-9) || inside(t), "entry point is on the box");
                        assert!(t <= f + 1e-9 && f - t < 0.0006, "entry {t} vs sampled {f}");
                        hits += 1;
                    }
                    (None, Some(f)) => panic!("missed a box the ray enters at {f}"),
                    (Some((t, ..)), None) => assert!(
                        t > 9.99 || !inside(t + 1e-6),
                        "hit at {t} but no sample inside"
                    ),
                    (None, None) => {}
                }
            }
        }
        assert!(hits > 500, "{hits} hits");
    }

    /// Legs swing while walking (deterministically from the tick) and stand
    /// still otherwise.
    #[test]
    fn legs_swing_with_the_walk() {
        let mut w = crate::world::World::new(crate::world::WorldConfig {
            seed: 2,
            passive_mobs: false,
            hostile_mobs: false,
            ..Default::default()
        });
        let feet = w.player.body.pos;
        let id = w.spawn_mob(MobKind::Cow, feet);
        let m = w
            .mobs
            .iter_mut()
            .find(|m| m.id == id)
            .expect("spawned")
            .clone();
        assert_eq!(posed(&m, 3), posed(&m, 40), "standing still: the same pose");
        let mut walking = m.clone();
        walking.body.vel = [0.06, 0.0, 0.0];
        let (a, b) = (posed(&walking, 3), posed(&walking, 6));
        assert_eq!(a, posed(&walking, 3), "deterministic");
        assert_eq!(a[0], b[0], "the body does not swing");
        let leg = parts(MobKind::Cow)
            .iter()
            .position(|p| p.swing != 0.0)
            .expect("legs");
        assert_ne!(a[leg], b[leg], "a leg swings");
    }
}
