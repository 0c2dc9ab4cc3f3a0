//! Malformed input gets HBase's message (or a precise one where HBase has none) and the span
//! of the fault; the shell keeps going.
mod common;
use common::*;
use rowkey::shell::{parse_command, render_caret};

fn error(input: &str) -> (String, std::ops::Range<usize>) {
    let (mut shell, _) = shell_at(1_000);
    shell.run("create 't', 'f'\nput 't', 'r', 'f:s', 'abc'");
    let outcomes = shell.run(input);
    let err = outcomes.iter().find_map(|o| o.error.clone());
    match err {
        Some(e) => (e.message, e.span),
        None => panic!(
            "no error for {input:?}: {:?}",
            outcomes.iter().map(|o| &o.output).collect::<Vec<_>>()
        ),
    }
}

#[test]
fn parse_errors_say_what_was_expected_where() -> TestResult {
    let e = parse_command("put 't', 'r' 'f:q'")
        .err()
        .ok_or("should fail")?;
    assert_eq!(e.message, "expected ',' or end of command, found a string");
    assert_eq!(e.span, 13..18);
    let e = parse_command("scan 't', {LIMIT 1}")
        .err()
        .ok_or("should fail")?;
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("expected '=>', found number 1", 17..18)
    );
    let e = parse_command("put 't', 'unterminated")
        .err()
        .ok_or("should fail")?;
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("unterminated string", 9..22)
    );
    let e = parse_command("put 't', \"\\xZZ\"")
        .err()
        .ok_or("should fail")?;
    assert_eq!(e.message, "invalid hex escape");
    let e = parse_command("get 't', @").err().ok_or("should fail")?;
    assert_eq!(
        (e.message.as_str(), e.span.clone()),
        ("unexpected character '@'", 9..10)
    );
    Ok(())
}

#[test]
fn engine_errors_use_hbase_names_and_point_at_the_argument() {
    assert_eq!(
        error("get 'nope', 'r'"),
        ("Unknown table nope!".into(), 4..10)
    );
    let (msg, span) = error("put 't', 'r', 'x:q', 'v'");
    assert!(msg.starts_with("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family x does not exist"), "{msg}");
    assert_eq!(span, 14..19);
    // A read points at the column naming the missing family, in a list or an options hash.
    assert_eq!(error("get 't', 'r', 'f:q', 'x:q'").1, 21..26);
    assert_eq!(error("get 't', 'r', {COLUMN => ['f', 'x']}").1, 31..34);
    assert_eq!(error("scan 't', {COLUMNS => ['x:a']}").1, 23..28);
    // Only columns: a start row or a formatter that reads like the family is not one.
    assert_eq!(
        error("scan 't', {STARTROW => 'x', COLUMNS => ['x:a']}").1,
        40..45
    );
    assert_eq!(
        error("get 't', 'r', {FORMATTER => 'x', COLUMN => 'x:a'}").1,
        43..48
    );
    assert_eq!(
        error("put 't', '', 'f:q', 'v'"),
        ("Row length is 0".into(), 9..11)
    );
    assert_eq!(
        error("incr 't', 'r', 'f:s'").0,
        "org.apache.hadoop.hbase.DoNotRetryIOException: Field is not a long, it's 3 bytes wide"
    );
    // get_counter reads the value on the client (`Bytes.toLong(array, offset, length)`).
    assert_eq!(
        error("get_counter 't', 'r', 'f:s'").0,
        "Wrong length: 3, expected 8"
    );
    assert_eq!(error("create 't', 'f'").0, "Table already exists: t!");
    assert_eq!(error("drop 't'").0, "Table t is enabled. Disable it first.");
}

#[test]
fn argument_errors_point_at_the_argument() {
    assert_eq!(
        error("put 't', 'r'"),
        (
            "wrong number of arguments (given 2, expected 4..6)".into(),
            0..12
        )
    );
    assert_eq!(error("scan 't', {LIMT => 1}").0, "unknown option LIMT; expected one of STARTROW, STOPROW, ROWPREFIXFILTER, COLUMNS, LIMIT, VERSIONS, REVERSED, RAW, TIMERANGE, TIMESTAMP, FILTER, MAXLENGTH, ALL_METRICS, METRICS, FORMATTER, FORMATTER_CLASS\nDid you mean LIMIT?");
    assert_eq!(
        error("scan 't', {LIMIT => 'x'}"),
        ("LIMIT must be a number".into(), 20..23)
    );
    // A get's `Get.readVersions` refuses versions below one; a scan sets its versions only
    // above one (table.rb: `scan.setMaxVersions(versions) if versions > 1`) and reads one.
    assert_eq!(
        error("get 't', 'r', {COLUMN => 'f:a', VERSIONS => 0}").0,
        "versions must be positive"
    );
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r', 'f:a', 'old', 1\n\
         put 't', 'r', 'f:a', 'new', 2",
    );
    let scan = run(
        &mut sh,
        "scan 't', {VERSIONS => 0}\nscan 't', {VERSIONS => -1}",
    );
    assert_eq!(
        scan,
        "ROW  COLUMN+CELL\n r column=f:a, timestamp=2, value=new\n1 row(s)\n".repeat(2)
    );
    assert_eq!(
        error("frobnicate 't'"),
        (
            "NoMethodError: undefined method `frobnicate' for main:Object".into(),
            0..10
        )
    );
    assert_eq!(
        error("frobnicate").0,
        "NameError: undefined local variable or method `frobnicate' for main:Object"
    );
}

