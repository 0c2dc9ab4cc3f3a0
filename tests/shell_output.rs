//! Output exactly as the HBase 2.x shell prints it.
mod common;
use common::*;

#[test]
fn scan_and_get_tables() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    let out = run(&mut sh, "create 't', 'f'\nput 't', 'r1', 'f:a', 'v1'\nput 't', 'r2', 'f:b', \"\\x00\\\\\\xE4\"\nscan 't'\nget 't', 'r1'");
    assert_eq!(
        out,
        "Created table t\n=> Hbase::Table - t\n\
         ROW  COLUMN+CELL\n r1 column=f:a, timestamp=1700000000001, value=v1\n r2 column=f:b, timestamp=1700000000002, value=\\x00\\x5C\\xE4\n2 row(s)\n\
         COLUMN  CELL\n f:a timestamp=1700000000001, value=v1\n1 row(s)\n"
    );
}

/// HBase 2.3 and later print a timestamp as `toLocalDateTime` in `table.rb`: local date and
/// time (`LocalDateTime.toString`: seconds left out when they and the milliseconds are zero,
/// milliseconds when they are zero), no zone. A shell without the epoch switch prints that.
#[test]
fn timestamps_print_as_local_date_time_by_default() {
    let mut sh = rowkey::shell::Shell::new(Clock::at(1).engine(), Box::new(|| 0.0));
    let out = run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r', 'f:a', 'x', 1700000000000\nput 't', 'r', 'f:b', 'y', 1700000045000\nput 't', 'r', 'f:c', 'z', 1700000045120\nput 't', 'r', 'f:d', 'w', 1700000000007\nget 't', 'r'",
    );
    assert_eq!(
        out,
        "Created table t\n=> Hbase::Table - t\nCOLUMN  CELL\n \
         f:a timestamp=2023-11-14T22:13:20, value=x\n \
         f:b timestamp=2023-11-14T22:14:05, value=y\n \
         f:c timestamp=2023-11-14T22:14:05.120, value=z\n \
         f:d timestamp=2023-11-14T22:13:20.007, value=w\n1 row(s)\n"
    );
    sh.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "TRUE");
    assert!(run(&mut sh, "get 't', 'r', 'f:a'").contains(" f:a timestamp=1700000000000, value=x\n"));
    sh.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "false");
    assert!(run(&mut sh, "get 't', 'r', 'f:a'")
        .contains(" f:a timestamp=2023-11-14T22:13:20, value=x\n"));
}

#[test]
fn took_line_follows_every_command() {
    let (mut sh, _) = shell_at(1);
    for o in sh.run("create 't', 'f'\nlist") {
        assert!(
            o.output.lines().any(|l| l.starts_with("Took ")
                && l.ends_with(" seconds")
                && l.len() == "Took 0.0000 seconds".len()),
            "{}",
            o.output
        );
    }
}

#[test]
fn raw_scan_prints_marker_types() {
    let (mut sh, _) = shell_at(100);
    let out = run(&mut sh, "create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r', 'f:q', 'a', 5\ndelete 't', 'r', 'f:q', 5\ndeleteall 't', 'r', 'f:z', 7\nscan 't', {RAW => true, VERSIONS => 3}");
    assert!(out.contains(" r column=f:q, timestamp=5, type=Delete\n r column=f:q, timestamp=5, value=a\n r column=f:z, timestamp=7, type=DeleteColumn\n1 row(s)\n"), "{out}");
}

#[test]
fn counters_append_splits_and_echoes() {
    let (mut sh, _) = shell_at(100);
    let out = run(&mut sh, "create 't', 'f', SPLITS => ['b', 'd']\nincr 't', 'r', 'f:n', 41\nincr 't', 'r', 'f:n'\nget_counter 't', 'r', 'f:n'\nappend 't', 'r', 'f:s', 'ab'\nappend 't', 'r', 'f:s', 'c'\nget_splits 't'\nexists 't'\nis_disabled 't'\ncount 't'\nget_counter 't', 'zz', 'f:n'");
    let want = "Created table t\n=> Hbase::Table - t\nCOUNTER VALUE = 41\nCOUNTER VALUE = 42\nCOUNTER VALUE = 42\nCURRENT VALUE = ab\nCURRENT VALUE = abc\nTotal number of splits = 3\nb\nd\n=> [\"b\", \"d\"]\nTable t does exist\n=> true\nfalse\n=> false\n1 row(s)\n=> 1\nNo counter found at specified coordinates\n";
    assert_eq!(out, want);
}

#[test]
fn describe_shows_family_blocks() {
    let (mut sh, _) = shell_at(100);
    let out = run(&mut sh, "create 't', {NAME => 'f', VERSIONS => 3, TTL => 90061, KEEP_DELETED_CELLS => true}, 'g'\ndescribe 't'");
    assert!(out.contains("Table t is ENABLED\nt, {TABLE_ATTRIBUTES => {METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT'}}}\nCOLUMN FAMILIES DESCRIPTION\n{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3', KEEP_DELETED_CELLS => 'TRUE', DATA_BLOCK_ENCODING => 'NONE', TTL => '90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '65536 B (64KB)'}\n\n{NAME => 'g', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1'"), "{out}");
    // describe.rb: with quotas off (no `hbase:quota` table), the footer and then its line.
    assert!(out.ends_with("2 row(s)\nQuota is disabled\n"), "{out}");
}

