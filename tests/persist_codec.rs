//! The record encoding: round trips, and every kind of damage detected.
use std::sync::Arc;

use rowkey::engine::{Cell, CellKind, Run};
use rowkey::persist::{
    decode_groups, decode_placed_run, decode_run, encode_groups, encode_placed_run, encode_run,
    BlobKind, CodecError, RunPlace,
};

fn cells() -> Vec<Cell> {
    let f: Arc<[u8]> = Arc::from(&b"f"[..]);
    let g: Arc<[u8]> = Arc::from(&b"g"[..]);
    let mut out = vec![
        Cell::put(b"r1", &f, b"a", 1_700_000_000_000, 1, b"\x00\xffvalue"),
        Cell {
            kind: CellKind::DeleteColumn,
            ..Cell::put(b"r1", &f, b"b", 9, 2, b"")
        },
        Cell {
            ttl_ms: 5000,
            ..Cell::put(b"r2", &g, b"", u64::MAX >> 1, 3, &[7u8; 300])
        },
    ];
    out.sort();
    out
}

fn same(a: &[Cell], b: &[Cell]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x == y && x.value == y.value && x.ttl_ms == y.ttl_ms && x.seq == y.seq)
}

#[test]
fn runs_and_groups_round_trip() -> Result<(), CodecError> {
    let run = Run::new(42, cells());
    let back = decode_run(&encode_run(&run))?;
    assert_eq!(back.id, 42);
    assert!(same(&back.cells(), &run.cells()));
    let groups = vec![("t".to_string(), cells()), ("u".to_string(), Vec::new())];
    let ((ts, seq), back) = decode_groups(
        BlobKind::Wal,
        &encode_groups(BlobKind::Wal, (77, 88), &groups),
    )?;
    assert_eq!((ts, seq), (77, 88));
    assert_eq!(back.len(), 2);
    assert!(same(&back[0].1, &groups[0].1));
    Ok(())
}

#[test]
fn every_flipped_byte_is_detected() {
    let bytes = encode_run(&Run::new(1, cells()));
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x40;
        assert!(decode_run(&bad).is_err(), "flip at {i} went unnoticed");
    }
}

#[test]
fn truncation_kind_and_magic_errors() {
    let bytes = encode_run(&Run::new(1, cells()));
    assert!(matches!(
        decode_run(&bytes[..bytes.len() - 7]),
        Err(CodecError::Checksum { .. })
    ));
    assert!(matches!(
        decode_run(&bytes[..5]),
        Err(CodecError::Truncated(5))
    ));
    let wal = encode_groups(BlobKind::Wal, (0, 0), &[]);
    assert!(matches!(
        decode_run(&wal),
        Err(CodecError::WrongKind { .. })
    ));
    let mut bad = bytes.clone();
    bad[0] = b'X';
    assert!(decode_run(&bad).is_err());
}

#[test]
fn a_run_records_where_it_belongs_and_any_flip_is_detected() -> Result<(), CodecError> {
    let place = RunPlace {
        table: "orders".into(),
        family: b"f".to_vec(),
        start: b"k".to_vec(),
        end: Vec::new(),
    };
    let run = Run::new(7, cells());
    let bytes = encode_placed_run(&run, &place);
    let (back, got) = decode_placed_run(&bytes)?;
    assert_eq!(got.as_ref(), Some(&place), "read without a catalog");
    assert!(same(&back.cells(), &run.cells()));
    // A run written before runs recorded their place still reads, with no place.
    let (_, none) = decode_placed_run(&encode_run(&run))?;
    assert_eq!(none, None);
    for i in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x01;
        assert!(
            decode_placed_run(&bad).is_err(),
            "flip at {i} went unnoticed"
        );
    }
    Ok(())
}

/// A stored history writes each operation's keys as base64 text; a history written by a release
/// before, with each key an array of numbers, still reads the same.
#[test]
fn history_keys_are_text_and_the_earlier_arrays_still_read() -> Result<(), rowkey::json::Error> {
    use rowkey::engine::{Op, OpKind};
    use rowkey::persist::{ops_from_json, ops_to_json};
    let read = |text: &str| {
        rowkey::json::parse(text).and_then(|v| ops_from_json(&rowkey::json::Node::root(&v)))
    };
    let op = Op {
        kind: OpKind::Read,
        start: b"row\x00\xff".to_vec(),
        stop: Some(Vec::new()),
        region: 3,
        tick: 9,
        wall_ms: 1_700_000_000_000,
        place: 0.5,
    };
    let json = ops_to_json(std::slice::from_ref(&op));
    assert_eq!(
        json,
        r#"[{"kind":"Read","start":"cm93AP8=","stop":"","region":3,"tick":9,"wall_ms":1700000000000,"place":0.5}]"#
    );
    assert_eq!(read(&json)?, vec![op.clone()]);
    let earlier = r#"[{"kind":"Read","start":[114,111,119,0,255],"stop":[],"region":3,"tick":9,"wall_ms":1700000000000,"place":0.5}]"#;
    assert_eq!(read(earlier)?, vec![op]);
    let one_row = r#"[{"kind":"Write","start":"cm93","stop":null,"region":1,"tick":1,"wall_ms":5,"place":0.0}]"#;
    assert_eq!(read(one_row)?[0].stop, None);
    let bad = read(
        r#"[{"kind":"Write","start":"not base64!","stop":null,"region":1,"tick":1,"wall_ms":5,"place":0.0}]"#,
    );
    assert!(bad.is_err_and(|e| e.to_string().starts_with("$[0].start: a key in base64")));
    Ok(())
}

/// The catalog writer keeps each table's text between writes; what it writes is always
/// `catalog_to_json`'s compact text, whether a table changed since the last write or not.
#[test]
fn the_catalog_writer_writes_what_catalog_to_json_writes() {
    use rowkey::engine::Engine;
    use rowkey::persist::{catalog_to_json, CatalogWriter};
    let mut shell = rowkey::shell::Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    shell.run("create 'a', 'f', SPLITS => ['m']\ncreate 'b', 'f', 'g'\ngenerate 'a', 'r%04d', 2000, {COLUMNS => ['f:x'], VALUE_SIZE => 40}\nput 'b', 'r1', 'g:q', 'v'");
    let mut writer = CatalogWriter::default();
    let first = shell.engine.catalog();
    assert!(first
        .tables
        .iter()
        .find(|t| t.descriptor.name == "a")
        .is_some_and(|t| t.regions.len() > 2));
    assert_eq!(
        writer.write(first.clone()),
        catalog_to_json(&first).to_compact()
    );
    // Only 'b' changes: 'a' comes from the kept text, 'b' is written again.
    shell.run("put 'b', 'r2', 'f:q', 'w'\nflush 'b'");
    let second = shell.engine.catalog();
    assert_ne!(second, first);
    let text = writer.write(second.clone());
    assert_eq!(text, catalog_to_json(&second).to_compact());
    assert!(text.contains("\"name\":\"b\""));
    // A table dropped and one created under its name.
    shell.run("disable 'a'\ndrop 'a'\ncreate 'a', 'h'");
    let third = shell.engine.catalog();
    assert_eq!(
        writer.write(third.clone()),
        catalog_to_json(&third).to_compact()
    );
    let read = rowkey::persist::decode_catalog(&rowkey::persist::encode_catalog(&third));
    assert_eq!(read.ok(), Some(third));
}
