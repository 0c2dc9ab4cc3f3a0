//! The gallery's hotspot lessons and their fixes show in their findings after one simulated
//! hour, with exact seeded figures: a timestamp-first key gets its growing key, a salted or
//! hashed one none; a Zipf-skewed entity is named; a wide row grows without bound where the
//! tall layout's rows do not. Where a hotspot has no finding of its own (two busy sites'
//! ends), the busiest region's share of the writes shows it over the design's six hours.

use rowkey::simulate::{gallery, simulate, FindingCode, Options, Simulation, Workload};

use FindingCode::*;

mod common;

use common::TestResult;

/// Design `id`'s workload for one simulated hour.
fn one_hour(id: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let workload = gallery::workload(id).ok_or(format!("no workload for {id}"))?;
    Ok(common::one_simulated_hour(workload)?)
}

/// Each finding of `table` as (code, figure, threshold).
fn findings(sim: &Simulation, table: &str) -> Vec<(FindingCode, f64, f64)> {
    sim.tables
        .iter()
        .find(|t| t.name == table)
        .map(|t| {
            t.findings
                .iter()
                .map(|f| (f.code, f.figure, f.threshold))
                .collect()
        })
        .unwrap_or_default()
}

fn subjects(sim: &Simulation, table: &str, code: FindingCode) -> Vec<String> {
    sim.tables
        .iter()
        .filter(|t| t.name == table)
        .flat_map(|t| t.findings.iter())
        .filter(|f| f.code == code)
        .map(|f| f.subject.clone())
        .collect()
}

#[test]
fn a_leading_timestamp_or_counter_is_a_growing_key_and_its_fixes_are_clean() -> TestResult {
    let sim = one_hour("schema.metric-timestamp")?;
    assert_eq!(findings(&sim, "sg_metric"), []);
    assert_eq!(
        findings(&sim, "sg_metric_tsfirst"),
        [(GrowingKey, 1.0, 0.9)]
    );

    let sim = one_hour("schema.sequential-ids")?;
    assert_eq!(findings(&sim, "sg_seq"), [(GrowingKey, 1.0, 0.9)]);
    assert_eq!(findings(&sim, "sg_seq_rev"), []);

    // 8,000 events a second: the time key's last region holds 0.8 of its server's writes.
    let sim = one_hour("schema.salting")?;
    assert_eq!(findings(&sim, "sg_salted"), []);
    assert_eq!(
        findings(&sim, "sg_events"),
        [(HighWritePressure, 0.8, 0.8), (GrowingKey, 1.0, 0.9)]
    );

    let sim = one_hour("schema.hashed-id")?;
    assert_eq!(findings(&sim, "sg_users"), []);

    let sim = one_hour("cases.secondary-index")?;
    assert_eq!(findings(&sim, "ix_access"), [(GrowingKey, 1.0, 0.9)]);
    assert_eq!(findings(&sim, "ix_login"), [(HotEntity, 3446.969697, 10.0)]);
    Ok(())
}

#[test]
fn a_random_salt_spreads_writes_as_a_hashed_one_but_reads_every_bucket() -> TestResult {
    let sim = one_hour("schema.random-salt")?;
    assert_eq!(findings(&sim, "rs_random"), []);
    assert_eq!(findings(&sim, "rs_hashed"), []);
    let ops = |name: &str| {
        sim.tables
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.totals.ops)
    };
    // 3,000 events a second each; a lookup is eight gets against one.
    assert_eq!(ops("rs_random"), Some((3_000.0 + 8_000.0) * 3_600.0));
    assert_eq!(ops("rs_hashed"), Some((3_000.0 + 1_000.0) * 3_600.0));
    Ok(())
}

#[test]
fn a_type_prefix_takes_two_values() -> TestResult {
    let sim = one_hour("org.departments")?;
    assert_eq!(
        findings(&sim, "org_dept"),
        [
            (GrowingKey, 0.995825, 0.9),
            (LowCardinalityPrefix, 2.0, 7.0)
        ]
    );
    Ok(())
}

#[test]
fn one_row_rewritten_every_second_is_hot_and_a_row_per_sample_is_not() -> TestResult {
    let sim = one_hour("schema.frequent-updates")?;
    assert_eq!(
        findings(&sim, "sg_memusage_one"),
        [
            (HotRowReads, 1.0, 0.01),
            (HotRowWrites, 1.0, 0.01),
            (KeySpaceNotToScale, 1.0, 1000.0)
        ]
    );
    assert_eq!(findings(&sim, "sg_memusage"), [(GrowingKey, 1.0, 0.9)]);
    Ok(())
}

