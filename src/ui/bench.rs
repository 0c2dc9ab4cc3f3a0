//! `window.rowkeyBench`, exposed when the page's URL has `?bench`, for the browser benchmarks
//! (`tests/e2e/bench-persist.mjs`, `tests/e2e/bench-storage.mjs`). It holds one benchmark
//! table outside the app's state, and each operation is one call from JavaScript into the
//! engine, so the benchmark can time the engine against JavaScript stores in the same page:
//!
//! - `persist(cells)`: builds its own table and resolves with the persistence report;
//! - `load(bytes, layout)`: a new table in `layout` (`"regions"`, the default: pre-split in 16
//!   regions; `"runs"`: one region, flushed as it loads and major-compacted after), filled from
//!   `bytes` (cells as `[len][row][len][qualifier][len][value]`, family `f`, one put per row)
//!   and flushed; returns the cells written. It becomes the selected table;
//! - `select(layout)`: selects the table of that layout for the calls below;
//! - `get(row)`, `scan(start, rows, reversed)`, `fullScan()`: the cells a read returned, its
//!   rows handed over one by one as views of the cells where the table keeps them, and not
//!   kept (as the shell's `get` and `scan` read them); `fullScanKept()` keeps every row in its
//!   result, its cells copied;
//! - `saveRestore()`: the table saved and restored through IndexedDB, the figures as JSON (the
//!   page's garbage collected before each timed step when the page sets
//!   `window.rowkeyBenchCollect`);
//! - `memoryBytes()`: the WebAssembly memory's size; `clear()` drops the table.

use std::cell::{Cell, RefCell};

use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::engine::{create_benchmark_table, BenchmarkLayout, Engine, Mutation, Scan};

const TABLE: &str = "bench";

thread_local! {
    /// One engine per layout, each holding one table, so both can be loaded side by side.
    static ENGINES: RefCell<[Option<Engine>; 2]> = const { RefCell::new([None, None]) };
    /// The layout the reads, `saveRestore` and `clear` act on.
    static SELECTED: Cell<usize> = const { Cell::new(0) };
}

/// The layout named by the benchmark (`"runs"`, or anything else for the regions), and its slot.
fn layout(name: Option<String>) -> (BenchmarkLayout, usize) {
    match name.as_deref() {
        Some("runs") => (BenchmarkLayout::Runs, 1),
        _ => (BenchmarkLayout::Regions, 0),
    }
}

/// Runs `f` on the selected layout's engine slot.
fn with_selected<T>(f: impl FnOnce(&mut Option<Engine>) -> T) -> T {
    let slot = SELECTED.with(Cell::get);
    ENGINES.with(|e| {
        let mut engines = e.borrow_mut();
        // `slot` is 0 or 1, set only by `layout`.
        let [regions, runs] = &mut *engines;
        f(if slot == 1 { runs } else { regions })
    })
}

/// Sets `window.rowkeyBench`.
pub(super) fn expose(window: &web_sys::Window) {
    let hook = Object::new();
    let set = |name: &str, f: Function| {
        let _ = Reflect::set(&hook, &JsValue::from_str(name), &f);
    };
    set(
        "persist",
        leak(Closure::<dyn Fn(f64) -> Promise>::new(|cells: f64| {
            wasm_bindgen_futures::future_to_promise(async move {
                crate::persist::bench::save_restore(cells as usize)
                    .await
                    .map(|s| JsValue::from_str(&s))
                    .map_err(|e| JsValue::from_str(&e))
            })
        })),
    );
    set(
        "load",
        leak(Closure::<
            dyn Fn(Uint8Array, Option<String>) -> Result<f64, JsValue>,
        >::new(|bytes: Uint8Array, name: Option<String>| {
            load(&bytes, name)
                .map(|n| n as f64)
                .map_err(|e| JsValue::from_str(&e))
        })),
    );
    set(
        "select",
        leak(Closure::<dyn Fn(Option<String>)>::new(
            |name: Option<String>| {
                SELECTED.with(|s| s.set(layout(name).1));
            },
        )),
    );
    set(
        "get",
        leak(Closure::<dyn Fn(String) -> u32>::new(|row: String| {
            // The row JavaScript passed becomes the get's start row as it is (one copy, for
            // the stop row, where `Scan::get` would copy it twice).
            let row = row.into_bytes();
            read_viewed(&mut Scan {
                stop_row: row.clone(),
                start_row: row,
                stop_inclusive: true,
                ..Scan::default()
            })
        })),
    );
    set(
        "scan",
        leak(Closure::<dyn Fn(String, u32, bool) -> u32>::new(
            |start: String, rows: u32, reversed: bool| {
                read_viewed(&mut Scan {
                    start_row: start.into_bytes(),
                    reversed,
                    limit: Some(rows as usize),
                    ..Scan::default()
                })
            },
        )),
    );
    set(
        "fullScan",
        leak(Closure::<dyn Fn() -> u32>::new(|| {
            read_viewed(&mut Scan::default())
        })),
    );
    set(
        "fullScanKept",
        leak(Closure::<dyn Fn() -> u32>::new(|| {
            read(&mut Scan::default())
        })),
    );
    set(
        "saveRestore",
        leak(Closure::<dyn Fn() -> Promise>::new(|| {
            wasm_bindgen_futures::future_to_promise(save_restore())
        })),
    );
    set(
        "memoryBytes",
        leak(Closure::<dyn Fn() -> f64>::new(memory_bytes)),
    );
    set(
        "clear",
        leak(Closure::<dyn Fn()>::new(|| {
            with_selected(Option::take);
        })),
    );
    let _ = Reflect::set(window, &JsValue::from_str("rowkeyBench"), &hook);
}

