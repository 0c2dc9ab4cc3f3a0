//! Table attributes as admin.rb sets them: `update_htd_from_arg` for `create` and `alter`
//! (with or without `METHOD => 'table_att'`), `METHOD => 'table_att_unset'`, the keys it
//! ignores with a warning, and what `describe` prints
//! (`TableDescriptorBuilder.ModifyableTableDescriptor.toStringTableAttributes`).
mod common;
use common::*;

fn error_of(sh: &mut rowkey::shell::Shell, input: &str) -> Option<String> {
    sh.run(input)
        .into_iter()
        .find_map(|o| o.error.map(|e| e.message))
}

fn table_line(sh: &mut rowkey::shell::Shell) -> String {
    run(sh, "describe 't1'")
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

/// alter.rb's examples `alter 't1', MAX_FILESIZE => '134217728'` and
/// `alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'`.
#[test]
fn table_att_sets_and_table_att_unset_removes() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(&mut sh, "create 't1', 'f1'");
    // Every table the master creates names its store file tracker (HBase 2.5).
    let tracker = "METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT'}";
    assert_eq!(
        table_line(&mut sh),
        format!("t1, {{TABLE_ATTRIBUTES => {{{tracker}}}}}")
    );
    let out = run(
        &mut sh,
        "alter 't1', METHOD => 'table_att', MAX_FILESIZE => '134217728'",
    );
    assert_eq!(
        out,
        "Updating all regions with the new schema...\n1/1 regions updated.\nDone.\n"
    );
    // The sizes print in bytes and units: `TableDescriptorBuilder.getValues` formats
    // MAX_FILESIZE and MEMSTORE_FLUSHSIZE with `PrettyPrinter.Unit.BYTE` (`getUnit`, 2.5).
    assert_eq!(
        table_line(&mut sh),
        "t1, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '134217728 B (128MB)', METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT'}}}"
    );
    let split_bytes = |sh: &rowkey::shell::Shell| {
        sh.engine
            .table("t1")
            .map(|t| t.descriptor.settings.split_bytes)
            .unwrap_or(0)
    };
    assert_eq!(split_bytes(&sh), 134_217_728);
    run(
        &mut sh,
        "alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'",
    );
    assert_eq!(
        table_line(&mut sh),
        format!("t1, {{TABLE_ATTRIBUTES => {{{tracker}}}}}")
    );
    assert_eq!(
        split_bytes(&sh),
        rowkey::engine::TableSettings::default().split_bytes
    );
    // admin.rb: `raise ArgumentError, "Could not find attribute: #{name}"`.
    assert_eq!(
        error_of(
            &mut sh,
            "alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'"
        )
        .as_deref(),
        Some("Could not find attribute: MAX_FILESIZE")
    );
    assert_eq!(
        error_of(&mut sh, "alter 't1', METHOD => 'table_att_unset'").as_deref(),
        Some("NAME parameter missing for table_att_unset method")
    );
    assert_eq!(
        error_of(&mut sh, "alter 't1', METHOD => 'frobnicate'").as_deref(),
        Some("Unknown method: frobnicate")
    );
    Ok(())
}

/// Reserved keys print first, bare; the others (SPLIT_ENABLED, METADATA entries ...) under
/// METADATA, quoted, each group in byte order.
#[test]
fn describe_prints_reserved_keys_then_metadata() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't1', 'f1', DURABILITY => 'ASYNC_WAL', METADATA => {'mykey' => 'myvalue'}",
    );
    run(
        &mut sh,
        "alter 't1', {SPLIT_ENABLED => false}, READONLY => true",
    );
    assert_eq!(
        table_line(&mut sh),
        "t1, {TABLE_ATTRIBUTES => {DURABILITY => 'ASYNC_WAL', READONLY => 'true', METADATA => {'SPLIT_ENABLED' => 'false', 'hbase.store.file-tracker.impl' => 'DEFAULT', 'mykey' => 'myvalue'}}}"
    );
    assert_eq!(
        error_of(&mut sh, "alter 't1', DURABILITY => 'SOMETIMES'").as_deref(),
        Some("No enum constant org.apache.hadoop.hbase.client.Durability.SOMETIMES")
    );
    Ok(())
}

/// READONLY => true refuses every write (`HRegion.checkReadOnly`); reads go on.
#[test]
fn a_read_only_table_refuses_writes() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(&mut sh, "create 't1', 'f1'\nput 't1', 'r', 'f1:q', 'v'");
    run(&mut sh, "alter 't1', READONLY => 'true'");
    for write in [
        "put 't1', 'r', 'f1:q', 'w'",
        "incr 't1', 'r', 'f1:n'",
        "deleteall 't1', 'r'",
    ] {
        assert_eq!(
            error_of(&mut sh, write).as_deref(),
            Some("org.apache.hadoop.hbase.DoNotRetryIOException: region is read only"),
            "{write}"
        );
    }
    assert!(run(&mut sh, "get 't1', 'r'").contains("value=v"));
    run(
        &mut sh,
        "alter 't1', METHOD => 'table_att_unset', NAME => 'READONLY'",
    );
    assert!(error_of(&mut sh, "put 't1', 'r', 'f1:q', 'w'").is_none());
    Ok(())
}

