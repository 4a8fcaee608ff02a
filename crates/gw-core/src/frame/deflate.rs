//! A small deflate (RFC 1951) writer for filtered PNG rows, built so that
//! separately coded strips of a frame join into one block.
//!
//! The only LZ77 it does is run coding: a run of zero bytes is a literal 0
//! followed by copies at distance 1. Everything else is a literal. A frame is
//! one dynamic-Huffman block whose literal/length code comes from the
//! frame's own symbol counts ([`Histogram`], counted on a sample of rows)
//! and whose distance code has two one-bit codes of which only distance 1
//! is used. Because every strip is coded with the same table and a strip
//! never refers back into the one before it, strips can be coded on
//! different threads into their own [`Bits`] and appended in order.

/// Zero runs at least this long are coded as a literal 0 and a copy of at
/// least 3 (the shortest deflate copy); shorter ones as literals.
const MIN_RUN: usize = 4;
/// The longest copy deflate can express.
const MAX_COPY: usize = 258;
/// Literal/length symbols: 256 bytes, end of block, 29 length codes.
pub const LITLEN_SYMBOLS: usize = 286;
const END_OF_BLOCK: usize = 256;

/// Bits written least significant first, as deflate packs them.
#[derive(Default)]
pub struct Bits {
    words: Vec<u64>,
    acc: u64,
    /// Bits held in `acc` (always below 64).
    fill: u32,
}

impl Bits {
    pub fn with_capacity(bytes: usize) -> Self {
        Bits {
            words: Vec::with_capacity(bytes / 8 + 1),
            ..Bits::default()
        }
    }

    /// Append the low `len` bits of `value` (`len` ≤ 64, higher bits zero).
    #[inline(always)]
    pub fn push(&mut self, value: u64, len: u32) {
        debug_assert!(len == 64 || value >> len == 0);
        self.acc |= value << self.fill;
        let total = self.fill + len;
        if total >= 64 {
            self.words.push(self.acc);
            // The bits of `value` that did not fit (none when fill was 0).
            self.acc = if self.fill == 0 {
                0
            } else {
                value >> (64 - self.fill)
            };
            self.fill = total - 64;
        } else {
            self.fill = total;
        }
    }

    /// Append all of `other`'s bits.
    pub fn append(&mut self, other: &Bits) {
        for &w in &other.words {
            self.push(w, 64);
        }
        self.push(other.acc, other.fill);
    }

    pub fn len_bits(&self) -> u64 {
        self.words.len() as u64 * 64 + self.fill as u64
    }

    /// Pad to a whole byte and append the bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.reserve(self.words.len() * 8 + 8);
        for w in &self.words {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let tail = self.fill.div_ceil(8) as usize;
        out.extend_from_slice(&self.acc.to_le_bytes()[..tail]);
    }
}

/// Length symbol (257…285), extra-bit count and base length of each of the
/// 29 length codes (RFC 1951 §3.2.5).
const LENGTH_CODES: [(u8, u16); 29] = [
    (0, 3),
    (0, 4),
    (0, 5),
    (0, 6),
    (0, 7),
    (0, 8),
    (0, 9),
    (0, 10),
    (1, 11),
    (1, 13),
    (1, 15),
    (1, 17),
    (2, 19),
    (2, 23),
    (2, 27),
    (2, 31),
    (3, 35),
    (3, 43),
    (3, 51),
    (3, 59),
    (4, 67),
    (4, 83),
    (4, 99),
    (4, 115),
    (5, 131),
    (5, 163),
    (5, 195),
    (5, 227),
    (0, 258),
];

/// The length code (index into [`LENGTH_CODES`]) of a copy of `len` bytes.
fn length_code(len: usize) -> usize {
    debug_assert!((3..=MAX_COPY).contains(&len));
    if len == MAX_COPY {
        return 28;
    }
    // The last code whose base is not above `len`.
    LENGTH_CODES[..28]
        .iter()
        .rposition(|&(_, base)| base as usize <= len)
        .expect("3 is the smallest base")
}

