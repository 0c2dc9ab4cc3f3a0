//! A walk over the one table of commands: every command has help, every example in its help
//! runs without error, completing the start of each name offers the name, and table
//! references run exactly the commands the table marks. The same for the table of filters.

mod common;

use common::TestResult;
use rowkey::cbt;
use rowkey::commands::{self, Dialect, Group, Role, COMMANDS};
use rowkey::engine::Engine;
use rowkey::filter::{parse_filter, FILTERS};
use rowkey::shell::{complete, is_incomplete, Shell};

fn empty() -> Shell {
    let mut sh = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    sh.gen_budget = Some(100);
    sh
}

fn fresh() -> Shell {
    let mut sh = empty();
    sh.run("create 't1', {NAME => 'f1', VERSIONS => 5}, 'f2'\nput 't1', 'r1', 'f1:q', 'v'");
    sh
}

/// The examples of a help text: its lines indented by two spaces (with the deeper-indented
/// lines that continue them), without the `(explanation)` written after two or more spaces.
fn examples(help: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in help.lines() {
        if let Some(last) = out.last_mut().filter(|last| is_incomplete(last)) {
            last.push('\n');
            last.push_str(l);
            continue;
        }
        if !l.starts_with("  ") {
            continue;
        }
        let l = l.trim();
        out.push(match l.find("  (") {
            Some(at) => l[..at].trim_end().to_string(),
            None => l.to_string(),
        });
    }
    out
}

/// Runs every example of every command's help on a fresh shell holding table `t1` (none for a
/// command that creates its table), after the help's examples of other commands that come
/// before it (`disable 't1'` before `drop 't1'`): in the help's order after the command's own
/// earlier examples, or else on its own.
#[test]
fn every_command_has_help_whose_examples_run() -> TestResult {
    let mut failures = Vec::new();
    let mut ran = 0;
    for spec in commands::of(Dialect::HBase).filter(|c| c.group != Group::Cluster) {
        let help: String = fresh()
            .run(&format!("help '{}'", spec.name))
            .into_iter()
            .map(|o| o.output)
            .collect();
        assert!(!help.trim().is_empty(), "{} has no help", spec.name);
        let mut setup = String::new();
        let mut earlier = String::new();
        for example in examples(&help) {
            let own = example.split([' ', '.']).next() == Some(spec.name)
                || example
                    .split_once('.')
                    .is_some_and(|(_, m)| m.starts_with(spec.name));
            if !own {
                setup.push_str(&example);
                setup.push('\n');
                continue;
            }
            let start = || {
                let mut sh = if spec.role(0) == Some(Role::NewTable) {
                    empty()
                } else {
                    fresh()
                };
                sh.run(&setup);
                sh
            };
            ran += 1;
            // In the help's order after the command's earlier examples (`table_att_unset`
            // after `table_att`), or else on its own.
            let mut sh = start();
            sh.run(&earlier);
            let errors = |sh: &mut Shell| -> Vec<String> {
                sh.run(&example)
                    .into_iter()
                    .filter_map(|o| o.error.map(|e| e.message))
                    .collect()
            };
            let in_order = errors(&mut sh);
            if !in_order.is_empty() {
                let alone = errors(&mut start());
                if !alone.is_empty() {
                    failures.push(format!("{}: {example}: {}", spec.name, alone.join("; ")));
                }
            }
            earlier.push_str(&example);
            earlier.push('\n');
        }
    }
    assert_eq!(failures, Vec::<String>::new());
    assert!(
        ran >= commands::of(Dialect::HBase).count() / 2,
        "only {ran} examples found"
    );
    Ok(())
}

#[test]
fn completing_the_start_of_each_name_offers_it() {
    let engine = Engine::new(Box::new(|| 0));
    // Completion offers what runs: the cluster commands, which Rowkey only explains, are left
    // out.
    for spec in commands::of(Dialect::HBase).filter(|c| c.group != Group::Cluster) {
        let start = &spec.name[..spec.name.len().min(3)];
        let offered = complete(start, start.len(), &engine).candidates;
        assert!(
            offered.iter().any(|c| c == spec.name),
            "'{start}' offers {offered:?}, not {}",
            spec.name
        );
        let whole = complete(spec.name, spec.name.len(), &engine).candidates;
        assert!(
            whole.iter().any(|c| c == spec.name),
            "{}: {whole:?}",
            spec.name
        );
    }
}

