//! Bigtable's semantics in the cbt dialect, each checked against Bigtable's documentation or
//! the emulator's source (`bttest`, github.com/googleapis/google-cloud-go/bigtable/bttest).

mod common;

use common::cbt::{run, session, NOW_MS};
use common::TestResult;
use rowkey::cbt::Session;

const DAY_US: u64 = 86_400_000_000;

/// The timestamps a read prints, in order.
fn stamps(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split(" @ ").nth(1))
        .map(str::to_string)
        .collect()
}

/// Garbage collection "takes place during compaction", and "until the data is deleted, it
/// appears in read results" (https://cloud.google.com/bigtable/docs/garbage-collection):
/// versions past `maxversions` stay readable until a compaction.
#[test]
fn versions_past_the_policy_stay_until_compaction() -> TestResult {
    let mut s = session();
    let before = run(
        &mut s,
        &[
            "createtable t families=cf:maxversions=1",
            "set t r cf:a=1@1000 cf:a=2@2000 cf:a=3@3000",
            "read t",
        ],
    )?;
    assert_eq!(
        stamps(&before),
        [
            "1970/01/01-00:00:00.003000",
            "1970/01/01-00:00:00.002000",
            "1970/01/01-00:00:00.001000"
        ]
    );
    let after = run(&mut s, &["compact t", "read t"])?;
    assert_eq!(stamps(&after), ["1970/01/01-00:00:00.003000"]);
    Ok(())
}

/// Without a garbage-collection policy a family keeps every version (the default settings of
/// https://cloud.google.com/bigtable/docs/garbage-collection; `bttest` collects only under a
/// policy).
#[test]
fn without_a_policy_every_version_is_kept() -> TestResult {
    let mut s = session();
    let out = run(
        &mut s,
        &[
            "createtable t families=cf",
            "set t r cf:a=1@1000 cf:a=2@2000 cf:a=3@3000 cf:a=4@4000",
            "compact t",
            "read t",
        ],
    )?;
    assert_eq!(stamps(&out).len(), 4);
    Ok(())
}

/// `maxage` counts from the cell's timestamp, in microseconds, against the server's clock
/// (https://cloud.google.com/bigtable/docs/garbage-collection): a cell two days old
/// goes at compaction under `maxage=1d`, one an hour old stays.
#[test]
fn maxage_collects_by_the_cells_microsecond_timestamp() -> TestResult {
    let mut s = session();
    let now_us = NOW_MS * 1_000;
    let old = now_us - 2 * DAY_US;
    let young = now_us - DAY_US / 24;
    let out = run(
        &mut s,
        &[
            "createtable t families=cf:maxage=1d",
            &format!("set t r cf:old=x@{old} cf:young=y@{young}"),
            "compact t",
            "read t",
        ],
    )?;
    assert!(out.contains("cf:young"), "{out}");
    assert!(!out.contains("cf:old"), "{out}");
    Ok(())
}

/// A union collects what either part would; an intersection only what every part would
/// (https://cloud.google.com/bigtable/docs/garbage-collection,
/// https://cloud.google.com/bigtable/docs/garbage-collection). The emulator
/// ignores intersections (`bttest` `applyGC` handles only `max_num_versions`, `max_age` and
/// unions), which the differential test lists as a divergence.
#[test]
fn unions_and_intersections_at_compaction() -> TestResult {
    let now_us = NOW_MS * 1_000;
    let old = [1_000u64, 2_000, 3_000];
    let fresh = [now_us - 3_000_000, now_us - 2_000_000, now_us - 1_000_000];
    for (policy, want_old, want_fresh) in [
        ("maxversions=2 or maxage=1d", 0, 2),
        ("maxversions=2 and maxage=1d", 2, 3),
    ] {
        let mut s = session();
        run(&mut s, &["createtable t families=cf"])?;
        for (row, stamps_us) in [("old", old), ("fresh", fresh)] {
            let cells: Vec<String> = stamps_us.iter().map(|t| format!("cf:a=v@{t}")).collect();
            run(&mut s, &[&format!("set t {row} {}", cells.join(" "))])?;
        }
        run(
            &mut s,
            &[&format!("setgcpolicy t cf {policy}"), "compact t"],
        )?;
        let o = stamps(&run(&mut s, &["lookup t old"])?).len();
        let f = stamps(&run(&mut s, &["lookup t fresh"])?).len();
        assert_eq!((o, f), (want_old, want_fresh), "{policy}");
    }
    Ok(())
}

