//! A table's rule set: HBase's by default, saved in the catalog, and the three places where
//! another rule set changes what the one read path and the rewrites do (delete masking,
//! versions and TTL at read or only at compaction, the timestamp unit).
mod common;
use common::*;
use std::collections::HashMap;

use rowkey::engine::{
    Catalog, DeleteMasking, Engine, FamilyDescriptor, Mutation, Retention, Rules, SplitRule,
    TableDescriptor, TimestampUnit, CATALOG_VERSION,
};
use rowkey::persist::{decode_catalog, encode_catalog};

fn table_with(e: &mut Engine, rules: Rules) -> Result<(), rowkey::engine::Error> {
    let mut desc = TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]);
    desc.rules = rules;
    e.create_table(desc, vec![])
}

fn restored(catalog: Catalog) -> Engine {
    Engine::restore(Box::new(|| 0), catalog, &HashMap::new()).0
}

#[test]
fn a_new_table_follows_hbase() -> TestResult {
    let (e, _) = engine_with(&[("f", 1)])?;
    assert_eq!(e.table("t")?.descriptor.rules, Rules::HBASE);
    assert_eq!(Rules::default(), Rules::HBASE);
    Ok(())
}

#[test]
fn rules_are_saved_with_the_catalog() -> TestResult {
    let clock = Clock::at(5);
    let mut e = clock.engine();
    let gc = Rules {
        deletes: DeleteMasking::NoMarkers,
        retention: Retention::AtCompaction,
        timestamps: TimestampUnit::MicrosAtMillis,
        splits: SplitRule::SizeAndLoad,
    };
    table_with(&mut e, gc)?;
    let bytes = encode_catalog(&e.catalog());
    let catalog = decode_catalog(&bytes)?;
    assert_eq!(catalog.version, CATALOG_VERSION);
    assert_eq!(restored(catalog).table("t")?.descriptor.rules, gc);
    Ok(())
}

/// A catalog saved before tables carried rules (version 1, no `rules` key) restores with
/// HBase's.
#[test]
fn a_version_1_catalog_reads_as_hbase() -> TestResult {
    let (e, _) = engine_with(&[("f", 1)])?;
    let text = rowkey::persist::catalog_to_json(&e.catalog()).to_compact();
    let rules = r#","rules":{"deletes":"Markers","retention":"AtRead","splits":"Size","timestamps":"Milliseconds"}"#;
    assert!(text.contains(rules), "version 2 writes rules: {text}");
    let v1 = text
        .replacen(rules, "", 1)
        .replacen(",\"version\":2}", ",\"version\":1}", 1);
    let value = rowkey::json::parse(&v1)?;
    let catalog: Catalog = rowkey::persist::catalog_from_json(&rowkey::json::Node::root(&value))?;
    assert_eq!(catalog.version, 1);
    assert_eq!(restored(catalog).table("t")?.descriptor.rules, Rules::HBASE);
    Ok(())
}

#[test]
fn server_timestamps_in_microseconds_at_millisecond_granularity() -> TestResult {
    let clock = Clock::at(1_700);
    let mut e = clock.engine();
    table_with(
        &mut e,
        Rules {
            timestamps: TimestampUnit::MicrosAtMillis,
            ..Rules::HBASE
        },
    )?;
    e.mutate("t", b"r", &[put("f", "q", None, "v")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 1)?,
        vec![(1_700_000, "v".into())]
    );
    Ok(())
}

/// Family TTL of 10 s against microsecond timestamps: a cell 9 s old is read, one 11 s old
/// is not (the TTL is converted to the table's unit, not compared as milliseconds).
#[test]
fn ttl_counts_in_the_tables_unit() -> TestResult {
    let clock = Clock::at(100_000);
    let mut e = clock.engine();
    let mut f = FamilyDescriptor::new("f");
    f.ttl_seconds = Some(10);
    let mut desc = TableDescriptor::new("t", vec![f]);
    desc.rules.timestamps = TimestampUnit::MicrosAtMillis;
    e.create_table(desc, vec![])?;
    e.mutate("t", b"r", &[put("f", "q", None, "v")])?;
    clock.advance(9_000);
    assert_eq!(versions(&mut e, "r", "f", "q", 1)?.len(), 1);
    clock.advance(2_000);
    assert_eq!(versions(&mut e, "r", "f", "q", 1)?.len(), 0);
    Ok(())
}

/// With garbage collection at compaction, a family of VERSIONS 1 still reads all three
/// versions (after a flush too) until a major compaction collects the older two.
#[test]
fn versions_apply_only_at_compaction_under_gc_rules() -> TestResult {
    let clock = Clock::at(10);
    let mut e = clock.engine();
    table_with(
        &mut e,
        Rules {
            retention: Retention::AtCompaction,
            ..Rules::HBASE
        },
    )?;
    for ts in [1, 2, 3] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &format!("v{ts}"))])?;
    }
    let all = vec![(3, "v3".into()), (2, "v2".into()), (1, "v1".into())];
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, all);
    e.flush("t")?;
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, all);
    e.compact("t", true)?;
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, vec![(3, "v3".into())]);
    Ok(())
}

/// The same writes under HBase's rules: VERSIONS applies at read.
#[test]
fn versions_apply_at_read_under_hbase_rules() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for ts in [1, 2, 3] {
        e.mutate("t", b"r", &[put("f", "q", Some(ts), &format!("v{ts}"))])?;
    }
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, vec![(3, "v3".into())]);
    Ok(())
}

/// Without delete markers, a delete takes away the cells that exist when it is written, whatever
/// its timestamp, and nothing written later: a later write with an older timestamp is visible
/// at once (Bigtable: https://cloud.google.com/bigtable/docs/delete-data; `bttest`
/// `DeleteFromColumn` removes the cells in place).
#[test]
fn deletes_take_what_exists_without_marker_rules() -> TestResult {
    let clock = Clock::at(10);
    let mut e = clock.engine();
    table_with(
        &mut e,
        Rules {
            deletes: DeleteMasking::NoMarkers,
            ..Rules::HBASE
        },
    )?;
    e.mutate("t", b"r", &[put("f", "q", Some(1), "v")])?;
    e.mutate("t", b"r", &[put("f", "q", Some(50), "future")])?;
    let delete = Mutation::Delete {
        family: b"f".to_vec(),
        qualifier: Some(b"q".to_vec()),
        timestamp: Some(5),
        all_versions: true,
    };
    e.mutate("t", b"r", &[delete])?;
    assert_eq!(versions(&mut e, "r", "f", "q", 5)?, vec![]);
    e.mutate("t", b"r", &[put("f", "q", Some(1), "again")])?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 5)?,
        vec![(1, "again".into())]
    );
    // A major compaction purges the delete with what it took, and changes nothing read shows.
    e.flush("t")?;
    e.compact("t", true)?;
    assert_eq!(
        versions(&mut e, "r", "f", "q", 5)?,
        vec![(1, "again".into())]
    );
    Ok(())
}
