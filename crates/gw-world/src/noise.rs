//! Seeded value noise (2D and 3D) with smooth interpolation and fractal sums.
//! Pure integer hashing plus f32 arithmetic in a fixed order, so the same
//! seed gives the same numbers on every machine.

#[inline]
fn hash(seed: u64, x: i32, y: i32, z: i32) -> u64 {
    let mut h = seed
        ^ (x as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u32 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (z as u32 as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 32)
}

/// A lattice value in [-1, 1).
#[inline]
pub fn lattice(seed: u64, x: i32, y: i32, z: i32) -> f32 {
    ((hash(seed, x, y, z) >> 40) as f32 / (1u64 << 23) as f32) - 1.0
}

/// Uniform [0, 1) from a position (for per-block decisions).
#[inline]
pub fn unit(seed: u64, x: i32, y: i32, z: i32) -> f32 {
    (hash(seed, x, y, z) >> 40) as f32 / (1u64 << 24) as f32
}

/// `libm::floorf(x)`, bit for bit, without the call: below 2²³ in size
/// the cast truncates towards zero (one less for negative fractions, and
/// `copysign` keeps floor(-0.0) = -0.0); from there on every f32 is whole,
/// and NaN passes through.
#[inline]
fn floorf(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        let f = if t > x { t - 1.0 } else { t };
        f.copysign(x)
    } else {
        x
    }
}

#[inline]
fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// 2D value noise at `(x, z)` in lattice units, in [-1, 1].
pub fn value2(seed: u64, x: f32, z: f32) -> f32 {
    let (fx, fz) = (floorf(x), floorf(z));
    let (ix, iz) = (fx as i32, fz as i32);
    let (tx, tz) = (smooth(x - fx), smooth(z - fz));
    let a = lattice(seed, ix, 0, iz);
    let b = lattice(seed, ix + 1, 0, iz);
    let c = lattice(seed, ix, 0, iz + 1);
    let d = lattice(seed, ix + 1, 0, iz + 1);
    lerp(lerp(a, b, tx), lerp(c, d, tx), tz)
}

/// 3D value noise in [-1, 1].
pub fn value3(seed: u64, x: f32, y: f32, z: f32) -> f32 {
    let (fx, fy, fz) = (floorf(x), floorf(y), floorf(z));
    let (ix, iy, iz) = (fx as i32, fy as i32, fz as i32);
    let (tx, ty, tz) = (smooth(x - fx), smooth(y - fy), smooth(z - fz));
    let l = |dx, dy, dz| lattice(seed, ix + dx, iy + dy, iz + dz);
    let x00 = lerp(l(0, 0, 0), l(1, 0, 0), tx);
    let x10 = lerp(l(0, 1, 0), l(1, 1, 0), tx);
    let x01 = lerp(l(0, 0, 1), l(1, 0, 1), tx);
    let x11 = lerp(l(0, 1, 1), l(1, 1, 1), tx);
    lerp(lerp(x00, x10, ty), lerp(x01, x11, ty), tz)
}

/// Fractal 2D noise: `octaves` layers, each twice the frequency and half the
/// amplitude; normalised to about [-1, 1].
pub fn fbm2(seed: u64, x: f32, z: f32, octaves: u32) -> f32 {
    let (mut sum, mut amp, mut freq, mut norm) = (0.0, 1.0, 1.0, 0.0);
    for o in 0..octaves {
        sum += amp * value2(seed.wrapping_add(o as u64 * 7919), x * freq, z * freq);
        norm += amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    sum / norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_bounded_continuous_and_seeded() {
        let mut prev = value2(7, 0.0, 0.0);
        for i in 1..2000 {
            let x = i as f32 * 0.01;
            let v = value2(7, x, 0.3);
            assert!((-1.0..=1.0).contains(&v));
            assert!((v - prev).abs() < 0.1, "continuous");
            prev = v;
        }
        assert_eq!(value3(3, 1.5, 2.25, -7.75), value3(3, 1.5, 2.25, -7.75));
        assert_ne!(value2(1, 0.5, 0.5), value2(2, 0.5, 0.5));
        // Lattice points take their lattice values.
        assert_eq!(value2(9, 4.0, -3.0), lattice(9, 4, 0, -3));
    }

    /// The inline floor is libm's, bit for bit (signed zeros, whole and
    /// huge values, NaN included).
    #[test]
    fn floor_matches_libm() {
        let mut xs = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            8_388_607.5,
            -8_388_607.5,
        ];
        xs.extend([8_388_608.0, -8_388_609.0, 3.0e9, -3.0e9, f32::MAX, f32::MIN]);
        xs.extend([f32::INFINITY, f32::NEG_INFINITY, f32::MIN_POSITIVE, -1e-30]);
        let mut rng = gw_core::Rng::new(3, 9);
        for _ in 0..100_000 {
            xs.push(rng.range_f64(-5000.0, 5000.0) as f32);
            xs.push(rng.range_f64(-2.0, 2.0) as f32 / 7.0);
        }
        for x in xs {
            assert_eq!(floorf(x).to_bits(), libm::floorf(x).to_bits(), "floor({x})");
        }
        assert!(floorf(f32::NAN).is_nan());
    }
}
