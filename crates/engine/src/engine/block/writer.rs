//! Writing a block file: cells in cell order encoded into data blocks, the blocks in parts of
//! about [`PART_BYTES`], then the index, the bloom and the trailer.

use crate::kit::varint;

use super::bloom::{key_hashes, BloomBuilder};
use super::encoding::{put_varint, write_key, BlockEncoder, CellRef};
use super::file::{BlockFile, Header, FORMAT_VERSION, MAGIC, TRAILER, TRAILER_MAGIC};
use super::locator::{row_hash, LocatorBuilder};
use super::row_index::RowStarts;
use super::rows::CountedRows;
use super::{BloomType, Encoding, FileOptions};

/// About how many bytes of data blocks a writer puts in one allocation (a part of the file):
/// whole blocks, a new part begun once this many are written. A run is many parts rather than
/// one buffer, so that a compaction that owns its inputs frees each part once it has read it
/// and the allocator hands that memory to the output (see `engine::drain`).
pub const PART_BYTES: usize = 64 * 1024;

/// Writes cells, given in cell order, into a block file.
pub struct FileWriter {
    header: Header,
    encoder: BlockEncoder,
    /// The data blocks written so far, in parts of about [`PART_BYTES`].
    parts: Vec<Box<[u8]>>,
    /// The bytes of `parts`.
    parted: usize,
    /// The part being written.
    data: Vec<u8>,
    /// The index entries of the blocks ended so far, as the file stores them (offset from
    /// the first block, payload length, cells, first key, first sequence id), written once
    /// each block ends: the index costs its stored bytes while the run is written.
    index: Vec<u8>,
    /// Blocks in `index`.
    blocks: u64,
    /// Blocks the writer expects ([`FileWriter::reserve`]), to size `index` once.
    expected_blocks: usize,
    /// The open block's offset, first key and first sequence id.
    block_offset: usize,
    block_key: Vec<u8>,
    block_seq: u64,
    block_start: usize,
    block_cells: u64,
    /// The bloom key of the last cell added, to add each row (or row and column) once.
    bloom_key: Vec<u8>,
    bloom_next: Vec<u8>,
    /// The two hashes of every distinct bloom key, in order: all the filter needs once it is
    /// sized, without keeping the keys.
    bloom_hashes: Vec<(u32, u32)>,
    /// The rows written, counted as they come (see [`CountedRows`]).
    rows: CountedRows,
    /// Each ended block's row index, taken as its cells went in (`NONE` blocks only: the
    /// others have none), and the open block's: the file opens with them built.
    row_starts: Vec<Option<RowStarts>>,
    block_rows: RowStarts,
    /// Where each row starts (`NONE` files only), for the file's row locator.
    locator: LocatorBuilder,
}

impl FileWriter {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(id: u64, table: &str, family: &[u8], options: FileOptions) -> FileWriter {
        FileWriter {
            header: Header {
                version: FORMAT_VERSION,
                id,
                options,
                table: table.to_string(),
                family: family.to_vec(),
                region_start: Vec::new(),
                region_end: Vec::new(),
                first_row: Vec::new(),
                last_row: Vec::new(),
                cells: 0,
                cell_bytes: 0,
            },
            encoder: BlockEncoder::new(options.encoding),
            parts: Vec::new(),
            parted: 0,
            data: Vec::new(),
            index: Vec::new(),
            blocks: 0,
            expected_blocks: 0,
            block_offset: 0,
            block_key: Vec::new(),
            block_seq: 0,
            block_start: 0,
            block_cells: 0,
            bloom_key: Vec::new(),
            bloom_next: Vec::new(),
            bloom_hashes: Vec::new(),
            rows: CountedRows::default(),
            row_starts: Vec::new(),
            block_rows: RowStarts::empty(),
            locator: LocatorBuilder::default(),
        }
    }

