//! The app's logic without a page: a newcomer's first minutes driven through
//! [`rowkey::session::Session`] (a gallery design loaded, an access pattern and a tour step
//! run, a shared link opened, a question answered, preferences set, everything reset),
//! asserting what the console shows, what is selected and the effects the page must perform.
use std::cell::Cell;
use std::rc::Rc;

use rowkey::designs::loads::Placement;
use rowkey::dialect::{Dialect, HistoryLine};
use rowkey::session::prefs::{Prefs, Theme};
use rowkey::session::{Action, Choice, Clocks, Effect, Saved, Session, STEP_MS};
use rowkey::share::Shared;
use rowkey::simulate::gallery;

mod common;
use common::session::{fresh, last_entry, tables, transcript};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The rows `count` finds in `table`, as the shell prints them.
fn rows(s: &Session, table: &str) -> String {
    let outcomes = s
        .console
        .borrow_mut()
        .shell
        .run(&format!("count '{table}'"));
    outcomes
        .iter()
        .flat_map(|o| {
            o.output
                .lines()
                .filter(|l| l.ends_with(" row(s)"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn saved_history_texts(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .find_map(|e| match e {
            Effect::SaveHistory(v) => Some(rowkey::dialect::decode_history(v)),
            _ => None,
        })
        .unwrap_or_default()
        .into_iter()
        .map(|l| l.text)
        .collect()
}

#[test]
fn a_design_loads_then_a_pattern_and_a_tour_step_run_on_it() -> TestResult {
    let mut s = fresh();
    let fx = s.apply(Action::OpenDesign("csdn.blog"));
    let own = Placement::own(&["blog"]);
    let mut loads = rowkey::designs::loads::Loads::default();
    loads.record("csdn.blog", own.clone());
    assert_eq!(fx, vec![Effect::SaveLoads(loads), Effect::SaveChanges]);
    assert_eq!(s.selected_design, Some("csdn.blog"));
    assert_eq!(s.selected_table.as_deref(), Some("blog"));
    assert_eq!(
        s.placement(&rowkey::designs::find("csdn.blog").ok_or("no design")?),
        own
    );
    assert_eq!(
        transcript(&s),
        vec!["Loaded the design “A year of blog posts keyed by reverse time”: tables blog, with the medium sample (30001 commands). Its access patterns are buttons on the design’s card.\n"]
    );
    // Opening it again shows what is there: nothing runs twice.
    assert_eq!(s.apply(Action::OpenDesign("csdn.blog")).len(), 1);
    assert_eq!(transcript(&s).len(), 1);

    // The first access pattern: one range count over one user's month, measured whole.
    let fx = s.apply(Action::RunPattern(0));
    let pattern = "count 'blog', {STARTROW => '123_9223370364323576807', STOPROW => '123_9223370367001975807'}";
    assert_eq!(saved_history_texts(&fx), vec![pattern]);
    assert!(fx.contains(&Effect::SaveChanges));
    // A pattern runs from its button: what the person was typing stays in the input, and the
    // focus stays on the button (the input is focused only when its text changes).
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::ShowInput(_))),
        "{fx:?}"
    );
    let (id, index, run) = s.pattern_run.clone().ok_or("no pattern run")?;
    assert_eq!((id, index), ("csdn.blog", 0));
    let m = &run.measures;
    assert_eq!(
        (
            m.reads,
            m.rows_scanned,
            m.rows_returned,
            m.regions_touched,
            m.rows_written
        ),
        (1, 849, 849, 4, 0)
    );
    assert_eq!(
        last_entry(&s),
        format!("hbase:001:0> {pattern}\n849 row(s)\nTook 0.0000 seconds\n=> 849\n")
    );
    // A pattern asks for the view its numbers point at: a range count's is Regions & read (tab 2).
    assert_eq!(s.view_request, (2, 1));

    // The tour's first step counts the table and asks for the Keyspace view (tab 0).
    let fx = s.apply(Action::RunTourStep(0));
    assert_eq!(saved_history_texts(&fx), vec![pattern, "count 'blog'"]);
    let (_, step, run) = s.tour_run.clone().ok_or("no tour run")?;
    assert_eq!(step, 0);
    assert_eq!(
        (run.measures.rows_scanned, run.measures.rows_returned),
        (10_000, 10_000)
    );
    assert!(run.all_hold());
    assert!(
        s.pattern_run.is_none(),
        "the card shows the step's numbers now"
    );
    assert_eq!(s.view_request, (0, 2));
    let entry = last_entry(&s);
    assert!(
        entry.starts_with(
            "hbase:002:0> count 'blog'\nCurrent count: 1000, row: 123_9223370367477175807\n"
        ),
        "{entry}"
    );
    assert!(
        entry.ends_with("10000 row(s)\nTook 0.0000 seconds\n=> 10000\n"),
        "{entry}"
    );
    // The last step runs the fourth pattern and asks for the Hotspots view (tab 1).
    let last = rowkey::designs::tour::tour(&rowkey::designs::find("csdn.blog").ok_or("no design")?)
        .len()
        - 1;
    s.apply(Action::RunTourStep(last));
    assert_eq!(s.view_request, (1, 3));
    // A step that does not exist changes nothing.
    assert_eq!(s.apply(Action::RunTourStep(99)), vec![]);
    s.apply(Action::CloseDesign);
    assert_eq!((s.selected_design, s.tour_run.is_none()), (None, true));
    Ok(())
}

#[test]
fn typed_lines_run_in_the_dialect_chosen_and_the_views_follow_their_table() -> TestResult {
    let mut s = fresh();
    let fx = s.apply(Action::Submit(
        "create 'users', 'info'\nput 'users', 'u1', 'info:n', 'Ada'".into(),
    ));
    assert!(fx.contains(&Effect::SaveChanges));
    assert_eq!(saved_history_texts(&fx).len(), 1);
    assert_eq!(s.selected_table.as_deref(), Some("users"));
    s.apply(Action::SetDialect(Dialect::Cbt));
    s.apply(Action::Submit(
        "createtable events families=e\nset events r1 e:c=v@1000".into(),
    ));
    assert_eq!(s.selected_table.as_deref(), Some("events"));
    let entry = last_entry(&s);
    assert!(
        entry.starts_with("cbt> createtable events families=e"),
        "{entry}"
    );
    // Up brings back the last line, in the input.
    let fx = s.apply(Action::HistoryUp(String::new()));
    assert_eq!(
        fx,
        vec![Effect::ShowInput(
            "createtable events families=e\nset events r1 e:c=v@1000".into()
        )]
    );
    // While the stored tables load, nothing runs.
    s.loading = true;
    assert_eq!(s.apply(Action::Submit("list".into())), vec![]);
    Ok(())
}

#[test]
fn a_link_changes_nothing_until_run_and_runs_each_entry_in_its_dialect() -> TestResult {
    let mut s = fresh();
    s.apply(Action::Submit(
        "create 'users', 'info'\nput 'users', 'u1', 'info:n', 'Ada'".into(),
    ));
    let workload = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    let link = Shared {
        design: None,
        entries: vec![
            HistoryLine::hbase("t = get_table 'users'"),
            HistoryLine::hbase("t.deleteall 'u1'"),
            HistoryLine {
                dialect: Dialect::Cbt,
                text: "createtable events families=e".into(),
            },
            HistoryLine::hbase("list"),
        ],
        workload: Some(workload.clone()),
    };
    // The link is read: it names the table it would change, and nothing ran.
    let changed =
        rowkey::share::tables_changed(&link.entries, |t| s.console.borrow().shell.engine.exists(t));
    assert_eq!(changed, vec!["users"]);
    assert_eq!(s.apply(Action::LinkOpened(Ok(link.clone()))), vec![]);
    assert_eq!(rows(&s, "users"), "1 row(s)");
    let entries = transcript(&s).len();

    // Cancel: the link goes from the address, and nothing else happens.
    assert_eq!(
        s.apply(Action::RunLink(false)),
        vec![Effect::ForgetFragment]
    );
    assert!(s.link.is_none());
    assert_eq!(
        (rows(&s, "users"), transcript(&s).len()),
        ("1 row(s)".into(), entries)
    );

    // Run: the workload becomes the simulator's (its tab asked for), and the entries run,
    // the HBase ones as one entry, then the cbt one, then the last HBase line.
    s.apply(Action::LinkOpened(Ok(link)));
    let fx = s.apply(Action::RunLink(true));
    assert!(fx.contains(&Effect::ForgetFragment));
    assert!(fx.contains(&Effect::SaveWorkload(workload)));
    assert_eq!(s.view_request, (5, 1));
    assert_eq!(rows(&s, "users"), "0 row(s)");
    let shown = transcript(&s);
    assert_eq!(shown.len(), entries + 3, "{shown:#?}");
    assert!(
        shown[entries].starts_with("hbase:003:0> t = get_table 'users'\n"),
        "{}",
        shown[entries]
    );
    assert!(
        shown[entries + 1].starts_with("cbt> createtable events families=e\n"),
        "{}",
        shown[entries + 1]
    );
    assert!(
        shown[entries + 2].starts_with("hbase:006:0> list\nTABLE\nevents\nusers\n"),
        "{}",
        shown[entries + 2]
    );
    Ok(())
}

#[test]
fn a_slow_link_runs_its_entries_one_after_another_on_the_runner() -> TestResult {
    let mut s = slow();
    let puts: Vec<String> = (0..100)
        .map(|i| format!("put 'a', 'r{i:03}', 'f:q', '{i}'"))
        .collect();
    let link = Shared {
        design: None,
        entries: vec![
            HistoryLine::hbase(format!("create 'a', 'f'\n{}", puts.join("\n"))),
            HistoryLine {
                dialect: Dialect::Cbt,
                text: "ls".into(),
            },
        ],
        workload: None,
    };
    s.apply(Action::LinkOpened(Ok(link)));
    s.apply(Action::RunLink(true));
    assert!(s.console.borrow().is_running());
    assert_eq!(s.backlog.len(), 1);
    let mut steps = 0;
    while s.console.borrow().is_running() {
        let perf = Rc::new(|| SLOW.with(|t| t.get()));
        s.console.borrow_mut().step(&mut || perf(), STEP_MS);
        s.apply(Action::Ran);
        steps += 1;
        assert!(steps < 20, "the runner never ends");
    }
    // 101 statements: the first look of 32 ran on submit, three more steps ran the rest, and
    // the last one's Ran started `ls`, which ran whole in its first step.
    assert_eq!(steps, 3);
    assert!(s.backlog.is_empty());
    assert_eq!(rows(&s, "a"), "100 row(s)");
    let shown = transcript(&s);
    assert_eq!(shown.len(), 2);
    // cbt's `ls` lists every table, the HBase table `a` too.
    assert_eq!(shown[1], "cbt> ls\na\n");
    Ok(())
}

#[test]
fn a_design_in_the_way_of_a_table_of_yours_asks_and_a_links_entries_wait_for_the_answer(
) -> TestResult {
    let mut s = fresh();
    s.apply(Action::Submit(
        "create 'blog', 'mine'\nput 'blog', 'x', 'mine:q', 'kept'".into(),
    ));
    let link = Shared {
        design: Some("csdn.blog".into()),
        entries: vec![HistoryLine::hbase("count 'blog'")],
        workload: None,
    };
    s.apply(Action::LinkOpened(Ok(link)));
    s.apply(Action::RunLink(true));
    let pending = s.pending.clone().ok_or("no question")?;
    assert_eq!(pending.clash.taken, vec!["blog"]);
    assert_eq!(s.queued.as_ref().map(|q| q.len()), Some(1));
    assert_eq!(
        rows(&s, "blog"),
        "1 row(s)",
        "the person's table is untouched"
    );
    // Load under other names: the design goes to blog_2, the link's count runs on it.
    let fx = s.apply(Action::Resolve(Choice::Rename));
    assert!(s.pending.is_none() && s.queued.is_none());
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::SaveLoads(l) if l.owner("blog_2") == Some("csdn.blog"))));
    assert_eq!(rows(&s, "blog"), "1 row(s)");
    assert_eq!(rows(&s, "blog_2"), "10000 row(s)");
    assert!(
        last_entry(&s).starts_with("hbase:003:0> count 'blog_2'\n"),
        "{}",
        last_entry(&s)
    );
    Ok(())
}

