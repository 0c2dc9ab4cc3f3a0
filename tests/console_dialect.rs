//! The console's dialect mode: a line typed in cbt mode runs through the cbt front end over
//! the same engine the HBase shell uses, prints what cbt prints, shows `cbt> ` as its prompt,
//! keeps its dialect in the history (saved as history format 2; a format-1 history reads as
//! HBase's), is linted for epoch-millisecond timestamps before it runs, and is saved and
//! reloaded with its table's Bigtable rules.
mod common;
use common::*;
use rowkey::cbt::BIGTABLE_RULES;
use rowkey::console::Console;
use rowkey::dialect::{decode_history, encode_history, lint_cbt, Dialect, HistoryLine};
use rowkey::engine::Rules;
use rowkey::persist::{load, Saver, StoredRecords};

fn console() -> Console {
    let (sh, _) = shell_at(1_700_000_000_000);
    Console::new(sh, vec!["list".into()])
}

const LOOKUP: &str = "----------------------------------------\nr1\n  cf:a                                     @ 1970/01/01-00:00:00.001000\n    \"hello\"\n\n";

#[test]
fn a_cbt_line_runs_over_the_shells_engine_beside_an_hbase_table() -> TestResult {
    let mut c = console();
    c.submit("create 'h', 'f'\nput 'h', 'r', 'f:q', 'v'");
    c.submit_in(
        "createtable b families=cf\nset b r1 cf:a=hello@1000\nlookup b r1",
        Dialect::Cbt,
    );
    let e = c.entries.last().ok_or("no entry")?;
    assert_eq!(e.dialect, Dialect::Cbt);
    assert_eq!(e.items.len(), 3);
    assert_eq!(e.items[2].output, LOOKUP);
    assert_eq!(e.items[2].name, Some("lookup"));
    assert!(!e.failed());
    assert!(e.writes);
    assert_eq!(
        e.transcript(),
        format!("cbt> createtable b families=cf\ncbt> set b r1 cf:a=hello@1000\ncbt> lookup b r1\n{LOOKUP}")
    );
    // One engine: the Bigtable table has Bigtable's rules, the HBase table HBase's, and each
    // dialect sees both.
    assert_eq!(c.shell.engine.table("b")?.descriptor.rules, BIGTABLE_RULES);
    assert_eq!(c.shell.engine.table("h")?.descriptor.rules, Rules::HBASE);
    c.submit_in("ls", Dialect::Cbt);
    assert_eq!(
        c.entries.last().ok_or("no entry")?.items[0].output,
        "b\nh\n",
        "cbt lists every table it reads and writes"
    );
    // An HBase table's milliseconds are microseconds to cbt: a cell put at 1,700,000,000,123
    // ms reads back at that instant, and one cbt sets at a microsecond time is stored in
    // milliseconds.
    c.submit("put 'h', 'r1', 'f:a', 'v', 1700000000123");
    c.submit_in("set h r1 f:b=w@1700000000456000\nlookup h r1", Dialect::Cbt);
    assert_eq!(
        c.entries.last().ok_or("no entry")?.items[1].output,
        "----------------------------------------\nr1\n  f:a                                      @ 2023/11/14-22:13:20.123000\n    \"v\"\n  f:b                                      @ 2023/11/14-22:13:20.456000\n    \"w\"\n\n"
    );
    c.submit("get 'h', 'r1', 'f:b'");
    assert!(
        c.entries.last().ok_or("no entry")?.items[0]
            .output
            .contains("timestamp=1700000000456, value=w"),
        "{}",
        c.entries.last().ok_or("no entry")?.items[0].output
    );
    c.submit("list");
    assert!(c.entries.last().ok_or("no entry")?.items[0]
        .output
        .starts_with("TABLE\nb\nh\n2 row(s)"));
    // And the other way: HBase's shell speaks milliseconds to a Bigtable table, as Bigtable's
    // HBase client does (`TimestampConverter`): the cell cbt set at 1,000 µs prints at 1 ms, a
    // put's and a delete's milliseconds are stored as microseconds, and a time range in
    // milliseconds selects by them. It printed the year 58879 for a cell cbt had just set.
    let out = |c: &mut Console, line: &str| -> Result<String, Box<dyn std::error::Error>> {
        c.submit(line);
        let output = &c.entries.last().ok_or("no entry")?.items[0].output;
        Ok(output.split("Took ").next().unwrap_or_default().to_string())
    };
    assert_eq!(
        out(&mut c, "get 'b', 'r1'")?,
        "COLUMN  CELL\n cf:a timestamp=1, value=hello\n1 row(s)\n"
    );
    c.submit(
        "put 'b', 'r2', 'cf:a', 'x', 1700000000789\nput 'b', 'r2', 'cf:a', 'y', 1700000000790",
    );
    c.submit_in("lookup b r2", Dialect::Cbt);
    assert_eq!(
        c.entries.last().ok_or("no entry")?.items[0].output,
        "----------------------------------------\nr2\n  cf:a                                     @ 2023/11/14-22:13:20.790000\n    \"y\"\n  cf:a                                     @ 2023/11/14-22:13:20.789000\n    \"x\"\n\n"
    );
    assert_eq!(
        out(
            &mut c,
            "scan 'b', {TIMERANGE => [1700000000789, 1700000000790]}"
        )?,
        "ROW  COLUMN+CELL\n r2 column=cf:a, timestamp=1700000000789, value=x\n1 row(s)\n"
    );
    assert_eq!(
        out(&mut c, "get 'b', 'r2', {TIMESTAMP => 1700000000790}")?,
        "COLUMN  CELL\n cf:a timestamp=1700000000790, value=y\n1 row(s)\n"
    );
    // A delete bounded by a timestamp is refused on a Bigtable table, whose deletes Rowkey
    // models whole: taken as a whole-column delete it took away newer cells than its timestamp.
    c.submit("deleteall 'b', 'r2', 'cf:a', 1700000000790");
    let e = c.entries.last().ok_or("no entry")?;
    assert!(e.failed(), "{}", e.items[0].output);
    assert!(
        e.items[0]
            .output
            .contains("b is a Bigtable table, whose deletes Rowkey models whole"),
        "{}",
        e.items[0].output
    );
    assert_eq!(
        out(&mut c, "get 'b', 'r2', {COLUMN => 'cf:a', VERSIONS => 3}")?,
        "COLUMN  CELL\n cf:a timestamp=1700000000790, value=y\n cf:a timestamp=1700000000789, value=x\n1 row(s)\n"
    );
    c.submit("mutate_row 'b', 'r2', [['delete', 'cf:a', 1700000000789]]");
    assert!(c.entries.last().ok_or("no entry")?.failed());
    // Whole, it takes what the column holds.
    c.submit("deleteall 'b', 'r2', 'cf:a'");
    assert_eq!(out(&mut c, "get 'b', 'r2'")?, "COLUMN  CELL\n0 row(s)\n");
    // A raw read is every version a read sees: no marker (it printed Rowkey's hidden delete
    // at the year 294247), no cell a delete took.
    assert_eq!(
        out(&mut c, "scan 'b', {RAW => true, VERSIONS => 10}")?,
        "ROW  COLUMN+CELL\n r1 column=cf:a, timestamp=1, value=hello\n1 row(s)\n"
    );
    Ok(())
}

