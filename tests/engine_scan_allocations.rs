//! A filtered full scan allocates for the cells it returns, not for the cells it reads: the
//! store scanner offers filters cells read in place, and only a cell the result keeps is
//! copied. The same scan over ten times the rows, with the same ten matches, allocates exactly
//! as often. (One test in this file: the allocation counter is process-wide.)
mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::{measure, Counting};
use rowkey::engine::{Engine, FamilyDescriptor, Mutation, Scan};

#[global_allocator]
static ALLOC: Counting = Counting;

/// One region, `rows` rows of ten columns flushed into one run; every `rows / 10`-th row has
/// the value `needle` in column `c3`.
fn table(rows: usize) -> Result<Engine, rowkey::engine::Error> {
    let mut e = hand_flushed(FamilyDescriptor::new("f"), vec![])?;
    for r in 0..rows {
        let cells: Vec<Mutation> = (0..10)
            .map(|c| {
                let hit = c == 3 && r % (rows / 10) == 0;
                let value = if hit {
                    "needle".into()
                } else {
                    format!("v{r}-{c}")
                };
                put("f", &format!("c{c}"), Some(100), &value)
            })
            .collect();
        e.mutate("t", format!("row-{r:06}").as_bytes(), &cells)?;
    }
    e.flush("t")?;
    Ok(e)
}

fn scan_for_needles(e: &Engine) -> Result<(usize, usize, u64), Box<dyn std::error::Error>> {
    let mut scan = Scan {
        filter: Some(rowkey::filter::parse_filter(
            "ValueFilter(=, 'binary:needle')",
        )?),
        ..Scan::default()
    };
    let (out, allocated) = measure(|| e.read("t", &mut scan));
    let out = out?;
    let cells: usize = out.rows.iter().map(|r| r.cells.len()).sum();
    Ok((cells, allocated.count, out.stats.cells_examined))
}

#[test]
fn a_filtered_full_scan_allocates_per_returned_cell() -> TestResult {
    let small = table(2_000)?;
    let large = table(20_000)?;
    let (small_cells, small_allocs, small_read) = scan_for_needles(&small)?;
    let (large_cells, large_allocs, large_read) = scan_for_needles(&large)?;
    println!(
        "{small_read} cells read: {small_allocs} allocations; {large_read} cells read: {large_allocs} allocations; {large_cells} cells returned"
    );
    assert_eq!((small_read, large_read), (20_000, 200_000));
    assert_eq!((small_cells, large_cells), (10, 10));
    assert_eq!(small_allocs, large_allocs, "ten times the cells read");
    Ok(())
}
