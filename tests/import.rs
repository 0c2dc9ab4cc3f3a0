//! Bringing a real table in: the output of an HBase 2.x shell `scan` and a CSV, read into a
//! table and loaded through shell commands. The scan format is hbase-shell's: the row layout of
//! `shell/formatter.rb` (`row(args, inset)`: a space, the row key, a space, the cell), the cell
//! text of `hbase/table.rb` (`_scan_internal`: `column=#{family}:#{qualifier}`, then
//! `to_string`: `timestamp=..., value=...` or `timestamp=..., type=...` for a delete marker),
//! keys, qualifiers and values through `Bytes.toStringBinary`, timestamps in epoch milliseconds
//! or (2.x's default) `LocalDateTime.toString`, the header `ROW  COLUMN+CELL` and the trailer
//! `N row(s)` / `Took 0.0123 seconds`.
mod common;
use common::*;
use rowkey::import::{parse, parse_csv, parse_scan, Format, ImportCell};
use rowkey::shell::TimeFormat;

const UTC: &dyn Fn(i64) -> i32 = &|_| 0;

fn cell(row: &[u8], fq: &str, ts: u64, value: &[u8]) -> ImportCell {
    let (f, q) = fq.split_once(':').unwrap_or((fq, ""));
    ImportCell {
        row: row.to_vec(),
        family: f.to_string(),
        qualifier: q.as_bytes().to_vec(),
        timestamp: ts,
        value: value.to_vec(),
    }
}

#[test]
fn a_real_scan_with_epoch_and_iso_timestamps_every_version_and_escapes() -> TestResult {
    // As a terminal shows it: the prompt, padding after the row key, the trailer.
    let text = "hbase(main):004:0> scan 'users', {VERSIONS => 3}\n\
ROW                          COLUMN+CELL\n \
u001                        column=info:name, timestamp=1700000000000, value=Ada Lovelace\n \
u001                        column=info:name, timestamp=2023-11-14T22:13:10.000, value=Ada\n \
u001                        column=stats:logins, timestamp=2023-11-14T22:13, value=\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\n \
\\x00\\xFFk\\x5Cey               column=info:a\\x2Cb, timestamp=1, value=x, y = z\n\
2 row(s)\n\
Took 0.0123 seconds\n";
    let t = parse_scan(text, UTC)?;
    assert_eq!(t.name.as_deref(), Some("users"));
    assert_eq!(t.families, vec!["info", "stats"]);
    assert_eq!(t.format, Format::Scan);
    assert_eq!(
        t.cells,
        vec![
            cell(b"u001", "info:name", 1_700_000_000_000, b"Ada Lovelace"),
            cell(b"u001", "info:name", 1_699_999_990_000, b"Ada"),
            cell(
                b"u001",
                "stats:logins",
                1_699_999_980_000,
                &[0, 0, 0, 0, 0, 0, 0, 3]
            ),
            cell(b"\x00\xffk\\ey", "info:a,b", 1, b"x, y = z"),
        ]
    );
    assert_eq!(t.rows(), 2);
    assert_eq!(t.versions().get("info"), Some(&2));
    // ISO times are local times of the shell's zone: at UTC+1, 22:13 is 21:13 UTC.
    let plus_one: &dyn Fn(i64) -> i32 = &|_| 60;
    let t = parse_scan(
        " r column=f:q, timestamp=2023-11-14T22:13:20.5, value=v\n",
        plus_one,
    )?;
    assert_eq!(t.cells[0].timestamp, 1_700_000_000_000 - 3_600_000 + 500);
    Ok(())
}

#[test]
fn a_raw_scan_leaves_delete_markers_out_and_counts_them() -> TestResult {
    let text = "ROW  COLUMN+CELL\n r1 column=f:q, timestamp=5, type=Delete\n r1 column=f:q, timestamp=4, value=v\n1 row(s)\n";
    let t = parse_scan(text, UTC)?;
    assert_eq!(t.markers_skipped, 1);
    assert_eq!(t.masked_skipped, 0);
    assert_eq!(t.cells, vec![cell(b"r1", "f:q", 4, b"v")]);
    Ok(())
}

