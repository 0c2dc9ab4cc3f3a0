//! `scan` with `ALL_METRICS => true` or `METRICS => [...]` prints the scan metrics after the
//! rows as hbase-shell 2.x does: `_hash_to_scan` turns metrics on
//! (`enablemetrics = ALL_METRICS || !METRICS.nil?`), `scan.rb` prints them after the footer,
//! and `formatter.rb` `scan_metrics` writes an empty line, `METRIC  VALUE` and one row per
//! metric of `ScanMetrics.getMetricsMap` in alphabetical order, only those METRICS names.
mod common;
use common::*;

fn setup() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't1', 'f', SPLITS => ['m']\n\
         put 't1', 'a', 'f:q', 'v'\n\
         put 't1', 'b', 'f:q', 'w'\n\
         put 't1', 'x', 'f:q', 'v'",
    );
    sh
}

/// scan.rb's help example `scan 't1', {ALL_METRICS => true}`.
#[test]
fn all_metrics_prints_every_metric_sorted_after_the_rows() -> TestResult {
    let mut sh = setup();
    let out = run(&mut sh, "scan 't1', {ALL_METRICS => true}");
    // One cell of 1-byte row, family, qualifier and value: 4 bytes + 20 of KeyValue framing.
    let expected = "ROW  COLUMN+CELL\n\
         \x20a column=f:q, timestamp=1001, value=v\n\
         \x20b column=f:q, timestamp=1002, value=w\n\
         \x20x column=f:q, timestamp=1003, value=v\n\
         3 row(s)\n\
         \n\
         METRIC  VALUE\n\
         \x20BLOCK_BYTES_SCANNED 0\n\
         \x20BYTES_IN_REMOTE_RESULTS 0\n\
         \x20BYTES_IN_RESULTS 72\n\
         \x20NOT_SERVING_REGION_EXCEPTION 0\n\
         \x20REGIONS_SCANNED 2\n\
         \x20REMOTE_RPC_CALLS 0\n\
         \x20REMOTE_RPC_RETRIES 0\n\
         \x20ROWS_FILTERED 0\n\
         \x20ROWS_SCANNED 3\n\
         \x20RPC_RETRIES 0\n";
    assert!(out.starts_with(expected), "{out}");
    assert!(
        out.contains("Rowkey's own counters (HBase has none): CELLS_SCANNED 3"),
        "{out}"
    );
    assert!(out.contains("Not measured in a single-machine playground (no client-server calls): MILLIS_BETWEEN_NEXTS, RPC_CALLS\n"), "{out}");
    Ok(())
}

/// scan.rb's help example `scan 't1', {METRICS => ['RPC_RETRIES', 'ROWS_FILTERED']}`: only
/// the named metrics, still in alphabetical order; a filter's rejected rows are
/// `ROWS_FILTERED` (`ServerSideScanMetrics.countOfRowsFiltered`).
#[test]
fn metrics_prints_only_the_named_ones() -> TestResult {
    let mut sh = setup();
    let out = run(
        &mut sh,
        "scan 't1', {FILTER => \"ValueFilter(=, 'binary:v')\", METRICS => ['RPC_RETRIES', 'ROWS_FILTERED']}",
    );
    assert_eq!(
        out,
        "ROW  COLUMN+CELL\n a column=f:q, timestamp=1001, value=v\n x column=f:q, timestamp=1003, value=v\n2 row(s)\n\nMETRIC  VALUE\n ROWS_FILTERED 1\n RPC_RETRIES 0\n"
    );
    Ok(())
}

#[test]
fn a_name_no_metric_has_is_said() -> TestResult {
    let mut sh = setup();
    let out = run(
        &mut sh,
        "scan 't1', {LIMIT => 1, METRICS => ['ROWS_SCANED']}",
    );
    assert!(
        out.ends_with("1 row(s)\n\nMETRIC  VALUE\nNo scan metric is called ROWS_SCANED (HBase prints nothing for it).\n"),
        "{out}"
    );
    Ok(())
}

#[test]
fn metrics_off_prints_none_and_bad_values_are_errors() -> TestResult {
    let mut sh = setup();
    let out = run(&mut sh, "scan 't1', {ALL_METRICS => false, LIMIT => 1}");
    assert!(!out.contains("METRIC"), "{out}");
    let err = sh
        .run("scan 't1', {METRICS => [1]}")
        .into_iter()
        .find_map(|o| o.error)
        .ok_or("no error")?;
    assert_eq!(
        err.message,
        "METRICS must be an array of metric names, found a number"
    );
    Ok(())
}

/// A paged console runs a scan with metrics whole, so the metrics are one scanner's.
#[test]
fn metrics_of_a_paged_console_cover_the_whole_scan() -> TestResult {
    let mut sh = setup();
    sh.page_rows = Some(1);
    let out = run(&mut sh, "scan 't1', {METRICS => ['ROWS_SCANNED']}");
    assert!(
        out.ends_with("3 row(s)\n\nMETRIC  VALUE\n ROWS_SCANNED 3\n"),
        "{out}"
    );
    Ok(())
}
