//! The IndexedDB database across its versions and tabs, in a real browser: a database of
//! version 1 whose records are in the first layout (the catalog and memstores under plain
//! names, log records under plain numbers) opens at version 4, gains the store it lacked and
//! loads the same rows; an open that an older connection blocks says so and waits for it; and
//! another tab's upgrade closes this connection, after which a save says why and an open of the
//! older version is refused as a version change.
#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;

#[path = "common/browser.rs"]
mod browser;

use browser::{rows, run_js, shell};
use rowkey::persist::idb::Idb;
use rowkey::persist::{load, Saver, StorageErrorKind};
use rowkey::shell::Shell;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Runs commands, saving after each as the app does.
async fn run_and_save(idb: &Idb, sh: &mut Shell, commands: &[&str]) -> Result<(), String> {
    let mut saver = Saver::new();
    for cmd in commands {
        sh.run(cmd);
        let plan = saver.plan(&mut sh.engine).map_err(|e| e.to_string())?;
        idb.apply(&plan).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The version of database `name` and its stores, sorted, as "4: activity,meta,runs,wal".
async fn version_and_stores(name: &str) -> Result<String, String> {
    let v = run_js(&format!(
        "new Promise((ok, fail) => {{ const r = indexedDB.open('{name}'); r.onsuccess = () => {{ const d = r.result; const s = d.version + ': ' + Array.from(d.objectStoreNames).sort().join(','); d.close(); ok(s); }}; r.onerror = () => fail(r.error); }})"
    ))
    .await?;
    v.as_string().ok_or_else(|| format!("{v:?}"))
}

/// Copies the newest generation of database `from` into a new database `to` of version 1
/// (stores runs, wal and meta) in the first layout: its catalog and memstores under `catalog`
/// and `memstores`, its log records under their numbers, every run under its own key. Says
/// how many runs and log records it copied, as "runs 1, log 2".
async fn copy_into_first_layout(from: &str, to: &str) -> Result<String, String> {
    let v = run_js(&format!(
        "new Promise((ok, fail) => {{
          const src = indexedDB.open('{from}');
          src.onerror = () => fail(src.error);
          src.onsuccess = () => {{
            const s = src.result;
            const tx = s.transaction(['runs', 'wal', 'meta']);
            const got = {{}};
            for (const n of ['runs', 'wal', 'meta']) {{
              const keys = tx.objectStore(n).getAllKeys(), values = tx.objectStore(n).getAll();
              values.onsuccess = () => {{ got[n] = keys.result.map((k, i) => [k, values.result[i]]); }};
            }}
            tx.oncomplete = () => {{
              s.close();
              const g = Math.max(...got.meta.map(([k]) => Number(k.split('.')[1])));
              const name = (kind) => kind + '.' + String(g).padStart(20, '0');
              const old = indexedDB.open('{to}', 1);
              old.onupgradeneeded = () => {{ for (const n of ['runs', 'wal', 'meta']) old.result.createObjectStore(n); }};
              old.onerror = () => fail(old.error);
              old.onsuccess = () => {{
                const d = old.result;
                const w = d.transaction(['runs', 'wal', 'meta'], 'readwrite');
                for (const [k, v] of got.runs) w.objectStore('runs').put(v, k);
                for (const [k, v] of got.meta) {{
                  if (k === name('catalog')) w.objectStore('meta').put(v, 'catalog');
                  if (k === name('memstores')) w.objectStore('meta').put(v, 'memstores');
                }}
                const log = got.wal.filter(([k]) => k[0] === g);
                for (const [k, v] of log) w.objectStore('wal').put(v, k[1]);
                w.oncomplete = () => {{ d.close(); ok('runs ' + got.runs.length + ', log ' + log.length); }};
                w.onabort = () => fail(w.error);
              }};
            }};
            tx.onabort = () => fail(tx.error);
          }};
        }})"
    ))
    .await?;
    v.as_string().ok_or_else(|| format!("{v:?}"))
}

