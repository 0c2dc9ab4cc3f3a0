//! Export to JSON and to an HBase shell script, and import of both, all or nothing.
mod common;
use common::*;
use rowkey::persist::{export_json, export_script, import_json, import_script};

fn source() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 't', {NAME => 'f', VERSIONS => 3, TTL => 2000000000}, 'g', SPLITS => ['m']\n\
         put 't', 'a', 'f:q', 'one', 10\nput 't', 'a', 'f:q', 'two', 20\nput 't', \"\\x00\\xFFz\", 'g:b', \"it's \\\\ \\x01\", 5\n\
         delete 't', 'a', 'f:q', 20\ndeleteall 't', 'n', 'g:c', 30\nput 't', 'n', 'g:c', 'masked', 25\nput 't', 'p', 'f:x', 'ttl', 40, {TTL => 999999999999}\n\
         create 'u', 'f'\nput 'u', 'k', 'f:q', 'v', 1\ndisable 'u'",
    );
    sh
}

fn scans(sh: &mut rowkey::shell::Shell) -> String {
    run(sh, "scan 't', {RAW => true, VERSIONS => 10}\nscan 't', {VERSIONS => 10}\ndescribe 't'\nget_splits 't'\nis_enabled 'u'")
}

#[test]
fn json_export_then_import_into_a_fresh_profile_gives_the_same_scans() -> TestResult {
    let mut src = source();
    let doc = export_json(&src.engine, None);
    assert!(
        doc.contains("\"row\": \"\\\\x00\\\\xFFz\""),
        "bytes are written as HBase prints them"
    );
    let (fresh, _) = shell_at(1_700_000_000_000);
    let engine = import_json(&fresh.engine, &doc, Box::new(|| 1_700_000_000_000))?;
    let mut dst = rowkey::shell::Shell::new(engine, Box::new(|| 0.0));
    dst.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "true");
    assert_eq!(scans(&mut dst), scans(&mut src));
    Ok(())
}

#[test]
fn script_export_replays_to_the_same_tables() -> TestResult {
    let mut src = source();
    let script = export_script(&src.engine, None);
    assert!(script
        .contains("create 't', {NAME => 'f', VERSIONS => 3, MIN_VERSIONS => 0, TTL => 2000000000"));
    assert!(script.contains("delete 't', 'a', 'f:q', 20\n"));
    assert!(script.contains("deleteall 't', 'n', 'g:c', 30\n"));
    assert!(
        script.contains("put 't', \"\\x00\\xFFz\", 'g:b', \"it's \\\\ \\x01\", 5\n"),
        "{script}"
    );
    let (fresh, _) = shell_at(1_700_000_000_000);
    let engine = import_script(&fresh.engine, &script, Box::new(|| 1_700_000_000_000))?;
    let mut dst = rowkey::shell::Shell::new(engine, Box::new(|| 0.0));
    dst.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "true");
    assert_eq!(scans(&mut dst), scans(&mut src));
    Ok(())
}

#[test]
fn one_table_exports_alone() {
    let src = source();
    let doc = export_json(&src.engine, Some("u"));
    assert!(doc.contains("\"name\": \"u\"") && !doc.contains("\"name\": \"t\""));
}

#[test]
fn bad_imports_name_the_first_problem_and_change_nothing() {
    let src = source();
    let before = export_json(&src.engine, None);
    let err = |r: Result<rowkey::engine::Engine, rowkey::persist::ImportError>| {
        r.err().map(|e| e.to_string()).unwrap_or_default()
    };
    let clock = || Box::new(|| 1_000u64) as Box<dyn Fn() -> u64>;
    assert!(err(import_json(
        &src.engine,
        "{\"format\": \"rowkey-export\",\n  \"version\": 1, \"tables\": [}",
        clock()
    ))
    .starts_with("line 2, column"));
    assert!(err(import_json(&src.engine, &before, clock()))
        .starts_with("tables[0].name: table t already exists"));
    let (fresh, _) = shell_at(1);
    let bad_cell = before.replacen("\"type\": \"Put\"", "\"type\": \"Poot\"", 1);
    assert!(err(import_json(&fresh.engine, &bad_cell, clock()))
        .contains(".type: unknown cell type \"Poot\""));
    let bad_family = before.replacen("\"column\": \"f:q\"", "\"column\": \"nope:q\"", 1);
    assert!(err(import_json(&fresh.engine, &bad_family, clock()))
        .contains("NoSuchColumnFamilyException"));
    assert_eq!(
        err(import_script(
            &fresh.engine,
            "create 'x', 'f'\nput 'x', 'r'\n",
            clock()
        )),
        "line 2, column 1: wrong number of arguments (given 2, expected 4..6)"
    );
    assert_eq!(
        err(import_script(
            &fresh.engine,
            "create 'x', 'f'\nput 'x' 'r'\n",
            clock()
        )),
        "line 2, column 9: expected ',' or end of command, found a string"
    );
    // A file with no command in it (an empty file, or blanks and comments) imports nothing:
    // it is refused rather than reported as imported.
    for empty in ["", "\n\n", "# only a comment\n"] {
        assert_eq!(
            err(import_script(&fresh.engine, empty, clock())),
            "line 1, column 1: no commands: the file holds no tables to import",
            "{empty:?}"
        );
    }
    assert_eq!(fresh.engine.tables().count(), 0, "nothing was applied");
    assert_eq!(export_json(&src.engine, None), before);
}

