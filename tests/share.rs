//! Share by URL: a session (the design on show, the console's lines each in its dialect, a
//! simulation's workload) becomes a link fragment `s=2.<base64url of zlib>` and back; a link
//! of format 1 still opens, with its commands as HBase lines; a link too long, cut short,
//! altered, of another format, or carrying a broken workload says so.
use rowkey::dialect::{Dialect, HistoryLine};
use rowkey::json;
use rowkey::kit::base64::{self, Alphabet};
use rowkey::share::{decode, encode, is_link, ShareError, Shared, MAX_FRAGMENT, VERSION};
use rowkey::simulate::{gallery, SimulateError};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn session() -> Shared {
    Shared {
        design: Some("csdn.blog".into()),
        entries: vec![
            HistoryLine::hbase("create 'users', {NAME => 'info', VERSIONS => 3}"),
            HistoryLine::hbase(
                "put 'users', \"u\\x00\\xFF\", 'info:name', 'Ada, \"the first\" 🙂'\nscan 'users'",
            ),
            HistoryLine {
                dialect: Dialect::Cbt,
                text: "createtable events families=e:maxversions=1".into(),
            },
        ],
        workload: None,
    }
}

/// A link of format `version` holding `json`, packed as every format packs it.
fn link_of(version: u32, json: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(json.as_bytes(), 9);
    format!(
        "s={version}.{}",
        base64::encode(&packed, Alphabet::UrlNoPad)
    )
}

#[test]
fn a_session_round_trips_through_its_link() -> Result<(), ShareError> {
    let s = session();
    let fragment = encode(&s)?;
    assert!(fragment.starts_with(&format!("s={VERSION}.")), "{fragment}");
    // Only characters a URL fragment carries as they are.
    assert!(fragment
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.=".contains(&b)));
    assert!(is_link(&format!("#{fragment}")));
    assert_eq!(decode(&format!("#{fragment}"))?, s);
    assert_eq!(decode(&fragment)?, s);
    assert_eq!(decode(&encode(&Shared::default())?)?, Shared::default());
    Ok(())
}

#[test]
fn repetitive_sessions_compress_and_a_link_stops_at_32_kb() -> Result<(), ShareError> {
    // A thousand similar puts compress far below their size.
    let commands: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                "put 'metrics', 'host{:03}-{i:06}', 'm:cpu', '{}'",
                i % 7,
                i % 100
            )
        })
        .collect();
    let plain: usize = commands.iter().map(String::len).sum();
    let fragment = encode(&Shared::hbase(None, &commands))?;
    assert!(
        plain > 40_000 && fragment.len() < plain / 3,
        "{plain} -> {}",
        fragment.len()
    );
    // Incompressible text past the limit is refused, with the size.
    let mut x: u64 = 1;
    let noise: String = (0..40_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'!' + (x >> 58) as u8)
        })
        .collect();
    match encode(&Shared::hbase(None, &[noise])) {
        Err(ShareError::TooLong { bytes, max }) => assert!(bytes > max && max == MAX_FRAGMENT),
        other => panic!("expected too long, got {other:?}"),
    }
    Ok(())
}

#[test]
fn a_damaged_link_says_how() -> Result<(), ShareError> {
    let fragment = encode(&session())?;
    // Cut short, as a chat program might.
    let cut = &fragment[..fragment.len() - 10];
    assert!(matches!(decode(cut), Err(ShareError::Damaged(_))));
    // One character changed: the checksum catches it.
    let mut bytes = fragment.clone().into_bytes();
    let i = bytes.len() / 2;
    bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(bytes).unwrap_or_default();
    assert!(
        matches!(decode(&changed), Err(ShareError::Damaged(_))),
        "{changed}"
    );
    assert!(matches!(
        decode("s=1.!!!"),
        Err(ShareError::Damaged(
            "it holds characters, or a length, that no link has"
        ))
    ));
    assert!(matches!(
        decode("s=abc"),
        Err(ShareError::Damaged("it has no format version"))
    ));
    assert_eq!(decode("s=7.AAAA"), Err(ShareError::Version("7".into())));
    assert_eq!(decode("s=0.AAAA"), Err(ShareError::Version("0".into())));
    assert_eq!(
        decode("s=3.AAAA").err().map(|e| e.to_string()).unwrap_or_default(),
        "the link is of format 3, which this version of Rowkey cannot read (it reads formats 1 to 2)"
    );
    assert_eq!(decode("#section-2"), Err(ShareError::NotALink));
    assert!(!is_link("#section-2"));
    let message = decode(cut).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(message.starts_with("the link is damaged"), "{message}");
    Ok(())
}

