//! TTL per family and per cell, and MIN_VERSIONS keeping versions past the TTL.
mod common;
use common::*;
use rowkey::engine::{FamilyDescriptor, Mutation, TableDescriptor};

fn ttl_table(
    ttl: u64,
    min_versions: u32,
) -> Result<(rowkey::engine::Engine, Clock), rowkey::engine::Error> {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.ttl_seconds = Some(ttl);
    f.max_versions = 5;
    f.min_versions = min_versions;
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    Ok((e, clock))
}

#[test]
fn family_ttl_expires_cells() -> TestResult {
    let (mut e, clock) = ttl_table(10, 0)?;
    e.mutate("t", b"r", &[put("f", "q", None, "v")])?;
    clock.advance(9_000);
    assert_eq!(versions(&mut e, "r", "f", "q", 1)?.len(), 1);
    clock.advance(2_000);
    assert!(versions(&mut e, "r", "f", "q", 1)?.is_empty());
    e.flush("t")?;
    e.compact("t", true)?;
    assert_eq!(
        e.table("t")?.regions[0].stores[0].cell_count(),
        0,
        "expired cells are dropped on rewrite"
    );
    Ok(())
}

#[test]
fn min_versions_survive_ttl() -> TestResult {
    let (mut e, clock) = ttl_table(10, 2)?;
    for ts in [1_000_000, 1_000_001, 1_000_002] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &ts.to_string())])?;
    }
    clock.advance(60_000);
    let got: Vec<u64> = versions(&mut e, "r", "f", "q", 5)?
        .into_iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(got, vec![1_000_002, 1_000_001]);
    Ok(())
}

#[test]
fn cell_ttl_expires_one_put() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "q".into(),
            timestamp: None,
            value: "short".into(),
            ttl_ms: Some(500),
        }],
    )?;
    e.mutate("t", b"r", &[put("f", "p", None, "long")])?;
    clock.advance(600);
    assert!(versions(&mut e, "r", "f", "q", 1)?.is_empty());
    assert_eq!(versions(&mut e, "r", "f", "p", 1)?.len(), 1);
    Ok(())
}

/// A put with a per-cell TTL is still read in the millisecond its TTL ends and gone the next:
/// HBase expires it once `ts + ttl < now` (`ScanQueryMatcher.isCellTTLExpired`); a flush at
/// that millisecond keeps it too.
#[test]
fn cell_ttl_expires_after_its_last_millisecond() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "q".into(),
            timestamp: None,
            value: "v".into(),
            ttl_ms: Some(1_000),
        }],
    )?;
    clock.advance(1_000);
    assert_eq!(versions(&mut e, "r", "f", "q", 1)?.len(), 1);
    e.flush("t")?;
    assert_eq!(e.table("t")?.regions[0].stores[0].cell_count(), 1);
    clock.advance(1);
    assert!(versions(&mut e, "r", "f", "q", 1)?.is_empty());
    Ok(())
}

/// MIN_VERSIONS past the TTL, read two ways. A read of the whole family
/// (`ScanWildcardColumnTracker`) stops at the first expired version beyond MIN_VERSIONS; a get
/// naming the column (`ExplicitColumnTracker.checkVersions`: `count >= minVersions &&
/// isExpired` is INCLUDE_AND_SEEK_NEXT_COL) returns that version and stops after it.
#[test]
fn a_get_naming_the_column_sees_one_expired_version_past_min_versions() -> TestResult {
    let (mut e, clock) = ttl_table(10, 1)?;
    for ts in [1_000_000, 1_000_001, 1_000_002] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &ts.to_string())])?;
    }
    e.mutate("t", b"r", &[put("f", "q", Some(1_060_000), "new")])?;
    clock.advance(60_000);
    let named: Vec<u64> = versions(&mut e, "r", "f", "q", 5)?
        .into_iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(named, vec![1_060_000, 1_000_002]);
    let mut whole = rowkey::engine::Scan {
        max_versions: 5,
        ..rowkey::engine::Scan::get(b"r")
    };
    let family: Vec<u64> = e.scan("t", &mut whole)?.rows[0]
        .cells
        .iter()
        .map(|c| c.timestamp)
        .collect();
    assert_eq!(family, vec![1_060_000]);
    Ok(())
}
