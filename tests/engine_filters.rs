//! The filter protocol as HBase 2.x runs it, one test per behaviour; each names the HBase class
//! and method (hbase-client `org.apache.hadoop.hbase.filter`, hbase-server
//! `org.apache.hadoop.hbase.regionserver`) whose code fixes the expected result.
mod common;
use common::*;
use rowkey::engine::{
    CellRef, Engine, FamilyDescriptor, Filter, ReturnCode, Scan, ScanOutput, TableDescriptor,
};
use rowkey::filter::{parse_filter, ColumnPaginationFilter, TimestampsFilter};

/// `(row, family, qualifier, value)` of each cell in a result.
fn cells(out: &ScanOutput) -> Vec<String> {
    out.rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| {
            format!(
                "{}/{}:{}={}",
                String::from_utf8_lossy(&c.row),
                String::from_utf8_lossy(&c.family),
                String::from_utf8_lossy(&c.qualifier),
                String::from_utf8_lossy(&c.value)
            )
        })
        .collect()
}

fn row_keys(out: &ScanOutput) -> Vec<String> {
    out.rows
        .iter()
        .map(|r| String::from_utf8_lossy(r.row()).into_owned())
        .collect()
}

fn filtered(text: &str) -> Result<Scan, Box<dyn std::error::Error>> {
    Ok(Scan {
        filter: Some(parse_filter(text)?),
        ..Scan::default()
    })
}

/// Table `t` with family `f` (VERSIONS as given), split at `splits`, holding `rows` of
/// `(row, qualifier, value)` written at timestamp 100.
fn table(
    versions: u32,
    splits: &[&str],
    rows: &[(&str, &str, &str)],
) -> Result<Engine, Box<dyn std::error::Error>> {
    let mut e = Clock::at(1_000_000).engine();
    let mut f = FamilyDescriptor::new("f");
    f.max_versions = versions;
    e.create_table(
        TableDescriptor::new("t", vec![f]),
        splits.iter().map(|s| s.as_bytes().to_vec()).collect(),
    )?;
    for (row, q, v) in rows {
        e.mutate("t", row.as_bytes(), &[put("f", q, Some(100), v)])?;
    }
    Ok(e)
}

/// A filter written against the engine's trait alone: the read path calls it without knowing
/// the filter language (`Filter`, `FilterBase`: unset methods keep their defaults).
#[derive(Clone, Debug)]
struct EvenValues;

impl Filter for EvenValues {
    fn filter_cell(&mut self, cell: &CellRef<'_>) -> ReturnCode {
        if cell.value.last().is_some_and(|b| b % 2 == 0) {
            ReturnCode::Include
        } else {
            ReturnCode::Skip
        }
    }
}

#[test]
fn engine_runs_any_filter_through_its_trait() -> TestResult {
    let mut e = table(
        1,
        &[],
        &[("r1", "a", "1"), ("r1", "b", "2"), ("r2", "a", "4")],
    )?;
    let mut scan = Scan {
        filter: Some(Box::new(EvenValues)),
        ..Scan::default()
    };
    let out = e.scan("t", &mut scan)?;
    assert_eq!(cells(&out), ["r1/f:b=2", "r2/f:a=4"]);
    Ok(())
}

/// `RegionScannerImpl.nextInternal`: `incrementCountOfRowsScannedMetric` for every row read,
/// `incrementCountOfRowsFilteredMetric` for rows dropped by `filterRowKey`, left empty or
/// dropped by `filterRow`; `ScanMetrics.countOfBytesInResults`, `countOfRegions`.
#[test]
fn scan_metrics_use_hbase_names() -> TestResult {
    let mut e = table(
        1,
        &["m"],
        &[
            ("a", "q", "1"),
            ("b", "q", "2"),
            ("n", "q", "3"),
            ("o", "q", "4"),
        ],
    )?;
    let out = e.scan("t", &mut filtered("RowFilter(!=, 'binary:b')")?)?;
    assert_eq!(row_keys(&out), ["a", "n", "o"]);
    let metric = |name: &str| {
        out.stats
            .metrics()
            .iter()
            .find(|m| m.name == name)
            .map(|m| (m.value, m.hbase))
    };
    let returned: u64 = out
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .map(|c| c.size() as u64)
        .sum();
    assert_eq!(metric("ROWS_SCANNED"), Some((4, true)));
    assert_eq!(metric("ROWS_FILTERED"), Some((1, true)));
    assert_eq!(metric("REGIONS_SCANNED"), Some((2, true)));
    assert_eq!(metric("BYTES_IN_RESULTS"), Some((returned, true)));
    assert_eq!(metric("CELLS_SCANNED"), Some((4, false)));
    // A row left empty by the column selection counts as filtered too.
    let mut scan = Scan {
        columns: vec![(b"f".to_vec(), Some(b"other".to_vec()))],
        ..Scan::default()
    };
    let out = e.scan("t", &mut scan)?;
    assert_eq!((out.stats.rows_examined, out.stats.rows_filtered), (4, 4));
    Ok(())
}

