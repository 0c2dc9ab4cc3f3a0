//! The binary encoding of stored records: `RKEY | kind | version | payload | crc32`, the CRC
//! (IEEE, little-endian) covering every byte before it. Cells are written with LEB128 lengths
//! and a per-record table of family names.
//!
//! A sorted run is stored as its block file's bytes, exactly as the engine holds them (see
//! [`crate::engine::BlockFile`]): the file has its own header and checksums. Behind the file
//! follow the run's rows, counted when it was stored ([`super::run_rows`]), so a reload need
//! not count them from the cells; runs stored as the block file alone still read. Runs saved by
//! earlier Rowkeys as `RKEY` run records still decode, and are written again as block files.

use std::sync::Arc;

use crate::json;

use super::run_rows::{append_rows, count_rows, open_with_rows, rows_fit};
use crate::engine::{
    BlockFile, Catalog, Cell, CellKind, FileOptions, FormatError, KeyEntry, Run, RunPlacement,
};

const MAGIC: &[u8; 4] = b"RKEY";
const VERSION: u8 = 1;
/// Runs written with their place (table, family, key range) carry this record version.
const PLACED_RUN_VERSION: u8 = 2;

/// What a record holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BlobKind {
    /// One sorted run.
    Run = 1,
    /// Cells written since the last checkpoint, grouped by table (a log record).
    Wal = 2,
    /// The memstores at a checkpoint, grouped by table.
    Memstores = 3,
    /// The catalog, as JSON.
    Catalog = 4,
    /// One table's activity history: its head as JSON, its chunks of operations in binary
    /// (record version 2; chunks in JSON, version 1, still read).
    Activity = 5,
}

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The record does not start with Rowkey's magic bytes.
    #[error("not a Rowkey record (bad magic bytes)")]
    BadMagic,
    /// Written by a newer Rowkey.
    #[error("record version {0} is newer than this Rowkey understands")]
    UnsupportedVersion(u8),
    /// A different kind of record than expected.
    #[error("expected a {expected:?} record, found kind {found}")]
    WrongKind { expected: BlobKind, found: u8 },
    /// The bytes changed since they were written.
    #[error("checksum mismatch: stored {stored:08x}, computed {computed:08x}")]
    Checksum { stored: u32, computed: u32 },
    /// The record ends early.
    #[error("record truncated at byte {0}")]
    Truncated(usize),
    /// The payload does not decode.
    #[error("invalid record: {0}")]
    Invalid(String),
    /// A run's block file cannot be read, or one of its blocks is damaged.
    #[error("{0}")]
    Block(#[from] FormatError),
}

fn frame(kind: BlobKind, payload: &[u8]) -> Vec<u8> {
    frame_version(kind, VERSION, payload)
}

/// A payload framed as a record of the given kind and version.
pub(crate) fn frame_version(kind: BlobKind, version: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 10);
    out.extend_from_slice(MAGIC);
    out.push(kind as u8);
    out.push(version);
    out.extend_from_slice(payload);
    let crc = crate::kit::crc32::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

fn unframe(bytes: &[u8], expected: BlobKind) -> Result<&[u8], CodecError> {
    unframe_version(bytes, expected, VERSION).map(|(_, payload)| payload)
}

/// The record's version and payload, accepting versions up to `newest`.
pub(crate) fn unframe_version(
    bytes: &[u8],
    expected: BlobKind,
    newest: u8,
) -> Result<(u8, &[u8]), CodecError> {
    if bytes.len() < 10 {
        return Err(CodecError::Truncated(bytes.len()));
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    if body.get(..4) != Some(&MAGIC[..]) {
        return Err(CodecError::BadMagic);
    }
    let stored = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
    let computed = crate::kit::crc32::hash(body);
    if stored != computed {
        return Err(CodecError::Checksum { stored, computed });
    }
    let kind = body[4];
    if kind != expected as u8 {
        return Err(CodecError::WrongKind {
            expected,
            found: kind,
        });
    }
    if body[5] > newest {
        return Err(CodecError::UnsupportedVersion(body[5]));
    }
    Ok((body[5], &body[6..]))
}

/// Writes a record's payload: LEB128 varints and length-prefixed bytes.
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
}

