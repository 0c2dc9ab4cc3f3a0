//! A disabled table in the HBase shell, as HBase 2.5 treats it: its regions are closed and on
//! no server, so the Admin's flush, compactions and split leave it as it is
//! (`HBaseAdmin.flush` logs "Table is disabled" and returns; `HBaseAdmin.compact` and `split`
//! skip each region location without a server), `disable` and `enable` of a table already so
//! do nothing (admin.rb: `return if disabled?(table_name)`), and `alter`'s progress counts no
//! region (`AssignmentManager.getRegionStatesCount` counts none for a disabled table, and
//! admin.rb's `alter_status` then prints "All regions updated."). The cells stay: cbt drops or
//! empties such a table as it is, and the diagnosis reads them.

mod common;
use common::session::{fresh, last_entry};
use common::*;
use rowkey::dialect::Dialect;
use rowkey::session::Action;

/// A table of two regions' worth of rows, a delete marker flushed with them, then disabled.
fn disabled() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', 'r1', 'f:q', 'v'\nput 't', 'r2', 'f:q', 'v'\n\
         delete 't', 'r1', 'f:q'\nflush 't'\nput 't', 'r3', 'f:q', 'v'\ndisable 't'",
    );
    sh
}

#[test]
fn flush_compactions_and_split_leave_a_disabled_table_as_it_is() {
    let mut sh = disabled();
    let before = run(&mut sh, "enable 't'\nlist_regions 't'\ndisable 't'");
    for command in [
        "flush 't'",
        "flush 't', 'f'",
        "compact 't'",
        "major_compact 't'",
        // Not even the family is asked about: a region server would.
        "major_compact 't', 'nope'",
        "split 't', 'r2'",
    ] {
        assert_eq!(run(&mut sh, command), "", "{command}");
    }
    assert_eq!(
        run(&mut sh, "get_splits 't'"),
        "Total number of splits = 1\n=> []\n"
    );
    run(&mut sh, "enable 't'");
    // The memstore's row is where it was (list_regions' sizes count the runs), and the major
    // compaction kept the delete marker it would have dropped.
    assert_eq!(run(&mut sh, "list_regions 't'\ndisable 't'"), before);
    run(&mut sh, "enable 't'");
    assert!(run(&mut sh, "scan 't', {RAW => true}").contains(" r1 column=f:q, timestamp="));
    assert!(run(&mut sh, "scan 't', {RAW => true}").contains("type=Delete"));
}

#[test]
fn disable_and_enable_of_a_table_already_so_do_nothing() {
    let mut sh = disabled();
    assert_eq!(run(&mut sh, "disable 't'"), "");
    assert_eq!(run(&mut sh, "is_disabled 't'"), "true\n=> true\n");
    assert_eq!(run(&mut sh, "enable 't'\nenable 't'"), "");
    assert_eq!(run(&mut sh, "is_enabled 't'"), "true\n=> true\n");
    // An unknown table is still an error.
    assert!(run(&mut sh, "disable 'nope'").contains("Table nope does not exist."));
}

#[test]
fn alter_of_a_disabled_table_counts_no_region() {
    let mut sh = disabled();
    assert_eq!(
        run(&mut sh, "alter 't', {NAME => 'f', VERSIONS => 2}"),
        "Updating all regions with the new schema...\nAll regions updated.\nDone.\n"
    );
    assert_eq!(
        run(&mut sh, "alter_status 't'"),
        "All regions updated.\nDone.\n"
    );
    run(&mut sh, "enable 't'");
    assert_eq!(
        run(&mut sh, "alter_status 't'"),
        "1/1 regions updated.\nDone.\n"
    );
}

