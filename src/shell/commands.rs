//! The one table of commands: name, dialect, group, whether it writes, the options its hash
//! takes, how many arguments it takes, what its positional arguments are (a table, a row, a
//! column), whether a table reference runs it, and its help text. The dispatcher (which checks
//! the count before any executor runs), the read-only check, `help`, completion, "did you
//! mean", table references (`t.put`) and the script analysis ([`crate::analysis`]) all read it.

use super::help;

/// The command language a command belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The HBase shell (`put 't', 'r', 'f:q', 'v'`).
    HBase,
    /// Bigtable's `cbt` tool (`cbt set t r f:q=v`).
    Cbt,
}

/// What a positional argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An existing table.
    Table,
    /// A table the command creates.
    NewTable,
    /// A row key.
    Row,
    /// A column (`family:qualifier`) or a list of them.
    Column,
}

/// HBase's command groups (as `help` lists them), plus Rowkey's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    General,
    Ddl,
    Dml,
    Tools,
    /// Commands HBase does not have: Rowkey's own helpers.
    Rowkey,
    /// HBase commands that act on a cluster (servers, namespaces, replication, snapshots,
    /// security): Rowkey knows them and says why a single-machine playground does not run them.
    Cluster,
}

impl Group {
    /// Every group in the order `help` lists them.
    pub const ALL: [Group; 6] = [
        Group::General,
        Group::Ddl,
        Group::Dml,
        Group::Tools,
        Group::Rowkey,
        Group::Cluster,
    ];

    /// The word `help 'GROUP'` takes: the first word of [`Group::name`].
    pub fn key(self) -> &'static str {
        self.name().split(' ').next().unwrap_or("")
    }

    /// The name `help` prints.
    pub fn name(self) -> &'static str {
        match self {
            Group::General => "general",
            Group::Ddl => "ddl",
            Group::Dml => "dml",
            Group::Tools => "tools",
            Group::Rowkey => "rowkey (Rowkey's own, not in HBase)",
            Group::Cluster => "cluster (HBase's, not run in a single-machine playground)",
        }
    }
}

/// How many arguments a command takes, as its method in hbase-shell takes them: `put`'s
/// `def command(table, row, column, value, timestamp = nil, args = {})` takes 4 to 6, `get`'s
/// `def command(table, row, *args)` 2 or more. Another count fails as JRuby's `ArgumentError`
/// says it: `wrong number of arguments (given 1, expected 4..6)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: usize,
    /// `None`: any number from `min` on.
    pub max: Option<usize>,
}

impl Arity {
    /// Whether `given` arguments will do.
    pub fn allows(self, given: usize) -> bool {
        given >= self.min && self.max.is_none_or(|max| given <= max)
    }

    /// What Ruby's message says was expected: `3`, `4..6` or `2+`.
    pub fn expected(self) -> String {
        match self.max {
            Some(max) if max == self.min => max.to_string(),
            Some(max) => format!("{}..{max}", self.min),
            None => format!("{}+", self.min),
        }
    }

    /// The error for `given` arguments, as the HBase shell prints it.
    pub fn message(self, given: usize) -> String {
        format!(
            "wrong number of arguments (given {given}, expected {})",
            self.expected()
        )
    }
}

/// One command of the shell.
#[derive(Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    pub group: Group,
    /// Whether it changes tables or data (refused in a read-only tab, saved after it runs).
    pub writes: bool,
    /// The keys its `{KEY => value}` hash understands.
    pub options: &'static [&'static str],
    /// For a [`Group::Cluster`] command: what HBase would do and why Rowkey does not.
    pub note: &'static str,
    pub dialect: Dialect,
    /// What its first positional arguments name, in order (none for a command that names no
    /// table).
    pub args: &'static [Role],
    /// Whether a table reference runs it (`t.put 'r', ...`), as hbase-shell's `table.rb` adds
    /// it to `Hbase::Table`.
    pub table_method: bool,
    /// How many arguments it takes (the table's included): checked before it runs.
    pub arity: Arity,
    /// What `help 'name'` prints: what it does and examples, each of which runs.
    pub help: &'static str,
}

impl CommandSpec {
    /// What positional argument `i` names, if the table says.
    pub fn role(&self, i: usize) -> Option<Role> {
        self.args.get(i).copied()
    }

    /// The position of the table the command names (or creates).
    pub fn table_arg(&self) -> Option<usize> {
        self.args
            .iter()
            .position(|r| matches!(r, Role::Table | Role::NewTable))
    }

    const fn on(mut self, args: &'static [Role]) -> CommandSpec {
        self.args = args;
        self
    }

    const fn method(mut self) -> CommandSpec {
        self.table_method = true;
        self
    }

