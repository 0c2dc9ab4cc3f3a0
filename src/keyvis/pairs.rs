//! A day of traffic for the compare pairs whose two sides differ in their row key: one
//! workload holding both sides' tables on one cluster, under the same operations, so the
//! two play out on one timeline.

use crate::simulate::Workload;

/// The workload of compare pair `id`, when it has one: its tables are the pair's A and B
/// tables, in that order.
pub fn pair_workload(id: &str) -> Option<Workload> {
    PAIRS
        .iter()
        .find(|(i, _)| *i == id)
        .and_then(|(_, text)| Workload::from_json(text).ok())
}

const PAIRS: &[(&str, &str)] = &[
    (
        "sequential-vs-hashed",
        // 2,000 sign-ups a second of 1 KB rows, 10,000 gets a second of users of the last hour.
        r#"{"version": 1, "seed": 1, "duration_ms": 43200000, "cluster": {"region_servers": 8, "server_reads_per_sec": 20000, "server_writes_per_sec": 10000},
  "tables": [
    {"name": "ab_seq", "unique": true,
     "families": [{"name": "u", "columns": [{"qualifier": "name", "value_size": 1024}]}],
     "key": [{"kind": "sequence", "name": "id", "start": 100000}],
     "operations": [
       {"kind": "put_new", "name": "sign-up", "rate": {"per_sec": 2000}},
       {"kind": "get", "name": "look up a recent user", "rate": {"per_sec": 10000}, "choose": {"within_ms": {"ms": 3600000}}}]},
    {"name": "ab_hashed", "unique": true,
     "families": [{"name": "u", "columns": [{"qualifier": "name", "value_size": 1024}]}],
     "key": [{"kind": "salt", "buckets": 1000, "of": "id"}, {"kind": "constant", "text": ":"},
             {"kind": "sequence", "name": "id", "start": 100000}],
     "pre_split": ["125", "250", "375", "500", "625", "750", "875"],
     "operations": [
       {"kind": "put_new", "name": "sign-up", "rate": {"per_sec": 2000}},
       {"kind": "get", "name": "look up a recent user", "rate": {"per_sec": 10000}, "choose": {"within_ms": {"ms": 3600000}}}]}
  ]}"#,
    ),
    (
        "plain-vs-salted",
        // 3,000 events a second, keyed by time, and the last minute read back.
        r#"{"version": 1, "seed": 1, "duration_ms": 43200000, "cluster": {"region_servers": 8, "server_reads_per_sec": 20000, "server_writes_per_sec": 10000},
  "tables": [
    {"name": "ab_events",
     "families": [{"name": "e", "columns": [{"qualifier": "body", "value_size": 512}]}],
     "key": [{"kind": "timestamp", "name": "ts"}, {"kind": "entity", "name": "source", "count": 1000, "format": {"width": 4}}],
     "operations": [
       {"kind": "put_new", "name": "event", "rate": {"per_sec": 3000}},
       {"kind": "get", "name": "read a recent event", "rate": {"per_sec": 3000}, "choose": {"within_ms": {"ms": 60000}}}]},
    {"name": "ab_salted",
     "families": [{"name": "e", "columns": [{"qualifier": "body", "value_size": 512}]}],
     "key": [{"kind": "salt", "buckets": 8, "of": "ts"}, {"kind": "constant", "text": "-"},
             {"kind": "timestamp", "name": "ts"}, {"kind": "entity", "name": "source", "count": 1000, "format": {"width": 4}}],
     "pre_split": ["1", "2", "3", "4", "5", "6", "7"],
     "operations": [
       {"kind": "put_new", "name": "event", "rate": {"per_sec": 3000}},
       {"kind": "get", "name": "read a recent event", "rate": {"per_sec": 3000}, "choose": {"within_ms": {"ms": 60000}}}]}
  ]}"#,
    ),
];
