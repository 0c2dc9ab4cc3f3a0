//! The IndexedDB backend: four object stores mirroring HBase's files. `runs`: one blob per
//! sorted run keyed by id, or for a large run a head under its id and its parts under
//! `[id, part]` (`persist::run_parts`); `wal`: log records keyed `[generation, number]`; `meta`: catalog
//! generations (`catalog.<generation>`) and their memstore snapshots
//! (`memstores.<generation>`), zero-padded so keys sort by generation; `activity`: the activity
//! history per table. A save plan is one readwrite transaction over all of them, so it commits
//! whole or not at all. Blobs are copied out of WebAssembly memory before they are stored (a
//! view would store the whole memory).
//!
//! Every failure is classified by the name of the `DOMException` the browser gave: a failed
//! commit reads the transaction's `error` (a full disk arrives as an aborted transaction whose
//! error is a `QuotaExceededError`, or in Chromium sometimes an `UnknownError`).
//!
//! Stores written by the first layout (`catalog`, `memstores`, log records under plain numbers)
//! read as generation 0.

use std::cell::Cell;
use std::rc::Rc;

use indexed_db_futures::database::Database;
use indexed_db_futures::error::{Error as IdbLibError, OpenDbError};
use indexed_db_futures::internals::SystemRepr;
use indexed_db_futures::object_store::ObjectStore;
use indexed_db_futures::prelude::*;
use indexed_db_futures::transaction::TransactionMode;
use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::plan::{open_activity, RunReader, SavePlan, StoredRecords, WalKey};
use super::queue::{StorageError, StorageErrorKind};

/// The database name the app uses.
pub const DB_NAME: &str = "rowkey";
/// 1: runs, wal, meta. 2: the activity store. 3: runs stored as block files (an older tab
/// cannot read them: the upgrade closes it, and it asks to be reloaded). 4: large runs stored
/// in parts (a head under the run's id, its parts under `[id, k]`), which a tab of 3 cannot
/// read either.
const VERSION: u32 = 4;
const RUNS: &str = "runs";
const WAL: &str = "wal";
const META: &str = "meta";
const ACTIVITY: &str = "activity";
const STORES: [&str; 4] = [RUNS, WAL, META, ACTIVITY];

/// A storage failure while a transaction runs, boxed: each `?` of the reads and writes below
/// moves one pointer, not the error's seven words. The public methods hand out the error.
type Failed = Box<StorageError>;

fn failed(kind: StorageErrorKind, name: &str, message: &str) -> Failed {
    Box::new(StorageError::new(kind, name, message))
}

/// The name and message of a `DOMException`, classified.
fn from_dom(e: &web_sys::DomException) -> Failed {
    let name = e.name();
    failed(StorageErrorKind::from_name(&name), &name, &e.message())
}

fn from_lib(e: IdbLibError) -> Failed {
    match e {
        IdbLibError::DomException(d) => from_dom(&web_sys::DomException::from(d)),
        other => failed(StorageErrorKind::Unknown, "Error", &other.to_string()),
    }
}

fn from_open(e: OpenDbError) -> Failed {
    match e {
        OpenDbError::Base(e) => from_lib(e),
        other => failed(StorageErrorKind::Unknown, "Error", &other.to_string()),
    }
}

/// An open Rowkey database.
pub struct Idb {
    db: Database,
    /// Another tab asked for a version change and this connection was closed for it.
    version_changed: Rc<Cell<bool>>,
}

fn bytes_to_js(bytes: &[u8]) -> JsValue {
    // `Uint8Array::from` copies into a new JS buffer: the stored value never aliases wasm memory.
    Uint8Array::from(bytes).into()
}

fn js_to_bytes(v: &JsValue) -> Option<Vec<u8>> {
    v.dyn_ref::<Uint8Array>().map(Uint8Array::to_vec)
}

fn number(v: &JsValue) -> Option<u64> {
    v.as_f64()
        .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f <= 9_007_199_254_740_991.0)
        .map(|f| f as u64)
}

fn catalog_key(generation: u64) -> String {
    match generation {
        0 => "catalog".to_string(),
        g => format!("catalog.{g:020}"),
    }
}

fn memstores_key(generation: u64) -> String {
    match generation {
        0 => "memstores".to_string(),
        g => format!("memstores.{g:020}"),
    }
}

/// A `meta` key back: whether it names a catalog (or memstores), and its generation.
fn parse_meta_key(key: &str) -> Option<(bool, u64)> {
    let (kind, generation) = match key.split_once('.') {
        Some((k, g)) => (k, g.parse().ok()?),
        None => (key, 0),
    };
    match kind {
        "catalog" => Some((true, generation)),
        "memstores" => Some((false, generation)),
        _ => None,
    }
}

fn wal_key(key: WalKey) -> JsValue {
    Array::of2(&(key.0 as f64).into(), &(key.1 as f64).into()).into()
}

