//! Helpers shared by integration tests.

pub mod loopback;

/// The lines of a JSONL file (a run's trajectory or call records); none
/// when the file is missing.
#[allow(dead_code)]
pub fn jsonl(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The project's registry (the repository's `registry/` folder).
#[allow(dead_code)]
pub fn registry() -> gw_core::registry::Registry {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry");
    gw_core::registry::Registry::load(&[root]).unwrap_or_else(|e| panic!("{e}"))
}

/// The pixels of a PNG file, as decoded by the `png` crate.
#[allow(dead_code)]
pub fn decode_png(path: &std::path::Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}
