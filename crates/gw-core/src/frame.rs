//! Frames: the RGB screenshot an agent sees, PNG encoding and hashing.

use sha2::{Digest, Sha256};
use std::io::Write;

/// Convert a tiny-skia pixmap (premultiplied RGBA, always opaque here) to RGB8.
pub fn pixmap_rgb(pixmap: &tiny_skia::Pixmap) -> Vec<u8> {
    let data = pixmap.data();
    let mut rgb = vec![0u8; data.len() / 4 * 3];
    rgba_to_rgb(data, &mut rgb);
    rgb
}

/// Drop the alpha byte of every pixel: `rgba` holds `rgb.len() / 3` pixels.
fn rgba_to_rgb(rgba: &[u8], rgb: &mut [u8]) {
    // Four pixels at a time, little-endian words: 16 bytes in, 12 out
    // (about a sixth fewer instructions than three-byte copies).
    let quads = rgb.len() / 12;
    let (head, tail) = rgb.split_at_mut(quads * 12);
    for (d, s) in head.chunks_exact_mut(12).zip(rgba.chunks_exact(16)) {
        let word = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        pack_rgb(word(0), word(8), d);
    }
    for (d, s) in tail
        .chunks_exact_mut(3)
        .zip(rgba[quads * 16..].chunks_exact(4))
    {
        d.copy_from_slice(&s[..3]);
    }
}

