//! One analysis of a script: for each command, the table it reads, the table it changes and
//! the table it creates, with table references resolved (`t = get_table 'users'` then
//! `t.deleteall 'u1'` changes `users`; a reference made in one command holds in the later ones,
//! and two references may name one table). Share links, design loads, imports and the console
//! all read a script through it, so none of them can miss a write the shell would run.
//!
//! The analysis reads each dialect's commands as data ([`DialectCommand`]) from the one
//! command table ([`crate::commands::COMMANDS`]).

use crate::commands;
use crate::kit::sorted::SortedMap;
use crate::shell::{parse_script, Value};

pub use crate::commands::Dialect;

/// What a command does to the table its table argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Reads it (or nothing at all when the command names no table).
    Reads,
    /// Changes its data or its schema, or drops it.
    Changes,
    /// Creates it.
    Creates,
}

/// One command of a dialect as the analysis sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialectCommand {
    pub name: &'static str,
    pub effect: Effect,
    /// Which word after the command names the table.
    pub table_arg: usize,
}

/// The command of that name in `dialect`, as the analysis sees it: the command table says
/// which argument names the table and what the command does to it.
fn command(dialect: Dialect, name: &str) -> Option<DialectCommand> {
    let spec = commands::find(dialect, name)?;
    Some(DialectCommand {
        name: spec.name,
        effect: spec.effect()?,
        table_arg: spec.table_arg()?,
    })
}

/// What one command of a script does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// The command's name after references are resolved (`deleteall` for `t.deleteall`).
    pub command: String,
    /// The table it reads.
    pub reads: Option<String>,
    /// The table it changes (writes, deletes, alters, truncates or drops).
    pub changes: Option<String>,
    /// The table it creates.
    pub creates: Option<String>,
}

impl Access {
    /// The table the command names, whatever it does to it.
    pub fn table(&self) -> Option<&str> {
        self.changes
            .as_deref()
            .or(self.creates.as_deref())
            .or(self.reads.as_deref())
    }
}

/// Reads scripts in order, keeping table references from one to the next.
#[derive(Clone, Debug)]
pub struct Analyzer {
    dialect: Dialect,
    /// Table references by variable name.
    refs: SortedMap<String, String>,
}

impl Analyzer {
    pub fn new(dialect: Dialect) -> Analyzer {
        Analyzer {
            dialect,
            refs: SortedMap::new(),
        }
    }

    /// What each command of `text` does, in order; commands that do not parse are left out
    /// (the shell reports them and runs nothing for them).
    pub fn script(&mut self, text: &str) -> Vec<Access> {
        match self.dialect {
            Dialect::HBase => self.hbase(text),
            Dialect::Cbt => text.lines().filter_map(cbt_line).collect(),
        }
    }

    fn hbase(&mut self, text: &str) -> Vec<Access> {
        let mut out = Vec::new();
        for cmd in parse_script(text).into_iter().flatten() {
            // `t.method args` is `method 'table', args`; a bare `t` reads nothing.
            let (name, reference) = match cmd.name.split_once('.') {
                Some((var, method)) => match self.refs.get(var) {
                    Some(table) => (method, Some(table.clone())),
                    None => continue,
                },
                None if cmd.args.is_empty() && self.refs.contains_key(&cmd.name) => continue,
                None => (cmd.name.as_str(), None),
            };
            let Some(spec) = command(Dialect::HBase, name) else {
                continue;
            };
            let table =
                reference.or_else(|| match cmd.args.get(spec.table_arg).map(|a| &a.value) {
                    Some(Value::Str(b)) => Some(String::from_utf8_lossy(b).into_owned()),
                    _ => None,
                });
            if let (Some((var, _)), Some(table), "get_table" | "create") =
                (&cmd.target, &table, spec.name)
            {
                self.refs.insert(var.clone(), table.clone());
            }
            out.push(access(spec, table));
        }
        out
    }
}

fn access(spec: DialectCommand, table: Option<String>) -> Access {
    let mut a = Access {
        command: spec.name.to_string(),
        ..Access::default()
    };
    match spec.effect {
        Effect::Reads => a.reads = table,
        Effect::Changes => a.changes = table,
        Effect::Creates => a.creates = table,
    }
    a
}

/// One `cbt` line: `cbt` and its flags (`-project p`, `-instance=i`) skipped, then the command
/// and its words.
fn cbt_line(line: &str) -> Option<Access> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (name, args) = crate::cbt::command_words(&words).split_first()?;
    let spec = command(Dialect::Cbt, name)?;
    let table = args
        .get(spec.table_arg)
        .map(|t| t.trim_matches(['"', '\'']).to_string());
    Some(access(spec, table))
}

/// What each command of `scripts` does, read in order with references kept across them.
pub fn analyze(scripts: &[String], dialect: Dialect) -> Vec<Access> {
    let mut a = Analyzer::new(dialect);
    scripts.iter().flat_map(|s| a.script(s)).collect()
}

/// The existing tables the accesses change, in order of first mention: what a link, a design
/// load or an import must ask about before it runs. A table the script creates before it
/// changes it is the script's own and not listed.
pub fn existing_changed(accesses: &[Access], exists: impl Fn(&str) -> bool) -> Vec<String> {
    let mut created: Vec<&str> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for a in accesses {
        if let Some(t) = &a.creates {
            if !exists(t) {
                created.push(t);
            }
        }
        if let Some(t) = &a.changes {
            if exists(t) && !created.contains(&t.as_str()) && !out.contains(t) {
                out.push(t.clone());
            }
        }
    }
    out
}

/// The tables the accesses create, in order.
pub fn created(accesses: &[Access]) -> Vec<String> {
    accesses.iter().filter_map(|a| a.creates.clone()).collect()
}