#[test]
fn maxlength_cuts_the_cell_text() {
    let (mut sh, _) = shell_at(100);
    let out = run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r', 'f:q', 'abcdefgh', 7\nget 't', 'r', {MAXLENGTH => 15}",
    );
    assert!(out.contains(" f:q timestamp=7, va\n"), "{out}");
}

#[test]
fn ttl_and_time_travel_through_the_shell() {
    let (mut sh, clock) = shell_at(1_000_000);
    run(
        &mut sh,
        "create 't', {NAME => 'f', TTL => 10}\nput 't', 'r', 'f:q', 'v'",
    );
    clock.advance(11_000);
    assert!(run(&mut sh, "scan 't'").ends_with("0 row(s)\n"));
}

#[test]
fn reversed_scan_and_bounds() {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't', 'f'\nput 't', 'a', 'f:q', '1'\nput 't', 'b', 'f:q', '2'\nput 't', 'c', 'f:q', '3'");
    let keys = |out: String| {
        out.lines()
            .filter(|l| l.starts_with(' '))
            .map(|l| l.split(' ').nth(1).unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        keys(run(&mut sh, "scan 't', {REVERSED => true}")),
        vec!["c", "b", "a"]
    );
    assert_eq!(
        keys(run(
            &mut sh,
            "scan 't', {REVERSED => true, STARTROW => 'b', STOPROW => 'a'}"
        )),
        vec!["b"]
    );
    assert_eq!(
        keys(run(&mut sh, "scan 't', {STARTROW => 'b'}")),
        vec!["b", "c"]
    );
    assert_eq!(keys(run(&mut sh, "scan 't', {STOPROW => 'b'}")), vec!["a"]);
}

/// `describe` shows HBase's defaults (`ColumnFamilyDescriptorBuilder.DEFAULT_BLOCKSIZE`,
/// 65536); the playground writes such a family in smaller blocks, and one place says so with
/// the engine's own figures: the help of the commands that set or show sizes.
#[test]
fn describe_shows_hbases_defaults_and_help_says_the_playground_scale() -> TestResult {
    let (mut sh, _) = shell_at(1);
    let out = run(&mut sh, "create 't', 'f'\ndescribe 't'");
    assert!(out.contains("BLOCKSIZE => '65536 B (64KB)'}"), "{out}");
    let family = &sh.engine.table("t")?.descriptor.families[0];
    assert_eq!(
        family.working_blocksize(),
        rowkey::engine::DEFAULT_BLOCKSIZE
    );
    let settings = rowkey::engine::TableSettings::default();
    let scale = format!(
        "Playground scale: describe shows HBase's defaults, and Rowkey runs them smaller so that\n\
         blocks, flushes and splits appear with a few thousand rows. A family with HBase's default\n\
         BLOCKSIZE (65536) is written in blocks of {} bytes; a table without\n\
         MEMSTORE_FLUSHSIZE flushes a region's memstores at {} bytes (HBase: 134217728); one\n\
         without MAX_FILESIZE splits a region past {} bytes (HBase: 10737418240). A BLOCKSIZE,\n\
         MEMSTORE_FLUSHSIZE or MAX_FILESIZE you set is used as given.\n",
        rowkey::engine::DEFAULT_BLOCKSIZE,
        settings.flush_bytes,
        settings.split_bytes
    );
    for command in ["create", "alter", "describe"] {
        let help = run(&mut sh, &format!("help '{command}'"));
        assert!(help.ends_with(&scale), "{command}: {help}");
    }
    assert!(!run(&mut sh, "help 'scan'").contains("Playground scale"));
    // A BLOCKSIZE set by hand is used as given.
    run(&mut sh, "create 'u', {NAME => 'f', BLOCKSIZE => 4096}");
    assert_eq!(
        sh.engine.table("u")?.descriptor.families[0].working_blocksize(),
        4096
    );
    Ok(())
}

/// `ColumnValueFilter` (HBase 2's `ColumnValueFilter.filterCell`): of each row, only the
/// versions of its column whose value matches; a row with none is not returned. A
/// SingleColumnValueFilter with the same test returns the matching rows whole.
#[test]
fn column_value_filter_returns_only_the_matching_cells() {
    let (mut sh, _) = shell_at(100);
    run(
        &mut sh,
        "create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r1', 'f:a', 'v', 1\nput 't', 'r1', 'f:b', 'v', 1\nput 't', 'r2', 'f:a', 'w', 1\nput 't', 'r2', 'f:b', 'v', 1\nput 't', 'r3', 'f:a', 'v', 1\nput 't', 'r3', 'f:a', 'x', 2",
    );
    let out = run(
        &mut sh,
        "scan 't', {FILTER => \"ColumnValueFilter('f', 'a', =, 'binary:v')\", VERSIONS => 3}",
    );
    assert_eq!(
        out,
        "ROW  COLUMN+CELL\n r1 column=f:a, timestamp=1, value=v\n r3 column=f:a, timestamp=1, value=v\n2 row(s)\n"
    );
    let out = run(
        &mut sh,
        "scan 't', {FILTER => \"SingleColumnValueFilter('f', 'a', =, 'binary:v')\"}",
    );
    assert!(
        out.contains(" r1 column=f:b, timestamp=1, value=v\n"),
        "{out}"
    );
    let out = run(
        &mut sh,
        "scan 't', {FILTER => \"ColumnValueFilter('f', 'a', =)\"}",
    );
    assert!(
        out.contains("ERROR: Incorrect filter string ColumnValueFilter('f', 'a', =)\n(Rowkey: the filter's createFilterFromArguments refused it: Expect 4 arguments: 3)\n"),
        "{out}"
    );
}

/// What a command printed before it failed stays above its error, as HBase's shell prints as
/// it goes: `get.rb` and `scan.rb` print their header before reading anything
/// (`formatter.header` before `_get_internal` and `_hash_to_scan`, hbase-shell 2.5), and
/// admin.rb's `truncate` its first line before it asks whether the table is enabled.
#[test]
fn a_failed_get_scan_or_truncate_keeps_what_it_printed_first() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(&mut sh, "create 't', 'f'");
    let usage = |cmd: &str| format!("\n\nFor usage try 'help \"{cmd}\"'\n\n");
    // `HRegion.checkFamily` (2.5) names the region and the table by its descriptor's
    // `toString`: the quoted name, the table attributes, each family as `describe` shows it.
    assert_eq!(
        run(&mut sh, "get 't', 'r', 'nope:q'"),
        format!(
            "COLUMN  CELL\n\nERROR: org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nope does not exist in region t,,2 in table 't', {{TABLE_ATTRIBUTES => {{METADATA => {{'hbase.store.file-tracker.impl' => 'DEFAULT'}}}}}}, {{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1', KEEP_DELETED_CELLS => 'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => 'FOREVER', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '65536 B (64KB)'}}{}",
            usage("get")
        )
    );
    assert_eq!(
        run(&mut sh, "scan 'nosuch'"),
        format!(
            "ROW  COLUMN+CELL\n\nERROR: Unknown table nosuch!{}",
            usage("scan")
        )
    );
    assert_eq!(
        run(&mut sh, "scan 't', {FILTER => \"PrefixFilter(1)\"}"),
        format!(
            "ROW  COLUMN+CELL\n\nERROR: Incorrect filter string PrefixFilter(1)\n(Rowkey: the filter's createFilterFromArguments refused it: removeQuotesFromByteArray needs a quoted byte array){}",
            usage("scan")
        )
    );
    assert_eq!(
        run(&mut sh, "truncate 'nosuch'"),
        format!(
            "Truncating 'nosuch' table (it may take a while):\n\nERROR: Unknown table nosuch!{}",
            usage("truncate")
        )
    );
    // The next command prints nothing of the failed one's.
    assert_eq!(run(&mut sh, "count 't'"), "0 row(s)\n=> 0\n");
}

