//! Shell arguments read as hbase-shell reads them: `get`, `scan` and `create` follow
//! `hbase/table.rb` (`_get_internal`, `_hash_to_scan`, `parse_column_name`, `convert`),
//! `hbase/admin.rb` (`create`) and the client classes they call (`Get`, `Scan`,
//! `RawAsyncHBaseAdmin.createTable`). Each test names the source it follows.
mod common;
use common::*;

/// The first error message of the commands' outcomes.
fn error_of(sh: &mut rowkey::shell::Shell, input: &str) -> Option<String> {
    sh.run(input)
        .into_iter()
        .find_map(|o| o.error.map(|e| e.message))
}

/// `_get_internal` counts the row it found (`count += 1`) and `get.rb` hands that count to
/// `formatter.footer`: a row with several cells is `1 row(s)`, a missing row `0 row(s)`.
#[test]
fn get_counts_rows_not_cells() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r', 'f:a', '1'\nput 't', 'r', 'f:b', '2'",
    );
    let out = run(&mut sh, "get 't', 'r'");
    assert_eq!(
        out,
        "COLUMN  CELL\n f:a timestamp=101, value=1\n f:b timestamp=102, value=2\n1 row(s)\n"
    );
    assert_eq!(run(&mut sh, "get 't', 'nope'"), "COLUMN  CELL\n0 row(s)\n");
    Ok(())
}

/// `_get_internal`: once MAXLENGTH, FILTER, CONSISTENCY and REGION_REPLICA_ID are taken out,
/// a hash that names neither columns nor a time raises
/// `ArgumentError, "Failed parse of #{args.inspect}, #{args.class}"`.
#[test]
fn get_options_without_a_column_or_time_are_refused_as_table_rb_refuses_them() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r', 'f:a', '1', 5\nput 't', 'r', 'f:a', '2', 6");
    assert_eq!(
        error_of(&mut sh, "get 't', 'r', {VERSIONS => 3}").as_deref(),
        Some("Failed parse of {\"VERSIONS\"=>3}, Hash")
    );
    assert_eq!(
        error_of(&mut sh, "get 't', 'r', {VERSIONS => 3, MAXLENGTH => 40}").as_deref(),
        Some("Failed parse of {\"VERSIONS\"=>3}, Hash")
    );
    // A time alone is enough ("May have passed TIMESTAMP and row only").
    assert_eq!(
        run(&mut sh, "get 't', 'r', {TIMESTAMP => 5}"),
        "COLUMN  CELL\n f:a timestamp=5, value=1\n1 row(s)\n"
    );
    // So are the side options alone.
    assert_eq!(
        run(&mut sh, "get 't', 'r', {MAXLENGTH => 18}"),
        "COLUMN  CELL\n f:a timestamp=6, value\n1 row(s)\n"
    );
    assert_eq!(
        run(
            &mut sh,
            "get 't', 'r', {FILTER => \"ValueFilter(=, 'binary:2')\"}"
        ),
        "COLUMN  CELL\n f:a timestamp=6, value=2\n1 row(s)\n"
    );
    // With a column, VERSIONS applies.
    assert_eq!(
        run(&mut sh, "get 't', 'r', {COLUMN => 'f:a', VERSIONS => 3}"),
        "COLUMN  CELL\n f:a timestamp=6, value=2\n f:a timestamp=5, value=1\n1 row(s)\n"
    );
    // A misspelt key is still named as a slip first.
    assert!(error_of(&mut sh, "get 't', 'r', {VERSINOS => 3}")
        .is_some_and(|m| m.contains("Did you mean VERSIONS?")));
    Ok(())
}

/// `Get.addFamily` removes the family's columns and maps it to `null`; `addColumn` after it
/// finds `null` and starts a new set with only its column (hbase-client `Get.java`,
/// `Scan.java`). So in `COLUMNS` the last mention of a family decides.
#[test]
fn columns_follow_add_family_and_add_column_in_order() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f', 'g'\nput 't', 'r', 'f:a', '1'\nput 't', 'r', 'f:b', '2'\nput 't', 'r', 'g:c', '3'",
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', {COLUMNS => ['f', 'f:a']}"),
        "COLUMN  CELL\n f:a timestamp=101, value=1\n1 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', {COLUMNS => ['f:a', 'f']}"),
        "COLUMN  CELL\n f:a timestamp=101, value=1\n f:b timestamp=102, value=2\n1 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', 'g', 'f:b'"),
        "COLUMN  CELL\n f:b timestamp=102, value=2\n g:c timestamp=103, value=3\n1 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "scan 't', {COLUMNS => ['f', 'f:b']}"),
        "ROW  COLUMN+CELL\n r column=f:b, timestamp=102, value=2\n1 row(s)\n"
    );
    Ok(())
}

