//! A row's version stack: every stored cell with where it lives and its fate under a default
//! read, decided by the read path's own delete and version trackers.
//!
//! HBase: `querymatcher/ScanQueryMatcher.java` (the order of checks: TTL, delete markers,
//! then versions), `querymatcher/ScanDeleteTracker.java` (what each marker kind masks),
//! `querymatcher/ColumnTracker.java` / `ScanWildcardColumnTracker.java` (VERSIONS).
mod common;
use common::*;
use rowkey::engine::{CellKind, Engine, Fate, LsmEventKind, Marker, Mutation, Part, Scan};

fn delete(family: &str, q: Option<&str>, ts: u64, all_versions: bool) -> Mutation {
    Mutation::Delete {
        family: family.into(),
        qualifier: q.map(Into::into),
        timestamp: Some(ts),
        all_versions,
    }
}

/// `(family:qualifier, ts, kind, fate)` of every stored cell of the row.
fn stack(
    e: &Engine,
    row: &str,
) -> Result<Vec<(String, u64, CellKind, Fate)>, rowkey::engine::Error> {
    Ok(e.row_stack("t", row.as_bytes())?
        .cells
        .into_iter()
        .map(|s| {
            let col = format!(
                "{}:{}",
                String::from_utf8_lossy(&s.cell.family),
                String::from_utf8_lossy(&s.cell.qualifier)
            );
            (col, s.cell.timestamp, s.cell.kind, s.fate)
        })
        .collect())
}

fn masked(kind: CellKind, timestamp: u64) -> Fate {
    Fate::Masked {
        by: Marker { kind, timestamp },
        kept: false,
    }
}

fn three_versions(e: &mut Engine, family: &str, q: &str) -> TestResult {
    for ts in 1..=3 {
        e.mutate("t", b"r", &[put(family, q, Some(ts), &format!("v{ts}"))])?;
    }
    Ok(())
}

#[test]
fn a_delete_masks_one_version() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3)])?;
    three_versions(&mut e, "f", "a")?;
    e.mutate("t", b"r", &[delete("f", Some("a"), 2, false)])?;
    let got = stack(&e, "r")?;
    let want = vec![
        ("f:a".to_string(), 3, CellKind::Put, Fate::Visible),
        ("f:a".to_string(), 2, CellKind::Delete, Fate::Marker),
        (
            "f:a".to_string(),
            2,
            CellKind::Put,
            masked(CellKind::Delete, 2),
        ),
        ("f:a".to_string(), 1, CellKind::Put, Fate::Visible),
    ];
    assert_eq!(got, want);
    Ok(())
}

#[test]
fn a_delete_column_masks_every_version_up_to_its_timestamp() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3)])?;
    three_versions(&mut e, "f", "a")?;
    three_versions(&mut e, "f", "b")?;
    e.mutate("t", b"r", &[delete("f", Some("a"), 2, true)])?;
    let fates: Vec<(String, u64, Fate)> = stack(&e, "r")?
        .into_iter()
        .filter(|c| c.2 == CellKind::Put)
        .map(|c| (c.0, c.1, c.3))
        .collect();
    assert_eq!(
        fates,
        vec![
            ("f:a".to_string(), 3, Fate::Visible),
            ("f:a".to_string(), 2, masked(CellKind::DeleteColumn, 2)),
            ("f:a".to_string(), 1, masked(CellKind::DeleteColumn, 2)),
            ("f:b".to_string(), 3, Fate::Visible),
            ("f:b".to_string(), 2, Fate::Visible),
            ("f:b".to_string(), 1, Fate::Visible),
        ]
    );
    Ok(())
}

#[test]
fn family_markers_mask_the_family_only() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3), ("g", 3)])?;
    three_versions(&mut e, "f", "a")?;
    three_versions(&mut e, "f", "b")?;
    three_versions(&mut e, "g", "a")?;
    e.mutate("t", b"r", &[delete("f", None, 2, true)])?;
    for (col, ts, kind, fate) in stack(&e, "r")? {
        let want = match (col.as_str(), ts, kind) {
            (_, _, CellKind::DeleteFamily) => Fate::Marker,
            ("g:a", _, _) | (_, 3, _) => Fate::Visible,
            _ => masked(CellKind::DeleteFamily, 2),
        };
        assert_eq!(fate, want, "{col}@{ts}");
    }
    // A DeleteFamilyVersion masks that one timestamp in every column of its family.
    let (mut e, _) = engine_with(&[("f", 3)])?;
    three_versions(&mut e, "f", "a")?;
    three_versions(&mut e, "f", "b")?;
    e.mutate("t", b"r", &[delete("f", None, 2, false)])?;
    for (col, ts, kind, fate) in stack(&e, "r")? {
        let want = match (ts, kind) {
            (_, CellKind::DeleteFamilyVersion) => Fate::Marker,
            (2, _) => masked(CellKind::DeleteFamilyVersion, 2),
            _ => Fate::Visible,
        };
        assert_eq!(fate, want, "{col}@{ts}");
    }
    Ok(())
}

#[test]
fn versions_beyond_the_limit_wait_in_the_memstore_until_a_flush() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    three_versions(&mut e, "f", "a")?;
    let before = e.row_stack("t", b"r")?;
    let fates: Vec<(u64, Fate, Part)> = before
        .cells
        .iter()
        .map(|s| (s.cell.timestamp, s.fate, s.part))
        .collect();
    assert_eq!(
        fates,
        vec![
            (3, Fate::Visible, Part::Memstore),
            (2, Fate::BeyondVersions, Part::Memstore),
            (1, Fate::BeyondVersions, Part::Memstore),
        ]
    );
    e.flush("t")?;
    let after = e.row_stack("t", b"r")?;
    let run = e.table("t")?.regions[0].stores[0].runs[0].id;
    assert_eq!(after.cells.len(), 1);
    assert_eq!(
        (after.cells[0].cell.timestamp, after.cells[0].part),
        (3, Part::Run(run))
    );
    Ok(())
}

