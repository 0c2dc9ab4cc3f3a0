//! The simulator's split policies against HBase 2.x's own arithmetic
//! (org.apache.hadoop.hbase.regionserver): `ConstantSizeRegionSplitPolicy` (MAX_FILESIZE with
//! `hbase.hregion.max.filesize.jitter`: `desiredMaxFileSize += (long) (desiredMaxFileSize *
//! (RANDOM.nextFloat() - 0.5) * jitter)`), `IncreasingToUpperBoundRegionSplitPolicy`
//! (`min(desiredMaxFileSize, initialSize * n^3)`, `initialSize = 2 * flush size`, n the table's
//! regions on the server), `SteppingSplitPolicy` (`initialSize` when n is 1, else
//! `desiredMaxFileSize`), `KeyPrefixRegionSplitPolicy` (the split point cut to
//! `prefix_length` bytes) and `DisabledRegionSplitPolicy`.
//!
//! A steadily growing table: one region server, a sequential key (every row goes to the last
//! region), 200 rows a second of one 1,000-byte value, full sampling (one sample per row), so
//! every flush and every split can be computed here from the rule alone and compared with the
//! simulator's timeline, split by split.

use rowkey::designs::gen::Gen;
use rowkey::simulate::policy::{jitter_stream, RegionPolicy};
use rowkey::simulate::workload::SplitPolicyKind;
use rowkey::simulate::{simulate, Options, Sampling, Simulation, Workload};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const FLUSH: u64 = 1_048_576;
const MAX: u64 = 8 * 1_048_576;
/// A row's KeyValue: 4 + 4 + 2 + 10 (row) + 1 + 1 (family "f") + 1 (qualifier "q") + 8 + 1 +
/// 1,000 (value).
const ROW_BYTES: u64 = 1_032;
const RATE: u64 = 200;
const SEED: u64 = 7;

fn workload(policy: &str) -> Result<Workload, Box<dyn std::error::Error>> {
    Ok(Workload::from_json(&format!(
        r#"{{
  "version": 1, "seed": {SEED}, "duration_ms": 600000, "step_ms": 1000,
  "cluster": {{"region_servers": 1, "flush_size": {FLUSH}, "max_filesize": {MAX},
              "split_policy": {policy},
              "server_reads_per_sec": 1000, "server_writes_per_sec": 1000}},
  "tables": [{{"name": "grow", "unique": true,
              "families": [{{"name": "f", "columns": [{{"qualifier": "q", "value_size": 1000}}]}}],
              "key": [{{"kind": "sequence", "format": {{"width": 10}}}}],
              "operations": [{{"kind": "put_new", "rate": {{"per_sec": {RATE}}}}}]}}]
}}"#
    ))?)
}

fn run(policy: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let options = Options {
        sampling: Some(Sampling::Full),
        ..Options::default()
    };
    Ok(simulate(&workload(policy)?, &options)?)
}

/// Java's `Random.nextFloat()` from the seeded stream: 24 bits over 2^24.
fn next_float(gen: &mut Gen) -> f32 {
    (gen.next_u64() >> 40) as f32 / 16_777_216.0
}

/// `ConstantSizeRegionSplitPolicy.configureForRegion`'s jitter, computed here.
fn desired(gen: &mut Gen) -> u64 {
    let rate = (f64::from(next_float(gen)) - 0.5) * 0.25;
    (MAX as i64 + (MAX as f64 * rate) as i64) as u64
}

/// The splits the rule gives: (at_ms, key) of each, computed from flushes of whole rows.
fn expected(kind: SplitPolicyKind) -> Vec<(u64, String)> {
    let mut gen = jitter_stream(SEED, 0);
    let rows_per_flush = FLUSH.div_ceil(ROW_BYTES);
    let total_rows = RATE * 600;
    // The last region: its first row, its rows in store files, its jitter.
    let mut tail_first = 0u64;
    let mut tail_desired = desired(&mut gen);
    let mut regions = 1u64;
    let mut splits = Vec::new();
    let mut row = 0u64;
    loop {
        row += rows_per_flush;
        if row > total_rows {
            break;
        }
        let last = row - 1; // the row whose write filled the memstore
        let store = (row - tail_first) * ROW_BYTES;
        let limit = match kind {
            SplitPolicyKind::None => u64::MAX,
            SplitPolicyKind::ConstantSize => tail_desired,
            SplitPolicyKind::Stepping => {
                if regions == 1 {
                    2 * FLUSH
                } else {
                    tail_desired
                }
            }
            SplitPolicyKind::IncreasingToUpperBound | SplitPolicyKind::KeyPrefix { .. } => {
                tail_desired.min(2 * FLUSH * regions * regions * regions)
            }
        };
        if store > limit {
            // The middle key: the first row at which half the bytes are reached.
            let n = row - tail_first;
            let mid = tail_first + n.div_ceil(2) - 1;
            let mut key = format!("{mid:010}");
            if let SplitPolicyKind::KeyPrefix { prefix_length } = kind {
                key.truncate(prefix_length as usize);
            }
            let split_row: u64 = format!("{key:0<10}").parse().unwrap_or(mid);
            // Sample j is played at (j + 0.5) * 1000 / RATE ms.
            splits.push(((last * 1000 + 500) / RATE, key));
            let _left = desired(&mut gen);
            tail_desired = desired(&mut gen);
            tail_first = split_row;
            regions += 1;
        }
    }
    splits
}

