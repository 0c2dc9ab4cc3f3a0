//! Each filter of HBase's filter language, and combinations, through the shell.
mod common;
use common::*;

fn sample() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't', {NAME => 'f', VERSIONS => 3}, 'g'\n\
         put 't', 'user1', 'f:name', 'Ann', 10\nput 't', 'user1', 'f:age', '31', 10\nput 't', 'user1', 'g:city', 'Oslo', 10\n\
         put 't', 'user2', 'f:name', 'bob', 20\nput 't', 'user2', 'f:age', '25', 20\n\
         put 't', 'user3', 'f:name', 'Cyd', 30\nput 't', 'user3', 'g:city', 'Rome', 30\nput 't', 'user3', 'f:name', 'Cy', 31\n\
         put 't', 'x9', 'f:name', 'Xi', 40",
    );
    sh
}

/// `row/family:qualifier=value` for each cell the filter returns.
fn cells(sh: &mut rowkey::shell::Shell, filter: &str) -> Vec<String> {
    let out = run(sh, &format!("scan 't', {{FILTER => \"{filter}\"}}"));
    assert!(!out.contains("ERROR"), "{filter}: {out}");
    out.lines()
        .filter(|l| l.starts_with(' '))
        .map(|l| {
            let row = l.split(' ').nth(1).unwrap_or("");
            let col = l
                .split("column=")
                .nth(1)
                .and_then(|s| s.split(',').next())
                .unwrap_or("");
            let val = l.split("value=").nth(1).unwrap_or("");
            format!("{row}/{col}={val}")
        })
        .collect()
}

fn rows_of(cells: &[String]) -> Vec<String> {
    let mut r: Vec<String> = cells
        .iter()
        .map(|c| c.split('/').next().unwrap_or("").to_string())
        .collect();
    r.dedup();
    r
}

#[test]
fn row_filters() {
    let mut sh = sample();
    assert_eq!(
        rows_of(&cells(&mut sh, "PrefixFilter('user')")),
        ["user1", "user2", "user3"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "RowFilter(>=, 'binary:user2')")),
        ["user2", "user3", "x9"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "RowFilter(=, 'regexstring:r[13]')")),
        ["user1", "user3"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "RowFilter(=, 'binaryprefix:x')")),
        ["x9"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "InclusiveStopFilter('user2')")),
        ["user1", "user2"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "PageFilter(2)")),
        ["user1", "user2"]
    );
}

#[test]
fn column_filters() {
    let mut sh = sample();
    assert_eq!(
        cells(&mut sh, "FamilyFilter(=, 'binary:g')"),
        ["user1/g:city=Oslo", "user3/g:city=Rome"]
    );
    assert_eq!(
        cells(&mut sh, "QualifierFilter(=, 'binary:age')"),
        ["user1/f:age=31", "user2/f:age=25"]
    );
    assert_eq!(cells(&mut sh, "ColumnPrefixFilter('na')").len(), 4);
    assert_eq!(
        cells(&mut sh, "MultipleColumnPrefixFilter('age', 'ci')").len(),
        4
    );
    assert_eq!(
        cells(&mut sh, "ColumnRangeFilter('age', true, 'city', false)"),
        ["user1/f:age=31", "user2/f:age=25"]
    );
    assert_eq!(
        cells(&mut sh, "ColumnPaginationFilter(1, 1)"),
        ["user1/f:name=Ann", "user2/f:name=bob", "user3/g:city=Rome"]
    );
    assert_eq!(cells(&mut sh, "FirstKeyOnlyFilter()").len(), 4);
    assert_eq!(
        cells(&mut sh, "TimestampsFilter(20, 40)"),
        ["user2/f:age=25", "user2/f:name=bob", "x9/f:name=Xi"]
    );
    assert_eq!(cells(&mut sh, "KeyOnlyFilter()")[0], "user1/f:age=");
    assert_eq!(
        cells(&mut sh, "KeyOnlyFilter(true)")[0],
        "user1/f:age=\\x00\\x00\\x00\\x02"
    );
}

/// Each family is read by its own store scanner, and `NormalUserScanQueryMatcher.match` asks
/// `filterAllRemaining` before `preCheck` sees the row change. ColumnCountGetFilter(2) on
/// user1 counts f:age and f:name, then g:city (three: the filter is done) and the g store's
/// next cell, user3's g:city, gets DONE_SCAN: that store is closed for the rest of the region.
/// The f store never passed the limit, and `RegionScannerImpl` resets the filter between rows,
/// so its rows go on with a count of their own; user3's g:city is never read.
#[test]
fn column_count_get_filter_closes_the_store_that_passed_the_limit() {
    let mut sh = sample();
    assert_eq!(
        cells(&mut sh, "ColumnCountGetFilter(2)"),
        [
            "user1/f:age=31",
            "user1/f:name=Ann",
            "user2/f:age=25",
            "user2/f:name=bob",
            "user3/f:name=Cy",
            "x9/f:name=Xi"
        ]
    );
}

