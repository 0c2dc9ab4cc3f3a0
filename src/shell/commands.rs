//! The HBase shell's entries in the one table of commands ([`crate::commands`]): each
//! command's group, whether it writes, the options its hash takes, its arity, what its
//! positional arguments are, whether a table reference runs it, its help text and its
//! executor; and the option lists `create` and `alter` share.

use super::exec::{ddl, dml, general, rowkey, sweep, tools, Run};
use super::help;
use crate::commands::{self, CommandSpec, Dialect, Executor, Group, Role};

const TABLE: &[Role] = &[Role::Table];
const TABLE_ROW: &[Role] = &[Role::Table, Role::Row];
const TABLE_ROW_COLUMN: &[Role] = &[Role::Table, Role::Row, Role::Column];

/// Options of a column family, in `create` and `alter`.
pub const FAMILY_OPTIONS: &[&str] = &[
    "NAME",
    "VERSIONS",
    "MIN_VERSIONS",
    "TTL",
    "KEEP_DELETED_CELLS",
    "BLOOMFILTER",
    "COMPRESSION",
    "BLOCKSIZE",
    "IN_MEMORY",
    "BLOCKCACHE",
    "DATA_BLOCK_ENCODING",
    "REPLICATION_SCOPE",
];

const TABLE_OPTIONS: &[&str] = &[
    "MAX_FILESIZE",
    "MEMSTORE_FLUSHSIZE",
    "COMPACTION_THRESHOLD",
    "READONLY",
    "COMPACTION_ENABLED",
    "SPLIT_ENABLED",
    "MERGE_ENABLED",
    "NORMALIZATION_ENABLED",
    "DURABILITY",
    "REGION_REPLICATION",
    "PRIORITY",
    "OWNER",
    "METADATA",
    "CONFIGURATION",
];

/// Several option lists as one, at compile time (`N` is checked against their total length).
const fn join<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[n] = parts[i][j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(n == N, "join: N is not the total length of the parts");
    out
}

const CREATE_OPTIONS: &[&str] = &join::<30>(&[
    FAMILY_OPTIONS,
    &["SPLITS", "SPLITS_FILE", "NUMREGIONS", "SPLITALGO"],
    TABLE_OPTIONS,
]);

const ALTER_OPTIONS: &[&str] = &join::<29>(&[
    &["METHOD", "delete", "REOPEN_REGIONS"],
    FAMILY_OPTIONS,
    TABLE_OPTIONS,
]);

const GET_OPTIONS: &[&str] = &[
    "COLUMN",
    "COLUMNS",
    "VERSIONS",
    "TIMESTAMP",
    "TIMERANGE",
    "FILTER",
    "MAXLENGTH",
    "FORMATTER",
    "FORMATTER_CLASS",
];

const SCAN_OPTIONS: &[&str] = &[
    "STARTROW",
    "STOPROW",
    "ROWPREFIXFILTER",
    "COLUMNS",
    "LIMIT",
    "VERSIONS",
    "REVERSED",
    "RAW",
    "TIMERANGE",
    "TIMESTAMP",
    "FILTER",
    "MAXLENGTH",
    "ALL_METRICS",
    "METRICS",
    "FORMATTER",
    "FORMATTER_CLASS",
];

/// An HBase shell command run by `run`, taking no arguments until `takes` says otherwise.
const fn spec(
    name: &'static str,
    group: Group,
    writes: bool,
    options: &'static [&'static str],
    run: Run,
) -> CommandSpec {
    CommandSpec::new(
        name,
        Dialect::HBase,
        group,
        writes,
        options,
        Executor::Shell(run),
    )
}

/// A cluster command: known by name, answered with `note` whatever its arguments.
const fn cluster(name: &'static str, note: &'static str) -> CommandSpec {
    CommandSpec::new(
        name,
        Dialect::HBase,
        Group::Cluster,
        false,
        &[],
        Executor::Refused,
    )
    .takes_more(0)
    .note(note)
}

const NO_NAMESPACES: &str = "HBase keeps namespaces in its master; Rowkey has only the \
    'default' namespace, where every table lives (a table 'default:t' is 't').";
const NO_REPLICATION: &str = "HBase ships edits to peer clusters; Rowkey has one engine in \
    this page and no peer to replicate to.";
