//! The zlib stream of `fdeflate::Compressor` (fast mode), bit for bit, with
//! runs of zero bytes found faster.
//!
//! fdeflate's fast mode writes one dynamic-Huffman block whose code lengths
//! never change (the same header on every stream): every byte
//! is a literal, and zeros go as runs (a literal zero, then copies of length
//! 3–258 at distance 1). Each `write_data` call is read in 8-byte chunks from
//! its start: an all-zero chunk extends the run, a chunk with zeros at its
//! ends extends or starts one, any other chunk is 8 literals. PNG frames are
//! mostly zero bytes after filtering, and there fdeflate spends most of its
//! time stepping through zero chunks one by one; [`RowDeflater`] skips them
//! 64 bytes at a time, looks up a byte's code and length in one table entry,
//! ends a run with one precomputed write, and codes a repeated row's `Up`
//! line (a type byte then zeros) from its length alone — the same stream
//! (its tests compare with fdeflate on varied rows). The Huffman code lengths are not copied here: they are read
//! once from the block header fdeflate itself writes.

use std::sync::OnceLock;

/// Huffman code (bit-reversed, ready to be written LSB first) in the low 16
/// bits and code length above, for literal/length symbols 0–285.
struct Codes {
    sym: [u32; 286],
    /// The bits that end a run once fewer than 258 bytes are left after its
    /// literal zero, by that count: a length code, its extra bits and the
    /// distance bit, or up to 4 literal zeros; the bit count in the top
    /// byte. `run_whole` is the same with the literal zero in front.
    run_tail: Vec<u64>,
    run_whole: Vec<u64>,
    /// Stream bytes up to the end of the block header, then `tail_bits` more
    /// bits in `tail`.
    header: Vec<u8>,
    tail: u64,
    tail_bits: u32,
}

fn codes() -> &'static Codes {
    static CODES: OnceLock<Codes> = OnceLock::new();
    CODES.get_or_init(|| {
        let empty = fdeflate::Compressor::new(Vec::new())
            .and_then(|c| c.finish())
            .expect("writing to memory");
        read_header(&empty).expect("fdeflate writes a dynamic Huffman block header")
    })
}

/// LSB-first bit reader over a deflate stream.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Bits<'_> {
    fn take(&mut self, n: u32) -> Option<u32> {
        let mut v = 0;
        for i in 0..n {
            let byte = *self.data.get(self.pos / 8)?;
            v |= u32::from((byte >> (self.pos % 8)) & 1) << i;
            self.pos += 1;
        }
        Some(v)
    }

    /// One symbol of the canonical code with code lengths `lens` (codes are
    /// stored most significant bit first).
    fn symbol(&mut self, lens: &[u8]) -> Option<usize> {
        let (mut code, mut first) = (0i32, 0i32);
        for len in 1..=15u8 {
            code |= self.take(1)? as i32;
            let count = lens.iter().filter(|&&l| l == len).count() as i32;
            if code - first < count {
                let k = (code - first) as usize;
                return lens
                    .iter()
                    .enumerate()
                    .filter(|&(_, &l)| l == len)
                    .nth(k)
                    .map(|(s, _)| s);
            }
            first = (first + count) << 1;
            code <<= 1;
        }
        None
    }
}

/// Canonical codes for code lengths `lens`, bit-reversed (RFC 1951 3.2.2).
fn canonical(lens: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lens {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lens.iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (32 - u32::from(l))
        })
        .collect()
}