/// SPLIT_ENABLED => false: the region grows past MAX_FILESIZE and stays one region
/// (`RegionSplitPolicy.shouldSplit` asks `isSplitEnabled`).
#[test]
fn split_enabled_false_stops_automatic_splits() -> TestResult {
    let regions = |split_enabled: bool| -> Result<usize, Box<dyn std::error::Error>> {
        let (mut sh, _) = shell_at(1_000);
        run(
            &mut sh,
            &format!(
                "create 't1', 'f1', MAX_FILESIZE => 4096, MEMSTORE_FLUSHSIZE => 1024, SPLIT_ENABLED => {split_enabled}"
            ),
        );
        run(
            &mut sh,
            "generate 't1', 'row%05d', 400, {COLUMNS => ['f1:a'], VALUE_SIZE => 32}",
        );
        Ok(sh.engine.table("t1")?.regions.len())
    };
    assert!(regions(true)? > 1);
    assert_eq!(regions(false)?, 1);
    Ok(())
}

/// Keys `update_htd_from_arg` does not read: `alter` prints "Unknown argument ignored: KEY",
/// `create` "An argument ignored (unknown or overridden): KEY"; a family hash's unknown key
/// "Unknown argument ignored for column family NAME: KEY" (admin.rb `cfd`). All go on.
#[test]
fn unknown_keys_are_ignored_with_admin_rb_warnings() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    let out = run(
        &mut sh,
        "create 't1', {NAME => 'f1', VERSION => 3}, FOO => 1",
    );
    assert_eq!(
        out,
        "Unknown argument ignored for column family f1: VERSION\nDid you mean VERSIONS?\nAn argument ignored (unknown or overridden): FOO\nCreated table t1\n=> Hbase::Table - t1\n"
    );
    let out = run(&mut sh, "alter 't1', MAX_FILESIZE => 8192, BAR => 2");
    assert!(
        out.starts_with("Unknown argument ignored: BAR\nUpdating all regions"),
        "{out}"
    );
    // Family options HBase accepts that a playground has no use for pass silently.
    let out = run(
        &mut sh,
        "alter 't1', {NAME => 'f1', DFS_REPLICATION => 1, IS_MOB => true}",
    );
    assert!(!out.contains("ignored"), "{out}");
    Ok(())
}

/// create.rb's `create 't1', 'f1', SPLITS_FILE => 'splits.txt'`: admin.rb reads the file on
/// the shell's machine and refuses a missing one with "Splits file ... doesn't exist".
#[test]
fn splits_file_is_refused_as_a_missing_file() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    let err =
        error_of(&mut sh, "create 't1', 'f1', SPLITS_FILE => 'splits.txt'").ok_or("no error")?;
    assert!(
        err.starts_with("Splits file splits.txt doesn't exist"),
        "{err}"
    );
    assert!(!sh.engine.exists("t1"));
    Ok(())
}

/// alter.rb: `REOPEN_REGIONS => 'false'` changes the descriptor without reopening, so the
/// memstore is not flushed.
#[test]
fn reopen_regions_false_leaves_the_memstore() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(&mut sh, "create 't1', 'f1'\nput 't1', 'r', 'f1:q', 'v'");
    let memstore = |sh: &rowkey::shell::Shell| {
        sh.engine
            .table("t1")
            .map(|t| t.regions.iter().map(|r| r.memstore_bytes()).sum::<usize>())
            .unwrap_or(0)
    };
    // admin.rb's warning, and no "Updating all regions" (the regions are not reopened).
    assert_eq!(
        run(
            &mut sh,
            "alter 't1', REOPEN_REGIONS => 'FALSE', MAX_FILESIZE => '134217728'",
        ),
        "WARNING: You are using REOPEN_REGIONS => 'false' to modify a table, which will\n          result in inconsistencies in the configuration of online regions and other risks. If you\n          encounter any issues, use the original 'alter' command to make the modification again!\n"
    );
    assert!(memstore(&sh) > 0);
    // The value is read with `downcase`: Ruby's false has none, and a string must say
    // true or false.
    assert_eq!(
        error_of(
            &mut sh,
            "alter 't1', REOPEN_REGIONS => false, MAX_FILESIZE => 1"
        )
        .as_deref(),
        Some("NoMethodError: undefined method `downcase' for false:FalseClass")
    );
    assert_eq!(
        error_of(
            &mut sh,
            "alter 't1', REOPEN_REGIONS => 'no', MAX_FILESIZE => 1"
        )
        .as_deref(),
        Some("Invalid 'REOPEN_REGIONS' for non-boolean value.")
    );
    run(&mut sh, "alter 't1', MAX_FILESIZE => '134217728'");
    assert_eq!(memstore(&sh), 0);
    Ok(())
}