/// `parse_column_name` → `set_converter`: `'f:c:toLong'` selects `f:c` and `convert` prints
/// its value with `Bytes.toLong`; `'c(org.apache.hadoop.hbase.util.Bytes).toInt'` names
/// the class (the example of `get.rb`'s help). Values go through Ruby's `to_s`.
#[test]
fn column_converters_select_the_column_and_format_the_value() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\n\
         put 't', 'r', 'f:l', \"\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\"\n\
         put 't', 'r', 'f:i', \"\\xFF\\xFF\\xFF\\xFE\"\n\
         put 't', 'r', 'f:d', \"\\x3F\\xF8\\x00\\x00\\x00\\x00\\x00\\x00\"\n\
         put 't', 'r', 'f:b', \"\\x01\"",
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', {COLUMN => ['f:l:toLong', 'f:i:c(org.apache.hadoop.hbase.util.Bytes).toInt']}"),
        "COLUMN  CELL\n f:i timestamp=102, value=-2\n f:l timestamp=101, value=256\n1 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', 'f:d:toDouble', 'f:b:toBoolean', 'f:i:toHex'"),
        "COLUMN  CELL\n f:b timestamp=104, value=true\n f:d timestamp=103, value=1.5\n f:i timestamp=102, value=fffffffe\n1 row(s)\n"
    );
    // toString decodes the bytes as UTF-8.
    run(&mut sh, "put 't', 'r', 'f:u', \"caf\\xC3\\xA9\"");
    assert_eq!(
        run(&mut sh, "scan 't', {COLUMNS => ['f:u:toString', 'f:l']}"),
        "ROW  COLUMN+CELL\n r column=f:l, timestamp=101, value=\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\n r column=f:u, timestamp=107, value=café\n1 row(s)\n"
    );
    // Bytes.toLong on 4 bytes: explainWrongLengthOrOffset's message.
    assert_eq!(
        error_of(&mut sh, "get 't', 'r', 'f:i:toLong'").as_deref(),
        Some("offset (0) + length (8) exceed the capacity of the array: 4")
    );
    // A name that is no converter is part of the qualifier (`parse_column_format_spec`,
    // 2.5.9 on): column `i:toLung`, which the row does not have.
    assert_eq!(
        run(&mut sh, "get 't', 'r', 'f:i:toLung'"),
        "COLUMN  CELL\n0 row(s)\n"
    );
    Ok(())
}

/// `_hash_to_scan` builds `Scan.new(startrow, stoprow)` and then calls `setRowPrefixFilter`,
/// which "will overwrite any startrow/stoprow settings" (its comment in `table.rb`).
#[test]
fn rowprefixfilter_replaces_startrow_and_stoprow() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', 'a1', 'f:q', '1'\nput 't', 'a2', 'f:q', '2'\nput 't', 'b1', 'f:q', '3'",
    );
    let out = run(
        &mut sh,
        "scan 't', {STARTROW => 'b', STOPROW => 'c', ROWPREFIXFILTER => 'a'}",
    );
    assert_eq!(
        out,
        "ROW  COLUMN+CELL\n a1 column=f:q, timestamp=101, value=1\n a2 column=f:q, timestamp=102, value=2\n2 row(s)\n"
    );
    Ok(())
}

/// `Scan(byte[] startRow, byte[] stopRow)`, deprecated in 2.x, calls `setStopRow`, which makes
/// the stop row inclusive when it equals a non-empty start row ("for keeping the old
/// behavior that a scan with the same start and stop row is a get scan").
#[test]
fn startrow_equal_to_stoprow_is_a_get_scan() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r', 'f:q', '1'\nput 't', 'r0', 'f:q', '2'\nput 't', 's', 'f:q', '3'",
    );
    assert_eq!(
        run(&mut sh, "scan 't', {STARTROW => 'r', STOPROW => 'r'}"),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=101, value=1\n1 row(s)\n"
    );
    // Different bounds keep the stop row exclusive.
    assert_eq!(
        run(&mut sh, "scan 't', {STARTROW => 'r', STOPROW => 's'}"),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=101, value=1\n r0 column=f:q, timestamp=102, value=2\n2 row(s)\n"
    );
    // ROWPREFIXFILTER's withStopRow is exclusive again.
    assert_eq!(
        run(
            &mut sh,
            "scan 't', {STARTROW => 's', STOPROW => 's', ROWPREFIXFILTER => 'r'}"
        ),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=101, value=1\n r0 column=f:q, timestamp=102, value=2\n2 row(s)\n"
    );
    Ok(())
}

/// admin.rb's `create` runs each split through `Bytes.toBytesBinary`, and the admin client
/// (`RawAsyncHBaseAdmin.createTable`) sorts them and refuses an empty or repeated key before
/// anything is created.
#[test]
fn splits_are_decoded_sorted_and_checked_before_the_table_exists() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f', SPLITS => ['m', '\\x00\\x01', 'c']",
    );
    let splits = sh.engine.splits("t")?;
    assert_eq!(splits, vec![vec![0u8, 1], b"c".to_vec(), b"m".to_vec()]);
    assert_eq!(
        error_of(&mut sh, "create 'u', 'f', SPLITS => ['b', 'a', 'b']").as_deref(),
        Some("All split keys must be unique, found duplicate: b, b")
    );
    // '\x61' and 'a' are the same key once decoded.
    assert_eq!(
        error_of(&mut sh, "create 'u', 'f', SPLITS => ['\\x61', 'a']").as_deref(),
        Some("All split keys must be unique, found duplicate: a, a")
    );
    assert_eq!(
        error_of(&mut sh, "create 'u', 'f', SPLITS => ['a', '']").as_deref(),
        Some("Empty split key must not be passed in the split keys.")
    );
    assert!(!sh.engine.exists("u"), "a refused create leaves no table");
    Ok(())
}

