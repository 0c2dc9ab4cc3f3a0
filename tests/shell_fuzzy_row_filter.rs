//! `FuzzyRowFilter` in the JRuby form the HBase shell takes it:
//! `FILTER => org.apache.hadoop.hbase.filter.FuzzyRowFilter.new([org.apache.hadoop.hbase.util.Pair.new(key, mask)])`
//! (the constructor takes a `List<Pair<byte[], byte[]>>`; JRuby makes a Ruby array into the
//! list). `ParseFilter` registers no FuzzyRowFilter, so the filter-language string refuses it
//! as HBase does. Cases after hbase-server's `TestFuzzyRowFilterEndToEnd` and hbase-client's
//! `FuzzyRowFilter` Javadoc (userId_actionId_year_month keys).
mod common;
use common::*;

/// The Javadoc's rule: any user, action 99, any year, month 01.
const RULE: &str = "org.apache.hadoop.hbase.filter.FuzzyRowFilter.new([org.apache.hadoop.hbase.util.Pair.new('????_99_????_01'.to_java_bytes, \"\\x01\\x01\\x01\\x01\\x00\\x00\\x00\\x00\\x01\\x01\\x01\\x01\\x00\\x00\\x00\".to_java_bytes)])";

fn setup() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    let mut script = String::from("create 't', 'f', 'g'\n");
    for user in 1..=3 {
        for action in [10, 20, 30, 40, 50, 60, 70, 80, 90, 99] {
            for month in ["01", "02"] {
                script.push_str(&format!(
                    "put 't', '{user:04}_{action}_2020_{month}', 'f:a', 'x'\n"
                ));
            }
        }
    }
    script.push_str("put 't', '0002_99_2020_01', 'g:b', 'y'\n");
    run(&mut sh, &script);
    sh
}

fn rows(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with(' ') && l.contains("column="))
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

/// The matching rows, and only they: the scan seeks past the rows no rule can match
/// (SEEK_NEXT_USING_HINT with `getNextCellHint`), so it reads few of the 60.
#[test]
fn fuzzy_rows_match_and_the_scan_seeks_past_the_rest() -> TestResult {
    let mut sh = setup();
    let out = run(
        &mut sh,
        &format!("scan 't', {{FILTER => {RULE}, METRICS => ['ROWS_SCANNED']}}"),
    );
    assert_eq!(
        rows(&out),
        [
            "0001_99_2020_01",
            "0002_99_2020_01",
            "0002_99_2020_01",
            "0003_99_2020_01"
        ],
        "{out}"
    );
    // Per user: the first row (action 10) misses and seeks to action 99 month 01, which
    // matches; month 02 misses and seeks to the next user. Three rows of the 20 per user.
    assert!(out.contains(" ROWS_SCANNED 9\n"), "{out}");
    // Reversed, the same rows backwards (Rowkey reads on instead of seeking backwards).
    let back = run(
        &mut sh,
        &format!("scan 't', {{FILTER => {RULE}, REVERSED => true}}"),
    );
    assert_eq!(
        rows(&back),
        [
            "0003_99_2020_01",
            "0002_99_2020_01",
            "0002_99_2020_01",
            "0001_99_2020_01"
        ]
    );
    Ok(())
}