/// A delete marks the cells that exist "for deletion and cannot be read", and the data goes at
/// a later compaction (https://cloud.google.com/bigtable/docs/delete-data, "How Bigtable deletes
/// data"); nothing written later is affected (`bttest`
/// `DeleteFromRow` and `DeleteFromColumn` remove the cells from the row in place), so a write
/// with an older timestamp after a delete is visible at once (HBase would hide it behind the
/// delete marker until a major compaction).
#[test]
fn deletes_leave_no_tombstone() -> TestResult {
    let mut s = session();
    let out = run(
        &mut s,
        &[
            "createtable t families=cf",
            "set t r cf:a=new@9000 cf:b=keep@1000",
            "set t s cf:a=other@9000",
            "deleterow t r",
            "set t r cf:a=old@1000",
            "deletecolumn t s cf a",
            "set t s cf:a=older@2000",
            "read t",
        ],
    )?;
    assert_eq!(
        out,
        "----------------------------------------\nr\n  cf:a                                     @ 1970/01/01-00:00:00.001000\n    \"old\"\n\n----------------------------------------\ns\n  cf:a                                     @ 1970/01/01-00:00:00.002000\n    \"older\"\n\n"
    );
    // A compaction purges the deletes with what they took and changes nothing a read shows.
    assert_eq!(run(&mut s, &["compact t", "read t"])?, out);
    Ok(())
}

/// "Timestamps that you send to Bigtable must be microsecond values with at most millisecond
/// precision. A timestamp with microsecond precision, such as 3023483279876543, is rejected"
/// (https://cloud.google.com/bigtable/docs/garbage-collection; the service answers "Timestamp
/// granularity mismatch. Expected a multiple of 1000"). The emulator of cbt 1.23.2's SDK
/// floors such a value instead (a documented divergence).
#[test]
fn timestamps_must_be_whole_milliseconds() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf"])?;
    let refused = s.run_line("set t r cf:a=x@1001");
    assert_eq!(
        refused.stderr,
        "Applying mutation: rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #0 : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got 1001.\n"
    );
    let out = run(&mut s, &["set t r cf:b=y@1000", "read t"])?;
    assert_eq!(stamps(&out), ["1970/01/01-00:00:00.001000"]);
    // A write without a timestamp takes the server's clock in microseconds.
    let out = run(&mut s, &["set t n cf:c=now", "lookup t n"])?;
    assert_eq!(stamps(&out), ["2033/05/18-03:33:20.000000"]);
    Ok(())
}

/// A row regex must match the whole key, in RE2's syntax (`bttest` compiles
/// `^(?:` + regex + `)$`; https://cloud.google.com/bigtable/docs/using-filters#row-key-regex),
/// and keys are bytes: a byte that is not UTF-8 is one character to `.`.
#[test]
fn row_regexes_match_whole_keys_over_bytes() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=cf",
            "set t r cf:a=1@1000",
            "set t r1 cf:a=1@1000",
            "set t xr1 cf:a=1@1000",
            "set t $'k\\xffz' cf:a=1@1000",
        ],
    )?;
    let keys = |s: &mut Session, regex: &str| -> Result<Vec<String>, String> {
        let out = run(s, &[&format!("read t 'regex={regex}' keys-only=true")])?;
        let lines: Vec<&str> = out.lines().collect();
        Ok(lines
            .windows(2)
            .filter(|w| w[0].starts_with("----"))
            .map(|w| w[1].to_string())
            .collect())
    };
    assert_eq!(keys(&mut s, "r")?, ["r"]);
    assert_eq!(keys(&mut s, "r.")?, ["r1"]);
    assert_eq!(keys(&mut s, ".*r1")?, ["r1", "xr1"]);
    assert_eq!(keys(&mut s, "k.z")?.len(), 1);
    Ok(())
}

