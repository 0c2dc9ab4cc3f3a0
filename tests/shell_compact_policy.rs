//! The shell's `compact` asks for a minor compaction, and each store's policy chooses what to
//! merge, as HBase 2.x's `HStore.requestCompaction` lets `ExploringCompactionPolicy` (over
//! `RatioBasedCompactionPolicy`) choose: a large old run stays out while the small new ones
//! next to it merge, and a store with fewer runs than the threshold is left alone
//! (`checkMinFilesCriteria`). `major_compact` merges every run (`forceMajor`). Family
//! arguments limit either to one family's stores.
mod common;
use common::*;

/// The byte sizes of the runs of the first region's store of family `fi`, newest first.
fn runs(sh: &rowkey::shell::Shell, fi: usize) -> Result<Vec<usize>, Box<dyn std::error::Error>> {
    let t = sh.engine.table("t")?;
    let store = t
        .regions
        .first()
        .and_then(|r| r.stores.get(fi))
        .ok_or("no store")?;
    Ok(store.runs.iter().map(|r| r.bytes).collect())
}

/// Writes `rows` rows into family `f` from row number `from`, then flushes them as one run.
fn run_of(sh: &mut rowkey::shell::Shell, family: &str, from: usize, rows: usize) {
    let mut script = String::new();
    for i in from..from + rows {
        script.push_str(&format!(
            "put 't', 'row{i:05}', '{family}:q', 'value-{i:05}'\n"
        ));
    }
    script.push_str(&format!("flush 't', '{family}'"));
    run(sh, &script);
}

/// `TestExploringCompactionPolicy`'s point, through the shell: with a flush size of 1 KB (the
/// policy's `hbase.hstore.compaction.min.size`), one large run and three small ones newer
/// than it. No window holding the large run is in ratio (it is more than 1.2 times the rest),
/// so `compact` merges the three small runs and leaves the large one as it was.
#[test]
fn compact_merges_the_small_new_runs_and_leaves_the_large_old_one() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't', 'f', 'g', {MEMSTORE_FLUSHSIZE => '1024'}",
    );
    // The large run: four runs of some 450 bytes, merged by a first compact (all four are in
    // ratio, and four runs beat any three).
    for i in 0..4 {
        run_of(&mut sh, "f", i * 10, 10);
    }
    assert_eq!(runs(&sh, 0)?.len(), 4);
    assert_eq!(run(&mut sh, "compact 't'"), "");
    let large = runs(&sh, 0)?;
    assert_eq!(large.len(), 1);
    let large = large[0];
    // Larger than the flush size, so the ratio applies to every window holding it.
    assert!(large > 1_024, "{large}");
    // Three small runs after it.
    for i in 0..3 {
        run_of(&mut sh, "f", 100 + i, 1);
    }
    let before = runs(&sh, 0)?;
    assert_eq!(before.len(), 4);
    run(&mut sh, "compact 't'");
    let after = runs(&sh, 0)?;
    assert_eq!(after.len(), 2, "{before:?} -> {after:?}");
    // The large run is untouched (oldest, last); the newer one holds the three small ones.
    assert_eq!(after[1], large);
    assert!(after[0] < large / 4, "{after:?}");
    // Two runs are fewer than the three a minor compaction needs: nothing to do. HBase's
    // shell prints nothing; Rowkey says why the runs stayed as they were.
    assert_eq!(
        run(&mut sh, "compact 't'"),
        "Nothing compacted: a minor compaction merges at least 3 runs of a store (the table's \
         COMPACTION_THRESHOLD, HBase's hbase.hstore.compaction.min), and the most a store of t \
         holds is 2. major_compact merges every run.\n"
    );
    assert_eq!(runs(&sh, 0)?, after);
    // One tiny run more makes three, but their one window holds the large run, more than 1.2
    // times the other two together: still nothing, for that reason.
    run_of(&mut sh, "f", 200, 1);
    assert_eq!(
        run(&mut sh, "compact 't'"),
        "Nothing compacted: the exploring policy found no 3 or more runs of a store in ratio \
         (each at most 1.2 times the others together). major_compact merges every run.\n"
    );
    assert_eq!(runs(&sh, 0)?.len(), 3);
    // A major compaction merges them all.
    run(&mut sh, "major_compact 't'");
    assert_eq!(runs(&sh, 0)?.len(), 1);
    Ok(())
}

/// `compact 't', 'f'` and `major_compact 't', 'f'` compact only that family's stores.
#[test]
fn a_family_argument_compacts_only_that_family() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't', 'f', 'g', {MEMSTORE_FLUSHSIZE => '1024'}",
    );
    for i in 0..3 {
        run_of(&mut sh, "f", i, 1);
        run_of(&mut sh, "g", i, 1);
    }
    run(&mut sh, "compact 't', 'g'");
    assert_eq!((runs(&sh, 0)?.len(), runs(&sh, 1)?.len()), (3, 1));
    run(&mut sh, "major_compact 't', 'f'");
    assert_eq!((runs(&sh, 0)?.len(), runs(&sh, 1)?.len()), (1, 1));
    // The rows are all still there.
    assert!(run(&mut sh, "count 't'").contains("3 row(s)"));
    Ok(())
}