#[test]
fn preferences_and_reset_are_effects_for_the_page() -> TestResult {
    let mut s = fresh();
    let prefs = Prefs {
        theme: Theme::Dark,
        ..Prefs::default()
    };
    assert_eq!(
        s.apply(Action::SetPrefs(prefs)),
        vec![Effect::SavePrefs(prefs), Effect::ApplyTheme(Theme::Dark)]
    );
    s.apply(Action::OpenDesign("csdn.blog"));
    s.apply(Action::QuickStart);
    assert_eq!(s.selected_table.as_deref(), Some("users"));
    // The design's note, then each of the six steps' note and its entry, nothing left waiting.
    assert_eq!(transcript(&s).len(), 13);
    assert!(s.backlog.is_empty());
    assert!(
        transcript(&s)[1].starts_with("A table with two column families"),
        "{}",
        transcript(&s)[1]
    );
    assert_eq!(
        last_entry(&s),
        "hbase:007:0> get 'users', 'u001', {COLUMN => 'info:name', VERSIONS => 3}\n\
         COLUMN  CELL\n \
         info:name timestamp=2023-11-14T22:13:50.004, value=Ada Lovelace\n \
         info:name timestamp=2023-11-14T22:13:50.002, value=Ada\n\
         1 row(s)\nTook 0.0000 seconds\n"
    );
    let fx = s.apply(Action::Reset);
    assert_eq!(
        fx,
        vec![
            Effect::ForgetHistory,
            Effect::SaveLoads(Default::default()),
            Effect::ClearStorage,
            Effect::ShowInput(String::new()),
        ]
    );
    assert_eq!((s.selected_table.clone(), s.selected_design), (None, None));
    assert!(transcript(&s).is_empty());
    assert_eq!(s.console.borrow().shell.engine.tables().count(), 0);
    // The prompt starts again at 1, as a new shell's does.
    assert_eq!(s.console.borrow().next_number(), 1);
    s.apply(Action::Submit("list".into()));
    assert!(
        last_entry(&s).starts_with(
            "hbase:001:0> list
"
        ),
        "{}",
        last_entry(&s)
    );
    Ok(())
}

