//! The per-table activity: bounded, counted by key place and time, kept across splits, the
//! last read's bounds, and saved and put back whole.
mod common;
use common::*;
use rowkey::engine::{Activity, OpKind, Scan, KEY_BUCKETS, OPS_KEPT, TIME_BUCKETS};

fn write(e: &mut rowkey::engine::Engine, row: &str) -> TestResult {
    e.mutate("t", row.as_bytes(), &[put("f", "q", None, "value")])?;
    Ok(())
}

#[test]
fn sequential_writes_land_in_the_last_region_and_the_last_key_bucket() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..4000u64 {
        write(&mut e, &format!("{}", 1_700_000_000_000u64 + i))?;
    }
    let t = e.table("t")?;
    assert!(t.regions.len() > 3, "{} regions", t.regions.len());
    let act = e.activity("t").ok_or("no activity")?;
    // The last 200 writes: all in the region that holds the newest keys now.
    let (counts, seen) = act.per_region(t, Some(OpKind::Write), 200);
    assert_eq!(seen, 200);
    assert_eq!(counts.last().copied(), Some(200), "{counts:?}");
    // In the grid every write went to the last key bucket (the newest key is the last row).
    let used = act.grid.used(e.tick());
    let last_bucket: u64 = (0..used)
        .map(|t| u64::from(act.grid.at(OpKind::Write, t, KEY_BUCKETS - 1)))
        .sum();
    let all: u64 = (0..used)
        .flat_map(|t| (0..KEY_BUCKETS).map(move |k| (t, k)))
        .map(|(t, k)| u64::from(act.grid.at(OpKind::Write, t, k)))
        .sum();
    assert_eq!(all, 4000);
    assert!(
        last_bucket >= 3990,
        "{last_bucket} of {all} in the last bucket"
    );
    Ok(())
}

#[test]
fn random_writes_spread_over_the_key_buckets() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..3000u64 {
        write(&mut e, &format!("k{:05}", (i * 7919) % 3000))?;
    }
    let act = e.activity("t").ok_or("no activity")?;
    let used = act.grid.used(e.tick());
    // The second half of the run, when the keyspace is filled: every key bucket got writes.
    let per_key: Vec<u64> = (0..KEY_BUCKETS)
        .map(|k| {
            (used / 2..used)
                .map(|t| u64::from(act.grid.at(OpKind::Write, t, k)))
                .sum()
        })
        .collect();
    assert!(per_key.iter().all(|&c| c > 0), "{per_key:?}");
    Ok(())
}

#[test]
fn the_history_is_bounded_and_time_buckets_merge() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let mut t = e.table("t")?.descriptor.settings;
    t.split_bytes = 0;
    e.set_settings("t", t)?;
    let n = OPS_KEPT + 2_000;
    for i in 0..n {
        let mut get = Scan::get(format!("r{}", i % 10).as_bytes());
        e.scan("t", &mut get)?;
    }
    let act = e.activity("t").ok_or("no activity")?;
    assert_eq!(act.ops().len(), OPS_KEPT);
    assert_eq!(act.reads, n as u64);
    assert!(
        act.grid.width >= (n / TIME_BUCKETS) as u64,
        "width {}",
        act.grid.width
    );
    let total: u64 = act.grid.reads.iter().map(|&c| u64::from(c)).sum();
    assert_eq!(total, n as u64, "merging buckets keeps every count");
    // The oldest kept operation is the one OPS_KEPT before the newest.
    let oldest = act.ops().next().map(|o| o.tick).unwrap_or(0);
    assert_eq!(oldest, e.tick() - OPS_KEPT as u64 + 1);
    Ok(())
}

#[test]
fn daughters_inherit_their_parents_history() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..100 {
        write(&mut e, &format!("a{i:03}"))?;
    }
    for i in 0..50 {
        write(&mut e, &format!("b{i:03}"))?;
    }
    let parent = e.table("t")?.regions[0].id;
    e.split("t", Some(b"b"))?;
    let t = e.table("t")?;
    assert_eq!(t.regions.len(), 2);
    let act = e.activity("t").ok_or("no activity")?;
    let (counts, seen) = act.per_region(t, Some(OpKind::Write), 1000);
    assert_eq!((counts, seen), (vec![100, 50], 150));
    let mark = act.splits().last().ok_or("no split recorded")?;
    assert_eq!(mark.parent, parent);
    assert_eq!(mark.key, b"b".to_vec());
    assert_eq!((mark.lower, mark.upper), (t.regions[0].id, t.regions[1].id));
    assert!(
        (mark.position - 100.0 / 149.0).abs() < 1e-9,
        "{}",
        mark.position
    );
    assert_eq!(act.parent_of(t.regions[1].id), Some(parent));
    Ok(())
}

