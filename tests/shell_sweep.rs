//! `disable_all`, `enable_all`, `drop_all` and `clone_table_schema`, as HBase 2.5's shell runs
//! them. A sweep lists the tables whose whole name its regex matches (`Admin.listTableNames`),
//! asks, and reads the answer with `gets`: the next line of input, in a script or typed
//! (`disable_all.rb`, `enable_all.rb`, `drop_all.rb`). A line with a `y` anywhere in it
//! (`answer =~ /y.*/i`) changes each table on its own (admin.rb's `disable_all` and the others
//! print each refusal as `table:NAME, error:EXCEPTION`); the report counts from the tables
//! listed. `clone_table_schema` copies a table's descriptor and split keys
//! (`RawAsyncHBaseAdmin.cloneTableSchema`).

mod common;
use common::session::{fresh, last_entry, tables};
use common::*;
use rowkey::session::Action;

/// Three tables, two of them named `tmp_`, one with a cell.
fn three() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 'tmp_a', 'f'\ncreate 'tmp_b', 'f'\ncreate 'keep', 'f'\nput 'tmp_a', 'r', 'f:q', 'v'",
    );
    sh
}

fn names(sh: &rowkey::shell::Shell) -> Vec<(String, bool)> {
    sh.engine
        .tables()
        .map(|t| (t.descriptor.name.clone(), t.enabled))
        .collect()
}

#[test]
fn a_sweep_lists_asks_and_the_next_line_of_the_script_answers() {
    let mut sh = three();
    assert_eq!(
        run(&mut sh, "disable_all 'tmp_.*'\ny"),
        "tmp_a\ntmp_b\n\nDisable the above 2 tables (y/n)?\n2 tables successfully disabled\n"
    );
    assert_eq!(
        names(&sh),
        [
            ("keep".into(), true),
            ("tmp_a".into(), false),
            ("tmp_b".into(), false)
        ]
    );
    // `drop_all`'s refusal is printed by `puts puts ...`: an empty line after it.
    run(&mut sh, "enable 'tmp_b'");
    assert_eq!(
        run(&mut sh, "drop_all 'tmp_.*'\nokay, yes\nlist"),
        "tmp_a\ntmp_b\n\nDrop the above 2 tables (y/n)?\n\
         table:tmp_b, error:org.apache.hadoop.hbase.TableNotDisabledException: Not DISABLED; \
         tableName=tmp_b, state=ENABLED\n\n\
         1 tables successfully dropped\n\
         1 tables not dropped due to an exception: tmp_b\n\
         TABLE\nkeep\ntmp_b\n2 row(s)\n=> [\"keep\", \"tmp_b\"]\n"
    );
}

#[test]
fn an_answer_without_a_y_changes_nothing_and_no_match_asks_nothing() {
    let mut sh = three();
    assert_eq!(
        run(
            &mut sh,
            "enable_all '.*'\nno\nenable_all 'none.*'\nlist 'k.*'"
        ),
        "keep\ntmp_a\ntmp_b\n\nEnable the above 3 tables (y/n)?\n\
         No tables matched the regex none.*\nTABLE\nkeep\n1 row(s)\n=> [\"keep\"]\n"
    );
    assert!(names(&sh).iter().all(|(_, enabled)| *enabled));
    // The answer "no" was read as an answer, not run: no error about a method `no`.
    let outcomes = sh.run("disable_all 'keep'\nno");
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o.error.is_none()));
    // The question gets no `Took` line; the answer does, for the whole command.
    assert!(!outcomes[0].output.contains("Took "));
    assert!(outcomes[1].output.starts_with("Took "));
}

