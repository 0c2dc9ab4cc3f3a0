//! The simulator's weighted samples against the full computation: one workload run with one
//! sample per 50 operations and with one sample per operation gives the same splits (count,
//! order, keys within 1 % of the rows) and per-range counts within 5 % on 64 key ranges.

use rowkey::simulate::{simulate, Heat, Metric, Options, Sampling, Simulation, Workload};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Half an hour of sign-ups with sequential ids (100 a second, 1 KB) and lookups of any user
/// (300 a second): 720,000 operations.
const WORKLOAD: &str = r#"{
  "version": 1, "seed": 3, "duration_ms": 1800000, "step_ms": 60000,
  "cluster": {"region_servers": 4, "flush_size": 1048576, "max_filesize": 8388608,
              "server_reads_per_sec": 1000, "server_writes_per_sec": 1000},
  "tables": [{"name": "users", "unique": true,
              "families": [{"name": "f", "columns": [{"qualifier": "q", "value_size": 1000}]}],
              "key": [{"kind": "sequence", "format": {"width": 10}}],
              "operations": [
                {"kind": "put_new", "rate": {"per_sec": 100}},
                {"kind": "get", "rate": {"per_sec": 300}, "choose": "uniform"}
              ]}]
}"#;

fn run(sampling: Sampling) -> Result<Simulation, Box<dyn std::error::Error>> {
    let options = Options {
        sampling: Some(sampling),
        ranges: 64,
        ..Options::default()
    };
    Ok(simulate(&Workload::from_json(WORKLOAD)?, &options)?)
}

fn row_of(key: &[u8]) -> Result<i64, Box<dyn std::error::Error>> {
    Ok(std::str::from_utf8(key)?.parse()?)
}

#[test]
fn one_in_fifty_matches_the_full_computation() -> TestResult {
    let full = run(Sampling::Full)?;
    let sampled = run(Sampling::OneIn(50))?;
    let (f, s) = (&full.tables[0], &sampled.tables[0]);
    assert_eq!(f.samples.len(), 720_000);
    assert_eq!(s.samples.len(), 14_400);
    assert_eq!(f.totals.ops, 720_000.0);
    assert_eq!(s.totals.ops, 720_000.0);
    assert_eq!(f.totals.rows, 180_000);
    assert_eq!(s.totals.rows, 180_000);

    // The same splits, in the same order, at keys within 1 % of the rows.
    let rows = f.totals.rows as i64;
    assert_eq!(f.timeline.splits.len(), 59);
    assert_eq!(f.timeline.splits.len(), s.timeline.splits.len());
    for (a, b) in f.timeline.splits.iter().zip(&s.timeline.splits) {
        assert_eq!(a.region, b.region);
        let gap = (row_of(&a.key)? - row_of(&b.key)?).abs();
        assert!(gap * 100 <= rows, "split keys {:?} and {:?}", a.key, b.key);
    }

    // Per-range counts on the full run's 64 ranges of equal rows, within 5 %: operations,
    // writes, bytes written and data size. (Reads alone are within 5 % where a range gets
    // enough of them; the last ranges, read only at the end, get a few dozen samples.)
    assert_eq!(f.heat.ranges.len(), 64);
    let steps = full.steps;
    let recount = Heat::over(
        f.heat.ranges.clone(),
        &s.samples,
        &s.keys,
        &s.timeline,
        steps,
    );
    for metric in [
        Metric::Operations,
        Metric::Writes,
        Metric::BytesWritten,
        Metric::DataSize,
    ] {
        let want = f.heat.totals(metric);
        let got = recount.totals(metric);
        for (r, (w, g)) in want.iter().zip(&got).enumerate() {
            assert!(
                (w - g).abs() <= 0.05 * w,
                "{metric:?} range {r}: full {w}, sampled {g}"
            );
        }
    }
    Ok(())
}
