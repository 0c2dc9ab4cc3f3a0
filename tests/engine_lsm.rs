//! The LSM event stream: flushes, compactions and splits report their inputs and outputs by
//! stable run ids and say which cells they dropped and why; and the flush policy that picks
//! the families a region flushes.
//!
//! HBase: `regionserver/FlushAllLargeStoresPolicy.java` and `FlushLargeStoresPolicy.java`
//! (the per-family lower bound), `querymatcher/MinorCompactionScanQueryMatcher.java` (markers
//! retained) and `MajorCompactionScanQueryMatcher.java` (markers and masked cells dropped).
mod common;
use std::collections::HashMap;
use std::sync::Arc;

use common::*;
use rowkey::engine::{
    flush_lower_bound, Dropped, Engine, FamilyDescriptor, KeepDeletedCells, LsmEventKind, Mutation,
    Part, TableDescriptor, TableSettings, EVENTS_KEPT,
};
use rowkey::persist::{decode_catalog, decode_run, encode_catalog, encode_run};

fn delete_column(q: &str, ts: u64) -> Mutation {
    Mutation::Delete {
        family: "f".into(),
        qualifier: Some(q.into()),
        timestamp: Some(ts),
        all_versions: true,
    }
}

fn ttl_put(q: &str, ts: u64, ttl_ms: u64) -> Mutation {
    Mutation::Put {
        family: "f".into(),
        qualifier: q.into(),
        timestamp: Some(ts),
        value: b"short-lived".to_vec(),
        ttl_ms: Some(ttl_ms),
    }
}

fn last_event(e: &Engine) -> Option<rowkey::engine::LsmEvent> {
    e.lsm_events("t").and_then(|l| l.last().cloned())
}

fn run_ids(e: &Engine) -> Result<Vec<Vec<Vec<u64>>>, rowkey::engine::Error> {
    Ok(e.table("t")?
        .regions
        .iter()
        .map(|r| {
            r.stores
                .iter()
                .map(|s| s.runs.iter().map(|run| run.id).collect())
                .collect()
        })
        .collect())
}

#[test]
fn a_flush_reports_the_memstore_in_and_a_run_out() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for row in ["b", "a", "c"] {
        e.mutate("t", row.as_bytes(), &[put("f", "q", Some(5), "v")])?;
    }
    assert!(e.lsm_events("t").is_none_or(|l| l.is_empty()));
    e.flush("t")?;
    let ev = last_event(&e).ok_or("no event after a flush")?;
    assert_eq!(ev.kind, LsmEventKind::Flush);
    assert_eq!(ev.family.as_deref(), Some("f"));
    assert_eq!(ev.inputs.len(), 1);
    assert_eq!(ev.inputs[0].part, Part::Memstore);
    assert_eq!(ev.inputs[0].cells, 3);
    assert_eq!(ev.outputs.len(), 1);
    let out = &ev.outputs[0];
    assert_eq!(
        (out.first_row.as_slice(), out.last_row.as_slice()),
        (&b"a"[..], &b"c"[..])
    );
    assert_eq!(out.cells, 3);
    let stored = run_ids(&e)?;
    assert_eq!(
        stored,
        vec![vec![vec![match out.part {
            Part::Run(id) => id,
            Part::Memstore => 0,
        }]]]
    );
    assert_eq!(out.bytes, e.table("t")?.regions[0].stores[0].runs[0].bytes);
    assert_eq!(ev.dropped, Dropped::default());
    Ok(())
}

/// Two runs holding one cell for every reason a major compaction drops cells.
fn engine_with_doomed_cells(
    keep: KeepDeletedCells,
) -> Result<(Engine, Clock), Box<dyn std::error::Error>> {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.keep_deleted_cells = keep;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    // First run: the old versions and values the second run will mask.
    e.mutate("t", b"r1", &[put("f", "a", Some(1), "old")])?;
    e.mutate("t", b"r2", &[put("f", "a", Some(1), "deleted")])?;
    e.mutate("t", b"r4", &[put("f", "a", Some(7), "first write")])?;
    e.flush("t")?;
    // Second run: a newer version, a DeleteColumn, a cell with a TTL, a rewrite at ts 7.
    e.mutate("t", b"r1", &[put("f", "a", Some(2), "new")])?;
    e.mutate("t", b"r2", &[delete_column("a", 5)])?;
    e.mutate("t", b"r3", &[ttl_put("a", 1_000_000, 10)])?;
    e.mutate("t", b"r4", &[put("f", "a", Some(7), "second write")])?;
    e.flush("t")?;
    clock.advance(100);
    Ok((e, clock))
}

