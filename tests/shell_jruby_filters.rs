//! `FILTER =>` given as a JRuby filter object, as scan.rb's help shows it
//! (`org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)`): `table.rb` passes a
//! FILTER that is not a String to `setFilter` as is. Each case gives the same rows as the
//! filter-language string `ParseFilter` builds the same filter from.
mod common;
use common::*;

fn setup() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't1', 'f'\n\
         put 't1', 'r1', 'f:a', '1'\n\
         put 't1', 'r1', 'f:b', '2'\n\
         put 't1', 'r2', 'f:a', '3'\n\
         put 't1', 'r2', 'f:c', 'abc'\n\
         put 't1', 's1', 'f:a', '5'",
    );
    sh
}

fn same_as(sh: &mut rowkey::shell::Shell, object: &str, language: &str) {
    let a = run(sh, &format!("scan 't1', {{FILTER => {object}}}"));
    let b = run(sh, &format!("scan 't1', {{FILTER => \"{language}\"}}"));
    assert!(a.starts_with("ROW"), "{object}: {a}");
    assert_eq!(a, b, "{object} vs {language}");
}

/// scan.rb's example, then the other registered filters' Java constructors.
#[test]
fn java_constructors_filter_as_the_filter_language_does() {
    let mut sh = setup();
    same_as(
        &mut sh,
        "org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)",
        "ColumnPaginationFilter(1, 0)",
    );
    let first = run(
        &mut sh,
        "scan 't1', {FILTER => org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)}",
    );
    assert_eq!(
        first,
        "ROW  COLUMN+CELL\n r1 column=f:a, timestamp=1001, value=1\n r2 column=f:a, timestamp=1003, value=3\n s1 column=f:a, timestamp=1005, value=5\n3 row(s)\n"
    );
    same_as(&mut sh, "KeyOnlyFilter.new", "KeyOnlyFilter()");
    same_as(&mut sh, "FirstKeyOnlyFilter.new()", "FirstKeyOnlyFilter()");
    same_as(
        &mut sh,
        "PrefixFilter.new('r'.to_java_bytes)",
        "PrefixFilter('r')",
    );
    same_as(
        &mut sh,
        "org.apache.hadoop.hbase.filter.PrefixFilter.new(org.apache.hadoop.hbase.util.Bytes.toBytes('s'))",
        "PrefixFilter('s')",
    );
    same_as(&mut sh, "PageFilter.new(1)", "PageFilter(1)");
    same_as(
        &mut sh,
        "TimestampsFilter.new([1000])",
        "TimestampsFilter(1000)",
    );
    same_as(
        &mut sh,
        "MultipleColumnPrefixFilter.new(['b'.to_java_bytes, 'c'.to_java_bytes])",
        "MultipleColumnPrefixFilter('b', 'c')",
    );
    same_as(
        &mut sh,
        "ColumnRangeFilter.new(Bytes.toBytes('a'), false, Bytes.toBytes('c'), true)",
        "ColumnRangeFilter('a', false, 'c', true)",
    );
    same_as(
        &mut sh,
        "ValueFilter.new(CompareOperator::EQUAL, BinaryComparator.new(Bytes.toBytes('abc')))",
        "ValueFilter(=, 'binary:abc')",
    );
    same_as(
        &mut sh,
        "QualifierFilter.new(CompareFilter::CompareOp.valueOf('GREATER'), BinaryComparator.new('a'.to_java_bytes))",
        "QualifierFilter(>, 'binary:a')",
    );
    same_as(
        &mut sh,
        "SingleColumnValueFilter.new(Bytes.toBytes('f'), Bytes.toBytes('a'), CompareOperator::EQUAL, SubstringComparator.new('3'))",
        "SingleColumnValueFilter('f', 'a', =, 'substring:3')",
    );
    same_as(
        &mut sh,
        "FilterList.new(FilterList::Operator::MUST_PASS_ONE, [PrefixFilter.new(Bytes.toBytes('s')), ValueFilter.new(CompareOperator::EQUAL, RegexStringComparator.new('^ab'))])",
        "PrefixFilter('s') OR ValueFilter(=, 'regexstring:^ab')",
    );
}

/// A filter object in `get` works the same way (`_get_internal`: `get.setFilter(filter)`).
#[test]
fn a_get_takes_a_filter_object() {
    let mut sh = setup();
    assert_eq!(
        run(
            &mut sh,
            "get 't1', 'r1', {FILTER => ColumnPrefixFilter.new(Bytes.toBytes('b'))}"
        ),
        "COLUMN  CELL\n f:b timestamp=1002, value=2\n1 row(s)\n"
    );
}

/// Objects Rowkey cannot build are refused with a clear message, not a parse error.
#[test]
fn unknown_classes_and_bad_arguments_are_explained() {
    let mut sh = setup();
    let err = |sh: &mut rowkey::shell::Shell, input: &str| {
        sh.run(input)
            .into_iter()
            .find_map(|o| o.error.map(|e| e.message))
            .unwrap_or_default()
    };
    assert!(
        err(&mut sh, "scan 't1', {FILTER => RandomRowFilter.new(1)}")
            .starts_with("RandomRowFilter is not a filter Rowkey has")
    );
    assert_eq!(
        err(&mut sh, "scan 't1', {FILTER => PageFilter.new('x')}"),
        "Byte Array should only contain digits (in PageFilter('x'))"
    );
    assert!(
        err(&mut sh, "scan 't1', {FILTER => java.util.ArrayList.new()}")
            .starts_with("expected a filter's constructor")
    );
}