#[test]
fn the_tables_a_link_would_change_are_named() {
    let commands = [
        "create 'fresh', 'f'\nput 'fresh', 'r', 'f:q', 'v'".to_string(),
        "scan 'users'\nput 'users', 'r', 'info:q', 'v'; get 'blog', 'x'".to_string(),
        "disable 'blog'\ndrop 'blog'\nput 'users', 'r2', 'info:q', 'v'\nput 'missing', 'r', 'f:q', 'v'".to_string(),
    ];
    let exists = |t: &str| ["users", "blog", "events"].contains(&t);
    let link = Shared::hbase(None, &commands.map(String::from));
    assert_eq!(
        rowkey::share::tables_changed(&link.entries, exists),
        vec!["users", "blog"]
    );
    let scan = Shared::hbase(None, &["scan 'users'".to_string()]);
    assert!(rowkey::share::tables_changed(&scan.entries, exists).is_empty());
    // Each entry is read in its own dialect: cbt's `deleterow` changes `events`, and `count`
    // (a word of both) only reads.
    let mixed = vec![
        HistoryLine {
            dialect: Dialect::Cbt,
            text: "count users\nread blog".into(),
        },
        HistoryLine::hbase("get 'users', 'u1'"),
        HistoryLine {
            dialect: Dialect::Cbt,
            text: "deleterow events r1".into(),
        },
        HistoryLine::hbase("t = get_table 'blog'"),
        HistoryLine::hbase("t.put 'r', 'f:q', 'v'"),
    ];
    assert_eq!(
        rowkey::share::tables_changed(&mixed, exists),
        vec!["events", "blog"]
    );
}

/// A link written by Rowkey before format 2 (format 1: `{"design", "commands"}`), as it was
/// copied then.
const FORMAT_1_LINK: &str = "s=1.eNpFjD0LwjAURf9KeEuWUhC3QIUOHRysYMFFRV6TZynkQ5qXqfS_mzjocuEezr0rGIrz5EGBjsbXow0TVKCDc-hNBHUDvRAyCZkiLVFWYu3bUyeag5Czf4UMrt1lOJ77obD9ltfvxH9dpl3J4iqPjkppDcq7Z9GIifjJONrff8a1IUtMaO13DI_tA_4jNCA";

