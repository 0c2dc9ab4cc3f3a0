//! A simulation's sample in the console: opening it puts the simulation's own engine in the
//! console's place (scan, get, count and the views read the sampled rows), nothing written
//! there is saved, the person's tables wait aside untouched, and leaving (or any action about
//! the person's tables) brings them back.
use rowkey::persist::export_script;
use rowkey::session::{Action, Effect, Session};
use rowkey::simulate::{gallery, sample_engine, simulate, Options, SampleEngine, SampleLimits};

mod common;
use common::session::{fresh, last_entry, tables};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The gallery's sequential-ids workload cut to an hour in steps of a simulated minute, 64
/// samples per operation per step, and its sample at the default bounds (every put kept).
fn sample() -> Result<SampleEngine, Box<dyn std::error::Error>> {
    let mut w = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    w.duration_ms = 3_600_000;
    w.step_ms = Some(60_000);
    w.samples_per_step = Some(64);
    let sim = simulate(&w, &Options::default())?;
    Ok(sample_engine(&sim, SampleLimits::default())?)
}

/// A person's session with a table `t` of two rows, picked.
fn with_own_table() -> Result<Session, Box<dyn std::error::Error>> {
    let mut s = fresh();
    let fx = s.apply(Action::Submit(
        "create 't', 'f'\nput 't', 'r1', 'f:a', 'one'\nput 't', 'r2', 'f:a', 'two'".into(),
    ));
    assert!(fx.contains(&Effect::SaveChanges));
    s.apply(Action::SelectRow(Some(b"r2".to_vec())));
    assert_eq!(s.selected_table.as_deref(), Some("t"));
    Ok(s)
}

#[test]
fn the_sample_takes_the_consoles_place_and_leaving_brings_the_persons_tables_back() -> TestResult {
    let mut s = with_own_table()?;
    let version = s.console.borrow().data_version;

    let fx = s.apply(Action::OpenSample(Box::new(sample()?), "a test".into()));
    assert!(s.on_sample());
    // Nothing to save: the engine in the console is not the person's.
    assert!(!fx.contains(&Effect::SaveChanges), "{fx:?}");
    assert_eq!(tables(&s), vec!["sg_seq", "sg_seq_rev"]);
    assert_eq!(s.selected_table.as_deref(), Some("sg_seq"));
    assert_eq!(s.selected_row, None);
    assert!(
        s.console.borrow().data_version > version,
        "the views read again"
    );
    // The Keyspace view (tab 0) shows its rows.
    assert_eq!(s.view_request, (0, 1));
    let on_show = s.sample.clone().ok_or("no sample on show")?;
    assert_eq!(
        on_show.ratios(),
        vec![
            "sg_seq: 3,840 rows sampled of 7,200,000 simulated (1 in 1,875)",
            "sg_seq_rev: 3,840 rows sampled of 7,200,000 simulated (1 in 1,875)",
        ]
    );
    assert!(last_entry(&s).contains("sg_seq: 3,840 rows sampled"));

    // The console reads the sample: count, a scan of rows of the template's shape, a get.
    let fx = s.apply(Action::Submit("count 'sg_seq'".into()));
    assert!(!fx.contains(&Effect::SaveChanges), "{fx:?}");
    assert!(last_entry(&s).contains("3840 row(s)"), "{}", last_entry(&s));
    s.apply(Action::Submit("scan 'sg_seq', {LIMIT => 2}".into()));
    let scan = last_entry(&s);
    assert!(scan.contains("2 row(s)"), "{scan}");
    let first = scan
        .lines()
        .nth(2)
        .and_then(|l| l.split_whitespace().next())
        .ok_or("no row printed")?
        .to_string();
    assert_eq!(first.len(), 10, "{scan}");
    assert!(first.starts_with('1') && first.bytes().all(|b| b.is_ascii_digit()));
    s.apply(Action::Submit(format!("get 'sg_seq', '{first}'")));
    let got = last_entry(&s);
    assert!(got.contains("\n u:name timestamp=2024-01-01T"), "{got}");
    assert!(got.contains("\n1 row(s)\n"), "{got}");
    // The person's table is not there, and a write to the sample is not saved.
    s.apply(Action::Submit("count 't'".into()));
    assert!(
        last_entry(&s).contains("Unknown table t!"),
        "{}",
        last_entry(&s)
    );
    let fx = s.apply(Action::Submit("put 'sg_seq', 'x', 'u:name', 'v'".into()));
    assert!(!fx.contains(&Effect::SaveChanges), "{fx:?}");

    // Back: the person's table as it was, the sample gone, their selection again.
    let fx = s.apply(Action::LeaveSample);
    assert!(!s.on_sample());
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(tables(&s), vec!["t"]);
    assert_eq!(s.selected_table.as_deref(), Some("t"));
    assert_eq!(s.selected_row.as_deref(), Some(&b"r2"[..]));
    let fx = s.apply(Action::Submit("count 't'".into()));
    assert!(last_entry(&s).contains("2 row(s)"), "{}", last_entry(&s));
    assert!(fx.contains(&Effect::SaveChanges));
    // Leaving twice changes nothing.
    assert!(s.apply(Action::LeaveSample).is_empty());
    assert_eq!(tables(&s), vec!["t"]);
    Ok(())
}

