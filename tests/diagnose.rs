//! Diagnosis in words: each rule fires on the workload it names, with its numbers, and stays
//! silent on a workload that does not have the problem.
mod common;
use common::*;
use rowkey::diagnose::{diagnose, Finding};
use rowkey::engine::{Engine, Scan};

fn write(e: &mut Engine, row: &[u8], q: &str) -> TestResult {
    e.mutate("t", row, &[put("f", q, None, "some value")])?;
    Ok(())
}

fn rules(e: &Engine) -> Vec<&'static str> {
    diagnose(e, "t").iter().map(|f| f.rule).collect()
}

fn finding(e: &Engine, rule: &str) -> Option<Finding> {
    diagnose(e, "t").into_iter().find(|f| f.rule == rule)
}

/// Rows in a fixed shuffled order: no direction, no hot spot.
fn random_rows(e: &mut Engine, n: u64) -> TestResult {
    for i in 0..n {
        write(e, format!("user{:06}", (i * 7919) % n).as_bytes(), "q")?;
    }
    Ok(())
}

#[test]
fn a_timestamp_first_key_makes_the_last_region_hot() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..12_000u64 {
        write(
            &mut e,
            format!("{}|sensor", 1_700_000_000_000u64 + i).as_bytes(),
            "q",
        )?;
    }
    assert!(e.table("t")?.regions.len() > 2);
    let f = finding(&e, "growing-key").ok_or("growing-key did not fire")?;
    assert!(
        f.text.starts_with("100 % of the last 10,000 writes went to the end of the key order, into the one region holding the last keys: the key starts with a timestamp"),
        "{}",
        f.text
    );
    assert!(!rules(&e).contains(&"decreasing-key"));
    // The growing key says why its region is hot: no second finding about that region.
    assert!(!rules(&e).contains(&"hot-region"), "{:?}", rules(&e));
    Ok(())
}

#[test]
fn a_growing_sequence_in_one_region_is_named_before_it_splits() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let mut s = e.table("t")?.descriptor.settings;
    s.split_bytes = 0;
    e.set_settings("t", s)?;
    for i in 0..500u64 {
        write(&mut e, format!("order{i:08}").as_bytes(), "q")?;
    }
    let f = finding(&e, "growing-key").ok_or("growing-key did not fire")?;
    assert!(f.text.starts_with("100 % of the last 500 writes added a row after every other row: the key starts with a growing value"), "{}", f.text);
    Ok(())
}

#[test]
fn a_reversed_timestamp_under_one_prefix_makes_the_first_region_hot() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let max = i64::MAX as u64;
    for i in 0..6000u64 {
        let key = format!("dev7|{}", max - (1_700_000_000_000 + i));
        write(&mut e, key.as_bytes(), "q")?;
    }
    assert!(e.table("t")?.regions.len() > 2);
    let f = finding(&e, "decreasing-key").ok_or("decreasing-key did not fire")?;
    assert!(
        f.text
            .contains("went to the first region under the one prefix 'dev7|9223370"),
        "{}",
        f.text
    );
    assert!(f.text.contains("reversed timestamp"), "{}", f.text);
    assert!(!rules(&e).contains(&"growing-key"));
    Ok(())
}

/// A timestamp followed by a few metric names, in a table split ahead: each second's rows
/// are not all after every other row (`disk` sorts before `mem`), so no growing key is named,
/// but the last region takes every write; and gets that all fall in one region.
#[test]
fn one_region_taking_the_operations_is_named_whatever_the_key() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    let mut s = e.table("t")?.descriptor.settings;
    s.split_bytes = 0;
    e.set_settings("t", s)?;
    for at in ["1425330807685", "1425330905685", "1425331005685"] {
        e.split("t", Some(at.as_bytes()))?;
    }
    for i in 0..300u64 {
        for metric in ["cpu", "mem", "disk", "net"] {
            write(
                &mut e,
                format!("{}#{metric}", 1_425_331_006_000u64 + i * 1000).as_bytes(),
                "q",
            )?;
        }
    }
    assert!(!rules(&e).contains(&"growing-key"), "{:?}", rules(&e));
    let f = finding(&e, "hot-region").ok_or("hot-region did not fire")?;
    assert_eq!(
        f.text,
        "100 % of the last 1,200 operations went to region 4 of 4 (keys from '1425331005685' to the last key): one server serves them while the others wait. Spread the rows these operations touch over the key order: a hashed or salted prefix, a field that varies before the one they share, or split points inside that range."
    );
    // Reads: even writes over four regions, then gets of one region's rows.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for at in ["b", "c", "d"] {
        e.split("t", Some(at.as_bytes()))?;
    }
    for i in 0..40u64 {
        for p in ["a", "b", "c", "d"] {
            write(&mut e, format!("{p}{i:03}").as_bytes(), "q")?;
        }
    }
    assert!(
        !rules(&e).contains(&"hot-region"),
        "160 even writes: {:?}",
        rules(&e)
    );
    for i in 0..800u64 {
        e.scan("t", &mut Scan::get(format!("b{:03}", i % 40).as_bytes()))?;
    }
    let f = finding(&e, "hot-region").ok_or("hot-region did not fire on reads")?;
    assert!(
        f.text.starts_with(
            "88 % of the last 960 operations went to region 2 of 4 (keys from 'b' to 'c')"
        ),
        "{}",
        f.text
    );
    Ok(())
}

