//! How well a checkpoint predicts a dataset's actions, head by head, with
//! the recorded actions as inputs (teacher forcing): `cargo run --release -p
//! gw-goap --example head_metrics -- CHECKPOINT_DIR DATASET_DIR [EPISODES]`.
//! First whether the frame encoder tells frames apart (the size of the
//! frame embedding and its spread across the first episode's frames); then
//! per button the mean predicted probability when the expert pressed it and
//! when it did not; per camera axis how often the most likely bin is the
//! recorded one, on all steps and on steps that turned. A policy that learnt
//! nothing from its frames shows the same probability either way.

use gw_goap::model::Split;
use gw_goap::train::episode_logits;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dev = candle_core::Device::Cpu;
    let net = gw_goap::checkpoint::load(std::path::Path::new(&args[1]), &dev)
        .unwrap_or_else(|e| panic!("{e}"));
    let [w, h] = net.cfg.resolution;
    let most: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(4);
    let eps = gw_goap::data::read_dataset(std::path::Path::new(&args[2]), w, h, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    probe_frames(&net, &eps[0]);
    let s = Split::of(&net.cfg);
    let names = gw_openworld::game::BUTTONS;
    let mut on = [(0.0f64, 0u64); 11];
    let mut off = [(0.0f64, 0u64); 11];
    let (mut cam_hit, mut cam_n, mut turn_hit, mut turn_n) =
        ([0u64; 2], 0u64, [0u64; 2], [0u64; 2]);
    let centre = (net.cfg.heads.camera_bins / 2) as u8;
    for ep in eps.iter().take(most) {
        let z = episode_logits(&net, ep).unwrap().to_vec2::<f32>().unwrap();
        for (row, lab) in z.iter().zip(&ep.labels) {
            for i in 0..11 {
                let p = 1.0 / (1.0 + (-row[s.buttons.0 + i] as f64).exp());
                let slot = if lab.buttons[i] {
                    &mut on[i]
                } else {
                    &mut off[i]
                };
                slot.0 += p;
                slot.1 += 1;
            }
            cam_n += 1;
            for (k, (range, truth)) in [(s.pitch, lab.pitch), (s.yaw, lab.yaw)]
                .into_iter()
                .enumerate()
            {
                let xs = &row[range.0..range.0 + range.1];
                let best = (0..xs.len()).fold(0, |b, i| if xs[i] > xs[b] { i } else { b }) as u8;
                cam_hit[k] += (best == truth) as u64;
                if truth != centre {
                    turn_n[k] += 1;
                    turn_hit[k] += (best == truth) as u64;
                }
            }
        }
    }
    for i in 0..11 {
        let m = |x: (f64, u64)| if x.1 == 0 { f64::NAN } else { x.0 / x.1 as f64 };
        println!(
            "{:10} pressed {:6} steps, p {:.2} | not pressed {:6} steps, p {:.2}",
            names[i],
            on[i].1,
            m(on[i]),
            off[i].1,
            m(off[i])
        );
    }
    for (k, axis) in ["pitch", "yaw"].iter().enumerate() {
        println!(
            "{axis}: most likely bin right on {:.1}% of steps; on the {} turning steps {:.1}%",
            100.0 * cam_hit[k] as f64 / cam_n as f64,
            turn_n[k],
            100.0 * turn_hit[k] as f64 / turn_n[k].max(1) as f64
        );
    }
}

fn probe_frames(net: &gw_goap::Network, ep: &gw_goap::data::Episode) {
    let n = ep.len().min(200);
    let fsz = ep.frames.len() / ep.len().max(1);
    let v = net
        .encode_frames(&ep.frames[..n * fsz], n)
        .and_then(|e| e.to_vec2::<f32>())
        .unwrap();
    let d = v[0].len();
    let mut mean = vec![0f64; d];
    for r in &v {
        for (m, x) in mean.iter_mut().zip(r) {
            *m += *x as f64 / n as f64;
        }
    }
    let size = mean.iter().map(|m| m * m).sum::<f64>().sqrt();
    let spread: f64 = v
        .iter()
        .map(|r| {
            r.iter()
                .zip(&mean)
                .map(|(x, m)| (*x as f64 - m).powi(2))
                .sum::<f64>()
        })
        .sum::<f64>()
        / n as f64;
    println!(
        "frame embedding over {n} frames: size of the mean {size:.3}, rms spread across frames {:.3}",
        spread.sqrt()
    );
}
