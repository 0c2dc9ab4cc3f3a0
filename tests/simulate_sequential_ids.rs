//! `rowkey simulate --design schema.sequential-ids --hours 24 --json`: 2,000 sign-ups a second
//! of 1 KB rows into each of `sg_seq` (sequential ids) and `sg_seq_rev` (the ids' digits
//! reversed), 20,000 gets a second of users who signed up in the last hour, 8 region servers,
//! HBase's default split policy (`SteppingSplitPolicy`) and sizes, seed 1. The seeded figures
//! are asserted exactly.

use rowkey::simulate::cli;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// `rowkey simulate --design schema.sequential-ids --hours 24` with `extra` arguments: its
/// output.
fn simulate(extra: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let args: Vec<String> = ["--design", "schema.sequential-ids", "--hours", "24"]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(
        cli::run(&args, &mut out, &mut err),
        0,
        "{}",
        String::from_utf8_lossy(&err)
    );
    Ok(String::from_utf8(out)?)
}

fn report() -> Result<(String, serde_json::Value), Box<dyn std::error::Error>> {
    let text = simulate(&["--json"])?;
    let json = serde_json::from_str(&text)?;
    Ok((text, json))
}

#[test]
fn the_text_table_shows_both_attributions() -> TestResult {
    let text = simulate(&[])?;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "TABLE sg_seq");
    assert_eq!(
        lines[1],
        " HOUR  REGIONS  REGION WRITES  REGION READS SERVER WRITES  SERVER READS  LIVE WRITES LIVE READS"
    );
    // Hour 6: 80.1 % of its writes by key at its end, 98.9 % as they were taken.
    assert_eq!(
        lines[8],
        "    6       21          80.1%         39.6%        100.0%         71.9%        98.9%      98.5%"
    );
    assert_eq!(
        lines[26],
        "Shares of the hour's operations by key against the regions of its end;"
    );
    assert_eq!(
        lines[27],
        "LIVE: the busiest region's share as each operation was taken, step by step."
    );
    Ok(())
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
            0.572656, 1.0, 1.0, 1.0, 1.0, 1.0, 0.800781, 1.0, 1.0, 0.876042, 0.947396, 1.0, 1.0,
            1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
        ]
    );
    assert_eq!(
        column(seq, "regions"),
        vec![
            9, 10, 12, 14, 16, 18, 21, 22, 23, 25, 27, 28, 31, 33, 35, 37, 39, 41, 43, 45, 47, 50,
            52, 54
        ]
        .into_iter()
        .map(serde_json::Value::from)
        .collect::<Vec<_>>()
    );
    let rev_writes = floats(&column(rev, "busiest_region_write_share"));
    assert_eq!(
        rev_writes,
        vec![
            0.089583, 0.094271, 0.088021, 0.09401, 0.101302, 0.09349, 0.09974, 0.095052, 0.092448,
            0.105208, 0.08776, 0.097135, 0.094531, 0.086979, 0.085938, 0.080208, 0.088021,
            0.067708, 0.077083, 0.063021, 0.065885, 0.061458, 0.064323, 0.065104
        ]
    );
    let rev_regions: Vec<u64> = column(rev, "regions")
        .iter()
        .filter_map(|v| v.as_u64())
        .collect();
    assert_eq!(
        rev_regions,
        vec![
            16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17, 17, 18, 18, 21, 21, 22, 22, 22,
            22, 22
        ]
    );

    // sg_seq: every new id is the largest key, so at every moment the last region takes every
    // write. The hour's figure counts the hour's writes by key against the regions of the
    // hour's end; when the last of them opened from a split whose point (the middle key of
    // the parent's largest store file) was written inside the hour, the writes made before
    // that point count for its left sibling. So the figure is exactly the fraction of the
    // hour after the moment the end's last region's first key was written (ids are made
    // 2,000 a second from 1,000,000,000): 21 of the 23 hours after the first split read above
    // 0.9; hours 6 and 9 read 0.800781 and 0.876042.
    let first_split = seq["splits"][0]["at_ms"].as_u64().unwrap_or(0);
    assert_eq!(first_split, 189843);
    let splits: Vec<(u64, u64)> = seq["splits"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|s| Some((s["at_ms"].as_u64()?, s["key"].as_str()?.parse().ok()?)))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(splits.len(), 53);
    for (hour, share) in seq_writes.iter().enumerate().skip(1) {
        let (start, end) = (hour as f64 * 3_600_000.0, (hour + 1) as f64 * 3_600_000.0);
        let last_start = splits
            .iter()
            .filter(|(at, _)| (*at as f64) < end)
            .map(|(_, key)| *key)
            .max()
            .ok_or("no split")?;
        let written_at = (last_start - 1_000_000_000) as f64 / 2_000.0 * 1_000.0;
        let after = (end - written_at.max(start)) / 3_600_000.0;
        assert!(
            (share - after).abs() < 0.001,
            "hour {hour}: {share} against {after}"
        );
    }
    let above: usize = seq_writes.iter().skip(1).filter(|s| **s > 0.9).count();
    assert_eq!(above, 21);

    // sg_seq_rev: reversed ids differ in their first digit, so the writes spread.
    for (share, regions) in rev_writes.iter().zip(&rev_regions) {
        if *regions >= 4 {
            assert!(*share < 0.5);
        }
    }

    // The live shares count each write for the region that took it, step by step (one step
    // is a minute, 64 samples of its 120,000 writes at evenly spaced moments). For sg_seq
    // the last region takes every write, so a step's busiest region takes all of them but
    // in a step with a split, where the parent took the writes up to the split and its
    // upper daughter the rest: the surprise of hours 6 and 9 above (0.800781 and 0.876042
    // by key at the hour's end) is gone, 0.989063 and 0.989323 live.
    let seq_live = floats(&column(seq, "busiest_region_write_share_live"));
    assert_eq!(
        seq_live,
        vec![
            0.967969, 0.999479, 0.989323, 0.993229, 0.996354, 0.994271, 0.989063, 0.994531,
            0.999479, 0.989323, 0.996094, 0.995573, 0.980729, 0.990104, 0.989063, 0.997396,
            0.999479, 0.990104, 0.988802, 0.99375, 0.986198, 0.991667, 0.990625, 0.9875
        ]
    );
    // Every hour from the first split's (hour 0) on reads above 0.9.
    assert_eq!(first_split / 3_600_000, 0);
    assert!(seq_live.iter().all(|s| *s > 0.9));
    // Each figure is what the split times give: a split at `at_ms` falls on the sample of
    // its step made at that ms; the parent took the step's samples up to it, its daughter
    // the rest, and the hour's share is the steps' busiest parts over all their writes.
    let (step_ms, k) = (60_000u64, 64u64);
    let mut deficit = [0.0f64; 24];
    let mut by_step: std::collections::BTreeMap<u64, Vec<u64>> = Default::default();
    for (at, _) in &splits {
        by_step.entry(at / step_ms).or_default().push(*at);
    }
    for (step, ats) in &by_step {
        let t0 = step * step_ms;
        let mut bounds = vec![0u64];
        for at in ats {
            let i = (0..k)
                .find(|i| t0 + ((*i as f64 + 0.5) / k as f64 * step_ms as f64) as u64 == *at)
                .ok_or("a split between samples")?;
            bounds.push(i + 1);
        }
        bounds.push(k);
        let busiest = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(k);
        deficit[(step / 60) as usize] += 1.0 - busiest as f64 / k as f64;
    }
    for (hour, share) in seq_live.iter().enumerate() {
        let expected = 1.0 - deficit[hour] / 60.0;
        assert!(
            (share - expected).abs() < 1e-6,
            "hour {hour}: {share} against {expected}"
        );
    }
    // Daughters open on their parent's server and the balancer runs between steps, so one
    // server takes every write of sg_seq.
    assert_eq!(
        floats(&column(seq, "busiest_server_write_share_live")),
        vec![1.0; 24]
    );
    assert_eq!(
        floats(&column(seq, "busiest_region_read_share_live"))[..4],
        [0.525521, 0.896875, 0.982813, 0.984635]
    );

    // sg_seq_rev live: below 0.5 in every hour (it has four regions or more at every hour's
    // end). It reads above the figure by key: a step's 64 write samples over 16 regions or
    // more put 8 or 9 in the busiest of them, where the hour's 3,840 even out.
    let rev_live = floats(&column(rev, "busiest_region_write_share_live"));
    assert_eq!(
        rev_live,
        vec![
            0.231771, 0.138802, 0.134896, 0.135677, 0.135417, 0.136979, 0.134375, 0.136458,
            0.13151, 0.142188, 0.13724, 0.142969, 0.134115, 0.128646, 0.126302, 0.126302, 0.121094,
            0.11849, 0.114583, 0.107552, 0.108594, 0.107031, 0.104948, 0.106771
        ]
    );
    for (share, regions) in rev_live.iter().zip(&rev_regions) {
        assert!(*regions >= 4 && *share < 0.5);
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
