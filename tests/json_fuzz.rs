#![cfg(not(target_arch = "wasm32"))]
//! Rowkey's JSON reader (`rowkey::json`) on any text: it never panics, it accepts exactly what
//! serde_json accepts (RFC 8259) and reads the same values, its syntax errors point at a line
//! and a column inside the text, and a workload document with bytes overwritten or cut gives a
//! workload or an error that names a JSON path or a position. Case counts are fixed (below) so
//! the file runs in a few seconds; `ROWKEY_FUZZ_CASES` raises them.

use std::sync::LazyLock;

use proptest::prelude::*;
use rowkey::json::{self, Node, Value};
use rowkey::simulate::{gallery, SimulateError, Workload};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Cases per property.
const CASES: u32 = 500;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("ROWKEY_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Any JSON value, a few levels deep.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,5})?([eE][+-]?[0-9]{1,3})?".prop_map(Value::Number),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec(("[a-z\"\\\\\u{1}é]{0,6}", inner), 0..6)
                .prop_map(Value::Object),
        ]
    })
}

/// JSON-like text: the grammar's characters in any order.
fn jsonish() -> impl Strategy<Value = String> {
    "[\\[\\]{}:,\" \n\t\\\\/0-9.eE+\\-truefalsn\u{1}é\u{1F600}]{0,40}"
}

/// `text` with some characters replaced by JSON's punctuation and then cut.
fn mutate(text: &str, edits: &[(usize, char)], cut: usize) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, c) in edits {
        if !chars.is_empty() {
            let i = at % chars.len();
            chars[i] = *c;
        }
    }
    chars.truncate(cut);
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = (Vec<(usize, char)>, usize)> {
    (
        proptest::collection::vec(
            (
                any::<usize>(),
                prop_oneof![
                    proptest::sample::select(vec![
                        '{', '}', '[', ']', ',', ':', '"', '\\', '-', '.', 'e', '0', '9', ' ',
                        '\n', 'x', '\u{0}',
                    ]),
                    any::<char>(),
                ],
            ),
            0..4,
        ),
        0usize..6000,
    )
}

/// A syntax error's position is inside the text: a line it has, a column at most one past
/// that line's end.
fn position_is_inside(text: &str, e: &json::Error) -> Result<(), TestCaseError> {
    if let json::Error::Syntax(at) = e {
        let (line, column) = (&at.line, &at.column);
        let lines: Vec<&str> = text.split('\n').collect();
        prop_assert!(*line >= 1 && *line <= lines.len(), "{e} in {text:?}");
        prop_assert!(
            *column >= 1 && *column <= lines[line - 1].chars().count() + 1,
            "{e} in {text:?}"
        );
    }
    Ok(())
}

/// Ours and serde_json agree on `text`: both refuse it, or both read the same value.
fn agrees_with_serde_json(text: &str) -> Result<(), TestCaseError> {
    let ours = json::parse(text);
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    match (&ours, &theirs) {
        (Ok(v), Ok(t)) => {
            let back = serde_json::from_str::<serde_json::Value>(&v.to_compact()).ok();
            prop_assert_eq!(back.as_ref(), Some(t), "{:?}", text);
        }
        (Err(e), Err(_)) => position_is_inside(text, e)?,
        // serde_json refuses floats beyond f64's range, which Rowkey reads as text (its
        // typed accessors refuse them).
        (Ok(_), Err(t)) => prop_assert!(t.to_string().contains("out of range"), "{t}: {text:?}"),
        (Err(e), Ok(_)) => prop_assert!(false, "only ours refused {text:?}: {e}"),
    }
    Ok(())
}

