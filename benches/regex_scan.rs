//! Full scans through HBase's `RegexStringComparator` (prints figures, asserts nothing): the
//! storage benchmark's table (`benches/common/storage_workload.rs`: 100,000 rows × 10 columns,
//! 16-byte values `value-0000012345`, 16 regions, flushed) read whole through a `ValueFilter` or
//! `RowFilter` with a `regexstring:` comparator, each pattern's scan timed five times (the
//! median and the fastest printed) with the cells it returned. The comparator runs once per cell
//! (a million times a scan), so this is where a slower matcher shows.
//!
//!     cargo bench --bench regex_scan
//!     ROWKEY_BENCH_ROWS=20000 cargo bench --bench regex_scan    # a smaller run

use std::time::Instant;

use rowkey::engine::{create_benchmark_table, BenchmarkLayout, Engine, Scan};
use rowkey::filter::parse_filter;

#[path = "common/storage_workload.rs"]
mod storage_workload;
use storage_workload::{puts, row, COLUMNS};

const FILTERS: &[&str] = &[
    "ValueFilter(=, 'regexstring:99$')",
    "ValueFilter(=, 'regexstring:^value-00000[0-4]')",
    "ValueFilter(=, 'regexstring:[13579]{3}7')",
    "ValueFilter(=, 'regexstring:(?i)VALUE-.*5$')",
    "ValueFilter(!=, 'regexstring:-')",
    "RowFilter(=, 'regexstring:r7$')",
];

fn main() {
    let rows: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    if let Err(e) = create_benchmark_table(&mut engine, "bench", BenchmarkLayout::Regions) {
        eprintln!("create failed: {e}");
        return;
    }
    for i in 0..rows {
        if let Err(e) = engine.mutate("bench", row(i).as_bytes(), &puts(i)) {
            eprintln!("put failed: {e}");
            return;
        }
    }
    if let Err(e) = engine.flush("bench") {
        eprintln!("flush failed: {e}");
        return;
    }
    println!(
        "regex scans: {rows} rows x {COLUMNS} columns = {} cells, 16 regions; five full scans each",
        rows * COLUMNS as u64
    );
    for text in FILTERS {
        let mut times = Vec::new();
        let mut cells = 0;
        for _ in 0..5 {
            let filter = match parse_filter(text) {
                Ok(f) => f,
                Err(e) => {
                    eprintln!("{text}: {e:?}");
                    return;
                }
            };
            let mut scan = Scan {
                filter: Some(filter),
                ..Scan::default()
            };
            let started = Instant::now();
            cells = engine
                .read("bench", &mut scan)
                .map(|out| out.rows.iter().map(|r| r.cells.len()).sum::<usize>())
                .unwrap_or(0);
            times.push(started.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{text:<50} median {:7.1} ms, fastest {:7.1} ms, {cells} cells returned",
            times[2], times[0]
        );
    }
}