/// The closure as a JavaScript function that lives as long as the page.
fn leak<T: ?Sized + wasm_bindgen::closure::WasmClosure>(closure: Closure<T>) -> Function {
    closure.into_js_value().unchecked_into()
}

/// A new benchmark table in the named layout ([`create_benchmark_table`], as `benches/engine.rs`
/// makes it), filled from `bytes` and flushed (and for the runs layout major-compacted, as
/// `benches/engine.rs` does), in place of the last one of that layout, which it selects.
fn load(bytes: &Uint8Array, name: Option<String>) -> Result<usize, String> {
    let (layout, slot) = layout(name);
    SELECTED.with(|s| s.set(slot));
    with_selected(Option::take);
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    create_benchmark_table(&mut engine, TABLE, layout).map_err(|e| e.to_string())?;
    // The input is copied into WebAssembly memory a megabyte at a time, so the memory the
    // benchmark reports is the engine's, not a copy of the whole workload.
    const CHUNK: u32 = 1 << 20;
    let total = bytes.length();
    let mut buf: Vec<u8> = Vec::new();
    let (mut from, mut cells, mut rows) = (0u32, 0usize, 0u64);
    let mut row: Vec<u8> = Vec::new();
    let mut puts: Vec<Mutation> = Vec::new();
    while from < total {
        let to = from.saturating_add(CHUNK).min(total);
        let old = buf.len();
        buf.resize(old + (to - from) as usize, 0);
        if let Some(tail) = buf.get_mut(old..) {
            bytes.subarray(from, to).copy_to(tail);
        }
        from = to;
        let mut at = 0;
        while let Some((r, qualifier, value)) = record(&buf, &mut at) {
            if r != row.as_slice() {
                if !puts.is_empty() {
                    put_row(&mut engine, &row, &mut puts)?;
                    rows += 1;
                }
                row = r.to_vec();
            }
            puts.push(Mutation::Put {
                family: b"f".to_vec(),
                qualifier: qualifier.to_vec(),
                timestamp: Some(1_000 + rows),
                value: value.to_vec(),
                ttl_ms: None,
            });
            cells += 1;
        }
        buf.drain(..at);
    }
    if !buf.is_empty() {
        return Err("truncated input".into());
    }
    if !puts.is_empty() {
        put_row(&mut engine, &row, &mut puts)?;
    }
    engine.flush(TABLE).map_err(|e| e.to_string())?;
    if layout == BenchmarkLayout::Runs {
        engine.compact(TABLE, true).map_err(|e| e.to_string())?;
    }
    with_selected(|e| *e = Some(engine));
    Ok(cells)
}

/// The cell at `*at` (row, qualifier, value, each after a one-byte length), moving past it;
/// `None`, not moving, when `bytes` ends inside it.
fn record<'a>(bytes: &'a [u8], at: &mut usize) -> Option<(&'a [u8], &'a [u8], &'a [u8])> {
    let mut i = *at;
    let mut field = || {
        let len = *bytes.get(i)? as usize;
        let f = bytes.get(i + 1..i + 1 + len)?;
        i += 1 + len;
        Some(f)
    };
    let cell = (field()?, field()?, field()?);
    *at = i;
    Some(cell)
}

/// One row's puts as one mutation, as a client's `Put` of several columns.
fn put_row(engine: &mut Engine, row: &[u8], puts: &mut Vec<Mutation>) -> Result<(), String> {
    let r = engine.mutate(TABLE, row, puts);
    puts.clear();
    r.map(|_| ()).map_err(|e| e.to_string())
}

/// The cells `scan` returns from the table, its rows handed over as views and not kept (as
/// the shell's `get` and `scan` read them, formatting each row where the table keeps its
/// cells); 0 without a table.
fn read_viewed(scan: &mut Scan) -> u32 {
    with_selected(|e| {
        let mut n = 0;
        e.as_ref()
            .map(|engine| engine.read_each(TABLE, scan, &mut |row| n += row.len() as u32));
        n
    })
}

/// The cells `scan` returns from the table, its rows kept in its result; 0 without one.
fn read(scan: &mut Scan) -> u32 {
    with_selected(|e| {
        e.as_ref()
            .and_then(|engine| engine.read(TABLE, scan).ok())
            .map(|out| out.rows.iter().map(|r| r.cells.len() as u32).sum())
            .unwrap_or(0)
    })
}

async fn save_restore() -> Result<JsValue, JsValue> {
    // Out of the cell for the awaits; put back after.
    let mut engine =
        with_selected(Option::take).ok_or_else(|| JsValue::from_str("no table loaded"))?;
    let figures = crate::persist::bench::figures(&mut engine).await;
    with_selected(|e| *e = Some(engine));
    let f = figures.map_err(|e| JsValue::from_str(&e))?;
    Ok(JsValue::from_str(
        &serde_json::json!({
            "runs": f.runs,
            "bytes": f.bytes,
            "encodeMs": f.encode_ms,
            "saveMs": f.save_ms,
            "readMs": f.read_ms,
            "openingMs": f.opening_ms,
            "clearMs": f.clear_ms,
            "requestedMs": f.requested_ms,
            "firstRunMs": f.first_run_ms,
            "runsDoneMs": f.runs_done_ms,
            "longestWaitMs": f.longest_wait_ms,
            "afterLastRunMs": f.after_last_run_ms,
            "restoreMs": f.restore_ms,
            "restored": f.restored,
            "problems": f.problems,
            "rawWriteMs": f.raw_write_ms,
            "rawReadMs": f.raw_read_ms,
            "rawBytes": f.raw_bytes,
        })
        .to_string(),
    ))
}

/// The size of the WebAssembly memory in bytes (it grows, never shrinks).
fn memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as f64
        })
        .unwrap_or(0.0)
}
