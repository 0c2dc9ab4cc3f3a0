//! Engine benchmark (prints figures, asserts nothing): loads 1,000,000 cells into a pre-split
//! table, then runs point gets, 10-row prefix scans and reversed scans, and compares scan
//! throughput with iterating a plain sorted `Vec` of the same cells; last, the shell's
//! `generate` writing 1,000,000 cells in steps as the browser runs it.
//!
//!     cargo bench --bench engine

use std::time::Instant;

use rowkey::engine::{
    split_keys, Cell, Engine, FamilyDescriptor, Mutation, Scan, TableDescriptor, TableSettings,
};
use rowkey::shell::Shell;

const ROWS: u64 = 250_000;
const COLUMNS: [&str; 4] = ["a", "b", "c", "d"];
const GROUP: u64 = 10;

/// Rows come in groups of ten sharing a prefix; a hashed lead spreads groups over regions.
fn prefix(group: u64) -> String {
    let h = group.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48;
    format!("{h:04x}{group:06}-")
}

fn row(i: u64) -> String {
    format!("{}{}", prefix(i / GROUP), i % GROUP)
}

fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<f64>().ok())
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

fn rate(n: u64, secs: f64) -> String {
    format!("{:>12.0}/s", n as f64 / secs.max(1e-9))
}

fn main() {
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    let mut desc = TableDescriptor::new("bench", vec![FamilyDescriptor::new("f")]);
    desc.settings = TableSettings {
        flush_bytes: 1 << 20,
        compaction_threshold: 4,
        split_bytes: 0,
    };
    let splits = split_keys("HexStringSplit", 16)
        .unwrap_or_default()
        .into_iter()
        .map(|k| k[..4].to_vec())
        .collect();
    if let Err(e) = engine.create_table(desc, splits) {
        eprintln!("create failed: {e}");
        return;
    }
    println!(
        "rowkey engine benchmark: {} rows x {} columns = {} cells, 16 regions",
        ROWS,
        COLUMNS.len(),
        ROWS * COLUMNS.len() as u64
    );

    let started = Instant::now();
    for i in 0..ROWS {
        let r = row(i);
        let puts: Vec<Mutation> = COLUMNS
            .iter()
            .map(|q| Mutation::Put {
                family: b"f".to_vec(),
                qualifier: q.as_bytes().to_vec(),
                timestamp: Some(1_000 + i),
                value: format!("value-{i}").into_bytes(),
                ttl_ms: None,
            })
            .collect();
        if let Err(e) = engine.mutate("bench", r.as_bytes(), &puts) {
            eprintln!("put failed: {e}");
            return;
        }
    }
    let load = started.elapsed().as_secs_f64();
    let cells = ROWS * COLUMNS.len() as u64;
    let c = engine.counters();
    println!("load:            {} cells {} row mutations  ({load:.2} s; {} flushes, {} compactions, write amplification {:.2})", rate(cells, load), rate(ROWS, load), c.flushes, c.compactions, c.write_amplification());

    let n_gets = 200_000u64;
    let started = Instant::now();
    let mut found = 0usize;
    for k in 0..n_gets {
        let i = k.wrapping_mul(7919) % ROWS;
        if let Ok(out) = engine.read("bench", &mut Scan::get(row(i).as_bytes())) {
            found += out.rows.len();
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("point gets:      {}  ({found} found)", rate(n_gets, secs));

    let groups = ROWS / GROUP;
    let n_scans = 50_000u64;
    let mut engine_cells = 0usize;
    let started = Instant::now();
    for k in 0..n_scans {
        let g = k.wrapping_mul(104_729) % groups;
        if let Ok(out) = engine.read("bench", &mut Scan::prefix(prefix(g).as_bytes())) {
            engine_cells += out.rows.iter().map(|r| r.cells.len()).sum::<usize>();
        }
    }
    let scan_secs = started.elapsed().as_secs_f64();
    println!(
        "10-row scans:    {}  ({} cells)",
        rate(n_scans, scan_secs),
        engine_cells
    );

    let started = Instant::now();
    let mut rev_cells = 0usize;
    for k in 0..n_scans {
        let g = k.wrapping_mul(104_729) % groups;
        let p = prefix(g);
        let mut scan = Scan {
            reversed: true,
            start_row: format!("{p}\u{7f}").into_bytes(),
            stop_row: p[..p.len() - 1].as_bytes().to_vec(),
            limit: Some(10),
            ..Scan::default()
        };
        if let Ok(out) = engine.read("bench", &mut scan) {
            rev_cells += out.rows.iter().map(|r| r.cells.len()).sum::<usize>();
        }
    }
    let rev_secs = started.elapsed().as_secs_f64();
    println!(
        "reversed scans:  {}  ({} cells)",
        rate(n_scans, rev_secs),
        rev_cells
    );

    // Baseline: the same cells in one sorted Vec; a scan is a binary search plus cloning the
    // matching cells, as the engine clones what it returns.
    let mut all: Vec<Cell> = Vec::with_capacity(cells as usize);
    let mut scan = Scan {
        max_versions: 1,
        ..Scan::default()
    };
    if let Ok(out) = engine.read("bench", &mut scan) {
        all.extend(out.rows.into_iter().flat_map(|r| r.cells));
    }
    all.sort();
    let started = Instant::now();
    let mut vec_cells = 0usize;
    for k in 0..n_scans {
        let g = k.wrapping_mul(104_729) % groups;
        let p = prefix(g);
        let at = all.partition_point(|c| c.row.as_slice() < p.as_bytes());
        let got: Vec<Cell> = all[at..]
            .iter()
            .take_while(|c| c.row.starts_with(p.as_bytes()))
            .cloned()
            .collect();
        vec_cells += got.len();
    }
    let vec_secs = started.elapsed().as_secs_f64();
    println!(
        "Vec baseline:    {}  ({} cells)",
        rate(n_scans, vec_secs),
        vec_cells
    );
    println!(
        "scan cost vs sorted Vec: {:.2}x forward, {:.2}x reversed",
        scan_secs / vec_secs.max(1e-9),
        rev_secs / vec_secs.max(1e-9)
    );
    println!("peak memory:     {:.0} MB (VmHWM)", peak_rss_mb());
    generate_cells();
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
        "generate:        {} cells  ({secs:.2} s for {saved} cells recorded, {regions} regions; {})",
        rate(1_000_000, secs),
        out.output.lines().next().unwrap_or_default()
    );
}