#[test]
fn random_keys_raise_no_write_finding() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    random_rows(&mut e, 6000)?;
    assert_eq!(rules(&e), Vec::<&str>::new());
    Ok(())
}

/// Writes 3,000 rows under `eu|`, `us|` and `ap|`, the number after the prefix counting up
/// (`ordered`) or shuffled.
fn three_prefixes(e: &mut Engine, ordered: bool) -> TestResult {
    for i in 0..3000u64 {
        let region = ["eu", "us", "ap"][(i % 3) as usize];
        let n = if ordered { i } else { (i * 7919) % 3000 };
        write(e, format!("{region}|{n:06}").as_bytes(), "q")?;
    }
    Ok(())
}

#[test]
fn a_low_cardinality_prefix_is_named_with_its_values() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    three_prefixes(&mut e, true)?;
    let f = finding(&e, "low-cardinality-prefix").ok_or("did not fire")?;
    assert!(
        f.text
            .starts_with("All 3,000 rows start with one of only 3 values ('ap', 'eu', 'us')"),
        "{}",
        f.text
    );
    // A salt of 256 values is not low cardinality.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..3000u64 {
        write(
            &mut e,
            format!("{:02x}|{:06}", (i * 31) % 256, i).as_bytes(),
            "q",
        )?;
    }
    assert!(!rules(&e).contains(&"low-cardinality-prefix"));
    Ok(())
}

#[test]
fn few_prefixes_with_shuffled_suffixes_spread_their_writes_and_are_not_named() -> TestResult {
    // The same three prefixes, but the number after each is random: every prefix's range
    // takes writes all along it, so the regions that share the writes grow with the table.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    // Small regions, so the three prefixes' rows spread over more regions than prefixes.
    let mut s = e.table("t")?.descriptor.settings;
    s.split_bytes = 32 * 1024;
    e.set_settings("t", s)?;
    three_prefixes(&mut e, false)?;
    assert!(e.table("t")?.regions.len() > 3, "the table split");
    assert!(
        !rules(&e).contains(&"low-cardinality-prefix"),
        "{:?}",
        rules(&e)
    );
    Ok(())
}

#[test]
fn few_prefixes_with_shrinking_suffixes_are_named() -> TestResult {
    // A reversed number under each prefix: each prefix's newest row is at its range's front.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for i in 0..3000u64 {
        let region = ["eu", "us", "ap"][(i % 3) as usize];
        write(
            &mut e,
            format!("{region}|{:06}", 999_999 - i).as_bytes(),
            "q",
        )?;
    }
    assert!(
        rules(&e).contains(&"low-cardinality-prefix"),
        "{:?}",
        rules(&e)
    );
    Ok(())
}

#[test]
fn a_hot_single_row_is_named() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    random_rows(&mut e, 2000)?;
    for _ in 0..1000 {
        e.scan("t", &mut Scan::get(b"user000042"))?;
    }
    let f = finding(&e, "hot-row").ok_or("hot-row did not fire")?;
    assert!(
        f.text
            .starts_with("33 % of the last 3,000 operations hit the one row 'user000042'"),
        "{}",
        f.text
    );
    // Spread reads: silent.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    random_rows(&mut e, 2000)?;
    for i in 0..1000u64 {
        e.scan("t", &mut Scan::get(format!("user{:06}", i * 2).as_bytes()))?;
    }
    assert!(!rules(&e).contains(&"hot-row"));
    Ok(())
}

#[test]
fn a_wide_row_growing_without_bound_is_named() -> TestResult {
    let (mut e, _) = engine_with(&[("f", 1)])?;
    random_rows(&mut e, 2000)?;
    for i in 0..3000u64 {
        write(&mut e, b"user000007", &format!("follower{i:06}"))?;
    }
    let f = finding(&e, "wide-row").ok_or("wide-row did not fire")?;
    assert!(
        f.text.starts_with("Row 'user000007' holds 3,001 cells"),
        "{}",
        f.text
    );
    assert!(f.text.contains("where the median row holds 1, and 60 % of the last 5,000 writes added to it: it grows without bound"), "{}", f.text);
    // Rows of even width: silent.
    let (mut e, _) = engine_with(&[("f", 1)])?;
    for r in 0..200u64 {
        for q in 0..20 {
            write(&mut e, format!("user{r:04}").as_bytes(), &format!("q{q}"))?;
        }
    }
    assert!(!rules(&e).contains(&"wide-row"));
    Ok(())
}

#[test]
fn unknown_and_empty_tables_have_no_findings() -> TestResult {
    let (e, _) = engine_with(&[("f", 1)])?;
    assert!(diagnose(&e, "t").is_empty());
    assert!(diagnose(&e, "nope").is_empty());
    Ok(())
}
