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
//! It speaks to the browser's IndexedDB objects directly (`web_sys`): a request, and a
//! transaction's end, is awaited as a promise whose resolve and reject are its event handlers.
//!
//! Stores written by the first layout (`catalog`, `memstores`, log records under plain numbers)
//! read as generation 0.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbObjectStore, IdbOpenDbRequest, IdbRequest, IdbTransaction};

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

/// A failure the browser gave no `DOMException` for.
fn unknown(message: &str) -> Failed {
    failed(StorageErrorKind::Unknown, "Error", message)
}

/// The page's IndexedDB.
fn factory() -> Result<web_sys::IdbFactory, Failed> {
    let window = web_sys::window().ok_or_else(|| unknown("Unsupported environment"))?;
    window
        .indexed_db()
        .map_err(from_js)?
        .ok_or_else(|| unknown("The `indexedDB` getter returned `null` or `undefined`"))
}

/// A request's answer to come: a promise whose own resolve and reject are the request's
/// `success` and `error` handlers (no closure of WebAssembly's to keep alive or free).
fn answered(request: &IdbRequest) -> JsFuture {
    JsFuture::from(Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    }))
}

/// The value a request was answered with (`undefined`: no record under its key), or its
/// error.
async fn answer(request: &IdbRequest, answered: JsFuture) -> Result<JsValue, Failed> {
    if answered.await.is_err() {
        return Err(match request.error() {
            Ok(Some(e)) => from_dom(&e),
            _ => unknown("a read failed"),
        });
    }
    request.result().map_err(from_js)
}

/// Every store, as the names a transaction takes.
fn all_stores() -> Array {
    STORES.iter().map(|s| JsValue::from_str(s)).collect()
}

/// An open Rowkey database.
pub struct Idb {
    db: IdbDatabase,
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

/// A key of two numbers, `[a, b]`: a log record's `[generation, number]`, a run part's
/// `[id, part]` (arrays sort after numbers, so every run's record is read before any part).
fn pair_key((a, b): (u64, u64)) -> JsValue {
    Array::of2(&(a as f64).into(), &(b as f64).into()).into()
}

/// A key of two numbers back.
fn key_pair(v: &JsValue) -> Option<(u64, u64)> {
    let a = v.dyn_ref::<Array>()?;
    if a.length() != 2 {
        return None;
    }
    Some((number(&a.get(0))?, number(&a.get(1))?))
}

/// A log record's key back: a plain number (the first layout's) is of generation 0.
fn parse_wal_key(v: &JsValue) -> Option<WalKey> {
    match number(v) {
        Some(n) => Some((0, n)),
        None => key_pair(v),
    }
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
    match number(v) {
        Some(id) => Some((id, None)),
        None => key_pair(v).map(|(id, k)| (id, Some(k))),
    }
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
type Pending = (JsValue, IdbRequest, JsFuture);

/// Requests every record of a store, one request each, all made before any is awaited: the
/// caller decodes each as it arrives while the browser reads the ones after it. The keys come
/// first (one request).
async fn request_each(store: &IdbObjectStore) -> Result<Vec<Pending>, Failed> {
    let request = store.get_all_keys().map_err(from_js)?;
    let keys: Array = answer(&request, answered(&request))
        .await?
        .dyn_into()
        .map_err(from_js)?;
    let mut pending = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let request = store.get(&key).map_err(from_js)?;
        let answer = answered(&request);
        pending.push((key, request, answer));
    }
    Ok(pending)
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
        let request: IdbOpenDbRequest = factory()
            .and_then(|f| f.open_with_u32(name, VERSION).map_err(from_js))
            .map_err(|e| *e)?;
        // The stores a database of an earlier version lacks are made; those it has keep their
        // records. An error thrown here aborts the upgrade, and the open fails with it.
        let upgrading = request.clone();
        let upgrade = Closure::<dyn FnMut() -> Result<(), JsValue>>::once(move || {
            let db: IdbDatabase = upgrading.result()?.unchecked_into();
            let existing = db.object_store_names();
            for store in STORES {
                if !existing.contains(store) {
                    db.create_object_store(store)?;
                }
            }
            Ok(())
        });
        let blocked = Closure::<dyn FnMut()>::once(on_blocked);
        request.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        request.set_onblocked(Some(blocked.as_ref().unchecked_ref()));
        let opened = answer(&request, answered(&request)).await;
        // Neither event comes after the answer; the handlers go before their closures do.
        request.set_onupgradeneeded(None);
        request.set_onblocked(None);
        Ok(Idb {
            db: opened.map_err(|e| *e)?.unchecked_into(),
            version_changed: Rc::new(Cell::new(false)),
        })
    }