/// The literal/length codes of the one dynamic block in `zlib` (a stream
/// fdeflate wrote) and the stream up to the end of that block's header.
fn read_header(zlib: &[u8]) -> Option<Codes> {
    let mut r = Bits {
        data: zlib,
        pos: 16,
    };
    let (_last, kind) = (r.take(1)?, r.take(2)?);
    if kind != 2 {
        return None;
    }
    let hlit = r.take(5)? as usize + 257;
    let hdist = r.take(5)? as usize + 1;
    let hclen = r.take(4)? as usize + 4;
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let mut cl = [0u8; 19];
    for &i in &ORDER[..hclen] {
        cl[i] = r.take(3)? as u8;
    }
    let mut lens = Vec::with_capacity(hlit + hdist);
    while lens.len() < hlit + hdist {
        match r.symbol(&cl)? {
            s @ 0..=15 => lens.push(s as u8),
            16 => {
                let prev = *lens.last()?;
                let n = 3 + r.take(2)?;
                lens.extend((0..n).map(|_| prev));
            }
            17 => {
                let n = 3 + r.take(3)?;
                lens.extend((0..n).map(|_| 0));
            }
            18 => {
                let n = 11 + r.take(7)?;
                lens.extend((0..n).map(|_| 0));
            }
            _ => return None,
        }
    }
    // Runs are written with distance code 0 only, one bit long.
    if hlit < 286 || lens[hlit] != 1 {
        return None;
    }
    let lit = canonical(&lens[..hlit]);
    let mut sym = [0u32; 286];
    for (s, e) in sym.iter_mut().enumerate() {
        *e = lit[s] | (u32::from(lens[s]) << 16);
    }
    // Zero runs rely on the literal zero's code being all zero bits.
    if lit[0] != 0 || canonical(&lens[hlit..])[0] != 0 {
        return None;
    }
    let end = r.pos;
    let mut tail = 0u64;
    for i in 0..end % 8 {
        tail |= u64::from((zlib[end / 8] >> i) & 1) << i;
    }
    let zero = sym[0];
    let (run_tail, run_whole) = (0..258u32)
        .map(|left| {
            let (bits, n) = if left > 4 {
                let (s, extra) = length_symbol(left);
                let value = u64::from((left - 3) & ((1 << extra) - 1));
                // Then distance code 0: one zero bit.
                (
                    u64::from(sym[s] & 0xffff) | (value << (sym[s] >> 16)),
                    (sym[s] >> 16) + extra + 1,
                )
            } else {
                // Literal zeros, whose code is all zero bits.
                (0, left * (zero >> 16))
            };
            let whole = u64::from(zero & 0xffff) | (bits << (zero >> 16));
            (
                bits | (u64::from(n) << 56),
                whole | (u64::from(n + (zero >> 16)) << 56),
            )
        })
        .unzip();
    Some(Codes {
        sym,
        run_tail,
        run_whole,
        header: zlib[..end / 8].to_vec(),
        tail,
        tail_bits: (end % 8) as u32,
    })
}

/// Length symbol (257–284) and its extra bits for copy lengths 3–257
/// (RFC 1951 3.2.5).
fn length_symbol(len: u32) -> (usize, u32) {
    const BASE: [u32; 28] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227,
    ];
    let i = BASE.partition_point(|&b| b <= len) - 1;
    let extra = if i < 8 { 0 } else { (i as u32 - 4) / 4 };
    (257 + i, extra)
}

/// fdeflate's fast-mode compressor: the same zlib stream from the same
/// sequence of `write_data` calls, appended to a caller's prefix.
pub(super) struct RowDeflater {
    codes: &'static Codes,
    out: Vec<u8>,
    bits: u64,
    nbits: u32,
    adler: simd_adler32::Adler32,
}

impl RowDeflater {
    /// A stream that will follow `prefix` (e.g. a PNG's chunks before the
    /// IDAT data), with room for about `capacity` compressed bytes.
    pub(super) fn new(prefix: &[u8], capacity: usize) -> Self {
        let codes = codes();
        let mut out = Vec::with_capacity(prefix.len() + codes.header.len() + capacity.max(64));
        out.extend_from_slice(prefix);
        out.extend_from_slice(&codes.header);
        RowDeflater {
            codes,
            out,
            bits: codes.tail,
            nbits: codes.tail_bits,
            adler: simd_adler32::Adler32::new(),
        }
    }

    /// Append the `n` low bits of `bits` (nothing above them set; n ≤ 64).
    /// Room for the word is reserved by [`Self::write_data`] beforehand.
    #[inline(always)]
    fn put(&mut self, bits: u64, n: u32) {
        self.bits |= bits << self.nbits;
        self.nbits += n;
        if self.nbits >= 64 {
            self.out.extend_from_slice(&self.bits.to_le_bytes());
            self.nbits -= 64;
            self.bits = bits.checked_shr(n - self.nbits).unwrap_or(0);
        }
    }

    /// Room for at least `bytes` more bytes (so that the words `put`
    /// stores never move the buffer).
    fn reserve(&mut self, bytes: usize) {
        self.out.reserve(bytes);
    }

