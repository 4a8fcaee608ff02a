//! Frames: the RGB screenshot an agent sees, PNG encoding and hashing.

use sha2::{Digest, Sha256};
use std::io::Write;

mod row_deflate;

/// Convert a tiny-skia pixmap (premultiplied RGBA, always opaque here) to RGB8.
pub fn pixmap_rgb(pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
    let data = pixmap.data();
    let mut rgb = vec![0u8; data.len() / 4 * 3];
    rgba_to_rgb(data, &mut rgb);
    rgb
}

/// Drop the alpha byte of every pixel: `rgba` holds `rgb.len() / 3` pixels.
pub fn rgba_to_rgb(rgba: &[u8], rgb: &mut [u8]) {
    rgb_difference(rgba, None, rgb);
}

/// The RGB bytes of RGBA pixels `a` minus those of `b` (byte by byte,
/// wrapping; `b` absent: zero), alpha dropped: `out` holds `out.len() / 3`
/// pixels, `a` and `b` at least as many. One pass straight from RGBA rows is
/// how a pixmap row becomes a PNG row: `Up` is a row minus the row above,
/// `Sub` a row minus itself shifted by one pixel, and the raw row (`None`)
/// has nothing subtracted. On x86-64 CPUs with AVX2 8 pixels, with SSSE3
/// (any from the last 15 years) 4 pixels at a time go through one byte
/// shuffle; elsewhere the portable loop below gives the same bytes.
fn rgb_difference(a: &[u8], b: Option<&[u8]>, out: &mut [u8]) {
    let pixels = out.len() / 3;
    assert!(
        a.len() >= pixels * 4 && b.is_none_or(|b| b.len() >= pixels * 4),
        "RGBA input shorter than the RGB output"
    );
    let done = simd::rgb_difference(a, b, out);
    rgb_difference_portable(
        &a[done * 4..],
        b.map(|b| &b[done * 4..]),
        &mut out[done * 3..],
    );
}

/// [`rgb_difference`] without vector instructions.
fn rgb_difference_portable(a: &[u8], b: Option<&[u8]>, out: &mut [u8]) {
    let quads = out.len() / 12;
    let (head, tail) = out.split_at_mut(quads * 12);
    for (i, d) in head.chunks_exact_mut(12).enumerate() {
        let word = |s: &[u8], at: usize| {
            u64::from_le_bytes(s[i * 16 + at..][..8].try_into().expect("8 bytes"))
        };
        let (mut lo, mut hi) = (word(a, 0), word(a, 8));
        if let Some(b) = b {
            lo = bytewise_sub(lo, word(b, 0));
            hi = bytewise_sub(hi, word(b, 8));
        }
        // Little-endian words of 4 pixels, 16 bytes in, 12 out: bytes
        // R0 G0 B0 R1 G1 B1 R2 G2, then B2 R3 G3 B3.
        let first = (lo & 0xff_ffff) | ((lo >> 8) & 0xffff_ff00_0000) | (hi << 48);
        let second = ((hi >> 16) & 0xff) | ((hi >> 24) & 0xffff_ff00);
        d[..8].copy_from_slice(&first.to_le_bytes());
        d[8..].copy_from_slice(&(second as u32).to_le_bytes());
    }
    let start = quads * 4;
    for (p, d) in tail.chunks_exact_mut(3).enumerate() {
        let at = (start + p) * 4;
        for k in 0..3 {
            d[k] = a[at + k].wrapping_sub(b.map_or(0, |b| b[at + k]));
        }
    }
}

