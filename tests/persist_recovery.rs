//! Saving after every command and loading back: the same tables; a crash after any save
//! loads the state of that moment; damaged records are reported and skipped.
mod common;
use common::*;
use rowkey::engine::{Engine, Scan};
use rowkey::persist::{load, SavePlan, Saver, StoredRecords};

/// Every cell of every table as text, for comparing states.
fn dump(e: &Engine) -> Vec<String> {
    let names: Vec<String> = e.tables().map(|t| t.descriptor.name.clone()).collect();
    let mut out = Vec::new();
    for n in names {
        let t = match e.table(&n) {
            Ok(t) => t,
            Err(_) => continue,
        };
        out.push(format!(
            "table {n} enabled={} regions={:?}",
            t.enabled,
            t.regions
                .iter()
                .map(|r| r.start.clone())
                .collect::<Vec<_>>()
        ));
        if !t.enabled {
            continue;
        }
        let mut raw = Scan {
            raw: true,
            max_versions: u32::MAX,
            ..Scan::default()
        };
        for row in e.read(&n, &mut raw).map(|o| o.rows).unwrap_or_default() {
            for c in row.cells {
                out.push(format!(
                    "{:?} {:?}:{:?} {} {:?} {:?}",
                    c.row, c.family, c.qualifier, c.timestamp, c.kind, c.value
                ));
            }
        }
    }
    out
}

fn script() -> Vec<String> {
    let mut cmds = vec![
        "create 't', {NAME => 'f', VERSIONS => 3}, 'g'".to_string(),
        "create 'u', 'f', SPLITS => ['m']".to_string(),
    ];
    for i in 0..400 {
        cmds.push(format!(
            "put 't', 'row{:04}', 'f:q', 'value number {i}'",
            (i * 37) % 500
        ));
        if i % 50 == 0 {
            cmds.push(format!("deleteall 't', 'row{:04}'", (i * 11) % 500));
            cmds.push(format!("put 'u', 'k{i}', 'f:x', '{i}'"));
        }
    }
    cmds.extend(
        [
            "flush 'u'",
            "major_compact 't'",
            "disable 'u'",
            "alter 't', NAME => 'g', VERSIONS => 2",
            "put 't', 'zz', 'g:a', 'last'",
        ]
        .map(String::from),
    );
    cmds
}

#[test]
fn save_after_every_command_then_load_gives_the_same_tables() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    let mut key = 0;
    let mut checkpoints = 0;
    for cmd in script() {
        sh.run(&cmd);
        let plan = saver.plan(&mut sh.engine);
        checkpoints += usize::from(plan.is_checkpoint());
        stored.apply(&plan, &mut key);
    }
    assert!(
        checkpoints > 5,
        "flushes and splits made checkpoints: {checkpoints}"
    );
    assert!(!stored.wal.is_empty() || stored.memstores.is_some());
    let loaded = load(Box::new(|| 1_700_000_000_000), stored);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(dump(&loaded.engine), dump(&sh.engine));
    // The server clock carries on past what was saved.
    let mut e = loaded.engine;
    assert_eq!(e.clocks(), sh.engine.clocks());
    e.mutate("t", b"after", &[put("f", "q", None, "x")])?;
    Ok(())
}

#[test]
fn a_crash_after_any_save_loads_the_state_of_that_moment() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut plans: Vec<SavePlan> = Vec::new();
    let mut states = Vec::new();
    for cmd in script().into_iter().take(260) {
        sh.run(&cmd);
        plans.push(saver.plan(&mut sh.engine));
        states.push(dump(&sh.engine));
    }
    for k in [1, 2, 3, 17, 60, 61, 150, 259] {
        let mut stored = StoredRecords::default();
        let mut key = 0;
        for p in &plans[..k] {
            stored.apply(p, &mut key);
        }
        let loaded = load(Box::new(|| 1_700_000_000_000), stored);
        assert!(loaded.problems.is_empty());
        assert_eq!(dump(&loaded.engine), states[k - 1], "state after save {k}");
    }
}

#[test]
fn damaged_records_are_reported_and_skipped() {
    let (mut sh, _) = shell_at(1_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    let mut key = 0;
    for cmd in [
        "create 't', 'f'",
        "put 't', 'a', 'f:q', '1'",
        "put 't', 'b', 'f:q', '2'",
        "put 't', 'c', 'f:q', '3'",
    ] {
        sh.run(cmd);
        stored.apply(&saver.plan(&mut sh.engine), &mut key);
    }
    assert_eq!(stored.wal.len(), 3);
    let last = stored.wal[1].1.len() - 1;
    stored.wal[1].1[last] ^= 0xFF;
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert_eq!(loaded.problems.len(), 1);
    assert!(
        loaded.problems[0].starts_with("log record 2 is damaged (checksum mismatch"),
        "{:?}",
        loaded.problems
    );
    let mut e = loaded.engine;
    let rows: Vec<Vec<u8>> = e
        .scan("t", &mut Scan::default())
        .map(|o| o.rows.into_iter().map(|r| r.row).collect())
        .unwrap_or_default();
    assert_eq!(rows, vec![b"a".to_vec(), b"c".to_vec()]);
    // The next save checkpoints what was recovered, so the damage does not linger.
    let mut saver = loaded.saver;
    assert!(saver.plan(&mut e).is_checkpoint());

    let mut broken = stored;
    broken.catalog = Some(b"RKEY garbage".to_vec());
    let loaded = load(Box::new(|| 1_000), broken);
    assert!(loaded
        .problems
        .iter()
        .any(|p| p.starts_with("the catalog is damaged")));
    assert_eq!(loaded.engine.tables().count(), 0);
}

#[test]
fn a_failed_save_makes_the_next_one_complete() {
    let (mut sh, _) = shell_at(1_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    sh.run("create 't', 'f'\nput 't', 'a', 'f:q', '1'\nflush 't'");
    let lost = saver.plan(&mut sh.engine);
    assert!(lost.is_checkpoint());
    saver.failed();
    sh.run("put 't', 'b', 'f:q', '2'");
    let plan = saver.plan(&mut sh.engine);
    assert!(
        plan.clear_runs && plan.put_runs.len() == 1,
        "the run the failed save held is written again"
    );
    let mut stored = StoredRecords::default();
    stored.apply(&plan, &mut 0);
    assert_eq!(
        dump(&load(Box::new(|| 1_000), stored).engine),
        dump(&sh.engine)
    );
}
