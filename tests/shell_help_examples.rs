//! Every example in the help text of HBase's commands that Rowkey runs (hbase-shell's
//! `commands/*.rb`), run as written, with `ts1`/`ts2` given values (the help uses them as
//! placeholders). Each runs without error, or fails as HBase would fail on a fresh
//! single-machine install: a namespace or catalog table that does not exist, a region or
//! table named by a placeholder that is not there, a local file that is not there, a counter
//! cell holding a string. The data commands (get, put, scan, count, incr, get_counter, append,
//! delete, deleteall, flush, compact, alter, create) are in [`EXAMPLES`]; the table and region
//! administration commands (describe, alter_async, alter_status, exists, is_enabled,
//! is_disabled, get_splits, list, locate_region, show_filters, get_table, list_regions, split,
//! major_compact, disable, enable, drop, help) in [`ADMIN_EXAMPLES`].
mod common;
use common::*;

/// How an example ends.
enum Ends {
    /// No error.
    Runs,
    /// An error whose message starts with this.
    Fails(&'static str),
}
use Ends::*;

/// (help file, example) pairs, in the order of each file's help text.
const EXAMPLES: &[(&str, &str, Ends)] = &[
    ("put.rb", "put 'ns1:t1', 'r1', 'c1', 'value'", Fails("Unknown table ns1:t1!")),
    ("put.rb", "put 't1', 'r1', 'c1', 'value'", Runs),
    ("put.rb", "put 't1', 'r1', 'c1', 'value', 1000", Runs),
    ("put.rb", "put 't1', 'r1', 'c1', 'value', {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("put.rb", "put 't1', 'r1', 'c1', 'value', 1000, {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("put.rb", "put 't1', 'r1', 'c1', 'value', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("put.rb", "t.put 'r1', 'c1', 'value', 1000, {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("get.rb", "get 'ns1:t1', 'r1'", Fails("Unknown table ns1:t1!")),
    ("get.rb", "get 't1', 'r1'", Runs),
    ("get.rb", "get 't1', 'r1', {TIMERANGE => [1000, 2000]}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1'}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => ['c1', 'c2', 'c3']}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1', TIMESTAMP => 1000}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1', TIMERANGE => [1000, 2000], VERSIONS => 4}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1', TIMESTAMP => 1000, VERSIONS => 4}", Runs),
    ("get.rb", "get 't1', 'r1', {FILTER => \"ValueFilter(=, 'binary:abc')\"}", Runs),
    ("get.rb", "get 't1', 'r1', 'c1'", Runs),
    ("get.rb", "get 't1', 'r1', 'c1', 'c2'", Runs),
    ("get.rb", "get 't1', 'r1', ['c1', 'c2']", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1', ATTRIBUTES => {'mykey'=>'myvalue'}}", Runs),
    ("get.rb", "get 't1', 'r1', {COLUMN => 'c1', AUTHORIZATIONS => ['PRIVATE','SECRET']}", Runs),
    ("get.rb", "get 't1', 'r1', {CONSISTENCY => 'TIMELINE'}", Runs),
    ("get.rb", "get 't1', 'r1', {CONSISTENCY => 'TIMELINE', REGION_REPLICA_ID => 1}", Runs),
    // The help writes `get 't1', 'r1' {COLUMN => ...}` without the comma, which Ruby refuses;
    // with it:
    ("get.rb", "get 't1', 'r1', {COLUMN => ['cf:qualifier1:toInt',\n    'cf:qualifier2:c(org.apache.hadoop.hbase.util.Bytes).toInt'] }", Runs),
    ("get.rb", "t.get 'r1'", Runs),
    ("get.rb", "t.get 'r1', {TIMERANGE => [1000, 2000]}", Runs),
    ("get.rb", "t.get 'r1', {COLUMN => 'c1'}", Runs),
    ("get.rb", "t.get 'r1', {COLUMN => ['c1', 'c2', 'c3']}", Runs),
    ("get.rb", "t.get 'r1', {COLUMN => 'c1', TIMESTAMP => 1000}", Runs),
    ("get.rb", "t.get 'r1', {COLUMN => 'c1', TIMERANGE => [1000, 2000], VERSIONS => 4}", Runs),
    ("get.rb", "t.get 'r1', {COLUMN => 'c1', TIMESTAMP => 1000, VERSIONS => 4}", Runs),
    ("get.rb", "t.get 'r1', {FILTER => \"ValueFilter(=, 'binary:abc')\"}", Runs),
    ("get.rb", "t.get 'r1', 'c1'", Runs),
    ("get.rb", "t.get 'r1', 'c1', 'c2'", Runs),
    ("get.rb", "t.get 'r1', ['c1', 'c2']", Runs),
    ("get.rb", "t.get 'r1', {CONSISTENCY => 'TIMELINE'}", Runs),
    ("get.rb", "t.get 'r1', {CONSISTENCY => 'TIMELINE', REGION_REPLICA_ID => 1}", Runs),
    ("scan.rb", "scan 'hbase:meta'", Fails("Unknown table hbase:meta!")),
    ("scan.rb", "scan 'hbase:meta', {COLUMNS => 'info:regioninfo'}", Fails("Unknown table hbase:meta!")),
    ("scan.rb", "scan 'ns1:t1', {COLUMNS => ['c1', 'c2'], LIMIT => 10, STARTROW => 'xyz'}", Fails("Unknown table ns1:t1!")),
    ("scan.rb", "scan 't1', {COLUMNS => ['c1', 'c2'], LIMIT => 10, STARTROW => 'xyz'}", Runs),
    ("scan.rb", "scan 't1', {COLUMNS => 'c1', TIMERANGE => [1303668804000, 1303668904000]}", Runs),
    ("scan.rb", "scan 't1', {REVERSED => true}", Runs),
    ("scan.rb", "scan 't1', {ALL_METRICS => true}", Runs),
    ("scan.rb", "scan 't1', {METRICS => ['RPC_RETRIES', 'ROWS_FILTERED']}", Runs),
    // The help's filter string starts with a newline, which `ParseFilter.parseFilterString`
    // does not pass over (only spaces and tabs): `getFilterName` reads "\n" as the name.
    ("scan.rb", "scan 't1', {ROWPREFIXFILTER => 'row2', FILTER => \"\n    (QualifierFilter (>=, 'binary:xyz')) AND (TimestampsFilter ( 123, 456))\"}", Fails("Filter Name \n not supported")),
    ("scan.rb", "scan 't1', {FILTER =>\n    org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)}", Runs),
    ("scan.rb", "scan 't1', {CONSISTENCY => 'TIMELINE'}", Runs),
    ("scan.rb", "scan 't1', {ISOLATION_LEVEL => 'READ_UNCOMMITTED'}", Runs),
    ("scan.rb", "scan 't1', {MAX_RESULT_SIZE => 123456}", Runs),
    ("scan.rb", "scan 't1', { COLUMNS => ['c1', 'c2'], ATTRIBUTES => {'mykey' => 'myvalue'}}", Runs),
    ("scan.rb", "scan 't1', { COLUMNS => ['c1', 'c2'], AUTHORIZATIONS => ['PRIVATE','SECRET']}", Runs),
    ("scan.rb", "scan 't1', {COLUMNS => ['c1', 'c2'], CACHE_BLOCKS => false}", Runs),
    ("scan.rb", "scan 't1', {RAW => true, VERSIONS => 10}", Runs),
    ("scan.rb", "scan 't1', {READ_TYPE => 'PREAD'}", Runs),
    ("scan.rb", "scan 't1', {COLUMNS => ['cf:qualifier1:toInt',\n    'cf:qualifier2:c(org.apache.hadoop.hbase.util.Bytes).toInt'] }", Runs),
    ("scan.rb", "scan 't1', {FORMATTER => 'toString'}", Runs),
    ("scan.rb", "scan 't1', {FORMATTER_CLASS => 'org.apache.hadoop.hbase.util.Bytes', FORMATTER => 'toString'}", Runs),
    ("scan.rb", "t.scan", Runs),
    ("count.rb", "count 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("count.rb", "count 't1'", Runs),
    ("count.rb", "count 't1', INTERVAL => 100000", Runs),
    ("count.rb", "count 't1', CACHE => 1000", Runs),
    ("count.rb", "count 't1', INTERVAL => 10, CACHE => 1000", Runs),
    ("count.rb", "t.count", Runs),
    ("count.rb", "t.count INTERVAL => 100000", Runs),
    ("count.rb", "t.count CACHE => 1000", Runs),
    ("count.rb", "t.count INTERVAL => 10, CACHE => 1000", Runs),
    // The put examples left the string 'value' in c1: an increment of it fails as in HBase.
    ("incr.rb", "incr 't1', 'r1', 'c1'", Fails("org.apache.hadoop.hbase.DoNotRetryIOException: Field is not a long, it's 5 bytes wide")),
    ("incr.rb", "incr 'ns1:t1', 'r2', 'c1'", Fails("Unknown table ns1:t1!")),
    ("incr.rb", "incr 't1', 'r2', 'c1'", Runs),
    ("incr.rb", "incr 't1', 'r2', 'c1', 1", Runs),
    ("incr.rb", "incr 't1', 'r2', 'c1', 10", Runs),
    ("incr.rb", "incr 't1', 'r2', 'c1', 10, {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("incr.rb", "incr 't1', 'r2', 'c1', {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("incr.rb", "incr 't1', 'r2', 'c1', 10, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("incr.rb", "t.incr 'r2', 'c1'", Runs),
    ("incr.rb", "t.incr 'r2', 'c1', 1", Runs),
    ("incr.rb", "t.incr 'r2', 'c1', 10, {ATTRIBUTES=>{'mykey'=>'myvalue'}}", Runs),
    ("incr.rb", "t.incr 'r2', 'c1', 10, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("get_counter.rb", "get_counter 'ns1:t1', 'r2', 'c1'", Fails("Unknown table ns1:t1!")),
    ("get_counter.rb", "get_counter 't1', 'r2', 'c1'", Runs),
    ("get_counter.rb", "t.get_counter 'r2', 'c1'", Runs),
    ("append.rb", "append 't1', 'r1', 'c1', 'value', ATTRIBUTES=>{'mykey'=>'myvalue'}", Runs),
    ("append.rb", "append 't1', 'r1', 'c1', 'value', {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("append.rb", "t.append 'r1', 'c1', 'value', ATTRIBUTES=>{'mykey'=>'myvalue'}", Runs),
    ("append.rb", "t.append 'r1', 'c1', 'value', {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("delete.rb", "delete 'ns1:t1', 'r1', 'c1', 1000", Fails("Unknown table ns1:t1!")),
    ("delete.rb", "delete 't1', 'r1', 'c1', 1000", Runs),
    ("delete.rb", "delete 't1', 'r1', 'c1', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("delete.rb", "t.delete 'r1', 'c1',  1000", Runs),
    ("delete.rb", "t.delete 'r1', 'c1',  1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("deleteall.rb", "deleteall 'ns1:t1', 'r1'", Fails("Unknown table ns1:t1!")),
    ("deleteall.rb", "deleteall 't1', 'r1'", Runs),
    ("deleteall.rb", "deleteall 't1', 'r1', 'c1'", Runs),
    ("deleteall.rb", "deleteall 't1', 'r1', 'c1', 1000", Runs),
    ("deleteall.rb", "deleteall 't1', 'r1', 'c1', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("deleteall.rb", "deleteall 't1', {ROWPREFIXFILTER => 'prefix'}", Runs),
    ("deleteall.rb", "deleteall 't1', {ROWPREFIXFILTER => 'prefix'}, 'c1'", Runs),
    ("deleteall.rb", "deleteall 't1', {ROWPREFIXFILTER => 'prefix'}, 'c1', 1000", Runs),
    ("deleteall.rb", "deleteall 't1', {ROWPREFIXFILTER => 'prefix'}, 'c1', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("deleteall.rb", "deleteall 't1', {ROWPREFIXFILTER => 'prefix', CACHE => 100}", Runs),
    ("deleteall.rb", "t.deleteall 'r1', 'c1', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("deleteall.rb", "t.deleteall {ROWPREFIXFILTER => 'prefix', CACHE => 100}, 'c1', 1000, {VISIBILITY=>'PRIVATE|SECRET'}", Runs),
    ("flush.rb", "flush 't1'", Runs),
    ("flush.rb", "flush 't1','c1'", Runs),
    ("compact.rb", "compact 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("compact.rb", "compact 't1'", Runs),
    ("compact.rb", "compact 't1', 'c1'", Runs),
    ("compact.rb", "compact 't1', nil, 'MOB'", Runs),
    ("compact.rb", "compact 't1', 'c1', 'MOB'", Runs),
    ("alter.rb", "alter 't1', NAME => 'f1', VERSIONS => 5", Runs),
    ("alter.rb", "alter 't1', 'f1', {NAME => 'f2', IN_MEMORY => true}, {NAME => 'f3', VERSIONS => 5}", Runs),
    ("alter.rb", "alter 't1', MAX_FILESIZE => '134217728'", Runs),
    ("alter.rb", "alter 't1', CONFIGURATION => {'hbase.hregion.scan.loadColumnFamiliesOnDemand' => 'true'}", Runs),
    ("alter.rb", "alter 't1', {NAME => 'f2', CONFIGURATION => {'hbase.hstore.blockingStoreFiles' => '10'}}", Runs),
    ("alter.rb", "alter 't1', REOPEN_REGIONS => 'false', MAX_FILESIZE => '134217728'", Runs),
    ("alter.rb", "alter 't1', METHOD => 'table_conf_unset', NAME => 'hbase.hregion.scan.loadColumnFamiliesOnDemand'", Runs),
    ("alter.rb", "alter 't1', METHOD => 'table_conf_unset', NAME => 'hbase.hregion.majorcompaction'", Fails("Could not find configuration: hbase.hregion.majorcompaction")),
    ("alter.rb", "alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'", Runs),
    ("alter.rb", "alter 't1', {REGION_REPLICATION => 2}", Runs),
    ("alter.rb", "alter 't1', {SPLIT_ENABLED => false}", Runs),
    ("alter.rb", "alter 't1', {MERGE_ENABLED => false}", Runs),
    ("alter.rb", "alter 't1', { NAME => 'f1', VERSIONS => 3 },\n   { MAX_FILESIZE => '134217728' }, { METHOD => 'delete', NAME => 'f2' },\n   METADATA => { 'mykey' => 'myvalue' }", Runs),
    ("alter.rb", "alter 'ns1:t1', NAME => 'f1', METHOD => 'delete'", Fails("Can't find a table: ns1:t1")),
    ("alter.rb", "alter 'ns1:t1', 'delete' => 'f1'", Fails("Can't find a table: ns1:t1")),
    ("create.rb", "create 'ns1:t1', {NAME => 'f1', VERSIONS => 5}", Fails("Unknown namespace ns1!")),
    ("create.rb", "create 't2', {NAME => 'f1'}, {NAME => 'f2'}, {NAME => 'f3'}", Runs),
    ("create.rb", "create 't3', 'f1', 'f2', 'f3'", Runs),
    ("create.rb", "create 't4', {NAME => 'f1', VERSIONS => 1, TTL => 2592000, BLOCKCACHE => true}", Runs),
    ("create.rb", "create 't5', {NAME => 'f1', CONFIGURATION => {'hbase.hstore.blockingStoreFiles' => '10'}}", Runs),
    ("create.rb", "create 'ns1:t1', 'f1', SPLITS => ['10', '20', '30', '40']", Fails("Unknown namespace ns1!")),
    ("create.rb", "create 't6', 'f1', SPLITS => ['10', '20', '30', '40']", Runs),
    ("create.rb", "create 't7', 'f1', SPLITS_FILE => 'splits.txt', OWNER => 'johndoe'", Fails("Splits file splits.txt doesn't exist")),
    ("create.rb", "create 't8', {NAME => 'f1', VERSIONS => 5}, METADATA => { 'mykey' => 'myvalue' }", Runs),
    ("create.rb", "create 't9', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit'}", Runs),
    ("create.rb", "create 't10', 'f1', {NUMREGIONS => 15, SPLITALGO => 'HexStringSplit', REGION_REPLICATION => 2, CONFIGURATION => {'hbase.hregion.scan.loadColumnFamiliesOnDemand' => 'true'}}", Runs),
    ("create.rb", "create 't11', {NAME => 'f1', DFS_REPLICATION => 1}", Runs),
    ("create.rb", "t12 = create 't12', 'f1'", Runs),
];

/// The administration commands' examples, in the order of each file's help text, after a
/// setup that creates the tables they name (`t1`, and `table_name` and `tableName`, which
/// list_regions.rb, locate_region.rb and split.rb use). Placeholders that name a region
/// (`'r1'`, `'regionName'`) name none here: HBase tries the name as a region, then as a table,
/// and reports the table unknown.
const ADMIN_EXAMPLES: &[(&str, &str, Ends)] = &[
    ("describe.rb", "describe 't1'", Runs),
    // admin.rb's `tableExists` (describe, enable, disable, drop) and `alter`'s own check raise
    // ArgumentErrors before the master is asked: not the "Unknown table" the shell words a
    // TableNotFoundException with.
    ("describe.rb", "describe 'ns1:t1'", Fails("Table ns1:t1 does not exist.")),
    ("describe.rb", "desc 't1'", Runs),
    ("describe.rb", "desc 'ns1:t1'", Fails("Table ns1:t1 does not exist.")),
    ("alter_async.rb", "alter_async 't1', NAME => 'f1', VERSIONS => 5", Runs),
    ("alter_async.rb", "alter_async 'ns1:t1', NAME => 'f1', METHOD => 'delete'", Fails("Can't find a table: ns1:t1")),
    ("alter_async.rb", "alter_async 'ns1:t1', 'delete' => 'f1'", Fails("Can't find a table: ns1:t1")),
    ("alter_async.rb", "alter 't1', METHOD => 'table_att', MAX_FILESIZE => '134217728'", Runs),
    ("alter_async.rb", "alter 't1', {NAME => 'f1'}, {NAME => 'f2', METHOD => 'delete'}", Runs),
    ("alter_status.rb", "alter_status 't1'", Runs),
    // admin.rb `alter_status` asks `exists?` first and raises its own ArgumentError.
    ("alter_status.rb", "alter_status 'ns1:t1'", Fails("Can't find a table: ns1:t1")),
    ("exists.rb", "exists 't1'", Runs),
    ("exists.rb", "exists 'ns1:t1'", Runs),
    ("is_enabled.rb", "is_enabled 't1'", Runs),
    ("is_enabled.rb", "is_enabled 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("is_disabled.rb", "is_disabled 't1'", Runs),
    ("is_disabled.rb", "is_disabled 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("get_splits.rb", "get_splits 't1'", Runs),
    ("get_splits.rb", "get_splits 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("get_splits.rb", "t.get_splits", Runs),
    ("list.rb", "list", Runs),
    ("list.rb", "list 'abc.*'", Runs),
    ("list.rb", "list 'ns:abc.*'", Runs),
    ("list.rb", "list 'ns:.*'", Runs),
    ("locate_region.rb", "locate_region 'tableName', 'key0'", Runs),
    ("show_filters.rb", "show_filters", Runs),
    ("get_table.rb", "t1 = get_table 't1'", Runs),
    // get_table.rb builds the reference without asking whether the table exists.
    ("get_table.rb", "t1 = get_table 'ns1:t1'", Runs),
    ("get_table.rb", "t1.help", Runs),
    ("list_regions.rb", "list_regions 'table_name'", Runs),
    ("list_regions.rb", "list_regions 'table_name', 'server_name'", Runs),
    ("list_regions.rb", "list_regions 'table_name', {SERVER_NAME => 'server_name', LOCALITY_THRESHOLD => 0.8}", Runs),
    ("list_regions.rb", "list_regions 'table_name', {SERVER_NAME => 'server_name', LOCALITY_THRESHOLD => 0.8}, ['SERVER_NAME']", Runs),
    ("list_regions.rb", "list_regions 'table_name', {}, ['SERVER_NAME', 'start_key']", Runs),
    ("list_regions.rb", "list_regions 'table_name', '', ['SERVER_NAME', 'start_key']", Runs),
    ("split.rb", "split 'tableName'", Runs),
    ("split.rb", "split 'namespace:tableName'", Fails("Unknown table namespace:tableName!")),
    ("split.rb", "split 'regionName'", Fails("Unknown table regionName!")),
    ("split.rb", "split 'tableName', 'splitKey'", Runs),
    ("split.rb", "split 'regionName', 'splitKey'", Fails("Unknown table regionName!")),
    ("major_compact.rb", "major_compact 't1'", Runs),
    ("major_compact.rb", "major_compact 'ns1:t1'", Fails("Unknown table ns1:t1!")),
    ("major_compact.rb", "major_compact 'r1'", Fails("Unknown table r1!")),
    ("major_compact.rb", "major_compact 'r1', 'c1'", Fails("Unknown table r1!")),
    ("major_compact.rb", "major_compact 't1', 'c1'", Runs),
    ("major_compact.rb", "major_compact 't1', nil, 'MOB'", Runs),
    ("major_compact.rb", "major_compact 't1', 'c1', 'MOB'", Runs),
    ("compact.rb", "compact 'r1'", Fails("Unknown table r1!")),
    ("compact.rb", "compact 'r1', 'c1'", Fails("Unknown table r1!")),
    ("disable.rb", "disable 't1'", Runs),
    ("disable.rb", "disable 'ns1:t1'", Fails("Table ns1:t1 does not exist.")),
    ("enable.rb", "enable 't1'", Runs),
    ("enable.rb", "enable 'ns1:t1'", Fails("Table ns1:t1 does not exist.")),
    // drop.rb: "Table must first be disabled".
    ("drop.rb", "drop 't1'", Fails("Table t1 is enabled. Disable it first.")),
    ("disable.rb", "disable 't1'", Runs),
    ("drop.rb", "drop 't1'", Runs),
    ("drop.rb", "drop 'ns1:t1'", Fails("Table ns1:t1 does not exist.")),
    // shell.rb's help header: a command's help and a group's.
    ("shell.rb", "help \"get\"", Runs),
    ("shell.rb", "help \"general\"", Runs),
];

/// Runs each example in order and lists those that did not end as expected.
fn misfits(
    sh: &mut rowkey::shell::Shell,
    clock: &Clock,
    examples: &[(&str, &str, Ends)],
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, example, ends) in examples {
        clock.advance(1);
        let outs = sh.run(example);
        let error = outs
            .iter()
            .find_map(|o| o.error.as_ref().map(|e| e.message.clone()));
        let ok = match (ends, &error) {
            (Runs, None) => true,
            (Fails(start), Some(msg)) => msg.starts_with(start),
            _ => false,
        };
        if !ok {
            wrong.push(format!("{file}: {example}\n  -> {error:?}"));
        }
    }
    wrong
}

#[test]
fn every_help_example_runs_as_hbase_runs_it() -> TestResult {
    let (mut sh, clock) = shell_at(1_500);
    run(
        &mut sh,
        "create 't1', 'c1', 'c2', 'c3', 'f1', 'f2', 'f3', 'cf'\nt = get_table 't1'",
    );
    let wrong = misfits(&mut sh, &clock, EXAMPLES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    Ok(())
}

#[test]
fn every_admin_help_example_runs_as_hbase_runs_it() -> TestResult {
    let (mut sh, clock) = shell_at(1_500);
    run(
        &mut sh,
        "create 't1', 'c1', 'f1', 'f2'\n\
         t = get_table 't1'\n\
         put 't1', 'r1', 'c1:a', 'v'\n\
         flush 't1'\n\
         create 'table_name', 'f', SPLITS => ['g', 'p']\n\
         create 'tableName', 'f'\n\
         put 'tableName', 'key0', 'f:q', 'v'\n\
         put 'tableName', 'key5', 'f:q', 'v'\n\
         put 'tableName', 'splitKey0', 'f:q', 'v'\n\
         put 'tableName', 'zz', 'f:q', 'v'\n\
         flush 'tableName'",
    );
    let wrong = misfits(&mut sh, &clock, ADMIN_EXAMPLES);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    Ok(())
}

/// What the examples did, checked at the end: the increments counted, the alterations stuck.
#[test]
fn the_examples_leave_what_hbase_would() -> TestResult {
    let (mut sh, _) = shell_at(1_500);
    run(&mut sh, "create 't1', 'c1', 'f1', 'f2'");
    // incr.rb with a family-only column: the family's empty qualifier.
    assert_eq!(
        run(&mut sh, "incr 't1', 'r2', 'c1', 10"),
        "COUNTER VALUE = 10\n"
    );
    assert_eq!(
        run(
            &mut sh,
            "incr 't1', 'r2', 'c1', {ATTRIBUTES=>{'mykey'=>'myvalue'}}"
        ),
        "COUNTER VALUE = 11\n"
    );
    assert_eq!(
        run(&mut sh, "get_counter 't1', 'r2', 'c1'"),
        "COUNTER VALUE = 11\n"
    );
    // Each command has a millisecond of its own: `create` 1500, the increments 1501 and 1502.
    assert!(run(&mut sh, "get 't1', 'r2'").starts_with("COLUMN  CELL\n c1: timestamp=1502"));
    assert_eq!(
        run(
            &mut sh,
            "append 't1', 'r3', 'c1', 'value', ATTRIBUTES=>{'mykey'=>'myvalue'}"
        ),
        "CURRENT VALUE = value\n"
    );
    // alter.rb's last example: one command, three alterations.
    run(
        &mut sh,
        "alter 't1', { NAME => 'f1', VERSIONS => 3 },\n   { MAX_FILESIZE => '134217728' }, { METHOD => 'delete', NAME => 'f2' },\n   METADATA => { 'mykey' => 'myvalue' }",
    );
    let d = run(&mut sh, "describe 't1'");
    assert!(d.contains("t1, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '134217728 B (128MB)', METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT', 'mykey' => 'myvalue'}}}"), "{d}");
    assert!(
        d.contains("{NAME => 'f1', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '3'"),
        "{d}"
    );
    assert!(!d.contains("NAME => 'f2'"), "{d}");
    Ok(())
}