/// Eight byte-wise wrapping subtractions in one word (no borrow crosses a
/// byte): the low 7 bits are subtracted with each minuend byte's top bit
/// set, then the top bits are fixed up.
fn bytewise_sub(x: u64, y: u64) -> u64 {
    const H: u64 = 0x8080_8080_8080_8080;
    ((x | H) - (y & !H)) ^ ((x ^ !y) & H)
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// The vector part of [`super::rgb_difference`]: fills whole groups of
    /// 8 pixels (AVX2) then 4 (SSSE3) while a whole vector can be stored
    /// (the bytes past each group's output are overwritten by the next) and
    /// returns how many pixels it did.
    pub(super) fn rgb_difference(a: &[u8], b: Option<&[u8]>, out: &mut [u8]) -> usize {
        let mut done = 0;
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked above).
            done = unsafe { rgb_difference_avx2(a, b, out) };
        }
        if !std::is_x86_feature_detected!("ssse3") {
            return done;
        }
        // SAFETY: the CPU has SSSE3 (checked above).
        done + unsafe {
            rgb_difference_ssse3(
                &a[done * 4..],
                b.map(|b| &b[done * 4..]),
                &mut out[done * 3..],
            )
        }
    }

    #[target_feature(enable = "avx2")]
    fn rgb_difference_avx2(a: &[u8], b: Option<&[u8]>, out: &mut [u8]) -> usize {
        // Groups whose 32-byte store stays inside `out` (the caller checked
        // that `a` and `b` hold 4 bytes for each pixel of `out`).
        let groups = out.len().saturating_sub(8) / 24;
        // Per 16-byte lane: 12 RGB bytes first; then the lanes' 3 + 3 words
        // side by side.
        let pack = _mm256_setr_epi8(
            0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12,
            13, 14, -1, -1, -1, -1,
        );
        let join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
        let (a, o) = (a.as_ptr(), out.as_mut_ptr());
        let b = b.map(|b| b.as_ptr());
        for g in 0..groups {
            // SAFETY: group g reads bytes 32g..32g+32 of `a` and `b` (inside
            // their 4 × pixels bytes) and writes 24g..24g+32 of `out` (inside
            // it by the choice of `groups`).
            unsafe {
                let mut x = _mm256_loadu_si256(a.add(32 * g).cast());
                if let Some(b) = b {
                    x = _mm256_sub_epi8(x, _mm256_loadu_si256(b.add(32 * g).cast()));
                }
                let d = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(x, pack), join);
                _mm256_storeu_si256(o.add(24 * g).cast(), d);
            }
        }
        groups * 8
    }

    #[target_feature(enable = "ssse3")]
    fn rgb_difference_ssse3(a: &[u8], b: Option<&[u8]>, out: &mut [u8]) -> usize {
        // Groups whose 16-byte store stays inside `out` (the caller checked
        // that `a` and `b` hold 4 bytes for each pixel of `out`).
        let groups = out.len().saturating_sub(4) / 12;
        let pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
        let (a, o) = (a.as_ptr(), out.as_mut_ptr());
        match b {
            Some(b) => {
                let b = b.as_ptr();
                for g in 0..groups {
                    // SAFETY: group g reads bytes 16g..16g+16 of `a` and `b`
                    // (inside their 4 × pixels bytes) and writes 12g..12g+16
                    // of `out` (inside it by the choice of `groups`).
                    unsafe {
                        let x = _mm_loadu_si128(a.add(16 * g).cast());
                        let y = _mm_loadu_si128(b.add(16 * g).cast());
                        let d = _mm_shuffle_epi8(_mm_sub_epi8(x, y), pack);
                        _mm_storeu_si128(o.add(12 * g).cast(), d);
                    }
                }
            }
            None => {
                for g in 0..groups {
                    // SAFETY: as above, without `b`.
                    unsafe {
                        let x = _mm_loadu_si128(a.add(16 * g).cast());
                        _mm_storeu_si128(o.add(12 * g).cast(), _mm_shuffle_epi8(x, pack));
                    }
                }
            }
        }
        groups * 4
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod simd {
    /// No vector path here: the portable loop does every pixel.
    pub(super) fn rgb_difference(_: &[u8], _: Option<&[u8]>, _: &mut [u8]) -> usize {
        0
    }
}

/// How each PNG row is filtered before compression. Every choice decodes to
/// the same pixels; they differ in file size and encoding time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFilter {
    /// Raw rows.
    None,
    /// Difference to the pixel on the left.
    Sub,
    /// Difference to the pixel above.
    Up,
    /// Per row, whichever of `Up` and `Sub` leaves more zero bytes (zero
    /// bytes are what the fast deflate stage compresses into runs); a row
    /// identical to the one above is `Up` without computing `Sub`.
    UpOrSub,
    /// One of `Up` and `Sub` for the whole frame: the one that leaves fewer
    /// non-zero bytes on a sample of rows (every 16th), `Up` on a tie.
    PerFrame,
}

