#![cfg(not(target_arch = "wasm32"))]
//! Model-based test: random mutations, flushes, compactions and splits run against the engine
//! and against a naive model that restates HBase's rules over plain vectors. Every get and
//! scan must agree. A divergence it finds is kept as a numbered regression test in this file.
mod common;
use common::*;
use proptest::prelude::*;
use rowkey::engine::{
    CellKind, Engine, FamilyDescriptor, Mutation, Scan, TableDescriptor, TableSettings,
};

const ROWS: &[&str] = &["a", "ab", "b", "b\u{0}", "c"];
const QUALS: &[&str] = &["x", "y"];
const NOW: u64 = 1_000;

#[derive(Clone, Debug)]
enum Op {
    Put {
        row: usize,
        q: usize,
        ts: Option<u64>,
        v: u8,
    },
    DeleteVersion {
        row: usize,
        q: usize,
        ts: Option<u64>,
    },
    DeleteColumn {
        row: usize,
        q: usize,
        ts: Option<u64>,
    },
    DeleteFamily {
        row: usize,
        ts: Option<u64>,
    },
    DeleteFamilyVersion {
        row: usize,
        ts: u64,
    },
    Flush,
    Compact,
    MajorCompact,
    Split(usize),
    Get {
        row: usize,
        versions: u32,
        range: (u64, u64),
    },
    Scan {
        start: usize,
        stop: usize,
        versions: u32,
        reversed: bool,
    },
}

fn ts() -> impl Strategy<Value = Option<u64>> {
    prop_oneof![Just(None), (1u64..6).prop_map(Some)]
}

fn op() -> impl Strategy<Value = Op> {
    let r = 0..ROWS.len();
    let q = 0..QUALS.len();
    prop_oneof![
        6 => (r.clone(), q.clone(), ts(), any::<u8>()).prop_map(|(row, q, ts, v)| Op::Put { row, q, ts, v }),
        2 => (r.clone(), q.clone(), ts()).prop_map(|(row, q, ts)| Op::DeleteVersion { row, q, ts }),
        2 => (r.clone(), q.clone(), ts()).prop_map(|(row, q, ts)| Op::DeleteColumn { row, q, ts }),
        1 => (r.clone(), ts()).prop_map(|(row, ts)| Op::DeleteFamily { row, ts }),
        1 => (r.clone(), 1u64..6).prop_map(|(row, ts)| Op::DeleteFamilyVersion { row, ts }),
        1 => Just(Op::Flush),
        1 => Just(Op::Compact),
        1 => Just(Op::MajorCompact),
        1 => (0..ROWS.len()).prop_map(Op::Split),
        3 => (r.clone(), 1u32..4, prop_oneof![Just((0u64, u64::MAX)), (0u64..4, 2u64..7)]).prop_map(|(row, versions, range)| Op::Get { row, versions, range }),
        2 => (0..=ROWS.len(), 0..=ROWS.len(), 1u32..4, any::<bool>()).prop_map(|(start, stop, versions, reversed)| Op::Scan { start, stop, versions, reversed }),
    ]
}

/// A model cell: (row, qualifier, ts, kind, seq, value).
type MCell = (Vec<u8>, Vec<u8>, u64, CellKind, u64, Vec<u8>);

/// The naive model: a memstore and a list of runs, each a plain vector.
struct Model {
    versions: u32,
    memstore: Vec<MCell>,
    runs: Vec<Vec<MCell>>,
    seq: u64,
    last_ts: u64,
}

impl Model {
    /// Is put `p` masked by any marker among `cells` (same row)?
    fn masked(p: &MCell, cells: &[&MCell]) -> bool {
        cells.iter().any(|m| {
            m.0 == p.0
                && match m.3 {
                    CellKind::DeleteFamily => m.2 >= p.2,
                    CellKind::DeleteFamilyVersion => m.2 == p.2,
                    CellKind::DeleteColumn => m.1 == p.1 && m.2 >= p.2,
                    CellKind::Delete => m.1 == p.1 && m.2 == p.2,
                    CellKind::Put => false,
                }
        })
    }

