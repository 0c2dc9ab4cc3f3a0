//! Share links' zlib (`share::zlib`, written in Rowkey): what it writes reads back and is read by
//! miniz_oxide (which wrote the links made before it); what miniz writes at every level (stored,
//! fixed and dynamic blocks) it reads; its output against miniz's level 9 on share links'
//! documents; and every kind of damaged stream an error of its own, never a panic.
use rowkey::designs;
use rowkey::dialect::{Dialect, HistoryLine};
use rowkey::kit::base64::{self, Alphabet};
use rowkey::kit::seeded::Gen;
use rowkey::share::zlib::{compress, decompress, Error};
use rowkey::share::{encode, ShareError, Shared};
use rowkey::simulate::gallery;

#[path = "common/words.rs"]
mod words;
use words::text;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const LIMIT: usize = 8 * 1024 * 1024;

/// `n` bytes of seeded noise.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut g = Gen::new(seed);
    (0..n).map(|_| g.next_u64() as u8).collect()
}

/// The deterministic inputs every round trip and cross-check runs on.
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let all: Vec<u8> = (0..=255u8).collect();
    vec![
        ("empty", Vec::new()),
        ("one byte", vec![b'x']),
        ("two bytes", b"ab".to_vec()),
        ("a run of 100,000", vec![b'a'; 100_000]),
        (
            "runs of each byte",
            (0..=255u8).flat_map(|b| vec![b; 300]).collect(),
        ),
        ("all 256 byte values", all.clone()),
        ("all 256 byte values 200 times", all.repeat(200)),
        ("1,000 random bytes", noise(1, 1_000)),
        ("200,000 random bytes", noise(2, 200_000)),
        (
            "text with random bytes",
            [text(3, 40_000), noise(4, 40_000), text(5, 40_000)].concat(),
        ),
        ("1 MB of text", text(6, 1 << 20)),
    ]
}

/// A share link's session for a gallery design: its id, its access patterns' commands (and
/// the first `setup_lines` lines of its setup script before them) and its workload.
fn session(design: &designs::Design, setup_lines: usize) -> Shared {
    let setup = design.setup_script();
    let mut entries: Vec<HistoryLine> = setup
        .lines()
        .take(setup_lines)
        .map(HistoryLine::hbase)
        .collect();
    entries.extend(
        design
            .patterns
            .iter()
            .map(|p| HistoryLine::hbase(p.command.clone())),
    );
    entries.push(HistoryLine {
        dialect: Dialect::Cbt,
        text: format!("count {}", design.tables.first().copied().unwrap_or("t")),
    });
    Shared {
        design: Some(design.id.to_string()),
        entries,
        workload: gallery::workload(design.id),
    }
}

/// The JSON a link carries, read back out of the link; `None` for a session too long for one.
fn link_json(shared: &Shared) -> Result<Option<Vec<u8>>, Box<dyn std::error::Error>> {
    let fragment = match encode(shared) {
        Ok(fragment) => fragment,
        Err(ShareError::TooLong { .. }) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let data = fragment.split_once('.').ok_or("no version")?.1;
    Ok(Some(decompress(
        &base64::decode(data, Alphabet::UrlNoPad)?,
        LIMIT,
    )?))
}

#[test]
fn every_input_round_trips() -> TestResult {
    for (name, data) in inputs() {
        let packed = compress(&data);
        assert_eq!(decompress(&packed, LIMIT)?, data, "{name}");
        // The output depends on the input only.
        assert_eq!(compress(&data), packed, "{name}");
    }
    Ok(())
}

#[test]
fn the_empty_input_is_a_fixed_block_of_end_of_block_alone() {
    // RFC 1950's header (deflate, 32 KB window, level 9: 0x78 0xDA), a final fixed block with
    // only its end code (3 + 7 bits), and the Adler-32 of nothing (1).
    assert_eq!(compress(b""), [0x78, 0xDA, 0x03, 0x00, 0, 0, 0, 1]);
}

#[test]
fn miniz_reads_what_compress_writes() -> TestResult {
    for (name, data) in inputs() {
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&compress(&data))
            .map_err(|e| format!("{name}: {e:?}"))?;
        assert_eq!(back, data, "{name}");
    }
    Ok(())
}

#[test]
fn decompress_reads_what_miniz_writes_at_every_level() -> TestResult {
    for (name, data) in inputs() {
        for level in [0, 1, 6, 9, 10] {
            let packed = miniz_oxide::deflate::compress_to_vec_zlib(&data, level);
            assert_eq!(decompress(&packed, LIMIT)?, data, "{name} at level {level}");
        }
    }
    Ok(())
}

