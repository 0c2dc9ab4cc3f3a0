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
