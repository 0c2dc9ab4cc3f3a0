//! The shell's clock: each command gets a time of its own, `max(clock, previous + 1)`, and
//! every write of one command shares it (`Engine::begin_command`).
//!
//! Each command of HBase's shell is a round trip (`table.rb` `_put_internal` ends in
//! `@table.put(p)`, `_deleteall_internal` in `@table.delete(d)`), and the region server stamps
//! the mutation when it arrives (`HRegion`'s batch, `EnvironmentEdgeManager.currentTime()`), so
//! two commands one after the other do not share a millisecond there. Rowkey runs a pasted
//! script far faster than a round trip; without the logical step its result would depend on
//! how many commands fell into one millisecond.
mod common;
use common::*;

use std::cell::Cell;
use std::rc::Rc;

use rowkey::engine::{Engine, Scan};
use rowkey::shell::{Shell, TimeFormat};

const SCRIPT: &str = "create 't', {NAME => 'f', VERSIONS => 3}
put 't', 'r', 'f:q', 'old'
delete 't', 'r', 'f:q'
put 't', 'r', 'f:q', 'new'
deleteall 't', 'r2'
put 't', 'r2', 'f:q', 'after'
get 't', 'r'
get 't', 'r2'
";

/// A shell whose clock reads `start` and moves `step` milliseconds at each read.
fn shell_on(start: u64, step: u64) -> Shell {
    let now = Rc::new(Cell::new(start));
    let clock = now.clone();
    let mut shell = Shell::new(
        Engine::new(Box::new(move || {
            let t = clock.get();
            clock.set(t + step);
            t
        })),
        Box::new(|| 0.0),
    );
    shell.time_format = TimeFormat::Epoch;
    shell
}

fn raw(shell: &mut Shell) -> Result<Vec<(String, u64, String, String)>, rowkey::engine::Error> {
    let mut scan = Scan {
        raw: true,
        max_versions: 10,
        ..Scan::default()
    };
    Ok(shell
        .engine
        .scan("t", &mut scan)?
        .rows
        .iter()
        .flat_map(|r| r.cells.iter())
        .map(|c| {
            (
                String::from_utf8_lossy(&c.row).into_owned(),
                c.timestamp,
                c.kind.name().to_string(),
                String::from_utf8_lossy(&c.value).into_owned(),
            )
        })
        .collect())
}

#[test]
fn consecutive_commands_get_consecutive_milliseconds_on_a_stopped_clock() -> TestResult {
    let mut shell = shell_on(1_000_000, 0);
    let out = run(&mut shell, SCRIPT);
    // The put after the delete is a millisecond later than the marker, so it is read.
    assert_eq!(
        out,
        "Created table t\n=> Hbase::Table - t\n\
         COLUMN  CELL\n f:q timestamp=1000003, value=new\n1 row(s)\n\
         COLUMN  CELL\n f:q timestamp=1000005, value=after\n1 row(s)\n"
    );
    assert_eq!(
        raw(&mut shell)?,
        vec![
            ("r".into(), 1_000_003, "Put".into(), "new".into()),
            // `delete` marks the newest version, at its timestamp (`HRegion`'s
            // `prepareDeleteTimestamps` for a version delete at LATEST_TIMESTAMP).
            ("r".into(), 1_000_001, "Delete".into(), "".into()),
            ("r".into(), 1_000_001, "Put".into(), "old".into()),
            ("r2".into(), 1_000_004, "DeleteFamily".into(), "".into()),
            ("r2".into(), 1_000_005, "Put".into(), "after".into()),
        ]
        .into_iter()
        .collect::<Vec<_>>()
    );
    Ok(())
}

/// The same script on a stopped clock, a clock that moves a millisecond per read and one that
/// moves a second per read: the same cells are visible each time.
#[test]
fn the_same_script_gives_the_same_result_however_fast_the_clock_moves() -> TestResult {
    let visible = |shell: &mut Shell| -> Result<Vec<String>, rowkey::engine::Error> {
        Ok(shell
            .engine
            .scan("t", &mut Scan::default())?
            .rows
            .iter()
            .flat_map(|r| r.cells.iter())
            .map(|c| {
                format!(
                    "{}/{}={}",
                    String::from_utf8_lossy(&c.row),
                    String::from_utf8_lossy(&c.qualifier),
                    String::from_utf8_lossy(&c.value)
                )
            })
            .collect())
    };
    for (start, step) in [
        (1_000_000, 0),
        (1_000_000, 1),
        (5_000, 1_000),
        (1_000_000, 0),
    ] {
        let mut shell = shell_on(start, step);
        run(&mut shell, SCRIPT);
        assert_eq!(
            visible(&mut shell)?,
            ["r/q=new", "r2/q=after"],
            "clock from {start} by {step}"
        );
    }
    Ok(())
}