#[test]
fn table_references_run_the_marked_commands() {
    let mut sh = fresh();
    sh.run("t = get_table 't1'");
    // `t.help` is the help of references (table.rb's `help`), whatever the table says.
    let runnable =
        commands::of(Dialect::HBase).filter(|c| c.group != Group::Cluster && c.name != "help");
    for spec in runnable {
        let out = sh.run(&format!("t.{} 'x'", spec.name));
        let refused = out.iter().any(|o| {
            o.error
                .as_ref()
                .is_some_and(|e| e.message.starts_with("NoMethodError: undefined method"))
        });
        assert_eq!(refused, !spec.table_method, "t.{}", spec.name);
    }
}

#[test]
fn every_filter_example_parses_runs_and_completes() -> TestResult {
    let mut sh = fresh();
    let shown: String = sh
        .run("show_filters")
        .into_iter()
        .map(|o| o.output)
        .collect();
    // show_filters.rb prints `ParseFilter.getSupportedFilters`, a `HashMap`'s key set: this
    // order is what HBase 2.5's shell prints (the map filled as ParseFilter's static block
    // fills it, iterated by a JVM).
    let listed: Vec<&str> = shown.lines().filter(|l| !l.starts_with("Took ")).collect();
    assert_eq!(
        listed,
        [
            "DependentColumnFilter",
            "KeyOnlyFilter",
            "ColumnCountGetFilter",
            "SingleColumnValueFilter",
            "PrefixFilter",
            "SingleColumnValueExcludeFilter",
            "FirstKeyOnlyFilter",
            "ColumnRangeFilter",
            "ColumnValueFilter",
            "TimestampsFilter",
            "FamilyFilter",
            "QualifierFilter",
            "ColumnPrefixFilter",
            "RowFilter",
            "MultipleColumnPrefixFilter",
            "InclusiveStopFilter",
            "PageFilter",
            "ValueFilter",
            "ColumnPaginationFilter",
        ]
    );
    let mut names: Vec<&str> = FILTERS.iter().map(|f| f.name).collect();
    names.sort_unstable();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, names, "every filter the language knows, once");
    for f in FILTERS {
        assert!(
            f.example.starts_with(&format!("{}(", f.name)),
            "{}",
            f.example
        );
        parse_filter(f.example).map_err(|e| format!("{}: {}", f.example, e.message))?;
        let scan = format!("scan 't1', {{FILTER => \"{}\"}}", f.example);
        for o in sh.run(&scan) {
            assert!(o.error.is_none(), "{scan}: {:?}", o.error);
        }
        let typed = format!(
            "scan 't1', {{FILTER => \"{}",
            &f.name[..f.name.len().min(4)]
        );
        let offered = complete(&typed, typed.len(), &sh.engine).candidates;
        assert!(offered.iter().any(|c| c == f.name), "{typed}: {offered:?}");
    }
    Ok(())
}