/// table.rb writes a put's value as `value.to_s.to_java_bytes`: numbers as Ruby prints them,
/// `nil` as no bytes, `true` as its name, an array or a hash as Ruby inspects it (the shell's
/// constants are strings).
#[test]
fn put_takes_any_value_as_ruby_prints_it() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    let out = run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r', 'f:a', 5\nput 't', 'r', 'f:b', 1.5\nput 't', 'r', 'f:c', 100.0\nput 't', 'r', 'f:d', nil\nput 't', 'r', 'f:e', true\nappend 't', 'r', 'f:a', 0.25\nput 't', 'r', 'f:g', [1, 'a', VERSIONS, nil]\nput 't', 'r', 'f:h', {'a' => 1}\nget 't', 'r'",
    );
    assert!(
        out.ends_with(
            "CURRENT VALUE = 50.25\nCOLUMN  CELL\n f:a timestamp=1700000000006, value=50.25\n f:b timestamp=1700000000002, value=1.5\n f:c timestamp=1700000000003, value=100.0\n f:d timestamp=1700000000004, value=\n f:e timestamp=1700000000005, value=true\n f:g timestamp=1700000000007, value=[1, \"a\", \"VERSIONS\", nil]\n f:h timestamp=1700000000008, value={\"a\"=>1}\n1 row(s)\n"
        ),
        "{out}"
    );
}

/// `describe` of a family as HBase 2.5 prints it (`ColumnFamilyDescriptorBuilder.getValues`,
/// `PrettyPrinter.format`): INDEX_BLOCK_ENCODING after NAME, BLOCKSIZE in bytes and units,
/// TTL under a minute in seconds alone.
#[test]
fn describe_prints_sizes_and_short_ttls_as_hbase_2_5() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    let out = run(
        &mut sh,
        "create 't', {NAME => 'f', TTL => 59, BLOCKSIZE => 131073}\ndescribe 't'",
    );
    assert!(
        out.contains("{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1', KEEP_DELETED_CELLS => 'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => '59 SECONDS', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '131073 B (128KB 1B)'}"),
        "{out}"
    );
}
