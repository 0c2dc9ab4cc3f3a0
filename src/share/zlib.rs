//! zlib (RFC 1950) around deflate (RFC 1951), written for share links: [`compress`] makes the
//! stream a link carries and [`decompress`] reads any valid one back, also those that other
//! zlib writers made (the links Rowkey wrote before this module, with miniz_oxide at level 9).
//!
//! The compressor finds matches over deflate's 32 KB window through chains of positions hashed
//! by their first three bytes, defers a match by one byte when the next one is longer (zlib's
//! lazy matching), and writes each block of up to 16,384 symbols in whichever of deflate's
//! three forms is smallest: its own Huffman codes (limited to 15 bits, the code lengths' code
//! to 7), the fixed codes, or the bytes stored. Its output depends on the input only. Besides
//! the output it allocates the hash chains (256 KB) and one block's symbols (64 KB).
//!
//! The decompressor decodes codes bit by bit against their canonical counts (small, and fast
//! enough for a link), checks the header, every code's lengths
//! and the Adler-32, and refuses to write past a limit: a damaged or crafted stream is an
//! [`enum@Error`], never a panic nor more output than the limit (the output grows as a vector
//! does, so its allocation stays below twice the limit).

use thiserror::Error;

/// Why bytes are not a zlib stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Error {
    /// The first two bytes are not a zlib header of deflate (method 8, a window of at most
    /// 32 KB, a header check divisible by 31).
    #[error("not a zlib header")]
    Header,
    /// The header asks for a preset dictionary, which no share link has.
    #[error("the stream needs a preset dictionary")]
    Dictionary,
    /// The stream ends before its last block or its checksum.
    #[error("the stream is cut short")]
    Truncated,
    /// A block of the reserved type 3.
    #[error("a block of an unknown type")]
    BlockType,
    /// A stored block whose length and its complement disagree.
    #[error("a stored block's length does not check out")]
    StoredLength,
    /// A dynamic block's code lengths are not a table: too many codes, a repeat with nothing
    /// before it or past the end, or no end-of-block code.
    #[error("a block's code lengths are not valid")]
    CodeLengths,
    /// A dynamic block's code has more codes of some length than the lengths leave room for.
    #[error("a block's code is over-subscribed")]
    OverSubscribed,
    /// A dynamic block's code leaves codes unused (only a code of a single symbol may).
    #[error("a block's code is incomplete")]
    Incomplete,
    /// A code no table assigns, or a length or distance symbol deflate does not define.
    #[error("a code no table holds")]
    InvalidCode,
    /// A match reaching back before the start of the output.
    #[error("a distance reaches before the start")]
    Distance,
    /// The output would pass the limit given.
    #[error("the contents are larger than {0} bytes")]
    TooLarge(usize),
    /// The Adler-32 of the output is not the one the stream carries.
    #[error("the checksum does not match")]
    Checksum,
    /// Bytes follow the stream's checksum.
    #[error("bytes follow the stream")]
    TrailingData,
}

/// The distance a match may reach back: deflate's window.
const WINDOW: usize = 32 * 1024;

/// The shortest and longest match deflate codes.
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;

/// How many earlier positions of the same hash a match search looks at, at most.
const MAX_CHAIN: usize = 1024;

/// A match of three bytes this far back costs more than its three literals (zlib's `TOO_FAR`).
const TOO_FAR: usize = 4096;

/// The hash table's size, as a power of two.
const HASH_BITS: u32 = 15;

/// The symbols (literals and matches) one block holds at most.
const BLOCK_SYMBOLS: usize = 16 * 1024;

/// Each length code's (257 + index) base length and its extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];