    /// Takes `min` to `max` arguments.
    const fn takes(mut self, min: usize, max: usize) -> CommandSpec {
        self.arity = Arity {
            min,
            max: Some(max),
        };
        self
    }

    /// Takes `min` arguments or more.
    const fn takes_more(mut self, min: usize) -> CommandSpec {
        self.arity = Arity { min, max: None };
        self
    }

    const fn help(mut self, text: &'static str) -> CommandSpec {
        self.help = text;
        self
    }
}

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
];

const fn spec(
    name: &'static str,
    group: Group,
    writes: bool,
    options: &'static [&'static str],
) -> CommandSpec {
    CommandSpec {
        name,
        group,
        writes,
        options,
        note: "",
        dialect: Dialect::HBase,
        args: &[],
        table_method: false,
        arity: Arity {
            min: 0,
            max: Some(0),
        },
        help: "",
    }
}

/// A cluster command: known by name, answered with `note`.
const fn cluster(name: &'static str, note: &'static str) -> CommandSpec {
    CommandSpec {
        name,
        group: Group::Cluster,
        writes: false,
        options: &[],
        note,
        dialect: Dialect::HBase,
        args: &[],
        table_method: false,
        // Refused whatever its arguments, with the note.
        arity: Arity { min: 0, max: None },
        help: "",
    }
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
pub static COMMANDS: &[CommandSpec] = &[
    spec("help", Group::General, false, &[])
        .takes(0, 1)
        .help(help::HELP),
    spec("clear", Group::General, false, &[])
        .takes(0, 0)
        .help(help::CLEAR),
    spec("show_filters", Group::General, false, &[])
        .takes(0, 0)
        .help(help::SHOW_FILTERS),
    spec("table_help", Group::General, false, &[])
        .takes(0, 0)
        .help(help::TABLE_HELP),
    spec("alter", Group::Ddl, true, ALTER_OPTIONS)
        .on(TABLE)
        .takes_more(1)
        .help(help::ALTER),
    spec("alter_async", Group::Ddl, true, ALTER_OPTIONS)
        .on(TABLE)
        .takes_more(1)
        .help(help::ALTER_ASYNC),
    spec("alter_status", Group::Ddl, false, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::ALTER_STATUS),
    spec("create", Group::Ddl, true, CREATE_OPTIONS)
        .on(&[Role::NewTable])
        .takes_more(1)
        .help(help::CREATE),
    spec("describe", Group::Ddl, false, &[])
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DESCRIBE),
    spec("desc", Group::Ddl, false, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::DESCRIBE),
    spec("disable", Group::Ddl, true, &[])
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DISABLE),
    spec("drop", Group::Ddl, true, &[])
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::DROP),
    spec("enable", Group::Ddl, true, &[])
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::ENABLE),
    spec("exists", Group::Ddl, false, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::EXISTS),
    spec("get_table", Group::Ddl, false, &[])
        .on(TABLE)
        .takes_more(1)
        .help(help::GET_TABLE),
    spec("is_disabled", Group::Ddl, false, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::IS_DISABLED),
    spec("is_enabled", Group::Ddl, false, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::IS_ENABLED),
    spec("list", Group::Ddl, false, &[])
        .takes(0, 1)
        .help(help::LIST),
    spec("append", Group::Dml, true, &[])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(4, 5)
        .help(help::APPEND),
    spec("check_and_delete", Group::Dml, true, &["OP"])
        .on(TABLE_ROW_COLUMN)
        .takes(5, 6)
        .help(help::CHECK_AND_DELETE),
    spec("check_and_put", Group::Dml, true, &["OP"])
        .on(TABLE_ROW_COLUMN)
        .takes(6, 7)
        .help(help::CHECK_AND_PUT),
    spec("count", Group::Dml, false, &["INTERVAL", "CACHE"])
        .on(TABLE)
        .method()
        .takes(1, 2)
        .help(help::COUNT),
    spec("delete", Group::Dml, true, &[])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 5)
        .help(help::DELETE),
    spec("deleteall", Group::Dml, true, &["ROWPREFIXFILTER"])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(2, 5)
        .help(help::DELETEALL),
    spec("get", Group::Dml, false, GET_OPTIONS)
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes_more(2)
        .help(help::GET),
    spec("get_counter", Group::Dml, false, &[])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 3)
        .help(help::GET_COUNTER),
    spec("incr", Group::Dml, true, &[])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(3, 5)
        .help(help::INCR),
    spec("mutate_row", Group::Dml, true, &[])
        .on(TABLE_ROW)
        .takes(3, 3)
        .help(help::MUTATE_ROW),
    spec("put", Group::Dml, true, &["TTL"])
        .on(TABLE_ROW_COLUMN)
        .method()
        .takes(4, 6)
        .help(help::PUT),
    spec("scan", Group::Dml, false, SCAN_OPTIONS)
        .on(TABLE)
        .method()
        .takes(1, 2)
        .help(help::SCAN),
    spec("truncate", Group::Dml, true, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::TRUNCATE),
    spec("truncate_preserve", Group::Dml, true, &[])
        .on(TABLE)
        .takes(1, 1)
        .help(help::TRUNCATE_PRESERVE),
    spec("compact", Group::Tools, true, &[])
        .on(TABLE)
        .takes(1, 3)
        .help(help::COMPACT),
    spec("flush", Group::Tools, true, &[])
        .on(TABLE)
        .method()
        .takes(1, 2)
        .help(help::FLUSH),
    spec("get_splits", Group::Tools, false, &[])
        .on(TABLE)
        .method()
        .takes(1, 1)
        .help(help::GET_SPLITS),
    spec(
        "list_regions",
        Group::Tools,
        false,
        &["SERVER_NAME", "LOCALITY_THRESHOLD"],
    )
    .on(TABLE)
    .takes(1, 3)
    .help(help::LIST_REGIONS),
    spec("locate_region", Group::Tools, false, &[])
        .on(TABLE_ROW)
        .takes(2, 2)
        .help(help::LOCATE_REGION),
    spec("major_compact", Group::Tools, true, &[])
        .on(TABLE)
        .takes(1, 3)
        .help(help::MAJOR_COMPACT),
    spec("split", Group::Tools, true, &[])
        .on(TABLE)
        .takes(1, 2)
        .help(help::SPLIT),
    spec(
        "generate",
        Group::Rowkey,
        true,
        &["COLUMNS", "VALUE_SIZE", "START", "STEP", "ORDER"],
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
        "HBase's exit ends its JRuby shell; Rowkey's console is part of the page \
        and stays open. Close the tab to leave.",
    ),
    cluster(
        "quit",
        "HBase's quit ends its JRuby shell; Rowkey's console is part of the page \
        and stays open. Close the tab to leave.",
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
    cluster("major_compact_rs", NO_SERVERS),
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

/// The command of that name.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The commands a table reference runs (`t.put`), in the table's order.
pub fn table_methods() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().filter(|c| c.table_method).map(|c| c.name)
}

