//! The rows of a stored run, counted when it was stored and kept behind its block file, so a
//! reload builds each table's key index from them instead of walking every cell again.
//!
//! A table's key index ([`crate::engine::KeyIndex`]) holds every row with its cells and their
//! bytes. Recounting it on a reload walked the million cells of a benchmark table (a quarter
//! of the reload's work); a run never changes once written, so its rows are counted once and
//! written behind the run's block file when the run is first stored. A run written in this
//! session brings them along: its writer counted them as it wrote the run
//! ([`crate::engine::CountedRows`]), so the save does not walk its cells either; a run read
//! back from an older save without them is walked once:
//!
//! ```text
//! record:  block file | rows | file length (u64 LE) | crc32 (u32 LE) | "RKRW"
//! rows:    count (varint) | row * count
//! row:     bytes shared with the row before (varint) | the rest (varint length, bytes)
//!          | cells (varint) | bytes (varint)
//! ```
//!
//! The CRC (IEEE) covers the rows and the file length. The rows are the run's stretches of
//! one row as [`crate::engine::Run::for_each_row_stretch`] gives them, which is what
//! the key index is counted from ([`crate::engine::RunRows`]). A block file ends with its own
//! magic (`RKHT`), never with `RKRW`, so runs stored before (the block file alone) read as
//! they are and their rows are counted from the cells. Rows whose CRC fails (or whose trailer
//! is damaged: the block file's end is then found by its own magic), whose cells do not add
//! up to the run's, or of a run with a damaged block, are set aside and the run's rows counted
//! from its cells: they cost time, never a cell.

use crate::engine::{BlockFile, Decoded, KeyEntry, Run};
use crate::persist::codec::{CodecError, Reader, Writer};

const MAGIC: &[u8; 4] = b"RKRW";
/// The last bytes of a block file.
const FILE_MAGIC: &[u8; 4] = b"RKHT";
/// File length, CRC, magic.
const TRAILER: usize = 16;

/// The run's rows as the key index counts them, one entry per stretch of one row: as its
/// writer counted them for a run written in this session, else counted from its cells.
pub(crate) fn count_rows(run: &Run) -> Vec<KeyEntry> {
    // A run written in this session: its writer counted them as it wrote it.
    if let Some(counted) = run.counted_rows() {
        let mut rows: Vec<KeyEntry> = Vec::with_capacity(counted.len());
        counted.for_each(|row, cells, bytes| {
            rows.push(KeyEntry {
                key: row.into(),
                cells,
                bytes,
            })
        });
        return rows;
    }
    let keys = Decoded::default();
    let mut rows: Vec<KeyEntry> = Vec::new();
    run.for_each_row_stretch(&keys, |row, cells, bytes| {
        rows.push(KeyEntry {
            key: row.into(),
            cells,
            bytes,
        })
    });
    rows
}

/// Appends `rows` and the trailer to a run's block file bytes.
pub(crate) fn append_rows(mut file: Vec<u8>, rows: &[KeyEntry]) -> Vec<u8> {
    let file_len = file.len();
    let mut w = Writer {
        out: std::mem::take(&mut file),
    };
    w.out.reserve(rows.len() * 16 + 32);
    w.varint(rows.len() as u64);
    let mut prev: &[u8] = &[];
    for e in rows {
        let shared = prev
            .iter()
            .zip(e.key.iter())
            .take_while(|(a, b)| a == b)
            .count();
        w.varint(shared as u64);
        w.bytes(e.key.get(shared..).unwrap_or(&[]));
        w.varint(u64::from(e.cells));
        w.varint(e.bytes);
        prev = &e.key;
    }
    let mut out = w.out;
    out.extend_from_slice(&(file_len as u64).to_le_bytes());
    let crc = crate::kit::crc32::hash(out.get(file_len..).unwrap_or(&[]));
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(MAGIC);
    out
}

