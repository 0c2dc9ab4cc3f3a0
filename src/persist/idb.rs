//! The IndexedDB backend: three object stores mirroring HBase's files (`runs`: one blob per
//! sorted run keyed by id; `wal`: log records under increasing keys; `meta`: the catalog and
//! the memstore snapshot). A save plan is one readwrite transaction over all three, so it
//! commits whole or not at all. Blobs are copied out of WebAssembly memory before they are
//! stored (a view would store the whole memory).

use indexed_db_futures::database::Database;
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::TransactionMode;
use js_sys::Uint8Array;
use wasm_bindgen::{JsCast, JsValue};

use super::plan::{SavePlan, StoredRecords};

/// The database name the app uses.
pub const DB_NAME: &str = "rowkey";
const VERSION: u32 = 1;
const RUNS: &str = "runs";
const WAL: &str = "wal";
const META: &str = "meta";
const CATALOG_KEY: &str = "catalog";
const MEMSTORES_KEY: &str = "memstores";

/// A failed storage operation, with the browser's error name when it gave one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct IdbError {
    pub message: String,
    /// The storage is full (QuotaExceededError).
    pub quota: bool,
}

impl IdbError {
    fn from_display(e: impl std::fmt::Display) -> IdbError {
        let message = e.to_string();
        if message.contains("QuotaExceeded") {
            return IdbError {
                message: "the browser's storage quota is exceeded".into(),
                quota: true,
            };
        }
        IdbError {
            message,
            quota: false,
        }
    }
}

/// An open Rowkey database.
pub struct Idb {
    db: Database,
}

fn bytes_to_js(bytes: &[u8]) -> JsValue {
    // `Uint8Array::from` copies into a new JS buffer: the stored value never aliases wasm memory.
    Uint8Array::from(bytes).into()
}

fn js_to_bytes(v: &JsValue) -> Option<Vec<u8>> {
    v.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec)
}

fn key_to_u64(v: &JsValue) -> Option<u64> {
    v.as_f64()
        .filter(|f| *f >= 0.0 && f.fract() == 0.0)
        .map(|f| f as u64)
}

impl Idb {
    /// Opens (and on first use creates) the database.
    pub async fn open(name: &str) -> Result<Idb, IdbError> {
        Self::open_notifying(name, || {}).await
    }

    /// Opens the database, calling `on_blocked` if an older tab keeps it open while this one
    /// needs to upgrade it (the open then waits until that tab closes or reloads).
    pub async fn open_notifying(
        name: &str,
        on_blocked: impl FnOnce() + 'static,
    ) -> Result<Idb, IdbError> {
        let db = Database::open(name)
            .with_version(VERSION)
            .with_on_blocked(move |_event| {
                on_blocked();
                Ok(())
            })
            .with_on_upgrade_needed(|_event, db: Database| {
                let existing: Vec<String> = db.object_store_names().collect();
                if !existing.iter().any(|n| n == RUNS) {
                    db.create_object_store(RUNS).build()?;
                }
                if !existing.iter().any(|n| n == WAL) {
                    db.create_object_store(WAL)
                        .with_auto_increment(true)
                        .build()?;
                }
                if !existing.iter().any(|n| n == META) {
                    db.create_object_store(META).build()?;
                }
                Ok(())
            })
            .await
            .map_err(IdbError::from_display)?;
        Ok(Idb { db })
    }

    /// Deletes the whole database (the app's reset).
    pub async fn delete(name: &str) -> Result<(), IdbError> {
        let req = Database::open(name)
            .build()
            .map_err(IdbError::from_display)?
            .await
            .map_err(IdbError::from_display)?;
        req.delete()
            .map_err(IdbError::from_display)?
            .await
            .map_err(IdbError::from_display)
    }

    /// Closes the connection (another tab's upgrade can then proceed).
    pub fn close(self) {
        self.db.close();
    }

    /// Registers a callback for another tab's version change: close and reload then.
    pub fn on_version_change(&self, f: impl Fn() + 'static) {
        let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(f);
        self.db
            .as_sys()
            .set_onversionchange(Some(closure.as_ref().unchecked_ref()));
        closure.forget();
    }