#[test]
fn expired_and_kept_deleted_cells_are_told_apart() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 3)])?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "ttl".into(),
            timestamp: None,
            value: b"soon gone".to_vec(),
            ttl_ms: Some(50),
        }],
    )?;
    clock.advance(100);
    let fates: Vec<Fate> = stack(&e, "r")?.into_iter().map(|c| c.3).collect();
    assert_eq!(fates, vec![Fate::Expired]);

    let mut shell_e = clock.engine();
    let mut f = rowkey::engine::FamilyDescriptor::new("f");
    f.keep_deleted_cells = rowkey::engine::KeepDeletedCells::True;
    shell_e.create_table(rowkey::engine::TableDescriptor::new("t", vec![f]), vec![])?;
    shell_e.mutate("t", b"r", &[put("f", "a", Some(1), "v")])?;
    shell_e.mutate("t", b"r", &[delete("f", Some("a"), 1, true)])?;
    let fates: Vec<Fate> = stack(&shell_e, "r")?.into_iter().map(|c| c.3).collect();
    assert_eq!(
        fates,
        vec![
            Fate::Marker,
            Fate::Masked {
                by: Marker {
                    kind: CellKind::DeleteColumn,
                    timestamp: 1
                },
                kept: true
            }
        ]
    );
    Ok(())
}

#[test]
fn a_row_whose_cells_are_all_deleted_keeps_its_markers_in_the_stack() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1), ("g", 1)])?;
    e.mutate(
        "t",
        b"r",
        &[put("f", "a", Some(1), "x"), put("g", "b", Some(1), "y")],
    )?;
    e.mutate("t", b"r", &[Mutation::DeleteRow { timestamp: Some(5) }])?;
    let got = e.read("t", &mut Scan::get(b"r"))?;
    assert!(got.rows.is_empty(), "a get sees nothing");
    let kinds: Vec<(CellKind, Fate)> = stack(&e, "r")?.into_iter().map(|c| (c.2, c.3)).collect();
    assert_eq!(
        kinds,
        vec![
            (CellKind::DeleteFamily, Fate::Marker),
            (CellKind::Put, masked(CellKind::DeleteFamily, 5)),
            (CellKind::DeleteFamily, Fate::Marker),
            (CellKind::Put, masked(CellKind::DeleteFamily, 5)),
        ]
    );
    Ok(())
}

/// The stack's visible cells are exactly what a get with the family's VERSIONS returns, over
/// many random sequences of puts, deletes, flushes and compactions.
#[test]
fn visible_cells_are_what_a_get_returns() -> TestResult {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    for round in 0..300 {
        let (mut e, _) = engine_with(&[("f", 2), ("g", 1)])?;
        for _ in 0..12 {
            let fam = if next(2) == 0 { "f" } else { "g" };
            let q = ["a", "b"][next(2) as usize];
            let ts = 1 + next(5);
            let m = match next(8) {
                0 => delete(fam, Some(q), ts, false),
                1 => delete(fam, Some(q), ts, true),
                2 => delete(fam, None, ts, true),
                3 => delete(fam, None, ts, false),
                _ => put(fam, q, Some(ts), &format!("v{}", next(100))),
            };
            e.mutate("t", b"r", &[m])?;
            match next(10) {
                0 => e.flush("t")?,
                1 => e.compact("t", false)?,
                2 => e.compact("t", true)?,
                _ => {}
            }
        }
        let mut get = Scan::get(b"r");
        get.max_versions = u32::MAX;
        let read: Vec<(u64, u64)> = e
            .read("t", &mut get)?
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .map(|c| (c.seq, c.timestamp))
            .collect();
        let visible: Vec<(u64, u64)> = e
            .row_stack("t", b"r")?
            .cells
            .iter()
            .filter(|s| s.fate == Fate::Visible)
            .map(|s| (s.cell.seq, s.cell.timestamp))
            .collect();
        assert_eq!(visible, read, "round {round}");
    }
    Ok(())
}

#[test]
fn the_watched_row_is_kept_from_before_a_flush_and_a_major_compaction() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3)])?;
    e.watch_row("t", b"r");
    three_versions(&mut e, "f", "a")?;
    e.mutate("t", b"r", &[delete("f", Some("a"), 2, false)])?;
    e.flush("t")?;
    let before = e
        .row_before("t", b"r")
        .ok_or("nothing kept before the flush")?;
    assert_eq!(before.kind, LsmEventKind::Flush);
    assert!(before.stack.cells.iter().all(|s| s.part == Part::Memstore));
    assert!(before
        .stack
        .cells
        .iter()
        .any(|s| s.fate == masked(CellKind::Delete, 2)));
    let after = e.row_stack("t", b"r")?;
    assert_eq!(
        after.cells.len(),
        3,
        "the flush dropped the masked version, kept the marker"
    );
    e.compact("t", true)?;
    let before = e
        .row_before("t", b"r")
        .ok_or("nothing kept before major_compact")?;
    assert_eq!(before.kind, LsmEventKind::MajorCompaction);
    assert_eq!(before.stack, after);
    assert_eq!(
        e.row_stack("t", b"r")?.cells.len(),
        2,
        "the marker is purged"
    );
    assert!(e.row_before("t", b"other").is_none());
    Ok(())
}