/// A stored run's record opened: its block file, and the rows stored behind it when they are
/// there and intact. Rows whose trailer is damaged cost only themselves: the block file's end
/// is then found by its own magic, the last one that opens.
pub(crate) fn open_with_rows(
    mut record: Vec<u8>,
) -> Result<(BlockFile, Option<Vec<KeyEntry>>), CodecError> {
    match split_rows(&record) {
        Tail::None => Ok((BlockFile::open(record.into_boxed_slice())?, None)),
        Tail::Rows { file_len, rows } => {
            record.truncate(file_len);
            Ok((BlockFile::open(record.into_boxed_slice())?, Some(rows)))
        }
        Tail::Damaged => {
            let ends = (FILE_MAGIC.len()..=record.len())
                .rev()
                .filter(|&end| record.get(end - FILE_MAGIC.len()..end) == Some(&FILE_MAGIC[..]));
            for end in ends {
                if let Ok(file) = BlockFile::open(record.get(..end).unwrap_or(&[]).into()) {
                    return Ok((file, None));
                }
            }
            Ok((BlockFile::open(record.into_boxed_slice())?, None))
        }
    }
}

/// What follows a stored run's block file.
enum Tail {
    /// Nothing: the record is a block file alone (as runs were stored before their rows).
    None,
    /// The rows, intact, behind a block file of `file_len` bytes.
    Rows {
        file_len: usize,
        rows: Vec<KeyEntry>,
    },
    /// Something that is not a block file's end and not intact rows.
    Damaged,
}

/// Rows stored behind no file (as a run stored in parts keeps them in its head): `None` when
/// they are damaged, and the run's rows are then counted from its cells.
pub(crate) fn read_rows_section(section: &[u8]) -> Option<Vec<KeyEntry>> {
    match split_rows(section) {
        Tail::Rows { file_len: 0, rows } => Some(rows),
        _ => None,
    }
}

fn split_rows(record: &[u8]) -> Tail {
    if record.ends_with(FILE_MAGIC) {
        return Tail::None;
    }
    let Some(tail_at) = record.len().checked_sub(TRAILER) else {
        return Tail::Damaged;
    };
    let tail = record.get(tail_at..).unwrap_or(&[]);
    if tail.get(12..16) != Some(&MAGIC[..]) {
        return Tail::Damaged;
    }
    let mut word = [0u8; 8];
    word.copy_from_slice(tail.get(..8).unwrap_or(&[0; 8]));
    let Some(file_len) = usize::try_from(u64::from_le_bytes(word))
        .ok()
        .filter(|&n| n <= tail_at)
    else {
        return Tail::Damaged;
    };
    let stored = u32::from_le_bytes([tail[8], tail[9], tail[10], tail[11]]);
    let computed = crate::kit::crc32::hash(record.get(file_len..tail_at + 8).unwrap_or(&[]));
    if stored != computed {
        return Tail::Damaged;
    }
    match read_rows(record.get(file_len..tail_at).unwrap_or(&[])) {
        Ok(rows) => Tail::Rows { file_len, rows },
        Err(_) => Tail::Damaged,
    }
}

fn read_rows(b: &[u8]) -> Result<Vec<KeyEntry>, CodecError> {
    let mut r = Reader::new(b);
    let n = r.varint()?;
    // Every row takes at least four bytes.
    let n = usize::try_from(n)
        .ok()
        .filter(|n| n.saturating_mul(4) <= b.len())
        .ok_or_else(|| CodecError::Invalid(format!("{n} rows in {} bytes", b.len())))?;
    let mut rows: Vec<KeyEntry> = Vec::with_capacity(n);
    let mut key: Vec<u8> = Vec::new();
    for _ in 0..n {
        let shared = usize::try_from(r.varint()?).unwrap_or(usize::MAX);
        if shared > key.len() {
            return Err(CodecError::Invalid(format!(
                "a row shares {shared} bytes with a row of {}",
                key.len()
            )));
        }
        key.truncate(shared);
        key.extend_from_slice(r.bytes()?);
        let cells = u32::try_from(r.varint()?)
            .map_err(|_| CodecError::Invalid("a row's cell count is out of range".into()))?;
        let bytes = r.varint()?;
        rows.push(KeyEntry {
            key: key.as_slice().into(),
            cells,
            bytes,
        });
    }
    if !r.done() {
        return Err(CodecError::Invalid("bytes after the last row".into()));
    }
    Ok(rows)
}

/// Whether `rows` can stand for a run of `cells` cells: they add up to it.
pub(crate) fn rows_fit(rows: &[KeyEntry], cells: u64) -> bool {
    let counted: u64 = rows.iter().map(|e| u64::from(e.cells)).sum();
    counted == cells
}
