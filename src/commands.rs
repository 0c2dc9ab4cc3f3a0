//! The one table of commands, both dialects' (the HBase shell's and Bigtable's `cbt`): for
//! each command its name, dialect, group, whether it writes, the options it takes, how many
//! arguments it takes, what its positional arguments are (a table, a row, a column), whether a
//! table reference runs it, its help text and its executor. Each dialect's dispatcher runs a
//! command through its entry; `help`, completion, "did you mean", the read-only check, table
//! references (`t.put`) and the script analysis ([`crate::analysis`]) read the same entries.
//! Adding a command is adding one entry: HBase's are in `shell/commands.rs`, cbt's in
//! `cbt/commands.rs`.

use crate::analysis::Effect;

/// The command language a command belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The HBase shell (`put 't', 'r', 'f:q', 'v'`).
    #[default]
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

/// HBase's command groups (as `help` lists them), plus Rowkey's own; cbt's commands sort into
/// the same groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    General,
    Ddl,
    Dml,
    Tools,
    /// Commands HBase (or cbt) does not have: Rowkey's own helpers.
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
/// says it: `wrong number of arguments (given 1, expected 4..6)`. A cbt command counts its
/// words after the command's name.
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

/// What runs a command. Each dialect's dispatcher finds the entry and runs this, so a command
/// runs exactly when the table has it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Executor {
    /// An HBase shell command, run once its count of arguments fits [`CommandSpec::arity`].
    Shell(crate::shell::Run),
    /// A cbt command, run once its words fit `shape` (`usage` says what fits when they do not).
    Cbt {
        shape: crate::cbt::Shape,
        usage: crate::cbt::Usage,
        run: crate::cbt::Handler,
    },
    /// A command Rowkey knows and does not run: [`CommandSpec::note`] says why.
    Refused,
}

/// One command of the table.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    pub dialect: Dialect,
    pub group: Group,
    /// Whether it changes tables or data (refused in a read-only tab, saved after it runs).
    pub writes: bool,
    /// The keys its `{KEY => value}` hash (HBase) or its `key=value` words (cbt) understand.
    pub options: &'static [&'static str],
    /// For a refused command: what HBase would do and why Rowkey does not.
    pub note: &'static str,
    /// One line on what it does (cbt's command list).
    pub desc: &'static str,
    /// What its first positional arguments name, in order (none for a command that names no
    /// table).
    pub args: &'static [Role],
    /// Whether a table reference runs it (`t.put 'r', ...`), as hbase-shell's `table.rb` adds
    /// it to `Hbase::Table`.
    pub table_method: bool,
    /// How many arguments it takes (the table's included): checked before it runs.
    pub arity: Arity,
    /// What `help 'name'` (`cbt help name`) prints: what it does and examples, each of which
    /// runs.
    pub help: &'static str,
    pub(crate) run: Executor,
}

impl CommandSpec {
    /// A command of `dialect` run by `run`, taking no arguments until [`CommandSpec::takes`]
    /// says otherwise.
    pub(crate) const fn new(
        name: &'static str,
        dialect: Dialect,
        group: Group,
        writes: bool,
        options: &'static [&'static str],
        run: Executor,
    ) -> CommandSpec {
        CommandSpec {
            name,
            dialect,
            group,
            writes,
            options,
            note: "",
            desc: "",
            args: &[],
            table_method: false,
            arity: Arity {
                min: 0,
                max: Some(0),
            },
            help: "",
            run,
        }
    }

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

    /// What it does to the table it names (`None`: it names no table).
    pub fn effect(&self) -> Option<Effect> {
        let at = self.table_arg()?;
        Some(match self.role(at) {
            Some(Role::NewTable) => Effect::Creates,
            _ if self.writes => Effect::Changes,
            _ => Effect::Reads,
        })
    }

    /// Whether Rowkey runs it (a refused command is only explained).
    pub fn runs(&self) -> bool {
        !matches!(self.run, Executor::Refused)
    }

    pub(crate) const fn on(mut self, args: &'static [Role]) -> CommandSpec {
        self.args = args;
        self
    }

    pub(crate) const fn method(mut self) -> CommandSpec {
        self.table_method = true;
        self
    }

    /// Takes `min` to `max` arguments.
    pub(crate) const fn takes(mut self, min: usize, max: usize) -> CommandSpec {
        self.arity = Arity {
            min,
            max: Some(max),
        };
        self
    }

    /// Takes `min` arguments or more.
    pub(crate) const fn takes_more(mut self, min: usize) -> CommandSpec {
        self.arity = Arity { min, max: None };
        self
    }

    pub(crate) const fn help(mut self, text: &'static str) -> CommandSpec {
        self.help = text;
        self
    }

    pub(crate) const fn note(mut self, text: &'static str) -> CommandSpec {
        self.note = text;
        self
    }

    pub(crate) const fn desc(mut self, text: &'static str) -> CommandSpec {
        self.desc = text;
        self
    }
}

