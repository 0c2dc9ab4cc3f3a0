//! `rowkey simulate --design schema.sequential-ids --hours 24 --json`: 2,000 sign-ups a second
//! of 1 KB rows into each of `sg_seq` (sequential ids) and `sg_seq_rev` (the ids' digits
//! reversed), 20,000 gets a second of users who signed up in the last hour, 8 region servers,
//! HBase's default split policy (`SteppingSplitPolicy`) and sizes, seed 1. The seeded figures
//! are asserted exactly.

use rowkey::simulate::cli;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn report() -> Result<(String, serde_json::Value), Box<dyn std::error::Error>> {
    let args: Vec<String> = [
        "--design",
        "schema.sequential-ids",
        "--hours",
        "24",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(
        cli::run(&args, &mut out, &mut err),
        0,
        "{}",
        String::from_utf8_lossy(&err)
    );
    let text = String::from_utf8(out)?;
    let json = serde_json::from_str(&text)?;
    Ok((text, json))
}

fn column(table: &serde_json::Value, name: &str) -> Vec<serde_json::Value> {
    table["hours"]
        .as_array()
        .map(|hours| hours.iter().map(|h| h[name].clone()).collect())
        .unwrap_or_default()
}

fn floats(values: &[serde_json::Value]) -> Vec<f64> {
    values
        .iter()
        .filter_map(serde_json::Value::as_f64)
        .collect()
}

#[test]
fn sequential_ids_write_to_one_region_reversed_ids_spread() -> TestResult {
    let (text, json) = report()?;
    assert_eq!(json["version"], 1);
    let (seq, rev) = (&json["tables"][0], &json["tables"][1]);
    assert_eq!(seq["name"], "sg_seq");
    assert_eq!(rev["name"], "sg_seq_rev");
    assert_eq!(column(seq, "hour").len(), 24);

    let seq_writes = floats(&column(seq, "busiest_region_write_share"));
    assert_eq!(
        seq_writes,
        vec![
            0.48776, 0.766927, 1.0, 1.0, 0.963542, 1.0, 0.803385, 1.0, 1.0, 1.0, 1.0, 1.0,
            0.958073, 1.0, 0.785938, 1.0, 1.0, 0.964583, 1.0, 0.895052, 1.0, 0.766146, 1.0, 1.0
        ]
    );
    assert_eq!(
        column(seq, "regions"),
        vec![
            9, 10, 11, 12, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26, 28, 29, 30, 32, 33, 35, 36, 38,
            39, 40
        ]
        .into_iter()
        .map(serde_json::Value::from)
        .collect::<Vec<_>>()
    );
    let rev_writes = floats(&column(rev, "busiest_region_write_share"));
    assert_eq!(
        rev_writes,
        vec![
            0.085677, 0.080208, 0.083073, 0.079167, 0.085677, 0.08776, 0.086458, 0.080729,
            0.078125, 0.084115, 0.084896, 0.086719, 0.08099, 0.08151, 0.077865, 0.080729, 0.083854,
            0.081771, 0.077604, 0.078125, 0.077344, 0.058854, 0.059375, 0.059375
        ]
    );
    let rev_regions: Vec<u64> = column(rev, "regions")
        .iter()
        .filter_map(|v| v.as_u64())
        .collect();
    assert_eq!(
        rev_regions,
        vec![
            16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17, 17, 18, 20, 22, 24,
            24, 25
        ]
    );

    // sg_seq: every new id is the largest key, so the last region takes every write. An hour
    // reads below 0.9 only when the last region split inside it: the hour's writes are then
    // counted by key against the regions of the hour's end, and those made before the split
    // point fall in the left daughter.
    let first_split = seq["splits"][0]["at_ms"].as_u64().unwrap_or(0);
    assert_eq!(first_split, 189843);
    let splits: Vec<u64> = seq["splits"]
        .as_array()
        .map(|s| s.iter().filter_map(|s| s["at_ms"].as_u64()).collect())
        .unwrap_or_default();
    assert_eq!(splits.len(), 39);
    for (hour, share) in seq_writes.iter().enumerate().skip(1) {
        let (start, end) = (hour as u64 * 3_600_000, (hour as u64 + 1) * 3_600_000);
        let split_inside = splits.iter().any(|&t| t >= start && t < end);
        assert!(*share > 0.9 || split_inside, "hour {hour}: {share}");
    }
    let above: usize = seq_writes.iter().skip(1).filter(|s| **s > 0.9).count();
    assert_eq!(above, 18);

    // sg_seq_rev: reversed ids differ in their first digit, so the writes spread.
    for (share, regions) in rev_writes.iter().zip(&rev_regions) {
        if *regions >= 4 {
            assert!(*share < 0.5);
        }
    }

    // Findings: the growing key and the hot reads of the newest users; none for sg_seq_rev.
    let codes: Vec<&str> = seq["findings"]
        .as_array()
        .map(|f| f.iter().filter_map(|f| f["code"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(codes, vec!["high_read_pressure", "growing_key"]);
    assert_eq!(seq["findings"][1]["figure"], 1.0);
    assert_eq!(seq["findings"][1]["threshold"], 0.9);
    assert_eq!(seq["findings"][1]["compare"], ">=");
    assert_eq!(rev["findings"], serde_json::json!([]));

    assert_eq!(seq["totals"]["ops"], 1900800000u64);
    assert_eq!(seq["totals"]["rows"], 172800000u64);
    assert_eq!(seq["totals"]["bytes"], 182995200000u64);

    // Byte-identical for the same workload and seed.
    assert_eq!(report()?.0, text);
    Ok(())
}
