//! The page's address: the share link in its fragment, read and forgotten.

/// The address's fragment (with its `#`), or nothing.
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Removes the fragment from the address, so that a reload does not offer the link again.
pub fn forget_fragment() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let loc = w.location();
    let here = format!(
        "{}{}",
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&here));
    }
}
