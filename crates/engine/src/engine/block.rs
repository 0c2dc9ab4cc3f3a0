//! Sorted runs as block files, laid out the way HBase lays out an HFile: a header saying what
//! the file holds (table, family, key range, format version and options), data blocks of about
//! `BLOCKSIZE` bytes holding cells in key order with their keys encoded
//! (`DATA_BLOCK_ENCODING`), a crc32 after every block, a block index (the first key of each
//! block and where the block sits), a bloom filter over the run's rows or row-columns
//! (`BLOOMFILTER`), and a trailer pointing at the index.
//!
//! The file's bytes are the run: they are what a flush or a compaction writes and what
//! IndexedDB stores. A reader opens them in place (checking the header, index and bloom), walks
//! cells with a cursor that yields slices of the block bytes, seeks through the index, and
//! checks a data block's checksum the first time the block is read: a flipped byte costs that
//! block, reported as damaged, and the rest of the file stays readable.
//!
//! ```text
//! "RKHF" version | header (varints) | crc32
//! block 0 | crc32 | block 1 | crc32 | ...
//! meta: index entries (offset, length, cells, first key) | bloom | crc32 (in the trailer)
//! trailer: meta offset (u64) | meta crc32 | "RKHT"
//! ```

mod bloom;
mod encoding;
mod file;
mod heads;
mod locator;
mod midpoint;
mod row_index;
mod rows;
mod writer;

pub use bloom::HashedRow;
pub(crate) use encoding::none_row_size;
pub use encoding::{BlockCursor, CellRef, CursorState, Decoded};
pub use file::{BlockDrain, BlockFile, FileCursor, Header, ReadCounts, FORMAT_VERSION};
pub(crate) use midpoint::index_key_at_or_before;
#[cfg(test)]
pub(crate) use midpoint::midpoint;
pub use rows::CountedRows;
pub use writer::FileWriter;

use serde::{Deserialize, Serialize};

/// HBase's default `BLOCKSIZE`, 64 KB: a new family's, as `describe` shows it.
pub const HBASE_BLOCKSIZE: u64 = 64 * 1024;

/// The block size a family with HBase's default `BLOCKSIZE` is written at
/// (`FamilyDescriptor::working_blocksize`): HBase's 64 KB scaled down as Rowkey scales its flush size
/// (16 KB for HBase's 128 MB), kept at 1 KB so that a flushed run holds a dozen or more blocks
/// and the index and blooms have something to show.
pub const DEFAULT_BLOCKSIZE: u64 = 1024;

/// How the keys in a data block are written (HBase's `DATA_BLOCK_ENCODING`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encoding {
    /// Every key written whole, as a KeyValue (HBase's default).
    #[default]
    None,
    /// Each key written as the length it shares with the previous key and the rest.
    Prefix,
    /// As `Prefix`, and the timestamp, type, value length and value written only when they
    /// differ from the previous cell's (HBase's `FastDiffDeltaEncoder`).
    FastDiff,
}

impl Encoding {
    /// The name HBase's shell uses.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::None => "NONE",
            Encoding::Prefix => "PREFIX",
            Encoding::FastDiff => "FAST_DIFF",
        }
    }

    /// The encoding for a `DATA_BLOCK_ENCODING` value Rowkey writes.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn parse(name: &str) -> Option<Encoding> {
        match name.to_ascii_uppercase().as_str() {
            "NONE" => Some(Encoding::None),
            "PREFIX" => Some(Encoding::Prefix),
            "FAST_DIFF" => Some(Encoding::FastDiff),
            _ => None,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn code(self) -> u8 {
        match self {
            Encoding::None => 0,
            Encoding::Prefix => 2,
            Encoding::FastDiff => 4,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from_code(code: u8) -> Option<Encoding> {
        match code {
            0 => Some(Encoding::None),
            2 => Some(Encoding::Prefix),
            4 => Some(Encoding::FastDiff),
            _ => None,
        }
    }
}

/// What a run's bloom filter holds (HBase's `BLOOMFILTER`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BloomType {
    /// No bloom filter: every get reads the run's index and a block.
    None,
    /// Row keys (HBase's default): a get of a row the run does not hold skips the run.
    #[default]
    Row,
    /// Row and qualifier pairs: a get naming columns the run does not hold skips the run; a get
    /// of a whole row cannot use it.
    RowCol,
}

impl BloomType {
    /// The name HBase's shell uses.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(self) -> &'static str {
        match self {
            BloomType::None => "NONE",
            BloomType::Row => "ROW",
            BloomType::RowCol => "ROWCOL",
        }
    }

    /// The type for a `BLOOMFILTER` value Rowkey writes.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn parse(name: &str) -> Option<BloomType> {
        match name.to_ascii_uppercase().as_str() {
            "NONE" => Some(BloomType::None),
            "ROW" => Some(BloomType::Row),
            "ROWCOL" => Some(BloomType::RowCol),
            _ => None,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn code(self) -> u8 {
        match self {
            BloomType::None => 0,
            BloomType::Row => 1,
            BloomType::RowCol => 2,
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    fn from_code(code: u8) -> Option<BloomType> {
        match code {
            0 => Some(BloomType::None),
            1 => Some(BloomType::Row),
            2 => Some(BloomType::RowCol),
            _ => None,
        }
    }
}

/// How a block file is written: the family's `BLOCKSIZE`, `DATA_BLOCK_ENCODING` and
/// `BLOOMFILTER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileOptions {
    pub block_size: u64,
    pub encoding: Encoding,
    pub bloom: BloomType,
}

impl Default for FileOptions {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn default() -> Self {
        FileOptions {
            block_size: DEFAULT_BLOCKSIZE,
            encoding: Encoding::None,
            bloom: BloomType::Row,
        }
    }
}

/// Why a block file, or one of its blocks, cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The bytes are not a Rowkey block file.
    #[error("not a block file (bad magic bytes)")]
    BadMagic,
    /// Written by a newer Rowkey.
    #[error("block file format version {0} is newer than this Rowkey understands")]
    UnsupportedVersion(u8),
    /// The header, index or bloom changed since they were written: the file cannot be read.
    #[error("the block file's {section} is damaged (checksum mismatch)")]
    DamagedMeta { section: &'static str },
    /// One data block changed since it was written; the other blocks are still readable.
    #[error("data block {block} at byte {offset} is damaged (checksum mismatch)")]
    DamagedBlock { block: usize, offset: usize },
    /// The bytes end early or a length points outside them.
    #[error("block file truncated at byte {0}")]
    Truncated(usize),
    /// A field holds a value no writer produces.
    #[error("invalid block file: {0}")]
    Invalid(String),
}