#[test]
fn value_filters() {
    let mut sh = sample();
    assert_eq!(
        cells(&mut sh, "ValueFilter(=, 'substring:CY')"),
        ["user3/f:name=Cy"],
        "the newest version only, case-insensitive"
    );
    assert_eq!(
        cells(&mut sh, "ValueFilter(<, 'binary:30')"),
        ["user2/f:age=25"]
    );
    assert_eq!(
        cells(&mut sh, "ValueFilter(!=, 'regexstring:^[A-Z]')"),
        ["user1/f:age=31", "user2/f:age=25", "user2/f:name=bob"]
    );
    assert_eq!(
        rows_of(&cells(
            &mut sh,
            "SingleColumnValueFilter('f', 'age', <, 'binary:30')"
        )),
        ["user2", "user3", "x9"],
        "rows without the column pass"
    );
    assert_eq!(
        rows_of(&cells(
            &mut sh,
            "SingleColumnValueFilter('f', 'age', <, 'binary:30', true, true)"
        )),
        ["user2"]
    );
    assert_eq!(
        cells(
            &mut sh,
            "SingleColumnValueExcludeFilter('f', 'age', =, 'binary:25', true, true)"
        ),
        ["user2/f:name=bob"]
    );
    assert_eq!(
        cells(&mut sh, "DependentColumnFilter('f', 'age')"),
        [
            "user1/f:age=31",
            "user1/f:name=Ann",
            "user1/g:city=Oslo",
            "user2/f:age=25",
            "user2/f:name=bob"
        ]
    );
    assert_eq!(
        cells(
            &mut sh,
            "DependentColumnFilter('f', 'age', true, =, 'binary:25')"
        ),
        ["user2/f:name=bob"]
    );
}

#[test]
fn combinations_and_precedence() {
    let mut sh = sample();
    assert_eq!(
        rows_of(&cells(
            &mut sh,
            "PrefixFilter('x') OR PrefixFilter('user2')"
        )),
        ["user2", "x9"]
    );
    // AND binds tighter than OR.
    assert_eq!(
        rows_of(&cells(
            &mut sh,
            "PrefixFilter('x') OR PrefixFilter('user') AND RowFilter(=, 'binary:user1')"
        )),
        ["user1", "x9"]
    );
    assert_eq!(
        rows_of(&cells(
            &mut sh,
            "(PrefixFilter('x') OR PrefixFilter('user')) AND RowFilter(=, 'binary:user1')"
        )),
        ["user1"]
    );
    // SKIP drops whole rows where any cell fails; WHILE stops at the first failure.
    assert_eq!(
        rows_of(&cells(&mut sh, "SKIP ValueFilter(!=, 'binary:Oslo')")),
        ["user2", "user3", "x9"]
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "WHILE RowFilter(<, 'binary:user3')")),
        ["user1", "user2"]
    );
    assert_eq!(
        cells(
            &mut sh,
            "QualifierFilter(=, 'binary:name') AND ValueFilter(=, 'regexstring:^[ab]')"
        ),
        ["user2/f:name=bob"]
    );
}

#[test]
fn quote_doubling_in_filter_strings() {
    let (mut sh, _) = shell_at(1);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', \"o'neil\", 'f:q', 'v'\nput 't', 'other', 'f:q', 'v'",
    );
    assert_eq!(rows_of(&cells(&mut sh, "PrefixFilter('o''n')")), ["o'neil"]);
}

/// `regexstringnocase:` is a `RegexStringComparator` with `CASE_INSENSITIVE | DOTALL`
/// (`ParseFilter.createComparator`, `ParseConstants.regexStringNoCaseType`): the pattern
/// found anywhere, ASCII letters in either case; `regexstring:` minds the case.
#[test]
fn regexstringnocase_matches_either_case() {
    let mut sh = sample();
    assert_eq!(
        cells(&mut sh, "ValueFilter(=, 'regexstringnocase:^(ann|BOB)$')"),
        ["user1/f:name=Ann", "user2/f:name=bob"]
    );
    assert_eq!(
        cells(&mut sh, "ValueFilter(=, 'regexstring:^(ann|BOB)$')"),
        Vec::<String>::new()
    );
    assert_eq!(
        rows_of(&cells(&mut sh, "RowFilter(!=, 'regexstringnocase:USER')")),
        ["x9"]
    );
}
