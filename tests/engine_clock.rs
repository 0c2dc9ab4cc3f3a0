//! Server timestamps come from the engine's clock (injected here). An increment or append
//! over a future-dated cell writes at `max(current + 1, now)` (`HRegion.reckonDelta`), and
//! that lifts only its own write: the next put is stamped from the clock again.
mod common;
use common::*;

use rowkey::engine::{Engine, Mutation, Scan};

#[test]
fn a_future_dated_cell_does_not_drag_later_server_timestamps() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 5)])?;
    let future = 9_000_000_000_000;
    e.mutate("t", b"r", &[put("f", "a", Some(future), "x")])?;
    let value = e.append("t", b"r", b"f", b"a", b"y")?;
    assert_eq!(value, b"xy".to_vec());
    assert_eq!(
        versions(&mut e, "r", "f", "a", 1)?,
        vec![(future + 1, "xy".into())]
    );
    clock.set(2_000_000);
    e.mutate("t", b"r", &[put("f", "b", None, "now")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "b", 1)?,
        vec![(2_000_000, "now".into())]
    );
    Ok(())
}

#[test]
fn server_timestamps_follow_the_clock() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 5)])?;
    clock.set(5_000_000);
    e.mutate("t", b"r", &[put("f", "q", None, "1")])?;
    clock.set(7_000_000);
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "q".into(),
            timestamp: None,
            value: "2".into(),
            ttl_ms: None,
        }],
    )?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 5)?,
        vec![(7_000_000, "2".into()), (5_000_000, "1".into())]
    );
    Ok(())
}

// ---- writes within one millisecond ---------------------------------------------------------
//
// HBase stamps a mutation with `EnvironmentEdgeManager.currentTime()` (`HRegion`'s
// `BatchOperation`, `updateCellTimestamps`) and does not make it unique: two writes in the same
// millisecond share a timestamp and are told apart by their sequence id (mvcc), which
// `CellComparatorImpl.compare` orders newest first after the key and type. The column trackers
// then skip a cell whose timestamp and type repeat the previous one
// (`ScanWildcardColumnTracker.checkVersions`: `sameAsPreviousTSAndType` -> `SKIP`), so a read
// sees the later write only; `TestFromClientSide.testDuplicateVersions` fixes that outcome for
// puts at one explicit timestamp. A delete marker masks every put at its timestamp whatever
// their sequence ids (`ScanDeleteTracker.isDeleted` compares timestamps only), which is the
// reference guide's "Deletes mask Puts" (HBASE-2256): a put in the same millisecond after a
// delete stays hidden.

fn raw_column(
    e: &mut Engine,
    row: &str,
) -> Result<Vec<(u64, String, String)>, rowkey::engine::Error> {
    let mut scan = Scan::get(row.as_bytes());
    scan.raw = true;
    scan.max_versions = 10;
    Ok(e.scan("t", &mut scan)?
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| {
            (
                c.timestamp,
                c.kind.name().to_string(),
                String::from_utf8_lossy(&c.value).into_owned(),
            )
        })
        .collect())
}

#[test]
fn two_puts_in_one_millisecond_share_the_timestamp_and_the_later_wins() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    clock.set(5_000_000);
    e.mutate("t", b"r", &[put("f", "q", None, "first")])?;
    e.mutate("t", b"r", &[put("f", "q", None, "second")])?;
    // One version, not two: the same timestamp is one version, and the later write is it.
    assert_eq!(
        versions(&mut e, "r", "f", "q", 3)?,
        vec![(5_000_000, "second".into())]
    );
    // A raw scan too skips the repeat of a timestamp and type (the same column tracker); a
    // flush and major compaction drop the older cell for good.
    assert_eq!(
        raw_column(&mut e, "r")?,
        vec![(5_000_000, "Put".into(), "second".into())]
    );
    e.flush("t")?;
    e.compact("t", true)?;
    assert_eq!(
        raw_column(&mut e, "r")?,
        vec![(5_000_000, "Put".into(), "second".into())]
    );
    // A millisecond later, a new version.
    clock.advance(1);
    e.mutate("t", b"r", &[put("f", "q", None, "third")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 3)?,
        vec![(5_000_001, "third".into()), (5_000_000, "second".into())]
    );
    Ok(())
}

#[test]
fn a_put_in_the_millisecond_of_a_delete_is_masked_by_it() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    clock.set(5_000_000);
    e.mutate("t", b"r", &[put("f", "q", None, "old")])?;
    clock.advance(10);
    e.mutate("t", b"r", &[Mutation::DeleteRow { timestamp: None }])?;
    e.mutate("t", b"r", &[put("f", "q", None, "new")])?;
    // The DeleteFamily at 5_000_010 masks every put at or below it, the later one included.
    assert_eq!(versions(&mut e, "r", "f", "q", 3)?, vec![]);
    assert_eq!(
        raw_column(&mut e, "r")?,
        vec![
            (5_000_010, "DeleteFamily".into(), "".into()),
            (5_000_010, "Put".into(), "new".into()),
            (5_000_000, "Put".into(), "old".into()),
        ]
    );
    // A major compaction purges the marker and what it masked: the put is gone for good.
    e.flush("t")?;
    e.compact("t", true)?;
    assert_eq!(raw_column(&mut e, "r")?, vec![]);
    // The next millisecond's put is seen.
    clock.advance(1);
    e.mutate("t", b"r", &[put("f", "q", None, "later")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 3)?,
        vec![(5_000_011, "later".into())]
    );
    Ok(())
}

#[test]
fn a_version_delete_in_the_same_millisecond_masks_the_later_put_too() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    clock.set(5_000_000);
    e.mutate("t", b"r", &[put("f", "q", None, "a")])?;
    // A Delete without a timestamp targets the newest version (5_000_000).
    e.mutate(
        "t",
        b"r",
        &[Mutation::Delete {
            family: "f".into(),
            qualifier: Some("q".into()),
            timestamp: None,
            all_versions: false,
        }],
    )?;
    e.mutate("t", b"r", &[put("f", "q", None, "b")])?;
    assert_eq!(versions(&mut e, "r", "f", "q", 3)?, vec![]);
    Ok(())
}

#[test]
fn increments_in_one_millisecond_each_count() -> TestResult {
    // `HRegion.reckonDelta` stamps an increment `max(now, current + 1)`: two in the same
    // millisecond get distinct timestamps and neither is lost.
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    clock.set(5_000_000);
    assert_eq!(e.increment("t", b"r", b"f", b"n", 1)?, 1);
    assert_eq!(e.increment("t", b"r", b"f", b"n", 1)?, 2);
    let got: Vec<u64> = versions(&mut e, "r", "f", "n", 3)?
        .into_iter()
        .map(|(ts, _)| ts)
        .collect();
    assert_eq!(got, vec![5_000_001, 5_000_000]);
    Ok(())
}
