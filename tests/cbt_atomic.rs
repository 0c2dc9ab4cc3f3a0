//! cbt's single-row atomic commands and `samplerowkeys`, which later cbt releases have and the
//! installed cbt 1.23.2 does not, so they are checked here natively: the arguments and errors
//! are cbt's (cbt.go of googleapis/cloud-bigtable-cbt-cli at 7fb42c4: `doCheckAndMutate`
//! lines 1754-1795, `doReadModifyWrite` lines 1797-1834, `doSampleRowKeys` lines 2109-2122),
//! the semantics Bigtable's (`CheckAndMutateRow`, `ReadModifyWriteRow`, `SampleRowKeys` in
//! https://cloud.google.com/bigtable/docs/reference/data/rpc/google.bigtable.v2) and the
//! emulator's where the documentation leaves the wording open (bttest `ReadModifyWriteRow`).

mod common;

use common::cbt::{run, session};
use common::TestResult;
use rowkey::cbt::{Sample, Session};

/// Runs one line that must fail; returns its error.
fn error(s: &mut Session, line: &str) -> Result<String, String> {
    let o = s.run_line(line);
    if !o.failed || !o.stdout.is_empty() {
        return Err(format!("{line} did not fail: {o:?}"));
    }
    Ok(o.stderr)
}

/// A row as cbt prints it, one cell per `(column, time, quoted value)`.
fn row(key: &str, cells: &[(&str, &str, &str)]) -> String {
    let mut out = format!("----------------------------------------\n{key}\n");
    for (column, time, value) in cells {
        out.push_str(&format!("  {column:<40} @ {time}\n    {value}\n"));
    }
    out.push('\n');
    out
}

const T1: &str = "1970/01/01-00:00:00.001000";
const T2: &str = "1970/01/01-00:00:00.002000";
/// The clock's time, where a cell without a timestamp is stamped.
const NOW: &str = "2033/05/18-03:33:20.000000";

// ---- checkandmutate ----------------------------------------------------------------------

/// Without `columns=`, cbt's predicate is `LatestNFilter(1)`: it yields a cell when the row has
/// any, so the `true` mutation applies to a row that exists and the `false` one to a row that
/// does not (CheckAndMutateRowRequest: "Changes to be atomically applied to the specified row
/// if predicate_filter yields at least one cell ... false_mutations ... if predicate_filter
/// does not yield any cells").
#[test]
fn checkandmutate_applies_the_branch_the_row_chooses() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=cf",
            "set t r1 cf:a=x@1000",
            "checkandmutate t r1 true=cf:seen=yes@2000 false=cf:seen=no@2000",
            "checkandmutate t r2 true=cf:seen=yes@2000 false=cf:seen=no@2000",
        ],
    )?;
    assert_eq!(
        run(&mut s, &["read t"])?,
        row("r1", &[("cf:a", T1, "\"x\""), ("cf:seen", T2, "\"yes\"")])
            + &row("r2", &[("cf:seen", T2, "\"no\"")])
    );
    // Only `false=`: a row that matches is left as it is.
    run(&mut s, &["checkandmutate t r1 false=cf:other=1@2000"])?;
    assert_eq!(run(&mut s, &["count t"])?, "2\n");
    // (cbt prints a lookup that finds no cell as an empty row.)
    assert_eq!(
        run(&mut s, &["lookup t r1 columns=other"])?,
        "----------------------------------------\n\n\n"
    );
    Ok(())
}

/// `columns=` restricts the existence test to the columns it names (cbt's `parseColumnsFilter`:
/// a family and a qualifier regex), and a mutation without `@timestamp` is stamped now.
#[test]
fn checkandmutate_tests_the_columns_it_names() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=cf,meta",
            "set t r cf:a=1@1000",
            "checkandmutate t r columns=meta:flag true=cf:hit=1 false=cf:miss=1",
            "checkandmutate t r columns=cf:a true=meta:hit=1@2000 false=meta:miss=1@2000",
            "checkandmutate t r columns=c.:[ab] true=meta:regex=1@2000",
        ],
    )?;
    assert_eq!(
        run(&mut s, &["lookup t r"])?,
        row(
            "r",
            &[
                ("cf:a", T1, "\"1\""),
                ("cf:miss", NOW, "\"1\""),
                ("meta:hit", T2, "\"1\""),
                ("meta:regex", T2, "\"1\""),
            ]
        )
    );
    Ok(())
}

