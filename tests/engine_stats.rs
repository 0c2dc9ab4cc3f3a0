//! Statistics: what each operation touched, per-region counters, write amplification.
mod common;
use common::*;
use rowkey::engine::{FamilyDescriptor, Scan, TableDescriptor};

#[test]
fn get_touches_one_region_and_counts_runs_and_memstore() -> TestResult {
    let clock = Clock::at(1);
    let mut e = clock.engine();
    e.create_table(
        TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]),
        vec![b"m".to_vec()],
    )?;
    e.mutate("t", b"a", &[put("f", "q", None, "1")])?;
    e.flush("t")?;
    e.mutate("t", b"a", &[put("f", "q", None, "2")])?;
    let out = e.scan("t", &mut Scan::get(b"a"))?;
    assert_eq!(out.stats.regions.len(), 1);
    assert_eq!(out.stats.memstores_touched, 1);
    assert_eq!(out.stats.runs_touched, 1);
    assert_eq!(out.stats.cells_examined, 2);
    assert_eq!(out.stats.cells_returned, 1);
    let first = &e.table("t")?.regions[0].stats;
    assert!(first.reads >= 1 && first.writes == 2);
    assert_eq!(e.table("t")?.regions[1].stats.writes, 0);
    Ok(())
}

#[test]
fn write_amplification_of_an_action() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let before = e.counters();
    for i in 0..2000 {
        e.mutate(
            "t",
            format!("k{i:04}").as_bytes(),
            &[put("f", "q", None, "value-value-value")],
        )?;
    }
    let action = e.counters().since(&before);
    assert_eq!(action.mutations, 2000);
    assert!(action.flushes > 0);
    assert!(
        action.write_amplification() > 0.5,
        "flushes and compactions rewrote data: {}",
        action.write_amplification()
    );
    Ok(())
}

#[test]
fn region_counters_count_reads_and_writes() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.mutate("t", b"a", &[put("f", "q", None, "1")])?;
    e.scan("t", &mut Scan::default())?;
    let stats = &e.table("t")?.regions[0].stats;
    assert_eq!((stats.reads, stats.writes), (1, 1));
    Ok(())
}