#[wasm_bindgen_test]
async fn a_version_1_database_in_the_first_layout_opens_at_version_4_and_loads_the_same_rows(
) -> Result<(), String> {
    let (from, to) = ("rowkey-test-v1-source", "rowkey-test-v1");
    for name in [from, to] {
        Idb::delete(name).await.map_err(|e| e.to_string())?;
    }
    let idb = Idb::open(from).await.map_err(|e| e.to_string())?;
    let mut sh = shell();
    run_and_save(
        &idb,
        &mut sh,
        &[
            "create 't', {NAME => 'f', VERSIONS => 3}",
            "put 't', 'a', 'f:q', 'one', 5",
            "put 't', 'b', 'f:q', 'two', 6",
            "flush 't'",
            "put 't', 'a', 'f:q', 'three', 7",
            "delete 't', 'b', 'f:q', 6",
        ],
    )
    .await?;
    idb.close();
    assert_eq!(
        copy_into_first_layout(from, to).await?,
        "runs 1, log 2",
        "the flush's run, and the two commands after its checkpoint"
    );
    assert_eq!(version_and_stores(to).await?, "1: meta,runs,wal");

    let old = Idb::open(to).await.map_err(|e| e.to_string())?;
    let records = old.read_all().await.map_err(|e| e.to_string())?;
    assert_eq!(
        (
            records.catalogs.keys().copied().collect::<Vec<_>>(),
            records.memstores.len()
        ),
        (vec![0], 1),
        "the first layout's catalog and memstores read as generation 0"
    );
    assert_eq!(
        records.wal.keys().copied().collect::<Vec<_>>(),
        vec![(0, 1), (0, 2)],
        "log records under plain numbers read as generation 0, in order"
    );
    let loaded = load(Box::new(|| 1_700_000_000_000), records);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(loaded.replayed, 2);
    assert_eq!(rows(&loaded.engine, "t"), rows(&sh.engine, "t"));
    assert_eq!(
        rows(&loaded.engine, "t").len(),
        4,
        "a's two puts, b's put and its delete"
    );
    old.close();
    assert_eq!(
        version_and_stores(to).await?,
        "4: activity,meta,runs,wal",
        "the upgrade made the store version 1 lacked"
    );
    for name in [from, to] {
        Idb::delete(name).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[wasm_bindgen_test]
async fn an_open_blocked_by_an_older_connection_says_so_and_goes_on_once_it_closes(
) -> Result<(), String> {
    let name = "rowkey-test-blocked";
    Idb::delete(name).await.map_err(|e| e.to_string())?;
    // An older tab's connection at version 3, which ignores version changes.
    run_js(&format!(
        "new Promise((ok, fail) => {{ const r = indexedDB.open('{name}', 3); r.onupgradeneeded = () => {{ for (const n of ['runs', 'wal', 'meta', 'activity']) r.result.createObjectStore(n); }}; r.onsuccess = () => {{ window.rowkeyOlderTab = r.result; ok(true); }}; r.onerror = () => fail(r.error); }})"
    ))
    .await?;
    let blocked = Rc::new(Cell::new(0));
    let told = blocked.clone();
    let idb = Idb::open_notifying(name, move || {
        told.set(told.get() + 1);
        // The person closes the older tab.
        let _ = js_sys::eval("window.rowkeyOlderTab.close()");
    })
    .await
    .map_err(|e| e.to_string())?;
    assert_eq!(blocked.get(), 1, "the open said once that it was blocked");
    idb.close();
    assert_eq!(version_and_stores(name).await?, "4: activity,meta,runs,wal");
    Idb::delete(name).await.map_err(|e| e.to_string())?;
    Ok(())
}

#[wasm_bindgen_test]
async fn another_tabs_upgrade_closes_this_connection_and_a_save_then_says_why() -> Result<(), String>
{
    let name = "rowkey-test-upgraded-elsewhere";
    Idb::delete(name).await.map_err(|e| e.to_string())?;
    let idb = Idb::open(name).await.map_err(|e| e.to_string())?;
    let told = Rc::new(Cell::new(0));
    let count = told.clone();
    idb.on_version_change(move || count.set(count.get() + 1));
    // A newer Rowkey in another tab opens the database at version 5: this connection closes
    // for it, so its upgrade is not blocked.
    let newer = run_js(&format!(
        "new Promise((ok, fail) => {{ const r = indexedDB.open('{name}', 5); r.onblocked = () => fail('blocked'); r.onsuccess = () => {{ const v = r.result.version; r.result.close(); ok(v); }}; r.onerror = () => fail(r.error); }})"
    ))
    .await?;
    assert_eq!(newer.as_f64(), Some(5.0));
    assert_eq!(told.get(), 1, "the person was told once");

    let mut sh = shell();
    sh.run("create 't', 'f'");
    let plan = Saver::new()
        .plan(&mut sh.engine)
        .map_err(|e| e.to_string())?;
    let failed = idb.apply(&plan).await.err().ok_or("the save succeeded")?;
    assert_eq!(
        (failed.kind, failed.name.as_str()),
        (StorageErrorKind::VersionChange, "InvalidStateError"),
        "a closed connection after a version change is said as such: {failed}"
    );
    let refused = Idb::open(name).await.err().ok_or("version 4 opened a 5")?;
    assert_eq!(
        (refused.kind, refused.name.as_str()),
        (StorageErrorKind::VersionChange, "VersionError"),
        "{refused}"
    );
    Idb::delete(name).await.map_err(|e| e.to_string())?;
    Ok(())
}
