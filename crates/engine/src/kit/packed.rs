//! Byte strings side by side in one buffer, in the order they were added: a table's region
//! start keys, the rows a read returned. Thousands or a million of them take two allocations
//! that grow, not one each, and a search over them reads one buffer.

/// Byte strings in one buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    bytes: Vec<u8>,
    /// Where each string ends in `bytes`.
    ends: Vec<usize>,
}

impl Packed {
    /// Room for `strings` strings of `bytes` bytes in all.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn with_capacity(strings: usize, bytes: usize) -> Packed {
        Packed {
            bytes: Vec::with_capacity(bytes),
            ends: Vec::with_capacity(strings),
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn push(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        self.ends.push(self.bytes.len());
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// String `i`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let from = match i.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.bytes.get(from..*self.ends.get(i)?)
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &[u8]> + ExactSizeIterator + '_ {
        (0..self.len()).map(|i| self.get(i).unwrap_or_default())
    }
}

impl<S: AsRef<[u8]>> FromIterator<S> for Packed {
    fn from_iter<I: IntoIterator<Item = S>>(strings: I) -> Packed {
        let mut out = Packed::default();
        for s in strings {
            out.push(s.as_ref());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_come_back_as_they_went_in() {
        let strings: [&[u8]; 4] = [b"row-1", b"", b"r", b"row-22"];
        let packed: Packed = strings.iter().collect();
        assert_eq!(packed.len(), 4);
        assert!(packed.iter().eq(strings.iter().copied()));
        assert!(packed.iter().rev().eq(strings.iter().rev().copied()));
        assert_eq!(packed.get(3), Some(&b"row-22"[..]));
        assert_eq!(packed.get(4), None);
        assert!(Packed::default().is_empty());
    }
}