/// cbt's own checks come first, in its order (columns, `true=`, `false=`, at least one), then
/// the server's; a mutation the server refuses writes nothing.
#[test]
fn checkandmutate_errors_are_cbts() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &["createtable t families=cf", "set t r cf:a=1@1000"],
    )?;
    let cases = [
        (
            "checkandmutate t r",
            "cbt checkandmutate <table-id> <rowkey> [columns=<family:qualifier>] [true=<family>:<column>=<val>[@<timestamp>]] [false=<family>:<column>=<val>[@<timestamp>]]\n",
        ),
        ("checkandmutate t r columns=cf:a", "Need at least one of true=... or false=...\n"),
        ("checkandmutate t r when=1", "unknown arg key \"when\"\n"),
        ("checkandmutate t r true", "bad arg \"true\"\n"),
        (
            "checkandmutate t r columns=a:b:c true=cf:x=1",
            "While parsing columns=...: bad format for column \"a:b:c\"\n",
        ),
        (
            "checkandmutate t r true=novalue",
            "While parsing true=... mutation: Bad set arg \"novalue\"\n",
        ),
        (
            "checkandmutate t r true=cf:x=1 false=:x=1",
            "While parsing false=... mutation: Bad set arg \":x=1\"\n",
        ),
        (
            "checkandmutate nosuch r true=cf:x=1",
            "Applying conditional mutation: rpc error: code = NotFound desc = table \"projects/p/instances/i/tables/nosuch\" not found\n",
        ),
        (
            "checkandmutate t r true=nofam:x=1",
            "Applying conditional mutation: rpc error: code = Unknown desc = unknown family \"nofam\"\n",
        ),
        (
            "checkandmutate t r false=cf:x=1@1500",
            "Applying conditional mutation: rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #0 : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got 1500.\n",
        ),
        (
            "checkandmutate t '' true=cf:x=1",
            "Applying conditional mutation: rpc error: code = InvalidArgument desc = Row keys must be non-empty\n",
        ),
    ];
    for (line, want) in cases {
        assert_eq!(error(&mut s, line)?, want, "{line}");
    }
    assert_eq!(
        run(&mut s, &["read t"])?,
        row("r", &[("cf:a", T1, "\"1\"")])
    );
    Ok(())
}

// ---- readmodifywrite ---------------------------------------------------------------------

const ONE: &str = r#""\x00\x00\x00\x00\x00\x00\x00\x01""#;

/// `increment=` adds to a 64-bit big-endian signed integer, an unset cell counting as zero
/// (ReadModifyWriteRule.increment_amount); the new cell is printed as cbt prints a row
/// (`printRow` then `Println`), stamped now, and it replaces the cell it was made from when the
/// two share a timestamp (bttest: `max(now, latest)` and `appendOrReplaceCell`).
#[test]
fn readmodifywrite_increments_a_big_endian_counter() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf"])?;
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf:n increment=1"]).err(),
        Some("readmodifywrite t r cf:n increment=1: cbt readmodifywrite <table-id> <rowkey> <family> <qualifier> [append=<val>] [increment=<delta>]\n".into())
    );
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf n increment=1"])?,
        row("r", &[("cf:n", NOW, ONE)])
    );
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf n increment=0x10"])?,
        row(
            "r",
            &[("cf:n", NOW, r#""\x00\x00\x00\x00\x00\x00\x00\x11""#)]
        )
    );
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf n increment=-18"])?,
        row(
            "r",
            &[("cf:n", NOW, r#""\xff\xff\xff\xff\xff\xff\xff\xff""#)]
        )
    );
    // Every increment replaced the one cell at the clock's time.
    assert_eq!(
        run(&mut s, &["read t"])?,
        row(
            "r",
            &[("cf:n", NOW, r#""\xff\xff\xff\xff\xff\xff\xff\xff""#)]
        )
    );
    Ok(())
}

/// `append=` appends to the latest cell's value, an unset cell counting as empty; a cell
/// stamped after now keeps its timestamp (bttest: "ts is the max of now or the prev cell's
/// timestamp in case the prev cell is in the future") and is replaced.
#[test]
fn readmodifywrite_appends_to_the_latest_cell() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=cf",
            "set t r cf:old=ab@1000 cf:old=zz@500000",
            "set t r cf:future=x@3000000000000000",
        ],
    )?;
    let old = "1970/01/01-00:00:00.500000";
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf old append=cd"])?,
        row("r", &[("cf:old", NOW, "\"zzcd\"")])
    );
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf new append=1"])?,
        row("r", &[("cf:new", NOW, "\"1\"")])
    );
    let future = "2065/01/24-05:20:00.000000";
    assert_eq!(
        run(&mut s, &["readmodifywrite t r cf future append=y"])?,
        row("r", &[("cf:future", future, "\"xy\"")])
    );
    assert_eq!(
        run(&mut s, &["read t"])?,
        row(
            "r",
            &[
                ("cf:future", future, "\"xy\""),
                ("cf:new", NOW, "\"1\""),
                ("cf:old", NOW, "\"zzcd\""),
                ("cf:old", old, "\"zz\""),
                ("cf:old", T1, "\"ab\""),
            ]
        )
    );
    Ok(())
}

