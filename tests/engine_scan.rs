//! Scan bounds, prefixes, reversed scans, limits and column selection, across regions.
mod common;
use common::*;
use rowkey::engine::{FamilyDescriptor, Scan, TableDescriptor};

fn table_with_rows(splits: Vec<Vec<u8>>) -> Result<rowkey::engine::Engine, rowkey::engine::Error> {
    let clock = Clock::at(1_000);
    let mut e = clock.engine();
    e.create_table(
        TableDescriptor::new(
            "t",
            vec![FamilyDescriptor::new("f"), FamilyDescriptor::new("g")],
        ),
        splits,
    )?;
    for row in ["a", "ab", "b", "ba", "c", "d\u{7f}", "e"] {
        e.mutate(
            "t",
            row.as_bytes(),
            &[put("f", "x", None, row), put("g", "y", None, row)],
        )?;
    }
    Ok(e)
}

#[test]
fn start_inclusive_stop_exclusive() -> TestResult {
    for splits in [vec![], vec![b"b".to_vec(), b"c".to_vec()]] {
        let mut e = table_with_rows(splits)?;
        let mut s = Scan {
            start_row: b"ab".to_vec(),
            stop_row: b"c".to_vec(),
            ..Scan::default()
        };
        assert_eq!(rows(&mut e, &mut s)?, vec!["ab", "b", "ba"]);
    }
    Ok(())
}

#[test]
fn prefix_scan_uses_next_key_as_stop() -> TestResult {
    let mut e = table_with_rows(vec![b"b".to_vec()])?;
    assert_eq!(rows(&mut e, &mut Scan::prefix(b"a"))?, vec!["a", "ab"]);
    assert_eq!(rows(&mut e, &mut Scan::prefix(b"b"))?, vec!["b", "ba"]);
    Ok(())
}

#[test]
fn reversed_scan_descends_rows_but_keeps_columns_ascending() -> TestResult {
    let mut e = table_with_rows(vec![b"b".to_vec(), b"c".to_vec()])?;
    let mut s = Scan {
        reversed: true,
        start_row: b"c".to_vec(),
        stop_row: b"a".to_vec(),
        ..Scan::default()
    };
    let out = e.scan("t", &mut s)?;
    let keys: Vec<&[u8]> = out.rows.iter().map(|r| r.row()).collect();
    assert_eq!(keys, vec![&b"c"[..], b"ba", b"b", b"ab"]);
    let fams: Vec<&[u8]> = out.rows[0]
        .cells
        .iter()
        .map(|c| c.family.as_ref())
        .collect();
    assert_eq!(fams, vec![&b"f"[..], b"g"]);
    let mut all = Scan {
        reversed: true,
        ..Scan::default()
    };
    assert_eq!(
        rows(&mut e, &mut all)?.first().map(String::as_str),
        Some("e")
    );
    Ok(())
}

#[test]
fn limit_and_columns() -> TestResult {
    let mut e = table_with_rows(vec![b"b".to_vec()])?;
    let mut s = Scan {
        limit: Some(3),
        columns: vec![(b"g".to_vec(), None)],
        ..Scan::default()
    };
    let out = e.scan("t", &mut s)?;
    assert_eq!(out.rows.len(), 3);
    assert!(out
        .rows
        .iter()
        .all(|r| r.cells.len() == 1 && r.cells.first().is_some_and(|c| c.family == b"g")));
    Ok(())
}

#[test]
fn scan_reports_rows_examined_against_returned() -> TestResult {
    let mut e = table_with_rows(vec![])?;
    let mut s = Scan {
        filter: Some(rowkey::filter::parse_filter("RowFilter(=, 'binary:c')")?),
        ..Scan::default()
    };
    let out = e.scan("t", &mut s)?;
    assert_eq!(out.rows.len(), 1);
    assert_eq!(out.stats.rows_examined, 7);
    assert_eq!(out.examined.count, 7);
    assert_eq!(out.stats.cells_returned, 2);
    Ok(())
}

/// A read whose rows are handed over one by one (`read_each`, `scan_each`: HBase's
/// `ResultScanner` row by row) hands over exactly the rows a read that keeps them returns,
/// in the same order, with the same statistics, examined rows and regions read, in one
/// region and across three, forwards and reversed, with limits, columns and filters (a
/// `PageFilter` that ends each region scanner, a row filter, a cell filter), with some rows in
/// runs and the rest in memstores; and the regions' recorded statistics come out the same.
#[test]
fn rows_handed_over_one_by_one_are_the_rows_a_read_keeps() -> TestResult {
    type Make = Box<dyn Fn() -> Result<Scan, Box<dyn std::error::Error>>>;
    let plain = |scan: fn() -> Scan| -> Make { Box::new(move || Ok(scan())) };
    let filtered = |text: &'static str| -> Make {
        Box::new(move || {
            Ok(Scan {
                filter: Some(rowkey::filter::parse_filter(text)?),
                ..Scan::default()
            })
        })
    };
    let scans: Vec<(&str, Make)> = vec![
        ("every row", plain(Scan::default)),
        (
            "reversed",
            plain(|| Scan {
                reversed: true,
                ..Scan::default()
            }),
        ),
        (
            "limit 2",
            plain(|| Scan {
                limit: Some(2),
                ..Scan::default()
            }),
        ),
        (
            "reversed, limit 3 from c",
            plain(|| Scan {
                reversed: true,
                start_row: b"c".to_vec(),
                limit: Some(3),
                ..Scan::default()
            }),
        ),
        (
            "family g",
            plain(|| Scan {
                columns: vec![(b"g".to_vec(), None)],
                ..Scan::default()
            }),
        ),
        ("PageFilter", filtered("PageFilter(2)")),
        ("PrefixFilter", filtered("PrefixFilter('b')")),
        ("ValueFilter", filtered("ValueFilter(=, 'binary:c')")),
    ];
    for splits in [vec![], vec![b"b".to_vec(), b"c".to_vec()]] {
        let mut kept = table_with_rows(splits.clone())?;
        let mut handed = table_with_rows(splits)?;
        for e in [&mut kept, &mut handed] {
            e.flush("t")?;
            e.mutate("t", b"bb", &[put("f", "x", None, "bb")])?;
            e.mutate("t", b"ca", &[put("g", "y", None, "ca")])?;
        }
        for (name, make) in &scans {
            let out = kept.read("t", &mut make()?)?;
            let mut rows = Vec::new();
            let each = kept.read_each("t", &mut make()?, &mut |r| rows.push(r.to_row()))?;
            assert!(!out.rows.is_empty(), "{name}: no rows to compare");
            assert_eq!(rows, out.rows, "{name}");
            assert!(each.rows.is_empty(), "{name}: rows kept");
            assert_eq!(each.stats, out.stats, "{name}");
            assert_eq!(each.examined, out.examined, "{name}");
            assert_eq!(each.per_region, out.per_region, "{name}");
            // The same through the calls that record the read.
            let out = kept.scan("t", &mut make()?)?;
            let mut n = 0;
            handed.scan_each("t", &mut make()?, &mut |_| n += 1)?;
            assert_eq!(n, out.rows.len(), "{name}");
        }
        let stats = |e: &rowkey::engine::Engine| -> Result<Vec<_>, rowkey::engine::Error> {
            Ok(e.table("t")?
                .regions
                .iter()
                .map(|r| r.stats.clone())
                .collect())
        };
        assert_eq!(stats(&handed)?, stats(&kept)?);
    }
    Ok(())
}