impl Writer {
    pub(crate) fn varint(&mut self, v: u64) {
        crate::kit::varint::put(&mut self.out, v);
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.out.extend_from_slice(b);
    }
}

/// Reads what [`Writer`] wrote, every read moving past it or giving the error.
pub(crate) struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    #[inline]
    pub(crate) fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0 }
    }
    #[inline]
    pub(crate) fn varint(&mut self) -> Result<u64, CodecError> {
        crate::kit::varint::get(self.b, &mut self.at).map_err(|e| match e {
            crate::kit::varint::VarintError::Truncated(at) => CodecError::Truncated(at),
            e => CodecError::Invalid(e.to_string()),
        })
    }
    #[inline]
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], CodecError> {
        let len = usize::try_from(self.varint()?)
            .map_err(|_| CodecError::Invalid("length overflow".into()))?;
        self.take(len)
    }
    /// `n` bytes as they are.
    #[inline]
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], CodecError> {
        let end = self
            .at
            .checked_add(n)
            .ok_or(CodecError::Truncated(self.at))?;
        let out = self
            .b
            .get(self.at..end)
            .ok_or(CodecError::Truncated(self.at))?;
        self.at = end;
        Ok(out)
    }
    #[inline]
    pub(crate) fn byte(&mut self) -> Result<u8, CodecError> {
        let v = *self.b.get(self.at).ok_or(CodecError::Truncated(self.at))?;
        self.at += 1;
        Ok(v)
    }
    /// How many bytes have been read.
    pub(crate) fn position(&self) -> usize {
        self.at
    }
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.at >= self.b.len()
    }
}

fn write_cells(w: &mut Writer, cells: &[Cell]) {
    let mut families: Vec<&Arc<[u8]>> = Vec::new();
    for c in cells {
        if !families.iter().any(|f| ***f == *c.family) {
            families.push(&c.family);
        }
    }
    w.varint(families.len() as u64);
    for f in &families {
        w.bytes(f);
    }
    w.varint(cells.len() as u64);
    for c in cells {
        w.bytes(&c.row);
        w.varint(families.iter().position(|f| ***f == *c.family).unwrap_or(0) as u64);
        w.bytes(&c.qualifier);
        w.varint(c.timestamp);
        w.out.push(c.kind as u8);
        w.varint(c.seq);
        w.varint(c.ttl_ms);
        w.bytes(&c.value);
    }
}

fn read_cells(r: &mut Reader<'_>) -> Result<Vec<Cell>, CodecError> {
    let nf = r.varint()?;
    let mut families: Vec<Arc<[u8]>> = Vec::new();
    for _ in 0..nf {
        families.push(Arc::from(r.bytes()?));
    }
    let n = r.varint()?;
    let mut cells = Vec::with_capacity(usize::try_from(n).unwrap_or(0).min(1 << 20));
    for _ in 0..n {
        let row = r.bytes()?.to_vec();
        let fi = r.varint()?;
        let family = families
            .get(fi as usize)
            .cloned()
            .ok_or_else(|| CodecError::Invalid(format!("family index {fi} out of range")))?;
        let qualifier = r.bytes()?.to_vec();
        let timestamp = r.varint()?;
        let code = r.byte()?;
        let kind = CellKind::from_code(code)
            .ok_or_else(|| CodecError::Invalid(format!("unknown cell type {code}")))?;
        let seq = r.varint()?;
        let ttl_ms = r.varint()?;
        let value = r.bytes()?.to_vec();
        cells.push(Cell {
            row,
            family,
            qualifier,
            timestamp,
            kind,
            seq,
            ttl_ms,
            value,
        });
    }
    Ok(cells)
}

