//! Reading a block file in place (its writer is in `writer.rs`).

use std::sync::OnceLock;

use super::bloom::Bloom;
use super::bloom::HashedRow;
use super::encoding::{get_len, get_varint, none_row, split_key, take, BlockCursor, CellRef};
use super::heads::Heads;
use super::locator::RowLocator;
use super::row_index::RowStarts;
use super::writer::{row_col_key, write_header, FileWriter};
use super::{BloomType, Encoding, FileOptions, FormatError};
use crate::engine::cell::Cell;

pub(super) const MAGIC: &[u8; 4] = b"RKHF";
pub(super) const TRAILER_MAGIC: &[u8; 4] = b"RKHT";
/// Bytes of the trailer: meta offset (u64), meta crc32, magic.
pub(super) const TRAILER: usize = 16;

/// The block file layout this Rowkey writes.
pub const FORMAT_VERSION: u8 = 1;

/// What a block file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u8,
    /// The run's id: assigned once, kept for the run's life.
    pub id: u64,
    pub options: FileOptions,
    pub table: String,
    pub family: Vec<u8>,
    /// The key range of the region the run was written for: `start` inclusive, `end`
    /// exclusive (empty: unbounded). A run a split kept whole still names its parent's range.
    pub region_start: Vec<u8>,
    pub region_end: Vec<u8>,
    /// The first and last row the file holds (empty for an empty file).
    pub first_row: Vec<u8>,
    pub last_row: Vec<u8>,
    pub cells: u64,
    /// The cells' bytes as [`Cell::size`] counts them (what region sizes count).
    pub cell_bytes: u64,
}

/// What reading cost, in HBase's words: blocks read, blocks the index let a seek jump over,
/// runs a bloom filter or the key range ruled out, and the bytes of the blocks read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    pub blocks_read: u64,
    pub blocks_skipped: u64,
    pub runs_skipped_bloom: u64,
    pub runs_skipped_range: u64,
    pub bytes_read: u64,
}

impl ReadCounts {
    pub fn add(&mut self, other: &ReadCounts) {
        self.blocks_read += other.blocks_read;
        self.blocks_skipped += other.blocks_skipped;
        self.runs_skipped_bloom += other.runs_skipped_bloom;
        self.runs_skipped_range += other.runs_skipped_range;
        self.bytes_read += other.bytes_read;
    }
}

/// Where one data block sits, and its first key.
#[derive(Clone, Copy, Debug)]
struct BlockEntry {
    /// The part of the file holding the block, and where in that part the block starts.
    part: u32,
    offset: u32,
    len: u32,
    cells: u32,
    key_at: u32,
    key_len: u32,
    seq: u64,
}

/// A block file opened in place: its header, block index and bloom parsed, its data blocks
/// checked the first time each is read.
#[derive(Debug)]
pub struct BlockFile {
    /// The file's bytes in parts, which one after another are the file: one part for a file
    /// read back from storage; a header, parts of whole blocks and the index for one just
    /// written (see [`super::writer::PART_BYTES`]).
    parts: Vec<Box<[u8]>>,
    header: Header,
    blocks: Vec<BlockEntry>,
    /// Per block: the first eight bytes of its first row as a number, for seeks.
    heads: Heads,
    /// Range of the bloom bits in the last part, and the number of hashes.
    bloom: Option<(u32, u32, u32)>,
    /// Per block: whether its checksum matched, once checked.
    checked: Vec<OnceLock<bool>>,
    /// Per block, once a get has sought in it: where its rows start (`None` for a block too
    /// long to index). The list is made at the file's first get.
    row_starts: OnceLock<Box<[OnceLock<Option<RowStarts>>]>>,
    /// Where each row starts, for a `NONE` file just written (see [`RowLocator`]).
    locator: Option<RowLocator>,
    /// Where the data blocks start in the first part (just past the header).
    data_at: usize,
    /// The file was written in memory and its blocks' checksums are not taken yet: they are
    /// taken into its bytes when they leave memory ([`BlockFile::to_bytes`]).
    checksums_pending: bool,
}