#[test]
fn refusals_name_each_table_with_the_masters_exception_and_the_report_counts_the_list() {
    let mut sh = three();
    run(&mut sh, "disable 'tmp_a'");
    assert_eq!(
        run(&mut sh, "disable_all 'tmp_.*'\ny\nenable_all '.*'\nY"),
        "tmp_a\ntmp_b\n\nDisable the above 2 tables (y/n)?\n\
         table:tmp_a, error:org.apache.hadoop.hbase.TableNotEnabledException: \
         tableName=tmp_a, state=DISABLED\n\
         1 tables successfully disabled\n\
         1 tables not disabled due to an exception: tmp_a\n\
         keep\ntmp_a\ntmp_b\n\nEnable the above 3 tables (y/n)?\n\
         table:keep, error:org.apache.hadoop.hbase.TableNotDisabledException: \
         tableName=keep, state=ENABLED\n\
         2 tables successfully enabled\n\
         1 tables not enabled due to an exception: keep\n"
    );
}

/// In the page the answer is the next line typed: a submission of its own, which runs the
/// sweep's writes (so the entry is one that writes, and is saved) and is refused as a write
/// in a tab that is not the writing one.
#[test]
fn in_the_console_the_next_submission_answers_and_writes() {
    let mut s = fresh();
    s.apply(Action::Submit(
        "create 'tmp_a', 'f'\ncreate 'keep', 'f'".into(),
    ));
    s.apply(Action::Submit("disable_all 'tmp_.*'".into()));
    assert!(last_entry(&s).contains("Disable the above 1 tables (y/n)?"));
    s.apply(Action::Submit("drop_all 'nothing'".into()));
    // Read as the answer (no y in it), not run.
    assert!(!last_entry(&s).contains("No tables matched"));
    s.apply(Action::Submit("y".into()));
    // The question was answered by the line after it, `drop_all 'nothing'` (no y in it), so
    // the `y` typed next is a command of its own.
    assert!(last_entry(&s).contains("undefined local variable or method `y'"));
    s.apply(Action::Submit("disable_all 'tmp_.*'".into()));
    s.apply(Action::Submit("yes".into()));
    let answer = last_entry(&s);
    assert!(
        answer.contains("1 tables successfully disabled"),
        "{answer}"
    );
    {
        let console = s.console.borrow();
        let entry = console.entries.last().expect("an entry");
        assert!(entry.writes && !entry.failed());
    }
    s.apply(Action::Submit("drop_all 'tmp_.*'".into()));
    s.console.borrow_mut().shell.read_only = Some("another tab is writing".into());
    s.apply(Action::Submit("y".into()));
    assert!(last_entry(&s).contains("ERROR: another tab is writing"));
    assert_eq!(tables(&s), ["keep", "tmp_a"]);
}

#[test]
fn clone_table_schema_copies_families_settings_and_splits_but_no_cells() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 'src', {NAME => 'f', VERSIONS => 3, TTL => 3600}, 'g', SPLITS => ['h', 'p']\n\
         alter 'src', MAX_FILESIZE => 131072\nput 'src', 'k', 'f:q', 'v'",
    );
    assert_eq!(run(&mut sh, "clone_table_schema 'src', 'copy'"), "");
    let describe = |sh: &mut rowkey::shell::Shell, t: &str| {
        run(sh, &format!("describe '{t}'"))
            .replacen(&format!("Table {t} is"), "Table is", 1)
            .replacen(&format!("{t}, {{"), ", {", 1)
    };
    assert_eq!(describe(&mut sh, "copy"), describe(&mut sh, "src"));
    assert_eq!(
        run(&mut sh, "get_splits 'copy'\ncount 'copy'"),
        "Total number of splits = 3\nh\np\n=> [\"h\", \"p\"]\n0 row(s)\n=> 0\n"
    );
    assert_eq!(run(&mut sh, "clone_table_schema 'src', 'one', false"), "");
    assert_eq!(
        run(&mut sh, "get_splits 'one'"),
        "Total number of splits = 1\n=> []\n"
    );
    // A missing source is a `TableNotFoundException`, which the shell translates; a taken
    // name a `TableExistsException`, which it prints as Java's `toString`.
    assert_eq!(
        error_of(&mut sh, "clone_table_schema 'nope', 'x'").as_deref(),
        Some("Unknown table nope!")
    );
    assert_eq!(
        error_of(&mut sh, "clone_table_schema 'src', 'one'").as_deref(),
        Some("org.apache.hadoop.hbase.TableExistsException: one")
    );
    assert_eq!(sh.engine.tables().count(), 3);
}