#[test]
fn a_major_compaction_merges_runs_and_counts_drops_by_reason() -> TestResult {
    let (mut e, _) = engine_with_doomed_cells(KeepDeletedCells::False)?;
    let before = run_ids(&e)?;
    assert_eq!(before[0][0].len(), 2, "two flushes, two runs");
    e.compact("t", true)?;
    let ev = last_event(&e).ok_or("no event after major_compact")?;
    assert_eq!(ev.kind, LsmEventKind::MajorCompaction);
    let inputs: Vec<Part> = ev.inputs.iter().map(|r| r.part).collect();
    let want: Vec<Part> = before[0][0].iter().map(|id| Part::Run(*id)).collect();
    assert_eq!(inputs, want);
    assert_eq!(ev.inputs.iter().map(|r| r.cells).sum::<usize>(), 7);
    assert_eq!(ev.outputs.len(), 1);
    assert_eq!(ev.outputs[0].cells, 2, "r1@2 and r4's second write stay");
    assert_eq!(
        ev.dropped,
        Dropped {
            versions: 1,
            deleted: 1,
            markers: 1,
            expired: 1,
            replaced: 1,
            kept_deleted: 0,
        }
    );
    assert_eq!(ev.dropped.total(), 5);
    assert_eq!(
        run_ids(&e)?[0][0],
        vec![match ev.outputs[0].part {
            Part::Run(id) => id,
            Part::Memstore => 0,
        }]
    );
    Ok(())
}

#[test]
fn keep_deleted_cells_keeps_markers_and_masked_cells_through_a_major_compaction() -> TestResult {
    let (mut e, _) = engine_with_doomed_cells(KeepDeletedCells::True)?;
    e.compact("t", true)?;
    let ev = last_event(&e).ok_or("no event")?;
    assert_eq!(ev.dropped.markers, 0);
    assert_eq!(ev.dropped.deleted, 0);
    assert_eq!(ev.dropped.kept_deleted, 1);
    assert_eq!(
        ev.outputs[0].cells, 4,
        "r1@2, the marker, the deleted r2 and r4"
    );
    Ok(())
}

#[test]
fn a_minor_compaction_keeps_markers_and_drops_what_they_mask() -> TestResult {
    let (mut e, _) = engine_with_doomed_cells(KeepDeletedCells::False)?;
    e.compact("t", false)?;
    let ev = last_event(&e).ok_or("no event")?;
    assert_eq!(ev.kind, LsmEventKind::MinorCompaction);
    assert_eq!(ev.dropped.markers, 0);
    assert_eq!(ev.dropped.deleted, 1);
    assert_eq!(ev.outputs[0].cells, 3, "r1@2, the marker, r4");
    Ok(())
}

#[test]
fn a_split_reports_its_daughters_and_where_the_runs_went() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..20 {
        e.mutate(
            "t",
            format!("row{i:02}").as_bytes(),
            &[put("f", "q", None, "v")],
        )?;
    }
    e.flush("t")?;
    let parent = e.table("t")?.regions[0].id;
    e.split("t", Some(b"row10"))?;
    let ev = last_event(&e).ok_or("no event after split")?;
    assert_eq!(ev.kind, LsmEventKind::Split);
    assert_eq!(ev.region, parent);
    let regions: Vec<(u64, Vec<u8>, Vec<u8>)> = e
        .table("t")?
        .regions
        .iter()
        .map(|r| (r.id, r.start.clone(), r.end.clone()))
        .collect();
    assert_eq!(ev.daughters, regions);
    assert_eq!(ev.daughters[0].2, b"row10".to_vec());
    assert_eq!(ev.inputs.len(), 1);
    assert_eq!(ev.outputs.len(), 2);
    assert_eq!(ev.outputs[0].region, regions[0].0);
    assert_eq!(ev.outputs[1].region, regions[1].0);
    assert_eq!(ev.outputs[0].last_row, b"row09".to_vec());
    assert_eq!(ev.outputs[1].first_row, b"row10".to_vec());
    assert_eq!(ev.outputs.iter().map(|r| r.cells).sum::<usize>(), 20);
    assert_ne!(
        ev.outputs[0].part, ev.inputs[0].part,
        "a cut run gets new ids"
    );
    Ok(())
}

#[test]
fn run_ids_survive_a_snapshot_round_trip_and_are_never_reused() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 1)])?;
    for i in 0..6 {
        e.mutate("t", format!("r{i}").as_bytes(), &[put("f", "q", None, "v")])?;
        if i % 2 == 1 {
            e.flush("t")?;
        }
    }
    let ids = run_ids(&e)?;
    let catalog = decode_catalog(&encode_catalog(&e.catalog()))?;
    let mut runs = HashMap::new();
    for run in e.all_runs() {
        let back = decode_run(&encode_run(run))?;
        runs.insert(back.id, Arc::new(back));
    }
    let c = clock.0.clone();
    let (mut restored, problems) = Engine::restore(Box::new(move || c.get()), catalog, &runs);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(run_ids(&restored)?, ids);
    let highest = ids.iter().flatten().flatten().copied().max().unwrap_or(0);
    restored.mutate("t", b"r9", &[put("f", "q", None, "v")])?;
    restored.flush("t")?;
    let ev = last_event(&restored).ok_or("no event")?;
    match ev.outputs.first().map(|o| o.part) {
        Some(Part::Run(id)) => assert!(id > highest, "new run {id} reuses an id <= {highest}"),
        other => return Err(format!("flush wrote {other:?}").into()),
    }
    Ok(())
}