/// `FilterListWithOR.filterRowKey` asks every filter; `RowFilter.filterCell` answers NEXT_ROW
/// for a row it rejected, so the row keeps only what the other branch includes.
#[test]
fn or_list_rejected_row_keeps_other_branch_cells() -> TestResult {
    let mut e = table(
        1,
        &[],
        &[
            ("r1", "a", "1"),
            ("r1", "b", "2"),
            ("r2", "a", "3"),
            ("r2", "b", "4"),
        ],
    )?;
    let out = e.scan(
        "t",
        &mut filtered("RowFilter(=, 'binary:r1') OR QualifierFilter(=, 'binary:b')")?,
    )?;
    assert_eq!(cells(&out), ["r1/f:a=1", "r1/f:b=2", "r2/f:b=4"]);
    Ok(())
}

/// `FilterListWithOR.filterCell` skips a sub-filter whose `filterAllRemaining` is true, and
/// `filterRowKey` counts it as a rejection: PrefixFilter once past its prefix
/// (`PrefixFilter.filterRowKey` sets `passedPrefix`) leaves the vote to the other branch.
#[test]
fn or_list_finished_filter_leaves_the_vote() -> TestResult {
    let mut e = table(
        1,
        &[],
        &[("a1", "q", "y"), ("b1", "q", "x"), ("b2", "q", "y")],
    )?;
    let out = e.scan(
        "t",
        &mut filtered("PrefixFilter('a') OR ValueFilter(=, 'binary:x')")?,
    )?;
    assert_eq!(row_keys(&out), ["a1", "b1"]);
    Ok(())
}

/// `FilterListWithOR.mergeReturnCode` and `calculateReturnCodeByPrevCellAndRC`: two prefix
/// filters seek together to the nearer hint, a filter past its prefix keeps answering NEXT_ROW
/// for the row without being asked, and the other's INCLUDE wins.
#[test]
fn or_list_merges_codes_and_seeks_to_the_nearest_hint() -> TestResult {
    let mut e = table(1, &[], &[])?;
    for q in ["a1", "a2", "a3", "b", "c", "d", "e"] {
        e.mutate("t", b"r", &[put("f", q, Some(1), q)])?;
    }
    let out = e.scan(
        "t",
        &mut filtered("ColumnPrefixFilter('b') OR ColumnPrefixFilter('d')")?,
    )?;
    assert_eq!(cells(&out), ["r/f:b=b", "r/f:d=d"]);
    // a1 is read, then both seek: a2 and a3 are never read.
    assert_eq!(out.stats.cells_examined, 5);
    Ok(())
}

/// `FilterListBase.transformCell` applies the transform of the sub-filters that included the
/// cell (`subFiltersIncludedCell`, HBASE-18879): KeyOnlyFilter strips only its branch's cells.
#[test]
fn or_list_transforms_only_cells_the_branch_included() -> TestResult {
    let mut e = table(1, &[], &[("r", "a", "va"), ("r", "b", "vb")])?;
    let out = e.scan(
        "t",
        &mut filtered(
            "(QualifierFilter(=, 'binary:a') AND KeyOnlyFilter()) OR QualifierFilter(=, 'binary:b')",
        )?,
    )?;
    assert_eq!(cells(&out), ["r/f:a=", "r/f:b=vb"]);
    Ok(())
}

