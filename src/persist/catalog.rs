//! The engine's saved state as JSON: the catalog, the activity histories beside it, and the
//! schema parts the export shares, written and read by hand through [`crate::json`].
//!
//! The text is the one serde's derived code wrote for these types (members in declaration
//! order, enums by variant name, bytes as arrays of numbers, a history's keys as base64 text),
//! so that every catalog and history a person saved before still reads: members serde let
//! default may be missing, the rest are required, and members this Rowkey does not know are
//! ignored. `tests/saved_formats.rs` holds records written by serde's code.

use std::fmt::Write as _;

use crate::engine::{
    Catalog, Counters, DeleteMasking, FamilyDescriptor, Grid, KeepDeletedCells, LastRead, Op,
    OpKind, OpStats, RegionEntry, RegionStats, Retention, Rules, SavedActivity, SplitMark,
    SplitRule, TableDescriptor, TableEntry, TableSettings, TimestampUnit,
};
use crate::json::{Error, Node, Value};
use crate::kit::base64::{self, Alphabet};
use crate::kit::order;
use crate::kit::sorted::SortedMap;

/// The longest grid a saved history may declare (a sparse grid is allocated whole).
const MAX_GRID: u64 = 1 << 22;

fn num(n: u64) -> Value {
    Value::from(n)
}

fn bytes(b: &[u8]) -> Value {
    Value::Array(b.iter().map(|&x| num(u64::from(x))).collect())
}

fn opt<T>(v: &Option<T>, write: impl Fn(&T) -> Value) -> Value {
    v.as_ref().map_or(Value::Null, write)
}

fn read_bytes(node: &Node) -> Result<Vec<u8>, Error> {
    node.list(|n| {
        let v = n.u64()?;
        u8::try_from(v).map_err(|_| n.error(format!("expected a byte from 0 to 255, found {v}")))
    })
}

fn read_u64s(node: &Node) -> Result<Vec<u64>, Error> {
    node.list(Node::u64)
}

/// A unit enum written by its variant's name: `names[i]` is `variants[i]`'s.
fn variant<T: Copy>(node: &Node, names: &[&str], variants: &[T]) -> Result<T, Error> {
    let name = node.variant(names)?;
    let i = names.iter().position(|n| *n == name).unwrap_or(0);
    variants
        .get(i)
        .copied()
        .ok_or_else(|| node.error("unknown variant"))
}

