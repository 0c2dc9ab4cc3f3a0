//! The app's side of persistence: loading at start, one writer tab at a time (Web Locks), the
//! queue of save plans carried to IndexedDB in order, and storage usage.

use std::collections::VecDeque;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::state::{Action, AppHandle, StatusHandle};
use crate::persist::idb::{self, Idb};
use crate::persist::{load, Loaded, SavePlan, Saver};

/// Where this tab stands with the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Reading the stored tables; commands wait.
    Loading,
    /// This tab saves every change.
    Writer,
    /// Another tab holds the write lock; this one only reads.
    ReadOnly,
    /// No IndexedDB (private mode, disabled storage): tables live in memory only.
    Unavailable(String),
}

/// Storage state, shared by the reducer and the save loop.
pub struct Storage {
    pub idb: Option<Rc<Idb>>,
    pub saver: Saver,
    /// Plans waiting to be written, each with its save ticket (see `Console::take_ticket`).
    pub queue: VecDeque<(u64, SavePlan)>,
    pub busy: bool,
    pub mode: Mode,
    /// Problems found while loading.
    pub problems: Vec<String>,
    /// The last save failure, until a save succeeds.
    pub error: Option<String>,
    /// Plans up to this ticket are committed.
    pub saved_upto: u64,
    pub usage: Option<(f64, f64)>,
    pub persistent: bool,
    /// Another tab upgraded the database: this one should reload.
    pub outdated: bool,
}

impl Default for Storage {
    fn default() -> Self {
        Storage {
            idb: None,
            saver: Saver::new(),
            queue: VecDeque::new(),
            busy: false,
            mode: Mode::Loading,
            problems: Vec::new(),
            error: None,
            saved_upto: 0,
            usage: None,
            persistent: false,
            outdated: false,
        }
    }
}

/// Asks for the write lock. With `if_available` it answers at once; otherwise it waits until
/// the lock is free. Browsers without Web Locks count as a single tab.
async fn acquire_lock(database: &str, if_available: bool) -> bool {
    let Some(window) = web_sys::window() else {
        return true;
    };
    let navigator: JsValue = window.navigator().into();
    let Ok(locks) = Reflect::get(&navigator, &JsValue::from_str("locks")) else {
        return true;
    };
    let Some(request) = Reflect::get(&locks, &JsValue::from_str("request"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    else {
        return true;
    };
    let mut resolve: Option<Function> = None;
    let answer = Promise::new(&mut |res, _| resolve = Some(res));
    let Some(resolve) = resolve else { return true };
    let callback = Closure::once(move |lock: JsValue| -> JsValue {
        let granted = !lock.is_null() && !lock.is_undefined();
        let _ = resolve.call1(&JsValue::NULL, &JsValue::from_bool(granted));
        if granted {
            // Held for as long as the page lives.
            Promise::new(&mut |_, _| {}).into()
        } else {
            JsValue::UNDEFINED
        }
    });
    let options = Object::new();
    let _ = Reflect::set(
        &options,
        &JsValue::from_str("ifAvailable"),
        &JsValue::from_bool(if_available),
    );
    if request
        .call3(
            &locks,
            &JsValue::from_str(&format!("{database}-writer")),
            &options,
            callback.as_ref().unchecked_ref(),
        )
        .is_err()
    {
        return true;
    }
    callback.forget();
    JsFuture::from(answer)
        .await
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(true)
}

async fn read(idb: &Idb) -> Result<Loaded, String> {
    let records = idb.read_all().await.map_err(|e| e.message)?;
    Ok(load(Box::new(super::now_ms), records))
}

/// Opens the database, loads the tables, and settles who writes. Runs once at start.
pub async fn start(app: AppHandle, status: StatusHandle, database: String) {
    let dispatcher = app.dispatcher();
    let writer = acquire_lock(&database, true).await;
    let blocked = dispatcher.clone();
    let idb = match Idb::open_notifying(&database, move || blocked.dispatch(Action::Outdated)).await
    {
        Ok(idb) => Rc::new(idb),
        Err(e) => {
            dispatcher.dispatch(Action::StorageUnavailable(e.message));
            return;
        }
    };
    {
        let d = dispatcher.clone();
        idb.on_version_change(move || d.dispatch(Action::Outdated));
    }
    match read(&idb).await {
        Ok(loaded) => dispatcher.dispatch(Action::Loaded(Box::new(loaded), idb.clone(), writer)),
        Err(e) => {
            dispatcher.dispatch(Action::StorageUnavailable(e));
            return;
        }
    }
    refresh_usage(&app, &status).await;
    if writer {
        app.storage.borrow_mut().persistent = idb::persist().await;
        status.dispatch(());
        return;
    }
    // Wait for the writing tab to go, then take over with what it saved.
    if acquire_lock(&database, false).await {
        if let Ok(loaded) = read(&idb).await {
            dispatcher.dispatch(Action::Loaded(Box::new(loaded), idb, true));
        }
    }
}

/// Measures how much the tables take in storage.
pub async fn refresh_usage(app: &AppHandle, status: &StatusHandle) {
    if let Some(usage) = idb::estimate().await {
        app.storage.borrow_mut().usage = Some(usage);
        status.dispatch(());
    }
}

/// Writes queued plans one transaction at a time, in order, reporting each outcome.
pub async fn drain(app: AppHandle, status: StatusHandle) {
    let storage = app.storage.clone();
    status.dispatch(());
    loop {
        let next = storage.borrow_mut().queue.pop_front();
        let Some((ticket, plan)) = next else { break };
        let idb = storage.borrow().idb.clone();
        let Some(idb) = idb else { break };
        match idb.apply(&plan).await {
            Ok(()) => {
                let mut s = storage.borrow_mut();
                s.saved_upto = s.saved_upto.max(ticket);
                if s.queue.is_empty() {
                    s.error = None;
                }
            }
            Err(e) => {
                let message = if e.quota {
                    format!("storage is full ({}). Your tables stay usable here, but the last changes are not saved: export them, or free space and retry.", e.message)
                } else {
                    format!(
                        "{}; your tables stay usable here, but the last changes are not saved.",
                        e.message
                    )
                };
                let mut s = storage.borrow_mut();
                s.saver.failed();
                s.error = Some(message);
            }
        }
        status.dispatch(());
    }
    storage.borrow_mut().busy = false;
    status.dispatch(());
    refresh_usage(&app, &status).await;
}