#[test]
fn decompress_reads_what_zlib_itself_writes() -> TestResult {
    // tests/fixtures/zlib/make.py wrote these with zlib 1.2.13, from this text.
    let text: String = (0..100)
        .map(|i| {
            format!(
                "put 'users', 'u{i:05}', 'info:name', 'name {}'\n",
                i * 7 % 100
            )
        })
        .collect();
    let streams: [(&str, &[u8]); 8] = [
        ("level 6", include_bytes!("fixtures/zlib/level-6.zz")),
        (
            "a 512-byte window",
            include_bytes!("fixtures/zlib/window-512.zz"),
        ),
        (
            "a 4 KB window, level 1",
            include_bytes!("fixtures/zlib/window-4k-level-1.zz"),
        ),
        ("fixed codes only", include_bytes!("fixtures/zlib/fixed.zz")),
        (
            "Huffman codes only",
            include_bytes!("fixtures/zlib/huffman-only.zz"),
        ),
        (
            "run-length matches only",
            include_bytes!("fixtures/zlib/rle.zz"),
        ),
        ("stored", include_bytes!("fixtures/zlib/stored.zz")),
        (
            "a sync and a full flush midway",
            include_bytes!("fixtures/zlib/flushes.zz"),
        ),
    ];
    for (name, stream) in streams {
        assert_eq!(decompress(stream, LIMIT)?, text.as_bytes(), "{name}");
    }
    Ok(())
}

#[test]
fn random_bytes_are_stored_and_text_coded() {
    // Noise does not compress: each block of 16,384 symbols (one a byte, without matches) is
    // stored, for 5 bytes more (13 blocks), besides the header and the checksum.
    let packed = compress(&noise(2, 200_000)).len();
    let miniz = miniz_oxide::deflate::compress_to_vec_zlib(&noise(2, 200_000), 9).len();
    println!("200,000 random bytes: ours {packed} bytes, miniz 9 {miniz} bytes");
    assert_eq!(packed, 2 + 200_000 + 13 * 5 + 4);
    // 1 MB of words from sixteen compresses to about a fifth.
    let packed = compress(&text(6, 1 << 20)).len();
    let miniz = miniz_oxide::deflate::compress_to_vec_zlib(&text(6, 1 << 20), 9).len();
    println!("1 MB of text: ours {packed} bytes, miniz 9 {miniz} bytes");
    assert_eq!((packed, miniz), (168_543, 168_668));
}

#[test]
fn every_gallery_designs_link_round_trips_through_miniz() -> TestResult {
    let mut checked = 0;
    for design in designs::catalogue() {
        // A design whose access patterns alone are too long for a link is left out.
        let Some(json) = link_json(&session(&design, 0))? else {
            continue;
        };
        checked += 1;
        let packed = compress(&json);
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&packed)
            .map_err(|e| format!("{}: {e:?}", design.id))?;
        assert_eq!(back, json, "{}", design.id);
        let theirs = miniz_oxide::deflate::compress_to_vec_zlib(&json, 9);
        assert_eq!(decompress(&theirs, LIMIT)?, json, "{}", design.id);
    }
    println!("{checked} of {} designs", designs::catalogue().len());
    assert_eq!(checked, 38);
    Ok(())
}

#[test]
fn share_links_compress_about_as_well_as_miniz_level_9() -> TestResult {
    // Realistic links: a design with its access patterns and workload, then with the first
    // 50 and 400 lines of its setup script typed into the console before them.
    let mut rows = Vec::new();
    let (mut ours_total, mut miniz_total) = (0, 0);
    for design in designs::catalogue() {
        let mut last = Vec::new();
        for setup_lines in [0, 50, 400] {
            let Some(json) = link_json(&session(&design, setup_lines))? else {
                continue;
            };
            if json == last {
                continue;
            }
            last = json.clone();
            let ours = compress(&json).len();
            let miniz = miniz_oxide::deflate::compress_to_vec_zlib(&json, 9).len();
            println!(
                "{:<28} setup lines {setup_lines:>3}: JSON {:>7}, ours {ours:>6}, miniz 9 {miniz:>6} ({:+.2}%)",
                design.id,
                json.len(),
                (ours as f64 / miniz as f64 - 1.0) * 100.0
            );
            rows.push((design.id, setup_lines, json.len(), ours, miniz));
            ours_total += ours;
            miniz_total += miniz;
        }
    }
    println!("total: ours {ours_total}, miniz 9 {miniz_total}");
    assert_eq!((ours_total, miniz_total), (206_341, 206_838));
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Damaged streams

/// Bits written least significant first, as deflate packs them, for hand-made streams.
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    /// A zlib header of deflate, then nothing yet.
    fn zlib() -> Bits {
        Bits {
            out: vec![0x78, 0x9C],
            ..Bits::default()
        }
    }

    fn put(&mut self, value: u32, n: u32) -> &mut Bits {
        for k in 0..n {
            self.acc |= ((value >> k) & 1) << self.n;
            self.n += 1;
            if self.n == 8 {
                self.out.push(self.acc as u8);
                (self.acc, self.n) = (0, 0);
            }
        }
        self
    }

    /// A Huffman code of `len` bits, most significant first.
    fn code(&mut self, code: u32, len: u32) -> &mut Bits {
        for k in (0..len).rev() {
            self.put((code >> k) & 1, 1);
        }
        self
    }

    /// The bytes, the last one padded, and `extra` bytes of zeros after them.
    fn done(&mut self, extra: usize) -> Vec<u8> {
        if self.n > 0 {
            self.put(0, 8 - self.n);
        }
        let mut out = std::mem::take(&mut self.out);
        out.resize(out.len() + extra, 0);
        out
    }
}