fn name_of<T: PartialEq>(value: T, names: &[&'static str], variants: &[T]) -> Value {
    let i = variants.iter().position(|v| *v == value).unwrap_or(0);
    Value::from(names.get(i).copied().unwrap_or_default())
}

const KEEP_NAMES: [&str; 3] = ["False", "True", "Ttl"];
const KEEP: [KeepDeletedCells; 3] = [
    KeepDeletedCells::False,
    KeepDeletedCells::True,
    KeepDeletedCells::Ttl,
];
const DELETES_NAMES: [&str; 2] = ["Markers", "NoMarkers"];
const DELETES: [DeleteMasking; 2] = [DeleteMasking::Markers, DeleteMasking::NoMarkers];
const RETENTION_NAMES: [&str; 2] = ["AtRead", "AtCompaction"];
const RETENTION: [Retention; 2] = [Retention::AtRead, Retention::AtCompaction];
const UNIT_NAMES: [&str; 2] = ["Milliseconds", "MicrosAtMillis"];
const UNITS: [TimestampUnit; 2] = [TimestampUnit::Milliseconds, TimestampUnit::MicrosAtMillis];
const SPLIT_NAMES: [&str; 2] = ["Size", "SizeAndLoad"];
const SPLITS: [SplitRule; 2] = [SplitRule::Size, SplitRule::SizeAndLoad];
const KIND_NAMES: [&str; 2] = ["Read", "Write"];
const KINDS: [OpKind; 2] = [OpKind::Read, OpKind::Write];

/// The catalog as JSON, every object's members sorted by name (the catalog was written through
/// a `serde_json::Value`, whose objects sort their members).
pub fn catalog_to_json(c: &Catalog) -> Value {
    sorted(Value::object(vec![
        ("version", Value::from(c.version)),
        ("last_ts", num(c.last_ts)),
        ("seq", num(c.seq)),
        ("tick", num(c.tick)),
        ("next_id", num(c.next_id)),
        ("counters", counters_to_json(&c.counters)),
        (
            "tables",
            Value::Array(c.tables.iter().map(table_entry_to_json).collect()),
        ),
    ]))
}

/// Writes catalogs as [`catalog_to_json`]'s compact text, keeping each table's text from one
/// write to the next: a table whose entry is unchanged is not encoded again, so a checkpoint
/// during a long batch encodes the table the batch writes to, not every region of every table
/// (fifteen thousand regions of a ten-million-cell table took a second and a half a time).
#[derive(Debug, Default)]
pub struct CatalogWriter {
    /// Each table's entry as last written, and its text.
    tables: SortedMap<String, (TableEntry, String)>,
}

impl CatalogWriter {
    /// The catalog's text, the same as `catalog_to_json(&c).to_compact()`.
    pub fn write(&mut self, c: Catalog) -> String {
        let mut kept = SortedMap::new();
        let mut out = String::new();
        // The top level's members in name order, as `sorted` puts them.
        out.push_str("{\"counters\":");
        out.push_str(&sorted(counters_to_json(&c.counters)).to_compact());
        let _ = write!(
            out,
            ",\"last_ts\":{},\"next_id\":{},\"seq\":{},\"tables\":[",
            c.last_ts, c.next_id, c.seq
        );
        for (i, t) in c.tables.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let text = match self.tables.remove(&t.descriptor.name) {
                Some((before, text)) if before == t => text,
                _ => sorted(table_entry_to_json(&t)).to_compact(),
            };
            out.push_str(&text);
            kept.insert(t.descriptor.name.clone(), (t, text));
        }
        let _ = write!(out, "],\"tick\":{},\"version\":{}}}", c.tick, c.version);
        self.tables = kept;
        out
    }
}

/// `value` with the members of every object in it sorted by name.
fn sorted(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        Value::Object(members) => {
            let mut members: Vec<(String, Value)> =
                members.into_iter().map(|(k, v)| (k, sorted(v))).collect();
            order::sort_by(&mut members, |a, b| a.0.cmp(&b.0));
            Value::Object(members)
        }
        other => other,
    }
}

/// A catalog back from its JSON.
pub fn catalog_from_json(node: &Node) -> Result<Catalog, Error> {
    let f = node.members()?;
    Ok(Catalog {
        version: f.read("version", Node::u32)?,
        last_ts: f.read("last_ts", Node::u64)?,
        seq: f.read("seq", Node::u64)?,
        tick: f.read("tick", Node::u64)?,
        next_id: f.read("next_id", Node::u64)?,
        counters: f.read("counters", counters_from_json)?,
        tables: f.list("tables", table_entry_from_json)?,
    })
}

const COUNTER_NAMES: [&str; 8] = [
    "mutations",
    "cells_written",
    "logical_bytes",
    "flush_bytes",
    "compaction_bytes",
    "flushes",
    "compactions",
    "splits",
];

fn counters_to_json(c: &Counters) -> Value {
    let values = [
        c.mutations,
        c.cells_written,
        c.logical_bytes,
        c.flush_bytes,
        c.compaction_bytes,
        c.flushes,
        c.compactions,
        c.splits,
    ];
    Value::Object(
        COUNTER_NAMES
            .iter()
            .zip(values)
            .map(|(n, v)| (n.to_string(), num(v)))
            .collect(),
    )
}

fn counters_from_json(node: &Node) -> Result<Counters, Error> {
    let f = node.members()?;
    let mut v = [0u64; 8];
    for (slot, name) in v.iter_mut().zip(COUNTER_NAMES) {
        *slot = f.read(name, Node::u64)?;
    }
    let [mutations, cells_written, logical_bytes, flush_bytes, compaction_bytes, flushes, compactions, splits] =
        v;
    Ok(Counters {
        mutations,
        cells_written,
        logical_bytes,
        flush_bytes,
        compaction_bytes,
        flushes,
        compactions,
        splits,
    })
}