/// admin.rb's pre-split checks when SPLITS is absent, with its messages.
#[test]
fn numregions_and_splitalgo_are_checked_as_admin_rb_checks_them() -> TestResult {
    let (mut sh, _) = shell_at(100);
    assert_eq!(
        error_of(&mut sh, "create 'u', 'f', {NUMREGIONS => 4}").as_deref(),
        Some("Split algorithm must be specified")
    );
    assert_eq!(
        error_of(&mut sh, "create 'u', 'f', {SPLITALGO => 'HexStringSplit'}").as_deref(),
        Some("Number of regions must be specified")
    );
    assert_eq!(
        error_of(
            &mut sh,
            "create 'u', 'f', {NUMREGIONS => 1, SPLITALGO => 'HexStringSplit'}"
        )
        .as_deref(),
        Some("Number of regions must be greater than 1")
    );
    run(
        &mut sh,
        "create 'u', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}",
    );
    assert_eq!(sh.engine.splits("u")?.len(), 3);
    // SPLITS wins (admin.rb's `elsif`).
    run(
        &mut sh,
        "create 'v', 'f', {SPLITS => ['k'], NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}",
    );
    assert_eq!(sh.engine.splits("v")?, vec![b"k".to_vec()]);
    Ok(())
}

/// A table in a namespace that does not exist: the master raises
/// NamespaceNotFoundException and the shell's `translate_hbase_exceptions` prints
/// "Unknown namespace ns!". `TableName.valueOf` drops the `default` namespace.
#[test]
fn tables_live_in_the_default_namespace_only() -> TestResult {
    let (mut sh, _) = shell_at(100);
    assert_eq!(
        error_of(&mut sh, "create 'ns1:t', 'f'").as_deref(),
        Some("Unknown namespace ns1!")
    );
    assert!(!sh.engine.exists("ns1:t"));
    run(
        &mut sh,
        "create 'default:t', 'f'\nput 'default:t', 'r', 'f:q', 'v'",
    );
    assert!(sh.engine.exists("t"));
    assert_eq!(
        run(&mut sh, "get 't', 'r'"),
        "COLUMN  CELL\n f:q timestamp=102, value=v\n1 row(s)\n"
    );
    Ok(())
}

/// Ruby's octal escapes in double quotes, as `get.rb`'s and `put.rb`'s help write bytes
/// (`"key\003\023\011"`): one to three octal digits, the value's low byte; `\0` alone is NUL.
#[test]
fn double_quoted_octal_escapes_write_bytes() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\n\
         put 't', \"key\\003\\023\\011\", 'f:q', \"\\0a\\1018\\477\"",
    );
    assert_eq!(
        run(&mut sh, "scan 't'"),
        "ROW  COLUMN+CELL\n key\\x03\\x13\\x09 column=f:q, timestamp=101, value=\\x00aA8?\n1 row(s)\n"
    );
    Ok(())
}

/// `FORMATTER` and `FORMATTER_CLASS` (`table.rb`'s `_get_internal` and `_scan_internal`): the
/// `Bytes` method prints the row key (scan), the column's family and qualifier and every value
/// whose column has no converter of its own; `get` takes them out before it asks for columns.
#[test]
fn a_formatter_prints_keys_columns_and_values() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', 'f'\n\
         put 't', 'r', \"f:a\\xC3\\xA9\", \"caf\\xC3\\xA9\"\n\
         put 't', 'r', 'f:n', \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x07\"",
    );
    assert_eq!(
        run(&mut sh, "get 't', 'r', {FORMATTER => 'toString'}"),
        "COLUMN  CELL\n f:aé timestamp=101, value=café\n f:n timestamp=102, value=\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{7}\n1 row(s)\n"
    );
    // A column's own converter comes first.
    assert_eq!(
        run(&mut sh, "scan 't', {FORMATTER => 'toString', FORMATTER_CLASS => 'org.apache.hadoop.hbase.util.Bytes', COLUMNS => ['f:n:toLong', 'f:a\u{e9}']}"),
        "ROW  COLUMN+CELL\n r column=f:aé, timestamp=101, value=café\n r column=f:n, timestamp=102, value=7\n1 row(s)\n"
    );
    assert!(error_of(
        &mut sh,
        "scan 't', {FORMATTER => 'toHex', FORMATTER_CLASS => 'org.example.X'}"
    )
    .is_some_and(|m| m.contains("c(org.example.X).toHex")));
    Ok(())
}