#[test]
fn the_last_read_keeps_its_bounds_and_direction() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..300 {
        write(&mut e, &format!("k{i:03}"))?;
    }
    e.split("t", Some(b"k150"))?;
    let mut scan = Scan {
        start_row: b"k100".to_vec(),
        stop_row: b"k200".to_vec(),
        ..Scan::default()
    };
    e.scan("t", &mut scan)?;
    let act = e.activity("t").ok_or("no activity")?;
    let read = act.last_read().ok_or("no last read")?;
    assert!(!read.reversed && !read.get);
    assert_eq!(read.key_range(), (b"k100".to_vec(), b"k200".to_vec()));
    assert_eq!(read.stats.rows_returned, 100);
    assert_eq!(read.first_examined.as_deref(), Some(&b"k100"[..]));
    assert_eq!(read.last_examined.as_deref(), Some(&b"k199"[..]));
    // One operation per region read, clipped to the region.
    let ops: Vec<(Vec<u8>, Option<Vec<u8>>)> = act
        .last(OpKind::Read, 2)
        .map(|o| (o.start.clone(), o.stop.clone()))
        .collect();
    assert_eq!(
        ops,
        vec![
            (b"k150".to_vec(), Some(b"k200".to_vec())),
            (b"k100".to_vec(), Some(b"k150".to_vec())),
        ]
    );
    // A reversed scan from k120 down to (not including) k110.
    let mut rev = Scan {
        start_row: b"k120".to_vec(),
        stop_row: b"k110".to_vec(),
        reversed: true,
        ..Scan::default()
    };
    e.scan("t", &mut rev)?;
    let read = e
        .activity("t")
        .and_then(|a| a.last_read())
        .ok_or("no last read")?;
    assert!(read.reversed);
    assert_eq!(read.key_range(), (b"k110\0".to_vec(), b"k120\0".to_vec()));
    assert_eq!(read.first_examined.as_deref(), Some(&b"k120"[..]));
    // A get.
    e.scan("t", &mut Scan::get(b"k007"))?;
    let read = e
        .activity("t")
        .and_then(|a| a.last_read())
        .ok_or("no last read")?;
    assert!(read.get);
    let last = e
        .activity("t")
        .and_then(|a| a.last(OpKind::Read, 1).next().cloned());
    assert_eq!(
        last.map(|o| (o.start, o.stop)),
        Some((b"k007".to_vec(), None))
    );
    Ok(())
}

#[test]
fn activity_is_saved_and_put_back_whole() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..500 {
        write(&mut e, &format!("k{i:03}"))?;
    }
    e.scan("t", &mut Scan::prefix(b"k1"))?;
    let act = e.activity("t").ok_or("no activity")?.clone();
    let json = serde_json::to_string(&act)?;
    let back: Activity = serde_json::from_str(&json)?;
    assert_eq!(back, act);
    let (mut other, _) = engine_with(&[("f", 1)])?;
    other.restore_activity("t", back);
    other.restore_activity("missing", Activity::new());
    assert_eq!(other.activity("t"), Some(&act));
    assert!(other.activity("missing").is_none());
    // A dropped table takes its history with it.
    e.disable("t")?;
    e.drop_table("t")?;
    assert!(e.activity("t").is_none());
    Ok(())
}

