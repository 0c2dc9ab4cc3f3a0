//! The delete-models design: the same story on HBase and Bigtable. HBase's delete marker hides
//! a rewrite at an older timestamp until a major compaction drops the marker
//! (`ScanDeleteTracker`, `DeleteTracker.isDeleted`); Bigtable's delete leaves no marker, so the
//! rewrite is visible at once ("Deletes" in Bigtable's writes documentation).
mod common;
use common::*;
use rowkey::designs::delete_models::{BIGTABLE, HBASE};
use rowkey::dialect::Dialect;

#[test]
fn hbase_hides_the_older_rewrite_until_a_major_compaction() -> TestResult {
    let runs = HBASE.run()?;
    let visible: Vec<usize> = runs.iter().map(|r| r.visible).collect();
    assert_eq!(visible, vec![0, 1, 0, 0, 0, 0, 0, 1, 1]);
    assert_eq!(
        runs[4].output,
        "COLUMN  CELL\n0 row(s)\nTook 0.0000 seconds\n"
    );
    assert!(
        runs[8].output.contains("timestamp=1000, value=old"),
        "{}",
        runs[8].output
    );
    assert_eq!(HBASE.dialect, Dialect::HBase);
    Ok(())
}

#[test]
fn bigtable_shows_the_older_rewrite_at_once() -> TestResult {
    let runs = BIGTABLE.run()?;
    let visible: Vec<usize> = runs.iter().map(|r| r.visible).collect();
    assert_eq!(visible, vec![0, 1, 0, 1, 1]);
    assert_eq!(
        runs[4].output,
        "----------------------------------------\nr1\n  cf:a                                     @ 1970/01/01-00:00:00.001000\n    \"old\"\n\n"
    );
    assert_eq!(BIGTABLE.dialect, Dialect::Cbt);
    Ok(())
}

/// What the flush step says: the marker is written to the run and the cells it masks are not
/// (a flush's `MinorCompactionScanQueryMatcher` keeps markers and skips what they delete).
#[test]
fn the_flush_step_writes_the_marker_and_leaves_the_masked_cells_out() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    for step in HBASE.steps.iter().take(6) {
        run(&mut sh, step.line);
    }
    assert!(HBASE.steps[5].line.starts_with("flush"));
    assert!(HBASE.steps[5]
        .note
        .contains("the cells it hides are left out"));
    let raw = run(&mut sh, "scan 'hb', {RAW => true, VERSIONS => 10}");
    assert!(raw.contains("type=DeleteFamily"), "{raw}");
    assert!(
        raw.ends_with("1 row(s)\n") && raw.matches(" column=").count() == 1,
        "{raw}"
    );
    Ok(())
}
