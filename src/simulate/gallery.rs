//! Workloads for the gallery's designs, by design id: each design's tables under traffic true
//! to it.

use super::workload::Workload;

/// The ids that have a workload.
pub fn ids() -> Vec<&'static str> {
    WORKLOADS.iter().map(|(id, _)| *id).collect()
}

/// The workload of design `id`.
pub fn workload(id: &str) -> Option<Workload> {
    WORKLOADS
        .iter()
        .find(|(i, _)| *i == id)
        .and_then(|(_, text)| Workload::from_json(text).ok())
}

/// Each design's workload, as JSON.
const WORKLOADS: &[(&str, &str)] = &[(
    "schema.sequential-ids",
    // 2,000 sign-ups a second of 1 KB rows into each table, 20,000 gets a second of users
    // signed up in the last hour, 8 region servers, the default policy and sizes, seed 1.
    r#"{
  "version": 1,
  "seed": 1,
  "duration_ms": 86400000,
  "cluster": {"region_servers": 8, "server_reads_per_sec": 20000, "server_writes_per_sec": 10000},
  "tables": [
    {"name": "sg_seq", "unique": true,
     "families": [{"name": "u", "columns": [{"qualifier": "name", "value_size": 1024}]}],
     "key": [{"kind": "sequence", "name": "id", "start": 1000000000}],
     "operations": [
       {"kind": "put_new", "name": "sign-up", "rate": {"per_sec": 2000}},
       {"kind": "get", "name": "look up a recent user", "rate": {"per_sec": 20000}, "choose": {"within_ms": {"ms": 3600000}}}
     ]},
    {"name": "sg_seq_rev", "unique": true,
     "families": [{"name": "u", "columns": [{"qualifier": "name", "value_size": 1024}]}],
     "key": [{"kind": "sequence", "name": "id", "start": 1000000000, "format": {"reverse": true}}],
     "operations": [
       {"kind": "put_new", "name": "sign-up", "rate": {"per_sec": 2000}},
       {"kind": "get", "name": "look up a recent user", "rate": {"per_sec": 20000}, "choose": {"within_ms": {"ms": 3600000}}}
     ]}
  ]
}"#,
)];
