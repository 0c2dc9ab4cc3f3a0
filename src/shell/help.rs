//! Help texts, written for Rowkey's users: what each command does and how to call it.

use crate::commands::{self, Dialect, Group};
use crate::kit::order;
use std::fmt::Write as _;

/// The general help: how to type commands, then every group of the command table and its
/// commands.
pub fn general() -> String {
    let mut out = String::from(
        "Rowkey runs an HBase 2.x engine in your browser. Type a command and press Enter;\n\
         'help \"COMMAND\"' explains one command. Commands accept the HBase shell's syntax:\n\
         quoted strings, numbers, [arrays] and {KEY => value} hashes.\n\n",
    );
    for group in Group::ALL {
        let names = names_of(group);
        if names.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "  Group name: {}\n  Commands: {}\n\n",
            group.name(),
            names.join(", ")
        );
    }
    out.push_str(
        "Bytes print as HBase prints them: printable ASCII as is, anything else as \\xHH.\n\
         In double quotes \"\\x00\" writes any byte; single quotes take text literally.\n",
    );
    out
}

/// The help of one command as `help 'name'` prints it: its text, and for the commands that
/// set or show sizes, the playground scale.
pub fn full(name: &str) -> Option<String> {
    let mut out = text(name)?.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    if matches!(name, "create" | "alter" | "describe" | "desc") {
        out.push_str(&scale());
    }
    Some(out)
}

/// Names that are another command's alias (hbase-shell's `aliases`, as `desc` is
/// `describe`'s): `help` lists only the command.
const ALIASES: &[&str] = &["desc"];

/// A group's commands as `help` lists them: sorted, without aliases.
fn names_of(group: Group) -> Vec<&'static str> {
    let mut names: Vec<&str> = commands::of(Dialect::HBase)
        .filter(|c| c.group == group && !ALIASES.contains(&c.name))
        .map(|c| c.name)
        .collect();
    order::sort(&mut names);
    names
}

/// HBase's defaults for a memstore's flush size (`hbase.hregion.memstore.flush.size`) and a
/// region's split size (`hbase.hregion.max.filesize`).
const HBASE_FLUSH_BYTES: u64 = 128 * 1024 * 1024;
const HBASE_SPLIT_BYTES: u64 = 10 * 1024 * 1024 * 1024;

/// Where the playground runs smaller than HBase, with the engine's own figures: the one place
/// that says so.
pub fn scale() -> String {
    let t = crate::engine::TableSettings::default();
    format!(
        "Playground scale: describe shows HBase's defaults, and Rowkey runs them smaller so that\n\
         blocks, flushes and splits appear with a few thousand rows. A family with HBase's default\n\
         BLOCKSIZE ({hbase_block}) is written in blocks of {block} bytes; a table without\n\
         MEMSTORE_FLUSHSIZE flushes a region's memstores at {flush} bytes (HBase: {hbase_flush}); one\n\
         without MAX_FILESIZE splits a region past {split} bytes (HBase: {hbase_split}). A BLOCKSIZE,\n\
         MEMSTORE_FLUSHSIZE or MAX_FILESIZE you set is used as given.\n",
        hbase_block = crate::engine::HBASE_BLOCKSIZE,
        block = crate::engine::DEFAULT_BLOCKSIZE,
        flush = t.flush_bytes,
        hbase_flush = HBASE_FLUSH_BYTES,
        split = t.split_bytes,
        hbase_split = HBASE_SPLIT_BYTES,
    )
}

/// The help of one command: its entry's text, or for a cluster command why Rowkey does not
/// run it.
pub fn text(name: &str) -> Option<&'static str> {
    let c = commands::find(Dialect::HBase, name)?;
    Some(if c.group == Group::Cluster {
        c.note
    } else {
        c.help
    })
}

/// The help of every command of a group (`help 'ddl'`), sorted by name, each under
/// `Command: NAME` as hbase-shell's `help_group` prints them.
pub fn group(key: &str) -> Option<String> {
    let group = Group::ALL.into_iter().find(|g| g.key() == key)?;
    let mut out = String::new();
    for name in names_of(group) {
        let _ = writeln!(out, "Command: {name}\n{}", full(name).unwrap_or_default());
    }
    Some(out)
}