/// What the symbols of some data go to.
trait Symbols {
    fn literal(&mut self, byte: u8);
    /// Eight non-zero literals, the bytes of `word` in little-endian order.
    fn literals8(&mut self, word: u64) {
        for b in word.to_le_bytes() {
            self.literal(b);
        }
    }
    /// A copy of `len` bytes (3…258) at distance 1.
    fn copy(&mut self, len: usize);
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each zero byte of `w` (and no other bits).
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // A byte's high bit is set when its low 7 bits are non-zero (the add
    // carries) or the byte itself has it: neither is a zero byte.
    !(((w & LOW7) + LOW7) | w | LOW7)
}

/// Walk `data` as deflate symbols: literals, and zero runs as a literal 0
/// plus copies at distance 1.
#[inline(always)]
fn tokens(data: &[u8], out: &mut impl Symbols) {
    let mut i = 0;
    while i < data.len() {
        if let Some(word) = data.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            let zeros = zero_bytes(w);
            if zeros == 0 {
                out.literals8(w);
                i += 8;
                continue;
            }
            // The non-zero bytes before the first zero.
            let k = (zeros.trailing_zeros() / 8) as usize;
            for &b in &word[..k] {
                out.literal(b);
            }
            i += k;
            // A short zero run that ends inside this word: literals.
            let later_nonzero = (!zeros & HIGH_BITS) >> (8 * k);
            if later_nonzero != 0 {
                let run = (later_nonzero.trailing_zeros() / 8) as usize;
                if run < MIN_RUN {
                    for _ in 0..run {
                        out.literal(0);
                    }
                    i += run;
                    continue;
                }
            }
        } else if data[i] != 0 {
            out.literal(data[i]);
            i += 1;
            continue;
        }
        // data[i] is zero.
        let run = zero_run(&data[i..]);
        i += run;
        if run < MIN_RUN {
            for _ in 0..run {
                out.literal(0);
            }
            continue;
        }
        out.literal(0);
        let mut rest = run - 1;
        while rest >= MAX_COPY {
            out.copy(MAX_COPY);
            rest -= MAX_COPY;
        }
        if rest >= 3 {
            out.copy(rest);
        } else {
            for _ in 0..rest {
                out.literal(0);
            }
        }
    }
}

/// How many zero bytes `data` starts with.
#[inline(always)]
fn zero_run(data: &[u8]) -> usize {
    // 32 bytes at a time through long runs, then word by word.
    let mut n = 0;
    for block in data.chunks_exact(32) {
        let word = |k: usize| u64::from_le_bytes(block[k..k + 8].try_into().expect("8 bytes"));
        if word(0) | word(8) | word(16) | word(24) != 0 {
            break;
        }
        n += 32;
    }
    let data = &data[n..];
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        if w != 0 {
            return n + (w.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + words.remainder().iter().take_while(|&&b| b == 0).count()
}

/// How often each literal and each copy length occurs in some filtered
/// bytes (a sample of a frame's rows).
#[derive(Clone)]
pub struct Histogram {
    literals: [u32; 256],
    copies: [u32; MAX_COPY + 1],
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            literals: [0; 256],
            copies: [0; MAX_COPY + 1],
        }
    }
}

impl Symbols for Histogram {
    #[inline(always)]
    fn literal(&mut self, byte: u8) {
        self.literals[byte as usize] += 1;
    }
    #[inline(always)]
    fn copy(&mut self, len: usize) {
        self.copies[len] += 1;
    }
}

impl Histogram {
    /// Count the symbols of `data`.
    pub fn count(&mut self, data: &[u8]) {
        tokens(data, self);
    }

    pub fn add(&mut self, other: &Histogram) {
        for (a, b) in self.literals.iter_mut().zip(&other.literals) {
            *a += b;
        }
        for (a, b) in self.copies.iter_mut().zip(&other.copies) {
            *a += b;
        }
    }

    /// Counts per literal/length symbol.
    fn symbols(&self) -> [u64; LITLEN_SYMBOLS] {
        let mut counts = [0u64; LITLEN_SYMBOLS];
        for (c, &n) in counts.iter_mut().zip(&self.literals) {
            *c = n as u64;
        }
        for (len, &n) in self.copies.iter().enumerate().skip(3) {
            counts[257 + length_code(len)] += n as u64;
        }
        counts
    }
}

