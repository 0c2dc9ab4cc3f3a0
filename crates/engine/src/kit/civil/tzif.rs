//! A reader of tzfiles (TZif, RFC 8536), versions 1 to 4.

use super::{ZoneError, ZoneRules};

pub(super) struct TzifHeader {
    pub(super) version: u8,
    pub(super) isutcnt: usize,
    pub(super) isstdcnt: usize,
    pub(super) leapcnt: usize,
    pub(super) timecnt: usize,
    pub(super) typecnt: usize,
    pub(super) charcnt: usize,
}

impl TzifHeader {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn len(&self, time_size: usize) -> usize {
        self.timecnt * (time_size + 1)
            + self.typecnt * 6
            + self.charcnt
            + self.leapcnt * (time_size + 4)
            + self.isstdcnt
            + self.isutcnt
    }
}

pub(super) struct TzifReader<'a> {
    pub(super) b: &'a [u8],
    pub(super) at: usize,
}

impl TzifReader<'_> {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn take(&mut self, n: usize) -> Result<&[u8], ZoneError> {
        let end = self.at.checked_add(n).ok_or(ZoneError::Tzif("too long"))?;
        let out = self
            .b
            .get(self.at..end)
            .ok_or(ZoneError::Tzif("ends early"))?;
        self.at = end;
        Ok(out)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn skip(&mut self, n: usize) -> Result<(), ZoneError> {
        self.take(n).map(|_| ())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn int(&mut self, size: usize) -> Result<i64, ZoneError> {
        let b = self.take(size)?;
        Ok(match *b {
            [a, b, c, d] => i64::from(i32::from_be_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => i64::from_be_bytes([a, b, c, d, e, f, g, h]),
            _ => return Err(ZoneError::Tzif("bad integer size")),
        })
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn header(&mut self) -> Result<TzifHeader, ZoneError> {
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

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn body(
        &mut self,
        h: &TzifHeader,
        time_size: usize,
    ) -> Result<ZoneRules, ZoneError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::civil::{Zone, MICROS_PER_SECOND};
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
}
