//! `alter` reopens the table's regions as HBase's modifyTable does
//! (`ReopenTableRegionsProcedure`): closing a region flushes its memstore under the old
//! descriptor (`HRegion.close` → `internalFlushcache`), and the reopened region reads and
//! flushes with the new one.
mod common;
use common::*;

fn cells_of(sh: &mut rowkey::shell::Shell, input: &str) -> usize {
    run(sh, input)
        .lines()
        .filter(|l| l.starts_with(" f:"))
        .count()
}

/// Three versions written under VERSIONS => 3 reach a file when VERSIONS drops to 1, so
/// raising it again shows them; a flush under the new descriptor would have kept one.
#[test]
fn alter_flushes_with_the_old_descriptor_before_the_new_applies() -> TestResult {
    let (mut sh, clock) = shell_at(1_000);
    run(&mut sh, "create 't', {NAME => 'f', VERSIONS => 3}");
    for v in ["a", "b", "c"] {
        run(&mut sh, &format!("put 't', 'r', 'f:q', '{v}'"));
        clock.advance(1);
    }
    let memstore = |sh: &rowkey::shell::Shell| {
        sh.engine
            .table("t")
            .map(|t| t.regions.iter().map(|r| r.memstore_bytes()).sum::<usize>())
            .unwrap_or(usize::MAX)
    };
    assert!(memstore(&sh) > 0);
    run(&mut sh, "alter 't', {NAME => 'f', VERSIONS => 1}");
    assert_eq!(memstore(&sh), 0, "the reopen flushed the memstore");
    assert_eq!(
        cells_of(&mut sh, "get 't', 'r', {COLUMN => 'f:q', VERSIONS => 3}"),
        1,
        "reads use the new VERSIONS"
    );
    run(
        &mut sh,
        "flush 't'\nalter 't', {NAME => 'f', VERSIONS => 3}",
    );
    assert_eq!(
        cells_of(&mut sh, "get 't', 'r', {COLUMN => 'f:q', VERSIONS => 3}"),
        3,
        "the file written under VERSIONS => 3 kept all three"
    );
    Ok(())
}

/// A family's METADATA and CONFIGURATION, which HBase keeps in the family's descriptor and
/// `describe` shows, are not kept by Rowkey: `create` and `alter` say so for each, in the
/// manner of admin.rb's note for an argument it ignores, instead of taking them in silence.
#[test]
fn a_familys_metadata_and_configuration_are_said_to_be_left_out() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    let created = run(
        &mut sh,
        "create 'm', {NAME => 'f', METADATA => {'k' => 'v'}, CONFIGURATION => {'hbase.x' => '1'}}",
    );
    assert!(created.starts_with(
        "Argument ignored for column family f: METADATA (Rowkey does not keep it; describe shows the family without it)\n\
         Argument ignored for column family f: CONFIGURATION (Rowkey does not keep it; describe shows the family without it)\n\
         Created table m\n"
    ), "{created}");
    let altered = run(&mut sh, "alter 'm', NAME => 'f', METADATA => {'a' => 'b'}");
    assert!(altered.starts_with(
        "Argument ignored for column family f: METADATA (Rowkey does not keep it; describe shows the family without it)\n"
    ), "{altered}");
}

/// HBase's master checks a table's families before it makes or alters the table
/// (`TableDescriptorChecker.sanityCheck`, `hbase.table.sanity.checks` on by default): a TTL of 0,
/// MIN_VERSIONS above VERSIONS, a block size outside 1K..16MB, each refused with its message
/// and the hint to bypass the checks; `ColumnFamilyDescriptorBuilder.setMaxVersions` refuses
/// VERSIONS of 0 itself. Nothing is made or changed.
#[test]
fn the_masters_sanity_checks_refuse_a_zero_ttl_and_min_versions_above_versions() {
    let (mut sh, _) = shell_at(1_000);
    let error = |sh: &mut rowkey::shell::Shell, line: &str| error_of(sh, line).unwrap_or_default();
    let bypass = " Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass sanity checks";
    let checker = |m: &str| format!("org.apache.hadoop.hbase.DoNotRetryIOException: {m}{bypass}");
    assert_eq!(
        error(&mut sh, "create 'a', {NAME => 'f', TTL => 0}"),
        checker("TTL for column family f must be positive.")
    );
    assert_eq!(
        error(&mut sh, "create 'a', {NAME => 'f', MIN_VERSIONS => 3}"),
        checker("Min versions for column family f must be less than the Max versions.")
    );
    assert_eq!(
        error(&mut sh, "create 'a', {NAME => 'f', VERSIONS => 0}"),
        "Maximum versions must be positive"
    );
    assert!(sh.engine.tables().next().is_none());
    run(
        &mut sh,
        "create 'a', {NAME => 'f', VERSIONS => 3, MIN_VERSIONS => 2}",
    );
    assert_eq!(
        error(&mut sh, "alter 'a', {NAME => 'f', TTL => 0}"),
        checker("TTL for column family f must be positive.")
    );
    assert!(run(&mut sh, "describe 'a'").contains("TTL => 'FOREVER'"));
}

/// `alter`'s deletes go through the descriptor admin.rb sends (`removeColumnFamily`, then
/// `modifyTableAsync`): a family the table lacks is nothing to remove and the alter succeeds;
/// removing the last family leaves a descriptor the master's sanity check refuses
/// (`TableDescriptorChecker`: "Table should have at least one column family."), before any
/// region reopens; removing one while adding another leaves one.
#[test]
fn deleting_a_missing_family_succeeds_and_the_last_one_is_refused_by_the_sanity_check() {
    let (mut sh, _) = shell_at(1_000);
    run(&mut sh, "create 't', 'f'\nput 't', 'r', 'f:a', '1'");
    let refused = error_of(&mut sh, "alter 't', 'delete' => 'f'");
    assert_eq!(
        refused.as_deref(),
        Some("org.apache.hadoop.hbase.DoNotRetryIOException: Table should have at least one column family. Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass sanity checks")
    );
    // Nothing changed: the memstore was not flushed by a reopen.
    assert_eq!(sh.engine.counters().flushes, 0);
    assert_eq!(
        run(&mut sh, "alter 't', NAME => 'nope', METHOD => 'delete'"),
        "Updating all regions with the new schema...\n1/1 regions updated.\nDone.\n"
    );
    run(&mut sh, "alter 't', 'g', {NAME => 'f', METHOD => 'delete'}");
    let families: Vec<String> = sh
        .engine
        .table("t")
        .map(|t| {
            t.descriptor
                .families
                .iter()
                .map(|f| f.name.clone())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(families, ["g"]);
}
