//! The three Boxel Rebound levels as data: one line per piece, x measured in
//! pixels from the level start, heights in pixels above the ground line.
//!
//! - `gap X W`: a pit in the ground from X to X+W.
//! - `block X W H`: a solid block standing on the ground, H tall.
//! - `float X Y W H`: a solid block floating with its bottom Y above the ground.
//! - `spikes X N [BASE]`: N spikes side by side from X, standing at BASE
//!   (default 0: on the ground; use a block's height to put them on it).
//! - `pad X`: a jump pad on the ground that throws the cube high.
//! - `saw X LOW HIGH PERIOD`: a saw blade moving up and down between the
//!   heights LOW and HIGH of its centre, once every PERIOD ms; its starting
//!   phase comes from the seed.
//! - `finish X`: the end of the level.

pub const LEVEL_1: &str = "
spikes 700 1
spikes 1150 2
gap 1550 120
block 1950 80 50
spikes 2350 3
gap 2750 150
spikes 3150 2
block 3500 90 70
spikes 3850 1
spikes 3930 1
gap 4300 140
finish 4700
";

pub const LEVEL_2: &str = "
spikes 600 2
block 950 240 60
spikes 1060 1 60
gap 1400 160
block 1750 100 50
block 1850 100 100
spikes 2250 3
pad 2650
float 2760 150 260 30
spikes 2800 4
gap 3250 170
block 3650 200 70
spikes 3700 2 70
spikes 4100 2
gap 4450 150
finish 4850
";

pub const LEVEL_3: &str = "
spikes 600 2
saw 1000 40 200 1600
gap 1350 160
block 1700 120 60
spikes 1750 1 60
saw 2150 40 200 1400
spikes 2500 3
block 2900 100 50
block 3000 100 100
gap 3200 140
pad 3600
float 3700 160 300 30
spikes 3720 5
saw 4250 40 200 1200
gap 4600 170
spikes 5000 2
block 5350 80 70
finish 5800
";

/// One parsed piece of a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Piece {
    Gap {
        x: f64,
        w: f64,
    },
    Block {
        x: f64,
        w: f64,
        h: f64,
    },
    Float {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
    },
    Spikes {
        x: f64,
        n: u32,
        base: f64,
    },
    Pad {
        x: f64,
    },
    Saw {
        x: f64,
        low: f64,
        high: f64,
        period_ms: f64,
    },
    Finish {
        x: f64,
    },
}

/// Parse a level text. Panics with the line on a malformed piece (levels
/// are compiled in, so this is a programming error caught by the tests).
pub fn parse(text: &str) -> Vec<Piece> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split_whitespace();
            let word = parts.next().unwrap_or_default();
            let nums: Vec<f64> = parts
                .map(|p| {
                    p.parse()
                        .unwrap_or_else(|_| panic!("bad number in level line {line:?}"))
                })
                .collect();
            let n = |i: usize| {
                *nums
                    .get(i)
                    .unwrap_or_else(|| panic!("level line {line:?} lacks argument {}", i + 1))
            };
            match word {
                "gap" => Piece::Gap { x: n(0), w: n(1) },
                "block" => Piece::Block {
                    x: n(0),
                    w: n(1),
                    h: n(2),
                },
                "float" => Piece::Float {
                    x: n(0),
                    y: n(1),
                    w: n(2),
                    h: n(3),
                },
                "spikes" => Piece::Spikes {
                    x: n(0),
                    n: n(1) as u32,
                    base: nums.get(2).copied().unwrap_or(0.0),
                },
                "pad" => Piece::Pad { x: n(0) },
                "saw" => Piece::Saw {
                    x: n(0),
                    low: n(1),
                    high: n(2),
                    period_ms: n(3),
                },
                "finish" => Piece::Finish { x: n(0) },
                other => panic!("unknown level piece {other:?} in {line:?}"),
            }
        })
        .collect()
}
