//! cbt's entries in the one table of commands ([`crate::commands`]): each command's
//! description, group, whether it writes, what its first words name, the words and `key=value`
//! arguments it takes, what it says when they do not fit, its handler and `cbt help NAME`'s
//! text. The dispatcher ([`Session::run_line`]), `help`, completion, the console's read-only
//! check and the script analysis ([`crate::analysis`]) all read them.

use super::args::{Call, Shape, Usage};
use super::session::Session;
use crate::commands::{self, Arity, CommandSpec, Dialect, Executor, Group, Role};
use crate::engine::Engine;
use crate::shell::Completion;

/// What runs a command: the session and its checked arguments, to what it prints on standard
/// output or cbt's error text.
pub(crate) type Handler = fn(&mut Session, &Call) -> Result<Vec<u8>, String>;

/// A cbt command of `group` run by `run` once its words fit `shape`; its arity and option keys
/// are the shape's.
const fn cbt(
    name: &'static str,
    group: Group,
    writes: bool,
    shape: Shape,
    usage: Usage,
    run: Handler,
) -> CommandSpec {
    let (options, min, max): (&'static [&'static str], usize, Option<usize>) = match shape {
        Shape::Keyed { at_least, keys, .. } => (keys, at_least, None),
        Shape::Exactly(n) => (&[], n, Some(n)),
        Shape::AtLeast(n) => (&[], n, None),
        Shape::AtMost(n) => (&[], 0, Some(n)),
        Shape::Profiled(n) => (&["app-profile"], n, Some(n + 1)),
    };
    let run = Executor::Cbt { shape, usage, run };
    let mut spec = CommandSpec::new(name, Dialect::Cbt, group, writes, options, run);
    spec.arity = Arity { min, max };
    spec
}

const fn keyed(words: usize, keys: &'static [&'static str]) -> Shape {
    Shape::Keyed {
        words,
        at_least: words,
        keys,
    }
}

const fn text(usage: &'static str) -> Usage {
    Usage::Text(usage)
}

const TABLE: &[Role] = &[Role::Table];
const TABLE_ROW: &[Role] = &[Role::Table, Role::Row];

/// The keys `lookup` takes.
const LOOKUP_KEYS: &[&str] = &[
    "columns",
    "cells-per-column",
    "app-profile",
    "format-file",
    "keys-only",
    "include-stats",
    "authorized-view",
];

/// The keys `read` takes (`limit` only to say it is not one).
const READ_KEYS: &[&str] = &[
    "start",
    "end",
    "prefix",
    "columns",
    "count",
    "cells-per-column",
    "regex",
    "app-profile",
    "limit",
    "reversed",
    "format-file",
    "keys-only",
    "include-stats",
    "authorized-view",
];

const IMPORT_KEYS: &[&str] = &[
    "app-profile",
    "column-family",
    "batch-size",
    "workers",
    "timestamp",
];

