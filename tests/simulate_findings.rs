//! Known workloads get their known findings with exact seeded figures, and clean ones none:
//! a timestamp-first key, a hashed key, a salted key, a Zipf-skewed entity (its rows named),
//! a reverse-timestamp key under one entity prefix.

use rowkey::simulate::{simulate, Finding, Options, Workload};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// One table's findings after an hour of `ops` (JSON operations) on `key` (JSON fields), on
/// 8 region servers, seed 5.
fn findings(key: &str, ops: &str) -> Result<(Vec<Finding>, f64), Box<dyn std::error::Error>> {
    let workload = Workload::from_json(&format!(
        r#"{{
  "version": 1, "seed": 5, "duration_ms": 3600000,
  "cluster": {{"region_servers": 8, "server_reads_per_sec": 20000, "server_writes_per_sec": 10000}},
  "tables": [{{"name": "t",
    "families": [{{"name": "d", "columns": [{{"qualifier": "v", "value_size": 200}}]}}],
    "key": {key},
    "operations": {ops}}}]
}}"#
    ))?;
    let sim = simulate(&workload, &Options::default())?;
    Ok((sim.tables[0].findings.clone(), sim.tables[0].totals.ops))
}

fn show(findings: &[Finding]) -> Vec<(String, String, f64, String, f64, String)> {
    findings
        .iter()
        .map(|f| {
            (
                f.code.code().to_string(),
                f.subject.clone(),
                f.figure,
                f.unit.clone(),
                f.threshold,
                f.compare.symbol().to_string(),
            )
        })
        .collect()
}

const PUTS: &str = r#"[{"kind": "put_new", "rate": {"per_sec": 1000}}]"#;

const TIMESTAMP_FIRST: &str =
    r#"[{"kind": "timestamp"}, {"kind": "sequence", "format": {"width": 4}}]"#;
const HASHED: &str = r#"[{"kind": "md5", "of": "id", "digits": 8}, {"kind": "sequence", "name": "id", "format": {"width": 10}}]"#;
const SALTED: &str = r#"[{"kind": "salt", "buckets": 16, "of": "id"}, {"kind": "constant", "text": "_"}, {"kind": "timestamp"}, {"kind": "sequence", "name": "id"}]"#;
const ZIPF: &str = r#"[{"kind": "entity", "count": 1000, "distribution": {"zipf": {"s": 1.2}}, "format": {"width": 6}}, {"kind": "constant", "text": "_"}, {"kind": "timestamp", "encoding": "reverse_decimal"}]"#;
const ZIPF_OPS: &str = r#"[{"kind": "put_new", "rate": {"per_sec": 1000}}, {"kind": "prefix_scan", "rate": {"per_sec": 2000}, "choose": "fresh", "fields": 2, "limit": 10}]"#;
const ONE_ENTITY: &str = r#"[{"kind": "entity", "count": 1, "format": {"width": 6}}, {"kind": "constant", "text": "_"}, {"kind": "timestamp", "encoding": "reverse_decimal"}]"#;

fn row(
    code: &str,
    subject: &str,
    figure: f64,
    unit: &str,
    threshold: f64,
    compare: &str,
) -> (String, String, f64, String, f64, String) {
    (
        code.into(),
        subject.into(),
        figure,
        unit.into(),
        threshold,
        compare.into(),
    )
}

#[test]
fn a_timestamp_first_key_grows() -> TestResult {
    let (found, ops) = findings(TIMESTAMP_FIRST, PUTS)?;
    assert_eq!(ops, 3_600_000.0);
    assert_eq!(
        show(&found),
        vec![row(
            "growing_key",
            "new rows of t: keys above every earlier key",
            1.0,
            "share of new rows",
            0.9,
            ">="
        )]
    );
    assert!(found[0].advice.contains("hash or salt"));
    Ok(())
}

#[test]
fn hashed_and_salted_keys_are_clean() -> TestResult {
    for key in [HASHED, SALTED] {
        let (found, ops) = findings(key, PUTS)?;
        assert_eq!(ops, 3_600_000.0);
        assert_eq!(show(&found), vec![], "{key}");
    }
    Ok(())
}

#[test]
fn a_zipf_skewed_entity_is_hot_and_its_rows_are_named() -> TestResult {
    let (found, ops) = findings(ZIPF, ZIPF_OPS)?;
    assert_eq!(ops, 10_800_000.0);
    // Zipf(1.2) over 1,000 entities gives entity 0 about 17 % of the draws: 172 times its
    // fair share of 0.1 %.
    assert_eq!(
        show(&found),
        vec![row(
            "hot_entity",
            "entity 0 (rows starting '000000'), 17.4% of operations",
            173.835359,
            "times its fair share",
            10.0,
            ">="
        )]
    );
    Ok(())
}

#[test]
fn a_reverse_timestamp_under_one_entity_shrinks_and_has_one_prefix() -> TestResult {
    let (found, _) = findings(ONE_ENTITY, PUTS)?;
    assert_eq!(
        show(&found),
        vec![
            row(
                "growing_key",
                "new rows of t: keys below every earlier key",
                1.0,
                "share of new rows",
                0.9,
                ">="
            ),
            row(
                "low_cardinality_prefix",
                "prefix of 2 field(s) of t: '000000_'",
                1.0,
                "distinct prefixes",
                7.0,
                "<="
            ),
        ]
    );
    Ok(())
}

#[test]
fn too_few_operations_find_nothing() -> TestResult {
    let (found, ops) = findings(
        TIMESTAMP_FIRST,
        r#"[{"kind": "put_new", "rate": {"per_sec": 0.2}}]"#,
    )?;
    assert_eq!(ops, 720.0);
    assert!(found.is_empty());
    Ok(())
}