/// A gallery workload's document, its tables not `unique` (whose check makes 100,000 keys per
/// table for every case that still reads), read once for every case.
static GALLERY_WORKLOAD: LazyLock<String> = LazyLock::new(|| {
    let mut w = gallery::workload("schema.sequential-ids").expect("a gallery workload");
    for t in &mut w.tables {
        t.unique = false;
    }
    w.to_json()
});

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_reads_as_serde_json_reads_it(text in any::<String>()) {
        agrees_with_serde_json(&text)?;
    }

    #[test]
    fn json_like_text_reads_as_serde_json_reads_it(text in jsonish()) {
        agrees_with_serde_json(&text)?;
    }

    #[test]
    fn written_values_read_back(v in value()) {
        prop_assert_eq!(json::parse(&v.to_compact()).ok(), Some(v.clone()));
        prop_assert_eq!(json::parse(&v.to_pretty()).ok(), Some(v.clone()));
        agrees_with_serde_json(&v.to_pretty())?;
    }

    #[test]
    fn written_values_with_edits_read_as_serde_json_reads_them(v in value(), (e, cut) in edits()) {
        agrees_with_serde_json(&mutate(&v.to_pretty(), &e, cut))?;
    }

    #[test]
    fn a_damaged_workload_is_an_error_with_a_path_or_a_position((e, cut) in edits()) {
        let text = &*GALLERY_WORKLOAD;
        let damaged = mutate(text, &e, cut);
        match Workload::from_json(&damaged) {
            Ok(_) => {}
            Err(SimulateError::Document(e @ json::Error::Syntax(_))) => {
                position_is_inside(&damaged, &e)?;
            }
            Err(SimulateError::Document(json::Error::Invalid(at))) => {
                let (path, message) = (&at.path, &at.message);
                prop_assert!(path.starts_with('$') && !message.is_empty(), "{path}: {message}");
            }
            Err(other) => prop_assert!(false, "{other}"),
        }
    }
}

#[test]
fn syntax_errors_say_where_and_what() -> TestResult {
    for (text, line, column, message) in [
        (
            "{\n  \"version\": 1,,\n}",
            2,
            16,
            "expected a member's name in double quotes, found `,`",
        ),
        ("[1, 2,]", 1, 7, "trailing comma"),
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("{\"a\" 1}", 1, 6, "expected `:`, found `1`"),
        ("[1 2]", 1, 4, "expected `,` or `]`, found `2`"),
        ("[01]", 1, 3, "expected `,` or `]`, found `1`"),
        (
            "1.",
            1,
            3,
            "expected a digit after the decimal point, found the end of the text",
        ),
        ("-", 1, 2, "expected a digit, found the end of the text"),
        (
            "1e+",
            1,
            4,
            "expected a digit in the exponent, found the end of the text",
        ),
        (
            "\"é\u{1}\"",
            1,
            3,
            "a control character in a string (escape it)",
        ),
        ("\"abc", 1, 5, "a string is not closed"),
        ("\"\\x\"", 1, 3, "an unknown escape in a string"),
        ("\"\\ud800\"", 1, 8, "a lone surrogate in a \\u escape"),
        ("\"\\u12\"", 1, 6, "a \\u escape needs four hex digits"),
        ("nul", 1, 1, "expected a value, found `n`"),
        ("", 1, 1, "expected a value, found the end of the text"),
        ("{} {}", 1, 4, "trailing characters after the value"),
        ("\n\n  [é, 1]", 3, 4, "expected a value, found `é`"),
    ] {
        assert_eq!(
            json::parse(text),
            Err(json::Error::Syntax(Box::new(json::SyntaxError {
                line,
                column,
                message: message.into()
            }))),
            "{text:?}"
        );
    }
    Ok(())
}

#[test]
fn nesting_deeper_than_the_limit_is_refused_not_a_stack_overflow() -> TestResult {
    let deep = "[".repeat(100_000);
    assert_eq!(
        json::parse(&deep),
        Err(json::Error::Syntax(Box::new(json::SyntaxError {
            line: 1,
            column: json::MAX_DEPTH + 1,
            message: format!("nested deeper than {} levels", json::MAX_DEPTH),
        })))
    );
    let fits = format!(
        "{}{}",
        "[".repeat(json::MAX_DEPTH),
        "]".repeat(json::MAX_DEPTH)
    );
    assert!(json::parse(&fits).is_ok());
    Ok(())
}