#[test]
fn an_action_about_the_persons_tables_returns_to_them_first() -> TestResult {
    // A gallery design loads into the person's tables, never into the sample.
    let mut s = with_own_table()?;
    s.apply(Action::OpenSample(Box::new(sample()?), "a test".into()));
    let fx = s.apply(Action::OpenDesign("csdn.blog"));
    assert!(!s.on_sample());
    assert!(fx.contains(&Effect::SaveChanges));
    assert_eq!(tables(&s), vec!["blog", "t"]);

    // An import built over the sample's engine is refused: it would replace the person's
    // tables with the sample.
    let mut s = with_own_table()?;
    s.apply(Action::OpenSample(Box::new(sample()?), "a test".into()));
    let engine = rowkey::engine::Engine::new(Box::new(|| 1));
    let fx = s.apply(Action::Imported(Box::new(engine), "Imported".into()));
    assert!(fx.is_empty(), "{fx:?}");
    assert!(s.on_sample());
    assert!(last_entry(&s).contains("nothing was imported"));
    s.apply(Action::LeaveSample);
    assert_eq!(tables(&s), vec!["t"]);

    // Reset empties the person's tables (not the sample's), and saying so is an effect again.
    let mut s = with_own_table()?;
    s.apply(Action::OpenSample(Box::new(sample()?), "a test".into()));
    let fx = s.apply(Action::Reset);
    assert!(!s.on_sample());
    assert!(fx.contains(&Effect::ClearStorage), "{fx:?}");
    assert!(tables(&s).is_empty());

    // A second sample replaces the first; leaving still returns to the person's own tables.
    let mut s = with_own_table()?;
    s.apply(Action::OpenSample(Box::new(sample()?), "first".into()));
    s.apply(Action::OpenSample(Box::new(sample()?), "second".into()));
    assert_eq!(s.sample.as_ref().map(|o| o.title.as_str()), Some("second"));
    s.apply(Action::LeaveSample);
    assert_eq!(tables(&s), vec!["t"]);
    assert_eq!(s.selected_table.as_deref(), Some("t"));
    Ok(())
}

#[test]
fn an_export_while_the_sample_is_on_show_is_of_the_persons_own_tables() -> TestResult {
    let mut s = with_own_table()?;
    let own =
        s.with_own_tables(|engine, table| (export_script(engine, None), table.map(String::from)));
    assert_eq!(own.1.as_deref(), Some("t"));
    s.apply(Action::OpenSample(Box::new(sample()?), "a test".into()));
    // The console reads the sample; an export (and the rescue offered when saving fails) reads
    // the person's tables and their selection, set aside.
    let exported =
        s.with_own_tables(|engine, table| (export_script(engine, None), table.map(String::from)));
    assert_eq!(exported, own);
    assert!(
        exported.0.contains("put 't', 'r2', 'f:a', 'two'"),
        "{}",
        exported.0
    );
    assert!(!exported.0.contains("sg_seq"));
    s.apply(Action::LeaveSample);
    assert_eq!(
        s.with_own_tables(|engine, table| (export_script(engine, None), table.map(String::from))),
        own
    );
    Ok(())
}
