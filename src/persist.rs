//! Persistence: Rowkey's storage layout mirrors HBase. A write-ahead log holds the cells not yet
//! in sorted runs; runs are stored once each as immutable checksummed blobs that say where they
//! belong; a catalog, in generations, says which runs make up which store, with a snapshot of
//! the memstores beside it. After each command the engine's recorded changes become a
//! [`SavePlan`]: a log append, or a checkpoint that writes a new catalog generation and only
//! the runs not yet stored, keeping the generation before. The [`SaveQueue`] carries plans to
//! storage one at a time and says truthfully which commands are saved. Loading reverses it,
//! falls back past a damaged catalog, and reports every damaged record it had to skip.
//!
//! Everything here is pure and tested natively; `idb` (wasm32 only) carries plans to IndexedDB.

mod catalog;
mod chunk_binary;
mod chunk_text;
mod codec;
mod export;
mod grid_binary;
mod plan;
mod queue;
mod run_parts;
mod run_rows;

#[cfg(all(target_arch = "wasm32", feature = "bench"))]
pub mod bench;
#[cfg(target_arch = "wasm32")]
pub mod idb;

pub use catalog::{
    activity_from_json, activity_to_json, catalog_from_json, catalog_to_json, ops_from_json,
    ops_to_json, CatalogWriter,
};
pub use chunk_text::read_chunk;
pub use codec::{
    decode_catalog, decode_groups, decode_placed_run, decode_run, decode_stored_run,
    encode_catalog, encode_groups, encode_json_record, encode_placed_run, encode_placed_run_v2,
    encode_run, encode_stored_run, BlobKind, CodecError, RunPlace, StoredRun,
};
pub use export::{
    export_json, export_kept_runs, export_script, import_json, import_script, read_export,
    ExportFile, ImportError,
};
pub use plan::{
    load, open_activity, open_run, ActivityWrites, Checkpoint, KeptRun, Layout, Loaded,
    OpenedActivity, OpenedRun, OpsChunk, PlanError, RunReader, SavePlan, Saver, StoredRecords,
    WalKey,
};
pub use queue::{EntrySave, SaveQueue, Staged, StorageError, StorageErrorKind};
pub use run_parts::{encode_stored_run_records, is_parts_head, ArrivingRun, PART_RECORD_BYTES};