#[test]
fn a_failed_cbt_line_is_an_error_of_its_line_and_the_rest_runs() -> TestResult {
    let mut c = console();
    c.submit_in("lookup nope r\nnosuch\ncreatetable t", Dialect::Cbt);
    let e = c.entries.last().ok_or("no entry")?;
    assert_eq!(e.items.len(), 3);
    assert_eq!(e.items[0].output, "Reading row: rpc error: code = NotFound desc = table \"projects/p/instances/i/tables/nope\" not found\n");
    assert_eq!(e.items[1].output, "Unknown command \"nosuch\"\n");
    assert_eq!(e.items[1].line, 2);
    assert!(!e.items[2].failed());
    assert_eq!(e.summary().split(" in ").next(), Some("1 createtable"));
    assert!(e.summary().ends_with(", 2 errors, first on line 1"));
    Ok(())
}

#[test]
fn the_history_keeps_each_lines_dialect_and_walking_it_switches_the_mode() -> TestResult {
    let mut c = console();
    c.submit_in("createtable b", Dialect::Cbt);
    c.submit("list");
    c.dialect = Dialect::Cbt;
    assert_eq!(c.history_up("ls").as_deref(), Some("list"));
    assert_eq!(c.dialect, Dialect::HBase);
    assert_eq!(c.history_up("").as_deref(), Some("createtable b"));
    assert_eq!(c.dialect, Dialect::Cbt);
    assert_eq!(c.history_up("").as_deref(), Some("list"));
    assert_eq!(
        c.dialect,
        Dialect::HBase,
        "the first line predates dialects"
    );
    c.history_down();
    c.history_down();
    assert_eq!(c.history_down().as_deref(), Some("ls"));
    assert_eq!(c.dialect, Dialect::Cbt, "back to the draft and its mode");
    // The same text in the other dialect is a new history line.
    c.submit_in("list", Dialect::Cbt);
    let lines = c.history_lines();
    assert_eq!(
        lines,
        vec![
            HistoryLine::hbase("list"),
            HistoryLine {
                dialect: Dialect::Cbt,
                text: "createtable b".into()
            },
            HistoryLine::hbase("list"),
            HistoryLine {
                dialect: Dialect::Cbt,
                text: "list".into()
            },
        ]
    );
    Ok(())
}

