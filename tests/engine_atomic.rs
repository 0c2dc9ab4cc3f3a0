//! Row-atomic operations: increments, appends, check-and-mutate and row mutations.
mod common;
use common::*;
use rowkey::engine::{Condition, Error, Mutation};
use rowkey::filter::CompareOp;

#[test]
fn increment_uses_8_byte_big_endian_longs() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    assert_eq!(e.increment("t", b"r", b"f", b"n", 5)?, 5);
    assert_eq!(e.increment("t", b"r", b"f", b"n", -7)?, -2);
    assert_eq!(versions(&mut e, "r", "f", "n", 1)?.len(), 1);
    e.mutate("t", b"r", &[put("f", "s", None, "abc")])?;
    assert_eq!(
        e.increment("t", b"r", b"f", b"s", 1),
        Err(Error::NotALong(3))
    );
    Ok(())
}

#[test]
fn increment_after_future_timestamp_still_moves_forward() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    e.mutate(
        "t",
        b"r",
        &[Mutation::Put {
            family: "f".into(),
            qualifier: "n".into(),
            timestamp: Some(9_000_000_000),
            value: 1i64.to_be_bytes().to_vec(),
            ttl_ms: None,
        }],
    )?;
    assert_eq!(e.increment("t", b"r", b"f", b"n", 1)?, 2);
    assert_eq!(e.increment("t", b"r", b"f", b"n", 1)?, 3);
    Ok(())
}

#[test]
fn append_concatenates() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    assert_eq!(e.append("t", b"r", b"f", b"log", b"a")?, b"a");
    assert_eq!(e.append("t", b"r", b"f", b"log", b"bc")?, b"abc");
    Ok(())
}

#[test]
fn check_and_mutate_compares_expected_against_actual() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let set = [put("f", "flag", None, "x")];
    assert!(e.check_and_mutate(
        "t",
        b"r",
        b"f",
        b"n",
        &Condition::NotExists,
        &[put("f", "n", None, "5")]
    )?);
    assert!(!e.check_and_mutate("t", b"r", b"f", b"n", &Condition::NotExists, &set)?);
    // HBase reads `expected OP actual`: '3' < '5' holds, '7' < '5' does not.
    assert!(!e.check_and_mutate(
        "t",
        b"r",
        b"f",
        b"n",
        &Condition::Compare(CompareOp::Less, b"7".to_vec()),
        &set
    )?);
    assert!(e.check_and_mutate(
        "t",
        b"r",
        b"f",
        b"n",
        &Condition::Compare(CompareOp::Less, b"3".to_vec()),
        &set
    )?);
    assert_eq!(versions(&mut e, "r", "f", "flag", 1)?.len(), 1);
    Ok(())
}

#[test]
fn row_mutation_is_all_or_nothing() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let bad = [put("f", "a", None, "1"), put("nope", "b", None, "2")];
    assert!(matches!(
        e.mutate("t", b"r", &bad),
        Err(Error::NoSuchColumnFamily { .. })
    ));
    assert!(
        versions(&mut e, "r", "f", "a", 1)?.is_empty(),
        "nothing applied"
    );
    e.mutate(
        "t",
        b"r",
        &[
            put("f", "a", None, "1"),
            Mutation::Delete {
                family: "f".into(),
                qualifier: Some("b".into()),
                timestamp: None,
                all_versions: true,
            },
        ],
    )?;
    assert_eq!(versions(&mut e, "r", "f", "a", 1)?.len(), 1);
    Ok(())
}

#[test]
fn bad_rows_and_tables_are_refused() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    assert_eq!(
        e.mutate("t", b"", &[put("f", "a", None, "1")]),
        Err(Error::EmptyRow)
    );
    assert!(matches!(
        e.mutate("missing", b"r", &[]),
        Err(Error::TableNotFound(_))
    ));
    e.disable("t")?;
    assert!(matches!(
        e.mutate("t", b"r", &[put("f", "a", None, "1")]),
        Err(Error::TableNotEnabled(_))
    ));
    assert!(matches!(
        e.mutate("t", &vec![b'x'; 40_000], &[]),
        Err(Error::TableNotEnabled(_))
    ));
    e.enable("t")?;
    assert!(matches!(
        e.mutate("t", &vec![b'x'; 40_000], &[put("f", "a", None, "1")]),
        Err(Error::IllegalArgument(_))
    ));
    Ok(())
}

/// Server timestamps are the clock's: five puts in one millisecond share it, and the column
/// shows one version, the last written (`sameAsPreviousTSAndType` in the column trackers; see
/// engine_clock.rs). A tick of the clock makes a new version.
#[test]
fn server_timestamps_within_a_millisecond_are_one_version() -> TestResult {
    let (mut e, clock) = engine_with(&[("f", 10)])?;
    for i in 0..5 {
        e.mutate("t", b"r", &[put("f", "q", None, &i.to_string())])?;
    }
    assert_eq!(
        versions(&mut e, "r", "f", "q", 10)?,
        vec![(1_000_000, "4".into())]
    );
    clock.advance(1);
    e.mutate("t", b"r", &[put("f", "q", None, "5")])?;
    let ts: Vec<u64> = versions(&mut e, "r", "f", "q", 10)?
        .into_iter()
        .map(|v| v.0)
        .collect();
    assert_eq!(ts, vec![1_000_001, 1_000_000]);
    Ok(())
}
