//! The person's preferences: theme, how timestamps print, how row keys show, the zone cbt
//! prints dates in, the console's dialect. The page keeps them across reloads (the session says when, with
//! [`super::Effect::SavePrefs`]).

use crate::commands::Dialect;
use crate::json::{self, Node, Value};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follows the system's light or dark setting.
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Timestamps {
    /// Epoch milliseconds, as `hbase.shell.timestamp.format.epoch=true` prints them.
    Epoch,
    /// Local date and time, as HBase's shell prints them by default since 2.3 (`toLocalDateTime`
    /// in `table.rb`); the default for a person with no saved choice.
    #[default]
    Local,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyDisplay {
    /// As HBase prints bytes: printable ASCII as is, the rest as `\xHH`.
    #[default]
    Hbase,
    /// Decoded as UTF-8 where valid.
    Utf8,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Prefs {
    pub theme: Theme,
    pub timestamps: Timestamps,
    pub keys: KeyDisplay,
    /// The zone cbt prints times in.
    pub cbt_zone: CbtZone,
    /// The console's dialect, as the person last switched it.
    pub dialect: Dialect,
}

/// The zone cbt's dates print in: the local one (as cbt prints in its process's zone) or UTC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CbtZone {
    #[default]
    Local,
    Utc,
}

const THEMES: [(&str, Theme); 3] = [
    ("System", Theme::System),
    ("Light", Theme::Light),
    ("Dark", Theme::Dark),
];
const TIMESTAMPS: [(&str, Timestamps); 2] =
    [("Epoch", Timestamps::Epoch), ("Local", Timestamps::Local)];
const KEYS: [(&str, KeyDisplay); 2] = [("Hbase", KeyDisplay::Hbase), ("Utf8", KeyDisplay::Utf8)];
const ZONES: [(&str, CbtZone); 2] = [("Local", CbtZone::Local), ("Utc", CbtZone::Utc)];
const DIALECTS: [(&str, Dialect); 2] = [("HBase", Dialect::HBase), ("Cbt", Dialect::Cbt)];

/// `value`'s name in `table`.
fn name<T: PartialEq + Copy>(table: &[(&'static str, T)], value: T) -> Value {
    Value::from(
        table
            .iter()
            .find(|(_, v)| *v == value)
            .map_or("", |(n, _)| n),
    )
}

/// The member `field`, one of `table`'s names, or the default when it is missing.
fn read<T: Default + Copy>(
    fields: &json::Fields,
    field: &str,
    table: &[(&str, T)],
) -> Result<T, json::Error> {
    fields.or(field, T::default(), |n| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        let name = n.variant(&names)?;
        Ok(table
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(T::default, |(_, v)| *v))
    })
}

impl Prefs {
    /// The preferences as the page saves them:
    /// `{"theme":"Dark","timestamps":"Epoch","keys":"Utf8","cbt_zone":"Utc"}`, and
    /// `"dialect":"Cbt"` after them when the console was last in cbt mode (the HBase shell, the
    /// default, is not written, so the preferences of a person who never switched are saved as
    /// before).
    pub fn to_json(&self) -> String {
        let mut members = vec![
            ("theme", name(&THEMES, self.theme)),
            ("timestamps", name(&TIMESTAMPS, self.timestamps)),
            ("keys", name(&KEYS, self.keys)),
            ("cbt_zone", name(&ZONES, self.cbt_zone)),
        ];
        if self.dialect != Dialect::HBase {
            members.push(("dialect", name(&DIALECTS, self.dialect)));
        }
        Value::object(members).to_compact()
    }

    /// Saved preferences back: a member missing takes its default, members not known are
    /// ignored; a value that is not one of the choices is an error.
    pub fn from_json(node: &Node) -> Result<Prefs, json::Error> {
        let f = node.members()?;
        Ok(Prefs {
            theme: read(&f, "theme", &THEMES)?,
            timestamps: read(&f, "timestamps", &TIMESTAMPS)?,
            keys: read(&f, "keys", &KEYS)?,
            cbt_zone: read(&f, "cbt_zone", &ZONES)?,
            dialect: read(&f, "dialect", &DIALECTS)?,
        })
    }
}
