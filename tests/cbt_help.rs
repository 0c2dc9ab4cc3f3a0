//! `cbt help` lists every command the dialect runs: cbt 1.23.2's listing as it prints it, with
//! the commands of later cbt releases (`checkandmutate`, `readmodifywrite`, `samplerowkeys`:
//! cbt.go of googleapis/cloud-bigtable-cbt-cli, whose listing is in alphabetical order) and
//! Rowkey's own (`compact`, `export`) put in their alphabetical places, laid out as cbt lays out
//! its lines (tabs to the 32nd column). The differential test compares the rest with cbt 1.23.2.

mod common;

use common::cbt::{run, session};
use common::TestResult;

#[test]
fn help_lists_every_command_the_dialect_runs() -> TestResult {
    let mut s = session();
    let help = run(&mut s, &["help"])?;
    let listed: Vec<&str> = help
        .lines()
        .filter(|l| l.starts_with("cbt ") && l.contains('\t'))
        .filter_map(|l| l.strip_prefix("cbt ")?.split('\t').next())
        .collect();
    assert_eq!(
        listed,
        [
            "addtocell",
            "checkandmutate",
            "compact",
            "count",
            "createappprofile",
            "createcluster",
            "createfamily",
            "createinstance",
            "createtable",
            "deleteallrows",
            "deleteappprofile",
            "deletecluster",
            "deletecolumn",
            "deletefamily",
            "deleteinstance",
            "deleterow",
            "deletetable",
            "doc",
            "export",
            "getappprofile",
            "help",
            "import",
            "listappprofile",
            "listclusters",
            "listinstances",
            "lookup",
            "ls",
            "mddoc",
            "notices",
            "read",
            "readmodifywrite",
            "samplerowkeys",
            "set",
            "setgcpolicy",
            "setvaluetype",
            "updateappprofile",
            "updatecluster",
            "version",
            "waitforreplication",
        ]
    );
    for c in rowkey::commands::of(rowkey::commands::Dialect::Cbt) {
        assert!(listed.contains(&c.name), "{} is not listed", c.name);
    }
    let line = |name: &str| {
        help.lines()
            .find(|l| l.starts_with(&format!("cbt {name}\t")))
    };
    assert_eq!(
        line("checkandmutate"),
        Some("cbt checkandmutate\t\tSet a value based on the presence of any cell that matches the constraints")
    );
    assert_eq!(
        line("readmodifywrite"),
        Some("cbt readmodifywrite\t\tUpdate a cell with incremental operations based on the latest value of the cell")
    );
    assert_eq!(
        line("samplerowkeys"),
        Some("cbt samplerowkeys\t\tSample the row keys in a table")
    );
    assert_eq!(
        line("compact"),
        Some(
            "cbt compact\t\t\tRun a compaction now, applying garbage-collection policies (Rowkey)"
        )
    );
    assert_eq!(
        line("export"),
        Some("cbt export\t\t\tPrint a table as a cbt script or a CSV for cbt import (Rowkey)")
    );
    // cbt's own lines and the text around the listing are cbt 1.23.2's, byte for byte.
    assert_eq!(
        line("ls"),
        Some("cbt ls\t\t\t\tList tables and column families")
    );
    assert!(help.starts_with("Usage: cbt [flags] <command> ...\n"));
    assert!(help.ends_with("cbt 1.23.2 9eeb4a7 2025-04-22 20:49:45\n"));
    assert_eq!(rowkey::cbt::listing::added_lines().len(), 5);
    Ok(())
}
