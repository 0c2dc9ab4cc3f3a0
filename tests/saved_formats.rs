//! Every saved and exported document reads as it did when serde's derived code read and wrote
//! it, and is written the same: the files in `tests/fixtures/saved/` were written by that code
//! (the release of 26 November 2026) from the session below, whose clock is fixed.
//! `catalog.record` was written again, in the same format, when a split's daughters began to
//! count their requests from nothing (28 November 2026): the left one had carried the parent's.
mod common;
use common::*;
use rowkey::designs::loads::{Loads, Placement};
use rowkey::dialect::{decode_history, encode_history, Dialect, HistoryLine};
use rowkey::json::{self, Node};
use rowkey::persist::{decode_catalog, export_json, import_json, load, Saver, StoredRecords};
use rowkey::session::prefs::{CbtZone, KeyDisplay, Prefs, Theme, Timestamps};

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/saved")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(name: &str) -> String {
    String::from_utf8(fixture(name)).unwrap_or_default()
}

fn read<T>(text: &str, f: impl Fn(&Node) -> Result<T, json::Error>) -> Result<T, json::Error> {
    f(&Node::root(&json::parse(text)?))
}

fn scenario() -> (rowkey::shell::Shell, StoredRecords) {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    sh.engine.record_changes(true);
    let mut saver = Saver::new();
    let mut stored = StoredRecords::default();
    for cmd in [
        "create 't', {NAME => 'f', VERSIONS => 3, TTL => 2000000000}, {NAME => 'g', BLOOMFILTER => 'ROWCOL', DATA_BLOCK_ENCODING => 'FAST_DIFF'}, SPLITS => ['m']",
        "put 't', 'a', 'f:q', 'one', 10",
        "put 't', \"\\x00\\xFFz\", 'g:b', 'v', 5",
        "put 't', 'n', 'f:q', 'two', 20",
        "put 't', 'z', 'f:q', 'three', 30",
        "delete 't', 'a', 'f:q', 10",
        "get 't', 'a'",
        "scan 't', {STARTROW => 'b', STOPROW => 'y'}",
        "scan 't', {REVERSED => true}",
        "flush 't'",
        "split 't', 'p'",
        "put 't', 'q', 'f:q', 'four', 40",
        "alter 't', NAME => 'f', VERSIONS => 2",
        "create 'u', 'f'",
        "put 'u', 'k', 'f:q', 'v', 1",
        "disable 'u'",
    ] {
        let out = sh.run(cmd);
        assert!(out.iter().all(|o| o.error.is_none()), "{cmd}: {:?}", out.iter().map(|o| &o.error).collect::<Vec<_>>());
        match saver.plan(&mut sh.engine) {
            Ok(plan) => stored.apply(&plan),
            Err(e) => panic!("{cmd}: {e}"),
        }
    }
    (sh, stored)
}

/// The histories as the release of 26 November stored them: heads and chunks as JSON (the
/// chunks' last JSON form, which Rowkey wrote until chunks became binary).
const ACTIVITY_RECORDS: [(&str, &str); 4] = [
    ("t", "activity.t.record"),
    ("t#000000000000", "activity.t-000000000000.record"),
    ("u", "activity.u.record"),
    ("u#000000000000", "activity.u-000000000000.record"),
];

/// The histories as Rowkey stores them since 27 November 2026: the heads' grids and the chunks
/// in binary (`src/persist/grid_binary.rs`, `src/persist/chunk_binary.rs`).
const ACTIVITY_RECORDS_BINARY: [(&str, &str); 4] = [
    ("t", "activity.t.bin.record"),
    ("t#000000000000", "activity.t-000000000000.bin.record"),
    ("u", "activity.u.bin.record"),
    ("u#000000000000", "activity.u-000000000000.bin.record"),
];

