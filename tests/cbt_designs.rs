//! The gallery in cbt: every design's tables, written out as a cbt script
//! (`designs::in_cbt::script`) and run through the cbt dialect, hold the cells the HBase design
//! holds: the same row keys, families, qualifiers and values, every version a read of the HBase
//! table returns, timestamps in microseconds (Bigtable's unit, 1,000 per HBase millisecond),
//! the same tablet boundaries as the HBase regions, and the families' retention as policies.

mod common;

use rowkey::designs::{catalogue, in_cbt};
use rowkey::engine::{Engine, Scan};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Every cell of a table as `(row, family, qualifier, timestamp in µs, value)`, in read order.
type Cells = Vec<(Vec<u8>, Vec<u8>, Vec<u8>, u64, Vec<u8>)>;

fn cells(engine: &Engine, table: &str, per_milli: u64) -> Result<Cells, String> {
    let mut scan = Scan {
        max_versions: u32::MAX,
        ..Scan::default()
    };
    let rows = engine
        .read(table, &mut scan)
        .map_err(|e| format!("{table}: {e}"))?
        .rows;
    Ok(rows
        .into_iter()
        .flat_map(|r| r.cells)
        .map(|c| {
            (
                c.row,
                c.family.to_vec(),
                c.qualifier,
                c.timestamp * per_milli,
                c.value,
            )
        })
        .collect())
}

