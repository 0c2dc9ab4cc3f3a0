//! Versions: the limit per family, overwrites at equal timestamps, altering VERSIONS, and the
//! resurfacing HBase documents after deleting the newest version.
mod common;
use common::*;
use rowkey::engine::{FamilyDescriptor, Mutation, Scan};

#[test]
fn family_keeps_at_most_versions() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 2)])?;
    for ts in 1..=4 {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &format!("v{ts}"))])?;
    }
    assert_eq!(
        versions(&mut e, "r", "f", "q", 10)?,
        vec![(4, "v4".into()), (3, "v3".into())]
    );
    assert_eq!(versions(&mut e, "r", "f", "q", 1)?, vec![(4, "v4".into())]);
    Ok(())
}

#[test]
fn later_write_at_same_timestamp_replaces_earlier() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3)])?;
    e.mutate("t", b"r", &[put("f", "q", Some(7), "first")])?;
    e.flush("t")?;
    e.mutate("t", b"r", &[put("f", "q", Some(7), "second")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 3)?,
        vec![(7, "second".into())]
    );
    Ok(())
}

#[test]
fn deleting_newest_resurfaces_older_until_flush() -> TestResult {
    // All three versions still in the memstore: deleting v3 brings v1 back beyond VERSIONS=2.
    let (mut e, _) = engine_with(&[("f", 2)])?;
    for ts in 1..=3 {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &format!("v{ts}"))])?;
    }
    e.mutate(
        "t",
        b"r",
        &[Mutation::Delete {
            family: "f".into(),
            qualifier: Some("q".into()),
            timestamp: Some(3),
            all_versions: false,
        }],
    )?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 5)?,
        vec![(2, "v2".into()), (1, "v1".into())]
    );

    // Flushed before the delete: the flush already dropped v1, so it cannot come back.
    let (mut e, _) = engine_with(&[("f", 2)])?;
    for ts in 1..=3 {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &format!("v{ts}"))])?;
    }
    e.flush("t")?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::Delete {
            family: "f".into(),
            qualifier: Some("q".into()),
            timestamp: Some(3),
            all_versions: false,
        }],
    )?;
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, vec![(2, "v2".into())]);
    Ok(())
}

#[test]
fn altering_versions_caps_reads_at_once_but_raw_still_shows() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 5)])?;
    for ts in 1..=4 {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), "v")])?;
    }
    e.flush("t")?;
    let mut f = FamilyDescriptor::new("f");
    f.max_versions = 1;
    e.alter_family("t", f)?;
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?.len(), 1);
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    assert_eq!(
        e.scan("t", &mut raw)?
            .rows
            .iter()
            .map(|r| r.cells.len())
            .sum::<usize>(),
        4
    );
    e.compact("t", true)?;
    let mut raw = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    assert_eq!(
        e.scan("t", &mut raw)?
            .rows
            .iter()
            .map(|r| r.cells.len())
            .sum::<usize>(),
        1
    );
    Ok(())
}

#[test]
fn exact_timestamp_and_time_range_select_versions() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 5)])?;
    for ts in [10, 20, 30] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &ts.to_string())])?;
    }
    let mut scan = Scan {
        time_range: (20, 21),
        ..Scan::get(b"r")
    };
    let out = e.scan("t", &mut scan)?;
    assert_eq!(out.rows[0].cells.first().map(|c| c.value), Some(&b"20"[..]));
    let mut scan = Scan {
        time_range: (10, 30),
        max_versions: 5,
        ..Scan::get(b"r")
    };
    let got: Vec<u64> = e.scan("t", &mut scan)?.rows[0]
        .cells
        .iter()
        .map(|c| c.timestamp)
        .collect();
    assert_eq!(got, vec![20, 10], "max is exclusive");
    Ok(())
}
