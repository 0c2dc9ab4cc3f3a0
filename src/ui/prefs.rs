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
    Epoch,
    /// Local date and time, as HBase's shell prints them by default since 2.3 (`toLocalDateTime`
    /// in `table.rb`); the default for a person with no saved choice.
    #[default]
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
    /// The zone cbt prints times in.
    pub cbt_zone: CbtZone,
}

/// The zone cbt's dates print in: the browser's (as cbt prints in its process's zone) or UTC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CbtZone {
    #[default]
    Local,
    Utc,
}

impl Prefs {
    pub fn load() -> Prefs {
        super::saved_json(KEY).unwrap_or_default()
    }

    pub fn save(&self) {
        let _ = gloo::storage::LocalStorage::set(KEY, self);
    }

    /// Sets the page's theme attribute: the chosen theme, or the system's when none is chosen
    /// (the page's own script keeps following the system's changes).
    pub fn apply_theme(&self) {
        let light = match self.theme {
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
}

/// The browser's UTC offset in minutes at an instant (positive east of Greenwich).
pub fn utc_offset_minutes(epoch_ms: i64) -> i32 {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(epoch_ms as f64));
    -(date.get_timezone_offset() as i32)
}
