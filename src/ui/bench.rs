//! `window.rowkeyBench`, exposed when the page's URL has `?bench`, for the browser benchmarks
//! (`tests/e2e/bench-persist.mjs`, `tests/e2e/bench-storage.mjs`). It holds one benchmark
//! table outside the app's state, and each operation is one call from JavaScript into the
//! engine, so the benchmark can time the engine against JavaScript stores in the same page:
//!
//! - `persist(cells)`: builds its own table and resolves with the persistence report;
//! - `load(bytes)`: a new table pre-split in 16 regions, filled from `bytes` (cells as
//!   `[len][row][len][qualifier][len][value]`, family `f`, one put per row) and flushed;
//!   returns the cells written;
//! - `get(row)`, `scan(start, rows, reversed)`, `fullScan()`: the cells a read returned;
//! - `saveRestore()`: the table saved and restored through IndexedDB, the figures as JSON;
//! - `memoryBytes()`: the WebAssembly memory's size; `clear()` drops the table.

use std::cell::RefCell;

use js_sys::{Function, Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::engine::{create_benchmark_table, Engine, Mutation, Scan};

const TABLE: &str = "bench";

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
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
        leak(Closure::<dyn Fn(Uint8Array) -> Result<f64, JsValue>>::new(
            |bytes: Uint8Array| {
                load(&bytes)
                    .map(|n| n as f64)
                    .map_err(|e| JsValue::from_str(&e))
            },
        )),
    );
    set(
        "get",
        leak(Closure::<dyn Fn(String) -> u32>::new(|row: String| {
            read(&mut Scan::get(row.as_bytes()))
        })),
    );
    set(
        "scan",
        leak(Closure::<dyn Fn(String, u32, bool) -> u32>::new(
            |start: String, rows: u32, reversed: bool| {
                read(&mut Scan {
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
            ENGINE.with(|e| e.borrow_mut().take());
        })),
    );
    let _ = Reflect::set(window, &JsValue::from_str("rowkeyBench"), &hook);
}

/// The closure as a JavaScript function that lives as long as the page.
fn leak<T: ?Sized + wasm_bindgen::closure::WasmClosure>(closure: Closure<T>) -> Function {
    closure.into_js_value().unchecked_into()
}

/// A new benchmark table ([`create_benchmark_table`], as `benches/engine.rs` makes it), filled
/// from `bytes` and flushed, in place of the last one.
fn load(bytes: &Uint8Array) -> Result<usize, String> {
    ENGINE.with(|e| e.borrow_mut().take());
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    create_benchmark_table(&mut engine, TABLE).map_err(|e| e.to_string())?;
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
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
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

/// The cells `scan` returns from the table; 0 without one.
fn read(scan: &mut Scan) -> u32 {
    ENGINE.with(|e| {
        e.borrow()
            .as_ref()
            .and_then(|engine| engine.read(TABLE, scan).ok())
            .map(|out| out.rows.iter().map(|r| r.cells.len() as u32).sum())
            .unwrap_or(0)
    })
}

async fn save_restore() -> Result<JsValue, JsValue> {
    // Out of the cell for the awaits; put back after.
    let mut engine = ENGINE
        .with(|e| e.borrow_mut().take())
        .ok_or_else(|| JsValue::from_str("no table loaded"))?;
    let figures = crate::persist::bench::figures(&mut engine).await;
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    let f = figures.map_err(|e| JsValue::from_str(&e))?;
    Ok(JsValue::from_str(
        &serde_json::json!({
            "runs": f.runs,
            "bytes": f.bytes,
            "encodeMs": f.encode_ms,
            "saveMs": f.save_ms,
            "readMs": f.read_ms,
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