/// `columns=` entries are regular expressions matched whole against the family and the
/// qualifier (cbt builds `FamilyFilter` and `ColumnFilter`, which are
/// `family_name_regex_filter` and `column_qualifier_regex_filter`).
#[test]
fn column_entries_are_regexes() -> TestResult {
    let mut s = session();
    run(
        &mut s,
        &[
            "createtable t families=stats,meta",
            "set t r stats:os_build=1@1000 stats:os_name=2@1000 stats:connected=3@1000 meta:os_x=4@1000",
        ],
    )?;
    let columns = |s: &mut Session, spec: &str| -> Result<Vec<String>, String> {
        Ok(run(s, &[&format!("lookup t r 'columns={spec}'")])?
            .lines()
            .filter(|l| l.contains(" @ "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect())
    };
    assert_eq!(
        columns(&mut s, "stats:os_.*")?,
        ["stats:os_build", "stats:os_name"]
    );
    assert_eq!(
        columns(&mut s, ".*:os_.*")?,
        ["meta:os_x", "stats:os_build", "stats:os_name"]
    );
    assert_eq!(columns(&mut s, "stats:os")?, Vec::<String>::new());
    Ok(())
}

/// "Row keys must be non-empty" (`bttest` `MutateRow`; Bigtable refuses an empty key).
#[test]
fn empty_row_keys_are_refused() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf"])?;
    let o = s.run_line("set t '' cf:a=1@1000");
    assert_eq!(
        o.stderr,
        "Applying mutation: rpc error: code = InvalidArgument desc = Row keys must be non-empty\n"
    );
    assert_eq!(run(&mut s, &["count t"])?, "0\n");
    Ok(())
}

/// Aggregate families combine the values added to a cell at the same timestamp
/// (https://cloud.google.com/bigtable/docs/aggregates).
#[test]
fn addtocell_sums_at_one_timestamp() -> TestResult {
    let mut s = session();
    let out = run(
        &mut s,
        &[
            "createtable t families=s:never:intsum",
            "addtocell t r s:c=5@1000",
            "addtocell t r s:c=-7@1000",
            "lookup t r",
        ],
    )?;
    assert!(
        out.contains(r#""\xff\xff\xff\xff\xff\xff\xff\xfe""#),
        "{out}"
    );
    Ok(())
}

/// A format file (a YAML file of the columns' types) and an authorized view are what cbt reads
/// besides the table; Rowkey has neither, and says so rather than read the table as if the
/// option were not there. Given empty, each counts as not given, as cbt counts it.
#[test]
fn format_files_and_authorized_views_are_refused_by_name() -> TestResult {
    let mut s = session();
    run(&mut s, &["createtable t families=cf", "set t r cf:a=v"])?;
    for (line, message) in [
        ("read t format-file=types.yml", "format-file=types.yml: Rowkey reads no format files; without one cbt prints each value as bytes, as here\n"),
        ("lookup t r format-file=types.yml", "format-file=types.yml: Rowkey reads no format files; without one cbt prints each value as bytes, as here\n"),
        ("read t authorized-view=v1", "authorized-view=v1: Rowkey has no authorized views; read the table itself\n"),
    ] {
        let o = s.run_line(line);
        assert_eq!((o.stdout.is_empty(), o.stderr.as_str()), (true, message), "{line}");
    }
    assert!(run(&mut s, &["read t format-file= authorized-view="])?.contains("\"v\""));
    Ok(())
}
