//! The person's preferences, kept across reloads in local storage: theme, how timestamps
//! print, how row keys show.

use gloo::storage::Storage as _;
use serde::{Deserialize, Serialize};

const KEY: &str = "rowkey.prefs";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    /// Follows the system's light or dark setting.
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timestamps {
    /// Epoch milliseconds, as `hbase.shell.timestamp.format.epoch=true` prints them.
    #[default]
    Epoch,
    /// ISO local time, as recent HBase 2.x shells print by default.
    Local,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeyDisplay {
    /// As HBase prints bytes: printable ASCII as is, the rest as `\xHH`.
    #[default]
    Hbase,
    /// Decoded as UTF-8 where valid.
    Utf8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub theme: Theme,
    pub timestamps: Timestamps,
    pub keys: KeyDisplay,
}

impl Prefs {
    pub fn load() -> Prefs {
        gloo::storage::LocalStorage::get(KEY).unwrap_or_default()
    }

    pub fn save(&self) {
        let _ = gloo::storage::LocalStorage::set(KEY, self);
    }

    /// Sets the page's theme attribute (none: the system decides).
    pub fn apply_theme(&self) {
        let Some(root) = gloo::utils::document().document_element() else {
            return;
        };
        let _ = match self.theme {
            Theme::System => root.remove_attribute("data-theme"),
            Theme::Light => root.set_attribute("data-theme", "light"),
            Theme::Dark => root.set_attribute("data-theme", "dark"),
        };
    }
}

/// The browser's UTC offset in minutes at an instant (positive east of Greenwich).
pub fn utc_offset_minutes(epoch_ms: i64) -> i32 {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(epoch_ms as f64));
    -(date.get_timezone_offset() as i32)
}