fn table_entry_to_json(t: &TableEntry) -> Value {
    Value::object(vec![
        ("descriptor", descriptor_to_json(&t.descriptor)),
        ("enabled", Value::from(t.enabled)),
        (
            "regions",
            Value::Array(t.regions.iter().map(region_to_json).collect()),
        ),
    ])
}

fn table_entry_from_json(node: &Node) -> Result<TableEntry, Error> {
    let f = node.members()?;
    Ok(TableEntry {
        descriptor: f.read("descriptor", descriptor_from_json)?,
        enabled: f.read("enabled", Node::bool)?,
        regions: f.list("regions", region_from_json)?,
    })
}

fn descriptor_to_json(d: &TableDescriptor) -> Value {
    Value::object(vec![
        ("name", Value::from(d.name.as_str())),
        ("families", families_to_json(&d.families)),
        ("settings", settings_to_json(&d.settings)),
        (
            "attributes",
            Value::Object(
                d.attributes
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                    .collect(),
            ),
        ),
        ("rules", rules_to_json(&d.rules)),
    ])
}

fn descriptor_from_json(node: &Node) -> Result<TableDescriptor, Error> {
    let f = node.members()?;
    let mut attributes = crate::kit::sorted::SortedMap::new();
    if let Some(a) = f.get("attributes") {
        a.members()?;
        if let Value::Object(members) = a.value() {
            for (name, value) in members {
                let Value::String(text) = value else {
                    return Err(a.error(format!("attribute `{name}`: expected a string")));
                };
                attributes.insert(name.clone(), text.clone());
            }
        }
    }
    Ok(TableDescriptor {
        name: f.read("name", Node::string)?,
        families: f.read("families", families_from_json)?,
        settings: f.read("settings", settings_from_json)?,
        attributes,
        rules: f.or("rules", Rules::default(), rules_from_json)?,
    })
}

/// Families as a list.
pub fn families_to_json(families: &[FamilyDescriptor]) -> Value {
    Value::Array(families.iter().map(family_to_json).collect())
}

/// Families back from a list.
pub fn families_from_json(node: &Node) -> Result<Vec<FamilyDescriptor>, Error> {
    node.list(family_from_json)
}

fn family_to_json(d: &FamilyDescriptor) -> Value {
    Value::object(vec![
        ("name", Value::from(d.name.as_str())),
        ("max_versions", Value::from(d.max_versions)),
        ("min_versions", Value::from(d.min_versions)),
        ("ttl_seconds", opt(&d.ttl_seconds, |s| num(*s))),
        (
            "keep_deleted_cells",
            name_of(d.keep_deleted_cells, &KEEP_NAMES, &KEEP),
        ),
        ("bloomfilter", Value::from(d.bloomfilter.as_str())),
        ("compression", Value::from(d.compression.as_str())),
        ("blocksize", num(d.blocksize)),
        ("in_memory", Value::from(d.in_memory)),
        ("blockcache", Value::from(d.blockcache)),
        (
            "data_block_encoding",
            Value::from(d.data_block_encoding.as_str()),
        ),
        ("replication_scope", Value::from(d.replication_scope)),
    ])
}

fn family_from_json(node: &Node) -> Result<FamilyDescriptor, Error> {
    let f = node.members()?;
    Ok(FamilyDescriptor {
        name: f.read("name", Node::string)?,
        max_versions: f.read("max_versions", Node::u32)?,
        min_versions: f.read("min_versions", Node::u32)?,
        ttl_seconds: f.optional("ttl_seconds", Node::u64)?,
        keep_deleted_cells: variant(&f.required("keep_deleted_cells")?, &KEEP_NAMES, &KEEP)?,
        bloomfilter: f.read("bloomfilter", Node::string)?,
        compression: f.read("compression", Node::string)?,
        blocksize: f.read("blocksize", Node::u64)?,
        in_memory: f.read("in_memory", Node::bool)?,
        blockcache: f.read("blockcache", Node::bool)?,
        data_block_encoding: f.read("data_block_encoding", Node::string)?,
        replication_scope: f.read("replication_scope", Node::u32)?,
    })
}

