//! The storage benchmarks' workload, one definition for `benches/engine.rs` and
//! `benches/restore.rs` (and the rows `tests/e2e/bench-storage.mjs` writes): rows of ten
//! columns, in groups of ten sharing a prefix whose hashed lead spreads the groups over regions.

#![allow(dead_code)]

use rowkey::engine::Mutation;

pub const COLUMNS: usize = 10;
pub const GROUP: u64 = 10;

/// Rows come in groups of ten sharing a prefix; a hashed lead spreads groups over regions.
pub fn prefix(group: u64) -> String {
    let h = group.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48;
    format!("{h:04x}-user-{group:010}-")
}

/// 23 bytes; with the family `f` and a two-byte qualifier the key is 26 bytes.
pub fn row(i: u64) -> String {
    format!("{}r{}", prefix(i / GROUP), i % GROUP)
}

pub fn qualifier(c: usize) -> String {
    format!("c{c}")
}

/// 16 bytes.
pub fn value(i: u64, c: usize) -> Vec<u8> {
    format!("value-{:010}", i * COLUMNS as u64 + c as u64).into_bytes()
}

/// Row `i`'s ten puts, at timestamp `1_000 + i`.
pub fn puts(i: u64) -> Vec<Mutation> {
    (0..COLUMNS)
        .map(|c| Mutation::Put {
            family: b"f".to_vec(),
            qualifier: qualifier(c).into_bytes(),
            timestamp: Some(1_000 + i),
            value: value(i, c),
            ttl_ms: None,
        })
        .collect()
}