impl RowFilter {
    pub const ALL: [RowFilter; 5] = [
        RowFilter::None,
        RowFilter::Sub,
        RowFilter::Up,
        RowFilter::UpOrSub,
        RowFilter::PerFrame,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RowFilter::None => "none",
            RowFilter::Sub => "sub",
            RowFilter::Up => "up",
            RowFilter::UpOrSub => "up-or-sub",
            RowFilter::PerFrame => "per-frame",
        }
    }
}

/// The filter frames are written with, chosen with `gameworld bench
/// --png-filters` on the 15 native games' frames: `Up` encodes fastest on
/// every game (0.6–1.2 ms at 1280×720, about half of `Sub` with the old RGB
/// copy) at about the size of `Sub`; `UpOrSub` halves the files but takes
/// about twice as long, and raw rows are slowest (fast deflate spends its
/// time on non-zero bytes) and largest. Re-measured on 34 games (2026-11,
/// load ≈ 9 on 2 cores): `PerFrame` lost to `Up` on 33 of them (its row
/// sample costs more than it saves) and won only on Temple Run 2, whose
/// frames `Sub` shrinks from 349 kB to 108 kB. This is the default of
/// [`crate::Game::frame_filter`]; a game whose frames another filter encodes
/// clearly faster and no larger names it there (2026-11-26, 34 games, load
/// ≈ 4: only Temple Run 2, `Sub` at 1.5 ms against 2.4 ms for `Up`).
pub const FRAME_FILTER: RowFilter = RowFilter::Up;

/// Encode a pixmap's pixels as an RGB PNG straight from its RGBA rows (no
/// whole-frame RGB copy), with row filter `filter` and fast deflate: how a
/// game's frame is encoded, `filter` being its [`crate::Game::frame_filter`].
pub fn encode_frame(pixmap: &tiny_skia::Pixmap, filter: RowFilter) -> Vec<u8> {
    encode_pixels(pixmap.data(), 4, pixmap.width(), pixmap.height(), filter)
}

/// Encode RGB8 pixels as PNG with fast compression.
pub fn encode_png(rgb: &[u8], width: u32, height: u32) -> Vec<u8> {
    encode_pixels(rgb, 3, width, height, FRAME_FILTER)
}

