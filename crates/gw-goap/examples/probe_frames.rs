//! Whether a checkpoint's frame encoder tells frames apart: `probe_frames --
//! CHECKPOINT_DIR DATASET_DIR`. Prints, over the first episode's frames, the
//! mean size of the frame embedding and its spread across frames.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dev = candle_core::Device::Cpu;
    let net = gw_goap::checkpoint::load(std::path::Path::new(&args[1]), &dev)
        .unwrap_or_else(|e| panic!("{e}"));
    let [w, h] = net.cfg.resolution;
    let eps = gw_goap::data::read_dataset(std::path::Path::new(&args[2]), w, h, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let ep = &eps[0];
    let n = ep.len().min(200);
    let fsz = (w * h * 3) as usize;
    let e = net.encode_frames(&ep.frames[..n * fsz], n).unwrap();
    let v = e.to_vec2::<f32>().unwrap();
    let d = v[0].len();
    let mut mean = vec![0f64; d];
    for r in &v {
        for (m, x) in mean.iter_mut().zip(r) {
            *m += *x as f64 / n as f64;
        }
    }
    let size = mean.iter().map(|m| m * m).sum::<f64>().sqrt();
    let mut spread = 0.0;
    for r in &v {
        spread += r
            .iter()
            .zip(&mean)
            .map(|(x, m)| (*x as f64 - m).powi(2))
            .sum::<f64>()
            / n as f64;
    }
    println!(
        "{n} frames: |mean embedding| {size:.3}, rms spread across frames {:.3}",
        spread.sqrt()
    );
    let px: f64 = ep.frames[..n * fsz].iter().map(|&b| b as f64).sum::<f64>() / (n * fsz) as f64;
    println!("mean pixel {px:.1}");
}