#[test]
fn strings_and_numbers_read_exactly() -> TestResult {
    assert_eq!(
        json::parse(r#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#)?,
        Value::String("a\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F600}".into())
    );
    let doc =
        json::parse(r#"{"seed": 18446744073709551615, "x": -0.5e1, "big": 18446744073709551616}"#)?;
    let o = Node::root(&doc).object(&["seed", "x", "big"])?;
    assert_eq!(o.required("seed")?.u64()?, u64::MAX);
    assert_eq!(o.required("x")?.f64()?, -5.0);
    assert_eq!(
        o.required("big")?.u64().map_err(|e| e.to_string()),
        Err(
            "$.big: 18446744073709551616 is above the largest integer, 18446744073709551615".into()
        )
    );
    // Written as serde_json writes them: escapes only where JSON needs them.
    assert_eq!(
        Value::from("q\"\\\n\u{1}é").to_compact(),
        r#""q\"\\\n\u0001é""#
    );
    assert_eq!(Value::from(10.0).to_compact(), "10.0");
    assert_eq!(Value::from(0.25).to_compact(), "0.25");
    assert_eq!(Value::from(f64::NAN).to_compact(), "null");
    Ok(())
}

#[test]
fn typed_reads_name_the_path() -> TestResult {
    let doc = json::parse(
        r#"{"tables": [{"key": [{"width": 4}, {"width": "4"}, {"width": -1}, {"width": 1.5},
           {"width": 4294967296}]}], "kind": "entiti", "twice": 1, "twice": 2}"#,
    )?;
    let root = Node::root(&doc);
    let key = root
        .members()?
        .required("tables")?
        .items()?
        .remove(0)
        .object(&["key"])?
        .required("key")?
        .items()?;
    let width = |i: usize| -> Result<u32, String> {
        key[i]
            .object(&["width"])
            .and_then(|o| o.required("width")?.u32())
            .map_err(|e| e.to_string())
    };
    assert_eq!(width(0), Ok(4));
    assert_eq!(
        width(1),
        Err(r#"$.tables[0].key[1].width: expected an integer, found "4""#.into())
    );
    assert_eq!(
        width(2),
        Err("$.tables[0].key[2].width: expected an integer of 0 or above, found -1".into())
    );
    assert_eq!(
        width(3),
        Err("$.tables[0].key[3].width: expected an integer, found 1.5".into())
    );
    assert_eq!(
        width(4),
        Err(
            "$.tables[0].key[4].width: expected an integer from 0 to 4294967295, found 4294967296"
                .into()
        )
    );
    let fields = root.members()?;
    assert_eq!(
        fields
            .required("kind")?
            .variant(&["entity", "sequence"])
            .map_err(|e| e.to_string()),
        Err("$.kind: unknown variant `entiti`, expected one of `entity`, `sequence`".into())
    );
    assert_eq!(
        root.object(&["tables", "kind", "twice"])
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("$.twice: duplicate field `twice`".into())
    );
    assert_eq!(
        root.object(&["tables"])
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("$.kind: unknown field `kind`, expected `tables`".into())
    );
    assert_eq!(
        fields
            .required("missing")
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err("$: missing field `missing`".into())
    );
    Ok(())
}

