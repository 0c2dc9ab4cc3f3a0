//! Persistence: Rowkey's storage layout mirrors HBase. A write-ahead log holds the cells not yet
//! in sorted runs; runs are stored once each as immutable checksummed blobs; a catalog says
//! which runs make up which store, with a snapshot of the memstores beside it. After each
//! command the engine's recorded changes become a [`SavePlan`]: a log append, or a checkpoint
//! that writes new runs, the catalog and the memstores and empties the log, all in one
//! transaction. Loading reverses it and reports every damaged record it had to skip.
//!
//! Everything here is pure and tested natively; `idb` (wasm32 only) carries plans to IndexedDB.

mod codec;
mod export;
mod plan;

#[cfg(target_arch = "wasm32")]
pub mod bench;
#[cfg(target_arch = "wasm32")]
pub mod idb;

pub use codec::{
    decode_catalog, decode_groups, decode_run, encode_catalog, encode_groups, encode_run, BlobKind,
    CodecError,
};
pub use export::{export_json, export_script, import_json, import_script, ImportError};
pub use plan::{load, Loaded, SavePlan, Saver, StoredRecords};
