//! Filters that decide on the row key or on whole rows.

use super::{Comparator, CompareOp, Filter, ReturnCode};
use crate::engine::{Cell, CellRef};

/// Rows whose key starts with a prefix; ends a forward scan once rows pass the prefix
/// (`PrefixFilter`: a rejected row also answers NEXT_ROW for its cells and drops in
/// `filter_row`, which matters inside an OR list).
#[derive(Clone, Debug)]
pub struct PrefixFilter {
    pub prefix: Vec<u8>,
    pub(crate) passed: bool,
    pub(crate) reversed: bool,
    pub(crate) filter_row: bool,
}

impl PrefixFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(prefix: &[u8]) -> PrefixFilter {
        PrefixFilter {
            prefix: prefix.to_vec(),
            passed: false,
            reversed: false,
            filter_row: true,
        }
    }
}

impl Filter for PrefixFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.filter_row = true;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.passed
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.passed || row.len() < self.prefix.len() {
            return true;
        }
        let head = row.get(..self.prefix.len()).unwrap_or(row);
        let cmp = head.cmp(self.prefix.as_slice());
        if (!self.reversed && cmp.is_gt()) || (self.reversed && cmp.is_lt()) {
            self.passed = true;
        }
        self.filter_row = cmp.is_ne();
        self.filter_row
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        if self.filter_row {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        self.filter_row
    }
}

/// Rows whose key compares to the operand as the operator says (`RowFilter`: a rejected row
/// answers NEXT_ROW for its cells and drops in `filter_row`).
#[derive(Clone, Debug)]
pub struct RowFilter {
    pub op: CompareOp,
    pub comparator: Comparator,
    pub(crate) filter_out_row: bool,
}

impl RowFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(op: CompareOp, comparator: Comparator) -> RowFilter {
        RowFilter {
            op,
            comparator,
            filter_out_row: false,
        }
    }
}

impl Filter for RowFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.filter_out_row = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.op.filters_out(self.comparator.compare_to(row)) {
            self.filter_out_row = true;
        }
        self.filter_out_row
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        if self.filter_out_row {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        self.filter_out_row
    }
}

/// Like a stop row, but the stop row itself is included.
#[derive(Clone, Debug)]
pub struct InclusiveStopFilter {
    pub stop: Vec<u8>,
    pub(crate) done: bool,
    pub(crate) reversed: bool,
}

impl InclusiveStopFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(stop: Vec<u8>) -> InclusiveStopFilter {
        InclusiveStopFilter {
            stop,
            done: false,
            reversed: false,
        }
    }
}

impl Filter for InclusiveStopFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.done
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, row: &[u8]) -> bool {
        if self.done {
            return true;
        }
        self.done = if self.reversed {
            row < self.stop.as_slice()
        } else {
            row > self.stop.as_slice()
        };
        self.done
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        if self.done {
            ReturnCode::NextRow
        } else {
            ReturnCode::Include
        }
    }
}

/// At most `page_size` rows per region scanner: each region works on its own copy, so a
/// table of several regions can return more rows in all (HBase's `PageFilter` documents this;
/// `LIMIT` bounds the whole scan). Counts the rows that reach the row check with cells left:
/// a row the read left empty is dropped before `filter_row` is asked.
#[derive(Clone, Debug)]
pub struct PageFilter {
    pub page_size: i64,
    pub(crate) accepted: i64,
}

impl PageFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(page_size: i64) -> PageFilter {
        PageFilter {
            page_size,
            accepted: 0,
        }
    }
}

impl Filter for PageFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.accepted >= self.page_size
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row_key(&mut self, _row: &[u8]) -> bool {
        self.filter_all_remaining()
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn has_filter_row(&self) -> bool {
        true
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        self.accepted += 1;
        self.accepted > self.page_size
    }
}

/// Only the first cell of each row.
#[derive(Clone, Debug, Default)]
pub struct FirstKeyOnlyFilter {
    pub(crate) found: bool,
}

impl Filter for FirstKeyOnlyFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.found = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, _cell: &CellRef<'_>) -> ReturnCode {
        if self.found {
            return ReturnCode::NextRow;
        }
        self.found = true;
        ReturnCode::Include
    }
}

/// Drops every value, or replaces it by its length as a 4-byte big-endian int.
#[derive(Clone, Debug)]
pub struct KeyOnlyFilter {
    pub len_as_value: bool,
}

impl Filter for KeyOnlyFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn transform_cell(&self, mut cell: Cell) -> Cell {
        cell.value = if self.len_as_value {
            (cell.value.len() as u32).to_be_bytes().to_vec()
        } else {
            Vec::new()
        };
        cell
    }
}

