//! Key shapes: times a row key starts with (epoch milliseconds or seconds, reversed, binary or
//! a UTC date and time written out), and a key's leading field.

/// A time a key starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyTime {
    /// Epoch milliseconds.
    pub ms: u64,
    /// Stored as `Long.MAX_VALUE - ms`, so newer rows sort first.
    pub reversed: bool,
    /// Bytes of the key it takes.
    pub len: usize,
}

/// Plausible epoch milliseconds: from 1990 to 2100.
fn plausible(ms: u64) -> bool {
    (631_152_000_000..4_102_444_800_000).contains(&ms)
}

/// The time a key starts with, if it does: a 19-digit decimal near `Long.MAX_VALUE` (a
/// reversed timestamp), 13 decimal digits of epoch milliseconds, 14 digits of a UTC date and
/// time written `yyyyMMddHHmmss`, or 8 big-endian bytes of epoch milliseconds or a reversed
/// timestamp.
pub fn key_time(key: &[u8]) -> Option<KeyTime> {
    let digits = key.iter().take_while(|b| b.is_ascii_digit()).count();
    let max = i64::MAX as u64;
    if digits == 14 {
        let ms = civil_ms(std::str::from_utf8(key.get(..14)?).ok()?)?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: false,
            len: 14,
        });
    }
    if digits == 19 {
        let v: u64 = std::str::from_utf8(key.get(..19)?).ok()?.parse().ok()?;
        let ms = max.checked_sub(v)?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: true,
            len: 19,
        });
    }
    if digits == 13 {
        let ms: u64 = std::str::from_utf8(key.get(..13)?).ok()?.parse().ok()?;
        return plausible(ms).then_some(KeyTime {
            ms,
            reversed: false,
            len: 13,
        });
    }
    let bytes: [u8; 8] = key.get(..8)?.try_into().ok()?;
    let v = u64::from_be_bytes(bytes);
    if plausible(v) {
        return Some(KeyTime {
            ms: v,
            reversed: false,
            len: 8,
        });
    }
    let ms = max.checked_sub(v)?;
    plausible(ms).then_some(KeyTime {
        ms,
        reversed: true,
        len: 8,
    })
}

/// Epoch milliseconds of a UTC `yyyyMMddHHmmss`, when every field is in range.
fn civil_ms(text: &str) -> Option<u64> {
    let field = |at: std::ops::Range<usize>| -> Option<i64> { text.get(at)?.parse().ok() };
    let (y, m, d) = (field(0..4)?, field(4..6)?, field(6..8)?);
    let (hh, mm, ss) = (field(8..10)?, field(10..12)?, field(12..14)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    let days = crate::kit::civil::days_from_civil(y, m as u32, d as u32);
    let secs = days * 86_400 + hh * 3_600 + mm * 60 + ss;
    u64::try_from(secs).ok().map(|s| s * 1000)
}

/// The time a key holds at its start or right after its first field (`dev7|<time>`).
pub fn key_time_in(key: &[u8]) -> Option<(usize, KeyTime)> {
    if let Some(t) = key_time(key) {
        return Some((0, t));
    }
    let field = leading_field(key)?.len() + 1;
    key_time(key.get(field..)?).map(|t| (field, t))
}

/// The key's first field: the bytes before the first separator (`|`, `#`, `:`, `-`, `_`,
/// `/`, `,`, `.` or a zero byte), when there is one within the first 16 bytes.
pub(super) fn leading_field(key: &[u8]) -> Option<&[u8]> {
    let at = key
        .iter()
        .take(16)
        .position(|b| b"|#:-_/,.\0".contains(b))?;
    key.get(..at).filter(|f| !f.is_empty())
}

/// A key split into the bytes before its trailing decimal number and that number (1 to 19
/// digits), when it ends in one.
pub(super) fn trailing_number(key: &[u8]) -> Option<(&[u8], u64)> {
    let digits = key.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 19 {
        return None;
    }
    let at = key.len() - digits;
    let n = std::str::from_utf8(key.get(at..)?).ok()?.parse().ok()?;
    Some((key.get(..at)?, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_in_keys() {
        let now = 1_700_000_000_000u64;
        let rev = (i64::MAX as u64 - now).to_string();
        assert_eq!(rev.len(), 19);
        assert_eq!(
            key_time(format!("{rev}|x").as_bytes()),
            Some(KeyTime {
                ms: now,
                reversed: true,
                len: 19
            })
        );
        assert_eq!(
            key_time(b"1700000000000-a").map(|k| k.reversed),
            Some(false)
        );
        assert_eq!(key_time(&now.to_be_bytes()).map(|k| k.ms), Some(now));
        assert_eq!(
            key_time(&(i64::MAX as u64 - now).to_be_bytes()).map(|k| (k.ms, k.reversed)),
            Some((now, true))
        );
        assert_eq!(key_time(b"user0001"), None);
        assert_eq!(
            key_time_in(format!("dev7|{rev}").as_bytes()).map(|t| t.0),
            Some(5)
        );
        assert_eq!(key_time(b"9999999999999"), None);
        // A UTC date and time as 14 digits: 2026-11-24 12:00:00 is 1795521600000.
        assert_eq!(
            key_time(b"20261124120000-sensor1"),
            Some(KeyTime {
                ms: 1_795_521_600_000,
                reversed: false,
                len: 14
            })
        );
        assert_eq!(
            key_time(b"19700101000000").map(|k| k.ms),
            None,
            "1970 is before the plausible years"
        );
        assert_eq!(
            key_time(b"20240229235959").map(|k| k.ms),
            Some(1_709_251_199_000)
        );
        assert_eq!(key_time(b"20261324120000"), None, "month 13");
    }
}
