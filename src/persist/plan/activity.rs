//! Activity, stored beside the catalog.
//!
//! The explorer's activity history (the engine's bounded per-table model) changes with every
//! read and write; it is stored in its own object store so the catalog stays small: a head
//! record per table and its operations in chunks ([`ActivityWrites`]). `Saver::encode_activity`
//! and `join_activity` are the only places that know how. Heads are JSON with their grid in
//! binary ([`crate::persist::grid_binary`]), chunks binary ([`crate::persist::chunk_binary`]);
//! heads and chunks stored as JSON by earlier Rowkeys still read.

use crate::engine::{Activity, Engine, Op, SavedActivity};
use crate::json::Node;
use crate::kit::sorted::{SortedMap, SortedSet};
use crate::persist::catalog::{activity_from_json, activity_to_json, ops_from_json};
use crate::persist::chunk_binary::{
    decode_binary_chunk, encode_binary_chunk, BINARY_CHUNK_VERSION,
};
use crate::persist::chunk_text::read_chunk;
use crate::persist::codec::{frame_version, read_json_payload, unframe_version, BlobKind};
use crate::persist::grid_binary::{
    decode_head_payload, empty_grid, encode_head_payload, BINARY_HEAD_VERSION,
};

pub(super) type ActivityMarker = (u64, u64, usize, Option<u64>);

/// Operations per stored chunk of a history.
pub const OPS_PER_CHUNK: u64 = 4096;

pub(super) fn chunk_key(table: &str, chunk: u64) -> String {
    format!("{table}#{chunk:012}")
}

/// A chunk of a history's operations, numbered from `first`.
#[derive(Clone, Debug)]
pub struct OpsChunk {
    pub(super) first: u64,
    pub(super) ops: Vec<Op>,
}

impl OpsChunk {
    /// The chunk as its record, in binary ([`crate::persist::chunk_binary`]).
    pub(super) fn encode(&self) -> Vec<u8> {
        encode_binary_chunk(self.first, &self.ops)
    }

    /// A chunk back from its record, binary or JSON.
    pub(super) fn decode(bytes: &[u8]) -> Result<OpsChunk, crate::persist::CodecError> {
        let (version, payload) = unframe_version(bytes, BlobKind::Activity, BINARY_CHUNK_VERSION)?;
        if version == BINARY_CHUNK_VERSION {
            let (first, ops) = decode_binary_chunk(payload)?;
            return Ok(OpsChunk { first, ops });
        }
        let direct = |text: &str| read_chunk(text).map(|(first, ops)| OpsChunk { first, ops });
        read_json_payload(payload, direct, |node: &Node| {
            let f = node.members()?;
            Ok(OpsChunk {
                first: f.read("first", Node::u64)?,
                ops: f.read("ops", ops_from_json)?,
            })
        })
    }
}

/// A history's head record: everything but the operations, which are stored in chunks.
pub(super) fn encode_head(activity: &Activity) -> Vec<u8> {
    let head = SavedActivity {
        ops: Vec::new(),
        grid: empty_grid(),
        splits: activity.splits().cloned().collect(),
        last_read: activity.last_read().cloned(),
        reads: activity.reads,
        writes: activity.writes,
        recorded: activity.recorded(),
    };
    let json = activity_to_json(&head).to_compact();
    frame_version(
        BlobKind::Activity,
        BINARY_HEAD_VERSION,
        &encode_head_payload(&json, &activity.grid),
    )
}

/// A head record back, its grid in binary or in JSON (with the operations a history once held
/// inline).
pub fn decode_head(bytes: &[u8]) -> Result<Activity, crate::persist::CodecError> {
    let (version, payload) = unframe_version(bytes, BlobKind::Activity, BINARY_HEAD_VERSION)?;
    if version == BINARY_HEAD_VERSION {
        let (json, grid) = decode_head_payload(payload)?;
        let saved = read_json_payload(json.as_bytes(), |_| None, activity_from_json)?;
        return Ok(Activity::from_saved(SavedActivity { grid, ..saved }));
    }
    read_json_payload(
        payload,
        |_| None,
        |node: &Node| activity_from_json(node).map(Activity::from_saved),
    )
}

/// What the saver last stored of one table's history.
#[derive(Clone, Debug, Default)]
pub(super) struct StoredHistory {
    pub(super) marker: Option<ActivityMarker>,
    /// Operations numbered below this are stored.
    pub(super) upto: u64,
    /// The engine tick of the last operation stored (numbered `upto - 1`), when it is known:
    /// a table made again under the name between two saves numbers its operations from 0
    /// again, and its operation of that number has another tick.
    pub(super) last_tick: Option<u64>,
    pub(super) chunks: SortedSet<u64>,
}