#[test]
fn every_design_runs_in_cbt_with_the_same_cells() -> TestResult {
    let designs = catalogue();
    let mut failures = Vec::new();
    let mut tables = 0;
    let mut total = 0;
    let mut extra_tablets = 0;
    for design in &designs {
        let hbase = common::shell_with_design(design)?;
        let cbt = match in_cbt::session(design) {
            Ok(s) => s,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        for table in design.tables {
            let want = cells(&hbase.engine, table, 1_000)?;
            let got = cells(&cbt.engine, table, 1)?;
            if want != got {
                failures.push(format!(
                    "{}: {table}: {} cells in HBase, {} in cbt",
                    design.id,
                    want.len(),
                    got.len()
                ));
            }
            // The script creates the table split where the HBase regions are; loading it may
            // split a tablet further by size, as Rowkey's tablets split.
            let (regions, tablets) = (hbase.engine.splits(table)?, cbt.engine.splits(table)?);
            if !regions.iter().all(|k| tablets.contains(k)) {
                failures.push(format!(
                    "{}: {table}: region boundaries {regions:?} not all tablet boundaries {tablets:?}",
                    design.id
                ));
            }
            extra_tablets += tablets.len() - regions.len().min(tablets.len());
            tables += 1;
            total += want.len();
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(tables >= designs.len(), "{tables} tables");
    println!(
        "{} designs, {tables} tables, {total} cells read the same in cbt; {extra_tablets} tablets split by size beyond the HBase regions",
        designs.len()
    );
    Ok(())
}

/// A design's retention as Bigtable policies: `VERSIONS => 3` is `maxversions=3`, `TTL` with
/// `MIN_VERSIONS` keeps the newest versions however old (an intersection), and the script
/// starts with the `createtable` cbt would take.
#[test]
fn retention_carries_over_as_policies() -> TestResult {
    let mut sh =
        rowkey::shell::Shell::new(Engine::new(Box::new(|| in_cbt::CLOCK_MS)), Box::new(|| 0.0));
    for o in sh.run(
        "create 'm', {NAME => 'a', VERSIONS => 3}, {NAME => 'b', TTL => 86400, MIN_VERSIONS => 1, VERSIONS => 2}, {NAME => 'c', VERSIONS => 2147483647}, SPLITS => ['k']\nput 'm', 'r', 'a:x', 'v', 1000",
    ) {
        if let Some(e) = o.error {
            return Err(e.message.into());
        }
    }
    let mut session = rowkey::cbt::Session::new(sh.engine);
    let script = rowkey::cbt::export::script(&mut session, "m")?;
    assert_eq!(
        script,
        "createtable m 'families=a:maxversions=3,b:maxversions=2 || (maxage=1d && maxversions=1),c' splits=k\nset m r a:x=v@1000000\n"
    );
    let mut fresh = rowkey::cbt::Session::new(Engine::new(Box::new(|| in_cbt::CLOCK_MS)));
    for line in script.lines() {
        let out = fresh.run_line(line);
        assert!(!out.failed, "{line}: {}", out.stderr);
    }
    // `ls m` as cbt lays it out (Go's tabwriter, checked against cbt in the differential
    // cases), read back as its cells.
    let ls = String::from_utf8_lossy(&fresh.run_line("ls m").stdout).into_owned();
    let rows: Vec<Vec<&str>> = ls
        .lines()
        .skip(2)
        .map(|l| l.split('\t').filter(|c| !c.is_empty()).collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["a", "versions() > 3", "{}"],
            vec![
                "b",
                "(versions() > 2 || (age() > 1d && versions() > 1))",
                "{}"
            ],
            vec!["c", "{}"],
        ]
    );
    Ok(())
}

/// Loaded under other names (the gallery's answer to a clash), a design's cbt script makes its
/// Bigtable tables under those names: what the console's cbt mode runs to load it.
#[test]
fn a_renamed_design_loads_as_bigtable_tables_under_its_names() -> TestResult {
    use rowkey::designs::loads::{cbt_setup_as, Placement};
    let design = rowkey::designs::find("schema.reversed-domain").ok_or("no design")?;
    let placement = Placement {
        names: vec![
            ("sg_domain".into(), "dom2".into()),
            ("sg_domain_plain".into(), "plain2".into()),
        ],
    };
    let script = cbt_setup_as(&design, &placement)?;
    let mut s = rowkey::cbt::Session::new(Engine::new(Box::new(|| in_cbt::CLOCK_MS)));
    for line in script.lines() {
        let out = s.run_line(line);
        assert!(!out.failed, "{line}: {}", out.stderr);
    }
    let out = |s: &mut rowkey::cbt::Session, line: &str| {
        String::from_utf8_lossy(&s.run_line(line).stdout).into_owned()
    };
    assert_eq!(out(&mut s, "ls"), "dom2\nplain2\n");
    assert_eq!(out(&mut s, "count dom2"), "200\n");
    assert_eq!(out(&mut s, "count dom2 prefix=com.example."), "75\n");
    Ok(())
}

/// The designs' access patterns (HBase shell commands, run over the same engine) on the tables
/// loaded as Bigtable tables: every lesson holds but one, and that one differs exactly as
/// Bigtable's garbage collection differs from HBase's version limit. Weibo's inbox keeps 10,000
/// versions; HBase's read returns the newest 10,000 of 10,005 deliveries, while Bigtable's
/// `maxversions=10000` is applied only when a compaction runs, so a read before it returns all
/// 10,005 ("until the data is deleted, it appears in read results",
/// https://cloud.google.com/bigtable/docs/garbage-collection).
#[test]
fn access_patterns_keep_their_lessons_on_bigtable_tables() -> TestResult {
    use rowkey::designs::Measure;
    let mut held = 0;
    let mut differ = Vec::new();
    for design in catalogue() {
        let session = in_cbt::session(&design)?;
        let mut shell = rowkey::shell::Shell::new(session.engine, Box::new(|| 0.0));
        for i in 0..design.patterns.len() {
            let run = design.run_pattern(&mut shell, i)?;
            if run.all_hold() {
                held += 1;
            } else {
                differ.push((design.id, i, run.measures.get(Measure::CellsReturned)));
            }
        }
    }
    assert_eq!(differ, [("weibo.inbox", 2, 10_005.0)]);
    assert_eq!(held, 136);
    Ok(())
}