#[test]
fn an_import_over_a_table_of_yours_asks_and_runs_through_the_console() -> TestResult {
    let mut s = fresh();
    s.apply(Action::Submit(
        "create 'people', 'info'\nput 'people', 'mine', 'info:n', 'kept'".into(),
    ));
    let csv = "row,info:name\nu1,Ada\nu2,Grace\n";
    let table = Rc::new(rowkey::import::parse_csv(csv, 1_700_000_000_000)?);
    // The name is taken: a question, and the person's table as it was.
    assert_eq!(
        s.apply(Action::ImportTable(table.clone(), "people".into())),
        vec![]
    );
    assert_eq!(
        s.pending.as_ref().map(|p| p.clash.taken.clone()),
        Some(vec!["people".to_string()])
    );
    assert_eq!(rows(&s, "people"), "1 row(s)");
    // Under the free name: the import runs as an entry, the person's table untouched.
    let fx = s.apply(Action::Resolve(Choice::Rename));
    assert!(fx.contains(&Effect::SaveChanges));
    assert_eq!(rows(&s, "people"), "1 row(s)");
    assert_eq!(rows(&s, "people_2"), "2 row(s)");
    assert_eq!(s.selected_table.as_deref(), Some("people_2"));
    // Over it, when the person says Replace: dropped first, then created from the file.
    s.apply(Action::ImportTable(table, "people".into()));
    s.apply(Action::Resolve(Choice::Replace));
    assert_eq!(rows(&s, "people"), "2 row(s)");
    assert!(
        last_entry(&s).contains("disable 'people'"),
        "{}",
        last_entry(&s)
    );
    Ok(())
}

