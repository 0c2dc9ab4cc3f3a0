//! A weighted sample: one operation of the workload played on one key, standing for many.

use crate::simulate::OpKind;

/// One weighted sample: an operation of the workload played on one key, standing for
/// `weight` operations of its kind in its step.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Simulated ms from the start.
    pub at_ms: u64,
    pub step: u32,
    /// The operation's index in the table's `operations` (`u16::MAX` for initial rows).
    pub op: u16,
    /// Its operation's kind; `None` for a row there before the start (no operation).
    pub kind: Option<OpKind>,
    /// Operations it stands for.
    pub weight: f64,
    /// Rows it read (all its operations together).
    pub rows_read: f64,
    /// Rows it returned.
    pub rows_returned: f64,
    /// Rows it made (puts of new rows).
    pub rows_made: f64,
    /// Bytes it wrote.
    pub bytes: f64,
    /// The key's first entity id.
    pub entity: Option<u64>,
    /// The end of the key's first entity field (0 when none).
    pub entity_end: u32,
    /// The end of the key's fields before its first per-row field.
    pub prefix_end: u32,
    /// The region it went to.
    pub region: u32,
    pub(super) key_at: u32,
    pub(super) key_len: u32,
}

impl Sample {
    /// A row there before the start, not an operation.
    pub fn is_initial(&self) -> bool {
        self.kind.is_none()
    }

    /// A get or a scan.
    pub fn is_read(&self) -> bool {
        self.kind.is_some_and(OpKind::is_read)
    }

    /// A scan.
    pub fn is_scan(&self) -> bool {
        self.kind.is_some_and(OpKind::is_scan)
    }

    /// Its key (for a scan, the scan's start row).
    pub fn key<'a>(&self, keys: &'a [u8]) -> &'a [u8] {
        keys.get(self.key_at as usize..(self.key_at + self.key_len) as usize)
            .unwrap_or(&[])
    }
}
