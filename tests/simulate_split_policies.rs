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
//! every flush, every compaction (`ExploringCompactionPolicy`), every split point (the middle
//! row of the largest store file, `StoreUtils.getSplitPoint`) and every split can be computed
//! here from the rules alone and compared with the simulator's timeline, split by split.

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

/// `ExploringCompactionPolicy.applyCompactionPolicy` over files of `rows` rows each (oldest
/// first), with `hbase.hstore.compaction.min` 3, `.max` 10, `.ratio` 1.2 and `.min.size` the
/// flush size: of every run of 3 to 10 consecutive files whose total is below the minimum size
/// or whose every file is at most 1.2 × the others together, the one with the most files, then
/// the fewest bytes (the first found on a tie).
fn exploring(rows: &[u64]) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize, u64)> = None;
    for start in 0..rows.len() {
        for end in start + 3..=rows.len().min(start + 10) {
            let sizes: Vec<u64> = rows[start..end].iter().map(|r| r * ROW_BYTES).collect();
            let total: u64 = sizes.iter().sum();
            let in_ratio = sizes
                .iter()
                .all(|&size| size as f64 <= (total - size) as f64 * 1.2);
            if total >= FLUSH && !in_ratio {
                continue;
            }
            let better = match best {
                None => true,
                Some((s, e, size)) => end - start > e - s || (end - start == e - s && total < size),
            };
            if better {
                best = Some((start, end, total));
            }
        }
    }
    best.map(|(start, end, _)| (start, end))
}

/// The splits the rule gives: (at_ms, key) of each, computed from flushes of whole rows. With a
/// sequential key every store file of the last region holds consecutive rows, so a file is a
/// range of rows: a flush adds one, a compaction merges consecutive ones, and the split point
/// is the middle row of the largest (the oldest on a tie; `StoreUtils.getSplitPoint`): with
/// rows of equal bytes, the row whose bytes straddle half the file's.
fn expected(kind: SplitPolicyKind) -> Vec<(u64, String)> {
    let mut gen = jitter_stream(SEED, 0);
    let rows_per_flush = FLUSH.div_ceil(ROW_BYTES);
    let total_rows = RATE * 600;
    // The last region: its files as (first row, rows), oldest first, and its jitter.
    let mut files: Vec<(u64, u64)> = Vec::new();
    let mut tail_desired = desired(&mut gen);
    let mut regions = 1u64;
    let mut splits = Vec::new();
    let mut row = 0u64;
    loop {
        let first = row;
        row += rows_per_flush;
        if row > total_rows {
            break;
        }
        files.push((first, rows_per_flush));
        let last = row - 1; // the row whose write filled the memstore
        let store: u64 = files.iter().map(|f| f.1).sum::<u64>() * ROW_BYTES;
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
            let largest = files
                .iter()
                .copied()
                .reduce(|a, b| if b.1 > a.1 { b } else { a })
                .unwrap_or((0, 0));
            let mid = largest.0 + (largest.1 - 1).div_ceil(2);
            let mut key = format!("{mid:010}");
            if let SplitPolicyKind::KeyPrefix { prefix_length } = kind {
                key.truncate(prefix_length as usize);
            }
            let split_row: u64 = format!("{key:0<10}").parse().unwrap_or(mid);
            // Sample j is played at (j + 0.5) * 1000 / RATE ms.
            splits.push(((last * 1000 + 500) / RATE, key));
            let _left = desired(&mut gen);
            tail_desired = desired(&mut gen);
            // The right daughter opens with its half compacted into one file.
            let tail_first = split_row.max(files[0].0);
            files = vec![(tail_first, row - tail_first)];
            regions += 1;
        } else {
            let rows: Vec<u64> = files.iter().map(|f| f.1).collect();
            if let Some((start, end)) = exploring(&rows) {
                let merged = (files[start].0, rows[start..end].iter().sum());
                files.splice(start..end, [merged]);
            }
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
    // written by row 2,033 at 5 × 2,033 + 2.5 ms, at the middle row of the larger file (the
    // first of two equal ones: rows 0..1,017): row 508.
    assert_eq!(splits[0], (10_167, "0000000508".to_string()));
    // 120,000 rows (123.8 MB): the last region splits at ~8 MB ± 12.5 % at the middle of its
    // largest file (the one it opened with, once compacted), so it keeps about three quarters
    // and gains ~2-3 MB between splits.
    assert_eq!(splits.len(), 39);
    Ok(())
}

#[test]
fn increasing_to_upper_bound_grows_with_the_cube_of_the_regions() -> TestResult {
    assert_policy(
        r#""increasing_to_upper_bound""#,
        SplitPolicyKind::IncreasingToUpperBound,
    )?;
    let splits = expected(SplitPolicyKind::IncreasingToUpperBound);
    assert_eq!(splits[0], (10_167, "0000000508".to_string()));
    // With 2 regions the limit is min(desired, 2 MB × 8 = 16 MB) = desired (≈ 8 MB): the
    // same splits as stepping's on one server.
    assert_eq!(splits, expected(SplitPolicyKind::Stepping));
    assert_eq!(splits.len(), 39);
    Ok(())
}

#[test]
fn constant_size_splits_at_max_filesize_with_the_seeded_jitter() -> TestResult {
    assert_policy(r#""constant_size""#, SplitPolicyKind::ConstantSize)?;
    let splits = expected(SplitPolicyKind::ConstantSize);
    // No step: the first split waits for ~8 MB too.
    assert!(splits[0].0 > 30_000);
    assert_eq!(splits.len(), 37);
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