    /// Reads every record, in one readonly transaction.
    pub async fn read_all(&self) -> Result<StoredRecords, IdbError> {
        let e = IdbError::from_display;
        let tx = self.db.transaction([RUNS, WAL, META]).build().map_err(e)?;
        let runs = tx.object_store(RUNS).map_err(e)?;
        let wal = tx.object_store(WAL).map_err(e)?;
        let meta = tx.object_store(META).map_err(e)?;
        let run_keys: Vec<JsValue> = runs
            .get_all_keys::<JsValue>()
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?
            .filter_map(Result::ok)
            .collect();
        let run_vals: Vec<JsValue> = runs
            .get_all::<JsValue>()
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?
            .filter_map(Result::ok)
            .collect();
        let wal_keys: Vec<JsValue> = wal
            .get_all_keys::<JsValue>()
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?
            .filter_map(Result::ok)
            .collect();
        let wal_vals: Vec<JsValue> = wal
            .get_all::<JsValue>()
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?
            .filter_map(Result::ok)
            .collect();
        let catalog: Option<JsValue> = meta
            .get(CATALOG_KEY)
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?;
        let memstores: Option<JsValue> = meta
            .get(MEMSTORES_KEY)
            .primitive()
            .map_err(e)?
            .await
            .map_err(e)?;
        let pair = |keys: Vec<JsValue>, vals: Vec<JsValue>| -> Vec<(u64, Vec<u8>)> {
            keys.iter()
                .zip(vals.iter())
                .filter_map(|(k, v)| Some((key_to_u64(k)?, js_to_bytes(v).unwrap_or_default())))
                .collect()
        };
        Ok(StoredRecords {
            catalog: catalog.as_ref().and_then(js_to_bytes),
            memstores: memstores.as_ref().and_then(js_to_bytes),
            runs: pair(run_keys, run_vals),
            wal: pair(wal_keys, wal_vals),
        })
    }

    /// Carries out a save plan in one readwrite transaction; returns once it committed.
    pub async fn apply(&self, plan: &SavePlan) -> Result<(), IdbError> {
        if plan.is_empty() {
            return Ok(());
        }
        let e = IdbError::from_display;
        let tx = self
            .db
            .transaction([RUNS, WAL, META])
            .with_mode(TransactionMode::Readwrite)
            .build()
            .map_err(e)?;
        let runs = tx.object_store(RUNS).map_err(e)?;
        let wal = tx.object_store(WAL).map_err(e)?;
        let meta = tx.object_store(META).map_err(e)?;
        if plan.clear_runs {
            runs.clear().map_err(e)?;
        }
        for (id, bytes) in &plan.put_runs {
            runs.put(bytes_to_js(bytes))
                .with_key(*id as f64)
                .primitive()
                .map_err(e)?;
        }
        for id in &plan.delete_runs {
            runs.delete(*id as f64).primitive().map_err(e)?;
        }
        if let Some(c) = &plan.catalog {
            meta.put(bytes_to_js(c))
                .with_key(CATALOG_KEY)
                .primitive()
                .map_err(e)?;
        }
        if let Some(m) = &plan.memstores {
            meta.put(bytes_to_js(m))
                .with_key(MEMSTORES_KEY)
                .primitive()
                .map_err(e)?;
        }
        if plan.clear_wal {
            wal.clear().map_err(e)?;
        }
        if let Some(w) = &plan.wal {
            wal.add(bytes_to_js(w)).primitive().map_err(e)?;
        }
        tx.commit().await.map_err(e)
    }
}

/// Bytes the tables use in IndexedDB and the quota, as the browser estimates them. Where the
/// browser breaks usage down (`usageDetails`), only IndexedDB counts, not the offline copy of
/// the app; elsewhere the figure is the origin's whole usage.
pub async fn estimate() -> Option<(f64, f64)> {
    let storage = web_sys::window()?.navigator().storage();
    let promise = storage.estimate().ok()?;
    let v = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let get = |on: &JsValue, k: &str| {
        js_sys::Reflect::get(on, &JsValue::from_str(k))
            .ok()
            .and_then(|x| x.as_f64())
    };
    let details = js_sys::Reflect::get(&v, &JsValue::from_str("usageDetails")).ok();
    let tables = match details {
        Some(d) if d.is_object() => Some(get(&d, "indexedDB").unwrap_or(0.0)),
        _ => None,
    };
    Some((tables.or_else(|| get(&v, "usage"))?, get(&v, "quota")?))
}

/// Asks the browser to keep the data under storage pressure; says whether it will.
pub async fn persist() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Ok(promise) = window.navigator().storage().persist() else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}
