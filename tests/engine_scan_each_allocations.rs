//! A scan whose rows are handed over one by one (`Engine::read_each`, HBase's `ResultScanner`
//! row by row) reads each row into the room the row before it used: a full scan of ten times
//! the rows allocates exactly as often, where a scan that keeps its rows allocates for each.
//! (One test in this file: the allocation counter is process-wide.)
mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::{measure, Counting};
use rowkey::engine::{Engine, FamilyDescriptor, Scan};

#[global_allocator]
static ALLOC: Counting = Counting;

/// `rows` rows of ten columns in three regions, the first half of them flushed into runs and
/// the rest in the memstores.
fn table(rows: usize) -> Result<Engine, rowkey::engine::Error> {
    let mut e = hand_flushed(
        FamilyDescriptor::new("f"),
        vec![b"row-1".to_vec(), b"row-2".to_vec()],
    )?;
    let row = |r: usize| format!("row-{}{r:06}", r % 3);
    for r in 0..rows {
        if r == rows / 2 {
            e.flush("t")?;
        }
        let cells: Vec<_> = (0..10)
            .map(|c| put("f", &format!("c{c}"), Some(100), &format!("v{r}-{c}")))
            .collect();
        e.mutate("t", row(r).as_bytes(), &cells)?;
    }
    Ok(e)
}

/// A full scan through `read_each`: the cells handed over, the allocations it made.
fn handed_over(e: &Engine) -> Result<(usize, usize), rowkey::engine::Error> {
    handed_over_with(e, Scan::default())
}

/// `scan` through `read_each`: the cells handed over, the allocations it made.
fn handed_over_with(e: &Engine, mut scan: Scan) -> Result<(usize, usize), rowkey::engine::Error> {
    let mut cells = 0;
    let (out, allocated) = measure(|| e.read_each("t", &mut scan, &mut |row| cells += row.len()));
    out?;
    Ok((cells, allocated.count))
}

/// A full scan with the shell's `count` filter, which keeps a row's first cell.
fn first_keys() -> Scan {
    Scan {
        filter: Some(Box::new(rowkey::filter::FirstKeyOnlyFilter::default())),
        ..Scan::default()
    }
}

#[test]
fn a_scan_handing_rows_over_allocates_the_same_for_ten_times_the_rows() -> TestResult {
    let small = table(2_000)?;
    let large = table(20_000)?;
    let (small_cells, small_allocs) = handed_over(&small)?;
    let (large_cells, large_allocs) = handed_over(&large)?;
    let (kept, kept_allocs) = measure(|| large.read("t", &mut Scan::default()));
    println!(
        "{small_cells} cells: {small_allocs} allocations; {large_cells} cells: {large_allocs} allocations; kept: {} allocations",
        kept_allocs.count
    );
    assert_eq!((small_cells, large_cells), (20_000, 200_000));
    assert_eq!(kept?.rows.len(), 20_000);
    assert_eq!(small_allocs, large_allocs, "ten times the rows");
    // With a filter, which may edit a row, each returned cell is copied (its row, qualifier
    // and value: `CellRef::to_cell`) before the filter transforms it; the list the row is
    // handed over in is the same one row after row, so the copies are all a row costs.
    let (small_firsts, small_filtered) = handed_over_with(&small, first_keys())?;
    let (large_firsts, large_filtered) = handed_over_with(&large, first_keys())?;
    println!("filtered: {small_filtered} and {large_filtered} allocations");
    assert_eq!((small_firsts, large_firsts), (2_000, 20_000));
    assert_eq!(
        large_filtered - small_filtered,
        18_000 * 3,
        "three a returned cell"
    );
    // Keeping the rows costs at least an allocation a row.
    assert!(
        kept_allocs.count >= 20_000,
        "{} allocations",
        kept_allocs.count
    );
    Ok(())
}
