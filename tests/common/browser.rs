//! Helpers shared by the browser tests of storage (`tests/web_persist*.rs`): a shell recording
//! its changes on a fixed clock, a table's cells as text, and a script run in the page.
#![allow(dead_code)]

use rowkey::engine::{Engine, Scan};
use rowkey::shell::Shell;
use wasm_bindgen::{JsCast, JsValue};

/// A shell on a fixed clock whose engine records its changes, as the app's does.
pub fn shell() -> Shell {
    let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
    engine.record_changes(true);
    Shell::new(engine, Box::new(|| 0.0))
}

/// Every cell of `table` raw (every version, delete markers included), as text.
pub fn rows(e: &Engine, table: &str) -> Vec<String> {
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

/// Runs a script whose value is a promise, and awaits it.
pub async fn run_js(script: &str) -> Result<JsValue, String> {
    let promise: js_sys::Promise = js_sys::eval(script)
        .map_err(|e| format!("{e:?}"))?
        .dyn_into()
        .map_err(|e| format!("{e:?}"))?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| format!("{e:?}"))
}
