//! The preferences in the page: kept in local storage across reloads, and the theme set on
//! the document. What they are is [`crate::session::prefs`]'s.

pub use crate::session::prefs::{CbtZone, KeyDisplay, Prefs, Theme, Timestamps};

const KEY: &str = "rowkey.prefs";

/// The saved preferences, or the defaults.
pub fn load() -> Prefs {
    super::saved_json(KEY, Prefs::from_json).unwrap_or_default()
}

pub fn save(prefs: &Prefs) {
    super::save_text(KEY, &prefs.to_json());
}

/// Sets the page's theme attribute: the chosen theme, or the system's when none is chosen
/// (the page's own script keeps following the system's changes).
pub fn apply_theme(theme: Theme) {
    let light = match theme {
        Theme::Light => true,
        Theme::Dark => false,
        Theme::System => gloo::utils::window()
            .match_media("(prefers-color-scheme: light)")
            .ok()
            .flatten()
            .is_some_and(|m| m.matches()),
    };
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = root.set_attribute("data-theme", if light { "light" } else { "dark" });
    }
}

/// The browser's UTC offset in minutes at an instant (positive east of Greenwich).
pub fn utc_offset_minutes(epoch_ms: i64) -> i32 {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(epoch_ms as f64));
    -(date.get_timezone_offset() as i32)
}