/// Each distance code's base distance and its extra bits.
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// The order in which a dynamic block gives the code-length code's lengths.
const CL_ORDER: [u8; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Literal and length symbols (256 ends a block), distance symbols, code-length symbols.
const LIT_CODES: usize = 286;
const DIST_CODES: usize = 30;
const CL_CODES: usize = 19;

/// The Adler-32 of `data` (RFC 1950): two sums modulo 65521, reduced every 5552 bytes, before
/// they can overflow.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// The code for `value` in a table of bases: the last base not above it.
fn code_of(bases: &[u16], value: usize) -> usize {
    let mut c = bases.len() - 1;
    while usize::from(bases[c]) > value {
        c -= 1;
    }
    c
}

/// The fixed codes' lengths: literals and lengths (288), then distances (30).
fn fixed_lengths() -> [u8; 288 + DIST_CODES] {
    let mut l = [5u8; 288 + DIST_CODES];
    for (i, x) in l[..288].iter_mut().enumerate() {
        *x = match i {
            0..=143 => 8,
            144..=255 => 9,
            256..=279 => 7,
            _ => 8,
        };
    }
    l
}

// ---------------------------------------------------------------------------------------------
// Compression

/// `data` as a zlib stream.
pub fn compress(data: &[u8]) -> Vec<u8> {
    // 0x78: deflate, a 32 KB window; 0xDA: the most compression, no dictionary (checked by 31).
    let mut w = BitWriter {
        out: vec![0x78, 0xDA],
        bits: 0,
        count: 0,
    };
    // The hash chains: each hash's latest position + 1, then each window slot's previous
    // position + 1 of the same hash (0: none).
    let mut chains = vec![0u32; (1 << HASH_BITS) + WINDOW];
    let mut symbols: Vec<u32> = Vec::with_capacity(BLOCK_SYMBOLS);
    let n = data.len();
    let mut block_start = 0;
    let mut i = 0;
    // A match found at `i - 1`, waiting to see whether the one at `i` is longer.
    let mut pending = false;
    let (mut prev_len, mut prev_dist) = (0, 0);
    while i < n {
        let (len, dist) = longest_match(data, i, &chains);
        insert(data, i, &mut chains);
        if pending && prev_len >= MIN_MATCH && len <= prev_len {
            symbols.push(((prev_dist as u32) << 9) | prev_len as u32);
            for j in i + 1..i - 1 + prev_len {
                insert(data, j, &mut chains);
            }
            i += prev_len - 1;
            pending = false;
        } else {
            if pending {
                symbols.push(u32::from(data[i - 1]));
            }
            pending = true;
            (prev_len, prev_dist) = (len, dist);
            i += 1;
        }
        if symbols.len() >= BLOCK_SYMBOLS {
            // The block ends where its symbols end: before the pending byte, if there is one.
            let end = i - usize::from(pending);
            write_block(&mut w, &symbols, &data[block_start..end], false);
            symbols.clear();
            block_start = end;
        }
    }
    if pending {
        symbols.push(u32::from(data[n - 1]));
    }
    write_block(&mut w, &symbols, &data[block_start..], true);
    w.align();
    w.out.extend_from_slice(&adler32(data).to_be_bytes());
    w.out
}

/// The hash of the three bytes at `i` (there must be three).
fn hash(data: &[u8], i: usize) -> usize {
    let v = u32::from(data[i]) << 16 | u32::from(data[i + 1]) << 8 | u32::from(data[i + 2]);
    (v.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Enters position `i` at the head of its hash's chain.
fn insert(data: &[u8], i: usize, chains: &mut [u32]) {
    if i + MIN_MATCH <= data.len() {
        let h = hash(data, i);
        chains[(1 << HASH_BITS) + i % WINDOW] = chains[h];
        chains[h] = i as u32 + 1;
    }
}

/// The longest earlier match of the bytes at `i` within the window (length 0 when none of at
/// least three bytes is worth it), and its distance; the nearest of equal length.
fn longest_match(data: &[u8], i: usize, chains: &[u32]) -> (usize, usize) {
    if i + MIN_MATCH > data.len() {
        return (0, 0);
    }
    let max = (data.len() - i).min(MAX_MATCH);
    let (mut best, mut best_dist) = (0, 0);
    let mut next = chains[hash(data, i)] as usize;
    let mut chain = MAX_CHAIN;
    while next > 0 && chain > 0 {
        let cand = next - 1;
        if i - cand > WINDOW {
            break;
        }
        if data[cand + best] == data[i + best] {
            let mut len = 0;
            while len < max && data[cand + len] == data[i + len] {
                len += 1;
            }
            if len > best {
                (best, best_dist) = (len, i - cand);
                if len == max {
                    break;
                }
            }
        }
        next = chains[(1 << HASH_BITS) + cand % WINDOW] as usize;
        // Positions go back along a chain; a slot overwritten since would not.
        if next > cand {
            break;
        }
        chain -= 1;
    }
    if best < MIN_MATCH || (best == MIN_MATCH && best_dist > TOO_FAR) {
        return (0, 0);
    }
    (best, best_dist)
}

/// Bits written least significant first, as deflate packs them.
struct BitWriter {
    out: Vec<u8>,
    bits: u64,
    count: u32,
}

impl BitWriter {
    /// Writes the low `n` bits of `value` (at most 32).
    fn put(&mut self, value: u32, n: u32) {
        self.bits |= u64::from(value) << self.count;
        self.count += n;
        while self.count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count -= 8;
        }
    }

    /// Pads to a whole byte with zero bits.
    fn align(&mut self) {
        if self.count > 0 {
            self.put(0, 8 - self.count);
        }
    }

    /// Writes a Huffman code: `len` bits of `code`, most significant first.
    fn code(&mut self, code: u16, len: u8) {
        let reversed = u32::from(code.reverse_bits()) >> (16 - u32::from(len));
        self.put(reversed, u32::from(len));
    }
}

/// The canonical codes of `lengths` (RFC 1951, 3.2.2).
fn canonical(lengths: &[u8], codes: &mut [u16]) {
    let mut count = [0u16; 16];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for len in 1..16 {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (l, c) in lengths.iter().zip(codes.iter_mut()) {
        if *l > 0 {
            *c = next[usize::from(*l)];
            next[usize::from(*l)] += 1;
        }
    }
}

/// Huffman code lengths for `freq`, none longer than `limit`: a Huffman tree built by joining
/// the two lightest nodes (the lower index first on a tie), its frequencies flattened and the
/// tree built again while it is too deep. A code gets at least two symbols (deflate's decoders
/// differ on codes of one), taken from the front when fewer are used.
fn code_lengths(freq: &[u32], limit: u8, lengths: &mut [u8]) {
    const MAX: usize = 2 * LIT_CODES;
    let n = freq.len();
    let mut shift = 0;
    loop {
        let mut weight = [u32::MAX; MAX];
        let mut parent = [0u16; MAX];
        let mut live = 0;
        for (s, &f) in freq.iter().enumerate() {
            if f > 0 {
                weight[s] = (f >> shift) | 1;
                live += 1;
            }
        }
        lengths.fill(0);
        if live < 2 {
            // The used symbol, if any, and the first others: two codes of one bit.
            for (s, &f) in freq.iter().enumerate() {
                if f > 0 || live < 2 {
                    if f == 0 {
                        live += 1;
                    }
                    lengths[s] = 1;
                }
            }
            return;
        }
        let mut nodes = n;
        while live > 1 {
            let (mut a, mut b) = (usize::MAX, usize::MAX);
            for j in 0..nodes {
                if weight[j] == u32::MAX {
                    continue;
                }
                if a == usize::MAX || weight[j] < weight[a] {
                    (a, b) = (j, a);
                } else if b == usize::MAX || weight[j] < weight[b] {
                    b = j;
                }
            }
            weight[nodes] = weight[a] + weight[b];
            parent[a] = nodes as u16;
            parent[b] = nodes as u16;
            weight[a] = u32::MAX;
            weight[b] = u32::MAX;
            nodes += 1;
            live -= 1;
        }
        let root = nodes - 1;
        let mut fits = true;
        for s in 0..n {
            if freq[s] > 0 {
                let (mut j, mut depth) = (s, 0u32);
                while j != root {
                    j = usize::from(parent[j]);
                    depth += 1;
                }
                fits &= depth <= u32::from(limit);
                lengths[s] = depth.min(15) as u8;
            }
        }
        if fits {
            return;
        }
        shift += 1;
    }
}

/// A block's symbols counted: literals and lengths, distances.
fn frequencies(symbols: &[u32]) -> ([u32; LIT_CODES], [u32; DIST_CODES]) {
    let mut lit = [0u32; LIT_CODES];
    let mut dist = [0u32; DIST_CODES];
    for &s in symbols {
        let d = (s >> 9) as usize;
        if d == 0 {
            lit[s as usize] += 1;
        } else {
            lit[257 + code_of(&LENGTH_BASE, (s & 511) as usize)] += 1;
            dist[code_of(&DIST_BASE, d)] += 1;
        }
    }
    lit[256] = 1;
    (lit, dist)
}

/// The bits of the symbols coded by `lengths` (literals and lengths, then 30 distances),
/// extra bits included.
fn data_bits(lit: &[u32], dist: &[u32], lengths: &[u8]) -> usize {
    let mut bits = 0;
    for (s, &f) in lit.iter().enumerate() {
        let extra = if s > 256 { LENGTH_EXTRA[s - 257] } else { 0 };
        bits += f as usize * usize::from(lengths[s] + extra);
    }
    for (s, &f) in dist.iter().enumerate() {
        bits += f as usize * usize::from(lengths[288 + s] + DIST_EXTRA[s]);
    }
    bits
}

/// A dynamic block's code lengths run-length coded (RFC 1951, 3.2.7): each entry a symbol of
/// the code-length alphabet and its extra value; returns how many entries.
fn run_lengths(lengths: &[u8], runs: &mut [(u8, u8)]) -> usize {
    let mut k = 0;
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let mut run = 1;
        while i + run < lengths.len() && lengths[i + run] == l {
            run += 1;
        }
        i += run;
        if l != 0 {
            runs[k] = (l, 0);
            k += 1;
            run -= 1;
        }
        while run >= 3 {
            let (sym, r) = match l {
                0 if run >= 11 => (18, run.min(138)),
                0 => (17, run.min(10)),
                _ => (16, run.min(6)),
            };
            let base = [3, 3, 11][usize::from(sym - 16)];
            runs[k] = (sym, (r - base) as u8);
            k += 1;
            run -= r;
        }
        for _ in 0..run {
            runs[k] = (l, 0);
            k += 1;
        }
    }
    k
}

/// Writes one block in whichever form is smallest; `raw` is the bytes its symbols stand for.
fn write_block(w: &mut BitWriter, symbols: &[u32], raw: &[u8], last: bool) {
    let (lit, dist) = frequencies(symbols);
    // The dynamic code: literals and lengths at 0..286, distances at 288..318 (as fixed).
    let mut dynamic = [0u8; 288 + DIST_CODES];
    code_lengths(&lit, 15, &mut dynamic[..LIT_CODES]);
    code_lengths(&dist, 15, &mut dynamic[288..]);
    let hlit = 257
        + dynamic[257..LIT_CODES]
            .iter()
            .rposition(|&l| l > 0)
            .map_or(0, |p| p + 1);
    let hdist = 1 + dynamic[289..]
        .iter()
        .rposition(|&l| l > 0)
        .map_or(0, |p| p + 1);
    let mut joined = [0u8; LIT_CODES + DIST_CODES];
    joined[..hlit].copy_from_slice(&dynamic[..hlit]);
    joined[hlit..hlit + hdist].copy_from_slice(&dynamic[288..288 + hdist]);
    let mut runs = [(0u8, 0u8); LIT_CODES + DIST_CODES];
    let nruns = run_lengths(&joined[..hlit + hdist], &mut runs);
    let mut cl_freq = [0u32; CL_CODES];
    for &(s, _) in &runs[..nruns] {
        cl_freq[usize::from(s)] += 1;
    }
    let mut cl_len = [0u8; CL_CODES];
    code_lengths(&cl_freq, 7, &mut cl_len);
    let hclen = 4 + CL_ORDER[4..]
        .iter()
        .rposition(|&s| cl_len[usize::from(s)] > 0)
        .map_or(0, |p| p + 1);
    let mut header_bits = 14 + 3 * hclen;
    for &(s, _) in &runs[..nruns] {
        header_bits +=
            usize::from(cl_len[usize::from(s)]) + [0, 2, 3, 7][usize::from(s.max(15) - 15)];
    }
    let fixed = fixed_lengths();
    let dynamic_bits = header_bits + data_bits(&lit, &dist, &dynamic);
    let fixed_bits = data_bits(&lit, &dist, &fixed);
    let chunks = raw.len().div_ceil(0xFFFF).max(1);
    let stored_bits = chunks * 40 + 8 * raw.len();
    if stored_bits < dynamic_bits.min(fixed_bits) {
        let mut rest = raw;
        for c in 0..chunks {
            let (part, next) = rest.split_at(rest.len().min(0xFFFF));
            w.put(u32::from(last && c + 1 == chunks), 3);
            w.align();
            let len = part.len() as u16;
            w.put(u32::from(len) | u32::from(!len) << 16, 32);
            w.out.extend_from_slice(part);
            rest = next;
        }
        return;
    }
    let lengths = if dynamic_bits < fixed_bits {
        w.put(u32::from(last) | 2 << 1, 3);
        w.put((hlit - 257) as u32, 5);
        w.put((hdist - 1) as u32, 5);
        w.put((hclen - 4) as u32, 4);
        for &s in &CL_ORDER[..hclen] {
            w.put(u32::from(cl_len[usize::from(s)]), 3);
        }
        let mut cl_code = [0u16; CL_CODES];
        canonical(&cl_len, &mut cl_code);
        for &(s, extra) in &runs[..nruns] {
            w.code(cl_code[usize::from(s)], cl_len[usize::from(s)]);
            if s >= 16 {
                w.put(u32::from(extra), [2, 3, 7][usize::from(s - 16)]);
            }
        }
        dynamic
    } else {
        w.put(u32::from(last) | 1 << 1, 3);
        fixed
    };
    let mut codes = [0u16; 288 + DIST_CODES];
    canonical(&lengths[..288], &mut codes[..288]);
    canonical(&lengths[288..], &mut codes[288..]);
    for &s in symbols {
        let d = (s >> 9) as usize;
        if d == 0 {
            w.code(codes[s as usize], lengths[s as usize]);
            continue;
        }
        let len = (s & 511) as usize;
        let lc = code_of(&LENGTH_BASE, len);
        w.code(codes[257 + lc], lengths[257 + lc]);
        w.put(
            (len - usize::from(LENGTH_BASE[lc])) as u32,
            u32::from(LENGTH_EXTRA[lc]),
        );
        let dc = code_of(&DIST_BASE, d);
        w.code(codes[288 + dc], lengths[288 + dc]);
        w.put(
            (d - usize::from(DIST_BASE[dc])) as u32,
            u32::from(DIST_EXTRA[dc]),
        );
    }
    w.code(codes[256], lengths[256]);
}

// ---------------------------------------------------------------------------------------------
// Decompression

/// The bytes of the zlib stream `data`, refusing any output past `limit` bytes.
pub fn decompress(data: &[u8], limit: usize) -> Result<Vec<u8>, Error> {
    let [cmf, flg, ..] = *data else {
        return Err(Error::Truncated);
    };
    if cmf & 0x0F != 8 || cmf >> 4 > 7 || (u16::from(cmf) << 8 | u16::from(flg)) % 31 != 0 {
        return Err(Error::Header);
    }
    if flg & 0x20 != 0 {
        return Err(Error::Dictionary);
    }
    let mut r = BitReader {
        data,
        pos: 2,
        bits: 0,
        count: 0,
    };
    let mut out = Vec::new();
    let mut lit = Huffman::new();
    let mut dist = Huffman::new();
    loop {
        let last = r.bits(1)?;
        match r.bits(2)? {
            0 => {
                r.bits = 0;
                r.count = 0;
                let len = r.bytes(2)?;
                if r.bytes(2)? != !len & 0xFFFF {
                    return Err(Error::StoredLength);
                }
                let len = len as usize;
                let part = data.get(r.pos..r.pos + len).ok_or(Error::Truncated)?;
                room(&out, len, limit)?;
                out.extend_from_slice(part);
                r.pos += len;
            }
            1 => {
                let fixed = fixed_lengths();
                lit.build(&fixed[..288]);
                dist.build(&fixed[288..]);
                inflate_block(&mut r, &mut out, &lit, &dist, limit)?;
            }
            2 => {
                read_codes(&mut r, &mut lit, &mut dist)?;
                inflate_block(&mut r, &mut out, &lit, &dist, limit)?;
            }
            _ => return Err(Error::BlockType),
        }
        if last == 1 {
            break;
        }
    }
    r.bits = 0;
    r.count = 0;
    if r.bytes(4)?.swap_bytes() != adler32(&out) {
        return Err(Error::Checksum);
    }
    if r.pos != data.len() {
        return Err(Error::TrailingData);
    }
    Ok(out)
}

/// An error unless `extra` more bytes keep the output within `limit`.
fn room(out: &[u8], extra: usize, limit: usize) -> Result<(), Error> {
    if out.len() + extra > limit {
        return Err(Error::TooLarge(limit));
    }
    Ok(())
}

/// Bits read least significant first, a byte at a time.
struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
    bits: u32,
    count: u32,
}

impl BitReader<'_> {
    /// The next `n` bits (at most 24).
    fn bits(&mut self, n: u32) -> Result<u32, Error> {
        while self.count < n {
            let byte = *self.data.get(self.pos).ok_or(Error::Truncated)?;
            self.bits |= u32::from(byte) << self.count;
            self.pos += 1;
            self.count += 8;
        }
        let value = self.bits & ((1 << n) - 1);
        self.bits >>= n;
        self.count -= n;
        Ok(value)
    }

    /// The next `n` whole bytes (at most 4), little-endian; the reader must be aligned.
    fn bytes(&mut self, n: usize) -> Result<u32, Error> {
        let part = self
            .data
            .get(self.pos..self.pos + n)
            .ok_or(Error::Truncated)?;
        self.pos += n;
        Ok(part.iter().rev().fold(0, |v, &b| v << 8 | u32::from(b)))
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
    count: [u16; 16],
    symbol: [u16; 288],
}

impl Huffman {
    fn new() -> Huffman {
        Huffman {
            count: [0; 16],
            symbol: [0; 288],
        }
    }

    /// The code of `lengths` (at most 288); how many codes of the longest length are left
    /// unused, negative when the lengths over-subscribe.
    fn build(&mut self, lengths: &[u8]) -> i32 {
        self.count = [0; 16];
        for &l in lengths {
            self.count[usize::from(l)] += 1;
        }
        let mut left = 1i32;
        for len in 1..16 {
            left = (left << 1) - i32::from(self.count[len]);
            if left < 0 {
                return left;
            }
        }
        let mut offset = [0u16; 16];
        for len in 1..15 {
            offset[len + 1] = offset[len] + self.count[len];
        }
        for (s, &l) in lengths.iter().enumerate() {
            if l > 0 {
                self.symbol[usize::from(offset[usize::from(l)])] = s as u16;
                offset[usize::from(l)] += 1;
            }
        }
        left
    }

    /// The code of `lengths`, which must be complete, or incomplete by a single code of one
    /// bit (or have no codes at all), as zlib allows.
    fn build_checked(&mut self, lengths: &[u8]) -> Result<(), Error> {
        let left = self.build(lengths);
        if left < 0 {
            return Err(Error::OverSubscribed);
        }
        if left > 0 && lengths.len() != usize::from(self.count[0] + self.count[1]) {
            return Err(Error::Incomplete);
        }
        Ok(())
    }

    /// The next symbol in `r`, read a bit at a time.
    fn decode(&self, r: &mut BitReader) -> Result<usize, Error> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= r.bits(1)? as i32;
            let count = i32::from(self.count[len]);
            if code - count < first {
                return Ok(usize::from(self.symbol[(index + code - first) as usize]));
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err(Error::InvalidCode)
    }
}

/// A dynamic block's codes, from its header.
fn read_codes(r: &mut BitReader, lit: &mut Huffman, dist: &mut Huffman) -> Result<(), Error> {
    let nlen = r.bits(5)? as usize + 257;
    let ndist = r.bits(5)? as usize + 1;
    let ncode = r.bits(4)? as usize + 4;
    if nlen > LIT_CODES || ndist > DIST_CODES {
        return Err(Error::CodeLengths);
    }
    let mut lengths = [0u8; LIT_CODES + DIST_CODES];
    for &s in &CL_ORDER[..ncode] {
        lengths[usize::from(s)] = r.bits(3)? as u8;
    }
    lit.build_checked(&lengths[..CL_CODES])?;
    let mut i = 0;
    while i < nlen + ndist {
        let sym = lit.decode(r)?;
        if sym < 16 {
            lengths[i] = sym as u8;
            i += 1;
            continue;
        }
        let (value, times) = match sym {
            16 if i == 0 => return Err(Error::CodeLengths),
            16 => (lengths[i - 1], 3 + r.bits(2)?),
            17 => (0, 3 + r.bits(3)?),
            _ => (0, 11 + r.bits(7)?),
        };
        let end = i + times as usize;
        if end > nlen + ndist {
            return Err(Error::CodeLengths);
        }
        lengths[i..end].fill(value);
        i = end;
    }
    if lengths[256] == 0 {
        return Err(Error::CodeLengths);
    }
    lit.build_checked(&lengths[..nlen])?;
    dist.build_checked(&lengths[nlen..nlen + ndist])
}

/// A Huffman-coded block's symbols, up to its end-of-block code, appended to `out`.
fn inflate_block(
    r: &mut BitReader,
    out: &mut Vec<u8>,
    lit: &Huffman,
    dist: &Huffman,
    limit: usize,
) -> Result<(), Error> {
    loop {
        let sym = lit.decode(r)?;
        if sym < 256 {
            room(out, 1, limit)?;
            out.push(sym as u8);
            continue;
        }
        if sym == 256 {
            return Ok(());
        }
        let lc = sym - 257;
        if lc >= LENGTH_BASE.len() {
            return Err(Error::InvalidCode);
        }
        let len = usize::from(LENGTH_BASE[lc]) + r.bits(u32::from(LENGTH_EXTRA[lc]))? as usize;
        let dc = dist.decode(r)?;
        if dc >= DIST_CODES {
            return Err(Error::InvalidCode);
        }
        let d = usize::from(DIST_BASE[dc]) + r.bits(u32::from(DIST_EXTRA[dc]))? as usize;
        if d > out.len() {
            return Err(Error::Distance);
        }
        room(out, len, limit)?;
        for _ in 0..len {
            out.push(out[out.len() - d]);
        }
    }
}