/// A final dynamic block's header whose code-length code gives symbols 0, 1, 17 and 18 two
/// bits each (codes 00, 01, 10, 11), for 257 literal/length and one distance lengths.
fn dynamic_header() -> Bits {
    let mut b = Bits::zlib();
    b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(14, 4);
    // In the order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1.
    for len in [0, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2] {
        b.put(len, 3);
    }
    b
}

#[test]
fn a_cut_stream_is_truncated() {
    let packed = compress(&text(7, 5_000));
    for cut in [
        0,
        1,
        2,
        3,
        packed.len() / 2,
        packed.len() - 4,
        packed.len() - 1,
    ] {
        assert_eq!(
            decompress(&packed[..cut], LIMIT),
            Err(Error::Truncated),
            "cut at {cut}"
        );
    }
}

#[test]
fn a_changed_checksum_is_refused() {
    let mut packed = compress(b"scan 'users'");
    let last = packed.len() - 1;
    packed[last] ^= 1;
    assert_eq!(decompress(&packed, LIMIT), Err(Error::Checksum));
}

#[test]
fn bad_headers_are_refused() {
    let body = &compress(b"x")[2..];
    let with = |h: [u8; 2]| [&h[..], body].concat();
    // The check bits wrong, another method (7), a window past 32 KB (CINFO 8).
    assert_eq!(decompress(&with([0x78, 0x9D]), LIMIT), Err(Error::Header));
    assert_eq!(decompress(&with([0x77, 0x85]), LIMIT), Err(Error::Header));
    assert_eq!(decompress(&with([0x88, 0x98]), LIMIT), Err(Error::Header));
    // Every valid window size is read (the check: 0x089D, 0x78DA are multiples of 31).
    assert_eq!(decompress(&with([0x08, 0x1D]), LIMIT), Ok(b"x".to_vec()));
    // A preset dictionary (0x78BB: FDICT set, a multiple of 31).
    assert_eq!(
        decompress(&with([0x78, 0xBB]), LIMIT),
        Err(Error::Dictionary)
    );
}

#[test]
fn the_limit_is_kept_by_every_kind_of_block() -> TestResult {
    let data = text(8, 10_000);
    for packed in [
        compress(&data),
        miniz_oxide::deflate::compress_to_vec_zlib(&data, 0),
        miniz_oxide::deflate::compress_to_vec_zlib(&data, 1),
    ] {
        assert_eq!(decompress(&packed, data.len())?, data);
        assert_eq!(
            decompress(&packed, data.len() - 1),
            Err(Error::TooLarge(data.len() - 1))
        );
    }
    // A megabyte of zeros packs into a kilobyte; a link may not make it.
    let bomb = compress(&vec![0; 1 << 20]);
    assert!(bomb.len() < 1100, "{}", bomb.len());
    assert_eq!(
        decompress(&bomb, 64 * 1024),
        Err(Error::TooLarge(64 * 1024))
    );
    Ok(())
}

#[test]
fn an_over_subscribed_code_is_refused() {
    // 258 lengths of one bit.
    let mut b = dynamic_header();
    for _ in 0..258 {
        b.code(0b01, 2);
    }
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::OverSubscribed));
    // A code-length code of four one-bit codes.
    let mut b = Bits::zlib();
    b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(0, 4);
    for _ in 0..4 {
        b.put(1, 3);
    }
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::OverSubscribed));
}