/// The cbt commands Rowkey runs: cbt 1.23.2's in its order, then `checkandmutate`,
/// `readmodifywrite` and `samplerowkeys` as later cbt releases have them (cbt.go of
/// googleapis/cloud-bigtable-cbt-cli at 7fb42c4, lines 768-800 and 865-870), then Rowkey's own
/// `export` and `compact` (Bigtable compacts in the background, Rowkey when asked).
#[rustfmt::skip]
pub(crate) const CBT_COMMANDS: &[CommandSpec] = &[
    cbt("addtocell", Group::Dml, true, Shape::AtLeast(3),
        text("usage: cbt addtocell <table> <row> [app-profile=<app profile id>] family:[column]=val[@ts] ..."), Session::addtocell)
        .desc("Add a value to an aggregate cell (write)").on(TABLE_ROW).help(include_str!("help/addtocell.txt")),
    cbt("count", Group::Dml, false, keyed(1, &["prefix"]),
        text("usage: cbt count <table> [prefix=<row-key-prefix>]"), Session::count)
        .desc("Count rows in a table").on(TABLE).help(include_str!("help/count.txt")),
    cbt("createfamily", Group::Ddl, true, Shape::Exactly(2),
        text("usage: cbt createfamily <table> <family>"), Session::createfamily)
        .desc("Create a column family").on(TABLE).help(include_str!("help/createfamily.txt")),
    cbt("createtable", Group::Ddl, true, keyed(1, &["families", "splits"]),
        text("usage: cbt createtable <table> [families=family[:gcpolicy[:type]],...] [splits=split,...]"), Session::createtable)
        .desc("Create a table").on(&[Role::NewTable]).help(include_str!("help/createtable.txt")),
    cbt("deleteallrows", Group::Dml, true, Shape::Exactly(1), Usage::CantDo, Session::deleteallrows)
        .desc("Delete all rows").on(TABLE).help(include_str!("help/deleteallrows.txt")),
    cbt("deletecolumn", Group::Dml, true, Shape::Profiled(4),
        text("usage: cbt deletecolumn <table> <row> <family> <column> [app-profile=<app profile id>]"), Session::deletecolumn)
        .desc("Delete all cells in a column").on(TABLE_ROW).help(include_str!("help/deletecolumn.txt")),
    cbt("deletefamily", Group::Ddl, true, Shape::Exactly(2),
        text("usage: cbt deletefamily <table> <family>"), Session::deletefamily)
        .desc("Delete a column family").on(TABLE).help(include_str!("help/deletefamily.txt")),
    cbt("deleterow", Group::Dml, true, Shape::Profiled(2),
        text("usage: cbt deleterow <table> <row> [app-profile=<app profile id>]"), Session::deleterow)
        .desc("Delete a row").on(TABLE_ROW).help(include_str!("help/deleterow.txt")),
    cbt("deletetable", Group::Ddl, true, Shape::Exactly(1), Usage::CantDo, Session::deletetable)
        .desc("Delete a table").on(TABLE).help(include_str!("help/deletetable.txt")),
    cbt("help", Group::General, false, Shape::AtLeast(0), Usage::CantDo, Session::help)
        .desc("Print help text").help(include_str!("help/help.txt")),
    cbt("import", Group::Dml, true, keyed(2, IMPORT_KEYS),
        text("usage: cbt import <table> <input-file> [app-profile=<app-profile-id>] [column-family=<family-name>] [batch-size=<500>] [workers=<1>] [timestamp=<now|value-encoded>]"), Session::import)
        .desc("Batch write many rows based on the input file").on(TABLE).help(include_str!("help/import.txt")),
    cbt("lookup", Group::Dml, false, keyed(2, LOOKUP_KEYS),
        text("usage: cbt lookup <table> <row> [columns=<family:qualifier>...] [cells-per-column=<n>] [app-profile=<app profile id>]"), Session::lookup)
        .desc("Read from a single row").on(TABLE_ROW).help(include_str!("help/lookup.txt")),
    cbt("ls", Group::Ddl, false, Shape::AtMost(1), Usage::CantDo, Session::ls)
        .desc("List tables and column families").on(TABLE).help(include_str!("help/ls.txt")),
    cbt("read", Group::Dml, false, keyed(1, READ_KEYS),
        text("usage: cbt read <table> [args ...]"), Session::read)
        .desc("Read rows").on(TABLE).help(include_str!("help/read.txt")),
    cbt("set", Group::Dml, true, Shape::AtLeast(3),
        text("usage: cbt set <table> <row> [authorized-view=<authorized-view-id>] [app-profile=<app profile id>] family:[column]=val[@ts] ..."), Session::set)
        .desc("Set value of a cell (write)").on(TABLE_ROW).help(include_str!("help/set.txt")),
    cbt("setgcpolicy", Group::Ddl, true, Shape::AtLeast(3),
        text("usage: cbt setgcpolicy <table> <family> ((maxage=<d> | maxversions=<n>) [(and|or) (maxage=<d> | maxversions=<n>),...] | never) [force]"), Session::setgcpolicy)
        .desc("Set the garbage-collection policy (age, versions) for a column family").on(TABLE).help(include_str!("help/setgcpolicy.txt")),
    cbt("version", Group::General, false, Shape::AtLeast(0), Usage::CantDo, Session::version)
        .desc("Print the current cbt version").help(include_str!("help/version.txt")),
    cbt("checkandmutate", Group::Dml, true, Shape::Keyed { words: 2, at_least: 3, keys: &["columns", "true", "false"] },
        text("cbt checkandmutate <table-id> <rowkey> [columns=<family:qualifier>] [true=<family>:<column>=<val>[@<timestamp>]] [false=<family>:<column>=<val>[@<timestamp>]]"), Session::checkandmutate)
        .desc("Set a value based on the presence of any cell that matches the constraints").on(TABLE_ROW).help(include_str!("help/checkandmutate.txt")),
    cbt("readmodifywrite", Group::Dml, true, Shape::Keyed { words: 4, at_least: 5, keys: &["append", "increment"] },
        text("cbt readmodifywrite <table-id> <rowkey> <family> <qualifier> [append=<val>] [increment=<delta>]"), Session::readmodifywrite)
        .desc("Update a cell with incremental operations based on the latest value of the cell").on(TABLE_ROW).help(include_str!("help/readmodifywrite.txt")),
    cbt("samplerowkeys", Group::Tools, false, Shape::Exactly(1),
        text("usage: cbt samplerowkeys <table>"), Session::samplerowkeys)
        .desc("Sample the row keys in a table").on(TABLE).help(include_str!("help/samplerowkeys.txt")),
    cbt("export", Group::Rowkey, false, keyed(1, &["format"]),
        text("usage: cbt export <table> [format=script|csv]"), Session::export)
        .desc("Print a table as a cbt script or a CSV for cbt import (Rowkey)").on(TABLE)
        .help("cbt export <table-id> [format=script|csv]\n\n    Rowkey's own: prints the table as a cbt script (createtable with families, policies and\n    splits, then one set per row) or as a CSV for `cbt import <table-id> FILE timestamp=value-encoded`.\n"),
    cbt("compact", Group::Rowkey, true, Shape::Exactly(1),
        text("usage: cbt compact <table>"), Session::compact)
        .desc("Run a compaction now, applying garbage-collection policies (Rowkey)").on(TABLE)
        .help("cbt compact <table-id>\n\n    Rowkey's own: Bigtable compacts in the background; Rowkey compacts when asked.\n"),
];

