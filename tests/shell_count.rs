//! `count` counts what HBase's shell counts. `table.rb` `_count_internal` sets a
//! `FirstKeyOnlyFilter` on the scan, or, when the scan has a filter, wraps both in
//! `FilterList.new(filter, firstKeyOnlyFilter)` (MUST_PASS_ALL, the scan's filter first).
//! `FilterListWithAND.filterCell` passes a cell to the next filter only while the merged code
//! is an INCLUDE (HBASE-20565), and `FirstKeyOnlyFilter` answers NEXT_ROW from a row's second
//! cell on. NEXT_ROW ends the row in one family's store only, so the scan's filter sees the
//! first two cells of a row's first family and the first cell of each other family. A
//! `SingleColumnValueFilter` whose column comes later never sees it, and
//! `SingleColumnValueFilter.filterRow` then keeps the row unless `filterIfMissing` is set.
mod common;
use common::*;

/// Four users; each row's cells in order: `f:a_name`, `f:b_city`, `f:c_login`.
fn users() -> rowkey::shell::Shell {
    let (mut shell, _clock) = shell_at(1_000_000);
    run(
        &mut shell,
        "create 'u', 'f'
put 'u', 'r1', 'f:a_name', 'ann'
put 'u', 'r1', 'f:b_city', 'oslo'
put 'u', 'r1', 'f:c_login', 'x'
put 'u', 'r2', 'f:a_name', 'bob'
put 'u', 'r2', 'f:b_city', 'rome'
put 'u', 'r2', 'f:c_login', 'y'
put 'u', 'r3', 'f:a_name', 'cid'
put 'u', 'r3', 'f:b_city', 'oslo'
put 'u', 'r3', 'f:c_login', 'x'
put 'u', 'r4', 'f:a_name', 'dan'
put 'u', 'r4', 'f:b_city', 'lima'
put 'u', 'r4', 'f:c_login', 'z'",
    );
    shell
}

fn last_line(out: &str) -> &str {
    out.lines().last().unwrap_or_default()
}

#[test]
fn a_filter_on_a_rows_first_cell_counts_the_matches() {
    let mut shell = users();
    let out = run(
        &mut shell,
        "count 'u', {FILTER => \"SingleColumnValueFilter('f', 'a_name', =, 'binary:bob')\"}",
    );
    assert_eq!(out, "1 row(s)\n=> 1\n");
}

/// The second cell still reaches the scan's filter: it comes before `FirstKeyOnlyFilter` in
/// the list, which only then answers NEXT_ROW.
#[test]
fn a_filter_on_a_rows_second_cell_counts_the_matches() {
    let mut shell = users();
    let out = run(
        &mut shell,
        "count 'u', {FILTER => \"SingleColumnValueFilter('f', 'b_city', =, 'binary:oslo')\"}",
    );
    assert_eq!(out, "2 row(s)\n=> 2\n");
}

/// The third cell never reaches it: every row counts, whatever its login.
#[test]
fn a_filter_on_a_later_cell_never_sees_it_and_every_row_counts() {
    let mut shell = users();
    let out = run(
        &mut shell,
        "count 'u', {FILTER => \"SingleColumnValueFilter('f', 'c_login', =, 'binary:x')\"}",
    );
    assert_eq!(out, "4 row(s)\n=> 4\n");
    // A scan with the same filter shows what the count hides: two rows log in as x.
    let scan = run(
        &mut shell,
        "scan 'u', {FILTER => \"SingleColumnValueFilter('f', 'c_login', =, 'binary:x')\", COLUMNS => ['f:c_login']}",
    );
    assert_eq!(last_line(&scan), "2 row(s)");
}

/// With `filterIfMissing` the column the filter never saw counts as missing: no row counts.
#[test]
fn filter_if_missing_on_a_later_cell_counts_nothing() {
    let mut shell = users();
    let out = run(
        &mut shell,
        "count 'u', {FILTER => \"SingleColumnValueFilter('f', 'c_login', =, 'binary:x', true, true)\"}",
    );
    assert_eq!(out, "0 row(s)\n=> 0\n");
}