/// The cells a RAW scan shows behind its markers are left out with them: imported, they would
/// show again. Each kind masks as a read decides (`ScanDeleteTracker.isDeleted`): a version
/// marker its one version, a column marker its column at or before it, a family marker the
/// family at or before it, a family version marker that version in every column.
#[test]
fn a_raw_scan_leaves_out_the_cells_its_markers_hide() -> TestResult {
    let text = "ROW  COLUMN+CELL
         r1 column=f:a, timestamp=1234, type=Delete
         r1 column=f:a, timestamp=1234, value=hello
         r1 column=f:a, timestamp=1000, value=older
         r2 column=f:b, timestamp=50, type=DeleteColumn
         r2 column=f:b, timestamp=60, value=newer
         r2 column=f:b, timestamp=50, value=gone
         r2 column=f:c, timestamp=40, value=other
         r3 column=f:, timestamp=70, type=DeleteFamily
         r3 column=f:x, timestamp=70, value=gone
         r3 column=g:x, timestamp=10, value=other family
         r4 column=f:, timestamp=9, type=DeleteFamilyVersion
         r4 column=f:y, timestamp=9, value=gone
         r4 column=f:z, timestamp=8, value=kept
         4 row(s)
";
    let t = parse_scan(text, UTC)?;
    assert_eq!((t.markers_skipped, t.masked_skipped), (4, 4));
    assert_eq!(
        t.cells,
        vec![
            cell(b"r1", "f:a", 1000, b"older"),
            cell(b"r2", "f:b", 60, b"newer"),
            cell(b"r2", "f:c", 40, b"other"),
            cell(b"r3", "g:x", 10, b"other family"),
            cell(b"r4", "f:z", 8, b"kept"),
        ]
    );
    Ok(())
}

/// Rowkey's own shell prints a scan as HBase does; what it prints reads back to the same cells,
/// in both timestamp formats, and loads into a table that scans the same.
#[test]
fn our_own_scan_output_imports_back_to_the_same_table() -> TestResult {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(&mut sh, "create 'src', {NAME => 'a', VERSIONS => 4}, 'b'\n");
    for i in 0..4u64 {
        run(
            &mut sh,
            &format!(
                "put 'src', \"k\\x00{i}\", 'a:x', \"v{i} \\xE2\\x82\\xAC, ok\", {}\n",
                1_700_000_000_000 + i * 1000
            ),
        );
        run(
            &mut sh,
            &format!(
                "put 'src', \"k\\x00{i}\", 'a:x', 'older', {}\n",
                1_600_000_000_000 + i
            ),
        );
        run(
            &mut sh,
            &format!(
                "put 'src', \"k\\x00{i}\", 'b:y\\x7F', 'b', {}\n",
                1_650_000_000_123 + i
            ),
        );
    }
    let epoch = run(&mut sh, "scan 'src', {VERSIONS => 4}");
    sh.time_format = TimeFormat::Local(Box::new(|_| 0));
    let iso = sh
        .run("scan 'src', {VERSIONS => 4}")
        .iter()
        .map(|o| o.output.clone())
        .collect::<String>();
    assert!(
        iso.contains("timestamp=2023-11-14T22:13:20, value=v0"),
        "{iso}"
    );
    assert!(
        iso.contains("Took "),
        "the trailer stays in the text: {iso}"
    );
    let a = parse_scan(&epoch, UTC)?;
    let b = parse_scan(&iso, UTC)?;
    assert_eq!(a.cells, b.cells);
    assert_eq!(a.cells.len(), 12);
    assert_eq!(a.versions().get("a"), Some(&2));

    let (mut sh2, _) = shell_at(1_800_000_000_000);
    for o in sh2.run(&a.script("copy")) {
        if let Some(e) = o.error {
            return Err(format!("{}: {}", o.input, e.message).into());
        }
    }
    let copy = run(&mut sh2, "scan 'copy', {VERSIONS => 4}");
    assert_eq!(copy, epoch);
    Ok(())
}