// Every command's help, as its entry in the command table carries it.
pub(super) const HELP: &str = "Lists the commands, or with a name explains one command or every command of a group:\n  help\n  help 'scan'\n  help 'ddl'\nGroups: general, ddl, dml, tools, rowkey, cluster.\n";
pub(super) const TABLE_HELP: &str = "Table references: get_table (or create) gives a reference to a table, kept in a variable,\nand its commands then take the table from it:\n  t = get_table 't1'\n  t.put 'r1', 'f1:q', 'v'\n  t.get 'r1'\n  t.scan\n  t.count\n  t.help        (this text)\nReferences run put, get, scan, count, delete, deleteall, incr, get_counter, append,\nget_splits, describe, enable, disable, drop and flush.\n";
pub(super) const CLEAR: &str = "Clears the console (Ctrl+L does the same). Tables are kept.\n";
pub(super) const CREATE: &str = "Creates a table with one or more column families, optionally pre-split.\n  create 't1', 'f1', 'f2'\n  create 't1', {NAME => 'f1', VERSIONS => 5, TTL => 86400}\n  create 't1', 'f1', SPLITS => ['g', 'n', 't']\n  create 't1', 'f1', {NUMREGIONS => 8, SPLITALGO => 'HexStringSplit'}\nFamily options: VERSIONS, MIN_VERSIONS, TTL (seconds or 'FOREVER'), KEEP_DELETED_CELLS,\nBLOOMFILTER, COMPRESSION, BLOCKSIZE, IN_MEMORY, BLOCKCACHE, DATA_BLOCK_ENCODING.\nHow runs are written: BLOCKSIZE is the size of a run's data blocks (see the playground scale below);\nDATA_BLOCK_ENCODING => 'NONE' (default), 'PREFIX' or 'FAST_DIFF' encodes the keys in a block;\nBLOOMFILTER => 'ROW' (default), 'ROWCOL' or 'NONE' lets a get skip runs without the row.\nTable options: MAX_FILESIZE (split threshold in bytes), MEMSTORE_FLUSHSIZE, COMPACTION_THRESHOLD.\n";
pub(super) const ALTER: &str = "Changes families or table options.\n  alter 't1', NAME => 'f1', VERSIONS => 3\n  alter 't1', 'f2'                       (adds a family)\n  alter 't1', NAME => 'f2', METHOD => 'delete'\n  alter 't1', 'delete' => 'f2'\n  alter 't1', MAX_FILESIZE => 131072\n  alter 't1', METHOD => 'table_att', READONLY => true, DURABILITY => 'ASYNC_WAL'\n  alter 't1', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'\n  alter 't1', {SPLIT_ENABLED => false}, METADATA => {'owner' => 'ops'}\n  alter 't1', REOPEN_REGIONS => 'false', MAX_FILESIZE => 131072  (no flush now, a warning)\nTable attributes show in describe. Rowkey acts on MAX_FILESIZE (split size), MEMSTORE_FLUSHSIZE,\nREADONLY (writes fail) and SPLIT_ENABLED (no automatic splits); the others are kept and shown.\nUnknown keys are ignored with a warning, as HBase's admin.rb does.\n  alter 't1', NAME => 'f1', DATA_BLOCK_ENCODING => 'FAST_DIFF', BLOOMFILTER => 'ROWCOL'\nBLOCKSIZE, DATA_BLOCK_ENCODING and BLOOMFILTER apply to the runs the next flush or compaction writes.\nLowering VERSIONS caps reads at once; a RAW scan still shows the older cells until a major compaction.\n";
pub(super) const DESCRIBE: &str =
    "Shows a table's state and its families with all their settings.\n  describe 't1'\n";
pub(super) const DISABLE: &str =
    "Takes a table offline; reads and writes fail until it is enabled.\n  disable 't1'\n";
pub(super) const ENABLE: &str =
    "Brings a disabled table back online.\n  disable 't1'\n  enable 't1'\n";
pub(super) const DROP: &str =
    "Deletes a disabled table and its data.\n  disable 't1'\n  drop 't1'\n";
