//! The browser benchmark of persistence (prints figures, asserts nothing): saves and restores
//! a table through IndexedDB, and writes and reads the same bytes as one raw blob for
//! comparison. Reached from the page through `rowkeyBench` when the URL has `?bench`:
//! `node tests/e2e/bench-persist.mjs` runs [`save_restore`] against the release build, and
//! `node tests/e2e/bench-storage.mjs` runs [`figures`] on its own workload.

use wasm_bindgen::JsCast;

use super::idb::Idb;
use super::{load, SavePlan, Saver};
use crate::engine::{
    split_keys, Engine, FamilyDescriptor, Mutation, TableDescriptor, TableSettings,
};

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Collects the page's garbage when the page offers it (`window.rowkeyBenchCollect`, which
/// `bench-storage.mjs` sets where V8's `gc` is exposed), so that each timed step starts from a
/// collected heap: a major collection left to V8 starts in whichever step allocates past its
/// limit (each step hands the browser or takes from it 63 MB of buffers), and with other stores'
/// garbage in the page it took 0.4 to 0.7 s.
fn collect() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hook = js_sys::Reflect::get(
        &window,
        &wasm_bindgen::JsValue::from_str("rowkeyBenchCollect"),
    );
    if let Some(f) = hook
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = f.call0(&wasm_bindgen::JsValue::NULL);
    }
}

/// What one save and restore of an engine's tables cost, next to one raw blob of the same bytes.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    pub runs: usize,
    /// The encoded runs, in bytes.
    pub bytes: usize,
    pub encode_ms: f64,
    /// Emptying the database before the save (deleting what the layout saved before held).
    pub clear_ms: f64,
    /// Encoding and committing the checkpoint.
    pub save_ms: f64,
    /// Reading the records, each run opened (its blocks checked, its rows read) as it arrives
    /// while the browser reads the rest.
    pub read_ms: f64,
    /// Reading the records and decoding them into an engine.
    pub restore_ms: f64,
    /// Of the read, the time spent opening the run records as they arrived.
    pub opening_ms: f64,
    /// The restore's steps, from its start: every record requested (the keys read), the first
    /// run record arrived, the runs all opened; and the longest wait for a run record.
    pub requested_ms: f64,
    pub first_run_ms: f64,
    pub runs_done_ms: f64,
    pub longest_wait_ms: f64,
    /// From the last run record's arrival to the engine restored: what of the restore follows
    /// the runs' read.
    pub after_last_run_ms: f64,
    /// Cells in the restored engine's runs.
    pub restored: usize,
    pub problems: usize,
    pub raw_write_ms: f64,
    pub raw_read_ms: f64,
    pub raw_bytes: usize,
}

/// Builds a table of `cells` cells and returns the report of saving and restoring it.
pub async fn save_restore(cells: usize) -> Result<String, String> {
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    let mut desc = TableDescriptor::new("bench", vec![FamilyDescriptor::new("f")]);
    desc.settings = TableSettings {
        flush_bytes: 4 << 20,
        compaction_threshold: 8,
        split_bytes: 0,
    };
    let splits = split_keys("HexStringSplit", 16).unwrap_or_default();
    engine
        .create_table(desc, splits)
        .map_err(|e| e.to_string())?;
    let started = now();
    let rows = cells / 4;
    for i in 0..rows as u64 {
        let row = format!("{:08x}", i.wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF);
        let puts: Vec<Mutation> = ["a", "b", "c", "d"]
            .iter()
            .map(|q| Mutation::Put {
                family: b"f".to_vec(),
                qualifier: q.as_bytes().to_vec(),
                timestamp: Some(1_000 + i),
                value: format!("value-{i}").into_bytes(),
                ttl_ms: None,
            })
            .collect();
        engine
            .mutate("bench", row.as_bytes(), &puts)
            .map_err(|e| e.to_string())?;
    }
    engine.flush("bench").map_err(|e| e.to_string())?;
    let load_ms = now() - started;
    let f = figures(&mut engine).await?;
    Ok(format!(
        "rowkey persistence benchmark: {cells} cells, {rows} rows, {} runs, {:.1} MB encoded\n\
         build table in memory:   {load_ms:>8.0} ms\n\
         save (encode + commit):  {:>8.0} ms   (encode {:.0} ms)\n\
         restore (read + decode): {:>8.0} ms   (read {:.0} ms; {} cells back, {} problems)\n\
         raw blob write:          {:>8.0} ms\n\
         raw blob read:           {:>8.0} ms   ({:.1} MB)\n\
         save / raw write:        {:>8.2}x\n\
         restore / raw read:      {:>8.2}x",
        f.runs,
        f.bytes as f64 / 1_048_576.0,
        f.save_ms,
        f.encode_ms,
        f.restore_ms,
        f.read_ms,
        f.restored,
        f.problems,
        f.raw_write_ms,
        f.raw_read_ms,
        f.raw_bytes as f64 / 1_048_576.0,
        f.save_ms / f.raw_write_ms.max(0.001),
        f.restore_ms / f.raw_read_ms.max(0.001),
    ))
}

/// Saves `engine`'s tables as one checkpoint into an emptied IndexedDB database and restores
/// them into a new engine (dropped again), then writes and reads the checkpoint's run bytes as
/// one blob in a second database.
pub async fn figures(engine: &mut Engine) -> Result<Figures, String> {
    let mut f = Figures::default();
    let idb = Idb::open("rowkey-bench").await.map_err(|e| e.message)?;
    let clearing = now();
    idb.apply(&SavePlan {
        clear_all: true,
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.message)?;
    f.clear_ms = now() - clearing;
    collect();
    let started = now();
    let plan = Saver::new().checkpoint(engine).map_err(|e| e.to_string())?;
    f.encode_ms = now() - started;
    f.bytes = plan.bytes();
    f.runs = plan.put_runs.len();
    idb.apply(&plan).await.map_err(|e| e.message)?;
    f.save_ms = now() - started;

    collect();
    let started = now();
    let (records, times) = idb.read_all_timed().await.map_err(|e| e.message)?;
    f.read_ms = now() - started;
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    f.restore_ms = now() - started;
    f.opening_ms = times.opening_ms;
    f.requested_ms = times.requested_at - started;
    f.first_run_ms = times.first_run_at - started;
    f.runs_done_ms = times.runs_done_at - started;
    f.longest_wait_ms = times.longest_wait_ms;
    f.after_last_run_ms = now() - times.last_run_at;
    f.restored = loaded.engine.all_runs().map(|r| r.len()).sum();
    f.problems = loaded.problems.len();
    drop(loaded);

    // The same bytes as one blob.
    let mut blob = Vec::with_capacity(f.bytes);
    for b in plan
        .put_runs
        .iter()
        .map(|r| &r.1)
        .chain(plan.put_parts.iter().map(|r| &r.1))
    {
        blob.extend_from_slice(b);
    }
    drop(plan);
    let raw = Idb::open("rowkey-bench-raw").await.map_err(|e| e.message)?;
    collect();
    let started = now();
    raw.apply(&SavePlan {
        clear_all: true,
        put_runs: vec![(0, blob)],
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.message)?;
    f.raw_write_ms = now() - started;
    collect();
    let started = now();
    let back = raw.read_run_bytes().await.map_err(|e| e.message)?;
    f.raw_read_ms = now() - started;
    f.raw_bytes = back.iter().map(Vec::len).sum();
    idb.close();
    raw.close();
    Ok(f)
}