/// Every command's count of arguments as hbase-shell defines its method
/// (`hbase-shell/src/main/ruby/shell/commands/NAME.rb`, `def command(...)`): the minimum and
/// the maximum (`None`: a `*args` rest). Rowkey's own commands (`clear`, `check_and_put`,
/// `check_and_delete`, `mutate_row`, `generate`) follow the same rule for their parameters.
const ARITIES: &[(&str, usize, Option<usize>)] = &[
    ("help", 0, Some(1)),               // def command(command = nil)
    ("table_help", 0, Some(0)),         // def command
    ("show_filters", 0, Some(0)),       // def command
    ("clear", 0, Some(0)),              // Rowkey's
    ("alter", 1, None),                 // def command(table, *args)
    ("alter_async", 1, None),           // def command(table, *args)
    ("alter_status", 1, Some(1)),       // def command(table)
    ("create", 1, None),                // def command(table, *args)
    ("describe", 1, Some(1)),           // def command(table)
    ("desc", 1, Some(1)),               // describe's alias
    ("disable", 1, Some(1)),            // def command(table)
    ("drop", 1, Some(1)),               // def command(table)
    ("enable", 1, Some(1)),             // def command(table)
    ("exists", 1, Some(1)),             // def command(table)
    ("get_table", 1, None),             // def command(table, *args)
    ("is_disabled", 1, Some(1)),        // def command(table)
    ("is_enabled", 1, Some(1)),         // def command(table)
    ("list", 0, Some(1)),               // def command(regex = '.*')
    ("append", 4, Some(5)),             // def command(table, row, column, value, args = {})
    ("check_and_delete", 5, Some(6)),   // Rowkey's
    ("check_and_put", 6, Some(7)),      // Rowkey's
    ("count", 1, Some(2)),              // def command(table, params = {})
    ("delete", 3, Some(5)), // def command(table, row, column, timestamp = LATEST, args = {})
    ("deleteall", 2, Some(5)), // def command(table, row, column = nil, timestamp = LATEST, args = {})
    ("get", 2, None),          // def command(table, row, *args)
    ("get_counter", 3, Some(3)), // def command(table, row, column)
    ("incr", 3, Some(5)),      // def command(table, row, column, value = nil, args = {})
    ("mutate_row", 3, Some(3)), // Rowkey's
    ("put", 4, Some(6)),       // def command(table, row, column, value, timestamp = nil, args = {})
    ("scan", 1, Some(2)),      // def command(table, args = {})
    ("truncate", 1, Some(1)),  // def command(table)
    ("clone_table_schema", 2, Some(3)), // def command(table_name, new_table_name, preserve_splits = true)
    ("disable_all", 1, Some(1)),        // def command(regex)
    ("enable_all", 1, Some(1)),         // def command(regex)
    ("drop_all", 1, Some(1)),           // def command(regex)
    ("truncate_preserve", 1, Some(1)),  // def command(table)
    ("compact", 1, Some(3)), // def command(table_or_region_name, family = nil, type = 'NORMAL')
    ("flush", 1, Some(2)),   // def command(table_or_region_name, family = nil)
    ("get_splits", 1, Some(1)), // def command(table)
    ("list_regions", 1, Some(3)), // def command(table_name, options = nil, cols = nil)
    ("locate_region", 2, Some(2)), // def command(table, row_key)
    ("major_compact", 1, Some(3)), // def command(table_or_region_name, family = nil, type = 'NORMAL')
    ("split", 1, Some(2)),         // def command(table_or_region_name, split_point = nil)
    ("generate", 3, Some(4)),      // Rowkey's
];