thread_local!(static SLOW: Cell<f64> = const { Cell::new(0.0) });

/// A session whose timer moves 100 ms a read, so that every step of the runner runs one look
/// (32 statements), as on a slow page.
fn slow() -> Session {
    Session::new(
        Clocks {
            perf_ms: Rc::new(|| {
                SLOW.with(|t| {
                    t.set(t.get() + 100.0);
                    t.get()
                })
            }),
            ..Clocks::fixed(1_700_000_000_000)
        },
        Saved::default(),
    )
}

#[test]
fn a_long_tour_step_runs_in_steps_and_measures_what_it_measures_whole() -> TestResult {
    let design = rowkey::designs::find("schema.salting").ok_or("no design")?;
    let steps = rowkey::designs::tour::tour(&design);
    let (index, step) = steps
        .iter()
        .enumerate()
        .find(|(_, s)| s.command.lines().count() > 64)
        .ok_or("no long step")?;
    let mut whole = fresh();
    whole.apply(Action::OpenDesign("schema.salting"));
    whole.apply(Action::RunTourStep(index));
    let expected = whole.tour_run.clone().ok_or("no run")?.2;

    let mut s = slow();
    s.apply(Action::OpenDesign("schema.salting"));
    s.apply(Action::RunTourStep(index));
    // The first look ran; the rest waits for the runner, and the card has no numbers yet.
    assert!(s.console.borrow().is_running());
    assert!(s.tour_run.is_none());
    assert_eq!(
        s.console.borrow().shell.page_rows,
        None,
        "measured whole: no paging"
    );
    let mut steps_run = 0;
    while s.console.borrow().is_running() {
        let perf = Rc::new(|| 0.0);
        s.console.borrow_mut().step(&mut || perf(), STEP_MS);
        s.apply(Action::Ran);
        steps_run += 1;
    }
    let lines = step.command.lines().count();
    assert_eq!(
        steps_run, 1,
        "{lines} lines: a free timer runs the rest in one step"
    );
    let (_, at, run) = s.tour_run.clone().ok_or("no run after the steps")?;
    assert_eq!(at, index);
    assert_eq!(run.measures, expected.measures);
    assert_eq!(run.checks, expected.checks);
    assert!(s.console.borrow().shell.page_rows.is_some(), "paging again");
    Ok(())
}