/// A set cell that is not 8 bytes fails an increment ("If the cell is set and is not an 8-byte
/// value, the operation will fail", cbt's usage; bttest: `increment on non-64-bit value`), and
/// the cell is left as it was. cbt's own checks come first.
#[test]
fn readmodifywrite_errors_are_cbts_and_bigtables() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &["createtable t families=cf", "set t r cf:s=abc@1000"],
    )?;
    let cases = [
        (
            "readmodifywrite t r cf s increment=1",
            "Applying read modify write: rpc error: code = Unknown desc = increment on non-64-bit value\n",
        ),
        (
            "readmodifywrite t r cf s append=x increment=1",
            "Cannot both append and increment, choose one\n",
        ),
        (
            "readmodifywrite t r cf s increment=one",
            "While parsing increment=...: strconv.ParseInt: parsing \"one\": invalid syntax\n",
        ),
        (
            "readmodifywrite t r cf s increment=9223372036854775808",
            "While parsing increment=...: strconv.ParseInt: parsing \"9223372036854775808\": value out of range\n",
        ),
        ("readmodifywrite t r cf s decrement=1", "unknown arg key \"decrement\"\n"),
        (
            "readmodifywrite nosuch r cf s append=x",
            "Applying read modify write: rpc error: code = NotFound desc = table \"projects/p/instances/i/tables/nosuch\" not found\n",
        ),
        (
            "readmodifywrite t r nofam s append=x",
            "Applying read modify write: rpc error: code = Unknown desc = unknown family \"nofam\"\n",
        ),
        (
            "readmodifywrite t '' cf s append=x",
            "Applying read modify write: rpc error: code = InvalidArgument desc = Row keys must be non-empty\n",
        ),
    ];
    for (line, want) in cases {
        assert_eq!(error(&mut s, line)?, want, "{line}");
    }
    assert_eq!(
        run(&mut s, &["read t"])?,
        row("r", &[("cf:s", T1, "\"abc\"")])
    );
    // The largest counter wraps to the smallest, as Go's int64 does.
    run(
        &mut s,
        &["readmodifywrite t m cf n increment=9223372036854775807"],
    )?;
    assert_eq!(
        run(&mut s, &["readmodifywrite t m cf n increment=1"])?,
        row(
            "m",
            &[("cf:n", NOW, r#""\x80\x00\x00\x00\x00\x00\x00\x00""#)]
        )
    );
    Ok(())
}

// ---- samplerowkeys -----------------------------------------------------------------------

/// Rowkey's samples are its tablets' boundaries and then the end of the table, each with the
/// bytes of cell values before it (bttest's `rowsize`); cbt prints one line per sample with a
/// key, and the line is the sample's index (`for k := range keys { fmt.Println(k) }`, and the
/// Go client drops the empty end key).
#[test]
fn samplerowkeys_are_the_tablet_boundaries() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=cf splits=g,p",
            "set t a cf:v=12345@1000",
            "set t b cf:v=123@1000 cf:w=1@1000",
            "set t h cf:v=1234567890@1000",
            "set t q cf:v=12@1000 cf:v=1@2000",
        ],
    )?;
    let sample = |key: &str, offset_bytes: u64| Sample {
        key: key.as_bytes().to_vec(),
        offset_bytes,
    };
    assert_eq!(
        s.sample_row_keys("t")?,
        [sample("g", 9), sample("p", 19), sample("", 22)]
    );
    assert_eq!(run(&mut s, &["samplerowkeys t"])?, "0\n1\n");
    // One tablet: only the end of the table, which cbt does not print.
    run(
        &mut s,
        &["createtable one families=cf", "set one a cf:v=xy@1000"],
    )?;
    assert_eq!(s.sample_row_keys("one")?, [sample("", 2)]);
    assert_eq!(run(&mut s, &["samplerowkeys one"])?, "");
    assert_eq!(
        error(&mut s, "samplerowkeys nosuch")?,
        "Could not sample row keys: rpc error: code = NotFound desc = table \"projects/p/instances/i/tables/nosuch\" not found\n"
    );
    assert_eq!(
        error(&mut s, "samplerowkeys t extra")?,
        "usage: cbt samplerowkeys <table>\n"
    );
    Ok(())
}

/// The three commands are in `cbt help` with later cbt's usage text.
#[test]
fn help_names_the_newer_commands() -> TestResult {
    let mut s = session();
    for (name, first) in [
        (
            "checkandmutate",
            "cbt checkandmutate <table-id> <rowkey> [columns=<family:qualifier>,...]",
        ),
        (
            "readmodifywrite",
            "cbt readmodifywrite <table-id> <rowkey> <family> <qualifier>",
        ),
        ("samplerowkeys", "cbt samplerowkeys <table-id>"),
    ] {
        let help = run(&mut s, &[&format!("help {name}")])?;
        assert!(help.starts_with(first), "{name}: {help}");
    }
    Ok(())
}
