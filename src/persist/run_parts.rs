//! A large run stored as several records, so a reload opens it part by part as the parts
//! arrive instead of once the whole run has.
//!
//! A run whose data blocks take more than [`PARTS_PER_RUN_AT_LEAST`] parts of
//! [`PART_RECORD_BYTES`] is stored as a head under the run's id and its data blocks in parts of
//! about that size under `[id, 1]`, `[id, 2]`, ... (a smaller run, such as a flush's of about
//! 1 MB, stays one record: its opening already overlaps the read of the records after it)
//! (IndexedDB sorts numbers before arrays, so every head is read before any part). The head
//! holds what a reader needs before the first block, and the rows:
//!
//! ```text
//! head:     "RKRP" | version (1) | lengths | crc32 (u32 LE) | file header | file index | rows
//! lengths:  header, index, rows (varints) | parts n (varint) | each part's length (varint)
//! part k:   whole data blocks of the block file, in order
//! rows:     as stored behind a block file (super::run_rows), behind no file
//! ```
//!
//! The CRC (IEEE) covers the magic, the version and the lengths; the file's header and index
//! carry their own checksums, each data block its own, the rows theirs. The header, the parts
//! and the index one after another are the run's block file, byte for byte as a run stored in
//! one record holds it. When the head arrives its rows are read and the file opened from its
//! header and index ([`BlockFile::open_arriving`]); each part's blocks are checked when the
//! part arrives ([`BlockFile::arrive`]), while the browser reads the parts after it. The run
//! keeps its parts as they came, so its first compaction frees each once its merge has read
//! past it. A head whose parts are not all there, or a part of another length than the head
//! says, sets the run aside; a damaged block costs its cells, as in a run stored whole.

use crate::engine::{BlockFile, FormatError, KeyEntry, Run};
use crate::persist::codec::{
    checked_file_as_run, encode_placed_run, encode_stored_run, CodecError, Reader, RunPlace,
    StoredRun, Writer,
};
use crate::persist::run_rows::{append_rows, count_rows, read_rows_section};

/// About how many bytes of data blocks each part of a run stored in parts holds.
pub const PART_RECORD_BYTES: usize = 1 << 20;
/// A run is stored in parts when its blocks fill more than this many parts.
pub const PARTS_PER_RUN_AT_LEAST: usize = 4;

const MAGIC: &[u8; 4] = b"RKRP";
const VERSION: u8 = 1;

/// Whether a record under a run's id is the head of a run stored in parts.
pub fn is_parts_head(bytes: &[u8]) -> bool {
    bytes.get(..4) == Some(&MAGIC[..])
}

/// A run as the saver stores it: one record ([`encode_stored_run`]) when its data blocks take
/// at most [`PARTS_PER_RUN_AT_LEAST`] times `part_bytes`, else a head and its parts of whole
/// blocks, each part closed once it holds `part_bytes` or more.
pub fn encode_stored_run_records(
    run: &Run,
    place: &RunPlace,
    part_bytes: usize,
) -> (Vec<u8>, Vec<Vec<u8>>) {
    let placed = placed_file(run, place);
    let file = placed.as_ref().unwrap_or(run.file());
    let data = file.data_bytes();
    if data.len() <= part_bytes.saturating_mul(PARTS_PER_RUN_AT_LEAST) {
        return (encode_stored_run(run, place), Vec::new());
    }
    let bytes = file.to_bytes();
    let mut parts: Vec<Vec<u8>> = Vec::new();
    let (mut from, mut at) = (data.start, data.start);
    for i in 0..file.block_count() {
        at += file.block_len(i) + 4;
        if at - from >= part_bytes || i + 1 == file.block_count() {
            parts.push(bytes.get(from..at).unwrap_or_default().to_vec());
            from = at;
        }
    }
    let header = bytes.get(..data.start).unwrap_or_default();
    let index = bytes.get(data.end..).unwrap_or_default();
    let rows = append_rows(Vec::new(), &count_rows(run));
    let mut w = Writer {
        out: Vec::with_capacity(header.len() + index.len() + rows.len() + 64),
    };
    w.out.extend_from_slice(MAGIC);
    w.out.push(VERSION);
    for len in [header.len(), index.len(), rows.len(), parts.len()] {
        w.varint(len as u64);
    }
    for p in &parts {
        w.varint(p.len() as u64);
    }
    let crc = crate::kit::crc32::hash(&w.out);
    w.out.extend_from_slice(&crc.to_le_bytes());
    w.out.extend_from_slice(header);
    w.out.extend_from_slice(index);
    w.out.extend_from_slice(&rows);
    (w.out, parts)
}