/// A table's settings.
pub fn settings_to_json(s: &TableSettings) -> Value {
    Value::object(vec![
        ("flush_bytes", num(s.flush_bytes)),
        ("compaction_threshold", num(s.compaction_threshold)),
        ("split_bytes", num(s.split_bytes)),
    ])
}

/// A table's settings back.
pub fn settings_from_json(node: &Node) -> Result<TableSettings, Error> {
    let f = node.members()?;
    Ok(TableSettings {
        flush_bytes: f.read("flush_bytes", Node::u64)?,
        compaction_threshold: f.read("compaction_threshold", Node::u64)?,
        split_bytes: f.read("split_bytes", Node::u64)?,
    })
}

pub(super) fn rules_to_json(r: &Rules) -> Value {
    Value::object(vec![
        ("deletes", name_of(r.deletes, &DELETES_NAMES, &DELETES)),
        (
            "retention",
            name_of(r.retention, &RETENTION_NAMES, &RETENTION),
        ),
        ("timestamps", name_of(r.timestamps, &UNIT_NAMES, &UNITS)),
        ("splits", name_of(r.splits, &SPLIT_NAMES, &SPLITS)),
    ])
}

/// Rules as a catalog stores them. A catalog saved before tables carried a split rule gives a
/// table without delete markers (a Bigtable table) Bigtable's.
pub(super) fn rules_from_json(node: &Node) -> Result<Rules, Error> {
    let f = node.members()?;
    let deletes = f.or("deletes", DeleteMasking::default(), |n| {
        variant(n, &DELETES_NAMES, &DELETES)
    })?;
    let splits = f.optional("splits", |n| variant(n, &SPLIT_NAMES, &SPLITS))?;
    Ok(Rules {
        deletes,
        retention: f.or("retention", Retention::default(), |n| {
            variant(n, &RETENTION_NAMES, &RETENTION)
        })?,
        timestamps: f.or("timestamps", TimestampUnit::default(), |n| {
            variant(n, &UNIT_NAMES, &UNITS)
        })?,
        splits: splits.unwrap_or(match deletes {
            DeleteMasking::Markers => SplitRule::Size,
            DeleteMasking::NoMarkers => SplitRule::SizeAndLoad,
        }),
    })
}

fn region_to_json(r: &RegionEntry) -> Value {
    Value::object(vec![
        ("id", num(r.id)),
        ("start", bytes(&r.start)),
        ("end", bytes(&r.end)),
        (
            "stats",
            Value::object(vec![
                ("reads", num(r.stats.reads)),
                ("writes", num(r.stats.writes)),
                ("bytes_read", num(r.stats.bytes_read)),
                ("bytes_written", num(r.stats.bytes_written)),
            ]),
        ),
        (
            "runs",
            Value::Array(
                r.runs
                    .iter()
                    .map(|ids| Value::Array(ids.iter().map(|&id| num(id)).collect()))
                    .collect(),
            ),
        ),
    ])
}

fn region_from_json(node: &Node) -> Result<RegionEntry, Error> {
    let f = node.members()?;
    let stats = f.required("stats")?;
    let s = stats.members()?;
    Ok(RegionEntry {
        id: f.read("id", Node::u64)?,
        start: f.read("start", read_bytes)?,
        end: f.read("end", read_bytes)?,
        stats: RegionStats {
            reads: s.read("reads", Node::u64)?,
            writes: s.read("writes", Node::u64)?,
            bytes_read: s.read("bytes_read", Node::u64)?,
            bytes_written: s.read("bytes_written", Node::u64)?,
        },
        runs: f.list("runs", read_u64s)?,
    })
}

/// A saved history (its operations apart, or inline as histories once were) as JSON.
pub fn activity_to_json(a: &SavedActivity) -> Value {
    Value::object(vec![
        // A saver stores the operations in chunks beside the head (its `ops` are empty); the
        // text of any is the chunks' writer's, read back as a value.
        (
            "ops",
            crate::json::parse(&ops_to_json(&a.ops)).unwrap_or(Value::Array(Vec::new())),
        ),
        ("grid", grid_to_json(&a.grid)),
        (
            "splits",
            Value::Array(a.splits.iter().map(split_to_json).collect()),
        ),
        ("last_read", opt(&a.last_read, last_read_to_json)),
        ("reads", num(a.reads)),
        ("writes", num(a.writes)),
        ("recorded", num(a.recorded)),
    ])
}