/// An activity record decoded as it was read (the browser's reader decodes each while the
/// browser reads the ones after it): a table's head, a chunk of its operations, or a record
/// whose key is not Rowkey's. A record that does not decode keeps why.
#[derive(Clone, Debug)]
pub enum OpenedActivity {
    Head {
        table: String,
        head: Result<Activity, String>,
    },
    Chunk {
        table: String,
        number: u64,
        chunk: Result<OpsChunk, String>,
    },
    Foreign,
}

/// Decodes the activity record stored under `key`.
pub fn open_activity(key: &str, bytes: &[u8]) -> OpenedActivity {
    match key.split_once('#') {
        None => OpenedActivity::Head {
            table: key.to_string(),
            head: decode_head(bytes).map_err(|e| e.to_string()),
        },
        Some((table, n)) => match n.parse::<u64>() {
            Ok(number) => OpenedActivity::Chunk {
                table: table.to_string(),
                number,
                chunk: OpsChunk::decode(bytes).map_err(|e| e.to_string()),
            },
            Err(_) => OpenedActivity::Foreign,
        },
    }
}

/// Puts the stored histories back into a restored engine: each table's head with the
/// operations of its chunks, from the records `opened` as they were read and those in
/// `records`. Returns what the store holds of each (so the first checkpoint writes only what
/// changes); a damaged record is reported and its history starts again (a damaged chunk loses
/// only its operations).
pub(super) fn join_activity(
    engine: &mut Engine,
    records: &SortedMap<String, Vec<u8>>,
    mut opened: Vec<(String, OpenedActivity)>,
    problems: &mut Vec<String>,
) -> SortedMap<String, StoredHistory> {
    for (key, bytes) in records {
        opened.push((key.clone(), open_activity(key, bytes)));
    }
    // In key order: a table's chunks follow one another, by number (their keys are padded).
    let mut heads: Vec<(String, Result<Activity, String>)> = Vec::new();
    let mut chunks: Vec<(String, String, Result<OpsChunk, String>)> = Vec::new();
    let mut stored: SortedMap<String, StoredHistory> = SortedMap::new();
    for (key, record) in opened {
        match record {
            OpenedActivity::Head { table, head } => heads.push((table, head)),
            OpenedActivity::Chunk {
                table,
                number,
                chunk,
            } => {
                stored
                    .entry(table.clone())
                    .or_default()
                    .chunks
                    .insert(number);
                chunks.push((table, key, chunk));
            }
            OpenedActivity::Foreign => problems.push(format!(
                "the activity record {} is not Rowkey's; left alone",
                crate::kit::text::quoted(&key)
            )),
        }
    }
    for (table, head) in heads {
        let head = match head {
            Ok(h) => h,
            Err(e) => {
                problems.push(format!(
                    "the activity history of table {table} is damaged ({e}); it starts again"
                ));
                continue;
            }
        };
        let end = head.recorded();
        let mut ops = Vec::new();
        let mut next = 0u64;
        for (_, key, chunk) in chunks.iter_mut().filter(|c| c.0 == table) {
            match std::mem::replace(chunk, Err(String::new())) {
                Ok(mut c) => {
                    // The chunk's operations numbered from `next` (none twice) and below `end`,
                    // moved over as one stretch.
                    let len = c.ops.len() as u64;
                    let from = next.max(c.first) - c.first;
                    let to = end.min(c.first.saturating_add(len)).saturating_sub(c.first);
                    if from < to {
                        // Both are at most the chunk's length.
                        let range = from as usize..to as usize;
                        if ops.is_empty() && from == 0 {
                            c.ops.truncate(range.end);
                            ops = c.ops;
                        } else {
                            ops.extend(c.ops.drain(range));
                        }
                        next = c.first + to;
                    }
                }
                Err(e) => problems.push(format!(
                    "a part of the activity history of table {table} ({key}) is damaged ({e}); the rest is kept"
                )),
            }
        }
        engine.restore_activity(&table, head.with_ops(ops));
        if let Some(a) = engine.activity(&table) {
            let entry = stored.entry(table).or_default();
            entry.marker = Some(a.marker());
            entry.upto = a.recorded();
            entry.last_tick = last_tick(a, entry.upto);
        }
    }
    stored
}

/// The tick of `activity`'s operation numbered `upto - 1`, when it still holds it.
pub(super) fn last_tick(activity: &Activity, upto: u64) -> Option<u64> {
    let last = upto.checked_sub(1)?;
    activity.ops_between(last, upto).next().map(|op| op.tick)
}