/// Where a run belongs: written into the run's record, so a run can be read (and exported)
/// even when no catalog names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPlace {
    pub table: String,
    pub family: Vec<u8>,
    /// The region's key range: `start` inclusive, `end` exclusive (empty: unbounded).
    pub start: Vec<u8>,
    pub end: Vec<u8>,
}

/// A sorted run as a record in the first layout, without its place (kept so tests can write
/// what the first Rowkeys stored).
pub fn encode_run(run: &Run) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::with_capacity(run.bytes + 64),
    };
    w.varint(run.id);
    write_cells(&mut w, &run.cells());
    frame(BlobKind::Run, &w.out)
}

/// A sorted run as a record in the layout before block files, which says where the run belongs
/// (kept so tests can write what earlier Rowkeys stored).
pub fn encode_placed_run_v2(run: &Run, place: &RunPlace) -> Vec<u8> {
    let mut w = Writer {
        out: Vec::with_capacity(run.bytes + 64 + place.table.len()),
    };
    w.varint(run.id);
    w.bytes(place.table.as_bytes());
    w.bytes(&place.family);
    w.bytes(&place.start);
    w.bytes(&place.end);
    write_cells(&mut w, &run.cells());
    frame_version(BlobKind::Run, PLACED_RUN_VERSION, &w.out)
}

/// A sorted run as it is stored: its block file's bytes, whose header says where the run
/// belongs. The bytes are the run's own unless `place` differs from what its header says (a
/// run a split kept whole, or one built without a place), when the header is written anew.
pub fn encode_placed_run(run: &Run, place: &RunPlace) -> Vec<u8> {
    let h = run.file().header();
    if h.table == place.table
        && h.family == place.family
        && h.region_start == place.start
        && h.region_end == place.end
    {
        return run.file().to_bytes();
    }
    match run
        .file()
        .with_place(&place.table, &place.family, &place.start, &place.end)
    {
        Ok(file) => file.to_bytes(),
        Err(_) => run.file().to_bytes(),
    }
}

/// A sorted run as the saver stores it: its block file ([`encode_placed_run`]) with the run's
/// rows counted behind it ([`super::run_rows`]), so a reload need not count them from the cells.
pub fn encode_stored_run(run: &Run, place: &RunPlace) -> Vec<u8> {
    append_rows(encode_placed_run(run, place), &count_rows(run))
}

/// A run back from its record; every block's checksum is checked and any damage refuses it.
pub fn decode_run(bytes: &[u8]) -> Result<Run, CodecError> {
    decode_placed_run(bytes).map(|(run, _)| run)
}

/// A run and, when its record says it, where it belongs; any damage refuses it.
pub fn decode_placed_run(bytes: &[u8]) -> Result<(Run, Option<RunPlace>), CodecError> {
    let decoded = decode_stored_run(bytes)?;
    match decoded.damaged.into_iter().next() {
        Some(e) => Err(CodecError::Block(e)),
        None => Ok((decoded.run, decoded.place)),
    }
}

/// A stored run as loading reads it.
#[derive(Debug)]
pub struct StoredRun {
    pub run: Run,
    pub place: Option<RunPlace>,
    /// Data blocks whose checksum does not match: their cells are lost, the rest of the run
    /// reads.
    pub damaged: Vec<FormatError>,
    /// The record was in a layout before block files and was converted.
    pub migrated: bool,
    /// The run's rows as stored behind it, when they were and still fit the run (no block
    /// damaged, the cells adding up): the key index is built from them.
    pub rows: Option<Vec<KeyEntry>>,
}

/// A stored run, in either layout; a block file's damaged blocks are listed rather than
/// refusing the run (its header, index and bloom must be intact).
pub fn decode_stored_run(bytes: &[u8]) -> Result<StoredRun, CodecError> {
    if bytes.get(..4) == Some(&MAGIC[..]) {
        return decode_migrated_run(bytes);
    }
    open_stored_run(bytes.to_vec())
}

