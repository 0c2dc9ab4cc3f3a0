//! `rowkey cbt` as a person uses it: lines on standard input, a leading `cbt` and its flags,
//! errors that do not stop the input, the timestamp lint on standard error, the time zone, and
//! an export that reads back the same.

use std::io::Cursor;

use rowkey::cbt::cli::{run, Env};
use rowkey::cbt::Session;
use rowkey::engine::Engine;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn env(args: &[&str], tz: Option<&str>) -> Env {
    Env {
        args: args.iter().map(|a| a.to_string()).collect(),
        tz: tz.map(str::to_string),
        clock: Box::new(|| 1_700_000_000_000),
        timer: Box::new(|| 0.0),
        read_file: Box::new(|name| Err(format!("open {name}: no such file or directory"))),
    }
}

fn cli(input: &str, args: &[&str], tz: Option<&str>) -> (String, String, i32) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = run(
        &mut Cursor::new(input.as_bytes()),
        &mut out,
        &mut err,
        env(args, tz),
    );
    (
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
        code,
    )
}

#[test]
fn errors_are_cbts_and_the_rest_still_runs() {
    let (out, err, code) = cli(
        "createtable t families=cf\nset t r cf:a=1@1000\nset t r bad\nread t foo=1\nsetgcpolicy t cf foo\nread t \"regex=(\"\nnosuch\nset t r cf:b=2@1001\ncount t\n",
        &["-project", "proj", "-instance", "inst"],
        Some("UTC"),
    );
    assert_eq!(code, 0);
    assert_eq!(out, "1\n");
    assert_eq!(
        err,
        "Bad set arg \"bad\"\nunknown arg key \"foo\"\ninvalid GC policy: unexpected token: \"foo\"\nReading rows: rpc error: code = InvalidArgument desc = Error in field 'row_key_regex_filter' : error parsing regexp: missing closing ): `^(?:()$`\nUnknown command \"nosuch\"\nApplying mutation: rpc error: code = InvalidArgument desc = Error in Mutation list : Error in element #0 : Timestamp granularity mismatch. Expected a multiple of 1000 (millisecond granularity), but got 1001.\n"
    );
}

#[test]
fn a_leading_cbt_and_its_flags_name_the_instance_in_errors() {
    let (_, err, _) = cli(
        "cbt -project my-project -instance my-instance read nosuch\ncbt --instance=other ls nosuch\ncbt -nosuchflag x ls\n",
        &[],
        None,
    );
    assert_eq!(
        err,
        "Reading rows: rpc error: code = NotFound desc = table \"projects/my-project/instances/my-instance/tables/nosuch\" not found\nGetting table info: rpc error: code = NotFound desc = table \"projects/my-project/instances/other/tables/nosuch\" not found\nflag provided but not defined: -nosuchflag\n"
    );
}

#[test]
fn epoch_milliseconds_get_one_warning_line() {
    let (out, err, _) = cli(
        "createtable t families=cf\nset t r cf:a=x@1700000000000\nset t r cf:b=y@1700000000000000\n",
        &[],
        None,
    );
    assert_eq!(out, "");
    assert_eq!(
        err,
        "rowkey: warning: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)\n"
    );
}

#[test]
fn imported_epoch_milliseconds_are_flagged_too() {
    let mut s = Session::new(Engine::new(Box::new(|| 0)));
    s.read_file = Box::new(|_| Ok(b",cf\n,a\nr1,x@1700000000000\nr2,y@2000\n".to_vec()));
    assert_eq!(s.run_line("createtable t families=cf").stderr, "");
    let out = s.run_line("import t data.csv timestamp=value-encoded");
    assert_eq!(
        out.stderr,
        "rowkey: warning: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)\n[0] Writing batch:: size: 2, firstRowKey: r1, lastRowKey: r2\nDone importing 2 rows.\n"
    );
}

