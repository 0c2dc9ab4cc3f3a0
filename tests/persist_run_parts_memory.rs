//! A run read back in parts (`persist::run_parts`) is freed part by part by its first
//! compaction, as the merge reads past each part, where a run read back as one record is
//! freed only at the compaction's end: the compaction's peak allocation is about one part
//! rather than the whole run. (One test in this file: the allocation counter is process-wide.)
mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::{measure, Counting};
use rowkey::engine::Engine;
use rowkey::persist::{encode_stored_run, load, RunPlace, Saver, StoredRecords, PART_RECORD_BYTES};

#[global_allocator]
static ALLOC: Counting = Counting;

const NOW: u64 = 1_700_000_000_000;

/// The peak above the start of a major compaction of table `big` in an engine loaded from
/// `stored`, and the bytes of the run it compacts.
fn compaction_peak(stored: StoredRecords) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let loaded = load(Box::new(|| NOW), stored);
    if !loaded.problems.is_empty() {
        return Err(format!("{:?}", loaded.problems).into());
    }
    let mut e: Engine = loaded.engine;
    drop(loaded.saver);
    let input: usize = e.all_runs().map(|r| r.file().len()).sum();
    let (done, allocated) = measure(|| e.compact("big", true));
    done?;
    Ok((allocated.peak_above_start, input))
}

#[test]
fn a_run_read_back_in_parts_is_freed_part_by_part_by_its_first_compaction() -> TestResult {
    let (mut sh, _) = shell_at(NOW);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    sh.run("create 'big', 'f', MAX_FILESIZE => 0");
    stored.apply(&saver.plan(&mut sh.engine)?);
    // 12,000 rows of one 1,000-byte value: one run of about 12 MB after the major compaction,
    // stored in 12 parts.
    let value = "v".repeat(1_000);
    for i in 0..12_000 {
        sh.engine.mutate(
            "big",
            format!("row{i:06}").as_bytes(),
            &[put("f", "q", None, &value)],
        )?;
    }
    sh.engine.flush("big")?;
    sh.engine.compact("big", true)?;
    let plan = saver.plan(&mut sh.engine)?;
    assert_eq!((plan.put_runs.len(), plan.put_parts.len()), (1, 12));
    stored.apply(&plan);
    // The same run as one record, as runs were stored before parts.
    let mut whole = stored.clone();
    whole.run_parts.clear();
    whole
        .runs
        .insert(plan.put_runs[0].0, stored_whole(&stored)?);
    drop(sh);
    let (parts_peak, input) = compaction_peak(stored)?;
    let (whole_peak, whole_input) = compaction_peak(whole)?;
    assert_eq!(input, whole_input);
    println!(
        "{input} bytes: peak {parts_peak} in parts ({:.3}x), {whole_peak} whole ({:.3}x)",
        parts_peak as f64 / input as f64,
        whole_peak as f64 / input as f64
    );
    // Measured: 12,780,145 bytes of run; a peak of 1,240,852 bytes above the start in parts of
    // 1 MB (0.097x), 12,991,061 read back whole (1.017x).
    // Whole, the input is held to the end while the output grows to its size: about 1x.
    assert!(whole_peak as f64 > 0.9 * input as f64, "{whole_peak}");
    // In parts: about one part of the input at a time.
    assert!(
        (parts_peak as f64) < 2.0 * PART_RECORD_BYTES as f64,
        "{parts_peak}"
    );
    assert!((parts_peak as f64) < 0.15 * input as f64, "{parts_peak}");
    Ok(())
}

/// The one run as one record, as runs were stored before parts.
fn stored_whole(stored: &StoredRecords) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let loaded = load(Box::new(|| NOW), stored.clone());
    let run = loaded.engine.all_runs().next().ok_or("a run")?.clone();
    let place = RunPlace {
        table: "big".into(),
        family: b"f".to_vec(),
        start: Vec::new(),
        end: Vec::new(),
    };
    Ok(encode_stored_run(&run, &place))
}