/// Write the RGB bytes of four RGBA pixels, given as two little-endian
/// words `a` and `b`, to `d` (12 bytes).
#[inline(always)]
fn pack_rgb(a: u64, b: u64, d: &mut [u8]) {
    // Bytes R0 G0 B0 R1 G1 B1 R2 G2, then B2 R3 G3 B3.
    let lo = (a & 0xff_ffff) | ((a >> 8) & 0xffff_ff00_0000) | (b << 48);
    let hi = ((b >> 16) & 0xff) | ((b >> 24) & 0xffff_ff00);
    d[..8].copy_from_slice(&lo.to_le_bytes());
    d[8..].copy_from_slice(&(hi as u32).to_le_bytes());
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

/// Rows per strip, the unit one thread filters and codes. Fixed (not
/// derived from the thread count), so a frame's bytes are the same on every
/// machine. 16 rows of a 1280-pixel frame are 61 kB of filtered bytes, which
/// stay in a core's cache between filtering and coding.
const STRIP_ROWS: usize = 16;

/// Frames with fewer filtered bytes than this are coded on the calling
/// thread: handing strips to the pool costs more than it saves there. The
/// bytes are the same either way.
const PARALLEL_MIN_BYTES: usize = 96 * 1024;

/// Symbols are counted on every `HIST_EVERY`-th row (a sample, which costs
/// an eighth of filtering the frame once more) to build its Huffman code.
const HIST_EVERY: usize = 8;

mod deflate;

/// Encode `width × height` pixels of `channels` bytes each (3 = RGB, 4 =
/// RGBA whose alpha is dropped, as in an opaque pixmap) as an 8-bit RGB PNG
/// whose rows are filtered with `filter`.
///
/// The frame is one zlib stream with one dynamic-Huffman deflate block,
/// written on rayon's pool in strips of [`STRIP_ROWS`] rows:
/// 1. every [`HIST_EVERY`]-th row of each strip is filtered and its deflate
///    symbols counted; the summed counts give the frame's literal/length
///    code (every symbol gets one, so rows outside the sample code too);
/// 2. each strip is filtered into a per-thread buffer, checksummed
///    (Adler-32) and coded with that table into its own bit string;
/// 3. the bit strings are joined in order behind the block header, ended
///    with the end-of-block code, and the strips' checksums combined.
///
/// The only matches are zero runs (a literal 0, then copies at distance 1),
/// which is what filtered rows compress into; no strip refers into another
/// and the strips do not depend on the thread count, so the bytes are the
/// same on every machine and pool size. Frames under
/// [`PARALLEL_MIN_BYTES`] are coded on the calling thread (same bytes).
/// Data that does not compress is stored (raw rows) instead, so a frame
/// never grows past its raw size.
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
    let filter = match filter {
        RowFilter::PerFrame => sampled_filter(pixels, channels, w, h),
        f => f,
    };
    let raw_len = (w * 3 + 1) * h;
    let image = Image {
        pixels,
        channels,
        w,
        h,
    };
    let parallel = raw_len >= PARALLEL_MIN_BYTES;
    let strips = h.div_ceil(STRIP_ROWS);
    // Symbol counts of every HIST_EVERY-th row give the frame's code.
    let hists = map_strips(strips, parallel, |i| {
        with_scratch(|scratch| {
            let rows = image.strip(i).step_by(HIST_EVERY);
            let mut hist = deflate::Histogram::default();
            for row in image
                .filter_rows(rows, filter, true, scratch)
                .chunks_exact(w * 3 + 1)
            {
                hist.count(row);
            }
            hist
        })
    });
    let mut hist = hists[0].clone();
    for other in &hists[1..] {
        hist.add(other);
    }
    let table = deflate::Table::new(&hist);
    let stored_len = raw_len + 5 * raw_len.div_ceil(STORED_MAX);
    // The sample's size scaled up: clearly incompressible frames are stored
    // without coding them first.
    let guess = (table.data_bits(&hist) * HIST_EVERY as u64 + table.frame_bits()).div_ceil(8);
    let coded = (guess as usize <= stored_len).then(|| {
        // Each strip filtered into a buffer that stays in cache, summed
        // and coded.
        let coded = map_strips(strips, parallel, |i| {
            with_scratch(|scratch| {
                let rows = image.filter_rows(image.strip(i), filter, false, scratch);
                (deflate::adler32(rows), rows.len(), table.encode(rows))
            })
        });
        let bits = coded.iter().map(|c| c.2.len_bits()).sum::<u64>() + table.frame_bits();
        (coded, bits.div_ceil(8) as usize)
    });

    let mut zlib =
        Vec::with_capacity(stored_len.min(coded.as_ref().map_or(usize::MAX, |c| c.1)) + 6);
    // Deflate with a 32 KiB window, "fastest" level, no dictionary.
    zlib.extend_from_slice(&[0x78, 0x01]);
    let adler = match coded {
        Some((coded, len)) if len <= stored_len => {
            let mut bits = deflate::Bits::with_capacity(len);
            bits.append(table.header());
            let mut adler = 1;
            for (sum, n, c) in &coded {
                bits.append(c);
                adler = deflate::adler32_combine(adler, *sum, *n);
            }
            table.end(&mut bits);
            bits.write_to(&mut zlib);
            adler
        }
        _ => {
            // Stored blocks of raw rows (filter type 0), each marked final
            // or not.
            let mut scratch = Scratch::default();
            let all = image.filter_rows(0..h, RowFilter::None, false, &mut scratch);
            let blocks = all.len().div_ceil(STORED_MAX);
            for (k, block) in all.chunks(STORED_MAX).enumerate() {
                zlib.push((k + 1 == blocks) as u8);
                let len = block.len() as u16;
                zlib.extend_from_slice(&len.to_le_bytes());
                zlib.extend_from_slice(&(!len).to_le_bytes());
                zlib.extend_from_slice(block);
            }
            deflate::adler32(all)
        }
    };
    zlib.extend_from_slice(&adler.to_be_bytes());

    let mut out = Vec::with_capacity(zlib.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&width.to_be_bytes());
    ihdr[4..8].copy_from_slice(&height.to_be_bytes());
    ihdr[8] = 8; // bit depth
    ihdr[9] = 2; // colour type RGB
    // compression, filter method and interlace stay 0.
    write_chunk(&mut out, b"IHDR", &ihdr);
    write_chunk(&mut out, b"IDAT", &zlib);
    write_chunk(&mut out, b"IEND", &[]);
    out
}

/// The most bytes one stored deflate block holds.
const STORED_MAX: usize = 65535;

/// `f` over strip indices `0..n`, on rayon's pool or on this thread.
fn map_strips<T: Send>(n: usize, parallel: bool, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    use rayon::prelude::*;
    if parallel {
        (0..n).into_par_iter().map(f).collect()
    } else {
        (0..n).map(f).collect()
    }
}

/// The pixels being encoded.
struct Image<'a> {
    pixels: &'a [u8],
    channels: usize,
    w: usize,
    h: usize,
}

/// Buffers for filtering rows.
#[derive(Default)]
struct Scratch {
    /// Filtered rows, each led by its filter-type byte.
    rows: Vec<u8>,
    /// RGB copies of the current and the previous row (RGBA input only).
    cur_rgb: Vec<u8>,
    prev_rgb: Vec<u8>,
    /// The other filter's row (`UpOrSub`).
    alt: Vec<u8>,
}

/// Run `f` with this thread's scratch buffers (kept between frames, so
/// they are neither allocated nor zeroed again every frame).
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
    }
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

