//! Engine benchmark (prints figures, asserts nothing). The workload: 100,000 rows × 10 columns
//! (1,000,000 cells; 26-byte keys counting row, family and qualifier, 16-byte values) loaded
//! into a table pre-split in 16 regions and flushed, then point gets, 10-row scans forwards and reversed,
//! and one full scan. The same operations run over a sorted `Vec` of `(key, value)` pairs, and
//! every phase's heap (a counting allocator) is printed beside the bytes of keys and values.
//! Last, the shell's `generate` writing 1,000,000 cells in steps as the browser runs it.
//!
//! With `ROWKEY_BENCH_LAYOUT=runs` the table is one region instead, its 1 MB memstore flushed
//! (and its runs compacted by the exploring policy) while it loads, then flushed and major
//! compacted: the data in sorted runs, as most of a store's data is. The load's time and peak
//! include the flushes and the compactions.
//!
//!     cargo bench --bench engine
//!     ROWKEY_BENCH_ROWS=20000 cargo bench --bench engine     # a smaller run
//!     ROWKEY_BENCH_LAYOUT=runs cargo bench --bench engine    # one region, major-compacted
//!     ROWKEY_BENCH_ONLY=load cargo bench --bench engine      # the load alone, for profiles
//!
//! `ROWKEY_BENCH_READS=gets` (or `scans`, `reversed`, `full`, or several, comma-separated) runs
//! only those of the engine's reads, so that a profile (`valgrind --tool=callgrind
//! --toggle-collect='*Engine::read*'`) counts one kind of read; the others print as 0.
//! `ROWKEY_BENCH_VIEWS=1` reads every row as the shell's get and scan read them, handed over as
//! views of the cells where the table keeps them, instead of kept in each read's result.

use std::time::Instant;

use rowkey::engine::{create_benchmark_table, BenchmarkLayout, Engine, Scan};
use rowkey::shell::Shell;

#[path = "../tests/common/counting_alloc.rs"]
mod counting;

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;
use counting::{live, peak, raise_peak, reset_peak};

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

#[path = "common/storage_workload.rs"]
mod storage_workload;
use storage_workload::{prefix, puts, qualifier, row, value, COLUMNS, GROUP};

fn rate(n: u64, secs: f64) -> f64 {
    n as f64 / secs.max(1e-9)
}

/// One operation's figures for the engine and the Vec, and their ratio (engine ÷ Vec
/// throughput: above 1 the engine is faster).
fn line(name: &str, engine: f64, vec: f64, unit: &str) {
    println!(
        "{name:<22} {engine:>14.0} {unit:<8} {vec:>14.0} {unit:<8} {:>6.2}x",
        engine / vec.max(1e-9)
    );
}