/// A clock ahead of the last command's time is taken as it is; one behind it is stepped past.
#[test]
fn a_command_takes_the_clock_when_it_is_ahead() -> TestResult {
    let (mut shell, clock) = shell_at(2_000_000);
    shell.time_format = TimeFormat::Epoch;
    run(&mut shell, "create 't', 'f'\nput 't', 'a', 'f:q', '1'");
    clock.set(3_000_000);
    run(&mut shell, "put 't', 'b', 'f:q', '2'");
    clock.set(1_000);
    run(&mut shell, "put 't', 'c', 'f:q', '3'");
    let stamps: Vec<u64> = raw(&mut shell)?.iter().map(|c| c.1).collect();
    assert_eq!(stamps, [2_000_001, 3_000_000, 3_000_001]);
    Ok(())
}

/// HBase masks a put that lands in its delete marker's millisecond (`ScanDeleteTracker.isDeleted`
/// compares timestamps only), and the command clock keeps that rule: a put given the marker's
/// own timestamp stays hidden, and so do the writes of one command at its one time.
#[test]
fn a_put_in_its_delete_markers_millisecond_is_still_masked() -> TestResult {
    let mut shell = shell_on(1_000_000, 0);
    let out = run(
        &mut shell,
        "create 't', 'f'\ndeleteall 't', 'r'\nput 't', 'r', 'f:q', 'masked', 1000001\nget 't', 'r'",
    );
    assert!(out.contains("0 row(s)\n"), "{out}");
    // Within one command the engine's writes share the command's time: a row delete and then a
    // put, both at that time, leave the put masked.
    let e = &mut shell.engine;
    let ts = e.begin_command();
    assert_eq!(ts, 1_000_004);
    e.mutate(
        "t",
        b"s",
        &[rowkey::engine::Mutation::DeleteRow { timestamp: None }],
    )?;
    e.mutate("t", b"s", &[put("f", "q", None, "masked too")])?;
    e.end_command();
    assert!(e.scan("t", &mut Scan::get(b"s"))?.rows.is_empty());
    assert_eq!(
        raw(&mut shell)?
            .into_iter()
            .filter(|c| c.0 == "s")
            .collect::<Vec<_>>(),
        vec![
            ("s".into(), 1_000_004, "DeleteFamily".into(), "".into()),
            ("s".into(), 1_000_004, "Put".into(), "masked too".into()),
        ]
    );
    Ok(())
}

/// `generate` writes its rows a step at a time when the console pages it; every step keeps the
/// command's time, and the next command is a millisecond after it.
#[test]
fn every_step_of_a_generate_shares_its_commands_time() -> TestResult {
    let mut shell = shell_on(1_000_000, 7);
    shell.gen_budget = Some(100);
    run(&mut shell, "create 't', 'f'");
    let mut outcome = shell
        .run("generate 't', 'k%04d', 350")
        .pop()
        .ok_or("no outcome")?;
    let mut steps = 1;
    while let Some(cont) = outcome.more.take() {
        outcome = shell.resume(cont, 100);
        steps += 1;
    }
    assert_eq!(steps, 4);
    run(&mut shell, "put 't', 'z', 'f:q', 'next'");
    let mut stamps: Vec<u64> = raw(&mut shell)?.iter().map(|c| c.1).collect();
    let last = stamps.pop();
    stamps.dedup();
    // `create` read the clock at 1,000,000, `generate` at 1,000,007 and the put at 1,000,014.
    assert_eq!(stamps, [1_000_007], "one time for all 350 rows");
    assert_eq!(last, Some(1_000_014));
    Ok(())
}

/// `HConstants.LATEST_TIMESTAMP` (`Long.MAX_VALUE`) given as a put's timestamp is the server's
/// time, as `HRegion.updateCellTimestamps` stamps it, and as a delete's it means the latest
/// version, as no timestamp does.
#[test]
fn the_latest_timestamp_given_outright_is_the_servers_time() -> TestResult {
    let mut shell = shell_on(1_000_000, 0);
    let out = run(
        &mut shell,
        "create 't', {NAME => 'f', VERSIONS => 3}\nput 't', 'r', 'f:q', 'old', 10\n\
         put 't', 'r', 'f:q', 'v', 9223372036854775807\nget 't', 'r', {COLUMN => 'f:q', VERSIONS => 3}",
    );
    assert!(
        out.contains(" f:q timestamp=1000002, value=v\n") && !out.contains("9223372036854775807"),
        "{out}"
    );
    let out = run(
        &mut shell,
        "delete 't', 'r', 'f:q', 9223372036854775807\nget 't', 'r', {COLUMN => 'f:q', VERSIONS => 3}",
    );
    assert!(
        out.contains(" f:q timestamp=10, value=old\n1 row(s)"),
        "{out}"
    );
    Ok(())
}