#[test]
fn an_incomplete_code_is_refused_unless_it_is_one_code_of_one_bit() {
    // Symbols 0 to 255 without a code (two runs of zeros: 138, 118), end-of-block and the one
    // distance of one bit each: each code is a single code of one bit, which zlib allows.
    let mut b = dynamic_header();
    b.code(0b11, 2).put(127, 7).code(0b11, 2).put(107, 7);
    b.code(0b01, 2).code(0b01, 2);
    // The block: end-of-block (0), then the Adler-32 of nothing.
    b.put(0, 1);
    let mut ok = b.done(0);
    ok.extend_from_slice(&1u32.to_be_bytes());
    assert_eq!(decompress(&ok, LIMIT), Ok(Vec::new()));
    // A code-length code of 0 and 2, one bit each (codes 0 and 1; 2 is 16th in the order).
    let mut b = Bits::zlib();
    b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(12, 4);
    for len in [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1] {
        b.put(len, 3);
    }
    for _ in 0..255 {
        b.code(0, 1);
    }
    // 255 and 256 of two bits, the distance of none: half the literals' codes unused.
    b.code(1, 1).code(1, 1).code(0, 1);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::Incomplete));
}

#[test]
fn a_distance_before_the_start_is_refused() {
    // A fixed block whose first symbol is a match: length 3 (code 257: 0000001), distance 1.
    let mut b = Bits::zlib();
    b.put(1, 1).put(1, 2).code(0b000_0001, 7).code(0, 5);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::Distance));
    // After one literal ('a': 0x30 + 0x61 in eight bits), distance 2 is still before it.
    let mut b = Bits::zlib();
    b.put(1, 1)
        .put(1, 2)
        .code(0x30 + 0x61, 8)
        .code(0b000_0001, 7)
        .code(1, 5);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::Distance));
}

#[test]
fn other_damage_has_its_own_error() {
    // Block type 3.
    let mut b = Bits::zlib();
    b.put(1, 1).put(3, 2);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::BlockType));
    // A stored block whose length's complement is wrong.
    let mut b = Bits::zlib();
    b.put(1, 1).put(0, 2);
    let mut s = b.done(0);
    s.extend_from_slice(&[1, 0, 0xFE, 0xFE, b'x']);
    assert_eq!(decompress(&s, LIMIT), Err(Error::StoredLength));
    // Fixed length symbol 286 (11000110), which deflate does not define.
    let mut b = Bits::zlib();
    b.put(1, 1).put(1, 2).code(0b1100_0110, 8);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::InvalidCode));
    // Fixed distance symbol 30 (11110).
    let mut b = Bits::zlib();
    b.put(1, 1)
        .put(1, 2)
        .code(0x30 + 0x61, 8)
        .code(0b000_0001, 7)
        .code(30, 5);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::InvalidCode));
    // A repeat of the previous length with none before it.
    let mut b = Bits::zlib();
    b.put(1, 1).put(2, 2).put(0, 5).put(0, 5).put(0, 4);
    for len in [1, 0, 0, 1] {
        b.put(len, 3);
    }
    // Symbol 16 (code 1), the first length.
    b.code(1, 1).put(0, 2);
    assert_eq!(decompress(&b.done(8), LIMIT), Err(Error::CodeLengths));
    // A byte after the checksum.
    let mut packed = compress(b"ls");
    packed.push(0);
    assert_eq!(decompress(&packed, LIMIT), Err(Error::TrailingData));
}

#[test]
fn mutated_streams_never_panic_and_agree_with_miniz() {
    let sources: Vec<Vec<u8>> = [text(9, 3_000), noise(10, 300), vec![b'z'; 2_000]]
        .iter()
        .flat_map(|d| {
            [
                compress(d),
                miniz_oxide::deflate::compress_to_vec_zlib(d, 0),
                miniz_oxide::deflate::compress_to_vec_zlib(d, 1),
                miniz_oxide::deflate::compress_to_vec_zlib(d, 9),
            ]
        })
        .collect();
    let mut g = Gen::new(11);
    let (mut read, mut refused) = (0, 0);
    for round in 0..20_000 {
        let mut s = sources[round % sources.len()].clone();
        for _ in 0..1 + g.below(3) {
            let at = g.below(s.len() as u64) as usize;
            match g.below(5) {
                0 => s[at] ^= 1 << g.below(8),
                1 => s[at] = g.next_u64() as u8,
                2 => s.truncate(at),
                3 => s.insert(at, g.next_u64() as u8),
                _ => {
                    s.remove(at);
                }
            }
            if s.is_empty() {
                break;
            }
        }
        match decompress(&s, 1 << 16) {
            Ok(out) => {
                read += 1;
                assert!(out.len() <= 1 << 16);
                let theirs = miniz_oxide::inflate::decompress_to_vec_zlib(&s);
                assert_eq!(theirs.as_ref().ok(), Some(&out), "round {round}");
            }
            Err(_) => refused += 1,
        }
    }
    println!("mutated streams: {read} read, {refused} refused");
    assert!(refused > 10_000, "{refused}");
}
