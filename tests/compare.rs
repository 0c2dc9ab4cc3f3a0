//! A/B compare: each pair's two designs run the one workload the pair defines, each on a
//! fresh engine, and the relations the pair teaches hold: per side (the busiest region's share
//! of the writes, rows scanned against returned) and between the sides.
mod common;
use common::*;
use rowkey::designs::compare::{find, pairs, SideRun};
use rowkey::designs::lesson::Measure;

fn run(id: &str) -> Result<(SideRun, SideRun), String> {
    let pair = find(id).ok_or(format!("no pair {id}"))?;
    pair.run(|| shell_at(1_700_000_000_000).0)
}

fn print(id: &str, label: &str, r: &SideRun) {
    let (w, rd) = (&r.writes, &r.reads);
    println!(
        "{id} {label}: share {:.1}% write regions {} rows/action {:.2} bytes/record {:.1} bytes {} | scanned {} returned {} read regions {} | table {} rows in {} regions",
        w.busiest_write_share, w.regions_touched, w.rows_per_action(), w.bytes_per_record(), w.kv_bytes_written,
        rd.rows_scanned, rd.rows_returned, rd.regions_touched, r.rows, r.regions
    );
}

#[test]
fn every_pair_runs_and_its_relations_hold() -> Result<(), String> {
    let mut failures = Vec::new();
    for pair in pairs() {
        let (a, b) = pair.run(|| shell_at(1_700_000_000_000).0)?;
        print(pair.id, "A", &a);
        print(pair.id, "B", &b);
        for (side, r) in [("A", &a), ("B", &b)] {
            for (phase, claim, held) in &r.checks {
                if !held {
                    failures.push(format!(
                        "{} {side} {}: {}",
                        pair.id,
                        phase.label(),
                        claim.explain(r.get(*phase))
                    ));
                }
            }
            assert!(!r.checks.is_empty(), "{} {side}: no lesson", pair.id);
        }
        for v in &pair.versus {
            if !v.holds(&a, &b) {
                failures.push(format!("{}: {}", pair.id, v.explain(&a, &b)));
            }
        }
        // One workload: both sides perform the same logical actions and answer the same
        // questions, each with at least one read (a salted range is one read per bucket).
        assert_eq!(a.writes.actions, b.writes.actions, "{}", pair.id);
        assert_eq!(a.writes.rows_written, b.writes.rows_written, "{}", pair.id);
        assert!(
            a.reads.reads >= pair.read_actions && b.reads.reads >= pair.read_actions,
            "{}",
            pair.id
        );
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

#[test]
fn sequential_ids_send_every_signup_to_one_region_hashed_ids_spread_them() -> Result<(), String> {
    let (seq, hashed) = run("sequential-vs-hashed")?;
    assert!(seq.writes.busiest_write_share > 90.0);
    assert!(hashed.writes.busiest_write_share < 50.0);
    assert!(hashed.writes.regions_touched >= 3);
    // The same lookups find the same users; the range of ids costs the hashed table a full read.
    assert_eq!(seq.reads.rows_returned, hashed.reads.rows_returned);
    assert!(hashed.reads.rows_scanned >= hashed.rows - 100);
    Ok(())
}

#[test]
fn a_minute_of_cpu_reads_every_metric_when_the_time_comes_first() -> Result<(), String> {
    let (ts_first, metric_first) = run("timestamp-vs-metric-first")?;
    assert_eq!(ts_first.reads.rows_returned, 60);
    assert_eq!(metric_first.reads.rows_returned, 60);
    assert_eq!(ts_first.reads.rows_scanned, 240);
    assert_eq!(metric_first.reads.rows_scanned, 60);
    assert!(ts_first.writes.busiest_write_share > 90.0);
    Ok(())
}

#[test]
fn tall_rows_spread_the_follows_and_pay_for_longer_keys() -> Result<(), String> {
    let (wide, tall) = run("wide-vs-tall")?;
    assert!(wide.writes.busiest_write_share > tall.writes.busiest_write_share);
    assert!(tall.writes.bytes_per_record() > wide.writes.bytes_per_record());
    // Both find the same followers of the celebrity.
    assert_eq!(wide.reads.get(Measure::RowsScanned), 2.0);
    assert!(tall.reads.rows_returned > 20);
    Ok(())
}

#[test]
fn the_comparison_leaves_the_persons_tables_alone() -> Result<(), String> {
    // The person has a table named like a side's: the pair runs on fresh shells, so it stays.
    let (mut mine, _) = shell_at(1_700_000_000_000);
    mine.run("create 'ab_seq', 'x'\nput 'ab_seq', 'mine', 'x:q', 'kept'");
    let pair = find("sequential-vs-hashed").ok_or("no pair")?;
    pair.run(|| shell_at(1_700_000_000_000).0)?;
    let out = mine.run("get 'ab_seq', 'mine'");
    assert!(out[0].output.contains("value=kept"), "{}", out[0].output);
    Ok(())
}

#[test]
fn salting_spreads_the_events_and_turns_the_minute_into_a_scan_per_bucket() -> Result<(), String> {
    let (plain, salted) = run("plain-vs-salted")?;
    assert!(plain.writes.busiest_write_share > 90.0);
    assert!(salted.writes.busiest_write_share < 25.0);
    assert_eq!((plain.reads.reads, salted.reads.reads), (1, 8));
    assert_eq!(plain.reads.rows_returned, salted.reads.rows_returned);
    assert!(plain.reads.rows_returned > 0);
    Ok(())
}

#[test]
fn long_names_more_than_double_the_bytes_and_split_into_more_regions() -> Result<(), String> {
    let (long, short) = run("long-vs-short-names")?;
    assert!(long.writes.bytes_per_record() > 2.0 * short.writes.bytes_per_record());
    assert!(
        long.regions > short.regions,
        "{} against {}",
        long.regions,
        short.regions
    );
    assert_eq!(long.rows, short.rows);
    assert_eq!(long.reads.rows_returned, 10);
    Ok(())
}

#[test]
fn reversed_domains_read_only_the_site_plain_ones_read_everything() -> Result<(), String> {
    let (plain, reversed) = run("plain-vs-reversed-domains")?;
    assert_eq!(plain.reads.rows_scanned, plain.rows);
    assert_eq!(reversed.reads.rows_scanned, reversed.reads.rows_returned);
    assert_eq!(plain.reads.rows_returned, reversed.reads.rows_returned);
    Ok(())
}