fn parse_wal_key(v: &JsValue) -> Option<WalKey> {
    if let Some(n) = number(v) {
        return Some((0, n));
    }
    let a = v.dyn_ref::<Array>()?;
    if a.length() != 2 {
        return None;
    }
    Some((number(&a.get(0))?, number(&a.get(1))?))
}

/// The key of part `k` of run `id`: `[id, k]` (arrays sort after numbers, so every run's
/// record is read before any part).
fn part_key((id, k): (u64, u64)) -> JsValue {
    Array::of2(&(id as f64).into(), &(k as f64).into()).into()
}

/// Every part of run `id`: the keys from `[id]` up to, not including, `[id + 1]`.
fn parts_of(id: u64) -> Result<web_sys::IdbKeyRange, Failed> {
    let lower: JsValue = Array::of1(&(id as f64).into()).into();
    let upper: JsValue = Array::of1(&((id + 1) as f64).into()).into();
    web_sys::IdbKeyRange::bound_with_lower_open_and_upper_open(&lower, &upper, false, true)
        .map_err(from_js)
}

/// A key of the runs store back: a run's id, and the part's number when it is a part's.
fn run_key(v: &JsValue) -> Option<(u64, Option<u64>)> {
    if let Some(id) = number(v) {
        return Some((id, None));
    }
    let a = v.dyn_ref::<Array>()?;
    if a.length() != 2 {
        return None;
    }
    Some((number(&a.get(0))?, Some(number(&a.get(1))?)))
}

/// When a read's steps ended and what opening the run records cost (the benchmark's split of a
/// restore), in milliseconds of the page's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadTimes {
    /// When every record of the history and the runs had been requested.
    pub requested_at: f64,
    /// When the first run record arrived.
    pub first_run_at: f64,
    /// When the last run record (a run, a head or a part) arrived.
    pub last_run_at: f64,
    /// The longest wait for a run record after the one before it arrived and was opened.
    pub longest_wait_ms: f64,
    /// When the runs were all opened (the parts of a run joined).
    pub runs_done_at: f64,
    /// Time spent opening run records (checking their blocks, reading their rows, copying
    /// them out of the browser's buffer), in all.
    pub opening_ms: f64,
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// A record's key, the request for its value (made, not yet answered) and its answer to come.
type Pending = (JsValue, web_sys::IdbRequest, JsFuture);

/// Requests every record of a store, one request each, all made before any is awaited: the
/// caller decodes each as it arrives while the browser reads the ones after it. The keys come
/// first (one request).
async fn request_each(store: &ObjectStore<'_>) -> Result<Vec<Pending>, Failed> {
    let keys: Vec<JsValue> = store
        .get_all_keys::<JsValue>()
        .await
        .map_err(from_lib)?
        .collect::<Result<_, _>>()
        .map_err(from_lib)?;
    let mut pending = Vec::with_capacity(keys.len());
    for key in keys {
        let request = store.as_sys().get(&key).map_err(from_js)?;
        let answered = Promise::new(&mut |resolve, reject| {
            request.set_onsuccess(Some(&resolve));
            request.set_onerror(Some(&reject));
        });
        pending.push((key, request, JsFuture::from(answered)));
    }
    Ok(pending)
}

/// The value a pending request was answered with (`None`: no record under its key).
async fn answer(
    request: web_sys::IdbRequest,
    answered: JsFuture,
) -> Result<Option<JsValue>, Failed> {
    if answered.await.is_err() {
        return Err(match request.error() {
            Ok(Some(e)) => from_dom(&e),
            _ => failed(StorageErrorKind::Unknown, "Error", "a read failed"),
        });
    }
    let value = request.result().map_err(from_js)?;
    Ok((!value.is_undefined()).then_some(value))
}

/// A thrown JavaScript value as a storage error.
fn from_js(v: JsValue) -> Failed {
    match v.dyn_into::<web_sys::DomException>() {
        Ok(d) => from_dom(&d),
        Err(v) => failed(StorageErrorKind::Unknown, "Error", &format!("{v:?}")),
    }
}

impl Idb {
    /// Opens (and on first use creates) the database.
    pub async fn open(name: &str) -> Result<Idb, StorageError> {
        Self::open_notifying(name, || {}).await
    }