#[test]
fn a_format_1_link_opens_to_the_same_commands_as_hbase_lines() -> TestResult {
    let shared = decode(&format!("#{FORMAT_1_LINK}"))?;
    let commands = [
        "create 'users', {NAME => 'info', VERSIONS => 3}",
        "put 'users', 'u1', 'info:name', 'Ada'\nt = get_table 'users'\nt.deleteall 'u1'",
    ];
    assert_eq!(
        shared,
        Shared {
            design: Some("csdn.blog".into()),
            entries: commands.iter().map(|c| HistoryLine::hbase(*c)).collect(),
            workload: None,
        }
    );
    assert!(shared.entries.iter().all(|e| e.dialect == Dialect::HBase));
    // Written again, it is a format-2 link holding the same.
    let again = encode(&shared)?;
    assert!(again.starts_with("s=2."), "{again}");
    assert_eq!(decode(&again)?, shared);
    // Format 1 packed by hand reads the same way, a missing list as no commands.
    assert_eq!(
        decode(&link_of(1, r#"{"commands":["list"]}"#))?,
        Shared::hbase(None, &["list".to_string()])
    );
    assert_eq!(decode(&link_of(1, "{}"))?, Shared::default());
    Ok(())
}

#[test]
fn each_entry_keeps_its_dialect_on_the_wire() -> TestResult {
    let fragment = encode(&session())?;
    let packed =
        base64::decode(&fragment["s=2.".len()..], Alphabet::UrlNoPad).map_err(|e| e.to_string())?;
    let json =
        miniz_oxide::inflate::decompress_to_vec_zlib(&packed).map_err(|e| format!("{e:?}"))?;
    let value: serde_json::Value = serde_json::from_slice(&json)?;
    assert_eq!(value["design"], "csdn.blog");
    assert_eq!(value["entries"][0]["dialect"], "hbase");
    assert_eq!(value["entries"][2]["dialect"], "cbt");
    assert_eq!(
        value["entries"][2]["text"],
        "createtable events families=e:maxversions=1"
    );
    assert!(value.get("workload").is_none() && value.get("commands").is_none());
    assert_eq!(session().texts(Dialect::Cbt).len(), 1);
    // An entry of an unknown dialect is no session.
    assert_eq!(
        decode(&link_of(
            2,
            r#"{"entries":[{"dialect":"sql","text":"select 1"}]}"#
        )),
        Err(ShareError::Damaged("its contents are not a session"))
    );
    Ok(())
}

#[test]
fn a_link_carries_a_workload_and_it_comes_back_the_same() -> TestResult {
    let workload = gallery::workload("schema.sequential-ids").ok_or("no gallery workload")?;
    let shared = Shared {
        workload: Some(workload.clone()),
        ..session()
    };
    let fragment = encode(&shared)?;
    let back = decode(&fragment)?;
    assert_eq!(back.workload.as_ref(), Some(&workload));
    assert_eq!(back, shared);
    Ok(())
}

/// A workload with one mistake, in a format-2 link.
fn broken_workload_link(field: &str) -> String {
    let workload = format!(
        r#"{{"version": 1, "seed": 1, "duration_ms": 3600000,
  "cluster": {{"region_servers": 2, "server_reads_per_sec": 1000, "server_writes_per_sec": 1000}},
  "tables": [{{"name": "t",
    "families": [{{"name": "f", "columns": [{{"qualifier": "q", "value_size": 10}}]}}],
    "key": [{{"kind": "constant", "text": "x"}}, {{"kind": "entity", "count": 10{field}}}],
    "operations": [{{"kind": "put_new", "rate": {{"per_sec": 10}}}}]}}]}}"#
    );
    link_of(
        2,
        &format!(r#"{{"entries":[{{"dialect":"hbase","text":"list"}}],"workload":{workload}}}"#),
    )
}

#[test]
fn a_broken_workload_in_a_link_names_its_json_path() -> TestResult {
    // The same document without the mistake opens.
    let good = decode(&broken_workload_link(""))?;
    assert_eq!(
        good.workload.map(|w| w.tables[0].name.clone()),
        Some("t".into())
    );
    match decode(&broken_workload_link(r#", "bogus": 1"#)) {
        Err(ShareError::Workload(SimulateError::Document(json::Error::Invalid(at)))) => {
            let json::Invalid { path, message } = *at;
            assert_eq!(path, "$.tables[0].key[1].bogus");
            assert!(message.starts_with("unknown field `bogus`"), "{message}");
        }
        other => return Err(format!("expected a workload error, got {other:?}").into()),
    }
    // A rule the types cannot say, checked on open as the Simulate view checks it.
    let message = decode(&broken_workload_link(
        r#", "distribution": {"zipf": {"s": -1}}"#,
    ))
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert_eq!(
        message,
        "the link's workload is not valid: $.tables[0].key[1].distribution.zipf.s: the exponent must be above 0, found -1"
    );
    Ok(())
}