/// A saved history back from its JSON.
pub fn activity_from_json(node: &Node) -> Result<SavedActivity, Error> {
    let f = node.members()?;
    Ok(SavedActivity {
        ops: f.read("ops", ops_from_json)?,
        grid: f.read("grid", grid_from_json)?,
        splits: f.list("splits", split_from_json)?,
        last_read: f.optional("last_read", last_read_from_json)?,
        reads: f.read("reads", Node::u64)?,
        writes: f.read("writes", Node::u64)?,
        recorded: f.or("recorded", 0, Node::u64)?,
    })
}

/// Operations as a list, in compact text written straight (a history's chunk holds 4,096 of
/// them, and a value tree of each cost eight times serde's time).
pub fn ops_to_json(ops: &[Op]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(ops.len() * 100 + 2);
    out.push('[');
    for (i, op) in ops.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let kind = if op.kind == OpKind::Read {
            "Read"
        } else {
            "Write"
        };
        let _ = write!(
            out,
            r#"{{"kind":"{kind}","start":"{}","stop":"#,
            base64::encode(&op.start, Alphabet::Standard)
        );
        match &op.stop {
            Some(stop) => {
                let _ = write!(out, r#""{}""#, base64::encode(stop, Alphabet::Standard));
            }
            None => out.push_str("null"),
        }
        let _ = write!(
            out,
            r#","region":{},"tick":{},"wall_ms":{},"place":"#,
            op.region, op.tick, op.wall_ms
        );
        match Value::from(op.place) {
            Value::Number(text) => out.push_str(&text),
            _ => out.push_str("null"),
        }
        out.push('}');
    }
    out.push(']');
    out
}

/// Operations back from a list.
///
/// A history holds up to 100,000 of them, so each is read straight from its value; only when
/// one does not read that way does the list go through [`Node`]'s reader, for the error at its
/// path (the two read the same text the same way).
pub fn ops_from_json(node: &Node) -> Result<Vec<Op>, Error> {
    let Value::Array(items) = node.value() else {
        return node.list(op_from_json);
    };
    let mut ops = Vec::with_capacity(items.len());
    for item in items {
        match op_from_value(item) {
            Some(op) => ops.push(op),
            None => return node.list(op_from_json),
        }
    }
    Ok(ops)
}

/// [`op_from_json`] without paths: `None` for anything it would refuse.
fn op_from_value(value: &Value) -> Option<Op> {
    let Value::Object(members) = value else {
        return None;
    };
    let member = |name: &str| members.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let number = |name: &str| match member(name)? {
        Value::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        _ => None,
    };
    let key = |value: &Value| match value {
        Value::String(text) => base64::decode(text, Alphabet::Standard).ok(),
        Value::Array(items) => items
            .iter()
            .map(|b| match b {
                Value::Number(t) if t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok(),
                _ => None,
            })
            .collect(),
        _ => None,
    };
    let kind = match member("kind")? {
        Value::String(k) if k == "Read" => OpKind::Read,
        Value::String(k) if k == "Write" => OpKind::Write,
        _ => return None,
    };
    let stop = match member("stop") {
        None | Some(Value::Null) => None,
        Some(v) => Some(key(v)?),
    };
    let place = match member("place")? {
        Value::Number(text) => crate::decimal::parse_f64(text).filter(|x| x.is_finite())?,
        _ => return None,
    };
    Some(Op {
        kind,
        start: key(member("start")?)?,
        stop,
        region: number("region")?,
        tick: number("tick")?,
        wall_ms: number("wall_ms")?,
        place: place as f32,
    })
}