/// Code lengths of a prefix code for `freq` with no code longer than
/// `limit` bits: Huffman's construction, and when that is too deep, again
/// on counts halved (rounding up, so a used symbol stays used) until it
/// fits. Unused symbols get length 0; when fewer than two symbols are used,
/// symbols 0 and 1 are given one-bit codes so the code is complete.
fn code_lengths(freq: &[u64], limit: u8) -> Vec<u8> {
    let mut freq = freq.to_vec();
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    let mut lengths = vec![0u8; freq.len()];
    if used.len() < 2 {
        // The used symbol (if any) and the first unused of 0 and 1.
        let mut pair = used.clone();
        for s in [0, 1] {
            if pair.len() < 2 && !pair.contains(&s) {
                pair.push(s);
            }
        }
        for s in pair {
            lengths[s] = 1;
        }
        return lengths;
    }
    loop {
        // Leaves in order of (count, symbol); internal nodes come out of
        // the merge in non-decreasing weight, so two queues suffice.
        let mut leaves: Vec<(u64, usize)> = used.iter().map(|&s| (freq[s], s)).collect();
        leaves.sort_unstable();
        let n = leaves.len();
        // Nodes 0..n are the leaves in sorted order, n.. the internal ones.
        let mut weight: Vec<u64> = leaves.iter().map(|l| l.0).collect();
        let mut parent = vec![usize::MAX; 2 * n - 1];
        let (mut next_leaf, mut next_inner) = (0, n);
        for node in n..2 * n - 1 {
            let mut pick = || {
                let leaf_ok = next_leaf < n;
                let inner_ok = next_inner < node;
                if leaf_ok && (!inner_ok || weight[next_leaf] <= weight[next_inner]) {
                    next_leaf += 1;
                    next_leaf - 1
                } else {
                    next_inner += 1;
                    next_inner - 1
                }
            };
            let (a, b) = (pick(), pick());
            weight.push(weight[a] + weight[b]);
            parent[a] = node;
            parent[b] = node;
        }
        // Depths from the root (the last node) down: parents come later.
        let mut depth = vec![0u8; 2 * n - 1];
        for node in (0..2 * n - 2).rev() {
            depth[node] = depth[parent[node]] + 1;
        }
        let deepest = depth[..n].iter().copied().max().unwrap_or(0);
        if deepest <= limit {
            for (i, &(_, s)) in leaves.iter().enumerate() {
                lengths[s] = depth[i];
            }
            return lengths;
        }
        for &s in &used {
            freq[s] = freq[s].div_ceil(2);
        }
    }
}