#[test]
fn a_broken_scan_line_is_named() {
    let text = "ROW  COLUMN+CELL\n r1 column=f:q, timestamp=1, value=v\n r2 colum=f:q, timestamp=1, value=v\n";
    let e = parse_scan(text, UTC).err();
    let e = e.map(|e| e.to_string()).unwrap_or_default();
    assert!(
        e.starts_with("line 3: not a line of a scan's output"),
        "{e}"
    );
    let e = parse_scan(" r1 column=f:q, timestamp=yesterday, value=v\n", UTC).err();
    assert_eq!(
        e.map(|e| (e.line, e.column)),
        Some((1, Some(27))),
        "the column of the bad timestamp"
    );
    let e = parse_scan(" r1 column=fq, timestamp=1, value=v\n", UTC).err();
    assert!(e.is_some_and(|e| e.message.contains("no family")));
    let e = parse_scan(" r1 column=f:q, timestamp=2023-13-01T00:00, value=v\n", UTC).err();
    assert!(e.is_some_and(|e| e.message.contains("neither epoch milliseconds")));
    let e = parse_scan("ROW  COLUMN+CELL\n0 row(s)\n", UTC).err();
    assert!(e.is_some_and(|e| e.message.starts_with("no cells")));
}

#[test]
fn a_csv_with_quotes_commas_and_doubled_quotes() -> TestResult {
    let text = "\u{feff}info:name,row,info:note,stats:n\r\n\
\"Lovelace, Ada\",u1,\"said \"\"hello\"\"\",3\r\n\
Grace,u2,\"two\nlines\",\r\n\
\r\n\
,u3,,7\r\n";
    let t = parse_csv(text, 42)?;
    assert_eq!(t.format, Format::Csv);
    assert_eq!(t.families, vec!["info", "stats"]);
    assert_eq!(
        t.cells,
        vec![
            cell(b"u1", "info:name", 42, b"Lovelace, Ada"),
            cell(b"u1", "info:note", 42, b"said \"hello\""),
            cell(b"u1", "stats:n", 42, b"3"),
            cell(b"u2", "info:name", 42, b"Grace"),
            cell(b"u2", "info:note", 42, b"two\nlines"),
            cell(b"u3", "stats:n", 42, b"7"),
        ]
    );
    // parse() tells a CSV from a scan.
    assert_eq!(parse(text, UTC, 42)?, t);
    // And it loads: the value with a newline and the quotes survive the shell.
    let (mut sh, _) = shell_at(1_700_000_000_000);
    let out = run(&mut sh, &t.script("people"));
    assert!(!out.contains("ERROR"), "{out}");
    let got = run(&mut sh, "get 'people', 'u2', 'info:note'");
    assert!(got.contains("timestamp=42, value=two\\x0Alines"), "{got}");
    Ok(())
}

#[test]
fn csv_errors_name_the_line_and_column() {
    let e = parse_csv("key,f:q\n1,2\n", 1).err();
    assert!(
        e.as_ref()
            .is_some_and(|e| e.line == 1 && e.message.contains("no column named “row”")),
        "{e:?}"
    );
    let e = parse_csv("row,f:q,name\n1,2,3\n", 1).err();
    assert_eq!(
        e.as_ref().map(|e| (e.line, e.column)),
        Some((1, Some(9))),
        "{e:?}"
    );
    assert!(e.is_some_and(|e| e.message.contains("“name” has no family")));
    let e = parse_csv("row,f:q\n1,2\n2,\"open\n3,4\n", 1).err();
    assert_eq!(e.map(|e| (e.line, e.column)), Some((3, Some(3))));
    let e = parse_csv("row,f:q\n1,2,3\n", 1).err();
    assert_eq!(e.map(|e| (e.line, e.column)), Some((2, Some(5))));
    let e = parse_csv("row,f:q\n1,a\"b\n", 1).err();
    assert_eq!(e.map(|e| (e.line, e.column)), Some((2, Some(4))));
    let e = parse_csv("row,f:q\n,x\n", 1).err();
    assert!(e.is_some_and(|e| e.line == 2 && e.message.contains("row key")));
}
