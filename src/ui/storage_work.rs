//! The app's side of persistence: loading at start, one writer tab at a time (Web Locks), the
//! queue of save plans carried to IndexedDB in order, and storage usage.

use js_sys::{Function, Object, Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::state::{Action, AppHandle, StatusHandle};
use crate::persist::idb::{self, Idb};
use crate::persist::{load, Loaded};

/// Asks for the write lock. With `if_available` it answers at once; otherwise it waits until
/// the lock is free. Browsers without Web Locks count as a single tab. A lock request that
/// fails is an error, never a grant: two tabs must not both write.
async fn acquire_lock(database: &str, if_available: bool) -> Result<bool, String> {
    let Some(window) = web_sys::window() else {
        return Ok(true);
    };
    let navigator: JsValue = window.navigator().into();
    let locks = Reflect::get(&navigator, &JsValue::from_str("locks")).unwrap_or(JsValue::UNDEFINED);
    if locks.is_undefined() || locks.is_null() {
        return Ok(true);
    }
    let Some(request) = Reflect::get(&locks, &JsValue::from_str("request"))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
    else {
        return Ok(true);
    };
    let mut resolve: Option<Function> = None;
    let answer = Promise::new(&mut |res, _| resolve = Some(res));
    let Some(resolve) = resolve else {
        return Err("the lock's answer could not be awaited".into());
    };
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
    let held = request
        .call3(
            &locks,
            &JsValue::from_str(&format!("{database}-writer")),
            &options,
            callback.as_ref().unchecked_ref(),
        )
        .map_err(|e| describe(&e))?;
    callback.forget();
    // The request's own promise rejects when the lock cannot be had at all (a SecurityError
    // in an opaque origin, say): race it against the answer.
    let failed = Promise::new(&mut |_, reject| {
        if let Ok(p) = held.clone().dyn_into::<Promise>() {
            let on_error = Closure::once(move |e: JsValue| {
                let _ = reject.call1(&JsValue::NULL, &e);
            });
            let _ = p.catch(&on_error);
            on_error.forget();
        }
    });
    let race = Promise::race(&js_sys::Array::of2(&answer, &failed));
    match JsFuture::from(race).await {
        Ok(v) => v
            .as_bool()
            .ok_or_else(|| "the lock gave no answer".to_string()),
        Err(e) => Err(describe(&e)),
    }
}

/// A thrown value as text: a DOMException's name and message, or its string form.
fn describe(e: &JsValue) -> String {
    match e.dyn_ref::<web_sys::DomException>() {
        Some(d) => format!("{}: {}", d.name(), d.message()),
        None => e
            .as_string()
            .or_else(|| js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()))
            .unwrap_or_else(|| "an unknown error".into()),
    }
}

async fn read(idb: &Idb) -> Result<Loaded, String> {
    let records = idb.read_all().await.map_err(|e| e.to_string())?;
    Ok(load(Box::new(super::now_ms), records))
}

/// Opens the database, loads the tables, and settles who writes. Runs once at start.
pub async fn start(app: AppHandle, status: StatusHandle, database: String) {
    let dispatcher = app.dispatcher();
    let (writer, lock_failed) = match acquire_lock(&database, true).await {
        Ok(w) => (w, false),
        Err(e) => {
            dispatcher.dispatch(Action::StorageNotice(format!(
                "This tab could not get Rowkey's write lock ({e}), so it only reads: two tabs must never both save. Close the other Rowkey tabs and reload this one."
            )));
            (false, true)
        }
    };
    let blocked = dispatcher.clone();
    let idb = match Idb::open_notifying(&database, move || blocked.dispatch(Action::Outdated)).await
    {
        Ok(idb) => Rc::new(idb),
        Err(e) => {
            dispatcher.dispatch(Action::StorageUnavailable(e.to_string()));
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
    if lock_failed {
        return;
    }
    // Wait for the writing tab to go, then take over with what it saved.
    match acquire_lock(&database, false).await {
        Ok(true) => match read(&idb).await {
            Ok(loaded) => dispatcher.dispatch(Action::Loaded(Box::new(loaded), idb, true)),
            Err(e) => dispatcher.dispatch(Action::StorageNotice(format!(
                "The other Rowkey tab closed, but this tab could not read what it saved ({e}), so it stays read-only. Reload this tab to take over."
            ))),
        },
        Ok(false) => {}
        Err(e) => dispatcher.dispatch(Action::StorageNotice(format!(
            "This tab could not wait for Rowkey's write lock ({e}), so it stays read-only. Close the other Rowkey tabs and reload this one."
        ))),
    }
}

/// Measures how much the tables take in storage.
pub async fn refresh_usage(app: &AppHandle, status: &StatusHandle) {
    if let Some(usage) = idb::estimate().await {
        app.storage.borrow_mut().usage = Some(usage);
        status.dispatch(());
    }
}

/// Writes queued plans one transaction at a time, in order, reporting each outcome to the
/// queue (which decides what is saved).
pub async fn drain(app: AppHandle, status: StatusHandle) {
    let storage = app.storage.clone();
    status.dispatch(());
    loop {
        let next = storage.borrow_mut().queue.next();
        let Some(plan) = next else { break };
        let idb = storage.borrow().idb.clone();
        let result = match idb {
            Some(idb) => idb.apply(&plan).await,
            None => Err(crate::persist::StorageError::new(
                crate::persist::StorageErrorKind::Closed,
                "InvalidStateError",
                "no database is open",
            )),
        };
        storage.borrow_mut().queue.finish(result);
        status.dispatch(());
    }
    storage.borrow_mut().busy = false;
    status.dispatch(());
    refresh_usage(&app, &status).await;
}
