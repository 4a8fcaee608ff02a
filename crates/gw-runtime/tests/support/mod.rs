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