#[test]
fn a_cancelled_pattern_leaves_no_numbers_and_the_console_pages_again() -> TestResult {
    let mut s = slow();
    s.apply(Action::OpenDesign("schema.salting"));
    let design = rowkey::designs::find("schema.salting").ok_or("no design")?;
    let index = design
        .patterns
        .iter()
        .position(|p| p.command.lines().count() > 64)
        .ok_or("no long pattern")?;
    s.apply(Action::RunPattern(index));
    assert!(s.console.borrow().is_running());
    s.apply(Action::Cancel);
    assert!(!s.console.borrow().is_running());
    assert!(s.pattern_run.is_none());
    assert!(s.console.borrow().shell.page_rows.is_some());
    assert!(s.console.borrow().measured.is_none());
    Ok(())
}

/// A newcomer's first minutes, end to end: the quick start, a gallery design and one of its
/// patterns, a cbt line; then the session shared as a link and opened in a fresh session,
/// where Run brings the same tables and rows.
#[test]
fn a_newcomers_session_travels_by_link_to_a_fresh_one() -> TestResult {
    let mut a = fresh();
    a.apply(Action::QuickStart);
    a.apply(Action::OpenDesign("schema.reversed-domain"));
    a.apply(Action::RunPattern(0));
    a.apply(Action::SetDialect(Dialect::Cbt));
    a.apply(Action::Submit(
        "createtable notes families=n\nset notes r1 n:text=hello@1000".into(),
    ));
    let shared = Shared {
        design: a.selected_design.map(str::to_string),
        entries: a.console.borrow().history_lines(),
        workload: None,
    };
    assert_eq!(
        shared.entries.iter().map(|e| e.dialect).collect::<Vec<_>>(),
        [vec![Dialect::HBase; 7], vec![Dialect::Cbt]].concat()
    );
    let link = rowkey::share::encode(&shared)?;
    let opened = rowkey::share::decode(&link)?;
    assert_eq!(opened, shared);

    let mut b = fresh();
    b.apply(Action::LinkOpened(Ok(opened)));
    assert_eq!(
        b.console.borrow().shell.engine.tables().count(),
        0,
        "nothing before Run"
    );
    b.apply(Action::RunLink(true));
    assert_eq!(tables(&b), tables(&a));
    for t in ["users", "sg_domain", "sg_domain_plain"] {
        assert_eq!(rows(&b, t), rows(&a, t), "{t}");
    }
    assert_eq!(rows(&b, "users"), "2 row(s)");
    assert_eq!(b.selected_design, Some("schema.reversed-domain"));
    // The cbt line ran as cbt: its cell is there at its microsecond timestamp.
    b.apply(Action::SetDialect(Dialect::Cbt));
    b.apply(Action::Submit("lookup notes r1".into()));
    assert!(last_entry(&b).contains("\"hello\""), "{}", last_entry(&b));
    Ok(())
}
