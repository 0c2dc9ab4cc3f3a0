//! The heat model's read and write pressure: per key range and step, the highest pressure of
//! the regions overlapping the range during the step, checked cell by cell against the
//! timeline the run recorded.

use rowkey::simulate::{gallery, simulate, Metric, Options, TableRun};

type R = Result<(), Box<dyn std::error::Error>>;

/// The pressure of `metric` for range `r` at `step`, straight from the timeline.
fn from_timeline(run: &TableRun, metric: Metric, r: usize, step: usize) -> f64 {
    let range = &run.heat.ranges[r];
    let mut highest = 0.0f64;
    for figures in &run.timeline.steps[step] {
        let span = &run.timeline.regions[figures.region as usize];
        let overlaps = (range.end.is_empty() || span.start_key < range.end)
            && (span.end_key.is_empty() || span.end_key > range.start);
        if overlaps {
            highest = highest.max(if metric == Metric::ReadPressure {
                figures.read_pressure
            } else {
                figures.write_pressure
            });
        }
    }
    highest
}

#[test]
fn each_cell_is_the_highest_pressure_of_the_regions_over_its_range() -> R {
    let mut w = gallery::workload("schema.sequential-ids").ok_or("no workload")?;
    w.duration_ms = 3 * 3_600_000;
    w.step_ms = Some(60_000);
    let sim = simulate(&w, &Options::default())?;
    let mut loaded = Vec::new();
    for run in &sim.tables {
        let (n, steps) = (run.heat.ranges.len(), run.heat.steps);
        assert_eq!(steps, 180);
        for metric in [Metric::ReadPressure, Metric::WritePressure] {
            let mut cells = 0;
            for r in 0..n {
                for step in 0..steps {
                    let want = from_timeline(run, metric, r, step);
                    assert_eq!(
                        run.heat.value(metric, r, step).to_bits(),
                        want.to_bits(),
                        "{} {metric:?} range {r} step {step}",
                        run.name
                    );
                    cells += usize::from(want > 0.0);
                }
            }
            loaded.push((run.name.as_str(), metric, n, cells));
        }
    }
    // Cells of the 1,000 ranges × 180 steps (180,000) with a region under load: not a grid of
    // zeros.
    assert_eq!(
        loaded,
        [
            ("sg_seq", Metric::ReadPressure, 1000, 147_776),
            ("sg_seq", Metric::WritePressure, 1000, 138_371),
            ("sg_seq_rev", Metric::ReadPressure, 1000, 179_204),
            ("sg_seq_rev", Metric::WritePressure, 1000, 176_934),
        ]
    );
    Ok(())
}