/// Grow `buf` to at least `len` bytes and return its first `len` (stale
/// bytes, for the caller to overwrite).
fn at_least(buf: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buf.len() < len {
        buf.resize(len, 0);
    }
    &mut buf[..len]
}

impl Image<'_> {
    fn row(&self, y: usize) -> &[u8] {
        let stride = self.w * self.channels;
        &self.pixels[y * stride..][..stride]
    }

    /// The rows of strip `i`.
    fn strip(&self, i: usize) -> std::ops::Range<usize> {
        i * STRIP_ROWS..self.h.min((i + 1) * STRIP_ROWS)
    }

    /// Rows `rows` (increasing; `sparse`: not one after another) filtered
    /// with `filter` (`PerFrame` already resolved), each led by its
    /// filter-type byte, in `scratch.rows`.
    fn filter_rows<'s>(
        &self,
        rows: impl ExactSizeIterator<Item = usize>,
        filter: RowFilter,
        sparse: bool,
        scratch: &'s mut Scratch,
    ) -> &'s [u8] {
        let row_len = self.w * 3;
        let rgba = self.channels == 4;
        let out = at_least(&mut scratch.rows, rows.len() * (row_len + 1));
        let rgb_len = if rgba { row_len } else { 0 };
        let mut cur_rgb = at_least(&mut scratch.cur_rgb, rgb_len);
        let mut prev_rgb = at_least(&mut scratch.prev_rgb, rgb_len);
        let alt_len = if filter == RowFilter::UpOrSub {
            row_len
        } else {
            0
        };
        let alt = at_least(&mut scratch.alt, alt_len);
        // The row whose RGB `prev_rgb` holds, when it holds one.
        let mut rgb_of = None;
        for (y, line) in rows.zip(out.chunks_exact_mut(row_len + 1)) {
            let src = self.row(y);
            let above = (y > 0).then(|| self.row(y - 1));
            if above == Some(src) && matches!(filter, RowFilter::Up | RowFilter::UpOrSub) {
                // Up of a repeated row is all zeros; `prev_rgb` holds this
                // row if it held the one above.
                line[0] = 2;
                line[1..].fill(0);
                if rgb_of == Some(y - 1) {
                    rgb_of = Some(y);
                }
                continue;
            }
            if rgba && filter == RowFilter::Up && sparse {
                // Straight from the RGBA rows, without RGB copies (which
                // pay off when the next row reuses this one's).
                line[0] = 2;
                match above {
                    Some(above) => filter_up_rgba(src, above, &mut line[1..]),
                    None => rgba_to_rgb(src, &mut line[1..]),
                }
                continue;
            }
            if rgba && y > 0 && rgb_of != Some(y - 1) {
                rgba_to_rgb(self.row(y - 1), prev_rgb);
            }
            let (cur, prev): (&[u8], Option<&[u8]>) = if rgba {
                rgba_to_rgb(src, cur_rgb);
                (cur_rgb, above.map(|_| &*prev_rgb))
            } else {
                (src, above)
            };
            let (kind, filtered) = line.split_first_mut().expect("a filter byte");
            *kind = match filter {
                RowFilter::None => {
                    filtered.copy_from_slice(cur);
                    0
                }
                RowFilter::Sub => {
                    filter_sub(cur, filtered);
                    1
                }
                // `PerFrame` was resolved to `Up` or `Sub` by the caller.
                RowFilter::Up | RowFilter::PerFrame => {
                    filter_up(cur, prev, filtered);
                    2
                }
                RowFilter::UpOrSub => {
                    filter_up(cur, prev, filtered);
                    filter_sub(cur, alt);
                    if nonzero(alt) < nonzero(filtered) {
                        filtered.copy_from_slice(alt);
                        1
                    } else {
                        2
                    }
                }
            };
            if rgba {
                std::mem::swap(&mut cur_rgb, &mut prev_rgb);
                rgb_of = Some(y);
            }
        }
        out
    }
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

