//! Rowkey's engine: the wide-column store with HBase 2.x semantics ([`engine`]), HBase's filters
//! and their language ([`filter`]), bytes as HBase prints them ([`bytes`]) and the small pieces
//! of knowledge they share with the rest of Rowkey ([`kit`]). Synchronous, free of I/O and of
//! the browser; the app (`rowkey`) re-exports these four modules under the same names.
//!
//! It is a crate of its own for one reason: the release build optimizes it for speed
//! (`opt-level = 3`) while the app around it, most of the download, is optimized for size. What
//! a load or a read does not run per cell, per block or per operation (table administration,
//! splits, the catalog, opening and saving runs, the filters, dates and text) is marked
//! `#[cfg_attr(rowkey_cold, optimize(size))]`: compiled for size where the compiler allows it (the
//! release build's nightly; `build.rs` sets `rowkey_cold`), so the speed stays where reads and
//! writes run and the download does not carry it elsewhere. An unmarked function is on those
//! paths, or `#[inline]` and compiled as its callers are: mark a new one for size unless a
//! profile of a load or a read (`node --cpu-prof` on `benches/wasm`) finds it there.
//!
//! ```
//! use rowkey_engine::engine::{Engine, FamilyDescriptor, Mutation, Scan, TableDescriptor};
//!
//! let mut engine = Engine::new(Box::new(|| 1_700_000_000_000));
//! let table = TableDescriptor::new("users", vec![FamilyDescriptor::new("f")]);
//! engine.create_table(table, Vec::new())?;
//! let put = Mutation::Put {
//!     family: b"f".to_vec(),
//!     qualifier: b"name".to_vec(),
//!     timestamp: None,
//!     value: b"Ada".to_vec(),
//!     ttl_ms: None,
//! };
//! engine.mutate("users", b"row1", &[put])?;
//! let out = engine.read("users", &mut Scan::get(b"row1"))?;
//! assert_eq!(out.rows.len(), 1);
//! assert_eq!(out.rows[0].cells.first().map(|c| c.value), Some(&b"Ada"[..]));
//! # Ok::<(), rowkey_engine::engine::Error>(())
//! ```

#![cfg_attr(rowkey_cold, feature(optimize_attribute))]

pub mod bytes;
pub mod engine;
pub mod filter;
pub mod kit;
