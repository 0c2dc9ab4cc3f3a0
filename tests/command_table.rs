//! A walk over the one table of commands: every command has help, every example in its help
//! runs without error, completing the start of each name offers the name, and table
//! references run exactly the commands the table marks. The same for the table of filters.

mod common;

use common::TestResult;
use rowkey::engine::Engine;
use rowkey::filter::{parse_filter, FILTERS};
use rowkey::shell::commands::{Group, Role, COMMANDS};
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
    for spec in COMMANDS.iter().filter(|c| c.group != Group::Cluster) {
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
    assert!(ran >= COMMANDS.len() / 2, "only {ran} examples found");
    Ok(())
}

#[test]
fn completing_the_start_of_each_name_offers_it() {
    let engine = Engine::new(Box::new(|| 0));
    // Completion offers what runs: the cluster commands, which Rowkey only explains, are left
    // out.
    for spec in COMMANDS.iter().filter(|c| c.group != Group::Cluster) {
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
    let commands = COMMANDS
        .iter()
        .filter(|c| c.group != Group::Cluster && c.name != "help");
    for spec in commands {
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
    let mut names: Vec<&str> = FILTERS.iter().map(|f| f.name).collect();
    names.sort_unstable();
    let listed: Vec<&str> = shown.lines().filter(|l| !l.starts_with("Took ")).collect();
    assert_eq!(listed, names);
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
    ("help", 0, Some(1)),              // def command(command = nil)
    ("table_help", 0, Some(0)),        // def command
    ("show_filters", 0, Some(0)),      // def command
    ("clear", 0, Some(0)),             // Rowkey's
    ("alter", 1, None),                // def command(table, *args)
    ("alter_async", 1, None),          // def command(table, *args)
    ("alter_status", 1, Some(1)),      // def command(table)
    ("create", 1, None),               // def command(table, *args)
    ("describe", 1, Some(1)),          // def command(table)
    ("desc", 1, Some(1)),              // describe's alias
    ("disable", 1, Some(1)),           // def command(table)
    ("drop", 1, Some(1)),              // def command(table)
    ("enable", 1, Some(1)),            // def command(table)
    ("exists", 1, Some(1)),            // def command(table)
    ("get_table", 1, None),            // def command(table, *args)
    ("is_disabled", 1, Some(1)),       // def command(table)
    ("is_enabled", 1, Some(1)),        // def command(table)
    ("list", 0, Some(1)),              // def command(regex = '.*')
    ("append", 4, Some(5)),            // def command(table, row, column, value, args = {})
    ("check_and_delete", 5, Some(6)),  // Rowkey's
    ("check_and_put", 6, Some(7)),     // Rowkey's
    ("count", 1, Some(2)),             // def command(table, params = {})
    ("delete", 3, Some(5)), // def command(table, row, column, timestamp = LATEST, args = {})
    ("deleteall", 2, Some(5)), // def command(table, row, column = nil, timestamp = LATEST, args = {})
    ("get", 2, None),          // def command(table, row, *args)
    ("get_counter", 3, Some(3)), // def command(table, row, column)
    ("incr", 3, Some(5)),      // def command(table, row, column, value = nil, args = {})
    ("mutate_row", 3, Some(3)), // Rowkey's
    ("put", 4, Some(6)),       // def command(table, row, column, value, timestamp = nil, args = {})
    ("scan", 1, Some(2)),      // def command(table, args = {})
    ("truncate", 1, Some(1)),  // def command(table)
    ("truncate_preserve", 1, Some(1)), // def command(table)
    ("compact", 1, Some(3)),   // def command(table_or_region_name, family = nil, type = 'NORMAL')
    ("flush", 1, Some(2)),     // def command(table_or_region_name, family = nil)
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
    let runnable: Vec<&str> = COMMANDS
        .iter()
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
        let spec = rowkey::shell::commands::find(name).ok_or(name)?;
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
    // 35 commands take at least one argument, 35 at most some number.
    assert_eq!(checked, 70);
    // `alter` with the table alone: admin.rb's own ArgumentError, after the table is found.
    let out = fresh().run("alter 't1'");
    let message = out.into_iter().find_map(|o| o.error).map(|e| e.message);
    assert_eq!(
        message.as_deref(),
        Some("There should be at least one argument but the table name")
    );
    Ok(())
}
