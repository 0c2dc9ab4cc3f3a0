//! KEEP_DELETED_CELLS => 'TTL': deleted cells are kept as with TRUE while the delete marker
//! is within the family's TTL; once it is older, a major compaction purges the marker and
//! what it masks as with FALSE (`CompactionScanQueryMatcher.trackDelete` tracks a marker
//! when `keepDeletedCells == FALSE || (keepDeletedCells == TTL && timestamp <
//! oldestUnexpiredTS)`). MIN_VERSIONS => 1 keeps the expired put from going by TTL alone.
mod common;
use common::*;

fn raw_cells(sh: &mut rowkey::shell::Shell, table: &str) -> usize {
    run(
        sh,
        &format!("scan '{table}', {{RAW => true, VERSIONS => 5}}"),
    )
    .lines()
    .filter(|l| l.contains(" column="))
    .count()
}

#[test]
fn keep_deleted_cells_ttl_keeps_markers_until_they_pass_the_ttl() -> TestResult {
    let (mut sh, clock) = shell_at(1_000_000);
    for (table, keep) in [("kd_ttl", "'TTL'"), ("kd_true", "true")] {
        run(
            &mut sh,
            &format!(
                "create '{table}', {{NAME => 'f', TTL => 10, MIN_VERSIONS => 1, KEEP_DELETED_CELLS => {keep}}}\n\
                 put '{table}', 'r', 'f:q', 'v'\ndeleteall '{table}', 'r', 'f:q'\nflush '{table}'"
            ),
        );
    }
    // Within the TTL both keep the put and its marker through a major compaction.
    run(&mut sh, "major_compact 'kd_ttl'\nmajor_compact 'kd_true'");
    assert_eq!(raw_cells(&mut sh, "kd_ttl"), 2);
    assert_eq!(raw_cells(&mut sh, "kd_true"), 2);
    // Past the TTL, 'TTL' purges them; TRUE keeps them.
    clock.advance(20_000);
    run(&mut sh, "major_compact 'kd_ttl'\nmajor_compact 'kd_true'");
    assert_eq!(raw_cells(&mut sh, "kd_ttl"), 0);
    assert_eq!(raw_cells(&mut sh, "kd_true"), 2);
    Ok(())
}
