//! Each compare pair's workload plays both sides on one cluster for twelve simulated hours,
//! and the busiest region's share of the writes (or, where the pair's question is a read, of
//! the reads) points the way the pair's lesson says, with exact seeded figures; the compare
//! view's sentence names the pair's B side as the one that holds up. `rowkey simulate
//! --design` plays a pair by its id.

use rowkey::simulate::{gallery, simulate, FindingCode, HourFigures, Options, Simulation};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Pair `id`'s workload over its twelve hours, in 10-minute steps of 32 samples per
/// operation.
fn run(id: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let mut workload = gallery::pair_workload(id).ok_or(format!("no workload for {id}"))?;
    workload.step_ms = Some(600_000);
    workload.samples_per_step = Some(32);
    let sim = simulate(&workload, &Options::default())?;
    assert_eq!(sim.tables.len(), 2);
    assert!(sim.tables.iter().all(|t| t.hours.len() == 12));
    Ok(sim)
}

/// A's and B's figure per hour, from hour `from` on.
fn sides(
    sim: &Simulation,
    from: usize,
    figure: fn(&HourFigures) -> Option<f64>,
) -> (Vec<f64>, Vec<f64>) {
    let side = |t: usize| -> Vec<f64> {
        sim.tables[t].hours[from..]
            .iter()
            .map(|h| figure(h).unwrap_or(f64::NAN))
            .collect()
    };
    (side(0), side(1))
}

fn writes(h: &HourFigures) -> Option<f64> {
    h.busiest_region_write_share
}

fn reads(h: &HourFigures) -> Option<f64> {
    h.busiest_region_read_share
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::MIN, f64::max)
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::MAX, f64::min)
}

/// The compare view's sentence on which side holds up.
fn verdict(sim: &Simulation) -> String {
    let (a, b) = (&sim.tables[0], &sim.tables[1]);
    rowkey::keyvis::verdict(&format!("A ({})", a.name), a, &format!("B ({})", b.name), b)
}

fn codes(sim: &Simulation, side: usize) -> Vec<FindingCode> {
    sim.tables[side].findings.iter().map(|f| f.code).collect()
}

#[test]
fn sequential_ids_gather_the_writes_and_hashed_ids_spread_them() -> TestResult {
    let sim = run("sequential-vs-hashed")?;
    assert_eq!(verdict(&sim), "B (ab_hashed) holds up better: its busiest region server took 15.9 % of an hour's writes on average, A (ab_seq)'s 79.8 %.");
    let (a, b) = sides(&sim, 0, writes);
    assert!(a.iter().zip(&b).all(|(a, b)| a > b), "{a:?} against {b:?}");
    assert_eq!((max(&a), a[11]), (1.0, 1.0));
    assert_eq!((max(&b), b[11]), (0.177083, 0.098958));
    Ok(())
}

#[test]
fn a_leading_timestamp_takes_every_write_and_the_metric_first_spreads_them() -> TestResult {
    // Both start in four regions; from the second hour on the time key's newest region
    // takes at least 92 % of the writes, the metric-first table's busiest at most 31 %.
    let sim = run("timestamp-vs-metric-first")?;
    assert_eq!(verdict(&sim), "B (ab_metric) holds up better: its busiest region server took 28.4 % of an hour's writes on average, A (ab_tsfirst)'s 96.2 %.");
    let (a, b) = sides(&sim, 1, writes);
    assert_eq!(min(&a), 0.927083);
    assert_eq!(max(&b), 0.3125);
    assert_eq!(codes(&sim, 0), [FindingCode::GrowingKey]);
    Ok(())
}

#[test]
fn a_wide_row_is_one_hot_row_where_tall_rows_spread() -> TestResult {
    // In the first hour the wide table is one region taking every write, the tall one has
    // split already; once both have split to 16 regions their busiest regions take about the
    // same share. What stays is the celebrity's row: hot, large and growing.
    let sim = run("wide-vs-tall")?;
    assert_eq!(verdict(&sim), "B (ab_tall) holds up better: its busiest region server took 22.2 % of an hour's writes on average, A (ab_wide)'s 26.5 %.");
    let (a, b) = sides(&sim, 0, writes);
    assert_eq!((a[0], b[0]), (1.0, 0.5625));
    assert_eq!((max(&a[5..]), max(&b[5..])), (0.145833, 0.125));
    use FindingCode::*;
    assert_eq!(
        codes(&sim, 0),
        [
            HotRowReads,
            HotRowWrites,
            LargeRows,
            HotEntity,
            WideRowGrowing
        ]
    );
    assert_eq!(codes(&sim, 1), [HotEntity]);
    Ok(())
}

#[test]
fn plain_time_keys_take_every_write_and_salted_ones_spread_them() -> TestResult {
    let sim = run("plain-vs-salted")?;
    assert_eq!(verdict(&sim), "B (ab_salted) holds up better: its busiest region server took 15.8 % of an hour's writes on average, A (ab_events)'s 97.1 %.");
    let (a, b) = sides(&sim, 1, writes);
    assert_eq!(min(&a), 1.0);
    assert_eq!(max(&b), 0.177083);
    Ok(())
}

#[test]
fn long_names_grow_the_bytes_not_the_hotspot() -> TestResult {
    // Both keyed by sequential customer ids: from the second hour the newest region takes
    // every write on either side. The long names store about 2.25 times the bytes, so the table
    // splits into more regions. The compare view's sentence prefers the short names by two
    // points only: the hotspot is the same.
    let sim = run("long-vs-short-names")?;
    assert_eq!(verdict(&sim), "B (ab_shortnames) holds up better: its busiest region server took 94.4 % of an hour's writes on average, A (ab_longnames)'s 96.4 %.");
    let (a, b) = sides(&sim, 1, writes);
    assert!(a.iter().chain(&b).all(|s| *s == 1.0), "{a:?} and {b:?}");
    let (a, b) = (&sim.tables[0], &sim.tables[1]);
    assert_eq!(
        (a.totals.bytes, b.totals.bytes),
        (37_972_800_000, 16_848_000_000)
    );
    assert_eq!((a.hours[11].regions, b.hours[11].regions), (16, 11));
    Ok(())
}

#[test]
fn reversed_domains_read_a_company_from_its_own_ranges() -> TestResult {
    // Writes spread alike (random page numbers under every site); "every page of one
    // company" starts at the table's first region on the plain side (no prefix holds a
    // company) and under the company's prefix on the reversed side.
    let sim = run("plain-vs-reversed-domains")?;
    assert_eq!(verdict(&sim), "B (ab_domains_reversed) holds up better: its busiest region server took 39.4 % of an hour's reads on average, A (ab_domains_plain)'s 100 %.");
    let (a, b) = sides(&sim, 2, writes);
    assert_eq!((max(&a), max(&b)), (0.151042, 0.151042));
    let (a, b) = sides(&sim, 0, reads);
    assert!(a.iter().all(|s| *s == 1.0), "{a:?}");
    assert_eq!(max(&b), 0.411458);
    Ok(())
}

#[test]
fn a_pair_plays_from_the_command_line_by_its_id() -> TestResult {
    let args: Vec<String> = ["--design", "plain-vs-salted", "--hours", "0.05", "--json"]
        .into_iter()
        .map(String::from)
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(rowkey::simulate::cli::run(&args, &mut out, &mut err), 0);
    assert_eq!(String::from_utf8(err)?, "");
    let report: serde_json::Value = serde_json::from_slice(&out)?;
    let names: Vec<&str> = report["tables"]
        .as_array()
        .ok_or("no tables")?
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["ab_events", "ab_salted"]);
    Ok(())
}