/// cbt over an HBase table the shell disabled: `deletetable` drops it as it is (it asked to
/// disable it again, and was refused), `deleteallrows` empties it and leaves it disabled (the
/// truncate under it enabled it).
#[test]
fn cbt_drops_or_empties_a_disabled_hbase_table_as_it_is() {
    let mut s = fresh();
    for line in [
        "create 'h', 'f'",
        "put 'h', 'r', 'f:q', 'v'",
        "create 'g', 'f'",
        "put 'g', 'r', 'f:q', 'v'",
        "disable 'h'",
        "disable 'g'",
    ] {
        s.apply(Action::Submit(line.into()));
    }
    s.apply(Action::SetDialect(Dialect::Cbt));
    // A read whose filter is refused only where a row would meet it says the table's own
    // refusal first, as the read it stands before would (it printed nothing).
    s.apply(Action::Submit("read h 'regex=('".into()));
    assert_eq!(
        last_entry(&s),
        "cbt> read h 'regex=('\nReading rows: Table h is disabled!\n"
    );
    s.apply(Action::Submit("deleteallrows g".into()));
    assert_eq!(last_entry(&s), "cbt> deleteallrows g\n");
    s.apply(Action::Submit("deletetable h".into()));
    assert_eq!(last_entry(&s), "cbt> deletetable h\n");
    s.apply(Action::SetDialect(Dialect::HBase));
    s.apply(Action::Submit("list".into()));
    assert!(
        last_entry(&s).contains("\ng\n1 row(s)\n"),
        "{}",
        last_entry(&s)
    );
    s.apply(Action::Submit("is_disabled 'g'".into()));
    assert!(
        last_entry(&s).contains("\ntrue\nTook 0.0000 seconds\n=> true\n"),
        "{}",
        last_entry(&s)
    );
    s.apply(Action::Submit("enable 'g'".into()));
    s.apply(Action::Submit("count 'g'".into()));
    assert!(last_entry(&s).contains("0 row(s)"), "{}", last_entry(&s));
}

/// The diagnosis reads a disabled table's cells as an enabled one's: its findings are the same.
#[test]
fn the_diagnosis_of_a_disabled_table_reads_its_cells() -> TestResult {
    let mut e = rowkey::engine::Engine::new(Box::new(|| 1_700_000_000_000));
    e.create_table(
        rowkey::engine::TableDescriptor::new(
            "t",
            vec![rowkey::engine::FamilyDescriptor::new(
                "a_rather_long_family_name",
            )],
        ),
        Vec::new(),
    )?;
    for i in 0..40 {
        e.mutate(
            "t",
            format!("a_long_row_key_for_entity_{i:04}").as_bytes(),
            &[put(
                "a_rather_long_family_name",
                "a_long_qualifier_name",
                None,
                "v",
            )],
        )?;
    }
    let rules = |e: &rowkey::engine::Engine| -> Vec<&'static str> {
        rowkey::diagnose::diagnose(e, "t")
            .iter()
            .map(|f| f.rule)
            .collect()
    };
    let enabled = rules(&e);
    assert!(enabled.contains(&"cell-overhead"), "{enabled:?}");
    e.disable("t")?;
    assert_eq!(rules(&e), enabled);
    Ok(())
}

/// A table reference's command hands HBase's shell the `Hbase::Table` object as its first
/// argument (table.rb's `add_command`), and commands.rb's `translate_hbase_exceptions` names
/// that argument in its error for a disabled table, as the object prints itself (table.rb's
/// `to_s`): `Table Hbase::Table - t is disabled!`. The command by its table's name says `t`.
#[test]
fn a_reference_to_a_disabled_table_is_named_as_the_shell_prints_the_reference() {
    let mut sh = disabled();
    run(&mut sh, "tb = get_table 't'");
    for command in ["tb.scan", "tb.count", "tb.get 'r1'"] {
        let out = run(&mut sh, command);
        assert!(
            out.contains("ERROR: Table Hbase::Table - t is disabled!\n"),
            "{command}: {out}"
        );
    }
    assert!(run(&mut sh, "scan 't'").contains("ERROR: Table t is disabled!\n"));
}
