//! The three levels of `34_worlds-hardest-game-2`, written for this project.
//! The sequel's obstacles differ from the first game's gates and orbits:
//! trains of dots circling wall pillars, a rotating cross, and two sweeping
//! walls of dots whose gaps sit at different heights.

use crate::g33_worlds_hardest_game::engine::{LevelSpec, Motion, circle, line, path_loop};

/// `n` dots evenly spaced round the rectangle of cells (c0, r0)–(c1, r1).
fn train(c0: f32, r0: f32, c1: f32, r1: f32, n: u32, period: u32, reverse: bool) -> Vec<Motion> {
    let mut pts = vec![(c0, r0), (c1, r0), (c1, r1), (c0, r1)];
    if reverse {
        pts.reverse();
    }
    (0..n)
        .map(|i| path_loop(&pts, period, i * period / n))
        .collect()
}

/// A column of dots on `rows` sliding between columns `c0` and `c1`.
fn sweeper(rows: &[i32], c0: f32, c1: f32, period: u32, phase: u32) -> Vec<Motion> {
    rows.iter()
        .map(|&r| line((c0, r as f32), (c1, r as f32), period, phase))
        .collect()
}

/// A rotating cross: `arms` arms of dots at radii 1..=len round `c`.
fn cross(c: (f32, f32), arms: u32, len: u32, period: u32, ccw: bool) -> Vec<Motion> {
    (0..arms)
        .flat_map(|a| (1..=len).map(move |r| circle(c, r as f32, period, a * period / arms, ccw)))
        .collect()
}

pub fn levels() -> Vec<LevelSpec> {
    vec![
        LevelSpec {
            name: "1: Pillar trains",
            map: [
                "##############################",
                "##############################",
                "##############################",
                "#####....................#####",
                "#####....................#####",
                "##SSS...o...........o....EEE##",
                "##SSS....##....##....##..EEE##",
                "##SPS....##....##o...##..EEE##",
                "##SSS...........o........EEE##",
                "#####....................#####",
                "#####....................#####",
                "##############################",
                "##############################",
                "##############################",
                "##############################",
            ],
            dots: {
                let mut d = train(8.0, 5.0, 11.0, 8.0, 3, 240, false);
                d.extend(train(14.0, 5.0, 17.0, 8.0, 3, 240, true));
                d.extend(train(20.0, 5.0, 23.0, 8.0, 3, 240, false));
                d.extend(train(6.0, 3.0, 23.0, 10.0, 4, 480, true));
                d
            },
        },
        LevelSpec {
            name: "2: Cross and sweepers",
            map: [
                "##############################",
                "##############################",
                "####......................####",
                "####...............o......####",
                "####......................####",
                "####......................####",
                "#SSS......................EEE#",
                "#SPS.......o..............EEE#",
                "#SSS......................EEE#",
                "####......................####",
                "####......................####",
                "####..................o...####",
                "####......................####",
                "##############################",
                "##############################",
            ],
            dots: {
                let mut d = cross((11.0, 7.0), 4, 3, 320, false);
                d.extend(sweeper(&[2, 5, 6, 7, 8, 9, 10, 11, 12], 16.0, 24.0, 320, 0));
                d.extend(sweeper(&[2, 3, 4, 5, 6, 7, 8, 9, 12], 16.0, 24.0, 320, 160));
                d
            },
        },
        LevelSpec {
            name: "3: The long way",
            map: [
                "##############################",
                "##############################",
                "##SSS.......CCC.......o...####",
                "##SPS.......CCC....##.....####",
                "##SSS...o...CCC....##.....####",
                "##SSS.......CCC...........####",
                "########################...###",
                "########################...###",
                "##EEE...o..........o.......###",
                "##EEE......................###",
                "##EEE......................###",
                "##############################",
                "##############################",
                "##############################",
                "##############################",
            ],
            dots: {
                let mut d = cross((8.0, 3.5), 2, 2, 240, true);
                d.extend(train(18.0, 2.0, 21.0, 5.0, 4, 240, false));
                d.extend(sweeper(&[8, 9], 6.0, 22.0, 480, 0));
                d.extend(sweeper(&[9, 10], 6.0, 22.0, 480, 240));
                d
            },
        },
    ]
}
