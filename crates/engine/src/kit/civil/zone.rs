//! Time zones: what offset from UTC applies at an instant.

use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use super::posix::PosixRule;
use super::tzif::TzifReader;
use super::{CivilTime, MICROS_PER_SECOND};

/// Why a zone could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ZoneError {
    /// A POSIX `TZ` string that does not parse; the byte offset is where it went wrong.
    #[error("the time zone “{text}” is not a POSIX TZ string (at byte {at}: {reason})")]
    Posix {
        text: String,
        at: usize,
        reason: &'static str,
    },
    /// A tzfile that is not TZif or ends early.
    #[error("not a TZif time zone file: {0}")]
    Tzif(&'static str),
    /// An offset that is not `Z` or `±hh:mm`.
    #[error("the offset “{0}” is not Z or ±hh:mm")]
    Offset(String),
}

/// A time zone: what offset from UTC applies at an instant.
#[derive(Clone)]
pub enum Zone {
    /// Coordinated Universal Time.
    Utc,
    /// A fixed offset, in seconds east of UTC (`+05:30` is 19,800).
    Fixed(i32),
    /// A zone's rules, read from a tzfile or a POSIX `TZ` string.
    Rules(Arc<ZoneRules>),
    /// A function giving the offset, in minutes east of UTC, at an instant in epoch
    /// milliseconds: the page passes the browser's zone so (`-new Date(ms).getTimezoneOffset()`).
    Hook(Arc<dyn Fn(i64) -> i32>),
}

impl fmt::Debug for Zone {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Zone::Utc => f.write_str("Utc"),
            Zone::Fixed(s) => write!(f, "Fixed({s})"),
            Zone::Rules(r) => write!(f, "Rules({} transitions)", r.transitions.len()),
            Zone::Hook(_) => f.write_str("Hook"),
        }
    }
}

impl Zone {
    /// The zone a function gives (minutes east of UTC at an epoch-millisecond instant).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_fn(offset_minutes: impl Fn(i64) -> i32 + 'static) -> Zone {
        Zone::Hook(Arc::new(offset_minutes))
    }

    /// `Z`, `UTC`, `+05:30`, `-0800` or `+09` as a zone.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn parse_offset(text: &str) -> Result<Zone, ZoneError> {
        let bad = || ZoneError::Offset(text.to_string());
        if text == "Z" || text.eq_ignore_ascii_case("UTC") {
            return Ok(Zone::Utc);
        }
        let (sign, rest) = match text.as_bytes().first() {
            Some(b'+') => (1, &text[1..]),
            Some(b'-') => (-1, &text[1..]),
            _ => return Err(bad()),
        };
        let digits: String = rest.chars().filter(|c| *c != ':').collect();
        if !digits.bytes().all(|b| b.is_ascii_digit()) || !matches!(digits.len(), 2 | 4) {
            return Err(bad());
        }
        let hours: i32 = digits[..2].parse().map_err(|_| bad())?;
        let minutes: i32 = digits
            .get(2..)
            .filter(|m| !m.is_empty())
            .map_or(Ok(0), str::parse)
            .map_err(|_| bad())?;
        if hours > 18 || minutes > 59 {
            return Err(bad());
        }
        Ok(Zone::Fixed(sign * (hours * 3600 + minutes * 60)))
    }

    /// The zone of a POSIX `TZ` string: `EST5EDT,M3.2.0,M11.1.0`, `<+0530>-5:30`, `UTC0`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn posix(text: &str) -> Result<Zone, ZoneError> {
        let rule = PosixRule::parse(text)?;
        Ok(Zone::Rules(Arc::new(ZoneRules {
            transitions: Vec::new(),
            initial: rule.std_offset,
            footer: Some(rule),
        })))
    }

    /// The zone of a tzfile's bytes (TZif versions 1 to 4; from version 2 the 64-bit data and
    /// the POSIX footer for instants after the last transition).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn tzif(bytes: &[u8]) -> Result<Zone, ZoneError> {
        ZoneRules::tzif(bytes).map(|r| Zone::Rules(Arc::new(r)))
    }

    /// The system's zone: the `TZ` variable (empty is UTC; `:name`, a zone name under
    /// `/usr/share/zoneinfo`, an absolute tzfile path, or a POSIX `TZ` string), else
    /// `/etc/localtime`, else UTC.
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn system() -> Zone {
        Zone::from_tz_setting(std::env::var("TZ").ok().as_deref())
    }

    /// The zone a `TZ` setting names, `None` meaning unset (read as [`Zone::system`] reads it).
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_tz_setting(tz: Option<&str>) -> Zone {
        let read = |path: &str| std::fs::read(path).ok().and_then(|b| Zone::tzif(&b).ok());
        match tz {
            None => read("/etc/localtime").unwrap_or(Zone::Utc),
            Some("") => Zone::Utc,
            Some(tz) => {
                let name = tz.strip_prefix(':').unwrap_or(tz);
                let file = if name.starts_with('/') {
                    read(name)
                } else if !name.contains("..") {
                    read(&format!("/usr/share/zoneinfo/{name}"))
                } else {
                    None
                };
                file.or_else(|| Zone::posix(name).ok()).unwrap_or(Zone::Utc)
            }
        }
    }

    /// The offset from UTC, in seconds east, at an instant in microseconds.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn offset_seconds(&self, utc_micros: i64) -> i32 {
        match self {
            Zone::Utc => 0,
            Zone::Fixed(s) => *s,
            Zone::Rules(r) => r.offset_at(utc_micros.div_euclid(MICROS_PER_SECOND)),
            Zone::Hook(f) => f(utc_micros.div_euclid(1000)).saturating_mul(60),
        }
    }

    /// The wall time in this zone at an instant in microseconds.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn civil(&self, utc_micros: i64) -> CivilTime {
        let offset = i64::from(self.offset_seconds(utc_micros)) * MICROS_PER_SECOND;
        CivilTime::from_micros(utc_micros.saturating_add(offset))
    }

    /// The instant (microseconds) whose wall time in this zone is `t`: the offset at the wall
    /// time read as UTC, then at the instant that gives. A wall time a spring-forward gap skips
    /// lands after the gap; one an autumn overlap repeats takes one of its two instants.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn instant(&self, t: &CivilTime) -> i64 {
        let local = t.to_micros();
        let off = |at: i64| i64::from(self.offset_seconds(at)) * MICROS_PER_SECOND;
        let guess = local.saturating_sub(off(local));
        local.saturating_sub(off(guess))
    }
}

