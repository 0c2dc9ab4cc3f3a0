//! A stored run carries its rows, counted when it was stored, and a reload builds the key
//! index from them instead of walking every cell; runs stored before (the block file alone),
//! rows that are damaged and runs with a damaged block are counted from their cells, to the
//! same index.
mod common;
use common::*;
use rowkey::engine::{Engine, KeyEntry};
use rowkey::persist::{decode_stored_run, load, StoredRecords};

/// A table of two regions and two families (one delta-encoded), with versions, delete markers,
/// several runs per store and cells still in the memstores; saved as the app saves it.
fn saved() -> Result<(rowkey::shell::Shell, StoredRecords), Box<dyn std::error::Error>> {
    saved_after(
        1_700_000_000_000,
        &[
            "create 't', {NAME => 'f', VERSIONS => 3}, {NAME => 'g', DATA_BLOCK_ENCODING => 'FAST_DIFF'}, SPLITS => ['r005000']",
            "generate 't', 'r%06d', 9000",
            "put 't', 'r000001', 'g:x', 'one'",
            "put 't', 'r000001', 'f:c0', 'again'",
            "flush 't'",
            "delete 't', 'r000002', 'f:c0'",
            "deleteall 't', 'r006000'",
            "put 't', 'r006001', 'g:y', 'two'",
            "flush 't'",
            "put 't', 'r000003', 'g:z', 'in the memstore'",
            "put 't', 'zz', 'f:q', 'a row only the memstore holds'",
        ],
    )
}

fn index(e: &Engine) -> Vec<KeyEntry> {
    e.table("t")
        .map(|t| t.keys.iter().cloned().collect())
        .unwrap_or_default()
}

/// The records as a Rowkey before stored rows left them: each run its block file alone.
fn without_rows(stored: &StoredRecords) -> StoredRecords {
    let mut out = stored.clone();
    for bytes in out.runs.values_mut() {
        let at = bytes.len() - 16;
        let file_len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or([0; 8]));
        bytes.truncate(file_len as usize);
    }
    out
}

#[test]
fn a_reload_builds_the_key_index_from_the_stored_rows_as_a_recount_would() -> TestResult {
    let (sh, stored) = saved()?;
    // generate's flushes (and the splits they lead to), then two flushes of both families.
    assert_eq!(stored.runs.len(), 16);
    let mut rows_stored = 0;
    for (id, bytes) in &stored.runs {
        assert!(bytes.ends_with(b"RKRW"), "run {id}");
        let run = decode_stored_run(bytes)?;
        let rows = run.rows.ok_or("the rows are read back")?;
        // One entry per row of the run, the cells adding up to the run's.
        let cells: u64 = rows.iter().map(|e| u64::from(e.cells)).sum();
        assert_eq!(cells, run.run.len() as u64, "run {id}");
        rows_stored += rows.len();
    }
    // 9,000 rows, and six rows in a second run: r000001 (g, and f again), r000002 (its delete
    // marker), r006000 (a family marker in each family), r006001 (g).
    assert_eq!(rows_stored, 9_006);
    let loaded = load(Box::new(|| 1_700_000_000_000), stored.clone());
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let before = load(Box::new(|| 1_700_000_000_000), without_rows(&stored));
    assert!(before.problems.is_empty(), "{:?}", before.problems);
    let (got, recounted) = (index(&loaded.engine), index(&before.engine));
    assert_eq!(got.len(), 9_001, "9,000 generated rows and zz");
    assert_eq!(got, recounted);
    assert_eq!(got, index(&sh.engine), "the index the session kept");
    let r1 = got
        .iter()
        .find(|e| &*e.key == b"r000001")
        .ok_or("r000001")?;
    let r6 = got
        .iter()
        .find(|e| &*e.key == b"r006000")
        .ok_or("r006000")?;
    // generate writes one cell a row; r000001 two more; r006000 its cell and a family marker
    // per family.
    assert_eq!((r1.cells, r6.cells), (3, 3));
    Ok(())
}

#[test]
fn runs_stored_without_rows_load_and_are_not_written_again() -> TestResult {
    let (_, stored) = saved()?;
    let old = without_rows(&stored);
    for bytes in old.runs.values() {
        assert!(decode_stored_run(bytes)?.rows.is_none());
    }
    let loaded = load(Box::new(|| 1_700_000_000_000), old);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    let mut engine = loaded.engine;
    engine.record_changes(true);
    let mut saver = loaded.saver;
    let plan = saver.checkpoint(&mut engine)?;
    assert!(plan.put_runs.is_empty(), "a run is stored once");
    Ok(())
}

#[test]
fn damaged_rows_cost_a_recount_and_nothing_else() -> TestResult {
    let (_, stored) = saved()?;
    let recounted = index(&load(Box::new(|| 1_700_000_000_000), without_rows(&stored)).engine);
    let id = *stored.runs.keys().next().ok_or("a run")?;
    let bytes = stored.runs.get(&id).ok_or("a run")?.clone();
    let file_len = without_rows(&stored).runs.get(&id).map_or(0, Vec::len);
    assert_eq!(bytes.len() - file_len, 3_457, "the rows and their trailer");
    // Bytes across the rows, and every byte of the trailer (file length, CRC, magic): the run
    // loads whole, its rows counted from its cells.
    let hits = (file_len..bytes.len() - 16)
        .step_by(101)
        .chain(bytes.len() - 16..bytes.len());
    for at in hits {
        let mut damaged = stored.clone();
        if let Some(b) = damaged.runs.get_mut(&id) {
            b[at] ^= 0x21;
        }
        let run = decode_stored_run(damaged.runs.get(&id).ok_or("run")?)?;
        assert!(run.rows.is_none() && run.damaged.is_empty(), "byte {at}");
        let loaded = load(Box::new(|| 1_700_000_000_000), damaged);
        assert!(
            loaded.problems.is_empty(),
            "byte {at}: {:?}",
            loaded.problems
        );
        assert_eq!(index(&loaded.engine), recounted, "byte {at}");
    }
    Ok(())
}

#[test]
fn a_damaged_block_sets_the_runs_rows_aside() -> TestResult {
    let (_, stored) = saved()?;
    let id = *stored.runs.keys().next().ok_or("a run")?;
    // A byte inside the first data block (past the file's header), at the same place in both
    // forms of the record.
    let at = without_rows(&stored).runs.get(&id).map_or(0, Vec::len) / 8;
    let flip = |s: &mut StoredRecords| {
        if let Some(b) = s.runs.get_mut(&id) {
            b[at] ^= 0x5a;
        }
    };
    let mut damaged = stored.clone();
    flip(&mut damaged);
    let run = decode_stored_run(damaged.runs.get(&id).ok_or("run")?)?;
    assert_eq!(run.damaged.len(), 1);
    assert!(
        run.rows.is_none(),
        "the stored rows count cells that are lost"
    );
    let mut old = without_rows(&stored);
    flip(&mut old);
    let (with, without) = (
        load(Box::new(|| 1_700_000_000_000), damaged),
        load(Box::new(|| 1_700_000_000_000), old),
    );
    assert_eq!(with.problems.len(), 1, "{:?}", with.problems);
    assert_eq!(with.problems, without.problems);
    assert_eq!(index(&with.engine), index(&without.engine));
    Ok(())
}