    /// Deletes the whole database.
    pub async fn delete(name: &str) -> Result<(), StorageError> {
        let deleted = async {
            let request = factory()?.delete_database(name).map_err(from_js)?;
            answer(&request, answered(&request)).await.map(drop)
        };
        deleted.await.map_err(|e| *e)
    }

    /// Closes the connection (another tab's upgrade can then proceed).
    pub fn close(self) {
        self.db.close();
    }

    /// Registers a callback for another tab's version change: the connection closes (so the
    /// other tab's upgrade proceeds) and `f` tells the person to reload.
    pub fn on_version_change(&self, f: impl Fn() + 'static) {
        let flag = self.version_changed.clone();
        let closing = self.db.clone();
        let closure = Closure::<dyn Fn()>::new(move || {
            flag.set(true);
            closing.close();
            f();
        });
        self.db
            .set_onversionchange(Some(closure.as_ref().unchecked_ref()));
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
            let tx = self
                .db
                .transaction_with_str_sequence(&all_stores())
                .map_err(from_js)?;
            let mut records = StoredRecords::default();
            let store = |n: &str| tx.object_store(n).map_err(from_js);
            // The history's records are requested first and decoded while the browser reads
            // the runs; each run is opened (its blocks checked, its rows read) while the
            // browser reads the runs after it.
            let activity = request_each(&store(ACTIVITY)?).await?;
            let runs = request_each(&store(RUNS)?).await?;
            times.requested_at = now();
            for (key, request, answered) in activity {
                let value = answer(&request, answered).await?;
                if let (Some(key), Some(bytes)) = (key.as_string(), js_to_bytes(&value)) {
                    let opened = open_activity(&key, &bytes);
                    records.opened_activity.push((key, opened));
                }
            }
            let mut reader = RunReader::default();
            let mut waiting = now();
            for (key, request, answered) in runs {
                let value = answer(&request, answered).await?;
                let arrived = now();
                if times.first_run_at == 0.0 {
                    times.first_run_at = arrived;
                }
                times.longest_wait_ms = times.longest_wait_ms.max(arrived - waiting);
                times.last_run_at = arrived;
                match (run_key(&key), js_to_bytes(&value)) {
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
                let value = answer(&request, answered).await?;
                match (parse_wal_key(&key), js_to_bytes(&value)) {
                    (Some(k), Some(bytes)) => {
                        records.wal.insert(k, bytes);
                    }
                    _ => records.unreadable.push(format!(
                        "a log record under {key:?} is not a log record; skipped"
                    )),
                }
            }
            for (key, request, answered) in request_each(&store(META)?).await? {
                let value = answer(&request, answered).await?;
                let name = key.as_string().unwrap_or_default();
                match (parse_meta_key(&name), js_to_bytes(&value)) {
                    (Some((true, g)), Some(bytes)) => {
                        records.catalogs.insert(g, bytes);
                    }
                    (Some((false, g)), Some(bytes)) => {
                        records.memstores.insert(g, bytes);
                    }
                    _ => records.unreadable.push(format!(
                        "the record {} in meta is not Rowkey's; left alone",
                        crate::kit::text::quoted(&name)
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
            let tx = self
                .db
                .transaction_with_str_sequence(&all_stores())
                .map_err(from_js)?;
            let mut out = Vec::new();
            let store = tx.object_store(RUNS).map_err(from_js)?;
            for (_, request, answered) in request_each(&store).await? {
                let value = answer(&request, answered).await?;
                out.extend(js_to_bytes(&value));
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
            .transaction_with_str_sequence_and_mode(
                &all_stores(),
                web_sys::IdbTransactionMode::Readwrite,
            )
            .map_err(|e| self.classify(*from_js(e)))?;
        // Settled when the transaction ends: `complete` once it committed, `abort` when it did
        // not (a failed request, a full disk), with the transaction's `error` saying why.
        let ended = JsFuture::from(Promise::new(&mut |resolve, reject| {
            tx.set_oncomplete(Some(&resolve));
            tx.set_onabort(Some(&reject));
        }));
        let result = match write_plan(&tx, plan) {
            Ok(()) => {
                // `commit` only hastens the end: every request is made, and a transaction
                // whose requests are done commits by itself.
                #[allow(deprecated)]
                let _ = tx.commit();
                ended.await.map(drop).map_err(|_| {
                    unknown("Expected the Transaction to be committed, but it was aborted.")
                })
            }
            Err(e) => {
                // A request that could not be made: none of the plan's writes is kept.
                let _ = tx.abort();
                Err(e)
            }
        };
        result.map_err(|fallback| {
            let error = tx.error().map(|d| from_dom(&d)).unwrap_or(fallback);
            self.classify(*error)
        })
    }
}

/// Makes a save plan's requests in a readwrite transaction over every store, all before the
/// transaction is left to commit.
fn write_plan(tx: &IdbTransaction, plan: &SavePlan) -> Result<(), Failed> {
    let store = |name: &str| tx.object_store(name).map_err(from_js);
    let (runs, wal, meta, activity) = (store(RUNS)?, store(WAL)?, store(META)?, store(ACTIVITY)?);
    let put = |s: &IdbObjectStore, key: &JsValue, bytes: &[u8]| {
        s.put_with_key(&bytes_to_js(bytes), key)
            .map(drop)
            .map_err(from_js)
    };
    // A key, or a range of keys.
    let delete = |s: &IdbObjectStore, keys: &JsValue| s.delete(keys).map(drop).map_err(from_js);
    let clear = |s: &IdbObjectStore| s.clear().map(drop).map_err(from_js);
    if plan.clear_all {
        for s in [&runs, &wal, &meta, &activity] {
            clear(s)?;
        }
    }
    // A run's id is stored once (a run whose record is written again, from a layout before
    // block files, never had parts), so a put deletes no parts.
    for (id, bytes) in &plan.put_runs {
        put(&runs, &JsValue::from_f64(*id as f64), bytes)?;
    }
    for (key, bytes) in &plan.put_parts {
        put(&runs, &pair_key(*key), bytes)?;
    }
    for id in &plan.delete_runs {
        delete(&runs, &JsValue::from_f64(*id as f64))?;
        delete(&runs, parts_of(*id)?.as_ref())?;
    }
    if let Some(c) = &plan.checkpoint {
        put(&meta, &catalog_key(c.generation).into(), &c.catalog)?;
        put(&meta, &memstores_key(c.generation).into(), &c.memstores)?;
    }
    for g in &plan.delete_generations {
        delete(&meta, &catalog_key(*g).into())?;
        delete(&meta, &memstores_key(*g).into())?;
    }
    if let Some(below) = plan.delete_wal_below.filter(|b| *b > 0) {
        // Plain numbers (generation 0, the first layout) sort before every array key.
        let upper: JsValue = Array::of1(&(below as f64).into()).into();
        let range = web_sys::IdbKeyRange::upper_bound_with_open(&upper, true).map_err(from_js)?;
        delete(&wal, range.as_ref())?;
    }
    if let Some((key, bytes)) = &plan.wal {
        put(&wal, &pair_key(*key), bytes)?;
    }
    if let Some(w) = &plan.activity {
        if w.replace_all {
            clear(&activity)?;
        }
        for key in &w.delete {
            delete(&activity, &key.as_str().into())?;
        }
        for (key, bytes) in &w.put {
            put(&activity, &key.as_str().into(), bytes)?;
        }
    }
    Ok(())
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