/// The version cbt 1.23.2 prints, which Rowkey's dialect follows.
pub const CBT_VERSION: &str = "1.23.2 9eeb4a7 2025-04-22 20:49:45";

/// cbt's usage text (`cbt help` and a line without a command), listing every command the
/// dialect runs ([`super::listing`]).
pub fn usage() -> String {
    super::listing::usage()
}

impl Session {
    pub(super) fn help(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        match call.words.first() {
            None => Ok(usage().into_bytes()),
            Some(name) => {
                let name = super::args::text(name);
                match commands::find(Dialect::Cbt, &name) {
                    Some(c) => Ok(c.help.as_bytes().to_vec()),
                    None => Err(format!(
                        "Don't know command {}",
                        super::print::go_quote(name.as_bytes())
                    )),
                }
            }
        }
    }

    pub(super) fn version(&mut self, _call: &Call) -> Result<Vec<u8>, String> {
        Ok(format!("{CBT_VERSION}\n").into_bytes())
    }
}

/// The words of a cbt line from its command on: after an optional `cbt` and cbt's flags
/// (`-project p`, `-instance=i`: a flag without `=` takes the next word), as
/// [`Session::run_line`] reads them.
pub fn command_words<W: AsRef<[u8]>>(mut words: &[W]) -> &[W] {
    if words.first().is_some_and(|w| w.as_ref() == b"cbt") {
        words = &words[1..];
    }
    while let Some(flag) = words.first().filter(|w| w.as_ref().starts_with(b"-")) {
        let taken = if flag.as_ref().contains(&b'=') { 1 } else { 2 };
        words = &words[taken.min(words.len())..];
    }
    words
}

/// Tab completion for a cbt line at `cursor` (a byte offset, clamped to the input): the
/// command's name (after an optional `cbt` and its flags, and after `help`), then a table's
/// name where the command's first word is a table, then the `key=` arguments the command
/// takes.
pub fn complete(src: &str, cursor: usize, engine: &Engine) -> Completion {
    let mut cursor = cursor.min(src.len());
    while !src.is_char_boundary(cursor) {
        cursor -= 1;
    }
    let line_start = src[..cursor].rfind('\n').map_or(0, |n| n + 1);
    let before = &src[line_start..cursor];
    let start = cursor - before.len() + before.rfind([' ', '\t']).map_or(0, |n| n + 1);
    let typed = &src[start..cursor];
    let words: Vec<&str> = before[..start - line_start].split_whitespace().collect();
    let candidates: Vec<String> = match command_words(&words).split_first() {
        None => commands::complete_name(Dialect::Cbt, typed)
            .map(str::to_string)
            .collect(),
        Some((&"help", [])) => commands::complete_name(Dialect::Cbt, typed)
            .map(str::to_string)
            .collect(),
        Some((name, args)) => match commands::find(Dialect::Cbt, name) {
            Some(spec) if args.is_empty() && spec.role(0) == Some(Role::Table) => engine
                .tables()
                .map(|t| t.descriptor.name.clone())
                .filter(|t| t.starts_with(typed))
                .collect(),
            Some(spec) if !typed.contains('=') => spec
                .options
                .iter()
                .map(|k| format!("{k}="))
                .filter(|k| k.starts_with(typed))
                .collect(),
            _ => Vec::new(),
        },
    };
    Completion {
        replace: start..cursor,
        candidates: candidates
            .into_iter()
            .collect::<crate::kit::sorted::SortedSet<String>>()
            .into_iter()
            .collect(),
    }
}
