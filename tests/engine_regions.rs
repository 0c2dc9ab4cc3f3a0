//! Regions: pre-splits, automatic splits at the middle key, splits by command, and flushes and
//! compactions that keep results unchanged.
mod common;
use common::*;
use rowkey::engine::{split_keys, FamilyDescriptor, Scan, TableDescriptor};

#[test]
fn a_few_thousand_rows_split_into_several_regions() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..3000 {
        e.mutate(
            "t",
            format!("user{i:05}").as_bytes(),
            &[put("f", "name", None, "some readable name")],
        )?;
    }
    let t = e.table("t")?;
    assert!(t.regions.len() >= 4, "got {} regions", t.regions.len());
    for w in t.regions.windows(2) {
        assert_eq!(w[0].end, w[1].start, "regions tile the key space");
    }
    assert!(e.counters().flushes > 0 && e.counters().splits > 0);
    let mut all = Scan::default();
    let keys = rows(&mut e, &mut all)?;
    assert_eq!(keys.len(), 3000);
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    Ok(())
}

#[test]
fn sequential_keys_write_only_the_last_region() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let key = |i: u64| format!("{}", 1_700_000_000_000u64 + i);
    for i in 0..4000 {
        e.mutate("t", key(i).as_bytes(), &[put("f", "v", None, "x")])?;
    }
    let before: Vec<(u64, u64)> = e
        .table("t")?
        .regions
        .iter()
        .map(|r| (r.id, r.stats.writes))
        .collect();
    assert!(before.len() > 2, "got {} regions", before.len());
    for i in 4000..4100 {
        e.mutate("t", key(i).as_bytes(), &[put("f", "v", None, "x")])?;
    }
    let t = e.table("t")?;
    // Every region but the last one of before is untouched (the last may have split since).
    for (id, writes) in before.iter().take(before.len() - 1) {
        let now = t
            .regions
            .iter()
            .find(|r| r.id == *id)
            .map(|r| r.stats.writes);
        assert_eq!(
            now,
            Some(*writes),
            "region {id} took none of the new writes"
        );
    }
    let total_before: u64 = before.iter().map(|b| b.1).sum();
    let total_now: u64 = t.regions.iter().map(|r| r.stats.writes).sum();
    assert_eq!(
        total_now - total_before,
        100,
        "all new writes went to the last region or its daughters"
    );
    Ok(())
}

#[test]
fn pre_split_and_split_by_command() -> TestResult {
    let clock = Clock::at(1);
    let mut e = clock.engine();
    let keys = split_keys("HexStringSplit", 4).unwrap_or_default();
    e.create_table(
        TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]),
        keys,
    )?;
    assert_eq!(
        e.splits("t")?,
        vec![
            b"40000000".to_vec(),
            b"80000000".to_vec(),
            b"c0000000".to_vec()
        ]
    );
    for k in ["10", "50", "90", "d0", "d5"] {
        e.mutate("t", k.as_bytes(), &[put("f", "q", None, k)])?;
    }
    e.split("t", Some(b"d2"))?;
    assert_eq!(e.splits("t")?.len(), 4);
    assert!(
        e.split("t", Some(b"d2")).is_err(),
        "a region's own start is no split point"
    );
    let mut all = Scan::default();
    assert_eq!(rows(&mut e, &mut all)?, vec!["10", "50", "90", "d0", "d5"]);
    Ok(())
}

#[test]
fn flush_and_compaction_leave_results_alone() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 3)])?;
    for i in 0..50u64 {
        e.mutate(
            "t",
            format!("r{}", i % 7).as_bytes(),
            &[put(
                "f",
                &format!("q{}", i % 3),
                Some(i + 1),
                &i.to_string(),
            )],
        )?;
        if i % 10 == 9 {
            e.flush("t")?;
        }
    }
    let snapshot = |e: &mut rowkey::engine::Engine| -> Result<Vec<String>, rowkey::engine::Error> {
        let mut s = Scan {
            max_versions: 5,
            ..Scan::default()
        };
        Ok(e.scan("t", &mut s)?
            .rows
            .iter()
            .flat_map(|r| {
                r.cells
                    .iter()
                    .map(|c| format!("{:?}{:?}{}", r.row(), c.qualifier, c.timestamp))
            })
            .collect())
    };
    let before = snapshot(&mut e)?;
    assert!(e.table("t")?.regions[0].stores[0].runs.len() >= 2);
    e.compact("t", false)?;
    assert_eq!(e.table("t")?.regions[0].stores[0].runs.len(), 1);
    assert_eq!(snapshot(&mut e)?, before);
    e.compact("t", true)?;
    assert_eq!(snapshot(&mut e)?, before);
    Ok(())
}
