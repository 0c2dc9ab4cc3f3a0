//! A Bigtable table's tablets split by size and by load. Bigtable splits and moves tablets by
//! their size and by their access patterns (reads, writes and scans) and documents no
//! threshold ("How Bigtable optimizes your data over time",
//! https://cloud.google.com/bigtable/docs/overview#load-balancing; "Hot tablets",
//! https://cloud.google.com/bigtable/docs/hot-tablets), so the load rule is Rowkey's model
//! (`engine::load`): after every 1,000 operations on the table, a tablet that served at least
//! 600 of them splits at the median of the row keys requested in it, unless that median is
//! its first row.

mod common;

use common::cbt::{run, session};
use common::{put, TestResult};
use rowkey::cbt::Session;
use rowkey::engine::{
    load_split, Engine, FamilyDescriptor, LsmEventKind, SplitCause, TableDescriptor, TableSettings,
    LOAD_SPLIT_OPS, LOAD_WINDOW,
};

/// The tablets' start keys after the first, as text.
fn boundaries(s: &Session, table: &str) -> Result<Vec<String>, String> {
    Ok(s.engine
        .table(table)
        .map_err(|e| e.to_string())?
        .regions
        .iter()
        .skip(1)
        .map(|r| String::from_utf8_lossy(&r.start).into_owned())
        .collect())
}

/// A Bigtable table `t` with family `cf` whose size never splits it (a split size of 1 GB),
/// so only its load does.
fn load_only(s: &mut Session, create: &str) -> TestResult {
    run(s, &[create])?;
    s.engine.set_settings(
        "t",
        TableSettings {
            split_bytes: 1 << 30,
            ..TableSettings::default()
        },
    )?;
    Ok(())
}

/// Runs `line(i)` for each `i`.
fn each(s: &mut Session, range: std::ops::Range<u32>, line: impl Fn(u32) -> String) -> TestResult {
    for i in range {
        run(s, &[&line(i)])?;
    }
    Ok(())
}

#[test]
fn the_rule_s_figures() {
    assert_eq!(LOAD_WINDOW, 1_000);
    assert_eq!(LOAD_SPLIT_OPS, 600);
}

/// An even load on one tablet: the 1,000th write splits it at the median of the keys written
/// (r500 of r000..r999); then each half takes half the load, below 600, and stays whole.
#[test]
fn an_even_load_settles_at_two_tablets() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf")?;
    each(&mut s, 0..999, |i| format!("set t r{i:03} cf:a=v@1000"))?;
    assert_eq!(boundaries(&s, "t")?, Vec::<String>::new(), "999 operations");
    run(&mut s, &["set t r999 cf:a=v@1000"])?;
    assert_eq!(boundaries(&s, "t")?, ["r500"]);
    // 2,000 lookups spread evenly: 500 per tablet per window.
    each(&mut s, 0..2000, |i| format!("lookup t r{:03}", i % 1000))?;
    assert_eq!(boundaries(&s, "t")?, ["r500"]);
    // A load split is a split like any other: the activity remembers it.
    let splits: Vec<Vec<u8>> = s
        .engine
        .activity("t")
        .map(|a| a.splits().map(|m| m.key.clone()).collect())
        .unwrap_or_default();
    assert_eq!(splits, [b"r500".to_vec()]);
    Ok(())
}

/// The threshold is exact: 599 of a window's 1,000 operations in one tablet leave it whole,
/// 600 split it.
#[test]
fn six_hundred_of_a_thousand_split_a_tablet() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf splits=m")?;
    // Window 1: 599 reads in [, m), 401 in [m, ).
    each(&mut s, 0..599, |i| format!("lookup t a{i:03}"))?;
    each(&mut s, 0..401, |i| format!("lookup t n{i:03}"))?;
    assert_eq!(boundaries(&s, "t")?, ["m"]);
    // Window 2: 600 in [, m): the median of a000..a599 is a300.
    each(&mut s, 0..600, |i| format!("lookup t a{i:03}"))?;
    each(&mut s, 0..400, |i| format!("lookup t n{i:03}"))?;
    assert_eq!(boundaries(&s, "t")?, ["a300", "m"]);
    Ok(())
}

