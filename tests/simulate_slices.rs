//! A run in slices: `Run::advance` plays a bounded number of samples per call, its progress
//! (the fraction of simulated time played) readable between calls, and however the calls are
//! cut the simulation and its `--json` report are byte for byte the one-shot run's.

use rowkey::keyvis::Job;
use rowkey::simulate::{gallery, simulate, FindingCode, Options, Report, Run, Workload};

type R = Result<(), Box<dyn std::error::Error>>;

/// The gallery's sequential-ids workload (two tables), cut to `hours` in steps of a
/// simulated minute.
fn sequential(hours: u64) -> Result<Workload, Box<dyn std::error::Error>> {
    let mut w = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    w.duration_ms = hours * 3_600_000;
    w.step_ms = Some(60_000);
    Ok(w)
}

/// Runs `w` in slices of `samples`, recording the progress after each call.
fn sliced(w: &Workload, samples: u64) -> Result<(String, Vec<f64>), Box<dyn std::error::Error>> {
    let mut run = Run::new(w.clone(), Options::default())?;
    let mut progress = Vec::new();
    while !run.advance(samples)? {
        progress.push(run.progress());
    }
    progress.push(run.progress());
    let sim = run.finish()?;
    Ok((Report::of(&sim).to_json(), progress))
}

#[test]
fn slices_of_any_size_give_the_one_shot_report() -> R {
    let w = sequential(3)?;
    let once = Report::of(&simulate(&w, &Options::default())?).to_json();
    // 180 steps a table, 2 operations of 64 samples a step (23,040 samples); then per table
    // a call for the heat model's ranges, one per grid allocated (nine metrics), calls
    // counting 2 × the budget (at least 1,024) of the samples into it, one each for its data
    // size, read and write pressure, one for the heat model, and the findings: one for the pressures, calls tallying the budget (at least
    // 1,024) of the samples per row, one for the keys (the key has no entity: no entity
    // tally). A table: 1 sample, 180 + 1 + 9 + 23 + 3 + 1 + (1 + 23 + 1); 500, 45 + 1 + 9 +
    // 23 + 3 + 1 + (1 + 23 + 1); 4,096, 6 + 1 + 9 + 3 + 3 + 1 + (1 + 6 + 1); all, 1 + 1 + 9 +
    // 1 + 3 + 1 + (1 + 1 + 1).
    for (samples, calls) in [(1, 484), (500, 214), (4_096, 62), (u64::MAX, 38)] {
        let (report, progress) = sliced(&w, samples)?;
        assert_eq!(report, once, "slices of {samples} samples");
        assert_eq!(progress.len(), calls, "slices of {samples} samples");
        assert!(progress.windows(2).all(|p| p[0] <= p[1]));
        assert_eq!(progress.last(), Some(&1.0));
    }
    // One step (128 samples) a call: the first table's 180 steps take calls 1..=180, its
    // figures calls 181 to 242 (23 of them counting 1,024 samples each, 23 tallying as many
    // per row).
    let (_, progress) = sliced(&w, 1)?;
    assert_eq!(progress[0], 1.0 / 360.0);
    assert_eq!(progress[179], 0.5);
    assert_eq!(progress[241], 0.5);
    assert_eq!(progress[242], 181.0 / 360.0);
    Ok(())
}

#[test]
fn the_page_job_in_slices_is_the_one_shot_run() -> R {
    let w = sequential(2)?;
    let once = simulate(&w, &Options::default())?;
    let mut job = Job::new(w, Options::default());
    assert_eq!(job.next_table(), Some("sg_seq"));
    let mut steps = 0;
    while let Some(p) = job.step_for(1_000) {
        assert!(p <= 1.0);
        steps += 1;
    }
    // 8 steps of 128 samples a slice: 15 slices a table, and 39 for its figures (one for the
    // ranges, nine allocating a grid each, eight counting 2,000 of its 15,360 samples each,
    // three for its data size and pressures, one for the heat model; then one for the pressures, fifteen tallying 1,024 samples per
    // row each, one for the keys).
    assert_eq!(steps, 108);
    assert_eq!(job.progress(), 1.0);
    assert_eq!(job.finish()?, once);
    Ok(())
}

#[test]
fn findings_tallied_in_slices_are_the_one_shot_findings() -> R {
    // A design with hot rows, a hot entity and a wide row: the tallies per row and per entity
    // wait in the run between calls of at most 1,024 samples each.
    let mut w = gallery::workload("schema.entity-rows").ok_or("no workload")?;
    w.duration_ms = 3_600_000;
    let once = simulate(&w, &Options::default())?;
    let (report, _) = sliced(&w, 1)?;
    assert_eq!(report, Report::of(&once).to_json());
    let table = once
        .tables
        .iter()
        .find(|t| t.name == "sg_entity_one")
        .ok_or("no table")?;
    let codes: Vec<FindingCode> = table.findings.iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        [
            FindingCode::HotRowReads,
            FindingCode::HotRowWrites,
            FindingCode::HotEntity,
            FindingCode::WideRowGrowing
        ]
    );
    Ok(())
}

#[test]
fn a_run_dropped_half_way_leaves_nothing_and_a_new_one_starts_afresh() -> R {
    let w = sequential(1)?;
    let mut run = Run::new(w.clone(), Options::default())?;
    run.advance(2_000)?;
    assert_eq!(run.table(), Some("sg_seq"));
    // 16 steps of 128 samples, of 2 × 60.
    assert_eq!(run.progress(), 16.0 / 120.0);
    drop(run);
    let again = Run::new(w.clone(), Options::default())?.finish()?;
    assert_eq!(again, simulate(&w, &Options::default())?);
    Ok(())
}

#[test]
fn an_error_ends_the_run_and_is_returned_again() -> R {
    let w = sequential(1)?;
    let options = Options {
        max_samples: 1_000,
        ..Options::default()
    };
    let mut run = Run::new(w, options)?;
    // Steps of 128 samples: the eighth would pass 1,000.
    for _ in 0..7 {
        assert!(!run.advance(100)?);
    }
    let first = run.advance(100).err().ok_or("no error")?;
    assert_eq!(
        first.to_string(),
        "more than 1000 samples: sample fewer operations"
    );
    assert_eq!(run.advance(100).err(), Some(first));
    Ok(())
}