    /// Visible puts of one column, newest first: unmasked, one per timestamp (latest write).
    fn visible(&self, cells: &[&MCell], row: &[u8], q: &[u8], min_marker_ts: u64) -> Vec<MCell> {
        let markers: Vec<&MCell> = cells
            .iter()
            .copied()
            .filter(|c| c.3 != CellKind::Put && c.2 >= min_marker_ts)
            .collect();
        let mut puts: Vec<MCell> = cells
            .iter()
            .filter(|c| {
                c.3 == CellKind::Put && c.0 == row && c.1 == q && !Self::masked(c, &markers)
            })
            .map(|c| (*c).clone())
            .collect();
        puts.sort_by(|a, b| b.2.cmp(&a.2).then(b.4.cmp(&a.4)));
        puts.dedup_by(|later, earlier| later.2 == earlier.2);
        puts
    }

    fn all(&self) -> Vec<&MCell> {
        self.memstore
            .iter()
            .chain(self.runs.iter().flatten())
            .collect()
    }

    /// A column's versions as a read with `max` versions and a time range sees them.
    fn read(&self, row: &[u8], q: &[u8], max: u32, range: (u64, u64)) -> Vec<(u64, Vec<u8>)> {
        let all = self.all();
        let vis = self.visible(&all, row, q, range.0);
        vis.into_iter()
            .filter(|c| c.2 >= range.0 && c.2 < range.1)
            .take(max.min(self.versions) as usize)
            .map(|c| (c.2, c.5))
            .collect()
    }

    /// What a flush or compaction keeps of `cells`, column by column in cell order: masked
    /// puts and repeated timestamps go; once a column has `versions` puts, everything after
    /// them in that column goes too, delete markers included (HBase skips to the next
    /// column); a major compaction also drops every marker.
    fn rewrite(&self, mut cells: Vec<MCell>, major: bool) -> Vec<MCell> {
        cells.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.cmp(&b.1))
                .then(b.2.cmp(&a.2))
                .then((b.3 as u8).cmp(&(a.3 as u8)))
                .then(b.4.cmp(&a.4))
        });
        let markers: Vec<MCell> = cells
            .iter()
            .filter(|c| c.3 != CellKind::Put)
            .cloned()
            .collect();
        let marker_refs: Vec<&MCell> = markers.iter().collect();
        let mut keep = Vec::new();
        let mut column: Option<(Vec<u8>, Vec<u8>)> = None;
        let (mut count, mut last_ts, mut done) = (0u32, None, false);
        for c in cells {
            if column.as_ref() != Some(&(c.0.clone(), c.1.clone())) {
                column = Some((c.0.clone(), c.1.clone()));
                (count, last_ts, done) = (0, None, false);
            }
            if done {
                continue;
            }
            if c.3 != CellKind::Put {
                if !major {
                    keep.push(c);
                }
                continue;
            }
            if Self::masked(&c, &marker_refs) || last_ts == Some(c.2) {
                continue;
            }
            count += 1;
            if count > self.versions {
                done = true;
                continue;
            }
            last_ts = Some(c.2);
            keep.push(c);
        }
        keep
    }

    fn latest_ts(&self, row: &[u8], q: &[u8]) -> Option<u64> {
        self.read(row, q, 1, (0, u64::MAX)).first().map(|c| c.0)
    }

    /// The server's timestamp: the clock's, which stands still in this test, so every
    /// server-stamped write shares it and sequence numbers order them (as HBase does).
    fn server_ts(&mut self) -> u64 {
        self.last_ts = NOW;
        self.last_ts
    }

    fn write(&mut self, row: usize, q: &[u8], ts: u64, kind: CellKind, v: Vec<u8>) {
        self.seq += 1;
        self.memstore.push((
            ROWS[row].as_bytes().to_vec(),
            q.to_vec(),
            ts,
            kind,
            self.seq,
            v,
        ));
    }

    fn flush(&mut self) {
        let mem = std::mem::take(&mut self.memstore);
        if !mem.is_empty() {
            let run = self.rewrite(mem, false);
            self.runs.push(run);
        }
    }

    fn compact(&mut self, major: bool) {
        if self.runs.is_empty() || (!major && self.runs.len() < 2) {
            return;
        }
        let all: Vec<MCell> = self.runs.drain(..).flatten().collect();
        let run = self.rewrite(all, major);
        self.runs.push(run);
    }
}