/// A key that only grows keeps the last tablet at 100 % of the load: it splits every window
/// at the middle of that window's keys, and the hotspot moves on with the writes.
#[test]
fn a_growing_key_splits_the_last_tablet_every_window() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf")?;
    each(&mut s, 0..3000, |i| format!("set t k{i:04} cf:a=v@1000"))?;
    assert_eq!(boundaries(&s, "t")?, ["k0500", "k1500", "k2500"]);
    // The LSM view's events say why each split happened.
    let causes: Vec<Option<SplitCause>> = s
        .engine
        .lsm_events("t")
        .map(|log| {
            log.iter()
                .filter(|e| e.kind == LsmEventKind::Split)
                .map(|e| e.cause)
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(causes, [Some(SplitCause::Load); 3]);
    Ok(())
}

/// One hot row: the first window splits the tablet at that row, which then starts its tablet;
/// a row is never split, so later windows split nothing.
#[test]
fn a_hot_row_gets_a_tablet_of_its_own_start() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf")?;
    each(&mut s, 0..10, |i| format!("set t r{i} cf:a=v@1000"))?;
    each(&mut s, 0..990, |_| "lookup t r5".to_string())?;
    assert_eq!(boundaries(&s, "t")?, ["r5"]);
    each(&mut s, 0..3000, |_| "lookup t r5".to_string())?;
    assert_eq!(boundaries(&s, "t")?, ["r5"]);
    Ok(())
}

/// A scan counts once in every tablet it reads, at its first row inside the tablet.
#[test]
fn a_scan_counts_in_each_tablet_it_reads() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf splits=m")?;
    each(&mut s, 0..10, |i| format!("set t a{i} cf:a=v@1000"))?;
    each(&mut s, 0..10, |i| format!("set t n{i} cf:a=v@1000"))?;
    // 20 writes, then 490 full scans (980 operations, 490 per tablet): 510 per tablet.
    each(&mut s, 0..490, |_| "read t".to_string())?;
    assert_eq!(boundaries(&s, "t")?, ["m"]);
    // The next window: 600 scans from a5 in [, m) and 400 lookups in [m, ).
    each(&mut s, 0..600, |_| "read t start=a5 end=b".to_string())?;
    each(&mut s, 0..400, |_| "lookup t n1".to_string())?;
    assert_eq!(boundaries(&s, "t")?, ["a5", "m"]);
    Ok(())
}

/// Turning automatic splits off (a split size of 0) turns the load rule off too, and an HBase
/// table never splits by load: the same 1,000 writes leave one region.
#[test]
fn no_load_splits_when_splits_are_off_or_for_hbase() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf"])?;
    s.engine.set_settings(
        "t",
        TableSettings {
            split_bytes: 0,
            ..TableSettings::default()
        },
    )?;
    each(&mut s, 0..1000, |i| format!("set t r{i:03} cf:a=v@1000"))?;
    assert_eq!(boundaries(&s, "t")?, Vec::<String>::new());

    let mut e = Engine::new(Box::new(|| 1_000));
    e.create_table(
        TableDescriptor::new("h", vec![FamilyDescriptor::new("cf")]),
        Vec::new(),
    )?;
    for i in 0..1000 {
        e.mutate(
            "h",
            format!("r{i:03}").as_bytes(),
            &[put("cf", "a", Some(1), "v")],
        )?;
    }
    assert_eq!(e.table("h")?.regions.len(), 1);
    Ok(())
}

/// The rule as a function of a window: the region and the count it found.
#[test]
fn the_rule_over_a_window() -> TestResult {
    let mut s = session();
    load_only(&mut s, "createtable t families=cf")?;
    each(&mut s, 0..700, |i| format!("lookup t x{i:03}"))?;
    let activity = s.engine.activity("t").ok_or("no activity")?;
    let split = load_split(s.engine.table("t")?, activity.ops()).ok_or("no split")?;
    assert_eq!(split.region, 0);
    assert_eq!(split.ops, 700);
    assert_eq!(split.key, b"x350");
    Ok(())
}

/// A Bigtable table still splits by size: past its split size (4 KB here) a tablet splits at
/// its middle key, once for these 100 rows, and the event says "by size" (100 writes are far
/// from a load window).
#[test]
fn a_bigtable_table_splits_by_size_too() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf"])?;
    s.engine.set_settings(
        "t",
        TableSettings {
            flush_bytes: 1024,
            compaction_threshold: 3,
            split_bytes: 4096,
        },
    )?;
    each(&mut s, 0..100, |i| {
        format!("set t r{i:03} cf:a=a-value-of-some-thirty-bytes@1000")
    })?;
    let tablets = s.engine.table("t")?.regions.len();
    let events = s.engine.lsm_events("t").ok_or("no events")?;
    let causes: Vec<Option<SplitCause>> = events
        .iter()
        .filter(|e| e.kind == LsmEventKind::Split)
        .map(|e| e.cause)
        .collect();
    assert_eq!(tablets, 2);
    assert_eq!(causes, vec![Some(SplitCause::Size); tablets - 1]);
    Ok(())
}