    /// Literals, up to four codes per write (a code is at most 15 bits).
    #[inline(always)]
    fn literals(&mut self, bytes: &[u8]) {
        let mut quads = bytes.chunks_exact(4);
        for q in &mut quads {
            self.literals4(q);
        }
        let (mut bits, mut n) = (0u64, 0u32);
        for &b in quads.remainder() {
            let e = self.codes.sym[b as usize];
            bits |= u64::from(e & 0xffff) << n;
            n += e >> 16;
        }
        self.put(bits, n);
    }

    #[inline(always)]
    fn literal(&mut self, b: u8) {
        let e = self.codes.sym[b as usize];
        self.put(u64::from(e & 0xffff), e >> 16);
    }

    /// Four literals in one write.
    #[inline(always)]
    fn literals4(&mut self, c: &[u8]) {
        let sym = &self.codes.sym;
        let (e0, e1, e2, e3) = (
            sym[c[0] as usize],
            sym[c[1] as usize],
            sym[c[2] as usize],
            sym[c[3] as usize],
        );
        let (n0, n1, n2) = (e0 >> 16, e1 >> 16, e2 >> 16);
        let bits = u64::from(e0 & 0xffff)
            | (u64::from(e1 & 0xffff) << n0)
            | (u64::from(e2 & 0xffff) << (n0 + n1))
            | (u64::from(e3 & 0xffff) << (n0 + n1 + n2));
        self.put(bits, n0 + n1 + n2 + (e3 >> 16));
    }

    /// `run` zero bytes: a literal zero, then copies of the byte before.
    fn run(&mut self, run: u32) {
        let mut left = run - 1;
        let entry = if left < 258 {
            self.codes.run_whole[left as usize]
        } else {
            self.literal(0);
            let long = self.codes.sym[285];
            while left >= 258 {
                // Length 258, then distance code 0 (one zero bit).
                self.put(u64::from(long & 0xffff), (long >> 16) + 1);
                left -= 258;
            }
            self.codes.run_tail[left as usize]
        };
        self.put(entry & ((1 << 56) - 1), (entry >> 56) as u32);
    }

