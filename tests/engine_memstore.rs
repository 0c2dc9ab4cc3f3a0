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
            .cursor_from(&row, None, &arena, Vec::new())
            .next()
            .map(|c| fields(&c.to_cell(&family)));
        assert_eq!(read, first, "forwards from {row:?}");
        let last = written.iter().rev().find(|c| **c < at).map(fields);
        let back = store
            .cursor_back(Some(at.as_ref()), None, &arena, Vec::new(), &Vec::new)
            .next()
            .map(|c| fields(&c.to_cell(&family)));
        assert_eq!(back, last, "backwards from {row:?}");
        probes += usize::from(first.is_some()) + usize::from(last.is_some());
    }
    // Of the 800 reads, all but six found a cell: the comparisons above were not of nothing.
    assert_eq!(probes, 794);
}

/// A cell of row `r`, column `q`, written with sequence number `seq`.
fn numbered(family: &Arc<[u8]>, r: u64, q: u64, seq: u64, value: Vec<u8>) -> Cell {
    Cell {
        row: format!("row-{r:06}").into_bytes(),
        family: family.clone(),
        qualifier: format!("q{q}").into_bytes(),
        timestamp: 100,
        kind: CellKind::Put,
        seq,
        ttl_ms: 0,
        value,
    }
}

/// 20,000 cells, the first half written in order and the rest at random places among them
/// (leaves split in the middle of the order), one of them 600 KB (more than a chunk of the
/// memstore's holds): read whole forwards, backwards, and from both ends at once, they are
/// the cell order; a cell written again with its sequence number changes nothing; a split
/// leaves the rows below its key in the memstore and moves the rest.
#[test]
fn a_memstore_of_many_leaves_reads_both_ways_and_splits_at_a_row() {
    let mut store = Store::new("f");
    let family = store.family.clone();
    let mut g = Gen::new(7);
    let mut written: Vec<Cell> = Vec::new();
    for seq in 0..20_000u64 {
        let r = if seq < 10_000 {
            seq / 4
        } else {
            g.below(5_000)
        };
        let value = if seq == 12_345 {
            vec![7u8; 600 * 1024]
        } else {
            format!("v{seq}").into_bytes()
        };
        let cell = numbered(&family, r, seq % 4, seq + 1, value);
        store.insert(cell.as_ref());
        written.push(cell);
    }
    store.insert(written[10_500].as_ref());
    store.insert(written[3].as_ref());
    assert_eq!(
        store.memstore.len(),
        20_000,
        "cells written again are not added"
    );
    written.sort();
    let want: Vec<_> = written.iter().map(fields).collect();
    let forwards: Vec<_> = store
        .memstore
        .iter()
        .map(|c| fields(&c.to_cell(&family)))
        .collect();
    assert_eq!(forwards, want);
    let mut backwards: Vec<_> = store
        .memstore
        .iter()
        .rev()
        .map(|c| fields(&c.to_cell(&family)))
        .collect();
    backwards.reverse();
    assert_eq!(backwards, want);
    let big = forwards.iter().position(|f| f.7.len() == 600 * 1024);
    assert_eq!(big.map(|i| &forwards[i].1), Some(&b"f".to_vec()));

    // From both ends at once, the two readers meet and every cell is read once.
    let mut both = store.memstore.iter();
    let (mut front, mut back) = (0, 0);
    loop {
        let f = both.next();
        let b = both.next_back();
        front += usize::from(f.is_some());
        back += usize::from(b.is_some());
        if f.is_none() || b.is_none() {
            break;
        }
    }
    assert_eq!((front, back), (10_000, 10_000));

    let at = b"row-002500";
    let upper = store.memstore.split_off(probe(at, &family).as_ref());
    let below: Vec<_> = want
        .iter()
        .filter(|f| f.0.as_slice() < at)
        .cloned()
        .collect();
    let above: Vec<_> = want
        .iter()
        .filter(|f| f.0.as_slice() >= at)
        .cloned()
        .collect();
    let lower: Vec<_> = store
        .memstore
        .iter()
        .map(|c| fields(&c.to_cell(&family)))
        .collect();
    let upper_read: Vec<_> = upper.iter().map(|c| fields(&c.to_cell(&family))).collect();
    assert_eq!((lower, upper_read), (below, above));
    assert_eq!((store.memstore.len(), upper.len()), (14_989, 5_011));
}

/// Runs of keys written in order, the runs themselves in no order (rows under a hashed prefix,
/// each prefix's rows written one after the other, as a bulk load of salted keys writes them):
/// each cell after the first of a run takes its place beside the cell written before it, and
/// the memstore still holds the cell order. A cell written again right after itself, or just
/// before the cell that follows it, is not added.
#[test]
fn runs_of_keys_written_in_order_among_others_keep_the_cell_order() {
    let mut store = Store::new("f");
    let family = store.family.clone();
    let mut g = Gen::new(11);
    let mut written: Vec<Cell> = Vec::new();
    let mut seq = 0;
    for _ in 0..200 {
        let prefix = g.below(1_000);
        for r in 0..1 + g.below(12) {
            for q in 0..1 + g.below(4) {
                seq += 1;
                let cell = Cell {
                    row: format!("{prefix:03}-{r:02}").into_bytes(),
                    family: family.clone(),
                    qualifier: format!("q{q}").into_bytes(),
                    timestamp: 100 - g.below(3),
                    kind: CellKind::Put,
                    seq,
                    ttl_ms: 0,
                    value: format!("v{seq}").into_bytes(),
                };
                store.insert(cell.as_ref());
                written.push(cell);
            }
        }
    }
    let n = written.len();
    // Again, right after itself: the cell written last.
    let last = written[n - 1].clone();
    store.insert(last.as_ref());
    written.sort();
    let at = written.iter().position(|c| *c == last);
    // Again, the cell after the last one written (when there is one), then the last one again.
    if let Some(next) = at.and_then(|i| written.get(i + 1)).cloned() {
        store.insert(next.as_ref());
        store.insert(last.as_ref());
    }
    assert_eq!(store.memstore.len(), n);
    let held: Vec<_> = store
        .memstore
        .iter()
        .map(|c| fields(&c.to_cell(&family)))
        .collect();
    let want: Vec<_> = written.iter().map(fields).collect();
    assert_eq!(held, want);
    assert_eq!(n, 3_026);
}
