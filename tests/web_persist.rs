//! The IndexedDB storage layer in a real browser: plans commit and read back, the log replays,
//! a damaged record is reported and skipped, a damaged catalog falls back a generation, and a
//! record of the wrong type is reported on its own (each record is read by a request of its own).
#![cfg(target_arch = "wasm32")]

#[path = "common/browser.rs"]
mod browser;

use browser::{rows, run_js, shell};
use rowkey::engine::Scan;
use rowkey::persist::idb::Idb;
use rowkey::persist::{load, SavePlan, Saver};
use rowkey::shell::Shell;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Runs commands, saving after each as the app does.
async fn run_and_save(
    idb: &Idb,
    sh: &mut Shell,
    saver: &mut Saver,
    commands: &[&str],
) -> Result<usize, String> {
    let mut plans = 0;
    for cmd in commands {
        sh.run(cmd);
        let plan = saver.plan(&mut sh.engine).map_err(|e| e.to_string())?;
        if !plan.is_empty() {
            idb.apply(&plan).await.map_err(|e| e.to_string())?;
            plans += 1;
        }
    }
    Ok(plans)
}

#[wasm_bindgen_test]
async fn plans_commit_and_load_back() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-roundtrip")
        .await
        .map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    let mut cmds: Vec<String> =
        vec!["create 't', {NAME => 'f', VERSIONS => 2}, SPLITS => ['k']".into()];
    for i in 0..300 {
        cmds.push(format!(
            "put 't', 'r{:03}', 'f:q', 'value {i} with some padding to fill memstores'",
            (i * 7) % 300
        ));
    }
    cmds.push("deleteall 't', 'r007'".into());
    let refs: Vec<&str> = cmds.iter().map(String::as_str).collect();
    run_and_save(&idb, &mut sh, &mut saver, &refs).await?;
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    // The runs come back opened as they were read (`StoredRecords::opened`), not as bytes.
    assert!(
        records.runs.is_empty() && !records.opened.is_empty(),
        "flushes stored sorted runs"
    );
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(rows(&loaded.engine, "t"), rows(&sh.engine, "t"));
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn the_log_replays_in_order() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-log")
        .await
        .map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &[
            "create 't', 'f'",
            "put 't', 'a', 'f:q', '1', 5",
            "put 't', 'a', 'f:q', '2', 5",
            "delete 't', 'a', 'f:q', 4",
        ],
    )
    .await?;
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    assert_eq!(
        records.wal.len(),
        3,
        "one log record per command after the checkpoint"
    );
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    assert_eq!(loaded.replayed, 3);
    let mut e = loaded.engine;
    let got = e
        .scan("t", &mut Scan::get(b"a"))
        .map_err(|e| e.to_string())?;
    assert_eq!(
        got.rows[0].cells.first().map(|c| c.value),
        Some(&b"2"[..]),
        "the later write at the same timestamp wins after replay too"
    );
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn a_damaged_record_is_reported_and_skipped() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-damage")
        .await
        .map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &["create 't', 'f'", "put 't', 'a', 'f:q', '1'"],
    )
    .await?;
    idb.apply(&SavePlan {
        wal: Some(((1, 99), b"RKEY\x02\x01 not what it claims".to_vec())),
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.to_string())?;
    run_and_save(&idb, &mut sh, &mut saver, &["put 't', 'b', 'f:q', '2'"]).await?;
    let loaded = load(
        Box::new(|| 1_700_000_000_000),
        idb.read_all().await.map_err(|e| e.to_string())?,
    );
    assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
    assert!(loaded.problems[0].contains("is damaged (checksum mismatch"));
    assert_eq!(
        rows(&loaded.engine, "t").len(),
        2,
        "the good records around it load"
    );
    idb.close();
    Ok(())
}

/// Flips a byte in the middle of a stored record, through IndexedDB itself.
async fn flip_stored(db: &str, store: &str, key: &str) -> Result<(), String> {
    let script = format!(
        "new Promise((ok, fail) => {{ const r = indexedDB.open('{db}'); r.onsuccess = () => {{ const d = r.result; const tx = d.transaction('{store}', 'readwrite'); const s = tx.objectStore('{store}'); const key = {key}; const g = s.get(key); g.onsuccess = () => {{ const v = new Uint8Array(g.result); v[v.length >> 1] ^= 0x20; s.put(v, key); }}; tx.oncomplete = () => {{ d.close(); ok(true); }}; tx.onerror = () => fail(tx.error); }}; r.onerror = () => fail(r.error); }})"
    );
    run_js(&script).await?;
    Ok(())
}