/// The source's export as JSON and as a script, and a shell holding a table `u` of its own (a
/// row `mine` with the value `kept?`) and what `more` makes.
fn exports_over(more: &str) -> ([String; 2], rowkey::shell::Shell) {
    let src = source();
    let exports = [
        export_json(&src.engine, None),
        export_script(&src.engine, None),
    ];
    let (mut here, _) = shell_at(1_700_000_000_000);
    run(
        &mut here,
        &format!("create 'u', 'other'\nput 'u', 'mine', 'other:q', 'kept?'\n{more}"),
    );
    (exports, here)
}

/// An export over tables of the same names, imported under other names: each clashing table
/// takes the first free suffix (`u_2` is taken here, so `u_3`), the file's other tables keep
/// their names, and the tables here are left as they were. The same for the JSON document and
/// the shell script.
#[test]
fn an_import_over_existing_tables_can_take_other_names() -> TestResult {
    use rowkey::persist::read_export;
    let (exports, mut here) = exports_over("create 'u_2', 'f'");
    for text in &exports {
        let file = read_export(text)?;
        let names = file.free_names(&here.engine);
        assert_eq!(names.names, [("u".to_string(), "u_3".to_string())]);
        let imported = file.import_as(&here.engine, Box::new(|| 1_700_000_000_000u64), &names)?;
        let mut dst = rowkey::shell::Shell::new(imported, Box::new(|| 0.0));
        assert_eq!(
            run(&mut dst, "list"),
            "TABLE\nt\nu\nu_2\nu_3\n4 row(s)\n=> [\"t\", \"u\", \"u_2\", \"u_3\"]\n"
        );
        // `u_3` is the file's `u` (disabled, as it was); `u` is the one here.
        assert_eq!(run(&mut dst, "is_enabled 'u_3'"), "false\n=> false\n");
        run(&mut dst, "enable 'u_3'");
        assert!(run(&mut dst, "scan 'u_3'")
            .contains(" k column=f:q, timestamp=1970-01-01T00:00:00.001, value=v\n"));
        assert!(run(&mut dst, "scan 'u'").contains("value=kept?"));
        assert!(run(&mut dst, "scan 't'")
            .contains("column=f:q, timestamp=1970-01-01T00:00:00.010, value=one"));
    }
    // Nothing changed where it was asked from.
    assert_eq!(
        run(&mut here, "exists 'u_3'"),
        "Table u_3 does not exist\n=> false\n"
    );
    Ok(())
}

/// An export over tables of the same names: the import names them, and replaces them only
/// when asked (the page asks first), leaving the other tables as they were.
#[test]
fn an_import_over_existing_tables_names_them_and_replaces_them_when_asked() -> TestResult {
    use rowkey::persist::read_export;
    let (exports, mut here) = exports_over("create 'w', 'f'");
    let [doc, script] = &exports;
    let clock = || Box::new(|| 1_700_000_000_000u64) as Box<dyn Fn() -> u64>;
    let mut imported = Vec::new();
    for text in &exports {
        // One reading of the file answers the question and then imports.
        let file = read_export(text)?;
        assert_eq!(file.clashes(&here.engine), ["u"]);
        // Without the person's yes, the clash is an error and nothing changes.
        let refused = file
            .import(&here.engine, clock(), &[])
            .err()
            .map(|e| e.to_string());
        assert!(
            refused
                .as_deref()
                .is_some_and(|e| e.contains("already exists")),
            "{refused:?}"
        );
        imported.push(file.import(&here.engine, clock(), &file.clashes(&here.engine))?);
    }
    for imported in imported {
        let mut dst = rowkey::shell::Shell::new(imported, Box::new(|| 0.0));
        // `u` is the file's (a family `f`, disabled), `w` is untouched.
        assert!(run(&mut dst, "describe 'u'").contains("NAME => 'f'"));
        assert_eq!(run(&mut dst, "is_enabled 'u'"), "false\n=> false\n");
        assert_eq!(run(&mut dst, "exists 'w'"), "Table w does exist\n=> true\n");
    }
    // Nothing changed where it was asked from.
    assert!(run(&mut here, "scan 'u'").contains("value=kept?"));
    // A file that does not read is refused before any question: its clashing `create` is
    // never asked about.
    let broken = format!("{script}put 'u' 'r'\n");
    let e = read_export(&broken)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.ends_with("expected ',' or end of command, found a string"),
        "{e}"
    );
    let broken_doc = doc.replacen("\"version\": 1", "\"version\": 2", 1);
    assert_eq!(
        read_export(&broken_doc).err().map(|e| e.to_string()),
        Some("version: version 2 is not supported (expected 1)".to_string())
    );
    Ok(())
}

/// A disabled table is exported with its cells: disabling refuses reads, it does not empty
/// the table (the export read through the clients' read, which a disabled table refuses, and
/// wrote none of its cells). JSON and script alike, imported into a fresh profile.
#[test]
fn a_disabled_table_is_exported_with_its_cells() -> TestResult {
    let src = source();
    let (fresh, _) = shell_at(1_700_000_000_000);
    let clock = || Box::new(|| 1_700_000_000_000u64) as Box<dyn Fn() -> u64>;
    let from_json = import_json(&fresh.engine, &export_json(&src.engine, Some("u")), clock())?;
    let from_script = import_script(
        &fresh.engine,
        &export_script(&src.engine, Some("u")),
        clock(),
    )?;
    for engine in [from_json, from_script] {
        let mut dst = rowkey::shell::Shell::new(engine, Box::new(|| 0.0));
        assert_eq!(run(&mut dst, "is_enabled 'u'"), "false\n=> false\n");
        run(&mut dst, "enable 'u'");
        assert_eq!(
            run(&mut dst, "scan 'u'"),
            "ROW  COLUMN+CELL\n k column=f:q, timestamp=1970-01-01T00:00:00.001, value=v\n1 row(s)\n"
        );
    }
    Ok(())
}
