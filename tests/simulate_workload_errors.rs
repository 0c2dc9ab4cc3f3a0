//! A broken workload gets an error that names the JSON path of what is wrong, and a valid one
//! reads back as written.

use rowkey::json;
use rowkey::simulate::{SimulateError, Workload};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const BASE: &str = r#"{
  "version": 1, "seed": 1, "duration_ms": 3600000,
  "cluster": {"region_servers": 2, "server_reads_per_sec": 1000, "server_writes_per_sec": 1000},
  "tables": [{"name": "t", "unique": true,
    "families": [{"name": "f", "columns": [{"qualifier": "q", "value_size": 10}]}],
    "key": [{"kind": "constant", "text": "x"}, {"kind": "sequence"}, {"kind": "entity", "count": 10}],
    "operations": [{"kind": "put_new", "rate": {"per_sec": 10}}]}]
}"#;

/// The error of BASE with `from` replaced by `to`, as (path, message).
fn error(from: &str, to: &str) -> Result<(String, String), Box<dyn std::error::Error>> {
    assert!(BASE.contains(from), "{from}");
    match Workload::from_json(&BASE.replacen(from, to, 1)) {
        Err(SimulateError::Document(json::Error::Invalid(at))) => Ok((at.path, at.message)),
        other => Err(format!("expected an invalid workload, got {other:?}").into()),
    }
}

#[test]
fn the_base_workload_reads_and_round_trips() -> TestResult {
    let workload = Workload::from_json(BASE)?;
    assert_eq!(Workload::from_json(&workload.to_json())?, workload);
    assert_eq!(workload.cluster.max_filesize, 10 * 1024 * 1024 * 1024);
    assert_eq!(workload.cluster.flush_size, 128 * 1024 * 1024);
    Ok(())
}

#[test]
fn unknown_fields_name_their_path() -> TestResult {
    assert_eq!(
        error(r#""count": 10}"#, r#""count": 10, "bogus": 1}"#)?,
        (
            "$.tables[0].key[2].bogus".into(),
            "unknown field `bogus`, expected one of `name`, `count`, `distribution`, `format`"
                .into()
        )
    );
    assert_eq!(
        error(r#""seed": 1,"#, r#""seed": 1, "extra": 2,"#)?.0,
        "$.extra"
    );
    assert_eq!(
        error(
            r#""region_servers": 2,"#,
            r#""region_servers": 2, "servers": 3,"#
        )?
        .0,
        "$.cluster.servers"
    );
    Ok(())
}

#[test]
fn an_unknown_kind_names_the_kind() -> TestResult {
    let (path, message) = error(r#""kind": "entity""#, r#""kind": "entiti""#)?;
    assert_eq!(path, "$.tables[0].key[2].kind");
    assert!(message.starts_with("unknown variant `entiti`"), "{message}");
    let (path, _) = error(r#""kind": "put_new""#, r#""kind": "insert""#)?;
    assert_eq!(path, "$.tables[0].operations[0].kind");
    Ok(())
}

#[test]
fn a_negative_rate_is_refused() -> TestResult {
    assert_eq!(
        error(r#""per_sec": 10"#, r#""per_sec": -1"#)?,
        (
            "$.tables[0].operations[0].rate.per_sec".into(),
            "a rate must be 0 or above, found -1".into()
        )
    );
    assert_eq!(
        error(r#""value_size": 10"#, r#""value_size": -10"#)?.0,
        "$.tables[0].families[0].columns[0].value_size"
    );
    Ok(())
}

#[test]
fn colliding_keys_are_refused_when_unique() -> TestResult {
    // Without the sequence, "x" + an entity of 10 repeats within the first rows.
    let (path, message) = error(r#"{"kind": "sequence"}, "#, "")?;
    assert_eq!(path, "$.tables[0].key");
    assert_eq!(
        message,
        "rows 1 and 5 both get the key 'x1' though unique is set: add a sequence field, or a wider one"
    );
    // Not unique: the same template is accepted.
    let text = BASE.replacen(r#"{"kind": "sequence"}, "#, "", 1).replacen(
        r#""unique": true"#,
        r#""unique": false"#,
        1,
    );
    assert!(Workload::from_json(&text).is_ok());
    // A millisecond timestamp is unique at 10 rows a second, not at 5,000.
    let timestamp = BASE.replacen(
        r#"{"kind": "sequence"}, {"kind": "entity", "count": 10}"#,
        r#"{"kind": "timestamp"}"#,
        1,
    );
    assert!(Workload::from_json(&timestamp).is_ok());
    match Workload::from_json(&timestamp.replacen(r#""per_sec": 10"#, r#""per_sec": 5000"#, 1)) {
        Err(SimulateError::Document(json::Error::Invalid(at))) => {
            let json::Invalid { path, message } = *at;
            assert_eq!(path, "$.tables[0].key");
            assert!(
                message.starts_with("rows 0 and 1 both get the key 'x1704067200000'"),
                "{message}"
            );
        }
        other => return Err(format!("{other:?}").into()),
    }
    Ok(())
}

#[test]
fn other_checks_name_their_path() -> TestResult {
    for (from, to, path) in [
        (r#""version": 1"#, r#""version": 2"#, "$.version"),
        (
            r#""region_servers": 2"#,
            r#""region_servers": 0"#,
            "$.cluster.region_servers",
        ),
        (
            r#""rate": {"per_sec": 10}"#,
            r#""rate": {"per_sec": 10, "curve": {"daily": {"peak_hour": 30, "trough": 0.5}}}"#,
            "$.tables[0].operations[0].rate.curve.daily.peak_hour",
        ),
        (
            r#""count": 10"#,
            r#""count": 0"#,
            "$.tables[0].key[2].count",
        ),
        (
            r#"{"kind": "entity", "count": 10}"#,
            r#"{"kind": "md5", "of": "nothing", "digits": 4}"#,
            "$.tables[0].key[2].of",
        ),
        (
            r#""rate": {"per_sec": 10}}"#,
            r#""rate": {"per_sec": 10}}, {"kind": "prefix_scan", "rate": {"per_sec": 1}, "choose": "uniform", "fields": 9, "limit": 10}"#,
            "$.tables[0].operations[1].fields",
        ),
        (
            r#""families": [{"name": "f""#,
            r#""families": [{"name": "f:x""#,
            "$.tables[0].families[0].name",
        ),
    ] {
        assert_eq!(error(from, to)?.0, path, "{to}");
    }
    // Not JSON at all: a line and a column.
    match Workload::from_json("{\n  \"version\": 1,,\n}") {
        Err(SimulateError::Document(json::Error::Syntax(at))) => {
            assert_eq!((at.line, at.column), (2, 16))
        }
        other => return Err(format!("{other:?}").into()),
    }
    Ok(())
}
