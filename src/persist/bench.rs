//! The browser benchmark of persistence (prints figures, asserts nothing): saves and restores
//! a table of `cells` cells through IndexedDB, and writes and reads the same bytes as one raw
//! blob for comparison. Reached from the page as `rowkeyBench(cells)` when the URL has `?bench`;
//! `node tests/e2e/bench-persist.mjs` runs it against the release build.

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

/// Runs the benchmark and returns its report.
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

    let idb = Idb::open("rowkey-bench").await.map_err(|e| e.message)?;
    idb.apply(&SavePlan {
        clear_all: true,
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.message)?;
    let started = now();
    let plan = Saver::new()
        .checkpoint(&mut engine)
        .map_err(|e| e.to_string())?;
    let encode_ms = now() - started;
    let bytes = plan.bytes();
    idb.apply(&plan).await.map_err(|e| e.message)?;
    let save_ms = now() - started;

    let started = now();
    let records = idb.read_all().await.map_err(|e| e.message)?;
    let read_ms = now() - started;
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    let restore_ms = now() - started;
    let restored: usize = loaded.engine.all_runs().map(|r| r.len()).sum();

    // The same bytes as one blob.
    let mut blob = Vec::with_capacity(bytes);
    for (_, b) in &plan.put_runs {
        blob.extend_from_slice(b);
    }
    let raw = Idb::open("rowkey-bench-raw").await.map_err(|e| e.message)?;
    let started = now();
    raw.apply(&SavePlan {
        clear_all: true,
        put_runs: vec![(0, blob)],
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.message)?;
    let raw_write_ms = now() - started;
    let started = now();
    let back = raw.read_all().await.map_err(|e| e.message)?;
    let raw_read_ms = now() - started;
    let raw_bytes: usize = back.runs.iter().map(|r| r.1.len()).sum();
    idb.close();
    raw.close();

    Ok(format!(
        "rowkey persistence benchmark: {cells} cells, {rows} rows, {} runs, {:.1} MB encoded\n\
         build table in memory:   {load_ms:>8.0} ms\n\
         save (encode + commit):  {save_ms:>8.0} ms   (encode {encode_ms:.0} ms)\n\
         restore (read + decode): {restore_ms:>8.0} ms   (read {read_ms:.0} ms; {restored} cells back, {} problems)\n\
         raw blob write:          {raw_write_ms:>8.0} ms\n\
         raw blob read:           {raw_read_ms:>8.0} ms   ({:.1} MB)\n\
         save / raw write:        {:>8.2}x\n\
         restore / raw read:      {:>8.2}x",
        plan.put_runs.len(),
        bytes as f64 / 1_048_576.0,
        loaded.problems.len(),
        raw_bytes as f64 / 1_048_576.0,
        save_ms / raw_write_ms.max(0.001),
        restore_ms / raw_read_ms.max(0.001),
    ))
}