/// cbt prints times in its process's zone, which Go's `time` package reads from `TZ` and the
/// system's tzdata (`initLocal`, `time/zoneinfo_unix.go`); the figures are the installed cbt
/// 1.23.2's, printed against the emulator with each `TZ` (the differential cases `tz-*` check
/// them line by line where the emulator runs).
#[test]
fn times_print_in_the_zone_tz_names() {
    // 2024-03-10 06:59:59 and 07:00:00 UTC, 2024-11-03 05:59:59 and 06:00:00 UTC, the epoch.
    let input = "createtable t families=cf\nset t r cf:a=x@1710053999000000 cf:b=y@1710054000000000 cf:c=z@1730613599000000 cf:d=w@1730613600000000 cf:e=v@1000\nread t\n";
    let stamps = |tz: Option<&str>| -> Vec<String> {
        let (out, err, _) = cli(input, &[], tz);
        assert_eq!(err, "", "TZ={tz:?}");
        out.lines()
            .filter_map(|l| l.split(" @ ").nth(1))
            .map(str::to_string)
            .collect()
    };
    let cases: [(Option<&str>, [&str; 5]); 6] = [
        (
            Some("America/New_York"),
            [
                "2024/03/10-01:59:59.000000",
                "2024/03/10-03:00:00.000000",
                "2024/11/03-01:59:59.000000",
                "2024/11/03-01:00:00.000000",
                "1969/12/31-19:00:00.001000",
            ],
        ),
        (
            Some("Europe/Paris"),
            [
                "2024/03/10-07:59:59.000000",
                "2024/03/10-08:00:00.000000",
                "2024/11/03-06:59:59.000000",
                "2024/11/03-07:00:00.000000",
                "1970/01/01-01:00:00.001000",
            ],
        ),
        (
            Some(":Asia/Kolkata"),
            [
                "2024/03/10-12:29:59.000000",
                "2024/03/10-12:30:00.000000",
                "2024/11/03-11:29:59.000000",
                "2024/11/03-11:30:00.000000",
                "1970/01/01-05:30:00.001000",
            ],
        ),
        (
            Some("/usr/share/zoneinfo/Australia/Lord_Howe"),
            [
                "2024/03/10-17:59:59.000000",
                "2024/03/10-18:00:00.000000",
                "2024/11/03-16:59:59.000000",
                "2024/11/03-17:00:00.000000",
                "1970/01/01-10:00:00.001000",
            ],
        ),
        (
            Some("EST5EDT"),
            [
                "2024/03/10-01:59:59.000000",
                "2024/03/10-03:00:00.000000",
                "2024/11/03-01:59:59.000000",
                "2024/11/03-01:00:00.000000",
                "1969/12/31-19:00:00.001000",
            ],
        ),
        // A POSIX rule names no tzfile, and Go prints UTC.
        (
            Some("XXX-2"),
            [
                "2024/03/10-06:59:59.000000",
                "2024/03/10-07:00:00.000000",
                "2024/11/03-05:59:59.000000",
                "2024/11/03-06:00:00.000000",
                "1970/01/01-00:00:00.001000",
            ],
        ),
    ];
    if !std::path::Path::new("/usr/share/zoneinfo/America/New_York").exists() {
        eprintln!(
            "no tzdata under /usr/share/zoneinfo (Debian's tzdata package): zone names not checked"
        );
        return;
    }
    for (tz, want) in cases {
        assert_eq!(stamps(tz), want, "TZ={tz:?}");
    }
    for tz in [
        Some(""),
        Some("UTC"),
        Some("No/Such_Zone"),
        Some("../etc/passwd"),
    ] {
        assert_eq!(stamps(tz)[4], "1970/01/01-00:00:00.001000", "TZ={tz:?}");
    }
}

#[test]
fn an_unclosed_quote_is_reported_and_skipped() {
    let (out, err, _) = cli(
        "createtable t families=cf\nset t 'r cf:a=1@1000\ncount t\n",
        &[],
        None,
    );
    assert_eq!(out, "0\n");
    assert_eq!(err, "unexpected EOF while looking for matching `''\n");
}

/// The exported script, run in a fresh session, reads back the same table.
#[test]
fn an_exported_script_reads_back_the_same() -> TestResult {
    let mut first = Session::new(Engine::new(Box::new(|| 0)));
    for line in [
        "createtable t \"families=a:maxversions=2,b:maxage=1d && maxversions=1\" splits=m,$'\\xfe'",
        "set t r1 a:x=1@1000 a:x=2@2000 b:y=$'it\\'s\\x01'@3000",
        "set t $'\\xff\\x01' 'a:sp ace=v w@4000'",
        "set t z a:q=user@example.com@5000",
    ] {
        assert_eq!(first.run_line(line).stderr, "", "{line}");
    }
    let script = String::from_utf8(first.run_line("export t").stdout)?;
    let mut second = Session::new(Engine::new(Box::new(|| 0)));
    for line in script.lines() {
        assert_eq!(second.run_line(line).stderr, "", "{line}");
    }
    for read in ["read t", "ls t"] {
        assert_eq!(second.run_line(read), first.run_line(read), "{read}");
    }
    assert_eq!(second.run_line("export t"), first.run_line("export t"));
    Ok(())
}

#[test]
fn the_csv_export_has_a_family_row_and_newest_values() {
    let mut s = Session::new(Engine::new(Box::new(|| 0)));
    for line in [
        "createtable t families=a,b",
        "set t r1 a:x=old@1000 a:x=new@2000 b:y=1,2@3000",
        "set t r2 'a:z=\"q\"@4000'",
    ] {
        assert_eq!(s.run_line(line).stderr, "");
    }
    assert_eq!(
        String::from_utf8_lossy(&s.run_line("export t format=csv").stdout),
        ",a,,b\n,x,z,y\nr1,new@2000,,\"1,2@3000\"\nr2,,\"\"\"q\"\"@4000\",\n"
    );
}

/// `-design ID` loads a gallery design's tables as Bigtable tables before the lines run, so a
/// key lesson reads in cbt's words: the reversed domain keeps one site's pages together under
/// one prefix.
#[test]
fn a_design_loads_as_bigtable_tables() {
    let (out, err, code) = cli(
        "ls\ncount sg_domain\nread sg_domain prefix=com.example.blog/item/00 count=1\n",
        &["-design", "schema.reversed-domain"],
        Some("UTC"),
    );
    assert_eq!((err.as_str(), code), ("", 0));
    assert_eq!(
        out,
        "sg_domain\nsg_domain_plain\n200\n----------------------------------------\ncom.example.blog/item/000\n  page:title                               @ 2023/11/14-22:13:20.052000\n    \"blog.example.com/item/000\"\n\n"
    );
    let (out, err, code) = cli("ls\n", &["-design", "no.such"], None);
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(
        err.starts_with("rowkey: no design \"no.such\"; the designs are person-role.one-table, "),
        "{err}"
    );
}
