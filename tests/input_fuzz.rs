#![cfg(not(target_arch = "wasm32"))]
//! Where files and links come in, no input reaches a panic: scan output and CSV
//! (`import::parse`), JSON exports (`import_json`), share links (`share::decode`) and the
//! storage codec's records. Each target takes arbitrary input and valid input with bytes
//! overwritten and cut; what comes out is a value or an error with a message, and the
//! person's engine is unchanged by a failed import. Case counts are fixed (below) so every
//! target together stays well under a minute; `ROWKEY_FUZZ_CASES` raises them all.

use std::sync::Arc;

use proptest::prelude::*;
use rowkey::engine::{Cell, Engine, Run};
use rowkey::persist::{
    decode_catalog, decode_groups, decode_placed_run, decode_run, decode_stored_run, encode_groups,
    encode_run, export_json, import_json, BlobKind,
};
use rowkey::share::{decode, encode, Shared};
use rowkey::shell::Shell;

/// Cases per target.
const CASES: u32 = 1000;

fn cases() -> u32 {
    std::env::var("ROWKEY_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CASES)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// `valid` with some bytes overwritten, then cut to `cut` bytes (when shorter).
fn mutate(valid: &[u8], edits: &[(usize, u8)], cut: usize) -> Vec<u8> {
    let mut out = valid.to_vec();
    for (at, b) in edits {
        if !out.is_empty() {
            let i = at % out.len();
            out[i] = *b;
        }
    }
    out.truncate(cut);
    out
}

fn edits() -> impl Strategy<Value = (Vec<(usize, u8)>, usize)> {
    (
        proptest::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        0usize..4096,
    )
}

fn persons_engine() -> Engine {
    let mut sh = Shell::new(
        Engine::new(Box::new(|| 1_700_000_000_000)),
        Box::new(|| 0.0),
    );
    sh.run("create 'users', 'info'\nput 'users', 'u1', 'info:name', 'Ada'\nput 'users', 'u2', 'info:age', '36'");
    sh.engine
}

const SCAN_OUTPUT: &str = "ROW  COLUMN+CELL\n u1 column=info:name, timestamp=1700000000000, value=Ada\n u2 column=info:age, timestamp=2023-11-14T22:13:20.000, value=36\n2 row(s)\n";
const CSV: &str = "row,info:name,info:age\nu1,Ada,36\nu2,\"Grace, H\",85\n";

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn sample_cells() -> Vec<Cell> {
    let fam: Arc<[u8]> = Arc::from(&b"info"[..]);
    vec![
        Cell::put(b"u1", &fam, b"name", 7, 1, b"Ada"),
        Cell::put(b"u2", &fam, b"age", 8, 2, b"36"),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn import_parse_never_panics(text in ".{0,300}", (e, cut) in edits(), csv in any::<bool>()) {
        let utc = |_: i64| 0;
        let _ = rowkey::import::parse(&text, &utc, 1);
        let valid = if csv { CSV } else { SCAN_OUTPUT };
        let mutated = lossy(&mutate(valid.as_bytes(), &e, cut));
        if let Err(err) = rowkey::import::parse(&mutated, &utc, 1) {
            prop_assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn json_import_never_panics_and_changes_nothing(text in ".{0,200}", (e, cut) in edits()) {
        let engine = persons_engine();
        let before = export_json(&engine, None);
        let mutated = lossy(&mutate(before.replace("users", "copy").as_bytes(), &e, cut));
        for input in [text.as_str(), mutated.as_str()] {
            if let Err(err) = import_json(&engine, input, Box::new(|| 1_700_000_000_000)) {
                prop_assert!(!err.to_string().is_empty());
            }
            prop_assert_eq!(&export_json(&engine, None), &before);
        }
    }

    #[test]
    fn share_decode_never_panics(text in ".{0,200}", (e, cut) in edits()) {
        let _ = decode(&text);
        let _ = decode(&format!("s={text}"));
        let link = encode(&Shared::hbase(
            Some("follow.tall".into()),
            &["t = get_table 'users'".into(), "t.deleteall 'u1'".into()],
        )).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if let Err(err) = decode(&lossy(&mutate(link.as_bytes(), &e, cut))) {
            prop_assert!(!err.to_string().is_empty());
        }
        // The contents changed before packing (so the checksum holds): a session of both
        // dialects with a workload, its JSON edited.
        let json = r#"{"entries":[{"dialect":"cbt","text":"ls"},{"dialect":"hbase","text":"list"}],"workload":{"version":1,"seed":1,"duration_ms":3600000,"cluster":{"region_servers":2,"server_reads_per_sec":1000,"server_writes_per_sec":1000},"tables":[{"name":"t","families":[{"name":"f","columns":[{"qualifier":"q","value_size":10}]}],"key":[{"kind":"constant","text":"x"},{"kind":"entity","count":10,"distribution":{"zipf":{"s":1.2}}}],"operations":[{"kind":"put_new","rate":{"per_sec":10}}]}]}}"#;
        let edited = mutate(json.as_bytes(), &e, cut);
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&edited, 6);
        let link = format!("s=2.{}", rowkey::kit::base64::encode(&packed, rowkey::kit::base64::Alphabet::UrlNoPad));
        if let Err(err) = decode(&link) {
            prop_assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn codec_decoders_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300), (e, cut) in edits()) {
        let run = encode_run(&Run::new(3, sample_cells()));
        let wal = encode_groups(BlobKind::Wal, (5, 6), &[("users".into(), sample_cells())]);
        let mem = encode_groups(BlobKind::Memstores, (5, 6), &[("users".into(), sample_cells())]);
        for input in [bytes.clone(), mutate(&run, &e, cut), mutate(&wal, &e, cut), mutate(&mem, &e, cut)] {
            let _ = decode_run(&input);
            let _ = decode_placed_run(&input);
            let _ = decode_stored_run(&input);
            let _ = decode_groups(BlobKind::Wal, &input);
            let _ = decode_groups(BlobKind::Memstores, &input);
            let _ = decode_catalog(&input);
        }
    }
}

/// The valid inputs the targets mutate are valid: each decodes as it was written.
#[test]
fn the_seeds_are_valid() -> Result<(), Box<dyn std::error::Error>> {
    let utc = |_: i64| 0;
    assert_eq!(rowkey::import::parse(SCAN_OUTPUT, &utc, 1)?.cells.len(), 2);
    assert_eq!(rowkey::import::parse(CSV, &utc, 1)?.cells.len(), 4);
    let engine = persons_engine();
    let copy = export_json(&engine, None).replace("users", "copy");
    let imported = import_json(&engine, &copy, Box::new(|| 1_700_000_000_000))?;
    assert!(imported.exists("copy") && imported.exists("users"));
    let run = decode_run(&encode_run(&Run::new(3, sample_cells())))?;
    assert_eq!(run.cells().len(), 2);
    let (clocks, groups) = decode_groups(
        BlobKind::Wal,
        &encode_groups(BlobKind::Wal, (5, 6), &[("users".into(), sample_cells())]),
    )?;
    assert_eq!((clocks, groups.len(), groups[0].1.len()), ((5, 6), 1, 2));
    Ok(())
}