/// A head put back with its stored operations keeps the newest `OPS_KEPT` of them all: the
/// head's own oldest go first, then the oldest of those given; with none of its own, the head
/// takes those given as they are.
#[test]
fn a_history_put_back_keeps_its_newest_operations() -> TestResult {
    use rowkey::engine::{Op, SavedActivity};
    let op = |tick: u64| Op {
        kind: OpKind::Read,
        start: tick.to_be_bytes().to_vec(),
        stop: None,
        region: 1,
        tick,
        wall_ms: tick,
        place: 0.0,
    };
    let head = |ticks: std::ops::Range<u64>| {
        Activity::from_saved(SavedActivity {
            ops: ticks.map(op).collect(),
            ..SavedActivity::default()
        })
    };
    let ticks = |a: &Activity| -> (usize, Option<u64>, Option<u64>) {
        (
            a.ops().len(),
            a.ops().next().map(|o| o.tick),
            a.ops().last().map(|o| o.tick),
        )
    };
    let kept = OPS_KEPT as u64;
    // Ten of its own and OPS_KEPT - 5 given: its five oldest go.
    let a = head(0..10).with_ops((10..kept + 5).map(op).collect());
    assert_eq!(ticks(&a), (OPS_KEPT, Some(5), Some(kept + 4)));
    assert_eq!(a.recorded(), kept);
    // Ten of its own and OPS_KEPT + 3 given: all its own go, and the three oldest given.
    let a = head(0..10).with_ops((10..kept + 13).map(op).collect());
    assert_eq!(ticks(&a), (OPS_KEPT, Some(13), Some(kept + 12)));
    // None of its own.
    let a = head(0..0).with_ops((0..7).map(op).collect());
    assert_eq!(ticks(&a), (7, Some(0), Some(6)));
    assert_eq!(a.recorded(), 7);
    Ok(())
}

/// The writes per region, counted through the regions' start keys side by side, equal a count of
/// each operation's own regions (`Op::regions`), scans over several regions and to the table's
/// end included.
#[test]
fn writes_and_scans_per_region_match_each_operations_regions() -> TestResult {
    per_region_matches_each_operations_regions(|i| format!("k{i:05}"))
}

/// The same with keys whose first eight bytes are all alike, and keys ending in zero bytes
/// (`Starts` compares eight-byte heads first, the whole keys only when the heads are equal).
#[test]
fn per_region_counts_keys_alike_in_their_first_eight_bytes() -> TestResult {
    per_region_matches_each_operations_regions(|i| {
        let zeros = "\0".repeat((i % 3) as usize);
        if i % 2 == 0 {
            format!("prefix__{i:05}")
        } else {
            format!("pre{}{zeros}", i % 7)
        }
    })
}

fn per_region_matches_each_operations_regions(key: impl Fn(u64) -> String) -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..12000u64 {
        write(&mut e, &key((i * 7919) % 12000))?;
    }
    // Writes at each region's first row, and scans starting and stopping at region starts:
    // the boundaries, where "at or before" and "before" differ.
    let starts = region_starts(&e, "t")?;
    for start in starts.iter().filter(|s| !s.is_empty()) {
        e.mutate("t", start, &[put("f", "q", None, "again")])?;
    }
    let mut ranges: Vec<(Vec<u8>, Vec<u8>)> = vec![
        (key(100).into_bytes(), key(2500).into_bytes()),
        (key(1000).into_bytes(), Vec::new()),
        (key(0).into_bytes(), key(1).into_bytes()),
    ];
    ranges.extend(starts.windows(3).map(|w| (w[0].clone(), w[2].clone())));
    for (start, stop) in ranges {
        let mut scan = Scan::default();
        scan.start_row = start;
        scan.stop_row = stop;
        e.read("t", &mut scan)?;
    }
    let t = e.table("t")?;
    assert!(t.regions.len() > 3, "{} regions", t.regions.len());
    let act = e.activity("t").ok_or("no activity")?;
    for kind in [None, Some(OpKind::Write), Some(OpKind::Read)] {
        let mut want = vec![0u64; t.regions.len()];
        let mut seen = 0u64;
        for op in act
            .ops()
            .rev()
            .filter(|o| kind.is_none_or(|k| o.kind == k))
            .take(2500)
        {
            seen += 1;
            for c in want
                .iter_mut()
                .take(op.regions(t).end() + 1)
                .skip(*op.regions(t).start())
            {
                *c += 1;
            }
        }
        assert_eq!(act.per_region(t, kind, 2500), (want, seen), "{kind:?}");
    }
    Ok(())
}
