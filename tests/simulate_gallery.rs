//! Every gallery workload reads, names only its design's tables, and plays out; a few designs'
//! lessons show in their findings after one simulated hour.

use rowkey::designs;
use rowkey::simulate::{gallery, simulate, FindingCode, Options, Simulation};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn one_hour(id: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let mut workload = gallery::workload(id).ok_or(format!("no workload for {id}"))?;
    workload.duration_ms = 3_600_000;
    workload.step_ms = Some(120_000);
    workload.samples_per_step = Some(16);
    Ok(simulate(&workload, &Options::default())?)
}

fn codes(sim: &Simulation, table: &str) -> Vec<FindingCode> {
    sim.tables
        .iter()
        .find(|t| t.name == table)
        .map(|t| t.findings.iter().map(|f| f.code).collect())
        .unwrap_or_default()
}

#[test]
fn every_workload_is_its_designs() -> TestResult {
    assert_eq!(gallery::ids().len(), 14);
    for id in gallery::ids() {
        let design = designs::find(id).ok_or(format!("no design {id}"))?;
        let workload = gallery::workload(id).ok_or(format!("{id} does not read"))?;
        for table in &workload.tables {
            assert!(
                design.tables.contains(&table.name.as_str()),
                "{id}: {} is not one of {:?}",
                table.name,
                design.tables
            );
        }
    }
    assert!(gallery::workload("no.such-design").is_none());
    Ok(())
}

#[test]
fn lessons_show_in_the_findings() -> TestResult {
    let sim = one_hour("schema.metric-timestamp")?;
    assert_eq!(codes(&sim, "sg_metric"), vec![]);
    assert_eq!(
        codes(&sim, "sg_metric_tsfirst"),
        vec![FindingCode::GrowingKey]
    );

    let sim = one_hour("schema.salting")?;
    assert_eq!(codes(&sim, "sg_salted"), vec![]);
    assert!(codes(&sim, "sg_events").contains(&FindingCode::GrowingKey));

    let sim = one_hour("schema.frequent-updates")?;
    assert!(codes(&sim, "sg_memusage_one").contains(&FindingCode::HotRowWrites));
    assert!(!codes(&sim, "sg_memusage").contains(&FindingCode::HotRowWrites));

    let sim = one_hour("schema.tall-vs-wide")?;
    assert!(codes(&sim, "sg_wide").contains(&FindingCode::WideRowGrowing));
    assert!(!codes(&sim, "sg_tall").contains(&FindingCode::WideRowGrowing));

    let sim = one_hour("weibo.posts")?;
    assert_eq!(codes(&sim, "wb_post"), vec![FindingCode::HotEntity]);
    Ok(())
}

#[test]
fn short_names_hold_fewer_bytes() -> TestResult {
    let sim = one_hour("schema.short-names")?;
    let bytes = |name: &str| {
        sim.tables
            .iter()
            .find(|t| t.name == name)
            .map_or(0, |t| t.totals.bytes)
    };
    // Per cell: 4 + 4 + 2 + 18 (row) + 1 + family + qualifier + 8 + 1 + 20 (value): 117
    // bytes with the 28- and 31-character names, 60 with `p:t`.
    assert_eq!(bytes("sg_longnames") * 60, bytes("sg_shortnames") * 117);
    Ok(())
}