impl BlockFile {
    /// Writes `cells` (in cell order) as a block file and opens it.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn build<'c>(
        id: u64,
        table: &str,
        family: &[u8],
        options: FileOptions,
        cells: impl IntoIterator<Item = &'c Cell>,
    ) -> BlockFile {
        let mut w = FileWriter::new(id, table, family, options);
        for c in cells {
            w.add(c.as_ref());
        }
        w.into_file()
    }

    /// A file of no cells: what stands in for a written file that does not open.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn empty(id: u64, table: &str, family: &[u8], options: FileOptions) -> BlockFile {
        // No blocks: no checksum to take.
        let bytes = FileWriter::new(id, table, family, options)
            .finish_parts()
            .concat()
            .into_boxed_slice();
        BlockFile {
            parts: vec![bytes],
            header: FileWriter::new(id, table, family, options).into_header(),
            blocks: Vec::new(),
            heads: Heads::default(),
            bloom: None,
            checked: Vec::new(),
            row_starts: OnceLock::new(),
            locator: None,
            data_at: 0,
            checksums_pending: false,
        }
    }

    /// Opens a file's bytes: checks the trailer, the header's and the meta section's
    /// checksums, and reads the index and bloom. Data blocks are checked when first read.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn open(bytes: Box<[u8]>) -> Result<BlockFile, FormatError> {
        BlockFile::open_parts(vec![bytes])
    }

    /// Opens a file held in parts which one after another are its bytes, as
    /// [`BlockFile::open`] does: the header must lie in the first part, the index, bloom and
    /// trailer in the last, and each data block with its checksum in one part.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn open_parts(parts: Vec<Box<[u8]>>) -> Result<BlockFile, FormatError> {
        let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        BlockFile::open_sized(parts, &lens)
    }

    /// Opens a file whose parts of data blocks are still to come (read from storage one by
    /// one): `first` is its first part (the header), `last` its last (index, bloom, trailer),
    /// and `lens` the lengths of the parts between, in order. Until a part comes
    /// ([`BlockFile::arrive`]) its blocks read as damaged.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn open_arriving(
        first: Box<[u8]>,
        lens: &[usize],
        last: Box<[u8]>,
    ) -> Result<BlockFile, FormatError> {
        let mut all = Vec::with_capacity(lens.len() + 2);
        all.push(first.len());
        all.extend_from_slice(lens);
        all.push(last.len());
        let mut parts: Vec<Box<[u8]>> = Vec::with_capacity(all.len());
        parts.push(first);
        parts.extend(lens.iter().map(|_| Box::<[u8]>::default()));
        parts.push(last);
        BlockFile::open_sized(parts, &all)
    }

    /// Part `p` (counted from the first part, the header's) of a file opened by
    /// [`BlockFile::open_arriving`] has come: it takes its place and its blocks' checksums are
    /// checked now, while the parts after it are still being read; the blocks found damaged.
    /// A part that was not awaited, or of another length than the index gives it, is refused.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn arrive(&mut self, p: usize, bytes: Box<[u8]>) -> Result<Vec<FormatError>, FormatError> {
        let awaited = p > 0 && p + 1 < self.parts.len();
        // The part's blocks, one stretch of the index (blocks lie in their parts' order).
        let first = self.blocks.partition_point(|e| (e.part as usize) < p);
        let count = self
            .blocks
            .get(first..)
            .map_or(0, |b| b.iter().take_while(|e| e.part as usize == p).count());
        let want: usize = self
            .blocks
            .get(first..first + count)
            .map_or(0, |b| b.iter().map(|e| e.len as usize + 4).sum());
        let slot = self.parts.get_mut(p).filter(|s| awaited && s.is_empty());
        match slot {
            Some(slot) if bytes.len() == want => *slot = bytes,
            _ => {
                return Err(FormatError::Invalid(format!(
                    "part {p} of {} bytes was not awaited",
                    bytes.len()
                )))
            }
        }
        Ok((first..first + count)
            .filter_map(|i| self.block(i).err())
            .collect())
    }

    /// [`BlockFile::open_parts`] of parts whose lengths are `lens` (a part still to come is
    /// empty in `parts`). Not inlined: its two callers would each carry a copy.
    #[inline(never)]
    fn open_sized(parts: Vec<Box<[u8]>>, lens: &[usize]) -> Result<BlockFile, FormatError> {
        let total: usize = lens.iter().sum();
        let b: &[u8] = parts.first().map(|p| &p[..]).unwrap_or_default();
        let tail: &[u8] = parts.last().map(|p| &p[..]).unwrap_or_default();
        let tail_at = total.saturating_sub(tail.len());
        if b.get(..4) != Some(&MAGIC[..]) {
            return Err(FormatError::BadMagic);
        }
        let version = *b.get(4).ok_or(FormatError::Truncated(4))?;
        if version > FORMAT_VERSION {
            return Err(FormatError::UnsupportedVersion(version));
        }
        if total < TRAILER + 5 {
            return Err(FormatError::Truncated(total));
        }
        let trailer = tail
            .len()
            .checked_sub(TRAILER)
            .and_then(|t| tail.get(t..))
            .ok_or(FormatError::DamagedMeta { section: "trailer" })?;
        if trailer.get(12..16) != Some(&TRAILER_MAGIC[..]) {
            return Err(FormatError::DamagedMeta { section: "trailer" });
        }
        let mut word = [0u8; 8];
        word.copy_from_slice(trailer.get(..8).unwrap_or(&[0; 8]));
        let meta_len = usize::try_from(u64::from_le_bytes(word))
            .map_err(|_| FormatError::DamagedMeta { section: "trailer" })?;
        let meta_end = tail.len() - TRAILER;
        // Where the index starts in the last part, and in the file.
        let meta_at = meta_end
            .checked_sub(meta_len)
            .ok_or(FormatError::DamagedMeta { section: "trailer" })?;
        let meta_in_file = tail_at + meta_at;
        let meta = tail
            .get(meta_at..meta_end)
            .ok_or(FormatError::DamagedMeta { section: "trailer" })?;
        let stored = u32::from_le_bytes([trailer[8], trailer[9], trailer[10], trailer[11]]);
        if crate::kit::crc32::hash(meta) != stored {
            return Err(FormatError::DamagedMeta {
                section: "block index",
            });
        }
        // The header.
        let mut at = 5;
        let id = get_varint(b, &mut at)?;
        let encoding_code = *b.get(at).ok_or(FormatError::Truncated(at))?;
        let bloom_code = *b.get(at + 1).ok_or(FormatError::Truncated(at))?;
        at += 2;
        let block_size = get_varint(b, &mut at)?;
        let mut fields: Vec<Vec<u8>> = Vec::with_capacity(6);
        for _ in 0..6 {
            let len = get_len(b, &mut at)?;
            fields.push(take(b, &mut at, len)?.to_vec());
        }
        let cells = get_varint(b, &mut at)?;
        let cell_bytes = get_varint(b, &mut at)?;
        let header_crc = take(b, &mut at, 4)?;
        let computed = crate::kit::crc32::hash(b.get(..at - 4).unwrap_or_default());
        if u32::from_le_bytes([header_crc[0], header_crc[1], header_crc[2], header_crc[3]])
            != computed
        {
            return Err(FormatError::DamagedMeta { section: "header" });
        }
        let encoding = Encoding::from_code(encoding_code).ok_or_else(|| {
            FormatError::Invalid(format!("unknown block encoding {encoding_code}"))
        })?;
        let bloom_type = BloomType::from_code(bloom_code)
            .ok_or_else(|| FormatError::Invalid(format!("unknown bloom type {bloom_code}")))?;
        let mut fields = fields.into_iter();
        let mut next = || fields.next().unwrap_or_default();
        let table = String::from_utf8(next())
            .map_err(|_| FormatError::Invalid("table name is not UTF-8".into()))?;
        let header = Header {
            version,
            id,
            options: FileOptions {
                block_size,
                encoding,
                bloom: bloom_type,
            },
            table,
            family: next(),
            region_start: next(),
            region_end: next(),
            first_row: next(),
            last_row: next(),
            cells,
            cell_bytes,
        };
        let data_at = at;
        // The index: each block found in the part that holds it, parts walked in order.
        let small = |v: usize| {
            u32::try_from(v).map_err(|_| FormatError::Invalid("offset past 4 GB".into()))
        };
        let b = tail;
        let mut at = meta_at;
        let count = get_len(b, &mut at)?;
        let mut blocks = Vec::with_capacity(count.min(meta.len()));
        let mut heads = Vec::with_capacity(count.min(meta.len()));
        let mut expected_at = data_at;
        let (mut part, mut part_at) = (0usize, 0usize);
        for i in 0..count {
            let offset = data_at
                .checked_add(get_len(b, &mut at)?)
                .ok_or(FormatError::Truncated(at))?;
            let len = get_len(b, &mut at)?;
            let cells = get_len(b, &mut at)?;
            let key_len = get_len(b, &mut at)?;
            let key_at = at;
            let key = take(b, &mut at, key_len)?;
            heads.push(crate::bytes::head(split_key(key)?.0));
            let seq = get_varint(b, &mut at)?;
            let end = offset.checked_add(len).and_then(|e| e.checked_add(4));
            let misplaced =
                || FormatError::Invalid(format!("block {i} is not where the index says"));
            if offset != expected_at || end.is_none_or(|e| e > meta_in_file) {
                return Err(misplaced());
            }
            let end = end.unwrap_or(meta_in_file);
            expected_at = end;
            while lens.get(part).is_some_and(|len| offset >= part_at + len) {
                part_at += lens.get(part).copied().unwrap_or(0);
                part += 1;
            }
            if lens.get(part).is_none_or(|len| end > part_at + len) {
                return Err(misplaced());
            }
            blocks.push(BlockEntry {
                part: small(part)?,
                offset: small(offset - part_at)?,
                len: small(len)?,
                cells: small(cells)?,
                key_at: small(key_at)?,
                key_len: small(key_len)?,
                seq,
            });
        }
        let stored_bloom = *b.get(at).ok_or(FormatError::Truncated(at))?;
        at += 1;
        let bloom = if stored_bloom == BloomType::None.code() {
            None
        } else {
            let hashes = u32::try_from(get_varint(b, &mut at)?)
                .map_err(|_| FormatError::Invalid("bloom hash count".into()))?;
            let len = get_len(b, &mut at)?;
            let bits_at = at;
            take(b, &mut at, len)?;
            Some((small(bits_at)?, small(len)?, hashes))
        };
        let checked = (0..blocks.len()).map(|_| OnceLock::new()).collect();
        Ok(BlockFile {
            parts,
            header,
            blocks,
            heads: Heads::new(heads),
            bloom,
            checked,
            row_starts: OnceLock::new(),
            locator: None,
            data_at,
            checksums_pending: false,
        })
    }

    /// Opens the parts a [`FileWriter`] has just written (or a copy of them), as
    /// [`BlockFile::open_parts`] does, its data blocks taken as checked and their checksums
    /// left to be taken: the bytes held here have never left memory, so no read checks them
    /// (a compaction's, most often), and only a file whose bytes are stored pays for its
    /// checksums ([`BlockFile::to_bytes`]), not the many runs compacted away before a save. A
    /// file read back from storage is opened by `open`. `row_starts`, when the writer took
    /// one per block, are the blocks' row indexes: a get into the file finds them made
    /// (otherwise each is built at the first get into its block).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn open_written(
        parts: Vec<Box<[u8]>>,
        row_starts: Vec<Option<RowStarts>>,
        locator: Option<RowLocator>,
    ) -> Result<BlockFile, FormatError> {
        let mut file = BlockFile::open_parts(parts)?;
        for checked in &file.checked {
            // A fresh list: nothing has been set yet.
            let _ = checked.set(true);
        }
        file.checksums_pending = true;
        if row_starts.len() == file.blocks.len() && file.header.options.encoding == Encoding::None {
            file.row_starts = OnceLock::from(
                row_starts
                    .into_iter()
                    .map(OnceLock::from)
                    .collect::<Box<[_]>>(),
            );
            file.locator = locator;
        }
        Ok(file)
    }

    /// The same file under another header: the run moved to another table, family or region
    /// range (blocks, index and bloom are copied as they are).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn with_place(
        &self,
        table: &str,
        family: &[u8],
        start: &[u8],
        end: &[u8],
    ) -> Result<BlockFile, FormatError> {
        let header = Header {
            table: table.to_string(),
            family: family.to_vec(),
            region_start: start.to_vec(),
            region_end: end.to_vec(),
            ..self.header.clone()
        };
        // The new header and the first part's blocks, then the other parts as they are: the
        // index counts offsets from the first block, so it holds as it is.
        let first = self.parts.first().map(|p| &p[..]).unwrap_or_default();
        let mut out = Vec::with_capacity(first.len() + 64);
        write_header(&mut out, &header);
        out.extend_from_slice(first.get(self.data_at..).unwrap_or_default());
        let mut parts = Vec::with_capacity(self.parts.len());
        parts.push(out.into_boxed_slice());
        parts.extend(self.parts.iter().skip(1).cloned());
        if self.checksums_pending {
            BlockFile::open_written(parts, Vec::new(), None)
        } else {
            BlockFile::open_parts(parts)
        }
    }

    /// The file's bytes, as stored: its parts one after another, each data block followed by
    /// its checksum (taken here for a file written in memory, whose blocks hold none yet).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.parts.concat();
        if self.checksums_pending {
            let mut part_at = Vec::with_capacity(self.parts.len());
            let mut at = 0;
            for p in &self.parts {
                part_at.push(at);
                at += p.len();
            }
            for e in &self.blocks {
                let start = part_at.get(e.part as usize).copied().unwrap_or(0) + e.offset as usize;
                let end = start + e.len as usize;
                let crc = crate::kit::crc32::hash(out.get(start..end).unwrap_or_default());
                if let Some(slot) = out.get_mut(end..end + 4) {
                    slot.copy_from_slice(&crc.to_le_bytes());
                }
            }
        }
        out
    }

    /// The file's size in bytes.
    pub fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    /// Where the data blocks lie in the file's bytes: past the header, before the index.
    pub fn data_bytes(&self) -> std::ops::Range<usize> {
        let blocks: usize = self.blocks.iter().map(|e| e.len as usize + 4).sum();
        self.data_at..self.data_at + blocks
    }

    /// Whether the file has no bytes (never true of a file that opened).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The part holding the index and the bloom.
    fn meta(&self) -> &[u8] {
        self.parts.last().map(|p| &p[..]).unwrap_or_default()
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// Cells in block `i`.
    pub fn block_cells(&self, i: usize) -> usize {
        self.blocks.get(i).map_or(0, |e| e.cells as usize)
    }

    /// The payload bytes of block `i`.
    pub fn block_len(&self, i: usize) -> usize {
        self.blocks.get(i).map_or(0, |e| e.len as usize)
    }

    /// The first key of block `i`, as the index holds it.
    pub fn first_key(&self, i: usize) -> Option<CellRef<'_>> {
        let e = self.blocks.get(i)?;
        let key = self
            .meta()
            .get(e.key_at as usize..(e.key_at + e.key_len) as usize)?;
        let (row, family, qualifier, timestamp, kind) = split_key(key).ok()?;
        Some(CellRef {
            row,
            family,
            qualifier,
            timestamp,
            kind,
            seq: e.seq,
            ttl_ms: 0,
            value: &[],
        })
    }

    /// The first row of the middle block: where HBase splits a region whose largest file this
    /// is (`HFileReaderImpl.midKey`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn mid_row(&self) -> Option<&[u8]> {
        self.first_key(self.blocks.len() / 2).map(|k| k.row)
    }

    /// Block `i`'s payload, its checksum checked the first time it is read.
    pub fn block(&self, i: usize) -> Result<&[u8], FormatError> {
        let e = self
            .blocks
            .get(i)
            .ok_or_else(|| FormatError::Truncated(self.len()))?;
        let part = self.parts.get(e.part as usize).map(|p| &p[..]);
        let payload = if self.checksums_pending {
            // Bytes that never left memory: every block is taken as checked (see
            // `open_written`), without reading its mark, a cache miss a block in a large file.
            part.and_then(|part| part.get(e.offset as usize..e.offset as usize + e.len as usize))
        } else {
            part.zip(self.checked.get(i))
                .and_then(|(part, checked)| checked_payload(part, e, checked))
        };
        payload.ok_or_else(|| FormatError::DamagedBlock {
            block: i,
            offset: self.file_offset(e),
        })
    }

    /// Where block `e` starts in the file's bytes.
    fn file_offset(&self, e: &BlockEntry) -> usize {
        let before: usize = self
            .parts
            .iter()
            .take(e.part as usize)
            .map(|p| p.len())
            .sum();
        before + e.offset as usize
    }

    /// The file taken apart to be read once, front to back, each part freed once read.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn into_drain(self) -> BlockDrain {
        let mut parts: Vec<Option<Box<[u8]>>> = self.parts.into_iter().map(Some).collect();
        // The index and bloom, once the blocks are listed, are not read again: a part past
        // the last block's goes now.
        let last = self.blocks.last().map_or(0, |e| e.part as usize);
        for p in parts.iter_mut().skip(last + 1) {
            *p = None;
        }
        BlockDrain {
            parts,
            blocks: self.blocks,
            checked: self.checked,
            encoding: self.header.options.encoding,
            freed: 0,
        }
    }

    /// A cursor over block `i`'s cells (its checksum checked first).
    pub fn block_cursor(&self, i: usize) -> Result<BlockCursor<'_>, FormatError> {
        Ok(BlockCursor::new(
            self.block(i)?,
            self.header.options.encoding,
        ))
    }

    /// Where a forward read of block `i` (whose payload is `block`) looking for the first cell
    /// of `row` or after may start, by the block's row index (built the first time it is asked
    /// for; see [`RowStarts`]); `None` for a block whose keys are delta-encoded or which is too
    /// long to index (the read steps from where it is).
    pub(crate) fn row_start(&self, i: usize, block: &[u8], row: &[u8]) -> Option<usize> {
        self.row_index(i, block).map(|s| s.seek(block, row))
    }

    /// The last row of block `i` (whose payload is `block`) before `row`, by the block's row
    /// index (see [`BlockFile::row_start`]); `None` where the index cannot say.
    pub(crate) fn last_row_before<'b>(
        &self,
        i: usize,
        block: &'b [u8],
        row: &[u8],
    ) -> Option<&'b [u8]> {
        self.row_index(i, block)?.last_row_before(block, row)
    }

    /// Where `row`'s first cell is (its block and its offset in the block), by the file's row
    /// locator; `None` when the file has none (see [`RowLocator`]) or does not hold the row.
    #[inline]
    pub(crate) fn locate_row(&self, row: HashedRow<'_>) -> Option<(usize, usize)> {
        let (hash, row) = (row.hashes.0, row.row);
        self.locator
            .as_ref()?
            .places(hash)
            .find(|&(b, at)| self.block(b).ok().and_then(|block| none_row(block, at)) == Some(row))
    }

    /// Block `i`'s row index, built the first time it is asked for; `None` for a block whose
    /// keys are delta-encoded or which is too long to index.
    fn row_index(&self, i: usize, block: &[u8]) -> Option<&RowStarts> {
        if self.header.options.encoding != Encoding::None {
            return None;
        }
        let all = self
            .row_starts
            .get_or_init(|| (0..self.blocks.len()).map(|_| OnceLock::new()).collect());
        all.get(i)?.get_or_init(|| RowStarts::build(block)).as_ref()
    }

    /// Checks every block's checksum; the blocks found damaged.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn verify(&self) -> Vec<FormatError> {
        (0..self.blocks.len())
            .filter_map(|i| self.block(i).err())
            .collect()
    }

    /// The block holding the first cell at or after `target`'s position, by the index: the
    /// last block whose first key is at or before it.
    pub fn seek_block(&self, target: &Cell) -> usize {
        self.seek_key(target.as_ref())
    }

    /// [`BlockFile::seek_block`] for a key read in place.
    pub(crate) fn seek_key(&self, target: CellRef<'_>) -> usize {
        use std::cmp::Ordering;
        // Blocks before `lo` start with a lower row than the target's, blocks from `hi` with a
        // higher; between them the rows are compared, and the whole keys when the rows are
        // equal.
        let (lo, hi) = self.heads.span(crate::bytes::head(target.row));
        let after = lo
            + crate::kit::partition(hi - lo, |k| {
                let i = lo + k;
                match self.first_row(i).map(|row| row.cmp(target.row)) {
                    Some(Ordering::Less) => true,
                    Some(Ordering::Greater) | None => false,
                    Some(Ordering::Equal) => self
                        .first_key(i)
                        .is_some_and(|k| k.cmp_key(&target) != Ordering::Greater),
                }
            });
        after.saturating_sub(1)
    }

    /// The row of block `i`'s first key, read from the index (the key is checked whole when
    /// the file is opened).
    #[inline]
    fn first_row(&self, i: usize) -> Option<&[u8]> {
        let e = self.blocks.get(i)?;
        let key = self
            .meta()
            .get(e.key_at as usize..(e.key_at + e.key_len) as usize)?;
        let mut at = 0;
        let len = usize::try_from(crate::kit::varint::get(key, &mut at).ok()?).ok()?;
        key.get(at..at.checked_add(len)?)
    }

    /// Whether the file may hold `row`: false when the row is outside its key range or its
    /// `ROW` bloom says no (counted in `counts` as a run skipped).
    pub fn may_hold_row(&self, row: HashedRow<'_>, counts: &mut ReadCounts) -> bool {
        let (hashes, row) = (row.hashes, row.row);
        if self.header.cells == 0
            || row < self.header.first_row.as_slice()
            || row > self.header.last_row.as_slice()
        {
            counts.runs_skipped_range += 1;
            return false;
        }
        if self.header.options.bloom == BloomType::Row {
            if let Some(bloom) = self.bloom_filter() {
                if !bloom.might_contain_hashed(hashes) {
                    counts.runs_skipped_bloom += 1;
                    return false;
                }
            }
        }
        true
    }

    /// Whether the file may hold any of `qualifiers` in `row`, by a `ROWCOL` bloom (true
    /// without one).
    pub fn may_hold_columns(
        &self,
        row: &[u8],
        qualifiers: &[Vec<u8>],
        counts: &mut ReadCounts,
    ) -> bool {
        if self.header.options.bloom != BloomType::RowCol || qualifiers.is_empty() {
            return true;
        }
        let Some(bloom) = self.bloom_filter() else {
            return true;
        };
        // Family-level delete markers (empty qualifier) mask every column: a run holding one
        // for the row must be read too.
        let mut key = Vec::new();
        let any = qualifiers
            .iter()
            .map(Vec::as_slice)
            .chain([&b""[..]])
            .any(|q| {
                key.clear();
                row_col_key(&mut key, row, q);
                bloom.might_contain(&key)
            });
        if !any {
            counts.runs_skipped_bloom += 1;
        }
        any
    }

    fn bloom_filter(&self) -> Option<Bloom<'_>> {
        let (at, len, hashes) = self.bloom?;
        Some(Bloom::new(
            self.meta().get(at as usize..(at + len) as usize)?,
            hashes,
        ))
    }

    /// A cursor before the first cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn cursor(&self) -> FileCursor<'_> {
        FileCursor {
            file: self,
            block: 0,
            cursor: None,
            started: false,
            counts: ReadCounts::default(),
            damaged: Vec::new(),
        }
    }

    /// The cells of `row`, copied out: the key range and bloom are asked first, then the index
    /// finds the one block to start in.
    pub fn get(&self, row: &[u8], counts: &mut ReadCounts) -> Vec<Cell> {
        let mut out = Vec::new();
        if !self.may_hold_row(HashedRow::new(row), counts) {
            return out;
        }
        let family: std::sync::Arc<[u8]> = std::sync::Arc::from(self.header.family.as_slice());
        let mut cursor = self.cursor();
        cursor.seek(&Cell::first_on_row(row, &family));
        while let Some(c) = cursor.current().filter(|c| c.row == row) {
            out.push(c.to_cell(&family));
            cursor.advance();
        }
        counts.add(&cursor.counts);
        out
    }
}