    /// Makes room up front for the index of about `bytes` of blocks: a rewrite that knows
    /// about how much it writes grows that list once instead of doubling it. The blocks go
    /// into parts of about [`PART_BYTES`], which never grow by doubling.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn reserve(mut self, bytes: usize) -> FileWriter {
        let blocks = bytes as u64 / self.header.options.block_size.max(1) + 1;
        self.expected_blocks = usize::try_from(blocks).unwrap_or(0);
        self
    }

    /// The header the file will have, as it stands.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub(super) fn into_header(self) -> Header {
        self.header
    }

    /// Records the key range of the region the run is written for.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn region(mut self, start: &[u8], end: &[u8]) -> FileWriter {
        self.header.region_start = start.to_vec();
        self.header.region_end = end.to_vec();
        self
    }

    /// Adds the next cell (cells must come in cell order), read in place: its bytes are
    /// encoded straight into the block.
    pub fn add(&mut self, cell: CellRef<'_>) {
        let new_row = self.header.cells == 0 || self.header.last_row.as_slice() != cell.row;
        self.add_in_row(cell, None, new_row);
    }

    /// Adds the next cell, told whether its row is another than the last cell added's (true
    /// for the first): a merge that has compared the rows already does not have them
    /// compared again. `encoded`, the cell's bytes in a `NONE` block, is what a `NONE` file
    /// writes for it, copied instead of encoding the cell again (a compaction's cells).
    pub(crate) fn add_in_row(&mut self, cell: CellRef<'_>, encoded: Option<&[u8]>, new_row: bool) {
        if self.block_cells == 0 {
            self.block_key.clear();
            write_key(
                &mut self.block_key,
                cell.row,
                cell.family,
                cell.qualifier,
                cell.timestamp,
                cell.kind,
            );
            self.block_seq = cell.seq;
            if self.data.capacity() == 0 {
                self.data = Vec::with_capacity(self.part_capacity());
            }
            self.block_offset = self.parted + self.data.len();
            self.encoder.start_block();
            self.block_start = self.data.len();
        }
        let at = self.data.len() - self.block_start;
        if new_row || self.block_cells == 0 {
            self.block_rows.row_at(at);
        }
        match encoded {
            Some(bytes) if self.header.options.encoding == Encoding::None => {
                self.data.extend_from_slice(bytes)
            }
            _ => self.encoder.encode(&mut self.data, cell),
        }
        self.block_cells += 1;
        // The header's last row and a `ROW` bloom both change with the row.
        if new_row {
            self.rows.start_row(
                &self.header.last_row,
                cell.row,
                self.header.cells,
                self.header.cell_bytes,
            );
            if self.header.cells == 0 {
                self.header.first_row = cell.row.to_vec();
            }
            self.header.last_row.clear();
            self.header.last_row.extend_from_slice(cell.row);
        }
        self.header.cells += 1;
        self.header.cell_bytes += cell.size() as u64;
        // One bloom key per row (or row and column), cells of one coming together.
        match self.header.options.bloom {
            BloomType::None => {}
            BloomType::Row => {
                if new_row {
                    self.bloom_hashes.push(key_hashes(cell.row));
                }
            }
            BloomType::RowCol => {
                self.bloom_next.clear();
                row_col_key(&mut self.bloom_next, cell.row, cell.qualifier);
                if self.bloom_hashes.is_empty() || self.bloom_next != self.bloom_key {
                    self.bloom_hashes.push(key_hashes(&self.bloom_next));
                    std::mem::swap(&mut self.bloom_key, &mut self.bloom_next);
                }
            }
        }
        if new_row && self.header.options.encoding == Encoding::None {
            // A `ROW` bloom has just hashed the row as the locator does.
            let hash = match (self.header.options.bloom, self.bloom_hashes.last()) {
                (BloomType::Row, Some(&(hash, _))) => hash,
                _ => row_hash(cell.row),
            };
            self.locator.row(hash, self.blocks, at);
        }
        if (self.data.len() - self.block_start) as u64 >= self.header.options.block_size.max(1) {
            self.end_block();
        }
    }

    fn end_block(&mut self) {
        if self.block_cells == 0 {
            return;
        }
        let len = self.data.len() - self.block_start;
        let rows = std::mem::replace(&mut self.block_rows, RowStarts::empty());
        if self.header.options.encoding == Encoding::None {
            if self.row_starts.capacity() == 0 {
                self.row_starts.reserve_exact(self.expected_blocks);
            }
            self.row_starts.push(rows.written(len));
        }
        let entry = varint::len(self.block_offset as u64)
            + varint::len(len as u64)
            + varint::len(self.block_cells)
            + varint::len(self.block_key.len() as u64)
            + self.block_key.len()
            + varint::len(self.block_seq);
        if self.blocks == 0 {
            // Sized once by the first entry, with a quarter more for longer keys.
            self.index
                .reserve_exact(self.expected_blocks * (entry + entry / 4));
        }
        put_varint(&mut self.index, self.block_offset as u64);
        put_varint(&mut self.index, len as u64);
        put_varint(&mut self.index, self.block_cells);
        put_varint(&mut self.index, self.block_key.len() as u64);
        self.index.extend_from_slice(&self.block_key);
        put_varint(&mut self.index, self.block_seq);
        self.blocks += 1;
        // The block's checksum is taken when its bytes leave memory ([`BlockFile::to_bytes`]):
        // most runs are compacted away before any save, and a block read in memory is not
        // checked (see `BlockFile::open_written`). Its place is held.
        self.data.extend_from_slice(&[0; 4]);
        self.block_cells = 0;
        if self.data.len() >= PART_BYTES {
            let part = std::mem::take(&mut self.data).into_boxed_slice();
            self.parted += part.len();
            self.parts.push(part);
        }
        self.block_start = self.data.len();
    }

    /// The room a new part is made with: [`PART_BYTES`] and one more block, so that the block
    /// that ends it rarely has to move.
    fn part_capacity(&self) -> usize {
        let block = usize::try_from(self.header.options.block_size).unwrap_or(PART_BYTES);
        PART_BYTES + block.min(PART_BYTES) + 256
    }

    /// Finishes the file and opens it, with the rows counted while it was written.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn into_counted(mut self) -> (BlockFile, CountedRows) {
        let mut rows = std::mem::take(&mut self.rows);
        rows.finish(self.header.cells, self.header.cell_bytes);
        (self.into_file(), rows)
    }

    /// Finishes the file and opens it.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn into_file(mut self) -> BlockFile {
        let (id, options) = (self.header.id, self.header.options);
        let (table, family) = (self.header.table.clone(), self.header.family.clone());
        self.end_block();
        let row_starts = std::mem::take(&mut self.row_starts);
        let locator = std::mem::take(&mut self.locator).finish();
        // A file just written always opens; an empty one stands in rather than a panic.
        BlockFile::open_written(self.finish_parts(), row_starts, locator)
            .unwrap_or_else(|_| BlockFile::empty(id, &table, &family, options))
    }

    /// The file's bytes: the header, the data blocks, the index and bloom, the trailer.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn finish(self) -> Vec<u8> {
        self.into_file().to_bytes()
    }

    /// The file's bytes in parts, which one after another are the file: the header (which
    /// names the first and last row, so it is written last), the data blocks in parts of
    /// about [`PART_BYTES`], then the index, bloom and trailer. No block is copied again, and
    /// no block's checksum is taken yet (see [`BlockFile::to_bytes`]).
    pub(super) fn finish_parts(mut self) -> Vec<Box<[u8]>> {
        self.end_block();
        let bloom = (self.header.options.bloom != BloomType::None).then(|| {
            let mut bloom = BloomBuilder::new(self.bloom_hashes.len());
            for hashes in std::mem::take(&mut self.bloom_hashes) {
                bloom.add_hashes(hashes);
            }
            bloom.finish()
        });
        let mut head = Vec::with_capacity(128);
        write_header(&mut head, &self.header);
        let bloom_len = bloom.as_ref().map_or(0, |(bits, hashes)| {
            varint::len(u64::from(*hashes)) + varint::len(bits.len() as u64) + bits.len()
        });
        // The index entries stay where they were written: the count goes in front of them in
        // place, and the bloom and trailer after them.
        let mut out = std::mem::take(&mut self.index);
        let mut count = Vec::with_capacity(10);
        put_varint(&mut count, self.blocks);
        out.reserve_exact(count.len() + 1 + bloom_len + TRAILER);
        out.splice(0..0, count);
        out.push(self.header.options.bloom.code());
        if let Some((bits, hashes)) = bloom {
            put_varint(&mut out, u64::from(hashes));
            put_varint(&mut out, bits.len() as u64);
            out.extend_from_slice(&bits);
        }
        let meta_len = out.len() as u64;
        let meta_crc = crate::kit::crc32::hash(&out);
        out.extend_from_slice(&meta_len.to_le_bytes());
        out.extend_from_slice(&meta_crc.to_le_bytes());
        out.extend_from_slice(TRAILER_MAGIC);
        let mut parts = Vec::with_capacity(self.parts.len() + 3);
        parts.push(head.into_boxed_slice());
        parts.append(&mut self.parts);
        if !self.data.is_empty() {
            parts.push(std::mem::take(&mut self.data).into_boxed_slice());
        }
        parts.push(out.into_boxed_slice());
        parts
    }
}

/// Writes the magic, the version and the header, with the header's crc32.
#[cfg_attr(rowkey_cold, optimize(size))]
pub(super) fn write_header(out: &mut Vec<u8>, h: &Header) {
    let start = out.len();
    out.extend_from_slice(MAGIC);
    out.push(h.version);
    put_varint(out, h.id);
    out.push(h.options.encoding.code());
    out.push(h.options.bloom.code());
    put_varint(out, h.options.block_size);
    for part in [
        h.table.as_bytes(),
        &h.family,
        &h.region_start,
        &h.region_end,
        &h.first_row,
        &h.last_row,
    ] {
        put_varint(out, part.len() as u64);
        out.extend_from_slice(part);
    }
    put_varint(out, h.cells);
    put_varint(out, h.cell_bytes);
    let crc = crate::kit::crc32::hash(out.get(start..).unwrap_or_default());
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The key a `ROWCOL` bloom holds for a row and qualifier.
pub(super) fn row_col_key(out: &mut Vec<u8>, row: &[u8], qualifier: &[u8]) {
    put_varint(out, row.len() as u64);
    out.extend_from_slice(row);
    out.extend_from_slice(qualifier);
}