    /// Compress `data`, read in 8-byte chunks from its start (as fdeflate).
    pub(super) fn write_data(&mut self, data: &[u8]) {
        self.adler.write(data);
        // At most 15 bits a byte, and a run's codes fit in fewer bits than
        // its bytes (at least 3 of them); a few words for what is held.
        self.reserve(data.len() * 2 + 32);
        let word = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().expect("8 bytes"));
        let whole = data.len() / 8 * 8;
        let mut run = 0u32;
        let mut i = 0;
        while i < whole {
            let chunk = word(i);
            if chunk == 0 {
                // Skip whole zero chunks, 64 bytes at a time while they last.
                let mut j = i + 8;
                while j + 64 <= whole && data[j..j + 64].iter().fold(0, |a, &b| a | b) == 0 {
                    j += 64;
                }
                while j < whole && word(j) == 0 {
                    j += 8;
                }
                run += (j - i) as u32;
                i = j;
                continue;
            }
            let c = &data[i..i + 8];
            i += 8;
            if run > 0 {
                let run_extra = chunk.trailing_zeros() / 8;
                self.run(run + run_extra);
                run = 0;
                if run_extra > 0 {
                    run = chunk.leading_zeros() / 8;
                    self.literals(&c[run_extra as usize..8 - run as usize]);
                    continue;
                }
            }
            let run_start = chunk.leading_zeros() / 8;
            if run_start > 0 {
                self.literals(&c[..8 - run_start as usize]);
                run = run_start;
                continue;
            }
            self.literals4(&c[..4]);
            self.literals4(&c[4..]);
        }
        if run > 0 {
            self.run(run);
        }
        self.literals(&data[whole..]);
    }

    /// The same as `write_data` on `len` bytes of byte `first` (not zero)
    /// followed by zeros (the `Up` line of a row equal to the one above),
    /// without reading them: the checksum moves by the formula for such
    /// bytes, and fdeflate's chunks code the first byte, then one run, then
    /// the bytes after the last whole chunk as literal zeros.
    pub(super) fn write_zero_line(&mut self, first: u8, len: usize) {
        const MOD: u64 = 65521;
        assert!(
            first != 0 && len > 0,
            "a line of a non-zero byte then zeros"
        );
        if len < 8 {
            let mut short = [0u8; 8];
            short[0] = first;
            self.write_data(&short[..len]);
            return;
        }
        self.reserve(64);
        // Adler-32 over `first` then `len - 1` zeros: a gains `first`, and
        // b gains the new a once per byte.
        let sum = u64::from(self.adler.finish());
        let a = ((sum & 0xffff) + u64::from(first)) % MOD;
        let b = ((sum >> 16) + len as u64 % MOD * a) % MOD;
        self.adler = simd_adler32::Adler32::from_checksum(((b << 16) | a) as u32);
        let whole = len / 8 * 8;
        self.literal(first);
        self.run((whole - 1) as u32);
        self.literals(&[0u8; 7][..len - whole]);
    }

    /// End the block, pad to a byte, append the Adler-32 checksum: the
    /// prefix then the whole zlib stream.
    pub(super) fn finish(mut self) -> Vec<u8> {
        self.reserve(16);
        let end = self.codes.sym[256];
        self.put(u64::from(end & 0xffff), end >> 16);
        let bytes = self.nbits.div_ceil(8) as usize;
        let held = self.bits.to_le_bytes();
        self.out.extend_from_slice(&held[..bytes]);
        self.out
            .extend_from_slice(&self.adler.finish().to_be_bytes());
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fdeflate_of(rows: &[&[u8]]) -> Vec<u8> {
        let mut z = fdeflate::Compressor::new(Vec::new()).unwrap();
        for r in rows {
            z.write_data(r).unwrap();
        }
        z.finish().unwrap()
    }

    fn ours_of(rows: &[&[u8]]) -> Vec<u8> {
        let mut z = RowDeflater::new(b"prefix", 0);
        for r in rows {
            z.write_data(r);
        }
        let out = z.finish();
        assert_eq!(&out[..6], b"prefix");
        out[6..].to_vec()
    }

    #[test]
    fn length_symbols_follow_the_deflate_table() {
        assert_eq!(length_symbol(3), (257, 0));
        assert_eq!(length_symbol(10), (264, 0));
        assert_eq!(length_symbol(11), (265, 1));
        assert_eq!(length_symbol(12), (265, 1));
        assert_eq!(length_symbol(18), (268, 1));
        assert_eq!(length_symbol(19), (269, 2));
        assert_eq!(length_symbol(34), (272, 2));
        assert_eq!(length_symbol(35), (273, 3));
        assert_eq!(length_symbol(130), (280, 4));
        assert_eq!(length_symbol(131), (281, 5));
        assert_eq!(length_symbol(227), (284, 5));
        assert_eq!(length_symbol(257), (284, 5));
    }

    #[test]
    fn same_stream_as_fdeflate() {
        let mut rng = crate::Rng::new(11, 0);
        let mut cases: Vec<Vec<Vec<u8>>> = vec![vec![], vec![vec![]], vec![vec![0]], vec![vec![7]]];
        // Every run length up to past two 258-byte copies, at every offset
        // within a chunk, between non-zero bytes.
        for len in 0..600usize {
            for offset in [0usize, 1, 3, 7] {
                let mut row = vec![5u8; offset];
                row.extend(std::iter::repeat_n(0, len));
                row.push(9);
                row.extend([0, 0, 1]);
                cases.push(vec![row]);
            }
        }
        // Sparse rows (mostly zeros, as filtered frames), dense rows, and
        // rows split the way frames are fed (one call per row).
        for density in [0usize, 1, 3, 20, 100] {
            let rows: Vec<Vec<u8>> = (0..12)
                .map(|r| {
                    (0..(3841 + r * 13))
                        .map(|_| {
                            if rng.index(100) < density {
                                rng.index(256) as u8
                            } else {
                                0
                            }
                        })
                        .collect()
                })
                .collect();
            cases.push(rows);
        }
        // Lines of a non-zero byte then zeros (repeated rows under `Up`)
        // among other rows, coded from their length alone.
        for len in (1..40).chain([3841, 3842, 3847, 3848, 7681]) {
            for first in [2u8, 1, 255] {
                let mut line = vec![0u8; len];
                line[0] = first;
                let rows = [vec![3u8, 0, 0, 9, 1, 0, 0, 0, 0, 5], line.clone(), line];
                let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_slice()).collect();
                let mut z = RowDeflater::new(&[], 0);
                z.write_data(rows[0]);
                z.write_zero_line(first, len);
                z.write_zero_line(first, len);
                assert!(z.finish() == fdeflate_of(&rows), "{len} bytes from {first}");
            }
        }
        for (n, rows) in cases.iter().enumerate() {
            let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_slice()).collect();
            assert!(ours_of(&rows) == fdeflate_of(&rows), "case {n} differs");
        }
    }
}
