//! A design never overwrites a table of the person's: opening it decides between showing its
//! tables, loading them, and asking; loading it under other names rewrites every command of the
//! design to those names, so the person's table of the same name is untouched.
mod common;
use common::*;
use rowkey::designs::loads::{
    decide, drop_script, run_pattern_as, setup_as, Decision, Loads, Placement,
};
use rowkey::designs::{catalogue, find};

fn run_ok(sh: &mut rowkey::shell::Shell, script: &str) -> Result<(), String> {
    for o in sh.run(script) {
        if let Some(e) = o.error {
            return Err(format!("{}: {}", o.input, e.message));
        }
    }
    Ok(())
}

#[test]
fn free_names_take_the_first_suffix_free_for_every_table() {
    let taken = |t: &str| ["blog", "blog_2", "fl_fans_3"].contains(&t);
    assert_eq!(Placement::free(&["blog"], taken).tables(), vec!["blog_3"]);
    // One suffix for the whole design: the first at which every table's name is free.
    assert_eq!(
        Placement::free(&["fl_follows", "fl_fans"], taken).tables(),
        vec!["fl_follows_2", "fl_fans_2"]
    );
    let taken = |t: &str| ["a_2", "b_3"].contains(&t);
    assert_eq!(
        Placement::free(&["a", "b"], taken).tables(),
        vec!["a_4", "b_4"]
    );
}

#[test]
fn the_rewrite_renames_the_table_argument_only() -> Result<(), String> {
    let p = Placement::free(&["blog"], |t| t == "blog");
    let script = "create 'blog', 'p'\nput 'blog', 'blog', 'p:blog', 'blog'\nscan \"blog\", {STARTROW => 'blog'}; count 'blog'\n# blog\nput 'other', 'r', 'p:q', 'v'\n";
    assert_eq!(
        p.rewrite(script)?,
        "create 'blog_2', 'p'\nput 'blog_2', 'blog', 'p:blog', 'blog'\nscan 'blog_2', {STARTROW => 'blog'}; count 'blog_2'\n# blog\nput 'other', 'r', 'p:q', 'v'\n"
    );
    // Under its own names a script is kept as it is, even one that does not parse.
    assert_eq!(
        Placement::own(&["blog"]).rewrite("scan 'blog")?,
        "scan 'blog"
    );
    // A command that does not parse cannot be renamed: the error names its line.
    let err = p
        .rewrite("scan 'blog'\nput 'blog', 'r'\nscan 'blog', {LIMIT =>")
        .err()
        .ok_or("a broken command was rewritten")?;
    assert!(err.starts_with("line 3:"), "{err}");
    Ok(())
}

#[test]
fn opening_decides_show_load_or_ask() {
    let mut loads = Loads::default();
    let tables = ["fl_follows", "fl_fans"];
    // Nothing there: load under its own names.
    assert_eq!(
        decide("follow.tall", &tables, "", &loads, |_| false),
        Decision::Load {
            placement: Placement::own(&tables),
            drop: vec![]
        }
    );
    // A table of the person's with one of its names: ask, offering free names.
    match decide("follow.tall", &tables, "", &loads, |t| t == "fl_fans") {
        Decision::Ask(clash) => {
            assert_eq!(clash.taken, vec!["fl_fans"]);
            assert_eq!(clash.renamed.tables(), vec!["fl_follows_2", "fl_fans_2"]);
        }
        other => panic!("expected a question, got {other:?}"),
    }
    // Loaded by the gallery: its tables are its own, shown as they are.
    loads.record("follow.tall", Placement::own(&tables));
    assert_eq!(loads.owner("fl_fans"), Some("follow.tall"));
    let all = |t: &str| tables.contains(&t);
    assert_eq!(
        decide("follow.tall", &tables, "", &loads, all),
        Decision::Show(Placement::own(&tables))
    );
    // One of its own dropped: loaded again where it was, its other table dropped first.
    assert_eq!(
        decide("follow.tall", &tables, "", &loads, |t| t == "fl_follows"),
        Decision::Load {
            placement: Placement::own(&tables),
            drop: vec!["fl_follows".to_string()]
        }
    );
    // Another design with a table of that name does not own it.
    assert!(matches!(
        decide("other", &["fl_fans"], "", &loads, all),
        Decision::Ask(_)
    ));
    // A table created by hand with one of its names: the design no longer owns its names.
    assert!(loads.forget_created("put 'x', 'r', 'f:q', 'create'\n  create 'fl_fans', 'f'\n"));
    assert!(matches!(
        decide("follow.tall", &tables, "", &loads, all),
        Decision::Ask(_)
    ));
    // All its tables gone: the load is forgotten.
    loads.record("follow.tall", Placement::own(&tables));
    assert!(!loads.prune(all));
    assert!(loads.prune(|_| false));
    assert!(loads.is_empty());
}

#[test]
fn loads_round_trip_as_json() -> Result<(), Box<dyn std::error::Error>> {
    let mut loads = Loads::default();
    loads.record("csdn.blog", Placement::free(&["blog"], |t| t == "blog"));
    let text = loads.to_json();
    let back = Loads::from_json(&rowkey::json::Node::root(&rowkey::json::parse(&text)?))?;
    assert_eq!(back, loads);
    assert_eq!(back.owner("blog_2"), Some("csdn.blog"));
    assert_eq!(back.owner("blog"), None);
    Ok(())
}

