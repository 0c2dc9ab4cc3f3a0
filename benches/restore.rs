//! Restore benchmark (prints figures, asserts nothing): the workload of `benches/engine.rs` and
//! of the browser's `bench-storage.mjs` (100,000 rows × 10 columns, 1,000,000 cells, loaded
//! one row per mutation, then 10,000 gets and 2,000 10-row scans each way, so the table's
//! activity history is full), saved as one checkpoint into stored records, then loaded back
//! as a reload does (`rowkey::persist::load`): the runs opened and checked, the catalog read,
//! the key index built from the rows stored with each run, the activity history read.
//!
//!     cargo bench --bench restore
//!     ROWKEY_BENCH_LAYOUT=runs cargo bench --bench restore    # one region, major-compacted
//!     ROWKEY_BENCH_ROWS=20000 cargo bench --bench restore     # a smaller run
//!
//! Under `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*persist*load*'`
//! only the load is counted.

use std::time::Instant;

use rowkey::engine::{create_benchmark_table, BenchmarkLayout, Engine, Scan};
use rowkey::persist::{load, Saver, StoredRecords};

#[path = "common/storage_workload.rs"]
mod storage_workload;
use storage_workload::{puts, row, COLUMNS};

fn main() {
    let rows: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let runs_layout = std::env::var("ROWKEY_BENCH_LAYOUT").is_ok_and(|v| v == "runs");
    let layout = if runs_layout {
        BenchmarkLayout::Runs
    } else {
        BenchmarkLayout::Regions
    };
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    if let Err(e) = create_benchmark_table(&mut engine, "bench", layout) {
        eprintln!("create failed: {e}");
        return;
    }
    for i in 0..rows {
        let puts = puts(i);
        if let Err(e) = engine.mutate("bench", row(i).as_bytes(), &puts) {
            eprintln!("put failed: {e}");
            return;
        }
    }
    let done = engine.flush("bench").and_then(|_| {
        if runs_layout {
            engine.compact("bench", true).map(|_| ())
        } else {
            Ok(())
        }
    });
    if let Err(e) = done {
        eprintln!("flush or compaction failed: {e}");
        return;
    }
    // Reads, as the browser benchmark runs them before it saves: they fill the history.
    let mut seed = 0x5EED_u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    for _ in 0..10_000 {
        let _ = engine.read("bench", &mut Scan::get(row(next(rows)).as_bytes()));
    }
    for reversed in [false, true] {
        for _ in 0..2_000 {
            let mut scan = Scan {
                start_row: row(next(rows)).into_bytes(),
                reversed,
                limit: Some(10),
                ..Scan::default()
            };
            let _ = engine.read("bench", &mut scan);
        }
    }

    let started = Instant::now();
    let plan = match Saver::new().checkpoint(&mut engine) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("checkpoint failed: {e}");
            return;
        }
    };
    let encode = started.elapsed().as_secs_f64() * 1e3;
    let mut records = StoredRecords::default();
    records.apply(&plan);
    let run_bytes: usize = records
        .runs
        .values()
        .chain(records.run_parts.values())
        .map(Vec::len)
        .sum();
    let activity_bytes: usize = records.activity.values().map(Vec::len).sum();
    let ops = engine.activity("bench").map_or(0, |a| a.ops().len());
    drop(plan);
    drop(engine);

    // What a raw read of the same bytes costs natively: one copy.
    let started = Instant::now();
    let copy: Vec<Vec<u8>> = records
        .runs
        .values()
        .chain(records.run_parts.values())
        .cloned()
        .collect();
    let copy_ms = started.elapsed().as_secs_f64() * 1e3;
    drop(copy);

    let started = Instant::now();
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    let load_ms = started.elapsed().as_secs_f64() * 1e3;
    let cells: usize = loaded.engine.all_runs().map(|r| r.len()).sum();
    let keyed = loaded
        .engine
        .table("bench")
        .map_or(0, |t| t.keys.row_count());
    let back_ops = loaded.engine.activity("bench").map_or(0, |a| a.ops().len());
    println!(
        "rowkey restore benchmark: {} cells in {rows} rows, {}\n\
         checkpoint encoded in {encode:.0} ms: {:.1} MB of runs, {:.1} MB of activity ({ops} operations)\n\
         copy of the run bytes:  {copy_ms:>8.1} ms\n\
         load:                   {load_ms:>8.1} ms   ({cells} cells, {keyed} rows in the key index, {back_ops} operations, {} problems)",
        rows * COLUMNS as u64,
        if runs_layout { "runs layout" } else { "16 regions" },
        run_bytes as f64 / 1e6,
        activity_bytes as f64 / 1e6,
        loaded.problems.len(),
    );
}