/// `ParseFilter.parseFilterString` passes over spaces and tabs only (`ParseConstants.WHITESPACE`,
/// `TAB`); any other byte starts a simple filter expression, whose name `getFilterName` reads
/// up to the first '(' or space. A leading newline becomes part of the name, and no filter has
/// that name.
#[test]
fn a_filter_string_starting_with_a_newline_is_refused_as_hbase_refuses_it() {
    let (msg, span) = error("scan 't', {FILTER => \"\\nPrefixFilter('r')\"}");
    assert_eq!(msg, "Filter Name \nPrefixFilter not supported");
    // The caret starts at the escape that wrote the newline.
    assert_eq!(span.start, 22);
    let (msg, _) = error("scan 't', {FILTER => \"PrefixFilter('r')\\n\"}");
    assert_eq!(msg, "Incorrect Filter String");
    // Spaces and tabs are passed over.
    let (mut shell, _) = shell_at(1_000);
    let out = run(
        &mut shell,
        "create 't', 'f'\nput 't', 'r', 'f:s', 'abc'\nscan 't', {FILTER => \" \\tPrefixFilter('r')\"}",
    );
    assert!(out.ends_with("1 row(s)\n"), "{out}");
}

#[test]
fn filter_errors_point_inside_the_filter_string() {
    let (msg, span) = error("scan 't', {FILTER => \"PrefixFilter('a') AND Nope('b')\"}");
    assert_eq!(msg, "Filter Name Nope not supported");
    assert_eq!(span, 44..48);
    let (msg, _) = error("scan 't', {FILTER => \"ValueFilter(>, 'substring:a')\"}");
    assert!(
        msg.starts_with("Incorrect filter string ValueFilter(>, 'substring:a')\n"),
        "{msg}"
    );
    assert!(msg.ends_with("A regexstring comparator and substring comparator can only be used with EQUAL and NOT_EQUAL)"), "{msg}");
    assert_eq!(
        error("scan 't', {FILTER => \"PageFilter(1, 2)\"}").0,
        "Incorrect filter string PageFilter(1, 2)\n(Rowkey: the filter's createFilterFromArguments refused it: Expected 1 but got: 2)"
    );
    assert_eq!(
        error("scan 't', {FILTER => \"ValueFilter(~, 'binary:a')\"}").0,
        "Incorrect filter string ValueFilter(~, 'binary:a')\n(Rowkey: the filter's createFilterFromArguments refused it: Invalid compare operator)"
    );
    assert_eq!(
        error("scan 't', {FILTER => \"ValueFilter(=, 'nope:a')\"}").0,
        "Incorrect filter string ValueFilter(=, 'nope:a')\n(Rowkey: the filter's createFilterFromArguments refused it: Incorrect comparatorType)"
    );
}

#[test]
fn errors_print_hbase_lines_and_the_shell_goes_on() {
    let (mut shell, _) = shell_at(1_000);
    let out = run(&mut shell, "get 'missing', 'r'\ncreate 't', 'f'");
    // The interactive shell's frame (`Shell::Commands::Command.command_safe`, HBase 2.4 to
    // 2.6): `puts`, the `ERROR:` line, `puts`, the usage hint, `puts` (then `Took`, which
    // `run` leaves out).
    assert!(
        out.starts_with(
            "COLUMN  CELL\n\nERROR: Unknown table missing!\n\nFor usage try 'help \"get\"'\n\nCreated table t\n"
        ),
        "{out}"
    );
    assert!(out.contains("Created table t"));
    assert_eq!(
        render_caret("get 'missing', 'r'", &(4..13)),
        "  get 'missing', 'r'\n      ^^^^^^^^^\n"
    );
}

#[test]
fn a_read_only_shell_refuses_writes_and_still_reads() {
    let (mut shell, _) = shell_at(1_000);
    run(&mut shell, "create 't', 'f'\nput 't', 'r', 'f:q', 'v'");
    shell.read_only =
        Some("this tab is read-only: Rowkey is open for writing in another tab".into());
    let out = run(&mut shell, "put 't', 'r2', 'f:q', 'v'\ndrop 't'\nscan 't'");
    assert!(out.starts_with("ERROR: this tab is read-only: Rowkey is open for writing in another tab\nERROR: this tab is read-only"), "{out}");
    assert!(out.contains("1 row(s)"));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("put 't', {}", "[".repeat(100_000));
    let e = parse_command(&deep)
        .err()
        .map(|e| e.message)
        .unwrap_or_default();
    assert_eq!(e, "nesting deeper than 64 levels");
    let filter = format!("{}PrefixFilter('a')", "(".repeat(100_000));
    let e = rowkey::filter::parse_filter(&filter)
        .err()
        .map(|e| e.message)
        .unwrap_or_default();
    assert_eq!(e, "Filter nested deeper than 64 levels");
    let skips = format!("{}PrefixFilter('a')", "SKIP ".repeat(100_000));
    assert!(rowkey::filter::parse_filter(&skips).is_err());
}