/// Whether a table option (not a family option) of `create` and `alter`.
pub fn is_table_option(key: &str) -> bool {
    TABLE_OPTIONS.contains(&key)
}

/// Whether the command changes tables or data (refused in a read-only tab).
pub fn writes(name: &str) -> bool {
    find(name).is_some_and(|c| c.writes)
}

/// The keys the command's options hash understands (none for an unknown command).
pub fn options(name: &str) -> &'static [&'static str] {
    find(name).map_or(&[], |c| c.options)
}

/// The candidate closest to `word` by edit distance (a swap of two letters counts as one
/// edit, case is ignored), if it is close enough to be a slip: at most one edit in three
/// letters. "Did you mean" for commands and option keys reads it.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = strsim::damerau_levenshtein(&word, &c.to_ascii_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_takes_slips_and_refuses_strangers() {
        let names = || COMMANDS.iter().map(|c| c.name);
        assert_eq!(closest("sacn", names()), Some("scan"));
        assert_eq!(closest("gte", names()), Some("get"));
        assert_eq!(closest("craete", names()), Some("create"));
        assert_eq!(closest("frobnicate", names()), None);
        assert_eq!(closest("LIMT", SCAN_OPTIONS.iter().copied()), Some("LIMIT"));
        assert_eq!(
            closest("limit", SCAN_OPTIONS.iter().copied()),
            Some("LIMIT")
        );
        assert_eq!(closest("X", SCAN_OPTIONS.iter().copied()), None);
    }

    #[test]
    fn roles_say_where_the_table_row_and_column_are() {
        let put = find("put").map(|c| (c.table_arg(), c.role(1), c.role(2), c.table_method));
        assert_eq!(
            put,
            Some((Some(0), Some(Role::Row), Some(Role::Column), true))
        );
        let create = find("create").map(|c| (c.table_arg(), c.role(0), c.table_method));
        assert_eq!(create, Some((Some(0), Some(Role::NewTable), false)));
        assert_eq!(find("list").and_then(CommandSpec::table_arg), None);
        let methods: Vec<&str> = COMMANDS
            .iter()
            .filter(|c| c.table_method)
            .map(|c| c.name)
            .collect();
        // hbase-shell's table.rb: the commands `Hbase::Table` runs.
        assert_eq!(methods.len(), 15);
        for m in &methods {
            assert_eq!(find(m).and_then(CommandSpec::table_arg), Some(0), "{m}");
        }
    }
}
