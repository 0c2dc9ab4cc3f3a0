//! What writing into a memstore allocates: its chunks and its leaves, not a piece of memory a
//! cell (HBase's `MemStoreLAB` copies cells into chunks for the same reason: a heap of a few
//! large pieces instead of one small one a cell, which a flush frees at once). (One test in
//! this file: the allocation counter is process-wide.)
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{measure, Counting};
use rowkey::engine::{Cell, CellKind, Store};

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn ten_thousand_cells_written_in_order_take_their_chunks_and_leaves_not_an_allocation_each() {
    let mut store = Store::new("f");
    let cells: Vec<Cell> = (0..10_000u64)
        .map(|i| Cell {
            row: format!("row-{:06}", i / 10).into_bytes(),
            family: store.family.clone(),
            qualifier: format!("c{}", i % 10).into_bytes(),
            timestamp: 100,
            kind: CellKind::Put,
            seq: i + 1,
            ttl_ms: 0,
            value: format!("value-{i:05}").into_bytes(),
        })
        .collect();
    let ((), written) = measure(|| {
        for c in &cells {
            store.insert(c.as_ref());
        }
    });
    assert_eq!(store.memstore.len(), 10_000);
    // Each cell takes 37 + 10 + 2 + 11 = 60 bytes of chunk, 600,000 in all: chunks of 0.5, 1,
    // 2, ... 256 KB (523,776 bytes), then one more of 256 KB: 11 chunks, and the list of
    // chunks grown 3 times (room for 4, 8, 16). 40 leaves of 256 entries (the last one 16): the
    // first grown 7 times as it filled (room for 4, 8, ... 256), the others made at their full
    // size, and the list of leaves grown 5 times (4, 8, ... 64). 65 allocations; one a cell
    // would be 10,000 and more.
    assert_eq!(written.count, 65);
}
