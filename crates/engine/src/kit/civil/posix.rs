//! POSIX `TZ` rules: `EST5EDT,M3.2.0,M11.1.0`, a standard offset and daylight time between
//! two dates of each year.

use super::{civil_from_days, days_from_civil, days_in_month, is_leap, weekday};
use super::{ZoneError, SECONDS_PER_DAY};

/// A POSIX `TZ` rule: a standard offset and, optionally, daylight time between two dates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PosixRule {
    /// Seconds east of UTC (POSIX writes them west: `EST5` is -18,000).
    pub(super) std_offset: i32,
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn offset_at(&self, secs: i64) -> i32 {
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

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn parse(text: &str) -> Result<PosixRule, ZoneError> {
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
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn error(&self, reason: &'static str) -> ZoneError {
        ZoneError::Posix {
            text: self.text.to_string(),
            at: self.at,
            reason,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn eat(&mut self, b: u8) -> Result<(), ZoneError> {
        if self.peek() == Some(b) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error("expected a comma"))
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
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

    #[cfg_attr(rowkey_cold, optimize(size))]
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
    #[cfg_attr(rowkey_cold, optimize(size))]
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

    #[cfg_attr(rowkey_cold, optimize(size))]
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

    #[cfg_attr(rowkey_cold, optimize(size))]
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
    use crate::kit::civil::{CivilTime, Zone};
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
}