/// A call with too few and with too many arguments fails before the command runs, with
/// JRuby's `ArgumentError` wording (`wrong number of arguments (given 7, expected 4..6)`), the
/// too many underlined from the first one past the maximum; the table holds each count once.
#[test]
fn every_commands_arity_is_in_the_table_and_fails_in_the_hbase_shells_words() -> TestResult {
    let runnable: Vec<&str> = commands::of(Dialect::HBase)
        .filter(|c| c.group != Group::Cluster)
        .map(|c| c.name)
        .collect();
    let listed: Vec<&str> = ARITIES.iter().map(|a| a.0).collect();
    assert_eq!(listed.len(), runnable.len());
    for name in &runnable {
        assert!(listed.contains(name), "{name} has no arity listed here");
    }
    let expected = |min: usize, max: Option<usize>| match max {
        Some(max) if max == min => max.to_string(),
        Some(max) => format!("{min}..{max}"),
        None => format!("{min}+"),
    };
    let mut checked = 0;
    for &(name, min, max) in ARITIES {
        let spec = commands::find(Dialect::HBase, name).ok_or(name)?;
        assert_eq!((spec.arity.min, spec.arity.max), (min, max), "{name}");
        let mut calls: Vec<usize> = Vec::new();
        if min > 0 {
            calls.push(min - 1);
        }
        if let Some(max) = max {
            calls.push(max + 1);
        }
        for given in calls {
            let args: Vec<String> = (0..given).map(|i| format!("'a{i}'")).collect();
            let line = if args.is_empty() {
                name.to_string()
            } else {
                format!("{name} {}", args.join(", "))
            };
            let mut sh = fresh();
            let before = sh.engine.tables().count();
            let error = sh
                .run(&line)
                .into_iter()
                .find_map(|o| o.error)
                .ok_or(format!("{line}: no error"))?;
            assert_eq!(
                error.message,
                format!(
                    "wrong number of arguments (given {given}, expected {})",
                    expected(min, max)
                ),
                "{line}"
            );
            // Too many: the span starts at the first argument past the maximum.
            if let Some(max) = max.filter(|m| given > *m) {
                let from = line.find(&format!("'a{max}'")).ok_or("no extra")?;
                assert_eq!(error.span, from..line.len(), "{line}");
            }
            assert_eq!(sh.engine.tables().count(), before, "{line} changed nothing");
            checked += 1;
        }
    }
    // 39 commands take at least one argument, 39 at most some number.
    assert_eq!(checked, 78);
    // `alter` with the table alone: admin.rb's own ArgumentError, after the table is found.
    let out = fresh().run("alter 't1'");
    let message = out.into_iter().find_map(|o| o.error).map(|e| e.message);
    assert_eq!(
        message.as_deref(),
        Some("There should be at least one argument but the table name")
    );
    Ok(())
}

/// The one table holds both dialects: each entry is found by its dialect and name, names are
/// unique within a dialect, and every entry has help (or, refused, a note saying why).
#[test]
fn the_table_holds_both_dialects_each_entry_found_by_dialect_and_name() -> TestResult {
    let count = |d| commands::of(d).count();
    assert_eq!(
        (count(Dialect::HBase), count(Dialect::Cbt), COMMANDS.len()),
        (94, 22, 116)
    );
    for c in COMMANDS {
        let found = commands::find(c.dialect, c.name).ok_or(c.name)?;
        assert!(std::ptr::eq(found, c), "{} is listed twice", c.name);
        let text = if c.runs() { c.help } else { c.note };
        assert!(!text.trim().is_empty(), "{} has no help", c.name);
    }
    // `count` and `help` are words of both dialects: two entries, one per dialect.
    let both: Vec<&str> = commands::of(Dialect::Cbt)
        .filter(|c| commands::find(Dialect::HBase, c.name).is_some())
        .map(|c| c.name)
        .collect();
    assert_eq!(both, ["count", "help", "version", "compact"]);
    Ok(())
}

/// A cbt session holding the tables cbt's help examples name: `mobile-time-series` with a
/// row, `table1` with an aggregate family, `csv-import-table` for `import`; the files the
/// import examples read are given.
fn cbt_fixture(script: &str) -> cbt::Session {
    let mut s = cbt::Session::new(Engine::new(Box::new(|| 1_700_000_000_000)));
    s.read_file = Box::new(|name| match name {
        "data.csv" => Ok(b",stats_summary\n,os_name\nphone1,android\n".to_vec()),
        "data-no-families.csv" => Ok(b",os_name\nphone1,android\n".to_vec()),
        other => Err(format!("open {other}: no such file or directory")),
    });
    for line in script.lines() {
        let out = s.run_line(line);
        assert!(!out.failed, "{line}: {}", out.stderr);
    }
    s
}

const CBT_TABLES: &str = "\
createtable mobile-time-series families=stats_summary,stats_detail,presence,cell_plan
set mobile-time-series phone#4c410523#20190501 stats_summary:os_build=PQ2A.190405.003 stats_summary:connected_cell=1
createtable table1 families=sum_cf:never:intsum
createtable csv-import-table families=stats_summary,my-family";

