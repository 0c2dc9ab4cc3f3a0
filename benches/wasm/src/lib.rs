//! The engine's reads as WebAssembly runs them, without a page: `run.mjs` loads this module in
//! Node (V8, as in Chromium), calls [`load`] once, then each read in rounds, and times them.
//! The workload is the native engine benchmark's (`benches/engine.rs`, rows from
//! `benches/common/storage_workload.rs`): a change to the read path can be measured in
//! WebAssembly in a minute, where the browser's storage benchmark takes several.
//!
//! Each export returns the cells its reads returned, so that `run.mjs` can check them.

// The workload's module names the engine by the app's name.
extern crate rowkey_engine as rowkey;

use std::cell::RefCell;

use rowkey::engine::{create_benchmark_table, BenchmarkLayout, Engine, Scan};

#[path = "../../common/storage_workload.rs"]
mod storage_workload;
use storage_workload::{prefix, puts, row, GROUP};

const TABLE: &str = "bench";

thread_local! {
    /// The loaded table's engine and its row count.
    static LOADED: RefCell<Option<(Engine, u64)>> = const { RefCell::new(None) };
}

/// Loads `rows` rows of ten columns into a new table: pre-split in 16 regions and flushed
/// (`layout` 0), one region flushed as it loads and major-compacted (1: the runs layout), or
/// one region whose memstore takes the whole load, flushed once and major-compacted (2: the
/// same run, reached without the flushes between; the memstore's cells freed at once). Returns
/// the rows loaded, 0 when the engine refused a step.
#[no_mangle]
pub extern "C" fn load(rows: u32, layout: u32) -> u32 {
    let (layout, flushes) = match layout {
        0 => (BenchmarkLayout::Regions, true),
        1 => (BenchmarkLayout::Runs, true),
        _ => (BenchmarkLayout::Runs, false),
    };
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    let mut step = || -> Result<(), rowkey::engine::Error> {
        create_benchmark_table(&mut engine, TABLE, layout)?;
        if !flushes {
            let mut settings = engine.table(TABLE)?.descriptor.settings.clone();
            settings.flush_bytes = u64::MAX;
            engine.set_settings(TABLE, settings)?;
        }
        for i in 0..u64::from(rows) {
            engine.mutate(TABLE, row(i).as_bytes(), &puts(i))?;
        }
        engine.flush(TABLE)?;
        if layout == BenchmarkLayout::Runs {
            engine.compact(TABLE, true)?;
        }
        Ok(())
    };
    if step().is_err() {
        return 0;
    }
    LOADED.with(|l| *l.borrow_mut() = Some((engine, u64::from(rows))));
    rows
}

/// The cells `scan` returns, its rows kept in its result.
fn read(engine: &Engine, scan: &mut Scan) -> u32 {
    engine
        .read(TABLE, scan)
        .map(|out| out.rows.iter().map(|r| r.cells.len() as u32).sum())
        .unwrap_or(0)
}

/// The cells `scan` returns, its rows handed over as views and not kept (as the shell's `get`
/// and `scan` read them, formatting each row where the table keeps its cells).
fn read_viewed(engine: &Engine, scan: &mut Scan) -> u32 {
    let mut n = 0;
    let _ = engine.read_each(TABLE, scan, &mut |row| n += row.len() as u32);
    n
}

/// The read `kept` names: 1 keeps the rows, anything else hands them over as views.
fn reader(kept: u32) -> fn(&Engine, &mut Scan) -> u32 {
    if kept == 1 {
        read
    } else {
        read_viewed
    }
}

/// Runs `f` over the loaded engine and its row count; 0 when nothing is loaded.
fn with_loaded(f: impl FnOnce(&Engine, u64) -> u32) -> u32 {
    LOADED.with(|l| l.borrow().as_ref().map_or(0, |(e, rows)| f(e, *rows)))
}

/// `n` gets of rows spread over the table, from the `from`-th on (as the native benchmark
/// picks them), their keys made before the reads; `kept` 1 keeps each get's row.
#[no_mangle]
pub extern "C" fn gets(n: u32, from: u32, kept: u32) -> u32 {
    with_loaded(|engine, rows| {
        let keys: Vec<String> = (0..u64::from(n))
            .map(|k| row((k + u64::from(from)).wrapping_mul(7919) % rows))
            .collect();
        let mut scans: Vec<Scan> = keys.iter().map(|k| Scan::get(k.as_bytes())).collect();
        let read = reader(kept);
        scans.iter_mut().map(|s| read(engine, s)).sum()
    })
}

/// `n` scans of one group of ten rows each (by their prefix), forwards or (`reversed` 1)
/// backwards with a limit of ten rows, from the `from`-th on; `kept` 1 keeps their rows.
#[no_mangle]
pub extern "C" fn scans(n: u32, reversed: u32, from: u32, kept: u32) -> u32 {
    with_loaded(|engine, rows| {
        let groups = (rows / GROUP).max(1);
        let mut scans: Vec<Scan> = (0..u64::from(n))
            .map(|k| {
                let p = prefix((k + u64::from(from)).wrapping_mul(104_729) % groups);
                if reversed == 1 {
                    Scan {
                        reversed: true,
                        start_row: format!("{p}\u{7f}").into_bytes(),
                        stop_row: p.as_bytes()[..p.len() - 1].to_vec(),
                        limit: Some(10),
                        ..Scan::default()
                    }
                } else {
                    Scan::prefix(p.as_bytes())
                }
            })
            .collect();
        let read = reader(kept);
        scans.iter_mut().map(|s| read(engine, s)).sum()
    })
}

/// `n` scans of ten rows (a limit of ten) from a row the table holds, forwards or (`reversed`
/// 1) backwards, from the `from`-th on, their rows handed over as views: the browser storage
/// benchmark's scans (`tests/e2e/bench-storage.mjs`), where [`scans`] starts from a prefix.
#[no_mangle]
pub extern "C" fn row_scans(n: u32, reversed: u32, from: u32) -> u32 {
    with_loaded(|engine, rows| {
        let mut scans: Vec<Scan> = (0..u64::from(n))
            .map(|k| Scan {
                start_row: row((k + u64::from(from)).wrapping_mul(7919) % rows).into_bytes(),
                reversed: reversed == 1,
                limit: Some(10),
                ..Scan::default()
            })
            .collect();
        scans.iter_mut().map(|s| read_viewed(engine, s)).sum()
    })
}

/// One scan of the whole table, its rows handed over one by one and not kept.
#[no_mangle]
pub extern "C" fn full() -> u32 {
    with_loaded(|engine, _| read_viewed(engine, &mut Scan::default()))
}

/// One scan of the whole table, its rows kept in one result.
#[no_mangle]
pub extern "C" fn full_kept() -> u32 {
    with_loaded(|engine, _| read(engine, &mut Scan::default()))
}