/// `FilterListWithAND.filterCell` returns as soon as the merged code is not an INCLUDE
/// (HBASE-20565), so ColumnPaginationFilter and FirstKeyOnlyFilter after a ValueFilter count
/// only the cells that passed it.
#[test]
fn and_list_stops_offering_a_refused_cell() -> TestResult {
    let mut e = table(
        1,
        &[],
        &[("r", "a", "drop"), ("r", "b", "keep"), ("r", "c", "keep")],
    )?;
    let out = e.scan(
        "t",
        &mut filtered("ValueFilter(=, 'binary:keep') AND ColumnPaginationFilter(1, 0)")?,
    )?;
    assert_eq!(cells(&out), ["r/f:b=keep"]);
    let out = e.scan(
        "t",
        &mut filtered("ValueFilter(=, 'binary:keep') AND FirstKeyOnlyFilter()")?,
    )?;
    assert_eq!(cells(&out), ["r/f:b=keep"]);
    Ok(())
}

/// `RegionScannerImpl.nextInternal` drops an empty row before `filterRow` is asked
/// (`isEmptyRow || ...`, `FilterWrapper.filterRowCellsWithRet`), so `PageFilter.filterRow` does
/// not count it.
#[test]
fn page_filter_counts_only_rows_with_cells() -> TestResult {
    let mut e = table(
        1,
        &[],
        &[
            ("r1", "a", "1"),
            ("r2", "b", "2"),
            ("r3", "a", "3"),
            ("r4", "a", "4"),
        ],
    )?;
    let mut scan = filtered("PageFilter(2)")?;
    scan.columns = vec![(b"f".to_vec(), Some(b"a".to_vec()))];
    assert_eq!(row_keys(&e.scan("t", &mut scan)?), ["r1", "r3"]);
    let out = e.scan(
        "t",
        &mut filtered("ValueFilter(!=, 'binary:2') AND PageFilter(2)")?,
    )?;
    assert_eq!(row_keys(&out), ["r1", "r3"]);
    Ok(())
}

/// `PageFilter`'s class comment: "the filter is applied separately on different region
/// servers"; each `RegionScannerImpl` deserializes its own copy, so two regions give two pages.
/// The client's `Scan.setLimit` (the shell's LIMIT) bounds the whole scan.
#[test]
fn page_filter_is_per_region_and_limit_is_global() -> TestResult {
    let rows = [
        ("a", "q", "1"),
        ("b", "q", "1"),
        ("c", "q", "1"),
        ("n", "q", "1"),
        ("o", "q", "1"),
        ("p", "q", "1"),
    ];
    let mut e = table(1, &["m"], &rows)?;
    let mut scan = filtered("PageFilter(2)")?;
    assert_eq!(row_keys(&e.scan("t", &mut scan)?), ["a", "b", "n", "o"]);
    // The scan keeps the filter as built: running it again gives the same rows.
    assert_eq!(row_keys(&e.scan("t", &mut scan)?), ["a", "b", "n", "o"]);
    let mut one_region = table(1, &[], &rows)?;
    assert_eq!(
        row_keys(&one_region.scan("t", &mut filtered("PageFilter(2)")?)?),
        ["a", "b"]
    );
    let mut limited = Scan {
        limit: Some(2),
        ..Scan::default()
    };
    assert_eq!(row_keys(&e.scan("t", &mut limited)?), ["a", "b"]);
    Ok(())
}

