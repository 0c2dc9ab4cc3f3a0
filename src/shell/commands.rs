//! The one table of commands: name, group, whether it writes, and the options its hash takes.
//! The dispatcher, the read-only check, `help`, completion and "did you mean" all read it.

/// HBase's command groups (as `help` lists them), plus Rowkey's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    General,
    Ddl,
    Dml,
    Tools,
    /// Commands HBase does not have: Rowkey's own helpers.
    Rowkey,
}

impl Group {
    /// Every group in the order `help` lists them.
    pub const ALL: [Group; 5] = [
        Group::General,
        Group::Ddl,
        Group::Dml,
        Group::Tools,
        Group::Rowkey,
    ];

    /// The name `help` prints.
    pub fn name(self) -> &'static str {
        match self {
            Group::General => "general",
            Group::Ddl => "ddl",
            Group::Dml => "dml",
            Group::Tools => "tools",
            Group::Rowkey => "rowkey (Rowkey's own, not in HBase)",
        }
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
}

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

const TABLE_OPTIONS: &[&str] = &["MAX_FILESIZE", "MEMSTORE_FLUSHSIZE", "COMPACTION_THRESHOLD"];

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

const CREATE_OPTIONS: &[&str] = &join::<18>(&[
    FAMILY_OPTIONS,
    &["SPLITS", "NUMREGIONS", "SPLITALGO"],
    TABLE_OPTIONS,
]);

const ALTER_OPTIONS: &[&str] = &join::<17>(&[&["METHOD", "delete"], FAMILY_OPTIONS, TABLE_OPTIONS]);

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
    }
}

/// Every command, grouped as `help` lists them.
pub static COMMANDS: &[CommandSpec] = &[
    spec("help", Group::General, false, &[]),
    spec("clear", Group::General, false, &[]),
    spec("alter", Group::Ddl, true, ALTER_OPTIONS),
    spec("create", Group::Ddl, true, CREATE_OPTIONS),
    spec("describe", Group::Ddl, false, &[]),
    spec("desc", Group::Ddl, false, &[]),
    spec("disable", Group::Ddl, true, &[]),
    spec("drop", Group::Ddl, true, &[]),
    spec("enable", Group::Ddl, true, &[]),
    spec("exists", Group::Ddl, false, &[]),
    spec("is_disabled", Group::Ddl, false, &[]),
    spec("is_enabled", Group::Ddl, false, &[]),
    spec("list", Group::Ddl, false, &[]),
    spec("append", Group::Dml, true, &[]),
    spec("check_and_delete", Group::Dml, true, &["OP"]),
    spec("check_and_put", Group::Dml, true, &["OP"]),
    spec("count", Group::Dml, false, &["INTERVAL", "CACHE"]),
    spec("delete", Group::Dml, true, &[]),
    spec("deleteall", Group::Dml, true, &["ROWPREFIXFILTER"]),
    spec("get", Group::Dml, false, GET_OPTIONS),
    spec("get_counter", Group::Dml, false, &[]),
    spec("incr", Group::Dml, true, &[]),
    spec("mutate_row", Group::Dml, true, &[]),
    spec("put", Group::Dml, true, &["TTL"]),
    spec("scan", Group::Dml, false, SCAN_OPTIONS),
    spec("truncate", Group::Dml, true, &[]),
    spec("truncate_preserve", Group::Dml, true, &[]),
    spec("compact", Group::Tools, true, &[]),
    spec("flush", Group::Tools, true, &[]),
    spec("get_splits", Group::Tools, false, &[]),
    spec("major_compact", Group::Tools, true, &[]),
    spec("split", Group::Tools, true, &[]),
    spec(
        "generate",
        Group::Rowkey,
        true,
        &["COLUMNS", "VALUE_SIZE", "START", "STEP", "ORDER"],
    ),
];

/// The command of that name.
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
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
}