/// Canonical codes for `lengths` (RFC 1951 §3.2.2), bit-reversed so they
/// can be written least significant bit first.
fn canonical_codes(lengths: &[u8]) -> Vec<u16> {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// One frame's dynamic-Huffman block: its header and the bit patterns of
/// every literal and every copy length (with its extra bits and the
/// distance code).
pub struct Table {
    header: Bits,
    /// Bit pattern and length of each literal byte.
    literal: [(u32, u32); 256],
    /// Bit pattern and length of a whole copy of each length 3…258.
    copy: [(u32, u32); MAX_COPY + 1],
    end: (u32, u32),
    lengths: Vec<u8>,
}

/// Order in which the code-length code's lengths are sent (§3.2.7).
const CLEN_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

impl Table {
    /// The table for data whose symbols occur about as in `hist`. Every
    /// symbol gets a code (one more than its count), so the table codes any
    /// data, also symbols the sample missed.
    pub fn new(hist: &Histogram) -> Table {
        let mut freq = hist.symbols();
        for f in &mut freq {
            *f += 1;
        }
        let lengths = code_lengths(&freq, 15);
        let codes = canonical_codes(&lengths);
        // Distance code: symbols 0 (distance 1) and 1, one bit each.
        let dist_lengths = [1u8, 1];
        let dist_code = 0u32;

        let mut literal = [(0u32, 0u32); 256];
        for (b, slot) in literal.iter_mut().enumerate() {
            *slot = (codes[b] as u32, lengths[b] as u32);
        }
        let mut copy = [(0u32, 0u32); MAX_COPY + 1];
        for (len, slot) in copy.iter_mut().enumerate().skip(3) {
            let lc = length_code(len);
            let sym = 257 + lc;
            let (extra_bits, base) = LENGTH_CODES[lc];
            let (code, code_len) = (codes[sym] as u32, lengths[sym] as u32);
            if code_len == 0 {
                continue; // never used in this frame
            }
            let extra = (len - base as usize) as u32;
            let mut bits = code | extra << code_len;
            let mut n = code_len + extra_bits as u32;
            bits |= dist_code << n;
            n += dist_lengths[0] as u32;
            *slot = (bits, n);
        }
        let end = (codes[END_OF_BLOCK] as u32, lengths[END_OF_BLOCK] as u32);

        // The header: last block, dynamic codes, then the code lengths.
        let nlit = 257.max(lengths.iter().rposition(|&l| l > 0).unwrap_or(0) + 1);
        let mut seq: Vec<u8> = lengths[..nlit].to_vec();
        seq.extend_from_slice(&dist_lengths);
        let runs = run_length_code(&seq);
        let mut clen_freq = [0u64; 19];
        for &(sym, _, _) in &runs {
            clen_freq[sym as usize] += 1;
        }
        let clen_lengths = code_lengths(&clen_freq, 7);
        let clen_codes = canonical_codes(&clen_lengths);
        let nclen = 4.max(
            CLEN_ORDER
                .iter()
                .rposition(|&s| clen_lengths[s] > 0)
                .map_or(0, |i| i + 1),
        );
        let mut header = Bits::default();
        header.push(1, 1); // BFINAL
        header.push(2, 2); // BTYPE = dynamic Huffman
        header.push((nlit - 257) as u64, 5);
        header.push((dist_lengths.len() - 1) as u64, 5);
        header.push((nclen - 4) as u64, 4);
        for &s in &CLEN_ORDER[..nclen] {
            header.push(clen_lengths[s] as u64, 3);
        }
        for (sym, extra, extra_bits) in runs {
            let s = sym as usize;
            header.push(clen_codes[s] as u64, clen_lengths[s] as u32);
            header.push(extra as u64, extra_bits as u32);
        }
        Table {
            header,
            literal,
            copy,
            end,
            lengths,
        }
    }

    /// The bits data with counts `hist` takes, header and end of block
    /// excluded.
    pub fn data_bits(&self, hist: &Histogram) -> u64 {
        let counts = hist.symbols();
        let mut bits = 0;
        for (b, &n) in counts[..256].iter().enumerate() {
            bits += n * self.literal[b].1 as u64;
        }
        for (lc, &(extra, _)) in LENGTH_CODES.iter().enumerate() {
            // Code, extra bits and the one-bit distance.
            bits += counts[257 + lc] * (self.lengths[257 + lc] as u64 + extra as u64 + 1);
        }
        bits
    }

    /// Header plus end-of-block code, in bits.
    pub fn frame_bits(&self) -> u64 {
        self.header.len_bits() + self.end.1 as u64
    }

    pub fn header(&self) -> &Bits {
        &self.header
    }

    /// Code `data` (whose symbols this table was built for) into bits.
    pub fn encode(&self, data: &[u8]) -> Bits {
        struct Coder<'a> {
            table: &'a Table,
            out: Bits,
        }
        impl Symbols for Coder<'_> {
            #[inline(always)]
            fn literal(&mut self, byte: u8) {
                let (code, len) = self.table.literal[byte as usize];
                self.out.push(code as u64, len);
            }
            #[inline(always)]
            fn literals8(&mut self, word: u64) {
                // Four codes of at most 15 bits fit one push.
                for half in [word as u32, (word >> 32) as u32] {
                    let (mut bits, mut n) = (0u64, 0u32);
                    for b in half.to_le_bytes() {
                        let (code, len) = self.table.literal[b as usize];
                        bits |= (code as u64) << n;
                        n += len;
                    }
                    self.out.push(bits, n);
                }
            }
            #[inline(always)]
            fn copy(&mut self, len: usize) {
                let (code, n) = self.table.copy[len];
                self.out.push(code as u64, n);
            }
        }
        let mut coder = Coder {
            table: self,
            out: Bits::with_capacity(data.len() / 4),
        };
        tokens(data, &mut coder);
        coder.out
    }

    /// Write the end-of-block code.
    pub fn end(&self, out: &mut Bits) {
        out.push(self.end.0 as u64, self.end.1);
    }
}