/// The examples of a cbt help text: its lines that are a whole `cbt NAME ...` command (after
/// `Example:`), without placeholders, cut before a description set off by a tab or three
/// spaces.
fn cbt_examples(help: &str, name: &str) -> Vec<String> {
    help.lines()
        .map(|l| l.trim_start())
        .map(|l| l.strip_prefix("Example:").unwrap_or(l).trim_start())
        .filter(|l| {
            l.strip_prefix("cbt ")
                .is_some_and(|r| r.split(' ').next() == Some(name))
        })
        .filter(|l| !l.contains('<') && !l.contains('['))
        .map(|l| {
            let end = [l.find('\t'), l.find("   ")].into_iter().flatten().min();
            l[..end.unwrap_or(l.len())].to_string()
        })
        .collect()
}

/// Every example in cbt's help of every cbt command runs without error in cbt: on the tables
/// the examples name, or else on a bare `mobile-time-series` (`createfamily` adds the family
/// the fixture has), or else on no tables at all (`createtable` makes the table). The three
/// that write at `@12345` fail as Bigtable fails them: a table keeps timestamps at millisecond
/// granularity and refuses a microsecond timestamp that is not a multiple of 1000 (Bigtable's
/// `Timestamp granularity mismatch`), whatever cbt's help shows.
#[test]
fn every_cbt_help_example_runs_in_cbt() -> TestResult {
    let starts = [CBT_TABLES, "createtable mobile-time-series", ""];
    let mut ran = Vec::new();
    let mut failures = Vec::new();
    for spec in commands::of(Dialect::Cbt) {
        let help = cbt_fixture("").run_line(&format!("help {}", spec.name));
        assert!(!help.failed && !help.stdout.is_empty(), "{}", spec.name);
        let help = String::from_utf8(help.stdout)?;
        for example in cbt_examples(&help, spec.name) {
            let errors: Vec<String> = starts
                .iter()
                .map(|start| cbt_fixture(start).run_line(&example))
                .filter(|out| out.failed)
                .map(|out| out.stderr)
                .collect();
            if errors.len() == starts.len() {
                failures.push((example.clone(), errors[0].clone()));
            }
            ran.push(spec.name);
        }
    }
    let granularity = "rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #0 : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got 12345.\n";
    let expected = [
        ("cbt addtocell table1 user1 sum_cf:col1=1@12345", "Applying mutation"),
        ("cbt set mobile-time-series phone#4c410523#20190501 stats_summary:connected_cell=1@12345 stats_summary:connected_cell=0@1570041766", "Applying mutation"),
        ("cbt checkandmutate mobile-time-series phone#4c410523#20190501 columns=stats_summary:os_build true=stats_summary:connected_cell=1@12345", "Applying conditional mutation"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(e, action)| (e.to_string(), format!("{action}: {granularity}")))
        .collect();
    assert_eq!(failures, expected);
    // 27 examples; every command has some but `count`, `samplerowkeys` and Rowkey's own.
    assert_eq!(ran.len(), 27);
    let without: Vec<&str> = commands::of(Dialect::Cbt)
        .map(|c| c.name)
        .filter(|n| !ran.contains(n))
        .collect();
    assert_eq!(without, ["count", "samplerowkeys", "export", "compact"]);
    Ok(())
}

/// Completing the first word of each command's name offers the name, in its own dialect: the
/// HBase shell's completion for HBase's commands, cbt's (also after `cbt` and its flags) for
/// cbt's; neither offers the other dialect's commands.
#[test]
fn completing_the_first_word_of_each_name_gives_it_in_its_dialect() {
    let engine = Engine::new(Box::new(|| 0));
    for spec in COMMANDS.iter().filter(|c| c.runs()) {
        for typed in [&spec.name[..spec.name.len().min(3)], spec.name] {
            let offered = match spec.dialect {
                Dialect::HBase => complete(typed, typed.len(), &engine).candidates,
                Dialect::Cbt => cbt::complete(typed, typed.len(), &engine).candidates,
            };
            assert!(
                offered.iter().any(|c| c == spec.name),
                "{:?} '{typed}' offers {offered:?}",
                spec.dialect
            );
        }
    }
    let cbt_line = "cbt -project p -instance=i looku";
    let offered = cbt::complete(cbt_line, cbt_line.len(), &engine);
    assert_eq!(
        (offered.replace, offered.candidates),
        (27..32, vec!["lookup".to_string()])
    );
    assert_eq!(
        complete("looku", 5, &engine).candidates,
        Vec::<String>::new()
    );
    assert_eq!(
        cbt::complete("pu", 2, &engine).candidates,
        Vec::<String>::new()
    );
    assert_eq!(
        cbt::complete("help setg", 9, &engine).candidates,
        ["setgcpolicy"]
    );
    // cbt's second word is a table, then its `key=` arguments.
    let s = cbt_fixture(CBT_TABLES);
    let line = "read mob";
    assert_eq!(
        cbt::complete(line, line.len(), &s.engine).candidates,
        ["mobile-time-series"]
    );
    let line = "read mobile-time-series pre";
    assert_eq!(
        cbt::complete(line, line.len(), &s.engine).candidates,
        ["prefix="]
    );
}

/// Every cbt entry's executor is reached: run bare, a command answers with its own usage or
/// output, never "Unknown command"; a name outside the table (a cbt command Rowkey does not
/// have, an HBase word, a slip) is unknown, and cbt's words are undefined in the HBase shell.
#[test]
fn every_cbt_entry_is_dispatched_and_other_names_are_unknown() {
    let mut s = cbt_fixture(CBT_TABLES);
    for spec in commands::of(Dialect::Cbt) {
        let out = s.run_line(spec.name);
        assert!(!out.stderr.contains("Unknown command"), "{}", spec.name);
    }
    // `deleteallrows` and `deletetable` without a table: cbt's "Can't do".
    let out = s.run_line("deletetable");
    assert_eq!(out.stderr, "Can't do `cbt deletetable []`\n");
    for name in ["createinstance", "put", "scan", "lokup"] {
        let out = s.run_line(&format!("{name} mobile-time-series"));
        assert_eq!(out.stderr, format!("Unknown command \"{name}\"\n"));
    }
    let mut sh = fresh();
    for name in ["lookup", "createtable", "deleterow"] {
        let message = sh
            .run(&format!("{name} 't1'"))
            .into_iter()
            .find_map(|o| o.error)
            .map(|e| e.message)
            .unwrap_or_default();
        assert!(
            message.starts_with(&format!("NoMethodError: undefined method `{name}'")),
            "{message}"
        );
    }
}

/// The help's words on table references name exactly the commands the table marks as run by
/// a reference.
#[test]
fn the_help_names_the_commands_a_reference_runs() -> TestResult {
    let marked: Vec<&str> = commands::of(Dialect::HBase)
        .filter(|c| c.table_method)
        .map(|c| c.name)
        .collect();
    let names = |text: &str, from: &str, to: char| -> Result<Vec<String>, String> {
        let start = text.find(from).ok_or(format!("no '{from}'"))? + from.len();
        let rest = &text[start..];
        let list = &rest[..rest.find(to).ok_or("no end")?];
        let list = list.replace(" and ", ", ").replace('\n', " ");
        Ok(list.split(',').map(|n| n.trim().to_string()).collect())
    };
    let help = |name: &str| commands::find(Dialect::HBase, name).map_or("", |c| c.help);
    let mut in_table_help = names(help("table_help"), "References run ", '.')?;
    let mut in_get_table = names(help("get_table"), "References: ", '.')?;
    let mut marked_sorted: Vec<String> = marked.iter().map(|n| n.to_string()).collect();
    for list in [&mut in_table_help, &mut in_get_table, &mut marked_sorted] {
        list.sort();
    }
    assert_eq!(in_table_help, marked_sorted);
    assert_eq!(in_get_table, marked_sorted);
    assert_eq!(marked.len(), 15);
    Ok(())
}