/// A slip of the keyboard gets JRuby's error (hbase-shell runs commands as methods of an IRB
/// session, `shell.rb`) and the closest command of the table; the span is the name.
#[test]
fn a_misspelt_command_suggests_the_closest_one() {
    assert_eq!(
        error("sacn 't'"),
        (
            "NoMethodError: undefined method `sacn' for main:Object\nDid you mean 'scan'?".into(),
            0..4
        )
    );
    assert_eq!(
        error("  lsit"),
        (
            "NameError: undefined local variable or method `lsit' for main:Object\nDid you mean 'list'?"
                .into(),
            2..6
        )
    );
    let (mut shell, _) = shell_at(1_000);
    let out = run(&mut shell, "descirbe 't'");
    assert_eq!(
        out,
        "ERROR: NoMethodError: undefined method `descirbe' for main:Object\nDid you mean 'describe'?\n"
    );
    // Nothing close: no suggestion.
    assert_eq!(
        error("frobnicate 't'").0,
        "NoMethodError: undefined method `frobnicate' for main:Object"
    );
}

#[test]
fn a_misspelt_option_key_suggests_the_closest_known_one() {
    assert_eq!(
        error("get 't', 'r', {VERSINOS => 2}"),
        (
            "unknown option VERSINOS; expected one of COLUMN, COLUMNS, VERSIONS, TIMESTAMP, TIMERANGE, FILTER, MAXLENGTH, FORMATTER, FORMATTER_CLASS\nDid you mean VERSIONS?".into(),
            15..23
        )
    );
    assert_eq!(error("scan 't', {LIMT => 10}").1, 11..15);
    // A family hash warns as admin.rb's `cfd` does and creates the table (shell_table_att.rs).
    let (mut shell, _) = shell_at(1_000);
    let out = run(&mut shell, "create 'u', {NAME => 'f', VERSINS => 1}");
    assert!(
        out.starts_with(
            "Unknown argument ignored for column family f: VERSINS\nDid you mean VERSIONS?\n"
        ),
        "{out}"
    );
    // Far from every key: the list alone.
    assert_eq!(
        error("scan 't', {NOPE_AT_ALL => 1}").0,
        "unknown option NOPE_AT_ALL; expected one of STARTROW, STOPROW, ROWPREFIXFILTER, COLUMNS, LIMIT, VERSIONS, REVERSED, RAW, TIMERANGE, TIMESTAMP, FILTER, MAXLENGTH, ALL_METRICS, METRICS, FORMATTER, FORMATTER_CLASS"
    );
}

/// What admin.rb checks itself before it asks the master (HBase 2.4 to 2.6): `create` with no
/// family ("Table must have at least one column family"), a family named twice (a warning, the
/// later one kept: `htd.modifyFamily`), and a table `tableExists` or `alter` cannot find.
#[test]
fn admin_checks_speak_as_admin_rb_does() {
    let (mut shell, _) = shell_at(1_000);
    let out = run(&mut shell, "create 'nofam'");
    assert!(
        out.starts_with("\nERROR: Table must have at least one column family\n"),
        "{out}"
    );
    let out = run(
        &mut shell,
        "create 'dup', 'f', {NAME => 'f', VERSIONS => 3}\ndescribe 'dup'",
    );
    assert!(
        out.starts_with(
            "Family 'f' already exists, the old one will be replaced\nCreated table dup\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3',"),
        "{out}"
    );
    assert!(out.contains("1 row(s)\nQuota is disabled\n"), "{out}");
    for (command, error) in [
        ("describe 'nosuch'", "Table nosuch does not exist."),
        ("disable 'nosuch'", "Table nosuch does not exist."),
        ("enable 'nosuch'", "Table nosuch does not exist."),
        ("drop 'nosuch'", "Table nosuch does not exist."),
        ("alter 'nosuch', 'f'", "Can't find a table: nosuch"),
    ] {
        let out = run(&mut shell, command);
        assert!(
            out.starts_with(&format!("\nERROR: {error}\n")),
            "{command}: {out}"
        );
    }
}

/// A LIMIT of 0 or below is no limit (table.rb `_hash_to_scan`: `scan.setLimit(limit) if limit
/// > 0`), not an error.
#[test]
fn a_limit_of_zero_or_below_reads_the_whole_range() {
    let (mut shell, _) = shell_at(1_000);
    run(
        &mut shell,
        "create 't', 'f'\nput 't', 'a', 'f:q', '1'\nput 't', 'b', 'f:q', '2'\nput 't', 'c', 'f:q', '3'",
    );
    for limit in ["0", "-5"] {
        let out = run(&mut shell, &format!("scan 't', {{LIMIT => {limit}}}"));
        assert!(out.ends_with("3 row(s)\n"), "LIMIT => {limit}: {out}");
    }
    let out = run(&mut shell, "scan 't', {LIMIT => 2}");
    assert!(out.ends_with("2 row(s)\n"), "{out}");
}