/// [`decode_stored_run`] of bytes it may keep: a block file becomes the run without a copy
/// (a reload's runs are most of its bytes).
pub fn decode_stored_run_owned(bytes: Vec<u8>) -> Result<StoredRun, CodecError> {
    if bytes.get(..4) == Some(&MAGIC[..]) {
        return decode_migrated_run(&bytes);
    }
    open_stored_run(bytes)
}

/// A run record in a layout before block files, written again as a block file.
fn decode_migrated_run(bytes: &[u8]) -> Result<StoredRun, CodecError> {
    let (id, cells, place) = decode_legacy_run(bytes)?;
    let family: Arc<[u8]> = match &place {
        Some(p) => Arc::from(p.family.as_slice()),
        None => cells
            .first()
            .map(|c| c.family.clone())
            .unwrap_or_else(|| Arc::from(&b""[..])),
    };
    let placement = RunPlacement {
        table: place.as_ref().map_or("", |p| p.table.as_str()),
        family: &family,
        start: place.as_ref().map_or(&[][..], |p| p.start.as_slice()),
        end: place.as_ref().map_or(&[][..], |p| p.end.as_slice()),
    };
    let run = Run::write(id, placement, FileOptions::default(), &cells);
    Ok(StoredRun {
        run,
        place,
        damaged: Vec::new(),
        migrated: true,
        rows: None,
    })
}

/// A block file's bytes (and the rows stored behind it) as a stored run, its damaged blocks
/// listed.
fn open_stored_run(bytes: Vec<u8>) -> Result<StoredRun, CodecError> {
    let (file, rows) = open_with_rows(bytes)?;
    let damaged = file.verify();
    Ok(checked_file_as_run(file, rows, damaged))
}

/// An opened block file whose blocks have all been checked, `damaged` those found damaged,
/// and the rows stored with it, as a stored run: its rows kept when they fit it.
pub(crate) fn checked_file_as_run(
    file: BlockFile,
    rows: Option<Vec<KeyEntry>>,
    damaged: Vec<FormatError>,
) -> StoredRun {
    let rows = rows.filter(|rows| damaged.is_empty() && rows_fit(rows, file.header().cells));
    let h = file.header();
    let place = (!h.table.is_empty()).then(|| RunPlace {
        table: h.table.clone(),
        family: h.family.clone(),
        start: h.region_start.clone(),
        end: h.region_end.clone(),
    });
    StoredRun {
        run: Run::from_file(file),
        place,
        damaged,
        migrated: false,
        rows,
    }
}

/// A run record in the layouts before block files.
fn decode_legacy_run(bytes: &[u8]) -> Result<(u64, Vec<Cell>, Option<RunPlace>), CodecError> {
    let (version, payload) = unframe_version(bytes, BlobKind::Run, PLACED_RUN_VERSION)?;
    let mut r = Reader { b: payload, at: 0 };
    let id = r.varint()?;
    let place = if version >= PLACED_RUN_VERSION {
        let table = String::from_utf8(r.bytes()?.to_vec())
            .map_err(|_| CodecError::Invalid("table name is not UTF-8".into()))?;
        Some(RunPlace {
            table,
            family: r.bytes()?.to_vec(),
            start: r.bytes()?.to_vec(),
            end: r.bytes()?.to_vec(),
        })
    } else {
        None
    };
    let cells = read_cells(&mut r)?;
    if !r.done() {
        return Err(CodecError::Invalid("bytes after the last cell".into()));
    }
    if cells.windows(2).any(|w| w[0] > w[1]) {
        return Err(CodecError::Invalid("cells out of order".into()));
    }
    Ok((id, cells, place))
}

