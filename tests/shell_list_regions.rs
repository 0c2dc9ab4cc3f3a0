//! `list_regions` as hbase-shell 2.x's `list_regions.rb` prints it: right-aligned columns
//! (SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY), each as wide as its
//! widest value and at least its starting width, a row of dashes, one row per region and
//! ` N rows`; its argument forms (a server-name prefix as a string or in a hash, a
//! LOCALITY_THRESHOLD Float, an array of columns in any case) and its refusals.
mod common;
use common::*;

fn setup() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't1', 'f', SPLITS => ['g', 'p']\n\
         put 't1', 'a', 'f:q', 'v'\n\
         put 't1', 'h', 'f:q', 'v'\n\
         flush 't1'\n\
         get 't1', 'a'",
    );
    sh
}

#[test]
fn every_column_by_default() -> TestResult {
    let mut sh = setup();
    let out = run(&mut sh, "list_regions 't1'");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some("  SERVER_NAME |                              REGION_NAME |  START_KEY |    END_KEY |  SIZE |   REQ |   LOCALITY |"),
        "{out}"
    );
    assert_eq!(
        lines.get(1).copied(),
        Some(" ------------ | ---------------------------------------- | ---------- | ---------- | ----- | ----- | ---------- |")
    );
    // The first region: the put and the get make two requests; every region is local.
    let first = lines.get(2).copied().unwrap_or("");
    assert!(first.starts_with(" in this page |  t1,,"), "{first}");
    assert!(
        first.ends_with("|            |          g |    24 |     2 |        1.0 |"),
        "{first}"
    );
    let last = lines.get(4).copied().unwrap_or("");
    assert!(
        last.ends_with("|          p |            |     0 |     0 |        1.0 |"),
        "{last}"
    );
    assert_eq!(lines.get(5).copied(), Some(" 3 rows"));
    Ok(())
}

#[test]
fn columns_are_chosen_in_any_case_and_servers_by_prefix() -> TestResult {
    let mut sh = setup();
    let want = "  SERVER_NAME |  START_KEY |\n ------------ | ---------- |\n in this page |            |\n in this page |          g |\n in this page |          p |\n 3 rows\n";
    assert_eq!(
        run(
            &mut sh,
            "list_regions 't1', {}, ['SERVER_NAME', 'start_key']"
        ),
        want
    );
    assert_eq!(
        run(
            &mut sh,
            "list_regions 't1', '', ['SERVER_NAME', 'start_key']"
        ),
        want
    );
    assert_eq!(
        run(
            &mut sh,
            "list_regions 't1', 'in this', ['server_name', 'START_KEY']"
        ),
        want
    );
    assert_eq!(
        run(&mut sh, "list_regions 't1', nil, ['END_KEY', 'END_KEY']"),
        "    END_KEY |\n ---------- |\n          g |\n          p |\n            |\n 3 rows\n"
    );
    // A server this page is not, and a locality threshold below the regions' 1.0: none.
    assert_eq!(
        run(&mut sh, "list_regions 't1', 'server_name', ['REQ']"),
        "   REQ |\n ----- |\n 0 rows\n"
    );
    assert_eq!(
        run(
            &mut sh,
            "list_regions 't1', {LOCALITY_THRESHOLD => 0.8}, ['REQ']"
        ),
        "   REQ |\n ----- |\n 0 rows\n"
    );
    assert!(run(
        &mut sh,
        "list_regions 't1', {LOCALITY_THRESHOLD => 1.0}, ['REQ']"
    )
    .ends_with(" 3 rows\n"));
    Ok(())
}

#[test]
fn refusals_say_what_list_regions_rb_says() -> TestResult {
    let mut sh = setup();
    let cases = [
        ("list_regions 't1', {LOCALITY_THRESHOLD => 1}", "LOCALITY_THRESHOLD must be a float value", "1"),
        ("list_regions 't1', {LOCALITY_THRESHOLD => 1.5}", "LOCALITY_THRESHOLD must be between 0 and 1.0, inclusive", "1.5"),
        ("list_regions 't1', {}, ['bogus']", "bogus is not a valid column. Possible values are SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY.", "'bogus'"),
        ("list_regions 't1', {}, 'SIZE'", "SIZE must be an array of strings. Possible values are SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY.", "'SIZE'"),
        ("list_regions 'nope'", "Unknown table nope!", "'nope'"),
    ];
    for (input, message, under) in cases {
        let outs = sh.run(input);
        let e = outs.iter().find_map(|o| o.error.clone()).ok_or(input)?;
        assert_eq!(e.message, message, "{input}");
        assert_eq!(input.get(e.span.clone()), Some(under), "{input}");
    }
    run(&mut sh, "disable 't1'");
    let outs = sh.run("list_regions 't1'");
    let e = outs
        .iter()
        .find_map(|o| o.error.clone())
        .ok_or("disabled")?;
    assert_eq!(e.message, "Table t1 must be enabled.");
    Ok(())
}

/// A split's daughters are new regions, each counting its requests from nothing (HBase's
/// request counts are an `HRegion`'s, and `SplitTableRegionProcedure` opens the daughters as
/// new ones): neither carries the parent's.
#[test]
fn a_splits_daughters_count_their_requests_from_nothing() -> TestResult {
    let (mut sh, _) = shell_at(1_000);
    run(
        &mut sh,
        "create 't1', 'f'\nput 't1', 'a', 'f:q', 'v'\nput 't1', 'b', 'f:q', 'v'\n\
         put 't1', 'm', 'f:q', 'v'\nget 't1', 'a'\nsplit 't1', 'h'\nput 't1', 'c', 'f:q', 'v'\n\
         put 't1', 'n', 'f:q', 'v'\nput 't1', 'o', 'f:q', 'v'",
    );
    let out = run(&mut sh, "list_regions 't1', {}, ['START_KEY', 'REQ']");
    let rows: Vec<&str> = out.lines().skip(2).take(2).collect();
    assert_eq!(
        rows,
        ["            |     1 |", "          h |     2 |"],
        "{out}"
    );
    Ok(())
}