/// `StoreScanner` on SEEK_NEXT_USING_HINT reseeks to `getNextCellHint` (`ColumnPrefixFilter`,
/// `MultipleColumnPrefixFilter`, `ColumnRangeFilter`): the cells before the hint are never read,
/// in the memstore or in a flushed run. A QualifierFilter answering SKIP reads every cell.
#[test]
fn seek_hints_skip_cells_unread() -> TestResult {
    let mut e = table(1, &[], &[])?;
    let qualifiers: Vec<String> = (0..10).map(|i| format!("a{i}")).collect();
    for (i, q) in qualifiers.iter().enumerate() {
        e.mutate("t", b"r", &[put("f", q, Some(1), "v")])?;
        if i == 4 {
            e.flush("t")?;
        }
    }
    for q in ["m", "p0", "p1", "z"] {
        e.mutate("t", b"r", &[put("f", q, Some(1), "v")])?;
    }
    let examined =
        |e: &mut Engine, text: &str| -> Result<(Vec<String>, u64), Box<dyn std::error::Error>> {
            let out = e.scan("t", &mut filtered(text)?)?;
            let qs = cells(&out)
                .iter()
                .map(|c| {
                    c.split(':')
                        .nth(1)
                        .unwrap_or("")
                        .split('=')
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .collect();
            Ok((qs, out.stats.cells_examined))
        };
    // a0 read, seek to p: p0, p1 read, z read and answers NEXT_ROW.
    assert_eq!(
        examined(&mut e, "ColumnPrefixFilter('p')")?,
        (vec!["p0".into(), "p1".into()], 4)
    );
    assert_eq!(
        examined(&mut e, "QualifierFilter(=, 'binaryprefix:p')")?.1,
        14
    );
    // a0 seeks to m; m is included; p0 seeks to z (no prefix between).
    assert_eq!(
        examined(&mut e, "MultipleColumnPrefixFilter('m', 'z')")?,
        (vec!["m".into(), "z".into()], 4)
    );
    // a0 seeks to m; m, p0 included; p1 answers NEXT_ROW and z is stepped over (read, not
    // offered to the filter).
    assert_eq!(
        examined(&mut e, "ColumnRangeFilter('m', true, 'p0', true)")?,
        (vec!["m".into(), "p0".into()], 5)
    );
    Ok(())
}

/// `ColumnPaginationFilter(limit, columnOffset)` seeks to the bookmark column, and a hinting
/// `TimestampsFilter(list, canHint=true)` seeks within a column to the next listed timestamp
/// (`getNextCellHint`: `createFirstOnRowColTS`); below the oldest listed it answers NEXT_COL.
/// The filter language builds TimestampsFilter without hints (`createFilterFromArguments`).
#[test]
fn pagination_bookmark_and_timestamp_hints_seek() -> TestResult {
    let mut e = table(10, &[], &[])?;
    for q in ["a", "b", "c", "d", "e"] {
        e.mutate("t", b"r", &[put("f", q, Some(1), q)])?;
    }
    let mut scan = Scan {
        filter: Some(Box::new(ColumnPaginationFilter::from_column(2, b"c"))),
        ..Scan::default()
    };
    let out = e.scan("t", &mut scan)?;
    assert_eq!(cells(&out), ["r/f:c=c", "r/f:d=d"]);
    // a seeks to c; c, d included; e answers NEXT_ROW.
    assert_eq!(out.stats.cells_examined, 4);

    let mut e = table(10, &[], &[])?;
    for ts in 1..=10 {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &ts.to_string())])?;
    }
    let mut hinted = Scan {
        max_versions: 10,
        filter: Some(Box::new(TimestampsFilter::new(vec![8, 3], true))),
        ..Scan::default()
    };
    let out = e.scan("t", &mut hinted)?;
    assert_eq!(cells(&out), ["r/f:q=8", "r/f:q=3"]);
    // 10 seeks to 8; 7 seeks to 3; 2 answers NEXT_COL; 1 is read and skipped.
    assert_eq!(out.stats.cells_examined, 6);
    let mut plain = filtered("TimestampsFilter(8, 3)")?;
    plain.max_versions = 10;
    let out = e.scan("t", &mut plain)?;
    assert_eq!(cells(&out), ["r/f:q=8", "r/f:q=3"]);
    assert_eq!(out.stats.cells_examined, 10);
    Ok(())
}

/// `ScanQueryMatcher.getTrackers`: with a filter the column tracker keeps the family's
/// VERSIONS, and `UserScanQueryMatcher.mergeFilterResponse` counts the versions the filter
/// included against the scan's VERSIONS, so a value filter can match an older version.
#[test]
fn filters_see_the_family_versions_and_versions_count_after() -> TestResult {
    let mut e = table(3, &[], &[])?;
    for (ts, v) in [(1, "a"), (2, "b"), (3, "c")] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), v)])?;
    }
    let out = e.scan("t", &mut filtered("ValueFilter(=, 'binary:a')")?)?;
    assert_eq!(cells(&out), ["r/f:q=a"]);
    let out = e.scan("t", &mut filtered("ValueFilter(!=, 'binary:c')")?)?;
    assert_eq!(cells(&out), ["r/f:q=b"], "one version after the filter");
    let mut two = filtered("ValueFilter(!=, 'binary:c')")?;
    two.max_versions = 2;
    assert_eq!(cells(&e.scan("t", &mut two)?), ["r/f:q=b", "r/f:q=a"]);
    // Without a filter a read sees the newest version only.
    assert_eq!(cells(&e.scan("t", &mut Scan::default())?), ["r/f:q=c"]);
    Ok(())
}

