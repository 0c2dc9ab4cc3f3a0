//! The diagnosis's counts over the last operations, kept as operations come and go
//! (`diagnose::Recent::follow`), equal the same counts made from scratch (`Recent::of`), field
//! for field, over a seeded sequence of writes, gets, range scans and splits long enough that
//! operations leave the 10,000-operation window and the activity's 100,000 kept operations;
//! and the findings made from the kept counts are the findings made from scratch.
mod common;
use common::*;
use rowkey::diagnose::{diagnose, run, Evidence, Recent};
use rowkey::engine::{Engine, Scan, OPS_KEPT};
use rowkey::kit::seeded::Gen;

/// One operation of the sequence: the writes a table's rules look for (random rows, one hot
/// row, rows growing under three prefixes, rows shrinking under one), gets and range scans;
/// `reads` is the share of reads in a thousand.
fn step(e: &mut Engine, g: &mut Gen, i: u64, reads: u64) -> TestResult {
    let pick = g.below(1000);
    if pick < reads {
        if g.below(10) < 8 {
            let row = format!("user{:06}", g.below(50_000));
            e.scan("t", &mut Scan::get(row.as_bytes()))?;
        } else {
            let from = format!("user{:06}", g.below(50_000));
            let mut scan = Scan {
                start_row: from.into_bytes(),
                limit: Some(1 + g.below(40) as usize),
                ..Scan::default()
            };
            e.scan("t", &mut scan)?;
        }
        return Ok(());
    }
    let row = match g.below(100) {
        0..=49 => format!("user{:06}", g.below(50_000)),
        50..=64 => "hot".to_string(),
        65..=84 => format!("pfx{}/item/{}", g.below(3), i),
        _ => format!("rev/{}", u64::MAX - i),
    };
    e.mutate("t", row.as_bytes(), &[put("f", "q", None, "value")])?;
    Ok(())
}

/// Follows the table's activity and holds the kept counts equal to counts made from scratch,
/// and the findings from them equal to the findings made from scratch.
fn check(e: &Engine, kept: &mut Recent, at: u64) -> TestResult {
    let evidence = Evidence::following(e, "t", kept).ok_or("no table")?;
    let act = e.activity("t").ok_or("no activity")?;
    assert_eq!(*kept, Recent::of(act), "counts after operation {at}");
    let ours: Vec<_> = run(&evidence).into_iter().map(|f| f.text).collect();
    let scratch: Vec<_> = diagnose(e, "t").into_iter().map(|f| f.text).collect();
    assert_eq!(ours, scratch, "findings after operation {at}");
    Ok(())
}

#[test]
fn kept_counts_equal_counts_from_scratch_through_evictions_and_splits() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let mut g = Gen::new(24);
    let mut kept = Recent::new();
    let mut next_check = 1u64;
    let mut splits = 0;
    // Mixed traffic, then reads by far the most (the writes' window reaches back past the
    // operations' window, then past the operations the activity keeps), then writes again.
    let phases = [(30_000u64, 100u64), (110_000, 990), (20_000, 200)];
    let mut i = 0u64;
    for (len, reads) in phases {
        for _ in 0..len {
            step(&mut e, &mut g, i, reads)?;
            i += 1;
            if i % 4_000 == 0 {
                let row = format!("user{:06}", g.below(50_000));
                if e.split("t", Some(row.as_bytes())).is_ok() {
                    splits += 1;
                }
            }
            if i == next_check {
                check(&e, &mut kept, i)?;
                // Mostly after a write or a few, sometimes after thousands of operations.
                next_check = i + if g.below(10) == 0 {
                    1 + g.below(5_000)
                } else {
                    1 + g.below(400)
                };
            }
        }
        if reads == 990 {
            // The writes' window lost writes the activity no longer keeps.
            let act = e.activity("t").ok_or("no activity")?;
            let window = Recent::of(act).window();
            assert!(
                window.writes > 0 && window.writes < 10_000,
                "{} writes",
                window.writes
            );
        }
    }
    check(&e, &mut kept, i)?;
    let act = e.activity("t").ok_or("no activity")?;
    assert!(
        act.recorded() > OPS_KEPT as u64 + 50_000,
        "{} operations recorded",
        act.recorded()
    );
    assert!(splits >= 30, "{splits} splits");
    assert!(e.table("t")?.regions.len() > 30);
    let window = kept.window();
    assert_eq!((window.writes, window.ops), (10_000, 10_000));
    Ok(())
}

#[test]
fn a_gap_longer_than_the_activity_keeps_and_another_table_count_again() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.create_table(
        rowkey::engine::TableDescriptor::new("u", vec![rowkey::engine::FamilyDescriptor::new("f")]),
        vec![],
    )?;
    let mut g = Gen::new(7);
    let mut kept = Recent::new();
    for i in 0..3_000 {
        step(&mut e, &mut g, i, 300)?;
    }
    check(&e, &mut kept, 3_000)?;
    // More operations than the activity keeps, then a look.
    for i in 3_000..(3_000 + OPS_KEPT as u64 + 10) {
        step(&mut e, &mut g, i, 500)?;
    }
    check(&e, &mut kept, 3_000 + OPS_KEPT as u64 + 10)?;
    // The same `Recent` shown another table's activity: counted again from scratch.
    for i in 0..500u64 {
        e.mutate(
            "u",
            format!("k{i:04}").as_bytes(),
            &[put("f", "q", None, "v")],
        )?;
    }
    let other = Evidence::following(&e, "u", &mut kept).ok_or("no table u")?;
    assert_eq!(other.window.writes, 500);
    assert_eq!(kept, Recent::of(e.activity("u").ok_or("no activity")?));
    check(&e, &mut kept, 0)?;
    Ok(())
}

#[test]
fn the_figures_of_a_small_window_are_counted_exactly() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    // Rows under two prefixes: a/1 a/2 a/3 (up, up), b/9 b/5 (down), a row without a number,
    // the row "x" three times, a get of "x" and a scan.
    for row in ["a/1", "b/9", "a/2", "x", "b/5", "x", "a/3", "x", "tail"] {
        e.mutate("t", row.as_bytes(), &[put("f", "q", None, "v")])?;
    }
    e.scan("t", &mut Scan::get(b"x"))?;
    e.scan("t", &mut Scan::prefix(b"a/"))?;
    let w = Recent::of(e.activity("t").ok_or("no activity")?).window();
    assert_eq!(w.writes, 9);
    assert_eq!(w.write_rows, 7);
    assert_eq!(w.newest_write.as_deref(), Some(&b"tail"[..]));
    assert_eq!(w.ops, 11);
    assert_eq!(w.range_reads, 1);
    assert_eq!(w.hot_row, Some((b"x".to_vec(), 4)));
    let runs: Vec<(String, usize, usize, usize)> = w
        .top_prefixes
        .iter()
        .map(|p| {
            (
                String::from_utf8_lossy(&p.prefix).into_owned(),
                p.writes,
                p.up,
                p.down,
            )
        })
        .collect();
    assert_eq!(
        runs,
        [("a/".to_string(), 3, 2, 0), ("b/".to_string(), 2, 0, 1)]
    );
    Ok(())
}
