//! HBase's block index keys. Between two blocks HBase's writer indexes not the second block's
//! first key but the shortest key between the first block's last cell and it
//! (`HFileWriterImpl.getMidpoint`, branch-2.5: a first-on-row key of the shortest row between
//! the two rows; on one row, the shortest qualifier between the two), so a seek for a key
//! between the two (a get of a row that starts the second block, a row between the blocks)
//! goes straight to the second block without reading the first. Rowkey's block index holds
//! each block's first key; a seek that finds nothing at or after its key in the block that
//! index names asks here whether HBase's would have named the next block.

use std::cmp::Ordering;

use super::encoding::CellRef;

/// Whether HBase's index key for a block whose first cell is `first`, after a block whose last
/// cell is `last`, sorts at or before `probe` (a key of the same store).
pub(crate) fn index_key_at_or_before(
    last: CellRef<'_>,
    first: CellRef<'_>,
    probe: CellRef<'_>,
) -> bool {
    // Field by field, as `getMidpoint` goes: where the two cells' rows differ, the key is
    // `createFirstOnRow(midRow)`, before every cell of its row; on one row, where their
    // families differ, `createFirstOnRowFamily`; on one column, `createFirstOnRowCol(right,
    // midQualifier)` at the latest timestamp, before every key of that qualifier. While the
    // two cells agree on a field, the key has `first`'s, which the probe's is compared with.
    let fields = [
        (last.row, first.row, probe.row),
        (last.family, first.family, probe.family),
        (last.qualifier, first.qualifier, probe.qualifier),
    ];
    for (left, right, probe) in fields {
        if let Some(at) = midpoint_at_or_before(left, right, probe) {
            return at;
        }
        match probe.cmp(right) {
            Ordering::Less => return false,
            Ordering::Greater => return true,
            Ordering::Equal => {}
        }
    }
    // One column across the two blocks: the key is `first` itself.
    first.cmp_key(&probe) != Ordering::Greater
}

/// Whether HBase's shortest bytes between `left` and `right` (`getMinimumMidpointArray`: `left`
/// up to the first byte that differs, that byte plus one; `left` and a zero byte when `left`
/// is a prefix of `right`) sort at or before `probe`; `None` when `left` and `right` are equal.
fn midpoint_at_or_before(left: &[u8], right: &[u8], probe: &[u8]) -> Option<bool> {
    let (stem, last) = match left.iter().zip(right).position(|(a, b)| a != b) {
        // `left` sorts before `right`, so its byte there is under 0xFF.
        Some(i) => (left.get(..i)?, left.get(i)?.wrapping_add(1)),
        None if left.len() < right.len() => (left, 0),
        None => return None,
    };
    Some(stem.iter().chain([&last]).cmp(probe.iter()) != Ordering::Greater)
}

/// `getMinimumMidpointArray` as HBase writes it, the bytes made: the oracle of the tests here
/// and of the read path's (`store::tests`).
#[cfg(test)]
pub(crate) fn midpoint(left: &[u8], right: &[u8]) -> Option<Vec<u8>> {
    let min = left.len().min(right.len());
    let diff = (0..min).find(|&i| left[i] != right[i]).unwrap_or(min);
    if diff == min {
        return (left.len() < right.len()).then(|| {
            let mut m = right[..=min].to_vec();
            m[min] = 0;
            m
        });
    }
    let mut m = left[..=diff].to_vec();
    m[diff] += 1;
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_midpoint_sorts_as_hbase_makes_it() {
        let words: Vec<&[u8]> = vec![
            b"",
            b"a",
            b"ab",
            b"abc",
            b"abd",
            b"ac",
            b"b",
            b"b\x00",
            b"row-0009",
            b"row-001",
            b"row-0010",
            b"row-0010a",
            b"row-0011",
            b"z\xfe",
            b"z\xff",
        ];
        for (i, left) in words.iter().enumerate() {
            for right in &words[i..] {
                for probe in &words {
                    let want = midpoint(left, right).map(|m| m.as_slice() <= *probe);
                    assert_eq!(
                        midpoint_at_or_before(left, right, probe),
                        want,
                        "{left:?} {right:?} {probe:?}"
                    );
                }
            }
        }
        assert_eq!(
            midpoint(b"row-0009", b"row-0010"),
            Some(b"row-001".to_vec())
        );
        assert_eq!(midpoint(b"ab", b"abc"), Some(b"ab\x00".to_vec()));
    }
}