#[test]
fn the_history_is_bounded_and_forgotten_with_the_table() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..EVENTS_KEPT + 10 {
        e.mutate("t", format!("r{i}").as_bytes(), &[put("f", "q", None, "v")])?;
        e.flush("t")?;
    }
    let log = e.lsm_events("t").ok_or("no history")?;
    assert_eq!(log.len(), EVENTS_KEPT);
    let serials: Vec<u64> = log.iter().map(|ev| ev.serial).collect();
    assert!(serials.windows(2).all(|w| w[0] < w[1]));
    e.disable("t")?;
    e.drop_table("t")?;
    assert!(e.lsm_events("t").is_none());
    Ok(())
}

// ---- the flush policy ------------------------------------------------------------------

#[test]
fn the_lower_bound_is_the_threshold_per_family_but_at_least_an_eighth() {
    assert_eq!(flush_lower_bound(16384, 1), 16384);
    assert_eq!(flush_lower_bound(16384, 4), 4096);
    assert_eq!(flush_lower_bound(16384, 16), 2048);
}

fn wide_table(families: usize) -> Result<Engine, rowkey::engine::Error> {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let fams = (0..families)
        .map(|i| FamilyDescriptor::new(&format!("f{i}")))
        .collect();
    let mut desc = TableDescriptor::new("t", fams);
    desc.settings = TableSettings {
        flush_bytes: 4096,
        compaction_threshold: 100,
        split_bytes: 0,
    };
    e.create_table(desc, vec![])?;
    Ok(e)
}

fn memstores(e: &Engine) -> Result<Vec<usize>, rowkey::engine::Error> {
    Ok(e.table("t")?.regions[0]
        .stores
        .iter()
        .map(|s| s.memstore_bytes)
        .collect())
}

/// FlushAllLargeStoresPolicy.selectStoresToFlush: only the stores above the lower bound.
#[test]
fn a_region_flushes_only_its_large_families() -> TestResult {
    let mut e = wide_table(4)?;
    for i in 0..3 {
        for f in ["f1", "f2", "f3"] {
            e.mutate(
                "t",
                format!("r{i}").as_bytes(),
                &[put(f, "q", None, "small")],
            )?;
        }
    }
    let mut i = 0;
    while e.lsm_events("t").is_none_or(|l| l.is_empty()) && i < 10_000 {
        e.mutate(
            "t",
            format!("row{i:05}").as_bytes(),
            &[put("f0", "q", None, "a value of some length")],
        )?;
        i += 1;
    }
    let log = e.lsm_events("t").ok_or("no flush happened")?;
    let flushed: Vec<Option<String>> = log.iter().map(|ev| ev.family.clone()).collect();
    assert_eq!(flushed, vec![Some("f0".to_string())]);
    let mem = memstores(&e)?;
    assert_eq!(mem[0], 0);
    assert!(
        mem[1..].iter().all(|b| *b > 0),
        "small families keep their memstores: {mem:?}"
    );
    Ok(())
}

/// FlushAllLargeStoresPolicy: when no store is above the bound, every store flushes.
#[test]
fn a_region_flushes_every_family_when_none_is_large() -> TestResult {
    // Ten families: the bound is an eighth of the threshold, each holds about a tenth.
    let mut e = wide_table(10)?;
    let mut i = 0;
    while e.lsm_events("t").is_none_or(|l| l.is_empty()) && i < 10_000 {
        let puts: Vec<Mutation> = (0..10)
            .map(|f| put(&format!("f{f}"), "q", None, "v"))
            .collect();
        e.mutate("t", format!("row{i:05}").as_bytes(), &puts)?;
        i += 1;
    }
    let log = e.lsm_events("t").ok_or("no flush happened")?;
    assert_eq!(log.len(), 10);
    assert!(memstores(&e)?.iter().all(|b| *b == 0));
    Ok(())
}

#[test]
fn one_family_always_flushes_whole() -> TestResult {
    let mut e = wide_table(1)?;
    let mut i = 0;
    while e.lsm_events("t").is_none_or(|l| l.is_empty()) && i < 10_000 {
        e.mutate(
            "t",
            format!("row{i:05}").as_bytes(),
            &[put("f0", "q", None, "v")],
        )?;
        i += 1;
    }
    assert_eq!(memstores(&e)?, vec![0]);
    Ok(())
}
