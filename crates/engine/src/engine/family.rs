//! Column-family descriptors: what a family keeps, and for how long.

use serde::{Deserialize, Serialize};

use super::block::{BloomType, Encoding, FileOptions};

/// Whether deleted cells stay readable by time-range reads until TTL or major compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeepDeletedCells {
    /// Deleted cells and markers go at the next major compaction.
    False,
    /// Deleted cells stay visible to time-range reads and raw scans; markers are kept.
    True,
    /// Like `True`, until the cells pass the family's TTL.
    Ttl,
}

impl KeepDeletedCells {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            KeepDeletedCells::False => "FALSE",
            KeepDeletedCells::True => "TRUE",
            KeepDeletedCells::Ttl => "TTL",
        }
    }

    /// True unless deleted cells are purged.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn keeps(self) -> bool {
        self != KeepDeletedCells::False
    }
}

/// A column family and its settings, with HBase's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyDescriptor {
    pub name: String,
    /// Most versions of a column kept and returned (default 1).
    pub max_versions: u32,
    /// Versions kept even past the TTL (default 0).
    pub min_versions: u32,
    /// Time to live in seconds; `None` is FOREVER.
    pub ttl_seconds: Option<u64>,
    pub keep_deleted_cells: KeepDeletedCells,
    /// Descriptive attributes: kept and shown by `describe`, no effect on the engine.
    pub bloomfilter: String,
    pub compression: String,
    pub blocksize: u64,
    pub in_memory: bool,
    pub blockcache: bool,
    pub data_block_encoding: String,
    pub replication_scope: u32,
}

impl FamilyDescriptor {
    /// A family with HBase 2.x defaults.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(name: &str) -> FamilyDescriptor {
        FamilyDescriptor {
            name: name.to_string(),
            max_versions: 1,
            min_versions: 0,
            ttl_seconds: None,
            keep_deleted_cells: KeepDeletedCells::False,
            bloomfilter: "ROW".into(),
            compression: "NONE".into(),
            blocksize: super::block::HBASE_BLOCKSIZE,
            in_memory: false,
            blockcache: true,
            data_block_encoding: "NONE".into(),
            replication_scope: 0,
        }
    }

    /// How the family's runs are written: its `BLOCKSIZE`, `DATA_BLOCK_ENCODING` and
    /// `BLOOMFILTER`. HBase's values Rowkey has no writer for are written as their nearest
    /// kin: `DIFF` as `FAST_DIFF`, `ROW_INDEX_V1` as `NONE`, `ROWPREFIX_FIXED_LENGTH` as `ROW`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn file_options(&self) -> FileOptions {
        let encoding = match self.data_block_encoding.as_str() {
            "DIFF" => Encoding::FastDiff,
            other => Encoding::parse(other).unwrap_or_default(),
        };
        let bloom = match self.bloomfilter.as_str() {
            "ROWPREFIX_FIXED_LENGTH" => BloomType::Row,
            other => BloomType::parse(other).unwrap_or_default(),
        };
        FileOptions {
            block_size: self.working_blocksize(),
            encoding,
            bloom,
        }
    }

    /// The size the family's data blocks are written at: its `BLOCKSIZE` as given, except
    /// HBase's default ([`HBASE_BLOCKSIZE`](super::block::HBASE_BLOCKSIZE), which `describe`
    /// shows), which the playground writes at its own scale
    /// ([`DEFAULT_BLOCKSIZE`](super::block::DEFAULT_BLOCKSIZE)) so that a run of a few
    /// thousand cells holds many blocks.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn working_blocksize(&self) -> u64 {
        if self.blocksize == super::block::HBASE_BLOCKSIZE {
            super::block::DEFAULT_BLOCKSIZE
        } else {
            self.blocksize.max(1)
        }
    }

    /// The oldest timestamp that has not expired at `now` (0 when the family has no TTL).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn oldest_unexpired(&self, now: u64) -> u64 {
        match self.ttl_seconds {
            Some(secs) => now.saturating_sub(secs.saturating_mul(1000)),
            None => 0,
        }
    }
}