fn main() {
    let rows: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let cells = rows * COLUMNS as u64;
    let groups = rows / GROUP;
    let key_value_bytes = cells * (26 + 16);
    let runs_layout = std::env::var("ROWKEY_BENCH_LAYOUT").is_ok_and(|v| v == "runs");
    println!(
        "rowkey engine benchmark: {rows} rows x {COLUMNS} columns = {cells} cells, 26-byte keys, 16-byte values ({:.1} MB of key and value bytes), {}",
        mb(key_value_bytes as usize),
        if runs_layout {
            "one region, 1 MB flushes while loading, then a flush and a major compaction"
        } else {
            "16 regions"
        }
    );

    // ---- the engine -------------------------------------------------------------------
    let base = reset_peak();
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    let layout = if runs_layout {
        BenchmarkLayout::Runs
    } else {
        BenchmarkLayout::Regions
    };
    let created = create_benchmark_table(&mut engine, "bench", layout);
    if let Err(e) = created {
        eprintln!("create failed: {e}");
        return;
    }
    let started = Instant::now();
    for i in 0..rows {
        let r = row(i);
        let puts = puts(i);
        if let Err(e) = engine.mutate("bench", r.as_bytes(), &puts) {
            eprintln!("put failed: {e}");
            return;
        }
    }
    // The reads below measure sorted runs, not the memstore.
    if let Err(e) = engine.flush("bench") {
        eprintln!("flush failed: {e}");
        return;
    }
    let mut compaction_peak = 0;
    if runs_layout {
        let load_peak = peak();
        let before = reset_peak();
        if let Err(e) = engine.compact("bench", true) {
            eprintln!("compaction failed: {e}");
            return;
        }
        compaction_peak = peak() - before;
        // The load's peak stays the larger of the two.
        raise_peak(load_peak);
    }
    let e_load = started.elapsed().as_secs_f64();
    let e_mem = live() - base;
    let e_load_peak = peak() - base;
    let breakdown = heap_breakdown(&engine, e_mem);
    let c = engine.counters();
    let load_note = format!(
        "{} flushes, {} compactions, write amplification {:.2}",
        c.flushes,
        c.compactions,
        c.write_amplification()
    );

    // `ROWKEY_BENCH_ONLY=load`: the load alone (what a profile of the writes counts).
    if std::env::var("ROWKEY_BENCH_ONLY").is_ok_and(|v| v == "load") {
        println!(
            "load: {:.0} cells/s, peak {:.1} MB, heap after {:.1} MB; {load_note}",
            rate(cells, e_load),
            mb(e_load_peak),
            mb(e_mem)
        );
        return;
    }

    let reads = std::env::var("ROWKEY_BENCH_READS").unwrap_or_default();
    // The cells a read returns: kept in its result, or with `ROWKEY_BENCH_VIEWS=1` handed over
    // row by row as views (as the shell's get and scan read).
    let views = std::env::var("ROWKEY_BENCH_VIEWS").is_ok_and(|v| v == "1");
    let read = |engine: &Engine, scan: &mut Scan| -> usize {
        if views {
            let mut n = 0;
            let _ = engine.read_each("bench", scan, &mut |row| n += row.len());
            n
        } else {
            engine
                .read("bench", scan)
                .map_or(0, |out| out.rows.iter().map(|r| r.cells.len()).sum())
        }
    };
    let runs = |kind: &str| reads.is_empty() || reads.split(',').any(|r| r == kind);
    let n_gets = if runs("gets") { 200_000u64 } else { 0 };
    let started = Instant::now();
    let mut e_found = 0usize;
    for k in 0..n_gets {
        let i = k.wrapping_mul(7919) % rows;
        e_found += read(&engine, &mut Scan::get(row(i).as_bytes()));
    }
    let e_gets = rate(n_gets, started.elapsed().as_secs_f64());

    let n_scans = 50_000u64;
    let n_fwd = if runs("scans") { n_scans } else { 0 };
    let n_rev = if runs("reversed") { n_scans } else { 0 };
    let started = Instant::now();
    let mut e_fwd_cells = 0usize;
    for k in 0..n_fwd {
        let g = k.wrapping_mul(104_729) % groups;
        e_fwd_cells += read(&engine, &mut Scan::prefix(prefix(g).as_bytes()));
    }
    let e_fwd = rate(n_fwd, started.elapsed().as_secs_f64());

    let started = Instant::now();
    let mut e_rev_cells = 0usize;
    for k in 0..n_rev {
        let g = k.wrapping_mul(104_729) % groups;
        let p = prefix(g);
        let mut scan = Scan {
            reversed: true,
            start_row: format!("{p}\u{7f}").into_bytes(),
            stop_row: p[..p.len() - 1].as_bytes().to_vec(),
            limit: Some(10),
            ..Scan::default()
        };
        e_rev_cells += read(&engine, &mut scan);
    }
    let e_rev = rate(n_rev, started.elapsed().as_secs_f64());

    let before_full = reset_peak();
    let started = Instant::now();
    let e_full_cells = if runs("full") {
        read(&engine, &mut Scan::default())
    } else {
        0
    };
    let e_full = rate(e_full_cells as u64, started.elapsed().as_secs_f64());
    let e_full_peak = peak() - before_full;
    let e_mem_after = live() - base;
    drop(engine);

    // ---- the sorted Vec ---------------------------------------------------------------
    // Keys are row, family and qualifier concatenated; a read clones what it returns, as the
    // engine returns owned cells.
    let base = reset_peak();
    let started = Instant::now();
    let mut all: Vec<(Box<[u8]>, Box<[u8]>)> = Vec::new();
    for i in 0..rows {
        let r = row(i);
        for c in 0..COLUMNS {
            let mut key = Vec::with_capacity(26);
            key.extend_from_slice(r.as_bytes());
            key.push(b'f');
            key.extend_from_slice(qualifier(c).as_bytes());
            all.push((key.into_boxed_slice(), value(i, c).into_boxed_slice()));
        }
    }
    all.sort_unstable();
    let v_load = started.elapsed().as_secs_f64();
    let v_mem = live() - base;
    let v_load_peak = peak() - base;

    let row_of = |k: &[u8]| -> usize { k.len().saturating_sub(3) };
    let started = Instant::now();
    let mut v_found = 0usize;
    for k in 0..n_gets {
        let i = k.wrapping_mul(7919) % rows;
        let r = row(i);
        let at = all.partition_point(|(key, _)| &key[..row_of(key)] < r.as_bytes());
        let got: Vec<(Box<[u8]>, Box<[u8]>)> = all[at..]
            .iter()
            .take_while(|(key, _)| &key[..row_of(key)] == r.as_bytes())
            .cloned()
            .collect();
        v_found += got.len();
    }
    let v_gets = rate(n_gets, started.elapsed().as_secs_f64());

    let started = Instant::now();
    let mut v_fwd_cells = 0usize;
    for k in 0..n_scans {
        let g = k.wrapping_mul(104_729) % groups;
        let p = prefix(g);
        let at = all.partition_point(|(key, _)| key.as_ref() < p.as_bytes());
        let got: Vec<(Box<[u8]>, Box<[u8]>)> = all[at..]
            .iter()
            .take_while(|(key, _)| key.starts_with(p.as_bytes()))
            .cloned()
            .collect();
        v_fwd_cells += got.len();
    }
    let v_fwd = rate(n_scans, started.elapsed().as_secs_f64());

    let started = Instant::now();
    let mut v_rev_cells = 0usize;
    for k in 0..n_scans {
        let g = k.wrapping_mul(104_729) % groups;
        let p = prefix(g);
        let end = all.partition_point(|(key, _)| {
            key.as_ref() < p.as_bytes() || key.starts_with(p.as_bytes())
        });
        let got: Vec<(Box<[u8]>, Box<[u8]>)> = all[..end]
            .iter()
            .rev()
            .take_while(|(key, _)| key.starts_with(p.as_bytes()))
            .cloned()
            .collect();
        v_rev_cells += got.len();
    }
    let v_rev = rate(n_scans, started.elapsed().as_secs_f64());

    let before_full = reset_peak();
    let started = Instant::now();
    let got: Vec<(Box<[u8]>, Box<[u8]>)> = all.to_vec();
    let v_full_cells = got.len();
    drop(got);
    let v_full = rate(v_full_cells as u64, started.elapsed().as_secs_f64());
    let v_full_peak = peak() - before_full;
    drop(all);

    println!(
        "{:<22} {:>23} {:>23} {:>7}",
        "", "rowkey engine", "sorted Vec", "ratio"
    );
    line("load", rate(cells, e_load), rate(cells, v_load), "cells/s");
    line("point gets", e_gets, v_gets, "gets/s");
    line("10-row scans", e_fwd, v_fwd, "scans/s");
    line("10-row scans reversed", e_rev, v_rev, "scans/s");
    line("full scan", e_full, v_full, "cells/s");
    println!(
        "{:<22} {:>14.1} MB       {:>14.1} MB       {:>6.2}x  ({:.2}x / {:.2}x the key and value bytes)",
        "heap after load",
        mb(e_mem),
        mb(v_mem),
        e_mem as f64 / v_mem.max(1) as f64,
        e_mem as f64 / key_value_bytes as f64,
        v_mem as f64 / key_value_bytes as f64
    );
    println!(
        "{:<22} {:>14.1} MB       {:>14.1} MB",
        "peak during load",
        mb(e_load_peak),
        mb(v_load_peak)
    );
    println!(
        "{:<22} {:>14.1} MB       {:>14.1} MB",
        "peak during full scan",
        mb(e_full_peak),
        mb(v_full_peak)
    );
    println!(
        "{:<22} {:>14.1} MB",
        "engine heap after reads",
        mb(e_mem_after)
    );
    println!("engine load: {load_note}");
    println!("engine heap after load: {breakdown}");
    if runs_layout {
        println!(
            "major compaction: peak {:.1} MB above the heap before it ({:.2}x the key and value bytes)",
            mb(compaction_peak),
            compaction_peak as f64 / key_value_bytes as f64
        );
    }
    println!(
        "cells returned (engine / Vec): gets {e_found} / {v_found}, scans {e_fwd_cells} / {v_fwd_cells}, reversed {e_rev_cells} / {v_rev_cells}, full {e_full_cells} / {v_full_cells}"
    );
    if std::env::var("ROWKEY_BENCH_SKIP_GENERATE").is_err() {
        generate_cells();
    }
}