/// Rows that match any of several fuzzy rules, skipping ahead to the next row that could
/// (HBase's `FuzzyRowFilter`). A rule is a key and a mask of the same length: where the mask
/// holds 0 the row's byte must equal the key's, where it holds 1 any byte will do. A row is
/// compared on the first `min(row, key)` bytes, so a row shorter than a key passes when its
/// bytes do.
///
/// A cell of a row that matches no rule answers SEEK_NEXT_USING_HINT and drops its row in
/// `filter_row`; the hint is the smallest of the rules' next candidate rows after it
/// (`getNextForFuzzyRule`, kept per rule as HBase's `RowTracker` keeps them). When no rule
/// has a candidate left, the filter is done and the region's scan ends.
#[derive(Clone, Debug)]
pub struct FuzzyRowFilter {
    /// (key, mask) pairs as given: mask bytes 0 (fixed) and 1 (any).
    pub rules: Vec<(Vec<u8>, Vec<u8>)>,
    pub(crate) reversed: bool,
    pub(crate) filter_row: bool,
    pub(crate) done: bool,
    /// The rule that matched last, tried first on the next row.
    pub(crate) last_found: Option<usize>,
    /// Each rule's next candidate row (rules without one dropped); `None` until first asked.
    pub(crate) candidates: Option<Vec<(Vec<u8>, usize)>>,
    /// The row the last SEEK_NEXT_USING_HINT asked to seek to.
    pub(crate) hint: Option<Vec<u8>>,
}

impl FuzzyRowFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(rules: Vec<(Vec<u8>, Vec<u8>)>) -> FuzzyRowFilter {
        FuzzyRowFilter {
            rules,
            reversed: false,
            filter_row: false,
            done: false,
            last_found: None,
            candidates: None,
            hint: None,
        }
    }

    /// Whether the row matches rule `i` (`satisfies`: YES).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn satisfies(&self, i: usize, row: &[u8]) -> bool {
        let Some((key, mask)) = self.rules.get(i) else {
            return false;
        };
        row.iter()
            .zip(key)
            .zip(mask)
            .all(|((r, k), m)| *m != 0 || r == k)
    }

    /// `RowTracker.updateTracker`: brings every candidate past `row` (in the scan's direction)
    /// and returns the nearest, or `None` when no rule can match any further row.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_row(&mut self, row: &[u8]) -> Option<Vec<u8>> {
        let reversed = self.reversed;
        let ahead = |candidate: &[u8]| {
            if reversed {
                row > candidate
            } else {
                row < candidate
            }
        };
        let mut candidates = match self.candidates.take() {
            None => (0..self.rules.len()).map(|i| (Vec::new(), i)).collect(),
            Some(c) => c,
        };
        let mut kept = Vec::with_capacity(candidates.len());
        for (candidate, i) in candidates.drain(..) {
            if !candidate.is_empty() && ahead(&candidate) {
                kept.push((candidate, i));
            } else if let Some((key, mask)) = self.rules.get(i) {
                if let Some(next) = next_for_rule(reversed, row, key, mask) {
                    kept.push((next, i));
                }
            }
        }
        let nearest = kept
            .iter()
            .map(|(c, _)| c)
            .reduce(|a, b| if (b < a) != reversed { b } else { a })
            .cloned();
        self.candidates = Some(kept);
        nearest
    }
}