#[test]
fn pretty_text_is_indented_by_two_spaces() -> TestResult {
    let v = json::parse(r#"{"a": [1, {"b": []}], "c": {}}"#)?;
    assert_eq!(
        v.to_pretty(),
        "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {}\n}"
    );
    assert_eq!(v.to_compact(), r#"{"a":[1,{"b":[]}],"c":{}}"#);
    Ok(())
}

// ---- a history chunk read straight from its text -----------------------------------------

use rowkey::engine::{Op, OpKind};
use rowkey::persist::{ops_from_json, ops_to_json, read_chunk};

/// An operation as a history records it; `place` any finite float.
fn op() -> impl Strategy<Value = Op> {
    (
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 0..12),
        proptest::option::of(proptest::collection::vec(any::<u8>(), 0..12)),
        (any::<u64>(), any::<u64>(), any::<u64>()),
        prop_oneof![
            Just(0.0f32),
            Just(1.0f32),
            any::<f32>().prop_filter("finite", |x| x.is_finite())
        ],
    )
        .prop_map(|(read, start, stop, (region, tick, wall_ms), place)| Op {
            kind: if read { OpKind::Read } else { OpKind::Write },
            start,
            stop,
            region,
            tick,
            wall_ms,
            place,
        })
}

/// A chunk's text as the saver writes it.
fn chunk_text(first: u64, ops: &[Op]) -> String {
    format!(r#"{{"first":{first},"ops":{}}}"#, ops_to_json(ops))
}

/// The chunk read through the value tree, as records that are not in the writer's shape are.
fn chunk_by_tree(text: &str) -> Result<(u64, Vec<Op>), json::Error> {
    let value = json::parse(text)?;
    let f = Node::root(&value).members()?;
    Ok((
        f.required("first")?.u64()?,
        ops_from_json(&f.required("ops")?)?,
    ))
}

proptest! {
    #![proptest_config(config())]

    /// What the saver writes is read straight, to the operations written.
    #[test]
    fn a_written_chunk_reads_straight(first in any::<u64>(), ops in proptest::collection::vec(op(), 0..8)) {
        let text = chunk_text(first, &ops);
        prop_assert_eq!(read_chunk(&text), Some((first, ops.clone())));
        prop_assert_eq!(chunk_by_tree(&text).ok(), Some((first, ops)));
    }

    /// Whatever the direct reader accepts of an edited chunk, the tree reads to the same
    /// operations (the direct reader never accepts what the tree refuses or reads otherwise).
    #[test]
    fn an_edited_chunk_reads_straight_only_as_the_tree_reads_it(
        first in any::<u64>(),
        ops in proptest::collection::vec(op(), 1..4),
        edits in proptest::collection::vec(
            (any::<usize>(), proptest::sample::select(vec![
                '0', '1', '9', '-', '.', 'e', 'E', '+', '"', '\\', ',', '}', ']', ' ', 'n', 'A', '=', '/',
            ])),
            1..3,
        ),
        cut in prop_oneof![Just(usize::MAX), 0usize..2000],
    ) {
        let edited = mutate(&chunk_text(first, &ops), &edits, cut);
        if let Some(direct) = read_chunk(&edited) {
            prop_assert_eq!(chunk_by_tree(&edited).ok(), Some(direct), "{}", edited);
        }
    }
}

#[test]
fn chunks_in_other_shapes_are_left_to_the_tree() -> TestResult {
    let written = r#"{"first":3,"ops":[{"kind":"Read","start":"YQ==","stop":"","region":2,"tick":9,"wall_ms":5,"place":0.25}]}"#;
    let read = read_chunk(written).ok_or("the writer's shape reads straight")?;
    assert_eq!(read, chunk_by_tree(written)?);
    assert_eq!(read.1[0].stop, Some(Vec::new()));
    for other in [
        // Whitespace, another member order, keys as arrays of bytes (older histories), an
        // escape, a leading zero, a fraction where an integer goes, a trailing character.
        r#"{"first": 3,"ops":[]}"#,
        r#"{"ops":[],"first":3}"#,
        r#"{"first":3,"ops":[{"kind":"Read","start":[97],"stop":null,"region":2,"tick":9,"wall_ms":5,"place":0.25}]}"#,
        r#"{"first":3,"ops":[{"kind":"Read","start":"Y\u0051==","stop":null,"region":2,"tick":9,"wall_ms":5,"place":0.25}]}"#,
        r#"{"first":03,"ops":[]}"#,
        r#"{"first":3.0,"ops":[]}"#,
        r#"{"first":3,"ops":[]} x"#,
        r#"{"first":18446744073709551616,"ops":[]}"#,
    ] {
        assert_eq!(read_chunk(other), None, "{other}");
    }
    // Of those, the tree reads the older and the escaped forms, and refuses the rest.
    assert_eq!(
        chunk_by_tree(r#"{"first":3,"ops":[{"kind":"Read","start":[97],"stop":null,"region":2,"tick":9,"wall_ms":5,"place":0.25}]}"#)?.1[0].start,
        b"a".to_vec()
    );
    assert_eq!(
        chunk_by_tree(r#"{"first":3,"ops":[{"kind":"Read","start":"Y\u0051==","stop":null,"region":2,"tick":9,"wall_ms":5,"place":0.25}]}"#)?.1[0].start,
        b"a".to_vec()
    );
    assert!(chunk_by_tree(r#"{"first":03,"ops":[]}"#).is_err());
    assert_eq!(
        chunk_by_tree(r#"{"first":3.0,"ops":[]}"#).map_err(|e| e.to_string()),
        Err("$.first: expected an integer, found 3.0".to_string())
    );
    Ok(())
}