/// A key as base64 text, or as the array of bytes histories once held.
fn read_key(node: &Node) -> Result<Vec<u8>, Error> {
    match node.value() {
        Value::String(text) => base64::decode(text, Alphabet::Standard)
            .map_err(|e| node.error(format!("a key in base64: {e}"))),
        _ => read_bytes(node)
            .map_err(|_| node.error("expected a key as base64 text or as an array of bytes")),
    }
}

fn op_from_json(node: &Node) -> Result<Op, Error> {
    let f = node.members()?;
    Ok(Op {
        kind: variant(&f.required("kind")?, &KIND_NAMES, &KINDS)?,
        start: f.read("start", read_key)?,
        stop: f.optional("stop", read_key)?,
        region: f.read("region", Node::u64)?,
        tick: f.read("tick", Node::u64)?,
        wall_ms: f.read("wall_ms", Node::u64)?,
        place: f.read("place", Node::f64)? as f32,
    })
}

/// A grid's counts as `{"len": n, "at": [[index, count], ...]}` with the zeros left out.
fn sparse(values: &[u64]) -> Value {
    Value::object(vec![
        ("len", num(values.len() as u64)),
        (
            "at",
            Value::Array(
                values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v != 0)
                    .map(|(i, v)| Value::Array(vec![num(i as u64), num(*v)]))
                    .collect(),
            ),
        ),
    ])
}

/// Counts written sparse, or dense (a plain list) as grids once were.
fn read_sparse(node: &Node) -> Result<Vec<u64>, Error> {
    if let Value::Array(_) = node.value() {
        return read_u64s(node);
    }
    let f = node.members()?;
    let len = f.read("len", Node::u64)?;
    if len > MAX_GRID {
        return Err(node.error(format!("a grid of {len} entries")));
    }
    let mut values = vec![0; len as usize];
    for pair in f.required("at")?.items()? {
        let (i, v) = match pair.items()?.as_slice() {
            [i, v] => (i.u64()?, v.u64()?),
            _ => return Err(pair.error("expected [index, count]")),
        };
        let slot = usize::try_from(i).ok().and_then(|i| values.get_mut(i));
        *slot.ok_or_else(|| pair.error(format!("entry {i} past the grid's {len}")))? = v;
    }
    Ok(values)
}

fn read_u32s(node: &Node) -> Result<Vec<u32>, Error> {
    read_sparse(node)?
        .into_iter()
        .map(|v| {
            u32::try_from(v)
                .map_err(|_| node.error(format!("a count of {v} is above {}", u32::MAX)))
        })
        .collect()
}

fn grid_to_json(g: &Grid) -> Value {
    let wide = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>();
    Value::object(vec![
        ("origin", opt(&g.origin, |o| num(*o))),
        ("width", num(g.width)),
        ("reads", sparse(&wide(&g.reads))),
        ("writes", sparse(&wide(&g.writes))),
        ("wall_ms", sparse(&g.wall_ms)),
    ])
}

fn grid_from_json(node: &Node) -> Result<Grid, Error> {
    let f = node.members()?;
    Ok(Grid {
        origin: f.optional("origin", Node::u64)?,
        width: f.read("width", Node::u64)?,
        reads: f.read("reads", read_u32s)?,
        writes: f.read("writes", read_u32s)?,
        wall_ms: f.read("wall_ms", read_sparse)?,
    })
}

fn split_to_json(s: &SplitMark) -> Value {
    Value::object(vec![
        ("tick", num(s.tick)),
        ("wall_ms", num(s.wall_ms)),
        ("parent", num(s.parent)),
        ("lower", num(s.lower)),
        ("upper", num(s.upper)),
        ("key", bytes(&s.key)),
        ("position", Value::from(s.position)),
    ])
}

fn split_from_json(node: &Node) -> Result<SplitMark, Error> {
    let f = node.members()?;
    Ok(SplitMark {
        tick: f.read("tick", Node::u64)?,
        wall_ms: f.read("wall_ms", Node::u64)?,
        parent: f.read("parent", Node::u64)?,
        lower: f.read("lower", Node::u64)?,
        upper: f.read("upper", Node::u64)?,
        key: f.read("key", read_bytes)?,
        position: f.read("position", Node::f64)?,
    })
}