#[wasm_bindgen_test]
async fn a_flipped_byte_in_the_catalog_falls_back_to_the_generation_before() -> Result<(), String> {
    let name = "rowkey-test-catalog-flip";
    let _ = Idb::delete(name).await;
    let idb = Idb::open(name).await.map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &[
            "create 't', 'f'",
            "put 't', 'a', 'f:q', '1'",
            "flush 't'",
            "put 't', 'b', 'f:q', '2'",
            "flush 't'",
            "put 't', 'c', 'f:q', '3'",
        ],
    )
    .await?;
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    let newest = *records.catalogs.keys().last().ok_or("a catalog")?;
    assert_eq!(records.catalogs.len(), 2, "the generation before is kept");
    idb.close();
    flip_stored(name, "meta", &format!("'catalog.{newest:020}'")).await?;
    let idb = Idb::open(name).await.map_err(|e| e.to_string())?;
    let loaded = load(
        Box::new(|| 1_700_000_000_000),
        idb.read_all().await.map_err(|e| e.to_string())?,
    );
    assert!(
        loaded
            .problems
            .iter()
            .any(|p| p.starts_with(&format!("catalog generation {newest} is damaged"))),
        "{:?}",
        loaded.problems
    );
    assert_eq!(loaded.generation, Some(newest - 1));
    let mut e = loaded.engine;
    let got = e
        .scan("t", &mut Scan::default())
        .map_err(|e| e.to_string())?;
    assert_eq!(
        got.rows.len(),
        3,
        "every acknowledged row: a and b from runs, c from the log"
    );
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn a_record_of_the_wrong_type_is_reported_not_paired_with_the_next_key() -> Result<(), String>
{
    let name = "rowkey-test-cursor";
    let _ = Idb::delete(name).await;
    let idb = Idb::open(name).await.map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &[
            "create 't', 'f'",
            "put 't', 'a', 'f:q', '1'",
            "put 't', 'b', 'f:q', '2'",
        ],
    )
    .await?;
    idb.close();
    // A string where the first log record's bytes should be.
    let script = format!(
        "new Promise((ok, fail) => {{ const r = indexedDB.open('{name}'); r.onsuccess = () => {{ const d = r.result; const tx = d.transaction('wal', 'readwrite'); tx.objectStore('wal').put('not bytes', [1, 1]); tx.oncomplete = () => {{ d.close(); ok(true); }}; tx.onerror = () => fail(tx.error); }}; }})"
    );
    run_js(&script).await?;
    let idb = Idb::open(name).await.map_err(|e| e.to_string())?;
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    assert_eq!(records.unreadable.len(), 1, "{:?}", records.unreadable);
    assert_eq!(records.wal.len(), 1);
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    let mut e = loaded.engine;
    let got = e
        .scan("t", &mut Scan::default())
        .map_err(|e| e.to_string())?;
    assert_eq!(
        got.rows.len(),
        1,
        "row b, from the record after the bad one, keeps its own key"
    );
    assert_eq!(got.rows[0].row(), b"b");
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn a_large_run_stored_in_parts_reads_back_and_its_parts_go_with_it() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-parts")
        .await
        .map_err(|e| e.to_string())?;
    idb.apply(&SavePlan {
        clear_all: true,
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.to_string())?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &["create 'big', 'f', MAX_FILESIZE => 0"],
    )
    .await?;
    // 6,000 rows of a 1,000-byte value, major-compacted: one run of about 6 MB, in parts.
    let value = "v".repeat(1_000);
    for i in 0..6_000 {
        let put = rowkey::engine::Mutation::Put {
            family: b"f".to_vec(),
            qualifier: b"q".to_vec(),
            timestamp: None,
            value: value.as_bytes().to_vec(),
            ttl_ms: None,
        };
        sh.engine
            .mutate("big", format!("row{i:06}").as_bytes(), &[put])
            .map_err(|e| e.to_string())?;
    }
    sh.engine.flush("big").map_err(|e| e.to_string())?;
    sh.engine.compact("big", true).map_err(|e| e.to_string())?;
    let plan = saver.plan(&mut sh.engine).map_err(|e| e.to_string())?;
    assert_eq!((plan.put_runs.len(), plan.put_parts.len()), (1, 6));
    idb.apply(&plan).await.map_err(|e| e.to_string())?;
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    assert!(records.unreadable.is_empty(), "{:?}", records.unreadable);
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(rows(&loaded.engine, "big"), rows(&sh.engine, "big"));
    assert_eq!(rows(&loaded.engine, "big").len(), 6_000);
    // Dropping the table deletes the run at the next checkpoint but one (the generation
    // before keeps it); its parts go with it.
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &[
            "disable 'big'",
            "drop 'big'",
            "create 't', 'f'",
            "put 't', 'a', 'f:q', '1'",
            "flush 't'",
        ],
    )
    .await?;
    let left = idb.read_run_bytes().await.map_err(|e| e.to_string())?;
    assert!(
        left.iter().all(|b| b.len() < 100_000),
        "only small runs are left: {:?}",
        left.iter().map(Vec::len).collect::<Vec<_>>()
    );
    idb.close();
    Ok(())
}