/// A zone's rules: offsets changing at transitions, and a POSIX rule after the last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneRules {
    /// `(instant in seconds, offset in seconds east from then on)`, in order.
    pub(super) transitions: Vec<(i64, i32)>,
    /// The offset before the first transition.
    pub(super) initial: i32,
    /// The rule after the last transition.
    pub(super) footer: Option<PosixRule>,
}

impl ZoneRules {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn offset_at(&self, secs: i64) -> i32 {
        let after = self.transitions.partition_point(|(at, _)| *at <= secs);
        match (after, &self.footer) {
            (0, _) if !self.transitions.is_empty() => self.initial,
            (n, Some(rule))
                if n == self.transitions.len()
                    && self.transitions.last().is_none_or(|last| secs > last.0) =>
            {
                rule.offset_at(secs)
            }
            (0, None) => self.initial,
            (n, _) => self.transitions.get(n - 1).map_or(self.initial, |t| t.1),
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn tzif(b: &[u8]) -> Result<ZoneRules, ZoneError> {
        let mut r = TzifReader { b, at: 0 };
        let v1 = r.header()?;
        if v1.version == 0 {
            return r.body(&v1, 4);
        }
        r.skip(v1.len(4))?;
        let v2 = r.header()?;
        let mut rules = r.body(&v2, 8)?;
        let footer = b.get(r.at..).unwrap_or_default();
        let footer = std::str::from_utf8(footer).map_err(|_| ZoneError::Tzif("footer not text"))?;
        let footer = footer.trim_matches('\n');
        if !footer.is_empty() {
            rules.footer = PosixRule::parse(footer).ok();
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_offsets() -> Result<(), ZoneError> {
        assert_eq!(Zone::parse_offset("+05:30")?.offset_seconds(0), 19_800);
        assert_eq!(Zone::parse_offset("-0800")?.offset_seconds(0), -28_800);
        assert_eq!(Zone::parse_offset("Z")?.offset_seconds(0), 0);
        assert!(Zone::parse_offset("+25:00").is_err());
        assert!(Zone::parse_offset("0530").is_err());
        let z = Zone::Fixed(3600);
        let t = z.civil(0);
        assert_eq!((t.year, t.hour), (1970, 1));
        assert_eq!(z.instant(&t), 0);
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn tz_settings() {
        assert_eq!(Zone::from_tz_setting(Some("")).offset_seconds(0), 0);
        assert_eq!(
            Zone::from_tz_setting(Some("JST-9")).offset_seconds(0),
            32_400
        );
        assert_eq!(
            Zone::from_tz_setting(Some("../etc/passwd")).offset_seconds(0),
            0
        );
    }
    #[test]
    fn hooks() {
        let z = Zone::from_fn(|ms| if ms < 0 { 60 } else { -300 });
        assert_eq!(z.offset_seconds(5), -18_000);
        assert_eq!(z.offset_seconds(-1_000_000), 3600);
    }
}
