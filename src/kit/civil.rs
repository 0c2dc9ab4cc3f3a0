//! Civil dates and times in the proleptic Gregorian calendar, and the time zones that turn an
//! instant into one: UTC, a fixed offset, a zone's rules read from a tzfile (TZif, RFC 8536) or
//! from a POSIX `TZ` string (`CET-1CEST,M3.5.0,M10.5.0/3`), the system's zone natively (the `TZ`
//! variable, else `/etc/localtime`), and a function the page passes for the browser's zone.
//!
//! Instants are microseconds since 1970-01-01T00:00Z (HBase stamps milliseconds, Bigtable
//! microseconds; a millisecond instant is `ms * 1000`). A [`CivilTime`] is the broken-down wall
//! time with microseconds that the shells' formats print from.

use std::fmt;
use std::sync::Arc;

use thiserror::Error;

/// Microseconds in a second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;
/// Seconds in a day (civil days; leap seconds are not counted, as neither Java nor POSIX does).
pub const SECONDS_PER_DAY: i64 = 86_400;

/// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`:
/// years start in March, so the leap day ends one).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let (m, d) = (i64::from(month), i64::from(day));
    let y = if m <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `(year, month, day)` of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`, the inverse of [`days_from_civil`]).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// True for a Gregorian leap year.
pub fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1-12) of `year`; 0 for a month out of range.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Day of the week of a day count from 1970-01-01: 0 is Sunday (1970-01-01 was a Thursday).
pub fn weekday(days: i64) -> u32 {
    (days + 4).rem_euclid(7) as u32
}

/// A wall-clock date and time with microseconds, in no zone of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CivilTime {
    pub year: i64,
    /// 1-12.
    pub month: u32,
    /// 1-31.
    pub day: u32,
    /// 0-23.
    pub hour: u32,
    /// 0-59.
    pub minute: u32,
    /// 0-59.
    pub second: u32,
    /// 0-999,999.
    pub micros: u32,
}

impl CivilTime {
    /// The civil time of these fields, when every one is in range (day 31 of April is not).
    pub fn new(
        year: i64,
        month: u32,
        day: u32,
        hour: u32,
        minute: u32,
        second: u32,
        micros: u32,
    ) -> Option<CivilTime> {
        let ok = (1..=12).contains(&month)
            && (1..=days_in_month(year, month)).contains(&day)
            && hour < 24
            && minute < 60
            && second < 60
            && micros < 1_000_000
            && (-1_000_000_000..=1_000_000_000).contains(&year);
        ok.then_some(CivilTime {
            year,
            month,
            day,
            hour,
            minute,
            second,
            micros,
        })
    }

    /// The civil time `micros` microseconds after 1970-01-01T00:00 on the same clock.
    pub fn from_micros(micros: i64) -> CivilTime {
        let secs = micros.div_euclid(MICROS_PER_SECOND);
        let days = secs.div_euclid(SECONDS_PER_DAY);
        let in_day = secs.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        CivilTime {
            year,
            month,
            day,
            hour: (in_day / 3600) as u32,
            minute: (in_day / 60 % 60) as u32,
            second: (in_day % 60) as u32,
            micros: micros.rem_euclid(MICROS_PER_SECOND) as u32,
        }
    }

    /// The civil time `millis` milliseconds after 1970-01-01T00:00 on the same clock.
    pub fn from_millis(millis: i64) -> CivilTime {
        CivilTime::from_micros(millis.saturating_mul(1000))
    }

    /// Microseconds from 1970-01-01T00:00 on the same clock (saturating far outside ±290,000
    /// years).
    pub fn to_micros(&self) -> i64 {
        let days = days_from_civil(self.year, self.month, self.day);
        let secs = i64::from(self.hour * 3600 + self.minute * 60 + self.second);
        days.saturating_mul(SECONDS_PER_DAY)
            .saturating_add(secs)
            .saturating_mul(MICROS_PER_SECOND)
            .saturating_add(i64::from(self.micros))
    }

    /// Whole milliseconds of the second (0-999).
    pub fn millis(&self) -> u32 {
        self.micros / 1000
    }
}

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
    pub fn from_fn(offset_minutes: impl Fn(i64) -> i32 + 'static) -> Zone {
        Zone::Hook(Arc::new(offset_minutes))
    }

    /// `Z`, `UTC`, `+05:30`, `-0800` or `+09` as a zone.
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
    pub fn tzif(bytes: &[u8]) -> Result<Zone, ZoneError> {
        ZoneRules::tzif(bytes).map(|r| Zone::Rules(Arc::new(r)))
    }

    /// The system's zone: the `TZ` variable (empty is UTC; `:name`, a zone name under
    /// `/usr/share/zoneinfo`, an absolute tzfile path, or a POSIX `TZ` string), else
    /// `/etc/localtime`, else UTC.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn system() -> Zone {
        Zone::from_tz_setting(std::env::var("TZ").ok().as_deref())
    }

    /// The zone a `TZ` setting names, `None` meaning unset (read as [`Zone::system`] reads it).
    #[cfg(not(target_arch = "wasm32"))]
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
    pub fn offset_seconds(&self, utc_micros: i64) -> i32 {
        match self {
            Zone::Utc => 0,
            Zone::Fixed(s) => *s,
            Zone::Rules(r) => r.offset_at(utc_micros.div_euclid(MICROS_PER_SECOND)),
            Zone::Hook(f) => f(utc_micros.div_euclid(1000)).saturating_mul(60),
        }
    }

    /// The wall time in this zone at an instant in microseconds.
    pub fn civil(&self, utc_micros: i64) -> CivilTime {
        let offset = i64::from(self.offset_seconds(utc_micros)) * MICROS_PER_SECOND;
        CivilTime::from_micros(utc_micros.saturating_add(offset))
    }

    /// The instant (microseconds) whose wall time in this zone is `t`: the offset at the wall
    /// time read as UTC, then at the instant that gives. A wall time a spring-forward gap skips
    /// lands after the gap; one an autumn overlap repeats takes one of its two instants.
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
    transitions: Vec<(i64, i32)>,
    /// The offset before the first transition.
    initial: i32,
    /// The rule after the last transition.
    footer: Option<PosixRule>,
}

impl ZoneRules {
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

struct TzifHeader {
    version: u8,
    isutcnt: usize,
    isstdcnt: usize,
    leapcnt: usize,
    timecnt: usize,
    typecnt: usize,
    charcnt: usize,
}

impl TzifHeader {
    fn len(&self, time_size: usize) -> usize {
        self.timecnt * (time_size + 1)
            + self.typecnt * 6
            + self.charcnt
            + self.leapcnt * (time_size + 4)
            + self.isstdcnt
            + self.isutcnt
    }
}

struct TzifReader<'a> {
    b: &'a [u8],
    at: usize,
}

impl TzifReader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ZoneError> {
        let end = self.at.checked_add(n).ok_or(ZoneError::Tzif("too long"))?;
        let out = self
            .b
            .get(self.at..end)
            .ok_or(ZoneError::Tzif("ends early"))?;
        self.at = end;
        Ok(out)
    }

    fn skip(&mut self, n: usize) -> Result<(), ZoneError> {
        self.take(n).map(|_| ())
    }

    fn int(&mut self, size: usize) -> Result<i64, ZoneError> {
        let b = self.take(size)?;
        Ok(match *b {
            [a, b, c, d] => i64::from(i32::from_be_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => i64::from_be_bytes([a, b, c, d, e, f, g, h]),
            _ => return Err(ZoneError::Tzif("bad integer size")),
        })
    }

    fn header(&mut self) -> Result<TzifHeader, ZoneError> {
        if self.take(4)? != b"TZif" {
            return Err(ZoneError::Tzif("no TZif magic"));
        }
        let version = match self.take(1)?.first() {
            Some(0) => 0,
            Some(v @ b'2'..=b'9') => v - b'0',
            _ => return Err(ZoneError::Tzif("unknown version")),
        };
        self.skip(15)?;
        let mut count = || -> Result<usize, ZoneError> {
            usize::try_from(self.int(4)?).map_err(|_| ZoneError::Tzif("negative count"))
        };
        Ok(TzifHeader {
            version,
            isutcnt: count()?,
            isstdcnt: count()?,
            leapcnt: count()?,
            timecnt: count()?,
            typecnt: count()?,
            charcnt: count()?,
        })
    }

    fn body(&mut self, h: &TzifHeader, time_size: usize) -> Result<ZoneRules, ZoneError> {
        if h.typecnt == 0 {
            return Err(ZoneError::Tzif("no local time types"));
        }
        let mut times = Vec::with_capacity(h.timecnt.min(4096));
        for _ in 0..h.timecnt {
            times.push(self.int(time_size)?);
        }
        let indices = self.take(h.timecnt)?.to_vec();
        let mut offsets = Vec::with_capacity(h.typecnt.min(256));
        for _ in 0..h.typecnt {
            let off = self.int(4)?;
            self.skip(2)?;
            offsets.push(i32::try_from(off).map_err(|_| ZoneError::Tzif("offset out of range"))?);
        }
        self.skip(h.charcnt + h.leapcnt * (time_size + 4) + h.isstdcnt + h.isutcnt)?;
        let transitions = times
            .into_iter()
            .zip(indices)
            .map(|(t, i)| {
                offsets
                    .get(usize::from(i))
                    .map(|o| (t, *o))
                    .ok_or(ZoneError::Tzif("type index out of range"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ZoneRules {
            transitions,
            initial: offsets[0],
            footer: None,
        })
    }
}

/// A POSIX `TZ` rule: a standard offset and, optionally, daylight time between two dates.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PosixRule {
    /// Seconds east of UTC (POSIX writes them west: `EST5` is -18,000).
    std_offset: i32,
    dst: Option<Dst>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Dst {
    offset: i32,
    start: (DateRule, i32),
    end: (DateRule, i32),
}

/// The day a daylight-time change falls on in a year.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DateRule {
    /// `Jn`: day 1-365, February 29 never counted.
    Julian(u32),
    /// `n`: day 0-365, February 29 counted.
    Zero(u32),
    /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5 the last) of month `m`.
    Month(u32, u32, u32),
}

impl DateRule {
    /// Days from 1970-01-01 of this rule's day in `year`.
    fn day(self, year: i64) -> i64 {
        let jan1 = days_from_civil(year, 1, 1);
        match self {
            DateRule::Julian(n) => {
                let leap = i64::from(is_leap(year) && n >= 60);
                jan1 + i64::from(n) - 1 + leap
            }
            DateRule::Zero(n) => jan1 + i64::from(n),
            DateRule::Month(m, w, d) => {
                let first = days_from_civil(year, m, 1);
                let mut day = 1 + (d + 7 - weekday(first)) % 7 + 7 * (w - 1);
                while day > days_in_month(year, m) {
                    day -= 7;
                }
                first + i64::from(day) - 1
            }
        }
    }
}

impl PosixRule {
    fn offset_at(&self, secs: i64) -> i32 {
        let Some(dst) = &self.dst else {
            return self.std_offset;
        };
        let local = secs + i64::from(self.std_offset);
        let (year, _, _) = civil_from_days(local.div_euclid(SECONDS_PER_DAY));
        let start = dst.start.0.day(year) * SECONDS_PER_DAY + i64::from(dst.start.1)
            - i64::from(self.std_offset);
        let end =
            dst.end.0.day(year) * SECONDS_PER_DAY + i64::from(dst.end.1) - i64::from(dst.offset);
        let in_dst = if start < end {
            start <= secs && secs < end
        } else {
            !(end <= secs && secs < start)
        };
        if in_dst {
            dst.offset
        } else {
            self.std_offset
        }
    }

    fn parse(text: &str) -> Result<PosixRule, ZoneError> {
        let mut p = PosixParser { text, at: 0 };
        p.name()?;
        let std_offset = -p.offset()?;
        if p.done() {
            return Ok(PosixRule {
                std_offset,
                dst: None,
            });
        }
        p.name()?;
        let offset = if p.done() || p.peek() == Some(b',') {
            std_offset + 3600
        } else {
            -p.offset()?
        };
        let (start, end) = if p.done() {
            // No dates: the United States' rules, as glibc assumes.
            (
                (DateRule::Month(3, 2, 0), 7200),
                (DateRule::Month(11, 1, 0), 7200),
            )
        } else {
            p.eat(b',')?;
            let start = p.date_time()?;
            p.eat(b',')?;
            (start, p.date_time()?)
        };
        if !p.done() {
            return Err(p.error("unexpected text after the rule"));
        }
        Ok(PosixRule {
            std_offset,
            dst: Some(Dst { offset, start, end }),
        })
    }
}

struct PosixParser<'a> {
    text: &'a str,
    at: usize,
}

impl PosixParser<'_> {
    fn error(&self, reason: &'static str) -> ZoneError {
        ZoneError::Posix {
            text: self.text.to_string(),
            at: self.at,
            reason,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    fn eat(&mut self, b: u8) -> Result<(), ZoneError> {
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error("expected a comma"))
        }
    }

    fn name(&mut self) -> Result<(), ZoneError> {
        let start = self.at;
        if self.peek() == Some(b'<') {
            while let Some(b) = self.peek() {
                self.at += 1;
                if b == b'>' {
                    return Ok(());
                }
            }
            return Err(self.error("a <name> without its >"));
        }
        while self.peek().is_some_and(|b| b.is_ascii_alphabetic()) {
            self.at += 1;
        }
        if self.at - start < 3 {
            return Err(self.error("expected a zone name of three letters or more"));
        }
        Ok(())
    }

    fn number(&mut self, max: u32) -> Result<u32, ZoneError> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) && self.at - start < 3 {
            self.at += 1;
        }
        self.text[start..self.at]
            .parse()
            .ok()
            .filter(|n| *n <= max)
            .ok_or_else(|| self.error("expected a number in range"))
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, as written (west positive for offsets).
    fn offset(&mut self) -> Result<i32, ZoneError> {
        let sign = match self.peek() {
            Some(b'-') => {
                self.at += 1;
                -1
            }
            Some(b'+') => {
                self.at += 1;
                1
            }
            _ => 1,
        };
        let mut secs = self.number(167)? as i32 * 3600;
        for scale in [60, 1] {
            if self.peek() != Some(b':') {
                break;
            }
            self.at += 1;
            secs += self.number(59)? as i32 * scale;
        }
        Ok(sign * secs)
    }

    fn date_time(&mut self) -> Result<(DateRule, i32), ZoneError> {
        let rule = match self.peek() {
            Some(b'J') => {
                self.at += 1;
                let n = self.number(365)?;
                if n == 0 {
                    return Err(self.error("Julian days run from 1"));
                }
                DateRule::Julian(n)
            }
            Some(b'M') => {
                self.at += 1;
                let m = self.number(12)?;
                self.eat_dot()?;
                let w = self.number(5)?;
                self.eat_dot()?;
                let d = self.number(6)?;
                if m == 0 || w == 0 {
                    return Err(self.error("months and weeks run from 1"));
                }
                DateRule::Month(m, w, d)
            }
            _ => DateRule::Zero(self.number(365)?),
        };
        let time = if self.peek() == Some(b'/') {
            self.at += 1;
            self.offset()?
        } else {
            7200
        };
        Ok((rule, time))
    }

    fn eat_dot(&mut self) -> Result<(), ZoneError> {
        if self.peek() == Some(b'.') {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error("expected a dot in Mm.w.d"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        for days in (-800_000..800_000).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(weekday(0), 4);
    }

    #[test]
    fn civil_times_validate() {
        assert!(CivilTime::new(2024, 2, 29, 0, 0, 0, 0).is_some());
        assert!(CivilTime::new(2023, 2, 29, 0, 0, 0, 0).is_none());
        assert!(CivilTime::new(2023, 4, 31, 0, 0, 0, 0).is_none());
        assert!(CivilTime::new(2023, 4, 30, 24, 0, 0, 0).is_none());
        assert!(CivilTime::new(2023, 4, 30, 23, 59, 59, 1_000_000).is_none());
    }

    #[test]
    fn micros_break_down() {
        // 1700000000123456 µs is 2023-11-14T22:13:20.123456Z.
        let t = CivilTime::from_micros(1_700_000_000_123_456);
        assert_eq!(
            t,
            CivilTime {
                year: 2023,
                month: 11,
                day: 14,
                hour: 22,
                minute: 13,
                second: 20,
                micros: 123_456
            }
        );
        assert_eq!(t.to_micros(), 1_700_000_000_123_456);
        assert_eq!(t.millis(), 123);
        let before = CivilTime::from_micros(-1);
        assert_eq!(
            (before.year, before.second, before.micros),
            (1969, 59, 999_999)
        );
    }

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

    #[test]
    fn posix_rules() -> Result<(), ZoneError> {
        let ny = Zone::posix("EST5EDT,M3.2.0,M11.1.0")?;
        // 2024-03-10 06:59:59Z is 01:59:59 EST; a second later 03:00 EDT.
        let spring = CivilTime::new(2024, 3, 10, 7, 0, 0, 0).map_or(0, |t| t.to_micros());
        assert_eq!(ny.offset_seconds(spring - 1_000_000), -18_000);
        assert_eq!(ny.offset_seconds(spring), -14_400);
        // 2024-11-03 06:00Z is 02:00 EDT, back to 01:00 EST.
        let autumn = CivilTime::new(2024, 11, 3, 6, 0, 0, 0).map_or(0, |t| t.to_micros());
        assert_eq!(ny.offset_seconds(autumn - 1), -14_400);
        assert_eq!(ny.offset_seconds(autumn), -18_000);
        // Southern hemisphere: Sydney's daylight time spans the new year.
        let syd = Zone::posix("AEST-10AEDT,M10.1.0,M4.1.0/3")?;
        assert_eq!(
            syd.offset_seconds(CivilTime::from_micros(0).to_micros()),
            39_600
        );
        let july = CivilTime::new(2024, 7, 1, 0, 0, 0, 0).map_or(0, |t| t.to_micros());
        assert_eq!(syd.offset_seconds(july), 36_000);
        assert_eq!(Zone::posix("<+0530>-5:30")?.offset_seconds(0), 19_800);
        assert_eq!(Zone::posix("UTC0")?.offset_seconds(0), 0);
        assert!(matches!(
            Zone::posix("E5"),
            Err(ZoneError::Posix { at: 1, .. })
        ));
        assert!(Zone::posix("EST5EDT,M13.1.0,M11.1.0").is_err());
        // A wall time back to its instant.
        let t = ny.civil(july);
        assert_eq!(t.hour, 20);
        assert_eq!(ny.instant(&t), july);
        Ok(())
    }

    /// A TZif version 2 file written by hand: one transition at 1000 s from +1 h to +2 h and a
    /// footer of `<+03>-3`.
    fn tzif_bytes() -> Vec<u8> {
        let mut v = Vec::new();
        let header = |v: &mut Vec<u8>, timecnt: u32| {
            v.extend_from_slice(b"TZif2");
            v.extend_from_slice(&[0; 15]);
            for n in [0u32, 0, 0, timecnt, 2, 4] {
                v.extend_from_slice(&n.to_be_bytes());
            }
        };
        header(&mut v, 1);
        v.extend_from_slice(&1000i32.to_be_bytes());
        v.push(1);
        for off in [3600i32, 7200] {
            v.extend_from_slice(&off.to_be_bytes());
            v.extend_from_slice(&[0, 0]);
        }
        v.extend_from_slice(b"AB\0\0");
        header(&mut v, 2);
        v.extend_from_slice(&1000i64.to_be_bytes());
        v.extend_from_slice(&2000i64.to_be_bytes());
        v.extend_from_slice(&[1, 0]);
        for off in [3600i32, 7200] {
            v.extend_from_slice(&off.to_be_bytes());
            v.extend_from_slice(&[0, 0]);
        }
        v.extend_from_slice(b"AB\0\0");
        v.extend_from_slice(b"\n<+03>-3\n");
        v
    }

    #[test]
    fn tzif_files() -> Result<(), ZoneError> {
        let z = Zone::tzif(&tzif_bytes())?;
        let at = |s: i64| z.offset_seconds(s * MICROS_PER_SECOND);
        assert_eq!(at(0), 3600, "before the first transition");
        assert_eq!(at(1000), 7200);
        assert_eq!(at(1999), 7200);
        assert_eq!(at(2000), 3600);
        assert_eq!(at(5000), 10_800, "the footer after the last transition");
        assert_eq!(
            Zone::tzif(b"TZif").err(),
            Some(ZoneError::Tzif("ends early"))
        );
        assert_eq!(
            Zone::tzif(b"nope").err(),
            Some(ZoneError::Tzif("no TZif magic"))
        );
        let bytes = tzif_bytes();
        for cut in 0..bytes.len() - 10 {
            let _ = Zone::tzif(&bytes[..cut]);
        }
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