#[test]
fn the_saved_history_is_format_2_and_format_1_reads_as_hbase() -> TestResult {
    let v1 = rowkey::json::parse(r#"["create 't', 'f'", "scan 't'"]"#)?;
    assert_eq!(
        decode_history(&v1),
        vec![
            HistoryLine::hbase("create 't', 'f'"),
            HistoryLine::hbase("scan 't'")
        ]
    );
    let lines = vec![
        HistoryLine::hbase("list"),
        HistoryLine {
            dialect: Dialect::Cbt,
            text: "ls".into(),
        },
    ];
    let saved = encode_history(&lines);
    assert_eq!(
        saved.to_compact(),
        r#"{"lines":[{"dialect":"hbase","text":"list"},{"dialect":"cbt","text":"ls"}],"version":2}"#
    );
    assert_eq!(decode_history(&saved), lines);
    let mut c = console();
    c.set_history(decode_history(&saved));
    assert_eq!(c.history_up("").as_deref(), Some("ls"));
    assert_eq!(c.dialect, Dialect::Cbt);
    // A newer format, or anything else, reads as an empty history rather than failing.
    assert!(decode_history(&rowkey::json::parse(r#"{"version": 3, "lines": []}"#)?).is_empty());
    assert!(decode_history(&rowkey::json::parse("42")?).is_empty());
    Ok(())
}

#[test]
fn epoch_milliseconds_written_to_a_bigtable_table_are_flagged_before_running() -> TestResult {
    let mut c = console();
    c.submit("create 'h', 'f'");
    c.submit_in("createtable b families=cf", Dialect::Cbt);
    let text = "set b r cf:a=1@1700000000000 cf:b=2@1700000000000000\nset h r f:q=1@1700000000000\nset new r cf:a=1@1700000000000";
    assert_eq!(
        lint_cbt(text, &c.shell.engine),
        vec![
            "line 1: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)".to_string(),
            "line 3: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)".to_string(),
        ],
        "the HBase table on line 2 counts milliseconds"
    );
    assert!(
        lint_cbt(
            "cbt -project p set b r cf:a=1@1700000000000",
            &c.shell.engine
        )
        .len()
            == 1
    );
    // checkandmutate's mutations are cells too; its predicate columns are not.
    assert_eq!(
        lint_cbt(
            "checkandmutate b r columns=cf:a true=cf:x=1@1700000000000 false=cf:y=2@2000",
            &c.shell.engine
        ),
        ["line 1: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)"]
    );
    Ok(())
}

#[test]
fn a_reload_restores_a_bigtable_table_with_its_rules() -> TestResult {
    let mut c = console();
    c.shell.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    for line in [
        "createtable b families=cf",
        "set b r cf:a=old@2000",
        "deleterow b r",
        "set b r cf:a=older@1000",
    ] {
        c.submit_in(line, Dialect::Cbt);
        stored.apply(&saver.plan(&mut c.shell.engine)?);
    }
    c.submit_in("read b", Dialect::Cbt);
    let before = c.entries.last().ok_or("no entry")?.items[0].output.clone();
    let loaded = load(Box::new(|| 1_700_000_000_000), stored);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(loaded.engine.table("b")?.descriptor.rules, BIGTABLE_RULES);
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine = loaded.engine;
    let mut again = Console::new(sh, Vec::new());
    again.submit_in("read b", Dialect::Cbt);
    assert_eq!(again.entries[0].items[0].output, before);
    assert_eq!(
        before,
        "----------------------------------------\nr\n  cf:a                                     @ 1970/01/01-00:00:00.001000\n    \"older\"\n\n",
        "no delete marker came back with the reload: the older write stays visible"
    );
    Ok(())
}

#[test]
fn a_line_the_lint_flags_still_runs_and_prints_the_warning() -> TestResult {
    let mut c = console();
    c.submit_in("createtable b families=cf", Dialect::Cbt);
    c.submit_in("set b r cf:a=1@1700000000000", Dialect::Cbt);
    assert_eq!(c.entries.len(), 2);
    let item = &c.entries[1].items[0];
    assert!(!item.failed());
    assert!(
        item.output
            .starts_with("rowkey: warning: timestamp 1700000000000 looks like epoch milliseconds"),
        "{}",
        item.output
    );
    Ok(())
}

/// A view names a Bigtable table's parts in Bigtable's words (tablets, a write buffer, a split
/// size and a load rule that are Rowkey's model) and an HBase table's in HBase's.
#[test]
fn views_name_a_bigtable_tables_tablets() -> TestResult {
    use rowkey::dialect::Terms;
    let mut c = console();
    c.submit("create 'h', 'f'");
    c.submit_in("createtable b families=cf splits=m", Dialect::Cbt);
    let engine = &c.shell.engine;
    let hbase = Terms::of(&engine.table("h")?.descriptor.rules);
    let bigtable = Terms::of(&engine.table("b")?.descriptor.rules);
    assert_eq!(
        (hbase.part, hbase.parts, hbase.buffer, hbase.split_rule),
        ("region", "Regions", "memstore", "")
    );
    assert_eq!(
        (bigtable.part, bigtable.parts, bigtable.buffer),
        ("tablet", "Tablets", "write buffer")
    );
    assert_eq!(
        bigtable.split_rule,
        format!(
            " (Rowkey's model, as Bigtable documents no threshold); a tablet that served {} of \
             the table's last {} operations splits too, at the middle of the keys asked for there",
            rowkey::engine::LOAD_SPLIT_OPS,
            "1,000"
        )
    );
    assert_eq!(rowkey::engine::LOAD_WINDOW, 1_000);
    assert_eq!(engine.table("b")?.regions.len(), 2);
    assert_eq!(Terms::of_table(engine, "b").count(2), "2 tablets");
    assert_eq!(Terms::of_table(engine, "h").count(1), "1 region");
    assert_eq!(Terms::of_table(engine, "gone").count(3), "3 regions");
    Ok(())
}

/// A cbt line with cbt's flags before its command (`cbt -project p set ...`) is read as the
/// command after them: a read-only tab refuses the write, and a writing tab marks the entry as
/// one that writes.
#[test]
fn a_cbt_line_with_flags_is_known_by_its_command() -> TestResult {
    let line = "cbt -project p -instance=i set b r1 cf:a=hello@1000";
    assert_eq!(rowkey::dialect::cbt_command(line), Some("set"));
    let mut c = console();
    c.submit_in("createtable b families=cf", Dialect::Cbt);
    c.shell.read_only = Some("another tab is writing".into());
    let refused = c.run_cbt_line(line);
    assert_eq!(
        (refused.failed, refused.stderr.as_str()),
        (true, "another tab is writing\n")
    );
    // The row reads as one never written.
    let absent = c.run_cbt_line("lookup b never-written").stdout;
    assert_eq!(c.run_cbt_line("lookup b r1").stdout, absent);
    c.shell.read_only = None;
    c.submit_in(line, Dialect::Cbt);
    let e = c.entries.last().ok_or("no entry")?;
    assert!(!e.failed() && e.writes);
    Ok(())
}

/// A Bigtable family with no GC policy keeps every version; HBase's `describe` shows it as
/// the Bigtable client for HBase reads such a family, `Integer.MAX_VALUE` versions
/// (`ColumnDescriptorAdapter.convertGarbageCollectionRule`), and a family with a version limit
/// as that limit.
#[test]
fn hbase_describes_a_bigtable_family_without_a_version_limit_as_integer_max_value() -> TestResult {
    let mut c = console();
    c.submit_in("createtable y families=f,g:maxversions=3", Dialect::Cbt);
    c.submit("describe 'y'");
    let out = &c.entries.last().ok_or("no entry")?.items[0].output;
    assert!(
        out.contains("{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '2147483647',"),
        "{out}"
    );
    assert!(
        out.contains("{NAME => 'g', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3',"),
        "{out}"
    );
    Ok(())
}

/// A Bigtable table exported and imported again keeps its rules and its times: the JSON
/// carries the rules (an import read its microseconds as HBase milliseconds, the year 58879),
/// and holds the cells a read sees (its deletes are not markers to replay). The script is for
/// HBase: milliseconds, as Bigtable's HBase client gives them, and VERSIONS within an int.
#[test]
fn a_bigtable_table_exported_and_imported_keeps_its_rules_and_times() -> TestResult {
    use rowkey::persist::{export_json, export_script, import_json};
    let mut c = console();
    c.submit_in(
        "createtable b families=cf\nset b r1 cf:a=one@1700000000123000\nset b r1 cf:a=two@1700000000124000\nset b r2 cf:a=gone@1700000000125000\ndeletecolumn b r2 cf a",
        Dialect::Cbt,
    );
    let doc = export_json(&c.shell.engine, None);
    assert!(doc.contains("\"deletes\": \"NoMarkers\""), "{doc}");
    assert!(
        !doc.contains("DeleteColumn") && !doc.contains("gone"),
        "{doc}"
    );
    let (fresh, _) = shell_at(1_700_000_000_000);
    let engine = import_json(&fresh.engine, &doc, Box::new(|| 1_700_000_000_000))?;
    assert_eq!(engine.table("b")?.descriptor.rules, BIGTABLE_RULES);
    let mut back = Console::new(rowkey::shell::Shell::new(engine, Box::new(|| 0.0)), vec![]);
    back.submit_in("lookup b r1", Dialect::Cbt);
    assert_eq!(
        back.entries.last().ok_or("no entry")?.items[0].output,
        "----------------------------------------\nr1\n  cf:a                                     @ 2023/11/14-22:13:20.124000\n    \"two\"\n  cf:a                                     @ 2023/11/14-22:13:20.123000\n    \"one\"\n\n"
    );
    let script = export_script(&c.shell.engine, None);
    assert!(script.contains("VERSIONS => 2147483647"), "{script}");
    assert!(
        script.contains("put 'b', 'r1', 'cf:a', 'two', 1700000000124\n"),
        "{script}"
    );
    assert!(!script.contains("gone"), "{script}");
    Ok(())
}

/// `disable_all` asks "(y/n)?" and the shell's next line answers it; a line of cbt in between
/// leaves the HBase shell, so the question goes unanswered and a later `y` is a line of its
/// own, not an answer that disables every table.
#[test]
fn a_cbt_line_leaves_a_pending_question_unanswered() -> TestResult {
    let mut c = console();
    c.submit("create 't1', 'f'\ndisable_all 't.*'");
    c.submit_in("ls", Dialect::Cbt);
    let notes: Vec<String> = c
        .entries
        .iter()
        .flat_map(|e| e.items.iter().map(|i| i.output.clone()))
        .collect();
    assert!(
        notes
            .iter()
            .any(|o| o.contains("disable_all's question was left unanswered: nothing was done.")),
        "{notes:?}"
    );
    c.submit("y");
    assert!(c.shell.engine.table("t1")?.enabled, "t1 was disabled");
    Ok(())
}