fn assert_policy(json: &str, kind: SplitPolicyKind) -> TestResult {
    let sim = run(json)?;
    let timeline = &sim.tables[0].timeline;
    let got: Vec<(u64, String)> = timeline
        .splits
        .iter()
        .map(|s| (s.at_ms, String::from_utf8_lossy(&s.key).into_owned()))
        .collect();
    let want = expected(kind);
    assert_eq!(got, want);
    // Every region's threshold is the one its own jitter draw gives, in order of opening.
    let mut gen = jitter_stream(SEED, 0);
    for span in &timeline.regions {
        assert_eq!(span.desired_max_file_size, desired(&mut gen));
        assert!(span.desired_max_file_size.abs_diff(MAX) <= MAX / 8);
    }
    // One server: the balancer never moves a region.
    assert!(timeline.moves.is_empty());
    Ok(())
}

#[test]
fn stepping_splits_at_twice_the_flush_size_then_at_max_filesize() -> TestResult {
    assert_policy(r#""stepping""#, SplitPolicyKind::Stepping)?;
    let splits = expected(SplitPolicyKind::Stepping);
    // The first split: the second flush (2 × 1,017 rows × 1,032 bytes = 2,099,088 > 2 MB),
    // written by row 2,033 at 5 × 2,033 + 2.5 ms, at the middle row 1,016.
    assert_eq!(splits[0], (10_167, "0000001016".to_string()));
    // 120,000 rows (123.8 MB): after the first split the last region keeps about half of
    // ~8 MB ± 12.5 % at each split, so it gains ~4 MB between splits.
    assert_eq!(splits.len(), 27);
    Ok(())
}

#[test]
fn increasing_to_upper_bound_grows_with_the_cube_of_the_regions() -> TestResult {
    assert_policy(
        r#""increasing_to_upper_bound""#,
        SplitPolicyKind::IncreasingToUpperBound,
    )?;
    let splits = expected(SplitPolicyKind::IncreasingToUpperBound);
    assert_eq!(splits[0], (10_167, "0000001016".to_string()));
    // With 2 regions the limit is min(desired, 2 MB × 8 = 16 MB) = desired (≈ 8 MB): the
    // same splits as stepping's on one server.
    assert_eq!(splits, expected(SplitPolicyKind::Stepping));
    assert_eq!(splits.len(), 27);
    Ok(())
}

#[test]
fn constant_size_splits_at_max_filesize_with_the_seeded_jitter() -> TestResult {
    assert_policy(r#""constant_size""#, SplitPolicyKind::ConstantSize)?;
    let splits = expected(SplitPolicyKind::ConstantSize);
    // No step: the first split waits for ~8 MB too.
    assert!(splits[0].0 > 30_000);
    assert_eq!(splits.len(), 26);
    Ok(())
}

#[test]
fn key_prefix_cuts_the_split_point_to_its_prefix() -> TestResult {
    assert_policy(
        r#"{"key_prefix": {"prefix_length": 8}}"#,
        SplitPolicyKind::KeyPrefix { prefix_length: 8 },
    )?;
    let sim = run(r#"{"key_prefix": {"prefix_length": 8}}"#)?;
    assert!(sim.tables[0]
        .timeline
        .splits
        .iter()
        .all(|s| s.key.len() == 8));
    Ok(())
}

#[test]
fn disabled_never_splits() -> TestResult {
    let sim = run(r#""none""#)?;
    assert!(sim.tables[0].timeline.splits.is_empty());
    assert_eq!(sim.tables[0].timeline.regions.len(), 1);
    Ok(())
}

#[test]
fn java_jitter_arithmetic() {
    // (nextFloat() - 0.5) * 0.25 of 10 GB, truncated toward zero as Java's (long) cast does.
    let max = 10 * 1024 * 1024 * 1024u64;
    let mut gen = Gen::new(1);
    let f = next_float(&mut gen.clone());
    let policy = RegionPolicy::configure(SplitPolicyKind::ConstantSize, max, FLUSH, 0.25, &mut gen);
    let want = max as i64 + (max as f64 * ((f64::from(f) - 0.5) * 0.25)) as i64;
    assert_eq!(policy.desired_max_file_size, want as u64);
    assert_eq!(policy.size_to_check(1), Some(want as u64));
    let stepping = RegionPolicy {
        kind: SplitPolicyKind::Stepping,
        ..policy
    };
    assert_eq!(stepping.size_to_check(1), Some(2 * FLUSH));
    assert_eq!(stepping.size_to_check(2), Some(want as u64));
    let increasing = RegionPolicy {
        kind: SplitPolicyKind::IncreasingToUpperBound,
        ..policy
    };
    assert_eq!(increasing.size_to_check(2), Some(16 * FLUSH));
    assert_eq!(increasing.size_to_check(0), Some(want as u64));
    assert_eq!(increasing.size_to_check(101), Some(want as u64));
    // Strictly above: a store of exactly the limit does not split.
    assert!(!stepping.should_split(2 * FLUSH, 1));
    assert!(stepping.should_split(2 * FLUSH + 1, 1));
}
