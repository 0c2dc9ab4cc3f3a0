//! The memstore keeps its cells in the cell order (HBase's `DefaultMemStore` holds them in a
//! `CellSet` ordered by `CellComparator`), though it compares the rows' first eight bytes as
//! numbers before their bytes: rows alike in those eight bytes, rows shorter than eight bytes
//! and rows ending in zero bytes still come out in the order every other part of the engine
//! agrees on, and reads from a row on, forwards and backwards, start where that order says.
use std::sync::Arc;

use rowkey::engine::{Cell, CellKind, Decoded, Store};
use rowkey::kit::seeded::Gen;

/// A row of 1 to 11 bytes out of four (a zero byte among them): many rows share their first
/// eight bytes, and many are prefixes of others.
fn row(g: &mut Gen) -> Vec<u8> {
    const BYTES: [u8; 4] = [0, 1, b'a', 0xff];
    (0..1 + g.below(11))
        .map(|_| BYTES[g.below(4) as usize])
        .collect()
}

fn probe(row: &[u8], family: &Arc<[u8]>) -> Cell {
    Cell {
        row: row.to_vec(),
        family: family.clone(),
        qualifier: Vec::new(),
        timestamp: u64::MAX,
        kind: CellKind::DeleteFamily,
        seq: u64::MAX,
        ttl_ms: 0,
        value: Vec::new(),
    }
}

/// Everything that tells two cells apart, to compare them whole.
fn fields(c: &Cell) -> (Vec<u8>, Vec<u8>, Vec<u8>, u64, CellKind, u64, u64, Vec<u8>) {
    (
        c.row.clone(),
        c.family.to_vec(),
        c.qualifier.clone(),
        c.timestamp,
        c.kind,
        c.seq,
        c.ttl_ms,
        c.value.clone(),
    )
}

#[test]
fn the_memstore_keeps_the_cell_order_and_reads_start_where_it_says() {
    let mut store = Store::new("f");
    let family = store.family.clone();
    let mut g = Gen::new(24);
    let mut written: Vec<Cell> = Vec::new();
    for seq in 1..=3_000u64 {
        let cell = Cell {
            row: row(&mut g),
            family: family.clone(),
            qualifier: (0..g.below(3)).map(|i| b'q' + i as u8).collect(),
            timestamp: 1 + g.below(4),
            kind: CellKind::ALL[g.below(5) as usize],
            seq,
            ttl_ms: g.below(2) * 60_000,
            value: format!("v{seq}").into_bytes(),
        };
        store.insert(cell.as_ref());
        written.push(cell);
    }
    written.sort();
    let held: Vec<_> = store
        .memstore_cells()
        .map(|c| fields(&c.to_cell(&family)))
        .collect();
    let want: Vec<_> = written.iter().map(fields).collect();
    assert_eq!(held.len(), 3_000);
    assert_eq!(held, want, "the memstore's order is the cell order");
    assert_eq!(store.memstore.len(), 3_000);

    let arena = Decoded::default();
    let mut probes = 0;
    for _ in 0..400 {
        let row = row(&mut g);
        let at = probe(&row, &family);
        let first = written.iter().find(|c| **c >= at).map(fields);
        let read = store
            .cursor_from(&row, &arena)
            .next()
            .map(|c| fields(&c.to_cell(&family)));
        assert_eq!(read, first, "forwards from {row:?}");
        let last = written.iter().rev().find(|c| **c < at).map(fields);
        let back = store
            .cursor_back(Some(at.as_ref()), &arena)
            .next()
            .map(|c| fields(&c.to_cell(&family)));
        assert_eq!(back, last, "backwards from {row:?}");
        probes += usize::from(first.is_some()) + usize::from(last.is_some());
    }
    // Of the 800 reads, all but six found a cell: the comparisons above were not of nothing.
    assert_eq!(probes, 794);
}
