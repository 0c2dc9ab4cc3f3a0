//! What the gallery's size lessons store under their workloads after one simulated hour:
//! every cell repeats its row, family and qualifier, so long names and one-byte values cost
//! more than they seem; a split looks at a region's largest store, so even families split
//! later than one family holding the same bytes.

use rowkey::simulate::{gallery, Simulation};

mod common;

use common::TestResult;

/// Design `id`'s workload for one simulated hour.
fn one_hour(id: &str) -> Result<Simulation, Box<dyn std::error::Error>> {
    let workload = gallery::workload(id).ok_or(format!("no workload for {id}"))?;
    Ok(common::one_simulated_hour(workload)?)
}

fn bytes(sim: &Simulation, table: &str) -> u64 {
    sim.tables
        .iter()
        .find(|t| t.name == table)
        .map_or(0, |t| t.totals.bytes)
}

fn regions(sim: &Simulation, table: &str) -> Vec<u32> {
    sim.tables
        .iter()
        .filter(|t| t.name == table)
        .flat_map(|t| t.hours.iter().map(|h| h.regions))
        .collect()
}

#[test]
fn short_names_hold_fewer_bytes() -> TestResult {
    let sim = one_hour("schema.short-names")?;
    // Per cell: 4 + 4 + 2 + 18 (row) + 1 + family + qualifier + 8 + 1 + 20 (value): 117
    // bytes with the 28- and 31-character names, 60 with `p:t`; 7.2 million customers.
    assert_eq!(bytes(&sim, "sg_longnames"), 7_200_000 * 117);
    assert_eq!(bytes(&sim, "sg_shortnames"), 7_200_000 * 60);
    Ok(())
}

#[test]
fn a_one_byte_follower_costs_a_whole_cell() -> TestResult {
    let sim = one_hour("schema.wide-row-overhead")?;
    // 1,000 followers a second for an hour, each 4 + 4 + 2 + 14 (`celebrity_0000`) + 1 +
    // 1 (`f`) + 5 (`user_`) + 8 + 1 + 1 (the value) = 41 bytes for one byte of value.
    assert_eq!(bytes(&sim, "sg_widerow"), 3_600_000 * 41);
    Ok(())
}

#[test]
fn even_families_split_later_than_one_family_or_a_skewed_four() -> TestResult {
    // The same 400 bytes a record: in one family, in four even ones (each store a quarter),
    // or in four where `a` holds 400 of 406.
    let sim = one_hour("schema.family-count")?;
    assert_eq!(regions(&sim, "sg_fam1"), [16]);
    assert_eq!(regions(&sim, "sg_fam4"), [14]);
    assert_eq!(regions(&sim, "sg_fam4_skewed"), [16]);
    Ok(())
}