/// PNG filter 2 on RGBA rows: each RGB byte of `cur` minus the one of
/// `above`, alpha dropped (`out` holds `cur.len() / 4` RGB pixels).
fn filter_up_rgba(cur: &[u8], above: &[u8], out: &mut [u8]) {
    // Four pixels at a time as in `rgba_to_rgb`, subtracting byte by byte
    // inside 64-bit words: the high bits are set aside so no borrow crosses
    // into the next byte, then put back.
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let sub = |a: u64, b: u64| ((a | HIGH) - (b & !HIGH)) ^ ((a ^ !b) & HIGH);
    let quads = out.len() / 12;
    let (head, tail) = out.split_at_mut(quads * 12);
    for ((d, c), p) in head
        .chunks_exact_mut(12)
        .zip(cur.chunks_exact(16))
        .zip(above.chunks_exact(16))
    {
        let word =
            |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        let (a, b) = (sub(word(c, 0), word(p, 0)), sub(word(c, 8), word(p, 8)));
        pack_rgb(a, b, d);
    }
    for ((d, c), p) in tail
        .chunks_exact_mut(3)
        .zip(cur[quads * 16..].chunks_exact(4))
        .zip(above[quads * 16..].chunks_exact(4))
    {
        for k in 0..3 {
            d[k] = c[k].wrapping_sub(p[k]);
        }
    }
}

/// PNG filter 2: each byte minus the byte above (zero above the first row).
fn filter_up(cur: &[u8], prev: Option<&[u8]>, out: &mut [u8]) {
    match prev {
        None => out.copy_from_slice(cur),
        Some(prev) => {
            for ((o, &c), &p) in out.iter_mut().zip(cur).zip(prev) {
                *o = c.wrapping_sub(p);
            }
        }
    }
}

/// PNG filter 1: each byte minus the same channel of the pixel on the left.
fn filter_sub(cur: &[u8], out: &mut [u8]) {
    out[..3].copy_from_slice(&cur[..3]);
    for ((o, &c), &l) in out[3..].iter_mut().zip(&cur[3..]).zip(cur) {
        *o = c.wrapping_sub(l);
    }
}

