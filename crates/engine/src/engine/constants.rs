//! Figures the engine shares with the rest of Rowkey, each named once with the HBase class it
//! follows.

/// Bytes HBase's `KeyValue` adds to a cell's row, family, qualifier and value: key length (4)
/// and value length (4) (`KeyValue.KEYVALUE_INFRASTRUCTURE_SIZE`), then row length (2), family
/// length (1), timestamp (8) and type (1) (`KeyValue.KEY_INFRASTRUCTURE_SIZE`). A cell `r/f:q =
/// v` is 4 + 4 + 2 + 1 + 1 + 1 + 1 + 8 + 1 + 1 = 24 bytes. The engine counts every cell this
/// way ([`Cell::size`](super::Cell::size)), so sizes do not depend on a block encoding.
pub const KEYVALUE_FRAMING: u64 = 20;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::Cell;

    #[test]
    fn a_cell_counts_as_its_keyvalue() {
        let fam: Arc<[u8]> = Arc::from(&b"f"[..]);
        assert_eq!(Cell::put(b"r", &fam, b"q", 1, 1, b"v").size(), 24);
    }
}