const COUNT: usize = crate::shell::commands::HBASE.len() + crate::cbt::CBT_COMMANDS.len();

/// Both dialects' entries as one slice, put together at compile time.
const fn join(a: &[CommandSpec], b: &[CommandSpec]) -> [CommandSpec; COUNT] {
    let mut out = [a[0]; COUNT];
    let mut i = 0;
    while i < a.len() {
        out[i] = a[i];
        i += 1;
    }
    let mut j = 0;
    while j < b.len() {
        out[i + j] = b[j];
        j += 1;
    }
    out
}

/// Every command of both dialects: HBase's in `help`'s order, then cbt's in cbt's.
pub static COMMANDS: &[CommandSpec] =
    &join(crate::shell::commands::HBASE, crate::cbt::CBT_COMMANDS);

/// The commands of one dialect, in the table's order.
pub fn of(dialect: Dialect) -> impl Iterator<Item = &'static CommandSpec> {
    COMMANDS.iter().filter(move |c| c.dialect == dialect)
}

/// The command of that name in `dialect`.
pub fn find(dialect: Dialect, name: &str) -> Option<&'static CommandSpec> {
    of(dialect).find(|c| c.name == name)
}

/// Whether the command changes tables or data (refused in a read-only tab).
pub fn writes(dialect: Dialect, name: &str) -> bool {
    find(dialect, name).is_some_and(|c| c.writes)
}

/// The option keys the command understands (none for an unknown command).
pub fn options(dialect: Dialect, name: &str) -> &'static [&'static str] {
    find(dialect, name).map_or(&[], |c| c.options)
}

/// The names of `dialect`'s commands that start with `prefix` and that Rowkey runs (the
/// refused ones answer only when typed in full): what completing a command's first word
/// offers.
pub fn complete_name(dialect: Dialect, prefix: &str) -> impl Iterator<Item = &'static str> + '_ {
    of(dialect)
        .filter(move |c| c.runs() && c.name.starts_with(prefix))
        .map(|c| c.name)
}