/// `Up` or `Sub`, whichever leaves fewer non-zero bytes over every 16th row
/// (compared with the row above it); `Up` on a tie.
fn sampled_filter(pixels: &[u8], channels: usize, w: usize, h: usize) -> RowFilter {
    let stride = w * channels;
    let rgb = |y: usize, out: &mut Vec<u8>| {
        let src = &pixels[y * stride..][..stride];
        out.clear();
        if channels == 4 {
            out.resize(w * 3, 0);
            rgba_to_rgb(src, out);
        } else {
            out.extend_from_slice(src);
        }
    };
    let (mut cur, mut above, mut tmp) = (Vec::new(), Vec::new(), vec![0u8; w * 3]);
    let (mut up, mut sub) = (0, 0);
    for y in (16..h).step_by(16) {
        rgb(y, &mut cur);
        rgb(y - 1, &mut above);
        filter_up(&cur, Some(&above), &mut tmp);
        up += nonzero(&tmp);
        filter_sub(&cur, &mut tmp);
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
    fn up_from_rgba_rows_matches_up_of_their_rgb() {
        let mut rng = crate::Rng::new(21, 1);
        for w in [1usize, 3, 4, 5, 8, 13, 64, 101] {
            let mut byte = || match rng.index(3) {
                0 => 0,
                1 => 255,
                _ => rng.index(256) as u8,
            };
            let cur: Vec<u8> = (0..w * 4).map(|_| byte()).collect();
            let above: Vec<u8> = (0..w * 4).map(|_| byte()).collect();
            let (mut c, mut a) = (vec![0; w * 3], vec![0; w * 3]);
            rgba_to_rgb(&cur, &mut c);
            rgba_to_rgb(&above, &mut a);
            let mut want = vec![0; w * 3];
            filter_up(&c, Some(&a), &mut want);
            let mut got = vec![7; w * 3];
            filter_up_rgba(&cur, &above, &mut got);
            assert_eq!(got, want, "width {w}");
        }
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
            // Zeros are coded as copies of at most 258 bytes: ~1% of raw.
            assert!(png.len() < 30_000, "{} bytes", png.len());
            assert!(decode(&png).2 == rgb);
        }
    }

    /// Encode on a rayon pool of `threads` threads.
    fn encode_on(threads: usize, px: &[u8], ch: usize, w: u32, h: u32, f: RowFilter) -> Vec<u8> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| encode_pixels(px, ch, w, h, f))
    }

    #[test]
    fn strips_decode_to_the_same_pixels_in_every_shape() {
        let mut rng = crate::Rng::new(11, 3);
        let mut noise = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.index(256) as u8).collect() };
        // (width, height, RGB pixels): odd widths, one row, one column,
        // frames of many strips (STRIP_ROWS = 16), zeros, noise.
        let mut cases: Vec<(u32, u32, Vec<u8>)> = Vec::new();
        for (w, h) in [(1, 1), (13, 1), (1, 77), (203, 70), (640, 161), (1280, 720)] {
            let rgba = test_rgba(w, h, (w * h) as u64);
            let mut rgb = vec![0; (w * h * 3) as usize];
            rgba_to_rgb(&rgba, &mut rgb);
            cases.push((w, h, rgb));
        }
        cases.push((301, 100, vec![0; 301 * 100 * 3]));
        cases.push((256, 256, noise(256 * 256 * 3)));
        cases.push((5, 3, noise(5 * 3 * 3)));
        // A zero run from the middle of strip 0 across strips 1 and 2: row
        // 10 ends in noise, rows 11–40 are black and `None` keeps the zeros
        // (filter type 0 included) in one run across the strip edges.
        let (w, h) = (99usize, 60usize);
        let mut runs = noise(w * h * 3);
        runs[11 * w * 3..41 * w * 3].fill(0);
        cases.push((w as u32, h as u32, runs));
        for (w, h, rgb) in &cases {
            let rgba: Vec<u8> = rgb
                .chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect();
            for filter in RowFilter::ALL {
                for (channels, pixels) in [(3, rgb), (4, &rgba)] {
                    let png = encode_pixels(pixels, channels, *w, *h, filter);
                    let (dw, dh, decoded) = decode(&png);
                    assert_eq!((dw, dh), (*w, *h));
                    assert!(
                        decoded == *rgb,
                        "{w}x{h} {} from {channels} channels changed pixels",
                        filter.as_str()
                    );
                    // Never more than the raw rows in stored blocks.
                    let raw = (*w as usize * 3 + 1) * *h as usize;
                    let stored = raw + 5 * raw.div_ceil(STORED_MAX) + 6;
                    assert!(png.len() <= stored + 57, "{w}x{h}: {} bytes", png.len());
                }
            }
        }
    }

    #[test]
    fn the_bytes_do_not_depend_on_the_thread_count() {
        let (w, h) = (1280, 720);
        let rgba = test_rgba(w, h, 5);
        let mut rng = crate::Rng::new(3, 9);
        let noise: Vec<u8> = (0..w * h * 3).map(|_| rng.index(256) as u8).collect();
        for filter in RowFilter::ALL {
            let one = encode_on(1, &rgba, 4, w, h, filter);
            let four = encode_on(4, &rgba, 4, w, h, filter);
            assert!(
                one == four,
                "{}: bytes differ by thread count",
                filter.as_str()
            );
            assert!(one == encode_pixels(&rgba, 4, w, h, filter));
        }
        // The stored path too: the first deflate block is stored (type 0).
        let one = encode_on(1, &noise, 3, w, h, RowFilter::Up);
        assert_eq!(one[43] & 0b110, 0, "noise is stored");
        assert!(one == encode_on(4, &noise, 3, w, h, RowFilter::Up));
        assert!(decode(&one).2 == noise);
    }

    #[test]
    fn a_frame_of_strips_is_one_deflate_block_with_the_rows_checksum() {
        let (w, h) = (640u32, 360u32);
        let rgba = test_rgba(w, h, 8);
        let png = encode_pixels(&rgba, 4, w, h, RowFilter::None);
        // IDAT's length at byte 33, then "IDAT", the zlib header and the
        // block header: final block (bit 0), dynamic Huffman (bits 1–2 = 2).
        assert_eq!(&png[37..41], b"IDAT");
        assert_eq!(&png[41..43], &[0x78, 0x01]);
        assert_eq!(png[43] & 0b111, 0b101);
        // The stream ends in the Adler-32 (RFC 1950, byte by byte here) of
        // the filtered rows: with `None`, a 0 and the row's RGB.
        let idat_len = u32::from_be_bytes(png[33..37].try_into().unwrap()) as usize;
        let (mut a, mut b) = (1u32, 0u32);
        for row in rgba.chunks_exact(w as usize * 4) {
            let rgb = row.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]);
            for x in std::iter::once(0).chain(rgb) {
                a = (a + x as u32) % 65521;
                b = (b + a) % 65521;
            }
        }
        assert_eq!(
            &png[41 + idat_len - 4..41 + idat_len],
            &((b << 16) | a).to_be_bytes()
        );
        let mut rgb = vec![0; rgba.len() / 4 * 3];
        rgba_to_rgb(&rgba, &mut rgb);
        assert!(decode(&png).2 == rgb);
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