fn engine_read(e: &mut Engine, scan: &mut Scan) -> Vec<(Vec<u8>, Vec<u8>, u64, Vec<u8>)> {
    match e.scan("t", scan) {
        Ok(out) => out
            .rows
            .into_iter()
            .flat_map(|r| {
                r.cells
                    .into_iter()
                    .map(|c| (c.row, c.qualifier, c.timestamp, c.value))
            })
            .collect(),
        Err(err) => panic!("read failed: {err}"),
    }
}

fn model_rows(
    m: &Model,
    rows: &[&str],
    versions: u32,
    range: (u64, u64),
) -> Vec<(Vec<u8>, Vec<u8>, u64, Vec<u8>)> {
    let mut out = Vec::new();
    for row in rows {
        for q in QUALS {
            for (ts, v) in m.read(row.as_bytes(), q.as_bytes(), versions, range) {
                out.push((row.as_bytes().to_vec(), q.as_bytes().to_vec(), ts, v));
            }
        }
    }
    out
}

fn check(ops: &[Op], versions: u32) -> Result<(), TestCaseError> {
    let clock = Clock::at(NOW);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.max_versions = versions;
    let mut desc = TableDescriptor::new("t", vec![f]);
    desc.settings = TableSettings {
        flush_bytes: usize::MAX,
        compaction_threshold: usize::MAX,
        split_bytes: 0,
    };
    e.create_table(desc, vec![])
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut m = Model {
        versions,
        memstore: Vec::new(),
        runs: Vec::new(),
        seq: 0,
        last_ts: 0,
    };
    let fam = || b"f".to_vec();
    for (step, op) in ops.iter().enumerate() {
        let mutation = |e: &mut Engine, row: usize, mu: Mutation| {
            e.mutate("t", ROWS[row].as_bytes(), &[mu])
                .map(|_| ())
                .map_err(|er| TestCaseError::fail(er.to_string()))
        };
        match op.clone() {
            Op::Put { row, q, ts, v } => {
                mutation(
                    &mut e,
                    row,
                    Mutation::Put {
                        family: fam(),
                        qualifier: QUALS[q].into(),
                        timestamp: ts,
                        value: vec![v],
                        ttl_ms: None,
                    },
                )?;
                let t = ts.unwrap_or_else(|| m.server_ts());
                m.write(row, QUALS[q].as_bytes(), t, CellKind::Put, vec![v]);
            }
            Op::DeleteVersion { row, q, ts } => {
                let resolved =
                    ts.or_else(|| m.latest_ts(ROWS[row].as_bytes(), QUALS[q].as_bytes()));
                mutation(
                    &mut e,
                    row,
                    Mutation::Delete {
                        family: fam(),
                        qualifier: Some(QUALS[q].into()),
                        timestamp: ts,
                        all_versions: false,
                    },
                )?;
                let t = resolved.unwrap_or_else(|| m.server_ts());
                m.write(row, QUALS[q].as_bytes(), t, CellKind::Delete, vec![]);
            }
            Op::DeleteColumn { row, q, ts } => {
                mutation(
                    &mut e,
                    row,
                    Mutation::Delete {
                        family: fam(),
                        qualifier: Some(QUALS[q].into()),
                        timestamp: ts,
                        all_versions: true,
                    },
                )?;
                let t = ts.unwrap_or_else(|| m.server_ts());
                m.write(row, QUALS[q].as_bytes(), t, CellKind::DeleteColumn, vec![]);
            }
            Op::DeleteFamily { row, ts } => {
                mutation(&mut e, row, Mutation::DeleteRow { timestamp: ts })?;
                let t = ts.unwrap_or_else(|| m.server_ts());
                m.write(row, b"", t, CellKind::DeleteFamily, vec![]);
            }
            Op::DeleteFamilyVersion { row, ts } => {
                mutation(
                    &mut e,
                    row,
                    Mutation::Delete {
                        family: fam(),
                        qualifier: None,
                        timestamp: Some(ts),
                        all_versions: false,
                    },
                )?;
                m.write(row, b"", ts, CellKind::DeleteFamilyVersion, vec![]);
            }
            Op::Flush => {
                e.flush("t")
                    .map_err(|er| TestCaseError::fail(er.to_string()))?;
                m.flush();
            }
            Op::Compact | Op::MajorCompact => {
                let major = matches!(op, Op::MajorCompact);
                e.compact("t", major)
                    .map_err(|er| TestCaseError::fail(er.to_string()))?;
                m.compact(major);
            }
            Op::Split(row) => {
                // A split flushes the region first; the model flushes everything, so flush all.
                e.flush("t")
                    .map_err(|er| TestCaseError::fail(er.to_string()))?;
                m.flush();
                let _ = e.split("t", Some(ROWS[row].as_bytes()));
            }
            Op::Get {
                row,
                versions: v,
                range,
            } => {
                let mut scan = Scan {
                    max_versions: v,
                    time_range: range,
                    ..Scan::get(ROWS[row].as_bytes())
                };
                let got = engine_read(&mut e, &mut scan);
                let want = model_rows(&m, &[ROWS[row]], v, range);
                prop_assert_eq!(got, want, "get at step {} of {:?}", step, ops);
            }
            Op::Scan {
                start,
                stop,
                versions: v,
                reversed,
            } => {
                let key = |i: usize| {
                    ROWS.get(i)
                        .map(|r| r.as_bytes().to_vec())
                        .unwrap_or_default()
                };
                let mut scan = Scan {
                    start_row: key(start),
                    stop_row: key(stop),
                    max_versions: v,
                    reversed,
                    ..Scan::default()
                };
                let got = engine_read(&mut e, &mut scan);
                let mut sorted: Vec<&str> = ROWS.to_vec();
                sorted.sort();
                let in_range: Vec<&str> = sorted
                    .into_iter()
                    .filter(|r| {
                        let r = r.as_bytes();
                        let (s, t) = (key(start), key(stop));
                        if reversed {
                            (s.is_empty() || r <= s.as_slice())
                                && (t.is_empty() || r > t.as_slice())
                        } else {
                            r >= s.as_slice() && (t.is_empty() || r < t.as_slice())
                        }
                    })
                    .collect();
                let ordered: Vec<&str> = if reversed {
                    in_range.into_iter().rev().collect()
                } else {
                    in_range
                };
                let want = model_rows(&m, &ordered, v, (0, u64::MAX));
                prop_assert_eq!(got, want, "scan at step {} of {:?}", step, ops);
            }
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("ROWKEY_MODEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
    #[test]
    fn engine_agrees_with_model(versions in 1u32..4, ops in proptest::collection::vec(op(), 1..60)) {
        check(&ops, versions)?;
    }
}

/// Regression 1: a delete marker older than a column's kept versions is dropped by a flush
/// (HBase's compaction matcher skips to the next column once VERSIONS is reached), so a later
/// put at the marker's timestamp becomes visible. The first model kept every marker.
#[test]
fn regression_1_markers_past_the_version_limit_go_with_the_flush() -> Result<(), TestCaseError> {
    let ops = vec![
        Op::Put {
            row: 0,
            q: 1,
            ts: None,
            v: 0,
        },
        Op::DeleteColumn {
            row: 0,
            q: 1,
            ts: Some(2),
        },
        Op::Put {
            row: 0,
            q: 1,
            ts: None,
            v: 0,
        },
        Op::Flush,
        Op::Put {
            row: 0,
            q: 1,
            ts: Some(2),
            v: 0,
        },
        Op::Get {
            row: 0,
            versions: 1,
            range: (0, 3),
        },
    ];
    check(&ops, 1)
}