/// The candidate closest to `word` by edit distance (a swap of two letters counts as one
/// edit, case is ignored), if it is close enough to be a slip: at most one edit in three
/// letters. "Did you mean" for commands and option keys reads it.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&word, &c.to_ascii_lowercase());
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The Damerau–Levenshtein distance of `a` and `b` in characters: the fewest insertions,
/// deletions, substitutions and swaps of two adjacent characters that turn one into the other,
/// a swapped pair still editable in between ("ca" to "abc" is 2). Lowrance and Wagner's
/// algorithm, which `strsim::damerau_levenshtein` implements too (its tests compare the two);
/// written here so that the page does not carry that crate's generic character map.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let far = n + m;
    // d[(i + 1) * w + j + 1] is the distance of a[..i] and b[..j]; row and column 0 hold `far`.
    let w = m + 2;
    let mut d = vec![far; (n + 2) * w];
    for i in 0..=n {
        d[(i + 1) * w + 1] = i;
    }
    for j in 0..=m {
        d[w + j + 1] = j;
    }
    // The last row of `a` (1-based) holding each character seen so far.
    let mut last_row: Vec<(char, usize)> = Vec::new();
    for i in 1..=n {
        // The last column of `b` (1-based) in this row whose character matched a[i - 1].
        let mut last_match = 0;
        for j in 1..=m {
            let k = last_row
                .iter()
                .find(|(c, _)| *c == b[j - 1])
                .map_or(0, |&(_, row)| row);
            let l = last_match;
            let cost = if a[i - 1] == b[j - 1] {
                last_match = j;
                0
            } else {
                1
            };
            d[(i + 1) * w + j + 1] = (d[i * w + j] + cost)
                .min(d[(i + 1) * w + j] + 1)
                .min(d[i * w + j + 1] + 1)
                .min(d[k * w + l] + (i - k - 1) + 1 + (j - l - 1));
        }
        match last_row.iter_mut().find(|(c, _)| *c == a[i - 1]) {
            Some(seen) => seen.1 = i,
            None => last_row.push((a[i - 1], i)),
        }
    }
    d[(n + 1) * w + m + 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance agrees with strsim's on every pair of commands and option keys of both
    /// dialects, on their slips, and on the cases its own tests name.
    #[test]
    fn edit_distance_is_strsims() {
        let mut words: Vec<String> = [Dialect::HBase, Dialect::Cbt]
            .into_iter()
            .flat_map(|d| {
                of(d).flat_map(move |c| {
                    std::iter::once(c.name).chain(options(d, c.name).iter().copied())
                })
            })
            .map(str::to_string)
            .collect();
        let slips: Vec<String> = words
            .iter()
            .flat_map(|w| {
                let c: Vec<char> = w.chars().collect();
                let swapped = (c.len() > 2).then(|| {
                    let mut s = c.clone();
                    s.swap(0, 2);
                    s.into_iter().collect::<String>()
                });
                [
                    w.chars().rev().collect::<String>(),
                    w[w.len() / 2..].to_string(),
                ]
                .into_iter()
                .chain(swapped)
            })
            .collect();
        words.extend(slips);
        words.extend(
            [
                "",
                "a",
                "ab",
                "ba",
                "ca",
                "abc",
                "acb",
                "cab",
                "bca",
                "Ü",
                "üb",
                "bü",
                "a\u{301}b",
                "ab\u{301}",
            ]
            .map(str::to_string),
        );
        let mut pairs = 0;
        for a in &words {
            for b in words.iter().step_by(7) {
                assert_eq!(
                    edit_distance(a, b),
                    strsim::damerau_levenshtein(a, b),
                    "{a} {b}"
                );
                pairs += 1;
            }
        }
        assert!(pairs > 10_000, "{pairs} pairs");
        assert_eq!(edit_distance("ca", "abc"), 2);
        assert_eq!(edit_distance("sacn", "scan"), 1);
    }

    #[test]
    fn closest_takes_slips_and_refuses_strangers() {
        let names = || of(Dialect::HBase).map(|c| c.name);
        let scan = options(Dialect::HBase, "scan");
        assert_eq!(closest("sacn", names()), Some("scan"));
        assert_eq!(closest("gte", names()), Some("get"));
        assert_eq!(closest("craete", names()), Some("create"));
        assert_eq!(closest("frobnicate", names()), None);
        assert_eq!(closest("LIMT", scan.iter().copied()), Some("LIMIT"));
        assert_eq!(closest("limit", scan.iter().copied()), Some("LIMIT"));
        assert_eq!(closest("X", scan.iter().copied()), None);
    }

    #[test]
    fn roles_say_where_the_table_row_and_column_are() {
        let find = |name| find(Dialect::HBase, name);
        let put = find("put").map(|c| (c.table_arg(), c.role(1), c.role(2), c.table_method));
        assert_eq!(
            put,
            Some((Some(0), Some(Role::Row), Some(Role::Column), true))
        );
        let create = find("create").map(|c| (c.table_arg(), c.role(0), c.table_method));
        assert_eq!(create, Some((Some(0), Some(Role::NewTable), false)));
        assert_eq!(find("list").and_then(CommandSpec::table_arg), None);
        let methods: Vec<&str> = of(Dialect::HBase)
            .filter(|c| c.table_method)
            .map(|c| c.name)
            .collect();
        // hbase-shell's table.rb: the commands `Hbase::Table` runs.
        assert_eq!(methods.len(), 15);
        for m in &methods {
            assert_eq!(find(m).and_then(CommandSpec::table_arg), Some(0), "{m}");
        }
    }

    #[test]
    fn one_name_two_dialects_two_entries() {
        let count = |d| find(d, "count").map(|c| (c.dialect, c.arity));
        assert_eq!(
            count(Dialect::HBase),
            Some((
                Dialect::HBase,
                Arity {
                    min: 1,
                    max: Some(2)
                }
            ))
        );
        assert_eq!(
            count(Dialect::Cbt),
            Some((Dialect::Cbt, Arity { min: 1, max: None }))
        );
        assert_eq!(find(Dialect::Cbt, "put").map(|c| c.name), None);
        assert_eq!(find(Dialect::HBase, "lookup").map(|c| c.name), None);
    }

    #[test]
    fn every_entry_names_an_executor_of_its_dialect() {
        for c in COMMANDS {
            let fits = match c.run {
                Executor::Shell(_) => c.dialect == Dialect::HBase && c.group != Group::Cluster,
                Executor::Cbt { .. } => c.dialect == Dialect::Cbt,
                Executor::Refused => c.group == Group::Cluster,
            };
            assert!(fits, "{:?} {}", c.dialect, c.name);
        }
    }
}