/// Where the engine's heap after the load goes: the runs' block files, their block lists (32
/// bytes, a row's head of 8 and a checked flag per block, a head more per 32 blocks), the key
/// index (measured as the heap a copy of it takes), and the rest (the regions, the activity record, the allocations' rounding).
fn heap_breakdown(engine: &Engine, heap: usize) -> String {
    let Ok(table) = engine.table("bench") else {
        return "no table".into();
    };
    let (mut files, mut blocks, mut runs) = (0usize, 0usize, 0usize);
    for region in &table.regions {
        for store in &region.stores {
            for run in &store.runs {
                runs += 1;
                files += run.file().len();
                blocks += run.file().block_count();
            }
        }
    }
    let block_lists = blocks * (32 + 8 + std::mem::size_of::<std::sync::OnceLock<bool>>())
        + blocks.div_ceil(32) * 8;
    let before = live();
    let keys = table.keys.clone();
    let key_index = live() - before;
    drop(keys);
    let rest = heap.saturating_sub(files + block_lists + key_index);
    format!(
        "{runs} runs' block files {:.1} MB, their block lists {:.1} MB ({blocks} blocks), key index {:.1} MB ({} rows), the rest {:.1} MB",
        mb(files),
        mb(block_lists),
        mb(key_index),
        table.keys.row_count(),
        mb(rest)
    )
}

/// The shell's `generate` as the browser runs it: 500,000 rows of two columns (1,000,000
/// cells) into a table with the default (small) split and flush sizes, in steps of 50,000
/// rows, recording the changes for saving and handing them over after each step.
fn generate_cells() {
    let mut shell = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    shell.engine.record_changes(true);
    shell.gen_budget = Some(50_000);
    shell.run("create 'gen', 'f'");
    let started = Instant::now();
    let mut out = shell
        .run("generate 'gen', 'user%08d', 500000, {COLUMNS => ['f:a', 'f:b'], VALUE_SIZE => 16}")
        .remove(0);
    let mut saved = 0usize;
    loop {
        saved += shell
            .engine
            .take_changes()
            .wal
            .iter()
            .map(|(_, c)| c.len())
            .sum::<usize>();
        match out.more.take() {
            Some(more) => out = shell.resume(more, 50_000),
            None => break,
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let regions = shell
        .engine
        .table("gen")
        .map(|t| t.regions.len())
        .unwrap_or(0);
    println!(
        "generate:              {:>14.0} cells/s  ({secs:.2} s for {saved} cells recorded, {regions} regions; {})",
        rate(1_000_000, secs),
        out.output.lines().next().unwrap_or_default()
    );
}