/// Several rules (any matches), `java.util.Arrays.asList`, `Bytes.toBytesBinary`, and a rule
/// inside a FilterList.
#[test]
fn several_rules_and_other_forms() -> TestResult {
    let mut sh = setup();
    let two = "FuzzyRowFilter.new(java.util.Arrays.asList(Pair.new(Bytes.toBytesBinary('0001_10'), Bytes.toBytesBinary('\\x00\\x00\\x00\\x00\\x00\\x00\\x00')), Pair.new('0003_?0_2020_02'.to_java_bytes, \"\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\".to_java_bytes)))";
    let out = run(&mut sh, &format!("scan 't', {{FILTER => {two}}}"));
    // Rule one: user 0001, action 10, both months. Rule two: '?0' takes actions 10 to 90
    // of user 0003 in month 02.
    let got = rows(&out);
    assert_eq!(
        got.get(..2),
        Some(&["0001_10_2020_01", "0001_10_2020_02"][..]),
        "{out}"
    );
    assert_eq!(got.len(), 2 + 9, "{out}");
    assert!(got
        .iter()
        .skip(2)
        .all(|r| r.starts_with("0003_") && r.ends_with("_02")));
    let listed = run(
        &mut sh,
        &format!("scan 't', {{FILTER => FilterList.new(FilterList::Operator::MUST_PASS_ALL, [{RULE}, FamilyFilter.new(CompareOperator::EQUAL, BinaryComparator.new('g'.to_java_bytes))])}}"),
    );
    assert_eq!(rows(&listed), ["0002_99_2020_01"], "{listed}");
    Ok(())
}

/// No rule can match a row after the last one: the filter is done, the scan ends.
#[test]
fn a_rule_past_every_row_ends_the_scan() -> TestResult {
    let mut sh = setup();
    let out = run(
        &mut sh,
        "scan 't', {FILTER => FuzzyRowFilter.new([Pair.new('0000_'.to_java_bytes, \"\\x00\\x00\\x00\\x00\\x00\".to_java_bytes)]), METRICS => ['ROWS_SCANNED']}",
    );
    assert!(out.contains("0 row(s)"), "{out}");
    // The first row finds no candidate left (`getNextCellHint` sets `done` and returns null,
    // so `StoreScanner` reads on); the next cell, the next row's first, is answered DONE_SCAN
    // (`NormalUserScanQueryMatcher.match` asks `filterAllRemaining` first) and the store
    // closes. `RegionScannerImpl.nextInternal` then finds no next row: one row scanned.
    assert!(out.contains(" ROWS_SCANNED 1\n"), "{out}");
    Ok(())
}

/// What HBase refuses, and what Rowkey refuses besides, each with a caret under the span.
#[test]
fn refusals_point_at_the_pair() -> TestResult {
    let mut sh = setup();
    let cases = [
        (
            "scan 't', {FILTER => \"FuzzyRowFilter('a', 'b')\"}",
            "Filter Name FuzzyRowFilter not supported",
            "FuzzyRowFilter",
        ),
        (
            "scan 't', {FILTER => FuzzyRowFilter.new([Pair.new('ab'.to_java_bytes, \"\\x01\".to_java_bytes)])}",
            "Fuzzy pair lengths do not match: {ab,\\x01}",
            "Pair.new('ab'.to_java_bytes, \"\\x01\".to_java_bytes)",
        ),
        (
            "scan 't', {FILTER => FuzzyRowFilter.new([Pair.new('ab', '01')])}",
            "Rowkey takes fuzzy masks of \\x00 (fixed) and \\x01 (any) bytes; byte 0 of 01 is neither (write the mask in double quotes: \"\\x00\\x01\")",
            "Pair.new('ab', '01')",
        ),
        (
            "scan 't', {FILTER => FuzzyRowFilter.new('ab')}",
            "FuzzyRowFilter.new takes a list of pairs: FuzzyRowFilter.new([org.apache.hadoop.hbase.util.Pair.new('key'.to_java_bytes, \"\\x00\\x01\".to_java_bytes)])",
            "FuzzyRowFilter.new('ab')",
        ),
        (
            "scan 't', {FILTER => FuzzyRowFilter.new([Pair.new('ab', 1)])}",
            "expected a byte array, found a number",
            "1",
        ),
    ];
    for (input, message, under) in cases {
        let outs = sh.run(input);
        let e = outs.iter().find_map(|o| o.error.clone()).ok_or(input)?;
        assert_eq!(e.message, message, "{input}");
        assert_eq!(input.get(e.span.clone()), Some(under), "{input}");
    }
    Ok(())
}