#[test]
fn the_catalog_and_histories_are_written_byte_for_byte_as_kept() {
    let (_, stored) = scenario();
    let catalog = stored.catalogs.values().last().cloned().unwrap_or_default();
    assert_eq!(
        String::from_utf8_lossy(&catalog),
        String::from_utf8_lossy(&fixture("catalog.record"))
    );
    assert_eq!(stored.activity.len(), ACTIVITY_RECORDS_BINARY.len());
    for (key, file) in ACTIVITY_RECORDS_BINARY {
        assert_eq!(
            stored
                .activity
                .get(key)
                .map(|r| String::from_utf8_lossy(r).into_owned()),
            Some(String::from_utf8_lossy(&fixture(file)).into_owned()),
            "{key}"
        );
    }
}

#[test]
fn a_catalog_and_histories_saved_before_load_as_the_session_left_them() -> TestResult {
    let (sh, mut stored) = scenario();
    let catalog = decode_catalog(&fixture("catalog.record"))?;
    assert_eq!(catalog, sh.engine.catalog());
    // The store as the earlier release left it: its catalog and histories, the runs and the
    // log (binary records, unchanged) from the same session.
    if let Some(last) = stored.catalogs.values_mut().last() {
        *last = fixture("catalog.record");
    }
    for (key, file) in ACTIVITY_RECORDS {
        stored.activity.insert(key.to_string(), fixture(file));
    }
    let loaded = load(Box::new(|| 1_700_000_000_000), stored);
    assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
    assert_eq!(loaded.engine.catalog(), sh.engine.catalog());
    for table in ["t", "u"] {
        let activity = loaded.engine.activity(table);
        assert!(activity.is_some_and(|a| a.ops().len() > 0), "{table}");
        assert_eq!(activity, sh.engine.activity(table), "{table}");
    }
    // A get, a scan and a reversed scan, the two scans over both regions; five writes before
    // the split and one after.
    let t = loaded.engine.activity("t").ok_or("t")?;
    assert_eq!((t.reads, t.writes, t.splits().count()), (5, 6, 1));
    assert!(t.last_read().is_some_and(|r| r.reversed));
    Ok(())
}

#[test]
fn json_chunks_and_binary_chunks_read_back_to_the_same_history() -> TestResult {
    let (sh, stored) = scenario();
    // The history of `t` as JSON, as the release before stored it; `u`'s in binary; and the
    // other way round.
    for (json, binary) in [("t", "u"), ("u", "t")] {
        let mut mixed = stored.clone();
        for (key, file) in ACTIVITY_RECORDS {
            if key.starts_with(json) {
                mixed.activity.insert(key.to_string(), fixture(file));
            }
        }
        for (key, _) in ACTIVITY_RECORDS_BINARY {
            if key.starts_with(binary) {
                assert_eq!(mixed.activity.get(key).map(|r| r[5]), Some(2), "{key}");
            }
        }
        let loaded = load(Box::new(|| 1_700_000_000_000), mixed);
        assert!(loaded.problems.is_empty(), "{:?}", loaded.problems);
        for table in ["t", "u"] {
            assert_eq!(
                loaded.engine.activity(table),
                sh.engine.activity(table),
                "{table}"
            );
        }
    }
    // The binary chunk of `t`'s eleven operations takes an eighth of the JSON's bytes, its
    // head (its grid in binary) 70%.
    let size = |key: &str| stored.activity.get(key).map_or(0, Vec::len);
    let (json, binary) = (
        fixture("activity.t-000000000000.record").len() + fixture("activity.t.record").len(),
        size("t#000000000000") + size("t"),
    );
    assert_eq!((json, binary), (1_158 + 1_331, 135 + 937));
    Ok(())
}

#[test]
fn the_export_is_written_as_before_and_an_earlier_export_imports() -> TestResult {
    let (mut sh, _) = scenario();
    let before = text("export.json");
    // The same document, but for the disabled table `u`'s cell: an export written before 28
    // November 2026 read a disabled table through the clients' read, which it refuses, and
    // wrote its cells as none.
    let at = before
        .rfind("\"cells\": []")
        .ok_or("no empty cells in the fixture")?;
    let cells = "\"cells\": [\n        {\n          \"row\": \"k\",\n          \"column\": \"f:q\",\n          \"timestamp\": 1,\n          \"type\": \"Put\",\n          \"value\": \"v\"\n        }\n      ]";
    let now = format!(
        "{}{cells}{}",
        &before[..at],
        &before[at + "\"cells\": []".len()..]
    );
    assert_eq!(export_json(&sh.engine, None), now);
    let (fresh, _) = shell_at(1_700_000_000_000);
    let engine = import_json(&fresh.engine, &before, Box::new(|| 1_700_000_000_000))?;
    let mut imported = rowkey::shell::Shell::new(engine, Box::new(|| 0.0));
    imported.set_property(rowkey::shell::TIMESTAMP_FORMAT_EPOCH, "true");
    let scans =
        "scan 't', {RAW => true, VERSIONS => 10}\ndescribe 't'\nget_splits 't'\nis_enabled 'u'";
    assert_eq!(run(&mut imported, scans), run(&mut sh, scans));
    Ok(())
}