pub(super) const DISABLE_ALL: &str = "Lists the tables whose whole name matches a regular expression and asks; a next line with a y\nin it disables them.\n  disable_all 'tmp_.*'\n  y\n";
pub(super) const ENABLE_ALL: &str = "Lists the tables whose whole name matches a regular expression and asks; a next line with a y\nin it enables them.\n  enable_all 'tmp_.*'\n  y\n";
pub(super) const DROP_ALL: &str = "Lists the tables whose whole name matches a regular expression and asks; a next line with a y\nin it drops them. Each must be disabled first (disable_all), or it is named as not dropped.\n  disable_all 'tmp_.*'\n  y\n  drop_all 'tmp_.*'\n  y\n";
pub(super) const CLONE_TABLE_SCHEMA: &str = "Makes a new, empty table with another table's families, settings and (unless false is\ngiven) region boundaries. No cells are copied.\n  clone_table_schema 't1', 't1_copy'\n  clone_table_schema 't1', 't1_one_region', false\n";
pub(super) const EXISTS: &str = "Says whether a table exists.\n  exists 't1'\n";
pub(super) const IS_ENABLED: &str = "Says whether a table is enabled.\n  is_enabled 't1'\n";
pub(super) const IS_DISABLED: &str = "Says whether a table is disabled.\n  is_disabled 't1'\n";
pub(super) const LIST: &str = "Lists tables, optionally those whose name matches a regular expression.\n  list\n  list 'user.*'\n";
pub(super) const PUT: &str = "Writes one cell. Without a timestamp the server's time (epoch milliseconds) is used:\ntwo writes in the same millisecond share it, the later one replaces the earlier, and a delete\nhides a put made in its millisecond (HBase 2.x; Rowkey once moved such writes 1 ms apart).\n  put 't1', 'r1', 'f1:q', 'value'\n  put 't1', 'r1', 'f1:q', 'value', 1700000000000\n  put 't1', 'r1', 'f1:q', 'value', {TTL => 60000}     (cell TTL in milliseconds)\n";
pub(super) const GET: &str = "Reads one row.\n  get 't1', 'r1'\n  get 't1', 'r1', 'f1:q'\n  get 't1', 'r1', {COLUMN => ['f1:a', 'f2'], VERSIONS => 3}\n  get 't1', 'r1', {TIMERANGE => [1000, 2000]}       (min inclusive, max exclusive)\n  get 't1', 'r1', {TIMESTAMP => 1000, FILTER => \"ValueFilter(=, 'binary:v')\", MAXLENGTH => 40}\n  get 't1', 'r1', {FORMATTER => 'toString'}     (keys, columns and values as UTF-8 text)\n  get 't1', 'r1', {COLUMN => ['f1:n:toLong', 'f1:s:toString']}   (converters: toLong, toInt, toShort,\n    toFloat, toDouble, toBoolean, toHex, toString, toStringBinary)\nOptions other than MAXLENGTH and FILTER need a COLUMN, TIMESTAMP or TIMERANGE, as in HBase.\n";
pub(super) const SCAN: &str = "Reads rows in key order.\n  scan 't1'\n  scan 't1', {STARTROW => 'a', STOPROW => 'm'}     (start inclusive, stop exclusive)\n  scan 't1', {ROWPREFIXFILTER => 'user1_', LIMIT => 10}\n  scan 't1', {REVERSED => true, STARTROW => 'm'}   (rows descending from 'm')\n  scan 't1', {COLUMNS => ['f1:a'], VERSIONS => 3, TIMERANGE => [0, 2000]}\n  scan 't1', {RAW => true, VERSIONS => 10}         (shows delete markers and masked cells)\n  scan 't1', {FILTER => \"PrefixFilter('a') AND ValueFilter(>, 'binary:5')\"}\n  scan 't1', {FILTER => org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)}\n  scan 't1', {ALL_METRICS => true}                (scan metrics after the rows)\n  scan 't1', {METRICS => ['ROWS_SCANNED', 'ROWS_FILTERED']}\nFilters: PrefixFilter, RowFilter, FamilyFilter, QualifierFilter, ValueFilter, ColumnPrefixFilter,\nMultipleColumnPrefixFilter, ColumnRangeFilter, SingleColumnValueFilter, SingleColumnValueExcludeFilter,\nDependentColumnFilter, PageFilter, KeyOnlyFilter, FirstKeyOnlyFilter, InclusiveStopFilter,\nColumnCountGetFilter, ColumnPaginationFilter, TimestampsFilter, ColumnValueFilter (only the matching\ncells of one column); combined with AND, OR, SKIP, WHILE.\nFuzzyRowFilter, as in HBase, only in its Java form (the filter language has no such name): pairs of\na key and a mask of the same length, mask byte \\x00 where the row must have the key's byte and\n\\x01 where any byte will do; the scan seeks past rows no pair can match.\n  scan 't1', {FILTER => org.apache.hadoop.hbase.filter.FuzzyRowFilter.new([\n    org.apache.hadoop.hbase.util.Pair.new('????_99'.to_java_bytes, \"\\x01\\x01\\x01\\x01\\x00\\x00\\x00\".to_java_bytes)])}\nWrite masks in double quotes (\"\\x01\" is one byte; '\\x01' is four). HBase takes mask bytes other than\n0 and 1 and matches unpredictably; Rowkey refuses them.\nPageFilter(n) pages each region on its own, as HBase does: a table of several regions can return\nmore than n rows. LIMIT => n bounds the whole scan.\nComparators: binary:, binaryprefix:, regexstring: (found anywhere), substring: (ignores case).\n";
pub(super) const COUNT: &str = "Counts rows, printing progress every INTERVAL rows (default 1000).\n  count 't1'\n  count 't1', INTERVAL => 100\n";
pub(super) const DELETE: &str = "Deletes one version of a cell: the newest, or the one at the given timestamp.\n  delete 't1', 'r1', 'f1:q'\n  delete 't1', 'r1', 'f1:q', 1700000000000\nThe marker masks only that version; older versions may show again.\n";
pub(super) const DELETEALL: &str = "Deletes a whole row, a family, or every version of a column (at or before a timestamp).\n  deleteall 't1', 'r1'\n  deleteall 't1', 'r1', 'f1:q'\n  deleteall 't1', 'r1', 'f1:q', 1700000000000\n  deleteall 't1', {ROWPREFIXFILTER => 'tmp_'}\nMarkers mask puts with older timestamps written later, until a major compaction removes them.\n";
pub(super) const INCR: &str = "Adds to an 8-byte counter (default 1) and prints the new value.\n  incr 't1', 'r1', 'f1:hits'\n  incr 't1', 'r1', 'f1:hits', 10\n  incr 't1', 'r1', 'f1'          (a family alone: its empty qualifier)\n";
pub(super) const GET_COUNTER: &str =
    "Reads an 8-byte counter.\n  get_counter 't1', 'r1', 'f1:hits'\n";