/// Cells grouped by table (a log record or the memstores), with the engine's clocks.
pub fn encode_groups(
    kind: BlobKind,
    clocks: (u64, u64),
    groups: &[(String, Vec<Cell>)],
) -> Vec<u8> {
    let mut w = Writer { out: Vec::new() };
    w.varint(clocks.0);
    w.varint(clocks.1);
    w.varint(groups.len() as u64);
    for (table, cells) in groups {
        w.bytes(table.as_bytes());
        write_cells(&mut w, cells);
    }
    frame(kind, &w.out)
}

/// Groups and clocks back from a log or memstore record.
pub fn decode_groups(
    kind: BlobKind,
    bytes: &[u8],
) -> Result<((u64, u64), Vec<(String, Vec<Cell>)>), CodecError> {
    let mut r = Reader {
        b: unframe(bytes, kind)?,
        at: 0,
    };
    let clocks = (r.varint()?, r.varint()?);
    let n = r.varint()?;
    let mut groups = Vec::new();
    for _ in 0..n {
        let table = String::from_utf8(r.bytes()?.to_vec())
            .map_err(|_| CodecError::Invalid("table name is not UTF-8".into()))?;
        groups.push((table, read_cells(&mut r)?));
    }
    if !r.done() {
        return Err(CodecError::Invalid("bytes after the last group".into()));
    }
    Ok((clocks, groups))
}

/// The catalog as a record.
pub fn encode_catalog(catalog: &Catalog) -> Vec<u8> {
    encode_json_record(BlobKind::Catalog, &super::catalog::catalog_to_json(catalog))
}

/// A JSON value as a record of the given kind.
pub fn encode_json_record(kind: BlobKind, value: &json::Value) -> Vec<u8> {
    frame(kind, value.to_compact().as_bytes())
}

/// JSON text as a record of the given kind.
pub fn encode_json_text(kind: BlobKind, text: &str) -> Vec<u8> {
    frame(kind, text.as_bytes())
}

/// A record of the given kind, its JSON read by `read`.
pub fn decode_json_record<T>(
    kind: BlobKind,
    bytes: &[u8],
    read: impl FnOnce(&json::Node) -> Result<T, json::Error>,
) -> Result<T, CodecError> {
    decode_json_record_or(kind, bytes, |_| None, read)
}

/// A record of the given kind, its JSON text read by `direct` when it can (a reader of the
/// one shape Rowkey writes, building no value tree), else parsed and read by `read`, which
/// must read whatever `direct` does to the same result and gives the errors.
pub fn decode_json_record_or<T>(
    kind: BlobKind,
    bytes: &[u8],
    direct: impl FnOnce(&str) -> Option<T>,
    read: impl FnOnce(&json::Node) -> Result<T, json::Error>,
) -> Result<T, CodecError> {
    read_json_payload(unframe(bytes, kind)?, direct, read)
}

/// A record's JSON payload (already unframed), read as [`decode_json_record_or`] reads it.
pub(crate) fn read_json_payload<T>(
    payload: &[u8],
    direct: impl FnOnce(&str) -> Option<T>,
    read: impl FnOnce(&json::Node) -> Result<T, json::Error>,
) -> Result<T, CodecError> {
    let text = std::str::from_utf8(payload)
        .map_err(|_| CodecError::Invalid("the record's JSON is not UTF-8".into()))?;
    if let Some(out) = direct(text) {
        return Ok(out);
    }
    let value = json::parse(text).map_err(|e| CodecError::Invalid(e.to_string()))?;
    read(&json::Node::root(&value)).map_err(|e| CodecError::Invalid(e.to_string()))
}

/// A catalog record back.
pub fn decode_catalog(bytes: &[u8]) -> Result<Catalog, CodecError> {
    let catalog = decode_json_record(BlobKind::Catalog, bytes, super::catalog::catalog_from_json)?;
    if catalog.version > crate::engine::CATALOG_VERSION {
        return Err(CodecError::Invalid(format!(
            "catalog version {} is newer than this Rowkey understands",
            catalog.version
        )));
    }
    Ok(catalog)
}
