//! Saving after every command and loading back: the same tables; a crash after any save
//! loads the state of that moment; damaged records are reported and skipped.
mod common;
use common::*;
use rowkey::engine::{Engine, Scan};
use rowkey::persist::{export_kept_runs, load, SavePlan, Saver, StoredRecords};

/// What reads see (every version, deletes applied): a fallback replays cells a compaction had
/// dropped, so raw cells may differ while every read answers the same.
fn visible(e: &Engine) -> Vec<String> {
    let names: Vec<String> = e.tables().map(|t| t.descriptor.name.clone()).collect();
    let mut out = Vec::new();
    for n in names {
        let mut all = Scan {
            max_versions: u32::MAX,
            ..Scan::default()
        };
        for row in e.read(&n, &mut all).map(|o| o.rows).unwrap_or_default() {
            for c in row.cells {
                out.push(format!(
                    "{n} {:?} {:?}:{:?} {} {:?}",
                    c.row, c.family, c.qualifier, c.timestamp, c.value
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
    let mut checkpoints = 0;
    for cmd in script() {
        sh.run(&cmd);
        let plan = saver.plan(&mut sh.engine)?;
        checkpoints += usize::from(plan.is_checkpoint());
        stored.apply(&plan);
    }
    assert!(
        checkpoints > 5,
        "flushes and splits made checkpoints: {checkpoints}"
    );
    assert!(!stored.wal.is_empty() || !stored.memstores.is_empty());
    assert!(
        stored.catalogs.len() == 2,
        "the newest catalog generation and the one before: {:?}",
        stored.catalogs.keys()
    );
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
fn a_crash_after_any_save_loads_the_state_of_that_moment() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut plans: Vec<SavePlan> = Vec::new();
    let mut states = Vec::new();
    for cmd in script().into_iter().take(260) {
        sh.run(&cmd);
        plans.push(saver.plan(&mut sh.engine)?);
        states.push(dump(&sh.engine));
    }
    for k in [1, 2, 3, 17, 60, 61, 150, 259] {
        let mut stored = StoredRecords::default();
        for p in &plans[..k] {
            stored.apply(p);
        }
        let loaded = load(Box::new(|| 1_700_000_000_000), stored);
        assert!(loaded.problems.is_empty());
        assert_eq!(dump(&loaded.engine), states[k - 1], "state after save {k}");
    }
    Ok(())
}

#[test]
fn damaged_records_are_reported_and_skipped() -> TestResult {
    let (_, _, mut stored) = saved_after(&[
        "create 't', 'f'",
        "put 't', 'a', 'f:q', '1'",
        "put 't', 'b', 'f:q', '2'",
        "put 't', 'c', 'f:q', '3'",
    ])?;
    assert_eq!(stored.wal.len(), 3);
    let key = *stored.wal.keys().nth(1).ok_or("a second log record")?;
    let record = stored.wal.get_mut(&key).ok_or("the record")?;
    let last = record.len() - 1;
    record[last] ^= 0xFF;
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert_eq!(loaded.problems.len(), 1);
    assert!(
        loaded.problems[0].starts_with("log record 1.2 is damaged (checksum mismatch"),
        "{:?}",
        loaded.problems
    );
    let mut e = loaded.engine;
    let rows: Vec<Vec<u8>> = e
        .scan("t", &mut Scan::default())
        .map(|o| o.rows.into_iter().map(|r| r.row().to_vec()).collect())
        .unwrap_or_default();
    assert_eq!(rows, vec![b"a".to_vec(), b"c".to_vec()]);
    // The next save checkpoints what was recovered, so the damage does not linger.
    let mut saver = loaded.saver;
    assert!(saver.plan(&mut e)?.is_checkpoint());
    Ok(())
}

#[test]
fn an_activity_record_not_rowkeys_is_named_with_its_invisible_characters_shown() {
    let mut stored = StoredRecords::default();
    stored
        .activity
        .insert("t#one\n\"two\"\u{1b}".to_string(), b"x".to_vec());
    let loaded = load(Box::new(|| 1_000), stored);
    assert_eq!(
        loaded.problems,
        vec![r#"the activity record "t#one\n\"two\"\u{1b}" is not Rowkey's; left alone"#]
    );
}

/// Flips one byte in the middle of a record.
fn flip(bytes: &mut [u8]) {
    let at = bytes.len() / 2;
    bytes[at] ^= 0x20;
}

#[test]
fn a_damaged_catalog_falls_back_to_the_generation_before_and_loses_nothing() -> TestResult {
    let (sh, _, mut stored) = saved_after(&[
        "create 't', 'f', SPLITS => ['m']",
        "put 't', 'a', 'f:q', '1'",
        "put 't', 'x', 'f:q', '2'",
        "flush 't'",
        "put 't', 'b', 'f:q', '3'",
        "delete 't', 'a', 'f:q'",
        "flush 't'",
        "put 't', 'c', 'f:q', '4'",
        "major_compact 't'",
        "put 't', 'd', 'f:q', '5'",
    ])?;
    let want = visible(&sh.engine);
    let (&newest, _) = stored.catalogs.last_key_value().ok_or("a catalog")?;
    assert_eq!(stored.catalogs.len(), 2, "two generations kept");
    flip(stored.catalogs.get_mut(&newest).ok_or("newest")?);
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert!(
        loaded
            .problems
            .iter()
            .any(|p| p.starts_with(&format!("catalog generation {newest} is damaged"))),
        "{:?}",
        loaded.problems
    );
    assert_eq!(loaded.generation, Some(newest - 1));
    assert_eq!(
        visible(&loaded.engine),
        want,
        "the generation before plus the log give every cell"
    );
    // The major compaction's run is named only by the damaged catalog: kept aside, not lost.
    assert!(!loaded.kept_aside.is_empty());
    let script = export_kept_runs(&loaded.kept_aside);
    assert!(script.contains("table 't', family 'f'"), "{script}");
    assert!(
        // Each command has a millisecond of its own: `create` 1000, ..., the put of b 1004.
        script.contains("put 't', 'b', 'f:q', '3', 1004"),
        "{script}"
    );

    // The next checkpoint writes a new generation and keeps what was kept aside.
    let mut e = loaded.engine;
    e.record_changes(true);
    let mut saver = loaded.saver;
    let plan = saver.plan(&mut e)?;
    assert!(plan.is_checkpoint());
    for k in &loaded.kept_aside {
        assert!(
            !plan.delete_runs.contains(&k.id),
            "run {} kept aside is not deleted",
            k.id
        );
    }
    assert!(
        !plan.delete_generations.contains(&newest),
        "the damaged catalog is kept aside too"
    );
    stored.apply(&plan);
    let again = load(Box::new(|| 1_000), stored.clone());
    assert_eq!(visible(&again.engine), want);
    assert_eq!(again.kept_aside.len(), loaded.kept_aside.len());
    // Only when the person says so.
    let mut saver = again.saver;
    let discard = saver.discard_kept_aside();
    assert!(discard.delete_generations.contains(&newest));
    stored.apply(&discard);
    let last = load(Box::new(|| 1_000), stored);
    assert!(last.kept_aside.is_empty());
    assert_eq!(visible(&last.engine), want);
    Ok(())
}

#[test]
fn a_damaged_run_is_named_kept_aside_and_the_intact_runs_load() -> TestResult {
    let (_, _, mut stored) = saved_after(&[
        "create 't', 'f', SPLITS => ['m']",
        "put 't', 'a', 'f:q', '1'",
        "put 't', 'x', 'f:q', '2'",
        "flush 't'",
    ])?;
    assert_eq!(stored.runs.len(), 2, "one run per region");
    let (&bad, _) = stored.runs.first_key_value().ok_or("a run")?;
    flip(stored.runs.get_mut(&bad).ok_or("run")?);
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert!(loaded
        .problems
        .iter()
        .any(|p| p.starts_with(&format!("sorted run {bad} is damaged"))));
    let rows: Vec<String> = dump(&loaded.engine);
    assert!(
        rows.iter().any(|r| r.contains("[120]")),
        "the intact run (row x) loads: {rows:?}"
    );
    let mut saver = loaded.saver;
    let mut e = loaded.engine;
    let plan = saver.plan(&mut e)?;
    assert!(
        !plan.delete_runs.contains(&bad),
        "the damaged run is kept aside"
    );
    Ok(())
}

#[test]
fn a_checkpoint_keeps_the_runs_of_the_generation_before() -> TestResult {
    let (mut sh, mut saver, mut stored) = saved_after(&[
        "create 't', 'f'",
        "put 't', 'a', 'f:q', '1'",
        "flush 't'",
        "put 't', 'b', 'f:q', '2'",
        "flush 't'",
    ])?;
    let before: Vec<u64> = stored.runs.keys().copied().collect();
    assert_eq!(before.len(), 2);
    sh.run("major_compact 't'");
    let plan = saver.plan(&mut sh.engine)?;
    assert_eq!(plan.put_runs.len(), 1, "only the new run is written");
    assert!(
        plan.delete_runs.is_empty(),
        "the compacted runs stay for the generation before"
    );
    stored.apply(&plan);
    sh.run("put 't', 'c', 'f:q', '3'\nflush 't'");
    let plan = saver.plan(&mut sh.engine)?;
    let mut deleted = plan.delete_runs.clone();
    deleted.sort_unstable();
    assert_eq!(deleted, before, "one checkpoint later they go");
    Ok(())
}

#[test]
fn the_activity_history_is_stored_outside_the_catalog_and_comes_back() -> TestResult {
    let (sh, _, stored) = saved_after(&[
        "create 't', 'f'",
        "put 't', 'a', 'f:q', '1'",
        "get 't', 'a'",
        "scan 't'",
        "alter 't', NAME => 'f', VERSIONS => 2",
    ])?;
    let catalog = stored.catalogs.values().last().ok_or("a catalog")?;
    let text = String::from_utf8_lossy(catalog);
    assert!(
        !text.contains("\"ops\""),
        "the catalog holds no history: {text}"
    );
    assert!(stored.activity.contains_key("t"));
    let loaded = load(Box::new(|| 1_000), stored);
    assert!(sh.engine.activity("t").is_some());
    assert_eq!(history(&loaded.engine, "t"), history(&sh.engine, "t"));
    Ok(())
}

/// Writes and reads after the last checkpoint: each save carries what the history recorded
/// with its log record (or alone, after reads), so a reload finds the history the page showed
/// when it said "saved", not the one of the last checkpoint (a table's `create`).
#[test]
fn the_history_after_the_last_checkpoint_comes_back_too() -> TestResult {
    let (sh, _, stored) = saved_after(&[
        "create 't', 'f'",
        "put 't', 'a', 'f:q', '1'",
        "put 't', 'b', 'f:q', '2'",
        "incr 't', 'c', 'f:n', 3",
        "get 't', 'a'",
        "scan 't'",
        "count 't'",
    ])?;
    let loaded = load(Box::new(|| 1_000), stored);
    assert_eq!(history(&loaded.engine, "t"), history(&sh.engine, "t"));
    let counts = |e: &rowkey::engine::Engine| e.activity("t").map(|a| (a.writes, a.reads));
    assert_eq!(counts(&loaded.engine), Some((3, 3)));
    assert_eq!(counts(&loaded.engine), counts(&sh.engine));
    Ok(())
}

/// A table dropped and made again under its name between two saves (one batch), whose new
/// history has grown past what the store held of the old one: the store's chunks of 4,096
/// operations are the old table's, and the reload finds the new history alone, not the old
/// table's first chunk with the new operations after it.
#[test]
fn a_table_made_again_in_one_batch_comes_back_with_its_own_history() -> TestResult {
    let puts = |prefix: &str, n: usize| -> String {
        (0..n)
            .map(|i| format!("put 'hx', '{prefix}{i:05}', 'f:q', 'v'\n"))
            .collect()
    };
    let again = format!(
        "disable 'hx'\ndrop 'hx'\ncreate 'hx', 'f'\n{}",
        puts("z", 4_200)
    );
    let (sh, _, stored) = saved_after(&["create 'hx', 'f'", &puts("a", 4_100), &again])?;
    let loaded = load(Box::new(|| 1_000), stored);
    assert_eq!(history(&loaded.engine, "hx"), history(&sh.engine, "hx"));
    assert_eq!(loaded.engine.activity("hx").map(|a| a.writes), Some(4_200));
    Ok(())
}

#[test]
fn a_checkpoint_stores_every_history_as_it_is_now_also_when_only_one_changed() -> TestResult {
    // Checkpoints re-encode only the histories that changed since the last one: a read of `b`
    // between two checkpoints of `a`'s changes must still reach the store.
    let (sh, _, stored) = saved_after(&[
        "create 'a', 'f'",
        "create 'b', 'f'",
        "put 'a', 'r1', 'f:q', '1'",
        "put 'b', 'r1', 'f:q', '1'",
        "alter 'a', NAME => 'f', VERSIONS => 2",
        "get 'b', 'r1'",
        "scan 'b'",
        "alter 'a', NAME => 'f', VERSIONS => 3",
    ])?;
    let loaded = load(Box::new(|| 1_000), stored);
    for table in ["a", "b"] {
        assert_eq!(
            history(&loaded.engine, table),
            history(&sh.engine, table),
            "table {table}"
        );
    }
    assert_eq!(loaded.engine.activity("b").map(|a| a.reads), Some(2));
    Ok(())
}

/// A shell at time 1,000 that has run `commands`, with its saver and what it stored: a save
/// planned and applied after each command, as the page saves.
fn saved_after(
    commands: &[&str],
) -> Result<(rowkey::shell::Shell, Saver, StoredRecords), Box<dyn std::error::Error>> {
    let (mut sh, _) = shell_at(1_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    for cmd in commands {
        sh.run(cmd);
        stored.apply(&saver.plan(&mut sh.engine)?);
    }
    Ok((sh, saver, stored))
}

/// The table's history as JSON, for comparing.
fn history(e: &Engine, table: &str) -> serde_json::Value {
    serde_json::to_value(e.activity(table)).unwrap_or_default()
}

#[test]
fn a_checkpoint_writes_only_the_operations_recorded_since_the_last_one() -> TestResult {
    let (mut sh, mut saver, mut stored) =
        saved_after(&["create 't', 'f'", "generate 't', 'r%06d', 10000"])?;
    let chunks = |s: &StoredRecords| s.activity.keys().filter(|k| k.contains('#')).count();
    assert_eq!(chunks(&stored), 3, "10,000 operations in chunks of 4,096");
    // A few more operations, then a checkpoint (alter writes the catalog).
    sh.run("get 't', 'r000001'\nalter 't', NAME => 'f', VERSIONS => 2");
    let plan = saver.plan(&mut sh.engine)?;
    let w = plan
        .activity
        .clone()
        .ok_or("the checkpoint holds the history")?;
    let keys: Vec<&str> = w.put.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(
        keys,
        ["t", "t#000000000002"],
        "the head and the last chunk only"
    );
    stored.apply(&plan);
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(history(&loaded.engine, "t"), history(&sh.engine, "t"));
    // The loaded saver knows what is stored: nothing changed, nothing is written again.
    let mut engine = loaded.engine;
    engine.record_changes(true);
    let mut saver = loaded.saver;
    let again = saver.checkpoint(&mut engine)?;
    assert_eq!(again.activity.map(|w| w.put.len()), Some(0));
    Ok(())
}

#[test]
fn chunks_whose_operations_fell_out_of_the_history_are_deleted() -> TestResult {
    let (sh, _, stored) = saved_after(&[
        "create 't', 'f'",
        "generate 't', 'a%06d', 60000",
        "alter 't', NAME => 'f', VERSIONS => 2",
        "generate 't', 'b%06d', 60000",
        "alter 't', NAME => 'f', VERSIONS => 3",
    ])?;
    let a = sh.engine.activity("t").ok_or("history")?;
    assert_eq!(
        a.ops().len(),
        100_000,
        "the history keeps the newest 100,000"
    );
    let first_chunk = a.first_seq() / 4096;
    let numbers: Vec<u64> = stored
        .activity
        .keys()
        .filter_map(|k| k.split_once('#').and_then(|(_, n)| n.parse().ok()))
        .collect();
    assert_eq!(numbers.first(), Some(&first_chunk), "{numbers:?}");
    let loaded = load(Box::new(|| 1_000), stored);
    assert_eq!(history(&loaded.engine, "t"), history(&sh.engine, "t"));
    Ok(())
}

#[test]
fn a_history_stored_whole_by_an_earlier_release_loads_and_a_damaged_chunk_costs_only_its_operations(
) -> TestResult {
    let (sh, _, stored) = saved_after(&["create 't', 'f'", "generate 't', 'r%06d', 9000"])?;
    // Earlier releases stored the whole history, operations inline, as one record per table
    // (written here by the engine's serde derive, the code those releases wrote it with).
    let mut earlier = stored.clone();
    earlier.activity.clear();
    let mut whole = history(&sh.engine, "t");
    if let Some(o) = whole.as_object_mut() {
        o.remove("recorded");
    }
    earlier.activity.insert(
        "t".into(),
        rowkey::persist::encode_json_record(
            rowkey::persist::BlobKind::Activity,
            &rowkey::json::parse(&serde_json::to_string(&whole)?)?,
        ),
    );
    let loaded = load(Box::new(|| 1_000), earlier);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(
        loaded.engine.activity("t").map(|a| a.ops().len()),
        Some(9000)
    );
    // A flipped byte in the middle chunk: reported, and the other chunks' operations load.
    let mut damaged = stored;
    if let Some(bytes) = damaged.activity.get_mut("t#000000000001") {
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x55;
    }
    let loaded = load(Box::new(|| 1_000), damaged);
    assert!(
        loaded.problems.iter().any(|p| p.contains("t#000000000001")),
        "{:?}",
        loaded.problems
    );
    assert_eq!(
        loaded.engine.activity("t").map(|a| a.ops().len()),
        Some(9000 - 4096)
    );
    Ok(())
}

#[test]
fn a_failed_save_makes_the_next_one_a_checkpoint_with_the_runs_it_held() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    sh.run("create 't', 'f'");
    stored.apply(&saver.plan(&mut sh.engine)?);
    saver.committed_to(saver.planned().clone());
    sh.run("put 't', 'a', 'f:q', '1'\nflush 't'");
    let lost = saver.plan(&mut sh.engine)?;
    assert!(lost.is_checkpoint() && lost.put_runs.len() == 1);
    saver.failed(false);
    sh.run("put 't', 'b', 'f:q', '2'");
    let plan = saver.plan(&mut sh.engine)?;
    assert!(
        plan.is_checkpoint() && plan.put_runs.len() == 1,
        "the run the failed save held is written again"
    );
    stored.apply(&plan);
    assert_eq!(
        dump(&load(Box::new(|| 1_000), stored).engine),
        dump(&sh.engine)
    );
    Ok(())
}

#[test]
fn a_history_stored_in_binary_reads_back_exactly_at_the_extremes() -> TestResult {
    use rowkey::engine::{Activity, Op, OpKind, SavedActivity};
    let (mut sh, _) = shell_at(1_000);
    sh.run("create 't', 'f'\nput 't', 'a', 'f:q', '1'\nget 't', 'a'");
    let a = sh.engine.activity("t").ok_or("history")?;
    // Ticks and times that jump both ways and to the ends of their range; empty, long and
    // non-UTF-8 keys; a stop that is empty (to the end of the table); places that text would
    // round.
    let op = |kind, start: &[u8], stop: Option<&[u8]>, tick, wall_ms, place| Op {
        kind,
        start: start.to_vec(),
        stop: stop.map(<[u8]>::to_vec),
        region: tick % 7,
        tick,
        wall_ms,
        place,
    };
    let ops = vec![
        op(OpKind::Write, b"", None, 0, 0, 0.0),
        op(
            OpKind::Read,
            b"\x00\xff",
            Some(b""),
            u64::MAX,
            u64::MAX,
            1.0,
        ),
        op(OpKind::Read, &[b'k'; 300], Some(b"\xff"), 1, 1, -0.0),
        op(OpKind::Write, b"z", None, 1 << 63, 5, f32::MIN_POSITIVE),
        op(
            OpKind::Read,
            b"z",
            Some(b"zz"),
            (1 << 63) - 1,
            1_700_000_000_000,
            0.1,
        ),
    ];
    let saved = SavedActivity {
        ops: ops.clone(),
        grid: a.grid.clone(),
        splits: a.splits().cloned().collect(),
        last_read: a.last_read().cloned(),
        reads: a.reads,
        writes: a.writes,
        recorded: ops.len() as u64,
    };
    sh.engine.restore_activity("t", Activity::from_saved(saved));
    let mut stored = StoredRecords::default();
    stored.apply(&Saver::new().checkpoint(&mut sh.engine)?);
    let chunk = stored.activity.get("t#000000000000").ok_or("chunk")?;
    assert_eq!(chunk.len(), 382, "the 300-byte key is most of it");
    let loaded = load(Box::new(|| 1_000), stored.clone());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let back: Vec<Op> = loaded
        .engine
        .activity("t")
        .map(|a| a.ops().cloned().collect())
        .unwrap_or_default();
    assert_eq!(back.len(), ops.len());
    for (b, o) in back.iter().zip(&ops) {
        assert_eq!(
            (&b.start, &b.stop, b.tick, b.wall_ms),
            (&o.start, &o.stop, o.tick, o.wall_ms)
        );
        assert_eq!(
            (b.kind, b.region, b.place.to_bits()),
            (o.kind, o.region, o.place.to_bits())
        );
    }
    // A chunk whose frame is intact but whose operations are not (cut short, or with flags
    // Rowkey never writes): reported, the history starts without its operations.
    let frame = |payload: &[u8]| {
        let mut out = b"RKEY\x05\x02".to_vec();
        out.extend_from_slice(payload);
        let crc = rowkey::kit::crc32::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    };
    for payload in [
        &chunk[6..chunk.len() - 9],
        b"\x00\x01\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00",
        b"\x00\xff\xff\xff\xff\x0f",
    ] {
        let mut damaged = stored.clone();
        damaged
            .activity
            .insert("t#000000000000".into(), frame(payload));
        let loaded = load(Box::new(|| 1_000), damaged);
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        assert!(
            loaded.problems[0].contains("t#000000000000"),
            "{:?}",
            loaded.problems
        );
        assert_eq!(loaded.engine.activity("t").map(|a| a.ops().len()), Some(0));
    }
    // A head whose frame is intact but whose grid is not (cut short; an entry past the grid;
    // an origin tag Rowkey never writes): reported, the history starts again.
    let head = stored.activity.get("t").ok_or("head")?;
    let mut at = 6;
    let json_len = rowkey::kit::varint::get(head, &mut at)? as usize;
    let json_end = at + json_len;
    let cut = head[6..head.len() - 7].to_vec();
    let mut past = head[6..json_end].to_vec();
    past.extend_from_slice(b"\x00\x01\x02\x01\x05\x01\x00\x00\x00\x00");
    let mut tag = head[6..json_end].to_vec();
    tag.extend_from_slice(b"\x07");
    for payload in [cut, past, tag] {
        let mut damaged = stored.clone();
        damaged.activity.insert("t".into(), frame(&payload));
        let loaded = load(Box::new(|| 1_000), damaged);
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        assert!(
            loaded.problems[0].contains("starts again"),
            "{:?}",
            loaded.problems
        );
        assert!(loaded
            .engine
            .activity("t")
            .is_none_or(|a| a.ops().len() == 0));
    }
    Ok(())
}