/// Without a filter `count` reads one cell per row and counts every row.
#[test]
fn count_without_a_filter_reads_one_cell_a_row() -> TestResult {
    let mut shell = users();
    let outcome = shell.run("count 'u'").pop().ok_or("no outcome")?;
    let trace = outcome.trace.ok_or("no trace")?;
    assert_eq!(trace.returned.len(), 4);
    assert_eq!(trace.stats.cells_returned, 4);
    Ok(())
}

/// A row filter is not a cell filter: `PrefixFilter` drops rows by key, so the count is exact.
#[test]
fn a_row_key_filter_counts_exactly() {
    let mut shell = users();
    let out = run(&mut shell, "count 'u', {FILTER => \"PrefixFilter('r2')\"}");
    assert_eq!(out, "1 row(s)\n=> 1\n");
}

/// Each family has its own store scanner, and a filter's NEXT_ROW makes only that store seek
/// to the next row (`StoreScanner.next`, `SEEK_NEXT_ROW`; `RegionScannerImpl.populateResult`
/// asks every store for the row). `FirstKeyOnlyFilter` stays found for the rest of the row,
/// so each later family offers its first cell to the scan's filter before NEXT_ROW: a column
/// that is the first of its own family is seen, and the count is exact.
#[test]
fn a_column_first_in_its_own_family_is_seen() {
    let (mut shell, _clock) = shell_at(1_000_000);
    run(
        &mut shell,
        "create 'log', 'http', 'user'
put 'log', 'l1', 'http:ip', '10.0.0.1'
put 'log', 'l1', 'http:url', '/a'
put 'log', 'l1', 'user:login_id', 'u1'
put 'log', 'l2', 'http:ip', '10.0.0.2'
put 'log', 'l2', 'http:url', '/b'
put 'log', 'l2', 'user:login_id', 'u2'
put 'log', 'l3', 'http:ip', '10.0.0.3'
put 'log', 'l3', 'http:url', '/a'
put 'log', 'l3', 'user:login_id', 'u1'",
    );
    let out = run(
        &mut shell,
        "count 'log', {FILTER => \"SingleColumnValueFilter('user', 'login_id', =, 'binary:u1', true, true)\"}",
    );
    assert_eq!(out, "2 row(s)\n=> 2\n");
    // The same column as a family's second cell is never seen: login_id after a user:agent.
    run(
        &mut shell,
        "put 'log', 'l1', 'user:agent', 'x'\nput 'log', 'l2', 'user:agent', 'x'\nput 'log', 'l3', 'user:agent', 'x'",
    );
    let out = run(
        &mut shell,
        "count 'log', {FILTER => \"SingleColumnValueFilter('user', 'login_id', =, 'binary:u1', true, true)\"}",
    );
    assert_eq!(out, "0 row(s)\n=> 0\n");
}

/// count.rb's forms and table.rb's arithmetic: a number in place of the hash is the interval
/// (the old syntax); `count % interval == 0` at each row, so an interval of 0 raises Ruby's
/// "divided by 0" at the first row (an empty table never divides) and a negative one prints
/// at the multiples of its size; CACHE_BLOCKS as a string must say true or false.
#[test]
fn the_interval_in_its_old_form_zero_and_negative_and_cache_blocks_as_text() {
    let mut shell = users();
    let every_two = "Current count: 2, row: r2\nCurrent count: 4, row: r4\n4 row(s)\n=> 4\n";
    assert_eq!(run(&mut shell, "count 'u', 2"), every_two);
    assert_eq!(run(&mut shell, "count 'u', {INTERVAL => -2}"), every_two);
    assert_eq!(
        run(
            &mut shell,
            "count 'u', {INTERVAL => 2, CACHE_BLOCKS => 'TRUE'}"
        ),
        every_two
    );
    assert_eq!(
        error_of(&mut shell, "count 'u', {INTERVAL => 0}").as_deref(),
        Some("divided by 0")
    );
    assert_eq!(
        error_of(&mut shell, "count 'u', {CACHE_BLOCKS => 'maybe'}").as_deref(),
        Some("Expected CACHE_BLOCKS value to be a boolean or the string 'true' or 'false'")
    );
    run(&mut shell, "create 'empty', 'f'");
    assert_eq!(run(&mut shell, "count 'empty', 0"), "0 row(s)\n=> 0\n");
}
