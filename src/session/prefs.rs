//! The person's preferences: theme, how timestamps print, how row keys show, the zone cbt
//! prints dates in. The page keeps them across reloads (the session says when, with
//! [`super::Effect::SavePrefs`]).

use serde::{Deserialize, Serialize};

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

/// The zone cbt's dates print in: the local one (as cbt prints in its process's zone) or UTC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CbtZone {
    #[default]
    Local,
    Utc,
}
