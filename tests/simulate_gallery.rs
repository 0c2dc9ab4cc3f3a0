//! Every gallery design and every compare pair has a workload: a stored document that reads,
//! names exactly the tables its design creates (a pair's: its A and B tables), and plays out
//! for a simulated hour.

use rowkey::designs::{self, compare};
use rowkey::simulate::gallery::{self, Shelf};
use rowkey::simulate::Workload;

mod common;

use common::TestResult;

/// The stored document of `id`, read with the error that names its JSON path.
fn read(shelf: &Shelf, id: &str) -> Result<Workload, Box<dyn std::error::Error>> {
    let text = shelf.document(id).ok_or(format!("no workload for {id}"))?;
    Workload::from_json(text).map_err(|e| format!("{id}: {e}").into())
}

fn table_names(workload: &Workload) -> Vec<&str> {
    workload.tables.iter().map(|t| t.name.as_str()).collect()
}

#[test]
fn every_design_has_a_workload_of_its_own_tables() -> TestResult {
    let catalogue = designs::catalogue();
    let ids: Vec<&str> = catalogue.iter().map(|d| d.id).collect();
    let missing: Vec<&&str> = ids
        .iter()
        .filter(|id| !gallery::ids().contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "designs without a workload: {missing:?} (add src/simulate/gallery/<id>.json and its design! line)"
    );
    assert_eq!(
        gallery::ids(),
        ids,
        "the workloads in the catalogue's order"
    );
    for design in &catalogue {
        let workload = read(&gallery::DESIGNS, design.id)?;
        assert_eq!(table_names(&workload), design.tables, "{}", design.id);
    }
    let workload = gallery::workload("schema.hashed-id").ok_or("no workload")?;
    assert_eq!(table_names(&workload), ["sg_users"]);
    assert!(gallery::workload("no.such-design").is_none());
    Ok(())
}

#[test]
fn every_pair_has_a_workload_of_its_two_tables_under_one_traffic() -> TestResult {
    let pairs = compare::pairs();
    let ids: Vec<&str> = pairs.iter().map(|p| p.id).collect();
    assert_eq!(gallery::PAIRS.ids(), ids);
    for pair in &pairs {
        let workload = read(&gallery::PAIRS, pair.id)?;
        assert_eq!(table_names(&workload), [pair.a.table, pair.b.table]);
        // The same operations at the same rates on both sides: what differs is the key.
        let ops = |t: usize| -> Vec<(String, f64)> {
            workload.tables[t]
                .operations
                .iter()
                .map(|o| (o.label(), o.rate().per_sec))
                .collect()
        };
        assert_eq!(ops(0), ops(1), "{}", pair.id);
    }
    let workload = gallery::pair_workload("wide-vs-tall").ok_or("no workload")?;
    assert_eq!(table_names(&workload), ["ab_wide", "ab_tall"]);
    assert!(gallery::pair_workload("no-such-pair").is_none());
    Ok(())
}

#[test]
fn every_workload_plays_an_hour() -> TestResult {
    for shelf in [&gallery::DESIGNS, &gallery::PAIRS] {
        for id in shelf.ids() {
            let sim = common::one_simulated_hour(read(shelf, id)?)?;
            for table in &sim.tables {
                assert_eq!(table.hours.len(), 1, "{id} {}", table.name);
                assert!(
                    table.totals.ops > 0.0,
                    "{id}: {} has no traffic",
                    table.name
                );
            }
        }
    }
    Ok(())
}