/// Every design loads under renamed tables beside a table of the person's with each of its
/// names, and every access pattern runs there, measured on the renamed tables: the person's
/// tables keep exactly their cell. This is what proves that the design scripts name their
/// tables only as the first argument of each command.
#[test]
fn every_design_loads_and_runs_beside_tables_of_its_names() -> Result<(), String> {
    for design in catalogue() {
        let (mut sh, _) = shell_at(1_700_000_000_000);
        let mut mine = String::new();
        for t in design.tables {
            mine.push_str(&format!(
                "create '{t}', 'mine'\nput '{t}', 'keep', 'mine:q', 'my data'\n"
            ));
        }
        run_ok(&mut sh, &mine)?;
        let loads = Loads::default();
        let exists = |t: &str| design.tables.contains(&t);
        let Decision::Ask(clash) = decide(
            design.id,
            design.tables,
            &design.setup_script(),
            &loads,
            exists,
        ) else {
            return Err(format!(
                "{}: no question asked over the person's tables",
                design.id
            ));
        };
        assert_eq!(clash.taken.len(), design.tables.len());
        let setup = setup_as(&design, &clash.renamed)?;
        run_ok(&mut sh, &setup).map_err(|e| format!("{}: {e}", design.id))?;
        for i in 0..design.patterns.len() {
            let run = run_pattern_as(&design, &mut sh, i, &clash.renamed)
                .map_err(|e| format!("{} / {}: {e}", design.id, design.patterns[i].name))?;
            // The lesson holds under the new names as under the design's own.
            assert!(
                run.all_hold(),
                "{} / {}: {:?}",
                design.id,
                design.patterns[i].name,
                run.checks
            );
        }
        for t in design.tables {
            let out = sh.run(&format!("count '{t}'"));
            let text = out.iter().map(|o| o.output.clone()).collect::<String>();
            assert!(
                text.contains("1 row(s)"),
                "{}: {t} changed: {text}",
                design.id
            );
            assert!(
                sh.engine.exists(&format!("{t}_2")),
                "{}: {t}_2 missing",
                design.id
            );
        }
    }
    Ok(())
}

#[test]
fn replacing_drops_the_persons_table_first() -> Result<(), String> {
    let design = find("csdn.blog").ok_or("no csdn.blog")?;
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run_ok(
        &mut sh,
        "create 'blog', 'mine'\nput 'blog', 'keep', 'mine:q', 'v'\n",
    )?;
    let drop = drop_script(&["blog".to_string()], |t| {
        sh.engine.table(t).map(|t| t.enabled).unwrap_or(false)
    });
    assert_eq!(drop, "disable 'blog'\ndrop 'blog'\n");
    run_ok(&mut sh, &drop)?;
    run_ok(&mut sh, &setup_as(&design, &Placement::own(design.tables))?)?;
    let t = sh.engine.table("blog").map_err(|e| e.to_string())?;
    assert!(t.descriptor.family(b"mine").is_none());
    Ok(())
}

#[test]
fn a_picked_size_is_kept_per_design_and_outlives_its_tables() -> Result<(), String> {
    use rowkey::designs::Size;
    let mut loads = Loads::default();
    assert_eq!(loads.size("csdn.blog"), Size::Medium);
    loads.set_size("csdn.blog", Size::Large);
    loads.record("csdn.blog", Placement::own(&["blog"]));
    assert_eq!(loads.size("csdn.blog"), Size::Large);
    assert_eq!(loads.size("weibo.posts"), Size::Medium);
    // The person dropped the table: the load is forgotten, the size is not.
    loads.prune(|_| false);
    assert!(loads.get("csdn.blog").is_none());
    assert_eq!(loads.size("csdn.blog"), Size::Large);
    let saved = loads.to_json();
    assert!(saved.contains("\"large\""), "{saved}");
    // Back to the default: nothing left to keep. Loads saved before sizes existed still read.
    loads.set_size("csdn.blog", Size::Medium);
    assert!(loads.is_empty());
    let old = rowkey::json::parse(r#"{"by_design":{"csdn.blog":{"names":[["blog","blog"]]}}}"#)
        .and_then(|v| Loads::from_json(&rowkey::json::Node::root(&v)))
        .map_err(|e| e.to_string())?;
    assert_eq!(old.size("csdn.blog"), Size::Medium);
    assert!(old.get("csdn.blog").is_some());
    Ok(())
}

#[test]
fn a_design_at_another_size_loads_other_data_under_the_same_rewrite() -> Result<(), String> {
    use rowkey::designs::{find_at, Size};
    let small = find_at("csdn.blog", Size::Small).ok_or("no csdn.blog")?;
    let medium = find_at("csdn.blog", Size::Medium).ok_or("no csdn.blog")?;
    assert!(small.scales);
    assert!(small.setup_script().len() * 3 < medium.setup_script().len());
    // Loaded under another name at a size, every command names the new table.
    let p = Placement::free(small.tables, |t| t == "blog");
    let script = setup_as(&small, &p)?;
    assert!(
        script.lines().all(|l| l.contains("'blog_2'")),
        "every line renamed"
    );
    // The documents' own small examples are the same at every size.
    let org = find_at("org.departments", Size::Large).ok_or("no org")?;
    assert!(!org.scales);
    Ok(())
}