    /// Opens the database, calling `on_blocked` if an older tab keeps it open while this one
    /// needs to upgrade it (the open then waits until that tab closes or reloads).
    pub async fn open_notifying(
        name: &str,
        on_blocked: impl FnOnce() + 'static,
    ) -> Result<Idb, StorageError> {
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
                    db.create_object_store(WAL).build()?;
                }
                if !existing.iter().any(|n| n == META) {
                    db.create_object_store(META).build()?;
                }
                if !existing.iter().any(|n| n == ACTIVITY) {
                    db.create_object_store(ACTIVITY).build()?;
                }
                Ok(())
            })
            .await
            .map_err(|e| *from_open(e))?;
        Ok(Idb {
            db,
            version_changed: Rc::new(Cell::new(false)),
        })
    }

    /// Deletes the whole database.
    pub async fn delete(name: &str) -> Result<(), StorageError> {
        Database::delete_by_name(name)
            .map_err(|e| *from_open(e))?
            .await
            .map_err(|e| *from_lib(e))
    }

    /// Closes the connection (another tab's upgrade can then proceed).
    pub fn close(self) {
        self.db.close();
    }

    /// Registers a callback for another tab's version change: the connection closes (so the
    /// other tab's upgrade proceeds) and `f` tells the person to reload.
    pub fn on_version_change(&self, f: impl Fn() + 'static) {
        let flag = self.version_changed.clone();
        let raw: web_sys::IdbDatabase = self.db.as_sys().clone().unchecked_into();
        let closing = raw.clone();
        let closure = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
            flag.set(true);
            closing.close();
            f();
        });
        raw.set_onversionchange(Some(closure.as_ref().unchecked_ref()));
        closure.forget();
    }

    /// A failure, with a closed connection after a version change said as such.
    fn classify(&self, mut e: StorageError) -> StorageError {
        if e.kind == StorageErrorKind::Closed && self.version_changed.get() {
            e.kind = StorageErrorKind::VersionChange;
        }
        e
    }

    /// Reads every record, in one readonly transaction, one request for a store's keys and one
    /// for each record (a record that is not what its store holds is reported, never paired
    /// with another record's key): the history's and the runs' records are all requested at
    /// once, and each decoded as it arrives while the browser reads the rest
    /// ([`StoredRecords::opened_activity`], [`StoredRecords::opened`]), where a cursor made one
    /// round trip after another.
    pub async fn read_all(&self) -> Result<StoredRecords, StorageError> {
        self.read_all_timed().await.map(|(records, _)| records)
    }

    /// [`Idb::read_all`], saying when the run records arrived and how long opening them took.
    pub async fn read_all_timed(&self) -> Result<(StoredRecords, ReadTimes), StorageError> {
        let mut times = ReadTimes::default();
        let result = async {
            let tx = self.db.transaction(STORES).build().map_err(from_lib)?;
            let mut records = StoredRecords::default();
            let store = |n: &str| tx.object_store(n).map_err(from_lib);
            // The history's records are requested first and decoded while the browser reads
            // the runs; each run is opened (its blocks checked, its rows read) while the
            // browser reads the runs after it.
            let activity = request_each(&store(ACTIVITY)?).await?;
            let runs = request_each(&store(RUNS)?).await?;
            times.requested_at = now();
            for (key, request, answered) in activity {
                let value = answer(request, answered).await?;
                if let (Some(key), Some(bytes)) =
                    (key.as_string(), value.as_ref().and_then(js_to_bytes))
                {
                    let opened = open_activity(&key, &bytes);
                    records.opened_activity.push((key, opened));
                }
            }
            let mut reader = RunReader::default();
            let mut waiting = now();
            for (key, request, answered) in runs {
                let value = answer(request, answered).await?;
                let arrived = now();
                if times.first_run_at == 0.0 {
                    times.first_run_at = arrived;
                }
                times.longest_wait_ms = times.longest_wait_ms.max(arrived - waiting);
                times.last_run_at = arrived;
                match (run_key(&key), value.as_ref().and_then(js_to_bytes)) {
                    (Some((id, None)), Some(bytes)) => reader.record(id, bytes),
                    (Some((id, Some(k))), Some(bytes)) => reader.part(id, k, bytes),
                    _ => records.unreadable.push(format!(
                        "a record in the runs store ({}) is not a sorted run; left alone",
                        key.as_string().unwrap_or_else(|| format!("{key:?}"))
                    )),
                }
                waiting = now();
                times.opening_ms += waiting - arrived;
            }
            let finishing = now();
            records.opened.extend(reader.finish());
            times.runs_done_at = now();
            times.opening_ms += times.runs_done_at - finishing;
            for (key, request, answered) in request_each(&store(WAL)?).await? {
                let value = answer(request, answered).await?;
                match (parse_wal_key(&key), value.as_ref().and_then(js_to_bytes)) {
                    (Some(k), Some(bytes)) => {
                        records.wal.insert(k, bytes);
                    }
                    _ => records.unreadable.push(format!(
                        "a log record under {key:?} is not a log record; skipped"
                    )),
                }
            }
            for (key, request, answered) in request_each(&store(META)?).await? {
                let value = answer(request, answered).await?;
                let name = key.as_string().unwrap_or_default();
                match (parse_meta_key(&name), value.as_ref().and_then(js_to_bytes)) {
                    (Some((true, g)), Some(bytes)) => {
                        records.catalogs.insert(g, bytes);
                    }
                    (Some((false, g)), Some(bytes)) => {
                        records.memstores.insert(g, bytes);
                    }
                    _ => records.unreadable.push(format!(
                        "the record {name:?} in meta is not Rowkey's; left alone"
                    )),
                }
            }
            Ok(records)
        }
        .await;
        result
            .map(|r| (r, times))
            .map_err(|e: Failed| self.classify(*e))
    }

    /// The bytes of every record in the runs store, read as [`Idb::read_all`] reads them but
    /// not opened: what the benchmark's raw blob is read with.
    pub async fn read_run_bytes(&self) -> Result<Vec<Vec<u8>>, StorageError> {
        let result = async {
            let tx = self.db.transaction(STORES).build().map_err(from_lib)?;
            let mut out = Vec::new();
            let store = tx.object_store(RUNS).map_err(from_lib)?;
            for (_, request, answered) in request_each(&store).await? {
                let value = answer(request, answered).await?;
                out.extend(value.as_ref().and_then(js_to_bytes));
            }
            Ok(out)
        }
        .await;
        result.map_err(|e: Failed| self.classify(*e))
    }

    /// Carries out a save plan in one readwrite transaction; returns once it committed. A
    /// failure is the transaction's own error when it has one (an abort's `QuotaExceededError`).
    pub async fn apply(&self, plan: &SavePlan) -> Result<(), StorageError> {
        if plan.is_empty() {
            return Ok(());
        }
        let tx = self
            .db
            .transaction(STORES)
            .with_mode(TransactionMode::Readwrite)
            .build()
            .map_err(|e| self.classify(*from_lib(e)))?;
        let raw: web_sys::IdbTransaction = tx.as_sys().clone().unchecked_into();
        let result = async {
            let e = from_lib;
            let runs = tx.object_store(RUNS).map_err(e)?;
            let wal = tx.object_store(WAL).map_err(e)?;
            let meta = tx.object_store(META).map_err(e)?;
            let activity = tx.object_store(ACTIVITY).map_err(e)?;
            if plan.clear_all {
                for s in [&runs, &wal, &meta, &activity] {
                    s.clear().map_err(e)?;
                }
            }
            // A run's id is stored once (a run whose record is written again, from a layout
            // before block files, never had parts), so a put deletes no parts.
            for (id, bytes) in &plan.put_runs {
                runs.put(bytes_to_js(bytes))
                    .with_key(*id as f64)
                    .primitive()
                    .map_err(e)?;
            }
            for (key, bytes) in &plan.put_parts {
                runs.put(bytes_to_js(bytes))
                    .with_key(part_key(*key))
                    .primitive()
                    .map_err(e)?;
            }
            for id in &plan.delete_runs {
                runs.delete(*id as f64).primitive().map_err(e)?;
                let parts = parts_of(*id)?;
                runs.as_sys().delete(&parts).map_err(from_js)?;
            }
            if let Some(c) = &plan.checkpoint {
                meta.put(bytes_to_js(&c.catalog))
                    .with_key(catalog_key(c.generation))
                    .primitive()
                    .map_err(e)?;
                meta.put(bytes_to_js(&c.memstores))
                    .with_key(memstores_key(c.generation))
                    .primitive()
                    .map_err(e)?;
            }
            for g in &plan.delete_generations {
                meta.delete(catalog_key(*g)).primitive().map_err(e)?;
                meta.delete(memstores_key(*g)).primitive().map_err(e)?;
            }
            if let Some(below) = plan.delete_wal_below.filter(|b| *b > 0) {
                // Plain numbers (generation 0, the first layout) sort before every array key.
                let upper: JsValue = Array::of1(&(below as f64).into()).into();
                let range =
                    web_sys::IdbKeyRange::upper_bound_with_open(&upper, true).map_err(from_js)?;
                wal.as_sys().delete(&range).map_err(from_js)?;
            }
            if let Some((key, bytes)) = &plan.wal {
                wal.put(bytes_to_js(bytes))
                    .with_key(wal_key(*key))
                    .primitive()
                    .map_err(e)?;
            }
            if let Some(w) = &plan.activity {
                if w.replace_all {
                    activity.clear().map_err(e)?;
                }
                for key in &w.delete {
                    activity.delete(key.as_str()).primitive().map_err(e)?;
                }
                for (key, bytes) in &w.put {
                    activity
                        .put(bytes_to_js(bytes))
                        .with_key(key.as_str())
                        .primitive()
                        .map_err(e)?;
                }
            }
            tx.commit().await.map_err(e)
        }
        .await;
        result.map_err(|fallback| {
            let error = raw.error().map(|d| from_dom(&d)).unwrap_or(fallback);
            self.classify(*error)
        })
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