pub(super) const APPEND: &str = "Appends bytes to a cell's value and prints the result.\n  append 't1', 'r1', 'f1:log', '+entry'\n";
pub(super) const CHECK_AND_PUT: &str = "Writes a cell only if another cell holds an expected value (nil: is absent), atomically.\n  check_and_put 't1', 'r1', 'f1:state', 'new', 'f1:state', 'done'\n  check_and_put 't1', 'r1', 'f1:lock', nil, 'f1:lock', 'me'\n  check_and_put 't1', 'r1', 'f1:n', '5', 'f1:flag', 'x', {OP => '<'}\nHBase compares the other way round: OP '<' holds when the expected value is less than the stored one.\nRowkey's own: HBase's shell has no check_and_put; its Java client's Table.checkAndMutate does this.\n";
pub(super) const CHECK_AND_DELETE: &str = "Deletes a column only if a cell holds an expected value (nil: is absent), atomically.\n  check_and_delete 't1', 'r1', 'f1:state', 'done', 'f1:state'\nRowkey's own: HBase's shell has no check_and_delete; its Java client's Table.checkAndMutate does this.\n";
pub(super) const MUTATE_ROW: &str = "Applies several puts and deletes to one row atomically.\n  mutate_row 't1', 'r1', [['put', 'f1:a', '1'], ['delete', 'f1:b'], ['deleteall', 'f2']]\nRowkey's own: HBase's shell has no mutate_row; its Java client's Table.mutateRow does this.\n";
pub(super) const TRUNCATE: &str =
    "Empties a table; its regions merge back into one.\n  truncate 't1'\n";
pub(super) const TRUNCATE_PRESERVE: &str =
    "Empties a table and keeps its region boundaries.\n  truncate_preserve 't1'\n";
pub(super) const FLUSH: &str = "Writes every memstore of a table (or of one family) out as a new sorted run.\n  flush 't1'\n  flush 't1', 'f1'\n";
pub(super) const GET_TABLE: &str = "Gives a reference to a table; its commands then take the table from it.\n  t = get_table 't1'\n  t.put 'r1', 'f1:q', 'v'\n  t.get 'r1'\n  t.scan\n  t.count\nReferences: put, get, scan, count, delete, deleteall, incr, get_counter, append,\nget_splits, describe, enable, disable, drop, flush. 't1 = create ...' makes one too.\n";
pub(super) const ALTER_ASYNC: &str = "Like alter, without waiting for the regions to reopen (Rowkey reopens them at once).\n  alter_async 't1', NAME => 'f1', VERSIONS => 3\n";
pub(super) const ALTER_STATUS: &str =
    "Says how many of a table's regions have the altered schema.\n  alter_status 't1'\n";