/// `UserScanQueryMatcher.matchColumn` asks the column tracker (`checkVersions`, which skips a
/// repeat of the previous timestamp and type) before the filter: a value written again at the
/// same timestamp is gone for a filter too, while one written a millisecond earlier is an older
/// version the filter may still match.
#[test]
fn a_rewrite_at_the_same_timestamp_hides_the_old_value_from_filters() -> TestResult {
    let mut e = table(3, &[], &[])?;
    e.mutate("t", b"same", &[put("f", "q", Some(5), "x")])?;
    e.mutate("t", b"same", &[put("f", "q", Some(5), "y")])?;
    e.mutate("t", b"older", &[put("f", "q", Some(5), "x")])?;
    e.mutate("t", b"older", &[put("f", "q", Some(6), "y")])?;
    for flush in [false, true] {
        if flush {
            e.flush("t")?;
        }
        let out = e.scan("t", &mut filtered("ValueFilter(=, 'binary:x')")?)?;
        assert_eq!(cells(&out), ["older/f:q=x"], "flushed: {flush}");
    }
    Ok(())
}

/// `StoreScanner`: `oldestUnexpiredTS = scan.isRaw() ? 0L : now - ttl`, and its constructor
/// throws "Cannot specify any column for a raw scan" when a raw scan names qualifiers.
#[test]
fn raw_scans_ignore_ttl_and_refuse_qualifiers() -> TestResult {
    let clock = Clock::at(1_000_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.ttl_seconds = Some(1);
    e.create_table(TableDescriptor::new("t", vec![f]), vec![])?;
    e.mutate("t", b"r", &[put("f", "q", None, "v")])?;
    clock.advance(5_000);
    assert!(e.scan("t", &mut Scan::default())?.rows.is_empty());
    let mut raw = Scan {
        raw: true,
        ..Scan::default()
    };
    assert_eq!(cells(&e.scan("t", &mut raw)?), ["r/f:q=v"]);
    let mut family_only = Scan {
        raw: true,
        columns: vec![(b"f".to_vec(), None)],
        ..Scan::default()
    };
    assert_eq!(e.scan("t", &mut family_only)?.rows.len(), 1);
    let mut named = Scan {
        raw: true,
        columns: vec![(b"f".to_vec(), Some(b"q".to_vec()))],
        ..Scan::default()
    };
    let err = e.scan("t", &mut named).err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("org.apache.hadoop.hbase.DoNotRetryIOException: Cannot specify any column for a raw scan")
    );
    Ok(())
}

/// `NormalUserScanQueryMatcher.match` asks `filterAllRemaining` first, before `preCheck` sees
/// that the row changed, and answers DONE_SCAN; `StoreScanner.next` then closes the store
/// scanner. `ColumnCountGetFilter.filterCell` counts every cell offered and is done once the
/// count passes the limit (`filterAllRemaining`: `count > limit`), and only `reset`, between
/// rows in `RegionScannerImpl`, clears it. So a row with more columns than the limit ends the
/// region's scan at the next cell, whether that is the same row's or the next row's first:
/// r1 (three columns, limit two) returns a and b, and r2 and r3 are never read. A row with
/// no more columns than the limit leaves the filter not done, and the next row gets its own
/// count.
#[test]
fn column_count_get_filter_ends_the_scan_once_a_row_passes_the_limit() -> TestResult {
    let rows = [
        ("r1", "a", "1"),
        ("r1", "b", "1"),
        ("r1", "c", "1"),
        ("r2", "a", "1"),
        ("r2", "b", "1"),
        ("r2", "c", "1"),
        ("r2", "d", "1"),
        ("r3", "a", "1"),
    ];
    let mut e = table(1, &[], &rows)?;
    let out = e.scan("t", &mut filtered("ColumnCountGetFilter(2)")?)?;
    assert_eq!(cells(&out), ["r1/f:a=1", "r1/f:b=1"]);
    assert_eq!(out.stats.rows_examined, 1);
    // Rows within the limit each get their own count, up to the first that passes it.
    let mut e = table(
        1,
        &[],
        &[
            ("r0", "a", "1"),
            ("r0", "b", "1"),
            ("r1", "a", "1"),
            ("r1", "b", "1"),
            ("r1", "c", "1"),
            ("r2", "a", "1"),
        ],
    )?;
    let out = e.scan("t", &mut filtered("ColumnCountGetFilter(2)")?)?;
    assert_eq!(
        cells(&out),
        ["r0/f:a=1", "r0/f:b=1", "r1/f:a=1", "r1/f:b=1"]
    );
    // A reversed scan too: r2 passes the limit with its last column, and r1, the next row
    // in the scan's direction, is never read.
    let mut e = table(
        1,
        &[],
        &[
            ("r1", "a", "1"),
            ("r2", "a", "1"),
            ("r2", "b", "1"),
            ("r2", "c", "1"),
            ("r3", "a", "1"),
        ],
    )?;
    let mut scan = filtered("ColumnCountGetFilter(2)")?;
    scan.reversed = true;
    let out = e.scan("t", &mut scan)?;
    assert_eq!(cells(&out), ["r3/f:a=1", "r2/f:a=1", "r2/f:b=1"]);
    // Each region's scanner works on a fresh copy of the filter: a region after a split at
    // r2 reads its rows again.
    let mut e = table(1, &["r2"], &rows)?;
    let out = e.scan("t", &mut filtered("ColumnCountGetFilter(2)")?)?;
    assert_eq!(
        cells(&out),
        ["r1/f:a=1", "r1/f:b=1", "r2/f:a=1", "r2/f:b=1"]
    );
    Ok(())
}

