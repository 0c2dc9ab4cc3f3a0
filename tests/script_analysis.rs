//! One analysis of a script with table references resolved: what each command reads, changes
//! and creates; and share links, design loads and imports that change a person's table through
//! a reference name it and ask first, leaving the table as it was until the person agrees.

mod common;

use common::TestResult;
use rowkey::analysis::{analyze, existing_changed, Access, Analyzer, Dialect};
use rowkey::designs::loads::{decide, decide_import, Decision, Loads};
use rowkey::engine::Engine;
use rowkey::share::{decode, encode, tables_changed, Shared};
use rowkey::shell::Shell;

fn access(
    command: &str,
    reads: Option<&str>,
    changes: Option<&str>,
    creates: Option<&str>,
) -> Access {
    Access {
        command: command.into(),
        reads: reads.map(Into::into),
        changes: changes.map(Into::into),
        creates: creates.map(Into::into),
    }
}

fn lines(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

/// A person's shell with a table `users` holding row u1.
fn persons_shell() -> Shell {
    let mut sh = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    sh.run("create 'users', 'info'\nput 'users', 'u1', 'info:name', 'Ada'");
    sh
}

fn rows(sh: &mut Shell) -> String {
    sh.run("count 'users'")
        .into_iter()
        .map(|o| o.output)
        .collect::<String>()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn references_resolve_within_and_across_scripts() {
    let got = analyze(
        &lines(&[
            "t = get_table 'users'\nt.deleteall 'u1'\nu = get_table 'users'\nu.scan\nt",
            "t.put 'u2', 'info:n', 'x'\nn = create 'fresh', 'f'\nn.put 'r', 'f:q', 'v'\nget 'users', 'u2'\nlist",
        ]),
        Dialect::HBase,
    );
    assert_eq!(
        got,
        vec![
            access("get_table", Some("users"), None, None),
            access("deleteall", None, Some("users"), None),
            access("get_table", Some("users"), None, None),
            access("scan", Some("users"), None, None),
            access("put", None, Some("users"), None),
            access("create", None, None, Some("fresh")),
            access("put", None, Some("fresh"), None),
            access("get", Some("users"), None, None),
        ]
    );
    // An undefined reference runs nothing in the shell and changes nothing here.
    assert!(Analyzer::new(Dialect::HBase)
        .script("x.deleteall 'u1'")
        .is_empty());
}

#[test]
fn cbt_writes_are_known() {
    let got = analyze(
        &lines(&[
            "cbt -project p -instance=i set users u1 info:name=Ada\ndeleterow users u1\ncbt deletetable old\ndeleteallrows users\nimport users rows.csv\ncreatetable fresh\nread users\nls",
        ]),
        Dialect::Cbt,
    );
    assert_eq!(
        got,
        vec![
            access("set", None, Some("users"), None),
            access("deleterow", None, Some("users"), None),
            access("deletetable", None, Some("old"), None),
            access("deleteallrows", None, Some("users"), None),
            access("import", None, Some("users"), None),
            access("createtable", None, None, Some("fresh")),
            access("read", Some("users"), None, None),
            access("ls", None, None, None),
        ]
    );
    let exists = |t: &str| ["users", "old"].contains(&t);
    assert_eq!(existing_changed(&got, exists), vec!["users", "old"]);
    // The analysis reads cbt's one command table: every command that writes is one it counts
    // as changing (or creating) the table it names first.
    for c in rowkey::commands::of(Dialect::Cbt).filter(|c| c.writes) {
        let line = format!("{} users r1 f:q=1", c.name);
        let got = analyze(&lines(&[&line]), Dialect::Cbt);
        let named = |a: &Access| a.changes.as_deref().or(a.creates.as_deref()) == Some("users");
        assert!(got.iter().any(named), "{}", c.name);
    }
    let writes: Vec<&str> = rowkey::commands::of(Dialect::Cbt)
        .filter(|c| c.writes)
        .map(|c| c.name)
        .collect();
    assert_eq!(
        writes,
        [
            "addtocell",
            "createfamily",
            "createtable",
            "deleteallrows",
            "deletecolumn",
            "deletefamily",
            "deleterow",
            "deletetable",
            "import",
            "set",
            "setgcpolicy",
            "checkandmutate",
            "readmodifywrite",
            "compact"
        ]
    );
}

#[test]
fn a_link_writing_through_a_reference_names_the_table_and_waits() -> TestResult {
    let mut sh = persons_shell();
    let before = rows(&mut sh);
    assert_eq!(before, "1 row(s)");
    let link = encode(&Shared::hbase(
        None,
        &lines(&["t = get_table 'users'", "t.deleteall 'u1'"]),
    ))?;
    let shared = decode(&link)?;
    let asked = tables_changed(&shared.entries, |t| sh.engine.exists(t));
    assert_eq!(asked, vec!["users"]);
    // Two references to one table, and a write by the second: still one question.
    let two = lines(&[
        "a = get_table 'users'\nb = get_table 'users'\nb.put 'u9', 'info:n', 'x'\na.deleteall 'u1'",
    ]);
    let two = Shared::hbase(None, &two).entries;
    assert_eq!(tables_changed(&two, |t| sh.engine.exists(t)), vec!["users"]);
    assert_eq!(rows(&mut sh), before, "nothing ran before the answer");
    // The person agrees: the commands run.
    for c in shared.texts(Dialect::HBase) {
        sh.run(&c);
    }
    assert_eq!(rows(&mut sh), "0 row(s)");
    Ok(())
}

#[test]
fn a_design_load_writing_through_a_reference_asks_first() -> TestResult {
    let mut sh = persons_shell();
    let before = rows(&mut sh);
    let setup =
        "create 'd_rows', 'f'\nt = get_table 'users'\nt.put 'u1', 'info:name', 'overwritten'\n";
    let decision = decide("demo", &["d_rows"], setup, &Loads::default(), |t| {
        sh.engine.exists(t)
    });
    let Decision::Ask(clash) = decision else {
        return Err(format!("expected a question, got {decision:?}").into());
    };
    assert_eq!(clash.taken, vec!["users"]);
    assert_eq!(rows(&mut sh), before);
    // Without the reference's write, the design loads under its own names.
    let own = "create 'd_rows', 'f'\nput 'd_rows', 'r', 'f:q', 'v'\n";
    assert!(matches!(
        decide("demo", &["d_rows"], own, &Loads::default(), |t| sh
            .engine
            .exists(t)),
        Decision::Load { .. }
    ));
    Ok(())
}

#[test]
fn an_import_writing_through_a_reference_asks_first() -> TestResult {
    let mut sh = persons_shell();
    let before = rows(&mut sh);
    let script = "create 'imported', 'f'\nput 'imported', 'r', 'f:q', 'v'\nt = get_table 'users'\nt.deleteall 'u1'\n";
    let clash = decide_import("imported", script, |t| sh.engine.exists(t))
        .ok_or("the import should ask")?;
    assert_eq!(clash.taken, vec!["users"]);
    assert_eq!(rows(&mut sh), before);
    // Over an existing table of the same name: that table is named.
    let over = decide_import(
        "users",
        "create 'users', 'f'\nput 'users', 'r', 'f:q', 'v'",
        |t| sh.engine.exists(t),
    )
    .ok_or("the import should ask")?;
    assert_eq!(over.taken, vec!["users"]);
    assert_eq!(
        decide_import(
            "fresh",
            "create 'fresh', 'f'\nput 'fresh', 'r', 'f:q', 'v'",
            |t| { sh.engine.exists(t) }
        ),
        None
    );
    Ok(())
}