/// Block `e`'s payload in `part` (the part holding it) when its checksum matches, checked
/// the first time only.
#[inline]
fn checked_payload<'p>(
    part: &'p [u8],
    e: &BlockEntry,
    checked: &OnceLock<bool>,
) -> Option<&'p [u8]> {
    let (start, end) = (e.offset as usize, e.offset as usize + e.len as usize);
    let payload = part.get(start..end)?;
    let ok = *checked.get_or_init(|| {
        part.get(end..end + 4).is_some_and(|c| {
            u32::from_le_bytes([c[0], c[1], c[2], c[3]]) == crate::kit::crc32::hash(payload)
        })
    });
    ok.then_some(payload)
}

/// A block file's data blocks, owned, to be read once in order: once the reader has moved past
/// the last block of a part, [`BlockDrain::release_before`] frees that part, and the memory
/// goes back to the allocator while the rest is still being read. What a compaction reads its
/// inputs through (see `engine::drain`).
#[derive(Debug)]
pub struct BlockDrain {
    /// The file's parts; `None` once freed.
    parts: Vec<Option<Box<[u8]>>>,
    blocks: Vec<BlockEntry>,
    checked: Vec<OnceLock<bool>>,
    encoding: Encoding,
    /// The parts before this one are freed.
    freed: usize,
}