/// `RSRpcServices.scan`: "if (scanner.isFilterDone() && results.isEmpty()) moreResults = false";
/// otherwise the client opens the next region with a fresh copy of the filter. WHILE ends
/// a region at its first failing row, and the whole scan only when that region returned nothing.
#[test]
fn while_filter_ends_region_then_scan() -> TestResult {
    let mut e = table(
        1,
        &["m"],
        &[
            ("a", "q", "1"),
            ("b", "q", "2"),
            ("c", "q", "1"),
            ("n", "q", "1"),
            ("o", "q", "1"),
        ],
    )?;
    let out = e.scan("t", &mut filtered("WHILE ValueFilter(=, 'binary:1')")?)?;
    assert_eq!(row_keys(&out), ["a", "n", "o"]);
    let mut e = table(
        1,
        &["m"],
        &[("a", "q", "1"), ("n", "q", "2"), ("o", "q", "1")],
    )?;
    let out = e.scan("t", &mut filtered("WHILE ValueFilter(=, 'binary:1')")?)?;
    assert_eq!(row_keys(&out), ["a"]);
    Ok(())
}

/// `SkipFilter.filterCell`: any answer but INCLUDE marks the row (`changeFR(rc !=
/// ReturnCode.INCLUDE)`), so `SKIP ColumnPaginationFilter(1, 0)` (INCLUDE_AND_NEXT_COL) drops
/// every row.
#[test]
fn skip_filter_drops_on_any_code_but_include() -> TestResult {
    let mut e = table(1, &[], &[("r1", "a", "1"), ("r2", "a", "2")])?;
    assert!(e
        .scan("t", &mut filtered("SKIP ColumnPaginationFilter(1, 0)")?)?
        .rows
        .is_empty());
    assert_eq!(
        row_keys(&e.scan("t", &mut filtered("SKIP ValueFilter(!=, 'binary:2')")?)?),
        ["r1"]
    );
    Ok(())
}

/// A reversed scan reads the cells of each row in cell order, but `FilterListBase.compareCell`
/// turns the comparison round (`reversed ? -cmp : cmp`), so in
/// `FilterListWithOR.calculateReturnCodeByPrevCellAndRC` a filter that asked for a column hint
/// keeps answering SEEK_NEXT_USING_HINT once the scan has passed the hint; and
/// `StoreScanner` seeks a reversed scan only backwards (HBASE-26232), so it reads on. Found by
/// the filter model test (its first regression case); HBase's code is followed here.
#[test]
fn reversed_or_list_keeps_a_passed_hint() -> TestResult {
    let mut e = table(1, &[], &[("r", "a", "1"), ("r", "b", "2"), ("r", "c", "3")])?;
    let text = "ColumnPrefixFilter('b') OR ColumnPrefixFilter('a')";
    assert_eq!(
        cells(&e.scan("t", &mut filtered(text)?)?),
        ["r/f:a=1", "r/f:b=2"]
    );
    let mut reversed = filtered(text)?;
    reversed.reversed = true;
    assert_eq!(cells(&e.scan("t", &mut reversed)?), ["r/f:a=1"]);
    Ok(())
}
