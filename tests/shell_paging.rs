//! A scan with more rows than `Shell::page_rows` returns one page and a continuation;
//! `Shell::resume` goes on after the last row shown. Concatenated, the pages print what the
//! unpaged scan prints (bar the `Took` line), forward or reversed, with LIMIT, STOPROW and
//! filters.
mod common;
use common::*;
use rowkey::shell::Shell;

fn shell_with_rows(n: u32) -> Result<Shell, Box<dyn std::error::Error>> {
    let (mut shell, _) = shell_at(1_000);
    run(
        &mut shell,
        "create 't', 'f', {MAX_FILESIZE => 20000, MEMSTORE_FLUSHSIZE => 4096}",
    );
    for i in 0..n {
        let row = format!("row{i:05}");
        let cells = [
            put("f", "a", None, &format!("a{i}")),
            put("f", "b", None, &format!("b{}", i % 7)),
        ];
        shell.engine.mutate("t", row.as_bytes(), &cells)?;
    }
    Ok(shell)
}

fn without_took(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("Took "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The whole output of a paged scan and the rows each page held.
fn paged(shell: &mut Shell, input: &str, page: usize) -> (String, Vec<u64>) {
    shell.page_rows = Some(page);
    let mut outcomes = shell.run(input);
    let mut out = outcomes.remove(0);
    let mut text = String::new();
    let mut progress = Vec::new();
    loop {
        assert!(out.error.is_none(), "{:?}", out.error);
        text.push_str(&out.output);
        let Some(more) = out.more.take() else {
            assert!(out.output.contains("Took "), "last page has Took");
            break;
        };
        assert!(!out.output.contains("Took "), "only the last page has Took");
        progress.push(more.rows_so_far());
        out = shell.resume(more, page);
    }
    shell.page_rows = None;
    (text, progress)
}

fn unpaged(shell: &mut Shell, input: &str) -> String {
    shell.run(input).iter().map(|o| o.output.clone()).collect()
}

#[test]
fn pages_concatenate_to_the_unpaged_scan() -> TestResult {
    let mut shell = shell_with_rows(2_500)?;
    assert!(shell.engine.table("t")?.regions.len() > 1, "spans regions");
    let whole = unpaged(&mut shell, "scan 't'");
    assert!(whole.contains("\n2500 row(s)\nTook "), "{whole}");
    let (text, progress) = paged(&mut shell, "scan 't'", 1_000);
    assert_eq!(without_took(&text), without_took(&whole));
    assert_eq!(progress, vec![1_000, 2_000]);
    // A page size dividing the row count: no empty last page.
    let (text, progress) = paged(&mut shell, "scan 't'", 500);
    assert_eq!(without_took(&text), without_took(&whole));
    assert_eq!(progress, vec![500, 1_000, 1_500, 2_000]);
    Ok(())
}

#[test]
fn reversed_pages_go_on_below_the_last_row() -> TestResult {
    let mut shell = shell_with_rows(2_500)?;
    let input = "scan 't', {REVERSED => true}";
    let whole = unpaged(&mut shell, input);
    let (text, progress) = paged(&mut shell, input, 700);
    assert_eq!(without_took(&text), without_took(&whole));
    assert_eq!(progress, vec![700, 1_400, 2_100]);
    let input = "scan 't', {REVERSED => true, STARTROW => 'row02000', STOPROW => 'row00100'}";
    let whole = unpaged(&mut shell, input);
    assert!(whole.contains("1900 row(s)\n"));
    let (text, _) = paged(&mut shell, input, 333);
    assert_eq!(without_took(&text), without_took(&whole));
    Ok(())
}

#[test]
fn limit_counts_over_every_page() -> TestResult {
    let mut shell = shell_with_rows(2_500)?;
    for (input, pages) in [
        ("scan 't', {LIMIT => 1200}", vec![500, 1_000]),
        (
            "scan 't', {LIMIT => 1200, REVERSED => true}",
            vec![500, 1_000],
        ),
        // The second page reaches the limit: it is the last.
        ("scan 't', {LIMIT => 1000}", vec![500]),
    ] {
        let whole = unpaged(&mut shell, input);
        let (text, progress) = paged(&mut shell, input, 500);
        assert_eq!(without_took(&text), without_took(&whole), "{input}");
        assert_eq!(progress, pages, "{input}");
    }
    assert!(unpaged(&mut shell, "scan 't', {LIMIT => 1200}").contains("\n1200 row(s)\n"));
    Ok(())
}

#[test]
fn stoprow_prefix_and_filters_hold_on_every_page() -> TestResult {
    let mut shell = shell_with_rows(2_500)?;
    for input in [
        "scan 't', {STARTROW => 'row00100', STOPROW => 'row02100'}",
        "scan 't', {ROWPREFIXFILTER => 'row01'}",
        "scan 't', {FILTER => \"SingleColumnValueFilter('f', 'b', =, 'binary:b3')\"}",
        "scan 't', {COLUMNS => ['f:b'], FILTER => \"ValueFilter(=, 'binary:b3')\", REVERSED => true}",
    ] {
        let whole = unpaged(&mut shell, input);
        let (text, _) = paged(&mut shell, input, 128);
        assert_eq!(without_took(&text), without_took(&whole), "{input}");
    }
    Ok(())
}

#[test]
fn a_small_scan_is_one_page_as_before() -> TestResult {
    let mut shell = shell_with_rows(10)?;
    shell.page_rows = Some(10);
    let out = shell
        .run("scan 't', {COLUMNS => 'f:a', LIMIT => 2}")
        .remove(0);
    assert!(out.more.is_none());
    assert_eq!(
        without_took(&out.output),
        "ROW  COLUMN+CELL\n row00000 column=f:a, timestamp=1000, value=a0\n row00001 column=f:a, timestamp=1000, value=a1\n2 row(s)\n"
    );
    let out = shell.run("scan 't'").remove(0);
    assert!(out.more.is_none() && out.output.contains("\n10 row(s)\n"));
    Ok(())
}

#[test]
fn a_page_reports_its_own_trace_and_a_dropped_table_ends_the_scan() -> TestResult {
    let mut shell = shell_with_rows(300)?;
    shell.page_rows = Some(100);
    let first = shell.run("scan 't'").remove(0);
    let trace = first.trace.ok_or("trace")?;
    assert_eq!(trace.returned.len(), 100);
    let more = first.more.ok_or("more")?;
    assert_eq!(more.command(), "scan 't'");
    let second = shell.resume(more.clone(), 100);
    let returned = second.trace.ok_or("trace")?.returned;
    assert_eq!(returned.get(0), Some(&b"row00100"[..]));
    assert_eq!(returned.len(), 100);
    run(&mut shell, "disable 't'\ndrop 't'");
    let gone = shell.resume(more, 100);
    assert_eq!(
        gone.error.map(|e| e.message),
        Some("Unknown table t!".to_string())
    );
    assert!(gone.more.is_none());
    Ok(())
}
