//! Table references and the commands of HBase's help that a single-machine playground runs
//! (`get_table.rb`, `alter_async.rb`, `alter_status.rb`, `locate_region.rb`,
//! `show_filters.rb`, `flush.rb`), and the cluster commands it answers with why it does not.
mod common;
use common::*;

fn error_of(sh: &mut rowkey::shell::Shell, input: &str) -> Option<String> {
    sh.run(input)
        .into_iter()
        .find_map(|o| o.error.map(|e| e.message))
}

/// get_table.rb's help: `t1 = get_table 't1'`, then `t1.put`, `t1.scan` ... run on the
/// table (`Hbase::Table` gets each command through `add_shell_command`).
#[test]
fn a_table_reference_runs_the_table_commands() -> TestResult {
    let (mut sh, _) = shell_at(100);
    let out = run(&mut sh, "create 't1', 'f'\nt = get_table 't1'");
    assert!(out.ends_with("=> Hbase::Table - t1\n"), "{out}");
    run(&mut sh, "t.put 'r1', 'f:q', 'v1'\nt.put 'r2', 'f:q', 'v2'");
    assert_eq!(
        run(&mut sh, "t.get 'r1'"),
        "COLUMN  CELL\n f:q timestamp=102, value=v1\n1 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "t.scan"),
        "ROW  COLUMN+CELL\n r1 column=f:q, timestamp=102, value=v1\n r2 column=f:q, timestamp=103, value=v2\n2 row(s)\n"
    );
    assert_eq!(
        run(&mut sh, "t.scan STARTROW => 'r2'"),
        "ROW  COLUMN+CELL\n r2 column=f:q, timestamp=103, value=v2\n1 row(s)\n"
    );
    assert!(run(&mut sh, "t.count").contains("2 row(s)\n"));
    assert_eq!(run(&mut sh, "t"), "=> Hbase::Table - t1\n");
    // create returns a reference too.
    run(&mut sh, "u = create 'u1', 'g'\nu.put 'x', 'g:a', '1'");
    assert_eq!(
        run(&mut sh, "u.get 'x'"),
        "COLUMN  CELL\n g:a timestamp=110, value=1\n1 row(s)\n"
    );
    // JRuby's answers to an unknown variable and an unknown method.
    assert_eq!(
        error_of(&mut sh, "w.scan").as_deref(),
        Some("NameError: undefined local variable or method `w' for main:Object")
    );
    assert!(error_of(&mut sh, "t.sacn").is_some_and(|m| m
        .starts_with("NoMethodError: undefined method `sacn' for Hbase::Table - t1")
        && m.contains("Did you mean 'scan'?")));
    Ok(())
}

/// A reference's writes are writes: a read-only tab refuses them as it refuses `put`.
#[test]
fn a_reference_write_is_refused_in_a_read_only_tab() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't1', 'f'\nt = get_table 't1'");
    sh.read_only = Some("another tab is writing".into());
    assert_eq!(
        error_of(&mut sh, "t.put 'r', 'f:q', 'v'").as_deref(),
        Some("another tab is writing")
    );
    assert!(error_of(&mut sh, "t.scan").is_none());
    Ok(())
}

/// admin.rb's `alter(table, wait, *args)`: `alter_async` passes `wait = false` and prints
/// nothing about regions; `alter_status` prints the regions updated.
#[test]
fn alter_async_and_alter_status() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't1', 'f', SPLITS => ['m']");
    assert_eq!(
        run(&mut sh, "alter_async 't1', NAME => 'f', VERSIONS => 4"),
        ""
    );
    assert_eq!(
        sh.engine.table("t1")?.descriptor.families[0].max_versions,
        4
    );
    assert_eq!(
        run(&mut sh, "alter_status 't1'"),
        "2/2 regions updated.\nDone.\n"
    );
    assert_eq!(
        error_of(&mut sh, "alter_status 'nope'").as_deref(),
        Some("Can't find a table: nope")
    );
    Ok(())
}

/// locate_region.rb prints a HOST/REGION table with one row and `1 row(s)`.
#[test]
fn locate_region_names_the_region_holding_the_row() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't1', 'f', SPLITS => ['m']");
    let out = run(&mut sh, "locate_region 't1', 'q'");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("HOST  REGION"));
    let row = lines.next().unwrap_or_default();
    assert!(
        row.contains("NAME => 't1,m,") && row.contains("STARTKEY => 'm', ENDKEY => ''"),
        "{row}"
    );
    assert_eq!(lines.next(), Some("1 row(s)"));
    Ok(())
}

/// show_filters.rb lists the filters the filter language registers.
#[test]
fn show_filters_lists_the_registered_filters() -> TestResult {
    let (mut sh, _) = shell_at(100);
    let out = run(&mut sh, "show_filters");
    for name in rowkey::filter::filter_names() {
        assert!(out.lines().any(|l| l == name), "{name} missing from {out}");
    }
    Ok(())
}

/// flush.rb: `flush 'TABLENAME', 'FAMILYNAME'` flushes that family's memstore only.
#[test]
fn flush_of_one_family_leaves_the_others_in_memory() -> TestResult {
    let (mut sh, _) = shell_at(100);
    run(&mut sh, "create 't1', 'f', 'g'\nput 't1', 'r', 'f:a', '1'\nput 't1', 'r', 'g:b', '2'\nflush 't1', 'f'");
    let region = &sh.engine.table("t1")?.regions[0];
    assert!(region.stores[0].memstore.is_empty());
    assert!(!region.stores[1].memstore.is_empty());
    assert!(error_of(&mut sh, "flush 't1', 'nope'")
        .is_some_and(|m| m.contains("Column family nope does not exist")));
    Ok(())
}

/// Commands of a real cluster are known by name and say why Rowkey does not run them,
/// instead of JRuby's NameError.
#[test]
fn cluster_commands_say_what_hbase_would_do_and_why_rowkey_does_not() -> TestResult {
    let (mut sh, _) = shell_at(100);
    for cmd in [
        "status",
        "version",
        "whoami",
        "exit",
        "balancer",
        "create_namespace 'ns'",
        "list_snapshots",
        "grant 'bob', 'RW'",
    ] {
        let message = error_of(&mut sh, cmd).unwrap_or_default();
        let name = cmd.split(' ').next().unwrap_or_default();
        assert!(
            message.starts_with(&format!("{name} is not run in Rowkey: ")),
            "{cmd}: {message}"
        );
        assert!(
            !message.contains("NameError") && !message.contains('\n'),
            "{cmd}: {message}"
        );
    }
    let out = run(&mut sh, "help 'status'");
    assert!(out.contains("region servers"), "{out}");
    Ok(())
}
