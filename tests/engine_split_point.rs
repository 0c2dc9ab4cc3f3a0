//! Where a region splits: at the middle key of its largest run, read from that run's block
//! index (HBase's `RegionSplitPolicy.getSplitPoint` -> `HFileReaderImpl.midKey`, the first key
//! of the middle block), not at the middle of the region's bytes.
mod common;
use common::*;
use std::sync::Arc;

use rowkey::engine::{
    BlockFile, BloomType, Cell, Encoding, FamilyDescriptor, FileOptions, TableDescriptor,
};

/// `row-000` .. `row-099`, one 100-byte value each: 124 bytes a cell in a `NONE` block
/// (20-byte key, two length bytes, value, one sequence byte, one TTL byte), so a 1,024-byte
/// block closes after 9 cells (1,116 bytes).
fn cells(rows: std::ops::Range<usize>, first_seq: u64) -> Vec<Cell> {
    let family: Arc<[u8]> = Arc::from(&b"f"[..]);
    rows.enumerate()
        .map(|(i, r)| {
            let row = format!("row-{r:03}");
            Cell::put(
                row.as_bytes(),
                &family,
                b"q",
                100,
                first_seq + i as u64,
                &[b'x'; 100],
            )
        })
        .collect()
}

const OPTIONS: FileOptions = FileOptions {
    block_size: 1024,
    encoding: Encoding::None,
    bloom: BloomType::Row,
};

#[test]
fn the_blocks_hold_nine_cells_and_the_middle_block_starts_at_row_054() {
    let file = BlockFile::build(1, "t", b"f", OPTIONS, &cells(0..100, 1));
    // 100 cells: eleven blocks of nine and one of one; the middle is block 12 / 2 = 6, whose
    // first cell is the 55th.
    assert_eq!(file.block_count(), 12);
    assert_eq!((0..12).map(|i| file.block_cells(i)).sum::<usize>(), 100);
    assert_eq!(file.block_cells(0), 9);
    assert_eq!(file.first_key(6).map(|k| k.row), Some(&b"row-054"[..]));
    assert_eq!(file.mid_row(), Some(&b"row-054"[..]));
}

#[test]
fn a_split_lands_on_the_largest_runs_middle_key() -> TestResult {
    let clock = Clock::at(1_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.blocksize = 1024;
    f.bloomfilter = "ROW".into();
    f.data_block_encoding = "NONE".into();
    let mut desc = TableDescriptor::new("t", vec![f]);
    desc.settings.flush_bytes = u64::MAX;
    desc.settings.split_bytes = 0;
    e.create_table(desc, vec![])?;
    let write = |e: &mut rowkey::engine::Engine, rows: std::ops::Range<usize>| {
        rows.map(|r| {
            let value = String::from_utf8(vec![b'x'; 100]).unwrap_or_default();
            e.mutate(
                "t",
                format!("row-{r:03}").as_bytes(),
                &[put("f", "q", Some(100), &value)],
            )
        })
        .collect::<Result<Vec<_>, _>>()
    };
    // The large run, then a smaller one above it: the middle of the region's bytes is
    // row-069, the middle of its largest run row-054.
    write(&mut e, 0..100)?;
    e.flush("t")?;
    write(&mut e, 100..140)?;
    e.flush("t")?;
    let store = &e.table("t")?.regions[0].stores[0];
    assert_eq!(store.runs.len(), 2);
    let largest = store.runs.iter().max_by_key(|r| r.bytes).ok_or("no run")?;
    assert_eq!(largest.file().block_count(), 12);
    e.split("t", None)?;
    let starts = region_starts(&e, "t")?;
    assert_eq!(starts, vec![b"".to_vec(), b"row-054".to_vec()]);
    Ok(())
}

/// A run of one block has no middle to split at: its middle key is its first row
/// (`StoreUtils.getFileSplitPoint` refuses the file's first and last row).
#[test]
fn a_region_whose_largest_run_is_one_block_does_not_split() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.mutate("t", b"a", &[put("f", "q", Some(1), "1")])?;
    e.mutate("t", b"b", &[put("f", "q", Some(1), "2")])?;
    e.split("t", None)?;
    assert_eq!(e.table("t")?.regions.len(), 1);
    Ok(())
}
