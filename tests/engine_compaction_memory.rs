//! A major compaction takes its input runs and frees each part of them (about 64 KB of whole
//! blocks) once its merge has read past it, so the output run grows into the memory its inputs
//! give back: its peak allocation stays under 0.3 times the bytes of the runs it merges (one
//! part in reading per input, the output's index and bloom hashes, the row being decided).
//! (One test in this file: the allocation counter is process-wide.)
mod common;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;

use common::*;
use counting_alloc::{measure, Counting};
use rowkey::engine::{FamilyDescriptor, TableDescriptor};

#[global_allocator]
static ALLOC: Counting = Counting;

#[test]
fn a_major_compaction_peaks_under_0_3_times_its_inputs() -> TestResult {
    let clock = Clock::at(1_000);
    let mut e = clock.engine();
    let mut desc = TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]);
    desc.settings.flush_bytes = 256 * 1024;
    desc.settings.compaction_threshold = 1_000;
    desc.settings.split_bytes = 0;
    e.create_table(desc, vec![])?;
    // 10,000 rows of ten 16-byte values, written in a shuffled order so that every run
    // overlaps every other.
    for i in 0..10_000u64 {
        let r = i.wrapping_mul(7_919) % 10_000;
        let cells: Vec<_> = (0..10)
            .map(|c| {
                put(
                    "f",
                    &format!("c{c}"),
                    Some(100),
                    &format!("value-{:010}", r * 10 + c),
                )
            })
            .collect();
        e.mutate("t", format!("user-{r:08}").as_bytes(), &cells)?;
    }
    e.flush("t")?;
    let store = &e.table("t")?.regions[0].stores[0];
    let runs = store.runs.len();
    let input: usize = store.runs.iter().map(|r| r.file().len()).sum();
    let (done, allocated) = measure(|| e.compact("t", true));
    done?;
    let store = &e.table("t")?.regions[0].stores[0];
    println!(
        "{runs} runs, {input} bytes: peak {} bytes above the start ({:.3}x)",
        allocated.peak_above_start,
        allocated.peak_above_start as f64 / input as f64
    );
    assert!(runs >= 10, "{runs} runs");
    assert_eq!((store.runs.len(), store.cell_count()), (1, 100_000));
    // Measured: 1,398,250 bytes above the start for 5,089,951 bytes of 20 input runs (0.275x);
    // before the compaction freed its inputs, 1.2x held (input and output at once).
    assert!(
        (allocated.peak_above_start as f64) < 0.3 * input as f64,
        "peak {} bytes for {input} bytes of input runs",
        allocated.peak_above_start
    );
    Ok(())
}
