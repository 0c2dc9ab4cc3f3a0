//! The IndexedDB storage layer in a real browser: plans commit and read back, the log replays,
//! a damaged record is reported and skipped, a quota error leaves the committed state alone.
#![cfg(target_arch = "wasm32")]

use rowkey::engine::{Engine, Scan};
use rowkey::persist::idb::Idb;
use rowkey::persist::{load, SavePlan, Saver};
use rowkey::shell::Shell;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn shell() -> Shell {
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    engine.record_changes(true);
    Shell::new(engine, Box::new(|| 0.0))
}

fn rows(e: &Engine, table: &str) -> Vec<String> {
    let mut raw = Scan {
        raw: true,
        max_versions: u32::MAX,
        ..Scan::default()
    };
    e.read(table, &mut raw)
        .map(|o| {
            o.rows
                .into_iter()
                .flat_map(|r| r.cells)
                .map(|c| format!("{:?}/{}/{:?}/{:?}", c.row, c.timestamp, c.kind, c.value))
                .collect()
        })
        .unwrap_or_default()
}

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
        let plan = saver.plan(&mut sh.engine);
        if !plan.is_empty() {
            idb.apply(&plan).await.map_err(|e| e.message)?;
            plans += 1;
        }
    }
    Ok(plans)
}

#[wasm_bindgen_test]
async fn plans_commit_and_load_back() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-roundtrip")
        .await
        .map_err(|e| e.message)?;
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
    let records = idb.read_all().await.map_err(|e| e.message)?;
    assert!(!records.runs.is_empty(), "flushes stored sorted runs");
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(rows(&loaded.engine, "t"), rows(&sh.engine, "t"));
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn the_log_replays_in_order() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-log").await.map_err(|e| e.message)?;
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
    let records = idb.read_all().await.map_err(|e| e.message)?;
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
        got.rows[0].cells[0].value, b"2",
        "the later write at the same timestamp wins after replay too"
    );
    idb.close();
    Ok(())
}

#[wasm_bindgen_test]
async fn a_damaged_record_is_reported_and_skipped() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-damage")
        .await
        .map_err(|e| e.message)?;
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
        wal: Some(b"RKEY\x02\x01 not what it claims".to_vec()),
        ..SavePlan::default()
    })
    .await
    .map_err(|e| e.message)?;
    run_and_save(&idb, &mut sh, &mut saver, &["put 't', 'b', 'f:q', '2'"]).await?;
    let loaded = load(
        Box::new(|| 1_700_000_000_000),
        idb.read_all().await.map_err(|e| e.message)?,
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

#[wasm_bindgen_test]
async fn a_quota_error_fails_the_save_and_keeps_the_committed_state() -> Result<(), String> {
    let idb = Idb::open("rowkey-test-quota")
        .await
        .map_err(|e| e.message)?;
    let mut sh = shell();
    let mut saver = Saver::new();
    run_and_save(
        &idb,
        &mut sh,
        &mut saver,
        &["create 't', 'f'", "put 't', 'kept', 'f:q', 'v'"],
    )
    .await?;
    // The store refuses large records as a browser over quota does.
    let patch = "(() => { for (const m of ['put', 'add']) { const o = IDBObjectStore.prototype[m]; IDBObjectStore.prototype['__rowkey_' + m] = o;
        IDBObjectStore.prototype[m] = function (v, k) { if (v && v.byteLength > 5000) throw new DOMException('full', 'QuotaExceededError'); return o.call(this, v, k); }; } })()";
    js_sys::eval(patch).map_err(|e| format!("{e:?}"))?;
    sh.run(&format!("put 't', 'lost', 'f:q', '{}'", "z".repeat(20_000)));
    let plan = saver.plan(&mut sh.engine);
    let err = idb.apply(&plan).await.err().ok_or("the save should fail")?;
    js_sys::eval("for (const m of ['put', 'add']) IDBObjectStore.prototype[m] = IDBObjectStore.prototype['__rowkey_' + m]").map_err(|e| format!("{e:?}"))?;
    assert!(err.quota, "{}", err.message);
    saver.failed();
    let loaded = load(
        Box::new(|| 1_700_000_000_000),
        idb.read_all().await.map_err(|e| e.message)?,
    );
    assert!(loaded.problems.is_empty());
    assert_eq!(rows(&loaded.engine, "t").len(), 1, "only the committed row");
    // The next save rewrites everything, so nothing stays lost once there is room.
    let full = saver.plan(&mut sh.engine);
    assert!(full.clear_runs && full.is_checkpoint());
    idb.apply(&full).await.map_err(|e| e.message)?;
    let loaded = load(
        Box::new(|| 1_700_000_000_000),
        idb.read_all().await.map_err(|e| e.message)?,
    );
    assert_eq!(rows(&loaded.engine, "t").len(), 2);
    idb.close();
    Ok(())
}
