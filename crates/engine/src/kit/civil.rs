//! Civil dates and times in the proleptic Gregorian calendar, and the time zones that turn an
//! instant into one: UTC, a fixed offset, a zone's rules read from a tzfile (TZif, RFC 8536) or
//! from a POSIX `TZ` string (`CET-1CEST,M3.5.0,M10.5.0/3`), the system's zone natively (the `TZ`
//! variable, else `/etc/localtime`), and a function the page passes for the browser's zone.
//!
//! Instants are microseconds since 1970-01-01T00:00Z (HBase stamps milliseconds, Bigtable
//! microseconds; a millisecond instant is `ms * 1000`). A [`CivilTime`] is the broken-down wall
//! time with microseconds that the shells' formats print from.

mod posix;
mod tzif;
mod zone;

pub use zone::{Zone, ZoneError, ZoneRules};

/// Microseconds in a second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;
/// Seconds in a day (civil days; leap seconds are not counted, as neither Java nor POSIX does).
pub const SECONDS_PER_DAY: i64 = 86_400;

/// Days from 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`:
/// years start in March, so the leap day ends one).
#[cfg_attr(rowkey_cold, optimize(size))]
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
#[cfg_attr(rowkey_cold, optimize(size))]
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
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1-12) of `year`; 0 for a month out of range.
#[cfg_attr(rowkey_cold, optimize(size))]
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
#[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn from_millis(millis: i64) -> CivilTime {
        CivilTime::from_micros(millis.saturating_mul(1000))
    }

    /// Microseconds from 1970-01-01T00:00 on the same clock (saturating far outside ±290,000
    /// years).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn to_micros(&self) -> i64 {
        let days = days_from_civil(self.year, self.month, self.day);
        let secs = i64::from(self.hour * 3600 + self.minute * 60 + self.second);
        days.saturating_mul(SECONDS_PER_DAY)
            .saturating_add(secs)
            .saturating_mul(MICROS_PER_SECOND)
            .saturating_add(i64::from(self.micros))
    }

    /// Whole milliseconds of the second (0-999).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn millis(&self) -> u32 {
        self.micros / 1000
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
}
