//! Workloads for the gallery: every design and every compare pair under traffic true to it,
//! at a cluster's scale. Each is a workload document (the format of [`Workload`], which a
//! person can write too) under `gallery/`, named after its design (`gallery/<id>.json`) or
//! its pair (`gallery/compare/<id>.json`), with the tables its design creates. Rates, sizes
//! and clusters are the design's world made large (a service's sign-ups, a monitoring
//! system's metrics, a social network's posts); the keys are the design's keys.
//!
//! Beside each document stands what its run shows: for the few designs whose lesson is not
//! about traffic (a filter's semantics, a write cut short), which of its figures the traffic
//! makes visible.

use super::workload::Workload;

/// A design or pair id and its workload document.
type Entry = (&'static str, &'static str);

/// The entry of a design id: its document is `gallery/<id>.json`.
macro_rules! design {
    ($id:literal) => {
        ($id, include_str!(concat!("gallery/", $id, ".json")))
    };
}

/// The entry of a compare pair id: its document is `gallery/compare/<id>.json`.
macro_rules! pair {
    ($id:literal) => {
        ($id, include_str!(concat!("gallery/compare/", $id, ".json")))
    };
}

/// Every design's workload, in the catalogue's order.
const DESIGNS: &[Entry] = &[
    design!("schema.sequential-ids"),
    design!("schema.metric-timestamp"),
    design!("schema.hashed-id"),
    design!("schema.salting"),
    design!("schema.hash-vs-reverse"),
    design!("schema.frequent-updates"),
    design!("schema.tall-vs-wide"),
    design!("schema.mentions"),
    design!("schema.short-names"),
    design!("weibo.posts"),
    design!("weibo.inbox"),
    design!("cases.user-action"),
    design!("cases.access-log"),
    design!("csdn.blog"),
];

/// Every compare pair's workload: the pair's A and B tables, in that order, on one cluster
/// under the same traffic.
const PAIRS: &[Entry] = &[pair!("sequential-vs-hashed"), pair!("plain-vs-salted")];

/// The design ids that have a workload.
pub fn ids() -> Vec<&'static str> {
    DESIGNS.iter().map(|(id, _)| *id).collect()
}

/// The workload document of design `id`, as it is stored.
pub fn document(id: &str) -> Option<&'static str> {
    find(DESIGNS, id)
}

/// The workload of design `id`.
pub fn workload(id: &str) -> Option<Workload> {
    document(id).and_then(|text| Workload::from_json(text).ok())
}

/// The compare pair ids that have a workload.
pub fn pair_ids() -> Vec<&'static str> {
    PAIRS.iter().map(|(id, _)| *id).collect()
}

/// The workload document of compare pair `id`, as it is stored.
pub fn pair_document(id: &str) -> Option<&'static str> {
    find(PAIRS, id)
}

/// The workload of compare pair `id`: its tables are the pair's A and B tables, in that order.
pub fn pair_workload(id: &str) -> Option<Workload> {
    pair_document(id).and_then(|text| Workload::from_json(text).ok())
}

fn find(entries: &[Entry], id: &str) -> Option<&'static str> {
    entries
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, text)| *text)
}
