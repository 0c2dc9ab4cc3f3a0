//! cbt mode in the page's logic (driven through `rowkey::session::Session`): a gallery design's
//! access patterns run as cbt lines on its Bigtable tables, or are not offered with the reason;
//! a file given for cbt's `import` changes nothing until the import line runs.

use std::rc::Rc;

use rowkey::dialect::Dialect;
use rowkey::session::{Action, Effect};

mod common;
use common::session::{fresh, last_entry};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn patterns_run_as_cbt_lines_in_cbt_mode() -> TestResult {
    let mut s = fresh();
    s.apply(Action::SetDialect(Dialect::Cbt));
    s.apply(Action::OpenDesign("schema.reversed-domain"));
    let design = rowkey::designs::find("schema.reversed-domain").ok_or("no design")?;
    assert_eq!(
        s.pattern_in_cbt(&design, 0),
        Ok("count sg_domain prefix=com.example.".to_string())
    );
    // A filter has no cbt argument: the card offers no button and says why.
    assert_eq!(
        s.pattern_in_cbt(&design, 1),
        Err("count: cbt's count takes only prefix=, not FILTER".to_string())
    );
    let fx = s.apply(Action::RunPattern(0));
    assert!(fx.contains(&Effect::SaveChanges));
    assert_eq!(
        last_entry(&s),
        "cbt> count sg_domain prefix=com.example.\n75\n"
    );
    let (id, index, run) = s.pattern_run.clone().ok_or("no pattern run")?;
    assert_eq!((id, index), ("schema.reversed-domain", 0));
    assert_eq!(
        (
            run.measures.reads,
            run.measures.rows_scanned,
            run.measures.rows_returned
        ),
        (1, 75, 75)
    );
    assert!(run.checks.iter().all(|(_, held)| *held), "{:?}", run.checks);
    // The pattern that cbt cannot say does not run: a note says why.
    s.apply(Action::RunPattern(1));
    assert_eq!(
        last_entry(&s),
        "ERROR: the access pattern “The same with plain domain keys” has no cbt line: count: cbt's count takes only prefix=, not FILTER\n"
    );
    Ok(())
}

#[test]
fn a_design_loaded_in_hbase_mode_has_no_cbt_patterns() -> TestResult {
    let mut s = fresh();
    s.apply(Action::OpenDesign("schema.reversed-domain"));
    s.apply(Action::SetDialect(Dialect::Cbt));
    let design = rowkey::designs::find("schema.reversed-domain").ok_or("no design")?;
    assert_eq!(
        s.pattern_in_cbt(&design, 0),
        Err("sg_domain is an HBase table (the design was loaded in HBase mode)".to_string())
    );
    Ok(())
}

#[test]
fn a_file_for_import_changes_nothing_until_the_line_runs() -> TestResult {
    let mut s = fresh();
    s.apply(Action::SetDialect(Dialect::Cbt));
    s.apply(Action::Submit("createtable t families=cf".into()));
    let csv: Rc<[u8]> = b",cf\n,a\nr1,1@1000\nr2,2@1000\n".to_vec().into();
    let fx = s.apply(Action::GiveCbtFile("my rows.csv".into(), csv));
    assert_eq!(fx, vec![Effect::ShowInput("import t 'my rows.csv'".into())]);
    assert_eq!(
        last_entry(&s),
        "my rows.csv (27 B) is ready for cbt's import; nothing is imported until an import line naming it runs.\n"
    );
    s.apply(Action::Submit("count t".into()));
    assert_eq!(last_entry(&s), "cbt> count t\n0\n");
    s.apply(Action::Submit(
        "import t 'my rows.csv' timestamp=value-encoded".into(),
    ));
    s.apply(Action::Submit("count t".into()));
    assert_eq!(last_entry(&s), "cbt> count t\n2\n");
    // A name never given reads as Go's error, as cbt prints it.
    s.apply(Action::Submit("import t other.csv".into()));
    assert!(
        last_entry(&s)
            .contains("couldn't open the csv file: open other.csv: no such file or directory"),
        "{}",
        last_entry(&s)
    );
    Ok(())
}

/// The console's dialect is kept with the preferences: switching to cbt saves them with the
/// dialect, and a session opened with them starts in cbt mode (a reload used to bring the
/// console back in the HBase shell whatever the person had left it in).
#[test]
fn the_dialect_is_kept_for_the_next_visit() {
    use rowkey::session::{Clocks, Saved, Session};
    let mut s = fresh();
    let fx = s.apply(Action::SetDialect(Dialect::Cbt));
    let Some(Effect::SavePrefs(prefs)) = fx.into_iter().find(|e| matches!(e, Effect::SavePrefs(_)))
    else {
        panic!("switching saves the preferences");
    };
    assert_eq!(prefs.dialect, Dialect::Cbt);
    // Switching to the dialect it is in saves nothing.
    assert!(s.apply(Action::SetDialect(Dialect::Cbt)).is_empty());
    let again = Session::new(
        Clocks::fixed(1_700_000_000_000),
        Saved {
            prefs,
            ..Saved::default()
        },
    );
    assert_eq!(again.console.borrow().dialect, Dialect::Cbt);
    assert_eq!(fresh().console.borrow().dialect, Dialect::HBase);
}