impl BlockDrain {
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    /// How the blocks' cells are encoded.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Block `i`'s payload, `None` when its checksum does not match (a damaged block, which
    /// a compaction steps over as a read does) or its part was freed.
    #[inline]
    pub fn block(&self, i: usize) -> Option<&[u8]> {
        let e = self.blocks.get(i)?;
        let part = self.parts.get(e.part as usize)?.as_deref()?;
        checked_payload(part, e, self.checked.get(i)?)
    }

    /// Frees every part that holds only blocks before block `i` (all of them when `i` is past
    /// the last block).
    pub fn release_before(&mut self, i: usize) {
        let keep = self
            .blocks
            .get(i)
            .map_or(self.parts.len(), |e| e.part as usize);
        while self.freed < keep {
            if let Some(p) = self.parts.get_mut(self.freed) {
                *p = None;
            }
            self.freed += 1;
        }
    }
}

/// Walks a file's cells forwards in place, block by block; a damaged block is noted and
/// stepped over.
#[derive(Debug)]
pub struct FileCursor<'f> {
    file: &'f BlockFile,
    /// The block the cursor is in (or will load next, when `cursor` is `None`).
    block: usize,
    cursor: Option<BlockCursor<'f>>,
    /// A block was loaded (or the file found empty) at least once.
    started: bool,
    pub counts: ReadCounts,
    /// Blocks found damaged, with why.
    pub damaged: Vec<FormatError>,
}

