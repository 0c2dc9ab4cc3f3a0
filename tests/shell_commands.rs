//! One table of commands: the dispatcher runs exactly the commands of
//! `rowkey::commands::COMMANDS`, the read-only check reads the same table, and `help`
//! lists it.
mod common;
use common::*;
use rowkey::commands::{self, Dialect};

/// Every command in the table is dispatched through its entry: run bare, a command that needs
/// arguments fails with the count its entry gives, a refused one with its entry's note, and the
/// others run (never "undefined").
#[test]
fn every_command_in_the_table_is_dispatched() {
    let (mut shell, _) = shell_at(1_000);
    for c in commands::of(Dialect::HBase) {
        let message = shell
            .run(c.name)
            .into_iter()
            .find_map(|o| o.error)
            .map(|e| e.message);
        let expected = if !c.runs() {
            Some(format!("{} is not run in Rowkey: {}", c.name, c.note))
        } else if c.arity.min > 0 {
            Some(c.arity.message(0))
        } else {
            None
        };
        assert_eq!(message, expected, "{}", c.name);
    }
}

/// Names outside the table (misspellings, names HBase does not have either) are refused
/// before anything runs. HBase's cluster commands are in the table and answer why Rowkey
/// does not run them (tests/shell_refs.rs).
#[test]
fn commands_outside_the_table_are_undefined() {
    let (mut shell, _) = shell_at(1_000);
    for name in ["Scan", "lsit", "frobnicate", "hbck"] {
        assert!(commands::find(Dialect::HBase, name).is_none());
        let outcomes = shell.run(&format!("{name} 't'"));
        let message = outcomes
            .first()
            .and_then(|o| o.error.clone())
            .map(|e| e.message)
            .unwrap_or_default();
        assert!(message.contains(&format!("`{name}'")), "{name}: {message}");
    }
}

#[test]
fn read_only_refuses_exactly_the_writing_commands_of_the_table() {
    let (mut shell, _) = shell_at(1_000);
    run(&mut shell, "create 't', 'f'");
    shell.read_only = Some("another tab is writing".into());
    for c in commands::of(Dialect::HBase) {
        let refused = shell
            .run(c.name)
            .first()
            .and_then(|o| o.error.clone())
            .is_some_and(|e| e.message == "another tab is writing");
        assert_eq!(refused, c.writes, "{}", c.name);
        assert_eq!(commands::writes(Dialect::HBase, c.name), c.writes);
    }
    assert!(!commands::writes(Dialect::HBase, "nope"));
}

#[test]
fn help_lists_the_groups_of_the_table() {
    let (mut shell, _) = shell_at(1_000);
    let out = run(&mut shell, "help");
    assert!(out.contains("  Group name: ddl\n  Commands: alter, alter_async, alter_status, clone_table_schema, create, describe, disable, disable_all, drop, drop_all, enable, enable_all, exists, get_table, is_disabled, is_enabled, list\n"), "{out}");
    assert!(
        out.contains(
            "  Group name: tools\n  Commands: compact, flush, get_splits, list_regions, locate_region, major_compact, split\n"
        ),
        "{out}"
    );
}