/// Encode `width × height` pixels of `channels` bytes each (3 = RGB, 4 =
/// RGBA whose alpha is dropped, as in an opaque pixmap) as an 8-bit RGB PNG
/// whose rows are filtered with `filter` and compressed into the stream of
/// `fdeflate`'s fast mode (the one `png`'s `Compression::Fast` uses; written
/// by [`row_deflate`], the same bytes in fewer instructions). Data that does
/// not compress is stored instead, so a frame never grows past its raw size.
///
/// Panics if `pixels` does not hold exactly `width × height × channels` bytes.
pub fn encode_pixels(
    pixels: &[u8],
    channels: usize,
    width: u32,
    height: u32,
    filter: RowFilter,
) -> Vec<u8> {
    assert!(channels == 3 || channels == 4, "3 or 4 channels");
    assert!(width > 0 && height > 0, "a PNG has at least one pixel");
    let (w, h) = (width as usize, height as usize);
    assert_eq!(pixels.len(), w * h * channels, "pixel buffer size");
    let stride = w * channels;
    let row_len = w * 3;
    let row = |y: usize| &pixels[y * stride..][..stride];
    // Filter-type byte then the filtered row; rows are filtered straight
    // from `pixels` (RGBA rows lose their alpha in the same pass).
    let mut line = vec![0u8; row_len + 1];
    let mut alt = vec![0u8; row_len];

    let filter = match filter {
        RowFilter::PerFrame => sampled_filter(pixels, channels, w, h),
        f => f,
    };
    // The PNG is assembled in the compressor's buffer: signature and IHDR,
    // then the IDAT chunk's length (filled in at the end), type and data.
    let mut head = Vec::with_capacity(41);
    head.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    ihdr[8] = 8; // bit depth
    ihdr[9] = 2; // colour type RGB
    // compression, filter method and interlace stay 0.
    write_chunk(&mut head, b"IHDR", &ihdr);
    head.extend_from_slice(&[0; 4]);
    head.extend_from_slice(b"IDAT");
    let mut z = row_deflate::RowDeflater::new(&head, pixels.len() / 32 + 1024);
    for y in 0..h {
        let cur = row(y);
        let above = (y > 0).then(|| row(y - 1));
        if above == Some(cur) && matches!(filter, RowFilter::Up | RowFilter::UpOrSub) {
            // `Up` of a row equal to the one above: type 2, then zeros.
            z.write_zero_line(2, row_len + 1);
            continue;
        }
        let filtered = &mut line[1..];
        line[0] = match filter {
            RowFilter::None => {
                filter_none(cur, channels, filtered);
                0
            }
            RowFilter::Sub => {
                filter_sub(cur, channels, filtered);
                1
            }
            // `PerFrame` was resolved to `Up` or `Sub` above.
            RowFilter::Up | RowFilter::PerFrame => {
                filter_up(cur, above, channels, filtered);
                2
            }
            RowFilter::UpOrSub => {
                filter_up(cur, above, channels, filtered);
                filter_sub(cur, channels, &mut alt);
                if nonzero(&alt) < nonzero(filtered) {
                    filtered.copy_from_slice(&alt);
                    1
                } else {
                    2
                }
            }
        };
        z.write_data(&line);
    }
    let mut out = z.finish();
    let zlib_len = out.len() - head.len();
    let raw_len = (row_len + 1) * h;
    if zlib_len > fdeflate::StoredOnlyCompressor::<()>::compressed_size(raw_len) {
        let mut stored = fdeflate::StoredOnlyCompressor::new(std::io::Cursor::new(Vec::new()))
            .expect("writing to memory");
        line[0] = 0;
        for y in 0..h {
            filter_none(row(y), channels, &mut line[1..]);
            stored.write_data(&line).expect("writing to memory");
        }
        let zlib = stored.finish().expect("writing to memory").into_inner();
        out.truncate(head.len());
        out.extend_from_slice(&zlib);
    }
    let idat = head.len() - 8;
    let idat_len = (out.len() - head.len()) as u32;
    out[idat..idat + 4].copy_from_slice(&idat_len.to_be_bytes());
    let crc = crc32fast::hash(&out[idat + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    write_chunk(&mut out, b"IEND", &[]);
    out
}

fn write_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// PNG filter 0: the row's RGB bytes as they are.
fn filter_none(cur: &[u8], channels: usize, out: &mut [u8]) {
    if channels == 3 {
        out.copy_from_slice(cur);
    } else {
        rgb_difference(cur, None, out);
    }
}

/// PNG filter 2: each byte minus the byte above (zero above the first row);
/// `cur` and `prev` are rows of `channels`-byte pixels, `out` RGB.
fn filter_up(cur: &[u8], prev: Option<&[u8]>, channels: usize, out: &mut [u8]) {
    match prev {
        None => filter_none(cur, channels, out),
        Some(prev) if channels == 3 => {
            for ((o, &c), &p) in out.iter_mut().zip(cur).zip(prev) {
                *o = c.wrapping_sub(p);
            }
        }
        Some(prev) => rgb_difference(cur, Some(prev), out),
    }
}

/// PNG filter 1: each byte minus the same channel of the pixel on the left.
fn filter_sub(cur: &[u8], channels: usize, out: &mut [u8]) {
    out[..3].copy_from_slice(&cur[..3]);
    if channels == 3 {
        for ((o, &c), &l) in out[3..].iter_mut().zip(&cur[3..]).zip(cur) {
            *o = c.wrapping_sub(l);
        }
    } else {
        rgb_difference(&cur[4..], Some(&cur[..cur.len() - 4]), &mut out[3..]);
    }
}

/// `Up` or `Sub`, whichever leaves fewer non-zero bytes over every 16th row
/// (compared with the row above it); `Up` on a tie.
fn sampled_filter(pixels: &[u8], channels: usize, w: usize, h: usize) -> RowFilter {
    let stride = w * channels;
    let row = |y: usize| &pixels[y * stride..][..stride];
    let mut tmp = vec![0u8; w * 3];
    let (mut up, mut sub) = (0, 0);
    for y in (16..h).step_by(16) {
        filter_up(row(y), Some(row(y - 1)), channels, &mut tmp);
        up += nonzero(&tmp);
        filter_sub(row(y), channels, &mut tmp);
        sub += nonzero(&tmp);
    }
    if sub < up {
        RowFilter::Sub
    } else {
        RowFilter::Up
    }
}

fn nonzero(bytes: &[u8]) -> usize {
    bytes.iter().map(|&b| (b != 0) as usize).sum()
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

    /// Decode a PNG with the `png` crate: (width, height, RGB bytes).
    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    /// A frame-like test image: flat areas, a gradient, stripes, a copied
    /// band (identical rows) and a patch of noise.
    fn test_rgba(w: u32, h: u32, seed: u64) -> Vec<u8> {
        let mut rng = crate::Rng::new(seed, 0);
        let mut px = vec![255u8; (w * h * 4) as usize];
        for y in 0..h {
            for x in 0..w {
                let i = ((y * w + x) * 4) as usize;
                let v: [u8; 3] = if y < h / 4 {
                    [30, 30, 40]
                } else if y < h / 2 {
                    [(x * 255 / w) as u8, (y * 7) as u8, 90]
                } else if x % 7 < 2 {
                    [250, 10, (y % 256) as u8]
                } else if x > w / 2 && y > 3 * h / 4 {
                    [
                        rng.index(256) as u8,
                        rng.index(256) as u8,
                        rng.index(256) as u8,
                    ]
                } else {
                    [12, 200, 12]
                };
                px[i..i + 3].copy_from_slice(&v);
            }
        }
        px
    }

    #[test]
    fn the_per_frame_filter_follows_the_frame() {
        let (w, h) = (64usize, 64usize);
        // Every row one colour, rows differ: `Sub` leaves zeros, `Up` not.
        let mut rows = vec![0u8; w * h * 4];
        // Every column one colour, columns differ: the other way round.
        let mut cols = vec![0u8; w * h * 4];
        for y in 0..h {
            for x in 0..w {
                let i = (y * w + x) * 4;
                rows[i..i + 4].copy_from_slice(&[(y * 37) as u8, (y * 11) as u8, 9, 255]);
                cols[i..i + 4].copy_from_slice(&[(x * 37) as u8, (x * 11) as u8, 9, 255]);
            }
        }
        assert_eq!(sampled_filter(&rows, 4, w, h), RowFilter::Sub);
        assert_eq!(sampled_filter(&cols, 4, w, h), RowFilter::Up);
        // A flat frame is a tie: `Up`, whose repeated rows cost nothing.
        assert_eq!(
            sampled_filter(&vec![7u8; w * h * 3], 3, w, h),
            RowFilter::Up
        );
    }

    #[test]
    fn every_filter_decodes_to_the_same_pixels() {
        for (w, h) in [(1, 1), (2, 3), (97, 41), (320, 180)] {
            let rgba = test_rgba(w, h, w as u64);
            let mut rgb = vec![0; (w * h * 3) as usize];
            rgba_to_rgb(&rgba, &mut rgb);
            let plain: Vec<u8> = rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            assert!(rgb == plain, "{w}x{h}: dropping alpha moved bytes");
            for filter in RowFilter::ALL {
                for (channels, pixels) in [(3, &rgb), (4, &rgba)] {
                    let png = encode_pixels(pixels, channels, w, h, filter);
                    let (dw, dh, decoded) = decode(&png);
                    assert_eq!((dw, dh), (w, h));
                    assert!(
                        decoded == rgb,
                        "{w}x{h} {} from {channels} channels changed pixels",
                        filter.as_str()
                    );
                }
            }
        }
    }

    #[test]
    fn pixmap_encoding_matches_its_rgb_copy() {
        let mut pm = tiny_skia::Pixmap::new(64, 48).unwrap();
        pm.fill(tiny_skia::Color::from_rgba8(10, 120, 200, 255));
        pm.fill_rect(
            tiny_skia::Rect::from_xywh(5.0, 7.0, 20.0, 30.0).unwrap(),
            &tiny_skia::Paint::default(),
            tiny_skia::Transform::identity(),
            None,
        );
        let png = encode_frame(&pm, FRAME_FILTER);
        assert!(decode(&png).2 == pixmap_rgb(&pm));
        assert!(png == encode_png(&pixmap_rgb(&pm), 64, 48));
    }

    #[test]
    fn noise_is_stored_not_grown() {
        let mut rng = crate::Rng::new(7, 0);
        let rgb: Vec<u8> = (0..64 * 64 * 3).map(|_| rng.index(256) as u8).collect();
        let png = encode_pixels(&rgb, 3, 64, 64, RowFilter::Sub);
        assert!(decode(&png).2 == rgb);
        // Stored deflate: raw rows plus a few bytes per 64 KiB block.
        assert!(png.len() < rgb.len() + 64 + 100, "{} bytes", png.len());
    }

    #[test]
    fn flat_frames_compress_to_almost_nothing() {
        let rgb = vec![77u8; 1280 * 720 * 3];
        for filter in [RowFilter::Up, RowFilter::UpOrSub] {
            let png = encode_pixels(&rgb, 3, 1280, 720, filter);
            // fdeflate codes zeros as runs of at most 258 bytes: ~1% of raw.
            assert!(png.len() < 30_000, "{} bytes", png.len());
            assert!(decode(&png).2 == rgb);
        }
    }

    /// The encoder as it was before rows were filtered straight from RGBA:
    /// a whole RGB copy, then per row the filter on RGB bytes into a line
    /// fed to fdeflate, raw rows stored when that is smaller.
    fn reference_encode(pixels: &[u8], channels: usize, w: u32, h: u32, f: RowFilter) -> Vec<u8> {
        let rgb: Vec<u8> = pixels
            .chunks_exact(channels)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        let (w, h) = (w as usize, h as usize);
        let n = w * 3;
        let row = |y: usize| &rgb[y * n..][..n];
        let up = |y: usize| -> Vec<u8> {
            (0..n)
                .map(|i| row(y)[i].wrapping_sub(if y > 0 { row(y - 1)[i] } else { 0 }))
                .collect()
        };
        let sub = |y: usize| -> Vec<u8> {
            (0..n)
                .map(|i| row(y)[i].wrapping_sub(if i >= 3 { row(y)[i - 3] } else { 0 }))
                .collect()
        };
        let zeros = |v: &[u8]| v.iter().filter(|&&b| b == 0).count();
        let f = match f {
            RowFilter::PerFrame => {
                let (mut u, mut s) = (0, 0);
                for y in (16..h).step_by(16) {
                    u += n - zeros(&up(y));
                    s += n - zeros(&sub(y));
                }
                if s < u { RowFilter::Sub } else { RowFilter::Up }
            }
            f => f,
        };
        let mut z = fdeflate::Compressor::new(Vec::new()).unwrap();
        for y in 0..h {
            let (kind, bytes) = match f {
                RowFilter::None => (0, row(y).to_vec()),
                RowFilter::Sub => (1, sub(y)),
                RowFilter::UpOrSub if zeros(&sub(y)) > zeros(&up(y)) => (1, sub(y)),
                _ => (2, up(y)),
            };
            z.write_data(&[&[kind][..], &bytes].concat()).unwrap();
        }
        let mut zlib = z.finish().unwrap();
        if zlib.len() > fdeflate::StoredOnlyCompressor::<()>::compressed_size((n + 1) * h) {
            let cursor = std::io::Cursor::new(Vec::new());
            let mut stored = fdeflate::StoredOnlyCompressor::new(cursor).unwrap();
            for y in 0..h {
                stored.write_data(&[0]).unwrap();
                stored.write_data(row(y)).unwrap();
            }
            zlib = stored.finish().unwrap().into_inner();
        }
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = [0u8; 13];
        ihdr[..4].copy_from_slice(&(w as u32).to_be_bytes());
        ihdr[4..8].copy_from_slice(&(h as u32).to_be_bytes());
        ihdr[8] = 8;
        ihdr[9] = 2;
        for (kind, data) in [(b"IHDR", &ihdr[..]), (b"IDAT", &zlib), (b"IEND", &[])] {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            out.extend_from_slice(kind);
            out.extend_from_slice(data);
            out.extend_from_slice(&crc32fast::hash(&[&kind[..], data].concat()).to_be_bytes());
        }
        out
    }

    /// Frames of several kinds: the frame-like test image, noise (stored),
    /// flat, every row the same (repeated-row path), rows that differ only
    /// in alpha, and vertical stripes.
    fn varied_frames(w: u32, h: u32, seed: u64) -> Vec<(&'static str, Vec<u8>)> {
        let n = (w * h * 4) as usize;
        let mut rng = crate::Rng::new(seed, 1);
        let noise: Vec<u8> = (0..n).map(|_| rng.index(256) as u8).collect();
        let mut one_row = vec![0u8; n];
        let mut alpha_rows = vec![0u8; n];
        let mut stripes = vec![0u8; n];
        for (i, p) in one_row.chunks_exact_mut(4).enumerate() {
            let x = i % w as usize;
            p.copy_from_slice(&[(x * 3) as u8, (x * 5 + 1) as u8, 200, 255]);
        }
        for (i, p) in alpha_rows.chunks_exact_mut(4).enumerate() {
            let y = i / w as usize;
            p.copy_from_slice(&[40, 50, 60, (y * 17) as u8]);
        }
        for (i, p) in stripes.chunks_exact_mut(4).enumerate() {
            let x = i % w as usize;
            let v = if x % 5 < 2 { 250 } else { 3 };
            p.copy_from_slice(&[v, 255 - v, v / 2, 255]);
        }
        vec![
            ("test image", test_rgba(w, h, seed)),
            ("noise", noise),
            ("flat", vec![128u8; n]),
            ("one row repeated", one_row),
            ("rows differing in alpha", alpha_rows),
            ("stripes", stripes),
        ]
    }

    #[test]
    fn filtering_straight_from_rgba_gives_the_old_bytes() {
        // Widths around the 4-pixel vector groups, and a frame-sized one.
        let sizes = [(1, 1), (1, 5), (2, 2), (3, 7), (4, 4), (5, 3), (7, 9)];
        let sizes = sizes
            .into_iter()
            .chain([(13, 17), (64, 20), (97, 41), (1280, 33)]);
        for (w, h) in sizes {
            for (kind, rgba) in varied_frames(w, h, u64::from(w * 31 + h)) {
                let rgb: Vec<u8> = rgba
                    .chunks_exact(4)
                    .flat_map(|p| [p[0], p[1], p[2]])
                    .collect();
                for filter in RowFilter::ALL {
                    for (channels, pixels) in [(3, &rgb), (4, &rgba)] {
                        let png = encode_pixels(pixels, channels, w, h, filter);
                        assert!(
                            png == reference_encode(pixels, channels, w, h, filter),
                            "{w}x{h} {kind}, {} from {channels} channels: bytes differ",
                            filter.as_str()
                        );
                        assert!(decode(&png).2 == rgb, "{w}x{h} {kind}: pixels differ");
                    }
                }
            }
        }
    }

    #[test]
    fn vector_and_portable_rgb_differences_agree() {
        let mut rng = crate::Rng::new(3, 0);
        let a: Vec<u8> = (0..4 * 70).map(|_| rng.index(256) as u8).collect();
        let b: Vec<u8> = (0..4 * 70).map(|_| rng.index(256) as u8).collect();
        for pixels in 0..=70 {
            for other in [None, Some(&b[..])] {
                let expected: Vec<u8> = (0..pixels * 3)
                    .map(|i| {
                        let at = i / 3 * 4 + i % 3;
                        a[at].wrapping_sub(other.map_or(0, |b| b[at]))
                    })
                    .collect();
                let (mut fast, mut portable) = (vec![0; pixels * 3], vec![0; pixels * 3]);
                rgb_difference(&a, other, &mut fast);
                rgb_difference_portable(&a, other, &mut portable);
                assert_eq!(fast, expected, "{pixels} pixels, {}", other.is_some());
                assert_eq!(portable, expected, "{pixels} pixels, {}", other.is_some());
            }
        }
        // The vector path does the whole groups it can store: 8 pixels
        // with AVX2 (8 groups of 8, then one of 4), 4 with SSSE3 alone.
        let mut out = vec![0; 3 * 70];
        let done = simd::rgb_difference(&a, Some(&b), &mut out);
        if cfg!(target_arch = "x86_64") && std::is_x86_feature_detected!("ssse3") {
            assert_eq!(done, 68);
        }
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
