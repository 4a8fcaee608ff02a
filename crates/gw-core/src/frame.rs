//! Frames: the RGB screenshot an agent sees, PNG encoding and hashing.

use sha2::{Digest, Sha256};
use std::io::Write;

/// Convert a tiny-skia pixmap (premultiplied RGBA, always opaque here) to RGB8.
pub fn pixmap_rgb(pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
    let data = pixmap.data();
    let mut rgb = Vec::with_capacity(data.len() / 4 * 3);
    for px in data.chunks_exact(4) {
        rgb.extend_from_slice(&px[..3]);
    }
    rgb
}

/// Encode RGB8 pixels as PNG with fast compression.
pub fn encode_png(rgb: &[u8], width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(rgb.len() / 8);
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        enc.set_filter(png::Filter::Sub);
        let mut writer = enc.write_header().expect("png header");
        writer.write_image_data(rgb).expect("png data");
        writer.finish().expect("png finish");
    }
    out
}

/// Hex SHA-256 of raw RGB pixels: the golden-frame hash.
pub fn frame_hash(rgb: &[u8]) -> String {
    let digest = Sha256::digest(rgb);
    let mut s = String::with_capacity(64);
    for b in digest {
        let _ = write!(HexWriter(&mut s), "{b:02x}");
    }
    s
}

struct HexWriter<'a>(&'a mut String);
impl Write for HexWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.push_str(std::str::from_utf8(buf).unwrap_or(""));
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Write `bytes` to `path` atomically (temp file in the same folder + rename),
/// so a crash never leaves a half-written result behind.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if written.is_err() {
        // No temp file is left behind by a write that failed.
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_atomic_write_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a folder, so the final rename fails.
        let target = dir.path().join("result.json");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("keep"), b"x").unwrap();
        assert!(write_atomic(&target, b"{}").is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, vec!["result.json".to_string()]);
        write_atomic(&dir.path().join("ok.json"), b"{}").unwrap();
        assert_eq!(std::fs::read(dir.path().join("ok.json")).unwrap(), b"{}");
    }

    #[test]
    fn png_roundtrip_header_and_hash() {
        let rgb = vec![200u8; 4 * 3 * 3];
        let png = encode_png(&rgb, 4, 3);
        assert_eq!(&png[1..4], b"PNG");
        assert_eq!(frame_hash(&rgb).len(), 64);
        assert_ne!(frame_hash(&rgb), frame_hash(&[0u8; 36]));
    }

    #[test]
    fn atomic_write_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, b"1").unwrap();
        write_atomic(&p, b"2").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"2");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
