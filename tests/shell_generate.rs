//! `generate`, Rowkey's own command: rows from a key template through the normal write path,
//! in steps a page can run between frames.
mod common;
use common::*;
use rowkey::shell::Shell;

fn shell() -> Shell {
    let (mut shell, _) = shell_at(1_000);
    run(&mut shell, "create 't', 'f', 'g'");
    shell
}

fn error(shell: &mut Shell, input: &str) -> (String, std::ops::Range<usize>) {
    let outcome = shell.run(input).remove(0);
    outcome
        .error
        .map(|e| (e.message, e.span))
        .unwrap_or_else(|| (format!("no error: {}", outcome.output), 0..0))
}

#[test]
fn writes_rows_from_the_template_and_says_how_many() {
    let mut shell = shell();
    assert_eq!(
        run(&mut shell, "generate 't', 'user%08d', 1000"),
        "1000 rows, 1000 cells written to 't'\n"
    );
    let out = run(&mut shell, "scan 't', {LIMIT => 2}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    // `create` ran at 1000; every row of the one `generate` command shares its time, 1001.
    assert!(lines[1].starts_with(" user00000000 column=f:v, timestamp=1001, value="));
    assert!(lines[2].starts_with(" user00000001 column=f:v, timestamp=1001, value="));
    let value = lines[1].rsplit("value=").next().unwrap_or_default();
    assert_eq!(value.len(), 8);
    assert!(run(&mut shell, "count 't'").contains("\n1000 row(s)\n"));
}

#[test]
fn options_choose_columns_sizes_numbers_and_order() {
    let mut shell = shell();
    assert_eq!(
        run(
            &mut shell,
            "generate 't', 'k%x-%03d', 5, {COLUMNS => ['f:a', 'g:b'], VALUE_SIZE => 16, START => 10, STEP => 5, ORDER => 'reversed'}"
        ),
        "5 rows, 10 cells written to 't'\n"
    );
    let out = run(&mut shell, "scan 't', {COLUMNS => 'f:a'}");
    let keys: Vec<&str> = out
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter(|k| k.starts_with('k'))
        .collect();
    // Unpadded hex sorts as bytes do: "k14" before "ka".
    assert_eq!(keys, ["k14-020", "k19-025", "k1e-030", "ka-010", "kf-015"]);
    // Every row of one command shares its time, whatever the order it was written in.
    assert!(
        out.contains(" k1e-030 column=f:a, timestamp=1001, value=")
            && out.contains(" ka-010 column=f:a, timestamp=1001, value="),
        "{out}"
    );
    let value = out
        .lines()
        .nth(1)
        .and_then(|l| l.rsplit("value=").next())
        .unwrap_or_default();
    assert_eq!(value.len(), 16);
}

#[test]
fn random_order_writes_the_same_rows_and_values_in_another_order() {
    let mut a = shell();
    let mut b = shell();
    run(&mut a, "generate 't', 'r%04d', 300");
    run(&mut b, "generate 't', 'r%04d', 300, {ORDER => 'random'}");
    let strip = |s: String| -> Vec<String> {
        s.lines()
            .map(
                |l| match (l.split_once("timestamp="), l.split_once(", value=")) {
                    (Some((head, _)), Some((_, v))) => format!("{head}{v}"),
                    _ => l.to_string(),
                },
            )
            .collect()
    };
    let sa = run(&mut a, "scan 't'");
    let sb = run(&mut b, "scan 't'");
    assert_eq!(strip(sa), strip(sb));
    // Writes in one millisecond share its timestamp, so the order shows in the table's
    // recorded operations.
    let order = |s: &rowkey::shell::Shell| -> Vec<Vec<u8>> {
        s.engine
            .activity("t")
            .map(|a| {
                a.ops()
                    .filter(|o| o.kind == rowkey::engine::OpKind::Write)
                    .map(|o| o.start.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    let (oa, ob) = (order(&a), order(&b));
    assert_eq!(oa.len(), 300);
    assert_ne!(oa, ob, "the random order writes the rows in another order");
    let (mut sa, mut sb) = (oa, ob);
    sa.sort();
    sb.sort();
    assert_eq!(sa, sb, "the same rows");
}

#[test]
fn a_salt_prefix_spreads_keys() {
    let mut shell = shell();
    run(&mut shell, "generate 't', '%2h-%04d', 64");
    let out = run(&mut shell, "scan 't'");
    let prefixes: std::collections::BTreeSet<&str> = out
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .filter_map(|k| k.split_once('-').map(|(p, _)| p))
        .collect();
    assert!(prefixes
        .iter()
        .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_hexdigit())));
    assert!(prefixes.len() > 30, "{prefixes:?}");
    assert!(out.contains("\n64 row(s)\n"));
}

#[test]
fn steps_of_a_budget_write_what_one_run_writes() -> TestResult {
    let mut whole = shell();
    let once = run(
        &mut whole,
        "generate 't', 'u%05d', 1000, {COLUMNS => ['f:a', 'g:b']}",
    );
    let mut stepped = shell();
    stepped.gen_budget = Some(300);
    let mut out = stepped
        .run("generate 't', 'u%05d', 1000, {COLUMNS => ['f:a', 'g:b']}")
        .remove(0);
    let mut progress = Vec::new();
    while let Some(more) = out.more.take() {
        assert_eq!(out.output, "", "a step prints nothing");
        progress.push(more.rows_so_far());
        out = stepped.resume(more, 300);
    }
    assert_eq!(progress, vec![300, 600, 900]);
    assert!(out
        .output
        .starts_with("1000 rows, 2000 cells written to 't'\nTook "));
    assert_eq!(once, "1000 rows, 2000 cells written to 't'\n");
    assert_eq!(run(&mut whole, "scan 't'"), run(&mut stepped, "scan 't'"));
    Ok(())
}

#[test]
fn generated_cells_are_recorded_for_saving() {
    let mut shell = shell();
    shell.engine.record_changes(true);
    shell.engine.take_changes();
    run(
        &mut shell,
        "generate 't', 'u%05d', 250, {COLUMNS => ['f:a', 'g:b']}",
    );
    let changes = shell.engine.take_changes();
    let cells: usize = changes.wal.iter().map(|(_, c)| c.len()).sum();
    assert_eq!(cells, 500);
}

#[test]
fn a_read_only_tab_refuses_to_generate_or_go_on() -> TestResult {
    let mut shell = shell();
    shell.gen_budget = Some(10);
    let out = shell.run("generate 't', 'u%05d', 100").remove(0);
    let more = out.more.ok_or("more")?;
    shell.read_only = Some("another tab is writing".into());
    let refused = shell.resume(more, 10);
    assert_eq!(
        refused.error.map(|e| e.message),
        Some("another tab is writing".to_string())
    );
    assert!(refused.more.is_none());
    assert_eq!(
        error(&mut shell, "generate 't', 'u%05d', 100").0,
        "another tab is writing"
    );
    Ok(())
}

#[test]
fn bad_templates_and_options_say_what_is_wrong_where() {
    let mut shell = shell();
    assert_eq!(
        error(&mut shell, "generate 't', 'user%q', 10"),
        (
            "unknown placeholder %q in the key template; expected %d, %x, %h or %%".into(),
            19..21
        )
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'user', 10"),
        (
            "the key template needs %d or %x so that every row gets its own key".into(),
            14..20
        )
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%30d', 10"),
        ("a placeholder's width is at most 20".into(), 16..20)
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%d%', 10"),
        (
            "unfinished placeholder at the end of the key template; expected %d, %x, %h or %%"
                .into(),
            18..19
        )
    );
    assert_eq!(
        error(&mut shell, "generate 't', '%17h%d', 10").0,
        "%h takes 1 to 16 hex digits"
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%d', 0"),
        ("row count must be 1 to 10000000".into(), 21..22)
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%d', 10, {COLUMNS => ['x:a']}"),
        ("Column family x does not exist in table t".into(), 37..44)
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%d', 10, {ORDER => 'sorted'}").0,
        "ORDER must be 'sequential', 'random' or 'reversed'"
    );
    assert_eq!(
        error(&mut shell, "generate 't', 'u%d', 10, {STEPS => 2}").0,
        "unknown option STEPS; expected one of COLUMNS, VALUE_SIZE, START, STEP, ORDER\nDid you mean STEP?"
    );
    assert_eq!(
        error(&mut shell, "generate 'nope', 'u%d', 10"),
        ("Unknown table nope!".into(), 9..15)
    );
    // Nothing was written by any of them.
    assert_eq!(run(&mut shell, "count 't'"), "0 row(s)\n=> 0\n");
    // A literal percent sign.
    run(&mut shell, "generate 't', '100%%-%d', 1");
    assert!(run(&mut shell, "scan 't'").contains(" 100%-0 column=f:v"));
}

#[test]
fn help_marks_generate_as_rowkeys_own() {
    let mut shell = shell();
    let help = run(&mut shell, "help");
    // With the conditional and row mutations HBase's shell lacks (its Java client has them).
    assert!(help.contains(
        "  Group name: rowkey (Rowkey's own, not in HBase)\n  Commands: check_and_delete, check_and_put, generate, mutate_row\n"
    ));
    // `help` is the shell's method, not a command: no `Took` line (shell.rb's `help`).
    assert!(!help.contains("Took "), "{help}");
    for name in ["check_and_put", "check_and_delete", "mutate_row"] {
        let text = run(&mut shell, &format!("help '{name}'"));
        assert!(
            text.contains(&format!("Rowkey's own: HBase's shell has no {name}")),
            "{text}"
        );
    }
    // A cluster command's note ends its line, and an unknown name lists the groups.
    assert!(run(&mut shell, "help 'status'").ends_with("show what there is.\n"));
    assert!(run(&mut shell, "help 'nosuch'").starts_with(
        "ERROR: Invalid command or command group name: nosuch\n\nRowkey runs an HBase 2.x engine"
    ));
    assert!(
        run(&mut shell, "help 'generate'").starts_with("Rowkey's own (HBase has no such command)")
    );
}