pub(super) const LIST_REGIONS: &str = "Lists a table's regions as HBase 2.x's list_regions does: server, region name, start and\nend key, size, requests and locality, one row per region.\n  list_regions 't1'\n  list_regions 't1', 'server_name'                  (regions whose server name starts so)\n  list_regions 't1', {SERVER_NAME => 'in', LOCALITY_THRESHOLD => 0.8}\n  list_regions 't1', {}, ['SERVER_NAME', 'start_key']    (these columns, any case)\n  list_regions 't1', '', ['REGION_NAME', 'SIZE', 'REQ']\nColumns: SERVER_NAME, REGION_NAME, START_KEY, END_KEY, SIZE, REQ, LOCALITY. In one page:\nevery region is served 'in this page'; LOCALITY is 1.0 (all data is local, so a\nLOCALITY_THRESHOLD below 1.0 lists none); SIZE is the bytes of the region's sorted runs\n(HBase prints its store files in MB, which would read 0 here); REQ counts its reads and writes.\nThe table must be enabled.\n";
pub(super) const LOCATE_REGION: &str =
    "Shows the region that holds a row key.\n  locate_region 't1', 'r1'\n";
pub(super) const SHOW_FILTERS: &str =
    "Lists the filters the FILTER => \"...\" language knows.\n  show_filters\n";
pub(super) const COMPACT: &str = "Asks for a minor compaction of every store of a table, or of one family's. As in HBase 2.x, each\nstore's compaction policy (ExploringCompactionPolicy) chooses which sorted runs to merge: the\nlargest window of 3 (COMPACTION_THRESHOLD) to 10 adjacent runs in which no run is more than 1.2\ntimes the others together (a window smaller than the flush size always qualifies), the fewest\nbytes among equals. A store with no such window is left alone, so a large old run stays out\nwhile the small new ones merge. Delete markers are kept; major_compact merges everything.\n  compact 't1'\n  compact 't1', 'f1'\n";
pub(super) const MAJOR_COMPACT: &str = "Merges each store's runs into one and drops delete markers, the cells they mask,\nexcess versions and expired cells.\n  major_compact 't1'\n  major_compact 't1', 'f1'     (one family's stores)\n";
pub(super) const GET_SPLITS: &str = "Lists the region boundaries of a table.\n  get_splits 't1'\n";
pub(super) const SPLIT: &str = "Splits the region holding a key at that key, or every region at its middle key.\n  split 't1', 'm'\n  split 't1'\n";
pub(super) const GENERATE: &str = "Rowkey's own (HBase has no such command): fills a table with rows whose keys follow a\ntemplate, through the normal write path (server timestamps, flushes, splits).\n  generate 't1', 'user%08d', 1000000\n  generate 't1', 'user%08d', 1000, {COLUMNS => ['f1:a', 'f1:b'], VALUE_SIZE => 16}\n  generate 't1', '%2h-order%010d', 50000, {START => 1000, STEP => 10, ORDER => 'random'}\nRow i of N gets the number n = START + i * STEP (START 0, STEP 1). In the key template\n%d is n in decimal, %x in hex, with an optional zero-padded width (%08d); %h is a salt, the\nfirst hex digits of a hash of n (4, or a width 1..16: %2h gives 256 buckets); %% is a %.\nThe template needs %d or %x. ORDER is 'sequential' (default), 'reversed' or 'random' (a fixed\nshuffle). COLUMNS defaults to the first family's 'v'; each value is VALUE_SIZE (default 8)\nletters and digits, the same for the same row and column on every run.\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_help() {
        for c in commands::of(Dialect::HBase) {
            assert!(
                text(c.name).is_some_and(|t| !t.trim().is_empty()),
                "no help for {}",
                c.name
            );
        }
    }

    #[test]
    fn general_help_lists_every_command_under_its_group() {
        let help = general();
        // An alias is not listed: its command is (hbase-shell's `help` lists `command_names`).
        assert!(!help.contains(" desc,") && help.contains(" describe,"));
        for c in commands::of(Dialect::HBase).filter(|c| !ALIASES.contains(&c.name)) {
            let line = help
                .split("  Group name: ")
                .find(|g| g.starts_with(c.group.name()))
                .and_then(|g| g.lines().find(|l| l.starts_with("  Commands: ")));
            let listed = line.is_some_and(|l| {
                l.trim_start_matches("  Commands: ")
                    .split(", ")
                    .any(|n| n == c.name)
            });
            assert!(listed, "{} not listed under {}", c.name, c.group.name());
        }
        // Each group's commands sorted, as `group[:command_names].sort` prints them.
        for line in help.lines().filter(|l| l.starts_with("  Commands: ")) {
            let names: Vec<&str> = line
                .trim_start_matches("  Commands: ")
                .split(", ")
                .collect();
            let mut sorted = names.clone();
            sorted.sort_unstable();
            assert_eq!(names, sorted);
        }
    }
}
