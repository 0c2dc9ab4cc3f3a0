//! What a get and a 10-row scan allocate, over a store of one run (a compacted store): each
//! result row two allocations (its cells' bytes, which hold the row key once, and their slots),
//! the result's list of rows, the statistics' lists of regions, the first and the last row
//! examined (one buffer for the two). Nothing per cell, and nothing for the read's own parts (its plan, its store
//! scanners, the merge's sources and the run's cursor, a reversed read's lists of cells): the
//! engine keeps their room from the read before. (One test in this file: the allocation
//! counter is process-wide.)
mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::{measure, Counting};
use rowkey::engine::{Engine, FamilyDescriptor, Scan, TableDescriptor};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One region, 1,000 rows of ten columns, flushed and major-compacted into one run.
fn table() -> Result<Engine, rowkey::engine::Error> {
    let clock = Clock::at(1_000);
    let mut e = clock.engine();
    let mut desc = TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]);
    desc.settings.split_bytes = 0;
    e.create_table(desc, vec![])?;
    for r in 0..1_000 {
        let cells: Vec<_> = (0..10)
            .map(|c| put("f", &format!("c{c}"), Some(100), &format!("v{r}-{c}")))
            .collect();
        e.mutate("t", format!("row-{r:06}").as_bytes(), &cells)?;
    }
    e.flush("t")?;
    e.compact("t", true)?;
    Ok(e)
}

#[test]
fn a_get_and_a_short_scan_allocate_per_row_not_per_cell() -> TestResult {
    let e = table()?;
    let mut get = Scan::get(b"row-000500");
    let short = |reversed| Scan {
        start_row: b"row-000500".to_vec(),
        limit: Some(10),
        reversed,
        ..Scan::default()
    };
    let (mut scan, mut reversed) = (short(false), short(true));
    // Each read once first: a block's checksum and row index are taken at its first read.
    for s in [&mut get, &mut scan, &mut reversed] {
        e.read("t", s)?;
    }
    let (out, got) = measure(|| e.read("t", &mut get));
    let out = out?;
    assert_eq!((out.rows.len(), out.rows[0].cells.len()), (1, 10));
    assert_eq!(out.rows[0].row(), b"row-000500");
    let (out, scanned) = measure(|| e.read("t", &mut scan));
    assert_eq!(out?.rows.len(), 10);
    let (out, back) = measure(|| e.read("t", &mut reversed));
    assert_eq!(out?.rows.len(), 10);
    // A get: 2 for its row, 1 for the list of rows, 2 for the statistics' region lists, 1 for
    // the first and last row examined. A 10-row scan: 20 for its rows, the rest as a get's.
    // Reversed: the same (the row past the start, the block's cells and a row's cells are
    // read into lists kept from the read before).
    assert_eq!(
        (got.count, scanned.count, back.count),
        (6, 24, 24),
        "allocations of a get, a 10-row scan, a reversed one"
    );
    Ok(())
}