/// The run's file under the place it is stored for, when its own header says another.
fn placed_file(run: &Run, place: &RunPlace) -> Option<BlockFile> {
    let h = run.file().header();
    if h.table == place.table
        && h.family == place.family
        && h.region_start == place.start
        && h.region_end == place.end
    {
        return None;
    }
    // The same fallback as a run stored whole: a header that cannot be written anew stays.
    BlockFile::open(encode_placed_run(run, place).into_boxed_slice()).ok()
}

/// A run stored in parts, opened from its head, taking its parts as they arrive.
#[derive(Debug)]
pub struct ArrivingRun {
    file: BlockFile,
    rows: Option<Vec<KeyEntry>>,
    /// Each part's length, as the head says.
    lens: Vec<usize>,
    /// The number of the next part awaited (parts count from 1).
    next: usize,
    /// Why the run cannot be read whole, once a part did not fit.
    wrong: Option<String>,
    /// The damaged blocks found in the parts so far.
    damaged: Vec<FormatError>,
}

impl ArrivingRun {
    /// Reads a head: its rows, and the block file opened from its header and index.
    pub fn open(head: &[u8]) -> Result<ArrivingRun, CodecError> {
        if !is_parts_head(head) {
            return Err(CodecError::BadMagic);
        }
        let version = *head.get(4).ok_or(CodecError::Truncated(4))?;
        if version > VERSION {
            return Err(CodecError::UnsupportedVersion(version));
        }
        let mut r = Reader::new(head.get(5..).unwrap_or_default());
        let mut len = || -> Result<usize, CodecError> {
            usize::try_from(r.varint()?)
                .map_err(|_| CodecError::Invalid("a length out of range".into()))
        };
        let (header_len, index_len, rows_len, n) = (len()?, len()?, len()?, len()?);
        if n > head.len() {
            return Err(CodecError::Invalid(format!(
                "{n} parts in a head of {} bytes",
                head.len()
            )));
        }
        let lens = (0..n).map(|_| len()).collect::<Result<Vec<usize>, _>>()?;
        let crc_at = 5 + r.position();
        let stored = head
            .get(crc_at..crc_at + 4)
            .ok_or(CodecError::Truncated(crc_at))?;
        let stored = u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]);
        let computed = crate::kit::crc32::hash(head.get(..crc_at).unwrap_or_default());
        if stored != computed {
            return Err(CodecError::Checksum { stored, computed });
        }
        let mut body = Reader::new(head.get(crc_at + 4..).unwrap_or_default());
        let header = body.take(header_len)?;
        let index = body.take(index_len)?;
        let rows = body.take(rows_len)?;
        if !body.done() {
            return Err(CodecError::Invalid("bytes after the rows".into()));
        }
        let file = BlockFile::open_arriving(header.into(), &lens, index.into())?;
        Ok(ArrivingRun {
            file,
            rows: read_rows_section(rows),
            lens,
            next: 1,
            wrong: None,
            damaged: Vec::new(),
        })
    }

    /// Part `k` has arrived: its blocks are checked now. A part out of turn, or of another
    /// length than the head says, makes the run one that cannot be read whole.
    pub fn arrive(&mut self, k: u64, bytes: Vec<u8>) {
        if self.wrong.is_some() {
            return;
        }
        let n = self.lens.len();
        if self.next > n {
            self.wrong = Some(format!("part {k} is stored beyond its {n} parts"));
            return;
        }
        if usize::try_from(k).ok() != Some(self.next) {
            self.wrong = Some(format!("part {} of {n} is missing", self.next));
            return;
        }
        let want = self.lens.get(self.next - 1).copied().unwrap_or(0);
        if bytes.len() != want {
            self.wrong = Some(format!(
                "part {k} holds {} bytes where its head says {want}",
                bytes.len()
            ));
            return;
        }
        match self.file.arrive(self.next, bytes.into_boxed_slice()) {
            Ok(damaged) => self.damaged.extend(damaged),
            Err(e) => {
                self.wrong = Some(format!("part {k} does not fit its file ({e})"));
                return;
            }
        }
        self.next += 1;
    }

    /// The run, once every part has arrived; why not, when one did not.
    pub fn finish(self) -> Result<StoredRun, String> {
        if let Some(why) = self.wrong {
            return Err(why);
        }
        if self.next <= self.lens.len() {
            return Err(format!(
                "part {} of {} is missing",
                self.next,
                self.lens.len()
            ));
        }
        // Every block was checked as its part arrived.
        Ok(checked_file_as_run(self.file, self.rows, self.damaged))
    }
}