#[test]
fn wide_rows_grow_without_bound_and_tall_rows_do_not() -> TestResult {
    let sim = one_hour("schema.tall-vs-wide")?;
    assert_eq!(
        findings(&sim, "sg_wide"),
        [
            (HotRowReads, 0.085417, 0.01),
            (HotRowWrites, 0.060417, 0.01),
            (HotEntity, 72916.666667, 10.0),
            (WideRowGrowing, 10_440_000.0, 10_000.0)
        ]
    );
    assert_eq!(findings(&sim, "sg_tall"), [(HotEntity, 73958.333333, 10.0)]);

    let sim = one_hour("schema.entity-rows")?;
    assert_eq!(
        findings(&sim, "sg_entity_one"),
        [
            (HotRowReads, 0.160417, 0.01),
            (HotRowWrites, 0.15, 0.01),
            (HotEntity, 1509.469697, 10.0),
            (WideRowGrowing, 25_920_000.0, 10_000.0)
        ]
    );
    assert_eq!(
        findings(&sim, "sg_entity_rows"),
        [(HotEntity, 1456.439394, 10.0)]
    );
    Ok(())
}

#[test]
fn a_zipf_skewed_entity_is_named_with_its_rows() -> TestResult {
    let sim = one_hour("weibo.posts")?;
    assert_eq!(findings(&sim, "wb_post"), [(HotEntity, 81702.898551, 10.0)]);
    assert_eq!(
        subjects(&sim, "wb_post", HotEntity),
        ["entity 0 (rows starting '0000000'), 8.2% of operations"]
    );
    Ok(())
}

#[test]
fn a_key_of_time_alone_collides_where_a_counter_keeps_posts_apart() -> TestResult {
    let text = gallery::DESIGNS
        .document("schema.colliding-keys")
        .ok_or("no workload")?;
    assert!(Workload::from_json(text).is_ok());
    // The same document with `ck_posts` marked unique is refused, naming two colliding rows.
    let unique = text.replacen(
        r#"{"name": "ck_posts","#,
        r#"{"name": "ck_posts", "unique": true,"#,
        1,
    );
    assert_ne!(unique, text);
    let err = Workload::from_json(&unique)
        .err()
        .ok_or("ck_posts took unique")?;
    assert_eq!(
        err.to_string(),
        "$.tables[0].key: rows 15 and 16 both get the key '001_9223370332787575802' though unique is set: add a sequence field, or a wider one"
    );
    Ok(())
}

#[test]
fn a_small_table_read_by_every_walk_is_one_servers_load() -> TestResult {
    // 3,000 locations never reach a split: 20,000 reads a second meet one server's capacity.
    let sim = one_hour("cases.locations")?;
    assert_eq!(
        findings(&sim, "cs_location"),
        [(HighReadPressure, 1.0, 0.8)]
    );
    Ok(())
}

#[test]
fn pages_numbered_upwards_gather_at_their_sites_ends() -> TestResult {
    // Six hours in 10-minute steps: two sites write nine pages in ten. Numbered upwards,
    // each writes at the end of its range, and from the second hour the busiest region takes
    // 51-63 % of the writes; numbered at random, 13-16 %.
    let mut workload = gallery::workload("schema.few-domains").ok_or("no workload")?;
    workload.step_ms = Some(600_000);
    workload.samples_per_step = Some(16);
    let sim = simulate(&workload, &Options::default())?;
    let shares = |t: usize| -> Vec<f64> {
        sim.tables[t].hours[1..]
            .iter()
            .filter_map(|h| h.busiest_region_write_share)
            .collect()
    };
    assert_eq!(shares(0), [0.625, 0.510417, 0.614583, 0.541667, 0.541667]);
    assert_eq!(shares(1), [0.15625, 0.135417, 0.145833, 0.135417, 0.125]);
    Ok(())
}

/// A finding about a stretch of time names its moment: the step its ten minutes start at and
/// the region, which the page shows in the regions table of that moment, marked (a region
/// that split later is not in the table of the run's end, which the page shows first).
#[test]
fn a_pressure_finding_names_the_moment_whose_regions_hold_its_region() -> TestResult {
    use rowkey::keyvis::{rows_at, RegionSort};
    let sim = one_hour("schema.salting")?;
    let run = sim
        .tables
        .iter()
        .find(|t| t.name == "sg_events")
        .ok_or("no sg_events")?;
    let moments: Vec<_> = run.findings.iter().map(|f| (f.code, f.moment)).collect();
    let (_, moment) = moments
        .iter()
        .find(|(code, _)| *code == HighWritePressure)
        .ok_or("no write pressure finding")?;
    let moment = moment.ok_or("the pressure finding names no moment")?;
    assert_eq!((moment.step, moment.region), (21, 16));
    // The growing key is about the whole run: no moment.
    assert!(moments.contains(&(GrowingKey, None)));
    let span = run
        .timeline
        .regions
        .get(moment.region as usize)
        .ok_or("no such region")?;
    let subject = &run.findings[0].subject;
    assert!(
        subject.contains(&format!("(region {})", moment.region)),
        "{subject}"
    );
    assert!(
        subject.contains(&rowkey::bytes::to_printable(&span.start_key)),
        "{subject}"
    );
    let at_moment = rows_at(&run.timeline, moment.step, RegionSort::default());
    assert!(at_moment.iter().any(|r| r.figures.region == moment.region));
    Ok(())
}