impl<'f> FileCursor<'f> {
    /// Loads block `i` and moves to its first cell, stepping over damaged blocks; `false` past
    /// the last block.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn load(&mut self, mut i: usize) -> bool {
        while i < self.file.blocks.len() {
            self.block = i;
            match self.file.block_cursor(i) {
                Ok(mut c) => {
                    self.counts.blocks_read += 1;
                    self.counts.bytes_read += self.file.block_len(i) as u64;
                    match c.advance() {
                        Ok(true) => {
                            self.cursor = Some(c);
                            return true;
                        }
                        Ok(false) => {}
                        Err(e) => self.damaged.push(e),
                    }
                }
                Err(e) => self.damaged.push(e),
            }
            i += 1;
        }
        self.block = self.file.blocks.len();
        self.cursor = None;
        false
    }

    /// Loads the first block on the first look.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn start(&mut self) {
        if !self.started {
            self.started = true;
            self.load(0);
        }
    }

    /// The cell the cursor is on.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn current(&mut self) -> Option<CellRef<'_>> {
        self.start();
        self.cursor.as_ref().and_then(|c| c.current())
    }

    /// Moves to the next cell.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn advance(&mut self) {
        self.start();
        let Some(c) = self.cursor.as_mut() else {
            return;
        };
        match c.advance() {
            Ok(true) => {}
            Ok(false) => {
                let next = self.block + 1;
                self.load(next);
            }
            Err(e) => {
                self.damaged.push(e);
                let next = self.block + 1;
                self.load(next);
            }
        }
    }

    /// Moves forwards to the first cell at or after `target`: the index picks the block (the
    /// blocks jumped over are counted as skipped, and never read), then the block is walked
    /// from its start.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn seek(&mut self, target: &Cell) {
        let b = self.file.seek_block(target);
        if !self.started {
            self.started = true;
            self.counts.blocks_skipped += b as u64;
            self.load(b);
        } else if self.cursor.is_some() && b > self.block {
            self.counts.blocks_skipped += (b - self.block - 1) as u64;
            self.load(b);
        }
        while let Some(c) = self.cursor.as_ref().and_then(|c| c.current()) {
            if c.cmp_cell(target) != std::cmp::Ordering::Less {
                return;
            }
            self.advance();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::block::writer::FileWriter;
    use crate::engine::cell::Cell;
    use std::sync::Arc;

    /// Rows of `cells` cells each, with values of `value` bytes, written in blocks of
    /// `block_size`; the writer's row index of each block against the one read from its bytes.
    fn written_against_read(rows: usize, cells: usize, value: usize, block_size: u64) {
        let family: Arc<[u8]> = Arc::from(&b"f"[..]);
        let options = FileOptions {
            block_size,
            ..FileOptions::default()
        };
        let mut w = FileWriter::new(1, "t", b"f", options);
        let bytes = vec![b'v'; value];
        for r in 0..rows {
            let row = format!("row-{r:05}");
            for c in 0..cells {
                let q = format!("c{c:03}");
                let cell = Cell::put(row.as_bytes(), &family, q.as_bytes(), 5, 1, &bytes);
                w.add(cell.as_ref());
            }
        }
        let file = w.into_file();
        let written = file
            .row_starts
            .get()
            .expect("a written file has its row indexes");
        assert_eq!(written.len(), file.block_count());
        for (i, index) in written.iter().enumerate() {
            let block = file.block(i).expect("block");
            assert_eq!(
                index.get(),
                Some(&RowStarts::build(block)),
                "block {i} of {rows} rows of {cells} cells, {value}-byte values, blocks of {block_size}"
            );
        }
    }

    #[test]
    fn a_written_file_opens_with_the_row_indexes_its_blocks_hold() {
        // Rows of ten cells, a few to a block and spanning blocks.
        written_against_read(500, 10, 16, 1024);
        // More rows to a block than an index lists.
        written_against_read(2_000, 1, 4, 1024);
        // Exactly eight rows to a block, and one row across many blocks.
        written_against_read(64, 8, 1, 8 * 8 * 18);
        written_against_read(1, 400, 16, 512);
        // Blocks too long for 16-bit offsets have none.
        written_against_read(4, 2, 40_000, 64 * 1024);
    }
}
