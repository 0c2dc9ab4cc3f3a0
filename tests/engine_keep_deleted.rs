//! KEEP_DELETED_CELLS => 'TTL': deleted cells are kept as with TRUE while the delete marker
//! is within the family's TTL; once it is older, a major compaction purges the marker and
//! what it masks as with FALSE (`CompactionScanQueryMatcher.trackDelete` tracks a marker
//! when `keepDeletedCells == FALSE || (keepDeletedCells == TTL && timestamp <
//! oldestUnexpiredTS)`). MIN_VERSIONS => 1 keeps the expired put from going by TTL alone.
mod common;
use common::*;

fn raw_cells(sh: &mut rowkey::shell::Shell, table: &str) -> usize {
    run(
        sh,
        &format!("scan '{table}', {{RAW => true, VERSIONS => 5}}"),
    )
    .lines()
    .filter(|l| l.contains(" column="))
    .count()
}

#[test]
fn keep_deleted_cells_ttl_keeps_markers_until_they_pass_the_ttl() -> TestResult {
    let (mut sh, clock) = shell_at(1_000_000);
    for (table, keep) in [("kd_ttl", "'TTL'"), ("kd_true", "true")] {
        run(
            &mut sh,
            &format!(
                "create '{table}', {{NAME => 'f', TTL => 10, MIN_VERSIONS => 1, KEEP_DELETED_CELLS => {keep}}}\n\
                 put '{table}', 'r', 'f:q', 'v'\ndeleteall '{table}', 'r', 'f:q'\nflush '{table}'"
            ),
        );
    }
    // Within the TTL both keep the put and its marker through a major compaction.
    run(&mut sh, "major_compact 'kd_ttl'\nmajor_compact 'kd_true'");
    assert_eq!(raw_cells(&mut sh, "kd_ttl"), 2);
    assert_eq!(raw_cells(&mut sh, "kd_true"), 2);
    // Past the TTL, 'TTL' purges them; TRUE keeps them.
    clock.advance(20_000);
    run(&mut sh, "major_compact 'kd_ttl'\nmajor_compact 'kd_true'");
    assert_eq!(raw_cells(&mut sh, "kd_ttl"), 0);
    assert_eq!(raw_cells(&mut sh, "kd_true"), 2);
    Ok(())
}

/// KEEP_DELETED_CELLS => TRUE keeps markers through a major compaction, except a marker older
/// than every put the compaction reads: it can mask none of them, so HBase drops it with the
/// rest of its column (`DropDeletesCompactionScanQueryMatcher.tryDropDelete` against
/// `earliestPutTs`, the oldest EARLIEST_PUT_TS of the files). A put written afterwards with an
/// older timestamp is then visible.
#[test]
fn a_kept_marker_older_than_every_put_goes_with_a_major_compaction() -> TestResult {
    use rowkey::engine::{FamilyDescriptor, KeepDeletedCells, Mutation, Scan, TableDescriptor};
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.keep_deleted_cells = KeepDeletedCells::True;
    f.max_versions = 3;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    let delete = |ts| Mutation::Delete {
        family: "f".into(),
        qualifier: Some("q".into()),
        timestamp: Some(ts),
        all_versions: true,
    };
    // q: a marker at 50 older than the put at 100; p: a marker at 200 that masks the put at 100.
    e.mutate("t", b"r", &[delete(50), put("f", "q", Some(100), "v")])?;
    e.mutate(
        "t",
        b"s",
        &[
            put("f", "p", Some(100), "w"),
            Mutation::Delete {
                family: "f".into(),
                qualifier: Some("p".into()),
                timestamp: Some(200),
                all_versions: true,
            },
        ],
    )?;
    e.flush("t")?;
    e.compact("t", true)?;
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    let kinds: Vec<(Vec<u8>, &str)> = e
        .scan("t", &mut raw)?
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| (c.qualifier.to_vec(), c.kind.name()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (b"q".to_vec(), "Put"),
            (b"p".to_vec(), "DeleteColumn"),
            (b"p".to_vec(), "Put"),
        ]
    );
    e.mutate("t", b"r", &[put("f", "q", Some(40), "late")])?;
    assert_eq!(versions(&mut e, "r", "f", "q", 3)?.len(), 2);
    Ok(())
}

/// With KEEP_DELETED_CELLS => TRUE a major compaction counts the markers it keeps through the
/// column tracker (`MajorCompactionScanQueryMatcher.match` ends in
/// `ScanWildcardColumnTracker.checkVersions`), which skips a repeat of the previous timestamp
/// and type: two DeleteFamily markers at one timestamp are written once. A flush keeps both
/// (`MinorCompactionScanQueryMatcher` includes every marker as it is).
#[test]
fn a_major_compaction_writes_a_repeated_kept_marker_once() -> TestResult {
    use rowkey::engine::{FamilyDescriptor, KeepDeletedCells, Mutation, Scan, TableDescriptor};
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.keep_deleted_cells = KeepDeletedCells::True;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    e.mutate("t", b"r", &[put("f", "q", Some(100), "v")])?;
    for _ in 0..2 {
        e.mutate(
            "t",
            b"r",
            &[Mutation::DeleteRow {
                timestamp: Some(200),
            }],
        )?;
    }
    let stored = |e: &rowkey::engine::Engine| -> Result<usize, rowkey::engine::Error> {
        Ok(e.table("t")?.regions[0].stores[0].cell_count())
    };
    e.flush("t")?;
    assert_eq!(stored(&e)?, 3);
    e.compact("t", true)?;
    assert_eq!(stored(&e)?, 2);
    // A raw read shows a repeat of (timestamp, type) once either way.
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    assert_eq!(e.scan("t", &mut raw)?.rows[0].cells.len(), 2);
    Ok(())
}

/// With KEEP_DELETED_CELLS => 'TTL' a rewrite masks with the expired markers only
/// (`CompactionScanQueryMatcher.trackDelete` tracks a marker when `keepDeletedCells == TTL &&
/// timestamp < oldestUnexpiredTS`). A newer DeleteFamily within the TTL does not hide the
/// expired one behind it: the put that the expired marker masks goes with the flush.
#[test]
fn an_expired_marker_masks_in_a_rewrite_behind_one_within_the_ttl() -> TestResult {
    use rowkey::engine::{FamilyDescriptor, KeepDeletedCells, Mutation, Scan, TableDescriptor};
    let clock = Clock::at(10_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.keep_deleted_cells = KeepDeletedCells::Ttl;
    f.ttl_seconds = Some(3);
    f.min_versions = 1;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    e.mutate("t", b"r", &[put("f", "q", None, "v")])?;
    clock.advance(5_000);
    e.mutate("t", b"r", &[Mutation::DeleteRow { timestamp: None }])?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::DeleteRow {
            timestamp: Some(10_000),
        }],
    )?;
    e.flush("t")?;
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    let cells: Vec<(u64, &str)> = e.scan("t", &mut raw)?.rows[0]
        .cells
        .iter()
        .map(|c| (c.timestamp, c.kind.name()))
        .collect();
    assert_eq!(
        cells,
        vec![(15_000, "DeleteFamily"), (10_000, "DeleteFamily")]
    );
    Ok(())
}