const NO_SNAPSHOTS: &str = "HBase snapshots record a table's files in HDFS; Rowkey keeps tables \
    in this browser's storage, and 'export' saves them whole.";
const NO_SECURITY: &str = "HBase checks users, ACLs and visibility labels with a security \
    coprocessor; Rowkey runs in your browser with one user and no access control.";
const NO_QUOTAS: &str = "HBase throttles users and tables with quotas; Rowkey has one user and \
    no request limits.";
const NO_SERVERS: &str = "HBase assigns regions to region servers; Rowkey holds every region \
    in one engine, so there is no server to move, assign or balance them to.";
const NO_PROCEDURES: &str = "HBase's master runs DDL as procedures with locks; Rowkey applies \
    each command at once, so there is none pending.";
const NO_RSGROUPS: &str = "HBase groups region servers into rsgroups; Rowkey has no servers \
    to group.";

/// Every command, grouped as `help` lists them.
pub(crate) const HBASE: &[CommandSpec] = &[
    spec("help", Group::General, false, &[], general::help)
        .takes(0, 1)
        .help(help::HELP),
    spec("clear", Group::General, false, &[], general::clear)
        .takes(0, 0)
        .help(help::CLEAR),
    spec(
        "show_filters",
        Group::General,
        false,
        &[],
        general::show_filters,
    )
    .takes(0, 0)
    .help(help::SHOW_FILTERS),
    spec(
        "table_help",
        Group::General,
        false,
        &[],
        general::table_help,
    )
    .takes(0, 0)
    .help(help::TABLE_HELP),
    spec("alter", Group::Ddl, true, ALTER_OPTIONS, ddl::alter)
        .on(TABLE)
        .takes_more(1)
        .help(help::ALTER),
    spec(
        "alter_async",
        Group::Ddl,
        true,
        ALTER_OPTIONS,
        ddl::alter_async,
    )
    .on(TABLE)
    .takes_more(1)
    .help(help::ALTER_ASYNC),
    spec("alter_status", Group::Ddl, false, &[], ddl::alter_status)
        .on(TABLE)
        .takes(1, 1)
        .help(help::ALTER_STATUS),
    spec("create", Group::Ddl, true, CREATE_OPTIONS, ddl::create)
        .on(&[Role::NewTable])
        .takes_more(1)
        .help(help::CREATE),
    spec("describe", Group::Ddl, false, &[], ddl::describe)
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DESCRIBE),
    spec("desc", Group::Ddl, false, &[], ddl::describe)
        .on(TABLE)
        .takes(1, 1)
        .help(help::DESCRIBE),
    spec("disable", Group::Ddl, true, &[], ddl::disable)
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DISABLE),
    spec(
        "clone_table_schema",
        Group::Ddl,
        true,
        &[],
        ddl::clone_table_schema,
    )
    .on(&[Role::Table, Role::NewTable])
    .takes(2, 3)
    .help(help::CLONE_TABLE_SCHEMA),
    spec("disable_all", Group::Ddl, true, &[], sweep::disable_all)
        .takes(1, 1)
        .help(help::DISABLE_ALL),
    spec("drop", Group::Ddl, true, &[], ddl::drop)
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DROP),
    spec("drop_all", Group::Ddl, true, &[], sweep::drop_all)
        .takes(1, 1)
        .help(help::DROP_ALL),
    spec("enable", Group::Ddl, true, &[], ddl::enable)
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::ENABLE),
    spec("enable_all", Group::Ddl, true, &[], sweep::enable_all)
        .takes(1, 1)
        .help(help::ENABLE_ALL),
    spec("exists", Group::Ddl, false, &[], ddl::exists)
        .on(TABLE)
        .takes(1, 1)
        .help(help::EXISTS),
    spec("get_table", Group::Ddl, false, &[], ddl::get_table)
        .on(TABLE)
        .takes_more(1)
        .help(help::GET_TABLE),
    spec("is_disabled", Group::Ddl, false, &[], ddl::is_disabled)
        .on(TABLE)
        .takes(1, 1)
        .help(help::IS_DISABLED),
    spec("is_enabled", Group::Ddl, false, &[], ddl::is_enabled)
        .on(TABLE)
        .takes(1, 1)
        .help(help::IS_ENABLED),
    spec("list", Group::Ddl, false, &[], ddl::list)
        .takes(0, 1)
        .help(help::LIST),
    spec("append", Group::Dml, true, &[], dml::append)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(4, 5)
        .help(help::APPEND),
    spec(
        "check_and_delete",
        Group::Rowkey,
        true,
        &["OP"],
        dml::check_and_mutate,
    )
    .on(TABLE_ROW_COLUMN)
    .takes(5, 6)
    .help(help::CHECK_AND_DELETE),
    spec(
        "check_and_put",
        Group::Rowkey,
        true,
        &["OP"],
        dml::check_and_mutate,
    )
    .on(TABLE_ROW_COLUMN)
    .takes(6, 7)
    .help(help::CHECK_AND_PUT),
    spec(
        "count",
        Group::Dml,
        false,
        &["INTERVAL", "CACHE"],
        dml::count,
    )
    .on(TABLE)
    .method()
    .takes(1, 2)
    .help(help::COUNT),
    spec("delete", Group::Dml, true, &[], dml::delete)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 5)
        .help(help::DELETE),
    spec(
        "deleteall",
        Group::Dml,
        true,
        &["ROWPREFIXFILTER"],
        dml::delete,
    )
    .on(TABLE_ROW_COLUMN)
    .method()
    .takes(2, 5)
    .help(help::DELETEALL),
    spec("get", Group::Dml, false, GET_OPTIONS, dml::get)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes_more(2)
        .help(help::GET),
    spec("get_counter", Group::Dml, false, &[], dml::get_counter)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 3)
        .help(help::GET_COUNTER),
    spec("incr", Group::Dml, true, &[], dml::incr)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 5)
        .help(help::INCR),
    spec("mutate_row", Group::Rowkey, true, &[], dml::mutate_row)
        .on(TABLE_ROW)
        .takes(3, 3)
        .help(help::MUTATE_ROW),
    spec("put", Group::Dml, true, &["TTL"], dml::put)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(4, 6)
        .help(help::PUT),
    spec("scan", Group::Dml, false, SCAN_OPTIONS, dml::scan)
        .on(TABLE)
        .method()
        .takes(1, 2)
        .help(help::SCAN),
    spec("truncate", Group::Dml, true, &[], dml::truncate)
        .on(TABLE)
        .takes(1, 1)
        .help(help::TRUNCATE),
    spec("truncate_preserve", Group::Dml, true, &[], dml::truncate)
        .on(TABLE)
        .takes(1, 1)
        .help(help::TRUNCATE_PRESERVE),
    spec("compact", Group::Tools, true, &[], tools::compact)
        .on(TABLE)
        .takes(1, 3)
        .help(help::COMPACT),
    spec("flush", Group::Tools, true, &[], tools::flush)
        .on(TABLE)
        .method()
        .takes(1, 2)
        .help(help::FLUSH),
    spec("get_splits", Group::Tools, false, &[], tools::get_splits)
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::GET_SPLITS),
    spec(
        "list_regions",
        Group::Tools,
        false,
        &["SERVER_NAME", "LOCALITY_THRESHOLD"],
        tools::list_regions,
    )
    .on(TABLE)
    .takes(1, 3)
    .help(help::LIST_REGIONS),
    spec(
        "locate_region",
        Group::Tools,
        false,
        &[],
        tools::locate_region,
    )
    .on(TABLE_ROW)
    .takes(2, 2)
    .help(help::LOCATE_REGION),
    spec("major_compact", Group::Tools, true, &[], tools::compact)
        .on(TABLE)
        .takes(1, 3)
        .help(help::MAJOR_COMPACT),
    spec("split", Group::Tools, true, &[], tools::split)
        .on(TABLE)
        .takes(1, 2)
        .help(help::SPLIT),
    spec(
        "generate",
        Group::Rowkey,
        true,
        &["COLUMNS", "VALUE_SIZE", "START", "STEP", "ORDER"],
        rowkey::generate,
    )
    .on(TABLE)
    .takes(3, 4)
    .help(help::GENERATE),
    cluster(
        "status",
        "HBase's status reports masters, region servers and their load; Rowkey \
        has no cluster: one engine in this page serves every region. 'list' and 'describe' \
        show what there is.",
    ),
    cluster(
        "version",
        "HBase prints its release and build; Rowkey is not an HBase release. \
        It follows HBase 2.x semantics, with the 2.5 line as the reference.",
    ),
    cluster(
        "whoami",
        "HBase prints the user and groups it authenticated (Kerberos or simple \
        auth); Rowkey runs in your browser with no user accounts.",
    ),
    cluster(
        "exit",
        "HBase's exit ends its JRuby shell. Rowkey's console is part of the page \
        and stays open (close the tab to leave); `rowkey shell` stops at exit, as HBase's \
        does.",
    ),
    cluster(
        "quit",
        "HBase's quit ends its JRuby shell. Rowkey's console is part of the page \
        and stays open (close the tab to leave); `rowkey shell` stops at quit, as HBase's \
        does.",
    ),
    cluster(
        "processlist",
        "HBase lists the tasks running on its servers; Rowkey runs each \
        command to its end before the next.",
    ),
    cluster("balancer", NO_SERVERS),
    cluster("balance_switch", NO_SERVERS),
    cluster("balancer_enabled", NO_SERVERS),
    cluster("move", NO_SERVERS),
    cluster("assign", NO_SERVERS),
    cluster("unassign", NO_SERVERS),
    cluster("close_region", NO_SERVERS),
    cluster(
        "merge_region",
        "HBase merges adjacent regions through its master; Rowkey splits \
        regions (split, MAX_FILESIZE) but does not merge them.",
    ),
    cluster("compact_rs", NO_SERVERS),
    cluster("wal_roll", NO_SERVERS),
    cluster(
        "zk_dump",
        "HBase keeps cluster state in ZooKeeper; Rowkey has no ZooKeeper.",
    ),
    cluster("catalogjanitor_run", NO_SERVERS),
    cluster("normalize", NO_SERVERS),
    cluster(
        "clear_block_cache",
        "HBase caches file blocks on each region server; Rowkey reads \
        its sorted runs from memory and has no block cache.",
    ),
    cluster("create_namespace", NO_NAMESPACES),
    cluster("drop_namespace", NO_NAMESPACES),
    cluster("alter_namespace", NO_NAMESPACES),
    cluster("describe_namespace", NO_NAMESPACES),
    cluster("list_namespace", NO_NAMESPACES),
    cluster("list_namespace_tables", NO_NAMESPACES),
    cluster("add_peer", NO_REPLICATION),
    cluster("remove_peer", NO_REPLICATION),
    cluster("list_peers", NO_REPLICATION),
    cluster("enable_table_replication", NO_REPLICATION),
    cluster("disable_table_replication", NO_REPLICATION),
    cluster("snapshot", NO_SNAPSHOTS),
    cluster("list_snapshots", NO_SNAPSHOTS),
    cluster("restore_snapshot", NO_SNAPSHOTS),
    cluster("clone_snapshot", NO_SNAPSHOTS),
    cluster("delete_snapshot", NO_SNAPSHOTS),
    cluster("grant", NO_SECURITY),
    cluster("revoke", NO_SECURITY),
    cluster("user_permission", NO_SECURITY),
    cluster("add_labels", NO_SECURITY),
    cluster("set_auths", NO_SECURITY),
    cluster("get_auths", NO_SECURITY),
    cluster("set_visibility", NO_SECURITY),
    cluster("set_quota", NO_QUOTAS),
    cluster("list_quotas", NO_QUOTAS),
    cluster("list_procedures", NO_PROCEDURES),
    cluster("list_locks", NO_PROCEDURES),
    cluster("list_rsgroups", NO_RSGROUPS),
    cluster("add_rsgroup", NO_RSGROUPS),
    cluster("move_servers_rsgroup", NO_RSGROUPS),
];

/// The commands a table reference runs (`t.put`), in the table's order.
pub fn table_methods() -> impl Iterator<Item = &'static str> {
    commands::of(Dialect::HBase)
        .filter(|c| c.table_method)
        .map(|c| c.name)
}

/// Whether a table option (not a family option) of `create` and `alter`.
pub fn is_table_option(key: &str) -> bool {
    TABLE_OPTIONS.contains(&key)
}