impl Filter for FuzzyRowFilter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn set_reversed(&mut self, reversed: bool) {
        self.reversed = reversed;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn reset(&mut self) {
        self.filter_row = false;
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_all_remaining(&self) -> bool {
        self.done
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        let n = self.rules.len();
        let start = self.last_found.unwrap_or(0);
        for i in (start..start + n).map(|i| i % n.max(1)) {
            if self.satisfies(i, &cell.row) {
                self.last_found = Some(i);
                return ReturnCode::Include;
            }
        }
        self.last_found = None;
        self.filter_row = true;
        // HBase moves its tracker when the store scanner asks for the hint; the read path
        // asks right after this answer, so the tracker moves here and the hint is kept.
        self.hint = self.next_row(&cell.row);
        self.done = self.hint.is_none();
        ReturnCode::SeekNextUsingHint
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn filter_row(&mut self) -> bool {
        self.filter_row
    }
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn next_cell_hint(&self, cell: &CellRef<'_>) -> Option<Cell> {
        self.hint
            .as_ref()
            .map(|row| Cell::first_on_row(row, &std::sync::Arc::from(cell.family)))
    }
}

/// The nearest row after `row` (before it, reversed) that rule (`key`, `mask`) could match,
/// or `None` (`FuzzyRowFilter.getNextForFuzzyRule`): fixed bytes from the key, free bytes
/// from the row; if that does not move past the row, the last free byte that can grow grows
/// by one and the free bytes after it start over from the smallest (largest, reversed) value;
/// trailing free bytes are trimmed. Reversed, the result is bumped past its last non-0xFF
/// byte as HBase does; Rowkey's reversed scans read on rather than seek backwards, so there it
/// only decides whether any row is left.
#[cfg_attr(rowkey_cold, optimize(size))]
fn next_for_rule(reversed: bool, row: &[u8], key: &[u8], mask: &[u8]) -> Option<Vec<u8>> {
    let len = row.len().max(key.len());
    let mut result = key.to_vec();
    result.resize(len, if reversed { 0xFF } else { 0 });
    let fixed = |i: usize| mask.get(i).is_some_and(|m| *m == 0);
    let (min, max) = if reversed { (0xFF, 0x00) } else { (0x00, 0xFF) };
    // `before(a, b)`: a comes before b in the scan's direction.
    let before = |a: u8, b: u8| if reversed { a > b } else { a < b };
    let mut to_inc: Option<usize> = None;
    let mut increased = false;
    for i in 0..len {
        let r = row.get(i).copied().unwrap_or(min);
        let Some(slot) = result.get_mut(i) else {
            break;
        };
        if !fixed(i) {
            *slot = r;
            if r != max {
                to_inc = Some(i);
            }
            continue;
        }
        let k = key.get(i).copied().unwrap_or(min);
        if before(r, k) {
            increased = true;
            // The free bytes after it take their first value in the scan's direction (HBase
            // zeroes a key's free bytes up front; reversed, they are the largest).
            for j in i + 1..len {
                if !fixed(j) {
                    if let Some(b) = result.get_mut(j) {
                        *b = if reversed { 0xFF } else { 0 };
                    }
                }
            }
            break;
        }
        if before(k, r) {
            break;
        }
    }
    if !increased {
        let at = to_inc?;
        if let Some(b) = result.get_mut(at) {
            *b = if reversed {
                b.wrapping_sub(1)
            } else {
                b.wrapping_add(1)
            };
        }
        for i in at + 1..len {
            if !fixed(i) {
                if let Some(b) = result.get_mut(i) {
                    *b = min;
                }
            }
        }
    }
    // `trimTrailingZeroes`: keep up to the last fixed byte of the mask, or the grown byte.
    let last_fixed = (0..mask.len().min(len)).rev().find(|&i| fixed(i));
    let keep = match (last_fixed, to_inc) {
        (Some(f), Some(t)) => f.max(t) + 1,
        (Some(f), None) => f + 1,
        (None, Some(t)) => t + 1,
        (None, None) => 0,
    };
    result.truncate(keep);
    if reversed {
        // `PrivateCellUtil.increaseLastNonMaxByte`.
        if let Some(b) = result.iter_mut().rev().find(|b| **b != 0xFF) {
            *b += 1;
        }
    }
    Some(result)
}

#[cfg(test)]
mod fuzzy_tests {
    use super::next_for_rule;

    /// A case of `TestFuzzyRowFilter.assertNext`: its masks are the preprocessed ones (-1
    /// fixed, 0 any), turned here into the constructor's (0 fixed, 1 any).
    fn next(reverse: bool, key: &[u8], mask: &[i8], row: &[u8]) -> Option<Vec<u8>> {
        let mask: Vec<u8> = mask.iter().map(|m| u8::from(*m != -1)).collect();
        next_for_rule(reverse, row, key, &mask)
    }

    /// `TestFuzzyRowFilter.testGetNextForFuzzyRuleForward`.
    #[test]
    fn next_for_rule_forward() {
        let cases: &[(&[u8], &[i8], &[u8], &[u8])] = &[
            (&[0, 1, 2], &[0, -1, -1], &[1, 2, 1, 0, 1], &[2, 1, 2]),
            (&[0, 1, 2], &[0, -1, -1], &[1, 1, 2, 0, 1], &[1, 1, 2, 0, 2]),
            (
                &[0, 1, 0, 2, 0],
                &[0, -1, 0, -1, 0],
                &[1, 0, 2, 0, 1],
                &[1, 1, 0, 2],
            ),
            (&[1, 0, 1], &[-1, 0, -1], &[1, 128, 2, 0, 1], &[1, 129, 1]),
            (&[0, 1, 0, 1], &[0, -1, 0, -1], &[5, 1, 0, 1], &[5, 1, 1, 1]),
            (
                &[0, 1, 0, 0],
                &[0, -1, 0, 0],
                &[5, 1, 255, 1],
                &[5, 1, 255, 2],
            ),
            (
                &[0, 1, 0, 1],
                &[0, -1, 0, -1],
                &[5, 1, 255, 1],
                &[6, 1, 0, 1],
            ),
            (
                &[0, 1, 0, 1],
                &[0, -1, 0, -1],
                &[5, 1, 255, 0],
                &[5, 1, 255, 1],
            ),
            (
                &[5, 1, 1, 0],
                &[-1, -1, 0, 0],
                &[5, 1, 255, 1],
                &[5, 1, 255, 2],
            ),
            (&[1, 1, 1, 1], &[-1, -1, 0, 0], &[1, 1, 2, 2], &[1, 1, 2, 3]),
            (&[1, 1, 1, 1], &[-1, -1, 0, 0], &[1, 1, 3, 2], &[1, 1, 3, 3]),
            (&[1, 1, 1, 1], &[0, 0, 0, 0], &[1, 1, 2, 3], &[1, 1, 2, 4]),
            (&[1, 1, 1, 1], &[0, 0, 0, 0], &[1, 1, 3, 2], &[1, 1, 3, 3]),
            (&[1, 1, 0, 0], &[-1, -1, 0, 0], &[0, 1, 3, 2], &[1, 1]),
        ];
        for (key, mask, row, want) in cases {
            assert_eq!(
                next(false, key, mask, row).as_deref(),
                Some(*want),
                "{row:?}"
            );
        }
        // "No next for this one".
        assert_eq!(
            next(false, &[1, 0, 1], &[-1, 0, -1], &[2, 3, 1, 1, 1]),
            None
        );
        assert_eq!(
            next(false, &[1, 1, 0, 3], &[-1, -1, 0, -1], &[1, 245, 1, 3, 0]),
            None
        );
        assert_eq!(
            next(false, &[1, 2, 0, 3], &[-1, -1, 0, -1], &[1, 3, 1, 3, 0]),
            None
        );
        assert_eq!(
            next(false, &[1, 2, 0, 3], &[-1, -1, 0, -1], &[2, 1, 1, 1, 0]),
            None
        );
    }

    /// `TestFuzzyRowFilter.testGetNextForFuzzyRuleReverse`.
    #[test]
    fn next_for_rule_reverse() {
        let cases: &[(&[u8], &[i8], &[u8], &[u8])] = &[
            (&[0, 1, 2], &[0, -1, -1], &[1, 2, 1, 0, 1], &[1, 1, 3]),
            (
                &[0, 1, 0, 2, 0],
                &[0, -1, 0, -1, 0],
                &[1, 2, 1, 3, 1],
                &[1, 1, 255, 3],
            ),
            (&[1, 0, 1], &[-1, 0, -1], &[1, 128, 2, 0, 1], &[1, 128, 2]),
            (
                &[0, 1, 0, 1],
                &[0, -1, 0, -1],
                &[5, 1, 0, 2, 1],
                &[5, 1, 0, 2],
            ),
            (
                &[0, 1, 0, 0],
                &[0, -1, 0, 0],
                &[5, 1, 255, 1],
                &[5, 1, 255, 1],
            ),
            (
                &[0, 1, 0, 1],
                &[0, -1, 0, -1],
                &[5, 1, 0, 1],
                &[4, 1, 255, 2],
            ),
            (
                &[0, 1, 0, 1],
                &[0, -1, 0, -1],
                &[5, 1, 255, 0],
                &[5, 1, 254, 2],
            ),
            (&[1, 1, 0, 0], &[-1, -1, 0, 0], &[2, 1, 3, 2], &[1, 2]),
            (&[1, 0, 1], &[-1, 0, -1], &[2, 3, 1, 1, 1], &[1, 255, 2]),
            (
                &[1, 1, 0, 3],
                &[-1, -1, 0, -1],
                &[1, 245, 1, 3, 0],
                &[1, 1, 255, 4],
            ),
            (
                &[1, 2, 0, 3],
                &[-1, -1, 0, -1],
                &[1, 3, 1, 3, 0],
                &[1, 2, 255, 4],
            ),
            (
                &[1, 2, 0, 3],
                &[-1, -1, 0, -1],
                &[2, 1, 1, 1, 0],
                &[1, 2, 255, 4],
            ),
            (&[1, 0, 1], &[-1, 0, -1], &[1, 128, 2], &[1, 128, 2]),
            (&[0, 1, 0, 1], &[0, -1, 0, -1], &[5, 1, 0, 2], &[5, 1, 0, 2]),
            (
                &[5, 1, 1, 0],
                &[-1, -1, 0, 0],
                &[5, 1, 255, 1],
                &[5, 1, 255, 1],
            ),
            (&[1, 1, 1, 1], &[-1, -1, 0, 0], &[1, 1, 2, 2], &[1, 1, 2, 2]),
            (&[1, 1, 1, 1], &[0, 0, 0, 0], &[1, 1, 2, 3], &[1, 1, 2, 3]),
        ];
        for (key, mask, row, want) in cases {
            assert_eq!(
                next(true, key, mask, row).as_deref(),
                Some(*want),
                "{row:?}"
            );
        }
        assert_eq!(
            next(true, &[1, 2, 0, 3], &[-1, -1, 0, -1], &[1, 1, 1, 3, 0]),
            None
        );
    }
}