/// Code lengths as code-length symbols (§3.2.7): (symbol, extra value,
/// extra bit count), zero runs with 17/18 and repeats with 16.
fn run_length_code(seq: &[u8]) -> Vec<(u8, u8, u8)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < seq.len() {
        let v = seq[i];
        let run = seq[i..].iter().take_while(|&&l| l == v).count();
        i += run;
        let mut rest = run;
        if v == 0 {
            while rest >= 11 {
                let n = rest.min(138);
                out.push((18, (n - 11) as u8, 7));
                rest -= n;
            }
            if rest >= 3 {
                out.push((17, (rest - 3) as u8, 3));
                rest = 0;
            }
        } else {
            out.push((v, 0, 0));
            rest -= 1;
            while rest >= 3 {
                let n = rest.min(6);
                out.push((16, (n - 3) as u8, 2));
                rest -= n;
            }
        }
        out.extend(std::iter::repeat_n((v, 0, 0), rest));
    }
    out
}

/// Adler-32 of `data` (the zlib checksum).
pub fn adler32(data: &[u8]) -> u32 {
    let mut sum = simd_adler32::Adler32::new();
    sum.write(data);
    sum.finish()
}

/// Adler-32 of two byte strings one after the other, from the checksum
/// of each and the length of the second (RFC 1950: the sum `a` starts at 1,
/// `b` adds `a` after every byte).
pub fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    const MOD: u64 = 65521;
    let (a1, b1) = ((first & 0xffff) as u64, (first >> 16) as u64);
    let (a2, b2) = ((second & 0xffff) as u64, (second >> 16) as u64);
    // Over the second string, every `a` is larger by `a1 - 1` than when it
    // starts at 1, and `b` adds `a` once per byte.
    let a = (a1 + a2 + MOD - 1) % MOD;
    let n = second_len as u64 % MOD;
    let b = (b1 + b2 + n * ((a1 + MOD - 1) % MOD)) % MOD;
    ((b << 16) | a) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_codes_cover_every_copy_length() {
        for len in 3..=MAX_COPY {
            let (extra, base) = LENGTH_CODES[length_code(len)];
            assert!(len >= base as usize && len - (base as usize) < 1 << extra);
        }
        assert_eq!(length_code(3), 0);
        assert_eq!(length_code(10), 7);
        assert_eq!(length_code(11), 8);
        assert_eq!(length_code(257), 27);
        assert_eq!(length_code(258), 28);
    }

    /// Kraft's sum of a code's lengths, scaled to 2^15: exactly 2^15 for a
    /// complete prefix code.
    fn kraft(lengths: &[u8]) -> u32 {
        lengths
            .iter()
            .filter(|&&l| l > 0)
            .map(|&l| 1u32 << (15 - l))
            .sum()
    }

    #[test]
    fn code_lengths_are_complete_and_limited() {
        // Fibonacci counts make Huffman's tree as deep as it gets.
        let mut fib = vec![1u64, 1];
        while fib.len() < 40 {
            let n = fib.len();
            fib.push(fib[n - 1] + fib[n - 2]);
        }
        let lengths = code_lengths(&fib, 15);
        assert_eq!(*lengths.iter().max().unwrap(), 15);
        assert_eq!(kraft(&lengths), 1 << 15);
        // Without a limit the rarest symbols would be 39 deep; frequent
        // ones stay short.
        assert!(lengths[39] <= 2, "{lengths:?}");
        let short = code_lengths(&fib[..19], 7);
        assert!(*short.iter().max().unwrap() <= 7);
        assert_eq!(kraft(&short), 1 << 15);
        // One used symbol (or none) still gets a complete two-code table.
        for counts in [vec![0, 0, 5, 0], vec![0, 0, 0, 0], vec![3, 0, 0, 0]] {
            let l = code_lengths(&counts, 15);
            assert_eq!(kraft(&l), 1 << 15, "{counts:?} → {l:?}");
            for (s, &c) in counts.iter().enumerate() {
                assert!(c == 0 || l[s] > 0);
            }
        }
    }

    #[test]
    fn canonical_codes_follow_the_rfc_example() {
        // RFC 1951 §3.2.2: lengths (3,3,3,3,3,2,4,4) give codes 010, 011,
        // 100, 101, 110, 00, 1110, 1111 (written here bit-reversed).
        let codes = canonical_codes(&[3, 3, 3, 3, 3, 2, 4, 4]);
        let want = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111];
        let lens = [3, 3, 3, 3, 3, 2, 4, 4];
        for i in 0..8 {
            assert_eq!(codes[i], (want[i] as u16).reverse_bits() >> (16 - lens[i]));
        }
    }

    #[test]
    fn bits_append_at_any_offset() {
        let mut a = Bits::default();
        a.push(0b101, 3);
        let mut b = Bits::default();
        for i in 0..40u64 {
            b.push(i & 0x7fff, 15);
        }
        a.append(&b);
        a.push(1, 1);
        let mut direct = Bits::default();
        direct.push(0b101, 3);
        for i in 0..40u64 {
            direct.push(i & 0x7fff, 15);
        }
        direct.push(1, 1);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        a.write_to(&mut x);
        direct.write_to(&mut y);
        assert_eq!(x, y);
        assert_eq!(a.len_bits(), 3 + 40 * 15 + 1);
        assert_eq!(x.len(), (604usize).div_ceil(8));
    }

    #[test]
    fn adler32_combines_like_one_pass() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7919 % 251) as u8).collect();
        // RFC 1950's definition, byte by byte.
        let (mut a, mut b) = (1u32, 0u32);
        for &x in &data {
            a = (a + x as u32) % 65521;
            b = (b + a) % 65521;
        }
        let whole = adler32(&data);
        assert_eq!(whole, (b << 16) | a);
        for cut in [0, 1, 5552, 65521, 100_000, 200_000] {
            let (x, y) = data.split_at(cut);
            let (a, b) = (adler32(x), adler32(y));
            assert_eq!(adler32_combine(a, b, y.len()), whole, "cut at {cut}");
        }
    }

    #[test]
    fn zero_runs_and_literals_are_tokenised() {
        let mut data = vec![5u8, 0, 0, 0, 9];
        data.extend(std::iter::repeat_n(0, 600));
        data.push(1);
        #[derive(Default)]
        /// Literals, copy lengths, and the order (true = a copy).
        struct Log(Vec<u8>, Vec<usize>, Vec<bool>);
        impl Symbols for Log {
            fn literal(&mut self, byte: u8) {
                self.0.push(byte);
                self.2.push(false);
            }
            fn copy(&mut self, len: usize) {
                self.1.push(len);
                self.2.push(true);
            }
        }
        let mut log = Log::default();
        tokens(&data, &mut log);
        let (lits, copies) = (log.0.clone(), log.1.clone());
        // A run of 3 stays literal; 600 zeros are 0 + 258 + 258 + 83.
        assert_eq!(lits, vec![5, 0, 0, 0, 9, 0, 1]);
        assert_eq!(copies, vec![258, 258, 83]);
        assert_eq!(zero_run(&[0; 17]), 17);
        assert_eq!(zero_run(&[0; 100]), 100);
        let mut long = [0u8; 77];
        long[70] = 1;
        assert_eq!(zero_run(&long), 70);
        for w in [
            0u64,
            1,
            0x0100,
            0x8000_0000_0000_0000,
            0x0080_ff01_0000_7f00,
        ] {
            let want = w
                .to_le_bytes()
                .iter()
                .enumerate()
                .map(|(i, &b)| ((b == 0) as u64) << (8 * i + 7))
                .sum::<u64>();
            assert_eq!(zero_bytes(w), want, "{w:#x}");
        }
        // Replaying the symbols (a copy repeats the byte before it) gives
        // back the data, whatever mix of zero runs and literals it holds.
        let mut rng = crate::Rng::new(4, 4);
        for _ in 0..200 {
            // Zero bytes from none to most of them; non-zero ones random.
            let (n, zeros) = (rng.index(300), rng.index(5));
            let data: Vec<u8> = (0..n)
                .map(|_| match rng.index(4) < zeros {
                    true => 0,
                    false => 1 + rng.index(255) as u8,
                })
                .collect();
            let mut log = Log::default();
            tokens(&data, &mut log);
            let mut back = Vec::new();
            let (mut lits, mut copies) = (log.0.iter(), log.1.iter());
            for kind in &log.2 {
                if *kind {
                    let len = *copies.next().unwrap();
                    assert_eq!(back.last(), Some(&0));
                    back.extend(std::iter::repeat_n(0, len));
                } else {
                    back.push(*lits.next().unwrap());
                }
            }
            assert_eq!(back, data);
        }
        assert_eq!(zero_run(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 3]), 9);
    }
}