#[test]
fn an_export_with_a_member_it_does_not_know_is_refused_at_that_member() {
    let (fresh, _) = shell_at(1);
    let doc =
        text("export.json").replacen("\"enabled\": true,", "\"enabled\": true, \"colour\": 1,", 1);
    let e = import_json(&fresh.engine, &doc, Box::new(|| 1))
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        e.as_deref(),
        Some("tables[0].colour: unknown field `colour`, expected one of `name`, `enabled`, `families`, `settings`, `splits`, `cells`, `rules`")
    );
}

#[test]
fn preferences_are_written_and_read_as_before() -> Result<(), json::Error> {
    let prefs = Prefs {
        theme: Theme::Dark,
        timestamps: Timestamps::Epoch,
        keys: KeyDisplay::Utf8,
        cbt_zone: CbtZone::Utc,
        dialect: Dialect::HBase,
    };
    assert_eq!(prefs.to_json(), text("prefs.json"));
    assert_eq!(read(&text("prefs.json"), Prefs::from_json)?, prefs);
    // The console left in cbt mode: one member more, after the others; the preferences of
    // one who never switched are written as before (above).
    let cbt = Prefs {
        dialect: Dialect::Cbt,
        ..prefs
    };
    let written = cbt.to_json();
    assert_eq!(
        written,
        format!(
            "{}{}",
            text("prefs.json").trim_end_matches('}'),
            ",\"dialect\":\"Cbt\"}"
        )
    );
    assert_eq!(read(&written, Prefs::from_json)?, cbt);
    // Missing members take their defaults, unknown ones are ignored, a value that is no choice
    // is refused (the page then starts from the defaults).
    let partial = read(r#"{"theme":"Light","later":true}"#, Prefs::from_json)?;
    assert_eq!(
        partial,
        Prefs {
            theme: Theme::Light,
            ..Prefs::default()
        }
    );
    assert_eq!(
        read(r#"{"theme":"Blue"}"#, Prefs::from_json).map_err(|e| e.to_string()),
        Err("$.theme: unknown variant `Blue`, expected one of `System`, `Light`, `Dark`".into())
    );
    Ok(())
}

#[test]
fn the_history_is_written_and_read_as_before() -> Result<(), json::Error> {
    let lines = vec![
        HistoryLine::hbase("scan 't'"),
        HistoryLine {
            dialect: Dialect::Cbt,
            text: "cbt ls \"x\"\n".into(),
        },
    ];
    assert_eq!(encode_history(&lines).to_compact(), text("history.json"));
    assert_eq!(decode_history(&json::parse(&text("history.json"))?), lines);
    Ok(())
}

#[test]
fn the_gallerys_loads_are_written_and_read_as_before() -> Result<(), json::Error> {
    let mut loads = Loads::default();
    loads.record("person_role", Placement::free(&["a", "b"], |n| n == "a_2"));
    loads.record("org", Placement::own(&["o"]));
    loads.set_size("org", rowkey::designs::Size::Large);
    assert_eq!(loads.to_json(), text("loads.json"));
    assert_eq!(read(&text("loads.json"), Loads::from_json)?, loads);
    let mut no_sizes = Loads::default();
    no_sizes.record("org", Placement::own(&["o"]));
    assert_eq!(no_sizes.to_json(), text("loads-no-sizes.json"));
    assert_eq!(
        read(&text("loads-no-sizes.json"), Loads::from_json)?,
        no_sizes
    );
    Ok(())
}