fn last_read_to_json(r: &LastRead) -> Value {
    Value::object(vec![
        ("start", bytes(&r.start)),
        ("stop", bytes(&r.stop)),
        ("stop_inclusive", Value::from(r.stop_inclusive)),
        ("reversed", Value::from(r.reversed)),
        ("get", Value::from(r.get)),
        ("tick", num(r.tick)),
        ("first_examined", opt(&r.first_examined, |k| bytes(k))),
        ("last_examined", opt(&r.last_examined, |k| bytes(k))),
        ("stats", op_stats_to_json(&r.stats)),
    ])
}

fn last_read_from_json(node: &Node) -> Result<LastRead, Error> {
    let f = node.members()?;
    Ok(LastRead {
        start: f.read("start", read_bytes)?,
        stop: f.read("stop", read_bytes)?,
        stop_inclusive: f.read("stop_inclusive", Node::bool)?,
        reversed: f.read("reversed", Node::bool)?,
        get: f.read("get", Node::bool)?,
        tick: f.read("tick", Node::u64)?,
        first_examined: f.optional("first_examined", read_bytes)?,
        last_examined: f.optional("last_examined", read_bytes)?,
        stats: f.read("stats", op_stats_from_json)?,
    })
}

/// An operation's counters after `regions`, `memstores_touched` and `runs_touched`, in
/// order, and whether a saved one may lack it (the counters added since histories were first
/// saved).
const OP_COUNTERS: [(&str, bool); 14] = [
    ("rows_examined", false),
    ("rows_filtered", true),
    ("rows_returned", false),
    ("cells_examined", false),
    ("cells_returned", false),
    ("bytes_read", false),
    ("bytes_returned", true),
    ("cells_written", false),
    ("bytes_written", false),
    ("blocks_read", true),
    ("block_bytes_read", true),
    ("blocks_skipped", true),
    ("runs_skipped_bloom", true),
    ("runs_skipped_range", true),
];

fn op_counters(s: &OpStats) -> [u64; 14] {
    [
        s.rows_examined,
        s.rows_filtered,
        s.rows_returned,
        s.cells_examined,
        s.cells_returned,
        s.bytes_read,
        s.bytes_returned,
        s.cells_written,
        s.bytes_written,
        s.blocks_read,
        s.block_bytes_read,
        s.blocks_skipped,
        s.runs_skipped_bloom,
        s.runs_skipped_range,
    ]
}

fn op_stats_to_json(s: &OpStats) -> Value {
    let mut members = vec![
        (
            "regions".to_string(),
            Value::Array(s.regions.iter().map(|&r| num(r)).collect()),
        ),
        (
            "memstores_touched".to_string(),
            Value::from(s.memstores_touched),
        ),
        ("runs_touched".to_string(), Value::from(s.runs_touched)),
    ];
    for ((name, _), v) in OP_COUNTERS.iter().zip(op_counters(s)) {
        members.push((name.to_string(), num(v)));
    }
    Value::Object(members)
}

fn op_stats_from_json(node: &Node) -> Result<OpStats, Error> {
    let f = node.members()?;
    let mut v = [0u64; 14];
    for (slot, (name, optional)) in v.iter_mut().zip(OP_COUNTERS) {
        *slot = if optional {
            f.or(name, 0, Node::u64)?
        } else {
            f.read(name, Node::u64)?
        };
    }
    let [rows_examined, rows_filtered, rows_returned, cells_examined, cells_returned, bytes_read, bytes_returned, cells_written, bytes_written, blocks_read, block_bytes_read, blocks_skipped, runs_skipped_bloom, runs_skipped_range] =
        v;
    Ok(OpStats {
        regions: f.read("regions", read_u64s)?,
        memstores_touched: f.read("memstores_touched", Node::u32)?,
        runs_touched: f.read("runs_touched", Node::u32)?,
        rows_examined,
        rows_filtered,
        rows_returned,
        cells_examined,
        cells_returned,
        bytes_read,
        bytes_returned,
        cells_written,
        bytes_written,
        blocks_read,
        block_bytes_read,
        blocks_skipped,
        runs_skipped_bloom,
        runs_skipped_range,
    })
}
