//! Every delete marker kind, and the masking surprises HBase documents.
mod common;
use common::*;
use rowkey::engine::{FamilyDescriptor, KeepDeletedCells, Mutation, Scan, TableDescriptor};

fn del(q: Option<&str>, ts: Option<u64>, all: bool) -> Mutation {
    Mutation::Delete {
        family: "f".into(),
        qualifier: q.map(Into::into),
        timestamp: ts,
        all_versions: all,
    }
}

fn three_versions() -> Result<rowkey::engine::Engine, rowkey::engine::Error> {
    let (mut e, _) = engine_with(&[("f", 5)])?;
    for ts in 1..=3 {
        e.mutate(
            "t",
            b"r",
            &[
                put("f", "a", Some(ts), &format!("a{ts}")),
                put("f", "b", Some(ts), &format!("b{ts}")),
            ],
        )?;
    }
    Ok(e)
}

#[test]
fn version_delete_masks_exactly_one_version() -> TestResult {
    let mut e = three_versions()?;
    e.mutate("t", b"r", &[del(Some("a"), Some(2), false)])?;
    assert_eq!(
        versions(&mut e, "r", "f", "a", 5)?,
        vec![(3, "a3".into()), (1, "a1".into())]
    );
    Ok(())
}

#[test]
fn version_delete_without_timestamp_targets_newest() -> TestResult {
    let mut e = three_versions()?;
    e.mutate("t", b"r", &[del(Some("a"), None, false)])?;
    assert_eq!(
        versions(&mut e, "r", "f", "a", 5)?,
        vec![(2, "a2".into()), (1, "a1".into())]
    );
    Ok(())
}

#[test]
fn delete_column_masks_all_versions_at_or_before() -> TestResult {
    let mut e = three_versions()?;
    e.mutate("t", b"r", &[del(Some("a"), Some(2), true)])?;
    assert_eq!(versions(&mut e, "r", "f", "a", 5)?, vec![(3, "a3".into())]);
    assert_eq!(versions(&mut e, "r", "f", "b", 5)?.len(), 3);
    Ok(())
}

#[test]
fn delete_family_and_family_version() -> TestResult {
    let mut e = three_versions()?;
    e.mutate("t", b"r", &[del(None, Some(1), false)])?;
    assert_eq!(versions(&mut e, "r", "f", "a", 5)?.len(), 2);
    assert_eq!(
        versions(&mut e, "r", "f", "b", 5)?,
        vec![(3, "b3".into()), (2, "b2".into())]
    );
    e.mutate("t", b"r", &[del(None, Some(2), true)])?;
    assert_eq!(versions(&mut e, "r", "f", "a", 5)?, vec![(3, "a3".into())]);
    Ok(())
}

#[test]
fn delete_masks_later_put_with_older_timestamp_until_major_compaction() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.mutate("t", b"r", &[del(Some("q"), Some(100), true)])?;
    e.mutate("t", b"r", &[put("f", "q", Some(50), "late")])?;
    assert!(
        versions(&mut e, "r", "f", "q", 1)?.is_empty(),
        "the marker masks the later put"
    );
    e.flush("t")?;
    e.compact("t", false)?;
    assert!(
        versions(&mut e, "r", "f", "q", 1)?.is_empty(),
        "a minor compaction keeps the marker"
    );
    e.compact("t", true)?;
    e.mutate("t", b"r", &[put("f", "q", Some(50), "again")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 1)?,
        vec![(50, "again".into())],
        "after a major compaction the put shows"
    );
    Ok(())
}

#[test]
fn raw_scan_shows_markers_and_masked_cells() -> TestResult {
    let mut e = three_versions()?;
    e.mutate("t", b"r", &[del(Some("a"), Some(3), true)])?;
    // A raw scan may name families only: `StoreScanner` refuses a column with "Cannot specify
    // any column for a raw scan", so the test picks the qualifier out of the family's cells.
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        columns: vec![("f".into(), None)],
        ..Scan::default()
    };
    let cells: Vec<_> = e.scan("t", &mut raw)?.rows[0]
        .cells
        .to_vec()
        .into_iter()
        .filter(|c| c.qualifier == b"a")
        .collect();
    assert_eq!(cells.len(), 4);
    assert_eq!(cells[0].kind.name(), "DeleteColumn");
    Ok(())
}

#[test]
fn deleteall_row_masks_every_family_and_a_later_put_is_visible() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 1), ("g", 1)])?;
    e.mutate(
        "t",
        b"r",
        &[put("f", "a", None, "1"), put("g", "b", None, "2")],
    )?;
    e.mutate("t", b"r", &[Mutation::DeleteRow { timestamp: None }])?;
    let mut get = Scan::get(b"r");
    assert!(e.scan("t", &mut get)?.rows.is_empty());
    // In the marker's own millisecond a put takes the same timestamp and stays masked, as in
    // HBase (ScanDeleteTracker masks every cell at or below the marker's timestamp).
    e.mutate("t", b"r", &[put("f", "a", None, "3")])?;
    assert_eq!(versions(&mut e, "r", "f", "a", 1)?.len(), 0);
    // A millisecond later it is visible.
    clock.advance(1);
    e.mutate("t", b"r", &[put("f", "a", None, "4")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "a", 1)?.len(),
        1,
        "a put after the marker's millisecond is visible"
    );
    Ok(())
}

#[test]
fn keep_deleted_cells_serves_time_range_reads_before_the_marker() -> TestResult {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.keep_deleted_cells = KeepDeletedCells::True;
    f.max_versions = 3;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    e.mutate("t", b"r", &[put("f", "q", Some(10), "old")])?;
    e.mutate("t", b"r", &[del(Some("q"), Some(20), true)])?;
    assert!(versions(&mut e, "r", "f", "q", 1)?.is_empty());
    let mut before = Scan {
        time_range: (0, 20),
        ..Scan::get(b"r")
    };
    assert_eq!(e.scan("t", &mut before)?.rows.len(), 1);
    e.flush("t")?;
    e.compact("t", true)?;
    let mut before = Scan {
        time_range: (0, 20),
        ..Scan::get(b"r")
    };
    assert_eq!(
        e.scan("t", &mut before)?.rows.len(),
        1,
        "major compaction keeps deleted cells"
    );
    Ok(())
}

/// A flush seeks past the rest of a column once a column or family marker masks a put of it
/// (`ScanQueryMatcher.checkDeleted`: FAMILY_DELETED and COLUMN_DELETED are
/// `getNextRowOrNextColumn`), so an older marker of that column is not written: the
/// DeleteColumn at 10 goes with the put at 11 that the DeleteFamily at 11 masks.
#[test]
fn a_flush_drops_the_markers_behind_a_put_a_family_marker_masks() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.mutate(
        "t",
        b"r",
        &[
            del(None, Some(11), true),
            del(Some("q"), Some(10), true),
            put("f", "q", Some(11), "v"),
        ],
    )?;
    e.flush("t")?;
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    let kinds: Vec<&str> = e.scan("t", &mut raw)?.rows[0]
        .cells
        .iter()
        .map(|c| c.kind.name())
        .collect();
    assert_eq!(kinds, vec!["DeleteFamily"]);
    Ok(())
}
