//! Sorted runs as block files: each key encoding round-trips, bloom filters never say no to a
//! row they hold, a get that misses reads no data block, the block index seeks, a seek steps
//! over rows inside a block where reading would stop, and a damaged block is reported while the
//! rest of the file stays readable.

use std::sync::Arc;

use proptest::prelude::*;
use rowkey::engine::{
    BlockFile, BloomType, Cell, CellKind, Encoding, FileOptions, FormatError, HashedRow, ReadCounts,
};

const ENCODINGS: [Encoding; 3] = [Encoding::None, Encoding::Prefix, Encoding::FastDiff];

fn family() -> Arc<[u8]> {
    Arc::from(&b"f"[..])
}

fn options(encoding: Encoding, bloom: BloomType, block_size: u64) -> FileOptions {
    FileOptions {
        block_size,
        encoding,
        bloom,
    }
}

/// `cells` (in cell order) written as a block file of table `t`, family `f`.
fn built(encoding: Encoding, bloom: BloomType, block_size: u64, cells: &[Cell]) -> BlockFile {
    BlockFile::build(1, "t", b"f", options(encoding, bloom, block_size), cells)
}

/// `rows` rows of `cols` columns, two versions each, in cell order.
fn table_cells(rows: usize, cols: usize) -> Vec<Cell> {
    let f = family();
    let mut out = Vec::new();
    let mut seq = 0;
    for r in 0..rows {
        for c in 0..cols {
            for ts in [2_000u64, 1_000] {
                seq += 1;
                out.push(Cell::put(
                    format!("row{:05}", r * 2).as_bytes(),
                    &f,
                    format!("q{c}").as_bytes(),
                    ts + r as u64,
                    seq,
                    format!("value-{r}-{c}-{ts}").as_bytes(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn read_all(file: &BlockFile) -> (Vec<Cell>, Vec<FormatError>) {
    let f = family();
    let mut cursor = file.cursor();
    let mut out = Vec::new();
    while let Some(c) = cursor.current() {
        let cell = c.to_cell(&f);
        out.push(cell);
        cursor.advance();
    }
    (out, cursor.damaged.clone())
}

fn same(a: &[Cell], b: &[Cell]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y && x.value == y.value && x.ttl_ms == y.ttl_ms && x.kind == y.kind)
}

fn arb_cells() -> impl Strategy<Value = Vec<Cell>> {
    let kinds = prop_oneof![
        Just(CellKind::Put),
        Just(CellKind::Delete),
        Just(CellKind::DeleteColumn),
        Just(CellKind::DeleteFamily),
        Just(CellKind::DeleteFamilyVersion),
    ];
    let cell = (
        proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 1..6),
        proptest::collection::vec(any::<u8>(), 0..4),
        prop_oneof![0u64..5, any::<u64>()],
        kinds,
        prop_oneof![Just(0u64), 1u64..100_000],
        proptest::collection::vec(any::<u8>(), 0..24),
    );
    proptest::collection::vec(cell, 0..120).prop_map(|raw| {
        let f = family();
        let mut cells: Vec<Cell> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (row, q, ts, kind, ttl, value))| Cell {
                kind,
                ttl_ms: ttl,
                ..Cell::put(&row, &f, &q, ts >> 1, i as u64 * 7 + 1, &value)
            })
            .collect();
        cells.sort();
        cells
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Every encoding gives back exactly the cells written, at any block size.
    #[test]
    fn each_encoding_round_trips(cells in arb_cells(), block_size in 1u64..600) {
        for encoding in ENCODINGS {
            let file = built(encoding, BloomType::Row, block_size, &cells);
            let (back, damaged) = read_all(&file);
            prop_assert!(damaged.is_empty());
            prop_assert!(same(&back, &cells), "{encoding:?}: {back:?} != {cells:?}");
            prop_assert_eq!(file.header().cells, cells.len() as u64);
            let total: usize = (0..file.block_count()).map(|i| file.block_cells(i)).sum();
            prop_assert_eq!(total, cells.len());
            // Reopened from its bytes, the file reads the same.
            let reopened = BlockFile::open(file.to_bytes().into_boxed_slice())
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(same(&read_all(&reopened).0, &cells));
        }
    }

    /// Stepping over the rows before a row (what a seek does inside a block) stops at the
    /// same cell as reading every cell and comparing it, in every encoding and every block.
    #[test]
    fn skipping_rows_in_a_block_stops_where_reading_stops(
        cells in arb_cells(),
        row in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 0..6),
        block_size in 1u64..600,
    ) {
        for encoding in ENCODINGS {
            let file = built(encoding, BloomType::Row, block_size, &cells);
            for i in 0..file.block_count() {
                let mut read = file.block_cursor(i).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let mut want = None;
                while let Ok(true) = read.advance() {
                    if let Some(c) = read.current().filter(|c| c.row >= row.as_slice()) {
                        want = Some(c.to_cell(&family()));
                        break;
                    }
                }
                let mut skip = file.block_cursor(i).map_err(|e| TestCaseError::fail(e.to_string()))?;
                skip.skip_rows_before(&row);
                let mut got = None;
                while let Ok(true) = skip.advance() {
                    if let Some(c) = skip.current().filter(|c| c.row >= row.as_slice()) {
                        got = Some(c.to_cell(&family()));
                        break;
                    }
                }
                prop_assert!(same(got.as_slice(), want.as_slice()), "{encoding:?} block {i}");
            }
        }
    }

    /// Bytes changed anywhere never panic the reader: the file is refused, or blocks are
    /// reported damaged, or (a change the checksums cannot see is impossible) it reads.
    #[test]
    fn corrupted_bytes_never_panic(cells in arb_cells(), at in any::<usize>(), xor in 1u8..=255) {
        for encoding in ENCODINGS {
            let file = built(encoding, BloomType::RowCol, 64, &cells);
            let mut bytes = file.to_bytes();
            let i = at % bytes.len();
            bytes[i] ^= xor;
            if let Ok(damaged) = BlockFile::open(bytes.into_boxed_slice()) {
                let (back, errors) = read_all(&damaged);
                prop_assert!(back.len() <= cells.len());
                prop_assert!(!errors.is_empty() || same(&back, &cells));
            }
        }
    }
}

#[test]
fn fast_diff_is_smaller_than_prefix_and_prefix_than_none() {
    let cells = table_cells(300, 5);
    let size = |encoding| {
        built(encoding, BloomType::None, 1024, &cells)
            .to_bytes()
            .len()
    };
    let (none, prefix, fast) = (
        size(Encoding::None),
        size(Encoding::Prefix),
        size(Encoding::FastDiff),
    );
    assert!(prefix < none, "PREFIX {prefix} >= NONE {none}");
    assert!(fast < prefix, "FAST_DIFF {fast} >= PREFIX {prefix}");
}

#[test]
fn a_row_bloom_never_says_no_to_a_row_the_run_holds() {
    let cells = table_cells(2_000, 3);
    for encoding in ENCODINGS {
        let file = built(encoding, BloomType::Row, 512, &cells);
        for r in 0..2_000 {
            let row = format!("row{:05}", r * 2);
            let mut counts = ReadCounts::default();
            assert!(
                file.may_hold_row(HashedRow::new(row.as_bytes()), &mut counts),
                "{row}"
            );
            let got = file.get(row.as_bytes(), &mut counts);
            assert_eq!(got.len(), 6, "{row}");
            assert!(got.iter().all(|c| c.row == row.as_bytes()));
        }
    }
}

#[test]
fn a_rowcol_bloom_never_says_no_to_a_column_the_run_holds() -> Result<(), String> {
    let cells = table_cells(1_000, 4);
    let file = built(Encoding::FastDiff, BloomType::RowCol, 512, &cells);
    let mut counts = ReadCounts::default();
    for c in &cells {
        if !file.may_hold_columns(&c.row, std::slice::from_ref(&c.qualifier), &mut counts) {
            return Err(format!("ROWCOL bloom said no to {:?}", c));
        }
    }
    // A column no row has is mostly ruled out.
    let missing = (0..1_000)
        .filter(|r| {
            let row = format!("row{:05}", r * 2);
            !file.may_hold_columns(row.as_bytes(), &[b"zz".to_vec()], &mut counts)
        })
        .count();
    assert!(missing > 950, "{missing} of 1000 ruled out");
    Ok(())
}

/// A get of a row the run does not hold is answered by the bloom (or the key range) without
/// reading a data block; without a bloom it reads the one block the row would be in.
#[test]
fn a_get_that_misses_reads_no_data_block() {
    let cells = table_cells(2_000, 3);
    let with_bloom = built(Encoding::None, BloomType::Row, 1024, &cells);
    let without = built(Encoding::None, BloomType::None, 1024, &cells);
    let mut bloom_counts = ReadCounts::default();
    let mut plain_counts = ReadCounts::default();
    for r in 0..2_000 {
        // Odd numbers are between the rows the run holds.
        let row = format!("row{:05}", r * 2 + 1);
        assert!(with_bloom.get(row.as_bytes(), &mut bloom_counts).is_empty());
        assert!(without.get(row.as_bytes(), &mut plain_counts).is_empty());
    }
    // A 1% false positive rate: a few gets read a block, nearly all read none.
    assert!(bloom_counts.blocks_read < 60, "{bloom_counts:?}");
    assert!(bloom_counts.runs_skipped_bloom > 1_940, "{bloom_counts:?}");
    // The last odd row is past the run's last row: ruled out by the key range. Every other
    // get reads the block the index names (and the next one, when the row would sit just
    // after a block's last cell).
    assert_eq!(plain_counts.runs_skipped_range, 1);
    assert!(
        (1_999..1_999 + 100).contains(&plain_counts.blocks_read),
        "{plain_counts:?}"
    );
    assert_eq!(plain_counts.runs_skipped_bloom, 0);

    // Outside the key range: no bloom needed.
    let mut counts = ReadCounts::default();
    assert!(without.get(b"zzz", &mut counts).is_empty());
    assert!(without.get(b"a", &mut counts).is_empty());
    assert_eq!(counts.blocks_read, 0);
    assert_eq!(counts.runs_skipped_range, 2);
}

/// A seek reads one block: the index names it, and the blocks before are skipped unread.
#[test]
fn the_index_seeks_to_the_one_block_holding_a_row() {
    let cells = table_cells(2_000, 3);
    for encoding in ENCODINGS {
        let file = built(encoding, BloomType::None, 700, &cells);
        assert!(file.block_count() > 50, "{} blocks", file.block_count());
        for r in [0usize, 1, 777, 1_234, 1_999] {
            let row = format!("row{:05}", r * 2);
            let target = Cell::put(row.as_bytes(), &family(), b"", u64::MAX, u64::MAX, b"");
            let target = Cell {
                kind: CellKind::DeleteFamily,
                ..target
            };
            let block = file.seek_block(&target);
            let mut cursor = file.cursor();
            cursor.seek(&target);
            let first = cursor.current().map(|c| c.to_cell(&family()));
            assert_eq!(first.map(|c| c.row), Some(row.clone().into_bytes()));
            assert_eq!(cursor.counts.blocks_skipped, block as u64, "{row}");
            assert_eq!(cursor.counts.blocks_read, 1, "{row} {encoding:?}");
            // The block the index chose starts at or before the row, the next after it.
            let first_key = file
                .first_key(block)
                .map(|k| k.row.to_vec())
                .unwrap_or_default();
            assert!(first_key.as_slice() <= row.as_bytes());
            if let Some(next) = file.first_key(block + 1) {
                assert!(next.row >= row.as_bytes());
            }
        }
    }
}

/// The index's search by the first eight bytes of rows: where many blocks' rows begin with the
/// same eight bytes (and some rows are shorter than eight), the block a seek names is still
/// the last whose first key is at or before the target, for a target before, on and after
/// every row, and for a cell in the middle of a row.
#[test]
fn a_seek_among_blocks_whose_rows_share_their_first_eight_bytes_names_the_right_block() {
    let f = family();
    let mut rows: Vec<String> = Vec::new();
    for i in 0..300 {
        // Long stretches under one head ("user-000"), short rows, and other heads between.
        rows.push(format!("user-000-{i:04}"));
        if i % 50 == 0 {
            rows.push(format!("u{i}"));
            rows.push(format!("user-{i:03}x"));
        }
    }
    rows.sort();
    rows.dedup();
    let mut cells = Vec::new();
    let mut seq = 0;
    for row in &rows {
        for q in ["a", "b", "c"] {
            seq += 1;
            cells.push(Cell::put(
                row.as_bytes(),
                &f,
                q.as_bytes(),
                7,
                seq,
                b"value-0123456789",
            ));
        }
    }
    cells.sort();
    let file = built(Encoding::None, BloomType::None, 256, &cells);
    let blocks = file.block_count();
    assert!(blocks > 100, "{blocks} blocks");
    // The last block whose first key is at or before `target`, read from every block's key.
    let by_reading_every_key = |target: &Cell| {
        (0..blocks)
            .take_while(|&i| {
                file.first_key(i)
                    .is_some_and(|k| k.cmp_key(&target.as_ref()) != std::cmp::Ordering::Greater)
            })
            .count()
            .saturating_sub(1)
    };
    let mut targets = Vec::new();
    for row in &rows {
        for suffix in ["", "\0", "~"] {
            let probe = format!("{row}{suffix}");
            targets.push(Cell::put(
                probe.as_bytes(),
                &f,
                b"",
                u64::MAX,
                u64::MAX,
                b"",
            ));
        }
        targets.push(Cell::put(row.as_bytes(), &f, b"b", 7, u64::MAX, b""));
    }
    targets.push(Cell::put(b"", &f, b"", u64::MAX, u64::MAX, b""));
    targets.push(Cell::put(b"zzz", &f, b"", u64::MAX, u64::MAX, b""));
    for target in &targets {
        assert_eq!(
            file.seek_block(target),
            by_reading_every_key(target),
            "{:?}",
            String::from_utf8_lossy(&target.row)
        );
    }
}

/// One flipped byte in a data block: the file opens, that block is reported damaged, every
/// other block's cells read back.
#[test]
fn a_damaged_block_is_reported_and_the_rest_reads() -> Result<(), FormatError> {
    let cells = table_cells(500, 3);
    for encoding in ENCODINGS {
        let file = built(encoding, BloomType::Row, 512, &cells);
        let n = file.block_count();
        assert!(n > 10);
        let victim = n / 2;
        let lost = file.block_cells(victim);
        // The victim block's payload starts where its bytes are found in the file.
        let payload = file.block(victim)?.to_vec();
        let bytes = file.to_bytes();
        let at = bytes
            .windows(payload.len())
            .position(|w| w == payload.as_slice())
            .unwrap_or(0);
        let mut damaged = bytes.to_vec();
        damaged[at + payload.len() / 2] ^= 0x40;
        let file = BlockFile::open(damaged.into_boxed_slice())?;
        let problems = file.verify();
        assert_eq!(problems.len(), 1);
        assert!(matches!(problems[0], FormatError::DamagedBlock { block, .. } if block == victim));
        let (back, errors) = read_all(&file);
        assert_eq!(errors.len(), 1);
        assert_eq!(back.len(), cells.len() - lost);
        assert!(back.iter().all(|c| cells.contains(c)));
    }
    Ok(())
}

/// CRC-32 (IEEE, reflected, as zlib takes it), bit by bit: the reference the stored checksums
/// are checked against.
fn crc32_reference(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A file written in memory holds no block checksums (no read of it checks them); its bytes
/// carry every block's checksum once they leave memory, also when the file spans several parts
/// and when it was copied under another header (a run moved to another table or region).
#[test]
fn a_written_file_takes_its_checksums_when_its_bytes_leave_memory() -> Result<(), FormatError> {
    let cells = table_cells(2_000, 4);
    for encoding in ENCODINGS {
        let written = built(encoding, BloomType::Row, 1024, &cells);
        let moved = written.with_place("u", b"f", b"row00100", b"row03000")?;
        for file in [&written, &moved] {
            let bytes = file.to_bytes();
            assert!(
                bytes.len() > 3 * 64 * 1024,
                "{} bytes: one part only",
                bytes.len()
            );
            // The blocks lie one after another, each followed by its checksum, from the first.
            let first = file.block(0)?;
            let mut at = bytes
                .windows(first.len())
                .position(|w| w == first)
                .unwrap_or(usize::MAX);
            for i in 0..file.block_count() {
                let payload = file.block(i)?;
                assert_eq!(
                    bytes.get(at..at + payload.len()),
                    Some(payload),
                    "block {i}"
                );
                let end = at + payload.len();
                let stored = bytes
                    .get(end..end + 4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
                assert_eq!(
                    stored,
                    Some(crc32_reference(payload)),
                    "block {i}'s checksum"
                );
                at = end + 4;
            }
            let back = BlockFile::open(bytes.into_boxed_slice())?;
            assert_eq!(back.verify(), Vec::new());
            let (read, errors) = read_all(&back);
            assert!(errors.is_empty());
            assert!(same(&read, &cells));
        }
    }
    Ok(())
}

/// A flipped byte in the index or header refuses the whole file with a clear error.
#[test]
fn a_damaged_index_or_header_refuses_the_file() {
    let cells = table_cells(50, 2);
    let file = BlockFile::build(1, "t", b"f", FileOptions::default(), &cells);
    let mut bytes = file.to_bytes();
    let n = bytes.len();
    bytes[n - 20] ^= 1;
    assert!(matches!(
        BlockFile::open(bytes.into_boxed_slice()),
        Err(FormatError::DamagedMeta { .. })
    ));
    let mut bytes = file.to_bytes();
    bytes[8] ^= 1;
    let err = BlockFile::open(bytes.into_boxed_slice()).err();
    assert!(err.is_some(), "a changed header byte was accepted");
    assert!(matches!(
        BlockFile::open(b"not a block file at all".to_vec().into_boxed_slice()),
        Err(FormatError::BadMagic)
    ));
}

#[test]
fn the_header_records_table_family_and_key_range() {
    let cells = table_cells(10, 2);
    let file = BlockFile::build(
        77,
        "users",
        b"f",
        options(Encoding::Prefix, BloomType::RowCol, 256),
        &cells,
    );
    let h = file.header();
    assert_eq!(h.id, 77);
    assert_eq!(h.table, "users");
    assert_eq!(h.family, b"f");
    assert_eq!(h.first_row, b"row00000");
    assert_eq!(h.last_row, b"row00018");
    assert_eq!(h.options.encoding, Encoding::Prefix);
    assert_eq!(h.options.bloom, BloomType::RowCol);
    assert_eq!(h.options.block_size, 256);
    assert_eq!(
        h.cell_bytes,
        cells.iter().map(Cell::size).sum::<usize>() as u64
    );
}

/// A block's cells handed out one by one (`BlockCursor::next_in`, which reads a `NONE` cell
/// straight from the block without keeping its parts) are the cells the cursor then says it
/// is on (`current`, `current_in`, which read such a cell again), and the cells a walk by
/// `advance` reads, in every encoding.
#[test]
fn a_cell_handed_out_is_the_cell_the_cursor_is_on() {
    let cells = table_cells(40, 3);
    for encoding in ENCODINGS {
        let file = built(encoding, BloomType::None, 256, &cells);
        let (walked, damaged) = read_all(&file);
        assert!(damaged.is_empty());
        let keys = rowkey::engine::Decoded::default();
        let mut handed = Vec::new();
        for i in 0..file.block_count() {
            let mut cursor = file.block_cursor(i).expect("an undamaged block");
            while let Some(c) = cursor.next_in(&keys) {
                let cell = c.to_cell(&family());
                let on = cursor.current().map(|c| c.to_cell(&family()));
                let on_in = cursor.current_in(&keys).map(|c| c.to_cell(&family()));
                assert!(
                    same(&[cell.clone()], &on.into_iter().collect::<Vec<_>>()),
                    "{encoding:?}: current"
                );
                assert!(
                    same(&[cell.clone()], &on_in.into_iter().collect::<Vec<_>>()),
                    "{encoding:?}: current_in"
                );
                handed.push(cell);
            }
        }
        assert!(
            same(&handed, &walked),
            "{encoding:?}: the cells handed out are the cells walked"
        );
        assert_eq!(handed.len(), cells.len());
    }
}
